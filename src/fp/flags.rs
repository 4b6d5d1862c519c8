//! Exception flags and the result type of every operation.

use core::ops::{BitOr, BitOrAssign};

/// IEEE-754 exception flags of one operation, plus the two tininess
/// indications, packed in a byte. Combine with `|`.
///
/// * `invalid`: invalid operation (sNaN operand, inf-inf, 0*inf, 0/0,
///   inf/inf, sqrt of a negative, fma(0, inf, c) for any c including a
///   quiet NaN).
/// * `div_by_zero`: finite nonzero divided by zero.
/// * `overflow`: the result rounded as if the exponent range were unbounded
///   has a magnitude above the largest finite number. Always comes with
///   `inexact`.
/// * `underflow`: `tiny_after_rounding && inexact` (IEEE default exception
///   handling with tininess detected after rounding, as x86 SSE and the
///   SoftFloat 8086 specialisations do). A caller that wants
///   before-rounding detection uses `tiny_before_rounding() && inexact()`.
/// * `inexact`: the delivered result differs from the exact result
///   (includes overflow and inexact underflow).
/// * `tiny_before_rounding`: the exact result is nonzero and its magnitude
///   is below the smallest normal `2^EMIN`.
/// * `tiny_after_rounding`: the exact result is nonzero and, rounded to the
///   format's precision in the current rounding mode **as if the exponent
///   range were unbounded**, its magnitude is below the smallest normal.
///
/// `tiny_after_rounding` implies `tiny_before_rounding`. The tiny flags are
/// also set when the result is an exact denormal (then without
/// `underflow`), so they say "this result lies in the denormal range"; they
/// are never set for zero, infinite or NaN results, nor by operations whose
/// result cannot be tiny (round-to-integral, widening conversions of
/// normals, integer conversions).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags(u8);

impl Flags {
    /// No flag raised.
    pub const NONE: Flags = Flags(0);
    /// Invalid operation.
    pub const INVALID: Flags = Flags(1);
    /// Division by zero.
    pub const DIV_BY_ZERO: Flags = Flags(2);
    /// Overflow.
    pub const OVERFLOW: Flags = Flags(4);
    /// Underflow (tiny after rounding and inexact).
    pub const UNDERFLOW: Flags = Flags(8);
    /// Inexact.
    pub const INEXACT: Flags = Flags(16);
    /// Exact result nonzero and below the smallest normal.
    pub const TINY_BEFORE: Flags = Flags(32);
    /// Result rounded with unbounded exponent nonzero and below the smallest normal.
    pub const TINY_AFTER: Flags = Flags(64);

    /// The raw byte (bit order as the constants above).
    #[inline]
    pub const fn to_bits(self) -> u8 {
        self.0
    }
    /// From a raw byte; unknown bits are dropped.
    #[inline]
    pub const fn from_bits(b: u8) -> Flags {
        Flags(b & 0x7f)
    }
    /// `INEXACT` when `b`, else no flag (branch-free).
    #[inline(always)]
    pub const fn inexact_if(b: bool) -> Flags {
        Flags((b as u8) << 4)
    }
    /// True when every flag of `other` is set in `self`.
    #[inline]
    pub const fn contains(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }
    /// True when no flag is set.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// `self` with the flags of `other` added.
    #[inline]
    pub const fn with(self, other: Flags) -> Flags {
        Flags(self.0 | other.0)
    }
    /// `self` with the flags of `other` removed.
    #[inline]
    pub const fn without(self, other: Flags) -> Flags {
        Flags(self.0 & !other.0)
    }
    /// Invalid operation.
    #[inline]
    pub const fn invalid(self) -> bool {
        self.contains(Flags::INVALID)
    }
    /// Division by zero.
    #[inline]
    pub const fn div_by_zero(self) -> bool {
        self.contains(Flags::DIV_BY_ZERO)
    }
    /// Overflow.
    #[inline]
    pub const fn overflow(self) -> bool {
        self.contains(Flags::OVERFLOW)
    }
    /// Underflow (= tiny after rounding and inexact).
    #[inline]
    pub const fn underflow(self) -> bool {
        self.contains(Flags::UNDERFLOW)
    }
    /// Inexact.
    #[inline]
    pub const fn inexact(self) -> bool {
        self.contains(Flags::INEXACT)
    }
    /// Exact result nonzero and below the smallest normal.
    #[inline]
    pub const fn tiny_before_rounding(self) -> bool {
        self.contains(Flags::TINY_BEFORE)
    }
    /// Result rounded as if the exponent range were unbounded is nonzero and
    /// below the smallest normal.
    #[inline]
    pub const fn tiny_after_rounding(self) -> bool {
        self.contains(Flags::TINY_AFTER)
    }
}

impl BitOr for Flags {
    type Output = Flags;
    #[inline]
    fn bitor(self, rhs: Flags) -> Flags {
        Flags(self.0 | rhs.0)
    }
}

impl BitOrAssign for Flags {
    #[inline]
    fn bitor_assign(&mut self, rhs: Flags) {
        self.0 |= rhs.0;
    }
}

/// The result of an operation: the bit pattern (zero-extended to 64 bits)
/// and the exception flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FpResult {
    /// Result encoding in the destination format.
    pub bits: u64,
    /// Exceptions raised.
    pub flags: Flags,
}

impl FpResult {
    /// A result with the given flags.
    #[inline(always)]
    pub const fn new(bits: u64, flags: Flags) -> FpResult {
        FpResult { bits, flags }
    }
    /// A result without flags.
    #[inline(always)]
    pub const fn exact(bits: u64) -> FpResult {
        FpResult {
            bits,
            flags: Flags::NONE,
        }
    }
}
