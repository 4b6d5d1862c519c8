//! Golden vectors: generated per second (in process, worker threads on both cores: the fast line
//! writer `generate_lines` that `euref golden` uses, and `generate`, the coverage path that
//! parses every line back) and checked per second against `euref sim` (a subprocess, requests
//! pipelined). Goals (issue 7): >= 1 M/s generated, >= 200 k/s checked on a 2-core machine.
//! Session 4: 36.5 k instructions per generated vector (48.9 k before; callgrind, one thread);
//! 71 k/s at load average 12 (conformance/README.md, Performance). Session 5: 24.4 k per vector
//! (shapes 6.4 k -> 2.7 k, the per-vector work without execution 21.7 k -> 16.9 k, execution
//! 5.4 k -> 4.7 k).
//! Program vectors (issue 31, `euref golden --programs`): generated per second in the same run,
//! each a random program assembled, validated and run to its end of thread, with and without
//! the control-flow coverage (`--coverage`).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use euref::conformance::check::{run, CheckOptions, Summary};
use euref::golden::program::{write_programs, write_programs_covered, ProgramCoverage};
use euref::golden::{generate, generate_lines, GenConfig};
use euref::spec::Platform;
use std::collections::HashSet;
use std::time::Duration;

const N: u64 = 20_000;
/// Vectors per generation sample (enough tasks for both cores).
const GEN_N: u64 = 200_000;
/// Program vectors per sample (several batches of 64 for both cores).
const PROG_N: u64 = 512;

fn bench(c: &mut Criterion) {
    let cfg = GenConfig::new(Platform::Skl, 1);
    let mut g = c.benchmark_group("golden");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(10));
    g.throughput(Throughput::Elements(GEN_N));
    g.bench_function("generate_skl_default_ops", |b| {
        b.iter(|| generate_lines(&cfg, GEN_N, &mut std::io::sink(), |_, _, _| {}).unwrap())
    });
    g.throughput(Throughput::Elements(N));
    g.bench_function("generate_with_vectors_for_coverage", |b| {
        b.iter(|| generate(&cfg, N, &mut std::io::sink(), |_| {}).unwrap())
    });
    g.throughput(Throughput::Elements(PROG_N));
    for p in [Platform::Skl, Platform::Ivb] {
        g.bench_function(format!("generate_programs_{}", p.name()), |b| {
            b.iter(|| write_programs(p, 1, 0..PROG_N, &mut std::io::sink(), |_| {}).unwrap())
        });
    }
    g.bench_function("generate_programs_skl_with_coverage", |b| {
        b.iter(|| {
            let mut c = ProgramCoverage::default();
            write_programs_covered(
                Platform::Skl,
                1,
                0..PROG_N,
                &mut std::io::sink(),
                |_| {},
                &mut c,
            )
            .unwrap();
            c
        })
    });
    let mut buf = Vec::new();
    generate_lines(&cfg, N, &mut buf, |_, _, _| {}).unwrap();
    // (Shared, not copied, by each run's reader thread.)
    let buf: std::sync::Arc<[u8]> = buf.into();
    let opts = CheckOptions {
        sim: format!("{} sim", env!("CARGO_BIN_EXE_euref")),
        timeout: Duration::from_secs(10),
        window: 64,
        select: Default::default(),
    };
    g.bench_function("check_against_euref_sim", |b| {
        b.iter(|| {
            let mut s = Summary::default();
            run(
                &opts,
                std::io::Cursor::new(buf.clone()),
                &HashSet::new(),
                &mut std::io::sink(),
                &mut s,
                |_, _| {},
            )
            .unwrap();
            assert_eq!(s.failed(), 0);
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
