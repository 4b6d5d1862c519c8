//! Shared test support for the `fp` tests: edge-biased input generators
//! (always available) and the two oracles (feature `oracles`):
//!
//! * MPFR through `rug`: every result is computed at the format's precision
//!   with MPFR's (unbounded) exponent range, then `subnormalize_ieee_round`
//!   emulates gradual underflow, and overflow is applied by hand from the
//!   unbounded-range result. The flags are derived independently of the
//!   model: overflow and tiny-after from the unbounded-range result,
//!   tiny-before from a round-toward-zero evaluation, inexact from MPFR's
//!   ternary value.
//! * Berkeley SoftFloat 3 through `softfloat-wrapper`, whose default
//!   specialisation is 8086-SSE: tininess after rounding (as ours), but its
//!   default NaN is the *negative* quiet NaN (e.g. 0xFFC0_0000) and it
//!   propagates NaN payloads. So for NaN results only NaN-ness is compared
//!   against SoftFloat; everything else (non-NaN bits, all five IEEE
//!   flags) is compared bit-exactly.
#![allow(dead_code)]

use euref::fp::{Flags, Format, Round};

// ---------------------------------------------------------------------
// Small deterministic generator helpers (usable from proptest and
// quickcheck alike: they map raw random words to edge-biased inputs).
// ---------------------------------------------------------------------

/// The encodings an opt-in exhaustive test visits: `FP_EXHAUSTIVE_RANGE=lo:hi` (hex,
/// half-open; default all 2^32) and `FP_EXHAUSTIVE_STEP=n` (decimal, default 1).
/// Returns (lo, hi, step).
pub fn exhaustive_selection() -> (u64, u64, u64) {
    let (lo, hi) = match std::env::var("FP_EXHAUSTIVE_RANGE") {
        Ok(s) => {
            let (a, b) = s.split_once(':').expect("FP_EXHAUSTIVE_RANGE=lo:hi");
            let hex = |t: &str| u64::from_str_radix(t.trim().trim_start_matches("0x"), 16);
            (
                hex(a).expect("hex lo"),
                hex(b).expect("hex hi").min(1 << 32),
            )
        }
        Err(_) => (0, 1 << 32),
    };
    let step = std::env::var("FP_EXHAUSTIVE_STEP")
        .map(|s| s.trim().parse::<u64>().expect("FP_EXHAUSTIVE_STEP=n"))
        .unwrap_or(1)
        .max(1);
    (lo, hi, step)
}

/// Interesting fixed encodings of `F`, positive and negative.
pub fn specials<F: Format>() -> Vec<u64> {
    let one = (F::BIAS as u64) << F::FRAC_BITS;
    let mut v = vec![
        0,
        1,                            // min denormal
        2,                            // 2 * min denormal
        3,                            // 3 * min denormal (ties when halved)
        F::HIDDEN - 1,                // max denormal
        F::HIDDEN >> 1,               // half the smallest normal
        F::MIN_NORMAL,                // min normal
        F::MIN_NORMAL + 1,            // min normal + ulp
        F::MAX_FINITE,                // max finite
        F::MAX_FINITE - 1,            // max finite - ulp
        F::INF,                       // inf
        F::CANONICAL_NAN,             // canonical qNaN
        F::CANONICAL_NAN | 1,         // qNaN with payload
        F::INF | 1,                   // sNaN
        F::INF | (F::QUIET >> 1),     // sNaN other payload
        F::INF | F::FRAC_MASK,        // qNaN all ones
        one,                          // 1.0
        one + 1,                      // 1 + ulp
        one - 1,                      // 1 - ulp/2
        one - (1u64 << F::FRAC_BITS), // 0.5
        one + (1u64 << F::FRAC_BITS), // 2.0
        one | F::QUIET,               // 1.5
        // 2^PREC and its neighbours (integer/rounding boundary)
        ((F::BIAS as u64 + F::PREC as u64) << F::FRAC_BITS),
        ((F::BIAS as u64 + F::PREC as u64) << F::FRAC_BITS) - 1,
        ((F::BIAS as u64 + F::PREC as u64) << F::FRAC_BITS) + 1,
        ((F::BIAS as u64 + F::FRAC_BITS as u64) << F::FRAC_BITS) | 1,
    ];
    let neg: Vec<u64> = v.iter().map(|x| x | F::SIGN).collect();
    v.extend(neg);
    v
}

/// Map random words to an edge-biased encoding of `F`.
pub fn edge<F: Format>(kind: u8, r1: u64, r2: u64) -> u64 {
    let sign = if r2 & 1 != 0 { F::SIGN } else { 0 };
    let frac = r1 & F::FRAC_MASK;
    let emax = F::EXP_FIELD_MAX;
    let exp = |e: u64| (e.min(emax) << F::FRAC_BITS) & F::EXP_MASK;
    match kind % 12 {
        0 | 1 => {
            let s = specials::<F>();
            s[(r1 % s.len() as u64) as usize]
        }
        // denormals
        2 => sign | (frac % F::HIDDEN),
        // near the bottom of the normal range
        3 => sign | exp(1 + (r2 >> 1) % 3) | frac,
        // near the top
        4 => sign | exp(emax - 1 - (r2 >> 1) % 3) | frac,
        // near 1
        5 => sign | exp(F::BIAS as u64 - 2 + (r2 >> 1) % 5) | frac,
        // few significant bits (products and quotients are exact or ties)
        6 => {
            let keep = (r2 >> 8) % (F::FRAC_BITS as u64 + 1);
            let f = frac & !((1u64 << (F::FRAC_BITS as u64 - keep)) - 1);
            sign | exp(1 + (r2 >> 1) % (emax - 1)) | f
        }
        // frac near all-ones or all-zeros (carries)
        7 => {
            let small = r1 % 4;
            let f = if r2 & 2 != 0 {
                F::FRAC_MASK - small
            } else {
                small
            };
            sign | exp(1 + (r2 >> 2) % (emax - 1)) | f
        }
        // any finite
        8 => sign | exp((r2 >> 1) % emax) | frac,
        // integers and half-integers around 2^PREC
        9 => {
            let e = F::BIAS as u64 + F::PREC as u64 - 3 + (r2 >> 1) % 5;
            sign | exp(e) | frac
        }
        // NaNs of every kind
        10 => sign | F::INF | (frac.max(1)),
        // anything
        _ => r1 & F::MASK,
    }
}

/// A partner for `a` that makes `a + b` an exact tie, a near-tie or a
/// heavy cancellation (for add, sub, fma addends).
pub fn add_partner<F: Format>(a: u64, kind: u8, r: u64) -> u64 {
    let a = a & F::MASK;
    let ea = (a >> F::FRAC_BITS) & F::EXP_FIELD_MAX;
    let sign = if r & 1 != 0 { F::SIGN } else { 0 };
    match kind % 4 {
        // b about half an ulp of a (ties and near ties)
        0 | 1 => {
            let shift = F::PREC as u64 + (r >> 1) % 3; // 2^-PREC .. 2^-(PREC+2) relative
            let eb = ea.saturating_sub(shift);
            let frac = if r & 2 != 0 {
                0
            } else {
                (r >> 8) & F::FRAC_MASK
            };
            sign | (eb << F::FRAC_BITS) | frac
        }
        // cancellation: -a perturbed by a few ulps
        2 => {
            let d = (r >> 1) % 5;
            let m = (a & !F::SIGN).wrapping_add(d).wrapping_sub(2) & !F::SIGN & F::MASK;
            (a ^ F::SIGN) & F::SIGN | m
        }
        // same exponent, random fraction
        _ => sign | (a & F::EXP_MASK) | ((r >> 8) & F::FRAC_MASK),
    }
}

/// A partner for `a` that puts `a * b` (or `a / b` when `div`) near the
/// bottom of the normal range (tiny results, rounding into the smallest
/// normal, underflow) or near the overflow threshold.
pub fn mul_partner<F: Format>(a: u64, div: bool, kind: u8, r: u64) -> u64 {
    let a = a & F::MASK;
    let ea = (((a >> F::FRAC_BITS) & F::EXP_FIELD_MAX).max(1)) as i64 - F::BIAS as i64;
    let target = match kind % 3 {
        0 => F::EMIN as i64 - 1,
        1 => F::EMIN as i64 - 1 - (r >> 20) as i64 % (F::PREC as i64 + 2),
        _ => F::EMAX as i64,
    };
    let jitter = (r >> 1) as i64 % 3 - 1;
    let eb = if div { ea - target } else { target - ea } + jitter;
    let eb = (eb + F::BIAS as i64).clamp(1, F::EXP_FIELD_MAX as i64 - 1) as u64;
    let small = (r >> 8) % 4;
    let frac = match (r >> 4) % 3 {
        0 => F::FRAC_MASK - small,
        1 => small,
        _ => (r >> 12) & F::FRAC_MASK,
    };
    let sign = if r & 1 != 0 { F::SIGN } else { 0 };
    sign | (eb << F::FRAC_BITS) | frac
}

/// Convert a `Round` to SoftFloat's and MPFR's names.
pub fn all_rm() -> [Round; 4] {
    Round::ALL
}

/// Number of proptest cases: `PROPTEST_CASES` or `default`.
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Render flags for messages.
pub fn fl(f: Flags) -> String {
    let mut s = String::new();
    for (b, n) in [
        (Flags::INVALID, "V"),
        (Flags::DIV_BY_ZERO, "Z"),
        (Flags::OVERFLOW, "O"),
        (Flags::UNDERFLOW, "U"),
        (Flags::INEXACT, "X"),
        (Flags::TINY_BEFORE, "tb"),
        (Flags::TINY_AFTER, "ta"),
    ] {
        if f.contains(b) {
            s.push_str(n);
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

#[cfg(feature = "oracles")]
pub mod mpfr {
    //! The MPFR oracle.
    use super::*;
    use euref::fp::{is_nan, is_snan, FpOrd, ToInt};
    use rug::float::{Round as MR, Special};
    use rug::{Float, Integer};
    use std::cmp::Ordering;

    pub fn mr(rm: Round) -> MR {
        match rm {
            Round::Rtne => MR::Nearest,
            Round::Ru => MR::Up,
            Round::Rd => MR::Down,
            Round::Rtz => MR::Zero,
        }
    }

    /// Exact value of a non-NaN encoding (precision PREC suffices).
    pub fn to_rug<F: Format>(bits: u64) -> Float {
        let bits = bits & F::MASK;
        let neg = bits & F::SIGN != 0;
        let e = (bits >> F::FRAC_BITS) & F::EXP_FIELD_MAX;
        let frac = bits & F::FRAC_MASK;
        assert!(e != F::EXP_FIELD_MAX || frac == 0, "NaN passed to to_rug");
        let mut x = if e == F::EXP_FIELD_MAX {
            Float::with_val(F::PREC, Special::Infinity)
        } else if e == 0 {
            let mut x = Float::with_val(F::PREC, frac);
            x <<= F::EMIN - F::FRAC_BITS as i32;
            x
        } else {
            let mut x = Float::with_val(F::PREC, frac | F::HIDDEN);
            x <<= e as i32 - F::BIAS - F::FRAC_BITS as i32;
            x
        };
        if neg {
            x = -x;
        }
        x
    }

    /// Encoding of a value exactly representable in `F` (or infinite).
    pub fn from_rug<F: Format>(x: &Float) -> u64 {
        assert!(!x.is_nan());
        let sign = if x.is_sign_negative() { F::SIGN } else { 0 };
        if x.is_zero() {
            return sign;
        }
        if x.is_infinite() {
            return sign | F::INF;
        }
        let (m, e) = x.to_integer_exp().expect("finite");
        let m = m.abs();
        let len = m.significant_bits() as i32;
        let unb = e + len - 1; // unbiased exponent of the value
        let fb = F::FRAC_BITS as i32;
        // value = M * 2^(q) with q = unb - fb (normal) or EMIN - fb (denormal)
        let q = if unb >= F::EMIN {
            unb - fb
        } else {
            F::EMIN - fb
        };
        let shift = e - q; // M = m * 2^shift
        let mm: Integer = if shift >= 0 {
            m << shift as u32
        } else {
            let s = (-shift) as u32;
            assert!(m.find_one(0).unwrap_or(0) >= s, "value not representable");
            m >> s
        };
        let mm = mm.to_u64().expect("fits");
        assert!(unb <= F::EMAX, "value too large");
        if unb >= F::EMIN {
            assert!(mm >> F::FRAC_BITS == 1);
            sign | (((unb + F::BIAS) as u64) << F::FRAC_BITS) | (mm & F::FRAC_MASK)
        } else {
            assert!(mm < F::HIDDEN);
            sign | mm
        }
    }

    fn pow2(e: i32) -> Float {
        let mut x = Float::with_val(8, 1);
        x <<= e;
        x
    }

    /// Round a computation to `F` as IEEE 754 does. `f(prec, round)` must
    /// return MPFR's correctly rounded result at `prec` bits with
    /// MPFR's (unbounded) exponent range and its ternary value.
    pub fn ieee<F: Format>(rm: Round, f: impl Fn(u32, MR) -> (Float, Ordering)) -> (u64, Flags) {
        let (mut r, ord) = f(F::PREC, mr(rm));
        if r.is_nan() {
            return (F::CANONICAL_NAN, Flags::INVALID);
        }
        if r.is_zero() || r.is_infinite() {
            assert_eq!(ord, Ordering::Equal);
            return (from_rug::<F>(&r), Flags::NONE);
        }
        let neg = r.is_sign_negative();
        let abs = Float::with_val(F::PREC + 1, r.abs_ref());
        if abs >= pow2(F::EMAX + 1) {
            let to_inf = match rm {
                Round::Rtne => true,
                Round::Ru => !neg,
                Round::Rd => neg,
                Round::Rtz => false,
            };
            let mag = if to_inf { F::INF } else { F::MAX_FINITE };
            let sign = if neg { F::SIGN } else { 0 };
            return (sign | mag, Flags::OVERFLOW | Flags::INEXACT);
        }
        let mut flags = Flags::NONE;
        let min_normal = pow2(F::EMIN);
        if abs < min_normal {
            flags |= Flags::TINY_AFTER;
        }
        let (rz, _) = f(F::PREC, MR::Zero);
        if Float::with_val(F::PREC + 1, rz.abs_ref()) < min_normal {
            flags |= Flags::TINY_BEFORE;
        }
        let ord2 = r.subnormalize_ieee_round(ord, mr(rm));
        if ord2 != Ordering::Equal {
            flags |= Flags::INEXACT;
            if flags.tiny_after_rounding() {
                flags |= Flags::UNDERFLOW;
            }
        }
        (from_rug::<F>(&r), flags)
    }

    fn nan_in<F: Format>(xs: &[u64]) -> Option<(u64, Flags)> {
        if xs.iter().any(|&x| is_nan::<F>(x)) {
            let inv = xs.iter().any(|&x| is_snan::<F>(x));
            Some((
                F::CANONICAL_NAN,
                if inv { Flags::INVALID } else { Flags::NONE },
            ))
        } else {
            None
        }
    }

    pub fn add<F: Format>(a: u64, b: u64, rm: Round) -> (u64, Flags) {
        if let Some(r) = nan_in::<F>(&[a, b]) {
            return r;
        }
        let (x, y) = (to_rug::<F>(a), to_rug::<F>(b));
        ieee::<F>(rm, |p, r| Float::with_val_round(p, &x + &y, r))
    }

    pub fn sub<F: Format>(a: u64, b: u64, rm: Round) -> (u64, Flags) {
        if let Some(r) = nan_in::<F>(&[a, b]) {
            return r;
        }
        let (x, y) = (to_rug::<F>(a), to_rug::<F>(b));
        ieee::<F>(rm, |p, r| Float::with_val_round(p, &x - &y, r))
    }

    pub fn mul<F: Format>(a: u64, b: u64, rm: Round) -> (u64, Flags) {
        if let Some(r) = nan_in::<F>(&[a, b]) {
            return r;
        }
        let (x, y) = (to_rug::<F>(a), to_rug::<F>(b));
        ieee::<F>(rm, |p, r| Float::with_val_round(p, &x * &y, r))
    }

    pub fn fma<F: Format>(a: u64, b: u64, c: u64, rm: Round) -> (u64, Flags) {
        let inf_zero = |x: u64, y: u64| euref::fp::is_inf::<F>(x) && euref::fp::is_zero::<F>(y);
        if inf_zero(a, b) || inf_zero(b, a) {
            // invalid even when c is a quiet NaN (documented choice)
            return (F::CANONICAL_NAN, Flags::INVALID);
        }
        if let Some(r) = nan_in::<F>(&[a, b, c]) {
            return r;
        }
        let (x, y, z) = (to_rug::<F>(a), to_rug::<F>(b), to_rug::<F>(c));
        ieee::<F>(rm, |p, r| {
            Float::with_val_round(p, x.mul_add_ref(&y, &z), r)
        })
    }

    pub fn div<F: Format>(a: u64, b: u64, rm: Round) -> (u64, Flags) {
        if let Some(r) = nan_in::<F>(&[a, b]) {
            return r;
        }
        let (x, y) = (to_rug::<F>(a), to_rug::<F>(b));
        let (bits, mut flags) = ieee::<F>(rm, |p, r| Float::with_val_round(p, &x / &y, r));
        if y.is_zero() && !x.is_zero() && x.is_finite() {
            flags |= Flags::DIV_BY_ZERO;
        }
        (bits, flags)
    }

    pub fn sqrt<F: Format>(a: u64, rm: Round) -> (u64, Flags) {
        if let Some(r) = nan_in::<F>(&[a]) {
            return r;
        }
        let x = to_rug::<F>(a);
        ieee::<F>(rm, |p, r| Float::with_val_round(p, x.sqrt_ref(), r))
    }

    /// Round to integral; inexact when the value changes.
    pub fn round_to_integral<F: Format>(a: u64, rm: Round) -> (u64, Flags) {
        if let Some(r) = nan_in::<F>(&[a]) {
            return r;
        }
        let x = to_rug::<F>(a);
        let p = F::PREC;
        let y = match rm {
            Round::Rtne => Float::with_val(p, x.round_even_ref()),
            Round::Ru => Float::with_val(p, x.ceil_ref()),
            Round::Rd => Float::with_val(p, x.floor_ref()),
            Round::Rtz => Float::with_val(p, x.trunc_ref()),
        };
        let flags = if y != x { Flags::INEXACT } else { Flags::NONE };
        (from_rug::<F>(&y), flags)
    }

    pub fn convert<S: Format, D: Format>(a: u64, rm: Round) -> (u64, Flags) {
        if let Some((_, f)) = nan_in::<S>(&[a]) {
            return (D::CANONICAL_NAN, f);
        }
        let x = to_rug::<S>(a);
        ieee::<D>(rm, |p, r| Float::with_val_round(p, &x, r))
    }

    pub fn from_i64<F: Format>(v: i64, rm: Round) -> (u64, Flags) {
        ieee::<F>(rm, |p, r| Float::with_val_round(p, v, r))
    }

    pub fn from_u64<F: Format>(v: u64, rm: Round) -> (u64, Flags) {
        ieee::<F>(rm, |p, r| Float::with_val_round(p, v, r))
    }

    fn to_int<F: Format>(a: u64, rm: Round) -> Result<Integer, ToInt<()>> {
        if is_nan::<F>(a) {
            return Err(ToInt::Nan);
        }
        let x = to_rug::<F>(a);
        if x.is_infinite() {
            return Err(if x.is_sign_negative() {
                ToInt::NegOverflow
            } else {
                ToInt::PosOverflow
            });
        }
        let (i, _) = x.to_integer_round(mr(rm)).expect("finite");
        Ok(i)
    }

    pub fn to_i64<F: Format>(a: u64, rm: Round) -> ToInt<i64> {
        match to_int::<F>(a, rm) {
            Err(ToInt::Nan) => ToInt::Nan,
            Err(ToInt::NegOverflow) => ToInt::NegOverflow,
            Err(_) => ToInt::PosOverflow,
            Ok(i) => match i.to_i64() {
                Some(v) => ToInt::Value(v),
                None if i < 0 => ToInt::NegOverflow,
                None => ToInt::PosOverflow,
            },
        }
    }

    pub fn to_u64<F: Format>(a: u64, rm: Round) -> ToInt<u64> {
        match to_int::<F>(a, rm) {
            Err(ToInt::Nan) => ToInt::Nan,
            Err(ToInt::NegOverflow) => ToInt::NegOverflow,
            Err(_) => ToInt::PosOverflow,
            Ok(i) => match i.to_u64() {
                Some(v) => ToInt::Value(v),
                None if i < 0 => ToInt::NegOverflow,
                None => ToInt::PosOverflow,
            },
        }
    }

    pub fn compare<F: Format>(a: u64, b: u64) -> FpOrd {
        if is_nan::<F>(a) || is_nan::<F>(b) {
            return FpOrd::Unordered;
        }
        match to_rug::<F>(a).partial_cmp(&to_rug::<F>(b)) {
            Some(Ordering::Less) => FpOrd::Less,
            Some(Ordering::Equal) => FpOrd::Equal,
            Some(Ordering::Greater) => FpOrd::Greater,
            None => FpOrd::Unordered,
        }
    }
}

#[cfg(feature = "oracles")]
pub mod sf {
    //! The SoftFloat oracle (8086-SSE specialisation; see the module doc
    //! for the NaN caveat).
    use super::*;
    use euref::fp::{FpOrd, Hf, ToInt, F32, F64};
    use softfloat_wrapper::{
        ExceptionFlags, Float as SfFloat, RoundingMode, F16, F32 as S32, F64 as S64,
    };

    pub fn rmode(rm: Round) -> RoundingMode {
        match rm {
            Round::Rtne => RoundingMode::TiesToEven,
            Round::Ru => RoundingMode::TowardPositive,
            Round::Rd => RoundingMode::TowardNegative,
            Round::Rtz => RoundingMode::TowardZero,
        }
    }

    /// Run `f` with cleared (thread-local) SoftFloat flags; return its
    /// value and our view of the five IEEE flags.
    pub fn with_flags<T>(f: impl FnOnce() -> T) -> (T, Flags) {
        ExceptionFlags::default().set();
        let v = f();
        let mut e = ExceptionFlags::default();
        e.get();
        let mut fl = Flags::NONE;
        if e.is_invalid() {
            fl |= Flags::INVALID;
        }
        if e.is_infinite() {
            fl |= Flags::DIV_BY_ZERO;
        }
        if e.is_overflow() {
            fl |= Flags::OVERFLOW;
        }
        if e.is_underflow() {
            fl |= Flags::UNDERFLOW;
        }
        if e.is_inexact() {
            fl |= Flags::INEXACT;
        }
        (v, fl)
    }

    /// The SoftFloat type for a format, with conversions from/to bits.
    pub trait SfOf: Format {
        type T: SfFloat;
        fn wrap(bits: u64) -> Self::T;
        fn unwrap(x: &Self::T) -> u64;
    }
    impl SfOf for Hf {
        type T = F16;
        fn wrap(bits: u64) -> F16 {
            F16::from_bits(bits as u16)
        }
        fn unwrap(x: &F16) -> u64 {
            x.to_bits() as u64
        }
    }
    impl SfOf for F32 {
        type T = S32;
        fn wrap(bits: u64) -> S32 {
            S32::from_bits(bits as u32)
        }
        fn unwrap(x: &S32) -> u64 {
            x.to_bits() as u64
        }
    }
    impl SfOf for F64 {
        type T = S64;
        fn wrap(bits: u64) -> S64 {
            S64::from_bits(bits)
        }
        fn unwrap(x: &S64) -> u64 {
            x.to_bits()
        }
    }

    pub fn add<F: SfOf>(a: u64, b: u64, rm: Round) -> (u64, Flags) {
        let (r, f) = with_flags(|| F::wrap(a).add(F::wrap(b), rmode(rm)));
        (F::unwrap(&r), f)
    }
    pub fn sub<F: SfOf>(a: u64, b: u64, rm: Round) -> (u64, Flags) {
        let (r, f) = with_flags(|| F::wrap(a).sub(F::wrap(b), rmode(rm)));
        (F::unwrap(&r), f)
    }
    pub fn mul<F: SfOf>(a: u64, b: u64, rm: Round) -> (u64, Flags) {
        let (r, f) = with_flags(|| F::wrap(a).mul(F::wrap(b), rmode(rm)));
        (F::unwrap(&r), f)
    }
    pub fn fma<F: SfOf>(a: u64, b: u64, c: u64, rm: Round) -> (u64, Flags) {
        let (r, f) = with_flags(|| F::wrap(a).fused_mul_add(F::wrap(b), F::wrap(c), rmode(rm)));
        (F::unwrap(&r), f)
    }
    pub fn div<F: SfOf>(a: u64, b: u64, rm: Round) -> (u64, Flags) {
        let (r, f) = with_flags(|| F::wrap(a).div(F::wrap(b), rmode(rm)));
        (F::unwrap(&r), f)
    }
    pub fn sqrt<F: SfOf>(a: u64, rm: Round) -> (u64, Flags) {
        let (r, f) = with_flags(|| F::wrap(a).sqrt(rmode(rm)));
        (F::unwrap(&r), f)
    }
    /// Note: the wrapper calls roundToInt with exact = false, so SoftFloat
    /// does not raise inexact here.
    pub fn round_to_integral<F: SfOf>(a: u64, rm: Round) -> (u64, Flags) {
        let (r, f) = with_flags(|| F::wrap(a).round_to_integral(rmode(rm)));
        (F::unwrap(&r), f)
    }
    pub fn convert<S: SfOf, D: SfOf>(a: u64, rm: Round) -> (u64, Flags) {
        let x = S::wrap(a);
        let rmd = rmode(rm);
        let (bits, f) = with_flags(|| match D::FMT {
            euref::fp::Fmt::Hf => x.to_f16(rmd).to_bits() as u64,
            euref::fp::Fmt::F => x.to_f32(rmd).to_bits() as u64,
            euref::fp::Fmt::Df => x.to_f64(rmd).to_bits(),
        });
        (bits, f)
    }
    pub fn from_i64<F: SfOf>(v: i64, rm: Round) -> (u64, Flags) {
        let (r, f) = with_flags(|| F::T::from_i64(v, rmode(rm)));
        (F::unwrap(&r), f)
    }
    pub fn from_u64<F: SfOf>(v: u64, rm: Round) -> (u64, Flags) {
        let (r, f) = with_flags(|| F::T::from_u64(v, rmode(rm)));
        (F::unwrap(&r), f)
    }
    /// SoftFloat signals NaN/overflow with invalid and a fixed pattern;
    /// returns `None` for those.
    pub fn to_i64<F: SfOf>(a: u64, rm: Round) -> Option<i64> {
        let (v, f) = with_flags(|| F::wrap(a).to_i64(rmode(rm), false));
        if f.invalid() {
            None
        } else {
            Some(v)
        }
    }
    pub fn to_u64<F: SfOf>(a: u64, rm: Round) -> Option<u64> {
        let (v, f) = with_flags(|| F::wrap(a).to_u64(rmode(rm), false));
        if f.invalid() {
            None
        } else {
            Some(v)
        }
    }
    pub fn compare<F: SfOf>(a: u64, b: u64) -> FpOrd {
        let (x, y) = (F::wrap(a), F::wrap(b));
        if x.is_nan() || y.is_nan() {
            return FpOrd::Unordered;
        }
        if x.eq(&y) {
            FpOrd::Equal
        } else if x.lt_quiet(&y) {
            FpOrd::Less
        } else {
            FpOrd::Greater
        }
    }

    /// Is a SoftFloat result consistent with ours? NaN-ness only for NaN
    /// results (SoftFloat's NaNs carry its own sign/payload).
    pub fn same<F: Format>(ours: u64, theirs: u64) -> bool {
        if euref::fp::is_nan::<F>(ours) || euref::fp::is_nan::<F>(theirs) {
            euref::fp::is_nan::<F>(ours) && euref::fp::is_nan::<F>(theirs)
        } else {
            ours == theirs
        }
    }

    /// The five IEEE flags (SoftFloat knows no tiny flags).
    pub fn ieee5(f: Flags) -> Flags {
        f.without(Flags::TINY_BEFORE | Flags::TINY_AFTER)
    }

    pub fn to_int_matches<T: PartialEq + Copy>(ours: ToInt<T>, theirs: Option<T>) -> bool {
        match (ours, theirs) {
            (ToInt::Value(a), Some(b)) => a == b,
            (ToInt::Value(_), None) => false,
            (_, None) => true,
            (_, Some(_)) => false,
        }
    }
}
