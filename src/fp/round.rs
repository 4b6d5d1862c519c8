//! Rounding modes, and the one place where an exact (or sticky-jammed)
//! value is rounded and packed into a format.
//!
//! Working representation: a finite nonzero value
//! `(-1)^sign * sig * 2^(exp - 62)` with `sig` in `[2^62, 2^63)`, so `exp`
//! is the unbiased exponent of the value. Bits of the exact value below bit
//! 0 of `sig` are *jammed* into bit 0 (OR-ed as a sticky bit). Every
//! operation keeps at least two bits between the result LSB and bit 0 when
//! it hands over a jammed value, so the jammed value rounds exactly like the
//! exact one in every mode: a jammed `sig` is odd and the exact value lies
//! strictly between `sig - 1` and `sig + 1`, an interval that contains no
//! rounding boundary (boundaries are multiples of 2).

use super::flags::{Flags, FpResult};
use super::format::Format;

/// Rounding direction. The discriminants are the cr0.0\[5:4\] encodings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Round {
    /// Round to nearest, ties to even (00b).
    #[default]
    Rtne = 0,
    /// Round up, toward +infinity (01b).
    Ru = 1,
    /// Round down, toward -infinity (10b).
    Rd = 2,
    /// Round toward zero (11b).
    Rtz = 3,
}

impl Round {
    /// All four modes, in encoding order.
    pub const ALL: [Round; 4] = [Round::Rtne, Round::Ru, Round::Rd, Round::Rtz];

    /// From the 2-bit Rounding Mode field value (cr0.0\[5:4\] already
    /// shifted down); only the low two bits of `field` are used.
    #[inline]
    pub const fn from_cr0_bits(field: u32) -> Round {
        match field & 3 {
            0 => Round::Rtne,
            1 => Round::Ru,
            2 => Round::Rd,
            _ => Round::Rtz,
        }
    }

    /// From the whole cr0.0 dword: extracts bits 5:4.
    #[inline]
    pub const fn from_cr0(cr0_0: u32) -> Round {
        Round::from_cr0_bits(cr0_0 >> 4)
    }

    /// The 2-bit field encoding.
    #[inline]
    pub const fn to_cr0_bits(self) -> u32 {
        self as u32
    }
}

/// Should a value whose discarded bits are `rbits` (out of a field whose
/// half-way value is `half`) be rounded up in magnitude?
#[inline(always)]
pub(super) fn round_up(rm: Round, sign: bool, lsb_odd: bool, rbits: u64, half: u64) -> bool {
    match rm {
        Round::Rtne => rbits > half || (rbits == half && lsb_odd),
        Round::Ru => !sign && rbits != 0,
        Round::Rd => sign && rbits != 0,
        Round::Rtz => false,
    }
}

/// `x >> d` with the bits shifted out OR-ed into bit 0. Any `d`.
#[inline(always)]
pub(super) fn shr_jam64(x: u64, d: u32) -> u64 {
    if d < 64 {
        // (d == 0 needs no special case: the mask is then 0)
        (x >> d) | ((x & ((1u64 << d) - 1)) != 0) as u64
    } else {
        (x != 0) as u64
    }
}

/// The amount to add to a value whose low `sh` bits are to be dropped so
/// that truncating the sum rounds in direction `rm` (branch-free in the
/// data). For RTNE it is `half - 1 + lsb`, which carries exactly when the
/// dropped bits exceed half, or equal half with an odd LSB.
#[inline(always)]
pub(super) fn round_incr(rm: Round, sign: bool, sig: u64, sh: u32) -> u64 {
    let mask = (1u64 << sh) - 1;
    let neg = 0u64.wrapping_sub(sign as u64); // all ones when negative
    match rm {
        Round::Rtne => (mask >> 1) + ((sig >> sh) & 1),
        Round::Ru => mask & !neg,
        Round::Rd => mask & neg,
        Round::Rtz => 0,
    }
}

/// `x >> d` with the bits shifted out OR-ed into bit 0. Any `d`.
#[inline(always)]
pub(super) fn shr_jam128(x: u128, d: u32) -> u128 {
    if d == 0 {
        x
    } else if d < 128 {
        (x >> d) | ((x & ((1u128 << d) - 1)) != 0) as u128
    } else {
        (x != 0) as u128
    }
}

/// Normalise a nonzero (possibly jammed) `x` to the working position: returns
/// `(sig, msb)` with `sig` in `[2^62, 2^63)` and `msb` the bit index of the
/// leading one of `x` (so `x ~= sig * 2^(msb - 62)`).
#[inline(always)]
pub(super) fn norm64(x: u64) -> (u64, i32) {
    let lz = x.leading_zeros();
    if lz == 0 {
        (shr_jam64(x, 1), 63)
    } else {
        (x << ((lz - 1) & 63), 63 - lz as i32)
    }
}

/// As [`norm64`] for a 128-bit value.
#[inline(always)]
pub(super) fn norm128(x: u128) -> (u64, i32) {
    let lz = x.leading_zeros();
    let msb = 127 - lz as i32;
    if lz >= 65 {
        ((x as u64) << ((lz - 65) & 63), msb)
    } else {
        (shr_jam128(x, 65 - lz) as u64, msb)
    }
}

/// The result of an overflow in rounding mode `rm`: infinity or the largest
/// finite number, with overflow and inexact.
#[inline(never)]
pub(super) fn overflow<F: Format>(sign: bool, rm: Round) -> FpResult {
    let to_inf = match rm {
        Round::Rtne => true,
        Round::Ru => !sign,
        Round::Rd => sign,
        Round::Rtz => false,
    };
    let mag = if to_inf { F::INF } else { F::MAX_FINITE };
    FpResult::new(
        if sign { F::SIGN } else { 0 } | mag,
        Flags::OVERFLOW | Flags::INEXACT,
    )
}

/// Round and pack `(-1)^sign * sig * 2^(exp - 62)`, `sig` in `[2^62, 2^63)`
/// (possibly jammed), into `F` with full IEEE behaviour: gradual underflow,
/// overflow per rounding mode, all flags.
#[inline(always)]
pub(super) fn round_pack<F: Format>(sign: bool, exp: i32, sig: u64, rm: Round) -> FpResult {
    debug_assert!(sig >> 62 == 1);
    let sh = F::RSHIFT;
    let mask = (1u64 << sh) - 1;
    let sbits = if sign { F::SIGN } else { 0 };
    if exp >= F::EMIN {
        if exp > F::EMAX {
            return overflow::<F>(sign, rm);
        }
        let rbits = sig & mask;
        // sig < 2^63 and the increment < 2^sh: no overflow.
        let m = (sig + round_incr(rm, sign, sig, sh)) >> sh;
        // The hidden bit of `m` adds one to the biased exponent field; a
        // carry out of the significand adds one more, which is exactly right.
        let packed = (((exp + F::BIAS - 1) as u64) << F::FRAC_BITS) + m;
        if packed >= F::INF {
            return overflow::<F>(sign, rm);
        }
        return FpResult::new(sbits | packed, Flags::inexact_if(rbits != 0));
    }
    round_pack_tiny::<F>(sign, exp, sig, rm)
}

/// The `exp < EMIN` half of [`round_pack`]: denormal or zero result.
#[inline(never)]
fn round_pack_tiny<F: Format>(sign: bool, exp: i32, sig: u64, rm: Round) -> FpResult {
    let sh = F::RSHIFT;
    let half = 1u64 << (sh - 1);
    let mask = (1u64 << sh) - 1;
    let sbits = if sign { F::SIGN } else { 0 };
    // Tiny after rounding unless rounding at full precision carries the
    // value up to 2^EMIN (only possible from just below it).
    let tiny_after = if exp == F::EMIN - 1 {
        let m = sig >> sh;
        !(m == (F::HIDDEN << 1) - 1 && round_up(rm, sign, true, sig & mask, half))
    } else {
        true
    };
    let d = (F::EMIN - exp) as u32;
    let s = shr_jam64(sig, d);
    let rbits = s & mask;
    let mut m = s >> sh;
    if round_up(rm, sign, m & 1 != 0, rbits, half) {
        m += 1;
    }
    // m <= 2^FRAC_BITS; m == 2^FRAC_BITS encodes the smallest normal.
    let mut flags = Flags::TINY_BEFORE;
    if tiny_after {
        flags |= Flags::TINY_AFTER;
    }
    if rbits != 0 {
        flags |= Flags::INEXACT;
        if tiny_after {
            flags |= Flags::UNDERFLOW;
        }
    }
    FpResult::new(sbits | m, flags)
}

/// Round and pack a value given as a nonzero (possibly jammed) 64-bit
/// integer times a power of two: `(-1)^sign * x * 2^scale`.
#[inline(always)]
pub(super) fn round_pack_u64<F: Format>(sign: bool, scale: i32, x: u64, rm: Round) -> FpResult {
    let (sig, msb) = norm64(x);
    round_pack::<F>(sign, scale + msb, sig, rm)
}

/// As [`round_pack_u64`] for a 128-bit integer.
#[inline(always)]
pub(super) fn round_pack_u128<F: Format>(sign: bool, scale: i32, x: u128, rm: Round) -> FpResult {
    let (sig, msb) = norm128(x);
    round_pack::<F>(sign, scale + msb, sig, rm)
}

/// An exactly representable finite result `bits`: no rounding, but the tiny
/// flags are set when it is a denormal.
#[inline(always)]
pub(super) fn exact_finite<F: Format>(bits: u64) -> FpResult {
    let mag = bits & !F::SIGN;
    if mag != 0 && mag < F::MIN_NORMAL {
        FpResult::new(bits, Flags::TINY_BEFORE | Flags::TINY_AFTER)
    } else {
        FpResult::exact(bits)
    }
}

/// The canonical NaN with the invalid flag.
#[inline(always)]
pub(super) fn invalid<F: Format>() -> FpResult {
    FpResult::new(F::CANONICAL_NAN, Flags::INVALID)
}

/// The canonical NaN, with invalid iff `signaling`.
#[inline(always)]
pub(super) fn nan_result<F: Format>(signaling: bool) -> FpResult {
    FpResult::new(
        F::CANONICAL_NAN,
        if signaling {
            Flags::INVALID
        } else {
            Flags::NONE
        },
    )
}

/// A signed zero of `F`.
#[inline(always)]
pub(super) fn zero<F: Format>(sign: bool) -> u64 {
    if sign {
        F::SIGN
    } else {
        0
    }
}

/// A signed infinity of `F`.
#[inline(always)]
pub(super) fn inf<F: Format>(sign: bool) -> u64 {
    zero::<F>(sign) | F::INF
}
