//! Binary codec throughput: `cargo bench --bench codec` (release).
//!
//! - `decode/<gen>`: `codec::decode` over every native word of the Mesa corpus of that
//!   generation (shared/corpus/mesa/asm/<gen>/*.expected), in instructions per second;
//! - `decode_compact/<platform>`: the compact words of shared/corpus/mesa/compact;
//! - `encode/<gen>`: `codec::encode` of the same instructions (decoded beforehand);
//! - `disasm_text/<gen>`: decode and print (IGA syntax) into a reused `asm::TextBuf`, as
//!   `euref disasm` does (bytes to text), on one thread;
//! - `disasm_text_parallel/<gen>/<n>-threads`: the same over 64 Ki instructions in pieces of
//!   4096 decoded in parallel (rayon), as `euref disasm` splits its input;
//! - `assemble_text/<gen>`: parse the corpus's Mesa-syntax text and encode every
//!   instruction (text to bytes, without compaction), as `euref asm` does.
//!
//! Goals (issue 6): disassemble >= 10 M native instructions/s, assemble >= 5 M/s. The codec
//! alone (`decode`, `encode`) and the whole text paths (`disasm_text`, `assemble_text`) are
//! measured separately.
//!
//! Before the criterion groups, the benchmark writes a file of 1 M native instructions
//! (corpus words repeated, raw binary and hex text) and runs `euref disasm --gen 9` on each
//! three times under `/usr/bin/time -v`, printing the wall time (measured around the command;
//! min and max) with the instructions per second, and the peak memory (maximum resident set
//! size). Set
//! `EUREF_DISASM_BENCH=0` to skip that step. The corpus is `$EUREF_CORPUS` or
//! `<crate>/../shared/corpus`.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use euref::asm::{self, Dialect, PrintOptions};
use euref::codec;
use euref::isa::Insn;
use euref::spec::Platform;
use std::path::PathBuf;
use std::time::Duration;

mod common;
use common::{asm_files, corpus, GENS};

fn hex_bytes(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .filter_map(|b| u8::from_str_radix(b, 16).ok())
        .collect()
}

/// Every native word of `mesa/asm/<dir>/*.expected`.
fn words(dir: &str) -> Vec<[u8; 16]> {
    let d = corpus().join("mesa/asm").join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&d)
        .unwrap_or_else(|e| panic!("{}: {e} (set EUREF_CORPUS)", d.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "expected"))
        .collect();
    files.sort();
    let mut v = vec![];
    for f in files {
        for l in std::fs::read_to_string(&f).unwrap().lines() {
            if let Ok(w) = <[u8; 16]>::try_from(hex_bytes(l).as_slice()) {
                v.push(w);
            }
        }
    }
    v
}

fn compact_words(name: &str) -> Vec<[u8; 8]> {
    let p = corpus().join("mesa/compact").join(name);
    std::fs::read_to_string(&p)
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        .lines()
        .filter_map(|l| l.split('\t').nth(2))
        .filter_map(|c| <[u8; 8]>::try_from(hex_bytes(c).as_slice()).ok())
        .collect()
}

fn bench_codec(c: &mut Criterion) {
    let mut g = c.benchmark_group("decode");
    for (dir, p) in GENS {
        let w = words(dir);
        g.throughput(Throughput::Elements(w.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(dir), &w, |b, w| {
            b.iter(|| {
                let mut n = 0usize;
                for x in w {
                    if let Ok((i, len)) = codec::decode(black_box(x), p) {
                        n += len + i.exec_size as usize;
                    }
                }
                n
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("decode_compact");
    for (name, p) in [("ivb.tsv", Platform::Ivb), ("skl.tsv", Platform::Skl)] {
        let w = compact_words(name);
        g.throughput(Throughput::Elements(w.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(p.name()), &w, |b, w| {
            b.iter(|| {
                let mut n = 0usize;
                for x in w {
                    if let Ok((i, len)) = codec::decode(black_box(x), p) {
                        n += len + i.exec_size as usize;
                    }
                }
                n
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("encode");
    for (dir, p) in GENS {
        let insns: Vec<Insn> = words(dir)
            .iter()
            .filter_map(|w| codec::decode(w, p).ok().map(|d| d.0))
            .collect();
        g.throughput(Throughput::Elements(insns.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(dir), &insns, |b, insns| {
            b.iter(|| {
                let mut x = 0u8;
                for i in insns {
                    if let Ok(bytes) = codec::encode(black_box(i), p) {
                        x ^= bytes[0];
                    }
                }
                x
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("disasm_text");
    for (dir, p) in [GENS[0], GENS[3]] {
        let w = words(dir);
        let o = PrintOptions {
            dialect: Dialect::Iga,
            platform: p,
        };
        let mut out = asm::TextBuf::new();
        g.throughput(Throughput::Elements(w.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(dir), &w, |b, w| {
            let mut i = Insn::new(euref::spec::Opcode::Nop);
            b.iter(|| {
                out.clear();
                for x in w {
                    if codec::decode_into(black_box(x), p, &mut i).is_ok() {
                        out.push_insn_line(&i, &o);
                    }
                }
                out.len()
            })
        });
    }
    g.finish();

    // The same work split over the machine's threads as `euref disasm` does it: pieces of
    // 4096 instructions decoded and printed in parallel (rayon), each into its own reused
    // buffer, over the corpus words repeated to 64 Ki instructions.
    let mut g = c.benchmark_group("disasm_text_parallel");
    for (dir, p) in [GENS[0], GENS[3]] {
        let w = words(dir);
        let many: Vec<[u8; 16]> = (0..65536).map(|k| w[k % w.len()]).collect();
        let o = PrintOptions {
            dialect: Dialect::Iga,
            platform: p,
        };
        let mut bufs: Vec<asm::TextBuf> = (0..many.len() / 4096)
            .map(|_| asm::TextBuf::new())
            .collect();
        g.throughput(Throughput::Elements(many.len() as u64));
        let id = format!("{dir}/{}-threads", rayon::current_num_threads());
        g.bench_with_input(BenchmarkId::from_parameter(id), &many, |b, many| {
            use rayon::prelude::*;
            b.iter(|| {
                many.par_chunks(4096)
                    .zip(bufs.par_iter_mut())
                    .map(|(ws, out)| {
                        out.clear();
                        let mut i = Insn::new(euref::spec::Opcode::Nop);
                        for x in ws {
                            if codec::decode_into(black_box(x), p, &mut i).is_ok() {
                                out.push_insn_line(&i, &o);
                            }
                        }
                        out.len()
                    })
                    .sum::<usize>()
            })
        });
    }
    g.finish();
}

/// Every `.asm` file of `mesa/asm/<dir>`, concatenated, each file's labels renamed apart.
fn corpus_text(dir: &str) -> String {
    let files = asm_files(dir);
    let mut text = String::new();
    for f in files {
        let t = std::fs::read_to_string(&f).unwrap();
        let stem = f.file_stem().unwrap().to_string_lossy().to_uppercase();
        text.push_str(&t.replace("LABEL", &format!("L_{stem}_")));
    }
    text
}

fn bench_assemble(c: &mut Criterion) {
    let mut g = c.benchmark_group("assemble_text");
    for (dir, p) in [GENS[0], GENS[3]] {
        let text = corpus_text(dir);
        let n = asm::parse(text.as_bytes(), Some(Dialect::Mesa), p)
            .map(|r| r.insns.len())
            .unwrap_or(0);
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::from_parameter(dir), &text, |b, text| {
            b.iter(|| {
                let mut x = 0u8;
                if let Ok(r) = asm::parse(black_box(text.as_bytes()), Some(Dialect::Mesa), p) {
                    for i in &r.insns {
                        if let Ok(bytes) = codec::encode(i, p) {
                            x ^= bytes[0];
                        }
                    }
                }
                x
            })
        });
    }
    g.finish();
}

/// `euref disasm` on a 1 M-instruction binary file, under `/usr/bin/time -v`.
fn disasm_one_million() {
    if std::env::var("EUREF_DISASM_BENCH").is_ok_and(|v| v == "0") {
        return;
    }
    let w = words("gen9");
    let n = 1_000_000;
    // Removed when dropped, also if a step panics.
    let tmp = tempfile::Builder::new()
        .prefix("euref-bench-")
        .tempdir()
        .expect("create a temporary folder");
    let dir = tmp.path();
    let bin = dir.join("disasm-1m.bin");
    let mut bytes = Vec::with_capacity(n * 16);
    for k in 0..n {
        bytes.extend_from_slice(&w[k % w.len()]);
    }
    std::fs::write(&bin, &bytes).expect("write the 1M-instruction file");
    let hex = dir.join("disasm-1m.hex");
    let mut text = String::with_capacity(n * 48);
    for k in 0..n {
        let x = &w[k % w.len()];
        for (j, b) in x.iter().enumerate() {
            if j > 0 {
                text.push(' ');
            }
            text.push_str(&format!("{b:02x}"));
        }
        text.push('\n');
    }
    std::fs::write(&hex, text).expect("write the hex file");
    let exe = env!("CARGO_BIN_EXE_euref");
    for (what, path) in [("binary", &bin), ("hex", &hex)] {
        let mut walls = vec![];
        let mut rss = String::new();
        let mut status = None;
        for _ in 0..3 {
            let start = std::time::Instant::now();
            let out = std::process::Command::new("/usr/bin/time")
                .arg("-v")
                .arg(exe)
                .args(["disasm", "--gen", "9"])
                .arg(path)
                .stdout(std::process::Stdio::null())
                .output();
            let secs = start.elapsed().as_secs_f64();
            match out {
                Ok(o) => {
                    let err = String::from_utf8_lossy(&o.stderr);
                    rss = err
                        .lines()
                        .find(|l| l.trim_start().starts_with("Maximum resident set size"))
                        .and_then(|l| l.rsplit(": ").next())
                        .unwrap_or("?")
                        .to_string();
                    status = o.status.code();
                    walls.push(secs);
                }
                Err(e) => {
                    eprintln!("/usr/bin/time -v {exe}: {e} (skipping the 1M-instruction run)");
                    break;
                }
            }
        }
        let (lo, hi) = walls
            .iter()
            .fold((f64::MAX, 0f64), |(a, b), &x| (a.min(x), b.max(x)));
        if !walls.is_empty() {
            eprintln!(
                "euref disasm, 1M native instructions ({what}, {} bytes), 3 runs: wall {lo:.3}-{hi:.3} s ({:.1}-{:.1} M instructions/s), peak RSS {rss} KiB, exit {status:?}",
                std::fs::metadata(path).map(|m| m.len()).unwrap_or(0),
                n as f64 / hi / 1e6,
                n as f64 / lo / 1e6,
            );
        }
    }
}

fn benches(c: &mut Criterion) {
    disasm_one_million();
    bench_codec(c);
    bench_assemble(c);
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
}

criterion_group! {
    name = codec_benches;
    config = config();
    targets = benches
}
criterion_main!(codec_benches);
