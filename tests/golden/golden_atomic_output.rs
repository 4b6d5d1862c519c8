//! `euref golden -o FILE` never leaves a torn file (issue 26): the vectors go to a temporary
//! file beside FILE, renamed to FILE when complete. Killed mid-way (SIGKILL), the run leaves
//! FILE absent or as it was; a write that fails (a file size limit, standing in for a full
//! disk; /dev/full) is an error with status 2 naming the file, and leaves no partial FILE.
#![cfg(target_os = "linux")]

use crate::scratch_util::Scratch;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const EUREF: &str = env!("CARGO_BIN_EXE_euref");

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The files in `dir` other than `keep`: (name, size).
fn others(dir: &Path, keep: &str) -> Vec<(String, u64)> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name() != keep)
        .map(|e| {
            let len = e.metadata().map_or(0, |m| m.len());
            (e.file_name().to_string_lossy().into_owned(), len)
        })
        .collect()
}

/// Every line of `text` is a whole JSON object with an id, and the text ends with a line end.
fn whole_json_lines(text: &str) {
    assert!(text.is_empty() || text.ends_with('\n'), "torn last line");
    for (k, line) in text.lines().enumerate() {
        let v: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("line {}: {e}", k + 1));
        assert!(v.get("id").is_some(), "line {}", k + 1);
    }
}

#[test]
fn a_killed_run_leaves_the_file_as_it_was() {
    let tmp = Scratch::new("golden-atomic");
    for old in [None, Some("{\"id\":\"old\"}\n")] {
        let out = tmp.join("v.jsonl");
        let _ = std::fs::remove_file(&out);
        for (name, _) in others(tmp.path(), "") {
            std::fs::remove_file(tmp.join(&name)).unwrap();
        }
        if let Some(text) = old {
            std::fs::write(&out, text).unwrap();
        }
        // Far more vectors than are written before the kill.
        let mut child = Command::new(EUREF)
            .args([
                "golden",
                "--gen",
                "skl",
                "--count",
                "100000000",
                "-o",
                s(&out),
            ])
            .env("RAYON_NUM_THREADS", "1")
            .spawn()
            .unwrap();
        // Kill it once some vectors are written (to the temporary file).
        let start = Instant::now();
        loop {
            // (In any file: the temporary one, or FILE itself if written in place.)
            let written: u64 = others(tmp.path(), "").iter().map(|f| f.1).sum();
            if written > 200_000 {
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "nothing written in 2 minutes"
            );
            assert!(child.try_wait().unwrap().is_none(), "golden ended early");
            std::thread::sleep(Duration::from_millis(20));
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        match old {
            None => assert!(!out.exists(), "a partial file is in place"),
            Some(text) => assert_eq!(std::fs::read_to_string(&out).unwrap(), text),
        }
        // What is left: the temporary file (named after the output), as the docs say.
        let left = others(tmp.path(), "v.jsonl");
        assert_eq!(left.len(), 1, "{left:?}");
        assert!(
            left[0].0.starts_with(".v.jsonl.") && left[0].0.ends_with(".partial"),
            "{left:?}"
        );
    }
}

#[test]
fn a_complete_run_leaves_only_whole_lines_and_no_temporary_file() {
    let tmp = Scratch::new("golden-atomic");
    let out = tmp.file("v.jsonl", "{\"id\":\"old\"}\n");
    let st = Command::new(EUREF)
        .args(["golden", "--gen", "skl", "--count", "300", "-o", s(&out)])
        .status()
        .unwrap();
    assert!(st.success());
    let text = std::fs::read_to_string(&out).unwrap();
    whole_json_lines(&text);
    assert_eq!(text.lines().count(), 300);
    assert!(others(tmp.path(), "v.jsonl").is_empty());
}

#[test]
fn a_failed_write_is_an_error_and_leaves_no_partial_file() {
    let tmp = Scratch::new("golden-atomic");
    // A full device.
    let r = Command::new(EUREF)
        .args([
            "golden",
            "--gen",
            "skl",
            "--count",
            "100",
            "-o",
            "/dev/full",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{err}");
    assert!(err.contains("writing to /dev/full: "), "{err}");
    assert!(err.contains("(os error 28)"), "{err}");
    // A regular file on a "full disk": the file size limit (RLIMIT_FSIZE, 100 blocks of 512
    // bytes) makes a write fail with EFBIG once the file would grow past 51 200 bytes
    // (SIGXFSZ, which would kill the process instead, is ignored, and stays ignored across
    // exec).
    for old in [None, Some("{\"id\":\"old\"}\n")] {
        let out = tmp.join("v.jsonl");
        let _ = std::fs::remove_file(&out);
        if let Some(text) = old {
            std::fs::write(&out, text).unwrap();
        }
        let script = format!(
            "trap '' XFSZ; ulimit -f 100; exec {EUREF} golden --gen skl --count 5000 -o {}",
            s(&out)
        );
        let r = Command::new("sh").args(["-c", &script]).output().unwrap();
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{err}");
        assert!(err.contains(&format!("writing to {}: ", s(&out))), "{err}");
        assert!(err.contains("(os error 27)"), "EFBIG: {err}");
        match old {
            None => assert!(!out.exists(), "a partial file is left"),
            Some(text) => assert_eq!(std::fs::read_to_string(&out).unwrap(), text),
        }
        assert!(
            others(tmp.path(), "v.jsonl").is_empty(),
            "a temporary file is left"
        );
    }
}
