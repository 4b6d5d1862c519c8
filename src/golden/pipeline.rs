//! The parallel generation pipeline behind [`super::generate_lines`]: worker threads generate
//! small pieces of lines and the calling thread writes them in index order as they arrive.
//!
//! Why this shape:
//! - *Tasks* are whole shape spans ([`super::task_len`]): a worker takes the next task and
//!   builds each shape of it once (the vectors of a span share their shapes).
//! - A task's lines are made in *pieces* of [`PIECE`] vectors (about 800 KB of text), each
//!   handed to the writer as soon as it is done, and the writer returns written buffers for
//!   reuse, so the run touches a few MB of buffers however long it is (chunks of 16 k
//!   vectors, written after a barrier, touched 52 MB and made both cores wait for the slower
//!   at every chunk end). Pieces of 128 vectors made the writer sleep and wake four times as
//!   often (8 000 waits per million vectors, about 0.1 s of system time).
//! - At most [`window`] pieces are ahead of the writer (finished or being made), so memory
//!   stays bounded when the output is slow; the piece the writer waits for is always below
//!   the window, so the pipeline cannot stall.
//!
//! The output does not depend on the number of workers or on timing: vector `i` depends only
//! on the seed and `i`, and pieces are written in index order.

use super::build::Work;
use super::format::fast::Lines;
use super::{GenConfig, GenStats};
use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

/// Vectors per piece (the last piece of a task may be shorter).
pub const PIECE: u64 = 512;

/// The pieces of a run: task `t` covers vectors `t * task ..`, in pieces of [`PIECE`].
#[derive(Debug, Clone, Copy)]
struct Plan {
    count: u64,
    task: u64,
    /// Pieces per whole task.
    per_task: u64,
}

impl Plan {
    fn new(count: u64, task: u64) -> Plan {
        let task = task.max(1);
        Plan {
            count,
            task,
            per_task: task.div_ceil(PIECE),
        }
    }

    fn tasks(&self) -> u64 {
        self.count.div_ceil(self.task)
    }

    /// The vectors of piece `k` of task `t` (empty past the end of the run).
    fn piece(&self, t: u64, k: u64) -> std::ops::Range<u64> {
        let task_start = t.saturating_mul(self.task);
        let task_end = task_start.saturating_add(self.task).min(self.count);
        let a = task_start
            .saturating_add(k.saturating_mul(PIECE))
            .min(task_end);
        a..a.saturating_add(PIECE).min(task_end)
    }

    /// Piece `id` in write order (`t * per_task + k`), as its range.
    fn piece_by_id(&self, id: u64) -> std::ops::Range<u64> {
        self.piece(id / self.per_task, id % self.per_task)
    }

    /// One past the last piece id (ids of short last tasks' missing pieces are empty ranges).
    fn end_id(&self) -> u64 {
        self.tasks().saturating_mul(self.per_task)
    }
}

/// Pieces allowed ahead of the writer: enough for every worker to finish a whole task while
/// the writer waits on the oldest one, plus one piece each.
fn window(plan: &Plan, workers: u64) -> u64 {
    (workers + 1).saturating_mul(plan.per_task) + workers
}

/// A finished piece: its lines and what it counted.
struct Piece {
    lines: Lines,
    written: u64,
    skipped: u64,
    rejected: u64,
}

/// What the workers and the writer share.
struct Shared {
    /// Finished pieces by id, not yet written.
    done: HashMap<u64, Piece>,
    /// The id of the next piece to write.
    next: u64,
    /// Buffers written and free for reuse.
    free: Vec<Lines>,
    /// The writer stopped (an output error): workers stop too.
    stop: bool,
    /// A worker died (a panic: a bug): the writer stops instead of waiting for its pieces.
    lost: bool,
}

struct Pipe {
    shared: Mutex<Shared>,
    /// Signalled when a piece is finished (the writer waits on it).
    finished: Condvar,
    /// Signalled when the writer advanced or stopped (workers wait on it).
    advanced: Condvar,
}

impl Pipe {
    fn lock(&self) -> MutexGuard<'_, Shared> {
        // A worker that panicked poisons nothing we rely on: the data is still consistent
        // (pieces are inserted whole).
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Generate vectors `0..count` with `workers` threads in tasks of `task` vectors, writing
/// each piece to `out` in order and calling `on_piece(first index, vectors, lines)` after it.
pub fn run(
    cfg: &GenConfig,
    count: u64,
    task: u64,
    workers: usize,
    out: &mut dyn Write,
    on_piece: &mut dyn FnMut(u64, u64, &[u8]),
) -> std::io::Result<GenStats> {
    let plan = Plan::new(count, task);
    let workers = workers.clamp(1, 256);
    let window = window(&plan, workers as u64);
    let pipe = Pipe {
        shared: Mutex::new(Shared {
            done: HashMap::new(),
            next: 0,
            free: Vec::new(),
            stop: false,
            lost: false,
        }),
        finished: Condvar::new(),
        advanced: Condvar::new(),
    };
    let next_task = AtomicU64::new(0);
    let mut stats = GenStats::default();
    std::thread::scope(|s| {
        for _ in 0..workers.min(plan.tasks().max(1) as usize) {
            s.spawn(|| work(cfg, &plan, window, &pipe, &next_task));
        }
        let result = write(&plan, &pipe, out, on_piece, &mut stats);
        if result.is_err() {
            pipe.lock().stop = true;
            pipe.advanced.notify_all();
        }
        result
    })?;
    out.flush()?;
    Ok(stats)
}

/// A worker: take tasks in order until none is left; make each piece once the window allows.
fn work(cfg: &GenConfig, plan: &Plan, window: u64, pipe: &Pipe, next_task: &AtomicU64) {
    /// Tells the writer when the worker unwinds, so that it does not wait for ever.
    struct Alive<'a>(&'a Pipe);
    impl Drop for Alive<'_> {
        fn drop(&mut self) {
            if std::thread::panicking() {
                self.0.lock().lost = true;
                self.0.finished.notify_all();
            }
        }
    }
    let _alive = Alive(pipe);
    let mut w = Work::new(cfg);
    loop {
        let t = next_task.fetch_add(1, Ordering::Relaxed);
        if t >= plan.tasks() {
            return;
        }
        for k in 0..plan.per_task {
            let range = plan.piece(t, k);
            if range.is_empty() {
                break;
            }
            let id = t * plan.per_task + k;
            let mut lines = {
                let mut g = pipe.lock();
                while !g.stop && id >= g.next.saturating_add(window) {
                    g = pipe.advanced.wait(g).unwrap_or_else(|e| e.into_inner());
                }
                if g.stop {
                    return;
                }
                g.free.pop().unwrap_or_default()
            };
            lines.clear();
            let (mut written, mut skipped, mut rejected) = (0, 0, 0);
            for i in range {
                if w.line(cfg, i, &mut lines, &mut rejected) {
                    written += 1;
                } else {
                    skipped += 1;
                }
            }
            let piece = Piece {
                lines,
                written,
                skipped,
                rejected,
            };
            let mut g = pipe.lock();
            g.done.insert(id, piece);
            if g.next == id {
                pipe.finished.notify_one();
            }
        }
    }
}

/// The writer: write pieces in id order as they are finished.
fn write(
    plan: &Plan,
    pipe: &Pipe,
    out: &mut dyn Write,
    on_piece: &mut dyn FnMut(u64, u64, &[u8]),
    stats: &mut GenStats,
) -> std::io::Result<()> {
    for id in 0..plan.end_id() {
        let range = plan.piece_by_id(id);
        let piece = if range.is_empty() {
            None
        } else {
            let mut g = pipe.lock();
            loop {
                if let Some(p) = g.done.remove(&id) {
                    break Some(p);
                }
                if g.lost {
                    return Err(std::io::Error::other("a generation thread failed"));
                }
                g = pipe.finished.wait(g).unwrap_or_else(|e| e.into_inner());
            }
        };
        if let Some(p) = &piece {
            out.write_all(p.lines.as_bytes())?;
            stats.written += p.written;
            stats.skipped += p.skipped;
            stats.rejected += p.rejected;
            on_piece(range.start, range.end - range.start, p.lines.as_bytes());
        }
        let mut g = pipe.lock();
        g.next = id + 1;
        if let Some(p) = piece {
            g.free.push(p.lines);
        }
        drop(g);
        pipe.advanced.notify_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pieces of a plan cover `0..count` once, in id order, each within one task and at
    /// most [`PIECE`] long, for task lengths that are and are not multiples of the piece.
    #[test]
    fn pieces_cover_the_run_in_order() {
        for task in [1, 16, 127, 128, 129, 512, 960, 1000] {
            for count in [0, 1, 5, 127, 128, 129, 959, 960, 961, 5000] {
                let plan = Plan::new(count, task);
                let mut at = 0;
                for id in 0..plan.end_id() {
                    let r = plan.piece_by_id(id);
                    if r.is_empty() {
                        continue;
                    }
                    assert_eq!(r.start, at, "task {task} count {count} id {id}");
                    assert!(r.end - r.start <= PIECE);
                    assert_eq!(r.start / task, (r.end - 1) / task, "one task");
                    at = r.end;
                }
                assert_eq!(at, count, "task {task} count {count}");
            }
        }
    }

    fn small_cfg() -> GenConfig {
        let mut cfg = GenConfig::new(crate::spec::Platform::Skl, 3);
        cfg.ops.truncate(3);
        cfg
    }

    /// Any number of workers, and tasks shorter and longer than a piece, give the bytes of
    /// one worker with one task (the window blocks the leading workers on the small tasks),
    /// and `on_piece` sees consecutive ranges whose lines are exactly what was written.
    #[test]
    fn output_does_not_depend_on_workers_or_tasks() {
        let cfg = small_cfg();
        let count = 700;
        let mut reference = Vec::new();
        run(&cfg, count, count, 1, &mut reference, &mut |_, _, _| {}).unwrap();
        assert_eq!(reference.iter().filter(|b| **b == b'\n').count(), 700);
        for (task, workers) in [(48, 1), (48, 2), (48, 7), (1, 3), (400, 2), (2000, 4)] {
            let mut out = Vec::new();
            let mut seen = Vec::new();
            let mut at = 0;
            let stats = run(
                &cfg,
                count,
                task,
                workers,
                &mut out,
                &mut |first, n, lines| {
                    assert_eq!(first, at, "task {task} workers {workers}");
                    assert!(n <= PIECE);
                    at += n;
                    seen.extend_from_slice(lines);
                },
            )
            .unwrap();
            assert_eq!(at, count);
            assert_eq!(stats.written, count);
            assert!(out == reference, "task {task} workers {workers}");
            assert!(seen == reference, "task {task} workers {workers}");
        }
    }

    /// An output that fails stops the run with its error (workers waiting on the window are
    /// released: the call returns).
    #[test]
    fn an_output_error_stops_the_run() {
        struct Failing(usize);
        impl Write for Failing {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                if self.0 < b.len() {
                    return Err(std::io::Error::other("disk full"));
                }
                self.0 -= b.len();
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let cfg = small_cfg();
        let e = run(&cfg, 5000, 48, 2, &mut Failing(20_000), &mut |_, _, _| {}).unwrap_err();
        assert_eq!(e.to_string(), "disk full");
    }

    /// The window lets every worker finish a whole task ahead of the oldest unwritten piece.
    #[test]
    fn window_covers_a_task_per_worker() {
        let plan = Plan::new(10_000, 960);
        assert_eq!(plan.per_task, 960u64.div_ceil(PIECE));
        for workers in 1..5 {
            assert!(window(&plan, workers) >= (workers + 1) * plan.per_task);
        }
    }
}
