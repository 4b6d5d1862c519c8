//! A bit set that knows its nonzero words (a summary bit per word), so that iterating and
//! clearing cost what the members cost, not the universe (the sets of spec IDs and value
//! labels of one vector: a few dozen members among thousands).

/// Members `0..64 * words`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct BitSet {
    words: Vec<u64>,
    /// Bit `w % 64` of `summary[w / 64]`: word `w` may be nonzero.
    summary: Vec<u64>,
}

impl BitSet {
    /// An empty set with room for `n` members.
    pub(crate) fn new(n: usize) -> BitSet {
        let words = n.div_ceil(64);
        BitSet {
            words: vec![0; words],
            summary: vec![0; words.div_ceil(64)],
        }
    }

    /// Add `i` (ignored beyond the room).
    #[inline]
    pub(crate) fn insert(&mut self, i: usize) {
        let (w, b) = (i / 64, i % 64);
        if let (Some(x), Some(s)) = (self.words.get_mut(w), self.summary.get_mut(w / 64)) {
            *x |= 1 << b;
            *s |= 1 << (w % 64);
        }
    }

    /// Whether `i` is a member.
    #[cfg(test)]
    pub(crate) fn contains(&self, i: usize) -> bool {
        self.words
            .get(i / 64)
            .is_some_and(|x| x >> (i % 64) & 1 == 1)
    }

    /// Empty the set.
    #[inline]
    pub(crate) fn clear(&mut self) {
        for (s, sw) in self.summary.iter_mut().enumerate() {
            let mut x = std::mem::take(sw);
            while x != 0 {
                self.words[s * 64 + x.trailing_zeros() as usize] = 0;
                x &= x - 1;
            }
        }
    }

    /// Call `f` with each member of `self ∪ other` (same room), ascending.
    #[inline]
    pub(crate) fn for_each_union(&self, other: &BitSet, mut f: impl FnMut(usize)) {
        for (s, (&sa, &sb)) in self.summary.iter().zip(&other.summary).enumerate() {
            let mut ws = sa | sb;
            while ws != 0 {
                let w = s * 64 + ws.trailing_zeros() as usize;
                ws &= ws - 1;
                let mut x = self.words[w] | other.words[w];
                while x != 0 {
                    f(w * 64 + x.trailing_zeros() as usize);
                    x &= x - 1;
                }
            }
        }
    }

    /// Call `f` with each member of `self` outside `other` (same room), ascending, and the
    /// word of `other` that holds it.
    #[inline]
    pub(crate) fn for_each_outside(&self, other: &BitSet, mut f: impl FnMut(usize, u64)) {
        for (s, &sa) in self.summary.iter().enumerate() {
            let mut ws = sa;
            while ws != 0 {
                let w = s * 64 + ws.trailing_zeros() as usize;
                ws &= ws - 1;
                let (Some(&a), Some(&b)) = (self.words.get(w), other.words.get(w)) else {
                    continue;
                };
                let mut x = a & !b;
                while x != 0 {
                    f(w * 64 + x.trailing_zeros() as usize, b);
                    x &= x - 1;
                }
            }
        }
    }

    /// The number of words (of 64 members).
    #[inline]
    pub(crate) fn words(&self) -> usize {
        self.words.len()
    }

    /// Append to `out`, per word, the number of members below it.
    pub(crate) fn word_ranks(&self, out: &mut Vec<u32>) {
        let mut rank = 0;
        out.extend(self.words.iter().map(|w| {
            let r = rank;
            rank += w.count_ones();
            r
        }));
    }

    /// Call `f` with each member, ascending.
    #[inline]
    pub(crate) fn for_each(&self, f: impl FnMut(usize)) {
        self.for_each_union(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::BitSet;

    #[test]
    fn members_union_and_clear() {
        let mut a = BitSet::new(5000);
        let mut b = BitSet::new(5000);
        for i in [3, 64, 65, 4095, 4999, 3] {
            a.insert(i);
        }
        a.insert(6000); // beyond the room: ignored
        for i in [0, 64, 4096] {
            b.insert(i);
        }
        let mut members = Vec::new();
        a.for_each(|i| members.push(i));
        assert_eq!(members, [3, 64, 65, 4095, 4999]);
        assert!(a.contains(64) && a.contains(4999) && !a.contains(66) && !a.contains(6000));
        let mut u = Vec::new();
        a.for_each_union(&b, |i| u.push(i));
        assert_eq!(u, [0, 3, 64, 65, 4095, 4096, 4999]);
        let mut outside = Vec::new();
        a.for_each_outside(&b, |i, w| outside.push((i, w)));
        assert_eq!(outside, [(3, 1), (65, 1), (4095, 0), (4999, 0)]);
        let mut ranks = vec![7];
        a.word_ranks(&mut ranks);
        assert_eq!(a.words(), 79);
        assert_eq!(ranks.len(), 80);
        assert_eq!(&ranks[..4], [7, 0, 1, 3]);
        assert!(ranks[4..65].iter().all(|&r| r == 3) && ranks[65..].iter().all(|&r| r == 4));
        a.clear();
        let mut v = Vec::new();
        a.for_each(|i| v.push(i));
        assert!(v.is_empty());
        assert_eq!(a, BitSet::new(5000));
    }
}
