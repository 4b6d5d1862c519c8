//! spec/memory.toml send.untyped-read / send.untyped-write / send.untyped-atomic with the
//! memory rows (mem.surface.*, mem.slm*, mem.misaligned): hand-written kernels that build the
//! payload with movs and send DC1 untyped messages; the expected register and memory dwords
//! are worked out from the rows.
//!
//! Descriptors (spec/descriptors.toml: mlen 28:25, rlen 24:20, DC1 type 18:14, control 13:8,
//! BTI 7:0; untyped surface control = SIMD mode << 4 | channel disable mask, SIMD8 = 2;
//! untyped atomic control = return << 5 | SIMD8 << 4 | op):
//! - 0x2106E03: mlen 1, rlen 1, type 1 (untyped read), control 0x2e (SIMD8, R), BTI 3;
//! - 0x2026E03: mlen 1, rlen 0, type 9 (untyped write), control 0x2e, BTI 3 (Gen9 `sends`,
//!   ExDesc 0x4C = ex_mlen 1 << 6 | SFID 12); Gen8 `send` 0x4026E03: mlen 2;
//! - 0x210B703: mlen 1, rlen 1, type 2 (atomic), control 0x37 (return, SIMD8, add), BTI 3.

use crate::flow_util::state;
use crate::send_util::{mem_dwords, put_mem, reg_dwords, run_mem, send_row, try_run_mem};
use euref::memory::{Memory, Slm, Surface};
use euref::spec::Platform;

/// r2 = byte offsets 0, 4, ..., 28 (lane i: 4i); r3 = 0x1000 + 4i.
const PROLOGUE: &str = "mov (8|M0) r2.0<1>:ud 0x76543210:v
shl (8|M0) r2.0<1>:ud r2.0<8;8,1>:ud 0x2:ud
add (8|M0) r3.0<1>:ud r2.0<8;8,1>:ud 0x1000:ud
";

fn data(i: u32) -> u32 {
    0x1000 + 4 * i
}

fn surface(size: u64) -> Memory {
    let mut m = Memory::new();
    m.bind(3, Surface { base: 0x8000, size });
    m
}

/// Write eight dwords with an untyped write, read them back with an untyped read (Gen9 split
/// send and Gen8 send with the data after the addresses: send.payload). The surface
/// (mem.surface.buffer) is a window of the flat memory at 0x8000 (mem.flat: little-endian
/// dwords there); the read's response fills r10 (send.response).
#[test]
fn untyped_write_then_read_back() {
    let write = [
        (Platform::Skl, "sends (8|M0) null r2 r3 0x4C 0x2026E03\n"),
        (Platform::Bdw, "send (8|M0) null r2 0xC 0x4026E03\n"),
    ];
    for (p, w) in write {
        let text = format!("{PROLOGUE}{w}send (8|M0) r10 r2 0xC 0x2106E03\n");
        let mut st = state(p, 0xff, 0, 0);
        let mut mem = surface(64);
        run_mem(&mut st, &mut mem, &text);
        let expect: Vec<_> = (0..8).map(|i| Some(data(i))).collect();
        assert_eq!(mem_dwords(&mem, 0x8000, 8), expect, "{p:?}");
        // Bytes past the eight dwords were never written: undefined (mem.undefined-bytes).
        assert_eq!(mem_dwords(&mem, 0x8020, 1), [None]);
        assert_eq!(reg_dwords(&st, 10, 8), expect, "{p:?}");
    }
}

/// Reading bytes never written gives undefined register bytes (mem.undefined-bytes); two
/// channels (R, G: mask 0xc, rlen 2) read offset and offset + 4 into two registers.
#[test]
fn untyped_read_of_two_channels_and_unwritten_bytes() {
    let mut mem = surface(64);
    put_mem(&mut mem, 0x8000, &[10, 11, 12, 13, 14, 15, 16, 17]);
    // rlen 2, control 0x2c (SIMD8, R and G): 0x2000000 + 0x200000 + 0x4000 + 0x2c00 + 3.
    let text = format!("{PROLOGUE}send (8|M0) r10 r2 0xC 0x2206C03\n");
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    run_mem(&mut st, &mut mem, &text);
    // Lane i reads offset 4i (R) and 4i + 4 (G): dwords i and i + 1 of the surface; lane 7's
    // G is surface dword 8, inside the surface but never written.
    let r: Vec<_> = (0..8).map(|i| Some(10 + i)).collect();
    let mut g: Vec<_> = (1..8).map(|i| Some(10 + i)).collect();
    g.push(None);
    assert_eq!(reg_dwords(&st, 10, 8), r);
    assert_eq!(reg_dwords(&st, 11, 8), g);
}

/// send.channels, send.disabled-lane-write, send.disabled-lane-read: a predicated write
/// (f0.0 = 0x0f) writes lanes 0-3 only; a predicated read fills lanes 0-3 and leaves the
/// response dwords of lanes 4-7 undefined.
#[test]
fn disabled_lanes_write_nothing_and_read_undefined() {
    let text = format!(
        "{PROLOGUE}(f0.0) sends (8|M0) null r2 r3 0x4C 0x2026E03
(f0.0) send (8|M0) r10 r2 0xC 0x2106E03
send (8|M0) r11 r2 0xC 0x2106E03
"
    );
    let mut st = state(Platform::Skl, 0xff, 0x0f, 0);
    let mut mem = surface(64);
    run_mem(&mut st, &mut mem, &text);
    let four: Vec<_> = (0..4).map(|i| Some(data(i))).collect();
    let mut mem_expect = four.clone();
    mem_expect.extend([None; 4]);
    assert_eq!(mem_dwords(&mem, 0x8000, 8), mem_expect);
    assert_eq!(reg_dwords(&st, 10, 8), mem_expect);
    // The unpredicated read: lanes 4-7 read memory never written (undefined too).
    assert_eq!(reg_dwords(&st, 11, 8), mem_expect);
    // The dispatch mask disables lanes the same way (DMask 0x3).
    let mut st = state(Platform::Skl, 0x3, 0, 0);
    let mut mem = surface(64);
    run_mem(
        &mut st,
        &mut mem,
        &format!("{PROLOGUE}sends (8|M0) null r2 r3 0x4C 0x2026E03\n"),
    );
    assert_eq!(
        mem_dwords(&mem, 0x8000, 3),
        [Some(data(0)), Some(data(1)), None]
    );
}

/// mem.surface.oob-write / mem.surface.oob-read: a 16-byte surface keeps lanes 0-3; the writes of lanes
/// 4-7 are dropped (the flat bytes after the surface stay undefined) and their reads return
/// zero. mem.surface.oob-partial: an 18-byte surface makes lane 4's dword straddle the end.
#[test]
fn out_of_bounds_reads_zero_and_writes_are_dropped() {
    let text = format!(
        "{PROLOGUE}sends (8|M0) null r2 r3 0x4C 0x2026E03\nsend (8|M0) r10 r2 0xC 0x2106E03\n"
    );
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    let mut mem = surface(16);
    run_mem(&mut st, &mut mem, &text);
    assert_eq!(
        mem_dwords(&mem, 0x8000, 8),
        [
            Some(data(0)),
            Some(data(1)),
            Some(data(2)),
            Some(data(3)),
            None,
            None,
            None,
            None
        ]
    );
    assert_eq!(
        reg_dwords(&st, 10, 8),
        [
            Some(data(0)),
            Some(data(1)),
            Some(data(2)),
            Some(data(3)),
            Some(0),
            Some(0),
            Some(0),
            Some(0)
        ]
    );
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    assert_eq!(
        send_row(try_run_mem(&mut st, &mut surface(18), &text)),
        "mem.surface.oob-partial"
    );
}

/// send.untyped-atomic with send.atomic-order and send.atomic-return: eight lanes add
/// lane + 1 to the same dword (10): applied in lane order, the dword ends at 10 + 36 = 46 and
/// lane i gets the value before its add, 10 + i(i+1)/2. mem.surface.oob-atomic: a lane past
/// the surface gets 0 and writes nothing.
#[test]
fn atomic_add_returns_old_values_in_lane_order() {
    // r4 = 0 for every lane (all hit offset 0); r5 = lane + 1.
    let text = "mov (8|M0) r4.0<1>:ud 0x0:ud
mov (8|M0) r5.0<1>:ud 0x76543210:v
add (8|M0) r5.0<1>:ud r5.0<8;8,1>:ud 0x1:ud
sends (8|M0) r10 r4 r5 0x4C 0x210B703
";
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    let mut mem = surface(16);
    put_mem(&mut mem, 0x8000, &[10]);
    run_mem(&mut st, &mut mem, text);
    assert_eq!(mem_dwords(&mem, 0x8000, 1), [Some(46)]);
    let old: Vec<_> = (0..8).map(|i| Some(10 + i * (i + 1) / 2)).collect();
    assert_eq!(reg_dwords(&st, 10, 8), old);
    // Lane 1 at offset 16 (outside the 16-byte surface): returns 0, memory unchanged.
    let oob = text.replace(
        "mov (8|M0) r4.0<1>:ud 0x0:ud\n",
        "mov (8|M0) r4.0<1>:ud 0x0:ud\n(W) mov (1|M0) r4.1<1>:ud 0x10:ud\n",
    );
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    let mut mem = surface(16);
    put_mem(&mut mem, 0x8000, &[10]);
    run_mem(&mut st, &mut mem, &oob);
    // Every lane but lane 1 adds: 10 + 36 - 2 = 44.
    assert_eq!(mem_dwords(&mem, 0x8000, 1), [Some(44)]);
    let r = reg_dwords(&st, 10, 8);
    assert_eq!(r[1], Some(0));
    // Lane 0: 10 -> 11; lane 2: 11 -> 14; ... lane 7 sees 10 + (1 + 3 + 4 + 5 + 6 + 7) = 36.
    assert_eq!((r[0], r[2], r[7]), (Some(10), Some(11), Some(36)));
}

/// The other integer operations (msgval.aop.* texts), one lane each, with return: old value
/// in memory 100 (0x64), src0 in r5, src1 (cmpwr) in r6.
#[test]
fn atomic_integer_operations_follow_their_rows() {
    // (op code, src0, src1, new value); the response is always the old value except predec.
    let cases: [(u32, u32, u32, u32); 14] = [
        (1, 0x0f, 0, 100 & 0x0f),
        (2, 0x03, 0, 100 | 0x03),
        (3, 0xff, 0, 100 ^ 0xff),
        (4, 7, 0, 7),
        (5, 0, 0, 101),
        (6, 0, 0, 99),
        (7, 5, 0, 105),
        (8, 5, 0, 95),
        (9, 5, 0, 5u32.wrapping_sub(100)),
        (10, (-3i32) as u32, 0, 100),
        (11, (-3i32) as u32, 0, (-3i32) as u32),
        (12, (-3i32) as u32, 0, (-3i32) as u32),
        (13, (-3i32) as u32, 0, 100),
        (14, 100, 42, 42),
    ];
    for (op, s0, s1, new) in cases {
        // Operands in the payload: none for inc/dec (5, 6), two for cmpwr (14).
        let n = match op {
            5 | 6 => 0,
            14 => 2,
            _ => 1,
        };
        // mlen 1 (address) + ex_mlen n, rlen 1, type 2, control 0x30 | op, BTI 3.
        let desc = 0x0210_8003 | (0x30 | op) << 8;
        let send = if n == 0 {
            format!("send (8|M0) r10 r4 0xC {desc:#x}\n")
        } else {
            let ex = 0xC | n << 6;
            format!("sends (8|M0) r10 r4 r5 {ex:#x} {desc:#x}\n")
        };
        let text = format!(
            "mov (8|M0) r4.0<1>:ud 0x0:ud\nmov (8|M0) r5.0<1>:ud {s0:#x}:ud\nmov (8|M0) r6.0<1>:ud {s1:#x}:ud\n(f0.0) {send}"
        );
        let mut st = state(Platform::Skl, 0xff, 0x1, 0);
        let mut mem = surface(16);
        put_mem(&mut mem, 0x8000, &[100]);
        run_mem(&mut st, &mut mem, &text);
        assert_eq!(mem_dwords(&mem, 0x8000, 1), [Some(new)], "op {op}");
        assert_eq!(reg_dwords(&st, 10, 1), [Some(100)], "op {op}");
        // Lanes 1-7 are disabled: their response dwords are undefined.
        assert_eq!(reg_dwords(&st, 10, 2)[1], None, "op {op}");
    }
    // predec (15) returns the new value.
    let text = "mov (8|M0) r4.0<1>:ud 0x0:ud\n(f0.0) send (8|M0) r10 r4 0xC 0x210BF03\n";
    let mut st = state(Platform::Skl, 0xff, 0x1, 0);
    let mut mem = surface(16);
    put_mem(&mut mem, 0x8000, &[100]);
    run_mem(&mut st, &mut mem, text);
    assert_eq!(mem_dwords(&mem, 0x8000, 1), [Some(99)]);
    assert_eq!(reg_dwords(&st, 10, 1), [Some(99)]);
}

/// mem.slm: BTI 254 addresses the work group's SLM (its own offsets from 0); without SLM the
/// message is refused (mem.slm.absent), past its size too (mem.slm.oob).
#[test]
fn slm_write_then_read() {
    // The write and read of the first test with BTI 254 (0xFE).
    let text = format!(
        "{PROLOGUE}sends (8|M0) null r2 r3 0x4C 0x2026EFE\nsend (8|M0) r10 r2 0xC 0x2106EFE\n"
    );
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    let mut mem = Memory::new();
    mem.set_slm(Slm::new(32));
    run_mem(&mut st, &mut mem, &text);
    let expect: Vec<_> = (0..8).map(|i| Some(data(i))).collect();
    assert_eq!(reg_dwords(&st, 10, 8), expect);
    let slm = mem.slm().expect("slm");
    assert_eq!(slm.bytes.read(28, 4), data(7).to_le_bytes().map(Some));
    // Nothing went to the flat memory.
    assert_eq!(mem.flat.read(0, 4), [None; 4]);
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    assert_eq!(
        send_row(try_run_mem(&mut st, &mut Memory::new(), &text)),
        "mem.slm.absent"
    );
    let mut small = Memory::new();
    small.set_slm(Slm::new(28));
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    assert_eq!(
        send_row(try_run_mem(&mut st, &mut small, &text)),
        "mem.slm.oob"
    );
}

/// What the rows refuse: an unbound index, the bindless index, a misaligned or undefined
/// address, wrong lengths, a header.
#[test]
fn refusals_name_their_rows() {
    let read = |desc: &str| format!("{PROLOGUE}send (8|M0) r10 r2 0xC {desc}\n");
    let cases = [
        (read("0x2106E04"), "mem.surface.unbound"),
        // Gen9 bindless (252); a stateless index executes (tests/dispatch/stateless_a32.rs).
        (read("0x2106EFC"), "mem.stateless.bindless"),
        // mlen 2 for a SIMD8 read.
        (read("0x4106E03"), "send.lengths"),
        // Header present (bit 19), mlen 2.
        (read("0x4186E03"), "send.header"),
        (
            format!("{PROLOGUE}add (1|M0) r2.0<1>:ud r2.0<0;1,0>:ud 0x2:ud\nsend (8|M0) r10 r2 0xC 0x2106E03\n"),
            "mem.misaligned",
        ),
        (
            "send (8|M0) r10 r2 0xC 0x2106E03\n".to_string(),
            "send.undefined-address",
        ),
    ];
    for (text, row) in cases {
        let mut st = state(Platform::Skl, 0xff, 0, 0);
        // r2 undefined for the send without a prologue.
        st.set_grf_undefined(2 * 32, 32);
        assert_eq!(
            send_row(try_run_mem(&mut st, &mut surface(64), &text)),
            row,
            "{text}"
        );
    }
}

/// send.sendc: sendc executes as send (the same write, the same bytes in memory).
#[test]
fn sendc_writes_as_send() {
    for op in ["send", "sendc"] {
        let text = format!("{PROLOGUE}{op} (8|M0) null r2 0xC 0x4026E03\n");
        let mut st = state(Platform::Bdw, 0xff, 0, 0);
        let mut mem = surface(64);
        run_mem(&mut st, &mut mem, &text);
        let expect: Vec<_> = (0..8).map(|i| Some(data(i))).collect();
        assert_eq!(mem_dwords(&mem, 0x8000, 8), expect, "{op}");
    }
}

/// send.atomic-undefined: an atomic add on a dword never written leaves it undefined and
/// returns its undefined bytes; send.atomic-cmpwr8b: atomic operation 0 is refused.
#[test]
fn atomics_on_undefined_bytes_and_refused_forms() {
    let add = "mov (8|M0) r4.0<1>:ud 0x0:ud
mov (8|M0) r5.0<1>:ud 0x1:ud
sends (8|M0) r10 r4 r5 0x4C 0x210B703
";
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    let mut mem = surface(16);
    run_mem(&mut st, &mut mem, add);
    assert_eq!(mem_dwords(&mem, 0x8000, 1), [None]);
    assert_eq!(reg_dwords(&st, 10, 8), [None; 8]);
    // Operation 0 (control 0x30: return, SIMD8, op 0).
    let op0 = add.replace("0x210B703", "0x210B003");
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    assert_eq!(
        send_row(try_run_mem(&mut st, &mut surface(16), &op0)),
        "send.atomic-cmpwr8b"
    );
}
