//! Kernels through the dispatch runner (issue 30): random programs of register fills and
//! sends with random descriptors (every shared function, binding-table index, length, header
//! bit and execution size), on every platform, run as two work groups of two threads against
//! surfaces, SLM and an A64 buffer, strict and lenient, traced or not. What must hold on any
//! kernel: no panic, every thread ends (EOT, the end of the image, or an error naming where),
//! error messages fit for a terminal, and the same result with the trace on as off.

use crate::mutate::{self, fit_for_terminal, no_panic, Rng};
use euref::asm::{self, Dialect};
use euref::dispatch::run::{run, RunOptions, ThreadEnd};
use euref::dispatch::trace::TraceItem;
use euref::dispatch::Dispatch;
use euref::spec::Platform;
use euref::thread::Image;

/// Register values: offsets inside and outside the buffers, the A64 buffer's address,
/// alignment edges, and random bits.
fn value(r: &mut Rng) -> u32 {
    match r.below(8) {
        0 => 0,
        1 => 4 * r.below(80) as u32,
        2 => 0x1000 + 4 * r.below(80) as u32,
        3 => r.pick(&[1, 3, 15, 16, 255, 256, 0xffff_fff0, u32::MAX]),
        4 => 16 * r.below(20) as u32,
        _ => r.next() as u32,
    }
}

/// Sends the runner executes (SFID, descriptor; from the dispatch and run tests): DC1
/// untyped read/write/atomic on surfaces, SLM and stateless indices, A64 scattered, untyped
/// and atomic, DC0 byte and dword scattered, the fence and the gateway barrier.
const KNOWN: &[(u32, u32)] = &[
    (0xc, 0x2106e03),
    (0xc, 0x60a6eff),
    (0xc, 0x6066eff),
    (0xa, 0x60b00ff),
    (0xa, 0x2110003),
    (0xc, 0x60680ff),
    (0xc, 0x410b703),
    (0xc, 0x40d42fd),
    (0xc, 0x4026eff),
    (0xc, 0x4026e03),
    (0xc, 0x2106efe),
    (0xa, 0x60ac2ff),
    (0xa, 0x2110403),
    (0x3, 0x2000002),
    (0xc, 0x618b7ff),
    (0xc, 0x4186eff),
    (0xc, 0x416f102),
    (0xc, 0x4146eff),
    (0xc, 0x41400ff),
    (0xc, 0x4115e02),
    (0xc, 0x2206c03),
    (0xc, 0x21d02ff),
    (0xa, 0x60b04ff),
    (0xa, 0x41900ff),
    (0xa, 0x418c2ff),
    (0xa, 0x4030003),
    (0xa, 0x402c202),
    (0xa, 0x2210003),
    (0xa, 0x2190003),
    (0xa, 0x21100fe),
    (0xa, 0x210c202),
];

/// A random send: its SFID and descriptor. Mostly a known one, half of those with one to
/// three bits flipped; sometimes any SFID with random bits.
fn descriptor(r: &mut Rng) -> (u32, u32) {
    if r.below(8) == 0 {
        return (
            r.pick(&[2u32, 3, 5, 7, 9, 10, 12]),
            r.next() as u32 & 0x1fff_ffff,
        );
    }
    let (sfid, mut desc) = r.pick(KNOWN);
    if r.bool() {
        for _ in 0..1 + r.below(3) {
            desc ^= 1 << r.below(29);
        }
    }
    (sfid, desc)
}

/// A kernel: fills of r2-r31 (some left undefined), random sends, an end of thread.
fn kernel(r: &mut Rng, p: Platform) -> String {
    let mut text = String::new();
    for n in 2..32 {
        if r.below(5) != 0 {
            let v = value(r);
            text.push_str(&format!("mov (8|M0) r{n}.0<1>:ud 0x{v:x}:ud\n"));
        }
    }
    for _ in 0..1 + r.below(6) {
        let exec = r.pick(&[1u32, 8, 8, 8, 16]);
        let (dst, src) = (2 + r.below(28), 2 + r.below(28));
        let (sfid, desc) = descriptor(r);
        if p == Platform::Skl && r.below(3) == 0 {
            let ex = (r.below(4) as u32) << 6;
            let src1 = 2 + r.below(28);
            text.push_str(&format!(
                "sends ({exec}|M0) r{dst} r{src} r{src1} 0x{ex:x} 0x{desc:x}\n"
            ));
        } else {
            text.push_str(&format!(
                "send ({exec}|M0) r{dst} r{src} 0x{sfid:x} 0x{desc:x}\n"
            ));
        }
    }
    text.push_str("send (8|M0) null r0 0x27 0x2000010 {EOT}\n");
    text
}

const DESC: &str = r#"{"platform": "P", "simd": 8, "local_size": [16, 1, 1],
 "work_groups": [2, 1, 1],
 "surfaces": [{"bti": 1, "size": 64, "init": {"fill": 7}}, {"bti": 2, "size": 256}],
 "a64_buffers": [{"address": "0x1000", "size": 320}],
 "slm_size": 256}"#;

/// What one kernel reached: not assembled (0), ran (1); and the sends that executed.
fn one(r: &mut Rng) -> Result<(u32, u64), String> {
    let p = r.pick(&[Platform::Ivb, Platform::Hsw, Platform::Bdw, Platform::Skl]);
    let text = kernel(r, p);
    let prog = match asm::parse(text.as_bytes(), Some(Dialect::Iga), p) {
        Ok(prog) => prog,
        Err(e) => return Err(format!("a generated kernel does not assemble: {e}\n{text}")),
    };
    let Ok(image) = Image::from_insns(p, &prog.insns, 0) else {
        return Ok((0, 0));
    };
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let d = Dispatch::parse(
        &DESC.replace("\"P\"", &format!("\"{}\"", p.name())),
        dir.path(),
    )
    .map_err(|e| format!("the description: {e}"))?;
    let mut o = RunOptions {
        max_steps: 1000,
        ..RunOptions::default()
    };
    o.exec.strict = r.bool();
    let input = text.as_bytes();
    let plain = no_panic("dispatch::run", input, || run(&d, &image, &o))
        .map_err(|e| format!("setup refused: {e}"))?;
    for t in &plain.threads {
        if let ThreadEnd::Error { message, .. } = &t.end {
            fit_for_terminal(message)?;
        }
    }
    o.trace = true;
    let traced = no_panic("dispatch::run traced", input, || run(&d, &image, &o))
        .map_err(|e| format!("setup refused: {e}"))?;
    let _ = no_panic("dispatch::trace::text", input, || {
        euref::dispatch::trace::text(traced.trace.as_deref().unwrap_or(&[]))
    });
    if traced.threads != plain.threads || traced.buffers != plain.buffers {
        return Err(format!(
            "tracing changed the result of\n{text}\n{:?}\n{:?}",
            plain.threads, traced.threads
        ));
    }
    // Sends that executed: the trace's message reports.
    let sends = traced.trace.as_deref().map_or(0, |t| {
        t.iter()
            .filter(|i| {
                matches!(i, TraceItem::Step { message: Some(m), .. } if !m.name.starts_with("spawner"))
            })
            .count() as u64
    });
    Ok((1, sends))
}

fn run_many(iters: u64, seed: u64) {
    let mut r = Rng(seed);
    let (mut ran, mut sends) = (0, 0);
    for i in 0..iters {
        match one(&mut r) {
            Ok((k, s)) => {
                ran += u64::from(k);
                sends += s;
            }
            Err(e) => panic!("kernel {i} (seed {seed:#x}): {e}"),
        }
    }
    eprintln!("fuzz_kernels: {ran} of {iters} kernels ran, {sends} messages executed");
    // A run that reaches nothing proves nothing: most kernels encode and run, and messages
    // execute (300 of 1 000 and one per 20 kernels are far below what the generator gives).
    assert!(
        3 * ran >= iters && 20 * sends >= iters,
        "{ran} kernels ran, {sends} messages"
    );
}

#[test]
fn random_kernels_run_to_an_end() {
    run_many(1000, 0x5e4d_0001);
}

/// The long run (tests/fuzz/main.rs).
#[test]
#[ignore]
fn long_random_kernels_run_to_an_end() {
    run_many(
        mutate::long_iters(1_000_000) / 100,
        mutate::long_seed(0x5e4d_0001),
    );
}
