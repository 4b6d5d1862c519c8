//! Golden test vectors (issue 7): single-instruction vectors generated from rule-aware
//! templates ([`template`]), executed on the reference model and written as JSON Lines
//! ([`format`], conformance/README.md). Deterministic: vector `i` depends only on the seed
//! and `i` ([`values::Rng::for_vector`]); [`generate`] runs rayon over ordered chunks and
//! streams, so memory does not grow with the count.

mod bitset;
pub mod build;
pub mod coverage;
pub mod format;
mod fp_rows;
mod ids;
mod operands;
mod regtext;
pub mod template;
pub mod values;

pub use build::{vector, GenConfig};
pub use format::{AltKind, Alternative, DstInfo, Vector};

use rayon::prelude::*;
use std::io::Write;

/// Vectors per chunk: the lines of one chunk are held in memory before they are written
/// (memory bound), generated in [`TASK`]-sized parallel tasks.
pub const CHUNK: u64 = 16_384;

/// Vectors per parallel task (each task builds its own shapes and reuses its own states and
/// buffers).
pub const TASK: u64 = 2_048;

/// Statistics of a run.
#[derive(Debug, Clone, Default)]
pub struct GenStats {
    pub written: u64,
    /// Indices for which no instruction could be built.
    pub skipped: u64,
    /// Built instructions that `validate::check_insn` refused (each retried with another shape).
    pub rejected: u64,
}

/// The output of one task: its lines, and the indices without a vector.
#[derive(Default)]
struct TaskOut {
    buf: Vec<u8>,
    skipped: Vec<u64>,
    written: u64,
    rejected: u64,
}

/// Generate vectors `0..count` to `out`, one JSON line each, in index order, calling
/// `on_chunk(first index, chunk length, parts)` after each chunk is written (progress; the
/// chunk's lines are the concatenation of `parts`). This is the fast path: vectors exist only
/// as their lines.
pub fn generate_lines(
    cfg: &GenConfig,
    count: u64,
    out: &mut dyn Write,
    mut on_chunk: impl FnMut(u64, u64, &[&[u8]]),
) -> std::io::Result<GenStats> {
    let mut stats = GenStats::default();
    let mut tasks: Vec<TaskOut> = Vec::new();
    let mut start = 0;
    while start < count {
        let end = (start + CHUNK).min(count);
        let n = (end - start).div_ceil(TASK) as usize;
        if tasks.len() < n {
            tasks.resize_with(n, TaskOut::default);
        }
        tasks[..n].par_iter_mut().enumerate().for_each(|(t, o)| {
            o.buf.clear();
            o.skipped.clear();
            o.written = 0;
            o.rejected = 0;
            let a = start + t as u64 * TASK;
            let b = (a + TASK).min(end);
            let mut w = build::Work::new(cfg);
            for i in a..b {
                if w.line(cfg, i, &mut o.buf, &mut o.rejected) {
                    o.written += 1;
                } else {
                    o.skipped.push(i);
                }
            }
        });
        for o in &tasks[..n] {
            out.write_all(&o.buf)?;
            stats.written += o.written;
            stats.skipped += o.skipped.len() as u64;
            stats.rejected += o.rejected;
        }
        let parts: Vec<&[u8]> = tasks[..n].iter().map(|o| o.buf.as_slice()).collect();
        on_chunk(start, end - start, &parts);
        start = end;
    }
    out.flush()?;
    Ok(stats)
}

/// Generate vectors `0..count` to `out` as [`generate_lines`] does; `on_chunk` sees each
/// chunk's vectors (None: an index without a vector), parsed back from their lines (for
/// coverage: slower than [`generate_lines`]).
pub fn generate(
    cfg: &GenConfig,
    count: u64,
    out: &mut dyn Write,
    mut on_chunk: impl FnMut(&[Option<Vector>]),
) -> std::io::Result<GenStats> {
    let mut vs: Vec<Option<Vector>> = Vec::new();
    generate_lines(cfg, count, out, |first, len, parts| {
        let parsed: Vec<Vector> = parts
            .par_iter()
            .flat_map_iter(|p| p.split(|b| *b == b'\n'))
            .filter(|l| !l.is_empty())
            .filter_map(|l| serde_json::from_slice(l).ok())
            .collect();
        // Put each vector at its index (`<gen>-<seed>-<index>`), None elsewhere.
        vs.clear();
        vs.resize(len as usize, None);
        for v in parsed {
            let i =
                v.id.rsplit('-')
                    .next()
                    .and_then(|x| x.parse::<u64>().ok())
                    .map_or(0, |i| i - first);
            if let Some(slot) = vs.get_mut(i as usize) {
                *slot = Some(v);
            }
        }
        on_chunk(&vs);
    })
}
