//! spec/float_modes.toml: every row named, its key attributes asserted, and the denormal and
//! rounding decisions the engine derives from the table checked per platform.

use euref::spec::float_modes::{self, FpMode, FpRuleInfo, RULES};
use euref::spec::{DataType, FpEffect, FpOps, Platform};

use DataType::{DF, F, HF};
use Platform::*;

fn row(id: &str) -> &'static FpRuleInfo {
    RULES
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("fp row {id} missing"))
}

fn on_all(r: &FpRuleInfo) -> bool {
    Platform::ALL.iter().all(|p| r.gens.contains(*p))
}

fn types(r: &FpRuleInfo) -> Vec<DataType> {
    r.types.iter().collect()
}

const GEN7: [Platform; 2] = [Ivb, Hsw];
const GEN8: [Platform; 2] = [Bdw, Chv];
const GEN9: [Platform; 2] = [Skl, Bxt];

/// Every row of the file, so an added or removed row shows up here.
const ALL_IDS: &[&str] = &[
    "fp.mode.cr0-select",
    "fp.ieee.default",
    "fp.ieee.inf-minus-inf",
    "fp.ieee.zero-times-inf",
    "fp.ieee.inv-of-inf",
    "fp.ieee.inf-div-inf",
    "fp.ieee.inv-rsq-sqrt-of-zero",
    "fp.ieee.rsq-sqrt-of-negative",
    "fp.ieee.log-of-zero-negative",
    "fp.ieee.nan-propagates",
    "fp.ieee.nan-any-pattern",
    "fp.ieee.compare-nan",
    "fp.ieee.cmpn-nan",
    "fp.ieee.minmax-nan",
    "fp.ieee.compare-inf-exact",
    "fp.ieee.nan-unordered",
    "fp.ieee.correctly-rounded",
    "fp.round.cr0",
    "fp.round.cr0-fused",
    "fp.round.rnd-insns",
    "fp.ieee.no-exceptions",
    "fp.ieee.denorm.f.gen7",
    "fp.ieee.denorm.f",
    "fp.ieee.denorm.df",
    "fp.ieee.denorm.hf.gen8",
    "fp.ieee.denorm.hf-math.gen9",
    "fp.ieee.denorm.hf",
    "fp.ieee.denorm.conversion",
    "fp.ieee.denorm.raw-mov",
    "fp.ieee.denorm.hf-to-f",
    "fp.ieee.raw-mov-exact",
    "fp.ieee.mul-by-one",
    "fp.ieee.add-zero",
    "fp.ieee.fused-overflow",
    "fp.ieee.acc-precision",
    "fp.ieee.divide-two-step",
    "fp.ieee.conversions",
    "fp.tininess",
    "fp.alt.f-only",
    "fp.alt.result-inf-to-fmax",
    "fp.alt.result-denorm-to-zero",
    "fp.alt.input-inf-to-fmax",
    "fp.alt.input-denorm-to-zero",
    "fp.alt.input-nan-to-zero",
    "fp.alt.result-never-nan",
    "fp.alt.math-abs",
    "fp.alt.conversion-unsupported",
    "fp.alt.raw-mov",
    "fp.alt.dismissed.inf-minus-inf",
    "fp.alt.dismissed.times-zero",
    "fp.alt.dismissed.rcp-of-inf",
    // Added with the float engine (src/float/); behaviour tests in tests/float_*.rs.
    "fp.cmod.result",
    "fp.cmod.unordered",
    "fp.cmod.overflow",
    "fp.sat.zero-sign",
    "fp.round.math-model",
    "fp.frc.definition",
];

#[test]
fn row_set_is_exactly_the_expected_one() {
    let got: Vec<&str> = RULES.iter().map(|r| r.id).collect();
    assert_eq!(got, ALL_IDS, "rows (in file order)");
    for r in RULES.iter() {
        assert!(!r.cite.is_empty() && !r.text.is_empty(), "{}", r.id);
        assert!(!r.types.is_empty(), "{}", r.id);
        for t in r.types.iter() {
            assert!(matches!(t, HF | F | DF), "{}: {t:?}", r.id);
        }
    }
}

// ------------------------------------------------------------------ denormals

#[derive(Debug, PartialEq)]
enum Denorm {
    Keep,
    Flush,
    Cr0(u32),
}

/// The IEEE-mode denormal decision for a type and operation class, with the precedence the
/// file's header gives: denorm_keep, then denorm_flush, then denorm_cr0, else keep.
fn ieee_denorm(ty: DataType, ops: FpOps, p: Platform) -> (Denorm, &'static str) {
    let pick = |e: FpEffect| {
        float_modes::applicable(ty, ops, p).find(|r| r.effect == e && r.mode != FpMode::Alt)
    };
    if let Some(r) = pick(FpEffect::DenormKeep) {
        return (Denorm::Keep, r.id);
    }
    if let Some(r) = pick(FpEffect::DenormFlush) {
        return (Denorm::Flush, r.id);
    }
    if let Some(r) = pick(FpEffect::DenormCr0) {
        return (Denorm::Cr0(r.cr0_bit.unwrap()), r.id);
    }
    (Denorm::Keep, "")
}

#[test]
fn denorm_cr0_bits_per_type_and_platform() {
    // The brief's example: DF on ivb is controlled by cr0.0 bit 6.
    let r = float_modes::find(FpEffect::DenormCr0, DF, FpOps::Arith, Ivb).unwrap();
    assert_eq!(r.id, "fp.ieee.denorm.df");
    assert_eq!(r.cr0_bit, Some(6));
    assert!(on_all(r));

    for p in Platform::ALL {
        assert_eq!(
            ieee_denorm(DF, FpOps::Arith, p),
            (Denorm::Cr0(6), "fp.ieee.denorm.df")
        );
        assert_eq!(
            ieee_denorm(DF, FpOps::Compare, p),
            (Denorm::Cr0(6), "fp.ieee.denorm.df")
        );
        assert_eq!(
            ieee_denorm(DF, FpOps::Fused, p),
            (Denorm::Cr0(6), "fp.ieee.denorm.df")
        );
    }
    for p in GEN7 {
        assert_eq!(
            ieee_denorm(F, FpOps::Arith, p),
            (Denorm::Flush, "fp.ieee.denorm.f.gen7")
        );
        assert_eq!(
            ieee_denorm(F, FpOps::Math, p),
            (Denorm::Flush, "fp.ieee.denorm.f.gen7")
        );
        assert!(float_modes::find(FpEffect::DenormCr0, F, FpOps::Arith, p).is_none());
    }
    for p in GEN8.into_iter().chain(GEN9) {
        assert_eq!(
            ieee_denorm(F, FpOps::Arith, p),
            (Denorm::Cr0(7), "fp.ieee.denorm.f")
        );
    }
    for p in GEN8 {
        assert_eq!(
            ieee_denorm(HF, FpOps::Arith, p),
            (Denorm::Flush, "fp.ieee.denorm.hf.gen8")
        );
        assert_eq!(
            ieee_denorm(HF, FpOps::Math, p),
            (Denorm::Flush, "fp.ieee.denorm.hf.gen8")
        );
    }
    for p in GEN9 {
        assert_eq!(
            ieee_denorm(HF, FpOps::Arith, p),
            (Denorm::Cr0(10), "fp.ieee.denorm.hf")
        );
        assert_eq!(
            ieee_denorm(HF, FpOps::Math, p),
            (Denorm::Keep, "fp.ieee.denorm.hf-math.gen9")
        );
    }
    assert_eq!(row("fp.ieee.denorm.f").cr0_bit, Some(7));
    assert_eq!(row("fp.ieee.denorm.hf").cr0_bit, Some(10));
    assert!(row("fp.ieee.denorm.f")
        .cite
        .contains("BRW_CR0_FP32_DENORM_PRESERVE"));
    assert!(row("fp.ieee.denorm.hf")
        .cite
        .contains("BRW_CR0_FP16_DENORM_PRESERVE"));
    assert!(row("fp.ieee.denorm.df")
        .cite
        .contains("BRW_CR0_FP64_DENORM_PRESERVE"));
    assert!(row("fp.ieee.denorm.hf.gen8")
        .cite
        .contains("Broadwell does not support HF denorms"));
    assert!(row("fp.ieee.denorm.hf-math.gen9")
        .cite
        .contains("always retained"));
}

#[test]
fn conversions_raw_mov_and_hf_to_f_never_flush() {
    for p in Platform::ALL {
        for ty in [HF, F, DF] {
            if ty == HF && GEN7.contains(&p) {
                continue;
            }
            assert_eq!(
                ieee_denorm(ty, FpOps::Conversion, p),
                (Denorm::Keep, "fp.ieee.denorm.conversion")
            );
            assert_eq!(
                ieee_denorm(ty, FpOps::RawMov, p),
                (Denorm::Keep, "fp.ieee.denorm.raw-mov")
            );
        }
        for ty in [HF, F] {
            assert_eq!(
                ieee_denorm(ty, FpOps::HfToF, p),
                (Denorm::Keep, "fp.ieee.denorm.hf-to-f")
            );
        }
    }
    let raw = row("fp.ieee.raw-mov-exact");
    assert_eq!((raw.effect, raw.ops), (FpEffect::Ieee, FpOps::RawMov));
    assert!(raw.text.contains("NaN"));
}

// ------------------------------------------------------------------ rounding, NaN, misc IEEE

#[test]
fn rounding_rows() {
    for p in Platform::ALL {
        for ty in [HF, F, DF] {
            let r = float_modes::find(FpEffect::RoundCr0, ty, FpOps::Arith, p).unwrap();
            assert_eq!(r.id, "fp.round.cr0");
            assert_eq!(r.mode, FpMode::Both);
            let f = float_modes::find(FpEffect::RoundCr0, ty, FpOps::Fused, p).unwrap();
            assert_eq!(f.id, "fp.round.cr0-fused");
            // Conversions round per conversions.toml, not per this row.
            assert!(float_modes::find(FpEffect::RoundCr0, ty, FpOps::Conversion, p).is_none());
        }
    }
    assert!(row("fp.round.cr0").text.contains("5:4"));
    assert!(row("fp.round.rnd-insns").text.contains("rndz"));
    assert_eq!(row("fp.ieee.correctly-rounded").ops, FpOps::Arith);
    assert!(row("fp.ieee.correctly-rounded").text.contains("0.5 ULP"));
}

#[test]
fn nan_rows() {
    for p in Platform::ALL {
        let r = float_modes::find(FpEffect::NanPropagates, F, FpOps::Math, p).unwrap();
        assert_eq!(r.id, "fp.ieee.nan-propagates");
        let a = float_modes::find(FpEffect::NanAny, DF, FpOps::Arith, p).unwrap();
        assert_eq!(a.id, "fp.ieee.nan-any-pattern");
    }
    assert!(row("fp.ieee.nan-propagates").text.contains("min/max"));
    for id in [
        "fp.ieee.compare-nan",
        "fp.ieee.cmpn-nan",
        "fp.ieee.compare-inf-exact",
        "fp.ieee.nan-unordered",
    ] {
        let r = row(id);
        assert_eq!(
            (r.effect, r.ops, r.mode),
            (FpEffect::Ieee, FpOps::Compare, FpMode::Ieee),
            "{id}"
        );
    }
    let mm = row("fp.ieee.minmax-nan");
    assert_eq!((mm.effect, mm.ops), (FpEffect::Ieee, FpOps::Minmax));
    assert!(mm.text.contains("src1"));
}

/// The §2.3.1.1 special-value rules, checked against the host's IEEE arithmetic (the model's
/// core gives them by construction).
#[test]
fn honoured_ieee_rules() {
    let inf = f32::INFINITY;
    assert!((inf - inf).is_nan());
    assert_eq!(row("fp.ieee.inf-minus-inf").ops, FpOps::Arith);
    assert!((0.0f32 * inf).is_nan() && (0.0f32 * -inf).is_nan());
    assert_eq!(row("fp.ieee.zero-times-inf").ops, FpOps::Arith);
    let inv = |x: f32| 1.0 / x;
    assert_eq!(inv(inf).to_bits(), 0.0f32.to_bits());
    assert_eq!(inv(-inf).to_bits(), (-0.0f32).to_bits());
    assert_eq!(row("fp.ieee.inv-of-inf").ops, FpOps::Math);
    assert!((inf * inv(inf)).is_nan());
    assert_eq!(row("fp.ieee.inf-div-inf").ops, FpOps::Math);
    let rsq = |x: f32| 1.0 / x.sqrt();
    assert_eq!(inv(0.0), inf);
    assert_eq!(rsq(0.0), inf);
    assert_eq!(inv(-0.0), -inf);
    assert_eq!(rsq(-0.0), -inf);
    assert_eq!((-0.0f32).sqrt().to_bits(), (-0.0f32).to_bits());
    assert!(row("fp.ieee.inv-rsq-sqrt-of-zero")
        .text
        .contains("SQRT(-0) = -0"));
    assert!(rsq(-2.0).is_nan() && (-2.0f32).sqrt().is_nan());
    assert_eq!(row("fp.ieee.rsq-sqrt-of-negative").ops, FpOps::Math);
    assert_eq!(0.0f32.log2(), -inf);
    assert_eq!((-0.0f32).log2(), -inf);
    assert!((-1.0f32).log2().is_nan() && (-inf).log2().is_nan());
    assert_eq!(row("fp.ieee.log-of-zero-negative").ops, FpOps::Math);
    assert_eq!((-0.0f32 + 0.0).to_bits(), 0.0f32.to_bits());
    assert!(row("fp.ieee.add-zero").text.contains("-0 + 0 = +0"));
    assert_eq!(3.25f32 * 1.0, 3.25);
    assert_eq!(row("fp.ieee.mul-by-one").effect, FpEffect::Ieee);
    for id in [
        "fp.ieee.default",
        "fp.ieee.no-exceptions",
        "fp.ieee.divide-two-step",
        "fp.ieee.conversions",
    ] {
        assert_eq!(row(id).effect, FpEffect::Ieee, "{id}");
        assert!(on_all(row(id)), "{id}");
    }
    assert_eq!(row("fp.ieee.conversions").ops, FpOps::Conversion);
    assert_eq!(row("fp.ieee.divide-two-step").ops, FpOps::Math);
}

#[test]
fn fused_accumulator_and_tininess() {
    let f = float_modes::find(FpEffect::FusedOverflowInf, F, FpOps::Fused, Skl).unwrap();
    assert_eq!(f.id, "fp.ieee.fused-overflow");
    assert!(f.cite.contains("seed000 §2.3.1.2") && f.cite.contains("seed001"));
    let a = float_modes::find(FpEffect::AccExtraPrecision, F, FpOps::Arith, Ivb).unwrap();
    assert_eq!(a.id, "fp.ieee.acc-precision");
    for p in Platform::ALL {
        for ty in [HF, F, DF] {
            let t =
                float_modes::find(FpEffect::TininessAfterRounding, ty, FpOps::Arith, p).unwrap();
            assert_eq!(t.id, "fp.tininess");
            assert!(t.cite.contains("ieee754") && t.cite.contains("euref"));
        }
    }
    assert!(row("fp.tininess")
        .text
        .contains("rounds up to the smallest"));
}

// ------------------------------------------------------------------ mode selection and ALT

#[test]
fn mode_selection() {
    let m = row("fp.mode.cr0-select");
    assert_eq!(m.cr0_bit, Some(0));
    assert_eq!(m.mode, FpMode::Both);
    assert_eq!(types(m), vec![F]);
}

#[test]
fn alt_rows() {
    let alt: Vec<&FpRuleInfo> = RULES.iter().filter(|r| r.mode == FpMode::Alt).collect();
    assert_eq!(alt.len(), 13);
    for r in &alt {
        assert_eq!(r.cr0_bit, Some(0), "{}", r.id);
        assert!(r.id.starts_with("fp.alt."), "{}", r.id);
        assert!(on_all(r), "{}", r.id);
        if !matches!(r.id, "fp.alt.f-only" | "fp.alt.conversion-unsupported") {
            assert_eq!(types(r), vec![F], "{}: ALT concerns F only", r.id);
        }
    }
    let alt_find = |e: FpEffect, ops: FpOps| {
        float_modes::applicable(F, ops, Bdw)
            .find(|r| r.effect == e && r.mode == FpMode::Alt)
            .map(|r| r.id)
    };
    for ops in [
        FpOps::Arith,
        FpOps::Math,
        FpOps::Fused,
        FpOps::Compare,
        FpOps::Minmax,
    ] {
        assert_eq!(
            alt_find(FpEffect::AltResultInfToFmax, ops),
            Some("fp.alt.result-inf-to-fmax")
        );
        assert_eq!(
            alt_find(FpEffect::AltInputInfToFmax, ops),
            Some("fp.alt.input-inf-to-fmax")
        );
        assert_eq!(
            alt_find(FpEffect::AltInputDenormToZero, ops),
            Some("fp.alt.input-denorm-to-zero")
        );
        assert_eq!(
            alt_find(FpEffect::AltInputNanToZero, ops),
            Some("fp.alt.input-nan-to-zero")
        );
        assert_eq!(
            alt_find(FpEffect::DenormFlush, ops),
            Some("fp.alt.result-denorm-to-zero")
        );
    }
    assert_eq!(
        alt_find(FpEffect::AltMathAbs, FpOps::Math),
        Some("fp.alt.math-abs")
    );
    assert_eq!(alt_find(FpEffect::AltMathAbs, FpOps::Arith), None);
    assert!(row("fp.alt.math-abs").text.contains("log, rsq and sqrt"));
    assert!(row("fp.alt.result-inf-to-fmax").text.contains("0x7F7FFFFF"));
    assert_eq!(f32::from_bits(0x7F7F_FFFF), f32::MAX);

    // ALT does not apply to DF and HF.
    let fo = row("fp.alt.f-only");
    assert_eq!(types(fo), vec![HF, DF]);
    assert_eq!(fo.effect, FpEffect::Ieee);
    // ALT with F <-> DF/HF conversions is unsupported.
    let cu = float_modes::find(
        FpEffect::AltConversionUnsupported,
        F,
        FpOps::Conversion,
        Ivb,
    )
    .unwrap();
    assert_eq!(cu.id, "fp.alt.conversion-unsupported");
    assert_eq!(types(cu), vec![HF, F, DF]);
    // Raw mov is exempt from the ALT rules.
    let rm = row("fp.alt.raw-mov");
    assert_eq!((rm.effect, rm.ops), (FpEffect::Ieee, FpOps::RawMov));
    // Input rules: the glossary mapping, with the dismissed behaviours explained.
    assert!(row("fp.alt.input-nan-to-zero").text.contains("+0"));
    assert!(row("fp.alt.input-inf-to-fmax")
        .cite
        .contains("seed000 §1.2"));
    assert!(row("fp.alt.result-never-nan").text.contains("+0"));
    assert_eq!(
        row("fp.alt.result-never-nan").effect,
        FpEffect::AltInputNanToZero
    );
}

/// The dismissed-behaviour consequences stated in the ALT rows, computed with the input
/// mapping (inf -> fmax, NaN -> +0, denormal -> 0) and the result rules (inf -> fmax,
/// denormal -> 0).
#[test]
fn alt_dismissed_consequences() {
    let fmax = f32::MAX;
    let input = |x: f32| {
        if x.is_nan() {
            0.0
        } else if x.is_infinite() {
            fmax.copysign(x)
        } else if x.is_subnormal() {
            0.0f32.copysign(x)
        } else {
            x
        }
    };
    let result = |x: f32| {
        if x.is_infinite() {
            fmax.copysign(x)
        } else if x.is_subnormal() {
            0.0f32.copysign(x)
        } else {
            x
        }
    };
    let inf = f32::INFINITY;
    // fp.alt.dismissed.inf-minus-inf
    assert_eq!(result(input(inf) - input(inf)), 0.0);
    assert_eq!(result(input(inf) + input(inf)), fmax);
    assert_eq!(
        row("fp.alt.dismissed.inf-minus-inf").effect,
        FpEffect::AltInputInfToFmax
    );
    // fp.alt.dismissed.times-zero
    assert_eq!(result(input(f32::NAN) * 0.0), 0.0);
    assert_eq!(result(input(inf) * 0.0), 0.0);
    assert_eq!(row("fp.alt.dismissed.times-zero").ops, FpOps::Arith);
    // fp.alt.dismissed.rcp-of-inf: rcp gives 0, rsq does not.
    assert_eq!(result(1.0 / input(inf)), 0.0);
    assert!(result(1.0 / input(inf).sqrt()) > 0.0);
    assert_eq!(row("fp.alt.dismissed.rcp-of-inf").ops, FpOps::Math);
    // Division by zero gives fmax (item (a)).
    assert_eq!(result(1.0 / input(0.0)), fmax);
}
