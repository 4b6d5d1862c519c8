//! Division.

use super::classify::{is_inf, is_nan, is_snan, is_zero};
use super::fast;
use super::flags::{Flags, FpResult};
use super::format::{fields, normalise, Format};
use super::round::{inf, invalid, nan_result, round_pack_u64, zero, Round};

/// `a / b`, correctly rounded in `rm`.
#[inline]
pub fn div<F: Format>(a: u64, b: u64, rm: Round) -> FpResult {
    if rm == Round::Rtne {
        if let Some(r) = fast::div_rtne::<F>(a, b) {
            return r;
        }
    }
    div_exact::<F>(a, b, rm)
}

/// `a / b` by the general path (no fast path); same results as [`div`].
pub fn div_exact<F: Format>(a: u64, b: u64, rm: Round) -> FpResult {
    let a = a & F::MASK;
    let b = b & F::MASK;
    let fa = fields::<F>(a);
    let fb = fields::<F>(b);
    let sign = fa.sign ^ fb.sign;
    if fa.exp == F::EXP_FIELD_MAX || fb.exp == F::EXP_FIELD_MAX {
        if is_nan::<F>(a) || is_nan::<F>(b) {
            return nan_result::<F>(is_snan::<F>(a) || is_snan::<F>(b));
        }
        if is_inf::<F>(a) {
            if is_inf::<F>(b) {
                return invalid::<F>();
            }
            return FpResult::exact(inf::<F>(sign));
        }
        // finite / inf
        return FpResult::exact(zero::<F>(sign));
    }
    if is_zero::<F>(b) {
        if is_zero::<F>(a) {
            return invalid::<F>();
        }
        return FpResult::new(inf::<F>(sign), Flags::DIV_BY_ZERO);
    }
    if is_zero::<F>(a) {
        return FpResult::exact(zero::<F>(sign));
    }
    let x = normalise::<F>(fa);
    let y = normalise::<F>(fb);
    let (q, scale) = div_sigs::<F>(x.sig, y.sig);
    round_pack_u64::<F>(sign, x.exp - y.exp + scale, q, rm)
}

/// Jammed quotient of two normalised significands: `(q, scale)` with
/// `ma / mb ~= q * 2^scale`, `q` having at least `FRAC_BITS + 3`
/// significant bits and bit 0 set iff the division was inexact.
#[inline(always)]
pub(super) fn div_sigs<F: Format>(ma: u64, mb: u64) -> (u64, i32) {
    // mb >= 2^FRAC_BITS > 0 for a normalised significand.
    if F::FRAC_BITS <= 29 {
        // ma << k < 2^63; q in (2^(k-1), 2^(k+1)) with k - 1 >= FRAC_BITS + 2.
        let k = 62 - F::FRAC_BITS;
        let num = ma << k;
        let q = num / mb;
        let r = num % mb;
        (q | (r != 0) as u64, -(k as i32))
    } else {
        // ma << 63 < 2^(FRAC_BITS + 64); q in (2^62, 2^64).
        let num = (ma as u128) << 63;
        let den = mb as u128;
        let q = num / den;
        let r = num % den;
        (q as u64 | (r != 0) as u64, -63)
    }
}
