//! A byte cursor over assembly text: blanks, comments, identifiers and numbers. Positions are
//! byte offsets; the line and column of an error are computed from the offset only when the
//! error is reported ([`PErr::locate`]). Works on bytes, so non-UTF-8 input is an ordinary
//! error, never a panic.

use super::error::{show, AsmError};
use super::lines::LineIndex;

pub(crate) struct Cursor<'a> {
    src: &'a [u8],
    pos: usize,
    /// The current line (1-based), counted as newlines are consumed (for [`super::Program::lines`]).
    line: u32,
    /// Hexadecimal digits are lowercase only (Mesa's lexer: `0x[0-9a-f]+`, so that
    /// `0x3f000000F` is the number 0x3f000000 with the type suffix `F`).
    pub lower_hex_only: bool,
    /// Number of digits (leading zeros included) of the last hexadecimal number read.
    pub last_hex_digits: u32,
}

/// A remembered position (for errors reported after the fact): a byte offset into the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pos(pub usize);

impl Pos {
    #[cold]
    pub fn err(self, msg: impl Into<String>) -> PErr {
        PErr(Box::new((self.0, msg.into())))
    }
}

/// The error of a `/*` comment without its `*/`: nothing after it can parse.
pub(crate) const UNTERMINATED_COMMENT: &str = "unterminated `/*` comment";

/// A parse error at a byte offset (boxed: results stay small on the paths that succeed).
#[derive(Debug)]
pub(crate) struct PErr(Box<(usize, String)>);

impl PErr {
    /// The byte offset of the error.
    pub fn offset(&self) -> usize {
        self.0 .0
    }

    /// Whether it is an unterminated block comment ([`UNTERMINATED_COMMENT`]).
    pub fn is_unterminated_comment(&self) -> bool {
        self.0 .1 == UNTERMINATED_COMMENT
    }

    /// The error located by a line index of its text (for many errors of one text: each is
    /// located without counting lines from the start again).
    pub fn locate_in(self, lines: &LineIndex<'_>) -> AsmError {
        let (off, msg) = *self.0;
        lines.error(off, msg)
    }

    /// The error with its 1-based line and column (bytes) in `src`.
    pub fn locate(self, src: &[u8]) -> AsmError {
        let (off, msg) = *self.0;
        let before = src.get(..off).unwrap_or(src);
        let line = memchr::memchr_iter(b'\n', before).count() + 1;
        let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
        AsmError {
            line: line.min(u32::MAX as usize) as u32,
            col: (off - line_start + 1).min(u32::MAX as usize) as u32,
            msg,
        }
    }
}

pub(crate) type PResult<T> = Result<T, PErr>;

impl<'a> Cursor<'a> {
    pub fn new(src: &'a [u8]) -> Cursor<'a> {
        Cursor {
            src,
            pos: 0,
            line: 1,
            lower_hex_only: false,
            last_hex_digits: 0,
        }
    }

    #[inline]
    pub fn pos(&self) -> Pos {
        Pos(self.pos)
    }

    /// The current line (1-based).
    pub fn line(&self) -> u32 {
        self.line
    }

    pub fn offset(&self) -> usize {
        self.pos
    }

    pub fn slice(&self, from: usize, to: usize) -> &'a [u8] {
        self.src.get(from..to).unwrap_or(&[])
    }

    #[cold]
    pub fn err(&self, msg: impl Into<String>) -> PErr {
        self.pos().err(msg)
    }

    /// "expected X, found Y" at the current position.
    #[cold]
    pub fn expected(&self, what: &str) -> PErr {
        self.err(format!("expected {what}, found {}", self.found()))
    }

    /// A description of what is at the cursor.
    pub fn found(&self) -> String {
        match self.peek() {
            None => "end of input".into(),
            Some(b'\n') | Some(b'\r') => "end of line".into(),
            Some(_) => {
                let rest = &self.src[self.pos..];
                let end = rest
                    .iter()
                    .position(|&b| b == b' ' || b == b'\t' || b == b'\n' || b == b'\r')
                    .unwrap_or(rest.len());
                format!("`{}`", show(&rest[..end.max(1)]))
            }
        }
    }

    pub fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    pub fn peek_at(&self, n: usize) -> Option<u8> {
        self.src.get(self.pos + n).copied()
    }

    pub fn is_eof(&self) -> bool {
        self.pos >= self.src.len()
    }

    /// Advance one byte (not over a newline: use [`Cursor::newline`]).
    pub fn bump(&mut self) {
        if self.pos < self.src.len() {
            self.pos += 1;
        }
    }

    pub fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.bump();
            true
        } else {
            false
        }
    }

    pub fn expect(&mut self, b: u8, what: &str) -> PResult<()> {
        if self.eat(b) {
            Ok(())
        } else {
            Err(self.expected(what))
        }
    }

    /// Whether the input at the cursor starts with `s` (ASCII case-insensitive).
    #[inline]
    pub fn starts_with_ci(&self, s: &[u8]) -> bool {
        // Most calls fail on the first byte.
        if let (Some(a), Some(b)) = (self.peek(), s.first()) {
            if !a.eq_ignore_ascii_case(b) {
                return false;
            }
        }
        self.src
            .get(self.pos..self.pos + s.len())
            .is_some_and(|t| t.eq_ignore_ascii_case(s))
    }

    /// Skip spaces, tabs, carriage returns and comments (`// ...` to the end of the line,
    /// `/* ... */`, `# ...` when `hash_comments`), staying on the current line except inside
    /// a block comment.
    #[inline]
    pub fn skip_blank(&mut self) -> PResult<()> {
        // Most calls find a token at once, or after one space (IGA's separator): no call then.
        let token = |b: u8| CLASS[b as usize] & BLANK == 0 && b != b'/';
        match self.peek() {
            Some(b) if token(b) => Ok(()),
            Some(b' ') if self.peek_at(1).is_some_and(token) => {
                self.pos += 1;
                Ok(())
            }
            _ => self.skip_blank_slow(),
        }
    }

    /// When one space and then a token other than `not` follow, skip the space: whether it
    /// did (what [`Cursor::skip_blank`] does there).
    #[inline]
    pub fn space_then_token(&mut self, not: u8) -> bool {
        match self.rest() {
            [b' ', b, ..] if CLASS[*b as usize] & BLANK == 0 && *b != b'/' && *b != not => {
                self.pos += 1;
                true
            }
            _ => false,
        }
    }

    /// When spaces and then a token other than `not` follow, skip the spaces: whether it
    /// did (what [`Cursor::skip_blank`] does there).
    #[inline]
    pub fn spaces_then_token(&mut self, not: u8) -> bool {
        let n = self.spaces_at(0);
        match self.rest().get(n) {
            Some(&b) if n > 0 && CLASS[b as usize] & BLANK == 0 && b != b'/' && b != not => {
                self.pos += n;
                true
            }
            _ => false,
        }
    }

    #[inline(never)]
    fn skip_blank_slow(&mut self) -> PResult<()> {
        const SPACES: u64 = u64::from_ne_bytes([b' '; 8]);
        loop {
            // Runs of spaces (Mesa's column padding) eight at a time: the first byte that
            // is not a space is the lowest nonzero byte of the chunk XOR spaces.
            while let Some(chunk) = self.rest().first_chunk::<8>() {
                let x = u64::from_le_bytes(*chunk) ^ SPACES;
                if x != 0 {
                    self.pos += (x.trailing_zeros() / 8) as usize;
                    break;
                }
                self.pos += 8;
            }
            match self.peek() {
                Some(b) if CLASS[b as usize] & BLANK != 0 => self.pos += 1,
                Some(b'/') if matches!(self.peek_at(1), Some(b'/') | Some(b'*')) => {
                    return self.comment_then_blank()
                }
                _ => return Ok(()),
            }
        }
    }

    /// A `//` or `/* */` comment (the cursor at its `/`), then blanks (out of
    /// `skip_blank_slow`, which then calls nothing on its common paths).
    #[cold]
    #[inline(never)]
    fn comment_then_blank(&mut self) -> PResult<()> {
        if self.peek_at(1) == Some(b'/') {
            self.skip_to_eol();
        } else {
            self.block_comment()?;
        }
        self.skip_blank_slow()
    }

    /// A `/* ... */` comment (the cursor at the `/`).
    #[cold]
    fn block_comment(&mut self) -> PResult<()> {
        let start = self.pos();
        self.pos += 2;
        loop {
            match self.peek() {
                None => return Err(start.err(UNTERMINATED_COMMENT)),
                Some(b'*') if self.peek_at(1) == Some(b'/') => {
                    self.pos += 2;
                    return Ok(());
                }
                Some(b'\n') => self.newline(),
                Some(_) => self.bump(),
            }
        }
    }

    /// Advance to the next `a`, `b` or `c` (or the end of the input).
    #[inline]
    pub fn skip_to_any(&mut self, a: u8, b: u8, c: u8) {
        let rest = self.rest();
        // The next 32 bytes sixteen at a time (Mesa's message descriptions end within them),
        // then a vectorized search.
        let mut i = 0;
        while let Some(chunk) = rest.get(i..).and_then(<[u8]>::first_chunk::<16>) {
            let x = u128::from_le_bytes(*chunk);
            let hit =
                zero_bytes(x ^ splat(a)) | zero_bytes(x ^ splat(b)) | zero_bytes(x ^ splat(c));
            if hit != 0 {
                self.pos += i + (hit.trailing_zeros() / 8) as usize;
                return;
            }
            i += 16;
            if i == 32 {
                break;
            }
        }
        let rest = &rest[i..];
        self.pos += i + memchr::memchr3(a, b, c, rest).unwrap_or(rest.len());
    }

    /// The number of spaces (only ` `) at `at` bytes past the cursor.
    #[inline]
    pub fn spaces_at(&self, at: usize) -> usize {
        let rest = self.rest().get(at..).unwrap_or(&[]);
        let mut n = 0;
        while let Some(chunk) = rest.get(n..).and_then(<[u8]>::first_chunk::<16>) {
            let x = u128::from_le_bytes(*chunk) ^ splat(b' ');
            if x != 0 {
                return n + (x.trailing_zeros() / 8) as usize;
            }
            n += 16;
        }
        n + rest[n..].iter().take_while(|&&b| b == b' ').count()
    }

    /// The length of the run of word bytes `[A-Za-z0-9_]` at `at` bytes past the cursor.
    #[inline]
    pub fn word_len_at(&self, at: usize) -> usize {
        let rest = self.rest().get(at..).unwrap_or(&[]);
        if let Some(w) = rest.first_chunk::<16>() {
            let n = word_bytes16(w).0;
            if n < 16 {
                return n;
            }
        }
        rest.iter()
            .position(|&b| CLASS[b as usize] & WORD == 0)
            .unwrap_or(rest.len())
    }

    /// Advance `n` bytes on the current line (the caller has looked at them: no newline).
    #[inline]
    pub fn advance(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.src.len());
    }

    /// The input from the cursor on.
    #[inline]
    pub fn rest(&self) -> &'a [u8] {
        self.src.get(self.pos..).unwrap_or(&[])
    }

    /// Advance over the bytes for which `keep` holds (never over a newline unless `keep`
    /// accepts it: callers pass predicates that reject `\n`).
    pub fn skip_while(&mut self, keep: impl Fn(u8) -> bool) {
        let rest = self.rest();
        self.pos += rest.iter().position(|&b| !keep(b)).unwrap_or(rest.len());
    }

    /// Advance over word bytes `[A-Za-z0-9_]`; returns them.
    pub fn word(&mut self) -> &'a [u8] {
        let start = self.pos;
        self.skip_while(|b| CLASS[b as usize] & WORD != 0);
        &self.src[start..self.pos]
    }

    /// A word (as [`Cursor::word`]) and, when it has at most 16 bytes, its lowercase bytes
    /// packed into an integer as `names::pack` packs them, in the same pass.
    #[inline]
    pub fn word_key(&mut self) -> (&'a [u8], Option<u128>) {
        let (w, key) = self.peek_word_key();
        self.pos += w.len();
        (w, key)
    }

    /// [`Cursor::word_key`] without moving.
    #[inline]
    fn peek_word_key(&self) -> (&'a [u8], Option<u128>) {
        let rest = self.rest();
        if let Some(w) = rest.first_chunk::<16>() {
            let (n, lower) = word_bytes16(w);
            if n < 16 {
                // The bytes after the word are cleared (`names::pack`'s zeros).
                let keep = u128::MAX.checked_shl(128 - 8 * n as u32).unwrap_or(0);
                return (&rest[..n], Some(u128::from_be_bytes(lower) & keep));
            }
        }
        self.peek_word_key_bytewise()
    }

    /// [`Cursor::peek_word_key`] one byte at a time (words of 16 bytes or more, and the end
    /// of the input).
    #[inline(never)]
    fn peek_word_key_bytewise(&self) -> (&'a [u8], Option<u128>) {
        let rest = self.rest();
        let mut k = [0u8; 16];
        let mut n = 0;
        while let Some(&b) = rest.get(n) {
            if CLASS[b as usize] & WORD == 0 {
                break;
            }
            if let Some(o) = k.get_mut(n) {
                *o = b.to_ascii_lowercase();
            }
            n += 1;
        }
        let key = (n <= 16).then(|| u128::from_be_bytes(k));
        (&rest[..n], key)
    }

    /// An identifier (as [`Cursor::ident`]) and, when it has at most 16 bytes, its lowercase
    /// bytes packed as `names::pack` packs them, in the same pass.
    #[inline]
    pub fn ident_key(&mut self) -> (&'a [u8], Option<u128>) {
        let (name, key) = self.peek_ident_key();
        self.pos += name.len();
        (name, key)
    }

    /// [`Cursor::ident_key`] without moving.
    #[inline]
    pub fn peek_ident_key(&self) -> (&'a [u8], Option<u128>) {
        match self.peek() {
            Some(b) if CLASS[b as usize] & ALPHA != 0 || b == b'_' => self.peek_word_key(),
            _ => (&[], None),
        }
    }

    /// Skip to (not over) the end of the line.
    pub fn skip_to_eol(&mut self) {
        let rest = self.rest();
        self.pos += memchr::memchr(b'\n', rest).unwrap_or(rest.len());
    }

    /// Move to the start of the line after the one holding byte `at` (or after the cursor's
    /// line, when the cursor is further on; to the end of the input after the last line): where
    /// parsing resumes after an error. Never moves backwards.
    pub fn skip_past_line_of(&mut self, at: usize) {
        let from = at.max(self.pos).min(self.src.len());
        // Already at the start of a later line than the error's: resume there.
        if from > at && from == self.pos && from > 0 && self.src[from - 1] == b'\n' {
            return;
        }
        let end = memchr::memchr(b'\n', &self.src[from..]).map_or(self.src.len(), |i| from + i);
        let skipped = &self.src[self.pos..end];
        self.line = self
            .line
            .saturating_add(memchr::memchr_iter(b'\n', skipped).count() as u32);
        self.pos = end;
        self.newline();
    }

    /// Consume a `\n` and start a new line.
    pub fn newline(&mut self) {
        if self.peek() == Some(b'\n') {
            self.pos += 1;
            self.line = self.line.saturating_add(1);
        }
    }

    /// Skip blanks, comments and newlines.
    #[inline]
    pub fn skip_space(&mut self) -> PResult<()> {
        // The common case: a line end, then a token.
        if let [b'\n', b, ..] = self.rest() {
            if CLASS[*b as usize] & BLANK == 0 && !matches!(*b, b'/' | b'\n') {
                self.newline();
                return Ok(());
            }
        }
        self.skip_space_general()
    }

    /// [`Cursor::skip_space`] without its quick path.
    fn skip_space_general(&mut self) -> PResult<()> {
        loop {
            self.skip_blank()?;
            if self.peek() == Some(b'\n') {
                self.newline();
            } else {
                return Ok(());
            }
        }
    }

    /// At the end of a line (or of the input)?
    pub fn at_eol(&self) -> bool {
        matches!(self.peek(), None | Some(b'\n'))
    }

    /// An identifier `[A-Za-z_][A-Za-z0-9_]*` (empty if none).
    pub fn ident(&mut self) -> &'a [u8] {
        let n = self.peek_ident().len();
        let start = self.pos;
        self.pos += n;
        &self.src[start..self.pos]
    }

    /// Peek an identifier without consuming it.
    pub fn peek_ident(&self) -> &'a [u8] {
        let rest = self.rest();
        let n = match rest.first() {
            Some(&b) if CLASS[b as usize] & ALPHA != 0 || b == b'_' => rest
                .iter()
                .position(|&b| CLASS[b as usize] & WORD == 0)
                .unwrap_or(rest.len()),
            _ => 0,
        };
        &rest[..n]
    }

    /// Letters only `[A-Za-z]*`.
    pub fn letters(&mut self) -> &'a [u8] {
        let start = self.pos;
        self.skip_while(|b| CLASS[b as usize] & ALPHA != 0);
        &self.src[start..self.pos]
    }

    /// An unsigned decimal or `0x` hexadecimal integer; `None` (cursor unmoved) if no digit.
    #[inline]
    pub fn uint(&mut self) -> PResult<Option<u64>> {
        let rest = self.rest();
        match rest.first() {
            Some(b) if b.is_ascii_digit() => {}
            _ => return Ok(None),
        }
        if rest[0] == b'0' && matches!(rest.get(1), Some(b'x') | Some(b'X')) {
            return self.hex().map(Some);
        }
        // Up to 19 decimal digits cannot overflow 64 bits.
        let mut v: u64 = 0;
        let mut n = 0;
        while let Some(&d) = rest.get(n).filter(|d| d.is_ascii_digit()) {
            if n == 19 {
                return self.long_decimal().map(Some);
            }
            v = v * 10 + (d - b'0') as u64;
            n += 1;
        }
        self.pos += n;
        Ok(Some(v))
    }

    /// A decimal number of 20 digits or more (checked for overflow).
    #[cold]
    fn long_decimal(&mut self) -> PResult<u64> {
        let start = self.pos();
        let rest = self.rest();
        let n = rest
            .iter()
            .position(|b| !b.is_ascii_digit())
            .unwrap_or(rest.len());
        let mut v: u64 = 0;
        for &d in &rest[..n] {
            v = v
                .checked_mul(10)
                .and_then(|v| v.checked_add((d - b'0') as u64))
                .ok_or_else(|| start.err("number does not fit in 64 bits"))?;
        }
        self.pos += n;
        Ok(v)
    }

    /// A `0x` hexadecimal number (the cursor at the `0`).
    #[inline(never)]
    fn hex(&mut self) -> PResult<u64> {
        let start = self.pos();
        self.pos += 2;
        let digit = if self.lower_hex_only {
            &HEX_LOWER
        } else {
            &HEX_ANY
        };
        let rest = self.rest();
        let mut v: u64 = 0;
        let mut n = 0;
        while let Some(&b) = rest.get(n) {
            let d = digit[b as usize];
            if d > 15 {
                break;
            }
            if v >> 60 != 0 {
                self.pos += n;
                return Err(start.err("number does not fit in 64 bits"));
            }
            v = v << 4 | u64::from(d);
            n += 1;
        }
        self.pos += n;
        if n == 0 {
            return Err(self.expected("hexadecimal digits after `0x`"));
        }
        self.last_hex_digits = n as u32;
        Ok(v)
    }

    /// The value of each byte as a hexadecimal digit (above 15: not a digit), lowercase
    /// only when [`Cursor::lower_hex_only`].
    #[inline]
    pub fn hex_table(&self) -> &'static [u8; 256] {
        if self.lower_hex_only {
            &HEX_LOWER
        } else {
            &HEX_ANY
        }
    }

    /// The hexadecimal digits at `at` bytes past the cursor (lowercase only when
    /// [`Cursor::lower_hex_only`], as [`Cursor::uint`] reads them): their value and count, or
    /// None when there are none or more than `max` (at most 16).
    #[inline]
    pub fn hex_digits(&self, at: usize, max: usize) -> Option<(u64, usize)> {
        let digit = self.hex_table();
        let s = self.rest().get(at..)?;
        let mut v = 0u64;
        let mut n = 0;
        while let Some(&b) = s.get(n) {
            let d = digit[b as usize];
            if d > 15 {
                break;
            }
            if n == max.min(16) {
                return None;
            }
            v = v << 4 | u64::from(d);
            n += 1;
        }
        (n > 0).then_some((v, n))
    }

    /// The decimal digits at `at` bytes past the cursor: their value and end (relative to the
    /// cursor), or None when there are none or more than `max` (at most 19).
    #[inline]
    pub fn dec_digits(&self, at: usize, max: usize) -> Option<(u64, usize)> {
        let s = self.rest();
        let mut v = 0u64;
        let mut i = at;
        while let Some(d) = s.get(i).filter(|d| d.is_ascii_digit()) {
            if i - at == max.min(19) {
                return None;
            }
            v = v * 10 + u64::from(d - b'0');
            i += 1;
        }
        (i > at).then_some((v, i))
    }

    /// A small unsigned decimal number (register numbers, strides): at most `max`.
    pub fn small(&mut self, what: &str, max: u64) -> PResult<u32> {
        let start = self.pos();
        match self.uint()? {
            Some(v) if v <= max => Ok(v as u32),
            Some(v) => Err(start.err(format!("{what} {v} is out of range (0-{max})"))),
            None => Err(self.expected(what)),
        }
    }
}

/// `b` in every byte (of 16; the 8-byte words take the low half).
#[inline(always)]
const fn splat(b: u8) -> u128 {
    u128::from_ne_bytes([b; 16])
}

/// [`splat`] in 8 bytes.
#[inline(always)]
const fn splat8(b: u8) -> u64 {
    splat(b) as u64
}

/// The high bit of each zero byte of `x` set, and possibly of bytes above the lowest zero
/// byte (a borrow): exact up to and including the lowest zero byte, which is what the
/// callers look for.
#[inline(always)]
const fn zero_bytes(x: u128) -> u128 {
    x.wrapping_sub(splat(1)) & !x & splat(0x80)
}

/// Which of 8 bytes (little-endian) are word bytes `[A-Za-z0-9_]` (the high bit of each
/// such byte), and the bytes with ASCII letters lowercased. Byte-wise sums that never carry
/// out of their byte: exact for every byte.
#[inline(always)]
const fn word_bytes8(x: u64) -> (u64, u64) {
    const H: u64 = splat8(0x80);
    let ascii = !x & H;
    let x7 = x & splat8(0x7F);
    // The high bit of each byte of `v` (at most 0x7F) within `lo..=hi`.
    const fn within(v: u64, lo: u8, hi: u8) -> u64 {
        v.wrapping_add(splat8(0x80 - lo)) & !v.wrapping_add(splat8(0x7F - hi)) & H
    }
    let alpha = within(x7 | splat8(0x20), b'a', b'z') & ascii;
    let digit = within(x7, b'0', b'9');
    let under = !((x7 ^ splat8(b'_')).wrapping_add(splat8(0x7F))) & H;
    ((alpha | digit | under) & ascii, x | alpha >> 2)
}

/// The number of word bytes `[A-Za-z0-9_]` that 16 bytes start with (16: all are), and the
/// bytes with ASCII letters lowercased.
#[inline(always)]
fn word_bytes16(w: &[u8; 16]) -> (usize, [u8; 16]) {
    let (lo, hi) = w.split_at(8);
    let (mut a, mut b) = ([0u8; 8], [0u8; 8]);
    a.copy_from_slice(lo);
    b.copy_from_slice(hi);
    let (wa, la) = word_bytes8(u64::from_le_bytes(a));
    let (wb, lb) = word_bytes8(u64::from_le_bytes(b));
    let other = |m: u64| !m & splat8(0x80);
    let n = if other(wa) != 0 {
        other(wa).trailing_zeros() / 8
    } else {
        // 64 trailing zeros when all are word bytes: 16.
        8 + other(wb).trailing_zeros() / 8
    };
    let mut lower = [0u8; 16];
    lower[..8].copy_from_slice(&la.to_le_bytes());
    lower[8..].copy_from_slice(&lb.to_le_bytes());
    (n as usize, lower)
}

/// Character classes of [`Cursor`]: blanks skipped between tokens, letters, word bytes.
const BLANK: u8 = 1;
const ALPHA: u8 = 2;
const WORD: u8 = 4;

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        let mut c = 0;
        if matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c) {
            c |= BLANK;
        }
        if b.is_ascii_alphabetic() {
            c |= ALPHA | WORD;
        }
        if b.is_ascii_digit() || b == b'_' {
            c |= WORD;
        }
        t[i] = c;
        i += 1;
    }
    t
};

/// Hexadecimal digit values (0xFF: not a digit): any case, and lowercase only (Mesa).
static HEX_ANY: [u8; 256] = hex_table(true);
static HEX_LOWER: [u8; 256] = hex_table(false);

const fn hex_table(upper: bool) -> [u8; 256] {
    let mut t = [0xFFu8; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        if upper {
            t[b'A' as usize + i] = 10 + i as u8;
        }
        i += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::Cursor;
    use crate::golden::values::Rng;

    /// Random texts of word bytes, blanks, punctuation and bytes above 0x7F.
    fn texts() -> Vec<Vec<u8>> {
        const BYTES: &[u8] = b"aZz_09AMsg \n\t;{}<>,.:/\x7f\x80\xc1\xdf\xfa@[`";
        let mut rng = Rng::for_vector(0x5EED, 0, 0);
        (0..50_000)
            .map(|k| {
                // One text in four of word bytes only (words of 16 bytes and more).
                let bytes = if k % 4 == 0 { &BYTES[..10] } else { BYTES };
                let n = rng.below(40);
                (0..n).map(|_| bytes[rng.below(bytes.len())]).collect()
            })
            .collect()
    }

    /// The word key read eight bytes at a time is the one read byte by byte.
    #[test]
    fn word_keys_eight_bytes_at_a_time_are_the_bytewise_ones() {
        let mut long = 0;
        for t in texts() {
            for at in 0..t.len().min(4) {
                let mut c = Cursor::new(&t);
                c.pos = at;
                let want = c.peek_word_key_bytewise();
                assert_eq!(c.peek_word_key(), want, "{t:?} {at}");
                assert_eq!(c.word_len_at(0), want.0.len(), "{t:?} {at}");
                long += usize::from(want.0.len() >= 16);
            }
        }
        assert!(long > 1_000, "{long}");
    }

    /// `skip_to_any`, `spaces_at` and `spaces_then_token` find what a plain search finds.
    #[test]
    fn byte_searches_are_the_plain_ones() {
        for t in texts() {
            let mut c = Cursor::new(&t);
            c.skip_to_any(b'\n', b'{', b';');
            let want = t
                .iter()
                .position(|b| b"\n{;".contains(b))
                .unwrap_or(t.len());
            assert_eq!(c.pos, want, "{t:?}");
            let c = Cursor::new(&t);
            let spaces = t.iter().take_while(|&&b| b == b' ').count();
            assert_eq!(c.spaces_at(0), spaces, "{t:?}");
            // Where it skips, `skip_blank` stops at the same byte.
            let mut q = Cursor::new(&t);
            if q.spaces_then_token(b',') {
                let mut g = Cursor::new(&t);
                assert!(g.skip_blank().is_ok());
                assert_eq!((q.pos, g.peek() == Some(b',')), (g.pos, false), "{t:?}");
            }
            let mut q = Cursor::new(&t);
            let mut g = Cursor::new(&t);
            let (a, b) = (q.skip_space().is_ok(), g.skip_space_general().is_ok());
            assert_eq!((a, q.pos, q.line), (b, g.pos, g.line), "{t:?}");
        }
    }
}
