//! Implicit operands from spec/encoding/implicit.toml (`enc.implicit.*`): the encoder writes
//! them as Mesa does.
//! - Opcodes in the Mesa corpus: every corpus word of the opcode decodes and re-encodes to
//!   exactly Mesa's bytes (the implicit operands are not in the model, so they come from the
//!   row), and the row that applies is the expected one.
//! - Opcodes Mesa does not emit (jmpi, ret, brd, brc, goto, join): the encoded fields of the
//!   implicit operands are checked against the values written out here.

use crate::encoding_util;

use encoding_util::{corpus, corpus_present, file, word};
use euref::codec;
use euref::encoding::layout_for;
use euref::isa::{Addr, Reg, Src};
use euref::spec::encoding::implicit::{self, ImplicitFile};
use euref::spec::encoding::values;
use euref::spec::{DataType, Opcode, Platform, Platform::*};

fn opcode_of(w: u128, p: Platform) -> Option<Opcode> {
    let n = layout_for(w, p).field("opcode")?.get(w);
    Opcode::from_number(p, (n & 0x7f) as u8)
}

/// (row ID, corpus folder, platform, opcode, only instructions without their own src1).
const CORPUS_CASES: [(&str, &str, Platform, Opcode, bool); 22] = [
    ("enc.implicit.gen7.if", "gen7", Ivb, Opcode::If, false),
    ("enc.implicit.gen7.if", "gen7.5", Hsw, Opcode::If, false),
    (
        "enc.implicit.gen7.else-endif-while",
        "gen7",
        Ivb,
        Opcode::Else,
        false,
    ),
    (
        "enc.implicit.gen7.else-endif-while",
        "gen7.5",
        Hsw,
        Opcode::Endif,
        false,
    ),
    (
        "enc.implicit.gen7.else-endif-while",
        "gen7",
        Ivb,
        Opcode::While,
        false,
    ),
    (
        "enc.implicit.gen7.break-halt",
        "gen7",
        Ivb,
        Opcode::Break,
        false,
    ),
    (
        "enc.implicit.gen7.break-halt",
        "gen7.5",
        Hsw,
        Opcode::Halt,
        false,
    ),
    ("enc.implicit.gen7.cont", "gen7.5", Hsw, Opcode::Cont, false),
    ("enc.implicit.gen8.branch", "gen8", Bdw, Opcode::If, false),
    ("enc.implicit.gen8.branch", "gen9", Skl, Opcode::Else, false),
    (
        "enc.implicit.gen8.branch",
        "gen8",
        Bdw,
        Opcode::While,
        false,
    ),
    (
        "enc.implicit.gen8.branch",
        "gen9",
        Skl,
        Opcode::Break,
        false,
    ),
    ("enc.implicit.gen8.branch", "gen8", Bdw, Opcode::Halt, false),
    ("enc.implicit.gen8.endif", "gen8", Bdw, Opcode::Endif, false),
    ("enc.implicit.gen8.endif", "gen9", Skl, Opcode::Endif, false),
    ("enc.implicit.gen8.cont", "gen8", Bdw, Opcode::Cont, false),
    ("enc.implicit.gen8.cont", "gen9", Skl, Opcode::Cont, false),
    ("enc.implicit.wait", "gen7", Ivb, Opcode::Wait, false),
    ("enc.implicit.wait", "gen9", Skl, Opcode::Wait, false),
    ("enc.implicit.math-src1", "gen7", Ivb, Opcode::Math, true),
    ("enc.implicit.math-src1", "gen7.5", Hsw, Opcode::Math, true),
    ("enc.implicit.math-src1", "gen9", Skl, Opcode::Math, true),
];

#[test]
fn corpus_instructions_reencode_with_their_implicit_operands() {
    if !corpus_present() {
        return;
    }
    let mut bad = vec![];
    for (id, dir, p, op, no_src1) in CORPUS_CASES {
        let row = implicit::row(op, p);
        assert_eq!(row.map(|r| r.id), Some(id), "{op:?} on {p:?}");
        let mut n = 0;
        for (file, text, w) in corpus(dir) {
            if opcode_of(w, p) != Some(op) {
                continue;
            }
            let mut insn =
                codec::decode_word(w, p).unwrap_or_else(|e| panic!("{file}: {text}: decode: {e}"));
            if no_src1 {
                // A one-operand math function: the model leaves src1 out (as the text
                // assembler does); Mesa's src1 is the null register.
                match insn.src[1] {
                    Some(Src::Reg(r))
                        if r.addr
                            == (Addr::Direct {
                                reg: Reg::NULL,
                                sub: 0,
                            }) =>
                    {
                        insn.src[1] = None
                    }
                    None => {}
                    _ => continue,
                }
            }
            n += 1;
            match codec::encode_word(&insn, p) {
                Ok(got) if got == w => {}
                Ok(got) => bad.push(format!(
                    "{id} {dir} {file}: {text}\n  got      {got:032x}\n  expected {w:032x}"
                )),
                Err(e) => bad.push(format!("{id} {dir} {file}: {text}: {e}")),
            }
        }
        assert!(n > 0, "{id}: no {op:?} in corpus {dir}");
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

fn reg_ty(p: Platform, t: DataType) -> u64 {
    u64::from(t.reg_enc(p).unwrap())
}

fn imm_ty(p: Platform, t: DataType) -> u64 {
    u64::from(t.imm_enc(p).unwrap())
}

/// The ARF number of ip (mesa brw_reg.h BRW_ARF_IP).
const IP: u64 = 0xA0;

/// Encode the instruction a model word decodes to; return the encoded word.
fn reencode(p: Platform, op: Opcode, sets: &[(&str, u64)]) -> u128 {
    let w = word(p, op, sets);
    let insn = codec::decode_word(w, p).unwrap_or_else(|e| panic!("{op:?} {p:?}: {e}"));
    codec::encode_word(&insn, p).unwrap_or_else(|e| panic!("{op:?} {p:?}: encode: {e}"))
}

fn check(id: &str, p: Platform, op: Opcode, w: u128, want: &[(&str, u64)]) {
    assert_eq!(implicit::row(op, p).map(|r| r.id), Some(id), "{op:?} {p:?}");
    let l = layout_for(w, p);
    for (name, v) in want {
        let f = l
            .field(name)
            .unwrap_or_else(|| panic!("{id}: {} has no {name}", l.name));
        assert_eq!(f.get(w), *v, "{id} {op:?} {p:?}: {name} of {w:032x}");
    }
}

#[test]
fn opcodes_mesa_does_not_emit_get_their_implicit_operands() {
    for p in [Ivb, Hsw, Bdw, Skl] {
        let gr = file(p, "grf");
        // jmpi ip ip index: dst and src0 are ip (UD, <4;1,0>); src1 is the instruction's.
        let w = reencode(
            p,
            Opcode::Jmpi,
            &[("src1_reg_file", gr), ("src1_reg_nr", 5)],
        );
        check(
            "enc.implicit.jmpi",
            p,
            Opcode::Jmpi,
            w,
            &[
                ("dst_reg_file", file(p, "arf")),
                ("dst_reg_nr", IP),
                ("dst_reg_type", reg_ty(p, DataType::UD)),
                ("src0_reg_file", file(p, "arf")),
                ("src0_reg_nr", IP),
                ("src0_reg_type", reg_ty(p, DataType::UD)),
                ("src0_vstride", values::VSTRIDE.value("4").unwrap()),
                ("src0_width", values::WIDTH.value("1").unwrap()),
                ("src0_hstride", values::HSTRIDE.value("0").unwrap()),
                ("src1_reg_nr", 5),
            ],
        );
        // ret: null:F destination; src0 is the instruction's.
        let w = reencode(p, Opcode::Ret, &[("src0_reg_file", gr), ("src0_reg_nr", 9)]);
        check(
            "enc.implicit.ret",
            p,
            Opcode::Ret,
            w,
            &[
                ("dst_reg_file", file(p, "arf")),
                ("dst_reg_nr", 0),
                ("dst_reg_type", reg_ty(p, DataType::F)),
                ("src0_reg_nr", 9),
            ],
        );
        // brd (and brc before Gen8): null:D destination; the JIP is the src0 immediate.
        let ops: &[Opcode] = if p.gen_x10() < 80 {
            &[Opcode::Brd, Opcode::Brc]
        } else {
            &[Opcode::Brd]
        };
        for &op in ops {
            let w = reencode(
                p,
                op,
                &[
                    ("src0_reg_file", file(p, "imm")),
                    ("src0_reg_type", imm_ty(p, DataType::D)),
                    ("imm", 48),
                ],
            );
            check(
                if op == Opcode::Brd {
                    "enc.implicit.brd-brc"
                } else {
                    "enc.implicit.gen7.brc"
                },
                p,
                op,
                w,
                &[
                    ("dst_reg_file", file(p, "arf")),
                    ("dst_reg_nr", 0),
                    ("dst_reg_type", reg_ty(p, DataType::D)),
                    ("imm", 48),
                ],
            );
        }
    }
    // brc (Gen8+): a jump-target instruction: null:D destination, src0 immediate D, the
    // targets in the JIP (127:96) and UIP (95:64) fields.
    for p in [Bdw, Skl] {
        let w = reencode(
            p,
            Opcode::Brc,
            &[
                ("src0_reg_file", file(p, "imm")),
                ("src0_reg_type", imm_ty(p, DataType::D)),
                ("jip", 48),
                ("uip", 48),
            ],
        );
        check(
            "enc.implicit.gen8.brc",
            p,
            Opcode::Brc,
            w,
            &[
                ("dst_reg_file", file(p, "arf")),
                ("dst_reg_type", reg_ty(p, DataType::D)),
                ("src0_reg_file", file(p, "imm")),
                ("src0_reg_type", imm_ty(p, DataType::D)),
                ("jip", 48),
                ("uip", 48),
            ],
        );
    }
    // goto / join (Gen8+): as if: null:D destination, src0 immediate D.
    for p in [Bdw, Chv, Skl, Bxt] {
        for op in [Opcode::Goto, Opcode::Join] {
            let w = reencode(p, op, &[("jip", 32)]);
            check(
                "enc.implicit.gen8.branch",
                p,
                op,
                w,
                &[
                    ("dst_reg_file", file(p, "arf")),
                    ("dst_reg_type", reg_ty(p, DataType::D)),
                    ("src0_reg_file", file(p, "imm")),
                    ("src0_reg_type", imm_ty(p, DataType::D)),
                    ("jip", 32),
                ],
            );
        }
    }
}

#[test]
fn rows_describe_what_the_corpus_holds() {
    // The table itself, for the rows the corpus pins down: Gen7 `if` differs from its
    // siblings only in src0's region (scalar) and src1's type (W).
    let r = implicit::row(Opcode::If, Ivb).unwrap();
    assert_eq!(r.id, "enc.implicit.gen7.if");
    let s0 = r.src[0].unwrap();
    assert_eq!(
        (s0.file, s0.ty, s0.region),
        (ImplicitFile::Null, Some(DataType::D), Some((0, 1, 0)))
    );
    assert_eq!(
        r.src[1].map(|s| (s.file, s.ty)),
        Some((ImplicitFile::Imm, Some(DataType::W)))
    );
    // Gen8+ endif has no destination; every other Gen8+ jump-target instruction has one.
    assert!(implicit::row(Opcode::Endif, Skl).unwrap().dst.is_none());
    assert!(implicit::row(Opcode::If, Skl).unwrap().dst.is_some());
    // wait reads its destination register with the write-mask swizzle.
    let wt = implicit::row(Opcode::Wait, Hsw).unwrap().src[0].unwrap();
    assert_eq!(wt.file, ImplicitFile::Dst);
    assert!(wt.dst_mask_swizzle);
    // Plain ALU instructions have no implicit operands.
    assert!(implicit::row(Opcode::Add, Skl).is_none());
    assert!(implicit::row(Opcode::Mov, Ivb).is_none());
    // goto and join are not instructions before Gen8.
    assert!(implicit::row(Opcode::Goto, Hsw).is_none());
    // Every row is exercised above.
    let all: Vec<&str> = implicit::ROWS.iter().map(|r| r.id).collect();
    for id in &all {
        let tested = CORPUS_CASES.iter().any(|c| c.0 == *id)
            || [
                "enc.implicit.jmpi",
                "enc.implicit.ret",
                "enc.implicit.brd-brc",
                "enc.implicit.gen7.brc",
                "enc.implicit.gen8.brc",
            ]
            .contains(id);
        assert!(tested, "{id} has no case");
    }
}
