//! spec/platforms.toml: the platform rows, `--gen` spellings, and every `feature.*` row checked
//! against platform sets written here independently from the sources (seed000 §1.3, seed003,
//! seed004, Mesa, IGA).

use euref::spec::{feature, Platform};

use Platform::{Bdw, Bxt, Chv, Hsw, Ivb, Skl};

#[test]
fn platform_rows() {
    // (id, name, gen x10, low power, long name)
    let rows = [
        (Ivb, "platform.ivb", "ivb", 70, false, "Ivy Bridge"),
        (Hsw, "platform.hsw", "hsw", 75, false, "Haswell"),
        (Bdw, "platform.bdw", "bdw", 80, false, "Broadwell"),
        (Chv, "platform.chv", "chv", 80, true, "Cherryview"),
        (Skl, "platform.skl", "skl", 90, false, "Skylake"),
        (Bxt, "platform.bxt", "bxt", 90, true, "Broxton"),
    ];
    assert_eq!(Platform::ALL.len(), rows.len());
    for (i, (p, id, name, gen, lp, long)) in rows.into_iter().enumerate() {
        assert_eq!(Platform::ALL[i], p, "generation order");
        assert_eq!(p as usize, i);
        let info = p.info();
        assert_eq!(info.id, id);
        assert_eq!(p.name(), name);
        assert_eq!(p.gen_x10(), gen);
        assert_eq!(p.is_lowpower(), lp);
        assert_eq!(info.long_name, long);
        assert!(!info.cite.is_empty());
    }
}

#[test]
fn gen_spellings_parse() {
    let cases: &[(&str, Platform)] = &[
        // bare generation numbers pick the big-core part
        ("7", Ivb),
        ("7.5", Hsw),
        ("8", Bdw),
        ("9", Skl),
        ("gen7", Ivb),
        ("gen7.5", Hsw),
        ("gen75", Hsw),
        ("gen8", Bdw),
        ("gen9", Skl),
        ("GEN9", Skl),
        ("gen8lp", Chv),
        ("gen9lp", Bxt),
        // short names, any case
        ("ivb", Ivb),
        ("hsw", Hsw),
        ("bdw", Bdw),
        ("chv", Chv),
        ("skl", Skl),
        ("bxt", Bxt),
        ("BXT", Bxt),
        // long names
        ("Ivy Bridge", Ivb),
        ("ivybridge", Ivb),
        ("Haswell", Hsw),
        ("Broadwell", Bdw),
        ("Cherryview", Chv),
        ("Skylake", Skl),
        ("Broxton", Bxt),
        ("apollolake", Bxt),
        ("  hsw ", Hsw),
    ];
    for (s, p) in cases {
        assert_eq!(Platform::parse(s), Some(*p), "--gen {s:?}");
    }
    for bad in ["", "6", "gen6", "gen10", "icl", "ivy", "7.6"] {
        assert_eq!(Platform::parse(bad), None, "--gen {bad:?} must be rejected");
    }
    // Every alias names exactly one platform.
    for p in Platform::ALL {
        for a in p.info().aliases {
            assert_eq!(Platform::parse(a), Some(p), "alias {a:?}");
        }
    }
}

/// Expected platform sets, in the order ivb hsw bdw chv skl bxt.
const ALL: [bool; 6] = [true; 6];
const IVB: [bool; 6] = [true, false, false, false, false, false];
const HSW: [bool; 6] = [false, true, false, false, false, false];
const GEN7X: [bool; 6] = [true, true, false, false, false, false];
const HSW_UP: [bool; 6] = [false, true, true, true, true, true];
const GEN8_UP: [bool; 6] = [false, false, true, true, true, true];
const GEN9: [bool; 6] = [false, false, false, false, true, true];
const LP: [bool; 6] = [false, false, false, true, false, true];
const NO_DWORD_MUL: [bool; 6] = [true, true, false, true, false, true];

#[test]
fn features_match_the_sources() {
    let table: &[(&feature::Feature, &str, [bool; 6])] = &[
        // seed000 §1.3: added by Ivy Bridge, continuing to later generations.
        (&feature::EXEC_SIZE_32, "feature.exec-size-32", ALL),
        (
            &feature::TWO_FLAG_REGISTERS,
            "feature.two-flag-registers",
            ALL,
        ),
        (&feature::NIBCTRL, "feature.nibctrl", ALL),
        (&feature::DF_TYPE, "feature.df-type", ALL),
        (
            &feature::THREE_SRC_TYPE_FIELDS,
            "feature.three-src-type-fields",
            ALL,
        ),
        (
            &feature::BIT_MANIPULATION_OPS,
            "feature.bit-manipulation-ops",
            ALL,
        ),
        (&feature::ADDC_SUBB, "feature.addc-subb", ALL),
        (&feature::BRC_BRD, "feature.brc-brd", ALL),
        (&feature::CMP_ACC_RELAXED, "feature.cmp-acc-relaxed", ALL),
        (
            &feature::SEL_ACC_UNRESTRICTED,
            "feature.sel-acc-unrestricted",
            ALL,
        ),
        (
            &feature::CR0_ROUNDING_MODE,
            "feature.cr0-rounding-mode",
            ALL,
        ),
        (
            &feature::CR0_DF_DENORM_MODE,
            "feature.cr0-df-denorm-mode",
            ALL,
        ),
        // seed000 §1.3: specific to Ivy Bridge. DF element size 4 is Ivy Bridge only (Mesa:
        // verx10 == 70); f16to32/f32to16 exist on Gen7 and Gen7.5 (Mesa GFX7 | GFX75); the
        // 16-bit src1 DWord multiply holds wherever Mesa has no has_integer_dword_mul.
        (
            &feature::DF_ELEMENT_SIZE_4,
            "feature.df-element-size-4",
            IVB,
        ),
        // seed000 §3.2.5: a compressed instruction is its two native halves, in order (Mesa
        // fs_inst::has_source_and_destination_hazard, no platform condition).
        (
            &feature::COMPRESSED_HALVES,
            "feature.compressed-halves",
            ALL,
        ),
        // Where the second half reads what the first half writes, the sources conflict
        // (seed000 and Mesa against seed003's IGC code); no platform condition.
        (
            &feature::COMPRESSED_OVERLAP,
            "feature.compressed-overlap",
            ALL,
        ),
        (&feature::F16TO32_F32TO16, "feature.f16to32-f32to16", GEN7X),
        (
            &feature::MUL_DWORD_SRC1_LOW16,
            "feature.mul-dword-src1-low16",
            NO_DWORD_MUL,
        ),
        (&feature::SEL_NO_SIMD32, "feature.sel-no-simd32", GEN7X),
        (
            &feature::NO_SIMD16_DWORD_EXPLICIT_ACC,
            "feature.no-simd16-dword-explicit-acc",
            GEN7X,
        ),
        // Ivy Bridge / Haswell differences from Mesa.
        (
            &feature::SIMD32_LOW16_EXEC_MASK,
            "feature.simd32-low16-exec-mask",
            GEN7X,
        ),
        (
            &feature::SIMD32_NO_COND_MOD,
            "feature.simd32-no-cond-mod",
            GEN7X,
        ),
        (
            &feature::THREE_SRC_SIMD16,
            "feature.three-src-simd16",
            HSW_UP,
        ),
        (&feature::DIM, "feature.dim", HSW),
        // Gen8 / Gen9.
        (&feature::HF_TYPE, "feature.hf-type", GEN8_UP),
        (
            &feature::QWORD_INT_TYPES,
            "feature.qword-int-types",
            GEN8_UP,
        ),
        (&feature::IMM_64BIT, "feature.imm-64bit", GEN8_UP),
        (&feature::ACC2_ACC9, "feature.acc2-acc9", GEN8_UP),
        (&feature::A0_16_SUBREGS, "feature.a0-16-subregs", GEN8_UP),
        (
            &feature::CR0_FP32_DENORM_MODE,
            "feature.cr0-fp32-denorm-mode",
            GEN8_UP,
        ),
        (
            &feature::CR0_FP16_DENORM_MODE,
            "feature.cr0-fp16-denorm-mode",
            GEN9,
        ),
        (
            &feature::LP_64BIT_RESTRICTIONS,
            "feature.lp-64bit-restrictions",
            LP,
        ),
        (&feature::CSEL, "feature.csel", GEN8_UP),
        (&feature::MADM, "feature.madm", GEN8_UP),
        (&feature::THREE_SRC_HF, "feature.three-src-hf", GEN8_UP),
        (
            &feature::MIXED_FLOAT_MODE,
            "feature.mixed-float-mode",
            GEN8_UP,
        ),
        // Execution semantics the seeds state (seed000 §1.1, seed004 8.1, 8.2, 8.4).
        (
            &feature::SRCMOD_AFTER_CONVERSION,
            "feature.srcmod-after-conversion",
            ALL,
        ),
        (
            &feature::INDIRECT_TWO_REGS_ONE_INDEX,
            "feature.indirect-two-regs-one-index",
            ALL,
        ),
        (
            &feature::INDIRECT_MULTI_SRC0_TWO_REG_DST,
            "feature.indirect-multi-src0-two-reg-dst",
            ALL,
        ),
        // Text syntax.
        (
            &feature::IGA_TERNARY_REGIONS,
            "feature.iga-ternary-regions",
            ALL,
        ),
        (
            &feature::IGA_TEXT_KEEPS_BITS,
            "feature.iga-text-keeps-bits",
            ALL,
        ),
    ];
    for (f, id, expect) in table {
        assert_eq!(f.id, *id);
        assert!(!f.text.is_empty() && !f.cite.is_empty(), "{id}");
        for (i, p) in Platform::ALL.into_iter().enumerate() {
            assert_eq!(f.on(p), expect[i], "{id} on {}", p.name());
        }
    }
    // The table above covers every feature row.
    assert_eq!(feature::ALL.len(), table.len());
    for f in feature::ALL {
        assert!(
            table.iter().any(|(g, _, _)| g.id == f.id),
            "{} is not checked",
            f.id
        );
    }
}

#[test]
fn spot_checks_from_the_seed_text() {
    // "Each DF operand uses an element size of 4 rather than 8" (seed000 §1.3, Ivy Bridge).
    assert!(feature::DF_ELEMENT_SIZE_4.on(Ivb));
    assert!(!feature::DF_ELEMENT_SIZE_4.on(Hsw));
    // Broxton has ten accumulators (seed004 §Accumulator Registers).
    assert!(feature::ACC2_ACC9.on(Bxt));
    assert!(!feature::ACC2_ACC9.on(Ivb));
    // The 64-bit region restrictions are a low-power (CHV, BXT) matter.
    assert!(feature::LP_64BIT_RESTRICTIONS.on(Chv) && !feature::LP_64BIT_RESTRICTIONS.on(Skl));
}
