//! spec/memory.toml send.register-descriptor: a descriptor (and, on Gen9 split sends, an
//! extended descriptor) in a0 is read when the send executes and decoded as the immediate
//! would be; the memory a kernel writes through a0 equals what the immediate form writes.
//!
//! Descriptors as in send_untyped.rs: 0x2026E03 = mlen 1, rlen 0, DC1 type 9 (untyped
//! write), control 0x2e (SIMD8, R only), BTI 3; Gen9 ExDesc 0x4C = ex_mlen 1 << 6 | SFID 12;
//! Gen8 0x4026E03 = the same with mlen 2 (addresses then data in one payload).

use crate::flow_util::state;
use crate::send_util::{mem_dwords, run_mem, send_row, try_run_mem};
use euref::memory::{Memory, Surface};
use euref::spec::Platform;

/// r2 = byte offsets 4i of lane i; r3 = 0x500 + i (lane i's data), r4 = r3 (Gen8's payload
/// continues at r3).
const PROLOGUE: &str = "mov (8|M0) r2.0<1>:ud 0x76543210:v
mov (8|M0) r3.0<1>:ud 0x76543210:v
shl (8|M0) r2.0<1>:ud r2.0<8;8,1>:ud 0x2:ud
add (8|M0) r3.0<1>:ud r3.0<8;8,1>:ud 0x500:ud
";

fn surface() -> Memory {
    let mut m = Memory::new();
    m.bind(
        3,
        Surface {
            base: 0x8000,
            size: 64,
        },
    );
    m
}

/// Run `send` after the prologue on `p`; the surface's first eight dwords.
fn written(p: Platform, send: &str) -> Vec<Option<u32>> {
    let mut st = state(p, 0xff, 0, 0);
    let mut mem = surface();
    run_mem(&mut st, &mut mem, &format!("{PROLOGUE}{send}"));
    mem_dwords(&mem, 0x8000, 8)
}

#[test]
fn a0_descriptor_writes_what_the_immediate_writes() {
    // Lane i stores 0x500 + i at byte offset 4i (send.untyped-write).
    let want: Vec<_> = (0..8).map(|i| Some(0x500 + i)).collect();
    let cases = [
        (
            Platform::Skl,
            "sends (8|M0) null r2 r3 0x4C 0x2026E03\n",
            "(W) mov (1|M0) a0.0<1>:ud 0x2026E03:ud\nsends (8|M0) null r2 r3 0x4C a0.0\n",
        ),
        (
            Platform::Bdw,
            "send (8|M0) null r2 0xC 0x4026E03\n",
            "(W) mov (1|M0) a0.0<1>:ud 0x4026E03:ud\nsend (8|M0) null r2 0xC a0.0\n",
        ),
    ];
    for (p, imm, reg) in cases {
        assert_eq!(written(p, imm), want, "{p:?} immediate");
        assert_eq!(written(p, reg), want, "{p:?} a0.0");
    }
}

#[test]
fn a0_extended_descriptor_on_gen9() {
    let want: Vec<_> = (0..8).map(|i| Some(0x500 + i)).collect();
    // ExDesc in a0.2 with Mesa's SFID copy (12) ORed in, and without it.
    for ex in ["0x4C", "0x40"] {
        let text = format!(
            "(W) mov (1|M0) a0.0<1>:ud 0x2026E03:ud\n(W) mov (1|M0) a0.2<1>:ud {ex}:ud\n\
             sends.dp_data_1 (8|M0) null r2 r3 a0.2 a0.0\n"
        );
        assert_eq!(written(Platform::Skl, &text), want, "ExDesc {ex}");
    }
    // A different SFID copy, and a bit the row says must be 0, are refused.
    for ex in ["0x4A", "0x50"] {
        let text = format!(
            "{PROLOGUE}(W) mov (1|M0) a0.2<1>:ud {ex}:ud\n\
             sends.dp_data_1 (8|M0) null r2 r3 a0.2 0x2026E03\n"
        );
        let mut st = state(Platform::Skl, 0xff, 0, 0);
        let r = try_run_mem(&mut st, &mut surface(), &text);
        assert_eq!(send_row(r), "send.register-descriptor", "ExDesc {ex}");
    }
}

#[test]
fn undefined_or_reserved_descriptor_bits_are_refused() {
    // Bit 8 of a0.0 is undefined (set below); the prologue does not write a0.
    let undefined = format!("{PROLOGUE}send (8|M0) null r2 0xC a0.0\n");
    // Bit 29 set above the function control.
    let reserved = format!(
        "{PROLOGUE}(W) mov (1|M0) a0.0<1>:ud 0x24026E03:ud\nsend (8|M0) null r2 0xC a0.0\n"
    );
    for (text, undef) in [(undefined, 0x100), (reserved, 0)] {
        let mut st = state(Platform::Bdw, 0xff, 0, 0);
        st.set_arf_undef_bits("a0", 0, undef).expect("a0");
        let r = try_run_mem(&mut st, &mut surface(), &text);
        assert_eq!(send_row(r), "send.register-descriptor", "{text}");
    }
}
