//! Spec IDs as numbers for the vector writer: every row ID of spec/ (`spec::ALL_IDS`) and every
//! compare grid cell (`cmp.g[+inf,NaN]`), numbered in name order. A vector's rules are then a
//! bit set ([`RuleSet`]), united with its shape's and written in order by copying each ID's
//! pre-rendered JSON string: no string sorting or comparison per vector. An ID outside the
//! table (none is known) is kept as a string and the vector takes the string path.

use super::bitset::BitSet;
use super::format::fast::{Cursor, Slots};
use crate::spec::compare::{self, GridInfo, CLASSES};
use std::collections::HashMap;
use std::sync::OnceLock;

/// An ID's number: its rank in name order.
pub(crate) type Id = u16;

/// Every ID, its JSON string and its number.
struct IdTable {
    /// The names in order.
    names: Vec<&'static str>,
    /// `,"<id>"` of each ID.
    items: Slots,
    by_name: HashMap<&'static str, Id>,
    /// The number of grid `g`'s cell `(a, b)` at `g * 81 + a * 9 + b`.
    cells: Vec<Id>,
}

/// The names of the compare grid cells, grid by grid, `a * 9 + b` within a grid.
fn cell_names() -> &'static [String] {
    static CELLS: OnceLock<Vec<String>> = OnceLock::new();
    CELLS.get_or_init(|| {
        let mut v = Vec::with_capacity(compare::GRIDS.len() * 81);
        for g in compare::GRIDS.iter() {
            for x in CLASSES {
                for y in CLASSES {
                    v.push(format!("{}[{x},{y}]", g.id));
                }
            }
        }
        v
    })
}

fn table() -> &'static IdTable {
    static T: OnceLock<IdTable> = OnceLock::new();
    T.get_or_init(|| {
        let cells = cell_names();
        let mut names: Vec<&'static str> = crate::spec::ALL_IDS.iter().map(|x| x.0).collect();
        names.extend(cells.iter().map(String::as_str));
        names.sort_unstable();
        names.dedup();
        // (Far fewer than 65536 IDs; a table that outgrew `Id` would keep the first ones.)
        names.truncate(usize::from(Id::MAX));
        let items = Slots::new(names.iter().copied());
        let by_name: HashMap<&'static str, Id> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (*n, i as Id))
            .collect();
        let cells = cells
            .iter()
            .map(|c| by_name.get(c.as_str()).copied().unwrap_or(0))
            .collect();
        IdTable {
            names,
            items,
            by_name,
            cells,
        }
    })
}

/// An empty bit set over every ID.
fn empty() -> BitSet {
    BitSet::new(table().names.len())
}

/// A spec ID with its number (None: outside the table), looked up once: what
/// [`RuleSet::push_rule`] adds without a lookup. [`rule!`] makes one per use site.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rule {
    name: &'static str,
    number: Option<Id>,
}

impl Rule {
    /// `name` with its number.
    pub(crate) fn new(name: &'static str) -> Rule {
        Rule {
            name,
            number: table().by_name.get(name).copied(),
        }
    }

    pub(crate) fn name(self) -> &'static str {
        self.name
    }
}

/// The [`Rule`] of a literal spec ID, looked up the first time this use site runs.
macro_rules! rule {
    ($id:literal) => {{
        static RULE: std::sync::OnceLock<$crate::golden::ids::Rule> = std::sync::OnceLock::new();
        *RULE.get_or_init(|| $crate::golden::ids::Rule::new($id))
    }};
}
pub(crate) use rule;

/// The [`Rule`] of a row of a spec table (`$rows`, of row type `$ty` with an `id`), the
/// table's rules numbered the first time this use site runs (a row found by its address; a
/// row of another table by its ID).
macro_rules! row_rule {
    ($ty:ty, $rows:expr, $row:expr) => {{
        static RULES: std::sync::OnceLock<Vec<$crate::golden::ids::Rule>> =
            std::sync::OnceLock::new();
        let rows: &'static [$ty] = &$rows;
        let row: &$ty = $row;
        let rules = RULES.get_or_init(|| {
            rows.iter()
                .map(|r| $crate::golden::ids::Rule::new(r.id))
                .collect()
        });
        $crate::golden::ids::row_index(rows, row)
            .and_then(|i| rules.get(i).copied())
            .unwrap_or_else(|| $crate::golden::ids::Rule::new(row.id))
    }};
}
pub(crate) use row_rule;

/// The index of `row` in `rows` by its address (None: not one of them).
#[inline]
pub(crate) fn row_index<T>(rows: &[T], row: &T) -> Option<usize> {
    let size = std::mem::size_of::<T>();
    let at = (row as *const T as usize).wrapping_sub(rows.as_ptr() as usize);
    let i = at.checked_div(size)?;
    rows.get(i).filter(|r| std::ptr::eq(*r, row)).map(|_| i)
}

/// A set of spec IDs: numbered ones as bits, any other as a string. `push` looks an ID up by
/// its address first (a small per-set cache: the IDs are `'static` strings from a few hundred
/// places), by its text the first time; `push_rule` adds an ID looked up before.
pub(crate) struct RuleSet {
    bits: BitSet,
    /// IDs outside the table (expected empty).
    pub(crate) unknown: Vec<&'static str>,
    /// Open addressing: the key (address and length, [`key`]; 0 = free) and the number or
    /// [`NONE`], in two arrays (the probe reads the keys only).
    keys: Vec<u64>,
    numbers: Vec<u32>,
    cached: usize,
}

/// Cache entry of a string outside the table.
const NONE: u32 = u32::MAX;
/// Cache slots (a power of two; at most three quarters used).
const CACHE: usize = 1024;

/// The cache key of a `'static` string: its address with its length in the top 16 bits
/// (user-space addresses have 48 bits; a longer string or a higher address is not cached).
#[inline]
fn key(id: &str) -> Option<u64> {
    let (a, n) = (id.as_ptr() as u64, id.len() as u64);
    (a != 0 && a >> 48 == 0 && n >> 16 == 0).then_some(a | n << 48)
}

impl Default for RuleSet {
    fn default() -> RuleSet {
        RuleSet {
            bits: empty(),
            unknown: Vec::new(),
            keys: vec![0; CACHE],
            numbers: vec![0; CACHE],
            cached: 0,
        }
    }
}

impl RuleSet {
    /// Add `id`.
    #[inline]
    pub(crate) fn push(&mut self, id: &'static str) {
        let number = self.number(id);
        self.push_rule(Rule { name: id, number });
    }

    /// Add `r`.
    #[inline]
    pub(crate) fn push_rule(&mut self, r: Rule) {
        match r.number {
            Some(i) => self.insert(i),
            None => {
                if !self.unknown.contains(&r.name) {
                    self.unknown.push(r.name);
                }
            }
        }
    }

    /// Add the cell `(a, b)` of grid `g` (`cmp.g[+inf,NaN]`).
    #[inline]
    pub(crate) fn push_cell(&mut self, g: &GridInfo, a: usize, b: usize) {
        let gi = row_index(&compare::GRIDS, g).unwrap_or(0);
        if let Some(&i) = table().cells.get(gi * 81 + a * 9 + b) {
            self.insert(i);
        }
    }

    #[inline]
    fn insert(&mut self, i: Id) {
        self.bits.insert(usize::from(i));
    }

    /// The number of `id` (None: not in the table).
    #[inline]
    fn number(&mut self, id: &'static str) -> Option<Id> {
        let Some(k) = key(id) else {
            return table().by_name.get(id).copied();
        };
        let mut h = (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & (CACHE - 1);
        loop {
            let sk = self.keys[h];
            if sk == k {
                let v = self.numbers[h];
                return (v != NONE).then_some(v as Id);
            }
            if sk == 0 {
                break;
            }
            h = (h + 1) & (CACHE - 1);
        }
        let v = table().by_name.get(id).copied();
        if self.cached < CACHE * 3 / 4 {
            self.keys[h] = k;
            self.numbers[h] = v.map_or(NONE, u32::from);
            self.cached += 1;
        }
        v
    }

    /// Empty the set (keeps the cache).
    pub(crate) fn clear(&mut self) {
        self.bits.clear();
        self.unknown.clear();
    }

    /// Every member's name, sorted.
    pub(crate) fn names(&self) -> Vec<&'static str> {
        let t = table();
        let mut v: Vec<&'static str> = Vec::new();
        self.bits.for_each(|i| v.push(t.names[i]));
        v.extend(self.unknown.iter().copied());
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The set as bits (for [`write_union`]), None when it holds an ID outside the table.
    pub(crate) fn bits(&self) -> Option<&BitSet> {
        self.unknown.is_empty().then_some(&self.bits)
    }
}

/// Add `rules` to `bits` (a set of [`RuleSet::bits`]); false (`bits` unchanged) when one is
/// outside the table.
pub(crate) fn insert_rules(bits: &mut BitSet, rules: &[Rule]) -> bool {
    if rules.iter().any(|r| r.number.is_none()) {
        return false;
    }
    for n in rules.iter().filter_map(|r| r.number) {
        bits.insert(usize::from(n));
    }
    true
}

/// Write the IDs of `a ∪ b` as a JSON list of strings in name order (`a` and `b`: bit sets
/// of [`RuleSet::bits`]).
#[inline]
pub(crate) fn write_union(c: &mut Cursor<'_>, a: &BitSet, b: &BitSet) {
    let items = &table().items;
    let list = c.list_start();
    a.for_each_union(b, |i| items.put(c, i));
    c.list_end(list);
}

/// A set of numbered IDs rendered once as JSON list items (`,"<id>"` each, in order), into
/// which another set is merged when written ([`RuleList::write_with`]): the list of a shape's
/// rules, written with each vector's by copying the runs of the shape's items between the
/// vector's own, so that the cost follows the vector's rules, not the union's.
#[derive(Default)]
pub(crate) struct RuleList {
    /// The items.
    json: Vec<u8>,
    /// Per word of the set (64 numbers): the rank of its first member among the members;
    /// then each item's start in `json` by rank, and the end of `json`. (One vector: the
    /// list is moved with its shape's text for every vector.)
    at: Vec<u32>,
}

impl RuleList {
    /// Make the list `bits`'s members.
    pub(crate) fn set(&mut self, bits: &BitSet) {
        self.clear();
        bits.word_ranks(&mut self.at);
        let items = &table().items;
        bits.for_each(|i| {
            self.at.push(self.json.len() as u32);
            items.append(&mut self.json, i);
        });
        self.at.push(self.json.len() as u32);
    }

    /// Make the list empty.
    pub(crate) fn clear(&mut self) {
        self.json.clear();
        self.at.clear();
    }

    /// Where in `json` the item of number `i` goes (the start of the first member above
    /// it): `own_word` is the word of the set that holds `i`, `words` the set's words.
    #[inline(always)]
    fn place(&self, i: usize, own_word: u64, words: usize) -> usize {
        let below = own_word & ((1u64 << (i % 64)) - 1);
        let rank = self.at.get(i / 64).map_or(0, |&r| r as usize) + below.count_ones() as usize;
        (self.at.get(words + rank).copied()).map_or(self.json.len(), |x| x as usize)
    }

    /// Write the IDs of `own ∪ more` as a JSON list of strings in name order; `own` must be
    /// the set the list was made from ([`RuleList::set`]).
    #[inline]
    pub(crate) fn write_with(&self, c: &mut Cursor<'_>, own: &BitSet, more: &BitSet) {
        let items = &table().items;
        let list = c.list_start();
        let mut from = 0;
        // (Each of the vector's own items placed by the count of the shape's below it in
        // its word: no walk through the shape's items.)
        let words = own.words();
        more.for_each_outside(own, |i, own_word| {
            // The shape's items before `i`, then `i`.
            let to = self.place(i, own_word, words);
            c.bytes(self.json.get(from..to).unwrap_or_default());
            from = to;
            items.put(c, i);
        });
        c.bytes(self.json.get(from..).unwrap_or_default());
        c.list_end(list);
    }
}

/// Write `items` (sorted, unique strings) as a JSON list of strings.
pub(crate) fn write_names(c: &mut Cursor<'_>, items: &[&str]) {
    let list = c.list_start();
    for s in items {
        c.list_plain(s);
    }
    c.list_end(list);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::golden::format::fast::Lines;
    use crate::golden::values::Rng;

    /// What `f` writes after `x`.
    fn written(f: impl Fn(&mut Cursor<'_>)) -> Vec<u8> {
        let mut out = Lines::default();
        out.write(|c| {
            c.byte(b'x');
            f(c);
        });
        out.as_bytes().to_vec()
    }

    /// The list written from bit sets equals the sorted, unique strings (the string path), for
    /// random sets of spec IDs and grid cells.
    #[test]
    fn bit_set_lists_equal_the_sorted_strings() {
        let mut r = Rng::for_vector(11, 0, 0);
        let (mut shape, mut vector) = (RuleSet::default(), RuleSet::default());
        for round in 0..300 {
            shape.clear();
            vector.clear();
            let mut expect: Vec<String> = Vec::new();
            for _ in 0..r.below(40) {
                let id = crate::spec::ALL_IDS[r.below(crate::spec::ALL_IDS.len())].0;
                let set = if r.chance(1, 2) {
                    &mut shape
                } else {
                    &mut vector
                };
                set.push(id);
                expect.push(id.to_string());
            }
            for _ in 0..r.below(6) {
                let g = &compare::GRIDS[r.below(compare::GRIDS.len())];
                let (a, b) = (r.below(9), r.below(9));
                vector.push_cell(g, a, b);
                expect.push(format!("{}[{},{}]", g.id, CLASSES[a], CLASSES[b]));
            }
            expect.sort();
            expect.dedup();
            let out = written(|c| write_union(c, shape.bits().unwrap(), vector.bits().unwrap()));
            let got: Vec<String> = serde_json::from_slice(&out[1..]).unwrap();
            assert_eq!(got, expect, "round {round}");
            let mut names = shape.names();
            names.extend(vector.names());
            names.sort_unstable();
            names.dedup();
            assert_eq!(written(|c| write_names(c, &names)), out);
        }
    }

    /// A shape's list merged with a vector's set equals the union written from bit sets, for
    /// random sets (empty ones, disjoint, overlapping, equal).
    #[test]
    fn merged_rule_lists_equal_the_union() {
        let mut r = Rng::for_vector(12, 0, 0);
        let (mut shape, mut vector) = (RuleSet::default(), RuleSet::default());
        let mut own = RuleList::default();
        let n = table().names.len();
        for round in 0..600 {
            shape.clear();
            vector.clear();
            for _ in 0..r.below(40) {
                shape.insert(r.below(n) as Id);
            }
            for _ in 0..r.below(12) {
                let i = if r.chance(1, 3) {
                    // Often one of the shape's.
                    let mut v = Vec::new();
                    shape.bits.for_each(|x| v.push(x));
                    v.get(r.below(v.len().max(1))).copied().unwrap_or(0)
                } else {
                    r.below(n)
                };
                vector.insert(i as Id);
            }
            let (a, b) = (shape.bits().unwrap(), vector.bits().unwrap());
            let expect = written(|c| write_union(c, a, b));
            own.set(a);
            let got = written(|c| own.write_with(c, a, b));
            assert_eq!(got, expect, "round {round}");
        }
    }

    /// A shape's list with fixed rules merged in once ([`insert_rules`]) and a vector's set
    /// without them give the list of the shape's set merged with the vector's set with them
    /// (and with any unnumbered fixed rule the merge is refused, the set left as it was).
    #[test]
    fn fixed_rules_in_the_shape_list_equal_them_in_the_vector_set() {
        let mut r = Rng::for_vector(14, 0, 0);
        let (mut shape, mut vector, mut with) =
            (RuleSet::default(), RuleSet::default(), RuleSet::default());
        let mut list = RuleList::default();
        let ids = crate::spec::ALL_IDS;
        for round in 0..600 {
            shape.clear();
            vector.clear();
            for _ in 0..r.below(40) {
                shape.push(ids[r.below(ids.len())].0);
            }
            let fixed: Vec<Rule> = (0..r.below(6))
                .map(|_| Rule::new(ids[r.below(ids.len())].0))
                .collect();
            for _ in 0..r.below(12) {
                vector.push(ids[r.below(ids.len())].0);
            }
            with.clear();
            for f in &fixed {
                with.push_rule(*f);
            }
            vector.bits.for_each(|i| with.insert(i as Id));
            let expect = written(|c| write_union(c, shape.bits().unwrap(), with.bits().unwrap()));
            let mut own = shape.bits().unwrap().clone();
            assert!(insert_rules(&mut own, &fixed));
            list.set(&own);
            let got = written(|c| list.write_with(c, &own, vector.bits().unwrap()));
            assert_eq!(got, expect, "round {round}");
        }
        let mut own = shape.bits().unwrap().clone();
        let before = own.clone();
        let unknown = [Rule::new(ids[0].0), Rule::new("no.such-id")];
        assert!(!insert_rules(&mut own, &unknown));
        assert_eq!(own, before);
    }

    /// A table row's rule is its ID's, found by the row's address; a row outside the table
    /// (or of a zero-sized type) by its ID.
    #[test]
    fn row_rules_are_the_rows_ids() {
        use crate::spec::conversions::{self, ConversionInfo};
        for c in conversions::CONVERSIONS.iter() {
            let r = row_rule!(ConversionInfo, conversions::CONVERSIONS, c);
            assert_eq!(r, Rule::new(c.id));
            assert!(r.number.is_some(), "{}", c.id);
            assert_eq!(r.name(), c.id);
        }
        for (i, g) in compare::GRIDS.iter().enumerate() {
            assert_eq!(row_index(&compare::GRIDS, g), Some(i));
            let r = row_rule!(GridInfo, compare::GRIDS[..2], g);
            assert_eq!(r, Rule::new(g.id));
            assert_eq!(row_index(&compare::GRIDS[..2], g).is_some(), i < 2);
        }
        let (rows, other) = ([1u32, 2, 3], [2u32]);
        assert_eq!(row_index(&rows, &rows[2]), Some(2));
        assert_eq!(row_index(&rows, &other[0]), None);
        assert_eq!(row_index(&[(), ()], &()), None);
        // The literal rules are the IDs'.
        assert_eq!(rule!("fp.ieee.default"), Rule::new("fp.ieee.default"));
        assert!(rule!("fp.ieee.default").number.is_some());
        let mut s = RuleSet::default();
        s.push_rule(rule!("op.src0-not-null"));
        s.push_rule(Rule::new("no.such-id"));
        assert_eq!(s.names(), ["no.such-id", "op.src0-not-null"]);
    }

    #[test]
    fn an_id_outside_the_table_takes_the_string_path() {
        let mut s = RuleSet::default();
        s.push("op.src0-not-null");
        assert!(s.bits().is_some());
        s.push("no.such-id");
        s.push("no.such-id");
        assert!(s.bits().is_none());
        assert_eq!(s.names(), ["no.such-id", "op.src0-not-null"]);
        s.clear();
        assert!(s.bits().is_some_and(|b| {
            let mut n = 0;
            b.for_each(|_| n += 1);
            n == 0
        }));
    }
}
