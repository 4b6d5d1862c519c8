//! spec/math.toml [[special]] rows: every row exercised with a representative operand of its
//! class(es), exact result bits checked in IEEE mode (F and HF) and, for rows that apply there,
//! in ALT mode; the ALT `abs` rows with concrete values; the rows' consistency with the IEEE
//! core and with POW's definition as exp2(y * log2(x)).
//!
//! The tables below were produced once from the rows' stated results (+inf = 0x7f800000, ...)
//! and are kept by hand: a changed row must change its line here.

use euref::float::FloatEnv;
use euref::fp::{self, Round, F32};
use euref::math::{eval, MathFn, MathOut};
use euref::spec::float_modes::FpMode;
use euref::spec::math::{InClass, OutValue, SPECIALS};
use euref::spec::{DataType, Platform};

/// (row, function, src0 bits, src1 bits, expected bits; None = a NaN, any pattern).
type Case = (&'static str, MathFn, u32, u32, Option<u32>);

/// cr0.0 bit 7 (F denormals kept) and bit 0 (ALT).
const KEEP: u32 = 1 << 7;
const ALT: u32 = 1;

fn run(f: MathFn, ty: DataType, a: u32, b: u32, cr0: u32) -> MathOut {
    eval(
        f,
        ty,
        a as u64,
        b as u64,
        &FloatEnv::from_cr0(Platform::Skl, cr0),
    )
    .unwrap_or_else(|e| panic!("{f:?} {a:#x} {b:#x}: {e}"))
}

fn check(cases: &[Case], ty: DataType, cr0: u32) {
    for &(id, f, a, b, want) in cases {
        let r = run(f, ty, a, b, cr0);
        assert_eq!(r.special_rule, Some(id), "{id}: {a:#x} {b:#x} cr0={cr0:#x}");
        assert!(r.tolerance.is_exact(), "{id}");
        match want {
            Some(w) => assert_eq!(r.bits, w as u64, "{id}: {a:#x} {b:#x} cr0={cr0:#x}"),
            None => {
                let nan = match ty {
                    DataType::HF => r.bits & 0x7fff > 0x7c00,
                    _ => r.bits & 0x7fff_ffff > 0x7f80_0000,
                };
                assert!(nan && r.any_nan_allowed, "{id}: {:#x}", r.bits);
            }
        }
    }
}

#[test]
fn ieee_rows_f() {
    check(IEEE_F, DataType::F, KEEP);
}

#[test]
fn alt_rows_f() {
    check(ALT_F, DataType::F, ALT);
}

#[test]
fn ieee_rows_hf() {
    check(IEEE_HF, DataType::HF, 0);
}

#[test]
fn every_row_has_a_case() {
    for s in SPECIALS.iter() {
        let listed =
            IEEE_F.iter().chain(ALT_F).any(|c| c.0 == s.id) || ALT_ABS.iter().any(|c| c.0 == s.id);
        assert!(listed, "special row {} has no case", s.id);
    }
}

/// ALT `abs` rows: (row, function, src0, result, the row that gave the result if any).
const ALT_ABS: &[(&str, MathFn, u32, u32, Option<&str>)] = &[
    (
        "math.log.alt.abs-neg-fin",
        MathFn::Log,
        0xc100_0000,
        0x4040_0000,
        None,
    ), // log2|-8| = 3
    (
        "math.log.alt.abs-neg-zero",
        MathFn::Log,
        0x8000_0000,
        0xff7f_ffff,
        Some("math.log.alt.zero"),
    ),
    (
        "math.sqrt.alt.abs-neg-fin",
        MathFn::Sqrt,
        0xc080_0000,
        0x4000_0000,
        None,
    ), // sqrt|-4| = 2
    (
        "math.sqrt.alt.abs-neg-zero",
        MathFn::Sqrt,
        0x8000_0000,
        0,
        Some("math.sqrt.pos-zero"),
    ),
    (
        "math.rsq.alt.abs-neg-fin",
        MathFn::Rsq,
        0xc080_0000,
        0x3f00_0000,
        None,
    ), // 1/sqrt|-4|
    (
        "math.rsq.alt.abs-neg-zero",
        MathFn::Rsq,
        0x8000_0000,
        0x7f7f_ffff,
        Some("math.rsq.alt.zero"),
    ),
];

#[test]
fn alt_abs_rows() {
    for &(id, f, a, want, then) in ALT_ABS {
        let r = run(f, DataType::F, a, 0, ALT);
        assert_eq!(r.pre_rule, Some(id), "{id}");
        assert_eq!(r.special_rule, then, "{id}");
        assert_eq!(r.bits, want as u64, "{id}");
        // The same operand in IEEE mode: no abs.
        let i = run(f, DataType::F, a, 0, 0);
        assert_eq!(i.pre_rule, None, "{id}");
    }
}

#[test]
fn alt_inputs_that_ieee_rows_cover() {
    // (function, src0, src1, ALT result, row)
    let cases: &[(MathFn, u32, u32, u32, Option<&str>)] = &[
        // +inf reads as fmax: 1/fmax is a denormal, flushed in ALT.
        (MathFn::Inv, 0x7f80_0000, 0, 0, None),
        // NaN reads as +0: LOG(+0) = -fmax.
        (
            MathFn::Log,
            0x7fc0_0000,
            0,
            0xff7f_ffff,
            Some("math.log.alt.zero"),
        ),
        // exp2(fmax) overflows: +fmax.
        (MathFn::Exp, 0x7f80_0000, 0, 0x7f7f_ffff, None),
        // -inf reads as -fmax, then |.|: sqrt(fmax).
        (MathFn::Sqrt, 0xff80_0000, 0, 0x5f7f_ffff, None),
        // x / 0 = inf -> fmax; 0 / 0 = NaN -> +0; (-2)^2 = NaN -> +0.
        (
            MathFn::Fdiv,
            0x3f80_0000,
            0,
            0x7f7f_ffff,
            Some("math.fdiv.pos-fin.pos-zero"),
        ),
        (MathFn::Fdiv, 0, 0, 0, Some("math.fdiv.pos-zero.pos-zero")),
        (
            MathFn::Pow,
            0xc000_0000,
            0x4000_0000,
            0,
            Some("math.pow.neg-fin"),
        ),
        // Denormal operands read as zeros in ALT (also with the F denorm bit).
        (
            MathFn::Inv,
            0x8000_0001,
            0,
            0xff7f_ffff,
            Some("math.inv.alt.neg-zero"),
        ),
    ];
    for &(f, a, b, want, row) in cases {
        for cr0 in [ALT, ALT | KEEP] {
            let r = run(f, DataType::F, a, b, cr0);
            assert_eq!(r.bits, want as u64, "{f:?} {a:#x} {b:#x}");
            assert_eq!(r.special_rule, row, "{f:?} {a:#x} {b:#x}");
            assert!(!r.any_nan_allowed);
        }
    }
}

#[test]
fn hf_ignores_alt() {
    // fp.alt.f-only: HF math in ALT mode behaves as in IEEE mode.
    let r = run(MathFn::Inv, DataType::HF, 0, 0, ALT);
    assert_eq!(
        (r.bits, r.special_rule),
        (0x7c00, Some("math.inv.pos-zero"))
    );
    let r = run(MathFn::Log, DataType::HF, 0xbc00, 0, ALT);
    assert!(r.any_nan_allowed && r.special_rule == Some("math.log.neg-fin"));
}

#[test]
fn gen7_flushes_denormal_operands() {
    // Ivy Bridge F math flushes denormals whatever cr0 says: -denorm reads as -0.
    let r = eval(
        MathFn::Sqrt,
        DataType::F,
        0x8000_0003,
        0,
        &FloatEnv::from_cr0(Platform::Ivb, KEEP),
    )
    .unwrap();
    assert_eq!(
        (r.bits, r.special_rule),
        (0x8000_0000, Some("math.sqrt.neg-zero"))
    );
    // Skylake without the denorm bit: the same.
    let r = run(MathFn::Log, DataType::F, 0x8000_0003, 0, 0);
    assert_eq!(
        (r.bits, r.special_rule),
        (0xff80_0000, Some("math.log.neg-zero"))
    );
    // With it, the denormal is a negative finite number.
    let r = run(MathFn::Log, DataType::F, 0x8000_0003, 0, KEEP);
    assert_eq!(r.special_rule, Some("math.log.neg-denorm"));
}

fn class_rep(c: InClass) -> u32 {
    match c {
        InClass::NegInf => 0xff80_0000,
        InClass::NegFin => 0xc040_0000,
        InClass::NegDenorm => 0x8000_0003,
        InClass::NegZero => 0x8000_0000,
        InClass::PosZero => 0,
        InClass::PosDenorm => 3,
        InClass::PosFin => 0x4000_0000,
        InClass::PosInf => 0x7f80_0000,
        InClass::Nan => 0x7fc0_0000,
        InClass::Any => 0x3f80_0000,
    }
}

fn out_bits(v: OutValue, src0: u32) -> Option<u32> {
    match v {
        OutValue::PosInf => Some(0x7f80_0000),
        OutValue::NegInf => Some(0xff80_0000),
        OutValue::PosZero => Some(0),
        OutValue::NegZero => Some(0x8000_0000),
        OutValue::Nan => None,
        OutValue::PosFmax => Some(0x7f7f_ffff),
        OutValue::NegFmax => Some(0xff7f_ffff),
        OutValue::Src0 => Some(src0),
        OutValue::Abs => Some(src0 & 0x7fff_ffff),
    }
}

fn same(a: Option<u32>, b: u64) -> bool {
    match a {
        Some(a) => a as u64 == b,
        None => b & 0x7fff_ffff > 0x7f80_0000,
    }
}

#[test]
fn fdiv_rows_agree_with_ieee_division() {
    // Independent check: the IEEE core's division gives every fdiv row's result.
    for s in SPECIALS
        .iter()
        .filter(|s| s.func == MathFn::Fdiv && s.mode != FpMode::Alt)
    {
        let (a, b) = (class_rep(s.src0), class_rep(s.src1));
        let q = fp::div::<F32>(a as u64, b as u64, Round::Rtne).bits;
        assert!(
            same(out_bits(s.result, a), q),
            "{}: core gives {q:#x}",
            s.id
        );
    }
}

#[test]
fn pow_rows_agree_with_exp2_of_y_log2_x() {
    // powr(x, y) = exp2(y * log2(x)) with IEEE special values: LOG row (or +-finite), IEEE
    // product, then EXP row.
    let log2_class = |x: u32| -> Option<u32> {
        // Some(bits of a representative of log2(x)) for the special inputs, +-1 otherwise.
        let r = run(MathFn::Log, DataType::F, x, 0, KEEP);
        if r.special_rule.is_some() {
            return Some(r.bits as u32);
        }
        Some(if x == 0x3f80_0000 { 0 } else { r.bits as u32 })
    };
    for s in SPECIALS
        .iter()
        .filter(|s| s.func == MathFn::Pow && s.mode != FpMode::Alt)
    {
        let (x, y) = (class_rep(s.src0), class_rep(s.src1));
        let l = log2_class(x).unwrap();
        let t = fp::mul::<F32>(y as u64, l as u64, Round::Rtne).bits;
        let e = run(MathFn::Exp, DataType::F, t as u32, 0, KEEP).bits;
        assert!(
            same(out_bits(s.result, x), e),
            "{}: composition gives {e:#x}",
            s.id
        );
    }
}

#[test]
fn alt_rows_agree_with_ieee_rows_and_the_alt_result_rule() {
    // An ALT row's fmax equals the IEEE/both row's infinity mapped by fp.alt.result-inf-to-fmax.
    for s in SPECIALS
        .iter()
        .filter(|s| s.mode == FpMode::Alt && s.result != OutValue::Abs)
    {
        let a = class_rep(s.src0);
        let i = run(s.func, DataType::F, a, class_rep(s.src1), KEEP);
        let mapped = match i.bits {
            0x7f80_0000 => 0x7f7f_ffff,
            0xff80_0000 => 0xff7f_ffff,
            v => v,
        };
        assert_eq!(Some(mapped as u32), out_bits(s.result, a), "{}", s.id);
    }
}

/// IEEE mode (Skylake, F denormals kept): (row, function, src0, src1, result; None = NaN).
const IEEE_F: &[Case] = &[
    (
        "math.inv.pos-zero",
        MathFn::Inv,
        0x00000000,
        0x00000000,
        Some(0x7f800000),
    ),
    (
        "math.inv.neg-zero",
        MathFn::Inv,
        0x80000000,
        0x00000000,
        Some(0xff800000),
    ),
    (
        "math.inv.pos-inf",
        MathFn::Inv,
        0x7f800000,
        0x00000000,
        Some(0x00000000),
    ),
    (
        "math.inv.neg-inf",
        MathFn::Inv,
        0xff800000,
        0x00000000,
        Some(0x80000000),
    ),
    ("math.inv.nan", MathFn::Inv, 0x7fc00000, 0x00000000, None),
    (
        "math.log.pos-zero",
        MathFn::Log,
        0x00000000,
        0x00000000,
        Some(0xff800000),
    ),
    (
        "math.log.neg-zero",
        MathFn::Log,
        0x80000000,
        0x00000000,
        Some(0xff800000),
    ),
    (
        "math.log.neg-fin",
        MathFn::Log,
        0xc0400000,
        0x00000000,
        None,
    ),
    (
        "math.log.neg-denorm",
        MathFn::Log,
        0x80000003,
        0x00000000,
        None,
    ),
    (
        "math.log.neg-inf",
        MathFn::Log,
        0xff800000,
        0x00000000,
        None,
    ),
    (
        "math.log.pos-inf",
        MathFn::Log,
        0x7f800000,
        0x00000000,
        Some(0x7f800000),
    ),
    ("math.log.nan", MathFn::Log, 0x7fc00000, 0x00000000, None),
    (
        "math.exp.pos-inf",
        MathFn::Exp,
        0x7f800000,
        0x00000000,
        Some(0x7f800000),
    ),
    (
        "math.exp.neg-inf",
        MathFn::Exp,
        0xff800000,
        0x00000000,
        Some(0x00000000),
    ),
    ("math.exp.nan", MathFn::Exp, 0x7fc00000, 0x00000000, None),
    (
        "math.sqrt.pos-zero",
        MathFn::Sqrt,
        0x00000000,
        0x00000000,
        Some(0x00000000),
    ),
    (
        "math.sqrt.neg-zero",
        MathFn::Sqrt,
        0x80000000,
        0x00000000,
        Some(0x80000000),
    ),
    (
        "math.sqrt.neg-fin",
        MathFn::Sqrt,
        0xc0400000,
        0x00000000,
        None,
    ),
    (
        "math.sqrt.neg-denorm",
        MathFn::Sqrt,
        0x80000003,
        0x00000000,
        None,
    ),
    (
        "math.sqrt.neg-inf",
        MathFn::Sqrt,
        0xff800000,
        0x00000000,
        None,
    ),
    (
        "math.sqrt.pos-inf",
        MathFn::Sqrt,
        0x7f800000,
        0x00000000,
        Some(0x7f800000),
    ),
    ("math.sqrt.nan", MathFn::Sqrt, 0x7fc00000, 0x00000000, None),
    (
        "math.rsq.pos-zero",
        MathFn::Rsq,
        0x00000000,
        0x00000000,
        Some(0x7f800000),
    ),
    (
        "math.rsq.neg-zero",
        MathFn::Rsq,
        0x80000000,
        0x00000000,
        Some(0xff800000),
    ),
    (
        "math.rsq.neg-fin",
        MathFn::Rsq,
        0xc0400000,
        0x00000000,
        None,
    ),
    (
        "math.rsq.neg-denorm",
        MathFn::Rsq,
        0x80000003,
        0x00000000,
        None,
    ),
    (
        "math.rsq.neg-inf",
        MathFn::Rsq,
        0xff800000,
        0x00000000,
        None,
    ),
    (
        "math.rsq.pos-inf",
        MathFn::Rsq,
        0x7f800000,
        0x00000000,
        Some(0x00000000),
    ),
    ("math.rsq.nan", MathFn::Rsq, 0x7fc00000, 0x00000000, None),
    (
        "math.sin.pos-inf",
        MathFn::Sin,
        0x7f800000,
        0x00000000,
        None,
    ),
    (
        "math.sin.neg-inf",
        MathFn::Sin,
        0xff800000,
        0x00000000,
        None,
    ),
    ("math.sin.nan", MathFn::Sin, 0x7fc00000, 0x00000000, None),
    (
        "math.cos.pos-inf",
        MathFn::Cos,
        0x7f800000,
        0x00000000,
        None,
    ),
    (
        "math.cos.neg-inf",
        MathFn::Cos,
        0xff800000,
        0x00000000,
        None,
    ),
    ("math.cos.nan", MathFn::Cos, 0x7fc00000, 0x00000000, None),
    (
        "math.sin.pos-zero",
        MathFn::Sin,
        0x00000000,
        0x00000000,
        Some(0x00000000),
    ),
    (
        "math.sin.neg-zero",
        MathFn::Sin,
        0x80000000,
        0x00000000,
        Some(0x80000000),
    ),
    (
        "math.fdiv.nan-src0",
        MathFn::Fdiv,
        0x7fc00000,
        0x3f800000,
        None,
    ),
    (
        "math.fdiv.nan-src1",
        MathFn::Fdiv,
        0x3f800000,
        0x7fc00000,
        None,
    ),
    (
        "math.fdiv.neg-inf.neg-inf",
        MathFn::Fdiv,
        0xff800000,
        0xff800000,
        None,
    ),
    (
        "math.fdiv.neg-inf.pos-inf",
        MathFn::Fdiv,
        0xff800000,
        0x7f800000,
        None,
    ),
    (
        "math.fdiv.pos-inf.neg-inf",
        MathFn::Fdiv,
        0x7f800000,
        0xff800000,
        None,
    ),
    (
        "math.fdiv.pos-inf.pos-inf",
        MathFn::Fdiv,
        0x7f800000,
        0x7f800000,
        None,
    ),
    (
        "math.fdiv.neg-zero.neg-zero",
        MathFn::Fdiv,
        0x80000000,
        0x80000000,
        None,
    ),
    (
        "math.fdiv.neg-zero.pos-zero",
        MathFn::Fdiv,
        0x80000000,
        0x00000000,
        None,
    ),
    (
        "math.fdiv.pos-zero.neg-zero",
        MathFn::Fdiv,
        0x00000000,
        0x80000000,
        None,
    ),
    (
        "math.fdiv.pos-zero.pos-zero",
        MathFn::Fdiv,
        0x00000000,
        0x00000000,
        None,
    ),
    (
        "math.fdiv.neg-inf.neg-zero",
        MathFn::Fdiv,
        0xff800000,
        0x80000000,
        Some(0x7f800000),
    ),
    (
        "math.fdiv.neg-inf.pos-zero",
        MathFn::Fdiv,
        0xff800000,
        0x00000000,
        Some(0xff800000),
    ),
    (
        "math.fdiv.neg-fin.neg-zero",
        MathFn::Fdiv,
        0xc0400000,
        0x80000000,
        Some(0x7f800000),
    ),
    (
        "math.fdiv.neg-fin.pos-zero",
        MathFn::Fdiv,
        0xc0400000,
        0x00000000,
        Some(0xff800000),
    ),
    (
        "math.fdiv.neg-denorm.neg-zero",
        MathFn::Fdiv,
        0x80000003,
        0x80000000,
        Some(0x7f800000),
    ),
    (
        "math.fdiv.neg-denorm.pos-zero",
        MathFn::Fdiv,
        0x80000003,
        0x00000000,
        Some(0xff800000),
    ),
    (
        "math.fdiv.pos-denorm.neg-zero",
        MathFn::Fdiv,
        0x00000003,
        0x80000000,
        Some(0xff800000),
    ),
    (
        "math.fdiv.pos-denorm.pos-zero",
        MathFn::Fdiv,
        0x00000003,
        0x00000000,
        Some(0x7f800000),
    ),
    (
        "math.fdiv.pos-fin.neg-zero",
        MathFn::Fdiv,
        0x40000000,
        0x80000000,
        Some(0xff800000),
    ),
    (
        "math.fdiv.pos-fin.pos-zero",
        MathFn::Fdiv,
        0x40000000,
        0x00000000,
        Some(0x7f800000),
    ),
    (
        "math.fdiv.pos-inf.neg-zero",
        MathFn::Fdiv,
        0x7f800000,
        0x80000000,
        Some(0xff800000),
    ),
    (
        "math.fdiv.pos-inf.pos-zero",
        MathFn::Fdiv,
        0x7f800000,
        0x00000000,
        Some(0x7f800000),
    ),
    (
        "math.fdiv.neg-zero.neg-fin",
        MathFn::Fdiv,
        0x80000000,
        0xc0400000,
        Some(0x00000000),
    ),
    (
        "math.fdiv.neg-zero.neg-denorm",
        MathFn::Fdiv,
        0x80000000,
        0x80000003,
        Some(0x00000000),
    ),
    (
        "math.fdiv.neg-zero.pos-denorm",
        MathFn::Fdiv,
        0x80000000,
        0x00000003,
        Some(0x80000000),
    ),
    (
        "math.fdiv.neg-zero.pos-fin",
        MathFn::Fdiv,
        0x80000000,
        0x40000000,
        Some(0x80000000),
    ),
    (
        "math.fdiv.neg-zero.neg-inf",
        MathFn::Fdiv,
        0x80000000,
        0xff800000,
        Some(0x00000000),
    ),
    (
        "math.fdiv.neg-zero.pos-inf",
        MathFn::Fdiv,
        0x80000000,
        0x7f800000,
        Some(0x80000000),
    ),
    (
        "math.fdiv.pos-zero.neg-fin",
        MathFn::Fdiv,
        0x00000000,
        0xc0400000,
        Some(0x80000000),
    ),
    (
        "math.fdiv.pos-zero.neg-denorm",
        MathFn::Fdiv,
        0x00000000,
        0x80000003,
        Some(0x80000000),
    ),
    (
        "math.fdiv.pos-zero.pos-denorm",
        MathFn::Fdiv,
        0x00000000,
        0x00000003,
        Some(0x00000000),
    ),
    (
        "math.fdiv.pos-zero.pos-fin",
        MathFn::Fdiv,
        0x00000000,
        0x40000000,
        Some(0x00000000),
    ),
    (
        "math.fdiv.pos-zero.neg-inf",
        MathFn::Fdiv,
        0x00000000,
        0xff800000,
        Some(0x80000000),
    ),
    (
        "math.fdiv.pos-zero.pos-inf",
        MathFn::Fdiv,
        0x00000000,
        0x7f800000,
        Some(0x00000000),
    ),
    (
        "math.fdiv.neg-inf.neg-fin",
        MathFn::Fdiv,
        0xff800000,
        0xc0400000,
        Some(0x7f800000),
    ),
    (
        "math.fdiv.neg-inf.neg-denorm",
        MathFn::Fdiv,
        0xff800000,
        0x80000003,
        Some(0x7f800000),
    ),
    (
        "math.fdiv.neg-inf.pos-denorm",
        MathFn::Fdiv,
        0xff800000,
        0x00000003,
        Some(0xff800000),
    ),
    (
        "math.fdiv.neg-inf.pos-fin",
        MathFn::Fdiv,
        0xff800000,
        0x40000000,
        Some(0xff800000),
    ),
    (
        "math.fdiv.pos-inf.neg-fin",
        MathFn::Fdiv,
        0x7f800000,
        0xc0400000,
        Some(0xff800000),
    ),
    (
        "math.fdiv.pos-inf.neg-denorm",
        MathFn::Fdiv,
        0x7f800000,
        0x80000003,
        Some(0xff800000),
    ),
    (
        "math.fdiv.pos-inf.pos-denorm",
        MathFn::Fdiv,
        0x7f800000,
        0x00000003,
        Some(0x7f800000),
    ),
    (
        "math.fdiv.pos-inf.pos-fin",
        MathFn::Fdiv,
        0x7f800000,
        0x40000000,
        Some(0x7f800000),
    ),
    (
        "math.fdiv.neg-fin.neg-inf",
        MathFn::Fdiv,
        0xc0400000,
        0xff800000,
        Some(0x00000000),
    ),
    (
        "math.fdiv.neg-fin.pos-inf",
        MathFn::Fdiv,
        0xc0400000,
        0x7f800000,
        Some(0x80000000),
    ),
    (
        "math.fdiv.neg-denorm.neg-inf",
        MathFn::Fdiv,
        0x80000003,
        0xff800000,
        Some(0x00000000),
    ),
    (
        "math.fdiv.neg-denorm.pos-inf",
        MathFn::Fdiv,
        0x80000003,
        0x7f800000,
        Some(0x80000000),
    ),
    (
        "math.fdiv.pos-denorm.neg-inf",
        MathFn::Fdiv,
        0x00000003,
        0xff800000,
        Some(0x80000000),
    ),
    (
        "math.fdiv.pos-denorm.pos-inf",
        MathFn::Fdiv,
        0x00000003,
        0x7f800000,
        Some(0x00000000),
    ),
    (
        "math.fdiv.pos-fin.neg-inf",
        MathFn::Fdiv,
        0x40000000,
        0xff800000,
        Some(0x80000000),
    ),
    (
        "math.fdiv.pos-fin.pos-inf",
        MathFn::Fdiv,
        0x40000000,
        0x7f800000,
        Some(0x00000000),
    ),
    (
        "math.pow.nan-src0",
        MathFn::Pow,
        0x7fc00000,
        0x3f800000,
        None,
    ),
    (
        "math.pow.nan-src1",
        MathFn::Pow,
        0x3f800000,
        0x7fc00000,
        None,
    ),
    (
        "math.pow.neg-inf",
        MathFn::Pow,
        0xff800000,
        0x3f800000,
        None,
    ),
    (
        "math.pow.neg-fin",
        MathFn::Pow,
        0xc0400000,
        0x3f800000,
        None,
    ),
    (
        "math.pow.neg-denorm",
        MathFn::Pow,
        0x80000003,
        0x3f800000,
        None,
    ),
    (
        "math.pow.neg-zero.neg-zero",
        MathFn::Pow,
        0x80000000,
        0x80000000,
        None,
    ),
    (
        "math.pow.neg-zero.pos-zero",
        MathFn::Pow,
        0x80000000,
        0x00000000,
        None,
    ),
    (
        "math.pow.neg-zero.pos-denorm",
        MathFn::Pow,
        0x80000000,
        0x00000003,
        Some(0x00000000),
    ),
    (
        "math.pow.neg-zero.pos-fin",
        MathFn::Pow,
        0x80000000,
        0x40000000,
        Some(0x00000000),
    ),
    (
        "math.pow.neg-zero.pos-inf",
        MathFn::Pow,
        0x80000000,
        0x7f800000,
        Some(0x00000000),
    ),
    (
        "math.pow.neg-zero.neg-denorm",
        MathFn::Pow,
        0x80000000,
        0x80000003,
        Some(0x7f800000),
    ),
    (
        "math.pow.neg-zero.neg-fin",
        MathFn::Pow,
        0x80000000,
        0xc0400000,
        Some(0x7f800000),
    ),
    (
        "math.pow.neg-zero.neg-inf",
        MathFn::Pow,
        0x80000000,
        0xff800000,
        Some(0x7f800000),
    ),
    (
        "math.pow.pos-zero.neg-zero",
        MathFn::Pow,
        0x00000000,
        0x80000000,
        None,
    ),
    (
        "math.pow.pos-zero.pos-zero",
        MathFn::Pow,
        0x00000000,
        0x00000000,
        None,
    ),
    (
        "math.pow.pos-zero.pos-denorm",
        MathFn::Pow,
        0x00000000,
        0x00000003,
        Some(0x00000000),
    ),
    (
        "math.pow.pos-zero.pos-fin",
        MathFn::Pow,
        0x00000000,
        0x40000000,
        Some(0x00000000),
    ),
    (
        "math.pow.pos-zero.pos-inf",
        MathFn::Pow,
        0x00000000,
        0x7f800000,
        Some(0x00000000),
    ),
    (
        "math.pow.pos-zero.neg-denorm",
        MathFn::Pow,
        0x00000000,
        0x80000003,
        Some(0x7f800000),
    ),
    (
        "math.pow.pos-zero.neg-fin",
        MathFn::Pow,
        0x00000000,
        0xc0400000,
        Some(0x7f800000),
    ),
    (
        "math.pow.pos-zero.neg-inf",
        MathFn::Pow,
        0x00000000,
        0xff800000,
        Some(0x7f800000),
    ),
    (
        "math.pow.pos-inf.neg-zero",
        MathFn::Pow,
        0x7f800000,
        0x80000000,
        None,
    ),
    (
        "math.pow.pos-inf.pos-zero",
        MathFn::Pow,
        0x7f800000,
        0x00000000,
        None,
    ),
    (
        "math.pow.pos-inf.pos-denorm",
        MathFn::Pow,
        0x7f800000,
        0x00000003,
        Some(0x7f800000),
    ),
    (
        "math.pow.pos-inf.pos-fin",
        MathFn::Pow,
        0x7f800000,
        0x40000000,
        Some(0x7f800000),
    ),
    (
        "math.pow.pos-inf.pos-inf",
        MathFn::Pow,
        0x7f800000,
        0x7f800000,
        Some(0x7f800000),
    ),
    (
        "math.pow.pos-inf.neg-denorm",
        MathFn::Pow,
        0x7f800000,
        0x80000003,
        Some(0x00000000),
    ),
    (
        "math.pow.pos-inf.neg-fin",
        MathFn::Pow,
        0x7f800000,
        0xc0400000,
        Some(0x00000000),
    ),
    (
        "math.pow.pos-inf.neg-inf",
        MathFn::Pow,
        0x7f800000,
        0xff800000,
        Some(0x00000000),
    ),
    (
        "math.pow.pos-denorm.pos-inf",
        MathFn::Pow,
        0x00000003,
        0x7f800000,
        Some(0x00000000),
    ),
    (
        "math.pow.pos-denorm.neg-inf",
        MathFn::Pow,
        0x00000003,
        0xff800000,
        Some(0x7f800000),
    ),
];

/// ALT mode (Skylake, cr0.0 bit 0): rows that apply in ALT mode, with the ALT result rules
/// applied to the row's value (inf -> fmax, NaN -> +0).
const ALT_F: &[Case] = &[
    (
        "math.inv.alt.pos-zero",
        MathFn::Inv,
        0x00000000,
        0x00000000,
        Some(0x7f7fffff),
    ),
    (
        "math.inv.alt.neg-zero",
        MathFn::Inv,
        0x80000000,
        0x00000000,
        Some(0xff7fffff),
    ),
    (
        "math.log.alt.zero",
        MathFn::Log,
        0x00000000,
        0x00000000,
        Some(0xff7fffff),
    ),
    (
        "math.sqrt.pos-zero",
        MathFn::Sqrt,
        0x00000000,
        0x00000000,
        Some(0x00000000),
    ),
    (
        "math.rsq.alt.zero",
        MathFn::Rsq,
        0x00000000,
        0x00000000,
        Some(0x7f7fffff),
    ),
    (
        "math.sin.pos-zero",
        MathFn::Sin,
        0x00000000,
        0x00000000,
        Some(0x00000000),
    ),
    (
        "math.sin.neg-zero",
        MathFn::Sin,
        0x80000000,
        0x00000000,
        Some(0x80000000),
    ),
    (
        "math.fdiv.neg-zero.neg-zero",
        MathFn::Fdiv,
        0x80000000,
        0x80000000,
        Some(0x00000000),
    ),
    (
        "math.fdiv.neg-zero.pos-zero",
        MathFn::Fdiv,
        0x80000000,
        0x00000000,
        Some(0x00000000),
    ),
    (
        "math.fdiv.pos-zero.neg-zero",
        MathFn::Fdiv,
        0x00000000,
        0x80000000,
        Some(0x00000000),
    ),
    (
        "math.fdiv.pos-zero.pos-zero",
        MathFn::Fdiv,
        0x00000000,
        0x00000000,
        Some(0x00000000),
    ),
    (
        "math.fdiv.neg-fin.neg-zero",
        MathFn::Fdiv,
        0xc0400000,
        0x80000000,
        Some(0x7f7fffff),
    ),
    (
        "math.fdiv.neg-fin.pos-zero",
        MathFn::Fdiv,
        0xc0400000,
        0x00000000,
        Some(0xff7fffff),
    ),
    (
        "math.fdiv.pos-fin.neg-zero",
        MathFn::Fdiv,
        0x40000000,
        0x80000000,
        Some(0xff7fffff),
    ),
    (
        "math.fdiv.pos-fin.pos-zero",
        MathFn::Fdiv,
        0x40000000,
        0x00000000,
        Some(0x7f7fffff),
    ),
    (
        "math.fdiv.neg-zero.neg-fin",
        MathFn::Fdiv,
        0x80000000,
        0xc0400000,
        Some(0x00000000),
    ),
    (
        "math.fdiv.neg-zero.pos-fin",
        MathFn::Fdiv,
        0x80000000,
        0x40000000,
        Some(0x80000000),
    ),
    (
        "math.fdiv.pos-zero.neg-fin",
        MathFn::Fdiv,
        0x00000000,
        0xc0400000,
        Some(0x80000000),
    ),
    (
        "math.fdiv.pos-zero.pos-fin",
        MathFn::Fdiv,
        0x00000000,
        0x40000000,
        Some(0x00000000),
    ),
    (
        "math.pow.neg-fin",
        MathFn::Pow,
        0xc0400000,
        0x3f800000,
        Some(0x00000000),
    ),
    (
        "math.pow.neg-zero.neg-zero",
        MathFn::Pow,
        0x80000000,
        0x80000000,
        Some(0x00000000),
    ),
    (
        "math.pow.neg-zero.pos-zero",
        MathFn::Pow,
        0x80000000,
        0x00000000,
        Some(0x00000000),
    ),
    (
        "math.pow.neg-zero.pos-fin",
        MathFn::Pow,
        0x80000000,
        0x40000000,
        Some(0x00000000),
    ),
    (
        "math.pow.neg-zero.neg-fin",
        MathFn::Pow,
        0x80000000,
        0xc0400000,
        Some(0x7f7fffff),
    ),
    (
        "math.pow.pos-zero.neg-zero",
        MathFn::Pow,
        0x00000000,
        0x80000000,
        Some(0x00000000),
    ),
    (
        "math.pow.pos-zero.pos-zero",
        MathFn::Pow,
        0x00000000,
        0x00000000,
        Some(0x00000000),
    ),
    (
        "math.pow.pos-zero.pos-fin",
        MathFn::Pow,
        0x00000000,
        0x40000000,
        Some(0x00000000),
    ),
    (
        "math.pow.pos-zero.neg-fin",
        MathFn::Pow,
        0x00000000,
        0xc0400000,
        Some(0x7f7fffff),
    ),
];

/// HF on Skylake (HF math keeps denormals): the IEEE rows with HF operands.
const IEEE_HF: &[Case] = &[
    (
        "math.inv.pos-zero",
        MathFn::Inv,
        0x0000,
        0x0000,
        Some(0x7c00),
    ),
    (
        "math.inv.neg-zero",
        MathFn::Inv,
        0x8000,
        0x0000,
        Some(0xfc00),
    ),
    (
        "math.inv.pos-inf",
        MathFn::Inv,
        0x7c00,
        0x0000,
        Some(0x0000),
    ),
    (
        "math.inv.neg-inf",
        MathFn::Inv,
        0xfc00,
        0x0000,
        Some(0x8000),
    ),
    ("math.inv.nan", MathFn::Inv, 0x7e00, 0x0000, None),
    (
        "math.log.pos-zero",
        MathFn::Log,
        0x0000,
        0x0000,
        Some(0xfc00),
    ),
    (
        "math.log.neg-zero",
        MathFn::Log,
        0x8000,
        0x0000,
        Some(0xfc00),
    ),
    ("math.log.neg-fin", MathFn::Log, 0xc200, 0x0000, None),
    ("math.log.neg-denorm", MathFn::Log, 0x8003, 0x0000, None),
    ("math.log.neg-inf", MathFn::Log, 0xfc00, 0x0000, None),
    (
        "math.log.pos-inf",
        MathFn::Log,
        0x7c00,
        0x0000,
        Some(0x7c00),
    ),
    ("math.log.nan", MathFn::Log, 0x7e00, 0x0000, None),
    (
        "math.exp.pos-inf",
        MathFn::Exp,
        0x7c00,
        0x0000,
        Some(0x7c00),
    ),
    (
        "math.exp.neg-inf",
        MathFn::Exp,
        0xfc00,
        0x0000,
        Some(0x0000),
    ),
    ("math.exp.nan", MathFn::Exp, 0x7e00, 0x0000, None),
    (
        "math.sqrt.pos-zero",
        MathFn::Sqrt,
        0x0000,
        0x0000,
        Some(0x0000),
    ),
    (
        "math.sqrt.neg-zero",
        MathFn::Sqrt,
        0x8000,
        0x0000,
        Some(0x8000),
    ),
    ("math.sqrt.neg-fin", MathFn::Sqrt, 0xc200, 0x0000, None),
    ("math.sqrt.neg-denorm", MathFn::Sqrt, 0x8003, 0x0000, None),
    ("math.sqrt.neg-inf", MathFn::Sqrt, 0xfc00, 0x0000, None),
    (
        "math.sqrt.pos-inf",
        MathFn::Sqrt,
        0x7c00,
        0x0000,
        Some(0x7c00),
    ),
    ("math.sqrt.nan", MathFn::Sqrt, 0x7e00, 0x0000, None),
    (
        "math.rsq.pos-zero",
        MathFn::Rsq,
        0x0000,
        0x0000,
        Some(0x7c00),
    ),
    (
        "math.rsq.neg-zero",
        MathFn::Rsq,
        0x8000,
        0x0000,
        Some(0xfc00),
    ),
    ("math.rsq.neg-fin", MathFn::Rsq, 0xc200, 0x0000, None),
    ("math.rsq.neg-denorm", MathFn::Rsq, 0x8003, 0x0000, None),
    ("math.rsq.neg-inf", MathFn::Rsq, 0xfc00, 0x0000, None),
    (
        "math.rsq.pos-inf",
        MathFn::Rsq,
        0x7c00,
        0x0000,
        Some(0x0000),
    ),
    ("math.rsq.nan", MathFn::Rsq, 0x7e00, 0x0000, None),
    ("math.sin.pos-inf", MathFn::Sin, 0x7c00, 0x0000, None),
    ("math.sin.neg-inf", MathFn::Sin, 0xfc00, 0x0000, None),
    ("math.sin.nan", MathFn::Sin, 0x7e00, 0x0000, None),
    ("math.cos.pos-inf", MathFn::Cos, 0x7c00, 0x0000, None),
    ("math.cos.neg-inf", MathFn::Cos, 0xfc00, 0x0000, None),
    ("math.cos.nan", MathFn::Cos, 0x7e00, 0x0000, None),
    (
        "math.sin.pos-zero",
        MathFn::Sin,
        0x0000,
        0x0000,
        Some(0x0000),
    ),
    (
        "math.sin.neg-zero",
        MathFn::Sin,
        0x8000,
        0x0000,
        Some(0x8000),
    ),
    ("math.fdiv.nan-src0", MathFn::Fdiv, 0x7e00, 0x3c00, None),
    ("math.fdiv.nan-src1", MathFn::Fdiv, 0x3c00, 0x7e00, None),
    (
        "math.fdiv.neg-inf.neg-inf",
        MathFn::Fdiv,
        0xfc00,
        0xfc00,
        None,
    ),
    (
        "math.fdiv.neg-inf.pos-inf",
        MathFn::Fdiv,
        0xfc00,
        0x7c00,
        None,
    ),
    (
        "math.fdiv.pos-inf.neg-inf",
        MathFn::Fdiv,
        0x7c00,
        0xfc00,
        None,
    ),
    (
        "math.fdiv.pos-inf.pos-inf",
        MathFn::Fdiv,
        0x7c00,
        0x7c00,
        None,
    ),
    (
        "math.fdiv.neg-zero.neg-zero",
        MathFn::Fdiv,
        0x8000,
        0x8000,
        None,
    ),
    (
        "math.fdiv.neg-zero.pos-zero",
        MathFn::Fdiv,
        0x8000,
        0x0000,
        None,
    ),
    (
        "math.fdiv.pos-zero.neg-zero",
        MathFn::Fdiv,
        0x0000,
        0x8000,
        None,
    ),
    (
        "math.fdiv.pos-zero.pos-zero",
        MathFn::Fdiv,
        0x0000,
        0x0000,
        None,
    ),
    (
        "math.fdiv.neg-inf.neg-zero",
        MathFn::Fdiv,
        0xfc00,
        0x8000,
        Some(0x7c00),
    ),
    (
        "math.fdiv.neg-inf.pos-zero",
        MathFn::Fdiv,
        0xfc00,
        0x0000,
        Some(0xfc00),
    ),
    (
        "math.fdiv.neg-fin.neg-zero",
        MathFn::Fdiv,
        0xc200,
        0x8000,
        Some(0x7c00),
    ),
    (
        "math.fdiv.neg-fin.pos-zero",
        MathFn::Fdiv,
        0xc200,
        0x0000,
        Some(0xfc00),
    ),
    (
        "math.fdiv.neg-denorm.neg-zero",
        MathFn::Fdiv,
        0x8003,
        0x8000,
        Some(0x7c00),
    ),
    (
        "math.fdiv.neg-denorm.pos-zero",
        MathFn::Fdiv,
        0x8003,
        0x0000,
        Some(0xfc00),
    ),
    (
        "math.fdiv.pos-denorm.neg-zero",
        MathFn::Fdiv,
        0x0003,
        0x8000,
        Some(0xfc00),
    ),
    (
        "math.fdiv.pos-denorm.pos-zero",
        MathFn::Fdiv,
        0x0003,
        0x0000,
        Some(0x7c00),
    ),
    (
        "math.fdiv.pos-fin.neg-zero",
        MathFn::Fdiv,
        0x4000,
        0x8000,
        Some(0xfc00),
    ),
    (
        "math.fdiv.pos-fin.pos-zero",
        MathFn::Fdiv,
        0x4000,
        0x0000,
        Some(0x7c00),
    ),
    (
        "math.fdiv.pos-inf.neg-zero",
        MathFn::Fdiv,
        0x7c00,
        0x8000,
        Some(0xfc00),
    ),
    (
        "math.fdiv.pos-inf.pos-zero",
        MathFn::Fdiv,
        0x7c00,
        0x0000,
        Some(0x7c00),
    ),
    (
        "math.fdiv.neg-zero.neg-fin",
        MathFn::Fdiv,
        0x8000,
        0xc200,
        Some(0x0000),
    ),
    (
        "math.fdiv.neg-zero.neg-denorm",
        MathFn::Fdiv,
        0x8000,
        0x8003,
        Some(0x0000),
    ),
    (
        "math.fdiv.neg-zero.pos-denorm",
        MathFn::Fdiv,
        0x8000,
        0x0003,
        Some(0x8000),
    ),
    (
        "math.fdiv.neg-zero.pos-fin",
        MathFn::Fdiv,
        0x8000,
        0x4000,
        Some(0x8000),
    ),
    (
        "math.fdiv.neg-zero.neg-inf",
        MathFn::Fdiv,
        0x8000,
        0xfc00,
        Some(0x0000),
    ),
    (
        "math.fdiv.neg-zero.pos-inf",
        MathFn::Fdiv,
        0x8000,
        0x7c00,
        Some(0x8000),
    ),
    (
        "math.fdiv.pos-zero.neg-fin",
        MathFn::Fdiv,
        0x0000,
        0xc200,
        Some(0x8000),
    ),
    (
        "math.fdiv.pos-zero.neg-denorm",
        MathFn::Fdiv,
        0x0000,
        0x8003,
        Some(0x8000),
    ),
    (
        "math.fdiv.pos-zero.pos-denorm",
        MathFn::Fdiv,
        0x0000,
        0x0003,
        Some(0x0000),
    ),
    (
        "math.fdiv.pos-zero.pos-fin",
        MathFn::Fdiv,
        0x0000,
        0x4000,
        Some(0x0000),
    ),
    (
        "math.fdiv.pos-zero.neg-inf",
        MathFn::Fdiv,
        0x0000,
        0xfc00,
        Some(0x8000),
    ),
    (
        "math.fdiv.pos-zero.pos-inf",
        MathFn::Fdiv,
        0x0000,
        0x7c00,
        Some(0x0000),
    ),
    (
        "math.fdiv.neg-inf.neg-fin",
        MathFn::Fdiv,
        0xfc00,
        0xc200,
        Some(0x7c00),
    ),
    (
        "math.fdiv.neg-inf.neg-denorm",
        MathFn::Fdiv,
        0xfc00,
        0x8003,
        Some(0x7c00),
    ),
    (
        "math.fdiv.neg-inf.pos-denorm",
        MathFn::Fdiv,
        0xfc00,
        0x0003,
        Some(0xfc00),
    ),
    (
        "math.fdiv.neg-inf.pos-fin",
        MathFn::Fdiv,
        0xfc00,
        0x4000,
        Some(0xfc00),
    ),
    (
        "math.fdiv.pos-inf.neg-fin",
        MathFn::Fdiv,
        0x7c00,
        0xc200,
        Some(0xfc00),
    ),
    (
        "math.fdiv.pos-inf.neg-denorm",
        MathFn::Fdiv,
        0x7c00,
        0x8003,
        Some(0xfc00),
    ),
    (
        "math.fdiv.pos-inf.pos-denorm",
        MathFn::Fdiv,
        0x7c00,
        0x0003,
        Some(0x7c00),
    ),
    (
        "math.fdiv.pos-inf.pos-fin",
        MathFn::Fdiv,
        0x7c00,
        0x4000,
        Some(0x7c00),
    ),
    (
        "math.fdiv.neg-fin.neg-inf",
        MathFn::Fdiv,
        0xc200,
        0xfc00,
        Some(0x0000),
    ),
    (
        "math.fdiv.neg-fin.pos-inf",
        MathFn::Fdiv,
        0xc200,
        0x7c00,
        Some(0x8000),
    ),
    (
        "math.fdiv.neg-denorm.neg-inf",
        MathFn::Fdiv,
        0x8003,
        0xfc00,
        Some(0x0000),
    ),
    (
        "math.fdiv.neg-denorm.pos-inf",
        MathFn::Fdiv,
        0x8003,
        0x7c00,
        Some(0x8000),
    ),
    (
        "math.fdiv.pos-denorm.neg-inf",
        MathFn::Fdiv,
        0x0003,
        0xfc00,
        Some(0x8000),
    ),
    (
        "math.fdiv.pos-denorm.pos-inf",
        MathFn::Fdiv,
        0x0003,
        0x7c00,
        Some(0x0000),
    ),
    (
        "math.fdiv.pos-fin.neg-inf",
        MathFn::Fdiv,
        0x4000,
        0xfc00,
        Some(0x8000),
    ),
    (
        "math.fdiv.pos-fin.pos-inf",
        MathFn::Fdiv,
        0x4000,
        0x7c00,
        Some(0x0000),
    ),
    ("math.pow.nan-src0", MathFn::Pow, 0x7e00, 0x3c00, None),
    ("math.pow.nan-src1", MathFn::Pow, 0x3c00, 0x7e00, None),
    ("math.pow.neg-inf", MathFn::Pow, 0xfc00, 0x3c00, None),
    ("math.pow.neg-fin", MathFn::Pow, 0xc200, 0x3c00, None),
    ("math.pow.neg-denorm", MathFn::Pow, 0x8003, 0x3c00, None),
    (
        "math.pow.neg-zero.neg-zero",
        MathFn::Pow,
        0x8000,
        0x8000,
        None,
    ),
    (
        "math.pow.neg-zero.pos-zero",
        MathFn::Pow,
        0x8000,
        0x0000,
        None,
    ),
    (
        "math.pow.neg-zero.pos-denorm",
        MathFn::Pow,
        0x8000,
        0x0003,
        Some(0x0000),
    ),
    (
        "math.pow.neg-zero.pos-fin",
        MathFn::Pow,
        0x8000,
        0x4000,
        Some(0x0000),
    ),
    (
        "math.pow.neg-zero.pos-inf",
        MathFn::Pow,
        0x8000,
        0x7c00,
        Some(0x0000),
    ),
    (
        "math.pow.neg-zero.neg-denorm",
        MathFn::Pow,
        0x8000,
        0x8003,
        Some(0x7c00),
    ),
    (
        "math.pow.neg-zero.neg-fin",
        MathFn::Pow,
        0x8000,
        0xc200,
        Some(0x7c00),
    ),
    (
        "math.pow.neg-zero.neg-inf",
        MathFn::Pow,
        0x8000,
        0xfc00,
        Some(0x7c00),
    ),
    (
        "math.pow.pos-zero.neg-zero",
        MathFn::Pow,
        0x0000,
        0x8000,
        None,
    ),
    (
        "math.pow.pos-zero.pos-zero",
        MathFn::Pow,
        0x0000,
        0x0000,
        None,
    ),
    (
        "math.pow.pos-zero.pos-denorm",
        MathFn::Pow,
        0x0000,
        0x0003,
        Some(0x0000),
    ),
    (
        "math.pow.pos-zero.pos-fin",
        MathFn::Pow,
        0x0000,
        0x4000,
        Some(0x0000),
    ),
    (
        "math.pow.pos-zero.pos-inf",
        MathFn::Pow,
        0x0000,
        0x7c00,
        Some(0x0000),
    ),
    (
        "math.pow.pos-zero.neg-denorm",
        MathFn::Pow,
        0x0000,
        0x8003,
        Some(0x7c00),
    ),
    (
        "math.pow.pos-zero.neg-fin",
        MathFn::Pow,
        0x0000,
        0xc200,
        Some(0x7c00),
    ),
    (
        "math.pow.pos-zero.neg-inf",
        MathFn::Pow,
        0x0000,
        0xfc00,
        Some(0x7c00),
    ),
    (
        "math.pow.pos-inf.neg-zero",
        MathFn::Pow,
        0x7c00,
        0x8000,
        None,
    ),
    (
        "math.pow.pos-inf.pos-zero",
        MathFn::Pow,
        0x7c00,
        0x0000,
        None,
    ),
    (
        "math.pow.pos-inf.pos-denorm",
        MathFn::Pow,
        0x7c00,
        0x0003,
        Some(0x7c00),
    ),
    (
        "math.pow.pos-inf.pos-fin",
        MathFn::Pow,
        0x7c00,
        0x4000,
        Some(0x7c00),
    ),
    (
        "math.pow.pos-inf.pos-inf",
        MathFn::Pow,
        0x7c00,
        0x7c00,
        Some(0x7c00),
    ),
    (
        "math.pow.pos-inf.neg-denorm",
        MathFn::Pow,
        0x7c00,
        0x8003,
        Some(0x0000),
    ),
    (
        "math.pow.pos-inf.neg-fin",
        MathFn::Pow,
        0x7c00,
        0xc200,
        Some(0x0000),
    ),
    (
        "math.pow.pos-inf.neg-inf",
        MathFn::Pow,
        0x7c00,
        0xfc00,
        Some(0x0000),
    ),
    (
        "math.pow.pos-denorm.pos-inf",
        MathFn::Pow,
        0x0003,
        0x7c00,
        Some(0x0000),
    ),
    (
        "math.pow.pos-denorm.neg-inf",
        MathFn::Pow,
        0x0003,
        0xfc00,
        Some(0x7c00),
    ),
];
