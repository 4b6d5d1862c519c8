//! Lenient execution of an instruction that violates a static restriction (spec/rules): after
//! the instruction executed, what the violated row's `undefined` field names is marked
//! undefined in the state: `dst` the destination elements of the channels that executed,
//! `flags` the condition flag bits those channels wrote, `all` both, `none` nothing. The bytes
//! are never guessed: a conformance check skips exactly them.

use super::{alu, operand, ExecError, StepInfo};
use crate::isa::Insn;
use crate::state::ThreadState;

/// What a violation makes unpredictable (the `undefined` field of spec/rules and
/// spec/runtime.toml rows).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Unpredictable {
    pub dst: bool,
    pub flags: bool,
}

impl Unpredictable {
    /// From a row's `undefined` value (`dst`, `flags`, `all`, `none`).
    pub fn from_row(undefined: &str) -> Unpredictable {
        Unpredictable {
            dst: matches!(undefined, "dst" | "all"),
            flags: matches!(undefined, "flags" | "all"),
        }
    }

    /// Both sets together.
    pub fn union(self, o: Unpredictable) -> Unpredictable {
        Unpredictable {
            dst: self.dst || o.dst,
            flags: self.flags || o.flags,
        }
    }
}

/// Mark undefined what `what` names, for the channels `info` says executed (`info.enabled`).
/// Call after [`super::step_with`] returned `info` for `insn` on `st`.
pub fn mark(
    st: &mut ThreadState,
    insn: &Insn,
    info: &StepInfo,
    what: Unpredictable,
) -> Result<(), ExecError> {
    if what.dst {
        if let Some(d) = insn.dst.as_ref() {
            let ops = alu::operands(st.platform(), insn)?;
            let mut plan = operand::DstPlan::blank();
            operand::resolve_dst(st, d, insn.access, ops.n, ops.esize_override(), &mut plan)?;
            for ch in 0..ops.n {
                if info.enabled >> ch & 1 == 1 {
                    alu::write_dst(st, &plan, ch, 0, 0, true);
                }
            }
        }
    }
    if what.flags && insn.cmod != crate::spec::CondMod::None {
        let n = usize::from(insn.exec_size).min(32);
        let base = super::mask::flag_base(insn.flag) + usize::from(insn.chan_off);
        let mut undef = 0u64;
        for ch in 0..n {
            if info.enabled >> ch & 1 == 1 && base + ch < 64 {
                undef |= 1 << (base + ch);
            }
        }
        for f in 0..2 {
            if let Some((v, u)) = st.flag(f) {
                let _ = st.set_flag(f, v, u | (undef >> (32 * f)) as u32);
            }
        }
    }
    Ok(())
}
