//! Instruction-level rule cases (tests/fixtures/validate_cases.toml): each instruction, written
//! as IGA assembly, is parsed and validated with `euref::validate::check_insn`, and the rule
//! IDs named must be exactly the expected ones. Cases come in pairs: one violating only the
//! rule, one close neighbour that is valid.

use euref::asm::{self, Dialect};
use euref::gen::parse_gen;
use euref::validate::check_insn;
use serde::Deserialize;
use std::collections::BTreeSet;

#[derive(Deserialize)]
struct Case {
    text: String,
    gen: String,
    parse_gen: Option<String>,
    expect: Vec<String>,
}

#[derive(Deserialize)]
struct Cases {
    case: Vec<Case>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("../fixtures/validate_cases.toml");
    toml::from_str::<Cases>(text).unwrap().case
}

#[test]
fn every_case_names_exactly_the_expected_rules() {
    let mut failures = vec![];
    for c in cases() {
        let pl = parse_gen(&c.gen).unwrap();
        let parse_pl = parse_gen(c.parse_gen.as_deref().unwrap_or(&c.gen)).unwrap();
        let insn = match asm::parse_insn(&c.text, Dialect::Iga, parse_pl) {
            Ok(i) => i,
            Err(e) => {
                failures.push(format!("{} [{}]: does not parse: {e}", c.text, c.gen));
                continue;
            }
        };
        let got: Vec<&str> = check_insn(pl, &insn).iter().map(|v| v.rule.id).collect();
        if got != c.expect {
            failures.push(format!(
                "{} [{}]: expected {:?}, got {got:?}",
                c.text, c.gen, c.expect
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn cases_cover_every_rule_file_and_have_valid_neighbours() {
    let ids: BTreeSet<String> = cases().into_iter().flat_map(|c| c.expect).collect();
    let valid = cases().iter().filter(|c| c.expect.is_empty()).count();
    assert!(valid >= 40, "only {valid} valid neighbours");
    // Every rule file (its ID prefix) has cases.
    for prefix in [
        "acc.",
        "align.",
        "arf.",
        "region.",
        "imm.",
        "indirect.",
        "mixed.",
        "op.",
        "qword.",
        "special.",
    ] {
        assert!(
            ids.iter().filter(|i| i.starts_with(prefix)).count() >= 2,
            "few cases for {prefix}"
        );
    }
    // Every expected ID is a rule of the spec.
    for id in &ids {
        assert!(
            euref::spec::rules::RULES.iter().any(|r| r.id == id),
            "{id} is no rule"
        );
    }
}

/// Rules whose violation the assembler refuses to write (subregisters are written in elements,
/// immediates are replicated, region values are checked) but a decoded or hand-built
/// instruction can hold: a valid instruction is parsed, one field is changed, and exactly the
/// rule must be named; the unchanged instruction is valid.
#[test]
fn model_level_cases() {
    use euref::isa::{Addr, Insn, Src};
    use euref::spec::{DataType, Platform};
    let skl = Platform::Skl;
    let parse = |t: &str| asm::parse_insn(t, Dialect::Iga, skl).unwrap();
    let ids =
        |i: &Insn| -> Vec<&'static str> { check_insn(skl, i).iter().map(|v| v.rule.id).collect() };
    type Edit = fn(&mut Insn);
    let cases: &[(&str, Edit, &str)] = &[
        (
            "mov (4|M0) r2.0<1>:f r4.0<4;4,1>:f",
            |i| {
                if let Some(Src::Reg(r)) = &mut i.src[0] {
                    r.addr = Addr::Direct {
                        reg: euref::isa::Reg::Grf(4),
                        sub: 2,
                    };
                }
            },
            "align.src-natural",
        ),
        (
            "mov (4|M0) r2.0<1>:f r4.0<4;4,1>:f",
            |i| {
                if let Some(d) = &mut i.dst {
                    d.addr = Addr::Direct {
                        reg: euref::isa::Reg::Grf(2),
                        sub: 2,
                    };
                }
            },
            "align.dst-natural",
        ),
        (
            "mov (8|M0) r2.0<1>:w 0x1:w",
            |i| {
                if let Some(Src::Imm(m)) = &mut i.src[0] {
                    m.ty = DataType::B;
                }
            },
            "imm.no-byte",
        ),
        (
            "mov (8|M0) r2.0<1>:w 0x1:w",
            |i| {
                if let Some(Src::Imm(m)) = &mut i.src[0] {
                    m.bits = 0x0000_0001;
                }
            },
            "imm.word-replicated",
        ),
        (
            "mov (8|M0) r2.0<1>:f r4.0<0;1,0>:f",
            |i| i.exec_size = 3,
            "op.exec-size-legal",
        ),
        (
            "mov (2|M0) r2.0<1>:f r4.0<2;2,1>:f",
            |i| {
                if let Some(d) = &mut i.dst {
                    d.hstride = 3;
                }
            },
            "region.dst-hstride-legal",
        ),
    ];
    for (text, edit, id) in cases {
        let valid = parse(text);
        assert_eq!(ids(&valid), Vec::<&str>::new(), "{text}");
        let mut bad = valid.clone();
        edit(&mut bad);
        assert_eq!(ids(&bad), vec![*id], "{text} edited for {id}");
    }
}

/// `applicable_rules`: a rule applies when its `when` holds, whether or not it is violated; a
/// rule whose `when` fails does not apply, and neither do rules of other platforms.
#[test]
fn applicable_rules_follow_the_when_conditions() {
    let p = euref::spec::Platform::Skl;
    let ids = |text: &str| -> Vec<&'static str> {
        let insn = asm::parse_insn(text, Dialect::Iga, p).unwrap();
        euref::validate::applicable_rules(p, &insn)
            .iter()
            .map(|r| r.id)
            .collect()
    };
    // Packed byte destination, exec size > 1: the raw-move rule applies (and holds here).
    let raw = ids("mov (8|M0) r1.0<1>:b r2.0<8;8,1>:b");
    assert!(raw.contains(&"region.packed-byte-dst-raw-mov"), "{raw:?}");
    // ... also when it is violated (an add), but not with a strided byte destination.
    let add = ids("add (8|M0) r1.0<1>:b r2.0<8;8,1>:b r3.0<8;8,1>:b");
    assert!(add.contains(&"region.packed-byte-dst-raw-mov"), "{add:?}");
    let strided = ids("mov (8|M0) r1.0<2>:b r2.0<8;8,1>:b");
    assert!(
        !strided.contains(&"region.packed-byte-dst-raw-mov"),
        "{strided:?}"
    );
    // Dword destination: no byte rule; an Align1 instruction: no Align16 rule.
    let d = ids("mov (8|M0) r1.0<1>:d r2.0<8;8,1>:d");
    assert!(!d.contains(&"region.packed-byte-dst-raw-mov"), "{d:?}");
    assert!(!d.iter().any(|i| i.starts_with("region.align16")), "{d:?}");
    // A per-source rule applies through the sources present: src-max-two-regs for a GRF source.
    assert!(d.contains(&"align.src-max-two-regs"), "{d:?}");
    // Rules whose `when` needs execution state never apply to a lone instruction.
    assert!(!d.iter().any(|i| i.starts_with("runtime.")), "{d:?}");
    // Every applicable rule is a rule of this platform.
    assert!(d.iter().all(|i| euref::spec::rules::RULES
        .iter()
        .any(|r| r.id == *i && r.gens.contains(p))));
}
