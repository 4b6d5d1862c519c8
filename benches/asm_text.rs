//! Text assembler throughput on the Mesa corpus (gen9): parsing Mesa syntax, parsing IGA
//! syntax, printing IGA syntax, and text to bytes (`mesa_to_bytes`, `iga_to_bytes`: parse,
//! then encode every instruction to its native 16 bytes, the work of `euref asm --hex`
//! without the output), in instructions per second. `cargo bench --bench asm_text`. The IGA
//! text is euref's own printing of the parsed corpus (about 43 bytes per instruction against
//! Mesa's 147: Mesa pads columns and writes a send's message description on a second line).
//! (Formerly the timed test tests/asm_perf.rs.) The corpus is `$EUREF_CORPUS` or
//! `<crate>/../shared/corpus`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use euref::asm::{self, Dialect, PrintOptions};
use euref::codec;
use euref::spec::Platform;
use std::time::Duration;

/// Every gen9 .asm file, concatenated, with each file's labels renamed apart.
fn corpus_text() -> Vec<u8> {
    let corpus = match std::env::var_os("EUREF_CORPUS") {
        Some(d) => std::path::PathBuf::from(d),
        None => std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    };
    let dir = corpus.join("mesa/asm/gen9");
    let rd = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e} (set EUREF_CORPUS)", dir.display()));
    let mut files: Vec<_> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "asm"))
        .collect();
    files.sort();
    let mut text = Vec::new();
    for p in files {
        let t = std::fs::read_to_string(&p).unwrap();
        let name = p.file_stem().unwrap().to_string_lossy().to_uppercase();
        text.extend_from_slice(t.replace("LABEL", &format!("L_{name}_")).as_bytes());
    }
    text
}

fn bench(c: &mut Criterion) {
    let p = Platform::Skl;
    let mesa = corpus_text();
    let insns = asm::parse(&mesa, Some(Dialect::Mesa), p).unwrap().insns;
    let o = PrintOptions {
        dialect: Dialect::Iga,
        platform: p,
    };
    let iga = asm::print_program(&insns, &o);
    let mut g = c.benchmark_group("asm_text");
    g.throughput(Throughput::Elements(insns.len() as u64));
    g.bench_function("parse_mesa", |b| {
        b.iter(|| {
            asm::parse(black_box(&mesa), Some(Dialect::Mesa), p)
                .unwrap()
                .insns
                .len()
        })
    });
    g.bench_function("parse_iga", |b| {
        b.iter(|| {
            asm::parse(black_box(iga.as_bytes()), Some(Dialect::Iga), p)
                .unwrap()
                .insns
                .len()
        })
    });
    // Text to bytes: parse, then encode each instruction (a checksum keeps the work).
    let to_bytes = |text: &[u8], d: Dialect| -> u8 {
        let mut x = 0u8;
        for i in &asm::parse(text, Some(d), p).unwrap().insns {
            x ^= codec::encode(i, p).unwrap()[0];
        }
        x
    };
    g.bench_function("mesa_to_bytes", |b| {
        b.iter(|| to_bytes(black_box(&mesa), Dialect::Mesa))
    });
    g.bench_function("iga_to_bytes", |b| {
        b.iter(|| to_bytes(black_box(iga.as_bytes()), Dialect::Iga))
    });
    g.bench_function("print_iga", |b| {
        b.iter(|| asm::print_program(black_box(&insns), &o).len())
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    targets = bench
}
criterion_main!(benches);
