//! Addition and subtraction.

use super::classify::{is_inf, is_nan, is_snan};
use super::fast;
use super::flags::FpResult;
use super::format::{fields, normalise, Format};
use super::round::{exact_finite, invalid, nan_result, round_pack_u64, shr_jam64, zero, Round};

/// `a + b`, correctly rounded in `rm`.
#[inline]
pub fn add<F: Format>(a: u64, b: u64, rm: Round) -> FpResult {
    if rm == Round::Rtne {
        if let Some(r) = fast::add_rtne::<F>(a, b) {
            return r;
        }
    }
    add_exact::<F>(a, b, rm)
}

/// `a - b`, correctly rounded in `rm` (`a + (-b)`).
#[inline]
pub fn sub<F: Format>(a: u64, b: u64, rm: Round) -> FpResult {
    add::<F>(a, b ^ F::SIGN, rm)
}

/// `a + b` by the general path (no fast path); same results as [`add`].
pub fn add_exact<F: Format>(a: u64, b: u64, rm: Round) -> FpResult {
    let a = a & F::MASK;
    let b = b & F::MASK;
    let fa = fields::<F>(a);
    let fb = fields::<F>(b);
    if fa.exp == F::EXP_FIELD_MAX || fb.exp == F::EXP_FIELD_MAX {
        return add_special::<F>(a, b);
    }
    let mag_a = a & !F::SIGN;
    let mag_b = b & !F::SIGN;
    if mag_a == 0 || mag_b == 0 {
        if mag_a == 0 && mag_b == 0 {
            // Exact zero sum: the common sign, else +0 (-0 when rounding down).
            let sign = if fa.sign == fb.sign {
                fa.sign
            } else {
                rm == Round::Rd
            };
            return FpResult::exact(zero::<F>(sign));
        }
        return exact_finite::<F>(if mag_a == 0 { b } else { a });
    }
    // x is the operand of larger magnitude (encodings order like magnitudes).
    let (x, y) = if mag_a >= mag_b { (a, b) } else { (b, a) };
    let x = normalise::<F>(fields::<F>(x));
    let y = normalise::<F>(fields::<F>(y));
    // Leading ones at bit 61: one bit of headroom for the carry, and at
    // least 9 zero bits below the LSB, so a jammed y stays far below the
    // rounding position even after a one-bit cancellation.
    let mx = x.sig << (F::RSHIFT - 1);
    let d = x.exp.wrapping_sub(y.exp) as u32;
    let my = shr_jam64(y.sig << (F::RSHIFT - 1), d);
    let m = add_or_sub(mx, my, x.sign != y.sign);
    if m == 0 {
        return FpResult::exact(zero::<F>(rm == Round::Rd));
    }
    // m * 2^(x.exp - 61)
    round_pack_u64::<F>(x.sign, x.exp - 61, m, rm)
}

/// `mx + my`, or `mx - my` when `sub` (mx >= my), without a data branch.
#[inline(always)]
pub(super) fn add_or_sub(mx: u64, my: u64, sub: bool) -> u64 {
    let neg = 0u64.wrapping_sub(sub as u64);
    mx.wrapping_add((my ^ neg).wrapping_add(sub as u64))
}

#[inline(never)]
fn add_special<F: Format>(a: u64, b: u64) -> FpResult {
    if is_nan::<F>(a) || is_nan::<F>(b) {
        return nan_result::<F>(is_snan::<F>(a) || is_snan::<F>(b));
    }
    if is_inf::<F>(a) {
        if is_inf::<F>(b) && (a ^ b) & F::SIGN != 0 {
            return invalid::<F>();
        }
        return FpResult::exact(a);
    }
    FpResult::exact(b)
}
