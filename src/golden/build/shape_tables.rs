//! What the shape builder derives once from the generated tables: which of the rules that
//! apply to an instruction a shape lists, the numbers of their IDs, and where each form label
//! of the templates goes among the value labels.

use super::super::bitset::BitSet;
use super::super::ids::RuleSet;
use super::super::template::{FormLabels, RegionRules, FORM_LABELS, REGION_RULES};
use super::super::values::{self, PlacedLabel};
use crate::spec::rules::{RuleMask, RULES};
use std::rc::Rc;
use std::sync::OnceLock;

struct Tables {
    /// The rules with a `when` (specific to the instructions they apply to).
    specific: RuleMask,
    /// The rules of each [`REGION_RULES`] ID.
    region: Vec<RuleMask>,
    /// The number of each rule's ID in the ID table (None: not in it).
    numbers: Vec<Option<usize>>,
    /// An empty set of ID numbers.
    empty: BitSet,
    /// Each [`FORM_LABELS`] label placed among the value labels: a value label's rank, or
    /// the label itself.
    placed: Vec<Result<u16, PlacedLabel>>,
}

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let mask_of = |keep: &dyn Fn(&str, &str) -> bool| {
            let mut m = RuleMask::default();
            for (k, r) in RULES.iter().enumerate() {
                if keep(r.id, r.when) {
                    m[k / 64] |= 1 << (k % 64);
                }
            }
            m
        };
        let mut set = RuleSet::default();
        let numbers = RULES
            .iter()
            .map(|r| {
                set.clear();
                set.push(r.id);
                let mut n = None;
                if let Some(b) = set.bits() {
                    b.for_each(|i| n = Some(i));
                }
                n
            })
            .collect();
        set.clear();
        Tables {
            specific: mask_of(&|_, when| !when.is_empty()),
            region: REGION_RULES
                .iter()
                .map(|id| mask_of(&|r, _| r == *id))
                .collect(),
            numbers,
            empty: set.bits().cloned().unwrap_or_else(|| BitSet::new(0)),
            placed: FORM_LABELS
                .iter()
                .map(|&l| {
                    let (ranks, mut rest) = values::place_labels(vec![l]);
                    match ranks.first() {
                        Some(&r) => Ok(r),
                        None => Err(rest.pop().unwrap_or(PlacedLabel { before: 0, text: l })),
                    }
                })
                .collect(),
        }
    })
}

/// The rules of `applicable` a shape lists: those specific to the instruction (a non-empty
/// `when`) and those of `hints` (the template's region rules).
pub(super) fn listed(applicable: &RuleMask, hints: RegionRules) -> RuleMask {
    let t = tables();
    let mut keep = t.specific;
    for_each_bit(&[hints.0], |i| {
        if let Some(m) = t.region.get(i) {
            for (k, w) in keep.iter_mut().zip(m) {
                *k |= w;
            }
        }
    });
    let mut out = *applicable;
    for (o, k) in out.iter_mut().zip(keep) {
        *o &= k;
    }
    out
}

/// The IDs of the rules of `mask`, in table order.
pub(super) fn ids(mask: &RuleMask) -> Vec<&'static str> {
    let mut ids = Vec::with_capacity(mask.iter().map(|w| w.count_ones() as usize).sum());
    for_each_bit(mask, |k| {
        if let Some(r) = RULES.get(k) {
            ids.push(r.id);
        }
    });
    ids
}

/// The set of the numbers of the IDs of the rules of `mask` (None when an ID is outside the
/// ID table; shared, not copied): `room` itself when it is that of `room_mask`, the same
/// rules, else remembered per thread by rules (shapes list few distinct sets of rules). (`Rc`:
/// a shape stays on the thread that built it; no atomic count per shape.)
pub(super) fn numbers(
    mask: &RuleMask,
    (room, room_mask): (Option<Rc<BitSet>>, &RuleMask),
) -> Option<Rc<BitSet>> {
    type Seen =
        std::collections::HashMap<RuleMask, Option<Rc<BitSet>>, foldhash::fast::RandomState>;
    thread_local! {
        static SEEN: std::cell::RefCell<Seen> = std::cell::RefCell::default();
    }
    if room.is_some() && room_mask == mask {
        return room;
    }
    SEEN.with(|c| {
        let mut c = c.borrow_mut();
        if let Some(bits) = c.get(mask) {
            return bits.clone();
        }
        let bits = numbers_uncached(mask).map(Rc::new);
        // (Bounded: beyond it, sets are computed each time.)
        if c.len() < 4096 {
            c.insert(*mask, bits.clone());
        }
        bits
    })
}

/// [`numbers`], computed.
fn numbers_uncached(mask: &RuleMask) -> Option<BitSet> {
    let t = tables();
    let mut bits = t.empty.clone();
    let mut known = true;
    for_each_bit(mask, |k| match t.numbers.get(k) {
        Some(Some(n)) => bits.insert(*n),
        Some(None) => known = false,
        None => {}
    });
    known.then_some(bits)
}

/// Call `f` with the position of every set bit of `words` (bit `i % 64` of word `i / 64`), in
/// order.
fn for_each_bit(words: &[u64], mut f: impl FnMut(usize)) {
    for (w, &bits) in words.iter().enumerate() {
        let mut b = bits;
        while b != 0 {
            f(w * 64 + b.trailing_zeros() as usize);
            b &= b - 1;
        }
    }
}

/// [`values::place_labels`] of the texts of `labels` (looked up per label), into `ranks` and
/// `rest` (emptied first).
pub(super) fn place_into(labels: FormLabels, ranks: &mut Vec<u16>, rest: &mut Vec<PlacedLabel>) {
    let t = tables();
    ranks.clear();
    rest.clear();
    for_each_bit(&[labels.0], |i| match t.placed.get(i) {
        Some(Ok(r)) => ranks.push(*r),
        Some(Err(l)) => {
            rest.push(*l);
        }
        None => {}
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random_mask(next: &mut impl FnMut() -> u64) -> RuleMask {
        let mut m = RuleMask::default();
        for w in m.iter_mut() {
            *w = next() & next();
        }
        for k in RULES.len()..m.len() * 64 {
            m[k / 64] &= !(1 << (k % 64));
        }
        m
    }

    /// `listed`, `ids` and `numbers` (computed, remembered or the room given) give the IDs
    /// the shape builder listed before: the applicable rules with a `when` or among the
    /// hints, in table order, and their numbers as a `RuleSet` gives them.
    #[test]
    fn listed_rules_are_the_specific_and_hinted_ones() {
        let mut next = crate::test_rng::xorshift(0x05EE_D0F5_A4E5_u64);
        let mut set = RuleSet::default();
        let mut room: Option<Rc<BitSet>> = None;
        let mut room_mask = RuleMask::default();
        let mut nonempty = 0;
        for round in 0..2000 {
            let applicable = random_mask(&mut next);
            let hints = RegionRules(next() & next() & ((1 << REGION_RULES.len()) - 1));
            let hint_ids: Vec<&str> = hints.ids().collect();
            let expect: Vec<&str> = RULES
                .iter()
                .enumerate()
                .filter(|(k, _)| applicable[k / 64] >> (k % 64) & 1 == 1)
                .filter(|(_, r)| !r.when.is_empty() || hint_ids.contains(&r.id))
                .map(|(_, r)| r.id)
                .collect();
            let mask = listed(&applicable, hints);
            assert_eq!(ids(&mask), expect, "round {round}");
            set.clear();
            for id in &expect {
                set.push(id);
            }
            nonempty += usize::from(!expect.is_empty());
            // Computed, then remembered; given the room of the last round's (other rules)
            // and its own (the same rules: the room is the answer).
            let fresh = numbers(&mask, (None, &mask));
            assert_eq!(fresh.as_deref(), set.bits(), "round {round}");
            let reused = numbers(&mask, (room.take(), &room_mask));
            assert_eq!(reused.as_deref(), set.bits(), "round {round}");
            let again = numbers(&mask, (reused.clone(), &mask));
            assert_eq!(again.as_deref(), set.bits(), "round {round}");
            if let (Some(a), Some(b)) = (&again, &reused) {
                assert!(Rc::ptr_eq(a, b), "round {round}");
            }
            (room, room_mask) = (reused, mask);
        }
        assert!(nonempty > 1000, "{nonempty}");
    }

    /// `place_into` (into fresh or reused buffers) is `values::place_labels` of the texts.
    #[test]
    fn placed_labels_are_those_of_place_labels() {
        let mut next = crate::test_rng::xorshift(0x001A_BE15_u64);
        let (mut ranks, mut rest) = (Vec::new(), Vec::new());
        for _ in 0..2000 {
            let labels = FormLabels(next() & next() & ((1 << FORM_LABELS.len()) - 1));
            let texts: Vec<&'static str> = labels.texts().collect();
            let (r, l) = values::place_labels(texts);
            place_into(labels, &mut ranks, &mut rest);
            assert_eq!(ranks, r);
            let got: Vec<(u16, &str)> = rest.iter().map(|x| (x.before, x.text)).collect();
            let want: Vec<(u16, &str)> = l.iter().map(|x| (x.before, x.text)).collect();
            assert_eq!(got, want);
        }
    }
}
