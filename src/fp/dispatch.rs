//! Runtime format dispatch: the same operations with the format chosen by a
//! [`Fmt`] value instead of a type parameter.

use super::classify::{self, FpClass};
use super::compare::{self, FpOrd};
use super::convert::{self, ToInt};
use super::flags::FpResult;
use super::format::{Fmt, Format, Hf, F32, F64};
use super::round::Round;
use super::{add, div, fma, mul, round_int, sqrt};

macro_rules! on_fmt {
    ($fmt:expr, $T:ident => $e:expr) => {
        match $fmt {
            Fmt::Hf => {
                type $T = Hf;
                $e
            }
            Fmt::F => {
                type $T = F32;
                $e
            }
            Fmt::Df => {
                type $T = F64;
                $e
            }
        }
    };
}

impl Fmt {
    /// All three formats.
    pub const ALL: [Fmt; 3] = [Fmt::Hf, Fmt::F, Fmt::Df];

    /// Width in bits (16, 32, 64).
    pub const fn bits(self) -> u32 {
        match self {
            Fmt::Hf => Hf::BITS,
            Fmt::F => F32::BITS,
            Fmt::Df => F64::BITS,
        }
    }
    /// Exponent field width.
    pub const fn exp_bits(self) -> u32 {
        match self {
            Fmt::Hf => Hf::EXP_BITS,
            Fmt::F => F32::EXP_BITS,
            Fmt::Df => F64::EXP_BITS,
        }
    }
    /// Fraction field width.
    pub const fn frac_bits(self) -> u32 {
        match self {
            Fmt::Hf => Hf::FRAC_BITS,
            Fmt::F => F32::FRAC_BITS,
            Fmt::Df => F64::FRAC_BITS,
        }
    }
    /// Mask of the format's bits.
    pub const fn mask(self) -> u64 {
        match self {
            Fmt::Hf => Hf::MASK,
            Fmt::F => F32::MASK,
            Fmt::Df => F64::MASK,
        }
    }
    /// The canonical quiet NaN (HF 0x7E00, F 0x7FC0_0000, DF 0x7FF8_0000_0000_0000).
    pub const fn canonical_nan(self) -> u64 {
        match self {
            Fmt::Hf => Hf::CANONICAL_NAN,
            Fmt::F => F32::CANONICAL_NAN,
            Fmt::Df => F64::CANONICAL_NAN,
        }
    }

    /// `a + b`.
    #[inline]
    pub fn add(self, a: u64, b: u64, rm: Round) -> FpResult {
        on_fmt!(self, T => add::add::<T>(a, b, rm))
    }
    /// `a - b`.
    #[inline]
    pub fn sub(self, a: u64, b: u64, rm: Round) -> FpResult {
        on_fmt!(self, T => add::sub::<T>(a, b, rm))
    }
    /// `a * b`.
    #[inline]
    pub fn mul(self, a: u64, b: u64, rm: Round) -> FpResult {
        on_fmt!(self, T => mul::mul::<T>(a, b, rm))
    }
    /// `a * b + c`, single rounding.
    #[inline]
    pub fn fma(self, a: u64, b: u64, c: u64, rm: Round) -> FpResult {
        on_fmt!(self, T => fma::fma::<T>(a, b, c, rm))
    }
    /// `a / b`.
    #[inline]
    pub fn div(self, a: u64, b: u64, rm: Round) -> FpResult {
        on_fmt!(self, T => div::div::<T>(a, b, rm))
    }
    /// `sqrt(a)`.
    #[inline]
    pub fn sqrt(self, a: u64, rm: Round) -> FpResult {
        on_fmt!(self, T => sqrt::sqrt::<T>(a, rm))
    }
    /// `sum_k a_k * b_k` with a single rounding ([`super::sum_of_products`]).
    #[inline]
    pub fn sum_of_products(self, terms: &[(u64, u64)], rm: Round) -> FpResult {
        on_fmt!(self, T => super::dot::sum_of_products::<T>(terms, rm))
    }
    /// Round to integral in direction `rm`.
    #[inline]
    pub fn round_to_integral(self, a: u64, rm: Round) -> FpResult {
        on_fmt!(self, T => round_int::round_to_integral::<T>(a, rm))
    }
    /// Compare.
    #[inline]
    pub fn compare(self, a: u64, b: u64) -> FpOrd {
        on_fmt!(self, T => compare::compare::<T>(a, b))
    }
    /// Classify into the nine grid classes.
    #[inline]
    pub fn classify(self, a: u64) -> FpClass {
        on_fmt!(self, T => classify::classify::<T>(a))
    }
    /// Any NaN.
    #[inline]
    pub fn is_nan(self, a: u64) -> bool {
        on_fmt!(self, T => classify::is_nan::<T>(a))
    }
    /// Signaling NaN.
    #[inline]
    pub fn is_snan(self, a: u64) -> bool {
        on_fmt!(self, T => classify::is_snan::<T>(a))
    }
    /// Nonzero denormal.
    #[inline]
    pub fn is_denormal(self, a: u64) -> bool {
        on_fmt!(self, T => classify::is_denormal::<T>(a))
    }
    /// Denormal -> signed zero.
    #[inline]
    pub fn flush_input(self, a: u64) -> u64 {
        on_fmt!(self, T => classify::flush_input::<T>(a))
    }
    /// Convert `a` from `self` to `to`.
    #[inline]
    pub fn convert(self, to: Fmt, a: u64, rm: Round) -> FpResult {
        on_fmt!(self, S => on_fmt!(to, D => convert::convert::<S, D>(a, rm)))
    }
    /// Signed integer to `self`.
    #[inline]
    pub fn from_i64(self, v: i64, rm: Round) -> FpResult {
        on_fmt!(self, T => convert::from_i64::<T>(v, rm))
    }
    /// Unsigned integer to `self`.
    #[inline]
    pub fn from_u64(self, v: u64, rm: Round) -> FpResult {
        on_fmt!(self, T => convert::from_u64::<T>(v, rm))
    }
    /// `a` to a signed integer, rounding in `rm`.
    #[inline]
    pub fn to_i64(self, a: u64, rm: Round) -> ToInt<i64> {
        on_fmt!(self, T => convert::to_i64::<T>(a, rm))
    }
    /// `a` to an unsigned integer, rounding in `rm`.
    #[inline]
    pub fn to_u64(self, a: u64, rm: Round) -> ToInt<u64> {
        on_fmt!(self, T => convert::to_u64::<T>(a, rm))
    }
    /// `a` to a signed integer, truncating.
    #[inline]
    pub fn to_i64_trunc(self, a: u64) -> ToInt<i64> {
        self.to_i64(a, Round::Rtz)
    }
    /// `a` to an unsigned integer, truncating.
    #[inline]
    pub fn to_u64_trunc(self, a: u64) -> ToInt<u64> {
        self.to_u64(a, Round::Rtz)
    }
}
