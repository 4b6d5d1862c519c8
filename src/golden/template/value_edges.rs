//! Operand values at the edges of the integer opcodes' cases, written over the values drawn
//! for one vector in two of these opcodes: sums and differences at the 2^32 boundary (addc's
//! carry, subb's borrow), bit-field widths and offsets of 0, 1, 16, 31, 32 and beyond (bfe,
//! bfi1 take their low five bits, so 32 wraps to 0), masks of no, one, all and scattered bits
//! (bfi2), products at the signed and unsigned extremes (mach) and byte pairs at their type's
//! extremes or equal (sad2, sada2). The drawn values (value classes of the type) cover the
//! rest; these are the cases a random draw rarely hits.

use crate::golden::values::Rng;
use crate::isa::{Insn, Src};
use crate::spec::{DataType, Opcode};

/// bfe/bfi1 field widths (src0): the low five bits are the width, so 32 and 0xFFFF_FFFF
/// wrap to 0 and 31.
pub const WIDTHS: [u32; 8] = [0, 1, 31, 32, 33, 16, 0xFFFF_FFFF, 0x8000_0014];
/// bfe/bfi1 field offsets (src1), likewise.
pub const OFFSETS: [u32; 8] = [0, 31, 32, 1, 20, 63, 16, 0x8000_0001];
/// bfi2 masks (src0); the last is replaced by random bits.
pub const MASKS: [u32; 8] = [
    0,
    u32::MAX,
    0x8000_0000,
    1,
    0x00FF_0000,
    0x0F0F_00F0,
    0x7FFF_FFFE,
    0,
];

/// The opcodes with edge values.
pub fn has_edges(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::Addc
            | Opcode::Subb
            | Opcode::Mach
            | Opcode::Bfe
            | Opcode::Bfi1
            | Opcode::Bfi2
            | Opcode::Sad2
            | Opcode::Sada2
    )
}

/// The values of channel `c` of case `k` (a running count from a random start) for `op`'s
/// sources (None: keep the drawn value); `imm1` is src1's immediate, whose value src0 then
/// pairs with; `x` random bits; `types` the source types.
fn channel_values(
    op: Opcode,
    k: usize,
    imm1: Option<u32>,
    x: u32,
    types: [Option<DataType>; 3],
) -> [Option<u32>; 3] {
    // A pair with src1 fixed by the immediate where there is one.
    let pair = |a: &dyn Fn(u32) -> u32, b: u32| {
        let b = imm1.unwrap_or(b);
        [Some(a(b)), Some(b), None]
    };
    match op {
        Opcode::Addc => match k % 4 {
            // The sum is exactly 2^32: result 0, carry 1.
            0 => pair(&|b| 0u32.wrapping_sub(b), x | 1),
            // The sum is 2^32 - 1: no carry.
            1 => pair(&|b| u32::MAX - b, x),
            2 => pair(&|_| u32::MAX, u32::MAX),
            _ => pair(&|_| 0x8000_0000, 0x8000_0000),
        },
        Opcode::Subb => match k % 4 {
            // Equal: 0, no borrow.
            0 => pair(&|b| b, x),
            // One less: all ones and a borrow (but for src1 = 0).
            1 => pair(&|b| b.wrapping_sub(1), x),
            2 => pair(&|_| 0, u32::MAX),
            _ => pair(&|_| u32::MAX, 0),
        },
        Opcode::Mach => match k % 5 {
            0 => pair(&|_| 0x8000_0000, 0x8000_0000),
            1 => pair(&|_| 0x7FFF_FFFF, 0x7FFF_FFFF),
            2 => pair(&|_| u32::MAX, u32::MAX),
            // src1's high word 1, then 0 (mach multiplies by src1's high 16 bits).
            3 => pair(&|_| x, 0x0001_0000),
            _ => pair(&|_| x, 0x0000_FFFF),
        },
        Opcode::Bfe | Opcode::Bfi1 => [Some(WIDTHS[k % 8]), Some(OFFSETS[(k / 8) % 8]), None],
        Opcode::Bfi2 => {
            let m = MASKS[k % 8];
            [Some(if k % 8 == 7 { x } else { m }), None, None]
        }
        Opcode::Sad2 | Opcode::Sada2 => {
            // Byte pairs at the type's extremes (a difference of 255) or equal (0).
            let ext = |t: Option<DataType>, hi: bool| match (t, hi) {
                (Some(DataType::B), false) => 0x80,
                (Some(DataType::B), true) => 0x7F,
                (_, false) => 0,
                (_, true) => 0xFF,
            };
            match k % 3 {
                0 => [Some(ext(types[0], false)), Some(ext(types[1], true)), None],
                1 => [Some(ext(types[0], true)), Some(ext(types[1], false)), None],
                _ => [Some(x & 0xFF), Some(x & 0xFF), None],
            }
        }
        _ => [None; 3],
    }
}

/// The edge values of one vector of `insn` (every other vector of an opcode with edges; none
/// for the others, which draw nothing from `r` here), as (GRF byte offset, size, bits) writes;
/// `offset(i, c)` is the byte offset of source `i`'s element of channel `c` (None: not a GRF
/// register).
pub(crate) fn edge_values(
    insn: &Insn,
    r: &mut Rng,
    offset: impl Fn(usize, u32) -> Option<usize>,
) -> Vec<(usize, usize, u64)> {
    let mut w = Vec::new();
    if !has_edges(insn.op) || !r.chance(1, 2) {
        return w;
    }
    let types = [0, 1, 2].map(|i| insn.src[i].map(|s| s.ty()));
    let imm1 = match insn.src[1] {
        Some(Src::Imm(m)) => Some(m.bits as u32),
        _ => None,
    };
    let start = r.below(1 << 16);
    for c in 0..u32::from(insn.exec_size) {
        let x = r.next() as u32;
        let vals = channel_values(insn.op, start + c as usize, imm1, x, types);
        for (i, v) in vals.into_iter().enumerate() {
            let (Some(v), Some(t)) = (v, types[i]) else {
                continue;
            };
            if let Some(o) = offset(i, c) {
                let sz = t.bytes() as usize;
                w.push((o, sz, u64::from(v) & crate::state::mask_bits(t.bits())));
            }
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cases are what they say: addc sums at 2^32 and 2^32 - 1, subb differences of 0
    /// and -1, bfe/bfi1 widths and offsets reaching 0, 31 and a wrapped 32, with a register
    /// src1 and with an immediate src1 that src0 pairs with.
    #[test]
    fn cases_reach_the_boundaries() {
        let ud = [Some(DataType::UD); 3];
        for x in [0u32, 1, 0x1234_5678, u32::MAX] {
            for imm in [None, Some(x ^ 0x55)] {
                let s = |k| channel_values(Opcode::Addc, k, imm, x, ud);
                let sum = |v: [Option<u32>; 3]| u64::from(v[0].unwrap()) + u64::from(v[1].unwrap());
                let b = imm.unwrap_or(x | 1);
                assert_eq!(sum(s(0)), if b == 0 { 0 } else { 1 << 32 });
                assert_eq!(sum(s(1)), u64::from(u32::MAX));
                let b2 = u64::from(imm.unwrap_or(u32::MAX));
                assert_eq!(sum(s(2)), u64::from(u32::MAX) + b2);
                let d = |k| channel_values(Opcode::Subb, k, imm, x, ud);
                let diff =
                    |v: [Option<u32>; 3]| i64::from(v[0].unwrap()) - i64::from(v[1].unwrap());
                assert_eq!(diff(d(0)), 0);
                let b1 = imm.unwrap_or(x);
                assert_eq!(diff(d(1)), if b1 == 0 { i64::from(u32::MAX) } else { -1 });
                assert!(diff(d(2)) < 0 && diff(d(3)) > 0);
            }
        }
        let low5 =
            |k: usize, i: usize| channel_values(Opcode::Bfe, k, None, 0, ud)[i].unwrap() & 31;
        let widths: Vec<u32> = (0..64).map(|k| low5(k, 0)).collect();
        let offsets: Vec<u32> = (0..64).map(|k| low5(k, 1)).collect();
        for want in [0, 1, 16, 31] {
            assert!(widths.contains(&want) && offsets.contains(&want), "{want}");
        }
        // 32 (and 33) wrap: a raw 32 is among both.
        assert!(WIDTHS.contains(&32) && OFFSETS.contains(&32));
        // Every width meets every offset within 64 consecutive cases.
        let pairs: std::collections::BTreeSet<(usize, usize)> =
            (0..64).map(|k| (k % 8, (k / 8) % 8)).collect();
        assert_eq!(pairs.len(), 64);
    }
}
