//! `euref sim` replies carry the inexact marks (row math.inexact, issue 28), in the shape of
//! `euref run --json` (`"inexact": {"r10": "ff..00"}`: per GRF byte `00` or `ff`), and
//! `euref check` compares an inexact value within the bound of the math row that produced it:
//! the mark neither fails a vector nor excuses a value beyond the bound.
//!
//! Expected marks by hand: `math.inv` of 3.0 is bounded (math.inv.f, 1 ulp), so its element is
//! inexact; inv(+inf) = +0 is a [[special]] row's result, exact; the sources are not written.

use crate::golden_util::{check, golden, vectors_of, EUREF};
use crate::scratch_util::Scratch;
use euref::conformance::compare::{compare, Outcome};
use euref::conformance::protocol::{Request, Response};
use euref::conformance::sim::{execute, Simulator};
use euref::golden::AltKind;
use std::io::Write;
use std::process::{Command, Stdio};

/// r12: seven 3.0 and one +inf (F, little-endian bytes).
fn r12() -> String {
    let mut b = Vec::new();
    for _ in 0..7 {
        b.extend_from_slice(&3.0f32.to_le_bytes());
    }
    b.extend_from_slice(&f32::INFINITY.to_le_bytes());
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn request(id: &str, insn: &str, report: &[&str]) -> String {
    let zeros = "00".repeat(32);
    format!(
        r#"{{"id":"{id}","gen":"skl","insn":"{insn}","initial":{{"r10":"{zeros}","r12":"{}"}},"report":[{}]}}"#,
        r12(),
        report
            .iter()
            .map(|r| format!("\"{r}\""))
            .collect::<Vec<_>>()
            .join(",")
    )
}

const MATH: &str = "math.inv (8|M0) r10.0<1>:f r12.0<8;8,1>:f null:f";
const ADD: &str = "add (8|M0) r10.0<1>:f r12.0<8;8,1>:f r12.0<8;8,1>:f";

/// The marks of r10 after the math: channels 0-6 inexact, channel 7 exact.
fn math_marks() -> String {
    format!("{}{}", "ff".repeat(28), "00".repeat(4))
}

fn inexact_of(line: &str) -> Option<serde_json::Value> {
    let v: serde_json::Value = serde_json::from_str(line).unwrap();
    v.get("inexact").cloned()
}

#[test]
fn sim_replies_carry_the_inexact_marks() {
    let lines = [
        request("m", MATH, &["r10", "r12", "f0"]),
        request("a", ADD, &["r10"]),
    ];
    // The fast path (one simulator, state reused between requests) and the reference path.
    let mut sim = Simulator::new(None);
    let mut out = Vec::new();
    for l in &lines {
        sim.handle(l.as_bytes(), &mut out);
    }
    let text = String::from_utf8(out).unwrap();
    let replies: Vec<&str> = text.lines().collect();
    let want = serde_json::json!({ "r10": math_marks() });
    assert_eq!(inexact_of(replies[0]), Some(want.clone()), "{}", replies[0]);
    // The next request starts from exact values: no marks left over from the math.
    assert_eq!(inexact_of(replies[1]), None, "{}", replies[1]);
    for (l, fast) in lines.iter().zip(&replies) {
        let req: Request = serde_json::from_str(l).unwrap();
        assert_eq!(execute(&req, None).to_line(), *fast);
    }
    // The command speaks the same.
    let mut child = Command::new(EUREF)
        .arg("sim")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for l in &lines {
        writeln!(stdin, "{l}").unwrap();
    }
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8(o.stdout).unwrap(), text);
}

/// Math vectors checked against `euref sim` pass (its replies carry marks); a reply whose
/// inexact value lies within the row's bound passes, one beyond it fails whatever its mark
/// says, and a mark on a value no row bounds excuses nothing.
#[test]
fn check_compares_inexact_values_within_their_bound() {
    let tmp = Scratch::new("sim-inexact");
    let v = tmp.join("math.jsonl");
    let r = tmp.join("math.report.jsonl");
    golden(
        &[
            "--gen",
            "skl",
            "--ops",
            "math.inv,math.sqrt,add",
            "--types",
            "f",
            "--count",
            "400",
        ],
        &v,
        "2",
    );
    let (code, out, lines) = check(&format!("{EUREF} sim"), &v, &r, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(lines.iter().all(|l| l.status == "pass"));
    let (mut within, mut beyond, mut exact) = (0, 0, 0);
    for v in vectors_of(&v) {
        let resp = execute(&Request::from_vector(&v), None);
        assert!(matches!(compare(&v, &resp), Outcome::Pass), "{}", v.id);
        // Move one element by `steps` in its bits, keeping the reply's marks.
        // (None: the element is not wholly defined.)
        let moved = |reg: &str, off: usize, steps: u32| -> Option<Response> {
            let mut r = resp.clone();
            let hex = r.fin.get_mut(reg)?;
            let b = u32::from_str_radix(hex.get(2 * off..2 * off + 8)?, 16).ok()?;
            let nb = format!("{:08x}", b.swap_bytes().wrapping_add(steps).swap_bytes());
            hex.replace_range(2 * off..2 * off + 8, &nb);
            Some(r)
        };
        let marked = |reg: &str, off: usize| {
            resp.inexact
                .get(reg)
                .is_some_and(|m| &m[2 * off..2 * off + 8] == "ffffffff")
        };
        let ulps: Vec<_> = (v.alternatives.iter())
            .filter(|a| a.kind == AltKind::Ulps)
            .collect();
        for a in &ulps {
            let off = a.offset as usize;
            let exp = u32::from_str_radix(&v.expected[&a.reg][2 * off..2 * off + 8], 16)
                .unwrap()
                .swap_bytes();
            // Finite positive normal results only (sqrt and inv of random values), where one
            // step of the bits is one ulp.
            if !(0x0080_0000..0x7f00_0000).contains(&exp) {
                continue;
            }
            // (A special row's result, inv(-0) saturated to 1.0 say, is exact: not marked.)
            if !marked(&a.reg, off) {
                continue;
            }
            assert!(a.ulps.unwrap() >= 1.0, "{}", v.id);
            let near = moved(&a.reg, off, 1).unwrap();
            assert!(matches!(compare(&v, &near), Outcome::Pass), "{}", v.id);
            within += 1;
            let far = a.ulps.unwrap() as u32 + 1000;
            assert!(
                matches!(
                    compare(&v, &moved(&a.reg, off, far).unwrap()),
                    Outcome::Fail(_)
                ),
                "{}",
                v.id
            );
            beyond += 1;
        }
        if v.alternatives.is_empty() && v.op == "add" {
            // An exact result with a mark added by the simulator: one step off fails.
            let Some(d) = v.dst.as_ref() else { continue };
            let Some(mut bad) = moved(&d.reg, d.offset as usize, 1) else {
                continue;
            };
            bad.inexact.insert(d.reg.clone(), "ff".repeat(32));
            assert!(matches!(compare(&v, &bad), Outcome::Fail(_)), "{}", v.id);
            exact += 1;
        }
    }
    assert!(
        within > 20 && beyond > 20 && exact > 20,
        "{within} {beyond} {exact}"
    );
}
