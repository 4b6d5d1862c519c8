//! Running a dispatch end to end: every thread of every work group of a [`Dispatch`] on one
//! [`Memory`] (docs/dispatch.md, "Running a dispatch").
//!
//! - the buffers: each A64 buffer at its address, each surface a window of the flat memory at a
//!   base the runner picks (4 KiB aligned, disjoint from the A64 buffers and the other
//!   surfaces; kernels address surfaces by offset, so the base is not visible to them), bound
//!   at its binding-table index; the initial contents loaded, the rest undefined
//!   (mem.undefined-bytes);
//! - work groups in order (X fastest, row payload.order.threads), each with a fresh SLM of
//!   `slm_size` bytes (none when 0: an SLM access is then refused, mem.slm.absent);
//! - the threads of a work group, each from its payload ([`super::payload::thread_state`]),
//!   interleaved round robin in thread order: each runs until it ends (EOT, the end of the
//!   image, an error or the step limit) or blocks on `wait` (send.gateway.wait-blocks), then
//!   the next; a barrier message counts its thread as arrived, and the last arrival
//!   increments every thread's n0.0 (send.gateway.barrier). When every thread left is
//!   blocked and no step was taken in a whole round, the barrier can never complete: each
//!   blocked thread ends with an error naming the threads (send.gateway.barrier-incomplete);
//! - the result: every buffer's final bytes (`None`: undefined) and one summary per thread.

use super::desc::Dispatch;
use super::payload::{self, PayloadError};
use super::trace::{TraceEvent, TraceItem};
use crate::asm::{print_insn, Dialect, PrintOptions};
use crate::exec::{ExecError, ExecOptions};
use crate::memory::{Memory, Slm, Surface as MemSurface};
use crate::shared::SendError;
use crate::spec::feature;
use crate::spec::memory as rows;
use crate::spec::registers::field::N0_0_THREAD_COUNT;
use crate::thread::trace::{line, written_regs};
use crate::thread::{Image, RunError, Thread, DEFAULT_MAX_STEPS};

/// How the runner runs each thread.
#[derive(Debug, Clone, Copy)]
pub struct RunOptions {
    /// Executed instructions a thread may take before it is stopped (its end is the step-limit
    /// error).
    pub max_steps: u64,
    /// Executor options (strict by default: an instruction violating a runtime rule is
    /// refused).
    pub exec: ExecOptions,
    /// Record the trace ([`RunResult::trace`], [`super::trace`]); off by default, when the
    /// threads' sends build no report and no access list.
    pub trace: bool,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            max_steps: DEFAULT_MAX_STEPS,
            exec: ExecOptions {
                strict: true,
                ..ExecOptions::default()
            },
            trace: false,
        }
    }
}

/// How a thread ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ThreadEnd {
    /// A send with EOT (send.eot).
    Eot,
    /// IP reached the end of the image without EOT (flow.program-end).
    EndOfImage,
    /// Stopped with an error at `ip` (`None`: before the first instruction); `row` is the
    /// spec row that refused it when there is one.
    Error {
        ip: Option<u32>,
        row: Option<String>,
        message: String,
    },
}

/// One thread's summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadSummary {
    /// The work group's number (X fastest) and ID.
    pub group: u64,
    pub group_id: [u32; 3],
    /// The thread's index in its work group.
    pub thread: u32,
    /// Its dispatch mask (sr0.2).
    pub dmask: u32,
    /// Executed instructions.
    pub steps: u64,
    pub end: ThreadEnd,
}

/// Which buffer of the description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BufferKind {
    /// `surfaces[index]`, at binding-table index `bti`, placed at `base` in the flat memory.
    Surface { index: usize, bti: u8, base: u64 },
    /// `a64_buffers[index]` at `address`.
    A64 { index: usize, address: u64 },
}

/// A buffer's final bytes (`None`: undefined) and their inexact marks (spec/memory.toml
/// mem.inexact; empty when no byte is inexact).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BufferResult {
    pub kind: BufferKind,
    pub bytes: Vec<Option<u8>>,
    /// One flag per byte, set when the byte is inexact; empty: every byte is exact.
    pub inexact: Vec<bool>,
}

impl BufferResult {
    /// Whether byte `i` is inexact (mem.inexact).
    pub fn byte_inexact(&self, i: usize) -> bool {
        self.inexact.get(i).copied().unwrap_or(false)
    }

    /// Whether any byte of `range` is inexact.
    pub fn range_inexact(&self, range: std::ops::Range<usize>) -> bool {
        range.into_iter().any(|i| self.byte_inexact(i))
    }
}

/// The outcome of a dispatch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunResult {
    /// The surfaces in description order, then the A64 buffers.
    pub buffers: Vec<BufferResult>,
    /// Every thread, work group by work group, in the order they ran.
    pub threads: Vec<ThreadSummary>,
    /// The trace, in the runner's order (`None`: [`RunOptions::trace`] was off).
    pub trace: Option<Vec<TraceItem>>,
}

impl RunResult {
    /// Whether every thread ended by EOT or at the end of the image.
    pub fn all_ended(&self) -> bool {
        self.threads
            .iter()
            .all(|t| !matches!(t.end, ThreadEnd::Error { .. }))
    }

    /// The final bytes of the surface at binding-table index `bti`.
    pub fn surface(&self, bti: u8) -> Option<&[Option<u8>]> {
        self.buffers.iter().find_map(|b| match b.kind {
            BufferKind::Surface { bti: x, .. } if x == bti => Some(b.bytes.as_slice()),
            _ => None,
        })
    }
}

/// A dispatch the runner cannot set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// No 4 KiB-aligned gap of the 64-bit space is free for a surface.
    #[error(
        "surfaces[{index}] ({size} bytes): no free 4 KiB-aligned range of the 64-bit space \
         is left beside the A64 buffers for it; give smaller or fewer A64 buffers"
    )]
    NoRoom { index: usize, size: u64 },
    /// A buffer too large for the runner to report byte by byte.
    #[error(
        "{what}: {size} bytes; the runner reports every byte of a buffer and takes at most \
         {MAX_BUFFER} bytes each; give a smaller size"
    )]
    TooLarge { what: String, size: u64 },
    #[error("{0}")]
    Payload(#[from] PayloadError),
}

/// The largest buffer the runner sets up (its final bytes are a vector of that length).
pub const MAX_BUFFER: u64 = 1 << 30;

/// The alignment of the surface bases the runner picks.
const SURFACE_ALIGN: u64 = 4096;

/// The first 4 KiB-aligned base (from 4 KiB on) where `size` bytes overlap none of `used`
/// (inclusive ranges).
fn free_base(used: &[(u64, u64)], size: u64) -> Option<u64> {
    let mut sorted = used.to_vec();
    sorted.sort_unstable();
    let mut base = SURFACE_ALIGN;
    for &(lo, hi) in &sorted {
        if base > hi {
            continue;
        }
        if base.checked_add(size.max(1) - 1)? < lo {
            return Some(base);
        }
        base = hi.checked_add(1)?.checked_next_multiple_of(SURFACE_ALIGN)?;
    }
    base.checked_add(size.max(1) - 1).map(|_| base)
}

/// The memory of `d` before the first thread: buffers placed, bound and loaded.
pub fn memory(d: &Dispatch) -> Result<(Memory, Vec<BufferKind>), SetupError> {
    let mut mem = Memory::new();
    mem.general_state_base = d.general_state_base;
    let mut kinds = Vec::new();
    let mut used: Vec<(u64, u64)> = d
        .a64_buffers
        .iter()
        .map(|b| (b.address, b.address + (b.size - 1)))
        .collect();
    let sizes = d
        .surfaces
        .iter()
        .map(|s| s.size)
        .enumerate()
        .map(|(i, n)| (format!("surfaces[{i}]"), n));
    let a64 = d
        .a64_buffers
        .iter()
        .map(|b| b.size)
        .enumerate()
        .map(|(i, n)| (format!("a64_buffers[{i}]"), n));
    if let Some((what, size)) = sizes.chain(a64).find(|&(_, n)| n > MAX_BUFFER) {
        return Err(SetupError::TooLarge { what, size });
    }
    for (index, s) in d.surfaces.iter().enumerate() {
        let base = free_base(&used, s.size).ok_or(SetupError::NoRoom {
            index,
            size: s.size,
        })?;
        used.push((base, base + (s.size.max(1) - 1)));
        mem.bind(s.bti, MemSurface { base, size: s.size });
        mem.flat.load(base, &s.init);
        kinds.push(BufferKind::Surface {
            index,
            bti: s.bti,
            base,
        });
    }
    for (index, b) in d.a64_buffers.iter().enumerate() {
        mem.flat.load(b.address, &b.init);
        kinds.push(BufferKind::A64 {
            index,
            address: b.address,
        });
    }
    Ok((mem, kinds))
}

/// The spec row behind a thread error, when there is one.
fn row_of(e: &RunError) -> Option<String> {
    match e {
        RunError::Refused { row, .. } => Some(row.id.to_string()),
        RunError::Send {
            err: SendError::Row(m),
            ..
        } => Some(m.row.id.to_string()),
        RunError::Exec {
            err: ExecError::Runtime { rule, .. },
            ..
        } => Some((*rule).to_string()),
        _ => None,
    }
}

/// The IP a thread error names (the thread's IP when the error carries none).
fn ip_of(e: &RunError, at: u32) -> u32 {
    match e {
        RunError::Refused { ip, .. } | RunError::Exec { ip, .. } | RunError::Send { ip, .. } => *ip,
        _ => at,
    }
}

/// Where a thread of a work group is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    /// It can step.
    Ready,
    /// Blocked on `wait` at this IP (send.gateway.wait-blocks).
    Blocked(u32),
    /// Ended (EOT, end of image or an error): its summary says how.
    Done,
}

/// One thread of the running work group.
struct Live {
    thread: Option<Thread>,
    state: crate::state::ThreadState,
    summary: ThreadSummary,
    status: Status,
    /// Arrived at the work group's barrier, which has not completed yet.
    arrived: bool,
    /// r0.2 as dispatched: the work group's barrier ID is in it (payload.r0.barrier-id).
    r0_2: u32,
    /// Stop the thread once it has executed this many instructions ([`run_threads`]).
    stop_after: u64,
    /// Stopped by `stop_after` (not ended).
    stopped: bool,
    /// Its executed steps, when recorded ([`run_threads`]).
    seen: Option<Vec<StepSeen>>,
}

impl Live {
    /// A thread from its payload (an error at the start ends it at once).
    fn new(image: &Image, mut p: payload::ThreadPayload, trace: bool) -> Live {
        let mut summary = ThreadSummary {
            group: p.group,
            group_id: p.group_id,
            thread: p.thread,
            dmask: p.dmask,
            steps: 0,
            end: ThreadEnd::EndOfImage,
        };
        let (thread, status) = match Thread::new(image.clone(), &mut p.state) {
            Ok(mut t) => {
                t.set_trace_messages(trace);
                (Some(t), Status::Ready)
            }
            Err(e) => {
                summary.end = ThreadEnd::Error {
                    ip: None,
                    row: row_of(&e),
                    message: e.to_string(),
                };
                (None, Status::Done)
            }
        };
        let r0_2 = p.state.read_grf(8, 4).map_or(0, |(v, _)| v as u32);
        Live {
            thread,
            state: p.state,
            summary,
            status,
            arrived: false,
            r0_2,
            stop_after: u64::MAX,
            stopped: false,
            seen: None,
        }
    }

    /// End the thread with an error at `ip`.
    fn fail(&mut self, ip: u32, row: Option<String>, mut message: String) {
        // An earlier source conflict may be why a value is undefined: say where it was.
        if let Some((at, conflict)) = self.thread.as_ref().and_then(Thread::last_conflict) {
            let choose = if conflict == feature::COMPRESSED_OVERLAP.id {
                "; `--compressed-overlap halves|sources-first` chooses a reading"
            } else {
                ""
            };
            message.push_str(&format!(
                " (IP {at:#x} left bits undefined where the sources conflict: [{conflict}]{choose})"
            ));
        }
        self.summary.end = ThreadEnd::Error {
            ip: Some(ip),
            row,
            message,
        };
        self.status = Status::Done;
    }
}

/// The trace being recorded (`None`: off).
type Trace = Option<Vec<TraceItem>>;

/// Record event `event` of `live[i]`.
fn event(trace: &mut Trace, l: &Live, event: TraceEvent) {
    if let Some(t) = trace {
        t.push(TraceItem::Event {
            group: l.summary.group,
            thread: l.summary.thread,
            event,
        });
    }
}

/// Record the step `l`'s thread just took.
fn record_step(trace: &mut Trace, l: &mut Live, step: &crate::thread::Step) {
    let (Some(tr), Some(t)) = (trace.as_mut(), l.thread.as_mut()) else {
        return;
    };
    let o = PrintOptions {
        dialect: Dialect::Iga,
        platform: l.state.platform(),
    };
    let insn = print_insn(&step.insn, &o);
    let wrote = written_regs(&l.state, step);
    let n = t.steps();
    tr.push(TraceItem::Step {
        group: l.summary.group,
        thread: l.summary.thread,
        text: line(n, step, &insn, &wrote, false),
        json: line(n, step, &insn, &wrote, true),
        message: t.take_message(),
    });
}

/// How a thread's end shows in the trace.
fn end_event(end: &ThreadEnd) -> TraceEvent {
    match end {
        ThreadEnd::Eot => TraceEvent::Eot,
        ThreadEnd::EndOfImage => TraceEvent::EndOfImage,
        ThreadEnd::Error { message, .. } => TraceEvent::Error {
            message: message.clone(),
        },
    }
}

/// Run `live[i]` until it ends or blocks (send.gateway.wait-blocks); a barrier message counts
/// it as arrived (send.gateway.barrier). Whether it took at least one step.
fn run_turn(
    live: &mut [Live],
    i: usize,
    mem: &mut Memory,
    o: &RunOptions,
    trace: &mut Trace,
) -> bool {
    let mut moved = false;
    loop {
        let l = &mut live[i];
        let Some(t) = l.thread.as_mut() else {
            l.status = Status::Done;
            return moved;
        };
        if t.ended() {
            l.summary.steps = t.steps();
            if t.ended_by_eot() {
                l.summary.end = ThreadEnd::Eot;
            }
            l.status = Status::Done;
            event(trace, l, end_event(&l.summary.end));
            return moved;
        }
        if t.steps() >= l.stop_after {
            l.summary.steps = t.steps();
            l.stopped = true;
            l.status = Status::Done;
            return moved;
        }
        let at = t.ip();
        match t.step_limited_with_memory(&mut l.state, &o.exec, o.max_steps, mem) {
            Ok(step) => {
                moved = true;
                l.status = Status::Ready;
                if let Some(seen) = l.seen.as_mut() {
                    seen.push(StepSeen {
                        ip: step.ip,
                        enabled: step.enabled,
                        op: step.insn.op,
                        eot: step.insn.ctrl.eot,
                        next_ip: step.next_ip,
                    });
                }
                record_step(trace, l, &step);
            }
            Err(RunError::Blocked { ip, .. }) => {
                if l.status != Status::Blocked(ip) {
                    event(trace, l, TraceEvent::Blocked { ip });
                }
                l.status = Status::Blocked(ip);
                return moved;
            }
            Err(e) => {
                l.summary.steps = t.steps();
                l.fail(ip_of(&e, at), row_of(&e), e.to_string());
                event(trace, l, end_event(&l.summary.end));
                return true;
            }
        }
        let Some(t) = l.thread.as_mut() else {
            return moved;
        };
        if let Some((m0_2, undef)) = t.take_barrier() {
            let steps = t.steps();
            if let Some(message) = wrong_barrier_id(l, m0_2, undef) {
                l.summary.steps = steps;
                l.fail(at, Some(rows::SEND_GATEWAY_BARRIER_ID.id.into()), message);
                event(trace, l, end_event(&l.summary.end));
                return true;
            }
            if l.arrived {
                let message = format!(
                    "[{}] thread {} sent a second barrier message before the barrier it \
                     arrived at completed",
                    rows::SEND_GATEWAY_BARRIER_AGAIN.id,
                    l.summary.thread
                );
                l.summary.steps = steps;
                l.fail(
                    at,
                    Some(rows::SEND_GATEWAY_BARRIER_AGAIN.id.into()),
                    message,
                );
                event(trace, l, end_event(&l.summary.end));
                return true;
            }
            l.arrived = true;
            let arrived = live.iter().filter(|x| x.arrived).count();
            event(
                trace,
                &live[i],
                TraceEvent::BarrierArrived {
                    arrived,
                    of: live.len(),
                },
            );
            if complete_barrier(live) {
                event(trace, &live[i], TraceEvent::BarrierComplete);
            }
        }
    }
}

/// send.gateway.barrier-id: the error when a barrier message's ID (in its payload dword 2
/// `m0_2`, with undefined bits `undef`) is defined and is not the ID of `l`'s work group. An
/// ID with an undefined bit is not checked (the row says why).
fn wrong_barrier_id(l: &Live, m0_2: u32, undef: u32) -> Option<String> {
    let mask = payload::barrier_id_mask(l.state.platform());
    let (got, want) = (m0_2 & mask, l.r0_2 & mask);
    let row = &rows::SEND_GATEWAY_BARRIER_ID;
    (undef & mask == 0 && got != want).then(|| {
        format!(
            "[{}] thread {} of work group {}: the barrier message's payload dword 2 gives \
             barrier ID bits {got:#010x}; the work group's (r0.2 as dispatched) are \
             {want:#010x} (cite: {})",
            row.id, l.summary.thread, l.summary.group, row.cite
        )
    })
}

/// send.gateway.barrier: when every thread of the work group has arrived, each one's n0.0 is
/// incremented and the barrier opens again.
/// Whether it completed.
fn complete_barrier(live: &mut [Live]) -> bool {
    if !live.iter().all(|l| l.arrived) {
        return false;
    }
    for l in live.iter_mut() {
        l.arrived = false;
        // An undefined count stays undefined (the wait then refuses it).
        if let Some((v, false)) = l.state.field(&N0_0_THREAD_COUNT) {
            let _ = l.state.set_field(&N0_0_THREAD_COUNT, v.wrapping_add(1));
        }
    }
    true
}

/// send.gateway.barrier-incomplete: every thread left is blocked and none can be woken; each
/// blocked thread ends with an error naming the blocked and the ended threads.
fn fail_incomplete(live: &mut [Live], trace: &mut Trace) {
    let list = |f: &dyn Fn(&Live) -> bool| -> String {
        let v: Vec<String> = live
            .iter()
            .filter(|l| f(l))
            .map(|l| l.summary.thread.to_string())
            .collect();
        if v.is_empty() {
            "none".into()
        } else {
            v.join(", ")
        }
    };
    let blocked = list(&|l| matches!(l.status, Status::Blocked(_)));
    let arrived = list(&|l| l.arrived);
    let ended = list(&|l| l.status == Status::Done);
    let row = &rows::SEND_GATEWAY_BARRIER_INCOMPLETE;
    for l in live.iter_mut() {
        if let Status::Blocked(ip) = l.status {
            let message = format!(
                "[{}] IP {ip:#x}: thread {} waits for a notification that cannot come: \
                 threads {blocked} wait (arrived at the barrier: {arrived}) and threads \
                 {ended} have ended (cite: {})",
                row.id, l.summary.thread, row.cite
            );
            l.summary.steps = l.thread.as_ref().map_or(0, Thread::steps);
            l.fail(ip, Some(row.id.into()), message);
            event(trace, l, end_event(&l.summary.end));
        }
    }
}

/// Run the threads of one work group, interleaved round robin (send.gateway.wait-blocks).
fn run_group(live: &mut [Live], mem: &mut Memory, o: &RunOptions, trace: &mut Trace) {
    loop {
        let mut moved = false;
        for i in 0..live.len() {
            if live[i].status != Status::Done {
                moved |= run_turn(live, i, mem, o, trace);
            }
        }
        if live.iter().all(|l| l.status == Status::Done) {
            return;
        }
        if !moved {
            // A thread stopped by its step limit ([`run_threads`]) may be what the blocked
            // ones wait for: they stop where they are (blocked), no error.
            if !live.iter().any(|l| l.stopped) {
                fail_incomplete(live, trace);
            }
            return;
        }
    }
}

/// One executed step of a thread, as [`run_threads`] records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepSeen {
    pub ip: u32,
    /// `Step.enabled`.
    pub enabled: u32,
    pub op: crate::spec::Opcode,
    /// A send with end of thread.
    pub eot: bool,
    pub next_ip: u32,
}

/// Where one thread of [`run_threads`] stopped.
#[derive(Debug, Clone)]
pub struct ThreadRun {
    pub state: crate::state::ThreadState,
    /// Instructions it executed.
    pub steps: u64,
    /// Its program ended (EOT or the end of the image); false: stopped by the step limit or
    /// blocked at a barrier that can no longer complete under the limit.
    pub ended: bool,
    /// How it ended (an error: the thread's error, the run's answer).
    pub end: ThreadEnd,
    /// Its executed steps in order (empty unless recorded).
    pub seen: Vec<StepSeen>,
}

/// Run `states` as the threads of one work group on `image` and `mem` (its SLM, if any,
/// shared), as [`run`] runs a work group (round robin, send.gateway.wait-blocks; barriers
/// complete when every thread arrived, send.gateway.barrier). Thread `t` has index `t`; the
/// work group's barrier ID is each thread's r0.2 (0 where undefined: send.gateway.barrier-id).
///
/// `stop_after`: each thread stops once it has executed that many of its own instructions;
/// a thread then blocked at a barrier that can no longer complete (a thread it waits for
/// was stopped) stops there, not ended and without an error. Without a limit such a barrier
/// ends the blocked threads with send.gateway.barrier-incomplete, as in [`run`].
/// `record`: keep each thread's executed steps ([`ThreadRun::seen`]).
pub fn run_threads(
    image: &Image,
    states: Vec<crate::state::ThreadState>,
    mem: &mut Memory,
    o: &RunOptions,
    stop_after: Option<u64>,
    record: bool,
) -> Vec<ThreadRun> {
    let mut live: Vec<Live> = states
        .into_iter()
        .enumerate()
        .map(|(t, mut state)| {
            let dmask = state
                .field(&crate::spec::registers::field::SR0_2_DMASK)
                .map_or(0, |(v, _)| v);
            let r0_2 = match state.read_grf(8, 4) {
                Ok((v, false)) => v as u32,
                _ => 0,
            };
            let mut summary = ThreadSummary {
                group: 0,
                group_id: [0; 3],
                thread: t as u32,
                dmask,
                steps: 0,
                end: ThreadEnd::EndOfImage,
            };
            let (thread, status) = match Thread::new(image.clone(), &mut state) {
                Ok(t) => (Some(t), Status::Ready),
                Err(e) => {
                    summary.end = ThreadEnd::Error {
                        ip: None,
                        row: row_of(&e),
                        message: e.to_string(),
                    };
                    (None, Status::Done)
                }
            };
            Live {
                thread,
                state,
                summary,
                status,
                arrived: false,
                r0_2,
                stop_after: stop_after.unwrap_or(u64::MAX),
                stopped: false,
                seen: record.then(Vec::new),
            }
        })
        .collect();
    run_group(&mut live, mem, o, &mut None);
    live.into_iter()
        .map(|l| {
            let (steps, ended) = l
                .thread
                .as_ref()
                .map_or((0, false), |t| (t.steps(), t.ended()));
            ThreadRun {
                state: l.state,
                steps,
                ended: ended && !matches!(l.summary.end, ThreadEnd::Error { .. }),
                end: l.summary.end,
                seen: l.seen.unwrap_or_default(),
            }
        })
        .collect()
}

/// Run every thread of `d` on `image` (its base is the threads' first IP).
pub fn run(d: &Dispatch, image: &Image, o: &RunOptions) -> Result<RunResult, SetupError> {
    let (mut mem, kinds) = memory(d)?;
    // Every thread starts from a clone of the image: decode it once for all of them.
    let mut decoded = image.clone();
    decoded.predecode();
    let image = &decoded;
    let mut threads = Vec::new();
    let mut trace: Trace = o.trace.then(Vec::new);
    for group in 0..d.group_count() {
        if d.slm_size > 0 {
            mem.set_slm(Slm::new(d.slm_size));
        }
        let mut live = Vec::new();
        for t in 0..d.threads_per_group() {
            live.push(Live::new(
                image,
                payload::thread_state(d, group, t)?,
                o.trace,
            ));
        }
        for l in live.iter().filter(|l| l.status == Status::Done) {
            // Ended before its first instruction.
            event(&mut trace, l, end_event(&l.summary.end));
        }
        run_group(&mut live, &mut mem, o, &mut trace);
        threads.extend(live.into_iter().map(|l| l.summary));
        let _ = mem.take_slm();
    }
    let buffers = kinds
        .into_iter()
        .map(|kind| {
            let (base, size) = match kind {
                BufferKind::Surface { index, base, .. } => (base, d.surfaces[index].size),
                BufferKind::A64 { index, address } => (address, d.a64_buffers[index].size),
            };
            let bytes = mem.flat.read(base, size as usize);
            let inexact = if mem.flat.any_inexact(base, size as usize) {
                mem.flat.inexact(base, size as usize)
            } else {
                Vec::new()
            };
            BufferResult {
                kind,
                bytes,
                inexact,
            }
        })
        .collect();
    Ok(RunResult {
        buffers,
        threads,
        trace,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_base_skips_used_ranges() {
        assert_eq!(free_base(&[], 10), Some(0x1000));
        assert_eq!(free_base(&[(0x1000, 0x1003)], 10), Some(0x2000));
        // 0x800 bytes fit below 0x1800 (first fit); 0x900 do not, and go after the range.
        assert_eq!(free_base(&[(0x1800, 0x2fff)], 0x800), Some(0x1000));
        assert_eq!(free_base(&[(0x1800, 0x2fff)], 0x900), Some(0x3000));
        assert_eq!(free_base(&[(0x3000, 0x3fff)], 0x2000), Some(0x1000));
        assert_eq!(free_base(&[(0x1000, u64::MAX)], 1), None);
    }
}
