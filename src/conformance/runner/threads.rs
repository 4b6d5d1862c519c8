//! The simulator's pipes where `poll` is not at hand (not Unix): a writer thread takes the
//! requests, a reader thread passes on what the simulator prints over a channel, so that a
//! hung simulator costs one `recv_timeout` and never blocks the checker.

use super::Read;
use std::io::{Read as _, Write as _};
use std::process::{ChildStdin, ChildStdout};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Instant;

pub(super) struct Pipes {
    to_writer: Option<Sender<Vec<u8>>>,
    from_reader: Receiver<Vec<u8>>,
    /// Received and not yet read: `got[at..]`.
    got: Vec<u8>,
    at: usize,
}

impl Pipes {
    pub(super) fn new(mut stdin: ChildStdin, mut stdout: ChildStdout) -> std::io::Result<Pipes> {
        let (tx, rx) = mpsc::channel::<Vec<u8>>();
        thread::spawn(move || {
            while let Ok(lines) = rx.recv() {
                if stdin.write_all(&lines).is_err() {
                    return;
                }
            }
        });
        let (otx, orx) = mpsc::channel::<Vec<u8>>();
        thread::spawn(move || {
            let mut buf = vec![0u8; 1 << 16];
            while let Ok(n @ 1..) = stdout.read(&mut buf) {
                if otx.send(buf[..n].to_vec()).is_err() {
                    return;
                }
            }
        });
        Ok(Pipes {
            to_writer: Some(tx),
            from_reader: orx,
            got: Vec::new(),
            at: 0,
        })
    }

    pub(super) fn send(&mut self, lines: &[u8]) {
        if let Some(tx) = &self.to_writer {
            let _ = tx.send(lines.to_vec());
        }
    }

    pub(super) fn close_input(&mut self) {
        self.to_writer = None;
    }

    /// Read what the simulator printed into `buf`; when nothing is there, wait for it until
    /// `deadline` (`None`: do not wait).
    pub(super) fn read(&mut self, buf: &mut [u8], deadline: Option<Instant>) -> Read {
        if self.at == self.got.len() {
            let next = match deadline {
                None => self.from_reader.try_recv().map_err(|e| match e {
                    mpsc::TryRecvError::Empty => RecvTimeoutError::Timeout,
                    mpsc::TryRecvError::Disconnected => RecvTimeoutError::Disconnected,
                }),
                Some(d) => self
                    .from_reader
                    .recv_timeout(d.saturating_duration_since(Instant::now())),
            };
            match next {
                Ok(d) => (self.got, self.at) = (d, 0),
                Err(RecvTimeoutError::Timeout) => return Read::Nothing,
                Err(RecvTimeoutError::Disconnected) => return Read::Eof,
            }
        }
        let n = buf.len().min(self.got.len() - self.at);
        buf[..n].copy_from_slice(&self.got[self.at..self.at + n]);
        self.at += n;
        Read::Data(n)
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};
    use std::time::Duration;

    /// Lines sent through the threads to `cat` come back whole and in order (read in pieces
    /// smaller than what arrives), nothing is there before they are sent, and closing the
    /// input ends the output.
    #[test]
    fn lines_round_trip_through_the_threads() {
        let mut child = Command::new("cat")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let (stdin, stdout) = (child.stdin.take().unwrap(), child.stdout.take().unwrap());
        let mut p = Pipes::new(stdin, stdout).unwrap();
        let mut buf = [0u8; 7];
        assert!(matches!(p.read(&mut buf, None), Read::Nothing));
        let sent: Vec<u8> = (0..2000)
            .flat_map(|i| format!("line {i}\n").into_bytes())
            .collect();
        for chunk in sent.chunks(1000) {
            p.send(chunk);
        }
        p.close_input();
        let (mut got, deadline) = (Vec::new(), Instant::now() + Duration::from_secs(20));
        loop {
            match p.read(&mut buf, Some(deadline)) {
                Read::Data(n) => got.extend_from_slice(&buf[..n]),
                Read::Eof => break,
                Read::Nothing => panic!("no output before the deadline"),
            }
        }
        assert!(got == sent, "{} of {} bytes", got.len(), sent.len());
        child.wait().unwrap();
    }
}
