//! Which spec rows explain a check's failures: the rows listed by the failing vectors, ranked
//! by how closely the set of vectors that list a row matches the set of failing vectors, the
//! semantic rows apart from the structural ones ([`super::rows::kind`]).
//!
//! The measure (conformance/README.md, "Which rows explain the failures"): for a row listed by
//! `n` of the `N` checked vectors, `f` of which fail, `F` failing in all,
//! - `score = 5f / (5f + 4(F - f) + (n - f))`, the F2 score of the row as a predictor of
//!   failure (recall weighted four times precision): 1 when the row is listed by exactly the
//!   failing vectors; it falls when failures do not list it, and four times less when vectors
//!   that list it pass (a fault shows only on some values, so the vectors of its row pass
//!   often, while a failure that does not list a row is not explained by it). So a row listed
//!   by a few vectors that all fail (a special case of the cause) ranks below the row of the
//!   cause, which every failure lists, even when more of the cause's vectors pass;
//! - `risk = (f / n) / ((F - f) / (N - n))`, how much more often the row's vectors fail than
//!   the others. A row is shown when `f >= MIN_FAILED`, `risk >= MIN_RISK` and the two
//!   failure rates differ by at least `MIN_SIGMAS` standard errors (the two-proportion z
//!   test: `(f/n - (F-f)/(N-n)) / sqrt(p (1-p) (1/n + 1/(N-n))) >= MIN_SIGMAS`, `p = F/N`):
//!   a row whose vectors fail no more often than the rest (all rows, when every vector fails;
//!   a row every vector lists) explains nothing, however many failures list it, and a row of
//!   a few vectors that fail by chance neither.
//!
//! Rows with the same counts (in practice listed by the same vectors) share one line: the
//! counts cannot tell them apart.

use super::rows::{kind, RowKind};
use std::collections::BTreeMap;

/// A row is shown when at least this many failing vectors list it.
pub const MIN_FAILED: u64 = 3;

/// A row is shown when its vectors fail at least this many times as often as the others.
pub const MIN_RISK: f64 = 2.0;

/// A row is shown when the failure rate of its vectors exceeds that of the others by at least
/// this many standard errors.
pub const MIN_SIGMAS: f64 = 3.0;

/// Rows (with the same counts) and how well they explain the failures.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    /// The row IDs, in name order.
    pub rows: Vec<String>,
    /// Checked vectors listing the rows, and those of them that fail.
    pub listed: u64,
    pub failed: u64,
    /// The F2 score of the row's vectors as a predictor of the failing ones.
    pub score: f64,
    /// How many times more often the row's vectors fail than the others (infinite: only
    /// the row's vectors fail).
    pub risk: f64,
}

/// The ranked rows of each kind (those shown: see the module text).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ranking {
    pub by_kind: BTreeMap<RowKind, Vec<Ranked>>,
}

/// Rank the rows of `by_rule` (per row: `[passed, failed, not fully checked]` vectors; the
/// last are left out, as from `total`), with `failed` failing vectors of `total`.
pub fn rank(by_rule: &BTreeMap<String, [u64; 3]>, total: u64, failed: u64) -> Ranking {
    let mut all: Vec<(RowKind, &str, [u64; 2], f64, f64)> = Vec::new();
    for (row, c) in by_rule {
        let (n, f) = (c[0] + c[1], c[1]);
        if f < MIN_FAILED || n >= total || failed == 0 {
            continue;
        }
        let inside = f as f64 / n as f64;
        let outside = (failed - f) as f64 / (total - n) as f64;
        let risk = if outside == 0.0 {
            f64::INFINITY
        } else {
            inside / outside
        };
        let p = failed as f64 / total as f64;
        let se = (p * (1.0 - p) * (1.0 / n as f64 + 1.0 / (total - n) as f64)).sqrt();
        if risk < MIN_RISK || inside - outside < MIN_SIGMAS * se {
            continue;
        }
        // (F2: recall weighted 4 = 2^2 times precision.)
        let score = 5.0 * f as f64 / (5 * f + 4 * (failed - f) + (n - f)) as f64;
        all.push((kind(row), row, [c[0], c[1]], score, risk));
    }
    all.sort_by(|a, b| {
        (a.0.cmp(&b.0))
            .then(b.3.total_cmp(&a.3))
            .then(b.2[1].cmp(&a.2[1]))
            .then(a.1.cmp(b.1))
    });
    let mut r = Ranking::default();
    for (k, row, c, score, risk) in all {
        let list = r.by_kind.entry(k).or_default();
        match list.last_mut() {
            Some(last) if last.listed == c[0] + c[1] && last.failed == c[1] => {
                last.rows.push(row.to_string())
            }
            _ => list.push(Ranked {
                rows: vec![row.to_string()],
                listed: c[0] + c[1],
                failed: c[1],
                score,
                risk,
            }),
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(rows: &[(&str, u64, u64)]) -> BTreeMap<String, [u64; 3]> {
        rows.iter()
            .map(|(r, p, f)| (r.to_string(), [*p, *f, 0]))
            .collect()
    }

    #[test]
    fn the_row_every_failure_lists_ranks_above_its_special_cases() {
        // 1000 vectors, 100 fail: the cause (listed by 120, every failure among them), a
        // special case of it (20 vectors, all failing), a row unrelated to the failures, one
        // every vector lists, and one listed by two failures only.
        let c = counts(&[
            ("cmpn.rule.sel-flags-untouched", 20, 100),
            ("cmpn.rule.minmax-two-nan", 0, 20),
            ("fp.ieee.default", 270, 30),
            ("opcode.sel", 0, 2),
            ("region.width-legal", 900, 100),
        ]);
        let r = rank(&c, 1000, 100);
        let sem = &r.by_kind[&RowKind::Semantic];
        let names: Vec<&str> = sem.iter().map(|x| x.rows[0].as_str()).collect();
        assert_eq!(
            names,
            ["cmpn.rule.sel-flags-untouched", "cmpn.rule.minmax-two-nan"]
        );
        assert_eq!(sem[0].score, 500.0 / 520.0);
        assert!(sem[0].risk.is_infinite());
        // (Listed by every vector: it tells nothing.)
        assert!(!r.by_kind.contains_key(&RowKind::Structural));
    }

    #[test]
    fn rows_failing_by_chance_are_left_out() {
        // 8000 vectors, 3035 failing: 4 of 4 failing is likely by chance (2%), 58 of 76 not.
        let c = counts(&[("conv.int.widen.ub", 0, 4), ("sat.int.b", 18, 58)]);
        let r = rank(&c, 8000, 3035);
        let sem = &r.by_kind[&RowKind::Semantic];
        assert_eq!(sem.len(), 1);
        assert_eq!(sem[0].rows, ["sat.int.b"]);
        // A row almost every vector lists, whose few other vectors all pass: significant
        // (18 passes in a row at a failure rate of 61% are unlikely), shown.
        let c = counts(&[("align.src-natural", 3092, 4890)]);
        let r = rank(&c, 8000, 4890);
        assert_eq!(r.by_kind[&RowKind::Structural].len(), 1);
    }

    #[test]
    fn rows_with_the_same_counts_share_a_line_and_a_run_that_fails_all_ranks_none() {
        let c = counts(&[
            ("sat.float", 1749, 2044),
            ("fp.sat.zero-sign", 1749, 2044),
            ("sat.int.ub", 37, 38),
        ]);
        let r = rank(&c, 20_000, 2343);
        let sem = &r.by_kind[&RowKind::Semantic];
        assert_eq!(sem[0].rows, ["fp.sat.zero-sign", "sat.float"]);
        assert_eq!(sem.len(), 2);
        let all = counts(&[("sat.float", 0, 3793), ("opcode.add", 0, 900)]);
        assert_eq!(rank(&all, 20_000, 20_000), Ranking::default());
    }
}
