//! IGA's floating-point immediate literals (enc.iga-text.float-literals): reading a literal
//! (a double) into the bits of an F, DF or HF immediate, and writing those bits back as the
//! text IGA writes: `inf`, `qnan(0x..)` / `snan(0x..)`, the short decimal forms that read
//! back to the same bits, else hexadecimal bits.

use crate::fp::{convert, Hf, Round, F32, F64};
use crate::spec::encoding::values::IGA_TEXT_FLOAT_LITERALS as ROW;
use crate::spec::DataType;

/// A row value (every one is present in the row; 0 would only make literals less exact).
fn row(name: &str) -> u32 {
    ROW.value(name).unwrap_or(0) as u32
}

/// The payload bits a NaN literal of type `ty` may carry.
fn payload_bits(ty: DataType) -> u32 {
    row(match ty {
        DataType::HF => "hf_nan_payload_bits",
        DataType::DF => "df_nan_payload_bits",
        _ => "f_nan_payload_bits",
    })
}

const F64_EXP: u64 = 0x7FF0_0000_0000_0000;
const F64_QUIET: u64 = 1 << 51;
const F64_SIGN: u64 = 1 << 63;

/// The double of a NaN literal: `[-]qnan(payload)` / `[-]snan(payload)`. The payload must fit
/// below the quiet bit; an snan needs a nonzero one.
pub(crate) fn nan_literal(neg: bool, quiet: bool, payload: u64) -> Result<f64, String> {
    let max = payload_bits(DataType::DF);
    if payload >> max != 0 {
        return Err(format!(
            "NaN payload 0x{payload:X} does not fit in {max} bits (enc.iga-text.float-literals)"
        ));
    }
    if payload == 0 && !quiet {
        return Err("an snan needs a nonzero payload (with payload 0 it would be infinity): write e.g. snan(0x1), or qnan(0x0)".into());
    }
    let sign = if neg { F64_SIGN } else { 0 };
    let q = if quiet { F64_QUIET } else { 0 };
    Ok(f64::from_bits(sign | F64_EXP | q | payload))
}

/// The bits of the immediate of type `ty` (F, DF or HF; the 16 bits of an HF) that the
/// double `f` read from a literal gives: NaNs keep sign, quiet bit and payload (which must fit
/// the type); other values are rounded to nearest even (HF through F, as IGA does).
pub(crate) fn narrow(ty: DataType, f: f64) -> Result<u64, String> {
    let b = f.to_bits();
    if f.is_nan() {
        let payload = b & (F64_QUIET - 1);
        let n = payload_bits(ty);
        if payload >> n != 0 {
            return Err(format!(
                "NaN payload 0x{payload:X} does not fit in the {n} payload bits of type {} (enc.iga-text.float-literals)",
                ty.name()
            ));
        }
        let quiet = b & F64_QUIET != 0;
        let neg = b & F64_SIGN != 0;
        let (frac, exp_sign) = match ty {
            DataType::HF => (10, 15),
            DataType::DF => (52, 63),
            _ => (23, 31),
        };
        let exp = ((1u64 << (exp_sign - frac)) - 1) << frac;
        return Ok(u64::from(neg) << exp_sign | exp | u64::from(quiet) << (frac - 1) | payload);
    }
    Ok(match ty {
        DataType::DF => b,
        DataType::HF => {
            let f32 = convert::<F64, F32>(b, Round::Rtne).bits;
            convert::<F32, Hf>(f32, Round::Rtne).bits
        }
        _ => convert::<F64, F32>(b, Round::Rtne).bits,
    })
}

/// Append IGA's text of the immediate value `bits` of type `ty` (F, DF or HF; an HF's 16
/// bits), without its type.
pub(crate) fn write_iga(out: &mut String, ty: DataType, bits: u64) {
    let (frac, exp_sign) = match ty {
        DataType::HF => (10u32, 15u32),
        DataType::DF => (52, 63),
        _ => (23, 31),
    };
    let exp_mask = ((1u64 << (exp_sign - frac)) - 1) << frac;
    let mant = bits & ((1u64 << frac) - 1);
    if bits & exp_mask == exp_mask {
        if bits >> exp_sign & 1 != 0 {
            out.push('-');
        }
        if mant == 0 {
            out.push_str("inf");
        } else {
            let quiet = mant >> (frac - 1) != 0;
            out.push_str(if quiet { "qnan(" } else { "snan(" });
            push_hex(out, mant & ((1u64 << (frac - 1)) - 1));
            out.push(')');
        }
        return;
    }
    // The value as a double (exact: every F and HF value is a double) and the bits a text
    // must read back to: a double's, else (F, and HF through its F value) a float's.
    let (x, want, wide) = match ty {
        DataType::DF => (f64::from_bits(bits), bits, true),
        DataType::HF => {
            let f = convert::<Hf, F32>(bits, Round::Rtne).bits;
            (f64::from(f32::from_bits(f as u32)), f, false)
        }
        _ => (f64::from(f32::from_bits(bits as u32)), bits, false),
    };
    let reads_back = |s: &str| {
        s.parse::<f64>().is_ok_and(|y| {
            if wide {
                y.to_bits() == want
            } else {
                u64::from((y as f32).to_bits()) == want
            }
        })
    };
    let g = c_g(x, row("g_precision").max(1) as usize);
    if reads_back(&g) {
        out.push_str(&g);
        if !g.contains(['.', 'e', 'E']) {
            out.push_str(".0");
        }
        return;
    }
    let e = c_e(x, row("e_precision") as usize);
    if reads_back(&e) {
        out.push_str(&e);
        return;
    }
    push_hex(out, bits);
}

/// `0x` and the uppercase hexadecimal digits of `v` (no padding).
fn push_hex(out: &mut String, v: u64) {
    use std::fmt::Write;
    let _ = write!(out, "0x{v:X}");
}

/// The mantissa digits and the decimal exponent of `x` in scientific form with `prec`
/// digits after the point (correctly rounded, as C's printf).
fn sci(x: f64, prec: usize) -> (String, i32) {
    let s = format!("{x:.prec$e}");
    match s.split_once('e') {
        Some((m, e)) => (m.to_string(), e.parse().unwrap_or(0)),
        None => (s, 0),
    }
}

/// C's `%.{prec}e`: the exponent signed and at least two digits.
fn c_e(x: f64, prec: usize) -> String {
    let (m, e) = sci(x, prec);
    let sign = if e < 0 { '-' } else { '+' };
    format!("{m}e{sign}{:02}", e.unsigned_abs())
}

/// C's `%.{p}g` (C++'s default stream output at precision `p`): fixed notation when the
/// exponent X satisfies -4 <= X < p, else scientific; trailing zeros removed.
fn c_g(x: f64, p: usize) -> String {
    if x == 0.0 {
        return if x.is_sign_negative() { "-0" } else { "0" }.into();
    }
    let (m, e) = sci(x, p - 1);
    if e >= -4 && e < p as i32 {
        let digits = (p as i32 - 1 - e).max(0) as usize;
        trim_zeros(format!("{x:.digits$}"))
    } else {
        let sign = if e < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim_zeros(m), e.unsigned_abs())
    }
}

/// Drop the trailing zeros of a fraction, and its point if nothing follows it.
fn trim_zeros(mut s: String) -> String {
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(ty: DataType, bits: u64) -> String {
        let mut s = String::new();
        write_iga(&mut s, ty, bits);
        s
    }

    /// C's printf output for these values (glibc `%g` / `%e`, written out by hand).
    #[test]
    fn c_forms() {
        assert_eq!(c_g(1.0, 6), "1");
        assert_eq!(c_g(0.1, 6), "0.1");
        assert_eq!(c_g(1e-7, 6), "1e-07");
        assert_eq!(c_g(123456.0, 6), "123456");
        assert_eq!(c_g(1234567.0, 6), "1.23457e+06");
        assert_eq!(c_g(0.0001, 6), "0.0001");
        assert_eq!(c_g(-2.5, 6), "-2.5");
        assert_eq!(c_e(1.0 / 3.0, 6), "3.333333e-01");
        assert_eq!(c_e(1e100, 6), "1.000000e+100");
    }

    #[test]
    fn printed_forms() {
        assert_eq!(text(DataType::F, 1.0f32.to_bits().into()), "1.0");
        assert_eq!(text(DataType::F, (-0.0f32).to_bits().into()), "-0.0");
        assert_eq!(text(DataType::F, 1e10f32.to_bits().into()), "1e+10");
        assert_eq!(
            text(DataType::F, 16777216f32.to_bits().into()),
            "0x4B800000"
        );
        assert_eq!(
            text(DataType::F, 1234567f32.to_bits().into()),
            "1.234567e+06"
        );
        // 1/3 needs 9 digits: neither form reads back.
        assert_eq!(text(DataType::F, 0x3EAA_AAAB), "0x3EAAAAAB");
        assert_eq!(text(DataType::F, 0x7F80_0000), "inf");
        assert_eq!(text(DataType::F, 0xFFC0_0001), "-qnan(0x1)");
        assert_eq!(text(DataType::F, 0x7F80_0005), "snan(0x5)");
        assert_eq!(text(DataType::HF, 0x3E00), "1.5");
        assert_eq!(text(DataType::HF, 0x7E01), "qnan(0x1)");
        assert_eq!(text(DataType::DF, 0.5f64.to_bits()), "0.5");
    }
}
