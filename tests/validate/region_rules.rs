//! The region rules of spec/rules/regions.toml, compiled from their expressions:
//! for each rule an instruction that violates only that rule (the validator
//! names exactly it) and a close neighbour that is valid.

use euref::spec::{AccessMode, DataType, Opcode, Platform, PropsRecord, RegFile};
use euref::validate::violations;

/// `mov (8) r2.0<1>:f r4.0<8;8,1>:f`
fn mov8() -> PropsRecord {
    let mut p = PropsRecord {
        opcode: Opcode::Mov,
        exec_size: 8,
        exec_type: DataType::F,
        access_mode: AccessMode::Align1,
        num_srcs: 1,
        dst_file: RegFile::Grf,
        dst_type: DataType::F,
        dst_reg: 2,
        dst_hstride: 1,
        dst_span_regs: 1,
        // Looked up from spec/opcodes.toml by the validator glue (mov F <- F is legal
        // everywhere with every control).
        opcode_on_platform: true,
        types_allowed: true,
        sat_allowed: true,
        cmod_allowed: true,
        pred_allowed: true,
        srcmod_allowed: true,
        accwr_allowed: true,
        ..Default::default()
    };
    p.src_present = [true, false, false];
    p.src_file = [RegFile::Grf, RegFile::Grf, RegFile::Grf];
    p.src_type = [DataType::F, DataType::UB, DataType::UB];
    p.src_reg = [4, 0, 0];
    p.src_vstride = [8, 0, 0];
    p.src_width = [8, 1, 1];
    p.src_hstride = [1, 0, 0];
    p.src_span_regs = [1, 0, 0];
    p
}

fn ids(p: &PropsRecord) -> Vec<String> {
    Platform::ALL
        .iter()
        .flat_map(|pl| violations(*pl, p))
        .map(|v| v.rule.id.to_string())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

fn region(p: &mut PropsRecord, s: usize, v: i64, w: i64, h: i64) {
    p.src_vstride[s] = v;
    p.src_width[s] = w;
    p.src_hstride[s] = h;
}

#[test]
fn baseline_is_valid() {
    assert_eq!(ids(&mov8()), Vec::<String>::new());
}

#[test]
fn exec_size_times_element_size() {
    // mov (16) r2<1>:df r4<0;1,0>:df: 16 x 8 bytes = 128 > 64.
    let mut p = mov8();
    p.exec_size = 16;
    p.dst_type = DataType::DF;
    p.src_type[0] = DataType::DF;
    region(&mut p, 0, 0, 1, 0);
    assert_eq!(ids(&p), ["region.exec-size-times-elem-le-64"]);
    p.exec_size = 8; // 64 bytes: allowed.
    assert_eq!(ids(&p), Vec::<String>::new());
}

#[test]
fn width_le_exec_size() {
    let mut p = mov8();
    p.exec_size = 4;
    assert_eq!(ids(&p), ["region.width-le-exec"]);
    region(&mut p, 0, 4, 4, 1);
    assert_eq!(ids(&p), Vec::<String>::new());
}

#[test]
fn vstride_is_width_times_hstride_when_width_is_exec() {
    let mut p = mov8();
    region(&mut p, 0, 4, 8, 1);
    assert_eq!(ids(&p), ["region.vstride-eq-width-hstride"]);
    region(&mut p, 0, 8, 8, 1);
    assert_eq!(ids(&p), Vec::<String>::new());
}

#[test]
fn hstride_zero_lifts_the_vstride_rule() {
    // region.no-vstride-restriction-hstride-0: <2;8,0> with ExecSize = Width is fine
    // (any legal VertStride: 3 would break region.vstride-legal).
    let mut p = mov8();
    region(&mut p, 0, 2, 8, 0);
    assert_eq!(ids(&p), Vec::<String>::new());
    // ... while the same VertStride with HorzStride 1 is not.
    region(&mut p, 0, 2, 8, 1);
    assert_eq!(ids(&p), ["region.vstride-eq-width-hstride"]);
}

#[test]
fn width_one_needs_hstride_zero() {
    let mut p = mov8();
    region(&mut p, 0, 1, 1, 1);
    assert_eq!(ids(&p), ["region.width1-hstride0"]);
    region(&mut p, 0, 1, 1, 0);
    assert_eq!(ids(&p), Vec::<String>::new());
}

#[test]
fn scalar_exec_needs_zero_strides() {
    let mut p = mov8();
    p.exec_size = 1;
    region(&mut p, 0, 1, 1, 0);
    assert_eq!(ids(&p), ["region.exec1-width1-strides0"]);
    region(&mut p, 0, 0, 1, 0);
    assert_eq!(ids(&p), Vec::<String>::new());
}

#[test]
fn zero_strides_need_width_one() {
    let mut p = mov8();
    region(&mut p, 0, 0, 2, 0);
    assert_eq!(ids(&p), ["region.strides0-width1"]);
    region(&mut p, 0, 0, 1, 0);
    assert_eq!(ids(&p), Vec::<String>::new());
}

#[test]
fn dst_hstride_not_zero() {
    let mut p = mov8();
    p.dst_hstride = 0;
    assert_eq!(ids(&p), ["region.dst-hstride-nonzero"]);
    p.dst_hstride = 2;
    assert_eq!(ids(&p), Vec::<String>::new());
}

#[test]
fn rows_do_not_cross_grf_boundaries() {
    // r4.6<8;8,1>:f: the row runs from byte 24 of r4 into r5.
    let mut p = mov8();
    p.src_subreg[0] = 24;
    assert_eq!(ids(&p), ["region.row-within-grf"]);
    // SIMD16 <8;8,1>: two rows, one per register: VertStride crosses, rows do not.
    p.src_subreg[0] = 0;
    p.exec_size = 16;
    p.dst_type = DataType::W;
    p.dst_hstride = 2; // F execution type into W: stride 2 (region.dst-stride-exec-ratio).
    p.dst_span_regs = 2;
    p.src_type[0] = DataType::F;
    p.src_span_regs[0] = 2;
    assert_eq!(ids(&p), Vec::<String>::new());
    // Indirect sources are not checked statically.
    p.src_subreg[0] = 24;
    p.exec_size = 8;
    p.dst_hstride = 1;
    p.dst_type = DataType::F;
    p.dst_span_regs = 1;
    p.src_span_regs[0] = 1;
    p.src_indirect[0] = true;
    assert_eq!(ids(&p), Vec::<String>::new());
}

#[test]
fn immediates_and_align16_skip_source_region_rules() {
    let mut p = mov8();
    region(&mut p, 0, 4, 8, 1);
    p.src_file[0] = RegFile::Imm;
    assert_eq!(ids(&p), Vec::<String>::new());
    p.src_file[0] = RegFile::Grf;
    p.access_mode = AccessMode::Align16;
    assert_eq!(ids(&p), Vec::<String>::new());
}

#[test]
fn per_source_rules_name_the_source() {
    // add (8) r2<1>:f r4<8;8,1>:f r6<4;8,1>:f: src1 violates 2.2.
    let mut p = mov8();
    p.opcode = Opcode::Add;
    p.num_srcs = 2;
    p.src_present[1] = true;
    p.src_type[1] = DataType::F;
    p.src_reg[1] = 6;
    region(&mut p, 1, 4, 8, 1);
    let v = violations(Platform::Skl, &p);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].rule.id, "region.vstride-eq-width-hstride");
    assert_eq!(v[0].src, Some(1));
    assert!(v[0].rule.cite.starts_with("seed004 §"));
}
