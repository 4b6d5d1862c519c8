//! goto and join, Gen8+ (spec/flow.toml, section `# ---- goto/join`): the forms the rows
//! define (flow.goto: predicated, BranchCtrl clear, forward; flow.join: unpredicated) and the
//! refusals of the others. The JIP rule after them is flow.channel.no-channel-left, applied by
//! [`Thread`]'s branch path as for the structured branches.

use super::branch::{Moves, Targets};
use super::{refused, RunError, Thread};
use crate::isa::Insn;
use crate::spec::flow;
use crate::spec::{Opcode, PredCtrl};

/// The structured branches a goto region must not contain (flow.goto.mixed).
const STRUCTURED: [Opcode; 7] = [
    Opcode::If,
    Opcode::Else,
    Opcode::Endif,
    Opcode::While,
    Opcode::Break,
    Opcode::Cont,
    Opcode::Halt,
];

/// The channel moves of goto (flow.goto: predicate-false channels wait at UIP, the others go
/// on) and join (flow.join: a re-enable point). `active`: the dispatched channels on the
/// instruction; `taken`: those whose predicate holds.
pub fn moves(op: Opcode, t: Targets, active: u32, taken: u32) -> Moves {
    let mut m = Moves::default();
    match (op, t.uip) {
        (Opcode::Goto, Some(uip)) => {
            m.moves.push((active & !taken, uip));
            m.moves.push((taken, t.next));
        }
        _ => m.moves.push((active, t.next)),
    }
    m
}

impl Thread {
    /// The goto and join forms the rows leave undefined, refused naming the row: unpredicated
    /// goto, goto with BranchCtrl, a backward goto, a goto region holding a structured branch,
    /// a predicated join. (NoMask is refused with the structured branches:
    /// flow.structured-nomask.)
    pub(super) fn goto_join_checks(&mut self, insn: &Insn, ip: u32) -> Result<(), RunError> {
        if insn.op == Opcode::Join {
            if insn.pred != PredCtrl::None {
                return Err(refused(ip, &flow::JOIN, "join is predicated"));
            }
            return Ok(());
        }
        if insn.pred == PredCtrl::None {
            return Err(refused(ip, &flow::GOTO_UNPREDICATED, "goto"));
        }
        if insn.ctrl.branch_ctrl {
            return Err(refused(ip, &flow::GOTO_BRANCH_CTRL, "goto"));
        }
        let Some(uip) = insn.uip else {
            return Err(refused(ip, &flow::GOTO, "the instruction has no UIP"));
        };
        let unit = crate::asm::jump_bytes(insn.op, self.image.platform());
        if uip <= 0 {
            return Err(refused(
                ip,
                &flow::GOTO_BACKWARD,
                format!("UIP {} bytes", i64::from(uip) * i64::from(unit)),
            ));
        }
        let to = ip.wrapping_add_signed(uip.wrapping_mul(unit));
        let mut a = ip.wrapping_add(self.image.at(ip)?.size);
        while a < to {
            let d = self.image.at(a)?;
            if STRUCTURED.contains(&d.insn.op) {
                return Err(refused(
                    ip,
                    &flow::GOTO_MIXED,
                    format!(
                        "{} at {a:#x} lies between the goto and its UIP {to:#x}",
                        d.insn.op.name()
                    ),
                ));
            }
            a = a.wrapping_add(d.size);
        }
        Ok(())
    }
}
