//! spec/math.toml: the [[func]] rows (types, platforms, bounds) and named cases of every
//! function with hand-computed bits (correctly rounded, RTNE; values checked with an
//! independent arbitrary-precision computation when the cases were written), integer divide
//! edge cases, the INVM/RSQRTM early-out results and undefined cases, and the tolerance
//! checks. Runs without the `oracles` feature.

use euref::float::FloatEnv;
use euref::math::{eval, func_row, MathError, MathFn, MathOut, Tolerance};
use euref::spec::math::FUNCS;
use euref::spec::{DataType, Platform};

use DataType::{D, DF, F, HF, UD};
use Platform::*;

/// cr0.0 bit 7: single precision denormals kept (Gen8+).
const F32_DENORM: u32 = 1 << 7;
/// cr0.0 bit 0: ALT mode.
const ALT: u32 = 1;

fn env(p: Platform, cr0: u32) -> FloatEnv {
    FloatEnv::from_cr0(p, cr0)
}

fn run(f: MathFn, ty: DataType, a: u64, b: u64, p: Platform, cr0: u32) -> MathOut {
    eval(f, ty, a, b, &env(p, cr0)).unwrap_or_else(|e| panic!("{f:?} {ty:?} {a:#x} {b:#x}: {e}"))
}

fn f1(f: MathFn, a: u32) -> u32 {
    run(f, F, a as u64, 0, Skl, 0).bits as u32
}

fn f2(f: MathFn, a: u32, b: u32) -> u32 {
    run(f, F, a as u64, b as u64, Skl, 0).bits as u32
}

// ------------------------------------------------------------------ func rows

fn row(id: &str) -> &'static euref::spec::math::MathFuncInfo {
    FUNCS
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("math row {id} missing"))
}

/// (id, function, types, platforms, srcs, ulps, abs_error)
type FuncRow = (
    &'static str,
    MathFn,
    &'static [DataType],
    &'static [Platform],
    u8,
    f64,
    f64,
);

#[test]
fn func_rows_types_platforms_and_bounds() {
    const ALL: [Platform; 6] = Platform::ALL;
    const GEN9: [Platform; 2] = [Skl, Bxt];
    const GEN8P: [Platform; 4] = [Bdw, Chv, Skl, Bxt];
    // (id, function, types, platforms, srcs, ulps, abs)
    let expect: &[FuncRow] = &[
        ("math.inv.f", MathFn::Inv, &[F], &ALL, 1, 1.0, 0.0),
        ("math.inv.hf", MathFn::Inv, &[HF], &GEN9, 1, 1.0, 0.0),
        (
            "math.log.f",
            MathFn::Log,
            &[F],
            &ALL,
            1,
            3.0,
            4.76837158203125e-7,
        ),
        ("math.log.hf", MathFn::Log, &[HF], &GEN9, 1, 3.0, 0.0009771),
        ("math.exp.f", MathFn::Exp, &[F], &ALL, 1, 3.0, 0.0),
        ("math.exp.hf", MathFn::Exp, &[HF], &GEN9, 1, 3.0, 0.0),
        ("math.sqrt.f", MathFn::Sqrt, &[F], &ALL, 1, 3.0, 0.0),
        ("math.sqrt.hf", MathFn::Sqrt, &[HF], &GEN9, 1, 3.0, 0.0),
        ("math.rsq.f", MathFn::Rsq, &[F], &ALL, 1, 2.0, 0.0),
        ("math.rsq.hf", MathFn::Rsq, &[HF], &GEN9, 1, 2.0, 0.0),
        ("math.sin.f", MathFn::Sin, &[F], &ALL, 1, 0.0, 6.0e-5),
        ("math.sin.hf", MathFn::Sin, &[HF], &GEN9, 1, 0.0, 0.00104),
        ("math.cos.f", MathFn::Cos, &[F], &ALL, 1, 0.0, 6.0e-5),
        ("math.cos.hf", MathFn::Cos, &[HF], &GEN9, 1, 0.0, 0.00104),
        ("math.fdiv.f", MathFn::Fdiv, &[F], &ALL, 2, 3.0, 0.0),
        ("math.fdiv.hf", MathFn::Fdiv, &[HF], &GEN9, 2, 3.0, 0.0),
        ("math.pow.f", MathFn::Pow, &[F], &ALL, 2, 8192.0, 0.0),
        ("math.pow.hf", MathFn::Pow, &[HF], &GEN9, 2, 8192.0, 0.0),
        (
            "math.int-div-quotient",
            MathFn::IntDivQuotient,
            &[UD, D],
            &ALL,
            2,
            0.0,
            0.0,
        ),
        (
            "math.int-div-remainder",
            MathFn::IntDivRemainder,
            &[UD, D],
            &ALL,
            2,
            0.0,
            0.0,
        ),
        (
            "math.int-div-both",
            MathFn::IntDivBoth,
            &[UD, D],
            &ALL,
            2,
            0.0,
            0.0,
        ),
        ("math.invm", MathFn::Invm, &[F, DF], &GEN8P, 2, 0.0, 0.0),
        ("math.rsqrtm", MathFn::Rsqrtm, &[F, DF], &GEN8P, 1, 0.0, 0.0),
    ];
    assert_eq!(
        FUNCS.len(),
        expect.len(),
        "every [[func]] row is listed here"
    );
    for (id, f, types, gens, srcs, ulps, abs) in expect {
        let r = row(id);
        assert_eq!(r.func, *f, "{id}");
        assert_eq!(r.types.iter().collect::<Vec<_>>(), types.to_vec(), "{id}");
        for p in Platform::ALL {
            assert_eq!(r.gens.contains(p), gens.contains(&p), "{id} on {p:?}");
        }
        assert_eq!(r.srcs, *srcs, "{id}");
        assert_eq!(r.ulps.to_bits(), ulps.to_bits(), "{id}");
        assert_eq!(r.abs_error.to_bits(), abs.to_bits(), "{id}");
        assert!(!r.cite.is_empty() && !r.text.is_empty(), "{id}");
        for p in Platform::ALL {
            for t in DataType::ALL {
                let found = func_row(*f, t, p).map(|x| x.id);
                if r.gens.contains(p) && r.types.contains(t) {
                    assert_eq!(found, Some(r.id), "{id} {t:?} {p:?}");
                }
            }
        }
    }
}

#[test]
fn unavailable_functions_are_errors() {
    // HF math is Gen9 only; DF has no math function but INVM/RSQRTM; INVM/RSQRTM are Gen8+.
    for (f, ty, p) in [
        (MathFn::Inv, HF, Bdw),
        (MathFn::Sqrt, DF, Skl),
        (MathFn::Invm, F, Hsw),
        (MathFn::Rsqrtm, DF, Ivb),
        (MathFn::IntDivQuotient, F, Skl),
        (MathFn::Sin, D, Skl),
        (MathFn::None, F, Skl),
    ] {
        match eval(f, ty, 0, 0, &env(p, 0)) {
            Err(MathError::NotAvailable {
                func,
                ty: t,
                platform,
            }) => {
                assert_eq!((func, t, platform), (f, ty, p));
            }
            other => panic!("{f:?} {ty:?} {p:?}: {other:?}"),
        }
    }
}

// ------------------------------------------------------------------ named F cases

#[test]
fn inv_named() {
    assert_eq!(f1(MathFn::Inv, 0x4000_0000), 0x3f00_0000); // 1/2
    assert_eq!(f1(MathFn::Inv, 0x4040_0000), 0x3eaa_aaab); // 1/3
    assert_eq!(f1(MathFn::Inv, 0xc080_0000), 0xbe80_0000); // 1/-4
                                                           // 1/fmax is below the normal range: denormal kept with the F denorm bit, else flushed.
    let r = run(MathFn::Inv, F, 0x7f7f_ffff, 0, Skl, F32_DENORM);
    assert_eq!(r.bits, 0x0020_0000);
    assert_eq!(run(MathFn::Inv, F, 0x7f7f_ffff, 0, Skl, 0).bits, 0);
    assert_eq!(run(MathFn::Inv, F, 0x7f7f_ffff, 0, Ivb, F32_DENORM).bits, 0);
    // 1/denormal overflows (denormal kept).
    assert_eq!(run(MathFn::Inv, F, 1, 0, Skl, F32_DENORM).bits, 0x7f80_0000);
}

#[test]
fn sqrt_rsq_named() {
    assert_eq!(f1(MathFn::Sqrt, 0x4000_0000), 0x3fb5_04f3);
    assert_eq!(f1(MathFn::Sqrt, 0x4110_0000), 0x4040_0000); // sqrt 9 = 3
    assert_eq!(f1(MathFn::Sqrt, 0x7f7f_ffff), 0x5f7f_ffff);
    assert_eq!(f1(MathFn::Rsq, 0x4080_0000), 0x3f00_0000); // 1/sqrt 4
    assert_eq!(f1(MathFn::Rsq, 0x4000_0000), 0x3f35_04f3); // 1/sqrt 2
    assert_eq!(f1(MathFn::Rsq, 0x3f80_0000), 0x3f80_0000);
    // rsq of the smallest denormal: 2^74.5 = 2^74 * sqrt 2.
    assert_eq!(run(MathFn::Rsq, F, 1, 0, Skl, F32_DENORM).bits, 0x64b5_04f3);
    // flushed: rsq(+0) = +inf.
    assert_eq!(run(MathFn::Rsq, F, 1, 0, Skl, 0).bits, 0x7f80_0000);
}

#[test]
fn log_exp_named() {
    assert_eq!(f1(MathFn::Log, 0x4100_0000), 0x4040_0000); // log2 8 = 3
    assert_eq!(f1(MathFn::Log, 0x3f80_0000), 0); // log2 1 = +0
    assert_eq!(f1(MathFn::Log, 0x4120_0000), 0x4054_9a78); // log2 10
    assert_eq!(f1(MathFn::Log, 0x3f80_0001), 0x3438_aa3a); // log2(1 + 2^-23)
    assert_eq!(f1(MathFn::Exp, 0x4040_0000), 0x4100_0000); // 2^3
    assert_eq!(f1(MathFn::Exp, 0x3f00_0000), 0x3fb5_04f3); // 2^0.5
    assert_eq!(f1(MathFn::Exp, 0x3dcc_cccd), 0x3f89_2fdf); // 2^0.1f
    assert_eq!(f1(MathFn::Exp, 0x42ff_0000), 0x7f35_04f3); // 2^127.5
    assert_eq!(f1(MathFn::Exp, 0x4300_0000), 0x7f80_0000); // 2^128 overflows
    assert_eq!(f1(MathFn::Exp, 0), 0x3f80_0000);
    assert_eq!(f1(MathFn::Exp, 0x8000_0000), 0x3f80_0000);
    // 2^-149 is the smallest denormal; 2^-150 is the tie between it and 0 (even: 0).
    assert_eq!(run(MathFn::Exp, F, 0xc315_0000, 0, Skl, F32_DENORM).bits, 1);
    assert_eq!(run(MathFn::Exp, F, 0xc316_0000, 0, Skl, F32_DENORM).bits, 0);
    assert_eq!(run(MathFn::Exp, F, 0xc315_0000, 0, Ivb, 0).bits, 0);
}

#[test]
fn sin_cos_named() {
    assert_eq!(f1(MathFn::Sin, 0x3f80_0000), 0x3f57_6aa4); // sin 1
    assert_eq!(f1(MathFn::Cos, 0x3f80_0000), 0x3f0a_5140); // cos 1
    assert_eq!(f1(MathFn::Sin, 0x42c8_0000), 0xbf01_a12e); // sin 100
    assert_eq!(f1(MathFn::Cos, 0x7149_f2ca), 0xbf1c_9222); // cos 1e30f
    assert_eq!(f1(MathFn::Cos, 0), 0x3f80_0000);
    assert_eq!(f1(MathFn::Cos, 0x8000_0000), 0x3f80_0000);
    // sin(-x) = -sin(x)
    assert_eq!(f1(MathFn::Sin, 0xbf80_0000), 0xbf57_6aa4);
}

#[test]
fn fdiv_pow_named() {
    assert_eq!(f2(MathFn::Fdiv, 0x3f80_0000, 0x4040_0000), 0x3eaa_aaab); // 1/3
    assert_eq!(f2(MathFn::Fdiv, 0x4120_0000, 0xc000_0000), 0xc0a0_0000); // 10/-2
    assert_eq!(f2(MathFn::Pow, 0x4000_0000, 0x4120_0000), 0x4480_0000); // 2^10
    assert_eq!(f2(MathFn::Pow, 0x4000_0000, 0x3f00_0000), 0x3fb5_04f3); // 2^0.5
    assert_eq!(f2(MathFn::Pow, 0x4040_0000, 0x3f00_0000), 0x3fdd_b3d7); // 3^0.5
                                                                        // 4097^2 = 2^24 + 2^13 + 1 lies exactly halfway between two floats: ties to even.
    assert_eq!(f2(MathFn::Pow, 0x4580_0800, 0x4000_0000), 0x4b80_1000);
    // 9^0.5 = 3 exactly; 16^-0.25 = 0.5; 1^y = 1; x^0 = 1.
    assert_eq!(f2(MathFn::Pow, 0x4110_0000, 0x3f00_0000), 0x4040_0000);
    assert_eq!(f2(MathFn::Pow, 0x4180_0000, 0xbe80_0000), 0x3f00_0000);
    assert_eq!(f2(MathFn::Pow, 0x3f80_0000, 0x4b00_0001), 0x3f80_0000);
    assert_eq!(f2(MathFn::Pow, 0x4049_0fdb, 0), 0x3f80_0000);
    assert_eq!(f2(MathFn::Pow, 0x4049_0fdb, 0x8000_0000), 0x3f80_0000);
}

#[test]
fn pow_base_against_one_with_infinite_exponent() {
    // powr(x, +-inf) for a positive finite base: exp2(+-inf * log2 x), through the EXP rows.
    let case = |x: u32, y: u32| run(MathFn::Pow, F, x as u64, y as u64, Skl, 0);
    let r = case(0x3f00_0000, 0x7f80_0000); // 0.5^+inf
    assert_eq!((r.bits, r.special_rule), (0, Some("math.exp.neg-inf")));
    let r = case(0x4000_0000, 0x7f80_0000); // 2^+inf
    assert_eq!(
        (r.bits, r.special_rule),
        (0x7f80_0000, Some("math.exp.pos-inf"))
    );
    let r = case(0x3f00_0000, 0xff80_0000); // 0.5^-inf
    assert_eq!(
        (r.bits, r.special_rule),
        (0x7f80_0000, Some("math.exp.pos-inf"))
    );
    let r = case(0x4000_0000, 0xff80_0000); // 2^-inf
    assert_eq!((r.bits, r.special_rule), (0, Some("math.exp.neg-inf")));
    let r = case(0x3f80_0000, 0x7f80_0000); // 1^inf: 0 * inf = NaN
    assert!(r.any_nan_allowed && r.special_rule == Some("math.exp.nan"));
    assert!(r.tolerance.is_exact());
}

// ------------------------------------------------------------------ HF

#[test]
fn hf_named() {
    let h = |f: MathFn, a: u16, b: u16| run(f, HF, a as u64, b as u64, Skl, 0).bits as u16;
    assert_eq!(h(MathFn::Inv, 0x4200, 0), 0x3555); // 1/3 = 0.33325
    assert_eq!(h(MathFn::Sqrt, 0x4000, 0), 0x3da8); // sqrt 2 = 1.4141
    assert_eq!(h(MathFn::Rsq, 0x4000, 0), 0x39a8); // 0.70703
    assert_eq!(h(MathFn::Log, 0x4900, 0), 0x42a5); // log2 10 = 3.3223
    assert_eq!(h(MathFn::Exp, 0x3800, 0), 0x3da8); // 2^0.5
    assert_eq!(h(MathFn::Sin, 0x3c00, 0), 0x3abb); // sin 1 = 0.8413
    assert_eq!(h(MathFn::Cos, 0x3c00, 0), 0x3853); // cos 1 = 0.5405
    assert_eq!(h(MathFn::Fdiv, 0x3c00, 0x4200), 0x3555);
    assert_eq!(h(MathFn::Pow, 0x4000, 0x4900), 0x6400); // 2^10 = 1024
                                                        // HF math keeps denormals on Gen9 (fp.ieee.denorm.hf-math.gen9): 2^-24 is the smallest.
    assert_eq!(h(MathFn::Exp, 0xce00, 0), 0x0001); // 2^-24
    assert_eq!(h(MathFn::Exp, 0xce40, 0), 0x0000); // 2^-25: tie, even
    assert_eq!(h(MathFn::Inv, 0x7bff, 0), 0x0100); // 1/65504 = 2^-16 * 1.0003 -> denormal
}

// ------------------------------------------------------------------ integer divide

#[test]
fn int_div_signed_and_unsigned() {
    let q = |ty, a: u32, b: u32| run(MathFn::IntDivQuotient, ty, a as u64, b as u64, Ivb, 0);
    let r = |ty, a: u32, b: u32| run(MathFn::IntDivRemainder, ty, a as u64, b as u64, Ivb, 0);
    let i = |v: i32| v as u32;
    // Signs per visa DIV.md: quotient truncated toward zero, remainder has the dividend's sign.
    for (a, b, qq, rr) in [
        (7, 2, 3, 1),
        (7, -2, -3, 1),
        (-7, 2, -3, -1),
        (-7, -2, 3, -1),
    ] {
        let (x, y) = (q(D, i(a), i(b)), r(D, i(a), i(b)));
        assert_eq!((x.bits as u32, y.bits as u32), (i(qq), i(rr)), "{a} / {b}");
        assert!(!x.undefined && !y.undefined && x.tolerance.is_exact());
        assert_eq!(x.func_rule, "math.int-div-quotient");
        assert_eq!(y.func_rule, "math.int-div-remainder");
    }
    // Unsigned: 0xFFFFFFFF / 2.
    assert_eq!(q(UD, u32::MAX, 2).bits, 0x7fff_ffff);
    assert_eq!(r(UD, u32::MAX, 2).bits, 1);
    // The same bits read as D: -1 / 2 = 0 rem -1.
    assert_eq!(q(D, u32::MAX, 2).bits, 0);
    assert_eq!(r(D, u32::MAX, 2).bits as u32, u32::MAX);
    // INT_MIN / -1: quotient undefined (model: wrapped 0x80000000), remainder 0.
    let x = q(D, 0x8000_0000, u32::MAX);
    assert!(x.undefined);
    assert_eq!(x.bits, 0x8000_0000);
    let y = r(D, 0x8000_0000, u32::MAX);
    assert!(!y.undefined);
    assert_eq!(y.bits, 0);
    // As UD it is an ordinary division.
    assert_eq!(q(UD, 0x8000_0000, u32::MAX).bits, 0);
    // Division by zero: undefined, any value accepted.
    for ty in [D, UD] {
        let x = q(ty, 5, 0);
        let y = r(ty, 5, 0);
        assert!(x.undefined && y.undefined);
        assert_eq!((x.bits, y.bits), (0xffff_ffff, 5));
        assert!(x.accepts(ty, 1234) && y.accepts(ty, 0));
    }
    // Both: quotient to dst, remainder to the next register.
    let b = run(MathFn::IntDivBoth, D, i(-9) as u64, 4, Skl, 0);
    assert_eq!(
        (b.bits as u32, b.bits2.map(|v| v as u32)),
        (i(-2), Some(i(-1)))
    );
    assert_eq!(b.func_rule, "math.int-div-both");
    assert!(!b.undefined);
    let b = run(MathFn::IntDivBoth, UD, 9, 0, Skl, 0);
    assert!(b.undefined);
    // Bits above the dword are ignored.
    let x = run(MathFn::IntDivQuotient, UD, 0x1_0000_0006, 3, Ivb, 0);
    assert_eq!(x.bits, 2);
}

// ------------------------------------------------------------------ INVM, RSQRTM

#[test]
fn invm_rsqrtm_early_out_and_undefined() {
    // INVM: special operands give the fdiv special result with EO set.
    let r = run(MathFn::Invm, F, 0x3f80_0000, 0, Skl, 0); // 1 / +0
    assert_eq!(r.bits, 0x7f80_0000);
    assert_eq!(r.early_out, Some(true));
    assert!(!r.undefined);
    assert_eq!(r.special_rule, Some("math.fdiv.pos-fin.pos-zero"));
    assert_eq!(r.func_rule, "math.invm");
    let r = run(MathFn::Invm, DF, 0, 0x8000_0000_0000_0000, Bdw, 0); // +0 / -0
    assert!(r.any_nan_allowed && r.early_out == Some(true));
    let r = run(
        MathFn::Invm,
        DF,
        0xfff0_0000_0000_0000,
        0x4000_0000_0000_0000,
        Skl,
        0,
    ); // -inf / 2
    assert_eq!(r.bits, 0xfff0_0000_0000_0000);
    assert_eq!(r.early_out, Some(true));
    let r = run(MathFn::Invm, F, 0x4000_0000, 0xff80_0000, Skl, 0); // 2 / -inf = -0
    assert_eq!((r.bits, r.early_out), (0x8000_0000, Some(true)));
    // A denormal divisor flushed by the math input rule (F denormals flushed: cr0.0 bit 7
    // clear) is a zero: EO with the infinite quotient.
    let r = run(MathFn::Invm, F, 0x3f80_0000, 0x0000_0001, Skl, 0);
    assert_eq!((r.bits, r.early_out), (0x7f80_0000, Some(true)));
    // Ordinary operands: the approximation and the EO bit are undefined (any value accepted);
    // the stand-in bits are the correctly rounded quotient.
    let r = run(MathFn::Invm, F, 0x3f80_0000, 0x4040_0000, Skl, 0); // 1 / 3
    assert!(r.undefined && r.early_out.is_none() && r.special_rule.is_none());
    assert_eq!(r.bits, 0x3eaa_aaab);
    assert!(r.accepts(F, 0x1234_5678) && r.accepts(F, 0x7fc0_0000));
    // A kept denormal divisor is not an early-out case either.
    let r = run(MathFn::Invm, F, 0x3f80_0000, 0x0000_0001, Skl, F32_DENORM);
    assert!(r.undefined && r.early_out.is_none());
    // RSQRTM: the sqrt special results with EO set (IGC's IEEE sqrt delivers them).
    let r = run(MathFn::Rsqrtm, DF, 0xbff0_0000_0000_0000, 0, Skl, 0); // -1
    assert!(r.any_nan_allowed && r.early_out == Some(true));
    assert_eq!(r.special_rule, Some("math.sqrt.neg-fin"));
    let r = run(MathFn::Rsqrtm, F, 0x7fc0_0001, 0, Chv, 0);
    assert_eq!(r.special_rule, Some("math.sqrt.nan"));
    for (a, want, id) in [
        (0u64, 0u64, "math.sqrt.pos-zero"),
        (0x8000_0000, 0x8000_0000, "math.sqrt.neg-zero"),
        (0x7f80_0000, 0x7f80_0000, "math.sqrt.pos-inf"),
        (0xff80_0000, 0x7fc0_0000, "math.sqrt.neg-inf"),
    ] {
        let r = run(MathFn::Rsqrtm, F, a, 0, Skl, 0);
        assert_eq!((r.bits, r.early_out), (want, Some(true)), "{a:#x}");
        assert_eq!(r.special_rule, Some(id));
        assert!(!r.undefined);
    }
    // Negative kept denormal: NaN; positive kept denormal and positive normals: undefined.
    let r = run(MathFn::Rsqrtm, F, 0x8000_0001, 0, Skl, F32_DENORM);
    assert_eq!(r.special_rule, Some("math.sqrt.neg-denorm"));
    for a in [0x4000_0000u64, 0x0000_0001] {
        let r = run(MathFn::Rsqrtm, F, a, 0, Skl, F32_DENORM);
        assert!(r.undefined && r.early_out.is_none(), "{a:#x}");
    }
    let r = run(MathFn::Rsqrtm, DF, 0x4010_0000_0000_0000, 0, Bdw, 0); // 4
    assert!(r.undefined);
    assert_eq!(r.bits, 0x4000_0000_0000_0000);
    // Not on Gen7.
    assert!(matches!(
        eval(MathFn::Rsqrtm, F, 0, 0, &env(Hsw, 0)),
        Err(MathError::NotAvailable { .. })
    ));
}

// ------------------------------------------------------------------ tolerance

#[test]
fn tolerance_accepts_within_the_row_bound() {
    // EXP(0.5): model 0x3fb504f3, bound 3 ULP.
    let r = run(MathFn::Exp, F, 0x3f00_0000, 0, Skl, 0);
    assert_eq!(
        r.tolerance,
        Tolerance {
            ulps: 3.0,
            abs: 0.0
        }
    );
    assert!(r.accepts(F, 0x3fb5_04f3 + 3) && r.accepts(F, 0x3fb5_04f3 - 3));
    assert!(!r.accepts(F, 0x3fb5_04f3 + 4));
    assert!(!r.accepts(F, 0x7fc0_0000));
    // LOG: abs_range [0.5, 2.0] (math.log.f): inside it the absolute bound alone, outside
    // it the 3 ULP bound alone.
    assert_eq!(row("math.log.f").abs_range, Some((0.5, 2.0)));
    assert_eq!(row("math.log.hf").abs_range, Some((0.5, 2.0)));
    assert_eq!(row("math.sin.f").abs_range, None);
    let r = run(MathFn::Log, F, 0x4020_0000, 0, Skl, 0); // log2 2.5 = 1.32...
    assert_eq!(
        r.tolerance,
        Tolerance {
            ulps: 3.0,
            abs: 0.0
        }
    );
    assert!(r.accepts(F, r.bits + 3) && r.accepts(F, r.bits - 3));
    // 4 ULP of a result in [1, 2) is 2^-21: within the absolute bound, which does not
    // apply outside [0.5, 2.0].
    assert!(!r.accepts(F, r.bits + 4));
    for (x, inside) in [
        (0x3f00_0000u64, true),
        (0x4000_0000, true),
        (0x3eff_ffff, false),
    ] {
        let r = run(MathFn::Log, F, x, 0, Skl, 0);
        assert_eq!(r.tolerance.ulps == 0.0, inside, "{x:#x}");
        assert_eq!(r.tolerance.abs > 0.0, inside, "{x:#x}");
    }
    // LOG near 1: the absolute bound 2^-21 accepts far more than 3 ULP of a tiny result.
    let r = run(MathFn::Log, F, 0x3f80_0001, 0, Skl, 0);
    assert_eq!(r.tolerance.ulps, 0.0);
    assert!(r.accepts(F, 0x3438_aa3a + 100));
    assert!(r.accepts(F, 0)); // |1.7e-7 - 0| < 2^-21
    assert!(!r.accepts(F, 0x3600_0000)); // 1.9e-6
                                         // SIN: absolute 6e-5 only.
    let r = run(MathFn::Sin, F, 0x3f80_0000, 0, Skl, 0);
    assert!(r.accepts(F, 0x3f57_6aa4 + 400)); // ~2.4e-5 away
    assert!(!r.accepts(F, 0x3f57_6aa4 + 1100)); // ~6.6e-5 away
                                                // Special results are exact; a NaN result accepts any NaN.
    let r = run(MathFn::Sqrt, F, 0xbf80_0000, 0, Skl, 0);
    assert!(r.tolerance.is_exact() && r.any_nan_allowed);
    assert!(r.accepts(F, 0xffc0_0123) && !r.accepts(F, 0));
    let r = run(MathFn::Inv, F, 0, 0, Skl, 0);
    assert!(r.accepts(F, 0x7f80_0000) && !r.accepts(F, 0x7f7f_ffff));
    // ULP distance crosses zero and binades.
    let t = Tolerance {
        ulps: 2.0,
        abs: 0.0,
    };
    assert!(t.accepts(F, 1, 0x8000_0001));
    assert!(!t.accepts(F, 2, 0x8000_0001));
    assert!(t.accepts(F, 0x7f7f_ffff, 0x7f80_0000));
    assert!(t.accepts(HF, 0x3c00, 0x3bff));
    assert!(!t.accepts(D, 1, 2));
}

#[test]
fn no_panic_on_any_bit_pattern_sample() {
    // A sweep of classes and bit patterns through every function on every platform and mode.
    let pats: [u32; 16] = [
        0,
        0x8000_0000,
        1,
        0x8000_0001,
        0x007f_ffff,
        0x0080_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x7f7f_ffff,
        0xff7f_ffff,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0xffbf_ffff,
        0x4f00_0000,
        0xcb00_0001,
    ];
    let fns = [
        MathFn::Inv,
        MathFn::Log,
        MathFn::Exp,
        MathFn::Sqrt,
        MathFn::Rsq,
        MathFn::Sin,
        MathFn::Cos,
        MathFn::Fdiv,
        MathFn::Pow,
        MathFn::IntDivBoth,
        MathFn::IntDivQuotient,
        MathFn::IntDivRemainder,
        MathFn::Invm,
        MathFn::Rsqrtm,
    ];
    for p in Platform::ALL {
        for cr0 in [0, F32_DENORM, ALT, ALT | F32_DENORM, 0x7ff] {
            for f in fns {
                for ty in [F, HF, DF, D, UD] {
                    for &a in &pats {
                        for &b in &pats {
                            let (a, b) = (a as u64 | 0xdead_0000_0000, b as u64);
                            if let Ok(r) = eval(f, ty, a, b, &env(p, cr0)) {
                                let w = match ty {
                                    HF => 16,
                                    DF => 64,
                                    _ => 32,
                                };
                                assert!(w == 64 || r.bits >> w == 0, "{f:?} {ty:?}");
                            }
                        }
                    }
                }
            }
        }
    }
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    const FNS: [MathFn; 15] = [
        MathFn::None,
        MathFn::Inv,
        MathFn::Log,
        MathFn::Exp,
        MathFn::Sqrt,
        MathFn::Rsq,
        MathFn::Sin,
        MathFn::Cos,
        MathFn::Fdiv,
        MathFn::Pow,
        MathFn::IntDivBoth,
        MathFn::IntDivQuotient,
        MathFn::IntDivRemainder,
        MathFn::Invm,
        MathFn::Rsqrtm,
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// Any function, type, platform, cr0 and operand bits: no panic, the result fits the
        /// type, a result the model computed carries the row's tolerance.
        #[test]
        fn never_panics(fi in 0usize..15, ti in 0usize..14, pi in 0usize..6,
                        cr0 in any::<u32>(), a in any::<u64>(), b in any::<u64>()) {
            let (f, ty, p) = (FNS[fi], DataType::ALL[ti], Platform::ALL[pi]);
            if let Ok(r) = eval(f, ty, a, b, &FloatEnv::from_cr0(p, cr0)) {
                let w = ty.bits();
                prop_assert!(w >= 64 || r.bits >> w == 0);
                if r.special_rule.is_none() && !r.undefined && ty.is_float() {
                    let row = func_row(f, ty, p).unwrap();
                    // The row's bounds, or with an abs_range one of them alone.
                    let t = r.tolerance;
                    let full = t.ulps.to_bits() == row.ulps.to_bits()
                        && t.abs.to_bits() == row.abs_error.to_bits();
                    let split = row.abs_range.is_some()
                        && ((t.ulps == 0.0 && t.abs.to_bits() == row.abs_error.to_bits())
                            || (t.abs == 0.0 && t.ulps.to_bits() == row.ulps.to_bits()));
                    prop_assert!(full || split, "{:?} {:?}", t, row);
                }
                prop_assert!(r.accepts(ty, r.bits));
            }
        }
    }
}
