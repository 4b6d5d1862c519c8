//! Golden test vectors (issue 7): single-instruction vectors generated from rule-aware
//! templates ([`template`]), executed on the reference model and written as JSON Lines
//! ([`format`], conformance/README.md). Deterministic: vector `i` depends only on the seed
//! and `i` ([`values::Rng::for_vector`]); [`generate_lines`] runs worker threads over ordered
//! pieces and streams them ([`pipeline`]), so memory does not grow with the count. A run of
//! indices `a..b` ([`generate_lines_in`], `euref golden --shard`) writes exactly those lines
//! of the run from 0.

mod bitset;
pub mod build;
pub mod coverage;
mod cursor;
pub mod format;
mod fp_rows;
mod ids;
mod operands;
mod pipeline;
pub mod program;
mod regtext;
pub mod template;
pub mod values;

pub use build::{vector, GenConfig};
pub use format::{AltKind, Alternative, DstInfo, Vector};

use rayon::prelude::*;
use std::io::Write;
use std::ops::Range;

/// Vectors per batch that [`generate`] parses back at once (in parallel).
pub const CHUNK: u64 = 16_384;

/// Vectors per parallel task at least (a worker builds each shape of its task once).
pub const TASK: u64 = 512;

/// Vectors per task: [`TASK`] rounded up to whole shape spans (`PER_SHAPE` vectors of every
/// opcode of the selection), so that no shape is split between two tasks (built twice).
pub fn task_len(cfg: &GenConfig) -> u64 {
    let span = build::PER_SHAPE * (cfg.ops.len().max(1) as u64);
    TASK.div_ceil(span) * span
}

/// Statistics of a run.
#[derive(Debug, Clone, Default)]
pub struct GenStats {
    pub written: u64,
    /// Indices for which no instruction could be built.
    pub skipped: u64,
    /// Built instructions that `validate::check_insn` refused (each retried with another shape).
    pub rejected: u64,
}

/// Generate vectors `0..count` to `out`, one JSON line each, in index order, calling
/// `on_piece(first index, vectors, lines)` on the calling thread after each piece of lines is
/// written (progress). This is the fast path: vectors exist only as their lines. The calling
/// thread and worker threads (as many in all as rayon's, so `RAYON_NUM_THREADS` applies)
/// generate, and the calling thread writes ([`pipeline`]); the output does not depend on the
/// thread count.
pub fn generate_lines(
    cfg: &GenConfig,
    count: u64,
    out: &mut dyn Write,
    on_piece: impl FnMut(u64, u64, &[u8]),
) -> std::io::Result<GenStats> {
    generate_lines_in(cfg, 0..count, out, on_piece)
}

/// [`generate_lines`] for the vectors of `indices` only: the lines of those indices in a run
/// from 0, byte for byte (vector `i` depends only on the seed and `i`), so the outputs of
/// consecutive ranges concatenated are the output of their union.
pub fn generate_lines_in(
    cfg: &GenConfig,
    indices: Range<u64>,
    out: &mut dyn Write,
    mut on_piece: impl FnMut(u64, u64, &[u8]),
) -> std::io::Result<GenStats> {
    let workers = rayon::current_num_threads();
    pipeline::run(cfg, indices, task_len(cfg), workers, out, &mut on_piece)
}

/// Generate vectors `0..count` to `out` as [`generate_lines`] does; `on_chunk` sees the
/// vectors of each batch of about [`CHUNK`] indices in order (None: an index without a
/// vector), parsed back from their lines in parallel (for coverage: slower than
/// [`generate_lines`]).
pub fn generate(
    cfg: &GenConfig,
    count: u64,
    out: &mut dyn Write,
    on_chunk: impl FnMut(&[Option<Vector>]),
) -> std::io::Result<GenStats> {
    generate_in(cfg, 0..count, out, on_chunk)
}

/// [`generate`] for the vectors of `indices` only (as [`generate_lines_in`]).
pub fn generate_in(
    cfg: &GenConfig,
    indices: Range<u64>,
    out: &mut dyn Write,
    mut on_chunk: impl FnMut(&[Option<Vector>]),
) -> std::io::Result<GenStats> {
    let mut batch = Batch::default();
    let stats = generate_lines_in(cfg, indices, out, |first, len, lines| {
        if batch.len == 0 {
            batch.first = first;
        }
        batch.text.extend_from_slice(lines);
        batch.len += len;
        if batch.len >= CHUNK {
            batch.parse(&mut on_chunk);
        }
    })?;
    if batch.len > 0 {
        batch.parse(&mut on_chunk);
    }
    Ok(stats)
}

/// Lines of consecutive indices waiting to be parsed back ([`generate`]).
#[derive(Default)]
struct Batch {
    first: u64,
    len: u64,
    text: Vec<u8>,
    vectors: Vec<Option<Vector>>,
}

impl Batch {
    /// Parse the lines, hand their vectors to `on_chunk`, and empty the batch.
    fn parse(&mut self, on_chunk: &mut impl FnMut(&[Option<Vector>])) {
        let lines: Vec<&[u8]> = self
            .text
            .split(|b| *b == b'\n')
            .filter(|l| !l.is_empty())
            .collect();
        let parsed: Vec<Vector> = lines
            .par_iter()
            .filter_map(|l| serde_json::from_slice(l).ok())
            .collect();
        // Put each vector at its index (`<gen>-<seed>-<index>`), None elsewhere.
        self.vectors.clear();
        self.vectors.resize(self.len as usize, None);
        for v in parsed {
            let at =
                v.id.rsplit('-')
                    .next()
                    .and_then(|x| x.parse::<u64>().ok())
                    .and_then(|i| i.checked_sub(self.first));
            if let Some(slot) = at.and_then(|i| self.vectors.get_mut(i as usize)) {
                *slot = Some(v);
            }
        }
        on_chunk(&self.vectors);
        self.text.clear();
        self.len = 0;
    }
}
