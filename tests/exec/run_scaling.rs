//! `euref run` on assembly text takes time linear in the number of instructions (issue 26:
//! each instruction's line and column were found by counting lines from the start of the
//! text, so 16k instructions took seconds and 200k did not finish in a minute).
//!
//! A timed test, hence ignored by default (a loaded machine can slow any one run; the two
//! sizes are timed alternately and the best of three kept, so that a load that comes and goes
//! does not decide): `cargo test --test exec -- --ignored run_time_grows_linearly`.
//! benches/text_front.rs measures the time per instruction from 1k to 1M instructions.

use std::process::Command;
use std::time::{Duration, Instant};

/// The example kernel's instructions, comments removed, repeated to `n` lines.
fn program(n: usize) -> String {
    let text = include_str!("../../examples/kernels/saxpy.asm");
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .collect();
    let mut s = String::new();
    for l in lines.iter().cycle().take(n) {
        s.push_str(l);
        s.push('\n');
    }
    s
}

fn time_run(file: &std::path::Path) -> Duration {
    let t = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_euref"))
        .arg("run")
        .arg(file)
        .output()
        .expect("euref runs");
    let t = t.elapsed();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    t
}

#[test]
#[ignore = "timed: run with --ignored on a quiet machine"]
fn run_time_grows_linearly() {
    let dir = tempfile::tempdir().unwrap();
    let (small, large) = (4_000, 32_000);
    let fs = dir.path().join("small.asm");
    let fl = dir.path().join("large.asm");
    std::fs::write(&fs, program(small)).unwrap();
    std::fs::write(&fl, program(large)).unwrap();
    let (mut ts, mut tl) = (Duration::MAX, Duration::MAX);
    for _ in 0..3 {
        ts = ts.min(time_run(&fs));
        tl = tl.min(time_run(&fl));
    }
    // Linear: 8 times the instructions take about 8 times as long (quadratic: 64 times).
    // Allow 3 times the small run's time per instruction (process start favours the large).
    let ratio = tl.as_secs_f64() / ts.as_secs_f64();
    assert!(
        ratio < 3.0 * (large / small) as f64,
        "{small} instructions: {ts:?}, {large}: {tl:?} (ratio {ratio:.1})"
    );
}
