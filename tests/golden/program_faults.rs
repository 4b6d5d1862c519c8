//! The control-flow and message faults of `euref sim --inject` in program requests (issue
//! 31): join-early, break-all and scatter-nomask. For each, `euref check` fails generated
//! Skylake program vectors, and the localization names the instruction worked out here by
//! running each program twice in lockstep, as written and with the fault made by hand (the
//! instruction re-encoded, or the message executed for every channel): the instruction of the
//! first step whose state differs, or, when the IP or the channels on an instruction (the
//! dispatched channels whose PcIP is that IP) differ first, the instruction before it, which
//! handed on that control. With the simulator's trace (`euref sim` gives one) that is a goto,
//! a break or a send; without it (`euref sim --no-trace`) the bisection of the step limit
//! names the first instruction whose state differs.

use crate::golden_util::EUREF;
use crate::program_check::{check, observed, start, write_vectors, Run};
use crate::program_hand::hex_bytes;
use crate::scratch_util::Scratch;
use euref::exec::ExecOptions;
use euref::isa::Insn;
use euref::spec::{Opcode, Platform, PredCtrl};
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Fault {
    JoinEarly,
    BreakAll,
    ScatterNoMask,
}

impl Fault {
    fn name(self) -> &'static str {
        match self {
            Fault::JoinEarly => "join-early",
            Fault::BreakAll => "break-all",
            Fault::ScatterNoMask => "scatter-nomask",
        }
    }

    /// The opcode of the instruction a localization names.
    fn op(self) -> Opcode {
        match self {
            Fault::JoinEarly => Opcode::Goto,
            Fault::BreakAll => Opcode::Break,
            Fault::ScatterNoMask => Opcode::Send,
        }
    }

    /// A row the localization must list for that instruction.
    fn row(self) -> &'static str {
        match self {
            Fault::JoinEarly => "flow.goto",
            Fault::BreakAll => "flow.break",
            Fault::ScatterNoMask => "send.untyped-write",
        }
    }

    /// The program's bytes with the fault's encoding change: a goto's UIP the next
    /// instruction (join-early), a break unpredicated (break-all).
    fn bytes(self, p: Platform, bytes: &[u8]) -> Vec<u8> {
        let mut out = bytes.to_vec();
        for at in (0..bytes.len()).step_by(16) {
            let (mut insn, _) = euref::codec::decode(&bytes[at..at + 16], p).unwrap();
            match (self, insn.op) {
                (Fault::JoinEarly, Opcode::Goto) => {
                    insn.uip = Some(16 / euref::asm::jump_bytes(Opcode::Goto, p));
                }
                (Fault::BreakAll, Opcode::Break) => {
                    insn.pred = PredCtrl::None;
                    insn.pred_inv = false;
                }
                _ => continue,
            }
            out[at..at + 16].copy_from_slice(&euref::codec::encode(&insn, p).unwrap());
        }
        out
    }

    /// Before a step of the faulted run: scatter-nomask executes an untyped or scattered
    /// write for every channel of its execution size (NoMask, no predicate). An error is the
    /// run's error.
    fn before_step(self, r: &mut Run) -> Result<(), String> {
        if self != Fault::ScatterNoMask {
            return Ok(());
        }
        let Ok(Some(d)) = r.t.current() else {
            return Ok(());
        };
        let insn: Insn = d.insn.clone();
        if !insn.is_send() {
            return Ok(());
        }
        let m = euref::shared::message(&r.st, &insn).map_err(|e| e.to_string())?;
        let name = m.ty.map_or("", |t| t.name);
        if !(name.ends_with("_write") && (name.contains("untyped") || name.contains("scattered"))) {
            return Ok(());
        }
        let mut wide = insn;
        wide.ctrl.no_mask = true;
        wide.pred = PredCtrl::None;
        r.st.set_channels_at_ip(u32::MAX);
        euref::shared::execute(&mut r.st, &wide, Some(&mut r.mem)).map_err(|e| e.to_string())?;
        Ok(())
    }
}

/// Whether the faulted run's bytes differ from the plain run's on the bytes the plain run
/// defines (a byte the faulted run leaves undefined differs, as the checker counts it).
fn differ(plain: &[(u8, u8)], faulty: &[(u8, u8)]) -> bool {
    plain
        .iter()
        .zip(faulty)
        .any(|((a, ua), (b, ub))| ((a ^ b) | ub) & !ua != 0)
}

/// The channels on the instruction at IP: dispatched, PcIP = IP.
fn channels_on(r: &Run) -> u32 {
    (0..32)
        .filter(|&n| r.t.dispatched() >> n & 1 == 1 && r.t.pcip(n) == r.t.ip())
        .fold(0, |m, n| m | 1 << n)
}

/// What the lockstep runs give.
#[derive(Debug, Default)]
struct Lockstep {
    /// The instruction a trace localization names: (step, IP).
    named: Option<(u64, u32)>,
    /// Steps (with the plain run's IP) at which the states go from agreeing to differing,
    /// and whether, once differing, they never agree again.
    transitions: Vec<(u64, u32)>,
    persistent: bool,
    /// The states differ at the end (a difference the program overwrote does not).
    at_end: bool,
}

fn lockstep(v: &Value, fault: Fault) -> Lockstep {
    let p = Platform::parse(v["gen"].as_str().unwrap()).unwrap();
    let bytes: Vec<u8> = hex_bytes(v["bytes"].as_str().unwrap())
        .into_iter()
        .map(Option::unwrap)
        .collect();
    let (mut a, mut b) = (start(v, bytes.clone()), start(v, fault.bytes(p, &bytes)));
    let opts = ExecOptions::default();
    let mut out = Lockstep {
        persistent: true,
        ..Lockstep::default()
    };
    let (mut ips, mut before, mut failed) = (Vec::new(), false, false);
    let mut k = 0u64;
    while !a.t.ended() {
        k += 1;
        let control_differs =
            failed || b.t.ended() || (a.t.ip(), channels_on(&a)) != (b.t.ip(), channels_on(&b));
        if control_differs && out.named.is_none() && k > 1 {
            out.named = Some((k - 1, ips[k as usize - 2]));
        }
        let s =
            a.t.step_limited_with_memory(&mut a.st, &opts, 10_000, &mut a.mem)
                .unwrap();
        ips.push(s.ip);
        let b_ended = b.t.ended();
        if !failed && !b_ended {
            failed = fault.before_step(&mut b).is_err()
                || b.t
                    .step_limited_with_memory(&mut b.st, &opts, 10_000, &mut b.mem)
                    .is_err();
        }
        let now = failed || b_ended || differ(&observed(v, &a), &observed(v, &b));
        if now && !before {
            out.transitions.push((k, s.ip));
            if out.named.is_none() {
                out.named = Some((k, s.ip));
            }
        }
        if before && !now {
            out.persistent = false;
        }
        before = now;
    }
    out.at_end = before;
    out
}

/// The opcode of the instruction at `ip` of vector `v`.
fn op_at(v: &Value, ip: u64) -> Opcode {
    let p = Platform::parse(v["gen"].as_str().unwrap()).unwrap();
    let bytes: Vec<u8> = hex_bytes(v["bytes"].as_str().unwrap())
        .into_iter()
        .map(Option::unwrap)
        .collect();
    euref::codec::decode(&bytes[ip as usize..], p).unwrap().0.op
}

/// Check Skylake vectors under `euref sim --inject FAULT` (with `extra` options), asserting
/// every failing one is localized; the failing report lines with their vector and lockstep.
fn failures(fault: Fault, extra: &str, n: u64) -> Vec<(Value, Value, Lockstep)> {
    let tmp = Scratch::new(&format!("pfault-{}{}", fault.name(), extra.len()));
    let path = tmp.join("skl.jsonl");
    let vs = write_vectors(&path, Platform::Skl, 0x31, n);
    let report = tmp.join("report.jsonl");
    let sim = format!("{EUREF} sim{extra} --inject {}", fault.name());
    let (code, out, lines) = check(&sim, &path, &report);
    assert_eq!(lines.len(), vs.len(), "{out}");
    let mut failing = Vec::new();
    for (l, v) in lines.into_iter().zip(vs) {
        let ls = lockstep(&v, fault);
        if l["status"] == "pass" {
            // The fault may act and its effect be overwritten before the end: only the end
            // state is checked.
            assert!(!ls.at_end, "{l}: the lockstep differs at the end: {ls:?}");
            continue;
        }
        assert!(l["localized"].is_object(), "not localized: {l}");
        failing.push((l, v, ls));
    }
    assert_eq!(code, i32::from(!failing.is_empty()), "{out}");
    failing
}

/// From the simulator's trace: the named step and IP are the lockstep's, the instruction
/// there is the faulted kind with its row, and two requests sufficed.
fn localized_from_the_trace(fault: Fault, floor: usize) {
    let failing = failures(fault, "", 40);
    for (l, v, ls) in &failing {
        let loc = &l["localized"];
        let (step, ip) = (loc["step"].as_u64().unwrap(), loc["ip"].as_u64().unwrap());
        if loc["via"] == "bisection" {
            // The faulted run fails (an error answers the full run): no trace to read.
            assert_eq!(l["status"], "sim_error", "{l}");
        } else {
            assert_eq!(loc["via"], "trace", "{l}");
            assert_eq!(loc["probes"], 2, "{l}");
        }
        assert_eq!(Some((step, ip as u32)), ls.named, "{l}");
        assert_eq!(op_at(v, ip), fault.op(), "{l}");
        let rules = loc["rules"].as_array().unwrap();
        assert!(rules.iter().any(|r| r == fault.row()), "{l}");
    }
    assert!(failing.len() >= floor, "{} failing", failing.len());
}

#[test]
fn a_join_that_rejoins_early_is_localized_to_its_goto() {
    localized_from_the_trace(Fault::JoinEarly, 10);
}

#[test]
fn a_break_of_every_channel_is_localized_to_the_break() {
    localized_from_the_trace(Fault::BreakAll, 10);
}

#[test]
fn a_scattered_write_without_the_mask_is_localized_to_the_send() {
    localized_from_the_trace(Fault::ScatterNoMask, 8);
}

/// Without a trace the bisection names where the states start to differ (the first such
/// step when a difference, once made, stays): for break-all, an instruction after the break.
#[test]
fn without_a_trace_the_bisection_names_the_first_state_difference() {
    for (fault, floor) in [(Fault::BreakAll, 10), (Fault::ScatterNoMask, 8)] {
        let failing = failures(fault, " --no-trace", 40);
        let mut strict = 0;
        for (l, _, ls) in &failing {
            let loc = &l["localized"];
            assert_eq!(loc["via"], "bisection", "{l}");
            let at = (
                loc["step"].as_u64().unwrap(),
                loc["ip"].as_u64().unwrap() as u32,
            );
            assert!(ls.transitions.contains(&at), "{l}: {ls:?}");
            if ls.persistent {
                assert_eq!(at, ls.transitions[0], "{l}");
                strict += 1;
            }
            assert!(loc["probes"].as_u64().unwrap() > 2, "{l}");
        }
        assert!(strict >= floor, "{}: {strict} strictly first", fault.name());
    }
}

/// The trace `euref sim` returns (PROTOCOL.md "Program requests"), against a run of the
/// thread here: each entry is one executed instruction with the thread's IP before it, the
/// dispatched channels whose PcIP is that IP, exactly the reported registers whose bytes or
/// undefined marks it changed (in full after it) and the surface bytes it changed.
#[test]
fn the_trace_gives_each_step_s_ip_channels_and_changes() {
    use euref::conformance::program_protocol::{ProgramRequest, ProgramResponse};
    let tmp = Scratch::new("ptrace");
    let path = tmp.join("skl.jsonl");
    let vs = write_vectors(&path, Platform::Skl, 0x31, 12);
    let mut lines = String::new();
    let programs: Vec<euref::golden::program::ProgramVector> = vs
        .iter()
        .map(|v| serde_json::from_value(v.clone()).unwrap())
        .collect();
    for pv in &programs {
        let mut req = ProgramRequest::from_vector(pv, None);
        req.trace = true;
        lines.push_str(&req.to_line());
        lines.push('\n');
    }
    let out = std::process::Command::new(EUREF)
        .arg("sim")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(lines.as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    let responses: Vec<ProgramResponse> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(responses.len(), vs.len());
    let (mut surface_runs, mut partial) = (0, 0);
    for (v, r) in vs.iter().zip(&responses) {
        let trace = r
            .trace
            .as_ref()
            .unwrap_or_else(|| panic!("no trace: {r:?}"));
        let bytes: Vec<u8> = hex_bytes(v["bytes"].as_str().unwrap())
            .into_iter()
            .map(Option::unwrap)
            .collect();
        let mut run = start(v, bytes);
        let names: Vec<&String> = v["expected"].as_object().unwrap().keys().collect();
        let opts = ExecOptions::default();
        let mut k = 0;
        while !run.t.ended() {
            let e = &trace[k];
            assert_eq!(
                (e.ip, e.enabled),
                (run.t.ip(), channels_on(&run)),
                "step {k}"
            );
            partial += usize::from(e.enabled != run.t.dispatched());
            let was = observed(v, &run);
            run.t
                .step_limited_with_memory(&mut run.st, &opts, 10_000, &mut run.mem)
                .unwrap();
            let now = observed(v, &run);
            // `observed` lists each reported register's 32 bytes (flags: 4) in name order,
            // then the surface.
            let mut at = 0;
            for name in &names {
                let n = if name.starts_with('f') { 4 } else { 32 };
                let changed = was[at..at + n] != now[at..at + n];
                assert_eq!(e.wrote.contains_key(*name), changed, "step {k} {name}");
                if let Some(hex) = e.wrote.get(*name) {
                    let got = hex_bytes(hex);
                    for (i, (b, u)) in now[at..at + n].iter().enumerate() {
                        assert_eq!(got[i], (*u == 0).then_some(*b), "step {k} {name} byte {i}");
                    }
                }
                at += n;
            }
            let mut changed: Vec<usize> = (at..now.len())
                .filter(|&i| was[i] != now[i])
                .map(|i| i - at)
                .collect();
            // (`observed` lists the SLM's bytes after the surface's.)
            let slm_at = v["surface"]["size"].as_u64().unwrap_or(0) as usize;
            for (runs, from) in [(&e.surface, 0), (&e.slm, slm_at)] {
                for run in runs {
                    surface_runs += 1;
                    for (i, b) in hex_bytes(&run.bytes).into_iter().enumerate() {
                        let o = from + run.offset as usize + i;
                        assert_eq!(b, (now[at + o].1 == 0).then_some(now[at + o].0));
                        assert_eq!(changed.first(), Some(&o), "step {k}");
                        changed.remove(0);
                    }
                }
            }
            assert!(
                changed.is_empty(),
                "step {k}: unlisted surface or SLM changes {changed:?}"
            );
            k += 1;
        }
        assert_eq!(trace.len(), k);
    }
    assert!(surface_runs > 0 && partial > 0, "{surface_runs} {partial}");
}
