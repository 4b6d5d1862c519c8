//! Integer and logic semantics of the non-branching ALU opcodes.
//!
//! Values are exact (`i128`): each source element is taken at its own type's value
//! (sign-extended for signed types, zero-extended for unsigned ones: the word datapath has 33
//! bits so that W and UW sources both fit, acc.precision.w), source modifiers are applied
//! exactly after that conversion (seed000 §1.1: "Source modification logically occurs after
//! any conversion from source data type to execution data type"), and the operation's exact
//! result is then limited to the execution precision by the caller (`alu`) and converted to
//! the destination type (`convert`).
//!
//! Where the seeds do not define an instruction, the definition used is cited on its arm:
//! Intel's vISA instruction pages (intel-graphics-compiler documentation/visa/instructions,
//! "visa" below; known slips in them are noted) and Mesa's compiler.

#![allow(clippy::needless_range_loop)] // channels index several parallel arrays

use super::flags::int_compare;
use super::mask::Enables;
use super::region::MAX_CHANNELS;
use super::ExecError;
use crate::spec::{feature, CondMod, DataType, Opcode, Platform};

/// Gathered source values of one operand.
#[derive(Debug, Clone, Copy)]
pub struct Vals {
    /// Raw element bits.
    pub bits: [u64; MAX_CHANNELS],
    /// Exact values after source modifiers.
    pub x: [i128; MAX_CHANNELS],
    /// Channels whose value is undefined.
    pub undef: u32,
    /// Element type.
    pub ty: DataType,
    /// Source modifiers (already applied to `x`).
    pub neg: bool,
    pub abs: bool,
}

impl Vals {
    pub fn empty(ty: DataType) -> Vals {
        Vals {
            bits: [0; MAX_CHANNELS],
            x: [0; MAX_CHANNELS],
            undef: 0,
            ty,
            neg: false,
            abs: false,
        }
    }

    /// Apply this operand's arithmetic source modifiers to `v`: (abs), then negate.
    #[inline]
    pub fn modify(&self, v: i128) -> i128 {
        let v = if self.abs { v.abs() } else { v };
        if self.neg {
            -v
        } else {
            v
        }
    }
}

/// The execution datapath of an integer instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExecClass {
    /// Width of the execution type in bits (16 for byte and word sources, 32, 64).
    pub bits: u32,
    /// The execution type (the largest source type; bytes execute as words).
    pub ty: DataType,
}

impl ExecClass {
    /// From the source element types (properties.toml `exec_type`: the largest source type;
    /// byte sources execute as word).
    pub fn of(types: &[DataType]) -> Option<ExecClass> {
        let mut best: Option<DataType> = None;
        for t in types {
            let t = match t {
                DataType::B => DataType::W,
                DataType::UB => DataType::UW,
                other => *other,
            };
            if best.is_none_or_smaller(t) {
                best = Some(t);
            }
        }
        best.map(|t| ExecClass {
            bits: t.bits(),
            ty: t,
        })
    }
}

trait Smaller {
    fn is_none_or_smaller(&self, t: DataType) -> bool;
}

impl Smaller for Option<DataType> {
    fn is_none_or_smaller(&self, t: DataType) -> bool {
        match self {
            None => true,
            Some(b) => {
                t.bits() > b.bits() || (t.bits() == b.bits() && t.is_signed() && !b.is_signed())
            }
        }
    }
}

/// What an integer operation produced.
#[derive(Debug, Clone, Copy)]
pub struct IntOut {
    /// Exact results (before the execution-precision limit and the destination conversion).
    pub res: [i128; MAX_CHANNELS],
    /// Channels whose result is undefined.
    pub undef: u32,
    /// The accumulator value, where it differs from `res` (mach: the full sum; addc/subb: the
    /// carry/borrow).
    pub acc: Option<[i128; MAX_CHANNELS]>,
    /// The accumulator is written whatever AccWrCtrl says (addc, subb).
    pub acc_forced: bool,
    /// cmp/cmpn: the flag value of each channel (the comparison), and the destination gets all
    /// ones or zero.
    pub cond: Option<[bool; MAX_CHANNELS]>,
    /// The result goes through the execution precision (arithmetic), as opposed to bit
    /// operations whose results are bit patterns.
    pub arith: bool,
}

impl Default for IntOut {
    fn default() -> Self {
        IntOut::new()
    }
}

impl IntOut {
    /// Nothing computed yet: every result 0, none undefined.
    pub fn new() -> IntOut {
        IntOut {
            res: [0; MAX_CHANNELS],
            undef: 0,
            acc: None,
            acc_forced: false,
            cond: None,
            arith: false,
        }
    }
}

/// Whether the opcode is implemented by [`compute`] for integer types.
pub fn supports(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        Mov | Sel
            | Not
            | And
            | Or
            | Xor
            | Shr
            | Shl
            | Asr
            | Cmp
            | Cmpn
            | Add
            | Addc
            | Subb
            | Mul
            | Mac
            | Mach
            | Avg
            | Lzd
            | Fbh
            | Fbl
            | Cbit
            | Bfrev
            | Bfe
            | Bfi1
            | Bfi2
            | Sad2
            | Sada2
    )
}

/// Whether the opcode is a logic operation (source negate means bitwise NOT).
pub fn is_logic(op: Opcode) -> bool {
    matches!(op, Opcode::Not | Opcode::And | Opcode::Or | Opcode::Xor)
}

fn shift_count(x: i128, wide: bool) -> u32 {
    // visa SHL/SHR/ASR: "the last 5 (or 6 for Q/UQ type destinations) LSB bits of src1 are
    // used as an unsigned integer value for the shift operation".
    (x as u64 & if wide { 0x3f } else { 0x1f }) as u32
}

fn sext(v: i128, bits: u32) -> i128 {
    let sh = 128 - bits;
    (v << sh) >> sh
}

fn zext(v: i128, bits: u32) -> i128 {
    if bits >= 128 {
        v
    } else {
        v & ((1i128 << bits) - 1)
    }
}

/// Inputs of [`compute`].
pub struct Inputs<'a> {
    pub op: Opcode,
    pub p: Platform,
    pub n: usize,
    pub s: &'a [Vals],
    /// The implicit accumulator source (mac, mach, sada2), read with the execution type.
    pub acc: Option<&'a Vals>,
    pub class: ExecClass,
    pub cmod: CondMod,
    /// The predicate mask (sel selects with it).
    pub pmask: Enables,
    /// Whether the instruction is predicated.
    pub predicated: bool,
    pub dst_ty: DataType,
}

/// Compute an integer operation for channels `0..n`.
pub fn compute(i: &Inputs) -> Result<IntOut, ExecError> {
    let mut o = IntOut::new();
    compute_into(i, &mut o)?;
    Ok(o)
}

/// [`compute`] into `o` (as [`IntOut::new`] made it), without moving the result.
pub fn compute_into(i: &Inputs, o: &mut IntOut) -> Result<(), ExecError> {
    use Opcode::*;
    let n = i.n;
    let s = i.s;
    let need = |k: usize| -> Result<&Vals, ExecError> {
        // (Built only on the error path: this runs for every integer instruction.)
        s.get(k).ok_or_else(|| ExecError::Operand {
            operand: format!("src{k}"),
            msg: format!("{} needs source {k}", i.op.name()),
        })
    };
    let mut und = 0u32;
    for v in s {
        und |= v.undef;
    }
    if let Some(a) = i.acc {
        und |= a.undef;
    }
    let wide = i.class.bits == 64 || i.dst_ty.bits() == 64;
    let w = i.class.bits;
    match i.op {
        Mov => {
            let a = need(0)?;
            o.res[..n].copy_from_slice(&a.x[..n]);
        }
        Not => {
            let a = need(0)?;
            for c in 0..n {
                o.res[c] = !a.x[c];
            }
        }
        And | Or | Xor => {
            let (a, b) = (need(0)?, need(1)?);
            for c in 0..n {
                o.res[c] = match i.op {
                    And => a.x[c] & b.x[c],
                    Or => a.x[c] | b.x[c],
                    _ => a.x[c] ^ b.x[c],
                };
            }
        }
        Shl => {
            let (a, b) = (need(0)?, need(1)?);
            for c in 0..n {
                o.res[c] = a.x[c].wrapping_shl(shift_count(b.x[c], wide));
            }
            o.arith = true;
        }
        Shr => {
            // Logical shift of the execution-width bit pattern (visa SHR).
            let (a, b) = (need(0)?, need(1)?);
            for c in 0..n {
                o.res[c] = zext(a.x[c], w) >> shift_count(b.x[c], wide);
            }
        }
        Asr => {
            // Arithmetic shift of the execution-width value (visa ASR).
            let (a, b) = (need(0)?, need(1)?);
            for c in 0..n {
                o.res[c] = sext(a.x[c], w) >> shift_count(b.x[c], wide);
            }
        }
        Add => {
            let (a, b) = (need(0)?, need(1)?);
            for c in 0..n {
                o.res[c] = a.x[c] + b.x[c];
            }
            o.arith = true;
        }
        Avg => {
            // opcode.avg: (src0 + src1 + 1) >> 1 computed without overflow.
            let (a, b) = (need(0)?, need(1)?);
            for c in 0..n {
                o.res[c] = (a.x[c] + b.x[c] + 1) >> 1;
            }
            o.arith = true;
        }
        Mul | Mac => {
            let (a, b) = (need(0)?, need(1)?);
            let dword = |t: DataType| t.bits() == 32;
            // feature.mul-dword-src1-low16: an integer mul involving DWords uses only the low 16
            // bits of src1. The seeds do not say whether those bits are taken as signed for a D
            // src1; they are zero-extended for UD (as Mesa's mul+mach macro relies on, with a UW
            // src1) and the result is left undefined when a D src1 has bit 15 set.
            let low16 = feature::MUL_DWORD_SRC1_LOW16.on(i.p)
                && (dword(a.ty) || dword(b.ty))
                && dword(b.ty);
            for c in 0..n {
                let m1 = if low16 {
                    let lo = b.bits[c] & 0xffff;
                    if b.ty.is_signed() && lo & 0x8000 != 0 {
                        und |= 1 << c;
                    }
                    b.modify(i128::from(lo))
                } else {
                    b.x[c]
                };
                let prod = a.x[c] * m1;
                o.res[c] = match (i.op, i.acc) {
                    (Mac, Some(acc)) => acc.x[c] + prod,
                    _ => prod,
                };
            }
            o.arith = true;
        }
        Mach => {
            // Multiply-accumulate high: with the accumulator holding src0 * (low 16 bits of
            // src1) (the preceding mul), the sum acc + src0 * (src1's high 16 bits << 16) is
            // the full 64-bit product; dst gets bits 63:32 and the accumulator the sum. Mesa
            // brw_fs.cpp (lower_integer_multiplication, MULH: "mul acc0, x, y.uw; mach dst, x,
            // y", also on Gen8 which otherwise has a full 32x32 multiply); visa MULH.
            let (a, b) = (need(0)?, need(1)?);
            let acc = i.acc.ok_or_else(|| ExecError::Operand {
                operand: "acc".into(),
                msg: "mach reads the accumulator".into(),
            })?;
            let mut accv = [0i128; MAX_CHANNELS];
            for c in 0..n {
                let hi = b.x[c] >> 16;
                let t = acc.x[c] + a.x[c] * (hi << 16);
                accv[c] = t;
                o.res[c] = t >> 32;
            }
            o.acc = Some(accv);
            o.arith = true;
        }
        Addc | Subb => {
            // opcode.addc / opcode.subb (visa ADDC, SUBB): UD sum or difference; the carry (sum
            // >= 2^32) or borrow (src0 < src1) goes to the accumulator.
            let (a, b) = (need(0)?, need(1)?);
            let mut accv = [0i128; MAX_CHANNELS];
            for c in 0..n {
                if i.op == Addc {
                    let r = a.x[c] + b.x[c];
                    o.res[c] = r;
                    accv[c] = i128::from(r >= 1i128 << 32);
                } else {
                    o.res[c] = a.x[c] - b.x[c];
                    accv[c] = i128::from(a.x[c] < b.x[c]);
                }
            }
            o.acc = Some(accv);
            o.acc_forced = true;
        }
        Sel => {
            let (a, b) = (need(0)?, need(1)?);
            for c in 0..n {
                let pick = if i.predicated {
                    if i.pmask.unknown >> c & 1 == 1 {
                        und |= 1 << c;
                    }
                    i.pmask.on >> c & 1 == 1
                } else {
                    int_compare(i.cmod, a.x[c], b.x[c]).unwrap_or(true)
                };
                o.res[c] = if pick { a.x[c] } else { b.x[c] };
            }
        }
        Cmp | Cmpn => {
            // Integer cmpn is cmp (the NaN rules concern floats only, compare.toml).
            let (a, b) = (need(0)?, need(1)?);
            let mut cond = [false; MAX_CHANNELS];
            for c in 0..n {
                let r = int_compare(i.cmod, a.x[c], b.x[c]).unwrap_or(false);
                cond[c] = r;
                o.res[c] = if r { -1 } else { 0 };
            }
            o.cond = Some(cond);
        }
        Lzd => {
            let a = need(0)?;
            for c in 0..n {
                o.res[c] = i128::from((a.x[c] as u32).leading_zeros());
            }
        }
        Fbh => {
            // opcode.fbh; Mesa brw_fs_nir.cpp (nir_op_ufind_msb / ifind_msb: "FBH counts from the
            // MSB side ... If FBH didn't return an error (0xFFFFFFFF), then subtract the result
            // from 31"): the position counted from bit 31 of the highest set bit (UD) or of the
            // highest bit differing from the sign (D); 0xFFFFFFFF when there is none.
            let a = need(0)?;
            for c in 0..n {
                let v = a.x[c] as u32;
                let probe = if a.ty.is_signed() && v >> 31 == 1 {
                    !v
                } else {
                    v
                };
                o.res[c] = if probe == 0 {
                    0xffff_ffff
                } else {
                    i128::from(probe.leading_zeros())
                };
            }
        }
        Fbl => {
            // opcode.fbl: index of the lowest set bit; 0xFFFFFFFF when there is none.
            let a = need(0)?;
            for c in 0..n {
                let v = a.bits[c] & crate::state::mask_bits(a.ty.bits());
                o.res[c] = if v == 0 {
                    0xffff_ffff
                } else {
                    i128::from(v.trailing_zeros())
                };
            }
        }
        Cbit => {
            // opcode.cbit: the number of set bits of the source element (visa CBIT's pseudocode
            // is garbled; the instruction is a population count of the source's own bits).
            let a = need(0)?;
            for c in 0..n {
                let v = a.bits[c] & crate::state::mask_bits(a.ty.bits());
                o.res[c] = i128::from(v.count_ones());
            }
        }
        Bfrev => {
            let a = need(0)?;
            for c in 0..n {
                o.res[c] = i128::from((a.x[c] as u32).reverse_bits());
            }
        }
        Bfe => {
            // visa BFE: width = src0 & 0x1F, offset = src1 & 0x1F, dst = (src2 >> offset) &
            // ((1 << width) - 1), sign-extended when dst is D. Mesa nir_opcodes.py (ubfe/ibfe,
            // "SM5 bfe assembly": width 0 gives 0; a field reaching past bit 31 is src2 >>
            // offset, logical or arithmetic) agrees with taking src2 at its exact value.
            let (a, b, v) = (need(0)?, need(1)?, need(2)?);
            for c in 0..n {
                let width = (a.x[c] as u32) & 31;
                let off = (b.x[c] as u32) & 31;
                let base = if v.ty.is_signed() {
                    sext(v.x[c], 32)
                } else {
                    zext(v.x[c], 32)
                };
                let f = zext(base >> off, width);
                o.res[c] = if width == 0 {
                    0
                } else if i.dst_ty.is_signed() {
                    sext(f, width)
                } else {
                    f
                };
            }
        }
        Bfi1 => {
            // Mesa nir_opcodes.py bfm ("SM5 bfm"), emitted as BFI1 by brw_fs_nir.cpp:
            // ((1 << (src0 & 0x1F)) - 1) << (src1 & 0x1F), 32 bits.
            let (a, b) = (need(0)?, need(1)?);
            for c in 0..n {
                let width = (a.x[c] as u32) & 31;
                let off = (b.x[c] as u32) & 31;
                o.res[c] = i128::from(((1u32 << width).wrapping_sub(1)).wrapping_shl(off));
            }
        }
        Bfi2 => {
            // Mesa nir_opcodes.py bfi ("SM5 bfi assembly"), emitted as BFI2 by brw_fs_nir.cpp:
            // mask = src0; mask 0 gives src2; otherwise src1 shifted to the mask's lowest set
            // bit, inserted into src2 where the mask is set.
            let (a, b, v) = (need(0)?, need(1)?, need(2)?);
            for c in 0..n {
                let mask = a.x[c] as u32;
                let ins = b.x[c] as u32;
                let base = v.x[c] as u32;
                o.res[c] = i128::from(if mask == 0 {
                    base
                } else {
                    ((ins.wrapping_shl(mask.trailing_zeros())) & mask) | (base & !mask)
                });
            }
        }
        Sad2 | Sada2 => {
            // visa SAD2 / SAD2ADD (whose loops step by 1 instead of 2): for each pair of
            // channels (2k, 2k+1), channel 2k gets |s0[2k]-s1[2k]| + |s0[2k+1]-s1[2k+1]| (plus
            // the accumulator for sada2); channel 2k+1 is written with an undefined value.
            let (a, b) = (need(0)?, need(1)?);
            for c in 0..n {
                if c % 2 == 1 || c + 1 >= n {
                    und |= 1 << c;
                    continue;
                }
                let d = (a.x[c] - b.x[c]).abs() + (a.x[c + 1] - b.x[c + 1]).abs();
                und |= ((a.undef | b.undef) >> (c + 1) & 1) << c;
                o.res[c] = match (i.op, i.acc) {
                    (Sada2, Some(acc)) => acc.x[c] + d,
                    _ => d,
                };
            }
            o.arith = true;
        }
        _ => {
            return Err(ExecError::Unsupported {
                what: format!("{} has no integer semantics", i.op.name()),
            })
        }
    }
    o.undef = und & super::mask::low(n);
    Ok(())
}
