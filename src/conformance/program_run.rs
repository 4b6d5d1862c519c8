//! A program request run on the reference model's thread runner (src/thread, memory from
//! src/memory): what `euref sim` answers to it, and what `euref check` compares a simulator's
//! answer with when it localizes a failing program.
//!
//! "Stopped after N instructions" (`step_limit`): the thread executes instructions one at a
//! time, each counting as one step whatever it is (an ALU instruction, a branch, a `halt`, a
//! `join`, a message; an instruction jumped over is no step), until N have executed or the
//! end-of-thread message has executed, whichever comes first; the state is then reported.
//! A limit of 0 reports the initial state; a limit at or beyond the program's length reports
//! its end (`ended` true). A `halt` ends no thread: its channels wait, and the others go on.
//!
//! With `trace` asked for, the run records one [`TraceEntry`] per executed instruction: its
//! IP, the channels on it (dispatched, PcIP = IP) and what it changed of the reported
//! registers and the surface.

use super::inject::Fault;
use super::program_protocol::{ProgramRequest, ProgramResponse, SurfaceRun, TraceEntry};
use super::regs;
use crate::exec::ExecOptions;
use crate::golden::program::vector::{set_dispatch_mask, slm_of};
use crate::isa::Insn;
use crate::memory::{Memory, Surface};
use crate::spec::Platform;
use crate::state::ThreadState;
use crate::thread::{Image, Thread};
use std::collections::BTreeMap;

/// The last instruction a run executed, with the state before it.
#[derive(Debug, Clone)]
pub struct LastStep {
    pub ip: u32,
    pub insn: Insn,
    pub enabled: u32,
    pub before: ThreadState,
}

/// Where a run stopped.
#[derive(Debug, Clone)]
pub struct Ran {
    pub state: ThreadState,
    pub memory: Memory,
    pub steps: u64,
    pub ended: bool,
    /// The last instruction executed (when asked for; one thread only).
    pub last: Option<LastStep>,
    /// Threads 1, 2, ... (the request's `more_threads`), where each stopped.
    pub more: Vec<ThreadRan>,
    /// With several threads: each thread's (thread 0 first) last executed instruction, its
    /// IP and enabled channels (None: it executed none).
    pub last_steps: Vec<Option<(u32, u32)>>,
    /// One entry per executed instruction (when the request asks for the trace).
    pub trace: Option<Vec<TraceEntry>>,
}

/// Where one more thread of a work group stopped.
#[derive(Debug, Clone)]
pub struct ThreadRan {
    pub state: ThreadState,
    pub steps: u64,
    pub ended: bool,
}

/// The program's bytes with `fault` applied to every instruction (a native instruction
/// perturbed in place; compacted ones are left as they are).
fn faulted_bytes(p: Platform, bytes: &[u8], fault: Fault) -> Result<Vec<u8>, String> {
    let mut out = bytes.to_vec();
    let mut at = 0usize;
    while at < bytes.len() {
        let Ok((mut insn, size)) = crate::codec::decode(&bytes[at..], p) else {
            at += 8;
            continue;
        };
        let size = size.max(8);
        if size == 16 {
            fault.apply_program_insn(&mut insn, p);
            insn.ctrl.compacted = false;
            if let Ok(b) = crate::codec::encode(&insn, p) {
                out[at..at + 16].copy_from_slice(&b);
            }
        }
        at += size;
    }
    Ok(out)
}

/// Run `req` (its `step_limit` honoured), keeping the last step when `keep_last`.
pub fn run(req: &ProgramRequest, fault: Option<Fault>, keep_last: bool) -> Result<Ran, String> {
    let p =
        Platform::parse(&req.gen).ok_or_else(|| format!("gen: unknown platform `{}`", req.gen))?;
    let mut bytes = regs::parse_hex_defined(&req.bytes).map_err(|e| format!("bytes: {e}"))?;
    if let Some(f) = fault {
        if let Some(e) = f.error() {
            return Err(e.into());
        }
        bytes = faulted_bytes(p, &bytes, f)?;
    }
    let mut st = ThreadState::new(p);
    set_dispatch_mask(&mut st, req.dmask).map_err(|e| format!("dmask: {e}"))?;
    for (name, hex) in &req.initial {
        let b = regs::parse_hex(hex).map_err(|e| format!("initial.{name}: {e}"))?;
        regs::write(&mut st, name, &b).map_err(|e| format!("initial.{name}: {e}"))?;
    }
    let mut mem = Memory::new();
    if let Some(s) = &req.surface {
        let b = regs::parse_hex(&s.bytes).map_err(|e| format!("surface.bytes: {e}"))?;
        if b.len() as u64 != s.size {
            return Err(format!(
                "surface: `bytes` has {} bytes, `size` says {}",
                b.len(),
                s.size
            ));
        }
        mem.bind(
            s.bti,
            Surface {
                base: s.base,
                size: s.size,
            },
        );
        for (i, v) in b.iter().enumerate() {
            if let Some(v) = v {
                mem.flat.load(s.base + i as u64, &[*v]);
            }
        }
    }
    if let Some(s) = &req.slm {
        let b = regs::parse_hex(&s.bytes).map_err(|e| format!("slm.bytes: {e}"))?;
        if b.len() as u64 != u64::from(s.size) {
            return Err(format!(
                "slm: `bytes` has {} bytes, `size` says {}",
                b.len(),
                s.size
            ));
        }
        mem.set_slm(slm_of(&b));
    }
    let image = Image::new(p, bytes, 0);
    if !req.more_threads.is_empty() {
        return run_group(req, p, image, st, mem);
    }
    let mut t = Thread::new(image, &mut st).map_err(|e| e.to_string())?;
    let opts = ExecOptions::default();
    let limit = req.step_limit.unwrap_or(u64::MAX);
    let mut last = None;
    let mut trace = req.trace.then(Vec::new);
    while !t.ended() && t.steps() < limit {
        let before = keep_last.then(|| st.clone());
        let seen = trace.as_ref().map(|_| Observed::of(req, &t, &st, &mem));
        if let Some(f) = fault {
            writes_all_channels(f, &mut t, &mut st, &mut mem)
                .map_err(|e| format!("step {}: {e}", t.steps() + 1))?;
        }
        let s = t
            .step_limited_with_memory(&mut st, &opts, req.max_steps, &mut mem)
            .map_err(|e| format!("step {}: {e}", t.steps() + 1))?;
        if let (Some(tr), Some(seen)) = (trace.as_mut(), seen) {
            tr.push(seen.entry(req, &st, &mem));
        }
        if let Some(before) = before {
            last = Some(LastStep {
                ip: s.ip,
                insn: s.insn,
                enabled: s.enabled,
                before,
            });
        }
    }
    if t.ended() && !t.ended_by_eot() {
        return Err("the program ended without an end-of-thread message".into());
    }
    Ok(Ran {
        steps: t.steps(),
        ended: t.ended(),
        state: st,
        memory: mem,
        last,
        trace,
        more: Vec::new(),
        last_steps: Vec::new(),
    })
}

/// Run a request with several threads: thread 0 from `st` and the others from
/// `more_threads`, one work group on `mem` (the dispatch runner's,
/// [`crate::dispatch::run::run_threads`]), each stopped after `step_limit` of its own
/// instructions or where it waits at a barrier that can then no longer complete.
fn run_group(
    req: &ProgramRequest,
    p: Platform,
    image: Image,
    st: ThreadState,
    mut mem: Memory,
) -> Result<Ran, String> {
    use crate::dispatch::run::{run_threads, RunOptions, ThreadEnd};
    let mut states = vec![st];
    for (k, t) in req.more_threads.iter().enumerate() {
        let mut s = ThreadState::new(p);
        set_dispatch_mask(&mut s, t.dmask).map_err(|e| format!("more_threads[{k}].dmask: {e}"))?;
        for (name, hex) in &t.initial {
            let at = || format!("more_threads[{k}].initial.{name}");
            let b = regs::parse_hex(hex).map_err(|e| format!("{}: {e}", at()))?;
            regs::write(&mut s, name, &b).map_err(|e| format!("{}: {e}", at()))?;
        }
        states.push(s);
    }
    let o = RunOptions {
        max_steps: req.max_steps,
        exec: ExecOptions::default(),
        trace: false,
    };
    let mut runs = run_threads(&image, states, &mut mem, &o, req.step_limit, true).into_iter();
    let mut threads = Vec::new();
    let mut last_steps = Vec::new();
    for (t, r) in runs.by_ref().enumerate() {
        match &r.end {
            ThreadEnd::Error { message, .. } => return Err(format!("thread {t}: {message}")),
            ThreadEnd::EndOfImage if r.ended => {
                return Err(format!(
                    "thread {t}: the program ended without an end-of-thread message"
                ))
            }
            _ => {}
        }
        last_steps.push(r.seen.last().map(|s| (s.ip, s.enabled)));
        threads.push(ThreadRan {
            state: r.state,
            steps: r.steps,
            ended: r.ended,
        });
    }
    let mut threads = threads.into_iter();
    let Some(first) = threads.next() else {
        return Err("no thread ran".into());
    };
    Ok(Ran {
        state: first.state,
        memory: mem,
        steps: first.steps,
        ended: first.ended,
        last: None,
        more: threads.collect(),
        last_steps,
        trace: None,
    })
}

/// [`Fault::ScatterNoMask`]: when the instruction at IP is a send whose message the fault
/// widens, execute that message first with NoMask and no predicate for every channel of its
/// execution size (the send as written then runs as usual and writes its own channels
/// again, with the same data).
fn writes_all_channels(
    fault: Fault,
    t: &mut Thread,
    st: &mut ThreadState,
    mem: &mut Memory,
) -> Result<(), String> {
    let insn = match t.current() {
        Ok(Some(d)) if d.insn.is_send() => d.insn.clone(),
        _ => return Ok(()),
    };
    let Ok(msg) = crate::shared::message(st, &insn) else {
        return Ok(());
    };
    if !fault.writes_all_channels(&msg) {
        return Ok(());
    }
    let mut wide = insn;
    wide.ctrl.no_mask = true;
    wide.pred = crate::spec::PredCtrl::None;
    wide.pred_inv = false;
    st.set_channels_at_ip(u32::MAX);
    crate::shared::execute(st, &wide, Some(mem)).map_err(|e| e.to_string())?;
    let _ = st.take_written();
    Ok(())
}

/// What a trace entry is made from: the instruction's IP and channels, and the reported
/// registers and surface before it.
struct Observed {
    ip: u32,
    enabled: u32,
    regs: Vec<(Vec<u8>, Vec<u8>)>,
    surface: Vec<Option<u8>>,
    slm: Vec<Option<u8>>,
}

impl Observed {
    fn of(req: &ProgramRequest, t: &Thread, st: &ThreadState, mem: &Memory) -> Observed {
        let ip = t.ip();
        let enabled = (0..crate::thread::CHANNELS)
            .filter(|&n| t.dispatched() >> n & 1 == 1 && t.pcip(n) == ip)
            .fold(0u32, |m, n| m | 1 << n);
        Observed {
            ip,
            enabled,
            regs: read_all(req, st),
            surface: surface_bytes(req, mem),
            slm: slm_bytes(req, mem),
        }
    }

    /// The entry of the instruction, from the state after it.
    fn entry(self, req: &ProgramRequest, st: &ThreadState, mem: &Memory) -> TraceEntry {
        let mut e = TraceEntry {
            ip: self.ip,
            enabled: self.enabled,
            ..TraceEntry::default()
        };
        for ((name, was), now) in req.report.iter().zip(&self.regs).zip(read_all(req, st)) {
            if *was != now {
                e.wrote.insert(name.clone(), marked_hex(&now.0, &now.1));
                if let Some(m) = crate::state::json::inexact_hex(st, name) {
                    e.inexact.insert(name.clone(), m);
                }
            }
        }
        e.surface = changed_runs(&self.surface, &surface_bytes(req, mem));
        e.slm = changed_runs(&self.slm, &slm_bytes(req, mem));
        e
    }
}

/// The runs of bytes of `after` that differ from `before` (a value or an undefined mark).
fn changed_runs(before: &[Option<u8>], after: &[Option<u8>]) -> Vec<SurfaceRun> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < after.len() {
        if before.get(i) == after.get(i) {
            i += 1;
            continue;
        }
        let from = i;
        while i < after.len() && before.get(i) != after.get(i) {
            i += 1;
        }
        runs.push(SurfaceRun {
            offset: from as u64,
            bytes: surface_hex(&after[from..i]),
        });
    }
    runs
}

/// The SLM's bytes (empty when the request has none).
fn slm_bytes(req: &ProgramRequest, mem: &Memory) -> Vec<Option<u8>> {
    match (&req.slm, mem.slm()) {
        (Some(_), Some(s)) => s.bytes.read(0, s.size as usize),
        _ => Vec::new(),
    }
}

/// The reported registers' bytes and undefined marks (empty for a name that is none).
fn read_all(req: &ProgramRequest, st: &ThreadState) -> Vec<(Vec<u8>, Vec<u8>)> {
    req.report
        .iter()
        .map(|n| regs::read(st, n).map_or_else(Default::default, |r| (r.bytes, r.undef)))
        .collect()
}

/// The surface's bytes (empty without a surface).
fn surface_bytes(req: &ProgramRequest, mem: &Memory) -> Vec<Option<u8>> {
    req.surface
        .as_ref()
        .map(|s| mem.flat.read(s.base, s.size as usize))
        .unwrap_or_default()
}

/// Hex of surface bytes, `xx` for an undefined byte.
fn surface_hex(b: &[Option<u8>]) -> String {
    b.iter()
        .map(|b| b.map_or_else(|| "xx".to_string(), |b| format!("{b:02x}")))
        .collect()
}

/// Hex of register bytes, `xx` for an undefined byte.
fn marked_hex(bytes: &[u8], undef: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for (b, u) in bytes.iter().zip(undef) {
        if *u == 0xff {
            s.push_str("xx");
        } else {
            s.push_str(&regs::to_hex(&[b & !u]));
        }
    }
    s
}

/// The registers `report` of `st` (hex, `xx` undefined) and their inexact marks.
type Reported = (BTreeMap<String, String>, BTreeMap<String, String>);

/// The registers `report` of `st`; `what` names the request key in errors.
fn reported(st: &ThreadState, report: &[String], what: &str) -> Result<Reported, String> {
    let mut fin = BTreeMap::new();
    let mut inexact = BTreeMap::new();
    for name in report {
        let r = regs::read(st, name).ok_or_else(|| format!("{what}: no register `{name}`"))?;
        fin.insert(name.clone(), marked_hex(&r.bytes, &r.undef));
        if let Some(m) = crate::state::json::inexact_hex(st, name) {
            inexact.insert(name.clone(), m);
        }
    }
    Ok((fin, inexact))
}

/// The response to `req` from what `ran` ended with.
pub fn response(req: &ProgramRequest, ran: &Ran) -> Result<ProgramResponse, String> {
    let (fin, inexact) = reported(&ran.state, &req.report, "report")?;
    let mut more_threads = Vec::new();
    for (k, (t, r)) in req.more_threads.iter().zip(&ran.more).enumerate() {
        let (fin, inexact) = reported(&r.state, &t.report, &format!("more_threads[{k}].report"))?;
        more_threads.push(super::program_protocol::ThreadResponse {
            fin,
            steps: Some(r.steps),
            ended: Some(r.ended),
            inexact,
        });
    }
    let surface = req
        .surface
        .as_ref()
        .map(|s| surface_hex(&ran.memory.flat.read(s.base, s.size as usize)));
    let slm = req
        .slm
        .as_ref()
        .and(ran.memory.slm())
        .map(|s| surface_hex(&s.bytes.read(0, s.size as usize)));
    Ok(ProgramResponse {
        id: req.id.clone(),
        fin,
        surface,
        slm,
        steps: Some(ran.steps),
        ended: Some(ran.ended),
        inexact,
        trace: ran.trace.clone(),
        error: None,
        more_threads,
    })
}

/// What `euref sim` answers to a program request.
pub fn execute(req: &ProgramRequest, fault: Option<Fault>) -> ProgramResponse {
    run(req, fault, false)
        .and_then(|ran| response(req, &ran))
        .unwrap_or_else(|e| ProgramResponse::error(&req.id, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::golden::program::program_vector;

    fn vector() -> crate::golden::program::ProgramVector {
        (0..40)
            .map(|i| program_vector(Platform::Skl, 5, i).unwrap())
            .find(|v| v.surface.is_some() && v.steps > 20)
            .unwrap()
    }

    /// Without a limit the run ends as the vector says; limit 0 is the initial state; a
    /// limit k < steps stops after k instructions, not ended; a limit beyond the end is the
    /// end.
    #[test]
    fn the_step_limit_stops_after_that_many_instructions() {
        let v = vector();
        let full = execute(&ProgramRequest::from_vector(&v, None), None);
        assert_eq!(full.error, None);
        assert_eq!((full.steps, full.ended), (Some(v.steps), Some(true)));
        for (name, hex) in &v.expected {
            let got = &full.fin[name];
            let undef = v.undefined.get(name);
            for (k, (e, g)) in hex
                .as_bytes()
                .chunks(2)
                .zip(got.as_bytes().chunks(2))
                .enumerate()
            {
                let u = undef.map_or("00", |u| &u[2 * k..2 * k + 2]);
                if u == "00" {
                    assert_eq!(e, g, "{name} byte {k}");
                }
            }
        }
        assert_eq!(
            full.surface.as_deref().map(|s| s.replace("xx", "00")),
            v.expected_surface.as_ref().map(|s| s.bytes.clone())
        );
        let zero = execute(&ProgramRequest::from_vector(&v, Some(0)), None);
        assert_eq!((zero.steps, zero.ended), (Some(0), Some(false)));
        for (name, hex) in &v.initial {
            assert_eq!(&zero.fin[name], hex, "{name}");
        }
        assert_eq!(zero.surface.as_ref(), v.surface.as_ref().map(|s| &s.bytes));
        let k = v.steps / 2;
        let half = execute(&ProgramRequest::from_vector(&v, Some(k)), None);
        assert_eq!((half.steps, half.ended), (Some(k), Some(false)));
        let past = execute(&ProgramRequest::from_vector(&v, Some(v.steps + 5)), None);
        assert_eq!(past, full);
        let at = execute(&ProgramRequest::from_vector(&v, Some(v.steps)), None);
        assert_eq!(at, full);
    }
}
