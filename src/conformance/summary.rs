//! The summary of a check: counts by status, opcode and spec row, where the failing vectors
//! differ, and the rows that explain the failures ([`super::ranking`]).

use super::check::ReportLine;
use super::compare::{Outcome, UNCHECKED_STATUSES};
use super::json::{compact_strings, Lexer};
use super::known::KnownFields;
use super::ranking::{rank, MIN_FAILED, MIN_RISK, MIN_SIGMAS};
use super::rows::RowKind;
use super::view::VectorView;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

/// The hash of the summary's counts (long `rules` texts: foldhash reads 16 bytes a step).
type FastHash = foldhash::fast::RandomState;

/// Counts by status, opcode and rule. [`Summary::add_view`] counts per distinct `rules` text
/// and [`Summary::settle`] (called at the end of [`super::check::run`]) spreads those counts
/// over the rules; each count is `[passed, failed, not fully checked]`.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub total: u64,
    pub passed: u64,
    pub by_op: BTreeMap<String, [u64; 3]>,
    pub by_rule: BTreeMap<String, [u64; 3]>,
    pub by_status: BTreeMap<String, u64>,
    pub restarts: u64,
    /// Vectors per register that they expect and the simulator said it does not model.
    pub unmodelled: BTreeMap<String, u64>,
    /// Vectors per feature the simulator said it ignored.
    pub ignored: BTreeMap<String, u64>,
    /// Failing vectors per place a difference was found in ([`place`]).
    pub differing: BTreeMap<String, u64>,
    /// Not yet settled: counts per raw `rules` array text.
    by_rules_text: HashMap<String, [u64; 3], FastHash>,
    /// Not yet settled: counts per known `rules` array ([`Summary::take_known`]).
    by_rules_id: Vec<[u64; 3]>,
}

impl Summary {
    /// Count a vector of a report file (its `detail` as [`Summary::add_outcome`] counts it).
    pub fn add(&mut self, l: &ReportLine) {
        let k = bucket(&l.status);
        self.total += 1;
        self.passed += u64::from(k == 0);
        *self.by_status.entry(l.status.clone()).or_default() += 1;
        self.by_op.entry(l.op.clone()).or_default()[k] += 1;
        self.add_rules(l.rules.iter().map(String::as_str), k, 1);
        if let Some(d) = &l.detail {
            self.add_detail(d);
        }
    }

    /// Count what an outcome that is no pass tells: where the registers differ, the registers
    /// not modelled and the features ignored.
    pub fn add_outcome(&mut self, o: &Outcome) {
        let Some(d) = o.differences() else {
            return;
        };
        let places = d
            .differences
            .iter()
            .map(|x| place(&x.reg, x.channel.is_some(), x.ty == "flag"));
        self.add_places(places, &d.unmodelled, &d.ignored);
    }

    /// [`Summary::add_outcome`] from a report line's `detail`.
    fn add_detail(&mut self, d: &serde_json::Value) {
        let strings = |k: &str| -> Vec<String> {
            d.get(k)
                .and_then(|x| x.as_array())
                .into_iter()
                .flatten()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        };
        let diffs = d.get("differences").and_then(|x| x.as_array());
        let places = diffs.into_iter().flatten().map(|x| {
            let reg = x.get("reg").and_then(|r| r.as_str()).unwrap_or("?");
            let channel = x.get("channel").is_some_and(|c| !c.is_null());
            let flag = x.get("type").and_then(|t| t.as_str()) == Some("flag");
            place(reg, channel, flag)
        });
        let places: Vec<String> = places.collect();
        self.add_places(
            places.into_iter(),
            &strings("unmodelled"),
            &strings("ignored"),
        );
    }

    fn add_places(
        &mut self,
        places: impl Iterator<Item = String>,
        unmodelled: &[String],
        ignored: &[String],
    ) {
        let mut seen: Vec<String> = places.collect();
        seen.sort();
        seen.dedup();
        for p in seen {
            *self.differing.entry(p).or_default() += 1;
        }
        for r in unmodelled {
            *self.unmodelled.entry(r.clone()).or_default() += 1;
        }
        for f in ignored {
            *self.ignored.entry(f.clone()).or_default() += 1;
        }
    }

    fn add_rules<'r>(&mut self, rules: impl Iterator<Item = &'r str>, k: usize, n: u64) {
        for r in rules {
            if r.contains('[') {
                continue;
            }
            match self.by_rule.get_mut(r) {
                Some(c) => c[k] += n,
                None => self.by_rule.entry(r.to_string()).or_default()[k] += n,
            }
        }
    }

    /// Count a checked vector.
    pub fn add_view(&mut self, v: &VectorView, status: &str) {
        self.add_view_known(v, status, None);
    }

    /// [`Summary::add_view`] for a vector whose `rules` text is known array `rules_id`
    /// (counted by number until [`Summary::take_known`]).
    pub fn add_view_known(&mut self, v: &VectorView, status: &str, rules_id: Option<u32>) {
        let k = bucket(status);
        self.total += 1;
        self.passed += u64::from(k == 0);
        match self.by_status.get_mut(status) {
            Some(c) => *c += 1,
            None => {
                self.by_status.insert(status.to_string(), 1);
            }
        }
        match self.by_op.get_mut(v.op.as_ref()) {
            Some(c) => c[k] += 1,
            None => self.by_op.entry(v.op.to_string()).or_default()[k] += 1,
        }
        if let Some(id) = rules_id {
            let id = id as usize;
            if self.by_rules_id.len() <= id {
                self.by_rules_id.resize(id + 1, [0; 3]);
            }
            self.by_rules_id[id][k] += 1;
            return;
        }
        match self.by_rules_text.get_mut(v.rules_raw.as_ref()) {
            Some(c) => c[k] += 1,
            None => {
                self.by_rules_text
                    .entry(v.rules_raw.to_string())
                    .or_default()[k] += 1
            }
        }
    }

    /// Spread the counts kept per known `rules` array over the rules: by the rule numbers
    /// recorded with the array ([`super::known::RuleSets`]), or else from its text (not copied).
    pub fn take_known(&mut self, known: &KnownFields) {
        let ids = std::mem::take(&mut self.by_rules_id);
        let sets = &known.rule_sets;
        let mut per_rule = vec![[0u64; 3]; sets.name_count()];
        let mut unrecorded = Vec::new();
        for (id, c) in (0u32..).zip(&ids) {
            if c.iter().sum::<u64>() == 0 {
                continue;
            }
            match sets.members(id) {
                Some(rules) => {
                    for &r in rules {
                        add3(&mut per_rule[r as usize], c);
                    }
                }
                None => unrecorded.extend(known.rules.text(id).map(|t| (t, *c))),
            }
        }
        for (n, c) in (0u32..).zip(per_rule) {
            let r = sets.name(n);
            if c.iter().sum::<u64>() == 0 || r.contains('[') {
                continue;
            }
            match self.by_rule.get_mut(r) {
                Some(x) => {
                    add3(x, &c);
                }
                None => {
                    self.by_rule.insert(r.to_string(), c);
                }
            }
        }
        self.spread(unrecorded.into_iter());
    }

    /// Spread the counts kept per `rules` text over the rules.
    pub fn settle(&mut self) {
        let texts = std::mem::take(&mut self.by_rules_text);
        self.spread(texts.iter().map(|(t, c)| (t.as_str(), *c)));
    }

    /// Add counts per `rules` text to the counts per rule.
    fn spread<'t>(&mut self, texts: impl Iterator<Item = (&'t str, [u64; 3])>) {
        // Counts per rule borrowed from the texts (or decoded), cells (`[`) included: they are
        // left out once per rule when merging.
        let mut counts: HashMap<Cow<str>, [u64; 3], FastHash> = HashMap::default();
        fn add<'t>(
            counts: &mut HashMap<Cow<'t, str>, [u64; 3], FastHash>,
            r: Cow<'t, str>,
            c: &[u64; 3],
        ) {
            add3(counts.entry(r).or_default(), c);
        }
        let mut rules = Vec::new();
        for (text, c) in texts {
            let c = &c;
            if compact_strings(text, &mut rules) {
                for r in &rules {
                    add(&mut counts, Cow::Borrowed(r), c);
                }
                continue;
            }
            let mut l = Lexer::checked(text);
            let mut decoded = Vec::new();
            let read = l.array(|l| {
                decoded.push(l.string()?);
                Ok(())
            });
            if read.is_ok() {
                for r in decoded {
                    add(&mut counts, r, c);
                }
            } else {
                // Not from a vector line: read as the report does.
                let rules: Vec<String> = serde_json::from_str(text).unwrap_or_default();
                for (k, n) in c.iter().enumerate() {
                    if *n > 0 {
                        self.add_rules(rules.iter().map(String::as_str), k, *n);
                    }
                }
            }
        }
        for (r, c) in counts {
            if r.contains('[') {
                continue;
            }
            match self.by_rule.get_mut(r.as_ref()) {
                Some(x) => add3(x, &c),
                None => {
                    self.by_rule.insert(r.into_owned(), c);
                }
            }
        }
    }

    /// Vectors that failed (neither passed nor were left not fully checked).
    pub fn failed(&self) -> u64 {
        self.total - self.passed - self.unchecked()
    }

    /// Vectors not fully checked: registers not modelled, features ignored
    /// ([`UNCHECKED_STATUSES`]).
    pub fn unchecked(&self) -> u64 {
        UNCHECKED_STATUSES
            .iter()
            .filter_map(|s| self.by_status.get(*s))
            .sum()
    }

    /// The summary tables: counts by status and by opcode, where the failing vectors differ,
    /// what the simulator does not model or ignored, and the spec rows that explain the
    /// failures best ([`super::ranking`]).
    pub fn table(&self) -> String {
        let mut s = String::new();
        let statuses = |keep: &dyn Fn(&str) -> bool| {
            self.by_status
                .iter()
                .filter(|(k, _)| keep(k))
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let unchecked = match self.unchecked() {
            0 => String::new(),
            n => format!(
                ", {n} not fully checked ({})",
                statuses(&|k| UNCHECKED_STATUSES.contains(&k))
            ),
        };
        let _ = writeln!(
            s,
            "{} vectors: {} passed, {} failed ({}){unchecked}, simulator restarts: {}",
            self.total,
            self.passed,
            self.failed(),
            statuses(&|k| k != "pass" && !UNCHECKED_STATUSES.contains(&k)),
            self.restarts
        );
        let third = self.unchecked() > 0;
        let head3 = if third { "  unchecked" } else { "" };
        let _ = writeln!(s, "\n{:<12} {:>9} {:>9}{head3}", "opcode", "pass", "fail");
        for (op, [p, f, u]) in &self.by_op {
            let u = if third {
                format!(" {u:>10}")
            } else {
                String::new()
            };
            let _ = writeln!(s, "{op:<12} {p:>9} {f:>9}{u}");
        }
        for (title, counts) in [
            (
                "where the failing vectors differ (vectors)",
                &self.differing,
            ),
            (
                "registers the simulator does not model (vectors expecting them)",
                &self.unmodelled,
            ),
            ("features the simulator ignored (vectors)", &self.ignored),
        ] {
            if counts.is_empty() {
                continue;
            }
            let _ = writeln!(s, "\n{title}");
            let mut by_count: Vec<_> = counts.iter().collect();
            by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            for (k, n) in by_count {
                let _ = writeln!(s, "  {k:<40} {n:>9}");
            }
        }
        self.explaining_rows(&mut s);
        s
    }

    /// The rows that explain the failures best, semantic and structural apart.
    fn explaining_rows(&self, s: &mut String) {
        let failed = self.failed();
        if failed == 0 {
            return;
        }
        let checked = self.passed + failed;
        let _ = writeln!(
            s,
            "\nrows that explain the failures, best first (conformance/README.md, \"Which rows \
             explain the failures\")\n  score: failing vectors that list the row / vectors \
             that list it or fail; risk: how many times more often its vectors fail than the \
             others (only: no other vector fails); shown: risk >= {MIN_RISK}, {MIN_FAILED}+ \
             failures, {MIN_SIGMAS} sigma above chance"
        );
        if failed == checked {
            let _ = writeln!(
                s,
                "  every checked vector failed: no row explains the failures better than \
                 another (see the statuses above)"
            );
            return;
        }
        let ranking = rank(&self.by_rule, checked, failed);
        for k in [RowKind::Semantic, RowKind::Structural, RowKind::Unknown] {
            let rows = ranking.by_kind.get(&k).map_or(&[][..], Vec::as_slice);
            if rows.is_empty() && k == RowKind::Unknown {
                continue;
            }
            let _ = writeln!(s, "{}", k.title());
            if rows.is_empty() {
                let _ = writeln!(
                    s,
                    "  none stands out: no row's vectors fail clearly more often than the \
                     others (a cause no row describes: see where the failing vectors differ)"
                );
                continue;
            }
            let _ = writeln!(
                s,
                "  {:>6} {:>7} {:>15}  row",
                "score", "risk", "fail/listed"
            );
            for r in rows.iter().take(SHOWN_ROWS) {
                let risk = if r.risk.is_infinite() {
                    "only".to_string()
                } else {
                    format!("{:.1}x", r.risk)
                };
                let counts = format!("{}/{}", r.failed, r.listed);
                let _ = writeln!(
                    s,
                    "  {:>6.3} {risk:>7} {counts:>15}  {}",
                    r.score,
                    r.rows.join(" = ")
                );
            }
            if rows.len() > SHOWN_ROWS {
                let _ = writeln!(s, "  ({} more)", rows.len() - SHOWN_ROWS);
            }
        }
    }
}

/// Ranked rows shown per kind.
const SHOWN_ROWS: usize = 10;

/// The count a status goes to: 0 passed, 1 failed, 2 not fully checked.
fn bucket(status: &str) -> usize {
    if status == "pass" {
        0
    } else if UNCHECKED_STATUSES.contains(&status) {
        2
    } else {
        1
    }
}

fn add3(x: &mut [u64; 3], c: &[u64; 3]) {
    for (a, b) in x.iter_mut().zip(c) {
        *a += b;
    }
}

/// Where a difference is, as the summary counts it: the destination (a destination channel),
/// a flag register, another GRF register (which must keep its bytes), or the ARF register.
pub fn place(reg: &str, channel: bool, flag: bool) -> String {
    if flag {
        format!("{reg} (flags)")
    } else if super::regs::grf_number(reg).is_some() {
        if channel {
            "destination".into()
        } else {
            "GRF bytes outside the destination".into()
        }
    } else {
        reg.to_string()
    }
}
