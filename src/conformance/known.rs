//! Arrays of strings already read whole, by their raw text: the vectors of one instruction
//! shape repeat one `rules` array, so a vector line that repeats a known array has it
//! recognised by one search for its end and one lookup instead of being read string by
//! string ([`super::json::Lexer::string_array_known`]), and the summary counts it by its
//! number ([`super::check::Summary::add_view_known`]).

use std::collections::HashMap;

/// Texts kept at most (later ones are read in full each time; numbers stay valid).
const CAP: usize = 1 << 14;

/// Raw texts (with their brackets) of arrays of strings read whole from plain texts
/// ([`super::json::is_plain`]), numbered from 0 in the order first seen.
#[derive(Debug, Default)]
pub struct KnownArrays {
    ids: HashMap<Box<str>, u32, foldhash::fast::RandomState>,
}

impl KnownArrays {
    /// The number of a known text.
    pub fn id(&self, raw: &str) -> Option<u32> {
        self.ids.get(raw).copied()
    }

    /// Remember `raw`, which was read whole as an array of strings in a plain text: its
    /// number (`None` when the set is full).
    pub(super) fn learn(&mut self, raw: &str) -> Option<u32> {
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
