//! spec/rules/arf.toml: ARF operand placement and regions, cr0, read-only
//! registers, the send descriptor, Single Program Flow.

use crate::rules_util;

use euref::spec::DataType::*;
use euref::spec::{ArfKind, Opcode, RegFile};
use rules_util::*;

#[test]
fn arf_only_as_destination_or_src0() {
    // arf.dst-or-src0-only: and (1) r2<1>:ud r4<0;1,0>:ud f0.0<0;1,0>:ud
    let mut p = insn(Opcode::And, 1, 2);
    types(&mut p, UD, &[UD, UD]);
    scalar(&mut p, 0);
    scalar(&mut p, 1);
    arf_src(&mut p, 1, ArfKind::Flag, 0, 0);
    assert_only(&p, "arf.dst-or-src0-only", ALL);
    // and (1) r2<1>:ud f0.0<0;1,0>:ud r4<0;1,0>:ud
    let mut q = insn(Opcode::And, 1, 2);
    types(&mut q, UD, &[UD, UD]);
    scalar(&mut q, 0);
    scalar(&mut q, 1);
    arf_src(&mut q, 0, ArfKind::Flag, 0, 0);
    assert_valid(&q);
}

#[test]
fn arf_region_stays_in_the_register() {
    // arf.region-within-register: mov (8) r2<1>:ud sr0.2<8;8,1>:ud (bytes 8-39)
    let mut p = mov8();
    types(&mut p, UD, &[UD]);
    arf_src(&mut p, 0, ArfKind::State, 0, 8);
    assert_only(&p, "arf.region-within-register", ALL);
    // mov (4) r2<1>:ud sr0.0<4;4,1>:ud
    let mut q = insn(Opcode::Mov, 4, 1);
    types(&mut q, UD, &[UD]);
    arf_src(&mut q, 0, ArfKind::State, 0, 0);
    assert_valid(&q);
    // A destination: mov (8) a0.8<1>:ud r4<8;8,1>:ud (bytes 16-47)
    let mut r = mov8();
    types(&mut r, UD, &[UD]);
    arf_dst(&mut r, ArfKind::Address, 0, 16);
    assert_only_among(&r, "arf.region-within-register", ALL, GEN8P);
}

#[test]
fn explicit_a0_within_128_bits_on_gen7() {
    // arf.a0-explicit-within-16-bytes: mov (8) a0.4<1>:uw r4<8;8,1>:uw (bytes 8-23)
    let mut p = mov8();
    types(&mut p, UW, &[UW]);
    arf_dst(&mut p, ArfKind::Address, 0, 8);
    assert_only(&p, "arf.a0-explicit-within-16-bytes", GEN7);
    // seed000: mov (8) r1.0<1>:uw a0.0<8;8,1>:uw
    let mut q = mov8();
    types(&mut q, UW, &[UW]);
    arf_src(&mut q, 0, ArfKind::Address, 0, 0);
    assert_valid(&q);
}

#[test]
fn control_register_access_needs_switch() {
    // arf.cr0-switch: mov (1) cr0.0<1>:ud r4<0;1,0>:ud
    let mut p = insn(Opcode::Mov, 1, 1);
    types(&mut p, UD, &[UD]);
    scalar(&mut p, 0);
    arf_dst(&mut p, ArfKind::Control, 0, 0);
    assert_only(&p, "arf.cr0-switch", ALL);
    p.switch = true;
    assert_valid(&p);
}

#[test]
fn read_only_registers_are_not_written() {
    // arf.write-read-only: mov (1) tdr0.0<1>:uw r4<0;1,0>:uw
    let mut p = insn(Opcode::Mov, 1, 1);
    types(&mut p, UW, &[UW]);
    scalar(&mut p, 0);
    arf_dst(&mut p, ArfKind::Tdr, 0, 0);
    assert_only(&p, "arf.write-read-only", ALL);
    let r = &euref::spec::rules::RULES;
    let rule = r.iter().find(|r| r.id == "arf.write-read-only").unwrap();
    assert_eq!(rule.undefined, "none");
    // wait decrements n0, its destination, by design.
    let mut w = insn(Opcode::Wait, 1, 1);
    types(&mut w, UD, &[UD]);
    arf_dst(&mut w, ArfKind::Notification, 0, 0);
    arf_src(&mut w, 0, ArfKind::Notification, 0, 0);
    scalar(&mut w, 0);
    assert_valid(&w);
    w.opcode = Opcode::Mov;
    assert_only(&w, "arf.write-read-only", ALL);
    // sr0 is writable.
    p.dst_arf = ArfKind::State;
    p.dst_type = UD;
    p.src_type[0] = UD;
    assert_valid(&p);
}

#[test]
fn send_descriptor_from_a0_0_ud_scalar() {
    // arf.send-desc-a0-0-ud: send (8) r10 r112 a0.1<0;1,0>:ud
    let mut p = send8();
    p.desc_file = RegFile::Arf;
    p.desc_arf = ArfKind::Address;
    p.desc_type = UD;
    p.desc_scalar = true;
    p.desc_subreg = 4;
    assert_only(&p, "arf.send-desc-a0-0-ud", ALL);
    p.desc_subreg = 0;
    assert_valid(&p);
    p.desc_type = UW;
    assert_only(&p, "arf.send-desc-a0-0-ud", ALL);
    p.desc_type = UD;
    p.desc_scalar = false;
    assert_only(&p, "arf.send-desc-a0-0-ud", ALL);
    p.desc_file = RegFile::Grf;
    p.desc_scalar = true;
    assert_only(&p, "arf.send-desc-a0-0-ud", ALL);
}

#[test]
fn single_program_flow_uses_the_first_channels() {
    // arf.spf-h1-q1-n1: add (8) ... {Q2} with cr0.0 SPF set
    let mut p = add8();
    p.chan_offset = 8;
    assert_valid(&p);
    p.spf = true;
    assert_only(&p, "arf.spf-h1-q1-n1", ALL);
    p.chan_offset = 0;
    assert_valid(&p);
}
