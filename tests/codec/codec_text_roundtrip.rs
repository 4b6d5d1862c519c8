//! What euref prints, euref reads (issue 26, round trips): every word that decodes prints, in
//! every syntax (iga, prm, mesa) and on every platform, text that assembles back to the same
//! bytes, modulo the word's don't-care bits (`codec::dont_care`, docs/codec.md "Text round
//! trips"). A compact word must come back compact (its text says `{Compacted}`).
//!
//! Inputs start from words, not from the model (tests/codec/codec_roundtrip_prop.rs and
//! tests/asm/asm_roundtrip_prop.rs start from random instructions): uniformly random 16-byte
//! native and 8-byte compact words (CmptCtrl cleared / set), and corpus words with a few bits
//! flipped, as tests/codec/codec_fuzz.rs makes them.
//!
//! The long run is opt-in:
//!
//! ```text
//! EUREF_FUZZ_ITERS=10000000 cargo test --release --test codec -- codec_text_roundtrip:: --ignored --nocapture
//! ```
//!
//! (default 2 million words: random native, random compact and mutated corpus words in turn,
//! on the six platforms in turn; `EUREF_FUZZ_SEED` changes the words).

use crate::codec_util::*;
use euref::asm::{self, Dialect, PrintOptions};
use euref::codec;
use euref::spec::Platform;

/// The native form of an instruction's bytes (uncompacted when compact).
fn native(bytes: &[u8], p: Platform) -> Result<u128, String> {
    match bytes.first_chunk::<16>() {
        Some(b) if b[3] & 0x20 == 0 => Ok(u128::from_le_bytes(*b)),
        _ => {
            let c = bytes
                .first_chunk::<8>()
                .ok_or_else(|| format!("{} bytes", bytes.len()))?;
            euref::encoding::uncompact(u64::from_le_bytes(*c), p).map_err(|e| e.to_string())
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Decode `bytes` on `p`; when they decode, print the instruction in every syntax, parse it
/// and assemble it (compact when it was), and check that the bytes come back up to the
/// don't-care bits. `Ok(false)`: the bytes do not decode.
fn round_trip(bytes: &[u8], p: Platform) -> Result<bool, String> {
    classified_round_trip(bytes, p).map_err(|(_, e)| e)
}

/// [`round_trip`] with each failure's class: the platform, the syntax, whether the word is
/// compact, and what went wrong without its numbers.
fn classified_round_trip(bytes: &[u8], p: Platform) -> Result<bool, (String, String)> {
    let Ok((insn, n)) = codec::decode(bytes, p) else {
        return Ok(false);
    };
    let word = &bytes[..n];
    let at = |d: Dialect, text: &str, what: String| {
        let kind: String = if what.starts_with("assembles to") {
            "assembles to other bytes".into()
        } else {
            what.chars().filter(|c| !c.is_ascii_digit()).collect()
        };
        let fields = what.split_once("fields ").map_or("", |x| x.1);
        let class = format!(
            "{} {} {}: {kind} {fields}",
            p.name(),
            d.name(),
            if n == 8 { "compact" } else { "native" }
        );
        let msg = format!(
            "{} {}: {} prints `{}`, which {what}",
            p.name(),
            d.name(),
            hex(word),
            text.replace('\n', "\\n")
        );
        (class, msg)
    };
    let mut care = None;
    for d in Dialect::ALL {
        let o = PrintOptions {
            dialect: d,
            platform: p,
        };
        let text = asm::print_insn(&insn, &o);
        let back = asm::parse_insn(&text, d, p)
            .map_err(|e| at(d, &text, format!("does not parse: {e}")))?;
        let got = if insn.ctrl.compacted {
            codec::compact(&back, p)
                .ok_or_else(|| at(d, &text, "has no compact form".into()))?
                .to_vec()
        } else {
            let mut b = back.clone();
            b.ctrl.compacted = false;
            codec::encode(&b, p)
                .map_err(|e| at(d, &text, format!("does not encode: {e}")))?
                .to_vec()
        };
        if got[..] == word[..] {
            continue;
        }
        let a = native(word, p).map_err(|e| (e.clone(), e))?;
        let b = native(&got, p).map_err(|e| (e.clone(), e))?;
        let c = *care.get_or_insert_with(|| !codec::dont_care(a, p));
        if (a ^ b) & c != 0 {
            let fields = diff_fields(b & c | a & !c, a, p);
            return Err(at(
                d,
                &text,
                format!("assembles to {} (fields {fields:?} differ)", hex(&got)),
            ));
        }
        // The don't-care bits hide no difference of the instruction but what the text
        // cannot carry (docs/codec.md).
        let again = codec::decode(&got, p).map_err(|e| at(d, &text, format!("gives {e}")))?;
        if beyond_text(&again.0, p) != beyond_text(&insn, p) {
            return Err(at(
                d,
                &text,
                format!("assembles to {}: {:?}", hex(&got), again.0),
            ));
        }
    }
    Ok(true)
}

/// A random native word; three times in four with the bits its layout reserves cleared
/// (uniform words mostly set one: a few in ten thousand decode).
/// `i` without what the text cannot carry: the flag register without a predicate or a
/// conditional modifier, pred_inv without a predicate, direct subregisters below the type
/// size (after which a one-source math's src1 may be the implicit operand the model leaves
/// out, enc.implicit.math-src1); and not compacted.
fn beyond_text(i: &euref::isa::Insn, p: Platform) -> euref::isa::Insn {
    use euref::isa::{Addr, Flag, Src};
    use euref::spec::{CondMod, PredCtrl};
    let mut i = i.clone();
    i.ctrl.compacted = false;
    if i.pred == PredCtrl::None {
        i.pred_inv = false;
        if i.cmod == CondMod::None {
            i.flag = Flag::default();
        }
    }
    let align = |a: &mut Addr, size: u32| {
        if let Addr::Direct { sub, .. } = a {
            *sub -= *sub % size.max(1) as u8;
        }
    };
    if let Some(d) = &mut i.dst {
        align(&mut d.addr, d.ty.bytes());
    }
    for s in i.src.iter_mut().flatten() {
        if let Src::Reg(r) = s {
            align(&mut r.addr, r.ty.bytes());
        }
    }
    codec::drop_implicit_math_src1(&mut i, p);
    i
}

fn random_native(r: &mut Rng, p: Platform) -> [u8; 16] {
    let mut w = u128::from(r.next()) << 64 | u128::from(r.next());
    w &= !(1u128 << 29);
    if r.below(4) != 0 {
        let mut used = 0u128;
        for f in euref::encoding::layout_for(w, p).fields {
            f.set(&mut used, u64::MAX);
        }
        w &= used;
    }
    w.to_le_bytes()
}

fn random_compact(r: &mut Rng) -> [u8; 8] {
    let mut b = r.next().to_le_bytes();
    b[3] |= 0x20;
    b
}

/// `n` random words of each form on every platform: every decodable one round-trips, and
/// enough decode for the test to mean something.
fn random_words(seed: u64, n: usize, compact: bool) {
    let mut r = Rng(seed);
    for p in Platform::ALL {
        let mut decoded = 0;
        for _ in 0..n {
            let ok = if compact {
                round_trip(&random_compact(&mut r), p)
            } else {
                round_trip(&random_native(&mut r, p), p)
            };
            decoded += usize::from(ok.unwrap_or_else(|e| panic!("{e}")));
        }
        assert!(
            decoded > n / 100,
            "{}: only {decoded} of {n} decode",
            p.name()
        );
    }
}

#[test]
fn random_native_words() {
    random_words(0x7e57_0001, 60_000, false);
}

#[test]
fn random_compact_words() {
    random_words(0x7e57_0002, 20_000, true);
}

fn corpus_words() -> Vec<[u8; 16]> {
    let mut v = vec![];
    for (dir, _) in GENS {
        for (_, e) in asm_files(dir) {
            v.extend(expected(&e));
        }
    }
    v
}

/// Flip 1-3 random bits of `w`.
fn mutate(mut w: [u8; 16], r: &mut Rng) -> [u8; 16] {
    for _ in 0..1 + r.below(3) {
        let bit = r.below(128) as usize;
        w[bit / 8] ^= 1 << (bit % 8);
    }
    w
}

#[test]
fn corpus_words_with_flipped_bits() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let words = corpus_words();
    let mut r = Rng(0x7e57_0003);
    let n = 30_000;
    let mut decoded = 0;
    for k in 0..n {
        let w = mutate(words[r.below(words.len() as u64) as usize], &mut r);
        let p = Platform::ALL[k % Platform::ALL.len()];
        decoded += usize::from(round_trip(&w, p).unwrap_or_else(|e| panic!("{e}")));
    }
    assert!(decoded > n / 10, "only {decoded} of {n} decode");
}

/// Issue 26's examples, through the library (the CLI path: codec_cli.rs).
#[test]
fn issue_examples_round_trip() {
    let cases: [(Platform, &str); 5] = [
        // {Compacted} text the assembler refused ("no compact form").
        (Platform::Ivb, "01 6d c0 20 00 33 00 00"),
        // brd with a 32-bit jump offset ("out of range" for a 16-bit field it does not use).
        (
            Platform::Ivb,
            "21 00 80 00 e1 10 00 21 00 00 00 00 00 00 04 00",
        ),
        // Haswell dim: a 64-bit immediate whose type field says V.
        (
            Platform::Hsw,
            "0a 03 40 00 79 73 41 20 00 00 00 00 00 00 b0 bf",
        ),
        // The same with an empty Align16 write mask.
        (
            Platform::Hsw,
            "0a 03 40 00 79 73 40 20 00 00 00 00 00 00 b0 bf",
        ),
        // A SIMD1 send whose payload region <8;8,1> prints bare (a mutated corpus word).
        (
            Platform::Bdw,
            "31 20 00 06 08 02 20 23 a0 03 8d 06 18 08 4a 04",
        ),
    ];
    for (p, h) in cases {
        assert_eq!(round_trip(&hex_bytes(h), p), Ok(true), "{h}");
    }
    // The compact word comes back bit for bit.
    let b = hex_bytes("01 6d c0 20 00 33 00 00");
    let (i, _) = codec::decode(&b, Platform::Ivb).unwrap();
    for d in Dialect::ALL {
        let o = PrintOptions {
            dialect: d,
            platform: Platform::Ivb,
        };
        let back = asm::parse_insn(&asm::print_insn(&i, &o), d, Platform::Ivb).unwrap();
        assert_eq!(
            codec::compact(&back, Platform::Ivb).map(|c| c.to_vec()),
            Some(b.clone())
        );
    }
}

/// The dim immediate is typed F (the type opcode.dim and enc.hsw.dim-* give it), whatever
/// the type field holds, and an empty write mask prints as a `.` the assembler reads.
#[test]
fn dim_immediate_and_empty_write_mask() {
    let p = Platform::Hsw;
    let (i, _) = codec::decode(
        &hex_bytes("0a 03 40 00 79 73 40 20 00 00 00 00 00 00 b0 bf"),
        p,
    )
    .unwrap();
    let imm = *i.src[0].as_ref().and_then(|s| s.as_imm()).unwrap();
    assert_eq!(
        (imm.ty, imm.bits),
        (euref::spec::DataType::F, 0xBFB0_0000_0000_0000)
    );
    assert_eq!(i.dst.unwrap().wrmask, 0);
    let o = PrintOptions {
        dialect: Dialect::Iga,
        platform: p,
    };
    let text = asm::print_insn(&i, &o);
    assert!(text.contains("r2.0<1>.:df 0xBFB0000000000000:f"), "{text}");
}

/// The assembler's jump offset range is that of the field holding the offset
/// (`encoding::jump_bits`): the 16-bit JIP/UIP fields of enc.gen7.branch-a1 for the
/// structured branches before Gen8, the 32-bit immediate of enc.gen7.a1-imm for brd, brc,
/// call, calla and jmpi, 32 bits on Gen8+. IGA text counts bytes: the field's range times the
/// opcode's unit (8 for the Gen7/Gen7.5 branches but call, calla, jmpi: enc.gen7.jump-unit-bytes).
#[test]
fn jump_offset_ranges_follow_the_fields() {
    use euref::spec::Opcode;
    for p in Platform::ALL {
        let gen7 = p.gen_x10() < 80;
        for (op, text, bits) in [
            (Opcode::Brd, "brd (16|M0) {}", 32),
            (Opcode::Call, "call (8|M0) r2.0<1>:d {}", 32),
            (Opcode::Else, "else (8|M0) {}", if gen7 { 16 } else { 32 }),
            (Opcode::If, "if (8|M0) {} 16", if gen7 { 16 } else { 32 }),
        ] {
            assert_eq!(
                euref::encoding::jump_bits(op, p),
                bits,
                "{op:?} {}",
                p.name()
            );
            let per: i64 = match op {
                Opcode::Call => 1,
                _ if gen7 => 8,
                _ => 1,
            };
            assert_eq!(
                i64::from(asm::jump_bytes(op, p)),
                per,
                "{op:?} {}",
                p.name()
            );
            let hi = (1i64 << (bits - 1)) - 1;
            let max = text.replacen("{}", &(hi * per).to_string(), 1);
            let over = text.replacen("{}", &((hi + 1) * per).to_string(), 1);
            let min = text.replacen("{}", &((-hi - 1) * per).to_string(), 1);
            let i = asm::parse_insn(&max, Dialect::Iga, p)
                .unwrap_or_else(|e| panic!("{}: {max}: {e}", p.name()));
            assert_eq!(i.jip, Some(hi as i32));
            assert!(asm::parse_insn(&min, Dialect::Iga, p).is_ok(), "{min}");
            let e = asm::parse_insn(&over, Dialect::Iga, p).expect_err(&over);
            assert!(e.to_string().contains("out of range"), "{e}");
        }
    }
}

/// The opt-in long run (see the module documentation).
#[test]
#[ignore]
fn long_round_trip() {
    let iters: u64 = std::env::var("EUREF_FUZZ_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000_000);
    let seed = std::env::var("EUREF_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x0bad_5eed_7e57_0005);
    let words = if crate::material::corpus().is_some() {
        corpus_words()
    } else {
        vec![]
    };
    let mut r = Rng(seed);
    let mut ok = [0u64; 3];
    let mut classes: std::collections::BTreeMap<String, (u64, String)> = Default::default();
    let mut failed = 0u64;
    for k in 0..iters {
        let p = Platform::ALL[(k / 3) as usize % Platform::ALL.len()];
        let kind = if words.is_empty() { k % 2 } else { k % 3 } as usize;
        let res = match kind {
            0 => classified_round_trip(&random_native(&mut r, p), p),
            1 => classified_round_trip(&random_compact(&mut r), p),
            _ => classified_round_trip(
                &mutate(words[r.below(words.len() as u64) as usize], &mut r),
                p,
            ),
        };
        match res {
            Ok(d) => ok[kind] += u64::from(d),
            Err((class, e)) => {
                failed += 1;
                classes.entry(class).or_insert((0, e)).0 += 1;
            }
        }
    }
    eprintln!(
        "{iters} words: {} random native, {} random compact, {} mutated corpus words decode; {failed} fail",
        ok[0],
        ok[1],
        ok[2],
    );
    for (class, (n, e)) in &classes {
        eprintln!("{n:8} {class}\n         {e}");
    }
    assert_eq!(failed, 0);
}
