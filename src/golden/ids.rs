//! Spec IDs as numbers for the vector writer: every row ID of spec/ (`spec::ALL_IDS`) and every
//! compare grid cell (`cmp.g[+inf,NaN]`), numbered in name order. A vector's rules are then a
//! bit set ([`RuleSet`]), united with its shape's and written in order by copying each ID's
//! pre-rendered JSON string: no string sorting or comparison per vector. An ID outside the
//! table (none is known) is kept as a string and the vector takes the string path.

use crate::spec::compare::{self, GridInfo, CLASSES};
use std::collections::HashMap;
use std::sync::OnceLock;

/// An ID's number: its rank in name order.
pub(crate) type Id = u16;

/// Every ID, its JSON string and its number.
struct IdTable {
    /// The names in order.
    names: Vec<&'static str>,
    /// `"<id>"` of each ID, concatenated in order; ID `i` is `json[starts[i]..starts[i + 1]]`.
    json: Vec<u8>,
    starts: Vec<u32>,
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
        let mut json = Vec::new();
        let mut starts = vec![0u32];
        for n in &names {
            super::format::fast::plain(&mut json, n);
            starts.push(json.len() as u32);
        }
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
            json,
            starts,
            by_name,
            cells,
        }
    })
}

/// Words of a bit set over every ID.
fn words() -> usize {
    table().names.len().div_ceil(64)
}

/// A set of spec IDs: numbered ones as bits, any other as a string. `push` looks an ID up by
/// its address first (a small per-set cache: the IDs are `'static` strings from a few hundred
/// places), by its text the first time.
pub(crate) struct RuleSet {
    bits: Vec<u64>,
    /// IDs outside the table (expected empty).
    pub(crate) unknown: Vec<&'static str>,
    /// Open addressing: (address, length, number or [`NONE`]), address 0 = free.
    cache: Vec<(usize, usize, u32)>,
    cached: usize,
}

/// Cache entry of a string outside the table.
const NONE: u32 = u32::MAX;
/// Cache slots (a power of two; at most three quarters used).
const CACHE: usize = 2048;

impl Default for RuleSet {
    fn default() -> RuleSet {
        RuleSet {
            bits: vec![0; words()],
            unknown: Vec::new(),
            cache: vec![(0, 0, 0); CACHE],
            cached: 0,
        }
    }
}

impl RuleSet {
    /// Add `id`.
    #[inline]
    pub(crate) fn push(&mut self, id: &'static str) {
        match self.number(id) {
            Some(i) => self.insert(i),
            None => {
                if !self.unknown.contains(&id) {
                    self.unknown.push(id);
                }
            }
        }
    }

    /// Add the cell `(a, b)` of grid `g` (`cmp.g[+inf,NaN]`).
    #[inline]
    pub(crate) fn push_cell(&mut self, g: &GridInfo, a: usize, b: usize) {
        let gi = compare::GRIDS
            .iter()
            .position(|x| std::ptr::eq(x, g))
            .unwrap_or(0);
        if let Some(&i) = table().cells.get(gi * 81 + a * 9 + b) {
            self.insert(i);
        }
    }

    #[inline]
    fn insert(&mut self, i: Id) {
        let i = usize::from(i);
        if let Some(w) = self.bits.get_mut(i / 64) {
            *w |= 1 << (i % 64);
        }
    }

    /// The number of `id` (None: not in the table).
    #[inline]
    fn number(&mut self, id: &'static str) -> Option<Id> {
        let (a, n) = (id.as_ptr() as usize, id.len());
        let mut h = (a.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) & (CACHE - 1);
        loop {
            let (sa, sn, v) = self.cache[h];
            if sa == a && sn == n {
                return (v != NONE).then_some(v as Id);
            }
            if sa == 0 {
                break;
            }
            h = (h + 1) & (CACHE - 1);
        }
        let v = table().by_name.get(id).copied();
        if self.cached < CACHE * 3 / 4 && a != 0 {
            self.cache[h] = (a, n, v.map_or(NONE, u32::from));
            self.cached += 1;
        }
        v
    }

    /// Empty the set (keeps the cache).
    pub(crate) fn clear(&mut self) {
        self.bits.fill(0);
        self.unknown.clear();
    }

    /// Every member's name, sorted.
    pub(crate) fn names(&self) -> Vec<&'static str> {
        let t = table();
        let mut v: Vec<&'static str> = members(&self.bits).map(|i| t.names[i]).collect();
        v.extend(self.unknown.iter().copied());
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The set as bits (for [`write_union`]), None when it holds an ID outside the table.
    pub(crate) fn bits(&self) -> Option<&[u64]> {
        self.unknown.is_empty().then_some(&self.bits[..])
    }
}

/// The numbers of the set bits of `bits`, ascending.
fn members(bits: &[u64]) -> impl Iterator<Item = usize> + '_ {
    bits.iter().enumerate().flat_map(|(w, &x)| {
        let mut x = x;
        std::iter::from_fn(move || {
            (x != 0).then(|| {
                let b = x.trailing_zeros() as usize;
                x &= x - 1;
                w * 64 + b
            })
        })
    })
}

/// Append the IDs of `a ∪ b` as comma-separated JSON strings in name order (`a` and `b`: bit
/// sets of [`RuleSet::bits`]).
#[inline]
pub(crate) fn write_union(out: &mut Vec<u8>, a: &[u64], b: &[u64]) {
    let t = table();
    let mut first = true;
    for (w, (&x, &y)) in a.iter().zip(b).enumerate() {
        let mut x = x | y;
        while x != 0 {
            let i = w * 64 + x.trailing_zeros() as usize;
            x &= x - 1;
            if !first {
                out.push(b',');
            }
            first = false;
            let (s, e) = (t.starts[i] as usize, t.starts[i + 1] as usize);
            out.extend_from_slice(&t.json[s..e]);
        }
    }
}

/// Append the names of `items` (sorted, unique strings) as comma-separated JSON strings.
pub(crate) fn write_names(out: &mut Vec<u8>, items: &[&str]) {
    for (i, s) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        super::format::fast::plain(out, s);
    }
}
