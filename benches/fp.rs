//! Throughput of the fp core: `cargo bench --bench fp` (add
//! `--features oracles` to include Berkeley SoftFloat's f32/f64 add/mul via
//! softfloat-wrapper in the same report).
//!
//! Each benchmark runs one operation over a batch of `N` pre-generated
//! operand sets (random normal numbers spread over a moderate exponent
//! range, both signs) and reports elements per second. `fast` is the public
//! entry point in RTNE (fast path taken for these inputs); `exact` calls the
//! general path directly; `ru` is the public entry point in round-up
//! (which always takes the general path).

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use euref::fp::{self, Format, Hf, Round, F32, F64};
use std::time::Duration;

const N: usize = 4096;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Random normal numbers with exponents within +-16 of 1.0 (positive only
/// for sqrt inputs when `pos`).
fn inputs<F: Format>(seed: u64, pos: bool) -> Vec<u64> {
    let mut r = Rng(seed);
    (0..N)
        .map(|_| {
            let x = r.next();
            let e = (F::BIAS as u64 + (x >> 40) % 32).saturating_sub(16).max(1);
            let s = if pos { 0 } else { (x >> 63) << (F::BITS - 1) };
            s | (e << F::FRAC_BITS) | (x & F::FRAC_MASK)
        })
        .collect()
}

type Group<'a> = criterion::BenchmarkGroup<'a, criterion::measurement::WallTime>;

fn group<'a>(c: &'a mut Criterion, name: &str) -> Group<'a> {
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(N as u64));
    g
}

/// One binary-op benchmark; `f` is inlined into the loop.
fn run2<F: Format>(g: &mut Group, name: &str, f: impl Fn(u64, u64) -> u64) {
    let a = inputs::<F>(0x1234_5678_9ABC_DEF1, false);
    let b = inputs::<F>(0x0FED_CBA9_8765_4321, false);
    g.bench_function(BenchmarkId::from_parameter(name), |bch| {
        bch.iter(|| {
            let mut acc = 0u64;
            for i in 0..N {
                acc ^= f(black_box(a[i]), black_box(b[i]));
            }
            acc
        })
    });
}

fn run3<F: Format>(g: &mut Group, name: &str, f: impl Fn(u64, u64, u64) -> u64) {
    let a = inputs::<F>(1, false);
    let b = inputs::<F>(2, false);
    let d = inputs::<F>(3, false);
    g.bench_function(BenchmarkId::from_parameter(name), |bch| {
        bch.iter(|| {
            let mut acc = 0u64;
            for i in 0..N {
                acc ^= f(black_box(a[i]), black_box(b[i]), black_box(d[i]));
            }
            acc
        })
    });
}

fn run1<F: Format>(g: &mut Group, name: &str, f: impl Fn(u64) -> u64) {
    let a = inputs::<F>(7, true);
    g.bench_function(BenchmarkId::from_parameter(name), |bch| {
        bch.iter(|| {
            let mut acc = 0u64;
            for &x in &a {
                acc ^= f(black_box(x));
            }
            acc
        })
    });
}

macro_rules! bin3 {
    ($c:expr, $name:expr, $F:ty, $op:ident, $exact:ident) => {{
        let mut g = group($c, $name);
        run2::<$F>(&mut g, "fast", |x, y| fp::$op::<$F>(x, y, Round::Rtne).bits);
        run2::<$F>(&mut g, "exact", |x, y| {
            fp::$exact::<$F>(x, y, Round::Rtne).bits
        });
        run2::<$F>(&mut g, "ru", |x, y| fp::$op::<$F>(x, y, Round::Ru).bits);
        g
    }};
}

macro_rules! fma3 {
    ($c:expr, $name:expr, $F:ty) => {{
        let mut g = group($c, $name);
        run3::<$F>(&mut g, "fast", |x, y, z| {
            fp::fma::<$F>(x, y, z, Round::Rtne).bits
        });
        run3::<$F>(&mut g, "exact", |x, y, z| {
            fp::fma_exact::<$F>(x, y, z, Round::Rtne).bits
        });
        run3::<$F>(&mut g, "ru", |x, y, z| {
            fp::fma::<$F>(x, y, z, Round::Ru).bits
        });
        g
    }};
}

macro_rules! sqrt3 {
    ($c:expr, $name:expr, $F:ty) => {{
        let mut g = group($c, $name);
        run1::<$F>(&mut g, "fast", |x| fp::sqrt::<$F>(x, Round::Rtne).bits);
        run1::<$F>(&mut g, "exact", |x| {
            fp::sqrt_exact::<$F>(x, Round::Rtne).bits
        });
        run1::<$F>(&mut g, "ru", |x| fp::sqrt::<$F>(x, Round::Ru).bits);
        g
    }};
}

fn core_ops(c: &mut Criterion) {
    // SoftFloat (feature `oracles`) joins the add/mul/div/sqrt groups so the
    // comparison is in one report. softfloat-wrapper writes the
    // (thread-local) rounding mode before every operation; that is part of
    // its per-call cost.
    let mut g = bin3!(c, "f32_add", F32, add, add_exact);
    sf32(&mut g, "add");
    g.finish();
    let mut g = bin3!(c, "f64_add", F64, add, add_exact);
    sf64(&mut g, "add");
    g.finish();
    bin3!(c, "hf_add", Hf, add, add_exact).finish();
    let mut g = bin3!(c, "f32_mul", F32, mul, mul_exact);
    sf32(&mut g, "mul");
    g.finish();
    let mut g = bin3!(c, "f64_mul", F64, mul, mul_exact);
    sf64(&mut g, "mul");
    g.finish();
    fma3!(c, "f32_fma", F32).finish();
    fma3!(c, "f64_fma", F64).finish();
    let mut g = bin3!(c, "f32_div", F32, div, div_exact);
    sf32(&mut g, "div");
    g.finish();
    let mut g = bin3!(c, "f64_div", F64, div, div_exact);
    sf64(&mut g, "div");
    g.finish();
    let mut g = sqrt3!(c, "f32_sqrt", F32);
    sf32(&mut g, "sqrt");
    g.finish();
    let mut g = sqrt3!(c, "f64_sqrt", F64);
    sf64(&mut g, "sqrt");
    g.finish();

    let mut g = group(c, "conv");
    run1::<F64>(&mut g, "df_to_f_rtne", |x| {
        fp::convert::<F64, F32>(x, Round::Rtne).bits
    });
    run1::<F64>(&mut g, "df_to_f_rtz", |x| {
        fp::convert::<F64, F32>(x, Round::Rtz).bits
    });
    run1::<F32>(&mut g, "f_to_hf_rtne", |x| {
        fp::convert::<F32, Hf>(x >> 9, Round::Rtne).bits
    });
    run1::<F32>(&mut g, "f_to_df", |x| {
        fp::convert::<F32, F64>(x, Round::Rtne).bits
    });
    run1::<F64>(&mut g, "rndd_df", |x| {
        fp::round_to_integral::<F64>(x, Round::Rd).bits
    });
    run1::<F64>(&mut g, "df_to_i64_trunc", |x| {
        match fp::to_i64_trunc::<F64>(x) {
            fp::ToInt::Value(v) => v as u64,
            _ => 1,
        }
    });
    run1::<F64>(&mut g, "i64_to_f_rtne", |x| {
        fp::from_i64::<F32>(x as i64, Round::Rtne).bits
    });
    g.finish();

    let mut g = group(c, "dispatch");
    run2::<F32>(&mut g, "fmt_f_add", |x, y| {
        fp::Fmt::F.add(x, y, Round::Rtne).bits
    });
    run2::<F64>(&mut g, "fmt_df_fma", |x, y| {
        fp::Fmt::Df.fma(x, y, x, Round::Rtne).bits
    });
    g.finish();
}

/// SoftFloat's `op` on F32 in the same group (feature `oracles`).
#[cfg(feature = "oracles")]
fn sf32(g: &mut Group, op: &str) {
    use softfloat_wrapper::{Float, RoundingMode, F32 as S};
    let rne = RoundingMode::TiesToEven;
    let a = inputs::<F32>(0x1234_5678_9ABC_DEF1, op == "sqrt");
    let b = inputs::<F32>(0x0FED_CBA9_8765_4321, false);
    fn run(g: &mut Group, a: &[u64], b: &[u64], f: impl Fn(S, S) -> S) {
        g.bench_function(BenchmarkId::from_parameter("softfloat"), |bch| {
            bch.iter(|| {
                let mut acc = 0u64;
                for i in 0..N {
                    let r = f(
                        S::from_bits(black_box(a[i]) as u32),
                        S::from_bits(black_box(b[i]) as u32),
                    );
                    acc ^= r.to_bits() as u64;
                }
                acc
            })
        });
    }
    match op {
        "add" => run(g, &a, &b, |x, y| x.add(y, rne)),
        "mul" => run(g, &a, &b, |x, y| x.mul(y, rne)),
        "div" => run(g, &a, &b, |x, y| x.div(y, rne)),
        _ => run(g, &a, &b, |x, _| x.sqrt(rne)),
    }
}

/// SoftFloat's `op` on F64 in the same group (feature `oracles`).
#[cfg(feature = "oracles")]
fn sf64(g: &mut Group, op: &str) {
    use softfloat_wrapper::{Float, RoundingMode, F64 as S};
    let rne = RoundingMode::TiesToEven;
    let a = inputs::<F64>(0x1234_5678_9ABC_DEF1, op == "sqrt");
    let b = inputs::<F64>(0x0FED_CBA9_8765_4321, false);
    fn run(g: &mut Group, a: &[u64], b: &[u64], f: impl Fn(S, S) -> S) {
        g.bench_function(BenchmarkId::from_parameter("softfloat"), |bch| {
            bch.iter(|| {
                let mut acc = 0u64;
                for i in 0..N {
                    let r = f(S::from_bits(black_box(a[i])), S::from_bits(black_box(b[i])));
                    acc ^= r.to_bits();
                }
                acc
            })
        });
    }
    match op {
        "add" => run(g, &a, &b, |x, y| x.add(y, rne)),
        "mul" => run(g, &a, &b, |x, y| x.mul(y, rne)),
        "div" => run(g, &a, &b, |x, y| x.div(y, rne)),
        _ => run(g, &a, &b, |x, _| x.sqrt(rne)),
    }
}

#[cfg(not(feature = "oracles"))]
fn sf32(_g: &mut Group, _op: &str) {}
#[cfg(not(feature = "oracles"))]
fn sf64(_g: &mut Group, _op: &str) {}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30)
}

criterion_group! {
    name = benches;
    config = config();
    targets = core_ops
}
criterion_main!(benches);
