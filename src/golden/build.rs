//! Building one vector: template -> initial state -> reference execution -> the changed
//! registers, their undefined bits, the allowed alternatives and the spec IDs exercised.

use super::format::{AltKind, Alternative, DstInfo, Vector, FORMAT_VERSION};
use super::template::{self, Built, OpSel};
use super::values::{self, float_class, Rng};
use crate::asm::{print_insn, Dialect, PrintOptions};
use crate::conformance::regs::{self, to_hex};
use crate::float::{FloatEnv, FloatType, Policy};
use crate::isa::{Addr, Insn, Reg, Src};
use crate::spec::compare::{self, GridCond, GridKind, CLASSES};
use crate::spec::{
    conversions, float_modes, CondMod, DataType, FpEffect, FpOps, MathFn, Opcode, Platform,
};
use crate::state::ThreadState;
use std::collections::BTreeMap;

/// What to generate.
#[derive(Debug, Clone)]
pub struct GenConfig {
    pub platform: Platform,
    pub ops: Vec<OpSel>,
    /// Data types allowed (empty: all).
    pub types: Vec<DataType>,
    pub seed: u64,
    /// The default state of the platform (`ThreadState::new`), cloned per vector.
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

/// Attempts per vector before giving up on an index (a template the engine refuses).
const ATTEMPTS: u32 = 16;

/// Vector `index` of the run (None: no instruction of the selection could be built).
pub fn vector(cfg: &GenConfig, index: u64) -> Option<Vector> {
    vector_counted(cfg, index, &mut 0)
}

thread_local! {
    /// Per-thread validator (reuses its property record and buffers).
    static CHECKER: std::cell::RefCell<crate::validate::Checker> =
        std::cell::RefCell::new(crate::validate::Checker::new());
}

/// Validate a built instruction with spec/rules (`validate::Checker`): None when a rule is
/// violated, else the IDs of the rules that apply to it (their `when` holds) and are specific
/// to it (a non-empty `when`), plus those of `hints` (the template's region rules) that apply.
fn validated_rules(p: Platform, insn: &Insn, hints: &[&'static str]) -> Option<Vec<String>> {
    CHECKER.with(|c| {
        let mut c = c.borrow_mut();
        if c.check(p, insn).len() != 0 {
            return None;
        }
        let mut app = Vec::new();
        c.applicable(p, &mut app);
        Some(
            app.iter()
                .filter(|r| !r.when.is_empty() || hints.contains(&r.id))
                .map(|r| r.id.to_string())
                .collect(),
        )
    })
}

/// [`vector`], counting in `rejected` the built instructions that the validator refused
/// (a template shape that broke a rule of spec/rules; the next attempt builds another).
pub fn vector_counted(cfg: &GenConfig, index: u64, rejected: &mut u32) -> Option<Vector> {
    if cfg.ops.is_empty() {
        return None;
    }
    let sel = cfg.ops[(index % cfg.ops.len() as u64) as usize];
    let k = index / cfg.ops.len() as u64;
    for attempt in 0..ATTEMPTS {
        let mut r = Rng::for_vector(cfg.seed, index, attempt);
        let kk = k.wrapping_add(u64::from(attempt) * 7919);
        let Some(b) = template::build(sel, kk, cfg.platform, &cfg.types, &mut r) else {
            continue;
        };
        let Some(rule_ids) = validated_rules(cfg.platform, &b.insn, &b.region_rules) else {
            *rejected += 1;
            continue;
        };
        if let Some(v) = assemble(cfg, index, sel, b, rule_ids, &mut r) {
            return Some(v);
        }
    }
    None
}

fn grf_base(insn_reg: u8) -> usize {
    usize::from(insn_reg) * 32
}

fn fill_value(t: DataType, r: &mut Rng, classes: &mut Vec<String>) -> u64 {
    let (v, label) = values::value(t, r);
    if !classes.contains(&label) {
        classes.push(label);
    }
    v
}

fn assemble(
    cfg: &GenConfig,
    index: u64,
    sel: OpSel,
    mut b: Built,
    rule_ids: Vec<String>,
    r: &mut Rng,
) -> Option<Vector> {
    let p = cfg.platform;
    let mut st = cfg.base.clone();
    let mut classes: Vec<String> = Vec::new();
    let mut initial: Vec<String> = Vec::new();
    // Sources: whole registers of typed values.
    for (i, s) in b.insn.src.iter_mut().enumerate() {
        let Some(s) = s else { continue };
        match s {
            Src::Imm(imm) => {
                let v = fill_value(imm.ty, r, &mut classes);
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
                let sz = rs.ty.bytes() as usize;
                for o in (grf_base(n)..grf_base(n) + 32 * usize::from(cnt)).step_by(sz) {
                    let v = fill_value(rs.ty, r, &mut classes);
                    st.write_grf(o, sz, v, false).ok()?;
                }
                for q in 0..cnt {
                    initial.push(format!("r{}", n + q));
                }
                let _ = i;
            }
        }
    }
    // Compares and selects on floats: channel c gets the class pair of grid cell
    // (start + c) mod 81, `start` advancing by the exec size from one vector of the grid
    // (opcode and condition modifier) to the next, so the vectors of a grid walk its cells.
    let grid_op = matches!(b.insn.op, Opcode::Cmp | Opcode::Cmpn | Opcode::Sel);
    if grid_op && b.insn.src[0].is_some_and(|s| s.ty().is_float()) {
        let n = u64::from(b.insn.exec_size);
        let start = ((b.cmod_rank * n + b.cmod_rank / 81 * 7) % 81) as usize;
        for c in 0..u32::from(b.insn.exec_size) {
            let cell = (start + c as usize) % 81;
            for (i, class) in [(0, cell / 9), (1, cell % 9)] {
                let Some(o) = src_offset(&b.insn, i, c) else {
                    continue;
                };
                let Some(t) = b.insn.src[i].map(|s| s.ty()) else {
                    continue;
                };
                let (v, _) = values::float_of_class(t, class, r);
                st.write_grf(o, t.bytes() as usize, v, false).ok()?;
            }
        }
    }
    // Float add and mul: special operand pairs (tiny, overflowing and invalid results).
    let pairs = super::fp_rows::special_pairs(&b.insn, r, |i, c| src_offset(&b.insn, i, c));
    for (o, sz, v) in pairs {
        st.write_grf(o, sz, v, false).ok()?;
    }
    // Destination registers: random old contents (what the instruction must keep).
    if let Some((d, cnt)) = b.dst_regs {
        let dty = b.insn.dst.map(|d| d.ty).unwrap_or(DataType::UD);
        let sz = dty.bytes() as usize;
        let mut scratch = Vec::new();
        for o in (grf_base(d)..grf_base(d) + 32 * usize::from(cnt)).step_by(sz) {
            let v = fill_value(dty, r, &mut scratch);
            st.write_grf(o, sz, v, false).ok()?;
        }
        for q in 0..cnt {
            let name = format!("r{}", d + q);
            if !initial.contains(&name) {
                initial.push(name);
            }
        }
    }
    let uses_flags = b.insn.pred != crate::spec::PredCtrl::None || b.insn.cmod != CondMod::None;
    if uses_flags {
        for f in ["f0", "f1"] {
            // Mostly set bits, so that predicated vectors still execute most channels.
            let v = match r.below(8) {
                0 => 0,
                1 | 2 => u32::MAX,
                3 => r.next() as u32,
                _ => (r.next() | r.next()) as u32,
            };
            st.set_arf_bytes(f, 0, &v.to_le_bytes()).ok()?;
            initial.push(f.to_string());
        }
    }
    // mac and AccWrEn forms: random accumulator contents (mac reads acc0/acc1 implicitly).
    if b.insn.op == Opcode::Mac || b.insn.ctrl.acc_wr {
        for a in ["acc0", "acc1"] {
            let mut bytes = [0u8; 32];
            for c in bytes.chunks_mut(8) {
                c.copy_from_slice(&r.next().to_le_bytes());
            }
            if st.set_arf_bytes(a, 0, &bytes).is_ok() {
                initial.push(a.to_string());
            }
        }
    }
    let float = b.insn.dst.is_some_and(|d| d.ty.is_float())
        || b.insn.src.iter().flatten().any(|s| s.ty().is_float());
    if float {
        st.set_arf_bytes("cr0", 0, &b.cr0.to_le_bytes()).ok()?;
        initial.push("cr0".to_string());
    }
    let bytes = crate::codec::encode(&b.insn, p).ok()?;
    let mut after = st.clone();
    let info = crate::exec::step(&mut after, &b.insn).ok()?;
    // Does the result depend on the denorm mode? (A flushed result no longer looks denormal.)
    // (No second execution, and no state copy, when the mode already keeps denormals.)
    let env = FloatEnv::from_cr0(p, b.cr0).with_denorms(true);
    let denorm_sensitive = float && env.cr0() != b.cr0 && {
        let mut keep = st.clone();
        keep.set_arf_bytes("cr0", 0, &env.cr0().to_le_bytes())
            .ok()?;
        crate::exec::step(&mut keep, &b.insn).is_ok() && keep != after
    };
    // Changed registers.
    let mut expected = BTreeMap::new();
    let mut undefined = BTreeMap::new();
    let mut names: Vec<String> = Vec::new();
    if let Some((d, cnt)) = b.dst_regs {
        names.extend((0..cnt).map(|q| format!("r{}", d + q)));
    }
    // ARF registers: by index, and only those whose bytes or undefined bits changed (no
    // name lookups or copies for the unchanged ones).
    for (i, x) in st.arf_layout().regs.iter().enumerate() {
        if x.name == "ip" || x.name == "null" {
            continue;
        }
        if let (Some(a), Some(c)) = (st.arf_reg(i), after.arf_reg(i)) {
            if a == c {
                continue;
            }
        }
        names.push(x.name.clone());
    }
    for name in &names {
        let (Some(x), Some(y)) = (regs::read(&st, name), regs::read(&after, name)) else {
            continue;
        };
        let differ = x.undef != y.undef
            || x.bytes
                .iter()
                .zip(&y.bytes)
                .zip(&x.undef)
                .any(|((a, c), u)| (a ^ c) & !u != 0);
        if !differ {
            continue;
        }
        let vals: Vec<u8> = y.bytes.iter().zip(&y.undef).map(|(v, u)| v & !u).collect();
        expected.insert(name.clone(), to_hex(&vals));
        if y.undef.iter().any(|u| *u != 0) {
            undefined.insert(name.clone(), to_hex(&y.undef));
        }
    }
    let initial_map: BTreeMap<String, String> = initial
        .iter()
        .filter_map(|n| {
            regs::read(&st, n).map(|x| {
                let vals: Vec<u8> = x.bytes.iter().zip(&x.undef).map(|(v, u)| v & !u).collect();
                (n.clone(), to_hex(&vals))
            })
        })
        .collect();
    let text = print_insn(
        &b.insn,
        &PrintOptions {
            dialect: Dialect::Iga,
            platform: p,
        },
    );
    let mut rules: Vec<String> = Vec::new();
    let mut alternatives = Vec::new();
    exercised(
        &b.insn,
        &st,
        &after,
        info.enabled,
        denorm_sensitive,
        p,
        &mut rules,
        &mut alternatives,
    );
    rules.extend(rule_ids);
    rules.sort();
    rules.dedup();
    classes.extend(b.labels.iter().cloned());
    classes.sort();
    classes.dedup();
    let dst = b.insn.dst.and_then(|d| match d.addr {
        Addr::Direct {
            reg: Reg::Grf(n),
            sub,
        } => Some(DstInfo {
            reg: format!("r{n}"),
            offset: u32::from(sub),
            ty: d.ty.name().to_ascii_lowercase(),
            stride: u32::from(d.hstride),
        }),
        _ => None,
    });
    Some(Vector {
        v: FORMAT_VERSION,
        id: format!("{}-{:x}-{index}", p.name(), cfg.seed),
        gen: p.name().to_string(),
        op: match sel {
            OpSel::Op(o) => o.name().to_string(),
            OpSel::Math(_) => "math".to_string(),
        },
        insn: text,
        bytes: to_hex(&bytes),
        initial: initial_map,
        expected,
        undefined,
        dst,
        alternatives,
        rules,
        classes,
    })
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

fn push(rules: &mut Vec<String>, id: &str) {
    rules.push(id.to_string());
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
    p: Platform,
    rules: &mut Vec<String>,
    alts: &mut Vec<Alternative>,
) {
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
    let channels: Vec<u32> = (0..u32::from(insn.exec_size))
        .filter(|c| enabled >> c & 1 == 1)
        .collect();
    let float = dst.ty.is_float() || sty.is_float();
    let ops = fp_ops_of(insn);
    let env = before
        .arf_dword("cr0", 0)
        .map(|(v, _)| FloatEnv::from_cr0(p, v))
        .unwrap_or_else(|| FloatEnv::new(p));
    let mut any_class = [false; 9];
    let mut out_class = [false; 9];
    for &c in &channels {
        for i in 0..nsrc {
            if let Some((t, v)) = src_value(insn, i, c, before) {
                if t.is_float() {
                    any_class[float_class(t, v)] = true;
                } else if dst.ty.is_float() {
                    // Integer to float: nothing class-specific.
                }
                // Float-to-integer special inputs.
                if t.is_float() && !dst.ty.is_float() && insn.op == Opcode::Mov {
                    use crate::spec::conversions::SpecialInput as SI;
                    let input = match float_class(t, v) {
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
        if dst.ty.is_float() {
            if let Some((o, _)) = dst_elem(insn, c) {
                if let Ok((v, false)) = after.read_grf(o, dst.ty.bytes() as usize) {
                    out_class[float_class(dst.ty, v)] = true;
                }
            }
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
                for &c in &channels {
                    let (Some((t0, a)), Some((t1, b))) =
                        (src_value(insn, 0, c, before), src_value(insn, 1, c, before))
                    else {
                        continue;
                    };
                    let (ca, cb) = (float_class(t0, a), float_class(t1, b));
                    rules.push(format!("{}[{},{}]", g.id, CLASSES[ca], CLASSES[cb]));
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
        let pol = Policy::new(&env, ft, ops);
        let denorm = denorm_sensitive
            || any_class[values::NEG_DENORM]
            || any_class[values::POS_DENORM]
            || out_class[values::NEG_DENORM]
            || out_class[values::POS_DENORM];
        if denorm {
            if let Some(id) = pol.denorm_rule() {
                push(rules, id);
            }
        }
        let find = |e: FpEffect| float_modes::find(e, fty, ops, p).map(|r| r.id);
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
            insn, before, &channels, fty, ops, env.alt, &any_class, p, rules,
        );
        let fv = super::fp_rows::FpVector {
            insn,
            before,
            after,
            channels: &channels,
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
            for &c in &channels {
                let Some((o, _)) = dst_elem(insn, c) else {
                    continue;
                };
                let Ok((v, false)) = after.read_grf(o, dst.ty.bytes() as usize) else {
                    continue;
                };
                let cls = float_class(dst.ty, v);
                let mk = |kind, rule: &str, ulps, abs| Alternative {
                    kind,
                    reg: format!("r{}", o / 32),
                    offset: (o % 32) as u32,
                    ty: dst.ty.name().to_ascii_lowercase(),
                    ulps,
                    abs,
                    rule: rule.to_string(),
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
    before: &ThreadState,
    channels: &[u32],
    fty: DataType,
    ops: FpOps,
    alt: bool,
    any_class: &[bool; 9],
    p: Platform,
    rules: &mut Vec<String>,
) {
    let mut add = |id: &str| {
        let ok = float_modes::RULES.iter().any(|r| {
            r.id == id
                && r.gens.contains(p)
                && r.types.contains(fty)
                && match r.mode {
                    crate::spec::float_modes::FpMode::Ieee => !alt,
                    crate::spec::float_modes::FpMode::Alt => alt,
                    crate::spec::float_modes::FpMode::Both => true,
                }
        });
        if ok {
            rules.push(id.to_string());
        }
    };
    let class =
        |i: usize, c: u32| src_value(insn, i, c, before).map(|(t, v)| (float_class(t, v), t, v));
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
