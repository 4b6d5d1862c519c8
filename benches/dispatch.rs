//! Issue 30 benchmark: `cargo bench --bench dispatch` (add `-- --quick` for a short run).
//!
//! Whole-dispatch throughput of a real kernel next to the straight-line rate, in one run:
//! - `dispatch/modulate/threads` and `dispatch/modulate/instructions`: seed003's `modulate`
//!   (tests/fixtures/seed003.asm, IGC-compiled for Skylake: 24 instructions, four A64 reads
//!   and four A64 writes of 8 lanes, EOT), dispatched as 64 work groups of one SIMD32 thread
//!   each on skl, in and out buffers in the flat memory; the same work reported as threads/s
//!   and as executed EU instructions/s (`feature.compressed-overlap` read `sources-first`, so
//!   that every thread runs to EOT as the OpenCL source says);
//! - `dispatch/straight_line/instructions`: one thread running a straight-line program of as
//!   many SIMD16 integer adds as the dispatch executes instructions, through the same thread
//!   runner without memory: the rate the runner reaches without messages, scheduling or
//!   payload setup;
//! - `dispatch/slm_reduction/threads` when the kernels corpus (../shared/corpus/kernels) is
//!   present: a Mesa-compiled kernel with four threads per work group and seven barriers.
//!
//! Before measuring, each dispatch is checked to end every thread by EOT (a benchmark of a
//! failing run would measure the error path).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use euref::asm::{self, Dialect};
use euref::dispatch::run::{run, RunOptions, RunResult};
use euref::dispatch::{corpus, Dispatch};
use euref::exec::{CompressedOverlap, ExecOptions};
use euref::spec::Platform;
use euref::state::ThreadState;
use euref::thread::{Image, Thread};
use std::path::Path;

/// Work groups of the seed003 dispatch (one SIMD32 thread each).
const GROUPS: u32 = 64;

/// The kernel of `// ==== Figure <figure>` in tests/fixtures/seed003.asm.
fn seed_kernel(figure: &str) -> String {
    let text = include_str!("../tests/fixtures/seed003.asm");
    let head = format!("// ==== Figure {figure}:");
    let start = text.find(&head).expect("the figure is in the fixture");
    let body = &text[start..];
    let body = &body[body.find('\n').map_or(body.len(), |i| i + 1)..];
    let end = body.find("// ====").unwrap_or(body.len());
    body[..end].to_string()
}

fn image(p: Platform, text: &str) -> Image {
    let prog = asm::parse(text.as_bytes(), Some(Dialect::Iga), p).expect("assembles");
    Image::from_insns(p, &prog.insns, 0).expect("encodes")
}

/// `modulate` over GROUPS * 32 floats: in at 0x300000, out at 0x200000; r7 holds the global
/// offset (0) and the work-group size (32), r8 the two buffer addresses (the article's
/// argument registers).
fn modulate_dispatch() -> Dispatch {
    let n = GROUPS as usize * 32;
    let values: Vec<String> = (0..n).map(|i| format!("{}", i as f32 - 20.25)).collect();
    let json = format!(
        r#"{{"platform": "skl", "simd": 32, "local_size": [32, 1, 1],
 "work_groups": [{GROUPS}, 1, 1],
 "a64_buffers": [{{"address": "0x200000", "size": {bytes}, "dtype": "float32"}},
  {{"address": "0x300000", "size": {bytes}, "init": {{"dtype": "float32", "values": [{v}]}}}}],
 "curbe": {{"cross_thread_regs": 2, "grf": 7, "data": {{"dtype": "uint32",
   "values": [0, 0, 0, 32, 0, 0, 0, 0, {inp}, 0, {out}, 0, 0, 0, 0, 0]}}}},
 "local_ids": {{"grf": 1, "components": 1}}}}"#,
        bytes = n * 4,
        v = values.join(", "),
        inp = 0x30_0000,
        out = 0x20_0000,
    );
    let dir = std::env::temp_dir();
    Dispatch::parse(&json, &dir).expect("valid description")
}

fn options() -> RunOptions {
    let mut o = RunOptions::default();
    o.exec.compressed_overlap = CompressedOverlap::SourcesFirst;
    o
}

/// Executed instructions of a run, after checking every thread ended by EOT.
fn checked_steps(r: &RunResult, what: &str) -> u64 {
    assert!(
        r.all_ended(),
        "{what}: a thread stopped with an error: {:?}",
        r.threads
    );
    r.threads.iter().map(|t| t.steps).sum()
}

/// A straight-line program of `count` SIMD16 dword adds (a chain over r10-r41) and EOT.
fn straight_line(count: u64) -> Image {
    let mut text = String::new();
    for i in 0..count {
        let d = 10 + 2 * (i % 16);
        let s = 10 + 2 * ((i + 7) % 16);
        text.push_str(&format!(
            "add (16|M0) r{d}.0<1>:ud r{s}.0<8;8,1>:ud 0x3:ud\n"
        ));
    }
    text.push_str("send (8|M0) null r0 0x27 0x2000010 {EOT}\n");
    image(Platform::Skl, &text)
}

/// The corpus kernel slm_reduction on gen9 (its dispatch built by `euref::dispatch::corpus`).
fn slm_reduction() -> Result<(Dispatch, Image), String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/kernels/slm_reduction");
    let file = corpus::describe(&dir, "gen9").map_err(|e| e.to_string())?;
    let text = serde_json::to_string(&file).map_err(|e| e.to_string())?;
    let d = Dispatch::parse(&text, &dir).map_err(|e| e.to_string())?;
    let bytes = std::fs::read(dir.join("gen9/kernel.bin")).map_err(|e| e.to_string())?;
    let image = Image::new(d.platform, bytes, 0);
    Ok((d, image))
}

fn bench(c: &mut Criterion) {
    let kernel = image(Platform::Skl, &seed_kernel("13"));
    let d = modulate_dispatch();
    let opts = options();
    let steps = checked_steps(&run(&d, &kernel, &opts).expect("runs"), "modulate");
    let threads = u64::from(GROUPS);

    let mut g = c.benchmark_group("dispatch");
    g.throughput(Throughput::Elements(threads));
    g.bench_function("modulate/threads", |b| {
        b.iter(|| run(black_box(&d), &kernel, &opts).expect("runs"))
    });
    g.throughput(Throughput::Elements(steps));
    g.bench_function("modulate/instructions", |b| {
        b.iter(|| run(black_box(&d), &kernel, &opts).expect("runs"))
    });

    let line = straight_line(steps - 1);
    let exec = ExecOptions::default();
    let start = ThreadState::zeroed(Platform::Skl);
    g.bench_function("straight_line/instructions", |b| {
        b.iter(|| {
            let mut st = start.clone();
            let mut t = Thread::new(line.clone(), &mut st).expect("starts");
            t.run(&mut st, &exec, steps + 1).expect("runs");
            assert!(t.ended_by_eot());
            black_box(st);
        })
    });

    match slm_reduction() {
        Ok((d, kernel)) => {
            let r = run(&d, &kernel, &RunOptions::default()).expect("runs");
            checked_steps(&r, "slm_reduction");
            g.throughput(Throughput::Elements(r.threads.len() as u64));
            g.bench_function("slm_reduction/threads", |b| {
                b.iter(|| run(black_box(&d), &kernel, &RunOptions::default()).expect("runs"))
            });
        }
        Err(e) => eprintln!("dispatch bench: slm_reduction skipped ({e})"),
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
