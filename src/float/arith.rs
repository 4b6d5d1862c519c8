//! Arithmetic entry points: the EU input handling, the IEEE core operation in the cr0 rounding
//! mode, and the EU output handling.

use super::applied::{Applied, RowId, CAPACITY};
use super::compare::eval;
use super::env::FloatEnv;
use super::policy::{alt_applies, Policy};
use super::FloatType;
use crate::fp::{Flags, FpClass, Round};
use crate::spec::compare::GridKind;
use crate::spec::float_modes::{FpMode, RULES};
use crate::spec::{CondMod, FpOps};

/// Rows the operations record per result.
static RND_INSNS: RowId = RowId::new("fp.round.rnd-insns");
static FRC_DEFINITION: RowId = RowId::new("fp.frc.definition");
static MINMAX_NAN: RowId = RowId::new("fp.ieee.minmax-nan");
pub(super) static NAN_ANY_PATTERN: RowId = RowId::new("fp.ieee.nan-any-pattern");

/// The result of an EU floating-point operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FloatOut {
    /// The result encoding (zero-extended).
    pub bits: u64,
    /// IEEE exception flags of the computation as performed (after the EU input mapping; a
    /// flushed denormal result adds underflow and inexact). The EU has no exceptions
    /// (fp.ieee.no-exceptions); the flags serve the TestFloat subject and the .o condition.
    pub flags: Flags,
    /// The result is a NaN whose bit pattern is not significant: hardware may return any NaN
    /// (fp.ieee.nan-any-pattern). The model returns the type's canonical NaN, except min/max,
    /// which return a source NaN's bits.
    pub any_nan_allowed: bool,
    /// A fused operation whose intermediate product overflowed: hardware may return +-inf
    /// instead of this (finite) result (fp.ieee.fused-overflow).
    pub inf_allowed: bool,
    /// The float_modes rows that acted on this result.
    pub rules: Applied,
}

impl Policy {
    /// `a + b`.
    pub fn add(&self, a: u64, b: u64) -> FloatOut {
        let mut rules = Applied::NONE;
        let a = self.input(a, &mut rules);
        let b = self.input(b, &mut rules);
        let r = self.ty().fmt().add(a, b, self.rounding());
        self.output(r, rules, true)
    }

    /// `a - b` (`a + (-b)`: the negation is a source modifier, applied to the bits first).
    pub fn sub(&self, a: u64, b: u64) -> FloatOut {
        self.add(a, b ^ self.ty().sign())
    }

    /// `a * b`.
    pub fn mul(&self, a: u64, b: u64) -> FloatOut {
        let mut rules = Applied::NONE;
        let a = self.input(a, &mut rules);
        let b = self.input(b, &mut rules);
        let r = self.ty().fmt().mul(a, b, self.rounding());
        self.output(r, rules, true)
    }

    /// `a * b + c` with a single rounding.
    pub fn fma(&self, a: u64, b: u64, c: u64) -> FloatOut {
        let mut rules = Applied::NONE;
        let a = self.input(a, &mut rules);
        let b = self.input(b, &mut rules);
        let c = self.input(c, &mut rules);
        let fmt = self.ty().fmt();
        let r = fmt.fma(a, b, c, self.rounding());
        let mut out = self.output(r, rules, true);
        if let Some(i) = self.fused_inf_rule() {
            let product = fmt.mul(a, b, self.rounding());
            let finite = !matches!(
                fmt.classify(out.bits),
                FpClass::PosInf | FpClass::NegInf | FpClass::Nan
            );
            if product.flags.overflow() && finite {
                out.inf_allowed = true;
                out.rules.add_index(i);
            }
        }
        out
    }

    /// `a / b`, correctly rounded (math FDIV's model value).
    pub fn div(&self, a: u64, b: u64) -> FloatOut {
        let mut rules = Applied::NONE;
        let a = self.input(a, &mut rules);
        let b = self.input(b, &mut rules);
        let r = self.ty().fmt().div(a, b, self.rounding());
        self.output(r, rules, true)
    }

    /// `sqrt(a)`, correctly rounded (math SQRT's model value; ALT takes |a|, fp.alt.math-abs).
    pub fn sqrt(&self, a: u64) -> FloatOut {
        let mut rules = Applied::NONE;
        let a = self.input(a, &mut rules);
        let a = self.math_abs(a, &mut rules);
        let r = self.ty().fmt().sqrt(a, self.rounding());
        self.output(r, rules, true)
    }

    /// Round to an integral value in direction `dir` (rndd = Rd, rndu = Ru, rnde = Rtne,
    /// rndz = Rtz), whatever cr0 says (fp.round.rnd-insns). The flags keep IEEE
    /// roundToIntegralExact's inexact.
    pub fn rnd(&self, a: u64, dir: Round) -> FloatOut {
        let mut rules = Applied::NONE;
        let a = self.input(a, &mut rules);
        let r = self.ty().fmt().round_to_integral(a, dir);
        if r.flags.inexact() {
            rules.add_row(&RND_INSNS);
        }
        self.output(r, rules, false)
    }

    /// frc: `a - floor(a)`, the floor exact and the subtraction rounded in the cr0 mode like
    /// any arithmetic result (fp.frc.definition): +-inf give NaN (inf - inf), and a negative
    /// `a` of tiny magnitude may round to 1.0.
    pub fn frc(&self, a: u64) -> FloatOut {
        let mut rules = Applied::NONE;
        let a = self.input(a, &mut rules);
        let fmt = self.ty().fmt();
        let floor = fmt.round_to_integral(a, Round::Rd).bits;
        let r = fmt.sub(a, floor, self.rounding());
        rules.add_row(&FRC_DEFINITION);
        self.output(r, rules, true)
    }

    /// Min (`cmod` = L) or max (`cmod` = Ge) by sel with the compare-NaN rules: the comparison
    /// picks src0 when true, src1 otherwise; one NaN gives the other operand, two NaNs give src1
    /// (cmpn.rule.minmax-by-sel, cmpn.rule.minmax-one-nan, cmpn.rule.minmax-two-nan). The
    /// selected operand's bits are returned exactly (after the input mapping). Other condition
    /// modifiers select the same way.
    pub fn sel_minmax(&self, cmod: CondMod, a: u64, b: u64) -> FloatOut {
        let mut rules = Applied::NONE;
        let a = self.input(a, &mut rules);
        let b = self.input(b, &mut rules);
        let fmt = self.ty().fmt();
        let (a_nan, b_nan) = (fmt.is_nan(a), fmt.is_nan(b));
        let pick_a = if a_nan && b_nan {
            false
        } else {
            eval(GridKind::Cmpn, cmod, fmt.compare(a, b), a_nan, b_nan)
        };
        if a_nan || b_nan {
            rules.add_row(&MINMAX_NAN);
        }
        let flags = if fmt.is_snan(a) || fmt.is_snan(b) {
            Flags::INVALID
        } else {
            Flags::NONE
        };
        let bits = if pick_a { a } else { b };
        let any_nan_allowed = fmt.is_nan(bits);
        if any_nan_allowed {
            rules.add_row(&NAN_ANY_PATTERN);
        }
        FloatOut {
            bits,
            flags,
            any_nan_allowed,
            inf_allowed: false,
            rules,
        }
    }
}

impl Policy {
    /// `sum_k a_k * b_k` (at most 8 terms) rounded once in the cr0 mode: the model value of
    /// the fused dot-product instructions dp2/dp3/dp4/dph, line and pln (an addend is a term
    /// times 1.0). Every operand goes through the input mapping; a product that overflows
    /// allows +-inf (fp.ieee.fused-overflow).
    pub fn dot(&self, terms: &[(u64, u64)]) -> FloatOut {
        let (mut out, t, k) = self.dot_mapped(terms);
        self.mark_fused_overflow(&mut out, &t[..k]);
        out
    }

    /// [`Self::dot`] without the fused-overflow allowance (`inf_allowed` and its row stay
    /// unset): the same bits and flags, for callers that read only those.
    pub fn dot_result(&self, terms: &[(u64, u64)]) -> FloatOut {
        self.dot_mapped(terms).0
    }

    /// The result of [`Self::dot`] before the fused-overflow allowance, with the mapped
    /// operands (the first `k` terms of the array).
    #[inline]
    fn dot_mapped(&self, terms: &[(u64, u64)]) -> (FloatOut, [(u64, u64); 8], usize) {
        let mut rules = Applied::NONE;
        let mut t = [(0u64, 0u64); 8];
        let k = terms.len().min(8);
        for (d, s) in t.iter_mut().zip(terms) {
            *d = (self.input(s.0, &mut rules), self.input(s.1, &mut rules));
        }
        let fmt = self.ty().fmt();
        let r = fmt.sum_of_products(&t[..k], self.rounding());
        (self.output(r, rules, true), t, k)
    }

    /// lrp: `a * b + (1 - a) * c` with one rounding (the weight is `a`). Finite operands: the
    /// exact value `a*b + c - a*c`; an exact zero takes the sign IEEE gives the two products'
    /// sum. A NaN or infinite operand: the IEEE special result of the two products.
    pub fn lrp(&self, a: u64, b: u64, c: u64) -> FloatOut {
        let mut rules = Applied::NONE;
        let a = self.input(a, &mut rules);
        let b = self.input(b, &mut rules);
        let c = self.input(c, &mut rules);
        let ty = self.ty();
        let fmt = ty.fmt();
        let rm = self.rounding();
        let one = ty.one();
        let sign = ty.sign();
        let finite = |x: u64| {
            !matches!(
                fmt.classify(x),
                FpClass::Nan | FpClass::PosInf | FpClass::NegInf
            )
        };
        // A value with the class and sign of the exact w = 1 - a.
        let a_is_one = a == one;
        let w_neg = if a_is_one {
            rm == Round::Rd
        } else {
            // 1 - a < 0 iff a > 1.
            fmt.compare(a, one) == crate::fp::FpOrd::Greater
        };
        let r = if finite(a) && finite(b) && finite(c) {
            let r = fmt.sum_of_products(&[(a, b), (one, c), (a ^ sign, c)], rm);
            if r.bits & !sign == 0 {
                let zero = |x: u64| x & !sign == 0;
                let z1 = zero(a) || zero(b);
                let z2 = a_is_one || zero(c);
                let neg = if z1 && z2 {
                    let s1 = (a ^ b) & sign != 0;
                    let s2 = w_neg ^ (c & sign != 0);
                    if s1 == s2 {
                        s1
                    } else {
                        rm == Round::Rd
                    }
                } else {
                    rm == Round::Rd
                };
                crate::fp::FpResult::new(if neg { sign } else { 0 }, r.flags)
            } else {
                r
            }
        } else {
            let w = if fmt.is_nan(a) {
                a
            } else if !finite(a) {
                a ^ sign
            } else if a_is_one {
                if w_neg {
                    sign
                } else {
                    0
                }
            } else if w_neg {
                one | sign
            } else {
                one
            };
            fmt.sum_of_products(&[(a, b), (w, c)], rm)
        };
        let mut out = self.output(r, rules, true);
        self.mark_fused_overflow(&mut out, &[(a, b), (a, c)]);
        out
    }

    /// Allow +-inf for a finite fused result whose intermediate product overflows.
    fn mark_fused_overflow(&self, out: &mut FloatOut, products: &[(u64, u64)]) {
        let Some(i) = self.fused_inf_rule() else {
            return;
        };
        let fmt = self.ty().fmt();
        let finite = !matches!(
            fmt.classify(out.bits),
            FpClass::PosInf | FpClass::NegInf | FpClass::Nan
        );
        if finite
            && products
                .iter()
                .any(|&(a, b)| fmt.mul(a, b, self.rounding()).flags.overflow())
        {
            out.inf_allowed = true;
            out.rules.add_index(i);
        }
    }
}

fn policy(env: &FloatEnv, ty: FloatType, ops: FpOps) -> Policy {
    Policy::new(env, ty, ops)
}

/// `a + b` (add; ops class `arith`).
pub fn add(env: &FloatEnv, ty: FloatType, a: u64, b: u64) -> FloatOut {
    policy(env, ty, FpOps::Arith).add(a, b)
}

/// `a - b` (add with a negated src1).
pub fn sub(env: &FloatEnv, ty: FloatType, a: u64, b: u64) -> FloatOut {
    policy(env, ty, FpOps::Arith).sub(a, b)
}

/// `a * b` (mul).
pub fn mul(env: &FloatEnv, ty: FloatType, a: u64, b: u64) -> FloatOut {
    policy(env, ty, FpOps::Arith).mul(a, b)
}

/// `a * b + c`, one rounding (ops class `fused`).
pub fn fma(env: &FloatEnv, ty: FloatType, a: u64, b: u64, c: u64) -> FloatOut {
    policy(env, ty, FpOps::Fused).fma(a, b, c)
}

/// The mad instruction: `src0 + src1 * src2`, one rounding.
pub fn mad(env: &FloatEnv, ty: FloatType, src0: u64, src1: u64, src2: u64) -> FloatOut {
    policy(env, ty, FpOps::Fused).fma(src1, src2, src0)
}

/// `a / b` (math FDIV's model value; ops class `math`).
pub fn div(env: &FloatEnv, ty: FloatType, a: u64, b: u64) -> FloatOut {
    policy(env, ty, FpOps::Math).div(a, b)
}

/// `sqrt(a)` (math SQRT's model value; ops class `math`).
pub fn sqrt(env: &FloatEnv, ty: FloatType, a: u64) -> FloatOut {
    policy(env, ty, FpOps::Math).sqrt(a)
}

/// Round to integral in direction `dir` (rndd/rndu/rnde/rndz).
pub fn rnd(env: &FloatEnv, ty: FloatType, a: u64, dir: Round) -> FloatOut {
    policy(env, ty, FpOps::Arith).rnd(a, dir)
}

/// frc: the fraction `a - floor(a)` (fp.frc.definition; ops class `arith`).
pub fn frc(env: &FloatEnv, ty: FloatType, a: u64) -> FloatOut {
    policy(env, ty, FpOps::Arith).frc(a)
}

/// Min: sel.l with the compare-NaN rules.
pub fn min(env: &FloatEnv, ty: FloatType, a: u64, b: u64) -> FloatOut {
    policy(env, ty, FpOps::Minmax).sel_minmax(CondMod::L, a, b)
}

/// Max: sel.ge with the compare-NaN rules.
pub fn max(env: &FloatEnv, ty: FloatType, a: u64, b: u64) -> FloatOut {
    policy(env, ty, FpOps::Minmax).sel_minmax(CondMod::Ge, a, b)
}

/// sel with a condition modifier, evaluated with the compare-NaN rules (min/max).
pub fn sel_minmax(env: &FloatEnv, ty: FloatType, cmod: CondMod, a: u64, b: u64) -> FloatOut {
    policy(env, ty, FpOps::Minmax).sel_minmax(cmod, a, b)
}

/// A raw mov (equal source and destination types, no modifiers): the bits are copied unchanged,
/// NaN payloads and denormals included, in IEEE and ALT mode (fp.ieee.raw-mov-exact,
/// fp.ieee.denorm.raw-mov, fp.alt.raw-mov). Records the rows whose `ops` is `raw_mov`.
pub fn raw_mov(env: &FloatEnv, ty: FloatType, bits: u64) -> FloatOut {
    let dt = ty.data_type();
    let p = env.platform;
    let alt = env.alt && alt_applies(dt, p);
    let mut rules = Applied::NONE;
    for (i, r) in RULES.iter().enumerate().take(CAPACITY) {
        let active = match r.mode {
            FpMode::Both => true,
            FpMode::Ieee => !alt,
            FpMode::Alt => alt,
        };
        if r.ops == FpOps::RawMov && r.types.contains(dt) && r.gens.contains(p) && active {
            rules.add(u8::try_from(i).ok());
        }
    }
    FloatOut {
        bits: bits & ty.mask(),
        flags: Flags::NONE,
        any_nan_allowed: false,
        inf_allowed: false,
        rules,
    }
}
