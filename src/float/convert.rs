//! Type conversions between UB B UW W UD D UQ Q HF F DF, with and without destination
//! saturation, exactly per spec/conversions.toml: the `[[conversion]]` row of the pair (method,
//! rounding, saturation kind), the float-to-integer `[[special]]` rows and the `[[saturation]]`
//! rows.

use super::applied::Applied;
use super::env::FloatEnv;
use super::policy::alt_applies;
use super::FloatType;
use crate::fp::{Flags, FpClass, Round, ToInt};
use crate::spec::conversions::{
    self, ConvMethod, ConvRound, ConversionInfo, SatKind, SpecialInput, SpecialResult, SATURATIONS,
};
use crate::spec::float_modes;
use crate::spec::{DataType, FpEffect, FpOps, Platform};
use std::sync::OnceLock;

/// Conversion rows whose text states that the upper dword of every destination qword is
/// written with an undefined value (seed000 §2.4.5: Gen7 DF -> F).
const UNDEFINED_UPPER_DWORD: &[&str] = &["conv.float-narrow.df-f.gen7"];

/// The result of a conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConvOut {
    /// The destination encoding (zero-extended to 64 bits).
    pub bits: u64,
    /// The upper dword of the destination qword holds an undefined value (Gen7 DF -> F).
    pub undefined_upper_dword: bool,
    /// The `[[conversion]]` row applied.
    pub rule_id: &'static str,
    /// The `[[special]]` row applied (float to integer special values), if any.
    pub special_id: Option<&'static str>,
    /// The `[[saturation]]` row applied, if saturation was requested.
    pub sat_id: Option<&'static str>,
    /// The result is a NaN whose pattern is not significant (fp.ieee.nan-any-pattern).
    pub any_nan_allowed: bool,
    /// IEEE flags of the conversion (invalid for NaN/inf/out-of-range float -> integer, inexact
    /// when a value was rounded, overflow/underflow of float narrowing). Float -> integer
    /// reports IEEE 754 convertToIntegerExact's flags (SoftFloat's `exact = true`: inexact
    /// when a fraction was dropped, a denormal included; invalid alone otherwise); `euref fp`
    /// drops inexact unless `--exact`, as TestFloat does. The EU raises none
    /// (fp.ieee.no-exceptions): these are for checking against IEEE references.
    pub flags: Flags,
    /// float_modes rows that acted (denormals kept by conversions, NaN policy).
    pub rules: Applied,
}

/// A conversion the model does not compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConvError {
    /// ALT mode with an F <-> DF/HF conversion (fp.alt.conversion-unsupported).
    #[error("{src:?} -> {dst:?} is not supported in ALT mode ({rule_id})")]
    Unsupported {
        /// The float_modes row.
        rule_id: &'static str,
        /// Source type.
        src: DataType,
        /// Destination type.
        dst: DataType,
    },
    /// No conversion row: a vector type, or a type the platform lacks.
    #[error("no conversion {src:?} -> {dst:?} on {platform:?}")]
    NoRule {
        /// Source type.
        src: DataType,
        /// Destination type.
        dst: DataType,
        /// The platform.
        platform: Platform,
    },
    /// No special-value row covers a float -> integer case (a gap in the table).
    #[error("no special-value row for {input:?} {src:?} -> {dst:?} on {platform:?}")]
    NoSpecial {
        /// The special input class.
        input: SpecialInput,
        /// Source type.
        src: DataType,
        /// Destination type.
        dst: DataType,
        /// The platform.
        platform: Platform,
    },
}

/// Mask of the low `n` bits (n <= 64).
const fn low_mask(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// The value of an integer encoding of type `t`.
fn int_value(t: DataType, bits: u64) -> i128 {
    let n = t.bits();
    let m = bits & low_mask(n);
    if t.is_signed() && n > 0 && (m >> (n - 1)) & 1 == 1 {
        m as i128 - (1i128 << n)
    } else {
        m as i128
    }
}

/// The value range of integer type `t` (None for other types).
pub fn int_range(t: DataType) -> Option<(i128, i128)> {
    if !t.is_int() {
        return None;
    }
    let n = t.bits();
    Some(if t.is_signed() {
        (-(1i128 << (n - 1)), (1i128 << (n - 1)) - 1)
    } else {
        (0, (1i128 << n) - 1)
    })
}

/// The encoding of `v` in integer type `t`, modulo 2^bits.
fn int_bits(t: DataType, v: i128) -> u64 {
    (v as u64) & low_mask(t.bits())
}

/// `v` clamped to the range of integer type `t`.
fn clamp_int(t: DataType, v: i128) -> u64 {
    let (lo, hi) = int_range(t).unwrap_or((0, 0));
    int_bits(t, v.clamp(lo, hi))
}

/// The rounding direction of a conversion row.
fn rounding(r: ConvRound, env: &FloatEnv) -> Round {
    match r {
        ConvRound::Exact | ConvRound::Rtne => Round::Rtne,
        ConvRound::Rtz => Round::Rtz,
        ConvRound::Cr0 => env.rounding,
    }
}

/// The parsed float saturation range and NaN result of the `[[saturation]]` row of each float
/// type: (row id, low bound, high bound, NaN result), as encodings of the type.
struct FloatSat {
    id: &'static str,
    lo: u64,
    hi: u64,
    nan: u64,
}

/// Parse a decimal bound of a saturation range into an encoding of `ty` (exactly
/// representable values only; anything else is a table error caught by tests).
fn bound(ty: FloatType, s: &str) -> Option<u64> {
    let v: f64 = s.trim().parse().ok()?;
    let r = crate::fp::Fmt::Df.convert(ty.fmt(), v.to_bits(), Round::Rtne);
    (!r.flags.inexact()).then_some(r.bits)
}

fn float_sat_row(ty: FloatType) -> Option<FloatSat> {
    let row = SATURATIONS
        .iter()
        .find(|s| s.types.contains(ty.data_type()))?;
    let inner = row.range.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (lo, hi) = inner.split_once(',')?;
    let lo = bound(ty, lo)?;
    let hi = bound(ty, hi)?;
    let nan = match row.nan {
        "zero" => 0,
        _ => return None,
    };
    Some(FloatSat {
        id: row.id,
        lo,
        hi,
        nan,
    })
}

fn float_sat(ty: FloatType) -> Option<&'static FloatSat> {
    static CACHE: OnceLock<[Option<FloatSat>; 3]> = OnceLock::new();
    let all = CACHE.get_or_init(|| FloatType::ALL.map(float_sat_row));
    all[ty as usize].as_ref()
}

/// Float destination saturation (`sat.float`): NaN -> the row's NaN value (+0.0); values below
/// the range, and -0.0 (fp.sat.zero-sign), -> the low bound (+0.0); values above -> the high
/// bound (1.0). Returns the result and the row ID.
pub fn saturate(ty: FloatType, bits: u64) -> (u64, &'static str) {
    let bits = bits & ty.mask();
    let Some(s) = float_sat(ty) else {
        return (bits, "");
    };
    let fmt = ty.fmt();
    let out = if fmt.is_nan(bits) {
        s.nan
    } else if bits & ty.sign() != 0 || fmt.compare(bits, s.lo) == crate::fp::FpOrd::Less {
        s.lo
    } else if fmt.compare(bits, s.hi) == crate::fp::FpOrd::Greater {
        s.hi
    } else {
        bits
    };
    (out, s.id)
}

/// The special-value class of a float -> integer conversion, or the truncated value.
enum FloatToInt {
    Special(SpecialInput),
    Value(i128),
}

fn float_to_int(ty: FloatType, bits: u64, dst: DataType, rm: Round) -> FloatToInt {
    let fmt = ty.fmt();
    match fmt.classify(bits) {
        FpClass::PosZero | FpClass::NegZero => return FloatToInt::Special(SpecialInput::Zero),
        FpClass::PosDenorm | FpClass::NegDenorm => {
            return FloatToInt::Special(SpecialInput::Denorm)
        }
        FpClass::Nan => return FloatToInt::Special(SpecialInput::Nan),
        FpClass::PosInf => return FloatToInt::Special(SpecialInput::PosInf),
        FpClass::NegInf => return FloatToInt::Special(SpecialInput::NegInf),
        _ => {}
    }
    let (lo, hi) = int_range(dst).unwrap_or((0, 0));
    let v: Result<i128, bool> = if dst.is_signed() {
        match fmt.to_i64(bits, rm) {
            ToInt::Value(v) => Ok(v as i128),
            ToInt::NegOverflow => Err(false),
            _ => Err(true),
        }
    } else {
        match fmt.to_u64(bits, rm) {
            ToInt::Value(v) => Ok(v as i128),
            ToInt::NegOverflow => Err(false),
            _ => Err(true),
        }
    };
    match v {
        Ok(v) if v > hi => FloatToInt::Special(SpecialInput::PosOverflow),
        Ok(v) if v < lo => FloatToInt::Special(SpecialInput::NegOverflow),
        Ok(v) => FloatToInt::Value(v),
        Err(true) => FloatToInt::Special(SpecialInput::PosOverflow),
        Err(false) => FloatToInt::Special(SpecialInput::NegOverflow),
    }
}

/// Record the denorm_keep row of conversions (and of HF -> F) for a denormal operand.
fn note_denorm(rules: &mut Applied, t: DataType, ops: FpOps, p: Platform) {
    if let Some(r) = float_modes::find(FpEffect::DenormKeep, t, ops, p) {
        rules.add_id(r.id);
    }
}

/// Convert `bits` of type `src` to type `dst` (a mov with those types), with or without the
/// saturation modifier, in the environment `env`.
pub fn convert(
    env: &FloatEnv,
    src: DataType,
    dst: DataType,
    bits: u64,
    saturate_dst: bool,
) -> Result<ConvOut, ConvError> {
    let p = env.platform;
    let rule: &'static ConversionInfo =
        conversions::rule(src, dst, p).ok_or(ConvError::NoRule {
            src,
            dst,
            platform: p,
        })?;
    let sf = FloatType::from_data_type(src);
    let df = FloatType::from_data_type(dst);
    if let (true, Some(_), Some(_)) = (env.alt && src != dst, sf, df) {
        if let Some(r) = float_modes::find(
            FpEffect::AltConversionUnsupported,
            src,
            FpOps::Conversion,
            p,
        ) {
            if r.types.contains(dst) && (alt_applies(src, p) || alt_applies(dst, p)) {
                return Err(ConvError::Unsupported {
                    rule_id: r.id,
                    src,
                    dst,
                });
            }
        }
    }
    let bits = bits & low_mask(src.bits());
    let mut out = ConvOut {
        bits: 0,
        undefined_upper_dword: UNDEFINED_UPPER_DWORD.contains(&rule.id),
        rule_id: rule.id,
        special_id: None,
        sat_id: None,
        any_nan_allowed: false,
        flags: Flags::NONE,
        rules: Applied::NONE,
    };
    if let Some(t) = sf {
        if t.fmt().is_denormal(bits) {
            note_denorm(&mut out.rules, src, FpOps::Conversion, p);
            if dst == DataType::F && src == DataType::HF {
                note_denorm(&mut out.rules, src, FpOps::HfToF, p);
            }
        }
    }
    let rm = rounding(rule.round, env);
    let sat_clamp = saturate_dst && rule.sat == SatKind::Clamp;
    match rule.method {
        ConvMethod::Identity => {
            out.bits = bits & low_mask(dst.bits());
        }
        ConvMethod::ZeroExtend => {
            out.bits = bits & low_mask(dst.bits());
        }
        ConvMethod::SignExtend => {
            out.bits = int_bits(dst, int_value(src, bits));
        }
        ConvMethod::Reinterpret | ConvMethod::Truncate => {
            out.bits = bits & low_mask(dst.bits());
        }
        ConvMethod::FloatToInt => {
            let ty = sf.unwrap_or(FloatType::F);
            match float_to_int(ty, bits, dst, rm) {
                FloatToInt::Value(v) => {
                    out.bits = int_bits(dst, v);
                    if ty.fmt().round_to_integral(bits, rm).flags.inexact() {
                        out.flags = Flags::INEXACT;
                    }
                }
                FloatToInt::Special(input) => {
                    let s =
                        conversions::special(input, src, dst, p).ok_or(ConvError::NoSpecial {
                            input,
                            src,
                            dst,
                            platform: p,
                        })?;
                    let (lo, hi) = int_range(dst).unwrap_or((0, 0));
                    out.bits = int_bits(
                        dst,
                        match s.result {
                            SpecialResult::Zero => 0,
                            SpecialResult::Imax => hi,
                            SpecialResult::Imin => lo,
                        },
                    );
                    out.special_id = Some(s.id);
                    out.flags = match input {
                        SpecialInput::Zero => Flags::NONE,
                        SpecialInput::Denorm => Flags::INEXACT,
                        _ => Flags::INVALID,
                    };
                }
            }
        }
        ConvMethod::IntToFloat => {
            let ty = df.unwrap_or(FloatType::F);
            let v = int_value(src, bits);
            let r = if v >= 0 {
                ty.fmt().from_u64(v as u64, rm)
            } else {
                ty.fmt().from_i64(v as i64, rm)
            };
            out.bits = r.bits;
            out.flags = r.flags;
        }
        ConvMethod::FloatWiden | ConvMethod::FloatNarrow => {
            let (s, d) = (sf.unwrap_or(FloatType::F), df.unwrap_or(FloatType::F));
            let r = s.fmt().convert(d.fmt(), bits, rm);
            out.bits = r.bits;
            out.flags = r.flags;
        }
    }
    if saturate_dst {
        match rule.sat {
            SatKind::Clamp => {
                if let Some(s) = conversions::saturation(dst, p) {
                    out.sat_id = Some(s.id);
                }
                if sat_clamp && rule.method != ConvMethod::FloatToInt {
                    out.bits = clamp_int(dst, int_value(src, bits));
                }
            }
            SatKind::Unit => {
                if let Some(d) = df {
                    let (b, id) = saturate(d, out.bits);
                    out.bits = b;
                    out.sat_id = (!id.is_empty()).then_some(id);
                }
            }
            SatKind::None => {}
        }
    }
    if let Some(d) = df {
        let fmt = d.fmt();
        if fmt.is_nan(out.bits) && rule.method != ConvMethod::Identity {
            out.any_nan_allowed = true;
            out.rules.add_row(&super::arith::NAN_ANY_PATTERN);
        }
        if fmt.is_denormal(out.bits) && src != dst {
            note_denorm(&mut out.rules, dst, FpOps::Conversion, p);
        }
    }
    Ok(out)
}
