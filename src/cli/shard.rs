//! `--shard K/N` of `euref golden` and `euref check`: shard K of N (K from 1, as
//! cargo-nextest's `--partition count:K/N` and Slurm's `--array=1-N` number them) of a run of
//! `count` items is the contiguous slice `floor((K-1)*count/N) .. floor(K*count/N)`. The N
//! slices of a count follow each other without gap or overlap, differ in length by at most
//! one, and are empty when N exceeds the count.

use std::fmt;
use std::ops::Range;

/// Shard `k` of `n` (`1 <= k <= n`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    k: u64,
    n: u64,
}

impl Shard {
    /// Shard `k` of `n`, or what is wrong with it.
    pub fn new(k: u64, n: u64) -> Result<Shard, String> {
        if n == 0 {
            return Err(format!(
                "{k}/0: N is the number of shards and must be at least 1 (e.g. 1/4 .. 4/4)"
            ));
        }
        if k == 0 {
            return Err(format!(
                "0/{n}: shards count from 1 (1/{n} .. {n}/{n}); from a 0-based index such as \
                 Kubernetes' JOB_COMPLETION_INDEX, pass INDEX+1"
            ));
        }
        if k > n {
            return Err(format!("{k}/{n}: K must be at most N (1/{n} .. {n}/{n})"));
        }
        Ok(Shard { k, n })
    }

    /// Parse `K/N` (clap's value parser of `--shard`).
    pub fn parse(s: &str) -> Result<Shard, String> {
        let Some((k, n)) = s.split_once('/') else {
            return Err(format!(
                "`{s}`: expected K/N, shard K of N with K from 1 to N (e.g. 2/8)"
            ));
        };
        let num = |x: &str, what: &str| {
            x.trim().parse::<u64>().map_err(|_| {
                format!("`{s}`: {what} `{x}` is not a whole number (expected K/N, e.g. 2/8)")
            })
        };
        Shard::new(num(k, "K")?, num(n, "N")?)
    }

    /// The items of this shard among `0..count`.
    pub fn range(&self, count: u64) -> Range<u64> {
        // (In 128 bits: (K-1)*count does not fit 64 for large counts.)
        let at = |j: u64| (u128::from(j) * u128::from(count) / u128::from(self.n)) as u64;
        at(self.k - 1)..at(self.k)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_and_n_are_checked_with_a_message_that_says_what_to_do() {
        assert_eq!(Shard::parse("2/8"), Ok(Shard { k: 2, n: 8 }));
        assert_eq!(Shard::parse("1/1"), Ok(Shard { k: 1, n: 1 }));
        assert_eq!(Shard::parse("8/8").map(|s| s.to_string()), Ok("8/8".into()));
        for (bad, says) in [
            ("0/4", "shards count from 1"),
            ("5/4", "K must be at most N"),
            ("1/0", "must be at least 1"),
            ("0/0", "must be at least 1"),
            ("3", "expected K/N"),
            ("a/4", "K `a` is not a whole number"),
            ("1/-4", "N `-4` is not a whole number"),
            ("", "expected K/N"),
        ] {
            let e = Shard::parse(bad).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    /// The slices are `floor((K-1)*count/N) .. floor(K*count/N)`, computed here without
    /// `range`: in order, without gap or overlap, lengths differing by at most one, empty
    /// shards when N exceeds the count; no overflow at the largest counts.
    #[test]
    fn the_shards_of_a_count_tile_it_in_order() {
        for count in [0u64, 1, 2, 7, 100, 1001] {
            for n in [1u64, 2, 3, 7, 8, 100, 1500] {
                let mut at = 0;
                let mut lens = Vec::new();
                for k in 1..=n {
                    let r = Shard::new(k, n).unwrap().range(count);
                    assert_eq!(r.start, at, "{k}/{n} of {count}");
                    // floor(k * count / n): the i >= 1 with i * n <= k * count.
                    let want_end = (1..=count).filter(|i| i * n <= k * count).count() as u64;
                    assert_eq!(r.end, want_end, "{k}/{n} of {count}");
                    lens.push(r.end - r.start);
                    at = r.end;
                }
                assert_eq!(at, count);
                let (lo, hi) = (lens.iter().min().unwrap(), lens.iter().max().unwrap());
                assert!(hi - lo <= 1, "{n} of {count}: {lens:?}");
            }
        }
        assert_eq!(Shard::new(1, 3).unwrap().range(7), 0..2);
        assert_eq!(Shard::new(2, 3).unwrap().range(7), 2..4);
        assert_eq!(Shard::new(3, 3).unwrap().range(7), 4..7);
        assert_eq!(Shard::new(2, 5).unwrap().range(3), 0..1);
        assert_eq!(Shard::new(1, 5).unwrap().range(3), 0..0);
        let big = Shard::new(3, 4).unwrap().range(u64::MAX);
        assert_eq!(big, u64::MAX / 2..(u64::MAX / 4) * 3 + 2);
        assert_eq!(Shard::new(4, 4).unwrap().range(u64::MAX).end, u64::MAX);
    }
}
