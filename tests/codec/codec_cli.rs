//! `euref asm` / `euref disasm` with binary and hex: the Mesa corpus assembles to its
//! `.expected` hex (`--hex`) and raw bytes (`-o`); disassembling the `.expected` files (hex
//! text, detected) and raw binary and assembling the listing again gives the same bytes;
//! `--compact` output disassembles and reassembles to the same bytes, with jump offsets
//! re-resolved; a reserved encoding is reported with its byte offset and field, and
//! disassembly continues.

use crate::codec_util;
use crate::scratch_util;

use codec_util::*;
use euref::codec;
use scratch_util::Scratch;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn euref(args: &[&str], stdin: Option<&[u8]>) -> (i32, Vec<u8>, String) {
    run_euref(args, &[], stdin)
}

fn s(p: &Path) -> &str {
    path_str(p)
}

fn expected_bytes(e: &Path) -> Vec<u8> {
    expected(e).concat()
}

#[test]
fn corpus_assembles_to_the_expected_hex_and_bytes() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let tmp = Scratch::new("codec-cli");
    let mut n = 0;
    for (dir, p) in GENS {
        for (asm, exp) in asm_files(dir) {
            let (code, out, err) = euref(&["asm", "--gen", p.name(), "--hex", s(&asm)], None);
            assert_eq!(code, 0, "{}: {err}", asm.display());
            let want = std::fs::read_to_string(&exp).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), want, "{}", asm.display());
            n += 1;
        }
        // Raw output of one file per generation.
        let (asm, exp) = &asm_files(dir)[0];
        let bin = tmp.join(&format!("{dir}.bin"));
        let (code, _, err) = euref(&["asm", "--gen", p.name(), "-o", s(&bin), s(asm)], None);
        assert_eq!(code, 0, "{err}");
        assert_eq!(std::fs::read(&bin).unwrap(), expected_bytes(exp));
    }
    assert!(n > 150);
}

#[test]
fn disassembled_corpus_reassembles_to_the_same_bytes() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    for (dir, p) in GENS {
        for (_, exp) in asm_files(dir) {
            for syntax in ["iga", "prm", "mesa"] {
                let (code, listing, err) = euref(
                    &["disasm", "--gen", p.name(), "--out-syntax", syntax, s(&exp)],
                    None,
                );
                assert_eq!(code, 0, "{}: {err}", exp.display());
                let (code, hex, err) = euref(
                    &["asm", "--gen", p.name(), "--syntax", syntax, "--hex", "-"],
                    Some(&listing),
                );
                assert_eq!(code, 0, "{} {syntax}: {err}", exp.display());
                assert_eq!(
                    String::from_utf8(hex).unwrap(),
                    std::fs::read_to_string(&exp).unwrap(),
                    "{} via {syntax}",
                    exp.display()
                );
            }
        }
    }
}

#[test]
fn raw_binary_disassembles_like_hex() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let tmp = Scratch::new("codec-cli");
    let (_, exp) = &asm_files("gen8")[0];
    let bin = tmp.join("gen8-first.bin");
    std::fs::write(&bin, expected_bytes(exp)).unwrap();
    let a = euref(&["disasm", "--gen", "8", s(&bin)], None);
    let b = euref(&["disasm", "--gen", "8", s(exp)], None);
    assert_eq!(a.0, 0, "{}", a.2);
    assert_eq!(a.1, b.1);
    // Standard input, forced format.
    let c = euref(
        &["disasm", "--gen", "8", "--input", "bin", "-"],
        Some(&expected_bytes(exp)),
    );
    assert_eq!(c.1, a.1, "{}", c.2);
}

#[test]
fn reserved_encodings_are_reported_and_skipped() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let tmp = Scratch::new("codec-cli");
    let p = euref::spec::Platform::Skl;
    let (_, exp) = asm_files("gen9")
        .into_iter()
        .find(|(a, _)| a.ends_with("add.asm"))
        .unwrap();
    let words = expected(&exp);
    let mut bytes = words[0].to_vec();
    // ExecSize 7 is reserved (enc.exec-size): bits 23:21 of the second word.
    let mut bad = words[1];
    bad[2] |= 0xE0;
    assert!(codec::decode(&bad, p).is_err());
    bytes.extend_from_slice(&bad);
    bytes.extend_from_slice(&words[2]);
    bytes.extend_from_slice(&[0x40, 0x00]); // a truncated tail
    let bin = tmp.join("bad.bin");
    std::fs::write(&bin, &bytes).unwrap();
    let (code, out, err) = euref(&["disasm", "--gen", "9", s(&bin)], None);
    assert_eq!(code, 1);
    let out = String::from_utf8(out).unwrap();
    assert!(
        err.contains("offset 0x10") && err.contains("exec_size"),
        "{err}"
    );
    assert!(
        err.contains("offset 0x30") && err.contains("truncated"),
        "{err}"
    );
    // The instructions around the bad one are printed.
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with("add (8|M0)"), "{out}");
    assert!(lines[1].starts_with("// offset 0x10: error"), "{out}");
    assert!(lines[2].starts_with("add (16|M0)"), "{out}");
    // The same through hex text.
    let mut hex = String::new();
    for w in bytes.chunks(16) {
        hex.push_str(
            &w.iter()
                .map(|b| format!("{b:02x}"))
                .collect::<Vec<_>>()
                .join(" "),
        );
        hex.push('\n');
    }
    let (code2, out2, _) = euref(&["disasm", "--gen", "9", "-"], Some(hex.as_bytes()));
    assert_eq!(code2, 1);
    assert_eq!(String::from_utf8(out2).unwrap(), out);
}

const PROGRAM: &str = "\
mov(8)          g10<1>UD        g2<8,8,1>UD                     { align1 1Q };
(+f0.0) if(8)   JIP: LABEL0         UIP: LABEL1                 { align1 1Q };
mov(8)          g11<1>UD        g3<8,8,1>UD                     { align1 1Q };
add(8)          g12<1>D         g4<8,8,1>D      g5<8,8,1>D      { align1 1Q };
LABEL0:
else(8)         JIP: LABEL1         ELSE_UIP                    { align1 1Q };
mov(8)          g13<1>UD        g3<8,8,1>UD                     { align1 1Q };
LABEL1:
endif(8)        JIP: LABEL2                                     { align1 1Q };
LABEL2:
mov(8)          g14<1>UD        g6<8,8,1>UD                     { align1 1Q };
";

#[test]
fn compaction_reresolves_jumps() {
    let tmp = Scratch::new("codec-cli");
    for (gen, p) in [
        ("7", euref::spec::Platform::Ivb),
        ("9", euref::spec::Platform::Skl),
    ] {
        let src = tmp.join(&format!("prog{gen}.asm"));
        // `else` has a UIP from Gen8 on (enc.*.branch-opcodes).
        let uip = if gen == "7" { "" } else { "UIP: LABEL1" };
        std::fs::write(&src, PROGRAM.replace("ELSE_UIP", uip)).unwrap();
        let bin = tmp.join(&format!("prog{gen}.bin"));
        let (code, _, err) = euref(
            &["asm", "--gen", gen, "--compact", "-o", s(&bin), s(&src)],
            None,
        );
        assert_eq!(code, 0, "{err}");
        let bytes = std::fs::read(&bin).unwrap();
        // Walk the binary: instruction addresses and decoded instructions.
        let mut at = vec![];
        let mut insns = vec![];
        let mut pos = 0;
        while pos < bytes.len() {
            let (i, n) = codec::decode(&bytes[pos..], p).unwrap();
            at.push(pos as i64);
            insns.push(i);
            pos += n;
        }
        assert_eq!(insns.len(), 8);
        assert!(bytes.len() < 8 * 16, "nothing was compacted");
        let unit = 16 / i64::from(euref::asm::jump_unit(p));
        let target = |k: usize, off: i32| {
            let a = at[k] + i64::from(off) * unit;
            at.iter()
                .position(|&x| x == a)
                .or((a == bytes.len() as i64).then_some(at.len()))
        };
        // if -> else (JIP) and endif (UIP); else -> endif; endif -> the last mov.
        assert_eq!(target(1, insns[1].jip.unwrap()), Some(4));
        assert_eq!(target(1, insns[1].uip.unwrap()), Some(6));
        assert_eq!(target(4, insns[4].jip.unwrap()), Some(6));
        assert_eq!(target(6, insns[6].jip.unwrap()), Some(7));
        // Disassemble (the listing marks compact instructions) and assemble again.
        let (code, listing, err) = euref(&["disasm", "--gen", gen, s(&bin)], None);
        assert_eq!(code, 0, "{err}");
        let again = tmp.join(&format!("again{gen}.bin"));
        let (code, _, err) = euref(&["asm", "--gen", gen, "-o", s(&again), "-"], Some(&listing));
        assert_eq!(code, 0, "{err}\n{}", String::from_utf8_lossy(&listing));
        assert_eq!(std::fs::read(&again).unwrap(), bytes);
    }
}

#[test]
fn text_disassembly_is_unchanged() {
    let tmp = Scratch::new("codec-cli");
    // Assembly text input keeps the text-to-text behaviour of `disasm`.
    let src = tmp.join("text.asm");
    std::fs::write(&src, PROGRAM.replace("ELSE_UIP", "UIP: LABEL1")).unwrap();
    let (code, out, err) = euref(&["disasm", "--gen", "9", s(&src)], None);
    assert_eq!(code, 0, "{err}");
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("LABEL0:"), "{out}");
    assert!(out.contains("(f0.0) if (8|M0) LABEL0 LABEL1"), "{out}");
}

/// `euref disasm` streams: a file of 1 M native instructions (the gen9 corpus words repeated,
/// written to a temporary directory and removed) disassembles to 1 M lines with a peak
/// resident set (measured by `/usr/bin/time -v`) far below the file's 16 MB. Opt-in (it
/// writes 16 MB and takes a few seconds): `cargo test --release --test codec -- codec_cli::
/// --ignored --nocapture`; the wall time and throughput are reported by `cargo bench --bench
/// codec`, which runs the same command first.
#[test]
#[ignore = "writes a 16 MB file; run with --ignored"]
fn disasm_streams_a_million_instructions_in_constant_memory() {
    let tmp = Scratch::new("codec-cli");
    let n = 1_000_000usize;
    let words: Vec<[u8; 16]> = asm_files("gen9")
        .iter()
        .flat_map(|(_, e)| expected(e))
        .collect();
    assert!(!words.is_empty());
    let bin = tmp.join("disasm-1m.bin");
    let mut bytes = Vec::with_capacity(n * 16);
    for k in 0..n {
        bytes.extend_from_slice(&words[k % words.len()]);
    }
    std::fs::write(&bin, &bytes).unwrap();
    drop(bytes);
    let listing = tmp.join("disasm-1m.txt");
    let Some((rss_kib, wall)) = time_euref(
        &["disasm", "--gen", "9", s(&bin)],
        Stdio::from(std::fs::File::create(&listing).unwrap()),
    ) else {
        return;
    };
    let text = std::fs::read_to_string(&listing).unwrap();
    let lines = text.lines().count();
    drop(tmp);
    eprintln!("1M instructions: wall {wall}, peak RSS {rss_kib} KiB, {lines} lines");
    assert_eq!(lines, n, "one line per instruction, no errors");
    // The input is 16 000 000 bytes and the listing about 60 MB: a streaming disassembler's
    // peak is a few MiB of buffers and the binary itself.
    assert!(rss_kib < 16 * 1024, "peak RSS {rss_kib} KiB");
}

/// `euref asm FILE` with chunks of `chunk` bytes of text (`EUREF_ASM_CHUNK`, so chunk
/// boundaries fall every few lines).
fn euref_chunked(args: &[&str], chunk: usize) -> (i32, Vec<u8>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_euref"))
        .args(args)
        .env("EUREF_ASM_CHUNK", chunk.to_string())
        .stdin(Stdio::null())
        .output()
        .expect("run euref");
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn streamed_assembly_equals_the_whole_text_path() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let tmp = Scratch::new("codec-cli");
    // A file is assembled in chunks (streaming); standard input takes the whole-text path.
    // Both give the same bytes and hex for every gen9 corpus file (Mesa syntax: chunks end
    // only after a `;` line, so two-line sends stay whole) and for an IGA listing of the
    // corpus repeated (hundreds of chunks of 200 bytes).
    let mut files: Vec<PathBuf> = asm_files("gen9").into_iter().map(|(a, _)| a).collect();
    let words: Vec<[u8; 16]> = asm_files("gen9")
        .iter()
        .flat_map(|(_, e)| expected(e))
        .filter(|w| w[3] & 0x20 == 0)
        .collect();
    let bin = tmp.join("stream-src.bin");
    std::fs::write(&bin, words.repeat(3).concat()).unwrap();
    let (code, listing, err) = euref(&["disasm", "--gen", "9", s(&bin)], None);
    assert_eq!(code, 0, "{err}");
    let iga = tmp.join("stream.asm");
    std::fs::write(&iga, &listing).unwrap();
    files.push(iga.clone());
    let mut chunks = 0;
    for f in &files {
        let text = std::fs::read(f).unwrap();
        chunks += text.len() / 200;
        for chunk in [200, 4096] {
            let (code, hex, err) = euref_chunked(&["asm", "--gen", "9", "--hex", s(f)], chunk);
            assert_eq!(code, 0, "{}: {err}", f.display());
            let (code, whole, err) = euref(&["asm", "--gen", "9", "--hex", "-"], Some(&text));
            assert_eq!(code, 0, "{}: {err}", f.display());
            assert_eq!(hex, whole, "{} (chunks of {chunk})", f.display());
            let out = tmp.join("stream.bin");
            let (code, _, err) = euref_chunked(&["asm", "--gen", "9", "-o", s(&out), s(f)], chunk);
            assert_eq!(code, 0, "{}: {err}", f.display());
            let raw = std::fs::read(&out).unwrap();
            let from_hex: Vec<u8> = String::from_utf8(whole)
                .unwrap()
                .split_ascii_whitespace()
                .map(|h| u8::from_str_radix(h, 16).unwrap())
                .collect();
            assert_eq!(raw, from_hex, "{}", f.display());
        }
    }
    assert_eq!(
        std::fs::read(tmp.join("stream.bin")).unwrap(),
        words.repeat(3).concat(),
        "the IGA listing reassembles to its binary"
    );
    assert!(chunks > 300, "{chunks} chunks");
}

#[test]
fn streamed_assembly_errors_are_those_of_the_whole_text() {
    let tmp = Scratch::new("codec-cli");
    // Errors found in a late chunk: the messages (all of them, sorted, with line:column of
    // the whole file) are those of the whole-text path, and `-o` leaves no file behind.
    let line = "add (8|M0) r10.0<1>:f r7.0<8;8,1>:f 1.0:f\n";
    let mut text = line.repeat(100);
    text.push_str("add (8|M0) r10.0<1>:f r7.0<8;8,1>:f bogus\n");
    text.push_str(&line.repeat(50));
    // An instruction that parses but cannot be encoded (no compact form) after it.
    text.push_str("add (8|M0) r10.0<1>:f r7.0<8;8,1>:f 1.0:f {Compacted}\n");
    let f = tmp.join("stream-err.asm");
    let out = tmp.join("stream-err.bin");
    for (body, what) in [
        (text.clone(), "parse"),
        (text.replace("bogus", "1.0:f"), "encode"),
    ] {
        std::fs::write(&f, &body).unwrap();
        let _ = std::fs::remove_file(&out);
        let (code, _, err) = euref_chunked(&["asm", "--gen", "9", "-o", s(&out), s(&f)], 256);
        assert_eq!(code, 1, "{what}: {err}");
        assert!(!out.exists(), "{what}: no output on error");
        let (code, _, whole) = euref(&["asm", "--gen", "9", "--hex", "-"], Some(body.as_bytes()));
        assert_eq!(code, 1, "{what}: {whole}");
        let whole = whole.replace("<stdin>:", &format!("{}:", s(&f)));
        assert_eq!(err, whole, "{what}");
        let (code, _, err) = euref_chunked(&["asm", "--gen", "9", "--hex", s(&f)], 256);
        assert_eq!((code, &err), (1, &whole), "{what} (hex)");
        let want = if what == "parse" { ":101:" } else { ":152:" };
        assert!(err.contains(want), "{what}: {err}");
    }
}

/// `euref asm -o` streams: the listing of 1 M native instructions (the gen9 corpus words
/// repeated, disassembled; written to a temporary directory and removed) assembles back to
/// the same 16 MB with a peak resident set (measured by `/usr/bin/time -v`) under 32 MiB
/// (the whole-text path needed about 300 MB). Opt-in (it writes about 60 MB): `cargo test
/// --release --test codec -- codec_cli:: --ignored --nocapture`.
#[test]
#[ignore = "writes about 60 MB of files; run with --ignored"]
fn asm_streams_a_million_instructions_in_constant_memory() {
    let n = 1_000_000usize;
    let words: Vec<[u8; 16]> = asm_files("gen9")
        .iter()
        .flat_map(|(_, e)| expected(e))
        .filter(|w| w[3] & 0x20 == 0)
        .collect();
    assert!(!words.is_empty());
    let tmp = Scratch::new("asm-1m");
    let bin = tmp.join("asm-1m.bin");
    let mut bytes = Vec::with_capacity(n * 16);
    for k in 0..n {
        bytes.extend_from_slice(&words[k % words.len()]);
    }
    std::fs::write(&bin, &bytes).unwrap();
    let listing = tmp.join("asm-1m.asm");
    let st = Command::new(env!("CARGO_BIN_EXE_euref"))
        .args(["disasm", "--gen", "skl", s(&bin)])
        .stdout(std::fs::File::create(&listing).unwrap())
        .status()
        .unwrap();
    assert!(st.success());
    let again = tmp.join("asm-1m-again.bin");
    let Some((rss_kib, wall)) = time_euref(
        &["asm", "--gen", "skl", s(&listing), "-o", s(&again)],
        Stdio::null(),
    ) else {
        return;
    };
    let same = std::fs::read(&again).unwrap() == bytes;
    drop(tmp);
    eprintln!("asm 1M instructions: wall {wall}, peak RSS {rss_kib} KiB");
    assert!(same, "the listing assembles back to the binary");
    assert!(rss_kib < 32 * 1024, "peak RSS {rss_kib} KiB");
}

/// Run euref under `/usr/bin/time -v` (stdout to `stdout`), require exit status 0, and return
/// its peak resident set (KiB) and wall time; None (the opt-in test is skipped) when
/// /usr/bin/time is not available.
fn time_euref(args: &[&str], stdout: Stdio) -> Option<(u64, String)> {
    let out = Command::new("/usr/bin/time")
        .arg("-v")
        .arg(env!("CARGO_BIN_EXE_euref"))
        .args(args)
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output();
    let Ok(out) = out else {
        eprintln!("/usr/bin/time is not available: skipped");
        return None;
    };
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let field = |k: &str| -> Option<String> {
        err.lines()
            .find(|l| l.trim_start().starts_with(k))
            .and_then(|l| l.rsplit(": ").next())
            .map(|v| v.trim().to_string())
    };
    let rss_kib: u64 = field("Maximum resident set size (kbytes)")
        .and_then(|v| v.parse().ok())
        .expect("peak RSS from /usr/bin/time -v");
    Some((
        rss_kib,
        field("Elapsed (wall clock) time").unwrap_or_default(),
    ))
}

/// Hex input errors in `euref disasm` (issue 26): a token with an odd number of digits in
/// text that is otherwise hex is reported where it is (it made detection fall back to
/// assembly: "expected an instruction mnemonic, found `0a`"), and a bad character names the
/// file once, with line and column.
#[test]
fn hex_errors_are_reported_where_they_are() {
    let tmp = Scratch::new("codec-cli");
    // Two instructions of hex text, one byte of the second written with three digits.
    let mut text = String::new();
    for k in 0..2 {
        let bytes: Vec<String> = (0..16).map(|b| format!("{:02x}", b * 3 + k)).collect();
        text.push_str(&bytes.join(" "));
        text.push('\n');
    }
    // Line 2, the third token ("07" -> "070"), starts at column 7.
    let odd = text.replacen("\n01 04 07 ", "\n01 04 070 ", 1);
    assert!(odd.contains("070"), "{odd}");
    let f = tmp.join("odd.hex");
    std::fs::write(&f, &odd).unwrap();
    let (code, out, err) = euref(&["disasm", s(&f)], None);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty(), "{}", String::from_utf8_lossy(&out));
    assert!(
        err.starts_with(&format!("{}:2:7: a token of 3 hex digits", s(&f))),
        "{err}"
    );
    // A bad character, with --input hex (detection would take it for assembly).
    let bad = text.replacen("\n01 04 07 ", "\n01 04 0g ", 1);
    let f = tmp.join("odd3.hex");
    std::fs::write(&f, &bad).unwrap();
    let (code, _, err) = euref(&["disasm", "--input", "hex", s(&f)], None);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.starts_with(&format!("{}:2:8: unexpected `g` in hex input", s(&f))),
        "{err}"
    );
    assert_eq!(err.matches(s(&f)).count(), 1, "{err}");
}

/// `--syntax` says the input is text (issue 26): raw bytes given with it are parsed as
/// assembly, and the error is followed by a hint to leave `--syntax` out.
#[test]
fn an_explicit_syntax_reads_raw_bytes_as_text_with_a_hint() {
    let tmp = Scratch::new("codec-cli");
    let k = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/kernels/saxpy.asm");
    let bin = tmp.join("k.bin");
    let (code, _, err) = euref(&["asm", "-o", s(&bin), k], None);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = euref(&["disasm", s(&bin)], None);
    assert_eq!(code, 0);
    assert_eq!(String::from_utf8_lossy(&out).lines().count(), 12);
    let (code, out, err) = euref(&["disasm", "--syntax", "iga", s(&bin)], None);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty());
    assert!(err.starts_with(&format!("{}:1:1: ", s(&bin))), "{err}");
    assert!(
        err.contains("leave --syntax out or give --input bin"),
        "{err}"
    );
}
