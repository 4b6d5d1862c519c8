//! The golden vector: one JSON object per line (JSON Lines). Documented in
//! conformance/README.md, schema conformance/vector.schema.json.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Version of the vector format (the `v` key).
pub const FORMAT_VERSION: u32 = 1;

/// One single-instruction test vector.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Vector {
    /// Format version ([`FORMAT_VERSION`]).
    pub v: u32,
    /// Unique within a file: `<gen>-<seed>-<index>`.
    pub id: String,
    /// Platform name (`ivb`, `hsw`, `bdw`, `chv`, `skl`, `bxt`).
    pub gen: String,
    /// Opcode mnemonic (`math` for every math function).
    pub op: String,
    /// The instruction in IGA syntax.
    pub insn: String,
    /// The 16-byte native encoding (`euref::codec::encode`), hex, byte 0 first.
    pub bytes: String,
    /// The registers the instruction reads (and the destination registers, so that what it
    /// must preserve is known): register name -> hex bytes, byte 0 first. Every other register
    /// is undefined except the dispatch defaults (conformance/PROTOCOL.md).
    pub initial: BTreeMap<String, String>,
    /// The registers the instruction changes (destination, flags, accumulators): their whole
    /// final content, hex.
    pub expected: BTreeMap<String, String>,
    /// Per register of `expected` with undefined bits: hex of the same length whose set bits
    /// are undefined (any value accepted). GRF bytes are all-or-nothing (`ff`); flag and
    /// control registers are per bit.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub undefined: BTreeMap<String, String>,
    /// The destination (for reporting channels and typed values).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dst: Option<DstInfo>,
    /// Results that may legitimately differ from `expected`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<Alternative>,
    /// The spec row IDs the vector exercises (opcode row, conversion row, compare grid and
    /// cells `cmp.g[+inf,NaN]`, float-mode rows, math function, saturation, region rules).
    pub rules: Vec<String>,
    /// Coverage labels: value classes of the sources (`f:+denorm/min-denorm`) and the form of
    /// the instruction (`cmod:g`, `pred:inv`, `region:scalar`, `round:rd`, `fmode:alt`,
    /// `denorm:keep`, `sat`).
    pub classes: Vec<String>,
}

/// The destination region: GRF register, byte offset in it, type and stride.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DstInfo {
    pub reg: String,
    pub offset: u32,
    #[serde(rename = "type")]
    pub ty: String,
    pub stride: u32,
}

/// An allowed alternative result for one destination element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Alternative {
    pub kind: AltKind,
    /// Register and byte offset of the element.
    pub reg: String,
    pub offset: u32,
    #[serde(rename = "type")]
    pub ty: String,
    /// `ulps`: the error bound in units in the last place of `type`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ulps: Option<f64>,
    /// `ulps`: an absolute error bound also accepted (0: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abs: Option<f64>,
    /// The spec row that allows it.
    pub rule: String,
}

/// Kinds of alternatives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AltKind {
    /// Any NaN bit pattern (float_modes `nan_any`).
    AnyNan,
    /// Within `ulps` units in the last place (or `abs`) of the expected value (math functions).
    Ulps,
    /// ±inf of the expected value's sign instead of a finite value (float_modes
    /// `fused_overflow_inf`, seed000 §2.3.1.2).
    OverflowInf,
}

impl Vector {
    /// One JSON line (no newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The fast writer of vector lines: JSON text appended to a reused byte buffer, in the key order
/// and formatting of [`Vector::to_line`] (serde_json), so that a line parses to the same
/// [`Vector`] and serde writes it back byte for byte (tested).
pub mod fast {
    const HEX: &[u8; 16] = b"0123456789abcdef";

    /// Two hex digits per byte value (also `euref sim`'s register writer).
    pub(crate) static HEX2: [[u8; 2]; 256] = {
        let mut t = [[0u8; 2]; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = [HEX[i >> 4], HEX[i & 15]];
            i += 1;
        }
        t
    };

    /// The hex digit of a nibble (`n < 16`), lower case.
    #[inline(always)]
    fn digit(n: u8) -> u8 {
        n + b'0' + if n > 9 { b'a' - b'0' - 10 } else { 0 }
    }

    /// The hex of `N` bytes into `dst` (`dst.len() == 2 * N`), byte 0's high digit first:
    /// branch-free byte arithmetic that the compiler vectorizes (SSE2: 16 bytes per step).
    #[inline(always)]
    fn hex_into<const N: usize>(dst: &mut [u8], src: &[u8; N]) {
        for (d, &b) in dst.chunks_exact_mut(2).zip(src) {
            d[0] = digit(b >> 4);
            d[1] = digit(b & 15);
        }
    }

    /// The hex of the 4 bytes of `x` (little-endian: its low byte first): the bytes spread
    /// to every other byte of a 64-bit word, the nibbles split, and the digits made by word
    /// arithmetic (no byte can carry into the next).
    #[inline(always)]
    pub fn hex4(x: u32) -> [u8; 8] {
        const LOW: u64 = 0x000f_000f_000f_000f;
        let v = u64::from(x);
        let v = (v | v << 16) & 0x0000_ffff_0000_ffff;
        let v = (v | v << 8) & 0x00ff_00ff_00ff_00ff;
        // Byte 2i: the high nibble of byte i; byte 2i + 1: its low nibble.
        let n = (v >> 4 & LOW) | (v & LOW) << 8;
        let letters = (n + 0x0606_0606_0606_0606) >> 4 & 0x0101_0101_0101_0101;
        (n + 0x3030_3030_3030_3030 + letters * u64::from(b'a' - b'0' - 10)).to_le_bytes()
    }

    /// Append the hex of 32 bytes (a GRF register).
    #[inline]
    pub fn hex32(out: &mut Vec<u8>, bytes: &[u8; 32]) {
        let mut buf = [0u8; 64];
        hex_into(&mut buf, bytes);
        out.extend_from_slice(&buf);
    }

    /// Append the hex of `bytes` (byte 0 first, lower case).
    #[inline]
    pub fn hex(out: &mut Vec<u8>, bytes: &[u8]) {
        let mut buf = [0u8; 128];
        for block in bytes.chunks(64) {
            let mut parts = block.chunks_exact(16);
            let mut n = 0;
            for p in &mut parts {
                if let Ok(p) = <&[u8; 16]>::try_from(p) {
                    hex_into(&mut buf[n..n + 32], p);
                }
                n += 32;
            }
            for b in parts.remainder() {
                buf[n..n + 2].copy_from_slice(&HEX2[usize::from(*b)]);
                n += 2;
            }
            out.extend_from_slice(&buf[..n]);
        }
    }

    /// Append the hex of `bytes & !mask`, byte by byte (as far as both go).
    #[inline]
    pub fn hex_masked(out: &mut Vec<u8>, bytes: &[u8], mask: impl Iterator<Item = u8>) {
        let mut masked = [0u8; 64];
        let mut n = 0;
        for (b, m) in bytes.iter().zip(mask) {
            if n == masked.len() {
                hex(out, &masked);
                n = 0;
            }
            masked[n] = *b & !m;
            n += 1;
        }
        hex(out, &masked[..n]);
    }

    /// `"00"` to `"99"`.
    static DEC2: [[u8; 2]; 100] = {
        let mut t = [[0u8; 2]; 100];
        let mut i = 0;
        while i < 100 {
            t[i] = [b'0' + (i / 10) as u8, b'0' + (i % 10) as u8];
            i += 1;
        }
        t
    };

    /// Append a decimal unsigned number: its digits written two at a time into a fixed-size
    /// buffer, appended by one fixed-size copy (then cut to their count).
    #[inline]
    pub fn uint(out: &mut Vec<u8>, mut v: u64) {
        let n = v.checked_ilog10().unwrap_or(0) as usize + 1;
        let mut buf = [0u8; 20];
        let mut i = n;
        while i >= 2 {
            i -= 2;
            buf[i..i + 2].copy_from_slice(&DEC2[(v % 100) as usize]);
            v /= 100;
        }
        if i == 1 {
            buf[0] = b'0' + v as u8;
        }
        let at = out.len();
        out.extend_from_slice(&buf);
        out.truncate(at + n);
    }

    /// Append a lower-case hex unsigned number (no prefix).
    pub fn uint_hex(out: &mut Vec<u8>, v: u64) {
        let digits = (64 - v.leading_zeros()).div_ceil(4).max(1);
        for d in (0..digits).rev() {
            out.push(HEX[(v >> (4 * d) & 15) as usize]);
        }
    }

    /// Append a JSON string (quoted, escaped as serde_json does).
    #[inline]
    pub fn string(out: &mut Vec<u8>, s: &str) {
        out.push(b'"');
        if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
            out.extend_from_slice(s.as_bytes());
        } else {
            let mut v = Vec::new();
            // serde_json's escaping of the rare special characters.
            let _ = serde_json::to_writer(&mut v, s);
            out.extend_from_slice(&v[1..v.len() - 1]);
        }
        out.push(b'"');
    }

    /// Append a JSON string known to need no escaping (spec IDs, labels, register names).
    #[inline]
    pub fn plain(out: &mut Vec<u8>, s: &str) {
        debug_assert!(s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\'));
        out.reserve(s.len() + 2);
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    }

    /// Width of a [`Slots`] slot.
    const SLOT: usize = 64;

    /// Strings that need no escaping pre-rendered as JSON list items (`,"text"`), each also in
    /// a zero-padded fixed-width slot, so that a list is written by whole-slot copies into
    /// room made once ([`Slots::room`]) instead of one sized copy per item.
    pub struct Slots {
        /// Each item in a slot, with its length (longer than a slot: only in `json`).
        padded: Vec<([u8; SLOT], usize)>,
        json: Vec<u8>,
        starts: Vec<u32>,
        /// The room an item takes at most while being written.
        max_room: usize,
    }

    impl Slots {
        pub fn new<'a>(texts: impl IntoIterator<Item = &'a str>) -> Slots {
            let (mut padded, mut json, mut starts) = (Vec::new(), Vec::new(), vec![0u32]);
            let mut max_room = SLOT;
            for t in texts {
                let at = json.len();
                json.push(b',');
                plain(&mut json, t);
                starts.push(json.len() as u32);
                let mut slot = [0u8; SLOT];
                let n = json.len() - at;
                if n <= SLOT {
                    slot[..n].copy_from_slice(&json[at..]);
                }
                max_room = max_room.max(n);
                padded.push((slot, n));
            }
            Slots {
                padded,
                json,
                starts,
                max_room,
            }
        }

        /// Bytes to make room for before writing `n` items with [`Slots::put`].
        #[inline]
        pub fn room(&self, n: usize) -> usize {
            n * self.max_room
        }

        /// Write item `i` at `buf[pos..]` (with room for it); returns the position after it.
        #[inline]
        pub fn put(&self, buf: &mut [u8], pos: usize, i: usize) -> usize {
            let (slot, n) = &self.padded[i];
            if *n <= SLOT {
                buf[pos..pos + SLOT].copy_from_slice(slot);
            } else {
                buf[pos..pos + n].copy_from_slice(self.long(i));
            }
            pos + n
        }

        /// Append item `i` to `out`.
        #[inline]
        pub fn append(&self, out: &mut Vec<u8>, i: usize) {
            let (slot, n) = &self.padded[i];
            if *n <= SLOT {
                let at = out.len();
                out.extend_from_slice(slot);
                out.truncate(at + n);
            } else {
                out.extend_from_slice(self.long(i));
            }
        }

        /// Item `i` from the joined text.
        fn long(&self, i: usize) -> &[u8] {
            &self.json[self.starts[i] as usize..self.starts[i + 1] as usize]
        }
    }

    /// A JSON list being written: items go into a reused scratch buffer (with room made once
    /// per list, [`ListBuf::begin`]) by whole-slot copies, then to the output in one copy.
    #[derive(Default)]
    pub struct ListBuf {
        buf: Vec<u8>,
        pos: usize,
    }

    impl ListBuf {
        /// Start a list of at most `items` items of `slots` and `extra` further bytes.
        #[inline]
        pub fn begin(&mut self, slots: &Slots, items: usize, extra: usize) {
            let room = slots.room(items) + extra;
            if self.buf.len() < room {
                self.buf.resize(room, 0);
            }
            self.pos = 0;
        }

        /// Add item `i` of `slots`.
        #[inline]
        pub fn item(&mut self, slots: &Slots, i: usize) {
            self.pos = slots.put(&mut self.buf, self.pos, i);
        }

        /// Add a string that needs no escaping (`s.len() + 3` bytes of the extra room).
        #[inline]
        pub fn plain(&mut self, s: &str) {
            let (p, t) = (self.pos, s.as_bytes());
            self.buf[p] = b',';
            self.buf[p + 1] = b'"';
            self.buf[p + 2..p + 2 + t.len()].copy_from_slice(t);
            self.buf[p + 2 + t.len()] = b'"';
            self.pos = p + t.len() + 3;
        }

        /// Append the list (`[...]`) to `out`.
        #[inline]
        pub fn end(&self, out: &mut Vec<u8>) {
            out.push(b'[');
            if self.pos > 1 {
                out.extend_from_slice(&self.buf[1..self.pos]);
            }
            out.push(b']');
        }
    }

    /// Append a JSON number for an `f64` (serde_json's formatting).
    pub fn float(out: &mut Vec<u8>, x: f64) {
        let _ = serde_json::to_writer(&mut *out, &x);
    }
}

#[cfg(test)]
mod tests {
    use super::fast;
    use crate::golden::values::Rng;

    fn naive_hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn hex_writers_equal_the_plain_formatting() {
        let mut r = Rng::for_vector(3, 4, 0);
        for len in 0..140 {
            let bytes: Vec<u8> = (0..len).map(|_| r.next() as u8).collect();
            let mask: Vec<u8> = (0..len)
                .map(|_| if r.chance(1, 3) { r.next() as u8 } else { 0 })
                .collect();
            let mut out = b"x".to_vec();
            fast::hex(&mut out, &bytes);
            assert_eq!(&out[1..], naive_hex(&bytes).as_bytes());
            if let Ok(b32) = <&[u8; 32]>::try_from(&bytes[..]) {
                let mut out = b"y".to_vec();
                fast::hex32(&mut out, b32);
                assert_eq!(&out[1..], naive_hex(&bytes).as_bytes());
            }
            let mut out = Vec::new();
            fast::hex_masked(&mut out, &bytes, mask.iter().copied());
            let masked: Vec<u8> = bytes.iter().zip(&mask).map(|(b, m)| b & !m).collect();
            assert_eq!(out, naive_hex(&masked).as_bytes());
        }
    }

    /// The vectorized 32-byte writer equals the plain formatting on random registers and on
    /// every byte value in every position.
    #[test]
    fn hex32_equals_the_plain_formatting() {
        let mut r = Rng::for_vector(3, 5, 0);
        let mut inputs: Vec<[u8; 32]> = (0..2000)
            .map(|_| std::array::from_fn(|_| r.next() as u8))
            .collect();
        inputs.extend((0..=255u8).map(|b| std::array::from_fn(|i| b.wrapping_add(i as u8))));
        for bytes in inputs {
            let mut out = b"z".to_vec();
            fast::hex32(&mut out, &bytes);
            assert_eq!(&out[1..], naive_hex(&bytes).as_bytes());
        }
    }

    /// The word-arithmetic hex of a dword and the two-digits-at-a-time decimal writer equal
    /// the plain formatting.
    #[test]
    fn hex4_and_uint_equal_the_plain_formatting() {
        let mut r = Rng::for_vector(3, 6, 0);
        let mut words: Vec<u32> = (0..5000).map(|_| r.next() as u32).collect();
        words.extend((0..=255u32).map(|b| b * 0x0101_0101));
        words.extend([0, u32::MAX, 0x0123_4567, 0x89ab_cdef]);
        for x in words {
            let got = fast::hex4(x);
            assert_eq!(&got[..], naive_hex(&x.to_le_bytes()).as_bytes(), "{x:#x}");
        }
        let mut nums: Vec<u64> = (0..5000).map(|_| r.next() >> r.below(64)).collect();
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
        nums.extend((0..20).map(|k| 10u64.pow(k)));
        nums.extend((1..20).map(|k| 10u64.pow(k) - 1));
        for v in nums {
            let mut out = b"q".to_vec();
            fast::uint(&mut out, v);
            assert_eq!(out, format!("q{v}").as_bytes());
        }
    }

    #[test]
    fn slot_lists_equal_joined_strings() {
        let long = "l".repeat(100);
        let texts = ["a", "bc", "", long.as_str(), "d:e/f"];
        let slots = fast::Slots::new(texts);
        let mut list = fast::ListBuf::default();
        for pick in [
            vec![],
            vec![0],
            vec![1, 3, 4],
            vec![0, 1, 2, 3, 4],
            vec![3, 3],
        ] {
            list.begin(&slots, pick.len(), 6);
            for &i in &pick {
                list.item(&slots, i);
            }
            list.plain("xyz");
            let mut out = b"{".to_vec();
            list.end(&mut out);
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
                String::from_utf8(out).unwrap(),
                format!("{{[{}]", items.join(","))
            );
        }
    }
}
