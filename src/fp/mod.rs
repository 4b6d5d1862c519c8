//! Exact IEEE-754 binary floating point for HF (binary16), F (binary32) and
//! DF (binary64): the arithmetic core of the EU model.
//!
//! Plain IEEE 754-2008 with explicit parameters: every operation takes bit
//! patterns (`u64`, zero-extended; bits above the format are ignored) and a
//! [`Round`] mode, and returns an [`FpResult`] with the result bits and
//! the exception [`Flags`], including both tininess indications. Denormals
//! are handled fully (gradual underflow). Nothing EU-specific happens here:
//! denormal flushing, ALT mode, saturation and the EU NaN policy are layered
//! on top using [`flush_input`], [`flush_denormal_output`] /
//! [`flush_tiny_output`], the flags and [`ToInt`].
//!
//! NaN policy: every NaN this core produces is the format's canonical quiet
//! NaN ([`canonical_nan`]: HF 0x7E00, F 0x7FC0_0000, DF
//! 0x7FF8_0000_0000_0000), whether it comes from a NaN operand or an
//! invalid operation; invalid is raised for signaling NaN operands and
//! invalid operations.
//!
//! Formats are type parameters ([`Hf`], [`F32`], [`F64`]; monomorphised),
//! or a runtime [`Fmt`] value with the same operations as methods.
//!
//! Implementation: integer arithmetic on `u64`/`u128` only, no allocation.
//! Each arithmetic operation has a round-to-nearest-even fast path for
//! normal operands and results (module [`fast`]) in front of the general
//! path (`*_exact`), which the tests prove equal.

mod add;
mod classify;
mod compare;
mod convert;
mod dispatch;
mod div;
pub mod fast;
mod flags;
mod fma;
mod format;
mod mul;
mod round;
mod round_int;
mod sqrt;

pub use add::{add, add_exact, sub};
pub use classify::{
    classify, flush_denormal_output, flush_input, flush_tiny_output, is_denormal, is_finite,
    is_inf, is_nan, is_negative, is_qnan, is_snan, is_zero, FpClass, Tininess,
};
pub use compare::{compare, compare_flags, FpOrd};
pub use convert::{convert, from_i64, from_u64, to_i64, to_i64_trunc, to_u64, to_u64_trunc, ToInt};
pub use div::{div, div_exact};
pub use flags::{Flags, FpResult};
pub use fma::{fma, fma_exact};
pub use format::{canonical_nan, Fmt, Format, Hf, F32, F64};
pub use mul::{mul, mul_exact};
pub use round::Round;
pub use round_int::round_to_integral;
pub use sqrt::{sqrt, sqrt_exact};
