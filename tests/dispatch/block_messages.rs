//! OWord block messages (spec/memory.toml send.block*, send.a64-block-*): hand-derived
//! payloads and responses. Each case assembles one send, executes it with
//! `euref::shared::execute` on a thread state and a memory built here, and checks the bytes
//! against values computed in the test from the rows (descriptor bits from Mesa's encoders:
//! mlen 28:25, rlen 24:20, header 19, type 18:14, control 13:8, BTI 7:0).

use euref::asm::{self, Dialect};
use euref::dispatch::run::{run, BufferKind, RunOptions, ThreadEnd};
use euref::dispatch::Dispatch;
use euref::memory::{Memory, Slm, Surface};
use euref::shared::{execute, SendError};
use euref::spec::Platform;
use euref::state::ThreadState;
use euref::thread::Image;

const DC0: u32 = 0xA;
const DC1: u32 = 0xC;
/// The surface's base in the flat memory and its binding-table index.
const BASE: u64 = 0x10_0000;
const BTI: u32 = 3;

/// A data-port descriptor.
fn desc(mlen: u32, rlen: u32, header: bool, ty: u32, ctrl: u32, bti: u32) -> u32 {
    mlen << 25 | rlen << 20 | u32::from(header) << 19 | ty << 14 | ctrl << 8 | bti
}

/// The block shapes: (block size control, OWords, first byte in the register, registers).
const SHAPES: [(u32, usize, usize, u32); 5] = [
    (0, 1, 0, 1),
    (1, 1, 16, 1),
    (2, 2, 0, 1),
    (3, 4, 0, 2),
    (4, 8, 0, 4),
];

/// The initial byte k of the surface.
fn pat(k: usize) -> u8 {
    (k * 7 + 1) as u8
}

/// A memory with `size` bytes of surface at BTI 3 (pattern `pat`).
fn memory(size: u64) -> Memory {
    let mut m = Memory::new();
    m.bind(BTI as u8, Surface { base: BASE, size });
    let bytes: Vec<Option<u8>> = (0..size as usize).map(|k| Some(pat(k))).collect();
    m.flat.write(BASE, &bytes);
    m
}

/// A thread state whose r2 is a header with `dwords` at its start (the rest 0).
fn state(p: Platform, dwords: &[u32]) -> ThreadState {
    let mut st = ThreadState::new(p);
    let mut h = [0u8; 32];
    for (i, d) in dwords.iter().enumerate() {
        h[4 * i..4 * i + 4].copy_from_slice(&d.to_le_bytes());
    }
    st.write_grf_bytes(2 * 32, &h).unwrap();
    st
}

/// Execute the send `text` (IGA syntax).
fn send(st: &mut ThreadState, mem: &mut Memory, text: &str) -> Result<(), SendError> {
    let p = st.platform();
    let prog = asm::parse(text.as_bytes(), Some(Dialect::Iga), p).expect("assembles");
    execute(st, &prog.insns[0], Some(mem)).map(|_| ())
}

/// The row that refused the send.
fn row(r: Result<(), SendError>) -> String {
    match r {
        Err(SendError::Row(e)) => e.row.id.to_string(),
        other => panic!("expected a row's refusal, got {other:?}"),
    }
}

/// GRF bytes `o..o+n` (None: undefined).
fn grf(st: &ThreadState, o: usize, n: usize) -> Vec<Option<u8>> {
    (o..o + n)
        .map(|i| (!st.grf_byte_undefined(i)).then(|| st.grf_bytes()[i]))
        .collect()
}

const PLATFORMS: [Platform; 2] = [Platform::Bdw, Platform::Skl];

/// Rows: send.block-read, send.block.layout, send.block.other-half (msgval.oword-blocks.*).
#[test]
fn aligned_read_of_each_block_size() {
    // Header dword 2 = 2 OWords: the block starts at byte 32 of the surface.
    for p in PLATFORMS {
        for (ctrl, ow, at, regs) in SHAPES {
            let mut mem = memory(256);
            let mut st = state(p, &[0, 0, 2]);
            let d = desc(1, regs, true, 0, ctrl, BTI);
            send(
                &mut st,
                &mut mem,
                &format!("send (8|M0) r10 r2 {DC0:#x} {d:#x} {{NoMask}}"),
            )
            .unwrap();
            let got = grf(&st, 10 * 32, regs as usize * 32);
            for (j, b) in got.iter().enumerate() {
                let want = (j >= at && j < at + 16 * ow).then(|| pat(32 + j - at));
                assert_eq!(*b, want, "{p:?} ctrl {ctrl} byte {j}");
            }
        }
    }
}

/// Rows: send.block-unaligned-read (bytes) against send.block-read (OWords).
#[test]
fn unaligned_read_takes_a_byte_offset() {
    for p in PLATFORMS {
        // Type 1, header dword 2 = 48 bytes, 2 OWords: bytes 48..80.
        let mut mem = memory(256);
        let mut st = state(p, &[0, 0, 48]);
        let d = desc(1, 1, true, 1, 2, BTI);
        send(
            &mut st,
            &mut mem,
            &format!("send (8|M0) r10 r2 {DC0:#x} {d:#x} {{NoMask}}"),
        )
        .unwrap();
        let want: Vec<Option<u8>> = (48..80).map(|k| Some(pat(k))).collect();
        assert_eq!(grf(&st, 320, 32), want, "{p:?}");
        // The same dword 2 read by type 0 counts OWords: 48 OWords = byte 768.
        let mut mem = memory(1024);
        let mut st = state(p, &[0, 0, 48]);
        let d = desc(1, 1, true, 0, 2, BTI);
        send(
            &mut st,
            &mut mem,
            &format!("send (8|M0) r10 r2 {DC0:#x} {d:#x} {{NoMask}}"),
        )
        .unwrap();
        let want: Vec<Option<u8>> = (768..800).map(|k| Some(pat(k))).collect();
        assert_eq!(grf(&st, 320, 32), want, "{p:?}");
    }
}

/// Rows: send.block.unaligned-offset.
#[test]
fn unaligned_read_off_16_bytes_is_refused() {
    // send.block.unaligned-offset: 20 (dword aligned, the disputed case) and 18.
    for off in [20, 18] {
        let mut mem = memory(256);
        let mut st = state(Platform::Skl, &[0, 0, off]);
        let d = desc(1, 1, true, 1, 2, BTI);
        let r = send(
            &mut st,
            &mut mem,
            &format!("send (8|M0) r10 r2 {DC0:#x} {d:#x} {{NoMask}}"),
        );
        assert_eq!(row(r), "send.block.unaligned-offset", "{off}");
    }
}

/// Rows: send.block-write, send.block.layout (1 OWord high: the high half of the data).
#[test]
fn write_of_each_block_size() {
    // Header dword 2 = 1 OWord: the block lands at byte 16; the data registers r3.. hold
    // 0x80 + byte index.
    for p in PLATFORMS {
        for (ctrl, ow, at, regs) in SHAPES {
            let mut mem = memory(256);
            let mut st = state(p, &[0, 0, 1]);
            let data: Vec<u8> = (0..regs as usize * 32).map(|j| 0x80 + j as u8).collect();
            st.write_grf_bytes(3 * 32, &data).unwrap();
            let d = desc(1 + regs, 0, true, 8, ctrl, BTI);
            send(
                &mut st,
                &mut mem,
                &format!("send (8|M0) null r2 {DC0:#x} {d:#x} {{NoMask}}"),
            )
            .unwrap();
            let got = mem.flat.read(BASE, 256);
            for (k, b) in got.iter().enumerate() {
                let want = if (16..16 + 16 * ow).contains(&k) {
                    0x80 + (at + k - 16) as u8
                } else {
                    pat(k)
                };
                assert_eq!(*b, Some(want), "{p:?} ctrl {ctrl} byte {k}");
            }
        }
    }
}

/// Rows: send.block-write, send.lengths (mlen + ex_mlen).
#[test]
fn split_send_write_on_skl() {
    // Gen9 sends: the header in src0 (mlen 1), the data in src1 (ex_mlen 2 at ExDesc 9:6).
    let mut mem = memory(256);
    let mut st = state(Platform::Skl, &[0, 0, 4]);
    let data: Vec<u8> = (0..64).map(|j| 0x40 + j as u8).collect();
    st.write_grf_bytes(6 * 32, &data).unwrap();
    let d = desc(1, 0, true, 8, 3, BTI);
    let ex = 2 << 6 | DC0;
    send(
        &mut st,
        &mut mem,
        &format!("sends (8|M0) null r2 r6 {ex:#x} {d:#x} {{NoMask}}"),
    )
    .unwrap();
    let got = mem.flat.read(BASE + 64, 64);
    let want: Vec<Option<u8>> = (0..64).map(|j| Some(0x40 + j as u8)).collect();
    assert_eq!(got, want);
}

/// Rows: send.block.oob, send.block.oob-partial.
#[test]
fn out_of_bounds_reads_zeros_and_drops_writes() {
    for p in PLATFORMS {
        // A 64-byte surface; 2 OWords at OWord 4 (bytes 64..96): wholly outside.
        let mut mem = memory(64);
        let mut st = state(p, &[0, 0, 4]);
        let d = desc(1, 1, true, 0, 2, BTI);
        send(
            &mut st,
            &mut mem,
            &format!("send (8|M0) r10 r2 {DC0:#x} {d:#x} {{NoMask}}"),
        )
        .unwrap();
        assert_eq!(grf(&st, 320, 32), vec![Some(0); 32], "{p:?}");
        st.write_grf_bytes(3 * 32, &[0x55; 32]).unwrap();
        let d = desc(2, 0, true, 8, 2, BTI);
        send(
            &mut st,
            &mut mem,
            &format!("send (8|M0) null r2 {DC0:#x} {d:#x} {{NoMask}}"),
        )
        .unwrap();
        // Dropped: the bytes past the surface stay undefined, the surface is unchanged.
        assert_eq!(mem.flat.read(BASE + 64, 32), vec![None; 32], "{p:?}");
        let want: Vec<Option<u8>> = (0..64).map(|k| Some(pat(k))).collect();
        assert_eq!(mem.flat.read(BASE, 64), want, "{p:?}");
        // Straddling the end (OWords 3-4): send.block.oob-partial.
        let mut st = state(p, &[0, 0, 3]);
        let d = desc(1, 1, true, 0, 2, BTI);
        let r = send(
            &mut st,
            &mut mem,
            &format!("send (8|M0) r10 r2 {DC0:#x} {d:#x} {{NoMask}}"),
        );
        assert_eq!(row(r), "send.block.oob-partial", "{p:?}");
    }
}

/// Rows: send.block.header, send.block.slm, mem.stateless, send.block.channels.
#[test]
fn refusals_header_slm_channels_stateless() {
    let p = Platform::Skl;
    let mut mem = memory(256);
    mem.set_slm(Slm::new(1024));
    let go = |mem: &mut Memory, st: &mut ThreadState, text: String| row(send(st, mem, &text));
    // No header bit: send.block.header.
    let d = desc(1, 1, false, 0, 2, BTI);
    let mut st = state(p, &[0, 0, 0]);
    let t = format!("send (8|M0) r10 r2 {DC0:#x} {d:#x} {{NoMask}}");
    assert_eq!(go(&mut mem, &mut st, t), "send.block.header");
    // SLM (BTI 254): send.block.slm.
    let d = desc(1, 1, true, 0, 2, 254);
    let t = format!("send (8|M0) r10 r2 {DC0:#x} {d:#x} {{NoMask}}");
    assert_eq!(go(&mut mem, &mut st, t), "send.block.slm");
    // Stateless (BTI 255): mem.stateless.
    let d = desc(1, 1, true, 0, 2, 255);
    let t = format!("send (8|M0) r10 r2 {DC0:#x} {d:#x} {{NoMask}}");
    assert_eq!(go(&mut mem, &mut st, t), "mem.stateless");
    // A predicate disabling channels 1-7: send.block.channels.
    st.set_flag(0, 0x1, 0).unwrap();
    let d = desc(1, 1, true, 0, 2, BTI);
    let t = format!("(f0.0) send (8|M0) r10 r2 {DC0:#x} {d:#x}");
    assert_eq!(go(&mut mem, &mut st, t), "send.block.channels");
    // Every channel on (f0.0 = 0xff): executed.
    st.set_flag(0, 0xff, 0).unwrap();
    let t = format!("(f0.0) send (8|M0) r10 r2 {DC0:#x} {d:#x}");
    send(&mut st, &mut mem, &t).unwrap();
    let want: Vec<Option<u8>> = (0..32).map(|k| Some(pat(k))).collect();
    assert_eq!(grf(&st, 320, 32), want);
}

/// A header with the 64-bit address `a` in dwords 0-1.
fn a64_state(a: u64) -> ThreadState {
    state(Platform::Skl, &[a as u32, (a >> 32) as u32])
}

/// Rows: send.a64-block-write, send.a64-block-read (msgval.dc1-type.a64-oword-block-write,
/// msgval.dc1-type.a64-oword-block-read), send.block.layout, descf.dp.a64-block-subtype
/// (subtypes 0 and 1 at an aligned address).
#[test]
fn a64_block_read_and_write() {
    let a: u64 = 0x1_2345_6780;
    for (ctrl, ow, at, regs) in SHAPES {
        // Write: the block at a from r3.. (0x20 + byte index); then read it back (subtype 0
        // and subtype 1, both an OWord block at a 16-byte-aligned address).
        let mut mem = Memory::new();
        let mut st = a64_state(a);
        let data: Vec<u8> = (0..regs as usize * 32).map(|j| 0x20 + j as u8).collect();
        st.write_grf_bytes(3 * 32, &data).unwrap();
        let d = desc(1 + regs, 0, true, 0x15, ctrl, 253);
        send(
            &mut st,
            &mut mem,
            &format!("send (8|M0) null r2 {DC1:#x} {d:#x} {{NoMask}}"),
        )
        .unwrap();
        let want: Vec<Option<u8>> = (0..16 * ow).map(|k| Some(0x20 + (at + k) as u8)).collect();
        assert_eq!(mem.flat.read(a, 16 * ow), want, "ctrl {ctrl}");
        // Bytes around the block were never written.
        assert_eq!(mem.flat.read(a + 16 * ow as u64, 4), vec![None; 4]);
        for sub in [0u32, 1] {
            let d = desc(1, regs, true, 0x14, sub << 3 | ctrl, 255);
            send(
                &mut st,
                &mut mem,
                &format!("send (8|M0) r10 r2 {DC1:#x} {d:#x} {{NoMask}}"),
            )
            .unwrap();
            let got = grf(&st, 320, regs as usize * 32);
            for (j, b) in got.iter().enumerate() {
                let want = (j >= at && j < at + 16 * ow).then(|| 0x20 + j as u8);
                assert_eq!(*b, want, "ctrl {ctrl} subtype {sub} byte {j}");
            }
        }
    }
}

/// Rows: send.a64-block-subtype, mem.a64.bti, send.block.header.
#[test]
fn a64_block_refusals() {
    let mut mem = Memory::new();
    let t = |d: u32, dst: &str| format!("send (8|M0) {dst} r2 {DC1:#x} {d:#x} {{NoMask}}");
    // An address 8 bytes off 16 (subtype 1, the disputed case): send.a64-block-subtype.
    let mut st = a64_state(0x1000_0008);
    let r = send(
        &mut st,
        &mut mem,
        &t(desc(1, 1, true, 0x14, 1 << 3 | 2, 253), "r10"),
    );
    assert_eq!(row(r), "send.a64-block-subtype");
    // Subtypes 2 and 3, and a write with subtype 1.
    let mut st = a64_state(0x1000_0000);
    for sub in [2u32, 3] {
        let r = send(
            &mut st,
            &mut mem,
            &t(desc(1, 1, true, 0x14, sub << 3 | 2, 253), "r10"),
        );
        assert_eq!(row(r), "send.a64-block-subtype", "{sub}");
    }
    st.write_grf_bytes(3 * 32, &[1; 32]).unwrap();
    let r = send(
        &mut st,
        &mut mem,
        &t(desc(2, 0, true, 0x15, 1 << 3 | 2, 253), "null"),
    );
    assert_eq!(row(r), "send.a64-block-subtype");
    // A surface index: mem.a64.bti; no header: send.block.header.
    let r = send(&mut st, &mut mem, &t(desc(1, 1, true, 0x14, 2, 3), "r10"));
    assert_eq!(row(r), "mem.a64.bti");
    let r = send(
        &mut st,
        &mut mem,
        &t(desc(1, 1, false, 0x14, 2, 253), "r10"),
    );
    assert_eq!(row(r), "send.block.header");
    // Broadwell has no A64 block type (msgval.dc1-type.a64-oword-block-read is skl+).
    let mut st = state(Platform::Bdw, &[0x1000_0000, 0]);
    let r = send(&mut st, &mut mem, &t(desc(1, 1, true, 0x14, 2, 253), "r10"));
    assert!(matches!(r, Err(SendError::Desc(_))), "{r:?}");
}

/// A SIMD8 kernel on Skylake: r1.0 (the CURBE) holds the A64 buffer's address A; it builds
/// the header (A in dwords 0-1) in r2, writes 2 OWords (r3: dword i = 1000 + i) at A with
/// the A64 block write, reads them back with the A64 block read into r5, adds 1 to each
/// dword and writes the result at A + 32.
const A64_KERNEL: &str = "\
mov (8|M0) r2.0<1>:ud 0x0:ud {NoMask}
mov (1|M0) r2.0<1>:uq r1.0<0;1,0>:uq {NoMask}
mov (8|M0) r10.0<1>:uw 0x76543210:uv {NoMask}
add (8|M0) r3.0<1>:ud r10.0<8;8,1>:uw 0x3E8:ud {NoMask}
send (8|M0) null r2 0xC 0x40D42FD {NoMask}
send (8|M0) r5 r2 0xC 0x21D02FF {NoMask}
add (8|M0) r3.0<1>:ud r5.0<8;8,1>:ud 0x1:ud {NoMask}
add (1|M0) r2.0<1>:ud r2.0<0;1,0>:ud 0x20:ud {NoMask}
send (8|M0) null r2 0xC 0x40D42FD {NoMask}
send (8|M0) null r0 0x27 0x2000010 {EOT}
";

#[test]
fn a64_block_messages_in_a_dispatch() {
    // The descriptors above, derived here: the write (mlen 2, type 0x15, 2 OWords, BTI 253)
    // and the read (mlen 1, rlen 1, type 0x14, 2 OWords, BTI 255).
    assert_eq!(desc(2, 0, true, 0x15, 2, 253), 0x40D_42FD);
    assert_eq!(desc(1, 1, true, 0x14, 2, 255), 0x21D_02FF);
    let p = Platform::Skl;
    let prog = asm::parse(A64_KERNEL.as_bytes(), Some(Dialect::Iga), p).expect("assembles");
    let image = Image::from_insns(p, &prog.insns, 0).expect("encodes");
    let dir = tempfile::tempdir().unwrap();
    let d = Dispatch::parse(
        r#"{"platform": "skl", "simd": 8, "local_size": [8, 1, 1], "work_groups": [1, 1, 1],
 "a64_buffers": [{"address": "0x200000000", "size": 64}],
 "curbe": {"cross_thread_regs": 1, "data": {"dtype": "uint64", "values": [8589934592, 0, 0, 0]}}}"#,
        dir.path(),
    )
    .expect("valid description");
    let r = run(&d, &image, &RunOptions::default()).unwrap();
    assert_eq!(r.threads[0].end, ThreadEnd::Eot, "{:?}", r.threads[0]);
    let b = r
        .buffers
        .iter()
        .find(|b| matches!(b.kind, BufferKind::A64 { .. }))
        .unwrap();
    let dw: Vec<Option<u32>> = b
        .bytes
        .chunks(4)
        .map(|c| Some(u32::from_le_bytes([c[0]?, c[1]?, c[2]?, c[3]?])))
        .collect();
    let want: Vec<Option<u32>> = (0..8)
        .map(|i| Some(1000 + i))
        .chain((0..8).map(|i| Some(1001 + i)))
        .collect();
    assert_eq!(dw, want);
}
