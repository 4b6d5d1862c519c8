//! Deterministic cost of executing one instruction, for `valgrind --tool=callgrind`:
//! `exec_profile CASE MODE REPS` executes case CASE (a name of `benches/common/exec_cases.rs`,
//! or `all`) REPS times, MODE `step` (operands resolved per execution, as `euref sim`) or
//! `prepared` (resolved once, as `euref golden`). Compare the instruction counts of two REPS
//! values to get the cost per execution without the setup:
//! `valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/exec_profile float_mad_simd16 step 1`.
//! Timing belongs to `cargo bench --bench exec`; this only counts work.

use euref::exec::{self, ExecOptions};
use std::hint::black_box;

#[path = "../benches/common/exec_cases.rs"]
mod cases;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let [_, case, mode, reps] = a.as_slice() else {
        eprintln!("usage: exec_profile CASE|all step|prepared REPS");
        std::process::exit(2);
    };
    let reps: usize = reps.parse().unwrap_or(1);
    let texts: Vec<&str> = cases::CASES
        .iter()
        .filter(|(n, _)| case == "all" || n == case)
        .map(|(_, t)| *t)
        .collect();
    if texts.is_empty() {
        eprintln!("unknown case `{case}`");
        std::process::exit(2);
    }
    let mut st = cases::state();
    let opts = ExecOptions::default();
    let insns: Vec<_> = texts.iter().map(|t| cases::insn(t)).collect();
    let pre: Vec<_> = texts.iter().map(|t| cases::prepared(&st, t)).collect();
    for _ in 0..reps {
        for (i, p) in insns.iter().zip(&pre) {
            let r = match mode.as_str() {
                "prepared" => exec::step_prepared(&mut st, p, &opts),
                _ => exec::step_with(&mut st, i, &opts),
            };
            black_box(r.expect("the case executes"));
        }
    }
    black_box(&st);
}
