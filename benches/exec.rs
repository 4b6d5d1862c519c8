//! Issue 4 benchmark: `cargo bench --bench exec` (add `-- --quick` for a short run).
//!
//! `exec_single`: the cost of executing one instruction, for the representative cases of
//! `benches/common/exec_cases.rs` (integer add, float add, float mad, math, cmp writing a
//! flag), each executed as `euref sim` does (`step`: operands resolved per execution) and as
//! `euref golden` does (`prepared`: resolved once); instructions/s
//! (`examples/exec_profile.rs` counts the same executions under callgrind).
//!
//! A long straight-line SIMD16 F `mad` program executed by `euref::exec` on a ThreadState
//! (operands resolved once, `exec::Prepared`), next to a plain Rust loop doing the same
//! arithmetic (one `f32::mul_add` per channel) on the same 4 KB register array. Both report
//! channel-ops/s (criterion `Throughput::Elements`). The ratio is printed at the end from
//! paired passes: while criterion times the euref passes, each is followed by a plain-loop pass
//! timed alike, so both sides of the ratio see the same machine load. Before measuring, one pass of
//! each is checked to give bit-identical registers.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use euref::asm::{parse_insn, Dialect};
use euref::exec::{self, ExecOptions, Prepared};
use euref::spec::Platform;
use euref::state::ThreadState;
use std::cell::Cell;
use std::time::{Duration, Instant};

/// Instructions in the program.
const COUNT: usize = 2000;

/// The GRF register (even, the first of a pair) of operand `k` of instruction `i`: the
/// destination and src0 in r0-r63 (a chain of dependent values), src1 and src2 in r64-r127
/// (constants never written, magnitudes <= 0.375), so the values stay finite and normal
/// however many passes run (a program that overflows to inf/NaN measures the special-value
/// paths instead of the arithmetic).
fn reg(i: usize, k: usize) -> usize {
    let base = if k < 2 { 0 } else { 64 };
    base + 2 * ((i * 7 + k * 13) % 32)
}

struct Setup {
    start: ThreadState,
    prepared: Vec<Prepared>,
    /// Per instruction, the f32 indices of dst, src0, src1, src2 in the 1024-element array.
    idx: Vec<[usize; 4]>,
}

fn setup() -> Setup {
    let p = Platform::Skl;
    let mut st = ThreadState::zeroed(p);
    for o in (0..st.grf_size()).step_by(4) {
        let v = if o < 64 * 32 {
            1.0f32 + (o % 97) as f32 / 1024.0
        } else {
            ((o % 97) as f32 - 48.0) / 128.0
        };
        st.write_grf(o, 4, u64::from(v.to_bits()), false)
            .expect("GRF write");
    }
    let prepared = (0..COUNT)
        .map(|i| {
            let t = format!(
                "mad (16|M0) r{}.0<1>:f r{}.0<4;4,1>:f r{}.0<4;4,1>:f r{}.0<4;4,1>:f",
                reg(i, 0),
                reg(i, 1),
                reg(i, 2),
                reg(i, 3)
            );
            let insn = parse_insn(&t, Dialect::Iga, p).expect("benchmark instruction");
            Prepared::new(&st, insn)
        })
        .collect();
    let idx = (0..COUNT)
        .map(|i| [0, 1, 2, 3].map(|k| 8 * reg(i, k)))
        .collect();
    Setup {
        start: st,
        prepared,
        idx,
    }
}

fn model_pass(st: &mut ThreadState, prepared: &[Prepared], opts: &ExecOptions) {
    for i in prepared {
        exec::step_prepared(st, i, opts).expect("mad executes");
    }
}

fn loop_pass(grf: &mut [f32; 1024], idx: &[[usize; 4]]) {
    for &[d, a, b, c] in idx {
        for ch in 0..16 {
            // mad dst = src0 + src1 * src2; SIMD16 <4;4,1> reads element ch of the pair.
            grf[d + ch] = grf[b + ch].mul_add(grf[c + ch], grf[a + ch]);
        }
    }
}

fn initial_array(st: &ThreadState) -> [f32; 1024] {
    let mut grf = [0f32; 1024];
    for (k, v) in grf.iter_mut().enumerate() {
        *v = f32::from_bits(st.read_grf(4 * k, 4).expect("GRF read").0 as u32);
    }
    grf
}

fn bench(c: &mut Criterion) {
    let s = setup();
    let opts = ExecOptions::default();
    // Same arithmetic, bit for bit (the values stay normal: no flush differences).
    {
        let mut st = s.start.clone();
        let mut grf = initial_array(&s.start);
        for _ in 0..50 {
            model_pass(&mut st, &s.prepared, &opts);
            loop_pass(&mut grf, &s.idx);
        }
        assert!(
            grf.iter().all(|x| x.is_normal() || *x == 0.0),
            "values left the normal range"
        );
        let same = (0..1024)
            .all(|k| st.read_grf(4 * k, 4).expect("GRF read").0 as u32 == grf[k].to_bits());
        assert!(same, "euref and the plain loop disagree");
    }
    let per_pass = (COUNT * 16) as u64;
    let mut g = c.benchmark_group("exec_mad_simd16");
    g.throughput(Throughput::Elements(per_pass));
    // For the ratio: each euref pass that criterion times is followed by a plain-loop pass
    // timed the same way, so both see the same machine load (the machine may be shared).
    let model_t = Cell::new((Duration::ZERO, 0u64));
    let loop_t = Cell::new((Duration::ZERO, 0u64));
    g.bench_function("euref", |bch| {
        bch.iter_custom(|iters| {
            let mut st = s.start.clone();
            let mut grf = initial_array(&s.start);
            let (mut dm, mut dl) = (Duration::ZERO, Duration::ZERO);
            for _ in 0..iters {
                let t0 = Instant::now();
                model_pass(&mut st, &s.prepared, &opts);
                let t1 = Instant::now();
                loop_pass(&mut grf, &s.idx);
                black_box(&mut grf);
                dm += t1 - t0;
                dl += t1.elapsed();
            }
            black_box(&st);
            let (d, n) = model_t.get();
            model_t.set((d + dm, n + iters));
            let (d, n) = loop_t.get();
            loop_t.set((d + dl, n + iters));
            dm
        })
    });
    g.bench_function("plain_loop", |bch| {
        bch.iter_custom(|iters| {
            let mut grf = initial_array(&s.start);
            let t0 = Instant::now();
            for _ in 0..iters {
                loop_pass(&mut grf, &s.idx);
                black_box(&mut grf);
            }
            t0.elapsed()
        })
    });
    g.finish();
    let rate = |(d, n): (Duration, u64)| (n * per_pass) as f64 / d.as_secs_f64().max(1e-12);
    let (m, l) = (rate(model_t.get()), rate(loop_t.get()));
    println!(
        "exec_mad_simd16 (paired passes): euref {:.3e} channel-ops/s, plain loop {:.3e} channel-ops/s, euref is {:.1}x slower",
        m,
        l,
        l / m
    );
}

#[path = "common/exec_cases.rs"]
mod cases;

fn bench_single(c: &mut Criterion) {
    let opts = ExecOptions::default();
    let mut g = c.benchmark_group("exec_single");
    g.throughput(Throughput::Elements(1));
    for (name, text) in cases::CASES {
        let mut st = cases::state();
        let insn = cases::insn(text);
        let pre = cases::prepared(&st, text);
        g.bench_function(format!("{name}/step"), |b| {
            b.iter(|| exec::step_with(&mut st, black_box(&insn), &opts).expect("executes"))
        });
        g.bench_function(format!("{name}/prepared"), |b| {
            b.iter(|| exec::step_prepared(&mut st, black_box(&pre), &opts).expect("executes"))
        });
    }
    g.finish();
}

criterion_group!(benches, bench, bench_single);
criterion_main!(benches);
