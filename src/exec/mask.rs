//! Channel enables (seed000 §1.1 "Masking"; spec/flow.toml flow.channel.enable and the
//! predicate rows flow.pmask.*).
//!
//! A channel executes when it is within ExecSize, enabled by the execution mask (EMask: the
//! dispatch mask sr0.2 or, when cr0.0 VME is set, the vector mask sr0.3; ignored with NoMask),
//! enabled by the predicate mask (PMask) and, in Align16, by the destination channel enable.
//! Channel `n` of an instruction with channel offset `c` (QtrCtrl/NibCtrl) uses EMask bit
//! `c + n` and flag bit `c + n` of the flag register space starting at the instruction's flag
//! subregister (f0.0, f0.1, f1.0, f1.1 are consecutive 16-bit groups).
//!
//! Every mask is a pair (`on`, `unknown`): bits certainly set, and bits whose value is
//! undefined (an undefined flag or mask bit); an unknown channel may or may not execute, so
//! whatever it would write becomes undefined.

use crate::isa::Flag;
use crate::spec::registers::field::{CR0_0_VECTOR_MASK_ENABLE, SR0_2_DMASK, SR0_3_VMASK};
use crate::spec::{feature, Platform, PredCtrl};
use crate::state::{field_of_dword, ControlDwords, ThreadState};

/// A channel mask with undefined bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Enables {
    /// Channels certainly enabled.
    pub on: u32,
    /// Channels that may or may not be enabled.
    pub unknown: u32,
}

impl Enables {
    /// Every channel of `0..n` enabled.
    pub fn all(n: usize) -> Enables {
        Enables {
            on: low(n),
            unknown: 0,
        }
    }

    /// Both masks must enable a channel.
    pub fn and(self, o: Enables) -> Enables {
        let on = self.on & o.on;
        let maybe = (self.on | self.unknown) & (o.on | o.unknown);
        Enables {
            on,
            unknown: maybe & !on,
        }
    }

    /// Channels that may write (enabled or unknown).
    pub fn maybe(self) -> u32 {
        self.on | self.unknown
    }
}

/// Bits `0..n` set.
#[inline]
pub fn low(n: usize) -> u32 {
    // (Branch-free: every `n` from 32 on gives all 32 bits.)
    ((1u64 << n.min(32)) - 1) as u32
}

/// The execution mask of channels `0..n` with channel offset `chan_off`: all ones with NoMask,
/// else DMask (sr0.2) or VMask (sr0.3) per cr0.0 VME. On platforms with
/// feature.simd32-low16-exec-mask a SIMD32 instruction applies the low 16 mask bits to both
/// halves.
pub fn exec_mask(st: &ThreadState, no_mask: bool, chan_off: usize, n: usize) -> Enables {
    exec_mask_in(&st.control_dwords(), st.platform(), no_mask, chan_off, n)
}

/// [`exec_mask`] from the control dwords of the state (read once per instruction).
#[inline(always)]
pub fn exec_mask_in(
    ctl: &ControlDwords,
    p: Platform,
    no_mask: bool,
    chan_off: usize,
    n: usize,
) -> Enables {
    let e = exec_mask_all_channels(ctl, p, no_mask, chan_off, n);
    Enables {
        on: e.on & ctl.channels,
        unknown: e.unknown & ctl.channels,
    }
}

/// [`exec_mask_in`] before the restriction to `ctl.channels`.
#[inline(always)]
fn exec_mask_all_channels(
    ctl: &ControlDwords,
    p: Platform,
    no_mask: bool,
    chan_off: usize,
    n: usize,
) -> Enables {
    if no_mask {
        return Enables::all(n);
    }
    let pick = |d, f| field_of_dword(d, f).unwrap_or((0, true));
    let (vme, vme_undef) = pick(ctl.cr0_0, &CR0_0_VECTOR_MASK_ENABLE);
    let (dm, dm_u) = pick(ctl.sr0_2, &SR0_2_DMASK);
    let (vm, vm_u) = pick(ctl.sr0_3, &SR0_3_VMASK);
    if !vme_undef && n < 32 {
        // The common case as bit operations: the selected mask rotated to the channel offset.
        let sel = if vme == 1 { (vm, vm_u) } else { (dm, dm_u) };
        return selected_mask(sel, chan_off, n);
    }
    exec_mask_general(p, (vme, vme_undef), (dm, dm_u), (vm, vm_u), chan_off, n)
}

/// The enables of channels `0..n` from the selected mask (value, undefined) rotated to the
/// channel offset: all unknown when the mask is undefined.
#[inline(always)]
fn selected_mask((m, u): (u32, bool), chan_off: usize, n: usize) -> Enables {
    let all = low(n);
    if u {
        Enables {
            on: 0,
            unknown: all,
        }
    } else {
        Enables {
            on: m.rotate_right((chan_off % 32) as u32) & all,
            unknown: 0,
        }
    }
}

/// [`exec_mask_in`] from the fields it reads: VME, DMask, VMask (value, undefined).
#[inline(never)]
fn exec_mask_general(
    p: Platform,
    (vme, vme_undef): (u32, bool),
    (dm, dm_u): (u32, bool),
    (vm, vm_u): (u32, bool),
    chan_off: usize,
    n: usize,
) -> Enables {
    let low16 = n == 32 && feature::SIMD32_LOW16_EXEC_MASK.on(p);
    if !vme_undef && !low16 {
        let sel = if vme == 1 { (vm, vm_u) } else { (dm, dm_u) };
        return selected_mask(sel, chan_off, n);
    }
    let mut e = Enables::default();
    for ch in 0..n.min(32) {
        let bit = if low16 { ch % 16 } else { (chan_off + ch) % 32 };
        let d = (dm >> bit) & 1 == 1;
        let v = (vm >> bit) & 1 == 1;
        let (val, unk) = if vme_undef {
            (d && v, d != v || dm_u || vm_u)
        } else if vme == 1 {
            (v, vm_u)
        } else {
            (d, dm_u)
        };
        if unk {
            e.unknown |= 1 << ch;
        } else if val {
            e.on |= 1 << ch;
        }
    }
    e
}

/// The 64 flag bits (f0 in bits 31:0, f1 in 63:32) and their undefined mask.
pub fn flag_space(st: &ThreadState) -> (u64, u64) {
    let (f0, u0) = st.flag(0).unwrap_or((0, u32::MAX));
    let (f1, u1) = st.flag(1).unwrap_or((0, u32::MAX));
    (
        u64::from(f0) | u64::from(f1) << 32,
        u64::from(u0) | u64::from(u1) << 32,
    )
}

/// The first flag bit of flag subregister `f` in the 64-bit flag space.
pub fn flag_base(f: Flag) -> usize {
    usize::from(f.reg) * 32 + usize::from(f.sub) * 16
}

/// The predicate mask of channels `0..n` (the spec/flow.toml rows `flow.pmask.*`): PredCtrl
/// `None` enables every channel (flow.pmask.none); otherwise the flag bits from
/// `flag_base(flag) + chan_off` combined per PredCtrl (flow.pmask.seq; Align16 replication of
/// component x/y/z/w within each group of four, `a16_chan`, flow.pmask.align16-replicate;
/// anyNh/allNh over groups of N channels, flow.pmask.group; Align1 anyv/allv: each channel's
/// own bit of f0.0 and of f1.0, flow.pmask.vertical), then inverted when `inv`
/// (flow.pmask.invert: combine before invert).
#[inline(always)]
pub fn predicate(
    st: &ThreadState,
    pred: PredCtrl,
    inv: bool,
    flag: Flag,
    chan_off: usize,
    n: usize,
    a16_chan: Option<u8>,
) -> Enables {
    if pred == PredCtrl::None {
        return Enables::all(n);
    }
    if pred == PredCtrl::Seq && a16_chan.is_none() {
        // flow.pmask.seq: one flag bit per channel, the bits as a mask.
        let (wv, wu) = flag_window(st, flag_base(flag) + chan_off);
        let all = low(n.min(32));
        let unknown = wu & all;
        let val = if inv { !wv } else { wv };
        return Enables {
            on: val & !unknown & all,
            unknown,
        };
    }
    predicate_flags(st, pred, inv, flag, chan_off, n, a16_chan)
}

/// Flag bits `base..base + 32` of the 64-bit flag space and their undefined bits (every bit
/// any channel reads: the groups and Align16 groups of four end by then); bits past f1.1 are
/// undefined.
#[inline(always)]
fn flag_window(st: &ThreadState, base: usize) -> (u32, u32) {
    let fl = flag_space(st);
    let window = |x: u64| if base < 64 { (x >> base) as u32 } else { 0 };
    let past = if base >= 64 {
        u32::MAX
    } else if base + 32 > 64 {
        !low(64 - base)
    } else {
        0
    };
    (window(fl.0), window(fl.1) | past)
}

/// [`predicate`] of a predicated instruction, by groups of channels (sequential: groups of
/// one; `predicate` takes that case inline, as a mask).
#[inline(never)]
fn predicate_flags(
    st: &ThreadState,
    pred: PredCtrl,
    inv: bool,
    flag: Flag,
    chan_off: usize,
    n: usize,
    a16_chan: Option<u8>,
) -> Enables {
    let n = n.min(32);
    if a16_chan.is_none() && matches!(pred, PredCtrl::Anyv | PredCtrl::Allv) {
        return vertical(st, pred == PredCtrl::Anyv, inv, flag, chan_off, n);
    }
    let (wv, wu) = flag_window(st, flag_base(flag) + chan_off);
    let mut e = Enables::default();
    let mut put = |chans: u32, (v, u): (bool, bool)| {
        if u {
            e.unknown |= chans;
        } else if v != inv {
            e.on |= chans;
        }
    };
    if let Some(c) = a16_chan {
        for ch in 0..n {
            let i = (ch & !3) + usize::from(c);
            put(1 << ch, ((wv >> i) & 1 == 1, (wu >> i) & 1 == 1));
        }
        return e;
    }
    // flow.pmask.group (flow.pmask.group-start: groups counted from the channel offset).
    let (any, size) = match pred {
        // (Anyv/Allv are Align1 only and taken above.)
        PredCtrl::None | PredCtrl::Seq | PredCtrl::Anyv | PredCtrl::Allv => (true, 1),
        PredCtrl::Any2h => (true, 2),
        PredCtrl::All2h => (false, 2),
        PredCtrl::Any4h => (true, 4),
        PredCtrl::All4h => (false, 4),
        PredCtrl::Any8h => (true, 8),
        PredCtrl::All8h => (false, 8),
        PredCtrl::Any16h => (true, 16),
        PredCtrl::All16h => (false, 16),
        PredCtrl::Any32h => (true, 32),
        PredCtrl::All32h => (false, 32),
    };
    for k in (0..n).step_by(size) {
        let group = low(size) << k;
        put(group & low(n), reduce_bits(wv, wu, group, any));
    }
    e
}

/// The vertical predicates .anyv (`any`) / .allv of channels `0..n` (n <= 32):
/// flow.pmask.vertical: channel `k` is the OR / AND of bit `chan_off + k` of f0.0 and of f1.0,
/// whatever flag register the instruction names; flow.pmask.vertical-high-channel: a channel
/// whose bit number is 16 or more is unknown; flow.pmask.vertical-subregister: an instruction
/// naming f0.1 or f1.1 has a known channel only where the f0.0/f1.0 reading and the f0.1/f1.1
/// reading agree. Then inverted when `inv` (flow.pmask.invert).
fn vertical(
    st: &ThreadState,
    any: bool,
    inv: bool,
    flag: Flag,
    chan_off: usize,
    n: usize,
) -> Enables {
    let chans = low(n);
    // Channels whose bit number chan_off + k is below 16.
    let in_sub = if chan_off >= 16 {
        0
    } else {
        low(16 - chan_off)
    } & chans;
    let (fv, fu) = flag_space(st);
    // (value, unknown) of every channel from subregister `sub` of f0 and of f1.
    let reading = |sub: usize| -> (u32, u32) {
        let bits = |x: u64, reg: usize| {
            let shift = (32 * reg + 16 * sub + chan_off) as u32;
            x.checked_shr(shift).unwrap_or(0) as u32 & in_sub
        };
        let (v0, u0, v1, u1) = (bits(fv, 0), bits(fu, 0), bits(fv, 1), bits(fu, 1));
        // A defined bit equal to 1 (any) or 0 (all) decides the channel.
        let decided = if any {
            (v0 & !u0) | (v1 & !u1)
        } else {
            (!v0 & !u0) | (!v1 & !u1)
        } & in_sub;
        let unknown = (u0 | u1) & !decided;
        let value = if any {
            decided
        } else {
            in_sub & !decided & !unknown
        };
        let value = if inv {
            in_sub & !value & !unknown
        } else {
            value
        };
        (value, unknown)
    };
    let (mut on, mut unknown) = reading(0);
    if flag.sub == 1 {
        let (on_b, unknown_b) = reading(1);
        let disagree = on ^ on_b;
        unknown |= unknown_b | disagree;
        on &= !unknown;
    }
    Enables {
        on: on & in_sub,
        unknown: (unknown & in_sub) | (chans & !in_sub),
    }
}

/// OR (`any`) or AND of the flag bits `group` of 32-bit value and undefined windows: (value,
/// undefined). A defined bit equal to `any` decides; otherwise undefined bits leave it unknown.
fn reduce_bits(v: u32, u: u32, group: u32, any: bool) -> (bool, bool) {
    let defined = group & !u;
    let decided = if any { v & defined } else { !v & defined };
    if decided != 0 {
        (any, false)
    } else {
        (!any, u & group != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every spec row this module names (`flow.pmask.*`, `flow.channel.*`) exists.
    #[test]
    fn the_rows_named_here_exist() {
        let src = include_str!("mask.rs");
        let mut named = 0;
        for (at, _) in src.match_indices("flow.") {
            let id: String = src[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '-')
                .collect();
            // (`flow.pmask.*`, the family, ends as `flow.pmask` and is skipped.)
            let id = id.trim_end_matches('.');
            if id.starts_with("flow.pmask.") || id.starts_with("flow.channel.") {
                assert!(crate::spec::flow::by_id(id).is_some(), "{id} is not a row");
                named += 1;
            }
        }
        assert!(named >= 8, "{named}");
    }

    /// [`predicate`] (its sequential case written inline) is [`predicate_flags`], and
    /// [`exec_mask_in`] (its common case inline) is [`exec_mask_general`], on random flags,
    /// masks and undefined bits, for every predication form, flag subregister, channel offset
    /// and ExecSize.
    #[test]
    fn inline_cases_are_the_general_functions() {
        let mut next = crate::test_rng::xorshift(0x9e4d_5eed_0005);
        let mut st = ThreadState::new(Platform::Skl);
        for case in 0..100_000 {
            if case % 16 == 0 {
                for f in 0..2 {
                    let u = if next() % 3 == 0 { next() & next() } else { 0 };
                    st.set_flag(f, next() as u32, u as u32).expect("flag");
                }
            }
            let pred = PredCtrl::ALL[(next() % PredCtrl::ALL.len() as u64) as usize];
            let inv = next() % 2 == 0;
            let flag = Flag {
                reg: (next() % 2) as u8,
                sub: (next() % 2) as u8,
            };
            let chan_off = 4 * (next() % 8) as usize;
            let n = [1usize, 2, 4, 8, 16, 32][(next() % 6) as usize];
            let a16 = (next() % 3 == 0).then(|| (next() % 4) as u8);
            let want = if pred == PredCtrl::None {
                Enables::all(n)
            } else {
                predicate_flags(&st, pred, inv, flag, chan_off, n, a16)
            };
            assert_eq!(
                predicate(&st, pred, inv, flag, chan_off, n, a16),
                want,
                "case {case}: {pred:?} {inv} {flag:?} {chan_off} {n} {a16:?}"
            );
            let mut dword = || match next() % 4 {
                0 => None,
                1 => Some((next() as u32, next() as u32 & next() as u32)),
                _ => Some((next() as u32, 0)),
            };
            let ctl = ControlDwords {
                cr0_0: dword(),
                sr0_2: dword(),
                sr0_3: dword(),
                channels: u32::MAX,
            };
            for p in [Platform::Skl, Platform::Ivb] {
                let pick = |d, f| field_of_dword(d, f).unwrap_or((0, true));
                let want = exec_mask_general(
                    p,
                    pick(ctl.cr0_0, &CR0_0_VECTOR_MASK_ENABLE),
                    pick(ctl.sr0_2, &SR0_2_DMASK),
                    pick(ctl.sr0_3, &SR0_3_VMASK),
                    chan_off,
                    n,
                );
                assert_eq!(
                    exec_mask_in(&ctl, p, false, chan_off, n),
                    want,
                    "case {case}"
                );
            }
        }
    }
}
