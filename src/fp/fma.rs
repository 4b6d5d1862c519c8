//! Fused multiply-add with a single rounding.

use super::add::add_or_sub;
use super::classify::{is_inf, is_nan, is_snan, is_zero};
use super::fast;
use super::flags::FpResult;
use super::format::{fields, normalise, Format};
use super::mul::mul_sigs;
use super::round::{
    exact_finite, inf, invalid, nan_result, round_pack_u128, round_pack_u64, shr_jam128, shr_jam64,
    zero, Round,
};

/// `a * b + c` with a single rounding in `rm`.
///
/// `fma(0, inf, c)` and `fma(inf, 0, c)` signal invalid for every `c`,
/// including a quiet NaN (IEEE 754-2008 leaves the quiet-NaN case to the
/// implementation; this is SoftFloat's choice).
#[inline]
pub fn fma<F: Format>(a: u64, b: u64, c: u64, rm: Round) -> FpResult {
    if rm == Round::Rtne {
        if let Some(r) = fast::fma_rtne::<F>(a, b, c) {
            return r;
        }
    }
    fma_exact::<F>(a, b, c, rm)
}

/// `a * b + c` by the general path (no fast path); same results as [`fma`].
pub fn fma_exact<F: Format>(a: u64, b: u64, c: u64, rm: Round) -> FpResult {
    let a = a & F::MASK;
    let b = b & F::MASK;
    let c = c & F::MASK;
    let fa = fields::<F>(a);
    let fb = fields::<F>(b);
    let fc = fields::<F>(c);
    let sp = fa.sign ^ fb.sign;
    let max = F::EXP_FIELD_MAX;
    if fa.exp == max || fb.exp == max || fc.exp == max {
        return fma_special::<F>(a, b, c, sp);
    }
    let zc = is_zero::<F>(c);
    if is_zero::<F>(a) || is_zero::<F>(b) {
        if zc {
            let sign = if sp == fc.sign { sp } else { rm == Round::Rd };
            return FpResult::exact(zero::<F>(sign));
        }
        return exact_finite::<F>(c);
    }
    let x = normalise::<F>(fa);
    let y = normalise::<F>(fb);
    if zc {
        // Nonzero product + zero: just the rounded product.
        return mul_sigs::<F>(sp, x.exp + y.exp, x.sig, y.sig, rm);
    }
    let z = normalise::<F>(fc);
    fma_core::<F>(sp, x.exp + y.exp, x.sig, y.sig, z.sign, z.exp, z.sig, rm)
}

/// The finite nonzero case: product `ma*mb*2^(exp_sum - 2F)` plus addend
/// `(-1)^sc * mc * 2^(ec - F)`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn fma_core<F: Format>(
    sp: bool,
    exp_sum: i32,
    ma: u64,
    mb: u64,
    sc: bool,
    ec: i32,
    mc: u64,
    rm: Round,
) -> FpResult {
    if 2 * F::PREC <= 60 {
        // HF and F: everything fits a u64 with the leading ones at bit 61;
        // the product keeps all its bits (>= 13 zero bits below them).
        let p = ma * mb; // in [2^2F, 2^(2F+2))
        let p_msb = 63 - p.leading_zeros() as i32;
        let ep = exp_sum + (p_msb - 2 * F::FRAC_BITS as i32);
        let px = p << ((61 - p_msb) as u32 & 63);
        let cx = mc << (61 - F::FRAC_BITS);
        // Which term is larger in magnitude, without a data branch.
        let prod_big = (ep > ec) | ((ep == ec) & (px >= cx));
        let (xs, xe, xm) = select(prod_big, (sp, ep, px), (sc, ec, cx));
        let (ye, ym) = select(prod_big, (ec, cx), (ep, px));
        let ym = shr_jam64(ym, xe.wrapping_sub(ye) as u32);
        let m = add_or_sub(xm, ym, sp != sc);
        if m == 0 {
            return FpResult::exact(zero::<F>(rm == Round::Rd));
        }
        return round_pack_u64::<F>(xs, xe - 61, m, rm);
    }
    let p = ma as u128 * mb as u128; // in [2^2F, 2^(2F+2))
    let p_msb = 127 - p.leading_zeros() as i32;
    // Both terms with their leading one at bit 125; the product keeps all
    // its bits (>= 20 zero bits below them), the addend >= 73 zero bits.
    let ep = exp_sum + (p_msb - 2 * F::FRAC_BITS as i32);
    let px = p << ((125 - p_msb) as u32 & 127);
    let cx = (mc as u128) << (125 - F::FRAC_BITS);
    let prod_big = (ep > ec) | ((ep == ec) & (px >= cx));
    let (xs, xe, xm) = select(prod_big, (sp, ep, px), (sc, ec, cx));
    let (ye, ym) = select(prod_big, (ec, cx), (ep, px));
    let ym = shr_jam128(ym, xe.wrapping_sub(ye) as u32);
    let m = if sp == sc { xm + ym } else { xm - ym };
    if m == 0 {
        return FpResult::exact(zero::<F>(rm == Round::Rd));
    }
    round_pack_u128::<F>(xs, xe - 125, m, rm)
}

/// `if c { a } else { b }`, written for the compiler to emit conditional
/// moves.
#[inline(always)]
fn select<T: Copy>(c: bool, a: T, b: T) -> T {
    if c {
        a
    } else {
        b
    }
}

#[inline(never)]
fn fma_special<F: Format>(a: u64, b: u64, c: u64, sp: bool) -> FpResult {
    let inf_times_zero = (is_inf::<F>(a) && is_zero::<F>(b)) || (is_zero::<F>(a) && is_inf::<F>(b));
    if is_nan::<F>(a) || is_nan::<F>(b) || is_nan::<F>(c) || inf_times_zero {
        return nan_result::<F>(
            inf_times_zero || is_snan::<F>(a) || is_snan::<F>(b) || is_snan::<F>(c),
        );
    }
    if is_inf::<F>(a) || is_inf::<F>(b) {
        if is_inf::<F>(c) && ((c & F::SIGN != 0) != sp) {
            return invalid::<F>();
        }
        return FpResult::exact(inf::<F>(sp));
    }
    // Only c is infinite.
    FpResult::exact(c)
}
