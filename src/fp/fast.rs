//! Fast paths: round-to-nearest-even with normal finite operands and a
//! normal finite result. Each returns `None` whenever it does not apply
//! (special or denormal operand, exact zero, tiny or overflowing result),
//! and the caller falls back to the general path. Property tests check that
//! every `Some` equals the general path bit for bit, flags included.

use super::div::div_sigs;
use super::flags::{Flags, FpResult};
use super::format::Format;
use super::round::shr_jam64;
use super::sqrt::sqrt_sig;

/// Biased exponent field and normalised significand of a *normal* `x`
/// (already masked), or `None`.
#[inline(always)]
fn normal<F: Format>(x: u64) -> Option<(i32, u64)> {
    let e = (x >> F::FRAC_BITS) & F::EXP_FIELD_MAX;
    if e.wrapping_sub(1) >= F::EXP_FIELD_MAX - 1 {
        return None;
    }
    Some((e as i32, (x & F::FRAC_MASK) | F::HIDDEN))
}

/// Round-to-nearest-even and pack `sig * 2^(ebias - BIAS - 62)` (`sig` in
/// `[2^62, 2^63)`, jammed) if the result is a normal finite number.
#[inline(always)]
fn pack_rtne<F: Format>(sign: bool, ebias: i32, sig: u64) -> Option<FpResult> {
    // Normal before rounding (rounding may still carry into infinity,
    // caught below).
    if ebias < 1 || ebias >= F::EXP_FIELD_MAX as i32 {
        return None;
    }
    let sh = F::RSHIFT;
    let rbits = sig & ((1u64 << sh) - 1);
    // Branch-free RTNE: add half - 1 + lsb, truncate.
    let m = (sig + (1u64 << (sh - 1)) - 1 + ((sig >> sh) & 1)) >> sh;
    let packed = (((ebias - 1) as u64) << F::FRAC_BITS) + m;
    if packed >= F::INF {
        return None;
    }
    let flags = Flags::inexact_if(rbits != 0);
    Some(FpResult::new(
        if sign { F::SIGN } else { 0 } | packed,
        flags,
    ))
}

/// Normalise a nonzero jammed `x` standing for `x * 2^(ebias_of_bit_61 - BIAS - 61)`
/// and round-pack it.
#[inline(always)]
fn norm_pack_rtne<F: Format>(sign: bool, ebias61: i32, x: u64) -> Option<FpResult> {
    let lz = x.leading_zeros();
    let (sig, ebias) = if lz == 0 {
        (shr_jam64(x, 1), ebias61 + 2)
    } else {
        (x << ((lz - 1) & 63), ebias61 + 2 - lz as i32)
    };
    pack_rtne::<F>(sign, ebias, sig)
}

/// Fast path of `add` (RTNE).
#[inline(always)]
pub fn add_rtne<F: Format>(a: u64, b: u64) -> Option<FpResult> {
    let a = a & F::MASK;
    let b = b & F::MASK;
    let (x, y) = if a & !F::SIGN >= b & !F::SIGN {
        (a, b)
    } else {
        (b, a)
    };
    let (ex, mx) = normal::<F>(x)?;
    let (ey, my) = normal::<F>(y)?;
    let mx = mx << (F::RSHIFT - 1);
    let my = shr_jam64(my << (F::RSHIFT - 1), (ex - ey) as u32);
    let m = super::add::add_or_sub(mx, my, (x ^ y) & F::SIGN != 0);
    if m == 0 {
        return None;
    }
    norm_pack_rtne::<F>(x & F::SIGN != 0, ex, m)
}

/// Fast path of `mul` (RTNE).
#[inline(always)]
pub fn mul_rtne<F: Format>(a: u64, b: u64) -> Option<FpResult> {
    let a = a & F::MASK;
    let b = b & F::MASK;
    let (ea, ma) = normal::<F>(a)?;
    let (eb, mb) = normal::<F>(b)?;
    let sign = (a ^ b) & F::SIGN != 0;
    // Product in [2^2F, 2^(2F+2)); its bit 2F has weight 2^(ea + eb - 2*BIAS).
    let e0 = ea + eb - F::BIAS;
    let f2 = 2 * F::FRAC_BITS;
    if 2 * F::PREC <= 64 {
        let p = ma * mb;
        // Move bit 2F to bit 61.
        norm_pack_rtne::<F>(sign, e0, p << (61 - f2))
    } else {
        let p = ma as u128 * mb as u128;
        // Keep bit 2F at bit 61, jamming the rest.
        let s = f2 - 61;
        let lo = p & ((1u128 << s) - 1);
        let x = (p >> s) as u64 | (lo != 0) as u64;
        norm_pack_rtne::<F>(sign, e0, x)
    }
}

/// Fast path of `fma` (RTNE): all three operands normal.
#[inline(always)]
pub fn fma_rtne<F: Format>(a: u64, b: u64, c: u64) -> Option<FpResult> {
    let a = a & F::MASK;
    let b = b & F::MASK;
    let c = c & F::MASK;
    let (ea, ma) = normal::<F>(a)?;
    let (eb, mb) = normal::<F>(b)?;
    let (ec, mc) = normal::<F>(c)?;
    let sp = (a ^ b) & F::SIGN != 0;
    let sc = c & F::SIGN != 0;
    let r = super::fma::fma_core::<F>(
        sp,
        ea + eb - 2 * F::BIAS,
        ma,
        mb,
        sc,
        ec - F::BIAS,
        mc,
        super::round::Round::Rtne,
    );
    // Accept only normal finite results; the general path would compute
    // the same thing but re-derive the special cases first.
    let mag = r.bits & !F::SIGN;
    if mag < F::MIN_NORMAL || mag >= F::INF {
        return None;
    }
    Some(r)
}

/// Fast path of `div` (RTNE).
#[inline(always)]
pub fn div_rtne<F: Format>(a: u64, b: u64) -> Option<FpResult> {
    let a = a & F::MASK;
    let b = b & F::MASK;
    let (ea, ma) = normal::<F>(a)?;
    let (eb, mb) = normal::<F>(b)?;
    let sign = (a ^ b) & F::SIGN != 0;
    let (q, scale) = div_sigs::<F>(ma, mb);
    // q * 2^(ea - eb + scale): bit 61 of q has weight 2^(ea - eb + scale + 61).
    norm_pack_rtne::<F>(sign, ea - eb + F::BIAS + scale + 61, q)
}

/// Fast path of `sqrt` (RTNE): positive normal operand (the result of a
/// normal is always normal).
#[inline(always)]
pub fn sqrt_rtne<F: Format>(a: u64) -> Option<FpResult> {
    let a = a & F::MASK;
    if a & F::SIGN != 0 {
        return None;
    }
    let (ea, ma) = normal::<F>(a)?;
    let (r, scale) = sqrt_sig::<F>(ea - F::BIAS, ma);
    norm_pack_rtne::<F>(false, scale + 61 + F::BIAS, r)
}
