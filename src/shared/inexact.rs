//! Inexact marks through memory (spec/memory.toml mem.inexact, spec/math.toml math.inexact),
//! per message: a message whose payload registers (mlen from src0, ex_mlen from src1) hold an
//! inexact byte writes inexact memory bytes; one that reads an inexact memory byte makes
//! every byte of its response registers (rlen from dst) inexact. The memory keeps the marks
//! ([`crate::memory::Memory::begin_message`], [`crate::memory::Memory::end_message`]); this
//! module reads and writes the register side.

use super::payload::grf_of;
use crate::isa::{Insn, Src};
use crate::message::Message;
use crate::state::ThreadState;

/// The GRF byte range of `n` registers from the direct GRF operand register `r`, clipped to
/// the GRF (a payload or response past it is refused by the message itself).
fn range(st: &ThreadState, r: u8, n: u32) -> std::ops::Range<usize> {
    let rb = st.grf_reg_bytes();
    let start = usize::from(r) * rb;
    let end = start.saturating_add(n as usize * rb).min(st.grf_size());
    start.min(end)..end
}

/// Whether a byte of the payload registers of message `m` is inexact (mem.inexact); false at
/// once when no GRF byte is.
pub fn payload_inexact(st: &ThreadState, insn: &Insn, m: &Message) -> bool {
    if !st.has_inexact() {
        return false;
    }
    [(0, m.mlen), (1, m.ex_mlen.unwrap_or(0))]
        .into_iter()
        .any(|(i, n)| match &insn.src[i] {
            Some(Src::Reg(r)) if n > 0 => grf_of(&r.addr).is_some_and(|g| {
                let b = range(st, g, n);
                st.grf_range_inexact(b.start, b.len())
            }),
            _ => false,
        })
}

/// Mark every byte of the response registers of message `m` inexact (mem.inexact: the
/// message read an inexact memory byte). A null or non-GRF destination has none.
pub fn mark_response(st: &mut ThreadState, insn: &Insn, m: &Message) {
    if m.rlen == 0 {
        return;
    }
    let Some(g) = insn.dst.as_ref().and_then(|d| grf_of(&d.addr)) else {
        return;
    };
    let b = range(st, g, m.rlen);
    st.set_grf_inexact(b.start, b.len(), true);
}
