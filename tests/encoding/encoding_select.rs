//! Layout selection from spec/encoding/select.toml: every `[[form]]` row (`enc.form.*`) gives
//! its opcodes their form, and every `[[select]]` row (`enc.select.*`) is the layout
//! `layout_for` / `operand_layout` choose for a word of its (form, operands) on its platforms.
//! The expected layouts are written out here (from the layouts' own descriptions in
//! spec/encoding/gen7.toml and gen8.toml), so a row that is missing or names another layout
//! fails.

use euref::encoding::{layout_for, operand_layout, Form, Operand};
use euref::spec::encoding::select::{self, form_of, FormBy, Operands};
use euref::spec::encoding::values;
use euref::spec::{DataType, Opcode, Platform, Platform::*};

/// A native word of `op` on `p` with the given fields set (each on the layout chosen so far,
/// so a field that moves between layouts is set where the final layout reads it).
fn word(p: Platform, op: Opcode, a16: bool, sets: &[(&str, u64)]) -> u128 {
    let mut w = 0u128;
    let l = layout_for(w, p);
    l.field("opcode")
        .unwrap()
        .set(&mut w, u64::from(op.number(p).unwrap()));
    l.field("access_mode").unwrap().set(&mut w, u64::from(a16));
    for _ in 0..3 {
        for (name, v) in sets {
            if let Some(f) = layout_for(w, p).field(name) {
                f.set(&mut w, *v);
            }
        }
    }
    w
}

fn imm_file(p: Platform) -> u64 {
    let t = if p.info().gen_x10 >= 80 {
        &values::GEN8_REG_FILE
    } else {
        &values::GEN7_REG_FILE
    };
    t.value("imm").unwrap()
}

fn imm_type(p: Platform, t: DataType) -> u64 {
    u64::from(t.imm_enc(p).unwrap())
}

/// (row ID, platform, opcode, Align16, fields, expected layout name).
type Case = (
    &'static str,
    Platform,
    Opcode,
    bool,
    Vec<(&'static str, u64)>,
    &'static str,
);

fn cases() -> Vec<Case> {
    let src0_imm = |p: Platform, t: DataType| {
        vec![
            ("src0_reg_file", imm_file(p)),
            ("src0_reg_type", imm_type(p, t)),
        ]
    };
    let src1_imm = |p: Platform, t: DataType| {
        vec![
            ("src1_reg_file", imm_file(p)),
            ("src1_reg_type", imm_type(p, t)),
        ]
    };
    vec![
        ("enc.select.alu", Ivb, Opcode::Mov, false, vec![], "gen7_a1"),
        ("enc.select.alu", Hsw, Opcode::Add, true, vec![], "gen7_a16"),
        ("enc.select.alu", Skl, Opcode::Add, true, vec![], "gen8_a16"),
        ("enc.select.alu", Chv, Opcode::Ret, false, vec![], "gen8_a1"),
        (
            "enc.select.alu-imm",
            Hsw,
            Opcode::Add,
            false,
            src1_imm(Hsw, DataType::D),
            "gen7_a1_imm",
        ),
        (
            "enc.select.alu-imm",
            Bdw,
            Opcode::Mov,
            true,
            src0_imm(Bdw, DataType::F),
            "gen8_a16_imm",
        ),
        (
            "enc.select.alu-imm64",
            Skl,
            Opcode::Mov,
            false,
            src0_imm(Skl, DataType::DF),
            "gen8_a1_imm64",
        ),
        (
            "enc.select.alu-imm64",
            Bxt,
            Opcode::Mov,
            true,
            src0_imm(Bxt, DataType::Q),
            "gen8_a16_imm64",
        ),
        (
            "enc.select.math",
            Ivb,
            Opcode::Math,
            false,
            vec![],
            "gen7_math_a1",
        ),
        (
            "enc.select.math",
            Skl,
            Opcode::Math,
            true,
            vec![],
            "gen8_math_a16",
        ),
        (
            "enc.select.math-imm",
            Skl,
            Opcode::Math,
            false,
            src1_imm(Skl, DataType::F),
            "gen8_math_a1_imm",
        ),
        (
            "enc.select.math-imm",
            Ivb,
            Opcode::Math,
            true,
            src1_imm(Ivb, DataType::F),
            "gen7_math_a16_imm",
        ),
        (
            "enc.select.three-src",
            Ivb,
            Opcode::Mad,
            true,
            vec![],
            "gen7_3src",
        ),
        (
            "enc.select.three-src",
            Bdw,
            Opcode::Mad,
            true,
            vec![],
            "gen8_3src_bdw",
        ),
        (
            "enc.select.three-src",
            Chv,
            Opcode::Lrp,
            true,
            vec![],
            "gen8_3src_chv",
        ),
        (
            "enc.select.three-src",
            Skl,
            Opcode::Mad,
            false,
            vec![],
            "gen8_3src_chv",
        ),
        (
            "enc.select.send",
            Ivb,
            Opcode::Send,
            false,
            src1_imm(Ivb, DataType::UD),
            "gen7_send_a1",
        ),
        (
            "enc.select.send",
            Bdw,
            Opcode::Sendc,
            true,
            src1_imm(Bdw, DataType::UD),
            "gen8_send_a16",
        ),
        (
            "enc.select.send",
            Skl,
            Opcode::Send,
            false,
            src1_imm(Skl, DataType::UD),
            "gen9_send_a1",
        ),
        (
            "enc.select.send-reg",
            Hsw,
            Opcode::Send,
            false,
            vec![],
            "gen7_send_reg_a1",
        ),
        (
            "enc.select.send-reg",
            Skl,
            Opcode::Send,
            true,
            vec![],
            "gen9_send_reg_a16",
        ),
        (
            "enc.select.branch",
            Ivb,
            Opcode::If,
            false,
            vec![],
            "gen7_branch_a1",
        ),
        (
            "enc.select.branch",
            Hsw,
            Opcode::While,
            true,
            vec![],
            "gen7_branch_a16",
        ),
        (
            "enc.select.branch",
            Skl,
            Opcode::Goto,
            false,
            vec![],
            "gen8_branch_a1",
        ),
        ("enc.select.dim", Hsw, Opcode::Dim, false, vec![], "gen7_a1"),
        ("enc.select.dim", Hsw, Opcode::Dim, true, vec![], "gen7_a16"),
        (
            "enc.select.dim-imm",
            Hsw,
            Opcode::Dim,
            false,
            src0_imm(Hsw, DataType::F),
            "hsw_dim_a1",
        ),
        (
            "enc.select.dim-imm",
            Hsw,
            Opcode::Dim,
            true,
            src0_imm(Hsw, DataType::F),
            "hsw_dim_a16",
        ),
        (
            "enc.select.sends",
            Skl,
            Opcode::Sends,
            false,
            vec![],
            "gen9_sends",
        ),
        (
            "enc.select.sends-reg-desc",
            Skl,
            Opcode::Sends,
            false,
            vec![("sel_reg32_desc", 1)],
            "gen9_sends_reg_desc",
        ),
        (
            "enc.select.sends-reg-exdesc",
            Bxt,
            Opcode::Sendsc,
            false,
            vec![("sel_reg32_ex_desc", 1)],
            "gen9_sends_reg_exdesc",
        ),
        (
            "enc.select.sends-reg-both",
            Skl,
            Opcode::Sends,
            false,
            vec![("sel_reg32_desc", 1), ("sel_reg32_ex_desc", 1)],
            "gen9_sends_reg_both",
        ),
    ]
}

#[test]
fn every_select_row_chooses_its_layout() {
    let mut bad = vec![];
    for (id, p, op, a16, sets, want) in cases() {
        let row = select::SELECT.iter().find(|r| r.id == id);
        assert!(
            row.is_some_and(|r| r.gens.contains(p)),
            "{id}: no row for {p:?}"
        );
        let w = word(p, op, a16, &sets);
        let got = layout_for(w, p).name;
        if got != want {
            bad.push(format!(
                "{id} {p:?} {op:?} a16={a16}: {got}, expected {want}"
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // Every row has a case.
    for r in &select::SELECT {
        assert!(
            cases().iter().any(|c| c.0 == r.id) || r.id == "enc.select.alu-ind",
            "{} has no case",
            r.id
        );
    }
}

#[test]
fn indirect_operands_read_the_ind_layouts() {
    // enc.select.alu-ind: an operand with AddressMode = 1 reads its fields from the *-ind
    // layout of the access mode, for the rows with `indirect = true` (alu, alu-imm, math,
    // math-imm, send, send-reg); the others keep their own layout.
    let cases: [(Platform, Opcode, bool, &str, Operand, &str); 6] = [
        (
            Ivb,
            Opcode::Mov,
            false,
            "dst_address_mode",
            Operand::Dst,
            "gen7_a1_ind",
        ),
        (
            Hsw,
            Opcode::Add,
            true,
            "src0_address_mode",
            Operand::Src0,
            "gen7_a16_ind",
        ),
        (
            Skl,
            Opcode::Math,
            false,
            "src1_address_mode",
            Operand::Src1,
            "gen8_a1_ind",
        ),
        (
            Bdw,
            Opcode::Send,
            true,
            "src0_address_mode",
            Operand::Src0,
            "gen8_a16_ind",
        ),
        // Not indirect-capable rows: the branch layouts and the three-source layout.
        (
            Skl,
            Opcode::If,
            false,
            "dst_address_mode",
            Operand::Dst,
            "gen8_branch_a1",
        ),
        (
            Ivb,
            Opcode::Mad,
            true,
            "dst_address_mode",
            Operand::Dst,
            "gen7_3src",
        ),
    ];
    for (p, op, a16, field, operand, want) in cases {
        let w = word(p, op, a16, &[(field, 1)]);
        assert_eq!(
            operand_layout(w, p, operand).name,
            want,
            "{p:?} {op:?} {field}"
        );
        // The direct operands of the same word keep the instruction's layout.
        let other = if operand == Operand::Dst {
            Operand::Src1
        } else {
            Operand::Dst
        };
        assert_eq!(
            operand_layout(w, p, other).name,
            layout_for(w, p).name,
            "{p:?} {op:?} {field}"
        );
    }
    let row = select::SELECT
        .iter()
        .find(|r| r.id == "enc.select.alu-ind")
        .unwrap();
    assert_eq!((row.form, row.operands), (Form::Alu, Operands::Ind));
}

/// (row ID, opcode, platforms where the row gives it this form).
#[test]
fn every_form_row_gives_its_opcodes_their_form() {
    let cases: [(&str, Opcode, &[Platform], Form); 14] = [
        (
            "enc.form.branch",
            Opcode::If,
            &[Ivb, Hsw, Bdw, Chv, Skl, Bxt],
            Form::Branch,
        ),
        ("enc.form.branch", Opcode::Cont, &[Ivb, Skl], Form::Branch),
        ("enc.form.branch", Opcode::Join, &[Bdw, Bxt], Form::Branch),
        (
            "enc.form.three-src",
            Opcode::Mad,
            &[Ivb, Bdw, Skl],
            Form::ThreeSrc,
        ),
        (
            "enc.form.three-src",
            Opcode::Bfe,
            &[Hsw, Chv],
            Form::ThreeSrc,
        ),
        (
            "enc.form.math",
            Opcode::Math,
            &[Ivb, Hsw, Bdw, Chv, Skl, Bxt],
            Form::Math,
        ),
        ("enc.form.sends", Opcode::Sends, &[Skl, Bxt], Form::Sends),
        ("enc.form.sends", Opcode::Sendsc, &[Skl], Form::Sends),
        ("enc.form.send", Opcode::Send, &[Ivb, Bdw, Skl], Form::Send),
        ("enc.form.send", Opcode::Sendc, &[Hsw, Bxt], Form::Send),
        ("enc.form.dim", Opcode::Dim, &[Hsw], Form::Dim),
        (
            "enc.form.alu",
            Opcode::Mov,
            &[Ivb, Hsw, Bdw, Chv, Skl, Bxt],
            Form::Alu,
        ),
        // Flow instructions without JIP/UIP fields are plain one/two-source words.
        ("enc.form.alu", Opcode::Jmpi, &[Ivb, Skl], Form::Alu),
        ("enc.form.alu", Opcode::Call, &[Hsw, Bdw], Form::Alu),
    ];
    for (id, op, ps, want) in cases {
        let rule = select::FORM_RULES.iter().find(|r| r.id == id);
        assert!(
            rule.is_some_and(|r| r.form == want),
            "{id}: missing or not {want:?}"
        );
        for p in ps {
            let n = op.number(*p).unwrap();
            assert_eq!(form_of(*p, n), want, "{id}: {op:?} on {p:?}");
        }
    }
    // The first matching row wins: sends is class send but has its own form; an opcode
    // number no opcode has on a platform is Unknown.
    assert!(matches!(
        select::FORM_RULES
            .iter()
            .position(|r| r.id == "enc.form.sends")
            .zip(select::FORM_RULES.iter().position(|r| r.id == "enc.form.send")),
        Some((a, b)) if a < b
    ));
    assert!(matches!(
        select::FORM_RULES.last().map(|r| &r.by),
        Some(FormBy::Other)
    ));
    let unused = (0u8..128)
        .find(|n| Opcode::from_number(Skl, *n).is_none())
        .unwrap();
    assert_eq!(form_of(Skl, unused), Form::Unknown);
    // dim is not an opcode of Ivybridge; sends only Gen9.
    assert!(
        Opcode::Dim.number(Ivb).is_none()
            || form_of(Ivb, Opcode::Dim.number(Ivb).unwrap()) == Form::Alu
    );
    assert!(Opcode::Sends.number(Bdw).is_none());
}
