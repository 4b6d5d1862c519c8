//! `euref asm --gen G (-o FILE | --hex) FILE` in constant memory (issue 6, streaming).
//!
//! Used when the result cannot depend on text further away than one statement: the input is
//! a file (it is read twice), `--compact` is not given, and the text defines no labels and has
//! no `/* */` comments. A first pass checks that and detects the dialect over the whole text
//! (every sign [`asm::detect_dialect`] looks for lies within one line, so per-chunk answers
//! combine exactly); the second parses and encodes chunks of whole statements (about
//! [`CHUNK`] bytes, cut at a line end; for Mesa's syntax, whose sends continue on the next
//! line, only after a line ending in `;`) and writes each chunk's bytes.
//!
//! With no labels and no `--compact`, [`binary::assemble`] encodes each instruction on its own
//! (its jump offsets are only re-resolved when an instruction marked `{Compacted}` has no
//! compact form, which is an error), so the bytes equal those of the whole-text path. On any
//! error the whole-text path runs instead (the caller's), so messages, their order and their
//! `line:column` are exactly the same; `-o` output goes to a temporary file renamed at the end
//! (an existing file is left as it was on error), while `--hex` lines of the chunks before the
//! failing one are already printed.

use super::binary;
use euref::asm::{self, Dialect};
use euref::spec::Platform;
use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Text per chunk (bytes, before cutting at a line end).
pub const CHUNK: usize = 64 * 1024;

/// Overrides [`CHUNK`] (bytes; tests force small chunks to exercise the boundaries).
pub const CHUNK_ENV: &str = "EUREF_ASM_CHUNK";

/// What [`assemble`] did.
pub enum Outcome {
    /// Assembled and written.
    Done(ExitCode),
    /// Streaming does not apply or an error was found: run the whole-text path.
    WholeText,
}

fn chunk_size() -> usize {
    std::env::var(CHUNK_ENV)
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or(CHUNK)
}

/// Reads a file in chunks of whole lines; `cut` says whether a chunk may end after a line
/// (given without its `\n`).
struct Chunks<F: Fn(&[u8]) -> bool> {
    file: File,
    buf: Vec<u8>,
    /// Bytes of `buf` already handed out.
    done: usize,
    eof: bool,
    size: usize,
    cut: F,
}

impl<F: Fn(&[u8]) -> bool> Chunks<F> {
    fn new(file: File, size: usize, cut: F) -> Self {
        Chunks {
            file,
            buf: Vec::with_capacity(size * 2),
            done: 0,
            eof: false,
            size,
            cut,
        }
    }

    /// The next chunk (empty at the end of the file).
    fn next(&mut self) -> std::io::Result<&[u8]> {
        self.buf.drain(..self.done);
        self.done = 0;
        loop {
            if !self.eof && self.buf.len() < self.size {
                let want = self.size - self.buf.len();
                let n = (&mut self.file)
                    .take(want as u64)
                    .read_to_end(&mut self.buf)?;
                if n == 0 {
                    self.eof = true;
                }
                continue;
            }
            if self.eof {
                self.done = self.buf.len();
                return Ok(&self.buf);
            }
            // The last line end after which a chunk may end.
            let mut end = self.buf.len();
            while let Some(nl) = memchr::memrchr(b'\n', &self.buf[..end]) {
                let start = memchr::memrchr(b'\n', &self.buf[..nl]).map_or(0, |i| i + 1);
                if (self.cut)(&self.buf[start..nl]) {
                    self.done = nl + 1;
                    return Ok(&self.buf[..nl + 1]);
                }
                end = nl;
            }
            // No place to cut yet: read more.
            self.size += self.size;
        }
    }
}

/// Whether a chunk of Mesa text may end after `line`: it ends a statement (`;` last) and has
/// no comment that could hide one.
fn mesa_cut(line: &[u8]) -> bool {
    line.trim_ascii_end().ends_with(b";") && !line.contains(&b'/')
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
    let open = || File::open(path).map_err(|e| format!("{name}: {e}"));
    let read_err = |e: std::io::Error| format!("{name}: {e}");
    let size = chunk_size();
    // Pass 1: labels, block comments and the dialect over the whole text.
    let (mut mesa, mut iga) = (false, false);
    let mut chunks = Chunks::new(open()?, size, |_| true);
    loop {
        let c = chunks.next().map_err(read_err)?;
        if c.is_empty() {
            break;
        }
        if binary::defines_labels(c) || memchr::memmem::find(c, b"/*").is_some() {
            return Ok(Outcome::WholeText);
        }
        match asm::detect_dialect(c) {
            Dialect::Mesa => mesa = true,
            Dialect::Iga => iga = true,
            Dialect::Prm => {}
        }
    }
    let dialect = syntax.unwrap_or(if mesa {
        Dialect::Mesa
    } else if iga {
        Dialect::Iga
    } else {
        Dialect::Prm
    });
    // Pass 2: parse, encode and write chunk by chunk.
    let mut sink = Sink::new(output)?;
    let cut: fn(&[u8]) -> bool = if dialect == Dialect::Mesa {
        mesa_cut
    } else {
        |_| true
    };
    let mut chunks = Chunks::new(open()?, size, cut);
    let mut hex = String::new();
    loop {
        let c = match chunks.next() {
            Ok([]) => break,
            Ok(c) => c,
            Err(e) => {
                sink.discard();
                return Err(read_err(e));
            }
        };
        let Ok(prog) = asm::parse(c, Some(dialect), platform) else {
            sink.discard();
            return Ok(Outcome::WholeText);
        };
        let Ok(enc) = binary::assemble(&prog.insns, &prog.lines, platform, false, false) else {
            sink.discard();
            return Ok(Outcome::WholeText);
        };
        let written = match &mut sink {
            Sink::File { out, .. } => enc.iter().try_for_each(|e| out.write_all(e)),
            Sink::Stdout(out) => {
                hex.clear();
                for e in &enc {
                    binary::hex_line(&mut hex, e);
                }
                out.write_all(hex.as_bytes())
            }
        };
        if let Err(e) = written {
            return sink.failed(e);
        }
    }
    sink.finish()
}

/// Where the bytes go: a file (through a temporary one when it is a regular file, renamed at
/// the end) or hex lines on standard output.
enum Sink {
    File {
        out: std::io::BufWriter<File>,
        path: PathBuf,
        temp: Option<PathBuf>,
    },
    Stdout(std::io::BufWriter<std::io::StdoutLock<'static>>),
}

impl Sink {
    fn new(output: Option<&Path>) -> Result<Sink, String> {
        let Some(path) = output else {
            return Ok(Sink::Stdout(std::io::BufWriter::with_capacity(
                1 << 16,
                std::io::stdout().lock(),
            )));
        };
        let shown = |e: std::io::Error| format!("{}: {e}", path.display());
        // Devices and pipes (`-o /dev/stdout`) are written in place.
        let regular = std::fs::metadata(path).map_or(true, |m| m.is_file());
        let temp = regular.then(|| {
            let mut name = std::ffi::OsString::from(".");
            name.push(path.file_name().unwrap_or_default());
            name.push(format!(".euref-asm-{}", std::process::id()));
            path.with_file_name(name)
        });
        let file = File::create(temp.as_deref().unwrap_or(path)).map_err(shown)?;
        Ok(Sink::File {
            out: std::io::BufWriter::with_capacity(1 << 16, file),
            path: path.to_path_buf(),
            temp,
        })
    }

    /// Drop what was written (an error follows from the whole-text path).
    fn discard(self) {
        if let Sink::File {
            out, temp: Some(t), ..
        } = self
        {
            drop(out);
            let _ = std::fs::remove_file(t);
        }
    }

    fn failed(self, e: std::io::Error) -> Result<Outcome, String> {
        match self {
            Sink::File { out, path, temp } => {
                drop(out);
                if let Some(t) = temp {
                    let _ = std::fs::remove_file(t);
                }
                Err(format!("{}: {e}", path.display()))
            }
            // A closed pipe (e.g. `euref asm --hex f | head`) is not an error worth reporting.
            Sink::Stdout(_) => Ok(Outcome::Done(ExitCode::SUCCESS)),
        }
    }

    fn finish(self) -> Result<Outcome, String> {
        match self {
            Sink::File { out, path, temp } => {
                let shown = |e: std::io::Error| format!("{}: {e}", path.display());
                out.into_inner().map_err(|e| shown(e.into_error()))?;
                if let Some(t) = temp {
                    std::fs::rename(&t, &path).map_err(|e| {
                        let _ = std::fs::remove_file(&t);
                        shown(e)
                    })?;
                }
            }
            Sink::Stdout(mut out) => {
                let _ = out.flush();
            }
        }
        Ok(Outcome::Done(ExitCode::SUCCESS))
    }
}
