//! Borrowed views of a vector line and a response line, for `euref check`: strings are borrowed
//! from the line (decoded only when escaped), the `initial` object and the `rules` array are
//! kept as their raw JSON text (copied verbatim into the request and the report line), so
//! checking a vector allocates next to nothing. The owned types (`golden::Vector`,
//! `protocol::Response`) remain the format's definition; [`VectorView::from_vector`] and
//! [`ResponseView::from_response`] view them.

use super::json::{candidate_end, push_string, JsonError, Lexer};
use super::known::{KnownFields, ShapeField};
use super::protocol::Response;
use crate::vector::{AltKind, Vector};
use std::borrow::Cow;

/// The destination of a vector (`dst`).
#[derive(Debug, Clone, PartialEq)]
pub struct DstView<'a> {
    pub reg: Cow<'a, str>,
    pub offset: u32,
    pub ty: Cow<'a, str>,
    pub stride: u32,
}

/// One allowed alternative (`alternatives[i]`).
#[derive(Debug, Clone, PartialEq)]
pub struct AltView<'a> {
    pub kind: AltKind,
    pub reg: Cow<'a, str>,
    pub offset: u32,
    pub ty: Cow<'a, str>,
    pub ulps: Option<f64>,
    pub abs: Option<f64>,
    /// `value`: the accepted bits.
    pub bits: Option<u64>,
}

/// A vector as the checker needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct VectorView<'a> {
    pub id: Cow<'a, str>,
    pub gen: Cow<'a, str>,
    pub op: Cow<'a, str>,
    pub insn: Cow<'a, str>,
    pub bytes: Cow<'a, str>,
    /// The `initial` object's JSON text.
    pub initial_raw: Cow<'a, str>,
    /// Register -> hex, in the line's order.
    pub expected: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    pub undefined: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    pub dst: Option<DstView<'a>>,
    pub alternatives: Vec<AltView<'a>>,
    /// The `rules` array's JSON text.
    pub rules_raw: Cow<'a, str>,
}

/// A response as the checker needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct ResponseView<'a> {
    pub id: Cow<'a, str>,
    pub fin: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    /// The response has a `final` key (a response without one, and without an `error`, fails).
    pub has_final: bool,
    /// The inexact marks the simulator gives (`inexact`: register -> hex mask, row
    /// math.inexact). Informative: an inexact value is compared as the vector says (within a
    /// math row's bound where the vector gives an `ulps` alternative), never accepted for its
    /// mark.
    pub inexact: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    pub error: Option<Cow<'a, str>>,
    /// Registers the simulator says it does not model (`unmodelled`): not compared, and not
    /// required in `final`.
    pub unmodelled: Vec<Cow<'a, str>>,
    /// Features the simulator says it ignored executing this request (`ignored`): the vector
    /// cannot pass.
    pub ignored: Vec<Cow<'a, str>>,
}

impl ResponseView<'_> {
    /// Whether the response says nothing of itself (no `unmodelled`, no `ignored`): its
    /// registers alone decide.
    pub fn is_plain(&self) -> bool {
        self.unmodelled.is_empty() && self.ignored.is_empty()
    }
}

/// An error when `key` of an object, one of `keys`, comes a second time (`seen`: one bit per
/// key of `keys`), as serde's reading of the struct the object stands for refuses it.
fn once(seen: &mut u16, keys: &[&str], key: &str, l: &Lexer) -> Result<(), JsonError> {
    let bit = keys.iter().position(|k| *k == key).map_or(0, |i| 1u16 << i);
    if *seen & bit != 0 {
        return Err(format!("duplicate field `{key}` at byte {}", l.offset()));
    }
    *seen |= bit;
    Ok(())
}

/// The keys of a vector line that [`VectorView::parse_object`] reads.
const KEYS: [&str; 14] = [
    "v",
    "id",
    "gen",
    "op",
    "insn",
    "bytes",
    "initial",
    "expected",
    "undefined",
    "dst",
    "alternatives",
    "rules",
    "classes",
    "report",
];

/// An error when a register is named twice in map `what` of a vector.
fn given_once<'k>(
    names: impl Iterator<Item = &'k str> + Clone,
    what: &str,
) -> Result<(), JsonError> {
    match crate::vector::unique_keys::repeated_name(names) {
        Some(k) => Err(format!("{what}: register `{k}` given twice")),
        None => Ok(()),
    }
}

fn missing(k: &str) -> JsonError {
    format!("missing field `{k}`")
}

fn map_into<'a>(
    l: &mut Lexer<'a>,
    out: &mut Vec<(Cow<'a, str>, Cow<'a, str>)>,
) -> Result<(), JsonError> {
    out.clear();
    if l.compact_map(|k, v| out.push((Cow::Borrowed(k), Cow::Borrowed(v)))) {
        return Ok(());
    }
    out.clear();
    l.string_map(|k, v| {
        out.push((k, v));
        Ok(())
    })
}

/// The last value of `key` (a JSON object's later duplicate wins, as in a map).
pub fn lookup<'v>(pairs: &'v [(Cow<'_, str>, Cow<'_, str>)], key: &str) -> Option<&'v str> {
    pairs
        .iter()
        .rev()
        .find(|(k, _)| k.as_ref() == key)
        .map(|(_, v)| v.as_ref())
}

/// An array of strings (`null`: none) into `out` (a later key replaces an earlier one).
fn names<'a>(l: &mut Lexer<'a>, out: &mut Vec<Cow<'a, str>>) -> Result<(), JsonError> {
    out.clear();
    if l.peek() == Some(b'n') {
        l.value()?;
        return Ok(());
    }
    l.array(|l| {
        out.push(l.string()?);
        Ok(())
    })
}

fn dst<'a>(l: &mut Lexer<'a>) -> Result<DstView<'a>, JsonError> {
    let (mut reg, mut offset, mut ty, mut stride) = (None, None, None, None);
    let mut seen = 0u16;
    l.object(|l, k| {
        once(&mut seen, &["reg", "offset", "type", "stride"], &k, l)?;
        match k.as_ref() {
            "reg" => reg = Some(l.string()?),
            "offset" => offset = Some(l.u32()?),
            "type" => ty = Some(l.string()?),
            "stride" => stride = Some(l.u32()?),
            _ => {
                l.value()?;
            }
        }
        Ok(())
    })?;
    Ok(DstView {
        reg: reg.ok_or_else(|| missing("reg"))?,
        offset: offset.ok_or_else(|| missing("offset"))?,
        ty: ty.ok_or_else(|| missing("type"))?,
        stride: stride.ok_or_else(|| missing("stride"))?,
    })
}

fn alternative<'a>(l: &mut Lexer<'a>) -> Result<AltView<'a>, JsonError> {
    let (mut kind, mut reg, mut offset, mut ty) = (None, None, None, None);
    let (mut ulps, mut abs, mut rule, mut bits) = (None, None, false, None);
    let opt_num = |l: &mut Lexer<'a>| -> Result<Option<f64>, JsonError> {
        if l.peek() == Some(b'n') {
            l.value()?;
            Ok(None)
        } else {
            l.number().map(Some)
        }
    };
    let mut seen = 0u16;
    l.object(|l, k| {
        let keys = [
            "kind", "reg", "offset", "type", "ulps", "abs", "rule", "bits",
        ];
        once(&mut seen, &keys, &k, l)?;
        match k.as_ref() {
            "kind" => {
                kind = Some(match l.string()?.as_ref() {
                    "any_nan" => AltKind::AnyNan,
                    "ulps" => AltKind::Ulps,
                    "overflow_inf" => AltKind::OverflowInf,
                    "value" => AltKind::Value,
                    other => return Err(format!("unknown variant `{other}`")),
                })
            }
            "reg" => reg = Some(l.string()?),
            "offset" => offset = Some(l.u32()?),
            "type" => ty = Some(l.string()?),
            "ulps" => ulps = opt_num(l)?,
            "abs" => abs = opt_num(l)?,
            "bits" => bits = Some(alt_bits(&l.string()?)?),
            "rule" => {
                l.string()?;
                rule = true;
            }
            _ => {
                l.value()?;
            }
        }
        Ok(())
    })?;
    if !rule {
        return Err(missing("rule"));
    }
    if kind == Some(AltKind::Value) && bits.is_none() {
        return Err(missing("bits"));
    }
    Ok(AltView {
        kind: kind.ok_or_else(|| missing("kind"))?,
        reg: reg.ok_or_else(|| missing("reg"))?,
        offset: offset.ok_or_else(|| missing("offset"))?,
        ty: ty.ok_or_else(|| missing("type"))?,
        ulps,
        abs,
        bits,
    })
}

/// The bits of a `value` alternative: `0x` and 1-16 hex digits.
pub fn alt_bits(s: &str) -> Result<u64, String> {
    s.strip_prefix("0x")
        .filter(|h| (1..=16).contains(&h.len()))
        .and_then(|h| u64::from_str_radix(h, 16).ok())
        .ok_or_else(|| format!("bits `{s}` is not 0x followed by 1-16 hex digits"))
}

fn string_array<'a>(l: &mut Lexer<'a>) -> Result<&'a str, JsonError> {
    l.string_array()
}

/// Where `raw` (a part of `line`) lies in it.
fn span_in(line: &str, raw: &str) -> (u32, u32) {
    let o = raw.as_ptr() as usize - line.as_ptr() as usize;
    (o as u32, (o + raw.len()) as u32)
}

/// The `dst` value: its span (empty for `null`), unless it was known its view, and its
/// number among the known values.
#[allow(clippy::type_complexity)]
fn read_dst<'a>(
    l: &mut Lexer<'a>,
    line: &'a str,
    known: &mut KnownFields,
) -> Result<((u32, u32), Option<DstView<'a>>, Option<u32>), JsonError> {
    if l.peek() == Some(b'n') {
        l.value()?;
        return Ok(((0, 0), None, None));
    }
    if let Some((text, id)) = l.known_value(&known.dst, None, b'}') {
        return Ok((span_in(line, text), None, Some(id)));
    }
    let mut x = None;
    let text = l.spanned(|l| dst(l).map(|d| x = Some(d)))?;
    let id = if l.is_plain() {
        known.dst.learn(text)
    } else {
        None
    };
    Ok((span_in(line, text), x, id))
}

/// The `alternatives` value: its span and its number among the known values; unless it was
/// known, its views (into `out`).
fn read_alternatives<'a>(
    l: &mut Lexer<'a>,
    line: &'a str,
    known: &mut KnownFields,
    out: &mut Vec<AltView<'a>>,
) -> Result<((u32, u32), Option<u32>), JsonError> {
    out.clear();
    if let Some((text, id)) = l.known_value(&known.alternatives, Some(b'}'), b']') {
        return Ok((span_in(line, text), Some(id)));
    }
    let text = l.spanned(|l| {
        l.array(|l| {
            out.push(alternative(l)?);
            Ok(())
        })
    })?;
    let id = if l.is_plain() {
        known.alternatives.learn(text)
    } else {
        None
    };
    Ok((span_in(line, text), id))
}

/// The known `field` value last read with encoding `bytes`, when the line continues with it
/// and [`Lexer::known_value`] would take it whole there (its candidate ends where the text
/// does): the cursor moves past it. Its span.
fn shape_guess(
    l: &mut Lexer<'_>,
    line: &str,
    known: &KnownFields,
    shape: u64,
    field: ShapeField,
) -> Option<(u32, u32)> {
    let t = known.shape_value(shape, field)?.as_bytes();
    let at = l.offset();
    if !line.as_bytes()[at..].starts_with(t) {
        return None;
    }
    let (before, last) = match field {
        ShapeField::Dst => (None, b'}'),
        ShapeField::Alternatives => (Some(b'}'), b']'),
    };
    if candidate_end(t, 0, before, last)? != t.len() - 1 {
        return None;
    }
    l.skip_bytes(t.len());
    Some((at as u32, (at + t.len()) as u32))
}

/// A string value read whole (plain text): its body and the span of its token.
fn spanned_body<'a>(l: &mut Lexer<'a>, line: &'a str) -> Option<(&'a str, (u32, u32))> {
    let raw = l.raw_string().ok()?;
    Some((&raw[1..raw.len() - 1], span_in(line, raw)))
}

/// A compact object of strings (plain text) into `out`; its span.
fn compact_pairs<'a>(
    l: &mut Lexer<'a>,
    line: &'a str,
    out: &mut Vec<(Cow<'a, str>, Cow<'a, str>)>,
) -> Option<(u32, u32)> {
    let at = l.offset();
    let ok = l.compact_map(|k, v| out.push((Cow::Borrowed(k), Cow::Borrowed(v))));
    // (Names out of order may repeat one: such a line goes to the reader that says so.)
    let ascending = out.windows(2).all(|w| w[0].0 < w[1].0);
    (ok && ascending).then(|| span_in(line, &line[at..l.offset()]))
}

/// A vector line in `euref golden`'s layout, ASCII and plain ([`super::json::is_plain_ascii`]):
/// `{"v":..,"id":..,"gen":..,"op":..,"insn":..,"bytes":..,"initial":{..},"expected":{..}`, then
/// `"undefined"`, `"dst"`, `"alternatives"` when present, `"rules":[..],"classes":[..]}`, without
/// blanks, each value read as [`VectorView::parse_object`] reads it. `None`: the line is
/// something else (read it with [`VectorView::parse_object`], which gives the same result for
/// a line this reader takes).
fn layout<'a>(line: &'a str, known: &mut KnownFields) -> Option<(VectorView<'a>, Spans)> {
    let mut sp = Spans {
        plain: true,
        ..Spans::default()
    };
    let mut l = Lexer::with_plain(line, true);
    l.lit(b"{\"v\":").then_some(())?;
    sp.version = l.u32().ok()?;
    l.lit(b",").then_some(())?;
    let head = l.offset();
    l.lit(b"\"id\":").then_some(())?;
    let (id, s) = spanned_body(&mut l, line)?;
    sp.id = s;
    l.lit(b",\"gen\":").then_some(())?;
    let (gen, _) = spanned_body(&mut l, line)?;
    let head = span_in(line, &line[head..l.offset()]);
    l.lit(b",\"op\":").then_some(())?;
    let (op, s) = spanned_body(&mut l, line)?;
    sp.op = s;
    let tail = l.offset();
    l.lit(b",\"insn\":").then_some(())?;
    let (insn, s) = spanned_body(&mut l, line)?;
    sp.insn = s;
    l.lit(b",\"bytes\":").then_some(())?;
    let (bytes, _) = spanned_body(&mut l, line)?;
    let shape = known.shape_key(bytes);
    l.lit(b",\"initial\":").then_some(())?;
    let at = l.offset();
    // (Names out of order may repeat one: such a line goes to the reader that says so.)
    let mut prev = "";
    let mut ascending = true;
    if !l.compact_map(|k, _| {
        ascending &= prev < k;
        prev = k;
    }) || !ascending
    {
        return None;
    }
    let initial_raw = &line[at..l.offset()];
    sp.request = Some((head, span_in(line, &line[tail..l.offset()])));
    l.lit(b",\"expected\":").then_some(())?;
    let mut expected = Vec::with_capacity(4);
    sp.expected = compact_pairs(&mut l, line, &mut expected)?;
    let mut undefined = Vec::new();
    if l.lit(b",\"undefined\":") {
        sp.undefined = compact_pairs(&mut l, line, &mut undefined)?;
    }
    let mut dstv = None;
    if l.lit(b",\"dst\":") {
        sp.dst = match shape_guess(&mut l, line, known, shape, ShapeField::Dst) {
            Some(s) => s,
            None => {
                let (s, d, id) = read_dst(&mut l, line, known).ok()?;
                dstv = d;
                if let Some(id) = id {
                    known.note_shape_value(shape, ShapeField::Dst, id);
                }
                s
            }
        };
    }
    let mut alternatives = Vec::new();
    if l.lit(b",\"alternatives\":") {
        let f = ShapeField::Alternatives;
        sp.alternatives = match shape_guess(&mut l, line, known, shape, f) {
            Some(s) => s,
            None => {
                let (s, id) = read_alternatives(&mut l, line, known, &mut alternatives).ok()?;
                if let Some(id) = id {
                    known.note_shape_value(shape, f, id);
                }
                s
            }
        };
    }
    l.lit(b",\"rules\":").then_some(())?;
    // The arrays last seen with this encoding first: a known text (a whole valid value) that
    // the line continues with is the value, as `string_array_known` would find it.
    let rest = &line.as_bytes()[l.offset()..];
    let guess = known
        .shape_rules(shape)
        .find(|(_, t)| rest.starts_with(t.as_bytes()))
        .map(|(id, t)| (id, t.len()));
    let (rules_raw, id_rules) = match guess {
        Some((id, n)) => {
            let at = l.offset();
            l.skip_bytes(n);
            (&line[at..at + n], Some(id))
        }
        None => l
            .string_array_known(&mut known.rules, &mut known.rule_sets)
            .ok()?,
    };
    if let Some(id) = id_rules {
        known.note_shape_rules(shape, id);
    }
    sp.rules_id = id_rules;
    sp.rules = span_in(line, rules_raw);
    l.lit(b",\"classes\":").then_some(())?;
    l.string_array().ok()?;
    l.lit(b"}").then_some(())?;
    if !l.at_end() {
        return None;
    }
    let v = VectorView {
        id: Cow::Borrowed(id),
        gen: Cow::Borrowed(gen),
        op: Cow::Borrowed(op),
        insn: Cow::Borrowed(insn),
        bytes: Cow::Borrowed(bytes),
        initial_raw: Cow::Borrowed(initial_raw),
        expected,
        undefined,
        dst: dstv,
        alternatives,
        rules_raw: Cow::Borrowed(rules_raw),
    };
    Some((v, sp))
}

/// Where the fields the comparison needs lie in a vector line already read whole, so that
/// the line need not be read whole again when its response arrives ([`VectorView::reread`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Spans {
    id: (u32, u32),
    op: (u32, u32),
    insn: (u32, u32),
    expected: (u32, u32),
    undefined: (u32, u32),
    dst: (u32, u32),
    alternatives: (u32, u32),
    rules: (u32, u32),
    /// The line is plain ([`super::json::is_plain`]).
    plain: bool,
    /// A response that repeats the line's `id` token and `expected` text passes
    /// ([`Spans::passes_verbatim`]): the line is plain, nothing is undefined, and the
    /// `expected` values are hex (an even number of digits) under distinct names.
    verbatim: bool,
    /// The number of the `rules` text among the known arrays it was read with
    /// ([`VectorView::parse_spans_known`]).
    pub rules_id: Option<u32>,
    /// The line's format version (`v`).
    pub version: u32,
    /// A line read in the golden layout: the text from `"id"` to the end of the `gen` value,
    /// and from `,"insn"` to the end of the `initial` value, which the request repeats
    /// ([`write_request_from`]).
    request: Option<((u32, u32), (u32, u32))>,
}

impl Spans {
    /// Ask the processor to load the part of `line` (read with these spans) that checking its
    /// response reads, from its start to the end of the `rules` text, ahead of time: the
    /// checker's reader thread wrote the line on the other core.
    #[inline]
    pub fn prefetch(&self, line: &str) {
        let b = line.as_bytes();
        super::prefetch::prefetch(&b[..(self.rules.1 as usize).min(b.len())]);
    }

    /// Whether `resp` is the response `{"id":<id>,"final":<expected>}` with the `id` token
    /// and the `expected` text of `line` (read with these spans) verbatim, when that response
    /// passes (it then reads as the vector's expected registers, all defined: see
    /// [`super::compare::plainly_equal`]).
    pub fn passes_verbatim(&self, line: &str, resp: &[u8]) -> bool {
        const ID: &[u8] = b"{\"id\":";
        const FINAL: &[u8] = b",\"final\":";
        if !self.verbatim {
            return false;
        }
        let part = |s: (u32, u32)| &line.as_bytes()[s.0 as usize..s.1 as usize];
        let (id, exp) = (part(self.id), part(self.expected));
        resp.len() == ID.len() + id.len() + FINAL.len() + exp.len() + 1
            && resp.starts_with(ID)
            && resp.ends_with(b"}")
            && resp[ID.len()..].starts_with(id)
            && resp[ID.len() + id.len()..].starts_with(FINAL)
            && &resp[ID.len() + id.len() + FINAL.len()..resp.len() - 1] == exp
    }
}

/// Whether the `expected` registers of a plain line pass when a response repeats them
/// ([`Spans::verbatim`]).
fn verbatim(v: &VectorView) -> bool {
    let hex =
        |h: &str| h.len() % 2 == 0 && h.bytes().fold(true, |ok, c| ok & c.is_ascii_hexdigit());
    // (A vector that expects nothing checks nothing: it never passes.)
    !v.expected.is_empty()
        && v.undefined.is_empty()
        && v.expected
            .iter()
            .enumerate()
            .all(|(k, (reg, h))| hex(h) && v.expected[..k].iter().all(|(r, _)| r != reg))
}

/// Append the request line for the vector `v` read from `line` with `spans` (as
/// [`VectorView::write_request`] writes it): in the golden layout (ASCII, plain: no string
/// needs escaping), the parts the request repeats are copied from the line.
pub fn write_request_from(line: &str, spans: &Spans, v: &VectorView, out: &mut Vec<u8>) {
    let Some((head, tail)) = spans.request else {
        v.write_request(out);
        return;
    };
    let part = |s: (u32, u32)| &line.as_bytes()[s.0 as usize..s.1 as usize];
    out.push(b'{');
    out.extend_from_slice(part(head));
    out.extend_from_slice(part(tail));
    out.extend_from_slice(b",\"report\":[");
    for (k, (name, _)) in v.expected.iter().enumerate() {
        if k > 0 {
            out.push(b',');
        }
        out.push(b'"');
        out.extend_from_slice(name.as_bytes());
        out.push(b'"');
    }
    out.extend_from_slice(b"]}\n");
}

impl<'a> VectorView<'a> {
    /// Read a vector line (the same fields serde requires of a [`Vector`]).
    pub fn parse(line: &'a str) -> Result<VectorView<'a>, JsonError> {
        Self::parse_spans(line).map(|(v, _)| v)
    }

    /// The fields of a line that [`VectorView::parse_spans`] read, read again from `spans`
    /// (`gen`, `bytes` and `initial` are left empty: the request is sent by then; `dst` and
    /// `alternatives` too unless `full`).
    pub fn reread(line: &'a str, spans: &Spans, full: bool) -> Result<VectorView<'a>, JsonError> {
        let part =
            |s: (u32, u32)| Lexer::with_plain(&line[s.0 as usize..s.1 as usize], spans.plain);
        let mut v = Self::reread_head(line, spans)?;
        map_into(&mut part(spans.expected), &mut v.expected)?;
        if spans.undefined.1 > 0 {
            map_into(&mut part(spans.undefined), &mut v.undefined)?;
        }
        if full && spans.dst.1 > 0 && line.as_bytes()[spans.dst.0 as usize] == b'{' {
            v.dst = Some(dst(&mut part(spans.dst))?);
        }
        if full && spans.alternatives.1 > 0 {
            part(spans.alternatives).array(|l| {
                v.alternatives.push(alternative(l)?);
                Ok(())
            })?;
        }
        Ok(v)
    }

    /// The `id`, `op`, `insn` and `rules` of a line that [`VectorView::parse_spans`] read
    /// (the rest left empty: what the report and the summary need of a vector that passed).
    pub fn reread_head(line: &'a str, spans: &Spans) -> Result<VectorView<'a>, JsonError> {
        let part =
            |s: (u32, u32)| Lexer::with_plain(&line[s.0 as usize..s.1 as usize], spans.plain);
        // A string token of a plain line has no escapes: its body is between the quotes.
        let body = |s: (u32, u32)| match spans.plain && s.1 >= s.0 + 2 {
            true => Ok(Cow::Borrowed(&line[s.0 as usize + 1..s.1 as usize - 1])),
            false => part(s).string(),
        };
        Ok(VectorView {
            id: body(spans.id)?,
            gen: Cow::Borrowed(""),
            op: body(spans.op)?,
            insn: body(spans.insn)?,
            bytes: Cow::Borrowed(""),
            initial_raw: Cow::Borrowed("{}"),
            expected: Vec::new(),
            undefined: Vec::new(),
            dst: None,
            alternatives: Vec::new(),
            rules_raw: Cow::Borrowed(&line[spans.rules.0 as usize..spans.rules.1 as usize]),
        })
    }

    /// [`VectorView::parse`], and where the fields are.
    pub fn parse_spans(line: &'a str) -> Result<(VectorView<'a>, Spans), JsonError> {
        Self::parse_spans_known(line, &mut KnownFields::default())
    }

    /// [`VectorView::parse_spans`] with the `rules`, `dst` and `alternatives` values of
    /// earlier lines (`known`): a line that repeats one has it taken whole, and a known `dst`
    /// or `alternatives` is left unread (`None`, empty; [`VectorView::reread`] reads them).
    pub fn parse_spans_known(
        line: &'a str,
        known: &mut KnownFields,
    ) -> Result<(VectorView<'a>, Spans), JsonError> {
        Self::parse_spans_hinted(line, known, None)
    }

    /// [`VectorView::parse_spans_known`] for a line already found ASCII and plain
    /// (`Some(true)`, [`super::json::is_plain_ascii`]) or not (`Some(false)`), or not checked
    /// (`None`). An ASCII plain line written as `euref golden` writes it (its keys in order,
    /// no blanks) is read key after key ([`layout`]); any other line, or one that reader does
    /// not take, is read as an object with its keys in any order.
    pub fn parse_spans_hinted(
        line: &'a str,
        known: &mut KnownFields,
        plain_ascii: Option<bool>,
    ) -> Result<(VectorView<'a>, Spans), JsonError> {
        if line.len() > u32::MAX as usize {
            return Err("line too long".into());
        }
        let mut read = match plain_ascii {
            Some(true) => match layout(line, known) {
                Some(x) => Ok(x),
                None => Self::parse_object(line, Lexer::with_plain(line, true), known),
            },
            _ => Self::parse_object(line, Lexer::checked(line), known),
        };
        // (Set in place: the view is large to move.)
        if let Ok((v, sp)) = &mut read {
            sp.verbatim = sp.plain && verbatim(v);
        }
        read
    }

    /// Read a vector line as an object with its keys in any order.
    fn parse_object(
        line: &'a str,
        mut l: Lexer<'a>,
        known: &mut KnownFields,
    ) -> Result<(VectorView<'a>, Spans), JsonError> {
        let mut sp = Spans::default();
        let span = |raw: &str| span_in(line, raw);
        sp.plain = l.is_plain();
        let (mut v, mut id, mut gen, mut op, mut insn, mut bytes) =
            (false, None, None, None, None, None);
        let (mut initial_raw, mut rules_raw, mut classes) = (None, None, false);
        let (mut expected, mut undefined) = (None, Vec::new());
        let (mut dstv, mut alternatives) = (None, Vec::new());
        // Keys seen, one bit each: a key given twice is an error, as serde's reading of a
        // [`Vector`] makes it.
        let mut seen = 0u16;
        l.object(|l, key| {
            once(&mut seen, &KEYS, &key, l)?;
            match key.as_ref() {
                "v" => {
                    sp.version = l.u32()?;
                    v = true;
                }
                "id" => {
                    let mut x = None;
                    sp.id = span(l.spanned(|l| l.string().map(|s| x = Some(s)))?);
                    id = x;
                }
                "gen" => gen = Some(l.string()?),
                "op" => {
                    let mut x = None;
                    sp.op = span(l.spanned(|l| l.string().map(|s| x = Some(s)))?);
                    op = x;
                }
                "insn" => {
                    let mut x = None;
                    sp.insn = span(l.spanned(|l| l.string().map(|s| x = Some(s)))?);
                    insn = x;
                }
                "bytes" => bytes = Some(l.string()?),
                "initial" => {
                    let mut names = Vec::new();
                    initial_raw = Some(l.spanned(|l| {
                        l.string_map(|k, _| {
                            names.push(k);
                            Ok(())
                        })
                    })?);
                    given_once(names.iter().map(|k| k.as_ref()), "initial")?;
                }
                "expected" => {
                    let mut e = Vec::new();
                    sp.expected = span(l.spanned(|l| map_into(l, &mut e))?);
                    given_once(e.iter().map(|(k, _)| k.as_ref()), "expected")?;
                    expected = Some(e);
                }
                "undefined" => {
                    sp.undefined = span(l.spanned(|l| map_into(l, &mut undefined))?);
                    given_once(undefined.iter().map(|(k, _)| k.as_ref()), "undefined")?;
                }
                "dst" => (sp.dst, dstv, _) = read_dst(l, line, known)?,
                "alternatives" => {
                    sp.alternatives = read_alternatives(l, line, known, &mut alternatives)?.0
                }
                "rules" => {
                    let (r, id) = l.string_array_known(&mut known.rules, &mut known.rule_sets)?;
                    sp.rules_id = id;
                    sp.rules = span(r);
                    rules_raw = Some(r);
                }
                "classes" => {
                    string_array(l)?;
                    classes = true;
                }
                _ => {
                    l.value()?;
                }
            }
            Ok(())
        })?;
        l.end()?;
        if !v {
            return Err(missing("v"));
        }
        if !classes {
            return Err(missing("classes"));
        }
        let v = VectorView {
            id: id.ok_or_else(|| missing("id"))?,
            gen: gen.ok_or_else(|| missing("gen"))?,
            op: op.ok_or_else(|| missing("op"))?,
            insn: insn.ok_or_else(|| missing("insn"))?,
            bytes: bytes.ok_or_else(|| missing("bytes"))?,
            initial_raw: Cow::Borrowed(initial_raw.ok_or_else(|| missing("initial"))?),
            expected: expected.ok_or_else(|| missing("expected"))?,
            undefined,
            dst: dstv,
            alternatives,
            rules_raw: Cow::Borrowed(rules_raw.ok_or_else(|| missing("rules"))?),
        };
        Ok((v, sp))
    }

    /// A view of an owned vector.
    pub fn from_vector(v: &'a Vector) -> VectorView<'a> {
        let pairs = |m: &'a std::collections::BTreeMap<String, String>| {
            m.iter()
                .map(|(k, v)| (Cow::Borrowed(k.as_str()), Cow::Borrowed(v.as_str())))
                .collect()
        };
        VectorView {
            id: Cow::Borrowed(&v.id),
            gen: Cow::Borrowed(&v.gen),
            op: Cow::Borrowed(&v.op),
            insn: Cow::Borrowed(&v.insn),
            bytes: Cow::Borrowed(&v.bytes),
            initial_raw: Cow::Owned(serde_json::to_string(&v.initial).unwrap_or_default()),
            expected: pairs(&v.expected),
            undefined: pairs(&v.undefined),
            dst: v.dst.as_ref().map(|d| DstView {
                reg: Cow::Borrowed(&d.reg),
                offset: d.offset,
                ty: Cow::Borrowed(&d.ty),
                stride: d.stride,
            }),
            alternatives: v
                .alternatives
                .iter()
                .map(|a| AltView {
                    kind: a.kind,
                    reg: Cow::Borrowed(&a.reg),
                    offset: a.offset,
                    ty: Cow::Borrowed(&a.ty),
                    ulps: a.ulps,
                    abs: a.abs,
                    bits: a.bits.as_deref().and_then(|b| alt_bits(b).ok()),
                })
                .collect(),
            rules_raw: Cow::Owned(serde_json::to_string(&v.rules).unwrap_or_default()),
        }
    }

    /// A stand-in for a line that is not a vector (reported as `bad_vector`).
    pub fn placeholder(id: String) -> VectorView<'static> {
        VectorView {
            id: Cow::Owned(id),
            gen: Cow::Borrowed(""),
            op: Cow::Borrowed("?"),
            insn: Cow::Borrowed(""),
            bytes: Cow::Borrowed(""),
            initial_raw: Cow::Borrowed("{}"),
            expected: Vec::new(),
            undefined: Vec::new(),
            dst: None,
            alternatives: Vec::new(),
            rules_raw: Cow::Borrowed("[]"),
        }
    }

    /// The spec IDs (and grid cells) the vector exercises.
    pub fn rules(&self) -> Vec<String> {
        serde_json::from_str(&self.rules_raw).unwrap_or_default()
    }

    /// Append the request line for this vector (conformance/PROTOCOL.md), newline included.
    pub fn write_request(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"id\":");
        push_string(out, &self.id);
        out.extend_from_slice(b",\"gen\":");
        push_string(out, &self.gen);
        out.extend_from_slice(b",\"insn\":");
        push_string(out, &self.insn);
        out.extend_from_slice(b",\"bytes\":");
        push_string(out, &self.bytes);
        out.extend_from_slice(b",\"initial\":");
        out.extend_from_slice(self.initial_raw.as_bytes());
        out.extend_from_slice(b",\"report\":[");
        for (k, (name, _)) in self.expected.iter().enumerate() {
            if k > 0 {
                out.push(b',');
            }
            push_string(out, name);
        }
        out.extend_from_slice(b"]}\n");
    }
}

impl<'a> ResponseView<'a> {
    /// Read a response line from its bytes: one written as `euref sim` writes it
    /// (`{"id":..,"final":{..}}` or `{"id":..}`, ASCII, plain, no blanks) key after key, any
    /// other as [`ResponseView::parse`] reads it (which reads those the same).
    pub fn parse_bytes(line: &'a [u8]) -> Result<ResponseView<'a>, JsonError> {
        if let Some(r) = super::json::plain_ascii_str(line).and_then(Self::layout) {
            return Ok(r);
        }
        std::str::from_utf8(line)
            .map_err(|e| e.to_string())
            .and_then(ResponseView::parse)
    }

    fn layout(line: &'a str) -> Option<ResponseView<'a>> {
        let mut l = Lexer::with_plain(line, true);
        l.lit(b"{\"id\":").then_some(())?;
        let raw = l.raw_string().ok()?;
        let mut fin = Vec::new();
        let has_final = l.lit(b",\"final\":");
        if has_final && !l.compact_map(|k, v| fin.push((Cow::Borrowed(k), Cow::Borrowed(v)))) {
            return None;
        }
        let mut inexact = Vec::new();
        if has_final
            && l.lit(b",\"inexact\":")
            && !l.compact_map(|k, v| inexact.push((Cow::Borrowed(k), Cow::Borrowed(v))))
        {
            return None;
        }
        (l.lit(b"}") && l.at_end()).then(|| ResponseView {
            id: Cow::Borrowed(&raw[1..raw.len() - 1]),
            fin,
            has_final,
            inexact,
            error: None,
            unmodelled: Vec::new(),
            ignored: Vec::new(),
        })
    }

    /// Read a response line (the same fields serde requires of a [`Response`]).
    pub fn parse(line: &'a str) -> Result<ResponseView<'a>, JsonError> {
        let mut l = Lexer::checked(line);
        let (mut id, mut fin, mut error) = (None, Vec::new(), None);
        let mut inexact = Vec::new();
        let (mut unmodelled, mut ignored) = (Vec::new(), Vec::new());
        let mut has_final = false;
        l.object(|l, key| {
            match key.as_ref() {
                "id" => id = Some(l.string()?),
                "final" => {
                    map_into(l, &mut fin)?;
                    has_final = true;
                }
                "error" => {
                    error = if l.peek() == Some(b'n') {
                        l.value()?;
                        None
                    } else {
                        Some(l.string()?)
                    }
                }
                "inexact" => map_into(l, &mut inexact)?,
                "unmodelled" => names(l, &mut unmodelled)?,
                "ignored" => names(l, &mut ignored)?,
                _ => {
                    l.value()?;
                }
            }
            Ok(())
        })?;
        l.end()?;
        Ok(ResponseView {
            id: id.ok_or_else(|| missing("id"))?,
            fin,
            has_final,
            inexact,
            error,
            unmodelled,
            ignored,
        })
    }

    /// A view of an owned response.
    pub fn from_response(r: &'a Response) -> ResponseView<'a> {
        ResponseView {
            id: Cow::Borrowed(&r.id),
            fin: r
                .fin
                .iter()
                .map(|(k, v)| (Cow::Borrowed(k.as_str()), Cow::Borrowed(v.as_str())))
                .collect(),
            // (An owned response omits an empty `final`: it has one when it holds a register.)
            has_final: !r.fin.is_empty(),
            inexact: (r.inexact.iter())
                .map(|(k, v)| (Cow::Borrowed(k.as_str()), Cow::Borrowed(v.as_str())))
                .collect(),
            error: r.error.as_deref().map(Cow::Borrowed),
            unmodelled: r
                .unmodelled
                .iter()
                .map(|s| Cow::Borrowed(s.as_str()))
                .collect(),
            ignored: r
                .ignored
                .iter()
                .map(|s| Cow::Borrowed(s.as_str()))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::protocol::Request;
    use crate::golden::{generate, GenConfig};
    use crate::spec::Platform;

    #[test]
    fn views_of_lines_match_views_of_parsed_vectors_and_requests_match() {
        let mut n = 0;
        let mut alts = 0;
        for p in [Platform::Ivb, Platform::Skl] {
            generate(&GenConfig::new(p, 5), 800, &mut std::io::sink(), |c| {
                for v in c.iter().flatten() {
                    let line = v.to_line();
                    let view = VectorView::parse(&line).unwrap();
                    let mut owned = VectorView::from_vector(v);
                    assert_eq!(view.rules_raw, owned.rules_raw);
                    assert_eq!(view.initial_raw, owned.initial_raw);
                    owned.initial_raw = view.initial_raw.clone();
                    assert_eq!(view, owned);
                    assert_eq!(view.rules(), v.rules);
                    let (_, spans) = VectorView::parse_spans(&line).unwrap();
                    let again = VectorView::reread(&line, &spans, true).unwrap();
                    let light = VectorView::reread(&line, &spans, false).unwrap();
                    assert_eq!((light.dst, light.alternatives.len()), (None, 0));
                    assert_eq!(light.expected, view.expected);
                    assert_eq!(
                        (&again.id, &again.op, &again.insn, &again.rules_raw),
                        (&view.id, &view.op, &view.insn, &view.rules_raw)
                    );
                    assert_eq!(
                        (
                            &again.expected,
                            &again.undefined,
                            &again.dst,
                            &again.alternatives
                        ),
                        (
                            &view.expected,
                            &view.undefined,
                            &view.dst,
                            &view.alternatives
                        )
                    );
                    let mut req = Vec::new();
                    view.write_request(&mut req);
                    let want = format!("{}\n", Request::from_vector(v).to_line());
                    assert_eq!(String::from_utf8(req).unwrap(), want);
                    alts += v.alternatives.len();
                    n += 1;
                }
            })
            .unwrap();
        }
        assert!(n > 1500 && alts > 100, "{n} vectors, {alts} alternatives");
    }

    /// The lines of `n` golden vectors.
    fn golden_lines(p: Platform, seed: u64, n: u64) -> Vec<String> {
        let mut lines = Vec::new();
        generate(&GenConfig::new(p, seed), n, &mut std::io::sink(), |c| {
            lines.extend(c.iter().flatten().map(|v| v.to_line()));
        })
        .unwrap();
        lines
    }

    /// A response that repeats a vector's id and expected text is taken as a pass only where
    /// reading it and comparing gives a pass: the simulator's own answers (most pass
    /// verbatim), the same with a changed byte, and lines whose expected registers repeat a
    /// name, are not hex, or have undefined bytes.
    #[test]
    fn verbatim_passes_are_passes() {
        use crate::conformance::compare::{compare_view, Outcome};
        let mut lines = golden_lines(Platform::Skl, 17, 600);
        let n = lines.len();
        for k in 0..n / 4 {
            let l = &lines[k * 4];
            let changed = match k % 4 {
                0 => l.replacen(
                    "\"expected\":{",
                    "\"expected\":{\"r1\":\"00\",\"r1\":\"01\",",
                    1,
                ),
                1 => l.replacen("\"expected\":{\"r", "\"expected\":{\"f1\":\"0z\",\"r", 1),
                2 => l.replacen(",\"dst\":", ",\"undefined\":{\"r1\":\"00\"},\"dst\":", 1),
                _ => l.replacen("\"expected\":{", "\"expected\":{\"r1\":\"001\",", 1),
            };
            lines.push(changed);
        }
        let mut sim = crate::conformance::sim::Simulator::new(None);
        let (mut verbatim, mut other) = (0, 0);
        for line in &lines {
            let Ok((v, spans)) = VectorView::parse_spans(line) else {
                continue;
            };
            let mut req = Vec::new();
            write_request_from(line, &spans, &v, &mut req);
            let mut answer = Vec::new();
            sim.handle(&req[..req.len() - 1], &mut answer);
            // The answer, one with the expected text (a simulator that agrees), and both with
            // a byte changed.
            let id = &line[spans.id.0 as usize..spans.id.1 as usize];
            let exp = &line[spans.expected.0 as usize..spans.expected.1 as usize];
            let agreeing = format!("{{\"id\":{id},\"final\":{exp}}}").into_bytes();
            let mut responses = vec![answer[..answer.len() - 1].to_vec(), agreeing];
            for r in responses.clone() {
                for at in [0, r.len() / 2, r.len() - 2] {
                    let mut c = r.clone();
                    c[at] ^= 1;
                    responses.push(c);
                }
            }
            let full = VectorView::reread(line, &spans, true).unwrap();
            for r in &responses {
                if spans.passes_verbatim(line, r) {
                    let rv = ResponseView::parse_bytes(r).unwrap();
                    assert_eq!(rv.id, full.id, "{line}");
                    assert_eq!(compare_view(&full, &rv), Outcome::Pass, "{line}");
                    verbatim += 1;
                } else {
                    other += 1;
                }
            }
        }
        assert!(verbatim > n / 2 && other > 4 * n, "{verbatim} {other}");
    }

    #[test]
    fn lines_in_the_golden_layout_read_as_objects_read() {
        // Golden lines (taken by `layout`) and changed ones (keys moved, blanks, escapes,
        // missing or extra keys, `null` dst, non-ASCII): read with the layout hint and without,
        // each reader with its own known values, they give the same views, spans and requests.
        let mut lines = Vec::new();
        for p in [Platform::Ivb, Platform::Skl] {
            generate(&GenConfig::new(p, 13), 700, &mut std::io::sink(), |c| {
                lines.extend(c.iter().flatten().map(|v| v.to_line()));
            })
            .unwrap();
        }
        let n = lines.len();
        for k in 0..n / 3 {
            let l = &lines[k * 3];
            let changed = match k % 10 {
                0 => l
                    .replacen("{\"v\":2,", "{", 1)
                    .replacen("}", ",\"v\":2}", 1),
                1 => l.replacen("\"op\":", "\"op\": ", 1),
                2 => l.replacen("\"id\":\"", "\"id\":\"\\u0041", 1),
                3 => l.replacen(",\"classes\":", ",\"x\":[1,{}],\"classes\":", 1),
                4 => l.replacen("\"dst\":{", "\"dst\":null,\"y\":{", 1),
                5 => l.replacen("\"insn\":\"", "\"insn\":\"é", 1),
                6 => format!("{l} "),
                7 => l.replacen("\"initial\":{\"", "\"initial\":{ \"", 1),
                8 => l.replacen("\"expected\":{", "\"expected\":{\"r1\":\"00\",", 1),
                _ => l.replacen(",\"classes\":[", ",\"classes\":[\"a\"],\"z\":[", 1),
            };
            lines.push(changed);
        }
        let (mut fast, mut general) = (KnownFields::default(), KnownFields::default());
        let (mut taken, mut errors) = (0, 0);
        for line in &lines {
            let hint = crate::conformance::json::is_plain_ascii(line.as_bytes());
            let a = VectorView::parse_spans_hinted(line, &mut fast, Some(hint));
            let b = VectorView::parse_spans_hinted(line, &mut general, None);
            match (a, b) {
                (Ok((v, mut sv)), Ok((w, sw))) => {
                    assert_eq!(v, w, "{line}");
                    let (mut req_a, mut req_b) = (Vec::new(), Vec::new());
                    write_request_from(line, &sv, &v, &mut req_a);
                    w.write_request(&mut req_b);
                    assert_eq!(req_a, req_b, "{line}");
                    taken += usize::from(sv.request.is_some());
                    sv.request = None;
                    assert_eq!(sv, sw, "{line}");
                }
                (Err(a), Err(b)) => {
                    assert_eq!(a, b, "{line}");
                    errors += 1;
                }
                (a, b) => panic!("{line}: {a:?} {b:?}"),
            }
        }
        assert!(taken > n * 9 / 10 && taken < lines.len() - 200, "{taken}");
        assert!(errors > 20, "{errors}");
    }

    #[test]
    fn responses_in_the_sim_layout_read_as_parse_reads_them() {
        let id = "\"id\":\"skl-1-2\"";
        let hex = "00ff".repeat(16);
        for line in [
            format!("{{{id},\"final\":{{\"f0\":\"0100\",\"r10\":\"{hex}\"}}}}"),
            format!("{{{id}}}"),
            format!("{{{id},\"final\":{{}}}}"),
            format!("{{{id},\"final\":{{ \"r1\":\"00\"}}}}"),
            format!("{{{id},\"final\":{{\"r1\":\"00\"}},\"error\":null}}"),
            format!("{{{id},\"error\":\"bad\"}}"),
            format!("{{{id},\"final\":{{\"r1\":\"é\"}}}}"),
            format!("{{{id},\"final\":{{\"r1\":\"00\"}}}} "),
            format!("{{{id},\"final\":{{\"r1\":\"00\"}}}}x"),
            format!("{{{id},\"final\":{{\"r1\":0}}}}"),
            format!("{{{id},\"final\":{{\"r1\":\"a\\\"b\"}}}}"),
            "{\"final\":{}}".to_string(),
            "{\"id\":\"a".to_string(),
        ] {
            let fast = ResponseView::parse_bytes(line.as_bytes());
            let general = ResponseView::parse(&line);
            assert_eq!(fast, general, "{line}");
        }
        assert!(ResponseView::parse_bytes(b"{\"id\":\"\xff\"}").is_err());
    }

    #[test]
    fn a_line_serde_rejects_is_rejected() {
        let v: Vector = serde_json::from_str(&{
            let mut s = String::new();
            generate(
                &GenConfig::new(Platform::Skl, 1),
                1,
                &mut std::io::sink(),
                |c| s = c[0].as_ref().unwrap().to_line(),
            )
            .unwrap();
            s
        })
        .unwrap();
        let line = v.to_line();
        for (from, to) in [
            ("\"v\":2,", ""),
            ("\"rules\":[", "\"rules\":[1,"),
            ("\"expected\":{", "\"expected\":{\"r1\":2,"),
            ("\"initial\":{", "\"initial\":{\"r1\":[],"),
            ("}", "},"),
            // Issue 26 (found by tests/fuzz): what the fast readers took and serde refuses.
            // A key given twice, at the top and in `dst`.
            ("\"op\":", "\"op\":\"x\",\"op\":"),
            ("\"dst\":{", "\"dst\":{\"stride\":1,"),
            // A register given twice in `initial`, `expected`.
            ("\"initial\":{", "\"initial\":{\"f0\":\"00000000\","),
            ("\"expected\":{", "\"expected\":{\"f1\":\"00000000\","),
            // An invalid escape in a string read without decoding it.
            ("\"rules\":[\"", "\"rules\":[\"\\q"),
            // A u32 written as a float.
            ("\"stride\":", "\"stride\":-0,\"x\":"),
            ("\"stride\":", "\"stride\":1.0,\"x\":"),
        ] {
            assert!(line.contains(from), "the test's vector has no {from}");
            let bad = line.replacen(from, to, 1);
            assert!(serde_json::from_str::<Vector>(&bad).is_err(), "{bad}");
            assert!(VectorView::parse(&bad).is_err(), "{bad}");
            // (And through the reader of any layout: a blank after the first brace.)
            let spaced = bad.replacen('{', "{ ", 1);
            assert!(VectorView::parse(&spaced).is_err(), "{spaced}");
        }
    }

    #[test]
    fn responses_parse_like_serde() {
        let r = r#"{"id":"a","final":{"r1":"00","r1":"ff","f0":"xx"},"error":null,"x":[]}"#;
        let v = ResponseView::parse(r).unwrap();
        let o: Response = serde_json::from_str(r).unwrap();
        assert_eq!(v.id, o.id);
        assert_eq!(lookup(&v.fin, "r1"), Some("ff"));
        assert_eq!(lookup(&v.fin, "f0"), o.fin.get("f0").map(String::as_str));
        assert_eq!(v.error, None);
        for bad in [
            "{\"final\":{}}",
            "{\"id\":\"a\",\"final\":[]}",
            "not json",
            "{\"id\":\"a\"} x",
        ] {
            assert!(serde_json::from_str::<Response>(bad).is_err());
            assert!(ResponseView::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn known_values_read_as_a_fresh_read_does() {
        // Lines that share `rules` arrays (learned, then taken whole), and lines whose rules
        // hold `]`, `"]`-like ends, blanks or escapes, or are not arrays of strings: with the
        // arrays known from earlier lines each line reads as it reads alone.
        let mut lines = golden_lines(Platform::Skl, 11, 300);
        let base = lines[0].clone();
        let rules_at = base.find("\"rules\":").unwrap() + "\"rules\":".len();
        let end = rules_at + base[rules_at..].find(']').unwrap() + 1;
        let with_rules = |r: &str| format!("{}{r}{}", &base[..rules_at], &base[end..]);
        for r in [
            r#"["a]","b"]"#,
            r#"["a","]"]"#,
            r#"["a","]","c"]"#,
            r#"["]"]"#,
            r#"["a"]"#,
            r#"["a" ]"#,
            r#"[ "a"]"#,
            r#"["a\"]"]"#,
            r#"["a",1]"#,
            r#"["a","#,
            r#"[]"#,
        ] {
            // Each twice: once learned, once known.
            lines.push(with_rules(r));
            lines.push(with_rules(r));
            // A known array as a prefix of a longer one.
            lines.push(with_rules(&r.replacen('[', r#"["a",1,"#, 1)));
        }
        // Objects with `}` or `}]` inside strings and after a known prefix.
        for (from, to) in [
            ("\"dst\":{", "\"dst\":{\"x\":\"}\","),
            ("\"dst\":{", "\"dst\":{\"x\":\"}]\","),
            ("\"stride\":1}", "\"stride\":1,\"x\":{}}"),
            ("\"stride\":1}", "\"stride\":1,\"x\":[]}"),
            ("\"stride\":1}", "\"stride\":\"1\"}"),
            (
                "\"alternatives\":[",
                "\"alternatives\":[{\"kind\":\"x}]\"},",
            ),
            ("\"alternatives\":[", "\"alternatives\":[{}],\"y\":["),
        ] {
            let changed: Vec<String> = lines[..40]
                .iter()
                .filter(|l| l.contains(from))
                .map(|l| l.replacen(from, to, 1))
                .collect();
            lines.extend(changed);
        }
        let mut known = KnownFields::default();
        let (mut hits, mut dst_hits, mut errors) = (0, 0, 0);
        for line in &lines {
            let before = known.rules.len();
            let fresh = VectorView::parse_spans(line);
            let seen = VectorView::parse_spans_known(line, &mut known);
            match (fresh, seen) {
                (Ok((v, mut sp)), Ok((mut w, sw))) => {
                    // A known dst or alternatives is left unread.
                    let text = |s: (u32, u32)| &line[s.0 as usize..s.1 as usize];
                    if known.dst.id(text(sw.dst)).is_some() && w.dst.is_none() {
                        w.dst = v.dst.clone();
                        dst_hits += 1;
                    }
                    if known.alternatives.id(text(sw.alternatives)).is_some() {
                        w.alternatives = v.alternatives.clone();
                    }
                    assert_eq!(v, w, "{line}");
                    assert_eq!(sw.rules_id, known.rules.id(&w.rules_raw), "{line}");
                    hits += usize::from(known.rules.len() == before && sw.rules_id.is_some());
                    sp.rules_id = sw.rules_id;
                    assert_eq!(sp, sw, "{line}");
                }
                (Err(a), Err(b)) => {
                    assert_eq!(a, b, "{line}");
                    errors += 1;
                }
                (a, b) => panic!("{line}: {a:?} {b:?}"),
            }
        }
        assert!(
            hits > 150 && dst_hits > 150 && errors >= 4,
            "{hits} {dst_hits} {errors}"
        );
    }

    /// A reply with inexact marks (as `euref sim` writes it) is read by the fast layout and
    /// by the general reader alike, marks included.
    #[test]
    fn replies_with_inexact_marks_are_read_by_both_readers() {
        let line = r#"{"id":"m","final":{"f0":"00000000","r10":"abaaaa3e00000000"},"inexact":{"r10":"ffffffff00000000"}}"#;
        let fast = ResponseView::layout(line).expect("the fast layout reads it");
        let slow = ResponseView::parse(line).unwrap();
        for r in [&fast, &slow] {
            assert_eq!(r.fin.len(), 2);
            assert_eq!(r.inexact.len(), 1);
            assert_eq!(r.inexact[0].0, "r10");
            assert_eq!(r.inexact[0].1, "ffffffff00000000");
        }
    }
}
