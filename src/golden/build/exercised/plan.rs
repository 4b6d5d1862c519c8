//! The tagging of a shape, planned once: everything the tagging decides from the
//! instruction, its float environment and its denorm sensitivity (the same for every vector
//! of a shape) is decided when the shape is built: the rules every vector exercises whatever
//! its values, the table rows the value tests name, the float policy. Each vector then only
//! reads its operands and runs the tests that depend on them ([`TagPlan::apply_values`]).

use super::*;
use crate::golden::ids::Rule;
use crate::golden::operands::ReadPlan;
use crate::isa::Dst;
use crate::spec::math::MathFuncInfo;

mod cache;

/// A shape's tagging plan: the reading of its operands and its rule plan.
pub(in crate::golden::build) struct TagPlan {
    read: ReadPlan,
    rules: RulePlan,
}

/// What the rules of an instruction's vectors need besides their values.
struct RulePlan {
    /// The float environment and denorm sensitivity it was made for.
    env: FloatEnv,
    denorm_sensitive: bool,
    /// The rules of every vector, whatever its values.
    fixed: Vec<Rule>,
    /// The value tests (None: the instruction has neither a float destination nor a float
    /// source 0, or no destination: nothing depends on its values).
    float: Option<FloatPlan>,
}

/// The value tests of an instruction with float operands.
#[derive(Clone, Copy, Debug)]
struct FloatPlan {
    nsrc: usize,
    /// The destination type.
    dty: DataType,
    /// A float-to-integer move (its special inputs).
    to_int: bool,
    /// Its compare grid (cmp, cmpn and min/max sel on floats).
    grid: Option<Grid>,
    /// Its float-mode tests (None: it computes in no float type).
    modes: Option<Modes>,
}

/// A compare grid and what its cells name.
#[derive(Clone, Copy, Debug)]
struct Grid {
    g: &'static GridInfo,
    kind: GridKind,
    gc: GridCond,
    sel: bool,
}

/// The float-mode tests of an instruction computing in float type `ft`.
#[derive(Clone, Copy, Debug)]
struct Modes {
    ft: FloatType,
    ops: FpOps,
    pol: Policy,
    /// Named when an operand or result is denormal (None: no row, or named whatever the
    /// values).
    denorm: Option<&'static str>,
    /// Named when an operand is a NaN.
    nan: [Option<Rule>; 2],
    /// ALT mode on F: named for infinite, denormal and NaN operands.
    alt_inputs: Option<[Option<Rule>; 3]>,
    /// The alternatives: of a NaN result, of a math function's result, of a fused
    /// operation's overflowing product (None for a destination that is not a GRF register).
    alts: Option<Alts>,
}

/// The rows of a float destination's alternatives.
#[derive(Clone, Copy, Debug)]
struct Alts {
    any_nan: Option<Rule>,
    math: Option<&'static MathFuncInfo>,
    fused: Option<Rule>,
    /// An instruction whose execution-type result is converted to the destination type by a
    /// row with `alt_round = "rtz"` while cr0 does not round toward zero: how the result
    /// rounded toward zero, also accepted, is found.
    rtz: Option<RtzAlt>,
}

/// How the round-toward-zero alternative of a disputed narrowing conversion is found.
#[derive(Clone, Copy, Debug)]
enum RtzAlt {
    /// A mov: source 0 converted in this environment (cr0's, rounding toward zero).
    Convert(FloatEnv),
    /// Any other instruction (mixed-mode arithmetic with an HF destination, ...): the
    /// instruction executed again with `ExecOptions::narrow_toward_zero`, which computes the
    /// same execution-type (`from`) result and converts it rounding toward zero.
    Rerun { from: DataType },
}

/// The state after `insn` executed on `before` with its narrowing conversion rounding toward
/// zero (None when it does not execute).
fn rerun_toward_zero(insn: &Insn, before: &ThreadState) -> Option<ThreadState> {
    let mut st = before.clone();
    let opts = crate::exec::ExecOptions {
        narrow_toward_zero: true,
        ..Default::default()
    };
    crate::exec::step_with(&mut st, insn, &opts).ok()?;
    Some(st)
}

impl TagPlan {
    /// The plan of `insn` (its immediates' values aside) in `env`; `room`: room for its
    /// rules (emptied first).
    pub(in crate::golden::build) fn new(
        insn: &Insn,
        denorm_sensitive: bool,
        env: FloatEnv,
        room: Vec<Rule>,
    ) -> TagPlan {
        TagPlan {
            read: ReadPlan::of(insn),
            rules: RulePlan::new(insn, denorm_sensitive, env, room),
        }
    }

    /// [`TagPlan::new`] written over this plan, in place (a plan is large).
    pub(in crate::golden::build) fn renew(
        &mut self,
        insn: &Insn,
        denorm_sensitive: bool,
        env: FloatEnv,
        room: Vec<Rule>,
    ) {
        self.read.renew(insn);
        self.rules.renew(insn, denorm_sensitive, env, room);
    }

    /// Its room for rules (for the next plan; the plan keeps none).
    pub(in crate::golden::build) fn take_room(&mut self) -> Vec<Rule> {
        std::mem::take(&mut self.rules.fixed)
    }

    /// [`TagPlan::apply_values`] with the fixed rules, for a vector whose float environment
    /// (read from its state) is `env`: this plan when it was made for `env`, else one made
    /// for it.
    #[allow(clippy::too_many_arguments)]
    #[cfg(test)]
    pub(in crate::golden::build) fn apply_in(
        &self,
        env: FloatEnv,
        insn: &Insn,
        before: &ThreadState,
        after: &ThreadState,
        enabled: u32,
        vals: &mut Operands,
        out: (&mut RuleSet, &mut Vec<Alt>),
    ) {
        self.apply_leaving_fixed(env, insn, (before, after), enabled, vals, out, false);
    }

    /// [`TagPlan::apply_in`], leaving out the plan's fixed rules ([`TagPlan::fixed_rules`])
    /// when `leave_fixed` and this plan applies (`env` is the one it was made for): for a
    /// shape whose rule list holds them. Returns whether they were left out.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(in crate::golden::build) fn apply_leaving_fixed(
        &self,
        env: FloatEnv,
        insn: &Insn,
        (before, after): (&ThreadState, &ThreadState),
        enabled: u32,
        vals: &mut Operands,
        (rules, alts): (&mut RuleSet, &mut Vec<Alt>),
        leave_fixed: bool,
    ) -> bool {
        if env == self.rules.env {
            if !leave_fixed {
                self.push_fixed(rules);
            }
            self.apply_values(insn, before, after, enabled, vals, rules, alts);
            leave_fixed
        } else {
            let plan = TagPlan::new(insn, self.rules.denorm_sensitive, env, Vec::new());
            plan.push_fixed(rules);
            plan.apply_values(insn, before, after, enabled, vals, rules, alts);
            false
        }
    }

    /// The rules every vector of the plan exercises, whatever its values.
    pub(in crate::golden::build) fn fixed_rules(&self) -> &[Rule] {
        &self.rules.fixed
    }

    /// Add the plan's fixed rules to `rules`.
    #[inline]
    pub(in crate::golden::build) fn push_fixed(&self, rules: &mut RuleSet) {
        for r in &self.rules.fixed {
            rules.push_rule(*r);
        }
    }

    /// The spec IDs `insn` (the planned instruction with this vector's immediates) exercises
    /// on these values beyond the fixed ones ([`TagPlan::push_fixed`]), and the alternatives
    /// its results allow; `vals`: room for the operand values.
    #[allow(clippy::too_many_arguments)]
    pub(in crate::golden::build) fn apply_values(
        &self,
        insn: &Insn,
        before: &ThreadState,
        after: &ThreadState,
        enabled: u32,
        vals: &mut Operands,
        rules: &mut RuleSet,
        alts: &mut Vec<Alt>,
    ) {
        let plan = &self.rules;
        let Some(fp) = &plan.float else { return };
        let p = plan.env.platform;
        let (nsrc, dty) = (fp.nsrc, fp.dty);
        let mut chbuf = [0u32; 32];
        let mut nch = 0;
        // (Without a branch per channel: the enabled channels follow the random flags.)
        for c in 0..u32::from(insn.exec_size).min(32) {
            chbuf[nch % 32] = c;
            nch += (enabled >> c & 1) as usize;
        }
        let channels = &chbuf[..nch];
        vals.read_with(&self.read, insn, before, after, channels);
        let vals = &*vals;
        let in_classes = vals.float_classes(nsrc);
        let any_class: [bool; 9] = std::array::from_fn(|k| in_classes >> k & 1 == 1);
        let out_class: [bool; 9] = std::array::from_fn(|k| vals.out_classes() >> k & 1 == 1);
        // Float-to-integer special inputs.
        if fp.to_int && in_classes != 0 {
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
                        _ => overflow_input(t, v, dty),
                    };
                    if let Some(x) = input.and_then(|x| conversions::special(x, t, dty, p)) {
                        rules.push_rule(row_rule!(SpecialInfo, conversions::SPECIALS, x));
                    }
                }
            }
        }
        // Compare grids: the cells and the compare-NaN rules.
        if let Some(Grid { g, kind, gc, sel }) = fp.grid {
            for &c in channels {
                let (Some((_, _, ca)), Some((_, _, cb))) = (vals.get(0, c), vals.get(1, c)) else {
                    continue;
                };
                rules.push_cell(g, ca, cb);
                if kind == GridKind::Cmpn {
                    let r = if sel {
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
        }
        // Float modes.
        let Some(m) = &fp.modes else { return };
        let (ft, ops) = (m.ft, m.ops);
        let denormal = |c: &[bool; 9]| c[values::NEG_DENORM] || c[values::POS_DENORM];
        if denormal(&any_class) || denormal(&out_class) {
            if let Some(id) = m.denorm {
                rules.push(id);
            }
        }
        if any_class[values::NAN] {
            for r in m.nan.into_iter().flatten() {
                rules.push_rule(r);
            }
        }
        if let Some([inf, den, nan]) = m.alt_inputs {
            for (cond, r) in [
                (
                    any_class[values::POS_INF] || any_class[values::NEG_INF],
                    inf,
                ),
                (denormal(&any_class), den),
                (any_class[values::NAN], nan),
            ] {
                if let (true, Some(r)) = (cond, r) {
                    rules.push_rule(r);
                }
            }
        }
        facts(
            insn,
            vals,
            channels,
            ft,
            ops,
            plan.env.alt,
            &any_class,
            p,
            rules,
        );
        let fv =
            crate::golden::fp_rows::FpVector::new(insn, vals, channels, ft, ops, &plan.env, m.pol);
        crate::golden::fp_rows::tag(&fv, rules);
        // Alternatives, per enabled destination element.
        let Some(a) = &m.alts else { return };
        let rerun = match a.rtz {
            Some(RtzAlt::Rerun { .. }) if !channels.is_empty() => rerun_toward_zero(insn, before),
            _ => None,
        };
        for &c in channels {
            let (Some((o, _)), Some(v)) = (dst_elem(insn, c), vals.out(c)) else {
                continue;
            };
            let cls = float_class(dty, v);
            let mk = |kind, rule: &'static str, ulps, abs| Alt {
                kind,
                reg: (o / 32) as u8,
                offset: (o % 32) as u32,
                ty: dty,
                ulps,
                abs,
                bits: None,
                rule,
            };
            // The conversion's row and its round-toward-zero result, where it differs.
            let toward_zero = match a.rtz {
                Some(RtzAlt::Convert(env)) => vals.get(0, c).and_then(|(t, x, _)| {
                    let row = conversions::rule(t, dty, p).filter(|r| r.alt_round_rtz)?;
                    let cv = crate::float::convert(&env, t, dty, x, insn.sat).ok()?;
                    Some((row, cv.bits))
                }),
                Some(RtzAlt::Rerun { from }) => rerun.as_ref().and_then(|st| {
                    let row = conversions::rule(from, dty, p).filter(|r| r.alt_round_rtz)?;
                    let (bits, undef) = st.read_grf(o, dty.bytes() as usize).ok()?;
                    (!undef).then_some((row, bits))
                }),
                None => None,
            };
            if let Some((row, bits)) = toward_zero.filter(|t| t.1 != v) {
                alts.push(Alt {
                    bits: Some(bits),
                    ..mk(AltKind::Value, row.id, None, None)
                });
            }
            if cls == values::NAN {
                if let Some(r) = a.any_nan {
                    alts.push(mk(AltKind::AnyNan, r.name(), None, None));
                }
            } else if let Some(f) = a.math {
                alts.push(mk(
                    AltKind::Ulps,
                    f.id,
                    Some(f.ulps),
                    (f.abs_error > 0.0).then_some(f.abs_error),
                ));
            }
            if let Some(r) = a.fused {
                if cls != values::NAN && fused_product_overflows(insn, c, vals) {
                    rules.push_rule(r);
                    alts.push(mk(AltKind::OverflowInf, r.name(), None, None));
                }
            }
        }
    }
}

impl RulePlan {
    /// The rule plan of `insn` in `env`, its rules in `fixed` (emptied first).
    fn new(insn: &Insn, denorm_sensitive: bool, env: FloatEnv, fixed: Vec<Rule>) -> RulePlan {
        let mut r = RulePlan {
            env,
            denorm_sensitive,
            fixed: Vec::new(),
            float: None,
        };
        r.renew(insn, denorm_sensitive, env, fixed);
        r
    }

    /// [`RulePlan::new`] written over this plan: the plan remembered for the same key
    /// ([`cache::PlanKey`]: what the plan reads of the instruction, the environment and the
    /// denorm sensitivity), else made ([`RulePlan::renew_made`]) and remembered.
    fn renew(&mut self, insn: &Insn, denorm_sensitive: bool, env: FloatEnv, fixed: Vec<Rule>) {
        let key = cache::PlanKey::of(insn, denorm_sensitive, &env);
        self.fixed = fixed;
        if !cache::recall(key, &mut self.fixed, &mut self.float) {
            self.fixed.clear();
            self.float = float_plan(insn, denorm_sensitive, &env, &mut self.fixed);
            cache::remember(key, &self.fixed, self.float);
        }
        self.env = env;
        self.denorm_sensitive = denorm_sensitive;
    }

    /// [`RulePlan::renew`] without the cache: the plan made from the instruction.
    #[cfg(test)]
    fn renew_made(
        &mut self,
        insn: &Insn,
        denorm_sensitive: bool,
        env: FloatEnv,
        mut fixed: Vec<Rule>,
    ) {
        fixed.clear();
        self.float = float_plan(insn, denorm_sensitive, &env, &mut fixed);
        self.fixed = fixed;
        self.env = env;
        self.denorm_sensitive = denorm_sensitive;
    }
}

/// The rules of `insn` whatever its values, into `fixed`, and its value tests.
// (Inlined: its plan is made where it is kept.)
#[inline(always)]
fn float_plan(
    insn: &Insn,
    denorm_sensitive: bool,
    env: &FloatEnv,
    fixed: &mut Vec<Rule>,
) -> Option<FloatPlan> {
    let p = env.platform;
    fixed.push(row_rule!(
        OpcodeInfo,
        crate::spec::OPCODE_INFO,
        insn.op.info()
    ));
    let nsrc = insn.num_srcs();
    let dst = insn.dst?;
    let sty = insn.src[0].map_or(dst.ty, |s| s.ty());
    if insn.op == Opcode::Math {
        if let Some(f) = template::math_row(insn.math, dst.ty, p) {
            fixed.push(row_rule!(MathFuncInfo, crate::spec::math::FUNCS, f));
        }
    }
    // Conversion to the destination type.
    if insn.op == Opcode::Mov || (sty != dst.ty && !matches!(insn.op, Opcode::Cmp | Opcode::Cmpn)) {
        if let Some(c) = conversions::rule(sty, dst.ty, p) {
            fixed.push(row_rule!(ConversionInfo, conversions::CONVERSIONS, c));
        }
    }
    if insn.sat {
        if let Some(s) = conversions::SATURATIONS
            .iter()
            .find(|s| s.types.contains(dst.ty) && s.gens.contains(p))
        {
            fixed.push(row_rule!(SaturationInfo, conversions::SATURATIONS, s));
        }
        if dst.ty.is_float() {
            fixed.push(rule!("fp.sat.zero-sign"));
        }
    }
    // sel writes no flag, whatever the types and whatever selects (seed000 §3.3.3.6): every
    // sel with a condition modifier shows it.
    if insn.op == Opcode::Sel && insn.cmod != CondMod::None {
        fixed.push(rule!("cmpn.rule.sel-flags-untouched"));
    }
    // The rest is about float operands and results: an instruction with neither a float
    // destination nor a float source 0 exercises nothing on its values (its operands are not
    // read).
    if !dst.ty.is_float() && !sty.is_float() {
        return None;
    }
    let ops = fp_ops_of(insn);
    let mut grid = None;
    if sty.is_float() {
        let kind = match insn.op {
            Opcode::Cmp => Some(GridKind::Cmp),
            Opcode::Cmpn => Some(GridKind::Cmpn),
            Opcode::Sel if matches!(insn.cmod, CondMod::L | CondMod::Ge) => Some(GridKind::Cmpn),
            _ => None,
        };
        if insn.op == Opcode::Csel {
            // csel compares src2 with zero as cmp does and writes no flags (opcode.csel).
            let g = grid_cond(insn.cmod).and_then(|gc| compare::grid(GridKind::Cmp, gc, p));
            fixed.extend(g.map(|g| row_rule!(GridInfo, compare::GRIDS, g)));
        } else if let (Some(kind), Some(gc)) = (kind, grid_cond(insn.cmod)) {
            if let Some(g) = compare::grid(kind, gc, p) {
                fixed.push(row_rule!(GridInfo, compare::GRIDS, g));
                let sel = insn.op == Opcode::Sel;
                if sel {
                    fixed.push(rule!("cmpn.rule.minmax-by-sel"));
                }
                grid = Some(Grid { g, kind, gc, sel });
            }
        } else if insn.cmod != CondMod::None {
            fixed.push(match insn.cmod {
                CondMod::O => rule!("fp.cmod.overflow"),
                CondMod::U => rule!("fp.cmod.unordered"),
                _ => rule!("fp.cmod.result"),
            });
        }
    }
    Some(FloatPlan {
        nsrc,
        dty: dst.ty,
        to_int: insn.op == Opcode::Mov && !dst.ty.is_float(),
        grid,
        modes: modes(insn, dst, sty, ops, denorm_sensitive, env, fixed),
    })
}

/// The float-mode tests of `insn` (None: it computes in no float type), its rules whatever
/// the values into `fixed`.
fn modes(
    insn: &Insn,
    dst: Dst,
    sty: DataType,
    ops: FpOps,
    denorm_sensitive: bool,
    env: &FloatEnv,
    fixed: &mut Vec<Rule>,
) -> Option<Modes> {
    let p = env.platform;
    let fty = if dst.ty.is_float() && ops != FpOps::Compare {
        dst.ty
    } else {
        sty
    };
    let ft = FloatType::from_data_type(fty)?;
    let pol = policy(env, ft, ops);
    let mut denorm = pol.denorm_rule();
    if denorm_sensitive {
        fixed.extend(denorm.take().map(Rule::new));
    }
    let find = |e: FpEffect| crate::golden::fp_rows::find_rule(e, ft, ops, p);
    if env.rounding != crate::fp::Round::Rtne
        && matches!(ops, FpOps::Arith | FpOps::Fused | FpOps::Conversion)
    {
        fixed.extend(find(FpEffect::RoundCr0));
    }
    // (csel copies the source it selects, NaN or not: no NaN of its own.)
    let nan = if ops != FpOps::RawMov && insn.op != Opcode::Csel {
        [find(FpEffect::NanPropagates), find(FpEffect::NanAny)]
    } else {
        [None, None]
    };
    let mut alt_inputs = None;
    if env.alt && fty == DataType::F {
        fixed.push(rule!("fp.mode.cr0-select"));
        if ops == FpOps::Math {
            fixed.extend(find(FpEffect::AltMathAbs));
        }
        alt_inputs = Some([
            find(FpEffect::AltInputInfToFmax),
            find(FpEffect::AltInputDenormToZero),
            find(FpEffect::AltInputNanToZero),
        ]);
    }
    facts_fixed(insn, ft, ops, env.alt, p, fixed);
    crate::golden::fp_rows::tag_fixed(insn, ft, ops, env, fixed);
    let grf_dst = dst.ty.is_float()
        && !matches!(
            dst.addr,
            Addr::Direct {
                reg: Reg::Arf(_),
                ..
            }
        );
    let alts = grf_dst.then(|| Alts {
        any_nan: find(FpEffect::NanAny).filter(|_| {
            !matches!(ops, FpOps::RawMov | FpOps::Minmax)
                && !matches!(
                    insn.op,
                    Opcode::Sel | Opcode::Csel | Opcode::Cmp | Opcode::Cmpn
                )
        }),
        math: (insn.op == Opcode::Math && insn.math != MathFn::None)
            .then(|| template::math_row(insn.math, dst.ty, p))
            .flatten()
            .filter(|f| f.ulps > 0.0 || f.abs_error > 0.0),
        fused: (ops == FpOps::Fused && !env.alt)
            .then(|| find(FpEffect::FusedOverflowInf))
            .flatten(),
        rtz: rtz_alt(insn, dst.ty, env),
    });
    Some(Modes {
        ft,
        ops,
        pol,
        denorm,
        nan,
        alt_inputs,
        alts,
    })
}

/// The round-toward-zero alternative of `insn` writing `dty` in `env` (None: its result is
/// not converted by a row with `alt_round = "rtz"`, or cr0 already rounds toward zero): the
/// execution type is the widest float source type (a null source is no operand), as the
/// executor takes it; compares write no converted value.
fn rtz_alt(insn: &Insn, dty: DataType, env: &FloatEnv) -> Option<RtzAlt> {
    if env.rounding == crate::fp::Round::Rtz || matches!(insn.op, Opcode::Cmp | Opcode::Cmpn) {
        return None;
    }
    let from = (insn.src.iter().flatten().take(insn.num_srcs()))
        .filter(|s| !matches!(s, Src::Reg(r) if r.addr.is_null()))
        .map(|s| s.ty())
        .filter(|t| t.is_float())
        .max_by_key(|t| t.bytes())?;
    if from == dty || !conversions::rule(from, dty, env.platform).is_some_and(|r| r.alt_round_rtz) {
        return None;
    }
    Some(if insn.op == Opcode::Mov {
        RtzAlt::Convert(FloatEnv {
            rounding: crate::fp::Round::Rtz,
            ..*env
        })
    } else {
        RtzAlt::Rerun { from }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Float bits of every class (zeros, denormals, infinities, NaNs, ones, huge and tiny
    /// normals) of F, HF and DF, or random bits, for a GRF dword.
    fn special_dword(r: &mut Rng) -> u32 {
        const F: [u32; 12] = [
            0,
            0x8000_0000,
            1,
            0x8000_0001,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x3f80_0000,
            0x7f7f_ffff,
            0x0080_0000,
            0x3c00_3c00,
            0x7c00_0001,
        ];
        match r.below(3) {
            0 => F[r.below(F.len())],
            1 => (F[r.below(F.len())] & 0xffff) | (F[r.below(F.len())] << 16),
            _ => r.next() as u32,
        }
    }

    /// Rules and alternatives as comparable text.
    fn tagged(rules: &RuleSet, alts: &[Alt]) -> (Vec<&'static str>, Vec<String>) {
        let alts = alts
            .iter()
            .map(|a| {
                format!(
                    "{:?} {} {} {:?} {:?} {:?} {}",
                    a.kind, a.reg, a.offset, a.ty, a.ulps, a.abs, a.rule
                )
            })
            .collect();
        (rules.names(), alts)
    }

    /// A shape's plan, made once from its built instruction and reused, gives every vector the rules and
    /// alternatives of a plan made for the vector itself (its immediates, its float
    /// environment), for random shapes of every opcode on every platform (some with other
    /// saturation and source modifiers), random operand values rich in special floats, random
    /// enabled channels, and now and then a state whose cr0.0 is not the shape's (the plan
    /// then makes one for it).
    #[test]
    fn planned_tags_equal_tags_planned_per_vector() {
        let mut r = Rng::for_vector(81, 0, 0);
        let (mut checked, mut with_rules, mut with_alts, mut refit) = (0, 0, 0, 0);
        let (mut a_rules, mut b_rules) = (RuleSet::default(), RuleSet::default());
        let mut vals = Operands::new();
        for p in Platform::ALL {
            let base = ThreadState::new(p);
            let cr0_ix = base.arf_index("cr0");
            let ops = template::default_ops(p);
            for k in 0..600u64 {
                let sel = ops[r.below(ops.len())];
                let Some(mut b) = template::build(sel, k / 3, p, &[], &mut r) else {
                    continue;
                };
                // Now and then forms the templates do not make (other keys of the cache).
                if r.chance(1, 4) {
                    b.insn.sat ^= true;
                }
                if let Some(Src::Reg(rs)) = b.insn.src.iter_mut().flatten().nth(r.below(3)) {
                    rs.neg ^= r.chance(1, 4);
                    rs.abs ^= r.chance(1, 4);
                }
                let float = b.insn.dst.is_some_and(|d| d.ty.is_float())
                    || b.insn.src.iter().flatten().any(|s| s.ty().is_float());
                let env = if float {
                    FloatEnv::from_cr0(p, b.cr0)
                } else {
                    state_env(p, &base, cr0_ix)
                };
                let sensitive = denorm_sensitive(p, float, b.cr0);
                let plan = TagPlan::new(&b.insn, sensitive, env, vec![rule!("fp.ieee.default")]);
                for _ in 0..6 {
                    let mut insn = b.insn.clone();
                    for s in insn.src.iter_mut().flatten() {
                        if let Src::Imm(imm) = s {
                            imm.bits = u64::from(special_dword(&mut r));
                        }
                    }
                    let mut before = base.clone();
                    let mut after = base.clone();
                    for st in [&mut before, &mut after] {
                        for w in st.grf.chunks_mut(4) {
                            w.copy_from_slice(&special_dword(&mut r).to_le_bytes());
                        }
                        for u in st.grf_undef.iter_mut() {
                            *u = if r.chance(1, 8) { r.next() } else { 0 };
                        }
                        let cr0 = if float && r.chance(7, 8) {
                            b.cr0
                        } else {
                            r.next() as u32 & 0x4f1
                        };
                        if let Some(i) = cr0_ix {
                            let reg = &st.layout.regs[i];
                            let at = reg.base;
                            st.arf[at..at + 4].copy_from_slice(&cr0.to_le_bytes());
                        }
                    }
                    let enabled = match r.below(3) {
                        0 => u32::MAX,
                        1 => r.next() as u32,
                        _ => 0,
                    };
                    let vec_env = state_env(p, &before, cr0_ix);
                    refit += usize::from(vec_env != env);
                    a_rules.clear();
                    let mut a_alts = Vec::new();
                    plan.apply_in(
                        vec_env,
                        &insn,
                        &before,
                        &after,
                        enabled,
                        &mut vals,
                        (&mut a_rules, &mut a_alts),
                    );
                    b_rules.clear();
                    let mut b_alts = Vec::new();
                    exercised(
                        &insn,
                        &before,
                        &after,
                        enabled,
                        sensitive,
                        vec_env,
                        &mut b_rules,
                        &mut b_alts,
                    );
                    let (a, b) = (tagged(&a_rules, &a_alts), tagged(&b_rules, &b_alts));
                    assert_eq!(a, b, "{p:?} {insn:?} {enabled:#x}");
                    checked += 1;
                    with_rules += usize::from(a.0.len() > 3);
                    with_alts += usize::from(!a.1.is_empty());
                }
            }
        }
        assert!(checked > 10000, "{checked}");
        assert!(
            with_rules > 1000 && with_alts > 500 && refit > 200,
            "{with_rules} {with_alts} {refit}"
        );
    }

    /// A rule plan recalled from the per-thread cache equals the plan made from the
    /// instruction, for random shapes of every opcode on every platform (some with other
    /// saturation, condition modifiers, source modifiers, destinations and sources), in random
    /// float environments: the cache key holds everything the plan reads.
    #[test]
    fn recalled_rule_plans_equal_made_ones() {
        let mut r = Rng::for_vector(83, 0, 0);
        let (mut checked, mut recalled) = (0, 0);
        let cmods = [
            CondMod::None,
            CondMod::Z,
            CondMod::Nz,
            CondMod::G,
            CondMod::L,
            CondMod::O,
        ];
        for p in Platform::ALL {
            let ops = template::default_ops(p);
            for k in 0..3000u64 {
                let sel = ops[r.below(ops.len())];
                let Some(mut b) = template::build(sel, k / 3, p, &[], &mut r) else {
                    continue;
                };
                let insn = &mut b.insn;
                if r.chance(1, 4) {
                    insn.sat ^= true;
                }
                if r.chance(1, 6) {
                    insn.cmod = cmods[r.below(cmods.len())];
                }
                if let Some(Src::Reg(rs)) = insn.src.iter_mut().flatten().nth(r.below(3)) {
                    rs.neg ^= r.chance(1, 4);
                    rs.abs ^= r.chance(1, 4);
                }
                if r.chance(1, 10) {
                    insn.src[r.below(3)] = None;
                }
                if let Some(d) = insn.dst.as_mut().filter(|_| r.chance(1, 10)) {
                    d.addr = Addr::Direct {
                        reg: Reg::Arf(r.below(256) as u8),
                        sub: 0,
                    };
                }
                if r.chance(1, 20) {
                    insn.dst = None;
                }
                let cr0 = if r.chance(7, 8) {
                    b.cr0
                } else {
                    r.next() as u32 & 0x4f1
                };
                let env = FloatEnv::from_cr0(p, cr0);
                let sensitive = r.chance(1, 8);
                let key = cache::PlanKey::of(&b.insn, sensitive, &env);
                let mut probe = (Vec::new(), None);
                recalled += usize::from(cache::recall(key, &mut probe.0, &mut probe.1));
                let mut a = RulePlan::new(&b.insn, sensitive, env, vec![rule!("fp.ieee.default")]);
                let mut m = RulePlan::new(&b.insn, sensitive, env, Vec::new());
                m.renew_made(&b.insn, sensitive, env, vec![rule!("fp.sat.zero-sign")]);
                let shown = |x: &RulePlan| format!("{:?} {:?} {:?}", x.fixed, x.float, x.env);
                assert_eq!(shown(&a), shown(&m), "{p:?} {:?}", b.insn);
                // Renewed in place over another plan, through the cache.
                a.renew(&b.insn, sensitive, env, Vec::new());
                assert_eq!(shown(&a), shown(&m), "{p:?} {:?}", b.insn);
                checked += 1;
            }
        }
        assert!(checked > 12000, "{checked}");
        assert!(
            recalled > 2000 && recalled + 2000 < checked,
            "{recalled} {checked}"
        );
    }

    /// Mixed-mode arithmetic with an HF destination (issue 28): the F result of the operation
    /// (rounded per cr0, here to nearest even) is converted to HF by conv.float-narrow.f-hf,
    /// whose rounding the sources dispute; a vector also accepts that F result rounded toward
    /// zero to HF. Values by hand: HF has 10 fraction bits (ulp 2^-10 at 1.0, largest finite
    /// 65504, 0x7BFF).
    #[test]
    fn mixed_mode_hf_result_offers_the_round_toward_zero_alternative() {
        let p = Platform::Skl;
        let insn = crate::asm::parse_insn(
            "add (8|M0) r10.0<1>:hf r12.0<8;8,1>:f r14.0<8;8,1>:f",
            crate::asm::Dialect::Iga,
            p,
        )
        .unwrap();
        let f = |x: f32| u64::from(x.to_bits());
        let t = 2f32.powi(-12);
        // (a, b, expected HF bits (RTNE), the round-toward-zero alternative when it differs)
        let cases: [(f32, f32, u64, Option<u64>); 5] = [
            // 1 + 0.75 ulp: nearest is 1 + 2^-10, toward zero 1.0.
            (1.0, 3.0 * t, 0x3c01, Some(0x3c00)),
            (-1.0, -3.0 * t, 0xbc01, Some(0xbc00)),
            // 65536 is past the HF range: +inf to nearest, the largest finite toward zero.
            (65504.0, 32.0, 0x7c00, Some(0x7bff)),
            // 1.75 is an HF value: no alternative.
            (1.5, 0.25, 0x3f00, None),
            // The exact sum 1 + 2^-10 - 2^-40 rounds to the F value 1 + 2^-10 first (the F
            // result), which is an HF value: no alternative, although rounding the exact sum
            // toward zero would give 1.0.
            (1.0 + 2f32.powi(-10), -(2f32.powi(-40)), 0x3c01, None),
        ];
        let mut before = ThreadState::zeroed(p);
        for (ch, (a, b, _, _)) in cases.iter().enumerate() {
            before.write_grf(12 * 32 + 4 * ch, 4, f(*a), false).unwrap();
            before.write_grf(14 * 32 + 4 * ch, 4, f(*b), false).unwrap();
        }
        let mut after = before.clone();
        crate::exec::step(&mut after, &insn).unwrap();
        for (ch, (_, _, want, _)) in cases.iter().enumerate() {
            assert_eq!(
                after.read_grf(10 * 32 + 2 * ch, 2).unwrap(),
                (*want, false),
                "{ch}"
            );
        }
        let env = FloatEnv::from_cr0(p, 0);
        let plan = TagPlan::new(&insn, false, env, Vec::new());
        let (mut rules, mut alts, mut vals) = (RuleSet::default(), Vec::new(), Operands::new());
        let enabled = (1u32 << cases.len()) - 1;
        plan.apply_in(
            env,
            &insn,
            &before,
            &after,
            enabled,
            &mut vals,
            (&mut rules, &mut alts),
        );
        let got: Vec<(u32, Option<u64>, &str)> = alts
            .iter()
            .filter(|a| a.kind == AltKind::Value)
            .map(|a| (a.offset, a.bits, a.rule))
            .collect();
        let want: Vec<(u32, Option<u64>, &str)> = (cases.iter().enumerate())
            .filter_map(|(ch, c)| {
                c.3.map(|b| (2 * ch as u32, Some(b), "conv.float-narrow.f-hf"))
            })
            .collect();
        assert_eq!(got, want);
        // cr0 rounding toward zero: the sources agree, no alternative.
        let rtz = FloatEnv::from_cr0(p, 0x30);
        let mut before_rtz = before.clone();
        before_rtz.set_arf_bytes("cr0", 0, &[0x30]).unwrap();
        let mut after_rtz = before_rtz.clone();
        crate::exec::step(&mut after_rtz, &insn).unwrap();
        let plan = TagPlan::new(&insn, false, rtz, Vec::new());
        alts.clear();
        plan.apply_in(
            rtz,
            &insn,
            &before_rtz,
            &after_rtz,
            enabled,
            &mut vals,
            (&mut rules, &mut alts),
        );
        assert!(alts.iter().all(|a| a.kind != AltKind::Value));
    }
}
