//! Shared by the flow tests: a program from IGA text, a zeroed state with chosen dispatch
//! mask and flags, running it through the thread runner.

use euref::asm::{self, Dialect};
use euref::exec::ExecOptions;
use euref::spec::registers::field::{CR0_0_SINGLE_PROGRAM_FLOW, SR0_2_DMASK};
use euref::spec::Platform;
use euref::state::ThreadState;
use euref::thread::{Image, RunError, Thread};

/// The image of IGA text (labels resolved; native instructions).
pub fn image(p: Platform, text: &str) -> Image {
    let prog = asm::parse(text.as_bytes(), Some(Dialect::Iga), p)
        .unwrap_or_else(|e| panic!("{}:{}: {}\n{text}", e.line, e.col, e.msg));
    Image::from_insns(p, &prog.insns, 0).expect("encodes")
}

/// An all-defined zero state with DMask `dmask` and flags f0 = `f0`, f1 = `f1`.
pub fn state(p: Platform, dmask: u32, f0: u32, f1: u32) -> ThreadState {
    let mut st = ThreadState::zeroed(p);
    st.set_field(&SR0_2_DMASK, dmask).expect("dmask");
    st.set_flag(0, f0, 0).expect("f0");
    st.set_flag(1, f1, 0).expect("f1");
    st
}

/// Set cr0.0 SPF.
pub fn set_spf(st: &mut ThreadState, on: bool) {
    st.set_field(&CR0_0_SINGLE_PROGRAM_FLOW, u32::from(on))
        .expect("spf");
}

/// Run `text` on `st`: the executed instruction addresses in order, or the error.
pub fn try_run(st: &mut ThreadState, text: &str, max: u64) -> Result<Vec<u32>, RunError> {
    let img = image(st.platform(), text);
    let mut t = Thread::new(img, st)?;
    let mut ips = vec![];
    let opts = ExecOptions {
        strict: true,
        ..ExecOptions::default()
    };
    while !t.ended() {
        ips.push(t.step_limited(st, &opts, max)?.ip);
    }
    Ok(ips)
}

/// [`try_run`] that must succeed.
pub fn run(st: &mut ThreadState, text: &str) -> Vec<u32> {
    try_run(st, text, 100_000).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// `count` UD elements from register `reg`.
pub fn ud(st: &ThreadState, reg: usize, count: usize) -> Vec<u32> {
    (0..count)
        .map(|i| {
            let (v, u) = st.read_grf(reg * 32 + 4 * i, 4).expect("in range");
            assert!(!u, "r{reg} element {i} is undefined");
            v as u32
        })
        .collect()
}

/// Write UD elements to register `reg` onwards.
pub fn put_ud(st: &mut ThreadState, reg: usize, vals: &[u32]) {
    for (i, v) in vals.iter().enumerate() {
        st.write_grf(reg * 32 + 4 * i, 4, u64::from(*v), false)
            .expect("in range");
    }
}
