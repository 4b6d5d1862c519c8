//! Square root.

use super::classify::{is_nan, is_snan};
use super::fast;
use super::flags::FpResult;
use super::format::{fields, normalise, Format};
use super::round::{invalid, nan_result, round_pack_u64, Round};

/// `sqrt(a)`, correctly rounded in `rm`. `sqrt(-0) = -0`; the root of any
/// other negative number (including -inf) is invalid.
#[inline]
pub fn sqrt<F: Format>(a: u64, rm: Round) -> FpResult {
    if rm == Round::Rtne {
        if let Some(r) = fast::sqrt_rtne::<F>(a) {
            return r;
        }
    }
    sqrt_exact::<F>(a, rm)
}

/// `sqrt(a)` by the general path (no fast path); same results as [`sqrt`].
pub fn sqrt_exact<F: Format>(a: u64, rm: Round) -> FpResult {
    let a = a & F::MASK;
    let f = fields::<F>(a);
    if f.exp == F::EXP_FIELD_MAX {
        if is_nan::<F>(a) {
            return nan_result::<F>(is_snan::<F>(a));
        }
        if f.sign {
            return invalid::<F>();
        }
        return FpResult::exact(a);
    }
    if a & !F::SIGN == 0 {
        return FpResult::exact(a);
    }
    if f.sign {
        return invalid::<F>();
    }
    let n = normalise::<F>(f);
    let (r, scale) = sqrt_sig::<F>(n.exp, n.sig);
    round_pack_u64::<F>(false, scale, r, rm)
}

/// Jammed root of `m * 2^(exp - FRAC_BITS)` (m normalised): `(r, scale)`
/// with the root `~= r * 2^scale`, `r` having at least `FRAC_BITS + 3`
/// significant bits and bit 0 set iff the root is inexact.
#[inline(always)]
pub(super) fn sqrt_sig<F: Format>(exp: i32, m: u64) -> (u64, i32) {
    let fb = F::FRAC_BITS as i32;
    // N = m << t with t >= FRAC_BITS + 6 and exp - FRAC_BITS - t even, so
    // that sqrt(N) >= 2^(FRAC_BITS + 3).
    let t0 = fb + 6;
    let t = t0 + ((exp - fb - t0) & 1);
    let scale = (exp - fb - t) / 2;
    if F::FRAC_BITS <= 27 {
        // N < 2^(2*FRAC_BITS + 8) <= 2^62
        let n = m << (t as u32 & 63);
        let r = isqrt64(n);
        (r | (r * r != n) as u64, scale)
    } else {
        // N < 2^(2*FRAC_BITS + 8) <= 2^126 (DF: < 2^112)
        let n = (m as u128) << (t as u32 & 127);
        let r = isqrt128(n);
        (r as u64 | (r * r != n) as u64, scale)
    }
}

/// floor(sqrt(n)) for n < 2^16, by integer Newton iteration from above.
#[inline]
fn isqrt_small(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let bits = 64 - n.leading_zeros();
    // 2^ceil(bits/2) >= sqrt(n); integer Newton from any x >= floor(sqrt(n))
    // decreases monotonically to floor(sqrt(n)).
    let mut x = 1u64 << bits.div_ceil(2);
    loop {
        let y = (x + n / x) >> 1;
        if y >= x {
            return x;
        }
        x = y;
    }
}

/// `SEED[p][i] = ceil(sqrt(256 * (257 + i) * (1 + p)))`: an upper bound of
/// 256 * sqrt of a mantissa whose top bits after the leading one are `i`,
/// for even (`p = 0`) and odd (`p = 1`) exponents.
const SEED: [[u16; 256]; 2] = seed_table();

const fn ceil_sqrt(v: u32) -> u32 {
    let mut s = 0u32;
    while s * s < v {
        s += 1;
    }
    s
}

const fn seed_table() -> [[u16; 256]; 2] {
    let mut t = [[0u16; 256]; 2];
    let mut i = 0;
    while i < 256 {
        t[0][i] = ceil_sqrt(256 * (257 + i as u32)) as u16;
        t[1][i] = ceil_sqrt(512 * (257 + i as u32)) as u16;
        i += 1;
    }
    t
}

/// floor(sqrt(n)).
#[inline]
pub(super) fn isqrt64(n: u64) -> u64 {
    if n < (1 << 17) {
        return isqrt_small(n);
    }
    let e = 63 - n.leading_zeros(); // n in [2^e, 2^(e+1)), e >= 17
    let i = ((n >> (e - 8)) & 255) as usize;
    // n < (257 + i) * 2^(e-8), so sqrt(n) < SEED[e&1][i] * 2^((e - 16 - (e&1)) / 2):
    // an overestimate with relative error below 2^-7.
    let p = (e & 1) as usize;
    let mut x = (SEED[p][i] as u64) << ((e - 16 - e % 2) / 2);
    // Newton from above stays >= floor(sqrt(n)); two steps bring the
    // relative error below 2^-32, then fix up the last unit.
    x = (x + n / x) >> 1;
    x = (x + n / x) >> 1;
    fix_isqrt(n as u128, x as u128) as u64
}

/// Given an approximation `x` of floor(sqrt(n)) off by a few units, return
/// floor(sqrt(n)) exactly (n < 2^126 so no product overflows).
#[inline(always)]
fn fix_isqrt(n: u128, mut x: u128) -> u128 {
    while x * x > n {
        x -= 1;
    }
    while (x + 1) * (x + 1) <= n {
        x += 1;
    }
    x
}

/// floor(sqrt(n)) for n < 2^126.
#[inline]
pub(super) fn isqrt128(n: u128) -> u128 {
    if n <= u64::MAX as u128 {
        return isqrt64(n as u64) as u128;
    }
    let n = n & (u128::MAX >> 2);
    let bits = 128 - n.leading_zeros(); // 65..=126
                                        // Even shift that leaves at most 62 bits.
    let s = (bits - 61) & !1;
    let hi = isqrt64((n >> s) as u64) as u128;
    // (hi + 1)^2 > n >> s, so (hi + 1) * 2^(s/2) > sqrt(n), with relative
    // error below 2^-29; one Newton step leaves an error below one unit.
    let x = (hi + 1) << (s / 2);
    let x = (x + n / x) >> 1;
    fix_isqrt(n, x)
}
