//! `euref check --shrink` (issue 31): program vectors that fail under `euref sim --inject
//! add-imm-off-by-one` shrink to a handful of instructions that still fail the same way under
//! the fault, pass without it, match the schema and hold a faulted `add`; a file where nothing
//! fails gives an empty output file.

use crate::golden_util::EUREF;
use crate::program_hand::instruction_lines;
use crate::scratch_util::Scratch;
use euref::golden::program::write_programs;
use euref::spec::Platform;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn write_vectors(path: &Path, p: Platform, seed: u64, n: u64) -> Vec<Value> {
    let mut out = Vec::new();
    write_programs(p, seed, 0..n, &mut out, |_| {}).expect("programs");
    std::fs::write(path, &out).unwrap();
    read_lines(path)
}

fn read_lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `euref check --sim SIM VECTORS --report REPORT [more]`: exit code, stdout and stderr.
fn check(sim: &str, vectors: &Path, report: &Path, more: &[&str]) -> (i32, String) {
    let o = Command::new(EUREF)
        .args(["check", "--sim", sim])
        .arg(vectors)
        .arg("--report")
        .arg(report)
        .args(more)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr),
    )
}

/// Whether `line` is an `add` whose last source is a D or UD immediate (what the fault
/// changes).
fn adds_an_immediate(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(at) = words.iter().position(|w| *w == "add") else {
        return false;
    };
    let last = words[words.len() - 1];
    at + 1 < words.len()
        && !last.starts_with('r')
        && !last.starts_with("null")
        && (last.ends_with(":d") || last.ends_with(":ud"))
}

/// The bounds are worked out from what the fault needs, not read off a run:
/// - a `fail` (a wrong final value): one `add` with a D/UD immediate writing a register the
///   vector reports, its source from the initial registers; the end-of-thread sequence
///   (`(W) mov r127`, `send {EOT}`) is kept: at most 4 instructions besides it;
/// - a `sim_error` (the faulted simulator stops at `max_steps`): a loop that never ends under
///   the fault, so its counter decrement `add (eq)f0.0 r20 -1:d` (one more: 0), its `break`
///   and its `while`, and the counter's definition (r20 is no initial register: the `and`
///   and `add` that set it, since euref's own run must end): at most 5 besides it.
#[test]
fn failing_programs_shrink_to_a_handful_of_instructions_that_still_fail() {
    let tmp = Scratch::new("pshrink-fault");
    let path = tmp.join("bdw.jsonl");
    // (A seed whose programs fail both ways under the fault: `fail` and `sim_error`.)
    let vs = write_vectors(&path, Platform::Bdw, 0x33, 16);
    let report = tmp.join("report.jsonl");
    let out = tmp.join("shrunk.jsonl");
    let faulty = format!("{EUREF} sim --inject add-imm-off-by-one");
    let (code, text) = check(
        &faulty,
        &path,
        &report,
        &["--shrink", out.to_str().unwrap()],
    );
    assert_eq!(code, 1, "{text}");
    let statuses: Vec<(String, String)> = read_lines(&report)
        .iter()
        .map(|l| {
            (
                l["id"].as_str().unwrap().to_string(),
                l["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let failing: Vec<&(String, String)> = statuses.iter().filter(|s| s.1 != "pass").collect();
    let shrunk = read_lines(&out);
    assert_eq!(shrunk.len(), failing.len(), "{text}");
    assert!(
        failing.iter().any(|s| s.1 == "fail") && failing.iter().any(|s| s.1 == "sim_error"),
        "{failing:?}"
    );
    let validator = crate::program_hand::program_schema();
    for (s, (id, status)) in shrunk.iter().zip(&failing) {
        assert_eq!(s["id"], format!("{id}-shrunk"));
        assert_eq!(s["shrunk_from"], id.as_str());
        if let Err(errs) = validator.validate(s) {
            let msgs: Vec<String> = errs
                .map(|e| format!("{e} at {}", e.instance_path))
                .collect();
            panic!("{id}: {msgs:?}");
        }
        let insns = instruction_lines(s);
        let eot = insns.iter().filter(|l| l.contains("{EOT}")).count();
        assert_eq!(eot, 1, "{insns:?}");
        let bound = if status == "fail" { 4 } else { 5 };
        assert!(insns.len() <= bound + 2, "{id} ({status}): {insns:#?}");
        assert!(insns.iter().any(|l| adds_an_immediate(l)), "{insns:#?}");
        // The line printed for it: instructions before and after, and the requests.
        let original = vs.iter().find(|v| v["id"] == id.as_str()).unwrap();
        let printed = format!(
            "{id}: {} -> {} instructions, ",
            instruction_lines(original).len(),
            insns.len()
        );
        let line = text
            .lines()
            .find(|l| l.starts_with(&printed))
            .unwrap_or_else(|| panic!("no `{printed}` in {text}"));
        let requests: u32 = line[printed.len()..]
            .trim_end_matches(" requests")
            .parse()
            .unwrap();
        assert!((2..=2000).contains(&requests), "{line}");
    }
    // Under the fault each shrunk vector fails as its original did; without it, it passes.
    let report2 = tmp.join("report2.jsonl");
    let (code, text) = check(&faulty, &out, &report2, &[]);
    assert_eq!(code, 1, "{text}");
    let again: Vec<String> = read_lines(&report2)
        .iter()
        .map(|l| l["status"].as_str().unwrap().to_string())
        .collect();
    let want: Vec<String> = failing.iter().map(|s| s.1.clone()).collect();
    assert_eq!(again, want);
    let (code, text) = check(&format!("{EUREF} sim"), &out, &report2, &[]);
    assert_eq!(code, 0, "{text}");
    assert!(read_lines(&report2).iter().all(|l| l["status"] == "pass"));
}

/// A check where every program passes replaces the output file with an empty one; a file of
/// single-instruction vectors is refused with --shrink.
#[test]
fn a_passing_file_shrinks_to_an_empty_file() {
    let tmp = Scratch::new("pshrink-pass");
    let path = tmp.join("skl.jsonl");
    write_vectors(&path, Platform::Skl, 0x31, 6);
    let out = tmp.join("shrunk.jsonl");
    std::fs::write(&out, "old\n").unwrap();
    let report = tmp.join("report.jsonl");
    let (code, text) = check(
        &format!("{EUREF} sim"),
        &path,
        &report,
        &["--shrink", out.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{text}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "");
    assert!(text.contains("shrunk: 0 program vectors"), "{text}");
    let mut single = Vec::new();
    let cfg = euref::golden::GenConfig::new(Platform::Skl, 1);
    euref::golden::generate_lines(&cfg, 2, &mut single, |_, _, _| {}).unwrap();
    let singles = tmp.join("single.jsonl");
    std::fs::write(&singles, single).unwrap();
    let (code, text) = check(
        &format!("{EUREF} sim"),
        &singles,
        &report,
        &["--shrink", out.to_str().unwrap()],
    );
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("--shrink: only for program vectors"),
        "{text}"
    );
}

/// A failing vector of several threads is reported as not shrunk (a reduction could make the
/// threads race), and nothing is written for it.
#[test]
fn vectors_of_several_threads_are_not_shrunk() {
    let tmp = Scratch::new("pshrink-threads");
    let path = tmp.join("bdw-t2.jsonl");
    let mut out = Vec::new();
    let mut cov = euref::golden::program::ProgramCoverage::default();
    euref::golden::program::write_programs_threads_covered(
        Platform::Bdw,
        0x31,
        2,
        0..12,
        &mut out,
        |_| {},
        &mut cov,
    )
    .expect("programs");
    std::fs::write(&path, &out).unwrap();
    let shrunk = tmp.join("shrunk.jsonl");
    let report = tmp.join("report.jsonl");
    let (_, text) = check(
        &format!("{EUREF} sim --inject add-imm-off-by-one"),
        &path,
        &report,
        &["--shrink", shrunk.to_str().unwrap()],
    );
    let failing = read_lines(&report)
        .iter()
        .filter(|l| l["status"] != "pass")
        .count();
    assert!(
        failing > 0,
        "the fault made no 2-thread program fail: {text}"
    );
    let refused = text
        .lines()
        .filter(|l| l.contains("not shrunk") && l.contains("2 threads"))
        .count();
    assert_eq!(refused, failing, "{text}");
    assert_eq!(std::fs::read_to_string(&shrunk).unwrap(), "");
}
