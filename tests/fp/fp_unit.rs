//! Named cases with hand-checked bit patterns. No oracle needed.

use euref::fp::{self, Flags, FpClass, FpOrd, FpResult, Hf, Round, ToInt, F32, F64};
use euref::fp::{Fmt, Format};

const NONE: Flags = Flags::NONE;
const X: Flags = Flags::INEXACT;
const V: Flags = Flags::INVALID;
const Z: Flags = Flags::DIV_BY_ZERO;
const O: Flags = Flags::OVERFLOW;
const U: Flags = Flags::UNDERFLOW;
const TB: Flags = Flags::TINY_BEFORE;
const TA: Flags = Flags::TINY_AFTER;

fn r(bits: u64, flags: Flags) -> FpResult {
    FpResult::new(bits, flags)
}

/// Assert a result for each rounding mode, in the order RTNE, RU, RD, RTZ.
#[track_caller]
fn each_rm(f: impl Fn(Round) -> FpResult, want: [FpResult; 4]) {
    for (rm, w) in Round::ALL.into_iter().zip(want) {
        let got = f(rm);
        assert_eq!(
            (got.bits, got.flags),
            (w.bits, w.flags),
            "{rm:?}: got {:#x} {:?}, want {:#x} {:?}",
            got.bits,
            got.flags,
            w.bits,
            w.flags
        );
    }
}

#[track_caller]
fn all_rm(f: impl Fn(Round) -> FpResult, want: FpResult) {
    each_rm(f, [want; 4]);
}

#[test]
fn canonical_nans() {
    assert_eq!(fp::canonical_nan::<Hf>(), 0x7E00);
    assert_eq!(fp::canonical_nan::<F32>(), 0x7FC0_0000);
    assert_eq!(fp::canonical_nan::<F64>(), 0x7FF8_0000_0000_0000);
    assert_eq!(Fmt::Hf.canonical_nan(), 0x7E00);
    assert_eq!(Fmt::F.canonical_nan(), 0x7FC0_0000);
    assert_eq!(Fmt::Df.canonical_nan(), 0x7FF8_0000_0000_0000);
    assert_eq!(F32::CANONICAL_NAN, 0x7FC0_0000);
}

#[test]
fn round_from_cr0() {
    assert_eq!(Round::from_cr0_bits(0), Round::Rtne);
    assert_eq!(Round::from_cr0_bits(1), Round::Ru);
    assert_eq!(Round::from_cr0_bits(2), Round::Rd);
    assert_eq!(Round::from_cr0_bits(3), Round::Rtz);
    assert_eq!(Round::from_cr0_bits(7), Round::Rtz); // only two bits used
    assert_eq!(Round::from_cr0(0x0000_0020), Round::Rd); // cr0.0[5:4] = 10b
    assert_eq!(Round::from_cr0(0xFFFF_FF1F), Round::Ru);
    for rm in Round::ALL {
        assert_eq!(Round::from_cr0_bits(rm.to_cr0_bits()), rm);
    }
}

#[test]
fn one_plus_half_ulp_ties() {
    // F: 1 + 2^-24 is exactly half way between 1 and 1 + 2^-23.
    each_rm(
        |rm| fp::add::<F32>(0x3F80_0000, 0x3380_0000, rm),
        [
            r(0x3F80_0000, X),
            r(0x3F80_0001, X),
            r(0x3F80_0000, X),
            r(0x3F80_0000, X),
        ],
    );
    // (1 + 2^-23) + 2^-24: tie, the even neighbour is above.
    each_rm(
        |rm| fp::add::<F32>(0x3F80_0001, 0x3380_0000, rm),
        [
            r(0x3F80_0002, X),
            r(0x3F80_0002, X),
            r(0x3F80_0001, X),
            r(0x3F80_0001, X),
        ],
    );
    // Negative: -1 - 2^-24.
    each_rm(
        |rm| fp::sub::<F32>(0xBF80_0000, 0x3380_0000, rm),
        [
            r(0xBF80_0000, X),
            r(0xBF80_0000, X),
            r(0xBF80_0001, X),
            r(0xBF80_0000, X),
        ],
    );
    // HF: 1 + 2^-11; DF: 1 + 2^-53.
    each_rm(
        |rm| fp::add::<Hf>(0x3C00, 0x1000, rm),
        [r(0x3C00, X), r(0x3C01, X), r(0x3C00, X), r(0x3C00, X)],
    );
    each_rm(
        |rm| fp::add::<F64>(0x3FF0_0000_0000_0000, 0x3CA0_0000_0000_0000, rm),
        [
            r(0x3FF0_0000_0000_0000, X),
            r(0x3FF0_0000_0000_0001, X),
            r(0x3FF0_0000_0000_0000, X),
            r(0x3FF0_0000_0000_0000, X),
        ],
    );
}

#[test]
fn signed_zero_sums() {
    // -0 + +0 = +0, except -0 when rounding down.
    each_rm(
        |rm| fp::add::<F32>(0x8000_0000, 0x0000_0000, rm),
        [
            r(0x0000_0000, NONE),
            r(0x0000_0000, NONE),
            r(0x8000_0000, NONE),
            r(0x0000_0000, NONE),
        ],
    );
    all_rm(
        |rm| fp::add::<F32>(0x8000_0000, 0x8000_0000, rm),
        r(0x8000_0000, NONE),
    );
    // x - x = +0 (RD: -0)
    each_rm(
        |rm| fp::sub::<F64>(0x4009_21FB_5444_2D18, 0x4009_21FB_5444_2D18, rm),
        [
            r(0, NONE),
            r(0, NONE),
            r(0x8000_0000_0000_0000, NONE),
            r(0, NONE),
        ],
    );
    // x + 0 = x, x - 0 = x (also for a denormal x, which keeps the tiny flags)
    all_rm(
        |rm| fp::add::<F32>(0x4049_0FDB, 0x8000_0000, rm),
        r(0x4049_0FDB, NONE),
    );
    all_rm(
        |rm| fp::sub::<F32>(0x8000_0001, 0x0000_0000, rm),
        r(0x8000_0001, TB | TA),
    );
}

#[test]
fn invalid_operations() {
    let nan = 0x7FC0_0000;
    all_rm(|rm| fp::add::<F32>(0x7F80_0000, 0xFF80_0000, rm), r(nan, V));
    all_rm(|rm| fp::sub::<F32>(0x7F80_0000, 0x7F80_0000, rm), r(nan, V));
    all_rm(|rm| fp::mul::<F32>(0x0000_0000, 0x7F80_0000, rm), r(nan, V));
    all_rm(|rm| fp::mul::<F32>(0xFF80_0000, 0x8000_0000, rm), r(nan, V));
    all_rm(|rm| fp::div::<F32>(0x0000_0000, 0x8000_0000, rm), r(nan, V));
    all_rm(|rm| fp::div::<F32>(0x7F80_0000, 0xFF80_0000, rm), r(nan, V));
    all_rm(|rm| fp::sqrt::<F32>(0xBF80_0000, rm), r(nan, V)); // sqrt(-1)
    all_rm(|rm| fp::sqrt::<F32>(0xFF80_0000, rm), r(nan, V)); // sqrt(-inf)
    all_rm(|rm| fp::sqrt::<F32>(0x8000_0001, rm), r(nan, V)); // sqrt(-denorm)
                                                              // fma: 0 * inf + qNaN is invalid too; inf*x + -inf is invalid.
    all_rm(
        |rm| fp::fma::<F32>(0, 0x7F80_0000, 0x7FC0_0000, rm),
        r(nan, V),
    );
    all_rm(
        |rm| fp::fma::<F32>(0x3F80_0000, 0x7F80_0000, 0xFF80_0000, rm),
        r(nan, V),
    );
    // DF and HF canonical NaNs
    all_rm(
        |rm| fp::add::<F64>(0x7FF0_0000_0000_0000, 0xFFF0_0000_0000_0000, rm),
        r(0x7FF8_0000_0000_0000, V),
    );
    all_rm(|rm| fp::mul::<Hf>(0x7C00, 0x0000, rm), r(0x7E00, V));
}

#[test]
fn nan_operands_give_canonical_nan() {
    // quiet NaN with payload and sign: no invalid, canonical result
    all_rm(
        |rm| fp::add::<F32>(0xFFC1_2345, 0x3F80_0000, rm),
        r(0x7FC0_0000, NONE),
    );
    all_rm(
        |rm| fp::mul::<F64>(0x3FF0_0000_0000_0000, 0xFFF8_0000_0000_0001, rm),
        r(0x7FF8_0000_0000_0000, NONE),
    );
    // signaling NaN: invalid
    all_rm(
        |rm| fp::add::<F32>(0x7F80_0001, 0x3F80_0000, rm),
        r(0x7FC0_0000, V),
    );
    all_rm(|rm| fp::sqrt::<Hf>(0x7D00, rm), r(0x7E00, V));
    all_rm(
        |rm| fp::round_to_integral::<F32>(0xFFA0_0000, rm),
        r(0x7FC0_0000, V),
    );
    all_rm(
        |rm| fp::fma::<F32>(0x3F80_0000, 0x3F80_0000, 0x7F80_0001, rm),
        r(0x7FC0_0000, V),
    );
    // conversions
    all_rm(|rm| fp::convert::<F32, Hf>(0x7F80_0001, rm), r(0x7E00, V));
    all_rm(
        |rm| fp::convert::<Hf, F64>(0xFE01, rm),
        r(0x7FF8_0000_0000_0000, NONE),
    );
    assert!(fp::is_snan::<F32>(0x7F80_0001));
    assert!(!fp::is_snan::<F32>(0x7FC0_0000));
    assert!(fp::is_qnan::<F32>(0xFFC0_0000));
    assert!(fp::is_nan::<Hf>(0x7C01) && !fp::is_nan::<Hf>(0x7C00));
}

#[test]
fn fma_single_rounding() {
    // a = 1 + 2^-12: a*a = 1 + 2^-11 + 2^-24 exactly.
    let a = 0x3F80_0800;
    let c = 0xBF80_1000; // -(1 + 2^-11)
                         // fused: exactly 2^-24
    all_rm(|rm| fp::fma::<F32>(a, a, c, rm), r(0x3380_0000, NONE));
    // unfused: the product rounds (a tie, to even) to 1 + 2^-11, the sum is 0
    let p = fp::mul::<F32>(a, a, Round::Rtne);
    assert_eq!((p.bits, p.flags), (0x3F80_1000, X));
    let s = fp::add::<F32>(p.bits, c, Round::Rtne);
    assert_eq!((s.bits, s.flags), (0, NONE));
    // DF: (1 + 2^-27)^2 - (1 + 2^-26) = 2^-54
    all_rm(
        |rm| {
            fp::fma::<F64>(
                0x3FF0_0000_0200_0000,
                0x3FF0_0000_0200_0000,
                0xBFF0_0000_0400_0000,
                rm,
            )
        },
        r(0x3C90_0000_0000_0000, NONE),
    );
    // Exact cancellation: +0, or -0 in RD.
    each_rm(
        |rm| fp::fma::<F32>(0x4000_0000, 0x4040_0000, 0xC0C0_0000, rm), // 2*3 - 6
        [r(0, NONE), r(0, NONE), r(0x8000_0000, NONE), r(0, NONE)],
    );
    // 0 * x + -0: signs of zero
    each_rm(
        |rm| fp::fma::<F32>(0x0000_0000, 0x3F80_0000, 0x8000_0000, rm),
        [r(0, NONE), r(0, NONE), r(0x8000_0000, NONE), r(0, NONE)],
    );
    all_rm(
        |rm| fp::fma::<F32>(0x8000_0000, 0x3F80_0000, 0x8000_0000, rm),
        r(0x8000_0000, NONE),
    );
}

#[test]
fn denormal_results() {
    // F min normal * 0.5 = 2^-127: exact denormal (tiny, no underflow)
    all_rm(
        |rm| fp::mul::<F32>(0x0080_0000, 0x3F00_0000, rm),
        r(0x0040_0000, TB | TA),
    );
    // min denormal * 0.5 = 2^-150: a tie between 0 and 2^-149
    each_rm(
        |rm| fp::mul::<F32>(0x0000_0001, 0x3F00_0000, rm),
        [
            r(0x0000_0000, X | U | TB | TA),
            r(0x0000_0001, X | U | TB | TA),
            r(0x0000_0000, X | U | TB | TA),
            r(0x0000_0000, X | U | TB | TA),
        ],
    );
    // -3 * 2^-149 * 0.5 = -1.5 * 2^-149: tie to even (-2 * 2^-149)
    each_rm(
        |rm| fp::mul::<F32>(0x8000_0003, 0x3F00_0000, rm),
        [
            r(0x8000_0002, X | U | TB | TA),
            r(0x8000_0001, X | U | TB | TA),
            r(0x8000_0002, X | U | TB | TA),
            r(0x8000_0001, X | U | TB | TA),
        ],
    );
    // denormal sum is always exact
    all_rm(
        |rm| fp::add::<F32>(0x0000_0003, 0x8000_0001, rm),
        r(0x0000_0002, TB | TA),
    );
    // DF min denormal / 2
    each_rm(
        |rm| fp::div::<F64>(1, 0x4000_0000_0000_0000, rm),
        [
            r(0, X | U | TB | TA),
            r(1, X | U | TB | TA),
            r(0, X | U | TB | TA),
            r(0, X | U | TB | TA),
        ],
    );
    // HF: 2^-24 (min denormal) as F -> HF exact; 2^-25 ties to 0
    all_rm(
        |rm| fp::convert::<F32, Hf>(0x3380_0000, rm),
        r(0x0001, TB | TA),
    );
    each_rm(
        |rm| fp::convert::<F32, Hf>(0x3300_0000, rm),
        [
            r(0x0000, X | U | TB | TA),
            r(0x0001, X | U | TB | TA),
            r(0x0000, X | U | TB | TA),
            r(0x0000, X | U | TB | TA),
        ],
    );
}

#[test]
fn rounding_up_into_the_smallest_normal() {
    // max denormal * (1 + 2^-23) = 2^-126 - 2^-172: tiny before rounding;
    // at 24 bits with unbounded exponent it rounds to 2^-126 in RTNE/RU
    // (not tiny after) but stays below it in RD/RTZ.
    each_rm(
        |rm| fp::mul::<F32>(0x007F_FFFF, 0x3F80_0001, rm),
        [
            r(0x0080_0000, X | TB),
            r(0x0080_0000, X | TB),
            r(0x007F_FFFF, X | U | TB | TA),
            r(0x007F_FFFF, X | U | TB | TA),
        ],
    );
    // 2^-126 - 3 * 2^-152 (fma): rounds to 2^-126 - 2^-150 at 24 bits
    // unbounded (tiny after), but to 2^-126 on the denormal grid: a normal
    // result that still signals underflow under after-rounding detection.
    let a = 0x8000_0300; // -3 * 2^-141
    let b = 0x3A00_0000; // 2^-11
    let c = 0x0080_0000; // 2^-126
    each_rm(
        |rm| fp::fma::<F32>(a, b, c, rm),
        [
            r(0x0080_0000, X | U | TB | TA),
            r(0x0080_0000, X | TB), // RU at 24 bits reaches 2^-126: not tiny after
            r(0x007F_FFFF, X | U | TB | TA),
            r(0x007F_FFFF, X | U | TB | TA),
        ],
    );
    // HF: max denormal 0x03FF * (1 + 2^-10)
    each_rm(
        |rm| fp::mul::<Hf>(0x03FF, 0x3C01, rm),
        [
            r(0x0400, X | TB),
            r(0x0400, X | TB),
            r(0x03FF, X | U | TB | TA),
            r(0x03FF, X | U | TB | TA),
        ],
    );
}

#[test]
fn overflow_per_rounding_mode() {
    // max * 2
    each_rm(
        |rm| fp::mul::<F32>(0x7F7F_FFFF, 0x4000_0000, rm),
        [
            r(0x7F80_0000, O | X),
            r(0x7F80_0000, O | X),
            r(0x7F7F_FFFF, O | X),
            r(0x7F7F_FFFF, O | X),
        ],
    );
    each_rm(
        |rm| fp::mul::<F32>(0xFF7F_FFFF, 0x4000_0000, rm),
        [
            r(0xFF80_0000, O | X),
            r(0xFF7F_FFFF, O | X),
            r(0xFF80_0000, O | X),
            r(0xFF7F_FFFF, O | X),
        ],
    );
    // max + half an ulp (2^103): a tie whose even neighbour is 2^128
    each_rm(
        |rm| fp::add::<F32>(0x7F7F_FFFF, 0x7300_0000, rm),
        [
            r(0x7F80_0000, O | X),
            r(0x7F80_0000, O | X),
            r(0x7F7F_FFFF, X),
            r(0x7F7F_FFFF, X),
        ],
    );
    // DF
    each_rm(
        |rm| fp::add::<F64>(0x7FEF_FFFF_FFFF_FFFF, 0x7FEF_FFFF_FFFF_FFFF, rm),
        [
            r(0x7FF0_0000_0000_0000, O | X),
            r(0x7FF0_0000_0000_0000, O | X),
            r(0x7FEF_FFFF_FFFF_FFFF, O | X),
            r(0x7FEF_FFFF_FFFF_FFFF, O | X),
        ],
    );
    // F -> HF: 65520 rounds to inf in RTNE, 65519 to 65504
    each_rm(
        |rm| fp::convert::<F32, Hf>(0x477F_F000, rm),
        [
            r(0x7C00, O | X),
            r(0x7C00, O | X),
            r(0x7BFF, X),
            r(0x7BFF, X),
        ],
    );
    each_rm(
        |rm| fp::convert::<F32, Hf>(0x477F_EF00, rm),
        [r(0x7BFF, X), r(0x7C00, O | X), r(0x7BFF, X), r(0x7BFF, X)],
    );
    // infinity is exact, not an overflow
    all_rm(
        |rm| fp::add::<F32>(0x7F80_0000, 0x3F80_0000, rm),
        r(0x7F80_0000, NONE),
    );
}

#[test]
fn division() {
    each_rm(
        |rm| fp::div::<F32>(0x3F80_0000, 0x4040_0000, rm), // 1/3
        [
            r(0x3EAA_AAAB, X),
            r(0x3EAA_AAAB, X),
            r(0x3EAA_AAAA, X),
            r(0x3EAA_AAAA, X),
        ],
    );
    all_rm(
        |rm| fp::div::<F32>(0x3F80_0000, 0x0000_0000, rm),
        r(0x7F80_0000, Z),
    );
    all_rm(
        |rm| fp::div::<F32>(0xBF80_0000, 0x0000_0000, rm),
        r(0xFF80_0000, Z),
    );
    all_rm(
        |rm| fp::div::<F32>(0x3F80_0000, 0x8000_0000, rm),
        r(0xFF80_0000, Z),
    );
    all_rm(
        |rm| fp::div::<F32>(0x3F80_0000, 0xFF80_0000, rm),
        r(0x8000_0000, NONE),
    );
    all_rm(
        |rm| fp::div::<F64>(0x4024_0000_0000_0000, 0x4014_0000_0000_0000, rm),
        r(0x4000_0000_0000_0000, NONE),
    );
    each_rm(
        |rm| fp::div::<F64>(0x3FF0_0000_0000_0000, 0x4008_0000_0000_0000, rm),
        [
            r(0x3FD5_5555_5555_5555, X),
            r(0x3FD5_5555_5555_5556, X),
            r(0x3FD5_5555_5555_5555, X),
            r(0x3FD5_5555_5555_5555, X),
        ],
    );
}

#[test]
fn square_roots() {
    all_rm(|rm| fp::sqrt::<F32>(0x8000_0000, rm), r(0x8000_0000, NONE)); // sqrt(-0) = -0
    all_rm(|rm| fp::sqrt::<F32>(0x0000_0000, rm), r(0x0000_0000, NONE));
    all_rm(|rm| fp::sqrt::<F32>(0x7F80_0000, rm), r(0x7F80_0000, NONE));
    all_rm(|rm| fp::sqrt::<F32>(0x4110_0000, rm), r(0x4040_0000, NONE)); // sqrt(9) = 3
    each_rm(
        |rm| fp::sqrt::<F32>(0x4000_0000, rm), // sqrt(2)
        [
            r(0x3FB5_04F3, X),
            r(0x3FB5_04F4, X),
            r(0x3FB5_04F3, X),
            r(0x3FB5_04F3, X),
        ],
    );
    each_rm(
        |rm| fp::sqrt::<F64>(0x4000_0000_0000_0000, rm),
        [
            r(0x3FF6_A09E_667F_3BCD, X),
            r(0x3FF6_A09E_667F_3BCD, X),
            r(0x3FF6_A09E_667F_3BCC, X),
            r(0x3FF6_A09E_667F_3BCC, X),
        ],
    );
    // sqrt of the min denormal 2^-149 = 2^-74.5
    let s = fp::sqrt::<F32>(1, Round::Rtne);
    assert_eq!((s.bits, s.flags), (0x1A35_04F3, X));
    // HF: sqrt(2) = 0x3DA8 (1.4141)
    let s = fp::sqrt::<Hf>(0x4000, Round::Rtne);
    assert_eq!((s.bits, s.flags), (0x3DA8, X));
}

#[test]
fn round_to_integral_cases() {
    let f = |a: u64| move |rm| fp::round_to_integral::<F32>(a, rm);
    // 2.5 -> 2 (even), 3, 2, 2
    each_rm(
        f(0x4020_0000),
        [
            r(0x4000_0000, X),
            r(0x4040_0000, X),
            r(0x4000_0000, X),
            r(0x4000_0000, X),
        ],
    );
    // 1.5 -> 2, 2, 1, 1
    each_rm(
        f(0x3FC0_0000),
        [
            r(0x4000_0000, X),
            r(0x4000_0000, X),
            r(0x3F80_0000, X),
            r(0x3F80_0000, X),
        ],
    );
    // -0.5 -> -0, -0, -1, -0 (sign of zero preserved)
    each_rm(
        f(0xBF00_0000),
        [
            r(0x8000_0000, X),
            r(0x8000_0000, X),
            r(0xBF80_0000, X),
            r(0x8000_0000, X),
        ],
    );
    // 0.5 -> +0, 1, +0, +0
    each_rm(
        f(0x3F00_0000),
        [r(0, X), r(0x3F80_0000, X), r(0, X), r(0, X)],
    );
    // 0.75 -> 1, 1, 0, 0
    each_rm(
        f(0x3F40_0000),
        [r(0x3F80_0000, X), r(0x3F80_0000, X), r(0, X), r(0, X)],
    );
    // -denormal -> -0, -0, -1, -0
    each_rm(
        f(0x8000_0001),
        [
            r(0x8000_0000, X),
            r(0x8000_0000, X),
            r(0xBF80_0000, X),
            r(0x8000_0000, X),
        ],
    );
    // exact values and large values unchanged
    all_rm(f(0xC2F6_0000), r(0xC2F6_0000, NONE)); // -123
    all_rm(f(0x4B80_0001), r(0x4B80_0001, NONE)); // 2^24 + 2
    all_rm(f(0x8000_0000), r(0x8000_0000, NONE));
    all_rm(f(0xFF80_0000), r(0xFF80_0000, NONE));
    // 2^23 - 0.5 = 8388607.5 -> 8388608 (even), 8388608, 8388607, 8388607
    each_rm(
        f(0x4AFF_FFFF),
        [
            r(0x4B00_0000, X),
            r(0x4B00_0000, X),
            r(0x4AFF_FFFE, X),
            r(0x4AFF_FFFE, X),
        ],
    );
    // HF 2.5, DF -2.5
    each_rm(
        |rm| fp::round_to_integral::<Hf>(0x4100, rm),
        [r(0x4000, X), r(0x4200, X), r(0x4000, X), r(0x4000, X)],
    );
    each_rm(
        |rm| fp::round_to_integral::<F64>(0xC004_0000_0000_0000, rm),
        [
            r(0xC000_0000_0000_0000, X),
            r(0xC000_0000_0000_0000, X),
            r(0xC008_0000_0000_0000, X),
            r(0xC000_0000_0000_0000, X),
        ],
    );
}

#[test]
fn float_conversions() {
    // widening is exact, denormals included
    all_rm(
        |rm| fp::convert::<Hf, F32>(0x0001, rm),
        r(0x3380_0000, NONE),
    ); // 2^-24
    all_rm(
        |rm| fp::convert::<Hf, F64>(0x8001, rm),
        r(0xBE70_0000_0000_0000, NONE),
    );
    all_rm(
        |rm| fp::convert::<Hf, F32>(0x7BFF, rm),
        r(0x477F_E000, NONE),
    ); // 65504
    all_rm(
        |rm| fp::convert::<F32, F64>(0x0000_0001, rm),
        r(0x36A0_0000_0000_0000, NONE),
    );
    all_rm(
        |rm| fp::convert::<F32, F64>(0xFF80_0000, rm),
        r(0xFFF0_0000_0000_0000, NONE),
    );
    all_rm(
        |rm| fp::convert::<F32, F64>(0x8000_0000, rm),
        r(0x8000_0000_0000_0000, NONE),
    );
    // DF -> F: 1 + 2^-24 + 2^-52 (just above a tie)
    each_rm(
        |rm| fp::convert::<F64, F32>(0x3FF0_0000_1000_0001, rm),
        [
            r(0x3F80_0001, X),
            r(0x3F80_0001, X),
            r(0x3F80_0000, X),
            r(0x3F80_0000, X),
        ],
    );
    // DF -> F: DF min normal underflows to 0 (or the min denormal)
    each_rm(
        |rm| fp::convert::<F64, F32>(0x0010_0000_0000_0000, rm),
        [
            r(0, X | U | TB | TA),
            r(1, X | U | TB | TA),
            r(0, X | U | TB | TA),
            r(0, X | U | TB | TA),
        ],
    );
    // DF -> F: large value overflows
    each_rm(
        |rm| fp::convert::<F64, F32>(0xC7F0_0000_0000_0000, rm), // -2^128
        [
            r(0xFF80_0000, O | X),
            r(0xFF7F_FFFF, O | X),
            r(0xFF80_0000, O | X),
            r(0xFF7F_FFFF, O | X),
        ],
    );
}

#[test]
fn integer_conversions() {
    // 2^24 + 1: a tie at F precision
    each_rm(
        |rm| fp::from_i64::<F32>(16_777_217, rm),
        [
            r(0x4B80_0000, X),
            r(0x4B80_0001, X),
            r(0x4B80_0000, X),
            r(0x4B80_0000, X),
        ],
    );
    each_rm(
        |rm| fp::from_i64::<F32>(-16_777_219, rm), // -(2^24 + 3): tie, even is -(2^24 + 4)
        [
            r(0xCB80_0002, X),
            r(0xCB80_0001, X),
            r(0xCB80_0002, X),
            r(0xCB80_0001, X),
        ],
    );
    all_rm(|rm| fp::from_i64::<F32>(0, rm), r(0, NONE));
    all_rm(
        |rm| fp::from_i64::<F64>(i64::MIN, rm),
        r(0xC3E0_0000_0000_0000, NONE),
    );
    each_rm(
        |rm| fp::from_u64::<F32>(u64::MAX, rm),
        [
            r(0x5F80_0000, X),
            r(0x5F80_0000, X),
            r(0x5F7F_FFFF, X),
            r(0x5F7F_FFFF, X),
        ],
    );
    // 2^53 + 1 in DF
    each_rm(
        |rm| fp::from_u64::<F64>((1 << 53) + 1, rm),
        [
            r(0x4340_0000_0000_0000, X),
            r(0x4340_0000_0000_0001, X),
            r(0x4340_0000_0000_0000, X),
            r(0x4340_0000_0000_0000, X),
        ],
    );
    // HF overflow from an integer
    each_rm(
        |rm| fp::from_u64::<Hf>(70_000, rm),
        [
            r(0x7C00, O | X),
            r(0x7C00, O | X),
            r(0x7BFF, O | X),
            r(0x7BFF, O | X),
        ],
    );
    // float -> integer, truncating
    assert_eq!(fp::to_i64_trunc::<F32>(0x7FC0_0000), ToInt::Nan);
    assert_eq!(fp::to_i64_trunc::<F32>(0xFF80_0001), ToInt::Nan);
    assert_eq!(fp::to_i64_trunc::<F32>(0x7F80_0000), ToInt::PosOverflow);
    assert_eq!(fp::to_i64_trunc::<F32>(0xFF80_0000), ToInt::NegOverflow);
    assert_eq!(fp::to_i64_trunc::<F32>(0x5F00_0000), ToInt::PosOverflow); // 2^63
    assert_eq!(fp::to_u64_trunc::<F32>(0x5F00_0000), ToInt::Value(1 << 63));
    assert_eq!(fp::to_i64_trunc::<F32>(0xDF00_0000), ToInt::Value(i64::MIN)); // -2^63
    assert_eq!(fp::to_i64_trunc::<F32>(0xDF00_0001), ToInt::NegOverflow);
    assert_eq!(fp::to_u64_trunc::<F32>(0x5F80_0000), ToInt::PosOverflow); // 2^64
    assert_eq!(fp::to_i64_trunc::<F32>(0xBFC0_0000), ToInt::Value(-1)); // -1.5
    assert_eq!(fp::to_i64_trunc::<F32>(0x3F7F_FFFF), ToInt::Value(0));
    assert_eq!(fp::to_u64_trunc::<F32>(0xBF00_0000), ToInt::Value(0)); // -0.5
    assert_eq!(fp::to_u64_trunc::<F32>(0xBF80_0000), ToInt::NegOverflow); // -1
    assert_eq!(fp::to_i64_trunc::<F32>(0x8000_0001), ToInt::Value(0));
    assert_eq!(
        fp::to_i64_trunc::<F64>(0x43DF_FFFF_FFFF_FFFF),
        ToInt::Value(0x7FFF_FFFF_FFFF_FC00)
    );
    assert_eq!(fp::to_i64_trunc::<Hf>(0xFBFF), ToInt::Value(-65504));
    // other rounding modes
    assert_eq!(fp::to_i64::<F32>(0x4020_0000, Round::Rtne), ToInt::Value(2)); // 2.5
    assert_eq!(fp::to_i64::<F32>(0x4020_0000, Round::Ru), ToInt::Value(3));
    assert_eq!(fp::to_i64::<F32>(0xC020_0000, Round::Rd), ToInt::Value(-3));
    assert_eq!(
        fp::to_u64::<F32>(0xBF00_0000, Round::Rd),
        ToInt::NegOverflow
    ); // -0.5 -> -1
}

#[test]
fn compare_cases() {
    assert_eq!(fp::compare::<F32>(0x8000_0000, 0x0000_0000), FpOrd::Equal);
    assert_eq!(
        fp::compare::<F32>(0x7FC0_0000, 0x7FC0_0000),
        FpOrd::Unordered
    );
    assert_eq!(
        fp::compare::<F32>(0x3F80_0000, 0x7FC0_0000),
        FpOrd::Unordered
    );
    assert_eq!(fp::compare::<F32>(0xFF80_0000, 0xFF7F_FFFF), FpOrd::Less);
    assert_eq!(fp::compare::<F32>(0x8000_0001, 0x8000_0000), FpOrd::Less);
    assert_eq!(fp::compare::<F32>(0x0000_0001, 0x8000_0000), FpOrd::Greater);
    assert_eq!(
        fp::compare::<F64>(0xBFF0_0000_0000_0000, 0xC000_0000_0000_0000),
        FpOrd::Greater
    );
    assert_eq!(fp::compare::<Hf>(0x7C00, 0x7BFF), FpOrd::Greater);
    assert_eq!(
        fp::compare_flags::<F32>(0x7FC0_0000, 0, false),
        (FpOrd::Unordered, NONE)
    );
    assert_eq!(
        fp::compare_flags::<F32>(0x7FC0_0000, 0, true),
        (FpOrd::Unordered, V)
    );
    assert_eq!(
        fp::compare_flags::<F32>(0x7F80_0001, 0, false),
        (FpOrd::Unordered, V)
    );
    assert_eq!(fp::compare_flags::<F32>(1, 0, true), (FpOrd::Greater, NONE));
}

#[test]
fn classes() {
    let cases: [(u64, FpClass); 11] = [
        (0xFF80_0000, FpClass::NegInf),
        (0xBF80_0000, FpClass::NegFin),
        (0x8080_0000, FpClass::NegFin),
        (0x807F_FFFF, FpClass::NegDenorm),
        (0x8000_0000, FpClass::NegZero),
        (0x0000_0000, FpClass::PosZero),
        (0x0000_0001, FpClass::PosDenorm),
        (0x7F7F_FFFF, FpClass::PosFin),
        (0x7F80_0000, FpClass::PosInf),
        (0x7FC0_0000, FpClass::Nan),
        (0xFF80_0001, FpClass::Nan),
    ];
    for (bits, c) in cases {
        assert_eq!(fp::classify::<F32>(bits), c, "{bits:#x}");
        assert_eq!(Fmt::F.classify(bits), c);
    }
    for (i, c) in FpClass::ALL.iter().enumerate() {
        assert_eq!(c.index(), i);
    }
    assert_eq!(FpClass::NegDenorm.label(), "-denorm");
    assert_eq!(fp::classify::<Hf>(0x83FF), FpClass::NegDenorm);
    assert_eq!(fp::classify::<F64>(0x0010_0000_0000_0000), FpClass::PosFin);
    assert!(fp::is_denormal::<F64>(0x000F_FFFF_FFFF_FFFF));
    assert!(!fp::is_denormal::<F64>(0x8000_0000_0000_0000));
}

#[test]
fn flushing_helpers() {
    assert_eq!(fp::flush_input::<F32>(0x807F_FFFF), 0x8000_0000);
    assert_eq!(fp::flush_input::<F32>(0x0000_0001), 0);
    assert_eq!(fp::flush_input::<F32>(0x0080_0000), 0x0080_0000);
    assert_eq!(fp::flush_input::<F32>(0x7F80_0001), 0x7F80_0001);
    assert_eq!(fp::flush_input::<Hf>(0x83FF), 0x8000);
    assert_eq!(
        Fmt::Df.flush_input(0x8000_0000_0000_0001),
        0x8000_0000_0000_0000
    );
    // a denormal result is flushed by encoding; one that rounded up to the
    // min normal only by the before-rounding rule
    let d = fp::mul::<F32>(0x8080_0000, 0x3F00_0000, Round::Rtne);
    assert_eq!(d.bits, 0x8040_0000);
    assert_eq!(fp::flush_denormal_output::<F32>(d).bits, 0x8000_0000);
    let up = fp::mul::<F32>(0x007F_FFFF, 0x3F80_0001, Round::Rtne);
    assert_eq!(up.bits, 0x0080_0000);
    assert_eq!(fp::flush_denormal_output::<F32>(up).bits, 0x0080_0000);
    assert_eq!(
        fp::flush_tiny_output::<F32>(up, fp::Tininess::AfterRounding).bits,
        0x0080_0000
    );
    assert_eq!(
        fp::flush_tiny_output::<F32>(up, fp::Tininess::BeforeRounding).bits,
        0
    );
}

#[test]
fn upper_bits_are_ignored() {
    let a = 0xDEAD_BEEF_0000_3C00u64; // HF 1.0 with garbage above
    let r = fp::add::<Hf>(a, 0x3C00, Round::Rtne);
    assert_eq!(r.bits, 0x4000);
    let r = fp::mul::<F32>(0xFFFF_FFFF_3F80_0000, 0x4000_0000, Round::Rtne);
    assert_eq!(r.bits, 0x4000_0000);
}

#[test]
fn runtime_dispatch_matches_generic() {
    let a = 0x3FF8_0000_0000_0000; // 1.5
    let b = 0x4004_0000_0000_0000; // 2.5
    for rm in Round::ALL {
        assert_eq!(Fmt::Df.add(a, b, rm), fp::add::<F64>(a, b, rm));
        assert_eq!(Fmt::Df.sub(a, b, rm), fp::sub::<F64>(a, b, rm));
        assert_eq!(Fmt::Df.mul(a, b, rm), fp::mul::<F64>(a, b, rm));
        assert_eq!(Fmt::Df.div(a, b, rm), fp::div::<F64>(a, b, rm));
        assert_eq!(Fmt::Df.fma(a, b, a, rm), fp::fma::<F64>(a, b, a, rm));
        assert_eq!(Fmt::Df.sqrt(b, rm), fp::sqrt::<F64>(b, rm));
        assert_eq!(
            Fmt::Df.round_to_integral(b, rm),
            fp::round_to_integral::<F64>(b, rm)
        );
        assert_eq!(
            Fmt::Df.convert(Fmt::Hf, b, rm),
            fp::convert::<F64, Hf>(b, rm)
        );
        assert_eq!(Fmt::Hf.convert(Fmt::F, 0x3C00, rm).bits, 0x3F80_0000);
        assert_eq!(Fmt::F.from_i64(-3, rm), fp::from_i64::<F32>(-3, rm));
        assert_eq!(Fmt::F.from_u64(3, rm), fp::from_u64::<F32>(3, rm));
        assert_eq!(Fmt::Df.to_i64(b, rm), fp::to_i64::<F64>(b, rm));
        assert_eq!(Fmt::Df.to_u64(b, rm), fp::to_u64::<F64>(b, rm));
    }
    assert_eq!(Fmt::F.compare(0x3F80_0000, 0x4000_0000), FpOrd::Less);
    assert_eq!(Fmt::Hf.to_i64_trunc(0x4100), ToInt::Value(2));
    assert_eq!(Fmt::Hf.to_u64_trunc(0x4100), ToInt::Value(2));
    assert!(Fmt::Hf.is_nan(0x7E00) && Fmt::Hf.is_snan(0x7D00) && Fmt::Hf.is_denormal(0x0001));
    assert_eq!(
        (Fmt::Hf.bits(), Fmt::F.bits(), Fmt::Df.bits()),
        (16, 32, 64)
    );
    assert_eq!(
        (Fmt::Df.exp_bits(), Fmt::Df.frac_bits(), Fmt::Hf.mask()),
        (11, 52, 0xFFFF)
    );
    assert_eq!(Hf::FMT, Fmt::Hf);
}
