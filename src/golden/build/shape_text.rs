//! The text of a vector line that is the same for every vector of a shape, rendered once per
//! shape: the fields from `gen` to the opening of `initial` (the `insn` and `bytes` fields
//! included when they do not change per vector) and the shape's rule list, into which each
//! vector's own rules are merged ([`ids::RuleList`]); and which of the shape's registers
//! that may change lie in which ARF block.

use super::*;

/// A shape's constant line text.
#[derive(Default)]
pub(super) struct ShapeText {
    /// `","gen":"<gen>","op":"<op>"`, then, for a shape without an immediate (whose `insn`
    /// and `bytes` are the same for all its vectors), `,"insn":...,"bytes":...,"initial":{`.
    pub(super) head: Vec<u8>,
    /// The `insn` and `bytes` fields and `,"initial":{` are in `head`.
    pub(super) whole: bool,
    /// The shape's rules, when they are all numbered and the shape has several vectors (else
    /// empty, and the vectors write the union of the bit sets).
    pub(super) rules: ids::RuleList,
    /// `rules` holds the shape's rules.
    pub(super) listed: bool,
    /// The shape's rules with its plan's fixed ones, and whether `rules` lists them instead
    /// of the shape's ([`ShapeText::list_rules`], in `fixed_rules.rs`).
    pub(super) with_fixed: BitSet,
    pub(super) fixed_listed: bool,
    /// The GRF registers among the shape's candidates (bit `i`: candidate `i`).
    pub(super) grf_candidates: u64,
    /// Per ARF block: the ARF registers among the candidates with a byte in it.
    pub(super) block_candidates: Vec<u64>,
    /// The shape's placed form labels, rendered.
    pub(super) labels: PlacedText,
}

impl ShapeText {
    /// Render `shape`'s text into `self` (buffers reused; `base`: the states' platform and
    /// layout); its rule list only if it is `shared` by several vectors.
    pub(super) fn set(&mut self, base: &ThreadState, shape: &Shape, shared: bool) {
        let p = base.platform();
        let h = &mut self.head;
        h.clear();
        h.extend_from_slice(b"\",\"gen\":\"");
        h.extend_from_slice(p.name().as_bytes());
        h.extend_from_slice(b"\",\"op\":\"");
        h.extend_from_slice(shape.op_name.as_bytes());
        h.push(b'"');
        self.whole = shape.pre.as_ref().is_some_and(|p| !p.has_imm());
        if self.whole {
            h.extend_from_slice(&shape.text);
            h.extend_from_slice(INITIAL);
        }
        self.list_rules(shape, shared);
        self.grf_candidates = shape.grf_candidates;
        self.block_candidates.clear();
        self.block_candidates
            .extend_from_slice(&shape.block_candidates);
        self.labels.set(&shape.labels);
    }

    /// `shape`'s text, new, for one vector.
    pub(super) fn new(base: &ThreadState, shape: &Shape) -> ShapeText {
        let mut t = ShapeText::default();
        t.set(base, shape, false);
        t
    }
}

/// The opening of the `initial` object.
pub(super) const INITIAL: &[u8] = b",\"initial\":{";
