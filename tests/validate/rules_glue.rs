//! The validator glue (euref::validate::fill_table_props, fill_derived_props):
//! properties looked up from spec/opcodes.toml, spec/types.toml and
//! spec/registers.toml, and the derived properties of spec/properties.toml.

use crate::rules_util;

use euref::spec::DataType::*;
use euref::spec::{ArfKind, Opcode, OpcodeClass, PropsRecord};
use euref::validate::{fill_derived_props, fill_table_props};
use rules_util::*;

fn table(p: &PropsRecord, pl: euref::spec::Platform) -> PropsRecord {
    let mut q = p.clone();
    fill_table_props(pl, &mut q);
    q
}

fn derived(p: &PropsRecord) -> PropsRecord {
    let mut q = p.clone();
    fill_derived_props(&mut q);
    q
}

#[test]
fn opcode_rows_are_looked_up_per_platform() {
    let mut p = mov8();
    p.opcode = Opcode::F32to16;
    assert!(table(&p, Hsw).opcode_on_platform);
    assert!(!table(&p, Bdw).opcode_on_platform);
    p.opcode = Opcode::Csel;
    assert!(!table(&p, Ivb).opcode_on_platform);
    assert!(table(&p, Skl).opcode_on_platform);
    assert_eq!(table(&p, Skl).opcode_class, OpcodeClass::ThreeSrc);
    assert_eq!(table(&mov8(), Skl).opcode_class, OpcodeClass::Alu);
    assert_eq!(table(&send8(), Skl).opcode_class, OpcodeClass::Send);
}

#[test]
fn controls_come_from_the_opcode_row() {
    let mut p = mov8();
    p.opcode = Opcode::Bfi2;
    let q = table(&p, Skl);
    assert!(
        !q.sat_allowed && !q.cmod_allowed && q.pred_allowed && !q.srcmod_allowed && q.accwr_allowed
    );
    let q = table(&mov8(), Ivb);
    assert!(
        q.sat_allowed && q.cmod_allowed && q.pred_allowed && q.srcmod_allowed && q.accwr_allowed
    );
    let q = table(&send8(), Ivb);
    assert!(!q.accwr_allowed);
}

#[test]
fn type_combinations_need_the_types_on_the_platform() {
    let mut p = add8();
    types(&mut p, HF, &[HF, HF]);
    assert!(!table(&p, Hsw).types_allowed);
    assert!(table(&p, Bdw).types_allowed);
    types(&mut p, UD, &[UD, UD]);
    p.opcode = Opcode::Addc;
    assert!(table(&p, Ivb).types_allowed);
    types(&mut p, D, &[UD, UD]);
    assert!(!table(&p, Ivb).types_allowed);
    // Absent sources are not checked; opcodes without combinations allow anything.
    assert!(table(&send8(), Skl).types_allowed);
    let mut m = math8(euref::spec::MathFn::Sin);
    m.src_present[1] = false;
    assert!(table(&m, Skl).types_allowed);
}

#[test]
fn read_only_arf_destinations() {
    let mut p = mov8();
    for (k, ro) in [
        (ArfKind::Tdr, true),
        (ArfKind::Tm, true),
        (ArfKind::Notification, true),
        (ArfKind::State, false),
        (ArfKind::Control, false),
        (ArfKind::Acc, false),
    ] {
        arf_dst(&mut p, k, 0, 0);
        assert_eq!(table(&p, Skl).dst_arf_read_only, ro, "{k:?}");
    }
    let p = mov8();
    assert!(!table(&p, Skl).dst_arf_read_only);
}

#[test]
fn execution_type_is_the_widest_source_as_executed() {
    let mut p = add8();
    for (s0, s1, exec) in [
        (B, B, W),
        (UB, UB, UW),
        (W, D, D),
        (F, HF, F),
        (HF, HF, HF),
        (DF, DF, DF),
        (W, V, W),
        (UW, UV, UW),
        (F, VF, F),
    ] {
        types(&mut p, F, &[s0, s1]);
        assert_eq!(derived(&p).exec_type, exec, "{s0:?} {s1:?}");
    }
}

#[test]
fn derived_flags() {
    let mut p = add8();
    types(&mut p, HF, &[F, F]);
    assert!(derived(&p).mixed_float);
    types(&mut p, F, &[F, F]);
    assert!(!derived(&p).mixed_float);
    types(&mut p, HF, &[W, W]);
    let q = derived(&p);
    assert!(q.int_hf_conversion && !q.mixed_float);
    types(&mut p, W, &[HF, HF]);
    assert!(derived(&p).int_hf_conversion);
    types(&mut p, HF, &[HF, HF]);
    assert!(!derived(&p).int_hf_conversion);
    p.opcode = Opcode::Mul;
    types(&mut p, D, &[D, UD]);
    assert!(derived(&p).int_dword_mul);
    types(&mut p, D, &[D, W]);
    assert!(!derived(&p).int_dword_mul);
}

#[test]
fn spans_and_compression_follow_the_regions() {
    let q = derived(&mov8());
    assert_eq!(
        (q.dst_span_regs, q.src_span_regs[0], q.compressed),
        (1, 1, false)
    );
    let q = derived(&insn(Opcode::Add, 16, 2));
    assert_eq!(
        (q.dst_span_regs, q.src_span_regs[1], q.compressed),
        (2, 2, true)
    );
    // r4.4<4;4,1>:f with ExecSize 16 reads bytes 16..79: three registers.
    let mut p = insn(Opcode::Mov, 16, 1);
    p.src_subreg[0] = 16;
    region(&mut p, 0, 4, 4, 1);
    assert_eq!(derived(&p).src_span_regs[0], 3);
    // Immediates, ARF and indirect operands keep the value given.
    let mut r = mov8();
    imm(&mut r, 0, F, 0);
    assert_eq!(derived(&r).src_span_regs[0], 0);
}
