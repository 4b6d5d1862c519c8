//! Shared by the tests that run the `euref` binary: running it. Their scratch files: see
//! `tests/scratch_util`.
#![allow(dead_code)]

use std::process::Command;

/// Run `euref ARGS`: (exit status, stdout, stderr).
pub fn euref(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_euref"))
        .args(args)
        .output()
        .expect("run euref");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
