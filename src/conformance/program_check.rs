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
use crate::state::ThreadState;
use crate::vector::{DstInfo, Vector};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::time::Duration;

/// The name the surface's bytes are compared under (as if a register of that name).
pub const SURFACE: &str = "surface";
/// The name the SLM's bytes are compared under.
pub const SLM: &str = "slm";

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
    /// With several threads: the thread whose step `step` it is (the thread of the first
    /// difference, else the first thread that executed a step `step`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thread: Option<u32>,
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
    /// Threads 1, 2, ...: each one's step count and whether it ended (its registers are in
    /// `expected` as `t<k>.<register>`).
    more: Vec<(u64, bool)>,
}

/// The name a register of thread `k` is compared under (thread 0: its own name).
fn thread_reg(k: usize, name: &str) -> String {
    if k == 0 {
        name.to_string()
    } else {
        format!("t{k}.{name}")
    }
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
        if let Some(s) = &v.expected_slm {
            // Undefined and inexact bytes alike are not compared.
            expected.insert(SLM.into(), s.bytes.clone());
            let u = match (&s.undefined, &s.inexact) {
                (Some(u), i) => Some(or_masks(i.as_ref(), u)),
                (None, Some(i)) => Some(i.clone()),
                (None, None) => None,
            };
            if let Some(u) = u {
                undefined.insert(SLM.into(), u);
            }
        }
        for (i, t) in v.more_threads.iter().enumerate() {
            for (r, hex) in &t.expected {
                expected.insert(thread_reg(i + 1, r), hex.clone());
            }
            for (r, m) in &t.undefined {
                undefined.insert(thread_reg(i + 1, r), m.clone());
            }
            for (r, m) in &t.inexact {
                let name = thread_reg(i + 1, r);
                let u = or_masks(undefined.get(&name), m);
                undefined.insert(name, u);
            }
        }
        Expectation {
            expected,
            undefined,
            more: v.more_threads.iter().map(|t| (t.steps, true)).collect(),
        }
    }

    /// What euref's run `ran` of `req` ends with.
    fn of_run(req: &ProgramRequest, ran: &Ran) -> Expectation {
        let mut expected = BTreeMap::new();
        let mut undefined = BTreeMap::new();
        let threads = std::iter::once((&ran.state, &req.report)).chain(
            ran.more
                .iter()
                .zip(&req.more_threads)
                .map(|(r, t)| (&r.state, &t.report)),
        );
        for (k, (st, report)) in threads.enumerate() {
            for name in report {
                let Some(r) = regs::read(st, name) else {
                    continue;
                };
                let bytes: Vec<u8> = r.bytes.iter().zip(&r.undef).map(|(b, u)| b & !u).collect();
                expected.insert(thread_reg(k, name), hex(&bytes));
                let mut u = (r.undef.iter().any(|u| *u != 0)).then(|| hex(&r.undef));
                if let Some(m) = crate::state::json::inexact_hex(st, name) {
                    u = Some(or_masks(u.as_ref(), &m));
                }
                if let Some(u) = u {
                    undefined.insert(thread_reg(k, name), u);
                }
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
        if let (Some(_), Some(slm)) = (&req.slm, ran.memory.slm()) {
            let fin = slm.bytes.read(0, slm.size as usize);
            let bytes: Vec<u8> = fin.iter().map(|b| b.unwrap_or(0)).collect();
            expected.insert(SLM.into(), hex(&bytes));
            let u: Vec<u8> = fin
                .iter()
                .zip(slm.bytes.inexact(0, slm.size as usize))
                .map(|(b, i)| if b.is_none() || i { 0xff } else { 0 })
                .collect();
            if u.iter().any(|u| *u != 0) {
                undefined.insert(SLM.into(), hex(&u));
            }
        }
        Expectation {
            expected,
            undefined,
            more: ran.more.iter().map(|t| (t.steps, t.ended)).collect(),
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
        if let Some(s) = &r.slm {
            fin.insert(SLM.into(), s.clone());
        }
        for (i, t) in r.more_threads.iter().enumerate() {
            for (name, hex) in &t.fin {
                fin.insert(thread_reg(i + 1, name), hex.clone());
            }
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
            for (i, (&(steps, ended), t)) in self.more.iter().zip(&r.more_threads).enumerate() {
                if let Some(s) = t.steps.filter(|s| *s != steps) {
                    extra.push(counter(&thread_reg(i + 1, "steps"), steps, s));
                }
                if let Some(e) = t.ended.filter(|e| *e != ended) {
                    extra.push(counter(
                        &thread_reg(i + 1, "ended"),
                        u64::from(ended),
                        u64::from(e),
                    ));
                }
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
pub(crate) struct Sim<'o> {
    opts: &'o ProgramCheckOptions,
    pub(crate) proc: SimProcess,
    dead_starts: u32,
    restarts: u64,
}

impl<'o> Sim<'o> {
    pub(crate) fn start(opts: &'o ProgramCheckOptions) -> Result<Sim<'o>, String> {
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

/// The outcome of program vector `v` on the simulator: one request, run to the end, the
/// response compared with the vector's `expected` (an error: the simulator cannot start).
pub(crate) fn judge_vector(sim: &mut Sim, v: &ProgramVector) -> Result<Outcome, String> {
    let req = ProgramRequest::from_vector(v, None);
    let exp = Expectation::of_vector(v);
    Ok(match sim.ask(&req)? {
        Ok(r) => exp.judge(&v.id, &v.gen, &r, (v.steps, true), None),
        Err(o) => o,
    })
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
        // The trace is of one thread: vectors of several threads are bisected.
        Outcome::Fail(_) if v.more_threads.is_empty() => by_trace(sim, v)?,
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
            thread: None,
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
    // With several threads the limit counts each thread's own steps: up to the longest.
    let mut hi = v
        .more_threads
        .iter()
        .map(|t| t.steps)
        .fold(v.steps, u64::max);
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
            thread: None,
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
    if !v.more_threads.is_empty() {
        return Ok(Ok(localized_thread(v, hi, after, &ran, probes)));
    }
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
        thread: None,
        via: "bisection",
        differs_after: None,
    }))
}

/// The thread a difference is in (`t<k>.` names, thread 0 plain names; None: the shared
/// surface or SLM, or a count).
fn thread_of(d: &Difference) -> Option<usize> {
    if d.reg == SURFACE || d.reg == SLM {
        return None;
    }
    match d.reg.strip_prefix('t').and_then(|r| r.split_once('.')) {
        Some((k, _)) => k.parse().ok(),
        None => Some(0),
    }
}

/// A several-thread program first differs after `step` steps of each thread (`ran`:
/// euref's run to there): the instruction is that step of the thread of the first
/// difference, or of the first thread that executed a step `step` when that thread did not
/// (a difference in the shared memory); its rows from its state before (euref's run to
/// `step` - 1) and after.
fn localized_thread(
    v: &ProgramVector,
    step: u64,
    after: Outcome,
    ran: &Ran,
    probes: u32,
) -> Localized {
    let state_of = |r: &Ran, k: usize| -> Option<ThreadState> {
        if k == 0 {
            Some(r.state.clone())
        } else {
            r.more.get(k - 1).map(|t| t.state.clone())
        }
    };
    let steps_of = |k: usize| {
        if k == 0 {
            ran.steps
        } else {
            ran.more.get(k - 1).map_or(0, |t| t.steps)
        }
    };
    let executed =
        |k: usize| steps_of(k) == step && ran.last_steps.get(k).copied().flatten().is_some();
    let first = match &after {
        Outcome::Fail(d) => d.differences.iter().find_map(thread_of),
        _ => None,
    };
    let threads = ran.last_steps.len();
    let k = first
        .filter(|&k| executed(k))
        .or_else(|| (0..threads).find(|&k| executed(k)));
    let mut loc = Localized {
        step,
        ip: None,
        text: String::new(),
        rules: Vec::new(),
        after,
        probes,
        thread: k.map(|k| k as u32),
        via: "bisection",
        differs_after: None,
    };
    let Some(k) = k else {
        return loc;
    };
    let Some((ip, enabled)) = ran.last_steps.get(k).copied().flatten() else {
        return loc;
    };
    loc.ip = Some(ip);
    loc.text = text_at(v, ip);
    let req = ProgramRequest::from_vector(v, Some(step - 1));
    let p = Platform::parse(&v.gen);
    let bytes = regs::parse_hex_defined(&v.bytes).ok();
    if let (Ok(before), Some(after), Some(p), Some(bytes)) = (
        program_run::run(&req, None, false),
        state_of(ran, k),
        p,
        bytes,
    ) {
        let insn = bytes
            .get(ip as usize..)
            .and_then(|b| crate::codec::decode(b, p).ok())
            .map(|(i, _)| i);
        if let (Some(insn), Some(before)) = (insn, state_of(&before, k)) {
            let last = program_run::LastStep {
                ip,
                insn,
                enabled,
                before,
            };
            loc.rules = rows_of_step(&last, &after);
        }
    }
    loc
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
                    let o = judge_vector(&mut sim, &v)?;
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
                "\n  first differs at step {}{} ({} requests, by {}): ip {ip:#x} `{}`\n  rows: {}\n  after {}:",
                l.step,
                l.thread.map(|t| format!(" of thread {t}")).unwrap_or_default(),
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
