//! Text assembler throughput on the Mesa corpus (gen9): parsing Mesa syntax, parsing IGA
//! syntax, printing IGA syntax, and text to bytes (`mesa_to_bytes`, `iga_to_bytes`: parse,
//! then encode every instruction to its native 16 bytes, the work of `euref asm --hex`
//! without the output), in instructions per second. `cargo bench --bench asm_text`. The IGA
//! text is euref's own printing of the parsed corpus (about 43 bytes per instruction against
//! Mesa's 147: Mesa pads columns and writes a send's message description on a second line).
//! (Formerly the timed test tests/asm_perf.rs.) The corpus is `$EUREF_CORPUS` or
//! `<crate>/../shared/corpus`.
//!
//! Before the criterion group, the command itself (issue 6: assemble >= 5 M instructions/s
//! in constant memory): `euref asm --gen 9 FILE -o OUT` on the IGA and the Mesa listings of
//! 1 M native gen9 instructions (the corpus words repeated, disassembled by `euref disasm`),
//! five runs each on every core and on one (`EUREF_ASM_THREADS=1`) under `/usr/bin/time`:
//! the fastest and slowest wall time, the instructions per second of the fastest, the CPU
//! time and the peak resident set. Set `EUREF_ASM_BENCH=0` to skip it.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use euref::asm::{self, Dialect, PrintOptions};
use euref::codec;
use euref::spec::Platform;
use std::time::Duration;

/// The corpus root.
fn corpus_dir() -> std::path::PathBuf {
    match std::env::var_os("EUREF_CORPUS") {
        Some(d) => std::path::PathBuf::from(d),
        None => std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    }
}

/// Every gen9 .asm file, concatenated, with each file's labels renamed apart.
fn corpus_text() -> Vec<u8> {
    let dir = corpus_dir().join("mesa/asm/gen9");
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

/// `euref asm` on 1 M-instruction listings, timed by `/usr/bin/time`.
fn asm_one_million() {
    if std::env::var("EUREF_ASM_BENCH").is_ok_and(|v| v == "0") {
        return;
    }
    let n = 1_000_000;
    let corpus = corpus_dir();
    let mut expected: Vec<_> = std::fs::read_dir(corpus.join("mesa/asm/gen9"))
        .expect("the gen9 corpus")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "expected"))
        .collect();
    expected.sort();
    // Native words (CmptCtrl clear).
    let words: Vec<Vec<u8>> = expected
        .iter()
        .flat_map(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .lines()
                .map(|l| {
                    l.split_ascii_whitespace()
                        .map(|h| u8::from_str_radix(h, 16).unwrap())
                        .collect::<Vec<u8>>()
                })
                .filter(|w| w.len() == 16 && w[3] & 0x20 == 0)
                .collect::<Vec<_>>()
        })
        .collect();
    // Removed when dropped, also if a step panics.
    let tmp = tempfile::Builder::new()
        .prefix("euref-asm-bench-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    let bin = dir.join("1m.bin");
    std::fs::write(
        &bin,
        words
            .iter()
            .cycle()
            .take(n)
            .flatten()
            .copied()
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    let exe = env!("CARGO_BIN_EXE_euref");
    let run = |args: &[&str], threads: Option<&str>, out: &std::path::Path| {
        let mut c = std::process::Command::new("/usr/bin/time");
        c.args(["-f", "%e %U %S %M", exe]).args(args);
        if let Some(t) = threads {
            c.env("EUREF_ASM_THREADS", t);
        }
        let o = c
            .stdout(std::fs::File::create(out).unwrap())
            .output()
            .ok()?;
        let err = String::from_utf8_lossy(&o.stderr);
        let v: Vec<f64> = err
            .lines()
            .last()?
            .split_ascii_whitespace()
            .filter_map(|x| x.parse().ok())
            .collect();
        (o.status.success() && v.len() == 4).then_some(v)
    };
    for syntax in ["iga", "mesa"] {
        let listing = dir.join(format!("1m.{syntax}.asm"));
        let args = [
            "disasm",
            "--gen",
            "9",
            "--out-syntax",
            syntax,
            bin.to_str().unwrap(),
        ];
        if run(&args, None, &listing).is_none() {
            eprintln!("/usr/bin/time or euref disasm failed: skipping the 1M-instruction runs");
            break;
        }
        let out = dir.join("1m.out");
        for threads in [None, Some("1")] {
            let args = [
                "asm",
                "--gen",
                "9",
                listing.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
            ];
            let runs: Vec<Vec<f64>> = (0..5)
                .filter_map(|_| run(&args, threads, &dir.join("stdout")))
                .collect();
            if runs.is_empty() {
                continue;
            }
            let same = std::fs::read(&out).ok() == std::fs::read(&bin).ok();
            let wall = |f: fn(f64, f64) -> f64| runs.iter().map(|v| v[0]).fold(runs[0][0], f);
            eprintln!(
                "euref asm, 1M {syntax} instructions ({} bytes), {}: wall {:.2}-{:.2} s ({:.2} M instructions/s at best), CPU {:.2} s (user + system, best run), peak RSS {} KiB, same bytes: {same}",
                std::fs::metadata(&listing).map_or(0, |m| m.len()),
                threads.map_or("every core", |_| "one thread"),
                wall(f64::min),
                wall(f64::max),
                n as f64 / wall(f64::min) / 1e6,
                runs.iter().map(|v| v[1] + v[2]).fold(f64::MAX, f64::min),
                runs.iter().map(|v| v[3] as u64).max().unwrap_or(0),
            );
        }
    }
}

fn bench(c: &mut Criterion) {
    asm_one_million();
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
