//! The `math` instruction's functions (function control FC), per
//! `spec/math.toml`.
//!
//! [`eval`] computes one channel: it finds the function's `[[func]]` row for
//! the platform and type (which also gives the error bound conforming
//! hardware may show), applies the float_modes rules for math operations
//! (denormal flushing, the ALT input mappings), looks the operand classes up
//! in the `[[special]]` rows, and otherwise computes the correctly rounded
//! result (round to nearest even, see the header of math.toml) in [`cr`].
//! The ALT result rules (inf -> fmax, NaN -> +0, denormal -> 0) and output
//! flushing come last. Nothing here restates a special case: every exact
//! special result comes from `spec::math::SPECIALS`.
//!
//! Integer divide follows the `math.int-div-*` rows; INVM and RSQRTM give
//! their early-out results where the public sources determine them and an
//! undefined result (destination and early-out bit) otherwise.
//!
//! Pure integer and binary64 arithmetic (the `libm` crate, no host libm), no
//! allocation, no panics.

mod cr;
mod mp;

use crate::float::{Applied, FloatEnv, FloatType, Policy};
use crate::fp::{self, Flags, Format, FpResult, Hf, Round, F32, F64};
use crate::spec::float_modes::FpMode;
use crate::spec::math::{InClass, MathFuncInfo, MathSpecialInfo, OutValue, FUNCS, SPECIALS};
use crate::spec::{DataType, FpOps, Platform, PLATFORM_COUNT};
use std::sync::OnceLock;

pub use crate::spec::MathFn;

/// How far a hardware result may be from the model's value (from the
/// function's `[[func]]` row; exact for special results and integers).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// Distance in representable values (ULPs of the result) from the
    /// correctly rounded value; 0 = exact.
    pub ulps: f64,
    /// Absolute distance; 0 = none. A result within either bound is accepted.
    pub abs: f64,
}

impl Tolerance {
    /// Bit-exact.
    pub const EXACT: Tolerance = Tolerance {
        ulps: 0.0,
        abs: 0.0,
    };

    /// No slack at all.
    pub fn is_exact(&self) -> bool {
        self.ulps <= 0.0 && self.abs <= 0.0
    }

    /// Whether `candidate` is within this tolerance of `reference`, both bit
    /// patterns of `ty` (float types: NaNs are never within a tolerance, see
    /// [`MathOut::accepts`]; integer types: exact).
    pub fn accepts(&self, ty: DataType, reference: u64, candidate: u64) -> bool {
        let Some(fmt) = float_fmt(ty) else {
            return reference == candidate;
        };
        let mask = fmt.mask();
        let (r, c) = (reference & mask, candidate & mask);
        if r == c {
            return true;
        }
        if fmt.is_nan(r) || fmt.is_nan(c) {
            return false;
        }
        let (Some(or), Some(oc)) = (ordinal(fmt, r), ordinal(fmt, c)) else {
            return false;
        };
        if (or - oc).unsigned_abs() as f64 <= self.ulps {
            return true;
        }
        if self.abs > 0.0 {
            let (vr, vc) = (value_f64(fmt, r), value_f64(fmt, c));
            if vr.is_finite() && vc.is_finite() && (vr - vc).abs() <= self.abs {
                return true;
            }
        }
        false
    }
}

/// The result of one channel of a math instruction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MathOut {
    /// Destination bits (zero-extended; for INT DIV BOTH the quotient).
    pub bits: u64,
    /// INT DIV BOTH: the remainder, written to the register after the
    /// destination.
    pub bits2: Option<u64>,
    /// INVM / RSQRTM: the early-out predicate (set: `bits` is final). `None` for the other
    /// functions, and for INVM / RSQRTM when `undefined` is set (the early-out bit is then
    /// undefined as well).
    pub early_out: Option<bool>,
    /// How far conforming hardware may be from `bits`.
    pub tolerance: Tolerance,
    /// The result is a NaN and any NaN pattern is acceptable
    /// (fp.ieee.nan-any-pattern).
    pub any_nan_allowed: bool,
    /// The result is undefined (any value is acceptable); `bits` is the
    /// model's deterministic choice (math.int-div-quotient).
    pub undefined: bool,
    /// The `[[special]]` row that gave the result, if any.
    pub special_rule: Option<&'static str>,
    /// A `[[special]]` row applied before (the ALT `abs` rows), if any.
    pub pre_rule: Option<&'static str>,
    /// The function's `[[func]]` row.
    pub func_rule: &'static str,
    /// The float_modes rows that acted (denormal flushing, ALT mappings, NaN policy).
    pub fp_rules: Applied,
}

impl MathOut {
    /// Whether a hardware result `candidate` (destination bits) conforms.
    pub fn accepts(&self, ty: DataType, candidate: u64) -> bool {
        if self.undefined {
            return true;
        }
        if self.any_nan_allowed {
            if let Some(fmt) = float_fmt(ty) {
                if fmt.is_nan(candidate) {
                    return true;
                }
            }
        }
        self.tolerance.accepts(ty, self.bits, candidate)
    }
}

/// Why [`eval`] gives no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MathError {
    /// No `[[func]]` row: the function does not exist for this type on this
    /// platform.
    #[error("math {func:?} is not available for type {ty:?} on {platform:?}")]
    NotAvailable {
        /// The function.
        func: MathFn,
        /// The operand type.
        ty: DataType,
        /// The platform.
        platform: Platform,
    },
    /// The function exists but its result is not publicly specified for
    /// these operands.
    #[error("{func}: {reason}")]
    Unsupported {
        /// The `[[func]]` row ID (e.g. `math.invm`).
        func: &'static str,
        /// What is missing.
        reason: &'static str,
    },
}

/// The number of sources function `f` reads (`srcs` of its math.toml `[[func]]` rows; IGA's
/// `GetSourceCount(MathFC)` gives the same counts); None for a function without rows.
pub fn source_count(f: MathFn) -> Option<u8> {
    FUNCS.iter().find(|r| r.func == f).map(|r| r.srcs)
}

/// The `[[func]]` row of `f` for `ty` on `p`.
#[inline]
pub fn func_row(f: MathFn, ty: DataType, p: Platform) -> Option<&'static MathFuncInfo> {
    // The search for every function, type and platform, done once.
    type Table = Vec<Option<&'static MathFuncInfo>>;
    static TABLE: OnceLock<Table> = OnceLock::new();
    let key = |f: MathFn, ty: DataType, p: Platform| {
        (f as usize * DataType::ALL.len() + ty as usize) * PLATFORM_COUNT + p as usize
    };
    let t = TABLE.get_or_init(|| {
        let mut t: Table = vec![None; MathFn::ALL.len() * DataType::ALL.len() * PLATFORM_COUNT];
        for f in MathFn::ALL {
            for ty in DataType::ALL {
                for p in Platform::ALL {
                    t[key(f, ty, p)] = func_row_scan(f, ty, p);
                }
            }
        }
        t
    });
    match t.get(key(f, ty, p)) {
        Some(r) => *r,
        None => func_row_scan(f, ty, p),
    }
}

/// [`func_row`] by a search of the rows.
fn func_row_scan(f: MathFn, ty: DataType, p: Platform) -> Option<&'static MathFuncInfo> {
    FUNCS
        .iter()
        .find(|r| r.func == f && r.types.contains(ty) && r.gens.contains(p))
}

/// Evaluate one channel of `math` with function `f` on operands `a` and `b`
/// (bit patterns of `ty`; `b` is ignored by one-source functions).
pub fn eval(f: MathFn, ty: DataType, a: u64, b: u64, env: &FloatEnv) -> Result<MathOut, MathError> {
    let Some(row) = func_row(f, ty, env.platform) else {
        return Err(MathError::NotAvailable {
            func: f,
            ty,
            platform: env.platform,
        });
    };
    eval_row(row, f, ty, a, b, env)
}

/// [`eval`] with the function's row (`func_row(f, ty, env.platform)`) looked up beforehand,
/// for channel loops.
pub fn eval_row(
    row: &'static MathFuncInfo,
    f: MathFn,
    ty: DataType,
    a: u64,
    b: u64,
    env: &FloatEnv,
) -> Result<MathOut, MathError> {
    eval_row_with(row, f, ty, a, b, env, row_policy(ty, env).as_ref())
}

/// The float_modes policy [`eval_row`] applies to operands of `ty` in `env` (`None`: not a
/// float type), for [`eval_row_with`].
pub fn row_policy(ty: DataType, env: &FloatEnv) -> Option<Policy> {
    policy(ty, env)
}

/// [`eval_row`] with its policy (`row_policy(ty, env)`) made beforehand, for channel loops.
pub fn eval_row_with(
    row: &'static MathFuncInfo,
    f: MathFn,
    ty: DataType,
    a: u64,
    b: u64,
    env: &FloatEnv,
    pol: Option<&Policy>,
) -> Result<MathOut, MathError> {
    match f {
        MathFn::IntDivQuotient | MathFn::IntDivRemainder | MathFn::IntDivBoth => {
            Ok(int_div(f, ty, a, b, row))
        }
        MathFn::Invm | MathFn::Rsqrtm => match ty {
            DataType::F => macro_step::<F32>(f, a, b, env, row, pol),
            DataType::DF => macro_step::<F64>(f, a, b, env, row, pol),
            DataType::HF => macro_step::<Hf>(f, a, b, env, row, pol),
            _ => Err(unsupported(row, "operand type")),
        },
        _ => match ty {
            DataType::F => float::<F32>(f, ty, a, b, env, row, pol),
            DataType::HF => float::<Hf>(f, ty, a, b, env, row, pol),
            _ => Err(unsupported(
                row,
                "no correctly rounded evaluation for this type",
            )),
        },
    }
}

fn unsupported(row: &'static MathFuncInfo, reason: &'static str) -> MathError {
    MathError::Unsupported {
        func: row.id,
        reason,
    }
}

// ------------------------------------------------------------------ special rows

fn in_class<T: Format>(x: u64) -> InClass {
    match fp::classify::<T>(x) {
        fp::FpClass::NegInf => InClass::NegInf,
        fp::FpClass::NegFin => InClass::NegFin,
        fp::FpClass::NegDenorm => InClass::NegDenorm,
        fp::FpClass::NegZero => InClass::NegZero,
        fp::FpClass::PosZero => InClass::PosZero,
        fp::FpClass::PosDenorm => InClass::PosDenorm,
        fp::FpClass::PosFin => InClass::PosFin,
        fp::FpClass::PosInf => InClass::PosInf,
        fp::FpClass::Nan => InClass::Nan,
    }
}

fn class_match(row: InClass, c: InClass) -> bool {
    row == InClass::Any || row == c
}

/// The special row for `f` and the operand classes (`c1 = Any` for
/// one-source functions): in ALT mode the `alt` rows first, then `both`;
/// in IEEE mode `ieee` and `both` rows in file order.
fn special(
    f: MathFn,
    p: Platform,
    alt: bool,
    c0: InClass,
    c1: InClass,
) -> Option<&'static MathSpecialInfo> {
    // The search for every pair of classes, done once per function, platform and mode.
    type Pairs = [Option<&'static MathSpecialInfo>; CLASSES * CLASSES];
    static TABLE: OnceLock<Vec<OnceLock<Pairs>>> = OnceLock::new();
    const CLASSES: usize = IN_CLASSES.len();
    let t = TABLE.get_or_init(|| {
        (0..MathFn::ALL.len() * PLATFORM_COUNT * 2)
            .map(|_| OnceLock::new())
            .collect()
    });
    let key = (f as usize * PLATFORM_COUNT + p as usize) * 2 + usize::from(alt);
    let Some(cell) = t.get(key) else {
        return special_scan(f, p, alt, c0, c1);
    };
    let pairs = cell.get_or_init(|| {
        let mut pairs: Pairs = [None; CLASSES * CLASSES];
        for c0 in IN_CLASSES {
            for c1 in IN_CLASSES {
                pairs[c0 as usize * CLASSES + c1 as usize] = special_scan(f, p, alt, c0, c1);
            }
        }
        pairs
    });
    pairs
        .get(c0 as usize * CLASSES + c1 as usize)
        .copied()
        .unwrap_or_else(|| special_scan(f, p, alt, c0, c1))
}

/// Every operand class of the special rows, `Any` last.
const IN_CLASSES: [InClass; 10] = [
    InClass::NegInf,
    InClass::NegFin,
    InClass::NegDenorm,
    InClass::NegZero,
    InClass::PosZero,
    InClass::PosDenorm,
    InClass::PosFin,
    InClass::PosInf,
    InClass::Nan,
    InClass::Any,
];

/// [`special`] by a search of the candidate rows.
fn special_scan(
    f: MathFn,
    p: Platform,
    alt: bool,
    c0: InClass,
    c1: InClass,
) -> Option<&'static MathSpecialInfo> {
    special_candidates(f, p, alt)
        .iter()
        .copied()
        .find(|s| class_match(s.src0, c0) && class_match(s.src1, c1))
}

/// The rows of `f` on `p` that [`special`] may pick, in the order it tries them, filtered
/// from `SPECIALS` once per process (every function, platform and mode).
fn special_candidates(f: MathFn, p: Platform, alt: bool) -> &'static [&'static MathSpecialInfo] {
    type Table = Vec<Vec<&'static MathSpecialInfo>>;
    static TABLE: OnceLock<Table> = OnceLock::new();
    let key = |f: MathFn, p: Platform, alt: bool| {
        (f as usize * PLATFORM_COUNT + p as usize) * 2 + usize::from(alt)
    };
    let t = TABLE.get_or_init(|| {
        let mut t: Table = vec![Vec::new(); MathFn::ALL.len() * PLATFORM_COUNT * 2];
        for f in MathFn::ALL {
            for p in Platform::ALL {
                let rows = |want: fn(FpMode) -> bool| {
                    SPECIALS
                        .iter()
                        .filter(move |s| s.func == f && s.gens.contains(p) && want(s.mode))
                };
                t[key(f, p, false)] = rows(|m| m != FpMode::Alt).collect();
                t[key(f, p, true)] = rows(|m| m == FpMode::Alt)
                    .chain(rows(|m| m == FpMode::Both))
                    .collect();
            }
        }
        t
    });
    t.get(key(f, p, alt)).map_or(&[], Vec::as_slice)
}

/// The value of a special result (`Abs` is handled by the caller).
fn out_value<T: Format>(v: OutValue, src0: u64) -> u64 {
    match v {
        OutValue::PosInf => T::INF,
        OutValue::NegInf => T::SIGN | T::INF,
        OutValue::PosZero => 0,
        OutValue::NegZero => T::SIGN,
        OutValue::Nan => T::CANONICAL_NAN,
        OutValue::PosFmax => T::MAX_FINITE,
        OutValue::NegFmax => T::SIGN | T::MAX_FINITE,
        OutValue::Src0 => src0,
        OutValue::Abs => src0 & !T::SIGN,
    }
}

// ------------------------------------------------------------------ float functions

/// The float_modes policy of math operations on `ty`.
fn policy(ty: DataType, env: &FloatEnv) -> Option<Policy> {
    FloatType::from_data_type(ty).map(|ft| Policy::new(env, ft, FpOps::Math))
}

/// A result as the destination receives it (ALT result rules, NaN policy,
/// denormal flushing of the rounded value).
fn deliver(pol: &Policy, bits: u64, rules: Applied) -> (u64, bool, Applied) {
    let o = pol.output(FpResult::new(bits, Flags::NONE), rules, false);
    (o.bits, o.any_nan_allowed, o.rules)
}

fn float<T: Format>(
    f: MathFn,
    ty: DataType,
    a: u64,
    b: u64,
    env: &FloatEnv,
    row: &'static MathFuncInfo,
    pol: Option<&Policy>,
) -> Result<MathOut, MathError> {
    let p = env.platform;
    let Some(pol) = pol else {
        return Err(unsupported(row, "operand type"));
    };
    let mut rules = Applied::NONE;
    let two = row.srcs >= 2;
    let mut x = pol.input(a, &mut rules);
    let y = if two { pol.input(b, &mut rules) } else { 0 };
    let c1 = if two { in_class::<T>(y) } else { InClass::Any };

    let mut pre_rule = None;
    let mut special_rule = None;
    let mut value = None;
    for _ in 0..3 {
        match special(f, p, pol.alt(), in_class::<T>(x), c1) {
            Some(s) if s.result == OutValue::Abs => {
                if pre_rule.is_some() {
                    break;
                }
                x &= !T::SIGN;
                pre_rule = Some(s.id);
            }
            Some(s) => {
                value = Some(out_value::<T>(s.result, x));
                special_rule = Some(s.id);
                break;
            }
            None => break,
        }
    }

    let (bits, tolerance) = match value {
        Some(v) => (v, Tolerance::EXACT),
        None => match compute::<T>(f, x, y, p) {
            Computed::Value(r) => (r, row_tolerance(row, ty, x)),
            Computed::Special(s) => {
                special_rule = Some(s.id);
                (out_value::<T>(s.result, x), Tolerance::EXACT)
            }
        },
    };
    let (bits, any_nan_allowed, fp_rules) = deliver(pol, bits, rules);
    Ok(MathOut {
        bits,
        bits2: None,
        early_out: None,
        tolerance,
        any_nan_allowed,
        undefined: false,
        special_rule,
        pre_rule,
        func_rule: row.id,
        fp_rules,
    })
}

enum Computed {
    Value(u64),
    Special(&'static MathSpecialInfo),
}

/// The function on operands no special row covers.
fn compute<T: Format>(f: MathFn, x: u64, y: u64, p: Platform) -> Computed {
    let one = cr::one::<T>();
    Computed::Value(match f {
        MathFn::Inv => fp::div::<T>(one, x, Round::Rtne).bits,
        MathFn::Sqrt => fp::sqrt::<T>(x, Round::Rtne).bits,
        MathFn::Fdiv => fp::div::<T>(x, y, Round::Rtne).bits,
        MathFn::Rsq => cr::rsq::<T>(x),
        MathFn::Log => cr::log2::<T>(x, true),
        MathFn::Exp => cr::exp2::<T>(x, true),
        MathFn::Sin => cr::sincos::<T>(x, false, true),
        MathFn::Cos => cr::sincos::<T>(x, true, true),
        MathFn::Pow => {
            if fp::is_inf::<T>(y) {
                // powr(x, +-inf) for a positive finite base: by its definition
                // exp2(y * log2(x)), the EXP row for the sign of the product
                // (log2(1) = 0 and 0 * inf is NaN, fp.ieee.zero-times-inf).
                let lsign = fp::compare::<T>(x, one);
                let prod = match lsign {
                    fp::FpOrd::Less => (y ^ T::SIGN) & T::MASK,
                    fp::FpOrd::Greater => y,
                    _ => fp::mul::<T>(0, y, Round::Rtne).bits,
                };
                if let Some(s) = special(MathFn::Exp, p, false, in_class::<T>(prod), InClass::Any) {
                    return Computed::Special(s);
                }
                return Computed::Value(T::CANONICAL_NAN);
            }
            cr::powr::<T>(x, y, true)
        }
        _ => T::CANONICAL_NAN,
    })
}

// ------------------------------------------------------------------ INVM, RSQRTM

/// INVM (`src0 / src1`) and RSQRTM (`sqrt(src0)`), the first steps of the IEEE divide and
/// square-root macros (math.invm, math.rsqrtm). Operands that make the macro's result
/// special (NaN, infinite, zero) give that result with the early-out bit set: for INVM the
/// fdiv special rows, for RSQRTM the sqrt special rows (IGC's IEEE square-root sequence
/// delivers the RSQRTM destination of an early-out channel as the square root). Any other
/// operand gives the initial approximation, whose bits and early-out bit are not public:
/// `undefined` is set and `early_out` is `None`; `bits` is then the model's deterministic
/// stand-in, the correctly rounded value of the whole macro.
fn macro_step<T: Format>(
    f: MathFn,
    a: u64,
    b: u64,
    env: &FloatEnv,
    row: &'static MathFuncInfo,
    pol: Option<&Policy>,
) -> Result<MathOut, MathError> {
    let p = env.platform;
    let Some(pol) = pol else {
        return Err(unsupported(row, "operand type"));
    };
    let mut rules = Applied::NONE;
    let x = pol.input(a, &mut rules);
    let (special_fn, c1, y) = if f == MathFn::Invm {
        let y = pol.input(b, &mut rules);
        (MathFn::Fdiv, in_class::<T>(y), y)
    } else {
        (MathFn::Sqrt, InClass::Any, 0)
    };
    let c0 = in_class::<T>(x);
    let early = |c: InClass| {
        matches!(
            c,
            InClass::NegInf | InClass::PosInf | InClass::NegZero | InClass::PosZero | InClass::Nan
        )
    };
    // RSQRTM: negative operands (normal or kept denormal) give the sqrt NaN too.
    let special_operands = early(c0)
        || (f == MathFn::Invm && early(c1))
        || (f == MathFn::Rsqrtm && matches!(c0, InClass::NegFin | InClass::NegDenorm));
    let hit = if special_operands {
        special(special_fn, p, pol.alt(), c0, c1)
    } else {
        None
    };
    let mut out = MathOut {
        bits: 0,
        bits2: None,
        early_out: None,
        tolerance: Tolerance::EXACT,
        any_nan_allowed: false,
        undefined: false,
        special_rule: None,
        pre_rule: None,
        func_rule: row.id,
        fp_rules: Applied::NONE,
    };
    let value = match hit {
        Some(s) if s.result != OutValue::Abs => {
            out.early_out = Some(true);
            out.special_rule = Some(s.id);
            out_value::<T>(s.result, x)
        }
        _ => {
            out.undefined = true;
            if f == MathFn::Invm {
                fp::div::<T>(x, y, Round::Rtne).bits
            } else {
                fp::sqrt::<T>(x & !T::SIGN, Round::Rtne).bits
            }
        }
    };
    let (bits, any_nan_allowed, fp_rules) = deliver(pol, value, rules);
    out.bits = bits;
    out.any_nan_allowed = any_nan_allowed && !out.undefined;
    out.fp_rules = fp_rules;
    Ok(out)
}

// ------------------------------------------------------------------ integer divide

fn int_div(f: MathFn, ty: DataType, a: u64, b: u64, row: &'static MathFuncInfo) -> MathOut {
    let (a32, b32) = (a as u32, b as u32);
    // (quotient, remainder, quotient undefined, remainder undefined)
    let (q, r, uq, ur) = if b32 == 0 {
        (u32::MAX, a32, true, true)
    } else if ty == DataType::D {
        let (sa, sb) = (a32 as i32, b32 as i32);
        if sa == i32::MIN && sb == -1 {
            (i32::MIN as u32, 0, true, false)
        } else {
            ((sa / sb) as u32, (sa % sb) as u32, false, false)
        }
    } else {
        (a32 / b32, a32 % b32, false, false)
    };
    let (bits, bits2, undefined) = match f {
        MathFn::IntDivQuotient => (q, None, uq),
        MathFn::IntDivRemainder => (r, None, ur),
        _ => (q, Some(r as u64), uq || ur),
    };
    MathOut {
        bits: bits as u64,
        bits2,
        early_out: None,
        tolerance: Tolerance::EXACT,
        any_nan_allowed: false,
        undefined,
        special_rule: None,
        pre_rule: None,
        func_rule: row.id,
        fp_rules: Applied::NONE,
    }
}

// ------------------------------------------------------------------ helpers

/// The bound of `row` for a computed result with operand `x` (src0 after the input rules,
/// bits of `ty`): with an `abs_range`, the absolute bound inside the range and the ULP bound
/// outside; without one, both (a result within either is accepted).
fn row_tolerance(row: &MathFuncInfo, ty: DataType, x: u64) -> Tolerance {
    let both = Tolerance {
        ulps: row.ulps,
        abs: row.abs_error,
    };
    match (row.abs_range, float_fmt(ty)) {
        (Some((lo, hi)), Some(fmt)) => {
            let v = value_f64(fmt, x);
            if v >= lo && v <= hi {
                Tolerance {
                    ulps: 0.0,
                    abs: row.abs_error,
                }
            } else {
                Tolerance {
                    ulps: row.ulps,
                    abs: 0.0,
                }
            }
        }
        _ => both,
    }
}

fn float_fmt(ty: DataType) -> Option<fp::Fmt> {
    match ty {
        DataType::HF => Some(fp::Fmt::Hf),
        DataType::F => Some(fp::Fmt::F),
        DataType::DF => Some(fp::Fmt::Df),
        _ => None,
    }
}

/// Position of a non-NaN value on the line of representable values
/// (-0 and +0 both at 0).
fn ordinal(fmt: fp::Fmt, bits: u64) -> Option<i64> {
    if fmt.is_nan(bits) {
        return None;
    }
    let sign = 1u64 << (fmt.bits() - 1);
    let mag = (bits & !sign & fmt.mask()) as i64;
    Some(if bits & sign != 0 { -mag } else { mag })
}

/// The value of a float bit pattern as binary64 (exact for HF and F).
fn value_f64(fmt: fp::Fmt, bits: u64) -> f64 {
    f64::from_bits(fmt.convert(fp::Fmt::Df, bits, Round::Rtne).bits)
}

/// Test hook: the F result of LOG, EXP, SIN, COS or POW computed by the accurate
/// (multi-precision) path alone, skipping the binary64 fast path, for operands no special
/// row covers (positive finite base for POW, finite operands otherwise; denormals as given).
/// `None` for other functions or operands.
#[doc(hidden)]
pub fn accurate_path_f32(f: MathFn, a: u32, b: u32) -> Option<u32> {
    let (a, b) = (a as u64, b as u64);
    let finite = |v: u64| fp::is_finite::<F32>(v);
    if !finite(a)
        || (f == MathFn::Pow && (!finite(b) || fp::is_negative::<F32>(a) || fp::is_zero::<F32>(a)))
    {
        return None;
    }
    let r = match f {
        MathFn::Log if !fp::is_negative::<F32>(a) && !fp::is_zero::<F32>(a) => {
            cr::log2::<F32>(a, false)
        }
        MathFn::Exp => cr::exp2::<F32>(a, false),
        MathFn::Sin => cr::sincos::<F32>(a, false, false),
        MathFn::Cos => cr::sincos::<F32>(a, true, false),
        MathFn::Pow => cr::powr::<F32>(a, b, false),
        _ => return None,
    };
    Some(r as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_row_table_is_the_search() {
        let id = |r: Option<&'static MathFuncInfo>| r.map(|r| r as *const MathFuncInfo);
        for f in MathFn::ALL {
            for ty in DataType::ALL {
                for p in Platform::ALL {
                    assert_eq!(id(func_row(f, ty, p)), id(func_row_scan(f, ty, p)));
                }
            }
        }
    }

    #[test]
    fn special_row_table_is_the_search() {
        // The class list is the enum's, in order.
        assert_eq!(IN_CLASSES.len(), InClass::Any as usize + 1);
        for (i, c) in IN_CLASSES.iter().enumerate() {
            assert_eq!(*c as usize, i);
        }
        let id = |r: Option<&'static MathSpecialInfo>| r.map(|r| r as *const MathSpecialInfo);
        let mut found = 0;
        for f in MathFn::ALL {
            for p in Platform::ALL {
                for alt in [false, true] {
                    for c0 in IN_CLASSES {
                        for c1 in IN_CLASSES {
                            let r = special(f, p, alt, c0, c1);
                            assert_eq!(id(r), id(special_scan(f, p, alt, c0, c1)));
                            found += usize::from(r.is_some());
                        }
                    }
                }
            }
        }
        assert!(found > 1000, "{found} special rows found");
    }
}
