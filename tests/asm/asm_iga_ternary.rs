//! Issue 27, classes 2 and 3: three-source instructions in IGA syntax (the ternary regions of
//! feature.iga-ternary-regions) and the Src1Type / Src2Type precision bits
//! (enc.gen8.3src-precision on Cherryview and Gen9; enc.gen8.3src-bdw on Broadwell).

use euref::asm::{self, Dialect, PrintOptions};
use euref::codec::{decode, encode, DecodeErrorKind};
use euref::isa::{Insn, Src};
use euref::spec::{AccessMode, DataType, Platform};

use crate::asm_util::parse_round_trip;

const SKL: Platform = Platform::Skl;
const BDW: Platform = Platform::Bdw;

/// The issue's gen9 lrp: every source RepCtrl 1 (bits 64, 85, 106), src0 r2 with a dword
/// subregister field of 4 (bits 75:73: byte 16, element 4 of :f), src1 r2 field 2, src2 r2.
const LRP: [u8; 16] = [
    0x5c, 0x01, 0x00, 0x00, 0x00, 0x00, 0x1e, 0x04, 0x01, 0x28, 0x20, 0x80, 0x04, 0x04, 0x80, 0x00,
];
/// The issue's gen9 csel: SrcType (45:43) 4 = HF, DstType 0 = F, bits 36/35 clear, no RepCtrl.
const CSEL: [u8; 16] = [
    0x12, 0x01, 0x80, 0x02, 0x80, 0x20, 0x1e, 0x0e, 0xc8, 0x01, 0x00, 0x39, 0x12, 0x20, 0x07, 0x02,
];

fn iga(i: &Insn, p: Platform) -> String {
    asm::print_insn(
        i,
        &PrintOptions {
            dialect: Dialect::Iga,
            platform: p,
        },
    )
}

fn word(b: [u8; 16]) -> u128 {
    u128::from_le_bytes(b)
}

fn bytes(w: u128) -> [u8; 16] {
    w.to_le_bytes()
}

/// Decode `b`, print it in IGA syntax, check the text, and assemble the text back to `b`.
fn both_ways(b: [u8; 16], p: Platform, text: &str) {
    let (i, _) = decode(&b, p).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(iga(&i, p), text);
    let back = asm::parse_insn(text, Dialect::Iga, p).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(back, i, "{text}");
    assert_eq!(encode(&back, p).ok(), Some(b), "{text}");
}

fn src_types(i: &Insn) -> Vec<DataType> {
    i.src
        .iter()
        .flatten()
        .map(|s| match s {
            Src::Reg(r) => r.ty,
            Src::Imm(m) => m.ty,
        })
        .collect()
}

#[test]
fn issue_lrp_prints_and_reads_ternary_regions() {
    both_ways(
        LRP,
        SKL,
        "lrp (1|M0) r4.0<1>:f r2.4<0;0>:f r2.2<0;0>:f r2.0<0>:f",
    );
}

#[test]
fn issue_csel_src1_src2_type_zero_is_f_on_gen9() {
    both_ways(
        CSEL,
        SKL,
        "csel (16|M0) (ne)f0.0 r14.0<1>:f r0.0<2;1>:hf (abs)r9.0<2;1>:f r8.0<1>:f",
    );
    // Bit 36 (src1) / bit 35 (src2) set: that source is :hf.
    let (i, _) = decode(&bytes(word(CSEL) | 1 << 36), SKL).unwrap();
    assert_eq!(src_types(&i), [DataType::HF, DataType::HF, DataType::F]);
    let (i, _) = decode(&bytes(word(CSEL) | 1 << 35), SKL).unwrap();
    assert_eq!(src_types(&i), [DataType::HF, DataType::F, DataType::HF]);
}

#[test]
fn gen9_precision_bits_are_reserved_for_integer_source_types() {
    // SrcType 1 (D) in bits 45:43: src1/src2 are D, and a set bit 36 is refused.
    let mut w = word(CSEL) & !(7u128 << 43) | 1 << 43;
    let (i, _) = decode(&bytes(w), SKL).unwrap();
    assert_eq!(src_types(&i), [DataType::D; 3]);
    w |= 1 << 36;
    let e = decode(&bytes(w), SKL).unwrap_err();
    assert_eq!(
        (e.kind, e.field, e.value),
        (DecodeErrorKind::ReservedValue, "src1_type", 1)
    );
}

#[test]
fn broadwell_gives_every_source_the_shared_type() {
    // GED/IGA model 8: SrcType is the type of all three sources; bits 36/35 are not read.
    both_ways(
        CSEL,
        BDW,
        "csel (16|M0) (ne)f0.0 r14.0<1>:f r0.0<2;1>:hf (abs)r9.0<2;1>:hf r8.0<1>:hf",
    );
    // SrcType F with bit 36 set: Mesa's reading would make src1 HF; euref reads F, as GED.
    let w = word(CSEL) & !(7u128 << 43) | 1 << 36;
    let (i, _) = decode(&bytes(w), BDW).unwrap();
    assert_eq!(src_types(&i), [DataType::F; 3]);
    let (plain, _) = decode(&CSEL, BDW).unwrap();
    let (mesa, _) = decode(&bytes(word(CSEL) | 3 << 35), BDW).unwrap();
    assert_eq!(mesa, plain);
    assert_eq!(
        euref::codec::dont_care(word(CSEL), BDW) & 3 << 35,
        3 << 35,
        "bits 36/35 are don't-care on Broadwell"
    );
    // Mixed precision has no encoding on Broadwell (the sources conflict: never guessed).
    let t = "csel (16|M0) (ne)f0.0 r14.0<1>:f r0.0<2;1>:hf r9.0<2;1>:f r8.0<1>:f";
    let i = asm::parse_insn(t, Dialect::Iga, BDW).unwrap();
    let e = encode(&i, BDW).unwrap_err();
    assert_eq!(e.field, "src1");
    // ... and on Gen9 it is the issue's word (without src1's (abs), bit 39).
    let i = asm::parse_insn(t, Dialect::Iga, SKL).unwrap();
    assert_eq!(encode(&i, SKL).ok(), Some(bytes(word(CSEL) & !(1 << 39))));
}

#[test]
fn packed_synonyms_and_refused_regions() {
    let want = asm::parse_insn(
        "mad (8|M0) r26.0<1>:f r22.0<2;1>:f r2.4<0;0>:f r5.0<1>:f",
        Dialect::Iga,
        SKL,
    )
    .unwrap();
    assert_eq!(want.access, AccessMode::Align16);
    let src0 = want.src[0].unwrap();
    assert_eq!(src0.as_reg().unwrap().region.vstride, 4);
    assert_eq!(want.src[1].unwrap().as_reg().unwrap().region.vstride, 0);
    for s0 in ["<4;1>", "<8;1>", "<4>"] {
        let t = format!("mad (8|M0) r26.0<1>:f r22.0{s0}:f r2.4<0;0>:f r5.0<1>:f");
        assert_eq!(
            asm::parse_insn(&t, Dialect::Iga, SKL).ok(),
            Some(want.clone()),
            "{t}"
        );
    }
    // euref's earlier form, with its Align16 option.
    let old = "mad (8|M0) r26.0<1>:f r22.0<4>:f r2.4<0>:f r5.0<4>:f {Align16}";
    assert_eq!(asm::parse_insn(old, Dialect::Iga, SKL).ok(), Some(want));
    for (bad, what) in [
        ("r22.0<1;0>:f r2.4<0;0>:f r5.0<1>:f", "<1;0>"),
        ("r22.0<2;1>:f r2.4<0;0>:f r5.0<0;0>:f", "src2"),
    ] {
        let t = format!("mad (8|M0) r26.0<1>:f {bad}");
        let e = asm::parse_insn(&t, Dialect::Iga, SKL)
            .unwrap_err()
            .to_string();
        assert!(e.contains(what) && e.contains("three-source"), "{t}: {e}");
    }
}

#[test]
fn omitted_regions_follow_iga_defaults() {
    // With a subregister (even .0) or SIMD1: replicated; else packed.
    let i = asm::parse_insn("mad (8|M0) r1.0<1>:f r2:f r3.1:f r4:f", Dialect::Iga, SKL).unwrap();
    let vs: Vec<u8> = i
        .src
        .iter()
        .map(|s| s.unwrap().as_reg().unwrap().region.vstride)
        .collect();
    assert_eq!(vs, [4, 0, 4]);
    let i = asm::parse_insn("mad (1|M0) r1.0<1>:f r2:f r3:f r4:f", Dialect::Iga, SKL).unwrap();
    let vs: Vec<u8> = i
        .src
        .iter()
        .map(|s| s.unwrap().as_reg().unwrap().region.vstride)
        .collect();
    assert_eq!(vs, [0, 0, 0]);
}

#[test]
fn swizzles_iga_cannot_print_keep_the_align16_notation() {
    let i = parse_round_trip(
        "mad (8|M0) r1.0<1>.xy:f r2.0<2;1>.yxwz:f r3.1<0;0>:f -r4.0<1>.zzzz:f",
        SKL,
    );
    assert_eq!(
        iga(&i, SKL),
        "mad (8|M0) r1.0<1>.xy:f r2.0<2;1>.yxwz:f r3.1<0;0>:f -r4.0<1>.z:f"
    );
}

/// enc.3src-rep-swizzle-unread: a replicated source's swizzle is not read. The Mesa corpus csel
/// (gen9 csel.expected) has src2 RepCtrl (bit 106) with swizzle .xxxx (114:107 = 0); IGA's
/// encoder writes .xyzw (0xE4) there. Both words are one instruction, the swizzle bits are
/// don't-care, and either prints `r4.0<0>:f` (IGA) / `g4.0<0,1,0>F` (Mesa, no swizzle).
#[test]
fn replicated_source_swizzle_is_not_read() {
    let mesa = u128::from_le_bytes([
        0x12, 0x01, 0x60, 0x05, 0x00, 0x00, 0x1e, 0x7f, 0xc8, 0x21, 0x00, 0x39, 0x10, 0x04, 0x00,
        0x01,
    ]);
    assert_eq!(mesa >> 106 & 1, 1, "src2 RepCtrl");
    assert_eq!(mesa >> 107 & 0xFF, 0, "src2 swizzle .xxxx");
    let iga_word = mesa | 0xE4 << 107;
    for p in [SKL, BDW] {
        let a = decode(&mesa.to_le_bytes(), p).unwrap().0;
        let b = decode(&iga_word.to_le_bytes(), p).unwrap().0;
        assert_eq!(a, b, "{}", p.name());
        assert_eq!(euref::codec::dont_care(iga_word, p) >> 107 & 0xFF, 0xFF);
        assert_eq!(u128::from_le_bytes(encode(&b, p).unwrap()), mesa);
        assert!(iga(&b, p).ends_with(" r4.0<0>:f"), "{}", iga(&b, p));
        let m = asm::print_insn(
            &b,
            &PrintOptions {
                dialect: Dialect::Mesa,
                platform: p,
            },
        );
        assert!(m.contains("g4.0<0,1,0>F"), "{m}");
    }
}
