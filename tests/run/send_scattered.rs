//! spec/memory.toml send.byte-scattered-* and send.fence*: hand-written kernels that build the
//! payload with movs and send DC0 byte scattered messages and memory fences; the expected
//! register and memory bytes are worked out from the rows.
//!
//! Descriptors (spec/descriptors.toml: mlen 28:25, rlen 24:20, header 19, DC0 type 18:14,
//! BTI 7:0; byte scattered: SIMD16 at bit 8 (descf.dp.byte-simd16), bytes per lane at 11:10
//! (descf.dp.byte-size: 0 byte, 1 word, 2 dword); fence: commit at bit 13
//! (descf.dp.fence-commit)):
//! - byte scattered read (type 4 = 0x10000) SIMD8, BTI 3: mlen 1, rlen 1: 0x2110003 | size << 10;
//!   SIMD16: mlen 2, rlen 2, bit 8: 0x4210103 | size << 10 (the corpus's small_types sends
//!   0x04210102 / 0x04210503 so);
//! - byte scattered write (type 12 = 0x30000) SIMD8, BTI 3: Gen9 `sends` mlen 1 + ex_mlen 1
//!   (ExDesc 0x4A = 1 << 6 | SFID 10): 0x2030003 | size << 10; Gen8 `send` mlen 2:
//!   0x4030003 | size << 10;
//! - fence (type 7 = 0x1C000, header 0x80000, mlen 1): without commit 0x209C000 (the corpus's
//!   gen8 fence), with commit and rlen 1 0x219E000 (the corpus's gen9 fence).

use crate::flow_util::{put_ud, state};
use crate::send_util::{put_mem, reg_dwords, run_mem, send_row, try_run_mem};
use euref::memory::{Memory, Slm, Surface};
use euref::spec::Platform;
use euref::state::ThreadState;

/// r2 = lane indices 0..7 shifted left by `shift` (lane i's offset), r3 = 0xA0B0C0D0 + i.
fn prologue(shift: u32) -> String {
    format!(
        "mov (8|M0) r2.0<1>:ud 0x76543210:v
shl (8|M0) r2.0<1>:ud r2.0<8;8,1>:ud {shift:#x}:ud
mov (8|M0) r3.0<1>:ud 0x76543210:v
add (8|M0) r3.0<1>:ud r3.0<8;8,1>:ud 0xA0B0C0D0:ud
"
    )
}

fn data(i: u32) -> u32 {
    0xA0B0_C0D0 + i
}

fn surface(size: u64) -> Memory {
    let mut m = Memory::new();
    m.bind(3, Surface { base: 0x8000, size });
    m
}

/// `n` bytes of register `reg` (`None`: undefined).
fn reg_bytes(st: &ThreadState, reg: usize, n: usize) -> Vec<Option<u8>> {
    (0..n)
        .map(|i| {
            let (v, u) = st.read_grf(reg * 32 + i, 1).expect("in range");
            (!u).then_some(v as u8)
        })
        .collect()
}

/// What a byte scattered read of `size`-byte elements returns in lane dwords: the element's
/// bytes, then undefined bytes (send.byte-scattered-unused).
fn lane_dword(elem: &[Option<u8>], size: usize) -> Vec<Option<u8>> {
    let mut v = elem[..size].to_vec();
    v.resize(4, None);
    v
}

/// send.byte-scattered-write then send.byte-scattered-read, for 1-, 2- and 4-byte elements
/// (descf.dp.byte-size) on Gen9 (split send) and Gen8 (data after the addresses): lane i
/// stores the low `size` bytes of 0xA0B0C0D0 + i at offset i * size (msgval.byte-size.byte,
/// msgval.byte-size.word, msgval.byte-size.dword); the upper bytes of the data dword are
/// ignored, so memory holds the elements packed, and bytes past them stay undefined. The read
/// returns each element in the low bytes of its lane's dword, the rest undefined.
#[test]
fn byte_scattered_write_then_read_back() {
    for (shift, size) in [(0u32, 1usize), (1, 2), (2, 4)] {
        let sz = (shift << 10) as usize;
        let writes = [
            (
                Platform::Skl,
                format!("sends (8|M0) null r2 r3 0x4A {:#x}\n", 0x203_0003 | sz),
            ),
            (
                Platform::Bdw,
                format!("send (8|M0) null r2 0xA {:#x}\n", 0x403_0003 | sz),
            ),
        ];
        for (p, w) in writes {
            let text = format!(
                "{}{w}send (8|M0) r10 r2 0xA {:#x}\n",
                prologue(shift),
                0x211_0003 | sz
            );
            let mut st = state(p, 0xff, 0, 0);
            let mut mem = surface(64);
            run_mem(&mut st, &mut mem, &text);
            let mut expect = vec![];
            for i in 0..8 {
                expect.extend(data(i).to_le_bytes()[..size].iter().map(|b| Some(*b)));
            }
            assert_eq!(mem.flat.read(0x8000, 8 * size), expect, "{p:?} size {size}");
            assert_eq!(mem.flat.read(0x8000 + 8 * size as u64, 1), [None]);
            let mut resp = vec![];
            for i in 0..8 {
                resp.extend(lane_dword(&expect[i * size..], size));
            }
            assert_eq!(reg_bytes(&st, 10, 32), resp, "{p:?} size {size}");
        }
    }
}

/// The corpus's small_types reads (SIMD16, 0x04210102 bytes and 0x04210503 words, here on
/// BTI 3): lane i reads byte i and word 2i of the buffer into the low bytes of its dword
/// (send.byte-scattered-read, descf.dp.byte-simd16); the response is two registers.
#[test]
fn simd16_reads_of_bytes_and_words() {
    let bytes: Vec<u8> = (0..32u8).map(|i| i.wrapping_mul(37) ^ 0x5a).collect();
    let prologue16 = "mov (8|M0) r2.0<1>:ud 0x76543210:v
add (8|M0) r3.0<1>:ud r2.0<8;8,1>:ud 0x8:ud
shl (8|M0) r4.0<1>:ud r2.0<8;8,1>:ud 0x1:ud
shl (8|M0) r5.0<1>:ud r3.0<8;8,1>:ud 0x1:ud
";
    let text = format!(
        "{prologue16}send (16|M0) r10 r2 0xA 0x4210103\nsend (16|M0) r12 r4 0xA 0x4210503\n"
    );
    for p in [Platform::Skl, Platform::Bdw] {
        let mut st = state(p, 0xffff, 0, 0);
        let mut mem = surface(32);
        mem.flat.load(0x8000, &bytes);
        run_mem(&mut st, &mut mem, &text);
        let mut b = vec![];
        let mut w = vec![];
        for i in 0..16 {
            b.extend(lane_dword(&[Some(bytes[i])], 1));
            w.extend(lane_dword(&[Some(bytes[2 * i]), Some(bytes[2 * i + 1])], 2));
        }
        assert_eq!(reg_bytes(&st, 10, 64), b, "{p:?}");
        assert_eq!(reg_bytes(&st, 12, 64), w, "{p:?}");
    }
}

/// send.channels, send.disabled-lane-write, send.disabled-lane-read: a predicated byte write
/// (f0.0 = 0x0f) stores lanes 0-3 only; a predicated read fills lanes 0-3 and leaves lanes
/// 4-7's dwords undefined.
#[test]
fn disabled_lanes_store_nothing_and_read_undefined() {
    let text = format!(
        "{}(f0.0) sends (8|M0) null r2 r3 0x4A 0x2030003
mov (8|M0) r10.0<1>:ud 0x0:ud
(f0.0) send (8|M0) r10 r2 0xA 0x2110003
",
        prologue(0)
    );
    let mut st = state(Platform::Skl, 0xff, 0x0f, 0);
    let mut mem = surface(64);
    run_mem(&mut st, &mut mem, &text);
    let mut expect: Vec<_> = (0..4).map(|i| Some(data(i) as u8)).collect();
    expect.extend([None; 4]);
    assert_eq!(mem.flat.read(0x8000, 8), expect);
    let mut resp = vec![];
    for i in 0..4 {
        resp.extend(lane_dword(&[Some(data(i) as u8)], 1));
    }
    resp.extend([None; 16]);
    assert_eq!(reg_bytes(&st, 10, 32), resp);
}

/// send.byte-scattered-oob with mem.surface.oob-write / mem.surface.oob-read: a 6-byte
/// surface holds the words of lanes 0-2; lanes 3-7's writes are dropped (the flat bytes after
/// the surface stay undefined) and their reads return zero bytes (upper bytes undefined).
/// mem.surface.oob-partial: on a 5-byte surface lane 2's word straddles the end; mem.slm.oob:
/// an SLM of 4 bytes refuses lane 4's byte.
#[test]
fn out_of_bounds_elements_read_zero_and_writes_are_dropped() {
    let text = format!(
        "{}sends (8|M0) null r2 r3 0x4A 0x2030403\nsend (8|M0) r10 r2 0xA 0x2110403\n",
        prologue(1)
    );
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    let mut mem = surface(6);
    run_mem(&mut st, &mut mem, &text);
    let mut expect = vec![];
    for i in 0..3 {
        expect.extend(data(i).to_le_bytes()[..2].iter().map(|b| Some(*b)));
    }
    expect.extend([None; 10]);
    assert_eq!(mem.flat.read(0x8000, 16), expect);
    let mut resp = vec![];
    for i in 0..8 {
        if i < 3 {
            resp.extend(lane_dword(&expect[2 * i..], 2));
        } else {
            resp.extend(lane_dword(&[Some(0), Some(0)], 2));
        }
    }
    assert_eq!(reg_bytes(&st, 10, 32), resp);

    let mut st = state(Platform::Skl, 0xff, 0, 0);
    let r = try_run_mem(&mut st, &mut surface(5), &text);
    assert_eq!(send_row(r), "mem.surface.oob-partial");

    let slm = format!("{}sends (8|M0) null r2 r3 0x4A 0x20300FE\n", prologue(0));
    let mut mem = Memory::new();
    mem.set_slm(Slm::new(4));
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    assert_eq!(
        send_row(try_run_mem(&mut st, &mut mem, &slm)),
        "mem.slm.oob"
    );
}

/// mem.slm with byte scattered messages: bytes written to BTI 254 read back from the SLM, not
/// from the flat memory.
#[test]
fn byte_scattered_on_slm() {
    let text = format!(
        "{}sends (8|M0) null r2 r3 0x4A 0x20300FE\nsend (8|M0) r10 r2 0xA 0x21100FE\n",
        prologue(0)
    );
    let mut mem = Memory::new();
    mem.set_slm(Slm::new(8));
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    run_mem(&mut st, &mut mem, &text);
    let expect: Vec<_> = (0..8).map(|i| Some(data(i) as u8)).collect();
    assert_eq!(mem.slm().expect("slm").bytes.read(0, 8), expect);
    assert_eq!(mem.flat.read(0, 8), [None; 8]);
    let mut resp = vec![];
    for e in &expect {
        resp.extend(lane_dword(&[*e], 1));
    }
    assert_eq!(reg_bytes(&st, 10, 32), resp);
}

/// send.byte-scattered-same-address: eight lanes store a byte at offset 0; different values
/// leave it undefined, equal values store it.
#[test]
fn lanes_storing_one_byte() {
    let zero = "mov (8|M0) r2.0<1>:ud 0x0:ud\n";
    let different = format!(
        "{zero}mov (8|M0) r3.0<1>:ud 0x76543210:v\nsends (8|M0) null r2 r3 0x4A 0x2030003\n"
    );
    let same =
        format!("{zero}mov (8|M0) r3.0<1>:ud 0x1234:ud\nsends (8|M0) null r2 r3 0x4A 0x2030003\n");
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    let mut mem = surface(8);
    put_mem(&mut mem, 0x8000, &[0xffff_ffff]);
    run_mem(&mut st, &mut mem, &different);
    assert_eq!(mem.flat.read(0x8000, 2), [None, Some(0xff)]);
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    run_mem(&mut st, &mut mem, &same);
    assert_eq!(mem.flat.read(0x8000, 2), [Some(0x34), Some(0xff)]);
}

/// Refusals: send.byte-scattered-misaligned (a word at offset 1: lane i at 2i + 1; bytes at
/// odd offsets are fine, see the first test), send.undefined-address, send.header (the header
/// bit, 0x80000), send.lengths (rlen 2 for a SIMD8 read).
#[test]
fn byte_scattered_refusals() {
    let odd = format!(
        "{}add (8|M0) r2.0<1>:ud r2.0<8;8,1>:ud 0x1:ud\nsend (8|M0) r10 r2 0xA 0x2110403\n",
        prologue(1)
    );
    let cases = [
        (odd, "send.byte-scattered-misaligned"),
        (
            format!("{}send (8|M0) r10 r2 0xA 0x2190003\n", prologue(0)),
            "send.header",
        ),
        (
            format!("{}send (8|M0) r10 r2 0xA 0x2210003\n", prologue(0)),
            "send.lengths",
        ),
    ];
    for (text, row) in cases {
        let mut st = state(Platform::Skl, 0xff, 0, 0);
        let r = try_run_mem(&mut st, &mut surface(64), &text);
        assert_eq!(send_row(r), row, "{text}");
    }
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    st.write_grf(2 * 32 + 4, 4, 0, true).expect("in range");
    let r = try_run_mem(
        &mut st,
        &mut surface(64),
        "send (8|M0) r10 r2 0xA 0x2110003\n",
    );
    assert_eq!(send_row(r), "send.undefined-address");
}

/// send.fence, send.fence-response: a byte write, the fence, then a read returns what was
/// written (the fence changes no memory); the committed fence (Gen9, 0x219E000) writes its
/// response register r20 with undefined bytes, the uncommitted one (Gen8, 0x209C000) leaves
/// r20 as it was.
#[test]
fn fence_orders_nothing_away_and_its_response_is_undefined() {
    let cases = [
        (
            Platform::Skl,
            "sends (8|M0) null r2 r3 0x4A 0x2030003\n",
            "0x219E000",
            true,
        ),
        (
            Platform::Bdw,
            "send (8|M0) null r2 0xA 0x4030003\n",
            "0x209C000",
            false,
        ),
    ];
    for (p, write, fence, commit) in cases {
        let text = format!(
            "{}{write}(W) send (1|M0) r20 r0 0xA {fence}\nsend (8|M0) r10 r2 0xA 0x2110003\n",
            prologue(0)
        );
        let mut st = state(p, 0xff, 0, 0);
        put_ud(&mut st, 20, &[7; 8]);
        let mut mem = surface(64);
        run_mem(&mut st, &mut mem, &text);
        let expect: Vec<_> = (0..8).map(|i| Some(data(i) as u8)).collect();
        assert_eq!(mem.flat.read(0x8000, 9)[..8], expect, "{p:?}");
        assert_eq!(mem.flat.read(0x8008, 1), [None]);
        let mut resp = vec![];
        for e in &expect {
            resp.extend(lane_dword(&[*e], 1));
        }
        assert_eq!(reg_bytes(&st, 10, 32), resp, "{p:?}");
        let r20 = if commit { [None; 8] } else { [Some(7); 8] };
        assert_eq!(reg_dwords(&st, 20, 8), r20, "{p:?}");
    }
}

/// send.fence on Gen7 and through the render cache (SFID 5, msgval.rc-type.memory-fence, Gen7-Gen8):
/// the same descriptor bits, the same effect (a committed fence's response undefined).
#[test]
fn fence_on_ivb_and_the_render_cache() {
    for (p, sfid) in [
        (Platform::Ivb, "0xA"),
        (Platform::Ivb, "0x5"),
        (Platform::Bdw, "0x5"),
    ] {
        let mut st = state(p, 0xff, 0, 0);
        put_ud(&mut st, 20, &[7; 8]);
        put_ud(&mut st, 21, &[7; 8]);
        let text = format!(
            "(W) send (1|M0) r20 r0 {sfid} 0x219E000\n(W) send (1|M0) r21 r0 {sfid} 0x209C000\n"
        );
        run_mem(&mut st, &mut Memory::new(), &text);
        assert_eq!(reg_dwords(&st, 20, 8), [None; 8], "{p:?} {sfid}");
        assert_eq!(reg_dwords(&st, 21, 8), [Some(7); 8], "{p:?} {sfid}");
    }
}

/// send.fence-form: BTI 254 (an SLM fence: Gen11+ in Mesa), commit without rlen, no header
/// bit, and mlen 2 are refused on Gen9.
#[test]
fn fence_forms_the_rows_do_not_define_are_refused() {
    for desc in ["0x219E0FE", "0x209E000", "0x211E000", "0x419E000"] {
        let mut st = state(Platform::Skl, 0xff, 0, 0);
        let text = format!("(W) send (1|M0) r20 r0 0xA {desc}\n");
        let r = try_run_mem(&mut st, &mut Memory::new(), &text);
        assert_eq!(send_row(r), "send.fence-form", "{desc}");
    }
}
