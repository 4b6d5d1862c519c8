//! `euref asm` / `euref disasm` on files: dialect detection and selection, `--gen`, errors as
//! `file:line:col: message` with a non-zero exit status.

use crate::cli_util;
use crate::scratch_util;
use cli_util::euref;
use scratch_util::Scratch;

const MESA: &str = "(+f0.0) if(8) JIP: LABEL0 UIP: LABEL1 { align1 1Q };\n\
add(8) g124<1>F g7<8,8,1>D 1D { align1 1Q };\n\
LABEL0:\n\
else(8) JIP: LABEL1 UIP: LABEL1 { align1 1Q };\n\
LABEL1:\n\
endif(8) JIP: LABEL2 { align1 1Q };\n\
LABEL2:\n\
send(8) null<1>F g123<8,8,1>F 0x8a080017\n\
    urb MsgDesc: 1 SIMD8 write mlen 5 rlen 0 { align1 1Q EOT };\n";

#[test]
fn asm_converts_between_dialects() {
    let tmp = Scratch::new("asm-cli");
    let f = tmp.file("prog.asm", MESA.as_bytes());
    let f = f.to_str().unwrap();
    let (code, iga, err) = euref(&["asm", f, "--gen", "9"]);
    assert_eq!(code, 0, "{err}");
    assert!(iga.contains("(f0.0) if (8|M0) LABEL0 LABEL1"), "{iga}");
    assert!(
        // ExDesc[31:16] = 0x04D0 from the region bits <8,8,1> (enc.gen9.send-a1-ex-desc).
        iga.contains("send (8|M0) null<1>:f r123.0<8;8,1>:f 0x4D00026 0xA080017 {EOT}"),
        "{iga}"
    );
    // Back to Mesa from the IGA text, and the same instructions again.
    let g = tmp.file("prog.iga", iga.as_bytes());
    let (code, mesa, err) = euref(&[
        "disasm",
        g.to_str().unwrap(),
        "--out-syntax",
        "mesa",
        "--gen",
        "skl",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        mesa.contains("add(8)          g124<1>F        g7<8,8,1>D      1D"),
        "{mesa}"
    );
    let (code, prm, _) = euref(&[
        "asm",
        f,
        "--syntax",
        "mesa",
        "--out-syntax",
        "prm",
        "--gen",
        "bdw",
    ]);
    assert_eq!(code, 0);
    assert!(prm.contains("(f0.0) if (8) LABEL0 LABEL1"), "{prm}");
    // Gen7 units and spelling.
    let (code, ivb, _) = euref(&["asm", f, "--gen", "7"]);
    assert_eq!(code, 0);
    assert!(ivb.contains("(f0.0) if (8|M0) LABEL0 LABEL1"), "{ivb}");
}

#[test]
fn errors_name_file_line_and_column() {
    let tmp = Scratch::new("asm-cli");
    let f = tmp.file(
        "bad.asm",
        b"add (8|M0) r1.0<1>:f r2.0<8;8,1>:f r3.0<8;8,1>:f\nmvo (8|M0) r1.0<1>:f r2.0<8;8,1>:f\n",
    );
    let fs = f.to_str().unwrap();
    let (code, out, err) = euref(&["asm", fs]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(err.trim(), format!("{fs}:2:1: unknown mnemonic `mvo`"));
    let (code, _, err) = euref(&["asm", fs, "--gen", "gen12"]);
    assert_ne!(code, 0);
    assert!(err.contains("unknown generation `gen12`"), "{err}");
    let (code, _, err) = euref(&["asm", fs, "--syntax", "att"]);
    assert_ne!(code, 0);
    assert!(err.contains("expected iga, prm or mesa"), "{err}");
    let (code, _, err) = euref(&["asm", "/nonexistent/x.asm"]);
    assert_ne!(code, 0);
    assert!(err.contains("/nonexistent/x.asm"), "{err}");
    let b = tmp.file("bin.asm", b"\x7fELF\x02\x01\x01\x00\xff\xfe");
    let (code, _, err) = euref(&["disasm", b.to_str().unwrap()]);
    // Binary input: the decoder names the byte offset of the bad instruction.
    assert_eq!(code, 1);
    assert!(
        err.contains("offset 0x0") && err.contains("truncated"),
        "{err}"
    );
}

/// A reader that closes the pipe early (`euref spec | head`) ends euref quietly: no panic
/// message, no error report (main restores the default SIGPIPE disposition).
#[cfg(unix)]
#[test]
fn closed_output_pipe_is_not_a_panic() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_euref"))
        .arg("spec")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run euref");
    let mut first = [0u8; 64];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // stdout is dropped here: the rest of the reference goes to a closed pipe.
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.is_empty(), "{err}");
    assert!(!out.status.success());
}

/// A scratch folder (tests/scratch_util) is removed with its files when its owner is dropped:
/// at the end of a test, after a child process wrote into it, and when the test panics (drop
/// runs while unwinding), so test runs leave nothing in the temporary directory.
#[test]
fn scratch_folders_are_removed_after_use_and_after_a_panic() {
    let tmp = Scratch::new("asm-cli");
    let src = tmp.file("nop.asm", "nop\n");
    let bin = tmp.join("nop.bin");
    let (code, _, err) = euref(&[
        "asm",
        src.to_str().unwrap(),
        "--gen",
        "9",
        "-o",
        bin.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(bin.is_file());
    let dir = tmp.path().to_path_buf();
    drop(tmp);
    assert!(!dir.exists(), "{} left behind", dir.display());

    let mut seen = None;
    let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let tmp = Scratch::new("asm-cli");
        tmp.file("kept.asm", "nop\n");
        seen = Some(tmp.path().to_path_buf());
        panic!("a failing test (expected)");
    }));
    assert!(failed.is_err());
    let dir = seen.unwrap();
    assert!(!dir.exists(), "{} left behind by a panic", dir.display());
}
