//! Where the subcommands' output goes, with failed writes never silent (issue 26).
//!
//! Every subcommand writes its standard output through [`stdout`]: a buffered writer whose
//! errors carry the destination's name ([`Named`], "standard output" or the `-o` file), so that
//! a failed write is told apart from a failed read of the input and reported as
//! `writing to standard output: No space left on device (os error 28)`. [`settle`] turns the
//! result of the writes (the final flush included) into the command's error.
//!
//! A closed pipe (`euref disasm big.bin | head`): `main` restores the default SIGPIPE
//! disposition, so the first write to it ends the process quietly, as it ends Unix tools (exit
//! status 141 in a shell, no message). Where SIGPIPE is ignored (`euref check`, which must
//! survive a simulator that exits, and `euref sim`), the write fails with EPIPE instead, and
//! [`settle`] takes that as a quiet end of the output: nothing is reported, the command ends
//! with the status of what it did. Every other failure (a full disk, `> /dev/full`, an I/O
//! error) is an error with status 2.

use std::io::{self, BufWriter, Write};

/// The name of standard output in messages.
pub const STDOUT: &str = "standard output";

/// Bytes of buffer of [`stdout`].
const BUFFER: usize = 1 << 16;

/// A write to `dest` that failed.
#[derive(Debug, thiserror::Error)]
#[error("writing to {dest}: {source}")]
pub struct WriteError {
    pub dest: String,
    #[source]
    pub source: io::Error,
}

/// A writer whose errors say where the bytes were going: each is an [`io::Error`] of the same
/// kind holding a [`WriteError`] (see [`write_error`]).
pub struct Named<W: Write> {
    inner: W,
    dest: String,
}

impl<W: Write> Named<W> {
    pub fn new(inner: W, dest: impl Into<String>) -> Named<W> {
        Named {
            inner,
            dest: dest.into(),
        }
    }

    /// The destination's name, as errors give it.
    pub fn dest(&self) -> &str {
        &self.dest
    }

    /// The wrapped writer (nothing is flushed).
    pub fn into_inner(self) -> W {
        self.inner
    }

    fn tag(&self, e: io::Error) -> io::Error {
        if write_error(&e).is_some() {
            return e;
        }
        let kind = e.kind();
        io::Error::new(
            kind,
            WriteError {
                dest: self.dest.clone(),
                source: e,
            },
        )
    }
}

impl<W: Write> Write for Named<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf).map_err(|e| self.tag(e))
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.inner.write_all(buf).map_err(|e| self.tag(e))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush().map_err(|e| self.tag(e))
    }
}

/// The [`WriteError`] inside `e`, if `e` is the failure of a [`Named`] writer.
pub fn write_error(e: &io::Error) -> Option<&WriteError> {
    e.get_ref()?.downcast_ref::<WriteError>()
}

/// Standard output, buffered, its errors naming it. Flush it at the end (through [`settle`]
/// or [`finish`]): dropping it drops a failed last flush unseen.
pub type Stdout = Named<BufWriter<io::StdoutLock<'static>>>;

/// Standard output, buffered ([`BUFFER`] bytes), its errors naming it.
pub fn stdout() -> Stdout {
    Named::new(
        BufWriter::with_capacity(BUFFER, io::stdout().lock()),
        STDOUT,
    )
}

/// The outcome of writing output: `Ok` when everything was written or the reader went away
/// (EPIPE, a closed pipe where SIGPIPE is ignored), otherwise the message to report, naming
/// the destination (`dest` when the error does not name one itself).
pub fn settle(r: io::Result<()>, dest: &str) -> Result<(), String> {
    match r {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(describe(&e, dest)),
    }
}

/// The message of a failed write: the [`WriteError`] inside `e`, or `e` as a failure of
/// writing to `dest`.
pub fn describe(e: &io::Error, dest: &str) -> String {
    match write_error(e) {
        Some(w) => w.to_string(),
        None => format!("writing to {dest}: {e}"),
    }
}

/// Flush `out` and settle the outcome of `written` (what writing to it gave) and of the flush.
pub fn finish<W: Write>(mut out: Named<W>, written: io::Result<()>) -> Result<(), String> {
    let dest = out.dest.clone();
    settle(written.and_then(|_| out.flush()), &dest)
}

/// Write `bytes` to standard output and flush it.
pub fn print(bytes: &[u8]) -> Result<(), String> {
    let mut out = stdout();
    let r = out.write_all(bytes);
    finish(out, r)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that fails every write with `kind`.
    struct Failing(io::ErrorKind);

    impl Write for Failing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(self.0))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failed_write_names_its_destination_once() {
        let mut w = Named::new(Failing(io::ErrorKind::StorageFull), "out.bin");
        let e = w.write_all(b"x").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::StorageFull);
        assert_eq!(write_error(&e).map(|w| w.dest.as_str()), Some("out.bin"));
        // Through a second layer: still named once, by the inner one.
        let mut outer = Named::new(Named::new(Failing(io::ErrorKind::Other), "a"), "b");
        let e = outer.write_all(b"x").unwrap_err();
        let msg = settle(Err(e), "c").unwrap_err();
        assert!(msg.starts_with("writing to a: "), "{msg}");
    }

    #[test]
    fn a_closed_pipe_is_quiet_and_other_errors_are_not() {
        let mut w = Named::new(Failing(io::ErrorKind::BrokenPipe), STDOUT);
        assert_eq!(settle(w.write_all(b"x"), STDOUT), Ok(()));
        let mut w = Named::new(Failing(io::ErrorKind::StorageFull), STDOUT);
        let msg = settle(w.write_all(b"x"), STDOUT).unwrap_err();
        assert!(msg.starts_with("writing to standard output: "), "{msg}");
        // An error of no named writer gets the name given.
        let msg = settle(Err(io::Error::other("boom")), "v.jsonl").unwrap_err();
        assert_eq!(msg, "writing to v.jsonl: boom");
    }
}
