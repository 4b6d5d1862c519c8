//! A shape's `insn` and `bytes` fields, printed in place: the IGA text goes straight into the
//! shape's buffer (no `String`), and a word-at-a-time test shows it needs no JSON escaping.

use super::super::emit;
use crate::asm::{write_insn_bytes, Dialect, PrintOptions};
use crate::golden::format::fast;
use crate::isa::Insn;
use crate::spec::Platform;

/// `,"insn":"<IGA text>","bytes":"<hex>"`: what [`emit::insn_fields`] writes.
pub(in super::super) fn insn_fields(out: &mut Vec<u8>, insn: &Insn, p: Platform, bytes: &[u8; 16]) {
    let mark = out.len();
    out.extend_from_slice(b",\"insn\":\"");
    let at = out.len();
    let o = PrintOptions {
        dialect: Dialect::Iga,
        platform: p,
    };
    write_insn_bytes(out, insn, &o);
    if !plain_ascii(&out[at..]) {
        // (Text to escape, or not ASCII: the general path decides.)
        out.truncate(mark);
        emit::insn_fields(out, insn, p, bytes);
        return;
    }
    out.extend_from_slice(b"\",\"bytes\":\"");
    fast::hex(out, bytes);
    out.push(b'"');
}

/// Every byte of `s` is printable ASCII (0x20..=0x7f) but `"` and `\`: `s` is a JSON string's
/// text as it is (and valid UTF-8). Eight bytes at a time.
pub(in super::super) fn plain_ascii(s: &[u8]) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    // With every byte below 0x80, a byte below `n` (at most 0x80) borrows into its own top
    // bit; a borrow from a lower byte only follows a byte that did (exact as a yes/no).
    let any_below = |w: u64, n: u64| w.wrapping_sub(LO * n) & !w & HI != 0;
    let any_equal = |w: u64, b: u8| any_below(w ^ (LO * u64::from(b)), 1);
    let mut words = s.chunks_exact(8);
    for c in &mut words {
        let mut b = [0u8; 8];
        b.copy_from_slice(c);
        let w = u64::from_le_bytes(b);
        if w & HI != 0 || any_below(w, 0x20) || any_equal(w, b'"') || any_equal(w, b'\\') {
            return false;
        }
    }
    words
        .remainder()
        .iter()
        .all(|&b| (0x20..0x80).contains(&b) && b != b'"' && b != b'\\')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `plain_ascii` is the byte-by-byte test, on every single byte value at every position
    /// of texts of every length up to 24, and on random texts.
    #[test]
    fn plain_ascii_is_the_bytewise_test() {
        let bytewise = |s: &[u8]| {
            s.iter()
                .all(|&b| (0x20..0x80).contains(&b) && b != b'"' && b != b'\\')
        };
        for len in 1..24 {
            for pos in 0..len {
                for v in 0..=255u8 {
                    let mut s = vec![b'a'; len];
                    s[pos] = v;
                    assert_eq!(plain_ascii(&s), bytewise(&s), "{s:?}");
                }
            }
        }
        let mut next = crate::test_rng::xorshift(0x0A5C_11E5_u64);
        let mut plain = 0;
        for _ in 0..20000 {
            let len = (next() % 40) as usize;
            let s: Vec<u8> = (0..len)
                .map(|_| match next() % 64 {
                    0 => (next() % 256) as u8,
                    _ => 0x20 + (next() % 0x60) as u8,
                })
                .collect();
            assert_eq!(plain_ascii(&s), bytewise(&s), "{s:?}");
            plain += usize::from(bytewise(&s));
        }
        assert!(plain > 1000 && plain < 19000, "{plain}");
    }

    /// The fields printed in place are those of the general path, for the golden templates'
    /// instructions on every platform.
    #[test]
    fn fields_are_those_of_the_general_path() {
        use crate::golden::{template, values::Rng};
        let mut seen = 0;
        for p in Platform::ALL {
            let ops = template::default_ops(p);
            for k in 0..3000u64 {
                let sel = ops[(k % ops.len() as u64) as usize];
                let mut r = Rng::for_vector(k, k, 0);
                let Some(b) = template::build(sel, k / 7, p, &[], &mut r) else {
                    continue;
                };
                let Ok(bytes) = crate::codec::encode(&b.insn, p) else {
                    continue;
                };
                let (mut fast, mut general) = (b"x".to_vec(), b"x".to_vec());
                insn_fields(&mut fast, &b.insn, p, &bytes);
                emit::insn_fields(&mut general, &b.insn, p, &bytes);
                assert_eq!(fast, general);
                seen += 1;
            }
        }
        assert!(seen > 10000, "{seen}");
    }
}
