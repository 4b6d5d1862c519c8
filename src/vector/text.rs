//! An element's value as text, for people reading a difference: typed values
//! (`1.5`, `-inf`, `nan(0x7fc00000)`, `-3`) and floats as `f64`.

use super::classes::{float_class, NAN};
use crate::spec::DataType;

/// A float's value as f64 (HF, F, DF).
pub fn float_value(t: DataType, bits: u64) -> f64 {
    match t {
        DataType::F => f64::from(f32::from_bits(bits as u32)),
        DataType::DF => f64::from_bits(bits),
        DataType::HF => {
            let s = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
            let e = ((bits >> 10) & 0x1f) as i32;
            let m = (bits & 0x3ff) as f64;
            match e {
                0 => s * m * 2f64.powi(-24),
                31 if m == 0.0 => s * f64::INFINITY,
                31 => f64::NAN,
                _ => s * (1.0 + m / 1024.0) * 2f64.powi(e - 15),
            }
        }
        _ => f64::NAN,
    }
}

/// Typed text of an element: `1.5`, `-inf`, `nan(0x7fc00000)`, `-3`, `4294967295`.
pub fn typed(t: DataType, bits: u64) -> String {
    let w = t.bits();
    if t.is_float() {
        if float_class(t, bits) == NAN {
            return format!("nan(0x{bits:0w$x})", w = (w / 4) as usize);
        }
        let x = float_value(t, bits);
        return if t == DataType::F {
            format!("{:?}", f32::from_bits(bits as u32))
        } else {
            format!("{x:?}")
        };
    }
    if t.is_signed() && w < 64 {
        let sh = 64 - w;
        format!("{}", ((bits << sh) as i64) >> sh)
    } else if t.is_signed() {
        format!("{}", bits as i64)
    } else {
        format!("{bits}")
    }
}
