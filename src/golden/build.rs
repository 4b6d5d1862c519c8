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
use super::format::fast::{self, ListBuf};
use super::format::{AltKind, Vector};
use super::ids::{self, RuleSet};
use super::operands::Operands;
use super::regtext::{RegKeys, GRF_KEYS};
use super::template::{self, Built, OpSel, RegionRules};
use super::values::{self, float_class, ClassSet, LabelBatch, PlacedLabel, Rng};
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
/// `k / PER_SHAPE` (`mov`: one shape per vector, see [`per_shape`]).
pub const PER_SHAPE: u64 = 16;

/// Vectors per shape of `sel`: [`PER_SHAPE`], but 1 for `mov`, whose many type pairs (the
/// conversion rows, raw moves, packed byte destinations) need every shape of a default run to
/// be covered, and for `add` and `mul`, whose many type pairs would otherwise leave too few F
/// shapes in ALT mode for the ALT rows their special operands show
/// (`fp.alt.dismissed.inf-minus-inf`, `fp.alt.dismissed.times-zero`).
pub fn per_shape(sel: OpSel) -> u64 {
    if matches!(sel, OpSel::Op(Opcode::Mov | Opcode::Add | Opcode::Mul)) {
        1
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
    let mut line = Vec::new();
    let mut n = 0u64;
    let ok = w.line(cfg, index, &mut line, &mut n);
    *rejected += n as u32;
    ok.then(|| serde_json::from_slice(&line).ok()).flatten()
}

thread_local! {
    /// Per-thread validator (reuses its property record and buffers).
    static CHECKER: std::cell::RefCell<crate::validate::Checker> =
        std::cell::RefCell::new(crate::validate::Checker::new());
}

mod shape_buffers;
mod shape_tables;

use shape_buffers::Buffers;
use shape_tables::Name;

/// Validate a built instruction with spec/rules (`validate::Checker`): None when a rule is
/// violated, else the rules that apply to it (their `when` holds) and are specific to it (a
/// non-empty `when`), plus those of `hints` (the template's region rules) that apply.
fn validated_rules(p: Platform, insn: &Insn, hints: RegionRules) -> Option<RuleMask> {
    CHECKER.with(|c| {
        let mut c = c.borrow_mut();
        let mut applicable = RuleMask::default();
        if c.check_collect(p, insn, &mut applicable).len() != 0 {
            return None;
        }
        Some(shape_tables::listed(&applicable, hints))
    })
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

/// An instruction shape and everything about it that does not depend on the values.
struct Shape {
    b: Built,
    sel: OpSel,
    op_name: &'static str,
    /// Validator rule IDs (applicable, specific; with repeats, unordered).
    rules: Vec<&'static str>,
    /// The same as a bit set of [`ids`] (None: an ID outside the table).
    rule_bits: Option<BitSet>,
    /// The form labels that are value label texts, as label ranks.
    label_ranks: Vec<u16>,
    /// The other form labels, sorted and placed among the value labels.
    labels: Vec<PlacedLabel>,
    /// `,"insn":"...","bytes":"..."` (empty when the instruction has an immediate, whose value
    /// changes both per vector).
    text: Vec<u8>,
    pre: Option<Prepared>,
    /// GRF registers the vector writes (sources and destination), sorted.
    grf: Vec<u8>,
    /// Registers of `initial`, sorted by name.
    initial: Vec<RegRef>,
    /// Registers that may change (destination, every ARF register but ip and null), sorted by
    /// name.
    candidates: Vec<RegRef>,
    /// `,"dst":{...}` or empty.
    dst: Vec<u8>,
    float: bool,
    uses_flags: bool,
    acc: bool,
}

/// One ThreadState, the GRF registers written in it since it equalled its source, the ARF
/// bytes in which it may differ from that source, and whether its accumulator records may.
struct Slot {
    st: ThreadState,
    dirty: Vec<u8>,
    arf_dirty: Span,
    acc_dirty: bool,
}

/// Copy the 32 bytes at `o` of `src` to `dst` as one fixed-size move (inlined; a slice
/// `copy_from_slice` of unknown length calls `memcpy`).
#[inline(always)]
fn copy_grf(dst: &mut [u8], src: &[u8], o: usize) {
    let from = src
        .get(o..o + 32)
        .and_then(|x| <&[u8; 32]>::try_from(x).ok());
    let to = dst
        .get_mut(o..o + 32)
        .and_then(|x| <&mut [u8; 32]>::try_from(x).ok());
    if let (Some(from), Some(to)) = (from, to) {
        *to = *from;
    }
}

/// A byte range of the ARF (`lo..hi`; empty when `lo >= hi`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span(usize, usize);

impl Span {
    const EMPTY: Span = Span(usize::MAX, 0);
    const ALL: Span = Span(0, usize::MAX);

    fn union(self, o: Span) -> Span {
        Span(self.0.min(o.0), self.1.max(o.1))
    }
}

impl Slot {
    fn new(st: &ThreadState) -> Slot {
        Slot {
            st: st.clone(),
            dirty: Vec::new(),
            arf_dirty: Span::EMPTY,
            acc_dirty: false,
        }
    }

    /// Make the state equal `src` on the GRF registers it has written and on `regs`, on the
    /// ARF where it may differ from its previous source or `src` from that source (`moved`),
    /// and on the accumulator records if they may differ (`acc_dirty`: `src`'s never change);
    /// it then tracks `regs`.
    fn reset_from(&mut self, src: &ThreadState, regs: &[u8], moved: Span) {
        let (d, s) = (&mut self.st, src);
        // (Usually the same registers as last time: the vectors of one shape.)
        let also: &[u8] = if self.dirty == regs { &[] } else { &self.dirty };
        for &n in regs.iter().chain(also) {
            let o = usize::from(n) * 32;
            copy_grf(&mut d.grf, &s.grf, o);
            let m = 0xffff_ffffu64 << (o % 64);
            let w = o / 64;
            d.grf_undef[w] = (d.grf_undef[w] & !m) | (s.grf_undef[w] & m);
        }
        // Whole dwords (the undefined masks are per dword).
        let Span(lo, hi) = self.arf_dirty.union(moved);
        let (lo, hi) = (lo / 4 * 4, hi.min(s.arf.len()).div_ceil(4) * 4);
        if lo < hi && hi <= d.arf.len() && s.arf.len() == d.arf.len() {
            d.arf[lo..hi].copy_from_slice(&s.arf[lo..hi]);
            d.arf_undef[lo / 4..hi / 4].copy_from_slice(&s.arf_undef[lo / 4..hi / 4]);
        } else if lo < hi {
            d.arf.clone_from(&s.arf);
            d.arf_undef.clone_from(&s.arf_undef);
        }
        if self.acc_dirty {
            d.acc.clone_from_slice(&s.acc);
        }
        d.events = Default::default();
        self.dirty.clear();
        self.dirty.extend_from_slice(regs);
        self.arf_dirty = Span::EMPTY;
        self.acc_dirty = false;
    }

    /// [`set_arf`], noting the bytes (and accumulator records) it changes.
    fn set_arf(&mut self, i: usize, bytes: &[u8]) -> Option<()> {
        let r = self.st.layout.regs.get(i)?;
        self.arf_dirty = self.arf_dirty.union(Span(r.base, r.base + bytes.len()));
        self.acc_dirty |= r.info.name == "acc";
        set_arf(&mut self.st, i, bytes)
    }
}

/// The bytes of a register and, in `undef`, their undefined bits (as `conformance::regs::read`),
/// and whether any bit is undefined.
#[inline]
fn reg_view<'a>(st: &'a ThreadState, r: RegRef, undef: &mut [u8; 64]) -> (&'a [u8], bool) {
    match r {
        RegRef::Grf(n) => {
            let o = usize::from(n) * 32;
            let u = (st.grf_undef[o / 64] >> (o % 64)) as u32;
            if u == 0 {
                undef[..32].fill(0);
            } else {
                for (k, x) in undef[..32].iter_mut().enumerate() {
                    *x = if (u >> k) & 1 == 1 { 0xff } else { 0 };
                }
            }
            (&st.grf[o..o + 32], u != 0)
        }
        RegRef::Arf(i) => {
            let r = &st.layout.regs[i];
            let len = r.bytes.min(64);
            let mut any = 0;
            // (Registers start on a dword: one undefined mask per four bytes.)
            for (j, x) in undef[..len].chunks_mut(4).enumerate() {
                let d = r.base / 4 + j;
                let m = st.arf_undef[d] | st.layout.read_undef[d];
                any |= m;
                if let Ok(x) = <&mut [u8; 4]>::try_from(&mut *x) {
                    *x = m.to_le_bytes();
                } else {
                    x.copy_from_slice(&m.to_le_bytes()[..x.len()]);
                }
            }
            (&st.arf[r.base..r.base + len], any != 0)
        }
    }
}

/// An allowed alternative (written as `format::Alternative`).
struct Alt {
    kind: AltKind,
    reg: u8,
    offset: u32,
    ty: DataType,
    ulps: Option<f64>,
    abs: Option<f64>,
    rule: &'static str,
}

/// A small multiplicative hasher (the keys of [`policy`]'s cache: a few integers).
#[derive(Default)]
struct MulHasher(u64);

impl std::hash::Hasher for MulHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    fn write_isize(&mut self, x: isize) {
        self.write_u64(x as u64);
    }
}

/// `Policy::new(env, ft, ops)`, remembered per thread (a direct-mapped cache: the keys of a
/// run are a few dozen cr0 values, types and operation classes).
pub(crate) fn policy(env: &FloatEnv, ft: FloatType, ops: FpOps) -> Policy {
    use std::hash::{Hash, Hasher};
    type Entry = Option<((FloatEnv, FloatType, FpOps), Policy)>;
    const SLOTS: usize = 256;
    thread_local! {
        static SEEN: std::cell::RefCell<Vec<Entry>> = std::cell::RefCell::new(vec![None; SLOTS]);
    }
    let key = (*env, ft, ops);
    let mut h = MulHasher::default();
    key.hash(&mut h);
    let slot = (h.finish() >> 56) as usize % SLOTS;
    SEEN.with(|c| {
        let mut c = c.borrow_mut();
        if let Some((k, pol)) = &c[slot] {
            if *k == key {
                return *pol;
            }
        }
        let pol = Policy::new(env, ft, ops);
        c[slot] = Some((key, pol));
        pol
    })
}

/// `ThreadState::set_arf_bytes` of ARF register `i` (by index: no name lookup) from byte 0.
fn set_arf(st: &mut ThreadState, i: usize, bytes: &[u8]) -> Option<()> {
    let r = &st.layout.regs[i];
    if bytes.len() > r.bytes {
        return None;
    }
    let (base, is_acc, num) = (r.base, r.info.name == "acc", usize::from(r.num));
    st.arf[base..base + bytes.len()].copy_from_slice(bytes);
    // (Whole dwords: their masks cleared at once; registers start on a dword.)
    let whole = if base % 4 == 0 { bytes.len() / 4 } else { 0 };
    st.arf_undef[base / 4..base / 4 + whole].fill(0);
    for o in base + 4 * whole..base + bytes.len() {
        st.arf_undef[o / 4] &= !(0xff << (8 * (o % 4)));
    }
    if is_acc {
        if let Some(a) = st.acc.get_mut(num) {
            for w in 0..bytes.len().div_ceil(2) {
                if let Some(c) = a.class.get_mut(w) {
                    *c = crate::state::acc::NO_CLASS;
                }
            }
        }
    }
    Some(())
}

fn lower(out: &mut Vec<u8>, s: &str) {
    out.extend(s.bytes().map(|b| b.to_ascii_lowercase()));
}

/// Per-thread (per task) generation state: the base state and three working copies, the
/// shapes of the opcodes, and the buffers of one vector.
pub struct Work {
    base: ThreadState,
    st: Slot,
    after: Slot,
    /// Per opcode of the selection: the rank of the cached shape and the shape.
    shapes: Vec<Option<(u64, Option<Box<Shape>>)>>,
    /// The value labels of the current vector.
    classes: ClassSet,
    /// The scratch buffer of the rules and classes lists.
    list: ListBuf,
    /// The rule IDs of the current vector (also used to number a shape's).
    rules: RuleSet,
    alts: Vec<Alt>,
    arf_f: [Option<usize>; 2],
    arf_acc: [Option<usize>; 2],
    arf_cr0: Option<usize>,
    /// The ARF bytes `st` has changed (and since reverted) since `after` last followed it.
    arf_moved: Span,
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
            classes: ClassSet::default(),
            list: ListBuf::default(),
            rules: RuleSet::default(),
            alts: Vec::new(),
            arf_f: [ix("f0"), ix("f1")],
            arf_acc: [ix("acc0"), ix("acc1")],
            arf_cr0: ix("cr0"),
            arf_moved: Span::EMPTY,
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
        out: &mut Vec<u8>,
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
            let sh = self.shape(cfg, oi, s, rejected).map(Box::new);
            self.shapes[oi] = Some((s, sh));
        }
        let Some((_, Some(shape))) = self.shapes[oi].take() else {
            return false;
        };
        let mut ok = false;
        for attempt in 0..ATTEMPTS {
            let mut r = Rng::for_vector(cfg.seed, index, attempt);
            let mark = out.len();
            if self.assemble(cfg, index, &shape, j, &mut r, out).is_some() {
                ok = true;
                break;
            }
            out.truncate(mark);
        }
        self.shapes[oi] = Some((s, Some(shape)));
        if !ok {
            // Values the engine refuses on every attempt (rare): a shape of this vector's own.
            let mut n = 0;
            for first in 1..ATTEMPTS {
                let Some(shape) = self.shape_from(cfg, oi, s, index, first, &mut n) else {
                    break;
                };
                let mut r = Rng::for_vector(cfg.seed, index, ATTEMPTS + first);
                let mark = out.len();
                if self.assemble(cfg, index, &shape, j, &mut r, out).is_some() {
                    return true;
                }
                out.truncate(mark);
            }
        }
        ok
    }

    /// The shape of rank `s` of opcode `oi` (None: none could be built).
    // (Not inlined: its cost shows apart in a profile.)
    #[inline(never)]
    fn shape(&mut self, cfg: &GenConfig, oi: usize, s: u64, rejected: &mut u64) -> Option<Shape> {
        let nops = cfg.ops.len() as u64;
        let first = (oi as u64).wrapping_add(s.wrapping_mul(nops));
        // The shape this one replaces: its buffers are reused.
        let old = self.shapes[oi].take().and_then(|(_, sh)| sh);
        self.shape_with(cfg, oi, s, (first, 0), rejected, Buffers::of(old))
    }

    /// A shape of rank `s` of opcode `oi`, from generators for index `at` and attempts from
    /// `first` on.
    fn shape_from(
        &mut self,
        cfg: &GenConfig,
        oi: usize,
        s: u64,
        at: u64,
        first: u32,
        rejected: &mut u64,
    ) -> Option<Shape> {
        self.shape_with(cfg, oi, s, (at, first), rejected, Buffers::default())
    }

    /// [`Work::shape_from`] with generators for index `at` and attempts from `first` on, in
    /// the buffers `buf`.
    fn shape_with(
        &mut self,
        cfg: &GenConfig,
        oi: usize,
        s: u64,
        (at, first): (u64, u32),
        rejected: &mut u64,
        mut buf: Buffers,
    ) -> Option<Shape> {
        let p = cfg.platform;
        let sel = cfg.ops[oi];
        for attempt in first..ATTEMPTS {
            buf.clear();
            let mut r = Rng::for_vector(cfg.seed ^ SHAPE_SALT, at, attempt);
            let kk = s.wrapping_add(u64::from(attempt) * 7919);
            let Some(b) = template::build(sel, kk, p, &cfg.types, &mut r) else {
                continue;
            };
            let Some(rules) = validated_rules(p, &b.insn, b.region_rules) else {
                *rejected += 1;
                continue;
            };
            let Ok(bytes) = crate::codec::encode(&b.insn, p) else {
                continue;
            };
            let rule_bits = shape_tables::ids_and_numbers(&rules, &mut buf.rules);
            let has_imm = b
                .insn
                .src
                .iter()
                .flatten()
                .any(|s| matches!(s, Src::Imm(_)));
            if !has_imm {
                insn_fields(&mut buf.text, &b.insn, p, &bytes);
            }
            shape_tables::place_into(b.labels, &mut buf.label_ranks, &mut buf.labels);
            let grf = &mut buf.grf;
            let mut initial: Vec<(Name, RegRef)> = Vec::with_capacity(16);
            for &(n, c) in &b.src_regs {
                for q in 0..c {
                    grf.push(n + q);
                }
            }
            // (Sources first, as they are filled in that order; every source register.)
            for sr in b.insn.src.iter().flatten() {
                if let Src::Reg(rs) = sr {
                    if let Addr::Direct {
                        reg: Reg::Grf(n), ..
                    } = rs.addr
                    {
                        let cnt = b.src_regs.iter().find(|x| x.0 == n).map_or(1, |x| x.1);
                        for q in 0..cnt {
                            grf.push(n + q);
                            initial.push((Name::new(grf_name(n + q)), RegRef::Grf(n + q)));
                        }
                    }
                }
            }
            if let Some((d, cnt)) = b.dst_regs {
                for q in 0..cnt {
                    grf.push(d + q);
                    initial.push((Name::new(grf_name(d + q)), RegRef::Grf(d + q)));
                }
            }
            grf.sort_unstable();
            grf.dedup();
            if grf
                .iter()
                .any(|&n| usize::from(n) * 32 + 32 > self.base.grf.len())
            {
                continue;
            }
            let uses_flags =
                b.insn.pred != crate::spec::PredCtrl::None || b.insn.cmod != CondMod::None;
            let acc = b.insn.op == Opcode::Mac || b.insn.ctrl.acc_wr;
            let float = b.insn.dst.is_some_and(|d| d.ty.is_float())
                || b.insn.src.iter().flatten().any(|s| s.ty().is_float());
            let names = &self.base.layout.regs;
            if uses_flags {
                let [Some(f0), Some(f1)] = self.arf_f else {
                    continue;
                };
                initial.push((Name::new("f0"), RegRef::Arf(f0)));
                initial.push((Name::new("f1"), RegRef::Arf(f1)));
            }
            if acc {
                for a in self.arf_acc.iter().flatten() {
                    initial.push((Name::new(names[*a].name.as_str()), RegRef::Arf(*a)));
                }
            }
            if float {
                let Some(c) = self.arf_cr0 else {
                    continue;
                };
                initial.push((Name::new("cr0"), RegRef::Arf(c)));
            }
            initial.sort_by(|a, b| a.0.cmp(&b.0));
            initial.dedup_by(|a, b| a.0 == b.0);
            buf.initial.extend(initial.iter().map(|x| x.1));
            let mut dsts: Vec<(Name, RegRef)> = Vec::with_capacity(8);
            if let Some((d, cnt)) = b.dst_regs {
                for q in 0..cnt {
                    dsts.push((Name::new(grf_name(d + q)), RegRef::Grf(d + q)));
                }
            }
            dsts.sort_by(|a, b| a.0.cmp(&b.0));
            // Merge the destination registers into the ARF registers (sorted once per task).
            let candidates = &mut buf.candidates;
            let mut di = dsts.iter().peekable();
            for (name, i) in &self.arf_sorted {
                if di.peek().is_some() {
                    let name = Name::new(name);
                    while let Some(d) = di.next_if(|d| d.0 < name) {
                        candidates.push(d.1);
                    }
                }
                candidates.push(RegRef::Arf(*i));
            }
            candidates.extend(di.map(|d| d.1));
            if candidates.len() > 64 {
                // (The changed-register masks are 64 bits; no platform has that many.)
                continue;
            }
            let dst = &mut buf.dst;
            if let Some(d) = b.insn.dst {
                if let Addr::Direct {
                    reg: Reg::Grf(n),
                    sub,
                } = d.addr
                {
                    dst.extend_from_slice(b",\"dst\":{\"reg\":\"r");
                    fast::uint(dst, u64::from(n));
                    dst.extend_from_slice(b"\",\"offset\":");
                    fast::uint(dst, u64::from(sub));
                    dst.extend_from_slice(b",\"type\":\"");
                    lower(dst, d.ty.name());
                    dst.extend_from_slice(b"\",\"stride\":");
                    fast::uint(dst, u64::from(d.hstride));
                    dst.push(b'}');
                }
            }
            let pre = (!has_imm).then(|| Prepared::new(&self.base, b.insn.clone()));
            return Some(Shape {
                sel,
                op_name: match sel {
                    OpSel::Op(o) => o.name(),
                    OpSel::Math(_) => "math",
                },
                b,
                rules: buf.rules,
                rule_bits,
                label_ranks: buf.label_ranks,
                labels: buf.labels,
                text: buf.text,
                pre,
                grf: buf.grf,
                initial: buf.initial,
                candidates: buf.candidates,
                dst: buf.dst,
                float,
                uses_flags,
                acc,
            });
        }
        None
    }

    /// One vector of `shape` (`j`: its rank within the shape) with the values of `r`.
    fn assemble(
        &mut self,
        cfg: &GenConfig,
        index: u64,
        shape: &Shape,
        j: u64,
        r: &mut Rng,
        out: &mut Vec<u8>,
    ) -> Option<()> {
        let p = cfg.platform;
        let b = &shape.b;
        let mut insn = b.insn.clone();
        self.classes.clear();
        // (The only ARF writes to `st` are those of `Slot::set_arf`, which notes them; what
        // the reset reverts and what this vector writes is where `after` must follow.)
        self.arf_moved = self.arf_moved.union(self.st.arf_dirty);
        self.st.reset_from(&self.base, &shape.grf, Span::EMPTY);
        let st = &mut self.st.st;
        // Sources: whole registers of typed values.
        for s in insn.src.iter_mut() {
            let Some(s) = s else { continue };
            match s {
                Src::Imm(imm) => {
                    let (v, c) = values::value_code(imm.ty, r);
                    self.classes.insert(c);
                    imm.bits = if imm.ty.bytes() == 2 {
                        v | (v << 16)
                    } else {
                        v
                    };
                }
                Src::Reg(rs) => {
                    let Addr::Direct {
                        reg: Reg::Grf(n), ..
                    } = rs.addr
                    else {
                        continue;
                    };
                    let cnt = b.src_regs.iter().find(|x| x.0 == n).map_or(1, |x| x.1);
                    fill_regs(st, n, cnt, rs.ty, r, Some(&mut self.classes))?;
                }
            }
        }
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
                    let Some(o) = src_offset(&insn, i, c) else {
                        continue;
                    };
                    let Some(t) = insn.src[i].map(|s| s.ty()) else {
                        continue;
                    };
                    let (v, _) = values::float_of_class_edge(t, class, r);
                    st.write_grf(o, t.bytes() as usize, v, false).ok()?;
                }
            }
        }
        // Float add and mul: special operand pairs (tiny, overflowing and invalid results).
        let pairs = super::fp_rows::special_pairs(&insn, r, |i, c| src_offset(&insn, i, c));
        for (o, sz, v) in pairs {
            st.write_grf(o, sz, v, false).ok()?;
        }
        // Destination registers: random old contents (what the instruction must keep).
        if let Some((d, cnt)) = b.dst_regs {
            let dty = insn.dst.map(|d| d.ty).unwrap_or(DataType::UD);
            fill_regs(st, d, cnt, dty, r, None)?;
        }
        if shape.uses_flags {
            for f in self.arf_f.into_iter().flatten() {
                // Mostly set bits, so that predicated vectors still execute most channels.
                let v = match r.below(8) {
                    0 => 0,
                    1 | 2 => u32::MAX,
                    3 => r.next() as u32,
                    _ => (r.next() | r.next()) as u32,
                };
                self.st.set_arf(f, &v.to_le_bytes())?;
            }
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
        self.after.reset_from(&self.st.st, &shape.grf, moved);
        self.arf_moved = Span::EMPTY;
        // (Anything may change in the execution.)
        self.after.arf_dirty = Span::ALL;
        self.after.acc_dirty = true;
        let info = match &shape.pre {
            Some(pre) => crate::exec::step_prepared(&mut self.after.st, pre, &opts),
            None => crate::exec::step(&mut self.after.st, &insn),
        }
        .ok()?;
        #[cfg(debug_assertions)]
        {
            // The instruction wrote no GRF register outside those reset between vectors.
            let (a, s) = (&self.after.st, &self.st.st);
            for n in 0..a.grf.len() / 32 {
                if !shape.grf.contains(&(n as u8)) {
                    debug_assert!(a.grf[n * 32..n * 32 + 32] == s.grf[n * 32..n * 32 + 32]);
                }
            }
        }
        // Does the result depend on the denorm mode? The reference answer (the state after
        // executing in keep-denormals mode differs from `after`) holds whenever the mode
        // flushes, since the two states always differ in cr0.0 itself, so it is computed as
        // that, without the second execution (the output is unchanged; whether the comparison
        // should leave cr0 out, which would list the denorm rows only for results that really
        // change, is a question of rule attribution, not of speed).
        let env = FloatEnv::from_cr0(p, b.cr0).with_denorms(true);
        let denorm_sensitive = shape.float && env.cr0() != b.cr0;
        let (st, after) = (&self.st.st, &self.after.st);
        // cr0.0 as `ThreadState::arf_dword("cr0", 0)` reads it (by index).
        let cr0 = self
            .arf_cr0
            .map(|i| &st.layout.regs[i])
            .filter(|r| r.bytes > 0)
            .and_then(|r| st.arf.get(r.base..r.base + 4))
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let env = cr0.map_or_else(|| FloatEnv::new(p), |v| FloatEnv::from_cr0(p, v));
        self.rules.clear();
        self.alts.clear();
        exercised(
            &insn,
            st,
            after,
            info.enabled,
            denorm_sensitive,
            env,
            &mut self.rules,
            &mut self.alts,
        );
        // The line.
        out.extend_from_slice(b"{\"v\":1,\"id\":\"");
        out.extend_from_slice(p.name().as_bytes());
        out.push(b'-');
        fast::uint_hex(out, cfg.seed);
        out.push(b'-');
        fast::uint(out, index);
        out.extend_from_slice(b"\",\"gen\":\"");
        out.extend_from_slice(p.name().as_bytes());
        out.extend_from_slice(b"\",\"op\":\"");
        out.extend_from_slice(shape.op_name.as_bytes());
        out.push(b'"');
        if shape.pre.is_some() {
            out.extend_from_slice(&shape.text);
        } else {
            let bytes = crate::codec::encode(&insn, p).ok()?;
            insn_fields(out, &insn, p, &bytes);
        }
        let mut ub = [0u8; 64];
        out.extend_from_slice(b",\"initial\":{");
        for (i, reg) in shape.initial.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            self.keys.put(out, reg.key());
            reg_hex(out, st, *reg);
            out.push(b'"');
        }
        // Changed registers.
        let mut changed = 0u64;
        let mut with_undef = 0u64;
        let mut ua = [0u8; 64];
        // The ARF bytes that may differ: `lo..hi` (empty when the ARF is unchanged).
        let (lo, hi) = differing_range(&st.arf, &after.arf, &st.arf_undef, &after.arf_undef);
        self.after.arf_dirty = Span(lo, hi);
        for (i, reg) in shape.candidates.iter().enumerate() {
            // Quick checks: equal bytes and undefined flags.
            match *reg {
                RegRef::Arf(ix) => {
                    let r = &st.layout.regs[ix];
                    let (a, z) = (r.base, r.base + r.bytes);
                    if z <= lo || a >= hi {
                        continue;
                    }
                    if st.arf[a..z] == after.arf[a..z]
                        && st.arf_undef[a / 4..z.div_ceil(4)]
                            == after.arf_undef[a / 4..z.div_ceil(4)]
                    {
                        continue;
                    }
                }
                RegRef::Grf(n) => {
                    if same_grf(st, after, n) {
                        continue;
                    }
                }
            }
            let (x, ux) = reg_view(st, *reg, &mut ua);
            let (y, uy) = reg_view(after, *reg, &mut ub);
            let n = x.len();
            let differ = if !ux && !uy {
                x != y
            } else {
                ua[..n] != ub[..n]
                    || x.iter()
                        .zip(y)
                        .zip(&ua)
                        .any(|((a, c), u)| (a ^ c) & !u != 0)
            };
            if differ {
                changed |= 1 << i;
                if uy {
                    with_undef |= 1 << i;
                }
            }
        }
        out.extend_from_slice(b"},\"expected\":{");
        reg_entries(out, &self.keys, &shape.candidates, changed, |out, reg| {
            reg_hex(out, after, reg)
        });
        out.push(b'}');
        if with_undef != 0 {
            out.extend_from_slice(b",\"undefined\":{");
            reg_entries(
                out,
                &self.keys,
                &shape.candidates,
                with_undef,
                |out, reg| {
                    let n = reg_view(after, reg, &mut ub).0.len();
                    fast::hex(out, &ub[..n]);
                },
            );
            out.push(b'}');
        }
        out.extend_from_slice(&shape.dst);
        if !self.alts.is_empty() {
            out.extend_from_slice(b",\"alternatives\":[");
            for (i, a) in self.alts.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(b"{\"kind\":\"");
                out.extend_from_slice(match a.kind {
                    AltKind::AnyNan => b"any_nan".as_slice(),
                    AltKind::Ulps => b"ulps",
                    AltKind::OverflowInf => b"overflow_inf",
                });
                out.extend_from_slice(b"\",\"reg\":\"r");
                fast::uint(out, u64::from(a.reg));
                out.extend_from_slice(b"\",\"offset\":");
                fast::uint(out, u64::from(a.offset));
                out.extend_from_slice(b",\"type\":\"");
                lower(out, a.ty.name());
                out.push(b'"');
                if let Some(u) = a.ulps {
                    out.extend_from_slice(b",\"ulps\":");
                    fast::float(out, u);
                }
                if let Some(u) = a.abs {
                    out.extend_from_slice(b",\"abs\":");
                    fast::float(out, u);
                }
                out.extend_from_slice(b",\"rule\":");
                fast::plain(out, a.rule);
                out.push(b'}');
            }
            out.push(b']');
        }
        // Rules: the shape's and the vector's, in order without repeats.
        out.extend_from_slice(b",\"rules\":");
        match (shape.rule_bits.as_ref(), self.rules.bits()) {
            (Some(a), Some(b)) => ids::write_union(out, &mut self.list, a, b),
            _ => {
                let mut v = shape.rules.clone();
                v.extend(self.rules.names());
                v.sort_unstable();
                v.dedup();
                ids::write_names(out, &v);
            }
        }
        // Classes: the values' labels and the shape's, likewise.
        out.extend_from_slice(b",\"classes\":");
        for &k in &shape.label_ranks {
            self.classes.insert_rank(k);
        }
        self.classes.write(out, &mut self.list, &shape.labels);
        out.extend_from_slice(b"}\n");
        Some(())
    }
}

/// The byte range outside which two ARF images (bytes and per-dword undefined masks) are
/// equal, to 64-byte blocks (from the first to the last differing block; or-reductions of
/// whole blocks, which the compiler vectorizes); empty when they are equal. The blocks are
/// scanned from the front to the first difference and from the back to the last, so the
/// blocks between are not read.
fn differing_range(a: &[u8], b: &[u8], ua: &[u32], ub: &[u32]) -> (usize, usize) {
    const BLOCK: usize = 64;
    if a.len() != b.len() || ua.len() != ub.len() {
        return (0, usize::MAX);
    }
    let bytes = differing_blocks::<u8, BLOCK>(a, b);
    // (The masks are usually equal: one `memcmp`.)
    let undef = if ua == ub {
        None
    } else {
        differing_blocks::<u32, { BLOCK / 4 }>(ua, ub)
    };
    match (bytes, undef) {
        (None, None) => (0, 0),
        (Some((f, l)), None) | (None, Some((f, l))) => (f * BLOCK, l * BLOCK + BLOCK),
        (Some((f, l)), Some((g, m))) => (f.min(g) * BLOCK, l.max(m) * BLOCK + BLOCK),
    }
}

/// The first and last `N`-element blocks in which `x` and `y` (of equal lengths) differ.
#[inline(always)]
fn differing_blocks<T: Copy + PartialEq, const N: usize>(x: &[T], y: &[T]) -> Option<(usize, usize)>
where
    [T; N]: AsWords,
{
    let n = x.len().div_ceil(N);
    let block = |k: usize| {
        let (s, e) = (k * N, ((k + 1) * N).min(x.len()));
        differ::<T, N>(&x[s..e], &y[s..e])
    };
    let first = (0..n).find(|&k| block(k))?;
    let last = (first + 1..n).rev().find(|&k| block(k)).unwrap_or(first);
    Some((first, last))
}

/// Whether two blocks differ: for whole blocks, an or-reduction of the xor of their 64-bit
/// words (straight-line code the compiler vectorizes); else element by element.
#[inline(always)]
fn differ<T: Copy + PartialEq, const N: usize>(x: &[T], y: &[T]) -> bool
where
    [T; N]: AsWords,
{
    match (<&[T; N]>::try_from(x), <&[T; N]>::try_from(y)) {
        (Ok(x), Ok(y)) => {
            let (a, b) = (x.words(), y.words());
            (0..8).fold(0, |d, i| d | (a[i] ^ b[i])) != 0
        }
        _ => x != y,
    }
}

/// A 64-byte block as eight little-endian 64-bit words.
trait AsWords {
    fn words(&self) -> [u64; 8];
}

impl AsWords for [u8; 64] {
    #[inline(always)]
    fn words(&self) -> [u64; 8] {
        std::array::from_fn(|i| {
            let b = &self[8 * i..8 * i + 8];
            u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
        })
    }
}

impl AsWords for [u32; 16] {
    #[inline(always)]
    fn words(&self) -> [u64; 8] {
        std::array::from_fn(|i| u64::from(self[2 * i]) | u64::from(self[2 * i + 1]) << 32)
    }
}

/// The 32 bytes of GRF register `n` and its 32 undefined flags.
#[inline]
fn grf_reg(st: &ThreadState, n: u8) -> Option<(&[u8; 32], u32)> {
    let o = usize::from(n) * 32;
    let bytes = st.grf.get(o..o + 32)?.try_into().ok()?;
    Some((bytes, (st.grf_undef.get(o / 64)? >> (o % 64)) as u32))
}

/// Whether GRF register `n` has the same bytes and undefined flags in `a` and `b` (as 64-bit
/// words, no comparison call).
#[inline]
fn same_grf(a: &ThreadState, b: &ThreadState, n: u8) -> bool {
    let words = |x: &[u8; 32]| -> [u64; 4] {
        std::array::from_fn(|i| {
            let b = &x[8 * i..8 * i + 8];
            u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
        })
    };
    match (grf_reg(a, n), grf_reg(b, n)) {
        (Some((x, ux)), Some((y, uy))) => {
            let (x, y) = (words(x), words(y));
            ux == uy && (0..4).fold(0, |d, i| d | (x[i] ^ y[i])) == 0
        }
        (x, y) => x == y,
    }
}

/// `"<register>":"<value>"` for each of `regs` whose bit is set in `mask`, comma-separated;
/// `value` writes a register's value text.
#[inline]
fn reg_entries(
    out: &mut Vec<u8>,
    keys: &RegKeys,
    regs: &[RegRef],
    mask: u64,
    mut value: impl FnMut(&mut Vec<u8>, RegRef),
) {
    let mut first = true;
    let mut m = mask;
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        let Some(reg) = regs.get(i) else { break };
        if !first {
            out.push(b',');
        }
        first = false;
        keys.put(out, reg.key());
        value(out, *reg);
        out.push(b'"');
    }
}

/// `,"insn":"<IGA text>","bytes":"<hex>"`.
fn insn_fields(out: &mut Vec<u8>, insn: &Insn, p: Platform, bytes: &[u8; 16]) {
    let text = print_insn(
        insn,
        &PrintOptions {
            dialect: Dialect::Iga,
            platform: p,
        },
    );
    out.extend_from_slice(b",\"insn\":");
    fast::string(out, &text);
    out.extend_from_slice(b",\"bytes\":\"");
    fast::hex(out, bytes);
    out.push(b'"');
}

/// Fill GRF registers `n..n + cnt` with random values of `ty` (element by element, as
/// `write_grf` would, defined), noting their labels in `classes`.
fn fill_regs(
    st: &mut ThreadState,
    n: u8,
    cnt: u8,
    ty: DataType,
    r: &mut Rng,
    classes: Option<&mut ClassSet>,
) -> Option<()> {
    let a = grf_base(n);
    let regs = st.grf.get_mut(a..a + 32 * usize::from(cnt))?;
    match classes {
        Some(cl) => {
            let mut batch = LabelBatch::default();
            fill_values(regs, ty, r, |c| batch.note(c));
            batch.flush(cl);
        }
        None => fill_values(regs, ty, r, |_| {}),
    }
    for reg in 0..usize::from(cnt) {
        let o = a + 32 * reg;
        *st.grf_undef.get_mut(o / 64)? &= !(0xffff_ffffu64 << (o % 64));
    }
    Some(())
}

/// [`fill_typed`], compiled apart for float and integer types (the type test of
/// `value_code` then folds away).
// (The two branches are the same code on purpose: each is inlined under a known type test.)
#[allow(clippy::if_same_then_else)]
#[inline(always)]
fn fill_values(regs: &mut [u8], ty: DataType, r: &mut Rng, note: impl FnMut(values::LabelCode)) {
    if ty.is_float() {
        fill_typed(regs, ty, r, note)
    } else {
        fill_typed(regs, ty, r, note)
    }
}

/// Random values of `ty` over whole registers (`regs`: 32 bytes each), each value's label
/// to `note`.
#[inline(always)]
fn fill_typed(regs: &mut [u8], ty: DataType, r: &mut Rng, mut note: impl FnMut(values::LabelCode)) {
    let sz = (ty.bytes() as usize).clamp(1, 8);
    for reg in regs.chunks_exact_mut(32) {
        // Each value's 8 little-endian bytes at its offset (the next value overwrites the
        // bytes beyond its size; the slack past 32 is dropped).
        let mut buf = [0u8; 40];
        let mut o = 0;
        while o < 32 {
            let (v, c) = values::value_code(ty, r);
            note(c);
            buf[o..o + 8].copy_from_slice(&v.to_le_bytes());
            o += sz;
        }
        reg.copy_from_slice(&buf[..32]);
    }
}

/// The hex of register `r` in `st`, undefined bits as 0 (`reg_view` and `fast::hex_masked`;
/// a GRF register without undefined bytes directly).
fn reg_hex(out: &mut Vec<u8>, st: &ThreadState, r: RegRef) {
    match r {
        RegRef::Grf(n) => {
            if let Some((bytes, 0)) = grf_reg(st, n) {
                fast::hex32(out, bytes);
                return;
            }
        }
        RegRef::Arf(i) => {
            if arf_hex(out, st, i).is_some() {
                return;
            }
        }
    }
    let mut ub = [0u8; 64];
    match reg_view(st, r, &mut ub) {
        (bytes, false) => fast::hex(out, bytes),
        (bytes, true) => fast::hex_masked(out, bytes, ub.iter().copied()),
    }
}

/// The hex of ARF register `i` (at most 64 bytes), undefined bits as 0, a dword at a time
/// (None, nothing written: not in the layout).
fn arf_hex(out: &mut Vec<u8>, st: &ThreadState, i: usize) -> Option<()> {
    let r = st.layout.regs.get(i)?;
    let len = r.bytes.min(64);
    let bytes = st.arf.get(r.base..r.base + len)?;
    let mut buf = [0u8; 64];
    // (Registers start on a dword: one undefined mask per four bytes.)
    for (j, (d, s)) in buf[..len].chunks_mut(4).zip(bytes.chunks(4)).enumerate() {
        let w = r.base / 4 + j;
        let m = (st.arf_undef.get(w)? | st.layout.read_undef.get(w)?).to_le_bytes();
        for (k, x) in d.iter_mut().enumerate() {
            *x = s[k] & !m[k];
        }
    }
    fast::hex(out, &buf[..len]);
    Some(())
}

/// `r<n>`.
fn grf_name(n: u8) -> &'static str {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    &NAMES.get_or_init(|| (0..=255).map(|n| format!("r{n}")).collect())[usize::from(n)]
}

fn grf_base(insn_reg: u8) -> usize {
    usize::from(insn_reg) * 32
}

/// GRF byte offset of source `i`'s element for channel `c` (direct register sources).
fn src_offset(insn: &Insn, i: usize, c: u32) -> Option<usize> {
    let rs = insn.src[i]?.as_reg().copied()?;
    let Addr::Direct {
        reg: Reg::Grf(n),
        sub,
    } = rs.addr
    else {
        return None;
    };
    let s = rs.ty.bytes();
    let e = if insn.is_three_src() {
        if rs.region.vstride == 0 {
            0
        } else {
            c
        }
    } else {
        let w = u32::from(rs.region.width.max(1));
        (c / w) * u32::from(rs.region.vstride) + (c % w) * u32::from(rs.region.hstride)
    };
    Some(grf_base(n) + usize::from(sub) + (e * s) as usize)
}

/// The value of source `i` for channel `c` (after source modifiers for floats).
pub(crate) fn src_value(
    insn: &Insn,
    i: usize,
    c: u32,
    st: &ThreadState,
) -> Option<(DataType, u64)> {
    match insn.src[i]? {
        Src::Imm(imm) => Some((imm.ty, imm.bits & mask_of(imm.ty))),
        Src::Reg(rs) => {
            let o = src_offset(insn, i, c)?;
            let (mut bits, _) = st.read_grf(o, rs.ty.bytes() as usize).ok()?;
            if rs.ty.is_float() {
                let sign = 1u64 << (rs.ty.bits() - 1);
                if rs.abs {
                    bits &= !sign;
                }
                if rs.neg {
                    bits ^= sign;
                }
            }
            Some((rs.ty, bits))
        }
    }
}

fn mask_of(t: DataType) -> u64 {
    if t.bits() >= 64 {
        u64::MAX
    } else {
        (1u64 << t.bits()) - 1
    }
}

fn fp_ops_of(insn: &Insn) -> FpOps {
    let raw = |i: &Insn| {
        i.src[0].is_some_and(|s| {
            s.ty() == i.dst.map_or(s.ty(), |d| d.ty)
                && s.as_reg().map_or(true, |r| !r.neg && !r.abs)
        }) && !i.sat
    };
    match insn.op {
        Opcode::Mov if raw(insn) => FpOps::RawMov,
        Opcode::Mov
            if insn.src[0].is_some_and(|s| s.ty() == DataType::HF)
                && insn.dst.is_some_and(|d| d.ty == DataType::F) =>
        {
            FpOps::HfToF
        }
        Opcode::Mov => FpOps::Conversion,
        Opcode::Math => FpOps::Math,
        Opcode::Cmp | Opcode::Cmpn => FpOps::Compare,
        Opcode::Sel if matches!(insn.cmod, CondMod::L | CondMod::Ge) => FpOps::Minmax,
        Opcode::Mad | Opcode::Lrp | Opcode::Mac => FpOps::Fused,
        _ => FpOps::Arith,
    }
}

fn grid_cond(c: CondMod) -> Option<GridCond> {
    Some(match c {
        CondMod::G => GridCond::G,
        CondMod::L => GridCond::L,
        CondMod::Z => GridCond::Z,
        CondMod::Nz => GridCond::Nz,
        CondMod::Le => GridCond::Le,
        CondMod::Ge => GridCond::Ge,
        _ => return None,
    })
}

fn push(rules: &mut RuleSet, id: &'static str) {
    rules.push(id);
}

/// The spec IDs the instruction exercises on these values, and the alternatives its results
/// allow.
#[allow(clippy::too_many_arguments)]
fn exercised(
    insn: &Insn,
    before: &ThreadState,
    after: &ThreadState,
    enabled: u32,
    denorm_sensitive: bool,
    env: FloatEnv,
    rules: &mut RuleSet,
    alts: &mut Vec<Alt>,
) {
    let p = env.platform;
    push(rules, insn.op.info().id);
    let nsrc = insn.num_srcs();
    let Some(dst) = insn.dst else { return };
    let sty = insn.src[0].map_or(dst.ty, |s| s.ty());
    if insn.op == Opcode::Math {
        if let Some(f) = template::math_row(insn.math, dst.ty, p) {
            push(rules, f.id);
        }
    }
    // Conversion to the destination type.
    if insn.op == Opcode::Mov || (sty != dst.ty && !matches!(insn.op, Opcode::Cmp | Opcode::Cmpn)) {
        if let Some(c) = conversions::rule(sty, dst.ty, p) {
            push(rules, c.id);
        }
    }
    if insn.sat {
        if let Some(s) = conversions::SATURATIONS
            .iter()
            .find(|s| s.types.contains(dst.ty) && s.gens.contains(p))
        {
            push(rules, s.id);
        }
        if dst.ty.is_float() {
            push(rules, "fp.sat.zero-sign");
        }
    }
    let mut chbuf = [0u32; 32];
    let mut nch = 0;
    for c in 0..u32::from(insn.exec_size).min(32) {
        if enabled >> c & 1 == 1 {
            chbuf[nch] = c;
            nch += 1;
        }
    }
    let channels = &chbuf[..nch];
    let float = dst.ty.is_float() || sty.is_float();
    let ops = fp_ops_of(insn);
    let vals = Operands::read(insn, before, after, channels);
    let mut any_class = [false; 9];
    let mut out_class = [false; 9];
    for &c in channels {
        for i in 0..nsrc {
            if let Some((t, v, class)) = vals.get(i, c) {
                if t.is_float() {
                    any_class[class] = true;
                } else if dst.ty.is_float() {
                    // Integer to float: nothing class-specific.
                }
                // Float-to-integer special inputs.
                if t.is_float() && !dst.ty.is_float() && insn.op == Opcode::Mov {
                    use crate::spec::conversions::SpecialInput as SI;
                    let input = match class {
                        values::NAN => Some(SI::Nan),
                        values::POS_INF => Some(SI::PosInf),
                        values::NEG_INF => Some(SI::NegInf),
                        values::NEG_ZERO | values::POS_ZERO => Some(SI::Zero),
                        values::NEG_DENORM | values::POS_DENORM => Some(SI::Denorm),
                        _ => overflow_input(t, v, dst.ty),
                    };
                    if let Some(x) = input.and_then(|x| conversions::special(x, t, dst.ty, p)) {
                        push(rules, x.id);
                    }
                }
            }
        }
        if let Some(v) = vals.out(c) {
            out_class[float_class(dst.ty, v)] = true;
        }
    }
    // Compare grids and the compare-NaN rules.
    if float && sty.is_float() {
        let kind = match insn.op {
            Opcode::Cmp => Some(GridKind::Cmp),
            Opcode::Cmpn => Some(GridKind::Cmpn),
            Opcode::Sel if matches!(insn.cmod, CondMod::L | CondMod::Ge) => Some(GridKind::Cmpn),
            _ => None,
        };
        if let (Some(kind), Some(gc)) = (kind, grid_cond(insn.cmod)) {
            if let Some(g) = compare::grid(kind, gc, p) {
                push(rules, g.id);
                for &c in channels {
                    let (Some((_, _, ca)), Some((_, _, cb))) = (vals.get(0, c), vals.get(1, c))
                    else {
                        continue;
                    };
                    rules.push_cell(g, ca, cb);
                    if kind == GridKind::Cmpn {
                        let id = if insn.op == Opcode::Sel {
                            match (ca == values::NAN, cb == values::NAN) {
                                (true, true) => "cmpn.rule.minmax-two-nan",
                                (false, false) => "cmpn.rule.no-nan-as-cmp",
                                _ => "cmpn.rule.minmax-one-nan",
                            }
                        } else {
                            match (ca == values::NAN, cb == values::NAN, gc == GridCond::Nz) {
                                (_, true, false) => "cmpn.rule.src1-nan",
                                (true, false, false) => "cmpn.rule.src0-nan",
                                (_, true, true) => "cmpn.rule.ne-src1-nan",
                                (true, false, true) => "cmpn.rule.ne-src0-nan",
                                _ => "cmpn.rule.no-nan-as-cmp",
                            }
                        };
                        push(rules, id);
                    }
                }
                if insn.op == Opcode::Sel {
                    push(rules, "cmpn.rule.minmax-by-sel");
                    push(rules, "cmpn.rule.sel-flags-untouched");
                }
            }
        } else if insn.cmod != CondMod::None {
            push(
                rules,
                match insn.cmod {
                    CondMod::O => "fp.cmod.overflow",
                    CondMod::U => "fp.cmod.unordered",
                    _ => "fp.cmod.result",
                },
            );
        }
    }
    // Float modes.
    let fty = if dst.ty.is_float() && ops != FpOps::Compare {
        dst.ty
    } else {
        sty
    };
    if let Some(ft) = FloatType::from_data_type(fty).filter(|_| float) {
        let denorm = denorm_sensitive
            || any_class[values::NEG_DENORM]
            || any_class[values::POS_DENORM]
            || out_class[values::NEG_DENORM]
            || out_class[values::POS_DENORM];
        if denorm {
            if let Some(id) = policy(&env, ft, ops).denorm_rule() {
                push(rules, id);
            }
        }
        let find = |e: FpEffect| super::fp_rows::find_row(e, ft, ops, p).map(|r| r.id);
        if env.rounding != crate::fp::Round::Rtne
            && matches!(ops, FpOps::Arith | FpOps::Fused | FpOps::Conversion)
        {
            if let Some(id) = find(FpEffect::RoundCr0) {
                push(rules, id);
            }
        }
        if any_class[values::NAN] && ops != FpOps::RawMov {
            for e in [FpEffect::NanPropagates, FpEffect::NanAny] {
                if let Some(id) = find(e) {
                    push(rules, id);
                }
            }
        }
        if env.alt && fty == DataType::F {
            push(rules, "fp.mode.cr0-select");
            let inf = any_class[values::POS_INF] || any_class[values::NEG_INF];
            let den = any_class[values::POS_DENORM] || any_class[values::NEG_DENORM];
            for (cond, e) in [
                (inf, FpEffect::AltInputInfToFmax),
                (den, FpEffect::AltInputDenormToZero),
                (any_class[values::NAN], FpEffect::AltInputNanToZero),
                (ops == FpOps::Math, FpEffect::AltMathAbs),
            ] {
                if cond {
                    if let Some(id) = find(e) {
                        push(rules, id);
                    }
                }
            }
        }
        facts(
            insn, &vals, channels, fty, ops, env.alt, &any_class, p, rules,
        );
        let fv = super::fp_rows::FpVector {
            insn,
            vals: &vals,
            channels,
            fty,
            ops,
            env: &env,
            p,
        };
        super::fp_rows::tag(&fv, rules);
        // Alternatives, per enabled destination element.
        let any_nan = find(FpEffect::NanAny).filter(|_| {
            !matches!(ops, FpOps::RawMov | FpOps::Minmax)
                && !matches!(insn.op, Opcode::Sel | Opcode::Cmp | Opcode::Cmpn)
        });
        let math = (insn.op == Opcode::Math)
            .then(|| template::math_row(insn.math, dst.ty, p))
            .flatten()
            .filter(|f| f.ulps > 0.0 || f.abs_error > 0.0);
        let fused = (ops == FpOps::Fused && !env.alt)
            .then(|| find(FpEffect::FusedOverflowInf))
            .flatten();
        if dst.ty.is_float()
            && !matches!(
                dst.addr,
                Addr::Direct {
                    reg: Reg::Arf(_),
                    ..
                }
            )
        {
            for &c in channels {
                let (Some((o, _)), Some(v)) = (dst_elem(insn, c), vals.out(c)) else {
                    continue;
                };
                let cls = float_class(dst.ty, v);
                let mk = |kind, rule: &'static str, ulps, abs| Alt {
                    kind,
                    reg: (o / 32) as u8,
                    offset: (o % 32) as u32,
                    ty: dst.ty,
                    ulps,
                    abs,
                    rule,
                };
                if cls == values::NAN {
                    if let Some(id) = any_nan {
                        alts.push(mk(AltKind::AnyNan, id, None, None));
                    }
                } else if let Some(f) = math {
                    if insn.math != MathFn::None {
                        alts.push(mk(
                            AltKind::Ulps,
                            f.id,
                            Some(f.ulps),
                            (f.abs_error > 0.0).then_some(f.abs_error),
                        ));
                    }
                }
                if let Some(id) = fused {
                    if cls != values::NAN && fused_product_overflows(insn, c, before) {
                        push(rules, id);
                        alts.push(mk(AltKind::OverflowInf, id, None, None));
                    }
                }
            }
        }
    }
}

/// Whether a fused operation's intermediate product of channel `c` exceeds the F range.
fn fused_product_overflows(insn: &Insn, c: u32, st: &ThreadState) -> bool {
    let f = |i: usize| {
        src_value(insn, i, c, st)
            .filter(|(t, _)| *t == DataType::F)
            .map(|(_, v)| f64::from(f32::from_bits(v as u32)))
    };
    let (a, b) = match insn.op {
        Opcode::Mad => (f(1), f(2)),
        Opcode::Lrp => (f(0), f(1)),
        _ => (None, None),
    };
    matches!((a, b), (Some(a), Some(b)) if (a * b).is_finite() && (a * b).abs() > f64::from(f32::MAX))
}

/// Float-to-integer overflow inputs.
fn overflow_input(t: DataType, v: u64, dst: DataType) -> Option<conversions::SpecialInput> {
    let x = match t {
        DataType::F => f64::from(f32::from_bits(v as u32)),
        DataType::DF => f64::from_bits(v),
        _ => return None,
    };
    let bits = dst.bits() as i32;
    let (lo, hi) = if dst.is_signed() {
        (-(2f64.powi(bits - 1)), 2f64.powi(bits - 1) - 1.0)
    } else {
        (0.0, 2f64.powi(bits) - 1.0)
    };
    if x > hi {
        Some(conversions::SpecialInput::PosOverflow)
    } else if x < lo {
        Some(conversions::SpecialInput::NegOverflow)
    } else {
        None
    }
}

/// GRF byte offset and size of destination channel `c`.
pub fn dst_elem(insn: &Insn, c: u32) -> Option<(usize, usize)> {
    let d = insn.dst?;
    let Addr::Direct {
        reg: Reg::Grf(n),
        sub,
    } = d.addr
    else {
        return None;
    };
    let s = d.ty.bytes() as usize;
    Some((
        grf_base(n) + usize::from(sub) + c as usize * usize::from(d.hstride.max(1)) * s,
        s,
    ))
}

/// The behavioural float-mode rows (IEEE special cases, exact operations, compare and math
/// special inputs) the channels' values exercise. A row is named only when it exists on `p`
/// for the type and its mode (IEEE/ALT) is the one in force.
#[allow(clippy::too_many_arguments)]
fn facts(
    insn: &Insn,
    vals: &Operands,
    channels: &[u32],
    fty: DataType,
    ops: FpOps,
    alt: bool,
    any_class: &[bool; 9],
    p: Platform,
    rules: &mut RuleSet,
) {
    let mut add = |id: &'static str| {
        if super::fp_rows::mode_row_applies(id, p, fty, alt) {
            rules.push(id);
        }
    };
    let class = |i: usize, c: u32| vals.get(i, c).map(|(t, v, k)| (k, t, v));
    let any = |f: &dyn Fn(u32) -> bool| channels.iter().any(|c| f(*c));
    let is =
        |i: usize, c: u32, cls: &[usize]| class(i, c).is_some_and(|(k, _, _)| cls.contains(&k));
    let one = |i: usize, c: u32| {
        class(i, c).is_some_and(|(_, t, v)| {
            crate::conformance::compare::float_value(t, v).to_bits() == 1f64.to_bits()
        })
    };
    use values::*;
    let inf = [POS_INF, NEG_INF];
    let zero = [POS_ZERO, NEG_ZERO];
    let nan_in = any_class[NAN];
    match ops {
        FpOps::Compare => {
            if nan_in {
                add(if insn.op == Opcode::Cmpn {
                    "fp.ieee.cmpn-nan"
                } else {
                    "fp.ieee.compare-nan"
                });
                add("fp.ieee.nan-unordered");
            }
            if any_class[POS_INF] || any_class[NEG_INF] {
                add("fp.ieee.compare-inf-exact");
            }
        }
        FpOps::Minmax if nan_in => add("fp.ieee.minmax-nan"),
        FpOps::RawMov => {
            add("fp.ieee.raw-mov-exact");
            add("fp.alt.raw-mov");
            if any_class[NEG_DENORM] || any_class[POS_DENORM] {
                add("fp.ieee.denorm.raw-mov");
            }
        }
        FpOps::Conversion | FpOps::HfToF => {
            add("fp.ieee.conversions");
            if ops == FpOps::HfToF && (any_class[NEG_DENORM] || any_class[POS_DENORM]) {
                add("fp.ieee.denorm.hf-to-f");
            }
        }
        FpOps::Math => {
            add("fp.round.math-model");
            let f = insn.math;
            if f == MathFn::Fdiv {
                add("fp.ieee.divide-two-step");
                if any(&|c| is(0, c, &inf) && is(1, c, &inf)) {
                    add("fp.ieee.inf-div-inf");
                }
            }
            if f == MathFn::Inv && any(&|c| is(0, c, &inf)) {
                add("fp.ieee.inv-of-inf");
            }
            if matches!(f, MathFn::Inv | MathFn::Rsq | MathFn::Sqrt) && any(&|c| is(0, c, &zero)) {
                add("fp.ieee.inv-rsq-sqrt-of-zero");
            }
            if matches!(f, MathFn::Rsq | MathFn::Sqrt)
                && any(&|c| is(0, c, &[NEG_FIN, NEG_INF, NEG_DENORM]))
            {
                add("fp.ieee.rsq-sqrt-of-negative");
            }
            if f == MathFn::Log
                && any(&|c| is(0, c, &[NEG_FIN, NEG_INF, NEG_DENORM, NEG_ZERO, POS_ZERO]))
            {
                add("fp.ieee.log-of-zero-negative");
            }
        }
        FpOps::Arith | FpOps::Fused => {
            match insn.op {
                Opcode::Rndd | Opcode::Rndu | Opcode::Rnde | Opcode::Rndz => {
                    add("fp.round.rnd-insns")
                }
                Opcode::Add | Opcode::Mul | Opcode::Mad => add("fp.ieee.correctly-rounded"),
                _ => {}
            }
            if insn.op == Opcode::Add {
                if any(&|c| {
                    is(0, c, &[POS_INF]) && is(1, c, &[NEG_INF])
                        || is(0, c, &[NEG_INF]) && is(1, c, &[POS_INF])
                }) {
                    add("fp.ieee.inf-minus-inf");
                }
                if any(&|c| is(1, c, &zero) && !is(0, c, &[NAN])) {
                    add("fp.ieee.add-zero");
                }
            }
            if insn.op == Opcode::Mul {
                if any(&|c| is(0, c, &zero) && is(1, c, &inf) || is(0, c, &inf) && is(1, c, &zero))
                {
                    add("fp.ieee.zero-times-inf");
                }
                if any(&|c| one(0, c) || one(1, c)) {
                    add("fp.ieee.mul-by-one");
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Outside the range, the images are equal; a difference anywhere is inside it.
    /// The range as the whole-image scan of session 5 computed it (every block of both
    /// images, the union of the differing ones).
    fn differing_range_scan(a: &[u8], b: &[u8], ua: &[u32], ub: &[u32]) -> (usize, usize) {
        const BLOCK: usize = 64;
        let (mut lo, mut hi) = (usize::MAX, 0);
        for (i, (x, y)) in a.chunks(BLOCK).zip(b.chunks(BLOCK)).enumerate() {
            if x != y {
                (lo, hi) = (lo.min(i * BLOCK), hi.max(i * BLOCK + BLOCK));
            }
        }
        for (i, (x, y)) in ua.chunks(BLOCK / 4).zip(ub.chunks(BLOCK / 4)).enumerate() {
            if x != y {
                (lo, hi) = (lo.min(i * BLOCK), hi.max(i * BLOCK + BLOCK));
            }
        }
        if a.len() != b.len() || ua.len() != ub.len() {
            (lo, hi) = (0, usize::MAX);
        }
        (lo.min(hi), hi)
    }

    #[test]
    fn differing_range_covers_every_difference() {
        let mut r = Rng::for_vector(1, 2, 0);
        for _ in 0..500 {
            let n = 4 * (1 + r.below(200));
            let a: Vec<u8> = (0..n).map(|_| r.next() as u8).collect();
            let ua: Vec<u32> = (0..n / 4).map(|_| r.next() as u32 & 0x11).collect();
            let (mut b, mut ub) = (a.clone(), ua.clone());
            for _ in 0..r.below(4) {
                if r.chance(1, 2) {
                    let i = r.below(n);
                    b[i] ^= 1 << r.below(8);
                } else {
                    let i = r.below(n / 4);
                    ub[i] ^= 1 << r.below(32);
                }
            }
            let (lo, hi) = differing_range(&a, &b, &ua, &ub);
            assert_eq!((lo, hi), differing_range_scan(&a, &b, &ua, &ub));
            for i in 0..n {
                if a[i] != b[i] || ua[i / 4] != ub[i / 4] {
                    assert!(lo <= i && i < hi, "byte {i} outside {lo}..{hi}");
                }
            }
            if a == b && ua == ub {
                assert!(lo >= hi);
            }
            let short = &b[..n - 4];
            assert_eq!(differing_range(&a, short, &ua, &ub), (0, usize::MAX));
        }
    }

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
    /// (a dword at a time) equals the general path (`reg_view` and `hex_masked`) for random
    /// contents and undefined flags.
    #[test]
    fn register_hex_equals_the_general_path() {
        let mut r = Rng::for_vector(6, 6, 0);
        let mut st = ThreadState::new(Platform::Skl);
        for _ in 0..300 {
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
                let mut fast_out = Vec::new();
                reg_hex(&mut fast_out, &st, reg);
                let mut ub = [0u8; 64];
                let (bytes, _) = reg_view(&st, reg, &mut ub);
                let mut general = Vec::new();
                fast::hex_masked(&mut general, bytes, ub.iter().copied());
                assert_eq!(fast_out, general, "{reg:?}");
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

    /// Slot resets as `assemble` does them (the ARF bytes noted by `Slot::set_arf`, what
    /// `after` must follow accumulated over attempts that stop early) make `st` equal the base
    /// and `after` equal `st` on the tracked GRF registers, the whole ARF and the accumulator
    /// records.
    #[test]
    fn slot_resets_restore_the_source() {
        let base = ThreadState::new(Platform::Skl);
        let set: Vec<usize> = ["f0", "f1", "acc0", "acc1", "cr0"]
            .into_iter()
            .filter_map(|n| base.arf_index(n))
            .collect();
        assert_eq!(set.len(), 5);
        let (mut st, mut after) = (Slot::new(&base), Slot::new(&base));
        let mut moved = Span::EMPTY;
        let mut r = Rng::for_vector(9, 9, 0);
        let mut followed = 0;
        for _ in 0..400 {
            let regs: Vec<u8> = (0..1 + r.below(4)).map(|_| r.below(128) as u8).collect();
            moved = moved.union(st.arf_dirty);
            st.reset_from(&base, &regs, Span::EMPTY);
            assert!(st.st.arf == base.arf && st.st.arf_undef == base.arf_undef);
            assert!(st.st.acc == base.acc);
            for &n in &regs {
                let o = usize::from(n) * 32;
                assert_eq!(st.st.grf[o..o + 32], base.grf[o..o + 32]);
            }
            // As `assemble`: register fills and `Slot::set_arf` on `st` only.
            for &n in &regs {
                fill_regs(&mut st.st, n, 1, DataType::UD, &mut r, None).unwrap();
            }
            for &i in &set {
                if r.chance(1, 2) {
                    let bytes: Vec<u8> = (0..4).map(|_| r.next() as u8).collect();
                    st.set_arf(i, &bytes).unwrap();
                }
            }
            if r.chance(1, 4) {
                // An attempt that stops before executing.
                continue;
            }
            after.reset_from(&st.st, &regs, moved.union(st.arf_dirty));
            moved = Span::EMPTY;
            after.arf_dirty = Span::ALL;
            after.acc_dirty = true;
            assert!(after.st.arf == st.st.arf && after.st.arf_undef == st.st.arf_undef);
            assert!(after.st.acc == st.st.acc);
            for &n in &regs {
                let o = usize::from(n) * 32;
                assert_eq!(after.st.grf[o..o + 32], st.st.grf[o..o + 32]);
            }
            followed += 1;
            // Anything in `after`'s ARF and accumulators may change (an executed
            // instruction), then the range.
            let k = r.below(after.st.arf.len());
            after.st.arf[k] ^= 0x5a;
            if let Some(a) = after.st.acc.first_mut() {
                a.ext[r.below(16)] ^= 1;
            }
            let (lo, hi) = differing_range(
                &st.st.arf,
                &after.st.arf,
                &st.st.arf_undef,
                &after.st.arf_undef,
            );
            after.arf_dirty = Span(lo, hi);
        }
        assert!(followed > 200);
    }
}
