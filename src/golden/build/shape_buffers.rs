//! The buffers of a shape, reused: by the shape that replaces it (mov, add and mul build a
//! shape for every vector; it takes the box too), and through a per-thread pool by the shapes
//! of the next task (each task starts without shapes), so that a shape's allocations are not a
//! good part of its cost.

use super::super::bitset::BitSet;
use super::super::ids::Rule;
use super::super::values::PlacedLabel;
use super::{RegRef, Shape};
use crate::spec::rules::RuleMask;
use std::cell::RefCell;
use std::mem::take;
use std::rc::Rc;

/// A shape's vectors, empty (but `labels`, whose strings [`super::shape_tables::place_into`]
/// overwrites).
#[derive(Default)]
pub(super) struct Buffers {
    /// The room of the set of rule ID numbers (unless shared), and the rules it holds.
    pub(super) rule_bits: Option<Rc<BitSet>>,
    pub(super) rule_mask: RuleMask,
    pub(super) label_ranks: Vec<u16>,
    pub(super) labels: Vec<PlacedLabel>,
    pub(super) text: Vec<u8>,
    pub(super) grf: Vec<u8>,
    pub(super) initial: Vec<RegRef>,
    pub(super) candidates: Vec<RegRef>,
    pub(super) blocks: Vec<u64>,
    pub(super) dst: Vec<u8>,
    /// The room of the tagging plan's rules.
    pub(super) tag_rules: Vec<Rule>,
}

/// Buffers kept per thread at most (a task holds one shape per opcode).
const POOL_MAX: usize = 256;

thread_local! {
    /// The buffers of the shapes dropped on this thread, emptied.
    static POOL: RefCell<Vec<Buffers>> = const { RefCell::new(Vec::new()) };
}

impl Buffers {
    /// Buffers for a new shape: those of `old` (taken, left empty), or of a shape dropped
    /// before, or new ones.
    pub(super) fn of(old: Option<&mut Shape>) -> Buffers {
        if let Some(s) = old {
            return Buffers::take(s);
        }
        POOL.try_with(|p| p.try_borrow_mut().ok()?.pop())
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// The buffers of `s`, left empty.
    fn take(s: &mut Shape) -> Buffers {
        Buffers {
            rule_bits: s.rule_bits.take(),
            rule_mask: s.rule_mask,
            label_ranks: take(&mut s.label_ranks),
            labels: take(&mut s.labels),
            text: take(&mut s.text),
            grf: take(&mut s.grf),
            initial: take(&mut s.initial),
            candidates: take(&mut s.candidates),
            blocks: take(&mut s.block_candidates),
            dst: take(&mut s.dst),
            tag_rules: s.tags.take_room(),
        }
    }

    /// The buffers of `s` (left empty), emptied, into the pool.
    pub(super) fn recycle(s: &mut Shape) {
        let mut b = Buffers::take(s);
        b.clear();
        // (At thread exit the pool may be gone: the buffers are then freed.)
        let _ = POOL.try_with(|p| {
            if let Ok(mut p) = p.try_borrow_mut() {
                if p.len() < POOL_MAX {
                    p.push(b);
                }
            }
        });
    }

    /// Empty every buffer but `labels` (for another attempt).
    pub(super) fn clear(&mut self) {
        self.label_ranks.clear();
        self.text.clear();
        self.grf.clear();
        self.initial.clear();
        self.candidates.clear();
        self.blocks.clear();
        self.dst.clear();
        self.tag_rules.clear();
    }
}
