//! The operand values of a vector's enabled channels, read once after execution: each
//! source's value (after source modifiers) and float class, and the destination element,
//! for the rule tagging (`build::exercised`, `build::facts`, `fp_rows::tag`), which asks for
//! them many times per channel.

use super::build::{dst_elem, src_value};
use super::values::float_class;
use crate::isa::Insn;
use crate::spec::DataType;
use crate::state::ThreadState;

/// Channels with values (an execution size is at most 32).
const CHANNELS: usize = 32;

/// Per channel: the values of sources 0..3 and of the destination element.
pub(crate) struct Operands {
    /// The type of each source (the same in every channel).
    ty: [DataType; 3],
    bits: [[u64; 3]; CHANNELS],
    class: [[u8; 3]; CHANNELS],
    /// Bit `i` of `present[c]`: source `i` has a value in channel `c`.
    present: [u8; CHANNELS],
    /// The destination element of each channel (defined, float destinations only).
    out: [u64; CHANNELS],
    /// Bit `c`: `out[c]` holds a value.
    out_ok: u32,
}

impl Operands {
    /// The values of `channels` (`src_value` in `before`; the destination element in `after`
    /// when it is a float and defined).
    pub(crate) fn read(
        insn: &Insn,
        before: &ThreadState,
        after: &ThreadState,
        channels: &[u32],
    ) -> Operands {
        let mut o = Operands {
            ty: [DataType::UD; 3],
            bits: [[0; 3]; CHANNELS],
            class: [[0; 3]; CHANNELS],
            present: [0; CHANNELS],
            out: [0; CHANNELS],
            out_ok: 0,
        };
        let dst_float = insn.dst.filter(|d| d.ty.is_float());
        for &c in channels {
            let ci = c as usize;
            if ci >= CHANNELS {
                continue;
            }
            for i in 0..3 {
                if let Some((t, v)) = src_value(insn, i, c, before) {
                    o.ty[i] = t;
                    o.bits[ci][i] = v;
                    o.class[ci][i] = float_class(t, v) as u8;
                    o.present[ci] |= 1 << i;
                }
            }
            if let Some(d) = dst_float {
                if let Some((at, _)) = dst_elem(insn, c) {
                    if let Ok((v, false)) = after.read_grf(at, d.ty.bytes() as usize) {
                        o.out[ci] = v;
                        o.out_ok |= 1 << ci;
                    }
                }
            }
        }
        o
    }

    /// Source `i`'s type, value and float class in channel `c` (`src_value` and
    /// `float_class`).
    #[inline]
    pub(crate) fn get(&self, i: usize, c: u32) -> Option<(DataType, u64, usize)> {
        let ci = c as usize;
        (i < 3 && ci < CHANNELS && self.present[ci] >> i & 1 == 1)
            .then(|| (self.ty[i], self.bits[ci][i], usize::from(self.class[ci][i])))
    }

    /// The destination element of channel `c` (a float destination, defined).
    #[inline]
    pub(crate) fn out(&self, c: u32) -> Option<u64> {
        let ci = c as usize;
        (ci < CHANNELS && self.out_ok >> ci & 1 == 1).then(|| self.out[ci])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::golden::values::Rng;
    use crate::golden::{template, GenConfig};
    use crate::spec::Platform;

    /// The read values equal `src_value` and the destination reads, for random float and
    /// integer instructions with random register contents.
    #[test]
    fn read_values_equal_the_direct_reads() {
        let cfg = GenConfig::new(Platform::Skl, 1);
        let mut r = Rng::for_vector(21, 0, 0);
        let mut checked = 0;
        for k in 0..400u64 {
            let sel = cfg.ops[r.below(cfg.ops.len())];
            let Some(b) = template::build(sel, k, cfg.platform, &[], &mut r) else {
                continue;
            };
            let insn = &b.insn;
            let mut before = cfg.base.clone();
            let mut after = cfg.base.clone();
            for st in [&mut before, &mut after] {
                for x in st.grf.iter_mut() {
                    *x = r.next() as u8;
                }
                for w in st.grf_undef.iter_mut() {
                    *w = if r.chance(1, 4) { r.next() } else { 0 };
                }
            }
            let channels: Vec<u32> = (0..u32::from(insn.exec_size))
                .filter(|_| r.chance(3, 4))
                .collect();
            let o = Operands::read(insn, &before, &after, &channels);
            for c in 0..40u32 {
                let on = channels.contains(&c);
                for i in 0..4 {
                    let want = src_value(insn, i.min(2), c, &before)
                        .filter(|_| on && i < 3)
                        .map(|(t, v)| (t, v, float_class(t, v)));
                    assert_eq!(o.get(i, c), want, "{insn:?} src {i} channel {c}");
                }
                let want = insn.dst.filter(|d| d.ty.is_float() && on).and_then(|d| {
                    let (at, _) = dst_elem(insn, c)?;
                    match after.read_grf(at, d.ty.bytes() as usize) {
                        Ok((v, false)) => Some(v),
                        _ => None,
                    }
                });
                assert_eq!(o.out(c), want, "{insn:?} dst channel {c}");
                checked += 1;
            }
        }
        assert!(checked > 4000);
    }
}
