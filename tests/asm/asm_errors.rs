//! Bad input gives a clear error with `line:column` and what was expected, never a panic.

use euref::asm::{self, AsmError, Dialect, PrintOptions};
use euref::spec::Platform;
use proptest::prelude::*;

fn err(src: &[u8], d: Option<Dialect>) -> AsmError {
    match asm::parse(src, d, Platform::Skl) {
        Ok(p) => panic!("`{}` parsed: {:?}", String::from_utf8_lossy(src), p.insns),
        Err(e) => e,
    }
}

/// `(line, col, a fragment of the message)`; mismatches are collected in `bad`.
fn check_in(bad: &mut Vec<String>, src: &str, d: Option<Dialect>, line: u32, col: u32, frag: &str) {
    let e = match asm::parse(src.as_bytes(), d, Platform::Skl) {
        Ok(_) => return bad.push(format!("`{src}` parsed")),
        Err(e) => e,
    };
    if (e.line, e.col) != (line, col) || !e.msg.contains(frag) {
        bad.push(format!("`{src}`: got {e}, want {line}:{col}: ...{frag}..."));
    }
}

macro_rules! checks {
    ($($src:expr, $d:expr, $line:expr, $col:expr, $frag:expr;)*) => {{
        let mut bad = Vec::new();
        $(check_in(&mut bad, $src, $d, $line, $col, $frag);)*
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }};
}

#[test]
fn unknown_mnemonic() {
    checks! {
        "mvo (8|M0) r1.0<1>:f r2.0<8;8,1>:f", None, 1, 1, "unknown mnemonic `mvo`";
        "add(8) g1<1>F g2<8,8,1>F g3<8,8,1>F { align1 1Q };\nfoo(8) g1<1>F { align1 };", None, 2, 1, "unknown mnemonic `foo`";
    }
    // Opcodes that the platform lacks.
    checks! {
        "dim(1) g4<1>DF 0x4018000000000000F { align1 1N };", Some(Dialect::Mesa), 1, 1, "does not exist on skl";
    }
}

#[test]
fn bad_region() {
    checks! {
        "mov (8|M0) r1.0<1>:f r2.0<8;3,1>:f", None, 1, 26, "bad region: width 3";
        "mov (8|M0) r1.0<1>:f r2.0<8;8,3>:f", None, 1, 26, "horizontal stride 3";
        "mov (8|M0) r1.0<1>:f r2.0<7;8,1>:f", None, 1, 26, "vertical stride 7";
        "mov (8|M0) r1.0<1>:f r2.0<8;8,1:f", None, 1, 32, "expected `;`, `,` or `>`";
        "mov (8|M0) r1.0<3>:f r2.0<8;8,1>:f", None, 1, 16, "bad destination stride <3>";
        "mov (8|M0) r1.0<8;8,1>:f r2.0<8;8,1>:f", None, 1, 16, "destination has only a horizontal stride";
        "mov (8|M0) r1.0<1>:f r2.0<8;8,1,1>:f", None, 1, 33, "`>` closing the region";
    }
}

#[test]
fn bad_type() {
    checks! {
        "mov (8|M0) r1.0<1>:xf r2.0<8;8,1>:f", None, 1, 19, "unknown data type `xf`";
        "mov (8|M0) r1.0<1> r2.0<8;8,1>:f", None, 1, 12, "missing data type";
        "mov (8|M0) r1.0<1>:f 0x1", None, 1, 22, "missing immediate type";
        "mov (8|M0) r1.0<1>:b 0x1:b", None, 1, 22, "B immediates do not exist";
        "mov (8|M0) r1.0<1>:w 0x123456789:w", None, 1, 22, "out of range for type W";
        "mov (8|M0) r1.0<1>:d 0x1FFFFFFFF:d", None, 1, 22, "out of range for type D";
    }
}

#[test]
fn missing_operand() {
    checks! {
        "add (8|M0) r1.0<1>:f r2.0<8;8,1>:f", None, 1, 35, "missing operand: `add` takes 2 sources, found 1";
        "mov (8|M0)", None, 1, 11, "expected a destination register";
        "mad(8) g1<1>F g2<4,4,1>F g3<4,4,1>F { align16 1Q };", Some(Dialect::Mesa), 1, 37, "`mad` takes 3 sources";
        "(+f0.0) if(8) { align1 1Q };", Some(Dialect::Mesa), 1, 15, "expected a jump target";
        "send(8) g1<1>UD g2<8,8,1>UD 0x02480028 { align1 1Q };", Some(Dialect::Mesa), 1, 40, "message description";
        "mov (8|M0) r1.0<1>:f r2.0<8;8,1>:f r3.0<8;8,1>:f", None, 1, 36, "`mov` takes 1 source";
    }
}

#[test]
fn other_errors() {
    checks! {
        "add (3|M0) r1.0<1>:f r2.0<8;8,1>:f r3.0<8;8,1>:f", None, 1, 6, "bad execution size 3";
        "add (8|M3) r1.0<1>:f r2.0<8;8,1>:f r3.0<8;8,1>:f", None, 1, 8, "bad channel offset M3";
        "(f2.0) add (8) r1.0<1>:f r2.0<8;8,1>:f r3.0<8;8,1>:f", None, 1, 3, "flag register number 2 is out of range";
        "add (8) r1.0<1>:f r2.0<8;8,1>:f r3.0<8;8,1>:f {Foo}", None, 1, 48, "unknown instruction option `Foo`";
        "(f0.1) add.nz.f0.0 (8) r1.0<1>:f r2.0<8;8,1>:f r3.0<8;8,1>:f", None, 1, 15, "one flag field serves both";
        "(+f0.0.x) add(8) g1<1>F g2<8,8,1>F g3<8,8,1>F { align1 1Q };", None, 1, 1, "needs Align16";
        "mov (8) r1.40<1>:f r2.0<8;8,1>:f", None, 1, 9, "beyond the 32-byte register";
        "mov (8) r1.0<1>:f r[a0.0, 600]<8;8,1>:f", None, 1, 27, "out of range (-512..511";
        "jmpi (1) LABEL", Some(Dialect::Prm), 1, 10, "undefined label `LABEL`";
        "(+f0.0) if(8) JIP: NOWHERE { align1 1Q };", Some(Dialect::Mesa), 1, 20, "undefined label `NOWHERE`";
        "L:\nL:\n", None, 2, 1, "defined twice";
        "send.urb (8) r1 r2 0x6 0x0 /* unterminated", Some(Dialect::Prm), 1, 28, "unterminated `/*` comment";
        "mov (8) r1.0<1>:f r2.0<8;8,1>:f ) garbage", None, 1, 33, "unexpected `)`";
        "add (8) r1.0<1>:f -5.0:f r3.0<8;8,1>:f {Q5}", None, 1, 41, "unknown instruction option `Q5`";
        "math.sat.nz (8) r1.0<1>:f r2.0<8;8,1>:f", None, 1, 10, "math has no condition modifier";
    }
    // Gen7 16-bit jump offsets.
    let e = asm::parse_insn("if (8) 40000 40000", Dialect::Prm, Platform::Ivb).unwrap_err();
    assert!(e.msg.contains("out of range for ivb"), "{e}");
    // A single instruction cannot use labels.
    let e = asm::parse_insn("if (8|M0) L1 L2", Dialect::Iga, Platform::Skl).unwrap_err();
    assert!(e.msg.contains("cannot be resolved"), "{e}");
}

#[test]
fn garbage_and_non_utf8() {
    checks! {
        "\u{1F600}", None, 1, 1, "expected an instruction mnemonic";
    }
    let e = err(b"mov (8|M0) r1.0<1>:\xff\xfe r2.0<8;8,1>:f", None);
    assert_eq!((e.line, e.col), (1, 20), "{e}");
    assert!(e.msg.contains("\\xff"), "{e}");
    let e = err(b"\n\n   \xc3\x28 add", None);
    assert_eq!((e.line, e.col), (3, 4), "{e}");
    checks! {
        "add (8) r1<1>:f r2<8;8,1>:f r3<8;8,1>:f\n!!!", None, 2, 1, "expected an instruction mnemonic";
        "add (8) r1<1>:f r2<8;8,1>:f 99999999999999999999999:f", None, 1, 29, "does not fit in 64 bits";
    }
}

#[test]
fn very_long_lines() {
    // A long line of operands is reported at its column, quickly, with a short message.
    let mut s = String::from("add (8) r1.0<1>:f r2.0<8;8,1>:f r3.0<8;8,1>:f");
    for _ in 0..100_000 {
        s.push_str(" r4.0<8;8,1>:f");
    }
    let e = err(s.as_bytes(), None);
    assert_eq!((e.line, e.col), (1, 47), "{e}");
    assert!(e.msg.len() < 200, "{}", e.msg);
    // A huge identifier and a huge number.
    let long = "x".repeat(1_000_000);
    let e = err(long.as_bytes(), None);
    assert!(
        e.msg.contains("unknown mnemonic") && e.msg.len() < 200,
        "{}",
        e.msg
    );
    let e = err(
        format!("mov (8) r1<1>:d {}:d", "9".repeat(1_000_000)).as_bytes(),
        None,
    );
    assert!(e.msg.contains("64 bits"), "{e}");
    // Many lines.
    let ok = "add (8|M0) r1.0<1>:f r2.0<8;8,1>:f r3.0<8;8,1>:f\n".repeat(50_000);
    assert_eq!(
        asm::parse(ok.as_bytes(), None, Platform::Skl)
            .unwrap()
            .insns
            .len(),
        50_000
    );
}

/// Text built from the assembler's own vocabulary, to reach deep into the grammar.
fn asm_like() -> impl Strategy<Value = String> {
    let tok = prop::sample::select(vec![
        "(",
        ")",
        "<",
        ">",
        ";",
        ",",
        ".",
        ":",
        "{",
        "}",
        "[",
        "]",
        "|",
        "-",
        "~",
        "+",
        "*",
        "(abs)",
        "(W)",
        "(W&",
        "(f0.0)",
        "(-f1.1.any4h)",
        "(sat)",
        "(eq)f0.0",
        "add",
        "mov",
        "mad",
        "math",
        "math.inv",
        "sends",
        "send",
        "if",
        "while",
        "jmpi",
        "nop",
        "cmp.nz.f0.0",
        "r1",
        "g2",
        "r3.4",
        "null",
        "acc0",
        "a0.1",
        "f0.1",
        "cr0",
        "ip",
        "r[a0.1, 8]",
        "g[a0 -16]",
        "arf0x50",
        "<8;8,1>",
        "<0,1,0>",
        "<4>",
        "<1>",
        "<VxH,1,0>",
        "<;4,1>",
        ".xyzw",
        ".x",
        ".r",
        ":f",
        ":ud",
        "UD",
        "F",
        "VF",
        "0x1F",
        "1",
        "-1",
        "1.5",
        "1e9",
        "0x",
        "99999999999999999999",
        "JIP:",
        "UIP:",
        "L1",
        "L1:",
        "MsgDesc:",
        "urb",
        "dp data 1",
        "{ align16 2Q }",
        "{ align1 1H EOT }",
        "{Compacted}",
        "{AccWrEn, Q2}",
        "(8|M8)",
        "(16)",
        "//",
        "/*",
        "*/",
        "\n",
        " ",
        "\t",
        "\u{e9}",
    ]);
    prop::collection::vec(tok, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings_never_panic(s in ".{0,200}") {
        for d in [None, Some(Dialect::Iga), Some(Dialect::Prm), Some(Dialect::Mesa)] {
            let _ = asm::parse(s.as_bytes(), d, Platform::Skl);
        }
        for d in Dialect::ALL {
            let _ = asm::parse_insn(&s, d, Platform::Ivb);
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(b in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = asm::parse(&b, None, Platform::Hsw);
        let _ = asm::parse(&b, Some(Dialect::Mesa), Platform::Hsw);
    }

    #[test]
    fn assembler_like_text_never_panics_and_roundtrips(s in asm_like()) {
        for d in Dialect::ALL {
            for p in [Platform::Ivb, Platform::Skl] {
                let Ok(prog) = asm::parse(s.as_bytes(), Some(d), p) else { continue };
                // Whatever parses prints and parses back equal, in every dialect.
                for out in Dialect::ALL {
                    let o = PrintOptions { dialect: out, platform: p };
                    let text = asm::print_program(&prog.insns, &o);
                    let back = asm::parse(text.as_bytes(), Some(out), p);
                    prop_assert!(back.is_ok(), "{s:?} as {d} printed as {out}: {text}\n{:?}", back.err());
                    prop_assert_eq!(&back.unwrap().insns, &prog.insns, "{:?} printed as {}: {}", s, out, text);
                }
            }
        }
    }
}

/// The shared function name of a Mesa message description is its words joined by single
/// spaces, however they are separated in the text (blanks, tabs, comments).
#[test]
fn message_description_name_words() {
    let send = |name: &str| {
        format!("send(8) g5<1>UD g2<8,8,1>UD 0x04035001\n    {name} MsgDesc: mlen 2 rlen 0 {{ align1 1Q }};")
    };
    for name in ["dp data 1", "dp  data\t1", "dp /* c */ data 1", "DP Data 1"] {
        let p = asm::parse(send(name).as_bytes(), Some(Dialect::Mesa), Platform::Skl)
            .unwrap_or_else(|e| panic!("`{name}`: {e}"));
        assert_eq!(p.insns[0].send.map(|s| s.sfid), Some(12), "`{name}`");
    }
    checks! {
        &send("dp data 2"), Some(Dialect::Mesa), 2, 5, "unknown shared function `dp data 2`";
        &send("dp\tdata  2"), Some(Dialect::Mesa), 2, 5, "unknown shared function `dp data 2`";
        &send("dp  data\t2 x"), Some(Dialect::Mesa), 2, 5, "unknown shared function `dp data 2 x`";
    }
}
