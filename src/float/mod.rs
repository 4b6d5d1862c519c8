//! The EU's floating-point semantics on top of the IEEE-754 core ([`crate::fp`]), driven by the
//! spec tables: `spec/float_modes.toml` (denormals, ALT mode, rounding, NaN policy),
//! `spec/conversions.toml` (type conversions, special values, saturation) and
//! `spec/compare.toml` (comparisons, compare-NaN, min/max).
//!
//! * [`FloatEnv`]: the float state of a thread, read from cr0.0 through the generated
//!   `registers::field` constants (rounding mode, ALT mode, denorm mode bits) plus the platform.
//! * [`Policy`]: what the float_modes rows make the engine do for one type and operation class
//!   (input mapping, rounding, output mapping), computed once from the table; the free functions
//!   below build one per call, callers on a hot path build it once.
//! * Arithmetic: [`add`], [`sub`], [`mul`], [`fma`], [`mad`], [`div`], [`sqrt`], [`rnd`],
//!   [`raw_mov`], [`min`], [`max`], [`saturate`]: each returns a [`FloatOut`] with the result
//!   bits, the IEEE flags of the computation as performed, whether any NaN is acceptable, and the
//!   set of float_modes rows that acted ([`Applied`]).
//! * Conversions: [`convert`] between any two of UB B UW W UD D UQ Q HF F DF, returning a
//!   [`ConvOut`] naming the conversions.toml rows used.
//! * Comparisons: [`compare`] (cmp / cmpn under every condition modifier) and [`cond_flag`] (the
//!   flag an arithmetic result sets under a condition modifier).
//!
//! Values travel as bit patterns in `u64` (zero-extended; bits above the type are ignored on
//! input and zero on output). Nothing here panics or uses floating-point host arithmetic.

mod applied;
mod arith;
mod compare;
mod convert;
mod env;
mod policy;

pub use applied::Applied;
pub use arith::{
    add, div, fma, frc, mad, max, min, mul, raw_mov, rnd, sel_minmax, sqrt, sub, FloatOut,
};
pub use compare::{compare, compare_out, cond_flag, CompareOut};
pub use convert::{convert, int_range, saturate, ConvError, ConvOut};
pub use env::FloatEnv;
pub use policy::Policy;

use crate::fp::{Fmt, Format, Hf, F32, F64};
use crate::spec::DataType;

/// The three floating-point types of the EU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatType {
    /// Half precision (binary16), Gen8+.
    Hf,
    /// Single precision (binary32).
    F,
    /// Double precision (binary64).
    Df,
}

impl FloatType {
    /// All three, narrowest first.
    pub const ALL: [FloatType; 3] = [FloatType::Hf, FloatType::F, FloatType::Df];

    /// The spec data type.
    pub const fn data_type(self) -> DataType {
        match self {
            FloatType::Hf => DataType::HF,
            FloatType::F => DataType::F,
            FloatType::Df => DataType::DF,
        }
    }

    /// The float type of a data type (None for integer and vector types).
    pub const fn from_data_type(t: DataType) -> Option<FloatType> {
        match t {
            DataType::HF => Some(FloatType::Hf),
            DataType::F => Some(FloatType::F),
            DataType::DF => Some(FloatType::Df),
            _ => None,
        }
    }

    /// The core's runtime format.
    pub const fn fmt(self) -> Fmt {
        match self {
            FloatType::Hf => Fmt::Hf,
            FloatType::F => Fmt::F,
            FloatType::Df => Fmt::Df,
        }
    }

    /// Width in bits.
    pub const fn bits(self) -> u32 {
        self.fmt().bits()
    }

    /// Mask of the type's bits.
    pub const fn mask(self) -> u64 {
        self.fmt().mask()
    }

    /// The sign bit.
    pub const fn sign(self) -> u64 {
        match self {
            FloatType::Hf => Hf::SIGN,
            FloatType::F => F32::SIGN,
            FloatType::Df => F64::SIGN,
        }
    }

    /// The largest finite magnitude (fmax), e.g. 0x7F7F_FFFF for F.
    pub const fn max_finite(self) -> u64 {
        match self {
            FloatType::Hf => Hf::MAX_FINITE,
            FloatType::F => F32::MAX_FINITE,
            FloatType::Df => F64::MAX_FINITE,
        }
    }

    /// The encoding of +1.0.
    pub const fn one(self) -> u64 {
        match self {
            FloatType::Hf => (Hf::BIAS as u64) << Hf::FRAC_BITS,
            FloatType::F => (F32::BIAS as u64) << F32::FRAC_BITS,
            FloatType::Df => (F64::BIAS as u64) << F64::FRAC_BITS,
        }
    }

    /// The model's NaN: the core's canonical quiet NaN (HF 0x7E00, F 0x7FC0_0000,
    /// DF 0x7FF8_0000_0000_0000).
    pub const fn canonical_nan(self) -> u64 {
        self.fmt().canonical_nan()
    }

    /// Lower-case TestFloat-style name (f16, f32, f64).
    pub const fn testfloat_name(self) -> &'static str {
        match self {
            FloatType::Hf => "f16",
            FloatType::F => "f32",
            FloatType::Df => "f64",
        }
    }
}

impl TryFrom<DataType> for FloatType {
    type Error = DataType;
    fn try_from(t: DataType) -> Result<Self, DataType> {
        FloatType::from_data_type(t).ok_or(t)
    }
}

impl From<FloatType> for DataType {
    fn from(t: FloatType) -> DataType {
        t.data_type()
    }
}
