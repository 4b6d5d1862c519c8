//! Field checks from spec/encoding/checks.toml (`enc.check.*`): `encoding::check` refuses a
//! word whose checked field holds a value its table leaves undefined, naming the field, and
//! accepts the same word with a defined value. Region checks skip immediate sources.

use crate::encoding_util;

use encoding_util::{file, word};
use euref::encoding::{check, layout_for};
use euref::spec::encoding::select::CHECKS;
use euref::spec::{DataType, Opcode, Platform, Platform::*};

/// (row ID, platform, opcode, base fields, checked field, an undefined value).
type Case = (
    &'static str,
    Platform,
    Opcode,
    Vec<(&'static str, u64)>,
    &'static str,
    u64,
);

fn cases() -> Vec<Case> {
    let grf = |p| {
        vec![
            ("dst_reg_file", file(p, "grf")),
            ("src0_reg_file", file(p, "grf")),
            ("src1_reg_file", file(p, "grf")),
        ]
    };
    let send_imm = |p: Platform| {
        vec![
            ("src1_reg_file", file(p, "imm")),
            ("src1_reg_type", u64::from(DataType::UD.imm_enc(p).unwrap())),
        ]
    };
    let math = |p: Platform| {
        let mut v = grf(p);
        v.push(("math_function", 1));
        v
    };
    vec![
        // ExecSize 6 and 7 are reserved.
        (
            "enc.check.exec-size",
            Skl,
            Opcode::Mov,
            grf(Skl),
            "exec_size",
            6,
        ),
        (
            "enc.check.exec-size",
            Ivb,
            Opcode::Add,
            grf(Ivb),
            "exec_size",
            7,
        ),
        // CondModifier 7 (pre-Gen6 R) and 10-15 are reserved.
        (
            "enc.check.cond-modifier",
            Hsw,
            Opcode::Add,
            grf(Hsw),
            "cond_modifier",
            7,
        ),
        (
            "enc.check.cond-modifier",
            Bdw,
            Opcode::Mov,
            grf(Bdw),
            "cond_modifier",
            12,
        ),
        // Math function 0 is undefined on every generation (the base uses inv = 1).
        (
            "enc.check.math-function",
            Ivb,
            Opcode::Math,
            math(Ivb),
            "math_function",
            0,
        ),
        (
            "enc.check.math-function",
            Skl,
            Opcode::Math,
            math(Skl),
            "math_function",
            0,
        ),
        // ThreadCtrl 3 is reserved.
        (
            "enc.check.thread-control",
            Chv,
            Opcode::Mov,
            grf(Chv),
            "thread_control",
            3,
        ),
        // SFID 1 (Gen4-5 math) is not a Gen7+ shared function; 14 is undefined.
        (
            "enc.check.sfid",
            Ivb,
            Opcode::Send,
            send_imm(Ivb),
            "sfid",
            1,
        ),
        (
            "enc.check.sfid",
            Skl,
            Opcode::Send,
            send_imm(Skl),
            "sfid",
            14,
        ),
        // Three-source types on Gen8+: 3 bits, F D UD DF HF; 5-7 undefined.
        (
            "enc.check.3src-type",
            Bdw,
            Opcode::Mad,
            vec![],
            "src_type",
            7,
        ),
        (
            "enc.check.3src-type",
            Skl,
            Opcode::Mad,
            vec![],
            "dst_type",
            6,
        ),
        // Gen8 removed the MRF encoding (2).
        (
            "enc.check.reg-file",
            Bdw,
            Opcode::Add,
            grf(Bdw),
            "dst_reg_file",
            2,
        ),
        (
            "enc.check.reg-file",
            Skl,
            Opcode::Add,
            grf(Skl),
            "src1_reg_file",
            2,
        ),
        // Width 5-7 and VertStride 7-14 are reserved.
        (
            "enc.check.width",
            Skl,
            Opcode::Add,
            grf(Skl),
            "src1_width",
            5,
        ),
        (
            "enc.check.width",
            Ivb,
            Opcode::Mov,
            grf(Ivb),
            "src0_width",
            7,
        ),
        (
            "enc.check.vstride",
            Hsw,
            Opcode::Add,
            grf(Hsw),
            "src0_vstride",
            9,
        ),
        (
            "enc.check.vstride",
            Bdw,
            Opcode::Add,
            grf(Bdw),
            "src1_vstride",
            14,
        ),
    ]
}

#[test]
fn every_check_row_refuses_undefined_values() {
    let mut bad = vec![];
    for (id, p, op, base, field, v) in cases() {
        let row = CHECKS.iter().find(|r| r.id == id);
        assert!(
            row.is_some_and(|r| r.gens.contains(p) && r.fields.contains(&field)),
            "{id}: no row checking {field} on {p:?}"
        );
        let ok = word(p, op, &base);
        if let Err(e) = check(ok, p) {
            bad.push(format!("{id} {p:?} {op:?}: the base word fails: {e:?}"));
            continue;
        }
        let mut sets = base.clone();
        sets.push((field, v));
        let w = word(p, op, &sets);
        assert_eq!(
            layout_for(w, p).field(field).map(|f| f.get(w)),
            Some(v),
            "{id}: {field} not set"
        );
        match check(w, p) {
            Err(e) if e.field == field && e.value == v => {}
            other => bad.push(format!("{id} {p:?} {op:?} {field}={v}: {other:?}")),
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    for r in &CHECKS {
        assert!(cases().iter().any(|c| c.0 == r.id), "{} has no case", r.id);
    }
}

#[test]
fn region_checks_skip_immediate_sources() {
    // enc.check.width / enc.check.vstride have skip_immediate: an immediate src0 (one-source
    // mov) leaves its region bits unchecked, a register src0 does not.
    let mut tried = 0;
    for p in [Ivb, Hsw, Bdw, Skl] {
        let imm = word(
            p,
            Opcode::Mov,
            &[
                ("dst_reg_file", file(p, "grf")),
                ("src0_reg_file", file(p, "imm")),
                ("src0_reg_type", u64::from(DataType::D.imm_enc(p).unwrap())),
            ],
        );
        let l = layout_for(imm, p);
        let Some(vs) = l.field("src0_vstride") else {
            // The immediate layout has no src0 region field at all: nothing to skip.
            continue;
        };
        let mut w = imm;
        vs.set(&mut w, 9);
        assert!(check(w, p).is_ok(), "{p:?}: {:?}", check(w, p));
        // The same bits under a register src0 are refused.
        let mut r = word(
            p,
            Opcode::Mov,
            &[
                ("dst_reg_file", file(p, "grf")),
                ("src0_reg_file", file(p, "grf")),
            ],
        );
        layout_for(r, p)
            .field("src0_vstride")
            .unwrap()
            .set(&mut r, 9);
        assert!(
            check(r, p).is_err_and(|e| e.field == "src0_vstride"),
            "{p:?}"
        );
        tried += 1;
    }
    assert!(tried > 0, "no immediate layout keeps the src0 region field");
    let rows: Vec<&str> = CHECKS
        .iter()
        .filter(|r| r.skip_immediate)
        .map(|r| r.id)
        .collect();
    assert_eq!(rows, ["enc.check.width", "enc.check.vstride"]);
}
