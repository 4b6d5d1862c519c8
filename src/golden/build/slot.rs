//! Working thread states that are reset cheaply between vectors (only what a vector touched),
//! and the comparisons of two states (ARF blocks, GRF registers) as whole words.

use super::*;

/// One ThreadState, the GRF registers written in it since it equalled its source, the ARF
/// blocks in which it may differ from that source, and whether its accumulator records may.
pub(super) struct Slot {
    pub(super) st: ThreadState,
    pub(super) dirty: Vec<u8>,
    pub(super) arf_dirty: Blocks,
    pub(super) acc_dirty: bool,
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
    #[inline]
    pub(super) fn block(k: usize) -> Blocks {
        Blocks(1 << k.min(63))
    }

    #[inline]
    pub(super) fn union(self, o: Blocks) -> Blocks {
        Blocks(self.0 | o.0)
    }

    /// Whether the two sets share a block.
    #[cfg(test)]
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

impl Slot {
    pub(super) fn new(st: &ThreadState) -> Slot {
        Slot {
            st: st.clone(),
            dirty: Vec::new(),
            arf_dirty: Blocks::EMPTY,
            acc_dirty: false,
        }
    }

    /// Make the state equal `src` on the GRF registers it has written and on `regs`, on the
    /// ARF blocks where it may differ from its previous source or `src` from that source
    /// (`moved`),
    /// and on the accumulator records if they may differ (`acc_dirty`: `src`'s never change);
    /// it then tracks `regs`.
    pub(super) fn reset_from(&mut self, src: &ThreadState, regs: &[u8], moved: Blocks) {
        let (d, s) = (&mut self.st, src);
        // (The same registers as last time when the previous vector had the same shape.)
        let same =
            self.dirty.len() == regs.len() && self.dirty.iter().zip(regs).all(|(a, b)| a == b);
        let also: &[u8] = if same { &[] } else { &self.dirty };
        for &n in regs.iter().chain(also) {
            let o = usize::from(n) * 32;
            copy_fixed::<u8, 32>(&mut d.grf, &s.grf, o);
            let m = 0xffff_ffffu64 << (o % 64);
            let w = o / 64;
            d.grf_undef[w] = (d.grf_undef[w] & !m) | (s.grf_undef[w] & m);
        }
        copy_arf_blocks(d, s, self.arf_dirty.union(moved));
        if self.acc_dirty {
            d.acc.clone_from_slice(&s.acc);
        }
        d.events = Default::default();
        if !same {
            self.dirty.clear();
            self.dirty.extend(regs.iter().copied());
        }
        self.arf_dirty = Blocks::EMPTY;
        self.acc_dirty = false;
    }

    /// [`set_arf`], noting the bytes (and accumulator records) it changes.
    pub(super) fn set_arf(&mut self, i: usize, bytes: &[u8]) -> Option<()> {
        let r = self.st.layout.regs.get(i)?;
        self.arf_dirty = self
            .arf_dirty
            .union(Blocks::of(r.base, r.base + bytes.len()));
        self.acc_dirty |= r.info.name == "acc";
        set_arf(&mut self.st, i, bytes)
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
    for (o, e) in blocks.ranges(len) {
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
    if bytes.len() > r.bytes {
        return None;
    }
    let (base, is_acc, num) = (r.base, r.info.name == "acc", usize::from(r.num));
    // (Whole dwords, written and their masks cleared a dword at a time; registers start on a
    // dword.)
    let whole = if base % 4 == 0 { bytes.len() / 4 } else { 0 };
    for (k, c) in bytes[..4 * whole].chunks_exact(4).enumerate() {
        let o = base + 4 * k;
        if let (Some(d), Ok(c)) = (st.arf.get_mut(o..o + 4), <&[u8; 4]>::try_from(c)) {
            d.copy_from_slice(c);
        }
        st.arf_undef[o / 4] = 0;
    }
    for (k, &b) in bytes.iter().enumerate().skip(4 * whole) {
        let o = base + k;
        st.arf[o] = b;
        st.arf_undef[o / 4] &= !(0xff << (8 * (o % 4)));
    }
    if is_acc {
        if let Some(a) = st.acc.get_mut(num) {
            for w in 0..bytes.len().div_ceil(2) {
                if let Some(c) = a.class.get_mut(w) {
                    *c = crate::state::acc::NO_CLASS;
                }
            }
        }
    }
    Some(())
}

/// The blocks in which two ARF images (bytes and per-dword undefined masks) differ: every
/// block compared (or-reductions of whole blocks' words, which the compiler keeps inline; the
/// masks, usually equal, at once first). Images of different sizes differ everywhere.
pub(super) fn differing_blocks(a: &[u8], b: &[u8], ua: &[u32], ub: &[u32]) -> Blocks {
    const B: usize = Blocks::BYTES;
    if a.len() != b.len() || ua.len() != ub.len() {
        return Blocks::ALL;
    }
    let mut m = Blocks::EMPTY;
    for k in 0..a.len().div_ceil(B) {
        let (s, e) = (k * B, (k * B + B).min(a.len()));
        if differ::<u8, B>(&a[s..e], &b[s..e]) {
            m = m.union(Blocks::block(k));
        }
    }
    if ua != ub {
        for k in 0..ua.len().div_ceil(B / 4) {
            let (s, e) = (k * B / 4, (k * B / 4 + B / 4).min(ua.len()));
            if differ::<u32, { B / 4 }>(&ua[s..e], &ub[s..e]) {
                m = m.union(Blocks::block(k));
            }
        }
    }
    m
}

/// The ARF blocks in which `a` and `b` differ: one by one before byte `lim` (a multiple of
/// the block size), and all the blocks from `lim` on when anything from there differs
/// (compared at once: usually nothing does). All when `lim` is beyond the ARF.
pub(super) fn changed_blocks(a: &ThreadState, b: &ThreadState, lim: usize) -> Blocks {
    type Halves<'a, T> = (&'a [T], &'a [T]);
    fn split(s: &ThreadState, lim: usize) -> Option<(Halves<'_, u8>, Halves<'_, u32>)> {
        Some((
            s.arf.split_at_checked(lim)?,
            s.arf_undef.split_at_checked(lim / 4)?,
        ))
    }
    match (split(a, lim), split(b, lim)) {
        (Some(((x, xr), (ux, uxr))), Some(((y, yr), (uy, uyr)))) => {
            let m = differing_blocks(x, y, ux, uy);
            if xr == yr && uxr == uyr {
                m
            } else {
                m.union(Blocks::of(lim, usize::MAX))
            }
        }
        _ => Blocks::ALL,
    }
}

/// Whether two blocks differ: for whole blocks, an or-reduction of the xor of their 64-bit
/// words (straight-line code the compiler vectorizes); else element by element.
#[inline(always)]
pub(super) fn differ<T: Copy + PartialEq, const N: usize>(x: &[T], y: &[T]) -> bool
where
    [T; N]: AsWords,
{
    match (<&[T; N]>::try_from(x), <&[T; N]>::try_from(y)) {
        (Ok(x), Ok(y)) => {
            let (a, b) = (x.words(), y.words());
            (0..8).fold(0, |d, i| d | (a[i] ^ b[i])) != 0
        }
        _ => x != y,
    }
}

/// A 64-byte block as eight little-endian 64-bit words.
pub(super) trait AsWords {
    fn words(&self) -> [u64; 8];
}

impl AsWords for [u8; 64] {
    #[inline(always)]
    fn words(&self) -> [u64; 8] {
        std::array::from_fn(|i| {
            let b = &self[8 * i..8 * i + 8];
            u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
        })
    }
}

impl AsWords for [u32; 16] {
    #[inline(always)]
    fn words(&self) -> [u64; 8] {
        std::array::from_fn(|i| u64::from(self[2 * i]) | u64::from(self[2 * i + 1]) << 32)
    }
}

/// The 32 bytes of GRF register `n` and its 32 undefined flags.
#[inline]
pub(super) fn grf_reg(st: &ThreadState, n: u8) -> Option<(&[u8; 32], u32)> {
    let o = usize::from(n) * 32;
    let bytes = st.grf.get(o..o + 32)?.try_into().ok()?;
    Some((bytes, (st.grf_undef.get(o / 64)? >> (o % 64)) as u32))
}

/// Whether GRF register `n` has the same bytes and undefined flags in `a` and `b` (as 64-bit
/// words, no comparison call).
#[inline]
pub(super) fn same_grf(a: &ThreadState, b: &ThreadState, n: u8) -> bool {
    let words = |x: &[u8; 32]| -> [u64; 4] {
        std::array::from_fn(|i| {
            let b = &x[8 * i..8 * i + 8];
            u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
        })
    };
    match (grf_reg(a, n), grf_reg(b, n)) {
        (Some((x, ux)), Some((y, uy))) => {
            let (x, y) = (words(x), words(y));
            ux == uy && (0..4).fold(0, |d, i| d | (x[i] ^ y[i])) == 0
        }
        (x, y) => x == y,
    }
}
