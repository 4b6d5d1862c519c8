//! Rule tagging: the spec IDs a vector exercises on its values (compare grids, float-mode
//! rows, conversions, saturation) and the alternatives its results allow (any NaN, ulps,
//! overflow to infinity), from the operands read before and after execution.

use super::*;
use crate::golden::fp_rows::{mode_row, ModeRow};
use crate::golden::ids::{row_rule, rule};
use crate::spec::compare::GridInfo;
use crate::spec::conversions::{ConversionInfo, SaturationInfo, SpecialInfo};
use crate::spec::math::MathFuncInfo;
use crate::spec::OpcodeInfo;

/// An allowed alternative (written as `format::Alternative`).
pub(super) struct Alt {
    pub(super) kind: AltKind,
    pub(super) reg: u8,
    pub(super) offset: u32,
    pub(super) ty: DataType,
    pub(super) ulps: Option<f64>,
    pub(super) abs: Option<f64>,
    pub(super) rule: &'static str,
}

/// `Policy::new(env, ft, ops)`, remembered per thread (a direct-mapped cache: the keys of a
/// run are a few dozen cr0 values, types and operation classes).
pub(crate) fn policy(env: &FloatEnv, ft: FloatType, ops: FpOps) -> Policy {
    const SLOTS: usize = 256;
    thread_local! {
        static SEEN: std::cell::RefCell<Vec<Option<(u64, Policy)>>> =
            std::cell::RefCell::new(vec![None; SLOTS]);
    }
    // The key packed into one word (every field fits its bits: the denorm fields are cr0
    // bits, the enums have a few values each; a new field of the environment fails here).
    let FloatEnv {
        platform,
        rounding,
        alt,
        denorm_bits,
    } = *env;
    let key = u64::from(denorm_bits)
        | (platform as u64) << 32
        | (rounding as u64) << 40
        | u64::from(alt) << 48
        | (ft as u64) << 52
        | (ops as u64) << 56;
    let slot = (key.wrapping_mul(0x517c_c1b7_2722_0a95) >> 56) as usize % SLOTS;
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

/// GRF byte offset of source `i`'s element for channel `c` (direct register sources).
pub(super) fn src_offset(insn: &Insn, i: usize, c: u32) -> Option<usize> {
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

pub(super) fn mask_of(t: DataType) -> u64 {
    if t.bits() >= 64 {
        u64::MAX
    } else {
        (1u64 << t.bits()) - 1
    }
}

pub(super) fn fp_ops_of(insn: &Insn) -> FpOps {
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

pub(super) fn grid_cond(c: CondMod) -> Option<GridCond> {
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

/// The spec IDs the instruction exercises on these values, and the alternatives its results
/// allow.
#[allow(clippy::too_many_arguments)]
pub(super) fn exercised(
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
    rules.push_rule(row_rule!(
        OpcodeInfo,
        crate::spec::OPCODE_INFO,
        insn.op.info()
    ));
    let nsrc = insn.num_srcs();
    let Some(dst) = insn.dst else { return };
    let sty = insn.src[0].map_or(dst.ty, |s| s.ty());
    if insn.op == Opcode::Math {
        if let Some(f) = template::math_row(insn.math, dst.ty, p) {
            rules.push_rule(row_rule!(MathFuncInfo, crate::spec::math::FUNCS, f));
        }
    }
    // Conversion to the destination type.
    if insn.op == Opcode::Mov || (sty != dst.ty && !matches!(insn.op, Opcode::Cmp | Opcode::Cmpn)) {
        if let Some(c) = conversions::rule(sty, dst.ty, p) {
            rules.push_rule(row_rule!(ConversionInfo, conversions::CONVERSIONS, c));
        }
    }
    if insn.sat {
        if let Some(s) = conversions::SATURATIONS
            .iter()
            .find(|s| s.types.contains(dst.ty) && s.gens.contains(p))
        {
            rules.push_rule(row_rule!(SaturationInfo, conversions::SATURATIONS, s));
        }
        if dst.ty.is_float() {
            rules.push_rule(rule!("fp.sat.zero-sign"));
        }
    }
    // The rest is about float operands and results: an instruction with neither a float
    // destination nor a float source 0 exercises nothing on its values (its operands are not
    // read).
    if !dst.ty.is_float() && !sty.is_float() {
        return;
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
    let ops = fp_ops_of(insn);
    let mut vals = Operands::new();
    vals.read(insn, before, after, channels);
    let in_classes = vals.float_classes(nsrc);
    let any_class: [bool; 9] = std::array::from_fn(|k| in_classes >> k & 1 == 1);
    let out_class: [bool; 9] = std::array::from_fn(|k| vals.out_classes() >> k & 1 == 1);
    // Float-to-integer special inputs.
    if insn.op == Opcode::Mov && !dst.ty.is_float() && in_classes != 0 {
        for &c in channels {
            for i in 0..nsrc {
                let Some((t, v, class)) = vals.get(i, c).filter(|x| x.0.is_float()) else {
                    continue;
                };
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
                    rules.push_rule(row_rule!(SpecialInfo, conversions::SPECIALS, x));
                }
            }
        }
    }
    // Compare grids and the compare-NaN rules.
    if sty.is_float() {
        let kind = match insn.op {
            Opcode::Cmp => Some(GridKind::Cmp),
            Opcode::Cmpn => Some(GridKind::Cmpn),
            Opcode::Sel if matches!(insn.cmod, CondMod::L | CondMod::Ge) => Some(GridKind::Cmpn),
            _ => None,
        };
        if let (Some(kind), Some(gc)) = (kind, grid_cond(insn.cmod)) {
            if let Some(g) = compare::grid(kind, gc, p) {
                rules.push_rule(row_rule!(GridInfo, compare::GRIDS, g));
                for &c in channels {
                    let (Some((_, _, ca)), Some((_, _, cb))) = (vals.get(0, c), vals.get(1, c))
                    else {
                        continue;
                    };
                    rules.push_cell(g, ca, cb);
                    if kind == GridKind::Cmpn {
                        let r = if insn.op == Opcode::Sel {
                            match (ca == values::NAN, cb == values::NAN) {
                                (true, true) => rule!("cmpn.rule.minmax-two-nan"),
                                (false, false) => rule!("cmpn.rule.no-nan-as-cmp"),
                                _ => rule!("cmpn.rule.minmax-one-nan"),
                            }
                        } else {
                            match (ca == values::NAN, cb == values::NAN, gc == GridCond::Nz) {
                                (_, true, false) => rule!("cmpn.rule.src1-nan"),
                                (true, false, false) => rule!("cmpn.rule.src0-nan"),
                                (_, true, true) => rule!("cmpn.rule.ne-src1-nan"),
                                (true, false, true) => rule!("cmpn.rule.ne-src0-nan"),
                                _ => rule!("cmpn.rule.no-nan-as-cmp"),
                            }
                        };
                        rules.push_rule(r);
                    }
                }
                if insn.op == Opcode::Sel {
                    rules.push_rule(rule!("cmpn.rule.minmax-by-sel"));
                    rules.push_rule(rule!("cmpn.rule.sel-flags-untouched"));
                }
            }
        } else if insn.cmod != CondMod::None {
            rules.push_rule(match insn.cmod {
                CondMod::O => rule!("fp.cmod.overflow"),
                CondMod::U => rule!("fp.cmod.unordered"),
                _ => rule!("fp.cmod.result"),
            });
        }
    }
    // Float modes.
    let fty = if dst.ty.is_float() && ops != FpOps::Compare {
        dst.ty
    } else {
        sty
    };
    if let Some(ft) = FloatType::from_data_type(fty) {
        let fv = crate::golden::fp_rows::FpVector::new(insn, &vals, channels, ft, ops, &env);
        let pol = fv.pol;
        let denorm = denorm_sensitive
            || any_class[values::NEG_DENORM]
            || any_class[values::POS_DENORM]
            || out_class[values::NEG_DENORM]
            || out_class[values::POS_DENORM];
        if denorm {
            if let Some(id) = pol.denorm_rule() {
                rules.push(id);
            }
        }
        let find = |e: FpEffect| crate::golden::fp_rows::find_rule(e, ft, ops, p);
        if env.rounding != crate::fp::Round::Rtne
            && matches!(ops, FpOps::Arith | FpOps::Fused | FpOps::Conversion)
        {
            if let Some(r) = find(FpEffect::RoundCr0) {
                rules.push_rule(r);
            }
        }
        if any_class[values::NAN] && ops != FpOps::RawMov {
            for e in [FpEffect::NanPropagates, FpEffect::NanAny] {
                if let Some(r) = find(e) {
                    rules.push_rule(r);
                }
            }
        }
        if env.alt && fty == DataType::F {
            rules.push_rule(rule!("fp.mode.cr0-select"));
            let inf = any_class[values::POS_INF] || any_class[values::NEG_INF];
            let den = any_class[values::POS_DENORM] || any_class[values::NEG_DENORM];
            for (cond, e) in [
                (inf, FpEffect::AltInputInfToFmax),
                (den, FpEffect::AltInputDenormToZero),
                (any_class[values::NAN], FpEffect::AltInputNanToZero),
                (ops == FpOps::Math, FpEffect::AltMathAbs),
            ] {
                if cond {
                    if let Some(r) = find(e) {
                        rules.push_rule(r);
                    }
                }
            }
        }
        facts(
            insn, &vals, channels, ft, ops, env.alt, &any_class, p, rules,
        );
        crate::golden::fp_rows::tag(&fv, rules);
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
                    if let Some(r) = any_nan {
                        alts.push(mk(AltKind::AnyNan, r.name(), None, None));
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
                if let Some(r) = fused {
                    if cls != values::NAN && fused_product_overflows(insn, c, &vals) {
                        rules.push_rule(r);
                        alts.push(mk(AltKind::OverflowInf, r.name(), None, None));
                    }
                }
            }
        }
    }
}

/// Whether a fused operation's intermediate product of channel `c` exceeds the F range.
pub(super) fn fused_product_overflows(insn: &Insn, c: u32, vals: &Operands) -> bool {
    let f = |i: usize| {
        vals.get(i, c)
            .filter(|(t, _, _)| *t == DataType::F)
            .map(|(_, v, _)| f64::from(f32::from_bits(v as u32)))
    };
    let (a, b) = match insn.op {
        Opcode::Mad => (f(1), f(2)),
        Opcode::Lrp => (f(0), f(1)),
        _ => (None, None),
    };
    matches!((a, b), (Some(a), Some(b)) if (a * b).is_finite() && (a * b).abs() > f64::from(f32::MAX))
}

/// Float-to-integer overflow inputs.
pub(super) fn overflow_input(
    t: DataType,
    v: u64,
    dst: DataType,
) -> Option<conversions::SpecialInput> {
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
/// for the type `ft` and its mode (IEEE/ALT) is the one in force.
#[allow(clippy::too_many_arguments)]
pub(super) fn facts(
    insn: &Insn,
    vals: &Operands,
    channels: &[u32],
    ft: FloatType,
    ops: FpOps,
    alt: bool,
    any_class: &[bool; 9],
    p: Platform,
    rules: &mut RuleSet,
) {
    let mut add = |r: &ModeRow| {
        if r.applies(p, ft, alt) {
            rules.push_rule(r.rule);
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
                    mode_row!("fp.ieee.cmpn-nan")
                } else {
                    mode_row!("fp.ieee.compare-nan")
                });
                add(mode_row!("fp.ieee.nan-unordered"));
            }
            if any_class[POS_INF] || any_class[NEG_INF] {
                add(mode_row!("fp.ieee.compare-inf-exact"));
            }
        }
        FpOps::Minmax if nan_in => add(mode_row!("fp.ieee.minmax-nan")),
        FpOps::RawMov => {
            add(mode_row!("fp.ieee.raw-mov-exact"));
            add(mode_row!("fp.alt.raw-mov"));
            if any_class[NEG_DENORM] || any_class[POS_DENORM] {
                add(mode_row!("fp.ieee.denorm.raw-mov"));
            }
        }
        FpOps::Conversion | FpOps::HfToF => {
            add(mode_row!("fp.ieee.conversions"));
            if ops == FpOps::HfToF && (any_class[NEG_DENORM] || any_class[POS_DENORM]) {
                add(mode_row!("fp.ieee.denorm.hf-to-f"));
            }
        }
        FpOps::Math => {
            add(mode_row!("fp.round.math-model"));
            let f = insn.math;
            if f == MathFn::Fdiv {
                add(mode_row!("fp.ieee.divide-two-step"));
                if any(&|c| is(0, c, &inf) && is(1, c, &inf)) {
                    add(mode_row!("fp.ieee.inf-div-inf"));
                }
            }
            if f == MathFn::Inv && any(&|c| is(0, c, &inf)) {
                add(mode_row!("fp.ieee.inv-of-inf"));
            }
            if matches!(f, MathFn::Inv | MathFn::Rsq | MathFn::Sqrt) && any(&|c| is(0, c, &zero)) {
                add(mode_row!("fp.ieee.inv-rsq-sqrt-of-zero"));
            }
            if matches!(f, MathFn::Rsq | MathFn::Sqrt)
                && any(&|c| is(0, c, &[NEG_FIN, NEG_INF, NEG_DENORM]))
            {
                add(mode_row!("fp.ieee.rsq-sqrt-of-negative"));
            }
            if f == MathFn::Log
                && any(&|c| is(0, c, &[NEG_FIN, NEG_INF, NEG_DENORM, NEG_ZERO, POS_ZERO]))
            {
                add(mode_row!("fp.ieee.log-of-zero-negative"));
            }
        }
        FpOps::Arith | FpOps::Fused => {
            match insn.op {
                Opcode::Rndd | Opcode::Rndu | Opcode::Rnde | Opcode::Rndz => {
                    add(mode_row!("fp.round.rnd-insns"))
                }
                Opcode::Add | Opcode::Mul | Opcode::Mad => {
                    add(mode_row!("fp.ieee.correctly-rounded"))
                }
                _ => {}
            }
            if insn.op == Opcode::Add {
                if any(&|c| {
                    is(0, c, &[POS_INF]) && is(1, c, &[NEG_INF])
                        || is(0, c, &[NEG_INF]) && is(1, c, &[POS_INF])
                }) {
                    add(mode_row!("fp.ieee.inf-minus-inf"));
                }
                if any(&|c| is(1, c, &zero) && !is(0, c, &[NAN])) {
                    add(mode_row!("fp.ieee.add-zero"));
                }
            }
            if insn.op == Opcode::Mul {
                if any(&|c| is(0, c, &zero) && is(1, c, &inf) || is(0, c, &inf) && is(1, c, &zero))
                {
                    add(mode_row!("fp.ieee.zero-times-inf"));
                }
                if any(&|c| one(0, c) || one(1, c)) {
                    add(mode_row!("fp.ieee.mul-by-one"));
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The remembered policies are `Policy::new`'s, for random cr0 values of every platform,
    /// every float type and operation class, asked twice.
    #[test]
    fn remembered_policies_equal_new_ones() {
        let mut r = Rng::for_vector(44, 0, 0);
        let mut envs: Vec<FloatEnv> = Vec::new();
        for p in Platform::ALL {
            envs.push(FloatEnv::new(p));
            for _ in 0..12 {
                envs.push(FloatEnv::from_cr0(p, r.next() as u32));
            }
        }
        for _ in 0..2 {
            for env in &envs {
                for ft in FloatType::ALL {
                    for ops in FpOps::ALL {
                        assert_eq!(
                            format!("{:?}", policy(env, ft, ops)),
                            format!("{:?}", Policy::new(env, ft, ops)),
                            "{env:?} {ft:?} {ops:?}"
                        );
                    }
                }
            }
        }
    }
}
