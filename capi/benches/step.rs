//! The cost of one step through the C interface against the in-Rust step (issue 32): a SIMD16
//! float `mad` on Skylake, stepped with `euref_step` and its writes read with
//! `euref_step_write`, and with `Thread::step` on the same program and state, in one run.
//! The program is 1024 copies of the mad; the thread is set up again (outside the timing)
//! when it reaches the end. Goal: the C step within 2x of the Rust step.
//!
//! `cargo bench -p euref-capi --bench step`

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use euref::exec::ExecOptions;
use euref::spec::Platform;
use euref::state::ThreadState;
use euref::thread::{Image, Thread};
use euref_capi::*;
use std::time::{Duration, Instant};

const COPIES: u64 = 1024;
const MAD: &str = "mad (16|M0) r18.0<1>:f r16.0<4>:f r12.0<4>:f r14.0<4>:f {Align16}";

/// The program bytes: COPIES mads.
fn program() -> Vec<u8> {
    let text = vec![MAD; COPIES as usize].join("\n");
    let prog = euref::asm::parse(text.as_bytes(), None, Platform::Skl).expect("parses");
    Image::from_insns(Platform::Skl, &prog.insns, 0)
        .expect("encodes")
        .bytes()
        .to_vec()
}

/// r12..r17: the mad's sources, defined floats (1.5, 2.0, 0.25 per channel pair).
fn sources() -> Vec<(u32, [u8; 32])> {
    [
        (12, 1.5f32),
        (13, 1.5),
        (14, 2.0),
        (15, 2.0),
        (16, 0.25),
        (17, 0.25),
    ]
    .into_iter()
    .map(|(r, v)| {
        let mut b = [0u8; 32];
        for c in b.chunks_mut(4) {
            c.copy_from_slice(&v.to_le_bytes());
        }
        (r, b)
    })
    .collect()
}

fn bench(c: &mut Criterion) {
    let bytes = program();
    let mut g = c.benchmark_group("step_simd16_mad");

    // In Rust: Thread::step on a predecoded image (as euref_load_program prepares it).
    let mut init = ThreadState::new(Platform::Skl);
    for (r, b) in sources() {
        init.write_grf_bytes(r as usize * 32, &b).unwrap();
    }
    let mut image = Image::new(Platform::Skl, bytes.clone(), 0);
    image.predecode();
    let opts = ExecOptions {
        strict: true,
        ..ExecOptions::default()
    };
    g.bench_function("rust_thread_step", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut left = iters;
            while left > 0 {
                let mut st = init.clone();
                let mut th = Thread::new(image.clone(), &mut st).unwrap();
                let k = left.min(COPIES);
                let t0 = Instant::now();
                for _ in 0..k {
                    black_box(th.step(&mut st, &opts).unwrap());
                }
                total += t0.elapsed();
                left -= k;
            }
            total
        })
    });

    // Through the C ABI: euref_step and every write of the step read with euref_step_write.
    let t = unsafe { euref_thread_new(c"skl".as_ptr()) };
    assert!(!t.is_null());
    for (r, b) in sources() {
        assert_eq!(unsafe { euref_set_grf(t, r, b.as_ptr()) }, EUREF_OK);
    }
    g.bench_function("c_abi_euref_step", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut left = iters;
            while left > 0 {
                assert_eq!(
                    unsafe { euref_load_program(t, bytes.as_ptr(), bytes.len()) },
                    EUREF_OK
                );
                let k = left.min(COPIES);
                let mut info = euref_step_info::default();
                let mut w = euref_write::default();
                let t0 = Instant::now();
                for _ in 0..k {
                    let rc = unsafe { euref_step(t, &mut info) };
                    debug_assert_eq!(rc, EUREF_OK);
                    for i in 0..info.n_writes {
                        unsafe { euref_step_write(t, i, &mut w) };
                        black_box(&w);
                    }
                }
                total += t0.elapsed();
                left -= k;
            }
            total
        })
    });
    g.finish();
    unsafe { euref_thread_free(t) };
}

criterion_group!(benches, bench);
criterion_main!(benches);
