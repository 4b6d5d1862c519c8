//! Issue 27 class 9: IGA's float literals (enc.iga-text.float-literals) and W/UW immediates
//! (enc.imm-word-replicated), both ways. Every expected bit pattern is computed here from
//! Rust's own float constants or by hand from the IEEE field layout (sign, exponent with
//! bias 15 / 127 / 1023, fraction), never taken from euref's output.

use euref::asm::{self, Dialect, PrintOptions};
use euref::codec::{decode_word, encode_word, DecodeErrorKind};
use euref::isa::{Insn, Src};
use euref::spec::DataType;
use euref::spec::Platform::{self, Skl};

use crate::codec_util;

/// The one immediate operand of `text` (IGA syntax unless `d` says otherwise).
fn imm_in(text: &str, d: Dialect) -> (DataType, u64) {
    let i = asm::parse_insn(text, d, Skl).unwrap_or_else(|e| panic!("`{text}`: {e}"));
    imm_of(&i)
}

fn imm_of(i: &Insn) -> (DataType, u64) {
    match i.src[0] {
        Some(Src::Imm(m)) => (m.ty, m.bits),
        ref s => panic!("no immediate src0: {s:?}"),
    }
}

fn print(i: &Insn, d: Dialect) -> String {
    asm::print_insn(
        i,
        &PrintOptions {
            dialect: d,
            platform: Skl,
        },
    )
}

fn err(text: &str, p: Platform) -> asm::AsmError {
    match asm::parse_insn(text, Dialect::Iga, p) {
        Ok(i) => panic!("`{text}` assembled to {i:?}"),
        Err(e) => e,
    }
}

/// `mov` of an immediate of type `ty` written `lit` (dst of the same type).
fn mov(lit: &str, ty: &str) -> String {
    let n = if ty == "df" { 4 } else { 8 };
    format!("mov ({n}|M0) r2.0<1>:{ty} {lit}:{ty}")
}

// Hand-computed half-precision patterns: sign << 15 | (exp + 15) << 10 | fraction.
const HF_ONE_AND_HALF: u64 = 15 << 10 | 0x200; // 1.5 = 1.1b x 2^0
const HF_MINUS_TWO: u64 = 1 << 15 | 16 << 10; // -2 = -1.0b x 2^1
const HF_TENTH: u64 = 11 << 10 | 614; // 0.1 = 1.6 x 2^-4: fraction 0.6 x 1024 = 614.4 -> 614
const HF_INF: u64 = 0x1F << 10;

/// Both halves of the 32-bit immediate field hold the 16 bits.
fn rep(h: u64) -> u64 {
    h << 16 | h
}

#[test]
fn named_float_literals_assemble_to_their_bits() {
    let f_exp = 0xFFu64 << 23;
    let f_quiet = 1u64 << 22;
    let df_quiet = 1u64 << 51;
    for d in [Dialect::Iga, Dialect::Prm] {
        let cases: [(&str, &str, u64); 10] = [
            ("inf", "f", f32::INFINITY.to_bits().into()),
            ("-inf", "f", f32::NEG_INFINITY.to_bits().into()),
            ("qnan(0x1)", "f", f_exp | f_quiet | 1),
            ("qnan(0x0)", "f", f_exp | f_quiet),
            ("-snan(0xA)", "f", 1 << 31 | f_exp | 0xA),
            ("inf", "df", f64::INFINITY.to_bits()),
            ("qnan(0x1B)", "df", 0x7FFu64 << 52 | df_quiet | 0x1B),
            ("-inf", "hf", rep(1 << 15 | HF_INF)),
            ("qnan(0x1)", "hf", rep(HF_INF | 1 << 9 | 1)),
            ("snan(0x1FF)", "hf", rep(HF_INF | 0x1FF)),
        ];
        for (lit, ty, want) in cases {
            let (_, bits) = imm_in(&mov(lit, ty), d);
            assert_eq!(bits, want, "{lit}:{ty} in {d:?}");
        }
    }
}

#[test]
fn bad_nan_literals_are_refused_at_the_payload() {
    // `mov (8|M0) r2.0<1>:f snan(` is 26 bytes: the payload is column 27.
    let e = err("mov (8|M0) r2.0<1>:f snan(0x0):f", Skl);
    assert_eq!((e.line, e.col), (1, 27), "{e}");
    assert!(e.msg.contains("nonzero"), "{e}");
    // F has 22 payload bits below the quiet bit; HF has 9 (the row's values).
    let e = err(&mov("qnan(0x400000)", "f"), Skl);
    assert!(e.msg.contains("22"), "{e}");
    let e = err(&mov("snan(0x200)", "hf"), Skl);
    assert!(e.msg.contains("9"), "{e}");
    let e = err(&mov("qnan(0x1", "f"), Skl);
    assert!(e.msg.contains("`)`"), "{e}");
}

#[test]
fn decimal_literals_narrow_to_the_type() {
    let cases: [(&str, &str, u64); 9] = [
        ("1.5", "f", 1.5f32.to_bits().into()),
        ("-0.0", "f", (-0.0f32).to_bits().into()),
        ("1e-07", "f", 1e-7f32.to_bits().into()),
        ("0.1", "df", 0.1f64.to_bits()),
        ("1.5", "hf", rep(HF_ONE_AND_HALF)),
        ("-2.0", "hf", rep(HF_MINUS_TWO)),
        ("0.1", "hf", rep(HF_TENTH)),
        // 1 + 2^-11 + 1e-12: above the tie between half values 1 and 1 + 2^-10, so a direct
        // rounding gives 1 + 2^-10; IGA rounds to float first (the 1e-12 is lost: an exact
        // tie) and then to half, ties to even: 1.0 (the row's two roundings).
        ("1.000488281251", "hf", rep(15 << 10)),
        ("0", "f", 0),
    ];
    for (lit, ty, want) in cases {
        assert_eq!(imm_in(&mov(lit, ty), Dialect::Iga).1, want, "{lit}:{ty}");
    }
}

#[test]
fn integer_literals_with_a_float_type() {
    // Hexadecimal: the bits.
    let (_, b) = imm_in(&mov("0x7F800000", "f"), Dialect::Iga);
    assert_eq!(b, u64::from(f32::INFINITY.to_bits()));
    // Decimal other than 0: refused where the immediate starts (`mov (8|M0) r2.0<1>:f ` is
    // 21 bytes: column 22; one more for `:hf`), in IGA's and the PRM dialect.
    for (ty, col) in [("f", 22), ("hf", 23)] {
        let e = err(&mov("2", ty), Skl);
        assert_eq!((e.line, e.col), (1, col), "{e}");
        assert!(e.msg.contains("2.0"), "{e}");
    }
    assert!(asm::parse_insn(&mov("-5", "f"), Dialect::Prm, Skl).is_err());
    // Mesa's syntax has no float literals; its decimal integers stay bits.
    let i = asm::parse_insn("mov(8) g2<1>F 5F { align1 1Q };", Dialect::Mesa, Skl).unwrap();
    assert_eq!(imm_of(&i).1, 5);
}

/// Print, then assemble the printed text again: the same bits.
fn printed(text: &str) -> String {
    let i = asm::parse_insn(text, Dialect::Iga, Skl).unwrap();
    let s = print(&i, Dialect::Iga);
    let again = asm::parse_insn(&s, Dialect::Iga, Skl).unwrap_or_else(|e| panic!("`{s}`: {e}"));
    assert_eq!(imm_of(&again), imm_of(&i), "{text} -> {s}");
    s
}

#[test]
fn float_immediates_print_as_iga_does() {
    let f = |b: u32| mov(&format!("0x{b:X}"), "f");
    let cases = [
        (f(f32::INFINITY.to_bits()), "inf:f"),
        (f(f32::NEG_INFINITY.to_bits()), "-inf:f"),
        (f(0x7F80_0000 | 1 << 22 | 1), "qnan(0x1):f"),
        (f(1 << 31 | 0x7F80_0000 | 1 << 22), "-qnan(0x0):f"),
        (f(0x7F80_0000 | 0x5), "snan(0x5):f"),
        // C's %g: "1" gets ".0"; "1e+10" has an exponent and keeps its form.
        (f(1.0f32.to_bits()), " 1.0:f"),
        (f((-0.0f32).to_bits()), " -0.0:f"),
        (f(1.5f32.to_bits()), " 1.5:f"),
        (f(1e10f32.to_bits()), " 1e+10:f"),
        // 1234567: %g gives 1.23457e+06 (not the value); %e gives 1.234567e+06.
        (f(1234567f32.to_bits()), " 1.234567e+06:f"),
        // 1/3 needs 9 digits: neither 6-digit form reads back, so the bits.
        (f((1.0f32 / 3.0).to_bits()), " 0x3EAAAAAB:f"),
        (mov("0x3E00", "hf"), " 1.5:hf"),
        (mov("0x7C00", "hf"), " inf:hf"),
        (mov("0x7E01", "hf"), " qnan(0x1):hf"),
        (mov(&format!("0x{:X}", 0.1f64.to_bits()), "df"), " 0.1:df"),
        (
            mov(&format!("0x{:X}", (1.0f64 / 3.0).to_bits()), "df"),
            " 0x3FD5555555555555:df",
        ),
    ];
    for (text, want) in cases {
        let s = printed(&text);
        assert!(s.ends_with(want), "{text}: printed `{s}`, want `{want}`");
    }
}

#[test]
fn word_immediates_hold_16_replicated_bits() {
    let cases: [(&str, &str, u64, &str); 4] = [
        ("-2", "w", rep(0xFFFE), " -2:w"),
        ("0xABCD", "uw", rep(0xABCD), " 0xABCD:uw"),
        // A 32-bit literal with equal halves is its 16-bit value.
        ("0x00050005", "w", rep(5), " 5:w"),
        ("0xFFFFFFFF", "uw", rep(0xFFFF), " 0xFFFF:uw"),
    ];
    for (lit, ty, want, text) in cases {
        let line = mov(lit, ty);
        assert_eq!(imm_in(&line, Dialect::Iga).1, want, "{line}");
        let s = printed(&line);
        assert!(s.ends_with(text), "{line}: printed `{s}`");
    }
    // The issue's `0x3F800000:w`: halves differ, refused at the immediate (column 22 after
    // `mov (8|M0) r2.0<1>:w `, 23 after `...:uw `).
    for (ty, col) in [("w", 22), ("uw", 23)] {
        let e = err(&mov("0x3F800000", ty), Skl);
        assert_eq!((e.line, e.col), (1, col), "{e}");
        assert!(e.msg.contains("halves"), "{e}");
    }
}

/// A decoded W/UW immediate whose halves differ is a reserved value of the imm field, and the
/// encoder refuses one (enc.imm-word-replicated). The 32-bit immediate of a one-source
/// instruction is the last dword of the native instruction (bits 127:96).
#[test]
fn unreplicated_word_fields_are_reserved() {
    for p in Platform::ALL {
        for ty in ["w", "uw"] {
            let i = asm::parse_insn(&mov("0x1234", ty), Dialect::Iga, p).unwrap();
            let w = encode_word(&i, p).unwrap();
            assert_eq!((w >> 96) as u32, 0x1234_1234, "{}", p.name());
            // Clear the upper half: 0x00001234.
            let bad = w & !(0xFFFFu128 << 112);
            let e = decode_word(bad, p).unwrap_err();
            assert_eq!(
                (e.kind, e.field),
                (DecodeErrorKind::ReservedValue, "imm"),
                "{e}"
            );
            assert_eq!(e.value, 0x1234);
            let mut j = i.clone();
            if let Some(Src::Imm(m)) = &mut j.src[0] {
                m.bits = 0x0000_1234;
            }
            assert!(encode_word(&j, p).is_err());
        }
    }
}

/// No word of the Mesa corpus has an unreplicated W/UW immediate: every W/UW immediate it
/// decodes to has equal halves (and none fails with the imm field).
#[test]
fn mesa_corpus_words_replicate_their_word_immediates() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let mut words = vec![];
    for (dir, p) in codec_util::GENS {
        for (_, expected) in codec_util::asm_files(dir) {
            for b in codec_util::expected(&expected) {
                words.push((p, u128::from_le_bytes(b)));
            }
        }
    }
    let mut seen = 0;
    for (p, w) in words {
        match decode_word(w, p) {
            Ok(i) => {
                for s in i.src.iter().flatten() {
                    if let Src::Imm(m) = s {
                        if matches!(m.ty, DataType::W | DataType::UW) {
                            assert_eq!(m.bits >> 16, m.bits & 0xFFFF, "{w:032x}");
                            seen += 1;
                        }
                    }
                }
            }
            Err(e) => assert_ne!(e.field, "imm", "{w:032x}: {e}"),
        }
    }
    assert!(seen > 0);
}
