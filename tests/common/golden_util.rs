//! Shared helpers of the tests/golden_*.rs files.

#![allow(dead_code)]

use euref::golden::Vector;
use euref::isa::Insn;
use euref::spec::Platform;

/// The instruction of vector `v` on `p`, parsed from its IGA text, after asserting that the
/// validator accepts it. From the text, not the bytes: decoding a one-source math on Gen7
/// gives a null src1 with a <8;8,1> region, which region.width-le-exec then reports.
pub fn parsed_valid_insn(v: &Vector, p: Platform) -> Insn {
    let insn = euref::asm::parse_insn(&v.insn, euref::asm::Dialect::Iga, p)
        .unwrap_or_else(|e| panic!("{}: {}: {e}", v.id, v.insn));
    let bad: Vec<&str> = euref::validate::check_insn(p, &insn)
        .iter()
        .map(|x| x.rule.id)
        .collect();
    assert!(bad.is_empty(), "{}: {} violates {bad:?}", v.id, v.insn);
    insn
}
