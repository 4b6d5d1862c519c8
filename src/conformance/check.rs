//! `euref check`: stream vectors to a simulator, compare, report. Requests are pipelined (a
//! window of requests in flight); a simulator that crashes, hangs or answers garbage costs
//! the vector at the head of the window, is restarted, and the rest of the window is sent
//! again.

use super::compare::{compare_view, plainly_equal, verdict_before_values, Outcome};
pub use super::describe::describe;
use super::json::push_string;
use super::known::KnownFields;
pub use super::read_ahead::Start;
use super::read_ahead::{self, Item, ReadAhead};
use super::runner::{RecvError, SimProcess};
use super::selection::Selection;
pub use super::summary::Summary;
use super::view::{write_request_from, ResponseView, Spans, VectorView};
use serde::{Deserialize, Serialize};
use std::collections::{HashSet, VecDeque};
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::time::Duration;

/// How many vectors ahead of the one checked the lines are prefetched ([`Spans::prefetch`]).
const PREFETCH_AHEAD: usize = 3;

/// The default number of requests in flight.
pub const DEFAULT_WINDOW: usize = 256;

/// Starts in a row of a simulator that exits before it answers anything, after which the
/// check stops (the simulator cannot start: it would be restarted for every vector for ever).
pub const DEAD_STARTS: u32 = 3;

/// The error that stops a check whose simulator cannot start: the command, how it ended, what
/// it wrote to standard error, and what to do.
fn cannot_start(cmd: &str, how: &str, code: Option<i32>, stderr: &str) -> String {
    let hint = match code {
        Some(127) => {
            " (127: the shell did not find the command: give its full path, or put it \
                      on PATH, e.g. `cargo install --path .` for euref itself)"
        }
        Some(126) => " (126: the command is not executable)",
        _ => "",
    };
    let stderr = if stderr.is_empty() {
        "nothing on standard error".to_string()
    } else {
        format!("its standard error:\n{stderr}")
    };
    format!(
        "the simulator `{cmd}` cannot start: it {how} before answering any request{hint}; {stderr}"
    )
}

/// Options of a check run.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    pub sim: String,
    pub timeout: Duration,
    /// Requests in flight (1: lockstep).
    pub window: usize,
    /// The vectors checked (`--ops`, `--id`; the ids skipped by [`run`]'s `skip` are added).
    pub select: Selection,
}

/// One line of the report file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReportLine {
    pub id: String,
    pub op: String,
    pub status: String,
    pub rules: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<serde_json::Value>,
}

/// The outcome of response line `line` to vector `v` (read without its alternatives and
/// destination: `full` reads them when the values must be compared element by element), with
/// the line kept when it is no pass.
pub fn judge<'l>(
    v: &VectorView,
    line: &[u8],
    full: impl FnOnce() -> Result<VectorView<'l>, String>,
) -> Result<Outcome, String> {
    let o = match ResponseView::parse_bytes(line) {
        Ok(r) if r.id == v.id => {
            if let Some(o) = verdict_before_values(v, &r) {
                o
            } else if r.is_plain() && plainly_equal(v, &r) {
                return Ok(Outcome::Pass);
            } else {
                compare_view(&full()?, &r)
            }
        }
        Ok(r) => Outcome::Garbage {
            message: format!("response for `{}` where `{}` was expected", r.id, v.id),
            response: String::new(),
        },
        Err(_) => {
            let text = String::from_utf8_lossy(line);
            let e = serde_json::from_str::<super::protocol::Response>(&text)
                .err()
                .map_or_else(|| "unreadable".to_string(), |e| e.to_string());
            Outcome::Garbage {
                message: format!("not a response ({e})"),
                response: String::new(),
            }
        }
    };
    Ok(o.with_response(line))
}

/// The outcome of a response line longer than the protocol allows
/// ([`super::runner::MAX_RESPONSE_LINE`]), with its first bytes: `garbage` (the simulator is
/// restarted).
pub fn too_long(head: &[u8]) -> Outcome {
    Outcome::Garbage {
        message: RecvError::too_long_message(),
        response: String::new(),
    }
    .with_response(head)
}

/// Report lines already in a report file (for `--resume`).
pub fn read_report(text: &str) -> Vec<ReportLine> {
    text.lines()
        .filter_map(|l| serde_json::from_str::<ReportLine>(l).ok())
        .collect()
}

/// Append the report line of a vector (a [`ReportLine`] in JSON), newline included.
pub fn write_report_line(v: &VectorView, o: &Outcome, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"id\":");
    push_string(out, &v.id);
    out.extend_from_slice(b",\"op\":");
    push_string(out, &v.op);
    out.extend_from_slice(b",\"status\":\"");
    out.extend_from_slice(o.status().as_bytes());
    out.extend_from_slice(b"\",\"rules\":");
    out.extend_from_slice(v.rules_raw.as_bytes());
    if !matches!(o, Outcome::Pass) {
        out.extend_from_slice(b",\"detail\":");
        let _ = serde_json::to_writer(&mut *out, o);
    }
    out.extend_from_slice(b"}\n");
}

/// Check every vector read from `input` (skipping `skip` ids). Each result goes to `report`
/// (a JSON line; the report is flushed whenever the checker waits for the simulator) and
/// `summary`; `on_result` sees each vector and outcome (printing failures, progress).
///
/// The lines are read, parsed and turned into requests on a thread of their own
/// ([`super::read_ahead`]). Requests go out in batches: when at most half the window is in
/// flight, the window is filled again and the new requests are written at once
/// ([`SimProcess::send_bytes`]).
pub fn run(
    opts: &CheckOptions,
    input: impl BufRead + Send + 'static,
    skip: &HashSet<String>,
    report: &mut dyn Write,
    summary: &mut Summary,
    on_result: impl FnMut(&VectorView, &Outcome),
) -> Result<(), String> {
    run_at(opts, input, Start::FILE, skip, report, summary, on_result)
}

/// [`run`] on an input that starts at `first` in its file (`euref check --shard`: a slice of
/// the vectors file), so that lines that are no vector are reported with their line (and
/// byte) in the file, as an unsharded run reports them.
pub fn run_at(
    opts: &CheckOptions,
    input: impl BufRead + Send + 'static,
    first: Start,
    skip: &HashSet<String>,
    report: &mut dyn Write,
    summary: &mut Summary,
    on_result: impl FnMut(&VectorView, &Outcome),
) -> Result<(), String> {
    let mut select = opts.select.clone();
    select.skip.extend(skip.iter().cloned());
    let (mut ahead, reader) = read_ahead::start_at(input, first, Arc::new(select));
    let checked = check_all(opts, &mut ahead, report, summary, on_result);
    // (A reader still reading stops at its next chunk, once its channel is closed; after an
    // error it is not waited for: it may be waiting on its input.)
    drop(ahead);
    checked?;
    let known = reader
        .join()
        .map_err(|_| "the vector reader failed".to_string())?;
    summary.take_known(&known);
    summary.settle();
    report.flush().map_err(|e| format!("report: {e}"))
}

/// [`run`]'s checking loop, on the items of `ahead`.
fn check_all(
    opts: &CheckOptions,
    ahead: &mut ReadAhead,
    report: &mut dyn Write,
    summary: &mut Summary,
    mut on_result: impl FnMut(&VectorView, &Outcome),
) -> Result<(), String> {
    let spawn =
        || SimProcess::spawn(&opts.sim).map_err(|e| format!("cannot start `{}`: {e}", opts.sim));
    let mut sim = spawn()?;
    let mut dead_starts = 0u32;
    let window = opts.window.max(1);
    let refill_at = window / 2;
    // Vector lines: to send again after a restart, in flight, and spare buffers.
    let mut resend: VecDeque<(String, Spans)> = VecDeque::new();
    let mut flight: VecDeque<(String, Spans)> = VecDeque::new();
    let mut spare: Vec<String> = Vec::new();
    // Lines that are no vector wait until the vectors read before them are recorded, so that
    // the report is in input order whatever the window (and a shard's report is its slice of
    // the whole file's report): (vectors read before it, line, line number, message).
    let mut held: VecDeque<(u64, String, usize, String)> = VecDeque::new();
    let mut vectors_read = 0u64;
    let mut batch: Vec<u8> = Vec::with_capacity(1 << 16);
    let mut out: Vec<u8> = Vec::with_capacity(1 << 16);
    let mut record = |v: &VectorView,
                      rules_id: Option<u32>,
                      o: Outcome,
                      summary: &mut Summary,
                      out: &mut Vec<u8>,
                      report: &mut dyn Write|
     -> Result<(), String> {
        write_report_line(v, &o, out);
        summary.add_view_known(v, o.status(), rules_id);
        if !matches!(o, Outcome::Pass) {
            summary.add_outcome(&o);
        }
        on_result(v, &o);
        if out.len() >= 1 << 15 {
            report.write_all(out).map_err(|e| format!("report: {e}"))?;
            out.clear();
        }
        Ok(())
    };
    loop {
        if flight.len() <= refill_at {
            while flight.len() < window {
                if let Some((line, spans)) = resend.pop_front() {
                    // The request again, from the line read anew (with values known to this
                    // read alone: the spans and their `rules` number stay the first read's).
                    let mut scratch = KnownFields::default();
                    let Ok((v, sp)) = VectorView::parse_spans_hinted(&line, &mut scratch, None)
                    else {
                        continue;
                    };
                    write_request_from(&line, &sp, &v, &mut batch);
                    drop(v);
                    flight.push_back((line, spans));
                    continue;
                }
                match ahead.next(&mut batch, &mut spare)? {
                    None => break,
                    Some(Item::Vector(line, spans)) => {
                        vectors_read += 1;
                        flight.push_back((line, spans));
                    }
                    Some(Item::Bad(line, line_no, message)) => {
                        held.push_back((vectors_read, line, line_no, message));
                    }
                }
            }
            if !batch.is_empty() {
                sim.send_bytes(&batch);
                batch.clear();
            }
        }
        // (Every vector read is in flight, to be sent again or recorded.)
        let recorded = vectors_read.saturating_sub((flight.len() + resend.len()) as u64);
        while held.front().is_some_and(|h| h.0 <= recorded) {
            let Some((_, line, line_no, message)) = held.pop_front() else {
                break;
            };
            let v = VectorView::placeholder(format!("line-{line_no}"));
            let o = Outcome::BadVector { message };
            record(&v, None, o, summary, &mut out, report)?;
            spare.push(line);
        }
        let Some((head, spans)) = flight.pop_front() else {
            break;
        };
        if let Some((line, spans)) = flight.get(PREFETCH_AHEAD) {
            spans.prefetch(line);
        }
        if !sim.has_line() {
            // About to wait: what is known goes to the report first.
            report.write_all(&out).map_err(|e| format!("report: {e}"))?;
            out.clear();
            report.flush().map_err(|e| format!("report: {e}"))?;
        }
        let received = sim.recv_line(opts.timeout);
        if matches!(received, Ok(line) if spans.passes_verbatim(&head, line)) {
            // The response repeats the vector's id and expected registers: a pass, decided
            // without reading either (the report and the summary need the head fields).
            let v = VectorView::reread_head(&head, &spans).map_err(|e| format!("vector {e}"))?;
            record(&v, spans.rules_id, Outcome::Pass, summary, &mut out, report)?;
            drop(v);
            spare.push(head);
            continue;
        }
        let v = VectorView::reread(&head, &spans, false).map_err(|e| format!("vector {e}"))?;
        let o = match received {
            Ok(line) => judge(&v, line, || {
                // The alternatives and the destination are read when needed.
                VectorView::reread(&head, &spans, true).map_err(|e| format!("vector {e}"))
            })?,
            Err(RecvError::Timeout) => Outcome::Timeout {
                ms: opts.timeout.as_millis() as u64,
            },
            Err(RecvError::Exited(s)) => Outcome::Crash {
                message: format!("the simulator {s}"),
            },
            Err(RecvError::TooLong(head)) => too_long(&head),
        };
        let restart = matches!(
            o,
            Outcome::Timeout { .. } | Outcome::Crash { .. } | Outcome::Garbage { .. }
        );
        // A simulator that exited without answering anything: 126/127 (the shell could not
        // run the command) stops the check at once, any other exit after `DEAD_STARTS` starts
        // in a row.
        if let Outcome::Crash { message } = &o {
            if !sim.answered() {
                dead_starts += 1;
                let code = sim.exit_code();
                if matches!(code, Some(126 | 127)) || dead_starts >= DEAD_STARTS {
                    let how = match dead_starts {
                        1 => message.trim_start_matches("the simulator ").to_string(),
                        n => format!(
                            "{} ({n} starts in a row)",
                            message.trim_start_matches("the simulator ")
                        ),
                    };
                    let e = cannot_start(&opts.sim, &how, code, &sim.stderr_tail());
                    // (What was checked so far stays in the report.)
                    let _ = report.write_all(&out);
                    return Err(e);
                }
            }
        }
        if sim.answered() {
            dead_starts = 0;
        }
        record(&v, spans.rules_id, o, summary, &mut out, report)?;
        drop(v);
        spare.push(head);
        if restart {
            sim.kill();
            summary.restarts += 1;
            while let Some(x) = flight.pop_back() {
                resend.push_front(x);
            }
            sim = spawn()?;
        }
    }
    sim.kill();
    report.write_all(&out).map_err(|e| format!("report: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_by_known_rules_arrays_settle_as_counts_by_text() {
        let mut lines = Vec::new();
        let cfg = crate::golden::GenConfig::new(crate::spec::Platform::Bdw, 4);
        crate::golden::generate(&cfg, 400, &mut std::io::sink(), |c| {
            lines.extend(c.iter().flatten().map(|v| v.to_line()));
        })
        .unwrap();
        let (mut by_text, mut by_id) = (Summary::default(), Summary::default());
        let mut known = KnownFields::default();
        let mut ids = 0;
        // Some rules arrays with a blank (learned without their rules recorded: spread from
        // the text), some lines read in the golden layout.
        let n = lines.len();
        for k in (0..n).step_by(11) {
            let blank = lines[k].replacen("\"rules\":[\"", "\"rules\":[ \"", 1);
            lines.push(blank);
        }
        let (mut recorded, mut unrecorded) = (0, 0);
        for (k, line) in lines.iter().enumerate() {
            let status = ["pass", "fail", "pass", "timeout", "pass"][k % 5];
            let hint = (k % 3 != 0).then_some(true);
            let (v, sp) = VectorView::parse_spans_hinted(line, &mut known, hint).unwrap();
            if let Some(id) = sp.rules_id {
                match known.rule_sets.members(id) {
                    Some(_) => recorded += 1,
                    None => unrecorded += 1,
                }
            }
            by_text.add_view(&v, status);
            // Some counted by text in the same summary (as a line serde rewrote would be).
            let id = sp.rules_id.filter(|_| k % 7 != 0);
            ids += usize::from(id.is_some());
            by_id.add_view_known(&v, status, id);
        }
        by_id.take_known(&known);
        by_text.settle();
        by_id.settle();
        assert!(ids > 300 && by_text.failed() > 100, "{ids}");
        assert!(recorded > 300 && unrecorded > 10, "{recorded} {unrecorded}");
        assert_eq!(by_id.by_rule, by_text.by_rule);
        assert_eq!(by_id.table(), by_text.table());
    }

    /// A run that fails (here: its report cannot be written) returns its error while its input
    /// still has more to come that never comes: it does not wait for the reader thread.
    #[test]
    fn a_failed_run_returns_while_its_input_waits() {
        /// Vector lines, then a read that waits for ever.
        struct Stalling(std::io::Cursor<Vec<u8>>, std::sync::mpsc::Receiver<()>);
        impl std::io::Read for Stalling {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                match self.0.read(buf)? {
                    0 => {
                        let _ = self.1.recv();
                        Ok(0)
                    }
                    n => Ok(n),
                }
            }
        }
        struct Failing;
        impl Write for Failing {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk full"))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let cfg = crate::golden::GenConfig::new(crate::spec::Platform::Skl, 2);
        let mut text = Vec::new();
        crate::golden::generate_lines(&cfg, 100, &mut text, |_, _, _| {}).unwrap();
        let (hold, stall) = std::sync::mpsc::channel();
        let input = std::io::BufReader::new(Stalling(std::io::Cursor::new(text), stall));
        let (done_tx, done) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            // (`cat` answers every request, without `final`: the run goes on to its report.)
            let opts = CheckOptions {
                sim: "cat".into(),
                timeout: Duration::from_secs(5),
                window: 4,
                select: Selection::default(),
            };
            let mut s = Summary::default();
            let r = run(
                &opts,
                input,
                &HashSet::new(),
                &mut Failing,
                &mut s,
                |_, _| {},
            );
            let _ = done_tx.send(r);
        });
        let r = done.recv_timeout(Duration::from_secs(60));
        drop(hold);
        assert_eq!(r, Ok(Err("report: disk full".to_string())));
    }
}
