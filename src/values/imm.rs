//! Immediate operands: scalar immediates and the packed V, UV and VF vectors.

use super::ValueError;
use crate::spec::{feature, DataType, Platform};

/// The elements an immediate operand supplies: one element for a scalar immediate, eight W (V)
/// or UW (UV) elements, or four F elements (VF). Each value holds the element's bits in its low
/// `ty().bits()` bits (zero-extended; a V element's W bits are its sign-extended 16-bit form).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImmElements {
    ty: DataType,
    len: usize,
    vals: [u64; 8],
}

impl ImmElements {
    /// The element type (W for V, UW for UV, F for VF, the immediate's type otherwise).
    pub fn ty(&self) -> DataType {
        self.ty
    }

    /// The element bit patterns.
    pub fn as_slice(&self) -> &[u64] {
        &self.vals[..self.len]
    }

    /// Number of elements (1, 4 or 8).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false: an immediate has at least one element.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Element `i`, if it exists.
    pub fn get(&self, i: usize) -> Option<u64> {
        self.as_slice().get(i).copied()
    }
}

/// The type of the elements an immediate of type `t` supplies: V -> W (sign extension),
/// UV -> UW, VF -> F; scalar types stand for themselves (type.v, type.uv, type.vf).
pub fn element_type(t: DataType) -> DataType {
    match t {
        DataType::V => DataType::W,
        DataType::UV => DataType::UW,
        DataType::VF => DataType::F,
        other => other,
    }
}

/// Width of the immediate field holding a `t` immediate on `p`: 64 for a 64-bit type where the
/// platform has 64-bit immediates (feature.imm-64bit), 32 otherwise. `None` if `t` has no
/// immediate form on `p`.
pub fn imm_field_bits(p: Platform, t: DataType) -> Option<u32> {
    t.imm_enc(p)?;
    if t.bits() == 64 {
        feature::IMM_64BIT.on(p).then_some(64)
    } else {
        Some(32)
    }
}

fn field_bits(p: Platform, t: DataType) -> Result<u32, ValueError> {
    imm_field_bits(p, t).ok_or(ValueError::NoImmediate { ty: t, platform: p })
}

/// Element `i` (0..8) of a packed V immediate: bits 4i+3:4i, a two's complement nibble.
/// Returns `None` for `i >= 8`.
pub fn v_element(raw: u32, i: usize) -> Option<i16> {
    let nib = nibble(raw, i)?;
    // Shift the nibble to the top of a byte, then arithmetic-shift it back: sign extension.
    Some(i16::from(((nib << 4) as i8) >> 4))
}

/// Element `i` (0..8) of a packed UV immediate: bits 4i+3:4i, zero-extended.
/// Returns `None` for `i >= 8`.
pub fn uv_element(raw: u32, i: usize) -> Option<u16> {
    nibble(raw, i).map(u16::from)
}

fn nibble(raw: u32, i: usize) -> Option<u8> {
    (i < 8).then(|| ((raw >> (4 * i)) & 0xf) as u8)
}

/// The F bit pattern of a restricted 8-bit float (type.vf, seed000 §2.2.5): sign bit 7 ->
/// bit 31; the 3-bit exponent (bits 6:4, bias 3) becomes the 8-bit exponent by copying its bit
/// 2 to bit 7, the inverse of its bit 2 to bits 6:2 and its bits 1:0 unchanged (= +124); the
/// 4-bit fraction (bits 3:0, implied leading 1) becomes bits 22:19. 0x00 and 0x80 are +0 and -0.
pub fn vf_to_f32_bits(code: u8) -> u32 {
    let sign = u32::from(code >> 7) << 31;
    if code & 0x7f == 0 {
        return sign;
    }
    let e3 = u32::from((code >> 4) & 0x7);
    let top = e3 >> 2;
    let e8 = (top << 7) | (((top ^ 1) * 0x1f) << 2) | (e3 & 0x3);
    let frac = u32::from(code & 0xf) << 19;
    sign | (e8 << 23) | frac
}

/// The restricted 8-bit float code of an F bit pattern, if the value is exactly representable
/// (±0, or ±(1 + f/16) * 2^(e-3) with e in 0..8, f in 0..16, except e = f = 0, which is the
/// zero code).
pub fn f32_bits_to_vf(bits: u32) -> Option<u8> {
    let sign = ((bits >> 31) as u8) << 7;
    let mag = bits & 0x7fff_ffff;
    if mag == 0 {
        return Some(sign);
    }
    let e8 = mag >> 23;
    let frac = mag & 0x7f_ffff;
    if frac & 0x7_ffff != 0 || !(124..=131).contains(&e8) {
        return None;
    }
    let e3 = (e8 - 124) as u8;
    let f4 = (frac >> 19) as u8;
    if e3 == 0 && f4 == 0 {
        return None;
    }
    Some(sign | (e3 << 4) | f4)
}

/// Check the word immediate rule (seed000 §3.3.4): a W or UW immediate must carry the same
/// 16-bit value in both halves of the 32-bit field. Other types always pass.
pub fn check_word_replication(t: DataType, raw: u32) -> Result<(), ValueError> {
    if matches!(t, DataType::W | DataType::UW) && raw >> 16 != raw & 0xffff {
        return Err(ValueError::NotReplicated { ty: t, raw });
    }
    Ok(())
}

/// Decode the raw immediate field `raw` of type `t` on `p` into its elements.
///
/// Errors: `t` has no immediate form on `p` (B, UB, 64-bit types before Gen8, types the
/// platform lacks); `raw` is wider than the immediate field; a W/UW immediate is not replicated.
/// A 16-bit immediate (W, UW, HF) yields its low word.
pub fn decode_imm(p: Platform, t: DataType, raw: u64) -> Result<ImmElements, ValueError> {
    let fb = field_bits(p, t)?;
    if fb < 64 && raw >> fb != 0 {
        return Err(ValueError::ImmediateTooWide {
            ty: t,
            platform: p,
            raw,
            field_bits: fb,
        });
    }
    let raw32 = raw as u32;
    let mut vals = [0u64; 8];
    let len = match t {
        DataType::V => {
            for (i, v) in vals.iter_mut().enumerate() {
                *v = u64::from(v_element(raw32, i).unwrap_or(0) as u16);
            }
            8
        }
        DataType::UV => {
            for (i, v) in vals.iter_mut().enumerate() {
                *v = u64::from(uv_element(raw32, i).unwrap_or(0));
            }
            8
        }
        DataType::VF => {
            for (i, v) in vals.iter_mut().take(4).enumerate() {
                *v = u64::from(vf_to_f32_bits((raw32 >> (8 * i)) as u8));
            }
            4
        }
        _ => {
            check_word_replication(t, raw32)?;
            vals[0] = match t.bits() {
                16 => raw & 0xffff,
                32 => raw & 0xffff_ffff,
                _ => raw,
            };
            1
        }
    };
    Ok(ImmElements {
        ty: element_type(t),
        len,
        vals,
    })
}

/// Encode a scalar immediate of type `t` on `p` from the element's bits `value` (low
/// `t.bits()` bits; a sign-extended negative value of a signed integer type is accepted).
/// 16-bit types (W, UW, HF) are replicated into both halves of the 32-bit field.
pub fn encode_imm(p: Platform, t: DataType, value: u64) -> Result<u64, ValueError> {
    field_bits(p, t)?;
    if t.is_vector() {
        return Err(ValueError::BadVector {
            ty: t,
            reason: "a packed vector immediate is built with encode_vector",
        });
    }
    let bits = t.bits();
    let v = if bits < 64 {
        let high = value >> bits;
        let sign_extended = t.is_int()
            && t.is_signed()
            && high == (u64::MAX >> bits)
            && (value >> (bits - 1)) & 1 == 1;
        if high != 0 && !sign_extended {
            return Err(ValueError::ValueTooWide { ty: t, value });
        }
        value & ((1u64 << bits) - 1)
    } else {
        value
    };
    Ok(if bits == 16 { v | (v << 16) } else { v })
}

/// Encode a packed vector immediate of type `t` (V, UV or VF) from its element values: eight
/// W values in -8..=7 (V), eight values in 0..=15 (UV), or four F bit patterns exactly
/// representable as restricted floats (VF).
pub fn encode_vector(t: DataType, elems: &[i64]) -> Result<u32, ValueError> {
    let bad = |reason| Err(ValueError::BadVector { ty: t, reason });
    match t {
        DataType::V | DataType::UV => {
            if elems.len() != 8 {
                return bad("a V or UV immediate has exactly 8 elements");
            }
            let (lo, hi) = if t == DataType::V { (-8, 7) } else { (0, 15) };
            let mut raw = 0u32;
            for (i, e) in elems.iter().enumerate() {
                if *e < lo || *e > hi {
                    return bad("element out of the 4-bit range");
                }
                raw |= ((*e as u32) & 0xf) << (4 * i);
            }
            Ok(raw)
        }
        DataType::VF => {
            if elems.len() != 4 {
                return bad("a VF immediate has exactly 4 elements");
            }
            let mut raw = 0u32;
            for (i, e) in elems.iter().enumerate() {
                let Ok(bits) = u32::try_from(*e) else {
                    return bad("element is not an F bit pattern");
                };
                let Some(code) = f32_bits_to_vf(bits) else {
                    return bad("element is not representable as a restricted 8-bit float");
                };
                raw |= u32::from(code) << (8 * i);
            }
            Ok(raw)
        }
        _ => bad("not a packed vector type"),
    }
}
