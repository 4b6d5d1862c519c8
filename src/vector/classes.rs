//! The float value classes of the compare grids (`spec::compare::CLASSES`: -inf, -Fin,
//! -denorm, -0, +0, +denorm, +Fin, +inf, NaN), which the vectors' `classes` labels and grid
//! cells (`cmp.g[+inf,NaN]`) name and the checker's alternatives test.

use crate::spec::DataType;

/// Exponent and mantissa widths of a float type.
pub fn float_format(t: DataType) -> Option<(u32, u32)> {
    match t {
        DataType::HF => Some((5, 10)),
        DataType::F => Some((8, 23)),
        DataType::DF => Some((11, 52)),
        _ => None,
    }
}

/// Grid class order of `spec::compare::CLASSES`.
pub const NEG_INF: usize = 0;
pub const NEG_FIN: usize = 1;
pub const NEG_DENORM: usize = 2;
pub const NEG_ZERO: usize = 3;
pub const POS_ZERO: usize = 4;
pub const POS_DENORM: usize = 5;
pub const POS_FIN: usize = 6;
pub const POS_INF: usize = 7;
pub const NAN: usize = 8;

/// The grid class (index into `spec::compare::CLASSES`) of float bits of type `t`.
pub fn float_class(t: DataType, bits: u64) -> usize {
    class_of_format(float_format(t), bits)
}

/// [`float_class`] for a type of float format `format` (`float_format`; None: not a float,
/// the class of every value is [`POS_FIN`]).
#[inline]
pub fn class_of_format(format: Option<(u32, u32)>, bits: u64) -> usize {
    let Some((e, m)) = format else {
        return POS_FIN;
    };
    let neg = (bits >> (e + m)) & 1 == 1;
    let exp = (bits >> m) & ((1 << e) - 1);
    let man = bits & ((1u64 << m) - 1);
    let (n, p) = if exp == (1 << e) - 1 {
        if man != 0 {
            return NAN;
        }
        (NEG_INF, POS_INF)
    } else if exp == 0 {
        if man == 0 {
            (NEG_ZERO, POS_ZERO)
        } else {
            (NEG_DENORM, POS_DENORM)
        }
    } else {
        (NEG_FIN, POS_FIN)
    };
    if neg {
        n
    } else {
        p
    }
}
