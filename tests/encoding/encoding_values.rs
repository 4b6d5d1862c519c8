//! spec/encoding/values.toml: every value table against the encodings written here from Mesa's
//! brw_eu_defines.h / brw_reg_type.c / brw_disasm.c, and the names against euref's own
//! enumerations where one exists.

use euref::spec::encoding::values::{self, ALL};
use euref::spec::encoding::ValueTable;
use euref::spec::Platform::{self, *};

fn expect(t: &ValueTable, id: &str, gens: &[Platform], entries: &[(&str, u64)]) {
    assert_eq!(t.id, id);
    for p in Platform::ALL {
        assert_eq!(
            t.gens.contains(p),
            gens.contains(&p),
            "{id} on {}",
            p.name()
        );
    }
    assert_eq!(t.entries, entries, "{id}");
    assert!(!t.cite.is_empty());
    for (n, v) in entries {
        assert_eq!(t.value(n), Some(*v));
        let first = t.name_of(*v).expect("name of a defined value");
        assert_eq!(t.value(first), Some(*v), "{id}: name_of({v})");
    }
}

const ALLP: &[Platform] = &[Ivb, Hsw, Bdw, Chv, Skl, Bxt];
const GEN7: &[Platform] = &[Ivb, Hsw];
const GEN8: &[Platform] = &[Bdw, Chv, Skl, Bxt];

#[test]
fn value_tables() {
    assert_eq!(
        ALL.len(),
        50,
        "value table count (enc.visa.type-format, enc.visa.pred-combine: tests/spec/seed_tables.rs)"
    );
    expect(
        &values::GEN7_REG_FILE,
        "enc.gen7.reg-file",
        GEN7,
        &[("arf", 0), ("grf", 1), ("mrf", 2), ("imm", 3)],
    );
    expect(
        &values::GEN8_REG_FILE,
        "enc.gen8.reg-file",
        GEN8,
        &[("arf", 0), ("grf", 1), ("imm", 3)],
    );
    expect(
        &values::GEN9_SENDS_REG_FILE,
        "enc.gen9.sends-reg-file",
        &[Skl, Bxt],
        &[("arf", 0), ("grf", 1)],
    );
    expect(
        &values::EXEC_SIZE,
        "enc.exec-size",
        ALLP,
        &[("1", 0), ("2", 1), ("4", 2), ("8", 3), ("16", 4), ("32", 5)],
    );
    expect(
        &values::COND_MODIFIER,
        "enc.cond-modifier",
        ALLP,
        &[
            ("none", 0),
            ("z", 1),
            ("nz", 2),
            ("g", 3),
            ("ge", 4),
            ("l", 5),
            ("le", 6),
            ("o", 8),
            ("u", 9),
        ],
    );
    expect(
        &values::PRED_CONTROL_ALIGN1,
        "enc.pred-control-align1",
        ALLP,
        &[
            ("none", 0),
            ("seq", 1),
            ("anyv", 2),
            ("allv", 3),
            ("any2h", 4),
            ("all2h", 5),
            ("any4h", 6),
            ("all4h", 7),
            ("any8h", 8),
            ("all8h", 9),
            ("any16h", 10),
            ("all16h", 11),
            ("any32h", 12),
            ("all32h", 13),
        ],
    );
    expect(
        &values::PRED_CONTROL_ALIGN16,
        "enc.pred-control-align16",
        ALLP,
        &[
            ("none", 0),
            ("seq", 1),
            ("x", 2),
            ("y", 3),
            ("z", 4),
            ("w", 5),
            ("any4h", 6),
            ("all4h", 7),
        ],
    );
    expect(
        &values::QTR_CONTROL,
        "enc.qtr-control",
        ALLP,
        &[("q1", 0), ("q2", 1), ("q3", 2), ("q4", 3)],
    );
    expect(
        &values::NIB_CONTROL,
        "enc.nib-control",
        ALLP,
        &[("low", 0), ("high", 1)],
    );
    expect(
        &values::ACCESS_MODE,
        "enc.access-mode",
        ALLP,
        &[("align1", 0), ("align16", 1)],
    );
    expect(
        &values::MASK_CONTROL,
        "enc.mask-control",
        ALLP,
        &[("normal", 0), ("nomask", 1)],
    );
    expect(
        &values::DEP_CONTROL,
        "enc.dep-control",
        ALLP,
        &[
            ("none", 0),
            ("noddclr", 1),
            ("noddchk", 2),
            ("noddclr_noddchk", 3),
        ],
    );
    expect(
        &values::THREAD_CONTROL,
        "enc.thread-control",
        ALLP,
        &[("normal", 0), ("atomic", 1), ("switch", 2)],
    );
    expect(
        &values::FLAG_REGISTER,
        "enc.flag-register",
        ALLP,
        &[("f0.0", 0), ("f0.1", 1), ("f1.0", 2), ("f1.1", 3)],
    );
    let math7 = [
        ("inv", 1),
        ("log", 2),
        ("exp", 3),
        ("sqrt", 4),
        ("rsq", 5),
        ("sin", 6),
        ("cos", 7),
        ("fdiv", 9),
        ("pow", 10),
        ("int_div_both", 11),
        ("int_div_quotient", 12),
        ("int_div_remainder", 13),
    ];
    expect(
        &values::GEN7_MATH_FUNCTION,
        "enc.gen7.math-function",
        GEN7,
        &math7,
    );
    let math8: Vec<(&str, u64)> = math7
        .iter()
        .copied()
        .chain([("invm", 14), ("rsqrtm", 15)])
        .collect();
    expect(
        &values::GEN8_MATH_FUNCTION,
        "enc.gen8.math-function",
        GEN8,
        &math8,
    );
    expect(
        &values::HSTRIDE,
        "enc.hstride",
        ALLP,
        &[("0", 0), ("1", 1), ("2", 2), ("4", 3)],
    );
    // Destination strides: 0 is reserved (seed004 §Register Region Restrictions 2.7).
    expect(
        &values::DST_HSTRIDE,
        "enc.dst-hstride",
        ALLP,
        &[("1", 1), ("2", 2), ("4", 3)],
    );
    // Rule rows of issue 27 class 10 (value 1: the rule applies).
    expect(
        &values::GRF_REG_NR,
        "enc.grf-reg-nr",
        ALLP,
        &[("reserved_above_count", 1)],
    );
    expect(
        &values::RET_SRC0_REGISTER,
        "enc.ret-src0-register",
        ALLP,
        &[("register_only", 1)],
    );
    expect(
        &values::IGA_TEXT_BRANCH_CTRL_SUFFIX,
        "enc.iga-text.branch-ctrl-suffix",
        GEN8,
        &[("if", 1), ("else", 1), ("goto", 1)],
    );
    expect(
        &values::IGA_ARF_BYTE_SUBREG,
        "enc.iga-text.arf-byte-subreg",
        ALLP,
        &[("ce", 4), ("msg", 5)],
    );
    expect(
        &values::WAIT_SRC0_IS_DST,
        "enc.wait-src0-is-dst",
        ALLP,
        &[("agree", 1)],
    );
    expect(
        &values::ARF_REG_TYPE,
        "enc.arf-reg-type",
        ALLP,
        &[("reserved_unlisted", 1)],
    );
    // IGA Models.cpp: null, ce, sp and ip have no register numbers.
    expect(
        &values::IGA_ARF_NUMBERLESS,
        "enc.iga-text.arf-numberless",
        ALLP,
        &[("null", 0x0), ("ce", 0x4), ("sp", 0x6), ("ip", 0xA)],
    );
    // acc2-acc9 (RegNum 0x22-0x29) are IGA's mme0-mme7.
    expect(
        &values::IGA_ARF_MME,
        "enc.iga-text.arf-mme",
        ALLP,
        &[("first", 0x22), ("count", 8)],
    );
    // brw_eu_defines.h: BRW_ARF_MASK 0x40, BRW_ARF_MASK_STACK 0x50, ..._DEPTH 0x60.
    expect(
        &values::MESA_ARF_NAMES,
        "enc.mesa-text.arf-names",
        ALLP,
        &[("mask", 0x4), ("ms", 0x5), ("msd", 0x6)],
    );
    expect(
        &values::IGA_TEXT_BRANCH_OPERANDS,
        "enc.iga-text.branch-operands",
        ALLP,
        &[
            ("ret_vstride", 2),
            ("ret_width", 2),
            ("ret_hstride", 1),
            ("jmpi_vstride", 0),
            ("jmpi_width", 1),
            ("jmpi_hstride", 0),
        ],
    );
    expect(
        &values::VSTRIDE,
        "enc.vstride",
        ALLP,
        &[
            ("0", 0),
            ("1", 1),
            ("2", 2),
            ("4", 3),
            ("8", 4),
            ("16", 5),
            ("32", 6),
            ("vxh", 15),
        ],
    );
    expect(
        &values::WIDTH,
        "enc.width",
        ALLP,
        &[("1", 0), ("2", 1), ("4", 2), ("8", 3), ("16", 4)],
    );
    expect(
        &values::CHAN_SELECT,
        "enc.chan-select",
        ALLP,
        &[("x", 0), ("y", 1), ("z", 2), ("w", 3)],
    );
    expect(
        &values::ADDRESS_MODE,
        "enc.address-mode",
        ALLP,
        &[("direct", 0), ("indirect", 1)],
    );
    expect(
        &values::GEN7_3SRC_TYPE,
        "enc.gen7.3src-type",
        GEN7,
        &[("f", 0), ("d", 1), ("ud", 2), ("df", 3)],
    );
    expect(
        &values::GEN8_3SRC_TYPE,
        "enc.gen8.3src-type",
        GEN8,
        &[("f", 0), ("d", 1), ("ud", 2), ("df", 3), ("hf", 4)],
    );
    // Src1Type / Src2Type with an F or HF SrcType: mesa brw_eu_emit.c brw_alu3 quotes the
    // Bspec ("0b = :f ... 1b = :hf"); GED models 8.1 and 9 only.
    expect(
        &values::GEN8_3SRC_PRECISION,
        "enc.gen8.3src-precision",
        &[Chv, Skl, Bxt],
        &[("f", 0), ("hf", 1)],
    );
    expect(
        &values::REP_CONTROL,
        "enc.rep-control",
        ALLP,
        &[("none", 0), ("replicate", 1)],
    );
    let sfid_ivb = [
        ("null", 0),
        ("sampler", 2),
        ("gateway", 3),
        ("dp_sampler", 4),
        ("render", 5),
        ("urb", 6),
        ("thread_spawner", 7),
        ("vme", 8),
        ("const", 9),
        ("data", 10),
        ("pixel_interp", 11),
    ];
    expect(&values::IVB_SFID, "enc.ivb.sfid", &[Ivb], &sfid_ivb);
    let sfid_hsw: Vec<(&str, u64)> = sfid_ivb
        .iter()
        .copied()
        .chain([("dp_data_1", 12), ("cre", 13)])
        .collect();
    expect(
        &values::HSW_SFID,
        "enc.hsw.sfid",
        &[Hsw, Bdw, Chv, Skl, Bxt],
        &sfid_hsw,
    );
    expect(
        &values::GEN7_BRANCH_OPCODES,
        "enc.gen7.branch-opcodes",
        GEN7,
        &[
            ("if", 3),
            ("else", 1),
            ("endif", 1),
            ("while", 1),
            ("break", 3),
            ("cont", 3),
            ("halt", 3),
        ],
    );
    expect(
        &values::GEN8_BRANCH_OPCODES,
        "enc.gen8.branch-opcodes",
        GEN8,
        &[
            ("if", 3),
            ("else", 3),
            ("endif", 1),
            ("while", 1),
            ("break", 3),
            ("cont", 3),
            ("halt", 3),
            ("goto", 3),
            ("join", 1),
            ("brc", 3),
        ],
    );
    // Jump units (mesa brw_eu.h brw_jump_scale: 2 per instruction before Gen8, 16 from Gen8;
    // IGA Decoder.cpp PC_SCALE: x8 on HSW except call, calla, jmpi).
    expect(
        &values::GEN7_JUMP_UNIT_BYTES,
        "enc.gen7.jump-unit-bytes",
        GEN7,
        &[
            ("if", 8),
            ("else", 8),
            ("endif", 8),
            ("while", 8),
            ("break", 8),
            ("cont", 8),
            ("halt", 8),
            ("brd", 8),
            ("brc", 8),
            ("call", 1),
            ("calla", 1),
            ("jmpi", 1),
        ],
    );
    let gen8_ops = [
        "if", "else", "endif", "while", "break", "cont", "halt", "goto", "join", "brd", "brc",
        "call", "calla", "jmpi",
    ];
    let gen8_units: Vec<(&str, u64)> = gen8_ops.iter().map(|&n| (n, 1)).collect();
    expect(
        &values::GEN8_JUMP_UNIT_BYTES,
        "enc.gen8.jump-unit-bytes",
        GEN8,
        &gen8_units,
    );
    expect(
        &values::IGA_TEXT_JUMP_BYTES,
        "enc.iga-text.jump-bytes",
        ALLP,
        &[("iga", 1)],
    );
    // IGA's jmpi offset counts from the jmpi: the field plus its size (Decoder.cpp
    // decodeBranchInstruction; native 16 bytes, compacted 8).
    expect(
        &values::IGA_TEXT_JMPI_BIAS,
        "enc.iga-text.jmpi-bias",
        ALLP,
        &[("native", 16), ("compacted", 8)],
    );
    expect(
        &values::IMM_WORD_REPLICATED,
        "enc.imm-word-replicated",
        ALLP,
        &[("replicated", 1)],
    );
    // IGA's float text: std::ostream's default precision (6) for both forms; the payload is
    // the fraction less its quiet bit: 23 - 1, 52 - 1, 10 - 1 bits.
    expect(
        &values::IGA_TEXT_FLOAT_LITERALS,
        "enc.iga-text.float-literals",
        ALLP,
        &[
            ("g_precision", 6),
            ("e_precision", 6),
            ("f_nan_payload_bits", 23 - 1),
            ("df_nan_payload_bits", 52 - 1),
            ("hf_nan_payload_bits", 10 - 1),
        ],
    );
}

#[test]
fn names_match_euref_enumerations() {
    use euref::spec::{DataType, Opcode};
    // Condition modifiers, predicate controls and math functions use the value names of
    // properties.toml's cond_mod / pred_ctrl / math_fn enumerations.
    use euref::spec::{CondMod, MathFn, PredCtrl};
    for (n, _) in values::COND_MODIFIER.entries {
        assert!(
            CondMod::from_name(n).is_some(),
            "enc.cond-modifier `{n}` is a CondMod"
        );
    }
    for (n, _) in values::PRED_CONTROL_ALIGN1.entries {
        assert!(
            PredCtrl::from_name(n).is_some(),
            "enc.pred-control-align1 `{n}` is a PredCtrl"
        );
    }
    for (n, _) in values::GEN8_MATH_FUNCTION.entries {
        assert!(
            MathFn::from_name(n).is_some(),
            "enc.gen8.math-function `{n}` is a MathFn"
        );
    }
    // Three-source type names are data types; branch table names are opcodes of the platforms.
    for t in [&values::GEN7_3SRC_TYPE, &values::GEN8_3SRC_TYPE] {
        for (n, _) in t.entries {
            let ty = DataType::from_name(n).expect("type");
            for p in t.gens.platforms() {
                assert!(
                    ty.reg_enc(p).is_some(),
                    "{}: {n} exists on {}",
                    t.id,
                    p.name()
                );
            }
        }
    }
    for t in [&values::GEN7_JUMP_UNIT_BYTES, &values::GEN8_JUMP_UNIT_BYTES] {
        for (n, _) in t.entries {
            let op = Opcode::from_name(n).expect("opcode");
            for p in t.gens.platforms() {
                // calla is absent on Ivy Bridge; every other name is an instruction there.
                assert!(
                    op.number(p).is_some() || (*n == "calla" && p == Ivb),
                    "{}: {n} on {}",
                    t.id,
                    p.name()
                );
            }
        }
    }
    for t in [&values::GEN7_BRANCH_OPCODES, &values::GEN8_BRANCH_OPCODES] {
        for (n, v) in t.entries {
            let op = Opcode::from_name(n).expect("opcode");
            assert!(*v & 1 == 1, "{}: every jump instruction has JIP", t.id);
            for p in t.gens.platforms() {
                assert!(op.number(p).is_some(), "{}: {n} on {}", t.id, p.name());
            }
        }
    }
}
