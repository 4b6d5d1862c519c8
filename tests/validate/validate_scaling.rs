//! `euref validate` on assembly text takes time linear in the number of instructions and of
//! errors (issue 26: each syntax error was located by counting lines from the start of the
//! text, so 128k bad lines took seconds where 16k took a fraction of one).
//!
//! A timed test, hence ignored by default (a loaded machine can slow any one run; the two
//! sizes are timed alternately and the best of three kept): `cargo test --test validate --
//! --ignored validate_time_grows_linearly`. benches/text_front.rs measures the time per
//! instruction from 1k to 1M instructions.

use std::process::Command;
use std::time::{Duration, Instant};

fn time_validate(file: &std::path::Path, status: i32) -> Duration {
    let t = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_euref"))
        .args(["validate", "--gen", "skl"])
        .arg(file)
        .output()
        .expect("euref runs");
    let t = t.elapsed();
    assert_eq!(o.status.code(), Some(status));
    t
}

#[test]
#[ignore = "timed: run with --ignored on a quiet machine"]
fn validate_time_grows_linearly() {
    let dir = tempfile::tempdir().unwrap();
    let (small, large) = (16_000, 128_000);
    for (line, status) in [
        // Every line a syntax error, located by line and column.
        ("add (16|M0) r1.0<1>:f r2.0<8;8,1>:f oops\n", 2),
        // Every line a valid instruction.
        ("add (16|M0) r1.0<1>:f r2.0<8;8,1>:f r4.0<8;8,1>:f\n", 0),
    ] {
        let fs = dir.path().join("small.asm");
        let fl = dir.path().join("large.asm");
        std::fs::write(&fs, line.repeat(small)).unwrap();
        std::fs::write(&fl, line.repeat(large)).unwrap();
        let (mut ts, mut tl) = (Duration::MAX, Duration::MAX);
        for _ in 0..3 {
            ts = ts.min(time_validate(&fs, status));
            tl = tl.min(time_validate(&fl, status));
        }
        let ratio = tl.as_secs_f64() / ts.as_secs_f64();
        assert!(
            ratio < 3.0 * (large / small) as f64,
            "{line}: {small} lines: {ts:?}, {large}: {tl:?} (ratio {ratio:.1})"
        );
    }
}
