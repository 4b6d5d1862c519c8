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
//! # API (all bit patterns are `u64`; `F` is [`Hf`], [`F32`] or [`F64`])
//!
//! | operation | signature |
//! | --- | --- |
//! | add / sub / mul / div | `add::<F>(a, b, rm) -> FpResult` (also `sub`, `mul`, `div`) |
//! | fused multiply-add | `fma::<F>(a, b, c, rm) -> FpResult` (`a*b + c`, one rounding) |
//! | square root | `sqrt::<F>(a, rm) -> FpResult` |
//! | round to integral | `round_to_integral::<F>(a, rm) -> FpResult` (rndd/rndu/rnde/rndz) |
//! | compare | `compare::<F>(a, b) -> FpOrd`, `compare_flags::<F>(a, b, signaling) -> (FpOrd, Flags)` |
//! | classify | `classify::<F>(a) -> FpClass` (the manual's nine grid classes, `index()` 0..9) |
//! | predicates | `is_nan`, `is_snan`, `is_qnan`, `is_inf`, `is_finite`, `is_zero`, `is_denormal`, `is_negative` |
//! | float -> float | `convert::<S, D>(a, rm) -> FpResult` (widening exact) |
//! | integer -> float | `from_i64::<F>(v, rm)`, `from_u64::<F>(v, rm) -> FpResult` |
//! | float -> integer | `to_i64_trunc::<F>(a) -> ToInt<i64>`, `to_u64_trunc`, and `to_i64` / `to_u64` with a mode |
//! | flushing | `flush_input::<F>(a) -> u64`, `flush_denormal_output::<F>(r)`, `flush_tiny_output::<F>(r, Tininess)` |
//! | NaN | `canonical_nan::<F>()`, `F::CANONICAL_NAN`, `Fmt::canonical_nan()` |
//! | runtime format | the same operations as methods of [`Fmt`] (`Fmt::F.add(a, b, rm)`, `Fmt::Df.convert(Fmt::Hf, a, rm)`, ...) |
//! | paths | `add_exact`, `mul_exact`, `fma_exact`, `div_exact`, `sqrt_exact` (general path only) and [`fast`]`::*_rtne` (fast path only, `Option`) |
//!
//! Rounding modes: [`Round`] (`Rtne`, `Ru`, `Rd`, `Rtz` = cr0.0\[5:4\]
//! encodings 0..3, [`Round::from_cr0_bits`]). Exceptions: [`Flags`], with
//! `tiny_before_rounding` and `tiny_after_rounding` defined there.
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
mod dot;
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
pub use dot::sum_of_products;
pub use flags::{Flags, FpResult};
pub use fma::{fma, fma_exact};
pub use format::{canonical_nan, Fmt, Format, Hf, F32, F64};
pub use mul::{mul, mul_exact};
pub use round::Round;
pub use round_int::round_to_integral;
pub use sqrt::{sqrt, sqrt_exact};
