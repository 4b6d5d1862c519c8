//! The accumulator as an implicit operand (seed000 §3.3.3.5, seed004 §Accumulator Registers).
//!
//! - Implicit writes happen when AccWrCtrl is set and the cr0.0 Accumulator Disable bit is 0
//!   (`field.cr0.0.acc-disable`); an explicit accumulator destination is written regardless.
//!   Only enabled channels are updated.
//! - The accumulator channel of instruction channel `n` with channel offset `c` is channel
//!   `(c + n) % channels` of `regs[((c + n) / channels) % regs.len()]`, with `channels` and
//!   `regs` from the precision row of the execution type (acc.precision.*): "hardware always
//!   uses acc0 by default and also uses acc1 if the execution size exceeds the number of
//!   elements in acc0 ... QtrCtrl is used ... If acc1 is not accessible for a given data type,
//!   QtrCtrl defaults to acc0".
//! - Values keep the row's precision (33-bit word, 64-bit DWord channels).

use crate::spec::registers::field::CR0_0_ACC_DISABLE;
use crate::spec::{DataType, Platform};
use crate::state::acc::{class_info, class_of, AccWriteType};
use crate::state::{field_of_dword, ControlDwords, ThreadState};

/// Whether implicit accumulator writes happen: `Some(true)` yes, `Some(false)` no, `None` the
/// cr0.0 accumulator disable bit is undefined (the accumulator becomes undefined).
pub fn implicit_writes(st: &ThreadState, acc_wr: bool) -> Option<bool> {
    implicit_writes_in(&st.control_dwords(), acc_wr)
}

/// [`implicit_writes`] from the control dwords of the state.
pub fn implicit_writes_in(ctl: &ControlDwords, acc_wr: bool) -> Option<bool> {
    if !acc_wr {
        return Some(false);
    }
    match field_of_dword(ctl.cr0_0, &CR0_0_ACC_DISABLE) {
        Some((v, false)) => Some(v == 0),
        _ => None,
    }
}

/// The flat ARF byte address of the implicit accumulator element of channel `ch` for type `t`
/// (`None`: the type has no accumulator precision on `p`, acc.precision.b / acc.precision.q).
pub fn implicit_addr(
    st: &ThreadState,
    p: Platform,
    t: DataType,
    chan_off: usize,
    ch: usize,
) -> Option<usize> {
    AccMap::new(st, p, t).addr(st, chan_off, ch)
}

/// Registers whose base [`AccMap`] keeps (the precision rows name at most two).
const KEPT_REGS: usize = 4;

/// The implicit accumulator elements of type `t` on a state's platform: the precision row's
/// channels per register and the registers' flat ARF bases, looked up once for the channel
/// loops ([`implicit_addr`] per channel).
#[derive(Debug, Clone, Copy)]
pub struct AccMap {
    /// Channels per register (0: no accumulator precision).
    per: usize,
    /// `log2(per)` when `per` is a power of two (the channel split by shifts), else `None`.
    per_log2: Option<u32>,
    /// Bytes per element.
    size: usize,
    /// The row's registers, in channel order.
    regs: &'static [&'static str],
    /// The flat ARF base of the first [`KEPT_REGS`] of them (`None`: not on the platform).
    bases: [Option<usize>; KEPT_REGS],
}

impl AccMap {
    pub fn new(st: &ThreadState, p: Platform, t: DataType) -> AccMap {
        let row = class_of(p, t).and_then(class_info);
        let (per, regs) = row.map_or((0, &[][..]), |r| (r.channels as usize, r.regs));
        let mut bases = [None; KEPT_REGS];
        for (b, reg) in bases.iter_mut().zip(regs) {
            *b = reg_base(st, reg);
        }
        AccMap {
            per,
            per_log2: per.is_power_of_two().then(|| per.trailing_zeros()),
            size: t.bytes() as usize,
            regs,
            bases,
        }
    }

    /// The flat ARF byte address of the element of channel `ch` with channel offset
    /// `chan_off`: channel `(chan_off + ch) % per` of register `(chan_off + ch) / per` (cyclic).
    #[inline]
    pub fn addr(&self, st: &ThreadState, chan_off: usize, ch: usize) -> Option<usize> {
        if self.per == 0 || self.regs.is_empty() {
            return None;
        }
        let idx = chan_off + ch;
        let (q, r) = match self.per_log2 {
            Some(s) => (idx >> s, idx & (self.per - 1)),
            None => (idx / self.per, idx % self.per),
        };
        let k = if self.regs.len() == 1 {
            0
        } else {
            q % self.regs.len()
        };
        let base = match self.bases.get(k) {
            Some(b) => (*b)?,
            None => reg_base(st, self.regs[k])?,
        };
        Some(base + r * self.size)
    }

    /// Write the elements of type `t` of the channels in `live` of `0..n`, in channel order:
    /// `f(ch)` gives the exact value, bits and undefinedness [`ThreadState::acc_write`] takes.
    #[inline]
    pub fn write_each(
        &self,
        st: &mut ThreadState,
        t: DataType,
        chan_off: usize,
        n: usize,
        live: u32,
        mut f: impl FnMut(usize) -> (i128, u64, bool),
    ) {
        let ty = AccWriteType::new(st.platform(), t);
        for ch in (0..n.min(super::region::MAX_CHANNELS)).filter(|ch| live >> ch & 1 == 1) {
            if let Some(a) = self.addr(st, chan_off, ch) {
                let (exact, bits, und) = f(ch);
                st.acc_write_as(a, &ty, exact, bits, und);
            }
        }
    }
}

fn reg_base(st: &ThreadState, name: &str) -> Option<usize> {
    st.arf_layout().base_of(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The channel split by shifts (power-of-two rows) gives the addresses of the split by
    /// division, for every platform, type, channel offset and channel.
    #[test]
    fn shifted_split_is_the_divided_split() {
        for p in Platform::ALL {
            let st = ThreadState::zeroed(p);
            for t in DataType::ALL {
                let map = AccMap::new(&st, p, t);
                let divided = AccMap {
                    per_log2: None,
                    ..map
                };
                for chan_off in (0..32).step_by(4) {
                    for ch in 0..32 {
                        assert_eq!(
                            map.addr(&st, chan_off, ch),
                            divided.addr(&st, chan_off, ch),
                            "{p:?} {t:?} {chan_off} {ch}"
                        );
                    }
                }
            }
        }
    }
}
