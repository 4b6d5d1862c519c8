//! Shared by the send tests: run IGA text with a memory, read dwords of registers and memory.

use crate::flow_util::image;
use euref::exec::ExecOptions;
use euref::memory::Memory;
use euref::state::ThreadState;
use euref::thread::{RunError, Thread};

/// Run `text` on `st` with `mem`: the executed addresses and whether the thread ended by EOT.
pub fn try_run_mem(
    st: &mut ThreadState,
    mem: &mut Memory,
    text: &str,
) -> Result<(Vec<u32>, bool), RunError> {
    let img = image(st.platform(), text);
    let mut t = Thread::new(img, st)?;
    let opts = ExecOptions {
        strict: true,
        ..ExecOptions::default()
    };
    let mut ips = vec![];
    while !t.ended() {
        ips.push(t.step_limited_with_memory(st, &opts, 10_000, mem)?.ip);
    }
    Ok((ips, t.ended_by_eot()))
}

/// [`try_run_mem`] that must succeed.
pub fn run_mem(st: &mut ThreadState, mem: &mut Memory, text: &str) -> (Vec<u32>, bool) {
    try_run_mem(st, mem, text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The spec/memory.toml row a run was refused with.
pub fn send_row(r: Result<(Vec<u32>, bool), RunError>) -> &'static str {
    match r {
        Err(RunError::Send {
            err: euref::shared::SendError::Row(e),
            ..
        }) => e.row.id,
        other => panic!("not a refused send: {other:?}"),
    }
}

/// Dwords `0..n` of register `reg` (`None`: a byte is undefined).
pub fn reg_dwords(st: &ThreadState, reg: usize, n: usize) -> Vec<Option<u32>> {
    (0..n)
        .map(|i| {
            let (v, u) = st.read_grf(reg * 32 + 4 * i, 4).expect("in range");
            (!u).then_some(v as u32)
        })
        .collect()
}

/// `n` dwords of flat memory from `a` (`None`: a byte is undefined).
pub fn mem_dwords(mem: &Memory, a: u64, n: usize) -> Vec<Option<u32>> {
    (0..n as u64)
        .map(|i| {
            let b = mem.flat.read(a + 4 * i, 4);
            Some(u32::from_le_bytes([b[0]?, b[1]?, b[2]?, b[3]?]))
        })
        .collect()
}

/// Store dwords in flat memory from `a`.
pub fn put_mem(mem: &mut Memory, a: u64, vals: &[u32]) {
    for (i, v) in vals.iter().enumerate() {
        mem.flat.load(a + 4 * i as u64, &v.to_le_bytes());
    }
}
