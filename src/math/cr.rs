//! Correctly rounded (round to nearest even) F and HF results of the math
//! functions, for operands that no special-case row covers.
//!
//! Strategy (Ziv): a fast binary64 approximation from the `libm` crate (a
//! pure-Rust port of musl, identical on every host) with a generous error
//! bound; if both ends of the error interval round to the same F/HF value,
//! that is the answer. Otherwise (about one case in 2^20) the slow path
//! evaluates the function in 256-bit fixed point ([`super::mp`]) with a
//! proven error bound and decides again. Exact results (2^n, log2 of a power
//! of two, x^y with a short exact value) are found first and rounded
//! directly, since an exact result on a rounding boundary can never be
//! decided by approximation. RSQ is decided exactly with integer arithmetic;
//! INV, SQRT and FDIV come from the IEEE core ([`crate::fp`]).
//!
//! Operands are bit patterns of `T` (F32 or Hf); results are bit patterns of
//! `T`. No allocation, no panics.

use super::mp::{self, Fx, SFx};
use crate::fp::{self, Format, Round, F64};

/// Bound on the relative error assumed of the libm binary64 functions used
/// on the fast path (musl's exp2, log2, sin, cos and pow are within 1-2
/// binary64 ULPs; this allows 2^7 times more). The interval is widened to
/// 2^-44 to absorb the rounding of its own endpoints.
const FAST_REL: f64 = 1.0 / (1u64 << 44) as f64;

/// The binary64 value of an F/HF bit pattern (exact).
pub(crate) fn to_f64<T: Format>(bits: u64) -> f64 {
    f64::from_bits(fp::convert::<T, F64>(bits, Round::Rtne).bits)
}

/// Round a binary64 bit pattern to `T`, nearest even (gradual underflow).
pub(crate) fn round<T: Format>(bits64: u64) -> u64 {
    fp::convert::<F64, T>(bits64, Round::Rtne).bits
}

/// `T` bits of +1.0.
pub(crate) fn one<T: Format>() -> u64 {
    (T::BIAS as u64) << T::FRAC_BITS
}

/// A finite nonzero value as `(negative, m, e)` with value `m * 2^e`.
pub(crate) fn dyadic<T: Format>(bits: u64) -> (bool, u64, i32) {
    let bits = bits & T::MASK;
    let neg = bits & T::SIGN != 0;
    let exp = (bits >> T::FRAC_BITS) & T::EXP_FIELD_MAX;
    let frac = bits & T::FRAC_MASK;
    if exp == 0 {
        (neg, frac, T::EMIN - T::FRAC_BITS as i32)
    } else {
        (
            neg,
            frac | T::HIDDEN,
            exp as i32 - T::BIAS - T::FRAC_BITS as i32,
        )
    }
}

/// The interval `y * (1 -+ FAST_REL)` rounds to a single `T` value.
fn decide_f64<T: Format>(y: f64) -> Option<u64> {
    if y.is_nan() {
        return None;
    }
    if y.is_infinite() || y.abs().to_bits() == 0 {
        return Some(round::<T>(y.to_bits()));
    }
    let d = y.abs() * FAST_REL;
    let a = round::<T>((y - d).to_bits());
    let b = round::<T>((y + d).to_bits());
    (a == b).then_some(a)
}

/// binary64 bits of `(-1)^neg * v * 2^scale`, rounded to odd.
fn fx_bits(neg: bool, v: &Fx, scale: i64) -> u64 {
    v.to_f64_odd(scale) | if neg { 1u64 << 63 } else { 0 }
}

/// The interval `v -+ err` (times `2^scale`, sign `neg`) rounds to a single
/// `T` value; otherwise the rounding of `v` itself (best effort: reached only
/// if the exact value is within 2^-200 relative of a rounding boundary
/// without being exact, which the exact-case checks exclude in practice).
fn decide_fx<T: Format>(neg: bool, v: &Fx, err: &Fx, scale: i64) -> u64 {
    let a = round::<T>(fx_bits(neg, &v.sub_sat(err), scale));
    let b = round::<T>(fx_bits(neg, &v.add(err), scale));
    if a == b {
        a
    } else {
        round::<T>(fx_bits(neg, v, scale))
    }
}

/// binary64 bits of `m * 2^e` (m < 2^53), clamped to 2^+-1000 outside the
/// range (which rounds like the exact value in F and HF).
fn exact_bits(m: u64, e: i64) -> u64 {
    if m == 0 {
        return 0;
    }
    let top = e + 63 - m.leading_zeros() as i64;
    if top > 1000 {
        return ((1000 + 1023) as u64) << 52;
    }
    if top < -1000 {
        return ((1023 - 1000) as u64) << 52;
    }
    // Bring the leading one to bit 52 (m >= 2^53 does not occur; it would be
    // rounded to odd).
    let lz = m.leading_zeros();
    let sig = if lz >= 11 {
        m << (lz - 11)
    } else {
        let sh = 11 - lz;
        (m >> sh) | (m & ((1u64 << sh) - 1) != 0) as u64
    };
    (((top + 1023) as u64) << 52) | (sig & ((1u64 << 52) - 1))
}

/// `floor` of a signed fixed-point value: `(n, f)` with value `n + f`, `f`
/// in [0, 1).
fn split(t: &SFx) -> (i64, Fx) {
    let k = t.mag.int_part() as i64;
    let fr = t.mag.frac();
    if !t.neg {
        (k, fr)
    } else if fr.is_zero() {
        (-k, Fx::ZERO)
    } else {
        (-(k + 1), Fx::ONE.sub_sat(&fr))
    }
}

// ------------------------------------------------------------------ EXP

/// `2^x`, `x` finite.
pub(crate) fn exp2<T: Format>(x: u64, fast: bool) -> u64 {
    let xf = to_f64::<T>(x);
    if xf > 2000.0 {
        return round::<T>(exact_bits(1, 2000));
    }
    if xf < -2000.0 {
        return round::<T>(exact_bits(1, -2000));
    }
    if libm::trunc(xf).to_bits() == xf.to_bits() {
        // Exact power of two (may be a tie between 0 and the smallest denormal).
        return round::<T>(exact_bits(1, xf as i64));
    }
    if fast {
        if let Some(r) = decide_f64::<T>(libm::exp2(xf)) {
            return r;
        }
    }
    let (neg, m, e) = dyadic::<T>(x);
    let Some(mag) = Fx::from_dyadic(m, e) else {
        return round::<T>(exact_bits(1, if neg { -2000 } else { 2000 }));
    };
    let (n, f) = split(&SFx::new(neg, mag));
    let v = mp::exp2_frac(&f);
    decide_fx::<T>(false, &v, &mp::ERR, n)
}

// ------------------------------------------------------------------ LOG

/// `log2(x) = e + log2(mant)` in fixed point, `x` positive finite.
fn log2_fx<T: Format>(x: u64) -> SFx {
    let (_, m, e) = dyadic::<T>(x);
    let bits = 64 - m.leading_zeros() as i32; // m in [2^(bits-1), 2^bits)
    let ex = e + bits - 1;
    let mant = Fx::from_dyadic(m, -(bits - 1)).unwrap_or(Fx::ONE);
    let lm = mp::log2_mant(&mant);
    SFx::new(ex < 0, Fx::int(ex.unsigned_abs() as u64)).add(&lm)
}

/// `log2(x)`, `x` positive finite.
pub(crate) fn log2<T: Format>(x: u64, fast: bool) -> u64 {
    let (_, m, e) = dyadic::<T>(x);
    if m.is_power_of_two() {
        let k = e as i64 + m.trailing_zeros() as i64;
        return fp::from_i64::<T>(k, Round::Rtne).bits;
    }
    if fast {
        if let Some(r) = decide_f64::<T>(libm::log2(to_f64::<T>(x))) {
            return r;
        }
    }
    let l = log2_fx::<T>(x);
    decide_fx::<T>(l.neg, &l.mag, &mp::ERR, 0)
}

// ------------------------------------------------------------------ SIN, COS

/// sin (or cos) of `x`, finite.
pub(crate) fn sincos<T: Format>(x: u64, want_cos: bool, fast: bool) -> u64 {
    let xf = to_f64::<T>(x);
    if fast {
        let y = if want_cos {
            libm::cos(xf)
        } else {
            libm::sin(xf)
        };
        if let Some(r) = decide_f64::<T>(y) {
            return r;
        }
    }
    let (neg, m, e) = dyadic::<T>(x);
    // |x| < 0.78 < pi/4: no reduction, theta = |x| exactly.
    let (j, theta, rneg, err) = if xf.abs() < 0.78 {
        (0, Fx::from_dyadic(m, e).unwrap_or(Fx::ZERO), false, mp::ERR)
    } else {
        let (j, r, rneg) = mp::reduce_pi_2(m, e);
        // r errs by under m LSB; theta = r * pi/2 by under 2m + 2.
        let err = mp::ERR.add(&Fx([m.saturating_mul(4), 0, 0, 0, 0]));
        (j, r.mul(&mp::PI_2), rneg, err)
    };
    let (s, c) = mp::sincos_small(&theta);
    // x * 2/pi = j + r: sin(x) = sin(j pi/2 + theta'), theta' = -+theta.
    let (mag, mneg) = match (want_cos, j) {
        (false, 0) => (s, rneg),
        (false, 1) => (c, false),
        (false, 2) => (s, !rneg),
        (false, _) => (c, true),
        (true, 0) => (c, false),
        (true, 1) => (s, !rneg),
        (true, 2) => (c, true),
        (true, _) => (s, rneg),
    };
    // sin is odd, cos even.
    let rneg = if want_cos { mneg } else { mneg ^ neg };
    decide_fx::<T>(rneg, &mag, &err, 0)
}

// ------------------------------------------------------------------ RSQ

/// Compare `mid^2 * x` with 1 exactly, for positive dyadics
/// `mid = mm * 2^me` (mm < 2^27) and `x = mx * 2^xe` (mx < 2^25):
/// returns `Less`, `Equal` or `Greater`.
fn cmp_sq_times(mm: u64, me: i64, mx: u64, xe: i64) -> core::cmp::Ordering {
    use core::cmp::Ordering::*;
    let p = (mm as u128) * (mm as u128) * (mx as u128); // < 2^79, nonzero
    let k = 2 * me + xe; // value = p * 2^k
    if k > 0 {
        return Greater;
    }
    let nk = -k;
    if nk >= 127 {
        return Less;
    }
    p.cmp(&(1u128 << nk))
}

/// Positive finite `T` bits as a dyadic with a common exponent helper.
fn pos_dyadic<T: Format>(bits: u64) -> (u64, i64) {
    let (_, m, e) = dyadic::<T>(bits);
    (m, e as i64)
}

/// Midpoint of two positive finite `T` values (exact dyadic).
fn midpoint<T: Format>(a: u64, b: u64) -> (u64, i64) {
    let (ma, ea) = pos_dyadic::<T>(a);
    let (mb, eb) = pos_dyadic::<T>(b);
    let e = ea.min(eb);
    let sa = ((ea - e) as u32).min(40);
    let sb = ((eb - e) as u32).min(40);
    ((ma << sa) + (mb << sb), e - 1)
}

/// `1/sqrt(x)`, `x` positive finite: candidate from binary64, then the
/// midpoints on either side are compared with the exact value using
/// `1/sqrt(x) > mid  <=>  mid^2 * x < 1` in integers. The result is always
/// a normal number (F: 2^-64 .. 2^74.5; HF: 2^-8 .. 2^12).
pub(crate) fn rsq<T: Format>(x: u64) -> u64 {
    use core::cmp::Ordering::*;
    let xf = to_f64::<T>(x);
    let mut c = round::<T>((1.0 / libm::sqrt(xf)).to_bits());
    let (mx, xe) = pos_dyadic::<T>(x);
    for _ in 0..4 {
        let lo = c.saturating_sub(1);
        let hi = c + 1;
        if c > 1 {
            let (mm, me) = midpoint::<T>(lo, c);
            // value below the lower midpoint: mid^2 * x > 1
            if cmp_sq_times(mm, me, mx, xe) == Greater {
                c = lo;
                continue;
            }
        }
        if hi < T::INF {
            let (mm, me) = midpoint::<T>(c, hi);
            if cmp_sq_times(mm, me, mx, xe) == Less {
                c = hi;
                continue;
            }
        }
        break;
    }
    c
}

// ------------------------------------------------------------------ POW (powr)

/// Integer square root if `v` is a perfect square.
fn exact_isqrt(v: u64) -> Option<u64> {
    let r = libm::sqrt(v as f64) as u64;
    (r.saturating_sub(1)..=r + 1).find(|&c| c.checked_mul(c) == Some(v))
}

/// `x^y` when it is a dyadic rational with a significand of at most 53
/// bits (which includes every case on an F or HF rounding boundary), as
/// binary64 bits (clamped to 2^+-1000 beyond that range). `x` positive
/// finite, `y` finite.
fn pow_exact<T: Format>(x: u64, y: u64) -> Option<u64> {
    if y & !T::SIGN & T::MASK == 0 {
        return Some(exact_bits(1, 0));
    }
    let (_, mut mx, mut ex) = dyadic::<T>(x);
    let tz = mx.trailing_zeros();
    mx >>= tz;
    ex += tz as i32;
    let (yneg, mut my, mut ey) = dyadic::<T>(y);
    let tz = my.trailing_zeros();
    my >>= tz;
    ey += tz as i32;
    let ex = ex as i64;
    let (mres, eres): (u64, i64) = if ey >= 0 {
        // Integer exponent N = +-my * 2^ey.
        if ey as u32 + (64 - my.leading_zeros()) > 40 {
            // |N| > 2^40: exact only for a power-of-two base.
            if mx != 1 {
                return None;
            }
            if ex == 0 {
                return Some(exact_bits(1, 0));
            }
            let up = (ex > 0) != yneg;
            return Some(exact_bits(1, if up { 2000 } else { -2000 }));
        }
        let n = (my as i64) << ey;
        if yneg {
            if mx != 1 {
                return None;
            }
            (1, -ex * n)
        } else {
            let mut acc: u64 = 1;
            for _ in 0..n {
                acc = acc.checked_mul(mx).filter(|&a| a < (1 << 53))?;
                if mx == 1 {
                    break;
                }
            }
            (acc, ex * n)
        }
    } else {
        // y = +-my / 2^k, my odd: x must be a 2^k-th power with 2^k | ex.
        let k = (-ey) as u32;
        if k >= 63 || ex % (1i64 << k) != 0 {
            return None;
        }
        let mut t = mx;
        if t != 1 {
            if k > 6 {
                return None;
            }
            for _ in 0..k {
                t = exact_isqrt(t)?;
            }
        }
        let eb = (ex >> k) * my as i64; // exponent of x^(my / 2^k) before the sign
        if yneg {
            if t != 1 {
                return None;
            }
            (1, -eb)
        } else {
            let mut acc: u64 = 1;
            if t != 1 {
                for _ in 0..my {
                    acc = acc.checked_mul(t).filter(|&a| a < (1 << 53))?;
                }
            }
            (acc, eb)
        }
    };
    Some(exact_bits(mres, eres))
}

/// `powr(x, y) = 2^(y * log2(x))`, `x` positive finite, `y` finite.
pub(crate) fn powr<T: Format>(x: u64, y: u64, fast: bool) -> u64 {
    if let Some(b) = pow_exact::<T>(x, y) {
        return round::<T>(b);
    }
    let xf = to_f64::<T>(x);
    let yf = to_f64::<T>(y);
    if fast {
        if let Some(r) = decide_f64::<T>(libm::pow(xf, yf)) {
            return r;
        }
    }
    // Far outside the range: the sign of y * log2(x) decides.
    let est = yf * libm::log2(xf);
    if est > 1200.0 {
        return round::<T>(exact_bits(1, 2000));
    }
    if est < -1200.0 {
        return round::<T>(exact_bits(1, -2000));
    }
    let l = log2_fx::<T>(x);
    let (yneg, my, ey) = dyadic::<T>(y);
    // t = y * l; |t| <= ~1200 here, |y| < 2^40 (|log2 x| >= 2^-25 for x != 1).
    let scale = |v: &Fx| -> Fx {
        let p = v.mul_small(my);
        if ey >= 0 {
            p.shl(ey as u32)
        } else {
            p.shr((-ey) as u32)
        }
    };
    let t = SFx::new(l.neg != yneg, scale(&l.mag));
    // Error of t: ERR * |y| (+1 for the shift); 2^f amplifies by < 2 ln 2.
    let et = scale(&mp::ERR).add(&mp::ERR);
    let err = et.shl(1).add(&mp::ERR);
    let (n, f) = split(&t);
    let v = mp::exp2_frac(&f);
    decide_fx::<T>(false, &v, &err, n)
}
