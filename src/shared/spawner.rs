//! The thread spawner (SFID 7): the end of thread a compute thread sends (spec/memory.toml
//! send.eot); any other thread-spawner message is refused (send.spawner.no-eot).

use crate::isa::Insn;
use crate::memory::MemError;
use crate::message::spawner::Spawner;
use crate::message::Message;
use crate::spec::memory as rows;

/// The thread-spawner view of `m`.
pub fn view(m: &Message) -> Option<Spawner> {
    crate::message::spawner::view(m)
}

/// A thread-spawner message: with EOT it only ends the thread (the runner does that).
pub fn execute(insn: &Insn, m: &Message) -> Result<(), MemError> {
    if !insn.ctrl.eot {
        return Err(MemError::new(
            &rows::SEND_SPAWNER_NO_EOT,
            format!("thread-spawner message {:#010x} without EOT", m.desc),
        ));
    }
    Ok(())
}
