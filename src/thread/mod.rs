//! Running a program on one thread with SIMD structured control flow (spec/flow.toml).
//!
//! A [`Thread`] holds a program [`Image`] (instruction bytes at a base address), the thread IP
//! and one instruction pointer per channel (PcIP, flow.channel.pcip). Each [`Thread::step`]
//! executes the instruction at IP:
//! - a non-branching instruction goes to the executor ([`crate::exec`]) with the channels on
//!   the instruction (PcIP == IP) as an extra enable ([`ThreadState::set_channels_at_ip`],
//!   flow.channel.enable); those channels move to the next instruction; an instruction that
//!   writes `ip` jumps (flow.ip-write);
//! - a structured branch (if, else, endif, while, break, cont, halt) moves the channels'
//!   PcIP ([`branch`]) and IP (flow.channel.no-channel-left); so do goto and join
//!   ([`goto_join`], Gen8+); `jmpi` jumps the thread (flow.jmpi, flow.jmpi.reg); call, calla
//!   and ret ([`call`]) enter and leave subroutines;
//! - what spec/flow.toml marks undefined or unmodelled is refused with the row's ID;
//! - exceptions (breakpoint, illegal opcode, software exception, the return from the System
//!   Routine: the flow.exception.* rows) are checked before and after the instruction
//!   ([`exception`]).
//!
//! - a send executes its message ([`crate::shared`], spec/memory.toml) with the [`Memory`] the
//!   caller hands to [`Thread::step_with_memory`] / [`Thread::run_with_memory`] (none with
//!   [`Thread::step`]: a message that accesses memory is then refused);
//!
//! The program ends when IP reaches the end of the image, or after a send with EOT
//! (flow.program-end, send.eot).

pub mod branch;
pub mod call;
pub mod exception;
pub mod goto_join;
pub mod image;
pub mod operand;
pub mod trace;

use crate::exec::mask::{self, Enables};
use crate::exec::{self, ExecError, ExecOptions, StepInfo};
use crate::isa::Insn;
use crate::memory::Memory;
use crate::shared::report::MessageReport;
use crate::shared::{self, SendError};
use crate::spec::flow::{self, FlowRowInfo};
use crate::spec::registers::field::CR0_0_SINGLE_PROGRAM_FLOW;
use crate::spec::{OpClass, Opcode, PredCtrl};
use crate::state::ThreadState;
use branch::{Refusal, Targets};
pub use image::{Decoded, Image, ImageError};

/// Thread channels (PcIP entries).
pub const CHANNELS: usize = 32;

/// The default step limit of [`Thread::run`] and `euref run --max-steps`.
pub const DEFAULT_MAX_STEPS: u64 = 1_000_000;

/// How many of the last executed IPs a [`RunError::StepLimit`] reports the loop from.
const RECENT: usize = 256;

/// Why a thread stopped with an error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// IP does not point at an instruction of the image.
    #[error("{0}")]
    Image(#[from] ImageError),
    /// The state has no defined IP (or it became undefined).
    #[error("the ip register is undefined: the runner needs the address of the instruction")]
    UndefinedIp,
    /// A row of spec/flow.toml makes this undefined or unmodelled.
    #[error("IP {ip:#x}: [{}] {detail} (cite: {})", row.id, row.cite)]
    Refused {
        ip: u32,
        row: &'static FlowRowInfo,
        detail: String,
    },
    /// The executor refused the instruction.
    #[error("IP {ip:#x}: {err}")]
    Exec { ip: u32, err: ExecError },
    /// A send's message was not executed (a spec/memory.toml row, or a descriptor that does
    /// not decode).
    #[error("IP {ip:#x}: {err}")]
    Send { ip: u32, err: SendError },
    /// The instruction at `ip` is a `wait` on a zero notification count (`reg`): the thread
    /// is blocked until a notification arrives (send.gateway.wait-blocks). Not a failure:
    /// IP is unchanged and nothing was written, so the same step may be taken again once
    /// the count is nonzero.
    #[error("IP {ip:#x}: wait: {reg} is 0, the thread waits for a notification")]
    Blocked { ip: u32, reg: &'static str },
    /// The step limit was reached: `loop_ips` are the distinct addresses executed since the
    /// instruction at IP last ran (the loop; all of the last 256 steps when it did not), in
    /// address order.
    #[error(
        "stopped after {limit} executed instructions (the step limit); the loop runs the \
         instructions at {}",
        loop_ips.iter().map(|a| format!("{a:#x}")).collect::<Vec<_>>().join(", ")
    )]
    StepLimit { limit: u64, loop_ips: Vec<u32> },
}

/// One executed instruction.
#[derive(Debug, Clone)]
pub struct Step {
    /// Its address.
    pub ip: u32,
    pub insn: Insn,
    /// Channels that executed it: for a non-branching instruction the executor's enabled
    /// channels (instruction channel numbering); for a branch the dispatched thread channels
    /// on it.
    pub enabled: u32,
    /// The executor's report (non-branching instructions only).
    pub info: Option<StepInfo>,
    /// IP after it.
    pub next_ip: u32,
    /// An exception taken (the instruction did not execute, unless it raised a software
    /// exception) or the return from the System Routine.
    pub exception: Option<exception::Event>,
    /// GRF bytes the runner itself wrote for a branch (call's return address, flow.call);
    /// writes of the executor are in `info`.
    pub runner_grf: Option<std::ops::Range<usize>>,
}

/// A thread running a program image.
#[derive(Debug, Clone)]
pub struct Thread {
    image: Image,
    ip: u32,
    pcip: [u32; CHANNELS],
    /// The channels enabled at dispatch (flow.channel.dispatched).
    dispatched: u32,
    /// The UIP the halted channels wait at (flow.halt.same-uip).
    halt_uip: Option<u32>,
    /// The open calls, innermost last (flow.call, flow.ret).
    calls: Vec<call::Frame>,
    /// GRF bytes the runner wrote in the current step ([`Step::runner_grf`]).
    runner_grf: Option<std::ops::Range<usize>>,
    steps: u64,
    /// A send with EOT executed (send.eot): the thread has ended.
    eot: bool,
    /// A barrier message executed and not yet taken by [`Thread::take_barrier`]
    /// (send.gateway.barrier): its payload dword 2 and that dword's undefined bits.
    barrier: Option<(u32, u32)>,
    /// Sends report their message ([`Thread::set_trace_messages`]).
    trace_messages: bool,
    /// The report of the last send, when tracing ([`Thread::take_message`]).
    message: Option<MessageReport>,
    recent: std::collections::VecDeque<u32>,
    /// The last instruction whose results a source conflict left undefined: its IP and the
    /// row ([`StepInfo::conflict`]).
    conflict: Option<(u32, &'static str)>,
    /// The System IP and the application state kept across the System Routine.
    exc: exception::Exceptions,
}

fn refused(ip: u32, row: &'static FlowRowInfo, detail: impl Into<String>) -> RunError {
    RunError::Refused {
        ip,
        row,
        detail: detail.into(),
    }
}

impl Thread {
    /// A thread starting at the state's IP (the image's base when the state's IP is the
    /// default 0 and the image is loaded elsewhere: the state's IP is set to the base), with
    /// the channels of the state's execution mask dispatched.
    pub fn new(image: Image, st: &mut ThreadState) -> Result<Thread, RunError> {
        let start = image.base();
        st.set_ip(start);
        // The 32 channels' mask bits as two halves of 16 (a SIMD32 request would apply
        // feature.simd32-low16-exec-mask, a property of SIMD32 instructions).
        let lo = mask::exec_mask(st, false, 0, 16);
        let hi = mask::exec_mask(st, false, 16, 16);
        let em = Enables {
            on: lo.on | hi.on << 16,
            unknown: lo.unknown | hi.unknown << 16,
        };
        if em.unknown != 0 {
            return Err(refused(
                start,
                &flow::CHANNEL_DISPATCHED,
                format!(
                    "the execution mask (sr0.2 DMask / sr0.3 VMask per cr0.0 VME) is undefined \
                     for channels {:#x}: the dispatched channels are unknown",
                    em.unknown
                ),
            ));
        }
        Ok(Thread {
            image,
            ip: start,
            pcip: [start; CHANNELS],
            dispatched: em.on,
            halt_uip: None,
            calls: Vec::new(),
            runner_grf: None,
            steps: 0,
            eot: false,
            barrier: None,
            trace_messages: false,
            message: None,
            recent: std::collections::VecDeque::with_capacity(RECENT),
            conflict: None,
            exc: exception::Exceptions::default(),
        })
    }

    /// The thread IP.
    pub fn ip(&self) -> u32 {
        self.ip
    }

    /// Channel `n`'s instruction pointer.
    pub fn pcip(&self, n: usize) -> u32 {
        self.pcip[n % CHANNELS]
    }

    /// The channels enabled at dispatch.
    pub fn dispatched(&self) -> u32 {
        self.dispatched
    }

    /// Instructions executed so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The image.
    pub fn image(&self) -> &Image {
        &self.image
    }

    /// Whether the program has ended (IP at the end of the image, or a send with EOT
    /// executed: flow.program-end, send.eot).
    pub fn ended(&self) -> bool {
        self.eot || self.ip == self.image.end()
    }

    /// Whether the thread ended with a send with EOT (send.eot).
    pub fn ended_by_eot(&self) -> bool {
        self.eot
    }

    /// Whether sends report their decoded message and memory accesses
    /// ([`Thread::take_message`]); off by default, when no report is built.
    pub fn set_trace_messages(&mut self, on: bool) {
        self.trace_messages = on;
    }

    /// The report of the send the last step executed (with message tracing on).
    pub fn take_message(&mut self) -> Option<MessageReport> {
        self.message.take()
    }

    /// Whether a barrier message executed since the last call (send.gateway.barrier: the
    /// caller counts the thread as arrived at its work group's barrier).
    /// It gives the message's payload dword 2, where the barrier ID is
    /// (send.gateway.barrier-id), and that dword's undefined bits.
    pub fn take_barrier(&mut self) -> Option<(u32, u32)> {
        self.barrier.take()
    }

    /// The instruction at IP (`None` at the end of the program).
    pub fn current(&mut self) -> Result<Option<&Decoded>, RunError> {
        if self.ended() {
            return Ok(None);
        }
        Ok(Some(self.image.at(self.ip)?))
    }

    /// The dispatched channels whose PcIP is `a`.
    fn channels_at(&self, a: u32) -> u32 {
        (0..CHANNELS)
            .filter(|&n| self.dispatched >> n & 1 == 1 && self.pcip[n] == a)
            .fold(0, |m, n| m | 1 << n)
    }

    fn move_channels(&mut self, chans: u32, to: u32) {
        for n in 0..CHANNELS {
            if chans >> n & 1 == 1 {
                self.pcip[n] = to;
            }
        }
    }

    /// Run to the end of the program, or until `max_steps` instructions have executed.
    pub fn run(
        &mut self,
        st: &mut ThreadState,
        opts: &ExecOptions,
        max_steps: u64,
    ) -> Result<(), RunError> {
        while !self.ended() {
            self.step_limited(st, opts, max_steps)?;
        }
        Ok(())
    }

    /// [`Thread::run`] with the memory the thread's messages access.
    pub fn run_with_memory(
        &mut self,
        st: &mut ThreadState,
        opts: &ExecOptions,
        max_steps: u64,
        mem: &mut Memory,
    ) -> Result<(), RunError> {
        while !self.ended() {
            self.check_limit(max_steps)?;
            self.step_in(st, opts, Some(mem))?;
        }
        Ok(())
    }

    /// [`Thread::step`], first checking the step limit.
    pub fn step_limited(
        &mut self,
        st: &mut ThreadState,
        opts: &ExecOptions,
        max_steps: u64,
    ) -> Result<Step, RunError> {
        self.check_limit(max_steps)?;
        self.step(st, opts)
    }

    /// [`Thread::step_limited`] with the memory the thread's messages access.
    pub fn step_limited_with_memory(
        &mut self,
        st: &mut ThreadState,
        opts: &ExecOptions,
        max_steps: u64,
        mem: &mut Memory,
    ) -> Result<Step, RunError> {
        self.check_limit(max_steps)?;
        self.step_in(st, opts, Some(mem))
    }

    /// The step-limit error once `max_steps` instructions have executed.
    fn check_limit(&self, max_steps: u64) -> Result<(), RunError> {
        if self.steps >= max_steps {
            // The loop: what ran since the instruction at IP last ran (all the recent steps
            // when it did not run in them).
            let from = self.recent.iter().rposition(|&a| a == self.ip).unwrap_or(0);
            let mut loop_ips: Vec<u32> = self.recent.iter().skip(from).copied().collect();
            loop_ips.sort_unstable();
            loop_ips.dedup();
            return Err(RunError::StepLimit {
                limit: max_steps,
                loop_ips,
            });
        }
        Ok(())
    }

    /// Execute the instruction at IP (the caller checks [`Thread::ended`] first; at the end
    /// this is an [`ImageError::Outside`] error). A send runs without memory
    /// ([`Thread::step_with_memory`] gives it one).
    pub fn step(&mut self, st: &mut ThreadState, opts: &ExecOptions) -> Result<Step, RunError> {
        self.step_in(st, opts, None)
    }

    /// [`Thread::step`] with the memory the thread's messages access.
    pub fn step_with_memory(
        &mut self,
        st: &mut ThreadState,
        opts: &ExecOptions,
        mem: &mut Memory,
    ) -> Result<Step, RunError> {
        self.step_in(st, opts, Some(mem))
    }

    fn step_in(
        &mut self,
        st: &mut ThreadState,
        opts: &ExecOptions,
        mem: Option<&mut Memory>,
    ) -> Result<Step, RunError> {
        let ip = self.ip;
        let d = match self.image.at(ip) {
            Ok(d) => d.clone(),
            // flow.exception.illegal-opcode: an opcode undefined on the platform.
            Err(ImageError::UndefinedOpcode { .. }) => {
                let sip = self.exception_before(st, None, ip)?;
                let stand_in = Insn::new(Opcode::Illegal);
                return Ok(self.finish(ip, stand_in, 0, None, sip.unwrap_or(ip)));
            }
            Err(e) => return Err(e.into()),
        };
        if let Some(sip) = self.exception_before(st, Some(&d.insn), ip)? {
            return Ok(self.finish(ip, d.insn, 0, None, sip));
        }
        let insn = &d.insn;
        let next = ip.wrapping_add(d.size);
        let spf = match st.field(&CR0_0_SINGLE_PROGRAM_FLOW) {
            Some((v, false)) => v == 1,
            _ => {
                return Err(refused(
                    ip,
                    &flow::CHANNEL_SPF,
                    "cr0.0 SPF is undefined: the channel model is unknown",
                ))
            }
        };
        let at_ip = self.channels_at(ip);
        st.set_ip(ip);
        let (enabled, info, next_ip) = if insn.op.info().class == OpClass::Flow {
            let (active, next_ip) = self.branch(st, insn, ip, next, at_ip, spf)?;
            st.set_ip(next_ip);
            (active, None, next_ip)
        } else if insn.is_send() {
            let (info, next_ip) = self.send(st, insn, ip, next, at_ip, spf, mem)?;
            (info.enabled, Some(info), next_ip)
        } else {
            let pre = d.prepared.as_deref();
            let (info, next_ip) = self.plain(st, insn, pre, ip, next, at_ip, spf, opts)?;
            (info.enabled, Some(info), next_ip)
        };
        if let Some(row) = info.as_ref().and_then(|i| i.conflict) {
            self.conflict = Some((ip, row));
        }
        Ok(self.finish(ip, d.insn, enabled, info, next_ip))
    }

    /// The last instruction whose results a source conflict left undefined (its IP and row,
    /// e.g. feature.compressed-overlap), to explain a later refusal of an undefined value.
    pub fn last_conflict(&self) -> Option<(u32, &'static str)> {
        self.conflict
    }

    /// The end of a step: IP moves to `next_ip`, the step is counted and reported.
    fn finish(
        &mut self,
        ip: u32,
        insn: Insn,
        enabled: u32,
        info: Option<StepInfo>,
        next_ip: u32,
    ) -> Step {
        self.ip = next_ip;
        if self.halt_uip == Some(next_ip) {
            self.halt_uip = None;
        }
        self.steps += 1;
        if self.recent.len() == RECENT {
            self.recent.pop_front();
        }
        self.recent.push_back(ip);
        Step {
            ip,
            insn,
            enabled,
            info,
            next_ip,
            exception: self.take_event(),
            runner_grf: self.runner_grf.take(),
        }
    }

    /// A non-branching instruction: the executor with the channels on it.
    #[allow(clippy::too_many_arguments)]
    fn plain(
        &mut self,
        st: &mut ThreadState,
        insn: &Insn,
        pre: Option<&exec::Prepared>,
        ip: u32,
        next: u32,
        at_ip: u32,
        spf: bool,
        opts: &ExecOptions,
    ) -> Result<(StepInfo, u32), RunError> {
        if insn.ctrl.no_mask && at_ip == 0 {
            return Err(refused(
                ip,
                &flow::CHANNEL_NOMASK_NO_CHANNEL,
                "a NoMask instruction with no channel on it",
            ));
        }
        // Under SPF every channel is on the instruction (the runner keeps them together).
        st.set_channels_at_ip(if spf { u32::MAX } else { at_ip });
        let r = match pre {
            Some(pre) => exec::step_prepared(st, pre, opts),
            None => exec::step_with(st, insn, opts),
        };
        st.set_channels_at_ip(u32::MAX);
        let info = r.map_err(|err| match err {
            // send.gateway.wait-blocks: nothing was written and IP stays.
            ExecError::WouldBlock { reg } => RunError::Blocked { ip, reg },
            err => RunError::Exec { ip, err },
        })?;
        if let Some(to) = self.exception_after(st, insn, ip, next, at_ip, &info)? {
            return Ok((info, to));
        }
        if !info.jumped {
            self.move_channels(at_ip, next);
            st.set_ip(next);
            return Ok((info, next));
        }
        // flow.ip-write
        if spf {
            return Err(refused(
                ip,
                &flow::IP_WRITE_SPF,
                "this instruction writes ip with SPF on",
            ));
        }
        if insn.exec_size != 1 {
            return Err(refused(
                ip,
                &flow::IP_WRITE_WIDE,
                format!(
                    "this instruction writes ip with ExecSize {}",
                    insn.exec_size
                ),
            ));
        }
        let to = st.ip().ok_or(RunError::UndefinedIp)?;
        self.move_channels(at_ip, to);
        Ok((info, to))
    }

    /// A send (spec/memory.toml): its message executed with the channels on it, then the
    /// next instruction, or the end of the thread with EOT (send.eot).
    #[allow(clippy::too_many_arguments)]
    fn send(
        &mut self,
        st: &mut ThreadState,
        insn: &Insn,
        ip: u32,
        next: u32,
        at_ip: u32,
        spf: bool,
        mem: Option<&mut Memory>,
    ) -> Result<(StepInfo, u32), RunError> {
        if insn.ctrl.no_mask && at_ip == 0 {
            return Err(refused(
                ip,
                &flow::CHANNEL_NOMASK_NO_CHANNEL,
                "a NoMask instruction with no channel on it",
            ));
        }
        let _ = st.take_written();
        st.set_channels_at_ip(if spf { u32::MAX } else { at_ip });
        let r = shared::execute_traced(st, insn, mem, self.trace_messages);
        st.set_channels_at_ip(u32::MAX);
        let (out, report) = r.map_err(|err| RunError::Send { ip, err })?;
        self.message = report;
        let info = StepInfo {
            enabled: out.lanes,
            written: st.take_written(),
            ..StepInfo::default()
        };
        self.move_channels(at_ip, next);
        st.set_ip(next);
        if out.eot {
            self.eot = true;
        }
        if out.barrier {
            self.barrier = Some(out.barrier_m0_2.unwrap_or((0, u32::MAX)));
        }
        Ok((info, next))
    }

    /// The predicate of a branch for every thread channel (flow.channel.dispatched): the
    /// channels of `active` it enables. Sequential predication reads flag bit `n` of the
    /// instruction's flag subregister for channel `n`; the group and Align16 replicate
    /// predicates combine the flag bits of channel `n`'s group (flow.predicate.group);
    /// .anyv/.allv are refused (flow.predicate.anyv-allv).
    fn predicate(
        &self,
        st: &ThreadState,
        insn: &Insn,
        ip: u32,
        active: u32,
        n: usize,
    ) -> Result<u32, RunError> {
        let a16 = insn.a16_pred_chan();
        let row = match insn.pred {
            PredCtrl::None | PredCtrl::Seq => &flow::CHANNEL_DISPATCHED,
            // Align1 anyv/allv (in Align16 these encodings are the .x/.y replicate forms).
            PredCtrl::Anyv | PredCtrl::Allv if a16.is_none() => {
                return Err(refused(
                    ip,
                    &flow::PREDICATE_ANYV_ALLV,
                    format!("predicate {:?}", insn.pred),
                ));
            }
            PredCtrl::Any32h | PredCtrl::All32h if mask::flag_base(insn.flag) % 32 != 0 => {
                return Err(refused(
                    ip,
                    &flow::PREDICATE_GROUP,
                    format!(
                        "predicate {:?} on flag subregister f{}.{}: the group of 32 does not \
                         start at a multiple of 32 flag bits",
                        insn.pred, insn.flag.reg, insn.flag.sub
                    ),
                ));
            }
            _ => &flow::PREDICATE_GROUP,
        };
        let pm: Enables = mask::predicate(st, insn.pred, insn.pred_inv, insn.flag, 0, n, a16);
        if pm.unknown & active != 0 {
            return Err(refused(
                ip,
                row,
                format!(
                    "the predicate of channels {:#x} is undefined: initialise the flag bits of \
                     every dispatched channel (and of their predicate groups), or dispatch only \
                     the program's channels (sr0.2 DMask, e.g. 0xff for SIMD8)",
                    pm.unknown & active
                ),
            ));
        }
        Ok(pm.on & active)
    }

    /// A branch: the channels' moves and the IP after it.
    fn branch(
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
        let row_of = |op: Opcode| flow::of_op(op.name(), p);
        match op {
            Opcode::Goto | Opcode::Join if !insn.ctrl.no_mask => {
                self.goto_join_checks(insn, ip)?;
            }
            Opcode::Call | Opcode::Calla | Opcode::Ret => {
                return self.call_ret(st, insn, ip, next, at_ip, spf);
            }
            Opcode::Brc | Opcode::Brd => {
                return Err(refused(ip, &flow::BRC_BRD, op.name()));
            }
            _ => {}
        }
        let Some(row) = row_of(op) else {
            return Err(RunError::Exec {
                ip,
                err: ExecError::Unsupported {
                    what: format!("{}: no spec/flow.toml row on {}", op.name(), p.name()),
                },
            });
        };
        // An else with BranchCtrl follows its own row (flow.else.branch-ctrl) on Gen8+.
        let row = if op == Opcode::Else
            && insn.ctrl.branch_ctrl
            && flow::ELSE_BRANCH_CTRL.gens.contains(p)
        {
            &flow::ELSE_BRANCH_CTRL
        } else {
            row
        };
        if matches!(row.status, "undefined" | "unmodelled") {
            return Err(refused(ip, row, format!("{} on {}", op.name(), p.name())));
        }
        if op == Opcode::Jmpi {
            return self.jmpi(st, insn, ip, next, at_ip, row).map(|to| {
                self.move_channels(at_ip, to);
                (at_ip, to)
            });
        }
        if insn.ctrl.no_mask {
            return Err(refused(ip, &flow::STRUCTURED_NOMASK, op.name()));
        }
        // flow.branch-ctrl: if with BranchCtrl is refused; else with it moves as without
        // (flow.else.branch-ctrl: the channels to UIP, IP to the next instruction or JIP).
        if insn.ctrl.branch_ctrl && op == Opcode::If {
            return Err(refused(ip, &flow::BRANCH_CTRL, op.name()));
        }
        if matches!(op, Opcode::Else | Opcode::Endif) && insn.pred != PredCtrl::None {
            return Err(refused(ip, row, format!("{} is not predicable", op.name())));
        }
        let active = at_ip;
        let taken = self.predicate(st, insn, ip, active, CHANNELS)?;
        if spf && taken != 0 && taken != active && insn.pred != PredCtrl::None {
            return Err(refused(
                ip,
                &flow::CHANNEL_SPF,
                format!(
                    "SPF is on and the predicate splits the channels (taken {taken:#x} of \
                     {active:#x})"
                ),
            ));
        }
        let unit = crate::asm::jump_bytes(op, p);
        let off = |v: Option<i32>| v.map(|x| ip.wrapping_add_signed(x.wrapping_mul(unit)));
        let jip = off(insn.jip).ok_or_else(|| refused(ip, row, "the instruction has no JIP"))?;
        let uip = off(insn.uip);
        if op == Opcode::While {
            if let Some(j) = insn.jip.filter(|&j| j >= 0) {
                return Err(refused(
                    ip,
                    row,
                    format!("the while's JIP ({j}) is not negative: it must point back into the loop body"),
                ));
            }
        }
        // break and cont: UIP is the loop's while (flow.break, flow.cont).
        let after_uip = match (op, uip) {
            (Opcode::Break | Opcode::Cont, Some(u)) => {
                let held = match self.image.at(u) {
                    Ok(d) if d.insn.op == Opcode::While => Ok(d.size),
                    Ok(d) => Err(format!("holds {}", d.insn.op.name())),
                    Err(e) => Err(format!("is no instruction ({e})")),
                };
                match held {
                    Ok(size) => (op == Opcode::Break).then(|| u.wrapping_add(size)),
                    Err(what) => {
                        return Err(refused(
                            ip,
                            row,
                            format!(
                                "the {}'s UIP {u:#x} {what}, not the loop's while",
                                op.name()
                            ),
                        ));
                    }
                }
            }
            _ => None,
        };
        let targets = Targets {
            at: ip,
            next,
            jip,
            uip,
            after_uip,
        };
        let m = if matches!(op, Opcode::Goto | Opcode::Join) {
            goto_join::moves(op, targets, active, taken)
        } else {
            branch::moves(op, row, targets, active, taken)
                .map_err(|Refusal { row, detail }| refused(ip, row, detail))?
        };
        if m.halted != 0 {
            let u = uip.unwrap_or(jip);
            match self.halt_uip {
                Some(h) if h != u && self.channels_at(h) != 0 => {
                    return Err(refused(
                        ip,
                        &flow::HALT_SAME_UIP,
                        format!("channels halt to {u:#x}; others wait at {h:#x}"),
                    ));
                }
                _ => self.halt_uip = Some(u),
            }
        }
        for &(ch, to) in &m.moves {
            self.move_channels(ch, to);
        }
        let to = m.ip.unwrap_or_else(|| {
            if self.channels_at(next) != 0 {
                next
            } else {
                jip
            }
        });
        if spf && self.channels_at(to) != self.dispatched {
            return Err(refused(
                ip,
                &flow::CHANNEL_SPF,
                "SPF is on and the channels would continue at different addresses",
            ));
        }
        Ok((active, to))
    }

    /// jmpi (flow.jmpi): the address the thread jumps to (the next instruction when the
    /// predicate does not hold).
    fn jmpi(
        &self,
        st: &ThreadState,
        insn: &Insn,
        ip: u32,
        next: u32,
        _at_ip: u32,
        row: &'static FlowRowInfo,
    ) -> Result<u32, RunError> {
        // Sequential, or (Align1) the vertical anyv/allv of channel 0 (flow.pmask.vertical:
        // oneDNN's `jmpi (1) f0.0.anyv`); group predicates have no source for a jmpi.
        let vertical = matches!(insn.pred, PredCtrl::Anyv | PredCtrl::Allv)
            && insn.access != crate::spec::AccessMode::Align16;
        if !matches!(insn.pred, PredCtrl::None | PredCtrl::Seq) && !vertical {
            return Err(refused(
                ip,
                row,
                format!(
                    "predicate {:?}: a jmpi takes sequential or vertical (.anyv/.allv) predication, or none",
                    insn.pred
                ),
            ));
        }
        let pm = mask::predicate(
            st,
            insn.pred,
            insn.pred_inv,
            insn.flag,
            usize::from(insn.chan_off),
            1,
            None,
        );
        if pm.unknown & 1 != 0 {
            return Err(refused(ip, row, "the predicate's flag bit is undefined"));
        }
        if pm.on & 1 == 0 {
            return Ok(next);
        }
        // The offset: bytes from the next instruction (an immediate, or flow.jmpi.reg).
        let offset = operand::jmpi_offset(st, insn, ip, row)?;
        Ok(next.wrapping_add_signed(offset))
    }
}
