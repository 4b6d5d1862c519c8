//! [`Applied`]: the set of spec/float_modes.toml rows that acted on a result.

use crate::spec::float_modes::{FpRuleInfo, RULES};
use std::fmt;
use std::sync::OnceLock;

/// A set of rows of `float_modes::RULES`, by position (a bit per row). Rows beyond the 128th
/// cannot be recorded; tests/float/float_env.rs checks the table stays within that.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Applied(u128);

/// Capacity of the set.
pub(crate) const CAPACITY: usize = 128;

impl Applied {
    /// The empty set.
    pub const NONE: Applied = Applied(0);

    /// Add the row at position `i` of `RULES` (ignored beyond the capacity).
    #[inline]
    pub(crate) fn add_index(&mut self, i: u8) {
        if (i as usize) < CAPACITY {
            self.0 |= 1u128 << i;
        }
    }

    /// Add an optional row position.
    #[inline]
    pub(crate) fn add(&mut self, i: Option<u8>) {
        if let Some(i) = i {
            self.add_index(i);
        }
    }

    /// Add the row with ID `id` (no effect when there is none).
    pub fn add_id(&mut self, id: &str) {
        if let Some(i) = index_of(id) {
            self.add_index(i);
        }
    }

    /// Add the row `r` names (no effect when there is none): [`Self::add_id`] with the row's
    /// position looked up once per process.
    #[inline]
    pub(crate) fn add_row(&mut self, r: &RowId) {
        self.add(r.index());
    }

    /// The union of two sets.
    #[inline]
    pub fn union(self, other: Applied) -> Applied {
        Applied(self.0 | other.0)
    }

    /// Whether the row with ID `id` is in the set.
    pub fn contains(&self, id: &str) -> bool {
        self.ids().any(|x| x == id)
    }

    /// No row recorded.
    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }

    /// Number of rows recorded.
    pub fn len(&self) -> usize {
        self.0.count_ones() as usize
    }

    /// The rows, in table order.
    pub fn rows(&self) -> impl Iterator<Item = &'static FpRuleInfo> + '_ {
        let bits = self.0;
        RULES
            .iter()
            .take(CAPACITY)
            .enumerate()
            .filter(move |(i, _)| bits >> i & 1 != 0)
            .map(|(_, r)| r)
    }

    /// The row IDs, in table order.
    pub fn ids(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.rows().map(|r| r.id)
    }
}

impl fmt::Debug for Applied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.ids()).finish()
    }
}

/// A row of `RULES` named by its ID, its position found on first use (the per-result paths
/// record rows without scanning the table each time).
pub(crate) struct RowId {
    id: &'static str,
    at: OnceLock<Option<u8>>,
}

impl RowId {
    /// The row with ID `id`.
    pub(crate) const fn new(id: &'static str) -> RowId {
        RowId {
            id,
            at: OnceLock::new(),
        }
    }

    /// Its position in `RULES` ([`index_of`]).
    #[inline]
    pub(crate) fn index(&self) -> Option<u8> {
        *self.at.get_or_init(|| index_of(self.id))
    }
}

/// Position of the row `id` in `RULES`.
pub(crate) fn index_of(id: &str) -> Option<u8> {
    RULES
        .iter()
        .take(CAPACITY)
        .position(|r| r.id == id)
        .and_then(|i| u8::try_from(i).ok())
}

/// The row with ID `id`.
pub(crate) fn row(id: &str) -> Option<&'static FpRuleInfo> {
    RULES.iter().find(|r| r.id == id)
}
