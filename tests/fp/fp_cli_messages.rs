//! `euref fp` repeats a bad token quoted, cut and escaped, with its place (issue 26: a 30 MB
//! token was printed whole, and control bytes of the input reached the terminal).

use std::io::Write;
use std::process::{Command, Stdio};

/// `euref fp ARGS` with `input` on stdin: exit status and stderr (as bytes).
fn fp(args: &[&str], input: &[u8]) -> (i32, Vec<u8>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_euref"))
        .arg("fp")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("euref runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from a thread: euref may report before it has read everything.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (out.status.code().unwrap_or(-1), out.stderr)
}

#[test]
fn a_huge_token_is_cut_with_its_size() {
    let n = 3 << 20;
    let mut input = b"3F800000 ".to_vec();
    input.extend(std::iter::repeat(b'Z').take(n));
    input.push(b'\n');
    let (code, err) = fp(&["f32_add"], &input);
    assert_eq!(code, 1);
    let err = String::from_utf8(err).unwrap();
    assert!(err.len() < 400, "{} bytes of messages", err.len());
    let want = format!(
        "euref fp: line 1: operand 2: `{}`... ({n} bytes) is not a hexadecimal number (column 10)\n",
        "Z".repeat(euref::quote::QUOTE_CHARS)
    );
    assert_eq!(err, want);
}

#[test]
fn control_bytes_do_not_reach_the_terminal() {
    // ESC [2J (clear screen), a bell and a byte that is not UTF-8, on line 2.
    let input = b"3F800000 3F800000\n  \x1b[2J\x07\xff 3F800000\n";
    let (code, err) = fp(&["f32_add"], input);
    assert_eq!(code, 1);
    assert!(
        !err.iter().any(|&b| b < 0x20 && b != b'\n' || b >= 0x7f),
        "{err:?}"
    );
    let err = String::from_utf8(err).unwrap();
    assert_eq!(
        err,
        "euref fp: line 2: operand 1: `\\u{1b}[2J\\u{7}\\xff` is not a hexadecimal number (column 3)\n"
    );
    // Too wide, with its column.
    let (_, err) = fp(&["f16_sqrt"], b"\t12345\n");
    assert_eq!(
        String::from_utf8(err).unwrap(),
        "euref fp: line 1: operand 1: `12345` does not fit in 16 bits (4 hex digits) (column 2)\n"
    );
}

#[test]
fn an_unknown_function_is_quoted() {
    let (code, err) = fp(&["f32_\x1b[31madd"], b"");
    assert_eq!(code, 2);
    let err = String::from_utf8(err).unwrap();
    assert!(!err.contains('\u{1b}'), "{err}");
    assert!(
        err.contains("unknown function `f32_\\u{1b}[31madd`"),
        "{err}"
    );
}
