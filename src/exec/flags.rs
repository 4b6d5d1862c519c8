//! Condition modifiers and flag updates (seed000 §1.1 "Flag Updates", §3.3.3.6).
//!
//! A condition modifier assigns one flag bit per enabled channel; bits of disabled channels are
//! unchanged (the flag register has per-bit write enables). With a null destination the flags
//! are still written. The flags reflect the final result: after saturation and conversion to
//! the destination type (mesa brw_fs_cmod_propagation.cpp, quoting the Kaby Lake PRM Vol. 7
//! "Assigning Conditional Flags": the post_zero bit "reflects whether the final result is zero
//! after all the clamping, normalizing, or format conversion logic", and "testing it on actual
//! GPUs shows that conditional modifiers are applied after saturation"). `.o` (overflow) is
//! set when the exact result does not fit the destination type; `.u` (unordered) is never set
//! by an integer operation. cmp and cmpn set the flags from the comparison itself.

use super::mask::flag_space;
use crate::spec::CondMod;
use crate::state::ThreadState;

/// The condition `cm` of a final integer value `v` (in the destination type's signedness) with
/// overflow indication `overflow`; `None` for `CondMod::None`.
pub fn int_cond(cm: CondMod, v: i128, overflow: bool) -> Option<bool> {
    Some(match cm {
        CondMod::None => return None,
        CondMod::Z => v == 0,
        CondMod::Nz => v != 0,
        CondMod::G => v > 0,
        CondMod::Ge => v >= 0,
        CondMod::L => v < 0,
        CondMod::Le => v <= 0,
        CondMod::O => overflow,
        CondMod::U => false,
    })
}

/// `a cm b` for integer comparisons (cmp, cmpn, sel min/max): exact values. `.o` and `.u` are
/// false for integers (no overflow and no NaN in a comparison).
pub fn int_compare(cm: CondMod, a: i128, b: i128) -> Option<bool> {
    Some(match cm {
        CondMod::None => return None,
        CondMod::Z => a == b,
        CondMod::Nz => a != b,
        CondMod::G => a > b,
        CondMod::Ge => a >= b,
        CondMod::L => a < b,
        CondMod::Le => a <= b,
        CondMod::O | CondMod::U => false,
    })
}

/// Accumulates flag bit updates of one instruction and writes them back at once.
#[derive(Debug, Clone, Copy)]
pub struct FlagWriter {
    val: u64,
    undef: u64,
    touched: bool,
}

impl FlagWriter {
    pub fn new(st: &ThreadState) -> FlagWriter {
        let (val, undef) = flag_space(st);
        FlagWriter {
            val,
            undef,
            touched: false,
        }
    }

    /// A writer that writes nothing unless [`set`](Self::set) is called (then it must have
    /// been created with [`new`](Self::new)).
    pub fn empty() -> FlagWriter {
        FlagWriter {
            val: 0,
            undef: 0,
            touched: false,
        }
    }

    /// Set flag bit `i` (of the 64-bit f0/f1 space) to `v`, or mark it undefined.
    #[inline]
    pub fn set(&mut self, i: usize, v: bool, undefined: bool) {
        if i >= 64 {
            return;
        }
        let m = 1u64 << i;
        self.touched = true;
        if undefined {
            self.undef |= m;
        } else {
            self.undef &= !m;
            if v {
                self.val |= m;
            } else {
                self.val &= !m;
            }
        }
    }

    /// [`set`](Self::set) for flag bits `base + ch` of the channels `ch` in `chans`, in one go:
    /// bit `ch` of `val` the value, of `undef` whether it is undefined.
    #[inline]
    pub fn set_channels(&mut self, base: usize, chans: u32, val: u32, undef: u32) {
        if base >= 64 {
            return;
        }
        // (Bits shifted past 63 are dropped, as `set` drops flag bits from 64 on.)
        let at = |x: u32| u64::from(x) << base;
        let m = at(chans);
        if m == 0 {
            return;
        }
        self.touched = true;
        let u = at(undef) & m;
        let d = m & !u;
        self.undef = (self.undef | u) & !d;
        self.val = (self.val & !d) | (at(val) & d);
    }

    /// Write the flags back.
    pub fn commit(self, st: &mut ThreadState) {
        if !self.touched {
            return;
        }
        let _ = st.set_flag(0, self.val as u32, self.undef as u32);
        let _ = st.set_flag(1, (self.val >> 32) as u32, (self.undef >> 32) as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`FlagWriter::set_channels`] has the effect of [`FlagWriter::set`] per channel, for
    /// every flag base (including bases whose bits run past f1.1).
    #[test]
    fn set_channels_is_set_per_channel() {
        let mut next = crate::test_rng::xorshift(0x0f1a_95e7);
        for case in 0..50_000 {
            let start = FlagWriter {
                val: next(),
                undef: next() & next(),
                touched: next() % 2 == 0,
            };
            let base = (next() % 80) as usize;
            let chans = if next() % 4 == 0 { 0 } else { next() as u32 };
            let (val, undef) = (next() as u32, (next() & next()) as u32);
            let mut fast = FlagWriter { ..start };
            fast.set_channels(base, chans, val, undef);
            let mut slow = FlagWriter { ..start };
            for ch in (0..32).filter(|ch| chans >> ch & 1 == 1) {
                slow.set(base + ch, val >> ch & 1 == 1, undef >> ch & 1 == 1);
            }
            assert_eq!(
                (fast.val, fast.undef, fast.touched),
                (slow.val, slow.undef, slow.touched),
                "case {case}: base {base} chans {chans:#x}"
            );
        }
    }
}
