//! `euref golden` refuses a selection of which no vector can be made (issue 25): exit status
//! 2 before anything is written, saying why and what would work.

use crate::scratch_util::Scratch;
use euref::spec::{math::FUNCS, DataType, Platform};
use std::process::Command;

fn golden(args: &[&str]) -> (i32, Vec<u8>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_euref"))
        .arg("golden")
        .args(args)
        .output()
        .expect("run euref");
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Whether spec/math.toml has a row of some function for type `t` on `p`.
fn math_takes(t: DataType, p: Platform) -> bool {
    FUNCS
        .iter()
        .any(|m| m.gens.contains(p) && m.types.contains(t))
}

#[test]
fn an_empty_selection_is_an_error_before_any_output() {
    // The example: no math row takes HF on Ivy Bridge, some does on Skylake.
    assert!(!math_takes(DataType::HF, Platform::Ivb));
    assert!(math_takes(DataType::HF, Platform::Skl));
    assert!(math_takes(DataType::F, Platform::Ivb));
    let tmp = Scratch::new("golden-cli");
    let out = tmp.join("v.jsonl");
    let o = out.to_str().unwrap();
    let (code, stdout, err) = golden(&["--gen", "ivb", "--ops", "math", "--types", "hf", "-o", o]);
    assert_eq!(code, 2, "{err}");
    assert!(stdout.is_empty());
    assert!(!out.exists(), "the output file was created");
    let msg = err.trim();
    assert!(
        msg.starts_with("euref: error: no vector can be made"),
        "{msg}"
    );
    assert!(msg.contains("--ops math with --types hf on ivb"), "{msg}");
    // What would work: F on ivb, HF on the platforms whose math rows take it.
    let types_here = msg
        .split("they take --types ")
        .nth(1)
        .and_then(|s| s.split(';').next())
        .unwrap_or_else(|| panic!("no types listed: {msg}"));
    let here: Vec<&str> = types_here.split(", ").collect();
    assert!(here.contains(&"f") && !here.contains(&"hf"), "{msg}");
    for p in Platform::ALL {
        let listed = msg.contains(&format!("--gen {}", p.name()))
            || msg.contains(&format!(", {}", p.name()));
        if p != Platform::Ivb && math_takes(DataType::HF, p) {
            assert!(listed, "{} not suggested: {msg}", p.name());
        }
    }
    // To standard output: nothing printed either.
    let (code, stdout, _) = golden(&["--gen", "ivb", "--ops", "math", "--types", "hf"]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
}

#[test]
fn a_selection_that_some_opcode_can_make_runs() {
    // HF math on skl makes vectors: the floating-point functions take HF, the integer
    // divisions do not, so their indices are skipped with a note (not an error).
    let (code, stdout, err) = golden(&[
        "--gen", "skl", "--ops", "math", "--types", "hf", "--count", "40",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines = stdout.iter().filter(|&&b| b == b'\n').count();
    assert!(lines > 0 && lines < 40, "{lines} vectors");
    assert!(
        err.contains(&format!("{} of 40 indices produced no vector", 40 - lines)),
        "{err}"
    );
    // ivb has no HF at all: `add` cannot take it either, so the selection is refused.
    let (code, _, err) = golden(&["--gen", "ivb", "--ops", "add,math", "--types", "hf"]);
    assert_eq!(code, 2, "{err}");
}
