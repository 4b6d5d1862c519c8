//! Integer conversions to the destination type, by the spec conversion table
//! (spec/conversions.toml, `conversions::rule`) and saturation table (`conversions::saturation`).

use crate::spec::conversions::{self, ConvMethod, SatKind};
use crate::spec::{DataType, Platform};
use crate::state::mask_bits;

/// The exact value of an element of integer type `t` with bits `b`: sign-extended for signed
/// types, zero-extended for unsigned ones.
#[inline]
pub fn int_value(t: DataType, b: u64) -> i128 {
    IntRead::of(t).value(b)
}

/// [`int_value`] for one type, its table lookups done once (for per-channel loops).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IntRead {
    /// The type's bits.
    mask: u64,
    /// The sign bit of a signed type; 0 for an unsigned one.
    sign: u64,
}

impl IntRead {
    #[inline]
    pub fn of(t: DataType) -> IntRead {
        let bits = t.bits();
        let sign = if t.is_signed() && (1..=64).contains(&bits) {
            1u64 << (bits - 1)
        } else {
            0
        };
        IntRead {
            mask: mask_bits(bits),
            sign,
        }
    }

    /// The exact value of bits `b`.
    #[inline(always)]
    pub fn value(self, b: u64) -> i128 {
        // (Branch-free: a set sign bit counts negative, twice its weight less.)
        let m = b & self.mask;
        i128::from(m) - (i128::from(m & self.sign) << 1)
    }
}

/// The range of integer type `t`.
#[inline]
pub fn int_range(t: DataType) -> (i128, i128) {
    let b = t.bits();
    if t.is_signed() {
        (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)
    } else {
        (0, (1i128 << b) - 1)
    }
}

/// How an integer result of execution type `exec` reaches integer destination type `dst`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IntConv {
    pub dst: DataType,
    /// The conversion row's saturation kind (clamp to the destination range).
    pub clamp: bool,
    pub lo: i128,
    pub hi: i128,
    pub mask: u64,
    /// Reads destination bits back as a value.
    read: IntRead,
}

impl IntConv {
    /// The conversion from `exec` to `dst` on `p`, if it is an integer-to-integer conversion
    /// (`None` for conversions involving floats, which belong to the float layer).
    #[inline]
    pub fn new(p: Platform, exec: DataType, dst: DataType) -> Option<IntConv> {
        // Every platform's conversions between every pair of types, decided once.
        static TABLE: std::sync::OnceLock<Vec<Option<IntConv>>> = std::sync::OnceLock::new();
        let n = DataType::ALL.len();
        let table = TABLE.get_or_init(|| {
            let mut t = Vec::with_capacity(Platform::ALL.len() * n * n);
            for p in Platform::ALL {
                for e in DataType::ALL {
                    for d in DataType::ALL {
                        t.push(IntConv::from_row(p, e, d));
                    }
                }
            }
            t
        });
        match table.get((p as usize * n + exec as usize) * n + dst as usize) {
            Some(c) => *c,
            None => IntConv::from_row(p, exec, dst),
        }
    }

    /// [`IntConv::new`] from the conversion table's row.
    fn from_row(p: Platform, exec: DataType, dst: DataType) -> Option<IntConv> {
        let row = conversions::rule(exec, dst, p)?;
        match row.method {
            ConvMethod::Identity
            | ConvMethod::ZeroExtend
            | ConvMethod::SignExtend
            | ConvMethod::Reinterpret
            | ConvMethod::Truncate
                if dst.is_int() && exec.is_int() => {}
            _ => return None,
        }
        let (lo, hi) = int_range(dst);
        Some(IntConv {
            dst,
            clamp: row.sat == SatKind::Clamp,
            lo,
            hi,
            mask: mask_bits(dst.bits()),
            read: IntRead::of(dst),
        })
    }

    /// Convert the exact result `v`: (destination bits, the value those bits hold in the
    /// destination type, whether `v` is outside the destination range). Without saturation the
    /// low bits are kept (two's complement truncation; zero/sign extension and reinterpretation
    /// keep the value's low bits too); with saturation the value is clamped to the range
    /// (sat.int.*).
    #[inline]
    pub fn apply(&self, v: i128, sat: bool) -> (u64, i128, bool) {
        let over = v < self.lo || v > self.hi;
        if sat && self.clamp {
            let c = v.clamp(self.lo, self.hi);
            ((c as u64) & self.mask, c, over)
        } else {
            let b = (v as u64) & self.mask;
            (b, self.read.value(b), over)
        }
    }

    /// The destination bits of [`IntConv::apply`] alone.
    #[inline(always)]
    pub fn bits(&self, v: i128, sat: bool) -> u64 {
        let c = if sat && self.clamp {
            v.clamp(self.lo, self.hi)
        } else {
            v
        };
        (c as u64) & self.mask
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`IntConv::bits`] is the bits of [`IntConv::apply`], for every conversion, with and
    /// without saturation, on extremes and random values of every width.
    #[test]
    fn bits_are_the_bits_of_apply() {
        let mut next = crate::test_rng::xorshift(0xb175_0fa9_9100);
        for p in Platform::ALL {
            for e in DataType::ALL {
                for d in DataType::ALL {
                    let Some(cv) = IntConv::new(p, e, d) else {
                        continue;
                    };
                    for k in 0..300 {
                        let v = match k {
                            0 => i128::MIN,
                            1 => i128::MAX,
                            2..=40 => (1i128 << (k - 2)) - 1 - i128::from(k % 3 == 0),
                            41..=80 => -(1i128 << (k - 41)),
                            _ => {
                                let x = i128::from(next()) | i128::from(next()) << 64;
                                x >> (next() % 127)
                            }
                        };
                        for sat in [false, true] {
                            assert_eq!(
                                cv.bits(v, sat),
                                cv.apply(v, sat).0,
                                "{p:?} {e:?} {d:?} {v}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn conversion_table_is_the_rows() {
        for p in Platform::ALL {
            for e in DataType::ALL {
                for d in DataType::ALL {
                    assert_eq!(IntConv::new(p, e, d), IntConv::from_row(p, e, d));
                }
            }
        }
    }
}
