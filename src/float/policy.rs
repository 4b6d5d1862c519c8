//! [`Policy`]: the float_modes rows that apply to one type and operation class in one
//! environment, turned into the input mapping, rounding and output mapping of an operation.
//!
//! Row selection follows the header of spec/float_modes.toml: a row applies when its `types`
//! contain the type, its `ops` equal the operation class or are `all` (`fpu` rows cover every
//! class except raw mov and conversions), its `gens` contain the platform, and its `mode` is
//! `both` or the thread's mode for this type (ALT applies to the types of `fp.mode.cr0-select`
//! that `fp.alt.f-only` does not exempt). For denormals the first `denorm_keep` row wins, then
//! the first `denorm_flush` row, then the first `denorm_cr0` row (kept when its cr0.0 bit is 1,
//! flushed when 0); with none, denormals are kept. Where one effect names two rows, the row is
//! told apart by its ID (the ALT NaN input and result rules share `alt_input_nan_to_zero`).

use super::applied::{row, Applied, CAPACITY};
use super::arith::FloatOut;
use super::env::FloatEnv;
use super::FloatType;
use crate::fp::{Flags, FpClass, FpResult, Round};
use crate::spec::float_modes::{FpMode, RULES};
use crate::spec::{DataType, FpEffect, FpOps, Platform, PLATFORM_COUNT};
use std::sync::OnceLock;

/// The row that says ALT mode exists and which types it concerns.
const MODE_SELECT: &str = "fp.mode.cr0-select";
/// The row that exempts types from ALT mode.
const ALT_EXEMPT: &str = "fp.alt.f-only";
/// The ALT result-NaN row (its effect is shared with the ALT NaN input row).
const ALT_RESULT_NAN: &str = "fp.alt.result-never-nan";
/// The row giving the model's rounding of operation classes without a `round_cr0` row
/// (extended math).
const MATH_ROUNDING: &str = "fp.round.math-model";

/// Whether ALT mode (when cr0.0 bit 0 is set) governs type `t` on `p`.
pub(crate) fn alt_applies(t: DataType, p: Platform) -> bool {
    let selected = row(MODE_SELECT).is_some_and(|r| r.types.contains(t) && r.gens.contains(p));
    let exempt = row(ALT_EXEMPT).is_some_and(|r| r.types.contains(t) && r.gens.contains(p));
    selected && !exempt
}

/// Whether a row's `ops` cover the operation class `ops`.
pub(crate) fn covers(row_ops: FpOps, ops: FpOps) -> bool {
    row_ops == ops
        || row_ops == FpOps::All
        || (row_ops == FpOps::Fpu
            && !matches!(ops, FpOps::RawMov | FpOps::Conversion | FpOps::HfToF))
}

/// Keep or flush denormals, and the row that decided it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Denorm {
    Keep(Option<u8>),
    Flush(u8),
}

/// What the float_modes table makes the engine do for one type and operation class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    ty: FloatType,
    ops: FpOps,
    alt: bool,
    rounding: Round,
    round_rule: Option<u8>,
    denorm: Denorm,
    tininess: Option<u8>,
    alt_in_inf: Option<u8>,
    alt_in_denorm: Option<u8>,
    alt_in_nan: Option<u8>,
    alt_out_inf: Option<u8>,
    alt_out_nan: Option<u8>,
    alt_abs: Option<u8>,
    nan_any: Option<u8>,
    fused_inf: Option<u8>,
    /// F, IEEE mode, RTNE: [`Self::fma_fast`] applies.
    fast_fma: bool,
}

/// The rows a policy selects for one platform, type, operation class and mode (ALT or IEEE),
/// before the environment's rounding and denorm-mode bits decide between them.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Selection {
    /// The policy with every row slot filled; `rounding`, `denorm` and `fast_fma` are set by
    /// [`Selection::finish`].
    pol: Policy,
    keep: Option<u8>,
    flush: Option<u8>,
    cr0: Option<(u8, Option<u32>)>,
    math_rounding: Option<u8>,
}

/// Number of (platform, type, operation class, ALT) keys of the selection table.
const SELECTIONS: usize = PLATFORM_COUNT * FloatType::ALL.len() * FpOps::ALL.len() * 2;

fn selection_index(p: Platform, ty: FloatType, ops: FpOps, alt: bool) -> usize {
    ((p as usize * FloatType::ALL.len() + ty as usize) * FpOps::ALL.len() + ops as usize) * 2
        + usize::from(alt)
}

/// The selection for every key, scanned from the float_modes table once per process.
fn selections() -> &'static [Selection] {
    static TABLE: OnceLock<Vec<Selection>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Vec::with_capacity(SELECTIONS);
        for p in Platform::ALL {
            for ty in FloatType::ALL {
                for ops in FpOps::ALL {
                    for alt in [false, true] {
                        debug_assert_eq!(t.len(), selection_index(p, ty, ops, alt));
                        t.push(Selection::scan(p, ty, ops, alt));
                    }
                }
            }
        }
        t
    })
}

impl Selection {
    /// Scan the float_modes rows (`alt`: ALT applies to the type in this environment).
    fn scan(p: Platform, ty: FloatType, ops: FpOps, alt: bool) -> Selection {
        let dt = ty.data_type();
        let mut pol = Policy {
            ty,
            ops,
            alt,
            rounding: Round::Rtne,
            round_rule: None,
            denorm: Denorm::Keep(None),
            tininess: None,
            alt_in_inf: None,
            alt_in_denorm: None,
            alt_in_nan: None,
            alt_out_inf: None,
            alt_out_nan: None,
            alt_abs: None,
            nan_any: None,
            fused_inf: None,
            fast_fma: false,
        };
        let mut keep = None;
        let mut flush = None;
        let mut cr0: Option<(u8, Option<u32>)> = None;
        let mut math_rounding = None;
        for (i, r) in RULES.iter().enumerate().take(CAPACITY) {
            if !(r.types.contains(dt) && covers(r.ops, ops) && r.gens.contains(p)) {
                continue;
            }
            let active = match r.mode {
                FpMode::Both => true,
                FpMode::Ieee => !alt,
                FpMode::Alt => alt,
            };
            if !active {
                continue;
            }
            let i = i as u8; // < CAPACITY
            let first = |slot: &mut Option<u8>| {
                slot.get_or_insert(i);
            };
            match r.effect {
                FpEffect::DenormKeep => first(&mut keep),
                FpEffect::DenormFlush | FpEffect::AltResultDenormToZero => first(&mut flush),
                FpEffect::DenormCr0 => {
                    cr0.get_or_insert((i, r.cr0_bit));
                }
                FpEffect::RoundCr0 => first(&mut pol.round_rule),
                FpEffect::NanAny => first(&mut pol.nan_any),
                FpEffect::FusedOverflowInf => first(&mut pol.fused_inf),
                FpEffect::TininessAfterRounding => first(&mut pol.tininess),
                FpEffect::AltInputInfToFmax => first(&mut pol.alt_in_inf),
                FpEffect::AltInputDenormToZero => first(&mut pol.alt_in_denorm),
                FpEffect::AltInputNanToZero if r.id == ALT_RESULT_NAN => {
                    first(&mut pol.alt_out_nan)
                }
                FpEffect::AltInputNanToZero => first(&mut pol.alt_in_nan),
                FpEffect::AltResultNanToZero => first(&mut pol.alt_out_nan),
                FpEffect::AltResultInfToFmax => first(&mut pol.alt_out_inf),
                FpEffect::AltMathAbs => first(&mut pol.alt_abs),
                FpEffect::Ieee if r.id == MATH_ROUNDING => first(&mut math_rounding),
                _ => {}
            }
        }
        Selection {
            pol,
            keep,
            flush,
            cr0,
            math_rounding,
        }
    }

    /// The policy under `env`'s rounding mode and denorm-mode bits.
    #[inline]
    fn finish(&self, env: &FloatEnv) -> Policy {
        let mut pol = self.pol;
        pol.denorm = if self.keep.is_some() {
            Denorm::Keep(self.keep)
        } else if let Some(i) = self.flush {
            Denorm::Flush(i)
        } else if let Some((i, bit)) = self.cr0 {
            if bit.is_some_and(|b| env.denorm_bit(b)) {
                Denorm::Keep(Some(i))
            } else {
                Denorm::Flush(i)
            }
        } else {
            Denorm::Keep(None)
        };
        if pol.round_rule.is_some() {
            pol.rounding = env.rounding;
        } else {
            // No round_cr0 row (extended math): the model's value is the correctly rounded
            // result in RTNE (fp.round.math-model).
            pol.round_rule = self.math_rounding;
        }
        pol.fast_fma = pol.ty == FloatType::F && !pol.alt && pol.rounding == Round::Rtne;
        pol
    }
}

/// Whether ALT mode governs type `t` on `p`, for every (platform, type), computed once.
fn alt_table() -> &'static [[bool; 3]; PLATFORM_COUNT] {
    static TABLE: OnceLock<[[bool; 3]; PLATFORM_COUNT]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [[false; 3]; PLATFORM_COUNT];
        for p in Platform::ALL {
            for ty in FloatType::ALL {
                t[p as usize][ty as usize] = alt_applies(ty.data_type(), p);
            }
        }
        t
    })
}

impl Policy {
    /// The policy for type `ty` and operation class `ops` in `env`: the rows selected for the
    /// platform, type, class and mode (scanned once per process), under `env`'s rounding mode
    /// and denorm-mode bits.
    #[inline]
    pub fn new(env: &FloatEnv, ty: FloatType, ops: FpOps) -> Policy {
        let p = env.platform;
        let alt = env.alt && alt_table()[p as usize][ty as usize];
        selections()[selection_index(p, ty, ops, alt)].finish(env)
    }

    /// [`Self::new`] computed by scanning the table now (the reference for the cached path).
    pub fn scanned(env: &FloatEnv, ty: FloatType, ops: FpOps) -> Policy {
        let p = env.platform;
        let alt = env.alt && alt_applies(ty.data_type(), p);
        Selection::scan(p, ty, ops, alt).finish(env)
    }

    /// Whether [`Self::fma_fast`] can apply (F in IEEE mode, rounding RTNE).
    #[inline]
    pub fn has_fast_fma(&self) -> bool {
        self.fast_fma
    }

    /// The common case of [`Policy::fma`] (`a * b + c`), bits only: F in IEEE mode with RTNE,
    /// every operand and the result normal or zero. The input and output mappings then change
    /// nothing, and the result is the correctly rounded RTNE fused multiply-add, which Rust's
    /// `f32::mul_add` computes on every host (a hardware FMA or a correctly rounded software
    /// fallback). `None` when the case does not apply (the caller takes the full path).
    #[inline(always)]
    pub fn fma_fast(&self, a: u64, b: u64, c: u64) -> Option<u64> {
        let (a, b, c) = (a as u32, b as u32, c as u32);
        if !(self.fast_fma & plain_f32(a) & plain_f32(b) & plain_f32(c)) {
            return None;
        }
        let r = f32::from_bits(a)
            .mul_add(f32::from_bits(b), f32::from_bits(c))
            .to_bits();
        plain_f32(r).then_some(u64::from(r))
    }

    /// The common case of [`Policy::add`], bits only, as [`Self::fma_fast`]: the host's
    /// IEEE binary32 addition rounds to nearest even.
    #[inline(always)]
    pub fn add_fast(&self, a: u64, b: u64) -> Option<u64> {
        self.host_f32(a, b, |x, y| x + y)
    }

    /// The common case of [`Policy::mul`], bits only, as [`Self::fma_fast`].
    #[inline(always)]
    pub fn mul_fast(&self, a: u64, b: u64) -> Option<u64> {
        self.host_f32(a, b, |x, y| x * y)
    }

    /// The common case of [`Policy::frc`] (`a - floor(a)`), bits only, as [`Self::fma_fast`]:
    /// the host's floor is IEEE roundToIntegralTowardNegative, its subtraction rounds to
    /// nearest even.
    #[inline(always)]
    pub fn frc_fast(&self, a: u64) -> Option<u64> {
        let a = a as u32;
        if !(self.fast_fma & plain_f32(a)) {
            return None;
        }
        let x = f32::from_bits(a);
        let r = (x - x.floor()).to_bits();
        plain_f32(r).then_some(u64::from(r))
    }

    /// The common case of [`Policy::rnd`], bits only: an F operand that is normal or zero,
    /// in any rounding mode and in IEEE or ALT mode (the input and output mappings change
    /// neither such an operand nor an integral result; the host's floor, ceil, trunc and
    /// round_ties_even are IEEE roundToIntegral in the four directions).
    #[inline(always)]
    pub fn rnd_fast(&self, a: u64, dir: Round) -> Option<u64> {
        let a = a as u32;
        if !(self.ty == FloatType::F && plain_f32(a)) {
            return None;
        }
        let x = f32::from_bits(a);
        let r = match dir {
            Round::Rtne => x.round_ties_even(),
            Round::Ru => x.ceil(),
            Round::Rd => x.floor(),
            Round::Rtz => x.trunc(),
        };
        Some(u64::from(r.to_bits()))
    }

    /// `op` on the host's binary32 when [`Self::has_fast_fma`] holds and both operands and
    /// the result are normal or zero.
    #[inline(always)]
    fn host_f32(&self, a: u64, b: u64, op: impl Fn(f32, f32) -> f32) -> Option<u64> {
        let (a, b) = (a as u32, b as u32);
        if !(self.fast_fma & plain_f32(a) & plain_f32(b)) {
            return None;
        }
        let r = op(f32::from_bits(a), f32::from_bits(b)).to_bits();
        plain_f32(r).then_some(u64::from(r))
    }

    /// The type.
    pub fn ty(&self) -> FloatType {
        self.ty
    }

    /// The operation class.
    pub fn ops(&self) -> FpOps {
        self.ops
    }

    /// Whether the ALT rules govern this type (cr0.0 bit 0 set and the type not exempt).
    pub fn alt(&self) -> bool {
        self.alt
    }

    /// The rounding mode of the operation's final result.
    pub fn rounding(&self) -> Round {
        self.rounding
    }

    /// Whether denormal inputs and results are flushed to sign-preserved zero.
    pub fn flushes_denormals(&self) -> bool {
        matches!(self.denorm, Denorm::Flush(_))
    }

    /// The ID of the row that decides the denormal handling (None: no row, kept).
    pub fn denorm_rule(&self) -> Option<&'static str> {
        let i = match self.denorm {
            Denorm::Keep(i) => i,
            Denorm::Flush(i) => Some(i),
        };
        i.and_then(|i| RULES.get(i as usize)).map(|r| r.id)
    }

    /// An operand as the operation reads it: ALT input mapping (NaN -> +0, +-inf -> +-fmax,
    /// denormal -> +-0), else denormal flushing per the denorm decision.
    #[inline]
    pub fn input(&self, x: u64, rules: &mut Applied) -> u64 {
        let ty = self.ty;
        let x = x & ty.mask();
        let mag = x & !ty.sign();
        let min = smallest_normal(ty);
        if mag.wrapping_sub(min) <= ty.max_finite() - min {
            // A normal number: neither the ALT input mapping nor denormal handling applies.
            return x;
        }
        self.input_by_class(x, rules)
    }

    /// [`Self::input`] decided by the class of `x` (the general path).
    fn input_by_class(&self, x: u64, rules: &mut Applied) -> u64 {
        let ty = self.ty;
        let x = x & ty.mask();
        let class = ty.fmt().classify(x);
        if self.alt {
            match class {
                FpClass::Nan => {
                    if let Some(i) = self.alt_in_nan {
                        rules.add_index(i);
                        return 0;
                    }
                }
                FpClass::PosInf | FpClass::NegInf => {
                    if let Some(i) = self.alt_in_inf {
                        rules.add_index(i);
                        return (x & ty.sign()) | ty.max_finite();
                    }
                }
                FpClass::PosDenorm | FpClass::NegDenorm => {
                    if let Some(i) = self.alt_in_denorm {
                        rules.add_index(i);
                        return x & ty.sign();
                    }
                }
                _ => {}
            }
        }
        if matches!(class, FpClass::PosDenorm | FpClass::NegDenorm) {
            match self.denorm {
                Denorm::Flush(i) => {
                    rules.add_index(i);
                    return x & ty.sign();
                }
                Denorm::Keep(i) => rules.add(i),
            }
        }
        x
    }

    /// The ALT absolute value of log/rsq/sqrt sources (fp.alt.math-abs), after [`Self::input`].
    #[inline]
    pub fn math_abs(&self, x: u64, rules: &mut Applied) -> u64 {
        match self.alt_abs {
            Some(i) if self.alt && x & self.ty.sign() != 0 => {
                rules.add_index(i);
                x & !self.ty.sign()
            }
            _ => x,
        }
    }

    /// The result the operation delivers, from the core's result: NaN policy (canonical NaN,
    /// any NaN allowed; ALT: +0), ALT inf -> fmax, denormal flushing after rounding
    /// (fp.tininess: the rounded result is judged, so a result that rounds up to the smallest
    /// normal is kept). `rounded`: the core rounded in [`Self::rounding`] (the rounding row is
    /// recorded when that made the result inexact).
    #[inline]
    pub fn output(&self, r: FpResult, mut rules: Applied, rounded: bool) -> FloatOut {
        let ty = self.ty;
        let mut bits = r.bits & ty.mask();
        let mut flags = r.flags;
        if rounded && flags.inexact() {
            rules.add(self.round_rule);
        }
        let mut any_nan_allowed = false;
        match ty.fmt().classify(bits) {
            FpClass::Nan => match self.alt_out_nan {
                Some(i) if self.alt => {
                    rules.add_index(i);
                    bits = 0;
                }
                _ => {
                    any_nan_allowed = self.nan_any.is_some();
                    rules.add(self.nan_any);
                }
            },
            FpClass::PosInf | FpClass::NegInf => {
                if let (true, Some(i)) = (self.alt, self.alt_out_inf) {
                    rules.add_index(i);
                    bits = (bits & ty.sign()) | ty.max_finite();
                }
            }
            FpClass::PosDenorm | FpClass::NegDenorm => match self.denorm {
                Denorm::Flush(i) => {
                    rules.add_index(i);
                    rules.add(self.tininess);
                    bits &= ty.sign();
                    flags |= Flags::UNDERFLOW | Flags::INEXACT;
                }
                Denorm::Keep(i) => rules.add(i),
            },
            FpClass::PosFin | FpClass::NegFin => {
                // The boundary case of fp.tininess: tiny by IEEE's after-rounding test, but
                // delivered as the smallest normal, which is not a denormal and is kept.
                if let Denorm::Flush(_) = self.denorm {
                    if flags.tiny_before_rounding() && bits & !ty.sign() == smallest_normal(ty) {
                        rules.add(self.tininess);
                    }
                }
            }
            _ => {}
        }
        FloatOut {
            bits,
            flags,
            any_nan_allowed,
            inf_allowed: false,
            rules,
        }
    }

    /// The fused-overflow row (F fused operations in IEEE mode), if it applies.
    pub(crate) fn fused_inf_rule(&self) -> Option<u8> {
        self.fused_inf
    }
}

/// A binary32 encoding that is normal or zero: exponent field neither all ones nor zero with
/// a nonzero fraction (the values the fast paths take).
#[inline(always)]
pub(crate) fn plain_f32(x: u32) -> bool {
    let e = (x >> 23) & 0xff;
    e != 0xff && (e != 0 || x & 0x007f_ffff == 0)
}

/// The encoding of the smallest normal magnitude.
pub(crate) const fn smallest_normal(ty: FloatType) -> u64 {
    1u64 << ty.fmt().frac_bits()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every policy the environments of `p` give (cr0 rounding, ALT and denorm bits) for `ty`.
    fn policies(p: Platform, ty: FloatType) -> Vec<Policy> {
        let mut out = Vec::new();
        for cr0 in [
            0u32,
            u32::MAX,
            0x0000_0001,
            0x0000_0030,
            0x0000_00c0,
            0x0000_04f1,
        ] {
            let env = FloatEnv::from_cr0(p, cr0);
            for ops in FpOps::ALL {
                let pol = Policy::new(&env, ty, ops);
                if !out.contains(&pol) {
                    out.push(pol);
                }
            }
        }
        out
    }

    #[test]
    fn normal_inputs_pass_unchanged_as_the_class_path_says() {
        let mut next = crate::test_rng::xorshift(0x1234_5678_9abc_def1);
        for p in Platform::ALL {
            for ty in [FloatType::Hf, FloatType::F, FloatType::Df] {
                for pol in policies(p, ty) {
                    let mut check = |x: u64| {
                        let (mut r1, mut r2) = (Applied::NONE, Applied::NONE);
                        let a = pol.input(x, &mut r1);
                        let b = pol.input_by_class(x, &mut r2);
                        assert!(a == b && r1 == r2, "{p:?} {ty:?} {x:#x}: {a:#x} {b:#x}");
                    };
                    if ty == FloatType::Hf {
                        (0..=0xffffu64).for_each(&mut check);
                    } else {
                        let (min, max, sign) = (smallest_normal(ty), ty.max_finite(), ty.sign());
                        for x in [
                            0,
                            1,
                            min - 1,
                            min,
                            min + 1,
                            max - 1,
                            max,
                            max + 1,
                            ty.mask(),
                        ] {
                            check(x);
                            check(x | sign);
                        }
                        (0..2000).for_each(|_| check(next()));
                    }
                }
            }
        }
    }
}
