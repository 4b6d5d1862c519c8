//! spec/rules/opcode_legality.toml: opcode, type and control legality looked up
//! from spec/opcodes.toml, and the instruction-specific restrictions.

use crate::rules_util;

use euref::spec::DataType::*;
use euref::spec::{ArfKind, CondMod, MathFn, Opcode, PredCtrl, RegFile};
use rules_util::*;

#[test]
fn opcode_exists_on_the_platform() {
    // op.not-on-platform: f32to16 (8) r2<1>:ud r4<8;8,1>:f after Haswell
    let mut p = mov8();
    p.opcode = Opcode::F32to16;
    types(&mut p, UD, &[F]);
    assert_only(&p, "op.not-on-platform", GEN8P);
    // csel arrives with Gen8.
    let mut q = mad8();
    q.opcode = Opcode::Csel;
    q.cond_mod = CondMod::L;
    assert_only(&q, "op.not-on-platform", GEN7);
}

#[test]
fn type_combination_from_the_opcode_table() {
    // op.types-unsupported: addc (8) r2<1>:d r4<8;8,1>:d r6<8;8,1>:d (addc is UD only)
    let mut p = add8();
    p.opcode = Opcode::Addc;
    types(&mut p, D, &[D, D]);
    assert_only(&p, "op.types-unsupported", ALL);
    types(&mut p, UD, &[UD, UD]);
    assert_valid(&p);
    // A mixed float/integer add.
    let mut q = add8();
    types(&mut q, F, &[F, D]);
    assert_only(&q, "op.types-unsupported", ALL);
}

#[test]
fn saturation_only_where_supported() {
    // op.sat-unsupported: and.sat (8) r2<1>:ud r4<8;8,1>:ud r6<8;8,1>:ud
    let mut p = add8();
    p.opcode = Opcode::And;
    types(&mut p, UD, &[UD, UD]);
    p.saturate = true;
    assert_only(&p, "op.sat-unsupported", ALL);
    p.opcode = Opcode::Add;
    assert_valid(&p);
}

#[test]
fn condition_modifier_only_where_supported() {
    // op.cmod-unsupported: bfrev.z (8) r2<1>:ud r4<8;8,1>:ud
    let mut p = mov8();
    p.opcode = Opcode::Bfrev;
    types(&mut p, UD, &[UD]);
    p.cond_mod = CondMod::Z;
    assert_only(&p, "op.cmod-unsupported", ALL);
    p.cond_mod = CondMod::None;
    assert_valid(&p);
}

#[test]
fn predication_only_where_supported() {
    // op.pred-unsupported: (+f0.0) else (8)
    let mut p = insn(Opcode::Else, 8, 0);
    p.pred_ctrl = PredCtrl::Seq;
    assert_only(&p, "op.pred-unsupported", ALL);
    p.opcode = Opcode::If;
    assert_valid(&p);
}

#[test]
fn source_modifiers_only_where_supported() {
    // op.srcmod-unsupported: bfrev (8) r2<1>:ud -r4<8;8,1>:ud
    let mut p = mov8();
    p.opcode = Opcode::Bfrev;
    types(&mut p, UD, &[UD]);
    p.src_negate[0] = true;
    assert_only(&p, "op.srcmod-unsupported", ALL);
    p.opcode = Opcode::Mov;
    assert_valid(&p);
}

#[test]
fn accwrctrl_only_where_supported() {
    // op.accwr-unsupported: send with {AccWrEn}
    let mut p = send8();
    p.acc_wr_ctrl = true;
    assert_only(&p, "op.accwr-unsupported", ALL);
    p.acc_wr_ctrl = false;
    assert_valid(&p);
}

#[test]
fn exec_size_is_a_power_of_two_up_to_32() {
    // op.exec-size-legal: mov (3) r2<1>:f r4<0;1,0>:f
    let mut p = insn(Opcode::Mov, 3, 1);
    scalar(&mut p, 0);
    assert_only(&p, "op.exec-size-legal", ALL);
    p.exec_size = 4;
    assert_valid(&p);
}

#[test]
fn destination_is_not_an_immediate() {
    // op.dst-not-imm
    let mut p = mov8();
    p.dst_file = RegFile::Imm;
    assert_only(&p, "op.dst-not-imm", ALL);
}

#[test]
fn no_message_registers() {
    // op.no-mrf: mov (8) m0<1>:f r4<8;8,1>:f (Mesa's case)
    let mut p = mov8();
    p.dst_file = RegFile::Mrf;
    assert_only(&p, "op.no-mrf", ALL);
    // math sin (8) r2<1>:f m0<8;8,1>:f null
    let mut q = math8(MathFn::Sin);
    q.src_file[0] = RegFile::Mrf;
    assert_only(&q, "op.no-mrf", ALL);
}

#[test]
fn sources_are_not_null() {
    // op.src0-not-null: mov (8) r2<1>:f null<8;8,1>:f (Mesa's case)
    let mut p = mov8();
    null_src(&mut p, 0);
    assert_only(&p, "op.src0-not-null", ALL);
    // op.src1-not-null: add (8) r2<1>:f r4<8;8,1>:f null<8;8,1>:f
    let mut q = add8();
    null_src(&mut q, 1);
    assert_only(&q, "op.src1-not-null", ALL);
    // math pow needs src1; math sin does not.
    let mut r = math8(MathFn::Pow);
    null_src(&mut r, 1);
    assert_only(&r, "op.src1-not-null", ALL);
    assert_valid(&math8(MathFn::Sin));
}

#[test]
fn sel_without_simd32_on_gen7() {
    // op.sel-no-simd32: (+f0.0) sel (32) r2<1>:w r4<16;16,1>:w r6<16;16,1>:w
    let mut p = insn(Opcode::Sel, 32, 2);
    types(&mut p, W, &[W, W]);
    region(&mut p, 0, 16, 16, 1);
    region(&mut p, 1, 16, 16, 1);
    p.pred_ctrl = PredCtrl::Seq;
    assert_only(&p, "op.sel-no-simd32", GEN7);
    p.exec_size = 16;
    assert_valid(&p);
}

#[test]
fn no_simd32_with_condition_modifier_on_gen7() {
    // op.simd32-no-cmod: add.z (32) r2<1>:w r4<16;16,1>:w r6<16;16,1>:w
    let mut p = insn(Opcode::Add, 32, 2);
    types(&mut p, W, &[W, W]);
    region(&mut p, 0, 16, 16, 1);
    region(&mut p, 1, 16, 16, 1);
    p.cond_mod = CondMod::Z;
    assert_only(&p, "op.simd32-no-cmod", GEN7);
    p.cond_mod = CondMod::None;
    assert_valid(&p);
}

#[test]
fn no_simd32_three_source_with_condition_modifier_from_gen8() {
    // op.three-src-simd32-no-cmod: mad.z (32) r2:hf r4:hf r6:hf r8:hf (Align16)
    let mut p = insn(Opcode::Mad, 32, 3);
    types(&mut p, HF, &[HF, HF, HF]);
    align16(&mut p);
    p.cond_mod = CondMod::Z;
    assert_only_among(&p, "op.three-src-simd32-no-cmod", GEN8P, GEN8P);
    p.cond_mod = CondMod::None;
    assert_only_valid_on(&p, GEN8P);
}

#[test]
fn ivy_bridge_align16_not_compressed_for_dwords() {
    // op.ivb-align16-no-compressed-dword: mad (16) r2:f r4:f r6:f r8:f (Align16)
    let mut p = insn(Opcode::Mad, 16, 3);
    align16(&mut p);
    assert_only(&p, "op.ivb-align16-no-compressed-dword", &[Ivb]);
    // SIMD4 DF is allowed: mov (4) r2<1>:df r4<4>:df (Align16)
    let mut q = insn(Opcode::Mov, 4, 1);
    types(&mut q, DF, &[DF]);
    align16(&mut q);
    assert_valid(&q);
    q.exec_size = 8;
    q.src_vstride[0] = 4;
    assert_eq!(ids_on(&q, Ivb), ["op.ivb-align16-no-compressed-dword"]);
}

#[test]
fn three_source_instructions_are_align16() {
    // op.three-src-align16: mad (8) in Align1 (Mesa's 3src_inst_access_mode)
    let p = insn(Opcode::Mad, 8, 3);
    assert_only(&p, "op.three-src-align16", ALL);
    assert_valid(&mad8());
}

#[test]
fn cmp_has_a_condition_modifier() {
    // op.cmp-needs-cmod: cmp (8) r2<1>:f r4<8;8,1>:f r6<8;8,1>:f
    let mut p = add8();
    p.opcode = Opcode::Cmp;
    assert_only(&p, "op.cmp-needs-cmod", ALL);
    p.cond_mod = CondMod::L;
    assert_valid(&p);
}

#[test]
fn gen7_cmp_writes_a_grf_or_null() {
    // op.cmp-dst-grf-or-null: cmp.l (8) acc0<1>:f r4<8;8,1>:f r6<8;8,1>:f
    let mut p = add8();
    p.opcode = Opcode::Cmp;
    p.cond_mod = CondMod::L;
    arf_dst(&mut p, ArfKind::Acc, 0, 0);
    assert_only(&p, "op.cmp-dst-grf-or-null", GEN7);
}

#[test]
fn gen7_cmp_to_null_sets_switch() {
    // op.cmp-null-dst-switch: cmp.l (8) null<1>:f r4<8;8,1>:f r6<8;8,1>:f
    let mut p = add8();
    p.opcode = Opcode::Cmp;
    p.cond_mod = CondMod::L;
    null_dst(&mut p);
    assert_only(&p, "op.cmp-null-dst-switch", GEN7);
    p.switch = true;
    assert_valid(&p);
}

#[test]
fn sel_is_predicated_or_has_a_condition() {
    // op.sel-pred-xor-cmod: sel (8) without either, then with both.
    let mut p = add8();
    p.opcode = Opcode::Sel;
    assert_only(&p, "op.sel-pred-xor-cmod", ALL);
    p.pred_ctrl = PredCtrl::Seq;
    p.cond_mod = CondMod::Ge;
    assert_only(&p, "op.sel-pred-xor-cmod", ALL);
    p.pred_ctrl = PredCtrl::None;
    assert_valid(&p);
}

#[test]
fn csel_has_a_condition() {
    // op.csel-needs-cmod: csel (8) r2:f r4:f r6:f r8:f (Align16)
    let mut p = mad8();
    p.opcode = Opcode::Csel;
    assert_only_among(&p, "op.csel-needs-cmod", GEN8P, GEN8P);
    p.cond_mod = CondMod::Nz;
    assert_only_valid_on(&p, GEN8P);
}

#[test]
fn mul_puts_the_dword_on_src0() {
    // op.mul-dword-src0: mul (8) r2<1>:d r4<8;8,1>:w r6<8;8,1>:d
    let mut p = add8();
    p.opcode = Opcode::Mul;
    types(&mut p, D, &[W, D]);
    assert_only(&p, "op.mul-dword-src0", ALL);
    types(&mut p, D, &[D, W]);
    assert_valid(&p);
}

#[test]
fn mul_accumulator_sources() {
    // op.mul-no-acc-src (Gen7) / op.mul-int-acc-src (Gen8+):
    // mul (8) r2<1>:d acc0<8;8,1>:d r6<8;8,1>:w
    let mut p = add8();
    p.opcode = Opcode::Mul;
    types(&mut p, D, &[D, W]);
    arf_src(&mut p, 0, ArfKind::Acc, 0, 0);
    assert_only_among(&p, "op.mul-no-acc-src", GEN7, GEN7);
    assert_only_among(&p, "op.mul-int-acc-src", GEN8P, GEN8P);
    // A float accumulator source is fine from Gen8.
    let mut q = add8();
    q.opcode = Opcode::Mul;
    arf_src(&mut q, 0, ArfKind::Acc, 0, 0);
    assert_only(&q, "op.mul-no-acc-src", GEN7);
}

#[test]
fn gen8_dword_multiply_does_not_write_the_accumulator() {
    // op.mul-dword-acc-dst: mul (8) acc0<1>:d r4<8;8,1>:d r6<8;8,1>:d
    let mut p = add8();
    p.opcode = Opcode::Mul;
    types(&mut p, D, &[D, D]);
    arf_dst(&mut p, ArfKind::Acc, 0, 0);
    assert_eq!(ids_on(&p, Bdw), ["op.mul-dword-acc-dst"]);
    assert!(ids_on(&p, Chv).contains(&"op.mul-dword-acc-dst"));
    assert_only_valid_on(&p, &[Ivb, Hsw, Skl]);
}

#[test]
fn dword_multiply_without_saturation_or_condition() {
    // op.mul-dword-no-sat-cmod: mul.sat (8) r2<1>:d r4<8;8,1>:d r6<8;8,1>:w
    let mut p = add8();
    p.opcode = Opcode::Mul;
    types(&mut p, D, &[D, W]);
    p.saturate = true;
    assert_only(&p, "op.mul-dword-no-sat-cmod", ALL);
    p.saturate = false;
    p.cond_mod = CondMod::Z;
    assert_only(&p, "op.mul-dword-no-sat-cmod", ALL);
    // A word multiply may saturate.
    p.cond_mod = CondMod::None;
    p.saturate = true;
    types(&mut p, W, &[W, W]);
    assert_valid(&p);
}

#[test]
fn integer_division_without_source_modifiers() {
    // op.math-int-div-no-srcmod: math.int_div_quotient (8) r2<1>:d -r4<8;8,1>:d r6<8;8,1>:d
    let mut p = math8(MathFn::IntDivQuotient);
    types(&mut p, D, &[D, D]);
    p.src_negate[0] = true;
    assert_only(&p, "op.math-int-div-no-srcmod", ALL);
    p.src_negate[0] = false;
    assert_valid(&p);
}

#[test]
fn logic_without_abs_from_gen8() {
    // op.logic-no-abs: and (8) r2<1>:ud (abs)r4<8;8,1>:ud r6<8;8,1>:ud
    let mut p = add8();
    p.opcode = Opcode::And;
    types(&mut p, UD, &[UD, UD]);
    p.src_abs[0] = true;
    assert_only(&p, "op.logic-no-abs", GEN8P);
    p.src_abs[0] = false;
    p.src_negate[0] = true; // negate is bitwise NOT
    assert_valid(&p);
}

#[test]
fn logic_without_source_modifier_on_the_accumulator() {
    // op.logic-acc-no-srcmod: and (8) r2<1>:ud ~acc0<8;8,1>:ud r6<8;8,1>:ud
    let mut p = add8();
    p.opcode = Opcode::And;
    types(&mut p, UD, &[UD, UD]);
    arf_src(&mut p, 0, ArfKind::Acc, 0, 0);
    p.src_negate[0] = true;
    assert_only(&p, "op.logic-acc-no-srcmod", GEN8P);
    p.src_negate[0] = false;
    assert_valid(&p);
}

#[test]
fn logic_without_overflow_or_unordered_conditions() {
    // op.logic-cmod-no-o-u: and.o (8) r2<1>:ud r4<8;8,1>:ud r6<8;8,1>:ud
    let mut p = add8();
    p.opcode = Opcode::And;
    types(&mut p, UD, &[UD, UD]);
    p.cond_mod = CondMod::O;
    assert_only(&p, "op.logic-cmod-no-o-u", ALL);
    p.cond_mod = CondMod::U;
    assert_only(&p, "op.logic-cmod-no-o-u", ALL);
    p.cond_mod = CondMod::Nz;
    assert_valid(&p);
}
