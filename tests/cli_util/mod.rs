//! Shared by the tests that run the `euref` binary: running it and scratch files.
#![allow(dead_code)]

use std::path::PathBuf;
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

/// Write `data` to a scratch file `name` in a folder of this test process (`tag` names the
/// test file).
pub fn scratch_file(tag: &str, name: &str, data: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("euref-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, data).unwrap();
    p
}
