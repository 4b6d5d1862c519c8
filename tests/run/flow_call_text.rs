//! call, calla, ret, goto and join in the three text syntaxes: written with labels they
//! assemble, disassemble with labels, and round-trip text -> bytes -> text -> bytes (issue 29
//! "Assembly"). calla's label is an address (flow.calla), the others offsets (flow.call,
//! flow.goto, flow.join).

use euref::asm::{self, Dialect, PrintOptions};
use euref::codec;
use euref::isa::Insn;
use euref::spec::Platform;
use euref::thread::Image;

/// A program with a call, a calla (Haswell on) and ret, and (Gen8 on) goto/join, in IGA
/// syntax.
fn program(p: Platform) -> String {
    let mut t = String::from("call (8|M0) r10.0<1>:ud SUB\n");
    if p != Platform::Ivb {
        t.push_str("calla (8|M0) r10.0<1>:ud SUB\n");
    }
    if p.gen_x10() >= 80 {
        t.push_str(
            "(f0.0) goto (8|M0) J0 J0\nmov (8|M0) r5.0<1>:ud 0x1:ud\nJ0:\njoin (8|M0) END\n",
        );
    }
    // jmpi (IGA: an offset from itself) over SUB to the end.
    t.push_str("(W) jmpi (1|M0) 32\nSUB:\nret (8|M0) r10.0<2;2,1>:ud\nEND:\n");
    t
}

fn bytes(p: Platform, insns: &[Insn]) -> Vec<u8> {
    Image::from_insns(p, insns, 0)
        .expect("encodes")
        .bytes()
        .to_vec()
}

/// Decode a native image back to instructions.
fn decode_all(p: Platform, b: &[u8]) -> Vec<Insn> {
    b.chunks(16)
        .map(|c| codec::decode(c, p).expect("decodes").0)
        .collect()
}

const ALL: [Platform; 6] = [
    Platform::Ivb,
    Platform::Hsw,
    Platform::Bdw,
    Platform::Chv,
    Platform::Skl,
    Platform::Bxt,
];

/// In each syntax: the printed program names labels for the call, calla, goto and join
/// targets, and parses back to the same bytes; printing is stable.
#[test]
fn branch_labels_round_trip_in_every_syntax() {
    for p in ALL {
        let src = program(p);
        let prog = asm::parse(src.as_bytes(), Some(Dialect::Iga), p)
            .unwrap_or_else(|e| panic!("{p:?} {}:{}: {}", e.line, e.col, e.msg));
        let b0 = bytes(p, &prog.insns);
        // The call's target: SUB is the last-but-one instruction.
        let n = prog.insns.len();
        let sub = 16 * (n as i32 - 1);
        assert_eq!(prog.insns[0].jip, Some(sub), "{p:?}: call is relative");
        if p != Platform::Ivb {
            // calla at 16: its field is SUB's address.
            assert_eq!(prog.insns[1].jip, Some(sub), "{p:?}: calla is absolute");
        }
        for d in [Dialect::Iga, Dialect::Prm, Dialect::Mesa] {
            let o = PrintOptions {
                dialect: d,
                platform: p,
            };
            let text = asm::print_program(&decode_all(p, &b0), &o);
            let labels = text.lines().filter(|l| l.ends_with(':')).count();
            // SUB; J0 and END (the join's target) with goto; in IGA syntax END is also the
            // jmpi's target (labelled there only).
            let want = match (p.gen_x10() >= 80, d) {
                (true, _) => 3,
                (false, Dialect::Iga) => 2,
                (false, _) => 1,
            };
            assert_eq!(labels, want, "{p:?} {d:?}:\n{text}");
            // The mnemonic of a line: its first word not in parentheses, before any `(`
            // (Mesa writes `call(8)`).
            let mnemonic = |l: &str| {
                l.split_whitespace()
                    .find(|w| !w.starts_with('('))
                    .and_then(|w| w.split('(').next())
                    .unwrap_or("")
                    .to_string()
            };
            let label_of = |op: &str| {
                let line = text.lines().find(|l| mnemonic(l) == op)?;
                let w = line.split_whitespace().find(|w| w.starts_with("LABEL"));
                Some(w.unwrap_or_else(|| panic!("{p:?} {d:?}: no label in {line}")))
            };
            for op in ["call", "calla", "goto", "join"] {
                let has = text.lines().any(|l| mnemonic(l) == op);
                assert_eq!(has, label_of(op).is_some(), "{p:?} {d:?} {op}");
            }
            // call and calla name the same label, SUB (calla's field is its address).
            if p != Platform::Ivb {
                assert_eq!(label_of("call"), label_of("calla"), "{p:?} {d:?}:\n{text}");
            }
            let back = asm::parse(text.as_bytes(), Some(d), p)
                .unwrap_or_else(|e| panic!("{p:?} {d:?} {}:{}: {}\n{text}", e.line, e.col, e.msg));
            assert_eq!(bytes(p, &back.insns), b0, "{p:?} {d:?}:\n{text}");
            let again = asm::print_program(&back.insns, &o);
            assert_eq!(again, text, "{p:?} {d:?}");
        }
    }
}
