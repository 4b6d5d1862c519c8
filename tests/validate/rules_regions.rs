//! The region rows added to spec/rules/regions.toml and the byte/word rows of
//! spec/rules/bytes_words.toml: for each rule an instruction that violates only
//! it (on the platforms of its gens) and a close valid neighbour.

use crate::rules_util;

use euref::spec::DataType::*;
use euref::spec::Opcode;
use rules_util::*;

#[test]
fn baselines_are_valid() {
    assert_valid(&mov8());
    assert_valid(&add8());
    assert_valid(&mad8());
    assert_valid(&send8());
    assert_valid(&math8(euref::spec::MathFn::Sin));
    assert_valid(&math8(euref::spec::MathFn::Pow));
}

#[test]
fn width_must_be_a_legal_value() {
    // region.width-legal: mov (32) r2<1>:ub r4<32;32,1>:ub
    let mut p = insn(Opcode::Mov, 32, 1);
    types(&mut p, UB, &[UB]);
    region(&mut p, 0, 32, 32, 1);
    assert_only(&p, "region.width-legal", ALL);
    region(&mut p, 0, 16, 16, 1);
    assert_valid(&p);
}

#[test]
fn vstride_must_be_a_legal_value() {
    // region.vstride-legal: mov (4) r2<1>:w r4<3;1,0>:w
    let mut p = insn(Opcode::Mov, 4, 1);
    types(&mut p, W, &[W]);
    region(&mut p, 0, 3, 1, 0);
    assert_only(&p, "region.vstride-legal", ALL);
    region(&mut p, 0, 2, 1, 0);
    assert_valid(&p);
    // Vx1/VxH regions have no VertStride.
    region(&mut p, 0, 15, 1, 0);
    p.src_indirect[0] = true;
    p.src_indirect_multi[0] = true;
    assert_valid(&p);
}

#[test]
fn hstride_must_be_a_legal_value() {
    // region.hstride-legal: mov (4) r2<1>:w r4<8;2,3>:w
    let mut p = insn(Opcode::Mov, 4, 1);
    types(&mut p, W, &[W]);
    region(&mut p, 0, 8, 2, 3);
    assert_only(&p, "region.hstride-legal", ALL);
    region(&mut p, 0, 8, 2, 2);
    assert_valid(&p);
}

#[test]
fn dst_hstride_must_be_a_legal_value() {
    // region.dst-hstride-legal: mov (2) r2<3>:w r4<2;2,1>:w
    let mut p = insn(Opcode::Mov, 2, 1);
    types(&mut p, W, &[W]);
    p.dst_hstride = 3;
    assert_only(&p, "region.dst-hstride-legal", ALL);
    p.dst_hstride = 2;
    assert_valid(&p);
    // A zero stride is reported once, by region.dst-hstride-nonzero.
    p.dst_hstride = 0;
    assert_only(&p, "region.dst-hstride-nonzero", ALL);
}

#[test]
fn dst_stride_is_the_exec_to_dst_size_ratio() {
    // region.dst-stride-exec-ratio: add (8) r2<1>:w r4<8;8,1>:d r6<8;8,1>:d
    let mut p = add8();
    types(&mut p, W, &[D, D]);
    assert_only(&p, "region.dst-stride-exec-ratio", ALL);
    p.dst_hstride = 2;
    assert_valid(&p);
    // Not checked for ExecSize 1.
    let mut q = insn(Opcode::Mov, 1, 1);
    types(&mut q, W, &[D]);
    scalar(&mut q, 0);
    assert_valid(&q);
}

#[test]
fn align16_dst_hstride_is_1() {
    // region.align16-dst-hstride-1: mov (8) r2.xyzw<2>:f r4<4>:f (Align16)
    let mut p = mov8();
    align16(&mut p);
    p.dst_hstride = 2;
    assert_only_and_ivb_native_half(&p, "region.align16-dst-hstride-1", ALL);
    p.dst_hstride = 1;
    assert_valid(&p);
    // A null destination is exempt.
    null_dst(&mut p);
    p.dst_hstride = 2;
    assert_valid(&p);
}

#[test]
fn align16_vstride_values_per_generation() {
    // mov (4) r2.xyzw:f r4<2>:f (Align16): VertStride 2 only from Haswell.
    let mut p = insn(Opcode::Mov, 4, 1);
    align16(&mut p);
    p.src_vstride[0] = 2;
    assert_only(&p, "region.align16-vstride-0-4", &[Ivb]);
    // VertStride 8: never in Align16.
    p.src_vstride[0] = 8;
    assert_eq!(ids_on(&p, Ivb), ["region.align16-vstride-0-4"]);
    for &pl in &[Hsw, Bdw, Chv, Skl, Bxt] {
        assert_eq!(
            ids_on(&p, pl),
            ["region.align16-vstride-0-2-4"],
            "{}",
            pl.name()
        );
    }
    p.src_vstride[0] = 0;
    assert_valid(&p);
    // A VxH region is not an Align16 region (Mesa's vstride_on_align16_must_be_0_or_4 case).
    p.src_indirect[0] = true;
    p.src_indirect_multi[0] = true;
    p.src_width[0] = 1;
    p.src_hstride[0] = 0;
    assert_eq!(ids_on(&p, Ivb), ["region.align16-vstride-0-4"]);
    assert_eq!(ids_on(&p, Skl), ["region.align16-vstride-0-2-4"]);
}

#[test]
fn exec_size_times_element_size_counts_vector_elements() {
    // region.exec-size-times-elem-le-64 (existing rule): a V immediate holds words, so
    // add (32) r18<1>:uw r1.4<1;4,0>:uw 0x11001010:v (Mesa's gen8 corpus) is 32 x 2 bytes.
    let mut p = insn(Opcode::Add, 32, 2);
    types(&mut p, UW, &[UW, UW]);
    p.src_subreg[0] = 8;
    region(&mut p, 0, 1, 4, 0);
    imm(&mut p, 1, V, 0x1100_1010);
    assert_only_valid_on(&p, GEN8P);
    // (Gen7 wants a two-register source for a two-register destination.)
    assert_only_among(&p, "align.dst-two-regs-src-two-regs", GEN7, GEN7);
    // A VF immediate holds floats: 32 x 4 bytes.
    types(&mut p, F, &[F, VF]);
    p.src_subreg[0] = 0;
    region(&mut p, 0, 0, 1, 0);
    for &pl in ALL {
        // (The destination then spans four registers as well.)
        assert!(ids_on(&p, pl).contains(&"region.exec-size-times-elem-le-64"));
    }
    // Sends are messages, not regions: send (32) r87<1>:uw r0<8;8,1>:f (Mesa's gen8 corpus).
    let mut q = send8();
    q.exec_size = 32;
    types(&mut q, UW, &[F]);
    q.src_reg[0] = 112;
    assert_valid(&q);
}

#[test]
fn packed_byte_destination_only_for_raw_mov() {
    // region.packed-byte-dst-raw-mov: mov (8) r2<1>:ub -r4<8;8,1>:ub
    let mut p = mov8();
    types(&mut p, UB, &[UB]);
    p.src_negate[0] = true;
    assert_only(&p, "region.packed-byte-dst-raw-mov", ALL);
    p.src_negate[0] = false;
    assert_valid(&p);
    // B and UB count as one type for a raw move.
    p.src_type[0] = B;
    assert_valid(&p);
    // Saturation, a word source, or sel break it.
    let mut q = p.clone();
    q.saturate = true;
    assert_only(&q, "region.packed-byte-dst-raw-mov", ALL);
    let mut q = p.clone();
    q.src_type[0] = W;
    assert_only(&q, "region.packed-byte-dst-raw-mov", ALL);
    let mut q = add8();
    q.opcode = Opcode::Sel;
    q.pred_ctrl = euref::spec::PredCtrl::Seq;
    types(&mut q, UB, &[UB, UB]);
    assert_only(&q, "region.packed-byte-dst-raw-mov", ALL);
    // A byte destination with stride 2 from a word execution type is fine.
    q.dst_hstride = 2;
    types(&mut q, B, &[W, W]);
    assert_valid(&q);
}

#[test]
fn dword_dst_aligned_to_a_qword_execution_type() {
    // align.dst-exec-aligned: mov (4) r2.1<2>:f r4<4;4,1>:df
    let mut p = insn(Opcode::Mov, 4, 1);
    types(&mut p, F, &[DF]);
    p.dst_hstride = 2;
    p.dst_subreg = 4;
    for &pl in &[Ivb, Hsw, Bdw, Skl] {
        assert_eq!(ids_on(&p, pl), ["align.dst-exec-aligned"], "{}", pl.name());
    }
    // chv and bxt also want equal source and destination offsets for 64-bit types.
    for &pl in LP {
        assert_eq!(
            ids_on(&p, pl),
            ["align.dst-exec-aligned", "qword.same-offset"]
        );
    }
    p.dst_subreg = 0;
    assert_valid(&p);
}

#[test]
fn byte_dst_relaxed_alignment() {
    // align.byte-dst-relaxed: mov (8) r2.2<4>:b r4<8;8,1>:d
    let mut p = mov8();
    types(&mut p, B, &[D]);
    p.dst_hstride = 4;
    p.dst_subreg = 2;
    assert_only(&p, "align.byte-dst-relaxed", ALL);
    // The lowest or the second lowest byte of the DWord channel.
    p.dst_subreg = 1;
    assert_valid(&p);
    p.dst_subreg = 0;
    assert_valid(&p);
    // seed004's example: mov (8) r10.1<2>:b r11.0<8;8,1>:w
    let mut q = mov8();
    types(&mut q, B, &[W]);
    q.dst_hstride = 2;
    q.dst_subreg = 1;
    assert_valid(&q);
}

#[test]
fn word_dst_alignment_per_generation() {
    // add (8) r2.1<2>:w r4<8;8,1>:d r6<8;8,1>:d: the second word of a DWord channel.
    let mut p = add8();
    types(&mut p, W, &[D, D]);
    p.dst_hstride = 2;
    p.dst_subreg = 2;
    assert_only(&p, "align.word-dst-exec-aligned", &[Ivb, Hsw, Bdw]);
    p.dst_subreg = 0;
    assert_valid(&p);

    // mov (4) r2.2<4>:w r4<4;4,1>:df: byte 4 of a QWord channel is neither word 0 nor 1.
    let mut q = insn(Opcode::Mov, 4, 1);
    types(&mut q, W, &[DF]);
    q.dst_hstride = 4;
    q.dst_subreg = 4;
    for &pl in &[Ivb, Hsw, Bdw] {
        assert_eq!(
            ids_on(&q, pl),
            ["align.word-dst-exec-aligned"],
            "{}",
            pl.name()
        );
    }
    assert_eq!(ids_on(&q, Skl), ["align.word-dst-relaxed"]);
    for &pl in LP {
        assert_eq!(
            ids_on(&q, pl),
            ["align.word-dst-relaxed", "qword.same-offset"]
        );
    }
    // seed004's example: add (8) r10.1<2>:hf r11.0<8;8,1>:f r12.0<8;8,1>:hf
    let mut r = add8();
    types(&mut r, HF, &[F, HF]);
    r.dst_hstride = 2;
    r.dst_subreg = 2;
    assert_only_valid_on(&r, &[Chv, Skl, Bxt]);
    assert_eq!(ids_on(&r, Bdw), ["align.word-dst-exec-aligned"]);
    // From byte 6 the eight channels spill into the next register unevenly (7 + 1),
    // which Gen8 (chv) forbids and Gen9 allows.
    r.dst_subreg = 6;
    assert_only_valid_on(&r, &[Skl, Bxt]);
    assert_eq!(ids_on(&r, Chv), ["align.dst-even-split"]);
}
