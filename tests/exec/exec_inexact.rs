//! The inexact mark (spec/math.toml `math.inexact`): a math result within a bound is marked,
//! values computed from it are marked, exact values and special results are not, undefined
//! wins, flags and predicates carry it, the state JSON round-trips it and `euref run` shows it.

use crate::exec_util::{insn, r, run};
use crate::scratch_util::Scratch;
use euref::exec;
use euref::math::MathFn;
use euref::spec::Platform;
use euref::state::{json, ThreadState};
use std::process::Command;

const P: Platform = Platform::Skl;

/// Whether every byte of `len` bytes from `at` is inexact (and none is exact).
fn all_inexact(st: &ThreadState, at: usize, len: usize) -> bool {
    (at..at + len).all(|b| st.grf_byte_inexact(b))
}

fn none_inexact(st: &ThreadState, at: usize, len: usize) -> bool {
    !(at..at + len).any(|b| st.grf_byte_inexact(b))
}

/// The bound of a math function's F row on `P` (the row decides whether a result is marked).
fn bound(f: MathFn) -> (f64, f64) {
    let row = euref::spec::math::func(f, P).expect("row");
    (row.ulps, row.abs_error)
}

/// A state with r2 = 2.0 and r5 = 3.0 (8 floats each), the rest of the GRF undefined.
fn start() -> ThreadState {
    let mut st = ThreadState::new(P);
    run(
        &mut st,
        &["mov (8|M0) r2.0<1>:f 2.0:f", "mov (8|M0) r5.0<1>:f 3.0:f"],
    );
    st
}

#[test]
fn math_inv_is_inexact_and_its_value_is_the_model_s() {
    // math.inv.f bounds INV by 1 ULP: its result is not exact.
    assert!(bound(MathFn::Inv).0 > 0.0);
    let mut st = start();
    assert!(!st.has_inexact());
    run(&mut st, &["math.inv (8|M0) r3.0<1>:f r2.0<8;8,1>:f null:f"]);
    assert!(all_inexact(&st, r(3, 0), 32));
    // The value shown is the model's: the correctly rounded 1/2.
    let (v, u) = st.read_grf(r(3, 0), 4).unwrap();
    assert_eq!((v, u), (u64::from((1.0f32 / 2.0).to_bits()), false));
    // The sources stay exact.
    assert!(none_inexact(&st, r(2, 0), 32));
}

#[test]
fn special_results_and_exact_functions_are_exact() {
    // math.inv.pos-inf: inv(+inf) = +0 exactly; math.sqrt.pos-zero: sqrt(+0) = +0.
    let mut st = ThreadState::new(P);
    run(
        &mut st,
        &[
            "mov (8|M0) r2.0<1>:ud 0x7f800000:ud",
            "mov (8|M0) r5.0<1>:ud 0x0:ud",
            "math.inv (8|M0) r3.0<1>:f r2.0<8;8,1>:f null:f",
            "math.sqrt (8|M0) r4.0<1>:f r5.0<8;8,1>:f null:f",
        ],
    );
    assert_eq!(st.read_grf(r(3, 0), 4).unwrap(), (0, false));
    assert_eq!(st.read_grf(r(4, 0), 4).unwrap(), (0, false));
    assert!(none_inexact(&st, r(3, 0), 32));
    assert!(none_inexact(&st, r(4, 0), 32));
    assert!(!st.has_inexact());
    // sqrt of a non-special value has a bound (math.sqrt.f: 3 ULP): marked, even when the
    // model's value happens to be exact (sqrt(4) = 2).
    assert!(bound(MathFn::Sqrt).0 > 0.0);
    run(
        &mut st,
        &[
            "mov (8|M0) r5.0<1>:f 4.0:f",
            "math.sqrt (8|M0) r4.0<1>:f r5.0<8;8,1>:f null:f",
        ],
    );
    assert_eq!(
        st.read_grf(r(4, 0), 4).unwrap().0,
        u64::from(2.0f32.to_bits())
    );
    assert!(all_inexact(&st, r(4, 0), 32));
}

#[test]
fn derived_values_are_inexact_and_exact_ones_are_not() {
    let mut st = start();
    run(
        &mut st,
        &[
            "math.inv (8|M0) r3.0<1>:f r2.0<8;8,1>:f null:f",
            "add (8|M0) r4.0<1>:f r3.0<8;8,1>:f 1.0:f",
            "mov (8|M0) r6.0<1>:f r5.0<8;8,1>:f",
        ],
    );
    // 0.5 + 1.0, computed from an inexact input.
    assert_eq!(
        st.read_grf(r(4, 0), 4).unwrap().0,
        u64::from(1.5f32.to_bits())
    );
    assert!(all_inexact(&st, r(4, 0), 32));
    // A mov of an exact value beside it.
    assert!(none_inexact(&st, r(6, 0), 32));
    // Only the channels that read an inexact element: channels 0-3 of r7 from r3, 4-7 from r5.
    run(
        &mut st,
        &[
            "mov (4|M0) r7.0<1>:f r3.0<4;4,1>:f",
            "mov (4|M0) r7.4<1>:f r5.4<4;4,1>:f",
        ],
    );
    assert!(all_inexact(&st, r(7, 0), 16));
    assert!(none_inexact(&st, r(7, 16), 16));
    // An exact value written over an inexact one is exact.
    run(&mut st, &["mov (8|M0) r4.0<1>:f 1.5:f"]);
    assert!(none_inexact(&st, r(4, 0), 32));
}

#[test]
fn undefined_wins_over_inexact() {
    let mut st = start();
    // r8 is undefined (the default state): an inv of it is undefined, not inexact.
    run(&mut st, &["math.inv (8|M0) r3.0<1>:f r8.0<8;8,1>:f null:f"]);
    assert!(st.grf_range_undefined(r(3, 0), 32));
    assert!(none_inexact(&st, r(3, 0), 32));
    // An add of an inexact and an undefined element is undefined.
    run(
        &mut st,
        &[
            "math.inv (8|M0) r3.0<1>:f r2.0<8;8,1>:f null:f",
            "add (8|M0) r4.0<1>:f r3.0<8;8,1>:f r8.0<8;8,1>:f",
        ],
    );
    assert!(all_inexact(&st, r(3, 0), 32));
    assert!(st.grf_range_undefined(r(4, 0), 32));
    assert!(none_inexact(&st, r(4, 0), 32));
}

#[test]
fn flags_from_an_inexact_compare_and_predicates_reading_them() {
    let mut st = start();
    run(
        &mut st,
        &[
            "mov (1|M0) f0.0<1>:uw 0x0:uw",
            "math.inv (8|M0) r3.0<1>:f r2.0<8;8,1>:f null:f",
            "cmp.l.f0.0 (4|M0) null<1>:f r3.0<4;4,1>:f 1.0:f",
        ],
    );
    // Bits 0-3 written from inexact values; the rest of f0 untouched and exact.
    assert_eq!(st.arf_inexact("f0", 0), Some(0xf));
    assert_eq!(st.flag(0).unwrap().0 & 0xffff, 0xf);
    // A predicated mov of exact values: channels 0-3 read inexact flag bits, 4-7 exact ones.
    run(&mut st, &["(+f0.0) mov (8|M0) r6.0<1>:f r5.0<8;8,1>:f"]);
    assert!(all_inexact(&st, r(6, 0), 16));
    assert!(none_inexact(&st, r(6, 16), 16));
    // A compare of exact values clears the bits it writes.
    run(
        &mut st,
        &["cmp.l.f0.0 (8|M0) null<1>:f r5.0<8;8,1>:f 1.0:f"],
    );
    assert_eq!(st.arf_inexact("f0", 0), Some(0));
}

#[test]
fn json_round_trips_the_mark() {
    let mut st = start();
    run(
        &mut st,
        &[
            "mov (1|M0) f0.0<1>:uw 0x0:uw",
            "math.inv (8|M0) r3.0<1>:f r2.0<8;8,1>:f null:f",
            "cmp.l.f0.0 (4|M0) null<1>:f r3.0<4;4,1>:f 1.0:f",
        ],
    );
    let text = json::save(&st);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["inexact"]["r3"], "ff".repeat(32));
    assert_eq!(v["inexact"]["f0"], "0f000000");
    assert!(v["inexact"].get("r2").is_none());
    let back = json::load(P, &text).unwrap();
    assert!(back == st);
    assert!(all_inexact(&back, r(3, 0), 32));
    // Equality sees the mark: the same values without it differ.
    let mut plain = v.clone();
    plain.as_object_mut().unwrap().remove("inexact");
    let plain = json::load(P, &plain.to_string()).unwrap();
    assert!(plain != st);
    // A GRF mask byte other than 00/ff is refused with its path.
    let e = json::load(P, r#"{"inexact": {"r3": "0f"}}"#).unwrap_err();
    assert_eq!(e.path, "$.inexact.r3");
    assert!(e.msg.contains("00 (exact) or ff (inexact)"), "{}", e.msg);
}

#[test]
fn prepared_execution_marks_like_step() {
    let mut a = start();
    let mut b = a.clone();
    let i = insn(P, "math.inv (8|M0) r3.0<1>:f r2.0<8;8,1>:f null:f");
    exec::step(&mut a, &i).unwrap();
    let pre = exec::Prepared::new(&b, i);
    exec::step_prepared(&mut b, &pre, &exec::ExecOptions::default()).unwrap();
    assert!(a == b);
    assert!(all_inexact(&b, r(3, 0), 32));
}

#[test]
fn run_text_and_json_show_the_mark() {
    let s = Scratch::new("inexact");
    let prog = s.file(
        "p.asm",
        "mov (8|M0) r2.0<1>:f 2.0:f\n\
         mov (8|M0) r5.0<1>:f 3.0:f\n\
         math.inv (8|M0) r3.0<1>:f r2.0<8;8,1>:f null:f\n\
         add (8|M0) r4.0<1>:f r3.0<8;8,1>:f 1.0:f\n\
         mov (8|M0) r6.0<1>:f r5.0<8;8,1>:f\n",
    );
    let p = prog.to_str().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_euref"))
        .args(["run", "--gen", "skl", p])
        .output()
        .unwrap();
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    let values = |reg: &str| -> Vec<String> {
        let mut lines = out.lines().skip_while(|l| !l.starts_with(reg));
        lines.next().expect("block");
        let row = lines.next().expect("value row");
        row.split_whitespace().skip(2).map(str::to_string).collect()
    };
    assert_eq!(values("r3:f"), vec!["~0.5"; 8], "{out}");
    assert_eq!(values("r4:f"), vec!["~1.5"; 8], "{out}");
    assert_eq!(values("r6:f"), vec!["3"; 8], "{out}");
    assert!(out.contains("~ inexact:"), "{out}");
    let o = Command::new(env!("CARGO_BIN_EXE_euref"))
        .args(["run", "--gen", "skl", "--json", p])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let marks = v["inexact"].as_object().unwrap();
    let mut keys: Vec<&str> = marks.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["r3", "r4"]);
}
