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
//! drawing the values one by one with `value_code` (tests: `fill::tests`).
//!
//! A value may read outputs beyond the ones computed (stale or zero): its recipe ignores every
//! output past the `n` it uses, and `n` itself only depends on outputs it uses, so a value is
//! kept exactly when `p + n` outputs are computed; otherwise more are computed and it is drawn
//! again.
//!
//! [`values::value_code`]: crate::golden::values::value_code

use crate::golden::values::{float_format, Rng};
use crate::spec::DataType;
use std::cell::RefCell;

/// Outputs kept ahead at most.
const CAP: usize = 64;
/// Room for the outputs a value may read past the last one computed.
const BUF: usize = CAP + 4;

/// How the values of one type are drawn from the generator's outputs.
trait Draws {
    /// Bytes per value.
    const SIZE: usize;
    /// Outputs computed ahead per value still to draw, times 16 (about the mean used).
    const AHEAD16: usize;
    /// The first choice of a value starting at output `x`.
    fn choice(x: u64) -> u8;
    /// The value starting at output `p`: its bits, its label bit (see [`Draws::label`]) and
    /// the outputs it uses.
    fn draw(x: &[u64; BUF], c: &[u8; BUF], p: usize) -> (u64, u64, usize);
    /// The low byte of the label code of label bit `bit`.
    fn label(bit: u32) -> u8;
}

/// Generator outputs computed ahead, each with the first choice of a value starting there.
struct Ahead {
    x: [u64; BUF],
    c: [u8; BUF],
}

thread_local! {
    /// The thread's outputs computed ahead (a buffer kept from run to run, so that no run
    /// clears it: what a run reads before it writes is ignored, see the module text).
    static AHEAD: RefCell<Ahead> = const {
        RefCell::new(Ahead {
            x: [0; BUF],
            c: [0; BUF],
        })
    };
}

/// Fill `out` (elements of `D::SIZE` bytes, little-endian) with values of `D` from `r`, then call
/// `note` once with the low byte of each label code drawn. False (nothing drawn) if the
/// thread's buffer is in use (a run never calls another, so never).
#[inline(always)]
fn fill_run<D: Draws>(out: &mut [u8], r: &mut Rng, note: impl FnMut(u8)) -> bool {
    AHEAD.with(|cell| match cell.try_borrow_mut() {
        Ok(mut ahead) => {
            fill_run_in::<D>(&mut ahead, out, r, note);
            true
        }
        Err(_) => false,
    })
}

#[inline(always)]
fn fill_run_in<D: Draws>(ahead: &mut Ahead, out: &mut [u8], r: &mut Rng, mut note: impl FnMut(u8)) {
    let sz = D::SIZE;
    let Ahead { x, c } = ahead;
    // The state of the last output computed; `x[..have]` computed, `x[..p]` used.
    let mut s = r.state();
    let (mut have, mut p, mut need) = (0usize, 0usize, 1usize);
    let mut seen = 0u64;
    let count = out.len() / sz;
    let mut i = 0;
    loop {
        let want = (have + (count - i) * D::AHEAD16 / 16).max(need).min(CAP);
        while have < want {
            s = s.wrapping_add(Rng::STEP);
            let v = Rng::mix(s);
            x[have] = v;
            c[have] = D::choice(v);
            have += 1;
        }
        while i < count {
            // (`p <= have <= CAP`; the bound lets the reads go unchecked.)
            let q = p.min(CAP);
            let (v, l, n) = D::draw(x, c, q);
            if q + n > have {
                need = q + n;
                break;
            }
            if let Some(el) = out.get_mut(i * sz..i * sz + sz) {
                el.copy_from_slice(&v.to_le_bytes()[..sz]);
            }
            seen |= l;
            p = q + n;
            i += 1;
        }
        if i >= count {
            break;
        }
        // Keep the outputs not used yet (fewer than 4) at the front.
        let q = p.min(CAP);
        let (kx, kc) = (
            [x[q], x[q + 1], x[q + 2], x[q + 3]],
            [c[q], c[q + 1], c[q + 2], c[q + 3]],
        );
        x[..4].copy_from_slice(&kx);
        c[..4].copy_from_slice(&kc);
        have -= q;
        need -= q;
        p = 0;
    }
    *r = Rng::from_state(s.wrapping_sub(((have - p) as u64).wrapping_mul(Rng::STEP)));
    while seen != 0 {
        note(D::label(seen.trailing_zeros()));
        seen &= seen - 1;
    }
}

/// Fill `out` with values of `ty` from `r`, as [`values::value_code`] draws them one by one
/// (element after element, the low bytes of each), calling `note` once with the low byte of
/// each label code drawn. False (nothing drawn) for a type without a lookahead drawing (or
/// without the thread's buffer).
///
/// [`values::value_code`]: crate::golden::values::value_code
#[inline(always)]
pub(super) fn fill(out: &mut [u8], ty: DataType, r: &mut Rng, note: impl FnMut(u8)) -> bool {
    match (float_format(ty), ty.bits(), ty.is_signed()) {
        (Some((5, 10)), 16, _) => fill_run::<Float<5, 10>>(out, r, note),
        (Some((8, 23)), 32, _) => fill_run::<Float<8, 23>>(out, r, note),
        (Some((11, 52)), 64, _) => fill_run::<Float<11, 52>>(out, r, note),
        (None, 8, false) => fill_run::<Int<8, false>>(out, r, note),
        (None, 8, true) => fill_run::<Int<8, true>>(out, r, note),
        (None, 16, false) => fill_run::<Int<16, false>>(out, r, note),
        (None, 16, true) => fill_run::<Int<16, true>>(out, r, note),
        (None, 32, false) => fill_run::<Int<32, false>>(out, r, note),
        (None, 32, true) => fill_run::<Int<32, true>>(out, r, note),
        (None, 64, false) => fill_run::<Int<64, false>>(out, r, note),
        (None, 64, true) => fill_run::<Int<64, true>>(out, r, note),
        _ => false,
    }
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

    #[inline(always)]
    fn choice(x: u64) -> u8 {
        (x % 9) as u8
    }

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

    #[inline(always)]
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

    #[inline(always)]
    fn choice(x: u64) -> u8 {
        (x % 10) as u8
    }

    #[inline(always)]
    fn draw(x: &[u64; BUF], c: &[u8; BUF], p: usize) -> (u64, u64, usize) {
        let k = usize::from(c[p] & 15);
        let v = Self::TABLE.konst[k] | (x[p + 1] & Self::TABLE.and[k]);
        (v, 1 << k, 1 + usize::from(k >= 5))
    }

    #[inline(always)]
    fn label(bit: u32) -> u8 {
        Self::TABLE.label[bit as usize % 16]
    }
}
