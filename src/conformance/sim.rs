//! `euref sim`: the reference model speaking the protocol.
//!
//! [`Simulator`] serves one request line at a time without building JSON trees: the request is
//! read with the borrowing reader of [`super::json`], the instruction decoded from its bytes,
//! one state per platform is reused (restored from the platform's default state before each
//! request), and the response is written into a reused buffer. A line the fast reader does
//! not accept is read again by serde_json, so every valid request is served and every invalid
//! one gets serde's error message. [`execute`] is the plain version (a fresh state per
//! request), kept as the reference the fast path is tested against.

use super::hex::{self, NIBBLE};
use super::inject::Fault;
use super::json::{plain_ascii_str, push_string, Lexer};
use super::protocol::{Request, Response};
use super::regs;
use crate::exec::{ExecOptions, Prepared};
use crate::isa::Insn;
use crate::spec::Platform;
use crate::state::ThreadState;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, Write};

/// Execute one request on a fresh default state.
pub fn execute(req: &Request, fault: Option<Fault>) -> Response {
    match try_execute(req, fault) {
        Ok((fin, inexact)) => Response {
            fin,
            inexact,
            error: None,
            ..Response::error(&req.id, String::new())
        },
        Err(e) => Response::error(&req.id, e),
    }
}

/// The error of a request that has neither an instruction text nor an encoding.
const NO_INSTRUCTION: &str =
    "the request has neither `insn` nor `bytes` (give either: conformance/PROTOCOL.md)";

fn instruction(req: &Request, p: Platform) -> Result<Insn, String> {
    if req.bytes.is_empty() && req.insn.is_empty() {
        return Err(NO_INSTRUCTION.into());
    }
    if !req.bytes.is_empty() {
        let b = regs::parse_hex_defined(&req.bytes).map_err(|e| format!("bytes: {e}"))?;
        return crate::codec::decode(&b, p)
            .map(|(i, _)| i)
            .map_err(|e| format!("bytes: {e}"));
    }
    crate::asm::parse_insn(&req.insn, crate::asm::Dialect::Iga, p).map_err(|e| format!("insn: {e}"))
}

/// The final registers of `report` and the inexact marks of those that have any.
type Final = (BTreeMap<String, String>, BTreeMap<String, String>);

fn try_execute(req: &Request, fault: Option<Fault>) -> Result<Final, String> {
    let p = Platform::parse(&req.gen).ok_or_else(|| format!("unknown gen `{}`", req.gen))?;
    let mut insn = instruction(req, p)?;
    let mut st = ThreadState::new(p);
    for (name, hex) in &req.initial {
        let bytes = regs::parse_hex(hex).map_err(|e| format!("initial.{name}: {e}"))?;
        regs::write(&mut st, name, &bytes).map_err(|e| format!("initial.{name}: {e}"))?;
    }
    if let Some(f) = fault {
        if let Some(e) = f.error() {
            return Err(e.into());
        }
        f.apply_insn(&mut insn);
    }
    let saved = fault.and_then(|f| f.apply_state(&mut st, &insn));
    crate::exec::step(&mut st, &insn).map_err(|e| e.to_string())?;
    if let Some(f) = fault {
        f.after_step(&mut st, saved);
    }
    let fin = req
        .report
        .iter()
        .map(|name| {
            let r = regs::read(&st, name).ok_or_else(|| format!("report: no register `{name}`"))?;
            let mut s = String::with_capacity(r.bytes.len() * 2);
            for (b, u) in r.bytes.iter().zip(&r.undef) {
                if *u == 0xff {
                    s.push_str("xx");
                } else {
                    s.push_str(&regs::to_hex(&[b & !u]));
                }
            }
            Ok((name.clone(), s))
        })
        .collect::<Result<BTreeMap<_, _>, String>>()?;
    let inexact = (fin.keys())
        .filter_map(|name| Some((name.clone(), crate::state::json::inexact_hex(&st, name)?)))
        .collect();
    Ok((fin, inexact))
}

/// The `id` of a request line that cannot be read as a request: the `id` of the JSON object
/// (a string, or a number or `true`/`false` as written), or else, in a line that is no JSON
/// (cut short, a bad escape or a control character somewhere), the value after the first
/// `"id":` of the text that is a string or one of those tokens. A string that is no valid
/// JSON string (a bad escape, a control character, a lone surrogate) is taken as written
/// between its quotes; the response writes it as a valid JSON string.
fn find_id(text: &str) -> Option<String> {
    if let Ok(serde_json::Value::Object(m)) = serde_json::from_str(text) {
        return match m.get("id")? {
            serde_json::Value::String(s) => Some(s.clone()),
            v @ (serde_json::Value::Number(_) | serde_json::Value::Bool(_)) => Some(v.to_string()),
            _ => None,
        };
    }
    let mut rest = text;
    while let Some(at) = rest.find("\"id\"") {
        rest = &rest[at + 4..];
        let after = rest.trim_start();
        let Some(value) = after.strip_prefix(':') else {
            continue;
        };
        let value = value.trim_start();
        let mut l = Lexer::checked(value);
        if let Ok(id) = l.string() {
            return Some(id.into_owned());
        }
        if let Some(id) = string_as_written(value).or_else(|| scalar_token(value)) {
            return Some(id);
        }
    }
    None
}

/// The text between the quotes of a string token at the start of `value` that is no valid
/// JSON string (it ends at the first quote that no backslash escapes).
fn string_as_written(value: &str) -> Option<String> {
    let body = value.strip_prefix('"')?;
    let mut escaped = false;
    for (i, c) in body.char_indices() {
        match c {
            '\\' => escaped = !escaped,
            '"' if !escaped => return Some(body[..i].to_string()),
            _ => escaped = false,
        }
    }
    None
}

/// A number or `true`/`false` at the start of `value`, as written.
fn scalar_token(value: &str) -> Option<String> {
    let end = value
        .find(|c: char| !(c.is_ascii_alphanumeric() || "+-.".contains(c)))
        .unwrap_or(value.len());
    let token = &value[..end];
    match serde_json::from_str::<serde_json::Value>(token) {
        Ok(serde_json::Value::Number(_) | serde_json::Value::Bool(_)) => Some(token.to_string()),
        _ => None,
    }
}

/// A request as borrowed text.
struct RequestView<'a> {
    /// The id token as written (echoed verbatim).
    id_raw: &'a str,
    gen: Cow<'a, str>,
    insn: Cow<'a, str>,
    bytes: Cow<'a, str>,
    initial: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    report: Vec<Cow<'a, str>>,
}

fn parse_request(line: &str) -> Result<RequestView<'_>, String> {
    let mut l = Lexer::checked(line);
    let (mut id, mut gen, mut insn, mut bytes) = (None, None, None, None);
    // Room for a vector's registers at once (no regrowing while reading).
    let mut initial = Vec::with_capacity(16);
    let (mut has_initial, mut report) = (false, None);
    // A key given twice is an error, as serde's reading of a [`Request`] makes it.
    let mut seen = [false; 6];
    l.object(|l, key| {
        let slot = ["id", "gen", "insn", "bytes", "initial", "report"]
            .iter()
            .position(|k| *k == key.as_ref());
        if let Some(k) = slot {
            if std::mem::replace(&mut seen[k], true) {
                return Err(format!("duplicate field `{key}`"));
            }
        }
        match key.as_ref() {
            "id" => id = Some(l.raw_string()?),
            "gen" => gen = Some(l.string()?),
            "insn" => insn = Some(l.string()?),
            "bytes" => bytes = Some(l.string()?),
            "initial" => {
                has_initial = true;
                l.string_map(|k, v| {
                    initial.push((k, v));
                    Ok(())
                })?
            }
            "report" => {
                let mut r = Vec::with_capacity(4);
                l.array(|l| {
                    r.push(l.string()?);
                    Ok(())
                })?;
                report = Some(r);
            }
            _ => {
                l.value()?;
            }
        }
        Ok(())
    })?;
    l.end()?;
    let missing = |k: &str| format!("missing field `{k}`");
    Ok(RequestView {
        id_raw: id.ok_or_else(|| missing("id"))?,
        gen: gen.ok_or_else(|| missing("gen"))?,
        // (Either may be absent: the other gives the instruction.)
        insn: insn.unwrap_or_default(),
        bytes: bytes.unwrap_or_default(),
        initial: if has_initial {
            initial
        } else {
            return Err(missing("initial"));
        },
        report: report.ok_or_else(|| missing("report"))?,
    })
}

/// Registers of a request read by [`parse_request_layout`] at most (more: the general reader).
const LAYOUT_REGS: usize = 16;

/// A request in the layout `euref check` writes, borrowed from the line.
#[derive(Default)]
struct LayoutRequest<'a> {
    id_raw: &'a str,
    gen: &'a str,
    insn: &'a str,
    bytes: &'a str,
    initial: [(&'a str, &'a str); LAYOUT_REGS],
    n_initial: usize,
    report: [&'a str; LAYOUT_REGS],
    n_report: usize,
}

/// A request line that is ASCII and plain ([`super::json::plain_ascii_str`]) and written as
/// `euref check` writes it (`{"id":..,"gen":..,"insn":..,"bytes":..,"initial":{..},"report":[..]}`,
/// no blanks), read key after key into `r`. `None`: anything else (the general reader, which
/// reads such a line the same, decides).
fn parse_request_layout<'a>(line: &'a str, r: &mut LayoutRequest<'a>) -> Option<()> {
    fn body(raw: &str) -> &str {
        &raw[1..raw.len() - 1]
    }
    let mut l = Lexer::with_plain(line, true);
    l.lit(b"{\"id\":").then_some(())?;
    r.id_raw = l.raw_string().ok()?;
    l.lit(b",\"gen\":").then_some(())?;
    r.gen = body(l.raw_string().ok()?);
    l.lit(b",\"insn\":").then_some(())?;
    r.insn = body(l.raw_string().ok()?);
    l.lit(b",\"bytes\":").then_some(())?;
    r.bytes = body(l.raw_string().ok()?);
    l.lit(b",\"initial\":").then_some(())?;
    let mut room = true;
    let read = l.compact_map(|k, v| match r.initial.get_mut(r.n_initial) {
        Some(slot) => {
            *slot = (k, v);
            r.n_initial += 1;
        }
        None => room = false,
    });
    if !(read && room) {
        return None;
    }
    l.lit(b",\"report\":[").then_some(())?;
    if !l.lit(b"]") {
        loop {
            let name = body(l.raw_string().ok()?);
            *r.report.get_mut(r.n_report)? = name;
            r.n_report += 1;
            if l.lit(b"]") {
                break;
            }
            l.lit(b",").then_some(())?;
        }
    }
    (l.lit(b"}") && l.at_end()).then_some(())
}

/// One byte of hex: `Some(Some(v))`, `Some(None)` for `xx`, `None` for anything else.
#[inline]
fn hex_byte(p: &[u8]) -> Option<Option<u8>> {
    let (h, l) = (NIBBLE[usize::from(p[0])], NIBBLE[usize::from(p[1])]);
    if (h | l) < 16 {
        Some(Some(h << 4 | l))
    } else if p.eq_ignore_ascii_case(b"xx") {
        Some(None)
    } else {
        None
    }
}

/// Decode hex into `out` (`xx`: `None`); false on anything else.
fn decode_hex(hex: &str, out: &mut Vec<Option<u8>>) -> bool {
    out.clear();
    let b = hex.as_bytes();
    if b.len() % 2 != 0 {
        return false;
    }
    for p in b.chunks_exact(2) {
        match hex_byte(p) {
            Some(v) => out.push(v),
            None => return false,
        }
    }
    true
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Prepared instructions kept per platform before the cache is emptied. Golden vectors repeat
/// each instruction every few dozen vectors: on 100 000 Skylake vectors 1 024 entries (a few
/// MB) hit 84 % of the time, 8 192 (about 30 MB) only 85 %.
const PREPARED_CAP: usize = 1 << 10;

/// A default state, the working copy restored from it, and the instructions already prepared
/// for the platform (fault applied), by their encoding's hex text and by their IGA text.
struct PlatformState {
    default: ThreadState,
    work: ThreadState,
    /// The GRF bytes `start..end` in which `work` may differ from `default` (its ARF
    /// registers are restored whole: a few hundred bytes).
    grf_dirty: (usize, usize),
    by_bytes: HashMap<Box<str>, Prepared, foldhash::fast::RandomState>,
    by_text: HashMap<Box<str>, Prepared, foldhash::fast::RandomState>,
}

/// Restore a working state to its platform's default: the GRF bytes `grf` (`start..end`, where
/// it may differ) and every ARF register (the float policy cache is kept: it is keyed by what
/// it was built for).
fn restore(w: &mut ThreadState, d: &ThreadState, grf: (usize, usize)) {
    let end = grf.1.min(w.grf.len()).min(d.grf.len());
    let start = grf.0.min(end);
    w.grf[start..end].copy_from_slice(&d.grf[start..end]);
    let (a, b) = (start / 64, end.div_ceil(64));
    w.grf_undef[a..b].copy_from_slice(&d.grf_undef[a..b]);
    w.arf.copy_from_slice(&d.arf);
    w.arf_undef.copy_from_slice(&d.arf_undef);
    w.acc.copy_from_slice(&d.acc);
    w.events = d.events;
    w.reset_inexact_from(d);
}

/// The union of two GRF byte ranges (`start >= end`: empty).
fn grow(a: (usize, usize), b: (usize, usize)) -> (usize, usize) {
    (a.0.min(b.0), a.1.max(b.1))
}

/// The instruction of a request: decoded from its bytes (hex, into the scratch buffers), or
/// assembled from its text when there are none.
fn instruction_of(
    insn_text: &str,
    bytes: &str,
    p: Platform,
    hex: &mut Vec<Option<u8>>,
    raw: &mut Vec<u8>,
) -> Result<Insn, String> {
    if bytes.is_empty() && insn_text.is_empty() {
        return Err(NO_INSTRUCTION.into());
    }
    if bytes.is_empty() {
        return crate::asm::parse_insn(insn_text, crate::asm::Dialect::Iga, p)
            .map_err(|e| format!("insn: {e}"));
    }
    raw.clear();
    let ok = decode_hex(bytes, hex) && hex.iter().all(Option::is_some) && {
        raw.extend(hex.iter().flatten());
        true
    };
    if !ok {
        let e = regs::parse_hex_defined(bytes).err().unwrap_or_default();
        return Err(format!("bytes: {e}"));
    }
    crate::codec::decode(raw, p)
        .map(|(i, _)| i)
        .map_err(|e| format!("bytes: {e}"))
}

/// `euref sim` with its reused state and buffers.
pub struct Simulator {
    fault: Option<Fault>,
    states: Vec<Option<PlatformState>>,
    /// The last platform and the name it was parsed from.
    platform: Option<(Platform, String)>,
    hex: Vec<Option<u8>>,
    bytes: Vec<u8>,
    /// Scratch: the reported registers' places in name order.
    order: Vec<usize>,
    /// Program requests' `trace` is ignored (`euref sim --no-trace`).
    no_trace: bool,
}

impl Simulator {
    pub fn new(fault: Option<Fault>) -> Simulator {
        Simulator {
            fault,
            states: Vec::new(),
            platform: None,
            hex: Vec::new(),
            bytes: Vec::new(),
            order: Vec::new(),
            no_trace: false,
        }
    }

    /// Ignore the `trace` of program requests (as a simulator without traces does).
    pub fn without_traces(mut self) -> Simulator {
        self.no_trace = true;
        self
    }

    /// Answer one request line (without its newline): the response line, newline included,
    /// is appended to `out`.
    pub fn handle(&mut self, line: &[u8], out: &mut Vec<u8>) {
        // A program request (`"kind"`: single-instruction requests have no such key).
        if memchr::memmem::find(line, b"\"kind\"").is_some() {
            if let Some(read) = super::program_protocol::read_program_request(line) {
                let r = match read {
                    Ok(mut req) => {
                        req.trace &= !self.no_trace;
                        super::program_run::execute(&req, self.fault)
                    }
                    Err(r) => r,
                };
                out.extend_from_slice(r.to_line().as_bytes());
                out.push(b'\n');
                return;
            }
        }
        let mut req = LayoutRequest::default();
        if plain_ascii_str(line).is_some_and(|t| parse_request_layout(t, &mut req).is_some()) {
            let names = req.initial[..req.n_initial].iter().map(|(k, _)| *k);
            if let Some(k) = crate::vector::unique_keys::repeated_name(names) {
                return given_twice(req.id_raw, k, out);
            }
            let initial = req.initial[..req.n_initial].iter().copied();
            let report = &req.report[..req.n_report];
            self.respond(
                req.id_raw, req.gen, req.insn, req.bytes, initial, report, out,
            );
            return;
        }
        let fast = std::str::from_utf8(line)
            .ok()
            .and_then(|s| parse_request(s).ok());
        if let Some(req) = fast {
            if let Some(k) = crate::vector::unique_keys::repeated_name(
                req.initial.iter().map(|(k, _)| k.as_ref()),
            ) {
                return given_twice(req.id_raw, k, out);
            }
            let initial = req.initial.iter().map(|(k, v)| (k.as_ref(), v.as_ref()));
            let (gen, insn, bytes) = (req.gen.as_ref(), req.insn.as_ref(), req.bytes.as_ref());
            self.respond(req.id_raw, gen, insn, bytes, initial, &req.report, out);
            return;
        }
        let text = String::from_utf8_lossy(line);
        // JSON text is UTF-8 (RFC 8259 §8.1): a line that is not is no request, even where
        // the bytes that are not UTF-8 sit in a field the answer would not read.
        let read = match std::str::from_utf8(line) {
            Ok(_) => serde_json::from_str::<Request>(&text).map_err(|e| e.to_string()),
            Err(e) => Err(format!(
                "the line is not UTF-8 (at byte offset {}, from 0)",
                e.valid_up_to()
            )),
        };
        match read {
            Ok(req) => {
                let id = serde_json::to_string(&req.id).unwrap_or_default();
                let initial = req.initial.iter().map(|(k, v)| (k.as_str(), v.as_str()));
                self.respond(
                    &id,
                    &req.gen,
                    &req.insn,
                    &req.bytes,
                    initial,
                    &req.report,
                    out,
                );
            }
            Err(e) => {
                // The id echoed when one can be found, so that the checker reports the error
                // for its vector.
                let id = find_id(&text).unwrap_or_default();
                let r = Response::error(&id, format!("bad request: {e}"));
                out.extend_from_slice(r.to_line().as_bytes());
                out.push(b'\n');
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn respond<'r>(
        &mut self,
        id_raw: &str,
        gen: &str,
        insn: &str,
        bytes: &str,
        initial: impl Iterator<Item = (&'r str, &'r str)>,
        report: &[impl AsRef<str>],
        out: &mut Vec<u8>,
    ) {
        let start = out.len();
        out.extend_from_slice(b"{\"id\":");
        out.extend_from_slice(id_raw.as_bytes());
        match self.run(gen, insn, bytes, initial, report, out) {
            Ok(()) => out.extend_from_slice(b"}\n"),
            Err(e) => {
                out.truncate(start);
                out.extend_from_slice(b"{\"id\":");
                out.extend_from_slice(id_raw.as_bytes());
                out.extend_from_slice(b",\"error\":");
                push_string(out, &e);
                out.extend_from_slice(b"}\n");
            }
        }
    }

    /// Execute and append `,"final":{...}` (nothing when `report` is empty).
    fn run<'r>(
        &mut self,
        gen: &str,
        insn_text: &str,
        bytes: &str,
        initial: impl Iterator<Item = (&'r str, &'r str)>,
        report: &[impl AsRef<str>],
        out: &mut Vec<u8>,
    ) -> Result<(), String> {
        // The platform of the previous request, when the name is the same.
        let p = match self.platform {
            Some((p, ref name)) if name == gen => p,
            _ => {
                let p = Platform::parse(gen).ok_or_else(|| format!("unknown gen `{gen}`"))?;
                self.platform = Some((p, gen.to_string()));
                p
            }
        };
        // The state.
        let i = p as usize;
        if self.states.len() <= i {
            self.states.resize_with(i + 1, || None);
        }
        let ps = self.states[i].get_or_insert_with(|| {
            let default = ThreadState::new(p);
            PlatformState {
                work: default.clone(),
                default,
                grf_dirty: (usize::MAX, 0),
                by_bytes: HashMap::default(),
                by_text: HashMap::default(),
            }
        });
        // The instruction: prepared once per encoding (or text).
        let (cache, key) = if bytes.is_empty() {
            (&mut ps.by_text, insn_text)
        } else {
            (&mut ps.by_bytes, bytes)
        };
        if !cache.contains_key(key) {
            let mut insn = instruction_of(insn_text, bytes, p, &mut self.hex, &mut self.bytes)?;
            if let Some(f) = self.fault {
                f.apply_insn(&mut insn);
            }
            if cache.len() >= PREPARED_CAP {
                cache.clear();
            }
            cache.insert(key.into(), Prepared::new(&ps.default, insn));
        }
        let pre = if bytes.is_empty() {
            &ps.by_text[insn_text]
        } else {
            &ps.by_bytes[bytes]
        };
        restore(&mut ps.work, &ps.default, ps.grf_dirty);
        // Until the instruction has run: all of the GRF (a fault or a failed step may write
        // anywhere).
        let all = (0, ps.work.grf.len());
        ps.grf_dirty = all;
        let mut dirty = (usize::MAX, 0);
        let st = &mut ps.work;
        for (name, hex) in initial {
            let grf = regs::grf_number(name);
            if let Some(n) = grf {
                // (What the writes below may change: register `n`.)
                let rb = st.grf_reg_bytes();
                dirty = grow(
                    dirty,
                    (n.saturating_mul(rb), n.saturating_add(1).saturating_mul(rb)),
                );
            }
            let fast = match grf {
                Some(n) => write_grf_hex(st, n, hex.as_bytes()),
                None => {
                    write_arf_hex(st, name, hex.as_bytes())
                        || (decode_hex(hex, &mut self.hex)
                            && write_reg(st, name, &self.hex).is_ok())
                }
            };
            if !fast {
                let bytes = regs::parse_hex(hex).map_err(|e| format!("initial.{name}: {e}"))?;
                regs::write(st, name, &bytes).map_err(|e| format!("initial.{name}: {e}"))?;
            }
        }
        if let Some(f) = self.fault {
            if let Some(e) = f.error() {
                return Err(e.into());
            }
        }
        let saved = self.fault.and_then(|f| f.apply_state(st, &pre.insn));
        let info = crate::exec::step_prepared(st, pre, &ExecOptions::default())
            .map_err(|e| e.to_string())?;
        if let Some(f) = self.fault {
            f.after_step(st, saved);
        }
        if self.fault.is_none() {
            ps.grf_dirty = grow(dirty, info.written.grf);
        }
        if report.is_empty() {
            return Ok(());
        }
        // Registers in name order, once each (the response's `final` is a map): their places
        // in `report`, in a reused buffer.
        let name = |k: usize| report[k].as_ref();
        let order = &mut self.order;
        order.clear();
        for k in 0..report.len() {
            if !readable(st, name(k)) {
                return Err(format!("report: no register `{}`", name(k)));
            }
            order.push(k);
        }
        order.sort_unstable_by(|&a, &b| name(a).cmp(name(b)));
        order.dedup_by(|a, b| name(*a) == name(*b));
        out.extend_from_slice(b",\"final\":{");
        for (k, name) in order.iter().map(|&k| name(k)).enumerate() {
            if k > 0 {
                out.push(b',');
            }
            push_string(out, name);
            out.extend_from_slice(b":\"");
            write_reg_hex(st, name, out);
            out.push(b'"');
        }
        out.push(b'}');
        // `,"inexact":{...}`: the reported registers with an inexact mark (row math.inexact),
        // in the same order; nothing when none has one.
        if st.has_inexact() {
            let mut first = true;
            for name in order.iter().map(|&k| name(k)) {
                let Some(mask) = crate::state::json::inexact_hex(st, name) else {
                    continue;
                };
                out.extend_from_slice(if first { &b",\"inexact\":{"[..] } else { b"," });
                first = false;
                push_string(out, name);
                out.push(b':');
                push_string(out, &mask);
            }
            if !first {
                out.push(b'}');
            }
        }
        Ok(())
    }
}

/// Write a register from decoded hex (as [`regs::write`] does, without its per-byte lookups).
fn write_reg(st: &mut ThreadState, name: &str, bytes: &[Option<u8>]) -> Result<(), ()> {
    if let Some(n) = regs::grf_number(name) {
        let rb = st.grf_reg_bytes();
        let o = n * rb;
        if o + rb > st.grf_size() || bytes.len() > rb {
            return Err(());
        }
        for (k, b) in bytes.iter().enumerate() {
            let a = o + k;
            match b {
                Some(v) => {
                    st.grf[a] = *v;
                    st.grf_undef[a / 64] &= !(1 << (a % 64));
                }
                None => st.grf_undef[a / 64] |= 1 << (a % 64),
            }
        }
        return Ok(());
    }
    if name == "null" || st.arf_index(name).is_none() {
        return Err(());
    }
    // Runs of defined bytes at once; undefined bytes keep their value.
    let mut k = 0;
    while k < bytes.len() {
        if bytes[k].is_none() {
            st.set_arf_undefined(name, k, 1).map_err(|_| ())?;
            k += 1;
            continue;
        }
        let mut run = [0u8; 64];
        let mut n = 0;
        while k + n < bytes.len() && n < run.len() {
            let Some(v) = bytes[k + n] else { break };
            run[n] = v;
            n += 1;
        }
        st.set_arf_bytes(name, k, &run[..n]).map_err(|_| ())?;
        k += n;
    }
    Ok(())
}

/// Write ARF register `name` from hex text whose every byte is a hex pair (at most 64 bytes)
/// at once, as [`regs::write`] does; false (nothing written) for anything else.
fn write_arf_hex(st: &mut ThreadState, name: &str, hex: &[u8]) -> bool {
    let mut buf = [0u8; 64];
    let n = hex.len() / 2;
    if hex.len() % 2 != 0 || n > buf.len() || name == "null" {
        return false;
    }
    hex::decode_into(hex, &mut buf[..n]) && st.set_arf_bytes(name, 0, &buf[..n]).is_ok()
}

/// Write GRF register `n` from hex text (as [`regs::write`] does); false on anything wrong.
fn write_grf_hex(st: &mut ThreadState, n: usize, hex: &[u8]) -> bool {
    let rb = st.grf_reg_bytes();
    let o = n * rb;
    if o + rb > st.grf_size() || hex.len() % 2 != 0 || hex.len() / 2 > rb {
        return false;
    }
    // Every byte a hex pair (the common case): decoded into a buffer, copied at once.
    let mut buf = [0u8; 64];
    let n = hex.len() / 2;
    if n <= buf.len() && hex::decode_into(hex, &mut buf[..n]) {
        st.grf[o..o + n].copy_from_slice(&buf[..n]);
        for (w, m) in bit_range(o, n) {
            st.grf_undef[w] &= !m;
        }
        return true;
    }
    // Undefined flags of the bytes written, set per bit below and stored per 64-bit word.
    let (mut word, mut defined, mut undefined) = (o / 64, 0u64, 0u64);
    for (k, p) in hex.chunks_exact(2).enumerate() {
        let a = o + k;
        if a / 64 != word {
            let w = &mut st.grf_undef[word];
            *w = (*w & !defined) | undefined;
            (word, defined, undefined) = (a / 64, 0, 0);
        }
        match hex_byte(p) {
            Some(Some(v)) => {
                st.grf[a] = v;
                defined |= 1 << (a % 64);
            }
            Some(None) => undefined |= 1 << (a % 64),
            None => return false,
        }
    }
    let w = &mut st.grf_undef[word];
    *w = (*w & !defined) | undefined;
    true
}

/// The words and masks of bits `from..from + len` of a bit array stored in 64-bit words (bit
/// `i % 64` of word `i / 64`).
fn bit_range(from: usize, len: usize) -> impl Iterator<Item = (usize, u64)> {
    let end = from + len;
    let mut i = from;
    std::iter::from_fn(move || {
        if i >= end {
            return None;
        }
        let (w, b) = (i / 64, i % 64);
        let n = (64 - b).min(end - i);
        i += n;
        Some((w, if n == 64 { !0 } else { ((1u64 << n) - 1) << b }))
    })
}

fn readable(st: &ThreadState, name: &str) -> bool {
    match regs::grf_number(name) {
        Some(n) => (n + 1) * st.grf_reg_bytes() <= st.grf_size(),
        None => st.arf_index(name).is_some(),
    }
}

/// Append the hex of a register (as [`regs::read`] gives it: `xx` for a wholly undefined
/// byte, undefined bits as 0 otherwise). The register must be [`readable`].
fn write_reg_hex(st: &ThreadState, name: &str, out: &mut Vec<u8>) {
    let mut put = |b: u8, u: u8| {
        if u == 0xff {
            out.extend_from_slice(b"xx");
        } else {
            let v = b & !u;
            out.push(HEX[usize::from(v >> 4)]);
            out.push(HEX[usize::from(v & 15)]);
        }
    };
    if let Some(n) = regs::grf_number(name) {
        let rb = st.grf_reg_bytes();
        let defined = bit_range(n * rb, rb).all(|(w, m)| st.grf_undef[w] & m == 0);
        if let (true, Ok(reg)) = (
            defined,
            <&[u8; 32]>::try_from(&st.grf[n * rb..(n + 1) * rb]),
        ) {
            // Wholly defined, 32 bytes: their hex by the vectorized writer, appended at once.
            let mut text = [0u8; 64];
            crate::vector::hex::hex_into(&mut text, reg);
            out.extend_from_slice(&text);
            return;
        }
        if rb <= 64 && defined {
            // Wholly defined: two digits per byte from a table, appended at once.
            let mut text = [0u8; 128];
            for (d, b) in text.chunks_exact_mut(2).zip(&st.grf[n * rb..(n + 1) * rb]) {
                d.copy_from_slice(&crate::vector::hex::HEX2[usize::from(*b)]);
            }
            out.extend_from_slice(&text[..2 * rb]);
            return;
        }
        for a in n * rb..(n + 1) * rb {
            let u = if (st.grf_undef[a / 64] >> (a % 64)) & 1 == 1 {
                0xff
            } else {
                0
            };
            put(st.grf[a], u);
        }
        return;
    }
    let Some(i) = st.arf_index(name) else { return };
    let r = &st.layout.regs[i];
    for k in 0..r.bytes {
        let d = r.base / 4 + k / 4;
        let und = st.arf_undef[d] | st.layout.read_undef[d];
        put(st.arf[r.base + k], (und >> (8 * (k % 4))) as u8);
    }
}

/// Serve requests from `input` until end of input; an unparsable line gets an error response
/// with an empty id. Output is flushed whenever no further request is already buffered. A
/// line that is whole in the input's buffer is answered from there (not copied out first).
pub fn serve<R: std::io::Read>(
    input: &mut std::io::BufReader<R>,
    out: &mut impl Write,
    fault: Option<Fault>,
) -> std::io::Result<()> {
    serve_with(input, out, Simulator::new(fault))
}

/// [`serve`] with a configured simulator.
pub fn serve_with<R: std::io::Read>(
    input: &mut std::io::BufReader<R>,
    out: &mut impl Write,
    mut sim: Simulator,
) -> std::io::Result<()> {
    let mut line = Vec::new();
    let mut resp = Vec::with_capacity(1 << 16);
    loop {
        let avail = match input.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            break;
        }
        let n = match memchr::memchr(b'\n', avail) {
            Some(i) => {
                answer(&mut sim, &avail[..i], &mut resp);
                i + 1
            }
            None => {
                // A line cut by the end of the buffer: read whole into `line`.
                line.clear();
                super::lines::read_line_bytes(input, &mut line)?;
                let text = line.strip_suffix(b"\n").unwrap_or(&line);
                answer(&mut sim, text, &mut resp);
                0
            }
        };
        input.consume(n);
        if input.buffer().is_empty() || resp.len() >= 1 << 15 {
            out.write_all(&resp)?;
            resp.clear();
            if input.buffer().is_empty() {
                out.flush()?;
            }
        }
    }
    out.write_all(&resp)?;
    out.flush()
}

/// The error response to a request naming register `name` twice in `initial` (`id_raw`: the
/// id as written, quotes included).
fn given_twice(id_raw: &str, name: &str, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"id\":");
    out.extend_from_slice(id_raw.as_bytes());
    out.extend_from_slice(b",\"error\":");
    push_string(
        out,
        &format!("bad request: initial: register `{name}` given twice"),
    );
    out.extend_from_slice(b"}\n");
}

/// Answer request line `text` (without its newline; a blank line gets no answer).
fn answer(sim: &mut Simulator, text: &[u8], resp: &mut Vec<u8>) {
    if text.trim_ascii().is_empty() {
        return;
    }
    sim.handle(text.strip_suffix(b"\r").unwrap_or(text), resp);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fast(sim: &mut Simulator, line: &str) -> String {
        let mut out = Vec::new();
        sim.handle(line.as_bytes(), &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_fast_path_answers_as_the_plain_one() {
        let mut sim = Simulator::new(None);
        let cfg = crate::golden::GenConfig::new(Platform::Skl, 3);
        let mut n = 0;
        crate::golden::generate(&cfg, 600, &mut std::io::sink(), |c| {
            for v in c.iter().flatten() {
                let req = Request::from_vector(v);
                let want = format!("{}\n", execute(&req, None).to_line());
                assert_eq!(fast(&mut sim, &req.to_line()), want, "{}", v.id);
                n += 1;
            }
        })
        .unwrap();
        assert!(n > 500);
    }

    #[test]
    fn prepared_instructions_answer_as_fresh_ones_with_and_without_faults() {
        // Each request three times (the instruction prepared once, then reused with other
        // initial values), by its bytes and by its text, with every fault and none.
        let mut reqs = Vec::new();
        let cfg = crate::golden::GenConfig::new(Platform::Skl, 21);
        crate::golden::generate(&cfg, 150, &mut std::io::sink(), |c| {
            reqs.extend(c.iter().flatten().map(Request::from_vector));
        })
        .unwrap();
        let faults = std::iter::once(None).chain(Fault::ALL.map(Some));
        let mut differ = 0;
        for fault in faults {
            let mut sim = Simulator::new(fault);
            for round in 0..3 {
                for (k, r) in reqs.iter().enumerate() {
                    let mut req = r.clone();
                    // Later rounds: another request's initial values, some by text.
                    req.initial = reqs[(k + round * 7) % reqs.len()].initial.clone();
                    if (k + round) % 3 == 0 {
                        req.bytes.clear();
                    }
                    let want = format!("{}\n", execute(&req, fault).to_line());
                    if fault.is_some() && round == 0 {
                        differ +=
                            usize::from(want != format!("{}\n", execute(&req, None).to_line()));
                    }
                    assert_eq!(fast(&mut sim, &req.to_line()), want, "{fault:?} {}", req.id);
                }
            }
        }
        assert!(reqs.len() > 100 && differ > 10, "{} {differ}", reqs.len());
    }

    #[test]
    fn initial_hex_of_any_form_is_written_as_the_plain_path_writes_it() {
        // Byte pairs made undefined (`xx`, `XX`), upper case, not hex, and odd lengths: the
        // fast GRF and ARF writers against `regs::write` (through `execute`).
        let mut sim = Simulator::new(None);
        let cfg = crate::golden::GenConfig::new(Platform::Bdw, 9);
        let mut k = 0u64;
        let (mut n, mut errors) = (0, 0);
        crate::golden::generate(&cfg, 300, &mut std::io::sink(), |c| {
            for v in c.iter().flatten() {
                let mut req = Request::from_vector(v);
                for hex in req.initial.values_mut() {
                    k = k
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let at = 2 * ((k >> 33) as usize % (hex.len() / 2).max(1));
                    let fine = ["xx", "XX", "Ab"][(k >> 20) as usize % 3];
                    let bad = ["zz", "x0", "0"][(k >> 20) as usize % 3];
                    let end = (at + 2).min(hex.len());
                    match (k >> 40) % 16 {
                        0..=8 => {}
                        9 | 10 => hex.make_ascii_uppercase(),
                        11..=13 => hex.replace_range(at..end, fine),
                        14 => hex.replace_range(at..end, bad),
                        _ => hex.truncate(hex.len().saturating_sub(1)),
                    }
                }
                let want = format!("{}\n", execute(&req, None).to_line());
                errors += usize::from(want.contains("\"error\""));
                assert_eq!(fast(&mut sim, &req.to_line()), want, "{}", v.id);
                n += 1;
            }
        })
        .unwrap();
        assert!(n > 250 && errors > 30 && errors < n - 100, "{n} {errors}");
    }

    #[test]
    fn requests_in_the_checker_layout_answer_as_the_plain_path() {
        // Requests as `euref check` writes them (read key after key) and changed ones: more
        // registers than the layout reader keeps, blanks, keys moved, non-ASCII text, an
        // escape; each answered as `execute` answers the request serde reads.
        let mut reqs = Vec::new();
        let cfg = crate::golden::GenConfig::new(Platform::Skl, 17);
        crate::golden::generate(&cfg, 200, &mut std::io::sink(), |c| {
            reqs.extend(c.iter().flatten().map(Request::from_vector));
        })
        .unwrap();
        let mut sim = Simulator::new(None);
        let mut lines = Vec::new();
        for (k, r) in reqs.iter().enumerate() {
            let line = r.to_line();
            let changed = match k % 8 {
                0 => {
                    let mut many = r.clone();
                    for n in 100..100 + LAYOUT_REGS as u32 {
                        many.initial.insert(format!("r{n}"), "01".repeat(32));
                    }
                    many.to_line()
                }
                1 => {
                    let mut many = r.clone();
                    many.report = (0..=LAYOUT_REGS).map(|n| format!("r{n}")).collect();
                    many.to_line()
                }
                2 => line.replacen("\"report\":[", "\"report\": [", 1),
                3 => line.replacen("{\"id\":", "{\"x\":0,\"id\":", 1),
                4 => line.replacen("\"insn\":\"", "\"insn\":\"é", 1),
                5 => line.replacen("\"insn\":\"", "\"insn\":\"\\u0028", 1),
                6 => format!("{line} "),
                _ => line.replacen("\"report\":[", "\"report\":[\"r3\"],\"r\":[", 1),
            };
            lines.push(line);
            lines.push(changed);
        }
        for line in &lines {
            let req: Request = serde_json::from_str(line).unwrap();
            let want = format!("{}\n", execute(&req, None).to_line());
            assert_eq!(fast(&mut sim, line), want, "{line}");
        }
        let mut r = LayoutRequest::default();
        let read = lines
            .iter()
            .filter(|l| parse_request_layout(l, &mut LayoutRequest::default()).is_some())
            .count();
        assert!(read > reqs.len() && read < lines.len() - 50, "{read}");
        assert!(parse_request_layout(&lines[0], &mut r).is_some() && r.n_report > 0);
    }

    #[test]
    fn requests_from_text_escapes_and_errors() {
        let mut sim = Simulator::new(None);
        let add = "add (8|M0) r10.0<1>:f r12.0<8;8,1>:f r14.0<8;8,1>:f";
        let one = "0000803f".repeat(8);
        let req = Request {
            id: "a\"b".into(),
            gen: "skl".into(),
            insn: add.into(),
            bytes: String::new(),
            initial: [("r12".to_string(), one.clone()), ("r14".into(), one)].into(),
            report: vec!["r10".into(), "r10".into()],
        };
        let want = format!("{}\n", execute(&req, None).to_line());
        assert!(want.contains(&"00000040".repeat(8)), "{want}");
        // Keys in another order, blanks, an unknown key, an escaped string.
        let line = format!(
            r#" {{ "report" : ["r10","r\u0031\u0030"], "x":[1,{{}}], "initial":{{"r12":"{o}","r14":"{o}"}}, "bytes":"", "insn":"{add}", "gen":"skl", "id":"a\"b" }} "#,
            o = "0000803f".repeat(8)
        );
        assert_eq!(fast(&mut sim, &line), want);
        // Errors: serde's message for a bad line (a number id echoed as written: issue 26),
        // the model's for a bad request.
        assert_eq!(
            fast(&mut sim, "{\"id\":1}"),
            format!(
                "{}\n",
                Response::error(
                    "1",
                    format!(
                        "bad request: {}",
                        serde_json::from_str::<Request>("{\"id\":1}").unwrap_err()
                    )
                )
                .to_line()
            )
        );
        let mut bad = req.clone();
        bad.initial.insert("r200".into(), "00".into());
        bad.report = vec!["q7".into()];
        for r in [bad.clone(), {
            bad.initial.clear();
            bad
        }] {
            let want = format!("{}\n", execute(&r, None).to_line());
            assert!(want.contains("\"error\""), "{want}");
            assert_eq!(fast(&mut sim, &r.to_line()), want);
        }
    }

    /// Issue 24: an error response names the request's id, also when the request cannot be
    /// read (a line cut short, a missing key), when an id can be found in it.
    #[test]
    fn error_responses_echo_the_id() {
        let mut sim = Simulator::new(None);
        let cases = [
            // Cut short: not JSON.
            r#"{"id":"skl-7-1","gen":"skl","insn":"add (8|M0) r1"#,
            // JSON, but no `report`.
            r#"{"id":"skl-7-2","gen":"skl","insn":"nop","initial":{}}"#,
            // The id after another key, with blanks.
            r#"{"gen":"skl", "id" : "skl-7-3", "report":"#,
            // A request the model refuses (an unknown platform).
            r#"{"id":"skl-7-4","gen":"gen99","insn":"nop","bytes":"","initial":{},"report":[]}"#,
        ];
        for (k, line) in cases.iter().enumerate() {
            let out = fast(&mut sim, line);
            let r: Response = serde_json::from_str(&out).unwrap();
            assert_eq!(r.id, format!("skl-7-{}", k + 1), "{line}: {out}");
            assert!(r.error.is_some() && r.fin.is_empty(), "{out}");
        }
        // Issue 26: an id that is no valid JSON string (a control character, a bad escape, a
        // lone surrogate) is echoed as written, in a valid JSON string; a number as written.
        for (line, id) in [
            ("{\"id\":\"skl\t7-5\",\"gen\":\"skl\"}", "skl\t7-5"),
            ("{\"id\":\"skl-7\\q6\",\"gen\":\"skl\"}", "skl-7\\q6"),
            (
                "{\"id\":\"skl-\\ud800-7\",\"gen\":\"skl\"}",
                "skl-\\ud800-7",
            ),
            ("{\"id\":\"skl\\\"7-8\",\"gen\":\"skl\"}", "skl\"7-8"),
            ("{\"id\":79,\"gen\":\"skl\"}", "79"),
            ("{\"gen\":\"skl\" , \"id\" : 80 ,\"x\":\"\t\"}", "80"),
        ] {
            let out = fast(&mut sim, line);
            let r: Response = serde_json::from_str(&out).unwrap();
            assert_eq!(r.id, id, "{line}: {out}");
            assert!(r.error.is_some(), "{out}");
        }
        // No id to be found: an empty one.
        let out = fast(&mut sim, "not json at all");
        assert!(
            out.starts_with(r#"{"id":"","error":"bad request: "#),
            "{out}"
        );
    }

    /// Issue 26 (found by tests/fuzz): the fast readers refuse what serde's reading of a
    /// [`Request`] refuses, and every answer is one valid JSON line.
    #[test]
    fn malformed_requests_are_refused_as_their_definition_refuses_them() {
        let mut sim = Simulator::new(None);
        let ok = r#"{"id":"a","gen":"skl","insn":"mov (8|M0) r2.0<1>:ud 0x1:ud","initial":{"r2":"00"},"report":["r2"]}"#;
        let answer = |sim: &mut Simulator, line: &[u8]| {
            let mut out = Vec::new();
            sim.handle(line, &mut out);
            let text = String::from_utf8(out).expect("a UTF-8 answer");
            let r: Response = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("not a response ({e}): {text}"));
            (r, text)
        };
        let (r, text) = answer(&mut sim, ok.as_bytes());
        assert!(r.error.is_none() && r.fin.contains_key("r2"), "{text}");
        let cases: [(&[u8], &str); 5] = [
            // No `initial` (serde: missing field); the fast reader took it as empty.
            (
                br#"{"id":"a","gen":"skl","insn":"nop","report":[]}"#,
                "missing field `initial`",
            ),
            // A key given twice (serde: duplicate field); the fast reader kept the last.
            (
                br#"{"id":"a","gen":"skl","gen":"bdw","insn":"nop","initial":{},"report":[]}"#,
                "duplicate field `gen`",
            ),
            // A register given twice in `initial` (serde's map kept the last silently).
            (
                br#"{"id":"a","gen":"skl","insn":"nop","initial":{"r3":"00","r2":"01","r3":"02"},"report":[]}"#,
                "register `r3` given twice",
            ),
            // Bytes that are not UTF-8 (were read through a lossy conversion and answered).
            (
                b"{\"id\":\"a\",\"gen\":\"skl\",\"insn\":\"nop\xc3\",\"initial\":{},\"report\":[]}",
                "not UTF-8 (at byte offset 33,",
            ),
            // An id with an invalid escape: echoed raw, it made the answer invalid JSON.
            (
                br#"{"id":"a\q","gen":"skl","insn":"nop","initial":{},"report":[]}"#,
                "bad request",
            ),
        ];
        for (line, why) in cases {
            let (r, text) = answer(&mut sim, line);
            let e = r.error.unwrap_or_else(|| panic!("answered: {text}"));
            assert!(e.contains(why), "{e} (wanted: {why})");
        }
    }

    /// Issue 24: a request may carry the instruction as text only or as bytes only
    /// (conformance/PROTOCOL.md); one with neither is an error that says so.
    #[test]
    fn requests_with_insn_only_or_bytes_only_are_served() {
        let cfg = crate::golden::GenConfig::new(Platform::Skl, 13);
        let mut reqs = Vec::new();
        crate::golden::generate(&cfg, 120, &mut std::io::sink(), |c| {
            reqs.extend(c.iter().flatten().map(Request::from_vector));
        })
        .unwrap();
        let mut sim = Simulator::new(None);
        for r in &reqs {
            let both = fast(&mut sim, &r.to_line());
            assert!(both.contains("\"final\""), "{both}");
            let mut v: serde_json::Value = serde_json::from_str(&r.to_line()).unwrap();
            let o = v.as_object_mut().unwrap();
            let bytes = o.remove("bytes").unwrap();
            assert_eq!(fast(&mut sim, &v.to_string()), both, "insn only: {}", r.id);
            let o = v.as_object_mut().unwrap();
            o.remove("insn");
            o.insert("bytes".into(), bytes);
            assert_eq!(fast(&mut sim, &v.to_string()), both, "bytes only: {}", r.id);
            v.as_object_mut().unwrap().remove("bytes");
            let neither = fast(&mut sim, &v.to_string());
            let want = format!(
                "{}\n",
                Response::error(&r.id, NO_INSTRUCTION.into()).to_line()
            );
            assert_eq!(neither, want);
            // (The plain path says the same.)
            let mut req = r.clone();
            (req.insn, req.bytes) = (String::new(), String::new());
            assert_eq!(format!("{}\n", execute(&req, None).to_line()), want);
        }
    }

    #[test]
    fn each_request_starts_from_the_default_state() {
        // A request that writes r10 and f0, then one that reports them without initial
        // values: they must be undefined again.
        let mut sim = Simulator::new(None);
        let mut req = Request {
            id: "1".into(),
            gen: "bdw".into(),
            insn: "cmp (8|M0) (lt)f0.0 r10.0<1>:f r12.0<8;8,1>:f r14.0<8;8,1>:f".into(),
            bytes: String::new(),
            initial: [
                ("r12".to_string(), "00000000".repeat(8)),
                ("r14".into(), "0000803f".repeat(8)),
                ("f0".into(), "00000000".into()),
            ]
            .into(),
            report: vec!["r10".into(), "f0".into(), "r12".into()],
        };
        let first = fast(&mut sim, &req.to_line());
        assert!(first.contains("\"f0\":\"ff000000\""), "{first}");
        req.insn = "nop".into();
        req.initial.clear();
        let second = fast(&mut sim, &req.to_line());
        assert_eq!(second, format!("{}\n", execute(&req, None).to_line()));
        assert!(
            second.contains(&format!("\"r10\":\"{}\"", "xx".repeat(32))),
            "{second}"
        );
    }

    /// Requests that report every register the request before wrote (its initial registers,
    /// what its instruction wrote), some with initial registers left out and some failing
    /// after writing one: each answers as on a fresh state (only what may differ from the
    /// default state is restored between requests).
    #[test]
    fn registers_written_before_are_restored_for_the_next_request() {
        let cfg = crate::golden::GenConfig::new(Platform::Skl, 5);
        let mut reqs: Vec<Request> = Vec::new();
        crate::golden::generate(&cfg, 300, &mut std::io::sink(), |c| {
            reqs.extend(c.iter().flatten().map(Request::from_vector));
        })
        .unwrap();
        let mut sim = Simulator::new(None);
        let mut prev: Vec<String> = Vec::new();
        for (k, mut r) in reqs.into_iter().enumerate() {
            let names: Vec<String> = r.initial.keys().cloned().collect();
            for n in prev.iter().chain(&names) {
                if !r.report.contains(n) {
                    r.report.push(n.clone());
                }
            }
            if k % 3 == 1 {
                // Every other initial register left out (the default shows through).
                let keep: Vec<String> = names.iter().step_by(2).cloned().collect();
                r.initial.retain(|n, _| keep.contains(n));
            }
            if k % 7 == 3 {
                // A register written, then a bad one: an error; the next request reports it.
                r.initial.insert("r3".into(), "11".repeat(32));
                r.initial.insert("r4".into(), "1".into());
                r.report.push("r3".into());
            }
            let want = format!("{}\n", execute(&r, None).to_line());
            assert_eq!(fast(&mut sim, &r.to_line()), want, "request {k}");
            prev = r.report.clone();
        }
    }
}
