//! Rule-aware instruction templates: every instruction is built valid by construction from the
//! spec tables (the opcode's type combinations `OpcodeInfo::types`, whether it takes a
//! predicate, condition modifier, saturation and source modifiers) and the region rules
//! (`region.*` in spec/rules/regions.toml: legal widths and strides, rows within a register,
//! at most 64 bytes per operand, destination stride equal to the execution/destination size
//! ratio). `euref::validate::check_insn` (issue 5) would confirm each one; until it exists the
//! templates only produce the shapes below.
//!
//! Which form an instruction takes is *coverage-directed*: `k` (the vector's rank among the
//! vectors of its opcode) walks every condition modifier, predication form, region shape
//! class, type combination, rounding mode, float mode, denorm mode and saturation of the
//! opcode in turn, with different periods, so each value of each knob comes up for every
//! opcode within a few hundred vectors.

mod form_limits;
mod form_sets;
mod pick;
pub(crate) mod value_edges;

pub use form_sets::{FormLabels, RegionRules, FORM_LABELS, REGION_RULES};

use super::values::Rng;
use crate::isa::{Dst, Flag, Imm, Insn, Reg, RegSrc, Region, Src, Swizzle};
use crate::spec::{AccessMode, CondMod, DataType, MathFn, OpClass, Opcode, Platform, PredCtrl};
use form_sets::{label, label_bits, region_rule};
use pick::{pick_cycle, pick_index};

/// What to generate: an opcode, or one math function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpSel {
    Op(Opcode),
    Math(MathFn),
}

impl OpSel {
    /// `add`, `math.inv`.
    pub fn name(self) -> String {
        match self {
            OpSel::Op(o) => o.name().to_string(),
            OpSel::Math(f) => format!("math.{}", math_name(f)),
        }
    }

    /// Parse `add`, `math` (every function), `math.sin`.
    pub fn parse(s: &str, p: Platform) -> Result<Vec<OpSel>, String> {
        let s = s.trim().to_ascii_lowercase();
        if s == "math" {
            return Ok(math_fns(p).into_iter().map(OpSel::Math).collect());
        }
        if let Some(f) = s.strip_prefix("math.") {
            return math_fns(p)
                .into_iter()
                .find(|m| math_name(*m) == f)
                .map(|m| vec![OpSel::Math(m)])
                .ok_or_else(|| format!("unknown or unsupported math function `{f}`"));
        }
        let op = Opcode::from_name(&s).ok_or_else(|| format!("unknown opcode `{s}`"))?;
        if !SUPPORTED.contains(&op) {
            return Err(format!(
                "`{s}` has no golden-vector template (supported: {}, math)",
                SUPPORTED
                    .iter()
                    .map(|o| o.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if !op.on(p) {
            return Err(format!("`{s}` does not exist on {}", p.name()));
        }
        Ok(vec![OpSel::Op(op)])
    }
}

/// Opcodes with a template (besides `math`).
pub const SUPPORTED: &[Opcode] = &[
    Opcode::Mac,
    Opcode::Frc,
    Opcode::Lrp,
    Opcode::Dp2,
    Opcode::Dp3,
    Opcode::Dp4,
    Opcode::Dph,
    Opcode::Line,
    Opcode::Pln,
    Opcode::F32to16,
    Opcode::F16to32,
    Opcode::Mov,
    Opcode::Add,
    Opcode::Mul,
    Opcode::Sel,
    Opcode::Cmp,
    Opcode::Cmpn,
    Opcode::And,
    Opcode::Or,
    Opcode::Xor,
    Opcode::Not,
    Opcode::Shl,
    Opcode::Shr,
    Opcode::Asr,
    Opcode::Avg,
    Opcode::Rndd,
    Opcode::Rndu,
    Opcode::Rnde,
    Opcode::Rndz,
    Opcode::Lzd,
    Opcode::Fbl,
    Opcode::Fbh,
    Opcode::Cbit,
    Opcode::Bfrev,
    Opcode::Mad,
    Opcode::Addc,
    Opcode::Subb,
    Opcode::Mach,
    Opcode::Bfe,
    Opcode::Bfi1,
    Opcode::Bfi2,
    Opcode::Csel,
    Opcode::Sad2,
    Opcode::Sada2,
];

/// Whether `op` reads or writes the accumulators without naming them (mac, mach and sada2
/// read them, addc and subb write acc0 with or without AccWrEn): its row's `implicit_acc`
/// (spec/opcodes.toml). Its vectors then have acc0/acc1 in `initial` and compared, as AccWrEn
/// forms do.
pub fn implicit_acc(op: Opcode) -> bool {
    op.info().implicit_acc != crate::spec::ImplicitAcc::None
}

/// The math functions generated: the floating-point ones and the integer divisions (whose
/// zero divisors and -2^31 / -1 the reference marks undefined).
pub fn math_fns(p: Platform) -> Vec<MathFn> {
    [
        MathFn::Inv,
        MathFn::Log,
        MathFn::Exp,
        MathFn::Sqrt,
        MathFn::Rsq,
        MathFn::Sin,
        MathFn::Cos,
        MathFn::Pow,
        MathFn::Fdiv,
        MathFn::IntDivQuotient,
        MathFn::IntDivRemainder,
        MathFn::IntDivBoth,
    ]
    .into_iter()
    .filter(|f| crate::spec::math::func(*f, p).is_some())
    .collect()
}

/// The spec/math.toml row of function `f` on `p` for operand type `ty` (`math.inv.f`,
/// `math.inv.hf`, ...).
pub fn math_row(
    f: MathFn,
    ty: DataType,
    p: Platform,
) -> Option<&'static crate::spec::math::MathFuncInfo> {
    crate::spec::math::FUNCS
        .iter()
        .find(|m| m.func == f && m.gens.contains(p) && m.types.contains(ty))
}

pub fn math_name(f: MathFn) -> &'static str {
    match f {
        MathFn::Inv => "inv",
        MathFn::Log => "log",
        MathFn::Exp => "exp",
        MathFn::Sqrt => "sqrt",
        MathFn::Rsq => "rsq",
        MathFn::Sin => "sin",
        MathFn::Cos => "cos",
        MathFn::Pow => "pow",
        MathFn::Fdiv => "fdiv",
        MathFn::IntDivQuotient => "intdiv",
        MathFn::IntDivRemainder => "intmod",
        MathFn::IntDivBoth => "intdivmod",
        _ => "other",
    }
}

/// Every generated selection for `p` (the default `--ops`).
pub fn default_ops(p: Platform) -> Vec<OpSel> {
    let mut v: Vec<OpSel> = SUPPORTED
        .iter()
        .copied()
        .filter(|o| o.on(p))
        .map(OpSel::Op)
        .collect();
    v.extend(math_fns(p).into_iter().map(OpSel::Math));
    v
}

/// Source region shape classes (Align1).
pub const REGION_CLASSES: [&str; 6] =
    ["scalar", "contiguous", "strided", "2d", "row-repeat", "imm"];

/// Predication forms.
pub const PRED_FORMS: [&str; 8] = [
    "none", "f0.0", "-f0.0", "f0.1", "f1.0", "any4h", "all4h", "any2h",
];

/// The ranks of [`PRED_FORMS`] (picked from as the forms are).
const PRED_INDICES: [usize; PRED_FORMS.len()] = [0, 1, 2, 3, 4, 5, 6, 7];
/// The unpredicated form and the plain `f0.0`, as ranks of [`PRED_FORMS`].
const PRED_NONE: usize = form_sets::index_of(&PRED_FORMS, "none");
const PRED_F0_0: usize = form_sets::index_of(&PRED_FORMS, "f0.0");

/// The labels of [`PRED_FORMS`], [`REGION_CLASSES`] and of the rounding modes (cr0.0
/// rounding-mode field values 0..=3).
const PRED_LABELS: [u64; PRED_FORMS.len()] = label_bits("pred:", &PRED_FORMS);
const REGION_LABELS: [u64; REGION_CLASSES.len()] = label_bits("region:", &REGION_CLASSES);
const ROUND_LABELS: [u64; 4] = label_bits("round:", &["rtne", "ru", "rd", "rtz"]);

/// Every condition modifier, none first (the templates pick from slices of it).
const CMODS: [CondMod; 9] = [
    CondMod::None,
    CondMod::Z,
    CondMod::Nz,
    CondMod::G,
    CondMod::Ge,
    CondMod::L,
    CondMod::Le,
    CondMod::O,
    CondMod::U,
];
/// The labels `cmod:<name>` of [`CMODS`] (none for no modifier).
const CMOD_LABELS: [u64; CMODS.len()] = {
    let mut out = [0; CMODS.len()];
    let mut i = 1;
    while i < CMODS.len() {
        out[i] = form_sets::bit_of(&FORM_LABELS, "cmod:", cmod_name(CMODS[i]));
        i += 1;
    }
    out
};

/// The label of condition modifier `c` (none for no modifier).
fn cmod_label(c: CondMod) -> u64 {
    CMODS
        .iter()
        .position(|&x| x == c)
        .map_or(0, |i| CMOD_LABELS[i])
}

/// The execution sizes of the templates.
const EXEC_SIZES: [u8; 5] = [1, 2, 4, 8, 16];

/// The label of execution size `n` (one of [`EXEC_SIZES`]).
fn exec_label(n: u8) -> u64 {
    const LABELS: [u64; EXEC_SIZES.len()] = label_bits("exec:", &["1", "2", "4", "8", "16"]);
    EXEC_SIZES
        .iter()
        .position(|&x| x == n)
        .map_or(0, |i| LABELS[i])
}

/// Up to three (start register, count) pairs, in place (a shape is built for every `mov`, `add`
/// and `mul` vector: no allocation for them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SrcRegs {
    n: u8,
    regs: [(u8, u8); 3],
}

impl SrcRegs {
    /// Append `r` (a fourth is dropped: instructions have at most three sources).
    fn push(&mut self, r: (u8, u8)) {
        if let Some(x) = self.regs.get_mut(usize::from(self.n)) {
            *x = r;
            self.n += 1;
        }
    }
}

impl std::ops::Deref for SrcRegs {
    type Target = [(u8, u8)];
    fn deref(&self) -> &[(u8, u8)] {
        self.regs.get(..usize::from(self.n)).unwrap_or(&[])
    }
}

/// A built instruction and the facts the vector builder needs.
#[derive(Debug, Clone)]
pub struct Built {
    pub insn: Insn,
    /// Source registers whole (start register, count).
    pub src_regs: SrcRegs,
    pub dst_regs: Option<(u8, u8)>,
    /// Coverage labels of the form.
    pub labels: FormLabels,
    /// Region rules the operand shapes are subject to.
    pub region_rules: RegionRules,
    /// cr0.0 value for float instructions.
    pub cr0: u32,
    /// Rank of the vector among those of its opcode with the same condition modifier.
    pub cmod_rank: u64,
}

fn scalar_types(p: Platform, set: crate::spec::TypeSet) -> Vec<DataType> {
    set.iter()
        .filter(|t| !t.is_vector() && t.info().gens.contains(p))
        .collect()
}

/// Exec-type size of a source type (bytes execute as words).
fn exec_size_of(t: DataType) -> u32 {
    t.bytes().max(2)
}

/// The (destination, sources) type combinations of `op` with `nsrc` sources on `p` within
/// `types` (empty: all), in the order of the opcode row, without repeats.
fn type_pairs_uncached(
    op: Opcode,
    nsrc: usize,
    p: Platform,
    types: &[DataType],
) -> Vec<(DataType, [DataType; 3])> {
    let allowed = |t: DataType| types.is_empty() || types.contains(&t);
    let mut pairs: Vec<(DataType, [DataType; 3])> = Vec::new();
    for c in op.info().types.iter().filter(|c| c.gens.contains(p)) {
        for d in scalar_types(p, c.dst) {
            if !allowed(d) {
                continue;
            }
            let srcs: Vec<DataType> = scalar_types(p, c.srcs[0]);
            for s in srcs {
                if op != Opcode::Mov && !allowed(s) {
                    continue;
                }
                // Sources of one type (the combination's later sources accept it) keep the
                // instruction within the mixed-type rules.
                let ok = (1..nsrc).all(|i| c.srcs[i].contains(s));
                if !ok {
                    continue;
                }
                if !type_pair_ok(op, d, s, p) {
                    continue;
                }
                if !pairs.iter().any(|(pd, ps)| *pd == d && ps[0] == s) {
                    pairs.push((d, [s; 3]));
                }
            }
        }
    }
    pairs
}

/// A (destination, sources) type combination.
type TypePair = (DataType, [DataType; 3]);

/// The type combinations of an opcode ([`type_pairs_uncached`]) and the views the templates
/// pick from.
struct TypePairs {
    all: Vec<TypePair>,
    /// Those with float sources, in order.
    floats: Vec<TypePair>,
    /// Per destination type, in order of first appearance: its combinations, in order.
    by_dst: Vec<(DataType, Vec<TypePair>)>,
}

impl TypePairs {
    fn new(all: Vec<TypePair>) -> TypePairs {
        let floats = all
            .iter()
            .copied()
            .filter(|(_, s)| s[0].is_float())
            .collect();
        let mut by_dst: Vec<(DataType, Vec<TypePair>)> = Vec::new();
        for &pair in &all {
            match by_dst.iter_mut().find(|(d, _)| *d == pair.0) {
                Some((_, v)) => v.push(pair),
                None => by_dst.push((pair.0, vec![pair])),
            }
        }
        TypePairs {
            all,
            floats,
            by_dst,
        }
    }
}

/// [`type_pairs_uncached`], remembered per thread (they depend only on the arguments), in a
/// list per opcode (a shape looks its opcode's up).
fn type_pairs(op: Opcode, nsrc: usize, p: Platform, types: &[DataType]) -> std::rc::Rc<TypePairs> {
    type Key = (usize, Platform, Vec<DataType>);
    type Pairs = std::rc::Rc<TypePairs>;
    thread_local! {
        static SEEN: std::cell::RefCell<Vec<Vec<(Key, Pairs)>>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    SEEN.with(|c| {
        let mut c = c.borrow_mut();
        let i = op as usize;
        if c.len() <= i {
            c.resize_with(i + 1, Vec::new);
        }
        let seen = &mut c[i];
        if let Some((_, v)) = seen
            .iter()
            .find(|(k, _)| k.0 == nsrc && k.1 == p && k.2 == types)
        {
            return v.clone();
        }
        let v: Pairs = TypePairs::new(type_pairs_uncached(op, nsrc, p, types)).into();
        if seen.len() < 64 {
            seen.push(((nsrc, p, types.to_vec()), v.clone()));
        }
        v
    })
}

/// The types of math function `f` on `p` within `types` (empty: all): those of its rows, in
/// order (repeats kept).
fn math_types_uncached(f: MathFn, p: Platform, types: &[DataType]) -> Vec<DataType> {
    crate::spec::math::FUNCS
        .iter()
        .filter(|m| m.func == f && m.gens.contains(p))
        .flat_map(|m| scalar_types(p, m.types))
        .filter(|t| types.is_empty() || types.contains(t))
        .collect()
}

/// [`math_types_uncached`], remembered per thread (they depend only on the arguments).
fn math_types(f: MathFn, p: Platform, types: &[DataType]) -> std::rc::Rc<[DataType]> {
    type Key = (MathFn, Platform, Vec<DataType>);
    thread_local! {
        static SEEN: std::cell::RefCell<Vec<(Key, std::rc::Rc<[DataType]>)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    SEEN.with(|c| {
        let mut c = c.borrow_mut();
        if let Some((_, v)) = c.iter().find(|(k, _)| k.0 == f && k.1 == p && k.2 == types) {
            return v.clone();
        }
        let v: std::rc::Rc<[DataType]> = math_types_uncached(f, p, types).into();
        if c.len() < 1024 {
            c.push(((f, p, types.to_vec()), v.clone()));
        }
        v
    })
}

/// The data types a vector of `sel` on `p` can use when `types` restricts them (empty: all):
/// the destination and source types of the combinations [`build`] chooses from (math: the
/// function's types). Empty when [`build`] can make no instruction of `sel` (every rank
/// gives None): `euref golden` refuses such a selection before generating.
pub fn usable_types(sel: OpSel, p: Platform, types: &[DataType]) -> Vec<DataType> {
    let mut out: Vec<DataType> = match sel {
        OpSel::Math(f) => math_types(f, p, types).to_vec(),
        OpSel::Op(op) => type_pairs(op, usize::from(op.info().srcs), p, types)
            .all
            .iter()
            .flat_map(|&(d, s)| [d, s[0]])
            .collect(),
    };
    out.sort_by_key(|&t| t as usize);
    out.dedup();
    out
}

/// Build the instruction for selection `sel`, rank `k`, on `p`; `types` restricts the data
/// types. None when nothing fits (e.g. a type filter excluding every combination).
pub fn build(sel: OpSel, k: u64, p: Platform, types: &[DataType], r: &mut Rng) -> Option<Built> {
    let (op, mfn) = match sel {
        OpSel::Op(o) => (o, MathFn::None),
        OpSel::Math(f) => (Opcode::Math, f),
    };
    let info = op.info();
    let nsrc = if op == Opcode::Math {
        usize::from(crate::spec::math::func(mfn, p)?.srcs)
    } else {
        usize::from(info.srcs)
    };
    let allowed = |t: DataType| types.is_empty() || types.contains(&t);
    let sweep = grid_sweep(op, k);
    // One move in ten: a vector immediate source (V, UV, VF).
    if op == Opcode::Mov && pick_cycle(&[0u8, 0, 0, 0, 0, 0, 0, 0, 0, 1], k, 29, 7) == 1 {
        if let Some(b) = vector_imm_mov(k, p, &allowed, r) {
            return Some(b);
        }
    }
    // Type choice: a combination of the opcode row (math: the function's types). `alt_rank`:
    // the rank the float mode cycles with (add and mul: their type cycle's block, so that
    // every type combination takes each mode in turn).
    let mut alt_rank = k;
    let (dty, sty): (DataType, [DataType; 3]) = if op == Opcode::Math {
        // Every type of the function's row (F and, on Gen9, HF; D and UD for the divisions).
        let ts = math_types(mfn, p, types);
        if ts.is_empty() {
            return None;
        }
        let t = pick_cycle(&ts, k, 17, 2);
        (t, [t; 3])
    } else {
        let tp = type_pairs(op, nsrc, p, types);
        let (pairs, floats) = (&tp.all, &tp.floats);
        if pairs.is_empty() {
            return None;
        }
        if matches!(op, Opcode::Add | Opcode::Mul) {
            alt_rank = k / pairs.len() as u64;
        }
        // Compares and selects: three of four vectors on float types (the grids).
        let (d, s) = if sweep.is_some() && !floats.is_empty() {
            pick_cycle(floats, k / 2, 11, 1)
        } else if matches!(op, Opcode::Cmp | Opcode::Cmpn | Opcode::Sel)
            && !floats.is_empty()
            && k % 4 != 0
        {
            pick_cycle(floats, k / 4 * 3 + k % 4, 11, 1)
        } else if op == Opcode::Mov {
            // Moves: every destination type in turn, then its sources (so that the few
            // conversions to a rare destination type, e.g. DF, come up as often as others).
            let (d, srcs) = &tp.by_dst[pick_index(tp.by_dst.len(), k, 11, 0)];
            let d = *d;
            let kd = k / tp.by_dst.len() as u64;
            // One in three: a same-type (raw) move, when the type moves to itself.
            match srcs.iter().find(|x| x.1[0] == d) {
                Some(same) if kd % 3 == 0 => *same,
                _ => pick_cycle(srcs, kd, 13, 4),
            }
        } else {
            pick_cycle(pairs, k, 11, 0)
        };
        (d, s)
    };
    let three = info.class == OpClass::ThreeSrc;
    let st = sty[0];
    let float = dty.is_float() || st.is_float();
    let sweep = sweep.filter(|_| st.is_float());
    // An Align16 form of a plain dword or float instruction (region.align16-* rules).
    let a16 = !three
        && matches!(op, Opcode::Add | Opcode::Mul | Opcode::Mov)
        && dty == st
        && matches!(st, DataType::F | DataType::D | DataType::UD)
        && pick_cycle(&[false, false, false, false, false, true], k, 23, 5);
    let mut labels = 0u64;
    let mut region_rules = region_rule!("region.width-legal")
        | region_rule!("region.vstride-legal")
        | region_rule!("region.hstride-legal")
        | region_rule!("region.exec-size-times-elem-le-64")
        | region_rule!("region.dst-hstride-legal")
        | region_rule!("region.dst-hstride-nonzero");
    // Destination stride: the execution type / destination size ratio when narrowing, 2 for
    // a byte destination that is not a raw move.
    let ex = exec_size_of(st).max(if op == Opcode::Math { 4 } else { 0 });
    // A raw byte move may keep a packed byte destination (every other vector of its pair).
    let packed_raw_byte = op == Opcode::Mov && st == dty && dty.bytes() == 1 && (k / 7) % 2 == 0;
    let mut dstride = if ex > dty.bytes() && !three && !packed_raw_byte {
        region_rules |= region_rule!("region.dst-stride-exec-ratio");
        ex / dty.bytes()
    } else {
        1
    };
    if dty.bytes() == 1 && !(op == Opcode::Mov && st == dty) {
        dstride = dstride.max(2);
        region_rules |= region_rule!("region.packed-byte-dst-raw-mov");
    }
    // Integer <-> HF conversions write dword-strided (special.int-hf-conversion-dword-dst).
    let int_hf = (dty == DataType::HF && st.is_int()) || (dty.is_int() && st == DataType::HF);
    if int_hf && !three {
        dstride = 4 / dty.bytes();
    }
    if dstride > 4 {
        return None;
    }
    // (Not on sweeps: a destination spanning two registers would need sources that do.)
    if dstride == 1
        && !three
        && !a16
        && sweep.is_none()
        && !int_hf
        && r.chance(1, 6)
        && dty.bytes() <= 4
    {
        dstride = 2;
        labels |= label!("dst:strided");
    }
    let elem = dty.bytes().max(st.bytes());
    let maxn = (64 / (elem * dstride.max(1)))
        .min(64 / (st.bytes()))
        .min(16);
    let mut sizes = [0u8; EXEC_SIZES.len()];
    let mut ns = 0;
    for n in EXEC_SIZES {
        if u32::from(n) <= maxn
            && (!(three || a16) || n >= 4)
            && (!a16 || n <= 8)
            // Ivy Bridge: no compressed Align16 dword instructions
            // (op.ivb-align16-no-compressed-dword).
            && !(three && p == Platform::Ivb && u32::from(n) * elem > 32)
            && (op != Opcode::Math || n <= 8)
            && form_limits::exec_size_ok(op, st, n)
        {
            sizes[ns] = n;
            ns += 1;
        }
    }
    let sizes = &sizes[..ns];
    if sizes.is_empty() {
        return None;
    }
    let n = match sweep {
        // A sweep writes eight cells of its grid.
        Some(_) if sizes.contains(&GRID_SWEEP_CHANNELS) => GRID_SWEEP_CHANNELS,
        _ => pick_cycle(sizes, k, 17, 2),
    };
    let mut insn = Insn::new(op);
    insn.exec_size = n;
    insn.math = mfn;
    labels |= exec_label(n);
    // Registers: two per operand, in a random order from a random base.
    let base = 2 + r.below(80) as u8;
    let mut slots = [0u8, 2, 4, 6];
    for i in (1..4).rev() {
        slots.swap(i, r.below(i + 1));
    }
    let dreg = base + slots[0];
    // Condition modifier.
    // A dword integer multiply takes neither a condition modifier nor saturation
    // (op.mul-dword-no-sat-cmod).
    let dword_mul = op == Opcode::Mul && matches!(st, DataType::D | DataType::UD);
    let cmods: &[CondMod] = if !info.cmod || dword_mul {
        &[CondMod::None]
    } else if matches!(op, Opcode::Cmp | Opcode::Cmpn) {
        // z, nz, g, ge, l, le.
        &CMODS[1..7]
    } else if op == Opcode::Sel {
        &[CondMod::None, CondMod::L, CondMod::Ge]
    } else if op == Opcode::Csel {
        // csel selects by its condition modifier (op.csel-needs-cmod): z, nz, g, ge, l, le.
        &CMODS[1..7]
    } else {
        // .o and .u (overflow, unordered) only for two-source float instructions.
        &CMODS[..if float && !three { 9 } else { 7 }]
    };
    insn.cmod = pick_cycle(cmods, k, 1, 0);
    let mut cmod_rank = k / cmods.len() as u64;
    // A sweep's rank counts the sweeps of its grid: the vector builder gives sweep `s` the
    // cells 8s .. 8s+7 (mod 81), so sweeps 0..=10 of a grid write all 81 cells.
    let sweep = sweep.filter(|_| n == GRID_SWEEP_CHANNELS && insn.cmod != CondMod::None);
    if let Some(s) = sweep {
        cmod_rank = s;
    }
    if insn.cmod != CondMod::None {
        labels |= cmod_label(insn.cmod);
    }
    // Predication (sel without a condition modifier needs one).
    if info.pred {
        let forms: &[&str] = if three || a16 {
            &PRED_FORMS[..5]
        } else {
            &PRED_FORMS
        };
        let mut f = pick_cycle(&PRED_INDICES[..forms.len()], k, 7, 3);
        if sweep.is_some() {
            // Every channel enabled: each writes its cell.
            f = PRED_NONE;
        }
        // sel: predication or a condition modifier, not both (op.sel-pred-xor-cmod).
        if op == Opcode::Sel && insn.cmod == CondMod::None && f == PRED_NONE {
            f = PRED_F0_0;
        } else if op == Opcode::Sel && insn.cmod != CondMod::None {
            f = PRED_NONE;
        }
        apply_pred(&mut insn, PRED_FORMS[f]);
        labels |= PRED_LABELS[f];
    }
    // Saturation.
    if info.sat
        && !dword_mul
        && pick_cycle(&[false, true, false], k, 5, 1)
        && !matches!(op, Opcode::Cmp | Opcode::Cmpn)
    {
        insn.sat = true;
        labels |= label!("sat");
    }
    if three || a16 {
        insn.access = AccessMode::Align16;
    }
    if a16 {
        labels |= label!("access:align16");
    }
    // Destination.
    let dst_null = matches!(op, Opcode::Cmp | Opcode::Cmpn) && !int_hf && r.chance(1, 4);
    if dst_null && p.gen_x10() < 80 {
        // Gen7: a compare to null needs a thread switch (op.cmp-null-dst-switch).
        insn.ctrl.thread = crate::isa::ThreadCtrl::Switch;
    }
    insn.dst = Some(if dst_null {
        let mut d = Dst::new(Reg::NULL, 0, dty);
        d.hstride = 1;
        d
    } else {
        let mut d = Dst::new(Reg::Grf(dreg), 0, dty);
        d.hstride = dstride as u8;
        d
    });
    let dst_regs = (!dst_null).then(|| {
        let bytes = (u32::from(n) - 1) * dstride * dty.bytes() + dty.bytes();
        let regs = bytes.div_ceil(32) as u8;
        // Quotient and remainder: the remainder goes to the register(s) after the quotient.
        let regs = if mfn == MathFn::IntDivBoth {
            2 * regs
        } else {
            regs
        };
        (dreg, regs)
    });
    // Accumulator write enable on the opcodes that allow it (add, mul, ...): every fourth;
    // every other mach (Mesa builds mach with it: brw_fs_builder.h ALU2_ACC).
    let accwr_cycle: &[bool] = if op == Opcode::Mach {
        &[false, true]
    } else {
        &[false, false, false, true]
    };
    if info.accwr
        && !matches!(op, Opcode::Mac | Opcode::Math)
        && !three
        && !a16
        && pick_cycle(accwr_cycle, k, 19, 3)
    {
        insn.ctrl.acc_wr = true;
        labels |= label!("accwr");
    }
    // Sources.
    let mut src_regs = SrcRegs::default();
    for i in 0..nsrc {
        let sreg = base + slots[i + 1];
        let srcmod = info.srcmod && r.chance(1, 5) && sweep.is_none();
        let (src, rclass, regs) = if three || a16 {
            let rep = r.chance(1, 4);
            let region = if rep {
                Region::new(0, 4, 1)
            } else {
                Region::A16
            };
            let mut rs = RegSrc::new(Reg::Grf(sreg), 0, st, region);
            rs.swizzle = Swizzle::XYZW;
            let bytes = if rep {
                st.bytes()
            } else {
                u32::from(n) * st.bytes()
            };
            (
                Src::Reg(rs),
                if rep { "scalar" } else { "contiguous" },
                (sreg, bytes.div_ceil(32) as u8),
            )
        } else {
            // (Not for line and pln, which the engine cannot execute with an immediate.)
            let imm_ok = i + 1 == nsrc
                && nsrc == 2
                && imm_type_ok(st, p)
                && op != Opcode::Math
                && !crate::exec::ops_float::reads_grf_sources(op);
            // Float compares and selects: three of four vectors with per-channel regions, so
            // that their channels cover many grid cells.
            let per_channel = matches!(op, Opcode::Cmp | Opcode::Cmpn | Opcode::Sel)
                && st.is_float()
                && k % 4 != 1;
            let mut classes = [""; REGION_CLASSES.len()];
            let mut nc = 0;
            for c in REGION_CLASSES {
                if (imm_ok || c != "imm")
                    && (!per_channel || matches!(c, "contiguous" | "strided" | "2d"))
                {
                    classes[nc] = c;
                    nc += 1;
                }
            }
            let c = if sweep.is_some() {
                "contiguous"
            } else if let Some(c) = form_limits::fixed_region_class(op, i) {
                c
            } else {
                pick_cycle(&classes[..nc], k, 5, i as u64 + 1)
            };
            match region_for(c, n, st) {
                // pln's src1: its register layout, <8;8,1> from subregister 0
                // (op.pln-src1-region); u and v of eight channels per two registers.
                _ if op == Opcode::Pln && i == 1 => {
                    let rs = RegSrc::new(Reg::Grf(sreg), 0, st, Region::new(8, 8, 1));
                    let regs = 2 * n.div_ceil(8);
                    (Src::Reg(rs), "contiguous", (sreg, regs))
                }
                Some((_, _)) if c == "imm" => (Src::Imm(Imm::new(st, 0)), "imm", (0, 0)),
                Some((region, bytes)) => {
                    let rs = RegSrc::new(Reg::Grf(sreg), 0, st, region);
                    (Src::Reg(rs), c, (sreg, bytes.div_ceil(32) as u8))
                }
                None => {
                    let region = Region::SCALAR;
                    let rs = RegSrc::new(Reg::Grf(sreg), 0, st, region);
                    (Src::Reg(rs), "scalar", (sreg, 1))
                }
            }
        };
        let mut src = src;
        if let Src::Reg(rs) = &mut src {
            // No negated UD operand of a dword multiply or mach (acc.mul-ud-negate).
            let ud_mul = (dword_mul || op == Opcode::Mach) && rs.ty == DataType::UD;
            if srcmod && !ud_mul {
                if r.chance(1, 2) || !float {
                    rs.neg = true;
                    labels |= label!("srcmod:neg");
                } else {
                    rs.abs = true;
                    labels |= label!("srcmod:abs");
                }
            }
        }
        labels |= REGION_CLASSES
            .iter()
            .position(|c| *c == rclass)
            .map_or(0, |i| REGION_LABELS[i]);
        region_rules |= match rclass {
            "scalar" => {
                region_rule!("region.width1-hstride0")
                    | region_rule!("region.strides0-width1")
                    | if n == 1 {
                        region_rule!("region.exec1-width1-strides0")
                    } else {
                        0
                    }
            }
            "contiguous" | "strided" => region_rule!("region.vstride-eq-width-hstride"),
            "2d" => region_rule!("region.width-le-exec") | region_rule!("region.row-within-grf"),
            "row-repeat" => region_rule!("region.width-le-exec"),
            _ => 0,
        };
        if three {
            region_rules |= region_rule!("region.align16-dst-hstride-1")
                | region_rule!("region.align16-vstride-0-4");
        }
        if regs.1 > 0 {
            src_regs.push(regs);
        }
        insn.src[i] = Some(src);
    }
    // Float environment.
    let mut cr0 = 0u32;
    if float {
        use crate::spec::registers::field;
        let round = pick_cycle(&[0u32, 1, 2, 3], k, 3, 0);
        // ALT mode on F, and on HF and DF (which keep IEEE behaviour: fp.alt.f-only); not on
        // conversions between float types, which ALT mode does not support.
        // (Not on feature.df-element-size-4 platforms, whose DF moves the model executes in
        // IEEE mode only.)
        let alt = dty == st
            && (dty == DataType::F || !crate::spec::feature::DF_ELEMENT_SIZE_4.on(p))
            && dty.is_float()
            && pick_cycle(&[false, false, true], alt_rank, 2, 1);
        let keep = pick_cycle(&[false, true], k, 13, 1);
        cr0 = field::CR0_0_ROUNDING_MODE.set(cr0, round);
        cr0 = field::CR0_0_FP_MODE.set(cr0, u32::from(alt));
        let env = crate::float::FloatEnv::from_cr0(p, cr0).with_denorms(keep);
        cr0 = env.cr0();
        labels |= ROUND_LABELS[round as usize]
            | if alt {
                label!("fmode:alt")
            } else {
                label!("fmode:ieee")
            }
            | if keep {
                label!("denorm:keep")
            } else {
                label!("denorm:flush")
            };
    }
    Some(Built {
        insn,
        src_regs,
        dst_regs,
        labels: FormLabels(labels),
        region_rules: RegionRules(region_rules),
        cr0,
        cmod_rank,
    })
}

/// `mov` of a vector immediate: V to W, UV to UW (a one-word destination stride) or VF to F
/// (one DWord), to an OWord-aligned destination (imm.vector-dst-stride,
/// imm.vector-dst-oword-aligned); up to eight channels (four for VF, its element count).
fn vector_imm_mov(
    k: u64,
    p: Platform,
    allowed: &dyn Fn(DataType) -> bool,
    r: &mut Rng,
) -> Option<Built> {
    // (In an array: no allocation per form.)
    let mut forms = [(DataType::V, DataType::W); 3];
    let mut nf = 0;
    for (s, d) in [
        (DataType::V, DataType::W),
        (DataType::UV, DataType::UW),
        (DataType::VF, DataType::F),
    ] {
        if allowed(d) && s.info().gens.contains(p) && imm_type_ok(s, p) {
            forms[nf] = (s, d);
            nf += 1;
        }
    }
    if nf == 0 {
        return None;
    }
    let (s, d) = pick_cycle(&forms[..nf], k / 10, 31, 1);
    let sizes: &[u8] = if s == DataType::VF {
        &[1, 2, 4]
    } else {
        &[1, 2, 4, 8]
    };
    let n = pick_cycle(sizes, k / 10, 37, 2);
    let mut insn = Insn::new(Opcode::Mov);
    insn.exec_size = n;
    let dreg = 2 + r.below(80) as u8;
    let mut dst = Dst::new(Reg::Grf(dreg), 0, d);
    dst.hstride = 1;
    insn.dst = Some(dst);
    insn.src[0] = Some(Src::Imm(Imm::new(s, 0)));
    let mut labels = exec_label(n) | label!("imm:vector");
    let mut cr0 = 0;
    if d.is_float() {
        labels |= label!("round:rtne") | label!("fmode:ieee") | label!("denorm:flush");
        cr0 = crate::float::FloatEnv::from_cr0(p, 0).cr0();
    }
    Some(Built {
        insn,
        src_regs: SrcRegs::default(),
        dst_regs: Some((dreg, 1)),
        labels: FormLabels(labels),
        region_rules: RegionRules(
            region_rule!("region.dst-hstride-legal")
                | region_rule!("region.dst-hstride-nonzero")
                | region_rule!("region.exec-size-times-elem-le-64"),
        ),
        cr0,
        cmod_rank: k,
    })
}

/// Channels of a compare-grid sweep.
pub const GRID_SWEEP_CHANNELS: u8 = 8;

/// Compares and selects: every other vector of a condition modifier is a *sweep* (float
/// sources, eight channels, no predication, source modifiers or repeated elements), the
/// `s`-th sweep of its grid writing cells `8s .. 8s+7` of the 81 class pairs. Returns `s`.
fn grid_sweep(op: Opcode, k: u64) -> Option<u64> {
    let ncm = match op {
        Opcode::Cmp | Opcode::Cmpn => 6,
        Opcode::Sel => 3,
        _ => return None,
    };
    let q = k / ncm;
    (q % 2 == 0).then_some(q / 2)
}

/// Type pairs the templates generate (the conversions without a direct hardware path,
/// `*-nodirect` rows, which mov does not accept, are left out).
fn type_pair_ok(op: Opcode, d: DataType, s: DataType, p: Platform) -> bool {
    let q = |t: DataType| t.bytes() == 8;
    // (A DF operand of feature.df-element-size-4 platforms is regioned in 32-bit channels;
    // the templates count 8-byte elements, so there DF arithmetic is left out.)
    if (q(d) || q(s)) && crate::spec::feature::DF_ELEMENT_SIZE_4.on(p) && op != Opcode::Mov {
        return false;
    }
    // Half-float packing conversions: their own type pairs.
    if matches!(op, Opcode::F32to16 | Opcode::F16to32) {
        return true;
    }
    if op == Opcode::Mov {
        // The model moves DF only to DF on feature.df-element-size-4 platforms.
        if (d == DataType::DF || s == DataType::DF)
            && d != s
            && crate::spec::feature::DF_ELEMENT_SIZE_4.on(p)
        {
            return false;
        }
        if let Some(c) = crate::spec::conversions::rule(s, d, p) {
            if c.id.ends_with("nodirect") {
                return false;
            }
        } else {
            return false;
        }
        // Mixed HF/F conversions stay in the plain forms.
        return exec_size_of(s) / d.bytes() <= 4;
    }
    // sad2 and sada2 sum byte differences into words: their rows' pairs (UW|W <- UB|B).
    if matches!(op, Opcode::Sad2 | Opcode::Sada2) {
        return true;
    }
    // Same-type arithmetic keeps the templates clear of the mixed-type rules.
    d == s || (matches!(op, Opcode::Cmp | Opcode::Cmpn) && d.bytes() == s.bytes())
}

fn imm_type_ok(t: DataType, p: Platform) -> bool {
    t.info().imm_enc[p as usize].is_some() && t.bytes() <= 4
}

/// The region of a class for `n` channels of type `t`, and the bytes it spans.
fn region_for(class: &str, n: u8, t: DataType) -> Option<(Region, u32)> {
    let s = t.bytes();
    let n32 = u32::from(n);
    let span = |r: Region| region_span(r, n32, s);
    let r = match class {
        "scalar" | "imm" => Region::SCALAR,
        "contiguous" if n > 1 => {
            let w = n32.min(16).min(32 / s) as u8;
            Region::new(w, w, 1)
        }
        "strided" if n > 1 => {
            let w = n32.min(16).min(32 / (2 * s)).max(1) as u8;
            Region::new(2 * w, w, 2)
        }
        "2d" if n >= 4 => {
            let w = (n / 2).min(8).min((32 / s) as u8);
            Region::new(2 * w, w, 1)
        }
        "row-repeat" if n >= 4 => Region::new(0, 2, 1),
        _ => return None,
    };
    if r.width == 0 || u32::from(r.width) * u32::from(r.hstride.max(1)) * s > 32 + s {
        return None;
    }
    let sp = span(r);
    (sp <= 64).then_some((r, sp))
}

/// The bytes `n` channels of elements of `s` bytes span in region `r` (width above 0): the
/// end of the farthest element, `((i / w) * vstride + (i % w) * hstride) * s + s` at its
/// largest over the channels `i`, or `s` for none. (The offset grows with the row and the
/// column: the farthest element ends the last row, or the row before it.)
fn region_span(r: Region, n: u32, s: u32) -> u32 {
    let (w, vs, hs) = (
        u32::from(r.width),
        u32::from(r.vstride),
        u32::from(r.hstride),
    );
    if n == 0 || w == 0 {
        return s;
    }
    let end = |row: u32, col: u32| (row * vs + col * hs) * s + s;
    let (last_row, last_col) = ((n - 1) / w, (n - 1) % w);
    let last = end(last_row, last_col);
    match last_row {
        0 => last,
        _ => last.max(end(last_row - 1, w - 1)),
    }
}

fn apply_pred(insn: &mut Insn, f: &str) {
    let (pred, inv, flag) = match f {
        "f0.0" => (PredCtrl::Seq, false, Flag { reg: 0, sub: 0 }),
        "-f0.0" => (PredCtrl::Seq, true, Flag { reg: 0, sub: 0 }),
        "f0.1" => (PredCtrl::Seq, false, Flag { reg: 0, sub: 1 }),
        "f1.0" => (PredCtrl::Seq, false, Flag { reg: 1, sub: 0 }),
        "any4h" => (PredCtrl::Any4h, false, Flag { reg: 0, sub: 0 }),
        "all4h" => (PredCtrl::All4h, false, Flag { reg: 0, sub: 0 }),
        "any2h" => (PredCtrl::Any2h, false, Flag { reg: 1, sub: 1 }),
        _ => (PredCtrl::None, false, insn.flag),
    };
    insn.pred = pred;
    insn.pred_inv = inv;
    insn.flag = flag;
}

pub const fn cmod_name(c: CondMod) -> &'static str {
    match c {
        CondMod::None => "none",
        CondMod::Z => "z",
        CondMod::Nz => "nz",
        CondMod::G => "g",
        CondMod::Ge => "ge",
        CondMod::L => "l",
        CondMod::Le => "le",
        CondMod::O => "o",
        CondMod::U => "u",
    }
}

#[cfg(test)]
mod label_tests {
    use super::*;

    fn texts(bits: u64) -> Vec<&'static str> {
        FormLabels(bits).texts().collect()
    }

    /// The label lookups give the texts the forms are named by.
    #[test]
    fn form_label_lookups_name_their_forms() {
        assert_eq!(cmod_label(CondMod::None), 0);
        for c in &CMODS[1..] {
            assert_eq!(texts(cmod_label(*c)), [format!("cmod:{}", cmod_name(*c))]);
        }
        for n in EXEC_SIZES {
            assert_eq!(texts(exec_label(n)), [format!("exec:{n}")]);
        }
        for (f, b) in PRED_FORMS.iter().zip(PRED_LABELS) {
            assert_eq!(texts(b), [format!("pred:{f}")]);
        }
        for (c, b) in REGION_CLASSES.iter().zip(REGION_LABELS) {
            assert_eq!(texts(b), [format!("region:{c}")]);
        }
        assert_eq!(PRED_FORMS[PRED_NONE], "none");
        assert_eq!(PRED_FORMS[PRED_F0_0], "f0.0");
        assert_eq!(texts(label!("sat") | label!("accwr")), ["accwr", "sat"]);
    }
}

#[cfg(test)]
mod grf_source_tests {
    use super::*;
    use crate::state::ThreadState;

    /// line and pln forms have GRF sources only (the engine reads them by register), so
    /// every form executes; other two-source float forms still get immediates.
    #[test]
    fn line_and_pln_forms_execute() {
        for p in Platform::ALL {
            let mut imms = 0;
            for op in [Opcode::Line, Opcode::Pln, Opcode::Add] {
                let mut r = Rng::for_vector(9, op as u64, 0);
                for k in 0..400 {
                    let Some(b) = build(OpSel::Op(op), k, p, &[], &mut r) else {
                        continue;
                    };
                    let imm = b.insn.has_imm_src();
                    if op == Opcode::Add {
                        imms += usize::from(imm);
                        continue;
                    }
                    assert!(!imm, "{p:?} {op:?} form {k} has an immediate source");
                    let mut st = ThreadState::new(p);
                    let res = crate::exec::step(&mut st, &b.insn);
                    assert!(res.is_ok(), "{p:?} {op:?} form {k}: {res:?}");
                }
            }
            assert!(imms > 0, "{p:?}: no add form had an immediate");
        }
    }
}

#[cfg(test)]
mod type_pair_tests {
    use super::*;

    /// The remembered type combinations are those computed, for every opcode, source count,
    /// platform and a few type filters, asked twice in a mixed order.
    #[test]
    fn remembered_type_pairs_equal_computed_ones() {
        let filters: [&[DataType]; 3] = [&[], &[DataType::F, DataType::D], &[DataType::HF]];
        let mut pairs = 0;
        for round in 0..2 {
            for p in Platform::ALL {
                for &op in SUPPORTED.iter().rev().skip(round) {
                    for nsrc in 1..=3 {
                        for types in filters {
                            let want = type_pairs_uncached(op, nsrc, p, types);
                            let got = type_pairs(op, nsrc, p, types);
                            assert_eq!(got.all, want, "{op:?} {nsrc} {p:?} {types:?}");
                            pairs += want.len();
                        }
                    }
                }
            }
        }
        assert!(pairs > 1000, "{pairs}");
    }
}

#[cfg(test)]
mod span_tests {
    use super::*;

    /// `region_span` is the largest element end over the channels, for every width, stride,
    /// channel count and element size a template can ask (and more).
    #[test]
    fn region_span_is_the_farthest_element_end() {
        let mut checked = 0;
        for w in [1u8, 2, 4, 8, 16] {
            for vs in [0u8, 1, 2, 4, 8, 16, 32] {
                for hs in [0u8, 1, 2, 4] {
                    let r = Region::new(vs, w, hs);
                    for n in 0..=32u32 {
                        for s in [1u32, 2, 4, 8] {
                            let want = (0..n)
                                .map(|i| {
                                    let e = (i / u32::from(w)) * u32::from(vs)
                                        + (i % u32::from(w)) * u32::from(hs);
                                    e * s + s
                                })
                                .max()
                                .unwrap_or(s);
                            assert_eq!(region_span(r, n, s), want, "{r:?} {n} {s}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 10000, "{checked}");
    }
}
