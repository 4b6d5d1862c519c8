//! Issue 27, "keep what euref does better" (feature.iga-text-keeps-bits): where Intel's IGA accepts, drops or hides bits,
//! euref refuses or shows them (facts: IGA decodes only named fields; Mesa's compactor asserts
//! reserved bits zero, `has_unmapped_bits` / `has_3src_unmapped_bits` in brw_eu_compact.c).
//! Field positions come from the layout rows (spec/encoding/gen7.toml enc.gen7.a1,
//! spec/encoding/gen8.toml enc.gen8.a1 and enc.gen8.a16); words are written in memory order.
//! docs/assembly.md "What euref keeps that IGA's text loses" says the same for users.

use crate::cli_util::euref;
use crate::codec_util::hex_bytes;
use crate::scratch_util::Scratch;
use euref::asm::{self, Dialect, PrintOptions};
use euref::codec::{self, DecodeErrorKind};
use euref::spec::Platform::{self, *};

fn opts(platform: Platform) -> PrintOptions {
    PrintOptions {
        dialect: Dialect::Iga,
        platform,
    }
}

fn with_bits(hex: &str, bits: &[u32]) -> Vec<u8> {
    let mut b = hex_bytes(hex);
    for &bit in bits {
        b[(bit / 8) as usize] |= 1 << (bit % 8);
    }
    b
}

fn with_bit(hex: &str, bit: u32) -> Vec<u8> {
    with_bits(hex, &[bit])
}

/// `add (8|M0) r2.0<1>:f r3.0<8;8,1>:f r4.0<8;8,1>:f` in the Gen8/Gen9 native form (opcode 0x40
/// in bits 6:0, register sources): the word every reserved-bit case starts from.
const GEN8_ADD: &str = "40 00 60 00 e8 3a 40 20 60 00 8d 3a 80 00 8d 00";
/// The same instruction in the Gen7/Gen7.5 native form.
const GEN7_ADD: &str = "40 00 60 00 bd 77 40 20 60 00 8d 00 80 00 8d 00";

/// Bits the layout rows mark `reserved` for a two-register Align1 instruction: Gen8/Gen9
/// (enc.gen8.a1: 7, 47, 95, 127:121) and Gen7/Gen7.5 (enc.gen7.a1: 7, 95:91, 127:121). IGA
/// decodes named fields only, so these vanish from its text; euref refuses the word and names
/// the bit.
#[test]
fn reserved_bits_are_refused_and_named() {
    let gen8: Vec<u32> = [7, 47, 95].into_iter().chain(121..=127).collect();
    let gen7: Vec<u32> = [7].into_iter().chain(91..=95).chain(121..=127).collect();
    for (plats, base, bits) in [
        (&[Bdw, Chv, Skl, Bxt][..], GEN8_ADD, &gen8),
        (&[Ivb, Hsw][..], GEN7_ADD, &gen7),
    ] {
        for &p in plats {
            assert!(codec::decode(&hex_bytes(base), p).is_ok(), "{}", p.name());
            for &bit in bits {
                let e = codec::decode(&with_bit(base, bit), p)
                    .expect_err(&format!("bit {bit} on {} accepted", p.name()));
                assert_eq!(e.kind, DecodeErrorKind::ReservedBits, "{e}");
                assert_eq!(u32::from(e.byte), bit / 8, "{e}");
                let msg = e.to_string();
                assert!(msg.contains(&format!("reserved bit {bit} set")), "{msg}");
            }
        }
    }
}

/// Several reserved bits at once are all named, lowest byte first.
#[test]
fn several_reserved_bits_are_listed() {
    let b = with_bits(GEN8_ADD, &[95, 121, 127]);
    let e = codec::decode(&b, Skl).unwrap_err();
    assert_eq!(e.byte, 11);
    assert!(
        e.to_string().contains("reserved bits 95, 121, 127 set"),
        "{e}"
    );
}

/// Gen7's bit 47 is NibCtrl (enc.gen7.a1 `47 nib_control`), not reserved: the same bit that
/// Gen8 reserves selects the second quarter's nibble there (`(8|M4)`).
#[test]
fn gen7_bit_47_is_the_nibble_control() {
    let (i, _) = codec::decode(&with_bit(GEN7_ADD, 47), Hsw).unwrap();
    let text = asm::print_insn(&i, &opts(Hsw));
    assert!(text.starts_with("add (8|M4) "), "{text}");
}

/// `(W) mov (8|M4) r25.0<1>:ud 0x0:ud`: IGA's auto-compaction drops the channel offset (the
/// issue's example). On Gen8/Gen9 M4 is NibCtrl (enc.gen8.a1 bit 11), which no compaction table
/// entry holds (Mesa's `has_unmapped_bits` refuses a word with bit 11 set), so euref keeps the
/// instruction native and refuses `{Compacted}` on it.
#[test]
fn channel_offset_is_never_compacted_away() {
    for p in [Bdw, Chv, Skl, Bxt] {
        let i = asm::parse_insn("(W) mov (8|M4) r25.0<1>:ud 0x0:ud", Dialect::Iga, p).unwrap();
        let b = codec::encode(&i, p).unwrap();
        assert_eq!(b[1] >> 3 & 1, 1, "NibCtrl (bit 11) on {}", p.name());
        assert_eq!(b[1] >> 4 & 3, 0, "QtrCtrl (bits 13:12) on {}", p.name());
        assert_eq!(codec::compact(&i, p), None, "{}", p.name());
        // The same move at M0 does compact: the offset is what stops it.
        let m0 = asm::parse_insn("(W) mov (8|M0) r25.0<1>:ud 0x0:ud", Dialect::Iga, p).unwrap();
        assert!(codec::compact(&m0, p).is_some(), "{}", p.name());
    }
    let dir = Scratch::new("iga-keep");
    let file = dir.file("m4.asm", "(W) mov (8|M4) r25.0<1>:ud 0x0:ud {Compacted}\n");
    let (code, out, err) = euref(&["asm", file.to_str().unwrap(), "--gen", "skl", "--hex"]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(
        err.contains("m4.asm:1:1:") && err.contains("no compact form"),
        "{err}"
    );
    // Compacting the program leaves it native (16 bytes, NibCtrl set).
    let plain = dir.file("m4p.asm", "(W) mov (8|M4) r25.0<1>:ud 0x0:ud\n");
    let (code, out, err) = euref(&["asm", plain.to_str().unwrap(), "--gen", "skl", "--compact"]);
    assert_eq!(code, 0, "{err}");
    let b = hex_bytes(&out);
    assert_eq!((b.len(), b[1] >> 3 & 1), (16, 1), "{out}");
}

/// `wait` has no saturation or condition modifier in IGA's model (its text hides the bits);
/// euref prints them in the destination form and reads that text back to the same bits
/// (enc.gen8.a1: saturate bit 31, cond_modifier 27:24).
#[test]
fn bits_iga_hides_are_printed_and_read_back() {
    let wait = "30 00 00 00 04 00 00 32 00 12 00 38 00 00 8d 00";
    let cases = [(31u32, "(sat)"), (24, "(eq)f0.0")];
    for (bit, shown) in cases {
        let bytes = with_bit(wait, bit);
        let (i, _) = codec::decode(&bytes, Skl).unwrap();
        let text = asm::print_insn(&i, &opts(Skl));
        assert!(text.contains(shown), "bit {bit}: {text}");
        let back = asm::parse_insn(&text, Dialect::Iga, Skl).unwrap();
        assert_eq!(codec::encode(&back, Skl).unwrap().to_vec(), bytes, "{text}");
    }
    // Haswell's `else` takes neither a predicate nor a condition modifier in IGA's model.
    // pred_control (enc.gen7 bits 19:16) = 1, cond_modifier (27:24) = 1 (.z).
    let els = with_bits("24 00 60 00 84 3c 00 20 00 00 8d 00 04 00 00 00", &[16, 24]);
    let (i, _) = codec::decode(&els, Hsw).unwrap();
    let text = asm::print_insn(&i, &opts(Hsw));
    assert!(text.starts_with("(f0.0) else.z.f0.0 "), "{text}");
    let back = asm::parse_insn(&text, Dialect::Iga, Hsw).unwrap();
    assert_eq!(codec::encode(&back, Hsw).unwrap().to_vec(), els, "{text}");
}

/// Align16 with a partial write mask and a source swizzle: IGA's decoder refuses to convert it
/// ("unsupported Align16 Dst.ChEn"); euref's IGA text keeps it readable in Align16 notation
/// (write mask after the destination region, swizzle after the source region, `{Align16}`).
/// Fields per enc.gen8.a16: dst_writemask 51:48 = .xy = 0b0011; src0_swizzle (67:64, 83:80) =
/// .yxwz = 1 | 0 << 2 | 3 << 4 | 2 << 6 = 0xB1.
#[test]
fn align16_text_iga_cannot_print_stays_readable() {
    let text = "mov (4|M0) r2.0<1>.xy:f r3.0<4>.yxwz:f {Align16}";
    let i = asm::parse_insn(text, Dialect::Iga, Skl).unwrap();
    let b = codec::encode(&i, Skl).unwrap();
    assert_eq!(b[1] & 1, 1, "access_mode (bit 8) Align16");
    assert_eq!(b[6] & 0xF, 0b0011, "dst_writemask 51:48");
    assert_eq!(b[8] & 0xF, 0x1, "src0_swizzle[3:0] 67:64");
    assert_eq!(b[10] & 0xF, 0xB, "src0_swizzle[7:4] 83:80");
    let (back, _) = codec::decode(&b, Skl).unwrap();
    assert_eq!(asm::print_insn(&back, &opts(Skl)), text);
}
