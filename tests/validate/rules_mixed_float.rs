//! spec/rules/mixed_float.toml: mixed HF/F mode (Gen8+). HF does not exist on
//! Ivy Bridge and Haswell, so these instructions are checked on Gen8+ only
//! (Gen7 rejects them through op.types-unsupported, tested once here).

use crate::rules_util;

use euref::spec::DataType::*;
use euref::spec::{ArfKind, MathFn, Opcode, PropsRecord};
use rules_util::*;

const CHV_GEN9: &[euref::spec::Platform] = &[Chv, Skl, Bxt];

/// `add (8) r2<2>:hf r4<8;8,1>:f r6<8;8,1>:hf`
fn add_hf_f() -> PropsRecord {
    let mut p = add8();
    types(&mut p, HF, &[F, HF]);
    p.dst_hstride = 2;
    p
}

/// `add (8) r2<1>:f r4<4>:f r6<4>:hf` (Align16)
fn add16_f_hf() -> PropsRecord {
    let mut p = add8();
    types(&mut p, F, &[F, HF]);
    align16(&mut p);
    p
}

#[test]
fn mixed_mode_needs_gen8() {
    let p = add_hf_f();
    assert_only_valid_on(&p, GEN8P);
    for &pl in GEN7 {
        assert_eq!(ids_on(&p, pl), ["op.types-unsupported"]);
    }
    assert_only_valid_on(&add16_f_hf(), GEN8P);
}

#[test]
fn align16_sources_are_packed() {
    // mixed.align16-packed: add (8) r2<1>:f r4<2>:f r6<4>:hf (Align16)
    let mut p = add16_f_hf();
    p.src_vstride[0] = 2;
    assert_only_among(&p, "mixed.align16-packed", GEN8P, GEN8P);
    p.src_vstride[0] = 0;
    assert_only_among(&p, "mixed.align16-packed", GEN8P, GEN8P);
    p.src_vstride[0] = 4;
    assert_only_valid_on(&p, GEN8P);
}

#[test]
fn align16_math_is_packed() {
    // mixed.align16-math-packed: math pow (8) r2<1>:f r4<2>:f r6<4>:hf (Align16)
    let mut p = math8(MathFn::Pow);
    types(&mut p, F, &[F, HF]);
    align16(&mut p);
    assert_only_valid_on(&p, GEN8P);
    p.src_vstride[0] = 2;
    assert_only_among(&p, "mixed.align16-math-packed", GEN8P, GEN8P);
}

#[test]
fn align16_hf_vstride_not_zero() {
    // mixed.align16-hf-vstride-nonzero: add (8) r2<1>:f r4<4>:f r6<0>:hf (Align16)
    let mut p = add16_f_hf();
    p.src_vstride[1] = 0;
    assert_only_among(&p, "mixed.align16-hf-vstride-nonzero", GEN8P, GEN8P);
    p.src_vstride[1] = 4;
    assert_only_valid_on(&p, GEN8P);
}

#[test]
fn align16_packed_hf_oword_aligned() {
    // mixed.align16-oword-aligned: mad (8) r2:f r4:f r6.2:hf r8:hf (Align16, src1 at byte 8)
    let mut p = mad8();
    types(&mut p, F, &[F, HF, HF]);
    p.src_subreg[1] = 8;
    assert_only_among(&p, "mixed.align16-oword-aligned", GEN8P, GEN8P);
    p.src_subreg[1] = 16;
    assert_only_valid_on(&p, GEN8P);
}

#[test]
fn no_simd16_with_packed_hf_destination() {
    // mixed.no-simd16-packed-hf-dst: add (16) r2<1>:hf r4<8;8,1>:hf r6<8;8,1>:f
    let mut p = insn(Opcode::Add, 16, 2);
    types(&mut p, HF, &[HF, F]);
    assert_only_among(&p, "mixed.no-simd16-packed-hf-dst", CHV_GEN9, CHV_GEN9);
    // Broadwell has no packed-HF relaxation at all.
    assert_eq!(
        ids_on(&p, Bdw),
        [
            "mixed.no-simd16-packed-hf-dst",
            "mixed.dst-stride-exec-ratio-bdw"
        ]
    );
    // Strided HF destination: add (16) r2<2>:hf ...
    p.dst_hstride = 2;
    assert_only_valid_on(&p, GEN8P);
}

#[test]
fn no_simd16_with_f_destination() {
    // mixed.no-simd16-f-dst: add (16) r2<1>:f r4<8;8,1>:hf r6<8;8,1>:f
    let mut p = insn(Opcode::Add, 16, 2);
    types(&mut p, F, &[HF, F]);
    assert_only_among(&p, "mixed.no-simd16-f-dst", GEN8P, GEN8P);
    p.exec_size = 8;
    assert_only_valid_on(&p, GEN8P);
    // A SIMD16 HF to F mov is allowed.
    let mut q = insn(Opcode::Mov, 16, 1);
    types(&mut q, F, &[HF]);
    assert_only_valid_on(&q, GEN8P);
}

#[test]
fn align16_mixed_mode_is_simd8() {
    // mixed.align16-simd8: cmp.l (16) r2<1>:w r4<4>:hf 0x3f800000:f (Align16)
    let mut p = insn(Opcode::Cmp, 16, 2);
    p.cond_mod = euref::spec::CondMod::L;
    types(&mut p, W, &[HF, F]);
    imm(&mut p, 1, F, 0x3f80_0000);
    align16(&mut p);
    assert_only_among(&p, "mixed.align16-simd8", CHV_GEN9, CHV_GEN9);
    assert!(ids_on(&p, Bdw).contains(&"mixed.align16-simd8"));
    p.exec_size = 8;
    assert_only_valid_on(&p, CHV_GEN9);
}

#[test]
fn align16_mixed_mode_reads_no_accumulator() {
    // mixed.align16-no-acc-read: add (8) r2<1>:f acc0<4>:f r6<4>:hf (Align16; Mesa's case)
    let mut p = add16_f_hf();
    arf_src(&mut p, 0, ArfKind::Acc, 0, 0);
    assert_only_among(&p, "mixed.align16-no-acc-read", GEN8P, GEN8P);
    // Implicitly: mac (8) r2<1>:f r4<4>:f r6<4>:hf
    let mut q = add16_f_hf();
    q.opcode = Opcode::Mac;
    assert_only_among(&q, "mixed.align16-no-acc-read", GEN8P, GEN8P);
    // In Align1 the accumulator may be read.
    let mut r = add8();
    types(&mut r, F, &[F, HF]);
    arf_src(&mut r, 0, ArfKind::Acc, 0, 0);
    assert_only_valid_on(&r, GEN8P);
}

#[test]
fn accumulator_source_of_packed_hf_destination_at_offset_0() {
    // mixed.acc-src-packed-hf-dst-offset-0: add (8) r2.8<1>:hf acc0.8<8;8,1>:hf r6<8;8,1>:f
    let mut p = add8();
    types(&mut p, HF, &[HF, F]);
    arf_src(&mut p, 0, ArfKind::Acc, 0, 16);
    p.dst_subreg = 16;
    assert_only_among(
        &p,
        "mixed.acc-src-packed-hf-dst-offset-0",
        CHV_GEN9,
        CHV_GEN9,
    );
    p.src_subreg[0] = 0;
    p.dst_subreg = 0;
    assert_only_valid_on(&p, CHV_GEN9);
}

#[test]
fn implicit_accumulator_source_with_hf_destination_strides_by_2() {
    // mixed.implicit-acc-hf-dst-stride-2: mac (8) r2<1>:hf r4<8;8,1>:hf r6<8;8,1>:f
    let mut p = add8();
    p.opcode = Opcode::Mac;
    types(&mut p, HF, &[HF, F]);
    assert_only_among(&p, "mixed.implicit-acc-hf-dst-stride-2", CHV_GEN9, CHV_GEN9);
    // seed004's example: mac (8) r3<2>:hf r4.0<8;8,1>:f r6.0<8;4,2>:hf
    types(&mut p, HF, &[F, HF]);
    region(&mut p, 1, 8, 4, 2);
    p.dst_hstride = 2;
    assert_only_valid_on(&p, GEN8P);
}

#[test]
fn align1_math_hf_inputs_are_strided() {
    // mixed.align1-math-hf-strided: math pow (8) r2<2>:hf r4<4;4,1>:f r6<4;4,1>:hf (Mesa's case)
    let mut p = math8(MathFn::Pow);
    types(&mut p, HF, &[F, HF]);
    p.dst_hstride = 2;
    region(&mut p, 0, 4, 4, 1);
    region(&mut p, 1, 4, 4, 1);
    assert_only_among(&p, "mixed.align1-math-hf-strided", GEN8P, GEN8P);
    region(&mut p, 1, 4, 4, 2);
    assert_only_valid_on(&p, GEN8P);
}

#[test]
fn align1_packed_hf_destination_oword_aligned() {
    // mixed.align1-packed-hf-dst-oword: add (8) r2.1<1>:hf r4<4;4,1>:hf r6<4;4,1>:f (Mesa's case)
    let mut p = add8();
    types(&mut p, HF, &[HF, F]);
    region(&mut p, 0, 4, 4, 1);
    region(&mut p, 1, 4, 4, 1);
    p.dst_subreg = 2;
    assert_only_among(&p, "mixed.align1-packed-hf-dst-oword", CHV_GEN9, CHV_GEN9);
    p.dst_subreg = 16;
    assert_only_valid_on(&p, CHV_GEN9);
    // seed004's example: add(8) r3<1>:hf r4.0<8;8,1>:f r6.0<8;4,2>:hf
    let mut q = add8();
    types(&mut q, HF, &[F, HF]);
    region(&mut q, 1, 8, 4, 2);
    assert_only_valid_on(&q, CHV_GEN9);
}

#[test]
fn mixed_mode_sources_are_direct() {
    // mixed.no-src-indirect: add (8) r2<2>:hf r[a0.0]<8;8,1>:f r6<8;8,1>:f (Mesa's case)
    let mut p = add8();
    types(&mut p, HF, &[F, F]);
    p.dst_hstride = 2;
    p.src_indirect[0] = true;
    assert_only_among(&p, "mixed.no-src-indirect", GEN8P, GEN8P);
    // An indirect destination is fine.
    p.src_indirect[0] = false;
    p.dst_indirect = true;
    assert_only_valid_on(&p, GEN8P);
}

#[test]
fn hf_destination_stride_1_or_2() {
    // mixed.hf-dst-stride-1-or-2: mov (4) r2<4>:hf r4<4;4,1>:f (Mesa's case)
    let mut p = insn(Opcode::Mov, 4, 1);
    types(&mut p, HF, &[F]);
    p.dst_hstride = 4;
    assert_only_among(&p, "mixed.hf-dst-stride-1-or-2", CHV_GEN9, CHV_GEN9);
    assert_eq!(ids_on(&p, Bdw), ["mixed.dst-stride-exec-ratio-bdw"]);
    p.dst_hstride = 2;
    assert_only_valid_on(&p, GEN8P);
    // mov (4) r2.1<2>:hf r4<4;4,1>:f: the odd words (relaxed word alignment)
    p.dst_subreg = 2;
    assert_only_valid_on(&p, CHV_GEN9);
}

#[test]
fn broadwell_keeps_the_stride_ratio_in_mixed_mode() {
    // mixed.dst-stride-exec-ratio-bdw: mov (8) r2<1>:hf r4<8;8,1>:f
    let mut p = mov8();
    types(&mut p, HF, &[F]);
    assert_only_among(&p, "mixed.dst-stride-exec-ratio-bdw", &[Bdw], GEN8P);
    p.dst_hstride = 2;
    assert_only_valid_on(&p, GEN8P);
}
