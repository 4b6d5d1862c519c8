//! spec/rules/alignment.toml: register spans, natural alignment, the GRF range
//! and the two-register rules, each with a violating instruction and a valid
//! neighbour (cases after Mesa's validator tests where they exist).

use crate::rules_util;

use euref::spec::DataType::*;
use euref::spec::{MathFn, Opcode};
use rules_util::*;

#[test]
fn source_spans_at_most_two_registers() {
    // align.src-max-two-regs: mov (8) r2<1>:w r4<32;1,0>:w (eight rows 64 bytes apart)
    let mut p = mov8();
    types(&mut p, W, &[W]);
    region(&mut p, 0, 32, 1, 0);
    assert_only(&p, "align.src-max-two-regs", ALL);
    region(&mut p, 0, 4, 1, 0);
    assert_valid(&p);
}

#[test]
fn destination_spans_at_most_two_registers() {
    // align.dst-max-two-regs: mov (16) r2<4>:w r4<16;8,2>:w
    let mut p = insn(Opcode::Mov, 16, 1);
    types(&mut p, W, &[W]);
    region(&mut p, 0, 16, 8, 2);
    p.dst_hstride = 4;
    assert_only(&p, "align.dst-max-two-regs", ALL);
    p.dst_hstride = 2;
    assert_valid(&p);
}

#[test]
fn elements_are_naturally_aligned() {
    // align.src-natural: mov (4) r2<1>:f r4.2<4;4,1>:f (byte offset 2)
    let mut p = insn(Opcode::Mov, 4, 1);
    p.src_subreg[0] = 2;
    assert_only(&p, "align.src-natural", ALL);
    p.src_subreg[0] = 4;
    assert_valid(&p);
    // align.dst-natural: mov (4) r2.2<1>:f (byte offset 2)
    let mut p = insn(Opcode::Mov, 4, 1);
    p.dst_subreg = 2;
    assert_only(&p, "align.dst-natural", ALL);
    p.dst_subreg = 16;
    assert_valid(&p);
}

#[test]
fn direct_operands_stay_in_r0_r127() {
    // align.src-grf-in-range: mov (16) r2<1>:f r127<8;8,1>:f reads r127-r128.
    let mut p = insn(Opcode::Mov, 16, 1);
    p.src_reg[0] = 127;
    assert_only(&p, "align.src-grf-in-range", ALL);
    p.src_reg[0] = 126;
    assert_valid(&p);
    // align.dst-grf-in-range: mov (16) r127<1>:f r4<8;8,1>:f writes r127-r128.
    let mut p = insn(Opcode::Mov, 16, 1);
    p.dst_reg = 127;
    assert_only(&p, "align.dst-grf-in-range", ALL);
    p.dst_reg = 126;
    assert_valid(&p);
}

#[test]
fn two_register_destination_evenly_split() {
    // align.dst-even-split: add (8) r2.1<1>:f r4<0;1,0>:f r6<0;1,0>:f writes 7 + 1 channels.
    let mut p = add8();
    scalar(&mut p, 0);
    scalar(&mut p, 1);
    p.dst_subreg = 4;
    assert_only_and_ivb_native_half(&p, "align.dst-even-split", &[Ivb, Hsw, Bdw, Chv]);
    p.dst_subreg = 0;
    assert_valid(&p);
    // SIMD16: eight channels in each register.
    let mut q = insn(Opcode::Add, 16, 2);
    assert_valid(&q);
    q.dst_subreg = 4;
    q.dst_hstride = 1;
    scalar(&mut q, 0);
    scalar(&mut q, 1);
    // 16 channels from byte 4: 7 + 8 + 1 over three registers.
    assert_only(&q, "align.dst-max-two-regs", ALL);
}

#[test]
fn math_destination_evenly_split_on_gen9() {
    // align.math-dst-even-split: math sin (8) r2.1<1>:f r4<0;1,0>:f null
    let mut p = math8(MathFn::Sin);
    scalar(&mut p, 0);
    p.dst_subreg = 4;
    assert_eq!(
        ids_on(&p, Ivb),
        ["align.dst-one-reg-per-native-half", "align.dst-even-split"]
    );
    for &pl in &[Hsw, Bdw, Chv] {
        assert_eq!(ids_on(&p, pl), ["align.dst-even-split"], "{}", pl.name());
    }
    for &pl in GEN9 {
        assert_eq!(
            ids_on(&p, pl),
            ["align.math-dst-even-split"],
            "{}",
            pl.name()
        );
    }
    p.dst_subreg = 0;
    assert_valid(&p);
}

#[test]
fn one_register_destination_oword_split() {
    // align.dst-oword-split: add (4) r2.5<1>:w r4<4;4,1>:w r6<16;2,1>:w (Mesa's case)
    let mut p = insn(Opcode::Add, 4, 2);
    types(&mut p, W, &[W, W]);
    region(&mut p, 1, 16, 2, 1);
    p.dst_subreg = 10;
    assert_only(&p, "align.dst-oword-split", &[Ivb, Hsw, Bdw, Chv]);
    // add (8) r2.8<1>:w r4<8;8,1>:w r6<16;4,2>:w: all in the upper OWord.
    let mut q = add8();
    types(&mut q, W, &[W, W]);
    region(&mut q, 1, 16, 4, 2);
    q.dst_subreg = 16;
    assert_valid(&q);
    q.dst_subreg = 0;
    assert_valid(&q);
}

#[test]
fn each_destination_register_from_one_source_register() {
    // align.dst-reg-from-one-src-reg: mov (8) r2.4<1>:f r4.2<2;2,1>:f (Mesa's case):
    // destination channels 0-3 in r2, but source channels 0-5 in r4.
    let mut p = mov8();
    p.dst_subreg = 16;
    p.src_subreg[0] = 8;
    region(&mut p, 0, 2, 2, 1);
    assert_only_and_ivb_native_half(&p, "align.dst-reg-from-one-src-reg", GEN7);
    // mov (8) r2<2>:f r4.4<4;4,1>:f: channels 0-3 in r2 and r4, 4-7 in r3 and r5 (Mesa's
    // valid case; a native SIMD8 instruction, so Ivy Bridge refuses its two-register
    // destination, seed000 §3.3.2).
    let mut q = mov8();
    q.dst_hstride = 2;
    q.src_subreg[0] = 16;
    region(&mut q, 0, 4, 4, 1);
    assert_only(&q, "align.dst-one-reg-per-native-half", &[Ivb]);
    // As SIMD16 (two native halves) it is valid everywhere.
    let r = insn(Opcode::Mov, 16, 1);
    assert_valid(&r);
}

#[test]
fn two_register_sources_start_at_the_same_offset() {
    // align.src-same-offset-both-regs: add (4) r2<4>:f r4.4<2;1,0>:f r6<8;2,1>:f:
    // src0 starts at byte 16 of r4 but at byte 0 of r5.
    let mut p = insn(Opcode::Add, 4, 2);
    p.dst_hstride = 4;
    p.src_subreg[0] = 16;
    region(&mut p, 0, 2, 1, 0);
    region(&mut p, 1, 8, 2, 1);
    assert_only_and_ivb_native_half(&p, "align.src-same-offset-both-regs", GEN7);
    // add (4) r2<4>:f r4<4;1,0>:f r6<8;2,1>:f (Mesa's valid case; a native SIMD4 instruction
    // whose destination spans r2 and r3, which Ivy Bridge refuses, seed000 §3.3.2)
    p.src_subreg[0] = 0;
    region(&mut p, 0, 4, 1, 0);
    assert_only(&p, "align.dst-one-reg-per-native-half", &[Ivb]);
}

#[test]
fn two_register_destination_needs_two_register_sources() {
    // align.dst-two-regs-src-two-regs: add (16) r2<1>:d r4<8;8,1>:d r6<8;8,1>:w
    let mut p = insn(Opcode::Add, 16, 2);
    types(&mut p, D, &[D, W]);
    assert_only(&p, "align.dst-two-regs-src-two-regs", GEN7);
    // The packed-word exception holds for src0 only.
    types(&mut p, D, &[W, D]);
    assert_valid(&p);
    // Scalar sources are not incremented.
    let mut q = insn(Opcode::Add, 16, 2);
    scalar(&mut q, 0);
    scalar(&mut q, 1);
    assert_valid(&q);
    // add (16) r2<2>:w r4<8;8,1>:w r6<0;1,0>:w: src0 is packed word but the
    // destination is not packed DWord.
    let mut r = insn(Opcode::Add, 16, 2);
    types(&mut r, W, &[W, W]);
    r.dst_hstride = 2;
    scalar(&mut r, 1);
    assert_only(&r, "align.dst-two-regs-src-two-regs", GEN7);
}
