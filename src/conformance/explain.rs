//! `euref check --explain ID`: one vector sent alone to the simulator, and everything about
//! it printed: the request, the response, expected and actual bytes of every register, every
//! differing element, and the spec rows the vector lists with their text and citation.

use super::check::judge;
use super::compare::Outcome;
use super::describe::{difference_line, outcome_lines, rows_by_kind};
use super::lines::read_line_bytes;
use super::rows::text_of;
use super::runner::{RecvError, SimProcess};
use super::view::{lookup, ResponseView, VectorView};
use std::fmt::Write as _;
use std::io::BufRead;
use std::time::Duration;

/// What `--explain` found: the text to print and the vector's outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct Explained {
    pub text: String,
    pub outcome: Outcome,
}

/// The line of the vector with `id` in `input`.
fn find_line(input: &mut impl BufRead, id: &str) -> Result<String, String> {
    let mut buf = Vec::new();
    let mut line_no = 0usize;
    loop {
        buf.clear();
        line_no += 1;
        let n =
            read_line_bytes(input, &mut buf).map_err(|e| format!("vectors line {line_no}: {e}"))?;
        if n == 0 {
            return Err(format!(
                "no vector has id `{id}` in the vectors ({} lines read; ids look like \
                 `skl-7-42`: see the report or the vectors file)",
                line_no - 1
            ));
        }
        // (Only a line naming the id is read whole.)
        if memchr::memmem::find(&buf, id.as_bytes()).is_none() {
            continue;
        }
        let Ok(text) = std::str::from_utf8(&buf) else {
            continue;
        };
        let text = text.trim_end();
        if VectorView::parse(text).is_ok_and(|v| v.id == id) {
            return Ok(text.to_string());
        }
    }
}

/// Send the vector with `id` of `input` alone to the simulator `sim` and explain the outcome.
pub fn explain(
    mut input: impl BufRead,
    id: &str,
    sim: &str,
    timeout: Duration,
) -> Result<Explained, String> {
    let line = find_line(&mut input, id)?;
    let (v, spans) = VectorView::parse_spans(&line).map_err(|e| format!("vector `{id}`: {e}"))?;
    // (A vector a check reports as `bad_vector` is not sent: the line number is not known
    // here, and an id given twice is not looked for.)
    super::vet::Vetter::default()
        .vet(&v, spans.version, 0)
        .map_err(|e| format!("{e}: a check reports it as `bad_vector`, it is not sent"))?;
    let mut request = Vec::new();
    v.write_request(&mut request);
    let mut p = SimProcess::spawn(sim).map_err(|e| format!("cannot start `{sim}`: {e}"))?;
    p.send_bytes(&request);
    let received = p.recv_line(timeout).map(<[u8]>::to_vec);
    let outcome = match &received {
        Ok(resp) => judge(&v, resp, || Ok(v.clone()))?,
        Err(RecvError::Timeout) => Outcome::Timeout {
            ms: timeout.as_millis() as u64,
        },
        Err(RecvError::Exited(s)) => {
            let err = p.stderr_tail();
            Outcome::Crash {
                message: if err.is_empty() {
                    format!("the simulator {s}")
                } else {
                    format!("the simulator {s}; its standard error:\n{err}")
                },
            }
        }
        Err(RecvError::TooLong(head)) => super::check::too_long(head),
    };
    p.kill();
    let response = received.ok();
    let text = explain_text(&v, &request, response.as_deref(), &outcome);
    Ok(Explained { text, outcome })
}

/// The hex of a register with `^^` under each byte that differs (on defined bits).
fn marks(exp: &str, act: &str, undef: Option<&str>) -> Option<String> {
    let (e, a) = (exp.as_bytes(), act.as_bytes());
    if e.len() != a.len() {
        return None;
    }
    let u = undef.map(str::as_bytes);
    let byte = |b: &[u8], k: usize| {
        b.get(2 * k..2 * k + 2)
            .and_then(|p| std::str::from_utf8(p).ok())
            .and_then(|p| u8::from_str_radix(p, 16).ok())
    };
    let mut s = String::new();
    let mut any = false;
    for k in 0..e.len() / 2 {
        let m = u.and_then(|u| byte(u, k)).unwrap_or(0);
        let differs = match (byte(e, k), byte(a, k)) {
            (Some(x), Some(y)) => (x ^ y) & !m != 0,
            (Some(_), None) => m != 0xff,
            _ => false,
        };
        any |= differs;
        s.push_str(if differs { "^^" } else { "  " });
    }
    any.then(|| s.trim_end().to_string())
}

/// The text of `--explain`.
pub fn explain_text(
    v: &VectorView,
    request: &[u8],
    response: Option<&[u8]>,
    o: &Outcome,
) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "vector {} ({} on {})", v.id, v.op, v.gen);
    let _ = writeln!(s, "  insn   {}", v.insn);
    let _ = writeln!(s, "  bytes  {}", v.bytes);
    let _ = writeln!(s, "\nrequest (sent on the simulator's standard input):");
    let _ = writeln!(s, "  {}", String::from_utf8_lossy(request).trim_end());
    let _ = writeln!(s, "\nresponse:");
    match response {
        Some(r) => {
            let _ = writeln!(s, "  {}", String::from_utf8_lossy(r).trim_end());
        }
        None => {
            let _ = writeln!(s, "  (none)");
        }
    }
    let _ = writeln!(s, "\nstatus: {}", o.status());
    for l in outcome_lines(o, 0, false) {
        let _ = writeln!(s, "  {l}");
    }
    // Expected and actual bytes of every register.
    let resp = response.and_then(|r| ResponseView::parse_bytes(r).ok());
    let _ = writeln!(
        s,
        "\nregisters (hex, byte 0 first; undefined: bits that may take any value):"
    );
    for (reg, exp) in &v.expected {
        let act = resp.as_ref().and_then(|r| lookup(&r.fin, reg));
        let undef = lookup(&v.undefined, reg);
        let _ = writeln!(s, "  {reg:<6} expected  {exp}");
        match act {
            Some(a) => {
                let _ = writeln!(s, "  {:<6} actual    {a}", "");
            }
            None => {
                let _ = writeln!(s, "  {:<6} actual    (not in the response)", "");
            }
        }
        if let Some(u) = undef {
            let _ = writeln!(s, "  {:<6} undefined {u}", "");
        }
        if let Some(m) = act.and_then(|a| marks(exp, a, undef)) {
            let _ = writeln!(s, "  {:<6} differs   {m}", "");
        }
    }
    if let Some(d) = o.differences() {
        if d.count() > 0 {
            let _ = writeln!(s, "\ndifferences (every element):");
            for x in &d.differences {
                let _ = writeln!(s, "  {}", difference_line(x));
            }
            if d.more > 0 {
                let _ = writeln!(s, "  (+{} more)", d.more);
            }
        }
    }
    let rules = v.rules();
    let (sem, st, unknown, cells) = rows_by_kind(&rules);
    let _ = writeln!(
        s,
        "\nrows the vector lists (text and citation from euref::spec; `euref spec --id ID`):"
    );
    for (title, list) in [
        ("semantic rows (what the instruction computes)", sem),
        ("structural rows (spec/rules: the form is legal)", st),
    ] {
        if list.is_empty() {
            continue;
        }
        let _ = writeln!(s, "{title}:");
        for id in list {
            match text_of(id) {
                Some(r) => {
                    let text: String = r.text.split_whitespace().collect::<Vec<_>>().join(" ");
                    let _ = writeln!(s, "  {id}  ({})\n    {text}\n    cite: {}", r.place, r.cite);
                }
                None => {
                    let _ = writeln!(s, "  {id}");
                }
            }
        }
    }
    if !unknown.is_empty() {
        let _ = writeln!(s, "not rows of this euref's spec: {}", unknown.join(", "));
    }
    if !cells.is_empty() {
        let _ = writeln!(s, "grid cells: {}", cells.join(", "));
    }
    s
}
