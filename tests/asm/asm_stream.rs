//! `euref asm` streaming on several threads (src/cli/asm_stream.rs): the output and the errors
//! are those of the whole-text path (standard input) for any chunk size and thread count, for
//! IGA listings (with `{Compacted}` instructions and jumps) and the Mesa corpus; a sign of
//! another dialect, a label or a block comment late in the file sends `-o` to the whole-text
//! path; the byte scans behind it (`asm::dialect_marks`, `asm::defines_labels`) answer as the
//! reference definitions do; `asm::parse_each` gives the instructions of `asm::parse`.

use crate::codec_util;
use crate::scratch_util;

use codec_util::*;
use euref::asm::{self, Dialect, DialectMarks, PrintOptions};
use euref::spec::Platform;
use scratch_util::Scratch;
use std::path::Path;

/// Run euref with `EUREF_ASM_CHUNK` / `EUREF_ASM_THREADS` when given.
fn euref(args: &[&str], stdin: Option<&[u8]>, chunk_threads: Option<(usize, usize)>) -> Run {
    let env = match chunk_threads {
        Some((chunk, threads)) => vec![
            ("EUREF_ASM_CHUNK", chunk.to_string()),
            ("EUREF_ASM_THREADS", threads.to_string()),
        ],
        None => vec![],
    };
    let (code, out, err) = run_euref(args, &env, stdin);
    Run { code, out, err }
}

#[derive(Debug, PartialEq)]
struct Run {
    code: i32,
    out: Vec<u8>,
    err: String,
}

fn s(p: &Path) -> &str {
    path_str(p)
}

const SETTINGS: [(usize, usize); 6] = [
    (150, 1),
    (150, 2),
    (1000, 3),
    (1000, 7),
    (5000, 2),
    (1 << 20, 2),
];

/// `--hex` and `-o` of `text` (written to a file, streamed) against the whole-text path
/// (standard input), for every chunk size and thread count of [`SETTINGS`]: same exit status,
/// same messages (file name aside), same bytes (and no `-o` file when the whole text fails).
fn same_as_whole_text(name: &str, text: &[u8], gen: &str) -> Run {
    let tmp = Scratch::new("asm-stream");
    let f = tmp.join(name);
    std::fs::write(&f, text).unwrap();
    let whole = euref(&["asm", "--gen", gen, "--hex", "-"], Some(text), None);
    let whole_err = whole.err.replace("<stdin>:", &format!("{}:", s(&f)));
    let out = tmp.join(&format!("{name}.bin"));
    let _ = std::fs::remove_file(&out);
    let whole_o = euref(&["asm", "--gen", gen, "-o", s(&out), "-"], Some(text), None);
    let whole_bin = std::fs::read(&out).ok();
    for ct in SETTINGS {
        let hex = euref(&["asm", "--gen", gen, "--hex", s(&f)], None, Some(ct));
        assert_eq!(hex.code, whole.code, "{name} {ct:?}: {}", hex.err);
        assert_eq!(hex.err, whole_err, "{name} {ct:?}");
        if whole.code == 0 {
            assert_eq!(hex.out, whole.out, "{name} {ct:?}");
        }
        let _ = std::fs::remove_file(&out);
        let o = euref(&["asm", "--gen", gen, "-o", s(&out), s(&f)], None, Some(ct));
        assert_eq!(o.code, whole_o.code, "{name} {ct:?}: {}", o.err);
        assert_eq!(
            o.err,
            whole_o.err.replace("<stdin>:", &format!("{}:", s(&f))),
            "{name} {ct:?}"
        );
        assert_eq!(std::fs::read(&out).ok(), whole_bin, "{name} -o {ct:?}");
    }
    whole
}

/// The gen9 corpus words that are native instructions (CmptCtrl clear), as one binary.
fn gen9_binary() -> Vec<u8> {
    asm_files("gen9")
        .iter()
        .flat_map(|(_, e)| expected(e))
        .filter(|w| w[3] & 0x20 == 0)
        .flatten()
        .collect()
}

#[test]
fn streamed_iga_listings_equal_the_whole_text() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let tmp = Scratch::new("asm-stream");
    // The IGA listing of the corpus binary, then of its compacted form (`{Compacted}`
    // instructions, jump offsets re-resolved), repeated: streamed output equals the
    // whole-text path's, and the listing of each binary assembles back to it.
    let bin = tmp.join("corpus.bin");
    let words = gen9_binary();
    std::fs::write(&bin, &words).unwrap();
    let native = euref(&["disasm", "--gen", "9", s(&bin)], None, None);
    assert_eq!(native.code, 0, "{}", native.err);
    let compact = euref(
        &["asm", "--gen", "9", "--compact", "-"],
        Some(&native.out),
        None,
    );
    assert_eq!(compact.code, 0, "{}", compact.err);
    let packed = tmp.join("compact.hex");
    std::fs::write(&packed, &compact.out).unwrap();
    let listing = euref(&["disasm", "--gen", "9", s(&packed)], None, None);
    assert_eq!(listing.code, 0, "{}", listing.err);
    let text = String::from_utf8(listing.out).unwrap();
    assert!(
        text.contains("{Compacted"),
        "compact instructions in the listing"
    );
    assert!(
        text.contains("jmpi") || text.contains("while"),
        "jumps in the listing"
    );
    let whole = same_as_whole_text("compact.asm", text.repeat(2).as_bytes(), "9");
    assert_eq!(whole.code, 0, "{}", whole.err);
    assert_eq!(
        whole.out,
        compact.out.repeat(2),
        "the compact listing assembles back"
    );
    let whole = same_as_whole_text("native.asm", &native.out.repeat(2), "9");
    assert_eq!(whole.code, 0, "{}", whole.err);
    let from_hex: Vec<u8> = String::from_utf8(whole.out)
        .unwrap()
        .split_ascii_whitespace()
        .map(|h| u8::from_str_radix(h, 16).unwrap())
        .collect();
    assert_eq!(
        from_hex,
        words.repeat(2),
        "the listing assembles back to the binary"
    );
}

#[test]
fn streamed_mesa_corpus_equals_the_whole_text() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    // Every gen9 and gen7 Mesa file (those with labels take the whole-text path).
    for (dir, gen) in [("gen9", "9"), ("gen7", "7")] {
        for (a, _) in asm_files(dir) {
            let text = std::fs::read(&a).unwrap();
            let name = format!("{dir}-{}", a.file_name().unwrap().to_string_lossy());
            let whole = same_as_whole_text(&name, &text, gen);
            assert_eq!(whole.code, 0, "{name}: {}", whole.err);
        }
    }
}

#[test]
fn errors_late_in_the_file_are_those_of_the_whole_text() {
    let line = "add (8|M0) r10.0<1>:f r7.0<8;8,1>:f 0x3F800000:f\n";
    let mut text = line.repeat(300);
    text.push_str("add (8|M0) r10.0<1>:f r7.0<8;8,1>:f bogus\n");
    text.push_str(&line.repeat(100));
    // Parses, but has no compact form: an encoding error.
    text.push_str("add (8|M0) r10.0<1>:f r7.0<8;8,1>:f 1.0:f {Compacted}\n");
    text.push_str("mov (8|M0) r10.0<1>:f 0x1:vf\n");
    let r = same_as_whole_text("parse-error.asm", text.as_bytes(), "9");
    assert_eq!(r.code, 1);
    assert!(r.err.contains(":301:"), "{}", r.err);
    // Encoding errors only (the parse error removed).
    let text = text.replace("bogus", "0x1:f");
    let r = same_as_whole_text("encode-error.asm", text.as_bytes(), "9");
    assert_eq!(r.code, 1);
    assert!(r.err.contains(":402:"), "{}", r.err);
}

#[test]
fn late_dialect_signs_labels_and_comments_take_the_whole_text_path() {
    let iga = "add (8|M0) r10.0<1>:f r7.0<8;8,1>:f r8.0<8;8,1>:f\n".repeat(200);
    let prm = "add (8) r10.0<1>:f r7.0<8;8,1>:f r8.0<8;8,1>:f\n".repeat(200);
    let commented = iga.replace(":f\n", ":f /* 1.0 */\n");
    let cases = [
        // IGA at the start, a Mesa sign (in a comment) at the end: the text is Mesa.
        ("mesa-late", format!("{iga}// align1\n{iga}")),
        // PRM at the start, an IGA sign at the end.
        (
            "iga-late",
            format!("{prm}(W) add (8|M0) r10.0<1>:f r7.0<8;8,1>:f r8.0<8;8,1>:f\n"),
        ),
        // A label and a jump to it at the end.
        (
            "label-late",
            format!("{iga}L0:\n(f0.0) jmpi (1|M0) L0\n(W) mov (1|M0) r1.0<1>:ud 0x1:ud\n"),
        ),
        // A label used but not defined.
        ("label-undefined", format!("{iga}(f0.0) jmpi (1|M0) L0\n")),
        // A block comment over several lines at the end.
        (
            "comment-late",
            format!("{iga}/* add (8|M0)\nnothing */\n{iga}"),
        ),
        // Block comments closed on their line (streamed), then one that is not.
        (
            "comment-on-line",
            format!("{commented}/* x */ add (8|M0) r1.0<1>:f r2.0<0;1,0>:f /* y /* z */ 0x0:f /**/\n{iga}"),
        ),
        (
            "comment-open",
            format!("{commented}add (8|M0) r1.0<1>:f r2.0<0;1,0>:f 0x0:f /*/\n*/\n{iga}"),
        ),
    ];
    for (name, text) in cases {
        same_as_whole_text(name, text.as_bytes(), "9");
    }
}

/// The reference dialect detection (the definition `asm::detect_dialect` implemented before
/// its byte-search form).
fn reference_dialect(src: &[u8]) -> Dialect {
    let has = |pat: &[u8]| src.windows(pat.len()).any(|w| w == pat);
    let semicolon_lines = src
        .split(|&b| b == b'\n')
        .any(|l| l.trim_ascii_end().ends_with(b";"));
    if has(b"align1") || has(b"JIP:") || has(b"MsgDesc") || semicolon_lines {
        return Dialect::Mesa;
    }
    if src
        .windows(2)
        .any(|w| w[0] == b'>' && w[1].is_ascii_uppercase())
    {
        return Dialect::Mesa;
    }
    let iga_chan = src
        .windows(3)
        .any(|w| w[0] == b'|' && (w[1] == b'M' || w[1] == b'm') && w[2].is_ascii_digit());
    if iga_chan || has(b"(W)") || has(b"(W&") {
        return Dialect::Iga;
    }
    Dialect::Prm
}

/// The reference label test (the definition `asm::defines_labels` implemented before).
fn reference_labels(text: &[u8]) -> bool {
    text.split(|&b| b == b'\n').any(|l| {
        let l = l.trim_ascii_start();
        let n = l
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        n > 0
            && !l[0].is_ascii_digit()
            && l.get(n) == Some(&b':')
            && !l[..n].eq_ignore_ascii_case(b"JIP")
            && !l[..n].eq_ignore_ascii_case(b"UIP")
    })
}

#[test]
fn byte_scans_answer_as_the_reference_definitions() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let mut texts: Vec<Vec<u8>> = Vec::new();
    for (dir, p) in GENS {
        for (a, _) in asm_files(dir) {
            let text = std::fs::read(&a).unwrap();
            // The file and its IGA printing.
            let prog = asm::parse(&text, Some(Dialect::Mesa), p).unwrap();
            let o = PrintOptions {
                dialect: Dialect::Iga,
                platform: p,
            };
            texts.push(asm::print_program(&prog.insns, &o).into_bytes());
            texts.push(text);
        }
    }
    for l in [
        "add (8|M0) r1.0<1>:f r2.0<8;8,1>:f r3.0<8;8,1>:f",
        "(W) mov (1) r1.0<1>:ud 0x1:ud",
        "(W&f0.0) mov (1) r1.0<1>:ud 0x1:ud",
        "mov(8) g1<1>F g2<8,8,1>F { align1 1Q };",
        "mov (8) r1<1>:f r2<8;8,1>:f ;  \t",
        "mov (8) r1<1>:f r2<8;8,1>:f ; x",
        "L0:",
        "  _x1:",
        "JIP: 1",
        "uip: 2",
        "1a:",
        "\tLOOP_END: add (8) r1<1>F",
        "a | m",
        "a |M",
        "|m9",
        "x>Y",
        "x> Y",
    ] {
        texts.push(l.as_bytes().to_vec());
    }
    // Random mutations of the short ones and of lines of the corpus.
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let alphabet = b"aligned1JIP:MsgDesc;|Mm9(W)&> \t\n\rUX_0";
    let seeds = texts.clone();
    for k in 0..20_000 {
        let base = &seeds[k % seeds.len()];
        let start = (next() as usize) % (base.len() + 1);
        let end = (start + 1 + (next() as usize) % 80).min(base.len());
        let mut t = base[start..end].to_vec();
        for _ in 0..(next() % 4) {
            let at = (next() as usize) % (t.len() + 1);
            t.insert(at, alphabet[(next() as usize) % alphabet.len()]);
        }
        texts.push(t);
    }
    let (mut mesa, mut iga, mut labels) = (0, 0, 0);
    for t in &texts {
        let d = asm::detect_dialect(t);
        assert_eq!(d, reference_dialect(t), "{}", String::from_utf8_lossy(t));
        mesa += usize::from(d == Dialect::Mesa);
        iga += usize::from(d == Dialect::Iga);
        let l = asm::defines_labels(t);
        assert_eq!(l, reference_labels(t), "{}", String::from_utf8_lossy(t));
        labels += usize::from(l);
        // Marks of pieces cut at line ends combine to the marks of the whole.
        let mut m = DialectMarks::default();
        for piece in t.split_inclusive(|&b| b == b'\n') {
            m = m.or(asm::dialect_marks(piece));
        }
        assert_eq!(m.dialect(), d, "{}", String::from_utf8_lossy(t));
    }
    assert!(
        mesa > 1000 && iga > 1000 && labels > 100,
        "{mesa} {iga} {labels}"
    );
}

#[test]
fn parse_each_gives_the_instructions_of_parse() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    for (dir, p) in GENS {
        let mut insns = Vec::new();
        for (a, _) in asm_files(dir) {
            let text = std::fs::read(&a).unwrap();
            insns.extend(asm::parse(&text, Some(Dialect::Mesa), p).unwrap().insns);
        }
        for d in Dialect::ALL {
            let o = PrintOptions {
                dialect: d,
                platform: p,
            };
            // One instruction per statement, jump targets as numbers (no labels).
            let text: String = insns
                .iter()
                .map(|i| asm::print_insn(i, &o) + "\n")
                .collect();
            let whole = asm::parse(text.as_bytes(), Some(d), p).unwrap();
            let mut got = (Vec::new(), Vec::new());
            let all = asm::parse_each(text.as_bytes(), d, p, |i, line| {
                got.0.push(i.clone());
                got.1.push(line);
                true
            })
            .unwrap();
            assert!(all);
            assert_eq!(got.0, whole.insns, "{dir} {d}");
            assert_eq!(got.1, whole.lines, "{dir} {d}");
            assert!(got.0.len() > 1000, "{dir} {d}");
        }
    }
    // Stopping early, and labels (an error here).
    let p = Platform::Skl;
    let text = b"nop\nnop\nnop\n";
    let mut n = 0;
    let all = asm::parse_each(text, Dialect::Iga, p, |_, _| {
        n += 1;
        n < 2
    });
    assert_eq!((all.ok(), n), (Some(false), 2));
    assert!(asm::parse_each(b"L0:\nnop\n", Dialect::Iga, p, |_, _| true).is_err());
}
