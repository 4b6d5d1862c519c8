//! Regions and operands: every region example of the seeds with its exact element list, the
//! SIMD4 / SIMD4x2 / SIMD16 examples of seed000 §3.2, compressed = two halves (seed000 §3.2.5),
//! and each register-indirect example of seed004 §Register Region Restrictions 8 against its
//! two-instruction expansion.

use crate::exec_util;

use euref::exec::alu::read_operand;
use euref::exec::region::{self, Region1, MAX_CHANNELS};
use euref::spec::Platform::{self, *};
use exec_util::*;

/// (register, element subregister) of each channel of a source operand, computed by
/// euref::exec::region directly.
fn elements(origin: (usize, usize), r: Region1, elem: usize, n: usize) -> Vec<(usize, usize)> {
    let mut out = [0i64; MAX_CHANNELS];
    region::align1_src(r, elem, n, &mut out).unwrap();
    let base = (origin.0 * 32 + origin.1 * elem) as i64;
    out[..n]
        .iter()
        .map(|o| {
            let a = (base + o) as usize;
            (a / 32, (a % 32) / elem)
        })
        .collect()
}

/// The same through an instruction: fill the GRF with element indices, gather src0.
fn elements_via_insn(p: Platform, text: &str, elem: usize) -> Vec<(usize, usize)> {
    let mut st = zeroed(p);
    // Every element holds its GRF byte address / elem (fits 16 bits for words, wraps for bytes,
    // so bytes use the address modulo 256 and registers < 8).
    for a in (0..st.grf_size()).step_by(elem) {
        let v = (a / elem) as u64 & if elem == 1 { 0xff } else { 0xffff };
        st.write_grf(a, elem, v, false).unwrap();
    }
    let i = insn(p, text);
    let n = usize::from(i.exec_size);
    let (bits, undef) = read_operand(&mut st, &i, 0).unwrap();
    assert_eq!(undef, 0);
    bits[..n]
        .iter()
        .map(|b| {
            let a = *b as usize * elem;
            (a / 32, (a % 32) / elem)
        })
        .collect()
}

#[test]
fn seed_r4_1_16_8_2_w() {
    // seed000 §3.3.5 / seed003 Figure 16: r4.1<16;8,2>:w, ExecSize 16.
    let want: Vec<(usize, usize)> = (0..8)
        .map(|j| (4, 1 + 2 * j))
        .chain((0..8).map(|j| (5, 1 + 2 * j)))
        .collect();
    let r = Region1 {
        vstride: 16,
        width: 8,
        hstride: 2,
    };
    assert_eq!(elements((4, 1), r, 2, 16), want);
    assert_eq!(
        elements_via_insn(Skl, "mov (16|M0) r10.0<1>:w r4.1<16;8,2>:w", 2),
        want
    );
}

#[test]
fn seed_r5_0_1_8_2_w_interleaved() {
    // seed000 §3.3.5 / seed003 Figure 17: channel 1 at r5.2, channel 8 at r5.1.
    let want: Vec<(usize, usize)> = (0..8)
        .map(|j| (5, 2 * j))
        .chain((0..8).map(|j| (5, 1 + 2 * j)))
        .collect();
    let r = Region1 {
        vstride: 1,
        width: 8,
        hstride: 2,
    };
    assert_eq!(elements((5, 0), r, 2, 16), want);
    assert_eq!(
        elements_via_insn(Ivb, "mov (16) r10.0<1>:w r5.0<1;8,2>:w", 2),
        want
    );
}

#[test]
fn seed_r1_7_16_8_1_b_and_r2_1() {
    // seed003 Figure 18: src0 rows start at r1.7 and r1.23; src1 (r2.1) at r2.1 and r2.17.
    let want0: Vec<(usize, usize)> = (7..15).chain(23..31).map(|b| (1, b)).collect();
    let want1: Vec<(usize, usize)> = (1..9).chain(17..25).map(|b| (2, b)).collect();
    let r = Region1 {
        vstride: 16,
        width: 8,
        hstride: 1,
    };
    assert_eq!(elements((1, 7), r, 1, 16), want0);
    assert_eq!(elements((2, 1), r, 1, 16), want1);
    let text = "add(16|M0) r6.0<1>:w r1.7<16;8,1>:b r2.1<16;8,1>:b";
    assert_eq!(elements_via_insn(Skl, text, 1), want0);
}

#[test]
fn seed_r1_14_16_8_0_b_replicated() {
    // seed003 Figure 19: r1.14<16;8,0>:b repeats r1.14 eight times, then r1.30 eight times;
    // src1 r2.17<16;8,1>:b runs r2.17..r2.24 then r3.1..r3.8.
    let want0: Vec<(usize, usize)> = [(1, 14); 8].into_iter().chain([(1, 30); 8]).collect();
    let want1: Vec<(usize, usize)> = (17..25)
        .map(|b| (2, b))
        .chain((1..9).map(|b| (3, b)))
        .collect();
    assert_eq!(
        elements(
            (1, 14),
            Region1 {
                vstride: 16,
                width: 8,
                hstride: 0
            },
            1,
            16
        ),
        want0
    );
    assert_eq!(
        elements(
            (2, 17),
            Region1 {
                vstride: 16,
                width: 8,
                hstride: 1
            },
            1,
            16
        ),
        want1
    );
    // Executed: with r1.14 = 1 and r1.30 = 4 (the seed's values) and src1 bytes 0, src0 gives
    // {1 x8, 4 x8} in r6's 16 words.
    let mut st = zeroed(Skl);
    st.write_grf(r(1, 14), 1, 1, false).unwrap();
    st.write_grf(r(1, 30), 1, 4, false).unwrap();
    run(
        &mut st,
        &["add(16|M0) r6.0<1>:w r1.14<16;8,0>:b r2.17<16;8,1>:b"],
    );
    let want: Vec<u64> = [1u64; 8].into_iter().chain([4u64; 8]).collect();
    assert_eq!(get(&st, r(6, 0), 2, 16), want);
}

#[test]
fn seed_simd4_swizzle_and_dst_mask() {
    // seed000 §3.2.2: add (4) r3<4>.xyz r2<4>.yzwx r2.4<4>.zwxy {NoMask}: dword 3 and dwords
    // 4-7 of r3 are unchanged. (Integer data: the region and mask behaviour is the type's.)
    let mut st = zeroed(Ivb);
    put(&mut st, r(2, 0), 4, &[10, 11, 12, 13, 100, 200, 300, 400]);
    put(&mut st, r(3, 0), 4, &[7; 8]);
    // Even with an all-zero dispatch mask, NoMask executes the four channels.
    st.set_field(st.field_info("sr0", "dmask").unwrap(), 0)
        .unwrap();
    run(
        &mut st,
        &["add (4) r3<4>.xyz:d r2<4>.yzwx:d r2.4<4>.zwxy:d {NoMask}"],
    );
    // x = r2.y + r2.4.z = 11 + 300, y = 12 + 400, z = 13 + 100, w not written.
    assert_eq!(get(&st, r(3, 0), 4, 8), vec![311, 412, 113, 7, 7, 7, 7, 7]);
}

#[test]
fn seed_simd4x2_with_dispatch_masks() {
    // seed000 §3.2.3 (a) DMask 0x00FF: dwords 3 and 7 unchanged; (b) DMask 0x000F: only the
    // first program flow.
    for (dmask, want) in [
        (
            0xFFu32,
            vec![
                10 + 102,
                11 + 103,
                12 + 100,
                9,
                14 + 106,
                15 + 107,
                16 + 104,
                9,
            ],
        ),
        (0x0F, vec![10 + 102, 11 + 103, 12 + 100, 9, 9, 9, 9, 9]),
    ] {
        let mut st = zeroed(Hsw);
        st.set_field(st.field_info("sr0", "dmask").unwrap(), dmask)
            .unwrap();
        // r2.yxzw: x <- y ...; r3.zwxy.
        put(&mut st, r(2, 0), 4, &[11, 10, 12, 13, 15, 14, 16, 17]);
        put(
            &mut st,
            r(3, 0),
            4,
            &[100, 101, 102, 103, 104, 105, 106, 107],
        );
        put(&mut st, r(4, 0), 4, &[9; 8]);
        run(&mut st, &["add (8) r4<4>.xyz:d r2<4>.yxzw:d r3<4>.zwxy:d"]);
        assert_eq!(get(&st, r(4, 0), 4, 8), want, "dmask {dmask:#x}");
    }
}

#[test]
fn seed_simd4x2_shared_constant_vstride0() {
    // seed000 §3.2.3: r2<0>.yzwx: both program flows read r2 dwords 0-3.
    let mut st = zeroed(Ivb);
    put(&mut st, r(2, 0), 4, &[1, 2, 3, 4, 50, 60, 70, 80]);
    put(
        &mut st,
        r(3, 0),
        4,
        &[100, 200, 300, 400, 500, 600, 700, 800],
    );
    run(&mut st, &["add (8) r4<4>.xyz:d r2<0>.yzwx:d r3<4>.zwxy:d"]);
    // x = r2.y + r3.z, y = r2.z + r3.w, z = r2.w + r3.x (group 1: r3 dwords 4-7).
    assert_eq!(
        get(&st, r(4, 0), 4, 8),
        vec![2 + 300, 3 + 400, 4 + 100, 0, 2 + 700, 3 + 800, 4 + 500, 0]
    );
}

#[test]
fn seed_simd16_is_two_simd8_halves() {
    // seed000 §3.2.4-§3.2.5: add (16) r18 r4 r14 == add (8) r18 r4 r14; add (8) r19 r5 r15
    // {SecHalf}, under random data, dispatch masks and flags.
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for p in [Ivb, Hsw, Bdw, Skl] {
        for _ in 0..20 {
            let mut a = zeroed(p);
            rng.fill(&mut a, 0, 40);
            a.set_field(a.field_info("sr0", "dmask").unwrap(), rng.next() as u32)
                .unwrap();
            a.set_flag(0, rng.next() as u32, 0).unwrap();
            let mut b = a.clone();
            for (whole, halves) in [
                (
                    "add (16) r18<1>:d r4<8;8,1>:d r14<8;8,1>:d",
                    ["add (8) r18<1>:d r4<8;8,1>:d r14<8;8,1>:d", "add (8) r19<1>:d r5<8;8,1>:d r15<8;8,1>:d {SecHalf}"],
                ),
                (
                    "(f0.0) add.nz.f0.0 (16) r20<1>:d r2.1<0;1,0>:d r14<8;8,1>:d {AccWrEn}",
                    [
                        "(f0.0) add.nz.f0.0 (8) r20<1>:d r2.1<0;1,0>:d r14<8;8,1>:d {AccWrEn}",
                        "(f0.0) add.nz.f0.0 (8) r21<1>:d r2.1<0;1,0>:d r15<8;8,1>:d {SecHalf, AccWrEn}",
                    ],
                ),
                (
                    "(-f0.0) mul.sat (16) r22<1>:w r6<16;16,1>:w r8<8;8,1>:b",
                    [
                        "(-f0.0) mul.sat (8) r22<1>:w r6<8;8,1>:w r8<8;8,1>:b",
                        "(-f0.0) mul.sat (8) r22.8<1>:w r6.8<8;8,1>:w r8.8<8;8,1>:b {SecHalf}",
                    ],
                ),
            ] {
                run(&mut a, &[whole]);
                run(&mut b, &halves);
            }
            assert!(same_but_ip(&a, &b), "{p:?}");
        }
    }
}

#[test]
fn simd16_scalar_source_replicates() {
    // seed000 §3.2.4: r2.1<0;1,0> feeds every channel.
    let mut st = zeroed(Bdw);
    put(&mut st, r(2, 0), 4, &[0, 5, 0, 0]);
    put(&mut st, r(14, 0), 4, &(0..16).collect::<Vec<u64>>());
    run(&mut st, &["add (16) r18<1>:d r2.1<0;1,0>:d r14<8;8,1>:d"]);
    assert_eq!(get(&st, r(18, 0), 4, 16), (5..21).collect::<Vec<u64>>());
}

/// Run `whole` on one copy and `halves` on another, with random GRF data and a0 set to
/// `a0` (GRF byte addresses); the final states must be equal.
fn equivalent(p: Platform, a0: &[u16], whole: &str, halves: &[&str]) {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for _ in 0..10 {
        let mut a = zeroed(p);
        rng.fill(&mut a, 0, 60);
        for (i, v) in a0.iter().enumerate() {
            set_a0(&mut a, i, *v);
        }
        let mut b = a.clone();
        run(&mut a, &[whole]);
        run(&mut b, halves);
        assert!(same_but_ip(&a, &b), "{whole}");
    }
}

#[test]
fn seed004_indirect_rule1_two_register_dst_one_index() {
    // mov (16) r[a0.0]:f r10:f == mov (8) r[a0.0]:f r10:f; mov (8) r[a0.0, 8*4]:f r11:f
    equivalent(
        Skl,
        &[40 * 32],
        "mov (16) r[a0.0]:f r10:f",
        &["mov (8) r[a0.0]:f r10:f", "mov (8) r[a0.0, 8*4]:f r11:f"],
    );
}

#[test]
fn seed004_indirect_rule2_sources_1x1() {
    let a0 = [40 * 32, 0, 20 * 32, 0, 30 * 32 + 8];
    // Case (a) (D data: the float add is the float layer's).
    equivalent(
        Skl,
        &a0,
        "add (16) r[a0.0]:d r[a0.2]:d r[a0.4]:d",
        &[
            "add (8) r[a0.0]:d r[a0.2]:d r[a0.4]:d",
            "add (8) r[a0.0, 8*4]:d r[a0.2, 8*4]:d r[a0.4, 8*4]:d",
        ],
    );
    // Case (b): the immediate of the second half follows the region (VertStride 4 words). The
    // seed writes the halves' destination as :f; the instruction's own :ud is used.
    equivalent(
        Bdw,
        &a0,
        "add (16) r[a0.0]:ud r[a0.2]<4;8,1>:w r10<8;8,1>:ud",
        &[
            "add (8) r[a0.0]:ud r[a0.2]<4;8,1>:w r10<8;8,1>:ud",
            "add (8) r[a0.0, 8*4]:ud r[a0.2, 4*2]<4;8,1>:w r11<8;8,1>:ud",
        ],
    );
    // Case (c): a scalar indirect source keeps its address.
    equivalent(
        Hsw,
        &a0,
        "add (16) r[a0.0]:d r[a0.2]:d r[a0.4]<0;1,0>:d",
        &[
            "add (8) r[a0.0]:d r[a0.2]:d r[a0.4]<0;1,0>:d",
            "add (8) r[a0.0, 8*4]:d r[a0.2, 8*4]:d r[a0.4]<0;1,0>:d",
        ],
    );
}

#[test]
fn seed004_indirect_rule4_vx1_and_vxh() {
    // Case (a): Vx1 <4,1>: the index register advances every 4 elements (a0.0 -> a0.2).
    let a0: Vec<u16> = [40, 41, 44, 47].iter().map(|r| r * 32 + 4).collect();
    let mut a0d = vec![50 * 32];
    a0d.extend(&a0[1..]);
    equivalent(
        Skl,
        &a0d,
        "add (16) r[a0.0]<1>:d r[a0.0]<4,1>:ud r16.0<8;8,1>:ud",
        &[
            "add (8) r[a0.0]<1>:d r[a0.0]<4,1>:ud r16.0<8;8,1>:ud",
            "add (8) r[a0.0, 8*4]<1>:d r[a0.2]<4,1>:ud r17.0<8;8,1>:ud",
        ],
    );
    // Case (b): VxH <1,0>: one index register per channel (a0.0-a0.15 on Gen8+). The seed's
    // second half names src1 r17.0, but the SIMD16 region r16.0<8;8,1>:uw puts channels 8-15 at
    // r16.8 (words), so the expansion uses r16.8.
    let a0: Vec<u16> = (0..16).map(|i| 30 * 32 + 2 * (i * 7 % 16) as u16).collect();
    equivalent(
        Bdw,
        &a0,
        "add (16) r10.0<2>:uw r[a0.0, 0]<1,0>:uw r16.0<8;8,1>:uw",
        &[
            "add (8) r10.0<2>:uw r[a0.0, 0]<1,0>:uw r16.0<8;8,1>:uw",
            "add (8) r11.0<2>:uw r[a0.8, 0]<1,0>:uw r16.8<8;8,1>:uw",
        ],
    );
}

#[test]
fn seed000_group_aligned_indirect_rows() {
    // seed000 §3.3.3.4: mov (8) r1.0<1>:d r[a0.2]<4,1>:d uses a0.2 and a0.3 as row indices.
    let mut st = zeroed(Ivb);
    set_a0(&mut st, 2, 10 * 32);
    set_a0(&mut st, 3, 12 * 32 + 16);
    put(&mut st, r(10, 0), 4, &[1, 2, 3, 4]);
    put(&mut st, r(12, 16), 4, &[5, 6, 7, 8]);
    run(&mut st, &["mov (8) r1.0<1>:d r[a0.2]<4,1>:d"]);
    assert_eq!(get(&st, r(1, 0), 4, 8), vec![1, 2, 3, 4, 5, 6, 7, 8]);
}

#[test]
fn seed000_address_register_as_operands() {
    // seed000 §3.3.3.4: the four a0 moves of the example, with the 12-bit asymmetry.
    let mut st = zeroed(Ivb);
    put(
        &mut st,
        r(1, 0),
        2,
        &[0xF123, 0xF456, 0xF789, 0xFABC, 0xFDEF],
    );
    run(
        &mut st,
        &[
            "mov (4) a0.0<1>:uw r1.0<4;4,1>:uw",
            "mov (4) a0.4<1>:uw r1.4<0;1,0>:uw",
            "mov (8) r2.0<1>:uw a0.0<8;8,1>:uw",
            "mov (8) r2.8<1>:uw a0.4<0;1,0>:uw",
        ],
    );
    // a0.0/a0.1 keep 16 bits, a0.2-a0.7 only 12 (field.a0.1.a0-2-high: read as zero).
    assert_eq!(
        get(&st, r(2, 0), 2, 16),
        vec![
            0xF123, 0xF456, 0x0789, 0x0ABC, 0x0DEF, 0x0DEF, 0x0DEF, 0x0DEF, 0xDEF, 0xDEF, 0xDEF,
            0xDEF, 0xDEF, 0xDEF, 0xDEF, 0xDEF
        ]
    );
}

#[test]
fn indirect_out_of_range_and_misaligned_are_runtime_errors() {
    let mut st = zeroed(Skl);
    set_a0(&mut st, 0, 127 * 32 + 16);
    let e = try_run(&mut st, "mov (8) r1<1>:d r[a0.0]<8;8,1>:d").unwrap_err();
    assert!(e.to_string().contains("runtime.grf-out-of-range"), "{e}");
    set_a0(&mut st, 0, 10 * 32 + 2);
    let e = try_run(&mut st, "mov (8) r1<1>:d r[a0.0]<8;8,1>:d").unwrap_err();
    assert!(e.to_string().contains("runtime.element-misaligned"), "{e}");
    let e = try_run(&mut st, "mov (8) r[a0.0]<1>:d r2<8;8,1>:d").unwrap_err();
    assert!(e.to_string().contains("runtime.element-misaligned"), "{e}");
    // An undefined address subregister.
    let mut st = euref::state::ThreadState::new(Skl);
    let e = try_run(&mut st, "mov (1) r1<1>:d r[a0.3]<0;1,0>:d").unwrap_err();
    assert!(
        e.to_string().contains("runtime.indirect-undefined-address"),
        "{e}"
    );
    // Vx1 rows past a0.7 on Ivy Bridge (8 address subregisters).
    let mut st = zeroed(Ivb);
    let e = try_run(&mut st, "mov (8) r1<1>:uw r[a0.4]<1,0>:uw").unwrap_err();
    assert!(e.to_string().contains("runtime.indirect-a0-range"), "{e}");
}

#[test]
fn direct_region_past_r127_is_an_error() {
    let mut st = zeroed(Bdw);
    let e = try_run(&mut st, "mov (16) r127<1>:d r0<8;8,1>:d").unwrap_err();
    assert!(e.to_string().contains("runtime.grf-out-of-range"), "{e}");
}

#[test]
fn align16_dst_and_vstride0_regions_pure() {
    let mut out = [0i64; MAX_CHANNELS];
    region::align16_src(0, [1, 2, 3, 0], 4, 8, &mut out).unwrap();
    assert_eq!(&out[..8], &[4, 8, 12, 0, 4, 8, 12, 0]);
    region::align16_src(4, [3, 2, 1, 0], 4, 8, &mut out).unwrap();
    assert_eq!(&out[..8], &[12, 8, 4, 0, 28, 24, 20, 16]);
    // 64-bit elements: two per group, swizzle in 32-bit halves.
    region::align16_src(4, [2, 3, 0, 1], 8, 4, &mut out).unwrap();
    assert_eq!(&out[..4], &[8, 0, 24, 16]);
    assert!(region::align16_64bit_swizzle_ok([2, 3, 0, 1]));
    assert!(!region::align16_64bit_swizzle_ok([1, 2, 0, 1]));
    assert_eq!(region::align16_chan_enable(0b0111, 4, 3), (false, false));
    assert_eq!(region::align16_chan_enable(0b0111, 4, 6), (true, true));
    assert_eq!(region::align16_chan_enable(0b0111, 8, 1), (true, false));
}

#[test]
fn ivb_df_raw_move_uses_32bit_channels() {
    // feature.df-element-size-4: on Ivy Bridge a DF region is in 32-bit units: mov (8) of DF
    // moves 8 dwords = 4 DF; channel enables apply per 32-bit channel.
    let mut st = zeroed(Ivb);
    put(
        &mut st,
        r(2, 0),
        8,
        &[
            0x3ff0_0000_0000_0000,
            0x4000_0000_0000_0000,
            0x4008_0000_0000_0000,
            0x4010_0000_0000_0000,
        ],
    );
    st.set_field(st.field_info("sr0", "dmask").unwrap(), 0b1011_1111)
        .unwrap();
    run(&mut st, &["mov (8) r4<1>:df r2<8;8,1>:df"]);
    assert_eq!(
        get(&st, r(4, 0), 4, 8),
        vec![
            0,
            0x3ff0_0000,
            0,
            0x4000_0000,
            0,
            0x4008_0000,
            0,
            0x4010_0000
        ]
    );
    // Haswell: DF elements are 8 bytes, mov (4) moves 4 DF.
    let mut st = zeroed(Hsw);
    put(&mut st, r(2, 0), 8, &[1, 2, 3, 4]);
    run(&mut st, &["mov (4) r4<1>:df r2<4;4,1>:df"]);
    assert_eq!(get(&st, r(4, 0), 8, 4), vec![1, 2, 3, 4]);
}

/// Small integers as F bits.
fn fv(x: u32) -> u64 {
    u64::from((x as f32).to_bits())
}

#[test]
fn seed000_simd_examples_verbatim_with_float_data() {
    // seed000 §3.2.2-§3.2.5, the instructions exactly as printed.
    let mut st = zeroed(Ivb);
    put(&mut st, r(2, 0), 4, &(0..8).map(fv).collect::<Vec<u64>>());
    put(
        &mut st,
        r(3, 0),
        4,
        &(100..108).map(fv).collect::<Vec<u64>>(),
    );
    put(&mut st, r(4, 0), 4, &[fv(9); 8]);
    run(
        &mut st,
        &["add (4)   r3<4>.xyz:f   r2<4>.yzwx:f   r2.4<4>.zwxy:f   {NoMask}"],
    );
    // x = r2.y + r2.4.z = 1 + 6, y = 2 + 7, z = 3 + 4; w and dwords 4-7 unchanged.
    assert_eq!(
        get(&st, r(3, 0), 4, 8),
        vec![
            fv(7),
            fv(9),
            fv(7),
            fv(103),
            fv(104),
            fv(105),
            fv(106),
            fv(107)
        ]
    );
    let mut st = zeroed(Ivb);
    put(&mut st, r(2, 0), 4, &(0..8).map(fv).collect::<Vec<u64>>());
    put(
        &mut st,
        r(3, 0),
        4,
        &(100..108).map(fv).collect::<Vec<u64>>(),
    );
    put(&mut st, r(4, 0), 4, &[fv(9); 8]);
    run(
        &mut st,
        &["add (8)   r4<4>.xyz:f   r2<4>.yxzw:f   r3<4>.zwxy:f"],
    );
    assert_eq!(
        get(&st, r(4, 0), 4, 8),
        vec![
            fv(1 + 102),
            fv(103),
            fv(2 + 100),
            fv(9),
            fv(5 + 106),
            fv(4 + 107),
            fv(6 + 104),
            fv(9)
        ]
    );
    put(&mut st, r(4, 0), 4, &[fv(9); 8]);
    run(
        &mut st,
        &["add (8)   r4<4>.xyz:f   r2<0>.yzwx:f   r3<4>.zwxy:f"],
    );
    assert_eq!(
        get(&st, r(4, 0), 4, 8),
        vec![
            fv(1 + 102),
            fv(2 + 103),
            fv(3 + 100),
            fv(9),
            fv(1 + 106),
            fv(2 + 107),
            fv(3 + 104),
            fv(9)
        ]
    );
    // SIMD16 and its two SIMD8 halves.
    let mut rng = Rng(99);
    let mut a = zeroed(Hsw);
    for o in (r(2, 0)..r(26, 0)).step_by(4) {
        a.write_grf(o, 4, fv((rng.next() % 1000) as u32), false)
            .unwrap();
    }
    let mut b = a.clone();
    run(
        &mut a,
        &["add (16)   r18<1>:f   r4<8;8,1>:f   r14<8;8,1>:f"],
    );
    run(
        &mut b,
        &[
            "add (8)   r18<1>:f   r4<8;8,1>:f   r14<8;8,1>:f",
            "add (8)   r19<1>:f   r5<8;8,1>:f   r15<8;8,1>:f   {SecHalf}",
        ],
    );
    assert!(same_but_ip(&a, &b));
    // The shared AOS constant: r2.1<0;1,0> feeds all 16 channels.
    run(
        &mut a,
        &["add (16)   r20<1>:f   r2.1<0;1,0>:f   r16<8;8,1>:f"],
    );
    let c = get(&a, r(2, 4), 4, 1)[0];
    let src1 = get(&a, r(16, 0), 4, 16);
    let sum =
        |x: u64, y: u64| u64::from((f32::from_bits(x as u32) + f32::from_bits(y as u32)).to_bits());
    assert_eq!(
        get(&a, r(20, 0), 4, 16),
        src1.iter().map(|y| sum(c, *y)).collect::<Vec<u64>>()
    );
}

#[test]
fn prepared_instructions_execute_like_step() {
    // exec::Prepared resolves direct operands once; the effect is step's, also for indirect
    // operands (resolved at each step) and errors.
    use euref::exec::{step_prepared, ExecOptions, Prepared};
    let prog = [
        "add (16) r18<1>:d r4<8;8,1>:d r14<8;8,1>:d",
        "mad (8) r20<1>:f r2<4;4,1>:f r3<4;4,1>:f r5<4;4,1>:f",
        "(f0.0) sel.l (8) r21<1>:ud r6<8;8,1>:ud r7<8;8,1>:ud",
        "add (8) r[a0.0]:d r[a0.2]<8;8,1>:d 3:d",
        "mov (8) a0.0<1>:uw r9<8;8,1>:uw",
        "add (8) r[a0.1, 4]:d r[a0.3]<8;8,1>:d 3:d",
        "mul (8) acc0<1>:d r10<8;8,1>:d r11<8;8,1>:uw",
        "mach (8) r22<1>:d r10<8;8,1>:d r11<8;8,1>:d {AccWrEn}",
        // The kept route, control registers and accumulator map on more paths: float with
        // implicit accumulator writes, math, group predicates, condition modifiers, mac.
        "add (16) r24:f r11:f r12:f {AccWrEn}",
        "math.inv (8|M0) r26.0<1>:f r2.0<8;8,1>:f",
        "(W&~f1.0.any4h) mov (8|M8) (sat)r27.0<1>:f -(abs)r2.0<8;8,1>:f",
        "cmp.l.f1.0 (8) r28<1>:d r4<8;8,1>:d r14<8;8,1>:d",
        "mac (8) r29<1>:d r10<8;8,1>:w r11<8;8,1>:w {AccWrEn}",
    ];
    let mut rng = Rng(5);
    for p in [Ivb, Skl] {
        let mut a = zeroed(p);
        rng.fill(&mut a, 0, 40);
        for i in 0..8 {
            set_a0(&mut a, i, (30 + i as u16) * 32);
        }
        put(
            &mut a,
            r(9, 0),
            2,
            &[
                (36 * 32) as u64,
                (37 * 32) as u64,
                38 * 32,
                39 * 32,
                0,
                0,
                0,
                0,
            ],
        );
        let mut b = a.clone();
        run(&mut a, &prog);
        let opts = ExecOptions::default();
        for t in prog {
            let pre = Prepared::new(&b, insn(p, t));
            step_prepared(&mut b, &pre, &opts).unwrap();
        }
        assert!(a == b, "{p:?}");
    }
}
