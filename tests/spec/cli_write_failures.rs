//! Failed writes are never silent (issue 26): every command whose standard output is
//! /dev/full (each write fails with ENOSPC) exits with status 2 and says
//! `writing to standard output: <the OS error>`, naming no input file; `-o /dev/full` names
//! the file. A closed pipe ends the output quietly: killed by SIGPIPE (the default
//! disposition `main` restores), or, in `euref check`, which ignores SIGPIPE, the status of
//! the check without a message.
#![cfg(target_os = "linux")]

use crate::scratch_util::Scratch;
use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

const EUREF: &str = env!("CARGO_BIN_EXE_euref");

/// The message of a write to a full device, as the OS gives it (ENOSPC, errno 28).
const ENOSPC: &str = "(os error 28)";

/// Run `euref ARGS` with standard output on /dev/full and `stdin` on standard input:
/// (exit status, stderr).
fn to_full(args: &[&str], stdin: &[u8]) -> (i32, String) {
    let full = File::options().write(true).open("/dev/full").unwrap();
    let mut child = Command::new(EUREF)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::from(full))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    // (A command that reads no input may have exited already: a failed write is fine.)
    let _ = input.write_all(stdin);
    drop(input);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `euref ARGS` with standard output on /dev/full fails with status 2 and names standard
/// output and the OS error.
fn fails_on_stdout(args: &[&str], stdin: &[u8]) -> String {
    let (code, err) = to_full(args, stdin);
    assert_eq!(code, 2, "euref {args:?}: status {code}, stderr: {err}");
    assert!(
        err.contains("euref: error: writing to standard output: ") && err.contains(ENOSPC),
        "euref {args:?}: {err}"
    );
    err
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A small vector file and the simulator command line for `euref check`.
fn vectors(tmp: &Scratch) -> (std::path::PathBuf, String) {
    let v = tmp.join("v.jsonl");
    let st = Command::new(EUREF)
        .args([
            "golden",
            "--gen",
            "skl",
            "--count",
            "20",
            "--seed",
            "3",
            "-o",
            s(&v),
        ])
        .status()
        .unwrap();
    assert!(st.success());
    (v, format!("{EUREF} sim"))
}

#[test]
fn every_command_reports_a_full_standard_output() {
    let tmp = Scratch::new("write-failures");
    let kernel = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/kernels/saxpy.asm");
    for args in [
        vec!["asm", kernel],
        vec!["asm", kernel, "--hex"],
        vec!["asm", kernel, "--compact"],
        vec!["asm", kernel, "--hex", "--compact"],
        vec!["run"],
        vec!["run", "--json"],
        vec!["run", kernel],
        vec!["spec"],
        vec!["spec", "--json"],
        vec!["spec", "--id", "math.inv.f"],
        vec!["validate", "--gen", "skl", kernel],
        vec!["validate", "--gen", "skl", "--json", kernel],
        vec!["golden", "--gen", "skl", "--count", "50"],
        vec!["completions", "bash"],
        vec!["man"],
        vec!["man", "asm"],
        vec!["--help"],
        vec!["--version"],
        vec!["asm", "--help"],
        vec!["help", "golden"],
    ] {
        fails_on_stdout(&args, b"");
    }
    // Standard input as the program.
    let text = std::fs::read(kernel).unwrap();
    fails_on_stdout(&["asm", "-", "--hex"], &text);
    fails_on_stdout(&["run", "-"], &text);
    // fp: operands on standard input.
    fails_on_stdout(&["fp", "f32_add"], b"3F800000 40000000\n");
    // golden's coverage report goes to standard output with -o.
    let v = tmp.join("cov.jsonl");
    fails_on_stdout(
        &[
            "golden",
            "--gen",
            "skl",
            "--count",
            "50",
            "--coverage",
            "-o",
            s(&v),
        ],
        b"",
    );
}

#[test]
fn disasm_blames_standard_output_not_its_input() {
    let tmp = Scratch::new("write-failures");
    // Hex text (the .expected format) and raw bytes: one `nop`-free move each, assembled by
    // euref itself from text.
    let asm = tmp.file("k.asm", "mov (8|M0) r1.0<1>:f r2.0<8;8,1>:f\n");
    let hex = Command::new(EUREF)
        .args(["asm", "--hex", s(&asm)])
        .output()
        .unwrap();
    assert!(hex.status.success());
    let ok_hex = tmp.file("ok.hex", &hex.stdout);
    let ok_bin = tmp.join("ok.bin");
    assert!(Command::new(EUREF)
        .args(["asm", "-o", s(&ok_bin), s(&asm)])
        .status()
        .unwrap()
        .success());
    for input in [&ok_hex, &ok_bin, &asm] {
        let err = fails_on_stdout(&["disasm", s(input)], b"");
        assert!(!err.contains(s(input)), "the input is blamed: {err}");
    }
}

#[test]
fn check_and_report_merge_and_sim_report_a_full_standard_output() {
    let tmp = Scratch::new("write-failures");
    let (v, sim) = vectors(&tmp);
    // The summary of a passing check, and of a failing one (its failures are printed too).
    fails_on_stdout(&["check", "--sim", &sim, s(&v)], b"");
    let bad_sim = format!("{sim} --inject no-sat");
    let report = tmp.join("r.jsonl");
    let (code, err) = to_full(
        &["check", "--sim", &bad_sim, "--report", s(&report), s(&v)],
        b"",
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("writing to standard output: ") && err.contains(ENOSPC));
    // The report file is whole: one line per vector.
    let lines = std::fs::read_to_string(&report).unwrap();
    assert_eq!(lines.lines().count(), 20, "{lines}");
    // --explain.
    let first = std::fs::read_to_string(&v).unwrap();
    let id = first
        .lines()
        .next()
        .and_then(|l| l.split("\"id\":\"").nth(1))
        .and_then(|r| r.split('"').next())
        .unwrap()
        .to_string();
    fails_on_stdout(&["check", "--sim", &sim, "--explain", &id, s(&v)], b"");
    // report merge prints its summary.
    fails_on_stdout(&["report", "merge", s(&report)], b"");
    // sim answers on standard output.
    let request = first.lines().next().unwrap().to_string() + "\n";
    fails_on_stdout(&["sim"], request.as_bytes());
}

#[test]
fn a_full_output_file_is_named() {
    let kernel = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/kernels/saxpy.asm");
    for args in [
        vec!["asm", kernel, "-o", "/dev/full"],
        vec!["asm", kernel, "--compact", "-o", "/dev/full"],
        vec!["golden", "--gen", "skl", "--count", "50", "-o", "/dev/full"],
    ] {
        let out = Command::new(EUREF).args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("writing to /dev/full: ") && err.contains(ENOSPC),
            "{args:?}: {err}"
        );
    }
}

/// Run `euref ARGS` with standard output on a pipe whose reader reads `keep` bytes and
/// closes it: (the exit status, its signal, stderr).
fn closed_pipe(args: &[&str], keep: usize) -> (Option<i32>, Option<i32>, String) {
    use std::os::unix::process::ExitStatusExt;
    let mut child = Command::new(EUREF)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut buf = vec![0u8; keep];
    out.read_exact(&mut buf).unwrap();
    drop(out);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let st = child.wait().unwrap();
    (st.code(), st.signal(), err)
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    // SIGPIPE (default disposition): the process ends by the signal, with no message.
    for args in [
        vec!["spec"],
        vec!["golden", "--gen", "skl", "--count", "200000"],
    ] {
        let (code, signal, err) = closed_pipe(&args, 16);
        assert_eq!(
            (code, signal),
            (None, Some(libc::SIGPIPE)),
            "{args:?}: {err}"
        );
        assert!(err.is_empty(), "{args:?}: {err}");
    }
    // check ignores SIGPIPE (a simulator may exit while requests are written): the write
    // fails with EPIPE, and the check ends with its own status, without a message. (The
    // reader is gone before the summary is written.)
    let tmp = Scratch::new("write-failures");
    let (v, sim) = vectors(&tmp);
    let (code, signal, err) = closed_pipe(&["check", "--sim", &sim, s(&v)], 0);
    assert_eq!((code, signal), (Some(0), None), "{err}");
    assert!(!err.contains("error"), "{err}");
}

/// Run `euref ARGS` with standard error on `err` (a file opened for writing): the exit status
/// (`eprintln!` panicked on a failed write: status 101 instead of the command's own).
fn status_with_stderr(args: &[&str], err: &str) -> i32 {
    let err = File::options().write(true).open(err).unwrap();
    Command::new(EUREF)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(err))
        .status()
        .unwrap()
        .code()
        .unwrap_or(-1)
}

/// A message that cannot be written (standard error full) is dropped; the command ends with
/// the status it has when its messages are written: an error, or violations, not a panic.
#[test]
fn a_full_standard_error_changes_no_status() {
    let tmp = Scratch::new("stderr-full");
    let bad = tmp.join("bad.asm");
    std::fs::write(&bad, "frobnicate (8|M0) r1 r2\n").unwrap();
    let invalid = tmp.join("invalid.asm");
    std::fs::write(&invalid, "mov (32|M0) r2.0<1>:q r4.0<8;8,1>:q\n").unwrap();
    for args in [
        vec!["asm", s(&bad)],
        vec!["run", "--gen", "99"],
        vec!["validate", "--gen", "skl", s(&invalid)],
    ] {
        let written = status_with_stderr(&args, "/dev/null");
        assert_ne!(written, 0, "euref {args:?} should fail");
        assert_eq!(
            status_with_stderr(&args, "/dev/full"),
            written,
            "euref {args:?}"
        );
    }
}
