//! Assembler throughput on the Mesa corpus (informational; the binary assembler of issue 6
//! aims at 5 M instructions/s): `cargo test --release --test asm_perf -- --nocapture`.

use euref::asm::{self, Dialect, PrintOptions};
use euref::spec::Platform;
use std::time::Instant;

#[test]
fn parse_and_print_throughput() {
    let corpus = match std::env::var_os("EUREF_CORPUS") {
        Some(d) => std::path::PathBuf::from(d),
        None => std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    };
    let dir = corpus.join("mesa/asm/gen9");
    let rd = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e} (set EUREF_CORPUS)", dir.display()));
    let mut text = Vec::new();
    let mut files: Vec<_> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "asm"))
        .collect();
    files.sort();
    for p in files {
        let t = std::fs::read(&p).unwrap();
        // Labels repeat across files: keep each file's text but rename its labels.
        let name = p.file_stem().unwrap().to_string_lossy().to_uppercase();
        let t = String::from_utf8(t)
            .unwrap()
            .replace("LABEL", &format!("L_{name}_"));
        text.extend_from_slice(t.as_bytes());
    }
    let n = asm::parse(&text, Some(Dialect::Mesa), Platform::Skl)
        .unwrap()
        .insns
        .len();
    let reps = 20;
    let t0 = Instant::now();
    let mut insns = Vec::new();
    for _ in 0..reps {
        insns = asm::parse(&text, Some(Dialect::Mesa), Platform::Skl)
            .unwrap()
            .insns;
    }
    let parse = t0.elapsed().as_secs_f64();
    let o = PrintOptions {
        dialect: Dialect::Iga,
        platform: Platform::Skl,
    };
    let iga = asm::print_program(&insns, &o);
    let t1 = Instant::now();
    for _ in 0..reps {
        insns = asm::parse(iga.as_bytes(), Some(Dialect::Iga), Platform::Skl)
            .unwrap()
            .insns;
    }
    let parse_iga = t1.elapsed().as_secs_f64();
    let t2 = Instant::now();
    let mut len = 0;
    for _ in 0..reps {
        len += asm::print_program(&insns, &o).len();
    }
    let print = t2.elapsed().as_secs_f64();
    let rate = |s: f64| (n * reps) as f64 / s / 1e6;
    eprintln!(
        "{n} instructions x {reps}: parse Mesa {:.2} M/s, parse IGA {:.2} M/s, print IGA {:.2} M/s ({len} bytes)",
        rate(parse),
        rate(parse_iga),
        rate(print)
    );
    assert!(rate(parse) > 0.05 && rate(parse_iga) > 0.05);
}
