//! spec/types.toml: every type row against values written here from the sources, and the
//! type encodings cross-checked against real instruction encodings from Mesa's assembler tests
//! (`<corpus>/mesa/asm`, tests/common/material.rs).

use euref::spec::{DataType, Platform, TypeKind};

use DataType::*;

/// Expected per-platform encodings, in the order ivb hsw bdw chv skl bxt.
type Enc = [Option<u8>; 6];
const fn all(v: u8) -> Enc {
    [Some(v); 6]
}
const fn gen8up(v: u8) -> Enc {
    [None, None, Some(v), Some(v), Some(v), Some(v)]
}
const NONE: Enc = [None; 6];

/// (type, id, name, bits, kind, present on ivb/hsw, reg_enc, imm_enc)
type TypeRow = (
    DataType,
    &'static str,
    &'static str,
    u32,
    TypeKind,
    bool,
    Enc,
    Enc,
);

#[test]
fn type_rows() {
    // Encodings: Mesa brw_reg_type.c (brw_type_decode, the Gen4-10 register and immediate
    // tables); availability: seed000 §2.2 / §3.3.4 (no byte immediates), seed003 Figures 20-21
    // (Q/UQ/HF on Gen8/9), Mesa has_64bit_int / Gen8 64-bit immediates.
    #[rustfmt::skip]
    let rows: &[TypeRow] = &[
        // type, id, name, bits, kind, on ivb/hsw, reg_enc, imm_enc
        (UB, "type.ub", "UB", 8, TypeKind::Uint, true, all(4), NONE),
        (B, "type.b", "B", 8, TypeKind::Sint, true, all(5), NONE),
        (UW, "type.uw", "UW", 16, TypeKind::Uint, true, all(2), all(2)),
        (W, "type.w", "W", 16, TypeKind::Sint, true, all(3), all(3)),
        (UD, "type.ud", "UD", 32, TypeKind::Uint, true, all(0), all(0)),
        (D, "type.d", "D", 32, TypeKind::Sint, true, all(1), all(1)),
        (UQ, "type.uq", "UQ", 64, TypeKind::Uint, false, gen8up(8), gen8up(8)),
        (Q, "type.q", "Q", 64, TypeKind::Sint, false, gen8up(9), gen8up(9)),
        (HF, "type.hf", "HF", 16, TypeKind::Float, false, gen8up(10), gen8up(11)),
        (F, "type.f", "F", 32, TypeKind::Float, true, all(7), all(7)),
        (DF, "type.df", "DF", 64, TypeKind::Float, true, all(6), gen8up(10)),
        (V, "type.v", "V", 32, TypeKind::VectorSint, true, NONE, all(6)),
        (UV, "type.uv", "UV", 32, TypeKind::VectorUint, true, NONE, all(4)),
        (VF, "type.vf", "VF", 32, TypeKind::VectorFloat, true, NONE, all(5)),
    ];
    assert_eq!(DataType::ALL.len(), rows.len());
    for (i, (t, id, name, bits, kind, gen7, reg, imm)) in rows.iter().enumerate() {
        assert_eq!(DataType::ALL[i], *t, "types.toml order");
        let info = t.info();
        assert_eq!(info.id, *id);
        assert_eq!(info.name, *name);
        assert_eq!(t.bits(), *bits, "{id}");
        assert_eq!(t.bytes(), bits / 8, "{id}");
        assert_eq!(t.kind(), *kind, "{id}");
        assert!(!info.range.is_empty() && !info.long_name.is_empty() && !info.cite.is_empty());
        assert_eq!(DataType::from_name(&name.to_lowercase()), Some(*t));
        for (j, p) in Platform::ALL.into_iter().enumerate() {
            let present = if j < 2 { *gen7 } else { true };
            assert_eq!(t.on(p), present, "{id} on {}", p.name());
            assert_eq!(t.reg_enc(p), reg[j], "{id} reg_enc on {}", p.name());
            assert_eq!(t.imm_enc(p), imm[j], "{id} imm_enc on {}", p.name());
            if let Some(e) = reg[j] {
                assert_eq!(DataType::from_reg_enc(p, e), Some(*t));
            }
            if let Some(e) = imm[j] {
                assert_eq!(DataType::from_imm_enc(p, e), Some(*t));
            }
        }
    }
    // Classification helpers agree with the kinds.
    assert!(F.is_float() && HF.is_float() && DF.is_float() && !VF.is_float());
    assert!(D.is_int() && UB.is_int() && !V.is_int());
    assert!(B.is_signed() && !UD.is_signed() && F.is_signed());
    assert!(V.is_vector() && UV.is_vector() && VF.is_vector() && !UD.is_vector());
    // Gen7's type fields are 3 bits wide: no register encoding above 7 exists there.
    for t in DataType::ALL {
        for p in [Platform::Ivb, Platform::Hsw] {
            assert!(t.reg_enc(p).unwrap_or(0) < 8 && t.imm_enc(p).unwrap_or(0) < 8);
        }
    }
}

// ------------------------------------------------------------------------ corpus cross-check

/// Bit positions of the operand type fields in a native (uncompacted) 128-bit instruction
/// (Mesa brw_inst.h: dst_reg_file, dst_reg_hw_type, src0_reg_file, src0_reg_hw_type,
/// src1_reg_file, src1_reg_hw_type; the first number is the high bit).
struct Layout {
    dst_file: (u32, u32),
    dst_type: (u32, u32),
    src0_file: (u32, u32),
    src0_type: (u32, u32),
    src1_file: (u32, u32),
    src1_type: (u32, u32),
}

const GEN7: Layout = Layout {
    dst_file: (33, 32),
    dst_type: (36, 34),
    src0_file: (38, 37),
    src0_type: (41, 39),
    src1_file: (43, 42),
    src1_type: (46, 44),
};

const GEN8: Layout = Layout {
    dst_file: (36, 35),
    dst_type: (40, 37),
    src0_file: (42, 41),
    src0_type: (46, 43),
    src1_file: (90, 89),
    src1_type: (94, 91),
};

/// Register file encoding of an immediate operand (Mesa brw_eu_defines.h BRW_IMMEDIATE_VALUE).
const FILE_IMM: u128 = 3;

fn bits(insn: u128, (hi, lo): (u32, u32)) -> u128 {
    (insn >> lo) & ((1u128 << (hi - lo + 1)) - 1)
}

/// The type letters Mesa's disassembly appends to an operand: the trailing run of upper-case
/// letters (Mesa prints hex digits in lower case, so `0x0F` is the value 0 of type F).
fn type_suffix(tok: &str) -> Option<DataType> {
    let n = tok
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_uppercase())
        .count();
    if n == 0 {
        return None;
    }
    DataType::from_name(&tok[tok.len() - n..])
}

/// Two-operand-or-fewer ALU opcodes whose operands use the common dst/src0/src1 layout.
const OPS: &[&str] = &[
    "mov", "add", "and", "asr", "cmp", "mul", "mach", "sel", "shl", "shr", "or", "xor", "not",
    "frc", "rndd", "rnde", "rndz", "lzd", "fbh", "fbl", "cbit", "bfrev", "bfi1", "f16to32",
    "f32to16", "dp2", "dp3", "dp4", "dph",
];

#[test]
fn encodings_match_mesa_corpus() {
    let Some(corpus) = crate::material::corpus() else {
        return;
    };
    let root = corpus.join("mesa/asm");
    let gens = [
        ("gen7", Platform::Ivb, &GEN7),
        ("gen7.5", Platform::Hsw, &GEN7),
        ("gen8", Platform::Bdw, &GEN8),
        ("gen9", Platform::Skl, &GEN8),
    ];
    let mut seen_total = std::collections::BTreeSet::new();
    for (dir, p, lay) in gens {
        let mut checked = 0usize;
        let mut seen = std::collections::BTreeSet::new();
        for op in OPS {
            let asm = root.join(dir).join(format!("{op}.asm"));
            let exp = root.join(dir).join(format!("{op}.expected"));
            let (Ok(asm), Ok(exp)) = (std::fs::read_to_string(&asm), std::fs::read_to_string(&exp))
            else {
                continue;
            };
            let asm: Vec<&str> = asm.lines().filter(|l| !l.trim().is_empty()).collect();
            let exp: Vec<&str> = exp.lines().filter(|l| !l.trim().is_empty()).collect();
            assert_eq!(
                asm.len(),
                exp.len(),
                "{dir}/{op}: one encoding per statement"
            );
            for (line, hex) in asm.iter().zip(&exp) {
                let bytes: Vec<u8> = hex
                    .split_whitespace()
                    .map(|b| u8::from_str_radix(b, 16).expect("hex byte"))
                    .collect();
                assert_eq!(bytes.len(), 16, "{dir}/{op}: {hex}");
                let insn = bytes
                    .iter()
                    .rev()
                    .fold(0u128, |a, b| (a << 8) | u128::from(*b));
                // Tokens: optional predicate "(...)", the opcode, then dst, src0, src1. Spaces
                // inside an indirect operand (`g[a0 96]<0,1,0>D`) do not separate tokens.
                let mut depth = 0i32;
                let line: String = line
                    .chars()
                    .filter(|c| {
                        depth += match c {
                            '[' => 1,
                            ']' => -1,
                            _ => 0,
                        };
                        !(depth > 0 && c.is_whitespace())
                    })
                    .collect();
                let mut toks = line.split_whitespace().skip_while(|t| t.starts_with('('));
                let Some(opt) = toks.next() else { continue };
                let name = opt.split(['(', '.']).next().unwrap_or("");
                if name != *op {
                    continue;
                }
                let operands: Vec<&str> = toks
                    .take_while(|t| !t.starts_with('{') && !t.starts_with("/*"))
                    .collect();
                let fields = [
                    (lay.dst_file, lay.dst_type),
                    (lay.src0_file, lay.src0_type),
                    (lay.src1_file, lay.src1_type),
                ];
                for (k, tok) in operands.iter().enumerate().take(3) {
                    let Some(t) = type_suffix(tok) else { continue };
                    let (ff, tf) = fields[k];
                    let file = bits(insn, ff);
                    let enc = bits(insn, tf) as u8;
                    let decoded = if k > 0 && file == FILE_IMM {
                        DataType::from_imm_enc(p, enc)
                    } else {
                        DataType::from_reg_enc(p, enc)
                    };
                    assert_eq!(
                        decoded,
                        Some(t),
                        "{dir}/{op}: operand {k} `{tok}` has type field {enc} (file {file}) in {hex}"
                    );
                    seen.insert(t.name());
                    checked += 1;
                }
            }
        }
        assert!(
            checked > 200,
            "{dir}: only {checked} operands cross-checked"
        );
        // Types the corpus must have exercised on this platform.
        let must: &[&str] = match dir {
            // (Mesa's Ivy Bridge tests have no DF instruction; its Haswell tests do.)
            "gen7" => &["UB", "B", "UW", "W", "UD", "D", "F", "V", "VF"],
            "gen7.5" => &["UB", "B", "UW", "W", "UD", "D", "F", "DF", "V", "VF"],
            _ => &[
                "UB", "B", "UW", "W", "UD", "D", "UQ", "Q", "HF", "F", "DF", "V", "UV",
            ],
        };
        for m in must {
            assert!(
                seen.contains(m),
                "{dir}: no {m} operand cross-checked (saw {seen:?})"
            );
        }
        seen_total.extend(seen);
    }
    eprintln!("cross-checked types: {seen_total:?}");
}
