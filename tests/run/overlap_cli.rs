//! `euref run --compressed-overlap`: the three readings of a compressed instruction whose
//! second half reads what its first half writes (spec/platforms.toml
//! feature.compressed-overlap), and a clear error for a bad value.

use crate::scratch_util::Scratch;
use std::process::Command;

/// `add (16) r4 r3 1` with r3 = 10i and r4 = 100 + i: the second half's source is r4, which
/// the first half writes.
const PROG: &str = "add (16|M0) r4.0<1>:d r3.0<8;8,1>:d 1:d\n";
const STATE: &str = r#"{"base": "zero",
 "r3": {"type": "ud", "values": [0, 10, 20, 30, 40, 50, 60, 70]},
 "r4": {"type": "ud", "values": [100, 101, 102, 103, 104, 105, 106, 107]}}"#;

/// The r5 value row of `euref run`'s text output with `--compressed-overlap how`, and its
/// standard error.
fn r5_row(how: &str) -> (String, String) {
    let tmp = Scratch::new("run-overlap");
    let prog = tmp.file("k.asm", PROG);
    let st = tmp.file("st.json", STATE);
    let o = Command::new(env!("CARGO_BIN_EXE_euref"))
        .args(["run", "--compressed-overlap", how, "--state"])
        .arg(&st)
        .arg(&prog)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut lines = out.lines().skip_while(|l| !l.starts_with("r5:"));
    let row = lines.nth(1).unwrap_or_else(|| panic!("no r5 in {out}"));
    (
        row.to_string(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn row(vals: impl Iterator<Item = String>) -> String {
    let cells: Vec<String> = vals.map(|v| format!("{v:>9}")).collect();
    format!("  [ 0]{}", cells.join(" "))
}

#[test]
fn each_reading_and_the_undefined_default() {
    let r3 = (0..8u32).map(|i| 10 * i);
    // halves: r5 = (new r4) + 1 = r3 + 2; sources-first: r5 = (old r4) + 1 = 101 + i.
    let (halves, warn) = r5_row("halves");
    assert_eq!(halves, row(r3.clone().map(|x| (x + 2).to_string())));
    assert!(warn.is_empty(), "{warn}");
    let (first, warn) = r5_row("sources-first");
    assert_eq!(first, row((0..8u32).map(|i| (101 + i).to_string())));
    assert!(warn.is_empty(), "{warn}");
    // The two differ in every element's low byte only: undefined, shown as ??.
    let mut both = r3.map(|x| (x + 2) ^ (101 + x / 10));
    assert!(both.all(|d| d != 0 && d < 0x100));
    let (undefined, warn) = r5_row("undefined");
    assert_eq!(undefined, row((0..8).map(|_| "??".to_string())));
    // The warning names the row and the instruction.
    assert!(
        warn.contains(":1:1: [feature.compressed-overlap]"),
        "{warn}"
    );
}

#[test]
fn a_bad_value_names_the_choices() {
    let o = Command::new(env!("CARGO_BIN_EXE_euref"))
        .args(["run", "--compressed-overlap", "both"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("expected one of undefined, halves, sources-first"),
        "{e}"
    );
}
