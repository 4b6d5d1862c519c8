//! Input read from anything (issue 26): every command that takes a FILE gives the same output
//! for a named pipe (FIFO), for /dev/stdin and `-` on a pipe as for a regular file holding
//! the same bytes. (`euref asm --hex FIFO` printed nothing, with status 0: the streaming
//! assembler read the text twice.)
#![cfg(target_os = "linux")]

use crate::scratch_util::Scratch;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

const EUREF: &str = env!("CARGO_BIN_EXE_euref");

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A named pipe `name` in `tmp` and a thread writing `data` into it (once a reader opens it).
fn fifo(tmp: &Scratch, name: &str, data: &[u8]) -> (PathBuf, JoinHandle<()>) {
    let path = tmp.join(name);
    let st = Command::new("mkfifo").arg(&path).status().expect("mkfifo");
    assert!(st.success());
    let (p, data) = (path.clone(), data.to_vec());
    let writer = std::thread::spawn(move || {
        // (A reader that stops early closes the pipe: EPIPE, fine here.)
        if let Ok(mut f) = std::fs::File::options().write(true).open(&p) {
            let _ = f.write_all(&data);
        }
    });
    (path, writer)
}

/// Let the writer of a FIFO end even if no one opened the FIFO (a non-blocking open for
/// reading releases its blocked open), and wait for it.
fn release(path: &Path, writer: JoinHandle<()>) {
    use std::os::unix::fs::OpenOptionsExt;
    while !writer.is_finished() {
        if let Ok(f) = std::fs::File::options()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)
        {
            std::thread::sleep(std::time::Duration::from_millis(20));
            drop(f);
        }
    }
    writer.join().unwrap();
}

/// `euref ARGS` with `stdin` on a pipe: (status, stdout, stderr), with the input's `name`
/// replaced by `FILE` in both outputs.
fn euref(args: &[&str], stdin: &[u8], name: &str) -> (i32, String, String) {
    let mut child = Command::new(EUREF)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    // (With a deadline: a command that opens a named pipe twice waits for a second writer
    // forever.)
    let (mut stdout, mut stderr) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let outs = std::thread::spawn(move || {
        let (mut o, mut e) = (Vec::new(), Vec::new());
        let err = std::thread::spawn(move || stderr.read_to_end(&mut e).map(|_| e));
        stdout.read_to_end(&mut o).unwrap();
        (o, err.join().unwrap().unwrap())
    });
    let start = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("euref {args:?} did not end in 60 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let (stdout, stderr) = outs.join().unwrap();
    feeder.join().unwrap();
    // (Standard input is named `<stdin>` where `-` is given.)
    let text = |b: &[u8]| {
        let t = String::from_utf8_lossy(b).replace("<stdin>", "FILE");
        if name == "-" {
            t
        } else {
            t.replace(name, "FILE")
        }
    };
    (status.code().unwrap_or(-1), text(&stdout), text(&stderr))
}

/// Each of `commands` (arguments before and after the input's name, and the file its output
/// goes to if not standard output) gives for a FIFO, /dev/stdin and `-` what it gives for the
/// regular file holding `data`.
fn same_for_every_source(
    tmp: &Scratch,
    data: &[u8],
    commands: &[(&[&str], &[&str], Option<&Path>)],
) {
    let file = tmp.file("input", data);
    for &(before, after, out_file) in commands {
        let run = |input: &str, stdin: &[u8]| {
            let mut args: Vec<&str> = before.to_vec();
            args.push(input);
            args.extend_from_slice(after);
            if let Some(o) = out_file {
                let _ = std::fs::remove_file(o);
            }
            let r = euref(&args, stdin, input);
            let written = out_file.map(|o| std::fs::read(o).unwrap_or_default());
            (r, written)
        };
        let want = run(s(&file), b"");
        assert_eq!(want.0 .0, 0, "{before:?} {after:?}: {}", want.0 .2);
        assert!(
            !want.0 .1.is_empty() || want.1.as_ref().is_some_and(|w| !w.is_empty()),
            "{before:?} {after:?}: no output"
        );
        let (path, writer) = fifo(tmp, "fifo", data);
        let got = run(s(&path), b"");
        release(&path, writer);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(got, want, "{before:?} FIFO {after:?}");
        for stdin_name in ["/dev/stdin", "-"] {
            let got = run(stdin_name, data);
            assert_eq!(got, want, "{before:?} {stdin_name} {after:?} (a pipe)");
        }
    }
}

#[test]
fn assembly_text_from_a_pipe_is_read_as_from_a_file() {
    let tmp = Scratch::new("pipe-input");
    let kernel = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/kernels/saxpy.asm"
    ))
    .unwrap();
    let bin = tmp.join("out.bin");
    same_for_every_source(
        &tmp,
        &kernel,
        &[
            (&["asm"], &["--hex"], None),
            (&["asm"], &["--hex", "--compact"], None),
            (&["asm"], &[], None),
            (&["asm"], &["-o", s(&bin)], Some(&bin)),
            (&["disasm"], &[], None),
            (&["validate", "--gen", "skl"], &[], None),
            (&["validate", "--gen", "skl"], &["--json"], None),
            (&["run"], &[], None),
        ],
    );
    // The hex lines: one per instruction of the kernel (12), not none.
    let (path, writer) = fifo(&tmp, "k.asm", &kernel);
    let (code, out, err) = euref(&["asm", "--hex", s(&path)], b"", "?");
    release(&path, writer);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 12, "{out}");
}

#[test]
fn instruction_bytes_from_a_pipe_are_read_as_from_a_file() {
    let tmp = Scratch::new("pipe-input");
    let k = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/kernels/saxpy.asm");
    let bin = tmp.join("k.bin");
    let hex = Command::new(EUREF)
        .args(["asm", "--hex", k, "--compact"])
        .output()
        .unwrap();
    assert!(hex.status.success());
    assert!(Command::new(EUREF)
        .args(["asm", "-o", s(&bin), k])
        .status()
        .unwrap()
        .success());
    let raw = std::fs::read(&bin).unwrap();
    for data in [&hex.stdout, &raw] {
        same_for_every_source(
            &tmp,
            data,
            &[
                (&["disasm"], &[], None),
                (&["validate", "--gen", "skl"], &[], None),
            ],
        );
    }
}

#[test]
fn vectors_from_a_pipe_are_checked_as_from_a_file() {
    let tmp = Scratch::new("pipe-input");
    let v = tmp.join("v.jsonl");
    assert!(Command::new(EUREF)
        .args(["golden", "--gen", "skl", "--count", "30", "-o", s(&v)])
        .status()
        .unwrap()
        .success());
    let data = std::fs::read(&v).unwrap();
    let sim = format!("{EUREF} sim");
    let report = tmp.join("r.jsonl");
    same_for_every_source(
        &tmp,
        &data,
        &[
            (&["check", "--sim", &sim], &[], None),
            (
                &["check", "--sim", &sim],
                &["--report", s(&report)],
                Some(&report),
            ),
        ],
    );
    // `-` is standard input too.
    let (code, out, err) = euref(&["check", "--sim", &sim, "-"], &data, "?");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("30 vectors: 30 passed"), "{out}");
}
