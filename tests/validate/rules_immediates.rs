//! spec/rules/immediates.toml: vector immediates, B/UB immediates, replicated
//! word immediates.

use crate::rules_util;

use euref::spec::DataType::*;
use euref::spec::Opcode;
use rules_util::*;

#[test]
fn vector_immediate_destination_oword_aligned() {
    // imm.vector-dst-oword-aligned: mov (4) r2.2<1>:f 0x0:vf
    let mut p = insn(Opcode::Mov, 4, 1);
    imm(&mut p, 0, VF, 0);
    p.dst_subreg = 8;
    assert_only(&p, "imm.vector-dst-oword-aligned", ALL);
    p.dst_subreg = 16;
    assert_valid(&p);
    // mov (8) r2.4<1>:w 0x0:v
    let mut q = mov8();
    types(&mut q, W, &[W]);
    imm(&mut q, 0, V, 0);
    q.dst_subreg = 8;
    assert_only(&q, "imm.vector-dst-oword-aligned", ALL);
    q.src_type[0] = UV;
    assert_only(&q, "imm.vector-dst-oword-aligned", ALL);
    q.dst_subreg = 0;
    assert_valid(&q);
}

#[test]
fn vector_immediate_destination_stride() {
    // imm.vector-dst-stride: mov (8) r2<2>:f 0x0:vf (Mesa's case)
    let mut p = mov8();
    imm(&mut p, 0, VF, 0);
    p.dst_hstride = 2;
    assert_only_and_ivb_native_half(&p, "imm.vector-dst-stride", ALL);
    p.dst_hstride = 1;
    assert_valid(&p);
    // mov (8) r2<4>:b 0x0:vf -- a DWord stride in bytes.
    p.dst_type = B;
    p.dst_hstride = 4;
    assert_valid(&p);
    // mov (8) r2<2>:w 0x0:v
    let mut q = mov8();
    types(&mut q, W, &[W]);
    imm(&mut q, 0, V, 0);
    q.dst_hstride = 2;
    assert_only(&q, "imm.vector-dst-stride", ALL);
    // mov (8) r2<2>:b 0x0:uv -- a word stride in bytes.
    q.dst_type = B;
    q.src_type[0] = UV;
    assert_valid(&q);
}

#[test]
fn byte_immediates_are_reserved() {
    // imm.no-byte: add (8) r2<1>:w r4<8;8,1>:w 0x1:b
    let mut p = add8();
    types(&mut p, W, &[W, W]);
    imm(&mut p, 1, B, 1);
    assert_only(&p, "imm.no-byte", ALL);
    imm(&mut p, 1, W, 0x0001_0001);
    assert_valid(&p);
}

#[test]
fn word_immediates_are_replicated() {
    // imm.word-replicated: add (8) r2<1>:w r4<8;8,1>:w 0x1:w with only the low word set
    let mut p = add8();
    types(&mut p, W, &[W, W]);
    imm(&mut p, 1, W, 0x0000_0001);
    assert_only(&p, "imm.word-replicated", ALL);
    p.src_imm_bits[1] = 0x0001_0001;
    assert_valid(&p);
    // UW 0xffff
    p.src_type[1] = UW;
    p.src_imm_bits[1] = 0xffff_ffff;
    assert_valid(&p);
    p.src_imm_bits[1] = 0xffff;
    assert_only(&p, "imm.word-replicated", ALL);
}
