//! Execution-context rules (spec/properties.toml `preemptible`, `spf`): `euref validate
//! --preemptible/--spf` and `euref run` with a state that says so report
//! special.preemption-compressed-multi-index and arf.spf-h1-q1-n1; without the setting they do
//! not apply.

use crate::scratch_util::Scratch;
use std::process::{Command, Output};

fn euref(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_euref"))
        .args(args)
        .output()
        .expect("euref runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// seed004 §Special Restrictions: in a mid-thread pre-emptible context, the second half of a
/// compressed instruction with a Vx1 src0 must use more than one index register; `mov (16)`
/// from `r[a0.0]<8,1>` takes the whole second half (8 channels) from one row of 8.
const PREEMPT: &str = "mov (16|M0) r2.0<1>:d r[a0.0]<8,1>:d\n";
const PREEMPT_RULE: &str = "special.preemption-compressed-multi-index";

#[test]
fn validate_preemptible_flag_applies_the_preemption_rule() {
    let tmp = Scratch::new("ctx-validate");
    let f = tmp.file("pre.asm", PREEMPT);
    let f = f.to_str().unwrap();
    let o = euref(&["validate", f, "--gen", "skl"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    let o = euref(&["validate", f, "--gen", "skl", "--preemptible"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stdout).contains(PREEMPT_RULE),
        "{}",
        text(&o.stdout)
    );
    // The rule's rows are Gen8+ (gens = "gen8+"): Haswell stays valid.
    let o = euref(&["validate", f, "--gen", "hsw", "--preemptible"]);
    assert!(
        !text(&o.stdout).contains(PREEMPT_RULE),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn run_with_a_preemptible_state_applies_the_preemption_rule() {
    let tmp = Scratch::new("ctx-run-pre");
    let prog = tmp.file("pre.asm", PREEMPT);
    let prog = prog.to_str().unwrap();
    let plain = tmp.file(
        "plain.json",
        r#"{"base": "zero", "a0": "40004000400040004000400040004000"}"#,
    );
    let pre = tmp.file(
        "pre.json",
        r#"{"base": "zero", "preemptible": true, "a0": "40004000400040004000400040004000"}"#,
    );
    let o = euref(&[
        "run",
        prog,
        "--gen",
        "skl",
        "--state",
        plain.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = euref(&[
        "run",
        prog,
        "--gen",
        "skl",
        "--state",
        pre.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains(&format!("[{PREEMPT_RULE}]")),
        "{}",
        text(&o.stderr)
    );
}

/// seed000 §3.3.3.8: in SPF mode only H1/Q1/N1 may be selected; `(8|M8)` selects the second
/// group. The row's `undefined = "all"`: strict run refuses, lenient run marks the results
/// undefined.
#[test]
fn spf_state_reports_a_second_channel_group() {
    let tmp = Scratch::new("ctx-run-spf");
    let prog = tmp.file("spf.asm", "add (8|M8) r2.0<1>:d r3.0<8;8,1>:d 1:d\n");
    let prog = prog.to_str().unwrap();
    let off = tmp.file("off.json", r#"{"base": "zero"}"#);
    let on = tmp.file(
        "on.json",
        r#"{"base": "zero", "cr0": {"single_program_flow": 1}}"#,
    );
    let o = euref(&["run", prog, "--state", off.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = euref(&["run", prog, "--state", on.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("[arf.spf-h1-q1-n1]"), "{err}");
    assert!(err.contains("seed000 §3.3.3.8"), "{err}");
    let o = euref(&["run", prog, "--lenient", "--state", on.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("arf.spf-h1-q1-n1"));
    let out = text(&o.stdout);
    let line = out
        .lines()
        .skip_while(|l| !l.starts_with("r2:d"))
        .find(|l| l.trim_start().starts_with("[ 0]"))
        .unwrap_or_else(|| panic!("no r2 values in\n{out}"));
    assert_eq!(line.matches("??").count(), 8, "{out}");
    // validate --spf says the same of the text.
    let o = euref(&["validate", prog, "--gen", "skl", "--spf"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stdout).contains("arf.spf-h1-q1-n1"));
    let o = euref(&["validate", prog, "--gen", "skl"]);
    assert_eq!(o.status.code(), Some(0));
}
