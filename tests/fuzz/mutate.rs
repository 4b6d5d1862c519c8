//! The mutator every fuzz target shares: a deterministic generator and byte-level mutations of
//! seed inputs (bit flips, interesting bytes, insertions, deletions, duplications, splices
//! with another seed, truncation, number tokens made huge), as a coverage-blind fuzzer such as
//! radamsa or AFL's havoc stage applies them.

pub use crate::codec_util::Rng;

/// A random index below `n` (0 when `n` is 0).
pub trait Index {
    fn index(&mut self, n: usize) -> usize;
}

impl Index for Rng {
    fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }
}

/// Bytes that parsers treat specially: structure, escapes, line ends, control bytes, bytes
/// that are never UTF-8, and the first byte of a multi-byte sequence left unfinished.
const INTERESTING: &[u8] = &[
    0x00, 0x01, 0x07, 0x1b, b'\t', b'\n', b'\r', b' ', b'"', b'\\', b'{', b'}', b'[', b']', b',',
    b':', b';', b'.', b'<', b'>', b'(', b')', b'|', b'-', b'+', b'0', b'9', b'x', b'/', b'#', 0x7f,
    0x80, 0xc3, 0xe2, 0xf0, 0xfe, 0xff,
];

/// Number texts at the edges of the integer and float types.
const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "4294967296",
    "18446744073709551616",
    "99999999999999999999999999999999",
    "-9223372036854775809",
    "1e400",
    "-1e-400",
    "0x",
    "0xFFFFFFFFFFFFFFFFFF",
    "NaN",
    "1.5e",
    "65536",
    "2147483648",
];

/// The bytes of `seeds[k]` with one to `max_edits` random mutations applied.
pub fn mutate(r: &mut Rng, seeds: &[Vec<u8>], max_edits: usize) -> Vec<u8> {
    let mut b = seeds[r.index(seeds.len())].clone();
    for _ in 0..1 + r.index(max_edits) {
        edit(r, &mut b, seeds);
    }
    b
}

fn edit(r: &mut Rng, b: &mut Vec<u8>, seeds: &[Vec<u8>]) {
    let at = r.index(b.len() + 1);
    match r.index(9) {
        0 if !b.is_empty() => {
            let i = r.index(b.len());
            b[i] ^= 1 << r.index(8);
        }
        1 if !b.is_empty() => {
            let i = r.index(b.len());
            b[i] = INTERESTING[r.index(INTERESTING.len())];
        }
        2 => {
            let n = 1 + r.index(4);
            for _ in 0..n {
                b.insert(at.min(b.len()), INTERESTING[r.index(INTERESTING.len())]);
            }
        }
        3 if !b.is_empty() => {
            let at = at.min(b.len() - 1);
            let end = (at + 1 + r.index(16)).min(b.len());
            b.drain(at..end);
        }
        4 if !b.is_empty() => {
            // Duplicate a range (repeated keys, repeated operands, repeated lines).
            let at = at.min(b.len() - 1);
            let end = (at + 1 + r.index(64)).min(b.len());
            let piece = b[at..end].to_vec();
            let to = r.index(b.len() + 1);
            b.splice(to..to, piece);
        }
        5 => {
            // Splice in a piece of another seed.
            let other = &seeds[r.index(seeds.len())];
            if !other.is_empty() {
                let from = r.index(other.len());
                let end = (from + 1 + r.index(128)).min(other.len());
                b.splice(at..at, other[from..end].iter().copied());
            }
        }
        6 => b.truncate(at),
        7 => {
            // Replace the digit run at or after `at` with an edge number.
            let start = b[at..].iter().position(u8::is_ascii_digit).map(|k| at + k);
            if let Some(s) = start {
                let end = s + b[s..].iter().take_while(|c| c.is_ascii_digit()).count();
                let n = NUMBERS[r.index(NUMBERS.len())].as_bytes();
                b.splice(s..end, n.iter().copied());
            }
        }
        _ => {
            let i = r.index(b.len() + 1);
            b.insert(i, r.next() as u8);
        }
    }
}

/// The iteration count of a long run: `EUREF_FUZZ_ITERS`, else `default`.
pub fn long_iters(default: u64) -> u64 {
    std::env::var("EUREF_FUZZ_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The seed of a long run: `EUREF_FUZZ_SEED`, else `default`.
pub fn long_seed(default: u64) -> u64 {
    std::env::var("EUREF_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// `input` shown for a failure message: escaped, so that a reader can paste it into a test.
pub fn show(input: &[u8]) -> String {
    input.escape_ascii().to_string()
}

/// Run `f` on `input`, turning a panic into a failure that shows the input.
pub fn no_panic<T>(what: &str, input: &[u8], f: impl FnOnce() -> T) -> T {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(t) => t,
        Err(e) => {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!("{what} panicked ({msg}) on input b\"{}\"", show(input))
        }
    }
}

/// Whether an error message is fit for a terminal: no control bytes but line ends and tabs,
/// and bounded (an input echoed in a message is quoted and cut, issue 26).
pub fn fit_for_terminal(msg: &str) -> Result<(), String> {
    if let Some(c) = msg
        .chars()
        .find(|c| c.is_control() && *c != '\n' && *c != '\t')
    {
        return Err(format!(
            "the message holds control character {c:?}: {msg:?}"
        ));
    }
    if msg.len() > 4096 {
        return Err(format!("the message is {} bytes long", msg.len()));
    }
    Ok(())
}
