//! Golden program vectors (issue 31, `euref golden --programs`): random, valid, terminating
//! programs mixing ALU instructions, divergent control flow (nested if/else/endif, while
//! loops with per-channel trip counts, break and cont inside ifs, halt, call/ret, goto/join
//! on Gen8+, uniform jmpi on Haswell+)
//! and memory messages (untyped read, write and atomic add on one surface and on the SLM,
//! Haswell+; dword scattered read and write on Ivy Bridge), each
//! with its initial state and memory and what the reference model ends with; optionally
//! run by 2 to 4 threads as one work group with a barrier
//! ([`write_programs_threads_covered`]).
//!
//! - [`templates`]: the weighted stream templates (the table is there) and the register plan;
//! - [`generator`]: a program per (platform, seed, index), every instruction checked with
//!   `validate::check_insn`;
//! - [`vector`]: the JSON line (conformance/README.md "Program vectors"), the run on the
//!   thread runner within [`vector::MAX_STEPS`] and the trace digest.
//!
//! Deterministic: program `i` depends only on the platform, the seed and `i`, so the lines
//! of indices `a..b` are those lines of the run from 0 (`--shard`).

pub mod coverage;
pub mod generator;
pub mod templates;
pub mod vector;

pub use coverage::ProgramCoverage;
pub use vector::{program_vector, ProgramVector, MAX_STEPS};

use crate::spec::Platform;
use rayon::prelude::*;
use std::io::Write;
use std::ops::Range;

/// Programs generated in parallel at once, then written in order.
const BATCH: u64 = 64;

/// Why a run of program vectors stopped.
#[derive(Debug, thiserror::Error)]
pub enum ProgramError {
    /// A program that could not be made or run (a generator bug).
    #[error("{0}")]
    Generate(String),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Write the lines of programs `indices` (one JSON line each, in index order) to `out`,
/// calling `progress(n)` after each batch of `n`.
pub fn write_programs(
    p: Platform,
    seed: u64,
    indices: Range<u64>,
    out: &mut dyn Write,
    progress: impl FnMut(u64),
) -> Result<u64, ProgramError> {
    write_programs_covered(
        p,
        seed,
        indices,
        out,
        progress,
        &mut ProgramCoverage::default(),
    )
}

/// [`write_programs`], adding the control-flow coverage of the programs to `cov` (merged in
/// index order, whatever the worker that ran each).
pub fn write_programs_covered(
    p: Platform,
    seed: u64,
    indices: Range<u64>,
    out: &mut dyn Write,
    progress: impl FnMut(u64),
    cov: &mut ProgramCoverage,
) -> Result<u64, ProgramError> {
    write_programs_threads_covered(p, seed, 1, indices, out, progress, cov)
}

/// [`write_programs_covered`] for work groups of `threads` threads
/// ([`vector::program_vector_threads_covered`]; 1: a single thread).
pub fn write_programs_threads_covered(
    p: Platform,
    seed: u64,
    threads: u32,
    indices: Range<u64>,
    out: &mut dyn Write,
    mut progress: impl FnMut(u64),
    cov: &mut ProgramCoverage,
) -> Result<u64, ProgramError> {
    let mut at = indices.start;
    let mut written = 0;
    while at < indices.end {
        let end = at.saturating_add(BATCH).min(indices.end);
        let lines: Vec<Result<(String, ProgramCoverage), String>> = (at..end)
            .into_par_iter()
            .map(|i| {
                vector::program_vector_threads_covered(p, seed, i, threads)
                    .map(|(v, c)| (v.to_line(), c))
            })
            .collect();
        for l in lines {
            let (l, c) = l.map_err(ProgramError::Generate)?;
            cov.merge(&c);
            out.write_all(l.as_bytes())?;
            out.write_all(b"\n")?;
            written += 1;
        }
        progress(end - at);
        at = end;
    }
    out.flush()?;
    Ok(written)
}
