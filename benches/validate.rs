//! Validator throughput: `cargo bench --bench validate` (release).
//!
//! - `check_insn/<gen>`: `validate::check_insn` over every instruction of Mesa's assembler
//!   corpus of that generation (shared/corpus/mesa/asm/<gen>/*.asm, parsed once beforehand),
//!   in instructions per second;
//! - `checker/<gen>`: the same through a reused `validate::Checker`;
//! - `props_of/<gen>`: the instruction -> property record glue alone.
//!
//! Goal (issue 5): >= 5 M instructions/s. The corpus is `$EUREF_CORPUS` or
//! `<crate>/../shared/corpus`.
//!
//! The `validate_cpu` group measures the same loops in thread CPU time
//! (`CLOCK_THREAD_CPUTIME_ID`) instead of wall time, so that the figure is meaningful on a
//! loaded machine (other processes sharing the cores do not count).

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use euref::asm::{self, Dialect};
use euref::isa::Insn;
use euref::spec::Platform;
use euref::validate::{check_insn, props_of, Checker};
use std::time::Duration;

mod common;
use common::{asm_files, GENS};

/// Every instruction of `mesa/asm/<dir>/*.asm`.
fn insns(dir: &str, p: Platform) -> Vec<Insn> {
    let files = asm_files(dir);
    let mut v = vec![];
    for f in files {
        let text = std::fs::read(&f).unwrap();
        let prog = asm::parse(&text, Some(Dialect::Mesa), p)
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        v.extend(prog.insns);
    }
    v
}

/// Thread CPU time (Linux `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`).
struct CpuTime;

#[repr(C)]
struct Timespec {
    tv_sec: i64,
    tv_nsec: i64,
}

extern "C" {
    fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
}

const CLOCK_THREAD_CPUTIME_ID: i32 = 3;

fn thread_cpu() -> Duration {
    let mut ts = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a Linux constant.
    let r = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(r, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

static WALL: WallTime = WallTime;

impl Measurement for CpuTime {
    type Intermediate = Duration;
    type Value = Duration;
    fn start(&self) -> Duration {
        thread_cpu()
    }
    fn end(&self, i: Duration) -> Duration {
        thread_cpu().saturating_sub(i)
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, v: &Duration) -> f64 {
        v.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        WALL.formatter()
    }
}

fn bench<M: Measurement>(c: &mut Criterion<M>, group: &str) {
    let mut g = c.benchmark_group(group);
    g.measurement_time(Duration::from_secs(3));
    g.warm_up_time(Duration::from_secs(1));
    g.sample_size(20);
    for (dir, p) in GENS {
        let v = insns(dir, p);
        g.throughput(Throughput::Elements(v.len() as u64));
        g.bench_with_input(BenchmarkId::new("check_insn", dir), &v, |b, v| {
            b.iter(|| {
                let mut n = 0usize;
                for i in v {
                    n += check_insn(p, black_box(i)).len();
                }
                black_box(n)
            })
        });
        g.bench_with_input(BenchmarkId::new("checker", dir), &v, |b, v| {
            let mut ch = Checker::new();
            b.iter(|| {
                let mut n = 0usize;
                for i in v {
                    n += ch.check(p, black_box(i)).len();
                }
                black_box(n)
            })
        });
        g.bench_with_input(BenchmarkId::new("props_of", dir), &v, |b, v| {
            b.iter(|| {
                let mut n = 0i64;
                for i in v {
                    n += props_of(p, black_box(i)).exec_size;
                }
                black_box(n)
            })
        });
    }
    g.finish();
}

fn wall(c: &mut Criterion) {
    bench(c, "validate");
}

fn cpu(c: &mut Criterion<CpuTime>) {
    bench(c, "validate_cpu");
}

criterion_group!(benches, wall);
criterion_group! {
    name = cpu_benches;
    config = Criterion::default().with_measurement(CpuTime);
    targets = cpu
}
criterion_main!(benches, cpu_benches);
