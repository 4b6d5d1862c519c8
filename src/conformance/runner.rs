//! The simulator under test as a subprocess: batches of requests go to its stdin through a
//! writer thread, what it prints comes back in chunks through a reader thread and a channel
//! and is split into lines here, so a hung simulator costs one `recv_timeout` and never
//! blocks the checker.

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

/// What the reader thread saw.
enum Event {
    /// Bytes read from the simulator's stdout (any number of lines, possibly a partial one).
    Data(Vec<u8>),
    Eof,
}

/// Why no response came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecvError {
    Timeout,
    /// The simulator closed its output (exited); its exit status if known.
    Exited(String),
}

/// A running simulator.
pub struct SimProcess {
    child: Child,
    to_writer: Option<Sender<Vec<u8>>>,
    from_reader: Receiver<Event>,
    /// Received bytes not yet returned as lines: `buf[pos..]`.
    buf: Vec<u8>,
    pos: usize,
    /// The reader saw the end of the output.
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
            .stderr(Stdio::inherit())
            .spawn()?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| std::io::Error::other("no stdin"))?;
        let mut stdout = child
            .stdout
            .take()
            .ok_or_else(|| std::io::Error::other("no stdout"))?;
        let (tx, rx) = mpsc::channel::<Vec<u8>>();
        thread::spawn(move || writer(stdin, rx));
        let (etx, erx) = mpsc::channel::<Event>();
        thread::spawn(move || read_output(&mut stdout, &etx));
        Ok(SimProcess {
            child,
            to_writer: Some(tx),
            from_reader: erx,
            buf: Vec::new(),
            pos: 0,
            eof: false,
        })
    }

    /// Queue one request line (without newline).
    pub fn send(&self, line: String) {
        let mut b = line.into_bytes();
        b.push(b'\n');
        self.send_bytes(b);
    }

    /// Queue complete request lines (each ending in a newline).
    pub fn send_bytes(&self, lines: Vec<u8>) {
        if let Some(tx) = &self.to_writer {
            let _ = tx.send(lines);
        }
    }

    /// Take what the reader thread has already delivered, without waiting.
    fn gather(&mut self) {
        while let Ok(ev) = self.from_reader.try_recv() {
            self.take(ev);
        }
    }

    fn take(&mut self, ev: Event) {
        match ev {
            Event::Data(d) => {
                if self.pos == self.buf.len() {
                    self.buf = d;
                    self.pos = 0;
                } else {
                    if self.pos > 0 {
                        self.buf.drain(..self.pos);
                        self.pos = 0;
                    }
                    self.buf.extend_from_slice(&d);
                }
            }
            Event::Eof => self.eof = true,
        }
    }

    /// Whether a whole response line has already arrived (`recv_line` will not wait).
    pub fn has_line(&mut self) -> bool {
        // (What has arrived is taken only when the lines at hand are used up: whole lines
        // then replace the buffer instead of being appended to it.)
        let has = |p: &Self| p.eof || memchr::memchr(b'\n', &p.buf[p.pos..]).is_some();
        if has(self) {
            return true;
        }
        self.gather();
        has(self)
    }

    /// The next response line (without its newline; a last line without one counts).
    pub fn recv_line(&mut self, timeout: Duration) -> Result<&[u8], RecvError> {
        let deadline = Instant::now() + timeout;
        loop {
            let rest = &self.buf[self.pos..];
            if let Some(k) = memchr::memchr(b'\n', rest) {
                let start = self.pos;
                self.pos += k + 1;
                return Ok(&self.buf[start..start + k]);
            }
            if self.eof {
                if !rest.is_empty() {
                    let start = self.pos;
                    self.pos = self.buf.len();
                    return Ok(&self.buf[start..]);
                }
                return Err(RecvError::Exited(self.exit_status()));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.from_reader.recv_timeout(left) {
                Ok(ev) => self.take(ev),
                Err(RecvTimeoutError::Disconnected) => self.eof = true,
                Err(RecvTimeoutError::Timeout) => return Err(RecvError::Timeout),
            }
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
                return format!("exited ({s})");
            }
            thread::sleep(Duration::from_millis(2));
        }
        String::from("closed its output")
    }

    /// Kill and reap the process.
    pub fn kill(&mut self) {
        self.to_writer = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for SimProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The reader thread: what the simulator prints, over `etx` in whole lines (the part of a
/// read after its last newline waits for the next read, so that the checker, which takes the
/// lines, need not join pieces), then `Eof`. One buffer is read into; what goes over is a
/// vector of its size (a fresh 64 KiB vector per read cost a zeroed allocation each time).
fn read_output(stdout: &mut impl Read, etx: &Sender<Event>) {
    const READ: usize = 1 << 16;
    let mut buf = vec![0u8; READ];
    // `buf[..kept]`: read, not sent (no newline in it).
    let mut kept = 0;
    loop {
        if buf.len() - kept < READ / 2 {
            // A line longer than what is kept room for: more room.
            buf.resize(buf.len() + READ, 0);
        }
        let n = match stdout.read(&mut buf[kept..]) {
            Ok(0) | Err(_) => {
                if kept > 0 {
                    let _ = etx.send(Event::Data(buf[..kept].to_vec()));
                }
                let _ = etx.send(Event::Eof);
                return;
            }
            Ok(n) => n,
        };
        let end = kept + n;
        let Some(last) = memchr::memrchr(b'\n', &buf[kept..end]) else {
            kept = end;
            continue;
        };
        let upto = kept + last + 1;
        if etx.send(Event::Data(buf[..upto].to_vec())).is_err() {
            return;
        }
        buf.copy_within(upto..end, 0);
        kept = end - upto;
    }
}

fn writer(mut stdin: ChildStdin, rx: Receiver<Vec<u8>>) {
    while let Ok(lines) = rx.recv() {
        if stdin.write_all(&lines).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that returns its text (from byte `at`) in pieces of the given sizes, in turn.
    struct Pieces {
        text: Vec<u8>,
        at: usize,
        sizes: Vec<usize>,
        reads: usize,
    }
    impl Read for Pieces {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let size = self.sizes[self.reads % self.sizes.len()];
            let n = size.min(buf.len()).min(self.text.len() - self.at);
            self.reads += 1;
            buf[..n].copy_from_slice(&self.text[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    /// What the simulator prints arrives whole and in order, in whole lines but the last (a
    /// line without a newline at the end of the output), however the reads cut it: short
    /// and long lines, a line longer than a read, and several lines per read.
    #[test]
    fn output_goes_over_in_whole_lines() {
        let mut text = Vec::new();
        for k in 0..300usize {
            let len = [1, 90, 200, 3, 70_000][k % 5] + k % 7;
            text.extend(std::iter::repeat_n(b'a' + (k % 26) as u8, len));
            text.push(b'\n');
        }
        for last in [&b""[..], b"cut off"] {
            let mut all = text.clone();
            all.extend_from_slice(last);
            for sizes in [vec![1 << 16], vec![1, 7, 4096, 100_000], vec![333]] {
                let (tx, rx) = mpsc::channel();
                let mut input = Pieces {
                    text: all.clone(),
                    at: 0,
                    sizes,
                    reads: 0,
                };
                read_output(&mut input, &tx);
                drop(tx);
                let events: Vec<Event> = rx.iter().collect();
                let Some((Event::Eof, data)) = events.split_last() else {
                    panic!("no end");
                };
                let mut got = Vec::new();
                for (k, e) in data.iter().enumerate() {
                    let Event::Data(d) = e else {
                        panic!("two ends")
                    };
                    let whole = k + 1 < data.len() || last.is_empty();
                    assert!(!d.is_empty() && (!whole || d.ends_with(b"\n")));
                    got.extend_from_slice(d);
                }
                assert!(got == all);
            }
        }
    }
}
