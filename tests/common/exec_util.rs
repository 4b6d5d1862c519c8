//! Helpers shared by the exec_* and state_* tests: instructions from assembly text (the seed
//! syntaxes, through euref::asm), states with chosen register contents, a deterministic RNG.
#![allow(dead_code)]

use euref::asm::{detect_dialect, parse_insn};
use euref::exec::{self, ExecError, StepInfo};
use euref::isa::Insn;
use euref::spec::Platform;
use euref::state::ThreadState;

/// Parse one instruction (dialect detected from the text).
pub fn insn(p: Platform, text: &str) -> Insn {
    let d = detect_dialect(text.as_bytes());
    parse_insn(text, d, p).unwrap_or_else(|e| panic!("cannot parse `{text}`: {e}"))
}

/// Execute instructions in order.
pub fn run(st: &mut ThreadState, text: &[&str]) -> Vec<StepInfo> {
    let p = st.platform();
    text.iter()
        .map(|t| exec::step(st, &insn(p, t)).unwrap_or_else(|e| panic!("`{t}`: {e}")))
        .collect()
}

/// Execute one instruction, returning the error.
pub fn try_run(st: &mut ThreadState, text: &str) -> Result<StepInfo, ExecError> {
    let p = st.platform();
    exec::step(st, &insn(p, text))
}

/// A zeroed state (all defined) on `p`.
pub fn zeroed(p: Platform) -> ThreadState {
    ThreadState::zeroed(p)
}

/// Write `vals` as `size`-byte elements from GRF byte `at`.
pub fn put(st: &mut ThreadState, at: usize, size: usize, vals: &[u64]) {
    for (i, v) in vals.iter().enumerate() {
        st.write_grf(at + i * size, size, *v, false).unwrap();
    }
}

/// Read `count` `size`-byte elements from GRF byte `at` (panics on undefined).
pub fn get(st: &ThreadState, at: usize, size: usize, count: usize) -> Vec<u64> {
    (0..count)
        .map(|i| {
            let (v, u) = st.read_grf(at + i * size, size).unwrap();
            assert!(!u, "element at byte {} is undefined", at + i * size);
            v
        })
        .collect()
}

/// Read one element with its undefined flag.
pub fn get1(st: &ThreadState, at: usize, size: usize) -> (u64, bool) {
    st.read_grf(at, size).unwrap()
}

/// GRF byte address of rN.sub (sub in bytes).
pub fn r(n: usize, sub: usize) -> usize {
    n * 32 + sub
}

/// Set a0.i (UW).
pub fn set_a0(st: &mut ThreadState, i: usize, v: u16) {
    st.set_arf_bytes("a0", 2 * i, &v.to_le_bytes()).unwrap();
}

/// A deterministic xorshift generator.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Fill GRF registers `from..to` with random bytes.
    pub fn fill(&mut self, st: &mut ThreadState, from: usize, to: usize) {
        for o in (from * 32..to * 32).step_by(8) {
            let v = self.next();
            st.write_grf(o, 8, v, false).unwrap();
        }
    }
}

/// Compare two states ignoring the IP (instruction counts differ between a compressed
/// instruction and its halves).
pub fn same_but_ip(a: &ThreadState, b: &ThreadState) -> bool {
    let (mut a, mut b) = (a.clone(), b.clone());
    a.set_ip(0);
    b.set_ip(0);
    a == b
}

/// The first `count` golden vectors of `p` with `seed` (`euref golden`'s lines), each as its
/// parsed JSON and its instruction decoded from the vector's bytes.
pub fn golden_insns(p: Platform, seed: u64, count: u64) -> Vec<(serde_json::Value, Insn)> {
    let cfg = euref::golden::GenConfig::new(p, seed);
    let mut out = Vec::new();
    euref::golden::generate_lines(&cfg, count, &mut out, |_, _, _| {}).unwrap();
    out.split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|line| {
            let v: serde_json::Value = serde_json::from_slice(line).unwrap();
            let hex = v["bytes"].as_str().unwrap();
            let bytes = euref::conformance::regs::parse_hex_defined(hex).unwrap();
            let (ins, _) = euref::codec::decode(&bytes, p).unwrap();
            (v, ins)
        })
        .collect()
}
