//! The operand values of a vector's enabled channels, read once after execution: each
//! source's value (after source modifiers) and float class, and the destination element,
//! for the rule tagging (`build::exercised`, `build::facts`, `fp_rows::tag`), which asks for
//! them many times per channel.

use super::build::{dst_elem, src_value};
use super::values;
use crate::isa::{Addr, Insn, Reg, Src};
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
    /// Bit `k` of `classes[i]`: source `i` has a value of float class `k` in some channel.
    classes: [u16; 3],
    /// Bit `k`: some destination element (`out`) has float class `k`.
    out_classes: u16,
}

/// How source `i`'s value of a channel is read: [`src_value`] taken apart once per
/// instruction (the register, region and modifiers are the same in every channel).
#[derive(Clone, Copy)]
enum SrcRead {
    /// No value (no source, or not a direct GRF register).
    None,
    /// An immediate: the same bits in every channel (the instruction's, read per vector).
    Imm,
    /// The element of channel `c` at `base + e * size`, `e = (c / width) * vstride + (c %
    /// width) * hstride` (a three-source operand: width 1, vstride 0 for a scalar, else 1);
    /// the bits then `& and ^ xor` (the float `(abs)` and `-` modifiers). `size` is 1, 2, 4
    /// or 8, `width` a power of two.
    Grf(Region),
    /// Any other element size or width: [`src_value`] per channel.
    Other,
}

/// The element addressing and modifiers of a [`SrcRead::Grf`] source.
#[derive(Clone, Copy)]
struct Region {
    ty: DataType,
    base: usize,
    size: usize,
    /// The width's log2 (a power of two; any other width reads as [`SrcRead::Other`]).
    wshift: u32,
    vstride: u32,
    hstride: u32,
    and: u64,
    xor: u64,
    /// Some(step): the element of channel `c` is at `base + c * step` (a region whose rows
    /// follow each other: vertical stride = width * horizontal stride).
    linear: Option<usize>,
}

impl SrcRead {
    /// The reading of source `i` (whatever the value of an immediate).
    #[inline]
    fn of(insn: &Insn, i: usize) -> SrcRead {
        match insn.src[i] {
            None => SrcRead::None,
            Some(Src::Imm(_)) => SrcRead::Imm,
            Some(Src::Reg(rs)) => {
                let Addr::Direct {
                    reg: Reg::Grf(n),
                    sub,
                } = rs.addr
                else {
                    return SrcRead::None;
                };
                let size = rs.ty.bytes() as usize;
                if !matches!(size, 1 | 2 | 4 | 8) {
                    return SrcRead::Other;
                }
                let (mut and, mut xor) = (u64::MAX, 0);
                if rs.ty.is_float() {
                    let sign = 1u64 << (rs.ty.bits() - 1);
                    if rs.abs {
                        and = !sign;
                    }
                    if rs.neg {
                        xor = sign;
                    }
                }
                let g = rs.region;
                let (width, vstride, hstride) = if insn.is_three_src() {
                    (1, u32::from(g.vstride != 0), 0)
                } else {
                    (
                        u32::from(g.width.max(1)),
                        u32::from(g.vstride),
                        u32::from(g.hstride),
                    )
                };
                if !width.is_power_of_two() {
                    return SrcRead::Other;
                }
                SrcRead::Grf(Region::new(
                    rs.ty,
                    // (32-byte GRF registers.)
                    usize::from(n) * 32 + usize::from(sub),
                    size,
                    (width.trailing_zeros(), vstride, hstride),
                    (and, xor),
                ))
            }
        }
    }
}

impl Region {
    /// The region of elements of `size` bytes (1, 2, 4 or 8) from GRF byte `base`, with the
    /// width's log2 (below 32), the vertical and the horizontal stride, and the modifiers.
    fn new(
        ty: DataType,
        base: usize,
        size: usize,
        (wshift, vstride, hstride): (u32, u32, u32),
        (and, xor): (u64, u64),
    ) -> Region {
        let linear = (vstride == hstride << wshift).then_some(hstride as usize * size);
        Region {
            ty,
            base,
            size,
            wshift,
            vstride,
            hstride,
            and,
            xor,
            linear,
        }
    }

    /// The GRF byte offset of channel `c`'s element (`src_offset`).
    #[inline(always)]
    fn offset(&self, c: u32) -> usize {
        let (row, col) = (c >> self.wshift, c & ((1 << self.wshift) - 1));
        let e = row * self.vstride + col * self.hstride;
        self.base + (e * self.size as u32) as usize
    }

    /// The type and value of channel `c` in `st` (`src_value`).
    #[inline(always)]
    fn read(&self, c: u32, st: &ThreadState) -> Option<u64> {
        let o = match self.linear {
            Some(step) => self.base + c as usize * step,
            None => self.offset(c),
        };
        Some((load(&st.grf, o, self.size)? & self.and) ^ self.xor)
    }
}

/// The little-endian bits of `size` (1, 2, 4 or 8) bytes at `o`, refused as `read_grf`
/// refuses (misaligned, beyond the GRF).
#[inline(always)]
fn load(grf: &[u8], o: usize, size: usize) -> Option<u64> {
    if o & (size - 1) != 0 {
        return None;
    }
    // (Mostly eight bytes read at once, the element's kept.)
    if let Some(b) = o.checked_add(8).and_then(|e| grf.get(o..e)) {
        let v = u64::from_le_bytes(b.try_into().ok()?);
        return Some(v & (u64::MAX >> (64 - 8 * size.min(8))));
    }
    let b = grf.get(o..o.checked_add(size)?)?;
    Some(match *b {
        [x] => u64::from(x),
        [x, y] => u64::from(u16::from_le_bytes([x, y])),
        [x, y, z, w] => u64::from(u32::from_le_bytes([x, y, z, w])),
        _ => u64::from_le_bytes(b.try_into().ok()?),
    })
}

/// The float classes of a type without branches: the class of bits `v` is `table[i]`, `i`
/// made of the sign bit, whether the exponent field is all ones and zero, and whether the
/// mantissa is zero (`values::class_of_format`, which branches on the values).
#[derive(Clone, Copy)]
struct Classify {
    /// The mantissa width and the sign bit (0 for a type without a float format).
    man_bits: u32,
    sign_bit: u32,
    exp_mask: u64,
    man_mask: u64,
    table: &'static [u8; 16],
}

/// The class of each [`Classify`] index of a float format.
const FLOAT_CLASSES: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        let (neg, exp_ones, exp_zero, man_zero) = (i & 1 != 0, i & 2 != 0, i & 4 != 0, i & 8 != 0);
        let (n, p) = if exp_ones {
            if man_zero {
                (values::NEG_INF, values::POS_INF)
            } else {
                (values::NAN, values::NAN)
            }
        } else if exp_zero {
            if man_zero {
                (values::NEG_ZERO, values::POS_ZERO)
            } else {
                (values::NEG_DENORM, values::POS_DENORM)
            }
        } else {
            (values::NEG_FIN, values::POS_FIN)
        };
        t[i] = if neg { n as u8 } else { p as u8 };
        i += 1;
    }
    t
};

/// The class of every value of a type without a float format.
const NOT_FLOAT: [u8; 16] = [values::POS_FIN as u8; 16];

impl Classify {
    /// The classes of type `t`'s values.
    fn of(t: DataType) -> Classify {
        match values::float_format(t) {
            Some((e, m)) => Classify {
                man_bits: m,
                sign_bit: e + m,
                exp_mask: (1 << e) - 1,
                man_mask: (1 << m) - 1,
                table: &FLOAT_CLASSES,
            },
            None => Classify {
                man_bits: 0,
                sign_bit: 0,
                exp_mask: 0,
                man_mask: 0,
                table: &NOT_FLOAT,
            },
        }
    }

    /// The float class of `v` (`values::float_class`).
    #[inline(always)]
    fn class(&self, v: u64) -> u8 {
        let exp = (v >> self.man_bits) & self.exp_mask;
        let i = (v >> self.sign_bit & 1) as usize
            | usize::from(exp == self.exp_mask) << 1
            | usize::from(exp == 0) << 2
            | usize::from(v & self.man_mask == 0) << 3;
        self.table[i]
    }
}

/// Whether all `size` bytes at `o` are defined (after a successful [`load`]).
#[inline(always)]
fn defined(st: &ThreadState, o: usize, size: usize) -> bool {
    st.grf_undef
        .get(o / 64)
        .is_some_and(|w| (w >> (o % 64)) & crate::state::low_mask(size) == 0)
}

/// How an instruction's operands are read ([`Operands::read_with`]): its sources'
/// readings, the float classes of their types, and its destination's elements, taken apart
/// once (per shape: they do not depend on the values of immediates).
#[derive(Clone, Copy)]
pub(crate) struct ReadPlan {
    srcs: [SrcRead; 3],
    fmts: [Classify; 3],
    /// The classes of a float destination, and its element of channel c at `base + c *
    /// step`, `size` bytes (`dst_elem`).
    dst: Option<(Classify, usize, usize, usize)>,
}

impl ReadPlan {
    /// The reading of `insn`'s operands.
    pub(crate) fn of(insn: &Insn) -> ReadPlan {
        let mut plan = ReadPlan {
            srcs: [SrcRead::None; 3],
            fmts: [Classify::of(DataType::UD); 3],
            dst: None,
        };
        plan.renew(insn);
        plan
    }

    /// [`ReadPlan::of`] written over this plan, in place (a plan is large: no whole plan is
    /// made and copied, once per shape).
    pub(crate) fn renew(&mut self, insn: &Insn) {
        for i in 0..3 {
            let s = SrcRead::of(insn, i);
            // The classes of each source's type.
            self.fmts[i] = match (s, insn.src[i]) {
                (SrcRead::None, _) | (_, None) => Classify::of(DataType::UD),
                (_, Some(s)) => Classify::of(s.ty()),
            };
            self.srcs[i] = s;
        }
        // The classes of a float destination's type, and its elements.
        self.dst = insn.dst.filter(|d| d.ty.is_float()).and_then(|d| {
            let (base, size) = dst_elem(insn, 0)?;
            Some((
                Classify::of(d.ty),
                base,
                usize::from(d.hstride.max(1)) * size,
                size,
            ))
        });
    }
}

impl Operands {
    /// No values (to [`Operands::read_with`] into, in place: the set is large; it can be read
    /// into again, for another vector).
    pub(crate) fn new() -> Operands {
        Operands {
            ty: [DataType::UD; 3],
            bits: [[0; 3]; CHANNELS],
            class: [[0; 3]; CHANNELS],
            present: [0; CHANNELS],
            out: [0; CHANNELS],
            out_ok: 0,
            classes: [0; 3],
            out_classes: 0,
        }
    }

    /// Read into this set the values of `channels` (`src_value` in `before`; the destination
    /// element in `after` when it is a float and defined), in place of those it held.
    #[cfg(test)]
    pub(crate) fn read(
        &mut self,
        insn: &Insn,
        before: &ThreadState,
        after: &ThreadState,
        channels: &[u32],
    ) {
        self.read_with(&ReadPlan::of(insn), insn, before, after, channels);
    }

    /// Read into this set the values of `channels` (`src_value` in `before`; the destination
    /// element in `after` when it is a float and defined), in place of those it held, with
    /// the reading `plan` of `insn` (made from the instruction itself or one that differs
    /// only in its immediates' values).
    #[inline]
    pub(crate) fn read_with(
        &mut self,
        plan: &ReadPlan,
        insn: &Insn,
        before: &ThreadState,
        after: &ThreadState,
        channels: &[u32],
    ) {
        let o = self;
        // (What says which values are there; the values themselves are only read where it
        // says so.)
        o.ty = [DataType::UD; 3];
        o.present = [0; CHANNELS];
        o.out_ok = 0;
        o.classes = [0; 3];
        o.out_classes = 0;
        // Source by source (the reading and the class format stay in registers).
        let chans = channels
            .iter()
            .copied()
            .filter(|&c| (c as usize) < CHANNELS);
        for (i, (s, f)) in plan.srcs.iter().zip(&plan.fmts).enumerate() {
            let mut seen = 0u16;
            match s {
                SrcRead::None => {}
                SrcRead::Imm => {
                    if let Some((t, v)) = src_value(insn, i, 0, before) {
                        o.ty[i] = t;
                        let k = f.class(v);
                        for c in chans.clone() {
                            seen |= o.note(i, c, v, k);
                        }
                    }
                }
                SrcRead::Grf(g) => {
                    o.ty[i] = g.ty;
                    for c in chans.clone() {
                        if let Some(v) = g.read(c, before) {
                            seen |= o.note(i, c, v, f.class(v));
                        }
                    }
                }
                SrcRead::Other => {
                    for c in chans.clone() {
                        if let Some((t, v)) = src_value(insn, i, c, before) {
                            o.ty[i] = t;
                            seen |= o.note(i, c, v, f.class(v));
                        }
                    }
                }
            }
            o.classes[i] = seen;
        }
        if let Some((f, base, step, size)) = plan.dst {
            for c in chans {
                let ci = c as usize;
                let at = base + ci * step;
                if let Some(v) = load(&after.grf, at, size).filter(|_| defined(after, at, size)) {
                    o.out[ci] = v;
                    o.out_ok |= 1 << ci;
                    o.out_classes |= 1 << f.class(v);
                }
            }
        }
    }

    /// Note source `i`'s value `v` of float class `k` in channel `c` (< 32); returns the
    /// class as a bit (for the source's classes).
    #[inline(always)]
    fn note(&mut self, i: usize, c: u32, v: u64, k: u8) -> u16 {
        let ci = c as usize;
        self.bits[ci][i] = v;
        self.class[ci][i] = k;
        self.present[ci] |= 1 << i;
        1 << k
    }

    /// Bit `k`: some source `0..n` of a float type has a value of float class `k`.
    #[inline]
    pub(crate) fn float_classes(&self, n: usize) -> u16 {
        (0..n.min(3))
            .filter(|&i| self.ty[i].is_float())
            .fold(0, |m, i| m | self.classes[i])
    }

    /// Bit `k`: some destination element ([`Operands::out`]) has float class `k` of the
    /// destination type.
    #[inline]
    pub(crate) fn out_classes(&self) -> u16 {
        self.out_classes
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
    use crate::golden::values::float_class;
    use crate::golden::values::Rng;
    use crate::golden::{template, GenConfig};
    use crate::spec::Platform;

    /// The branch-free classes are `float_class`'s, for every type, on random bits and on
    /// bits made of each sign, exponent edge and mantissa edge.
    #[test]
    fn classes_equal_float_class() {
        let mut r = Rng::for_vector(22, 0, 0);
        let mut seen = [0u32; 9];
        for t in DataType::ALL {
            let f = Classify::of(t);
            let mut check = |v: u64| {
                let want = float_class(t, v);
                assert_eq!(usize::from(f.class(v)), want, "{t:?} {v:#x}");
                seen[want] += 1;
            };
            for _ in 0..2000 {
                check(r.next());
            }
            let Some((e, m)) = values::float_format(t) else {
                continue;
            };
            for neg in [0, 1u64] {
                for exp in [0, 1, (1u64 << e) - 2, (1 << e) - 1] {
                    for man in [0, 1, 1 << (m - 1), (1u64 << m) - 1] {
                        let v = neg << (e + m) | exp << m | man;
                        check(v);
                        check(v | r.next() << (e + m + 1).min(63));
                    }
                }
            }
        }
        assert!(seen.iter().all(|&n| n >= 4), "{seen:?}");
    }

    /// A read of a region whose rows follow each other (an element at a multiple of the
    /// channel) equals the read of the element at its row and column, for random regions
    /// (misaligned and near the end of the GRF among them), modifiers, channels and register
    /// contents.
    #[test]
    fn linear_reads_equal_addressed_reads() {
        let mut r = Rng::for_vector(23, 0, 0);
        let mut st = ThreadState::new(Platform::Skl);
        let (mut linear, mut some, mut none) = (0, 0, 0);
        for _ in 0..4000 {
            for x in st.grf.iter_mut() {
                *x = r.next() as u8;
            }
            let (size, ty) = [
                (1, DataType::UB),
                (2, DataType::HF),
                (4, DataType::F),
                (8, DataType::DF),
            ][r.below(4)];
            let base = if r.chance(1, 4) {
                st.grf.len() - 1 - r.below(80)
            } else {
                r.below(st.grf.len())
            };
            let (wshift, hstride) = (r.below(6) as u32, r.below(5) as u32);
            let vstride = if r.chance(1, 2) {
                hstride << wshift
            } else {
                r.below(33) as u32
            };
            let and = if r.chance(1, 2) { u64::MAX } else { r.next() };
            let xor = if r.chance(1, 2) { 0 } else { r.next() };
            let g = Region::new(ty, base, size, (wshift, vstride, hstride), (and, xor));
            linear += usize::from(g.linear.is_some());
            for c in 0..CHANNELS as u32 {
                let want = load(&st.grf, g.offset(c), size).map(|v| (v & and) ^ xor);
                assert_eq!(g.read(c, &st), want, "{base} {size} {c}");
                some += usize::from(want.is_some());
                none += usize::from(want.is_none());
            }
        }
        assert!(
            linear > 1500 && some > 20_000 && none > 5_000,
            "{linear} {some} {none}"
        );
    }

    /// The read values equal `src_value` and the destination reads, for random float and
    /// integer instructions with random register contents and immediates; and so do those
    /// read into a reused set with the reading planned from the instruction with other
    /// immediates.
    #[test]
    fn read_values_equal_the_direct_reads() {
        let cfg = GenConfig::new(Platform::Skl, 1);
        let mut r = Rng::for_vector(21, 0, 0);
        let mut checked = 0;
        let mut reused = Operands::new();
        for k in 0..400u64 {
            let sel = cfg.ops[r.below(cfg.ops.len())];
            let Some(b) = template::build(sel, k, cfg.platform, &[], &mut r) else {
                continue;
            };
            let plan = ReadPlan::of(&b.insn);
            let mut insn = b.insn.clone();
            for s in insn.src.iter_mut().flatten() {
                if let Src::Imm(imm) = s {
                    imm.bits = r.next() & u64::from(u32::MAX);
                }
            }
            let insn = &insn;
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
            let mut o = Operands::new();
            o.read(insn, &before, &after, &channels);
            reused.read_with(&plan, insn, &before, &after, &channels);
            for c in 0..40u32 {
                for i in 0..4 {
                    assert_eq!(
                        reused.get(i, c),
                        o.get(i, c),
                        "{insn:?} src {i} channel {c}"
                    );
                }
                assert_eq!(reused.out(c), o.out(c), "{insn:?} dst channel {c}");
            }
            for n in 0..4 {
                assert_eq!(reused.float_classes(n), o.float_classes(n), "{insn:?}");
            }
            assert_eq!(reused.out_classes(), o.out_classes(), "{insn:?}");
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
            // The class sets are those of the values.
            for n in 0..4 {
                let o = &o;
                let want = channels
                    .iter()
                    .flat_map(|&c| (0..n).filter_map(move |i| o.get(i, c)))
                    .filter(|(t, _, _)| t.is_float())
                    .fold(0u16, |m, (_, _, k)| m | 1 << k);
                assert_eq!(o.float_classes(n), want, "{insn:?} sources 0..{n} classes");
            }
            let dty = insn.dst.map_or(DataType::F, |d| d.ty);
            let want = channels
                .iter()
                .filter_map(|&c| o.out(c))
                .fold(0u16, |m, v| m | 1 << float_class(dty, v));
            assert_eq!(o.out_classes(), want, "{insn:?} dst classes");
        }
        assert!(checked > 4000);
    }
}
