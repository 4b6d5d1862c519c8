//! Writing vector lines without a capacity check per write: [`Lines`] keeps zeroed room after
//! its text (from line to line), and a line is written through a [`Cursor`] over that room by
//! fixed-size copies and a position held in a register. A write that does not fit marks the
//! cursor as overflowed; [`Lines::write`] then makes more room and writes the line again, so
//! the room is only a guess, never a bound to get right.

use super::format::fast::{hex4, hex_into, DEC2, HEX2};

/// Room made for a line at least (a line is about 1.6 KB; more is made when one does not fit).
const MIN_ROOM: usize = 4096;

/// Room zeroed beyond the need when the room grows.
const GROW: usize = 64 << 10;

/// Lines of text and the zeroed room after them.
#[derive(Default)]
pub struct Lines {
    /// The text (`..len`) and the room (zeroed or old bytes, all initialized).
    buf: Vec<u8>,
    len: usize,
    /// The room a line is given (grows when a line does not fit).
    room: usize,
}

impl Lines {
    /// The text.
    pub fn as_bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or_default()
    }

    /// Bytes of text.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empty the text (the room stays).
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Append `b` as it is.
    pub fn extend(&mut self, b: &[u8]) {
        let need = self.len + b.len();
        if self.buf.len() < need {
            self.buf.resize(need + GROW, 0);
        }
        if let Some(d) = self.buf.get_mut(self.len..need) {
            d.copy_from_slice(b);
            self.len = need;
        }
    }

    /// Cut the text to `n` bytes.
    pub fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n);
    }

    /// Append what `f` writes through a cursor (`f` is called again, with more room, when
    /// it did not fit; it must write the same bytes each time).
    #[inline]
    pub fn write(&mut self, mut f: impl FnMut(&mut Cursor<'_>)) {
        let mut room = self.room.max(MIN_ROOM);
        // (Doubling: far fewer rounds than these reach any text that fits in memory.)
        for _ in 0..40 {
            let need = self.len + room;
            if self.buf.len() < need {
                // (The vector's capacity grows by doubling; only what is needed soon is
                // zeroed, so no page is touched before the text reaches it.)
                self.buf.resize(need + GROW, 0);
            }
            let Some(free) = self.buf.get_mut(self.len..need) else {
                return;
            };
            let mut c = Cursor::new(free);
            f(&mut c);
            if let Some(n) = c.written() {
                self.len += n;
                self.room = room;
                return;
            }
            room = room.saturating_mul(2);
        }
    }
}

/// Text being written into a slice: a write that does not fit writes nothing and marks the
/// cursor as overflowed (then nothing more is written and [`Cursor::written`] is None).
pub struct Cursor<'a> {
    buf: &'a mut [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(buf: &'a mut [u8]) -> Cursor<'a> {
        Cursor { buf, pos: 0 }
    }

    /// The number of bytes written; None if they did not all fit.
    #[inline]
    pub fn written(&self) -> Option<usize> {
        (self.pos <= self.buf.len()).then_some(self.pos)
    }

    /// The position of the next byte.
    #[inline(always)]
    pub fn pos(&self) -> usize {
        self.pos
    }

    #[inline(always)]
    fn overflow(&mut self) {
        self.pos = overflowed(self.buf.len());
    }

    /// The next `N` bytes, to be written (None: no room; overflowed).
    #[inline(always)]
    pub fn take<const N: usize>(&mut self) -> Option<&mut [u8; N]> {
        let (at, len) = (self.pos, self.buf.len());
        // (One check of the room: the slice from `at` on, then its first `N` bytes.)
        match self
            .buf
            .get_mut(at..)
            .and_then(|s| s.first_chunk_mut::<N>())
        {
            Some(d) => {
                self.pos = at + N;
                Some(d)
            }
            None => {
                self.pos = overflowed(len);
                None
            }
        }
    }

    /// Write `N` bytes.
    #[inline(always)]
    pub fn put<const N: usize>(&mut self, b: &[u8; N]) {
        if let Some(d) = self.take::<N>() {
            *d = *b;
        }
    }

    /// Write a block of at most `N` bytes with one room check: `f` fills the block's first
    /// bytes and returns their count.
    #[inline(always)]
    pub fn block<const N: usize>(&mut self, f: impl FnOnce(&mut [u8; N]) -> usize) {
        if let Some(b) = self.take::<N>() {
            let n = f(b);
            self.pos -= N - n.min(N);
        }
    }

    /// Write the first `n` bytes of `slot` by copying all of it (then the next write
    /// overwrites the rest): one fixed-size copy instead of a sized one.
    #[inline(always)]
    pub fn padded<const N: usize>(&mut self, slot: &[u8; N], n: usize) {
        let at = self.pos;
        match self
            .buf
            .get_mut(at..)
            .and_then(|s| s.first_chunk_mut::<N>())
        {
            Some(d) => {
                *d = *slot;
                self.pos = at + n.min(N);
            }
            None => self.overflow(),
        }
    }

    /// Write a byte.
    #[inline(always)]
    pub fn byte(&mut self, b: u8) {
        match self.buf.get_mut(self.pos) {
            Some(d) => {
                *d = b;
                self.pos += 1;
            }
            None => self.overflow(),
        }
    }

    /// Write `b` (up to 64 bytes by two overlapping fixed-size copies, inline: the texts of
    /// a line are short, and a copy call costs more than the bytes).
    #[inline]
    pub fn bytes(&mut self, b: &[u8]) {
        let at = self.pos;
        match self.buf.get_mut(at..at + b.len()) {
            Some(d) => {
                copy_short(d, b);
                self.pos = at + b.len();
            }
            None => self.overflow(),
        }
    }

    /// Replace the byte written at `at`.
    #[inline]
    pub fn set(&mut self, at: usize, b: u8) {
        if let Some(d) = self.buf.get_mut(at) {
            *d = b;
        }
    }

    /// The hex of the 4 bytes of `x`, its low byte first ([`hex4`]).
    #[inline(always)]
    pub fn hex4(&mut self, x: u32) {
        self.put(&hex4(x));
    }

    /// The hex of 32 bytes (a GRF register).
    #[inline]
    pub fn hex32(&mut self, bytes: &[u8; 32]) {
        if let Some(d) = self.take::<64>() {
            hex_into(d, bytes);
        }
    }

    /// The hex of `bytes` (byte 0 first, lower case).
    #[inline]
    pub fn hex(&mut self, bytes: &[u8]) {
        let mut parts = bytes.chunks_exact(16);
        for p in &mut parts {
            if let (Ok(p), Some(d)) = (<&[u8; 16]>::try_from(p), self.take::<32>()) {
                hex_into(d, p);
            }
        }
        for b in parts.remainder() {
            self.put(&HEX2[usize::from(*b)]);
        }
    }

    /// The hex of `bytes & !mask`, byte by byte (as far as both go).
    #[inline]
    pub fn hex_masked(&mut self, bytes: &[u8], mask: impl Iterator<Item = u8>) {
        let mut masked = [0u8; 64];
        let mut n = 0;
        for (b, m) in bytes.iter().zip(mask) {
            if n == masked.len() {
                self.hex(&masked);
                n = 0;
            }
            masked[n] = *b & !m;
            n += 1;
        }
        self.hex(&masked[..n]);
    }

    /// A decimal unsigned number: below 100 (register numbers, offsets) from the two-digit
    /// table at once; else its digits two at a time into a fixed-size buffer, written by one
    /// fixed-size copy.
    #[inline]
    pub fn uint(&mut self, mut v: u64) {
        if v < 10 {
            self.byte(b'0' + v as u8);
            return;
        }
        if let Some(d) = DEC2.get(v as usize).filter(|_| v < 100) {
            self.put(d);
            return;
        }
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
        self.padded(&buf, n);
    }

    /// A JSON string (quoted, escaped as serde_json does).
    #[inline]
    pub fn string(&mut self, s: &str) {
        if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
            self.plain(s);
        } else {
            // serde_json's escaping of the rare special characters.
            let mut v = Vec::new();
            let _ = serde_json::to_writer(&mut v, s);
            self.bytes(&v);
        }
    }

    /// A JSON string known to need no escaping (spec IDs, labels, register names).
    #[inline]
    pub fn plain(&mut self, s: &str) {
        self.quoted(b"", s);
    }

    /// `lead` (at most 2 bytes) and the JSON string `s` (no escaping needed): one block of
    /// room when the whole fits in [`QUOTED`] bytes.
    #[inline(always)]
    fn quoted(&mut self, lead: &[u8], s: &str) {
        debug_assert!(s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\'));
        let (s, l) = (s.as_bytes(), lead.len());
        if l <= 2 && s.len() + 4 <= QUOTED {
            self.block::<QUOTED>(|b| {
                let (lb, rest) = b.split_at_mut(l);
                lb.copy_from_slice(lead);
                let Some((q, rest)) = rest.split_first_mut() else {
                    return 0;
                };
                *q = b'"';
                if let Some(d) = rest.get_mut(..s.len()) {
                    copy_short(d, s);
                }
                if let Some(q) = rest.get_mut(s.len()) {
                    *q = b'"';
                }
                l + s.len() + 2
            });
        } else {
            self.bytes(lead);
            self.byte(b'"');
            self.bytes(s);
            self.byte(b'"');
        }
    }

    /// Text as it is, lower case.
    pub fn lower(&mut self, s: &str) {
        for b in s.bytes() {
            self.byte(b.to_ascii_lowercase());
        }
    }

    /// A JSON number for an `f64` (serde_json's formatting).
    pub fn float(&mut self, x: f64) {
        let mut buf = [0u8; FLOAT_TEXT];
        match float_text(x, &mut buf) {
            Some(n) => self.padded(&buf, n),
            None => {
                let mut v = Vec::new();
                let _ = serde_json::to_writer(&mut v, &x);
                self.bytes(&v);
            }
        }
    }

    /// Start a JSON list whose items are written as `,<item>` (returns its start, for
    /// [`Cursor::list_end`]).
    #[inline(always)]
    pub fn list_start(&self) -> usize {
        self.pos
    }

    /// A list item `,"<s>"` (`s` needs no escaping).
    #[inline]
    pub fn list_plain(&mut self, s: &str) {
        self.quoted(b",", s);
    }

    /// End the list begun at `start`: the first item's comma becomes the opening bracket.
    #[inline]
    pub fn list_end(&mut self, start: usize) {
        if self.pos == start {
            self.byte(b'[');
        } else {
            self.set(start, b'[');
        }
        self.byte(b']');
    }
}

/// The position of an overflowed cursor over `len` bytes (past the end).
#[cold]
#[inline(never)]
fn overflowed(len: usize) -> usize {
    len + 1
}

/// `d.copy_from_slice(s)` (same lengths), a short slice by two fixed-size copies that may
/// overlap.
#[inline(always)]
fn copy_short(d: &mut [u8], s: &[u8]) {
    /// The first and the last `N` bytes (`N <= s.len() <= 2 * N`).
    #[inline(always)]
    fn ends<const N: usize>(d: &mut [u8], s: &[u8]) {
        let n = s.len();
        if let (Some(dh), Some(sh)) = (d.first_chunk_mut::<N>(), s.first_chunk::<N>()) {
            *dh = *sh;
        }
        if let (Some(dt), Some(st)) = (d.last_chunk_mut::<N>(), s.last_chunk::<N>()) {
            *dt = *st;
        }
        debug_assert!(N <= n && n <= 2 * N);
    }
    if d.len() != s.len() {
        return;
    }
    match s.len() {
        0 => {}
        1..4 => {
            for (x, y) in d.iter_mut().zip(s) {
                *x = *y;
            }
        }
        4..8 => ends::<4>(d, s),
        8..16 => ends::<8>(d, s),
        16..=32 => ends::<16>(d, s),
        33..=64 => ends::<32>(d, s),
        _ => d.copy_from_slice(s),
    }
}

/// The block of room of a short quoted string ([`Cursor::plain`]).
const QUOTED: usize = 64;

/// Room that holds the block of any short quoted string ([`QUOTED`]).
pub(crate) const QUOTED_ROOM: usize = QUOTED;

/// Room for the JSON text of an `f64` (at most 24 characters: ryu's longest, or `null`).
const FLOAT_TEXT: usize = 32;

/// The JSON text of `x` (serde_json's formatting) at the start of `buf`, and its length.
fn float_text(x: f64, buf: &mut [u8; FLOAT_TEXT]) -> Option<usize> {
    let mut w = &mut buf[..];
    serde_json::to_writer(&mut w, &x).ok()?;
    Some(FLOAT_TEXT - w.len())
}

/// Values a run writes as JSON numbers remembered with their text (the error bounds of the
/// alternatives: a handful of values), since formatting one costs far more than finding it.
#[derive(Default)]
pub struct FloatTexts {
    seen: Vec<(u64, [u8; FLOAT_TEXT], usize)>,
}

/// Values remembered at most.
const FLOAT_TEXTS: usize = 16;

impl FloatTexts {
    /// Write `x` as [`Cursor::float`] does.
    #[inline]
    pub fn write(&mut self, c: &mut Cursor<'_>, x: f64) {
        let bits = x.to_bits();
        if let Some((_, t, n)) = self.seen.iter().find(|e| e.0 == bits) {
            c.padded(t, *n);
            return;
        }
        let mut t = [0u8; FLOAT_TEXT];
        match float_text(x, &mut t) {
            Some(n) => {
                if self.seen.len() < FLOAT_TEXTS {
                    self.seen.push((bits, t, n));
                }
                c.padded(&t, n);
            }
            None => c.float(x),
        }
    }
}

/// Append to `out` what `f` writes through a cursor over `room` bytes (more, and `f` called
/// again, if it does not fit).
pub(crate) fn append(out: &mut Vec<u8>, room: usize, mut f: impl FnMut(&mut Cursor<'_>)) {
    let at = out.len();
    let mut room = room.max(16);
    for _ in 0..40 {
        out.resize(at + room, 0);
        if let Some(free) = out.get_mut(at..) {
            let mut c = Cursor::new(free);
            f(&mut c);
            if let Some(n) = c.written() {
                out.truncate(at + n);
                return;
            }
        }
        room = room.saturating_mul(2);
    }
    out.truncate(at);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::golden::format::tests::naive_hex;
    use crate::golden::values::Rng;

    /// Writes into room too small write nothing after the one that did not fit, and the
    /// line is written again into more room: the text equals what fits at once.
    #[test]
    fn lines_that_do_not_fit_are_written_again() {
        let mut r = Rng::for_vector(21, 1, 0);
        let mut lines = Lines::default();
        let mut want = Vec::new();
        for k in 0..200 {
            // Lines up to three times the first room, some of one long write.
            let n = r.below(3 * MIN_ROOM);
            let text: Vec<u8> = (0..n).map(|i| b'a' + ((i + k) % 26) as u8).collect();
            let long = r.chance(1, 2);
            let mut calls = 0;
            lines.write(|c| {
                calls += 1;
                if long {
                    c.bytes(&text);
                } else {
                    for &b in &text {
                        c.byte(b);
                    }
                }
                c.put(b"\n");
            });
            assert!((1..=3).contains(&calls), "{calls}");
            want.extend_from_slice(&text);
            want.push(b'\n');
            assert_eq!(lines.as_bytes(), &want[..]);
            if r.chance(1, 10) {
                let cut = r.below(want.len() + 1);
                lines.truncate(cut);
                want.truncate(cut);
            }
        }
        lines.clear();
        assert!(lines.is_empty() && lines.as_bytes().is_empty());
    }

    /// A cursor stops at the first write that does not fit, whatever comes after it.
    #[test]
    fn an_overflowed_cursor_stays_overflowed() {
        let mut buf = [0u8; 10];
        let mut c = Cursor::new(&mut buf);
        c.put(b"abcdefgh");
        c.padded(&[b'x'; 4], 1); // 4 bytes of room needed, 2 left
        c.byte(b'y');
        assert_eq!(c.written(), None);
        let mut buf = [0u8; 10];
        let mut c = Cursor::new(&mut buf);
        c.put(b"abcdefgh");
        c.padded(&[b'x'; 2], 1);
        c.byte(b'y');
        assert_eq!(c.written(), Some(10));
        assert_eq!(&buf, b"abcdefghxy");
        // Blocks: the room of the whole block is needed, the count written is kept.
        let mut buf = [0u8; 6];
        let mut c = Cursor::new(&mut buf);
        c.block::<4>(|b| {
            *b = *b"abcd";
            2
        });
        c.block::<4>(|b| {
            *b = *b"efgh";
            9
        });
        assert_eq!(c.written(), Some(6));
        assert_eq!(&buf, b"abefgh");
        let mut c = Cursor::new(&mut buf);
        c.put(b"xyz");
        c.block::<4>(|_| 0);
        c.byte(b'w');
        assert_eq!(c.written(), None);
    }

    /// The cursor's hex, decimal, string and number writers equal the plain formatting
    /// (serde_json for strings and numbers).
    #[test]
    fn cursor_writers_equal_the_plain_formatting() {
        let mut r = Rng::for_vector(21, 2, 0);
        let written = |f: &dyn Fn(&mut Cursor<'_>)| {
            let mut l = Lines::default();
            l.write(|c| f(c));
            String::from_utf8(l.as_bytes().to_vec()).unwrap()
        };
        for len in 0..140 {
            let bytes: Vec<u8> = (0..len).map(|_| r.next() as u8).collect();
            let mask: Vec<u8> = (0..len)
                .map(|_| if r.chance(1, 3) { r.next() as u8 } else { 0 })
                .collect();
            assert_eq!(written(&|c| c.hex(&bytes)), naive_hex(&bytes));
            if let Ok(b32) = <&[u8; 32]>::try_from(&bytes[..]) {
                assert_eq!(written(&|c| c.hex32(b32)), naive_hex(&bytes));
            }
            let masked: Vec<u8> = bytes.iter().zip(&mask).map(|(b, m)| b & !m).collect();
            let got = written(&|c| c.hex_masked(&bytes, mask.iter().copied()));
            assert_eq!(got, naive_hex(&masked));
        }
        let mut inputs: Vec<[u8; 32]> = (0..2000)
            .map(|_| std::array::from_fn(|_| r.next() as u8))
            .collect();
        inputs.extend((0..=255u8).map(|b| std::array::from_fn(|i| b.wrapping_add(i as u8))));
        for bytes in inputs {
            assert_eq!(written(&|c| c.hex32(&bytes)), naive_hex(&bytes));
        }
        for _ in 0..3000 {
            let x = r.next() as u32;
            assert_eq!(written(&|c| c.hex4(x)), naive_hex(&x.to_le_bytes()));
        }
        let mut nums: Vec<u64> = (0..5000).map(|_| r.next() >> r.below(64)).collect();
        nums.extend([0, 9, 10, 99, 100, u64::MAX]);
        nums.extend(0..300);
        nums.extend((0..20).map(|k| 10u64.pow(k)));
        nums.extend((1..20).map(|k| 10u64.pow(k) - 1));
        for v in nums {
            assert_eq!(written(&|c| c.uint(v)), v.to_string());
        }
        for s in [
            "",
            "abc",
            "a\"b",
            "tab\there",
            "back\\slash",
            "\u{1}",
            "é ü",
            "x\ny",
        ] {
            let want = serde_json::to_string(s).unwrap();
            assert_eq!(written(&|c| c.string(s)), want);
            assert_eq!(written(&|c| c.lower("AbC")), "abc");
        }
        let mut floats = vec![
            0.0,
            -0.0,
            1.0,
            0.5,
            1e300,
            1e-300,
            3.0e-7,
            f64::MAX,
            f64::MIN,
        ];
        floats.extend([f64::NAN, f64::INFINITY, f64::MIN_POSITIVE, 5e-324]);
        floats.extend((0..2000).map(|_| f64::from_bits(r.next())));
        let mut memo = FloatTexts::default();
        for x in floats {
            let want = serde_json::to_string(&x).unwrap();
            assert_eq!(written(&|c| c.float(x)), want, "{x:e}");
            // Remembered values (the first few) and the others, twice each.
            for _ in 0..2 {
                let mut l = Lines::default();
                l.write(|c| memo.write(c, x));
                assert_eq!(l.as_bytes(), want.as_bytes(), "{x:e}");
            }
        }
        assert_eq!(memo.seen.len(), FLOAT_TEXTS);
    }

    /// Short and long copies equal the slice copy at every length up to 300.
    #[test]
    fn short_copies_equal_slice_copies() {
        let src: Vec<u8> = (0..300u32)
            .map(|i| (i as u8).wrapping_mul(37).wrapping_add(1 + (i >> 8) as u8))
            .collect();
        for n in 0..=300 {
            let mut d = vec![0u8; n + 2];
            copy_short(&mut d[1..n + 1], &src[..n]);
            assert_eq!(&d[1..n + 1], &src[..n]);
            assert!(d[0] == 0 && d[n + 1] == 0, "{n}");
            let mut l = Lines::default();
            l.write(|c| c.bytes(&src[..n]));
            assert_eq!(l.as_bytes(), &src[..n]);
        }
    }

    /// Quoted strings and list items (one block each up to [`QUOTED`] bytes, then piece by
    /// piece) equal serde_json's strings at every length, at the end of the room too.
    #[test]
    fn quoted_strings_equal_serde_strings() {
        let mut r = Rng::for_vector(21, 3, 0);
        for n in 0..100 {
            let s: String = (0..n)
                .map(|_| (b' ' + 1 + r.below(90) as u8) as char)
                .collect();
            let s = s.replace(['"', '\\'], "x");
            let want = serde_json::to_string(&s).unwrap();
            // Written after filler that leaves the room's end anywhere near the string.
            for fill in [0, MIN_ROOM - 70, MIN_ROOM - 40, MIN_ROOM - 3] {
                let mut l = Lines::default();
                l.write(|c| {
                    for _ in 0..fill {
                        c.byte(b'.');
                    }
                    c.plain(&s);
                    c.list_plain(&s);
                });
                let text = &l.as_bytes()[fill..];
                assert_eq!(text, format!("{want},{want}").as_bytes(), "{n} {fill}");
            }
        }
    }

    /// Lists: the first item's comma becomes the bracket; an empty list is `[]`.
    #[test]
    fn lists_open_with_the_first_comma() {
        for items in [vec![], vec!["a"], vec!["a", "bc", "d:e/f"]] {
            let mut l = Lines::default();
            l.write(|c| {
                c.byte(b'{');
                let s = c.list_start();
                for i in &items {
                    c.list_plain(i);
                }
                c.list_end(s);
            });
            let want = format!("{{{}", serde_json::to_string(&items).unwrap());
            assert_eq!(l.as_bytes(), want.as_bytes());
        }
        let mut v = b"ab".to_vec();
        append(&mut v, 2, |c| c.put(b"cd"));
        append(&mut v, 1, |c| c.put(&[b'e'; 40]));
        assert_eq!(v, [&b"abcd"[..], &[b'e'; 40]].concat());
    }
}
