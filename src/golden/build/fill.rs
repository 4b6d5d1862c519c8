//! Drawing a vector's initial values: whole GRF registers of typed, coverage-directed values
//! (`values::value_code`, drawn ahead by [`lookahead`]), with their value labels.

use super::*;
use values::LabelCode;

mod lookahead;
mod outputs;

/// Data types by `DataType as usize` (label codes hold the type in 4 bits).
const TYPES: usize = 16;

/// The value drawing of a thread: the generator outputs drawn ahead (a buffer kept from vector
/// to vector) and the draws of the vector's labelled values, per type, until their labels are
/// noted ([`Filler::settle`]).
pub(super) struct Filler {
    ahead: lookahead::Ahead,
    /// Per type: the draw bits of the values drawn ahead since [`Filler::begin`].
    drawn: [u64; TYPES],
    /// The types with draw bits.
    types: u32,
}

impl Default for Filler {
    fn default() -> Filler {
        Filler {
            ahead: lookahead::Ahead::default(),
            drawn: [0; TYPES],
            types: 0,
        }
    }
}

impl Filler {
    /// Start a vector: no draws noted.
    #[inline]
    pub(super) fn begin(&mut self) {
        while self.types != 0 {
            self.drawn[self.types.trailing_zeros() as usize % TYPES] = 0;
            self.types &= self.types - 1;
        }
    }

    /// Fill GRF registers `n..n + cnt` with random values of `ty` (element by element, as
    /// `write_grf` would, defined); their labels go to `classes` (those of values drawn ahead
    /// at [`Filler::settle`]).
    pub(super) fn regs(
        &mut self,
        st: &mut ThreadState,
        n: u8,
        cnt: u8,
        ty: DataType,
        r: &mut Rng,
        classes: Option<&mut ClassSet>,
    ) -> Option<()> {
        let a = grf_base(n);
        let regs = st.grf.get_mut(a..a + 32 * usize::from(cnt))?;
        match lookahead::fill(&mut self.ahead, regs, ty, r) {
            Some(bits) => {
                if classes.is_some() {
                    let t = ty as usize % TYPES;
                    self.drawn[t] |= bits;
                    self.types |= 1 << t;
                }
            }
            None => match classes {
                Some(cl) => fill_typed(regs, ty, r, |c| cl.insert(c)),
                None => fill_typed(regs, ty, r, |_| {}),
            },
        }
        for reg in 0..usize::from(cnt) {
            let o = a + 32 * reg;
            *st.grf_undef.get_mut(o / 64)? &= !(0xffff_ffffu64 << (o % 64));
        }
        Some(())
    }

    /// Fill GRF registers `n..n + cnt` with random bits (defined): a destination's old
    /// contents, which the instruction must keep where it does not write, need no typed values
    /// or labels (one generator output per 8 bytes).
    pub(super) fn raw(st: &mut ThreadState, n: u8, cnt: u8, r: &mut Rng) -> Option<()> {
        let a = grf_base(n);
        let regs = st.grf.get_mut(a..a + 32 * usize::from(cnt))?;
        for q in regs.chunks_exact_mut(8) {
            q.copy_from_slice(&r.next().to_le_bytes());
        }
        for reg in 0..usize::from(cnt) {
            let o = a + 32 * reg;
            *st.grf_undef.get_mut(o / 64)? &= !(0xffff_ffffu64 << (o % 64));
        }
        Some(())
    }

    /// Note in `classes` the labels of the values drawn ahead since [`Filler::begin`] (and
    /// start again).
    pub(super) fn settle(&mut self, classes: &mut ClassSet) {
        let ranks = draw_ranks();
        while self.types != 0 {
            let t = self.types.trailing_zeros() as usize % TYPES;
            self.types &= self.types - 1;
            let mut bits = std::mem::take(&mut self.drawn[t]);
            while bits != 0 {
                classes.insert_rank(ranks[t][bits.trailing_zeros() as usize % 64]);
                bits &= bits - 1;
            }
        }
    }
}

/// Per type and draw bit of [`lookahead`]: the rank of the label ([`draw_codes`]) in
/// [`ClassSet`] (what [`ClassSet::insert`] looks up per label; a code without one gets a
/// rank beyond every set's room, which [`ClassSet::insert_rank`] ignores likewise).
fn draw_ranks() -> &'static [[u16; 64]; TYPES] {
    static RANKS: std::sync::OnceLock<[[u16; 64]; TYPES]> = std::sync::OnceLock::new();
    RANKS.get_or_init(|| {
        draw_codes().map(|codes| codes.map(|c| values::label_rank(c).unwrap_or(u16::MAX)))
    })
}

/// Per type and draw bit of [`lookahead`]: the label code.
fn draw_codes() -> &'static [[LabelCode; 64]; TYPES] {
    static CODES: std::sync::OnceLock<[[LabelCode; 64]; TYPES]> = std::sync::OnceLock::new();
    CODES.get_or_init(|| {
        let mut t = [[0; 64]; TYPES];
        for ty in DataType::ALL {
            for bit in 0..64 {
                let low = lookahead::label(ty, bit).unwrap_or(0);
                t[ty as usize % TYPES][bit as usize] = (ty as u16) << 8 | u16::from(low);
            }
        }
        t
    })
}

/// Random values of `ty` over whole registers drawn one by one (the general path, for a type
/// without a lookahead drawing), each value's label to `note`.
fn fill_typed(regs: &mut [u8], ty: DataType, r: &mut Rng, mut note: impl FnMut(LabelCode)) {
    let sz = (ty.bytes() as usize).clamp(1, 8);
    if 32 % sz == 0 {
        // Each value's low `sz` bytes, little-endian, element after element.
        for el in regs.chunks_exact_mut(sz) {
            let (v, c) = values::value_code(ty, r);
            note(c);
            el.copy_from_slice(&v.to_le_bytes()[..sz]);
        }
        return;
    }
    for reg in regs.chunks_exact_mut(32) {
        // Each value's 8 little-endian bytes at its offset (the next value overwrites the
        // bytes beyond its size; the slack past 32 is dropped).
        let mut buf = [0u8; 40];
        let mut o = 0;
        while o < 32 {
            let (v, c) = values::value_code(ty, r);
            note(c);
            buf[o..o + 8].copy_from_slice(&v.to_le_bytes());
            o += sz;
        }
        reg.copy_from_slice(&buf[..32]);
    }
}

pub(super) fn grf_base(insn_reg: u8) -> usize {
    usize::from(insn_reg) * 32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whole registers of values drawn one by one (8 bytes written per value, the next value
    /// overwriting the bytes beyond the size): the definition the per-type code follows.
    fn fill_plain(regs: &mut [u8], ty: DataType, r: &mut Rng, codes: &mut Vec<LabelCode>) {
        let sz = (ty.bytes() as usize).clamp(1, 8);
        for reg in regs.chunks_exact_mut(32) {
            let mut buf = [0u8; 40];
            let mut o = 0;
            while o < 32 {
                let (v, c) = values::value_code(ty, r);
                codes.push(c);
                buf[o..o + 8].copy_from_slice(&v.to_le_bytes());
                o += sz;
            }
            reg.copy_from_slice(&buf[..32]);
        }
    }

    /// The label codes of draw bits `bits` of type `ty`, ascending.
    fn codes_of(ty: DataType, mut bits: u64) -> Vec<LabelCode> {
        let mut v = Vec::new();
        while bits != 0 {
            v.push(draw_codes()[ty as usize][bits.trailing_zeros() as usize]);
            bits &= bits - 1;
        }
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The fills (drawn ahead, in one buffer kept from run to run, with outputs computed one
    /// by one and, on a processor with AVX-512, eight at a time) give the bytes, the label set
    /// and the generator state of the plain drawing, for every type, over many seeds and runs
    /// of 1 to 4 registers, and of up to 40 (longer than the buffer).
    #[test]
    fn fills_equal_the_plain_drawing() {
        let mut pick = Rng::for_vector(31, 2, 0);
        let mut fills = [
            lookahead::Ahead::with(outputs::Wide::NARROW),
            lookahead::Ahead::default(),
        ];
        for k in 0..40_000u64 {
            let ty = DataType::ALL[k as usize % DataType::ALL.len()];
            let cnt = if k % 16 == 0 {
                1 + pick.below(40)
            } else {
                1 + pick.below(4)
            };
            let mut b = vec![0xa5u8; 32 * cnt];
            let r = Rng::for_vector(k, pick.next(), 0);
            let mut rb = r.clone();
            let mut cb = Vec::new();
            fill_plain(&mut b, ty, &mut rb, &mut cb);
            cb.sort_unstable();
            cb.dedup();
            for ahead in &mut fills {
                let mut a = vec![0u8; 32 * cnt];
                let mut ra = r.clone();
                let bits = lookahead::fill(ahead, &mut a, ty, &mut ra);
                assert_eq!(a, b, "{ty:?} {k}");
                assert_eq!(
                    bits.map(|m| codes_of(ty, m)),
                    Some(cb.clone()),
                    "{ty:?} {k}"
                );
                assert_eq!(ra.state(), rb.state(), "{ty:?} {k}");
            }
        }
    }

    /// The residues by digit sums (the wide computation's) equal the remainders, on edge and
    /// random values.
    #[test]
    fn residues_by_digit_sums_are_remainders() {
        let mut r = Rng::for_vector(5, 9, 0);
        let edges = (0..64).flat_map(|k| {
            let b = 1u64 << k;
            [b, b - 1, b + 1, !b, u64::MAX - b + 1]
        });
        for x in edges.chain((0..200_000).map(|_| r.next())) {
            assert_eq!(outputs::residue::<9>(x), (x % 9) as u8, "{x:#x}");
            assert_eq!(outputs::residue::<10>(x), (x % 10) as u8, "{x:#x}");
        }
    }

    /// The list `set` writes.
    fn written(set: &ClassSet) -> Vec<u8> {
        let mut out = crate::golden::format::fast::Lines::default();
        out.write(|c| set.write(c, &[]));
        out.as_bytes().to_vec()
    }

    /// Register fills with their labels noted once per vector ([`Filler::settle`]) give the
    /// registers, undefined bits, generator state and labels of the plain drawing with every
    /// value's label noted, over vectors of a few runs of random types, some runs unlabelled
    /// and some vectors abandoned before they settle.
    #[test]
    fn settled_labels_equal_the_labels_of_every_value() {
        let base = ThreadState::new(Platform::Skl);
        let (mut sa, mut sb) = (base.clone(), base.clone());
        let (mut ca, mut cb) = (ClassSet::default(), ClassSet::default());
        let mut f = Filler::default();
        let mut pick = Rng::for_vector(7, 3, 0);
        let mut listed = 0;
        for k in 0..3000u64 {
            let mut ra = Rng::for_vector(k, pick.next(), 0);
            let mut rb = ra.clone();
            ca.clear();
            cb.clear();
            f.begin();
            for _ in 0..1 + pick.below(5) {
                let ty = DataType::ALL[pick.below(DataType::ALL.len())];
                let (n, cnt) = (pick.below(120) as u8, 1 + pick.below(4) as u8);
                let labelled = pick.chance(3, 4);
                let classes = labelled.then_some(&mut ca);
                f.regs(&mut sa, n, cnt, ty, &mut ra, classes).unwrap();
                let o = grf_base(n);
                let mut codes = Vec::new();
                fill_plain(
                    &mut sb.grf[o..o + 32 * usize::from(cnt)],
                    ty,
                    &mut rb,
                    &mut codes,
                );
                for b in o..o + 32 * usize::from(cnt) {
                    sb.grf_undef[b / 64] &= !(1 << (b % 64));
                }
                if labelled {
                    codes.iter().for_each(|&c| cb.insert(c));
                }
            }
            if k % 10 == 0 {
                // Abandoned (as an attempt the engine refuses): the next vector begins anew.
                continue;
            }
            f.settle(&mut ca);
            assert_eq!(sa.grf, sb.grf, "{k}");
            assert_eq!(sa.grf_undef, sb.grf_undef, "{k}");
            assert_eq!(ra.state(), rb.state(), "{k}");
            assert_eq!(written(&ca), written(&cb), "{k}");
            listed += usize::from(written(&ca).len() > 2);
        }
        assert!(listed > 2000, "{listed}");
    }

    /// Every type has a lookahead drawing (none takes the general path), and a run of no
    /// registers draws nothing.
    #[test]
    fn every_type_is_drawn_ahead() {
        let mut ahead = lookahead::Ahead::default();
        for ty in DataType::ALL {
            let mut r = Rng::for_vector(3, 4, 0);
            let s = r.state();
            assert_eq!(lookahead::fill(&mut ahead, &mut [], ty, &mut r), Some(0));
            assert_eq!(r.state(), s, "{ty:?}");
            let mut regs = [0u8; 32];
            let bits = lookahead::fill(&mut ahead, &mut regs, ty, &mut r);
            assert!(bits.is_some_and(|b| b != 0), "{ty:?}");
            assert_ne!(r.state(), s, "{ty:?}");
        }
    }
}
