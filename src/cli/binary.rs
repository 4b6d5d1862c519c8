//! Binary instruction streams for `euref asm` / `euref disasm`: input detection (assembly
//! text, hex text, raw binary), the hex text format of shared/corpus/mesa/asm/*/*.expected
//! (instructions as hex bytes in memory order, one instruction per line), streaming
//! disassembly in constant memory, and assembling a program to bytes (with optional
//! compaction, which moves instructions and so re-resolves jump offsets).

use super::hints;
use euref::asm::{self, PrintOptions};
use euref::codec;
pub use euref::codec::program::assemble;
use euref::encoding::{compact_word, is_compact};
use euref::isa::Insn;
use euref::spec::{Opcode, Platform};
use std::io::{self, Read, Write};

/// What an input file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum InputFormat {
    /// Detect: raw binary if the start of the file is not text (never with `--syntax`), hex
    /// text if every word is hex digits and most are an even number of them (comments `#`,
    /// `//` allowed), assembly otherwise.
    Auto,
    /// Assembly text (any of the three dialects).
    Asm,
    /// Hex text: bytes as pairs of hex digits, separated by blanks or newlines.
    Hex,
    /// Raw instruction bytes.
    Bin,
}

/// Bytes of input looked at to detect the format.
pub const PEEK: usize = 64 * 1024;

/// Guess the format from the first bytes of a file.
pub fn detect(head: &[u8]) -> InputFormat {
    // Text: valid UTF-8 (a cut at the end of the peeked block is fine) without control
    // characters other than tab, CR, LF and FF.
    let text_ok = match std::str::from_utf8(head) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none(),
    };
    let controls = head
        .iter()
        .any(|&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C));
    if !text_ok || controls {
        return InputFormat::Bin;
    }
    detect_text(head)
}

/// The hint after a parse error of input read as text because `--syntax` is given, when the
/// input would be detected as raw binary without it.
pub const NOT_TEXT_HINT: &str = "hint: the input holds bytes that are not text (read as text \
     because --syntax is given); if it is raw instruction bytes, leave --syntax out or give \
     --input bin";

/// Guess the format of text (never raw binary: for input said to be text, with `--syntax`):
/// hex text if every word is made of hex digits and words of an even number of digits
/// outnumber the others (an odd one is then an error of the hex text, reported where it is),
/// assembly otherwise.
pub fn detect_text(head: &[u8]) -> InputFormat {
    let (mut even, mut odd) = (0u64, 0u64);
    // The last line may be cut by the peek: ignore it unless the whole file fits.
    let complete = head.len() < PEEK;
    let mut lines: Vec<&[u8]> = head.split(|&b| b == b'\n').collect();
    if !complete && lines.len() > 1 {
        lines.pop();
    }
    for line in lines {
        let code = strip_comment(line);
        for tok in code
            .split(|b| b.is_ascii_whitespace() || *b == b',')
            .filter(|t| !t.is_empty())
        {
            if !tok.iter().all(u8::is_ascii_hexdigit) {
                return InputFormat::Asm;
            }
            if tok.len() % 2 == 0 {
                even += 1;
            } else {
                odd += 1;
            }
        }
    }
    if even > odd {
        InputFormat::Hex
    } else {
        InputFormat::Asm
    }
}

fn strip_comment(line: &[u8]) -> &[u8] {
    let hash = line.iter().position(|&b| b == b'#');
    let slashes = line.windows(2).position(|w| w == b"//");
    let cut = match (hash, slashes) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => a.or(b).unwrap_or(line.len()),
    };
    &line[..cut]
}

/// The value of a hexadecimal digit (either case) by its byte; 0xFF for other bytes.
const HEX_DIGIT: [u8; 256] = {
    let mut t = [0xFFu8; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = match c as u8 {
            d @ b'0'..=b'9' => d - b'0',
            d @ b'a'..=b'f' => d - b'a' + 10,
            d @ b'A'..=b'F' => d - b'A' + 10,
            _ => 0xFF,
        };
        c += 1;
    }
    t
};

/// Where hex text is wrong, and how.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: {msg}")]
pub struct HexError {
    /// 1-based line and byte column.
    pub line: u64,
    pub col: u64,
    pub msg: String,
}

/// Incremental hex text -> bytes (works across chunk boundaries).
#[derive(Default)]
pub struct HexReader {
    nibble: Option<u8>,
    comment: bool,
    slash: bool,
    /// Whether the last byte was a hex digit (a token is open).
    in_token: bool,
    /// 1-based line number of the next character.
    line: u64,
    /// Bytes read so far (the offset of the next one), where the current line starts, and
    /// where the open token starts.
    pos: u64,
    line_start: u64,
    token_start: u64,
}

impl HexReader {
    pub fn new() -> HexReader {
        HexReader {
            line: 1,
            ..HexReader::default()
        }
    }

    /// An error at byte offset `at` (on the current line).
    fn error(&self, at: u64, msg: String) -> HexError {
        HexError {
            line: self.line,
            col: at - self.line_start + 1,
            msg,
        }
    }

    /// Append the bytes of `text` to `out`. Errors name the line and column.
    pub fn feed(&mut self, text: &[u8], out: &mut Vec<u8>) -> Result<(), HexError> {
        let mut k = 0;
        while k < text.len() {
            if self.nibble.is_none() && !self.comment && !self.slash {
                let used = self.pairs(&text[k..], out);
                if used > 0 {
                    // (A pair's separator ends any open token.)
                    self.in_token = false;
                    k += used;
                }
            }
            if let Some(&c) = text.get(k) {
                self.step(c, out)?;
                k += 1;
            }
        }
        Ok(())
    }

    /// The common shape, a pair of hex digits and a space or newline, three bytes at a time
    /// from the start of `text` while it holds (what [`HexReader::step`] does with each byte
    /// in the state with no pending digit, comment or slash): the bytes used.
    #[inline]
    fn pairs(&mut self, text: &[u8], out: &mut Vec<u8>) -> usize {
        out.reserve(text.len() / 3 + 1);
        let (mut k, mut lines) = (0, 0);
        // (Where the last line end is, plus one; 0 for none.)
        let mut after_newline = 0;
        for t in text.chunks_exact(3) {
            let (hi, lo, c) = (
                HEX_DIGIT[usize::from(t[0])],
                HEX_DIGIT[usize::from(t[1])],
                t[2],
            );
            if hi | lo >= 16 || !(c == b' ' || c == b'\n') {
                break;
            }
            out.push(hi << 4 | lo);
            lines += u64::from(c == b'\n');
            after_newline = if c == b'\n' { k + 3 } else { after_newline };
            k += 3;
        }
        self.line += lines;
        if after_newline > 0 {
            self.line_start = self.pos + after_newline as u64;
        }
        self.pos += k as u64;
        k
    }

    /// One byte through the state machine.
    fn step(&mut self, c: u8, out: &mut Vec<u8>) -> Result<(), HexError> {
        let at = self.pos;
        self.pos += 1;
        if c == b'\n' {
            self.end_token(at)?;
            if self.slash {
                return Err(self.lone_slash(at - 1));
            }
            self.comment = false;
            self.line += 1;
            self.line_start = at + 1;
            return Ok(());
        }
        if self.comment {
            return Ok(());
        }
        if self.slash {
            self.slash = false;
            if c == b'/' {
                self.comment = true;
                return Ok(());
            }
            return Err(self.lone_slash(at - 1));
        }
        let v = HEX_DIGIT[usize::from(c)];
        if v < 16 {
            if !self.in_token {
                self.in_token = true;
                self.token_start = at;
            }
            match self.nibble.take() {
                Some(h) => out.push(h << 4 | v),
                None => self.nibble = Some(v),
            }
            return Ok(());
        }
        match c {
            b' ' | b'\t' | b'\r' | b',' | 0x0C => self.end_token(at)?,
            b'#' => {
                self.end_token(at)?;
                self.comment = true;
            }
            b'/' => {
                self.end_token(at)?;
                self.slash = true;
            }
            _ => {
                return Err(self.error(
                    at,
                    format!(
                        "unexpected {} in hex input (bytes are pairs of hex digits, separated \
                         by blanks, commas or line ends; comments start with `#` or `//`)",
                        if c.is_ascii_graphic() {
                            format!("`{}`", c as char)
                        } else {
                            format!("byte {c:#04x}")
                        }
                    ),
                ))
            }
        }
        Ok(())
    }

    fn lone_slash(&self, at: u64) -> HexError {
        self.error(
            at,
            "unexpected `/` in hex input (a comment starts with `//` or `#`)".into(),
        )
    }

    /// The end of a token at byte offset `end`: an error if it has an odd number of digits.
    fn end_token(&mut self, end: u64) -> Result<(), HexError> {
        self.in_token = false;
        if self.nibble.take().is_some() {
            let n = end - self.token_start;
            return Err(self.error(
                self.token_start,
                format!(
                    "a token of {n} hex digit{}: bytes are pairs of hex digits (a digit \
                     missing or one too many?)",
                    if n == 1 { "" } else { "s" }
                ),
            ));
        }
        Ok(())
    }

    /// At the end of the input.
    pub fn finish(&mut self) -> Result<(), HexError> {
        if self.slash {
            return Err(self.lone_slash(self.pos - 1));
        }
        self.end_token(self.pos)
    }
}

/// Counts of a disassembly run.
#[derive(Debug, Default, Clone)]
pub struct Stats {
    pub insns: u64,
    pub errors: u64,
    /// The first instruction bytes of the stream (up to [`hints::SAMPLE`]), to try other
    /// platforms on when many instructions fail to decode.
    pub sample: Vec<u8>,
}

/// Read size of the streaming disassembler.
const CHUNK: usize = 64 * 1024;

/// Instructions per piece of work of the parallel disassembler.
const PIECE_INSNS: usize = 4096;

/// Disassemble an instruction stream (raw bytes, or hex text when `hex`), starting with the
/// already-read bytes `head`, printing each instruction on `out` in chunks. A reserved or
/// malformed instruction is reported on stderr (and as a `//` comment in the listing) with its
/// byte offset and the decoder's message naming the field; decoding continues with the next
/// instruction (8 bytes on if its CmptCtrl bit is set, 16 otherwise).
///
/// Memory use is constant: the input is read in batches of a few pieces of
/// [`PIECE_INSNS`] instructions per worker thread; the pieces of a batch are decoded and
/// printed in parallel (rayon; `RAYON_NUM_THREADS` sets the thread count) and written out in
/// input order, with their error messages, before the next batch is read.
pub fn disassemble<R: Read, W: Write>(
    name: &str,
    head: &[u8],
    mut input: R,
    hex: bool,
    p: Platform,
    o: &PrintOptions,
    out: &mut W,
) -> Result<Stats, StreamError> {
    let hex_error = |at: HexError| StreamError::Hex {
        name: name.to_string(),
        at,
    };
    let mut st = Stats::default();
    let batch = PIECE_INSNS * 16 * 2 * rayon::current_num_threads().clamp(1, 16);
    let mut pending: Vec<u8> = Vec::with_capacity(batch + 2 * CHUNK);
    let mut raw = vec![0u8; CHUNK];
    let mut hr = HexReader::new();
    let mut pieces: Vec<Piece> = vec![];
    let mut offset: u64 = 0;
    let feed = |bytes: &[u8],
                pending: &mut Vec<u8>,
                hr: &mut HexReader,
                sample: &mut Vec<u8>|
     -> Result<(), StreamError> {
        let before = pending.len();
        if hex {
            hr.feed(bytes, pending).map_err(hex_error)?;
        } else {
            pending.extend_from_slice(bytes);
        }
        let room = hints::SAMPLE - sample.len();
        if room > 0 {
            let new = &pending[before..];
            sample.extend_from_slice(&new[..new.len().min(room)]);
        }
        Ok(())
    };
    feed(head, &mut pending, &mut hr, &mut st.sample)?;
    let mut eof = false;
    while !eof {
        while pending.len() < batch {
            let n = match input.read(&mut raw) {
                Ok(0) => {
                    eof = true;
                    break;
                }
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(source) => {
                    return Err(StreamError::Read {
                        name: name.to_string(),
                        source,
                    })
                }
            };
            feed(&raw[..n], &mut pending, &mut hr, &mut st.sample)?;
        }
        let used = decode_batch(name, &pending, &mut offset, p, o, &mut pieces, out, &mut st)
            .map_err(StreamError::Write)?;
        pending.drain(..used);
    }
    if hex {
        hr.finish().map_err(hex_error)?;
    }
    let used = decode_batch(name, &pending, &mut offset, p, o, &mut pieces, out, &mut st)
        .map_err(StreamError::Write)?;
    pending.drain(..used);
    if !pending.is_empty() {
        let e = codec::decode(&pending, p).err();
        st.errors += 1;
        let msg = match e {
            Some(e) => e.to_string(),
            None => "trailing bytes".into(),
        };
        let mut piece = Piece::default();
        report(name, offset, &msg, &mut piece);
        note_text!("{}", piece.messages);
        out.write_all(piece.text.as_bytes())
            .map_err(StreamError::Write)?;
    }
    out.flush().map_err(StreamError::Write)?;
    Ok(st)
}

/// Why [`disassemble`] stopped: the input (named) or the output failed.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    /// Reading the input failed.
    #[error("{name}: {source}")]
    Read { name: String, source: io::Error },
    /// The hex text is malformed (`name:line:column: what`).
    #[error("{name}:{at}")]
    Hex { name: String, at: HexError },
    /// Writing the listing failed (the writer's error, which names its destination when it
    /// is a [`super::output::Named`] one).
    #[error("{0}")]
    Write(io::Error),
}

/// One piece of a batch: its bytes (a range of the pending input) and what decoding them
/// gave.
#[derive(Default)]
struct Piece {
    start: usize,
    end: usize,
    /// The listing.
    text: asm::TextBuf,
    /// The error messages for stderr.
    messages: String,
    insns: u64,
    errors: u64,
}

fn report(name: &str, offset: u64, msg: &str, piece: &mut Piece) {
    use std::fmt::Write as _;
    let _ = writeln!(piece.messages, "{name}: offset {offset:#x}: {msg}");
    piece
        .text
        .push_bytes(format!("// offset {offset:#x}: error: {msg}\n").as_bytes());
}

/// The length of the instruction starting at `b[pos..]`, if all of it is there.
#[inline]
fn insn_len(b: &[u8], pos: usize) -> Option<usize> {
    let first = b.get(pos..)?.first_chunk::<8>()?;
    let len = if is_compact(compact_word(first)) {
        8
    } else {
        16
    };
    (b.len() - pos >= len).then_some(len)
}

/// Decode and print the complete instructions at the start of `b` (at stream offset
/// `offset`), in pieces of [`PIECE_INSNS`] decoded in parallel and written to `out` in order;
/// the bytes used.
#[allow(clippy::too_many_arguments)]
fn decode_batch<W: Write>(
    name: &str,
    b: &[u8],
    offset: &mut u64,
    p: Platform,
    o: &PrintOptions,
    pieces: &mut Vec<Piece>,
    out: &mut W,
    st: &mut Stats,
) -> io::Result<usize> {
    use rayon::prelude::*;
    let mut pos = 0;
    let mut k = 0;
    'split: loop {
        let start = pos;
        let mut n = 0;
        while n < PIECE_INSNS {
            match insn_len(b, pos) {
                Some(len) => pos += len,
                None => break,
            }
            n += 1;
        }
        if n == 0 {
            break 'split;
        }
        if k == pieces.len() {
            pieces.push(Piece::default());
        }
        pieces[k].start = start;
        pieces[k].end = pos;
        k += 1;
        if n < PIECE_INSNS {
            break;
        }
    }
    let base = *offset;
    let work = &mut pieces[..k];
    let run = |c: &mut Piece| decode_piece(name, b, base, p, o, c);
    if work.len() > 1 {
        work.par_iter_mut().for_each(run);
    } else {
        work.iter_mut().for_each(run);
    }
    for c in work.iter() {
        if !c.messages.is_empty() {
            note_text!("{}", c.messages);
        }
        out.write_all(c.text.as_bytes())?;
        st.insns += c.insns;
        st.errors += c.errors;
    }
    *offset += pos as u64;
    Ok(pos)
}

/// Decode and print the instructions of one piece (`b[c.start..c.end]`, whole instructions).
fn decode_piece(name: &str, b: &[u8], base: u64, p: Platform, o: &PrintOptions, c: &mut Piece) {
    c.text.clear();
    c.messages.clear();
    c.insns = 0;
    c.errors = 0;
    let mut i = Insn::new(Opcode::Nop);
    let mut pos = c.start;
    while pos < c.end {
        let Some(len) = insn_len(b, pos) else { break };
        match codec::decode_into(&b[pos..pos + len], p, &mut i) {
            Ok(_) => {
                c.text.push_insn_line(&i, o);
                c.insns += 1;
            }
            Err(e) => {
                c.errors += 1;
                report(name, base + pos as u64, &e.to_string(), c);
            }
        }
        pos += len;
    }
}

/// The hex text of one instruction: its bytes as lowercase pairs separated by spaces (the
/// .expected format).
pub fn hex_line(out: &mut String, bytes: &[u8]) {
    const H: &[u8; 16] = b"0123456789abcdef";
    for (k, b) in bytes.iter().enumerate() {
        if k > 0 {
            out.push(' ');
        }
        out.push(H[(b >> 4) as usize] as char);
        out.push(H[(b & 15) as usize] as char);
    }
    out.push('\n');
}

/// Whether assembly text defines a label (`NAME:` starting a line, other than the `JIP:` /
/// `UIP:` keywords). The parsed program does not record which jump offsets came from labels;
/// label definitions are the sign that offsets were resolved by the assembler.
pub fn defines_labels(text: &[u8]) -> bool {
    asm::defines_labels(text)
}

#[cfg(test)]
mod tests {
    use super::{detect, detect_text, HexError, HexReader, InputFormat};

    #[test]
    fn mostly_hex_text_is_hex_and_an_odd_token_does_not_change_that() {
        assert_eq!(detect(b"0a 0b\n0c 0d\n"), InputFormat::Hex);
        assert_eq!(detect(b"0a 0b\n0c1 0d\n"), InputFormat::Hex);
        // As many odd tokens as even ones, or words that are no hex: assembly.
        assert_eq!(detect(b"add\n"), InputFormat::Asm);
        assert_eq!(detect(b"0a add\n"), InputFormat::Asm);
        assert_eq!(detect(b"mov (8|M0) r1.0<1>:f 0x0:f\n"), InputFormat::Asm);
        assert_eq!(detect(b"// only a comment\n"), InputFormat::Asm);
        // A control byte: binary, unless the text is said to be text.
        assert_eq!(detect(b"mov \x01 r1\n"), InputFormat::Bin);
        assert_eq!(detect_text(b"mov \x01 r1\n"), InputFormat::Asm);
        assert_eq!(detect_text(b"0a 0b \x01\n"), InputFormat::Asm);
    }

    /// The error of reading `text` whole.
    fn error_of(text: &[u8]) -> HexError {
        let mut r = HexReader::new();
        let mut out = vec![];
        r.feed(text, &mut out).and_then(|_| r.finish()).unwrap_err()
    }

    #[test]
    fn hex_errors_have_line_and_column() {
        let e = error_of(b"0a 0b\n01 0g 02\n");
        assert_eq!((e.line, e.col), (2, 5), "{e}");
        assert!(e.msg.starts_with("unexpected `g` in hex input"), "{e}");
        // An odd token: where it starts, with its length.
        let e = error_of(b"0a 0b\n  01 abc 02\n");
        assert_eq!((e.line, e.col), (2, 6), "{e}");
        assert!(e.msg.starts_with("a token of 3 hex digits"), "{e}");
        let e = error_of(b"0a 0b 0");
        assert_eq!((e.line, e.col), (1, 7), "{e}");
        assert!(e.msg.starts_with("a token of 1 hex digit:"), "{e}");
        // A lone slash, also at a line end.
        let e = error_of(b"0a /\n");
        assert_eq!((e.line, e.col), (1, 4), "{e}");
        let e = error_of(b"0a / 0b\n");
        assert_eq!((e.line, e.col), (1, 4), "{e}");
        assert_eq!(e.to_string(), format!("1:4: {}", e.msg));
    }

    /// The whole text through the state machine one byte at a time (no three-byte fast path).
    fn bytewise(text: &[u8]) -> Result<(Vec<u8>, u64), HexError> {
        let mut r = HexReader::new();
        let mut out = vec![];
        for &c in text {
            r.step(c, &mut out)?;
        }
        r.finish()?;
        Ok((out, r.line))
    }

    /// `feed` (fast path for `xx ` / `xx\n` runs) gives the bytes, line numbers and errors of
    /// the byte-by-byte reader, on random texts made mostly of the .expected format with
    /// comments, other separators, odd digits and bad bytes mixed in, fed in random pieces.
    #[test]
    fn hex_fast_path_matches_bytewise_reader() {
        let mut next = crate::test_rng::xorshift(0x1234_5678_9ABC_DEF1u64);
        let pieces: [&[u8]; 14] = [
            b"0a ",
            b"Ff ",
            b"9c\n",
            b"e1 ",
            b"3",
            b" ",
            b"\n",
            b"# c 12\n",
            b"// x\n",
            b"/",
            b",",
            b"\t",
            b"zz",
            b"AB",
        ];
        let (mut ok, mut err) = (0, 0);
        for _ in 0..20_000 {
            let mut text = vec![];
            for _ in 0..next() % 60 {
                // Mostly well-formed pairs.
                let k = (next() % 40) as usize;
                text.extend_from_slice(pieces[if k < 26 { k % 3 } else { k - 26 }]);
            }
            let want = bytewise(&text);
            let mut r = HexReader::new();
            let mut out = vec![];
            let mut at = 0;
            let got = loop {
                if at == text.len() {
                    break r.finish().map(|_| (out, r.line));
                }
                let end = (at + 1 + (next() % 50) as usize).min(text.len());
                if let Err(e) = r.feed(&text[at..end], &mut out) {
                    break Err(e);
                }
                at = end;
            };
            assert_eq!(got, want, "{:?}", String::from_utf8_lossy(&text));
            if want.is_ok() {
                ok += 1;
            } else {
                err += 1;
            }
        }
        assert!(ok > 1000 && err > 1000, "{ok} ok, {err} errors");
    }
}
