//! The Mesa assembler corpus (shared/corpus/mesa/asm/gen*/*.asm) through the text assembler:
//! every file parses in Mesa syntax with one instruction per line of its `.expected`
//! encodings; every instruction prints in each dialect and parses back equal; whole programs
//! round-trip with their labels; Mesa-syntax printing reproduces the corpus text.

use euref::asm::{self, Dialect, PrintOptions};
use euref::isa::Insn;
use euref::spec::Platform;
use std::path::{Path, PathBuf};

use crate::codec_util;

/// `(platform, file)` for every corpus .asm file.
fn files() -> Vec<(Platform, PathBuf)> {
    let root = codec_util::mesa_asm_dir();
    let mut out = Vec::new();
    for (dir, plat) in [
        ("gen7", Platform::Ivb),
        ("gen7.5", Platform::Hsw),
        ("gen8", Platform::Bdw),
        ("gen9", Platform::Skl),
    ] {
        let d = root.join(dir);
        let mut v: Vec<PathBuf> = std::fs::read_dir(&d)
            .unwrap_or_else(|e| panic!("{}: {e}", d.display()))
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "asm"))
            .collect();
        v.sort();
        out.extend(v.into_iter().map(|p| (plat, p)));
    }
    assert!(
        out.len() > 150,
        "expected the whole corpus, found {} files",
        out.len()
    );
    out
}

fn parse_file(plat: Platform, path: &Path, d: Option<Dialect>) -> asm::Program {
    let text = std::fs::read(path).unwrap();
    asm::parse(&text, d, plat).unwrap_or_else(|e| panic!("{}:{e}", path.display()))
}

#[test]
fn every_file_parses_with_one_insn_per_encoding() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let mut total = 0;
    for (plat, path) in files() {
        let prog = parse_file(plat, &path, Some(Dialect::Mesa));
        let expected = std::fs::read_to_string(path.with_extension("expected")).unwrap();
        let n = expected.lines().filter(|l| !l.trim().is_empty()).count();
        assert_eq!(prog.insns.len(), n, "{}: instruction count", path.display());
        // Auto-detection picks Mesa for every corpus file.
        let text = std::fs::read(&path).unwrap();
        assert_eq!(
            asm::detect_dialect(&text),
            Dialect::Mesa,
            "{}",
            path.display()
        );
        total += n;
    }
    eprintln!("parsed {total} Mesa corpus instructions");
}

fn roundtrip_one(insn: &Insn, d: Dialect, plat: Platform, where_: &str) {
    let o = PrintOptions {
        dialect: d,
        platform: plat,
    };
    let text = asm::print_insn(insn, &o);
    let back = asm::parse_insn(&text, d, plat)
        .unwrap_or_else(|e| panic!("{where_}: {d} text `{text}` does not parse: {e}"));
    assert_eq!(&back, insn, "{where_}: {d} round trip through `{text}`");
}

#[test]
fn every_insn_roundtrips_in_every_dialect() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let mut n = 0;
    for (plat, path) in files() {
        let prog = parse_file(plat, &path, Some(Dialect::Mesa));
        for (i, insn) in prog.insns.iter().enumerate() {
            let where_ = format!("{}:{}", path.display(), prog.lines[i]);
            for d in Dialect::ALL {
                roundtrip_one(insn, d, plat, &where_);
            }
            n += 1;
        }
    }
    eprintln!("{n} instructions x 3 dialects round-tripped");
}

#[test]
fn programs_roundtrip_with_labels_in_every_dialect() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    for (plat, path) in files() {
        let prog = parse_file(plat, &path, Some(Dialect::Mesa));
        for d in Dialect::ALL {
            let o = PrintOptions {
                dialect: d,
                platform: plat,
            };
            let text = asm::print_program(&prog.insns, &o);
            let back = asm::parse(text.as_bytes(), Some(d), plat)
                .unwrap_or_else(|e| panic!("{} as {d}:{e}\n{text}", path.display()));
            assert_eq!(back.insns, prog.insns, "{} as {d}", path.display());
            // And auto-detection recognises our own output.
            let auto = asm::parse(text.as_bytes(), None, plat).unwrap();
            assert_eq!(
                auto.insns,
                prog.insns,
                "{} as {d}, auto-detected",
                path.display()
            );
        }
    }
}

/// Normalize a corpus statement for comparison: drop comments and spacing. The message
/// description of a send (`MsgDesc: ...`, which Mesa's assembler ignores) stays: it is the
/// oracle for euref's message decoding (spec/descriptors.toml, src/message).
fn norm(stmt: &str) -> String {
    let mut s = String::new();
    let mut rest = stmt;
    while let Some(i) = rest.find("/*") {
        s.push_str(&rest[..i]);
        rest = rest[i..].find("*/").map_or("", |j| &rest[i + j + 2..]);
    }
    s.push_str(rest);
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn mesa_printing_reproduces_the_corpus_text() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let mut mismatches = Vec::new();
    let mut n = 0;
    for (plat, path) in files() {
        let text = std::fs::read_to_string(&path).unwrap();
        // Group the statements of the file: an instruction line, plus the description line of
        // a send; label lines alone.
        let mut stmts: Vec<String> = Vec::new();
        let mut cur = String::new();
        for line in text.lines() {
            let t = line.trim();
            if t.is_empty() {
                continue;
            }
            cur.push_str(line);
            cur.push('\n');
            if t.ends_with(';') || (t.ends_with(':') && !t.contains(' ')) {
                stmts.push(std::mem::take(&mut cur));
            }
        }
        let o = PrintOptions {
            dialect: Dialect::Mesa,
            platform: plat,
        };
        let printed = asm::print_program(&parse_file(plat, &path, Some(Dialect::Mesa)).insns, &o);
        let mut pstmts: Vec<String> = Vec::new();
        let mut cur = String::new();
        for line in printed.lines() {
            cur.push_str(line);
            cur.push('\n');
            let t = line.trim();
            if t.ends_with(';') || t.ends_with(':') {
                pstmts.push(std::mem::take(&mut cur));
            }
        }
        // Labels are renumbered in order of appearance; compare instructions only.
        let insns = |v: &[String]| -> Vec<String> {
            v.iter()
                .map(|s| norm(s))
                .filter(|s| !s.ends_with(':') || s.contains(' '))
                .map(|s| match s.split_once(':') {
                    // `LABEL0:endif(8) ...` in the corpus.
                    Some((l, rest)) if l.starts_with("LABEL") && !l.contains(' ') => {
                        rest.trim().to_string()
                    }
                    _ => s,
                })
                .collect()
        };
        let want = insns(&stmts);
        let got = insns(&pstmts);
        assert_eq!(want.len(), got.len(), "{}", path.display());
        for (w, g) in want.iter().zip(&got) {
            n += 1;
            let strip_labels = |s: &str| {
                s.split_whitespace()
                    .map(|t| if t.starts_with("LABEL") { "LABEL" } else { t })
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            if strip_labels(w) != strip_labels(g) {
                mismatches.push(format!(
                    "{}\n  corpus:  {w}\n  printed: {g}",
                    path.display()
                ));
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {n} statements differ, e.g.:\n{}",
        mismatches.len(),
        mismatches
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
