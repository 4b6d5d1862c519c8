//! spec/rules/special.toml: seed004's Special Restrictions (Gen8+) and the send
//! rules of Mesa's validator.

use crate::rules_util;

use euref::spec::DataType::*;
use euref::spec::{AccessMode, Opcode};
use rules_util::*;

#[test]
fn flow_control_is_align1_from_gen8() {
    // special.flow-align1: if (8) in Align16 (used by the Gen7 vec4 backend).
    let mut p = insn(Opcode::If, 8, 0);
    p.access_mode = AccessMode::Align16;
    assert_only(&p, "special.flow-align1", GEN8P);
    p.access_mode = AccessMode::Align1;
    assert_valid(&p);
}

#[test]
fn align16_conversion_uses_one_register_each() {
    // special.align16-conversion-one-reg: mov (16) r2<1>:f r4<4>:w (Align16)
    let mut p = insn(Opcode::Mov, 16, 1);
    types(&mut p, F, &[W]);
    align16(&mut p);
    assert_only_among(&p, "special.align16-conversion-one-reg", GEN8P, GEN8P);
    assert_eq!(ids_on(&p, Ivb), ["op.ivb-align16-no-compressed-dword"]);
    assert_only_valid_on(&p, &[Hsw]);
    p.exec_size = 8;
    assert_valid(&p);
}

#[test]
fn align16_destination_register_from_one_source_register() {
    // special.align16-dst-reg-from-one-src-reg: seed004's
    // mad (8) r10.0:f r12.0<0>:f r14.4:f r16.0:f (src1 spans r14 and r15)
    let mut p = mad8();
    scalar(&mut p, 0);
    p.src_subreg[1] = 16;
    assert_only(&p, "special.align16-dst-reg-from-one-src-reg", GEN8P);
    // ... and its legal mul (8) r10.0:f r11.0:f r12.4<0>:f
    let mut q = add8();
    q.opcode = Opcode::Mul;
    align16(&mut q);
    q.src_vstride[1] = 0;
    q.src_subreg[1] = 16;
    assert_valid(&q);
}

#[test]
fn integer_hf_conversion_dword_strided() {
    // special.int-hf-conversion-dword-dst: add (8) r10<1>:hf r11<8;8,1>:w r12<8;8,1>:w
    let mut p = add8();
    types(&mut p, HF, &[W, W]);
    assert_only_among(&p, "special.int-hf-conversion-dword-dst", GEN8P, GEN8P);
    for &pl in GEN7 {
        assert_eq!(ids_on(&p, pl), ["op.types-unsupported"]);
    }
    p.dst_hstride = 2;
    assert_only_valid_on(&p, GEN8P);
    // mov (8) r10.1<2>:w r11<8;8,1>:hf: DWord strided but not DWord aligned.
    let mut q = mov8();
    types(&mut q, W, &[HF]);
    q.dst_hstride = 2;
    q.dst_subreg = 2;
    assert_only_among(&q, "special.int-hf-conversion-dword-dst", GEN8P, GEN8P);
    q.dst_subreg = 0;
    assert_only_valid_on(&q, GEN8P);
    // mov (8) r10<1>:d r11<8;8,1>:hf: a DWord destination is DWord strided.
    let mut r = mov8();
    types(&mut r, D, &[HF]);
    assert_only_valid_on(&r, GEN8P);
}

#[test]
fn compressed_second_half_must_not_read_the_first_half_destination() {
    // special.compressed-src-dst-overlap: add (16) r3<1>:f r2<8;8,1>:f r6<8;8,1>:f
    let mut p = insn(Opcode::Add, 16, 2);
    p.dst_reg = 3;
    p.src_reg[0] = 2;
    assert_only(&p, "special.compressed-src-dst-overlap", LP);
    // In place is fine: add (16) r2<1>:f r2<8;8,1>:f r6<8;8,1>:f
    p.dst_reg = 2;
    assert_valid(&p);
    // A scalar source in the first destination register is read by both halves.
    let mut q = insn(Opcode::Add, 16, 2);
    q.src_reg[1] = 2;
    scalar(&mut q, 1);
    assert_only(&q, "special.compressed-src-dst-overlap", LP);
    // 64-bit SIMD8 is compressed too: add (8) r22<1>:q r19<4;4,1>:q -r21<4;4,1>:q
    // (Mesa's code for bdw and skl, where euref does not apply the rule).
    let mut r = insn(Opcode::Add, 8, 2);
    types(&mut r, Q, &[Q, Q]);
    region(&mut r, 0, 4, 4, 1);
    region(&mut r, 1, 4, 4, 1);
    r.dst_reg = 22;
    r.src_reg = [19, 21, 0];
    r.src_negate[1] = true;
    assert_only_among(&r, "special.compressed-src-dst-overlap", LP, GEN8P);
}

#[test]
fn preemptible_compressed_vx1_uses_several_index_registers() {
    // special.preemption-compressed-multi-index: mov (16) r2<1>:d r[a0.0]<8,1>:d
    let mut p = insn(Opcode::Mov, 16, 1);
    types(&mut p, D, &[D]);
    p.src_indirect[0] = true;
    p.src_indirect_multi[0] = true;
    region(&mut p, 0, 15, 8, 1);
    assert_valid(&p); // not in a pre-emptible context
    p.preemptible = true;
    assert_only(&p, "special.preemption-compressed-multi-index", GEN8P);
    // <4,1>: each half uses two index registers.
    p.src_width[0] = 4;
    assert_valid(&p);
}

#[test]
fn send_payload_is_a_direct_grf() {
    // special.send-src0-grf-direct
    let mut p = send8();
    p.src_indirect[0] = true;
    assert_only(&p, "special.send-src0-grf-direct", ALL);
    p.src_indirect[0] = false;
    null_src(&mut p, 0);
    assert_only(&p, "special.send-src0-grf-direct", ALL);
}

#[test]
fn eot_send_uses_g112_to_g127() {
    // special.eot-src0-g112: send (8) null r100 ... {EOT}
    let mut p = send8();
    p.eot = true;
    null_dst(&mut p);
    p.src_reg[0] = 100;
    assert_only(&p, "special.eot-src0-g112", ALL);
    p.src_reg[0] = 112;
    assert_valid(&p);
}
