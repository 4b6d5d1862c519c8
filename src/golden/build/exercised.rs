//! Rule tagging: the spec IDs a vector exercises on its values (compare grids, float-mode
//! rows, conversions, saturation) and the alternatives its results allow (any NaN, ulps,
//! overflow to infinity), from the operands read before and after execution.

use super::*;
use crate::golden::fp_rows::{mode_row, ModeRow};
use crate::golden::ids::{row_rule, rule, Rule};
use crate::spec::compare::GridInfo;
use crate::spec::conversions::{ConversionInfo, SaturationInfo, SpecialInfo};
use crate::spec::OpcodeInfo;

mod plan;

pub(super) use plan::TagPlan;

/// An allowed alternative (written as `format::Alternative`).
pub(super) struct Alt {
    pub(super) kind: AltKind,
    pub(super) reg: u8,
    pub(super) offset: u32,
    pub(super) ty: DataType,
    pub(super) ulps: Option<f64>,
    pub(super) abs: Option<f64>,
    /// `value`: the accepted bits.
    pub(super) bits: Option<u64>,
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
    let key = env_bits(env) | (ft as u64) << 52 | (ops as u64) << 56;
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

/// A float environment packed into the low 49 bits of a word (every field fits its bits: the
/// denorm fields are cr0 bits, the enums have a few values each; a new field of the
/// environment fails here).
pub(super) fn env_bits(env: &FloatEnv) -> u64 {
    let FloatEnv {
        platform,
        rounding,
        alt,
        denorm_bits,
    } = *env;
    u64::from(denorm_bits)
        | (platform as u64) << 32
        | (rounding as u64) << 40
        | u64::from(alt) << 48
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
        // csel's one float operation: src2 compared with zero (its result is src0 or src1,
        // copied).
        Opcode::Cmp | Opcode::Cmpn | Opcode::Csel => FpOps::Compare,
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
/// allow: its [`TagPlan`] made and applied (the vectors of a shape apply the shape's).
#[allow(clippy::too_many_arguments)]
#[cfg(test)]
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
    let plan = TagPlan::new(insn, denorm_sensitive, env, Vec::new());
    plan.push_fixed(rules);
    plan.apply_values(
        insn,
        before,
        after,
        enabled,
        &mut Operands::new(),
        rules,
        alts,
    );
}

/// Whether the result of a float instruction (`float`) run with cr0.0 = `cr0` on `p` depends
/// on the denorm mode. The reference answer (the state after executing in keep-denormals mode
/// differs from the state after) holds whenever the mode flushes, since the two states always
/// differ in cr0.0 itself, so it is computed as that, without a second execution (whether the
/// comparison should leave cr0 out, which would list the denorm rows only for results that
/// really change, is a question of rule attribution, not of speed).
pub(super) fn denorm_sensitive(p: Platform, float: bool, cr0: u32) -> bool {
    float && FloatEnv::from_cr0(p, cr0).with_denorms(true).cr0() != cr0
}

/// The float environment of `st` on `p`: its cr0.0 as `ThreadState::arf_dword("cr0", 0)`
/// reads it (by index, `cr0`: the layout index of cr0).
#[inline]
pub(super) fn state_env(p: Platform, st: &ThreadState, cr0: Option<usize>) -> FloatEnv {
    let cr0 = cr0
        .map(|i| &st.layout.regs[i])
        .filter(|r| r.bytes > 0)
        .and_then(|r| st.arf.get(r.base..r.base + 4))
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    cr0.map_or_else(|| FloatEnv::new(p), |v| FloatEnv::from_cr0(p, v))
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

/// The behavioural float-mode rows that an operation exercises whatever its values (exact
/// operations, conversions, the math model), into `fixed`; [`facts`] names those its values
/// show. A row is named only when it exists on `p` for the type `ft` and its mode (IEEE/ALT)
/// is the one in force.
pub(super) fn facts_fixed(
    insn: &Insn,
    ft: FloatType,
    ops: FpOps,
    alt: bool,
    p: Platform,
    fixed: &mut Vec<Rule>,
) {
    let mut add = |r: &ModeRow| {
        if r.applies(p, ft, alt) {
            fixed.push(r.rule);
        }
    };
    match ops {
        FpOps::RawMov => {
            add(mode_row!("fp.ieee.raw-mov-exact"));
            add(mode_row!("fp.alt.raw-mov"));
        }
        FpOps::Conversion | FpOps::HfToF => add(mode_row!("fp.ieee.conversions")),
        FpOps::Math => {
            add(mode_row!("fp.round.math-model"));
            if insn.math == MathFn::Fdiv {
                add(mode_row!("fp.ieee.divide-two-step"));
            }
        }
        FpOps::Arith | FpOps::Fused => match insn.op {
            Opcode::Rndd | Opcode::Rndu | Opcode::Rnde | Opcode::Rndz => {
                add(mode_row!("fp.round.rnd-insns"))
            }
            Opcode::Add | Opcode::Mul | Opcode::Mad => add(mode_row!("fp.ieee.correctly-rounded")),
            _ => {}
        },
        _ => {}
    }
}

/// The behavioural float-mode rows (IEEE special cases, compare and math special inputs) the
/// channels' values exercise, beyond those of [`facts_fixed`]. A row is named only when it
/// exists on `p` for the type `ft` and its mode (IEEE/ALT) is the one in force.
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
            crate::vector::text::float_value(t, v).to_bits() == 1f64.to_bits()
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
        FpOps::RawMov if any_class[NEG_DENORM] || any_class[POS_DENORM] => {
            add(mode_row!("fp.ieee.denorm.raw-mov"))
        }
        FpOps::HfToF if any_class[NEG_DENORM] || any_class[POS_DENORM] => {
            add(mode_row!("fp.ieee.denorm.hf-to-f"))
        }
        FpOps::Math => {
            let f = insn.math;
            if f == MathFn::Fdiv && any(&|c| is(0, c, &inf) && is(1, c, &inf)) {
                add(mode_row!("fp.ieee.inf-div-inf"));
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
