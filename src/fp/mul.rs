//! Multiplication.

use super::classify::{is_nan, is_snan, is_zero};
use super::fast;
use super::flags::FpResult;
use super::format::{fields, normalise, Format};
use super::round::{inf, invalid, nan_result, round_pack_u128, round_pack_u64, zero, Round};

/// `a * b`, correctly rounded in `rm`.
#[inline]
pub fn mul<F: Format>(a: u64, b: u64, rm: Round) -> FpResult {
    if rm == Round::Rtne {
        if let Some(r) = fast::mul_rtne::<F>(a, b) {
            return r;
        }
    }
    mul_exact::<F>(a, b, rm)
}

/// `a * b` by the general path (no fast path); same results as [`mul`].
pub fn mul_exact<F: Format>(a: u64, b: u64, rm: Round) -> FpResult {
    let a = a & F::MASK;
    let b = b & F::MASK;
    let fa = fields::<F>(a);
    let fb = fields::<F>(b);
    let sign = fa.sign ^ fb.sign;
    if fa.exp == F::EXP_FIELD_MAX || fb.exp == F::EXP_FIELD_MAX {
        if is_nan::<F>(a) || is_nan::<F>(b) {
            return nan_result::<F>(is_snan::<F>(a) || is_snan::<F>(b));
        }
        if is_zero::<F>(a) || is_zero::<F>(b) {
            return invalid::<F>();
        }
        return FpResult::exact(inf::<F>(sign));
    }
    if is_zero::<F>(a) || is_zero::<F>(b) {
        return FpResult::exact(zero::<F>(sign));
    }
    let x = normalise::<F>(fa);
    let y = normalise::<F>(fb);
    mul_sigs::<F>(sign, x.exp + y.exp, x.sig, y.sig, rm)
}

/// Round the exact product `ma * mb * 2^(exp_sum - 2*FRAC_BITS)` of two
/// normalised significands.
#[inline(always)]
pub(super) fn mul_sigs<F: Format>(
    sign: bool,
    exp_sum: i32,
    ma: u64,
    mb: u64,
    rm: Round,
) -> FpResult {
    let scale = exp_sum - 2 * F::FRAC_BITS as i32;
    if 2 * F::PREC <= 64 {
        round_pack_u64::<F>(sign, scale, ma * mb, rm)
    } else {
        round_pack_u128::<F>(sign, scale, ma as u128 * mb as u128, rm)
    }
}
