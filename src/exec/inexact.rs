//! The inexact mark (spec/math.toml `math.inexact`): which channels of an ALU instruction
//! read an inexact input, and the marks of what they write.
//!
//! The executor computes values as before; this module runs around one pass of an ALU
//! instruction ([`super::alu::execute`]) when the state holds an inexact flag or the
//! instruction is `math`, and only then, so exact programs pay one test per instruction:
//! [`inputs`] before the pass (the sources are read before anything is written), [`mark`]
//! after it, which sets or clears the flags of every destination element, condition flag
//! bit and implicit accumulator element the pass may have written. Undefined wins: a flag
//! under an undefined byte or bit is not reported (`ThreadState::grf_byte_inexact`).

use super::mask::{self, flag_base};
use super::operand::{Plans, Space, SrcPlan};
use crate::isa::Insn;
use crate::spec::{CondMod, ImplicitAcc, MathFn, Opcode, PredCtrl};
use crate::state::{ControlDwords, ThreadState};

/// What [`inputs`] found before the pass.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Inputs {
    /// Channels with an inexact input (source element, predicate flag bit, implicit source).
    pub inexact: u32,
    /// Channels whose elements the pass may write or whose predicate decision is inexact.
    pub touched: u32,
}

/// Whether the instruction reads elements of other channels or a register it does not name,
/// so that its channels are marked together (row math.inexact, note).
fn cross_channel(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::Dp2 | Opcode::Dp3 | Opcode::Dp4 | Opcode::Dph | Opcode::Line | Opcode::Pln
    )
}

/// The inexact flags of GRF bytes `o..o + len` (any set).
fn grf_any(st: &ThreadState, o: usize, len: usize) -> bool {
    (o..o.saturating_add(len)).any(|b| {
        st.grf_inexact
            .get(b / 64)
            .is_some_and(|w| (w >> (b % 64)) & 1 == 1)
    })
}

/// The inexact flags of flat ARF bytes `o..o + len` (any set).
fn arf_any(st: &ThreadState, o: usize, len: usize) -> bool {
    (o..o + len).any(|b| st.arf_inexact_dword(b / 4) & (0xff << (8 * (b % 4))) != 0)
}

/// Channels `0..n` whose element of source `plan` is inexact (`extra`: a byte distance to a
/// second element each channel reads, pln's src1 in the next register).
fn source(st: &ThreadState, plan: &SrcPlan, n: usize, extra: Option<usize>) -> u32 {
    let mut m = 0u32;
    for ch in 0..n {
        let o = plan.off[ch] as usize;
        let hit = match plan.space {
            Space::Grf => {
                grf_any(st, o, plan.esize) || extra.is_some_and(|x| grf_any(st, o + x, plan.esize))
            }
            Space::Arf { .. } => arf_any(st, o, plan.esize),
            Space::Null | Space::Imm => false,
        };
        m |= u32::from(hit) << ch;
    }
    m
}

/// The inexact flags of the 64-bit flag space (f0 in bits 31:0, f1 in 63:32).
fn flag_space(st: &ThreadState) -> u64 {
    let dw = |n: usize| {
        st.layout
            .flag_base(n)
            .map_or(0, |b| st.arf_inexact_dword(b / 4))
    };
    u64::from(dw(0)) | u64::from(dw(1)) << 32
}

/// The flat ARF byte ranges of the accumulators implicit operands use (acc0, acc1).
fn implicit_accs(st: &ThreadState) -> impl Iterator<Item = (usize, usize)> + '_ {
    (st.layout.regs.iter())
        .filter(|r| r.info.name == "acc" && r.num < 2)
        .map(|r| (r.base, r.bytes))
}

/// The channels of `insn` (one pass, `ctl`) with an inexact input, and those it may write.
#[inline(never)]
pub(crate) fn inputs(
    st: &ThreadState,
    ctl: &ControlDwords,
    insn: &Insn,
    n: usize,
    plans: &Plans,
) -> Inputs {
    let all = mask::low(n) & ctl.channels;
    let (em, pm) = super::alu::enables_in(st, ctl, insn, n);
    let mut inexact = 0u32;
    if st.any_inexact {
        for (k, plan) in plans.srcs.iter().enumerate() {
            let Some(plan) = plan else { continue };
            let extra = (insn.op == Opcode::Pln && k == 1).then_some(32);
            inexact |= source(st, plan, n, extra);
        }
    }
    // The predicate: an inexact flag bit makes the channel's decision inexact.
    let mut pred = 0u32;
    if st.any_inexact && insn.pred != PredCtrl::None {
        let base = flag_base(insn.flag) + usize::from(insn.chan_off);
        let window = flag_space(st).checked_shr(base as u32).unwrap_or(0) as u32;
        pred = if insn.pred == PredCtrl::Seq && insn.a16_pred_chan().is_none() {
            window
        } else if window != 0 {
            // (Groups and Align16 replication: every channel may read any of the bits.)
            u32::MAX
        } else {
            0
        };
        pred &= all;
    }
    inexact |= pred;
    if st.any_inexact && insn.op.info().implicit_acc == ImplicitAcc::Read {
        let acc: Vec<(usize, usize)> = implicit_accs(st).collect();
        if acc.iter().any(|&(b, len)| arf_any(st, b, len)) {
            inexact = u32::MAX;
        }
    }
    if cross_channel(insn.op) && inexact & all != 0 {
        inexact = u32::MAX;
    }
    // Channels written: enabled or unknown; a sel's predicate chooses a source, not whether
    // the channel writes. An inexact predicate bit touches a channel the execution mask lets
    // through, written or kept.
    let sel_choice = insn.op == Opcode::Sel && insn.pred != PredCtrl::None;
    let written = if sel_choice {
        em.maybe()
    } else {
        em.maybe() & pm.maybe()
    };
    Inputs {
        inexact: inexact & all,
        touched: (written | (em.maybe() & pred)) & all,
    }
}

/// Set or clear, after the pass, the inexact flags of what the channels `inp.touched` of
/// `insn` may have written: inexact where the channel had an inexact input or its math result
/// is approximate (`produced`, channels).
#[inline(never)]
pub(crate) fn mark(
    st: &mut ThreadState,
    insn: &Insn,
    n: usize,
    plans: &Plans,
    inp: Inputs,
    produced: u32,
) {
    let touched = inp.touched;
    let inexact = inp.inexact | (produced & touched);
    if inexact == 0 && !st.any_inexact {
        return;
    }
    let d = &plans.dst;
    let two = insn.op == Opcode::Math && insn.math == MathFn::IntDivBoth;
    for ch in (0..n.min(32)).filter(|ch| touched >> ch & 1 == 1) {
        let on = inexact >> ch & 1 == 1;
        let m = 1u32 << ch;
        let (lo, hi) = (d.en_lo & m != 0, d.en_hi & m != 0);
        let o = d.off[ch] as usize;
        let half = d.esize / 2;
        let parts = [
            (lo, o, if hi { d.esize } else { half }),
            (hi && !lo, o + half, half),
        ];
        for (en, at, len) in parts {
            if !en {
                continue;
            }
            match d.space {
                Space::Grf => {
                    st.set_grf_inexact(at, len, on);
                    if two {
                        // INT DIV BOTH: the remainder in the next register.
                        st.set_grf_inexact(at + st.grf_reg_bytes(), len, on);
                    }
                }
                Space::Arf { .. } => {
                    for b in at..at + len {
                        st.set_arf_inexact_bits(b / 4, 0xff << (8 * (b % 4)), on);
                    }
                }
                Space::Null | Space::Imm => {}
            }
        }
    }
    // Condition flags (the condition modifier of sel and csel picks a source and writes no
    // flag; math's field holds the function).
    let no_flags = matches!(insn.op, Opcode::Sel | Opcode::Csel | Opcode::Math);
    if insn.cmod != CondMod::None && !no_flags {
        let base = flag_base(insn.flag) + usize::from(insn.chan_off);
        for ch in (0..n.min(32)).filter(|ch| touched >> ch & 1 == 1) {
            let i = base + ch;
            let Some(b) = st.layout.flag_base(i / 32) else {
                continue;
            };
            st.set_arf_inexact_bits(b / 4, 1 << (i % 32), inexact >> ch & 1 == 1);
        }
    }
    // Implicit accumulator writes: the whole acc0/acc1 when any channel is inexact.
    let acc_wr = insn.ctrl.acc_wr || insn.op.info().implicit_acc == ImplicitAcc::Write;
    if acc_wr && inexact != 0 {
        let acc: Vec<(usize, usize)> = implicit_accs(st).collect();
        for (b, len) in acc {
            for d in b / 4..(b + len).div_ceil(4) {
                st.set_arf_inexact_bits(d, u32::MAX, true);
            }
        }
    }
}
