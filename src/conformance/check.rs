//! `euref check`: stream vectors to a simulator, compare, report. Requests are pipelined (a
//! window of requests in flight); a simulator that crashes, hangs or answers garbage costs
//! the vector at the head of the window, is restarted, and the rest of the window is sent
//! again.

use super::compare::{compare, Outcome};
use super::protocol::{Request, Response};
use super::runner::{RecvError, SimProcess};
use crate::golden::Vector;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet, VecDeque};
use std::io::{BufRead, Write};
use std::time::Duration;

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

/// Counts by opcode and by rule.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub total: u64,
    pub passed: u64,
    pub by_op: BTreeMap<String, [u64; 2]>,
    pub by_rule: BTreeMap<String, [u64; 2]>,
    pub by_status: BTreeMap<String, u64>,
    pub restarts: u64,
}

impl Summary {
    pub fn add(&mut self, l: &ReportLine) {
        let pass = l.status == "pass";
        self.total += 1;
        self.passed += u64::from(pass);
        *self.by_status.entry(l.status.clone()).or_default() += 1;
        let k = usize::from(!pass);
        self.by_op.entry(l.op.clone()).or_default()[k] += 1;
        for r in &l.rules {
            if r.contains('[') {
                continue;
            }
            self.by_rule.entry(r.clone()).or_default()[k] += 1;
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
pub fn describe(v: &Vector, o: &Outcome) -> String {
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
        | Outcome::Crash { message }
        | Outcome::Garbage { message }
        | Outcome::BadVector { message } => format!("  {message}"),
        Outcome::Timeout { ms } => format!("  no response within {ms} ms"),
        Outcome::Pass => String::new(),
    };
    let rules: Vec<&str> = v
        .rules
        .iter()
        .map(String::as_str)
        .filter(|r| !r.contains('['))
        .collect();
    let cells: Vec<&str> = v
        .rules
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

fn report_line(v: &Vector, o: &Outcome) -> ReportLine {
    let detail = match o {
        Outcome::Pass => None,
        _ => serde_json::to_value(o).ok(),
    };
    ReportLine {
        id: v.id.clone(),
        op: v.op.clone(),
        status: o.status().to_string(),
        rules: v.rules.clone(),
        detail,
    }
}

/// Check every vector read from `input` (skipping `skip` ids). Each result goes to `report`
/// (a JSON line, written at once) and `summary`; `on_result` sees each vector and outcome
/// (printing failures, progress).
pub fn run(
    opts: &CheckOptions,
    input: impl BufRead,
    skip: &HashSet<String>,
    report: &mut dyn Write,
    summary: &mut Summary,
    mut on_result: impl FnMut(&Vector, &Outcome),
) -> Result<(), String> {
    let spawn =
        || SimProcess::spawn(&opts.sim).map_err(|e| format!("cannot start `{}`: {e}", opts.sim));
    let mut sim = spawn()?;
    let mut lines = input.lines().enumerate();
    let mut resend: VecDeque<Vector> = VecDeque::new();
    let mut flight: VecDeque<Vector> = VecDeque::new();
    let window = opts.window.max(1);
    let mut record = |v: &Vector, o: Outcome, summary: &mut Summary| -> Result<(), String> {
        let l = report_line(v, &o);
        summary.add(&l);
        let mut s = serde_json::to_string(&l).map_err(|e| e.to_string())?;
        s.push('\n');
        report
            .write_all(s.as_bytes())
            .map_err(|e| format!("report: {e}"))?;
        on_result(v, &o);
        Ok(())
    };
    let mut eof = false;
    loop {
        while flight.len() < window {
            let v = if let Some(v) = resend.pop_front() {
                v
            } else if eof {
                break;
            } else {
                match lines.next() {
                    None => {
                        eof = true;
                        break;
                    }
                    Some((n, Err(e))) => return Err(format!("vectors line {}: {e}", n + 1)),
                    Some((n, Ok(line))) => {
                        if line.trim().is_empty() {
                            continue;
                        }
                        match serde_json::from_str::<Vector>(&line) {
                            Ok(v) if skip.contains(&v.id) => continue,
                            Ok(v) => v,
                            Err(e) => {
                                let v = Vector {
                                    v: 0,
                                    id: format!("line-{}", n + 1),
                                    gen: String::new(),
                                    op: "?".into(),
                                    insn: String::new(),
                                    bytes: String::new(),
                                    initial: Default::default(),
                                    expected: Default::default(),
                                    undefined: Default::default(),
                                    dst: None,
                                    alternatives: vec![],
                                    rules: vec![],
                                    classes: vec![],
                                };
                                let o = Outcome::BadVector {
                                    message: format!("line {}: {e}", n + 1),
                                };
                                record(&v, o, summary)?;
                                continue;
                            }
                        }
                    }
                }
            };
            sim.send(Request::from_vector(&v).to_line());
            flight.push_back(v);
        }
        let Some(head) = flight.pop_front() else {
            break;
        };
        let outcome = match sim.recv(opts.timeout) {
            Ok(line) => match serde_json::from_str::<Response>(&line) {
                Ok(r) if r.id == head.id => Some(compare(&head, &r)),
                Ok(r) => Some(Outcome::Garbage {
                    message: format!("response for `{}` where `{}` was expected", r.id, head.id),
                })
                .filter(|_| true),
                Err(e) => Some(Outcome::Garbage {
                    message: format!(
                        "not a response ({e}): {}",
                        line.trim_end().chars().take(120).collect::<String>()
                    ),
                }),
            },
            Err(RecvError::Timeout) => Some(Outcome::Timeout {
                ms: opts.timeout.as_millis() as u64,
            }),
            Err(RecvError::Exited(s)) => Some(Outcome::Crash {
                message: format!("the simulator {s}"),
            }),
        };
        let o = outcome.unwrap_or(Outcome::Pass);
        let restart = matches!(
            o,
            Outcome::Timeout { .. } | Outcome::Crash { .. } | Outcome::Garbage { .. }
        );
        record(&head, o, summary)?;
        if restart {
            sim.kill();
            summary.restarts += 1;
            while let Some(v) = flight.pop_back() {
                resend.push_front(v);
            }
            sim = spawn()?;
        }
    }
    sim.kill();
    report.flush().map_err(|e| format!("report: {e}"))?;
    Ok(())
}
