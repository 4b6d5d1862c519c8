//! The trace of a dispatch (`euref run --dispatch d.json --trace`, docs/run.md): in the order
//! the runner interleaves the threads, one item per executed instruction (the line of the
//! single-thread trace, [`crate::thread::trace`], with its work group and thread) and one per
//! event (barrier arrival and completion, a blocked `wait`, the thread's end). A send adds its
//! decoded message ([`MessageReport`]) and, per enabled lane, the address and the bytes it
//! read or wrote (undefined bytes `??`).

use crate::memory::Place;
use crate::shared::report::{Access, MessageReport};
use serde_json::{json, Value};

/// Something that happened to one thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TraceEvent {
    /// A barrier message counted the thread as arrived: `arrived` of `of` threads so far
    /// (send.gateway.barrier).
    BarrierArrived {
        arrived: usize,
        of: usize,
    },
    /// The last arrival completed the barrier: n0.0 of every thread of the work group was
    /// incremented.
    BarrierComplete,
    /// `wait` found n0.0 zero at `ip`: the thread waits (send.gateway.wait-blocks).
    Blocked {
        ip: u32,
    },
    /// The thread ended by EOT (send.eot), at the end of the image, or with an error.
    Eot,
    EndOfImage,
    Error {
        message: String,
    },
}

/// One item of the trace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TraceItem {
    /// An executed instruction: its single-thread trace line (text and JSON) and, for a
    /// send, its message.
    Step {
        group: u64,
        thread: u32,
        text: String,
        json: String,
        message: Option<MessageReport>,
    },
    Event {
        group: u64,
        thread: u32,
        event: TraceEvent,
    },
}

/// Bytes as hex, `??` for an undefined byte, separated by spaces.
pub fn hex(bytes: &[Option<u8>]) -> String {
    bytes
        .iter()
        .map(|b| b.map_or("??".to_string(), |v| format!("{v:02x}")))
        .collect::<Vec<_>>()
        .join(" ")
}

fn place_text(p: Place) -> String {
    match p {
        Place::Flat(a) => format!("flat {a:#x}"),
        Place::Slm(o) => format!("slm {o:#x}"),
        Place::OutOfBounds => "out of bounds".into(),
    }
}

fn simd_text(s: u32) -> String {
    if s == 0 {
        "SIMD4x2".into()
    } else {
        format!("SIMD{s}")
    }
}

/// The text line of a send's message (without indentation).
pub fn message_line(m: &MessageReport) -> String {
    let mut s = format!("message {} [{}]", m.name, m.row);
    if let Some(b) = m.bti {
        s += &format!(" bti {b}");
        if let Some(n) = m.surface {
            s += &format!(" ({n})");
        }
    }
    if let Some(v) = m.simd {
        s += &format!(" {}", simd_text(v));
    }
    s += &format!(" mlen {}", m.mlen);
    if let Some(x) = m.ex_mlen {
        s += &format!(" ex_mlen {x}");
    }
    s += &format!(" rlen {}", m.rlen);
    if m.header {
        s += " header";
    }
    s += &format!(" desc {:#010x}", m.desc);
    if let Some(n) = m.desc_reg {
        s += &format!(" (a0.{n})");
    }
    if let Some(x) = m.ex_desc {
        s += &format!(" ex_desc {x:#010x}");
        if let Some(n) = m.ex_desc_reg {
            s += &format!(" (a0.{n})");
        }
    }
    s += &format!(" lanes {:#x}", m.lanes);
    // mem.inexact, per message.
    if m.inexact_payload {
        s += " inexact-payload";
    }
    if m.inexact_read {
        s += " inexact-read";
    }
    s
}

/// The text line of one access (without indentation).
pub fn access_line(a: &Access) -> String {
    format!(
        "lane {:>2} {:<5} {:#x} ({}): {}",
        a.lane,
        a.kind.name(),
        a.address,
        place_text(a.place),
        hex(&a.bytes)
    )
}

fn event_text(e: &TraceEvent) -> String {
    match e {
        TraceEvent::BarrierArrived { arrived, of } => {
            format!("barrier: arrived ({arrived} of {of})")
        }
        TraceEvent::BarrierComplete => "barrier: complete, n0.0 += 1 for every thread".into(),
        TraceEvent::Blocked { ip } => format!("wait: blocked at ip {ip:#06x}"),
        TraceEvent::Eot => "end: EOT".into(),
        TraceEvent::EndOfImage => "end: end of program (no EOT)".into(),
        TraceEvent::Error { message } => format!("end: error: {message}"),
    }
}

/// The trace as text: `g<group> t<thread> ` before every line; a send's message and accesses
/// on the lines after its step, indented; events as `== <event>`.
pub fn text(items: &[TraceItem]) -> String {
    let mut out = String::new();
    for it in items {
        match it {
            TraceItem::Step {
                group,
                thread,
                text,
                message,
                ..
            } => {
                out += &format!("g{group} t{thread} {text}\n");
                if let Some(m) = message {
                    out += &format!("g{group} t{thread}         {}\n", message_line(m));
                    for a in &m.accesses {
                        out += &format!("g{group} t{thread}           {}\n", access_line(a));
                    }
                }
            }
            TraceItem::Event {
                group,
                thread,
                event,
            } => out += &format!("g{group} t{thread} == {}\n", event_text(event)),
        }
    }
    out
}

fn place_json(p: Place) -> Value {
    match p {
        Place::Flat(a) => json!({"flat": format!("{a:#x}")}),
        Place::Slm(o) => json!({"slm": format!("{o:#x}")}),
        Place::OutOfBounds => json!("out_of_bounds"),
    }
}

/// A send's message as JSON.
pub fn message_json(m: &MessageReport) -> Value {
    let accesses: Vec<Value> = m
        .accesses
        .iter()
        .map(|a| {
            json!({
                "lane": a.lane, "kind": a.kind.name(), "address": format!("{:#x}", a.address),
                "place": place_json(a.place), "bytes": hex(&a.bytes),
            })
        })
        .collect();
    json!({
        "name": m.name, "row": m.row, "bti": m.bti, "surface": m.surface, "simd": m.simd,
        "mlen": m.mlen, "ex_mlen": m.ex_mlen, "rlen": m.rlen, "header": m.header,
        "desc": format!("{:#010x}", m.desc),
        "ex_desc": m.ex_desc.map(|x| format!("{x:#010x}")),
        "desc_reg": m.desc_reg.map(|n| format!("a0.{n}")),
        "ex_desc_reg": m.ex_desc_reg.map(|n| format!("a0.{n}")),
        "lanes": format!("{:#x}", m.lanes), "eot": m.eot, "barrier": m.barrier,
        "inexact_payload": m.inexact_payload, "inexact_read": m.inexact_read,
        "accesses": accesses,
    })
}

/// One JSON value per item: a step's trace object with `group`, `thread` and `message`; an
/// event as `{"group", "thread", "event": <text>}`.
pub fn json_items(items: &[TraceItem]) -> Vec<Value> {
    items
        .iter()
        .map(|it| match it {
            TraceItem::Step {
                group,
                thread,
                json,
                message,
                ..
            } => {
                let mut v: Value = serde_json::from_str(json).unwrap_or(Value::Null);
                if let Value::Object(o) = &mut v {
                    o.insert("group".into(), json!(group));
                    o.insert("thread".into(), json!(thread));
                    if let Some(m) = message {
                        o.insert("message".into(), message_json(m));
                    }
                }
                v
            }
            TraceItem::Event {
                group,
                thread,
                event,
            } => json!({"group": group, "thread": thread, "event": event_text(event)}),
        })
        .collect()
}
