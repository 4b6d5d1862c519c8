//! Comparison.

use super::classify::{is_nan, is_snan};
use super::flags::Flags;
use super::format::Format;

/// The outcome of comparing two values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FpOrd {
    /// a < b
    Less,
    /// a == b (including -0 == +0)
    Equal,
    /// a > b
    Greater,
    /// a or b is a NaN
    Unordered,
}

/// Compare `a` with `b`. `-0 == +0`; any NaN operand gives `Unordered`.
#[inline]
pub fn compare<F: Format>(a: u64, b: u64) -> FpOrd {
    let a = a & F::MASK;
    let b = b & F::MASK;
    if is_nan::<F>(a) || is_nan::<F>(b) {
        return FpOrd::Unordered;
    }
    let ka = key::<F>(a);
    let kb = key::<F>(b);
    match ka.cmp(&kb) {
        core::cmp::Ordering::Less => FpOrd::Less,
        core::cmp::Ordering::Equal => FpOrd::Equal,
        core::cmp::Ordering::Greater => FpOrd::Greater,
    }
}

/// Compare and report exceptions: invalid for a signaling NaN operand, and
/// for any NaN operand when `signaling` (IEEE compareSignaling*, e.g. `<`
/// as opposed to `==`).
#[inline]
pub fn compare_flags<F: Format>(a: u64, b: u64, signaling: bool) -> (FpOrd, Flags) {
    let ord = compare::<F>(a, b);
    let inv = if signaling {
        ord == FpOrd::Unordered
    } else {
        is_snan::<F>(a) || is_snan::<F>(b)
    };
    (ord, if inv { Flags::INVALID } else { Flags::NONE })
}

/// A signed integer that orders like the (non-NaN) value; both zeros map
/// to 0.
#[inline(always)]
fn key<F: Format>(x: u64) -> i64 {
    let mag = (x & !F::SIGN) as i64; // < 2^63
    if x & F::SIGN != 0 {
        -mag
    } else {
        mag
    }
}
