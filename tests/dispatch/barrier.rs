//! spec/memory.toml send.gateway.barrier, send.gateway.wait-blocks and
//! send.gateway.barrier-incomplete: the threads of a work group interleaved by the dispatch
//! runner, meeting at the gateway barrier.

use euref::asm::{self, Dialect};
use euref::dispatch::run::{run, RunOptions, ThreadEnd};
use euref::dispatch::Dispatch;
use euref::spec::Platform;
use euref::thread::Image;

/// One work group of 16 invocations, SIMD8: two threads; local ID X of each lane at r1
/// (payload.local-ids); 64 bytes of SLM and a 64-byte result surface at BTI 3.
const TWO_THREADS_JSON: &str = r#"{"kernel": {"file": "k.asm"}, "platform": "skl", "simd": 8,
 "local_size": [16, 1, 1], "work_groups": [1, 1, 1], "slm_size": 64,
 "local_ids": {"grf": 1, "components": 1},
 "surfaces": [{"bti": 3, "size": 64, "dtype": "uint32"}]}"#;

/// Invocation i (local ID X, 0..15) writes 3 * i + 5 to SLM dword i (DC1 untyped write, BTI
/// 254: 0x2026EFE), sends the barrier (SFID 3, 0x2000004, payload r20 zeroed with r20.2 =
/// r0.2 & 0x8f000000, as Mesa builds it), waits on n0.0, then reads SLM dword i ^ 8 (the
/// other thread's lane: DC1 untyped read 0x2106EFE) and writes it to dword i of BTI 3.
const EXCHANGE: &str = "\
mov (8|M0) r10.0<1>:ud r1.0<8;8,1>:uw
shl (8|M0) r2.0<1>:ud r10.0<8;8,1>:ud 0x2:ud
mul (8|M0) r11.0<1>:ud r10.0<8;8,1>:ud 0x3:ud
add (8|M0) r3.0<1>:ud r11.0<8;8,1>:ud 0x5:ud
sends (8|M0) null r2 r3 0x4C 0x2026EFE
(W) mov (8|M0) r20.0<1>:ud 0x0:ud
(W) and (1|M0) r20.2<1>:ud r0.2<0;1,0>:ud 0x8f000000:ud
(W) send (1|M0) null r20 0x3 0x2000004
(W) wait (1|M0) n0.0<1>:ud
xor (8|M0) r12.0<1>:ud r10.0<8;8,1>:ud 0x8:ud
shl (8|M0) r4.0<1>:ud r12.0<8;8,1>:ud 0x2:ud
send (8|M0) r5 r4 0xC 0x2106EFE
sends (8|M0) null r2 r5 0x4C 0x2026E03
send (8|M0) null r0 0x27 0x2000010 {EOT}
";

fn dispatch(text: &str) -> (Dispatch, Image) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("k.asm"), text).unwrap();
    let d = Dispatch::parse(TWO_THREADS_JSON, dir.path()).unwrap();
    let prog = asm::parse(text.as_bytes(), Some(Dialect::Iga), Platform::Skl).expect("assembles");
    let image = Image::from_insns(Platform::Skl, &prog.insns, 0).expect("encodes");
    (d, image)
}

fn dwords(b: &[Option<u8>]) -> Vec<Option<u32>> {
    b.chunks(4)
        .map(|c| Some(u32::from_le_bytes([c[0]?, c[1]?, c[2]?, c[3]?])))
        .collect()
}

#[test]
fn threads_exchange_slm_values_across_the_barrier() {
    let (d, image) = dispatch(EXCHANGE);
    let r = run(&d, &image, &RunOptions::default()).unwrap();
    assert_eq!(r.threads.len(), 2);
    for t in &r.threads {
        assert_eq!(t.end, ThreadEnd::Eot, "{t:?}");
        assert_eq!(t.steps, 14, "{t:?}");
    }
    // Dword i holds the value invocation i ^ 8 wrote: 3 * (i ^ 8) + 5. Thread 0 reads what
    // thread 1 wrote after the barrier, so thread 1 must run before thread 0 reads.
    let want: Vec<Option<u32>> = (0..16u32).map(|i| Some(3 * (i ^ 8) + 5)).collect();
    assert_eq!(dwords(r.surface(3).unwrap()), want);
}

/// The row and message of a thread's error end.
fn error_of(end: &ThreadEnd) -> (Option<u32>, &str, &str) {
    match end {
        ThreadEnd::Error { ip, row, message } => (*ip, row.as_deref().unwrap_or(""), message),
        e => panic!("expected an error end, got {e:?}"),
    }
}

#[test]
fn a_wait_without_a_barrier_cannot_complete() {
    // Both threads wait at IP 0 for a notification no barrier sends.
    let (d, image) =
        dispatch("(W) wait (1|M0) n0.0<1>:ud\nsend (8|M0) null r0 0x27 0x2000010 {EOT}\n");
    let r = run(&d, &image, &RunOptions::default()).unwrap();
    for t in &r.threads {
        let (ip, row, message) = error_of(&t.end);
        assert_eq!((ip, row), (Some(0), "send.gateway.barrier-incomplete"));
        assert!(message.contains("threads 0, 1 wait"), "{message}");
        assert!(message.contains("threads none have ended"), "{message}");
        assert_eq!(t.steps, 0);
    }
}

#[test]
fn a_barrier_a_thread_never_reaches_cannot_complete() {
    // Thread 0 (local IDs 0-7) sends the barrier and waits; thread 1 jumps over both to the
    // end of thread (jmpi at 32 goes 48 bytes on from itself: past the send and the wait).
    let text = "\
(W) cmp (1|M0) (ge)f0.0 null<1>:uw r1.0<0;1,0>:uw 0x8:uw
(W) mov (8|M0) r20.0<1>:ud 0x0:ud
(W&f0.0) jmpi (1|M0) 48
(W) send (1|M0) null r20 0x3 0x2000004
(W) wait (1|M0) n0.0<1>:ud
send (8|M0) null r0 0x27 0x2000010 {EOT}
";
    let (d, image) = dispatch(text);
    let r = run(&d, &image, &RunOptions::default()).unwrap();
    let (ip, row, message) = error_of(&r.threads[0].end);
    assert_eq!((ip, row), (Some(64), "send.gateway.barrier-incomplete"));
    assert!(message.contains("threads 0 wait"), "{message}");
    assert!(message.contains("arrived at the barrier: 0"), "{message}");
    assert!(message.contains("threads 1 have ended"), "{message}");
    assert_eq!(r.threads[1].end, ThreadEnd::Eot);
}

#[test]
fn a_second_barrier_before_the_first_completes_is_refused() {
    let text = "\
(W) mov (8|M0) r20.0<1>:ud 0x0:ud
(W) send (1|M0) null r20 0x3 0x2000004
(W) send (1|M0) null r20 0x3 0x2000004
send (8|M0) null r0 0x27 0x2000010 {EOT}
";
    let (d, image) = dispatch(text);
    let r = run(&d, &image, &RunOptions::default()).unwrap();
    let (ip, row, _) = error_of(&r.threads[0].end);
    assert_eq!((ip, row), (Some(32), "send.gateway.barrier-again"));
}

/// send.gateway.barrier-id: two work groups of one SIMD8 thread each; payload.r0.barrier-id
/// gives work group n the ID n (bits 27:24 of r0.2). Every thread sends a barrier whose
/// payload dword 2 is 0x01000000 (ID 1): work group 1's message is its own, work group 0's
/// names another group's barrier and is refused naming the row and the thread.
#[test]
fn a_barrier_message_with_another_groups_id_is_refused() {
    let json = r#"{"kernel": {"file": "k.asm"}, "platform": "skl", "simd": 8,
 "local_size": [8, 1, 1], "work_groups": [2, 1, 1]}"#;
    let text = "\
(W) mov (8|M0) r20.0<1>:ud 0x0:ud
(W) mov (1|M0) r20.2<1>:ud 0x1000000:ud
(W) send (1|M0) null r20 0x3 0x2000004
(W) wait (1|M0) n0.0<1>:ud
send (8|M0) null r0 0x27 0x2000010 {EOT}
";
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("k.asm"), text).unwrap();
    let d = Dispatch::parse(json, dir.path()).unwrap();
    let prog = asm::parse(text.as_bytes(), Some(Dialect::Iga), Platform::Skl).expect("assembles");
    let image = Image::from_insns(Platform::Skl, &prog.insns, 0).expect("encodes");
    let r = run(&d, &image, &RunOptions::default()).unwrap();
    let (ip, row, message) = error_of(&r.threads[0].end);
    assert_eq!((ip, row), (Some(32), "send.gateway.barrier-id"));
    assert!(message.contains("thread 0 of work group 0"), "{message}");
    assert!(message.contains("bits 0x01000000"), "{message}");
    assert!(message.contains("are 0x00000000"), "{message}");
    assert_eq!(r.threads[1].group, 1);
    assert_eq!(r.threads[1].end, ThreadEnd::Eot);
}
