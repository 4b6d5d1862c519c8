//! Field values already read whole, by their raw text: the vectors of one instruction shape
//! repeat one `rules` array, one `dst` and usually one `alternatives` array, so a vector line
//! that repeats a known value has it recognised by one search for its end and one lookup
//! instead of being read piece by piece ([`super::json::Lexer::known_value`]), and the
//! summary counts a known `rules` array by its number
//! ([`super::check::Summary::add_view_known`]).

use std::collections::HashMap;

/// Texts kept at most per field (later ones are read in full each time; numbers stay
/// valid).
const CAP: usize = 1 << 14;

/// Raw texts of values of one field read whole (and found valid) in plain texts
/// ([`super::json::is_plain`]), numbered from 0 in the order first seen.
#[derive(Debug, Default)]
pub struct KnownTexts {
    ids: HashMap<Box<str>, u32, foldhash::fast::RandomState>,
}

impl KnownTexts {
    /// The number of a known text.
    pub fn id(&self, raw: &str) -> Option<u32> {
        self.ids.get(raw).copied()
    }

    /// Remember `raw`, a whole value of the field read in a plain text: its number (`None`
    /// when the set is full).
    pub fn learn(&mut self, raw: &str) -> Option<u32> {
        if let Some(id) = self.id(raw) {
            return Some(id);
        }
        if self.ids.len() >= CAP {
            return None;
        }
        let id = self.ids.len() as u32;
        self.ids.insert(raw.into(), id);
        Some(id)
    }

    /// The texts and their numbers.
    pub fn texts(&self) -> impl Iterator<Item = (&str, u32)> {
        self.ids.iter().map(|(t, id)| (t.as_ref(), *id))
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

/// The known values of the vector fields that repeat per instruction shape.
#[derive(Debug, Default)]
pub struct KnownFields {
    pub rules: KnownTexts,
    pub dst: KnownTexts,
    pub alternatives: KnownTexts,
}
