//! Messages of `euref validate` that repeat user input quote it, escape control characters
//! and cut it short (issue 26; the shared helper is `euref::quote`).

use crate::scratch_util::Scratch;
use std::process::Command;

fn validate(args: &[&str]) -> (Option<i32>, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_euref"))
        .arg("validate")
        .args(args)
        .output()
        .expect("euref runs");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn an_unknown_generation_is_quoted() {
    let tmp = Scratch::new("validate-msg");
    let f = tmp.file("ok.asm", "nop\n");
    let gen = format!("\u{1b}]0;title\u{7}{}", "9".repeat(1000));
    let (code, err) = validate(&["--gen", &gen, f.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(!err.contains('\u{1b}') && !err.contains('\u{7}'), "{err}");
    assert!(
        err.contains("unknown generation `\\u{1b}]0;title\\u{7}999"),
        "{err}"
    );
    assert!(err.contains(&format!("... ({} bytes)", gen.len())), "{err}");
}

#[test]
fn a_long_bad_token_in_assembly_is_cut() {
    let tmp = Scratch::new("validate-msg");
    let token = format!("\u{1b}[2J{}", "q".repeat(200_000));
    let f = tmp.file(
        "bad.asm",
        format!("add (8|M0) r1.0<1>:f r2.0<8;8,1>:f {token}\n"),
    );
    // `--input asm`: the control byte would make detection take the file for binary.
    let o = Command::new(env!("CARGO_BIN_EXE_euref"))
        .args([
            "validate",
            "--gen",
            "skl",
            "--input",
            "asm",
            f.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.len() < 1_000, "{} bytes", out.len());
    assert!(!out.contains('\u{1b}'), "{out}");
    assert!(out.contains("bad.asm:1:36: error:"), "{out}");
}
