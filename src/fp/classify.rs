//! Classification predicates and denormal flushing helpers.

use super::flags::FpResult;
use super::format::Format;

/// The nine operand classes of the manual's floating-point comparison
/// grids, in grid order: `-inf, -Fin, -denorm, -0, +0, +denorm, +Fin, +inf,
/// NaN`. "Fin" is a nonzero normal finite number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FpClass {
    /// -infinity.
    NegInf = 0,
    /// Negative normal finite.
    NegFin = 1,
    /// Negative denormal.
    NegDenorm = 2,
    /// -0.
    NegZero = 3,
    /// +0.
    PosZero = 4,
    /// Positive denormal.
    PosDenorm = 5,
    /// Positive normal finite.
    PosFin = 6,
    /// +infinity.
    PosInf = 7,
    /// Any NaN (either sign, quiet or signaling).
    Nan = 8,
}

impl FpClass {
    /// All classes in grid order (`ALL[c.index()] == c`).
    pub const ALL: [FpClass; 9] = [
        FpClass::NegInf,
        FpClass::NegFin,
        FpClass::NegDenorm,
        FpClass::NegZero,
        FpClass::PosZero,
        FpClass::PosDenorm,
        FpClass::PosFin,
        FpClass::PosInf,
        FpClass::Nan,
    ];

    /// Position in the grid, 0..9.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The manual's column label.
    pub const fn label(self) -> &'static str {
        match self {
            FpClass::NegInf => "-inf",
            FpClass::NegFin => "-Fin",
            FpClass::NegDenorm => "-denorm",
            FpClass::NegZero => "-0",
            FpClass::PosZero => "+0",
            FpClass::PosDenorm => "+denorm",
            FpClass::PosFin => "+Fin",
            FpClass::PosInf => "+inf",
            FpClass::Nan => "NaN",
        }
    }
}

/// Classify `bits` (upper bits beyond the format ignored).
#[inline]
pub fn classify<F: Format>(bits: u64) -> FpClass {
    let bits = bits & F::MASK;
    let neg = bits & F::SIGN != 0;
    let mag = bits & !F::SIGN;
    if mag > F::INF {
        FpClass::Nan
    } else if mag == F::INF {
        if neg {
            FpClass::NegInf
        } else {
            FpClass::PosInf
        }
    } else if mag >= F::MIN_NORMAL {
        if neg {
            FpClass::NegFin
        } else {
            FpClass::PosFin
        }
    } else if mag != 0 {
        if neg {
            FpClass::NegDenorm
        } else {
            FpClass::PosDenorm
        }
    } else if neg {
        FpClass::NegZero
    } else {
        FpClass::PosZero
    }
}

#[inline(always)]
fn mag<F: Format>(bits: u64) -> u64 {
    bits & F::MASK & !F::SIGN
}

/// Any NaN.
#[inline]
pub fn is_nan<F: Format>(bits: u64) -> bool {
    mag::<F>(bits) > F::INF
}

/// A signaling NaN (quiet bit clear, nonzero fraction).
#[inline]
pub fn is_snan<F: Format>(bits: u64) -> bool {
    is_nan::<F>(bits) && bits & F::QUIET == 0
}

/// A quiet NaN.
#[inline]
pub fn is_qnan<F: Format>(bits: u64) -> bool {
    is_nan::<F>(bits) && bits & F::QUIET != 0
}

/// Either infinity.
#[inline]
pub fn is_inf<F: Format>(bits: u64) -> bool {
    mag::<F>(bits) == F::INF
}

/// Finite (zero, denormal or normal).
#[inline]
pub fn is_finite<F: Format>(bits: u64) -> bool {
    mag::<F>(bits) < F::INF
}

/// Either zero.
#[inline]
pub fn is_zero<F: Format>(bits: u64) -> bool {
    mag::<F>(bits) == 0
}

/// A nonzero denormal (subnormal).
#[inline]
pub fn is_denormal<F: Format>(bits: u64) -> bool {
    let m = mag::<F>(bits);
    m != 0 && m < F::MIN_NORMAL
}

/// Sign bit set (including -0 and negative NaNs).
#[inline]
pub fn is_negative<F: Format>(bits: u64) -> bool {
    bits & F::SIGN != 0
}

/// Input flushing: a denormal becomes the zero of the same sign; every other
/// value (including NaNs) is returned unchanged (masked to the format).
#[inline]
pub fn flush_input<F: Format>(bits: u64) -> u64 {
    let bits = bits & F::MASK;
    if is_denormal::<F>(bits) {
        bits & F::SIGN
    } else {
        bits
    }
}

/// Output flushing by the encoding: a denormal result becomes the zero of
/// the same sign; the flags are left as computed (the caller decides what a
/// flushed result reports). A result that was tiny before rounding but
/// rounded up to the smallest normal is *not* flushed; use
/// [`flush_tiny_output`] for that rule.
#[inline]
pub fn flush_denormal_output<F: Format>(r: FpResult) -> FpResult {
    FpResult::new(flush_input::<F>(r.bits), r.flags)
}

/// Tininess detection rule, for [`flush_tiny_output`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tininess {
    /// Tiny when the exact result is below the smallest normal.
    BeforeRounding,
    /// Tiny when the result rounded with unbounded exponent range is below
    /// the smallest normal.
    AfterRounding,
}

/// Output flushing by the tiny flags: when the result was tiny under
/// `rule`, return the zero with the sign of the result (which is the sign
/// of the exact result); flags unchanged.
#[inline]
pub fn flush_tiny_output<F: Format>(r: FpResult, rule: Tininess) -> FpResult {
    let tiny = match rule {
        Tininess::BeforeRounding => r.flags.tiny_before_rounding(),
        Tininess::AfterRounding => r.flags.tiny_after_rounding(),
    };
    if tiny {
        FpResult::new(r.bits & F::SIGN, r.flags)
    } else {
        r
    }
}
