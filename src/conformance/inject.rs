//! Faults `euref sim --inject` plants, to prove that `euref check` catches real bugs. Each
//! perturbs the instruction or the state the simulator executes (the engine in src/exec is
//! untouched), the way a buggy simulator would get it wrong.

use crate::isa::{Addr, Flag, Insn, Reg, Src};
use crate::spec::{CondMod, DataType, Opcode, Platform, PredCtrl};
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
    /// Predication is ignored: every enabled channel executes (a fully predicated-off
    /// instruction writes its destination).
    IgnorePredication,
    /// The flag subregister is that of the other flag register: f1.x where the instruction
    /// says f0.x and f0.x where it says f1.x (for the predicate and the condition modifier).
    FlagSwap,
    /// `sel` with a condition modifier also writes the flag as `cmp` would (violates
    /// cmpn.rule.sel-flags-untouched).
    SelSetsFlags,
    /// Every request is answered with an error.
    ErrorAll,
    /// In program requests only: an `add` with a D or UD immediate source adds one more
    /// (the immediate is read one too large), as a simulator that mis-decodes immediates of one
    /// instruction class would. Single-instruction requests are executed without it.
    AddImmOffByOne,
    /// In program requests only (Gen8+ goto/join): the channels a `goto` sends to its join
    /// (its predicate-false channels, which wait at UIP: flow.goto) are re-enabled at the
    /// instruction after the goto instead of at the join, so they run the instructions the
    /// goto skips them over. Made by reading the goto's UIP as the next instruction; the
    /// instruction whose control first differs is the goto (its moves), which a localization
    /// names.
    JoinEarly,
    /// In program requests only: a predicated `break` disables every channel on it, not
    /// only those whose predicate holds (flow.break): the break is read as unpredicated.
    BreakAll,
    /// In program requests only: a scattered or untyped write message (a message type whose
    /// name ends in `_write` and holds `scattered` or `untyped`, spec/descriptors.toml)
    /// writes every channel of its execution size, ignoring the execution mask: predication,
    /// the dispatch mask and the channels control flow has disabled. Not an encoding change:
    /// a send with NoMask still writes only the channels on it in euref's runner
    /// (flow.channel.enable), so the faulted simulator first executes the message with NoMask
    /// and no predicate for all channels, then the send as written.
    ScatterNoMask,
}

impl Fault {
    pub const ALL: [Fault; 8] = [
        Fault::NoDenormFlush,
        Fault::CmpnNanSwap,
        Fault::RegionOffByOne,
        Fault::NoSat,
        Fault::IgnorePredication,
        Fault::FlagSwap,
        Fault::SelSetsFlags,
        Fault::ErrorAll,
    ];

    /// The faults that act in program requests only ([`Fault::apply_program_insn`]); `ALL`
    /// holds those of single-instruction requests (which also act in programs).
    pub const PROGRAM_ONLY: [Fault; 4] = [
        Fault::AddImmOffByOne,
        Fault::JoinEarly,
        Fault::BreakAll,
        Fault::ScatterNoMask,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Fault::AddImmOffByOne => "add-imm-off-by-one",
            Fault::JoinEarly => "join-early",
            Fault::BreakAll => "break-all",
            Fault::ScatterNoMask => "scatter-nomask",
            Fault::NoDenormFlush => "no-denorm-flush",
            Fault::CmpnNanSwap => "cmpn-nan-swap",
            Fault::RegionOffByOne => "region-off-by-one",
            Fault::NoSat => "no-sat",
            Fault::IgnorePredication => "ignore-predication",
            Fault::FlagSwap => "flag-swap",
            Fault::SelSetsFlags => "sel-sets-flags",
            Fault::ErrorAll => "error-all",
        }
    }

    pub fn parse(s: &str) -> Result<Fault, String> {
        let all = || Fault::ALL.into_iter().chain(Fault::PROGRAM_ONLY);
        all().find(|f| f.name() == s).ok_or_else(|| {
            format!(
                "unknown fault `{s}` (expected one of: {})",
                all().map(Fault::name).collect::<Vec<_>>().join(", ")
            )
        })
    }

    /// Perturb the instruction before execution.
    pub fn apply_insn(self, insn: &mut Insn) {
        match self {
            Fault::CmpnNanSwap if insn.op == Opcode::Cmpn => insn.op = Opcode::Cmp,
            Fault::NoSat => insn.sat = false,
            Fault::IgnorePredication => {
                insn.pred = PredCtrl::None;
                insn.pred_inv = false;
            }
            Fault::FlagSwap => {
                insn.flag = Flag {
                    reg: insn.flag.reg ^ 1,
                    sub: insn.flag.sub,
                }
            }
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

    /// Perturb an instruction of a program on `p` before it runs: [`Fault::apply_insn`], and
    /// the encoding faults of [`Fault::PROGRAM_ONLY`] ([`Fault::ScatterNoMask`] acts in the
    /// run instead: [`Fault::writes_all_channels`]).
    pub fn apply_program_insn(self, insn: &mut Insn, p: Platform) {
        match self {
            Fault::JoinEarly if insn.op == Opcode::Goto => {
                // UIP in jump units from the goto: the next (native) instruction.
                let unit = crate::asm::jump_bytes(insn.op, p).max(1);
                insn.uip = Some(16 / unit);
                return;
            }
            Fault::BreakAll if insn.op == Opcode::Break => {
                insn.pred = PredCtrl::None;
                insn.pred_inv = false;
                return;
            }
            Fault::JoinEarly | Fault::BreakAll | Fault::ScatterNoMask => return,
            _ => {}
        }
        if self == Fault::AddImmOffByOne && insn.op == Opcode::Add {
            for s in insn.src.iter_mut().flatten() {
                if let Src::Imm(i) = s {
                    if matches!(i.ty, DataType::D | DataType::UD) {
                        i.bits = (i.bits as u32).wrapping_add(1).into();
                    }
                }
            }
            return;
        }
        self.apply_insn(insn);
    }

    /// Whether, under this fault, the faulted simulator executes `msg` (a send's decoded
    /// message) for every channel of the execution size ([`Fault::ScatterNoMask`]).
    pub fn writes_all_channels(self, msg: &crate::message::Message) -> bool {
        self == Fault::ScatterNoMask
            && msg.ty.is_some_and(|t| {
                t.name.ends_with("_write")
                    && (t.name.contains("scattered") || t.name.contains("untyped"))
            })
    }

    /// The error every request is answered with, for [`Fault::ErrorAll`].
    pub fn error(self) -> Option<&'static str> {
        (self == Fault::ErrorAll).then_some("injected fault error-all: every request fails")
    }

    /// Perturb the state before `insn` (perturbed by [`Fault::apply_insn`]) executes; what it
    /// returns goes to [`Fault::after_step`] once it has (the perturbation of a control
    /// register is the simulator's misreading of it, not a write: it is undone before the
    /// registers are reported).
    pub fn apply_state(self, st: &mut ThreadState, insn: &Insn) -> Option<u32> {
        if self == Fault::SelSetsFlags && insn.op == Opcode::Sel && insn.cmod != CondMod::None {
            // The flag written as the comparison of a `cmp` with the same operands would
            // write it (sel itself does not read the flag it is given for its modifier).
            let mut cmp = insn.clone();
            cmp.op = Opcode::Cmp;
            cmp.sat = false;
            cmp.ctrl.acc_wr = false;
            if let Some(d) = cmp.dst.as_mut() {
                d.addr = Addr::Direct {
                    reg: Reg::NULL,
                    sub: 0,
                };
            }
            let _ = crate::exec::step(st, &cmp);
        }
        if self == Fault::NoDenormFlush {
            if let Some((v, _)) = st.arf_dword("cr0", 0) {
                let env = crate::float::FloatEnv::from_cr0(st.platform(), v).with_denorms(true);
                let keep = env.denorm_bits;
                let _ = st.set_arf_bytes("cr0", 0, &(v | keep).to_le_bytes());
                return Some(v);
            }
        }
        None
    }

    /// Undo what [`Fault::apply_state`] did to the control registers (`saved`: what it
    /// returned) after the step.
    pub fn after_step(self, st: &mut ThreadState, saved: Option<u32>) {
        if let (Fault::NoDenormFlush, Some(v)) = (self, saved) {
            let _ = st.set_arf_bytes("cr0", 0, &v.to_le_bytes());
        }
    }
}
