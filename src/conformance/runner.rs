//! The simulator under test as a subprocess: requests go to its stdin through a writer
//! thread, response lines come back through a reader thread and a channel, so a hung
//! simulator costs one `recv_timeout` and never blocks the checker.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Duration;

/// What the reader thread saw.
enum Event {
    Line(String),
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
    to_writer: Option<Sender<String>>,
    from_reader: Receiver<Event>,
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
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| std::io::Error::other("no stdout"))?;
        let (tx, rx) = mpsc::channel::<String>();
        thread::spawn(move || writer(stdin, rx));
        let (etx, erx) = mpsc::channel::<Event>();
        thread::spawn(move || {
            let mut r = BufReader::with_capacity(1 << 16, stdout);
            loop {
                let mut line = String::new();
                match r.read_line(&mut line) {
                    Ok(0) | Err(_) => {
                        let _ = etx.send(Event::Eof);
                        return;
                    }
                    Ok(_) => {
                        if etx.send(Event::Line(line)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Ok(SimProcess {
            child,
            to_writer: Some(tx),
            from_reader: erx,
        })
    }

    /// Queue one request line (without newline).
    pub fn send(&self, line: String) {
        if let Some(tx) = &self.to_writer {
            let _ = tx.send(line);
        }
    }

    /// The next response line.
    pub fn recv(&mut self, timeout: Duration) -> Result<String, RecvError> {
        match self.from_reader.recv_timeout(timeout) {
            Ok(Event::Line(l)) => Ok(l),
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                // Give the process a moment to be reaped for its status.
                let mut status = String::from("closed its output");
                for _ in 0..50 {
                    if let Ok(Some(s)) = self.child.try_wait() {
                        status = format!("exited ({s})");
                        break;
                    }
                    thread::sleep(Duration::from_millis(2));
                }
                Err(RecvError::Exited(status))
            }
            Err(RecvTimeoutError::Timeout) => Err(RecvError::Timeout),
        }
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

fn writer(stdin: ChildStdin, rx: Receiver<String>) {
    let mut w = std::io::BufWriter::with_capacity(1 << 16, stdin);
    while let Ok(line) = rx.recv() {
        if w.write_all(line.as_bytes()).is_err() || w.write_all(b"\n").is_err() {
            return;
        }
        // Flush when nothing else is queued.
        let mut more = true;
        while more {
            match rx.try_recv() {
                Ok(l) => {
                    if w.write_all(l.as_bytes()).is_err() || w.write_all(b"\n").is_err() {
                        return;
                    }
                }
                Err(_) => more = false,
            }
        }
        if w.flush().is_err() {
            return;
        }
    }
}
