//! The simulator under test as a subprocess: batches of requests go to its stdin, what it
//! prints is read into one buffer and split into lines here, and a wait for a response has a
//! deadline, so a hung simulator costs one timeout and never blocks the checker. On Unix the
//! checking thread drives both pipes itself ([`pipes`]: non-blocking, `poll`); elsewhere a
//! writer and a reader thread do.

use std::io::{Read as _, Write as _};
use std::process::{Child, ChildStderr, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

#[cfg(unix)]
mod pipes;
/// The portable pipes (a writer and a reader thread): used where `poll` is not at hand, built
/// and tested everywhere.
#[cfg_attr(unix, allow(dead_code))]
mod threads;
#[cfg(not(unix))]
use threads as pipes;

/// What a read of the simulator's output gave.
enum Read {
    /// This many bytes.
    Data(usize),
    /// The end of the output.
    Eof,
    /// Nothing before the deadline.
    Nothing,
}

/// Room kept free for a read of the simulator's output.
const READ: usize = 1 << 16;

/// The longest response line taken from a simulator, its line end excluded (4 MiB; a
/// response to the largest request, every register of a platform in hex, is far below 64 KiB):
/// a longer line, or that many bytes without a line end, is no response (conformance/PROTOCOL.md),
/// and reading it stops there, so a simulator that prints without line ends costs the checker
/// this much memory at most.
pub const MAX_RESPONSE_LINE: usize = 4 << 20;

/// Bytes of a line longer than [`MAX_RESPONSE_LINE`] kept (its start, to show).
const TOO_LONG_HEAD: usize = 256;

/// Why no response came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecvError {
    Timeout,
    /// The simulator closed its output (exited); its exit status if known.
    Exited(String),
    /// More than [`MAX_RESPONSE_LINE`] bytes came without a line end: the first bytes of the
    /// line (at most 256).
    TooLong(Vec<u8>),
}

impl RecvError {
    /// The message of a [`RecvError::TooLong`] line.
    pub fn too_long_message() -> String {
        format!(
            "response line longer than {MAX_RESPONSE_LINE} bytes (4 MiB, the protocol's limit: \
             conformance/PROTOCOL.md): a simulator ends every response with a line end"
        )
    }
}

/// The last bytes of the simulator's standard error kept (for the error when it cannot start).
const STDERR_TAIL: usize = 2048;

/// A running simulator.
pub struct SimProcess {
    child: Child,
    io: pipes::Pipes,
    /// The end of what it wrote to standard error (which is passed through as it comes), and
    /// whether that stream has ended.
    stderr: Arc<Mutex<(Vec<u8>, bool)>>,
    /// A line has come from it.
    answered: bool,
    /// Its exit code, once known ([`SimProcess::exit_status`]).
    code: Option<i32>,
    /// Received bytes not yet returned as lines: `buf[start..end]`.
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// The output has ended.
    eof: bool,
}

impl SimProcess {
    /// Start `cmd` through `sh -c` (so `'CMD ARGS'` with quoting works).
    pub fn spawn(cmd: &str) -> std::io::Result<SimProcess> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {cmd}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let stderr = Arc::new(Mutex::new((Vec::new(), false)));
        if let Some(err) = child.stderr.take() {
            pass_stderr(err, stderr.clone());
        }
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| std::io::Error::other("no stdin"))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| std::io::Error::other("no stdout"))?;
        let io = match pipes::Pipes::new(stdin, stdout) {
            Ok(io) => io,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(e);
            }
        };
        Ok(SimProcess {
            child,
            io,
            stderr,
            answered: false,
            code: None,
            buf: vec![0; 4 * READ],
            start: 0,
            end: 0,
            eof: false,
        })
    }

    /// Send complete request lines (each ending in a newline): written at once as far as the
    /// pipe takes them, the rest while waiting for responses.
    pub fn send_bytes(&mut self, lines: &[u8]) {
        self.io.send(lines);
    }

    /// Room for a read after `end` (what was received and not taken moved to the front).
    fn make_room(&mut self) {
        if self.start == self.end {
            (self.start, self.end) = (0, 0);
        }
        if self.buf.len() - self.end < READ && self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            (self.start, self.end) = (0, self.end - self.start);
        }
        if self.buf.len() - self.end < READ {
            // A line longer than what there is room for: more room.
            self.buf.resize(self.end + 2 * READ, 0);
        }
    }

    /// Read more output, waiting until `deadline` (`None`: not at all): whether anything
    /// came (or the output ended).
    fn fill(&mut self, deadline: Option<Instant>) -> bool {
        self.make_room();
        match self.io.read(&mut self.buf[self.end..], deadline) {
            Read::Data(n) => self.end += n,
            Read::Eof => self.eof = true,
            Read::Nothing => return false,
        }
        true
    }

    /// Whether a whole response line has already arrived (`recv_line` will not wait).
    pub fn has_line(&mut self) -> bool {
        let has = |p: &Self| p.eof || memchr::memchr(b'\n', &p.buf[p.start..p.end]).is_some();
        has(self) || (self.fill(None) && has(self))
    }

    /// The next response line (without its newline; a last line without one counts). A line
    /// longer than [`MAX_RESPONSE_LINE`] is not read further ([`RecvError::TooLong`]; the
    /// simulator is to be restarted: where its next line starts is not known).
    pub fn recv_line(&mut self, timeout: Duration) -> Result<&[u8], RecvError> {
        let deadline = Instant::now() + timeout;
        // Where the search for a newline goes on (the bytes before it have none).
        let mut from = self.start;
        loop {
            let newline = memchr::memchr(b'\n', &self.buf[from..self.end]);
            let len = newline.map_or(self.end, |k| from + k) - self.start;
            if len > MAX_RESPONSE_LINE {
                self.answered = true;
                let head = &self.buf[self.start..self.start + TOO_LONG_HEAD];
                return Err(RecvError::TooLong(head.to_vec()));
            }
            if let Some(k) = newline {
                let start = self.start;
                self.start = from + k + 1;
                self.answered = true;
                return Ok(&self.buf[start..from + k]);
            }
            if self.eof {
                if self.start < self.end {
                    self.answered = true;
                    let start = self.start;
                    self.start = self.end;
                    return Ok(&self.buf[start..self.end]);
                }
                return Err(RecvError::Exited(self.exit_status()));
            }
            let seen = self.end - self.start;
            if !self.fill(Some(deadline)) {
                return Err(RecvError::Timeout);
            }
            from = self.start + seen;
        }
    }

    /// The next response line, newline included.
    pub fn recv(&mut self, timeout: Duration) -> Result<String, RecvError> {
        self.recv_line(timeout)
            .map(|l| format!("{}\n", String::from_utf8_lossy(l)))
    }

    fn exit_status(&mut self) -> String {
        // Give the process a moment to be reaped for its status.
        for _ in 0..50 {
            if let Ok(Some(s)) = self.child.try_wait() {
                self.code = s.code();
                return format!("exited ({s})");
            }
            thread::sleep(Duration::from_millis(2));
        }
        String::from("closed its output")
    }

    /// Whether any line has come from the simulator since it started.
    pub fn answered(&self) -> bool {
        self.answered
    }

    /// Its exit code, when it has exited and the code is known (not for a signal).
    pub fn exit_code(&self) -> Option<i32> {
        self.code
    }

    /// The end of what it wrote to standard error (at most the last 2 KiB, lossy UTF-8),
    /// after waiting a moment for the stream to end when it has exited.
    pub fn stderr_tail(&self) -> String {
        for _ in 0..100 {
            match self.stderr.lock() {
                Ok(g) if !g.1 => {}
                _ => break,
            }
            thread::sleep(Duration::from_millis(2));
        }
        match self.stderr.lock() {
            Ok(g) => String::from_utf8_lossy(&g.0).trim().to_string(),
            Err(_) => String::new(),
        }
    }

    /// Kill and reap the process.
    pub fn kill(&mut self) {
        self.io.close_input();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Pass the simulator's standard error through to ours as it comes, keeping its last
/// [`STDERR_TAIL`] bytes in `tail` (and noting its end), on a thread of its own.
fn pass_stderr(mut err: ChildStderr, tail: Arc<Mutex<(Vec<u8>, bool)>>) {
    let run = move || {
        let mut chunk = [0u8; 4096];
        loop {
            let n = match err.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            let _ = std::io::stderr().write_all(&chunk[..n]);
            if let Ok(mut g) = tail.lock() {
                g.0.extend_from_slice(&chunk[..n]);
                let extra = g.0.len().saturating_sub(STDERR_TAIL);
                g.0.drain(..extra);
            }
        }
        if let Ok(mut g) = tail.lock() {
            g.1 = true;
        }
    };
    // (Without a thread, standard error is not passed through, and the tail stays empty.)
    let _ = thread::Builder::new().name("sim-stderr".into()).spawn(run);
}

impl Drop for SimProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the simulator prints arrives whole and in order, line by line, however its
    /// writes and the reads cut it: short and long lines, a line longer than the buffer, and a
    /// last line without a newline; then the exit.
    #[test]
    fn output_is_received_line_by_line() {
        let mut text = Vec::new();
        for k in 0..300usize {
            let len = [1, 90, 200, 3, 300_000][k % 5] + k % 7;
            text.extend(std::iter::repeat_n(b'a' + (k % 26) as u8, len));
            text.push(b'\n');
        }
        text.extend_from_slice(b"cut off");
        let dir = tempfile::Builder::new()
            .prefix("euref-runner-")
            .tempdir()
            .unwrap();
        let f = dir.path().join("output.txt");
        std::fs::write(&f, &text).unwrap();
        let mut sim = SimProcess::spawn(&format!("cat {}", f.display())).unwrap();
        let mut got = Vec::new();
        loop {
            match sim.recv_line(Duration::from_secs(20)) {
                Ok(l) => {
                    got.extend_from_slice(l);
                    got.push(b'\n');
                }
                Err(e) => {
                    assert!(matches!(e, RecvError::Exited(_)), "{e:?}");
                    break;
                }
            }
        }
        assert_eq!(got.len(), text.len() + 1);
        assert!(got[..text.len()] == text[..]);
    }

    /// Issue 26: a line of exactly [`MAX_RESPONSE_LINE`] bytes is a line; one byte more, and
    /// output without any line end, is [`RecvError::TooLong`] with its first 256 bytes, read
    /// no further than the limit and a read's room past it.
    #[test]
    fn lines_longer_than_the_limit_are_cut_short() {
        let max = MAX_RESPONSE_LINE;
        let script = format!(
            "head -c {max} /dev/zero | tr '\\0' a; echo; head -c {} /dev/zero | tr '\\0' b; echo",
            max + 1
        );
        let mut sim = SimProcess::spawn(&format!("sh -c \"{script}\"")).unwrap();
        let line = sim.recv_line(Duration::from_secs(20)).unwrap();
        assert!(line.len() == max && line.iter().all(|&c| c == b'a'));
        let r = sim.recv_line(Duration::from_secs(20));
        assert_eq!(r, Err(RecvError::TooLong(vec![b'b'; 256])));
        let mut sim = SimProcess::spawn("cat /dev/zero").unwrap();
        let r = sim.recv_line(Duration::from_secs(20));
        assert_eq!(r, Err(RecvError::TooLong(vec![0; 256])));
        assert!(sim.buf.len() <= max + 4 * READ, "{}", sim.buf.len());
    }

    /// Requests far larger than the pipes hold, sent at once to a simulator that echoes them
    /// (and so stops reading while its output is not read), all come back in order: what
    /// the input pipe does not take is written while the checker waits for output.
    #[test]
    fn large_batches_are_written_while_responses_are_read() {
        let mut sim = SimProcess::spawn("cat").unwrap();
        let lines: Vec<String> = (0..40_000).map(|k| format!("{k:0>120}")).collect();
        let mut batch = Vec::new();
        for l in &lines {
            batch.extend_from_slice(l.as_bytes());
            batch.push(b'\n');
        }
        sim.send_bytes(&batch[..batch.len() / 3]);
        sim.send_bytes(&batch[batch.len() / 3..]);
        for l in &lines {
            assert_eq!(sim.recv_line(Duration::from_secs(20)), Ok(l.as_bytes()));
        }
        assert!(!sim.has_line());
        sim.kill();
        assert!(sim.has_line());
    }

    /// A simulator that answers nothing costs one timeout; one that has exited reports it,
    /// also while requests are still being sent to it.
    #[test]
    fn silence_times_out_and_an_exit_is_reported() {
        let mut sim = SimProcess::spawn("sleep 30").unwrap();
        let t = Instant::now();
        assert_eq!(
            sim.recv_line(Duration::from_millis(100)),
            Err(RecvError::Timeout)
        );
        assert!(t.elapsed() >= Duration::from_millis(100));
        let mut sim = SimProcess::spawn("true").unwrap();
        sim.send_bytes(&vec![b'\n'; 4 << 20]);
        let r = sim.recv_line(Duration::from_secs(20));
        assert!(
            matches!(r, Err(RecvError::Exited(ref s)) if s.starts_with("exited")),
            "{r:?}"
        );
    }
}
