//! Issue 27, class 4: the extended descriptor of a Gen9 send / sendc with an immediate
//! descriptor (row enc.gen9.send-a1-ex-desc; facts: Mesa brw_eu_inst_send_ex_desc and GED
//! model 9 ExMsgDescImm place ExDesc[31:28] in bits 94:91, [27:24] in 88:85, [23:20] in
//! 83:80 and [19:16] in 67:64). Expected values are worked out from those bit positions.

use crate::codec_util::hex_bytes;
use euref::asm::{self, Dialect, PrintOptions};
use euref::codec;
use euref::isa::SendDesc;
use euref::spec::Platform::{self, *};

/// The word (memory order): Mesa's `send(8) null<1>F g123<8,8,1>F 0x8a080017`, urb,
/// EOT (shared/corpus/mesa/asm/gen9/send.asm, first line).
const WORD: &str = "31 00 60 06 e0 3a 00 20 60 0f 8d 06 17 00 08 8a";

fn opts(dialect: Dialect, platform: Platform) -> PrintOptions {
    PrintOptions { dialect, platform }
}

/// ExDesc[31:16] read from a native word at Mesa's / GED's bit positions.
fn ex_desc_hi(b: &[u8]) -> u32 {
    let w = u128::from_le_bytes(b.try_into().unwrap());
    let bits = |hi: u32, lo: u32| ((w >> lo) & ((1u128 << (hi - lo + 1)) - 1)) as u32;
    bits(94, 91) << 28 | bits(88, 85) << 24 | bits(83, 80) << 20 | bits(67, 64) << 16
}

#[test]
fn example_word_has_ex_desc_0x4d00026() {
    let b = hex_bytes(WORD);
    // 94:91 = 0, 88:85 = 4, 83:80 = 0xD, 67:64 = 0; SFID (27:24) 6, EOT (127) set.
    assert_eq!(ex_desc_hi(&b), 0x04D0_0000);
    for p in [Skl, Bxt] {
        let (i, _) = codec::decode(&b, p).unwrap();
        let s = i.send.unwrap();
        assert_eq!(s.ex_desc, SendDesc::Imm(0x04D0_0000));
        assert_eq!((s.sfid, i.ctrl.eot), (6, true));
        for d in [Dialect::Iga, Dialect::Prm] {
            let text = asm::print_insn(&i, &opts(d, p));
            assert!(text.contains(" 0x4D00026 "), "{text}");
            let back = asm::parse_insn(&text, d, p).unwrap();
            assert_eq!(back, i, "{text}");
            assert_eq!(codec::encode(&back, p).unwrap().as_slice(), b.as_slice());
        }
        // Mesa shows the same bits as the src0 region; its text reads back to the same word.
        let mesa = asm::print_insn(&i, &opts(Dialect::Mesa, p));
        assert!(mesa.contains("g123<8,8,1>F"), "{mesa}");
        assert!(!mesa.contains("0x04d00000"), "{mesa}");
        let back = asm::parse_insn(&mesa, Dialect::Mesa, p).unwrap();
        assert_eq!(back, i, "{mesa}");
    }
}

/// IGA's text: the exdesc operand places ExDesc[31:16] whatever region the text gives src0
/// (IGA decodes no src0 region for a Gen9 send); the word is the issue's.
#[test]
fn iga_exdesc_assembles_over_the_region() {
    let b = hex_bytes(WORD);
    for src0 in ["r123.0<8;8,1>:f", "r123.0<0;1,0>:f"] {
        let text = format!("send (8|M0) null<1>:f {src0} 0x4D00026 0x8A080017 {{EOT}}");
        let i = asm::parse_insn(&text, Dialect::Iga, Skl).unwrap();
        assert_eq!(
            i.send.unwrap().ex_desc,
            SendDesc::Imm(0x04D0_0000),
            "{text}"
        );
        assert_eq!(
            codec::encode(&i, Skl).unwrap().as_slice(),
            b.as_slice(),
            "{text}"
        );
    }
    // Every nibble in its place: ExDesc 0x12340026 -> 94:91 = 1, 88:85 = 2, 83:80 = 3,
    // 67:64 = 4.
    let text = "send (8|M0) null<1>:f r123.0<8;8,1>:f 0x12340026 0x8A080017 {EOT}";
    let i = asm::parse_insn(text, Dialect::Iga, Skl).unwrap();
    let e = codec::encode(&i, Skl).unwrap();
    assert_eq!(ex_desc_hi(&e), 0x1234_0000);
    // ExDesc[15:6] has no place in a Gen9 send: refused, not dropped.
    let text = "send (8|M0) null<1>:f r123.0<8;8,1>:f 0x4D00066 0x8A080017 {EOT}";
    let i = asm::parse_insn(text, Dialect::Iga, Skl).unwrap();
    let err = codec::encode(&i, Skl).unwrap_err().to_string();
    assert!(err.contains("send.ex_desc"), "{err}");
}

/// Gen8 has no ExDesc[31:16] (GED model 8: SFID and EOT only): refused there.
#[test]
fn gen8_send_has_no_ex_desc_hi() {
    let text = "send (8|M0) null<1>:f r123.0<8;8,1>:f 0x4D00026 0x8A080017 {EOT}";
    let i = asm::parse_insn(text, Dialect::Iga, Bdw).unwrap();
    assert!(codec::encode(&i, Bdw).is_err());
}
