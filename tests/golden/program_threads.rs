//! Program vectors of several threads (issue 31, `euref golden --programs --threads N`): one
//! work group running the same program, a barrier, the surface and SLM shared, race-free
//! memory accesses. Each vector's final state is reproduced here by running its threads in
//! an order unlike the dispatch runner's (one instruction per turn, last thread first) with
//! the barrier counted here (send.gateway.barrier), so it does not depend on the schedule;
//! `euref check --sim 'euref sim'` passes them; a hand-written two-thread SLM/barrier program
//! ends in the state worked out here; and the per-thread step limit stops a thread blocked
//! at a barrier that can no longer complete, without an error.

use crate::golden_util::EUREF;
use crate::program_hand::{self, hex_bytes};
use crate::scratch_util::Scratch;
use euref::conformance::program_protocol::ProgramRequest;
use euref::conformance::program_run::execute;
use euref::exec::ExecOptions;
use euref::golden::program::vector::{build, Setup};
use euref::golden::program::write_programs_threads_covered;
use euref::golden::program::ProgramCoverage;
use euref::memory::Memory;
use euref::spec::registers::field::N0_0_THREAD_COUNT;
use euref::spec::Platform;
use euref::state::ThreadState;
use euref::thread::{Image, RunError, Thread};
use serde_json::{json, Value};
use std::process::Command;

fn vectors(p: Platform, seed: u64, threads: u32, n: u64) -> Vec<Value> {
    let mut out = Vec::new();
    let mut cov = ProgramCoverage::default();
    write_programs_threads_covered(p, seed, threads, 0..n, &mut out, |_| {}, &mut cov)
        .expect("programs");
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Each thread's `{dmask, initial, expected, undefined, inexact, steps}` (thread 0 from the
/// vector's top level).
fn parts(v: &Value) -> Vec<Value> {
    let mut out = vec![v.clone()];
    if let Some(more) = v.get("more_threads") {
        out.extend(more.as_array().unwrap().iter().cloned());
    }
    out
}

/// Each thread's final state, the memory, each thread's executed (ip, enabled).
type Reversed = (Vec<ThreadState>, Memory, Vec<Vec<(u32, u32)>>);

/// Run the threads of vector `v` to their ends on one memory: one instruction per turn,
/// visiting the threads from the last to the first; a barrier message counts its thread as
/// arrived and the last arrival increments every thread's n0.0; a wait on n0.0 = 0 blocks
/// (the thread skips its turn). Each thread's final state and executed (ip, enabled).
fn run_reversed(v: &Value) -> Reversed {
    let p = Platform::parse(v["gen"].as_str().unwrap()).unwrap();
    let src = v["text"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    let prog = euref::asm::parse(src.as_bytes(), Some(euref::asm::Dialect::Iga), p).unwrap();
    let image = Image::from_insns(p, &prog.insns, 0).unwrap();
    let (st0, mut mem) = program_hand::initial_of(v, p);
    let mut states = vec![st0];
    for t in parts(v).iter().skip(1) {
        let (st, _) =
            program_hand::initial_of(&json!({"initial": t["initial"], "dmask": t["dmask"]}), p);
        states.push(st);
    }
    let n = states.len();
    let mut threads: Vec<Thread> = states
        .iter_mut()
        .map(|st| Thread::new(image.clone(), st).unwrap())
        .collect();
    let mut arrived = vec![false; n];
    let mut steps = vec![Vec::new(); n];
    let opts = ExecOptions::default();
    loop {
        let mut moved = false;
        for k in (0..n).rev() {
            if threads[k].ended() {
                continue;
            }
            match threads[k].step_limited_with_memory(&mut states[k], &opts, 10_000, &mut mem) {
                Ok(s) => {
                    moved = true;
                    steps[k].push((s.ip, s.enabled));
                }
                Err(RunError::Blocked { .. }) => continue,
                Err(e) => panic!("{} thread {k}: {e}", v["id"]),
            }
            if threads[k].take_barrier().is_some() {
                arrived[k] = true;
                if arrived.iter().all(|a| *a) {
                    arrived.iter_mut().for_each(|a| *a = false);
                    for st in states.iter_mut() {
                        let (c, _) = st.field(&N0_0_THREAD_COUNT).unwrap();
                        st.set_field(&N0_0_THREAD_COUNT, c + 1).unwrap();
                    }
                }
            }
        }
        if threads.iter().all(Thread::ended) {
            break;
        }
        assert!(moved, "{}: every thread blocked", v["id"]);
    }
    for (k, t) in threads.iter().enumerate() {
        assert!(t.ended_by_eot(), "{} thread {k}: no end of thread", v["id"]);
    }
    (states, mem, steps)
}

/// A register's defined bytes as a vector gives them (`00` undefined) and its undefined
/// mask.
fn reg_hex(st: &ThreadState, name: &str) -> (String, String) {
    let hex = |b: &[u8]| -> String { b.iter().map(|b| format!("{b:02x}")).collect() };
    if let Some(f) = name.strip_prefix('f') {
        let (v, u) = st.flag(f.parse().unwrap()).unwrap();
        return (hex(&(v & !u).to_le_bytes()), hex(&u.to_le_bytes()));
    }
    let o = name[1..].parse::<usize>().unwrap() * 32;
    let u: Vec<bool> = (o..o + 32).map(|b| st.grf_byte_undefined(b)).collect();
    let v: Vec<u8> = (o..o + 32)
        .zip(&u)
        .map(|(b, u)| if *u { 0 } else { st.grf_bytes()[b] })
        .collect();
    let m: Vec<u8> = u.iter().map(|u| if *u { 0xff } else { 0 }).collect();
    (hex(&v), hex(&m))
}

/// Whether `got` equals `want` on the bytes neither undefined nor inexact.
fn same_where_exact(got: &str, want: &str, inexact: Option<&Value>) -> bool {
    let m = inexact.map_or(vec![Some(0); want.len() / 2], |m| {
        hex_bytes(m.as_str().unwrap())
    });
    hex_bytes(got)
        .iter()
        .zip(hex_bytes(want))
        .zip(m)
        .all(|((g, w), m)| m != Some(0) || *g == w)
}

/// Vectors of 2 to 4 threads on Skylake and Ivy Bridge: `threads` and `more_threads` agree,
/// every thread ends at its EOT in the state the vector gives (registers, steps), and the
/// surface and SLM end as the vector says, when the threads run in another order than the
/// runner's: the state does not depend on the schedule.
#[test]
fn thread_vectors_end_the_same_in_another_schedule() {
    let (mut slm_reads_after, mut total) = (0, 0);
    for p in [Platform::Skl, Platform::Ivb] {
        for threads in 2..=4u32 {
            for v in vectors(p, 9, threads, 25) {
                total += 1;
                assert_eq!(v["threads"], threads, "{}", v["id"]);
                let parts = parts(&v);
                assert_eq!(parts.len(), threads as usize);
                // One barrier, at the top level: the barrier message and the wait.
                let text: Vec<&str> = v["text"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|l| l.as_str().unwrap())
                    .collect();
                let wait = text.iter().position(|l| l.starts_with("(W) wait")).unwrap();
                assert_eq!(
                    text.iter().filter(|l| l.contains(" 0x3 0x2000004")).count(),
                    1
                );
                // After the barrier the SLM is only read, anywhere (no thread base added).
                slm_reads_after += text[wait..]
                    .iter()
                    .filter(|l| l.starts_with("send") && (l.ends_with("fe")))
                    .count();
                let (states, mem, steps) = run_reversed(&v);
                for (k, (t, st)) in parts.iter().zip(&states).enumerate() {
                    for (name, want) in t["expected"].as_object().unwrap() {
                        let (got, undef) = reg_hex(st, name);
                        let want_undef = t
                            .get("undefined")
                            .and_then(|u| u.get(name))
                            .map_or("00".repeat(undef.len() / 2), |u| u.as_str().unwrap().into());
                        assert_eq!(undef, want_undef, "{} thread {k} {name}", v["id"]);
                        let inexact = t.get("inexact").and_then(|m| m.get(name));
                        assert!(
                            same_where_exact(&got, want.as_str().unwrap(), inexact),
                            "{} thread {k} {name}: {got} != {want}",
                            v["id"]
                        );
                    }
                    assert_eq!(steps[k].len() as u64, t["steps"].as_u64().unwrap());
                }
                for (key, bytes) in [
                    (
                        "expected_slm",
                        v.get("slm").map(|_| program_hand::slm_bytes(&mem)),
                    ),
                    (
                        "expected_surface",
                        v.get("surface").map(|s| {
                            mem.flat.read(
                                s["base"].as_u64().unwrap(),
                                s["size"].as_u64().unwrap() as usize,
                            )
                        }),
                    ),
                ] {
                    let Some(got) = bytes else { continue };
                    let e = &v[key];
                    let want = hex_bytes(e["bytes"].as_str().unwrap());
                    let undef = e.get("undefined").map(|u| hex_bytes(u.as_str().unwrap()));
                    for (i, g) in got.iter().enumerate() {
                        let w = match &undef {
                            Some(u) if u[i] == Some(0xff) => None,
                            _ => want[i],
                        };
                        assert_eq!(*g, w, "{} {key} byte {i}", v["id"]);
                    }
                }
            }
        }
    }
    assert_eq!(total, 150);
    assert!(
        slm_reads_after >= 20,
        "only {slm_reads_after} SLM reads after a barrier"
    );
}

/// `euref check --sim 'euref sim'` passes vectors of 2 and 4 threads; a vector with a
/// register of thread 1 changed fails on `t1.<register>`; they validate against the schema.
#[test]
fn check_passes_thread_vectors_and_names_the_thread() {
    let tmp = Scratch::new("pcheck-threads");
    let validator = crate::program_hand::program_schema();
    let mut vs = vectors(Platform::Bdw, 4, 2, 10);
    vs.extend(vectors(Platform::Hsw, 4, 4, 10));
    for v in &vs {
        assert!(validator.is_valid(v), "{v}");
    }
    let run = |name: &str, vs: &[Value]| {
        let path = tmp.join(name);
        let text: String = vs.iter().map(|v| v.to_string() + "\n").collect();
        std::fs::write(&path, text).unwrap();
        crate::program_hand::check_against_euref_sim(&path)
    };
    let (code, lines) = run("pass.jsonl", &vs);
    assert_eq!(code, Some(0), "{lines:?}");
    assert_eq!(lines.len(), 20);
    assert!(lines.iter().all(|l| l["status"] == "pass"), "{lines:?}");
    let mut bad = vs[0].clone();
    let r10 = bad["more_threads"][0]["expected"]["r10"]
        .as_str()
        .unwrap()
        .to_string();
    let flipped = if &r10[..2] == "00" { "01" } else { "00" };
    bad["more_threads"][0]["expected"]["r10"] = Value::String(format!("{flipped}{}", &r10[2..]));
    let (code, lines) = run("fail.jsonl", &[bad]);
    assert_eq!(code, Some(1), "{lines:?}");
    let d = &lines[0]["detail"]["differences"][0];
    assert_eq!(
        (d["reg"].as_str(), d["byte"].as_u64()),
        (Some("t1.r10"), Some(0)),
        "{lines:?}"
    );
}

fn dwords(vals: &[u32]) -> String {
    vals.iter()
        .flat_map(|d| d.to_le_bytes())
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The hand-written two-thread program: r26 is the thread's SLM region (thread 0: bytes
/// 0-31, thread 1: 32-63). Thread 1 jumps over two increments of r11 (a NoMask compare of
/// r26 into f1.0 and a jmpi on it); each thread writes r11 to its region, passes the
/// barrier, then reads the other thread's region into r32.
fn two_threads() -> (Vec<String>, Setup) {
    let lines: Vec<String> = [
        "(W) cmp (1|M0) (ne)f1.0 r9.0<1>:d r26.0<0;1,0>:d 0x0:d",
        "(W&f1.0) jmpi SKIP",
        "add (8|M0) r11.0<1>:ud r11.0<8;8,1>:ud 0x1:ud",
        "add (8|M0) r11.0<1>:ud r11.0<8;8,1>:ud 0x1:ud",
        "SKIP:",
        "mov (8|M0) r30.0<1>:ud 0x76543210:v",
        "shl (8|M0) r30.0<1>:ud r30.0<8;8,1>:ud 0x2:ud",
        "add (8|M0) r30.0<1>:ud r30.0<8;8,1>:ud r26.0<8;8,1>:ud",
        "mov (8|M0) r31.0<1>:ud r11.0<8;8,1>:ud",
        // Untyped write to the SLM (BTI 254): mlen 2, SIMD8, channel R.
        "send (8|M0) null r30 0xC 0x4026EFE",
        "(W) mov (8|M0) r27.0<1>:ud 0x0:ud",
        "(W) send (8|M0) null r27 0x3 0x2000004",
        "(W) wait (1|M0) n0.0<1>:ud",
        "xor (8|M0) r40.0<1>:ud r30.0<8;8,1>:ud 0x20:ud",
        // Untyped read of the SLM into r32: mlen 1, rlen 1.
        "send (8|M0) r32 r40 0xC 0x2106EFE",
        "(W) mov (8|M0) r127.0<1>:ud 0x0:ud",
        "send (8|M0) null r127 0x27 0x2000010 {EOT}",
    ]
    .map(String::from)
    .to_vec();
    let state = |base: u64, r11: u64| {
        let mut s = Setup::new(Platform::Bdw, 0xff).unwrap();
        for c in 0..8 {
            s.state.write_grf(26 * 32 + 4 * c, 4, base, false).unwrap();
            s.state
                .write_grf(11 * 32 + 4 * c, 4, r11 + c as u64, false)
                .unwrap();
        }
        s.state.set_flag(1, 0, 0).unwrap();
        s.state
    };
    let mut setup = Setup::new(Platform::Bdw, 0xff).unwrap();
    setup.state = state(0, 100);
    setup.more_threads = vec![(0xff, state(32, 200))];
    setup.slm = Some(vec![None; 64]);
    (lines, setup)
}

/// Thread 0: r11 = 100 + c + 2 (both increments), thread 1: r11 = 200 + c (jumped over
/// them); the SLM holds thread 0's r11 then thread 1's; each thread's r32 is the other's
/// r11. Steps: thread 0 runs all 16 instructions, thread 1 14 (the two adds jumped over).
/// n0.0 is back to 0 (the barrier incremented it, the wait decremented it).
#[test]
fn a_hand_written_barrier_program_ends_in_the_state_worked_out_here() {
    let (lines, setup) = two_threads();
    let v = build(Platform::Bdw, "two".into(), lines, setup).unwrap();
    let r11_0: Vec<u32> = (0..8).map(|c| 102 + c).collect();
    let r11_1: Vec<u32> = (0..8).map(|c| 200 + c).collect();
    assert_eq!(v.threads, 2);
    assert_eq!(v.expected["r11"], dwords(&r11_0));
    assert_eq!(v.more_threads[0].expected["r11"], dwords(&r11_1));
    assert_eq!(v.expected["r32"], dwords(&r11_1));
    assert_eq!(v.more_threads[0].expected["r32"], dwords(&r11_0));
    let slm = v.expected_slm.as_ref().unwrap();
    assert_eq!(slm.bytes, dwords(&r11_0) + &dwords(&r11_1));
    assert_eq!(slm.undefined, None);
    assert_eq!((v.steps, v.more_threads[0].steps), (16, 14));
    // f1.0 bit 0: thread 0's r26 is 0 (ne: false), thread 1's 32 (true).
    assert_eq!(&v.expected["f1"][..2], "00");
    assert_eq!(&v.more_threads[0].expected["f1"][..2], "01");
}

/// The per-thread step limit (conformance/PROTOCOL.md): with 10, thread 0 stops before its
/// barrier message (10 instructions) and thread 1, having sent its own (steps: cmp, jmpi,
/// 7 instructions to the barrier message), is blocked at the wait: it stops there after 9,
/// neither ended, no error. With 11 thread 0 has arrived too: the barrier completes, thread
/// 1's wait goes on and it stops after 11. Without a limit both end (16 and 14).
#[test]
fn the_step_limit_stops_each_thread_and_a_barrier_that_cannot_complete() {
    let (lines, setup) = two_threads();
    let v = build(Platform::Bdw, "two".into(), lines, setup).unwrap();
    let at = |k: Option<u64>| {
        let r = execute(&ProgramRequest::from_vector(&v, k), None);
        assert_eq!(r.error, None, "{k:?}");
        let t = &r.more_threads[0];
        (
            r.steps.unwrap(),
            r.ended.unwrap(),
            t.steps.unwrap(),
            t.ended.unwrap(),
            r,
            v.clone(),
        )
    };
    let (s0, e0, s1, e1, _, _) = at(Some(10));
    assert_eq!((s0, e0, s1, e1), (10, false, 9, false));
    let (s0, e0, s1, e1, r, _) = at(Some(11));
    assert_eq!((s0, e0, s1, e1), (11, false, 11, false));
    // Thread 1 ran its xor (r40 = its addresses ^ 0x20) but not the read.
    let r40: Vec<u32> = (0..8).map(|c| (32 + 4 * c) ^ 0x20).collect();
    assert_eq!(r.more_threads[0].fin.get("r40"), Some(&dwords(&r40)));
    let (s0, e0, s1, e1, _, _) = at(None);
    assert_eq!((s0, e0, s1, e1), (16, true, 14, true));
}

/// Thread vectors are deterministic by index (`--shard`): programs 0..12 of a run are those
/// of 0..5 then 5..12; `--threads` takes 1 to 4 and goes only with `--programs`.
#[test]
fn thread_vectors_shard_and_the_option_is_bounded() {
    let lines = |r: std::ops::Range<u64>| {
        let mut out = Vec::new();
        let mut cov = ProgramCoverage::default();
        write_programs_threads_covered(Platform::Skl, 3, 3, r, &mut out, |_| {}, &mut cov).unwrap();
        out
    };
    let mut parts = lines(0..5);
    parts.extend(lines(5..12));
    assert_eq!(lines(0..12), parts);
    let run = |args: &[&str]| Command::new(EUREF).args(args).output().unwrap();
    let o = run(&[
        "golden",
        "--programs",
        "--gen",
        "skl",
        "--count",
        "2",
        "--threads",
        "2",
    ]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.lines().all(|l| l.contains("\"threads\":2")), "{text}");
    for bad in [
        &["golden", "--programs", "--gen", "skl", "--threads", "5"][..],
        &["golden", "--programs", "--gen", "skl", "--threads", "0"][..],
        &["golden", "--gen", "skl", "--threads", "2"][..],
    ] {
        assert!(!run(bad).status.success(), "{bad:?}");
    }
}

/// Under `euref sim --inject add-imm-off-by-one` failing thread vectors are localized to an
/// `add` with an immediate, in a named thread whose step it is: the line at that IP of the
/// vector's text, and the step at most that thread's `steps`.
#[test]
fn a_fault_in_thread_vectors_is_localized_to_a_thread() {
    let tmp = Scratch::new("pcheck-threads-fault");
    let vs = vectors(Platform::Skl, 5, 2, 20);
    let path = tmp.join("v.jsonl");
    let text: String = vs.iter().map(|v| v.to_string() + "\n").collect();
    std::fs::write(&path, text).unwrap();
    let report = tmp.join("r.jsonl");
    let o = Command::new(EUREF)
        .args([
            "check",
            "--sim",
            &format!("{EUREF} sim --inject add-imm-off-by-one"),
        ])
        .arg(&path)
        .arg("--report")
        .arg(&report)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let mut localized = 0;
    for (l, v) in std::fs::read_to_string(&report).unwrap().lines().zip(&vs) {
        let l: Value = serde_json::from_str(l).unwrap();
        if l["status"] == "pass" {
            continue;
        }
        let loc = &l["localized"];
        let Some(k) = loc["thread"].as_u64() else {
            panic!("no thread: {l}");
        };
        let ip = loc["ip"].as_u64().unwrap() as usize;
        let line = v["text"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .filter(|t| !t.ends_with(':'))
            .nth(ip / 16)
            .unwrap();
        assert_eq!(loc["text"].as_str(), Some(line), "{l}");
        assert!(
            line.starts_with("add ") && (line.ends_with(":d") || line.ends_with(":ud")),
            "{l}"
        );
        let steps = parts(v)[k as usize]["steps"].as_u64().unwrap();
        assert!(loc["step"].as_u64().unwrap() <= steps, "{l}");
        localized += 1;
    }
    assert!(localized >= 5, "only {localized} localized");
}
