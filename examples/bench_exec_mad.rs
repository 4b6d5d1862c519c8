//! Issue 4 benchmark: a long straight-line SIMD16 F `mad` program executed by `euref::exec`,
//! reported as channel-ops/s next to a plain Rust loop doing the same arithmetic (a fused
//! multiply-add per channel) on the same 4 KB register array, in one run.
//!
//! `cargo run --release --example bench_exec_mad [instructions] [passes]`

use euref::asm::{parse_insn, Dialect};
use euref::exec::{self, ExecOptions, Prepared};
use euref::isa::Insn;
use euref::spec::Platform;
use euref::state::ThreadState;
use std::time::Instant;

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let count = args.first().copied().unwrap_or(2000);
    let int_mode = std::env::var("EUREF_BENCH_INT").is_ok();
    // EUREF_BENCH_SIDE=model|loop runs one side only (for `perf stat` instruction counts).
    let side = std::env::var("EUREF_BENCH_SIDE").unwrap_or_default();
    let passes = args.get(1).copied().unwrap_or(20);
    let p = Platform::Skl;
    // The program: mad (16) rD rA rB rC over r0-r127, destinations and sources spread over the
    // whole GRF (every operand a register pair).
    let prog: Vec<Insn> = (0..count)
        .map(|i| {
            let r = |k: usize| (2 * ((i * 7 + k * 13) % 64)) as u32;
            let t = if int_mode {
                format!(
                    "add (16|M0) r{}.0<1>:d r{}.0<8;8,1>:d r{}.0<8;8,1>:d",
                    r(0),
                    r(1),
                    r(2)
                )
            } else {
                format!(
                    "mad (16|M0) r{}.0<1>:f r{}.0<4;4,1>:f r{}.0<4;4,1>:f r{}.0<4;4,1>:f",
                    r(0),
                    r(1),
                    r(2),
                    r(3)
                )
            };
            parse_insn(&t, Dialect::Iga, p).expect("benchmark instruction")
        })
        .collect();
    let mut st = ThreadState::zeroed(p);
    for o in (0..st.grf_size()).step_by(4) {
        let v = 1.0f32 + (o % 97) as f32 / 1024.0;
        st.write_grf(o, 4, u64::from(v.to_bits()), false).unwrap();
    }
    let start = st.clone();
    // Operand addresses resolved once per instruction (exec::Prepared).
    let prepared: Vec<Prepared> = prog.iter().map(|i| Prepared::new(&st, i.clone())).collect();
    let opts = ExecOptions::default();

    let idx: Vec<[usize; 4]> = (0..count)
        .map(|i| {
            let r = |k: usize| 16 * ((i * 7 + k * 13) % 64);
            [r(0), r(1), r(2), r(3)]
        })
        .collect();
    let mut grf = [0f32; 1024];
    // Several rounds, alternating the two sides; the fastest round of each counts (the machine
    // may be shared).
    let (mut dt_model, mut dt_loop) = (f64::MAX, f64::MAX);
    for _ in 0..5 {
        st = start.clone();
        let t0 = Instant::now();
        for _ in 0..if side == "loop" { 0 } else { passes } {
            for i in &prepared {
                exec::step_prepared(&mut st, i, &opts).expect("mad executes");
            }
        }
        dt_model = dt_model.min(t0.elapsed().as_secs_f64());

        // The plain loop: the same fused multiply-adds on the same 4 KB array.
        for (k, v) in grf.iter_mut().enumerate() {
            let (b, _) = start.read_grf(4 * k, 4).unwrap();
            *v = f32::from_bits(b as u32);
        }
        let t1 = Instant::now();
        for _ in 0..if side == "model" { 0 } else { passes } {
            for [d, a, b, c] in &idx {
                for ch in 0..16 {
                    // SIMD16 <4;4,1> sources: channel ch reads element ch of the register pair.
                    let v = grf[*b + ch].mul_add(grf[*c + ch], grf[*a + ch]);
                    grf[*d + ch] = v;
                }
            }
            std::hint::black_box(&mut grf);
        }
        dt_loop = dt_loop.min(t1.elapsed().as_secs_f64());
    }
    let ops = (count * passes * 16) as f64;

    // Same results (bit for bit; the model flushes denormals, which these values never reach).
    let same = (0..1024).all(|k| st.read_grf(4 * k, 4).unwrap().0 as u32 == grf[k].to_bits());
    println!("instructions {count} x {passes} passes, SIMD16: {ops:.0} channel-ops");
    println!(
        "euref exec : {:>12.0} channel-ops/s ({dt_model:.3} s)",
        ops / dt_model
    );
    println!(
        "plain loop : {:>12.0} channel-ops/s ({dt_loop:.3} s)",
        ops / dt_loop
    );
    println!(
        "ratio      : {:.1}x slower; results identical: {same}",
        dt_model / dt_loop
    );
}
