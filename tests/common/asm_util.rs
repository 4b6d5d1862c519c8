//! Shared by the assembler tests: parse one instruction and check that it prints and parses
//! back equal in every dialect.
#![allow(dead_code)]

use euref::asm::{self, Dialect, PrintOptions};
use euref::isa::Insn;
use euref::spec::Platform;

/// The one instruction of `s` on `p`, after checking its round trip through every dialect.
pub fn parse_round_trip(s: &str, p: Platform) -> Insn {
    let prog = asm::parse(s.as_bytes(), None, p).unwrap_or_else(|e| panic!("`{s}`: {e}"));
    assert_eq!(prog.insns.len(), 1, "`{s}`");
    let insn = prog.insns[0].clone();
    for d in Dialect::ALL {
        let o = PrintOptions {
            dialect: d,
            platform: p,
        };
        let t = asm::print_insn(&insn, &o);
        let back = asm::parse_insn(&t, d, p).unwrap_or_else(|e| panic!("`{s}` as {d} `{t}`: {e}"));
        assert_eq!(back, insn, "`{s}` through {d} `{t}`");
    }
    insn
}
