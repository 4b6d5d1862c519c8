//! Executing instructions on a thread state.
//!
//! [`step`] executes one non-branching instruction ([`crate::isa::Insn`]) on a
//! [`ThreadState`]: operands are resolved to element addresses ([`region`], [`operand`]),
//! channels enabled from ExecSize, the execution mask, predication and Align16 channel enables
//! ([`mask`]), every source element read before anything is written, the operation computed
//! ([`ops_int`]; floats go to [`ops_float`], DF on feature.df-element-size-4 platforms to
//! [`ops_df_pairs`]), and the destination, flags ([`flags`]) and
//! accumulator ([`acc`]) written for the enabled channels. Undefined inputs give undefined
//! outputs (the state's undefined mask), behaviour the manual leaves undefined writes undefined
//! bytes, and state-dependent restrictions are checked ([`runtime`]).
//!
//! After the instruction the IP advances by the instruction's size (16 bytes, 8 when
//! compacted) unless the instruction wrote the IP.

pub mod acc;
pub mod alu;
pub mod convert;
pub mod flags;
pub(crate) mod inexact;
pub mod mask;
pub mod operand;
pub mod ops_df_pairs;
pub mod ops_float;
pub mod ops_int;
pub mod region;
pub mod runtime;
pub mod unpredictable;

use crate::isa::Insn;
use crate::spec::registers::field::{N0_0_THREAD_COUNT, N0_2_THREAD_COUNT};
use crate::spec::{OpClass, Opcode};
use crate::state::ThreadState;

/// Why an instruction was not executed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExecError {
    /// The instruction (or this use of it) is not modelled; nothing was changed.
    #[error("not supported: {what}")]
    Unsupported { what: String },
    /// The opcode does not exist on the platform.
    #[error("{op} does not exist on {platform}")]
    NotOnPlatform {
        op: &'static str,
        platform: &'static str,
    },
    /// The instruction is malformed (missing operand, impossible register or region).
    #[error("{operand}: {msg}")]
    Operand { operand: String, msg: String },
    /// A state-dependent restriction is violated (a runtime rule).
    #[error("[{rule}] {msg}")]
    Runtime { rule: &'static str, msg: String },
    /// `wait` on a zero notification count: a lone thread would wait forever.
    #[error("wait: {reg} is 0, the thread would wait forever")]
    WouldBlock { reg: &'static str },
}

/// Execution options.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExecOptions {
    /// Refuse (with [`ExecError::Runtime`]) an instruction that violates a runtime rule, instead
    /// of executing it and marking what the violation makes unpredictable as undefined.
    pub strict: bool,
    /// Convert the execution-type result to a narrower float destination rounding toward
    /// zero, whatever cr0.0 says, where the conversion's row offers that result as the other
    /// side of a source conflict (`alt_round = "rtz"`, spec/conversions.toml: F -> HF,
    /// DF -> HF, Gen8+ DF -> F). The operation itself still rounds per cr0.0. Golden vectors
    /// execute an instruction so to find the alternative result they accept.
    pub narrow_toward_zero: bool,
    /// What a compressed instruction whose second half reads a byte its first half writes
    /// gives (feature.compressed-overlap: the sources conflict).
    pub compressed_overlap: CompressedOverlap,
}

/// The results of a compressed instruction whose second half reads a GRF byte its first half
/// writes (spec/platforms.toml feature.compressed-overlap: the sources give two).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CompressedOverlap {
    /// Every bit on which the two results differ is undefined (the default: the sources
    /// conflict).
    #[default]
    Undefined,
    /// The two halves in order: the second half reads what the first half wrote (seed000
    /// §3.2.5, Mesa).
    Halves,
    /// Every source read before any write (seed003's IGC-compiled kernels).
    SourcesFirst,
}

impl CompressedOverlap {
    /// The names `euref run --compressed-overlap` takes.
    pub const NAMES: [&'static str; 3] = ["undefined", "halves", "sources-first"];

    /// The option named `s` (one of [`Self::NAMES`]).
    pub fn from_name(s: &str) -> Option<CompressedOverlap> {
        match s {
            "undefined" => Some(CompressedOverlap::Undefined),
            "halves" => Some(CompressedOverlap::Halves),
            "sources-first" => Some(CompressedOverlap::SourcesFirst),
            _ => None,
        }
    }
}

/// What an executed instruction reports besides its effect on the state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StepInfo {
    /// Runtime rules violated (lenient execution): the affected results are undefined.
    pub violations: Vec<runtime::Violation>,
    /// Channels that certainly executed.
    pub enabled: u32,
    /// The instruction wrote the IP (a jump).
    pub jumped: bool,
    /// The instruction raised a software exception (cr0.1).
    pub software_exception: bool,
    /// Channels whose math result is the model's value within the bound of its function row
    /// (row math.inexact), not an exact one.
    pub inexact: u32,
    /// Where the instruction wrote: every GRF byte, ARF byte, undefined flag and accumulator
    /// record it changed lies in these GRF and ARF byte ranges. The IP advance that follows
    /// an instruction that did not jump is not included (the `ip` register changes on every
    /// step).
    pub written: crate::state::Written,
    /// A source conflict that left results undefined: the row (`feature.compressed-overlap`)
    /// when the readings it offers differed on some bit of this execution.
    pub conflict: Option<&'static str>,
}

/// Execute one instruction (lenient: runtime rule violations are reported in [`StepInfo`] and
/// mark results undefined).
pub fn step(st: &mut ThreadState, insn: &Insn) -> Result<StepInfo, ExecError> {
    step_with(st, insn, &ExecOptions::default())
}

/// Execute one instruction with options.
pub fn step_with(
    st: &mut ThreadState,
    insn: &Insn,
    opts: &ExecOptions,
) -> Result<StepInfo, ExecError> {
    run_one(st, insn, opts, None, None)
}

/// An instruction with its operand addresses resolved once (when they do not depend on the
/// state: no register-indirect operand), for programs executed many times. Its immediate
/// sources may take other values at each step ([`step_prepared_imms`]).
#[derive(Debug, Clone)]
pub struct Prepared {
    pub insn: Insn,
    plans: Option<operand::Plans>,
    /// The route and operand types (`None`: decided at each step, which reports the errors).
    shape: Option<alu::Shape>,
    /// The sources that are immediates (bit `k`: source `k`), whose plans
    /// [`step_prepared_imms`] makes again from the bits it is given.
    imm_srcs: u8,
}

impl Prepared {
    /// Prepare `insn` for states of `st`'s platform (only the platform and ARF layout of `st`
    /// are used). Instructions whose operands cannot be resolved ahead are resolved at each
    /// step, which also reports their errors.
    pub fn new(st: &ThreadState, insn: Insn) -> Prepared {
        let mut pre = Prepared {
            insn,
            plans: None,
            shape: None,
            imm_srcs: 0,
        };
        pre.prepare(st);
        pre
    }

    /// [`Prepared::new`] written over this one, in place: its operand plans (large) are
    /// blanked and resolved where they are kept rather than made and moved (the golden
    /// generator prepares an instruction per shape).
    pub fn renew(&mut self, st: &ThreadState, insn: &Insn) {
        self.insn.clone_from(insn);
        self.prepare(st);
    }

    /// Work out everything but the instruction, which is in place.
    fn prepare(&mut self, st: &ThreadState) {
        let insn = &self.insn;
        self.imm_srcs = (0..3)
            .filter(|k| matches!(insn.src[*k], Some(crate::isa::Src::Imm(_))))
            .fold(0u8, |m, k| m | 1 << k);
        self.shape = None;
        let Ok(o) = alu::operands(st.platform(), insn) else {
            self.plans = None;
            return;
        };
        if operand::state_independent(insn) {
            // The plans are filled where they are kept.
            let plans = self.plans.get_or_insert_with(operand::Plans::blank);
            plans.dst = operand::DstPlan::blank();
            plans.srcs = [None, None, None];
            let srcs = &o.srcs[..o.nsrc];
            if operand::resolve_all(st, insn, srcs, o.n, o.esize_override(), plans).is_err() {
                self.plans = None;
            }
        } else {
            self.plans = None;
        }
        self.shape = Some(o.shape());
    }
}

impl Prepared {
    /// Whether the instruction has an immediate source.
    pub fn has_imm(&self) -> bool {
        self.imm_srcs != 0
    }
}

/// Execute a prepared instruction (the same effect as [`step_with`] on its instruction).
pub fn step_prepared(
    st: &mut ThreadState,
    pre: &Prepared,
    opts: &ExecOptions,
) -> Result<StepInfo, ExecError> {
    run_one(st, &pre.insn, opts, pre.plans.as_ref(), pre.shape.as_ref())
}

/// The bits of the immediate sources of `insn` (0 for the other sources), for
/// [`step_prepared_imms`].
pub fn imm_bits(insn: &Insn) -> [u64; 3] {
    insn.src.map(|s| match s {
        Some(crate::isa::Src::Imm(i)) => i.bits,
        _ => 0,
    })
}

/// Execute the prepared instruction with the bits `imms[k]` for its immediate source `k`
/// (entries of other sources are ignored; a prepared instruction whose immediate values are
/// drawn afresh): the same effect as [`step_with`] on `pre.insn` with those immediates.
pub fn step_prepared_imms(
    st: &mut ThreadState,
    pre: &Prepared,
    imms: &[u64; 3],
    opts: &ExecOptions,
) -> Result<StepInfo, ExecError> {
    if pre.imm_srcs == 0 {
        return step_prepared(st, pre, opts);
    }
    let mut insn = pre.insn.clone();
    for (k, s) in insn.src.iter_mut().enumerate() {
        if let Some(crate::isa::Src::Imm(i)) = s {
            i.bits = imms[k];
        }
    }
    let (Some(plans), Some(shape)) = (&pre.plans, &pre.shape) else {
        return run_one(st, &insn, opts, None, pre.shape.as_ref());
    };
    // The immediates' plans from the new bits (their types, hence the other plans, are
    // `pre.insn`'s).
    let mut mine = plans.clone();
    let three = insn.is_three_src();
    let (n, esize) = (shape.channels(), shape.esize_override());
    for (k, slot) in mine.srcs.iter_mut().enumerate() {
        if pre.imm_srcs >> k & 1 == 0 {
            continue;
        }
        let (Some(s), Some(plan)) = (&insn.src[k], slot.as_mut()) else {
            continue;
        };
        if operand::resolve_src(st, s, k, insn.access, three, n, esize, plan).is_err() {
            // (The general path reports the error.)
            return run_one(st, &insn, opts, None, Some(shape));
        }
    }
    run_one(st, &insn, opts, Some(&mine), Some(shape))
}

fn run_one(
    st: &mut ThreadState,
    insn: &Insn,
    opts: &ExecOptions,
    plans: Option<&operand::Plans>,
    shape: Option<&alu::Shape>,
) -> Result<StepInfo, ExecError> {
    let p = st.platform();
    let op = insn.op;
    if !op.on(p) {
        return Err(ExecError::NotOnPlatform {
            op: op.name(),
            platform: p.name(),
        });
    }
    let mut info = StepInfo::default();
    let _ = st.take_events();
    let _ = st.take_written();
    match op.info().class {
        OpClass::Flow => {
            return Err(ExecError::Unsupported {
                what: format!(
                    "{}: branching instructions are outside the straight-line model",
                    op.name()
                ),
            })
        }
        OpClass::Send => {
            return Err(ExecError::Unsupported {
                what: format!("{}: shared-function messages are not modelled", op.name()),
            })
        }
        _ => {}
    }
    match op {
        Opcode::Nop => {}
        Opcode::Illegal => {
            return Err(ExecError::Unsupported {
                what: "illegal: raises the illegal-opcode exception (exceptions are not modelled)"
                    .into(),
            })
        }
        Opcode::Wait => wait(st, insn)?,
        _ => alu::execute(st, insn, &mut info, opts, plans, shape)?,
    }
    let ev = st.take_events();
    info.written = st.take_written();
    info.jumped = ev.jumped;
    info.software_exception = ev.software_exception;
    if !info.jumped {
        st.advance_ip(if insn.ctrl.compacted { 8 } else { 16 });
    }
    Ok(info)
}

/// `wait`: opcode.wait: waits until the notification count is non-zero, then decrements it.
/// The count is n0.0 (thread-to-thread) unless the destination names n0.2; the host-to-thread
/// count n0.1 is one bit.
fn wait(st: &mut ThreadState, insn: &Insn) -> Result<(), ExecError> {
    let f = match insn.dst.map(|d| d.addr) {
        Some(crate::isa::Addr::Direct { sub, .. }) if sub >= 8 => &N0_2_THREAD_COUNT,
        _ => &N0_0_THREAD_COUNT,
    };
    match st.field(f) {
        Some((0, false)) => Err(ExecError::WouldBlock {
            reg: if f.dword == 2 { "n0.2" } else { "n0.0" },
        }),
        Some((v, false)) => {
            let _ = st.set_field(f, v - 1);
            Ok(())
        }
        _ => Err(ExecError::Operand {
            operand: "n0".into(),
            msg: "wait: the notification count is undefined".into(),
        }),
    }
}
