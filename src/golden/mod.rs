//! Golden test vectors (issue 7): single-instruction vectors generated from rule-aware
//! templates ([`template`]), executed on the reference model and written as JSON Lines
//! ([`format`], conformance/README.md). Deterministic: vector `i` depends only on the seed
//! and `i` ([`values::Rng::for_vector`]); [`generate`] runs rayon over ordered chunks and
//! streams, so memory does not grow with the count.

mod bitset;
pub mod build;
pub mod coverage;
mod cursor;
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

/// Vectors per chunk, about: the lines of a chunk are held in memory until written (two
/// chunks at a time: one written while the next is generated), generated in parallel tasks
/// of [`task_len`] vectors.
pub const CHUNK: u64 = 16_384;

/// Vectors per parallel task at least (each task takes a generation state from a pool shared
/// by the run, so states, shapes and buffers live as long as the run; small tasks keep both
/// cores busy to the end of a chunk).
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

/// The output of one task: its lines, and the indices without a vector.
#[derive(Default)]
struct TaskOut {
    buf: format::fast::Lines,
    skipped: Vec<u64>,
    written: u64,
    rejected: u64,
}

/// Generate vectors `0..count` to `out`, one JSON line each, in index order, calling
/// `on_chunk(first index, chunk length, parts)` after each chunk is written (progress; the
/// chunk's lines are the concatenation of `parts`). This is the fast path: vectors exist only
/// as their lines. A chunk is written (and `on_chunk` called, on the calling thread) while the
/// next one is generated.
pub fn generate_lines(
    cfg: &GenConfig,
    count: u64,
    out: &mut dyn Write,
    mut on_chunk: impl FnMut(u64, u64, &[&[u8]]),
) -> std::io::Result<GenStats> {
    let task = task_len(cfg);
    let chunk = task * (CHUNK / task).max(1);
    let pool = WorkPool::default();
    let fill = |tasks: &mut Vec<TaskOut>, start: u64| {
        let end = (start + chunk).min(count);
        let n = (end - start).div_ceil(task) as usize;
        tasks.resize_with(n, TaskOut::default);
        tasks.par_iter_mut().enumerate().for_each(|(t, o)| {
            let a = start + t as u64 * task;
            pool.run(cfg, |w| o.fill(w, cfg, a..(a + task).min(end)));
        });
    };
    let mut stats = GenStats::default();
    let (mut cur, mut next) = (Vec::new(), Vec::new());
    if count > 0 {
        fill(&mut cur, 0);
    }
    let mut start = 0;
    while start < count {
        let end = (start + chunk).min(count);
        // (The next chunk is a job of the pool, so no thread waits to be scheduled for it;
        // this thread writes meanwhile.)
        let written = rayon::in_place_scope(|s| {
            if end < count {
                let (fill, next) = (&fill, &mut next);
                s.spawn(move |_| fill(next, end));
            }
            let written = write_chunk(out, &cur, &mut stats);
            if written.is_ok() {
                let parts: Vec<&[u8]> = cur.iter().map(|o| o.buf.as_bytes()).collect();
                on_chunk(start, end - start, &parts);
            }
            written
        });
        written?;
        std::mem::swap(&mut cur, &mut next);
        start = end;
    }
    out.flush()?;
    Ok(stats)
}

/// Write the lines of a chunk's tasks and add up their statistics.
fn write_chunk(
    out: &mut dyn Write,
    tasks: &[TaskOut],
    stats: &mut GenStats,
) -> std::io::Result<()> {
    for o in tasks {
        out.write_all(o.buf.as_bytes())?;
        stats.written += o.written;
        stats.skipped += o.skipped.len() as u64;
        stats.rejected += o.rejected;
    }
    Ok(())
}

impl TaskOut {
    /// The lines of vectors `range`, generated with `w`.
    fn fill(&mut self, w: &mut build::Work, cfg: &GenConfig, range: std::ops::Range<u64>) {
        self.buf.clear();
        self.skipped.clear();
        self.written = 0;
        self.rejected = 0;
        for i in range {
            if w.line(cfg, i, &mut self.buf, &mut self.rejected) {
                self.written += 1;
            } else {
                self.skipped.push(i);
            }
        }
    }
}

/// The generation states of a run: a task takes one (or makes one) and gives it back, so a
/// run makes about as many as it has threads. (Vector `i` does not depend on the state that
/// builds it: a state only caches what the seed and the index determine.)
#[derive(Default)]
struct WorkPool(std::sync::Mutex<Vec<build::Work>>);

impl WorkPool {
    fn run(&self, cfg: &GenConfig, f: impl FnOnce(&mut build::Work)) {
        let taken = self.0.lock().ok().and_then(|mut v| v.pop());
        let mut w = taken.unwrap_or_else(|| build::Work::new(cfg));
        f(&mut w);
        if let Ok(mut v) = self.0.lock() {
            v.push(w);
        }
    }
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
