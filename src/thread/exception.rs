//! Exceptions of a running thread (the `flow.exception.*` rows of spec/flow.toml): the
//! breakpoint, illegal-opcode and software exceptions, the jump to the System IP and the
//! return to the AIP.
//!
//! [`Thread::step`] asks this module twice per instruction:
//! - before it executes ([`Thread::exception_before`]): a `{Breakpoint}` instruction
//!   (flow.exception.breakpoint, flow.exception.breakpoint-suppress) or an illegal or
//!   undefined opcode (flow.exception.illegal-opcode) takes an exception instead of executing;
//! - after a non-branching instruction executed ([`Thread::exception_after`]): a write that
//!   set cr0.1 bit 29 takes a software exception (flow.exception.software); a write that
//!   cleared cr0.0 bit 31 in the System Routine returns to the AIP (flow.exception.return).
//!
//! Taking an exception (flow.exception.entry) sets the status bit, AIP and the master bit in
//! cr0 and jumps to the System IP ([`Thread::set_sip`], flow.exception.sip); the application's
//! channel state waits aside until the return (flow.exception.channels). What the rows leave
//! undefined is refused with the row's ID.

use super::{refused, RunError, Thread, CHANNELS};
use crate::exec::StepInfo;
use crate::isa::{Insn, ThreadCtrl};
use crate::spec::flow::{self, FlowRowInfo};
use crate::spec::registers::field::{
    CR0_0_BREAKPOINT_SUPPRESS, CR0_0_MASTER_EXCEPTION_STATE, CR0_1_BREAKPOINT_ENABLE,
    CR0_1_BREAKPOINT_STATUS, CR0_1_ILLEGAL_OPCODE_ENABLE, CR0_1_ILLEGAL_OPCODE_STATUS,
    CR0_1_SOFTWARE_EXCEPTION_CONTROL, CR0_1_SOFTWARE_EXCEPTION_ENABLE, CR0_2_AIP,
};
use crate::spec::registers::FieldInfo;
use crate::spec::Opcode;
use crate::state::ThreadState;

/// The exceptions an instruction raises in the runner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A `{Breakpoint}` instruction (flow.exception.breakpoint).
    Breakpoint,
    /// Opcode 0 or an opcode undefined on the platform (flow.exception.illegal-opcode).
    IllegalOpcode,
    /// A write setting cr0.1 bit 29 (flow.exception.software).
    Software,
}

impl Kind {
    /// The name used in messages and traces.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Breakpoint => "breakpoint",
            Kind::IllegalOpcode => "illegal opcode",
            Kind::Software => "software",
        }
    }
}

/// What a step did besides executing: an exception taken or a return from the routine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// An exception was taken: AIP saved, IP = SIP.
    Entered { kind: Kind, aip: u32, sip: u32 },
    /// The System Routine cleared cr0.0 bit 31: IP = AIP.
    Returned { aip: u32 },
}

/// The application's channel state kept aside while the System Routine runs
/// (flow.exception.channels).
#[derive(Debug, Clone)]
struct Saved {
    pcip: [u32; CHANNELS],
    halt_uip: Option<u32>,
    /// The AIP saved on entry: the channels waiting here follow IP to the AIP of the return.
    resume: u32,
}

/// The runner's exception state of a thread.
#[derive(Debug, Clone, Default)]
pub struct Exceptions {
    /// The System IP (flow.exception.sip).
    sip: Option<u32>,
    /// Set while the runner is in a System Routine it entered.
    saved: Option<Box<Saved>>,
    /// cr0.0 bit 31 was a defined 1 when the current instruction started.
    master_before: bool,
    /// The event of the current step, handed to its [`super::Step`].
    event: Option<Event>,
}

/// A cr0 bit as a bool; undefined is refused with `row`.
fn bit(
    st: &ThreadState,
    f: &FieldInfo,
    ip: u32,
    row: &'static FlowRowInfo,
    what: &str,
) -> Result<bool, RunError> {
    match st.field(f) {
        Some((v, false)) => Ok(v != 0),
        _ => Err(refused(
            ip,
            row,
            format!("{what} is undefined: the exception's outcome is unknown"),
        )),
    }
}

/// Set a cr0 field as hardware does (bypassing the access rules of program writes).
fn set(st: &mut ThreadState, f: &FieldInfo, v: u32, ip: u32) -> Result<(), RunError> {
    st.set_field(f, v)
        .map_err(|e| refused(ip, &flow::EXCEPTION_ENTRY, e.to_string()))
}

fn switch(insn: &Insn) -> bool {
    insn.ctrl.thread == ThreadCtrl::Switch
}

impl Thread {
    /// The System IP exceptions jump to (flow.exception.sip); `None` (the default): an
    /// enabled exception is refused.
    pub fn set_sip(&mut self, sip: Option<u32>) {
        self.exc.sip = sip;
    }

    /// The System IP.
    pub fn sip(&self) -> Option<u32> {
        self.exc.sip
    }

    /// Whether the thread is in a System Routine the runner entered.
    pub fn in_routine(&self) -> bool {
        self.exc.saved.is_some()
    }

    /// The event of the step that just ran (taken by [`Thread::step`]).
    pub(super) fn take_event(&mut self) -> Option<Event> {
        self.exc.event.take()
    }

    /// Before the instruction at `ip` executes (`insn` None: its opcode is undefined on the
    /// platform): the breakpoint and illegal-opcode checks. `Some(sip)`: an exception was
    /// taken and IP is the SIP; `None`: execute the instruction.
    pub(super) fn exception_before(
        &mut self,
        st: &mut ThreadState,
        insn: Option<&Insn>,
        ip: u32,
    ) -> Result<Option<u32>, RunError> {
        self.exc.master_before = st.field(&CR0_0_MASTER_EXCEPTION_STATE) == Some((1, false));
        let illegal = insn.map_or(true, |i| i.op == Opcode::Illegal);
        let bp = insn.is_some_and(|i| i.ctrl.breakpoint);
        if !illegal && !bp {
            return Ok(None);
        }
        let what = insn.map_or_else(
            || "an undefined opcode".to_string(),
            |i| format!("`{}`", i.op.name()),
        );
        let in_routine = bit(
            st,
            &CR0_0_MASTER_EXCEPTION_STATE,
            ip,
            &flow::EXCEPTION_ENTRY,
            "cr0.0 bit 31 (master exception state)",
        )?;
        let bp_on = bp
            && bit(
                st,
                &CR0_1_BREAKPOINT_ENABLE,
                ip,
                &flow::EXCEPTION_BREAKPOINT,
                "cr0.1 bit 15 (breakpoint enable)",
            )?;
        if in_routine && (illegal || bp_on) {
            let cond = if illegal {
                format!("{what} (illegal-opcode exception)")
            } else {
                format!("{what} with {{Breakpoint}} and breakpoints enabled")
            };
            return Err(refused(
                ip,
                &flow::EXCEPTION_NESTED,
                format!("{cond} inside the System Routine (cr0.0 bit 31 is 1)"),
            ));
        }
        let mut take_bp = false;
        if bp && !bp_on {
            // flow.exception.disabled: the status bit records the event; the instruction runs.
            set(st, &CR0_1_BREAKPOINT_STATUS, 1, ip)?;
        } else if bp {
            let suppressed = bit(
                st,
                &CR0_0_BREAKPOINT_SUPPRESS,
                ip,
                &flow::EXCEPTION_BREAKPOINT_SUPPRESS,
                "cr0.0 bit 15 (breakpoint suppress)",
            )?;
            if suppressed {
                // flow.exception.breakpoint-suppress: executed once, the bit reset by hardware.
                set(st, &CR0_0_BREAKPOINT_SUPPRESS, 0, ip)?;
            } else {
                take_bp = true;
            }
        }
        if take_bp && illegal {
            return Err(refused(
                ip,
                &flow::EXCEPTION_SIMULTANEOUS,
                format!("{what} with {{Breakpoint}}: a breakpoint and an illegal-opcode exception"),
            ));
        }
        if take_bp {
            return self.enter(st, Kind::Breakpoint, ip, ip).map(Some);
        }
        if illegal {
            let on = bit(
                st,
                &CR0_1_ILLEGAL_OPCODE_ENABLE,
                ip,
                &flow::EXCEPTION_ILLEGAL_OPCODE,
                "cr0.1 bit 12 (illegal opcode exception enable)",
            )?;
            if !on {
                return Err(refused(
                    ip,
                    &flow::EXCEPTION_ILLEGAL_OPCODE_DISABLED,
                    format!(
                        "{what} with the illegal-opcode exception disabled (cr0.1 bit 12 is 0)"
                    ),
                ));
            }
            return self.enter(st, Kind::IllegalOpcode, ip, ip).map(Some);
        }
        Ok(None)
    }

    /// After the non-branching instruction `insn` at `ip` executed (`at_ip`: the channels on
    /// it, `next`: the next instruction): a software exception or the return from the
    /// routine. `Some(to)`: IP goes to `to` (the channels are moved); `None`: go on as usual.
    pub(super) fn exception_after(
        &mut self,
        st: &mut ThreadState,
        insn: &Insn,
        ip: u32,
        next: u32,
        at_ip: u32,
        info: &StepInfo,
    ) -> Result<Option<u32>, RunError> {
        if info.software_exception {
            let on = bit(
                st,
                &CR0_1_SOFTWARE_EXCEPTION_ENABLE,
                ip,
                &flow::EXCEPTION_SOFTWARE,
                "cr0.1 bit 13 (software exception enable)",
            )?;
            if !on {
                // flow.exception.disabled: bit 29 stays set; the program goes on.
                return Ok(None);
            }
            if !switch(insn) {
                return Err(refused(
                    ip,
                    &flow::EXCEPTION_CR0_SWITCH,
                    "this write to cr0.1 raises a software exception without {Switch}",
                ));
            }
            self.move_channels(at_ip, next);
            return self.enter(st, Kind::Software, ip, next).map(Some);
        }
        let returned = info.jumped
            && self.exc.master_before
            && st.field(&CR0_0_MASTER_EXCEPTION_STATE) == Some((0, false));
        if !returned {
            return Ok(None);
        }
        if !switch(insn) {
            return Err(refused(
                ip,
                &flow::EXCEPTION_CR0_SWITCH,
                "this write to cr0.0 returns from the System Routine without {Switch}",
            ));
        }
        let Some(saved) = self.exc.saved.take() else {
            return Err(refused(
                ip,
                &flow::EXCEPTION_RETURN_WITHOUT_ENTRY,
                "cr0.0 bit 31 is cleared, but the runner entered no System Routine",
            ));
        };
        let aip = match st.field(&CR0_2_AIP) {
            Some((v, false)) => v << 3,
            _ => {
                return Err(refused(
                    ip,
                    &flow::EXCEPTION_RETURN,
                    "the AIP (cr0.2 bits 31:3) is undefined: nowhere to return to",
                ))
            }
        };
        // flow.exception.channels: the application's channels back; those at the saved
        // resume address follow IP to the AIP.
        self.pcip = saved.pcip;
        self.halt_uip = saved.halt_uip;
        let follow = self.channels_at(saved.resume);
        self.move_channels(follow, aip);
        st.set_ip(aip);
        self.exc.event = Some(Event::Returned { aip });
        Ok(Some(aip))
    }

    /// Take exception `kind` raised by the instruction at `at` with `aip`
    /// (flow.exception.entry): status bit, AIP, master bit, the channels aside, IP = SIP.
    fn enter(
        &mut self,
        st: &mut ThreadState,
        kind: Kind,
        at: u32,
        aip: u32,
    ) -> Result<u32, RunError> {
        let sip = self.exc.sip.ok_or_else(|| {
            refused(
                at,
                &flow::EXCEPTION_SIP,
                format!(
                    "a {} exception is taken but no System IP is given (euref run --sip \
                     LABEL|OFFSET; Thread::set_sip)",
                    kind.name()
                ),
            )
        })?;
        let status = match kind {
            Kind::Breakpoint => &CR0_1_BREAKPOINT_STATUS,
            Kind::IllegalOpcode => &CR0_1_ILLEGAL_OPCODE_STATUS,
            Kind::Software => &CR0_1_SOFTWARE_EXCEPTION_CONTROL,
        };
        set(st, status, 1, at)?;
        set(st, &CR0_2_AIP, aip >> 3, at)?;
        set(st, &CR0_0_MASTER_EXCEPTION_STATE, 1, at)?;
        self.exc.saved = Some(Box::new(Saved {
            pcip: self.pcip,
            halt_uip: self.halt_uip.take(),
            resume: aip,
        }));
        self.pcip = [sip; CHANNELS];
        st.set_ip(sip);
        self.exc.event = Some(Event::Entered { kind, aip, sip });
        Ok(sip)
    }
}
