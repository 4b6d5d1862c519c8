//! `euref run`: execute a program on one thread state and print the final state.
//!
//! `euref run [FILE.asm] [--gen G] [--state init.json] [--json] [--lenient] [--syntax S]
//! [--max-steps N] [--trace] [--sip LABEL|OFFSET]` (docs/run.md):
//! - the program is assembly text in any of the three dialects (detected unless `--syntax`);
//!   without FILE the built-in example (examples/kernels/saxpy.asm) runs;
//! - the initial state is the documented default state ([`ThreadState::new`]) or the JSON
//!   state of `--state` ([`euref::state::json`]);
//! - the program is assembled to bytes (compacted where written `{Compacted}`), loaded at the
//!   initial IP and run by the thread runner ([`euref::thread`]): SIMD structured control flow
//!   (if/else/endif, while, break, cont, halt, jmpi, writes to ip) per spec/flow.toml, other
//!   instructions by [`euref::exec`]; strict by default (an instruction that violates a rule
//!   is refused with the rule's ID, message and citation and the instruction's line:column,
//!   exit status 1), `--lenient` executes it and marks what the violation makes unpredictable
//!   as undefined; exceptions jump to the System IP of `--sip` ([`super::run_sip`],
//!   flow.exception.*);
//! - the output is the final state as a diff from the initial state ([`super::state_diff`]),
//!   or the whole final state as JSON (`--json`, loadable with `--state`); `--trace` prints
//!   every executed instruction first ([`super::run_trace`]).
//!
//! Exit status: 0 executed; 1 the program was refused (parse error, send, a branch a
//! spec/flow.toml row leaves undefined, a violated rule in strict mode, an instruction the
//! model cannot execute, the step limit); 2 a usage or input error (unknown `--gen`,
//! unreadable file, malformed state JSON).

use super::output;
use super::run_sip;
use super::run_trace;
use super::state_diff;
use euref::asm::{self, Dialect};
use euref::exec::unpredictable::{self, Unpredictable};
use euref::exec::{CompressedOverlap, ExecError, ExecOptions};
use euref::gen::parse_gen;
use euref::isa::Insn;
use euref::spec::OpClass;
use euref::state::{json, ThreadState};
use euref::thread::{Image, RunError, Thread};
use euref::validate::ExecContext;
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

/// The built-in example kernel (IGA syntax), run when no FILE is given.
pub const EXAMPLE: &str = include_str!("../../examples/kernels/saxpy.asm");
/// Its name in messages.
pub const EXAMPLE_NAME: &str = "examples/kernels/saxpy.asm (built-in)";

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Program: assembly text in IGA, PRM or Mesa syntax (`-` for standard input). Without
    /// it, the built-in example kernel (examples/kernels/saxpy.asm) runs.
    pub file: Option<PathBuf>,
    /// Platform: 7, 7.5, 8, 9, ivb, hsw, bdw, chv, skl, bxt.
    #[arg(long, default_value = "skl")]
    pub gen: String,
    /// Initial state as JSON (registers as hex bytes or typed element lists; see
    /// src/state/json.rs). Default: the documented default state (docs/run.md).
    #[arg(long)]
    pub state: Option<PathBuf>,
    /// Print the whole final state as JSON (loadable with --state) instead of a diff.
    #[arg(long)]
    pub json: bool,
    /// Execute instructions that violate a rule, marking what the violation makes
    /// unpredictable as undefined, instead of refusing them.
    #[arg(long)]
    pub lenient: bool,
    /// Input syntax: iga, prm or mesa (default: detected from the text).
    #[arg(long, value_parser = parse_dialect)]
    pub syntax: Option<Dialect>,
    /// Stop with an error after this many executed instructions (a runaway loop); the
    /// error names the loop's instructions.
    #[arg(long, default_value_t = euref::thread::DEFAULT_MAX_STEPS)]
    pub max_steps: u64,
    /// Print each executed instruction: its IP, the channels that executed it, its text and
    /// the registers it wrote (JSON lines with --json). With --dispatch: every thread's
    /// instructions in the runner's order, each send's decoded message and the address and
    /// bytes each lane read or wrote, and the barrier and end-of-thread events.
    #[arg(long)]
    pub trace: bool,
    /// The System IP exceptions jump to (row flow.exception.sip): a label of the program or
    /// a byte offset into the program image (decimal or 0x hex). Without it, an exception
    /// the state enables is refused.
    #[arg(long, value_name = "LABEL|OFFSET")]
    pub sip: Option<String>,
    /// What a compressed instruction whose second half reads a register byte its first half
    /// writes gives (row feature.compressed-overlap: the sources conflict): `undefined`
    /// marks every bit on which the two readings differ, `halves` runs the halves in order,
    /// `sources-first` reads every source before any write.
    #[arg(long, value_name = "HOW", default_value = "undefined", value_parser = parse_overlap)]
    pub compressed_overlap: CompressedOverlap,
    /// Run a compute dispatch (docs/dispatch.md): every thread of every work group, on the
    /// description's buffers; FILE is the kernel (assembly text or instruction bytes) and
    /// may be left out when the description names it. Prints the final buffers and a
    /// summary per thread.
    #[arg(long, value_name = "D.json", conflicts_with_all = ["state", "sip"])]
    pub dispatch: Option<PathBuf>,
}

fn parse_dialect(s: &str) -> Result<Dialect, String> {
    s.parse()
}

fn parse_overlap(s: &str) -> Result<CompressedOverlap, String> {
    CompressedOverlap::from_name(s)
        .ok_or_else(|| format!("expected one of {}", CompressedOverlap::NAMES.join(", ")))
}

/// A violated static restriction (a row of spec/rules) of one instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaticViolation {
    pub id: &'static str,
    pub msg: &'static str,
    pub cite: &'static str,
    /// What the violation makes unpredictable in lenient execution (dst, flags, all, none).
    pub undefined: &'static str,
}

/// The validator rule that flags `illegal` statically; the runner models what it describes
/// (flow.exception.illegal-opcode, or a refusal per flow.exception.illegal-opcode-disabled),
/// so `run` leaves it out.
const ILLEGAL_OPCODE_RULE: &str = "op.illegal-opcode";

/// The restrictions of spec/rules that `insn` violates in state `st`: the one place where
/// `run` consults the validator before executing an instruction. The execution context comes
/// from the state: its `preemptible` setting and cr0.0 Single Program Flow (an undefined SPF
/// bit counts as clear: the rules that need SPF apply only when the state says it is set).
/// [`ILLEGAL_OPCODE_RULE`] is left out: the thread runner takes the exception.
fn static_violations(st: &ThreadState, insn: &Insn) -> Vec<StaticViolation> {
    let ctx = ExecContext {
        preemptible: st.preemptible(),
        spf: st.spf() == Some(true),
    };
    euref::validate::check_insn_in(st.platform(), insn, &ctx)
        .into_iter()
        .filter(|v| v.rule.id != ILLEGAL_OPCODE_RULE)
        .map(|v| StaticViolation {
            id: v.rule.id,
            msg: v.rule.msg,
            cite: v.rule.cite,
            undefined: v.rule.undefined,
        })
        .collect()
}

/// Where an instruction is: file name, line and column (1-based).
struct Loc<'a> {
    name: &'a str,
    line: u32,
    col: usize,
}

impl std::fmt::Display for Loc<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.name, self.line, self.col)
    }
}

/// The instruction's source text on a line (trimmed, without a trailing comment), quoted
/// for a message ([`euref::quote`]: a long line is cut, control characters escaped).
fn insn_text(line: &[u8]) -> String {
    let l = memchr::memmem::find(line, b"//").map_or(line, |i| &line[..i]);
    euref::quote::quote(l.trim_ascii())
}

/// The error of a program that is not UTF-8 text: where the first byte that is not lies
/// (line:column, 1-based, and its offset in the input).
fn not_utf8(shown: &str, bytes: &[u8], e: &std::string::FromUtf8Error) -> String {
    let at = e.utf8_error().valid_up_to();
    let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
    let col = 1 + at
        - bytes[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
    format!(
        "{shown}: not UTF-8 text: byte 0x{:02x} at line {line}, column {col} (byte offset \
         {at}): a program is UTF-8 text",
        bytes[at]
    )
}

/// Run `euref run`.
pub fn run(a: Args) -> Result<ExitCode, String> {
    if let Some(d) = &a.dispatch {
        return super::run_dispatch::run(super::run_dispatch::Opts {
            kernel: a.file.as_deref(),
            dispatch: d,
            syntax: a.syntax,
            json: a.json,
            lenient: a.lenient,
            compressed_overlap: a.compressed_overlap,
            max_steps: a.max_steps,
            trace: a.trace,
        });
    }
    let platform = parse_gen(&a.gen).map_err(|e| e.to_string())?;
    let (name, text) = match &a.file {
        None => (EXAMPLE_NAME.to_string(), EXAMPLE.to_string()),
        Some(p) => {
            let stdin = p.as_os_str() == "-";
            let shown = if stdin {
                "<stdin>".to_string()
            } else {
                p.display().to_string()
            };
            let mut bytes = Vec::new();
            let read = if stdin {
                std::io::stdin().read_to_end(&mut bytes).map(|_| ())
            } else {
                std::fs::read(p).map(|b| bytes = b)
            };
            read.map_err(|e| format!("{shown}: {e}"))?;
            let s = String::from_utf8(bytes).map_err(|e| not_utf8(&shown, e.as_bytes(), &e))?;
            (shown, s)
        }
    };
    let init = match &a.state {
        None => ThreadState::new(platform),
        Some(p) => {
            let shown = p.display().to_string();
            let bytes = std::fs::read(p).map_err(|e| format!("{shown}: {e}"))?;
            json::load_bytes(platform, &bytes).map_err(|e| format!("{shown}: {e}"))?
        }
    };
    let prog = match asm::parse(text.as_bytes(), a.syntax, platform) {
        Ok(p) => p,
        Err(e) => {
            note!("{name}:{}:{}: {}", e.line, e.col, e.msg);
            return Ok(ExitCode::from(1));
        }
    };
    // Every instruction's line and column from one index of the text: constant time per
    // instruction (counting lines from the start for each took time quadratic in the number
    // of instructions, issue 26).
    let lines = asm::LineIndex::new(text.as_bytes());
    let loc = |i: usize| {
        let line = prog.lines.get(i).copied().unwrap_or(0);
        Loc {
            name: &name,
            line,
            col: lines.insn_column(line) as usize,
        }
    };
    // Sends are refused before anything executes (shared functions are not modelled).
    for (i, insn) in prog.insns.iter().enumerate() {
        if insn.op.info().class == OpClass::Send {
            let here = loc(i);
            note!(
                "{here}: {} is a send: shared-function messages are not modelled",
                insn_text(lines.line(here.line))
            );
            return Ok(ExitCode::from(1));
        }
    }
    // The program image: the instructions assembled to bytes (compacted where written
    // {Compacted}; labels resolve as docs/assembly.md says), loaded at the initial IP.
    let labels = super::binary::defines_labels(text.as_bytes());
    let enc = match super::binary::assemble(&prog.insns, &prog.lines, platform, false, labels) {
        Ok(e) => e,
        Err(errs) => {
            // An instruction that breaks a rule (an Align16 operand off its 16-byte alignment,
            // say) may have no encoding at all: the rule says why (issue 28).
            for (line, msg) in errs {
                let col = lines.insn_column(line);
                let k = prog.lines.iter().position(|&l| l == line);
                let stat = k.map_or_else(Vec::new, |k| static_violations(&init, &prog.insns[k]));
                if stat.is_empty() {
                    note!("{name}:{line}:{col}: {msg}");
                }
                for v in &stat {
                    note!(
                        "{name}:{line}:{col}: [{}] {}\n  cite: {}\n  in: {}",
                        v.id,
                        v.msg,
                        v.cite,
                        insn_text(lines.line(line))
                    );
                }
            }
            return Ok(ExitCode::from(1));
        }
    };
    let base = init.ip().unwrap_or(0);
    let mut addrs = Vec::with_capacity(enc.len());
    let mut bytes = Vec::new();
    for e in &enc {
        addrs.push(base.wrapping_add(bytes.len() as u32));
        bytes.extend_from_slice(e);
    }
    // The instruction index at an address.
    let index_at = |ip: u32| addrs.binary_search(&ip).ok();
    let sip = match &a.sip {
        None => None,
        Some(s) => {
            let layout = run_sip::Layout {
                text: &text,
                lines: &prog.lines,
                addrs: &addrs,
                base,
                end: base.wrapping_add(bytes.len() as u32),
            };
            Some(run_sip::resolve(s, &layout).map_err(|e| format!("{name}: {e}"))?)
        }
    };
    let opts = ExecOptions {
        strict: !a.lenient,
        compressed_overlap: a.compressed_overlap,
        ..ExecOptions::default()
    };
    let mut st = init.clone();
    let mut thread = match Thread::new(Image::new(platform, bytes, base), &mut st) {
        Ok(t) => t,
        Err(e) => {
            note!("{name}: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    thread.set_sip(sip);
    let mut last_type = state_diff::WriteTypes::default();
    let mut warnings = Vec::new();
    let mut trace = String::new();
    while !thread.ended() {
        let ip = thread.ip();
        let Some(i) = index_at(ip) else {
            note!(
                "{name}: IP {ip:#x} is not the address of an instruction of the program ({})",
                if ip < base || ip >= thread.image().end() {
                    "outside the program"
                } else {
                    "inside an instruction"
                }
            );
            return refused(&trace);
        };
        let insn = &prog.insns[i];
        let here = loc(i);
        let src = || insn_text(lines.line(here.line));
        let stat = static_violations(&st, insn);
        if !stat.is_empty() {
            if opts.strict {
                for v in &stat {
                    note!(
                        "{here}: [{}] {}\n  cite: {}\n  in: {}",
                        v.id,
                        v.msg,
                        v.cite,
                        src()
                    );
                }
                note!("{here}: refused (strict execution; --lenient executes it)");
                return refused(&trace);
            }
            for v in &stat {
                warnings.push(format!(
                    "{here}: [{}] {} (cite: {}; makes {} undefined)",
                    v.id, v.msg, v.cite, v.undefined
                ));
            }
        }
        let step = match thread.step_limited(&mut st, &opts, a.max_steps) {
            Ok(s) => s,
            Err(RunError::StepLimit { limit, loop_ips }) => {
                note!(
                    "{here}: stopped: the step limit of {limit} executed instructions is reached \
                     (--max-steps); the loop runs:"
                );
                for a in loop_ips {
                    if let Some(k) = index_at(a) {
                        let l = loc(k);
                        note!("  ip {a:#06x}  {l}  {}", insn_text(lines.line(l.line)));
                    }
                }
                return refused(&trace);
            }
            Err(RunError::Exec {
                err: ExecError::Runtime { rule, msg },
                ..
            }) => {
                let cite = euref::spec::runtime::by_id(rule).map_or("", |r| r.cite);
                note!("{here}: [{rule}] {msg}\n  cite: {cite}\n  in: {}", src());
                if opts.strict {
                    note!("{here}: refused (strict execution; --lenient executes what it can)");
                } else {
                    note!("{here}: cannot be executed even leniently: no element address to use");
                }
                return refused(&trace);
            }
            Err(RunError::Exec { err, .. }) => {
                note!("{here}: {err}\n  in: {}", src());
                return refused(&trace);
            }
            Err(e) => {
                note!("{here}: {e}\n  in: {}", src());
                return refused(&trace);
            }
        };
        if let Some(info) = &step.info {
            // Lenient: what the violated static rules make unpredictable is undefined.
            let what = stat
                .iter()
                .map(|v| Unpredictable::from_row(v.undefined))
                .fold(Unpredictable::default(), Unpredictable::union);
            if let Err(e) = unpredictable::mark(&mut st, insn, info, what) {
                note!("{here}: {e}\n  in: {}", src());
                return refused(&trace);
            }
            for v in &info.violations {
                let row = v.row();
                warnings.push(format!(
                    "{here}: [{}] {} (cite: {}; channels {:#x}: {} marked undefined)",
                    v.rule,
                    row.map_or("", |r| r.msg),
                    row.map_or("", |r| r.cite),
                    v.channels,
                    row.map_or("results", |r| undefined_what(r.undefined)),
                ));
            }
            if let Some(conflict) = info.conflict {
                warnings.push(format!(
                    "{here}: [{conflict}] the sources give two results here; the bits on which \
                     they differ are undefined (`--compressed-overlap halves|sources-first` \
                     chooses one)"
                ));
            }
            last_type.record(insn);
        }
        if a.trace {
            let wrote = run_trace::written_regs(&st, &step);
            trace.push_str(&run_trace::line(
                thread.steps(),
                &step,
                &src(),
                &wrote,
                a.json,
            ));
            trace.push('\n');
        }
    }
    let steps = thread.steps();
    for w in &warnings {
        note!("warning: {w}");
    }
    let mut out = trace;
    if a.json {
        if a.trace {
            // JSON lines: the final state on one line.
            let v: serde_json::Value =
                serde_json::from_str(&json::save(&st)).map_err(|e| e.to_string())?;
            out.push_str(&serde_json::json!({ "final": v }).to_string());
        } else {
            out.push_str(&json::save(&st));
        }
        out.push('\n');
    } else {
        out.push_str(&format!(
            "{name}: {} instruction{} executed on {} ({}), initial state: {}\n",
            steps,
            if steps == 1 { "" } else { "s" },
            platform.name(),
            if opts.strict { "strict" } else { "lenient" },
            a.state
                .as_ref()
                .map_or("default (docs/run.md)".to_string(), |p| p
                    .display()
                    .to_string())
        ));
        state_diff::write(&mut out, &init, &st, &last_type);
    }
    output::print(out.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// Exit status 1 after printing the trace so far (`--trace`: the steps up to the refused
/// instruction).
fn refused(trace: &str) -> Result<ExitCode, String> {
    output::print(trace.as_bytes())?;
    Ok(ExitCode::from(1))
}

fn undefined_what(u: &str) -> &'static str {
    match u {
        "dst" => "destination",
        "flags" => "flags",
        "all" => "all results",
        _ => "nothing",
    }
}
