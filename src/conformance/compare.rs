//! Comparing a simulator's response with a vector's expected state: undefined bits are
//! ignored, alternatives (any NaN, math tolerance, fused-overflow infinity) accepted, and the
//! first difference located (register, byte, channel) and shown as hex and typed values.

use super::protocol::Response;
use super::regs::{parse_hex, parse_hex_defined};
use super::view::{lookup, AltView, ResponseView, VectorView};
use crate::spec::DataType;
use crate::vector::classes::{float_class, NAN, NEG_INF, POS_INF};
use crate::vector::{AltKind, Vector};
use serde::Serialize;

/// The first difference of a failing vector.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mismatch {
    pub reg: String,
    pub byte: usize,
    /// Destination channel (GRF destination) or flag bit (flag registers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel: Option<u32>,
    /// The element's type as displayed.
    #[serde(rename = "type")]
    pub ty: String,
    pub expected: String,
    pub actual: String,
    pub expected_value: String,
    pub actual_value: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// How one vector fared.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Outcome {
    Pass,
    Fail(Mismatch),
    /// The simulator answered with an error.
    SimError {
        message: String,
    },
    /// The response has no `final`, or lacks registers the request reported.
    Incomplete {
        message: String,
    },
    /// The simulator did not answer in time (it was restarted).
    Timeout {
        ms: u64,
    },
    /// The simulator exited (it was restarted).
    Crash {
        message: String,
    },
    /// The answer was not a response to this vector (the simulator was restarted).
    Garbage {
        message: String,
    },
    /// The vector line could not be read.
    BadVector {
        message: String,
    },
}

impl Outcome {
    pub fn status(&self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail(_) => "fail",
            Outcome::SimError { .. } => "sim_error",
            Outcome::Incomplete { .. } => "incomplete",
            Outcome::Timeout { .. } => "timeout",
            Outcome::Crash { .. } => "crash",
            Outcome::Garbage { .. } => "garbage",
            Outcome::BadVector { .. } => "bad_vector",
        }
    }
}

fn type_of(name: &str) -> Option<DataType> {
    DataType::from_name(name)
}

fn elem_bits(bytes: &[Option<u8>], off: usize, size: usize) -> Option<u64> {
    let mut v = 0u64;
    for k in 0..size {
        v |= u64::from((*bytes.get(off + k)?)?) << (8 * k);
    }
    Some(v)
}

pub use crate::vector::text::{float_value, typed};

/// An ordered integer of float bits (monotonic in the value; ±0 adjacent).
fn ordered(t: DataType, bits: u64) -> i128 {
    let w = t.bits();
    let sign = 1u64 << (w - 1);
    let mag = i128::from(bits & (sign - 1));
    if bits & sign != 0 {
        -mag
    } else {
        mag
    }
}

fn accepts(a: &AltView, t: DataType, exp: u64, act: u64) -> bool {
    let ac = float_class(t, act);
    match a.kind {
        AltKind::AnyNan => ac == NAN,
        AltKind::OverflowInf => {
            let neg = exp >> (t.bits() - 1) & 1 == 1;
            ac == if neg { NEG_INF } else { POS_INF }
        }
        AltKind::Ulps => {
            let ec = float_class(t, exp);
            if ec == NAN || ac == NAN {
                return ec == ac;
            }
            if ec == POS_INF || ec == NEG_INF || ac == POS_INF || ac == NEG_INF {
                return exp == act;
            }
            let ulps = a.ulps.unwrap_or(0.0);
            let d = (ordered(t, exp) - ordered(t, act)).unsigned_abs();
            if (d as f64) <= ulps {
                return true;
            }
            a.abs
                .is_some_and(|e| (float_value(t, exp) - float_value(t, act)).abs() <= e)
        }
    }
}

/// Compare a response with the vector's expected registers.
pub fn compare(v: &Vector, resp: &Response) -> Outcome {
    compare_view(
        &VectorView::from_vector(v),
        &ResponseView::from_response(resp),
    )
}

#[inline]
fn hex_pair(p: &[u8]) -> Option<u8> {
    #[inline]
    fn nib(c: u8) -> Option<u8> {
        match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            b'A'..=b'F' => Some(c - b'A' + 10),
            _ => None,
        }
    }
    Some(nib(p[0])? << 4 | nib(p[1])?)
}

/// Whether every register of the response equals the expected one on its defined bits, with
/// every hex text well formed (the common case, decided without allocating and without the
/// vector's `alternatives` and `dst`). When it holds, [`compare_view`] gives `Pass`.
pub fn plainly_equal(v: &VectorView, resp: &ResponseView) -> bool {
    v.expected.iter().all(|(reg, exp_hex)| {
        let Some(act_hex) = lookup(&resp.fin, reg) else {
            return false;
        };
        let (e, a) = (exp_hex.as_bytes(), act_hex.as_bytes());
        if e.len() != a.len() || e.len() % 2 != 0 {
            return false;
        }
        let m = lookup(&v.undefined, reg).map_or(&b""[..], str::as_bytes);
        if m.is_empty() && e == a {
            // The same text, all defined: equal when it is hex.
            return e.iter().fold(true, |ok, c| ok & c.is_ascii_hexdigit());
        }
        if m.len() % 2 != 0 || !m.chunks_exact(2).all(|p| hex_pair(p).is_some()) {
            return false;
        }
        e.chunks_exact(2)
            .zip(a.chunks_exact(2))
            .enumerate()
            .all(|(i, (ep, ap))| {
                let Some(eb) = hex_pair(ep) else {
                    return false;
                };
                let mb = m.get(2 * i..2 * i + 2).and_then(hex_pair).unwrap_or(0);
                match hex_pair(ap) {
                    Some(ab) => (ab ^ eb) & !mb == 0,
                    None => ap.eq_ignore_ascii_case(b"xx") && mb == 0xff,
                }
            })
    })
}

/// The verdict on a response that is decided before any value is compared, in this order: an
/// `error` response, a vector that expects nothing (it would check nothing), a response
/// without `final`, a `final` without every expected register. None: the values decide. None of these
/// can pass, whatever the vector expects.
pub fn verdict_before_values(v: &VectorView, resp: &ResponseView) -> Option<Outcome> {
    if let Some(e) = &resp.error {
        return Some(Outcome::SimError {
            message: e.to_string(),
        });
    }
    if v.expected.is_empty() {
        return Some(Outcome::BadVector {
            message: "the vector expects no register, so it would check nothing (format 1 \
                      vectors listed only the registers that change: regenerate it)"
                .into(),
        });
    }
    if !resp.has_final {
        return Some(Outcome::Incomplete {
            message: "the response has neither `final` nor `error`".into(),
        });
    }
    let missing: Vec<&str> = v
        .expected
        .iter()
        .map(|(reg, _)| reg.as_ref())
        .filter(|reg| lookup(&resp.fin, reg).is_none())
        .collect();
    if !missing.is_empty() {
        return Some(Outcome::Incomplete {
            message: format!(
                "`final` lacks {} of the reported registers: {} (a simulator reports every \
                 register of the request's `report`)",
                missing.len(),
                missing.join(", ")
            ),
        });
    }
    None
}

/// [`compare`] on views (what `euref check` runs per vector).
pub fn compare_view(v: &VectorView, resp: &ResponseView) -> Outcome {
    if let Some(o) = verdict_before_values(v, resp) {
        return o;
    }
    if plainly_equal(v, resp) {
        return Outcome::Pass;
    }
    for (reg, exp_hex) in &v.expected {
        let Ok(exp) = parse_hex_defined(exp_hex) else {
            return Outcome::BadVector {
                message: format!("expected.{reg} is not hex"),
            };
        };
        let mask = match lookup(&v.undefined, reg).map(parse_hex_defined) {
            Some(Ok(m)) => m,
            Some(Err(e)) => {
                return Outcome::BadVector {
                    message: format!("undefined.{reg}: {e}"),
                }
            }
            None => vec![0; exp.len()],
        };
        let Some(act_hex) = lookup(&resp.fin, reg) else {
            // (Decided by `verdict_before_values`: every expected register is in `final`.)
            continue;
        };
        let act = match parse_hex(act_hex) {
            Ok(a) if a.len() == exp.len() => a,
            Ok(a) => {
                return Outcome::Garbage {
                    message: format!(
                        "final.{reg} has {} bytes, the register has {}",
                        a.len(),
                        exp.len()
                    ),
                }
            }
            Err(e) => {
                return Outcome::Garbage {
                    message: format!("final.{reg}: {e}"),
                }
            }
        };
        let exp_o: Vec<Option<u8>> = exp.iter().map(|b| Some(*b)).collect();
        let mut i = 0;
        while i < exp.len() {
            let m = mask.get(i).copied().unwrap_or(0);
            let differs = match act[i] {
                None => m != 0xff,
                Some(a) => (a ^ exp[i]) & !m != 0,
            };
            if !differs {
                i += 1;
                continue;
            }
            // An alternative covering this byte?
            if let Some((alt, t)) = v.alternatives.iter().find_map(|a| {
                let t = type_of(&a.ty)?;
                let (o, s) = (a.offset as usize, t.bytes() as usize);
                (a.reg == *reg && o <= i && i < o + s).then_some((a, t))
            }) {
                let (o, s) = (alt.offset as usize, t.bytes() as usize);
                if let (Some(e), Some(a)) = (elem_bits(&exp_o, o, s), elem_bits(&act, o, s)) {
                    if accepts(alt, t, e, a) {
                        i = o + s;
                        continue;
                    }
                }
            }
            return Outcome::Fail(locate(v, reg, i, &exp_o, &act, m));
        }
    }
    Outcome::Pass
}

fn hexs(b: &[Option<u8>], off: usize, size: usize) -> String {
    // Most significant byte first, as a number.
    let mut s = String::from("0x");
    for k in (0..size).rev() {
        match b.get(off + k).copied().flatten() {
            Some(x) => s.push_str(&format!("{x:02x}")),
            None => s.push_str("xx"),
        }
    }
    s
}

fn locate(
    v: &VectorView,
    reg: &str,
    i: usize,
    exp: &[Option<u8>],
    act: &[Option<u8>],
    m: u8,
) -> Mismatch {
    let mut mm = Mismatch {
        reg: reg.to_string(),
        byte: i,
        channel: None,
        ty: "ub".into(),
        expected: hexs(exp, i, 1),
        actual: hexs(act, i, 1),
        expected_value: String::new(),
        actual_value: String::new(),
        note: String::new(),
    };
    if reg.starts_with('f') && !reg.starts_with("f0.") && reg.len() == 2 {
        // A flag register: one bit per channel.
        let d = match act[i] {
            Some(a) => (a ^ exp[i].unwrap_or(0)) & !m,
            None => !m,
        };
        let bit = i as u32 * 8 + d.trailing_zeros();
        mm.channel = Some(bit % 16);
        mm.ty = "flag".into();
        mm.note = format!("{}.{} bit {}", reg, bit / 16, bit % 16);
        let bitv = |b: &[Option<u8>]| {
            b.get(i)
                .copied()
                .flatten()
                .map_or("?".to_string(), |x| ((x >> (bit % 8)) & 1).to_string())
        };
        mm.expected_value = bitv(exp);
        mm.actual_value = bitv(act);
        return mm;
    }
    let dst = v.dst.as_ref().and_then(|d| {
        let t = type_of(&d.ty)?;
        let rn: usize = d.reg.strip_prefix('r')?.parse().ok()?;
        let here: usize = reg.strip_prefix('r')?.parse().ok()?;
        let abs = here * 32 + i;
        let base = rn * 32 + d.offset as usize;
        let s = t.bytes() as usize;
        let step = s * d.stride.max(1) as usize;
        if abs < base || (abs - base) % step >= s {
            return None;
        }
        let ch = (abs - base) / step;
        Some((t, ch as u32, base + ch * step - here * 32, s))
    });
    let (t, off, s) = match dst {
        Some((t, ch, off, s)) => {
            mm.channel = Some(ch);
            (t, off, s)
        }
        None => {
            mm.note =
                "outside the destination region (a byte the instruction must not change)".into();
            (DataType::UD, i & !3, 4)
        }
    };
    mm.ty = t.name().to_ascii_lowercase();
    mm.expected = hexs(exp, off, s);
    mm.actual = hexs(act, off, s);
    mm.expected_value = elem_bits(exp, off, s).map_or("undefined".into(), |b| typed(t, b));
    mm.actual_value = elem_bits(act, off, s).map_or("undefined".into(), |b| typed(t, b));
    mm
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    fn view<'a>(exp: &'a str, undef: Option<&'a str>) -> VectorView<'a> {
        let mut v = VectorView::placeholder("t".into());
        v.expected = vec![(Cow::Borrowed("r1"), Cow::Borrowed(exp))];
        v.undefined = undef
            .map(|m| vec![(Cow::Borrowed("r1"), Cow::Borrowed(m))])
            .unwrap_or_default();
        v
    }

    #[test]
    fn equal_texts_pass_when_hex_as_bytewise() {
        // The same text with no undefined mask: equal exactly when every digit is hex, as
        // the byte-by-byte comparison (the same text with an all-zero mask) decides.
        let mut k = 1u64;
        for _ in 0..5_000 {
            let text: String = (0..2 * (k % 9) as usize)
                .map(|_| {
                    k = k
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    b"0123456789abcdefABCDEFxg-"[(k >> 33) as usize % 25] as char
                })
                .collect();
            let r = ResponseView {
                id: Cow::Borrowed("t"),
                fin: vec![(Cow::Borrowed("r1"), Cow::Borrowed(text.as_str()))],
                has_final: true,
                error: None,
            };
            let zeros = "0".repeat(text.len());
            let fast = plainly_equal(&view(&text, None), &r);
            assert_eq!(fast, text.bytes().all(|c| c.is_ascii_hexdigit()), "{text}");
            assert_eq!(
                fast,
                plainly_equal(&view(&text, Some(&zeros)), &r),
                "{text}"
            );
        }
    }
}
