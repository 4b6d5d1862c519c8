//! `euref check --shrink OUT` (conformance/README.md "Shrinking"): a program vector that
//! fails on the simulator is reduced by delta debugging to a small program vector that still
//! fails on it the same way, and written as a new vector (`<id>-shrunk`).
//!
//! A candidate is the vector's IGA lines (labels included) and its start (dispatch mask,
//! initial registers, surface). It is kept when it is a program vector at all (it assembles,
//! every instruction passes `validate::check_insn`, and euref runs it to its end of thread
//! within `max_steps`: `golden::program::vector::build` makes its vector and expectation)
//! and the simulator's outcome on that vector has the status the original had (`fail`,
//! `sim_error` or `incomplete`). Reductions, in this order in every round, rounds repeated
//! until one changes nothing:
//!
//! 1. remove lines, ddmin style: the removable units (each instruction that is no block
//!    bracket; each whole if/else/endif, its then or else side alone, an if without else
//!    unwrapped; a loop from its top label to its `while`; a goto with its join, or just the
//!    two; a call with its subroutine) in chunks of half the units, then halving the chunk
//!    size down to one; labels nothing refers to any more are dropped with them;
//! 2. narrow execution sizes of instructions that are no branch (SIMD16 -> 8 -> 4 -> 2 -> 1,
//!    `<N;N,1>` regions narrowed with them, `<0;1,0>` for one channel, when the validator
//!    wants it);
//! 3. shrink the dispatch mask (one channel, else one channel less at a time);
//! 4. simplify initial registers (drop one, else zero it, else keep each dword's low byte,
//!    else zero its dwords one by one);
//! 5. simplify the surface (drop it, else zero it, else zero its 16-byte pieces one by one).
//!
//! The end-of-thread sequence (the `{EOT}` send and the instruction before it that writes its
//! payload) is never removed; the SLM is kept as it is. Vectors of several threads are not
//! shrunk (a reduction could make the threads race). The work is bounded: at most [`MAX_REQUESTS`] simulator
//! requests and [`MAX_CANDIDATES`] candidates run on euref per vector.

use super::compare::Outcome;
use super::program_check::{judge_vector, ProgramCheckOptions, Sim};
use super::regs;
use crate::golden::program::templates::BTI;
use crate::golden::program::vector::{self, ProgramVector, Setup, SURFACE_BASE};
use crate::spec::Platform;
use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::hash::{Hash, Hasher};
use std::io::{BufRead, Write};

/// Simulator requests per shrunk vector at most.
pub const MAX_REQUESTS: u32 = 2000;

/// Candidates run on euref per shrunk vector at most (most never reach the simulator).
pub const MAX_CANDIDATES: u32 = 20_000;

/// The statuses of vectors that are shrunk (those that are localized).
pub const SHRUNK_STATUSES: [&str; 3] = ["fail", "sim_error", "incomplete"];

/// What a program starts from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Start {
    dmask: u32,
    initial: BTreeMap<String, Vec<Option<u8>>>,
    surface: Option<Vec<Option<u8>>>,
    /// The shared local memory, kept as it is (the program's SLM messages need it).
    slm: Option<Vec<Option<u8>>>,
}

impl Start {
    fn of_vector(v: &ProgramVector) -> Result<Start, String> {
        if v.threads > 1 {
            // Dropping an instruction (the add of a thread's base, the barrier) can let the
            // threads race: the vector would then assert one schedule's result.
            return Err(format!(
                "it runs {} threads; vectors of several threads are not shrunk (a reduction \
                 could make the threads race, and the result depend on the schedule)",
                v.threads
            ));
        }
        let mut initial = BTreeMap::new();
        for (name, hex) in &v.initial {
            initial.insert(
                name.clone(),
                regs::parse_hex(hex).map_err(|e| format!("initial.{name}: {e}"))?,
            );
        }
        let surface = match &v.surface {
            None => None,
            Some(s) if s.bti != BTI || s.base != SURFACE_BASE => {
                return Err(format!(
                    "its surface is at BTI {} base {:#x}; shrunk vectors place it at BTI {BTI} \
                     base {SURFACE_BASE:#x}, as generated vectors do",
                    s.bti, s.base
                ))
            }
            Some(s) => Some(regs::parse_hex(&s.bytes).map_err(|e| format!("surface.bytes: {e}"))?),
        };
        let slm = match &v.slm {
            None => None,
            Some(m) => Some(regs::parse_hex(&m.bytes).map_err(|e| format!("slm.bytes: {e}"))?),
        };
        Ok(Start {
            dmask: v.dmask,
            initial,
            surface,
            slm,
        })
    }

    fn setup(&self, p: Platform) -> Result<Setup, String> {
        let mut s = Setup::new(p, self.dmask)?;
        for (name, b) in &self.initial {
            regs::write(&mut s.state, name, b)?;
        }
        s.surface = self.surface.clone();
        s.slm = self.slm.clone();
        Ok(s)
    }
}

/// A line of a program's text as the reducer sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Label,
    If,
    Else,
    Endif,
    While,
    Goto,
    Join,
    Call,
    Ret,
    /// An instruction that branches alone (break, cont, halt, jmpi): removable alone, not
    /// narrowed.
    Branch,
    Other,
}

fn is_label(line: &str) -> bool {
    let t = line.trim();
    t.ends_with(':') && !t.contains(char::is_whitespace)
}

/// The words of an instruction line after its predicate (`(f0.1)`, `(W)`).
fn words(line: &str) -> Vec<&str> {
    let mut rest = line.trim();
    if rest.starts_with('(') {
        if let Some(e) = rest.find(')') {
            rest = &rest[e + 1..];
        }
    }
    rest.split_whitespace().collect()
}

fn kind(line: &str) -> Kind {
    if is_label(line) {
        return Kind::Label;
    }
    let w = words(line);
    let op = w.first().map_or("", |m| m.split('.').next().unwrap_or(""));
    match op {
        "if" => Kind::If,
        "else" => Kind::Else,
        "endif" => Kind::Endif,
        "while" => Kind::While,
        "goto" => Kind::Goto,
        "join" => Kind::Join,
        "call" | "calla" => Kind::Call,
        "ret" => Kind::Ret,
        "break" | "cont" | "halt" | "jmpi" | "brc" | "brd" => Kind::Branch,
        _ => Kind::Other,
    }
}

/// The labels `line` names (its words that are labels defined in the program).
fn refs<'a>(line: &'a str, defined: &HashSet<&str>) -> Vec<&'a str> {
    line.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| defined.contains(w))
        .collect()
}

fn defined_labels(lines: &[String]) -> HashSet<&str> {
    lines
        .iter()
        .filter(|l| is_label(l))
        .map(|l| l.trim().trim_end_matches(':'))
        .collect()
}

/// The lines without the labels no instruction names.
fn prune_labels(lines: Vec<String>) -> Vec<String> {
    let defined = defined_labels(&lines);
    let named: HashSet<String> = lines
        .iter()
        .filter(|l| !is_label(l))
        .flat_map(|l| refs(l, &defined))
        .map(String::from)
        .collect();
    lines
        .into_iter()
        .filter(|l| !is_label(l) || named.contains(l.trim().trim_end_matches(':')))
        .collect()
}

/// The number of instructions (lines that are no labels).
pub fn instructions(lines: &[String]) -> usize {
    lines
        .iter()
        .filter(|l| !is_label(l) && !l.trim().is_empty())
        .count()
}

/// The lines of the end-of-thread sequence: every send with `EOT` and the instruction just
/// before it when that writes the send's payload register.
fn kept_lines(lines: &[String]) -> BTreeSet<usize> {
    let mut keep = BTreeSet::new();
    for (i, l) in lines.iter().enumerate() {
        let w = words(l);
        if !(w.first().is_some_and(|m| m.starts_with("send")) && l.contains("EOT")) {
            continue;
        }
        keep.insert(i);
        let Some(payload) = w.get(3) else { continue };
        let before = (0..i).rev().find(|&j| !is_label(&lines[j]));
        if let Some(j) = before {
            let wj = words(&lines[j]);
            let dst = wj
                .iter()
                .find(|x| x.starts_with('r') || x.starts_with("null"));
            if dst.is_some_and(|d| d.split('.').next() == Some(payload)) {
                keep.insert(j);
            }
        }
    }
    keep
}

/// The sets of lines the reducer may remove from `lines`, in the order of their first line
/// (a structure before what it holds): each keeps the program's blocks whole.
fn removal_units(lines: &[String]) -> Vec<BTreeSet<usize>> {
    let kinds: Vec<Kind> = lines.iter().map(|l| kind(l)).collect();
    let defined = defined_labels(lines);
    let label_at = |name: &str| {
        lines
            .iter()
            .position(|l| is_label(l) && l.trim().trim_end_matches(':') == name)
    };
    let keep = kept_lines(lines);
    let mut units: Vec<BTreeSet<usize>> = Vec::new();
    let first_after = |from: usize, k: Kind| (from + 1..lines.len()).find(|&j| kinds[j] == k);
    for (i, k) in kinds.iter().enumerate() {
        match k {
            Kind::If => {
                let (mut depth, mut else_at, mut end) = (0usize, None, None);
                for (j, kj) in kinds.iter().enumerate().skip(i + 1) {
                    match kj {
                        Kind::If => depth += 1,
                        Kind::Endif if depth == 0 => {
                            end = Some(j);
                            break;
                        }
                        Kind::Endif => depth -= 1,
                        Kind::Else if depth == 0 => else_at = Some(j),
                        _ => {}
                    }
                }
                let Some(end) = end else { continue };
                units.push((i..=end).collect());
                match else_at {
                    Some(e) => {
                        units.push(std::iter::once(i).chain(e..=end).collect());
                        units.push((i..=e).chain(std::iter::once(end)).collect());
                    }
                    None => units.push([i, end].into_iter().collect()),
                }
            }
            Kind::While => {
                let top = refs(&lines[i], &defined)
                    .into_iter()
                    .filter_map(label_at)
                    .find(|&d| d < i);
                if let Some(d) = top {
                    units.push((d..=i).collect());
                }
            }
            Kind::Goto => {
                let target = refs(&lines[i], &defined)
                    .into_iter()
                    .filter_map(label_at)
                    .find(|&d| d > i);
                if let Some(join) = target.and_then(|d| first_after(d, Kind::Join)) {
                    units.push((i..=join).collect());
                    units.push([i, join].into_iter().collect());
                }
            }
            Kind::Call => {
                let sub = refs(&lines[i], &defined).into_iter().find_map(label_at);
                if let Some((d, ret)) = sub.and_then(|d| Some((d, first_after(d, Kind::Ret)?))) {
                    units.push(std::iter::once(i).chain(d..=ret).collect());
                }
            }
            Kind::Ret => {
                // A subroutine no call names any more (its call went with a block that held
                // it): from the end of thread or the ret before it to this ret.
                let Some(from) = (0..i)
                    .rev()
                    .find(|&j| keep.contains(&j) || kinds[j] == Kind::Ret)
                    .map(|j| j + 1)
                else {
                    continue;
                };
                let called = (from..i).any(|j| {
                    is_label(&lines[j]) && {
                        let name = lines[j].trim().trim_end_matches(':');
                        lines.iter().enumerate().any(|(c, l)| {
                            kinds[c] == Kind::Call && refs(l, &defined).contains(&name)
                        })
                    }
                });
                if !called {
                    units.push((from..=i).collect());
                }
            }
            Kind::Branch | Kind::Other => units.push(std::iter::once(i).collect()),
            Kind::Label | Kind::Else | Kind::Endif | Kind::Join => {}
        }
    }
    units.retain(|u| u.is_disjoint(&keep));
    units.sort_by_key(|u| u.first().copied());
    units
}

/// `lines` without the lines of `drop`, and without the labels then named by nothing.
fn without(lines: &[String], drop: &BTreeSet<usize>) -> Vec<String> {
    let kept = lines
        .iter()
        .enumerate()
        .filter(|(i, _)| !drop.contains(i))
        .map(|(_, l)| l.clone())
        .collect();
    prune_labels(kept)
}

/// `line` with its execution size halved: as it is, then with its `<N;N,1>` regions halved
/// too (none: no execution size, or 1).
fn narrowed(line: &str) -> Vec<String> {
    let Some(bar) = line.find("|M") else {
        return Vec::new();
    };
    let Some(open) = line[..bar].rfind('(') else {
        return Vec::new();
    };
    let Ok(n) = line[open + 1..bar].parse::<u32>() else {
        return Vec::new();
    };
    if n < 2 {
        return Vec::new();
    }
    let h = n / 2;
    let a = format!("{}({h}{}", &line[..open], &line[bar..]);
    // (A scalar region for one channel.)
    let region = if h == 1 {
        "<0;1,0>".to_string()
    } else {
        format!("<{h};{h},1>")
    };
    let b = a.replace(&format!("<{n};{n},1>"), &region);
    if b == a {
        vec![a]
    } else {
        vec![a, b]
    }
}

/// What became of a candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tried {
    /// It fails the same way: it is the new best.
    Kept,
    /// It was sent and did not fail the same way.
    Sent,
    /// Not a program vector (does not assemble, validate or run on euref), already tried, or
    /// the bounds are reached: never sent.
    Refused,
}

/// A shrunk vector.
#[derive(Debug, Clone)]
pub struct Shrunk {
    pub vector: ProgramVector,
    /// Instructions before and after.
    pub from: usize,
    pub to: usize,
    /// Simulator requests sent.
    pub requests: u32,
    /// Whether a bound ([`MAX_REQUESTS`], [`MAX_CANDIDATES`]) stopped the reduction.
    pub bounded: bool,
}

impl Shrunk {
    /// The vector's line, with `shrunk_from` (the original id) as its last key.
    pub fn line(&self, original: &str) -> String {
        let mut l = self.vector.to_line();
        if l.ends_with('}') {
            l.pop();
            let id = serde_json::to_string(original).unwrap_or_default();
            l.push_str(&format!(",\"shrunk_from\":{id}}}"));
        }
        l
    }

    /// The line printed for it.
    pub fn summary(&self, original: &str) -> String {
        format!(
            "{original}: {} -> {} instructions, {} requests{}",
            self.from,
            self.to,
            self.requests,
            if self.bounded {
                " (stopped at the bound)"
            } else {
                ""
            }
        )
    }
}

/// The reduction of one vector.
struct Reducer<'s, 'o> {
    sim: &'s mut Sim<'o>,
    p: Platform,
    id: String,
    /// The status a candidate must have on the simulator.
    class: &'static str,
    lines: Vec<String>,
    start: Start,
    best: ProgramVector,
    tried: HashSet<u64>,
    requests: u32,
    candidates: u32,
    bounded: bool,
}

fn key(lines: &[String], start: &Start) -> u64 {
    let mut h = DefaultHasher::new();
    lines.hash(&mut h);
    start.hash(&mut h);
    h.finish()
}

/// Whether `lines` assemble and every instruction passes the validator.
fn valid(p: Platform, lines: &[String]) -> bool {
    let text = lines.join("\n") + "\n";
    match crate::asm::parse(text.as_bytes(), Some(crate::asm::Dialect::Iga), p) {
        Ok(prog) => prog
            .insns
            .iter()
            .all(|i| crate::validate::check_insn(p, i).is_empty()),
        Err(_) => false,
    }
}

impl Reducer<'_, '_> {
    /// Try `lines` from `start`; kept when it still fails the same way.
    fn attempt(&mut self, lines: Vec<String>, start: Start) -> Result<Tried, String> {
        if self.requests >= MAX_REQUESTS || self.candidates >= MAX_CANDIDATES {
            self.bounded = true;
            return Ok(Tried::Refused);
        }
        let lines = prune_labels(lines);
        if !self.tried.insert(key(&lines, &start)) {
            return Ok(Tried::Refused);
        }
        self.candidates += 1;
        if !valid(self.p, &lines) {
            return Ok(Tried::Refused);
        }
        let Ok(setup) = start.setup(self.p) else {
            return Ok(Tried::Refused);
        };
        let Ok(v) = vector::build(self.p, self.id.clone(), lines.clone(), setup) else {
            return Ok(Tried::Refused);
        };
        self.requests += 1;
        let o: Outcome = judge_vector(self.sim, &v)?;
        if o.status() != self.class {
            return Ok(Tried::Sent);
        }
        self.lines = lines;
        self.start = start;
        self.best = v;
        Ok(Tried::Kept)
    }

    fn kept(&mut self, lines: Vec<String>, start: Start) -> Result<bool, String> {
        Ok(self.attempt(lines, start)? == Tried::Kept)
    }

    /// ddmin over the removal units: chunks of half of them, then halving.
    fn remove_lines(&mut self) -> Result<bool, String> {
        let mut changed = false;
        let mut size = (removal_units(&self.lines).len() / 2).max(1);
        loop {
            let mut i = 0;
            loop {
                let units = removal_units(&self.lines);
                if i >= units.len() || self.bounded {
                    break;
                }
                let drop: BTreeSet<usize> = units[i..(i + size).min(units.len())]
                    .iter()
                    .flatten()
                    .copied()
                    .collect();
                let cand = without(&self.lines, &drop);
                if self.kept(cand, self.start.clone())? {
                    changed = true;
                } else {
                    i += size;
                }
            }
            if size == 1 || self.bounded {
                return Ok(changed);
            }
            size /= 2;
        }
    }

    /// Narrow the execution size of each instruction that is no branch, as far as it goes.
    fn narrow(&mut self) -> Result<bool, String> {
        let mut changed = false;
        let keep = kept_lines(&self.lines);
        for i in 0..self.lines.len() {
            if i >= self.lines.len() || self.bounded {
                break;
            }
            if keep.contains(&i) || kind(&self.lines[i]) != Kind::Other {
                continue;
            }
            'line: loop {
                for alt in narrowed(&self.lines[i]) {
                    let mut cand = self.lines.clone();
                    cand[i] = alt;
                    match self.attempt(cand, self.start.clone())? {
                        Tried::Kept => {
                            changed = true;
                            // (Labels are not pruned here: the lines stay where they were.)
                            continue 'line;
                        }
                        Tried::Sent => break 'line,
                        Tried::Refused => {}
                    }
                }
                break;
            }
        }
        Ok(changed)
    }

    /// One channel dispatched, else one channel less at a time.
    fn shrink_dmask(&mut self) -> Result<bool, String> {
        let with = |s: &Start, dmask: u32| Start { dmask, ..s.clone() };
        let bits: Vec<u32> = (0..32).filter(|b| self.start.dmask >> b & 1 != 0).collect();
        if bits.len() < 2 {
            return Ok(false);
        }
        for &b in &bits {
            if self.kept(self.lines.clone(), with(&self.start, 1 << b))? {
                return Ok(true);
            }
        }
        let mut changed = false;
        for &b in bits.iter().rev() {
            let m = self.start.dmask & !(1 << b);
            if m != 0 && self.kept(self.lines.clone(), with(&self.start, m))? {
                changed = true;
            }
        }
        Ok(changed)
    }

    /// Initial registers dropped, zeroed, cut to small values.
    fn simplify_registers(&mut self) -> Result<bool, String> {
        let mut changed = false;
        let names: Vec<String> = self.start.initial.keys().cloned().collect();
        for name in names {
            let Some(cur) = self.start.initial.get(&name).cloned() else {
                continue;
            };
            let set = |s: &Start, b: Option<Vec<Option<u8>>>| {
                let mut s = s.clone();
                match b {
                    Some(b) => s.initial.insert(name.clone(), b),
                    None => s.initial.remove(&name),
                };
                s
            };
            let zero: Vec<Option<u8>> = cur.iter().map(|b| b.map(|_| 0)).collect();
            let small: Vec<Option<u8>> = cur
                .iter()
                .enumerate()
                .map(|(k, b)| b.map(|b| if k % 4 == 0 { b } else { 0 }))
                .collect();
            let mut done = false;
            for alt in [None, Some(zero), Some(small)] {
                if alt.as_ref() == Some(&cur) {
                    continue;
                }
                if self.kept(self.lines.clone(), set(&self.start, alt))? {
                    changed = true;
                    done = true;
                    break;
                }
            }
            if done || cur.len() <= 4 {
                continue;
            }
            for d in 0..cur.len() / 4 {
                let Some(now) = self.start.initial.get(&name).cloned() else {
                    break;
                };
                if now[4 * d..4 * d + 4].iter().all(|b| b.unwrap_or(0) == 0) {
                    continue;
                }
                let mut alt = now.clone();
                for b in &mut alt[4 * d..4 * d + 4] {
                    *b = b.map(|_| 0);
                }
                if self.kept(self.lines.clone(), set(&self.start, Some(alt)))? {
                    changed = true;
                }
            }
            if self.bounded {
                break;
            }
        }
        Ok(changed)
    }

    /// The surface dropped, zeroed, or zeroed 16 bytes at a time.
    fn simplify_surface(&mut self) -> Result<bool, String> {
        let Some(cur) = self.start.surface.clone() else {
            return Ok(false);
        };
        let with = |s: &Start, b: Option<Vec<Option<u8>>>| Start {
            surface: b,
            ..s.clone()
        };
        for alt in [None, Some(vec![Some(0); cur.len()])] {
            if alt.as_ref() != Some(&cur)
                && self.kept(self.lines.clone(), with(&self.start, alt))?
            {
                return Ok(true);
            }
        }
        let mut changed = false;
        for piece in 0..cur.len().div_ceil(16) {
            let Some(now) = self.start.surface.clone() else {
                break;
            };
            let end = (16 * piece + 16).min(now.len());
            if now[16 * piece..end].iter().all(|b| *b == Some(0)) {
                continue;
            }
            let mut alt = now;
            alt[16 * piece..end].fill(Some(0));
            if self.kept(self.lines.clone(), with(&self.start, Some(alt)))? {
                changed = true;
            }
        }
        Ok(changed)
    }
}

/// Shrink program vector `v`, which has status `class` on the simulator. The outer error
/// stops everything (the simulator cannot start); the inner one says why `v` is not shrunk.
pub(crate) fn shrink(
    sim: &mut Sim,
    v: &ProgramVector,
    class: &'static str,
) -> Result<Result<Shrunk, String>, String> {
    let Some(p) = Platform::parse(&v.gen) else {
        return Ok(Err(format!("gen: unknown platform `{}`", v.gen)));
    };
    let start = match Start::of_vector(v) {
        Ok(s) => s,
        Err(e) => return Ok(Err(e)),
    };
    let id = format!("{}-shrunk", v.id);
    let first = match start
        .setup(p)
        .and_then(|s| vector::build(p, id.clone(), v.text.clone(), s))
    {
        Ok(b) => b,
        Err(e) => return Ok(Err(format!("euref cannot rebuild it from its text: {e}"))),
    };
    let mut r = Reducer {
        sim,
        p,
        id,
        class,
        lines: v.text.clone(),
        start,
        best: first.clone(),
        tried: HashSet::new(),
        requests: 1,
        candidates: 1,
        bounded: false,
    };
    r.tried.insert(key(&r.lines, &r.start));
    let o = judge_vector(r.sim, &first)?;
    if o.status() != class {
        return Ok(Err(format!(
            "rebuilt from its text and start, it is `{}` on the simulator, not `{class}`",
            o.status()
        )));
    }
    loop {
        let mut changed = r.remove_lines()?;
        changed |= r.narrow()?;
        changed |= r.shrink_dmask()?;
        changed |= r.simplify_registers()?;
        changed |= r.simplify_surface()?;
        if !changed || r.bounded {
            break;
        }
    }
    Ok(Ok(Shrunk {
        from: instructions(&v.text),
        to: instructions(&r.lines),
        vector: r.best,
        requests: r.requests,
        bounded: r.bounded,
    }))
}

/// Counts of a shrinking run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShrinkSummary {
    pub shrunk: u64,
    pub not_shrunk: u64,
}

/// Shrink the vectors of `input` whose status (`statuses`, one per non-empty line, as the
/// check reported them) is one of [`SHRUNK_STATUSES`], writing one line each to `out`;
/// `on_vector` gets the line printed for each (shrunk or why not).
pub fn run(
    opts: &ProgramCheckOptions,
    input: impl BufRead,
    statuses: &[&'static str],
    out: &mut dyn Write,
    mut on_vector: impl FnMut(&str),
) -> Result<ShrinkSummary, String> {
    let mut summary = ShrinkSummary::default();
    let mut sim = None;
    let lines = input
        .lines()
        .filter(|l| !l.as_ref().is_ok_and(|l| l.trim().is_empty()));
    for (n, (line, status)) in lines.zip(statuses).enumerate() {
        let line = line.map_err(|e| format!("vectors line {}: {e}", n + 1))?;
        if !SHRUNK_STATUSES.contains(status) {
            continue;
        }
        let Ok(v) = serde_json::from_str::<ProgramVector>(&line) else {
            continue;
        };
        if sim.is_none() {
            sim = Some(Sim::start(opts)?);
        }
        let Some(s) = sim.as_mut() else { continue };
        match shrink(s, &v, status)? {
            Ok(shrunk) => {
                let mut l = shrunk.line(&v.id);
                l.push('\n');
                out.write_all(l.as_bytes())
                    .map_err(|e| format!("shrunk vectors: {e}"))?;
                summary.shrunk += 1;
                on_vector(&shrunk.summary(&v.id));
            }
            Err(e) => {
                summary.not_shrunk += 1;
                on_vector(&format!("{}: not shrunk: {e}", v.id));
            }
        }
    }
    if let Some(mut s) = sim {
        s.proc.kill();
    }
    out.flush().map_err(|e| format!("shrunk vectors: {e}"))?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(t: &[&str]) -> Vec<String> {
        t.iter().map(|s| s.to_string()).collect()
    }

    /// The units of a program with an if/else, a loop, a goto and a call: every structure
    /// whole (and its sides), every instruction that is no bracket, never the end of thread.
    #[test]
    fn removal_units_keep_blocks_whole() {
        let l = lines(&[
            "cmp (8|M0) (l)f0.1 r9.0<1>:d r10.0<8;8,1>:d r11.0<8;8,1>:d", // 0
            "(f0.1) if (8|M0) ELSE1 ENDIF1",                              // 1
            "add (8|M0) r10.0<1>:d r10.0<8;8,1>:d 0x1:d",                 // 2
            "ELSEP1:",                                                    // 3
            "else (8|M0) ENDIF1 ENDIF1",                                  // 4
            "ELSE1:",                                                     // 5
            "add (8|M0) r11.0<1>:d r11.0<8;8,1>:d 0x1:d",                 // 6
            "ENDIF1:",                                                    // 7
            "endif (8|M0) NEXT2",                                         // 8
            "NEXT2:",                                                     // 9
            "LOOP3:",                                                     // 10
            "(f0.0) break (8|M0) WHILE3 WHILE3",                          // 11
            "WHILE3:",                                                    // 12
            "while (8|M0) LOOP3",                                         // 13
            "(f0.1) goto (8|M0) JOIN4 JOIN4",                             // 14
            "mov (8|M0) r12.0<1>:ud r13.0<8;8,1>:ud",                     // 15
            "JOIN4:",                                                     // 16
            "join (8|M0) NEXT5",                                          // 17
            "NEXT5:",                                                     // 18
            "call (8|M0) r25.0<1>:ud SUB6",                               // 19
            "END:",                                                       // 20
            "(W) mov (8|M0) r127.0<1>:ud 0x0:ud",                         // 21
            "send (8|M0) null r127 0x27 0x2000010 {EOT}",                 // 22
            "SUB6:",                                                      // 23
            "mov (8|M0) r14.0<1>:ud r15.0<8;8,1>:ud",                     // 24
            "ret (8|M0) r25.0<2;2,1>:ud",                                 // 25
        ]);
        let set = |v: &[usize]| v.iter().copied().collect::<BTreeSet<usize>>();
        let range = |a: usize, b: usize| (a..=b).collect::<BTreeSet<usize>>();
        let u = removal_units(&l);
        let mut want = vec![
            set(&[0]),
            range(1, 8),
            set(&[1]).union(&range(4, 8)).copied().collect(),
            range(1, 4).union(&set(&[8])).copied().collect(),
            set(&[2]),
            set(&[6]),
            range(10, 13),
            set(&[11]),
            range(14, 17),
            set(&[14, 17]),
            set(&[15]),
            set(&[19]).union(&range(23, 25)).copied().collect(),
            set(&[24]),
        ];
        let mut got = u.clone();
        got.sort();
        want.sort();
        assert_eq!(got, want);
        assert_eq!(kept_lines(&l), set(&[21, 22]));
        // Dropping the if whole leaves NEXT2 named by nothing: gone with it.
        let w = without(&l, &range(1, 8));
        assert!(!w.iter().any(|x| x == "NEXT2:"));
        assert_eq!(instructions(&w), instructions(&l) - 5);
        // A block that held the call dropped: its subroutine, named by nothing, becomes a
        // unit of its own (from after the end of thread to its ret).
        let w = without(&l, &set(&[19]));
        assert!(!w.iter().any(|x| x == "SUB6:"));
        let n = w.len();
        assert_eq!(&w[n - 2..], &l[24..]);
        assert!(removal_units(&w).contains(&range(n - 2, n - 1)));
    }

    #[test]
    fn execution_sizes_narrow_with_their_regions() {
        assert_eq!(
            narrowed("add (8|M0) r10.0<1>:d r11.0<8;8,1>:d 0x1:d"),
            [
                "add (4|M0) r10.0<1>:d r11.0<8;8,1>:d 0x1:d",
                "add (4|M0) r10.0<1>:d r11.0<4;4,1>:d 0x1:d"
            ]
        );
        assert_eq!(
            narrowed("(W) mov (16|M0) r1.0<1>:ud 0x0:ud"),
            ["(W) mov (8|M0) r1.0<1>:ud 0x0:ud"]
        );
        assert_eq!(
            narrowed("mov (2|M0) r1.0<1>:ud r2.0<2;2,1>:ud")[1],
            "mov (1|M0) r1.0<1>:ud r2.0<0;1,0>:ud"
        );
        assert!(narrowed("mov (1|M0) r1.0<1>:ud 0x0:ud").is_empty());
    }
}
