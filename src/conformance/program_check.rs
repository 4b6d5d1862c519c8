//! `euref check` on program vectors (conformance/README.md "Checking program vectors"): each
//! program is sent to the simulator as one program request, and its final registers and
//! surface compared with the vector's `expected` under the undefined marks ([`compare`]).
//! A program that fails is localized from the simulator's per-instruction trace when it
//! gives one ([`super::program_trace`]: the run is asked again with `"trace": true`, the
//! first step whose IP, channels or changes differ from euref's is found and confirmed by
//! one step-limited request); without a trace the step limit is bisected, the simulator and
//! euref's runner each asked for the state after k instructions, until the first k after
//! which they differ. The report names that instruction (its IP, its line of the vector's
//! `text` and the spec rows that govern it there: [`rows_of_step`]).
//!
//! Requests go one at a time (a program is long beside the cost of a line); a simulator that
//! hangs, crashes or answers garbage is restarted, as for single-instruction vectors.

use super::compare::{compare, Difference, Differences, Outcome};
use super::describe::difference_line;
use super::program_protocol::{ProgramRequest, ProgramResponse};
use super::program_run::{self, Ran};
use super::protocol::Response;
use super::regs;
use super::runner::{RecvError, SimProcess};
use crate::golden::program::ProgramVector;
use crate::isa::{Addr, Insn, Reg};
use crate::spec::Platform;
use crate::vector::{DstInfo, Vector};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::time::Duration;

/// The name the surface's bytes are compared under (as if a register of that name).
pub const SURFACE: &str = "surface";

/// Options of a check of program vectors.
#[derive(Debug, Clone)]
pub struct ProgramCheckOptions {
    pub sim: String,
    pub timeout: Duration,
}

/// Where a failing program first differs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Localized {
    /// The number of instructions executed when the states first differ (1: after the
    /// first instruction; 0: the initial states differ).
    pub step: u64,
    /// The address of the instruction executed as step `step` (absent for step 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ip: Option<u32>,
    /// Its line of the vector's `text`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub text: String,
    /// The spec rows it exercises there (as a single-instruction vector of it lists them).
    pub rules: Vec<String>,
    /// How the simulator's state after `step` instructions differs from euref's (after
    /// `differs_after` instructions when that is given).
    pub after: Outcome,
    /// Requests sent to localize.
    pub probes: u32,
    /// How: `trace` (from the simulator's trace) or `bisection` (of the step limit).
    pub via: &'static str,
    /// From a trace, when the named instruction changed no reported state itself (a branch
    /// that moved channels wrongly): the first step after which the states differ.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub differs_after: Option<u64>,
}

/// One line of the report of a program check.
#[derive(Debug, Clone, Serialize)]
pub struct ProgramReportLine {
    pub id: String,
    pub kind: &'static str,
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<Outcome>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub localized: Option<Localized>,
    /// Why a failing program was not localized.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unlocalized: Option<String>,
}

/// Counts of a program check.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProgramSummary {
    pub total: u64,
    pub by_status: BTreeMap<&'static str, u64>,
    pub localized: u64,
    pub restarts: u64,
}

impl ProgramSummary {
    pub fn failed(&self) -> u64 {
        self.by_status
            .iter()
            .filter(|(s, _)| !matches!(**s, "pass" | "unmodelled" | "ignored"))
            .map(|(_, n)| n)
            .sum()
    }

    pub fn unchecked(&self) -> u64 {
        self.by_status
            .iter()
            .filter(|(s, _)| matches!(**s, "unmodelled" | "ignored"))
            .map(|(_, n)| n)
            .sum()
    }

    /// The summary printed at the end.
    pub fn table(&self) -> String {
        let by: Vec<String> = self
            .by_status
            .iter()
            .map(|(s, n)| format!("{s} {n}"))
            .collect();
        format!(
            "program vectors: {} checked ({}); {} failing localized; {} simulator restarts\n",
            self.total,
            by.join(", "),
            self.localized,
            self.restarts
        )
    }
}

/// What a vector expects, as the single-instruction comparison reads it: registers and the
/// surface (as register [`SURFACE`]), with undefined marks (inexact bytes are not compared).
struct Expectation {
    expected: BTreeMap<String, String>,
    undefined: BTreeMap<String, String>,
}

fn hex(b: &[u8]) -> String {
    regs::to_hex(b)
}

/// OR two hex masks of the same length (`a` absent: `b`).
fn or_masks(a: Option<&String>, b: &str) -> String {
    let (Some(a), Ok(bb)) = (a, regs::parse_hex_defined(b)) else {
        return b.to_string();
    };
    match regs::parse_hex_defined(a) {
        Ok(aa) if aa.len() == bb.len() => {
            hex(&aa.iter().zip(&bb).map(|(x, y)| x | y).collect::<Vec<_>>())
        }
        _ => b.to_string(),
    }
}

impl Expectation {
    /// The vector's final state.
    fn of_vector(v: &ProgramVector) -> Expectation {
        let mut undefined = v.undefined.clone();
        for (r, m) in &v.inexact {
            let u = or_masks(undefined.get(r), m);
            undefined.insert(r.clone(), u);
        }
        let mut expected = v.expected.clone();
        if let Some(s) = &v.expected_surface {
            expected.insert(SURFACE.into(), s.bytes.clone());
            if let Some(u) = &s.undefined {
                undefined.insert(SURFACE.into(), u.clone());
            }
        }
        Expectation {
            expected,
            undefined,
        }
    }

    /// What euref's run `ran` of `req` ends with.
    fn of_run(req: &ProgramRequest, ran: &Ran) -> Expectation {
        let mut expected = BTreeMap::new();
        let mut undefined = BTreeMap::new();
        for name in &req.report {
            let Some(r) = regs::read(&ran.state, name) else {
                continue;
            };
            let bytes: Vec<u8> = r.bytes.iter().zip(&r.undef).map(|(b, u)| b & !u).collect();
            expected.insert(name.clone(), hex(&bytes));
            let mut u = (r.undef.iter().any(|u| *u != 0)).then(|| hex(&r.undef));
            if let Some(m) = crate::state::json::inexact_hex(&ran.state, name) {
                u = Some(or_masks(u.as_ref(), &m));
            }
            if let Some(u) = u {
                undefined.insert(name.clone(), u);
            }
        }
        if let Some(s) = &req.surface {
            let fin = ran.memory.flat.read(s.base, s.size as usize);
            let bytes: Vec<u8> = fin.iter().map(|b| b.unwrap_or(0)).collect();
            expected.insert(SURFACE.into(), hex(&bytes));
            if fin.iter().any(|b| b.is_none()) {
                let u: Vec<u8> = fin
                    .iter()
                    .map(|b| if b.is_none() { 0xff } else { 0 })
                    .collect();
                undefined.insert(SURFACE.into(), hex(&u));
            }
        }
        Expectation {
            expected,
            undefined,
        }
    }

    /// The response compared with this expectation (the single-instruction comparison, the
    /// surface as one more register), with a difference for the step count and the end when
    /// the response gives them and they differ from `steps` and `ended`.
    ///
    /// `insn`: the instruction the compared state is the state after (its text and
    /// destination, so that a difference is named by its channel), or `None` for a whole
    /// program (a difference in a GRF register is then just that, not a byte outside some
    /// destination).
    fn judge(
        &self,
        id: &str,
        gen: &str,
        r: &ProgramResponse,
        (steps, ended): (u64, bool),
        insn: Option<(String, &Insn)>,
    ) -> Outcome {
        let whole = insn.is_none();
        let (text, dst) = insn.map_or((String::new(), None), |(t, i)| (t, dst_info(i)));
        let v = Vector {
            v: crate::vector::FORMAT_VERSION,
            id: id.into(),
            gen: gen.into(),
            op: "program".into(),
            insn: text,
            bytes: String::new(),
            initial: BTreeMap::new(),
            expected: self.expected.clone(),
            undefined: self.undefined.clone(),
            dst,
            alternatives: Vec::new(),
            rules: Vec::new(),
            classes: Vec::new(),
        };
        let mut fin = r.fin.clone();
        if let Some(s) = &r.surface {
            fin.insert(SURFACE.into(), s.clone());
        }
        let resp = Response {
            id: r.id.clone(),
            fin,
            inexact: BTreeMap::new(),
            error: r.error.clone(),
            unmodelled: Vec::new(),
            ignored: Vec::new(),
        };
        let mut o = compare(&v, &resp);
        if let (true, Outcome::Fail(d)) = (whole, &mut o) {
            for x in &mut d.differences {
                x.note.clear();
            }
        }
        let mut extra = Vec::new();
        if r.error.is_none() {
            if let Some(s) = r.steps.filter(|s| *s != steps) {
                extra.push(counter("steps", steps, s));
            }
            if let Some(e) = r.ended.filter(|e| *e != ended) {
                extra.push(counter("ended", u64::from(ended), u64::from(e)));
            }
        }
        if !extra.is_empty() {
            o = match o {
                Outcome::Pass => Outcome::Fail(Differences {
                    differences: extra,
                    ..Differences::default()
                }),
                Outcome::Fail(mut d) => {
                    d.differences.extend(extra);
                    Outcome::Fail(d)
                }
                o => o,
            };
        }
        o
    }
}

/// The destination of `insn` as a vector describes it (a direct GRF destination only).
fn dst_info(insn: &Insn) -> Option<DstInfo> {
    let d = insn.dst.as_ref()?;
    let Addr::Direct {
        reg: Reg::Grf(n),
        sub,
    } = d.addr
    else {
        return None;
    };
    Some(DstInfo {
        reg: format!("r{n}"),
        offset: u32::from(sub),
        ty: d.ty.name().to_ascii_lowercase(),
        stride: u32::from(d.hstride.max(1)),
    })
}

/// A difference in a count of the response (`steps`, `ended`).
fn counter(name: &str, expected: u64, actual: u64) -> Difference {
    Difference {
        reg: name.into(),
        byte: 0,
        channel: None,
        ty: "ud".into(),
        expected: format!("{expected}"),
        actual: format!("{actual}"),
        expected_value: format!("{expected}"),
        actual_value: format!("{actual}"),
        note: String::new(),
    }
}

/// The simulator subprocess with its restarts.
struct Sim<'o> {
    opts: &'o ProgramCheckOptions,
    proc: SimProcess,
    dead_starts: u32,
    restarts: u64,
}

impl<'o> Sim<'o> {
    fn start(opts: &'o ProgramCheckOptions) -> Result<Sim<'o>, String> {
        let proc = SimProcess::spawn(&opts.sim)
            .map_err(|e| format!("cannot start `{}`: {e}", opts.sim))?;
        Ok(Sim {
            opts,
            proc,
            dead_starts: 0,
            restarts: 0,
        })
    }

    /// Send `req` and read its response; a transport failure is its outcome (the simulator
    /// is restarted), or stops the check when the simulator cannot start.
    fn ask(&mut self, req: &ProgramRequest) -> Result<Result<ProgramResponse, Outcome>, String> {
        let mut line = req.to_line().into_bytes();
        line.push(b'\n');
        self.proc.send_bytes(&line);
        let got = match self.proc.recv_line(self.opts.timeout) {
            Ok(l) => {
                let l = l.to_vec();
                match serde_json::from_slice::<ProgramResponse>(&l) {
                    Ok(r) if r.id == req.id => Ok(r),
                    Ok(r) => Err(Outcome::Garbage {
                        message: format!("response for `{}` where `{}` was expected", r.id, req.id),
                        response: String::new(),
                    }
                    .with_response(&l)),
                    Err(e) => Err(Outcome::Garbage {
                        message: format!("not a program response ({e})"),
                        response: String::new(),
                    }
                    .with_response(&l)),
                }
            }
            Err(RecvError::Timeout) => Err(Outcome::Timeout {
                ms: self.opts.timeout.as_millis() as u64,
            }),
            Err(RecvError::Exited(s)) => {
                if !self.proc.answered() {
                    self.dead_starts += 1;
                    let code = self.proc.exit_code();
                    if matches!(code, Some(126 | 127))
                        || self.dead_starts >= super::check::DEAD_STARTS
                    {
                        return Err(format!(
                            "the simulator `{}` cannot start: it {s} before answering any \
                             request ({} starts in a row); its standard error:\n{}",
                            self.opts.sim,
                            self.dead_starts,
                            self.proc.stderr_tail()
                        ));
                    }
                }
                Err(Outcome::Crash {
                    message: format!("the simulator {s}"),
                })
            }
            Err(RecvError::TooLong(head)) => Err(super::check::too_long(&head)),
        };
        if self.proc.answered() {
            self.dead_starts = 0;
        }
        if got.is_err() {
            self.proc.kill();
            self.restarts += 1;
            self.proc = SimProcess::spawn(&self.opts.sim)
                .map_err(|e| format!("cannot start `{}`: {e}", self.opts.sim))?;
        }
        Ok(got)
    }
}

/// The IPs of the instructions of `bytes` laid out from 0, in order.
fn instruction_ips(p: Platform, bytes: &[u8]) -> Vec<u32> {
    let mut ips = Vec::new();
    let mut at = 0usize;
    while at < bytes.len() {
        ips.push(at as u32);
        at += crate::codec::decode(&bytes[at..], p).map_or(16, |(_, s)| s.max(8));
    }
    ips
}

/// The line of `text` of the instruction at `ip` (labels, `name:`, are no instructions).
pub fn text_at(v: &ProgramVector, ip: u32) -> String {
    let Some(p) = Platform::parse(&v.gen) else {
        return String::new();
    };
    let Ok(bytes) = regs::parse_hex_defined(&v.bytes) else {
        return String::new();
    };
    let ips = instruction_ips(p, &bytes);
    let Some(i) = ips.iter().position(|a| *a == ip) else {
        return String::new();
    };
    v.text
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty() && !l.ends_with(':'))
        .nth(i)
        .unwrap_or_default()
        .to_string()
}

/// Whether the simulator's state after `k` instructions differs from euref's: the outcome
/// of that comparison (`Pass` when they agree).
fn probe(sim: &mut Sim, v: &ProgramVector, k: u64) -> Result<(Outcome, Option<Ran>), String> {
    let req = ProgramRequest::from_vector(v, Some(k));
    let ran = match program_run::run(&req, None, true) {
        Ok(r) => r,
        Err(e) => {
            return Ok((
                Outcome::BadVector {
                    message: format!("euref cannot run the program's first {k} steps: {e}"),
                },
                None,
            ))
        }
    };
    let exp = Expectation::of_run(&req, &ran);
    let insn = ran.last.as_ref().map(|l| (text_at(v, l.ip), &l.insn));
    let o = match sim.ask(&req)? {
        Ok(r) => exp.judge(&v.id, &v.gen, &r, (ran.steps, ran.ended), insn),
        Err(o) => o,
    };
    Ok((o, Some(ran)))
}

/// The spec rows that govern the instruction of `l` on that state (`after`: the state after
/// it): the rows its single-instruction vector would list (opcode, types, modifiers:
/// [`crate::golden::build::rows_exercised`]), and for a branch its spec/flow.toml row, for a
/// send the rows of its message (the spec/descriptors.toml message type, the
/// spec/memory.toml rows of that message type, send.channels, send.eot with EOT).
pub fn rows_of_step(l: &program_run::LastStep, after: &crate::state::ThreadState) -> Vec<String> {
    let p = l.before.platform();
    let mut rows: Vec<String> =
        crate::golden::build::rows_exercised(&l.insn, &l.before, after, l.enabled)
            .into_iter()
            .map(String::from)
            .collect();
    let op = l.insn.op;
    if op.info().class == crate::spec::OpClass::Flow {
        let flow_row = if op == crate::spec::Opcode::Else
            && l.insn.ctrl.branch_ctrl
            && crate::spec::flow::ELSE_BRANCH_CTRL.gens.contains(p)
        {
            Some(&crate::spec::flow::ELSE_BRANCH_CTRL)
        } else {
            crate::spec::flow::of_op(op.name(), p)
        };
        rows.extend(flow_row.map(|r| r.id.to_string()));
    }
    if l.insn.is_send() {
        if let Ok(m) = crate::shared::message(&l.before, &l.insn) {
            if let Some(t) = m.ty {
                rows.push(t.id.to_string());
                rows.extend(
                    crate::spec::memory::ROWS
                        .iter()
                        .filter(|r| r.message == Some(t.name) && r.gens.contains(p))
                        .map(|r| r.id.to_string()),
                );
            }
        }
        rows.push(crate::spec::memory::SEND_CHANNELS.id.to_string());
        if l.insn.ctrl.eot {
            rows.push(crate::spec::memory::SEND_EOT.id.to_string());
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    rows.retain(|r| seen.insert(r.clone()));
    rows
}

/// Localize a failing program: from the simulator's trace when it gives one, else by
/// bisection ([`bisect`]). `full`: the outcome of the whole run (a run that ended in an
/// error or no answer gives no trace either: the trace is not asked for).
fn localize(
    sim: &mut Sim,
    v: &ProgramVector,
    full: &Outcome,
) -> Result<Result<Localized, String>, String> {
    let (found, probes) = match full {
        Outcome::Fail(_) => by_trace(sim, v)?,
        _ => (None, 0),
    };
    match found {
        Some(l) => Ok(Ok(l)),
        None => bisect(sim, v, probes),
    }
}

/// Localize from the simulator's trace: `None` (with the requests sent) when it gives no
/// trace, its trace agrees with euref's, or the confirming request does not fail.
fn by_trace(sim: &mut Sim, v: &ProgramVector) -> Result<(Option<Localized>, u32), String> {
    let mut req = ProgramRequest::from_vector(v, None);
    req.trace = true;
    let theirs = match sim.ask(&req)? {
        Ok(ProgramResponse {
            trace: Some(t),
            error: None,
            ..
        }) => t,
        _ => return Ok((None, 1)),
    };
    let Ok(ours) = program_run::run(&req, None, false) else {
        return Ok((None, 1));
    };
    let start = program_run::execute(&ProgramRequest::from_vector(v, Some(0)), None);
    let Some(d) = super::program_trace::first_divergence(
        &start,
        ours.trace.as_deref().unwrap_or_default(),
        &theirs,
    ) else {
        return Ok((None, 1));
    };
    // Confirm: the state after the first differing step (the end when the traces differ
    // only in control) differs from euref's.
    let confirm = d.state.map_or(v.steps, |i| i as u64 + 1);
    let (after, _) = probe(sim, v, confirm)?;
    if after == Outcome::Pass {
        return Ok((None, 2));
    }
    let step = d.blamed.map_or(0, |i| i as u64 + 1);
    let (ip, text, rules) = match step {
        0 => (None, String::new(), Vec::new()),
        k => {
            let ran = program_run::run(&ProgramRequest::from_vector(v, Some(k)), None, true)
                .ok()
                .filter(|r| r.steps == k);
            match ran.as_ref().and_then(|r| r.last.as_ref().map(|l| (r, l))) {
                Some((r, l)) => (Some(l.ip), text_at(v, l.ip), rows_of_step(l, &r.state)),
                None => return Ok((None, 2)),
            }
        }
    };
    Ok((
        Some(Localized {
            step,
            ip,
            text,
            rules,
            after,
            probes: 2,
            via: "trace",
            differs_after: (confirm != step).then_some(confirm),
        }),
        2,
    ))
}

/// Localize a failing program without a trace: the first step after which the simulator's
/// state differs from euref's (bisecting the step limit between the initial state and the
/// end). `probes`: requests already sent.
fn bisect(
    sim: &mut Sim,
    v: &ProgramVector,
    mut probes: u32,
) -> Result<Result<Localized, String>, String> {
    let mut hi = v.steps;
    let (o, ran) = probe(sim, v, hi)?;
    probes += 1;
    if let Outcome::BadVector { message } = &o {
        return Ok(Err(message.clone()));
    }
    if o == Outcome::Pass {
        return Ok(Err(format!(
            "the simulator's state after {hi} steps (the program's length) matches euref's: \
             the full run differs only beyond it, or the simulator is not deterministic"
        )));
    }
    let mut at_hi = Some((o, ran));
    let (o0, _) = probe(sim, v, 0)?;
    probes += 1;
    let mut lo = 0u64;
    if o0 != Outcome::Pass {
        return Ok(Ok(Localized {
            step: 0,
            ip: None,
            text: String::new(),
            rules: Vec::new(),
            after: o0,
            probes,
            via: "bisection",
            differs_after: None,
        }));
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        let (o, ran) = probe(sim, v, mid)?;
        probes += 1;
        if o == Outcome::Pass {
            lo = mid;
        } else {
            hi = mid;
            at_hi = Some((o, ran));
        }
    }
    let Some((after, Some(ran))) = at_hi else {
        return Ok(Err("euref's run of the prefix failed".into()));
    };
    let (ip, rules) = match &ran.last {
        Some(l) => (Some(l.ip), rows_of_step(l, &ran.state)),
        None => (None, Vec::new()),
    };
    Ok(Ok(Localized {
        step: hi,
        ip,
        text: ip.map(|ip| text_at(v, ip)).unwrap_or_default(),
        rules,
        after,
        probes,
        via: "bisection",
        differs_after: None,
    }))
}

/// Check every program vector read from `input`: a report line each to `report`, counts to
/// `summary`; `on_result` sees each report line.
pub fn run(
    opts: &ProgramCheckOptions,
    input: impl BufRead,
    report: &mut dyn Write,
    summary: &mut ProgramSummary,
    mut on_result: impl FnMut(&ProgramReportLine),
) -> Result<(), String> {
    let mut sim = Sim::start(opts)?;
    for (n, line) in input.lines().enumerate() {
        let line = line.map_err(|e| format!("vectors line {}: {e}", n + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        let (id, outcome, localized, unlocalized) =
            match serde_json::from_str::<ProgramVector>(&line) {
                Err(e) => (
                    format!("line-{}", n + 1),
                    Outcome::BadVector {
                        message: format!(
                            "line {}: not a program vector ({e}; a file of program vectors holds \
                             only program vectors)",
                            n + 1
                        ),
                    },
                    None,
                    None,
                ),
                Ok(v) => {
                    let req = ProgramRequest::from_vector(&v, None);
                    let exp = Expectation::of_vector(&v);
                    let o = match sim.ask(&req)? {
                        Ok(r) => exp.judge(&v.id, &v.gen, &r, (v.steps, true), None),
                        Err(o) => o,
                    };
                    let (mut loc, mut unloc) = (None, None);
                    if matches!(
                        o,
                        Outcome::Fail(_) | Outcome::SimError { .. } | Outcome::Incomplete { .. }
                    ) {
                        match localize(&mut sim, &v, &o)? {
                            Ok(l) => loc = Some(l),
                            Err(e) => unloc = Some(e),
                        }
                    }
                    (v.id, o, loc, unloc)
                }
            };
        let status = outcome.status();
        summary.total += 1;
        *summary.by_status.entry(status).or_default() += 1;
        summary.localized += u64::from(localized.is_some());
        let rl = ProgramReportLine {
            id,
            kind: crate::golden::program::vector::KIND,
            status,
            detail: (outcome != Outcome::Pass).then_some(outcome),
            localized,
            unlocalized,
        };
        let mut text = serde_json::to_string(&rl).map_err(|e| format!("report: {e}"))?;
        text.push('\n');
        report
            .write_all(text.as_bytes())
            .map_err(|e| format!("report: {e}"))?;
        on_result(&rl);
    }
    sim.proc.kill();
    summary.restarts = sim.restarts;
    report.flush().map_err(|e| format!("report: {e}"))
}

/// The text printed for a program that did not pass.
pub fn describe(r: &ProgramReportLine) -> String {
    let mut s = format!("{} (program): {}", r.id, r.status);
    let diffs = |o: &Outcome, s: &mut String| match o {
        Outcome::Fail(d) | Outcome::Unmodelled(d) | Outcome::Ignored(d) => {
            for x in d.differences.iter().take(4) {
                s.push_str(&format!("\n    {}", difference_line(x)));
            }
            if d.count() > 4 {
                s.push_str(&format!("\n    ({} more differences)", d.count() - 4));
            }
        }
        o => s.push_str(&format!(
            "\n    {}",
            serde_json::to_string(o).unwrap_or_default()
        )),
    };
    if let Some(o) = &r.detail {
        s.push_str("\n  at the end:");
        diffs(o, &mut s);
    }
    if let Some(l) = &r.localized {
        match l.ip {
            Some(ip) => s.push_str(&format!(
                "\n  first differs at step {} ({} requests, by {}): ip {ip:#x} `{}`\n  rows: {}\n  after {}:",
                l.step,
                l.probes,
                l.via,
                l.text,
                l.rules.join(", "),
                l.differs_after
                    .map_or_else(|| "it".to_string(), |k| format!("step {k}"))
            )),
            None => s.push_str("\n  the initial states differ:"),
        }
        diffs(&l.after, &mut s);
    }
    if let Some(u) = &r.unlocalized {
        s.push_str(&format!("\n  not localized: {u}"));
    }
    s
}
