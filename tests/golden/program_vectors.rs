//! Program vectors (issue 31, `euref golden --programs`): deterministic by seed, shards that
//! concatenate to the whole, every generated instruction valid, every program at its end of
//! thread within the step bound, a vector's expected state and trace digest reproduced by
//! running its text again from its initial state (parsed from the JSON, not from the
//! generator's structures), divergence that really happens, and a hand-written program whose
//! final state is worked out here.

use crate::golden_util::{euref_output as euref, output_text as text, read_bytes as read};
use crate::program_hand::{self, hex_bytes};
use crate::scratch_util::Scratch;
use euref::asm::{self, Dialect};
use euref::exec::ExecOptions;
use euref::golden::program::generator::generate;
use euref::golden::program::vector::{build, Setup, MAX_STEPS};
use euref::golden::program::write_programs;
use euref::memory::Memory;
use euref::spec::Platform;
use euref::state::ThreadState;
use euref::thread::{Image, Thread};
use serde_json::Value;

/// Program vectors `range` of `seed` on `p`, as text.
pub(crate) fn lines_of(p: Platform, seed: u64, range: std::ops::Range<u64>) -> Vec<u8> {
    let mut out = Vec::new();
    write_programs(p, seed, range, &mut out, |_| {}).expect("programs");
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// FNV-1a 64 over each step's ip and enabled channels (little-endian u32 each), as
/// conformance/README.md defines the trace digest.
fn fnv1a(steps: &[(u32, u32)]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for (ip, en) in steps {
        for b in ip.to_le_bytes().iter().chain(en.to_le_bytes().iter()) {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x100000001b3);
        }
    }
    h
}

/// What running a vector's program again gives.
pub(crate) struct Rerun {
    pub st: ThreadState,
    pub mem: Memory,
    pub steps: Vec<(u32, u32)>,
    /// The program's instructions by address / 16 (native encoding).
    image_hex: String,
}

/// Run the program of vector `v` (parsed JSON) from its initial state: its text assembled
/// again, its registers loaded with the state JSON loader, its surface bound.
pub(crate) fn rerun(v: &Value) -> Rerun {
    let p = Platform::parse(v["gen"].as_str().unwrap()).unwrap();
    let text: Vec<&str> = v["text"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    let src = text.join("\n") + "\n";
    let prog = asm::parse(src.as_bytes(), Some(Dialect::Iga), p).expect("the text assembles");
    let image = Image::from_insns(p, &prog.insns, 0).expect("encodes");
    let image_hex = hex(image.bytes());
    let (mut st, mut mem) = program_hand::initial_of(v, p);
    let mut t = Thread::new(image, &mut st).unwrap();
    let opts = ExecOptions::default();
    let limit = v["max_steps"].as_u64().unwrap();
    let mut steps = Vec::new();
    while !t.ended() {
        let s = t
            .step_limited_with_memory(&mut st, &opts, limit, &mut mem)
            .unwrap_or_else(|e| panic!("{}: {e}", v["id"]));
        steps.push((s.ip, s.enabled));
    }
    assert!(t.ended_by_eot(), "{}: no end of thread", v["id"]);
    Rerun {
        st,
        mem,
        steps,
        image_hex,
    }
}

/// Register `name`'s bytes and undefined mask (per byte for GRF, per bit for flags).
fn reg_now(st: &ThreadState, name: &str) -> (Vec<u8>, Vec<u8>) {
    if let Some(n) = name.strip_prefix('f') {
        let (v, u) = st.flag(n.parse().unwrap()).unwrap();
        return ((v & !u).to_le_bytes().to_vec(), u.to_le_bytes().to_vec());
    }
    let n: usize = name[1..].parse().unwrap();
    let o = n * 32;
    let u: Vec<u8> = (o..o + 32)
        .map(|b| if st.grf_byte_undefined(b) { 0xff } else { 0 })
        .collect();
    let v: Vec<u8> = (o..o + 32)
        .map(|b| {
            if st.grf_byte_undefined(b) {
                0
            } else {
                st.grf_bytes()[b]
            }
        })
        .collect();
    (v, u)
}

/// Compare a re-run with the vector: registers (defined, exact bytes), undefined masks,
/// surface bytes, step count and trace digest.
pub(crate) fn agrees(v: &Value, r: &Rerun) {
    let id = &v["id"];
    assert_eq!(r.image_hex, v["bytes"].as_str().unwrap(), "{id}: bytes");
    for (name, want) in v["expected"].as_object().unwrap() {
        let (got, undef) = reg_now(&r.st, name);
        let want_undef = v["undefined"]
            .get(name)
            .map_or("00".repeat(got.len()), |u| u.as_str().unwrap().to_string());
        assert_eq!(hex(&undef), want_undef, "{id}: {name} undefined bits");
        let inexact = v["inexact"]
            .get(name)
            .map_or(vec![Some(0); got.len()], |m| hex_bytes(m.as_str().unwrap()));
        for (i, (g, w)) in got
            .iter()
            .zip(hex_bytes(want.as_str().unwrap()))
            .enumerate()
        {
            if inexact[i] == Some(0) {
                assert_eq!(Some(*g), w, "{id}: {name} byte {i}");
            }
        }
    }
    if let Some(s) = v.get("expected_surface") {
        let base = v["surface"]["base"].as_u64().unwrap();
        let size = v["surface"]["size"].as_u64().unwrap() as usize;
        let got = r.mem.flat.read(base, size);
        let bytes = hex_bytes(s["bytes"].as_str().unwrap());
        let undef = s
            .get("undefined")
            .map_or(vec![Some(0); size], |u| hex_bytes(u.as_str().unwrap()));
        for i in 0..size {
            let want = if undef[i] == Some(0xff) {
                None
            } else {
                bytes[i]
            };
            assert_eq!(got[i], want, "{id}: surface byte {i}");
        }
    }
    if let Some(s) = v.get("expected_slm") {
        let got = program_hand::slm_bytes(&r.mem);
        let bytes = hex_bytes(s["bytes"].as_str().unwrap());
        let undef = s
            .get("undefined")
            .map_or(vec![Some(0); got.len()], |u| hex_bytes(u.as_str().unwrap()));
        assert_eq!(got.len(), bytes.len(), "{id}: SLM size");
        for i in 0..got.len() {
            let want = if undef[i] == Some(0xff) {
                None
            } else {
                bytes[i]
            };
            assert_eq!(got[i], want, "{id}: SLM byte {i}");
        }
    }
    assert_eq!(r.steps.len() as u64, v["steps"].as_u64().unwrap(), "{id}");
    assert_eq!(
        format!("{:016x}", fnv1a(&r.steps)),
        v["trace"].as_str().unwrap(),
        "{id}: trace digest"
    );
}

#[test]
fn same_seed_gives_the_same_bytes_and_ranges_concatenate() {
    for p in [Platform::Hsw, Platform::Skl] {
        let whole = lines_of(p, 7, 0..40);
        assert_eq!(whole, lines_of(p, 7, 0..40), "{p:?}");
        let mut parts = lines_of(p, 7, 0..13);
        parts.extend(lines_of(p, 7, 13..40));
        assert_eq!(whole, parts, "{p:?}");
        assert_ne!(whole, lines_of(p, 8, 0..40), "{p:?}: another seed");
        assert_eq!(whole.iter().filter(|b| **b == b'\n').count(), 40);
    }
}

/// `--programs` with `--shard` and `-o`: the shards' files concatenated are the whole file.
#[test]
fn cli_shards_concatenate_to_the_whole_file() {
    let tmp = Scratch::new("golden-programs");
    let run = |extra: &[&str], name: &str| {
        let path = tmp.join(name);
        let mut args = vec![
            "golden",
            "--programs",
            "--gen",
            "bdw",
            "--count",
            "30",
            "--seed",
            "0x2a",
            "-o",
            path.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let o = euref(&args);
        assert!(o.status.success(), "{}", text(&o));
        read(&path)
    };
    let whole = run(&[], "whole.jsonl");
    let mut cat = Vec::new();
    for k in 1..=4 {
        cat.extend(run(&["--shard", &format!("{k}/4")], &format!("s{k}.jsonl")));
    }
    assert_eq!(whole, cat);
    assert_eq!(whole, lines_of(Platform::Bdw, 42, 0..30));
    for l in whole.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        let v: Value = serde_json::from_slice(l).unwrap();
        assert_eq!(v["kind"], "program");
    }
    // Options of single-instruction vectors do not go with --programs.
    let o = euref(&["golden", "--programs", "--gen", "skl", "--ops", "add"]);
    assert!(!o.status.success());
}

#[test]
fn every_generated_instruction_validates_on_every_platform() {
    for p in Platform::ALL {
        for i in 0..60 {
            let prog = generate(p, 3, i).unwrap_or_else(|e| panic!("{e}"));
            for (k, insn) in prog.insns.iter().enumerate() {
                let v = euref::validate::check_insn(p, insn);
                assert!(v.is_empty(), "{p:?} program {i} instruction {k}: {v:?}");
            }
            let eots = prog.lines.iter().filter(|l| l.contains("{EOT}")).count();
            assert_eq!(eots, 1, "{p:?} {i}: one end of thread");
        }
    }
}

/// Every program reaches its end of thread within the bound, and running the vector's text
/// again from its initial state gives its expected registers, surface, steps and digest.
#[test]
fn rerunning_a_vector_gives_its_expected_state() {
    for p in Platform::ALL {
        let text = lines_of(p, 11, 0..40);
        for l in text.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            let v: Value = serde_json::from_slice(l).unwrap();
            assert_eq!(v["max_steps"].as_u64(), Some(MAX_STEPS));
            let r = rerun(&v);
            assert!(r.steps.len() as u64 <= MAX_STEPS);
            agrees(&v, &r);
        }
    }
}

/// Over 200 programs: many execute instructions with only some of their dispatched channels,
/// many run a loop a different number of times in different channels, and some run a goto
/// that leaves some channels waiting at its join, a halt that stops some channels, or a
/// subroutine with some channels.
#[test]
fn control_flow_really_diverges() {
    let text = lines_of(Platform::Skl, 5, 0..200);
    let (mut partial, mut trips, mut loops, mut gotos, mut halts, mut calls) = (0, 0, 0, 0, 0, 0);
    for l in text.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        let v: Value = serde_json::from_slice(l).unwrap();
        let r = rerun(&v);
        let dmask = v["dmask"].as_u64().unwrap() as u32;
        // Addresses of the loop counters' decrements (the first instruction of each loop).
        let insns: Vec<&str> = v["text"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap())
            .filter(|l| !l.ends_with(':'))
            .collect();
        let tops: Vec<u32> = insns
            .iter()
            .enumerate()
            .filter(|(_, l)| l.contains("(eq)f0.0"))
            .map(|(k, _)| 16 * k as u32)
            .collect();
        if !tops.is_empty() {
            loops += 1;
        }
        // A goto that sends some of its channels to the join (Gen8+), a halt that stops some
        // channels: the instruction after it runs with fewer channels.
        let splits = |op: &str| {
            let ips: Vec<u32> = insns
                .iter()
                .enumerate()
                .filter(|(_, l)| l.contains(op))
                .map(|(k, _)| 16 * k as u32)
                .collect();
            r.steps.windows(2).any(|w| {
                ips.contains(&w[0].0) && w[1].1 != 0 && w[1].1 != w[0].1 && w[1].0 == w[0].0 + 16
            })
        };
        gotos += u32::from(splits(") goto "));
        halts += u32::from(splits(") halt "));
        // A subroutine entered under a partial mask returns with those channels only.
        let rets: Vec<u32> = insns
            .iter()
            .enumerate()
            .filter(|(_, l)| l.starts_with("ret "))
            .map(|(k, _)| 16 * k as u32)
            .collect();
        if r.steps
            .iter()
            .any(|&(ip, en)| rets.contains(&ip) && en != 0 && en != dmask)
        {
            calls += 1;
        }
        if r.steps
            .iter()
            .any(|&(_, en)| en != 0 && en & dmask != dmask)
        {
            partial += 1;
        }
        // Per loop: how often each channel ran its first instruction.
        let differ = tops.iter().any(|&top| {
            let counts: Vec<u32> = (0..8)
                .map(|c| {
                    r.steps
                        .iter()
                        .filter(|&&(ip, en)| ip == top && en >> c & 1 == 1)
                        .count() as u32
                })
                .filter(|&n| n > 0)
                .collect();
            counts.windows(2).any(|w| w[0] != w[1])
        });
        if differ {
            trips += 1;
        }
    }
    assert!(
        partial >= 100,
        "only {partial} of 200 programs ran under partial masks"
    );
    assert!(
        gotos >= 20,
        "only {gotos} of 200 programs ran a divergent goto"
    );
    assert!(
        halts >= 20,
        "only {halts} of 200 programs halted some channels"
    );
    assert!(
        calls >= 20,
        "only {calls} of 200 programs ran a subroutine under a partial mask"
    );
    assert!(loops >= 100, "only {loops} of 200 programs have loops");
    assert!(
        trips >= 80,
        "only {trips} of 200 programs ran a loop with different trip counts per channel"
    );
}

/// A hand-written loop: channel c's counter is (r10[c] & 3) + 1 with r10 = c, so its body
/// (r11 += 1) runs c & 3 times; then an untyped write stores r11 at byte 4c of the surface.
#[test]
fn a_hand_written_program_ends_in_the_state_worked_out_here() {
    let (p, lines, setup) = (
        program_hand::PLATFORM,
        program_hand::lines(),
        program_hand::setup(100, 0xee),
    );
    let v = build(p, "hand".into(), lines, setup).unwrap();
    let dwords = |vals: &[u32]| -> String {
        vals.iter()
            .flat_map(|d| d.to_le_bytes())
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    // Body runs: channel c: c & 3 times.
    let r11: Vec<u32> = (0..8).map(|c| 100 + (c & 3)).collect();
    assert_eq!(v.expected["r11"], dwords(&r11));
    // Every counter ends at 0; the decrement sets f0.0 bit c (eq) on the last pass.
    assert_eq!(v.expected["r20"], dwords(&[0; 8]));
    assert_eq!(v.expected["f0"], "ff000000");
    // The write: dword c of the surface = r11[c]; the rest keeps 0xee.
    let mut surface = dwords(&r11);
    surface.push_str(&"ee".repeat(32));
    let s = v.expected_surface.as_ref().unwrap();
    assert_eq!(s.bytes, surface);
    assert_eq!(s.undefined, None);
    // Steps: and, add; 4 passes of the loop's first instruction and break (channels 3 and 7
    // need 4), the add and the while on the first 3 passes (the last pass's break leaves no
    // channel: IP goes to its JIP, the while, which runs with no channel and falls through);
    // then 4 + 2 instructions.
    // = 2 + 3 * 4 + (2 + 1) + 6 = 23.
    assert_eq!(v.steps, 23);
    // r30: the byte offsets 4c.
    assert_eq!(v.expected["r30"], dwords(&[0, 4, 8, 12, 16, 20, 24, 28]));
    assert_eq!(v.kind, "program");
    // Initial registers as given (r10, r11, flags), nothing else defined in the GRF.
    let names: Vec<&str> = v.initial.keys().map(|k| k.as_str()).collect();
    assert_eq!(names, ["f0", "f1", "r10", "r11"]);
}

/// Program vectors of every platform match conformance/program.schema.json, which refuses a
/// single-instruction vector and a program vector with a bad key.
#[test]
fn program_vectors_validate_against_their_schema() {
    let validator = crate::program_hand::program_schema();
    let mut one = None;
    for p in Platform::ALL {
        let text = lines_of(p, 1, 0..20);
        for l in text.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            let v: Value = serde_json::from_slice(l).unwrap();
            if let Err(errs) = validator.validate(&v) {
                let msgs: Vec<String> = errs
                    .map(|e| format!("{} at {}", e, e.instance_path))
                    .collect();
                panic!("{p:?}: {msgs:?}");
            }
            one.get_or_insert(v);
        }
    }
    let mut bad = one.unwrap();
    bad["trace"] = Value::String("xyz".into());
    assert!(!validator.is_valid(&bad));
    let single = serde_json::json!({"v": 2, "id": "x", "gen": "skl", "op": "add", "insn": "add",
        "bytes": "00", "initial": {}, "expected": {}, "rules": [], "classes": []});
    assert!(!validator.is_valid(&single));
}

/// `euref check` given program vectors among single-instruction vectors (a file that starts
/// with a single-instruction vector) says what they are instead of a missing key.
#[test]
fn the_single_instruction_checker_names_a_program_vector() {
    let tmp = Scratch::new("golden-programs-check");
    let mut lines = Vec::new();
    let cfg = euref::golden::GenConfig::new(Platform::Skl, 1);
    euref::golden::generate_lines(&cfg, 1, &mut lines, |_, _, _| {}).unwrap();
    lines.extend(lines_of(Platform::Skl, 1, 0..2));
    let path = tmp.file("p.jsonl", lines);
    let sim = format!("{} sim", env!("CARGO_BIN_EXE_euref"));
    let o = euref(&["check", "--sim", &sim, path.to_str().unwrap()]);
    let t = text(&o);
    assert!(t.contains("line 2: a program vector"), "{t}");
    assert!(
        t.contains("put program vectors in a file of their own"),
        "{t}"
    );
    assert!(!t.contains("missing field"), "{t}");
}

/// A surface written from an approximate math result (mem.inexact: the payload holds an
/// inexact byte, so every byte the message writes is inexact) has `expected_surface.inexact`
/// marking exactly the 32 bytes written; the same write from an exact register has none.
#[test]
fn a_surface_written_from_approximate_math_is_marked_inexact() {
    let program = |data: &str| -> Vec<String> {
        vec![
            "mov (8|M0) r17.0<1>:ud 0x76543210:v".into(),
            "shl (8|M0) r17.0<1>:ud r17.0<8;8,1>:ud 0x2:ud".into(),
            data.into(),
            // Untyped write (mlen 2: addresses r17, data r18), SIMD8, channel R, BTI 3.
            "send (8|M0) null r17 0xC 0x4026E03".into(),
            "(W) mov (8|M0) r127.0<1>:ud 0x0:ud".into(),
            "send (8|M0) null r127 0x27 0x2000010 {EOT}".into(),
        ]
    };
    let p = Platform::Bdw;
    let setup = || {
        let mut s = Setup::new(p, 0xff).unwrap();
        for c in 0..8 {
            // 2.0f in r10, 7 in r11.
            s.state
                .write_grf(10 * 32 + 4 * c, 4, 0x4000_0000, false)
                .unwrap();
            s.state.write_grf(11 * 32 + 4 * c, 4, 7, false).unwrap();
        }
        s.surface = Some(vec![Some(0x11); 64]);
        s
    };
    let v = build(
        p,
        "approx".into(),
        program("math.inv (8|M0) r18.0<1>:f r10.0<8;8,1>:f null:f"),
        setup(),
    )
    .unwrap();
    let s = v.expected_surface.as_ref().unwrap();
    let want = "ff".repeat(32) + &"00".repeat(32);
    assert_eq!(s.inexact.as_deref(), Some(want.as_str()));
    // The bytes not written keep 0x11.
    assert_eq!(&s.bytes[64..], "11".repeat(32));
    assert!(v.to_line().contains("\"inexact\":\"ffff"));
    // The schema takes the key.
    let validator = crate::program_hand::program_schema();
    let line: Value = serde_json::from_str(&v.to_line()).unwrap();
    assert!(validator.is_valid(&line), "{line}");
    let exact = build(
        p,
        "exact".into(),
        program("mov (8|M0) r18.0<1>:ud r11.0<8;8,1>:ud"),
        setup(),
    )
    .unwrap();
    let s = exact.expected_surface.as_ref().unwrap();
    assert_eq!(s.inexact, None);
    assert_eq!(&s.bytes[..8], "07000000");
    assert!(!exact.to_line().contains("inexact"));
}

/// Ivy Bridge has no untyped messages (send.untyped-* are Haswell+): its programs use DC0
/// dword scattered reads and writes (send.dword-scattered-*, SFID 0xA, offsets in dwords),
/// have a surface, and run those messages with channels enabled; a write changes the surface.
#[test]
fn ivy_bridge_programs_read_and_write_memory() {
    let text = lines_of(Platform::Ivb, 7, 0..60);
    let (mut reads, mut writes, mut changed) = (0, 0, 0);
    for l in text.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        let v: Value = serde_json::from_slice(l).unwrap();
        assert!(v["surface"].is_object(), "{}", v["id"]);
        let insns: Vec<&str> = v["text"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap())
            .filter(|l| !l.ends_with(':'))
            .collect();
        let r = rerun(&v);
        let ran = |k: usize| {
            r.steps
                .iter()
                .any(|&(ip, en)| ip == 16 * k as u32 && en != 0)
        };
        for (k, i) in insns.iter().enumerate() {
            if !i.starts_with("send") || i.contains("{EOT}") {
                continue;
            }
            // Dword scattered read 0x0210C2xx, write 0x0402C2xx, to BTI 3 (the surface) or
            // 254 (the SLM).
            assert!(
                [
                    " 0xA 0x210c203",
                    " 0xA 0x402c203",
                    " 0xA 0x210c2fe",
                    " 0xA 0x402c2fe"
                ]
                .iter()
                .any(|d| i.ends_with(d)),
                "{i}"
            );
            assert!(!i.contains(" 0xC "), "{i}");
            if ran(k) {
                if i.contains("0x210c2") {
                    reads += 1;
                } else {
                    writes += 1;
                }
            }
        }
        if v["expected_surface"]["bytes"]
            != v["surface"]["bytes"].as_str().unwrap().replace("xx", "00")
        {
            changed += 1;
        }
        agrees(&v, &r);
    }
    assert!(reads >= 5, "{reads} dword scattered reads ran");
    assert!(writes >= 5, "{writes} dword scattered writes ran");
    assert!(changed >= 5, "{changed} programs changed the surface");
}
