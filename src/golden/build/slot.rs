//! Working thread states that are reset cheaply between vectors (only what a vector touched:
//! the registers its fills and `Slot::set_arf` wrote, and what its step reports in
//! `StepInfo::written`), and the comparison of the registers that may have changed.

use super::emit::arf_dwords;
use super::*;
use crate::state::acc::AccExt;
use crate::state::Written;

/// One ThreadState, the GRF registers written in it since it equalled its source, and the ARF
/// blocks in which it may differ from that source (an accumulator record may differ only with
/// the blocks of its register).
pub(super) struct Slot {
    pub(super) st: ThreadState,
    /// The GRF registers written since it equalled its source: bit `n` for register `n`
    /// below 128 (every register of a GRF of [`GRF_BYTES`]), the others in `dirty_far`.
    dirty: u128,
    dirty_far: Vec<u8>,
    pub(super) arf_dirty: Blocks,
    /// The accumulator records by number with the ARF blocks of their registers.
    accs: Vec<(usize, Blocks)>,
    /// The blocks of all the accumulator registers.
    acc_blocks: Blocks,
    /// The blocks of the IP (which every step advances; not in `Written`).
    ip_blocks: Blocks,
    /// Per ARF register of the layout: whether it is an accumulator.
    acc_regs: Vec<bool>,
    /// Per ARF register of the layout: its first byte and the blocks of its first dword,
    /// where [`Slot::set_arf`] writes a dword inline (None: an accumulator, or a register of
    /// fewer than 4 bytes).
    dwords: Vec<Option<(usize, Blocks)>>,
}

/// Copy the `N` elements at `o` of `src` to `dst` as one fixed-size move (inlined; a slice
/// `copy_from_slice` of unknown length calls `memcpy`); nothing when either is too short.
#[inline(always)]
pub(super) fn copy_fixed<T: Copy, const N: usize>(dst: &mut [T], src: &[T], o: usize) {
    let from = src.get(o..o + N).and_then(|x| <&[T; N]>::try_from(x).ok());
    let to = dst
        .get_mut(o..o + N)
        .and_then(|x| <&mut [T; N]>::try_from(x).ok());
    if let (Some(from), Some(to)) = (from, to) {
        *to = *from;
    }
}

/// A set of 64-byte blocks of the ARF: bit `k` is bytes `64k..64k + 64`, bit 63 every byte
/// from `64 * 63` on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Blocks(pub(super) u64);

impl Blocks {
    pub(super) const EMPTY: Blocks = Blocks(0);
    pub(super) const ALL: Blocks = Blocks(u64::MAX);
    /// Bytes per block.
    pub(super) const BYTES: usize = 64;

    /// The blocks holding bytes `lo..hi`.
    #[inline]
    pub(super) fn of(lo: usize, hi: usize) -> Blocks {
        if lo >= hi {
            return Blocks::EMPTY;
        }
        let (a, b) = ((lo / Self::BYTES).min(63), ((hi - 1) / Self::BYTES).min(63));
        Blocks((u64::MAX >> (63 - b)) & (u64::MAX << a))
    }

    /// Block `k` (the last bit for every block from 63 on).
    #[cfg(test)]
    pub(super) fn block(k: usize) -> Blocks {
        Blocks(1 << k.min(63))
    }

    #[inline]
    pub(super) fn union(self, o: Blocks) -> Blocks {
        Blocks(self.0 | o.0)
    }

    /// Whether the two sets share a block.
    #[inline]
    pub(super) fn meets(self, o: Blocks) -> bool {
        self.0 & o.0 != 0
    }

    /// The byte ranges of the blocks, clipped to `len` bytes, ascending.
    #[inline]
    pub(super) fn ranges(self, len: usize) -> impl Iterator<Item = (usize, usize)> {
        let mut m = self.0;
        std::iter::from_fn(move || {
            if m == 0 {
                return None;
            }
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            let e = if k == 63 { len } else { (k + 1) * Self::BYTES };
            // (Ascending: the first block past the end ends the blocks.)
            (k * Self::BYTES < len).then_some((k * Self::BYTES, e.min(len)))
        })
    }
}

/// GRF register numbers as a set (made once per vector for both slots' resets): bit `n` of
/// `low` for register `n` below 128; `far`: `list` has numbers from 128 on.
pub(super) struct RegSet<'a> {
    low: u128,
    far: bool,
    list: &'a [u8],
}

impl<'a> RegSet<'a> {
    /// The set of the registers of `list`.
    #[inline]
    pub(super) fn of(list: &'a [u8]) -> RegSet<'a> {
        // (Two 64-bit halves: a shift each, no 128-bit shift.)
        let (mut lo, mut hi, mut far) = (0u64, 0u64, false);
        for &n in list {
            let bit = 1u64 << (n % 64);
            match n / 64 {
                0 => lo |= bit,
                1 => hi |= bit,
                _ => far = true,
            }
        }
        RegSet {
            low: u128::from(hi) << 64 | u128::from(lo),
            far,
            list,
        }
    }
}

impl Slot {
    pub(super) fn new(st: &ThreadState) -> Slot {
        let blocks = |r: &crate::state::layout::ArfReg| Blocks::of(r.base, r.base + r.bytes);
        let regs = &st.layout.regs;
        let accs: Vec<(usize, Blocks)> = (regs.iter())
            .filter(|r| r.info.name == "acc")
            .map(|r| (usize::from(r.num), blocks(r)))
            .collect();
        Slot {
            st: st.clone(),
            dirty: 0,
            dirty_far: Vec::new(),
            arf_dirty: Blocks::EMPTY,
            acc_blocks: accs.iter().fold(Blocks::EMPTY, |m, a| m.union(a.1)),
            accs,
            ip_blocks: (regs.iter().filter(|r| r.name == "ip"))
                .fold(Blocks::EMPTY, |m, r| m.union(blocks(r))),
            acc_regs: regs.iter().map(|r| r.info.name == "acc").collect(),
            dwords: (regs.iter())
                .map(|r| {
                    (r.info.name != "acc" && r.bytes >= 4)
                        .then(|| (r.base, Blocks::of(r.base, r.base + 4)))
                })
                .collect(),
        }
    }

    /// Make the state equal `src` on the GRF registers it tracks and on `regs`, on the
    /// ARF blocks where it may differ from its previous source or `src` from that source
    /// (`moved`) and on the accumulator records of the registers in those blocks (`src`'s
    /// never change); it then tracks `regs`.
    pub(super) fn reset_from(&mut self, src: &ThreadState, regs: &RegSet, moved: Blocks) {
        self.reset_with(src, regs, moved, true);
    }

    /// [`Slot::reset_from`] with nothing moved, from the source of the previous reset,
    /// unchanged since: the state already equals it but for the GRF registers it tracks (and
    /// its ARF blocks), so `regs` need no reset, only tracking.
    pub(super) fn reset_to_same(&mut self, src: &ThreadState, regs: &RegSet) {
        self.reset_with(src, regs, Blocks::EMPTY, false);
    }

    #[inline(always)]
    fn reset_with(&mut self, src: &ThreadState, regs: &RegSet, moved: Blocks, with_regs: bool) {
        let (d, s) = (&mut self.st, src);
        // Inexact marks of the previous vector's math results: the source states are exact,
        // so every mark goes (the GRF and ARF copies below do not carry them).
        d.reset_inexact_from(s);
        let (low, far) = (regs.low, regs.far);
        let regs = regs.list;
        let set = if with_regs {
            low | self.dirty
        } else {
            self.dirty
        };
        reset_grf_set(d, s, set, &self.dirty_far);
        if far {
            // (Registers past the first 128: none on any platform.)
            let far_regs = || regs.iter().copied().filter(|&n| n >= 128);
            if with_regs {
                let far: Vec<u8> = far_regs().collect();
                reset_grf_set(d, s, 0, &far);
            }
            self.dirty_far.clear();
            self.dirty_far.extend(far_regs());
        } else {
            self.dirty_far.clear();
        }
        self.dirty = low;
        let blocks = self.arf_dirty.union(moved);
        copy_arf_blocks(d, s, blocks);
        if blocks.meets(self.acc_blocks) {
            for &(num, b) in &self.accs {
                if let (true, Some(to), Some(from)) =
                    (blocks.meets(b), d.acc.get_mut(num), s.acc.get(num))
                {
                    // (Field by field: inline moves, where the whole record is copied by a
                    // call; every field, or this does not build.)
                    let AccExt { ext, class } = from;
                    (to.ext, to.class) = (*ext, *class);
                }
            }
        }
        d.events = Default::default();
        self.arf_dirty = Blocks::EMPTY;
    }

    /// After a step on the state (equal to its source but for the tracked GRF registers): it
    /// now differs from the source only where the step wrote (`w`: the ARF blocks and GRF
    /// registers are tracked) and in the IP.
    pub(super) fn stepped(&mut self, w: &Written) {
        self.arf_dirty = Blocks::of(w.arf.0, w.arf.1).union(self.ip_blocks);
        self.note_grf(w);
    }

    /// After a step that failed (part of it may have been done): anything in the ARF may
    /// differ, and the GRF registers it wrote are tracked.
    pub(super) fn step_failed(&mut self) {
        let w = self.st.take_written();
        self.arf_dirty = Blocks::ALL;
        self.note_grf(&w);
    }

    /// Track the GRF registers of `w` (those the vector's registers miss: none, but for an
    /// instruction that would write outside them).
    fn note_grf(&mut self, w: &Written) {
        let regs = w.grf_regs(self.st.grf_reg_bytes());
        if regs.end <= 128 {
            // (A run of registers below 128: a mask.)
            let k = regs.end.saturating_sub(regs.start);
            if k > 0 {
                self.dirty |= (u128::MAX >> (128 - k)) << regs.start;
            }
            return;
        }
        for n in regs {
            let n = u8::try_from(n).unwrap_or(u8::MAX);
            if n < 128 {
                self.dirty |= 1 << n;
            } else if !self.dirty_far.contains(&n) {
                self.dirty_far.push(n);
            }
        }
    }

    /// [`set_arf`], noting the bytes (and so the accumulator records) it changes (one dword
    /// of a register other than an accumulator, a flag register or cr0.0, inline, with its
    /// place looked up once: [`Slot::dwords`]).
    #[inline(always)]
    pub(super) fn set_arf(&mut self, i: usize, bytes: &[u8]) -> Option<()> {
        if let (Ok(dword), Some(&Some((base, blocks)))) =
            (<[u8; 4]>::try_from(bytes), self.dwords.get(i))
        {
            if set_dword(&mut self.st, base, dword) {
                self.arf_dirty = self.arf_dirty.union(blocks);
                return Some(());
            }
        }
        self.set_arf_general(i, bytes)
    }

    /// [`Slot::set_arf`] of any bytes.
    #[inline(never)]
    fn set_arf_general(&mut self, i: usize, bytes: &[u8]) -> Option<()> {
        let r = self.st.layout.regs.get(i)?;
        let (base, fits) = (r.base, bytes.len() <= r.bytes);
        self.arf_dirty = self.arf_dirty.union(Blocks::of(base, base + bytes.len()));
        if let (Ok(dword), true, Some(false)) = (
            <[u8; 4]>::try_from(bytes),
            fits,
            self.acc_regs.get(i).copied(),
        ) {
            if set_dword(&mut self.st, base, dword) {
                return Some(());
            }
        }
        set_arf(&mut self.st, i, bytes)
    }
}

/// GRF bytes of [`reset_grf_set`]'s fixed-size path: 128 registers of 32 bytes.
const GRF_BYTES: usize = 128 * 32;

/// Make GRF registers `set` (bit `n`: register `n`) and `far` (any numbers) of `d` (bytes
/// and undefined flags) equal `s`'s; a register past the GRF is left alone. (A GRF of
/// [`GRF_BYTES`] in both, every platform's, through fixed-size views: no bounds check per
/// access, and none of `far` in it.)
#[inline]
pub(super) fn reset_grf_set(d: &mut ThreadState, s: &ThreadState, set: u128, far: &[u8]) {
    let views = (
        <&mut [u8; GRF_BYTES]>::try_from(d.grf.as_mut_slice()),
        <&[u8; GRF_BYTES]>::try_from(s.grf.as_slice()),
        <&mut [u64; GRF_BYTES / 64]>::try_from(d.grf_undef.as_mut_slice()),
        <&[u64; GRF_BYTES / 64]>::try_from(s.grf_undef.as_slice()),
    );
    if let (Ok(dg), Ok(sg), Ok(du), Ok(su)) = views {
        // (Two halves: 64-bit masks.)
        for (half, mut m) in [(0, set as u64), (64, (set >> 64) as u64)] {
            while m != 0 {
                let o = 32 * (half + m.trailing_zeros() as usize);
                m &= m - 1;
                let (Some(to), Some(from)) = (
                    dg.get_mut(o..).and_then(|x| x.first_chunk_mut::<32>()),
                    sg.get(o..).and_then(|x| x.first_chunk::<32>()),
                ) else {
                    continue;
                };
                *to = *from;
                let mask = 0xffff_ffffu64 << (o % 64);
                if let (Some(du), Some(su)) = (du.get_mut(o / 64), su.get(o / 64)) {
                    *du = (*du & !mask) | (su & mask);
                }
            }
        }
        return;
    }
    let mut reset = |n: usize| {
        let o = n * 32;
        copy_fixed::<u8, 32>(&mut d.grf, &s.grf, o);
        let m = 0xffff_ffffu64 << (o % 64);
        if let (Some(d), Some(s)) = (d.grf_undef.get_mut(o / 64), s.grf_undef.get(o / 64)) {
            *d = (*d & !m) | (s & m);
        }
    };
    let mut m = set;
    while m != 0 {
        reset(m.trailing_zeros() as usize);
        m &= m - 1;
    }
    for &n in far {
        reset(usize::from(n));
    }
}

/// Make the ARF blocks `blocks` of `d` (bytes and undefined masks) equal `s`'s (fixed-size
/// moves of whole blocks).
pub(super) fn copy_arf_blocks(d: &mut ThreadState, s: &ThreadState, blocks: Blocks) {
    const B: usize = Blocks::BYTES;
    let len = s.arf.len();
    if len % 4 != 0
        || d.arf.len() != len
        || s.arf_undef.len() != len / 4
        || d.arf_undef.len() != len / 4
    {
        if blocks != Blocks::EMPTY {
            d.arf.clone_from(&s.arf);
            d.arf_undef.clone_from(&s.arf_undef);
        }
        return;
    }
    if blocks == Blocks::ALL {
        d.arf.copy_from_slice(&s.arf);
        d.arf_undef.copy_from_slice(&s.arf_undef);
        return;
    }
    // (The blocks' ranges as `Blocks::ranges` gives them, without an iterator's state.)
    let mut m = blocks.0;
    while m != 0 {
        let k = m.trailing_zeros() as usize;
        m &= m - 1;
        let o = k * B;
        if o >= len {
            break;
        }
        let e = if k == 63 { len } else { (o + B).min(len) };
        if e - o == B {
            copy_fixed::<u8, B>(&mut d.arf, &s.arf, o);
            copy_fixed::<u32, { B / 4 }>(&mut d.arf_undef, &s.arf_undef, o / 4);
        } else {
            d.arf[o..e].copy_from_slice(&s.arf[o..e]);
            d.arf_undef[o / 4..e / 4].copy_from_slice(&s.arf_undef[o / 4..e / 4]);
        }
    }
}

/// `ThreadState::set_arf_bytes` of ARF register `i` (by index: no name lookup) from byte 0.
pub(super) fn set_arf(st: &mut ThreadState, i: usize, bytes: &[u8]) -> Option<()> {
    let r = &st.layout.regs[i];
    let n = bytes.len();
    if n > r.bytes {
        return None;
    }
    let (base, is_acc, num) = (r.base, r.info.name == "acc", usize::from(r.num));
    // One dword (a flag register, cr0.0) of a register other than an accumulator.
    if let (Ok(dword), false) = (<[u8; 4]>::try_from(bytes), is_acc) {
        if set_dword(st, base, dword) {
            return Some(());
        }
    }
    // (Whole dwords, written and their masks cleared a dword at a time; registers start on a
    // dword.)
    let whole = if base % 4 == 0 { n / 4 } else { 0 };
    let arf = st.arf.get_mut(base..base + 4 * whole);
    let undef = st.arf_undef.get_mut(base / 4..base / 4 + whole);
    if let (Some(arf), Some(undef)) = (arf, undef) {
        let dwords = arf.chunks_exact_mut(4).zip(undef);
        for ((d, u), c) in dwords.zip(bytes.chunks_exact(4)) {
            d.copy_from_slice(c);
            *u = 0;
        }
    }
    for (k, &b) in bytes.iter().enumerate().skip(4 * whole) {
        let o = base + k;
        st.arf[o] = b;
        st.arf_undef[o / 4] &= !(0xff << (8 * (o % 4)));
    }
    if is_acc {
        if let Some(a) = st.acc.get_mut(num) {
            let words = n.div_ceil(2).min(a.class.len());
            a.class[..words]
                .iter_mut()
                .for_each(|c| *c = crate::state::acc::NO_CLASS);
        }
    }
    Some(())
}

/// Write `dword` at ARF byte `base` (a multiple of 4) as defined bits; false (nothing
/// written): not a dword of the ARF.
#[inline(always)]
fn set_dword(st: &mut ThreadState, base: usize, dword: [u8; 4]) -> bool {
    if base % 4 != 0 {
        return false;
    }
    match (
        st.arf.get_mut(base..base + 4),
        st.arf_undef.get_mut(base / 4),
    ) {
        (Some(d), Some(u)) => {
            d.copy_from_slice(&dword);
            *u = 0;
            true
        }
        _ => false,
    }
}

/// The blocks in which two ARF images (bytes and per-dword undefined masks) differ, as a plain
/// scan finds them (the full comparison that [`Slot::stepped`]'s ranges replace; the debug
/// check and the tests). Images of different sizes differ everywhere.
#[cfg(any(test, debug_assertions))]
pub(super) fn differing_blocks(a: &[u8], b: &[u8], ua: &[u32], ub: &[u32]) -> Blocks {
    if a.len() != b.len() || ua.len() != ub.len() {
        return Blocks::ALL;
    }
    let bytes = (a.iter().zip(b).enumerate()).filter(|(_, (x, y))| x != y);
    let masks = (ua.iter().zip(ub).enumerate()).filter(|(_, (x, y))| x != y);
    (bytes.map(|(i, _)| i).chain(masks.map(|(i, _)| 4 * i)))
        .fold(Blocks::EMPTY, |m, i| m.union(Blocks::of(i, i + 1)))
}

/// Debug check of what [`Slot::stepped`] and the comparison of the changed registers assume:
/// `after`, stepped from a state equal to `before`, differs from it only in the GRF registers
/// of `w`, in the ARF blocks of `w` and the IP's, and in the accumulator records of the
/// registers `w` overlaps.
#[cfg(any(test, debug_assertions))]
pub(super) fn check_step(before: &ThreadState, after: &Slot, w: &Written) {
    let a = &after.st;
    let regs = w.grf_regs(a.grf_reg_bytes());
    for n in (0..a.grf.len() / 32).filter(|n| !regs.contains(n)) {
        debug_assert!(grf_reg(before, n as u8) == grf_reg(a, n as u8), "r{n}");
    }
    let m = differing_blocks(&before.arf, &a.arf, &before.arf_undef, &a.arf_undef);
    let allowed = Blocks::of(w.arf.0, w.arf.1).union(after.ip_blocks);
    debug_assert!(m.0 & !allowed.0 == 0, "{m:?} outside {allowed:?}");
    for r in a.layout.regs.iter().filter(|r| r.info.name == "acc") {
        if !w.arf_overlaps(r.base, r.base + r.bytes) {
            let num = usize::from(r.num);
            debug_assert!(before.acc.get(num) == a.acc.get(num), "{}", r.name);
        }
    }
}

/// The candidates (bit `i`: `candidates[i]`) of `maybe` whose bytes or defined bits differ
/// between `st` and `after` (the others are the same), and those of them with undefined bits
/// in `after`; a GRF candidate outside `grf` (register numbers) is the same. The candidates
/// of `grf_mask` (the GRF ones; any mask gives the same result) are compared first, then the
/// others, so that the branch on the register kind follows a pattern.
pub(super) fn changed_regs(
    st: &ThreadState,
    after: &ThreadState,
    candidates: &[RegRef],
    (maybe, grf_mask): (u64, u64),
    grf: std::ops::Range<usize>,
) -> (u64, u64) {
    let (mut changed, mut with_undef) = (0u64, 0u64);
    let (mut ua, mut ub) = ([0u8; 64], [0u8; 64]);
    // (One loop over the GRF candidates, then the others: no array iterator's state.)
    let (mut maybe, mut rest) = (maybe & grf_mask, maybe & !grf_mask);
    loop {
        if maybe == 0 {
            if rest == 0 {
                break;
            }
            (maybe, rest) = (rest, 0);
        }
        let i = maybe.trailing_zeros() as usize;
        maybe &= maybe - 1;
        let Some(reg) = candidates.get(i) else {
            // (None above `i` either: the next kind.)
            maybe = 0;
            continue;
        };
        // GRF registers by their bits (as the general path below: differing undefined flags
        // or a differing defined byte); ARF registers after a quick check of equal bytes
        // and undefined flags, then by their dwords' bits and masks.
        match *reg {
            RegRef::Arf(ix) => {
                if same_arf(st, after, ix) {
                    continue;
                }
                // (Whole dwords: compared as the general path does, in one pass.)
                if let Some((differ, undef)) = arf_differs(st, after, ix) {
                    changed |= u64::from(differ) << i;
                    with_undef |= u64::from(differ && undef) << i;
                    continue;
                }
            }
            RegRef::Grf(n) => {
                if !grf.contains(&usize::from(n)) {
                    continue;
                }
                if let (Some((x, ux)), Some((y, uy))) = (grf_reg(st, n), grf_reg(after, n)) {
                    // (Bytes compared as 64-bit words when all are defined, else one by one.)
                    let defined_differ = if ux | uy == 0 {
                        u32::from(words(x) != words(y))
                    } else {
                        (0..32).fold(0u32, |m, k| m | u32::from(x[k] != y[k]) << k)
                    };
                    if ux != uy || defined_differ & !ux != 0 {
                        changed |= 1 << i;
                        with_undef |= u64::from(uy != 0) << i;
                    }
                    continue;
                }
            }
        }
        let (x, ux) = reg_view(st, *reg, &mut ua);
        let (y, uy) = reg_view(after, *reg, &mut ub);
        let n = x.len();
        let differ = if !ux && !uy {
            x != y
        } else {
            ua[..n] != ub[..n]
                || x.iter()
                    .zip(y)
                    .zip(&ua)
                    .any(|((a, c), u)| (a ^ c) & !u != 0)
        };
        if differ {
            changed |= 1 << i;
            if uy {
                with_undef |= 1 << i;
            }
        }
    }
    (changed, with_undef)
}

/// Whether ARF block `k` ([`Blocks`]) has the same bytes and undefined flags in `a` and `b`
/// (a block past the end has none: the same); false when they may differ.
#[inline]
pub(super) fn same_block(a: &ThreadState, b: &ThreadState, k: usize) -> bool {
    const B: usize = Blocks::BYTES;
    let Some((o, e)) = Blocks(1 << k.min(63)).ranges(a.arf.len()).next() else {
        return a.arf.len() == b.arf.len();
    };
    fn whole(x: &ThreadState, o: usize) -> Option<(&[u8; B], &[u32; B / 4])> {
        let bytes = x.arf.get(o..).and_then(|s| s.first_chunk::<B>());
        let undef = x
            .arf_undef
            .get(o / 4..)
            .and_then(|s| s.first_chunk::<{ B / 4 }>());
        bytes.zip(undef)
    }
    if e - o == B {
        if let (Some((x, ux)), Some((y, uy))) = (whole(a, o), whole(b, o)) {
            // (As 64-bit words and dwords, or-ed: no comparison call, no early exit.)
            let word =
                |d: &[u8; B], i: usize| u64::from_le_bytes(std::array::from_fn(|j| d[8 * i + j]));
            let bytes = (0..B / 8).fold(0, |m, i| m | (word(x, i) ^ word(y, i)));
            let undef = (0..B / 4).fold(0, |m, i| m | (ux[i] ^ uy[i]));
            return bytes == 0 && undef == 0;
        }
    }
    let (hi, ud) = (e, (o / 4)..e.div_ceil(4));
    match (a.arf.get(o..hi), b.arf.get(o..hi)) {
        (Some(x), Some(y)) => x == y && a.arf_undef.get(ud.clone()) == b.arf_undef.get(ud),
        _ => false,
    }
}

/// Whether ARF register `i` differs between `st` and `after` (undefined bits or defined
/// bits; the general path's comparison of `reg_view`s a dword at a time), and whether it has
/// undefined bits in `after` (None: not whole dwords, or not in the layout).
#[inline]
fn arf_differs(st: &ThreadState, after: &ThreadState, i: usize) -> Option<(bool, bool)> {
    let (x, ux, fx) = arf_dwords(st, i)?;
    let (y, uy, fy) = arf_dwords(after, i)?;
    let word = |d: &[u8]| u32::from_le_bytes([d[0], d[1], d[2], d[3]]);
    let (mut differ, mut undef) = (false, false);
    let words = x.chunks_exact(4).zip(y.chunks_exact(4));
    for ((a, b), ((ua, fa), (ub, fb))) in words.zip(ux.iter().zip(fx).zip(uy.iter().zip(fy))) {
        let (ma, mb) = (ua | fa, ub | fb);
        differ |= ma != mb || (word(a) ^ word(b)) & !ma != 0;
        undef |= mb != 0;
    }
    Some((differ, undef))
}

/// A GRF register's 32 bytes as four little-endian 64-bit words.
#[inline(always)]
fn words(x: &[u8; 32]) -> [u64; 4] {
    std::array::from_fn(|i| {
        let b = &x[8 * i..8 * i + 8];
        u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
    })
}

/// The 32 bytes of GRF register `n` and its 32 undefined flags.
#[inline]
pub(super) fn grf_reg(st: &ThreadState, n: u8) -> Option<(&[u8; 32], u32)> {
    let o = usize::from(n) * 32;
    let bytes = st.grf.get(o..o + 32)?.try_into().ok()?;
    Some((bytes, (st.grf_undef.get(o / 64)? >> (o % 64)) as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Raw equality of everything a reset restores (undefined bytes included).
    fn same_raw(a: &ThreadState, b: &ThreadState) -> bool {
        a.grf == b.grf
            && a.grf_undef == b.grf_undef
            && a.arf == b.arf
            && a.arf_undef == b.arf_undef
            && a.acc == b.acc
    }

    /// A random written range: GRF bytes anywhere (usually within a register or two), ARF
    /// bytes anywhere (sometimes none).
    fn random_written(st: &ThreadState, r: &mut Rng) -> Written {
        let mut w = Written::NONE;
        if r.chance(7, 8) {
            let lo = r.below(st.grf.len());
            w.grf = (lo, (lo + 1 + r.below(64)).min(st.grf.len()));
        }
        if r.chance(1, 2) {
            let (lo, most) = (r.below(st.arf.len()), if r.chance(1, 4) { 600 } else { 40 });
            w.arf = (lo, (lo + 1 + r.below(most)).min(st.arf.len()));
        }
        w
    }

    /// Change `st` (bytes, undefined flags, accumulator records) only inside `w`, and the IP.
    fn scribble(st: &mut ThreadState, w: &Written, r: &mut Rng) {
        for _ in 0..1 + r.below(6) {
            if w.grf.0 < w.grf.1 {
                let o = w.grf.0 + r.below(w.grf.1 - w.grf.0);
                st.grf[o] ^= 1 + r.below(255) as u8;
                if r.chance(1, 3) {
                    st.grf_undef[o / 64] ^= 1 << (o % 64);
                }
            }
            if w.arf.0 < w.arf.1 {
                let o = w.arf.0 + r.below(w.arf.1 - w.arf.0);
                st.arf[o] ^= 1 + r.below(255) as u8;
                if r.chance(1, 3) {
                    st.arf_undef[o / 4] ^= 0xff << (8 * (o % 4));
                }
            }
        }
        let accs: Vec<(usize, usize, usize)> = (st.layout.regs.iter())
            .filter(|x| x.info.name == "acc")
            .map(|x| (x.base, x.bytes, usize::from(x.num)))
            .collect();
        for (base, bytes, num) in accs {
            if w.arf_overlaps(base, base + bytes) && r.chance(1, 2) {
                st.acc[num].ext[r.below(16)] ^= 1;
                st.acc[num].class[r.below(16)] ^= 1;
            }
        }
        if let Some(ip) = st.arf_index("ip") {
            let o = st.layout.regs[ip].base;
            st.arf[o] = st.arf[o].wrapping_add(16);
        }
    }

    /// The changed candidates and those with undefined bits in `after`, every candidate
    /// compared through `reg_view` (bytes and undefined bytes).
    fn general(st: &ThreadState, after: &ThreadState, candidates: &[RegRef]) -> (u64, u64) {
        let (mut changed, mut with_undef) = (0, 0);
        for (i, reg) in candidates.iter().enumerate() {
            let (mut ua, mut ub) = ([0u8; 64], [0u8; 64]);
            let (x, _) = reg_view(st, *reg, &mut ua);
            let (y, uy) = reg_view(after, *reg, &mut ub);
            let n = x.len();
            let defined_differ = (0..n).any(|k| (x[k] ^ y[k]) & !ua[k] != 0);
            if ua[..n] != ub[..n] || defined_differ {
                changed |= 1 << i;
                with_undef |= u64::from(uy) << i;
            }
        }
        (changed, with_undef)
    }

    /// Slot resets as `assemble` does them (the ARF blocks noted by `Slot::set_arf`, what
    /// `after` must follow accumulated over attempts that stop early, what a step wrote or
    /// anything for a failed step) make `st` equal the base and `after` equal `st`
    /// everywhere: the whole GRF and ARF (bytes and undefined flags) and the accumulator
    /// records, for random registers, fills, writes (inside the reported ranges) and
    /// failures.
    #[test]
    fn slot_resets_restore_the_source() {
        for p in [Platform::Skl, Platform::Ivb, Platform::Hsw] {
            let base = ThreadState::new(p);
            let set: Vec<usize> = ["f0", "f1", "acc0", "acc1", "cr0"]
                .into_iter()
                .filter_map(|n| base.arf_index(n))
                .collect();
            assert_eq!(set.len(), 5);
            let (mut st, mut after) = (Slot::new(&base), Slot::new(&base));
            let mut fill = super::super::Filler::default();
            let mut moved = Blocks::EMPTY;
            let mut r = Rng::for_vector(9, p as u64, 0);
            let (mut followed, mut failed) = (0, 0);
            for _ in 0..3000 {
                let regs: Vec<u8> = (0..1 + r.below(4)).map(|_| r.below(128) as u8).collect();
                moved = moved.union(st.arf_dirty);
                st.reset_to_same(&base, &RegSet::of(&regs));
                assert!(same_raw(&st.st, &base));
                // As `assemble`: register fills and `Slot::set_arf` on `st` only.
                for &n in &regs {
                    fill.regs(&mut st.st, n, 1, DataType::UD, &mut r, None)
                        .unwrap();
                }
                for &i in &set {
                    if r.chance(1, 2) {
                        let len = if r.chance(1, 2) { 4 } else { 32 };
                        let n = len.min(st.st.layout.regs[i].bytes);
                        let bytes: Vec<u8> = (0..n).map(|_| r.next() as u8).collect();
                        st.set_arf(i, &bytes).unwrap();
                    }
                }
                if r.chance(1, 5) {
                    // An attempt that stops before executing.
                    continue;
                }
                after.reset_from(&st.st, &RegSet::of(&regs), moved.union(st.arf_dirty));
                moved = Blocks::EMPTY;
                assert!(same_raw(&after.st, &st.st), "{p:?}");
                followed += 1;
                let _ = after.st.take_written();
                if r.chance(1, 10) {
                    // A failed step: GRF writes (recorded) anywhere, anything in the ARF.
                    for _ in 0..r.below(3) {
                        let o = 4 * r.below(after.st.grf.len() / 4);
                        after.st.write_grf(o, 4, r.next(), false).unwrap();
                    }
                    let all = Written {
                        grf: (0, 0),
                        arf: (0, after.st.arf.len()),
                    };
                    scribble(&mut after.st, &all, &mut r);
                    after.step_failed();
                    failed += 1;
                } else {
                    let w = random_written(&after.st, &mut r);
                    scribble(&mut after.st, &w, &mut r);
                    after.stepped(&w);
                    check_step(&st.st, &after, &w);
                }
            }
            assert!(followed > 1500 && failed > 100, "{followed} {failed}");
        }
    }

    /// A register set holds exactly the numbers of its list below 128, and notes whether the
    /// list has others, for random lists (numbers anywhere, repeated now and then).
    #[test]
    fn register_sets_hold_their_list() {
        let mut r = Rng::for_vector(15, 1, 0);
        for k in 0..5000 {
            let list: Vec<u8> = (0..r.below(9))
                .map(|_| {
                    if k % 3 == 0 {
                        r.next() as u8
                    } else {
                        r.below(128) as u8
                    }
                })
                .collect();
            let set = RegSet::of(&list);
            for n in 0..=255u8 {
                let held = n < 128 && set.low >> n & 1 == 1;
                assert_eq!(held, n < 128 && list.contains(&n), "{list:?} {n}");
            }
            assert_eq!(set.far, list.iter().any(|&n| n >= 128), "{list:?}");
            assert_eq!(set.list, &list[..]);
        }
    }

    /// `Slot::set_arf` (a dword written inline where its table places one) gives the state,
    /// the result and the noted blocks of the general path, for random ARF registers of every
    /// platform (some past the layout), bytes of 1 to 8 (mostly 4) and undefined masks.
    #[test]
    fn inline_dword_writes_equal_the_general_path() {
        let mut r = Rng::for_vector(14, 3, 0);
        let mut inline = 0;
        for p in Platform::ALL {
            let base = ThreadState::new(p);
            let (mut a, mut b) = (Slot::new(&base), Slot::new(&base));
            for k in 0..3000 {
                if k % 40 == 0 {
                    let undef: Vec<u32> = (0..base.arf_undef.len())
                        .map(|_| if r.chance(1, 2) { r.next() as u32 } else { 0 })
                        .collect();
                    for s in [&mut a, &mut b] {
                        s.st.arf_undef.copy_from_slice(&undef);
                        s.arf_dirty = Blocks::EMPTY;
                    }
                }
                let i = r.below(base.layout.regs.len() + 2);
                let len = if r.chance(3, 4) { 4 } else { 1 + r.below(8) };
                let bytes: Vec<u8> = (0..len).map(|_| r.next() as u8).collect();
                let (ra, rb) = (a.set_arf(i, &bytes), b.set_arf_general(i, &bytes));
                assert_eq!(ra, rb, "{p:?} {i} {len}");
                assert!(same_raw(&a.st, &b.st), "{p:?} {i} {len}");
                assert_eq!(a.arf_dirty, b.arf_dirty, "{p:?} {i} {len}");
                inline += usize::from(len == 4 && a.dwords.get(i).is_some_and(|d| d.is_some()));
            }
        }
        assert!(inline > 5000, "{inline}");
    }

    /// The GRF reset through fixed-size views equals a register-by-register copy by slices
    /// (bytes and undefined flags; register numbers past the GRF left alone), and a GRF of
    /// another size takes the general path likewise.
    #[test]
    fn fixed_size_grf_resets_equal_the_plain_copy() {
        let mut r = Rng::for_vector(12, 13, 0);
        let base = ThreadState::new(Platform::Skl);
        let random = |r: &mut Rng, st: &mut ThreadState| {
            st.grf.iter_mut().for_each(|x| *x = r.next() as u8);
            st.grf_undef
                .iter_mut()
                .for_each(|w| *w = r.next() & r.next());
        };
        for round in 0..2000 {
            let (mut src, mut dst) = (base.clone(), base.clone());
            if round % 4 == 3 {
                // Not the size of the fixed views: the general path.
                for st in [&mut src, &mut dst] {
                    st.grf.truncate(32 * 100);
                    st.grf_undef.truncate(50);
                }
            }
            random(&mut r, &mut src);
            random(&mut r, &mut dst);
            let pick = |r: &mut Rng| -> Vec<u8> {
                (0..r.below(9))
                    .map(|_| (100 + r.below(156)) as u8)
                    .collect()
            };
            let (regs, also) = (pick(&mut r), pick(&mut r));
            let mut want = dst.clone();
            let set = (regs.iter().chain(&also))
                .filter(|&&n| n < 128)
                .fold(0u128, |m, &n| m | 1 << n);
            let far: Vec<u8> = (regs.iter().chain(&also))
                .copied()
                .filter(|&n| n >= 128)
                .collect();
            for &n in regs.iter().chain(&also) {
                let o = 32 * usize::from(n);
                if o + 32 <= want.grf.len() && o / 64 < want.grf_undef.len() {
                    want.grf[o..o + 32].copy_from_slice(&src.grf[o..o + 32]);
                    let m = 0xffff_ffffu64 << (o % 64);
                    want.grf_undef[o / 64] =
                        want.grf_undef[o / 64] & !m | src.grf_undef[o / 64] & m;
                }
            }
            reset_grf_set(&mut dst, &src, set, &far);
            assert!(
                dst.grf == want.grf && dst.grf_undef == want.grf_undef,
                "{regs:?} {also:?}"
            );
        }
    }

    /// The changed registers found among the candidates in the blocks a step wrote (and the
    /// GRF registers it wrote; GRF registers compared by their bits) equal those the general
    /// comparison (`reg_view`, every candidate) finds, and those found among the candidates
    /// in the blocks that differ (all GRF candidates), for random states, candidates and
    /// writes.
    #[test]
    fn changed_registers_from_the_written_ranges_equal_the_full_comparison() {
        let mut r = Rng::for_vector(12, 12, 0);
        let mut found = 0;
        for p in [Platform::Skl, Platform::Ivb] {
            let mut st = ThreadState::new(p);
            let nregs = st.layout.regs.len();
            for _ in 0..3000 {
                for x in st.grf.iter_mut().chain(st.arf.iter_mut()) {
                    *x = r.next() as u8;
                }
                for w in st.grf_undef.iter_mut() {
                    *w = if r.chance(1, 4) { r.next() } else { 0 };
                }
                for w in st.arf_undef.iter_mut() {
                    *w = if r.chance(1, 4) { r.next() as u32 } else { 0 };
                }
                let mut after = st.clone();
                let w = random_written(&st, &mut r);
                scribble(&mut after, &w, &mut r);
                let mut candidates: Vec<RegRef> = (0..r.below(8))
                    .map(|_| RegRef::Grf(r.below(128) as u8))
                    .collect();
                // (The ARF registers a vector may change: all but ip, null and the large
                // ones, as `Work::arf_sorted`.)
                let arf = (0..nregs).filter(|&i| {
                    let x = &st.layout.regs[i];
                    x.name != "ip" && x.name != "null" && x.bytes <= 64
                });
                candidates.extend(arf.filter(|_| r.chance(3, 4)).map(RegRef::Arf));
                candidates.truncate(64);
                let within = |m: Blocks| -> u64 {
                    (candidates.iter().enumerate()).fold(0, |acc, (i, c)| match *c {
                        RegRef::Grf(_) => acc | 1 << i,
                        RegRef::Arf(ix) => {
                            let x = &st.layout.regs[ix];
                            let hit = Blocks::of(x.base, x.base + x.bytes).meets(m);
                            acc | u64::from(hit) << i
                        }
                    })
                };
                let want = general(&st, &after, &candidates);
                let full = differing_blocks(&st.arf, &after.arf, &st.arf_undef, &after.arf_undef);
                let all = 0..st.grf.len() / 32;
                assert_eq!(
                    changed_regs(&st, &after, &candidates, (within(full), r.next()), all),
                    want
                );
                let grf = w.grf_regs(st.grf_reg_bytes());
                let written = Blocks::of(w.arf.0, w.arf.1);
                let grf_mask = (candidates.iter().enumerate()).fold(0, |m, (i, c)| {
                    m | u64::from(matches!(c, RegRef::Grf(_))) << i
                });
                let got = changed_regs(&st, &after, &candidates, (within(written), grf_mask), grf);
                assert_eq!(got, want, "{p:?} {w:?}");
                // Only the written blocks that differ (`same_block`), as `assemble` does.
                let differ = Blocks::of(w.arf.0, w.arf.1).0
                    & !(0..64).fold(0u64, |m, k| m | u64::from(same_block(&st, &after, k)) << k);
                let grf = w.grf_regs(st.grf_reg_bytes());
                let got = changed_regs(
                    &st,
                    &after,
                    &candidates,
                    (within(Blocks(differ)), grf_mask),
                    grf,
                );
                assert_eq!(got, want, "{p:?} {w:?} same blocks");
                found += want.0.count_ones();
            }
        }
        assert!(found > 1000, "{found}");
    }

    /// A reset drops the inexact marks a previous vector's math result left (the source
    /// states are exact): without it every later instruction pays the mark pass.
    #[test]
    fn reset_drops_inexact_marks() {
        let base = ThreadState::new(Platform::Skl);
        let mut slot = Slot::new(&base);
        slot.st.set_grf_inexact(64, 4, true);
        assert!(slot.st.has_inexact());
        slot.reset_to_same(&base, &RegSet::of(&[]));
        assert!(!slot.st.has_inexact());
        assert!(!slot.st.grf_range_inexact(64, 4));
    }

    /// `Slot::set_arf` (a dword of a register other than an accumulator inline) equals the
    /// general `set_arf` on random registers, lengths (4 bytes often) and undefined states,
    /// and notes the blocks it wrote.
    #[test]
    fn slot_set_arf_equals_the_general_path() {
        let mut r = Rng::for_vector(5, 5, 0);
        for p in Platform::ALL {
            let base = ThreadState::new(p);
            let mut slot = Slot::new(&base);
            let mut plain = base.clone();
            let nregs = base.layout.regs.len();
            let mut fast = 0;
            for _ in 0..2000 {
                for (a, b) in slot.st.arf_undef.iter_mut().zip(plain.arf_undef.iter_mut()) {
                    *a = r.next() as u32;
                    *b = *a;
                }
                let i = r.below(nregs);
                let reg = &base.layout.regs[i];
                let n = if r.chance(2, 3) {
                    4
                } else {
                    r.below(reg.bytes + 2)
                };
                let bytes: Vec<u8> = (0..n).map(|_| r.next() as u8).collect();
                slot.arf_dirty = Blocks::EMPTY;
                let got = slot.set_arf(i, &bytes);
                assert_eq!(
                    got,
                    set_arf(&mut plain, i, &bytes),
                    "{p:?} {} {n}",
                    reg.name
                );
                assert!(slot.st.arf == plain.arf && slot.st.arf_undef == plain.arf_undef);
                assert!(slot.st.acc == plain.acc, "{p:?} {}", reg.name);
                let wrote = Blocks::of(reg.base, reg.base + n);
                assert_eq!(slot.arf_dirty, wrote);
                fast += usize::from(n == 4 && reg.info.name != "acc" && got.is_some());
            }
            assert!(fast > 500, "{fast}");
        }
    }

    /// `same_block` equals the plain scan for differing blocks, for random states and
    /// changes (bytes, undefined flags, none) in random ranges, every block of the ARF (the
    /// last one, from byte 64 * 63 on, and those past the end too).
    #[test]
    fn same_blocks_equal_the_plain_scan() {
        let mut r = Rng::for_vector(13, 13, 0);
        let mut seen = (0, 0);
        for p in Platform::ALL {
            let mut a = ThreadState::new(p);
            for _ in 0..300 {
                for x in a.arf.iter_mut() {
                    *x = r.next() as u8;
                }
                for u in a.arf_undef.iter_mut() {
                    *u = if r.chance(1, 3) { r.next() as u32 } else { 0 };
                }
                let mut b = a.clone();
                let w = random_written(&a, &mut r);
                if r.chance(3, 4) {
                    scribble(&mut b, &w, &mut r);
                }
                let want = differing_blocks(&a.arf, &b.arf, &a.arf_undef, &b.arf_undef);
                for k in 0..70 {
                    let same = same_block(&a, &b, k);
                    assert_eq!(same, !want.meets(Blocks::block(k)), "{p:?} block {k}");
                    if k < 63 {
                        seen.0 += usize::from(same);
                        seen.1 += usize::from(!same);
                    }
                }
            }
        }
        assert!(seen.0 > 1000 && seen.1 > 1000, "{seen:?}");
    }

    /// `Blocks::of` holds exactly the blocks of the bytes of the range, and `ranges` gives
    /// them back as byte ranges.
    #[test]
    fn block_sets_of_byte_ranges() {
        let mut r = Rng::for_vector(1, 3, 0);
        for _ in 0..2000 {
            let (lo, len) = (r.below(5000), r.below(300));
            let m = Blocks::of(lo, lo + len);
            let want = (lo..lo + len).fold(Blocks::EMPTY, |m, i| m.union(Blocks::block(i / 64)));
            assert_eq!(m, want, "{lo}+{len}");
            let total = r.below(6000);
            let mut covered = vec![false; total];
            for (o, e) in m.ranges(total) {
                assert!(o < e && e <= total);
                covered[o..e].iter_mut().for_each(|c| *c = true);
            }
            for (i, c) in covered.iter().enumerate() {
                assert_eq!(*c, m.meets(Blocks::block(i / 64)), "byte {i} of {total}");
            }
        }
    }
}
