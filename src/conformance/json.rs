//! A small borrowing JSON reader for the hot paths of `euref sim` and `euref check`: strings
//! without escapes are borrowed from the line (escaped ones are decoded by serde_json), any
//! value can be skipped and its raw text kept (to be copied into a request or report line
//! verbatim). Errors name the byte offset; callers that need serde's exact messages fall back
//! to serde_json on error.

use std::borrow::Cow;

/// Nesting limit of skipped values (no stack overflow on any input).
const MAX_DEPTH: usize = 128;

/// A cursor over one JSON text.
pub struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    /// The text has no backslash and no byte below 0x20 ([`is_plain`]): a string ends at the
    /// next quote and is never escaped.
    plain: bool,
}

/// An error: what was expected and at which byte.
pub type JsonError = String;

#[cold]
#[inline(never)]
fn err<T>(what: &str, at: usize) -> Result<T, JsonError> {
    Err(format!("{what} at byte {at}"))
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str) -> Lexer<'a> {
        Lexer {
            src,
            pos: 0,
            plain: false,
        }
    }

    /// A lexer that first checks the whole text once for backslashes and control bytes: when
    /// there are none (the common case of the lines euref writes), strings are scanned for
    /// their closing quote alone.
    pub fn checked(src: &'a str) -> Lexer<'a> {
        Lexer::with_plain(src, is_plain(src.as_bytes()))
    }

    /// A lexer over a part of a text already found [`is_plain`] (`plain`; false: scan fully).
    pub(super) fn with_plain(src: &'a str, plain: bool) -> Lexer<'a> {
        Lexer { src, pos: 0, plain }
    }

    /// Whether the text was found plain (no escapes, no control bytes).
    pub fn is_plain(&self) -> bool {
        self.plain
    }

    fn bytes(&self) -> &'a [u8] {
        self.src.as_bytes()
    }

    #[inline]
    fn ws(&mut self) {
        let b = self.bytes();
        while self.pos < b.len() && matches!(b[self.pos], b' ' | b'\t' | b'\n' | b'\r') {
            self.pos += 1;
        }
    }

    /// The next non-blank byte (not consumed).
    #[inline]
    pub fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.bytes().get(self.pos).copied()
    }

    /// Consume byte `c` (after blanks).
    #[inline]
    pub fn eat(&mut self, c: u8) -> Result<(), JsonError> {
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            err(&format!("expected `{}`", c as char), self.pos)
        }
    }

    /// Only blanks remain.
    pub fn end(&mut self) -> Result<(), JsonError> {
        match self.peek() {
            None => Ok(()),
            Some(_) => err("trailing characters", self.pos),
        }
    }

    /// A string token with its quotes, as it is in the text (valid JSON).
    pub fn raw_string(&mut self) -> Result<&'a str, JsonError> {
        self.scan_string().map(|(raw, _)| raw)
    }

    /// A string token with its quotes and whether it has escapes. In a plain text the token
    /// ends at the next quote ([`next_quote`], inlined); otherwise [`Lexer::scan_string_escaped`].
    #[inline(always)]
    fn scan_string(&mut self) -> Result<(&'a str, bool), JsonError> {
        if self.plain {
            let b = self.bytes();
            if b.get(self.pos) == Some(&b'"') {
                if let Some(end) = next_quote(b, self.pos + 1) {
                    let start = self.pos;
                    self.pos = end + 1;
                    return Ok((&self.src[start..=end], false));
                }
            }
        }
        self.scan_string_escaped()
    }

    /// [`Lexer::scan_string`] in any text: the body is searched eight bytes at a time for a
    /// quote, a backslash or a control character.
    #[inline(never)]
    fn scan_string_escaped(&mut self) -> Result<(&'a str, bool), JsonError> {
        let b = self.bytes();
        if b.get(self.pos) != Some(&b'"') && self.peek() != Some(b'"') {
            return err("expected a string", self.pos);
        }
        let start = self.pos;
        let mut i = start + 1;
        let mut escaped = false;
        loop {
            // The next special byte at or after i.
            while let Some(chunk) = b.get(i..i + 8) {
                let mut word = [0u8; 8];
                word.copy_from_slice(chunk);
                let hit = special_bytes(u64::from_le_bytes(word));
                if hit != 0 {
                    i += (hit.trailing_zeros() / 8) as usize;
                    break;
                }
                i += 8;
            }
            match b.get(i) {
                Some(b'"') => break,
                Some(b'\\') => {
                    // The escaped character is taken as is (\uXXXX's digits are plain).
                    escaped = true;
                    if i + 1 < b.len() && b[i + 1] >= 0x20 {
                        i += 2;
                    } else {
                        return err("bad escape in a string", start);
                    }
                }
                Some(0..=0x1f) => return err("control character in a string", start),
                Some(_) => i += 1,
                None => return err("unterminated string", start),
            }
        }
        self.pos = i + 1;
        let raw = &self.src[start..=i];
        if escaped {
            // Every escape checked here (a known escape letter, `\uXXXX` with a valid
            // surrogate pairing), whether or not the caller decodes the string: a token that is
            // skipped or echoed as written is valid JSON too, as serde requires of it.
            decode_escaped(raw, start)?;
        }
        Ok((raw, escaped))
    }

    /// A string's value: borrowed, or decoded when it has escapes.
    #[inline(always)]
    pub fn string(&mut self) -> Result<Cow<'a, str>, JsonError> {
        let at = self.pos;
        let (raw, escaped) = self.scan_string()?;
        if !escaped {
            return Ok(Cow::Borrowed(&raw[1..raw.len() - 1]));
        }
        decode_escaped(raw, at)
    }

    /// A number token as `f64`.
    pub fn number(&mut self) -> Result<f64, JsonError> {
        self.ws();
        let start = self.pos;
        let b = self.bytes();
        while self.pos < b.len()
            && matches!(b[self.pos], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
        {
            self.pos += 1;
        }
        let t = &self.src[start..self.pos];
        // JSON's grammar beyond what `f64::from_str` checks: no `+` or `.` first, no `.` last,
        // no leading zero.
        let digits = t.strip_prefix('-').unwrap_or(t).as_bytes();
        let leading_zero = digits.len() > 1 && digits[0] == b'0' && digits[1].is_ascii_digit();
        let ok = !(t.is_empty()
            || t.starts_with('+')
            || digits.first() == Some(&b'.')
            || t.ends_with('.')
            || leading_zero);
        match t.parse::<f64>() {
            Ok(x) if ok && x.is_finite() => Ok(x),
            _ => err("expected a number", start),
        }
    }

    /// A non-negative integer that fits `u32`.
    pub fn u32(&mut self) -> Result<u32, JsonError> {
        self.ws();
        let at = self.pos;
        // Plain digits (no leading zero, no fraction or exponent) directly.
        let b = self.bytes();
        let mut i = at;
        let mut v: u64 = 0;
        while i < b.len() && b[i].is_ascii_digit() && i - at < 10 {
            v = v * 10 + u64::from(b[i] - b'0');
            i += 1;
        }
        let plain = i > at
            && (i - at == 1 || b[at] != b'0')
            && !matches!(
                b.get(i),
                Some(b'0'..=b'9' | b'.' | b'e' | b'E' | b'-' | b'+')
            );
        if plain {
            if let Ok(v) = u32::try_from(v) {
                self.pos = i;
                return Ok(v);
            }
        }
        // Anything else is refused as serde refuses it for a `u32`: a fraction or exponent
        // (`1.0`, `1e2`, `-0` are floating point), a sign, or a value over u32::MAX.
        err(
            "expected an unsigned integer (at most 4294967295, digits only)",
            at,
        )
    }

    /// Run `f` (which reads one value) and return the raw text it read.
    pub fn spanned<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<T, JsonError>,
    ) -> Result<&'a str, JsonError> {
        self.ws();
        let start = self.pos;
        f(self)?;
        Ok(&self.src[start..self.pos])
    }

    /// Skip one value of any kind; its raw text.
    pub fn value(&mut self) -> Result<&'a str, JsonError> {
        self.ws();
        let start = self.pos;
        self.skip(0)?;
        Ok(&self.src[start..self.pos])
    }

    fn skip(&mut self, depth: usize) -> Result<(), JsonError> {
        if depth > MAX_DEPTH {
            return err("nesting too deep", self.pos);
        }
        match self.peek() {
            Some(b'"') => self.raw_string().map(|_| ()),
            Some(b'{') => self.object(|l, _| l.skip(depth + 1)),
            Some(b'[') => self.array(|l| l.skip(depth + 1)),
            Some(b't') => self.literal("true"),
            Some(b'f') => self.literal("false"),
            Some(b'n') => self.literal("null"),
            Some(_) => self.number().map(|_| ()),
            None => err("expected a value", self.pos),
        }
    }

    fn literal(&mut self, word: &str) -> Result<(), JsonError> {
        if self.src[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(())
        } else {
            err("expected a value", self.pos)
        }
    }

    /// An object: `f` is called with each key and must consume its value.
    pub fn object(
        &mut self,
        mut f: impl FnMut(&mut Self, Cow<'a, str>) -> Result<(), JsonError>,
    ) -> Result<(), JsonError> {
        self.eat(b'{')?;
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(());
        }
        loop {
            let key = self.string()?;
            self.eat(b':')?;
            f(self, key)?;
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return err("expected `,` or `}`", self.pos),
            }
        }
    }

    /// An array: `f` must consume each element.
    pub fn array(
        &mut self,
        mut f: impl FnMut(&mut Self) -> Result<(), JsonError>,
    ) -> Result<(), JsonError> {
        self.eat(b'[')?;
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(());
        }
        loop {
            f(self)?;
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return err("expected `,` or `]`", self.pos),
            }
        }
    }

    /// An object whose values are all strings: `f` sees each key and value.
    pub fn string_map(
        &mut self,
        mut f: impl FnMut(Cow<'a, str>, Cow<'a, str>) -> Result<(), JsonError>,
    ) -> Result<(), JsonError> {
        self.object(|l, k| {
            let v = l.string()?;
            f(k, v)
        })
    }

    /// In a plain text, the value at the cursor when it is one of `known`'s texts (taken
    /// whole: the cursor moves past it) and its number. The candidate is the text up to the
    /// first `last` byte preceded by `before` (when given): `"]` for an array of strings, `}]`
    /// for an array of objects, `}` for an object of scalars. A known text is a whole valid
    /// value, so a known text that starts at the cursor is exactly what reading the value
    /// would consume.
    pub fn known_value(
        &mut self,
        known: &super::known::KnownTexts,
        before: Option<u8>,
        last: u8,
    ) -> Option<(&'a str, u32)> {
        self.ws();
        if !self.plain || known.is_empty() {
            return None;
        }
        let start = self.pos;
        let close = candidate_end(self.bytes(), start, before, last)?;
        let text = &self.src[start..=close];
        let id = known.id(text)?;
        self.pos = close + 1;
        Some((text, id))
    }

    /// [`Lexer::string_array`], taking a known text whole ([`Lexer::known_value`]) and
    /// remembering what it read (in a plain text): its raw text and its number in `known`.
    /// An array learned from a compact text has its strings recorded in `sets`.
    pub fn string_array_known(
        &mut self,
        known: &mut super::known::KnownTexts,
        sets: &mut super::known::RuleSets,
    ) -> Result<(&'a str, Option<u32>), JsonError> {
        if let Some((text, id)) = self.known_value(known, Some(b'"'), b']') {
            return Ok((text, Some(id)));
        }
        self.ws();
        let start = self.pos;
        if self.plain {
            sets.spans.clear();
            let spans = &mut sets.spans;
            if let Some(end) = compact_array_end(self.bytes(), start, |s, e| {
                spans.push((s - start, e - start))
            }) {
                self.pos = end;
                let raw = &self.src[start..end];
                let id = known.learn(raw);
                if let Some(id) = id {
                    sets.record(id, raw);
                }
                return Ok((raw, id));
            }
        }
        let raw = self.string_array()?;
        Ok((raw, self.plain.then(|| known.learn(raw)).flatten()))
    }

    /// Consume `text` when the input continues with it (no blanks skipped).
    #[inline]
    pub fn lit<const N: usize>(&mut self, text: &[u8; N]) -> bool {
        // A comparison of N bytes known at compile time (inline, no `memcmp` call).
        let hit = self
            .bytes()
            .get(self.pos..self.pos + N)
            .and_then(|c| <&[u8; N]>::try_from(c).ok())
            == Some(text);
        if hit {
            self.pos += N;
        }
        hit
    }

    /// Move the cursor `n` bytes on (past a value known to be there).
    pub(super) fn skip_bytes(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.src.len());
    }

    /// The cursor's byte offset.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// Whether the whole text has been read (no blanks skipped).
    pub fn at_end(&self) -> bool {
        self.pos == self.src.len()
    }

    /// In a plain text, an object of strings written without blanks (`{"a":"x","b":"y"}`,
    /// `{}`) at the cursor: `f` sees each key and value (borrowed) and the cursor moves past
    /// it. `false` (the cursor unmoved; `f` may have seen a part): something else is there,
    /// to be read by [`Lexer::string_map`], which reads such an object the same.
    #[inline]
    pub fn compact_map(&mut self, mut f: impl FnMut(&'a str, &'a str)) -> bool {
        if !self.plain {
            return false;
        }
        let b = self.bytes();
        let mut i = self.pos;
        if b.get(i) != Some(&b'{') {
            return false;
        }
        i += 1;
        if b.get(i) == Some(&b'}') {
            self.pos = i + 1;
            return true;
        }
        loop {
            // `"key":"value"`
            if b.get(i) != Some(&b'"') {
                return false;
            }
            let Some(ke) = next_quote(b, i + 1) else {
                return false;
            };
            if b.get(ke + 1) != Some(&b':') || b.get(ke + 2) != Some(&b'"') {
                return false;
            }
            let Some(ve) = next_quote(b, ke + 3) else {
                return false;
            };
            f(&self.src[i + 1..ke], &self.src[ke + 3..ve]);
            match b.get(ve + 1) {
                Some(b',') => i = ve + 2,
                Some(b'}') => {
                    self.pos = ve + 2;
                    return true;
                }
                _ => return false,
            }
        }
    }

    /// An array of strings (checked, not decoded); its raw text.
    pub fn string_array(&mut self) -> Result<&'a str, JsonError> {
        self.ws();
        let start = self.pos;
        if self.plain {
            if let Some(end) = compact_array_end(self.bytes(), start, |_, _| ()) {
                self.pos = end;
                return Ok(&self.src[start..end]);
            }
        }
        self.eat(b'[')?;
        if self.peek() == Some(b']') {
            self.pos += 1;
        } else {
            loop {
                self.scan_string()?;
                // `,"` and `]` without blanks are the common case.
                let b = self.bytes();
                match b.get(self.pos) {
                    Some(b',') if b.get(self.pos + 1) == Some(&b'"') => self.pos += 1,
                    Some(b']') => {
                        self.pos += 1;
                        break;
                    }
                    _ => match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            break;
                        }
                        _ => return err("expected `,` or `]`", self.pos),
                    },
                }
            }
        }
        Ok(&self.src[start..self.pos])
    }
}

/// Where [`Lexer::known_value`]'s candidate at `start` ends: the first `last` byte after
/// `start` preceded by `before` (when given).
pub(super) fn candidate_end(b: &[u8], start: usize, before: Option<u8>, last: u8) -> Option<usize> {
    let mut i = start + 1;
    while let Some(k) = memchr::memchr(last, b.get(i..)?) {
        let close = i + k;
        if before.map_or(true, |c| b[close - 1] == c) {
            return Some(close);
        }
        i = close + 1;
    }
    None
}

/// The quote positions of a text from some byte on, found 16 bytes at a time
/// ([`quote_bits`]).
struct Quotes<'b> {
    b: &'b [u8],
    base: usize,
    /// Bit `k` set when `b[base + k]` is a quote not yet returned (`k < 16`).
    mask: u32,
}

impl<'b> Quotes<'b> {
    fn new(b: &'b [u8], from: usize) -> Quotes<'b> {
        Quotes {
            b,
            base: from,
            mask: quote_bits(b, from),
        }
    }

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.mask == 0 {
            self.base += 16;
            if self.base >= self.b.len() {
                return None;
            }
            self.mask = quote_bits(self.b, self.base);
        }
        let k = self.mask.trailing_zeros() as usize;
        self.mask &= self.mask - 1;
        Some(self.base + k)
    }
}

/// Bit `k` set when `b[at + k]` is a quote, for `k < 16` (bytes past the end: none): on x86-64
/// one SSE2 compare (part of the architecture: no detection), elsewhere byte by byte.
#[inline(always)]
fn quote_bits(b: &[u8], at: usize) -> u32 {
    if let Some(Ok(block)) = b.get(at..at + 16).map(<&[u8; 16]>::try_from) {
        return quote_bits16(block);
    }
    if at >= b.len() {
        return 0;
    }
    // The last 16 bytes, shifted (no copy); a text shorter than that, padded.
    if let Some(s) = b.len().checked_sub(16) {
        if let Ok(block) = <&[u8; 16]>::try_from(&b[s..]) {
            return quote_bits16(block) >> (at - s);
        }
    }
    let mut pad = [0u8; 16];
    pad[..b.len() - at].copy_from_slice(&b[at..]);
    quote_bits16(&pad)
}

/// [`quote_bits`] of 16 bytes.
#[inline(always)]
fn quote_bits16(block: &[u8; 16]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of x86-64 (every x86-64 processor has it); the load is an
    // unaligned one of the 16 bytes of `block`.
    unsafe {
        use std::arch::x86_64::*;
        let x = _mm_loadu_si128(block.as_ptr().cast());
        _mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(b'"' as i8))) as u32
    }
    #[cfg(not(target_arch = "x86_64"))]
    block
        .iter()
        .enumerate()
        .fold(0, |m, (k, &c)| m | u32::from(c == b'"') << k)
}

/// In a plain text ([`is_plain`]), the end (after `]`) of the array of strings at `at` when it
/// is written without blanks (`["a","b"]`, `[]`); `f` sees each string's body (start, end).
/// `None`: something else is there (the caller reads it in full).
#[inline]
fn compact_array_end(b: &[u8], at: usize, mut f: impl FnMut(usize, usize)) -> Option<usize> {
    if b.get(at) != Some(&b'[') {
        return None;
    }
    let mut i = at + 1;
    if b.get(i) == Some(&b']') {
        return Some(i + 1);
    }
    let mut quotes = Quotes::new(b, i);
    loop {
        if b.get(i) != Some(&b'"') || quotes.next()? != i {
            return None;
        }
        let close = quotes.next()?;
        f(i + 1, close);
        match b.get(close + 1) {
            Some(b',') => i = close + 2,
            Some(b']') => return Some(close + 2),
            _ => return None,
        }
    }
}

/// The strings of a JSON array of strings written without blanks and escapes (`["a","b"]`, as
/// in the vector lines), into `out`; false (and `out` unspecified) for any other text.
pub fn compact_strings<'t>(text: &'t str, out: &mut Vec<&'t str>) -> bool {
    out.clear();
    let b = text.as_bytes();
    is_plain(b) && compact_array_end(b, 0, |s, e| out.push(&text[s..e])) == Some(b.len())
}

/// Bytes of `w` that are `"`, `\\` or below 0x20: the lowest flagged byte is exact (the
/// zero-byte test of Hacker's Delight 6-1).
#[inline]
fn special_bytes(w: u64) -> u64 {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let zero = |v: u64| v.wrapping_sub(LO) & !v & HI;
    zero(w ^ (LO * u64::from(b'"')))
        | zero(w ^ (LO * u64::from(b'\\')))
        | (w.wrapping_sub(LO * 0x20) & !w & HI)
}

/// The position of the first quote in `b` at or after `from`, searched eight bytes at a time
/// (the zero-byte test of Hacker's Delight 6-1 on `w ^ "..."`: the lowest flagged byte is
/// exact). (Short strings, as keys and register hex are, take fewer instructions so than
/// 16 bytes at a time with [`quote_bits`].)
#[inline(always)]
fn next_quote(b: &[u8], from: usize) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let mut i = from;
    while let Some(chunk) = b.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word) ^ (LO * u64::from(b'"'));
        let hit = x.wrapping_sub(LO) & !x & HI;
        if hit != 0 {
            return Some(i + (hit.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    b.get(i..)?.iter().position(|&c| c == b'"').map(|k| i + k)
}

/// Whether `b` has a byte that is below 0x20 or a backslash, or (with `QUOTE`) a quote. Written
/// as a branch-free fold over 64-byte blocks, which the compiler turns into vector compares.
#[inline]
fn has_special<const QUOTE: bool>(b: &[u8]) -> bool {
    any_byte(b, |c| (c < 0x20) | (c == b'\\') | (QUOTE & (c == b'"')))
}

/// Whether some byte of `b` is `special` (a blank is not): a branch-free fold over 64-byte
/// blocks, which the compiler turns into vector compares.
#[inline(always)]
fn any_byte(b: &[u8], special: impl Fn(u8) -> bool) -> bool {
    let any = |block: &[u8; 64]| block.iter().fold(false, |a, &c| a | special(c));
    let mut blocks = b.chunks_exact(64);
    for block in &mut blocks {
        if any(block.try_into().unwrap_or(&[b' '; 64])) {
            return true;
        }
    }
    // The rest, padded with blanks (not special), in one more block.
    let rest = blocks.remainder();
    let mut last = [b' '; 64];
    last[..rest.len()].copy_from_slice(rest);
    any(&last)
}

/// [`has_special`] with quotes, for short texts: eight bytes a step ([`special_bytes`]; a
/// flagged byte means there is a special one), the rest padded with blanks.
#[inline]
fn has_special_short(b: &[u8]) -> bool {
    let mut words = b.chunks_exact(8);
    let mut hit = 0;
    for w in &mut words {
        let mut word = [0u8; 8];
        word.copy_from_slice(w);
        hit |= special_bytes(u64::from_le_bytes(word));
    }
    let rest = words.remainder();
    let mut last = [b' '; 8];
    last[..rest.len()].copy_from_slice(rest);
    hit |= special_bytes(u64::from_le_bytes(last));
    hit != 0
}

/// Whether a text has no backslash and no byte below 0x20: then every string in it (when the
/// text is valid JSON) is unescaped and ends at its next quote.
pub fn is_plain(b: &[u8]) -> bool {
    !has_special::<false>(b)
}

/// Whether every byte of `b` is ASCII and `b` [`is_plain`]: one branch-free pass (a signed
/// compare catches both the bytes below 0x20 and those from 0x80 on), which the compiler turns
/// into vector compares.
pub fn is_plain_ascii(b: &[u8]) -> bool {
    !any_byte(b, |c| ((c as i8) < 0x20) | (c == b'\\'))
}

/// `bytes` as a `String` when they are ASCII and their first `body` bytes plain
/// ([`is_plain_ascii`]; a line and its line end): without a second UTF-8 validation pass.
/// `Err` gives the bytes back unchanged.
pub fn plain_ascii_string(bytes: Vec<u8>, body: usize) -> Result<String, Vec<u8>> {
    let (head, end) = bytes.split_at(body.min(bytes.len()));
    if !(is_plain_ascii(head) && end.is_ascii()) {
        return Err(bytes);
    }
    // SAFETY: every byte is below 0x80 (checked just above): ASCII is valid UTF-8. This saves
    // `String::from_utf8`'s validation pass over each 1.5 kB vector line of `euref check`.
    Ok(unsafe { String::from_utf8_unchecked(bytes) })
}

/// `b` as text when it is ASCII and plain ([`is_plain_ascii`]).
pub fn plain_ascii_str(b: &[u8]) -> Option<&str> {
    if !is_plain_ascii(b) {
        return None;
    }
    // SAFETY: every byte is below 0x80 (checked just above): ASCII is valid UTF-8 (one pass
    // over each request line of `euref sim` instead of two).
    Some(unsafe { std::str::from_utf8_unchecked(b) })
}

/// The value of a string token with escapes (at byte `at`).
#[cold]
#[inline(never)]
fn decode_escaped(raw: &str, at: usize) -> Result<Cow<'_, str>, JsonError> {
    unquote(raw).map_err(|e| format!("{e} at byte {at}"))
}

/// The value of a raw string token (with its quotes).
pub fn unquote(raw: &str) -> Result<Cow<'_, str>, JsonError> {
    let inner = raw
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .ok_or_else(|| "expected a string".to_string())?;
    if !inner.as_bytes().contains(&b'\\') {
        return Ok(Cow::Borrowed(inner));
    }
    serde_json::from_str::<String>(raw)
        .map(Cow::Owned)
        .map_err(|e| e.to_string())
}

/// Append `s` as a JSON string token.
pub fn push_string(out: &mut Vec<u8>, s: &str) {
    // (serde_json writes 0x7f as it is, too.) Names and ids are short: eight bytes a step.
    let b = s.as_bytes();
    let special = if b.len() <= 32 {
        has_special_short(b)
    } else {
        has_special::<true>(b)
    };
    if !special {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    } else {
        // serde_json writes a valid token for any string.
        let _ = serde_json::to_writer(&mut *out, s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_borrowed_or_decoded_and_values_skipped() {
        let t = r#" {"a" : "x\"y", "b":[1,-2.5e3,{"c":null}], "d":"plain", "e":true} "#;
        let mut l = Lexer::new(t);
        let mut seen = vec![];
        l.object(|l, k| {
            let key = k.into_owned();
            let v = if key == "b" || key == "e" {
                l.value()?.to_string()
            } else {
                let s = l.string()?;
                assert_eq!(matches!(s, Cow::Borrowed(_)), key == "d");
                s.into_owned()
            };
            seen.push((key, v));
            Ok(())
        })
        .unwrap();
        l.end().unwrap();
        assert_eq!(
            seen,
            [
                ("a".to_string(), "x\"y".to_string()),
                ("b".into(), r#"[1,-2.5e3,{"c":null}]"#.into()),
                ("d".into(), "plain".into()),
                ("e".into(), "true".into())
            ]
        );
    }

    #[test]
    fn malformed_texts_are_errors_with_their_offset() {
        for (t, at) in [
            (r#"{"a":"x}"#, 5),
            (r#"{"a" "x"}"#, 5),
            (r#"{"a":tru}"#, 5),
            (r#"{"a":01}"#, 5),
            ("{\"a\":\"\u{1}\"}", 5),
            (r#"{"a":"x",}"#, 9),
        ] {
            let mut l = Lexer::new(t);
            let e = l.object(|l, _| l.value().map(|_| ())).unwrap_err();
            assert!(e.ends_with(&format!("at byte {at}")), "{t}: {e}");
        }
        let deep = "[".repeat(1000);
        assert!(Lexer::new(&deep).value().unwrap_err().contains("too deep"));
    }

    #[test]
    fn push_string_escapes_what_it_must() {
        let mut out = vec![];
        push_string(&mut out, "a\"b\n");
        push_string(&mut out, "r12");
        assert_eq!(String::from_utf8(out).unwrap(), r#""a\"b\n""r12""#);
    }

    /// A small deterministic generator for the fast-path tests.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// `len` characters: one in `one_in` a backslash, a control character, DEL, `é` or a
    /// quote (in equal parts), the others from `common`.
    fn random_string(
        r: &mut Rng,
        len: usize,
        one_in: usize,
        common: std::ops::RangeInclusive<u8>,
    ) -> String {
        let span = usize::from(common.end() - common.start()) + 1;
        (0..len)
            .map(|_| match r.below(one_in) {
                0 => '\\',
                1 => char::from(r.below(0x20) as u8),
                2 => '\u{7f}',
                3 => 'é',
                4 => '"',
                _ => char::from(common.start() + r.below(span) as u8),
            })
            .collect()
    }

    /// A random text made of JSON fragments: mostly valid objects of strings and string
    /// arrays (compact or with blanks), with escapes, control bytes, stray quotes and
    /// brackets mixed in.
    fn random_text(r: &mut Rng) -> String {
        const PIECES: [&str; 24] = [
            "\"align.dst-natural\"",
            "\"cmp.g[+inf,NaN]\"",
            "\"r12\"",
            "\"0000803f0000803f0000803f0000803f\"",
            "\"\"",
            "\"é\"",
            "\"a\\\"b\"",
            "\"\\u0041\"",
            "\"tab\tin\"",
            "\"",
            ",",
            ", ",
            ":",
            "[",
            "]",
            "{",
            "}",
            " ",
            "\t",
            "\n",
            "1",
            "-2.5e3",
            "null",
            "\u{1}",
        ];
        let mut t = String::from("{");
        for k in 0..r.below(6) {
            if k > 0 {
                t.push(',');
            }
            t.push_str(&format!("\"k{}\":", r.below(3)));
            match r.below(4) {
                0 => t.push_str(PIECES[r.below(9)]),
                1 | 2 => {
                    let blank = r.below(4) == 0;
                    t.push('[');
                    for i in 0..r.below(5) {
                        if i > 0 {
                            t.push_str(if blank { " , " } else { "," });
                        }
                        t.push_str(PIECES[r.below(9)]);
                    }
                    t.push(']');
                }
                _ => {
                    for _ in 0..r.below(4) {
                        t.push_str(PIECES[r.below(PIECES.len())]);
                    }
                }
            }
        }
        t.push('}');
        // A random insertion now and then.
        if r.below(3) == 0 {
            let at = r.below(t.len() + 1);
            if t.is_char_boundary(at) {
                t.insert_str(at, PIECES[r.below(PIECES.len())]);
            }
        }
        t
    }

    /// Read an object: string values decoded, string arrays as their raw text, anything else
    /// skipped.
    fn walk(mut l: Lexer<'_>) -> Result<Vec<String>, JsonError> {
        let mut seen = Vec::new();
        l.object(|l, k| {
            seen.push(k.into_owned());
            let v = match l.peek() {
                Some(b'"') => l.string()?.into_owned(),
                Some(b'[') => l.string_array()?.to_string(),
                _ => l.value()?.to_string(),
            };
            seen.push(v);
            Ok(())
        })?;
        l.end()?;
        Ok(seen)
    }

    #[test]
    fn the_checked_lexer_reads_as_the_general_one() {
        let mut r = Rng(7);
        let (mut plain, mut ok) = (0, 0);
        for _ in 0..20_000 {
            let t = random_text(&mut r);
            let fast = Lexer::checked(&t);
            plain += usize::from(fast.is_plain());
            let got = walk(fast);
            ok += usize::from(got.is_ok());
            assert_eq!(got, walk(Lexer::new(&t)), "{t:?}");
        }
        // Both paths are exercised, on valid and invalid texts.
        assert!(plain > 5_000 && plain < 19_000, "{plain}");
        assert!(ok > 2_000 && ok < 19_000, "{ok}");
    }

    #[test]
    fn compact_strings_are_the_array_elements() {
        let mut r = Rng(11);
        let mut compact = 0;
        for _ in 0..20_000 {
            let t = random_text(&mut r);
            // The array texts inside, and the text itself.
            let mut candidates = vec![t.as_str()];
            if let Some(a) = t.find('[') {
                candidates.push(&t[a..]);
                if let Some(b) = t[a..].find(']') {
                    candidates.push(&t[a..=a + b]);
                }
            }
            for c in candidates {
                let mut got = Vec::new();
                let fast = compact_strings(c, &mut got);
                let mut l = Lexer::new(c);
                let mut want = Vec::new();
                let general = l
                    .array(|l| {
                        want.push(l.string()?);
                        Ok(())
                    })
                    .and_then(|()| l.end());
                if fast {
                    compact += 1;
                    assert!(general.is_ok(), "{c:?}");
                    assert_eq!(got, want, "{c:?}");
                } else if general.is_ok() {
                    // Refused only for blanks or escapes.
                    assert!(c.contains([' ', '\\', '\t', '\n']), "{c:?}");
                }
            }
        }
        assert!(compact > 1_000, "{compact}");
    }

    #[test]
    fn plain_ascii_is_the_byte_check_and_keeps_the_text() {
        let mut r = Rng(5);
        let mut taken = 0;
        for k in 0..20_000 {
            let len = if k % 2 == 0 {
                r.below(70)
            } else {
                r.below(300)
            };
            let s = random_string(&mut r, len, 60, b' '..=b'~');
            let b = s.as_bytes();
            let want = b.iter().all(|&c| (0x20..0x80).contains(&c) && c != b'\\');
            assert_eq!(is_plain_ascii(b), want, "{s:?}");
            assert_eq!(plain_ascii_str(b), want.then_some(s.as_str()));
            let body = r.below(b.len() + 1);
            let got = plain_ascii_string(b.to_vec(), body);
            let body_ok = b[..body]
                .iter()
                .all(|&c| (0x20..0x80).contains(&c) && c != b'\\');
            match got {
                Ok(t) => {
                    assert!(body_ok && s.is_ascii(), "{s:?}");
                    assert_eq!(t, s);
                    taken += 1;
                }
                Err(v) => {
                    assert!(!(body_ok && s.is_ascii()), "{s:?}");
                    assert_eq!(v, b);
                }
            }
        }
        assert!(taken > 3_000 && taken < 17_000, "{taken}");
    }

    #[test]
    fn compact_maps_read_as_string_maps() {
        let mut r = Rng(9);
        let mut compact = 0;
        for _ in 0..20_000 {
            let t = random_text(&mut r);
            for plain in [true, false] {
                let mut l = Lexer::with_plain(&t, plain && is_plain(t.as_bytes()));
                let mut got = Vec::new();
                if l.compact_map(|k, v| got.push((k.to_string(), v.to_string()))) {
                    compact += 1;
                    let mut g = Lexer::new(&t);
                    let mut want = Vec::new();
                    g.string_map(|k, v| {
                        want.push((k.into_owned(), v.into_owned()));
                        Ok(())
                    })
                    .unwrap();
                    assert_eq!((got, l.offset()), (want, g.offset()), "{t:?}");
                } else {
                    assert_eq!(l.offset(), 0);
                }
            }
        }
        assert!(compact > 1_000, "{compact}");
    }

    #[test]
    fn plain_and_push_string_agree_with_byte_checks_and_serde() {
        let mut r = Rng(3);
        for k in 0..20_000 {
            // Half of them short (the eight-bytes-a-step check of `push_string`).
            let len = if k % 2 == 0 {
                r.below(40)
            } else {
                r.below(200)
            };
            let s = random_string(&mut r, len, 40, b'a'..=b'z');
            let b = s.as_bytes();
            assert_eq!(
                is_plain(b),
                !b.iter().any(|&c| c < 0x20 || c == b'\\'),
                "{s:?}"
            );
            let mut out = Vec::new();
            push_string(&mut out, &s);
            assert_eq!(out, serde_json::to_vec(&s).unwrap(), "{s:?}");
        }
    }
}
