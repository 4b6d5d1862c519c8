//! Property tests of every operation x format x rounding mode against MPFR
//! (rug) and Berkeley SoftFloat (softfloat-wrapper). Needs the `oracles`
//! feature: `cargo test --features oracles --test fp -- fp_oracle::`.
//! Case counts: `PROPTEST_CASES` (default below) per test; every case runs
//! all four rounding modes.
#![cfg(feature = "oracles")]

use crate::fp_support;

use euref::fp::{self, Flags, Format, FpResult, Hf, Round, F32, F64};
use fp_support::{add_partner, cases, edge, fl, mpfr, mul_partner, sf};
use proptest::prelude::*;

const DEFAULT_CASES: u32 = 20_000;

fn cfg() -> ProptestConfig {
    ProptestConfig {
        cases: cases(DEFAULT_CASES),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Compare one result with both oracles. `sf_inexact` is false where
/// SoftFloat is not asked for inexact (round_to_integral).
fn check<F: Format>(
    what: &str,
    ours: FpResult,
    m: (u64, Flags),
    s: (u64, Flags),
    sf_inexact: bool,
) -> Result<(), TestCaseError> {
    prop_assert!(
        ours.bits == m.0 && ours.flags == m.1,
        "{what}: ours {:#x} [{}] vs MPFR {:#x} [{}]",
        ours.bits,
        fl(ours.flags),
        m.0,
        fl(m.1)
    );
    let mut of = sf::ieee5(ours.flags);
    let mut sflags = s.1;
    if !sf_inexact {
        of = of.without(Flags::INEXACT);
        sflags = sflags.without(Flags::INEXACT);
    }
    prop_assert!(
        sf::same::<F>(ours.bits, s.0) && of == sflags,
        "{what}: ours {:#x} [{}] vs SoftFloat {:#x} [{}]",
        ours.bits,
        fl(ours.flags),
        s.0,
        fl(s.1)
    );
    Ok(())
}

#[derive(Clone, Copy, Debug)]
enum Bin {
    Add,
    Sub,
    Mul,
    Div,
}

fn bin<F: Format + sf::SfOf>(op: Bin, a: u64, b: u64) -> Result<(), TestCaseError> {
    for rm in Round::ALL {
        let (ours, m, s) = match op {
            Bin::Add => (
                fp::add::<F>(a, b, rm),
                mpfr::add::<F>(a, b, rm),
                sf::add::<F>(a, b, rm),
            ),
            Bin::Sub => (
                fp::sub::<F>(a, b, rm),
                mpfr::sub::<F>(a, b, rm),
                sf::sub::<F>(a, b, rm),
            ),
            Bin::Mul => (
                fp::mul::<F>(a, b, rm),
                mpfr::mul::<F>(a, b, rm),
                sf::mul::<F>(a, b, rm),
            ),
            Bin::Div => (
                fp::div::<F>(a, b, rm),
                mpfr::div::<F>(a, b, rm),
                sf::div::<F>(a, b, rm),
            ),
        };
        check::<F>(
            &format!("{op:?}<{:?}>({a:#x}, {b:#x}, {rm:?})", F::FMT),
            ours,
            m,
            s,
            true,
        )?;
    }
    Ok(())
}

fn fma3<F: Format + sf::SfOf>(a: u64, b: u64, c: u64) -> Result<(), TestCaseError> {
    for rm in Round::ALL {
        check::<F>(
            &format!("fma<{:?}>({a:#x}, {b:#x}, {c:#x}, {rm:?})", F::FMT),
            fp::fma::<F>(a, b, c, rm),
            mpfr::fma::<F>(a, b, c, rm),
            sf::fma::<F>(a, b, c, rm),
            true,
        )?;
    }
    Ok(())
}

fn unary<F: Format + sf::SfOf>(a: u64) -> Result<(), TestCaseError> {
    for rm in Round::ALL {
        check::<F>(
            &format!("sqrt<{:?}>({a:#x}, {rm:?})", F::FMT),
            fp::sqrt::<F>(a, rm),
            mpfr::sqrt::<F>(a, rm),
            sf::sqrt::<F>(a, rm),
            true,
        )?;
        check::<F>(
            &format!("round_to_integral<{:?}>({a:#x}, {rm:?})", F::FMT),
            fp::round_to_integral::<F>(a, rm),
            mpfr::round_to_integral::<F>(a, rm),
            sf::round_to_integral::<F>(a, rm),
            false,
        )?;
        let (oi, mi, si) = (
            fp::to_i64::<F>(a, rm),
            mpfr::to_i64::<F>(a, rm),
            sf::to_i64::<F>(a, rm),
        );
        prop_assert_eq!(oi, mi, "to_i64<{:?}>({:#x}, {:?})", F::FMT, a, rm);
        prop_assert!(
            sf::to_int_matches(oi, si),
            "to_i64 vs SoftFloat {:?} {:?}",
            oi,
            si
        );
        let (ou, mu, su) = (
            fp::to_u64::<F>(a, rm),
            mpfr::to_u64::<F>(a, rm),
            sf::to_u64::<F>(a, rm),
        );
        prop_assert_eq!(ou, mu, "to_u64<{:?}>({:#x}, {:?})", F::FMT, a, rm);
        prop_assert!(
            sf::to_int_matches(ou, su),
            "to_u64 vs SoftFloat {:?} {:?}",
            ou,
            su
        );
    }
    prop_assert_eq!(fp::to_i64_trunc::<F>(a), fp::to_i64::<F>(a, Round::Rtz));
    prop_assert_eq!(fp::to_u64_trunc::<F>(a), fp::to_u64::<F>(a, Round::Rtz));
    Ok(())
}

fn cmp<F: Format + sf::SfOf>(a: u64, b: u64) -> Result<(), TestCaseError> {
    let ours = fp::compare::<F>(a, b);
    prop_assert_eq!(ours, mpfr::compare::<F>(a, b), "compare {:#x} {:#x}", a, b);
    prop_assert_eq!(
        ours,
        sf::compare::<F>(a, b),
        "compare(sf) {:#x} {:#x}",
        a,
        b
    );
    Ok(())
}

fn conv<S: Format + sf::SfOf, D: Format + sf::SfOf>(a: u64) -> Result<(), TestCaseError> {
    for rm in Round::ALL {
        let ours = fp::convert::<S, D>(a, rm);
        let what = format!("convert<{:?}->{:?}>({a:#x}, {rm:?})", S::FMT, D::FMT);
        if S::FMT == D::FMT {
            // SoftFloat has no same-format conversion (the wrapper copies
            // the bits, so an sNaN stays signaling): MPFR only. Ours treats
            // it as an arithmetic operation (canonical NaN, sNaN invalid).
            let m = mpfr::convert::<S, D>(a, rm);
            prop_assert!(
                (ours.bits, ours.flags) == m,
                "{}: ours {:#x} [{}] vs MPFR {:#x} [{}]",
                what,
                ours.bits,
                fl(ours.flags),
                m.0,
                fl(m.1)
            );
            continue;
        }
        check::<D>(
            &what,
            ours,
            mpfr::convert::<S, D>(a, rm),
            sf::convert::<S, D>(a, rm),
            true,
        )?;
    }
    Ok(())
}

/// An integer with a random bit length, biased to rounding boundaries.
fn int_input(kind: u8, r: u64, r2: u64) -> u64 {
    match kind % 6 {
        0 => r,
        1 => r >> (r2 % 64),
        // odd multiple of a power of two: ties at every precision
        2 => ((r2 % 4096) | 1) << (r % 53),
        // around 2^11, 2^24, 2^53, 2^64
        3 => {
            let bases = [11u32, 24, 53, 63];
            let b = bases[(r2 % 4) as usize];
            (1u64 << b).wrapping_add(r % 9).wrapping_sub(4)
        }
        4 => (r >> (r2 % 64)) | 1 << 63,
        _ => [0u64, 1, 2, 65504, 65519, 65520, 65536, u64::MAX, 1 << 63][(r % 9) as usize],
    }
}

/// An F value that is near the HF range (for F->HF).
fn near_hf(r1: u64, r2: u64) -> u64 {
    // F exponent field 127-28 ..= 127+17: below the HF denormals to above max.
    let e = 99 + (r2 % 46);
    let sign = (r2 >> 7 & 1) << 31;
    let frac = if r2 >> 8 & 1 != 0 {
        // a tie or near tie at HF precision: 13 low bits around 0x1000
        (r1 & !0x1fff & 0x7f_ffff) | (0x1000 + (r1 >> 40) % 3 - 1)
    } else {
        r1 & 0x7f_ffff
    };
    sign | (e << 23) | frac
}

macro_rules! format_tests {
    ($m:ident, $F:ty) => {
        mod $m {
            use super::*;
            type T = $F;

            fn pair(k1: u8, r1: u64, r2: u64, k2: u8, r3: u64, r4: u64) -> (u64, u64) {
                let a = edge::<T>(k1, r1, r2);
                let b = if k2 & 0x80 != 0 {
                    add_partner::<T>(a, k2, r3)
                } else {
                    edge::<T>(k2, r3, r4)
                };
                (a, b)
            }

            proptest! {
                #![proptest_config(cfg())]

                #[test]
                fn add(k1: u8, r1: u64, r2: u64, k2: u8, r3: u64, r4: u64) {
                    let (a, b) = pair(k1, r1, r2, k2, r3, r4);
                    bin::<T>(Bin::Add, a, b)?;
                    bin::<T>(Bin::Add, b, a)?;
                }

                #[test]
                fn sub(k1: u8, r1: u64, r2: u64, k2: u8, r3: u64, r4: u64) {
                    let (a, b) = pair(k1, r1, r2, k2, r3, r4);
                    bin::<T>(Bin::Sub, a, b ^ T::SIGN)?;
                }

                #[test]
                fn mul(k1: u8, r1: u64, r2: u64, k2: u8, r3: u64, r4: u64) {
                    let a = edge::<T>(k1, r1, r2);
                    let b = if k2 & 0x80 != 0 {
                        mul_partner::<T>(a, false, k2, r3)
                    } else {
                        edge::<T>(k2, r3, r4)
                    };
                    bin::<T>(Bin::Mul, a, b)?;
                }

                #[test]
                fn div(k1: u8, r1: u64, r2: u64, k2: u8, r3: u64, r4: u64) {
                    let a = edge::<T>(k1, r1, r2);
                    let b = if k2 & 0x80 != 0 {
                        mul_partner::<T>(a, true, k2, r3)
                    } else {
                        edge::<T>(k2, r3, r4)
                    };
                    bin::<T>(Bin::Div, a, b)?;
                    // exact quotients (and denormal ties): divide a product back
                    let p = fp::mul::<T>(a, b, Round::Rtz).bits;
                    bin::<T>(Bin::Div, p, b)?;
                }

                #[test]
                fn fma(k1: u8, r1: u64, r2: u64, k2: u8, r3: u64, r4: u64, k3: u8, r5: u64, r6: u64) {
                    let a = edge::<T>(k1, r1, r2);
                    let b = if k2 & 0x80 != 0 {
                        mul_partner::<T>(a, false, k2, r3)
                    } else {
                        edge::<T>(k2, r3, r4)
                    };
                    let c = if k3 & 0x80 != 0 {
                        // addend near -(a*b): cancellation, ties, tiny results
                        let p = fp::mul::<T>(a, b, Round::ALL[(k3 & 3) as usize]).bits;
                        add_partner::<T>(p, k3 >> 2, r5)
                    } else {
                        edge::<T>(k3, r5, r6)
                    };
                    fma3::<T>(a, b, c)?;
                }

                #[test]
                fn unary_ops(k1: u8, r1: u64, r2: u64) {
                    unary::<T>(edge::<T>(k1, r1, r2))?;
                }

                #[test]
                fn compare(k1: u8, r1: u64, r2: u64, k2: u8, r3: u64, r4: u64) {
                    let (a, b) = pair(k1, r1, r2, k2, r3, r4);
                    cmp::<T>(a, b)?;
                    cmp::<T>(a, a)?;
                    cmp::<T>(a, a ^ T::SIGN)?;
                }

                #[test]
                fn from_int(k: u8, r: u64, r2: u64) {
                    let v = int_input(k, r, r2);
                    for rm in Round::ALL {
                        check::<T>(&format!("from_u64({v:#x}, {rm:?})"),
                            fp::from_u64::<T>(v, rm), mpfr::from_u64::<T>(v, rm),
                            sf::from_u64::<T>(v, rm), true)?;
                        let s = v as i64;
                        check::<T>(&format!("from_i64({s}, {rm:?})"),
                            fp::from_i64::<T>(s, rm), mpfr::from_i64::<T>(s, rm),
                            sf::from_i64::<T>(s, rm), true)?;
                        let n = s.wrapping_neg();
                        check::<T>(&format!("from_i64({n}, {rm:?})"),
                            fp::from_i64::<T>(n, rm), mpfr::from_i64::<T>(n, rm),
                            sf::from_i64::<T>(n, rm), true)?;
                    }
                }

                #[test]
                fn to_hf(k1: u8, r1: u64, r2: u64) {
                    conv::<T, Hf>(edge::<T>(k1, r1, r2))?;
                }

                #[test]
                fn to_f32(k1: u8, r1: u64, r2: u64) {
                    conv::<T, F32>(edge::<T>(k1, r1, r2))?;
                }

                #[test]
                fn to_f64(k1: u8, r1: u64, r2: u64) {
                    conv::<T, F64>(edge::<T>(k1, r1, r2))?;
                }
            }
        }
    };
}

/// Encode `m * 2^(e - FRAC_BITS)` for a normalised `m` and `e >= EMIN`.
fn enc<F: Format>(sign: bool, e: i32, m: u64) -> u64 {
    let s = if sign { F::SIGN } else { 0 };
    s | (((e + F::BIAS) as u64) << F::FRAC_BITS) | (m & F::FRAC_MASK)
}

/// Operands whose exact result is within a few ulps of the smallest normal
/// 2^EMIN, from below or above: tininess before/after rounding disagree
/// there, and results round up into (or down out of) the normal range.
fn tiny_boundary<F: Format + sf::SfOf>(r1: u64, r2: u64, r3: u64) -> Result<(), TestCaseError> {
    let f = F::FRAC_BITS as u64;
    let i = r1 % 5; // small perturbations
    let j = (r1 >> 8) % 5;
    let sa = r1 >> 16 & 1 != 0;
    let sb = r1 >> 17 & 1 != 0;
    // mul: (2 - (1+j) ulp) * (1 + i ulp) ~ 2 (1 - small), exponents sum to EMIN - 1
    let s = F::EMIN + (r2 % (-F::EMIN) as u64) as i32; // EMIN ..= -1
    let t = F::EMIN - 1 - s + (r2 >> 32 & 1) as i32 * (r2 >> 33 & 1) as i32;
    let ma = (2 * F::HIDDEN - 1 - j) | (r3 & 1); // near all ones
    let mb = F::HIDDEN + i + (r3 >> 1 & 3);
    let a = enc::<F>(sa, s, ma);
    let b = enc::<F>(sb, t.min(F::EMAX), mb);
    bin::<F>(Bin::Mul, a, b)?;
    // div: (1 + i ulp) / (1 + small) just below 1, exponents differ by EMIN
    let s2 = (r2 >> 40) as i32 % 20;
    let a2 = enc::<F>(sa, s2 + F::EMIN, F::HIDDEN + i);
    let b2 = enc::<F>(sb, s2, F::HIDDEN + i + 1 + j);
    bin::<F>(Bin::Div, a2, b2)?;
    bin::<F>(
        Bin::Div,
        b2 ^ F::SIGN,
        enc::<F>(false, -F::EMIN + s2 % 3, ma),
    )?;
    // fma: +-2^EMIN (+ k ulp) plus a product a few denormal ulps (or less)
    // of the opposite sign
    let c = enc::<F>(sa, F::EMIN, F::HIDDEN + (r3 >> 4) % 3);
    let small = (1 + (r3 >> 8) % 7) & F::FRAC_MASK; // a denormal multiple
    let u = 1 + (r3 >> 12) % (f + 3);
    let b3 = enc::<F>(false, -(u as i32), F::HIDDEN + (r3 >> 20) % 3);
    fma3::<F>(small | if sa { 0 } else { F::SIGN }, b3, c)?;
    Ok(())
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn tiny_boundary_hf(r1: u64, r2: u64, r3: u64) {
        tiny_boundary::<Hf>(r1, r2, r3)?;
    }

    #[test]
    fn tiny_boundary_f32(r1: u64, r2: u64, r3: u64) {
        tiny_boundary::<F32>(r1, r2, r3)?;
    }

    #[test]
    fn tiny_boundary_f64(r1: u64, r2: u64, r3: u64) {
        tiny_boundary::<F64>(r1, r2, r3)?;
    }

    /// Narrowing conversions of values just around the destination's
    /// smallest normal.
    #[test]
    fn tiny_boundary_narrowing(r1: u64, r2: u64) {
        // fraction near all-ones (just below a power of two) or near zero
        let low = |bits: u32| {
            let k = (r2 >> 8) % bits as u64;
            (r1 & ((1 << k) - 1)) ^ if r2 & 1 != 0 { (1 << bits) - 1 } else { 0 }
        };
        // DF around 2^-126 and 2^-14; F around 2^-14
        for (e, d) in [(-126i32, 0u32), (-14, 1)] {
            let de = e - 1 + (r2 >> 1 & 1) as i32;
            let a = enc::<F64>(r2 >> 2 & 1 != 0, de, F64::HIDDEN | low(52));
            if d == 0 { conv::<F64, F32>(a)?; } else { conv::<F64, Hf>(a)?; }
        }
        let a = enc::<F32>(r2 >> 2 & 1 != 0, -15 + (r2 >> 1 & 1) as i32, F32::HIDDEN | low(23));
        conv::<F32, Hf>(a)?;
    }
}

format_tests!(hf, Hf);
format_tests!(f32, F32);
format_tests!(f64, F64);

proptest! {
    #![proptest_config(cfg())]

    /// F -> HF with inputs concentrated around the HF range and its ties.
    #[test]
    fn f32_to_hf_near_range(r1: u64, r2: u64) {
        conv::<F32, Hf>(near_hf(r1, r2))?;
    }

    /// DF -> F and DF -> HF with DF inputs rounding-critical at F precision.
    #[test]
    fn f64_narrowing_ties(r1: u64, r2: u64) {
        // F exponent range -160..130 in DF, low 29 bits around a tie.
        let e = 1023 - 160 + (r2 % 290);
        let low = (0x1000_0000u64 + (r2 >> 20) % 3).wrapping_sub(1) & 0x1fff_ffff;
        let frac = (r1 & 0x000f_ffff_e000_0000) | if r2 >> 9 & 1 != 0 { low } else { r1 & 0x1fff_ffff };
        let a = ((r2 >> 10 & 1) << 63) | (e << 52) | frac;
        conv::<F64, F32>(a)?;
        conv::<F64, Hf>(a)?;
    }
}

/// A quickcheck property: F32 add/mul against MPFR on raw random bits
/// (quickcheck's own generator), every rounding mode.
#[test]
fn quickcheck_f32_add_mul_vs_mpfr() {
    fn prop(a: u32, b: u32) -> bool {
        let (a, b) = (a as u64, b as u64);
        Round::ALL.iter().all(|&rm| {
            let r = fp::add::<F32>(a, b, rm);
            let m = mpfr::add::<F32>(a, b, rm);
            let r2 = fp::mul::<F32>(a, b, rm);
            let m2 = mpfr::mul::<F32>(a, b, rm);
            (r.bits, r.flags) == m && (r2.bits, r2.flags) == m2
        })
    }
    quickcheck::QuickCheck::new()
        .tests(cases(DEFAULT_CASES) as u64)
        .quickcheck(prop as fn(u32, u32) -> bool);
}
