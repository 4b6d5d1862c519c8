//! Fixed-size multi-precision fixed point for the slow (accurate) path of the
//! transcendental math functions.
//!
//! [`Fx`] is an unsigned 320-bit integer `n` read as `n * 2^-256`: 64 integer
//! bits and 256 fraction bits. Every operation truncates (never rounds up), so
//! each one errs by less than one unit of the last place (2^-256, "LSB") and
//! the callers add up those units into an error bound. The elementary
//! functions below work on arguments reduced to small ranges, where that
//! absolute bound is also a tight relative one.
//!
//! Integer arithmetic on `u64`/`u128` only: no allocation, no floating point,
//! identical on every host.

/// Number of fraction bits.
pub(crate) const FRAC: u32 = 256;
const LIMBS: usize = 5;

/// `n * 2^-256` with `n` a 320-bit unsigned integer (little-endian limbs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fx(pub(crate) [u64; LIMBS]);

/// ln 2, truncated.
pub(crate) const LN2: Fx = Fx([
    0x8a0d175b8baafa2b,
    0x40f343267298b62d,
    0xc9e3b39803f2f6af,
    0xb17217f7d1cf79ab,
    0,
]);
/// 1 / ln 2 = log2(e), truncated.
pub(crate) const LOG2E: Fx = Fx([
    0x164a2cd9a342648f,
    0xd6aef551bad2b4b1,
    0x7d0ffda0d23a7d11,
    0x71547652b82fe177,
    1,
]);
/// sqrt(2), truncated.
pub(crate) const SQRT2: Fx = Fx([
    0xda2f590b0667322a,
    0x3adec17512775099,
    0xb2fb1366ea957d3e,
    0x6a09e667f3bcc908,
    1,
]);
/// pi / 2, truncated.
pub(crate) const PI_2: Fx = Fx([
    0x04177d4c76273644,
    0x52049c1114cf98e8,
    0x898cc51701b839a2,
    0x921fb54442d18469,
    1,
]);
/// The first 768 fraction bits of 2/pi, most significant word first
/// (bit 1 of the first word's MSB has weight 2^-1).
pub(crate) const TWO_OVER_PI: [u64; 12] = [
    0xa2f9836e4e441529,
    0xfc2757d1f534ddc0,
    0xdb6295993c439041,
    0xfe5163abdebbc561,
    0xb7246e3a424dd2e0,
    0x06492eea09d1921c,
    0xfe1deb1cb129a73e,
    0xe88235f52ebb4484,
    0xe99c7026b45f7e41,
    0x3991d639835339f4,
    0x9c845f8bbdf9283b,
    0x1ff897ffde05980f,
];

impl Fx {
    pub(crate) const ZERO: Fx = Fx([0; LIMBS]);
    pub(crate) const ONE: Fx = Fx([0, 0, 0, 0, 1]);

    /// An integer.
    pub(crate) const fn int(v: u64) -> Fx {
        Fx([0, 0, 0, 0, v])
    }

    /// `m * 2^e`, truncated to the 2^-256 grid; `None` if it does not fit
    /// below 2^64.
    pub(crate) fn from_dyadic(m: u64, e: i32) -> Option<Fx> {
        if m == 0 {
            return Some(Fx::ZERO);
        }
        // Position of bit 0 of m in the 320-bit integer.
        let pos = e as i64 + FRAC as i64;
        let top = pos + 63 - m.leading_zeros() as i64;
        if top >= (LIMBS * 64) as i64 {
            return None;
        }
        let mut r = Fx::ZERO;
        if pos >= 0 {
            let p = pos as u32;
            r.or_shifted(m, p);
        } else if pos > -64 {
            r.0[0] = m >> ((-pos) as u32);
        }
        Some(r)
    }

    /// OR `m << p` into self (bits beyond 320 dropped).
    fn or_shifted(&mut self, m: u64, p: u32) {
        let w = (p / 64) as usize;
        let b = p % 64;
        if let Some(l) = self.0.get_mut(w) {
            *l |= m << b;
        }
        if b != 0 {
            if let Some(l) = self.0.get_mut(w + 1) {
                *l |= m >> (64 - b);
            }
        }
    }

    pub(crate) fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    /// Integer part (the top limb).
    pub(crate) fn int_part(&self) -> u64 {
        self.0[LIMBS - 1]
    }

    /// Fraction part.
    pub(crate) fn frac(&self) -> Fx {
        let mut r = *self;
        r.0[LIMBS - 1] = 0;
        r
    }

    /// Bit `i` (0 = LSB).
    pub(crate) fn bit(&self, i: u32) -> bool {
        self.0
            .get((i / 64) as usize)
            .is_some_and(|l| (l >> (i % 64)) & 1 == 1)
    }

    /// Index of the most significant set bit.
    pub(crate) fn msb(&self) -> Option<u32> {
        for i in (0..LIMBS).rev() {
            if self.0[i] != 0 {
                return Some(i as u32 * 64 + 63 - self.0[i].leading_zeros());
            }
        }
        None
    }

    pub(crate) fn cmp(&self, o: &Fx) -> core::cmp::Ordering {
        for i in (0..LIMBS).rev() {
            match self.0[i].cmp(&o.0[i]) {
                core::cmp::Ordering::Equal => continue,
                c => return c,
            }
        }
        core::cmp::Ordering::Equal
    }

    pub(crate) fn lt(&self, o: &Fx) -> bool {
        self.cmp(o) == core::cmp::Ordering::Less
    }

    /// `self + o` (wrapping beyond 2^64; callers keep values small).
    pub(crate) fn add(&self, o: &Fx) -> Fx {
        let mut r = Fx::ZERO;
        let mut c = false;
        for i in 0..LIMBS {
            let (s1, c1) = self.0[i].overflowing_add(o.0[i]);
            let (s2, c2) = s1.overflowing_add(c as u64);
            r.0[i] = s2;
            c = c1 || c2;
        }
        r
    }

    /// `self - o`, or zero if `o > self`.
    pub(crate) fn sub_sat(&self, o: &Fx) -> Fx {
        if self.lt(o) {
            return Fx::ZERO;
        }
        let mut r = Fx::ZERO;
        let mut b = false;
        for i in 0..LIMBS {
            let (d1, b1) = self.0[i].overflowing_sub(o.0[i]);
            let (d2, b2) = d1.overflowing_sub(b as u64);
            r.0[i] = d2;
            b = b1 || b2;
        }
        r
    }

    /// `|self - o|` and whether `o > self`.
    pub(crate) fn abs_diff(&self, o: &Fx) -> (Fx, bool) {
        if self.lt(o) {
            (o.sub_sat(self), true)
        } else {
            (self.sub_sat(o), false)
        }
    }

    /// `self * o`, truncated (error < 1 LSB; wrapping beyond 2^64).
    pub(crate) fn mul(&self, o: &Fx) -> Fx {
        let mut p = [0u64; 2 * LIMBS];
        for i in 0..LIMBS {
            let mut carry: u128 = 0;
            for j in 0..LIMBS {
                let t = self.0[i] as u128 * o.0[j] as u128 + p[i + j] as u128 + carry;
                p[i + j] = t as u64;
                carry = t >> 64;
            }
            p[i + LIMBS] = carry as u64;
        }
        // Drop the 256 fraction bits of the second factor: limbs 4.. hold the result.
        let mut r = Fx::ZERO;
        r.0.copy_from_slice(&p[4..4 + LIMBS]);
        r
    }

    /// `self * k` (exact unless it overflows 2^64, which callers avoid).
    pub(crate) fn mul_small(&self, k: u64) -> Fx {
        let mut r = Fx::ZERO;
        let mut carry: u128 = 0;
        for i in 0..LIMBS {
            let t = self.0[i] as u128 * k as u128 + carry;
            r.0[i] = t as u64;
            carry = t >> 64;
        }
        r
    }

    /// `self / k`, truncated (error < 1 LSB). `k = 0` gives zero.
    pub(crate) fn div_small(&self, k: u64) -> Fx {
        if k == 0 {
            return Fx::ZERO;
        }
        let mut r = Fx::ZERO;
        let mut rem: u128 = 0;
        for i in (0..LIMBS).rev() {
            let cur = (rem << 64) | self.0[i] as u128;
            r.0[i] = (cur / k as u128) as u64;
            rem = cur % k as u128;
        }
        r
    }

    /// `self / o`, truncated (error < 1 LSB). Requires the quotient to be
    /// below 2^64; `o = 0` gives zero.
    pub(crate) fn div(&self, o: &Fx) -> Fx {
        if o.is_zero() {
            return Fx::ZERO;
        }
        // Long division of self * 2^256 (a 576-bit integer) by o, one bit at
        // a time; the remainder stays below 2 * o < 2^321, held in 6 limbs.
        let mut rem = [0u64; LIMBS + 1];
        let mut q = Fx::ZERO;
        let total = LIMBS as u32 * 64 + FRAC;
        for k in (0..total).rev() {
            // rem = 2 * rem + bit k of (self << 256)
            let bit = if k >= FRAC { self.bit(k - FRAC) } else { false };
            let mut carry = bit as u64;
            for l in rem.iter_mut() {
                let nc = *l >> 63;
                *l = (*l << 1) | carry;
                carry = nc;
            }
            if ge6(&rem, o) {
                sub6(&mut rem, o);
                if k < LIMBS as u32 * 64 {
                    q.0[(k / 64) as usize] |= 1 << (k % 64);
                }
            }
        }
        q
    }

    /// `self >> s`, truncated.
    pub(crate) fn shr(&self, s: u32) -> Fx {
        let mut r = Fx::ZERO;
        let w = (s / 64) as usize;
        let b = s % 64;
        for i in 0..LIMBS {
            let lo = self.0.get(i + w).copied().unwrap_or(0);
            let hi = self.0.get(i + w + 1).copied().unwrap_or(0);
            r.0[i] = if b == 0 {
                lo
            } else {
                (lo >> b) | (hi << (64 - b))
            };
        }
        r
    }

    /// `self << s` (bits beyond 320 dropped).
    pub(crate) fn shl(&self, s: u32) -> Fx {
        let mut r = Fx::ZERO;
        let w = (s / 64) as usize;
        let b = s % 64;
        for i in 0..LIMBS {
            if i < w {
                continue;
            }
            let lo = self.0[i - w];
            let below = if i > w { self.0[i - w - 1] } else { 0 };
            r.0[i] = if b == 0 {
                lo
            } else {
                (lo << b) | (below >> (64 - b))
            };
        }
        r
    }

    /// Round-to-odd conversion of `self * 2^scale` to a binary64 bit
    /// pattern (positive). The 53-bit significand keeps the bits below it as
    /// a sticky bit in its LSB, so rounding the result once more to 24 or 11
    /// bits gives the correct rounding of the exact value. Magnitudes beyond
    /// the binary64 range are clamped to 2^1000 or 2^-1000, which round the
    /// same way in F and HF.
    pub(crate) fn to_f64_odd(self, scale: i64) -> u64 {
        let Some(msb) = self.msb() else {
            return 0;
        };
        // value = 1.xxx * 2^e
        let e = msb as i64 - FRAC as i64 + scale;
        if e > 1000 {
            return ((1000 + 1023) as u64) << 52;
        }
        if e < -1000 {
            return ((1023 - 1000) as u64) << 52;
        }
        // Top 53 bits.
        let (sig, sticky) = if msb >= 52 {
            let sh = msb - 52;
            let s = self.shr(sh);
            let sig = s.0[0];
            let low_mask_nonzero = (0..sh).any(|i| self.bit(i));
            (sig, low_mask_nonzero)
        } else {
            (self.0[0] << (52 - msb), false)
        };
        let mut frac = sig & ((1u64 << 52) - 1);
        if sticky {
            frac |= 1;
        }
        (((e + 1023) as u64) << 52) | frac
    }
}

fn ge6(rem: &[u64; LIMBS + 1], o: &Fx) -> bool {
    if rem[LIMBS] != 0 {
        return true;
    }
    for i in (0..LIMBS).rev() {
        if rem[i] != o.0[i] {
            return rem[i] > o.0[i];
        }
    }
    true
}

fn sub6(rem: &mut [u64; LIMBS + 1], o: &Fx) {
    let mut b = false;
    for (i, r) in rem.iter_mut().enumerate() {
        let ov = o.0.get(i).copied().unwrap_or(0);
        let (d1, b1) = r.overflowing_sub(ov);
        let (d2, b2) = d1.overflowing_sub(b as u64);
        *r = d2;
        b = b1 || b2;
    }
}

/// A signed [`Fx`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SFx {
    pub(crate) neg: bool,
    pub(crate) mag: Fx,
}

impl SFx {
    pub(crate) fn new(neg: bool, mag: Fx) -> SFx {
        SFx {
            neg: neg && !mag.is_zero(),
            mag,
        }
    }

    pub(crate) fn add(&self, o: &SFx) -> SFx {
        if self.neg == o.neg {
            SFx::new(self.neg, self.mag.add(&o.mag))
        } else {
            let (d, o_bigger) = self.mag.abs_diff(&o.mag);
            SFx::new(if o_bigger { o.neg } else { self.neg }, d)
        }
    }
}

/// Error bound, in LSBs (2^-256), of the elementary functions below. The
/// analyses in the comments give a few hundred LSBs at most; 2^14 leaves a
/// wide margin and still means an absolute error below 2^-242.
pub(crate) const ERR: Fx = Fx([1 << 14, 0, 0, 0, 0]);

/// `2^f` for `f` in [0, 1): a value in [1, 2).
///
/// t = f * ln2 (error < 2 LSB), then the Taylor series of e^t: every term is
/// the previous one times t divided by k (2 truncations, and the error
/// inherited from the previous term shrinks by t/k < 1), so each term errs
/// by under 8 LSB; with under 64 terms and the t error amplified by
/// e^t < 2, the sum errs by under 600 LSB.
pub(crate) fn exp2_frac(f: &Fx) -> Fx {
    let t = f.mul(&LN2);
    let mut sum = Fx::ONE;
    let mut term = Fx::ONE;
    for k in 1..200u64 {
        term = term.mul(&t).div_small(k);
        if term.is_zero() {
            break;
        }
        sum = sum.add(&term);
    }
    sum
}

/// `log2(m)` for `m` in [1, 2), signed, magnitude below 1/2.
///
/// v = m or m/2, so that v is in [1/sqrt2, sqrt2); s = (v-1)/(v+1), |s| <
/// 0.172; ln v = 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ...). Each term errs by
/// under 4 LSB plus what it inherits (shrinking by s^2 < 0.03); under 60
/// terms: < 300 LSB for ln v, then times log2(e) < 1.45 and the doubling.
pub(crate) fn log2_mant(m: &Fx) -> SFx {
    let (v, plus_one) = if SQRT2.lt(m) {
        (m.shr(1), true)
    } else {
        (*m, false)
    };
    let (num, below_one) = v.abs_diff(&Fx::ONE);
    let den = v.add(&Fx::ONE);
    let s = num.div(&den);
    let s2 = s.mul(&s);
    let mut acc = s;
    let mut p = s;
    for k in 1..400u64 {
        p = p.mul(&s2);
        let term = p.div_small(2 * k + 1);
        if term.is_zero() {
            break;
        }
        acc = acc.add(&term);
    }
    let l = acc.shl(1).mul(&LOG2E);
    let r = SFx::new(below_one, l);
    if plus_one {
        r.add(&SFx::new(false, Fx::ONE))
    } else {
        r
    }
}

/// sin and cos of `theta` in [0, pi/4], as (sin, cos). Alternating Taylor
/// series: positive and negative terms summed apart; each term errs by under
/// 8 LSB plus what it inherits (shrinking by theta^2/((2k)(2k+1)) < 1/3);
/// under 40 terms each.
pub(crate) fn sincos_small(theta: &Fx) -> (Fx, Fx) {
    let t2 = theta.mul(theta);
    // sin
    let mut pos = *theta;
    let mut neg = Fx::ZERO;
    let mut term = *theta;
    for k in 1..200u64 {
        term = term.mul(&t2).div_small((2 * k) * (2 * k + 1));
        if term.is_zero() {
            break;
        }
        if k % 2 == 1 {
            neg = neg.add(&term);
        } else {
            pos = pos.add(&term);
        }
    }
    let sin = pos.sub_sat(&neg);
    // cos
    let mut pos = Fx::ONE;
    let mut neg = Fx::ZERO;
    let mut term = Fx::ONE;
    for k in 1..200u64 {
        term = term.mul(&t2).div_small((2 * k - 1) * (2 * k));
        if term.is_zero() {
            break;
        }
        if k % 2 == 1 {
            neg = neg.add(&term);
        } else {
            pos = pos.add(&term);
        }
    }
    let cos = pos.sub_sat(&neg);
    (sin, cos)
}

/// Bit `i` (i >= 1, weight 2^-i) of 2/pi; 0 beyond the table.
fn two_over_pi_bit(i: i64) -> bool {
    if i < 1 {
        return false;
    }
    let k = (i - 1) as u64;
    TWO_OVER_PI
        .get((k / 64) as usize)
        .is_some_and(|w| (w >> (63 - k % 64)) & 1 == 1)
}

/// Reduce `x = m * 2^e` (m < 2^53, x >= pi/4, e <= 120) modulo pi/2:
/// returns (j mod 4, r) with x * 2/pi = j + r, r in [-1/2, 1/2], as
/// (quadrant, |r|, r < 0).
///
/// x * 2/pi = m * sum b_i 2^(e - i). Bits with e - i >= 2 contribute
/// multiples of 4m and are skipped; the window keeps every bit down to weight
/// 2^-256 relative to the product, so the truncation error is below
/// m * 2^-256 <= 2^-203 (absolute, on r). The table holds 768 bits, enough
/// for e + 256 + 1 <= 377.
pub(crate) fn reduce_pi_2(m: u64, e: i32) -> (u32, Fx, bool) {
    let e = e as i64;
    let first = (e - 1).max(1);
    let mut w = Fx::ZERO;
    // bit i has weight 2^(e - i); its position in Fx is e - i + 256.
    let mut i = first;
    loop {
        let pos = e - i + FRAC as i64;
        if pos < 0 {
            break;
        }
        if two_over_pi_bit(i) && pos < (LIMBS * 64) as i64 {
            w.or_shifted(1, pos as u32);
        }
        i += 1;
    }
    let p = w.mul_small(m);
    let mut j = (p.int_part() & 3) as u32;
    let f = p.frac();
    let half = Fx([0, 0, 0, 1 << 63, 0]);
    if f.lt(&half) {
        (j, f, false)
    } else {
        j = (j + 1) & 3;
        (j, Fx::ONE.sub_sat(&f), true)
    }
}
