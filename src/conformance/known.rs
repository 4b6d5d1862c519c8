//! Field values already read whole, by their raw text: the vectors of one instruction shape
//! repeat one `rules` array, one `dst` and usually one `alternatives` array, so a vector line
//! that repeats a known value has it recognised by one search for its end and one lookup
//! instead of being read piece by piece ([`super::json::Lexer::known_value`]), and the
//! summary counts a known `rules` array by its number
//! ([`super::check::Summary::add_view_known`]). A known `rules` array keeps the numbers of its
//! rules ([`RuleSets`], taken from the read that learned it), so the summary spreads its
//! counts without reading the text again, and the arrays last seen with an instruction
//! encoding are tried first ([`KnownFields::shape_rules`]).

use std::collections::HashMap;
use std::hash::BuildHasher;

type FastHash = foldhash::fast::RandomState;

/// Texts kept at most per field (later ones are read in full each time; numbers stay
/// valid).
const CAP: usize = 1 << 14;

/// Raw texts of values of one field read whole (and found valid) in plain texts
/// ([`super::json::is_plain`]), numbered from 0 in the order first seen.
#[derive(Debug, Default)]
pub struct KnownTexts {
    /// A text's hash -> its number (a second text with the same hash is not kept).
    ids: HashMap<u64, u32, FastHash>,
    /// The texts one after the other (one allocation growing by doubling, not one per
    /// text: the checker's reader learns thousands of `rules` texts of about 800 bytes).
    all: String,
    /// Where each text ends in `all` (it starts where the one before ends).
    ends: Vec<usize>,
    hasher: FastHash,
}

impl KnownTexts {
    /// The number of a known text.
    pub fn id(&self, raw: &str) -> Option<u32> {
        let id = *self.ids.get(&self.hasher.hash_one(raw))?;
        (self.text(id)? == raw).then_some(id)
    }

    /// The text of number `id`.
    pub fn text(&self, id: u32) -> Option<&str> {
        let id = id as usize;
        let end = *self.ends.get(id)?;
        let start = if id == 0 { 0 } else { self.ends[id - 1] };
        Some(&self.all[start..end])
    }

    /// Remember `raw`, a whole value of the field read in a plain text: its number (`None`
    /// when the set is full or another text has its hash).
    pub fn learn(&mut self, raw: &str) -> Option<u32> {
        let h = self.hasher.hash_one(raw);
        if let Some(&id) = self.ids.get(&h) {
            return (self.text(id)? == raw).then_some(id);
        }
        if self.ends.len() >= CAP {
            return None;
        }
        let id = self.ends.len() as u32;
        self.ids.insert(h, id);
        self.all.push_str(raw);
        self.ends.push(self.all.len());
        Some(id)
    }

    /// The texts and their numbers.
    pub fn texts(&self) -> impl Iterator<Item = (&str, u32)> {
        (0..self.len() as u32).filter_map(|id| Some((self.text(id)?, id)))
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}

/// The rules of known `rules` arrays, numbered: per array (by its number in the
/// [`KnownTexts`]) the numbers of its strings in order, duplicates included.
#[derive(Debug, Default)]
pub struct RuleSets {
    names: Vec<Box<str>>,
    index: HashMap<Box<str>, u32, FastHash>,
    /// Per known array: its rules (`None`: not recorded; the summary reads the text).
    members: Vec<Option<Box<[u32]>>>,
    /// Scratch: the strings of the array being read (start, end of each body).
    pub(super) spans: Vec<(usize, usize)>,
}

impl RuleSets {
    /// Record the strings of known array `id` (the bodies `spans` of `text`, a part of the
    /// line the array was read from) once.
    pub(super) fn record(&mut self, id: u32, text: &str) {
        let id = id as usize;
        if self.members.len() <= id {
            self.members.resize(id + 1, None);
        }
        if self.members[id].is_some() {
            return;
        }
        let mut m = Vec::with_capacity(self.spans.len());
        for &(s, e) in &self.spans {
            let name = &text[s..e];
            let n = match self.index.get(name) {
                Some(&n) => n,
                None => {
                    let n = self.names.len() as u32;
                    self.names.push(name.into());
                    self.index.insert(name.into(), n);
                    n
                }
            };
            m.push(n);
        }
        self.members[id] = Some(m.into());
    }

    /// The rules of known array `id`, when recorded.
    pub fn members(&self, id: u32) -> Option<&[u32]> {
        self.members.get(id as usize)?.as_deref()
    }

    /// The name of rule number `n`.
    pub fn name(&self, n: u32) -> &str {
        &self.names[n as usize]
    }

    /// The number of rule names.
    pub fn name_count(&self) -> usize {
        self.names.len()
    }
}

/// Known `rules` arrays tried first per instruction encoding (most recent first).
const SHAPE_WAYS: usize = 4;

/// No known text.
const NONE: u32 = u32::MAX;

/// The known values last read with one instruction encoding.
#[derive(Debug, Clone, Copy)]
struct ShapeValues {
    rules: [u32; SHAPE_WAYS],
    dst: u32,
    alternatives: u32,
}

/// A field whose values repeat per instruction shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShapeField {
    Dst,
    Alternatives,
}

/// The known values of the vector fields that repeat per instruction shape.
#[derive(Debug, Default)]
pub struct KnownFields {
    pub rules: KnownTexts,
    pub rule_sets: RuleSets,
    pub dst: KnownTexts,
    pub alternatives: KnownTexts,
    /// Per hash of a `bytes` text ([`KnownFields::shape_key`]): the known values last read
    /// with it (a guess: a value is taken only where the line continues with its text).
    by_shape: HashMap<u64, ShapeValues, FastHash>,
    hasher: FastHash,
}

impl KnownFields {
    /// The key of an instruction encoding's `bytes` text.
    pub fn shape_key(&self, bytes: &str) -> u64 {
        self.hasher.hash_one(bytes)
    }

    /// The known `rules` arrays last read with encoding `shape` (most recent first).
    pub fn shape_rules(&self, shape: u64) -> impl Iterator<Item = (u32, &str)> {
        self.by_shape
            .get(&shape)
            .into_iter()
            .flat_map(|s| s.rules)
            .filter_map(|id| Some((id, self.rules.text(id)?)))
    }

    /// The known `field` value last read with encoding `shape`.
    pub fn shape_value(&self, shape: u64, field: ShapeField) -> Option<&str> {
        let s = self.by_shape.get(&shape)?;
        match field {
            ShapeField::Dst => self.dst.text(s.dst),
            ShapeField::Alternatives => self.alternatives.text(s.alternatives),
        }
    }

    fn shape_mut(&mut self, shape: u64) -> Option<&mut ShapeValues> {
        if self.by_shape.len() >= CAP && !self.by_shape.contains_key(&shape) {
            return None;
        }
        Some(self.by_shape.entry(shape).or_insert(ShapeValues {
            rules: [NONE; SHAPE_WAYS],
            dst: NONE,
            alternatives: NONE,
        }))
    }

    /// Note that encoding `shape` came with known `rules` array `id`.
    pub fn note_shape_rules(&mut self, shape: u64, id: u32) {
        if let Some(s) = self.shape_mut(shape) {
            let ways = &mut s.rules;
            let at = ways.iter().position(|&w| w == id).unwrap_or(SHAPE_WAYS - 1);
            ways.copy_within(0..at, 1);
            ways[0] = id;
        }
    }

    /// Note that encoding `shape` came with known `field` value number `id`.
    pub fn note_shape_value(&mut self, shape: u64, field: ShapeField, id: u32) {
        if let Some(s) = self.shape_mut(shape) {
            match field {
                ShapeField::Dst => s.dst = id,
                ShapeField::Alternatives => s.alternatives = id,
            }
        }
    }
}
