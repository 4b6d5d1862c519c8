//! `euref check`: stream vectors to a simulator, compare, report. Requests are pipelined (a
//! window of requests in flight); a simulator that crashes, hangs or answers garbage costs
//! the vector at the head of the window, is restarted, and the rest of the window is sent
//! again.

use super::compare::{compare_view, plainly_equal, verdict_before_values, Outcome};
use super::json::{compact_strings, push_string, Lexer};
use super::known::KnownFields;
use super::read_ahead::{self, Item, ReadAhead};
use super::runner::{RecvError, SimProcess};
use super::view::{write_request_from, ResponseView, Spans, VectorView};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::time::Duration;

/// The hash of the summary's counts (long `rules` texts: foldhash reads 16 bytes a step).
type FastHash = foldhash::fast::RandomState;

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

/// Counts by opcode and by rule. [`Summary::add_view`] counts per distinct `rules` text and
/// [`Summary::settle`] (called at the end of [`run`]) spreads those counts over the rules.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub total: u64,
    pub passed: u64,
    pub by_op: BTreeMap<String, [u64; 2]>,
    pub by_rule: BTreeMap<String, [u64; 2]>,
    pub by_status: BTreeMap<String, u64>,
    pub restarts: u64,
    /// Not yet settled: pass/fail counts per raw `rules` array text.
    by_rules_text: HashMap<String, [u64; 2], FastHash>,
    /// Not yet settled: pass/fail counts per known `rules` array ([`Summary::take_known`]).
    by_rules_id: Vec<[u64; 2]>,
}

impl Summary {
    pub fn add(&mut self, l: &ReportLine) {
        let pass = l.status == "pass";
        self.total += 1;
        self.passed += u64::from(pass);
        *self.by_status.entry(l.status.clone()).or_default() += 1;
        let k = usize::from(!pass);
        self.by_op.entry(l.op.clone()).or_default()[k] += 1;
        self.add_rules(l.rules.iter().map(String::as_str), k, 1);
    }

    fn add_rules<'r>(&mut self, rules: impl Iterator<Item = &'r str>, k: usize, n: u64) {
        for r in rules {
            if r.contains('[') {
                continue;
            }
            match self.by_rule.get_mut(r) {
                Some(c) => c[k] += n,
                None => self.by_rule.entry(r.to_string()).or_default()[k] += n,
            }
        }
    }

    /// Count a checked vector.
    pub fn add_view(&mut self, v: &VectorView, status: &str) {
        self.add_view_known(v, status, None);
    }

    /// [`Summary::add_view`] for a vector whose `rules` text is known array `rules_id`
    /// (counted by number until [`Summary::take_known`]).
    pub fn add_view_known(&mut self, v: &VectorView, status: &str, rules_id: Option<u32>) {
        let pass = status == "pass";
        self.total += 1;
        self.passed += u64::from(pass);
        match self.by_status.get_mut(status) {
            Some(c) => *c += 1,
            None => {
                self.by_status.insert(status.to_string(), 1);
            }
        }
        let k = usize::from(!pass);
        match self.by_op.get_mut(v.op.as_ref()) {
            Some(c) => c[k] += 1,
            None => self.by_op.entry(v.op.to_string()).or_default()[k] += 1,
        }
        if let Some(id) = rules_id {
            let id = id as usize;
            if self.by_rules_id.len() <= id {
                self.by_rules_id.resize(id + 1, [0; 2]);
            }
            self.by_rules_id[id][k] += 1;
            return;
        }
        match self.by_rules_text.get_mut(v.rules_raw.as_ref()) {
            Some(c) => c[k] += 1,
            None => {
                self.by_rules_text
                    .entry(v.rules_raw.to_string())
                    .or_default()[k] += 1
            }
        }
    }

    /// Spread the counts kept per known `rules` array over the rules: by the rule numbers
    /// recorded with the array ([`super::known::RuleSets`]), or else from its text (not copied).
    pub fn take_known(&mut self, known: &KnownFields) {
        let ids = std::mem::take(&mut self.by_rules_id);
        let sets = &known.rule_sets;
        let mut per_rule = vec![[0u64; 2]; sets.name_count()];
        let mut unrecorded = Vec::new();
        for (id, c) in (0u32..).zip(&ids) {
            if c[0] + c[1] == 0 {
                continue;
            }
            match sets.members(id) {
                Some(rules) => {
                    for &r in rules {
                        let x = &mut per_rule[r as usize];
                        x[0] += c[0];
                        x[1] += c[1];
                    }
                }
                None => unrecorded.extend(known.rules.text(id).map(|t| (t, *c))),
            }
        }
        for (n, c) in (0u32..).zip(per_rule) {
            let r = sets.name(n);
            if c[0] + c[1] == 0 || r.contains('[') {
                continue;
            }
            match self.by_rule.get_mut(r) {
                Some(x) => {
                    x[0] += c[0];
                    x[1] += c[1];
                }
                None => {
                    self.by_rule.insert(r.to_string(), c);
                }
            }
        }
        self.spread(unrecorded.into_iter());
    }

    /// Spread the counts kept per `rules` text over the rules.
    pub fn settle(&mut self) {
        let texts = std::mem::take(&mut self.by_rules_text);
        self.spread(texts.iter().map(|(t, c)| (t.as_str(), *c)));
    }

    /// Add counts per `rules` text to the counts per rule.
    fn spread<'t>(&mut self, texts: impl Iterator<Item = (&'t str, [u64; 2])>) {
        // Counts per rule borrowed from the texts (or decoded), cells (`[`) included: they are
        // left out once per rule when merging.
        let mut counts: HashMap<Cow<str>, [u64; 2], FastHash> = HashMap::default();
        fn add<'t>(
            counts: &mut HashMap<Cow<'t, str>, [u64; 2], FastHash>,
            r: Cow<'t, str>,
            c: &[u64; 2],
        ) {
            let e = counts.entry(r).or_default();
            e[0] += c[0];
            e[1] += c[1];
        }
        let mut rules = Vec::new();
        for (text, c) in texts {
            let c = &c;
            if compact_strings(text, &mut rules) {
                for r in &rules {
                    add(&mut counts, Cow::Borrowed(r), c);
                }
                continue;
            }
            let mut l = Lexer::checked(text);
            let mut decoded = Vec::new();
            let read = l.array(|l| {
                decoded.push(l.string()?);
                Ok(())
            });
            if read.is_ok() {
                for r in decoded {
                    add(&mut counts, r, c);
                }
            } else {
                // Not from a vector line: read as the report does.
                let rules: Vec<String> = serde_json::from_str(text).unwrap_or_default();
                for (k, n) in c.iter().enumerate() {
                    if *n > 0 {
                        self.add_rules(rules.iter().map(String::as_str), k, *n);
                    }
                }
            }
        }
        for (r, c) in counts {
            if r.contains('[') {
                continue;
            }
            match self.by_rule.get_mut(r.as_ref()) {
                Some(x) => {
                    x[0] += c[0];
                    x[1] += c[1];
                }
                None => {
                    self.by_rule.insert(r.into_owned(), c);
                }
            }
        }
    }

    pub fn failed(&self) -> u64 {
        self.total - self.passed
    }

    /// The summary tables (rules: only those with failures).
    pub fn table(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} vectors: {} passed, {} failed ({}), simulator restarts: {}",
            self.total,
            self.passed,
            self.failed(),
            self.by_status
                .iter()
                .filter(|(k, _)| *k != "pass")
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", "),
            self.restarts
        );
        let _ = writeln!(s, "\n{:<12} {:>9} {:>9}", "opcode", "pass", "fail");
        for (op, [p, f]) in &self.by_op {
            let _ = writeln!(s, "{op:<12} {p:>9} {f:>9}");
        }
        let failing: Vec<_> = self.by_rule.iter().filter(|(_, c)| c[1] > 0).collect();
        if !failing.is_empty() {
            let _ = writeln!(
                s,
                "\n{:<40} {:>9} {:>9}",
                "rule (with failures)", "pass", "fail"
            );
            for (r, [p, f]) in failing {
                let _ = writeln!(s, "{r:<40} {p:>9} {f:>9}");
            }
        }
        s
    }
}

/// Human-readable text of a non-passing vector.
pub fn describe(v: &VectorView, o: &Outcome) -> String {
    let head = format!("{} {}  [{}]", o.status().to_uppercase(), v.id, v.insn);
    let body = match o {
        Outcome::Fail(m) => {
            let ch = m.channel.map_or(String::new(), |c| format!(" channel {c}"));
            let note = if m.note.is_empty() {
                String::new()
            } else {
                format!(" ({})", m.note)
            };
            format!(
                "  first difference: {} byte {}{ch}{note}\n  expected {} ({} {})\n  actual   {} ({} {})",
                m.reg, m.byte, m.expected, m.ty, m.expected_value, m.actual, m.ty, m.actual_value
            )
        }
        Outcome::SimError { message }
        | Outcome::Incomplete { message }
        | Outcome::Crash { message }
        | Outcome::Garbage { message }
        | Outcome::BadVector { message } => format!("  {message}"),
        Outcome::Timeout { ms } => format!("  no response within {ms} ms"),
        Outcome::Pass => String::new(),
    };
    let all = v.rules();
    let rules: Vec<&str> = all
        .iter()
        .map(String::as_str)
        .filter(|r| !r.contains('['))
        .collect();
    let cells: Vec<&str> = all
        .iter()
        .map(String::as_str)
        .filter(|r| r.contains('['))
        .collect();
    let mut s = format!("{head}\n{body}\n  rules: {}", rules.join(", "));
    if !cells.is_empty() {
        s.push_str(&format!("\n  cells: {}", cells.join(", ")));
    }
    s
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
    run_at(opts, input, 1, skip, report, summary, on_result)
}

/// [`run`] on an input whose first line is line `first_line` of its file (`euref check
/// --shard`: a slice of the vectors file), so that lines that are no vector are reported with
/// their line in the file, as an unsharded run reports them.
pub fn run_at(
    opts: &CheckOptions,
    input: impl BufRead + Send + 'static,
    first_line: usize,
    skip: &HashSet<String>,
    report: &mut dyn Write,
    summary: &mut Summary,
    on_result: impl FnMut(&VectorView, &Outcome),
) -> Result<(), String> {
    let (mut ahead, reader) = read_ahead::start_at(input, first_line, Arc::new(skip.clone()));
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
            Ok(line) => match ResponseView::parse_bytes(line) {
                Ok(r) if r.id == v.id => {
                    if let Some(o) = verdict_before_values(&v, &r) {
                        o
                    } else if plainly_equal(&v, &r) {
                        Outcome::Pass
                    } else {
                        // The alternatives and the destination are read when needed.
                        let full = VectorView::reread(&head, &spans, true)
                            .map_err(|e| format!("vector {e}"))?;
                        compare_view(&full, &r)
                    }
                }
                Ok(r) => Outcome::Garbage {
                    message: format!("response for `{}` where `{}` was expected", r.id, v.id),
                },
                Err(_) => {
                    let text = String::from_utf8_lossy(line);
                    let e = serde_json::from_str::<super::protocol::Response>(&text)
                        .err()
                        .map_or_else(|| "unreadable".to_string(), |e| e.to_string());
                    Outcome::Garbage {
                        message: format!(
                            "not a response ({e}): {}",
                            text.trim_end().chars().take(120).collect::<String>()
                        ),
                    }
                }
            },
            Err(RecvError::Timeout) => Outcome::Timeout {
                ms: opts.timeout.as_millis() as u64,
            },
            Err(RecvError::Exited(s)) => Outcome::Crash {
                message: format!("the simulator {s}"),
            },
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
