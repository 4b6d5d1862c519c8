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
use super::view::{write_request_from, Spans, VectorView};
use crate::golden::Vector;
use std::collections::HashSet;
use std::io::BufRead;
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};

/// Lines per chunk.
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
    cur: std::vec::IntoIter<(Item, usize)>,
    /// The current chunk (its items taken), to hand back.
    shell: Chunk,
    /// Where the next item's request starts in `shell.requests`.
    req_at: usize,
    done: bool,
}

/// Start reading `input` ahead on a thread of `scope`: the checker's end, and the thread, which
/// returns the values it learned from the lines (for the summary's known `rules` numbers).
pub fn start<'scope, 'env, R: BufRead + Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    input: R,
    skip: &'scope HashSet<String>,
) -> (
    ReadAhead,
    std::thread::ScopedJoinHandle<'scope, KnownFields>,
) {
    let (tx, rx) = mpsc::sync_channel(AHEAD);
    let (back_tx, back_rx) = mpsc::channel();
    let handle = scope.spawn(move || read(input, skip, tx, back_rx));
    let ahead = ReadAhead {
        rx,
        back: back_tx,
        cur: Vec::new().into_iter(),
        shell: Chunk::default(),
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
            if let Some((item, end)) = self.cur.next() {
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
                Ok(Ok(mut chunk)) => {
                    self.cur = std::mem::take(&mut chunk.items).into_iter();
                    self.shell = chunk;
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
    skip: &HashSet<String>,
    tx: SyncSender<Result<Chunk, String>>,
    back: Receiver<Chunk>,
) -> KnownFields {
    let mut known = KnownFields::default();
    let mut line_no = 0usize;
    loop {
        let mut chunk = back.try_recv().unwrap_or_default();
        chunk.items.clear();
        chunk.requests.clear();
        let mut error = None;
        let mut end = false;
        while chunk.items.len() < CHUNK {
            let mut line = chunk.spare.pop().unwrap_or_default();
            let plain = match next_line(&mut input, &mut line, &mut line_no) {
                Ok(Some(plain)) => plain,
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
            match parse(line, &mut known, plain, line_no, skip, &mut chunk.requests) {
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

/// Read a vector line (with the fast reader, or else with serde: a vector it reads is written
/// back canonically and read from that) and append its request to `requests`: the item, or the
/// line back when it is skipped (its id in `skip`, or a canonical line the fast reader refuses,
/// which is not reached).
fn parse(
    mut line: String,
    known: &mut KnownFields,
    plain: bool,
    line_no: usize,
    skip: &HashSet<String>,
    requests: &mut Vec<u8>,
) -> Result<Item, String> {
    if let Ok((v, spans)) = VectorView::parse_spans_hinted(&line, known, Some(plain)) {
        let kept = request(&line, &v, &spans, skip, requests);
        drop(v);
        return match kept {
            Some(spans) => Ok(Item::Vector(line, spans)),
            None => Err(line),
        };
    }
    match serde_json::from_str::<Vector>(&line) {
        Ok(v) => {
            line = v.to_line();
            let kept = match VectorView::parse_spans(&line) {
                Ok((v, spans)) => request(&line, &v, &spans, skip, requests),
                Err(_) => None,
            };
            match kept {
                Some(spans) => Ok(Item::Vector(line, spans)),
                None => Err(line),
            }
        }
        Err(e) => Ok(Item::Bad(line, line_no, format!("line {line_no}: {e}"))),
    }
}

/// Append the request of vector `v` (read from `line` with `spans`) unless its id is in
/// `skip`: the spans, or `None` when skipped.
fn request(
    line: &str,
    v: &VectorView,
    spans: &Spans,
    skip: &HashSet<String>,
    requests: &mut Vec<u8>,
) -> Option<Spans> {
    if !skip.is_empty() && skip.contains(v.id.as_ref()) {
        return None;
    }
    write_request_from(line, spans, v, requests);
    Some(*spans)
}

/// Append the next line of `input` to `buf`, newline included (as `BufRead::read_line`, with
/// [`read_line_bytes`]): the number of bytes read (0 at the end) and whether the line without
/// its line end is ASCII and plain ([`super::json::is_plain_ascii`], checked in the pass that
/// stands for the UTF-8 validation).
fn read_line(input: &mut impl BufRead, buf: &mut String) -> std::io::Result<(usize, bool)> {
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
                return Ok((n, true));
            }
            Err(bytes) => bytes,
        }
    } else {
        bytes
    };
    match String::from_utf8(bytes) {
        Ok(s) => {
            *buf = s;
            Ok((n, false))
        }
        Err(_) => Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        )),
    }
}

/// The next vector line of `input` (blank lines skipped) into `buf`: whether it is ASCII and
/// plain ([`read_line`]), or `None` at the end.
fn next_line(
    input: &mut impl BufRead,
    buf: &mut String,
    line_no: &mut usize,
) -> Result<Option<bool>, String> {
    loop {
        buf.clear();
        *line_no += 1;
        match read_line(input, buf) {
            Ok((0, _)) => return Ok(None),
            Ok((_, plain)) => {
                if buf.ends_with('\n') {
                    buf.pop();
                    if buf.ends_with('\r') {
                        buf.pop();
                    }
                }
                if !buf.trim().is_empty() {
                    return Ok(Some(plain));
                }
            }
            Err(e) => return Err(format!("vectors line {line_no}: {e}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufRead as _;

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
        let bad: &[u8] = b"ok\n\xff\xfe\n";
        let mut fast = std::io::BufReader::new(bad);
        let mut std_reader = std::io::BufReader::new(bad);
        let (mut a, mut b) = (String::new(), String::new());
        read_line(&mut fast, &mut a).unwrap();
        std_reader.read_line(&mut b).unwrap();
        let (ea, eb) = (
            read_line(&mut fast, &mut a).unwrap_err(),
            std_reader.read_line(&mut b).unwrap_err(),
        );
        assert_eq!((ea.kind(), ea.to_string()), (eb.kind(), eb.to_string()));
    }
}
