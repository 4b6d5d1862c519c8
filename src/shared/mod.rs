//! Executing send messages (spec/memory.toml `send.*` rows), one module per shared function:
//! the thread runner ([`crate::thread`]) hands a send here with the thread state and, when it
//! has one, the [`Memory`].
//!
//! - the descriptor is decoded with the rows of spec/descriptors.toml ([`crate::message`]);
//! - the lanes are the instruction's enabled channels (send.channels);
//! - the thread spawner's end of thread ends the thread (send.eot, [`spawner`]);
//! - DC1 untyped surface read / write and untyped integer atomics access the memory
//!   ([`untyped`]; payload and response: [`payload`]);
//! - DC0 byte scattered read / write ([`scattered`]) and the memory fence ([`fence`]);
//! - the message gateway's barrier message is reported in [`Outcome::barrier`]: the caller
//!   (the dispatch runner) counts the thread as arrived at its work group's barrier
//!   (send.gateway.barrier);
//! - the DC1 A64 (stateless) scattered and untyped read / write: flat-memory addresses
//!   ([`a64`]);
//! - the DC0 OWord block read / write on buffer surfaces and the DC1 A64 OWord block read /
//!   write ([`block`]);
//! - every other message is refused naming its decoded name and row (send.unmodelled).

pub mod a64;
pub mod block;
pub mod fence;
pub mod payload;
pub mod scattered;
pub mod spawner;
pub mod untyped;

use crate::exec::alu::enables_in;
use crate::isa::{Insn, SendDesc};
use crate::memory::{MemError, Memory};
use crate::message::{dataport, decode, gateway, DescError, Message};
use crate::spec::memory as rows;
use crate::state::ThreadState;

/// Why a send was not executed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// A spec/memory.toml row refuses it.
    #[error("{0}")]
    Row(#[from] MemError),
    /// The descriptor does not decode (spec/descriptors.toml).
    #[error("{0}")]
    Desc(#[from] DescError),
}

/// What a executed send did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// The enabled lanes.
    pub lanes: u32,
    /// The thread ends (send.eot).
    pub eot: bool,
    /// A barrier message: the thread arrived at its work group's barrier
    /// (send.gateway.barrier; the caller counts it).
    pub barrier: bool,
}

/// The decoded message of a send with immediate descriptors (send.register-descriptor).
pub fn message(insn: &Insn, p: crate::spec::Platform) -> Result<Message, SendError> {
    let Some(s) = insn.send else {
        return Err(MemError::new(&rows::SEND_PAYLOAD, "the send has no message fields").into());
    };
    let desc = match s.desc {
        SendDesc::Imm(d) => d & 0x7fff_ffff,
        SendDesc::A0(n) => {
            return Err(MemError::new(
                &rows::SEND_REGISTER_DESCRIPTOR,
                format!("the descriptor is the register a0.{n}"),
            )
            .into())
        }
    };
    let ex = if insn.is_split_send() {
        match s.ex_desc {
            SendDesc::Imm(x) => Some(x),
            SendDesc::A0(n) => {
                return Err(MemError::new(
                    &rows::SEND_REGISTER_DESCRIPTOR,
                    format!("the extended descriptor is the register a0.{n}"),
                )
                .into())
            }
        }
    } else {
        None
    };
    Ok(decode(s.sfid, desc, ex, p)?)
}

/// The decoded name of `m` for messages: `<sfid> <type> (<type row>)`.
fn name_of(m: &Message) -> String {
    match m.ty {
        Some(t) => format!("{} {} ({})", m.sfid.name, t.name, t.id),
        None => format!("{} message ({})", m.sfid.name, m.sfid.id),
    }
}

/// Execute send `insn` on `st` with `mem` (None: the thread has no memory: a message that
/// accesses memory is refused as an unbound surface or absent SLM would be).
pub fn execute(
    st: &mut ThreadState,
    insn: &Insn,
    mem: Option<&mut Memory>,
) -> Result<Outcome, SendError> {
    let p = st.platform();
    let m = message(insn, p)?;
    let (em, pm) = enables_in(st, &st.control_dwords(), insn, usize::from(insn.exec_size));
    let en = em.and(pm);
    if en.unknown != 0 {
        return Err(MemError::new(
            &rows::SEND_CHANNELS,
            format!(
                "the enables of lanes {:#x} are undefined (execution mask or predicate): the \
                 memory they would access is unknown",
                en.unknown
            ),
        )
        .into());
    }
    let lanes = en.on;
    let out = Outcome {
        lanes,
        eot: insn.ctrl.eot,
        barrier: false,
    };
    if spawner::view(&m).is_some() {
        spawner::execute(insn, &m)?;
        return Ok(out);
    }
    // send.gateway.barrier: the message writes nothing; the arrival is the caller's to count.
    if gateway::view(&m).is_some_and(|g| g.is_barrier()) {
        return Ok(Outcome {
            barrier: true,
            ..out
        });
    }
    let unmodelled = || -> SendError {
        MemError::new(
            &rows::SEND_UNMODELLED,
            format!(
                "{} on {} (descriptor {:#010x}) is not executed",
                name_of(&m),
                p.name(),
                m.desc
            ),
        )
        .into()
    };
    let Some(dp) = dataport::view(&m) else {
        return Err(unmodelled());
    };
    let mut none = Memory::new();
    let mem = mem.unwrap_or(&mut none);
    let c = untyped::Ctx {
        insn,
        msg: &m,
        dp: &dp,
        lanes,
    };
    match (m.sfid.name, dp.ty.name) {
        ("dc1", "untyped_surface_read") => untyped::read(st, &c, mem)?,
        ("dc1", "untyped_surface_write") => untyped::write(st, &c, mem)?,
        ("dc1", "untyped_atomic") => untyped::atomic(st, &c, mem)?,
        ("dc0", "byte_scattered_read") => scattered::byte_read(st, &c, mem)?,
        ("dc0", "byte_scattered_write") => scattered::byte_write(st, &c, mem)?,
        ("dc1", "a64_scattered_read") => a64::scattered_read(st, &c, mem)?,
        ("dc1", "a64_scattered_write") => a64::scattered_write(st, &c, mem)?,
        ("dc1", "a64_untyped_surface_read") => a64::untyped_read(st, &c, mem)?,
        ("dc1", "a64_untyped_surface_write") => a64::untyped_write(st, &c, mem)?,
        ("dc0" | "render", "memory_fence") => fence::execute(st, insn, &m, &dp)?,
        ("dc0", "oword_block_read" | "unaligned_oword_block_read") => block::read(st, &c, mem)?,
        ("dc0", "oword_block_write") => block::write(st, &c, mem)?,
        ("dc1", "a64_oword_block_read") => block::a64_read(st, &c, mem)?,
        ("dc1", "a64_oword_block_write") => block::a64_write(st, &c, mem)?,
        _ => return Err(unmodelled()),
    }
    Ok(out)
}
