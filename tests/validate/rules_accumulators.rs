//! spec/rules/accumulators.toml: explicit and implicit accumulator use.

use crate::rules_util;

use euref::spec::DataType::*;
use euref::spec::Platform::Ivb;
use euref::spec::{ArfKind, CondMod, MathFn, Opcode};
use rules_util::*;

#[test]
fn accumulator_baselines_are_valid() {
    // mov (8) r2<1>:f acc0<8;8,1>:f ; mov (8) acc0<1>:f r4<8;8,1>:f
    let mut p = mov8();
    arf_src(&mut p, 0, ArfKind::Acc, 0, 0);
    assert_valid(&p);
    let mut q = mov8();
    arf_dst(&mut q, ArfKind::Acc, 0, 0);
    assert_valid(&q);
    // mov (16) acc0<1>:f r4<8;8,1>:f: SIMD16 float continues in acc1, except on Ivy Bridge
    // (seed000 §3.3.3.5: no SIMD16 float with an explicit accumulator).
    let mut r = insn(Opcode::Mov, 16, 1);
    arf_dst(&mut r, ArfKind::Acc, 0, 0);
    assert_only(&r, "acc.simd16-float-explicit", &[Ivb]);
    // The same as a source, and SIMD8 is fine.
    let mut s = insn(Opcode::Mov, 16, 1);
    arf_src(&mut s, 0, ArfKind::Acc, 0, 0);
    assert_only(&s, "acc.simd16-float-explicit", &[Ivb]);
    s.exec_size = 8;
    assert_valid(&s);
}

#[test]
fn explicit_accumulator_only_as_src0() {
    // acc.explicit-src0-only: add (8) r2<1>:f r4<8;8,1>:f acc0<8;8,1>:f
    let mut p = add8();
    arf_src(&mut p, 1, ArfKind::Acc, 0, 0);
    assert_only(&p, "acc.explicit-src0-only", ALL);
    let mut q = add8();
    arf_src(&mut q, 0, ArfKind::Acc, 0, 0);
    assert_valid(&q);
}

#[test]
fn source_and_destination_name_the_same_accumulator() {
    // acc.same-register: mov (8) acc1<1>:f acc0<8;8,1>:f
    let mut p = mov8();
    arf_dst(&mut p, ArfKind::Acc, 1, 0);
    arf_src(&mut p, 0, ArfKind::Acc, 0, 0);
    assert_only(&p, "acc.same-register", ALL);
    p.dst_reg = 0;
    assert_valid(&p);
    // With the ARF type in the high nibble (0x21 is acc1) the rule reads the same.
    p.dst_reg = 0x21;
    p.src_reg[0] = 0x21;
    assert_valid(&p);
}

#[test]
fn explicit_accumulator_source_not_swizzled() {
    // acc.no-swizzle: add (8) r2<1>:f acc0.xxxx:f r6:f (Align16)
    let mut p = add8();
    align16(&mut p);
    arf_src(&mut p, 0, ArfKind::Acc, 0, 0);
    p.src_swizzled[0] = true;
    assert_only(&p, "acc.no-swizzle", ALL);
    p.src_swizzled[0] = false;
    assert_valid(&p);
    // A GRF source may be swizzled.
    p.src_swizzled[1] = true;
    assert_valid(&p);
}

#[test]
fn accumulator_source_region_matches_the_destination() {
    // acc.src-region-matches-dst: mov (8) r2<2>:f acc0<8;8,1>:f
    let mut p = mov8();
    arf_src(&mut p, 0, ArfKind::Acc, 0, 0);
    p.dst_hstride = 2;
    assert_only_and_ivb_native_half(&p, "acc.src-region-matches-dst", ALL);
    region(&mut p, 0, 16, 8, 2);
    assert_only_and_ivb_native_half(&p, "acc.src-region-matches-dst", NONE);
    // seed004: mov(8) r3<1>:f acc0.0<8;4,2>:hf -- one HF per DWord channel.
    let mut q = mov8();
    types(&mut q, F, &[HF]);
    arf_src(&mut q, 0, ArfKind::Acc, 0, 0);
    region(&mut q, 0, 8, 4, 2);
    assert_only_valid_on(&q, GEN8P);
    // Half floats may sit in the upper word: mov (8) r2<2>:hf acc0.1<16;8,2>:hf
    let mut r = mov8();
    types(&mut r, HF, &[HF]);
    r.dst_hstride = 2;
    arf_src(&mut r, 0, ArfKind::Acc, 0, 2);
    region(&mut r, 0, 16, 8, 2);
    assert_only_valid_on(&r, GEN8P);
    // ... integer words may not.
    types(&mut r, W, &[W]);
    assert_only(&r, "acc.src-region-matches-dst", ALL);
}

#[test]
fn dword_accumulator_holds_8_channels_of_acc0() {
    // acc.dword-simd8-acc0: mov (16) acc0<1>:d r4<8;8,1>:d
    let mut p = insn(Opcode::Mov, 16, 1);
    types(&mut p, D, &[D]);
    arf_dst(&mut p, ArfKind::Acc, 0, 0);
    assert_only(&p, "acc.dword-simd8-acc0", ALL);
    p.exec_size = 8;
    assert_valid(&p);
    // Implicitly: add (16) r2<1>:d r4<8;8,1>:d r6<8;8,1>:d {AccWrEn}
    let mut q = insn(Opcode::Add, 16, 2);
    types(&mut q, D, &[D, D]);
    q.acc_wr_ctrl = true;
    assert_only(&q, "acc.dword-simd8-acc0", ALL);
    q.acc_wr_ctrl = false;
    assert_valid(&q);
    // acc1 with DWords also breaks acc.acc1-float-only.
    p.dst_reg = 1;
    for &pl in ALL {
        assert_eq!(
            ids_on(&p, pl),
            ["acc.dword-simd8-acc0", "acc.acc1-float-only"]
        );
    }
}

#[test]
fn acc1_is_float_only() {
    // acc.acc1-float-only: mov (8) acc1<1>:w r4<8;8,1>:w
    let mut p = mov8();
    types(&mut p, W, &[W]);
    arf_dst(&mut p, ArfKind::Acc, 1, 0);
    assert_only(&p, "acc.acc1-float-only", ALL);
    types(&mut p, F, &[F]);
    assert_valid(&p);
}

#[test]
fn accumulator_has_no_byte_type() {
    // acc.no-byte-type: mov (8) acc0<1>:b r4<8;8,1>:b
    let mut p = mov8();
    types(&mut p, B, &[B]);
    arf_dst(&mut p, ArfKind::Acc, 0, 0);
    assert_only(&p, "acc.no-byte-type", ALL);
    types(&mut p, W, &[W]);
    assert_valid(&p);
}

#[test]
fn accumulator_has_no_qword_integer_type_on_low_power_parts() {
    // acc.no-qword-int-type: mov (4) acc0<1>:q r4<4;4,1>:q (Q exists from Gen8)
    let mut p = insn(Opcode::Mov, 4, 1);
    types(&mut p, Q, &[Q]);
    arf_dst(&mut p, ArfKind::Acc, 0, 0);
    // On chv and bxt a 64-bit operation must not use ARF registers either.
    for &pl in LP {
        assert_eq!(ids_on(&p, pl), ["acc.no-qword-int-type", "qword.no-arf"]);
    }
    assert_only_valid_on(&p, &[Bdw, Skl]);
    // The same for a 64-bit accumulator source read into DWords: mov (4) r2<2>:d acc0<4;4,1>:q
    let mut q = insn(Opcode::Mov, 4, 1);
    types(&mut q, D, &[Q]);
    q.dst_hstride = 2;
    arf_src(&mut q, 0, ArfKind::Acc, 0, 0);
    assert!(ids_on(&q, Bxt).contains(&"acc.no-qword-int-type"));
    assert_only_valid_on(&q, &[Bdw, Skl]);
}

#[test]
fn word_accumulator_writes_use_the_lower_word() {
    // acc.word-dst-lower-word: mov (8) acc0.1<2>:w r4<8;8,1>:w
    let mut p = mov8();
    types(&mut p, W, &[W]);
    arf_dst(&mut p, ArfKind::Acc, 0, 2);
    p.dst_hstride = 2;
    assert_only(&p, "acc.word-dst-lower-word", GEN8P);
    p.dst_subreg = 0;
    assert_valid(&p);
    // Half floats may use the upper word: mov (8) acc0.1<2>:hf r4<8;8,1>:hf
    types(&mut p, HF, &[HF]);
    p.dst_subreg = 2;
    assert_only_valid_on(&p, GEN8P);
}

#[test]
fn acc2_to_acc9_by_mov_only() {
    // acc.acc2-9-mov-only: add (8) acc2<1>:d r4<8;8,1>:d r6<8;8,1>:d
    let mut p = add8();
    types(&mut p, D, &[D, D]);
    arf_dst(&mut p, ArfKind::Acc, 2, 0);
    assert_only(&p, "acc.acc2-9-mov-only", GEN8P);
    // seed004: mov (8) acc2:ud r10:ud and mov (8) r10:ud acc2:ud
    let mut q = mov8();
    types(&mut q, UD, &[UD]);
    arf_dst(&mut q, ArfKind::Acc, 2, 0);
    assert_valid(&q);
    let mut r = mov8();
    types(&mut r, UD, &[UD]);
    arf_src(&mut r, 0, ArfKind::Acc, 2, 0);
    assert_valid(&r);
}

#[test]
fn acc2_to_acc9_without_modifiers() {
    // acc.acc2-9-no-modifiers: mov.sat (8) acc2<1>:d r4<8;8,1>:d
    let mut p = mov8();
    types(&mut p, D, &[D]);
    arf_dst(&mut p, ArfKind::Acc, 9, 0);
    p.saturate = true;
    assert_only(&p, "acc.acc2-9-no-modifiers", GEN8P);
    p.saturate = false;
    p.cond_mod = CondMod::Z;
    assert_only(&p, "acc.acc2-9-no-modifiers", GEN8P);
    p.cond_mod = CondMod::None;
    p.src_negate[0] = true;
    assert_only(&p, "acc.acc2-9-no-modifiers", GEN8P);
    p.src_negate[0] = false;
    assert_valid(&p);
}

#[test]
fn acc2_to_acc9_hold_dwords() {
    // acc.acc2-9-dword-type: mov (8) acc2<1>:f r4<8;8,1>:f
    let mut p = mov8();
    arf_dst(&mut p, ArfKind::Acc, 2, 0);
    assert_only(&p, "acc.acc2-9-dword-type", GEN8P);
    types(&mut p, D, &[D]);
    assert_valid(&p);
}

#[test]
fn accumulator_macros_are_align16() {
    // acc.macro-align16: math.invm (8) r2<1>:f r4<8;8,1>:f r6<8;8,1>:f in Align1
    let mut p = math8(MathFn::Invm);
    assert_only(&p, "acc.macro-align16", GEN8P);
    align16(&mut p);
    assert_valid(&p);
    // madm in Align1 is also a three-source instruction in Align1.
    let mut q = insn(Opcode::Madm, 8, 3);
    for &pl in GEN8P {
        assert_eq!(
            ids_on(&q, pl),
            ["acc.macro-align16", "op.three-src-align16"]
        );
    }
    align16(&mut q);
    assert_only_valid_on(&q, GEN8P);
}

#[test]
fn dword_multiply_does_not_negate_ud() {
    // acc.mul-ud-negate: mul (4) r2<2>:ud -r4<8;4,2>:ud r6<8;4,2>:ud
    let mut p = insn(Opcode::Mul, 4, 2);
    types(&mut p, UD, &[UD, UD]);
    p.dst_hstride = 2;
    region(&mut p, 0, 8, 4, 2);
    region(&mut p, 1, 8, 4, 2);
    p.src_negate[0] = true;
    assert_only(&p, "acc.mul-ud-negate", ALL);
    types(&mut p, D, &[D, D]);
    assert_valid(&p);
}

#[test]
fn accumulator_read_with_the_written_type() {
    // acc.read-type-matches-write: a runtime rule.
    let mut p = mov8();
    arf_src(&mut p, 0, ArfKind::Acc, 0, 0);
    p.acc_read_type_mismatch = true;
    assert_valid(&p);
    p.runtime = true;
    assert_only(&p, "acc.read-type-matches-write", ALL);
    p.acc_read_type_mismatch = false;
    assert_valid(&p);
}
