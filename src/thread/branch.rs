//! What a structured branch does to the channels' instruction pointers (spec/flow.toml, one
//! function per opcode row): which channels' PcIP go where, and where the thread IP goes.
//!
//! Inputs are thread channel masks (bit `n`: channel `n`): `active` the dispatched channels
//! on the branch (flow.channel.dispatched), `taken` those of them whose predicate holds (all
//! of them when unpredicated). Addresses are byte addresses.

use crate::spec::flow::{self, FlowRowInfo};
use crate::spec::Opcode;

/// The effect of one branch: channel moves, then where IP goes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Moves {
    /// (channels, new PcIP) in order.
    pub moves: Vec<(u32, u32)>,
    /// IP after the branch: `Some(a)` goes to `a`; `None` applies flow.channel.no-channel-left
    /// (the next instruction when a dispatched channel waits there, else address + JIP).
    pub ip: Option<u32>,
    /// The channels that halted (flow.halt), to their UIP.
    pub halted: u32,
}

/// The addresses a branch names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Targets {
    /// The branch's own address.
    pub at: u32,
    /// The next instruction.
    pub next: u32,
    /// address + JIP.
    pub jip: u32,
    /// address + UIP (when the instruction has one).
    pub uip: Option<u32>,
    /// The instruction after the one at `uip` (break: the loop exit).
    pub after_uip: Option<u32>,
}

/// Why a branch cannot be run: the row that says so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub row: &'static FlowRowInfo,
    pub detail: String,
}

fn refuse(row: &'static FlowRowInfo, detail: impl Into<String>) -> Refusal {
    Refusal {
        row,
        detail: detail.into(),
    }
}

fn need(v: Option<u32>, row: &'static FlowRowInfo, what: &str) -> Result<u32, Refusal> {
    v.ok_or_else(|| refuse(row, format!("the instruction has no {what}")))
}

/// The moves of structured branch `op` (if, else, endif, while, break, cont, halt) with its
/// `row` (the flow row of the opcode on the platform).
pub fn moves(
    op: Opcode,
    row: &'static FlowRowInfo,
    t: Targets,
    active: u32,
    taken: u32,
) -> Result<Moves, Refusal> {
    let mut m = Moves::default();
    let stay = |m: &mut Moves, ch: u32| m.moves.push((ch, t.next));
    match op {
        // flow.if: predicate-false channels leave to JIP.
        Opcode::If => {
            m.moves.push((active & !taken, t.jip));
            stay(&mut m, taken);
        }
        // flow.else.gen7 / flow.else.gen8 / flow.else.branch-ctrl: every channel on the else
        // leaves to the endif (JIP on Gen7, UIP on Gen8+).
        Opcode::Else => {
            let to = if row.id == flow::ELSE_GEN8.id || row.id == flow::ELSE_BRANCH_CTRL.id {
                need(t.uip, row, "UIP")?
            } else {
                t.jip
            };
            m.moves.push((active, to));
        }
        // flow.endif: a re-enable point.
        Opcode::Endif => stay(&mut m, active),
        // flow.while: predicate-true channels go back; IP follows when any did.
        Opcode::While => {
            m.moves.push((taken, t.jip));
            stay(&mut m, active & !taken);
            m.ip = Some(if taken != 0 { t.jip } else { t.next });
        }
        // flow.break: taken channels wait for the loop exit (after the while at UIP).
        Opcode::Break => {
            m.moves
                .push((taken, need(t.after_uip, row, "instruction after its UIP")?));
            stay(&mut m, active & !taken);
        }
        // flow.cont: taken channels go to the while (UIP).
        Opcode::Cont => {
            m.moves.push((taken, need(t.uip, row, "UIP")?));
            stay(&mut m, active & !taken);
        }
        // flow.halt: taken channels wait at UIP.
        Opcode::Halt => {
            m.moves.push((taken, need(t.uip, row, "UIP")?));
            m.halted = taken;
            stay(&mut m, active & !taken);
        }
        _ => {
            return Err(refuse(
                row,
                format!("{} is not a structured branch", op.name()),
            ))
        }
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: Targets = Targets {
        at: 0x20,
        next: 0x30,
        jip: 0x50,
        uip: Some(0x70),
        after_uip: Some(0x80),
    };

    /// Apply the moves to eight channels all at the branch.
    fn apply(m: &Moves) -> [u32; 8] {
        let mut pc = [T.at; 8];
        for &(ch, to) in &m.moves {
            for (n, p) in pc.iter_mut().enumerate() {
                if ch >> n & 1 == 1 {
                    *p = to;
                }
            }
        }
        pc
    }

    #[test]
    fn if_sends_false_channels_to_jip() {
        let m = moves(Opcode::If, &flow::IF, T, 0xff, 0b1011_0010).expect("if");
        assert_eq!(apply(&m), [0x50, 0x30, 0x50, 0x50, 0x30, 0x30, 0x50, 0x30]);
        assert_eq!(m.ip, None);
    }

    #[test]
    fn while_goes_back_only_when_a_channel_does() {
        let m = moves(Opcode::While, &flow::WHILE, T, 0xff, 0b1100_0000).expect("while");
        assert_eq!(m.ip, Some(0x50));
        let m = moves(Opcode::While, &flow::WHILE, T, 0xff, 0).expect("while");
        assert_eq!(m.ip, Some(0x30));
    }

    #[test]
    fn break_parks_after_the_while_and_else_uses_uip_on_gen8() {
        let m = moves(Opcode::Break, &flow::BREAK, T, 0x0f, 0x03).expect("break");
        assert_eq!(apply(&m)[..4], [0x80, 0x80, 0x30, 0x30]);
        let m = moves(Opcode::Else, &flow::ELSE_GEN8, T, 0x0f, 0x0f).expect("else");
        assert_eq!(apply(&m)[0], 0x70);
        let m = moves(Opcode::Else, &flow::ELSE_GEN7, T, 0x0f, 0x0f).expect("else");
        assert_eq!(apply(&m)[0], 0x50);
    }
}
