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
//! EUREF_FUZZ_ITERS=100000000 cargo test --release --test codec_fuzz -- --ignored --nocapture
//! ```
//!
//! (default 20 million inputs, about a minute per platform on one core in release mode).

mod codec_util;

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
