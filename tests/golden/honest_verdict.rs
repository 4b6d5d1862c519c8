//! The checker's verdict is honest (issue 24): every vector reports and compares every register
//! of its `initial` (destination, both flag registers, the accumulators it may write, its
//! sources), so a vector never passes without looking; an `error` response, a response without
//! `final` or one that lacks a reported register always fails; and simulators with the bugs
//! an independent simulator really had are caught.

use crate::golden_util::{check, golden, vectors_of, EUREF};
use crate::scratch_util::Scratch;
use euref::golden::Vector;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The flag register (`f0` or `f1`) a vector's condition modifier writes (IGA text:
/// `cmp (8|M0) (lt)f0.1 ...`; a predicate is `(f0.1)` or `(~f0.1)`), if it has one.
fn cmod_flag(insn: &str) -> Option<&'static str> {
    if insn.contains(")f0.") {
        Some("f0")
    } else if insn.contains(")f1.") {
        Some("f1")
    } else {
        None
    }
}

/// A default skl run's vectors (seed 7), written once per call into `tmp`.
fn skl_vectors(tmp: &Scratch, count: &str) -> (PathBuf, Vec<Vector>) {
    let v = tmp.join(&format!("skl-{count}.jsonl"));
    golden(&["--gen", "skl", "--count", count, "--seed", "7"], &v, "2");
    let vs = vectors_of(&v);
    (v, vs)
}

/// Every vector expects every register of its `initial` (and so reports it), has both flag
/// registers in `initial`, and expects something: no vector checks nothing. (Format 1 wrote
/// `"expected":{}` for the 21% of a default skl run whose every channel is predicated off.)
#[test]
fn every_vector_expects_every_initial_register_and_both_flags() {
    let tmp = Scratch::new("verdict");
    for gen in ["ivb", "hsw", "bdw", "chv", "skl", "bxt"] {
        let v = tmp.join(&format!("{gen}.jsonl"));
        golden(&["--gen", gen, "--count", "3000", "--seed", "7"], &v, "2");
        let vs = vectors_of(&v);
        assert!(vs.len() > 2900, "{gen}: {}", vs.len());
        for x in &vs {
            assert_eq!(x.v, 2, "{}", x.id);
            for f in ["f0", "f1"] {
                assert!(x.initial.contains_key(f), "{}: no {f} in initial", x.id);
            }
            for reg in x.initial.keys() {
                assert!(
                    x.expected.contains_key(reg),
                    "{}: {reg} is in initial but not expected",
                    x.id
                );
            }
            // AccWrEn and mac: the accumulators are in initial (and so compared).
            let implicit_acc = x.insn.contains("AccWrEn") || x.op == "mac";
            if implicit_acc {
                assert!(
                    x.initial.keys().any(|k| k.starts_with("acc")),
                    "{}: {} writes or reads the accumulator, none in initial",
                    x.id,
                    x.insn
                );
            }
        }
        // The fully predicated-off vectors are still there, and expect their initial bytes.
        let unchanged = vs
            .iter()
            .filter(|x| x.insn.starts_with('(') && x.expected == x.initial)
            .count();
        assert!(unchanged > 0, "{gen}: no vector leaves its state unchanged");
    }
}

/// The run's report and stdout for `sim` on `v`.
fn run_check(tmp: &Scratch, v: &Path, sim: &str, name: &str) -> (i32, String, Vec<ReportLine>) {
    let r = tmp.join(&format!("{name}.report.jsonl"));
    check(sim, v, &r, &["--show", "2"])
}

use euref::conformance::check::ReportLine;

/// A simulator that ignores predication writes the destination of an instruction whose every
/// channel is off: every predicated vector that changes nothing fails.
#[test]
fn a_simulator_writing_a_fully_disabled_instruction_is_caught() {
    let tmp = Scratch::new("verdict");
    let (v, vs) = skl_vectors(&tmp, "4000");
    let (code, out, lines) = run_check(
        &tmp,
        &v,
        &format!("{EUREF} sim --inject ignore-predication"),
        "nopred",
    );
    assert_eq!(code, 1, "{out}");
    // Fully disabled: predicated, nothing changes (the destination registers keep their
    // random old bytes, which the executed result would overwrite).
    let disabled: Vec<&Vector> = vs
        .iter()
        .filter(|x| x.insn.starts_with('(') && x.expected == x.initial && x.dst.is_some())
        .collect();
    assert!(disabled.len() > 50, "{}", disabled.len());
    for x in disabled {
        let l = lines.iter().find(|l| l.id == x.id).unwrap();
        assert_eq!(l.status, "fail", "{} [{}] passed", x.id, x.insn);
    }
}

/// `euref sim --inject error-all` answers every request with an error: every vector fails
/// (sim_error), also those that change nothing.
#[test]
fn a_simulator_answering_error_fails_every_vector() {
    let tmp = Scratch::new("verdict");
    let (v, vs) = skl_vectors(&tmp, "1500");
    let (code, out, lines) = run_check(
        &tmp,
        &v,
        &format!("{EUREF} sim --inject error-all"),
        "error",
    );
    assert_eq!(code, 1, "{out}");
    assert_eq!(lines.len(), vs.len());
    assert!(lines.iter().all(|l| l.status == "sim_error"), "{out}");
    assert!(
        out.contains(&format!("{n} vectors: 0 passed, {n} failed", n = vs.len())),
        "{out}"
    );
}

/// `cat` answers each request with the request itself: an object with the right `id` and no
/// `final`. Every vector fails (incomplete).
#[test]
fn cat_as_a_simulator_fails_every_vector() {
    let tmp = Scratch::new("verdict");
    let (v, vs) = skl_vectors(&tmp, "1500");
    let (code, out, lines) = run_check(&tmp, &v, "cat", "cat");
    assert_eq!(code, 1, "{out}");
    assert_eq!(lines.len(), vs.len());
    assert!(lines.iter().all(|l| l.status == "incomplete"), "{out}");
    assert!(out.contains("neither `final` nor `error`"), "{out}");
}

/// A simulator whose `sel` writes the flag as `cmp` would is caught on sel vectors with a
/// condition modifier, each naming cmpn.rule.sel-flags-untouched, and nothing else fails.
#[test]
fn a_simulator_setting_flags_on_sel_is_caught() {
    let tmp = Scratch::new("verdict");
    let (v, vs) = skl_vectors(&tmp, "6000");
    let (code, out, lines) = run_check(
        &tmp,
        &v,
        &format!("{EUREF} sim --inject sel-sets-flags"),
        "selflags",
    );
    assert_eq!(code, 1, "{out}");
    let failing: Vec<&ReportLine> = lines.iter().filter(|l| l.status != "pass").collect();
    assert!(failing.len() > 10, "{out}");
    for l in &failing {
        let x = vs.iter().find(|x| x.id == l.id).unwrap();
        assert_eq!(l.status, "fail", "{}", l.id);
        assert!(x.op == "sel" && cmod_flag(&x.insn).is_some(), "{}", x.insn);
        assert!(
            l.rules.iter().any(|r| r == "cmpn.rule.sel-flags-untouched"),
            "{}: {:?}",
            l.id,
            l.rules
        );
        // The difference is in a flag register.
        let detail = l.detail.as_ref().unwrap().to_string();
        assert!(detail.contains("\"reg\":\"f"), "{detail}");
    }
}

/// A simulator that writes f1.x where the instruction says f0.x (and the other way round) is
/// caught, also where the flag it was told to write keeps its bytes (the comparison gave the
/// old bits): then the difference is in the other flag register, which every vector reports.
#[test]
fn a_simulator_writing_the_other_flag_register_is_caught() {
    let tmp = Scratch::new("verdict");
    let (v, vs) = skl_vectors(&tmp, "6000");
    let (code, out, lines) = run_check(
        &tmp,
        &v,
        &format!("{EUREF} sim --inject flag-swap"),
        "flagswap",
    );
    assert_eq!(code, 1, "{out}");
    // Every unpredicated cmp whose flag register changes fails (the other one is written).
    let mut cmps = 0;
    for x in vs
        .iter()
        .filter(|x| x.op == "cmp" && !x.insn.starts_with('('))
    {
        let Some(f) = cmod_flag(&x.insn) else {
            continue;
        };
        if x.expected.get(f) != x.initial.get(f) {
            let l = lines.iter().find(|l| l.id == x.id).unwrap();
            assert_eq!(l.status, "fail", "{} [{}]", x.id, x.insn);
            cmps += 1;
        }
    }
    assert!(cmps > 10, "{cmps}");
    // Caught in the flag register it must not touch: `cmp.<c>.f0.x` vectors whose f0 keeps
    // its bytes fail in f1.
    let in_f1 = lines.iter().filter(|l| l.status == "fail").any(|l| {
        let x = vs.iter().find(|x| x.id == l.id).unwrap();
        let detail = l.detail.as_ref().map(|d| d.to_string()).unwrap_or_default();
        cmod_flag(&x.insn) == Some("f0")
            && x.expected.get("f0") == x.initial.get("f0")
            && detail.contains("\"reg\":\"f1\"")
    });
    assert!(in_f1, "no vector failed in f1 alone: {out}");
}

/// A simulator command that cannot run (exit 127 from the shell) stops the check at once with
/// an error naming the command, the exit and what the shell said; one that exits at once
/// without answering stops it after a few starts, not one start per vector.
#[test]
fn a_simulator_that_cannot_start_stops_the_check() {
    let tmp = Scratch::new("verdict");
    let (v, _) = skl_vectors(&tmp, "300");
    for (sim, what, starts) in [
        ("euref-no-such-simulator --x", "127", 1usize),
        ("true", "3 starts in a row", 3),
    ] {
        let r = tmp.join("dead.report.jsonl");
        let o = Command::new(EUREF)
            .args(["check", "--sim", sim])
            .arg(&v)
            .arg("--report")
            .arg(&r)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{sim}: {err}");
        assert!(
            err.contains(&format!("the simulator `{sim}` cannot start")),
            "{err}"
        );
        assert!(err.contains(what), "{sim}: {err}");
        if sim.starts_with("euref-no-such") {
            assert!(err.contains("not found"), "the shell's message: {err}");
        }
        // What was decided before the stop is in the report: at most the starts' vectors.
        let text = std::fs::read_to_string(&r).unwrap_or_default();
        assert!(text.lines().count() < starts, "{sim}: {text}");
    }
}

/// A vector that expects nothing (as format 1 wrote those whose every channel is off) never
/// passes: against a correct simulator it is a `bad_vector` (it would check nothing), against
/// one that answers `error` it is a `sim_error` (the error is looked at before any value).
#[test]
fn a_vector_expecting_nothing_never_passes() {
    let tmp = Scratch::new("verdict");
    let (v, vs) = skl_vectors(&tmp, "40");
    let text = std::fs::read_to_string(&v).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let empty = tmp.join("empty.jsonl");
    // Every other line's expectation emptied (its undefined masks with it).
    for (k, l) in lines.iter_mut().enumerate().filter(|(k, _)| k % 2 == 0) {
        let x = &vs[k];
        let mut y = x.clone();
        y.expected.clear();
        y.undefined.clear();
        *l = y.to_line();
    }
    std::fs::write(&empty, lines.join("\n") + "\n").unwrap();
    for (sim, status) in [
        (format!("{EUREF} sim"), "bad_vector"),
        (format!("{EUREF} sim --inject error-all"), "sim_error"),
    ] {
        let r = tmp.join("empty.report.jsonl");
        let (code, out, report) = check(&sim, &empty, &r, &[]);
        assert_eq!(code, 1, "{sim}: {out}");
        assert_eq!(report.len(), vs.len());
        for (k, l) in report.iter().enumerate() {
            if k % 2 == 0 {
                assert_eq!(l.status, status, "{sim}: {}", l.id);
            }
        }
    }
}
