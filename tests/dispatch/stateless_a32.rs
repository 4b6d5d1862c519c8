//! Stateless A32 messages (binding-table index 255 on the untyped, byte scattered and dword
//! scattered messages: spec/memory.toml mem.stateless, mem.stateless.*), the DC0 dword
//! scattered messages (send.dword-scattered-*) and the DC1 A64 untyped atomic
//! (send.a64-untyped-atomic): hand-written SIMD8 kernels run through a dispatch; every
//! expected value is derived here from the rows' text.

use crate::kernel_util::*;
use euref::dispatch::run::{run, RunOptions, RunResult, ThreadEnd};
use euref::spec::Platform;

fn assert_eot(r: &RunResult, what: &str) {
    for t in &r.threads {
        assert_eq!(t.end, ThreadEnd::Eot, "{what}: {t:?}");
    }
}

/// The row a single-thread run stopped with, and the instruction pointer.
fn refusal(r: &RunResult) -> (String, Option<u32>) {
    match &r.threads[0].end {
        ThreadEnd::Error { ip, row, .. } => (row.clone().unwrap_or_default(), *ip),
        e => panic!("expected a refusal, got {e:?}"),
    }
}

/// The lane index of each lane of a SIMD8 thread in r11 (dwords).
const LANES: &str = "\
mov (8|M0) r10.0<1>:uw 0x76543210:uv
mov (8|M0) r11.0<1>:ud r10.0<8;8,1>:uw
";

const EOT: &str = "send (8|M0) null r0 0x27 0x2000010 {EOT}\n";

/// Buffer 0: 0x1_0000_1000, 320 bytes, never initialised; buffer 1: 0x1_0000_2000, 32 bytes,
/// dword 0 = 1000. General state base 0x1_0000_0000: stateless offset o with buffer base
/// 0x1000 in the header is flat address 0x1_0000_1000 + o (mem.stateless,
/// mem.stateless.base).
fn json(platform: &str) -> String {
    format!(
        r#"{{"platform": "{platform}", "simd": 8, "local_size": [8, 1, 1],
 "work_groups": [1, 1, 1], "general_state_base": "0x100000000",
 "a64_buffers": [{{"address": "0x100001000", "size": 320}},
   {{"address": "0x100002000", "size": 32, "init": {{"dtype": "uint32", "values": [1000]}}}}]}}"#
    )
}

/// Lane l (header r20: dword 5 = buffer base 0x1000, dword 7 = sample mask 0xffff):
/// 1. untyped write (0x60A6EFF: header, SIMD8, R, BTI 255) of 100 + l at 4l;
/// 2. byte scattered write (0x60B00FF: header, SIMD8, 1 byte) with global offset 32
///    (header dword 2) of the low byte of 0xABCD40 + l at offset l: byte 32 + l;
/// 3. untyped read (0x4186EFF) of 4l, its value + 1000 written at 64 + 4l;
/// 4. byte scattered read (0x41900FF, global offset 32) of byte 32 + l into the low byte of
///    r46, written back with a byte scattered write at global offset 128 (byte 128 + l);
/// 5. dword scattered write (0x60AC2FF: header, SIMD8, legacy bit) of 0x500 + l at dword
///    offset 24 + l (byte 96 + 4l), read back (0x418C2FF) and written + 1 at dword offset
///    40 + l (byte 160 + 4l);
/// 6. under the predicate f0.0 = 0xB5 (lanes 0, 2, 4, 5, 7), a returning untyped atomic add
///    (0x618B7FF) of l + 1, every lane at offset 0x1000 (buffer 1, dword 0 = 1000); the
///    returned dwords of all lanes written at 192 + 4l;
/// 7. an untyped write of 0x77 + l at 256 + 4l with the header's sample mask 0x0f (lanes 0-3).
const KERNEL: &str = "\
mov (8|M0) r20.0<1>:ud 0x0:ud
mov (1|M0) r20.5<1>:ud 0x1000:ud
mov (1|M0) r20.7<1>:ud 0xFFFF:ud
shl (8|M0) r21.0<1>:ud r11.0<8;8,1>:ud 0x2:ud
add (8|M0) r22.0<1>:ud r11.0<8;8,1>:ud 0x64:ud
send (8|M0) null r20 0xC 0x60A6EFF
mov (8|M0) r24.0<1>:ud r20.0<8;8,1>:ud
mov (1|M0) r24.2<1>:ud 0x20:ud
mov (8|M0) r25.0<1>:ud r11.0<8;8,1>:ud
add (8|M0) r26.0<1>:ud r11.0<8;8,1>:ud 0xABCD40:ud
send (8|M0) null r24 0xA 0x60B00FF
send (8|M0) r30 r20 0xC 0x4186EFF
mov (8|M0) r32.0<1>:ud r20.0<8;8,1>:ud
add (8|M0) r33.0<1>:ud r21.0<8;8,1>:ud 0x40:ud
add (8|M0) r34.0<1>:ud r30.0<8;8,1>:ud 0x3E8:ud
send (8|M0) null r32 0xC 0x60A6EFF
send (8|M0) r46 r24 0xA 0x41900FF
mov (8|M0) r44.0<1>:ud r24.0<8;8,1>:ud
mov (1|M0) r44.2<1>:ud 0x80:ud
mov (8|M0) r45.0<1>:ud r11.0<8;8,1>:ud
send (8|M0) null r44 0xA 0x60B00FF
mov (8|M0) r40.0<1>:ud r20.0<8;8,1>:ud
add (8|M0) r41.0<1>:ud r11.0<8;8,1>:ud 0x18:ud
add (8|M0) r42.0<1>:ud r11.0<8;8,1>:ud 0x500:ud
send (8|M0) null r40 0xA 0x60AC2FF
send (8|M0) r48 r40 0xA 0x418C2FF
mov (8|M0) r50.0<1>:ud r20.0<8;8,1>:ud
add (8|M0) r51.0<1>:ud r41.0<8;8,1>:ud 0x10:ud
add (8|M0) r52.0<1>:ud r48.0<8;8,1>:ud 0x1:ud
send (8|M0) null r50 0xA 0x60AC2FF
mov (8|M0) r56.0<1>:ud r20.0<8;8,1>:ud
mov (8|M0) r57.0<1>:ud 0x1000:ud
add (8|M0) r58.0<1>:ud r11.0<8;8,1>:ud 0x1:ud
mov (1|M0) f0.0<1>:uw 0xB5:uw
(f0.0) send (8|M0) r62 r56 0xC 0x618B7FF
mov (8|M0) r60.0<1>:ud r20.0<8;8,1>:ud
add (8|M0) r61.0<1>:ud r21.0<8;8,1>:ud 0xC0:ud
send (8|M0) null r60 0xC 0x60A6EFF
mov (8|M0) r64.0<1>:ud r20.0<8;8,1>:ud
mov (1|M0) r64.7<1>:ud 0xF:ud
add (8|M0) r65.0<1>:ud r21.0<8;8,1>:ud 0x100:ud
add (8|M0) r66.0<1>:ud r11.0<8;8,1>:ud 0x77:ud
send (8|M0) null r64 0xC 0x60A6EFF
";

fn kernel() -> String {
    format!("{LANES}{KERNEL}{EOT}")
}

#[test]
fn stateless_messages_reach_the_a64_buffers_through_their_header() {
    for (p, name) in [(Platform::Skl, "skl"), (Platform::Bdw, "bdw")] {
        let r = run(
            &dispatch(&json(name)),
            &image(p, &kernel()),
            &RunOptions::default(),
        )
        .unwrap();
        assert_eot(&r, name);
        let b = a64(&r, 0);
        let lanes = 0..8u32;
        // 1. mem.stateless: gsb + header base + offset.
        let want: Vec<Option<u32>> = lanes.clone().map(|l| Some(100 + l)).collect();
        assert_eq!(dwords(&b[0..32]), want, "{name}: untyped write");
        // 2. The header's global offset (mem.stateless.header), one byte a lane.
        let bytes: Vec<Option<u8>> = lanes.clone().map(|l| Some(0x40 + l as u8)).collect();
        assert_eq!(&b[32..40], bytes.as_slice(), "{name}: byte scattered write");
        assert!(
            b[40..64].iter().all(Option::is_none),
            "{name}: never written"
        );
        // 3. Read back.
        let want: Vec<Option<u32>> = lanes.clone().map(|l| Some(1100 + l)).collect();
        assert_eq!(dwords(&b[64..96]), want, "{name}: untyped read");
        // 5. Dword scattered: offsets in dwords (send.dword-scattered-write,
        // send.dword-scattered-read).
        let want: Vec<Option<u32>> = lanes.clone().map(|l| Some(0x500 + l)).collect();
        assert_eq!(dwords(&b[96..128]), want, "{name}: dword scattered write");
        // 4. Byte scattered read and write-back.
        assert_eq!(
            &b[128..136],
            bytes.as_slice(),
            "{name}: byte scattered read"
        );
        assert!(
            b[136..160].iter().all(Option::is_none),
            "{name}: never written"
        );
        let want: Vec<Option<u32>> = lanes.clone().map(|l| Some(0x501 + l)).collect();
        assert_eq!(dwords(&b[160..192]), want, "{name}: dword scattered read");
        // 6. The atomic: enabled lanes 0, 2, 4, 5, 7 in ascending order (send.atomic-order),
        // each adding l + 1 and returning the value before (send.atomic-return); disabled
        // lanes' response dwords undefined (send.disabled-lane-read).
        let mut v = 1000u32;
        let mut ret = [None; 8];
        for l in [0u32, 2, 4, 5, 7] {
            ret[l as usize] = Some(v);
            v += l + 1;
        }
        assert_eq!(v, 1023);
        assert_eq!(dwords(&b[192..224]), ret.to_vec(), "{name}: atomic returns");
        assert_eq!(dwords(a64(&r, 1))[0], Some(1023), "{name}: atomic memory");
        // 7. The sample mask 0x0f: lanes 4-7 write nothing.
        let want: Vec<Option<u32>> = lanes.map(|l| (l < 4).then_some(0x77 + l)).collect();
        assert_eq!(dwords(&b[256..288]), want, "{name}: sample mask");
    }
}

/// A headerless untyped write at stateless offset 0x2000 + 4l of 7 + l.
const HEADERLESS: &str = "\
shl (8|M0) r21.0<1>:ud r11.0<8;8,1>:ud 0x2:ud
add (8|M0) r21.0<1>:ud r21.0<8;8,1>:ud 0x2000:ud
add (8|M0) r22.0<1>:ud r11.0<8;8,1>:ud 0x7:ud
send (8|M0) null r21 0xC 0x4026EFF
";

#[test]
fn a_headerless_stateless_message_acts_as_an_all_zero_header_on_skl() {
    // mem.stateless.header: no header = base 0, so the address is gsb + 0x2000 + 4l
    // (buffer 1).
    let text = format!("{LANES}{HEADERLESS}{EOT}");
    let r = run(
        &dispatch(&json("skl")),
        &image(Platform::Skl, &text),
        &RunOptions::default(),
    )
    .unwrap();
    assert_eot(&r, "skl");
    let want: Vec<Option<u32>> = (0..8).map(|l| Some(7 + l)).collect();
    assert_eq!(dwords(a64(&r, 1)), want);
    // Before Skylake the header is required (mem.stateless.header-required): the send (the
    // sixth instruction) is refused.
    let r = run(
        &dispatch(&json("bdw")),
        &image(Platform::Bdw, &text),
        &RunOptions::default(),
    )
    .unwrap();
    assert_eq!(
        refusal(&r),
        ("mem.stateless.header-required".to_string(), Some(5 * 16))
    );
}

#[test]
fn stateless_forms_the_sources_do_not_settle_are_refused() {
    // (what to replace in KERNEL, the row, the send refused).
    let cases: [(&str, &str, &str, &str); 7] = [
        // A 2-byte byte scattered write (0x60B04FF) at even offsets 2l but global offset 0x21:
        // the element address is odd (send.byte-scattered-misaligned).
        (
            "0x20:ud\nmov (8|M0) r25.0<1>:ud r11.0<8;8,1>:ud\nadd (8|M0) r26.0<1>:ud r11.0<8;8,1>:ud 0xABCD40:ud\nsend (8|M0) null r24 0xA 0x60B00FF",
            "0x21:ud\nshl (8|M0) r25.0<1>:ud r11.0<8;8,1>:ud 0x1:ud\nadd (8|M0) r26.0<1>:ud r11.0<8;8,1>:ud 0xABCD40:ud\nsend (8|M0) null r24 0xA 0x60B04FF",
            "send.byte-scattered-misaligned",
            "null r24 0xA",
        ),
        // Buffer base bits 9:0 set: Mesa and IGC disagree.
        (
            "r20.5<1>:ud 0x1000:ud",
            "r20.5<1>:ud 0x1010:ud",
            "mem.stateless.base-low",
            "null r20 0xC",
        ),
        // Base 0x4000_0000 + lane 6's offset 6 << 29 passes 2^32.
        (
            "0x1000:ud\nmov (1|M0) r20.7<1>:ud 0xFFFF:ud\nshl (8|M0) r21.0<1>:ud r11.0<8;8,1>:ud 0x2:ud",
            "0x40000000:ud\nmov (1|M0) r20.7<1>:ud 0xFFFF:ud\nshl (8|M0) r21.0<1>:ud r11.0<8;8,1>:ud 0x1D:ud",
            "mem.stateless.wrap",
            "null r20 0xC",
        ),
        // Dword scattered with a global offset: its unit is not stated.
        (
            "add (8|M0) r41.0<1>:ud",
            "mov (1|M0) r40.2<1>:ud 0x4:ud\nadd (8|M0) r41.0<1>:ud",
            "mem.stateless.global-offset-dword",
            "null r40 0xA",
        ),
        // Dword scattered with the legacy SIMD mode bit clear.
        (
            "r40 0xA 0x60AC2FF",
            "r40 0xA 0x60AC0FF",
            "send.dword-scattered-form",
            "null r40 0xA",
        ),
        // Dword scattered with two elements per address (descf.dp.dword-elements = 1).
        (
            "r40 0xA 0x60AC2FF",
            "r40 0xA 0x60AC6FF",
            "send.dword-scattered-form",
            "null r40 0xA",
        ),
        // Gen9 bindless index 252 (mem.stateless.bindless).
        (
            "r20 0xC 0x60A6EFF",
            "r20 0xC 0x60A6EFC",
            "mem.stateless.bindless",
            "null r20 0xC",
        ),
    ];
    for (from, to, row, send) in cases {
        let text = format!("{LANES}{}{EOT}", KERNEL.replacen(from, to, 1));
        assert!(
            text != format!("{LANES}{KERNEL}{EOT}"),
            "{from} is in KERNEL"
        );
        let index = text.lines().position(|l| l.contains(send)).unwrap() as u32;
        let r = run(
            &dispatch(&json("skl")),
            &image(Platform::Skl, &text),
            &RunOptions::default(),
        )
        .unwrap();
        assert_eq!(refusal(&r), (row.to_string(), Some(index * 16)), "{to}");
    }
}

#[test]
fn dword_scattered_offsets_are_dwords_on_a_surface_too() {
    // BTI 2, 24 bytes: a dword write (0x402C202: no header, SIMD8) of 0x900 + l at dword
    // offset l writes bytes 4l..4l+4 for l < 6; lanes 6 and 7 are out of bounds and dropped
    // (mem.surface.oob-write). A read (0x210C202) of dword offset l + 2 returns 0x902 + l for
    // l < 4 and zeros past the end (mem.surface.oob-read), stored in buffer 0 by a headerless
    // stateless untyped write at offset 0x1000 + 4l.
    let text = format!(
        "{LANES}\
mov (8|M0) r20.0<1>:ud r11.0<8;8,1>:ud
add (8|M0) r21.0<1>:ud r11.0<8;8,1>:ud 0x900:ud
send (8|M0) null r20 0xA 0x402C202
add (8|M0) r22.0<1>:ud r11.0<8;8,1>:ud 0x2:ud
send (8|M0) r25 r22 0xA 0x210C202
mov (8|M0) r24.0<1>:ud r20.0<8;8,1>:ud
shl (8|M0) r24.0<1>:ud r24.0<8;8,1>:ud 0x2:ud
add (8|M0) r24.0<1>:ud r24.0<8;8,1>:ud 0x1000:ud
send (8|M0) null r24 0xC 0x4026EFF
{EOT}"
    );
    let d = r#"{"platform": "skl", "simd": 8, "local_size": [8, 1, 1],
 "work_groups": [1, 1, 1], "general_state_base": "0x100000000",
 "surfaces": [{"bti": 2, "size": 24}],
 "a64_buffers": [{"address": "0x100001000", "size": 32}]}"#;
    let r = run(
        &dispatch(d),
        &image(Platform::Skl, &text),
        &RunOptions::default(),
    )
    .unwrap();
    assert_eot(&r, "skl");
    let want: Vec<Option<u32>> = (0..6).map(|l| Some(0x900 + l)).collect();
    assert_eq!(dwords(surface(&r, 0)), want);
    let want: Vec<Option<u32>> = (0..8)
        .map(|l| Some(if l < 4 { 0x902 + l } else { 0 }))
        .collect();
    assert_eq!(dwords(a64(&r, 0)), want);
}

/// The new value of integer atomic operation `op` (the msgval.aop.* rows: code, new value).
fn aop(op: u32, old: u32, s0: u32, s1: u32) -> u32 {
    match op {
        1 => old & s0,
        2 => old | s0,
        3 => old ^ s0,
        4 => s0,
        5 => old.wrapping_add(1),
        6 | 15 => old.wrapping_sub(1),
        7 => old.wrapping_add(s0),
        8 => old.wrapping_sub(s0),
        9 => s0.wrapping_sub(old),
        10 => (old as i32).max(s0 as i32) as u32,
        11 => (old as i32).min(s0 as i32) as u32,
        12 => old.max(s0),
        13 => old.min(s0),
        14 => {
            if old == s0 {
                s1
            } else {
                old
            }
        }
        _ => unreachable!(),
    }
}

/// Payload operands of operation `op`: none for inc, dec, predec; two for cmpwr.
fn operands(op: u32) -> u32 {
    match op {
        5 | 6 | 15 => 0,
        14 => 2,
        _ => 1,
    }
}

/// A64 untyped atomic (SFID 12, type 0x12), SIMD8, 32-bit, returning, BTI 255.
fn a64_atomic_desc(op: u32) -> u32 {
    (2 + operands(op)) << 25 | 1 << 20 | 0x12 << 14 | (0x20 | op) << 8 | 0xff
}

/// r1.0: the address A of buffer 0; r4 / r5: src0 / src1 (from the CURBE). Lane l's address
/// is A + 4l, or A for every lane when `same`. The returned dwords are written at A + 32 + 4l
/// (A64 untyped write).
fn a64_atomic_kernel(desc: u32, same: bool) -> String {
    let shift = if same {
        "mov (8|M0) r12.0<1>:ud 0x0:ud"
    } else {
        "shl (8|M0) r12.0<1>:ud r11.0<8;8,1>:ud 0x2:ud"
    };
    format!(
        "{LANES}\
{shift}
mov (8|M0) r14.0<1>:uq r12.0<8;8,1>:ud
add (8|M0) r2.0<1>:q r1.0<0;1,0>:q r14.0<4;4,1>:q
send (8|M0) r6 r2 0xC 0x{desc:x}
shl (8|M0) r13.0<1>:ud r11.0<8;8,1>:ud 0x2:ud
add (8|M0) r13.0<1>:ud r13.0<8;8,1>:ud 0x20:ud
mov (8|M0) r16.0<1>:uq r13.0<8;8,1>:ud
add (8|M0) r16.0<1>:q r1.0<0;1,0>:q r16.0<4;4,1>:q
mov (8|M0) r18.0<1>:ud r6.0<8;8,1>:ud
send (8|M0) null r16 0xC 0x6066EFF
{EOT}"
    )
}

const A: u64 = 0x1_0000_0000;
const MEM: [u32; 8] = [5, 0xFFFF_FFF0, 7, 100, 0x8000_0000, 3, 0, 42];
const SRC0: [u32; 8] = [3, 2, 7, 0xFFFF_FFFF, 1, 0x7FFF_FFFF, 9, 42];
const SRC1: [u32; 8] = [11, 12, 13, 14, 15, 16, 17, 18];

/// Buffer 0 at A: 64 bytes, dwords 0-7 = `mem`; CURBE r1-r5 from r1: r1.0 = A, r4 = SRC0,
/// r5 = SRC1.
fn a64_json(platform: &str, mem: &[u32]) -> String {
    let mut curbe = vec![A as u32, (A >> 32) as u32];
    curbe.resize(24, 0);
    curbe.extend(SRC0);
    curbe.extend(SRC1);
    let list = |v: &[u32]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        r#"{{"platform": "{platform}", "simd": 8, "local_size": [8, 1, 1],
 "work_groups": [1, 1, 1],
 "a64_buffers": [{{"address": "{A:#x}", "size": 64,
   "init": {{"dtype": "uint32", "values": [{}]}}}}],
 "curbe": {{"cross_thread_regs": 5, "data": {{"dtype": "uint32", "values": [{}]}}}}}}"#,
        list(mem),
        list(&curbe)
    )
}

#[test]
fn a64_untyped_atomics_return_the_old_value_and_update_memory() {
    for (p, name) in [(Platform::Skl, "skl"), (Platform::Bdw, "bdw")] {
        for op in 1..=15u32 {
            let text = a64_atomic_kernel(a64_atomic_desc(op), false);
            let r = run(
                &dispatch(&a64_json(name, &MEM)),
                &image(p, &text),
                &RunOptions::default(),
            )
            .unwrap();
            assert_eot(&r, name);
            let got = dwords(a64(&r, 0));
            for l in 0..8 {
                let new = aop(op, MEM[l], SRC0[l], SRC1[l]);
                // send.atomic-return: old, predec (15) new.
                let ret = if op == 15 { new } else { MEM[l] };
                assert_eq!(got[l], Some(new), "{name} op {op} lane {l}: memory");
                assert_eq!(got[8 + l], Some(ret), "{name} op {op} lane {l}: returned");
            }
        }
    }
}

#[test]
fn a64_atomics_on_one_address_apply_in_lane_order() {
    // Every lane adds SRC0[l] at A (MEM[0] = 5) in ascending lane order (send.atomic-order).
    let r = run(
        &dispatch(&a64_json("skl", &MEM)),
        &image(Platform::Skl, &a64_atomic_kernel(a64_atomic_desc(7), true)),
        &RunOptions::default(),
    )
    .unwrap();
    assert_eot(&r, "skl");
    let got = dwords(a64(&r, 0));
    let mut v = MEM[0];
    for l in 0..8 {
        assert_eq!(got[8 + l], Some(v), "lane {l}");
        v = v.wrapping_add(SRC0[l]);
    }
    assert_eq!(got[0], Some(v));
}

#[test]
fn a64_atomic_forms_outside_the_rows_are_refused() {
    // The send is the sixth instruction (IP 0x50).
    let add = a64_atomic_desc(7);
    for (desc, row) in [
        // 64-bit data (control bit 4).
        (add | 1 << 12, "send.a64-atomic-64"),
        // A surface index.
        (add & !0xff | 3, "mem.a64.bti"),
    ] {
        let r = run(
            &dispatch(&a64_json("skl", &MEM)),
            &image(Platform::Skl, &a64_atomic_kernel(desc, false)),
            &RunOptions::default(),
        )
        .unwrap();
        assert_eq!(refusal(&r), (row.to_string(), Some(0x50)), "{desc:#x}");
    }
    // An execution size of 16 (send.a64-atomic-simd).
    let text = a64_atomic_kernel(add, false).replace(
        &format!("send (8|M0) r6 r2 0xC 0x{add:x}"),
        &format!("send (16|M0) r6 r2 0xC 0x{add:x}"),
    );
    let r = run(
        &dispatch(&a64_json("skl", &MEM)),
        &image(Platform::Skl, &text),
        &RunOptions::default(),
    )
    .unwrap();
    assert_eq!(refusal(&r).0, "send.a64-atomic-simd");
}

#[test]
fn general_state_base_is_an_address_or_a_json_path_error() {
    // mem.stateless.base: a number or a "0x..." string; default 0.
    let base = |extra: &str| {
        let s = crate::util::Scratch::new();
        s.parse(&crate::util::minimal(extra))
    };
    assert_eq!(base("").unwrap().general_state_base, 0);
    assert_eq!(
        base(r#", "general_state_base": "0x80000000""#)
            .unwrap()
            .general_state_base,
        0x8000_0000
    );
    assert_eq!(
        base(r#", "general_state_base": 4096"#)
            .unwrap()
            .general_state_base,
        4096
    );
    for bad in [r#"-1"#, r#""4096""#, r#"[1]"#] {
        let e = base(&format!(r#", "general_state_base": {bad}"#)).expect_err("refused");
        assert_eq!(e.path, "general_state_base", "{e}");
        assert!(e.to_string().contains("not a 64-bit address"), "{e}");
        assert!(!e.fix.is_empty(), "{e}");
    }
}
