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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
    /// Of these, the registers with extended precision (acc0, acc1): their number and bytes
    /// ([`ThreadState::ext_acc_at`]), for the writes of [`AccMap::write_each`].
    ext: [Option<(usize, usize)>; KEPT_REGS],
    /// The platform and type, and what a write of the type looks up.
    p: Platform,
    t: DataType,
    wty: AccWriteType,
}

impl AccMap {
    /// The map of type `t` for states of `p` (`st`'s platform: its layout follows from it,
    /// so the maps of every platform and type are made once).
    pub fn new(st: &ThreadState, p: Platform, t: DataType) -> AccMap {
        static TABLE: std::sync::OnceLock<Vec<AccMap>> = std::sync::OnceLock::new();
        if p != st.platform() {
            return AccMap::compute(st, p, t);
        }
        let table = TABLE.get_or_init(|| {
            Platform::ALL
                .iter()
                .flat_map(|p| {
                    let s = ThreadState::zeroed(*p);
                    DataType::ALL
                        .iter()
                        .map(move |t| AccMap::compute(&s, *p, *t))
                })
                .collect()
        });
        match table.get(p as usize * DataType::ALL.len() + t as usize) {
            Some(m) if m.t == t && m.p == p => *m,
            _ => AccMap::compute(st, p, t),
        }
    }

    /// [`AccMap::new`] by the lookups.
    fn compute(st: &ThreadState, p: Platform, t: DataType) -> AccMap {
        let row = class_of(p, t).and_then(class_info);
        let (per, regs) = row.map_or((0, &[][..]), |r| (r.channels as usize, r.regs));
        let mut bases = [None; KEPT_REGS];
        let mut ext = [None; KEPT_REGS];
        for ((b, e), reg) in bases.iter_mut().zip(ext.iter_mut()).zip(regs) {
            *b = reg_base(st, reg);
            *e = b.and_then(|b| st.ext_acc_at(b));
        }
        AccMap {
            per,
            per_log2: per.is_power_of_two().then(|| per.trailing_zeros()),
            size: t.bytes() as usize,
            regs,
            bases,
            ext,
            p,
            t,
            wty: AccWriteType::new(p, t),
        }
    }

    /// The register index `k` (into `regs`) and element `r` within it of channel `ch` with
    /// channel offset `chan_off` (cyclic over the registers); None for an empty map.
    #[inline(always)]
    fn place(&self, chan_off: usize, ch: usize) -> Option<(usize, usize)> {
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
        Some((k, r))
    }

    /// The flat ARF byte address of the element of channel `ch` with channel offset
    /// `chan_off`: channel `(chan_off + ch) % per` of register `(chan_off + ch) / per` (cyclic).
    #[inline]
    pub fn addr(&self, st: &ThreadState, chan_off: usize, ch: usize) -> Option<usize> {
        let (k, r) = self.place(chan_off, ch)?;
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
        let ty = if t == self.t && st.platform() == self.p {
            self.wty
        } else {
            AccWriteType::new(st.platform(), t)
        };
        for ch in (0..n.min(super::region::MAX_CHANNELS)).filter(|ch| live >> ch & 1 == 1) {
            // An element of acc0/acc1 (the common case) is written without looking its
            // register up again ([`ThreadState::acc_write_ext`]).
            if let Some((a, num, w)) = self.ext_addr(chan_off, ch) {
                let (exact, bits, und) = f(ch);
                st.acc_write_ext(a, num, w, &ty, exact, bits, und);
            } else if let Some(a) = self.addr(st, chan_off, ch) {
                let (exact, bits, und) = f(ch);
                st.acc_write_as(a, &ty, exact, bits, und);
            }
        }
    }

    /// [`AccMap::addr`] of channel `ch` when its element lies in a register of
    /// [`AccMap::ext`], with that register's number and the element's word index: the flat
    /// ARF address `a`, `n`, `w` with `acc_at(a) == (n, w)`.
    #[inline]
    fn ext_addr(&self, chan_off: usize, ch: usize) -> Option<(usize, usize, usize)> {
        let (k, r) = self.place(chan_off, ch)?;
        let (num, bytes) = (*self.ext.get(k)?)?;
        let base = (*self.bases.get(k)?)?;
        let rel = r * self.size;
        (rel < bytes).then_some((base + rel, num, rel / 2))
    }
}

fn reg_base(st: &ThreadState, name: &str) -> Option<usize> {
    st.arf_layout().base_of(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`AccMap::write_each`] (its acc0/acc1 path without the register lookup) has the effect
    /// of [`ThreadState::acc_write`] at [`AccMap::addr`] per channel, for every platform and
    /// type, channel offsets, channel counts, enables, values and undefined channels, on states
    /// whose accumulators hold earlier writes of other types.
    #[test]
    fn write_each_is_acc_write_per_channel() {
        let mut next = crate::test_rng::xorshift(0xacc0_5eed_0001);
        for p in Platform::ALL {
            let mut base = ThreadState::new(p);
            for t in DataType::ALL {
                for case in 0..40 {
                    let map = AccMap::new(&base, p, t);
                    let chan_off = 4 * (next() % 8) as usize;
                    let n = [1usize, 2, 4, 8, 16, 32][(next() % 6) as usize];
                    let live = if case % 3 == 0 {
                        u32::MAX
                    } else {
                        next() as u32
                    };
                    let vals: Vec<(i128, u64, bool)> = (0..32)
                        .map(|_| {
                            let x = next();
                            let exact = match next() % 4 {
                                0 => i128::from(x as i64) << 8,
                                1 => i128::from(x),
                                _ => i128::from(x as i32),
                            };
                            (exact, next(), next() % 7 == 0)
                        })
                        .collect();
                    let (mut fast, mut slow) = (base.clone(), base.clone());
                    map.write_each(&mut fast, t, chan_off, n, live, |ch| vals[ch]);
                    for ch in (0..n).filter(|ch| live >> ch & 1 == 1) {
                        if let Some(a) = map.addr(&slow, chan_off, ch) {
                            let (e, b, u) = vals[ch];
                            slow.acc_write(a, t, e, b, u);
                        }
                    }
                    assert!(fast == slow, "{p:?} {t:?} case {case}");
                    assert!(fast.arf == slow.arf, "{p:?} {t:?} case {case}: bytes");
                    assert_eq!(fast.take_written(), slow.take_written(), "{p:?} {t:?}");
                    // The next case starts from these accumulators.
                    base = fast;
                }
            }
        }
    }

    /// The maps made once per platform and type are the maps of the lookups on states of the
    /// platform.
    #[test]
    fn kept_maps_are_the_lookups() {
        for p in Platform::ALL {
            let st = ThreadState::new(p);
            for t in DataType::ALL {
                assert_eq!(
                    AccMap::new(&st, p, t),
                    AccMap::compute(&st, p, t),
                    "{p:?} {t:?}"
                );
            }
        }
    }

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
