//! The memory fence (spec/memory.toml send.fence, send.fence-response, send.fence-form): DC0
//! type 7 (and the render cache's type 7 on Gen7-Gen8). Messages run in program order against
//! one memory, so the fence changes no memory; a committed fence writes its response register
//! with undefined bytes.

use super::payload;
use crate::isa::Insn;
use crate::memory::MemError;
use crate::message::dataport::DataPort;
use crate::message::Message;
use crate::spec::memory as rows;
use crate::state::ThreadState;

/// Execute fence `m` (its data-port view `dp`) of send `insn` on `st`.
pub fn execute(
    st: &mut ThreadState,
    insn: &Insn,
    m: &Message,
    dp: &DataPort,
) -> Result<(), MemError> {
    let commit = dp.commit.unwrap_or(false);
    let form = |what: String| MemError::new(&rows::SEND_FENCE_FORM, what);
    if !m.header {
        return Err(form(
            "memory fence without the header-present bit".to_string(),
        ));
    }
    if m.mlen != 1 || m.ex_mlen.unwrap_or(0) != 0 {
        return Err(form(format!(
            "memory fence with mlen {}{}: the fence takes one header register",
            m.mlen,
            m.ex_mlen
                .map_or(String::new(), |x| format!(" + ex_mlen {x}"))
        )));
    }
    if m.rlen != u32::from(commit) {
        return Err(form(format!(
            "memory fence with commit {} and rlen {}: rlen must be {}",
            u8::from(commit),
            m.rlen,
            u8::from(commit)
        )));
    }
    if dp.bti != 0 {
        return Err(form(format!(
            "memory fence on binding-table index {}: only 0 (the global fence) is defined \
             on {}",
            dp.bti,
            m.platform.name()
        )));
    }
    // The header register must be readable (send.payload); its content is not used.
    let p = payload::gather(st, insn, m.mlen, 0)?;
    if commit {
        // send.fence-response: one register, every byte undefined.
        payload::respond(st, insn, &vec![None; p.reg_bytes])?;
    }
    Ok(())
}
