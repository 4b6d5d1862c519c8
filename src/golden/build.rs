//! Building vectors: an instruction *shape* (template, validation, text, encoding, the rule IDs
//! of the instruction) is built once and gives [`PER_SHAPE`] vectors with different values;
//! each vector fills the initial state, executes the instruction on the reference model and
//! writes its JSON line straight into a byte buffer ([`format::fast`](super::format::fast)):
//! the changed registers, their undefined bits, the allowed alternatives and the spec IDs
//! exercised. Per-thread states are reused: only the registers a vector touched are reset.
//!
//! Determinism: vector `i` depends only on the seed and `i` (its shape on the seed, its opcode
//! and its shape rank; its values on [`Rng::for_vector`]`(seed, i, ..)`).

use super::bitset::BitSet;
use super::format::fast::{self, Lines};
use super::format::{AltKind, Vector};
use super::ids::{self, RuleSet};
use super::operands::Operands;
use super::regtext::{RegKeys, GRF_KEYS};
use super::template::{self, Built, OpSel, RegionRules};
use super::values::{self, float_class, ClassSet, PlacedLabel, PlacedText, Rng};
use crate::asm::{print_insn, Dialect, PrintOptions};
use crate::exec::{ExecOptions, Prepared};
use crate::float::{FloatEnv, FloatType, Policy};
use crate::isa::{Addr, Insn, Reg, Src};
use crate::spec::compare::{self, GridCond, GridKind};
use crate::spec::rules::RuleMask;
use crate::spec::{conversions, CondMod, DataType, FpEffect, FpOps, MathFn, Opcode, Platform};
use crate::state::ThreadState;

/// What to generate.
#[derive(Debug, Clone)]
pub struct GenConfig {
    pub platform: Platform,
    pub ops: Vec<OpSel>,
    /// Data types allowed (empty: all).
    pub types: Vec<DataType>,
    pub seed: u64,
    /// The default state of the platform (`ThreadState::new`): every vector starts from it.
    pub base: ThreadState,
}

impl GenConfig {
    /// Every supported opcode of `p`, every type.
    pub fn new(platform: Platform, seed: u64) -> GenConfig {
        GenConfig {
            platform,
            ops: template::default_ops(platform),
            types: Vec::new(),
            seed,
            base: ThreadState::new(platform),
        }
    }
}

/// Attempts per shape (a template the validator or the encoder refuses) and per vector (values
/// the engine refuses) before giving up.
const ATTEMPTS: u32 = 16;

/// Vectors per instruction shape: the vectors of rank `k` of an opcode share the shape of rank
/// `k / PER_SHAPE` (`mov`, `add` and `mul`: fewer, see [`per_shape`]).
pub const PER_SHAPE: u64 = 16;

/// Vectors per shape of `sel`: [`PER_SHAPE`], but 1 for `mov`, whose many type pairs (the
/// conversion rows, raw moves, packed byte destinations) need every shape of a default run to
/// be covered (at 2, `fp.alt.raw-mov` goes uncovered on bdw and skl for some seeds), and 4 for
/// `add` and `mul`, whose many type pairs would otherwise leave too few F shapes in ALT mode
/// for the ALT rows their special operands show (`fp.alt.dismissed.inf-minus-inf`,
/// `fp.alt.dismissed.times-zero`). At 4 (1 before session 15), the `--coverage` report of a
/// default run is unchanged on every platform for seeds 0-3 (and bdw, skl, ivb and chv for
/// seeds 4-9), and the fewer shapes (about 12 k instructions each) save 3% of a default run.
pub fn per_shape(sel: OpSel) -> u64 {
    if matches!(sel, OpSel::Op(Opcode::Mov)) {
        1
    } else if matches!(sel, OpSel::Op(Opcode::Add | Opcode::Mul)) {
        4
    } else {
        PER_SHAPE
    }
}

/// Salt of the shape generators (distinct from the value generators of the same index).
const SHAPE_SALT: u64 = 0x9d3c_5a17_e2b4_6f01;

/// Vector `index` of the run (None: no instruction of the selection could be built).
pub fn vector(cfg: &GenConfig, index: u64) -> Option<Vector> {
    vector_counted(cfg, index, &mut 0)
}

/// [`vector`], counting in `rejected` the built instructions that the validator refused
/// (a template shape that broke a rule of spec/rules; the next attempt builds another).
pub fn vector_counted(cfg: &GenConfig, index: u64, rejected: &mut u32) -> Option<Vector> {
    let mut w = Work::new(cfg);
    let mut line = Lines::default();
    let mut n = 0u64;
    let ok = w.line(cfg, index, &mut line, &mut n);
    *rejected += n as u32;
    ok.then(|| serde_json::from_slice(line.as_bytes()).ok())
        .flatten()
}

mod emit;
mod exercised;
mod fill;
mod fixed_rules;
mod shape;
mod shape_buffers;
mod shape_tables;
mod shape_text;
mod slot;

use emit::{alternatives, grf_name, has_undef, lower, reg_entries, reg_entry, reg_view, same_arf};
use exercised::{denorm_sensitive, src_offset, state_env, Alt, TagPlan};
pub(crate) use exercised::{dst_elem, src_value};
use fill::{grf_base, Filler, SrcFill};
use shape::Shape;
use shape_text::{ShapeText, INITIAL};
use slot::{changed_regs, grf_reg, Blocks, Slot};

/// The spec rows instruction `insn` exercises executed from `before` to `after` on the
/// channels `enabled`, as a single-instruction vector of it lists them (its tag plan made and
/// applied to these values): what `euref check` names for the instruction where a program
/// vector's run first differs (conformance/README.md, "Checking program vectors").
pub fn rows_exercised(
    insn: &Insn,
    before: &ThreadState,
    after: &ThreadState,
    enabled: u32,
) -> Vec<&'static str> {
    let p = before.platform();
    let float = insn.dst.is_some_and(|d| d.ty.is_float())
        || insn.src.iter().flatten().any(|s| s.ty().is_float());
    let cr0 = before.arf_dword("cr0", 0).map_or(0, |(v, _)| v);
    let env = FloatEnv::from_cr0(p, cr0);
    let plan = TagPlan::new(insn, denorm_sensitive(p, float, cr0), env, Vec::new());
    let mut rules = RuleSet::default();
    plan.push_fixed(&mut rules);
    let mut alts = Vec::new();
    plan.apply_values(
        insn,
        before,
        after,
        enabled,
        &mut Operands::new(),
        &mut rules,
        &mut alts,
    );
    rules.names()
}

/// A register of a vector: GRF `r<n>` or ARF register `i` of the layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RegRef {
    Grf(u8),
    Arf(usize),
}

impl RegRef {
    /// The index of its key in [`RegKeys`].
    #[inline]
    fn key(self) -> usize {
        match self {
            RegRef::Grf(n) => usize::from(n),
            RegRef::Arf(i) => GRF_KEYS + i,
        }
    }
}

/// Per-thread (per task) generation state: the base state and three working copies, the
/// shapes of the opcodes, and the buffers of one vector.
pub struct Work {
    base: ThreadState,
    st: Slot,
    after: Slot,
    /// Per opcode of the selection: the rank of the cached shape and the shape.
    shapes: Vec<Option<(u64, Option<Box<Shape>>)>>,
    /// Per opcode of the selection: the constant text of its cached shape (boxed: taken out
    /// for each vector by moving a pointer).
    texts: Vec<Option<Box<ShapeText>>>,
    /// `{"v":<FORMAT_VERSION>,"id":"<gen>-<seed hex>-`.
    id_head: Vec<u8>,
    /// The value labels of the current vector.
    classes: ClassSet,
    /// The value drawing.
    fill: Filler,
    /// The `insn` and `bytes` fields of a vector with an immediate.
    insn_text: Vec<u8>,
    /// The texts of the alternatives' error bounds.
    floats: fast::FloatTexts,
    /// The rule IDs of the current vector (also used to number a shape's).
    rules: RuleSet,
    alts: Vec<Alt>,
    /// The operand values of the current vector (for its rules).
    vals: Box<Operands>,
    arf_f: [Option<usize>; 2],
    arf_acc: [Option<usize>; 2],
    arf_cr0: Option<usize>,
    /// The ARF blocks `st` has changed (and since reverted) since `after` last followed it.
    arf_moved: Blocks,
    /// The ARF registers a vector may change (all but ip and null), sorted by name.
    arf_sorted: Vec<(String, usize)>,
    /// The registers' JSON keys.
    keys: RegKeys,
}

impl Work {
    pub fn new(cfg: &GenConfig) -> Work {
        let slot = || Slot::new(&cfg.base);
        let ix = |n: &str| cfg.base.arf_index(n);
        Work {
            base: cfg.base.clone(),
            st: slot(),
            after: slot(),
            shapes: (0..cfg.ops.len()).map(|_| None).collect(),
            texts: (0..cfg.ops.len()).map(|_| None).collect(),
            id_head: {
                let mut h =
                    format!("{{\"v\":{},\"id\":\"", super::format::FORMAT_VERSION).into_bytes();
                h.extend_from_slice(cfg.platform.name().as_bytes());
                h.push(b'-');
                fast::uint_hex(&mut h, cfg.seed);
                h.push(b'-');
                h
            },
            classes: ClassSet::default(),
            fill: Filler::default(),
            insn_text: Vec::new(),
            floats: fast::FloatTexts::default(),
            rules: RuleSet::default(),
            alts: Vec::new(),
            vals: Box::new(Operands::new()),
            arf_f: [ix("f0"), ix("f1")],
            arf_acc: [ix("acc0"), ix("acc1")],
            arf_cr0: ix("cr0"),
            arf_moved: Blocks::EMPTY,
            arf_sorted: {
                let mut v: Vec<(String, usize)> = cfg
                    .base
                    .layout
                    .regs
                    .iter()
                    .enumerate()
                    .filter(|(_, x)| x.name != "ip" && x.name != "null" && x.bytes <= 64)
                    .map(|(i, x)| (x.name.clone(), i))
                    .collect();
                v.sort();
                v
            },
            keys: RegKeys::new(&cfg.base),
        }
    }

    /// Append vector `index`'s JSON line (with its newline) to `out`; false (nothing
    /// appended) when no vector could be built. `rejected` counts the shapes the validator
    /// refused.
    pub fn line(
        &mut self,
        cfg: &GenConfig,
        index: u64,
        out: &mut Lines,
        rejected: &mut u64,
    ) -> bool {
        if cfg.ops.is_empty() {
            return false;
        }
        let nops = cfg.ops.len() as u64;
        let oi = (index % nops) as usize;
        let k = index / nops;
        let ps = per_shape(cfg.ops[oi]);
        let (s, j) = (k / ps, k % ps);
        if !matches!(self.shapes[oi], Some((r, _)) if r == s) {
            let sh = self.shape(cfg, oi, s, rejected);
            if let Some(sh) = &sh {
                let text = self.texts[oi].get_or_insert_with(Box::default);
                text.set(&self.base, sh, ps > 1);
            }
            self.shapes[oi] = Some((s, sh));
        }
        let Some((_, Some(shape))) = self.shapes[oi].take() else {
            return false;
        };
        // (Set with the shape; rendered here only if it ever were not.)
        let text =
            (self.texts[oi].take()).unwrap_or_else(|| Box::new(ShapeText::new(&self.base, &shape)));
        let mut ok = false;
        for attempt in 0..ATTEMPTS {
            let mut r = Rng::for_vector(cfg.seed, index, attempt);
            let mark = out.len();
            if self
                .assemble(cfg, index, (&shape, &text), j, &mut r, out)
                .is_some()
            {
                ok = true;
                break;
            }
            out.truncate(mark);
        }
        self.shapes[oi] = Some((s, Some(shape)));
        self.texts[oi] = Some(text);
        if !ok {
            // Values the engine refuses on every attempt (rare): a shape of this vector's own.
            let mut n = 0;
            for first in 1..ATTEMPTS {
                let Some(shape) = self.shape_from(cfg, oi, s, index, first, &mut n) else {
                    break;
                };
                let text = ShapeText::new(&self.base, &shape);
                let mut r = Rng::for_vector(cfg.seed, index, ATTEMPTS + first);
                let mark = out.len();
                if self
                    .assemble(cfg, index, (&shape, &text), j, &mut r, out)
                    .is_some()
                {
                    return true;
                }
                out.truncate(mark);
            }
        }
        ok
    }
}

impl Work {
    /// One vector of `shape` (`j`: its rank within the shape, `text`: its constant text) with
    /// the values of `r`.
    fn assemble(
        &mut self,
        cfg: &GenConfig,
        index: u64,
        (shape, text): (&Shape, &ShapeText),
        j: u64,
        r: &mut Rng,
        out: &mut Lines,
    ) -> Option<()> {
        let p = cfg.platform;
        let b = &shape.b;
        // (The instruction is copied only to set its immediates.)
        let mut with_imms: Option<Insn> = None;
        self.classes.clear();
        self.fill.begin();
        // (The only ARF writes to `st` are those of `Slot::set_arf`, which notes them; what
        // the reset reverts and what this vector writes is where `after` must follow.)
        self.arf_moved = self.arf_moved.union(self.st.arf_dirty);
        let tracked = slot::RegSet::of(&shape.grf);
        self.st.reset_to_same(&self.base, &tracked);
        let st = &mut self.st.st;
        // Sources: whole registers of random bits, then typed values (labelled) in the
        // elements the instruction reads (all of them where these cannot be told).
        for f in &shape.src_fills {
            if let SrcFill::Grf { regs, covered, .. } = *f {
                if covered {
                    Filler::skip_raw(regs.1, r);
                } else {
                    Filler::raw(st, regs.0, regs.1, r)?;
                }
            }
        }
        for (i, f) in shape.src_fills.iter().enumerate() {
            let classes = Some(&mut self.classes);
            match *f {
                SrcFill::None => {}
                SrcFill::Imm(ty) => {
                    let (v, c) = values::value_code(ty, r);
                    self.classes.insert(c);
                    let bits = if ty.bytes() == 2 { v | (v << 16) } else { v };
                    let own = with_imms.get_or_insert_with(|| b.insn.clone());
                    if let Some(Some(Src::Imm(imm))) = own.src.get_mut(i) {
                        imm.bits = bits;
                    }
                }
                SrcFill::Grf { regs, ty, read, .. } => {
                    self.fill.src(st, regs, ty, read, r, classes)?;
                }
            }
        }
        self.fill.settle(&mut self.classes);
        // (Borrowed either way: no move of the instruction.)
        let insn = std::borrow::Cow::Borrowed(with_imms.as_ref().unwrap_or(&b.insn));
        // Compares and selects on floats: channel c gets the class pair of grid cell
        // (start + c) mod 81, `start` advancing by the exec size from one vector of the grid
        // (opcode and condition modifier) to the next, so the vectors of a grid walk its cells.
        let grid_op = matches!(insn.op, Opcode::Cmp | Opcode::Cmpn | Opcode::Sel);
        if grid_op && insn.src[0].is_some_and(|s| s.ty().is_float()) {
            let n = u64::from(insn.exec_size);
            let rank = b.cmod_rank * per_shape(shape.sel) + j;
            let start = ((rank * n + rank / 81 * 7) % 81) as usize;
            for c in 0..u32::from(insn.exec_size) {
                let cell = (start + c as usize) % 81;
                for (i, class) in [(0, cell / 9), (1, cell % 9)] {
                    // (The offsets of the shape's linear sources: no region walk per channel.)
                    let (o, t) = match shape.src_fills[i] {
                        SrcFill::Grf {
                            ty,
                            at: Some((base, step)),
                            ..
                        } => (base + c as usize * step, ty),
                        _ => {
                            let Some(o) = src_offset(&insn, i, c) else {
                                continue;
                            };
                            let Some(t) = insn.src[i].map(|s| s.ty()) else {
                                continue;
                            };
                            (o, t)
                        }
                    };
                    let (v, _) = values::float_of_class_edge(t, class, r);
                    st.write_grf(o, t.bytes() as usize, v, false).ok()?;
                }
            }
        }
        // Float add and mul: special operand pairs (tiny, overflowing and invalid results);
        // the integer opcodes with edge cases (carries, bit fields): values at their edges.
        let at = |i: usize, c: u32| match shape.src_fills.get(i) {
            Some(&SrcFill::Grf {
                at: Some((base, step)),
                ..
            }) => Some(base + c as usize * step),
            _ => src_offset(&insn, i, c),
        };
        let pairs = super::fp_rows::special_pairs(&insn, r, at);
        let edges = template::value_edges::edge_values(&insn, r, at);
        for (o, sz, v) in pairs.into_iter().chain(edges) {
            st.write_grf(o, sz, v, false).ok()?;
        }
        // Destination registers: random old contents (what the instruction must keep): raw
        // bits, not typed values (no value labels are taken from them).
        if let Some((d, cnt)) = b.dst_regs {
            Filler::raw(st, d, cnt, r)?;
        }
        // Both flag registers, in every vector (read or not, they are checked): mostly set
        // bits, so that predicated vectors still execute most channels.
        for f in self.arf_f.into_iter().flatten() {
            let v = match r.below(8) {
                0 => 0,
                1 | 2 => u32::MAX,
                3 => r.next() as u32,
                _ => (r.next() | r.next()) as u32,
            };
            self.st.set_arf(f, &v.to_le_bytes())?;
        }
        // mac and AccWrEn forms: random accumulator contents (mac reads acc0/acc1 implicitly).
        if shape.acc {
            for a in self.arf_acc.into_iter().flatten() {
                let mut bytes = [0u8; 32];
                for c in bytes.chunks_mut(8) {
                    c.copy_from_slice(&r.next().to_le_bytes());
                }
                let _ = self.st.set_arf(a, &bytes);
            }
        }
        if shape.float {
            self.st.set_arf(self.arf_cr0?, &b.cr0.to_le_bytes())?;
        }
        let opts = ExecOptions::default();
        let moved = self.arf_moved.union(self.st.arf_dirty);
        self.after.reset_from(&self.st.st, &tracked, moved);
        self.arf_moved = Blocks::EMPTY;
        let step = match &shape.pre {
            Some(pre) if pre.has_imm() => {
                let imms = crate::exec::imm_bits(&insn);
                crate::exec::step_prepared_imms(&mut self.after.st, pre, &imms, &opts)
            }
            Some(pre) => crate::exec::step_prepared(&mut self.after.st, pre, &opts),
            None => crate::exec::step(&mut self.after.st, &insn),
        };
        let Ok(info) = step else {
            self.after.step_failed();
            return None;
        };
        // `after` now differs from `st` only where the instruction wrote and in the IP.
        self.after.stepped(&info.written);
        #[cfg(debug_assertions)]
        {
            // The instruction wrote no GRF register outside those reset between vectors.
            let (a, s) = (&self.after.st, &self.st.st);
            for n in 0..a.grf.len() / 32 {
                if !shape.grf.contains(&(n as u8)) {
                    debug_assert!(a.grf[n * 32..n * 32 + 32] == s.grf[n * 32..n * 32 + 32]);
                }
            }
            slot::check_step(&self.st.st, &self.after, &info.written);
        }
        let (st, after) = (&self.st.st, &self.after.st);
        self.rules.clear();
        self.alts.clear();
        let fixed_left = shape.tags.apply_leaving_fixed(
            state_env(p, st, self.arf_cr0),
            &insn,
            (st, after),
            info.enabled,
            &mut self.vals,
            (&mut self.rules, &mut self.alts),
            text.fixed_listed,
        );
        // The line.
        if !text.whole {
            let bytes = crate::codec::encode(&insn, p).ok()?;
            self.insn_text.clear();
            shape::text::insn_fields(&mut self.insn_text, &insn, p, &bytes);
            self.insn_text.extend_from_slice(INITIAL);
        }
        let mut ub = [0u8; 64];
        // Changed registers: the candidates that may have changed are the destination
        // registers and the ARF registers in the blocks the instruction wrote (the IP, which
        // it also changes, is not one).
        let w = &info.written;
        let mut maybe = text.grf_candidates;
        let mut blocks = Blocks::of(w.arf.0, w.arf.1).0;
        while blocks != 0 {
            let k = blocks.trailing_zeros() as usize;
            blocks &= blocks - 1;
            // (No candidate lies in a block past the table; none changed in a block that
            // stayed the same, a 64-byte comparison instead of one per register.)
            if let Some(&c) = text.block_candidates.get(k) {
                if c != 0 && !slot::same_block(st, after, k) {
                    maybe |= c;
                }
            }
        }
        let grf = w.grf_regs(st.grf_reg_bytes());
        let (changed, mut with_undef) = changed_regs(
            st,
            after,
            &shape.candidates,
            (maybe, text.grf_candidates),
            grf,
        );
        // A reported register that did not change may hold undefined bits too (an
        // unpopulated dword of cr0 reads as undefined): its mask goes into `undefined`.
        let mut same = shape.reported & !changed;
        while same != 0 {
            let i = same.trailing_zeros() as usize;
            same &= same - 1;
            if shape
                .candidates
                .get(i)
                .is_some_and(|&r| has_undef(after, r))
            {
                with_undef |= 1 << i;
            }
        }
        let (rules, classes, floats) = (&self.rules, &mut self.classes, &mut self.floats);
        for &k in &shape.label_ranks {
            classes.insert_rank(k);
        }
        let (keys, id_head, insn_text) = (&self.keys, &self.id_head, &self.insn_text);
        // (The changed registers and the labels first: the line in one write.)
        out.write(|c| {
            c.bytes(id_head);
            c.uint(index);
            c.bytes(&text.head);
            if !text.whole {
                c.bytes(insn_text);
            }
            for (i, reg) in shape.initial.iter().enumerate() {
                reg_entry(c, keys, st, *reg, i == 0);
            }
            // Expected: every register of `initial` (changed or not: one that must not change
            // is expected to keep its bytes) and every other register the instruction changed.
            c.put(b"},\"expected\":{");
            reg_entries(
                c,
                &shape.candidates,
                changed | shape.reported,
                |c, reg, first| reg_entry(c, keys, after, reg, first),
            );
            c.byte(b'}');
            if with_undef != 0 {
                c.put(b",\"undefined\":{");
                reg_entries(c, &shape.candidates, with_undef, |c, reg, first| {
                    if !first {
                        c.byte(b',');
                    }
                    keys.put(c, reg.key());
                    let n = reg_view(after, reg, &mut ub).0.len();
                    c.hex(&ub[..n]);
                    c.byte(b'"');
                });
                c.byte(b'}');
            }
            c.bytes(&shape.dst);
            alternatives(c, &self.alts, floats);
            // Rules: the shape's and the vector's, in order without repeats.
            c.put(b",\"rules\":");
            // (The plan's fixed rules, when the vector left them out, are in the shape's
            // list.)
            match (shape.rule_bits.as_ref(), rules.bits()) {
                (Some(_), Some(b)) if fixed_left => text.rules.write_with(c, &text.with_fixed, b),
                (Some(a), Some(b)) if text.listed && !text.fixed_listed => {
                    text.rules.write_with(c, a, b)
                }
                (Some(a), Some(b)) => ids::write_union(c, a, b),
                _ => {
                    let mut v = shape.rule_ids();
                    v.extend(rules.names());
                    if fixed_left {
                        v.extend(shape.tags.fixed_rules().iter().map(|r| r.name()));
                    }
                    v.sort_unstable();
                    v.dedup();
                    ids::write_names(c, &v);
                }
            }
            // Classes: the values' labels and the shape's, likewise.
            c.put(b",\"classes\":");
            classes.write_placed(c, &text.labels);
            c.put(b"}\n");
        });
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::exercised::policy;
    use super::slot::set_arf;
    use super::*;

    /// `set_arf` (by index, whole dwords at once) equals `ThreadState::set_arf_bytes` on
    /// random registers, lengths and undefined states.
    #[test]
    fn set_arf_equals_set_arf_bytes() {
        let mut r = Rng::for_vector(4, 4, 0);
        for p in Platform::ALL {
            let base = ThreadState::new(p);
            for _ in 0..300 {
                let mut a = base.clone();
                for w in a.arf_undef.iter_mut() {
                    *w = r.next() as u32;
                }
                let mut b = a.clone();
                let i = r.below(base.layout.regs.len());
                let reg = &base.layout.regs[i];
                let n = r.below(reg.bytes + 1);
                let bytes: Vec<u8> = (0..n).map(|_| r.next() as u8).collect();
                assert!(set_arf(&mut a, i, &bytes).is_some());
                let name = reg.name.clone();
                b.set_arf_bytes(&name, 0, &bytes).unwrap();
                assert!(a.arf == b.arf && a.arf_undef == b.arf_undef, "{name} {n}");
                assert!(a.acc == b.acc, "{name} {n}");
            }
        }
    }

    /// `reg_hex` of a GRF register (direct when nothing is undefined) and of an ARF register
    /// (a dword at a time) equals the general path (`reg_view` and `hex_masked`), and a
    /// register entry (GRF and ARF registers in one block each, when they can be) equals
    /// comma, key, that hex and quote, for random contents and undefined flags, every
    /// register of every platform, first or not.
    #[test]
    fn register_hex_equals_the_general_path() {
        let mut r = Rng::for_vector(6, 6, 0);
        for p in Platform::ALL {
            let mut st = ThreadState::new(p);
            let keys = RegKeys::new(&st);
            for _ in 0..60 {
                for x in st.grf.iter_mut() {
                    *x = r.next() as u8;
                }
                for w in st.grf_undef.iter_mut() {
                    *w = if r.chance(1, 3) {
                        r.next() & r.next()
                    } else {
                        0
                    };
                }
                for w in st.arf_undef.iter_mut() {
                    *w = if r.chance(1, 3) { r.next() as u32 } else { 0 };
                }
                for x in st.arf.iter_mut() {
                    *x = r.next() as u8;
                }
                let grf = (0..128u8).map(RegRef::Grf);
                for reg in grf.chain((0..st.layout.regs.len()).map(RegRef::Arf)) {
                    let mut fast_out = Lines::default();
                    fast_out.write(|c| emit::reg_hex(c, &st, reg));
                    let mut ub = [0u8; 64];
                    let (bytes, any) = reg_view(&st, reg, &mut ub);
                    assert_eq!(has_undef(&st, reg), any, "{p:?} {reg:?}");
                    let general: String = (bytes.iter().zip(ub))
                        .map(|(b, u)| format!("{:02x}", b & !u))
                        .collect();
                    assert_eq!(fast_out.as_bytes(), general.as_bytes(), "{reg:?}");
                    let first = r.chance(1, 2);
                    let mut entry = Lines::default();
                    entry.write(|c| reg_entry(c, &keys, &st, reg, first));
                    let mut key = Lines::default();
                    key.write(|c| keys.put(c, reg.key()));
                    let comma = if first { "" } else { "," };
                    let key = String::from_utf8_lossy(key.as_bytes());
                    let want = format!("{comma}{key}{general}\"");
                    assert_eq!(entry.as_bytes(), want.as_bytes(), "{p:?} {reg:?}");
                }
            }
        }
    }

    #[test]
    fn cached_policies_equal_new_ones() {
        let ops = [
            FpOps::Arith,
            FpOps::Math,
            FpOps::Compare,
            FpOps::Fused,
            FpOps::RawMov,
        ];
        for p in Platform::ALL {
            for cr0 in [0u32, 1, 0x10, 0x20, 0x31, 0xc0, 0x4f1, 0x400] {
                let env = FloatEnv::from_cr0(p, cr0);
                for ft in [FloatType::F, FloatType::Hf, FloatType::Df] {
                    for o in ops {
                        // Twice: built, then from the cache.
                        for _ in 0..2 {
                            assert_eq!(
                                format!("{:?}", policy(&env, ft, o)),
                                format!("{:?}", Policy::new(&env, ft, o))
                            );
                        }
                    }
                }
            }
        }
    }
}
