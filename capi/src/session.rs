//! One thread of the C interface in safe Rust: its platform, state, program, memory and the
//! report of the last step. The extern "C" functions (crate::ffi) only check pointers, catch
//! panics and convert.

use crate::error::Error;
use crate::ffi_types::*;
use crate::host_memory::HostMemory;
use crate::writes;
use euref::exec::unpredictable::{self, Unpredictable};
use euref::exec::ExecOptions;
use euref::isa::Insn;
use euref::memory::{Memory, Slm, Surface};
use euref::spec::Platform;
use euref::state::{json, ThreadState};
use euref::thread::{Image, ImageError, RunError, Thread};
use euref::validate::ExecContext;
use std::sync::Arc;

/// The validator rule the runner models itself (the illegal-opcode exception), left out of
/// the static check as `euref run` does.
const ILLEGAL_OPCODE_RULE: &str = "op.illegal-opcode";

/// The last instruction executed.
#[derive(Debug, Clone)]
pub struct Last {
    pub ip: u32,
    /// `None`: an opcode undefined on the platform (the illegal-opcode exception).
    pub insn: Option<Insn>,
    pub enabled: u32,
    pub next_ip: u32,
}

/// A thread of the C interface.
#[derive(Debug)]
pub struct Session {
    platform: Platform,
    state: ThreadState,
    /// The program image as loaded (the thread runs a copy, made at the first step).
    program: Option<Image>,
    thread: Option<Thread>,
    memory: Memory,
    host: Option<Arc<HostMemory>>,
    opts: ExecOptions,
    /// Per 8-byte slot of the program: the execution contexts (bit `preemptible * 2 + spf`)
    /// in which the instruction there passed the static check.
    checked: Vec<u8>,
    last: Option<Last>,
    /// The state before the last step (the spec rows of a mismatch are derived from it),
    /// kept when `keep_before` (the default).
    before: ThreadState,
    keep_before: bool,
    /// `before` equals the state at the start of the last step, and the state has changed
    /// since only by that step's writes to the GRF bytes `pending` (None: make `before` a
    /// whole copy at the next step).
    pending: Option<std::ops::Range<usize>>,
    writes: Vec<euref_write>,
}

impl Session {
    /// A thread of `platform` (a `--gen` name: ivb, hsw, bdw, chv, skl, bxt, 7 .. 9) in the
    /// documented default state, with no program and empty memory; strict execution.
    pub fn new(platform: &str) -> Result<Session, Error> {
        let p = euref::gen::parse_gen(platform)
            .map_err(|e| Error::new(EUREF_ERR_PLATFORM, e.to_string()))?;
        let state = ThreadState::new(p);
        Ok(Session {
            platform: p,
            before: state.clone(),
            keep_before: true,
            pending: None,
            state,
            program: None,
            thread: None,
            memory: Memory::new(),
            host: None,
            opts: ExecOptions {
                strict: true,
                ..ExecOptions::default()
            },
            checked: Vec::new(),
            last: None,
            writes: Vec::new(),
        })
    }

    pub fn platform(&self) -> Platform {
        self.platform
    }

    pub fn state(&self) -> &ThreadState {
        &self.state
    }

    pub fn state_mut(&mut self) -> &mut ThreadState {
        self.pending = None;
        &mut self.state
    }

    /// The state before the last step, when kept ([`Session::set_keep_before`]).
    pub fn before(&self) -> Option<&ThreadState> {
        self.keep_before.then_some(&self.before)
    }

    /// Whether each step first copies the state (the spec rows of a mismatch report need
    /// it; about a fifth of a step's cost through the C interface).
    pub fn set_keep_before(&mut self, on: bool) {
        self.keep_before = on;
        self.pending = None;
    }

    pub fn last(&self) -> Option<&Last> {
        self.last.as_ref()
    }

    pub fn writes(&self) -> &[euref_write] {
        &self.writes
    }

    pub fn memory(&self) -> &Memory {
        &self.memory
    }

    /// Strict execution (the default) refuses an instruction that breaks a rule of spec/rules
    /// or spec/runtime; lenient execution runs it and marks what the rule makes unpredictable
    /// undefined (as `euref run --lenient`).
    pub fn set_strict(&mut self, strict: bool) {
        self.opts.strict = strict;
        self.checked.iter_mut().for_each(|c| *c = 0);
    }

    /// Load the program `bytes` at address `base` (its first instruction runs first). Every
    /// instruction laid out from the base must decode (an opcode undefined on the platform
    /// is kept: executing it raises the illegal-opcode exception). The thread starts anew.
    pub fn load_program(&mut self, bytes: &[u8], base: u32) -> Result<(), Error> {
        if bytes.is_empty() {
            return Err(Error::arg("the program is empty (0 bytes)"));
        }
        if bytes.len() % 8 != 0 {
            return Err(Error::new(
                EUREF_ERR_DECODE,
                format!(
                    "the program is {} bytes, not a multiple of 8: instructions are 16 bytes \
                     (8 compacted)",
                    bytes.len()
                ),
            ));
        }
        if u64::from(base) + bytes.len() as u64 > u64::from(u32::MAX) {
            return Err(Error::arg(format!(
                "a program of {} bytes at {base:#x} runs past the 32-bit IP space",
                bytes.len()
            )));
        }
        let mut image = Image::new(self.platform, bytes.to_vec(), base);
        let mut at = 0u32;
        while (at as usize) < bytes.len() {
            match image.at(base + at) {
                Ok(d) => at += d.size,
                // Executing it raises the exception (flow.exception.illegal-opcode); its size
                // is unknown, so the check stops here.
                Err(ImageError::UndefinedOpcode { .. }) => break,
                Err(e) => return Err(Error::new(EUREF_ERR_DECODE, e.to_string())),
            }
        }
        // Operands resolved once per instruction, as a dispatch does (Image::predecode).
        image.predecode();
        self.checked = vec![0; bytes.len() / 8];
        // The static check of every instruction in the state's execution context, once, here
        // rather than in the first step that reaches it (an instruction that fails is refused
        // when a step reaches it, not now).
        let mut at = 0u32;
        while (at as usize) < bytes.len() {
            let Ok(d) = image.at(base + at) else {
                break;
            };
            let (insn, size) = (d.insn.clone(), d.size);
            self.static_violations(base, base + at, &insn);
            at += size;
        }
        self.program = Some(image);
        self.restart();
        Ok(())
    }

    /// Replace the state with the state JSON `text` (as `euref run --state` reads it); the
    /// thread starts anew at the next step.
    pub fn load_state_json(&mut self, text: &[u8]) -> Result<(), Error> {
        let st = json::load_bytes(self.platform, text)
            .map_err(|e| Error::new(EUREF_ERR_PARSE, format!("state JSON: {e}")))?;
        self.state = st;
        self.restart();
        Ok(())
    }

    /// The thread is dispatched again at the next step (from the state's execution mask).
    fn restart(&mut self) {
        self.thread = None;
        self.pending = None;
        self.last = None;
        self.writes.clear();
    }

    /// The thread, dispatched on first use.
    fn thread(&mut self) -> Result<&mut Thread, Error> {
        if self.thread.is_none() {
            let Some(image) = &self.program else {
                return Err(Error::arg(
                    "no program is loaded: call euref_load_program first",
                ));
            };
            self.pending = None;
            let mut t = Thread::new(image.clone(), &mut self.state)?;
            t.set_trace_messages(true);
            self.thread = Some(t);
        }
        Ok(self.thread.as_mut().expect("set above"))
    }

    /// Whether the program has ended (false before the first step).
    pub fn ended(&self) -> bool {
        self.thread.as_ref().is_some_and(Thread::ended)
    }

    /// The static restrictions (spec/rules) `insn` at `ip` violates in the current state
    /// (cached per address and execution context once it passes).
    fn static_violations(
        &mut self,
        base: u32,
        ip: u32,
        insn: &Insn,
    ) -> Vec<euref::validate::Violation> {
        let ctx = ExecContext {
            preemptible: self.state.preemptible(),
            spf: self.state.spf() == Some(true),
        };
        let bit = 1u8 << (u8::from(ctx.preemptible) * 2 + u8::from(ctx.spf));
        let slot = (ip.wrapping_sub(base) / 8) as usize;
        if self.checked.get(slot).is_some_and(|c| c & bit != 0) {
            return Vec::new();
        }
        let v: Vec<_> = euref::validate::check_insn_in(self.platform, insn, &ctx)
            .into_iter()
            .filter(|v| v.rule.id != ILLEGAL_OPCODE_RULE)
            .collect();
        if v.is_empty() {
            if let Some(c) = self.checked.get_mut(slot) {
                *c |= bit;
            }
        }
        v
    }

    /// Execute one instruction; its writes are then in [`Session::writes`].
    pub fn step(&mut self) -> Result<euref_step_info, Error> {
        self.last = None;
        self.writes.clear();
        let th = self.thread()?;
        if th.ended() {
            let how = if th.ended_by_eot() {
                "a send with EOT ended the thread"
            } else {
                "IP is at the end of the program"
            };
            return Err(Error::new(
                EUREF_ERR_ENDED,
                format!("the program has ended ({how}): nothing to step"),
            ));
        }
        let ip = th.ip();
        let insn = match th.current() {
            Ok(d) => d.map(|d| d.insn.clone()),
            Err(RunError::Image(ImageError::UndefinedOpcode { .. })) => None,
            Err(e) => return Err(e.into()),
        };
        let base = th.image().base();
        let stat = match &insn {
            Some(i) => self.static_violations(base, ip, i),
            None => Vec::new(),
        };
        if self.opts.strict && !stat.is_empty() {
            let rows: Vec<String> = stat
                .iter()
                .map(|v| format!("[{}] {} (cite: {})", v.rule.id, v.rule.msg, v.rule.cite))
                .collect();
            return Err(Error::new(
                EUREF_ERR_REFUSED,
                format!(
                    "IP {ip:#x}: refused (strict execution): {}",
                    rows.join("; ")
                ),
            ));
        }
        if self.keep_before {
            match self.pending.take() {
                Some(grf) => self.before.sync_from(&self.state, grf),
                None => self.before.clone_from(&self.state),
            }
        }
        let th = self.thread.as_mut().expect("dispatched above");
        let r = th.step_with_memory(&mut self.state, &self.opts, &mut self.memory);
        // What the step wrote to the GRF, for the next step's `before` (a branch: what the
        // runner wrote; an exception, an error or unpredictable marks: a whole copy).
        self.pending = match &r {
            Ok(step) if step.exception.is_none() && stat.is_empty() => Some(match &step.info {
                Some(info) if info.written.grf.0 < info.written.grf.1 => {
                    info.written.grf.0..info.written.grf.1
                }
                Some(_) => 0..0,
                None => step.runner_grf.clone().unwrap_or(0..0),
            }),
            _ => None,
        };
        if let Some(fail) = self.host.as_ref().and_then(|h| h.take_failure()) {
            return Err(Error::new(EUREF_ERR_MEMORY, format!("IP {ip:#x}: {fail}")));
        }
        let step = r?;
        if let (Some(info), Some(i)) = (&step.info, &insn) {
            if !stat.is_empty() {
                let what = stat
                    .iter()
                    .map(|v| Unpredictable::from_row(v.rule.undefined))
                    .fold(Unpredictable::default(), Unpredictable::union);
                unpredictable::mark(&mut self.state, i, info, what)
                    .map_err(|e| Error::new(EUREF_ERR_UNSUPPORTED, format!("IP {ip:#x}: {e}")))?;
            }
        }
        let message = th.take_message();
        let ended = th.ended();
        writes::collect(
            &mut self.writes,
            &self.state,
            &step,
            message.as_ref(),
            &self.memory,
        );
        self.last = Some(Last {
            ip: step.ip,
            insn,
            enabled: step.enabled,
            next_ip: step.next_ip,
        });
        Ok(euref_step_info {
            ip: step.ip,
            next_ip: step.next_ip,
            enabled: step.enabled,
            ended: u32::from(ended),
            n_writes: self.writes.len() as u32,
        })
    }

    /// Step to the end of the program, at most `max_steps` instructions: the number executed.
    pub fn run(&mut self, max_steps: u64) -> Result<u64, Error> {
        let mut n = 0u64;
        self.thread()?;
        while !self.ended() {
            if n >= max_steps {
                let ip = self.thread.as_ref().map_or(0, Thread::ip);
                return Err(Error::new(
                    EUREF_ERR_LIMIT,
                    format!(
                        "stopped after {n} instructions (the step bound) at IP {ip:#x} before \
                         the end of the program: raise the bound, or look for a loop"
                    ),
                ));
            }
            self.step()?;
            n += 1;
        }
        Ok(n)
    }

    // ------------------------------------------------------------------------- memory

    /// Bind binding-table index `bti` to the `len` bytes at flat address `base`, filled with
    /// `bytes` when given (undefined otherwise, or the host's with callbacks).
    pub fn bind_surface(
        &mut self,
        bti: u32,
        base: u64,
        bytes: Option<&[u8]>,
        len: u64,
    ) -> Result<(), Error> {
        let bti = u8::try_from(bti)
            .map_err(|_| Error::arg(format!("binding-table index {bti} is not 0..255")))?;
        if base.checked_add(len).is_none() {
            return Err(Error::arg(format!(
                "a surface of {len} bytes at {base:#x} runs past the 64-bit address space"
            )));
        }
        if let Some(b) = bytes {
            if self.memory.has_backing() {
                return Err(Error::arg(
                    "the flat memory is the host's (memory callbacks): bind the surface with \
                     NULL bytes and fill it in the host",
                ));
            }
            self.memory.flat.load(base, b);
        }
        self.memory.bind(bti, Surface { base, size: len });
        Ok(())
    }

    /// `len` bytes of euref's flat memory from `addr` (`None`: undefined) and their inexact
    /// flags.
    pub fn read_memory(
        &self,
        addr: u64,
        len: usize,
    ) -> Result<(Vec<Option<u8>>, Vec<bool>), Error> {
        if self.memory.has_backing() {
            return Err(Error::arg(
                "the flat memory is the host's (memory callbacks): read it in the host",
            ));
        }
        Ok((
            self.memory.flat.read(addr, len),
            self.memory.flat.inexact(addr, len),
        ))
    }

    /// Store defined `bytes` in euref's flat memory from `addr`.
    pub fn write_memory(&mut self, addr: u64, bytes: &[u8]) -> Result<(), Error> {
        if self.memory.has_backing() {
            return Err(Error::arg(
                "the flat memory is the host's (memory callbacks): write it in the host",
            ));
        }
        self.memory.flat.load(addr, bytes);
        Ok(())
    }

    /// Give the thread `size` bytes of shared local memory (binding-table index 254), every
    /// byte undefined; 0 removes it.
    pub fn set_slm(&mut self, size: u32) {
        if size == 0 {
            self.memory.take_slm();
        } else {
            self.memory.set_slm(Slm::new(size));
        }
    }

    /// Read and write flat memory through the host's callbacks (`None`: euref's own memory
    /// again).
    pub fn set_host_memory(&mut self, host: Option<HostMemory>) {
        let host = host.map(Arc::new);
        self.memory.set_backing(
            host.clone()
                .map(|h| h as Arc<dyn euref::memory::FlatBacking>),
        );
        self.host = host;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use euref::conformance::regs;
    use euref::golden::program::program_vector;

    /// The state before each step, kept by copying only what the previous step wrote to the
    /// GRF (`ThreadState::sync_from`), equals a whole copy of the state taken before the step:
    /// over generated programs (ALU, if/else, loops, calls, halt, messages to a surface and the
    /// SLM, jmpi, goto/join) on every generation.
    #[test]
    fn the_state_before_each_step_is_a_whole_copy() {
        let mut steps = 0;
        for p in [Platform::Ivb, Platform::Hsw, Platform::Bdw, Platform::Skl] {
            for i in 0..12 {
                let v = program_vector(p, 0x21, i).expect("a program");
                let mut s = Session::new(p.name()).unwrap();
                let bytes = regs::parse_hex_defined(&v.bytes).unwrap();
                s.load_program(&bytes, 0).unwrap();
                euref::golden::program::vector::set_dispatch_mask(s.state_mut(), v.dmask).unwrap();
                for (name, hex) in &v.initial {
                    let b = regs::parse_hex(hex).unwrap();
                    regs::write(s.state_mut(), name, &b).unwrap();
                }
                if let Some(sf) = &v.surface {
                    let b = regs::parse_hex(&sf.bytes).unwrap();
                    let b: Vec<u8> = b.into_iter().map(|x| x.unwrap_or(0)).collect();
                    s.bind_surface(u32::from(sf.bti), sf.base, Some(&b), b.len() as u64)
                        .unwrap();
                }
                if let Some(m) = &v.slm {
                    s.set_slm(m.size);
                }
                while !s.ended() {
                    let whole = s.state().clone();
                    if s.step().is_err() {
                        break;
                    }
                    steps += 1;
                    assert!(
                        s.before() == Some(&whole),
                        "{} step {steps}: the kept state differs from a whole copy",
                        v.id
                    );
                }
            }
        }
        assert!(steps > 1000, "{steps} steps");
    }
}
