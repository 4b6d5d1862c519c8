//! The payload of a hand-made description, derived by hand from spec/payload.toml.

use crate::util::Scratch;
use euref::dispatch::payload::{all_threads, dispatch_mask, thread_state, vector_mask};
use euref::dispatch::Dispatch;
use euref::spec::payload as rows;
use euref::state::ThreadState;

/// SIMD16, 5x4x1 invocations (20: two threads, the second with 4 lanes), 20x1x1 work
/// groups; CURBE: one cross-thread register at g1 (bytes 0x10..0x2f), one per-thread register
/// (thread 0: 0x40.., thread 1: 0x60..) at g2; local IDs x, y from g3.
fn dispatch(platform: &str) -> (Scratch, Dispatch) {
    let s = Scratch::new();
    let hex: String = (0u8..96).map(|b| format!("{:02x}", b + 0x10)).collect();
    let json = format!(
        r#"{{"kernel": {{"file": "k.bin"}}, "platform": "{platform}", "simd": 16,
        "local_size": [5, 4, 1], "work_groups": [20, 1, 1],
        "curbe": {{"cross_thread_regs": 1, "per_thread_regs": 1, "data": {{"hex": "{hex}"}}}},
        "local_ids": {{"grf": 3, "components": 2}}}}"#
    );
    let d = s.parse(&json).expect("valid");
    (s, d)
}

fn dword(st: &ThreadState, reg: usize, k: usize) -> (u32, bool) {
    let (v, undef) = st.read_grf(reg * 32 + 4 * k, 4).expect("in range");
    (v as u32, undef)
}

fn defined_dword(st: &ThreadState, reg: usize, k: usize) -> u32 {
    let (v, undef) = dword(st, reg, k);
    assert!(!undef, "r{reg}.{k} is undefined");
    v
}

fn sr0(st: &ThreadState, k: usize) -> u32 {
    let (v, undef) = st.arf_dword("sr0", k).expect("sr0");
    assert_eq!(undef, 0, "sr0.{k} has undefined bits {undef:#x}");
    v
}

#[test]
fn r0_header_fields() {
    let (_s, d) = dispatch("skl");
    // Work group 18 of 20x1x1: ID (18, 0, 0); barrier ID 18 mod 16 = 2
    // (payload.r0.barrier-id in bits 27:24; payload.r0.barrier-id-msb bit 31 = 0 on gen9).
    let t = thread_state(&d, 18, 1).expect("payload");
    assert_eq!((t.group, t.group_id, t.thread), (18, [18, 0, 0], 1));
    let st = &t.state;
    assert_eq!(defined_dword(st, 0, 1), 18, "payload.r0.group-id-x");
    assert_eq!(defined_dword(st, 0, 6), 0, "payload.r0.group-id-y");
    assert_eq!(defined_dword(st, 0, 7), 0, "payload.r0.group-id-z");
    // r0.2: byte 3 defined = 0x02 (payload.r0.byte-fill: bits 31:28 of that byte are 0),
    // bytes 0-2 undefined (payload.r0.rest).
    assert_eq!(st.read_grf(2 * 4 + 3, 1).unwrap(), (0x02, false));
    for b in 0..3 {
        assert!(st.grf_byte_undefined(8 + b), "r0.2 byte {b}");
    }
    // payload.r0.fftid, payload.r0.scratch, payload.r0.rest: r0.0, r0.3, r0.4, r0.5 undefined.
    for k in [0, 3, 4, 5] {
        assert!(dword(st, 0, k).1, "r0.{k} should be undefined");
    }
    for id in [
        "payload.r0.fftid",
        "payload.r0.scratch",
        "payload.r0.rest",
        "payload.r0.byte-fill",
    ] {
        assert!(rows::by_id(id).is_some(), "{id}");
    }
}

#[test]
fn barrier_id_msb_row_is_gen9_only() {
    let skl = euref::spec::Platform::parse("skl").unwrap();
    let bdw = euref::spec::Platform::parse("bdw").unwrap();
    assert!(rows::R0_BARRIER_ID_MSB.gens.contains(skl));
    assert!(!rows::R0_BARRIER_ID_MSB.gens.contains(bdw));
    // On bdw the barrier ID byte is the same: group 35 of a 20x2x1 dispatch gets 35 mod 16 = 3.
    let s = Scratch::new();
    let d = s
        .parse(
            r#"{"kernel": {"file": "k.bin"}, "platform": "bdw", "simd": 8,
              "local_size": [8, 1, 1], "work_groups": [20, 2, 1]}"#,
        )
        .unwrap();
    let t = thread_state(&d, 35, 0).unwrap();
    assert_eq!(t.group_id, [15, 1, 0]);
    assert_eq!(defined_dword(&t.state, 0, 1), 15);
    assert_eq!(defined_dword(&t.state, 0, 6), 1);
    assert_eq!(t.state.read_grf(11, 1).unwrap(), (0x03, false));
}

#[test]
fn curbe_blocks_per_thread() {
    let (_s, d) = dispatch("skl");
    for t in 0..2u32 {
        let p = thread_state(&d, 0, t).unwrap();
        // payload.curbe.cross-thread: g1 = bytes 0x10..0x2f for every thread.
        for k in 0..8usize {
            let b = 0x10 + 4 * k as u32;
            let want = u32::from_le_bytes([b as u8, b as u8 + 1, b as u8 + 2, b as u8 + 3]);
            assert_eq!(defined_dword(&p.state, 1, k), want, "thread {t} g1.{k}");
        }
        // payload.curbe.per-thread: g2 = bytes 0x30 + 32*t ...
        for k in 0..8usize {
            let b = 0x30 + 32 * t + 4 * k as u32;
            let want = u32::from_le_bytes([b as u8, b as u8 + 1, b as u8 + 2, b as u8 + 3]);
            assert_eq!(defined_dword(&p.state, 2, k), want, "thread {t} g2.{k}");
        }
        // payload.grf.rest: g5 on is undefined.
        for r in 5..128 {
            assert!(p.state.grf_range_undefined(r * 32, 32), "thread {t} r{r}");
        }
    }
}

#[test]
fn dispatch_and_vector_masks() {
    let (_s, d) = dispatch("skl");
    // payload.mask.dispatch: 20 invocations, thread 0 all 16 lanes, thread 1 lanes 0-3.
    assert_eq!(dispatch_mask(&d, 0), 0xffff);
    assert_eq!(dispatch_mask(&d, 1), 0x000f);
    // payload.mask.vector: each 4-lane group with a set lane.
    assert_eq!(vector_mask(0x000f), 0x000f);
    assert_eq!(vector_mask(0x0011), 0x00ff);
    assert_eq!(vector_mask(0x8000_0000), 0xf000_0000);
    let t1 = thread_state(&d, 0, 1).unwrap();
    assert_eq!(sr0(&t1.state, 2), 0x000f);
    assert_eq!(sr0(&t1.state, 3), 0x000f);
    let t0 = thread_state(&d, 0, 0).unwrap();
    assert_eq!(sr0(&t0.state, 2), 0xffff);
    assert_eq!(sr0(&t0.state, 3), 0xffff);
}

#[test]
fn local_ids_per_lane() {
    let (_s, d) = dispatch("skl");
    // payload.local-ids and payload.order.threads: thread t lane i is index 16t+i,
    // x = index mod 5, y = index / 5 (mod 4); X words at g3, Y words at g4.
    let t0 = thread_state(&d, 0, 0).unwrap();
    for i in 0..16usize {
        let (x, y) = (i % 5, i / 5);
        assert_eq!(
            t0.state.read_grf(3 * 32 + 2 * i, 2).unwrap(),
            (x as u64, false)
        );
        assert_eq!(
            t0.state.read_grf(4 * 32 + 2 * i, 2).unwrap(),
            (y as u64, false)
        );
    }
    let t1 = thread_state(&d, 0, 1).unwrap();
    // Lanes 0-3: indices 16-19 = (1,3) (2,3) (3,3) (4,3); lanes 4-15 outside DMask: undefined.
    for i in 0..4usize {
        assert_eq!(
            t1.state.read_grf(3 * 32 + 2 * i, 2).unwrap(),
            (i as u64 + 1, false)
        );
        assert_eq!(t1.state.read_grf(4 * 32 + 2 * i, 2).unwrap(), (3, false));
    }
    assert!(t1.state.grf_range_undefined(3 * 32 + 8, 24));
    assert!(t1.state.grf_range_undefined(4 * 32 + 8, 24));
}

#[test]
fn every_thread_of_the_dispatch() {
    let (_s, d) = dispatch("skl");
    let all: Vec<_> = all_threads(&d).map(|t| t.unwrap()).collect();
    assert_eq!(all.len(), 40);
    let order: Vec<(u64, u32)> = all.iter().map(|t| (t.group, t.thread)).take(4).collect();
    assert_eq!(order, vec![(0, 0), (0, 1), (1, 0), (1, 1)]);
    assert!(all.iter().all(|t| t.state.platform() == d.platform));
}

#[test]
fn a_thread_the_dispatch_does_not_have_is_an_error() {
    let (_s, d) = dispatch("skl");
    let e = thread_state(&d, 0, 2).unwrap_err();
    assert!(e.to_string().contains("20 work groups of 2 threads"), "{e}");
    assert!(thread_state(&d, 20, 0).is_err());
}

#[test]
fn local_ids_in_three_dimensions() {
    // payload.local-ids with 3 components: 2x3x4 = 24 invocations, SIMD16, X at g1, Y at g2,
    // Z at g3. Index i: x = i mod 2, y = (i / 2) mod 3, z = i / 6.
    let s = Scratch::new();
    let d = s
        .parse(
            r#"{"kernel": {"file": "k.bin"}, "platform": "skl", "simd": 16,
              "local_size": [2, 3, 4], "work_groups": [1, 1, 1],
              "local_ids": {"grf": 1, "components": 3}}"#,
        )
        .unwrap();
    let t1 = thread_state(&d, 0, 1).unwrap();
    assert_eq!(t1.dmask, 0xff);
    // Lanes 0-7 of thread 1 are indices 16-23.
    let want: [(u64, u64, u64); 8] = [
        (0, 2, 2),
        (1, 2, 2),
        (0, 0, 3),
        (1, 0, 3),
        (0, 1, 3),
        (1, 1, 3),
        (0, 2, 3),
        (1, 2, 3),
    ];
    for (lane, (x, y, z)) in want.iter().enumerate() {
        for (reg, v) in [(1, x), (2, y), (3, z)] {
            assert_eq!(
                t1.state.read_grf(reg * 32 + 2 * lane, 2).unwrap(),
                (*v, false)
            );
        }
    }
    assert!(t1.state.grf_range_undefined(32 + 16, 16));
}

#[test]
fn seed003_igc_placement() {
    // seed003 Figure 11 (meaning_of_life2, SIMD32): local ID x as words in r1-r2, the global
    // offset at r7.0 and the local size at r7.3, the `out` pointer as r8's first qword. A
    // description places them with `local_ids` and `curbe.grf` (payload.local-ids).
    let s = Scratch::new();
    let mut curbe = [0u8; 64];
    curbe[12..16].copy_from_slice(&64u32.to_le_bytes()); // r7.3 = local size x
    curbe[32..40].copy_from_slice(&0x1_0000_0000u64.to_le_bytes()); // r8.0:uq = out
    let hex: String = curbe.iter().map(|b| format!("{b:02x}")).collect();
    let d = s
        .parse(&format!(
            r#"{{"kernel": {{"file": "k.bin"}}, "platform": "bdw", "simd": 32,
              "local_size": [64, 1, 1], "work_groups": [2, 1, 1],
              "curbe": {{"cross_thread_regs": 2, "data": {{"hex": "{hex}"}}, "grf": 7}},
              "local_ids": {{"grf": 1, "components": 1}}}}"#
        ))
        .unwrap();
    assert_eq!(d.threads_per_group(), 2);
    let t = thread_state(&d, 1, 1).unwrap();
    assert_eq!(t.dmask, u32::MAX);
    for lane in 0..32usize {
        let want = 32 + lane as u64;
        assert_eq!(
            t.state.read_grf(32 + 2 * lane, 2).unwrap(),
            (want, false),
            "lane {lane}"
        );
    }
    assert_eq!(t.state.read_grf(7 * 32 + 12, 4).unwrap(), (64, false));
    assert_eq!(t.state.read_grf(8 * 32, 8).unwrap(), (1 << 32, false));
    assert_eq!(
        t.state.read_grf(4, 4).unwrap(),
        (1, false),
        "r0.1 = group 1"
    );
    assert!(
        t.state.grf_range_undefined(3 * 32, 4 * 32),
        "r3-r6 are not payload"
    );
}
