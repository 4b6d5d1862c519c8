//! A byte cursor over assembly text: blanks, comments, identifiers and numbers, with line and
//! column tracking. Works on bytes, so non-UTF-8 input is an ordinary error, never a panic.

use super::error::{show, AsmError};

pub(crate) struct Cursor<'a> {
    src: &'a [u8],
    pos: usize,
    line: u32,
    line_start: usize,
    /// Hexadecimal digits are lowercase only (Mesa's lexer: `0x[0-9a-f]+`, so that
    /// `0x3f000000F` is the number 0x3f000000 with the type suffix `F`).
    pub lower_hex_only: bool,
    /// Number of digits (leading zeros included) of the last hexadecimal number read.
    pub last_hex_digits: u32,
}

/// A remembered position (for errors reported after the fact).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pos {
    pub line: u32,
    pub col: u32,
}

impl Pos {
    pub fn err(self, msg: impl Into<String>) -> AsmError {
        AsmError {
            line: self.line,
            col: self.col,
            msg: msg.into(),
        }
    }
}

pub(crate) type PResult<T> = Result<T, AsmError>;

impl<'a> Cursor<'a> {
    pub fn new(src: &'a [u8]) -> Cursor<'a> {
        Cursor {
            src,
            pos: 0,
            line: 1,
            line_start: 0,
            lower_hex_only: false,
            last_hex_digits: 0,
        }
    }

    pub fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            col: (self.pos - self.line_start + 1).min(u32::MAX as usize) as u32,
        }
    }

    pub fn offset(&self) -> usize {
        self.pos
    }

    pub fn slice(&self, from: usize, to: usize) -> &'a [u8] {
        self.src.get(from..to).unwrap_or(&[])
    }

    pub fn err(&self, msg: impl Into<String>) -> AsmError {
        self.pos().err(msg)
    }

    /// "expected X, found Y" at the current position.
    pub fn expected(&self, what: &str) -> AsmError {
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
    pub fn starts_with_ci(&self, s: &[u8]) -> bool {
        self.src
            .get(self.pos..self.pos + s.len())
            .is_some_and(|t| t.eq_ignore_ascii_case(s))
    }

    /// Skip spaces, tabs, carriage returns and comments (`// ...` to the end of the line,
    /// `/* ... */`, `# ...` when `hash_comments`), staying on the current line except inside
    /// a block comment.
    pub fn skip_blank(&mut self) -> PResult<()> {
        loop {
            match self.peek() {
                Some(b' ') | Some(b'\t') | Some(b'\r') | Some(0x0c) | Some(0x0b) => self.bump(),
                Some(b'/') if self.peek_at(1) == Some(b'/') => self.skip_to_eol(),
                Some(b'/') if self.peek_at(1) == Some(b'*') => {
                    let start = self.pos();
                    self.pos += 2;
                    loop {
                        match self.peek() {
                            None => return Err(start.err("unterminated `/*` comment")),
                            Some(b'*') if self.peek_at(1) == Some(b'/') => {
                                self.pos += 2;
                                break;
                            }
                            Some(b'\n') => self.newline(),
                            Some(_) => self.bump(),
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// Skip to (not over) the end of the line.
    pub fn skip_to_eol(&mut self) {
        while let Some(b) = self.peek() {
            if b == b'\n' {
                break;
            }
            self.bump();
        }
    }

    /// Consume a `\n` and start a new line.
    pub fn newline(&mut self) {
        if self.peek() == Some(b'\n') {
            self.pos += 1;
            self.line = self.line.saturating_add(1);
            self.line_start = self.pos;
        }
    }

    /// Skip blanks, comments and newlines.
    pub fn skip_space(&mut self) -> PResult<()> {
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
        let start = self.pos;
        if matches!(self.peek(), Some(b) if b.is_ascii_alphabetic() || b == b'_') {
            self.bump();
            while matches!(self.peek(), Some(b) if b.is_ascii_alphanumeric() || b == b'_') {
                self.bump();
            }
        }
        &self.src[start..self.pos]
    }

    /// Peek an identifier without consuming it.
    pub fn peek_ident(&self) -> &'a [u8] {
        let mut end = self.pos;
        if matches!(self.src.get(end), Some(b) if b.is_ascii_alphabetic() || *b == b'_') {
            end += 1;
            while matches!(self.src.get(end), Some(b) if b.is_ascii_alphanumeric() || *b == b'_') {
                end += 1;
            }
        }
        &self.src[self.pos..end]
    }

    /// Letters only `[A-Za-z]*`.
    pub fn letters(&mut self) -> &'a [u8] {
        let start = self.pos;
        while matches!(self.peek(), Some(b) if b.is_ascii_alphabetic()) {
            self.bump();
        }
        &self.src[start..self.pos]
    }

    /// An unsigned decimal or `0x` hexadecimal integer; `None` (cursor unmoved) if no digit.
    pub fn uint(&mut self) -> PResult<Option<u64>> {
        let start = self.pos();
        match self.peek() {
            Some(b) if b.is_ascii_digit() => {}
            _ => return Ok(None),
        }
        if self.peek() == Some(b'0') && matches!(self.peek_at(1), Some(b'x') | Some(b'X')) {
            self.pos += 2;
            let mut v: u64 = 0;
            let mut n = 0;
            let lower = self.lower_hex_only;
            while let Some(d) = self
                .peek()
                .filter(|b| !(lower && b.is_ascii_uppercase()))
                .and_then(|b| (b as char).to_digit(16))
            {
                if v >> 60 != 0 {
                    return Err(start.err("number does not fit in 64 bits"));
                }
                v = v << 4 | d as u64;
                n += 1;
                self.bump();
            }
            if n == 0 {
                return Err(self.expected("hexadecimal digits after `0x`"));
            }
            self.last_hex_digits = n;
            Ok(Some(v))
        } else {
            let mut v: u64 = 0;
            while let Some(d) = self.peek().filter(u8::is_ascii_digit) {
                v = v
                    .checked_mul(10)
                    .and_then(|v| v.checked_add((d - b'0') as u64))
                    .ok_or_else(|| start.err("number does not fit in 64 bits"))?;
                self.bump();
            }
            Ok(Some(v))
        }
    }

    /// A small unsigned decimal number (register numbers, strides): at most `max`.
    pub fn small(&mut self, what: &str, max: u64) -> PResult<u32> {
        let p = self.pos();
        match self.uint()? {
            Some(v) if v <= max => Ok(v as u32),
            Some(v) => Err(p.err(format!("{what} {v} is out of range (0-{max})"))),
            None => Err(self.expected(what)),
        }
    }
}
