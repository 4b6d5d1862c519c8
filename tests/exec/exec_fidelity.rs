//! Execution that follows the seeds where it used to contradict them (issue 28): compressed
//! instructions as their two native halves (feature.compressed-halves), the undefined upper
//! dword of Gen7 DF -> F (conv.float-narrow.df-f.gen7), the Ivy Bridge DF conversions and DF
//! cmp on channel pairs, and the default state's dispatch-provided registers (sr0.0, sr0.1,
//! tdr0, the tm0 timestamp), which are undefined unless a state gives them.
//!
//! Expected values are computed here from the seeds' definitions (host arithmetic on the
//! inputs), never read off the engine.

use crate::exec_util::*;
use euref::exec::{self, CompressedOverlap, ExecOptions, StepInfo};
use euref::spec::Platform::{self, *};
use euref::state::{json, ThreadState};

/// Execute `text` with feature.compressed-overlap's reading `how`.
fn run_overlap(st: &mut ThreadState, text: &str, how: CompressedOverlap) -> StepInfo {
    let opts = ExecOptions {
        compressed_overlap: how,
        ..ExecOptions::default()
    };
    let p = st.platform();
    exec::step_with(st, &insn(p, text), &opts).unwrap_or_else(|e| panic!("`{text}`: {e}"))
}

/// seed000 §3.2.5: `add (16) r4 r3<8;8,1> 1` is `add (8) r4 r3 1` followed by
/// `add (8) r5 r4 1`, so the second half reads the r4 the first half wrote
/// (feature.compressed-overlap `halves`); all sources read first gives r5 = old r4 + 1
/// (`sources-first`); by default the bytes of r5 on which the two differ are undefined.
#[test]
fn compressed_overlap_gives_each_reading_or_undefined() {
    for p in Platform::ALL {
        let r3: Vec<u64> = (0..8).map(|i| 10 * i).collect();
        let r4: Vec<u64> = (0..8).map(|i| 100 + i).collect();
        let text = "add (16|M0) r4.0<1>:d r3.0<8;8,1>:d 1:d";
        let fresh = || {
            let mut st = zeroed(p);
            put(&mut st, r(3, 0), 4, &r3);
            put(&mut st, r(4, 0), 4, &r4);
            st
        };
        let want4: Vec<u64> = r3.iter().map(|x| x + 1).collect();
        let halves: Vec<u64> = r3.iter().map(|x| x + 2).collect();
        let first: Vec<u64> = r4.iter().map(|x| x + 1).collect();
        for (how, want5) in [
            (CompressedOverlap::Halves, &halves),
            (CompressedOverlap::SourcesFirst, &first),
        ] {
            let mut st = fresh();
            let info = run_overlap(&mut st, text, how);
            assert_eq!(get(&st, r(4, 0), 4, 8), want4, "{p:?} {how:?} r4");
            assert_eq!(get(&st, r(5, 0), 4, 8), *want5, "{p:?} {how:?} r5");
            assert_eq!(info.enabled, 0xffff, "{p:?}");
        }
        let mut st = fresh();
        let info = run_overlap(&mut st, text, CompressedOverlap::default());
        assert_eq!(get(&st, r(4, 0), 4, 8), want4, "{p:?} r4");
        assert_eq!(info.enabled, 0xffff, "{p:?}");
        for ch in 0..8 {
            for byte in 0..4 {
                let o = r(5, 4 * ch + byte);
                let differ = (halves[ch] ^ first[ch]) >> (8 * byte) & 0xff != 0;
                assert_eq!(
                    st.grf_byte_undefined(o),
                    differ,
                    "{p:?} r5 channel {ch} byte {byte}"
                );
                if !differ {
                    assert_eq!(
                        u64::from(st.grf_bytes()[o]),
                        halves[ch] >> (8 * byte) & 0xff
                    );
                }
            }
        }
    }
}

/// A scalar source in the first half's destination (Mesa's example of the hazard): `halves`
/// reads the value the first half wrote there, `sources-first` the old one, and the default
/// leaves channels 8-15 undefined where the two differ.
#[test]
fn compressed_scalar_source_overlap() {
    let text = "add (16|M0) r4.0<1>:f r4.0<0;1,0>:f r6.0<8;8,1>:f";
    let fresh = || {
        let mut st = zeroed(Skl);
        put(&mut st, r(6, 0), 4, &[1.5f32.to_bits() as u64; 16]);
        put(&mut st, r(4, 0), 4, &[2.0f32.to_bits() as u64]);
        st
    };
    let lo = (2.0f32 + 1.5).to_bits() as u64;
    let halves = (2.0f32 + 1.5 + 1.5).to_bits() as u64;
    for (how, hi) in [
        (CompressedOverlap::Halves, halves),
        (CompressedOverlap::SourcesFirst, lo),
    ] {
        let mut st = fresh();
        run_overlap(&mut st, text, how);
        assert_eq!(get(&st, r(4, 0), 4, 8), vec![lo; 8], "{how:?}");
        assert_eq!(get(&st, r(5, 0), 4, 8), vec![hi; 8], "{how:?}");
    }
    let mut st = fresh();
    run_overlap(&mut st, text, CompressedOverlap::Undefined);
    assert_eq!(get(&st, r(4, 0), 4, 8), vec![lo; 8]);
    // 5.0 = 0x40a00000 and 3.5 = 0x40600000: only byte 2 of each element differs.
    for ch in 0..8 {
        for byte in 0..4 {
            let differ = (halves ^ lo) >> (8 * byte) & 0xff != 0;
            assert_eq!(
                st.grf_byte_undefined(r(5, 4 * ch + byte)),
                differ,
                "{ch} {byte}"
            );
        }
    }
}

/// Without an overlap the halves and a single pass agree; a disabled second half writes
/// nothing (the mask restricts each pass, not the instruction).
#[test]
fn compressed_halves_keep_the_execution_mask() {
    let mut st = zeroed(Bdw);
    let dm = st.field_info("sr0", "dmask").unwrap();
    st.set_field(dm, 0x00ff).unwrap();
    put(&mut st, r(3, 0), 4, &[7; 8]);
    put(&mut st, r(4, 0), 4, &[9; 8]);
    put(&mut st, r(5, 0), 4, &[5; 8]);
    let info = run(&mut st, &["add (16|M0) r4.0<1>:d r3.0<8;8,1>:d 1:d"]);
    assert_eq!(get(&st, r(4, 0), 4, 8), vec![8; 8]);
    assert_eq!(get(&st, r(5, 0), 4, 8), vec![5; 8]);
    assert_eq!(info[0].enabled, 0x00ff);
}

/// Ivy Bridge DF on channel pairs: 8 channels of 4 bytes fill one register, so `(8)` with 4
/// DF lanes is not compressed and reads every source before writing (a broadcast source in the
/// destination's first qword keeps its old value for every lane).
#[test]
fn ivb_df_pairs_in_one_register_are_not_halved() {
    let mut st = zeroed(Ivb);
    put(&mut st, r(2, 0), 8, &[1.0f64.to_bits()]);
    put(
        &mut st,
        r(4, 0),
        8,
        &[1.0f64, 2.0, 3.0, 4.0].map(f64::to_bits),
    );
    run(
        &mut st,
        &["add (8|M0) r2.0<1>:df r2.0<0;2,1>:df r4.0<8;8,1>:df"],
    );
    let want: Vec<u64> = [2.0f64, 3.0, 4.0, 5.0]
        .iter()
        .map(|x| x.to_bits())
        .collect();
    assert_eq!(get(&st, r(2, 0), 8, 4), want);
}

/// F bits of a DF value rounded toward zero (seed000 §2.4.5), from host arithmetic: the
/// nearest F, stepped back toward zero when it lies beyond the DF value.
fn f_rtz(x: f64) -> u64 {
    let f = x as f32;
    let back = if (f as f64).abs() > x.abs() {
        f32::from_bits(f.to_bits() - 1)
    } else {
        f
    };
    u64::from(back.to_bits())
}

/// Haswell DF -> F: the F goes to the low dword of each destination qword, and the upper
/// dword "will be written with undefined value" (seed000 §2.4.5).
#[test]
fn hsw_df_to_f_leaves_the_upper_dword_undefined() {
    let mut st = zeroed(Hsw);
    let vals = [1.5f64, -2.25, 1.0 / 3.0, 0.5];
    put(&mut st, r(4, 0), 8, &vals.map(f64::to_bits));
    run(&mut st, &["mov (4|M0) r2.0<2>:f r4.0<4;4,1>:df"]);
    for (j, v) in vals.iter().enumerate() {
        assert_eq!(get1(&st, r(2, 8 * j), 4), (f_rtz(*v), false), "lane {j}");
        assert!(get1(&st, r(2, 8 * j + 4), 4).1, "upper dword of qword {j}");
    }
    // Gen8+ has no such statement (conv.float-narrow.df-f): the upper dwords keep their value.
    let mut st = zeroed(Skl);
    put(&mut st, r(4, 0), 8, &vals.map(f64::to_bits));
    run(&mut st, &["mov (4|M0) r2.0<2>:f r4.0<4;4,1>:df"]);
    for j in 0..4 {
        assert_eq!(get1(&st, r(2, 8 * j + 4), 4), (0, false));
    }
}

/// Haswell DF -> F in Align16: the destination is packed (channel n at dword n, seed000
/// §3.2.2-§3.2.3) and channel n reads qword n of the source (two DF elements per 16-byte
/// group, swizzle .xyzw). seed000 §2.4.5: the upper dword of every qword of the destination is
/// undefined, so dwords 1 and 3 (channels 1 and 3) are undefined and dwords 0 and 2 hold
/// qwords 0 and 2 of the source rounded toward zero. With write mask .y only channel 1 writes:
/// its element is the upper dword of qword 0 (undefined), dword 0 keeps its value.
/// (The validator refuses this form, region.dst-stride-exec-ratio; the executor runs it.)
#[test]
fn hsw_df_to_f_align16_leaves_the_upper_dwords_undefined() {
    let vals = [1.0f64 / 3.0, -2.25, -1.0 / 7.0, 1e300];
    let old = 0x1111_1111u64;
    let mut st = zeroed(Hsw);
    put(&mut st, r(4, 0), 8, &vals.map(f64::to_bits));
    put(&mut st, r(2, 0), 4, &[old; 8]);
    run(
        &mut st,
        &["mov (4|M0) r2.0<1>:f r4.0<4;4,1>.xyzw:df {Align16}"],
    );
    assert_eq!(get1(&st, r(2, 0), 4), (f_rtz(vals[0]), false), "dword 0");
    assert!(get1(&st, r(2, 4), 4).1, "dword 1");
    assert_eq!(get1(&st, r(2, 8), 4), (f_rtz(vals[2]), false), "dword 2");
    assert!(get1(&st, r(2, 12), 4).1, "dword 3");
    for d in 4..8 {
        assert_eq!(get1(&st, r(2, 4 * d), 4), (old, false), "dword {d}");
    }
    let mut st = zeroed(Hsw);
    put(&mut st, r(4, 0), 8, &vals.map(f64::to_bits));
    put(&mut st, r(2, 0), 4, &[old; 8]);
    run(
        &mut st,
        &["mov (4|M0) r2.0<1>.y:f r4.0<4;4,1>.xyzw:df {Align16}"],
    );
    assert_eq!(
        get1(&st, r(2, 0), 4),
        (old, false),
        "dword 0 (x not written)"
    );
    assert!(get1(&st, r(2, 4), 4).1, "dword 1 (y: an upper dword)");
    for d in 2..8 {
        assert_eq!(get1(&st, r(2, 4 * d), 4), (old, false), "dword {d}");
    }
}

/// The disputed narrowing (conv.float-narrow.f-hf, `alt_round = "rtz"`): by default the
/// conversion to HF rounds per cr0 (nearest even); with `ExecOptions::narrow_toward_zero` the
/// same F result of the operation is converted rounding toward zero. For mov the F result is
/// the source; for mixed-mode add it is the F sum rounded per cr0. HF values by hand: 1.0 is
/// 0x3C00 and its ulp 2^-10; 1 + 0.75 ulp rounds to 0x3C01 (nearest) or 0x3C00 (toward zero).
#[test]
fn narrowing_toward_zero_option_converts_the_f_result() {
    use euref::exec::ExecOptions;
    let rtz = ExecOptions {
        narrow_toward_zero: true,
        ..ExecOptions::default()
    };
    let f = |x: f32| u64::from(x.to_bits());
    let t = 2f32.powi(-12);
    for (text, a, b) in [
        (
            "add (8|M0) r10.0<1>:hf r12.0<8;8,1>:f r14.0<8;8,1>:f",
            1.0,
            3.0 * t,
        ),
        (
            "mul (8|M0) r10.0<1>:hf r12.0<8;8,1>:f r14.0<8;8,1>:f",
            1.0 + 3.0 * t,
            1.0,
        ),
        ("mov (8|M0) r10.0<1>:hf r12.0<8;8,1>:f", 1.0 + 3.0 * t, 0.0),
    ] {
        for (opts, want) in [(ExecOptions::default(), 0x3c01u64), (rtz, 0x3c00)] {
            let mut st = zeroed(Skl);
            put(&mut st, r(12, 0), 4, &[f(a); 8]);
            put(&mut st, r(14, 0), 4, &[f(b); 8]);
            euref::exec::step_with(&mut st, &insn(Skl, text), &opts).unwrap();
            assert_eq!(get(&st, r(10, 0), 2, 8), vec![want; 8], "{text} {opts:?}");
        }
    }
    // The F result is rounded per cr0 before the conversion: 1 + 2^-10 - 2^-40 becomes the F
    // value 1 + 2^-10, an HF value, so toward zero gives 0x3C01 too (not 1.0).
    let mut st = zeroed(Skl);
    put(&mut st, r(12, 0), 4, &[f(1.0 + 2f32.powi(-10)); 8]);
    put(&mut st, r(14, 0), 4, &[f(-(2f32.powi(-40))); 8]);
    let add = "add (8|M0) r10.0<1>:hf r12.0<8;8,1>:f r14.0<8;8,1>:f";
    euref::exec::step_with(&mut st, &insn(Skl, add), &rtz).unwrap();
    assert_eq!(get(&st, r(10, 0), 2, 8), vec![0x3c01; 8]);
    // A conversion no row disputes (F -> D) is unchanged by the option.
    let mut st = zeroed(Skl);
    put(&mut st, r(12, 0), 4, &[f(-2.75); 8]);
    euref::exec::step_with(
        &mut st,
        &insn(Skl, "mov (8|M0) r10.0<1>:d r12.0<8;8,1>:f"),
        &rtz,
    )
    .unwrap();
    assert_eq!(get(&st, r(10, 0), 4, 8), vec![u64::from((-2i32) as u32); 8]);
}

/// Ivy Bridge DF -> F on channel pairs: lane j's F in channel 2j, an undefined dword in
/// channel 2j + 1 (ExecSize and the regions are in 32-bit units, seed000 §1.3).
#[test]
fn ivb_df_to_f_on_channel_pairs() {
    let mut st = zeroed(Ivb);
    let vals = [1.0f64 / 3.0, -2.25, 1e300, -0.0];
    put(&mut st, r(4, 0), 8, &vals.map(f64::to_bits));
    run(&mut st, &["mov (8|M0) r2.0<1>:f r4.0<8;8,1>:df"]);
    // 1e300 is beyond F: round toward zero gives the largest finite F.
    let want = [
        f_rtz(vals[0]),
        f_rtz(vals[1]),
        u64::from(f32::MAX.to_bits()),
        u64::from((-0.0f32).to_bits()),
    ];
    for (j, w) in want.iter().enumerate() {
        assert_eq!(get1(&st, r(2, 8 * j), 4), (*w, false), "lane {j}");
        assert!(get1(&st, r(2, 8 * j + 4), 4).1, "channel {}", 2 * j + 1);
    }
}

/// Ivy Bridge F -> DF: each lane converts the F of its even channel; the odd channel's
/// element is ignored (Mesa brw_MOV on IVB/BYT).
#[test]
fn ivb_f_to_df_reads_the_even_channels() {
    let mut st = zeroed(Ivb);
    let f = [1.5f32, 99.0, -0.25, 99.0, 7.0, 99.0, 3.25, 99.0];
    put(&mut st, r(4, 0), 4, &f.map(|x| u64::from(x.to_bits())));
    run(&mut st, &["mov (8|M0) r2.0<1>:df r4.0<8;8,1>:f"]);
    let want: Vec<u64> = [f[0], f[2], f[4], f[6]]
        .iter()
        .map(|x| f64::from(*x).to_bits())
        .collect();
    // seed000 §2.4.6: F -> DF is exact.
    assert_eq!(get(&st, r(2, 0), 8, 4), want);
}

/// Ivy Bridge DF cmp: each lane's result (all ones or zero) over both channels of its pair;
/// the flags are undefined (which channel holds a DF lane's condition is not stated).
#[test]
fn ivb_df_cmp_on_channel_pairs() {
    let mut st = zeroed(Ivb);
    let a = [1.0f64, 5.0, -1.0, f64::NAN];
    let b = [2.0f64, 5.0, -3.0, 0.0];
    put(&mut st, r(4, 0), 8, &a.map(f64::to_bits));
    put(&mut st, r(6, 0), 8, &b.map(f64::to_bits));
    run(
        &mut st,
        &["cmp (8|M0) (lt)f0.0 r2.0<1>:df r4.0<8;8,1>:df r6.0<8;8,1>:df"],
    );
    let want: Vec<u64> = a
        .iter()
        .zip(&b)
        .map(|(x, y)| if x < y { u64::MAX } else { 0 })
        .collect();
    assert_eq!(get(&st, r(2, 0), 8, 4), want);
    assert_eq!(st.flag(0).unwrap().1 & 0xff, 0xff);
}

/// seed000 §3.3.3.7 ("Default Value: Provided by the Dispatcher"), §3.3.3.11 ("Default
/// Value: No"), §3.3.3.12 (a free-running timestamp): the default state does not know them.
#[test]
fn dispatch_values_are_undefined_by_default() {
    for p in Platform::ALL {
        let st = ThreadState::new(p);
        // sr0.0: FFID 27:24, priority class 23, HSID 12, EUID 11:8, TID 2:0.
        let ids = 0x0f00_0000 | 1 << 23 | 1 << 12 | 0xf00 | 0x7;
        let (v, u) = st.arf_dword("sr0", 0).unwrap();
        assert_eq!(u, ids, "{p:?} sr0.0 undefined bits");
        assert_eq!(
            v & !ids,
            0,
            "{p:?} sr0.0: priority and reserved bits are zero"
        );
        // sr0.1: FFTID 31:24.
        assert_eq!(
            st.arf_dword("sr0", 1).unwrap().1,
            0xff00_0000,
            "{p:?} sr0.1"
        );
        // sr0.2/sr0.3: every channel dispatched.
        assert_eq!(st.arf_dword("sr0", 2).unwrap(), (u32::MAX, 0), "{p:?}");
        // tm0.0/tm0.1 undefined; TmEvent (tm0.2 bit 0) defined zero.
        assert_eq!(st.arf_dword("tm0", 0).unwrap().1, u32::MAX, "{p:?} tm0.0");
        assert_eq!(st.arf_dword("tm0", 1).unwrap().1, u32::MAX, "{p:?} tm0.1");
        assert_eq!(st.arf_dword("tm0", 2).unwrap().1 & 1, 0, "{p:?} TmEvent");
        // tdr0: the FFTIDs and valid bits (the zero bits 14:8 may read as defined zeros).
        for d in 0..4 {
            let u = st.arf_dword("tdr0", d).unwrap().1;
            assert_eq!(u & 0x80ff_80ff, 0x80ff_80ff, "{p:?} tdr0 dword {d}");
        }
        // cr0 and n0 stay defined (fields with a value: reserved bits always read undefined).
        for (reg, name) in [
            ("cr0", "rounding_mode"),
            ("cr0", "fp_mode"),
            ("n0", "thread_count"),
        ] {
            if let Some(f) = st.field_info(reg, name) {
                assert_eq!(st.field(f), Some((0, false)), "{p:?} {reg}.{name}");
            }
        }
    }
}

/// A program reading them gets undefined values; a state that gives them makes them known.
#[test]
fn dispatch_values_read_undefined_unless_a_state_gives_them() {
    let mut st = ThreadState::new(Skl);
    run(
        &mut st,
        &[
            "mov (1|M0) r1.0<1>:ud tm0.0<0;1,0>:ud",
            "mov (1|M0) r1.1<1>:ud sr0.0<0;1,0>:ud",
            "mov (1|M0) r1.2<1>:uw tdr0.0<0;1,0>:uw",
        ],
    );
    assert!(get1(&st, r(1, 0), 4).1, "tm0.0");
    assert!(get1(&st, r(1, 4), 4).1, "sr0.0");
    assert!(get1(&st, r(1, 8), 2).1, "tdr0.0");
    let mut st = json::load(
        Skl,
        r#"{"sr0": {"ffid": 0, "priority_class": 0, "hsid": 1, "euid": 5, "tid": 3},
            "tm0": "78563412 00000000"}"#,
    )
    .unwrap();
    run(
        &mut st,
        &[
            "mov (1|M0) r1.0<1>:ud tm0.0<0;1,0>:ud",
            "mov (1|M0) r1.1<1>:ud sr0.0<0;1,0>:ud",
        ],
    );
    assert_eq!(get1(&st, r(1, 0), 4), (0x1234_5678, false));
    assert_eq!(get1(&st, r(1, 4), 4), (1 << 12 | 5 << 8 | 3, false));
}

/// The execution-context setting travels with the state JSON.
#[test]
fn preemptible_is_a_state_setting() {
    let st = ThreadState::new(Bdw);
    assert!(!st.preemptible());
    let st = json::load(Bdw, r#"{"preemptible": true}"#).unwrap();
    assert!(st.preemptible());
    let back = json::load(Bdw, &json::save(&st)).unwrap();
    assert_eq!(back, st);
    assert!(back.preemptible());
    let e = json::load(Bdw, r#"{"preemptible": 1}"#).unwrap_err();
    assert!(e.to_string().contains("$.preemptible"), "{e}");
}
