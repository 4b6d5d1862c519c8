//! Checking program vectors (issue 31): `euref check --sim 'euref sim'` passes generated
//! program vectors of every platform; under `euref sim --inject add-imm-off-by-one` the
//! failing programs are localized to the step and IP worked out here by running each
//! vector's program twice in lockstep, as written and with its `add` immediates one larger,
//! and finding where the registers and surface the vector reports first differ.

use crate::golden_util::EUREF;
use crate::program_hand::{self, hex_bytes};
use crate::scratch_util::Scratch;
use euref::exec::ExecOptions;
use euref::golden::program::write_programs;
use euref::memory::Memory;
use euref::spec::{DataType, Opcode, Platform};
use euref::state::ThreadState;
use euref::thread::{Image, Thread};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

pub(crate) fn write_vectors(path: &Path, p: Platform, seed: u64, n: u64) -> Vec<Value> {
    let mut out = Vec::new();
    write_programs(p, seed, 0..n, &mut out, |_| {}).expect("programs");
    std::fs::write(path, &out).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `euref check --sim SIM VECTORS --report REPORT`: exit code, stdout, report lines.
pub(crate) fn check(sim: &str, vectors: &Path, report: &Path) -> (i32, String, Vec<Value>) {
    let o = Command::new(EUREF)
        .args(["check", "--sim", sim])
        .arg(vectors)
        .arg("--report")
        .arg(report)
        .output()
        .unwrap();
    let lines = std::fs::read_to_string(report)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr),
        lines,
    )
}

#[test]
fn euref_sim_passes_the_program_vectors_of_every_platform() {
    let tmp = Scratch::new("pcheck-pass");
    for p in [Platform::Ivb, Platform::Hsw, Platform::Bdw, Platform::Skl] {
        let path = tmp.join(&format!("{}.jsonl", p.name()));
        let vs = write_vectors(&path, p, 0x31, 25);
        let report = tmp.join(&format!("{}.report.jsonl", p.name()));
        let (code, out, lines) = check(&format!("{EUREF} sim"), &path, &report);
        assert_eq!(code, 0, "{}: {out}", p.name());
        assert_eq!(lines.len(), vs.len(), "{out}");
        for (l, v) in lines.iter().zip(&vs) {
            assert_eq!(l["id"], v["id"]);
            assert_eq!(l["status"], "pass", "{l}");
        }
    }
}

/// The program's bytes with every native `add` that has a D or UD immediate given that
/// immediate plus one (what the injected fault reads).
fn faulted(p: Platform, bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for at in (0..bytes.len()).step_by(16) {
        let (mut insn, _) = euref::codec::decode(&bytes[at..at + 16], p).unwrap();
        if insn.op != Opcode::Add {
            continue;
        }
        for s in insn.src.iter_mut().flatten() {
            if let euref::isa::Src::Imm(i) = s {
                if matches!(i.ty, DataType::D | DataType::UD) {
                    i.bits = u64::from((i.bits as u32).wrapping_add(1));
                }
            }
        }
        out[at..at + 16].copy_from_slice(&euref::codec::encode(&insn, p).unwrap());
    }
    out
}

/// A running copy of a vector's program.
pub(crate) struct Run {
    pub(crate) t: Thread,
    pub(crate) st: ThreadState,
    pub(crate) mem: Memory,
}

pub(crate) fn start(v: &Value, bytes: Vec<u8>) -> Run {
    let p = Platform::parse(v["gen"].as_str().unwrap()).unwrap();
    let (mut st, mem) = program_hand::initial_of(v, p);
    let t = Thread::new(Image::new(p, bytes, 0), &mut st).unwrap();
    Run { t, st, mem }
}

/// The reported registers and the surface of `r`, per byte: (value, undefined).
pub(crate) fn observed(v: &Value, r: &Run) -> Vec<(u8, u8)> {
    let mut out = Vec::new();
    for name in v["expected"].as_object().unwrap().keys() {
        if let Some(n) = name.strip_prefix('f') {
            let (val, u) = r.st.flag(n.parse().unwrap()).unwrap();
            out.extend((val & !u).to_le_bytes().into_iter().zip(u.to_le_bytes()));
            continue;
        }
        let o = name[1..].parse::<usize>().unwrap() * 32;
        for b in o..o + 32 {
            let u = r.st.grf_byte_undefined(b);
            out.push((
                if u { 0 } else { r.st.grf_bytes()[b] },
                if u { 0xff } else { 0 },
            ));
        }
    }
    if let Some(s) = v.get("surface") {
        let base = s["base"].as_u64().unwrap();
        for b in r.mem.flat.read(base, s["size"].as_u64().unwrap() as usize) {
            out.push((b.unwrap_or(0), if b.is_none() { 0xff } else { 0 }));
        }
    }
    if v.get("slm").is_some() {
        for b in program_hand::slm_bytes(&r.mem) {
            out.push((b.unwrap_or(0), if b.is_none() { 0xff } else { 0 }));
        }
    }
    out
}

/// Whether the faulted run's bytes differ from the plain run's on the bits the plain run
/// defines.
fn differ(plain: &[(u8, u8)], faulty: &[(u8, u8)]) -> bool {
    plain
        .iter()
        .zip(faulty)
        .any(|((a, u), (b, _))| (a ^ b) & !u != 0)
}

/// The steps (1 = after the first instruction) at which the faulted run's state goes from
/// agreeing to differing, with the IP of the instruction of that step, and whether, once
/// differing, the states never agree again (up to the plain run's end).
fn transitions(v: &Value) -> (Vec<(u64, u32)>, bool) {
    let p = Platform::parse(v["gen"].as_str().unwrap()).unwrap();
    let bytes: Vec<u8> = hex_bytes(v["bytes"].as_str().unwrap())
        .into_iter()
        .map(Option::unwrap)
        .collect();
    let (mut a, mut b) = (start(v, bytes.clone()), start(v, faulted(p, &bytes)));
    let opts = ExecOptions::default();
    let (mut out, mut before, mut persistent) = (Vec::new(), false, true);
    let mut k = 0u64;
    while !a.t.ended() {
        let s =
            a.t.step_limited_with_memory(&mut a.st, &opts, 10_000, &mut a.mem)
                .unwrap();
        k += 1;
        let fb = if b.t.ended() {
            true
        } else {
            b.t.step_limited_with_memory(&mut b.st, &opts, 10_000, &mut b.mem)
                .is_err()
        };
        let now = fb || differ(&observed(v, &a), &observed(v, &b));
        if now && !before {
            out.push((k, s.ip));
        }
        if before && !now {
            persistent = false;
        }
        before = now;
    }
    (out, persistent)
}

#[test]
fn an_add_off_by_one_in_programs_is_localized_to_its_first_faulted_step() {
    let tmp = Scratch::new("pcheck-fault");
    let path = tmp.join("skl.jsonl");
    let vs = write_vectors(&path, Platform::Skl, 0x31, 30);
    let report = tmp.join("report.jsonl");
    let sim = format!("{EUREF} sim --inject add-imm-off-by-one");
    let (code, out, lines) = check(&sim, &path, &report);
    assert_eq!(code, 1, "{out}");
    assert_eq!(lines.len(), vs.len());
    let (mut failing, mut strict) = (0, 0);
    for (l, v) in lines.iter().zip(&vs) {
        let (trans, persistent) = transitions(v);
        if l["status"] == "pass" {
            // Then no faulted add changed anything the vector reports.
            assert!(trans.is_empty(), "{l}: differs at {trans:?}");
            continue;
        }
        failing += 1;
        assert!(!trans.is_empty(), "{l}");
        let loc = &l["localized"];
        let step = loc["step"]
            .as_u64()
            .unwrap_or_else(|| panic!("not localized: {l}"));
        let ip = loc["ip"].as_u64().unwrap() as u32;
        // The bisection lands where agreeing states start to differ: the first such step
        // when a difference, once made, stays.
        assert!(trans.contains(&(step, ip)), "{l}: transitions {trans:?}");
        if persistent {
            assert_eq!((step, ip), trans[0], "{l}");
            strict += 1;
        }
        let text = loc["text"].as_str().unwrap();
        assert!(
            text.starts_with("add ") && (text.ends_with(":d") || text.ends_with(":ud")),
            "{text}"
        );
        let at = v["text"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .filter(|t| !t.ends_with(':'))
            .nth(ip as usize / 16)
            .unwrap();
        assert_eq!(text, at);
        assert!(
            loc["rules"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r == "opcode.add"),
            "{l}"
        );
        assert_eq!(loc["after"]["status"], "fail", "{l}");
    }
    assert!(
        failing >= 10 && strict >= 10,
        "{failing} failing, {strict} strictly first"
    );
}
