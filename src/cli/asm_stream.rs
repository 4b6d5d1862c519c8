//! `euref asm --gen G (-o FILE | --hex) FILE` in constant memory and on every core (issue 6,
//! streaming).
//!
//! Used when the result cannot depend on text further away than one statement: the input is
//! a regular file, `--compact` is not given, and the text defines no labels and has no `/* */`
//! comment running past its line. The text is parsed and encoded in chunks of whole statements (about [`CHUNK`]
//! bytes, cut at a line end; for Mesa's syntax, whose sends continue on the next line, only
//! after a line ending in `;`) and each chunk's bytes are written in turn. Every sign
//! [`asm::detect_dialect`] looks for lies within one line, so per-chunk answers combine
//! exactly: with `--hex` (standard output, which cannot take back what it printed) a first
//! pass checks the conditions and detects the dialect over the whole text; with `-o` the
//! dialect is guessed from the start of the text and each chunk confirms it (a label fails
//! the chunk's parse, an open block comment the chunk), the output being dropped otherwise. The
//! chunks run on worker threads (one per core, [`THREADS_ENV`] overrides) and their results
//! are taken in file order, with a bounded number of chunks in flight: the output does not
//! depend on the number of threads.
//!
//! With no labels and no `--compact`, [`binary::assemble`] encodes each instruction on its own
//! (its jump offsets are only re-resolved when an instruction marked `{Compacted}` has no
//! compact form, which is an error), so the bytes equal those of the whole-text path; a chunk
//! without `{Compacted}` instructions is encoded instruction by instruction as it is parsed
//! ([`codec::encode`], what [`binary::assemble`] does for them). On any error the whole-text
//! path runs instead (the caller's), so messages, their order and their `line:column` are
//! exactly the same; `-o` output goes to a temporary file renamed at the end (an existing file
//! is left as it was on error: [`AtomicFile`]), while `--hex` lines of the chunks before the
//! failing one are already printed. Only a regular file is streamed (it is opened more than
//! once); a pipe, a named pipe or a device is read once, by the whole-text path.

use super::atomic_file::AtomicFile;
use super::binary;
use super::output;
use euref::asm::{self, Dialect, DialectMarks};
use euref::codec;
use euref::spec::Platform;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};

/// Text per chunk (bytes, before cutting at a line end).
pub const CHUNK: usize = 128 * 1024;

/// Overrides [`CHUNK`] (bytes; tests force small chunks to exercise the boundaries).
pub const CHUNK_ENV: &str = "EUREF_ASM_CHUNK";

/// Overrides the number of worker threads (default: the available parallelism; 1 runs the
/// chunks on the calling thread).
pub const THREADS_ENV: &str = "EUREF_ASM_THREADS";

/// Chunks in flight per worker thread (read, queued, assembled or waiting for their turn).
const IN_FLIGHT: usize = 3;

/// What [`assemble`] did.
pub enum Outcome {
    /// Assembled and written.
    Done(ExitCode),
    /// Streaming does not apply or an error was found: run the whole-text path.
    WholeText,
}

fn env_count(name: &str) -> Option<usize> {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|&n| n > 0)
}

fn threads() -> usize {
    env_count(THREADS_ENV)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .min(64)
}

/// Reads a file in chunks of whole lines; `cut` says whether a chunk may end after a line
/// (given without its `\n`).
struct Chunks<F: Fn(&[u8]) -> bool> {
    file: File,
    /// Text read after the last cut.
    carry: Vec<u8>,
    eof: bool,
    size: usize,
    cut: F,
}

impl<F: Fn(&[u8]) -> bool> Chunks<F> {
    fn new(file: File, size: usize, cut: F) -> Self {
        Chunks {
            file,
            carry: Vec::new(),
            eof: false,
            size,
            cut,
        }
    }

    /// The next chunk, in `buf` (cleared first); None at the end of the file.
    fn next(&mut self, mut buf: Vec<u8>) -> std::io::Result<Option<Vec<u8>>> {
        buf.clear();
        buf.append(&mut self.carry);
        let mut want = self.size;
        loop {
            if !self.eof && buf.len() < want {
                let n = (&mut self.file)
                    .take((want - buf.len()) as u64)
                    .read_to_end(&mut buf)?;
                if n == 0 {
                    self.eof = true;
                }
                continue;
            }
            if self.eof {
                return Ok((!buf.is_empty()).then_some(buf));
            }
            // The last line end after which a chunk may end.
            let mut end = buf.len();
            while let Some(nl) = memchr::memrchr(b'\n', &buf[..end]) {
                let start = memchr::memrchr(b'\n', &buf[..nl]).map_or(0, |i| i + 1);
                if (self.cut)(&buf[start..nl]) {
                    self.carry.extend_from_slice(&buf[nl + 1..]);
                    buf.truncate(nl + 1);
                    return Ok(Some(buf));
                }
                end = nl;
            }
            // No place to cut yet: read more.
            want += want;
        }
    }
}

/// Run `work` over every chunk of `chunks` on `threads` threads and hand the results to
/// `take` in file order, until it returns false (then `Ok(false)`).
fn in_order<F, R>(
    chunks: &mut Chunks<F>,
    threads: usize,
    work: &(dyn Fn(&[u8]) -> R + Sync),
    take: &mut dyn FnMut(R) -> bool,
) -> std::io::Result<bool>
where
    F: Fn(&[u8]) -> bool,
    R: Send,
{
    if threads <= 1 {
        let mut buf = Vec::new();
        while let Some(c) = chunks.next(buf)? {
            if !take(work(&c)) {
                return Ok(false);
            }
            buf = c;
        }
        return Ok(true);
    }
    let stop = AtomicBool::new(false);
    let (job_tx, job_rx) = mpsc::sync_channel::<(usize, Vec<u8>)>(threads);
    let job_rx = Mutex::new(job_rx);
    let (done_tx, done_rx) = mpsc::channel::<(usize, R, Vec<u8>)>();
    std::thread::scope(|s| {
        // Owned here: dropped (ending the workers' loops) before the scope joins them.
        let job_tx = job_tx;
        for _ in 0..threads {
            let (job_rx, done_tx, stop) = (&job_rx, done_tx.clone(), &stop);
            s.spawn(move || loop {
                let job = match job_rx.lock() {
                    Ok(rx) => rx.recv(),
                    Err(_) => return,
                };
                let Ok((k, buf)) = job else { return };
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                if done_tx.send((k, work(&buf), buf)).is_err() {
                    return;
                }
            });
        }
        drop(done_tx);
        // Buffers of taken chunks, for reuse; results that arrived before their turn.
        let mut spare: Vec<Vec<u8>> = Vec::new();
        let mut early = BTreeMap::new();
        let (mut sent, mut next, mut eof) = (0, 0, false);
        let finished = loop {
            while !eof && sent - next < threads * IN_FLIGHT {
                match chunks.next(spare.pop().unwrap_or_default()) {
                    Ok(Some(c)) => {
                        if job_tx.send((sent, c)).is_err() {
                            break;
                        }
                        sent += 1;
                    }
                    Ok(None) => eof = true,
                    Err(e) => {
                        stop.store(true, Ordering::Relaxed);
                        return Err(e);
                    }
                }
            }
            if next == sent {
                break true;
            }
            let Ok((k, r, buf)) = done_rx.recv() else {
                break false;
            };
            spare.push(buf);
            early.insert(k, r);
            let mut go_on = true;
            while let Some(r) = early.remove(&next) {
                next += 1;
                if !take(r) {
                    go_on = false;
                    break;
                }
            }
            if !go_on {
                stop.store(true, Ordering::Relaxed);
                break false;
            }
        };
        Ok(finished)
    })
}

/// Whether a chunk of Mesa text may end after `line`: it ends a statement (`;` last) and has
/// no comment that could hide one.
fn mesa_cut(line: &[u8]) -> bool {
    line.trim_ascii_end().ends_with(b";") && !line.contains(&b'/')
}

/// Whether a `/*` in `c` has no `*/` after it on its line: a block comment may then run past
/// the line end, where a chunk may be cut. (Mesa's listings close theirs on the line:
/// `0x3f000000F /* 0.5F */`.)
fn comment_past_line_end(c: &[u8]) -> bool {
    memchr::memmem::find_iter(c, b"/*").any(|i| {
        let line = &c[i + 2..];
        let line = &line[..memchr::memchr(b'\n', line).unwrap_or(line.len())];
        // Short: a plain search (no searcher to build).
        !line.windows(2).any(|w| w == b"*/")
    })
}

/// What the first pass finds in a chunk: the dialect signs, or that streaming does not apply
/// (labels, or a block comment that may run past its line).
fn scan(c: &[u8]) -> Option<DialectMarks> {
    if comment_past_line_end(c) || asm::defines_labels(c) {
        return None;
    }
    Some(asm::dialect_marks(c))
}

/// Parse and encode one chunk: raw bytes, or hex lines when `hex`; None on any error.
fn assemble_chunk(c: &[u8], d: Dialect, p: Platform, hex: bool) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(if hex { c.len() * 2 } else { c.len() / 2 });
    let mut line = String::new();
    let mut failed = false;
    let whole = asm::parse_each(c, d, p, |insn, _| {
        if insn.ctrl.compacted {
            return false;
        }
        match codec::encode(insn, p) {
            Ok(b) if hex => {
                line.clear();
                binary::hex_line(&mut line, &b);
                out.extend_from_slice(line.as_bytes());
            }
            Ok(b) => out.extend_from_slice(&b),
            Err(_) => failed = true,
        }
        !failed
    })
    .ok()?;
    if failed {
        return None;
    }
    if whole {
        return Some(out);
    }
    // An instruction marked {Compacted}: the chunk as the whole-text path assembles it.
    let prog = asm::parse(c, Some(d), p).ok()?;
    let enc = binary::assemble(&prog.insns, &prog.lines, p, false, false).ok()?;
    out.clear();
    for e in &enc {
        if hex {
            line.clear();
            binary::hex_line(&mut line, e);
            out.extend_from_slice(line.as_bytes());
        } else {
            out.extend_from_slice(e);
        }
    }
    Some(out)
}

/// Assemble `path` to `output` (raw) or to standard output as hex, streaming, or say that
/// the whole-text path must run.
pub fn assemble(
    path: &Path,
    syntax: Option<Dialect>,
    platform: Platform,
    output: Option<&Path>,
) -> Result<Outcome, String> {
    let name = path.display().to_string();
    // The text is read twice (or its start twice): only a regular file can be. A pipe, a
    // named pipe or a device (`<(...)`, /dev/stdin) is read once, by the whole-text path.
    // (Asked without opening: opening a named pipe waits for its writer, and reads from it
    // would take the text from the whole-text path.)
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return Ok(Outcome::WholeText);
    }
    let open = || File::open(path).map_err(|e| format!("{name}: {e}"));
    let read_err = |e: std::io::Error| format!("{name}: {e}");
    let size = env_count(CHUNK_ENV).unwrap_or(CHUNK);
    let threads = threads();
    let hex = output.is_none();
    // The dialect, and whether the chunks must confirm it.
    let (dialect, confirm) = if hex {
        // Standard output cannot take back what it printed: a first pass reads the whole
        // text for labels, block comments and the dialect.
        let mut marks = DialectMarks::default();
        let streams = in_order(
            &mut Chunks::new(open()?, size, |_| true),
            threads,
            &scan,
            &mut |m| m.map(|m| marks = marks.or(m)).is_some(),
        )
        .map_err(read_err)?;
        if !streams {
            return Ok(Outcome::WholeText);
        }
        (syntax.unwrap_or(marks.dialect()), false)
    } else {
        // A file output is discarded on failure: one pass. The dialect is guessed from the
        // start of the text and confirmed chunk by chunk (the output is dropped and the
        // whole-text path runs if the signs of the whole text point elsewhere); a label is an
        // error of `asm::parse_each`, a block comment that may run past its line fails the
        // chunk.
        let mut head = Vec::new();
        open()?
            .take(size as u64)
            .read_to_end(&mut head)
            .map_err(read_err)?;
        match syntax {
            Some(d) => (d, false),
            None => (asm::dialect_marks(&head).dialect(), true),
        }
    };
    // Parse, encode and write chunk by chunk.
    let mut sink = Sink::new(output)?;
    let cut: fn(&[u8]) -> bool = if dialect == Dialect::Mesa {
        mesa_cut
    } else {
        |_| true
    };
    let mut written = Ok(());
    let mut marks = DialectMarks::default();
    let all = in_order(
        &mut Chunks::new(open()?, size, cut),
        threads,
        &|c| {
            if comment_past_line_end(c) {
                return None;
            }
            let m = if confirm {
                asm::dialect_marks(c)
            } else {
                DialectMarks::default()
            };
            Some((m, assemble_chunk(c, dialect, platform, hex)?))
        },
        &mut |r| {
            let Some((m, bytes)) = r else { return false };
            marks = marks.or(m);
            if confirm && marks.dialect() != dialect {
                return false;
            }
            written = sink.write(&bytes);
            written.is_ok()
        },
    );
    match (all, written) {
        (Err(e), _) => {
            sink.discard();
            Err(read_err(e))
        }
        (_, Err(e)) => sink.failed(e),
        (Ok(true), Ok(())) => sink.finish(),
        // A chunk failed: the whole-text path reports the errors.
        (Ok(false), Ok(())) => {
            sink.discard();
            Ok(Outcome::WholeText)
        }
    }
}

/// Where the bytes go: a file (whole or not at all: [`AtomicFile`]) or hex lines on standard
/// output.
enum Sink {
    File(AtomicFile),
    Stdout(output::Stdout),
}

impl Sink {
    fn new(output: Option<&Path>) -> Result<Sink, String> {
        Ok(match output {
            Some(path) => Sink::File(AtomicFile::create(path, 1 << 16)?),
            None => Sink::Stdout(output::stdout()),
        })
    }

    fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        match self {
            Sink::File(out) => out.write_all(bytes),
            Sink::Stdout(out) => out.write_all(bytes),
        }
    }

    /// Drop what was written (an error follows from the whole-text path); the temporary file
    /// of a file output is removed.
    fn discard(self) {}

    /// A write failed: the error naming the destination (a closed pipe where SIGPIPE is
    /// ignored: done, quietly).
    fn failed(self, e: std::io::Error) -> Result<Outcome, String> {
        let dest = match &self {
            Sink::File(_) => "the output file",
            Sink::Stdout(_) => output::STDOUT,
        };
        output::settle(Err(e), dest)?;
        Ok(Outcome::Done(ExitCode::SUCCESS))
    }

    fn finish(self) -> Result<Outcome, String> {
        match self {
            Sink::File(f) => f.commit()?,
            Sink::Stdout(out) => output::finish(out, Ok(()))?,
        }
        Ok(Outcome::Done(ExitCode::SUCCESS))
    }
}
