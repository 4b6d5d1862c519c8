//! The three IEEE-754 binary interchange formats of the EU: HF (binary16),
//! F (binary32) and DF (binary64).
//!
//! Every value travels as a `u64` bit pattern, zero-extended. Bits above the
//! width of the format are ignored on input (masked off) and are always zero
//! on output.

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Hf {}
    impl Sealed for super::F32 {}
    impl Sealed for super::F64 {}
}

/// Runtime name of a format, for callers that pick the type at run time.
/// The operations on it live in `dispatch.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fmt {
    /// binary16 (EU type HF).
    Hf,
    /// binary32 (EU type F).
    F,
    /// binary64 (EU type DF).
    Df,
}

/// A binary interchange format, described by its field widths. All other
/// constants are derived. Implemented only by [`Hf`], [`F32`] and [`F64`]
/// (sealed), so the derived constants are known to be consistent.
pub trait Format: sealed::Sealed + Copy + Clone + Default + core::fmt::Debug + 'static {
    /// Width of the biased exponent field.
    const EXP_BITS: u32;
    /// Width of the trailing significand (fraction) field.
    const FRAC_BITS: u32;
    /// The runtime name of this format.
    const FMT: Fmt;

    /// Total width in bits.
    const BITS: u32 = 1 + Self::EXP_BITS + Self::FRAC_BITS;
    /// Precision in bits (including the hidden bit).
    const PREC: u32 = Self::FRAC_BITS + 1;
    /// Exponent bias.
    const BIAS: i32 = (1 << (Self::EXP_BITS - 1)) - 1;
    /// Largest unbiased exponent of a finite number.
    const EMAX: i32 = Self::BIAS;
    /// Smallest unbiased exponent of a normal number.
    const EMIN: i32 = 1 - Self::BIAS;
    /// Mask of the bits that belong to the format.
    const MASK: u64 = u64::MAX >> (64 - Self::BITS);
    /// The sign bit.
    const SIGN: u64 = 1 << (Self::BITS - 1);
    /// Mask of the fraction field.
    const FRAC_MASK: u64 = (1 << Self::FRAC_BITS) - 1;
    /// The all-ones biased exponent (infinities and NaNs).
    const EXP_FIELD_MAX: u64 = (1 << Self::EXP_BITS) - 1;
    /// Mask of the exponent field.
    const EXP_MASK: u64 = Self::EXP_FIELD_MAX << Self::FRAC_BITS;
    /// The hidden (implicit) bit, i.e. the encoding of the smallest normal.
    const HIDDEN: u64 = 1 << Self::FRAC_BITS;
    /// The quiet bit (most significant fraction bit).
    const QUIET: u64 = 1 << (Self::FRAC_BITS - 1);
    /// +infinity.
    const INF: u64 = Self::EXP_MASK;
    /// Largest finite magnitude.
    const MAX_FINITE: u64 = Self::EXP_MASK - 1;
    /// Smallest normal magnitude.
    const MIN_NORMAL: u64 = Self::HIDDEN;
    /// The canonical quiet NaN: positive, quiet bit set, zero payload.
    /// Every NaN produced by this core is exactly this pattern.
    const CANONICAL_NAN: u64 = Self::EXP_MASK | Self::QUIET;
    /// Number of bits below the result LSB when a significand is held with
    /// its leading one at bit 62 (the working position of `round.rs`).
    const RSHIFT: u32 = 62 - Self::FRAC_BITS;
}

/// binary16 (EU type HF).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hf;
/// binary32 (EU type F).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct F32;
/// binary64 (EU type DF).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct F64;

impl Format for Hf {
    const EXP_BITS: u32 = 5;
    const FRAC_BITS: u32 = 10;
    const FMT: Fmt = Fmt::Hf;
}
impl Format for F32 {
    const EXP_BITS: u32 = 8;
    const FRAC_BITS: u32 = 23;
    const FMT: Fmt = Fmt::F;
}
impl Format for F64 {
    const EXP_BITS: u32 = 11;
    const FRAC_BITS: u32 = 52;
    const FMT: Fmt = Fmt::Df;
}

/// The canonical quiet NaN of `F` (HF 0x7E00, F 0x7FC0_0000,
/// DF 0x7FF8_0000_0000_0000). The one NaN this core ever produces.
#[inline]
pub const fn canonical_nan<F: Format>() -> u64 {
    F::CANONICAL_NAN
}

/// The fields of an encoding: sign, biased exponent, fraction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Fields {
    pub sign: bool,
    pub exp: u64,
    pub frac: u64,
}

#[inline(always)]
pub(super) fn fields<F: Format>(bits: u64) -> Fields {
    Fields {
        sign: bits & F::SIGN != 0,
        exp: (bits >> F::FRAC_BITS) & F::EXP_FIELD_MAX,
        frac: bits & F::FRAC_MASK,
    }
}

/// A finite nonzero value `(-1)^sign * sig * 2^(exp - FRAC_BITS)` with the
/// significand normalised: `sig` in `[2^FRAC_BITS, 2^(FRAC_BITS+1))`.
/// Denormals get `exp < EMIN`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Norm {
    pub sign: bool,
    pub exp: i32,
    pub sig: u64,
}

/// Normalise the fields of a finite nonzero value (exponent field not
/// all-ones; fraction nonzero if the exponent field is zero).
#[inline(always)]
pub(super) fn normalise<F: Format>(f: Fields) -> Norm {
    if f.exp == 0 {
        // Denormal: bring the leading one up to the hidden-bit position.
        // `frac` is nonzero and below 2^FRAC_BITS, so lz >= 64 - FRAC_BITS
        // and the shift is in 1..=FRAC_BITS.
        let shift = f.frac.leading_zeros().saturating_sub(63 - F::FRAC_BITS);
        Norm {
            sign: f.sign,
            exp: F::EMIN - shift as i32,
            sig: f.frac << (shift & 63),
        }
    } else {
        Norm {
            sign: f.sign,
            exp: f.exp as i32 - F::BIAS,
            sig: f.frac | F::HIDDEN,
        }
    }
}
