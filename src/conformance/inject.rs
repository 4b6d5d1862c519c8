//! Faults `euref sim --inject` plants, to prove that `euref check` catches real bugs. Each
//! perturbs the instruction or the state the simulator executes (the engine in src/exec is
//! untouched), the way a buggy simulator would get it wrong.

use crate::isa::{Addr, Insn, Src};
use crate::spec::Opcode;
use crate::state::ThreadState;

/// An injected fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Denormals are never flushed: every denorm-mode bit of cr0.0 is forced to "keep"
    /// (violates fp.ieee.denorm.f / fp.ieee.denorm.df / fp.ieee.denorm.hf when they are 0).
    NoDenormFlush,
    /// `cmpn` treats NaN like `cmp` does (violates the cmpn.* grids' NaN column and the
    /// cmpn.rule.* rows).
    CmpnNanSwap,
    /// Source 0 of a direct register region starts one element late (region addressing).
    RegionOffByOne,
    /// Saturation is ignored (violates sat.* rows).
    NoSat,
}

impl Fault {
    pub const ALL: [Fault; 4] = [
        Fault::NoDenormFlush,
        Fault::CmpnNanSwap,
        Fault::RegionOffByOne,
        Fault::NoSat,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Fault::NoDenormFlush => "no-denorm-flush",
            Fault::CmpnNanSwap => "cmpn-nan-swap",
            Fault::RegionOffByOne => "region-off-by-one",
            Fault::NoSat => "no-sat",
        }
    }

    pub fn parse(s: &str) -> Result<Fault, String> {
        Fault::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown fault `{s}` (expected one of: {})",
                    Fault::ALL.map(Fault::name).join(", ")
                )
            })
    }

    /// Perturb the instruction before execution.
    pub fn apply_insn(self, insn: &mut Insn) {
        match self {
            Fault::CmpnNanSwap if insn.op == Opcode::Cmpn => insn.op = Opcode::Cmp,
            Fault::NoSat => insn.sat = false,
            Fault::RegionOffByOne => {
                if let Some(Src::Reg(r)) = &mut insn.src[0] {
                    if let Addr::Direct { sub, .. } = &mut r.addr {
                        let s = r.ty.bytes() as u8;
                        if u32::from(*sub) + 2 * u32::from(s) <= 32 {
                            *sub += s;
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// Perturb the state before execution.
    pub fn apply_state(self, st: &mut ThreadState) {
        if self == Fault::NoDenormFlush {
            if let Some((v, _)) = st.arf_dword("cr0", 0) {
                let env = crate::float::FloatEnv::from_cr0(st.platform(), v).with_denorms(true);
                let keep = env.denorm_bits;
                let _ = st.set_arf_bytes("cr0", 0, &(v | keep).to_le_bytes());
            }
        }
    }
}
