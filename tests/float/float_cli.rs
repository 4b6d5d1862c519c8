//! `euref fp` end to end: the built binary fed through stdin, its TestFloat-format output
//! (testfloat_gen's "Output Format": operands, result, flags in hex) and its bad-line handling.

use std::io::Write;
use std::process::{Command, Stdio};

/// Run `euref fp <args>` with `input` on stdin: (exit code, stdout, stderr).
fn fp(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_euref"))
        .arg("fp")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run euref");
    // Feed stdin from another thread: the child's stdout pipe would otherwise fill up while
    // this thread is still writing (a deadlock for long inputs).
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn ok(args: &[&str], input: &str) -> String {
    let (code, out, err) = fp(args, input);
    assert_eq!(code, 0, "euref fp {args:?}: {err}");
    assert!(err.is_empty(), "{err}");
    out
}

#[test]
fn f32_add_testfloat_format() {
    // The example lines of testfloat_gen.html, for f64_add, and f32 cases; extra columns (the
    // expected result and flags of testfloat_gen) are ignored.
    let out = ok(
        &["f64_add"],
        "3F90EB5825D6851E C3E0080080000000 C3E0080080000000 01\n\
         41E3C00000000000 C182024F8AE474A8 41E377F6C1D46E2D 01\n\
         7FD80FFFFFFFFFFF 7FEFFFFFFFFFFF80 7FF0000000000000 05\n\
         3FFFED6A25C534BE 3CA1000000020000 3FFFED6A25C534BF 01\n",
    );
    assert_eq!(
        out,
        "3F90EB5825D6851E C3E0080080000000 C3E0080080000000 01\n\
         41E3C00000000000 C182024F8AE474A8 41E377F6C1D46E2D 01\n\
         7FD80FFFFFFFFFFF 7FEFFFFFFFFFFF80 7FF0000000000000 05\n\
         3FFFED6A25C534BE 3CA1000000020000 3FFFED6A25C534BF 01\n"
    );
    let out = ok(&["f32_add"], "3f800000 3f800000\n7F800000 FF800000\n1 1\n");
    assert_eq!(
        out,
        "3F800000 3F800000 40000000 00\n7F800000 FF800000 7FC00000 10\n00000001 00000001 00000002 00\n"
    );
}

#[test]
fn rounding_modes_and_flags() {
    // 1 + 2^-30 in each mode; 2^-126 * 0.5 underflows (exact denormal: no underflow flag).
    let input = "3F800000 30800000\n";
    for (r, want) in [
        ("rtne", "3F800000 01"),
        ("ru", "3F800001 01"),
        ("rd", "3F800000 01"),
        ("rtz", "3F800000 01"),
    ] {
        assert_eq!(
            ok(&["f32_add", "--round", r], input),
            format!("3F800000 30800000 {want}\n")
        );
    }
    assert_eq!(
        ok(&["f32_mul"], "00800000 3F000000\n00FFFFFF 3F000000\n"),
        "00800000 3F000000 00400000 00\n00FFFFFF 3F000000 00800000 03\n"
    );
    // Overflow (05), divide by zero (08), invalid (10).
    assert_eq!(
        ok(&["f32_div"], "3F800000 00000000\n00000000 00000000\n7F7FFFFF 00800000\n"),
        "3F800000 00000000 7F800000 08\n00000000 00000000 7FC00000 10\n7F7FFFFF 00800000 7F800000 05\n"
    );
    assert_eq!(ok(&["f16_sqrt"], "4400\n"), "4400 4000 00\n");
    assert_eq!(
        ok(&["f32_mulAdd"], "3F800000 40000000 40400000\n"),
        "3F800000 40000000 40400000 40A00000 00\n"
    );
    assert_eq!(
        ok(&["f64_sub"], "3FF0000000000000 3FF0000000000000\n"),
        "3FF0000000000000 3FF0000000000000 0000000000000000 00\n"
    );
}

#[test]
fn comparisons() {
    // eq is quiet (invalid only for a signalling NaN), lt/le signal on any NaN.
    assert_eq!(
        ok(
            &["f32_eq"],
            "3F800000 3F800000\n7FC00000 3F800000\n7F800001 3F800000\n"
        ),
        "3F800000 3F800000 1 00\n7FC00000 3F800000 0 00\n7F800001 3F800000 0 10\n"
    );
    assert_eq!(
        ok(&["f32_lt"], "3F800000 40000000\n7FC00000 3F800000\n"),
        "3F800000 40000000 1 00\n7FC00000 3F800000 0 10\n"
    );
    assert_eq!(ok(&["f16_le"], "3C00 3C00\n"), "3C00 3C00 1 00\n");
    assert_eq!(
        ok(&["f64_lt_quiet"], "7FF8000000000000 0\n"),
        "7FF8000000000000 0000000000000000 0 00\n"
    );
}

#[test]
fn conversions() {
    assert_eq!(
        ok(&["f32_to_f64"], "00000001\n"),
        "00000001 36A0000000000000 00\n"
    );
    assert_eq!(
        ok(&["f64_to_f32"], "3FD5555555555555\n"),
        "3FD5555555555555 3EAAAAAB 01\n"
    );
    assert_eq!(
        ok(&["f64_to_f32", "--round", "rtz"], "3FD5555555555555\n"),
        "3FD5555555555555 3EAAAAAA 01\n"
    );
    assert_eq!(ok(&["f32_to_f16"], "477FF000\n"), "477FF000 7C00 05\n");
    assert_eq!(ok(&["f16_to_f32"], "0001\n"), "0001 33800000 00\n");
    assert_eq!(
        ok(&["f64_to_f16"], "3FF0020000001000\n"),
        "3FF0020000001000 3C01 01\n"
    );
    assert_eq!(ok(&["f16_to_f64"], "7BFF\n"), "7BFF 40EFFC0000000000 00\n");
    assert_eq!(ok(&["i32_to_f32"], "01000001\n"), "01000001 4B800000 01\n");
    assert_eq!(
        ok(&["i32_to_f32", "--round", "ru"], "01000001\n"),
        "01000001 4B800001 01\n"
    );
    assert_eq!(ok(&["ui32_to_f16"], "0000FFF0\n"), "0000FFF0 7C00 05\n");
    assert_eq!(
        ok(&["i64_to_f64"], "FFFFFFFFFFFFFFFF\n"),
        "FFFFFFFFFFFFFFFF BFF0000000000000 00\n"
    );
    assert_eq!(
        ok(&["ui64_to_f32"], "FFFFFFFFFFFFFFFF\n"),
        "FFFFFFFFFFFFFFFF 5F800000 01\n"
    );
    // Float -> integer: r_minMag truncates; without it the --round mode applies; inexact only
    // with --exact (TestFloat's -exact); invalid cases give the EU values with flag 10.
    assert_eq!(
        ok(&["f32_to_i32_r_minMag"], "BFC00000\n4F32D05E\n7FC00000\n"),
        "BFC00000 FFFFFFFF 00\n4F32D05E 7FFFFFFF 10\n7FC00000 00000000 10\n"
    );
    assert_eq!(
        ok(
            &["f32_to_i32", "--round", "rtne", "--exact"],
            "3FC00000\n40200000\n"
        ),
        "3FC00000 00000002 01\n40200000 00000002 01\n"
    );
    // -0.5 rounds down to -1: invalid for ui32, the EU value 0 (conv.special.neg-overflow.uint).
    assert_eq!(
        ok(&["f32_to_ui32", "--round", "rd"], "BF000000\n"),
        "BF000000 00000000 10\n"
    );
    assert_eq!(
        ok(&["f64_to_ui64_r_minMag"], "43E158E460913D00\n"),
        "43E158E460913D00 8AC7230489E80000 00\n"
    );
    assert_eq!(ok(&["f16_to_i64"], "FC00\n"), "FC00 8000000000000000 10\n");
    assert_eq!(
        ok(&["f32_roundToInt", "--round", "rd"], "BF000000\n"),
        "BF000000 BF800000 00\n"
    );
}

#[test]
fn eu_model() {
    // Gen7 F math flushes denormals (fp.ieee.denorm.f.gen7; input flushing raises no flag);
    // plain IEEE keeps them.
    assert_eq!(
        ok(
            &["f32_add", "--gen", "7", "--denorm", "flush"],
            "00000001 00000001\n"
        ),
        "00000001 00000001 00000000 00\n"
    );
    assert_eq!(
        ok(&["f32_add", "--gen", "7"], "00000001 00000001\n"),
        "00000001 00000001 00000002 00\n"
    );
    // Gen9 with denormals kept through the EU model (--eu sets every denorm bit).
    assert_eq!(
        ok(&["f32_add", "--gen", "9", "--eu"], "00000001 00000001\n"),
        "00000001 00000001 00000002 00\n"
    );
    // fp.tininess: the product that rounds up to the smallest normal is kept.
    assert_eq!(
        ok(
            &["f32_mul", "--denorm", "flush"],
            "00FFFFFF 3F000000\n00FFFFFE 3F000000\n"
        ),
        "00FFFFFF 3F000000 00800000 03\n00FFFFFE 3F000000 00000000 03\n"
    );
    // Gen7 DF -> F rounds toward zero whatever --round says (conv.float-narrow.df-f.gen7).
    assert_eq!(
        ok(
            &["f64_to_f32", "--gen", "ivb", "--eu"],
            "3FD5555555555555\n"
        ),
        "3FD5555555555555 3EAAAAAA 01\n"
    );
    // ALT: inf read as fmax, result never inf.
    assert_eq!(
        ok(&["f32_add", "--alt"], "7F800000 3F800000\n7F7FFFFF 7F7FFFFF\n7FC00000 3F800000\n"),
        "7F800000 3F800000 7F7FFFFF 01\n7F7FFFFF 7F7FFFFF 7F7FFFFF 05\n7FC00000 3F800000 3F800000 00\n"
    );
    // ALT with an F <-> DF conversion is refused up front, naming the rule.
    let (code, out, err) = fp(&["f32_to_f64", "--alt"], "3F800000\n");
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("fp.alt.conversion-unsupported"), "{err}");
    // HF does not exist on Gen7 in the EU model.
    let (code, _, err) = fp(&["f16_add", "--gen", "7", "--eu"], "");
    assert_eq!(code, 2);
    assert!(err.contains("HF"), "{err}");
}

#[test]
fn bad_lines_are_reported_and_skipped() {
    let input = "3F800000 3F800000\n\
                 zz 3F800000\n\
                 3F800000\n\
                 \n\
                 123456789 1\n\
                 40000000 40000000 ignored columns 77\n";
    let (code, out, err) = fp(&["f32_add"], input);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "3F800000 3F800000 40000000 00\n40000000 40000000 40800000 00\n"
    );
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert!(
        lines[0].starts_with("euref fp: line 2: operand 1:"),
        "{err}"
    );
    assert!(
        lines[1].starts_with("euref fp: line 3: expected 2 operand(s)"),
        "{err}"
    );
    assert!(
        lines[2].starts_with("euref fp: line 5: operand 1:"),
        "{err}"
    );
    // Unknown function and rounding mode: usage errors (status 2).
    let (code, _, err) = fp(&["f32_frobnicate"], "");
    assert_eq!(code, 2);
    assert!(err.contains("unknown function"));
    let (code, _, err) = fp(&["f32_add", "--round", "up"], "");
    assert_eq!(code, 2);
    assert!(err.contains("unknown rounding mode"));
}

#[test]
fn many_lines_stream() {
    // 100k lines through the subject: all answered, in order.
    let mut input = String::new();
    for i in 0..100_000u32 {
        input.push_str(&format!("{:08X} 3F800000\n", 0x3F80_0000 + (i & 0xFFFF)));
    }
    let out = ok(&["f32_mul"], &input);
    assert_eq!(out.lines().count(), 100_000);
    let first = out.lines().next().unwrap();
    assert_eq!(first, "3F800000 3F800000 3F800000 00");
}
