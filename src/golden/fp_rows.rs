//! The float-mode rows (spec/float_modes.toml) a vector exercises beyond the per-operation
//! facts of the vector builder: the IEEE-mode default, the absence of exceptions, tininess,
//! frc, and the ALT-mode rows. A row is listed only when the vector's operands and results
//! show it: an ALT row only for an ALT-mode F operation with the operands the row is about,
//! `fp.tininess` only when a result is tiny and flushed, `fp.ieee.no-exceptions` only when an
//! operation hit an IEEE exception condition (invalid, overflow, division by zero).

use super::ids::{Rule, RuleSet};
use super::operands::Operands;
use super::values;
use crate::float::{FloatEnv, FloatType};
use crate::isa::Insn;
use crate::spec::float_modes::{self, FpMode};
use crate::spec::{DataType, FpEffect, FpOps, MathFn, Opcode, Platform, PLATFORM_COUNT};

/// What the vector builder knows about a float instruction and its execution.
pub(crate) struct FpVector<'a> {
    pub insn: &'a Insn,
    /// The operand values of the channels.
    pub vals: &'a Operands,
    /// Enabled channels.
    pub channels: &'a [u32],
    /// The float type the operation computes in.
    pub fty: DataType,
    pub ft: FloatType,
    pub ops: FpOps,
    pub env: &'a FloatEnv,
    pub p: Platform,
    /// The float policy of `env` for `fty` and `ops` (`build::policy`).
    pub pol: crate::float::Policy,
}

impl<'a> FpVector<'a> {
    /// The facts of a float instruction computing in `ft` (`fty`), with its policy `pol`
    /// (`build::policy(env, ft, ops)`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        insn: &'a Insn,
        vals: &'a Operands,
        channels: &'a [u32],
        ft: FloatType,
        ops: FpOps,
        env: &'a FloatEnv,
        pol: crate::float::Policy,
    ) -> FpVector<'a> {
        FpVector {
            insn,
            vals,
            channels,
            fty: ft.data_type(),
            ft,
            ops,
            env,
            p: env.platform,
            pol,
        }
    }
}

/// The value of an F/HF/DF operand as an f64 (exact).
fn as_f64(t: DataType, v: u64) -> Option<f64> {
    match t {
        DataType::F => Some(f64::from(f32::from_bits(v as u32))),
        DataType::DF => Some(f64::from_bits(v)),
        DataType::HF => Some(crate::vector::text::float_value(t, v)),
        _ => None,
    }
}

/// Smallest normal magnitude of a float type.
fn min_normal(t: DataType) -> f64 {
    match t {
        DataType::HF => 2f64.powi(-14),
        DataType::DF => f64::MIN_POSITIVE,
        _ => 2f64.powi(-126),
    }
}

/// The index of a [`find_row`] key in its tables.
fn row_index(e: FpEffect, ft: FloatType, ops: FpOps, p: Platform) -> usize {
    ((e as usize * FloatType::ALL.len() + ft as usize) * FpOps::ALL.len() + ops as usize)
        * PLATFORM_COUNT
        + p as usize
}

/// Keys of [`find_row`].
const ROW_KEYS: usize =
    FpEffect::ALL.len() * FloatType::ALL.len() * FpOps::ALL.len() * PLATFORM_COUNT;

/// A table of every [`find_row`] key's `f(row)`.
fn row_table<T: Clone>(f: impl Fn(Option<&'static float_modes::FpRuleInfo>) -> T) -> Vec<T> {
    let mut t = vec![f(None); ROW_KEYS];
    for e in FpEffect::ALL {
        for ft in FloatType::ALL {
            for ops in FpOps::ALL {
                for p in Platform::ALL {
                    if let Some(x) = t.get_mut(row_index(e, ft, ops, p)) {
                        *x = f(float_modes::find(e, ft.data_type(), ops, p));
                    }
                }
            }
        }
    }
    t
}

/// [`float_modes::find`] for a float type, from a table made once per process (the same
/// row: the table holds the first row each key finds).
pub(crate) fn find_row(
    effect: FpEffect,
    ft: FloatType,
    ops: FpOps,
    p: Platform,
) -> Option<&'static float_modes::FpRuleInfo> {
    type Table = Vec<Option<&'static float_modes::FpRuleInfo>>;
    static TABLE: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    let t = TABLE.get_or_init(|| row_table(|r| r));
    t.get(row_index(effect, ft, ops, p))
        .copied()
        .unwrap_or_else(|| float_modes::find(effect, ft.data_type(), ops, p))
}

/// The rule of [`find_row`]'s row (its ID, numbered once per process).
pub(crate) fn find_rule(effect: FpEffect, ft: FloatType, ops: FpOps, p: Platform) -> Option<Rule> {
    static TABLE: std::sync::OnceLock<Vec<Option<Rule>>> = std::sync::OnceLock::new();
    let t = TABLE.get_or_init(|| row_table(|r| r.map(|r| Rule::new(r.id))));
    match t.get(row_index(effect, ft, ops, p)) {
        Some(r) => *r,
        None => find_row(effect, ft, ops, p).map(|r| Rule::new(r.id)),
    }
}

/// A float-mode row ID with where it applies: bit [`ModeRow::bit`] of `applies` for each
/// platform, float type and mode (IEEE/ALT) for which [`mode_row_scan`] holds. [`mode_row!`]
/// makes one per use site.
pub(crate) struct ModeRow {
    pub(crate) rule: Rule,
    applies: u64,
}

impl ModeRow {
    /// The row `id` (looked up in every platform, float type and mode).
    pub(crate) fn new(id: &'static str) -> ModeRow {
        let mut applies = 0;
        for p in Platform::ALL {
            for ft in FloatType::ALL {
                for alt in [false, true] {
                    if mode_row_scan(id, p, ft.data_type(), alt) {
                        applies |= 1 << ModeRow::bit(p, ft, alt);
                    }
                }
            }
        }
        ModeRow {
            rule: Rule::new(id),
            applies,
        }
    }

    /// The bit of platform `p`, float type `ft` and mode `alt`.
    #[inline]
    fn bit(p: Platform, ft: FloatType, alt: bool) -> usize {
        (p as usize * FloatType::ALL.len() + ft as usize) * 2 + usize::from(alt)
    }

    /// Whether the row exists on `p` for type `ft` and its mode (IEEE/ALT) is the one in
    /// force (`alt`).
    #[inline]
    pub(crate) fn applies(&self, p: Platform, ft: FloatType, alt: bool) -> bool {
        self.applies >> ModeRow::bit(p, ft, alt) & 1 == 1
    }
}

// (Every platform, float type and mode has its bit.)
const _: () = assert!(PLATFORM_COUNT * FloatType::ALL.len() * 2 <= 64);

/// The [`ModeRow`] of a literal row ID, made the first time this use site runs.
macro_rules! mode_row {
    ($id:literal) => {{
        static ROW: std::sync::OnceLock<$crate::golden::fp_rows::ModeRow> =
            std::sync::OnceLock::new();
        ROW.get_or_init(|| $crate::golden::fp_rows::ModeRow::new($id))
    }};
}
pub(crate) use mode_row;

/// Whether the float-mode row `id` exists on `p` for type `fty` and its mode (IEEE/ALT) is
/// the one in force (`alt`), by a scan of the rows.
pub(crate) fn mode_row_scan(id: &str, p: Platform, fty: DataType, alt: bool) -> bool {
    float_modes::RULES.iter().any(|r| {
        r.id == id
            && r.gens.contains(p)
            && r.types.contains(fty)
            && match r.mode {
                FpMode::Ieee => !alt,
                FpMode::Alt => alt,
                FpMode::Both => true,
            }
    })
}

/// Push the rows an operation in `ft` (`ops`) exercises whatever its values onto `fixed`
/// (those [`tag`] leaves out): frc's definition and the IEEE-mode default.
pub(crate) fn tag_fixed(
    insn: &Insn,
    ft: FloatType,
    ops: FpOps,
    env: &FloatEnv,
    fixed: &mut Vec<Rule>,
) {
    let mut add = |r: &ModeRow| {
        if r.applies(env.platform, ft, env.alt) {
            fixed.push(r.rule);
        }
    };
    // frc: every F frc vector delivers src0 - floor(src0).
    if insn.op == Opcode::Frc {
        add(mode_row!("fp.frc.definition"));
    }
    // IEEE mode (cr0.0 bit 0 clear): the operation follows IEEE-754 where nothing else is said.
    if !env.alt && computes(ops) {
        add(mode_row!("fp.ieee.default"));
    }
}

/// Whether operations of class `ops` compute (arithmetic, fused, math).
fn computes(ops: FpOps) -> bool {
    matches!(ops, FpOps::Arith | FpOps::Fused | FpOps::Math)
}

/// Push the rows `v`'s values exercise onto `rules` (beyond those of [`tag_fixed`]).
pub(crate) fn tag(v: &FpVector, rules: &mut RuleSet) {
    let pol = v.pol;
    let alt = pol.alt();
    let p = v.p;
    let fty = v.fty;
    let mut add = |r: &ModeRow| {
        if r.applies(p, v.ft, v.env.alt) {
            rules.push_rule(r.rule);
        }
    };
    let insn = v.insn;
    let cls = |i: usize, c: u32| v.vals.get(i, c);
    let is = |i: usize, c: u32, set: &[usize]| cls(i, c).is_some_and(|(_, _, k)| set.contains(&k));
    let out = |c: u32| -> Option<u64> {
        v.vals
            .out(c)
            .filter(|_| insn.dst.is_some_and(|d| d.ty == fty))
    };
    use values::*;
    let inf = [POS_INF, NEG_INF];
    let zero = [POS_ZERO, NEG_ZERO];
    let nsrc = insn.num_srcs();
    let computes = computes(v.ops);
    let f = insn.math;

    // f16to32 (a word holding HF bits -> F) keeps HF denormal inputs: a denormal input
    // delivers a nonzero F.
    if insn.op == Opcode::F16to32 {
        let kept = v.channels.iter().any(|&c| {
            let hf_denorm = cls(0, c).is_some_and(|(_, b, _)| {
                float_class(DataType::HF, b & 0xffff) == values::POS_DENORM
                    || float_class(DataType::HF, b & 0xffff) == values::NEG_DENORM
            });
            hf_denorm && out(c).is_some_and(|r| r & 0x7fff_ffff != 0)
        });
        if kept {
            add(mode_row!("fp.ieee.denorm.hf-to-f"));
        }
    }
    // No exceptions: an invalid operation (NaN from non-NaN operands) or an overflow or
    // division by zero (inf from finite operands) only delivers its value (and flags).
    // (Operations whose channel reads exactly its own source elements, no accumulator.)
    let elementwise = matches!(
        insn.op,
        Opcode::Add
            | Opcode::Mul
            | Opcode::Mad
            | Opcode::Lrp
            | Opcode::Math
            | Opcode::Frc
            | Opcode::Rndd
            | Opcode::Rndu
            | Opcode::Rnde
            | Opcode::Rndz
    );
    if computes && !alt && elementwise {
        let exc = v.channels.iter().any(|&c| {
            let mut buf = [0usize; 3];
            let mut n = 0;
            for i in 0..nsrc.min(3) {
                if let Some(x) = cls(i, c) {
                    buf[n] = x.2;
                    n += 1;
                }
            }
            let ins = &buf[..n];
            let Some(r) = out(c) else { return false };
            let k = float_class(fty, r);
            (k == NAN && !ins.contains(&NAN))
                || (inf.contains(&k) && !ins.iter().any(|x| inf.contains(x) || *x == NAN))
        });
        if exc {
            add(mode_row!("fp.ieee.no-exceptions"));
        }
    }
    // Tininess: a tiny result (exact value well inside the denormal range, so tiny in every
    // rounding mode) of add or mul from normal operands, flushed to zero.
    if matches!(insn.op, Opcode::Add | Opcode::Mul) && pol.flushes_denormals() {
        let tiny = v.channels.iter().any(|&c| {
            let (Some((t0, a, k0)), Some((t1, b, k1))) = (cls(0, c), cls(1, c)) else {
                return false;
            };
            if t0 != fty || t1 != fty || [k0, k1].iter().any(|k| !matches!(*k, NEG_FIN | POS_FIN)) {
                return false;
            }
            let (Some(x), Some(y)) = (as_f64(t0, a), as_f64(t1, b)) else {
                return false;
            };
            // Exact in f64: products of F/HF, and sums of nearby normals.
            let e = if insn.op == Opcode::Mul {
                if fty == DataType::DF {
                    return false;
                }
                x * y
            } else {
                x + y
            };
            let mn = min_normal(fty);
            let tiny = e != 0.0 && e.abs() <= mn / 2.0 && e.abs() >= mn * 2f64.powi(-8);
            tiny && out(c).is_some_and(|r| zero.contains(&float_class(fty, r)))
        });
        if tiny {
            add(mode_row!("fp.tininess"));
            if alt {
                add(mode_row!("fp.alt.result-denorm-to-zero"));
            }
        }
    }
    if v.env.alt && !alt && computes && elementwise {
        // ALT selected, but HF and DF keep IEEE behaviour: shown by IEEE special operands.
        let special = v.channels.iter().any(|&c| {
            (0..nsrc).any(|i| is(i, c, &[NAN, POS_INF, NEG_INF, POS_DENORM, NEG_DENORM]))
        });
        if special {
            add(mode_row!("fp.alt.f-only"));
        }
    }
    if !(alt && computes && elementwise) {
        return;
    }
    let fmax = |r: u64| r as u32 & 0x7fff_ffff == 0x7f7f_ffff;
    let is_nan_out = |c: u32| out(c).is_some_and(|r| float_class(fty, r) == NAN);
    let mapped = |i: usize, c: u32| -> Option<f64> {
        let (t, b, k) = cls(i, c)?;
        Some(match k {
            NAN => 0.0,
            POS_INF => f64::from(f32::MAX),
            NEG_INF => -f64::from(f32::MAX),
            POS_DENORM | NEG_DENORM => 0.0,
            _ => as_f64(t, b)?,
        })
    };
    let mut inf_to_fmax = false;
    let mut never_nan = false;
    for &c in v.channels {
        let nan_in = (0..nsrc).any(|i| is(i, c, &[NAN]));
        let opposite_inf = is(0, c, &[POS_INF]) && is(1, c, &[NEG_INF])
            || is(0, c, &[NEG_INF]) && is(1, c, &[POS_INF]);
        let zero_times = (is(0, c, &zero) && is(1, c, &[NAN, POS_INF, NEG_INF]))
            || (is(1, c, &zero) && is(0, c, &[NAN, POS_INF, NEG_INF]));
        match insn.op {
            Opcode::Add if opposite_inf => add(mode_row!("fp.alt.dismissed.inf-minus-inf")),
            Opcode::Mul if zero_times => add(mode_row!("fp.alt.dismissed.times-zero")),
            Opcode::Math if matches!(f, MathFn::Inv | MathFn::Rsq) && is(0, c, &inf) => {
                add(mode_row!("fp.alt.dismissed.rcp-of-inf"))
            }
            _ => {}
        }
        // Where IEEE would give NaN, ALT gives a number.
        let ieee_nan = nan_in
            || (insn.op == Opcode::Add && opposite_inf)
            || (insn.op == Opcode::Mul && zero_times)
            || (insn.op == Opcode::Math
                && matches!(f, MathFn::Sqrt | MathFn::Rsq | MathFn::Log)
                && is(0, c, &[NEG_FIN, NEG_INF]));
        if ieee_nan && out(c).is_some() && !is_nan_out(c) {
            never_nan = true;
        }
        // Where IEEE would give inf, ALT gives fmax: an overflowing sum or product (well
        // beyond the range, in round-to-nearest), or a reciprocal or log of zero.
        let overflow = v.env.rounding == crate::fp::Round::Rtne
            && matches!(insn.op, Opcode::Add | Opcode::Mul)
            && match (mapped(0, c), mapped(1, c)) {
                (Some(a), Some(b)) => {
                    let e = if insn.op == Opcode::Mul { a * b } else { a + b };
                    e.abs() >= 2f64.powi(128)
                }
                _ => false,
            };
        let pole = insn.op == Opcode::Math
            && matches!(f, MathFn::Inv | MathFn::Rsq | MathFn::Log)
            && is(0, c, &[POS_ZERO, NEG_ZERO, POS_DENORM, NEG_DENORM]);
        if (overflow || pole) && out(c).is_some_and(fmax) {
            inf_to_fmax = true;
        }
    }
    if never_nan {
        add(mode_row!("fp.alt.result-never-nan"));
    }
    if inf_to_fmax {
        add(mode_row!("fp.alt.result-inf-to-fmax"));
    }
}

/// The mantissa width of float type `t` with its exponent bias, all-ones biased exponent
/// and mantissa mask; None for a non-float type.
fn float_fields(t: DataType) -> Option<(u32, u64, u64, u64)> {
    let (e, m) = values::float_format(t)?;
    Some((m, (1u64 << (e - 1)) - 1, (1u64 << e) - 1, (1u64 << m) - 1))
}

/// Float bits of type `t` (F, HF, DF): sign, biased exponent, mantissa.
fn bits_of(t: DataType, neg: bool, exp: u64, man: u64) -> u64 {
    let (e, m) = values::float_format(t).unwrap_or((8, 23));
    (u64::from(neg) << (e + m)) | ((exp & ((1 << e) - 1)) << m) | (man & ((1u64 << m) - 1))
}

/// Float-to-integer moves, one in two: the special inputs of spec/conversions.toml
/// `[[special]]` (NaN, +-inf, +-0, denormals, values beyond the integer range), one per channel.
fn float_to_int_specials(
    insn: &Insn,
    r: &mut super::values::Rng,
    offset: impl Fn(usize, u32) -> Option<usize>,
) -> Vec<(usize, usize, u64)> {
    let mut w = Vec::new();
    let (Some(s), Some(d)) = (insn.src[0], insn.dst) else {
        return w;
    };
    let t = s.ty();
    if !t.is_float() || d.ty.is_float() || s.as_reg().is_none() || !r.chance(1, 2) {
        return w;
    }
    let Some((m, bias, emax, mmask)) = float_fields(t) else {
        return w;
    };
    // An exponent beyond the destination's range (2^(bits+1)), capped at the largest finite.
    let big = (bias + u64::from(d.ty.bits()) + 1).min(emax - 1);
    let start = r.below(8) as u32;
    for c in 0..u32::from(insn.exec_size) {
        let neg = r.chance(1, 2);
        let v = match (c + start) % 8 {
            0 => bits_of(t, neg, emax, 1u64 << (m - 1)),
            1 => bits_of(t, false, emax, 0),
            2 => bits_of(t, true, emax, 0),
            3 => bits_of(t, neg, 0, 0),
            4 => bits_of(t, neg, 0, (r.next() & mmask).max(1)),
            5 => bits_of(t, false, big, r.next() & mmask),
            6 => bits_of(t, true, big, r.next() & mmask),
            _ => continue,
        };
        if let Some(o) = offset(0, c) {
            w.push((o, t.bytes() as usize, v));
        }
    }
    w
}

/// The sign bits to store in two add sources so that, after their source modifiers, they
/// have opposite signs (`prefer`: the first one's sign where free). None when both have
/// `(abs)` and the same effective sign (then no opposite pair exists).
fn opposite_signs(
    s0: &crate::isa::Src,
    s1: &crate::isa::Src,
    prefer: bool,
) -> Option<(bool, bool)> {
    // An (abs) source's effective sign is its negate flag; any other's is free.
    let fixed = |s: &crate::isa::Src| s.as_reg().filter(|r| r.abs).map(|r| r.neg);
    let neg = |s: &crate::isa::Src| s.as_reg().is_some_and(|r| r.neg);
    let (e0, e1) = match (fixed(s0), fixed(s1)) {
        (Some(a), Some(b)) if a == b => return None,
        (Some(a), Some(b)) => (a, b),
        (Some(a), None) => (a, !a),
        (None, Some(b)) => (!b, b),
        (None, None) => (prefer, !prefer),
    };
    // Stored sign: the effective one undone by a negate (an (abs) source ignores it).
    let stored = |s: &crate::isa::Src, e: bool| {
        if fixed(s).is_some() {
            false
        } else {
            e ^ neg(s)
        }
    };
    Some((stored(s0, e0), stored(s1, e1)))
}

/// Operand values the random classes rarely give, written over the sources of some float
/// instructions: on one float add or mul in three, tiny results of normal operands (tininess
/// and denormal flushing), overflowing results, opposite infinities and zero times inf or NaN
/// (the IEEE invalid cases and their ALT mappings); on float-to-integer moves the special
/// inputs. Returns the writes as (GRF byte offset, size, bits); `offset(i, c)` is the byte
/// offset of source `i`'s element of channel `c`.
pub(crate) fn special_pairs(
    insn: &Insn,
    r: &mut super::values::Rng,
    offset: impl Fn(usize, u32) -> Option<usize>,
) -> Vec<(usize, usize, u64)> {
    let mut w = Vec::new();
    if insn.op == Opcode::Mov {
        return float_to_int_specials(insn, r, offset);
    }
    if !matches!(insn.op, Opcode::Add | Opcode::Mul) || !r.chance(1, 3) {
        return w;
    }
    let (Some(s0), Some(s1)) = (insn.src[0], insn.src[1]) else {
        return w;
    };
    let t = s0.ty();
    if !t.is_float() || s1.ty() != t || s0.as_reg().is_none() || s1.as_reg().is_none() {
        return w;
    }
    let Some((m, bias, emax, mmask)) = float_fields(t) else {
        return w;
    };
    let unb = |x: i64| (x + bias as i64) as u64;
    let min_exp = 1 - bias as i64;
    for c in 0..u32::from(insn.exec_size) {
        let (na, nb) = (r.chance(1, 2), r.chance(1, 2));
        let (ma, mb) = (r.next() & mmask, r.next() & mmask);
        let inf = |n| bits_of(t, n, emax, 0);
        let zero = |n| bits_of(t, n, 0, 0);
        let nan = |n| bits_of(t, n, emax, 1u64 << (m - 1));
        let pair = if insn.op == Opcode::Mul {
            match c % 5 {
                0 => {
                    // A product just below the smallest normal (a quarter to an eighth of it).
                    let ea = min_exp / 2;
                    let eb = min_exp - ea - 3;
                    (bits_of(t, na, unb(ea), ma), bits_of(t, nb, unb(eb), mb))
                }
                1 => {
                    let ea = bias as i64 / 2 + 1;
                    let eb = bias as i64 - ea + 2;
                    (bits_of(t, na, unb(ea), ma), bits_of(t, nb, unb(eb), mb))
                }
                2 => (zero(na), inf(nb)),
                3 => (nan(na), zero(nb)),
                _ => continue,
            }
        } else {
            match c % 4 {
                0 => match opposite_signs(&s0, &s1, na) {
                    Some((sa, sb)) => (inf(sa), inf(sb)),
                    None => continue,
                },
                1 => {
                    // A sum of nearby normals of opposite signs: a few hundred denormal units.
                    let j = (1u64 << (m - 4)) + (r.next() & 0xff);
                    (bits_of(t, na, 1, j), bits_of(t, !na, 1, 0))
                }
                2 => (
                    bits_of(t, na, emax - 1, mmask),
                    bits_of(t, na, emax - 1, ma),
                ),
                _ => continue,
            }
        };
        for (i, v) in [(0, pair.0), (1, pair.1)] {
            if let Some(o) = offset(i, c) {
                w.push((o, t.bytes() as usize, v));
            }
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows' answers are those of the scan, for every row ID (also at another address,
    /// and for an ID of no row), platform, float type and mode; their rules are the IDs.
    #[test]
    fn mode_rows_equal_the_scan() {
        let mut ids: Vec<&'static str> = float_modes::RULES.iter().map(|r| r.id).collect();
        let copies: Vec<&'static str> = ids
            .iter()
            .take(20)
            .map(|id| &*Box::leak(id.to_string().into_boxed_str()))
            .collect();
        ids.extend(copies);
        ids.push("fp.no-such-row");
        let (mut yes, mut no) = (0, 0);
        for &id in &ids {
            let row = ModeRow::new(id);
            assert_eq!(row.rule, Rule::new(id));
            for p in Platform::ALL {
                for ft in FloatType::ALL {
                    for alt in [false, true] {
                        let want = mode_row_scan(id, p, ft.data_type(), alt);
                        assert_eq!(row.applies(p, ft, alt), want, "{id} {p:?} {ft:?} {alt}");
                        yes += usize::from(want);
                        no += usize::from(!want);
                    }
                }
            }
        }
        assert!(yes > 100 && no > 100, "{yes} {no}");
        // A use site's row is the one made for its ID.
        let row = mode_row!("fp.ieee.default");
        assert_eq!(row.rule, Rule::new("fp.ieee.default"));
        assert!(row.applies(Platform::Skl, FloatType::F, false));
        assert!(!row.applies(Platform::Skl, FloatType::F, true));
    }

    /// `find_row` is `float_modes::find` for every key.
    #[test]
    fn found_rows_equal_the_table_scan() {
        let mut found = 0;
        for e in FpEffect::ALL {
            for ft in FloatType::ALL {
                for ops in FpOps::ALL {
                    for p in Platform::ALL {
                        let want = float_modes::find(e, ft.data_type(), ops, p);
                        let got = find_row(e, ft, ops, p);
                        assert_eq!(got.map(|r| r as *const _), want.map(|r| r as *const _));
                        let rule = find_rule(e, ft, ops, p);
                        assert_eq!(rule, want.map(|r| Rule::new(r.id)));
                        assert_eq!(rule.map(Rule::name), want.map(|r| r.id));
                        found += usize::from(got.is_some());
                    }
                }
            }
        }
        assert!(found > 10, "{found}");
    }
}
