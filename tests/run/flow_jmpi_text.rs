//! jmpi with a label (issue 29 "Assembly": `(W) jmpi (1|M0) SKIP`). flow.jmpi: the immediate
//! is a byte offset from the next instruction, so a label resolves to (target - next) bytes,
//! every instruction native (16 bytes) as the assembler lays labels out; IGA syntax prints
//! the label back, and compaction re-resolves the offset.

use crate::flow_util::{run, state, ud};
use euref::asm::{self, Dialect, PrintOptions};
use euref::isa::Src;
use euref::spec::Platform;
use euref::thread::Image;

/// A forward jmpi over one mov and a backward one to the start (never taken: f0.0 bit 0
/// clear), in IGA syntax.
const TEXT: &str = "TOP:\n(W) jmpi (1|M0) SKIP\nmov (8|M0) r2.0<1>:ud 0x1:ud\nSKIP:\nmov (8|M0) r3.0<1>:ud 0x2:ud\n(W&f0.0) jmpi (1|M0) TOP\n";

/// The immediate of instruction `k`'s src1 as a signed offset.
fn jmpi_offset(insns: &[euref::isa::Insn], k: usize) -> i32 {
    match insns[k].src[1] {
        Some(Src::Imm(m)) => m.bits as u32 as i32,
        ref s => panic!("jmpi src1 {s:?}"),
    }
}

#[test]
fn jmpi_labels_resolve_to_bytes_from_the_next_instruction() {
    for p in [Platform::Hsw, Platform::Bdw, Platform::Skl] {
        let prog = asm::parse(TEXT.as_bytes(), Some(Dialect::Iga), p)
            .unwrap_or_else(|e| panic!("{}:{}: {}", e.line, e.col, e.msg));
        // jmpi at 0, next at 16, SKIP at 32: +16. jmpi at 48, next at 64, TOP at 0: -64.
        assert_eq!(jmpi_offset(&prog.insns, 0), 16, "{p:?}");
        assert_eq!(jmpi_offset(&prog.insns, 3), -64, "{p:?}");
        // The program runs as the labels say: the first mov is jumped over.
        let mut st = state(p, 0xff, 0, 0);
        let ips = run(&mut st, TEXT);
        assert_eq!(ips, [0, 32, 48], "{p:?}");
        assert_eq!(ud(&st, 3, 8), [2; 8]);
        let (_, undef) = st.read_grf(2 * 32, 4).expect("r2");
        assert!(!undef);
        assert_eq!(ud(&st, 2, 1), [0], "r2 was jumped over");
    }
}

/// IGA syntax prints the labels of jmpi targets, and text -> bytes -> text -> bytes is stable.
#[test]
fn jmpi_labels_print_and_round_trip() {
    let p = Platform::Skl;
    let o = PrintOptions {
        dialect: Dialect::Iga,
        platform: p,
    };
    let prog = asm::parse(TEXT.as_bytes(), Some(Dialect::Iga), p).expect("parses");
    let b0 = Image::from_insns(p, &prog.insns, 0).expect("encodes");
    let text = asm::print_program(&prog.insns, &o);
    let jmpis: Vec<&str> = text.lines().filter(|l| l.contains("jmpi")).collect();
    assert_eq!(jmpis.len(), 2, "{text}");
    assert!(jmpis.iter().all(|l| l.contains("LABEL")), "{text}");
    let back = asm::parse(text.as_bytes(), Some(Dialect::Iga), p).expect("re-parses");
    let b1 = Image::from_insns(p, &back.insns, 0).expect("encodes");
    assert_eq!(b0.bytes(), b1.bytes(), "{text}");
    assert_eq!(asm::print_program(&back.insns, &o), text);
}

/// A label cannot be resolved in a single instruction, and an unknown label is an error
/// naming it.
#[test]
fn jmpi_label_errors() {
    let e = asm::parse_insn("(W) jmpi (1|M0) SKIP", Dialect::Iga, Platform::Skl).unwrap_err();
    assert!(e.to_string().contains("label `SKIP`"), "{e}");
    let e = asm::parse(
        b"(W) jmpi (1|M0) NOWHERE\nnop\n",
        Some(Dialect::Iga),
        Platform::Skl,
    )
    .unwrap_err();
    assert!(e.msg.contains("undefined label `NOWHERE`"), "{}", e.msg);
    // Register operands are still registers, not labels.
    let prog = asm::parse(b"(W) jmpi (1|M0) r4.0\n", Some(Dialect::Iga), Platform::Skl)
        .expect("register jmpi");
    assert!(matches!(prog.insns[0].src[1], Some(Src::Reg(_))));
}

/// A jmpi predicated `.anyv` / `.allv` reads channel 0's bit of f0.0 OR / AND of f1.0
/// (flow.jmpi, flow.pmask.vertical). With f0.0 bit 0 clear and f1.0 bit 0 set: anyv jumps
/// over the mov (r2 stays 0), allv does not (r2 = 1); with both set, allv jumps too.
#[test]
fn jmpi_takes_vertical_predicates() {
    let prog = |pred: &str| {
        format!("({pred}) jmpi (1|M0) SKIP\nmov (8|M0) r2.0<1>:ud 0x1:ud\nSKIP:\nnop\n")
    };
    for p in [Platform::Hsw, Platform::Skl] {
        for (pred, f0, f1, r2) in [
            ("W&f0.0.anyv", 0, 1, 0),
            ("W&f0.0.allv", 0, 1, 1),
            ("W&f0.0.allv", 1, 1, 0),
            ("W&f0.0.anyv", 0, 0, 1),
            // The instruction names f1.0: the same two bits.
            ("W&f1.0.anyv", 0, 1, 0),
        ] {
            let mut st = state(p, 0xff, f0, f1);
            run(&mut st, &prog(pred));
            assert_eq!(ud(&st, 2, 1), [r2], "{p:?} ({pred}) f0={f0} f1={f1}");
        }
    }
}
