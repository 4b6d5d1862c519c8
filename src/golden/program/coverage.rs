//! Control-flow coverage of program vectors (`euref golden --programs --coverage`), gathered
//! from the runner's steps while the vectors are built: how deep the channels diverge, how
//! many dispatched channels are off at each kind of branch, how many times each channel runs
//! each loop, and which instructions and messages run under partial masks.
//!
//! Definitions (conformance/README.md "Program vectors", coverage):
//! - a step is under a partial mask when some, not all, of the dispatched channels (`dmask`)
//!   are among its enabled channels (`Step.enabled`); a step with none is counted apart;
//! - divergence depth: a stack of channel sets starts as the dispatch mask; each step with
//!   enabled channels `e` (within `dmask`) pops the sets `e` is not within, then pushes `e`
//!   when it is fewer channels than the top: the depth of the step is the number of sets
//!   pushed (0: all dispatched channels run). So an if taken by some channels is depth 1, an
//!   if within it taken by fewer depth 2, and the other side of an else depth 1 again;
//! - a loop is a `while` that jumped back (to its target `T`); an entry of the loop is a step
//!   at `T` whose previous step is not that `while`; a channel's trip count in an entry is the
//!   number of steps at `T` it is enabled in until the next entry;
//! - a message is a `send` without end of thread.

use crate::spec::{OpClass, Opcode};
use std::collections::BTreeMap;
use std::fmt::Write;

/// One executed step as coverage sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepRecord {
    pub ip: u32,
    /// `Step.enabled`.
    pub enabled: u32,
    pub op: Opcode,
    /// A send with end of thread.
    pub eot: bool,
    /// The IP after the step.
    pub next_ip: u32,
}

/// Control-flow coverage of a set of program vectors; [`ProgramCoverage::merge`] adds two
/// (every field is a sum or a count map, so the merged result does not depend on the order).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProgramCoverage {
    pub programs: u64,
    /// Steps executed.
    pub steps: u64,
    /// Steps with no dispatched channel enabled.
    pub steps_no_channel: u64,
    /// Steps under a partial mask.
    pub steps_partial: u64,
    /// Steps by divergence depth (steps with a channel enabled).
    pub depth_steps: BTreeMap<u32, u64>,
    /// Programs by the deepest divergence they reach.
    pub depth_programs: BTreeMap<u32, u64>,
    /// Per branch opcode name: executions by the number of dispatched channels off.
    pub branch_off: BTreeMap<&'static str, BTreeMap<u32, u64>>,
    /// Loop trip counts: (entry, channel) pairs by the channel's trip count.
    pub trips: BTreeMap<u32, u64>,
    /// Loop entries.
    pub loop_entries: u64,
    /// Loop entries whose channels ran different trip counts.
    pub loop_entries_diverged: u64,
    /// Messages (sends without end of thread).
    pub messages: u64,
    /// Messages under a partial mask.
    pub messages_partial: u64,
    /// Messages with no dispatched channel enabled.
    pub messages_no_channel: u64,
}

impl ProgramCoverage {
    /// Add the steps of one program dispatched with `dmask`.
    pub fn add_program(&mut self, dmask: u32, steps: &[StepRecord]) {
        self.programs += 1;
        let mut stack: Vec<u32> = vec![dmask];
        let mut deepest = 0u32;
        for s in steps {
            self.steps += 1;
            let e = s.enabled & dmask;
            let partial = e != 0 && e != dmask;
            if e == 0 {
                self.steps_no_channel += 1;
            } else {
                if partial {
                    self.steps_partial += 1;
                }
                while stack.len() > 1 && stack.last().is_some_and(|&top| e & !top != 0) {
                    stack.pop();
                }
                if stack.last().is_some_and(|&top| e != top) {
                    stack.push(e);
                }
                let d = (stack.len() - 1) as u32;
                deepest = deepest.max(d);
                *self.depth_steps.entry(d).or_default() += 1;
            }
            let info = s.op.info();
            if info.class == OpClass::Flow {
                let off = (dmask & !e).count_ones();
                *self
                    .branch_off
                    .entry(info.name)
                    .or_default()
                    .entry(off)
                    .or_default() += 1;
            }
            if info.class == OpClass::Send && !s.eot {
                self.messages += 1;
                if partial {
                    self.messages_partial += 1;
                } else if e == 0 {
                    self.messages_no_channel += 1;
                }
            }
        }
        *self.depth_programs.entry(deepest).or_default() += 1;
        self.add_loops(dmask, steps);
    }

    /// Trip counts of every entry of every loop (module docs).
    fn add_loops(&mut self, dmask: u32, steps: &[StepRecord]) {
        // Back edges: while at W jumped to T < W.
        let mut loops: BTreeMap<u32, u32> = BTreeMap::new();
        for s in steps {
            if s.op == Opcode::While && s.next_ip < s.ip {
                loops.insert(s.next_ip, s.ip);
            }
        }
        for (&top, &back) in &loops {
            let mut counts: Option<[u32; 32]> = None;
            let mut prev: Option<u32> = None;
            for s in steps {
                if s.ip == top {
                    if prev != Some(back) {
                        if let Some(c) = counts.take() {
                            self.close_entry(&c);
                        }
                        counts = Some([0; 32]);
                    }
                    if let Some(c) = counts.as_mut() {
                        for (ch, n) in c.iter_mut().enumerate() {
                            if (s.enabled & dmask) >> ch & 1 == 1 {
                                *n += 1;
                            }
                        }
                    }
                }
                prev = Some(s.ip);
            }
            if let Some(c) = counts {
                self.close_entry(&c);
            }
        }
    }

    fn close_entry(&mut self, counts: &[u32; 32]) {
        let ran: Vec<u32> = counts.iter().copied().filter(|&n| n > 0).collect();
        if ran.is_empty() {
            return;
        }
        self.loop_entries += 1;
        if ran.windows(2).any(|w| w[0] != w[1]) {
            self.loop_entries_diverged += 1;
        }
        for n in ran {
            *self.trips.entry(n).or_default() += 1;
        }
    }

    /// Add `other` (coverage of other programs).
    pub fn merge(&mut self, other: &ProgramCoverage) {
        self.programs += other.programs;
        self.steps += other.steps;
        self.steps_no_channel += other.steps_no_channel;
        self.steps_partial += other.steps_partial;
        add_map(&mut self.depth_steps, &other.depth_steps);
        add_map(&mut self.depth_programs, &other.depth_programs);
        for (k, m) in &other.branch_off {
            add_map(self.branch_off.entry(k).or_default(), m);
        }
        add_map(&mut self.trips, &other.trips);
        self.loop_entries += other.loop_entries;
        self.loop_entries_diverged += other.loop_entries_diverged;
        self.messages += other.messages;
        self.messages_partial += other.messages_partial;
        self.messages_no_channel += other.messages_no_channel;
    }

    /// A text report, one line per category as the single-instruction `--coverage` report.
    pub fn report(&self, platform: &str) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "control-flow coverage of {} program vectors ({platform}):",
            self.programs
        );
        let _ = writeln!(
            s,
            "  {:<32} {} executed, {} under partial masks, {} with no channel",
            "instructions", self.steps, self.steps_partial, self.steps_no_channel
        );
        let _ = writeln!(
            s,
            "  {:<32} {} executed, {} under partial masks, {} with no channel",
            "messages", self.messages, self.messages_partial, self.messages_no_channel
        );
        let _ = writeln!(
            s,
            "  {:<32} steps by depth: {}",
            "divergence depth",
            counts(&self.depth_steps)
        );
        let _ = writeln!(
            s,
            "  {:<32} programs by deepest: {}",
            "",
            counts(&self.depth_programs)
        );
        let _ = writeln!(s, "  channels off at each branch:");
        for (op, m) in &self.branch_off {
            let total: u64 = m.values().sum();
            let _ = writeln!(
                s,
                "      {op:<8} {total} executed; by channels off: {}",
                counts(m)
            );
        }
        let _ = writeln!(
            s,
            "  {:<32} {} entries, {} with different trip counts per channel; (entry, channel) \
             by trips: {}",
            "loop trips",
            self.loop_entries,
            self.loop_entries_diverged,
            counts(&self.trips)
        );
        s
    }
}

fn add_map<K: Ord + Copy>(to: &mut BTreeMap<K, u64>, from: &BTreeMap<K, u64>) {
    for (k, v) in from {
        *to.entry(*k).or_default() += v;
    }
}

/// `k:n k:n ...` (`none` when empty).
fn counts(m: &BTreeMap<u32, u64>) -> String {
    if m.is_empty() {
        return "none".into();
    }
    let v: Vec<String> = m.iter().map(|(k, n)| format!("{k}:{n}")).collect();
    v.join(" ")
}
