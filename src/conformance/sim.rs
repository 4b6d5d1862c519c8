//! `euref sim`: the reference model speaking the protocol.

use super::inject::Fault;
use super::protocol::{Request, Response};
use super::regs;
use crate::isa::Insn;
use crate::spec::Platform;
use crate::state::ThreadState;
use std::io::{BufRead, Write};

/// Execute one request.
pub fn execute(req: &Request, fault: Option<Fault>) -> Response {
    match try_execute(req, fault) {
        Ok(fin) => Response {
            id: req.id.clone(),
            fin,
            error: None,
        },
        Err(e) => Response {
            id: req.id.clone(),
            fin: Default::default(),
            error: Some(e),
        },
    }
}

fn instruction(req: &Request, p: Platform) -> Result<Insn, String> {
    if !req.bytes.is_empty() {
        let b = regs::parse_hex_defined(&req.bytes).map_err(|e| format!("bytes: {e}"))?;
        return crate::codec::decode(&b, p)
            .map(|(i, _)| i)
            .map_err(|e| format!("bytes: {e}"));
    }
    crate::asm::parse_insn(&req.insn, crate::asm::Dialect::Iga, p).map_err(|e| format!("insn: {e}"))
}

thread_local! {
    /// The default state of each platform, built once per thread.
    static DEFAULTS: std::cell::RefCell<Vec<Option<ThreadState>>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn default_state(p: Platform) -> ThreadState {
    DEFAULTS.with(|d| {
        let mut d = d.borrow_mut();
        let i = p as usize;
        if d.len() <= i {
            d.resize(i + 1, None);
        }
        d[i].get_or_insert_with(|| ThreadState::new(p)).clone()
    })
}

fn try_execute(
    req: &Request,
    fault: Option<Fault>,
) -> Result<std::collections::BTreeMap<String, String>, String> {
    let p = Platform::parse(&req.gen).ok_or_else(|| format!("unknown gen `{}`", req.gen))?;
    let mut insn = instruction(req, p)?;
    let mut st = default_state(p);
    for (name, hex) in &req.initial {
        let bytes = regs::parse_hex(hex).map_err(|e| format!("initial.{name}: {e}"))?;
        regs::write(&mut st, name, &bytes).map_err(|e| format!("initial.{name}: {e}"))?;
    }
    if let Some(f) = fault {
        f.apply_insn(&mut insn);
        f.apply_state(&mut st);
    }
    crate::exec::step(&mut st, &insn).map_err(|e| e.to_string())?;
    req.report
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
        .collect()
}

/// Serve requests from `input` until end of input; an unparsable line gets an error response
/// with an empty id. Output is flushed whenever no further request is already buffered.
pub fn serve<R: std::io::Read>(
    input: &mut std::io::BufReader<R>,
    out: &mut impl Write,
    fault: Option<Fault>,
) -> std::io::Result<()> {
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            break;
        }
        if line.trim().is_empty() {
            continue;
        }
        let resp = match serde_json::from_str::<Request>(&line) {
            Ok(req) => execute(&req, fault),
            Err(e) => Response {
                id: String::new(),
                fin: Default::default(),
                error: Some(format!("bad request: {e}")),
            },
        };
        out.write_all(resp.to_line().as_bytes())?;
        out.write_all(b"\n")?;
        if input.buffer().is_empty() {
            out.flush()?;
        }
    }
    out.flush()
}
