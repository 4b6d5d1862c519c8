//! Program vectors with jmpi and shared local memory (issue 31): generated programs jump with
//! a uniform jmpi (taken and not taken) where flow.jmpi exists and never on Ivy Bridge; they
//! read and write the SLM (binding-table index 254, mem.slm), their vectors carry the SLM's
//! initial and final bytes (re-running a vector from its JSON gives them), `euref check`
//! compares the SLM under the name `slm`; and a hand-written SLM program ends in the state
//! worked out here.

use crate::program_hand::instruction_lines;
use crate::program_vectors::{agrees, lines_of, rerun};
use crate::scratch_util::Scratch;
use euref::golden::program::vector::{build, Setup};
use euref::spec::Platform;
use serde_json::Value;

fn vectors(p: Platform, seed: u64, n: u64) -> Vec<Value> {
    String::from_utf8(lines_of(p, seed, 0..n))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Over 200 Skylake programs: many have a jmpi; some jump (the next step is beyond the
/// next instruction) and some fall through, predicated on f1.0 or unpredicated, always
/// ExecSize 1 with NoMask (flow.jmpi). Ivy Bridge programs have none (flow.jmpi.ivb).
#[test]
fn programs_jump_with_a_uniform_jmpi() {
    let (mut with, mut taken, mut through, mut predicated) = (0, 0, 0, 0);
    for v in vectors(Platform::Skl, 5, 200) {
        let ins = instruction_lines(&v);
        let ips: Vec<u32> = ins
            .iter()
            .enumerate()
            .filter(|(_, l)| l.contains(" jmpi "))
            .map(|(k, _)| 16 * k as u32)
            .collect();
        if ips.is_empty() {
            continue;
        }
        with += 1;
        for l in ins.iter().filter(|l| l.contains(" jmpi ")) {
            assert!(l.starts_with("(W"), "{}: {l}", v["id"]);
            predicated += u32::from(l.contains("f1.0)"));
        }
        let r = rerun(&v);
        agrees(&v, &r);
        for w in r.steps.windows(2) {
            if ips.contains(&w[0].0) {
                if w[1].0 == w[0].0 + 16 {
                    through += 1;
                } else {
                    assert!(w[1].0 > w[0].0 + 16, "{}: a forward jump", v["id"]);
                    taken += 1;
                }
            }
        }
    }
    assert!(with >= 50, "only {with} of 200 programs have a jmpi");
    assert!(taken >= 20, "only {taken} jmpi jumped");
    assert!(through >= 20, "only {through} jmpi fell through");
    assert!(predicated >= 20, "only {predicated} predicated jmpi");
    for v in vectors(Platform::Ivb, 5, 60) {
        assert!(
            !instruction_lines(&v).iter().any(|l| l.contains("jmpi")),
            "{}: jmpi on Ivy Bridge",
            v["id"]
        );
    }
}

/// Generated programs use the SLM on every platform with memory messages (untyped messages
/// to BTI 254 from Haswell, dword scattered on Ivy Bridge); their vectors carry `slm` and
/// `expected_slm` exactly when a message names BTI 254; some SLM ends different from its
/// start; re-running each vector from its JSON (SLM loaded from `slm`) ends in its
/// `expected_slm`.
#[test]
fn programs_read_and_write_the_slm() {
    for p in [Platform::Ivb, Platform::Skl] {
        let (mut with, mut changed) = (0, 0);
        for v in vectors(p, 11, 80) {
            // The binding-table index is the descriptor's low byte.
            let names_slm = instruction_lines(&v).iter().any(|l| {
                l.starts_with("send")
                    && l.rsplit(' ')
                        .next()
                        .and_then(|d| d.strip_prefix("0x"))
                        .is_some_and(|d| u32::from_str_radix(d, 16).is_ok_and(|d| d & 0xff == 0xfe))
            });
            assert_eq!(v.get("slm").is_some(), names_slm, "{}", v["id"]);
            assert_eq!(v.get("expected_slm").is_some(), names_slm, "{}", v["id"]);
            let Some(slm) = v.get("slm") else { continue };
            with += 1;
            assert_eq!(slm["size"], 256);
            let r = rerun(&v);
            agrees(&v, &r);
            let start = slm["bytes"].as_str().unwrap();
            let end = v["expected_slm"]["bytes"].as_str().unwrap();
            if start.replace("xx", "00") != end {
                changed += 1;
            }
        }
        assert!(with >= 15, "{p:?}: only {with} of 80 programs use the SLM");
        assert!(changed >= 5, "{p:?}: only {changed} SLMs changed");
    }
}

fn dwords(vals: &[u32]) -> String {
    vals.iter()
        .flat_map(|d| d.to_le_bytes())
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A hand-written SLM program on Broadwell: channel c writes r11[c] = 100 + 3c to SLM dword c
/// (untyped write, BTI 254), then reads SLM dword c + 4 into r32: channels 0-3 read what
/// channels 4-7 wrote, channels 4-7 read dwords 8-11, never written: the initial 0xaa bytes.
#[test]
fn a_hand_written_slm_program_ends_in_the_state_worked_out_here() {
    let p = Platform::Bdw;
    let lines: Vec<String> = [
        "mov (8|M0) r30.0<1>:ud 0x76543210:v",
        "shl (8|M0) r30.0<1>:ud r30.0<8;8,1>:ud 0x2:ud",
        "mov (8|M0) r31.0<1>:ud r11.0<8;8,1>:ud",
        // Untyped write: mlen 2, rlen 0, type 9, SIMD8 channel R, BTI 254 (SLM).
        "send (8|M0) null r30 0xC 0x4026EFE",
        "add (8|M0) r40.0<1>:ud r30.0<8;8,1>:ud 0x10:ud",
        // Untyped read: mlen 1, rlen 1, type 1, BTI 254.
        "send (8|M0) r32 r40 0xC 0x2106EFE",
        "(W) mov (8|M0) r127.0<1>:ud 0x0:ud",
        "send (8|M0) null r127 0x27 0x2000010 {EOT}",
    ]
    .map(String::from)
    .to_vec();
    let mut setup = Setup::new(p, 0xff).unwrap();
    for c in 0..8 {
        setup
            .state
            .write_grf(11 * 32 + 4 * c, 4, 100 + 3 * c as u64, false)
            .unwrap();
    }
    setup.slm = Some(vec![Some(0xaa); 64]);
    let v = build(p, "slm-hand".into(), lines, setup).unwrap();
    let r11: Vec<u32> = (0..8).map(|c| 100 + 3 * c).collect();
    let r32: Vec<u32> = (0..8)
        .map(|c| if c < 4 { r11[c + 4] } else { 0xaaaa_aaaa })
        .collect();
    assert_eq!(v.expected["r32"], dwords(&r32));
    let slm = v.expected_slm.as_ref().unwrap();
    assert_eq!(slm.bytes, dwords(&r11) + &"aa".repeat(32));
    assert_eq!((slm.undefined.as_ref(), slm.inexact.as_ref()), (None, None));
    let init = v.slm.as_ref().unwrap();
    assert_eq!(
        (init.size, init.bytes.as_str()),
        (64, "aa".repeat(64).as_str())
    );
    assert_eq!(v.steps, 8);
    // The line carries both keys; a vector without an SLM has neither.
    let line = v.to_line();
    assert!(line.contains("\"slm\":{\"size\":64"), "{line}");
    assert!(line.contains("\"expected_slm\":{"), "{line}");
}

/// `euref check --sim 'euref sim'` passes vectors with an SLM and fails one whose
/// `expected_slm` has a byte changed, naming `slm` and that byte.
#[test]
fn check_compares_the_slm() {
    let tmp = Scratch::new("pcheck-slm");
    let vs: Vec<Value> = vectors(Platform::Skl, 11, 80)
        .into_iter()
        .filter(|v| v.get("slm").is_some())
        .take(6)
        .collect();
    assert!(vs.len() >= 4);
    let write = |name: &str, vs: &[Value]| {
        let path = tmp.join(name);
        let text: String = vs.iter().map(|v| v.to_string() + "\n").collect();
        std::fs::write(&path, text).unwrap();
        path
    };
    let run = |path: &std::path::Path| crate::program_hand::check_against_euref_sim(path);
    let (code, lines) = run(&write("pass.jsonl", &vs));
    assert_eq!(code, Some(0), "{lines:?}");
    assert!(lines.iter().all(|l| l["status"] == "pass"), "{lines:?}");
    // Byte 5 of the first vector's final SLM, made different (where defined).
    let mut bad = vs[0].clone();
    let s = bad["expected_slm"]["bytes"].as_str().unwrap().to_string();
    let k = (0..s.len() / 2)
        .find(|&k| {
            bad["expected_slm"]
                .get("undefined")
                .is_none_or(|u| &u.as_str().unwrap()[2 * k..2 * k + 2] == "00")
        })
        .unwrap();
    let flipped = format!(
        "{:02x}",
        u8::from_str_radix(&s[2 * k..2 * k + 2], 16).unwrap() ^ 1
    );
    bad["expected_slm"]["bytes"] =
        Value::String(format!("{}{flipped}{}", &s[..2 * k], &s[2 * k + 2..]));
    let (code, lines) = run(&write("fail.jsonl", &[bad]));
    assert_eq!(code, Some(1), "{lines:?}");
    let d = &lines[0]["detail"]["differences"][0];
    assert_eq!(
        (d["reg"].as_str(), d["byte"].as_u64()),
        (Some("slm"), Some(k as u64)),
        "{lines:?}"
    );
}
