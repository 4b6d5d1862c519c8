//! The golden vector's line writer ([`fast`]); the format itself (the [`Vector`] type) is
//! `crate::vector`, shared with the checker.

pub use crate::vector::{AltKind, Alternative, DstInfo, Vector, FORMAT_VERSION};

/// The fast writer of vector lines: JSON text appended to a reused byte buffer, in the key order
/// and formatting of [`Vector::to_line`] (serde_json), so that a line parses to the same
/// [`Vector`] and serde writes it back byte for byte (tested).
pub mod fast {
    pub(crate) use super::super::cursor::append;
    use super::super::cursor::QUOTED_ROOM;
    pub use super::super::cursor::{Cursor, FloatTexts, Lines};

    pub(crate) use crate::vector::hex::{hex16, hex4, hex_into, HEX, HEX2};

    /// Append the hex of `bytes` (byte 0 first, lower case; [`Cursor::hex`]).
    pub fn hex(out: &mut Vec<u8>, bytes: &[u8]) {
        append(out, 2 * bytes.len(), |c| c.hex(bytes));
    }

    /// `"00"` to `"99"`.
    pub(crate) static DEC2: [[u8; 2]; 100] = {
        let mut t = [[0u8; 2]; 100];
        let mut i = 0;
        while i < 100 {
            t[i] = [b'0' + (i / 10) as u8, b'0' + (i % 10) as u8];
            i += 1;
        }
        t
    };

    /// Append a decimal unsigned number ([`Cursor::uint`]).
    pub fn uint(out: &mut Vec<u8>, v: u64) {
        append(out, 20, |c| c.uint(v));
    }

    /// Append a lower-case hex unsigned number (no prefix).
    pub fn uint_hex(out: &mut Vec<u8>, v: u64) {
        let digits = (64 - v.leading_zeros()).div_ceil(4).max(1);
        for d in (0..digits).rev() {
            out.push(HEX[(v >> (4 * d) & 15) as usize]);
        }
    }

    /// Append a JSON string known to need no escaping (spec IDs, labels, register names).
    pub fn plain(out: &mut Vec<u8>, s: &str) {
        // (Room for the block a short string is written in: no second round.)
        append(out, (s.len() + 2).max(QUOTED_ROOM), |c| c.plain(s));
    }

    /// Width of a [`Slots`] item copy: its text (at most `SLOT - 1` bytes, the longest
    /// rule IDs and labels) and, in its last byte, the text's length.
    const SLOT: usize = 48;

    /// Strings that need no escaping pre-rendered as JSON list items (`,"text"`): each in a
    /// zero-padded slot of its own with its length, so that an item is written by one
    /// fixed-width copy of its slot ([`Cursor::padded`]; the next write overwrites the rest)
    /// after one lookup, and all of them one after the other (for the longer ones and for
    /// appending).
    pub struct Slots {
        json: Vec<u8>,
        /// The start and length of each item in `json`.
        items: Vec<(u32, u32)>,
        /// Each item's text zero-padded and its length in the last byte (0: longer than the
        /// slot).
        short: Vec<[u8; SLOT]>,
    }

    impl Slots {
        pub fn new<'a>(texts: impl IntoIterator<Item = &'a str>) -> Slots {
            let (mut json, mut items, mut short) = (Vec::new(), Vec::new(), Vec::new());
            for t in texts {
                let at = json.len();
                json.push(b',');
                plain(&mut json, t);
                let n = json.len() - at;
                items.push((at as u32, n as u32));
                let mut s = [0u8; SLOT];
                if n < SLOT {
                    s[..n].copy_from_slice(&json[at..]);
                    s[SLOT - 1] = n as u8;
                }
                short.push(s);
            }
            Slots { json, items, short }
        }

        /// The text of item `i` (empty: no such item).
        #[inline(always)]
        fn range(&self, i: usize) -> (usize, usize) {
            self.items
                .get(i)
                .map_or((0, 0), |&(a, n)| (a as usize, a as usize + n as usize))
        }

        /// Write item `i` (nothing: no such item).
        #[inline(always)]
        pub fn put(&self, c: &mut Cursor<'_>, i: usize) {
            match self.short.get(i) {
                Some(s) if s[SLOT - 1] != 0 => c.padded(s, usize::from(s[SLOT - 1])),
                _ => self.put_long(c, i),
            }
        }

        /// [`Slots::put`] of an item longer than a slot.
        #[cold]
        #[inline(never)]
        fn put_long(&self, c: &mut Cursor<'_>, i: usize) {
            let (a, b) = self.range(i);
            c.bytes(self.json.get(a..b).unwrap_or_default());
        }

        /// Append item `i` to `out`.
        #[inline]
        pub fn append(&self, out: &mut Vec<u8>, i: usize) {
            let (a, b) = self.range(i);
            out.extend_from_slice(self.json.get(a..b).unwrap_or_default());
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::fast;
    use crate::golden::values::Rng;

    /// Hex by `format!` (the reference of the hex writers).
    pub(crate) fn naive_hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The appending writers (hex, decimal, plain strings) equal the plain formatting.
    #[test]
    fn appending_writers_equal_the_plain_formatting() {
        let mut r = Rng::for_vector(3, 4, 0);
        for len in 0..140 {
            let bytes: Vec<u8> = (0..len).map(|_| r.next() as u8).collect();
            let mut out = b"x".to_vec();
            fast::hex(&mut out, &bytes);
            assert_eq!(&out[1..], naive_hex(&bytes).as_bytes());
        }
        let mut nums: Vec<u64> = (0..3000).map(|_| r.next() >> r.below(64)).collect();
        nums.extend([
            0,
            1,
            9,
            10,
            99,
            100,
            101,
            999,
            1000,
            u64::MAX,
            u64::MAX / 10,
        ]);
        for v in nums {
            let mut out = b"q".to_vec();
            fast::uint(&mut out, v);
            assert_eq!(out, format!("q{v}").as_bytes());
            let mut out = b"h".to_vec();
            fast::uint_hex(&mut out, v);
            assert_eq!(out, format!("h{v:x}").as_bytes());
        }
        let mut out = b"p".to_vec();
        fast::plain(&mut out, "op.src0-not-null");
        assert_eq!(out, b"p\"op.src0-not-null\"");
    }

    /// The word-arithmetic hex of a dword equals the plain formatting.
    #[test]
    fn hex4_equals_the_plain_formatting() {
        let mut r = Rng::for_vector(3, 6, 0);
        let mut words: Vec<u32> = (0..5000).map(|_| r.next() as u32).collect();
        words.extend((0..=255u32).map(|b| b * 0x0101_0101));
        words.extend([0, u32::MAX, 0x0123_4567, 0x89ab_cdef]);
        for x in words {
            let got = fast::hex4(x);
            assert_eq!(&got[..], naive_hex(&x.to_le_bytes()).as_bytes(), "{x:#x}");
        }
    }

    /// The SSE2 hex of 16 bytes equals the byte-by-byte path and the plain formatting, for
    /// random bytes and every byte value at every position; `hex_into` (16 bytes at a time,
    /// then byte by byte) likewise at every length up to 70.
    #[test]
    fn hex16_equals_the_byte_path() {
        let mut r = Rng::for_vector(3, 7, 0);
        let mut inputs: Vec<[u8; 16]> = (0..3000)
            .map(|_| std::array::from_fn(|_| r.next() as u8))
            .collect();
        inputs.extend((0..=255u8).map(|b| std::array::from_fn(|i| b.wrapping_add(17 * i as u8))));
        for src in inputs {
            let (mut fast, mut slow) = ([0u8; 32], [0u8; 32]);
            fast::hex16(&mut fast, &src);
            crate::vector::hex::hex_bytes(&mut slow, &src);
            assert_eq!(fast, slow, "{src:?}");
            assert_eq!(&fast[..], naive_hex(&src).as_bytes());
        }
        fn check<const N: usize>(r: &mut Rng) {
            let src: [u8; N] = std::array::from_fn(|_| r.next() as u8);
            let mut out = vec![b'?'; 2 * N + 1];
            fast::hex_into(&mut out[..2 * N], &src);
            assert_eq!(&out[..2 * N], naive_hex(&src).as_bytes(), "{N}");
            assert_eq!(out[2 * N], b'?');
        }
        for _ in 0..50 {
            check::<0>(&mut r);
            check::<1>(&mut r);
            check::<15>(&mut r);
            check::<16>(&mut r);
            check::<17>(&mut r);
            check::<32>(&mut r);
            check::<33>(&mut r);
            check::<48>(&mut r);
            check::<64>(&mut r);
            check::<70>(&mut r);
        }
    }

    /// Slot items written by fixed-width copies (and the long ones by sized copies) equal the
    /// joined strings, at the end of the room too (the line is written again).
    #[test]
    fn slot_lists_equal_joined_strings() {
        let long = "l".repeat(100);
        // (Items of 44 to 49 bytes: around the slot's room for text.)
        let edges: Vec<String> = (41..=46).map(|n| "m".repeat(n)).collect();
        let mut texts = vec!["a", "bc", "", long.as_str(), "d:e/f"];
        texts.extend(edges.iter().map(String::as_str));
        let slots = fast::Slots::new(texts.iter().copied());
        for pick in [
            vec![],
            vec![0],
            vec![1, 3, 4],
            vec![0, 1, 2, 3, 4],
            vec![3, 3],
            vec![4; 1000],
            vec![5, 6, 7, 8, 9, 10, 2, 9, 10, 5],
            vec![8; 500],
        ] {
            let mut out = fast::Lines::default();
            out.write(|c| {
                c.byte(b'{');
                let list = c.list_start();
                for &i in &pick {
                    slots.put(c, i);
                }
                slots.put(c, 99); // no such item
                c.list_plain("xyz");
                c.list_end(list);
            });
            let mut appended = Vec::new();
            for &i in &pick {
                slots.append(&mut appended, i);
            }
            let joined: Vec<String> = pick.iter().map(|&i| format!(",\"{}\"", texts[i])).collect();
            assert_eq!(appended, joined.concat().as_bytes());
            let mut items: Vec<String> =
                pick.iter().map(|&i| format!("\"{}\"", texts[i])).collect();
            items.push("\"xyz\"".into());
            assert_eq!(
                String::from_utf8(out.as_bytes().to_vec()).unwrap(),
                format!("{{[{}]", items.join(","))
            );
        }
    }
}
