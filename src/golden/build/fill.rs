//! Drawing a vector's initial values: whole GRF registers of typed, coverage-directed values
//! (`values::value_code`, drawn ahead by [`lookahead`]), with their value labels.

use super::*;
use values::LabelCode;

mod lookahead;
mod outputs;

/// Bytes of values [`Filler::elems`] draws at most.
const RUN: usize = 256;

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
    /// The values [`Filler::elems`] draws, before they go to their elements.
    run: [u8; RUN],
}

impl Default for Filler {
    fn default() -> Filler {
        Filler {
            ahead: lookahead::Ahead::default(),
            drawn: [0; TYPES],
            types: 0,
            run: [0; RUN],
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
        draw(
            &mut self.ahead,
            (&mut self.drawn, &mut self.types),
            regs,
            ty,
            r,
            classes,
        );
        define(st, n, cnt)
    }

    /// Whether elements `elems` of `ty` lie in registers `regs` (start, count) and
    /// [`Filler::elems`] can draw them (at most 256 bytes of values).
    pub(super) fn fits((_, cnt): (u8, u8), ty: DataType, elems: u128) -> bool {
        let sz = (ty.bytes() as usize).clamp(1, 8);
        let top = (128 - elems.leading_zeros() as usize) * sz;
        top <= 32 * usize::from(cnt) && elems.count_ones() as usize * sz <= RUN
    }

    /// Fill the elements `elems` (bit `k`: the element `k * size` bytes into GRF register
    /// `n`, of `ty`'s size) of registers `n..n + cnt` with random values of `ty`, drawn in
    /// ascending element order as [`Filler::regs`] draws a run of them; their labels go to
    /// `classes` likewise. The other bytes keep their values; the registers are defined.
    /// None (nothing drawn): an element past the registers (see [`Filler::fits`]).
    pub(super) fn elems(
        &mut self,
        st: &mut ThreadState,
        (n, cnt): (u8, u8),
        ty: DataType,
        elems: u128,
        r: &mut Rng,
        classes: Option<&mut ClassSet>,
    ) -> Option<()> {
        let sz = (ty.bytes() as usize).clamp(1, 8);
        let k = elems.count_ones() as usize;
        let a = grf_base(n);
        let regs = st.grf.get_mut(a..a + 32 * usize::from(cnt))?;
        if !Filler::fits((n, cnt), ty, elems) {
            return None;
        }
        let run = self.run.get_mut(..k * sz)?;
        draw(
            &mut self.ahead,
            (&mut self.drawn, &mut self.types),
            run,
            ty,
            r,
            classes,
        );
        // (Moves of the element's size, not a copy of unknown length.)
        match sz {
            1 => scatter::<1>(regs, run, elems),
            2 => scatter::<2>(regs, run, elems),
            4 => scatter::<4>(regs, run, elems),
            8 => scatter::<8>(regs, run, elems),
            _ => {
                let mut m = elems;
                for v in run.chunks_exact(sz) {
                    let o = m.trailing_zeros() as usize * sz;
                    m &= m - 1;
                    regs.get_mut(o..o + sz)?.copy_from_slice(v);
                }
                Some(())
            }
        }?;
        define(st, n, cnt)
    }

    /// Fill the elements `read` plans of registers `regs` with values of `ty`, as
    /// [`Filler::regs`] (every element) or [`Filler::elems`] (the elements) would, their
    /// labels to `classes` likewise (a run of elements drawn in place, its plan made once per
    /// shape: [`ElemFill::of`]).
    #[inline]
    pub(super) fn src(
        &mut self,
        st: &mut ThreadState,
        (n, cnt): (u8, u8),
        ty: DataType,
        read: ElemFill,
        r: &mut Rng,
        classes: Option<&mut ClassSet>,
    ) -> Option<()> {
        match read {
            ElemFill::All => self.regs(st, n, cnt, ty, r, classes),
            ElemFill::Run { at, len } => {
                let a = grf_base(n);
                let regs = st.grf.get_mut(a..a + 32 * usize::from(cnt))?;
                let out = regs.get_mut(at..at + len)?;
                let drawn = (&mut self.drawn, &mut self.types);
                draw(&mut self.ahead, drawn, out, ty, r, classes);
                define(st, n, cnt)
            }
            ElemFill::Elems(m) => self.elems(st, (n, cnt), ty, m, r, classes),
        }
    }

    /// Fill GRF registers `n..n + cnt` with random bits (defined), one generator output per 8
    /// bytes: a destination's old contents (which the instruction must keep where it does not
    /// write) and the source bytes the instruction does not read need no typed values or
    /// labels.
    pub(super) fn raw(st: &mut ThreadState, n: u8, cnt: u8, r: &mut Rng) -> Option<()> {
        let a = grf_base(n);
        let regs = st.grf.get_mut(a..a + 32 * usize::from(cnt))?;
        for q in regs.chunks_exact_mut(8) {
            q.copy_from_slice(&r.next().to_le_bytes());
        }
        define(st, n, cnt)
    }

    /// Skip the generator outputs [`Filler::raw`] would draw for `cnt` registers (their random
    /// bits): for registers whose every byte typed values overwrite next
    /// ([`SrcFill::Grf`]'s `covered`), which also define them.
    #[inline]
    pub(super) fn skip_raw(cnt: u8, r: &mut Rng) {
        // (Output `k` of state `s` is `mix(s + k * STEP)`: see `Rng::STEP`.)
        let outputs = 4 * u64::from(cnt);
        *r = Rng::from_state(r.state().wrapping_add(outputs.wrapping_mul(Rng::STEP)));
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

/// Fill `out` with values of `ty` (drawn ahead where the type has a drawing, one by one
/// otherwise); their labels go to `classes`: at once, or as draw bits in `drawn` (and the
/// type in `types`) for [`Filler::settle`].
fn draw(
    ahead: &mut lookahead::Ahead,
    (drawn, types): (&mut [u64; TYPES], &mut u32),
    out: &mut [u8],
    ty: DataType,
    r: &mut Rng,
    classes: Option<&mut ClassSet>,
) {
    match lookahead::fill(ahead, out, ty, r) {
        Some(bits) => {
            if classes.is_some() {
                let t = ty as usize % TYPES;
                drawn[t] |= bits;
                *types |= 1 << t;
            }
        }
        None => match classes {
            Some(cl) => fill_typed(out, ty, r, |c| cl.insert(c)),
            None => fill_typed(out, ty, r, |_| {}),
        },
    }
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

/// How a vector draws source `i` of its shape (decided once per shape: [`src_fills`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SrcFill {
    /// Nothing: no source, or not a direct GRF register.
    None,
    /// An immediate of this type: a value per vector.
    Imm(DataType),
    /// GRF registers `regs` (start, count): random bits, then values of `ty` in the elements
    /// the instruction reads (`read`, [`ElemFill`]). `covered`: those values overwrite every
    /// byte of the registers (and define them), so that their random bits need not be
    /// computed ([`Filler::skip_raw`]). `at`: Some((base, step)) where the element of every
    /// channel `c` is at GRF byte `base + c * step` ([`src_offset`]'s, as the grid and the
    /// special pairs write them).
    Grf {
        regs: (u8, u8),
        ty: DataType,
        read: ElemFill,
        covered: bool,
        at: Option<(usize, usize)>,
    },
}

/// Which elements of its registers a source's values go to, planned once per shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::golden::build) enum ElemFill {
    /// Every element (where the elements read cannot be told): [`Filler::regs`].
    All,
    /// One run of elements, bytes `at..at + len` from the first register: drawn in place
    /// ([`Filler::elems`] on a contiguous set of elements).
    Run { at: usize, len: usize },
    /// Any other elements (bit `k`: element `k`): [`Filler::elems`].
    Elems(u128),
}

impl ElemFill {
    /// The plan of values of `ty` in elements `read` (None: every element) of registers
    /// `regs` ([`Filler::fits`]: else every element).
    pub(super) fn of(regs: (u8, u8), ty: DataType, read: Option<u128>) -> ElemFill {
        let Some(m) = read.filter(|&m| Filler::fits(regs, ty, m)) else {
            return ElemFill::All;
        };
        let sz = (ty.bytes() as usize).clamp(1, 8);
        let first = m.trailing_zeros() % 128;
        if m != 0 && (m >> first) & (m >> first).wrapping_add(1) == 0 {
            let (at, len) = (first as usize * sz, m.count_ones() as usize * sz);
            return ElemFill::Run { at, len };
        }
        ElemFill::Elems(m)
    }
}

/// How a vector draws each source of `b` ([`SrcFill`]).
pub(super) fn src_fills(b: &Built) -> [SrcFill; 3] {
    std::array::from_fn(|i| match b.insn.src[i] {
        Some(Src::Imm(imm)) => SrcFill::Imm(imm.ty),
        Some(Src::Reg(rs)) => match rs.addr {
            Addr::Direct {
                reg: Reg::Grf(n), ..
            } => {
                let cnt = b.src_regs.iter().find(|x| x.0 == n).map_or(1, |x| x.1);
                let read =
                    source_elements(&b.insn, i).filter(|&m| Filler::fits((n, cnt), rs.ty, m));
                SrcFill::Grf {
                    regs: (n, cnt),
                    ty: rs.ty,
                    read: ElemFill::of((n, cnt), rs.ty, read),
                    covered: covers(cnt, rs.ty, read),
                    at: linear_offsets(&b.insn, i),
                }
            }
            _ => SrcFill::None,
        },
        None => SrcFill::None,
    })
}

/// Some((base, step)) where [`src_offset`] of source `i` of `insn` is `base + c * step` for
/// every channel `c` of its execution size (from the region, as `src_offset` walks it).
fn linear_offsets(insn: &Insn, i: usize) -> Option<(usize, usize)> {
    let base = src_offset(insn, i, 0)?;
    let rs = insn.src.get(i)?.as_ref()?.as_reg()?;
    let s = rs.ty.bytes() as usize;
    let g = rs.region;
    let (n, w) = (u32::from(insn.exec_size), u32::from(g.width.max(1)));
    let (vs, hs) = (usize::from(g.vstride), usize::from(g.hstride));
    let e = match () {
        // (A three-source operand: one element, or one per channel.)
        _ if insn.is_three_src() => usize::from(g.vstride != 0),
        _ if n <= 1 => 0,
        _ if w == 1 => vs,
        _ if n <= w || vs == w as usize * hs => hs,
        _ => return None,
    };
    Some((base, e * s))
}

/// Whether values of `ty` in elements `read` (None: every element) of `cnt` registers
/// cover every byte of them.
pub(super) fn covers(cnt: u8, ty: DataType, read: Option<u128>) -> bool {
    let Some(m) = read else {
        return true;
    };
    let (sz, bytes) = ((ty.bytes() as usize).clamp(1, 8), 32 * usize::from(cnt));
    let n = bytes / sz;
    bytes % sz == 0 && n <= 128 && m == u128::MAX >> (128 - n.max(1)) && n > 0
}

/// Copy the `SZ`-byte values of `run` to the elements `m` (bit `k`: bytes `k * SZ..`) of
/// `regs`, ascending (None: an element past `regs`).
#[inline(always)]
fn scatter<const SZ: usize>(regs: &mut [u8], run: &[u8], mut m: u128) -> Option<()> {
    for v in run.chunks_exact(SZ) {
        let o = (m.trailing_zeros() as usize % 128) * SZ;
        m &= m.wrapping_sub(1);
        let to = regs.get_mut(o..o + SZ)?;
        to.copy_from_slice(v);
    }
    Some(())
}

/// The elements source `i` of `insn` reads (bit `k`: the element `k * size` bytes into its
/// register), located channel by channel as [`src_offset`] locates them (tests:
/// `source_elements_are_the_offsets_read`). None: not a direct GRF source, a subregister
/// that is not a whole number of elements, or an element past the 128th.
pub(super) fn source_elements(insn: &Insn, i: usize) -> Option<u128> {
    let rs = insn.src.get(i)?.as_ref()?.as_reg()?;
    let Addr::Direct {
        reg: Reg::Grf(_),
        sub,
    } = rs.addr
    else {
        return None;
    };
    let sz = rs.ty.bytes().clamp(1, 8);
    if u32::from(sub) % sz != 0 {
        return None;
    }
    // (A three-source operand: one element for every channel, or one per channel.)
    let (w, vs, hs) = match (insn.is_three_src(), rs.region) {
        (true, r) => (1, u32::from(r.vstride != 0), 0),
        (false, r) => (
            u32::from(r.width.max(1)),
            u32::from(r.vstride),
            u32::from(r.hstride),
        ),
    };
    // (Channel by channel: this runs once per shape.)
    let first = u32::from(sub) / sz;
    (0..u32::from(insn.exec_size)).try_fold(0u128, |m, c| {
        let e = first + (c / w) * vs + (c % w) * hs;
        (e < 128).then(|| m | 1 << e)
    })
}

/// Mark GRF registers `n..n + cnt` defined (None: past the GRF).
fn define(st: &mut ThreadState, n: u8, cnt: u8) -> Option<()> {
    let a = grf_base(n);
    for reg in 0..usize::from(cnt) {
        let o = a + 32 * reg;
        *st.grf_undef.get_mut(o / 64)? &= !(0xffff_ffffu64 << (o % 64));
    }
    Some(())
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

    /// A random `add` (or, every third `k`, `mad`) with a random execution size, and a random
    /// source index, type and region for the caller to place.
    fn random_source(r: &mut Rng, k: u32) -> (Insn, usize, DataType, crate::isa::Region) {
        let op = if k % 3 == 0 { Opcode::Mad } else { Opcode::Add };
        let mut insn = Insn::new(op);
        insn.exec_size = [1, 2, 4, 8, 16, 32][r.below(6)];
        let i = r.below(if op == Opcode::Mad { 3 } else { 2 });
        let ty = DataType::ALL[r.below(DataType::ALL.len())];
        let region = crate::isa::Region::new(
            [0, 1, 2, 4, 8, 16, 32][r.below(7)],
            [1, 2, 4, 8, 16][r.below(5)],
            [0, 1, 2, 4][r.below(4)],
        );
        (insn, i, ty, region)
    }

    /// The elements `source_elements` marks are those `src_offset` locates channel by
    /// channel, on random two- and three-source instructions (any region, subregister, type
    /// and execution size, whole numbers of rows or not); None only where an offset is not a
    /// whole number of elements or past the 128th element.
    #[test]
    fn source_elements_are_the_offsets_read() {
        use crate::isa::RegSrc;
        let mut r = Rng::for_vector(11, 5, 0);
        let (mut marked, mut none) = (0, 0);
        for k in 0..20_000 {
            let (mut insn, i, ty, region) = random_source(&mut r, k);
            let sub = if r.chance(1, 8) {
                r.below(32) as u8
            } else {
                (r.below(4) * ty.bytes() as usize) as u8
            };
            let n = 10 + r.below(20) as u8;
            insn.src[i] = Some(Src::Reg(RegSrc::new(Reg::Grf(n), sub, ty, region)));
            let sz = (ty.bytes() as usize).clamp(1, 8);
            let offsets: Vec<usize> = (0..u32::from(insn.exec_size))
                .map(|c| src_offset(&insn, i, c).unwrap() - grf_base(n))
                .collect();
            let whole = offsets.iter().all(|o| o % sz == 0 && o / sz < 128);
            match source_elements(&insn, i) {
                Some(m) => {
                    let want = offsets.iter().fold(0u128, |m, o| m | 1 << (o / sz));
                    assert!(whole, "{insn:?}");
                    assert_eq!(m, want, "{insn:?}");
                    marked += 1;
                }
                None => {
                    assert!(!whole, "{insn:?}");
                    none += 1;
                }
            }
        }
        assert!(marked > 15_000 && none > 500, "{marked} {none}");
    }

    /// `Filler::elems` writes values drawn as one run (as `Filler::regs` draws them, with the
    /// same labels) into exactly the marked elements, ascending, and keeps every other byte.
    #[test]
    fn element_fills_put_a_run_in_the_marked_elements() {
        let base = ThreadState::new(Platform::Skl);
        let mut pick = Rng::for_vector(9, 1, 0);
        let mut f = Filler::default();
        for k in 0..3000u64 {
            let ty = DataType::ALL[k as usize % DataType::ALL.len()];
            let sz = (ty.bytes() as usize).clamp(1, 8);
            let cnt = 1 + pick.below(2) as u8;
            let top = 32 * usize::from(cnt) / sz;
            let elems = if k % 3 == 0 {
                // A run of elements (drawn in place).
                let first = pick.below(top);
                let len = 1 + pick.below(top - first);
                ((1u128 << len) - 1) << first
            } else {
                (pick.next() as u128 | (pick.next() as u128) << 64) & ((1u128 << top) - 1)
            };
            let mut st = base.clone();
            let before = st.grf.clone();
            let (mut ra, mut rb) = (Rng::for_vector(k, 3, 0), Rng::for_vector(k, 3, 0));
            let (mut ca, mut cb) = (ClassSet::default(), ClassSet::default());
            f.begin();
            assert!(Filler::fits((20, cnt), ty, elems));
            f.elems(&mut st, (20, cnt), ty, elems, &mut ra, Some(&mut ca))
                .unwrap();
            f.settle(&mut ca);
            // The plain run: `Filler::regs` on a scratch register range of the same length.
            let k_bytes = elems.count_ones() as usize * sz;
            let mut run = vec![0u8; k_bytes];
            let mut g = Filler::default();
            draw(
                &mut g.ahead,
                (&mut g.drawn, &mut g.types),
                &mut run,
                ty,
                &mut rb,
                Some(&mut cb),
            );
            g.settle(&mut cb);
            assert_eq!(ra.state(), rb.state(), "{ty:?} {k}");
            assert_eq!(written(&ca), written(&cb), "{ty:?} {k}");
            let a = grf_base(20);
            let mut vals = run.chunks_exact(sz);
            for e in 0..32 * usize::from(cnt) / sz {
                let got = &st.grf[a + e * sz..a + (e + 1) * sz];
                if elems >> e & 1 == 1 {
                    assert_eq!(got, vals.next().unwrap(), "{ty:?} {k} {e}");
                } else {
                    assert_eq!(got, &before[a + e * sz..a + (e + 1) * sz], "{ty:?} {k} {e}");
                }
            }
            for b in a..a + 32 * usize::from(cnt) {
                assert_eq!(st.grf_undef[b / 64] >> (b % 64) & 1, 0, "{k}");
            }
        }
        // Past the registers: nothing drawn.
        let mut st = base.clone();
        let mut r = Rng::for_vector(1, 1, 0);
        let s = r.state();
        assert!(!Filler::fits((20, 1), DataType::F, 1 << 8));
        assert!(f
            .elems(&mut st, (20, 1), DataType::F, 1 << 8, &mut r, None)
            .is_none());
        assert_eq!(r.state(), s);
    }

    /// A source's planned fill (`Filler::src`: a run of elements drawn in place, other
    /// elements, every element) gives the registers, undefined bits, generator state and
    /// labels of `Filler::elems` on its elements (`Filler::regs` where none are told or they
    /// do not fit), for random registers, types and elements (runs, strided, random, none).
    #[test]
    fn planned_source_fills_equal_element_fills() {
        let base = ThreadState::new(Platform::Skl);
        let mut pick = Rng::for_vector(17, 4, 0);
        let (mut fa, mut fb) = (Filler::default(), Filler::default());
        let mut kinds = [0; 3];
        for k in 0..6000u64 {
            let ty = DataType::ALL[pick.below(DataType::ALL.len())];
            let sz = (ty.bytes() as usize).clamp(1, 8);
            let cnt = 1 + pick.below(4) as u8;
            let top = (32 * usize::from(cnt) / sz + pick.below(3)).min(128);
            let read = match k % 5 {
                0 => None,
                1 | 2 => {
                    let first = pick.below(top);
                    let len = 1 + pick.below(top - first);
                    Some(((1u128 << len) - 1) << first)
                }
                3 => {
                    let stride = 1 + pick.below(4);
                    Some((0..top).step_by(stride).fold(0u128, |m, e| m | 1 << e))
                }
                _ => Some((pick.next() as u128 | (pick.next() as u128) << 64) >> (128 - top)),
            };
            let plan = ElemFill::of((20, cnt), ty, read);
            kinds[match plan {
                ElemFill::All => 0,
                ElemFill::Run { .. } => 1,
                ElemFill::Elems(_) => 2,
            }] += 1;
            let (mut sa, mut sb) = (base.clone(), base.clone());
            for st in [&mut sa, &mut sb] {
                Filler::raw(st, 20, cnt, &mut Rng::for_vector(k, 1, 0)).unwrap();
            }
            let mut ra = Rng::for_vector(k, pick.next(), 0);
            let mut rb = ra.clone();
            let (mut ca, mut cb) = (ClassSet::default(), ClassSet::default());
            fa.begin();
            fb.begin();
            fa.src(&mut sa, (20, cnt), ty, plan, &mut ra, Some(&mut ca))
                .unwrap();
            match read.filter(|&m| Filler::fits((20, cnt), ty, m)) {
                Some(m) => fb.elems(&mut sb, (20, cnt), ty, m, &mut rb, Some(&mut cb)),
                None => fb.regs(&mut sb, 20, cnt, ty, &mut rb, Some(&mut cb)),
            }
            .unwrap();
            fa.settle(&mut ca);
            fb.settle(&mut cb);
            assert_eq!(sa.grf, sb.grf, "{ty:?} {read:?} {plan:?}");
            assert_eq!(sa.grf_undef, sb.grf_undef, "{k}");
            assert_eq!(ra.state(), rb.state(), "{k}");
            assert_eq!(written(&ca), written(&cb), "{k}");
        }
        assert!(kinds.iter().all(|&n| n > 1000), "{kinds:?}");
    }

    /// The linear offsets of the sources of random shapes of every opcode on every platform
    /// are `src_offset`'s in every channel, and are found for most GRF sources.
    #[test]
    fn linear_offsets_are_the_source_offsets() {
        let mut r = Rng::for_vector(19, 0, 0);
        let (mut linear, mut grf) = (0, 0);
        for p in Platform::ALL {
            let ops = template::default_ops(p);
            for k in 0..1500u64 {
                let sel = ops[r.below(ops.len())];
                let Some(b) = template::build(sel, k / 3, p, &[], &mut r) else {
                    continue;
                };
                for (i, f) in src_fills(&b).iter().enumerate() {
                    let SrcFill::Grf { at, .. } = *f else {
                        continue;
                    };
                    grf += 1;
                    let Some((base, step)) = at else {
                        continue;
                    };
                    linear += 1;
                    for c in 0..u32::from(b.insn.exec_size) {
                        let want = src_offset(&b.insn, i, c);
                        assert_eq!(Some(base + c as usize * step), want, "{:?} {i} {c}", b.insn);
                    }
                }
            }
        }
        assert!(linear > 5000 && linear * 10 > grf * 7, "{linear} {grf}");
        // Random regions (any width, strides, subregister, type, execution size), two- and
        // three-source: linear exactly where every channel's offset is.
        let (mut some, mut none) = (0, 0);
        for k in 0..20_000 {
            use crate::isa::RegSrc;
            let (mut insn, i, ty, region) = random_source(&mut r, k);
            let (n, sub) = (r.below(120) as u8, r.below(32) as u8);
            insn.src[i] = Some(Src::Reg(RegSrc::new(Reg::Grf(n), sub, ty, region)));
            let offsets: Vec<usize> = (0..u32::from(insn.exec_size))
                .map(|c| src_offset(&insn, i, c).unwrap())
                .collect();
            let step = offsets.get(1).map_or(0, |o| o - offsets[0]);
            let linear = (offsets.iter().enumerate()).all(|(c, &o)| o == offsets[0] + c * step);
            match linear_offsets(&insn, i) {
                Some((base, st)) => {
                    assert!(linear, "{insn:?}");
                    for (c, &o) in offsets.iter().enumerate() {
                        assert_eq!(base + c * st, o, "{insn:?} {c}");
                    }
                    some += 1;
                }
                None => {
                    assert!(!linear, "{insn:?}");
                    none += 1;
                }
            }
        }
        assert!(some > 8000 && none > 2000, "{some} {none}");
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

    /// Random bits skipped for registers the typed values cover, then the values, give the
    /// registers, undefined bits, generator state and labels of random bits then the values,
    /// for random registers, types and read elements (runs, whole registers, strided, random,
    /// every element); many are covered, many not.
    #[test]
    fn covered_registers_skip_their_random_bits() {
        let base = ThreadState::new(Platform::Skl);
        let mut pick = Rng::for_vector(13, 2, 0);
        let (mut fa, mut fb) = (Filler::default(), Filler::default());
        let (mut covered, mut not) = (0, 0);
        for k in 0..4000u64 {
            let ty = DataType::ALL[pick.below(DataType::ALL.len())];
            let sz = (ty.bytes() as usize).clamp(1, 8);
            let cnt = 1 + pick.below(4) as u8;
            let top = 32 * usize::from(cnt) / sz;
            let read = match k % 5 {
                0 => None,
                4 => Some(u128::MAX >> (128 - top.min(128))),
                1 => {
                    let first = pick.below(top);
                    let len = 1 + pick.below(top - first);
                    Some(((1u128 << len) - 1) << first)
                }
                2 => {
                    let stride = 1 + pick.below(4);
                    Some(
                        (0..top.min(128))
                            .step_by(stride)
                            .fold(0u128, |m, e| m | 1 << e),
                    )
                }
                _ => Some(
                    (pick.next() as u128 | (pick.next() as u128) << 64)
                        & (u128::MAX >> (128 - top.min(128))),
                ),
            }
            .filter(|&m| Filler::fits((20, cnt), ty, m));
            let cover = covers(cnt, ty, read);
            (covered, not) = (covered + usize::from(cover), not + usize::from(!cover));
            let (mut sa, mut sb) = (base.clone(), base.clone());
            let mut ra = Rng::for_vector(k, pick.next(), 0);
            let mut rb = ra.clone();
            let (mut ca, mut cb) = (ClassSet::default(), ClassSet::default());
            fa.begin();
            fb.begin();
            Filler::raw(&mut sa, 20, cnt, &mut ra).unwrap();
            if cover {
                Filler::skip_raw(cnt, &mut rb);
            } else {
                Filler::raw(&mut sb, 20, cnt, &mut rb).unwrap();
            }
            assert_eq!(ra.state(), rb.state(), "{k}");
            for (f, st, r, c) in [
                (&mut fa, &mut sa, &mut ra, &mut ca),
                (&mut fb, &mut sb, &mut rb, &mut cb),
            ] {
                match read {
                    Some(m) => f.elems(st, (20, cnt), ty, m, r, Some(&mut *c)).unwrap(),
                    None => f.regs(st, 20, cnt, ty, r, Some(&mut *c)).unwrap(),
                }
                f.settle(c);
            }
            assert_eq!(sa.grf, sb.grf, "{ty:?} {read:?} {cover}");
            assert_eq!(sa.grf_undef, sb.grf_undef, "{k}");
            assert_eq!(ra.state(), rb.state(), "{k}");
            assert_eq!(written(&ca), written(&cb), "{k}");
        }
        assert!(covered > 1000 && not > 1000, "{covered} {not}");
    }
}
