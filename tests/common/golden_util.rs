//! Shared helpers of the tests/golden_*.rs files.

#![allow(dead_code)]

use euref::conformance::check::{read_report, ReportLine};
use euref::golden::Vector;
use euref::isa::Insn;
use euref::spec::Platform;
use std::path::Path;
use std::process::Command;

/// The instruction of vector `v` on `p`, parsed from its IGA text, after asserting that the
/// validator accepts it. (A one-source math has no src1 in the model, decoded or parsed: the
/// implicit null<8;8,1>:f of enc.implicit.math-src1 is left out and not validated.)
pub fn parsed_valid_insn(v: &Vector, p: Platform) -> Insn {
    let insn = euref::asm::parse_insn(&v.insn, euref::asm::Dialect::Iga, p)
        .unwrap_or_else(|e| panic!("{}: {}: {e}", v.id, v.insn));
    let bad: Vec<&str> = euref::validate::check_insn(p, &insn)
        .iter()
        .map(|x| x.rule.id)
        .collect();
    assert!(bad.is_empty(), "{}: {} violates {bad:?}", v.id, v.insn);
    insn
}

pub const EUREF: &str = env!("CARGO_BIN_EXE_euref");

pub fn golden(args: &[&str], out: &Path, threads: &str) {
    let st = Command::new(EUREF)
        .arg("golden")
        .args(args)
        .arg("-o")
        .arg(out)
        .env("RAYON_NUM_THREADS", threads)
        .status()
        .unwrap();
    assert!(st.success(), "euref golden {args:?} failed");
}

/// `euref check`: (exit code, stdout, report lines).
pub fn check(
    sim: &str,
    vectors: &Path,
    report: &Path,
    extra: &[&str],
) -> (i32, String, Vec<ReportLine>) {
    let o = Command::new(EUREF)
        .arg("check")
        .arg("--sim")
        .arg(sim)
        .arg(vectors)
        .arg("--report")
        .arg(report)
        .args(extra)
        .output()
        .unwrap();
    let text = std::fs::read_to_string(report).unwrap_or_default();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        read_report(&text),
    )
}

pub fn vectors_of(path: &Path) -> Vec<Vector> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A command's exit status, standard output and standard error, for a failure message.
pub fn output_text(o: &std::process::Output) -> String {
    format!(
        "exit {:?}\nstdout: {}\nstderr: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The bytes of file `p` (a test failure naming it when it cannot be read).
pub fn read_bytes(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// `euref ARGS` run to completion on two worker threads: its output.
pub fn euref_output(args: &[&str]) -> std::process::Output {
    Command::new(EUREF)
        .args(args)
        .env("RAYON_NUM_THREADS", "2")
        .output()
        .unwrap()
}
