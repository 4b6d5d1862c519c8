//! call, calla and ret (spec/flow.toml, section `# ---- calls`).
//!
//! A call sends the channels whose predicate holds to the subroutine (flow.call, flow.calla),
//! writes the return address to dst.0 (flow.call.return-ip) and an undefined dst.1
//! (flow.call.mask), and leaves the caller's other channels waiting at the return address.
//! The thread keeps a call [`Frame`] per open call: a ret (flow.ret) moves its channels to the
//! return address and, once every channel that entered has returned (or halted), closes the
//! frame and sends IP there. What the rows leave undefined is refused naming the row.

use super::operand::{self, ReadError};
use super::{refused, RunError, Thread, CHANNELS};
use crate::isa::{Insn, Src};
use crate::spec::flow::{self, FlowRowInfo};
use crate::spec::{DataType, Opcode};
use crate::state::ThreadState;

/// An open call (flow.call, flow.ret).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame {
    /// The return address the call stored in dst.0.
    pub ret: u32,
    /// The channels that entered the subroutine.
    pub entered: u32,
    /// Those of them that have executed a ret.
    pub returned: u32,
}

impl Thread {
    /// The open call frames, innermost last.
    pub fn call_frames(&self) -> &[Frame] {
        &self.calls
    }

    /// call, calla or ret at `ip`: the dispatched channels on it (`at_ip`) and the IP after it.
    pub(super) fn call_ret(
        &mut self,
        st: &mut ThreadState,
        insn: &Insn,
        ip: u32,
        next: u32,
        at_ip: u32,
        spf: bool,
    ) -> Result<(u32, u32), RunError> {
        let p = self.image.platform();
        let op = insn.op;
        let Some(row) = flow::of_op(op.name(), p) else {
            return Err(refused(
                ip,
                &flow::CALL_OPERANDS,
                format!("{} has no spec/flow.toml row on {}", op.name(), p.name()),
            ));
        };
        if row.status == "undefined" {
            return Err(refused(ip, row, format!("{} on {}", op.name(), p.name())));
        }
        if insn.ctrl.no_mask {
            return Err(refused(ip, &flow::CALL_NOMASK, op.name()));
        }
        let taken = self.predicate(st, insn, ip, at_ip, CHANNELS)?;
        if spf && taken != 0 && taken != at_ip {
            return Err(refused(
                ip,
                &flow::CHANNEL_SPF,
                format!(
                    "SPF is on and the predicate splits the channels (taken {taken:#x} of \
                     {at_ip:#x})"
                ),
            ));
        }
        let to = if taken == 0 {
            // No channel's predicate holds: nothing happens (flow.call, flow.ret).
            self.move_channels(at_ip, next);
            next
        } else if op == Opcode::Ret {
            self.ret(st, insn, ip, next, at_ip, taken)?
        } else {
            self.call(st, insn, ip, next, at_ip, taken, row)?
        };
        if spf && self.channels_at(to) != self.dispatched {
            return Err(refused(
                ip,
                &flow::CHANNEL_SPF,
                "SPF is on and the channels would continue at different addresses",
            ));
        }
        Ok((at_ip, to))
    }

    /// call / calla with `taken` channels entering: the subroutine's address.
    #[allow(clippy::too_many_arguments)]
    fn call(
        &mut self,
        st: &mut ThreadState,
        insn: &Insn,
        ip: u32,
        next: u32,
        at_ip: u32,
        taken: u32,
        row: &'static FlowRowInfo,
    ) -> Result<u32, RunError> {
        let p = self.image.platform();
        let Some(field) = insn.jip else {
            return Err(refused(ip, row, "the instruction has no target"));
        };
        let target = if crate::asm::jip_is_absolute(insn.op) {
            // flow.calla: an address.
            field as u32
        } else {
            // flow.call: bytes from the call itself.
            ip.wrapping_add_signed(field.wrapping_mul(crate::asm::jump_bytes(insn.op, p)))
        };
        // flow.call.return-ip, flow.call.mask: dst.0 = the return address, dst.1 undefined.
        let bad = |what: &str| {
            refused(
                ip,
                &flow::CALL_OPERANDS,
                format!("call destination: {what}"),
            )
        };
        let Some(dst) = &insn.dst else {
            return Err(bad("missing"));
        };
        if !matches!(dst.ty, DataType::D | DataType::UD) || dst.hstride != 1 {
            return Err(bad("not of type D or UD with stride 1"));
        }
        let Some(o) = operand::grf_byte(st, &dst.addr) else {
            return Err(bad("not a direct GRF register"));
        };
        st.write_grf(o, 4, u64::from(next), false)
            .and_then(|()| st.write_grf(o + 4, 4, 0, true))
            .map_err(|e| bad(&e.to_string()))?;
        self.runner_grf = Some(o..o + 8);
        self.move_channels(at_ip & !taken, next);
        self.move_channels(taken, target);
        self.calls.push(Frame {
            ret: next,
            entered: taken,
            returned: 0,
        });
        Ok(target)
    }

    /// ret with `taken` channels returning: the IP after it.
    fn ret(
        &mut self,
        st: &ThreadState,
        insn: &Insn,
        ip: u32,
        next: u32,
        at_ip: u32,
        taken: u32,
    ) -> Result<u32, RunError> {
        let to = match &insn.src[0] {
            Some(Src::Reg(s)) if matches!(s.ty, DataType::D | DataType::UD) => {
                match operand::read_int(st, s) {
                    Ok(v) => v as u32,
                    Err(ReadError::Undefined) => {
                        return Err(refused(
                            ip,
                            &flow::CALL_OPERANDS,
                            "ret: src0.0 (the return address) is undefined",
                        ))
                    }
                    Err(ReadError::Form(what)) => {
                        return Err(refused(ip, &flow::CALL_OPERANDS, format!("ret: {what}")))
                    }
                }
            }
            _ => {
                return Err(refused(
                    ip,
                    &flow::CALL_OPERANDS,
                    "ret: src0 is not a register of type D or UD",
                ))
            }
        };
        let unmatched = |detail: String| refused(ip, &flow::RET_UNMATCHED, detail);
        let Some(frame) = self.calls.last_mut() else {
            return Err(unmatched("no call is open".into()));
        };
        if to != frame.ret {
            return Err(unmatched(format!(
                "src0.0 is {to:#x}, the innermost call stored {:#x}",
                frame.ret
            )));
        }
        if taken & !frame.entered != 0 {
            return Err(unmatched(format!(
                "channels {:#x} return but did not enter with the innermost call",
                taken & !frame.entered
            )));
        }
        frame.returned |= taken;
        let pending = frame.entered & !frame.returned;
        // Channels that halted in the subroutine wait at the halt UIP, not for the return.
        let halted = self.halt_uip.map_or(0, |h| self.channels_at(h));
        let done = pending & !halted == 0;
        self.move_channels(at_ip & !taken, next);
        self.move_channels(taken, to);
        if done {
            self.calls.pop();
            Ok(to)
        } else {
            Ok(next)
        }
    }
}
