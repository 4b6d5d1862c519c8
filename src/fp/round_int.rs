//! Round to an integral value in the same format (rndd/rndu/rnde/rndz).

use super::classify::is_snan;
use super::flags::{Flags, FpResult};
use super::format::{fields, Format};
use super::round::{nan_result, round_up, zero, Round};

/// Round `a` to an integral value of the same format in direction `rm`.
///
/// The result is exact (an integral value needs no further rounding) and a
/// zero result keeps the sign of `a` (e.g. `rndu(-0.5) = -0`,
/// `rndz(-0.7) = -0`). `inexact` is raised when the result differs from
/// `a` (IEEE roundToIntegralExact); callers modelling roundToIntegral
/// without inexact ignore it. Infinities pass through; NaNs give the
/// canonical NaN (invalid for a signaling NaN).
pub fn round_to_integral<F: Format>(a: u64, rm: Round) -> FpResult {
    let a = a & F::MASK;
    let f = fields::<F>(a);
    if f.exp == F::EXP_FIELD_MAX {
        if f.frac != 0 {
            return nan_result::<F>(is_snan::<F>(a));
        }
        return FpResult::exact(a);
    }
    let e = f.exp as i32 - F::BIAS; // unbiased (denormals: below EMIN)
    if e >= F::FRAC_BITS as i32 {
        return FpResult::exact(a); // already integral
    }
    if a & !F::SIGN == 0 {
        return FpResult::exact(a);
    }
    if e < 0 {
        // 0 < |a| < 1: the result is 0 or 1 in magnitude.
        let one = match rm {
            // |a| > 1/2 (exactly 1/2 ties to the even 0)
            Round::Rtne => e == -1 && f.frac != 0,
            Round::Ru => !f.sign,
            Round::Rd => f.sign,
            Round::Rtz => false,
        };
        let mag = if one {
            (F::BIAS as u64) << F::FRAC_BITS
        } else {
            0
        };
        return FpResult::new(zero::<F>(f.sign) | mag, Flags::INEXACT);
    }
    // 0 <= e < FRAC_BITS: drop the low FRAC_BITS - e fraction bits.
    let fb = (F::FRAC_BITS as i32 - e) as u32; // 1..=FRAC_BITS
    let mask = (1u64 << fb) - 1;
    let rbits = a & mask;
    if rbits == 0 {
        return FpResult::exact(a);
    }
    let mut r = a & !mask;
    if round_up(rm, f.sign, (a >> fb) & 1 != 0, rbits, 1u64 << (fb - 1)) {
        // A carry out of the fraction bumps the exponent: still exact.
        r += 1u64 << fb;
    }
    FpResult::new(r, Flags::INEXACT)
}
