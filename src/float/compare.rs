//! Comparisons (cmp, cmpn, and the flag an arithmetic result sets under a condition modifier),
//! computed arithmetically: the IEEE ordered/unordered relation of the operands after the EU
//! input handling (denormal flushing per the denorm mode, ALT input mapping). The grids of
//! spec/compare.toml are the reviewable statement of the manual; tests/float/float_compare.rs checks
//! every cell against this evaluation.

use super::applied::{index_of, Applied};
use super::arith::FloatOut;
use super::env::FloatEnv;
use super::policy::{plain_f32, Policy};
use super::FloatType;
use crate::fp::{Flags, FpOrd};
use crate::spec::compare::GridKind;
use crate::spec::{CondMod, FpOps};
use std::sync::OnceLock;

/// The condition modifier `cmod` applied to the relation `ord` of two (input-mapped) operands,
/// for a normal comparison (`Cmp`) or compare-NaN (`Cmpn`).
///
/// * z/nz/g/ge/l/le: IEEE relations; a NaN operand makes them false, except nz true
///   (fp.ieee.compare-nan). Compare-NaN: src1 NaN gives true (nz: false), else src0 NaN gives
///   false (nz: true) (fp.ieee.cmpn-nan, cmpn.rule.*).
/// * u: unordered, either operand NaN (fp.cmod.unordered).
/// * o: false: a comparison produces no arithmetic result that could overflow
///   (fp.cmod.overflow).
/// * none: false (no flag is written).
pub(crate) fn eval(kind: GridKind, cmod: CondMod, ord: FpOrd, a_nan: bool, b_nan: bool) -> bool {
    match cmod {
        CondMod::None | CondMod::O => false,
        CondMod::U => ord == FpOrd::Unordered,
        _ => {
            if kind == GridKind::Cmpn {
                if b_nan {
                    return cmod != CondMod::Nz;
                }
                if a_nan {
                    return cmod == CondMod::Nz;
                }
            }
            matches!(
                (cmod, ord),
                (CondMod::Z, FpOrd::Equal)
                    | (CondMod::Nz, FpOrd::Less | FpOrd::Greater | FpOrd::Unordered)
                    | (CondMod::G, FpOrd::Greater)
                    | (CondMod::Ge, FpOrd::Greater | FpOrd::Equal)
                    | (CondMod::L, FpOrd::Less)
                    | (CondMod::Le, FpOrd::Less | FpOrd::Equal)
            )
        }
    }
}

/// A comparison's outcome with what produced it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompareOut {
    /// The flag value.
    pub value: bool,
    /// The operands were unordered (a NaN after the input mapping).
    pub unordered: bool,
    /// IEEE flags of a quiet comparison (invalid for a signaling NaN operand).
    pub flags: Flags,
    /// The float_modes rows that acted.
    pub rules: Applied,
}

impl Policy {
    /// Compare `a` (src0) with `b` (src1) under `cmod`, as cmp or cmpn.
    pub fn compare(&self, cmod: CondMod, kind: GridKind, a: u64, b: u64) -> CompareOut {
        let mut rules = Applied::NONE;
        let a = self.input(a, &mut rules);
        let b = self.input(b, &mut rules);
        let fmt = self.ty().fmt();
        let ord = fmt.compare(a, b);
        let (a_nan, b_nan) = (fmt.is_nan(a), fmt.is_nan(b));
        let value = eval(kind, cmod, ord, a_nan, b_nan);
        let [unordered, overflow, compare_nan, cmpn_nan] = *compare_rows();
        match cmod {
            CondMod::U => rules.add(unordered),
            CondMod::O => rules.add(overflow),
            CondMod::None => {}
            _ if a_nan || b_nan => rules.add(match kind {
                GridKind::Cmp => compare_nan,
                GridKind::Cmpn => cmpn_nan,
            }),
            _ => {}
        }
        let flags = if fmt.is_snan(a) || fmt.is_snan(b) {
            Flags::INVALID
        } else {
            Flags::NONE
        };
        CompareOut {
            value,
            unordered: ord == FpOrd::Unordered,
            flags,
            rules,
        }
    }
}

impl Policy {
    /// The value of [`Self::compare`] in the common case, computed on the host: F operands
    /// that are both normal or zero, which no input mapping changes (ALT maps only NaN, inf
    /// and denormals; flushing only denormals) and which are ordered. `None` otherwise (the
    /// caller takes [`Self::compare`]).
    #[inline(always)]
    pub fn compare_fast(&self, cmod: CondMod, kind: GridKind, a: u64, b: u64) -> Option<bool> {
        let (a, b) = (a as u32, b as u32);
        if !(self.ty() == FloatType::F && plain_f32(a) && plain_f32(b)) {
            return None;
        }
        let (x, y) = (f32::from_bits(a), f32::from_bits(b));
        let ord = if x < y {
            FpOrd::Less
        } else if x > y {
            FpOrd::Greater
        } else {
            FpOrd::Equal
        };
        Some(eval(kind, cmod, ord, false, false))
    }
}

/// The positions of the rows a comparison records: fp.cmod.unordered, fp.cmod.overflow,
/// fp.ieee.compare-nan, fp.ieee.cmpn-nan (looked up once).
fn compare_rows() -> &'static [Option<u8>; 4] {
    static ROWS: OnceLock<[Option<u8>; 4]> = OnceLock::new();
    ROWS.get_or_init(|| {
        [
            "fp.cmod.unordered",
            "fp.cmod.overflow",
            "fp.ieee.compare-nan",
            "fp.ieee.cmpn-nan",
        ]
        .map(index_of)
    })
}

/// cmp / cmpn of `a` (src0) and `b` (src1) of type `ty` under condition modifier `cmod`.
pub fn compare(
    env: &FloatEnv,
    cmod: CondMod,
    kind: GridKind,
    ty: FloatType,
    a: u64,
    b: u64,
) -> bool {
    compare_out(env, cmod, kind, ty, a, b).value
}

/// [`compare`] with the rows applied and the flags.
pub fn compare_out(
    env: &FloatEnv,
    cmod: CondMod,
    kind: GridKind,
    ty: FloatType,
    a: u64,
    b: u64,
) -> CompareOut {
    Policy::new(env, ty, FpOps::Compare).compare(cmod, kind, a, b)
}

/// The flag an instruction with condition modifier `cmod` sets for its result `out` of type
/// `ty`: a normal comparison of the result with zero (z, nz, g, ge, l, le; fp.cmod.result),
/// overflow of the result (o: the IEEE overflow of the computation; fp.cmod.overflow), a NaN
/// result (u; fp.cmod.unordered). `none` gives false.
pub fn cond_flag(cmod: CondMod, ty: FloatType, out: &FloatOut) -> bool {
    let fmt = ty.fmt();
    match cmod {
        CondMod::O => out.flags.overflow(),
        CondMod::U => fmt.is_nan(out.bits),
        _ => {
            let nan = fmt.is_nan(out.bits);
            eval(GridKind::Cmp, cmod, fmt.compare(out.bits, 0), nan, false)
        }
    }
}
