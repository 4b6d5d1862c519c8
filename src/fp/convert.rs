//! Conversions: float <-> float, integer -> float, float -> integer.

use super::classify::is_snan;
use super::flags::FpResult;
use super::format::{fields, normalise, Format};
use super::round::{inf, nan_result, round_pack, round_pack_u64, round_up, zero, Round};

/// Convert `a` from format `S` to format `D`, rounding in `rm`.
///
/// Widening (and same-format) conversion is exact. Narrowing rounds with
/// full IEEE behaviour (overflow per `rm`, gradual underflow, tiny flags).
/// NaNs give `D`'s canonical NaN (invalid for a signaling NaN).
#[inline]
pub fn convert<S: Format, D: Format>(a: u64, rm: Round) -> FpResult {
    let a = a & S::MASK;
    let f = fields::<S>(a);
    if f.exp == S::EXP_FIELD_MAX {
        if f.frac != 0 {
            return nan_result::<D>(is_snan::<S>(a));
        }
        return FpResult::exact(inf::<D>(f.sign));
    }
    if a & !S::SIGN == 0 {
        return FpResult::exact(zero::<D>(f.sign));
    }
    if D::FRAC_BITS > S::FRAC_BITS && D::EXP_BITS > S::EXP_BITS && f.exp != 0 {
        // Widening a normal: rebias the exponent, shift the fraction.
        let e = (f.exp as i64 - S::BIAS as i64 + D::BIAS as i64) as u64;
        let frac = f.frac << (D::FRAC_BITS - S::FRAC_BITS);
        return FpResult::exact(zero::<D>(f.sign) | (e << D::FRAC_BITS) | frac);
    }
    let n = normalise::<S>(f);
    round_pack::<D>(n.sign, n.exp, n.sig << S::RSHIFT, rm)
}

/// Convert a signed 64-bit integer to `F`, rounding in `rm`. Zero gives +0.
#[inline]
pub fn from_i64<F: Format>(v: i64, rm: Round) -> FpResult {
    if v == 0 {
        return FpResult::exact(0);
    }
    round_pack_u64::<F>(v < 0, 0, v.unsigned_abs(), rm)
}

/// Convert an unsigned 64-bit integer to `F`, rounding in `rm`. Zero gives +0.
#[inline]
pub fn from_u64<F: Format>(v: u64, rm: Round) -> FpResult {
    if v == 0 {
        return FpResult::exact(0);
    }
    round_pack_u64::<F>(false, 0, v, rm)
}

/// Outcome of a float -> integer conversion. The EU layer maps the
/// non-value cases to its saturation table; nothing EU-specific is decided
/// here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToInt<T> {
    /// The rounded value fits the integer type.
    Value(T),
    /// The input was a NaN (either kind, either sign).
    Nan,
    /// The rounded value is above the type's maximum (includes +inf).
    PosOverflow,
    /// The rounded value is below the type's minimum (includes -inf, and
    /// for unsigned types any negative value that does not round to 0).
    NegOverflow,
}

/// Sign and rounded magnitude of `a`, or the special outcome. The
/// magnitude is `None` when it is 2^64 or more.
#[inline]
fn round_mag<F: Format>(a: u64, rm: Round) -> Result<(bool, Option<u64>), ToInt<()>> {
    let a = a & F::MASK;
    let f = fields::<F>(a);
    if f.exp == F::EXP_FIELD_MAX {
        return Err(if f.frac != 0 {
            ToInt::Nan
        } else if f.sign {
            ToInt::NegOverflow
        } else {
            ToInt::PosOverflow
        });
    }
    if a & !F::SIGN == 0 {
        return Ok((f.sign, Some(0)));
    }
    let n = normalise::<F>(f);
    let fbits = F::FRAC_BITS as i32;
    if n.exp >= 64 {
        return Ok((n.sign, None));
    }
    if n.exp >= fbits {
        // Integral already: sig * 2^(exp - FRAC_BITS) < 2^(exp + 1) <= 2^64.
        return Ok((n.sign, Some(n.sig << ((n.exp - fbits) as u32 & 63))));
    }
    if n.exp < -1 {
        // |a| < 1/2: 0, or 1 when rounding away from zero.
        let up = match rm {
            Round::Rtne | Round::Rtz => false,
            Round::Ru => !n.sign,
            Round::Rd => n.sign,
        };
        return Ok((n.sign, Some(up as u64)));
    }
    // -1 <= exp < FRAC_BITS: drop sh = FRAC_BITS - exp bits (1..=FRAC_BITS+1).
    let sh = (fbits - n.exp) as u32;
    let int = n.sig >> sh;
    let rbits = n.sig & ((1u64 << sh) - 1);
    let up = round_up(rm, n.sign, int & 1 != 0, rbits, 1u64 << (sh - 1));
    Ok((n.sign, Some(int + up as u64)))
}

/// Convert `a` to a signed 64-bit integer, rounding in `rm`.
#[inline]
pub fn to_i64<F: Format>(a: u64, rm: Round) -> ToInt<i64> {
    match round_mag::<F>(a, rm) {
        Err(ToInt::Nan) => ToInt::Nan,
        Err(ToInt::NegOverflow) => ToInt::NegOverflow,
        Err(_) => ToInt::PosOverflow,
        Ok((false, Some(m))) if m <= i64::MAX as u64 => ToInt::Value(m as i64),
        Ok((false, _)) => ToInt::PosOverflow,
        // m == 2^63 gives i64::MIN.
        Ok((true, Some(m))) if m <= 1u64 << 63 => ToInt::Value((m as i64).wrapping_neg()),
        Ok((true, _)) => ToInt::NegOverflow,
    }
}

/// Convert `a` to an unsigned 64-bit integer, rounding in `rm`. A negative
/// value that rounds to zero gives `Value(0)`.
#[inline]
pub fn to_u64<F: Format>(a: u64, rm: Round) -> ToInt<u64> {
    match round_mag::<F>(a, rm) {
        Err(ToInt::Nan) => ToInt::Nan,
        Err(ToInt::NegOverflow) => ToInt::NegOverflow,
        Err(_) => ToInt::PosOverflow,
        Ok((false, Some(m))) => ToInt::Value(m),
        Ok((false, None)) => ToInt::PosOverflow,
        Ok((true, Some(0))) => ToInt::Value(0),
        Ok((true, _)) => ToInt::NegOverflow,
    }
}

/// Convert `a` to a signed 64-bit integer, truncating toward zero.
#[inline]
pub fn to_i64_trunc<F: Format>(a: u64) -> ToInt<i64> {
    to_i64::<F>(a, Round::Rtz)
}

/// Convert `a` to an unsigned 64-bit integer, truncating toward zero.
#[inline]
pub fn to_u64_trunc<F: Format>(a: u64) -> ToInt<u64> {
    to_u64::<F>(a, Round::Rtz)
}
