//! Inexact marks through memory (spec/memory.toml mem.inexact, spec/math.toml math.inexact):
//! a message with an inexact payload byte stores inexact bytes, one with an exact payload
//! stores exact bytes (an overwrite clears the mark), a read of an inexact byte makes its
//! response registers inexact; the dispatch result, `euref run --dispatch` (text and JSON)
//! and the corpus kernel float_math show the marks.
//!
//! The expected marks follow from the rows: math.inexact marks a math result whose function
//! row has a bound (ulps or abs_error > 0, no [[special]] row) and everything computed from
//! it; mem.inexact marks per message.

use euref::asm::{self, Dialect};
use euref::dispatch::run::{run, BufferKind, BufferResult, RunOptions, RunResult, ThreadEnd};
use euref::dispatch::{corpus, Dispatch};
use euref::exec::ExecOptions;
use euref::math::MathFn;
use euref::memory::{Memory, Place, Surface};
use euref::spec::Platform;
use euref::state::ThreadState;
use euref::thread::{Image, Thread};
use serde_json::Value;

const P: Platform = Platform::Skl;

/// Whether the row of math function `f` (F type) bounds it, so that math.inexact marks its
/// results (the inputs used below hit no [[special]] row: finite, non-zero, not 1).
fn bounded(f: MathFn) -> bool {
    let row = euref::spec::math::func(f, P).expect("row");
    row.ulps > 0.0 || row.abs_error > 0.0
}

/// SIMD8 on BTI 3: lane l has r2 = 4l (byte offsets) and r5 = 32 + 4l; r4 = inv(l + 2) (an
/// approximate result), r6 = 100 + l (exact).
/// - DC1 untyped write (SIMD8, channel R: 0x2026E03, ExDesc 0x4C) of r4 at r2: dwords 0-7;
/// - the same message of r6 at r5: dwords 8-15;
/// - DC1 untyped read (SIMD8, channel R, mlen 1, rlen 1: 0x2106E03) of dwords 0-7 into r7,
///   and r8 = r7 + 1.0.
const STORE_AND_LOAD: &[&str] = &[
    "mov (8|M0) r10.0<1>:uw 0x76543210:uv",
    "mov (8|M0) r11.0<1>:ud r10.0<8;8,1>:uw",
    "shl (8|M0) r2.0<1>:ud r11.0<8;8,1>:ud 0x2:ud",
    "add (8|M0) r5.0<1>:ud r2.0<8;8,1>:ud 0x20:ud",
    "mov (8|M0) r3.0<1>:f r11.0<8;8,1>:ud",
    "add (8|M0) r3.0<1>:f r3.0<8;8,1>:f 2.0:f",
    "math.inv (8|M0) r4.0<1>:f r3.0<8;8,1>:f null:f",
    "add (8|M0) r6.0<1>:ud r11.0<8;8,1>:ud 0x64:ud",
    "sends (8|M0) null r2 r4 0x4C 0x2026E03",
    "sends (8|M0) null r5 r6 0x4C 0x2026E03",
    "send (8|M0) r7 r2 0xC 0x2106E03",
    "add (8|M0) r8.0<1>:f r7.0<8;8,1>:f 1.0:f",
];

/// The write of the exact r6 over dwords 0-7.
const OVERWRITE: &[&str] = &["sends (8|M0) null r2 r6 0x4C 0x2026E03"];

const SURFACE: Surface = Surface {
    base: 0x1_0000,
    size: 64,
};

fn image(lines: &[&str]) -> Image {
    let text = lines.join("\n") + "\n";
    let prog = asm::parse(text.as_bytes(), Some(Dialect::Iga), P).expect("assembles");
    Image::from_insns(P, &prog.insns, 0).expect("encodes")
}

fn run_thread(st: &mut ThreadState, mem: &mut Memory, lines: &[&str]) {
    let mut t = Thread::new(image(lines), st).expect("thread");
    t.run_with_memory(st, &ExecOptions::default(), 100, mem)
        .expect("runs");
}

/// The inexact flags of the surface's dwords (a dword: any of its bytes).
fn dword_marks(mem: &Memory) -> Vec<bool> {
    mem.inexact(Place::Flat(SURFACE.base), SURFACE.size as usize)
        .chunks(4)
        .map(|c| c.contains(&true))
        .collect()
}

fn grf_marks(st: &ThreadState, reg: usize) -> Vec<bool> {
    let rb = st.grf_reg_bytes();
    (reg * rb..(reg + 1) * rb)
        .map(|b| st.grf_byte_inexact(b))
        .collect()
}

#[test]
fn a_stored_math_result_stays_inexact_through_memory() {
    assert!(
        bounded(MathFn::Inv),
        "math.inv.f has a bound: its results are inexact"
    );
    let mut st = ThreadState::zeroed(P);
    let mut mem = Memory::new();
    mem.bind(3, SURFACE);
    run_thread(&mut st, &mut mem, STORE_AND_LOAD);
    // The values went through memory unchanged.
    let got = mem.read(Place::Flat(SURFACE.base + 32), 4);
    assert_eq!(got, 100u32.to_le_bytes().map(Some));
    // mem.inexact: the first write's payload (r4, the inv results) is inexact: dwords 0-7
    // are; the second's (r6) is exact: dwords 8-15 are not.
    let mut want = vec![true; 8];
    want.extend([false; 8]);
    assert_eq!(dword_marks(&mem), want);
    // The read met inexact bytes: its response r7 is inexact, and so is r8 computed from it
    // (math.inexact); the exact source r6 stays exact.
    assert_eq!(grf_marks(&st, 7), vec![true; 32]);
    assert_eq!(grf_marks(&st, 8), vec![true; 32]);
    assert_eq!(grf_marks(&st, 6), vec![false; 32]);
    // An exact value stored over them clears the mark.
    run_thread(&mut st, &mut mem, OVERWRITE);
    assert_eq!(dword_marks(&mem), vec![false; 16]);
}

/// A read of exact bytes gives exact registers even when other memory bytes are inexact.
#[test]
fn a_read_of_exact_bytes_is_exact() {
    let mut st = ThreadState::zeroed(P);
    let mut mem = Memory::new();
    mem.bind(3, SURFACE);
    run_thread(&mut st, &mut mem, STORE_AND_LOAD);
    // Read dwords 8-15 (exact) into r9.
    run_thread(&mut st, &mut mem, &["send (8|M0) r9 r5 0xC 0x2106E03"]);
    assert_eq!(
        mem.read(Place::Flat(SURFACE.base + 32), 4),
        100u32.to_le_bytes().map(Some)
    );
    assert_eq!(grf_marks(&st, 9), vec![false; 32]);
}

/// An untyped atomic add (SIMD8, returning the old value: 0x410B703, mlen 2 = addresses and
/// the operand 1, rlen 1) with an exact payload: on dwords 0-7 (inexact) it reads an inexact
/// byte before it writes, so the new values and the returned old ones are inexact
/// (mem.inexact); on dwords 8-15 (exact) both stay exact.
#[test]
fn an_atomic_on_inexact_memory_stays_inexact() {
    let mut st = ThreadState::zeroed(P);
    let mut mem = Memory::new();
    mem.bind(3, SURFACE);
    run_thread(&mut st, &mut mem, STORE_AND_LOAD);
    run_thread(
        &mut st,
        &mut mem,
        &[
            "mov (8|M0) r14.0<1>:ud r2.0<8;8,1>:ud",
            "mov (8|M0) r15.0<1>:ud 0x1:ud",
            "send (8|M0) r13 r14 0xC 0x410B703",
            "mov (8|M0) r14.0<1>:ud r5.0<8;8,1>:ud",
            "send (8|M0) r16 r14 0xC 0x410B703",
        ],
    );
    assert!(!st.grf_range_inexact(15 * 32, 32), "the operand is exact");
    let mut want = vec![true; 8];
    want.extend([false; 8]);
    assert_eq!(dword_marks(&mem), want);
    assert_eq!(grf_marks(&st, 13), vec![true; 32]);
    assert_eq!(grf_marks(&st, 16), vec![false; 32]);
    // The exact dwords were added to: 100 + 1 at dword 8.
    assert_eq!(
        mem.read(Place::Flat(SURFACE.base + 32), 4),
        101u32.to_le_bytes().map(Some)
    );
}

/// The same kernel as a dispatch: dwords 0-7 inv results, 8-15 exact, 16-23 r8 (read + 1).
const DISPATCH_JSON: &str = r#"{"kernel": {"file": "k.asm"}, "platform": "skl", "simd": 8,
 "local_size": [8, 1, 1], "work_groups": [1, 1, 1],
 "surfaces": [{"bti": 3, "size": 96, "dtype": "float32"},
              {"bti": 4, "size": 32, "dtype": "uint32", "init": {"dtype": "uint32", "values": [1, 2, 3, 4, 5, 6, 7, 8]}}]}"#;

fn dispatch_kernel() -> String {
    let mut lines = STORE_AND_LOAD.to_vec();
    lines.extend([
        "add (8|M0) r12.0<1>:ud r2.0<8;8,1>:ud 0x40:ud",
        "sends (8|M0) null r12 r8 0x4C 0x2026E03",
        "send (8|M0) null r0 0x27 0x2000010 {EOT}",
    ]);
    lines.join("\n") + "\n"
}

fn surface(r: &RunResult, bti: u8) -> &BufferResult {
    r.buffers
        .iter()
        .find(|b| matches!(b.kind, BufferKind::Surface { bti: x, .. } if x == bti))
        .expect("the surface is in the result")
}

#[test]
fn dispatch_results_carry_the_marks() {
    let dir = tempfile::tempdir().unwrap();
    let text = dispatch_kernel();
    std::fs::write(dir.path().join("k.asm"), &text).unwrap();
    let d = Dispatch::parse(DISPATCH_JSON, dir.path()).unwrap();
    let prog = asm::parse(text.as_bytes(), Some(Dialect::Iga), P).unwrap();
    let r = run(
        &d,
        &Image::from_insns(P, &prog.insns, 0).unwrap(),
        &RunOptions::default(),
    )
    .unwrap();
    assert!(r.threads.iter().all(|t| t.end == ThreadEnd::Eot));
    let b = surface(&r, 3);
    let want: Vec<bool> = (0..96).map(|i| !(32..64).contains(&i)).collect();
    assert_eq!(b.inexact, want);
    // A buffer nothing inexact was stored to has no marks.
    assert!(surface(&r, 4).inexact.iter().all(|x| !x));

    // `euref run --dispatch`: `~` before each inexact element, a legend; --json: the mask.
    let desc = dir.path().join("d.json");
    std::fs::write(&desc, DISPATCH_JSON).unwrap();
    let cli = |json: bool| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_euref"));
        c.args(["run", "--dispatch"]).arg(&desc);
        if json {
            c.arg("--json");
        }
        let out = c.output().unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let out = cli(false);
    assert!(
        out.contains("96 bytes as float32, 0 undefined byte(s), 64 inexact byte(s)"),
        "{out}"
    );
    // Dwords 0-7: inv(2..9), 1/2 = 0.5 the first; 8-15: 100..107, exact.
    assert!(out.contains(" ~0.5 "), "{out}");
    let marks = |row: &str| {
        out.lines()
            .find(|l| l.starts_with(row))
            .map(|l| l.matches('~').count())
    };
    assert_eq!(
        (marks("  [   0]"), marks("  [   8]"), marks("  [  16]")),
        (Some(8), Some(0), Some(8)),
        "{out}"
    );
    assert!(
        out.contains("~ inexact:") && out.contains("mem.inexact"),
        "{out}"
    );
    let v: Value = serde_json::from_str(&cli(true)).unwrap();
    let mask = format!("{}{}{}", "ff".repeat(32), "00".repeat(32), "ff".repeat(32));
    assert_eq!(v["buffers"][0]["inexact"], Value::String(mask));
    assert_eq!(v["buffers"][1].get("inexact"), None);

    // The trace names the marks per message: the first write's payload (inv results), the
    // read of them, and the last write (r8) are inexact; the exact write is not.
    let r = run(
        &d,
        &Image::from_insns(P, &prog.insns, 0).unwrap(),
        &RunOptions {
            trace: true,
            ..RunOptions::default()
        },
    )
    .unwrap();
    let text = euref::dispatch::trace::text(r.trace.as_deref().unwrap());
    let messages: Vec<(bool, bool)> = text
        .lines()
        .filter(|l| l.contains(" message dc1 "))
        .map(|l| (l.contains("inexact-payload"), l.contains("inexact-read")))
        .collect();
    assert_eq!(
        messages,
        [(true, false), (false, false), (false, true), (true, false)],
        "{text}"
    );
}

/// float_math (corpus): per binding 1 invocation i stores sqrt(x), exp2(e), fma(x, 0.5, 1.25)
/// and exp2(-e) (inversesqrt(exp2(2e)), compiled to an exp) in one untyped write (RGBA), then
/// log2(exp2(e) * 8) in a second. math.sqrt.f, math.exp.f and math.log.f bound their
/// functions: the first message's payload holds inexact bytes in every thread (exp2 of a
/// non-zero e, e = -2 for lane 0), so mem.inexact marks everything it writes, the exact fma
/// result included (per message); the second's payload is a log result: inexact. Every byte
/// of binding 1 is inexact; binding 0 (input) stays exact.
#[test]
fn float_math_outputs_are_inexact() {
    let Some(root) = crate::material::corpus() else {
        return;
    };
    for f in [MathFn::Sqrt, MathFn::Exp, MathFn::Log] {
        assert!(bounded(f), "{f:?} has a bound: its results are inexact");
    }
    let dir = root.join("kernels").join("float_math");
    for gen in ["gen9", "gen8"] {
        let file = corpus::describe(&dir, gen).unwrap();
        let d = Dispatch::parse(&serde_json::to_string(&file).unwrap(), &dir).unwrap();
        let bytes = std::fs::read(dir.join(gen).join("kernel.bin")).unwrap();
        let r = run(
            &d,
            &Image::new(d.platform, bytes, 0),
            &RunOptions::default(),
        )
        .unwrap();
        assert!(r.threads.iter().all(|t| t.end == ThreadEnd::Eot), "{gen}");
        // Bindings are at BTI 2 + binding (corpus descriptions).
        let out = surface(&r, 3);
        assert_eq!(out.bytes.len(), 640, "{gen}");
        assert_eq!(out.inexact, vec![true; 640], "{gen}");
        assert!(surface(&r, 2).inexact.iter().all(|x| !x), "{gen}");
    }
}
