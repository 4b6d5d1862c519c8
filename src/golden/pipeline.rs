//! The parallel generation pipeline behind [`super::generate_lines`]: the calling thread and
//! worker threads generate small pieces of lines, and the calling thread writes them in
//! index order between its own pieces.
//!
//! Why this shape:
//! - *Tasks* are whole shape spans ([`super::task_len`]): a thread takes the next task and
//!   builds each shape of it once (the vectors of a span share their shapes).
//! - A task's lines are made in *pieces* of at most [`PIECE`] vectors (a default-mix task,
//!   720 vectors, is one piece of about 1.1 MB of text; tasks longer than a piece exist with
//!   more than 64 opcodes, or when a caller asks for them), each
//!   handed to the writer as soon as it is done, and the writer returns written buffers for
//!   reuse, so the run touches a few MB of buffers however long it is (chunks of 16 k
//!   vectors, written after a barrier, touched 52 MB and made both cores wait for the slower
//!   at every chunk end). Pieces of 128 vectors made the writer sleep and wake four times as
//!   often (8 000 waits per million vectors, about 0.1 s of system time).
//! - The writer is the calling thread, which also generates: as many threads as workers. A
//!   writer thread of its own, woken for nearly every piece, preempted a generating thread
//!   each time on a machine with as many cores as workers (about 2 700 involuntary context
//!   switches per million vectors on 2 cores; 650 now).
//! - At most [`window`] pieces are ahead of the writer (finished or being made), so memory
//!   stays bounded when the output is slow. The calling thread takes a task only when all of
//!   it is within the window, and otherwise waits for the next piece to write, which another
//!   thread is making (tasks are taken in order): the pipeline cannot stall.
//!
//! - A piece is made *opcode by opcode* (vector `i` has opcode `i % ops`): all its vectors of
//!   one opcode in a row, each line into a buffer of the thread's, then the lines are copied
//!   into the piece in index order. Consecutive vectors of one opcode share their shape, their
//!   code and their branches' history: a fifth fewer mispredicted branches per vector than in
//!   index order, where every vector has another opcode than the one before (callgrind
//!   `--branch-sim`, 134 -> 109), for 0.16 k more instructions (the copy). A piece as long
//!   as the task has every shape's vectors in a row: pieces of 512 vectors split the 720 of
//!   a default-mix task in two, and had 5% more mispredictions (99 against 94 per vector).
//!
//! The output does not depend on the number of workers, on timing or on the order in which a
//! thread makes its vectors: vector `i` depends only on the seed and `i`, and pieces are
//! written in index order.

use super::build::Work;
use super::format::fast::Lines;
use super::{GenConfig, GenStats};
use std::collections::HashMap;
use std::io::Write;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

/// Vectors per piece at most (the last piece of a task may be shorter): more than a task of
/// up to 64 opcodes ([`super::task_len`]: 16 vectors of each, at least [`super::TASK`]).
pub const PIECE: u64 = 1024;

/// The pieces of a run of vectors `start..end`: task `t` covers the vectors of
/// `(first_task + t) * task ..` within the run (tasks are aligned to whole multiples of `task`
/// from index 0, so a run that starts in the middle, a shard, cuts no shape span in two that a
/// run from 0 keeps whole), in pieces of [`PIECE`].
#[derive(Debug, Clone, Copy)]
struct Plan {
    start: u64,
    end: u64,
    task: u64,
    /// Pieces per whole task.
    per_task: u64,
    /// The task (counted from index 0) that holds `start`.
    first_task: u64,
}

impl Plan {
    fn new(range: Range<u64>, task: u64) -> Plan {
        let task = task.max(1);
        Plan {
            start: range.start,
            end: range.end,
            task,
            per_task: task.div_ceil(PIECE),
            first_task: range.start / task,
        }
    }

    fn tasks(&self) -> u64 {
        if self.start >= self.end {
            return 0;
        }
        (self.end - 1) / self.task - self.first_task + 1
    }

    /// The vectors of piece `k` of task `t` (empty past the end of the run).
    fn piece(&self, t: u64, k: u64) -> Range<u64> {
        let aligned = self.first_task.saturating_add(t).saturating_mul(self.task);
        let task_start = aligned.max(self.start).min(self.end);
        let task_end = aligned.saturating_add(self.task).min(self.end);
        let a = task_start
            .saturating_add(k.saturating_mul(PIECE))
            .min(task_end);
        a..a.saturating_add(PIECE).min(task_end)
    }

    /// Piece `id` in write order (`t * per_task + k`), as its range.
    fn piece_by_id(&self, id: u64) -> Range<u64> {
        self.piece(id / self.per_task, id % self.per_task)
    }

    /// One past the last piece id (ids of short tasks' missing pieces are empty ranges).
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

/// Generate vectors `range` with `workers` threads (the calling thread and `workers - 1`
/// more) in tasks of `task` vectors, writing each piece to `out` in order and calling
/// `on_piece(first index, vectors, lines)` after it.
pub fn run(
    cfg: &GenConfig,
    range: Range<u64>,
    task: u64,
    workers: usize,
    out: &mut dyn Write,
    on_piece: &mut dyn FnMut(u64, u64, &[u8]),
) -> std::io::Result<GenStats> {
    let plan = Plan::new(range, task);
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
    let mut writer = Writer {
        plan: &plan,
        pipe: &pipe,
        out,
        on_piece,
        stats: &mut stats,
        next: 0,
    };
    std::thread::scope(|s| {
        // (The calling thread is one of the workers: as many threads as cores, none of them
        // woken for every piece only to write it.)
        let others = workers.min(plan.tasks().max(1) as usize) - 1;
        for _ in 0..others {
            s.spawn(|| work(cfg, &plan, window, &pipe, &next_task));
        }
        let result = lead(cfg, window, &next_task, &mut writer);
        if result.is_err() {
            pipe.lock().stop = true;
            pipe.advanced.notify_all();
        }
        result
    })?;
    out.flush()?;
    Ok(stats)
}

/// Calls its function on the pipe when dropped while the thread unwinds (a panic: a bug), so
/// that no other thread waits for ever on the one that died.
struct OnUnwind<'a, F: Fn(&Pipe)>(&'a Pipe, F);

impl<F: Fn(&Pipe)> Drop for OnUnwind<'_, F> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            (self.1)(self.0);
        }
    }
}

/// The error of a run whose worker thread died.
fn lost() -> std::io::Error {
    std::io::Error::other("a generation thread failed")
}

/// A thread's generation state: the vector builder and the buffers of a piece made opcode by
/// opcode.
struct Maker {
    w: Work,
    /// The piece's lines in the order they were made.
    made: Lines,
    /// Per vector of the piece, in index order: its line in `made`.
    spans: Vec<Range<usize>>,
}

impl Maker {
    fn new(cfg: &GenConfig) -> Maker {
        Maker {
            w: Work::new(cfg),
            made: Lines::default(),
            spans: Vec::new(),
        }
    }

    /// Vectors `range` as one piece, in `lines` (a buffer to reuse): made opcode by opcode,
    /// written in index order.
    fn piece(&mut self, cfg: &GenConfig, range: Range<u64>, mut lines: Lines) -> Piece {
        lines.clear();
        let (mut written, mut skipped, mut rejected) = (0, 0, 0);
        let ops = (cfg.ops.len() as u64).max(1);
        self.made.clear();
        self.spans.clear();
        self.spans
            .resize(range.end.saturating_sub(range.start) as usize, 0..0);
        // (Vectors `first`, `first + ops`, ... have the opcode of `first`.)
        for first in range.start..range.end.min(range.start.saturating_add(ops)) {
            let mut i = first;
            while i < range.end {
                let a = self.made.len();
                if self.w.line(cfg, i, &mut self.made, &mut rejected) {
                    written += 1;
                } else {
                    skipped += 1;
                }
                if let Some(s) = self.spans.get_mut((i - range.start) as usize) {
                    *s = a..self.made.len();
                }
                i = i.saturating_add(ops);
            }
        }
        let made = self.made.as_bytes();
        for s in &self.spans {
            lines.extend(made.get(s.clone()).unwrap_or_default());
        }
        Piece {
            lines,
            written,
            skipped,
            rejected,
        }
    }
}

/// A worker thread: take tasks in order until none is left; make each piece once the window
/// allows.
fn work(cfg: &GenConfig, plan: &Plan, window: u64, pipe: &Pipe, next_task: &AtomicU64) {
    // (Tells the calling thread when the worker unwinds, so that it does not wait for ever.)
    let _alive = OnUnwind(pipe, |p: &Pipe| {
        p.lock().lost = true;
        p.finished.notify_all();
    });
    let mut m = Maker::new(cfg);
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
            let lines = {
                let mut g = pipe.lock();
                while !g.stop && id >= g.next.saturating_add(window) {
                    g = pipe.advanced.wait(g).unwrap_or_else(|e| e.into_inner());
                }
                if g.stop {
                    return;
                }
                g.free.pop().unwrap_or_default()
            };
            let piece = m.piece(cfg, range, lines);
            let mut g = pipe.lock();
            g.done.insert(id, piece);
            if g.next == id {
                pipe.finished.notify_one();
            }
        }
    }
}

/// The calling thread: write the finished pieces in id order, and between them make the
/// pieces of a task whenever one is left within the window (else wait for the next piece).
fn lead(
    cfg: &GenConfig,
    window: u64,
    next_task: &AtomicU64,
    wr: &mut Writer<'_>,
) -> std::io::Result<()> {
    // (Releases the workers waiting on the window when the calling thread unwinds.)
    let _release = OnUnwind(wr.pipe, |p: &Pipe| {
        p.lock().stop = true;
        p.advanced.notify_all();
    });
    let plan = wr.plan;
    let mut m: Option<Maker> = None;
    loop {
        wr.write_ready()?;
        if wr.next >= plan.end_id() {
            return Ok(());
        }
        match take_task(plan, next_task, wr.next.saturating_add(window)) {
            Some(t) => {
                let m = m.get_or_insert_with(|| Maker::new(cfg));
                for k in 0..plan.per_task {
                    let range = plan.piece(t, k);
                    if range.is_empty() {
                        break;
                    }
                    let lines = wr.pipe.lock().free.pop().unwrap_or_default();
                    let piece = m.piece(cfg, range, lines);
                    wr.pipe.lock().done.insert(t * plan.per_task + k, piece);
                    wr.write_ready()?;
                }
            }
            None => wr.wait_next()?,
        }
    }
}

/// The next task, if its pieces end below `limit` (the window's end); None: every task is
/// taken, or the next one would run ahead of the window.
fn take_task(plan: &Plan, next_task: &AtomicU64, limit: u64) -> Option<u64> {
    let mut t = next_task.load(Ordering::Relaxed);
    loop {
        if t >= plan.tasks() || (t + 1).saturating_mul(plan.per_task) > limit {
            return None;
        }
        match next_task.compare_exchange_weak(t, t + 1, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return Some(t),
            Err(now) => t = now,
        }
    }
}

/// Writes the pieces in id order (on the calling thread).
struct Writer<'a> {
    plan: &'a Plan,
    pipe: &'a Pipe,
    out: &'a mut dyn Write,
    on_piece: &'a mut dyn FnMut(u64, u64, &[u8]),
    stats: &'a mut GenStats,
    /// The id of the next piece to write.
    next: u64,
}

impl Writer<'_> {
    /// Write every finished piece from `next` on, in order, up to the first one not finished.
    fn write_ready(&mut self) -> std::io::Result<()> {
        while self.next < self.plan.end_id() {
            let id = self.next;
            let range = self.plan.piece_by_id(id);
            let piece = if range.is_empty() {
                None
            } else {
                let mut g = self.pipe.lock();
                if g.lost {
                    return Err(lost());
                }
                match g.done.remove(&id) {
                    Some(p) => Some(p),
                    None => return Ok(()),
                }
            };
            if let Some(p) = &piece {
                self.out.write_all(p.lines.as_bytes())?;
                self.stats.written += p.written;
                self.stats.skipped += p.skipped;
                self.stats.rejected += p.rejected;
                (self.on_piece)(range.start, range.end - range.start, p.lines.as_bytes());
            }
            self.next = id + 1;
            let mut g = self.pipe.lock();
            g.next = id + 1;
            if let Some(p) = piece {
                g.free.push(p.lines);
            }
            drop(g);
            self.pipe.advanced.notify_all();
        }
        Ok(())
    }

    /// Wait until piece `next` is finished (by a worker thread).
    fn wait_next(&mut self) -> std::io::Result<()> {
        let mut g = self.pipe.lock();
        while !g.done.contains_key(&self.next) {
            if g.lost {
                return Err(lost());
            }
            g = self
                .pipe
                .finished
                .wait(g)
                .unwrap_or_else(|e| e.into_inner());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pieces of a plan cover its range once, in id order, each within one task (tasks
    /// aligned to multiples of the task length from index 0) and at most [`PIECE`] long, for
    /// task lengths that are and are not multiples of the piece, and runs that start at 0 or
    /// anywhere else (shards), empty ones included.
    #[test]
    fn pieces_cover_the_run_in_order() {
        for task in [1, 16, 127, 128, 129, 512, 960, 1000] {
            for count in [0, 1, 5, 127, 128, 129, 959, 960, 961, 5000] {
                for start in [0, 1, 127, 128, 959, 961, 2500, count] {
                    let start = start.min(count);
                    let plan = Plan::new(start..count, task);
                    let mut at = start;
                    for id in 0..plan.end_id() {
                        let r = plan.piece_by_id(id);
                        if r.is_empty() {
                            continue;
                        }
                        let what = format!("task {task} {start}..{count} id {id}");
                        assert_eq!(r.start, at, "{what}");
                        assert!(r.end - r.start <= PIECE, "{what}");
                        assert_eq!(r.start / task, (r.end - 1) / task, "one task: {what}");
                        assert_eq!(id / plan.per_task, r.start / task - start / task, "{what}");
                        at = r.end;
                    }
                    assert_eq!(at, count, "task {task} {start}..{count}");
                }
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
        run(&cfg, 0..count, count, 1, &mut reference, &mut |_, _, _| {}).unwrap();
        assert_eq!(reference.iter().filter(|b| **b == b'\n').count(), 700);
        for (task, workers) in [(48, 1), (48, 2), (48, 7), (1, 3), (400, 2), (2000, 4)] {
            let mut out = Vec::new();
            let mut seen = Vec::new();
            let mut at = 0;
            let stats = run(
                &cfg,
                0..count,
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

    /// A run of vectors `start..end` writes exactly the lines of those indices in a run from 0
    /// (any start within or between tasks and opcode cycles, any workers), and `on_piece`
    /// sees consecutive ranges from `start`; consecutive runs concatenated are the whole run.
    #[test]
    fn a_run_from_any_start_is_a_slice_of_the_run_from_zero() {
        let cfg = small_cfg();
        let count = 900;
        let mut whole = Vec::new();
        run(&cfg, 0..count, 48, 2, &mut whole, &mut |_, _, _| {}).unwrap();
        let lines: Vec<&[u8]> = whole.split_inclusive(|b| *b == b'\n').collect();
        assert_eq!(lines.len(), count as usize);
        for (start, end, task, workers) in [
            (0, 0, 48, 2),
            (5, 5, 48, 2),
            (1, 2, 48, 1),
            (47, 49, 48, 3),
            (300, 900, 48, 2),
            (301, 777, 1000, 2),
            (13, 890, 7, 4),
        ] {
            let mut out = Vec::new();
            let mut at = start;
            let stats = run(
                &cfg,
                start..end,
                task,
                workers,
                &mut out,
                &mut |first, n, _| {
                    assert_eq!(first, at, "{start}..{end}");
                    at += n;
                },
            )
            .unwrap();
            assert_eq!(at, end);
            assert_eq!(stats.written, end - start);
            assert!(
                out == lines[start as usize..end as usize].concat(),
                "{start}..{end} task {task} workers {workers}"
            );
        }
        let mut joined = Vec::new();
        for r in [0..250, 250..251, 251..600, 600..900] {
            run(&cfg, r, 48, 2, &mut joined, &mut |_, _, _| {}).unwrap();
        }
        assert!(joined == whole);
    }

    /// A piece made opcode by opcode holds each vector's line in index order, as lines made
    /// one after the other in index order do (ranges shorter and longer than the opcode
    /// cycle, starting anywhere in it; a maker reused from piece to piece).
    #[test]
    fn a_piece_made_by_opcode_is_in_index_order() {
        for cfg in [small_cfg(), GenConfig::new(crate::spec::Platform::Bdw, 9)] {
            let mut m = Maker::new(&cfg);
            for range in [5..6, 7..29, 40..300, 301..400] {
                let mut w = Work::new(&cfg);
                let (mut expected, mut rejected) = (Lines::default(), 0);
                for i in range.clone() {
                    assert!(w.line(&cfg, i, &mut expected, &mut rejected));
                }
                let piece = m.piece(&cfg, range.clone(), Lines::default());
                assert_eq!(piece.written, range.end - range.start);
                assert_eq!(piece.skipped, 0);
                assert!(piece.lines.as_bytes() == expected.as_bytes(), "{range:?}");
            }
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
        let e = run(
            &cfg,
            0..5000,
            48,
            2,
            &mut Failing(20_000),
            &mut |_, _, _| {},
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "disk full");
    }

    /// The calling thread takes the tasks in order, each only when all its pieces end within
    /// the limit, and none once every task is taken.
    #[test]
    fn tasks_are_taken_in_order_within_the_window() {
        // (Tasks of one and a half pieces: two pieces each.)
        let task = PIECE + PIECE / 2;
        let plan = Plan::new(0..5 * task, task);
        let per = plan.per_task;
        assert_eq!(per, 2);
        let next = AtomicU64::new(0);
        // Task 0 ends at piece 2: not below a limit of 1.
        assert_eq!(take_task(&plan, &next, 1), None);
        assert_eq!(take_task(&plan, &next, 2), Some(0));
        assert_eq!(take_task(&plan, &next, 2), None);
        assert_eq!(
            next.load(Ordering::Relaxed),
            1,
            "a refused task is not taken"
        );
        assert_eq!(take_task(&plan, &next, 100), Some(1));
        next.store(4, Ordering::Relaxed);
        assert_eq!(take_task(&plan, &next, 5 * per), Some(4));
        assert_eq!(take_task(&plan, &next, u64::MAX), None, "every task taken");
    }

    /// The window lets every worker finish a whole task ahead of the oldest unwritten piece.
    #[test]
    fn window_covers_a_task_per_worker() {
        let plan = Plan::new(0..10_000, 960);
        assert_eq!(plan.per_task, 960u64.div_ceil(PIECE));
        for workers in 1..5 {
            assert!(window(&plan, workers) >= (workers + 1) * plan.per_task);
        }
    }
}
