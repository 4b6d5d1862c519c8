//! Thread state as JSON.
//!
//! A state is one JSON object. Keys:
//! - `"platform"` (optional): a platform name; loading checks it against the platform asked for.
//! - `"base"` (optional): what the registers not named hold: `"default"` (the documented
//!   default state, [`ThreadState::new`]), `"zero"` ([`ThreadState::zeroed`]) or `"undefined"`
//!   (every byte and bit undefined). Default `"default"`.
//! - `"preemptible"` (optional): `true` when the thread runs in a mid-thread pre-emptible
//!   context (the rules that depend on it apply, spec/properties.toml `preemptible`); default
//!   `false`.
//! - a register name: `r0`-`r127`, or an ARF register of the platform (`a0`, `acc0`-`acc9`,
//!   `f0`, `f1`, `sr0`, `cr0`, `n0`, `ip`, `tdr0`, `tm0`).
//!
//! A register's value is one of:
//! - a **hex byte string** in memory order (byte 0 first): `"00112233"`; spaces and `_` are
//!   ignored; `xx` (or `??`) is an undefined byte. Shorter than the register: the rest is kept.
//! - a **number** or a `"0x..."` string: an unsigned integer stored little-endian from byte 0
//!   over the first min(size, 8) bytes of the register (`"f0": "0xffff"`, `"ip": 32`).
//! - a **typed element list**: `{"type": "f", "values": [1.0, 2.5, null, "0x7fc00000"],
//!   "offset": 0}`: elements of the type from byte `offset` (default 0) on; a value is a number
//!   (integers for integer types, rounded to nearest for float types), a `"0x..."` bit pattern,
//!   `"nan"`, `"inf"`, `"-inf"`, or `null` (an undefined element). For an accumulator, integer
//!   values may use the accumulator's extended precision (33-bit word channels, 64-bit DWord
//!   channels: acc.precision.w, acc.precision.d) and are recorded as written with that type.
//! - **fields by name** (ARF registers with a field table): `{"fp_mode": 1, "rounding_mode": 2}`
//!   (`null` marks a field undefined).
//! - a **raw object**: `{"hex": "...", "undefined": "..."}` with `undefined` a hex byte string
//!   of the same length whose set bits mark undefined bits (ARF registers keep undefined flags per
//!   bit); an accumulator may add `"channels": [[word, "d", value], ...]`: the extended value
//!   and write type of channels (this is what [`save`] writes).
//!
//! - `"inexact"` (optional): an object of register name -> hex byte string of inexact flags
//!   (row math.inexact), in memory order from byte 0 like a value: for a GRF register each
//!   byte is `00` (exact) or `ff` (inexact); for an ARF register the set bits mark inexact
//!   bits. Applied after the values (setting a value clears its flags). A flag under an
//!   undefined byte or bit has no effect (undefined wins).
//!
//! Errors name the JSON path (`$.r2.values[3]: ...`). A key given twice in one object is an
//! error (at the second one, with its line and column), numbers are read exactly as written
//! (an integer beyond 64 bits is out of range, not rounded to a double), and text that is not
//! UTF-8 is an error at the first bad byte ([`super::json_doc`]).
//!
//! [`save`] writes `"base": "undefined"` and every register with a defined bit, so
//! `load(save(s)) == s`.

use super::acc::{class_info, class_of, words_per_channel, NO_CLASS};
use super::json_doc::{self, int_of, key_path, Int, Json, Obj};
use super::ThreadState;
use crate::fp::{self, Round};
use crate::quote::quote_str;
use crate::spec::{DataType, Platform};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;

/// A JSON state error: where (a JSON path such as `$.r2.values[3]`) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    pub path: String,
    pub msg: String,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.msg)
    }
}

impl std::error::Error for JsonError {}

fn err<T>(path: &str, msg: impl Into<String>) -> Result<T, JsonError> {
    Err(JsonError {
        path: path.to_string(),
        msg: msg.into(),
    })
}

/// Parse a JSON state for platform `p`.
pub fn load(p: Platform, text: &str) -> Result<ThreadState, JsonError> {
    from_doc(p, &json_doc::parse(text)?)
}

/// Parse a JSON state for platform `p` from bytes (which must be UTF-8: the first byte that
/// is not is reported with its line, column and offset).
pub fn load_bytes(p: Platform, bytes: &[u8]) -> Result<ThreadState, JsonError> {
    from_doc(p, &json_doc::parse_bytes(bytes)?)
}

/// Build a state from a parsed JSON value.
pub fn from_value(p: Platform, v: &Value) -> Result<ThreadState, JsonError> {
    from_doc(p, &Json::from_value(v))
}

/// Build a state from a JSON document.
fn from_doc(p: Platform, v: &Json<'_>) -> Result<ThreadState, JsonError> {
    let Json::Obj(obj) = v else {
        return err("$", "expected an object of registers");
    };
    if let Some(pv) = json_doc::get(obj, "platform") {
        let Some(s) = pv.as_str() else {
            return err("$.platform", "expected a platform name");
        };
        match Platform::parse(s) {
            Some(q) if q == p => {}
            Some(q) => {
                return err(
                    "$.platform",
                    format!(
                        "the state is for {} but {} was asked for",
                        q.name(),
                        p.name()
                    ),
                )
            }
            None => return err("$.platform", format!("unknown platform {}", quote_str(s))),
        }
    }
    let mut st = match json_doc::get(obj, "base") {
        None => ThreadState::new(p),
        Some(Json::Str(s)) if s == "default" => ThreadState::new(p),
        Some(Json::Str(s)) if s == "zero" => ThreadState::zeroed(p),
        Some(Json::Str(s)) if s == "undefined" => ThreadState::blank(p, true),
        Some(_) => return err("$.base", "expected \"default\", \"zero\" or \"undefined\""),
    };
    match json_doc::get(obj, "preemptible") {
        None => {}
        Some(Json::Bool(b)) => st.preemptible = *b,
        Some(_) => return err("$.preemptible", "expected true or false"),
    }
    for (k, val) in obj {
        if k == "platform" || k == "base" || k == "preemptible" || k == "inexact" {
            continue;
        }
        let path = key_path("$", k);
        if let Some(n) = grf_reg(k) {
            if n >= st.grf_size() / st.grf_reg_bytes() {
                return err(
                    &path,
                    format!(
                        "no GRF register r{n} (r0-r{})",
                        st.grf_size() / st.grf_reg_bytes() - 1
                    ),
                );
            }
            load_grf(&mut st, n, val, &path)?;
        } else if let Some(i) = st.arf_index(k) {
            load_arf(&mut st, i, val, &path)?;
        } else {
            let names: Vec<&str> = st.layout.regs.iter().map(|r| r.name.as_str()).collect();
            return err(
                &path,
                format!(
                    "unknown register {} on {}: expected r0-r127 or one of {}",
                    quote_str(k),
                    p.name(),
                    names.join(", ")
                ),
            );
        }
    }
    if let Some(v) = json_doc::get(obj, "inexact") {
        load_inexact(&mut st, v)?;
    }
    Ok(st)
}

/// The `"inexact"` object: register name -> hex byte string of flags.
fn load_inexact(st: &mut ThreadState, v: &Json<'_>) -> Result<(), JsonError> {
    let Json::Obj(regs) = v else {
        return err(
            "$.inexact",
            "expected an object of register name -> hex flag bytes",
        );
    };
    for (k, val) in regs {
        let path = key_path("$.inexact", k);
        let Some(h) = val.as_str() else {
            return err(&path, "expected a hex byte string (set bits are inexact)");
        };
        let bytes = parse_hex_bytes(h, &path)?;
        let Some(bytes) = bytes.into_iter().collect::<Option<Vec<u8>>>() else {
            return err(&path, "the inexact mask cannot contain xx");
        };
        let (base, size, grf) = if let Some(n) = grf_reg(k) {
            let rb = st.grf_reg_bytes();
            if n >= st.grf_size() / rb {
                return err(&path, format!("no GRF register r{n}"));
            }
            (n * rb, rb, true)
        } else if let Some(i) = st.arf_index(k) {
            let r = &st.layout.regs[i];
            (r.base, r.bytes, false)
        } else {
            return err(&path, format!("unknown register {}", quote_str(k)));
        };
        if bytes.len() > size {
            return err(
                &path,
                format!("{} bytes given, the register has {size}", bytes.len()),
            );
        }
        for (i, b) in bytes.iter().enumerate() {
            if grf {
                if *b != 0 && *b != 0xff {
                    return err(
                        &path,
                        format!("byte {i}: GRF flags are per byte: 00 (exact) or ff (inexact)"),
                    );
                }
                st.set_grf_inexact(base + i, 1, *b != 0);
            } else {
                let at = base + i;
                let sh = 8 * (at % 4);
                st.set_arf_inexact_bits(at / 4, 0xff << sh, false);
                st.set_arf_inexact_bits(at / 4, u32::from(*b) << sh, true);
            }
        }
    }
    Ok(())
}

fn grf_reg(k: &str) -> Option<usize> {
    let d = k.strip_prefix('r')?;
    if d.is_empty() || !d.bytes().all(|b| b.is_ascii_digit()) || d.len() > 3 {
        return None;
    }
    d.parse().ok()
}

/// A register's value as bytes with undefined flags (per bit).
struct Bytes {
    /// (byte offset, value, undefined bits)
    items: Vec<(usize, u8, u8)>,
}

fn parse_hex_bytes(s: &str, path: &str) -> Result<Vec<Option<u8>>, JsonError> {
    let clean: Vec<u8> = s
        .bytes()
        .filter(|b| !b.is_ascii_whitespace() && *b != b'_')
        .collect();
    if clean.len() % 2 != 0 {
        return err(path, "a hex byte string needs an even number of digits");
    }
    let mut out = Vec::with_capacity(clean.len() / 2);
    for (i, pair) in clean.chunks(2).enumerate() {
        let t = std::str::from_utf8(pair).unwrap_or("");
        if t.eq_ignore_ascii_case("xx") || t == "??" {
            out.push(None);
            continue;
        }
        match u8::from_str_radix(t, 16) {
            Ok(b) if pair.iter().all(u8::is_ascii_hexdigit) => out.push(Some(b)),
            _ => {
                return err(
                    path,
                    format!(
                        "byte {i}: {} is not two hex digits (or xx for undefined)",
                        crate::quote::quote(pair)
                    ),
                )
            }
        }
    }
    Ok(out)
}

/// A number literal for a message (a very long one is cut, [`quote_str`]).
fn lit(n: &str) -> Cow<'_, str> {
    if n.len() <= crate::quote::QUOTE_CHARS {
        Cow::Borrowed(n)
    } else {
        Cow::Owned(quote_str(n))
    }
}

fn parse_uint(v: &Json<'_>, path: &str) -> Result<u64, JsonError> {
    match v {
        Json::Num(n) => match int_of(n) {
            Int::Exact(x) => u64::try_from(x).or_else(|_| {
                err(
                    path,
                    format!(
                        "{} is out of range for an unsigned 64-bit integer (0..={})",
                        lit(n),
                        u64::MAX
                    ),
                )
            }),
            Int::Huge => err(
                path,
                format!(
                    "{} is out of range for an unsigned 64-bit integer (0..={})",
                    lit(n),
                    u64::MAX
                ),
            ),
            Int::NotInt => err(
                path,
                format!("expected an unsigned integer, found {}", lit(n)),
            ),
        },
        Json::Str(s) => {
            let h = s
                .strip_prefix("0x")
                .or_else(|| s.strip_prefix("0X"))
                .ok_or(())
                .or_else(|_| err(path, "expected a number or a \"0x...\" string"))?;
            u64::from_str_radix(&h.replace('_', ""), 16)
                .or_else(|_| err(path, format!("{} is not a 64-bit hex number", quote_str(s))))
        }
        _ => err(path, "expected a number or a \"0x...\" string"),
    }
}

/// One typed element: its bits (`None`: undefined) and, for integers, the exact value.
fn parse_elem(
    t: DataType,
    v: &Json<'_>,
    path: &str,
    wide: u32,
) -> Result<Option<(u64, i128)>, JsonError> {
    let bits = t.bits();
    match v {
        Json::Null => Ok(None),
        Json::Str(s) if s.starts_with("0x") || s.starts_with("0X") => {
            let b = parse_uint(v, path)?;
            if bits < 64 && b >> bits != 0 {
                return err(
                    path,
                    format!(
                        "bit pattern {} does not fit {} ({bits} bits)",
                        quote_str(s),
                        t.name()
                    ),
                );
            }
            let exact = crate::values::to_i64(t, b) as i128;
            let exact = if t.is_int() && !t.is_signed() {
                i128::from(b)
            } else {
                exact
            };
            Ok(Some((b, exact)))
        }
        Json::Str(s) if t.is_float() => {
            let f = match s.as_str() {
                "nan" | "NaN" => f64::NAN,
                "inf" | "+inf" => f64::INFINITY,
                "-inf" => f64::NEG_INFINITY,
                _ => {
                    return err(
                        path,
                        format!("{} is not a number, \"0x...\", nan or inf", quote_str(s)),
                    )
                }
            };
            Ok(Some((float_bits(t, f), 0)))
        }
        Json::Num(n) if t.is_float() => {
            // Rust's parse rounds correctly to the nearest double.
            let f = n.parse::<f64>().ok().filter(|f| f.is_finite()).ok_or(()).or_else(|_| {
                err(
                    path,
                    format!(
                        "{} is beyond the range of a double (write \"inf\" or \"-inf\" for an infinity)",
                        lit(n)
                    ),
                )
            })?;
            Ok(Some((float_bits(t, f), 0)))
        }
        Json::Num(n) if t.is_int() => {
            let (lo, hi) = if wide > bits {
                (-(1i128 << (wide - 1)), (1i128 << (wide - 1)) - 1)
            } else if t.is_signed() {
                (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
            } else {
                (0, (1i128 << bits) - 1)
            };
            let x = match int_of(n) {
                Int::Exact(x) if (lo..=hi).contains(&x) => x,
                Int::Exact(_) | Int::Huge => {
                    return err(
                        path,
                        format!(
                            "{} is out of range for {} ({lo}..={hi})",
                            lit(n),
                            t.name().to_ascii_lowercase()
                        ),
                    )
                }
                Int::NotInt => return err(path, format!("{} is not an integer", lit(n))),
            };
            let b = (x as u128 as u64)
                & if bits >= 64 {
                    u64::MAX
                } else {
                    (1u64 << bits) - 1
                };
            Ok(Some((b, x)))
        }
        _ => err(
            path,
            format!("expected a {} value (number, \"0x...\" or null)", t.name()),
        ),
    }
}

fn float_bits(t: DataType, f: f64) -> u64 {
    match t {
        DataType::DF => f.to_bits(),
        DataType::F => u64::from((f as f32).to_bits()),
        _ => fp::convert::<fp::F64, fp::Hf>(f.to_bits(), Round::Rtne).bits,
    }
}

fn typed(
    st: &ThreadState,
    obj: &Obj<'_>,
    path: &str,
    size: usize,
    acc: bool,
) -> Result<(Bytes, Channels), JsonError> {
    for (k, _) in obj {
        if !["type", "values", "offset"].contains(&k.as_str()) {
            return err(
                &key_path(path, k),
                "unknown key (expected type, values, offset)",
            );
        }
    }
    let tp = format!("{path}.type");
    let Some(ts) = json_doc::get(obj, "type").and_then(Json::as_str) else {
        return err(&tp, "expected a type name (ub b uw w ud d uq q hf f df)");
    };
    let Some(t) = DataType::from_name(ts).filter(|t| !t.is_vector()) else {
        return err(
            &tp,
            format!("{} is not a register data type", quote_str(ts)),
        );
    };
    if !t.on(st.platform()) {
        return err(
            &tp,
            format!("{} does not exist on {}", t.name(), st.platform().name()),
        );
    }
    let off = match json_doc::get(obj, "offset") {
        None => 0,
        Some(v) => parse_uint(v, &format!("{path}.offset"))? as usize,
    };
    let es = t.bytes() as usize;
    if off % es != 0 {
        return err(
            &format!("{path}.offset"),
            format!(
                "offset {off} is not a multiple of the {} size {es}",
                t.name()
            ),
        );
    }
    let vp = format!("{path}.values");
    let Some(vals) = json_doc::get(obj, "values").and_then(Json::as_array) else {
        return err(&vp, "expected an array of values");
    };
    if off + vals.len() * es > size {
        return err(
            &vp,
            format!(
                "{} {} values from byte {off} exceed the {size}-byte register",
                vals.len(),
                t.name()
            ),
        );
    }
    let class = if acc {
        class_of(st.platform(), t)
    } else {
        None
    };
    let wide = class.and_then(class_info).map_or(0, |c| c.bits);
    let mut items = Vec::new();
    let mut ext = Vec::new();
    for (i, v) in vals.iter().enumerate() {
        let ep = format!("{vp}[{i}]");
        let o = off + i * es;
        match parse_elem(t, v, &ep, wide)? {
            None => {
                for k in 0..es {
                    items.push((o + k, 0, 0xff));
                }
            }
            Some((b, x)) => {
                for k in 0..es {
                    items.push((o + k, (b >> (8 * k)) as u8, 0));
                }
                if let Some(c) = class {
                    ext.push((o / 2, c, if t.is_int() { x } else { 0 }));
                }
            }
        }
    }
    Ok((Bytes { items }, ext))
}

fn hex_bytes(s: &str, path: &str, size: usize) -> Result<Bytes, JsonError> {
    let b = parse_hex_bytes(s, path)?;
    if b.len() > size {
        return err(
            path,
            format!("{} bytes given for a {size}-byte register", b.len()),
        );
    }
    Ok(Bytes {
        items: b
            .into_iter()
            .enumerate()
            .map(|(i, x)| match x {
                Some(v) => (i, v, 0),
                None => (i, 0, 0xff),
            })
            .collect(),
    })
}

fn number_bytes(v: &Json<'_>, path: &str, size: usize) -> Result<Bytes, JsonError> {
    let n = parse_uint(v, path)?;
    let len = size.min(8);
    if len < 8 && n >> (8 * len) != 0 {
        return err(path, format!("{n:#x} does not fit the {len}-byte register"));
    }
    Ok(Bytes {
        items: (0..len).map(|i| (i, (n >> (8 * i)) as u8, 0)).collect(),
    })
}

fn load_grf(st: &mut ThreadState, n: usize, v: &Json<'_>, path: &str) -> Result<(), JsonError> {
    let rb = st.grf_reg_bytes();
    let bytes = match v {
        Json::Str(s) if !s.starts_with("0x") => hex_bytes(s, path, rb)?,
        Json::Num(_) | Json::Str(_) => number_bytes(v, path, rb)?,
        Json::Obj(o) if has(o, "type") => typed(st, o, path, rb, false)?.0,
        Json::Obj(o) if has(o, "hex") => raw_object(o, path, rb)?.0,
        _ => {
            return err(
                path,
                "expected a hex byte string, a number or {\"type\", \"values\"}",
            )
        }
    };
    for (o, b, u) in bytes.items {
        let at = n * rb + o;
        st.write_grf_unchecked(at, 1, u64::from(b), u != 0);
    }
    Ok(())
}

type Channels = Vec<(usize, u8, i128)>;

/// Whether an object has member `key`.
fn has(o: &Obj<'_>, key: &str) -> bool {
    json_doc::get(o, key).is_some()
}

fn raw_object(o: &Obj<'_>, path: &str, size: usize) -> Result<(Bytes, Channels), JsonError> {
    for (k, _) in o {
        if !["hex", "undefined", "channels"].contains(&k.as_str()) {
            return err(
                &key_path(path, k),
                "unknown key (expected hex, undefined, channels)",
            );
        }
    }
    let hp = format!("{path}.hex");
    let Some(h) = json_doc::get(o, "hex").and_then(Json::as_str) else {
        return err(&hp, "expected a hex byte string");
    };
    let mut b = hex_bytes(h, &hp, size)?;
    if let Some(u) = json_doc::get(o, "undefined") {
        let up = format!("{path}.undefined");
        let Some(us) = u.as_str() else {
            return err(&up, "expected a hex byte string (set bits are undefined)");
        };
        let ub = parse_hex_bytes(us, &up)?;
        if ub.len() != b.items.len() {
            return err(
                &up,
                format!(
                    "{} bytes given, the hex value has {}",
                    ub.len(),
                    b.items.len()
                ),
            );
        }
        for (item, m) in b.items.iter_mut().zip(ub) {
            let Some(m) = m else {
                return err(&up, "the undefined mask cannot itself contain xx");
            };
            item.2 |= m;
        }
    }
    let mut chans = Vec::new();
    if let Some(c) = json_doc::get(o, "channels") {
        let cp = format!("{path}.channels");
        let Some(arr) = c.as_array() else {
            return err(&cp, "expected [[word, type, value], ...]");
        };
        for (i, e) in arr.iter().enumerate() {
            let ep = format!("{cp}[{i}]");
            let Some([w, t, v]) = e.as_array() else {
                return err(&ep, "expected [word, type, value]");
            };
            let w = parse_uint(w, &format!("{ep}[0]"))? as usize;
            if w >= 16 {
                return err(&format!("{ep}[0]"), "word index must be 0-15");
            }
            let Some(t) = t.as_str().and_then(DataType::from_name) else {
                return err(&format!("{ep}[1]"), "expected a data type name");
            };
            let x: i128 = match v {
                Json::Num(n) => match int_of(n) {
                    Int::Exact(x) if i64::try_from(x).is_ok() => x,
                    _ => {
                        return err(
                            &format!("{ep}[2]"),
                            format!("{} is not a 64-bit signed integer", lit(n)),
                        )
                    }
                },
                _ => return err(&format!("{ep}[2]"), "expected an integer"),
            };
            chans.push((w, t as u8, x));
        }
    }
    Ok((b, chans))
}

fn load_arf(st: &mut ThreadState, i: usize, v: &Json<'_>, path: &str) -> Result<(), JsonError> {
    let reg = st.layout.regs[i].clone();
    let size = reg.bytes;
    let is_acc = reg.info.name == "acc";
    let (bytes, channels): (Bytes, Channels) =
        match v {
            Json::Str(s) if !s.starts_with("0x") => (hex_bytes(s, path, size)?, vec![]),
            Json::Num(_) | Json::Str(_) => (number_bytes(v, path, size)?, vec![]),
            Json::Obj(o) if has(o, "type") => {
                let (b, ext) = typed(st, o, path, size, is_acc)?;
                (b, ext)
            }
            Json::Obj(o) if has(o, "hex") => {
                let (b, ch) = raw_object(o, path, size)?;
                let p = st.platform();
                let mut conv = Vec::new();
                for (w, t, x) in ch {
                    let t = DataType::ALL[t as usize];
                    let Some(c) = class_of(p, t) else {
                        return err(
                            &format!("{path}.channels"),
                            format!("{} has no accumulator precision", t.name()),
                        );
                    };
                    conv.push((w, c, x));
                }
                (b, conv)
            }
            Json::Obj(o) => return load_fields(st, &reg, o, path),
            _ => return err(
                path,
                "expected a hex byte string, a number, {\"type\", \"values\"} or fields by name",
            ),
        };
    st.mark_arf(reg.base, reg.bytes);
    for (o, b, u) in &bytes.items {
        let at = reg.base + o;
        st.arf[at] = *b;
        let sh = 8 * (at % 4);
        let d = &mut st.arf_undef[at / 4];
        *d = (*d & !(0xff << sh)) | (u32::from(*u) << sh);
    }
    if is_acc {
        if let Some(a) = st.acc.get_mut(usize::from(reg.num)) {
            for (o, _, _) in &bytes.items {
                a.set_class(o / 2, 1, NO_CLASS, 0);
            }
            for (w, c, x) in channels {
                a.set_class(w, words_per_channel(c), c, x as i64);
            }
        }
    }
    Ok(())
}

fn load_fields(
    st: &mut ThreadState,
    reg: &super::layout::ArfReg,
    o: &Obj<'_>,
    path: &str,
) -> Result<(), JsonError> {
    let Some(fr) = reg.field_reg else {
        return err(
            path,
            format!(
                "{} has no named fields: give a hex string, a number or {{\"type\", \"values\"}}",
                reg.name
            ),
        );
    };
    let p = st.platform();
    for (k, v) in o {
        let fp = key_path(path, k);
        let Some(f) = st.field_info(fr, k) else {
            let names: Vec<&str> = crate::spec::registers::FIELDS
                .iter()
                .filter(|f| f.reg == fr && f.gens.contains(p))
                .map(|f| f.name)
                .collect();
            return err(
                &fp,
                format!(
                    "{fr} has no field {} on {}: fields are {}",
                    quote_str(k),
                    p.name(),
                    names.join(", ")
                ),
            );
        };
        if v.is_null() {
            let i = st.arf_index(&reg.name).unwrap_or(0);
            let b = st.layout.regs[i].base / 4 + f.dword as usize;
            st.mark_arf(4 * b, 4);
            st.arf_undef[b] |= f.mask();
            continue;
        }
        let x = parse_uint(v, &fp)?;
        let width = f.hi - f.lo + 1;
        if width < 64 && x >> width != 0 {
            return err(
                &fp,
                format!("{x:#x} does not fit the {width}-bit field {k}"),
            );
        }
        st.set_field(f, x as u32)
            .or_else(|e| err(&fp, e.to_string()))?;
    }
    Ok(())
}

fn hex_of(bytes: &[u8], undef: &[bool]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for (b, u) in bytes.iter().zip(undef) {
        if *u {
            s.push_str("xx");
        } else {
            s.push_str(&format!("{b:02x}"));
        }
    }
    s
}

/// The state as a JSON value (see the module documentation); `load` of it gives the state back.
pub fn to_value(st: &ThreadState) -> Value {
    let mut m = Map::new();
    m.insert(
        "platform".into(),
        Value::String(st.platform().name().into()),
    );
    m.insert("base".into(), Value::String("undefined".into()));
    if st.preemptible {
        m.insert("preemptible".into(), Value::Bool(true));
    }
    let rb = st.grf_reg_bytes();
    for n in 0..st.grf_size() / rb {
        let o = n * rb;
        let undef: Vec<bool> = (o..o + rb).map(|b| st.grf_byte_undefined(b)).collect();
        if undef.iter().all(|u| *u) {
            continue;
        }
        m.insert(
            format!("r{n}"),
            Value::String(hex_of(&st.grf[o..o + rb], &undef)),
        );
    }
    for r in &st.layout.regs {
        let dwords = r.bytes.div_ceil(4);
        let stored: Vec<u32> = (0..dwords).map(|d| st.arf_undef[r.base / 4 + d]).collect();
        let ubytes: Vec<u8> = (0..r.bytes)
            .map(|i| (stored[i / 4] >> (8 * (i % 4))) as u8)
            .collect();
        let bytes = &st.arf[r.base..r.base + r.bytes];
        let whole: Vec<bool> = ubytes.iter().map(|u| *u == 0xff).collect();
        let partial = ubytes.iter().any(|u| *u != 0 && *u != 0xff);
        let mut chans = Vec::new();
        if r.info.name == "acc" {
            if let Some(a) = st.acc.get(usize::from(r.num)) {
                let mut w = 0;
                while w < 16 {
                    let c = a.class[w];
                    let Some(ci) = (c != NO_CLASS).then(|| class_info(c)).flatten() else {
                        w += 1;
                        continue;
                    };
                    let words = words_per_channel(c);
                    if let Some(t) = ci.types.iter().next() {
                        chans.push(Value::Array(vec![
                            Value::from(w as u64),
                            Value::String(t.name().to_ascii_lowercase()),
                            Value::from(a.ext[w]),
                        ]));
                    }
                    w += words.max(1);
                }
            }
        }
        if ubytes.iter().all(|u| *u == 0xff) && chans.is_empty() {
            continue;
        }
        let v = if partial || !chans.is_empty() {
            let mut o = Map::new();
            o.insert(
                "hex".into(),
                Value::String(hex_of(bytes, &vec![false; bytes.len()])),
            );
            if ubytes.iter().any(|u| *u != 0) {
                let us: String = ubytes.iter().map(|u| format!("{u:02x}")).collect();
                o.insert("undefined".into(), Value::String(us));
            }
            if !chans.is_empty() {
                o.insert("channels".into(), Value::Array(chans));
            }
            Value::Object(o)
        } else {
            Value::String(hex_of(bytes, &whole))
        };
        m.insert(r.name.clone(), v);
    }
    if st.has_inexact() {
        let marks = inexact_marks(st);
        if !marks.is_empty() {
            m.insert("inexact".into(), Value::Object(marks));
        }
    }
    Value::Object(m)
}

/// The `"inexact"` object of [`to_value`]: every register with an inexact (defined) byte or
/// bit.
fn inexact_marks(st: &ThreadState) -> Map<String, Value> {
    let mut marks = Map::new();
    if !st.has_inexact() {
        return marks;
    }
    let grf = (0..st.grf_size() / st.grf_reg_bytes()).map(|n| format!("r{n}"));
    for name in grf.chain(st.layout.regs.iter().map(|r| r.name.clone())) {
        if let Some(s) = inexact_hex(st, &name) {
            marks.insert(name, Value::String(s));
        }
    }
    marks
}

/// The inexact mask of register `name` as the `"inexact"` object writes it (a GRF register
/// `rN`: `00` or `ff` per byte; an ARF register: its inexact bits, byte by byte), or None when
/// it has no inexact byte or bit, or there is no such register.
pub fn inexact_hex(st: &ThreadState, name: &str) -> Option<String> {
    if !st.has_inexact() {
        return None;
    }
    let rb = st.grf_reg_bytes();
    let grf = name
        .strip_prefix('r')
        .filter(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()));
    if let Some(n) = grf.and_then(|d| d.parse::<usize>().ok()) {
        let o = n.checked_mul(rb).filter(|o| o + rb <= st.grf_size())?;
        if !st.grf_range_inexact(o, rb) {
            return None;
        }
        return Some(
            (o..o + rb)
                .map(|b| if st.grf_byte_inexact(b) { "ff" } else { "00" })
                .collect(),
        );
    }
    let r = &st.layout.regs[st.layout.by_name(name)?];
    let bits: Vec<u32> = (0..r.bytes.div_ceil(4))
        .map(|d| st.arf_inexact(&r.name, d).unwrap_or(0))
        .collect();
    if bits.iter().all(|b| *b == 0) {
        return None;
    }
    Some(
        (0..r.bytes)
            .map(|i| format!("{:02x}", (bits[i / 4] >> (8 * (i % 4))) as u8))
            .collect(),
    )
}

/// The state as pretty-printed JSON.
pub fn save(st: &ThreadState) -> String {
    serde_json::to_string_pretty(&to_value(st)).unwrap_or_default()
}
