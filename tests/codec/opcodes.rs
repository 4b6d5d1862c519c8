//! spec/opcodes.toml against independent expectations and against Mesa's assembler corpus.
//!
//! - `expectations`: every `opcode.*` row, restated here as data (numbers, platforms, source
//!   counts, classes, controls), compared field by field with the generated `Opcode::info()`.
//! - `type_combinations`: allowed and forbidden `dst <- srcs` type combinations.
//! - `round_trips`, `numbers_by_platform`: the generated lookup functions.
//! - `mesa_corpus_opcode_numbers`: every instruction of the Mesa assembler tests
//!   (shared/corpus/mesa/asm/{gen7,gen7.5,gen8,gen9}) must carry, in bits 6:0 of its first byte,
//!   the number the spec gives its mnemonic on that generation (ivb, hsw, bdw, skl).

use euref::spec::{DataType, OpClass, Opcode, Platform};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use Platform::{Bdw, Bxt, Chv, Hsw, Ivb, Skl};

const ALL: &[Platform] = &[Ivb, Hsw, Bdw, Chv, Skl, Bxt];
const GEN7: &[Platform] = &[Ivb, Hsw];
const HSW: &[Platform] = &[Hsw];
const HSW_UP: &[Platform] = &[Hsw, Bdw, Chv, Skl, Bxt];
const GEN8_UP: &[Platform] = &[Bdw, Chv, Skl, Bxt];
const GEN9: &[Platform] = &[Skl, Bxt];

use OpClass::{Alu, Flow, Logic, Math, Misc, Send, ThreeSrc};

use crate::codec_util;

/// (id, platforms, number, sources, class, controls). Controls is five characters, one per
/// flag in the order pred cmod sat srcmod accwr: the letter `p c s m a` when supported, `-`
/// when not. Sources: IGA's Gen7.5/8/9 opcode specs and Mesa's brw_eu.c opcode_descs.
type Exp = (
    &'static str,
    &'static [Platform],
    u8,
    u8,
    OpClass,
    &'static str,
);

#[rustfmt::skip]
const EXPECTED: &[Exp] = &[
    ("opcode.illegal",  ALL,     0x00, 0, Misc,     "-----"),
    ("opcode.mov",      ALL,     0x01, 1, Alu,      "pcsma"),
    ("opcode.sel",      ALL,     0x02, 2, Alu,      "pcsma"),
    ("opcode.movi",     ALL,     0x03, 1, Alu,      "p-sma"),
    ("opcode.not",      ALL,     0x04, 1, Logic,    "pc-ma"),
    ("opcode.and",      ALL,     0x05, 2, Logic,    "pc-ma"),
    ("opcode.or",       ALL,     0x06, 2, Logic,    "pc-ma"),
    ("opcode.xor",      ALL,     0x07, 2, Logic,    "pc-ma"),
    ("opcode.shr",      ALL,     0x08, 2, Alu,      "pcsma"),
    ("opcode.shl",      ALL,     0x09, 2, Alu,      "pcsma"),
    ("opcode.dim",      HSW,     0x0a, 1, Alu,      "pcs-a"),
    ("opcode.smov",     GEN8_UP, 0x0a, 2, Alu,      "p---a"),
    ("opcode.asr",      ALL,     0x0c, 2, Alu,      "pcsma"),
    ("opcode.cmp",      ALL,     0x10, 2, Alu,      "pc-ma"),
    ("opcode.cmpn",     ALL,     0x11, 2, Alu,      "pc-ma"),
    ("opcode.csel",     GEN8_UP, 0x12, 3, ThreeSrc, "-csma"),
    ("opcode.f32to16",  GEN7,    0x13, 1, Alu,      "pcsma"),
    ("opcode.f16to32",  GEN7,    0x14, 1, Alu,      "pcsma"),
    ("opcode.bfrev",    ALL,     0x17, 1, Alu,      "p---a"),
    ("opcode.bfe",      ALL,     0x18, 3, ThreeSrc, "p---a"),
    ("opcode.bfi1",     ALL,     0x19, 2, Alu,      "p---a"),
    ("opcode.bfi2",     ALL,     0x1a, 3, ThreeSrc, "p---a"),
    ("opcode.jmpi",     ALL,     0x20, 0, Flow,     "p----"),
    ("opcode.brd",      ALL,     0x21, 0, Flow,     "p----"),
    ("opcode.if",       ALL,     0x22, 0, Flow,     "p----"),
    ("opcode.brc",      ALL,     0x23, 0, Flow,     "p----"),
    ("opcode.else",     ALL,     0x24, 0, Flow,     "-----"),
    ("opcode.endif",    ALL,     0x25, 0, Flow,     "-----"),
    ("opcode.while",    ALL,     0x27, 0, Flow,     "p----"),
    ("opcode.break",    ALL,     0x28, 0, Flow,     "p----"),
    ("opcode.cont",     ALL,     0x29, 0, Flow,     "p----"),
    ("opcode.halt",     ALL,     0x2a, 0, Flow,     "p----"),
    ("opcode.calla",    HSW_UP,  0x2b, 0, Flow,     "p----"),
    ("opcode.call",     ALL,     0x2c, 0, Flow,     "p----"),
    ("opcode.ret",      ALL,     0x2d, 0, Flow,     "p----"),
    ("opcode.goto",     GEN8_UP, 0x2e, 0, Flow,     "p----"),
    ("opcode.join",     GEN8_UP, 0x2f, 0, Flow,     "p----"),
    ("opcode.wait",     ALL,     0x30, 1, Misc,     "----a"),
    ("opcode.send",     ALL,     0x31, 1, Send,     "p----"),
    ("opcode.sendc",    ALL,     0x32, 1, Send,     "p----"),
    ("opcode.sends",    GEN9,    0x33, 2, Send,     "p----"),
    ("opcode.sendsc",   GEN9,    0x34, 2, Send,     "p----"),
    ("opcode.math",     ALL,     0x38, 2, Math,     "p-sma"),
    ("opcode.add",      ALL,     0x40, 2, Alu,      "pcsma"),
    ("opcode.mul",      ALL,     0x41, 2, Alu,      "pcsma"),
    ("opcode.avg",      ALL,     0x42, 2, Alu,      "pcsma"),
    ("opcode.frc",      ALL,     0x43, 1, Alu,      "pcsma"),
    ("opcode.rndu",     ALL,     0x44, 1, Alu,      "pcsma"),
    ("opcode.rndd",     ALL,     0x45, 1, Alu,      "pcsma"),
    ("opcode.rnde",     ALL,     0x46, 1, Alu,      "pcsma"),
    ("opcode.rndz",     ALL,     0x47, 1, Alu,      "pcsma"),
    ("opcode.mac",      ALL,     0x48, 2, Alu,      "pcsma"),
    ("opcode.mach",     ALL,     0x49, 2, Alu,      "p-sma"),
    ("opcode.lzd",      ALL,     0x4a, 1, Alu,      "pcsma"),
    ("opcode.fbh",      ALL,     0x4b, 1, Alu,      "p---a"),
    ("opcode.fbl",      ALL,     0x4c, 1, Alu,      "p---a"),
    ("opcode.cbit",     ALL,     0x4d, 1, Alu,      "p---a"),
    ("opcode.addc",     ALL,     0x4e, 2, Alu,      "pc--a"),
    ("opcode.subb",     ALL,     0x4f, 2, Alu,      "pcs-a"),
    ("opcode.sad2",     ALL,     0x50, 2, Alu,      "pcsma"),
    ("opcode.sada2",    ALL,     0x51, 2, Alu,      "pcsma"),
    ("opcode.dp4",      ALL,     0x54, 2, Alu,      "pcsma"),
    ("opcode.dph",      ALL,     0x55, 2, Alu,      "pcsma"),
    ("opcode.dp3",      ALL,     0x56, 2, Alu,      "pcsma"),
    ("opcode.dp2",      ALL,     0x57, 2, Alu,      "pcsma"),
    ("opcode.line",     ALL,     0x59, 2, Alu,      "pcsma"),
    ("opcode.pln",      ALL,     0x5a, 2, Alu,      "pcs-a"),
    ("opcode.mad",      ALL,     0x5b, 3, ThreeSrc, "pcsma"),
    ("opcode.lrp",      ALL,     0x5c, 3, ThreeSrc, "pcsma"),
    ("opcode.madm",     GEN8_UP, 0x5d, 3, ThreeSrc, "pcsma"),
    ("opcode.nop",      ALL,     0x7e, 0, Misc,     "-----"),
];

fn mnemonic_of(id: &str) -> &str {
    id.strip_prefix("opcode.")
        .expect("opcode ids start with `opcode.`")
}

fn op(id: &str) -> Opcode {
    Opcode::from_name(mnemonic_of(id)).unwrap_or_else(|| panic!("{id}: no such opcode in the spec"))
}

#[test]
fn expectations() {
    let mut problems = vec![];
    for &(id, on, number, srcs, class, controls) in EXPECTED {
        let Some(o) = Opcode::from_name(mnemonic_of(id)) else {
            problems.push(format!("{id}: missing from spec/opcodes.toml"));
            continue;
        };
        let i = o.info();
        let mut check = |what: &str, ok: bool, got: String, want: String| {
            if !ok {
                problems.push(format!("{id}: {what} is {got}, expected {want}"));
            }
        };
        check("id", i.id == id, i.id.to_string(), id.to_string());
        check("srcs", i.srcs == srcs, i.srcs.to_string(), srcs.to_string());
        check(
            "class",
            i.class == class,
            format!("{:?}", i.class),
            format!("{class:?}"),
        );
        let flags = [
            ('p', i.pred),
            ('c', i.cmod),
            ('s', i.sat),
            ('m', i.srcmod),
            ('a', i.accwr),
        ];
        let got: String = flags
            .iter()
            .map(|&(c, b)| if b { c } else { '-' })
            .collect();
        check(
            "controls (pred cmod sat srcmod accwr)",
            got == controls,
            got.clone(),
            controls.to_string(),
        );
        for p in Platform::ALL {
            let want_on = on.contains(&p);
            check(
                &format!("presence on {}", p.name()),
                o.on(p) == want_on && i.gens.contains(p) == want_on,
                o.on(p).to_string(),
                want_on.to_string(),
            );
            let want_n = want_on.then_some(number);
            check(
                &format!("number on {}", p.name()),
                o.number(p) == want_n,
                format!("{:?}", o.number(p)),
                format!("{want_n:?}"),
            );
        }
        check(
            "text",
            !i.text.trim().is_empty(),
            "empty".into(),
            "a description".into(),
        );
        check(
            "cite",
            !i.cite.trim().is_empty(),
            "empty".into(),
            "a citation".into(),
        );
    }
    // Both directions: nothing in the spec that this table does not name.
    let named: BTreeSet<&str> = EXPECTED.iter().map(|e| e.0).collect();
    assert_eq!(named.len(), EXPECTED.len(), "duplicate id in EXPECTED");
    for o in Opcode::ALL {
        if !named.contains(o.info().id) {
            problems.push(format!(
                "{}: in the spec but not in this test's table",
                o.info().id
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "opcode expectations failed:\n  {}",
        problems.join("\n  ")
    );
}

#[test]
fn structural_invariants() {
    for o in Opcode::ALL {
        let i = o.info();
        assert_eq!(i.name, o.name());
        assert_eq!(
            i.id,
            format!("opcode.{}", i.name),
            "id and mnemonic disagree"
        );
        assert_eq!(
            i.class == ThreeSrc,
            i.srcs == 3,
            "{}: three-src class iff 3 sources",
            i.id
        );
        if matches!(i.class, Flow | Send) {
            assert!(
                !i.accwr && !i.sat && !i.cmod && !i.srcmod,
                "{}: flow/send take no data controls",
                i.id
            );
        }
        if matches!(i.class, Flow | Send) || i.srcs == 0 {
            assert!(
                i.types.is_empty(),
                "{}: no type combinations expected",
                i.id
            );
        } else {
            assert!(
                !i.types.is_empty(),
                "{}: a data instruction needs type combinations",
                i.id
            );
        }
        for c in i.types {
            assert!(!c.dst.is_empty(), "{}: empty destination set", i.id);
            for (k, s) in c.srcs.iter().enumerate() {
                assert_eq!(
                    s.is_empty(),
                    k >= i.srcs as usize,
                    "{}: source {k} set",
                    i.id
                );
            }
        }
        for p in Platform::ALL {
            assert_eq!(
                o.on(p),
                o.number(p).is_some(),
                "{}: number iff present on {}",
                i.id,
                p.name()
            );
        }
    }
}

/// `"DST <- SRC0 SRC1"` with plain type names.
fn allows(o: Opcode, combo: &str) -> bool {
    let (d, s) = combo.split_once("<-").expect("DST <- SRCS");
    let ty = |n: &str| DataType::from_name(n).unwrap_or_else(|| panic!("bad type {n}"));
    let dst = ty(d.trim());
    let srcs: Vec<DataType> = s.split_whitespace().map(ty).collect();
    assert_eq!(
        srcs.len(),
        o.info().srcs as usize,
        "{}: `{combo}` has the wrong source count",
        o.name()
    );
    o.info().types.iter().any(|c| {
        c.dst.contains(dst) && srcs.iter().enumerate().all(|(k, t)| c.srcs[k].contains(*t))
    })
}

#[rustfmt::skip]
const TYPE_CASES: &[(&str, &str, bool)] = &[
    // addc/subb: UD only (IGA ModelGen*.hpp ADDC/SUBB).
    ("opcode.addc", "UD <- UD UD", true),
    ("opcode.addc", "D <- D D", false),
    ("opcode.addc", "UD <- UD D", false),
    ("opcode.subb", "UD <- UD UD", true),
    ("opcode.subb", "UW <- UW UW", false),
    // bit-field instructions: D/UD.
    ("opcode.bfe", "UD <- UD UD UD", true),
    ("opcode.bfe", "D <- D D D", true),
    ("opcode.bfe", "W <- W W W", false),
    ("opcode.bfe", "F <- F F F", false),
    ("opcode.bfi1", "UD <- D D", true),
    ("opcode.bfi1", "UW <- UW UW", false),
    ("opcode.bfi2", "D <- D D D", true),
    ("opcode.bfi2", "F <- F F F", false),
    ("opcode.bfrev", "UD <- UD", true),
    ("opcode.bfrev", "F <- F", false),
    ("opcode.cbit", "UD <- UD", true),
    ("opcode.cbit", "UD <- UW", true),
    ("opcode.cbit", "F <- F", false),
    ("opcode.fbh", "UD <- D", true),
    ("opcode.fbh", "D <- D", true),
    ("opcode.fbl", "UD <- UD", true),
    ("opcode.fbl", "F <- F", false),
    ("opcode.lzd", "UD <- D", true),
    ("opcode.lzd", "UD <- UD", true),
    ("opcode.lzd", "F <- F", false),
    // three-source float.
    ("opcode.mad", "F <- F F F", true),
    ("opcode.mad", "DF <- DF DF DF", true),
    ("opcode.mad", "HF <- HF HF HF", true),
    ("opcode.mad", "D <- D D D", false),
    ("opcode.mad", "DF <- F F F", false),
    ("opcode.lrp", "F <- F F F", true),
    ("opcode.lrp", "DF <- DF DF DF", false),
    ("opcode.lrp", "HF <- HF HF HF", false),
    ("opcode.madm", "DF <- DF DF DF", true),
    ("opcode.madm", "F <- F F F", true),
    ("opcode.csel", "F <- F F F", true),
    ("opcode.csel", "D <- D D D", false),
    // math: float functions and integer division.
    ("opcode.math", "F <- F F", true),
    ("opcode.math", "HF <- HF HF", true),
    ("opcode.math", "D <- D D", true),
    ("opcode.math", "UD <- UD UD", true),
    ("opcode.math", "DF <- DF DF", false),
    ("opcode.math", "W <- W W", false),
    // mov converts between any scalar types except the PRM's excluded pairs.
    ("opcode.mov", "F <- D", true),
    ("opcode.mov", "D <- F", true),
    ("opcode.mov", "UB <- UB", true),
    ("opcode.mov", "DF <- D", true),
    ("opcode.mov", "F <- DF", true),
    ("opcode.mov", "UQ <- Q", true),
    ("opcode.mov", "Q <- DF", true),
    ("opcode.mov", "HF <- F", true),
    ("opcode.mov", "UB <- HF", true),
    ("opcode.mov", "W <- V", true),
    ("opcode.mov", "UW <- UV", true),
    ("opcode.mov", "F <- VF", true),
    ("opcode.mov", "DF <- B", false),
    ("opcode.mov", "UB <- DF", false),
    ("opcode.mov", "Q <- UB", false),
    ("opcode.mov", "B <- UQ", false),
    ("opcode.mov", "HF <- DF", false),
    ("opcode.mov", "DF <- HF", false),
    ("opcode.mov", "HF <- Q", false),
    ("opcode.mov", "UQ <- HF", false),
    // two-source arithmetic.
    ("opcode.add", "F <- F F", true),
    ("opcode.add", "F <- F VF", true),
    ("opcode.add", "UW <- UW V", true),
    ("opcode.add", "F <- D D", true),
    ("opcode.add", "DF <- DF DF", true),
    ("opcode.add", "Q <- Q Q", true),
    ("opcode.add", "HF <- HF F", true),
    ("opcode.add", "DF <- F F", false),
    ("opcode.add", "UB <- DF DF", false),
    ("opcode.mul", "D <- D UW", true),
    ("opcode.mul", "UQ <- UD UD", true),
    ("opcode.mul", "DF <- DF DF", true),
    ("opcode.mul", "Q <- Q Q", false),
    ("opcode.avg", "UW <- UW UW", true),
    ("opcode.avg", "F <- F F", false),
    ("opcode.mac", "D <- W W", true),
    ("opcode.mac", "F <- F F", true),
    ("opcode.mach", "UD <- UD UD", true),
    ("opcode.mach", "F <- F F", false),
    ("opcode.sad2", "UW <- UB UB", true),
    ("opcode.sada2", "W <- B B", true),
    ("opcode.sad2", "UD <- UD UD", false),
    ("opcode.sel", "F <- F F", true),
    ("opcode.sel", "UQ <- UQ UQ", true),
    ("opcode.sel", "DF <- DF DF", true),
    ("opcode.cmp", "F <- F F", true),
    ("opcode.cmp", "D <- F F", true),
    ("opcode.cmp", "DF <- DF DF", true),
    ("opcode.cmpn", "F <- F F", true),
    ("opcode.dp4", "F <- F F", true),
    ("opcode.dp4", "D <- D D", false),
    ("opcode.dph", "F <- F F", true),
    ("opcode.dp3", "F <- F F", true),
    ("opcode.dp2", "F <- F F", true),
    ("opcode.line", "F <- F F", true),
    ("opcode.pln", "F <- F F", true),
    ("opcode.pln", "DF <- DF DF", false),
    // logic and shifts: integers only.
    ("opcode.and", "UD <- UD UD", true),
    ("opcode.and", "F <- F F", false),
    ("opcode.or", "UB <- UB UB", true),
    ("opcode.xor", "UQ <- UQ UQ", true),
    ("opcode.not", "D <- D", true),
    ("opcode.not", "F <- F", false),
    ("opcode.shl", "Q <- Q UD", true),
    ("opcode.shr", "UD <- UD D", true),
    ("opcode.asr", "D <- W D", true),
    ("opcode.asr", "F <- F F", false),
    // unary float.
    ("opcode.frc", "F <- F", true),
    ("opcode.rndd", "F <- F", true),
    ("opcode.rndd", "D <- D", false),
    ("opcode.rndu", "F <- F", true),
    ("opcode.rnde", "F <- F", true),
    ("opcode.rndz", "F <- F", true),
    // Gen7-family special moves.
    ("opcode.f32to16", "W <- F", true),
    ("opcode.f32to16", "F <- F", false),
    ("opcode.f16to32", "F <- UW", true),
    ("opcode.f16to32", "HF <- UW", false),
    ("opcode.dim", "DF <- F", true),
    ("opcode.movi", "UD <- UD", true),
    ("opcode.movi", "F <- D", false),
    ("opcode.smov", "UD <- UD UD", true),
    ("opcode.wait", "UD <- UD", true),
];

#[test]
fn type_combinations() {
    let bad: Vec<String> = TYPE_CASES
        .iter()
        .filter(|&&(id, combo, want)| allows(op(id), combo) != want)
        .map(|&(id, combo, want)| {
            format!(
                "{id}: `{combo}` should be {}",
                if want { "allowed" } else { "rejected" }
            )
        })
        .collect();
    assert!(bad.is_empty(), "type combinations:\n  {}", bad.join("\n  "));
}

#[test]
fn numbers_by_platform() {
    use Opcode as O;
    let cases: &[(Platform, u8, Option<Opcode>)] = &[
        (Skl, 0x40, Some(O::Add)),
        (Ivb, 0x40, Some(O::Add)),
        (Ivb, 0x01, Some(O::Mov)),
        (Bxt, 0x5b, Some(O::Mad)),
        (Ivb, 0x13, Some(O::F32to16)),
        (Hsw, 0x14, Some(O::F16to32)),
        (Bdw, 0x13, None),
        (Skl, 0x14, None),
        (Hsw, 0x0a, Some(O::Dim)),
        (Ivb, 0x0a, None),
        (Bdw, 0x0a, Some(O::Smov)),
        (Chv, 0x0a, Some(O::Smov)),
        (Ivb, 0x2b, None),
        (Hsw, 0x2b, Some(O::Calla)),
        (Hsw, 0x12, None),
        (Bdw, 0x12, Some(O::Csel)),
        (Hsw, 0x5d, None),
        (Chv, 0x5d, Some(O::Madm)),
        (Bdw, 0x2e, Some(O::Goto)),
        (Bdw, 0x2f, Some(O::Join)),
        (Hsw, 0x2e, None),
        (Bdw, 0x33, None),
        (Skl, 0x33, Some(O::Sends)),
        (Bxt, 0x34, Some(O::Sendsc)),
        (Skl, 0x38, Some(O::Math)),
        (Skl, 0x7e, Some(O::Nop)),
        (Skl, 0x00, Some(O::Illegal)),
        (Skl, 0x26, None), // do: pre-Gen6 only
        (Skl, 0x7f, None),
        (Skl, 0x80, None), // does not fit 7 bits
    ];
    for &(p, n, want) in cases {
        assert_eq!(
            Opcode::from_number(p, n),
            want,
            "from_number({}, {n:#x})",
            p.name()
        );
    }
}

#[test]
fn round_trips() {
    for o in Opcode::ALL {
        let name = o.name();
        assert_eq!(Opcode::from_name(name), Some(o), "from_name({name})");
        assert_eq!(
            Opcode::from_name(&name.to_uppercase()),
            Some(o),
            "from_name is case-insensitive"
        );
        for p in Platform::ALL {
            if let Some(n) = o.number(p) {
                assert!(o.on(p));
                assert_eq!(Opcode::from_number(p, n), Some(o), "{name} on {}", p.name());
            }
        }
    }
    assert_eq!(Opcode::from_name("do"), None);
    assert_eq!(Opcode::from_name(""), None);
    // No two opcodes share a number on one platform.
    for p in Platform::ALL {
        let mut seen = BTreeSet::new();
        for o in Opcode::ALL {
            if let Some(n) = o.number(p) {
                assert!(seen.insert(n), "{:#x} used twice on {}", n, p.name());
            }
        }
    }
}

// ------------------------------------------------------------------ Mesa assembler corpus

fn is_label(line: &str) -> bool {
    line.strip_suffix(':')
        .is_some_and(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
}

/// Statements of a Mesa `.asm` file with the line each starts on; a statement ends with `;`
/// (a send's second line, which carries the options, continues the first).
fn statements(text: &str) -> Vec<(usize, String)> {
    let mut out = vec![];
    let mut cur = String::new();
    let mut start = 0;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || (cur.is_empty() && is_label(t)) {
            continue;
        }
        if cur.is_empty() {
            start = i + 1;
        } else {
            cur.push(' ');
        }
        cur.push_str(t);
        if t.ends_with(';') {
            out.push((start, std::mem::take(&mut cur)));
        }
    }
    assert!(
        cur.is_empty(),
        "unterminated statement at line {start}: {cur}"
    );
    out
}

/// The mnemonic: after an optional `(pred)`, the leading run of letters and digits
/// (`cmp.ge.f0.0(8)` -> cmp, `math inv(8)` -> math, `nop ;` -> nop).
fn mnemonic(stmt: &str) -> &str {
    let mut s = stmt.trim_start();
    if s.starts_with('(') {
        let end = s.find(')').expect("closing parenthesis of the predicate");
        s = s[end + 1..].trim_start();
    }
    let end = s
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(s.len());
    &s[..end]
}

/// (file, mnemonic, platform, encoded number, spec number).
type MismatchKey = (String, String, &'static str, u8, String);

#[test]
fn mesa_corpus_opcode_numbers() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let asm = codec_util::mesa_asm_dir();
    let gens = [("gen7", Ivb), ("gen7.5", Hsw), ("gen8", Bdw), ("gen9", Skl)];
    // (file, mnemonic, platform, encoded, spec) -> (first line, count)
    let mut mismatches: BTreeMap<MismatchKey, (usize, usize)> = BTreeMap::new();
    let mut checked = 0usize;
    let mut mnemonics_seen = BTreeSet::new();
    for (dir, p) in gens {
        let mut files: Vec<PathBuf> = std::fs::read_dir(asm.join(dir))
            .unwrap_or_else(|e| panic!("{}: {e}", asm.join(dir).display()))
            .map(|e| e.unwrap().path())
            .filter(|f| f.extension().is_some_and(|x| x == "asm"))
            .collect();
        files.sort();
        assert!(!files.is_empty(), "no .asm files in {dir}");
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            let expected = std::fs::read_to_string(f.with_extension("expected")).unwrap();
            let encoded: Vec<&str> = expected.lines().filter(|l| !l.trim().is_empty()).collect();
            let stmts = statements(&text);
            let fname = format!("{dir}/{}", f.file_name().unwrap().to_string_lossy());
            assert_eq!(
                stmts.len(),
                encoded.len(),
                "{fname}: statements vs encoded instructions"
            );
            for ((line, stmt), hex) in stmts.iter().zip(&encoded) {
                let bytes: Vec<u8> = hex
                    .split_whitespace()
                    .map(|b| {
                        u8::from_str_radix(b, 16)
                            .unwrap_or_else(|e| panic!("{fname}: bad hex `{b}`: {e}"))
                    })
                    .collect();
                assert_eq!(
                    bytes.len(),
                    16,
                    "{fname}: an encoded instruction is 16 bytes"
                );
                let got = bytes[0] & 0x7f;
                let mn = mnemonic(stmt);
                mnemonics_seen.insert(mn.to_string());
                let want = Opcode::from_name(mn).and_then(|o| o.number(p));
                checked += 1;
                if want != Some(got) {
                    let want = want.map_or("-".to_string(), |n| format!("{n:#04x}"));
                    let e = mismatches
                        .entry((fname.clone(), mn.to_string(), p.name(), got, want))
                        .or_insert((*line, 0));
                    e.1 += 1;
                }
            }
        }
    }
    assert!(
        checked > 5000,
        "only {checked} instructions parsed: corpus parsing is broken"
    );
    let total: usize = mismatches.values().map(|v| v.1).sum();
    let table: Vec<String> = mismatches
        .iter()
        .map(|((f, mn, p, got, want), (line, n))| {
            format!("| {f}:{line} | {mn} | {p} | {got:#04x} | {want} | {n} |")
        })
        .collect();
    assert!(
        mismatches.is_empty(),
        "{total} of {checked} corpus instructions disagree with spec/opcodes.toml:\n\
         | first file:line | mnemonic | platform | encoded | spec | count |\n|---|---|---|---|---|---|\n{}",
        table.join("\n")
    );
    // The corpus exercises a good part of the table.
    for m in [
        "add", "mov", "mad", "send", "sends", "csel", "dim", "f32to16", "if", "while", "nop",
    ] {
        assert!(mnemonics_seen.contains(m), "corpus lost `{m}`");
    }
}
