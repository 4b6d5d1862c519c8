//! Decoding arbitrary bytes never panics: any 16-byte or 8-byte input decodes to an
//! instruction or to a clean error naming a field of the instruction. A decoded instruction
//! re-encodes, and decoding that gives the same instruction (decode normalizes; encode is its
//! inverse on what decode produces).
//!
//! Inputs: uniformly random words (most hit a reserved field), and corpus words with a few
//! random bits flipped (most decode).
//!
//! The long run is opt-in:
//!
//! ```text
//! EUREF_FUZZ_ITERS=100000000 cargo test --release --test codec -- codec_fuzz:: --ignored --nocapture
//! ```
//!
//! (default 20 million inputs: random native words, random compact words and mutated corpus
//! words in turn, each decoded, re-encoded, checked and decoded again: about 2 million inputs
//! per second on one core in release mode).

use crate::codec_util;

use codec_util::*;
use euref::codec::{self, DecodeErrorKind};
use euref::spec::Platform;
use proptest::prelude::*;

/// Decode, and when that succeeds, check encode/decode consistency.
fn exercise(bytes: &[u8], p: Platform) -> Result<bool, String> {
    match codec::decode(bytes, p) {
        Ok((i, n)) => {
            if n != 8 && n != 16 {
                return Err(format!("consumed {n} bytes"));
            }
            let enc = codec::encode(&i, p).map_err(|e| {
                format!(
                    "{}: {bytes:02x?} decodes to {i:?} which does not encode: {e}",
                    p.name()
                )
            })?;
            if let Err(e) = euref::encoding::check(u128::from_le_bytes(enc), p) {
                return Err(format!(
                    "{}: {bytes:02x?} re-encodes to {enc:02x?}, which check rejects: {e}",
                    p.name()
                ));
            }
            let (back, _) = codec::decode(&enc, p)
                .map_err(|e| format!("{}: re-encoded {enc:02x?}: {e}", p.name()))?;
            let mut want = i.clone();
            want.ctrl.compacted = false;
            if back != want {
                return Err(format!(
                    "{}: {bytes:02x?}\n  decoded {want:?}\n  re-enc  {back:?}",
                    p.name()
                ));
            }
            Ok(true)
        }
        Err(e) => {
            if e.kind != DecodeErrorKind::Truncated && e.byte >= 16 {
                return Err(format!("{bytes:02x?}: error outside the instruction: {e}"));
            }
            if e.field.is_empty() {
                return Err(format!("{bytes:02x?}: error without a field: {e}"));
            }
            // The message names the field and the byte.
            let msg = e.to_string();
            if e.kind != DecodeErrorKind::Truncated
                && !(msg.contains(e.field) && msg.contains("byte"))
            {
                return Err(format!("unhelpful message: {msg}"));
            }
            Ok(false)
        }
    }
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

fn platform(k: u8) -> Platform {
    Platform::ALL[k as usize % Platform::ALL.len()]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, ..ProptestConfig::default() })]

    #[test]
    fn any_16_bytes(bytes in any::<[u8; 16]>(), k in any::<u8>(), native in any::<bool>()) {
        let mut b = bytes;
        if native {
            // Clear CmptCtrl (bit 29) so that the native decoder is exercised.
            b[3] &= !0x20;
        }
        exercise(&b, platform(k)).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn any_8_bytes(bytes in any::<[u8; 8]>(), k in any::<u8>()) {
        let mut b = bytes;
        b[3] |= 0x20; // CmptCtrl: a compact instruction
        exercise(&b, platform(k)).map_err(TestCaseError::fail)?;
        // Too short for a native instruction: a clean truncation error.
        b[3] &= !0x20;
        let r = codec::decode(&b, platform(k));
        prop_assert!(matches!(r, Err(e) if e.kind == DecodeErrorKind::Truncated));
    }

    #[test]
    fn short_inputs(len in 0usize..8, k in any::<u8>()) {
        let b = vec![0x20u8; len];
        let r = codec::decode(&b, platform(k));
        prop_assert!(matches!(r, Err(e) if e.kind == DecodeErrorKind::Truncated));
    }
}

#[test]
fn corpus_words_with_flipped_bits() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let words = corpus_words();
    let mut r = Rng(0x5eed);
    let mut decoded = 0;
    let n = 200_000;
    for _ in 0..n {
        let mut w = words[r.below(words.len() as u64) as usize];
        for _ in 0..1 + r.below(3) {
            let bit = r.below(128) as usize;
            w[bit / 8] ^= 1 << (bit % 8);
        }
        let p = platform(r.next() as u8);
        if exercise(&w, p).unwrap_or_else(|e| panic!("{e}")) {
            decoded += 1;
        }
    }
    eprintln!("{decoded} of {n} mutated corpus words decode");
    assert!(decoded > n / 10, "only {decoded} of {n} decode");
}

/// Setting a bit that an instruction's layout reserves makes it undecodable, with an error
/// naming the reserved bits and their byte.
#[test]
fn reserved_bits_are_rejected() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let mut r = Rng(7);
    let mut n = 0;
    for (dir, p) in GENS {
        for (_, e) in asm_files(dir) {
            for w in expected(&e) {
                let word = u128::from_le_bytes(w);
                let (i, _) = codec::decode(&w, p).unwrap();
                let indirect = i
                    .dst
                    .iter()
                    .map(|d| d.addr)
                    .chain(
                        i.src
                            .iter()
                            .flatten()
                            .filter_map(|s| s.as_reg().map(|r| r.addr)),
                    )
                    .any(|a| matches!(a, euref::isa::Addr::Indirect { .. }));
                if indirect {
                    continue;
                }
                let l = euref::encoding::layout_for(word, p);
                let mut used = 0u128;
                for f in l.fields {
                    for pc in f.pieces {
                        let m = (1u128 << (pc.hi - pc.lo + 1)) - 1;
                        used |= m << pc.lo;
                    }
                }
                let reserved: Vec<u32> = (0..128).filter(|b| used >> b & 1 == 0).collect();
                if reserved.is_empty() {
                    continue;
                }
                let bit = reserved[r.below(reserved.len() as u64) as usize];
                // CmptCtrl is a field; a reserved bit never makes the word compact.
                let bad = (word | 1u128 << bit).to_le_bytes();
                let e = codec::decode(&bad, p).expect_err("reserved bit accepted");
                assert_eq!(e.kind, DecodeErrorKind::ReservedBits, "{e}");
                assert_eq!(u32::from(e.byte), bit / 8, "{e}");
                assert!(e.to_string().contains("reserved"), "{e}");
                n += 1;
            }
        }
    }
    assert!(n > 5000, "{n}");
}

/// The opt-in long run (see the module documentation).
#[test]
#[ignore]
fn long_fuzz() {
    let iters: u64 = std::env::var("EUREF_FUZZ_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000_000);
    let words = corpus_words();
    let mut r = Rng(std::env::var("EUREF_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x1234_5678_9abc_def1));
    let mut ok = [0u64; 3];
    for k in 0..iters {
        let p = platform(r.next() as u8);
        let (bytes, kind): ([u8; 16], usize) = match k % 3 {
            0 => {
                let mut b = (u128::from(r.next()) << 64 | u128::from(r.next())).to_le_bytes();
                b[3] &= !0x20;
                (b, 0)
            }
            1 => {
                let mut b = [0u8; 16];
                b[..8].copy_from_slice(&r.next().to_le_bytes());
                b[3] |= 0x20;
                (b, 1)
            }
            _ => {
                let mut w = words[r.below(words.len() as u64) as usize];
                for _ in 0..1 + r.below(4) {
                    let bit = r.below(128) as usize;
                    w[bit / 8] ^= 1 << (bit % 8);
                }
                (w, 2)
            }
        };
        let input = if kind == 1 { &bytes[..8] } else { &bytes[..] };
        if exercise(input, p).unwrap_or_else(|e| panic!("input {k}: {e}")) {
            ok[kind] += 1;
        }
    }
    eprintln!(
        "{iters} inputs: decoded {} random native, {} random compact, {} mutated corpus words",
        ok[0], ok[1], ok[2]
    );
}
