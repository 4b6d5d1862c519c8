//! The rows a program localization names for flow and message instructions (issue 31): for
//! each kind of branch and send met in 80 generated Skylake programs, the rows
//! `euref::conformance::program_check::rows_of_step` gives for the instruction on that state
//! include the spec/flow.toml row of the branch (flow.if, flow.else.gen8, flow.endif,
//! flow.while, flow.break, flow.cont, flow.halt, flow.call, flow.ret, flow.goto, flow.join) or,
//! for a send, the rows of its message in spec/memory.toml (send.untyped-read, -write,
//! -atomic), send.channels, and send.eot for the end of thread.

use euref::conformance::program_check::rows_of_step;
use euref::conformance::program_protocol::ProgramRequest;
use euref::conformance::program_run;
use euref::golden::program::program_vector;
use euref::spec::{Opcode, Platform};
use std::collections::{BTreeMap, BTreeSet};

/// The rows expected for a branch of opcode `op` on Skylake (spec/flow.toml, by hand).
fn flow_row(op: Opcode) -> Option<&'static str> {
    Some(match op {
        Opcode::If => "flow.if",
        Opcode::Else => "flow.else.gen8",
        Opcode::Endif => "flow.endif",
        Opcode::While => "flow.while",
        Opcode::Break => "flow.break",
        Opcode::Cont => "flow.cont",
        Opcode::Halt => "flow.halt",
        Opcode::Call => "flow.call",
        Opcode::Ret => "flow.ret",
        Opcode::Goto => "flow.goto",
        Opcode::Join => "flow.join",
        _ => return None,
    })
}

/// The rows expected for a send of IGA text `text`: send.channels; send.eot for the end of
/// thread; the spec/memory.toml row of a DC1 (SFID 0xC) message by its type (descriptor
/// bits 18:14, descf.dc1.type-gen8: msgval.dc1-type.* values 1 untyped read, 9 untyped
/// write, 2 untyped atomic).
fn message_rows(text: &str) -> Vec<&'static str> {
    let mut rows = vec!["send.channels"];
    if text.contains("{EOT}") {
        rows.push("send.eot");
    } else if text.contains(" 0xc ") || text.contains(" 0xC ") {
        let desc = text.rsplit(' ').next().unwrap();
        let desc = u32::from_str_radix(desc.trim_start_matches("0x"), 16).unwrap();
        rows.push(match desc >> 14 & 0x1f {
            0x01 => "send.untyped-read",
            0x09 => "send.untyped-write",
            0x02 => "send.untyped-atomic",
            t => panic!("message type {t:#x} in `{text}`"),
        });
    }
    rows
}

#[test]
fn localizations_name_the_flow_and_message_rows_of_the_instruction() {
    let p = Platform::Skl;
    let mut seen: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for i in 0..80 {
        let v = program_vector(p, 0x31, i).unwrap();
        let mut req = ProgramRequest::from_vector(&v, None);
        req.trace = true;
        let ran = program_run::run(&req, None, false).unwrap();
        let trace = ran.trace.unwrap();
        assert_eq!(trace.len() as u64, v.steps);
        let mut done = BTreeSet::new();
        for (k, e) in trace.iter().enumerate() {
            let text = euref::conformance::program_check::text_at(&v, e.ip);
            if !done.insert(text.clone()) {
                continue;
            }
            let at = ProgramRequest::from_vector(&v, Some(k as u64 + 1));
            let r = program_run::run(&at, None, true).unwrap();
            let l = r.last.as_ref().unwrap();
            assert_eq!(l.ip, e.ip);
            let rows = rows_of_step(l, &r.state);
            let expected: Vec<&str> = match flow_row(l.insn.op) {
                Some(row) => vec![row],
                None if l.insn.is_send() => message_rows(&text),
                None => continue,
            };
            for row in expected {
                assert!(
                    rows.iter().any(|r| r == row),
                    "`{text}`: {rows:?} lacks {row}"
                );
            }
            seen.entry(l.insn.op.name().to_string())
                .or_default()
                .extend(rows);
        }
    }
    // (A cont is checked when one runs: those these seeds generate sit in ifs no channel
    // enters.)
    for op in [
        "if", "else", "endif", "while", "break", "halt", "call", "ret", "goto", "join", "send",
    ] {
        assert!(seen.contains_key(op), "no {op} met: {:?}", seen.keys());
    }
}
