//! Issue 27, class 4 beside a register descriptor and in Align16: a Gen9 send / sendc keeps
//! ExDesc[31:16] at the same bits whatever its descriptor form and access mode (rows
//! enc.gen9.send-reg-a1-ex-desc, enc.gen9.send-a16-ex-desc, enc.gen9.send-reg-a16-ex-desc:
//! ExDesc[31:28] in bits 94:91, [27:24] in 88:85, [23:20] in 83:80, [19:16] in 67:64). The
//! words are the Mesa corpus's (shared/corpus/mesa/asm/gen9/send.asm); the IGA lines are what
//! Intel's `iga64 -d -p=9` prints for them. Expected values are worked out from the bit
//! positions of the rows.

use crate::codec_util::hex_bytes;
use euref::asm::{self, Dialect, PrintOptions};
use euref::codec;
use euref::isa::SendDesc;
use euref::spec::Platform::{self, *};

/// Mesa: `send(8) g124<1>UW g12<8,8,1>UD a0<0,1,0>UD 0x00000200` (sampler).
const SEND: &str = "31 00 60 02 48 02 80 2f 80 01 8d 00 00 02 00 00";
const SEND_IGA: &str = "send (8|M0) r124:uw r12 0x4D00002 a0.0";
/// sendc with EOT, descriptor in a0.0.
const SENDC: &str = "32 00 60 02 40 02 00 20 a0 0f 8d 00 00 02 00 80";
const SENDC_IGA: &str = "sendc (8|M0) null:uw r125 0x4D00022 a0.0 {EOT}";

fn word(b: &[u8]) -> u128 {
    u128::from_le_bytes(b.try_into().unwrap())
}

fn bits(w: u128, hi: u32, lo: u32) -> u32 {
    ((w >> lo) & ((1u128 << (hi - lo + 1)) - 1)) as u32
}

/// ExDesc[31:16] read from a native word at the rows' bit positions.
fn ex_desc_hi(b: &[u8]) -> u32 {
    let w = word(b);
    bits(w, 94, 91) << 28 | bits(w, 88, 85) << 24 | bits(w, 83, 80) << 20 | bits(w, 67, 64) << 16
}

/// IGA's exdesc operand of a word: ExDesc[31:16], the SFID (27:24) in [3:0], EOT (127) in [5].
fn iga_ex_desc(b: &[u8]) -> u32 {
    let w = word(b);
    ex_desc_hi(b) | bits(w, 27, 24) | bits(w, 127, 127) << 5
}

fn same_modulo_dont_care(got: &[u8], want: &[u8], p: Platform) -> bool {
    let (g, w) = (word(got), word(want));
    (g ^ w) & !codec::dont_care(w, p) == 0
}

#[test]
fn corpus_words_carry_ex_desc_beside_a0() {
    for (hex, line) in [(SEND, SEND_IGA), (SENDC, SENDC_IGA)] {
        let b = hex_bytes(hex);
        // 94:91 = 0, 88:85 = 4, 83:80 = 0xD, 67:64 = 0.
        assert_eq!(ex_desc_hi(&b), 0x04D0_0000, "{hex}");
        assert!(
            line.contains(&format!(" 0x{:X} a0.0", iga_ex_desc(&b))),
            "{line}"
        );
        let (i, _) = codec::decode(&b, Skl).unwrap();
        let s = i.send.unwrap();
        assert_eq!(s.desc, SendDesc::A0(0), "{hex}");
        assert_eq!(s.ex_desc, SendDesc::Imm(ex_desc_hi(&b)), "{hex}");
        // euref's IGA text shows IGA's operand and reads back to the word.
        let o = PrintOptions {
            dialect: Dialect::Iga,
            platform: Skl,
        };
        let text = asm::print_insn(&i, &o);
        assert!(
            text.contains(&format!(" 0x{:X} a0.0", iga_ex_desc(&b))),
            "{text}"
        );
        let back = asm::parse_insn(&text, Dialect::Iga, Skl).unwrap();
        assert_eq!(codec::encode(&back, Skl).unwrap().as_slice(), b.as_slice());
    }
}

/// IGA's own text of the corpus words assembles in euref to the words.
#[test]
fn iga_text_beside_a0_assembles_to_the_corpus_words() {
    for (hex, line) in [(SEND, SEND_IGA), (SENDC, SENDC_IGA)] {
        let b = hex_bytes(hex);
        let i = asm::parse_insn(line, Dialect::Iga, Skl).unwrap();
        let e = codec::encode(&i, Skl).unwrap();
        assert!(same_modulo_dont_care(&e, &b, Skl), "{line}: {e:02x?}");
        assert_eq!(ex_desc_hi(&e), 0x04D0_0000, "{line}");
    }
    // Every nibble in its place: 94:91 = 1, 88:85 = 2, 83:80 = 3, 67:64 = 4.
    let i = asm::parse_insn("send (8|M0) r124:uw r12 0x12340002 a0.0", Dialect::Iga, Skl).unwrap();
    let e = codec::encode(&i, Skl).unwrap();
    assert_eq!(ex_desc_hi(&e), 0x1234_0000);
    assert_eq!(bits(word(&e), 27, 24), 2);
    // ExDesc[15:6] has no place in a Gen9 send: refused, not dropped.
    let i = asm::parse_insn("send (8|M0) r124:uw r12 0x4D00042 a0.0", Dialect::Iga, Skl).unwrap();
    let err = codec::encode(&i, Skl).unwrap_err().to_string();
    assert!(err.contains("send.ex_desc"), "{err}");
}

/// Mesa's number beside a register descriptor is the instruction's last dword (bytes 12-15),
/// not ExDesc: still accepted, and any other number that is no ExDesc is refused.
#[test]
fn mesa_last_dword_reading_stays() {
    let b = hex_bytes(SEND);
    let line = "send(8)         g124<1>UW       g12<8,8,1>UD    a0<0,1,0>UD     0x00000200\n                            sampler MsgDesc: indirect                       { align1 1Q };";
    let i = asm::parse_insn(line, Dialect::Mesa, Skl).unwrap();
    assert_eq!(
        i.send.unwrap().ex_desc,
        SendDesc::Imm(ex_desc_hi(&b)),
        "settled to the word's ExDesc"
    );
    assert_eq!(codec::encode(&i, Skl).unwrap().as_slice(), b.as_slice());
    // Decoded words print Mesa's number again: the last dword (0x00000200, 0x80000200).
    for (hex, p) in [(SEND, Skl), (SENDC, Skl), (SEND, Bdw)] {
        let b = hex_bytes(hex);
        let last = bits(word(&b), 127, 96);
        let (i, _) = codec::decode(&b, p).unwrap();
        let o = PrintOptions {
            dialect: Dialect::Mesa,
            platform: p,
        };
        let text = asm::print_insn(&i, &o);
        assert!(
            text.contains(&format!("a0<0,1,0>UD     0x{last:08x}")),
            "{text}"
        );
        let back = asm::parse_insn(&text, Dialect::Mesa, p).unwrap();
        assert_eq!(back, i, "{text}");
    }
    let bad = line.replace("0x00000200", "0x00000300");
    let i = asm::parse_insn(&bad, Dialect::Mesa, Skl).unwrap();
    let err = codec::encode(&i, Skl).unwrap_err().to_string();
    assert!(
        err.contains("send.ex_desc") && err.contains("last dword"),
        "{err}"
    );
}

/// Align16 (bit 8 set): the same bits, over the src0 swizzle and vstride. iga64 -d -p=9
/// prints these words with exdesc 0x4DF0002 (register descriptor, bits 67:64 = 0xF) and
/// 0xF4DF0002 (immediate descriptor 0x02020048, bits 94:91 = 0xF as well).
#[test]
fn align16_words_carry_ex_desc() {
    for (hex, ex) in [
        (
            "31 01 60 02 48 02 80 2f 8f 01 8d 00 00 02 00 00",
            0x4DF_0002u32,
        ),
        (
            "31 01 60 02 48 02 80 2f 8f 01 8d 7e 48 00 02 02",
            0xF4DF_0002,
        ),
    ] {
        let b = hex_bytes(hex);
        assert_eq!(bits(word(&b), 8, 8), 1);
        assert_eq!(iga_ex_desc(&b), ex, "{hex}");
        let (i, _) = codec::decode(&b, Skl).unwrap();
        assert_eq!(i.access, euref::spec::AccessMode::Align16);
        assert_eq!(
            i.send.unwrap().ex_desc,
            SendDesc::Imm(ex_desc_hi(&b)),
            "{hex}"
        );
        assert_eq!(codec::encode(&i, Skl).unwrap().as_slice(), b.as_slice());
        // IGA's text does not keep Align16 (iga64 -a writes it back in Align1): the operand
        // assembles in euref to the word with bit 8 clear.
        let mut a1 = b.clone();
        a1[1] &= !1;
        let line = match i.send.unwrap().desc {
            SendDesc::A0(_) => format!("send (8|M0) r124:uw r12 0x{ex:X} a0.0"),
            SendDesc::Imm(d) => format!("send (8|M0) r124:uw r12 0x{ex:X} 0x{d:08X}"),
        };
        let e = codec::encode(&asm::parse_insn(&line, Dialect::Iga, Skl).unwrap(), Skl).unwrap();
        assert_eq!(ex_desc_hi(&e), ex_desc_hi(&a1), "{line}");
    }
}
