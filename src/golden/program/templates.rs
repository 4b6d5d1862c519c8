//! The stream templates of program vectors: each emits IGA lines (labels included) into a
//! [`Builder`], which keeps the structure (the open blocks and loops) the branch targets
//! come from.
//!
//! Templates and their weights (a statement of a block picks one; the weights of the
//! templates that cannot apply where the statement is are left out):
//!
//! | template | weight | what it emits |
//! |---|---|---|
//! | ALU | 6 | one integer or float instruction on the data window (r10-r17), or an approximate math function into the approximate window (r18-r19) |
//! | if | 3 | `cmp` of two data registers (or one and an immediate) into f0.1 (destination r9), `(f0.1) if`, a block, sometimes `else` and a block, `endif`; nested at most [`MAX_DEPTH`] deep |
//! | while | 2 | a loop: counter = (data & 3) + 1 per channel (r20 + loop depth), `LOOP:` counter -= 1 with `(eq)f0.0`, `(f0.0) break`, a block, `while`; at most [`MAX_LOOPS`] nested |
//! | break / cont | 2 | inside an if within a loop: `cmp` into f1.1 and `(f1.1) break` or `(f1.1) cont` |
//! | goto / join | 2 | (Gen8+, flow.goto, flow.join) `cmp` of data into f0.1, `(f0.1) goto` to a join: the predicate-false channels wait at the join, the others run 1 to 3 ALU instructions; `join` re-enables them (no structured branch inside: flow.goto.mixed) |
//! | halt | 1 | `cmp` of data into f1.1, `(f1.1) halt` with UIP = the end of the program (the end-of-thread sequence, the one halt target: flow.halt.same-uip) and JIP = the next block end: the halted channels wait there |
//! | call | 1 | (Haswell+, flow.call, flow.ret) `call (8|M0) r25 SUB`: a subroutine placed after the end of thread, of 1 to 4 statements of the ALU, if and memory templates, ending in `ret r25` |
//! | jmpi | 2 | (Haswell+, flow.jmpi) a uniform forward jump over 1 to 3 ALU instructions: `(W) cmp (1\|M0)` of one data dword into f1.0 (channel 0 only, NoMask, so the flag bit jmpi reads is written whatever channels are enabled), then `(W&f1.0) jmpi SKIP` (or `(W&~f1.0)`; one time in four unpredicated `(W) jmpi`); jmpi is ExecSize 1 and reads the one flag bit of channel 0 at the channel offset (M0), so all channels on it go to SKIP together or none does |
//! | memory | 3 | Haswell+ (send.untyped-*): an untyped read, write or atomic add on the surface at BTI [`BTI`] or, one time in three, on the SLM (BTI [`SLM_BTI`], mem.slm), byte addresses = (data & mask) into the surface; Ivy Bridge (no untyped messages; send.dword-scattered-*): a DC0 dword scattered read or write, dword offsets = (data & mask) |
//!
//! Branch targets follow Mesa's brw_set_uip_jip: an if's JIP is the first instruction of its
//! else block (or its endif), its UIP the endif; else and endif, break and cont jump (JIP) to
//! the next enclosing block end (the else, endif or while that closes the innermost open
//! block, or the next instruction at the top level); break's and cont's UIP is the loop's
//! while.
//!
//! Termination by construction: every loop decrements its counter (at most 4) at its top,
//! before anything can skip to the while, and breaks the channels whose counter reaches 0;
//! cont goes to the while, which goes back to the top. So a loop runs at most 4 times per
//! entry, and the number of executed instructions is bounded by the program's size times
//! 4^[`MAX_LOOPS`].
//!
//! Several threads ([`Builder::threads`] > 1, conformance/README.md "Several threads"):
//! one barrier at the top level ([`Builder::barrier`]), no halt before it, and race-free
//! memory: every message addresses the thread's own [`REGION`] (its base in
//! r[`THREAD_BASE`]) of the surface, and of the SLM before the barrier; after it the SLM is
//! only read, anywhere. A byte one thread writes and another reads is then written before
//! the barrier and read after it, so the result does not depend on the threads' order.
//!
//! Approximate values (math.inexact) stay in r18-r19: approximate math writes only there and
//! float instructions that read them write only there, so no inexact value reaches a
//! predicate, an address, a loop counter or memory.

use crate::golden::values::Rng;
use crate::spec::Platform;

/// The destination of compares (a null destination needs {Switch} on Gen7,
/// op.cmp-null-dst-switch).
pub const SCRATCH: u32 = 9;
/// First register of the data window (8 registers, defined in the initial state).
pub const DATA: u32 = 10;
/// Registers of the data window.
pub const DATA_REGS: u32 = 8;
/// First register of the approximate window (2 registers, defined in the initial state).
pub const APPROX: u32 = 18;
/// Registers of the approximate window.
pub const APPROX_REGS: u32 = 2;
/// Loop counters: r20 + loop depth.
pub const COUNTER: u32 = 20;
/// Message payload: addresses in r30, data in r31.
pub const PAYLOAD: u32 = 30;
/// Message responses: r32 (read) and r33 (atomic's old values).
pub const RESPONSE: u32 = 32;
/// The return address register of call and ret.
pub const RETURN: u32 = 25;
/// The label of the end-of-thread sequence, where halted channels wait (every halt's UIP).
pub const HALT_TARGET: &str = "END";
/// The binding-table index of the surface.
pub const BTI: u8 = 3;
/// The surface's size in bytes (a power of two: addresses are masked into it).
pub const SURFACE_SIZE: u32 = 256;
/// The binding-table index of the shared local memory (mem.slm).
pub const SLM_BTI: u8 = 254;
/// The SLM's size in bytes (as the surface's: the same address masks fit both).
pub const SLM_SIZE: u32 = SURFACE_SIZE;
/// Several threads: the base of the thread's own memory region, in the unit of the
/// platform's memory messages (bytes for untyped messages, dwords for dword scattered), in
/// every channel (thread t: t * [`REGION`] bytes).
pub const THREAD_BASE: u32 = 26;
/// Several threads: the barrier message's payload (all zero: barrier ID 0).
pub const BARRIER_PAYLOAD: u32 = 27;
/// Several threads: the bytes of the surface and of the SLM each thread owns.
pub const REGION: u32 = 64;
/// The most threads a program vector runs (one region each in the SLM).
pub const MAX_THREADS: u32 = SLM_SIZE / REGION;
/// Deepest nesting of blocks (if and while together).
pub const MAX_DEPTH: usize = 3;
/// Deepest nesting of loops.
pub const MAX_LOOPS: usize = 2;

/// A template of the table above.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Template {
    Alu,
    If,
    While,
    BreakCont,
    Goto,
    Halt,
    Call,
    Jmpi,
    Memory,
}

/// The templates with their weights.
pub const WEIGHTS: [(Template, u32); 9] = [
    (Template::Alu, 6),
    (Template::If, 3),
    (Template::While, 2),
    (Template::BreakCont, 2),
    (Template::Goto, 2),
    (Template::Halt, 1),
    (Template::Call, 1),
    (Template::Jmpi, 2),
    (Template::Memory, 3),
];

/// An open block: the label right before the instruction that closes it (the JIP of what
/// jumps to the next block end from inside it).
#[derive(Debug, Clone)]
struct Open {
    end: String,
    /// A loop body (break and cont go to its while at `end`).
    is_loop: bool,
}

/// Lines of a program being built, and the blocks open where the next line goes.
pub struct Builder<'a> {
    pub platform: Platform,
    pub rng: &'a mut Rng,
    pub lines: Vec<String>,
    open: Vec<Open>,
    labels: u32,
    /// Subroutines to place after the end of thread.
    subs: Vec<Vec<String>>,
    /// The statements being built go into a subroutine.
    in_sub: bool,
    /// Instructions still allowed (a size bound: with the loop bound, a step bound).
    pub budget: u32,
    /// ALU instructions the validator refused (each replaced by another).
    pub rejected: u32,
    /// A message of the program accesses the SLM (binding-table index [`SLM_BTI`]).
    pub uses_slm: bool,
    /// The threads that run the program as one work group (1: a single thread; more:
    /// [`Builder::barrier`] and the race-free memory rules of [`Builder::memory`]).
    pub threads: u32,
    /// The work group's barrier has been emitted: the statements now go after it.
    pub after_barrier: bool,
    /// A halt has been emitted: from there on IP may reach an instruction with every
    /// channel halted.
    halted: bool,
}

impl<'a> Builder<'a> {
    pub fn new(platform: Platform, rng: &'a mut Rng, budget: u32) -> Builder<'a> {
        Builder {
            platform,
            rng,
            lines: Vec::new(),
            open: Vec::new(),
            labels: 0,
            subs: Vec::new(),
            in_sub: false,
            budget,
            rejected: 0,
            uses_slm: false,
            threads: 1,
            after_barrier: false,
            halted: false,
        }
    }

    fn label(&mut self, what: &str) -> String {
        self.labels += 1;
        format!("{what}{}", self.labels)
    }

    fn emit(&mut self, line: String) {
        if !line.ends_with(':') {
            self.budget = self.budget.saturating_sub(1);
        }
        self.lines.push(line);
    }

    /// Gen8+ writes else with both JIP and UIP; Gen7 with JIP only.
    fn two(&self, l: &str) -> String {
        if self.platform.gen_x10() >= 80 {
            format!("{l} {l}")
        } else {
            l.to_string()
        }
    }

    fn loops(&self) -> usize {
        self.open.iter().filter(|o| o.is_loop).count()
    }

    /// Whether a break or cont may go here: inside an if within the innermost loop.
    fn in_if_in_loop(&self) -> bool {
        matches!(self.open.last(), Some(o) if !o.is_loop) && self.open.iter().any(|o| o.is_loop)
    }

    /// A data register `r10`..`r17`.
    fn data(&mut self) -> u32 {
        DATA + self.rng.below(DATA_REGS as usize) as u32
    }

    /// A block of 1 to 4 statements.
    pub fn block(&mut self) {
        let n = 1 + self.rng.below(4);
        for _ in 0..n {
            if self.budget < 12 {
                return;
            }
            self.statement();
        }
    }

    fn usable(&self, t: Template) -> bool {
        match t {
            Template::Alu => true,
            _ if self.in_sub && !matches!(t, Template::If | Template::Memory) => false,
            Template::If => self.open.len() < MAX_DEPTH,
            Template::While => self.open.len() < MAX_DEPTH && self.loops() < MAX_LOOPS,
            Template::BreakCont => self.in_if_in_loop(),
            Template::Goto => crate::spec::flow::GOTO.gens.contains(self.platform),
            // With several threads a halt before the barrier could take every channel of a
            // thread past it (the others would wait forever).
            Template::Halt => self.threads == 1 || self.after_barrier,
            Template::Call => crate::spec::flow::CALL.gens.contains(self.platform),
            // A NoMask instruction reached with every channel halted is refused
            // (flow.channel.nomask-no-channel): no jmpi (nor its NoMask compare) after a halt.
            Template::Jmpi => crate::spec::flow::JMPI.gens.contains(self.platform) && !self.halted,
            Template::Memory => memory_supported(self.platform),
        }
    }

    /// One statement: a template picked by weight among those usable here.
    pub fn statement(&mut self) {
        let usable: Vec<(Template, u32)> = WEIGHTS
            .iter()
            .copied()
            .filter(|&(t, _)| self.usable(t))
            .collect();
        let total: u32 = usable.iter().map(|w| w.1).sum();
        let mut at = self.rng.below(total as usize) as u32;
        let mut pick = Template::Alu;
        for (t, w) in usable {
            if at < w {
                pick = t;
                break;
            }
            at -= w;
        }
        match pick {
            Template::Alu => self.alu(),
            Template::If => self.if_else(),
            Template::While => self.while_loop(),
            Template::BreakCont => self.break_cont(),
            Template::Goto => self.goto_join(),
            Template::Halt => self.halt(),
            Template::Call => self.call(),
            Template::Jmpi => self.jmpi(),
            Template::Memory => self.memory(),
        }
    }

    /// The JIP of a jump to the next block end from here, and the label to place after the
    /// instruction when there is no enclosing block (the next instruction).
    fn next_end(&mut self) -> (String, Option<String>) {
        match self.open.last() {
            Some(o) => (o.end.clone(), None),
            None => {
                let l = self.label("NEXT");
                (l.clone(), Some(l))
            }
        }
    }

    /// A compare of data into flag `flag` (`f0.1`, `f1.1`).
    fn compare(&mut self, flag: &str) {
        let cm = self.rng.pick(&["l", "ge", "g", "le", "eq", "ne"]);
        let t = self.rng.pick(&["d", "ud"]);
        let a = self.data();
        let b = if self.rng.chance(1, 3) {
            format!("{:#x}:{t}", self.rng.next() as u32 & 0xff)
        } else {
            format!("r{}.0<8;8,1>:{t}", self.data())
        };
        self.emit(format!(
            "cmp (8|M0) ({cm}){flag} r{SCRATCH}.0<1>:{t} r{a}.0<8;8,1>:{t} {b}"
        ));
    }

    fn if_else(&mut self) {
        let with_else = self.rng.chance(1, 2);
        let (else_pre, else_after, endif) =
            (self.label("ELSEP"), self.label("ELSE"), self.label("ENDIF"));
        self.compare("f0.1");
        let jip = if with_else { &else_after } else { &endif };
        self.emit(format!("(f0.1) if (8|M0) {jip} {endif}"));
        self.open.push(Open {
            end: if with_else {
                else_pre.clone()
            } else {
                endif.clone()
            },
            is_loop: false,
        });
        self.block();
        if with_else {
            self.emit(format!("{else_pre}:"));
            let t = self.two(&endif);
            self.emit(format!("else (8|M0) {t}"));
            self.emit(format!("{else_after}:"));
            if let Some(o) = self.open.last_mut() {
                o.end = endif.clone();
            }
            self.block();
        }
        self.open.pop();
        self.emit(format!("{endif}:"));
        let (jip, after) = self.next_end();
        self.emit(format!("endif (8|M0) {jip}"));
        if let Some(l) = after {
            self.emit(format!("{l}:"));
        }
    }

    fn while_loop(&mut self) {
        let c = COUNTER + self.loops() as u32;
        let d = self.data();
        let (top, end) = (self.label("LOOP"), self.label("WHILE"));
        self.emit(format!("and (8|M0) r{c}.0<1>:ud r{d}.0<8;8,1>:ud 0x3:ud"));
        self.emit(format!("add (8|M0) r{c}.0<1>:ud r{c}.0<8;8,1>:ud 0x1:ud"));
        self.emit(format!("{top}:"));
        self.emit(format!(
            "add (8|M0) (eq)f0.0 r{c}.0<1>:d r{c}.0<8;8,1>:d -1:d"
        ));
        self.emit(format!("(f0.0) break (8|M0) {end} {end}"));
        self.open.push(Open {
            end: end.clone(),
            is_loop: true,
        });
        self.block();
        self.open.pop();
        self.emit(format!("{end}:"));
        self.emit(format!("while (8|M0) {top}"));
    }

    fn break_cont(&mut self) {
        let Some(end) = self.open.last().map(|o| o.end.clone()) else {
            return;
        };
        let Some(while_label) = self
            .open
            .iter()
            .rev()
            .find(|o| o.is_loop)
            .map(|o| o.end.clone())
        else {
            return;
        };
        let op = self.rng.pick(&["break", "cont"]);
        self.compare("f1.1");
        self.emit(format!("(f1.1) {op} (8|M0) {end} {while_label}"));
    }

    /// A forward goto over 1 to 3 ALU instructions to a join (flow.goto: the predicate-false
    /// channels wait at UIP, the join; flow.join re-enables them). JIP = UIP = the join, as
    /// the runner's tests write it; the join's JIP is the next instruction.
    fn goto_join(&mut self) {
        let (join, next) = (self.label("JOIN"), self.label("NEXT"));
        self.compare("f0.1");
        self.emit(format!("(f0.1) goto (8|M0) {join} {join}"));
        for _ in 0..1 + self.rng.below(3) {
            self.alu();
        }
        self.emit(format!("{join}:"));
        self.emit(format!("join (8|M0) {next}"));
        self.emit(format!("{next}:"));
    }

    /// A uniform forward jmpi over 1 to 3 ALU instructions (flow.jmpi: ExecSize 1, NoMask;
    /// a predicated jmpi reads the flag bit of channel 0 at the channel offset, M0 here).
    /// The flag bit is written just before by a NoMask SIMD1 compare of one data dword, so
    /// it is defined whatever channels are enabled; the jump moves every channel on the
    /// jmpi (it neither enables nor disables any), so no channel is left behind.
    fn jmpi(&mut self) {
        let skip = self.label("SKIP");
        let pred = if self.rng.chance(1, 4) {
            "(W)".to_string()
        } else {
            let cm = self.rng.pick(&["l", "ge", "eq", "ne"]);
            let (a, b) = (self.data(), self.data());
            self.emit(format!(
                "(W) cmp (1|M0) ({cm})f1.0 r{SCRATCH}.0<1>:d r{a}.0<0;1,0>:d r{b}.0<0;1,0>:d"
            ));
            let not = if self.rng.chance(1, 2) { "~" } else { "" };
            format!("(W&{not}f1.0)")
        };
        self.emit(format!("{pred} jmpi {skip}"));
        for _ in 0..1 + self.rng.below(3) {
            self.alu();
        }
        self.emit(format!("{skip}:"));
    }

    /// A call of a new subroutine (flow.call: the return address in r25.0, flow.call.return-ip;
    /// flow.ret returns to it). The subroutine's lines are built now, at the top level of
    /// their own, and placed after the end of thread.
    fn call(&mut self) {
        let sub = self.label("SUB");
        self.emit(format!("call (8|M0) r{RETURN}.0<1>:ud {sub}"));
        let lines = std::mem::take(&mut self.lines);
        let open = std::mem::take(&mut self.open);
        self.in_sub = true;
        self.lines.push(format!("{sub}:"));
        self.block();
        self.emit(format!("ret (8|M0) r{RETURN}.0<2;2,1>:ud"));
        self.in_sub = false;
        let body = std::mem::replace(&mut self.lines, lines);
        self.open = open;
        self.subs.push(body);
    }

    /// A predicated halt to the end of the program ([`HALT_TARGET`], before the end of
    /// thread): JIP = the next block end (flow.halt).
    fn halt(&mut self) {
        self.halted = true;
        self.compare("f1.1");
        let (jip, after) = self.next_end();
        self.emit(format!("(f1.1) halt (8|M0) {jip} {HALT_TARGET}"));
        if let Some(l) = after {
            self.emit(format!("{l}:"));
        }
    }

    /// An ALU instruction that validates (up to 8 tries; none: nothing emitted).
    fn alu(&mut self) {
        for _ in 0..8 {
            let line = self.alu_line();
            match crate::asm::parse_insn(&line, crate::asm::Dialect::Iga, self.platform) {
                Ok(i) if crate::validate::check_insn(self.platform, &i).is_empty() => {
                    self.emit(line);
                    return;
                }
                _ => self.rejected += 1,
            }
        }
    }

    fn alu_line(&mut self) -> String {
        let dst = self.data();
        let a = self.data();
        let b = self.data();
        let src = |r: u32, t: &str| format!("r{r}.0<8;8,1>:{t}");
        match self.rng.below(10) {
            // Integer binary, register or immediate second source.
            0..=4 => {
                // (On Gen7 a dword mul takes src1's low 16 bits and leaves a channel whose D src1
                // has bit 15 set undefined, feature.mul-dword-src1-low16: integer mul on Gen8+.)
                let ops: &[&str] = if self.platform.gen_x10() >= 80 {
                    &["add", "and", "or", "xor", "shl", "shr", "asr", "mul"]
                } else {
                    &["add", "and", "or", "xor", "shl", "shr", "asr"]
                };
                let op = self.rng.pick(ops);
                let t = self.rng.pick(&["d", "ud"]);
                let neg = if op == "add" && t == "d" && self.rng.chance(1, 4) {
                    "-"
                } else {
                    ""
                };
                let s1 = if self.rng.chance(1, 3) {
                    let v = self.rng.next() as u32;
                    let v = if matches!(op, "shl" | "shr" | "asr") {
                        v & 31
                    } else {
                        v & 0xffff
                    };
                    format!("{v:#x}:{t}")
                } else {
                    src(b, t)
                };
                format!("{op} (8|M0) r{dst}.0<1>:{t} {neg}{} {s1}", src(a, t))
            }
            // Integer unary.
            5 => {
                let op = self.rng.pick(&["mov", "not"]);
                format!("{op} (8|M0) r{dst}.0<1>:ud {}", src(a, "ud"))
            }
            // Exact float arithmetic on the data window.
            6 | 7 => {
                let op = self.rng.pick(&["add", "mul"]);
                format!("{op} (8|M0) r{dst}.0<1>:f {} {}", src(a, "f"), src(b, "f"))
            }
            // Approximate math into the approximate window, from data or approximate values.
            8 => {
                let f = self.rng.pick(&["inv", "sqrt", "exp", "log"]);
                let d = APPROX + self.rng.below(APPROX_REGS as usize) as u32;
                let s = if self.rng.chance(1, 2) {
                    a
                } else {
                    APPROX + self.rng.below(APPROX_REGS as usize) as u32
                };
                format!("math.{f} (8|M0) r{d}.0<1>:f {} null:f", src(s, "f"))
            }
            // Float arithmetic on approximate values stays in the approximate window.
            _ => {
                let d = APPROX + self.rng.below(APPROX_REGS as usize) as u32;
                let s = APPROX + self.rng.below(APPROX_REGS as usize) as u32;
                format!("add (8|M0) r{d}.0<1>:f {} {}", src(s, "f"), src(a, "f"))
            }
        }
    }

    /// An untyped read, write or atomic add (send.untyped-read, -write, -atomic) on the
    /// surface: SIMD8, channel R, addresses (data & (size - 4)) in r30, data in r31. Where
    /// the untyped messages do not exist, a dword scattered message ([`Builder::dword_memory`]).
    fn memory(&mut self) {
        if !untyped_supported(self.platform) {
            self.dword_memory();
            return;
        }
        let bti = self.target();
        let kind = self.rng.below(3);
        let (kind, anywhere) = self.shared_rules(bti, kind);
        self.address(anywhere, 1);
        let (p, r) = (PAYLOAD, RESPONSE);
        match kind {
            0 => {
                // mlen 1, rlen 1, DC1 type 1, control 0x2e (SIMD8, R).
                let desc = 0x0210_6E00 | bti;
                self.emit(format!("send (8|M0) r{r} r{p} 0xC {desc:#x}"));
            }
            1 => {
                let d = self.data();
                self.emit(format!("mov (8|M0) r{}.0<1>:ud r{d}.0<8;8,1>:ud", p + 1));
                // mlen 2, rlen 0, type 9, control 0x2e.
                let desc = 0x0402_6E00 | bti;
                self.emit(format!("send (8|M0) null r{p} 0xC {desc:#x}"));
            }
            _ => {
                let d = self.data();
                self.emit(format!("mov (8|M0) r{}.0<1>:ud r{d}.0<8;8,1>:ud", p + 1));
                // mlen 2, rlen 1, type 2, control 0x37 (return, SIMD8, add).
                let desc = 0x0410_B700 | bti;
                self.emit(format!("send (8|M0) r{} r{p} 0xC {desc:#x}", r + 1));
            }
        }
    }

    /// The race-free rules of several threads (module docs), for a message of `kind` (0: a
    /// read, else a write or an atomic) to `bti`: the kind to emit (after the barrier the
    /// SLM is only read) and whether its addresses may go anywhere in the memory (a read of
    /// the SLM after the barrier) rather than into the thread's own region.
    fn shared_rules(&self, bti: u32, kind: usize) -> (usize, bool) {
        if self.threads == 1 {
            return (kind, true);
        }
        if bti == u32::from(SLM_BTI) && self.after_barrier {
            return (0, true);
        }
        (kind, false)
    }

    /// The addresses in r30: (data & mask) into the whole memory (`anywhere`) or into the
    /// thread's region plus its base (r[`THREAD_BASE`]); `unit` 1 for byte addresses, 4 for
    /// dword offsets.
    fn address(&mut self, anywhere: bool, unit: u32) {
        let a = self.data();
        let size = if anywhere { SURFACE_SIZE } else { REGION };
        let mask = if unit == 1 { size - 4 } else { size / 4 - 1 };
        self.emit(format!(
            "and (8|M0) r{PAYLOAD}.0<1>:ud r{a}.0<8;8,1>:ud {mask:#x}:ud"
        ));
        if !anywhere {
            self.emit(format!(
                "add (8|M0) r{PAYLOAD}.0<1>:ud r{PAYLOAD}.0<8;8,1>:ud r{THREAD_BASE}.0<8;8,1>:ud"
            ));
        }
    }

    /// The work group's barrier (several threads; send.gateway.barrier, send.gateway.wait-
    /// blocks): a NoMask barrier message with an all-zero payload (barrier ID 0) and a NoMask
    /// wait on n0.0, as Mesa's generate_barrier. Emitted once, at the top level, where every
    /// thread reaches it with its channels (no halt before it). The send is SIMD8: a SIMD1
    /// send's implied source region is refused on Gen7-Gen8 (region.width-le-exec), and the
    /// barrier row does not depend on the execution size.
    pub fn barrier(&mut self) {
        let b = BARRIER_PAYLOAD;
        self.emit(format!("(W) mov (8|M0) r{b}.0<1>:ud 0x0:ud"));
        self.emit(format!("(W) send (8|M0) null r{b} 0x3 0x2000004"));
        self.emit("(W) wait (1|M0) n0.0<1>:ud".to_string());
        self.after_barrier = true;
    }

    /// The binding-table index a message goes to: the surface ([`BTI`]) two times in three,
    /// else the SLM ([`SLM_BTI`], mem.slm: the same messages address it by byte offset from 0,
    /// as the surface).
    fn target(&mut self) -> u32 {
        if self.rng.chance(1, 3) {
            self.uses_slm = true;
            u32::from(SLM_BTI)
        } else {
            u32::from(BTI)
        }
    }

    /// A DC0 dword scattered read or write (send.dword-scattered-read, -write) on the
    /// surface: SIMD8, legacy SIMD mode bit, no header; dword offsets (data & (size / 4 - 1))
    /// in r30, data in r31.
    fn dword_memory(&mut self) {
        let bti = self.target();
        let kind = if self.rng.chance(1, 2) { 0 } else { 1 };
        let (kind, anywhere) = self.shared_rules(bti, kind);
        self.address(anywhere, 4);
        let (p, r) = (PAYLOAD, RESPONSE);
        if kind == 0 {
            // mlen 1, rlen 1, DC0 type 3, control 0x2 (legacy SIMD mode, SIMD8).
            let desc = 0x0210_C200 | bti;
            self.emit(format!("send (8|M0) r{r} r{p} 0xA {desc:#x}"));
        } else {
            let d = self.data();
            self.emit(format!("mov (8|M0) r{}.0<1>:ud r{d}.0<8;8,1>:ud", p + 1));
            // mlen 2, rlen 0, DC0 type 11, control 0x2.
            let desc = 0x0402_C200 | bti;
            self.emit(format!("send (8|M0) null r{p} 0xA {desc:#x}"));
        }
    }

    /// The end of the program: an end-of-thread message (send.eot) with a defined payload.
    pub fn end_of_thread(&mut self) {
        self.emit(format!("{HALT_TARGET}:"));
        self.emit("(W) mov (8|M0) r127.0<1>:ud 0x0:ud".to_string());
        self.emit("send (8|M0) null r127 0x27 0x2000010 {EOT}".to_string());
        for body in std::mem::take(&mut self.subs) {
            self.lines.extend(body);
        }
    }
}

/// Whether the memory template applies: the DC1 untyped messages (Haswell+) or the DC0
/// dword scattered ones (spec/memory.toml send.untyped-*, send.dword-scattered-*).
pub fn memory_supported(p: Platform) -> bool {
    untyped_supported(p)
        || (crate::spec::memory::SEND_DWORD_SCATTERED_READ
            .gens
            .contains(p)
            && crate::spec::memory::SEND_DWORD_SCATTERED_WRITE
                .gens
                .contains(p))
}

/// Whether the DC1 untyped messages exist on `p` (Haswell+: send.untyped-read, -write,
/// -atomic).
pub fn untyped_supported(p: Platform) -> bool {
    use crate::spec::memory::{SEND_UNTYPED_ATOMIC, SEND_UNTYPED_READ, SEND_UNTYPED_WRITE};
    [
        &SEND_UNTYPED_READ,
        &SEND_UNTYPED_WRITE,
        &SEND_UNTYPED_ATOMIC,
    ]
    .iter()
    .all(|r| r.gens.contains(p))
}
