//! Stateless (binding-table index 255) A64 messages writing into the A64 buffers of a dispatch
//! (spec/memory.toml mem.a64, mem.a64.bti, send.a64-*): a hand-written kernel, and the four
//! kernels of seed 003 (tests/fixtures/seed003.asm) with the argument registers the article
//! names, checked against their OpenCL source.

use crate::kernel_util::*;
use euref::dispatch::run::{run, RunOptions, RunResult, ThreadEnd};
use euref::exec::CompressedOverlap;
use euref::spec::Platform;

fn assert_all_eot(r: &RunResult) {
    for t in &r.threads {
        assert_eq!(t.end, ThreadEnd::Eot, "{t:?}");
    }
}

/// One SIMD8 thread; r1.0 (the CURBE) holds the buffer's address A. Lane l:
/// - A64 untyped write (0x6066EFF: SIMD8, R, BTI 255) of 100 + l at A + 4l;
/// - A64 byte scattered write (0x60680FF: SIMD8, 1 byte, BTI 255) of the low byte of
///   0xABCD40 + l at A + 32 + l (the upper bytes of the data dword are ignored);
/// - A64 untyped read (0x4146EFF) of A + 4l back into r9, and its value + 1000 written at
///   A + 64 + 4l;
/// - A64 byte scattered read (0x41400FF: SIMD8, 1 byte, BTI 255) of A + 32 + l into the low
///   byte of r7 (the bytes above are undefined, and the byte write ignores them), written back
///   from r7 with 0x60680FF at A + 40 + l.
///
/// Rows: mem.a64 (64-bit addresses above 4 GiB), send.a64-untyped-write,
/// send.a64-scattered-write, send.a64-untyped-read, send.a64-scattered-read.
const HAND: &str = "\
mov (8|M0) r10.0<1>:uw 0x76543210:uv
mov (8|M0) r11.0<1>:ud r10.0<8;8,1>:uw
shl (8|M0) r12.0<1>:ud r11.0<8;8,1>:ud 0x2:ud
mov (8|M0) r14.0<1>:uq r12.0<8;8,1>:ud
add (8|M0) r2.0<1>:q r1.0<0;1,0>:q r14.0<4;4,1>:q
add (8|M0) r4.0<1>:ud r11.0<8;8,1>:ud 0x64:ud
send (8|M0) null r2 0xC 0x6066EFF
mov (8|M0) r16.0<1>:uq r11.0<8;8,1>:ud
add (8|M0) r5.0<1>:q r1.0<0;1,0>:q r16.0<4;4,1>:q
add (8|M0) r5.0<1>:q r5.0<4;4,1>:q 0x20:ud
add (8|M0) r7.0<1>:ud r11.0<8;8,1>:ud 0xABCD40:ud
send (8|M0) null r5 0xC 0x60680FF
send (8|M0) r9 r2 0xC 0x4146EFF
add (8|M0) r2.0<1>:q r2.0<4;4,1>:q 0x40:ud
add (8|M0) r4.0<1>:ud r9.0<8;8,1>:ud 0x3E8:ud
send (8|M0) null r2 0xC 0x6066EFF
send (8|M0) r7 r5 0xC 0x41400FF
add (8|M0) r5.0<1>:q r5.0<4;4,1>:q 0x8:ud
send (8|M0) null r5 0xC 0x60680FF
send (8|M0) null r0 0x27 0x2000010 {EOT}
";

/// The buffer above 4 GiB (its address needs the high dword) and the CURBE holding it.
fn hand_json(platform: &str) -> String {
    format!(
        r#"{{"platform": "{platform}", "simd": 8, "local_size": [8, 1, 1],
 "work_groups": [1, 1, 1],
 "a64_buffers": [{{"address": "0x100000000", "size": 96}}],
 "curbe": {{"cross_thread_regs": 1, "data": {{"dtype": "uint64",
   "values": [4294967296, 0, 0, 0]}}}}}}"#
    )
}

#[test]
fn hand_written_kernel_reads_and_writes_through_a64_messages() {
    for (p, name) in [(Platform::Skl, "skl"), (Platform::Bdw, "bdw")] {
        let r = run(
            &dispatch(&hand_json(name)),
            &image(p, HAND),
            &RunOptions::default(),
        )
        .unwrap();
        assert_all_eot(&r);
        let b = a64(&r, 0);
        let want: Vec<Option<u32>> = (0..8).map(|l| Some(100 + l)).collect();
        assert_eq!(dwords(&b[0..32]), want, "{name}");
        let bytes: Vec<Option<u8>> = (0..8).map(|l| Some(0x40 + l)).collect();
        assert_eq!(&b[32..40], bytes.as_slice(), "{name}");
        // Read back one byte a lane and stored 8 bytes further on.
        assert_eq!(&b[40..48], bytes.as_slice(), "{name}");
        // Never written: undefined (mem.undefined-bytes).
        assert!(b[48..64].iter().all(Option::is_none), "{name}");
        let want: Vec<Option<u32>> = (0..8).map(|l| Some(1100 + l)).collect();
        assert_eq!(dwords(&b[64..96]), want, "{name}");
    }
}

#[test]
fn an_a64_message_on_a_surface_index_is_refused() {
    // BTI 3 instead of 255 on the first write: mem.a64.bti, at the send (IP 6 * 16).
    let r = run(
        &dispatch(&hand_json("skl")),
        &image(Platform::Skl, &HAND.replacen("0x6066EFF", "0x6066E03", 1)),
        &RunOptions::default(),
    )
    .unwrap();
    match &r.threads[0].end {
        ThreadEnd::Error { ip, row, .. } => {
            assert_eq!(row.as_deref(), Some("mem.a64.bti"));
            assert_eq!(*ip, Some(0x60));
        }
        e => panic!("expected the row's refusal, got {e:?}"),
    }
}

/// The kernel of `// ==== Figure <figure>` in tests/fixtures/seed003.asm.
fn seed_kernel(figure: &str) -> String {
    let text = include_str!("../fixtures/seed003.asm");
    let head = format!("// ==== Figure {figure}:");
    let start = text.find(&head).expect("the figure is in the fixture");
    let body = &text[start..];
    let body = &body[body.find('\n').unwrap() + 1..];
    let end = body.find("// ====").unwrap_or(body.len());
    body[..end].to_string()
}

/// The platforms the fixture is for (seed003: Broadwell and Skylake build the kernels).
const SEED_PLATFORMS: [(Platform, &str); 2] = [(Platform::Bdw, "bdw"), (Platform::Skl, "skl")];

/// A SIMD32 dispatch of `groups` work groups of 32 (local IDs at r1-r2, as the article's
/// kernels read them), the A64 buffers `buffers` (JSON objects), `regs` CURBE registers of
/// data `curbe` from r`grf`.
fn seed_json(
    platform: &str,
    groups: u32,
    buffers: &str,
    grf: u32,
    regs: u32,
    curbe: &str,
) -> String {
    format!(
        r#"{{"platform": "{platform}", "simd": 32, "local_size": [32, 1, 1],
 "work_groups": [{groups}, 1, 1], "a64_buffers": [{buffers}],
 "curbe": {{"cross_thread_regs": {regs}, "grf": {grf}, "data": {curbe}}},
 "local_ids": {{"grf": 1, "components": 1}}}}"#
    )
}

#[test]
fn seed003_empty_ends() {
    for (p, name) in SEED_PLATFORMS {
        let d = dispatch(&format!(
            r#"{{"platform": "{name}", "simd": 32, "local_size": [32, 1, 1],
 "work_groups": [1, 1, 1]}}"#
        ));
        let r = run(&d, &image(p, &seed_kernel("3")), &RunOptions::default()).unwrap();
        assert_eq!(r.threads.len(), 1);
        assert_all_eot(&r);
        assert_eq!(r.threads[0].steps, 3, "{name}");
    }
}

#[test]
fn seed003_meaning_of_life_stores_42_at_out_31() {
    // `out` (uchar*, 64 bytes at 0x200000): its address in r3.0 ("r3 and r4 contain the
    // address of out", one qword broadcast by <0;1,0>).
    for (p, name) in SEED_PLATFORMS {
        let curbe = r#"{"dtype": "uint64", "values": [2097152, 0, 0, 0]}"#;
        let d = dispatch(&seed_json(
            name,
            1,
            r#"{"address": "0x200000", "size": 64}"#,
            3,
            1,
            curbe,
        ));
        let r = run(&d, &image(p, &seed_kernel("9")), &RunOptions::default()).unwrap();
        assert_all_eot(&r);
        let b = a64(&r, 0);
        for (i, v) in b.iter().enumerate() {
            assert_eq!(*v, (i == 31).then_some(42), "{name}: out[{i}]");
        }
    }
}

/// r7: dword 0 the global offset (0), dword 3 the work-group size (32); r8.0: `out` (or
/// `in` and r8.1 `out`) -- the registers the article's get_global_id(0) and address code read
/// ("r0.1, r7.0 and r7.3 will contain the necessary starting values"; "r8 and r9 contain the
/// address of out").
fn r7_r8(addresses: [u64; 2]) -> String {
    format!(
        r#"{{"dtype": "uint32", "values": [0, 0, 0, 32, 0, 0, 0, 0, {}, {}, {}, {}, 0, 0, 0, 0]}}"#,
        addresses[0] & 0xffff_ffff,
        addresses[0] >> 32,
        addresses[1] & 0xffff_ffff,
        addresses[1] >> 32
    )
}

/// Run options with feature.compressed-overlap's reading `how`.
fn overlap(how: CompressedOverlap) -> RunOptions {
    let mut o = RunOptions::default();
    o.exec.compressed_overlap = how;
    o
}

/// Lanes 24-31 of a SIMD32 thread of these kernels (`lane % 32 >= 24`) compute their index
/// in `add (16|M16) r5.0<1>:ud r5.0<0;1,0>:ud r2.0<8;8,1>:uw` (modulate: r9), whose second
/// half reads the scalar r5.0 that its first half writes: spec/platforms.toml
/// feature.compressed-overlap. Reading the sources first (seed003, IGC) gives index i, as the
/// OpenCL source says; the halves in order (seed000 §3.2.5, Mesa) read r5.0 after the first
/// half wrote lane 16's index (base + 16) there, so lanes 24-31 get i + 16.
fn halves_index(i: usize) -> usize {
    if i % 32 >= 24 {
        i + 16
    } else {
        i
    }
}

/// Left undefined (the default), the two readings give different addresses to lanes 24-31,
/// so each thread stops at its first message for them, the `(8|M24)` send, with its lane 0
/// address undefined (send.undefined-address); the messages before it have executed.
fn assert_stops_at_lane_24(r: &RunResult) {
    assert_eq!(r.threads.len(), 2);
    for t in &r.threads {
        match &t.end {
            ThreadEnd::Error { row, message, .. } => {
                assert_eq!(row.as_deref(), Some("send.undefined-address"), "{message}");
                assert!(message.contains("lane 0's address"), "{message}");
                // The refusal names the instruction whose overlap left the address undefined:
                // the `(16|M16)` add at IP 0x60 (meaning_of_life2) or 0x60 (modulate's r9).
                assert!(
                    message.contains(
                        "left bits undefined where the sources conflict: \
                                      [feature.compressed-overlap]"
                    ),
                    "{message}"
                );
            }
            e => panic!("expected the undefined-address error, got {e:?}"),
        }
    }
}

#[test]
fn seed003_meaning_of_life2_stores_42_at_out_i() {
    // Two work groups of 32; out is 96 bytes. OpenCL: out[0..64] = 42 (sources first).
    // Halves in order (halves_index): lanes 24-31 store at i + 16, so out[24..32] and
    // out[56..64] stay undefined and group 1's lanes 24-31 store 42 at out[72..80].
    for (p, name) in SEED_PLATFORMS {
        let d = dispatch(&seed_json(
            name,
            2,
            r#"{"address": "0x200000", "size": 96}"#,
            7,
            2,
            &r7_r8([0x20_0000, 0]),
        ));
        let kernel = image(p, &seed_kernel("11"));
        // Undefined: the stores of lanes 0-23 of each group executed, those of 24-31 not.
        let r = run(&d, &kernel, &RunOptions::default()).unwrap();
        assert_stops_at_lane_24(&r);
        for (i, v) in a64(&r, 0).iter().enumerate() {
            assert_eq!(
                *v,
                (i < 64 && i % 32 < 24).then_some(42),
                "{name}: out[{i}]"
            );
        }
        for (how, index) in [
            (
                CompressedOverlap::SourcesFirst,
                (|i| i) as fn(usize) -> usize,
            ),
            (CompressedOverlap::Halves, halves_index),
        ] {
            let r = run(&d, &kernel, &overlap(how)).unwrap();
            assert_eq!(r.threads.len(), 2);
            assert_all_eot(&r);
            let written: Vec<usize> = (0..64).map(index).collect();
            for (i, v) in a64(&r, 0).iter().enumerate() {
                assert_eq!(
                    *v,
                    written.contains(&i).then_some(42),
                    "{name} {how:?}: out[{i}]"
                );
            }
        }
    }
}

#[test]
fn seed003_modulate_halves_in() {
    // in[i] (float32 at 0x300000, 64 elements) = i - 20.25 for 64 invocations (two work
    // groups); out at 0x200000 (64 elements). 0.5 * x is exact for these values: the product
    // is computed here in f32. Sources first: out[i] = 0.5 * in[i] (the OpenCL source).
    // Halves in order (halves_index): lanes 24-31 read in[i + 16] and write out[i + 16]:
    // group 0's land on group 1's lanes 8-15 with the same values, group 1's read and write
    // past both buffers (undefined bytes, outside the result); out[24..32] and out[56..64]
    // stay undefined.
    let ins: Vec<f32> = (0..64).map(|i| i as f32 - 20.25).collect();
    let values: Vec<String> = ins.iter().map(|x| format!("{x}")).collect();
    for (p, name) in SEED_PLATFORMS {
        let buffers = format!(
            r#"{{"address": "0x200000", "size": 256, "dtype": "float32"}},
 {{"address": "0x300000", "size": 256, "init": {{"dtype": "float32", "values": [{}]}}}}"#,
            values.join(", ")
        );
        let d = dispatch(&seed_json(
            name,
            2,
            &buffers,
            7,
            2,
            &r7_r8([0x30_0000, 0x20_0000]),
        ));
        let kernel = image(p, &seed_kernel("13"));
        // Undefined: the loads come first, and the lanes 24-31 load stops each thread before
        // any store.
        let r = run(&d, &kernel, &RunOptions::default()).unwrap();
        assert_stops_at_lane_24(&r);
        assert!(a64(&r, 0).iter().all(Option::is_none), "{name}");
        for (how, index) in [
            (
                CompressedOverlap::SourcesFirst,
                (|i| i) as fn(usize) -> usize,
            ),
            (CompressedOverlap::Halves, halves_index),
        ] {
            let r = run(&d, &kernel, &overlap(how)).unwrap();
            assert_eq!(r.threads.len(), 2);
            assert_all_eot(&r);
            let written: Vec<usize> = (0..64).map(index).collect();
            let want: Vec<Option<u32>> = (0..64)
                .map(|i| written.contains(&i).then(|| (0.5f32 * ins[i]).to_bits()))
                .collect();
            assert_eq!(dwords(a64(&r, 0)), want, "{name} {how:?}");
            // The input is unchanged.
            let want_in: Vec<Option<u32>> = ins.iter().map(|x| Some(x.to_bits())).collect();
            assert_eq!(dwords(a64(&r, 1)), want_in, "{name} {how:?}");
        }
    }
}
