//! Runs of values of one type drawn from generator outputs computed ahead, without branches
//! on the random choices.
//!
//! [`values::value_code`] draws a value as a chain of random choices (a class, then edge
//! choices, then random bits), each a branch the processor cannot predict. But [`Rng`] is
//! counter-based: its `k`-th output from state `s` is `mix(s + k * STEP)`. So the outputs of a
//! run are computed ahead, independently of each other, with the first choice of a value
//! (`x % 9` or `x % 10`) next to each; a value starting at output `p` then reads outputs
//! `p..p + 4` and takes, from small constant tables indexed by its choices, its recipe (which
//! bits of which outputs make the value) and how many outputs it uses, `n`; the next value
//! starts at `p + n`. The bytes, the labels and the generator state after the run are those of
//! drawing the values one by one with `value_code` (tests: `fill::tests`). The outputs are
//! computed by [`outputs`] (eight at a time where the processor can); a run returns its draw
//! bits (one per recipe), whose labels the caller notes once per vector.
//!
//! A value may read outputs beyond the ones computed (stale or zero): its recipe ignores every
//! output past the `n` it uses, and `n` itself only depends on outputs it uses, so a value is
//! kept exactly when `p + n` outputs are computed; otherwise more are computed and it is drawn
//! again.
//!
//! [`values::value_code`]: crate::golden::values::value_code

use super::outputs::{self, Wide};
use crate::golden::values::{float_format, Rng};
use crate::spec::DataType;

/// Outputs computed ahead at most (a longer run moves its outputs not used yet to the front).
const CAP: usize = 256;
/// Room for the outputs a value may read past the last one computed (at a position below
/// `CAP`: see [`at`]).
const BUF: usize = CAP + 4;

/// A value's position in the buffers: `p` below `CAP` (a value at `CAP` reads stale outputs,
/// like every value past the ones computed, and is drawn again), so that its reads need no
/// bounds checks.
#[inline(always)]
fn at(p: usize) -> usize {
    p % CAP
}

/// How the values of one type are drawn from the generator's outputs.
trait Draws {
    /// Bytes per value.
    const SIZE: usize;
    /// Outputs computed ahead per value still to draw, times 16 (about the mean used).
    const AHEAD16: usize;
    /// The first choice of a value starting at output `x` is `x % MODULUS` (9 or 10).
    const MODULUS: u32;
    /// The value starting at output `p` (below `CAP`): its bits, its draw bit (see
    /// [`Draws::label`]) and the outputs it uses.
    fn draw(x: &[u64; BUF], c: &[u8; BUF], p: usize) -> (u64, u64, usize);
    /// The low byte of the label code of draw bit `bit`.
    fn label(bit: u32) -> u8;
}

/// Generator outputs computed ahead, each with the first choice of a value starting there: a
/// buffer kept from run to run, so that no run clears it (what a run reads before it writes
/// is ignored, see the module text).
pub(in crate::golden::build) struct Ahead {
    x: [u64; BUF],
    c: [u8; BUF],
    wide: Wide,
}

impl Default for Ahead {
    fn default() -> Ahead {
        Ahead::with(Wide::detect())
    }
}

impl Ahead {
    /// A buffer whose outputs are computed as `wide` says.
    pub(super) fn with(wide: Wide) -> Ahead {
        Ahead {
            x: [0; BUF],
            c: [0; BUF],
            wide,
        }
    }
}

/// Where a run stands: outputs `x[..have]` computed (the last one of generator state `s`),
/// `x[..p]` used.
struct Run {
    s: u64,
    have: usize,
    p: usize,
}

/// Compute outputs ahead: at least up to `need` (more than `have`, at most `p + 4`), about
/// what the `left` values still to draw use, moving the outputs not used yet to the front
/// when the buffer is full.
#[inline(never)]
fn refill<D: Draws>(ahead: &mut Ahead, run: &mut Run, need: usize, left: usize) {
    let Ahead { x, c, wide } = ahead;
    let mut need = need;
    if need > CAP {
        // (`have - p < need - p <= 4`.)
        let q = at(run.p);
        let (kx, kc) = (
            [x[q], x[q + 1], x[q + 2], x[q + 3]],
            [c[q], c[q + 1], c[q + 2], c[q + 3]],
        );
        x[..4].copy_from_slice(&kx);
        c[..4].copy_from_slice(&kc);
        run.have -= run.p;
        need -= run.p;
        run.p = 0;
    }
    // (Whole blocks: outputs computed beyond the ones used are dropped at the end of the run.)
    let more = (left * D::AHEAD16 / 16).max(need.saturating_sub(run.have));
    let want = (run.have + more.next_multiple_of(wide.block())).min(CAP);
    let (x, c) = (&mut x[run.have..want], &mut c[run.have..want]);
    run.s = match D::MODULUS {
        9 => outputs::compute::<9>(*wide, run.s, x, c),
        _ => outputs::compute::<10>(*wide, run.s, x, c),
    };
    run.have = want;
}

/// Fill `out` (elements of `D::SIZE` bytes, little-endian) with values of `D` from `r`;
/// returns the draw bits of the values (see [`Draws::label`]).
#[inline(always)]
fn fill_run<D: Draws>(ahead: &mut Ahead, out: &mut [u8], r: &mut Rng) -> u64 {
    let mut els = out.chunks_exact_mut(D::SIZE);
    let mut run = Run {
        s: r.state(),
        have: 0,
        p: 0,
    };
    let (mut need, mut seen) = (1, 0u64);
    while els.len() > 0 {
        refill::<D>(ahead, &mut run, need, els.len());
        let (x, c, have) = (&ahead.x, &ahead.c, run.have);
        let mut p = run.p;
        // The values that fit in the outputs computed (no calls: the loop's state stays in
        // registers).
        loop {
            let (v, bit, n) = D::draw(x, c, at(p));
            if p + n > have {
                need = p + n;
                break;
            }
            let Some(el) = els.next() else {
                break;
            };
            el.copy_from_slice(&v.to_le_bytes()[..D::SIZE]);
            seen |= bit;
            p += n;
        }
        run.p = p;
    }
    let unused = (run.have - run.p) as u64;
    *r = Rng::from_state(run.s.wrapping_sub(unused.wrapping_mul(Rng::STEP)));
    seen
}

/// Calls `$f::<D>($args)` with the drawing `D` of type `$ty` (`$none` for a type without
/// one).
macro_rules! by_type {
    ($ty:expr, $f:ident($($arg:expr),*), $none:expr) => {
        match (float_format($ty), $ty.bits(), $ty.is_signed()) {
            (Some((5, 10)), 16, _) => $f::<Float<5, 10>>($($arg),*),
            (Some((8, 23)), 32, _) => $f::<Float<8, 23>>($($arg),*),
            (Some((11, 52)), 64, _) => $f::<Float<11, 52>>($($arg),*),
            (None, 8, false) => $f::<Int<8, false>>($($arg),*),
            (None, 8, true) => $f::<Int<8, true>>($($arg),*),
            (None, 16, false) => $f::<Int<16, false>>($($arg),*),
            (None, 16, true) => $f::<Int<16, true>>($($arg),*),
            (None, 32, false) => $f::<Int<32, false>>($($arg),*),
            (None, 32, true) => $f::<Int<32, true>>($($arg),*),
            (None, 64, false) => $f::<Int<64, false>>($($arg),*),
            (None, 64, true) => $f::<Int<64, true>>($($arg),*),
            _ => $none,
        }
    };
}

/// Fill `out` with values of `ty` from `r`, as [`values::value_code`] draws them one by one
/// (element after element, the low bytes of each); returns the draw bits of the values
/// ([`label`] gives their labels). None (nothing drawn) for a type without a lookahead
/// drawing.
///
/// [`values::value_code`]: crate::golden::values::value_code
#[inline(always)]
pub(super) fn fill(ahead: &mut Ahead, out: &mut [u8], ty: DataType, r: &mut Rng) -> Option<u64> {
    by_type!(ty, fill_some(ahead, out, r), None)
}

#[inline(always)]
fn fill_some<D: Draws>(ahead: &mut Ahead, out: &mut [u8], r: &mut Rng) -> Option<u64> {
    Some(fill_run::<D>(ahead, out, r))
}

/// The low byte of the label code of draw bit `bit` (below 64) of type `ty` (None: a type
/// without a lookahead drawing).
pub(super) fn label(ty: DataType, bit: u32) -> Option<u8> {
    by_type!(ty, label_some(bit), None)
}

fn label_some<D: Draws>(bit: u32) -> Option<u8> {
    Some(D::label(bit))
}

/// Floats of `E` exponent and `M` mantissa bits (`values::float_of_class_edge` after a class
/// drawn with `below(9)`).
struct Float<const E: u32, const M: u32>;

/// The recipe and the outputs used of a float value from its class `a` (`x0 % 9`), `x1 % 8`
/// and `x2 % 9`: `float_of_class_edge`'s choices, recipe by recipe (see [`float_recipe`]).
const fn float_step(a: usize, b: usize, k: usize) -> (usize, usize) {
    match a {
        0 => (0, 1),
        7 => (1, 1),
        3 => (2, 1),
        4 => (3, 1),
        // Denormals: `below(4)` (x1), the random mantissa from x2.
        2 | 5 => {
            let base = if a == 2 { 4 } else { 7 };
            match b & 3 {
                0 => (base, 2),
                1 => (base + 1, 2),
                _ => (base + 2, 3),
            }
        }
        // NaN: the sign by `chance(1, 2)` (x1), `below(3)` (x2), the payload from x3.
        8 => {
            let base = if b & 1 == 0 { 10 } else { 13 };
            match k % 3 {
                0 => (base, 3),
                1 => (base + 1, 4),
                _ => (base + 2, 4),
            }
        }
        // Finite: `below(8)` (x1), then x2 and x3.
        _ => {
            let base = if a == 1 { 16 } else { 22 };
            match b {
                0 => (base, 2),
                1 => (base + 1, 2),
                2 => (base + 2, 2),
                3 => (base + 3, 4),
                4 => (base + 4, 4),
                _ => (base + 5, 4),
            }
        }
    }
}

/// [`float_step`] of every choice: recipe | (outputs used - 1) << 5, at `(a * 8 + b) * 16 + k`.
/// (Every `k` below 16: a choice read past the outputs computed may be any, even one of an
/// integer run, `x % 10`.)
const FLOAT_STEPS: [u8; 16 * 8 * 16] = {
    let mut t = [0u8; 16 * 8 * 16];
    let mut a = 0;
    while a < 16 {
        let mut b = 0;
        while b < 8 {
            let mut k = 0;
            while k < 16 {
                let (rec, n) = float_step(a, b, k);
                t[(a * 8 + b) * 16 + k] = (rec | (n - 1) << 5) as u8;
                k += 1;
            }
            b += 1;
        }
        a += 1;
    }
    t
};

/// How a float value is made from outputs x2 and x3: `or + max((x2 & m2) | (x3 & m3), min)
/// + ((x3 & e3) << M)`, plus a random exponent for the `rare` recipes.
#[derive(Clone, Copy)]
struct FloatRecipe {
    /// The constant bits (sign, exponent, mantissa).
    or: u64,
    /// The mantissa bits taken from x2 and from x3.
    m2: u64,
    m3: u64,
    /// The least mantissa (1 where a zero mantissa becomes 1).
    min: u64,
    /// The bits of x3 added to the exponent.
    e3: u64,
    /// The exponent from x2: 1: `(emax >> 1) + x2 % 24` (at most `emax - 1`); 2: `1 + x2 %
    /// (emax - 1)`.
    rare: u64,
    /// The label code's low byte (`class << 4 | edge`).
    label: u8,
}

/// Recipe `rec` of `float_of_class_edge` for a float of `e` exponent and `m` mantissa bits.
const fn float_recipe(e: u32, m: u32, rec: usize) -> FloatRecipe {
    use crate::golden::values::{
        NAN, NEG_DENORM, NEG_FIN, NEG_INF, NEG_ZERO, POS_DENORM, POS_FIN, POS_INF, POS_ZERO,
    };
    let emax = (1u64 << e) - 1;
    let mmask = (1u64 << m) - 1;
    let half = 1u64 << (m / 2);
    let mut r = FloatRecipe {
        or: 0,
        m2: 0,
        m3: 0,
        min: 0,
        e3: 0,
        rare: 0,
        label: 0,
    };
    let (class, neg) = match rec {
        0 => (NEG_INF, true),
        1 => (POS_INF, false),
        2 => (NEG_ZERO, true),
        3 => (POS_ZERO, false),
        4..=6 => (NEG_DENORM, true),
        7..=9 => (POS_DENORM, false),
        10..=12 => (NAN, true),
        13..=15 => (NAN, false),
        16..=21 => (NEG_FIN, true),
        _ => (POS_FIN, false),
    };
    let (mut exp, mut man) = (0, 0);
    // The edge (index into `FLOAT_EDGES`).
    let edge = match rec {
        0 | 1 => {
            exp = emax;
            0
        }
        2 | 3 => 1,
        4 | 7 => {
            man = 1;
            2
        }
        5 | 8 => {
            man = mmask;
            3
        }
        6 | 9 => {
            r.m2 = mmask;
            r.min = 1;
            4
        }
        10 | 13 => {
            exp = emax;
            man = 1 << (m - 1);
            5
        }
        11 | 14 => {
            exp = emax;
            r.m3 = mmask >> 1;
            r.min = 1;
            6
        }
        12 | 15 => {
            exp = emax;
            r.m3 = mmask;
            r.min = 1;
            7
        }
        16 | 22 => {
            exp = 1;
            8
        }
        17 | 23 => {
            exp = emax - 1;
            man = mmask;
            9
        }
        18 | 24 => {
            exp = emax >> 1;
            10
        }
        19 | 25 => {
            exp = emax >> 1;
            r.e3 = 7;
            r.m2 = mmask & !(2 * half - 1);
            man = half;
            11
        }
        20 | 26 => {
            r.rare = 1;
            r.m3 = mmask & !(half - 1);
            12
        }
        _ => {
            r.rare = 2;
            r.m3 = mmask;
            13
        }
    };
    r.or = (neg as u64) << (e + m) | exp << m | man;
    r.label = (class << 4 | edge) as u8;
    r
}

impl<const E: u32, const M: u32> Float<E, M> {
    const RECIPES: [FloatRecipe; 32] = {
        let mut t = [float_recipe(E, M, 0); 32];
        let mut i = 0;
        while i < 28 {
            t[i] = float_recipe(E, M, i);
            i += 1;
        }
        t
    };
    const EMAX: u64 = (1u64 << E) - 1;
}

impl<const E: u32, const M: u32> Draws for Float<E, M> {
    const SIZE: usize = (1 + E + M) as usize / 8;
    const AHEAD16: usize = 34;

    const MODULUS: u32 = 9;

    #[inline(always)]
    fn draw(x: &[u64; BUF], c: &[u8; BUF], p: usize) -> (u64, u64, usize) {
        let a = usize::from(c[p] & 15);
        let b = (x[p + 1] & 7) as usize;
        let k = usize::from(c[p + 2] & 15);
        let step = FLOAT_STEPS[(a * 8 + b) * 16 + k];
        let rec = usize::from(step & 31);
        let r = &Self::RECIPES[rec];
        let (x2, x3) = (x[p + 2], x[p + 3]);
        let man = ((x2 & r.m2) | (x3 & r.m3)).max(r.min);
        let mut v = r.or + man + ((x3 & r.e3) << M);
        if r.rare != 0 {
            let near = ((Self::EMAX >> 1) + x2 % 24).min(Self::EMAX - 1);
            let any = 1 + x2 % (Self::EMAX - 1);
            v += (if r.rare == 1 { near } else { any }) << M;
        }
        (v, 1 << rec, usize::from(step >> 5) + 1)
    }

    fn label(bit: u32) -> u8 {
        Self::RECIPES[bit as usize % 32].label
    }
}

/// Integers of `BITS` bits (`values::int_value_edge`: a choice by `below(10)`, then for
/// choices 5 and up random bits from the next output).
struct Int<const BITS: u32, const SIGNED: bool>;

/// Per choice of [`Int`]: the value `konst | (x1 & and)` and the label code's low byte.
struct IntTable {
    konst: [u64; 16],
    and: [u64; 16],
    label: [u8; 16],
}

const fn int_table(bits: u32, signed: bool) -> IntTable {
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let top = 1u64 << (bits - 1);
    // (value, bits of x1, edge: index into `INT_EDGES`)
    let choices: [(u64, u64, u8); 10] = [
        (0, 0, 0),
        (1, 0, 9),
        (mask, 0, if signed { 3 } else { 2 }),
        if signed {
            (top, 0, 1)
        } else {
            (mask - 1, 0, 4)
        },
        if signed { (top - 1, 0, 2) } else { (top, 0, 5) },
        (0, 0xff, 6),
        (mask & !0x1f, 0x1f, 7),
        (0, u64::MAX, 8),
        (0, u64::MAX, 8),
        (0, u64::MAX, 8),
    ];
    let mut t = IntTable {
        konst: [0; 16],
        and: [0; 16],
        label: [0; 16],
    };
    let mut i = 0;
    while i < 10 {
        t.konst[i] = choices[i].0 & mask;
        t.and[i] = choices[i].1 & mask;
        t.label[i] = 0x90 | choices[i].2;
        i += 1;
    }
    t
}

impl<const BITS: u32, const SIGNED: bool> Int<BITS, SIGNED> {
    const TABLE: IntTable = int_table(BITS, SIGNED);
}

impl<const BITS: u32, const SIGNED: bool> Draws for Int<BITS, SIGNED> {
    const SIZE: usize = BITS as usize / 8;
    const AHEAD16: usize = 24;

    const MODULUS: u32 = 10;

    #[inline(always)]
    fn draw(x: &[u64; BUF], c: &[u8; BUF], p: usize) -> (u64, u64, usize) {
        let k = usize::from(c[p] & 15);
        let v = Self::TABLE.konst[k] | (x[p + 1] & Self::TABLE.and[k]);
        (v, 1 << k, 1 + usize::from(k >= 5))
    }

    fn label(bit: u32) -> u8 {
        Self::TABLE.label[bit as usize % 16]
    }
}
