//! The program generator: a random, valid, terminating program per (platform, seed, index),
//! built from the stream templates ([`super::templates`]), assembled, and checked
//! instruction by instruction with [`crate::validate::check_insn`].

use super::templates::Builder;
use crate::asm::{self, Dialect};
use crate::golden::values::Rng;
use crate::isa::Insn;
use crate::spec::Platform;

/// Salt of the program generator's seeds (program `i` of seed `s` does not reuse the random
/// stream of single-instruction vector `i`).
const SALT: u64 = 0x7072_6f67_7261_6d73;

/// Instructions a program may have at most (before the end of thread).
pub const MAX_INSNS: u32 = 120;

/// Attempts at a program whose every instruction validates.
const ATTEMPTS: u32 = 16;

/// A generated program.
#[derive(Debug, Clone)]
pub struct Program {
    /// IGA text, one line per label or instruction.
    pub lines: Vec<String>,
    pub insns: Vec<Insn>,
    /// Instructions the validator refused and the generator replaced.
    pub rejected: u32,
    /// The random stream after the program: the initial values are drawn from it.
    pub rng: Rng,
    /// A message of the program accesses the SLM (the vector then has an SLM image).
    pub uses_slm: bool,
}

/// Program `index` of a run seeded with `seed` on `p`.
pub fn generate(p: Platform, seed: u64, index: u64) -> Result<Program, String> {
    generate_threads(p, seed, index, 1)
}

/// Program `index` of a run seeded with `seed` on `p` for a work group of `threads` threads
/// (1: [`generate`]; more: one barrier at the top level after statement 1 to n - 1 of n,
/// and the race-free memory rules of the templates).
pub fn generate_threads(
    p: Platform,
    seed: u64,
    index: u64,
    threads: u32,
) -> Result<Program, String> {
    let mut rejected = 0;
    let mut last = String::new();
    for attempt in 0..ATTEMPTS {
        let mut rng = Rng::for_vector(seed ^ SALT, index, attempt);
        let mut b = Builder::new(p, &mut rng, MAX_INSNS);
        b.threads = threads;
        let statements = 3 + b.rng.below(6);
        let barrier_after = if threads > 1 {
            1 + b.rng.below(statements - 1)
        } else {
            usize::MAX
        };
        for k in 0..statements {
            if k == barrier_after {
                b.barrier();
            }
            if b.budget < 12 {
                break;
            }
            b.statement();
        }
        if threads > 1 && !b.after_barrier {
            b.barrier();
        }
        b.end_of_thread();
        rejected += b.rejected;
        let uses_slm = b.uses_slm;
        let lines = std::mem::take(&mut b.lines);
        let text = lines.join("\n") + "\n";
        let prog = match asm::parse(text.as_bytes(), Some(Dialect::Iga), p) {
            Ok(prog) => prog,
            Err(e) => {
                last = format!("line {}:{}: {}", e.line, e.col, e.msg);
                rejected += 1;
                continue;
            }
        };
        let refused = prog.insns.iter().enumerate().find_map(|(k, i)| {
            let v = crate::validate::check_insn(p, i);
            v.first().map(|v| (k, v.rule.id))
        });
        if let Some((k, rule)) = refused {
            last = format!("instruction {k} violates {rule}");
            rejected += 1;
            continue;
        }
        return Ok(Program {
            lines,
            insns: prog.insns,
            rejected,
            rng,
            uses_slm,
        });
    }
    Err(format!(
        "{} program {index} of seed {seed}: no valid program in {ATTEMPTS} attempts (last: {last})",
        p.name()
    ))
}
