//! spec/rules/qword.toml: 64-bit types and integer DWord multiply on the
//! low-power parts (chv, bxt), and the Align16 QWord execution size limit.

use crate::rules_util;

use euref::spec::DataType::*;
use euref::spec::Opcode;
use rules_util::*;

/// `mov (4) r2<1>:df r4<4;4,1>:df`
fn mov4_df() -> euref::spec::PropsRecord {
    let mut p = insn(Opcode::Mov, 4, 1);
    types(&mut p, DF, &[DF]);
    p
}

/// `mul (4) r2<2>:d r4<8;4,2>:d r6<8;4,2>:d` (seed004's integer DWord multiply example)
fn mul4_d() -> euref::spec::PropsRecord {
    let mut p = insn(Opcode::Mul, 4, 2);
    types(&mut p, D, &[D, D]);
    p.dst_hstride = 2;
    region(&mut p, 0, 8, 4, 2);
    region(&mut p, 1, 8, 4, 2);
    p
}

#[test]
fn seed_examples_are_valid() {
    assert_valid(&mov4_df());
    assert_valid(&mul4_d());
    // mov (4) r10.0:df r11.0<16;8,2>:f -- here mov (4) r2<1>:df r4<8;4,2>:f
    let mut p = insn(Opcode::Mov, 4, 1);
    types(&mut p, DF, &[F]);
    region(&mut p, 0, 8, 4, 2);
    assert_valid(&p);
    // mov (4) r10.0<2>:f r11.0<4;4,1>:df
    let mut q = mov4_df();
    q.dst_type = F;
    q.dst_hstride = 2;
    assert_valid(&q);
}

#[test]
fn strides_aligned_to_the_same_qword() {
    // qword.stride-same-qword: mov (4) r2<1>:df r4<4;4,1>:f
    let mut p = insn(Opcode::Mov, 4, 1);
    types(&mut p, DF, &[F]);
    assert_only(&p, "qword.stride-same-qword", LP);
    // Scalar sources are exempt.
    scalar(&mut p, 0);
    assert_valid(&p);
    // Integer DWord multiply with packed DWords.
    let mut q = mul4_d();
    q.dst_hstride = 1;
    region(&mut q, 0, 4, 4, 1);
    region(&mut q, 1, 4, 4, 1);
    let mut got = ids_on(&q, Chv);
    got.dedup();
    assert_eq!(got, ["qword.stride-same-qword"]);
    assert_only_valid_on(&q, &[Ivb, Hsw, Bdw, Skl]);
}

#[test]
fn vstride_is_width_times_hstride() {
    // qword.vstride-width-hstride: mov (4) r2<1>:df r4<4;2,1>:df
    let mut p = mov4_df();
    region(&mut p, 0, 4, 2, 1);
    assert_only(&p, "qword.vstride-width-hstride", LP);
    region(&mut p, 0, 2, 2, 1);
    assert_valid(&p);
}

#[test]
fn same_offset_except_scalars() {
    // qword.same-offset: mov (2) r2.1<1>:df r4<2;2,1>:df
    let mut p = insn(Opcode::Mov, 2, 1);
    types(&mut p, DF, &[DF]);
    p.dst_subreg = 8;
    assert_only(&p, "qword.same-offset", LP);
    p.src_subreg[0] = 8;
    assert_valid(&p);
    // A scalar source may sit anywhere.
    p.src_subreg[0] = 16;
    scalar(&mut p, 0);
    assert_valid(&p);
}

#[test]
fn no_indirect_addressing() {
    // qword.no-indirect: mov (4) r[a0.0]<1>:df r4<4;4,1>:df
    let mut p = mov4_df();
    p.dst_indirect = true;
    assert_only(&p, "qword.no-indirect", LP);
    p.dst_indirect = false;
    p.src_indirect[0] = true;
    assert_only(&p, "qword.no-indirect", LP);
    p.src_indirect[0] = false;
    assert_valid(&p);
}

#[test]
fn no_architecture_registers() {
    // qword.no-arf: mov (4) r2<1>:df r4<4;4,1>:df {AccWrEn}
    let mut p = mov4_df();
    p.acc_wr_ctrl = true;
    assert_only(&p, "qword.no-arf", LP);
    p.acc_wr_ctrl = false;
    assert_valid(&p);
    // The null register is fine: mov (4) null<1>:df r4<4;4,1>:df
    null_dst(&mut p);
    assert_valid(&p);
}

#[test]
fn no_dependency_control() {
    // qword.no-depctrl: mul (4) r2<2>:d r4<8;4,2>:d r6<8;4,2>:d {NoDDClr}
    let mut p = mul4_d();
    p.dep_ctrl = true;
    assert_only(&p, "qword.no-depctrl", LP);
    // A word multiply is not restricted.
    types(&mut p, D, &[D, W]);
    assert_valid(&p);
}

#[test]
fn align16_qword_destination_from_narrower_source() {
    // qword.align16-qword-dst-exec-le-2: mov (4) r2<1>:df r4<4>:f (Align16; Mesa's case)
    let mut p = insn(Opcode::Mov, 4, 1);
    types(&mut p, DF, &[F]);
    align16(&mut p);
    assert_only(&p, "qword.align16-qword-dst-exec-le-2", GEN8P);
    p.exec_size = 2;
    assert_valid(&p);
    // add (4) r2<1>:q r4<4>:d r6<4>:d: Q exists from Gen8 only.
    let mut q = insn(Opcode::Add, 4, 2);
    types(&mut q, Q, &[D, D]);
    align16(&mut q);
    assert_only_among(&q, "qword.align16-qword-dst-exec-le-2", GEN8P, GEN8P);
}
