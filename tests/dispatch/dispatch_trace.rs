//! `euref run --dispatch --trace` (docs/run.md, "Tracing a dispatch"): the trace of a small
//! two-thread kernel checked line by line against values worked out here (the runner's order,
//! each send's decoded message, each lane's address and bytes, the barrier and EOT events),
//! its JSON form, and that with tracing off no report or access list is built.

use euref::asm::{self, print_insn, Dialect, PrintOptions};
use euref::dispatch::run::{run, RunOptions, ThreadEnd};
use euref::dispatch::trace;
use euref::dispatch::Dispatch;
use euref::memory::{Memory, Place};
use euref::shared::report::{AccessKind, Recorder};
use euref::spec::Platform;
use euref::thread::Image;

/// Two SIMD8 threads (16 invocations), local ID X at r1, a 64-byte surface at BTI 3 with no
/// initial contents (every byte undefined).
const JSON: &str = r#"{"kernel": {"file": "k.asm"}, "platform": "skl", "simd": 8,
 "local_size": [16, 1, 1], "work_groups": [1, 1, 1],
 "local_ids": {"grf": 1, "components": 1},
 "surfaces": [{"bti": 3, "size": 64}]}"#;

/// Invocation x (local ID X) with x % 8 < 4 (f0.0 = 0x0f) stores 0x100 + x at byte offset
/// 4x of BTI 3 through a0.0 (DC1 untyped write SIMD8, R: 0x2026E03; ExDesc 0x4C: ex_mlen
/// 1, SFID 12); every lane then reads offset 4x back (untyped read 0x2106E03); then the
/// gateway barrier (0x2000004), wait, and EOT.
const KERNEL: &str = "\
mov (8|M0) r10.0<1>:ud r1.0<8;8,1>:uw
shl (8|M0) r2.0<1>:ud r10.0<8;8,1>:ud 0x2:ud
add (8|M0) r3.0<1>:ud r10.0<8;8,1>:ud 0x100:ud
(W) mov (1|M0) f0.0<1>:uw 0xf:uw
(W) mov (1|M0) a0.0<1>:ud 0x2026E03:ud
(f0.0) sends (8|M0) null r2 r3 0x4C a0.0
send (8|M0) r5 r2 0xC 0x2106E03
(W) mov (8|M0) r20.0<1>:ud 0x0:ud
(W) send (1|M0) null r20 0x3 0x2000004
(W) wait (1|M0) n0.0<1>:ud
send (8|M0) null r0 0x27 0x2000010 {EOT}
";

/// The registers each instruction writes (the trace's `-> ...`), by instruction index.
const WROTE: [&str; 11] = ["r10", "r2", "r3", "f0", "a0", "", "r5", "r20", "", "n0", ""];

fn setup() -> (Dispatch, Image, Vec<euref::isa::Insn>) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("k.asm"), KERNEL).unwrap();
    let d = Dispatch::parse(JSON, dir.path()).unwrap();
    let prog = asm::parse(KERNEL.as_bytes(), Some(Dialect::Iga), Platform::Skl).expect("asm");
    let image = Image::from_insns(Platform::Skl, &prog.insns, 0).expect("encodes");
    (d, image, prog.insns)
}

fn hex(bytes: &[Option<u8>]) -> String {
    bytes
        .iter()
        .map(|b| b.map_or("??".into(), |v| format!("{v:02x}")))
        .collect::<Vec<String>>()
        .join(" ")
}

/// The expected lines of thread `t` for instructions `from..to` (16 bytes each, all
/// uncompacted), surface base `base`.
fn expect_steps(
    out: &mut Vec<String>,
    insns: &[euref::isa::Insn],
    t: u32,
    range: std::ops::Range<usize>,
    base: u64,
) {
    let p = PrintOptions {
        dialect: Dialect::Iga,
        platform: Platform::Skl,
    };
    let pre = format!("g0 t{t}");
    for k in range {
        // Channels: 8 lanes; (W) exec size 1 ones: lane 0; the predicated send: f0.0 = 0xf;
        // wait is reported with no channel.
        let ch: u32 = match k {
            3 | 4 | 8 => 0x1,
            5 => 0xf,
            9 => 0,
            _ => 0xff,
        };
        let wrote = if WROTE[k].is_empty() {
            String::new()
        } else {
            format!("  -> {}", WROTE[k])
        };
        out.push(format!(
            "{pre} {:>6}  ip {:#06x}  ch {ch:#010x}  {}{wrote}",
            k + 1,
            16 * k,
            print_insn(&insns[k], &p)
        ));
        let m = "        message";
        match k {
            5 => {
                out.push(format!(
                    "{pre} {m} dc1 untyped_surface_write [msgval.dc1-type.untyped-surface-write] \
                     bti 3 SIMD8 mlen 1 ex_mlen 1 rlen 0 desc 0x02026e03 (a0.0) ex_desc \
                     0x00000040 lanes 0xf"
                ));
                for i in 0..4u64 {
                    let x = 8 * u64::from(t) + i;
                    let data = (0x100 + x as u32).to_le_bytes().map(Some);
                    out.push(format!(
                        "{pre}           lane  {i} write {:#x} (flat {:#x}): {}",
                        4 * x,
                        base + 4 * x,
                        hex(&data)
                    ));
                }
            }
            6 => {
                out.push(format!(
                    "{pre} {m} dc1 untyped_surface_read [msgval.dc1-type.untyped-surface-read] \
                     bti 3 SIMD8 mlen 1 rlen 1 desc 0x02106e03 lanes 0xff"
                ));
                for i in 0..8u64 {
                    let x = 8 * u64::from(t) + i;
                    // Lanes 0-3 read what they wrote; 4-7 read bytes never written.
                    let data = if i < 4 {
                        (0x100 + x as u32).to_le_bytes().map(Some)
                    } else {
                        [None; 4]
                    };
                    out.push(format!(
                        "{pre}           lane  {i} read  {:#x} (flat {:#x}): {}",
                        4 * x,
                        base + 4 * x,
                        hex(&data)
                    ));
                }
            }
            8 => out.push(format!(
                "{pre} {m} gateway barrier [msgval.gateway-subfunc.barrier] mlen 1 rlen 0 desc \
                 0x02000004 lanes 0x1"
            )),
            10 => out.push(format!(
                "{pre} {m} spawner dereference [msgval.spawner-opcode.dereference] mlen 1 rlen \
                 0 desc 0x02000010 lanes 0xff"
            )),
            _ => {}
        }
    }
}

#[test]
fn the_trace_of_two_threads_meeting_at_a_barrier() {
    let (d, image, insns) = setup();
    let o = RunOptions {
        trace: true,
        ..RunOptions::default()
    };
    let r = run(&d, &image, &o).unwrap();
    for t in &r.threads {
        assert_eq!(t.end, ThreadEnd::Eot, "{t:?}");
    }
    let base = match r.buffers[0].kind {
        euref::dispatch::run::BufferKind::Surface { base, .. } => base,
        k => panic!("{k:?}"),
    };
    // The runner's order: thread 0 runs until wait blocks (the barrier is not complete);
    // thread 1 arrives last, completes the barrier, passes its wait and ends; thread 0 then
    // passes its wait and ends.
    let mut want = vec![];
    expect_steps(&mut want, &insns, 0, 0..9, base);
    want.push("g0 t0 == barrier: arrived (1 of 2)".into());
    want.push("g0 t0 == wait: blocked at ip 0x0090".into());
    expect_steps(&mut want, &insns, 1, 0..9, base);
    want.push("g0 t1 == barrier: arrived (2 of 2)".into());
    want.push("g0 t1 == barrier: complete, n0.0 += 1 for every thread".into());
    expect_steps(&mut want, &insns, 1, 9..11, base);
    want.push("g0 t1 == end: EOT".into());
    expect_steps(&mut want, &insns, 0, 9..11, base);
    want.push("g0 t0 == end: EOT".into());
    let got = trace::text(r.trace.as_deref().expect("traced"));
    let got: Vec<&str> = got.lines().collect();
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "line {k}");
    }
    assert_eq!(got.len(), want.len());
}

#[test]
fn the_json_trace_carries_the_message_and_accesses() {
    let (d, image, _) = setup();
    let o = RunOptions {
        trace: true,
        ..RunOptions::default()
    };
    let r = run(&d, &image, &o).unwrap();
    let items = trace::json_items(r.trace.as_deref().unwrap());
    // Item 5: thread 0's predicated write (steps 0-4 come first).
    let w = &items[5];
    assert_eq!(
        (w["group"].as_u64(), w["thread"].as_u64()),
        (Some(0), Some(0))
    );
    assert_eq!(w["ip"].as_u64(), Some(0x50));
    let m = &w["message"];
    assert_eq!(m["name"], "dc1 untyped_surface_write");
    assert_eq!(m["desc_reg"], "a0.0");
    assert_eq!(m["bti"].as_u64(), Some(3));
    let acc = m["accesses"].as_array().unwrap();
    assert_eq!(acc.len(), 4);
    assert_eq!(acc[2]["lane"].as_u64(), Some(2));
    assert_eq!(acc[2]["kind"], "write");
    assert_eq!(acc[2]["address"], "0x8");
    assert_eq!(acc[2]["bytes"], "02 01 00 00");
}

#[test]
fn tracing_off_builds_nothing() {
    let (d, image, _) = setup();
    let r = run(&d, &image, &RunOptions::default()).unwrap();
    assert!(r.trace.is_none());
    // Without the trace flag a thread's sends build no report.
    let (d2, _, _) = setup();
    let mut p = euref::dispatch::payload::thread_state(&d2, 0, 0).unwrap();
    let mut th = euref::thread::Thread::new(image.clone(), &mut p.state).unwrap();
    let mut mem = euref::dispatch::run::memory(&d2).unwrap().0;
    let opts = RunOptions::default().exec;
    for _ in 0..7 {
        th.step_limited_with_memory(&mut p.state, &opts, 100, &mut mem)
            .unwrap();
        assert_eq!(th.take_message(), None);
    }
    // A recorder that is off keeps nothing; one that is on keeps each access.
    let mut m = Memory::new();
    for on in [false, true] {
        let rec = Recorder::new(on);
        assert_eq!(rec.is_on(), on);
        rec.write(&mut m, 3, 0x40, Place::Flat(0x40), &[Some(1)]);
        let got = rec.take();
        assert_eq!(got.is_some(), on);
        if let Some(list) = got {
            assert_eq!(list.len(), 1);
            assert_eq!((list[0].lane, list[0].kind), (3, AccessKind::Write));
        }
    }
    // The write itself happened either way.
    assert_eq!(m.read(Place::Flat(0x40), 1), [Some(1)]);
}

/// The command line: `--trace` combines with `--dispatch`; the text trace comes before the
/// buffers, and `--json` carries it as the `trace` array.
#[test]
fn euref_run_dispatch_trace_prints_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("k.asm"), KERNEL).unwrap();
    std::fs::write(dir.path().join("d.json"), JSON).unwrap();
    let run = |json: bool| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_euref"));
        c.args(["run", "--dispatch"]).arg(dir.path().join("d.json"));
        c.arg("--trace");
        if json {
            c.arg("--json");
        }
        let out = c.output().expect("euref runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run(false);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("g0 t0      1  ip 0x0000  ch 0x000000ff  mov"),
        "{text}"
    );
    let end = lines
        .iter()
        .position(|l| *l == "g0 t0 == end: EOT")
        .expect(&text);
    assert!(
        lines[end + 1].ends_with("k.asm: 1 work group(s) of 2 thread(s), SIMD8 on skl"),
        "{text}"
    );
    let v: serde_json::Value = serde_json::from_str(&run(true)).unwrap();
    let t = v["trace"].as_array().expect("trace array");
    assert_eq!(t[5]["message"]["accesses"][1]["bytes"], "01 01 00 00");
}
