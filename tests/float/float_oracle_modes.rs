//! The EU floating-point layer (`euref::float`) against MPFR in every denorm mode and in ALT
//! mode: add, sub (add of a negated src1), mul, fma, frc (cr0 rounding, every mode) and div, sqrt (math FDIV/SQRT: RTNE,
//! fp.round.math-model) on HF, F and DF, on Ivy Bridge, Broadwell and Skylake with every
//! cr0.0 denorm-mode bit clear or set. The expected value is MPFR's correctly rounded result
//! on the EU's inputs, with the EU rules applied around it, written out here independently of
//! the library:
//!
//! * denormal flushing (fp.ieee.denorm.f.gen7, fp.ieee.denorm.f, fp.ieee.denorm.df,
//!   fp.ieee.denorm.hf.gen8, fp.ieee.denorm.hf, fp.ieee.denorm.hf-math.gen9): a flushed type
//!   reads denormal operands as sign-preserved zeros and delivers a rounded denormal result as
//!   a sign-preserved zero (fp.tininess: judged after rounding);
//! * ALT mode, F only (fp.alt.input-*, fp.alt.result-*): NaN operands read as +0, +-inf as
//!   +-fmax, denormals as +-0; results +-inf -> +-fmax, NaN -> +0, denormal -> +-0;
//! * NaN results: any NaN (fp.ieee.nan-any-pattern).
//!
//! Feature `oracles`: `cargo test --features oracles --test float -- float_oracle_modes::`.
#![cfg(feature = "oracles")]

use crate::fp_support;

use euref::float::{self, FloatEnv, FloatType};
use euref::fp::{self, Format, Hf, Round, F32, F64};
use euref::spec::Platform;
use fp_support::{add_partner, cases, edge, mpfr};
use proptest::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    Add,
    Sub,
    Mul,
    Fma,
    Div,
    Sqrt,
    Frc,
}

const OPS: [Op; 7] = [
    Op::Add,
    Op::Sub,
    Op::Mul,
    Op::Fma,
    Op::Div,
    Op::Sqrt,
    Op::Frc,
];
const PLATFORMS: [Platform; 3] = [Platform::Ivb, Platform::Bdw, Platform::Skl];

/// Whether `ty` flushes denormals on `p` with every denorm-mode bit `keep`, for arithmetic
/// (`math` false) or the extended math functions (`math` true).
fn flushes(p: Platform, ty: FloatType, keep: bool, math: bool) -> bool {
    let gen7 = matches!(p, Platform::Ivb | Platform::Hsw);
    let gen8 = matches!(p, Platform::Bdw | Platform::Chv);
    match ty {
        FloatType::F => gen7 || !keep,
        FloatType::Df => !keep,
        FloatType::Hf if gen8 => true,
        FloatType::Hf => !keep && !math,
    }
}

fn is_denormal<F: Format>(x: u64) -> bool {
    x & F::EXP_MASK == 0 && x & F::FRAC_MASK != 0
}

/// The EU's view of an operand.
fn operand<F: Format>(x: u64, flush: bool, alt: bool) -> u64 {
    let sign = x & F::SIGN;
    if alt {
        if fp::is_nan::<F>(x) {
            return 0;
        }
        if fp::is_inf::<F>(x) {
            return sign | F::MAX_FINITE;
        }
    }
    if (flush || alt) && is_denormal::<F>(x) {
        return sign;
    }
    x
}

/// The expected result bits, or `None` for "any NaN".
fn expected<F: Format>(op: Op, o: [u64; 3], rm: Round, flush: bool, alt: bool) -> Option<u64> {
    // sub is add with a negated src1 (a source modifier, applied before the EU input rules).
    let o = if op == Op::Sub {
        [o[0], o[1] ^ F::SIGN, o[2]]
    } else {
        o
    };
    let [a, b, c] = o.map(|x| operand::<F>(x, flush, alt));
    let (r, _) = match op {
        Op::Add | Op::Sub => mpfr::add::<F>(a, b, rm),
        Op::Mul => mpfr::mul::<F>(a, b, rm),
        Op::Fma => mpfr::fma::<F>(a, b, c, rm),
        Op::Div => mpfr::div::<F>(a, b, Round::Rtne),
        // ALT: sqrt takes |x| (fp.alt.math-abs).
        Op::Sqrt if alt => mpfr::sqrt::<F>(a & !F::SIGN, Round::Rtne),
        Op::Sqrt => mpfr::sqrt::<F>(a, Round::Rtne),
        // fp.frc.definition: a - floor(a), rounded in the cr0 mode.
        Op::Frc => {
            let (floor, _) = mpfr::round_to_integral::<F>(a, Round::Rd);
            mpfr::sub::<F>(a, floor, rm)
        }
    };
    let sign = r & F::SIGN;
    if fp::is_nan::<F>(r) {
        return if alt { Some(0) } else { None };
    }
    if alt && fp::is_inf::<F>(r) {
        return Some(sign | F::MAX_FINITE);
    }
    if (flush || alt) && is_denormal::<F>(r) {
        return Some(sign);
    }
    Some(r)
}

fn run(env: &FloatEnv, ty: FloatType, op: Op, o: [u64; 3]) -> float::FloatOut {
    match op {
        Op::Add => float::add(env, ty, o[0], o[1]),
        Op::Sub => float::sub(env, ty, o[0], o[1]),
        Op::Mul => float::mul(env, ty, o[0], o[1]),
        Op::Fma => float::fma(env, ty, o[0], o[1], o[2]),
        Op::Div => float::div(env, ty, o[0], o[1]),
        Op::Sqrt => float::sqrt(env, ty, o[0]),
        Op::Frc => float::frc(env, ty, o[0]),
    }
}

/// Every op, platform, denorm setting and rounding mode (and ALT for F) on operands `o`.
fn check<F: Format>(ty: FloatType, o: [u64; 3]) -> Result<(), TestCaseError> {
    for p in PLATFORMS {
        if ty == FloatType::Hf && p == Platform::Ivb {
            continue; // no HF arithmetic before Gen8
        }
        for keep in [false, true] {
            for alt in [false, true] {
                if alt && (ty != FloatType::F || keep) {
                    continue;
                }
                for rm in Round::ALL {
                    let env = FloatEnv::new(p)
                        .with_rounding(rm)
                        .with_denorms(keep)
                        .with_alt(alt);
                    for op in OPS {
                        if matches!(op, Op::Div | Op::Sqrt) && rm != Round::Rtne {
                            continue; // RTNE whatever cr0 says: one mode is enough
                        }
                        let math = matches!(op, Op::Div | Op::Sqrt);
                        let flush = flushes(p, ty, keep, math);
                        let got = run(&env, ty, op, o);
                        let o = o.map(|x| x & F::MASK);
                        match expected::<F>(op, o, rm, flush, alt) {
                            None => prop_assert!(
                                fp::is_nan::<F>(got.bits) && got.any_nan_allowed,
                                "{op:?} {ty:?} {p:?} keep={keep} {rm:?} {o:x?}: {:#x}",
                                got.bits
                            ),
                            Some(want) => prop_assert_eq!(
                                got.bits,
                                want,
                                "{:?} {:?} {:?} keep={} alt={} {:?} {:x?}",
                                op,
                                ty,
                                p,
                                keep,
                                alt,
                                rm,
                                o
                            ),
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

fn operands<F: Format>(k: [u8; 3], r: [u64; 6]) -> [u64; 3] {
    let a = edge::<F>(k[0], r[0], r[1]);
    let b = if k[1] & 0x80 != 0 {
        add_partner::<F>(a, k[1], r[2])
    } else {
        edge::<F>(k[1], r[2], r[3])
    };
    let c = edge::<F>(k[2], r[4], r[5]);
    [a, b, c]
}

fn cfg() -> ProptestConfig {
    ProptestConfig {
        cases: cases(1_500),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn hf_every_mode(k: [u8; 3], r: [u64; 6]) {
        check::<Hf>(FloatType::Hf, operands::<Hf>(k, r))?;
    }

    #[test]
    fn f_every_mode_and_alt(k: [u8; 3], r: [u64; 6]) {
        check::<F32>(FloatType::F, operands::<F32>(k, r))?;
    }

    #[test]
    fn df_every_mode(k: [u8; 3], r: [u64; 6]) {
        check::<F64>(FloatType::Df, operands::<F64>(k, r))?;
    }
}

/// Fixed cases that must exercise each rule: a flushed denormal operand, a result that rounds
/// up to the smallest normal (kept), a denormal result (flushed), ALT inf and NaN operands.
#[test]
fn named_mode_cases() {
    let skl = |keep: bool| FloatEnv::new(Platform::Skl).with_denorms(keep);
    let f = FloatType::F;
    // 2^-149 + 0: kept with bit 7 set, +0 without, and always on Ivy Bridge.
    assert_eq!(float::add(&skl(true), f, 1, 0).bits, 1);
    assert_eq!(float::add(&skl(false), f, 1, 0).bits, 0);
    assert_eq!(
        float::add(&FloatEnv::new(Platform::Ivb).with_denorms(true), f, 1, 0).bits,
        0
    );
    // 2^-126 * (1 - 2^-24) = 2^-126 - 2^-150, a tie that rounds (RTNE) up to the smallest
    // normal: kept even when flushing (fp.tininess); toward zero it is a denormal: flushed.
    assert_eq!(
        float::mul(&skl(false), f, 0x0080_0000, 0x3f7f_ffff).bits,
        0x0080_0000
    );
    let rtz = skl(false).with_rounding(euref::fp::Round::Rtz);
    assert_eq!(float::mul(&rtz, f, 0x0080_0000, 0x3f7f_ffff).bits, 0);
    // 2^-126 * 0.5 is a denormal result: flushed to +0, sign kept for -2^-126 * 0.5.
    assert_eq!(float::mul(&skl(false), f, 0x0080_0000, 0x3f00_0000).bits, 0);
    assert_eq!(
        float::mul(&skl(false), f, 0x8080_0000, 0x3f00_0000).bits,
        0x8000_0000
    );
    // ALT: inf + 1 = fmax; NaN * 2 = +0 * 2 = +0; fmax * 2 -> inf -> fmax.
    let alt = FloatEnv::new(Platform::Skl).with_alt(true);
    assert_eq!(
        float::add(&alt, f, 0x7f80_0000, 0x3f80_0000).bits,
        0x7f7f_ffff
    );
    assert_eq!(float::mul(&alt, f, 0x7fc0_0000, 0x4000_0000).bits, 0);
    assert_eq!(
        float::mul(&alt, f, 0xff7f_ffff, 0x4000_0000).bits,
        0xff7f_ffff
    );
    // HF: Broadwell flushes whatever the bits; Skylake math keeps HF denormals.
    let hf = FloatType::Hf;
    let bdw = FloatEnv::new(Platform::Bdw).with_denorms(true);
    assert_eq!(float::add(&bdw, hf, 1, 0).bits, 0);
    assert_eq!(float::sqrt(&skl(false), hf, 0x0004).bits, 0x1000); // sqrt(2^-22) = 2^-11
}
