//! The buffers of a shape, reused by the shape that replaces it: mov, add and mul build a
//! shape for every vector, so the shape's allocations would otherwise be a good part of its
//! cost.

use super::super::values::PlacedLabel;
use super::{RegRef, Shape};

/// A shape's vectors, empty (but `labels`, whose strings [`super::shape_tables::place_into`]
/// overwrites).
#[derive(Default)]
pub(super) struct Buffers {
    pub(super) rules: Vec<&'static str>,
    pub(super) label_ranks: Vec<u16>,
    pub(super) labels: Vec<PlacedLabel>,
    pub(super) text: Vec<u8>,
    pub(super) grf: Vec<u8>,
    pub(super) initial: Vec<RegRef>,
    pub(super) candidates: Vec<RegRef>,
    pub(super) dst: Vec<u8>,
}

impl Buffers {
    /// The buffers of `old`, or new ones.
    pub(super) fn of(old: Option<Box<Shape>>) -> Buffers {
        let Some(old) = old else {
            return Buffers::default();
        };
        let Shape {
            mut rules,
            mut label_ranks,
            labels,
            mut text,
            mut grf,
            mut initial,
            mut candidates,
            mut dst,
            ..
        } = *old;
        rules.clear();
        label_ranks.clear();
        text.clear();
        grf.clear();
        initial.clear();
        candidates.clear();
        dst.clear();
        Buffers {
            rules,
            label_ranks,
            labels,
            text,
            grf,
            initial,
            candidates,
            dst,
        }
    }

    /// Empty every buffer but `labels` (for another attempt).
    pub(super) fn clear(&mut self) {
        self.rules.clear();
        self.label_ranks.clear();
        self.text.clear();
        self.grf.clear();
        self.initial.clear();
        self.candidates.clear();
        self.dst.clear();
    }
}
