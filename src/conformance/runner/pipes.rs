//! The simulator's pipes on Unix, driven by the checking thread itself: both ends are
//! non-blocking and 1 MiB large, requests are written as far as the pipe takes them (the rest
//! waits in [`Pipes::pending`] and is written while the checker waits for output), and a wait
//! for output is one `poll` on both pipes. No thread stands between the checker and the
//! simulator, so a batch of requests and its responses cost no hand-over between threads.

use super::Read;
use std::io::{ErrorKind, Read as _, Write as _};
use std::os::fd::{AsRawFd, RawFd};
use std::process::{ChildStdin, ChildStdout};
use std::time::Instant;

/// The pipe size asked for (Linux's default upper limit for unprivileged processes).
const PIPE_BYTES: i32 = 1 << 20;

/// The simulator's stdin and stdout, non-blocking.
pub(super) struct Pipes {
    /// `None` once closed (by [`Pipes::close_input`] or a failed write).
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    /// Request bytes the pipe did not take yet: `pending[written..]`.
    pending: Vec<u8>,
    written: usize,
}

/// Make `fd` non-blocking and ask for a larger pipe (a kernel that refuses keeps the
/// default size: only the number of waits grows).
fn prepare(fd: RawFd) -> std::io::Result<()> {
    // SAFETY: `fd` is an open descriptor owned by the caller for the duration of the calls;
    // F_GETFL, F_SETFL and F_SETPIPE_SZ take and return plain integers.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(std::io::Error::last_os_error());
        }
        #[cfg(target_os = "linux")]
        libc::fcntl(fd, libc::F_SETPIPE_SZ, PIPE_BYTES);
    }
    Ok(())
}

impl Pipes {
    pub(super) fn new(stdin: ChildStdin, stdout: ChildStdout) -> std::io::Result<Pipes> {
        prepare(stdin.as_raw_fd())?;
        prepare(stdout.as_raw_fd())?;
        Ok(Pipes {
            stdin: Some(stdin),
            stdout,
            pending: Vec::new(),
            written: 0,
        })
    }

    /// Queue complete request lines: written now as far as the pipe takes them.
    pub(super) fn send(&mut self, lines: &[u8]) {
        if self.stdin.is_none() {
            return;
        }
        if self.written == self.pending.len() {
            self.pending.clear();
            self.written = 0;
            let n = self.write(lines);
            self.pending.extend_from_slice(&lines[n..]);
        } else {
            self.pending.extend_from_slice(lines);
            self.write_pending();
        }
    }

    /// Write what the pipe takes of `bytes` now: how much that was (a broken pipe closes the
    /// input: the simulator exited, which its output's end reports).
    fn write(&mut self, bytes: &[u8]) -> usize {
        let Some(stdin) = &mut self.stdin else {
            return bytes.len();
        };
        let mut n = 0;
        while n < bytes.len() {
            match stdin.write(&bytes[n..]) {
                Ok(k) => n += k,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(_) => {
                    self.close_input();
                    return bytes.len();
                }
            }
        }
        n
    }

    fn write_pending(&mut self) {
        if self.written < self.pending.len() {
            let pending = std::mem::take(&mut self.pending);
            let n = self.write(&pending[self.written..]);
            // (A write that failed closed the input and dropped what was pending.)
            if self.stdin.is_some() {
                self.written += n;
                self.pending = pending;
            }
        }
    }

    pub(super) fn close_input(&mut self) {
        self.stdin = None;
        self.pending.clear();
        self.written = 0;
    }

    /// Read what the simulator printed into `buf`, writing pending requests meanwhile; when
    /// nothing is there, wait for it until `deadline` (`None`: do not wait).
    pub(super) fn read(&mut self, buf: &mut [u8], deadline: Option<Instant>) -> Read {
        loop {
            self.write_pending();
            match self.stdout.read(buf) {
                Ok(0) => return Read::Eof,
                Ok(n) => return Read::Data(n),
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == ErrorKind::WouldBlock => {}
                Err(_) => return Read::Eof,
            }
            let Some(deadline) = deadline else {
                return Read::Nothing;
            };
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Read::Nothing;
            }
            self.wait(left.as_nanos().div_ceil(1_000_000).min(i32::MAX as u128) as i32);
        }
    }

    /// Wait up to `ms` milliseconds for output, or for room in the input pipe while requests
    /// are pending.
    fn wait(&self, ms: i32) {
        let mut fds = [
            libc::pollfd {
                fd: self.stdout.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: -1,
                events: libc::POLLOUT,
                revents: 0,
            },
        ];
        if let (Some(stdin), true) = (&self.stdin, self.written < self.pending.len()) {
            fds[1].fd = stdin.as_raw_fd();
        }
        // SAFETY: `fds` is a valid array of two `pollfd` for the duration of the call (a
        // negative descriptor is ignored by poll). Its result is not needed: the caller reads
        // (or writes) again either way.
        unsafe {
            libc::poll(fds.as_mut_ptr(), 2, ms);
        }
    }
}
