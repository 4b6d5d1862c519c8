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
/// with the root `~= r * 2^scale`, `r` in `[2^63, 2^64)` (far more than the
/// `FRAC_BITS + 3` bits rounding needs) and bit 0 set iff the root is
/// inexact.
#[inline(always)]
pub(super) fn sqrt_sig<F: Format>(exp: i32, m: u64) -> (u64, i32) {
    // value = m * 2^k. Shift m (leading one at FRAC_BITS) left by t in
    // {62 - FRAC_BITS, 63 - FRAC_BITS} so that a = m << t is in [2^62, 2^64)
    // and k - t is even; then sqrt(value) = sqrt(a * 2^64) * 2^((k - t - 64) / 2).
    let k = exp - F::FRAC_BITS as i32;
    let t0 = 62 - F::FRAC_BITS as i32;
    let t = t0 + ((k - t0) & 1);
    let a = m << (t as u32 & 63);
    if F::FRAC_BITS <= 28 {
        // a has at least 34 trailing zeros: a = a32 * 2^32 and
        // sqrt(a * 2^64) = sqrt(a32 * 2^32) * 2^32; 32 root bits suffice.
        let (y, exact) = sqrt_q32(a >> 32);
        (y | !exact as u64, (k - t - 64) / 2 + 32)
    } else {
        let (y, exact) = sqrt_q64(a);
        (y | !exact as u64, (k - t - 64) / 2)
    }
}

/// Index bits of the 1/sqrt seed table.
const SEED_BITS: u32 = 10;
/// Number of table entries: top `SEED_BITS` bits of a normalised `a` range
/// over `[2^(SEED_BITS-2), 2^SEED_BITS)`.
const SEED_LEN: usize = 3 << (SEED_BITS - 2);

/// `SEED[j] ~= 2^16 / sqrt((i + 0.5) / 2^SEED_BITS)` with `i = j +
/// 2^(SEED_BITS-2)` the top bits of a normalised `a`: a 1/sqrt estimate
/// good to about 2^-10 (3 KiB, computed at compile time).
const SEED: [u32; SEED_LEN] = seed_table();

/// floor(sqrt(n)) for the constant table (plain bisection).
const fn isqrt_const(n: u64) -> u64 {
    let (mut lo, mut hi) = (0u64, 1u64 << 32);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if mid * mid <= n {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

const fn seed_table() -> [u32; SEED_LEN] {
    let mut t = [0u32; SEED_LEN];
    let mut j = 0;
    while j < SEED_LEN {
        let i = j as u64 + (1 << (SEED_BITS - 2));
        // 2^16 * sqrt(2^B / (i + 0.5)) = sqrt(2^(33 + B) / (2i + 1))
        t[j] = isqrt_const((1u64 << (33 + SEED_BITS)) / (2 * i + 1)) as u32;
        j += 1;
    }
    t
}

/// `(floor(sqrt(a * 2^64)), exact)` for `a` in `[2^62, 2^64)`; the result
/// is in `[2^63, 2^64)`. Multiplication only: Newton iteration for
/// 1/sqrt, one remainder correction, then an exact integer fix-up (so the
/// result never depends on the accuracy of the approximations, only the
/// running time does).
#[inline(always)]
pub(super) fn sqrt_q64(a: u64) -> (u64, bool) {
    // A = a / 2^62 in [1, 4); R = 1/sqrt(A) in (1/2, 1] held as r = R * 2^63.
    // The seed is 1/sqrt(a / 2^64) * 2^16 = 2R * 2^16.
    let j = ((a >> (64 - SEED_BITS)) as usize).wrapping_sub(1 << (SEED_BITS - 2)) % SEED_LEN;
    let mut r = (SEED[j] as u64) << 46;
    for _ in 0..2 {
        // R' = R * (3 - A R^2) / 2; the relative error goes 2^-10 -> 2^-19 -> 2^-37.
        let r2 = ((r as u128 * r as u128) >> 63) as u64; // R^2 * 2^63
        let ar2 = ((a as u128 * r2 as u128) >> 63) as u64; // A R^2 * 2^62 ~ 2^62
        let t = (3u64 << 62).saturating_sub(ar2); // (3 - A R^2) * 2^62
        r = ((r as u128 * t as u128) >> 63) as u64;
    }
    // y0 ~ sqrt(A) * 2^63 = A * R * 2^63, off by up to ~2^27.
    let n = (a as u128) << 64;
    let y0 = ((a as u128 * r as u128) >> 62).min(u64::MAX as u128) as u64;
    // One correction y += (n - y^2) / (2y), with 1/(2y) ~ R / 2^64: the
    // error becomes (error of R) * 2^27 + 2^54 / 2^64, below one unit.
    let sq = y0 as u128 * y0 as u128;
    let cap = 1u128 << 96;
    let y1 = if sq <= n {
        let d = (((n - sq).min(cap) >> 32) * r as u128) >> 95;
        y0.saturating_add(d as u64)
    } else {
        let d = (((sq - n).min(cap) >> 32) * r as u128) >> 95;
        y0.saturating_sub(d as u64)
    };
    // Exact fix-up: y^2 <= n < (y + 1)^2, i.e. n - y^2 <= 2y.
    let mut y = y1;
    while y as u128 * y as u128 > n {
        y -= 1;
    }
    while n - y as u128 * y as u128 > 2 * y as u128 {
        y += 1;
    }
    (y, y as u128 * y as u128 == n)
}

/// `(floor(sqrt(a * 2^32)), exact)` for `a` in `[2^30, 2^32)`; the result
/// is in `[2^31, 2^32)`. The 64-bit-arithmetic sibling of [`sqrt_q64`]:
/// one Newton step for 1/sqrt (2^-10 -> 2^-19), one remainder correction,
/// exact fix-up.
#[inline(always)]
pub(super) fn sqrt_q32(a: u64) -> (u64, bool) {
    // A = a / 2^30 in [1, 4); r = R * 2^31 with R = 1/sqrt(A).
    let j = ((a >> (32 - SEED_BITS)) as usize).wrapping_sub(1 << (SEED_BITS - 2)) % SEED_LEN;
    let mut r = (SEED[j] as u64) << 14;
    let r2 = (r * r) >> 31; // R^2 * 2^31 (r < 2^32)
    let ar2 = (a * r2) >> 31; // A R^2 * 2^30 ~ 2^30 (a, r2 < 2^32)
    let t = (3u64 << 30).saturating_sub(ar2); // (3 - A R^2) * 2^30
    r = (r * t) >> 31;
    // y0 ~ sqrt(A) * 2^31 = A * R * 2^31, off by up to ~2^13.
    let n = a << 32;
    let y0 = ((a * r) >> 30).min(u32::MAX as u64);
    let sq = y0 * y0;
    let cap = 1u64 << 48;
    let y1 = if sq <= n {
        y0 + ((((n - sq).min(cap) >> 16) * r) >> 47)
    } else {
        y0.saturating_sub((((sq - n).min(cap) >> 16) * r) >> 47)
    }
    .min(u32::MAX as u64);
    // Exact fix-up: y^2 <= n < (y + 1)^2 (all products below 2^64).
    let mut y = y1;
    while y * y > n {
        y -= 1;
    }
    while n - y * y > 2 * y {
        y += 1;
    }
    (y, y * y == n)
}

#[cfg(test)]
mod tests {
    use super::sqrt_q64;

    /// Reference floor(sqrt(a * 2^64)) by bisection.
    fn slow(a: u64) -> u64 {
        let n = (a as u128) << 64;
        let (mut lo, mut hi) = (0u128, 1u128 << 64);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if mid * mid <= n {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo as u64
    }

    /// Reference floor(sqrt(a * 2^32)) by bisection.
    fn slow32(a: u64) -> u64 {
        let n = a << 32;
        let (mut lo, mut hi) = (0u64, 1u64 << 32);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if mid * mid <= n {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    #[test]
    fn sqrt_q32_matches_bisection() {
        // a spread of 24-bit significands, plus random low bits
        let mut s = 0x2545_F491_4F6C_DD1Du64;
        for hi in ((1u64 << 22)..(1 << 24)).step_by(61) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            for a in [hi << 8, (hi << 8) | (s & 255)] {
                let (y, exact) = super::sqrt_q32(a);
                let want = slow32(a);
                assert_eq!(y, want, "a = {a:#x}");
                assert_eq!(exact, want * want == a << 32);
            }
        }
        assert_eq!(super::sqrt_q32(u32::MAX as u64).0, slow32(u32::MAX as u64));
    }

    #[test]
    fn sqrt_q64_matches_bisection() {
        let mut s = 0x2545_F491_4F6C_DD1Du64;
        let mut cases = vec![
            1u64 << 62,
            (1 << 62) + 1,
            u64::MAX,
            u64::MAX - 1,
            1 << 63,
            3 << 62,
        ];
        for k in 62..64 {
            for j in 0..64 {
                cases.push((1u64 << k) | (1u64 << j));
                cases.push((1u64 << k) | ((1u64 << j) - 1));
            }
        }
        for _ in 0..200_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            cases.push(s | 1 << 62);
        }
        // perfect squares (of 32-bit and of 64-bit roots)
        for r in [1u64 << 31, (1 << 31) + 1, u32::MAX as u64] {
            cases.push(r * r);
        }
        for a in cases {
            let (y, exact) = sqrt_q64(a);
            let want = slow(a);
            assert_eq!(y, want, "a = {a:#x}");
            assert_eq!(exact, (want as u128 * want as u128) == (a as u128) << 64);
        }
    }
}
