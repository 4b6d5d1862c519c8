//! Operand values for golden vectors: the IEEE value classes of the compare grids
//! (`spec::compare::CLASSES`), edge values of every scalar type (±0, denormals, min/max normals,
//! ±inf, quiet and signalling NaNs, integer extremes, rounding halfway cases) and a
//! deterministic per-vector random generator.

use crate::spec::DataType;

/// SplitMix64: a tiny generator whose output is fixed forever (vectors must stay byte-identical
/// across versions and machines, which a general-purpose RNG crate does not promise).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// The generator of vector `index` of a run seeded with `seed`: independent of the order
    /// and the thread in which vectors are generated.
    pub fn for_vector(seed: u64, index: u64, attempt: u32) -> Rng {
        let mut r = Rng(seed ^ 0x5851_F42D_4C95_7F2D);
        let a = r.next();
        let mut r = Rng(a ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (u64::from(attempt) << 56));
        r.next();
        r
    }

    #[allow(clippy::should_implement_trait)]
    #[inline]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(Rng::STEP);
        Rng::mix(self.0)
    }

    /// What [`Rng::next`] adds to the state: the `k`-th output from state `s` is
    /// `mix(s + k * STEP)` (so outputs can be computed ahead, independently).
    pub(crate) const STEP: u64 = 0x9E37_79B9_7F4A_7C15;

    /// The output of state `z`.
    #[inline(always)]
    pub(crate) fn mix(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The state (see [`Rng::STEP`]).
    #[inline]
    pub(crate) fn state(&self) -> u64 {
        self.0
    }

    /// The generator of state `s`.
    #[inline]
    pub(crate) fn from_state(s: u64) -> Rng {
        Rng(s)
    }

    /// Uniform in `0..n` (`n` > 0; modulo bias is irrelevant here).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// True with probability `num/den`.
    #[inline]
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next() % den < num
    }

    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

pub use crate::vector::classes::{
    class_of_format, float_class, float_format, NAN, NEG_DENORM, NEG_FIN, NEG_INF, NEG_ZERO,
    POS_DENORM, POS_FIN, POS_INF, POS_ZERO,
};

fn pack(e: u32, m: u32, neg: bool, exp: u64, man: u64) -> u64 {
    (u64::from(neg) << (e + m)) | (exp << m) | (man & ((1u64 << m) - 1))
}

/// Edge labels of float values ([`float_of_class_edge`]), in a fixed order (label codes).
pub const FLOAT_EDGES: [&str; 14] = [
    "inf",
    "zero",
    "min-denorm",
    "max-denorm",
    "denorm",
    "qnan",
    "snan",
    "nan-payload",
    "min-normal",
    "max-normal",
    "one",
    "halfway",
    "integral-ish",
    "normal",
];

/// Edge labels of integer values ([`int_value_edge`]), in a fixed order (label codes).
pub const INT_EDGES: [&str; 10] = [
    "zero",
    "min",
    "max",
    "minus-one",
    "max-1",
    "half",
    "small",
    "small-negative",
    "random",
    "one",
];

/// A value of grid class `class` for float type `t`, biased towards the edges of the class;
/// returns the bits and an edge label (for the value-class coverage).
pub fn float_of_class(t: DataType, class: usize, r: &mut Rng) -> (u64, &'static str) {
    let (b, e) = float_of_class_edge(t, class, r);
    (b, FLOAT_EDGES[e])
}

/// [`float_of_class`] with the edge label as an index into [`FLOAT_EDGES`].
#[inline(always)]
pub fn float_of_class_edge(t: DataType, class: usize, r: &mut Rng) -> (u64, usize) {
    let (e, m) = float_format(t).unwrap_or((8, 23));
    let emax = (1u64 << e) - 1;
    let mmask = (1u64 << m) - 1;
    let neg = class < POS_ZERO;
    match class {
        NEG_INF | POS_INF => (pack(e, m, neg, emax, 0), 0),
        NEG_ZERO | POS_ZERO => (pack(e, m, neg, 0, 0), 1),
        NEG_DENORM | POS_DENORM => match r.below(4) {
            0 => (pack(e, m, neg, 0, 1), 2),
            1 => (pack(e, m, neg, 0, mmask), 3),
            _ => (pack(e, m, neg, 0, (r.next() & mmask).max(1)), 4),
        },
        NAN => {
            let neg = r.chance(1, 2);
            match r.below(3) {
                0 => (pack(e, m, neg, emax, 1u64 << (m - 1)), 5),
                1 => (pack(e, m, neg, emax, (r.next() & (mmask >> 1)).max(1)), 6),
                _ => (pack(e, m, neg, emax, (r.next() & mmask).max(1)), 7),
            }
        }
        _ => match r.below(8) {
            0 => (pack(e, m, neg, 1, 0), 8),
            1 => (pack(e, m, neg, emax - 1, mmask), 9),
            2 => (pack(e, m, neg, emax >> 1, 0), 10),
            3 => {
                // A value whose low half of the mantissa is exactly a half: a halfway case for
                // conversions to a narrower float and for rounding to an integer.
                let half = 1u64 << (m / 2);
                let man = (r.next() & mmask & !(2 * half - 1)) | half;
                (pack(e, m, neg, (emax >> 1) + r.below(8) as u64, man), 11)
            }
            4 => {
                let x = (emax >> 1) + (r.next() % 24);
                (
                    pack(
                        e,
                        m,
                        neg,
                        x.min(emax - 1),
                        (r.next() & mmask) >> (m / 2) << (m / 2),
                    ),
                    12,
                )
            }
            _ => {
                let exp = 1 + r.next() % (emax - 1);
                (pack(e, m, neg, exp, r.next() & mmask), 13)
            }
        },
    }
}

/// A float value of a class picked with edge bias: every class equally likely.
pub fn float_value(t: DataType, r: &mut Rng) -> (u64, usize, &'static str) {
    let c = r.below(9);
    let (b, l) = float_of_class(t, c, r);
    (b, c, l)
}

/// An integer value of type `t` (bits, zero-extended to 64) with edge bias, and its label.
pub fn int_value(t: DataType, r: &mut Rng) -> (u64, &'static str) {
    let (v, e) = int_value_edge(t, r);
    (v, INT_EDGES[e])
}

/// [`int_value`] with the label as an index into [`INT_EDGES`].
#[inline(always)]
pub fn int_value_edge(t: DataType, r: &mut Rng) -> (u64, usize) {
    let bits = t.bits();
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let signed = t.is_signed();
    let (v, l) = match r.below(10) {
        0 => (0, 0),
        1 => (1, 9),
        2 => (mask, if signed { 3 } else { 2 }),
        3 => {
            if signed {
                (1u64 << (bits - 1), 1)
            } else {
                (mask - 1, 4)
            }
        }
        4 => {
            if signed {
                ((1u64 << (bits - 1)) - 1, 2)
            } else {
                (1u64 << (bits - 1), 5)
            }
        }
        5 => (r.next() & 0xff, 6),
        6 => ((r.next() & 0x1f) | (mask & !0x1f), 7),
        _ => (r.next(), 8),
    };
    (v & mask, l)
}

/// A value of any scalar type: bits, a value-class label (`"f:+denorm/min-denorm"`,
/// `"d:min"`) for coverage.
pub fn value(t: DataType, r: &mut Rng) -> (u64, String) {
    let (b, code) = value_code(t, r);
    (b, label(code).to_string())
}

/// Label codes: `type << 8 | class << 4 | edge` for floats (class < 9), `type << 8 | 0x90 |
/// edge` for integers. [`label`] gives the text.
pub type LabelCode = u16;

/// Number of label codes (an upper bound, for tables indexed by code).
pub const LABEL_CODES: usize = 16 << 8;

/// [`value`] with the label as a [`LabelCode`] (no allocation).
#[inline(always)]
pub fn value_code(t: DataType, r: &mut Rng) -> (u64, LabelCode) {
    let ty = (t as u16) << 8;
    if t.is_float() {
        let c = r.below(9);
        let (b, e) = float_of_class_edge(t, c, r);
        (b, ty | (c as u16) << 4 | e as u16)
    } else {
        let (b, e) = int_value_edge(t, r);
        (b, ty | 0x90 | e as u16)
    }
}

struct Labels {
    text: &'static [String],
    /// Position of each code's text in the sorted order of all texts.
    rank: Vec<u16>,
    /// The texts in that order.
    sorted: Vec<&'static str>,
    /// `,"<text>"` of each rank.
    items: super::format::fast::Slots,
}

fn label_texts() -> &'static [String] {
    static T: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let mut text = vec![String::new(); LABEL_CODES];
        for t in DataType::ALL {
            let name = t.name().to_ascii_lowercase();
            let ty = (t as usize) << 8;
            for (c, class) in crate::spec::compare::CLASSES.iter().enumerate() {
                for (e, edge) in FLOAT_EDGES.iter().enumerate() {
                    text[ty | c << 4 | e] = format!("{name}:{class}/{edge}");
                }
            }
            for (e, edge) in INT_EDGES.iter().enumerate() {
                text[ty | 0x90 | e] = format!("{name}:{edge}");
            }
        }
        text
    })
}

fn labels() -> &'static Labels {
    static L: std::sync::OnceLock<Labels> = std::sync::OnceLock::new();
    L.get_or_init(|| {
        let text = label_texts();
        let mut order: Vec<usize> = (0..LABEL_CODES).collect();
        order.sort_by(|a, b| text[*a].cmp(&text[*b]));
        let mut rank = vec![0u16; LABEL_CODES];
        let mut sorted = Vec::with_capacity(LABEL_CODES);
        for (i, c) in order.into_iter().enumerate() {
            rank[c] = i as u16;
            sorted.push(text[c].as_str());
        }
        let items = super::format::fast::Slots::new(sorted.iter().copied());
        Labels {
            text,
            rank,
            sorted,
            items,
        }
    })
}

/// The text of a label code (`f:+denorm/min-denorm`, `d:min`).
pub fn label(code: LabelCode) -> &'static str {
    labels()
        .text
        .get(usize::from(code))
        .map_or("", String::as_str)
}

/// The rank of label code `code` among the label texts (what a [`ClassSet`] holds; None: a
/// code beyond [`LABEL_CODES`], which a set ignores).
pub(crate) fn label_rank(code: LabelCode) -> Option<u16> {
    labels().rank.get(usize::from(code)).copied()
}

/// A form label of a shape placed among the value labels: the labels sort before the value
/// label of rank `before` (and after the one before it).
#[derive(Debug, Clone, Copy)]
pub(crate) struct PlacedLabel {
    pub before: u16,
    pub text: &'static str,
}

/// A shape's placed form labels rendered once: `,"<text>"` of each, one after another, so
/// that the labels a vector writes between two of its value labels are one copy
/// ([`ClassSet::write_placed`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct PlacedText {
    json: Vec<u8>,
    /// Per label: the rank it goes before and the end of its text in `json`.
    ends: Vec<(u16, u32)>,
}

impl PlacedText {
    /// Render `labels` (buffers reused).
    pub(crate) fn set(&mut self, labels: &[PlacedLabel]) {
        self.json.clear();
        self.ends.clear();
        for l in labels {
            self.json.extend_from_slice(b",\"");
            self.json.extend_from_slice(l.text.as_bytes());
            self.json.push(b'"');
            let end = u32::try_from(self.json.len()).unwrap_or(u32::MAX);
            self.ends.push((l.before, end));
        }
    }
}

/// Place a shape's form labels (sorted, unique) among the value labels: those equal to a
/// value label's text become that label's rank (in `ranks`), the others keep their text.
pub(crate) fn place_labels(labels_sorted: Vec<&'static str>) -> (Vec<u16>, Vec<PlacedLabel>) {
    let sorted = &labels().sorted;
    let (mut ranks, mut rest) = (Vec::new(), Vec::new());
    for l in labels_sorted {
        let at = sorted.partition_point(|t| *t < l);
        if sorted.get(at).is_some_and(|t| *t == l) {
            ranks.push(at as u16);
        } else {
            rest.push(PlacedLabel {
                before: at.min(usize::from(u16::MAX)) as u16,
                text: l,
            });
        }
    }
    (ranks, rest)
}

/// The value labels of one vector: one bit per label rank (text order).
pub(crate) struct ClassSet {
    bits: super::bitset::BitSet,
    rank: &'static [u16],
}

impl Default for ClassSet {
    fn default() -> ClassSet {
        ClassSet {
            bits: super::bitset::BitSet::new(LABEL_CODES),
            rank: &labels().rank,
        }
    }
}

impl ClassSet {
    /// Add the label of `code`.
    #[inline]
    pub(crate) fn insert(&mut self, code: LabelCode) {
        if let Some(&r) = self.rank.get(usize::from(code)) {
            self.insert_rank(r);
        }
    }

    /// Add the label of rank `r`.
    #[inline]
    pub(crate) fn insert_rank(&mut self, r: u16) {
        self.bits.insert(usize::from(r));
    }

    /// Empty the set.
    pub(crate) fn clear(&mut self) {
        self.bits.clear();
    }

    /// [`ClassSet::write`] with the placed labels rendered ([`PlacedText`]): those before a
    /// value label (all those after the last) as one copy.
    #[inline]
    pub(crate) fn write_placed(
        &self,
        out: &mut super::format::fast::Cursor<'_>,
        extra: &PlacedText,
    ) {
        let items = &labels().items;
        let list = out.list_start();
        let (json, ends) = (extra.json.as_slice(), extra.ends.as_slice());
        let before = |k: usize| ends.get(k).map_or(usize::MAX, |e| usize::from(e.0));
        // (The next label not written, its text's start, and the rank it goes before.)
        let (mut k, mut from) = (0, 0);
        let mut next_before = before(0);
        self.bits.for_each(|r| {
            if next_before <= r {
                let mut to = from;
                while let Some(&(b, end)) = ends.get(k) {
                    if usize::from(b) > r {
                        break;
                    }
                    (k, to) = (k + 1, end as usize);
                }
                out.bytes(json.get(from..to).unwrap_or_default());
                from = to;
                next_before = before(k);
            }
            items.put(out, r);
        });
        out.bytes(json.get(from..).unwrap_or_default());
        out.list_end(list);
    }

    /// Write the labels of the set and `extra` (placed form labels, sorted) as a JSON list
    /// of strings in text order (the general path of [`ClassSet::write_placed`]).
    #[cfg(test)]
    pub(crate) fn write(&self, out: &mut super::format::fast::Cursor<'_>, extra: &[PlacedLabel]) {
        let items = &labels().items;
        let list = out.list_start();
        // (The next form label and the rank it goes before, held apart: one comparison per
        // value label.)
        let mut extra = extra.iter();
        let before = |e: Option<&PlacedLabel>| e.map_or(usize::MAX, |e| usize::from(e.before));
        let mut next = extra.next();
        let mut next_before = before(next);
        self.bits.for_each(|r| {
            while next_before <= r {
                if let Some(e) = next {
                    out.list_plain(e.text);
                }
                next = extra.next();
                next_before = before(next);
            }
            items.put(out, r);
        });
        for e in next.into_iter().chain(extra) {
            out.list_plain(e.text);
        }
        out.list_end(list);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list `set.write` writes.
    fn written(set: &ClassSet, extra: &[PlacedLabel]) -> Vec<u8> {
        let mut out = super::super::format::fast::Lines::default();
        out.write(|c| set.write(c, extra));
        out.as_bytes().to_vec()
    }

    /// Value labels by rank with placed form labels equal the sorted union of the texts, and
    /// the writing of the rendered placed labels equals the general one.
    #[test]
    fn class_lists_equal_the_sorted_union_of_texts() {
        let mut r = Rng::for_vector(5, 6, 0);
        let forms = [
            "exec:16",
            "pred:any2h",
            "sat",
            "region:scalar",
            "f:+0/zero",
            "ud:max",
            "z",
            "a",
        ];
        let mut set = ClassSet::default();
        let mut text = PlacedText::default();
        for _ in 0..300 {
            set.clear();
            let mut expect: Vec<String> = Vec::new();
            for _ in 0..r.below(30) {
                let t = DataType::ALL[r.below(DataType::ALL.len())];
                let (_, code) = value_code(t, &mut r);
                set.insert(code);
                expect.push(label(code).to_string());
            }
            let mut shape: Vec<&'static str> = Vec::new();
            for f in forms {
                if r.chance(1, 2) {
                    shape.push(f);
                    expect.push(f.to_string());
                }
            }
            expect.sort();
            expect.dedup();
            shape.sort();
            let (ranks, placed) = place_labels(shape);
            for k in ranks {
                set.insert_rank(k);
            }
            let out = written(&set, &placed);
            let got: Vec<String> = serde_json::from_slice(&out).unwrap();
            assert_eq!(got, expect);
            // The rendered labels (into a reused text) give the same bytes.
            text.set(&placed);
            let mut fast = super::super::format::fast::Lines::default();
            fast.write(|c| set.write_placed(c, &text));
            assert_eq!(fast.as_bytes(), &out[..]);
        }
    }
}
