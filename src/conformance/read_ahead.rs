//! The checker's reader thread: it reads the vector lines, parses each once (the larger half
//! of the checker's work per vector) and writes its request, ahead of the thread that sends the
//! requests, reads the responses and compares them ([`super::check::run`]), so that the two
//! halves run on two cores.
//!
//! Lines go over in chunks of [`CHUNK`] (one channel message each, at most [`AHEAD`] waiting),
//! in input order, and the checker hands each chunk back with the line buffers it is done with,
//! which the reader reuses. What the checker sees is what it saw reading the lines itself: the
//! same items in the same order, an input error where the line that failed would have been.

use super::json::plain_ascii_string;
use super::known::KnownFields;
use super::lines::read_line_bytes;
use super::selection::Selection;
use super::vet::Vetter;
use super::view::{write_request_from, Spans, VectorView};
use crate::vector::Vector;
use std::collections::HashSet;
use std::io::BufRead;
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::sync::Arc;

/// Lines per chunk (a chunk handed over costs a wake-up of the other thread when it waits,
/// but the checker sees no line of a chunk before the whole chunk is read: an input that
/// stalls holds back what it gave before).
const CHUNK: usize = 64;
/// Chunks waiting in the channel at most.
const AHEAD: usize = 4;

/// A line read ahead.
pub enum Item {
    /// A vector: its line (rewritten canonically when only serde could read it), where its
    /// fields are, and its request (in the checker's batch, see [`ReadAhead::next`]).
    Vector(String, Spans),
    /// A line that is no vector: its number and serde's message.
    Bad(String, usize, String),
}

/// Items with the requests of their vectors, one after the other.
#[derive(Default)]
struct Chunk {
    items: Vec<(Item, usize)>,
    requests: Vec<u8>,
    /// Line buffers to reuse (handed back by the checker).
    spare: Vec<String>,
}

/// The checker's end: the next item, in input order.
pub struct ReadAhead {
    rx: Receiver<Result<Chunk, String>>,
    back: Sender<Chunk>,
    /// The current chunk (`shell.items[..taken]` taken), to hand back.
    shell: Chunk,
    taken: usize,
    /// Where the next item's request starts in `shell.requests`.
    req_at: usize,
    done: bool,
}

/// Start reading `input` ahead on a thread of its own: the checker's end, and the thread,
/// which returns the values it learned from the lines (for the summary's known `rules`
/// numbers). The thread is not scoped: a checker that stops early need not wait for it (it
/// may be waiting on its input), and it stops at its next chunk.
pub fn start<R: BufRead + Send + 'static>(
    input: R,
    skip: Arc<Selection>,
) -> (ReadAhead, std::thread::JoinHandle<KnownFields>) {
    start_at(input, Start::FILE, skip)
}

/// [`start`] for an input that starts at `first` in its file: a slice of it (`euref check
/// --shard`). The lines that are no vector are numbered, and their bytes counted, as in the
/// file.
pub fn start_at<R: BufRead + Send + 'static>(
    input: R,
    first: Start,
    skip: Arc<Selection>,
) -> (ReadAhead, std::thread::JoinHandle<KnownFields>) {
    let (tx, rx) = mpsc::sync_channel(AHEAD);
    let (back_tx, back_rx) = mpsc::channel();
    let handle = std::thread::spawn(move || read(input, first, &skip, tx, back_rx));
    let ahead = ReadAhead {
        rx,
        back: back_tx,
        shell: Chunk::default(),
        taken: 0,
        req_at: 0,
        done: false,
    };
    (ahead, handle)
}

impl ReadAhead {
    /// The next item (`None` at the end of the input), its request appended to `batch` when it
    /// is a vector; `spare` gives line buffers back to the reader. An input error ends the
    /// items.
    pub fn next(
        &mut self,
        batch: &mut Vec<u8>,
        spare: &mut Vec<String>,
    ) -> Result<Option<Item>, String> {
        loop {
            if let Some((item, end)) = self.shell.items.get_mut(self.taken) {
                self.taken += 1;
                // (Taken out in place: the items' room goes back with the chunk.)
                let item = std::mem::replace(item, Item::Bad(String::new(), 0, String::new()));
                let end = *end;
                if matches!(item, Item::Vector(..)) {
                    batch.extend_from_slice(&self.shell.requests[self.req_at..end]);
                    self.req_at = end;
                }
                return Ok(Some(item));
            }
            if self.done {
                return Ok(None);
            }
            // The chunk is used up: back to the reader with spare buffers, then the next one.
            let mut shell = std::mem::take(&mut self.shell);
            let n = spare.len().saturating_sub(CHUNK);
            shell.spare.extend(spare.drain(n..));
            let _ = self.back.send(shell);
            match self.rx.recv() {
                Ok(Ok(chunk)) => {
                    self.shell = chunk;
                    self.taken = 0;
                    self.req_at = 0;
                }
                Ok(Err(e)) => {
                    self.done = true;
                    return Err(e);
                }
                Err(_) => self.done = true,
            }
        }
    }
}

/// The reader thread: chunks of items until the end of the input, an input error or a checker
/// that stopped listening.
fn read(
    mut input: impl BufRead,
    first: Start,
    skip: &Selection,
    tx: SyncSender<Result<Chunk, String>>,
    back: Receiver<Chunk>,
) -> KnownFields {
    let mut known = KnownFields::default();
    let mut vetter = Vetter::default();
    let mut pos = At::before(first);
    loop {
        let mut chunk = back.try_recv().unwrap_or_default();
        chunk.items.clear();
        chunk.requests.clear();
        let mut error = None;
        let mut end = false;
        while chunk.items.len() < CHUNK {
            let mut line = chunk.spare.pop().unwrap_or_default();
            let text = match next_line(&mut input, &mut line, &mut pos) {
                Ok(Some(text)) => text,
                Ok(None) => {
                    end = true;
                    break;
                }
                Err(e) => {
                    error = Some(e);
                    break;
                }
            };
            let at = chunk.requests.len();
            let (known, vetter, requests) = (&mut known, &mut vetter, &mut chunk.requests);
            match parse(line, text, known, pos.line, skip, vetter, requests) {
                Ok(item) => {
                    let end = chunk.requests.len();
                    chunk.items.push((item, end));
                }
                Err(line) => {
                    chunk.requests.truncate(at);
                    chunk.spare.push(line);
                }
            }
        }
        if !chunk.items.is_empty() && tx.send(Ok(chunk)).is_err() {
            return known;
        }
        if let Some(e) = error {
            let _ = tx.send(Err(e));
            return known;
        }
        if end {
            return known;
        }
    }
}

/// Read line `line_no` (what it is: `text`) as a vector and append its request to
/// `requests`: the item, or the line back when it is skipped (not kept by `skip`, or a line
/// that is no vector whose report id `line-<number>` is in `skip.skip`).
fn parse(
    mut line: String,
    text: Text,
    known: &mut KnownFields,
    line_no: usize,
    skip: &Selection,
    vetter: &mut Vetter,
    requests: &mut Vec<u8>,
) -> Result<Item, String> {
    let parsed = match text {
        Text::NotUtf8(message) => Err(message),
        Text::Utf8 { plain } => read_vector(
            &mut line,
            known,
            plain,
            line_no,
            vetter,
            |line, v, spans| request(line, v, spans, skip, requests),
        ),
    };
    match parsed {
        Ok(Some(spans)) => Ok(Item::Vector(line, spans)),
        Ok(None) => Err(line),
        // (Reported as `line-<number>`: skipped too when that id is in `skip`.)
        Err(_) if !skip.skip.is_empty() && skip.skip.contains(&line_id(line_no)) => Err(line),
        Err(message) => Ok(Item::Bad(line, line_no, crate::quote::printable(&message))),
    }
}

/// The report id of line `line_no` when it is no vector the checker can use.
pub fn line_id(line_no: usize) -> String {
    format!("line-{line_no}")
}

/// Read `line` (number `line_no`, ASCII and plain when `plain`) as a vector, with the fast
/// reader or else with serde (a vector it reads is written back canonically into `line` and
/// read from that), and vet it ([`Vetter`]): what `with` makes of the vector, or why the line
/// is no vector the checker can use (`line N: ...`).
fn read_vector<T>(
    line: &mut String,
    known: &mut KnownFields,
    plain: bool,
    line_no: usize,
    vetter: &mut Vetter,
    with: impl FnOnce(&str, &VectorView, &Spans) -> T,
) -> Result<T, String> {
    let at = |e: String| format!("line {line_no}: {e}");
    if let Ok((v, spans)) = VectorView::parse_spans_hinted(line, known, Some(plain)) {
        vetter.vet(&v, spans.version, line_no).map_err(at)?;
        return Ok(with(line, &v, &spans));
    }
    match serde_json::from_str::<Vector>(line) {
        Ok(v) => *line = v.to_line(),
        Err(_) if is_program_vector(line) => {
            return Err(at(
                "a program vector (\"kind\": \"program\", euref golden --programs) among \
                 single-instruction vectors: euref check checks a file of program vectors when \
                 its first line is one; put program vectors in a file of their own"
                    .into(),
            ))
        }
        Err(e) => return Err(at(e.to_string())),
    }
    let (v, spans) = VectorView::parse_spans(line).map_err(at)?;
    vetter.vet(&v, spans.version, line_no).map_err(at)?;
    Ok(with(line, &v, &spans))
}

/// Whether `line` is a program vector (`"kind": "program"`, conformance/README.md "Program
/// vectors").
pub fn is_program_vector(line: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(line)
        .map(|v| v.get("kind").and_then(|k| k.as_str()) == Some("program"))
        .unwrap_or(false)
}

/// Append the request of vector `v` (read from `line` with `spans`) when `skip` keeps it: the
/// spans, or `None` when skipped.
fn request(
    line: &str,
    v: &VectorView,
    spans: &Spans,
    skip: &Selection,
    requests: &mut Vec<u8>,
) -> Option<Spans> {
    if !skip.keeps_all() && !skip.keeps(&v.id, &v.op) {
        return None;
    }
    write_request_from(line, spans, v, requests);
    Some(*spans)
}

/// The report ids of the lines of `input` (numbered from `first`): of each vector the
/// checker would check its id, of every other line that is not blank `line-<number>`, as a
/// check of `input` reports them. What this gives: those of `ids` that are none of them
/// (`euref check --resume`: report lines of another vectors file).
pub fn ids_not_in(
    mut input: impl BufRead,
    first: Start,
    ids: &HashSet<String>,
) -> Result<HashSet<String>, String> {
    let mut left = ids.clone();
    let (mut known, mut vetter) = (KnownFields::default(), Vetter::default());
    let mut at = At::before(first);
    let mut line = String::new();
    while !left.is_empty() {
        let Some(text) = next_line(&mut input, &mut line, &mut at)? else {
            break;
        };
        let line_no = at.line;
        let id = match text {
            Text::NotUtf8(_) => Err(()),
            Text::Utf8 { plain } => read_vector(
                &mut line,
                &mut known,
                plain,
                line_no,
                &mut vetter,
                |_, v, _| v.id.to_string(),
            )
            .map_err(|_| ()),
        };
        left.remove(&id.unwrap_or_else(|()| line_id(line_no)));
    }
    Ok(left)
}

/// Where an input starts in its file: the number (from 1) of its first line and its byte
/// offset (`euref check --shard`: a slice of the file).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Start {
    pub line: usize,
    pub byte: u64,
}

impl Start {
    /// The start of a whole file.
    pub const FILE: Start = Start { line: 1, byte: 0 };
}

/// The line last read: its number and where it starts in the file.
struct At {
    line: usize,
    byte: u64,
    /// Where the next line starts.
    next: u64,
}

impl At {
    fn before(first: Start) -> At {
        At {
            line: first.line.saturating_sub(1),
            byte: first.byte,
            next: first.byte,
        }
    }
}

/// What a line read is.
enum Text {
    /// UTF-8: whether ASCII and plain ([`super::json::is_plain_ascii`]).
    Utf8 { plain: bool },
    /// Not UTF-8 (the line holds it with each bad sequence replaced): where, as the message
    /// of a line that is no vector.
    NotUtf8(String),
}

/// Append the next line of `input` to `buf`, newline included (as `BufRead::read_line`, with
/// [`read_line_bytes`]): the number of bytes read (0 at the end) and what the line is (the
/// ASCII and plain check stands for the UTF-8 validation); a line that is not UTF-8 is put in
/// `buf` with each bad sequence replaced, and gives where its first bad byte is (the byte
/// from 0 in the line, and its value).
fn read_line(input: &mut impl BufRead, buf: &mut String) -> std::io::Result<(usize, Bytes)> {
    let mut bytes = std::mem::take(buf).into_bytes();
    let n = read_line_bytes(input, &mut bytes)?;
    // What `next_line` keeps of the line.
    let body = match bytes.strip_suffix(b"\n") {
        Some(b) => b.strip_suffix(b"\r").unwrap_or(b),
        None => &bytes,
    };
    let body = body.len();
    let bytes = if bytes.len() == n {
        match plain_ascii_string(bytes, body) {
            Ok(s) => {
                *buf = s;
                return Ok((n, Bytes::PlainAscii));
            }
            Err(bytes) => bytes,
        }
    } else {
        bytes
    };
    match String::from_utf8(bytes) {
        Ok(s) => {
            *buf = s;
            Ok((n, Bytes::Utf8))
        }
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            let byte = bytes[at];
            *buf = String::from_utf8_lossy(&bytes).into_owned();
            Ok((n, Bytes::NotUtf8 { at, byte }))
        }
    }
}

/// What [`read_line`] found a line to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bytes {
    PlainAscii,
    Utf8,
    /// Byte `at` of the line (from 0), of value `byte`, starts no valid UTF-8 sequence.
    NotUtf8 {
        at: usize,
        byte: u8,
    },
}

/// The next line of `input` that is not blank into `buf` (its line end removed) and what it
/// is, or `None` at the end; `at` follows the lines read.
fn next_line(
    input: &mut impl BufRead,
    buf: &mut String,
    at: &mut At,
) -> Result<Option<Text>, String> {
    loop {
        buf.clear();
        at.line += 1;
        at.byte = at.next;
        let (n, bytes) =
            read_line(input, buf).map_err(|e| format!("vectors line {}: {e}", at.line))?;
        if n == 0 {
            return Ok(None);
        }
        at.next += n as u64;
        if buf.ends_with('\n') {
            buf.pop();
            if buf.ends_with('\r') {
                buf.pop();
            }
        }
        let text = match bytes {
            Bytes::PlainAscii => Text::Utf8 { plain: true },
            Bytes::Utf8 => Text::Utf8 { plain: false },
            Bytes::NotUtf8 { at: k, byte } => Text::NotUtf8(format!(
                "line {}: byte {k} of the line (byte {} of the file) is 0x{byte:02x}, which \
                 is not UTF-8 (a vector line is JSON text, UTF-8): the line is damaged; the \
                 other lines are checked",
                at.line,
                at.byte + k as u64
            )),
        };
        // (A line that is not UTF-8 is no blank line.)
        if matches!(text, Text::NotUtf8(_)) || !buf.trim().is_empty() {
            return Ok(Some(text));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_as_bufread_reads_them() {
        // Line splitting is `read_line_bytes`'s (tested in `lines`); here: the text checks.
        let text: &[u8] = "é\r\nlast".as_bytes();
        let mut fast = std::io::BufReader::with_capacity(1, text);
        let mut std_reader = std::io::BufReader::with_capacity(1, text);
        for _ in 0..3 {
            let (mut a, mut b) = (String::from("x"), String::from("x"));
            let (n, _) = read_line(&mut fast, &mut a).unwrap();
            assert_eq!(n, std_reader.read_line(&mut b).unwrap());
            assert_eq!(a, b);
        }
        // A line that is not UTF-8: its text with the bad bytes replaced, and where the first
        // bad byte is; the lines after it are read.
        let bad: &[u8] = b"ok\nab\xff\xfe\nlast\n";
        let mut fast = std::io::BufReader::new(bad);
        let mut a = String::new();
        assert_eq!(
            read_line(&mut fast, &mut a).unwrap(),
            (3, Bytes::PlainAscii)
        );
        a.clear();
        let got = read_line(&mut fast, &mut a).unwrap();
        assert_eq!(got, (5, Bytes::NotUtf8 { at: 2, byte: 0xff }));
        assert_eq!(a, "ab\u{fffd}\u{fffd}\n");
        a.clear();
        assert_eq!(
            read_line(&mut fast, &mut a).unwrap(),
            (5, Bytes::PlainAscii)
        );
    }

    /// A reader that fails after its text.
    struct Failing(Vec<u8>);
    impl std::io::Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() {
                return Err(std::io::Error::other("disk gone"));
            }
            let n = buf.len().min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0.drain(..n);
            Ok(n)
        }
    }

    /// Everything `start` hands over, as (line, spans or bad-line message, request), and the
    /// error that ended it.
    type Seen = (
        Vec<(String, Result<Spans, String>, Vec<u8>)>,
        Option<String>,
    );

    fn read_all(input: impl BufRead + Send + 'static, skip: &Selection) -> Seen {
        read_all_at(input, Start::FILE, skip)
    }

    fn read_all_at(input: impl BufRead + Send + 'static, first: Start, skip: &Selection) -> Seen {
        let (mut ahead, reader) = start_at(input, first, Arc::new(skip.clone()));
        let (mut seen, mut spare) = (Vec::new(), Vec::new());
        let error = loop {
            let mut batch = Vec::new();
            match ahead.next(&mut batch, &mut spare) {
                Ok(Some(Item::Vector(line, spans))) => {
                    seen.push((line.clone(), Ok(spans), batch));
                    // Buffers handed back are reused (cleared) by the reader.
                    spare.push(line);
                }
                Ok(Some(Item::Bad(line, n, m))) => {
                    assert!(batch.is_empty());
                    seen.push((line, Err(format!("{n}: {m}")), batch));
                }
                Ok(None) => break None,
                Err(e) => break Some(e),
            }
        };
        drop(ahead);
        reader.join().unwrap();
        (seen, error)
    }

    /// The items are those of reading the lines one by one in order (the same spans, `rules`
    /// numbers and requests; bad lines where they are; skipped ids and blank lines left out),
    /// over several chunks; an input error comes after the items before it.
    #[test]
    fn items_are_the_lines_read_in_order() {
        let cfg = crate::golden::GenConfig::new(crate::spec::Platform::Skl, 9);
        let mut text = Vec::new();
        crate::golden::generate_lines(&cfg, 3 * CHUNK as u64 + 5, &mut text, |_, _, _| {}).unwrap();
        let mut lines: Vec<String> = String::from_utf8(text)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        // A bad line, a blank line, a line with a key the checker ignores first and a CRLF
        // line end.
        lines.insert(7, "{\"v\":1,\"id\":".into());
        lines.insert(9, "   ".into());
        let odd = lines[12].replacen('{', "{\"zz\":0, ", 1);
        lines[12] = odd;
        lines[20].push('\r');
        let skip = Selection {
            skip: [&lines[30], &lines[100]]
                .iter()
                .map(|l| VectorView::parse(l.trim_end()).unwrap().id.to_string())
                .collect(),
            ..Selection::default()
        };
        let input = lines.join("\n");

        // Line by line.
        let (mut known, mut vetter) = (KnownFields::default(), Vetter::default());
        let mut want = Vec::new();
        for (k, l) in lines.iter().enumerate() {
            let l = l.trim_end_matches('\r');
            if l.trim().is_empty() {
                continue;
            }
            let plain = crate::conformance::json::is_plain_ascii(l.as_bytes());
            let text = Text::Utf8 { plain };
            let mut req = Vec::new();
            let (known, vetter) = (&mut known, &mut vetter);
            match parse(l.to_string(), text, known, k + 1, &skip, vetter, &mut req) {
                Ok(Item::Vector(line, spans)) => want.push((line, Ok(spans), req)),
                Ok(Item::Bad(line, n, m)) => want.push((line, Err(format!("{n}: {m}")), req)),
                Err(_) => {}
            }
        }
        assert_eq!(want.len(), lines.len() - 1 - skip.skip.len());
        assert!(want[7]
            .1
            .as_ref()
            .is_err_and(|m| m.starts_with("8: line 8")));
        // The line with another key is read as it is (not in the golden layout).
        assert!(want[11].0.contains("zz") && want[11].1.is_ok());

        let (seen, error) = read_all(std::io::Cursor::new(input.clone().into_bytes()), &skip);
        assert_eq!(error, None);
        assert!(seen == want);

        // The same input failing after its text: every line, then the error.
        let input = input + "\n";
        let failing = std::io::BufReader::with_capacity(100, Failing(input.into_bytes()));
        let (seen, error) = read_all(failing, &skip);
        assert!(seen == want);
        let n = lines.len() + 1;
        assert_eq!(error, Some(format!("vectors line {n}: disk gone")));
    }

    /// An input that is a slice of a file starting at line 41 numbers its lines as the file
    /// does: a line that is no vector and a read error name their file line.
    #[test]
    fn a_slice_numbers_its_lines_as_its_file() {
        let cfg = crate::golden::GenConfig::new(crate::spec::Platform::Skl, 9);
        let mut text = Vec::new();
        crate::golden::generate_lines(&cfg, 3, &mut text, |_, _, _| {}).unwrap();
        let mut input = String::from_utf8(text).unwrap();
        input.insert_str(0, "\n{\"v\":1,\"id\":\n");
        let failing = std::io::BufReader::with_capacity(100, Failing(input.into_bytes()));
        let (seen, error) =
            read_all_at(failing, Start { line: 41, byte: 0 }, &Selection::default());
        assert_eq!(seen.len(), 4);
        assert!(
            seen[0]
                .1
                .as_ref()
                .is_err_and(|m| m.starts_with("42: line 42")),
            "{:?}",
            seen[0].1
        );
        assert!(seen[1..].iter().all(|s| s.1.is_ok()));
        assert_eq!(error, Some("vectors line 46: disk gone".to_string()));
    }

    /// Issue 26: a line that is not UTF-8 is a bad item named by its line, the byte in the
    /// line and the byte in the file (here a slice starting at line 41, byte 5000), and the
    /// lines after it are read; so is a vector whose id an earlier line had.
    #[test]
    fn a_line_that_is_not_utf8_is_a_bad_item_and_the_rest_is_read() {
        let cfg = crate::golden::GenConfig::new(crate::spec::Platform::Skl, 9);
        let mut text = Vec::new();
        crate::golden::generate_lines(&cfg, 3, &mut text, |_, _, _| {}).unwrap();
        let good: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
        let input = [
            b"\n",
            good[0],
            b"{\"v\":2,\"id\":\"\xc3(\"}\n",
            good[1],
            good[0],
        ]
        .concat();
        let first = Start {
            line: 41,
            byte: 5000,
        };
        let (seen, error) = read_all_at(std::io::Cursor::new(input), first, &Selection::default());
        assert_eq!(error, None);
        assert_eq!(seen.len(), 4);
        assert!(seen[0].1.is_ok() && seen[2].1.is_ok());
        // Line 43 starts after a blank line and line 42: byte 5000 + 1 + |line 42|.
        let at = 5000 + 1 + good[0].len() + 13;
        let want = format!(
            "43: line 43: byte 13 of the line (byte {at} of the file) is 0xc3, which is not UTF-8"
        );
        assert!(
            seen[1].1.as_ref().is_err_and(|m| m.starts_with(&want)),
            "{:?}",
            seen[1].1
        );
        assert!(seen[1].0.contains('\u{fffd}'));
        let dup = seen[3].1.as_ref().unwrap_err();
        assert!(
            dup.starts_with("45: line 45: vector `") && dup.contains("again: line 42"),
            "{dup}"
        );
    }
}
