//! Golden test vectors (issue 7): single-instruction vectors generated from rule-aware
//! templates ([`template`]), executed on the reference model and written as JSON Lines
//! ([`format`], conformance/README.md). Deterministic: vector `i` depends only on the seed
//! and `i` ([`values::Rng::for_vector`]); [`generate`] runs rayon over ordered chunks and
//! streams, so memory does not grow with the count.

pub mod build;
pub mod coverage;
pub mod format;
mod fp_rows;
pub mod template;
pub mod values;

pub use build::{vector, GenConfig};
pub use format::{AltKind, Alternative, DstInfo, Vector};

use rayon::prelude::*;
use std::io::Write;

/// Vectors per parallel chunk (memory bound: one chunk of lines at a time).
pub const CHUNK: u64 = 4096;

/// Statistics of a run.
#[derive(Debug, Clone, Default)]
pub struct GenStats {
    pub written: u64,
    /// Indices for which no instruction could be built.
    pub skipped: u64,
    /// Built instructions that `validate::check_insn` refused (each retried with another shape).
    pub rejected: u64,
}

/// Generate vectors `0..count` to `out`, one JSON line each, in index order. `on_chunk` sees
/// each chunk's vectors (coverage, progress) before they are written.
pub fn generate(
    cfg: &GenConfig,
    count: u64,
    out: &mut dyn Write,
    mut on_chunk: impl FnMut(&[Option<Vector>]),
) -> std::io::Result<GenStats> {
    let mut stats = GenStats::default();
    let mut start = 0;
    while start < count {
        let end = (start + CHUNK).min(count);
        let (chunk, rejected): (Vec<Option<Vector>>, Vec<u32>) = (start..end)
            .into_par_iter()
            .map(|i| {
                let mut n = 0;
                (build::vector_counted(cfg, i, &mut n), n)
            })
            .unzip();
        stats.rejected += rejected.iter().map(|&n| u64::from(n)).sum::<u64>();
        on_chunk(&chunk);
        let lines: Vec<String> = chunk
            .par_iter()
            .map(|v| v.as_ref().map(Vector::to_line).unwrap_or_default())
            .collect();
        for l in &lines {
            if l.is_empty() {
                stats.skipped += 1;
            } else {
                out.write_all(l.as_bytes())?;
                out.write_all(b"\n")?;
                stats.written += 1;
            }
        }
        start = end;
    }
    out.flush()?;
    Ok(stats)
}
