//! Working thread states that are reset cheaply between vectors (only what a vector touched),
//! and the comparisons of two states (ARF byte ranges, GRF registers) as whole words.

use super::*;

/// One ThreadState, the GRF registers written in it since it equalled its source, the ARF
/// bytes in which it may differ from that source, and whether its accumulator records may.
pub(super) struct Slot {
    pub(super) st: ThreadState,
    pub(super) dirty: Vec<u8>,
    pub(super) arf_dirty: Span,
    pub(super) acc_dirty: bool,
}

/// Copy the 32 bytes at `o` of `src` to `dst` as one fixed-size move (inlined; a slice
/// `copy_from_slice` of unknown length calls `memcpy`).
#[inline(always)]
pub(super) fn copy_grf(dst: &mut [u8], src: &[u8], o: usize) {
    let from = src
        .get(o..o + 32)
        .and_then(|x| <&[u8; 32]>::try_from(x).ok());
    let to = dst
        .get_mut(o..o + 32)
        .and_then(|x| <&mut [u8; 32]>::try_from(x).ok());
    if let (Some(from), Some(to)) = (from, to) {
        *to = *from;
    }
}

/// A byte range of the ARF (`lo..hi`; empty when `lo >= hi`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Span(pub(super) usize, pub(super) usize);

impl Span {
    pub(super) const EMPTY: Span = Span(usize::MAX, 0);
    pub(super) const ALL: Span = Span(0, usize::MAX);

    pub(super) fn union(self, o: Span) -> Span {
        Span(self.0.min(o.0), self.1.max(o.1))
    }
}

impl Slot {
    pub(super) fn new(st: &ThreadState) -> Slot {
        Slot {
            st: st.clone(),
            dirty: Vec::new(),
            arf_dirty: Span::EMPTY,
            acc_dirty: false,
        }
    }

    /// Make the state equal `src` on the GRF registers it has written and on `regs`, on the
    /// ARF where it may differ from its previous source or `src` from that source (`moved`),
    /// and on the accumulator records if they may differ (`acc_dirty`: `src`'s never change);
    /// it then tracks `regs`.
    pub(super) fn reset_from(&mut self, src: &ThreadState, regs: &[u8], moved: Span) {
        let (d, s) = (&mut self.st, src);
        // (Usually the same registers as last time: the vectors of one shape.)
        let also: &[u8] = if self.dirty == regs { &[] } else { &self.dirty };
        for &n in regs.iter().chain(also) {
            let o = usize::from(n) * 32;
            copy_grf(&mut d.grf, &s.grf, o);
            let m = 0xffff_ffffu64 << (o % 64);
            let w = o / 64;
            d.grf_undef[w] = (d.grf_undef[w] & !m) | (s.grf_undef[w] & m);
        }
        // Whole dwords (the undefined masks are per dword).
        let Span(lo, hi) = self.arf_dirty.union(moved);
        let (lo, hi) = (lo / 4 * 4, hi.min(s.arf.len()).div_ceil(4) * 4);
        if lo < hi && hi <= d.arf.len() && s.arf.len() == d.arf.len() {
            d.arf[lo..hi].copy_from_slice(&s.arf[lo..hi]);
            d.arf_undef[lo / 4..hi / 4].copy_from_slice(&s.arf_undef[lo / 4..hi / 4]);
        } else if lo < hi {
            d.arf.clone_from(&s.arf);
            d.arf_undef.clone_from(&s.arf_undef);
        }
        if self.acc_dirty {
            d.acc.clone_from_slice(&s.acc);
        }
        d.events = Default::default();
        self.dirty.clear();
        self.dirty.extend_from_slice(regs);
        self.arf_dirty = Span::EMPTY;
        self.acc_dirty = false;
    }

    /// [`set_arf`], noting the bytes (and accumulator records) it changes.
    pub(super) fn set_arf(&mut self, i: usize, bytes: &[u8]) -> Option<()> {
        let r = self.st.layout.regs.get(i)?;
        self.arf_dirty = self.arf_dirty.union(Span(r.base, r.base + bytes.len()));
        self.acc_dirty |= r.info.name == "acc";
        set_arf(&mut self.st, i, bytes)
    }
}

/// `ThreadState::set_arf_bytes` of ARF register `i` (by index: no name lookup) from byte 0.
pub(super) fn set_arf(st: &mut ThreadState, i: usize, bytes: &[u8]) -> Option<()> {
    let r = &st.layout.regs[i];
    if bytes.len() > r.bytes {
        return None;
    }
    let (base, is_acc, num) = (r.base, r.info.name == "acc", usize::from(r.num));
    st.arf[base..base + bytes.len()].copy_from_slice(bytes);
    // (Whole dwords: their masks cleared at once; registers start on a dword.)
    let whole = if base % 4 == 0 { bytes.len() / 4 } else { 0 };
    st.arf_undef[base / 4..base / 4 + whole].fill(0);
    for o in base + 4 * whole..base + bytes.len() {
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

/// The byte range outside which two ARF images (bytes and per-dword undefined masks) are
/// equal, to 64-byte blocks (from the first to the last differing block; or-reductions of
/// whole blocks, which the compiler vectorizes); empty when they are equal. The blocks are
/// scanned from the front to the first difference and from the back to the last, so the
/// blocks between are not read.
pub(super) fn differing_range(a: &[u8], b: &[u8], ua: &[u32], ub: &[u32]) -> (usize, usize) {
    pub(super) const BLOCK: usize = 64;
    if a.len() != b.len() || ua.len() != ub.len() {
        return (0, usize::MAX);
    }
    let bytes = differing_blocks::<u8, BLOCK>(a, b);
    // (The masks are usually equal: one `memcmp`.)
    let undef = if ua == ub {
        None
    } else {
        differing_blocks::<u32, { BLOCK / 4 }>(ua, ub)
    };
    match (bytes, undef) {
        (None, None) => (0, 0),
        (Some((f, l)), None) | (None, Some((f, l))) => (f * BLOCK, l * BLOCK + BLOCK),
        (Some((f, l)), Some((g, m))) => (f.min(g) * BLOCK, l.max(m) * BLOCK + BLOCK),
    }
}

/// The first and last `N`-element blocks in which `x` and `y` (of equal lengths) differ.
#[inline(always)]
pub(super) fn differing_blocks<T: Copy + PartialEq, const N: usize>(
    x: &[T],
    y: &[T],
) -> Option<(usize, usize)>
where
    [T; N]: AsWords,
{
    let n = x.len().div_ceil(N);
    let block = |k: usize| {
        let (s, e) = (k * N, ((k + 1) * N).min(x.len()));
        differ::<T, N>(&x[s..e], &y[s..e])
    };
    let first = (0..n).find(|&k| block(k))?;
    let last = (first + 1..n).rev().find(|&k| block(k)).unwrap_or(first);
    Some((first, last))
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
