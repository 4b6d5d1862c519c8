//! Comparing a simulator's response with a vector's expected state: undefined bits are
//! ignored, alternatives (any NaN, math tolerance, fused-overflow infinity) accepted, and every
//! differing element located (register, byte, destination channel or flag bit) and shown as hex
//! and typed values. Registers the simulator says it does not model are not compared, and a
//! response that says it ignored a feature never passes.

use super::protocol::Response;
use super::regs::{parse_hex, parse_hex_defined};
use super::view::{lookup, AltView, ResponseView, VectorView};
use crate::spec::DataType;
use crate::vector::classes::{float_class, NAN, NEG_INF, POS_INF};
use crate::vector::{AltKind, Vector};
use serde::Serialize;

/// Differences kept per vector at most (the rest are counted in [`Differences::more`]).
pub const MAX_DIFFERENCES: usize = 256;

/// Bytes of the simulator's response kept with a non-passing vector at most.
pub const MAX_RESPONSE: usize = 4096;

/// One differing element: a destination channel (typed), one flag bit, or a dword of any
/// other register (as `ud`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Difference {
    pub reg: String,
    /// The first byte of the element in the register (a flag bit: its byte).
    pub byte: usize,
    /// Destination channel (GRF destination) or the channel of a flag bit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel: Option<u32>,
    /// The element's type as displayed (`flag` for a flag bit).
    #[serde(rename = "type")]
    pub ty: String,
    /// Hex, most significant byte first (a flag bit: its byte).
    pub expected: String,
    pub actual: String,
    /// Typed values (a flag bit: `0` or `1`).
    pub expected_value: String,
    pub actual_value: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// What a response got wrong or left out, and what the simulator said of itself.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Differences {
    /// Every differing element of the compared registers, in register then byte order (at
    /// most [`MAX_DIFFERENCES`]).
    pub differences: Vec<Difference>,
    /// Differences not kept.
    #[serde(skip_serializing_if = "is_zero")]
    pub more: usize,
    /// The vector's registers the simulator does not model (`unmodelled`): not compared.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unmodelled: Vec<String>,
    /// The features the simulator ignored (`ignored`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ignored: Vec<String>,
    /// The simulator's response line (at most [`MAX_RESPONSE`] bytes).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub response: String,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Differences {
    fn push(&mut self, d: Difference) {
        if self.differences.len() < MAX_DIFFERENCES {
            self.differences.push(d);
        } else {
            self.more += 1;
        }
    }

    /// The number of differing elements.
    pub fn count(&self) -> usize {
        self.differences.len() + self.more
    }
}

/// How one vector fared.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Outcome {
    Pass,
    /// A compared register differs.
    Fail(Differences),
    /// Every compared register matches, but the vector expects registers the simulator does
    /// not model: not a failure, not a pass.
    Unmodelled(Differences),
    /// The simulator ignored a feature of the request (its registers may match or not): not
    /// a pass.
    Ignored(Differences),
    /// The simulator answered with an error.
    SimError {
        message: String,
        #[serde(skip_serializing_if = "String::is_empty")]
        response: String,
    },
    /// The response has no `final`, or lacks registers the request reported.
    Incomplete {
        message: String,
        #[serde(skip_serializing_if = "String::is_empty")]
        response: String,
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
        #[serde(skip_serializing_if = "String::is_empty")]
        response: String,
    },
    /// The vector line could not be read.
    BadVector {
        message: String,
    },
}

/// The statuses of vectors that neither passed nor failed: not everything they expect was
/// checked ([`Outcome::Unmodelled`], [`Outcome::Ignored`]).
pub const UNCHECKED_STATUSES: [&str; 2] = ["unmodelled", "ignored"];

/// `text` cut to at most `max` bytes (on a character boundary), with a note of its length.
pub fn truncated(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes in all)", &text[..end], text.len())
}

impl Outcome {
    pub fn status(&self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail(_) => "fail",
            Outcome::Unmodelled(_) => "unmodelled",
            Outcome::Ignored(_) => "ignored",
            Outcome::SimError { .. } => "sim_error",
            Outcome::Incomplete { .. } => "incomplete",
            Outcome::Timeout { .. } => "timeout",
            Outcome::Crash { .. } => "crash",
            Outcome::Garbage { .. } => "garbage",
            Outcome::BadVector { .. } => "bad_vector",
        }
    }

    /// Keep the simulator's response line (truncated) with an outcome that came from it.
    pub fn with_response(mut self, line: &[u8]) -> Outcome {
        let slot = match &mut self {
            Outcome::Fail(d) | Outcome::Unmodelled(d) | Outcome::Ignored(d) => &mut d.response,
            Outcome::SimError { response, .. }
            | Outcome::Incomplete { response, .. }
            | Outcome::Garbage { response, .. } => response,
            _ => return self,
        };
        let text = String::from_utf8_lossy(line);
        *slot = truncated(text.trim_end(), MAX_RESPONSE);
        self
    }

    /// The differences of a compared response (fail, unmodelled, ignored).
    pub fn differences(&self) -> Option<&Differences> {
        match self {
            Outcome::Fail(d) | Outcome::Unmodelled(d) | Outcome::Ignored(d) => Some(d),
            _ => None,
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
        AltKind::Value => a.bits == Some(act),
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
/// without `final`, a `final` without every expected register (those the simulator says it
/// does not model excepted). None: the values decide. None of these can pass, whatever the
/// vector expects.
pub fn verdict_before_values(v: &VectorView, resp: &ResponseView) -> Option<Outcome> {
    if let Some(e) = &resp.error {
        return Some(Outcome::SimError {
            message: e.to_string(),
            response: String::new(),
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
            message: "the response has neither `final` nor `error` (a simulator answers \
                      {\"id\":..,\"final\":{..}} with every register of the request's \
                      `report`, or {\"id\":..,\"error\":\"..\"}: conformance/PROTOCOL.md)"
                .into(),
            response: String::new(),
        });
    }
    let missing: Vec<&str> = v
        .expected
        .iter()
        .map(|(reg, _)| reg.as_ref())
        .filter(|reg| lookup(&resp.fin, reg).is_none() && !unmodelled(resp, reg))
        .collect();
    if !missing.is_empty() {
        return Some(Outcome::Incomplete {
            message: format!(
                "`final` lacks {} of the {} reported registers: {} (report every register of \
                 the request's `report`, or name those the simulator does not model in \
                 `unmodelled`: conformance/PROTOCOL.md)",
                missing.len(),
                v.expected.len(),
                missing.join(", ")
            ),
            response: String::new(),
        });
    }
    None
}

/// Whether the simulator says it does not model register `reg`.
fn unmodelled(resp: &ResponseView, reg: &str) -> bool {
    resp.unmodelled.iter().any(|u| u == reg)
}

/// [`compare`] on views (what `euref check` runs per vector).
pub fn compare_view(v: &VectorView, resp: &ResponseView) -> Outcome {
    if let Some(o) = verdict_before_values(v, resp) {
        return o;
    }
    if resp.is_plain() && plainly_equal(v, resp) {
        return Outcome::Pass;
    }
    let mut d = Differences {
        ignored: resp.ignored.iter().map(|s| s.to_string()).collect(),
        ..Differences::default()
    };
    for (reg, exp_hex) in &v.expected {
        if unmodelled(resp, reg) {
            if !d.unmodelled.iter().any(|u| u == reg) {
                d.unmodelled.push(reg.to_string());
            }
            continue;
        }
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
                    response: String::new(),
                }
            }
            Err(e) => {
                return Outcome::Garbage {
                    message: format!("final.{reg}: {e}"),
                    response: String::new(),
                }
            }
        };
        differences_in(v, reg, &exp, &mask, &act, &mut d);
    }
    if !d.ignored.is_empty() {
        Outcome::Ignored(d)
    } else if d.count() > 0 {
        Outcome::Fail(d)
    } else if !d.unmodelled.is_empty() {
        Outcome::Unmodelled(d)
    } else {
        Outcome::Pass
    }
}

/// Append to `d` every element of register `reg` in which `act` differs from `exp` on the
/// bits `mask` leaves defined, unless an alternative of the vector accepts it.
fn differences_in(
    v: &VectorView,
    reg: &str,
    exp: &[u8],
    mask: &[u8],
    act: &[Option<u8>],
    d: &mut Differences,
) {
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
            if let (Some(e), Some(a)) = (elem_bits(&exp_o, o, s), elem_bits(act, o, s)) {
                if accepts(alt, t, e, a) {
                    i = o + s;
                    continue;
                }
            }
        }
        if is_flag(reg) {
            flag_bits(reg, i, &exp_o, act, m, d);
            i += 1;
        } else {
            let (diff, end) = element(v, reg, i, &exp_o, act);
            d.push(diff);
            i = end.max(i + 1);
        }
    }
}

/// A flag register (`f0`, `f1`): one bit per channel.
fn is_flag(reg: &str) -> bool {
    let b = reg.as_bytes();
    b.len() == 2 && b[0] == b'f' && b[1].is_ascii_digit()
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

/// The differing bits of flag register byte `i` (undefined bits `m` left out), one
/// difference each: subregister `fN.(bit / 16)`, channel `bit % 16`.
fn flag_bits(
    reg: &str,
    i: usize,
    exp: &[Option<u8>],
    act: &[Option<u8>],
    m: u8,
    d: &mut Differences,
) {
    let e = exp[i].unwrap_or(0);
    let bits = match act[i] {
        Some(a) => (a ^ e) & !m,
        None => !m,
    };
    for k in (0..8).filter(|k| bits >> k & 1 == 1) {
        let bit = i as u32 * 8 + k;
        let bitv = |b: &[Option<u8>]| {
            b.get(i)
                .copied()
                .flatten()
                .map_or("?".to_string(), |x| ((x >> k) & 1).to_string())
        };
        d.push(Difference {
            reg: reg.to_string(),
            byte: i,
            channel: Some(bit % 16),
            ty: "flag".into(),
            expected: hexs(exp, i, 1),
            actual: hexs(act, i, 1),
            expected_value: bitv(exp),
            actual_value: bitv(act),
            note: format!("{}.{} bit {}", reg, bit / 16, bit % 16),
        });
    }
}

/// The execution size of an instruction in IGA text: `N` of its `(N|Mk)`.
fn exec_size(insn: &str) -> Option<usize> {
    insn.match_indices('(').find_map(|(at, _)| {
        let rest = &insn[at + 1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        (digits > 0 && rest[digits..].starts_with("|M"))
            .then(|| rest[..digits].parse().ok())
            .flatten()
    })
}

/// The element of register `reg` that holds differing byte `i`: a channel of the destination
/// region (its type; a channel below the execution size), or else the dword around the byte
/// (`ud`); and the byte after it.
fn element(
    v: &VectorView,
    reg: &str,
    i: usize,
    exp: &[Option<u8>],
    act: &[Option<u8>],
) -> (Difference, usize) {
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
        if exec_size(&v.insn).is_some_and(|n| ch >= n) {
            return None;
        }
        Some((t, ch as u32, base + ch * step - here * 32, s))
    });
    let grf = super::regs::grf_number(reg).is_some();
    let (t, channel, off, s, note) = match dst {
        Some((t, ch, off, s)) => (t, Some(ch), off, s, String::new()),
        None if grf => (
            DataType::UD,
            None,
            i & !3,
            4,
            "outside the destination region (a byte the instruction must not change)".into(),
        ),
        None => (DataType::UD, None, i & !3, 4, String::new()),
    };
    let diff = Difference {
        reg: reg.to_string(),
        byte: off,
        channel,
        ty: t.name().to_ascii_lowercase(),
        expected: hexs(exp, off, s),
        actual: hexs(act, off, s),
        expected_value: elem_bits(exp, off, s).map_or("undefined".into(), |b| typed(t, b)),
        actual_value: elem_bits(act, off, s).map_or("undefined".into(), |b| typed(t, b)),
        note,
    };
    (diff, off + s)
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
                inexact: Vec::new(),
                error: None,
                unmodelled: Vec::new(),
                ignored: Vec::new(),
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

    /// A vector `add (8|M0) r10.0<1>:f ...` expecting r10 (1.0 in every channel), f0, f1
    /// (flags untouched), r12 (a source) and acc0.
    fn vector() -> Vector {
        let one = "0000803f".repeat(8);
        let src: String = (0u32..8)
            .map(|k| format!("{:08x}", k.swap_bytes()))
            .collect();
        let regs = [
            ("acc0", "11".repeat(32)),
            ("f0", "0f80ff00".to_string()),
            ("f1", "00000000".to_string()),
            ("r10", one),
            ("r12", src),
        ];
        let map = |r: &[(&str, String)]| {
            r.iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect::<std::collections::BTreeMap<_, _>>()
        };
        Vector {
            v: crate::vector::FORMAT_VERSION,
            id: "t-1".into(),
            gen: "skl".into(),
            op: "add".into(),
            insn: "add (8|M0) r10.0<1>:f r12.0<8;8,1>:f r12.0<8;8,1>:f".into(),
            bytes: String::new(),
            initial: map(&regs),
            expected: map(&regs),
            undefined: Default::default(),
            dst: Some(crate::vector::DstInfo {
                reg: "r10".into(),
                offset: 0,
                ty: "f".into(),
                stride: 1,
            }),
            alternatives: Vec::new(),
            rules: vec!["opcode.add".into()],
            classes: Vec::new(),
        }
    }

    fn response(v: &Vector, change: &[(&str, usize, &str)]) -> Response {
        let mut fin = v.expected.clone();
        for (reg, at, hex) in change {
            fin.get_mut(*reg)
                .unwrap()
                .replace_range(2 * at..2 * at + hex.len(), hex);
        }
        Response {
            fin,
            error: None,
            ..Response::error(&v.id, String::new())
        }
    }

    /// Issue 24: every differing element is reported, not only the first: destination
    /// channels typed, flag bits with their subregister and channel, and the dwords of a
    /// register outside the destination.
    #[test]
    fn every_differing_element_is_reported() {
        let v = vector();
        // r10 channels 1 and 5 become 2.0; f0 byte 0 0x0f -> 0x07 (f0.0 bit 3) and byte 2
        // 0xff -> 0xfd (f0.1 bit 1); r12 dword 2 changes.
        let r = response(
            &v,
            &[
                ("r10", 4, "00000040"),
                ("r10", 20, "00000040"),
                ("f0", 0, "07"),
                ("f0", 2, "fd"),
                ("r12", 8, "ffffffff"),
            ],
        );
        let Outcome::Fail(d) = compare(&v, &r) else {
            panic!("{:?}", compare(&v, &r));
        };
        type Seen<'a> = (&'a str, usize, Option<u32>, &'a str, &'a str, &'a str);
        let got: Vec<Seen> = d
            .differences
            .iter()
            .map(|x| {
                let (r, b, c) = (x.reg.as_str(), x.byte, x.channel);
                (
                    r,
                    b,
                    c,
                    x.ty.as_str(),
                    x.expected_value.as_str(),
                    x.actual_value.as_str(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("f0", 0, Some(3), "flag", "1", "0"),
                ("f0", 2, Some(1), "flag", "1", "0"),
                ("r10", 4, Some(1), "f", "1.0", "2.0"),
                ("r10", 20, Some(5), "f", "1.0", "2.0"),
                ("r12", 8, None, "ud", "2", "4294967295"),
            ]
        );
        assert_eq!(d.differences[1].note, "f0.1 bit 1");
        assert_eq!(d.differences[2].expected, "0x3f800000");
        assert!(d.differences[4].note.starts_with("outside the destination"));
        assert_eq!(d.more, 0);
    }

    /// Issue 24: registers named in `unmodelled` need not be in `final` and are not compared;
    /// a vector that matches elsewhere is `unmodelled`, one that differs elsewhere fails, and
    /// a register missing without being named is `incomplete`, with a message that says which
    /// and what to do.
    #[test]
    fn unmodelled_registers_are_neither_failed_nor_faked() {
        let v = vector();
        let mut r = response(&v, &[("acc0", 0, "22")]);
        r.unmodelled = vec!["acc0".into()];
        match compare(&v, &r) {
            Outcome::Unmodelled(d) => assert_eq!(
                (&d.unmodelled[..], d.count()),
                (&["acc0".to_string()][..], 0)
            ),
            o => panic!("{o:?}"),
        }
        r.fin.remove("acc0");
        assert_eq!(compare(&v, &r).status(), "unmodelled");
        let mut bad = response(&v, &[("r10", 0, "00000000")]);
        bad.unmodelled = vec!["acc0".into()];
        bad.fin.remove("acc0");
        match compare(&v, &bad) {
            Outcome::Fail(d) => assert_eq!((d.unmodelled.len(), d.count()), (1, 1)),
            o => panic!("{o:?}"),
        }
        r.unmodelled.clear();
        let Outcome::Incomplete { message, .. } = compare(&v, &r) else {
            panic!("{:?}", compare(&v, &r));
        };
        assert!(
            message.contains("lacks 1 of the 5 reported registers: acc0"),
            "{message}"
        );
        assert!(message.contains("`unmodelled`"), "{message}");
        // A register the vector does not expect, named unmodelled: a plain pass.
        let mut other = response(&v, &[]);
        other.unmodelled = vec!["acc9".into()];
        assert_eq!(compare(&v, &other), Outcome::Pass);
    }

    /// Issue 24: a response that says it ignored a feature never passes, whatever its
    /// registers hold; its differences are kept.
    #[test]
    fn ignored_features_never_pass() {
        let v = vector();
        let mut r = response(&v, &[]);
        r.ignored = vec!["predication".into()];
        match compare(&v, &r) {
            Outcome::Ignored(d) => assert_eq!(
                (&d.ignored[..], d.count()),
                (&["predication".to_string()][..], 0)
            ),
            o => panic!("{o:?}"),
        }
        let mut bad = response(&v, &[("r10", 0, "00000000")]);
        bad.ignored = vec!["cr0.denorm".into()];
        match compare(&v, &bad) {
            Outcome::Ignored(d) => assert_eq!(d.count(), 1),
            o => panic!("{o:?}"),
        }
    }

    #[test]
    fn exec_sizes_are_read_from_the_text() {
        assert_eq!(
            exec_size("(f0.0) add (16|M16) r1.0<1>:f r2.0<8;8,1>:f"),
            Some(16)
        );
        assert_eq!(
            exec_size("(~f1.1.any2h) mov (4|M0) r1.0<1>:f r2.0<8;4,2>:f"),
            Some(4)
        );
        assert_eq!(exec_size("nop"), None);
    }

    /// The response kept with an outcome is cut to [`MAX_RESPONSE`] bytes on a character
    /// boundary.
    #[test]
    fn responses_are_kept_truncated() {
        let long = format!("{{\"id\":\"é{}\"}}", "x".repeat(2 * MAX_RESPONSE));
        let o = Outcome::Garbage {
            message: "m".into(),
            response: String::new(),
        }
        .with_response(long.as_bytes());
        let Outcome::Garbage { response, .. } = o else {
            panic!()
        };
        assert!(response.starts_with("{\"id\":\"é") && response.len() < MAX_RESPONSE + 40);
        assert!(response.ends_with(&format!("({} bytes in all)", long.len())));
        assert_eq!(Outcome::Pass.with_response(b"x"), Outcome::Pass);
    }
}
