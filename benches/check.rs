//! Conformance checking throughput (issue 7 goal: >= 200 k vectors/s checked against
//! `euref sim` on a 2-core machine): `euref check`'s loop against `euref sim` as a
//! subprocess (requests pipelined, default window), and the two halves alone: `euref sim`
//! serving the requests in process, and the checker's own work per vector (reading the
//! vector line, writing the request, reading the response, comparing, the report line).
//! The vectors are generated once (Skylake, default ops).
//!
//! Session 4, on the shared machine at load average 11.5-12: 74 k vectors/s against
//! `euref sim` (68-82 k), `euref sim` alone 133 k/s, the checker's work alone 221 k/s (session
//! 3 at load 7-10: 63.6 k, 127 k, 110 k). See conformance/README.md for instruction counts.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use euref::conformance::check::{run, write_report_line, CheckOptions, Summary, DEFAULT_WINDOW};
use euref::conformance::compare::{compare_view, plainly_equal, Outcome};
use euref::conformance::known::KnownFields;
use euref::conformance::sim::Simulator;
use euref::conformance::view::{ResponseView, VectorView};
use euref::golden::{generate, GenConfig};
use euref::spec::Platform;
use std::collections::HashSet;
use std::time::Duration;

const N: u64 = 50_000;

fn bench(c: &mut Criterion) {
    let mut vectors = Vec::new();
    generate(&GenConfig::new(Platform::Skl, 1), N, &mut vectors, |_| {}).unwrap();
    let text = String::from_utf8(vectors.clone()).unwrap();
    // (Shared, not copied, by each run's reader thread.)
    let shared: std::sync::Arc<[u8]> = vectors.clone().into();
    let lines: Vec<&str> = text.lines().collect();
    let mut requests = Vec::new();
    for l in &lines {
        VectorView::parse(l).unwrap().write_request(&mut requests);
    }
    let mut responses = Vec::new();
    let mut sim = Simulator::new(None);
    for r in requests.split(|b| *b == b'\n').filter(|r| !r.is_empty()) {
        sim.handle(r, &mut responses);
    }
    let responses = String::from_utf8(responses).unwrap();
    let responses: Vec<&str> = responses.lines().collect();
    assert_eq!(responses.len(), lines.len());

    let mut g = c.benchmark_group("check");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(15));
    g.throughput(Throughput::Elements(lines.len() as u64));
    let opts = CheckOptions {
        sim: format!("{} sim", env!("CARGO_BIN_EXE_euref")),
        timeout: Duration::from_secs(10),
        window: DEFAULT_WINDOW,
        select: Default::default(),
    };
    g.bench_function("check_against_euref_sim", |b| {
        b.iter(|| {
            let mut s = Summary::default();
            run(
                &opts,
                std::io::Cursor::new(shared.clone()),
                &HashSet::new(),
                &mut std::io::sink(),
                &mut s,
                |_, _| {},
            )
            .unwrap();
            assert_eq!((s.total, s.failed()), (lines.len() as u64, 0));
        })
    });
    g.bench_function("sim_serve_in_process", |b| {
        let mut out = Vec::with_capacity(responses.len() * 200);
        b.iter(|| {
            out.clear();
            let mut input = std::io::BufReader::new(&requests[..]);
            euref::conformance::sim::serve(&mut input, &mut out, None).unwrap();
            assert!(out.len() > responses.len() * 50);
        })
    });
    g.bench_function("checker_work_in_process", |b| {
        let mut report = Vec::with_capacity(1 << 20);
        let mut req = Vec::with_capacity(1 << 10);
        b.iter(|| {
            let mut s = Summary::default();
            // Known values carry over from line to line, as in `check::run`.
            let mut known = KnownFields::default();
            for (l, r) in lines.iter().zip(&responses) {
                let (v, spans) = VectorView::parse_spans_known(l, &mut known).unwrap();
                req.clear();
                v.write_request(&mut req);
                drop(v);
                let v = VectorView::reread(l, &spans, false).unwrap();
                let r = ResponseView::parse(r).unwrap();
                assert!(plainly_equal(&v, &r));
                let o = compare_view(&v, &r);
                assert_eq!(o, Outcome::Pass);
                report.clear();
                write_report_line(&v, &o, &mut report);
                s.add_view_known(&v, o.status(), spans.rules_id);
            }
            s.take_known(&known);
            s.settle();
            assert_eq!(s.passed, lines.len() as u64);
        })
    });
    g.finish();
}

/// Program vectors (issue 31): how many are checked per second against `euref sim` (each a
/// program request, one at a time), and what a failing program costs when it is localized
/// (the same programs against `euref sim --inject add-imm-off-by-one`: the check, the
/// localization's step-limited requests and euref's runs to the same limits).
fn bench_programs(c: &mut Criterion) {
    use euref::conformance::program_check::{self, ProgramCheckOptions, ProgramSummary};
    use euref::golden::program::write_programs;
    const PROGRAMS: u64 = 200;
    let mut vectors = Vec::new();
    write_programs(Platform::Skl, 1, 0..PROGRAMS, &mut vectors, |_| {}).unwrap();
    let shared: std::sync::Arc<[u8]> = vectors.into();
    let exe = env!("CARGO_BIN_EXE_euref");
    let check = |sim: String, expect_failed: bool| {
        let opts = ProgramCheckOptions {
            sim,
            timeout: Duration::from_secs(10),
        };
        let mut s = ProgramSummary::default();
        program_check::run(
            &opts,
            std::io::Cursor::new(shared.clone()),
            &mut std::io::sink(),
            &mut s,
            |_| {},
        )
        .unwrap();
        assert_eq!(s.total, PROGRAMS);
        if expect_failed {
            // Every failing program is localized.
            assert!(s.failed() > 0 && s.localized == s.failed());
        } else {
            assert_eq!(s.failed(), 0);
        }
        s
    };
    // The share of programs the fault makes fail (localizations per run).
    let failing = check(format!("{exe} sim --inject add-imm-off-by-one"), true).failed();

    let mut g = c.benchmark_group("check_programs");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(20));
    g.throughput(Throughput::Elements(PROGRAMS));
    g.bench_function("check_programs_against_euref_sim", |b| {
        b.iter(|| check(format!("{exe} sim"), false))
    });
    // Per failing program: the extra time over a passing check is the localization's.
    g.throughput(Throughput::Elements(failing));
    g.bench_function("check_and_localize_failing_programs", |b| {
        b.iter(|| check(format!("{exe} sim --inject add-imm-off-by-one"), true))
    });
    g.finish();
}

criterion_group!(benches, bench, bench_programs);
criterion_main!(benches);
