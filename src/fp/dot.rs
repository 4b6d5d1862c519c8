//! Sums of products with a single rounding: `sum_k a_k * b_k`, every product and the sum kept
//! exact (a wide fixed-point integer), rounded once at the end. The model value of the EU's
//! fused dot-product style instructions (dp2/dp3/dp4/dph, line, pln, lrp).

use super::classify::{is_inf, is_nan, is_snan, is_zero};
use super::flags::FpResult;
use super::format::{fields, normalise, Format};
use super::round::{inf, invalid, nan_result, round_pack_u128, round_pack_u64, zero, Round};

/// Limbs of the fixed-point accumulator: enough for DF products (exponents from
/// 2*(EMIN - 2*FRAC_BITS) to 2*EMAX plus the significand bits and the carries of a few terms).
const LIMBS: usize = 72;

/// Limbs enough for HF and F products (F: 11 limbs), so that their accumulator is small.
const SMALL_LIMBS: usize = 12;

/// A two's-complement fixed-point integer of `N` 64-bit limbs, of which `used` are significant
/// (bit 0 of limb 0 has weight `2^base`).
struct Acc<const N: usize> {
    limb: [u64; N],
    used: usize,
}

impl<const N: usize> Acc<N> {
    /// Add (`neg` false) or subtract `m * 2^pos`.
    fn add(&mut self, m: u128, pos: u32, neg: bool) {
        let (l, s) = ((pos / 64) as usize, pos % 64);
        let parts = [
            (m << s) as u64,
            ((m << s) >> 64) as u64,
            if s == 0 { 0 } else { (m >> (128 - s)) as u64 },
        ];
        let mut carry = neg; // subtraction: add the complement plus one
        for (i, x) in self.limb.iter_mut().enumerate().take(self.used).skip(l) {
            let k = i - l;
            if k >= parts.len() && carry == neg {
                // Past the addend (0, or all ones when subtracting): with no carry (adding) or
                // a carry (subtracting) every higher limb stays as it is.
                break;
            }
            let p = parts.get(k).copied().unwrap_or(0);
            let p = if neg { !p } else { p };
            let (s1, c1) = x.overflowing_add(p);
            let (s2, c2) = s1.overflowing_add(u64::from(carry));
            *x = s2;
            carry = c1 || c2;
        }
    }

    /// The 64 bits from bit `lo_bit` up (bits below bit 0 are 0): bit `k` of the result is
    /// bit `lo_bit + k` of the accumulator.
    fn bits64(&self, lo_bit: i32) -> u64 {
        if lo_bit < 0 {
            // Only limb 0's low bits are in the window.
            let sh = lo_bit.unsigned_abs();
            return if sh >= 64 { 0 } else { self.limb[0] << sh };
        }
        let (w, s) = ((lo_bit / 64) as usize, lo_bit % 64);
        let at = |i: usize| if i < self.used { self.limb[i] } else { 0 };
        if s == 0 {
            at(w)
        } else {
            (at(w) >> s) | (at(w + 1) << (64 - s))
        }
    }
}

/// The bit weight of the accumulator's bit 0 for format `F`.
fn base<F: Format>() -> i32 {
    2 * (F::EMIN - 2 * F::FRAC_BITS as i32) - 2
}

/// `sum_k a_k * b_k` (at most 8 terms) rounded once in `rm`, with IEEE special cases: a NaN
/// operand gives a NaN (invalid when signalling), `inf * 0` and `+inf + -inf` are invalid,
/// an infinite product gives that infinity. An exact zero sum is `-0` when every product is
/// `-0` (or, rounding down, when the products cancel or any is `-0`), else `+0`.
pub fn sum_of_products<F: Format>(terms: &[(u64, u64)], rm: Round) -> FpResult {
    debug_assert!(terms.len() <= 8);
    let mut nan = false;
    let mut snan = false;
    let mut bad = false;
    let (mut pinf, mut ninf) = (false, false);
    for &(a, b) in terms {
        let (a, b) = (a & F::MASK, b & F::MASK);
        if is_nan::<F>(a) || is_nan::<F>(b) {
            nan = true;
            snan |= is_snan::<F>(a) || is_snan::<F>(b);
            continue;
        }
        let s = (a ^ b) & F::SIGN != 0;
        if is_inf::<F>(a) || is_inf::<F>(b) {
            if is_zero::<F>(a) || is_zero::<F>(b) {
                bad = true;
            } else if s {
                ninf = true;
            } else {
                pinf = true;
            }
        }
    }
    if bad || (!nan && pinf && ninf) {
        return invalid::<F>();
    }
    if nan {
        return nan_result::<F>(snan);
    }
    if pinf || ninf {
        return FpResult::exact(inf::<F>(ninf));
    }
    if let Some(r) = window_sum::<F>(terms, rm) {
        return r;
    }
    let b0 = base::<F>();
    let top = 2 * F::EMAX + 2 * F::PREC as i32 + 8 - b0;
    let used = ((top as usize) / 64 + 1).min(LIMBS);
    if used <= SMALL_LIMBS {
        exact_sum::<F, SMALL_LIMBS>(terms, rm, used)
    } else {
        exact_sum::<F, LIMBS>(terms, rm, used)
    }
}

/// Window bits above the largest product's bit 0 (products of HF and F have at most 48 bits:
/// eight of them shifted this far stay below 2^123).
const WINDOW_SHIFT: i32 = 72;

/// The common case of the finite part of [`sum_of_products`] for HF and F (products of at
/// most 48 bits), in a 128-bit window instead of the full accumulator: `None` when it does
/// not apply (then [`exact_sum`] decides).
///
/// The products are summed exactly in units of `2^lo`, `lo` being `WINDOW_SHIFT` below the
/// largest product's bit 0. A product lying wholly below the unit by 4 bits or more ("tiny")
/// is left out; the tiny ones must share one sign, so their sum `T` is nonzero with that sign
/// and `|T| < 8 * 2^-4` units. The window's sum `S` must reach `2^30` units: then every
/// rounding boundary of the result (half an ULP, also for a denormal result, is at least `2^6`
/// units) is an integer number of units, so `S + T` rounds, with the same flags, as
/// `S + sign(T) / 2`, which is exact in half units. A product straddling the unit, the tiny
/// ones of both signs, or a smaller sum (cancellation, an exact zero) take the general path.
fn window_sum<F: Format>(terms: &[(u64, u64)], rm: Round) -> Option<FpResult> {
    if 2 * F::PREC > 48 {
        return None;
    }
    let mut prods = [(0u64, 0i32, false); 8];
    let mut k = 0;
    let mut hi = i32::MIN;
    for &(a, b) in terms.iter().take(8) {
        let (a, b) = (a & F::MASK, b & F::MASK);
        if is_zero::<F>(a) || is_zero::<F>(b) {
            continue;
        }
        let x = normalise::<F>(fields::<F>(a));
        let y = normalise::<F>(fields::<F>(b));
        // value = m * 2^pos
        let pos = x.exp + y.exp - 2 * F::FRAC_BITS as i32;
        prods[k] = (x.sig * y.sig, pos, (a ^ b) & F::SIGN != 0);
        k += 1;
        hi = hi.max(pos);
    }
    if k == 0 {
        return None;
    }
    let lo = hi - WINDOW_SHIFT;
    let tiny_below = -(2 * F::PREC as i32) - 4;
    let (mut sum, mut tiny_pos, mut tiny_neg) = (0i128, false, false);
    for &(m, pos, neg) in &prods[..k] {
        let sh = pos - lo;
        if sh >= 0 {
            let v = i128::from(m) << sh;
            sum += if neg { -v } else { v };
        } else if sh <= tiny_below {
            tiny_pos |= !neg;
            tiny_neg |= neg;
        } else {
            return None;
        }
    }
    if (tiny_pos && tiny_neg) || sum.unsigned_abs() < 1 << 30 {
        return None;
    }
    let half_units = 2 * sum + i128::from(tiny_pos) - i128::from(tiny_neg);
    Some(round_pack_u128::<F>(
        half_units < 0,
        lo - 1,
        half_units.unsigned_abs(),
        rm,
    ))
}

/// The finite part of [`sum_of_products`]: the exact sum in an accumulator of `N` limbs
/// (`used` of them significant), rounded once.
fn exact_sum<F: Format, const N: usize>(terms: &[(u64, u64)], rm: Round, used: usize) -> FpResult {
    let b0 = base::<F>();
    let mut acc = Acc::<N> { limb: [0; N], used };
    let mut all_neg_zero = true;
    let mut any_neg_zero = false;
    let mut any_nonzero = false;
    for &(a, b) in terms {
        let (a, b) = (a & F::MASK, b & F::MASK);
        let s = (a ^ b) & F::SIGN != 0;
        if is_zero::<F>(a) || is_zero::<F>(b) {
            all_neg_zero &= s;
            any_neg_zero |= s;
            continue;
        }
        all_neg_zero = false;
        any_nonzero = true;
        let x = normalise::<F>(fields::<F>(a));
        let y = normalise::<F>(fields::<F>(b));
        let m = u128::from(x.sig) * u128::from(y.sig);
        // value = m * 2^(ex + ey - 2*FRAC_BITS)
        let pos = x.exp + y.exp - 2 * F::FRAC_BITS as i32 - b0;
        acc.add(m, pos as u32, s);
    }
    let neg = acc.limb[acc.used - 1] >> 63 == 1;
    if neg {
        // Negate in place: complement and add one.
        let mut carry = true;
        for x in acc.limb.iter_mut().take(acc.used) {
            let (v, c) = (!*x).overflowing_add(u64::from(carry));
            *x = v;
            carry = c;
        }
    }
    let Some(hi) = (0..acc.used).rev().find(|&i| acc.limb[i] != 0) else {
        // An exact zero.
        let sign = if any_nonzero {
            rm == Round::Rd
        } else {
            all_neg_zero || (rm == Round::Rd && any_neg_zero)
        };
        return FpResult::exact(zero::<F>(sign));
    };
    // The 64 bits from the leading one down, jamming everything below.
    let lz = acc.limb[hi].leading_zeros();
    let msb = hi as i32 * 64 + 63 - lz as i32; // bit index of the leading one
    let lo_bit = msb - 63; // bit index of x's bit 0 (may be negative)
    let x = acc.bits64(lo_bit);
    let sticky = lo_bit > 0 && {
        let full = (lo_bit / 64) as usize;
        acc.limb[..full].iter().any(|&l| l != 0)
            || acc.limb[full] & ((1u64 << (lo_bit % 64)) - 1) != 0
    };
    let x = x | u64::from(sticky);
    round_pack_u64::<F>(neg, lo_bit + b0, x, rm)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fp::F32;

    fn f(x: f32) -> u64 {
        u64::from(x.to_bits())
    }

    #[test]
    fn exact_cancellation_and_single_rounding() {
        // 2^30 * 2^30 - 2^30 * 2^30 + 1 * 1 = 1 exactly (a rounded chain would give 0 or 1).
        let t = [
            (f(1073741824.0), f(1073741824.0)),
            (f(-1073741824.0), f(1073741824.0)),
            (f(1.0), f(1.0)),
        ];
        assert_eq!(sum_of_products::<F32>(&t, Round::Rtne).bits, f(1.0));
        // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: one rounding keeps the 2^-46 for Ru.
        let a = f(1.0 + f32::EPSILON);
        let r = sum_of_products::<F32>(&[(a, a)], Round::Ru).bits;
        assert_eq!(r, f(1.0 + 3.0 * f32::EPSILON));
        let r = sum_of_products::<F32>(&[(a, a)], Round::Rtne).bits;
        assert_eq!(r, f(1.0 + 2.0 * f32::EPSILON));
    }

    /// A random finite operand of `F`: zeros, denormals and normals, with exponents close
    /// together (cancellation), spread out (tiny products) or anywhere.
    fn finite_operand<F: Format>(next: &mut impl FnMut() -> u64, centre: u64) -> u64 {
        let x = next();
        let sign = (x >> 63) * F::SIGN;
        let frac = x & F::FRAC_MASK;
        let emax = F::EXP_FIELD_MAX - 1;
        let exp = match (x >> 40) % 8 {
            0 => 0,
            1 => return sign,
            2 => 1 + (x >> 48) % emax,
            3 => (centre + (x >> 48) % 40).clamp(1, emax),
            _ => (centre + (x >> 48) % 4).clamp(1, emax),
        };
        let frac = match (x >> 20) % 4 {
            0 => 0,
            1 => F::FRAC_MASK,
            _ => frac,
        };
        sign | (exp << F::FRAC_BITS) | if exp == 0 { frac.max(1) } else { frac }
    }

    /// [`window_sum`] gives what [`exact_sum`] gives, bits and flags, wherever it applies, in
    /// every rounding mode, and applies to most sums of ordinary products.
    fn window_sum_is_exact_sum<F: Format>(seed: u64) {
        let mut next = crate::test_rng::xorshift(seed);
        let mut applied = 0;
        let cases = 200_000;
        for case in 0..cases {
            let len = 1 + (next() % 8) as usize;
            let centre = next() % (F::EXP_FIELD_MAX - 1);
            let mut t = [(0u64, 0u64); 8];
            for p in t.iter_mut().take(len) {
                *p = (
                    finite_operand::<F>(&mut next, centre),
                    finite_operand::<F>(&mut next, centre),
                );
            }
            if case % 4 == 0 && len >= 2 {
                // An exact or near cancellation of two products.
                t[1] = (t[0].0 ^ F::SIGN, t[0].1 ^ (next() & 3));
            }
            for rm in Round::ALL {
                let Some(r) = window_sum::<F>(&t[..len], rm) else {
                    continue;
                };
                let used = {
                    let top = 2 * F::EMAX + 2 * F::PREC as i32 + 8 - base::<F>();
                    ((top as usize) / 64 + 1).min(LIMBS)
                };
                let e = exact_sum::<F, SMALL_LIMBS>(&t[..len], rm, used);
                assert_eq!(r, e, "case {case} {rm:?} {:x?}", &t[..len]);
                applied += 1;
            }
        }
        assert!(applied > cases, "{applied} of {cases} x 4 applied");
    }

    #[test]
    fn window_sum_is_exact_sum_f() {
        window_sum_is_exact_sum::<F32>(0x1234_5678_9abc_def1);
    }

    #[test]
    fn window_sum_is_exact_sum_hf() {
        window_sum_is_exact_sum::<crate::fp::Hf>(0x0fed_cba9_8765_4321);
    }

    #[test]
    fn df_full_exponent_range() {
        use crate::fp::F64;
        let d = |x: f64| x.to_bits();
        let big = 2f64.powi(500);
        let tiny = 2f64.powi(-500);
        // 2^1000 - 2^1000 + 2^-1000: the huge products cancel exactly.
        let t = [(d(big), d(big)), (d(-big), d(big)), (d(tiny), d(tiny))];
        assert_eq!(
            sum_of_products::<F64>(&t, Round::Rtne).bits,
            d(2f64.powi(-1000))
        );
        // 2^-1074 * 0.5 = 2^-1075: a tie between +0 and the smallest denormal (even: +0);
        // rounding up gives the denormal.
        let t = [(1u64, d(0.5))];
        assert_eq!(sum_of_products::<F64>(&t, Round::Rtne).bits, 0);
        assert_eq!(sum_of_products::<F64>(&t, Round::Ru).bits, 1);
    }

    /// Bit `lo + k` for k in 0..64, one bit at a time (the definition of `Acc::bits64`).
    fn bits64_by_bits<const N: usize>(acc: &Acc<N>, lo: i32) -> u64 {
        let mut x = 0u64;
        for k in 0..64 {
            let i = lo + k;
            if i >= 0 && ((i / 64) as usize) < acc.used {
                x |= ((acc.limb[(i / 64) as usize] >> (i % 64)) & 1) << k;
            }
        }
        x
    }

    #[test]
    fn window_of_64_bits_is_the_bitwise_one() {
        let mut next = crate::test_rng::xorshift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..2000 {
            let mut acc = Acc::<SMALL_LIMBS> {
                limb: [0; SMALL_LIMBS],
                used: 1 + (next() % SMALL_LIMBS as u64) as usize,
            };
            for l in acc.limb.iter_mut().take(acc.used) {
                *l = next();
            }
            for lo in -70..(64 * acc.used as i32) {
                assert_eq!(acc.bits64(lo), bits64_by_bits(&acc, lo), "lo {lo}");
            }
        }
    }

    /// `Acc::add` without the early exit: every limb up to `used` takes the addend and carry.
    fn add_every_limb<const N: usize>(acc: &mut Acc<N>, m: u128, pos: u32, neg: bool) {
        let (l, s) = ((pos / 64) as usize, pos % 64);
        let parts = [
            (m << s) as u64,
            ((m << s) >> 64) as u64,
            if s == 0 { 0 } else { (m >> (128 - s)) as u64 },
        ];
        let mut carry = neg;
        for (i, x) in acc.limb.iter_mut().enumerate().take(acc.used).skip(l) {
            let p = parts.get(i - l).copied().unwrap_or(0);
            let p = if neg { !p } else { p };
            let (s1, c1) = x.overflowing_add(p);
            let (s2, c2) = s1.overflowing_add(u64::from(carry));
            *x = s2;
            carry = c1 || c2;
        }
    }

    #[test]
    fn early_exit_add_equals_full_add() {
        let mut next = crate::test_rng::xorshift(0x2545_f491_4f6c_dd1d);
        for _ in 0..20000 {
            let used = 1 + (next() % SMALL_LIMBS as u64) as usize;
            let mut a = Acc::<SMALL_LIMBS> {
                limb: [0; SMALL_LIMBS],
                used,
            };
            for l in a.limb.iter_mut().take(used) {
                // Runs of all-zero and all-one limbs exercise the carry chains.
                *l = match next() % 4 {
                    0 => 0,
                    1 => u64::MAX,
                    _ => next(),
                };
            }
            let mut b = Acc::<SMALL_LIMBS> { limb: a.limb, used };
            let m = u128::from(next()) << (next() % 64) | u128::from(next() % 2);
            let pos = (next() % (64 * used as u64)) as u32;
            let neg = next() % 2 == 1;
            a.add(m, pos, neg);
            add_every_limb(&mut b, m, pos, neg);
            assert_eq!(a.limb, b.limb, "m {m:#x} pos {pos} neg {neg}");
        }
    }

    #[test]
    fn matches_f64_when_exact() {
        // Products of small integers: exact in f32 and f64.
        let t = [(f(3.0), f(-7.0)), (f(0.5), f(0.25)), (f(-2.0), f(-8.0))];
        let want = 3.0f32 * -7.0 + 0.5 * 0.25 + -2.0 * -8.0;
        assert_eq!(sum_of_products::<F32>(&t, Round::Rtne).bits, f(want));
    }
}
