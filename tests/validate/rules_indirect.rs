//! spec/rules/indirect.toml: register-indirect regions, the address register,
//! and the runtime address checks (which apply only with execution state).

use crate::rules_util;

use euref::spec::DataType::*;
use euref::spec::{Opcode, PropsRecord};
use rules_util::*;

/// Source `s` becomes `r[a0.N]` with a 1x1 region (N = `addr_byte` / 2).
fn indirect_src(p: &mut PropsRecord, s: usize, addr_byte: i64) {
    p.src_indirect[s] = true;
    p.src_addr_subreg[s] = addr_byte;
}

/// Source `s` becomes the multi-address region `r[a0.N]<width,hstride>` (Vx1, VxH).
fn multi_src(p: &mut PropsRecord, s: usize, addr_byte: i64, width: i64, hstride: i64) {
    indirect_src(p, s, addr_byte);
    p.src_indirect_multi[s] = true;
    region(p, s, 15, width, hstride);
}

#[test]
fn indirect_baselines_are_valid() {
    let mut p = mov8();
    indirect_src(&mut p, 0, 0);
    assert_valid(&p);
    p.dst_indirect = true;
    assert_valid(&p);
    let mut q = mov8();
    multi_src(&mut q, 0, 4, 4, 1);
    assert_valid(&q);
}

#[test]
fn destination_is_1x1() {
    // indirect.dst-1x1: a multi-address destination.
    let mut p = mov8();
    p.dst_indirect = true;
    p.dst_indirect_multi = true;
    assert_only(&p, "indirect.dst-1x1", ALL);
    p.dst_indirect_multi = false;
    assert_valid(&p);
}

#[test]
fn src1_is_1x1() {
    // indirect.src1-1x1: add (8) r2<1>:f r4<8;8,1>:f r[a0.0]<4,1>:f
    let mut p = add8();
    multi_src(&mut p, 1, 0, 4, 1);
    assert_only(&p, "indirect.src1-1x1", ALL);
    // The same region on src0 is fine.
    let mut q = add8();
    multi_src(&mut q, 0, 0, 4, 1);
    assert_valid(&q);
}

#[test]
fn no_simd32_with_vx1_or_vxh() {
    // indirect.no-exec32-multi: mov (32) r2<1>:w r[a0.0]<8,1>:w
    let mut p = insn(Opcode::Mov, 32, 1);
    types(&mut p, W, &[W]);
    multi_src(&mut p, 0, 0, 8, 1);
    assert_only(&p, "indirect.no-exec32-multi", ALL);
    p.exec_size = 16;
    assert_valid(&p);
}

#[test]
fn address_subregister_is_word_aligned() {
    // indirect.a0-word-aligned: r[a0] at byte 1 of a0.
    let mut p = mov8();
    indirect_src(&mut p, 0, 1);
    assert_only(&p, "indirect.a0-word-aligned", ALL);
    p.src_addr_subreg[0] = 2;
    assert_valid(&p);
    let mut q = mov8();
    q.dst_indirect = true;
    q.dst_addr_subreg = 3;
    assert_only(&q, "indirect.a0-word-aligned", ALL);
}

#[test]
fn address_subregisters_group_aligned() {
    // indirect.addr-group-aligned: seed000's mov (8) r1.0<1>:d r[a0.3]<4,1>:d
    let mut p = mov8();
    types(&mut p, D, &[D]);
    multi_src(&mut p, 0, 6, 4, 1);
    assert_only(&p, "indirect.addr-group-aligned", ALL);
    // ... and the legal r[a0.2]<4,1>:d
    p.src_addr_subreg[0] = 4;
    assert_valid(&p);
}

#[test]
fn per_channel_indexing_limited_to_simd8_on_gen7() {
    // indirect.per-channel-exec-le-8: mov (16) r2<1>:w r[a0.0]<1,0>:w
    let mut p = insn(Opcode::Mov, 16, 1);
    types(&mut p, W, &[W]);
    multi_src(&mut p, 0, 0, 1, 0);
    assert_only(&p, "indirect.per-channel-exec-le-8", GEN7);
    p.exec_size = 8;
    assert_valid(&p);
}

#[test]
fn runtime_addresses_within_the_grf() {
    // indirect.src-grf-in-range: the computed source address reaches r128.
    let mut p = mov8();
    indirect_src(&mut p, 0, 0);
    p.src_indirect_reg_min[0] = 120;
    p.src_indirect_reg_max[0] = 128;
    assert_valid(&p); // no execution state: not checked
    p.runtime = true;
    assert_only(&p, "indirect.src-grf-in-range", ALL);
    p.src_indirect_reg_max[0] = 127;
    assert_valid(&p);
    p.src_indirect_reg_min[0] = -1;
    assert_only(&p, "indirect.src-grf-in-range", ALL);

    // indirect.dst-grf-in-range
    let mut q = mov8();
    q.dst_indirect = true;
    q.runtime = true;
    q.dst_indirect_reg_min = 127;
    q.dst_indirect_reg_max = 128;
    assert_only(&q, "indirect.dst-grf-in-range", ALL);
    q.dst_indirect_reg_max = 127;
    assert_valid(&q);
}

#[test]
fn runtime_addresses_aligned_to_the_type() {
    // indirect.src-type-aligned
    let mut p = mov8();
    indirect_src(&mut p, 0, 0);
    p.runtime = true;
    p.src_indirect_misaligned[0] = true;
    assert_only(&p, "indirect.src-type-aligned", ALL);
    p.src_indirect_misaligned[0] = false;
    assert_valid(&p);
    // indirect.dst-type-aligned
    let mut q = mov8();
    q.dst_indirect = true;
    q.runtime = true;
    q.dst_indirect_misaligned = true;
    assert_only(&q, "indirect.dst-type-aligned", ALL);
    q.runtime = false;
    assert_valid(&q);
}
