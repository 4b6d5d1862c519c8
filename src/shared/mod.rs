//! Executing send messages (spec/memory.toml `send.*` rows), one module per shared function:
//! the thread runner ([`crate::thread`]) hands a send here with the thread state and, when it
//! has one, the [`Memory`].
//!
//! - the descriptor is decoded with the rows of spec/descriptors.toml ([`crate::message`]); a
//!   descriptor in a0 is read when the send executes (send.register-descriptor, [`reg_desc`]);
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
//! - stateless indices on the A32 messages (untyped, byte and dword scattered): the flat
//!   memory through the message header ([`stateless`]); DC0 dword scattered read / write and
//!   the DC1 A64 untyped atomic ([`scattered`], [`a64`]);
//! - every other message is refused naming its decoded name and row (send.unmodelled);
//! - with a trace on ([`execute_traced`]) the send reports its decoded message and the memory
//!   each lane read or wrote ([`report`]); messages access memory through the context's
//!   [`report::Recorder`], which records nothing when the trace is off;
//! - the DC0 OWord block read / write on buffer surfaces and the DC1 A64 OWord block read /
//!   write ([`block`]);
//! - inexact marks (mem.inexact) pass through memory per message ([`inexact`]).

pub mod a64;
pub mod block;
pub mod fence;
pub mod inexact;
pub mod payload;
pub mod reg_desc;
pub mod report;
pub mod scattered;
pub mod spawner;
pub mod stateless;
pub mod untyped;

use crate::exec::alu::enables_in;
use crate::isa::Insn;
use crate::memory::{MemError, Memory};
use crate::message::{dataport, decode, gateway, DescError, Message};
use crate::spec::memory as rows;
use crate::state::ThreadState;
use report::{MessageReport, Recorder};

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
    /// A barrier message's payload dword 2 and its undefined bits (the barrier ID is in it:
    /// send.gateway.barrier-id; the caller checks it).
    pub barrier_m0_2: Option<(u32, u32)>,
}

/// The decoded message of a send; a descriptor in a0 is read from `st`
/// (send.register-descriptor).
pub fn message(st: &ThreadState, insn: &Insn) -> Result<Message, SendError> {
    Ok(message_from(st, insn)?.0)
}

/// [`message`] and where its descriptors came from.
fn message_from(st: &ThreadState, insn: &Insn) -> Result<(Message, reg_desc::Sources), SendError> {
    let Some(s) = insn.send else {
        return Err(MemError::new(&rows::SEND_PAYLOAD, "the send has no message fields").into());
    };
    let (desc, ex, src) = reg_desc::resolve(st, insn, s.sfid, s.desc, s.ex_desc)?;
    Ok((decode_cached(s.sfid, desc, ex, st.platform())?, src))
}

/// [`decode`], remembered per thread for the descriptors seen last (a kernel sends the same
/// few messages from every thread; decoding walks the descriptor rows). Only successful
/// decodes are kept, at most [`DECODED_KEPT`] of them.
fn decode_cached(
    sfid: u8,
    desc: u32,
    ex: Option<u32>,
    p: crate::spec::Platform,
) -> Result<Message, DescError> {
    type Key = (u8, u32, Option<u32>, crate::spec::Platform);
    thread_local! {
        static DECODED: std::cell::RefCell<std::collections::HashMap<Key, Message>> =
            std::cell::RefCell::new(std::collections::HashMap::new());
    }
    let key = (sfid, desc, ex, p);
    if let Some(m) = DECODED.with(|d| d.borrow().get(&key).cloned()) {
        return Ok(m);
    }
    let m = decode(sfid, desc, ex, p)?;
    DECODED.with(|d| {
        let mut d = d.borrow_mut();
        if d.len() >= DECODED_KEPT {
            d.clear();
        }
        d.insert(key, m.clone());
    });
    Ok(m)
}

/// How many decoded descriptors [`decode_cached`] keeps per thread.
const DECODED_KEPT: usize = 256;

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
    execute_traced(st, insn, mem, false).map(|(o, _)| o)
}

/// [`execute`], with the message's report when `trace` is on ([`report`]: the decoded message
/// and the memory accesses; with `trace` off no report and no access list is built).
pub fn execute_traced(
    st: &mut ThreadState,
    insn: &Insn,
    mem: Option<&mut Memory>,
    trace: bool,
) -> Result<(Outcome, Option<MessageReport>), SendError> {
    let (m, src) = message_from(st, insn)?;
    let rec = Recorder::new(trace);
    // mem.inexact: the memory marks what the message writes from its payload's marks, and
    // says whether it read an inexact byte (its response is then inexact).
    let mut mem = mem;
    let payload_inexact = mem.is_some() && inexact::payload_inexact(st, insn, &m);
    if let Some(mm) = mem.as_deref_mut() {
        mm.begin_message(payload_inexact);
    }
    let out = run_message(st, insn, &m, mem.as_deref_mut(), &rec);
    let read_inexact = mem.is_some_and(|mm| mm.end_message());
    if read_inexact {
        inexact::mark_response(st, insn, &m);
    }
    let out = out?;
    let report = rec.take().map(|accesses| {
        let dp = dataport::view(&m);
        MessageReport {
            name: match m.ty {
                Some(t) => format!("{} {}", m.sfid.name, t.name),
                None => m.sfid.name.to_string(),
            },
            row: m.ty.map_or(m.sfid.id, |t| t.id),
            desc: m.desc,
            ex_desc: m.ex_desc,
            desc_reg: src.desc,
            ex_desc_reg: src.ex_desc,
            bti: dp.as_ref().map(|d| d.bti),
            surface: dp.as_ref().and_then(|d| d.surface.map(|s| s.name)),
            simd: dp.as_ref().and_then(|d| d.simd),
            mlen: m.mlen,
            ex_mlen: m.ex_mlen,
            rlen: m.rlen,
            header: m.header,
            lanes: out.lanes,
            eot: out.eot,
            barrier: out.barrier,
            inexact_payload: payload_inexact,
            inexact_read: read_inexact,
            accesses,
        }
    });
    Ok((out, report))
}

/// Execute the decoded message `m` of `insn`, recording its accesses with `rec`.
fn run_message(
    st: &mut ThreadState,
    insn: &Insn,
    m: &Message,
    mem: Option<&mut Memory>,
    rec: &Recorder,
) -> Result<Outcome, SendError> {
    let p = st.platform();
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
        barrier_m0_2: None,
    };
    if spawner::view(m).is_some() {
        spawner::execute(insn, m)?;
        return Ok(out);
    }
    // send.gateway.barrier: the message writes nothing; the arrival is the caller's to count.
    if gateway::view(m).is_some_and(|g| g.is_barrier()) {
        let p = payload::gather(st, insn, m.mlen, 0)?;
        let b = p.dword_bytes(0, 2);
        let (mut v, mut undef) = (0u32, 0u32);
        for (k, x) in b.iter().enumerate() {
            match x {
                Some(x) => v |= u32::from(*x) << (8 * k),
                None => undef |= 0xff << (8 * k),
            }
        }
        return Ok(Outcome {
            barrier: true,
            barrier_m0_2: Some((v, undef)),
            ..out
        });
    }
    let unmodelled = || -> SendError {
        MemError::new(
            &rows::SEND_UNMODELLED,
            format!(
                "{} on {} (descriptor {:#010x}) is not executed",
                name_of(m),
                p.name(),
                m.desc
            ),
        )
        .into()
    };
    let Some(dp) = dataport::view(m) else {
        return Err(unmodelled());
    };
    let mut none = Memory::new();
    let mem = mem.unwrap_or(&mut none);
    let c = untyped::Ctx {
        insn,
        msg: m,
        dp: &dp,
        lanes,
        rec,
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
        ("dc0" | "render", "memory_fence") => fence::execute(st, insn, m, &dp)?,
        ("dc0", "dword_scattered_read") => scattered::dword_read(st, &c, mem)?,
        ("dc0", "dword_scattered_write") => scattered::dword_write(st, &c, mem)?,
        ("dc1", "a64_untyped_atomic") => a64::untyped_atomic(st, &c, mem)?,
        ("dc0", "oword_block_read" | "unaligned_oword_block_read") => block::read(st, &c, mem)?,
        ("dc0", "oword_block_write") => block::write(st, &c, mem)?,
        ("dc1", "a64_oword_block_read") => block::a64_read(st, &c, mem)?,
        ("dc1", "a64_oword_block_write") => block::a64_write(st, &c, mem)?,
        _ => return Err(unmodelled()),
    }
    Ok(out)
}
