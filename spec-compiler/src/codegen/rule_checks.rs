//! Generated `spec::rules::check_all` and `spec::rules::check_collect`: every rule of a
//! platform evaluated as one straight-line block (no dispatch on the rule number), so that the
//! property accessors inline and common loads are shared between rules; monomorphized per
//! platform, so that each rule's generation test is a constant.
//!
//! `check_collect` is the same pass noting, besides the violations, the rules that apply (their
//! `when` holds; per-source rules: for some present source) as bits of a [`RuleMask`]: the
//! validator and the rules that apply in one evaluation of each `when`.

use crate::model::Spec;
use std::fmt::Write;

/// Append the check functions to the body of `pub mod rules`.
pub(super) fn check_fns(spec: &Spec, o: &mut String) {
    let np = spec.platforms.names.len();
    let words = spec.rules.len().div_ceil(64).max(1);
    let _ = writeln!(
        o,
        "    /// The rules of [`RULES`] as bits: rule `k` is bit `k % 64` of word `k / 64`.\n    pub type RuleMask = [u64; {words}];"
    );
    o.push_str("    /// Evaluate every rule that applies on `platform`; push each violated rule with the\n    /// source index it was violated for (None for instruction-level rules).\n    pub fn check_all<P: Props + ?Sized>(platform: Platform, p: &P, out: &mut Vec<(&'static RuleInfo, Option<usize>)>) {\n        let mut unused = RuleMask::default();\n        match platform as u32 {\n");
    for k in 0..np {
        let _ = writeln!(
            o,
            "            {k} => check_on::<{k}, false, P>(p, out, &mut unused),"
        );
    }
    o.push_str("            _ => {}\n        }\n    }\n");
    o.push_str("    /// [`check_all`], also setting in `applicable` the bit of every rule of `platform` that\n    /// applies to `p` (its `when` holds; per-source rules: for some present source).\n    pub fn check_collect<P: Props + ?Sized>(platform: Platform, p: &P, out: &mut Vec<(&'static RuleInfo, Option<usize>)>, applicable: &mut RuleMask) {\n        match platform as u32 {\n");
    for k in 0..np {
        let _ = writeln!(
            o,
            "            {k} => check_on::<{k}, true, P>(p, out, applicable),"
        );
    }
    o.push_str("            _ => {}\n        }\n    }\n");
    o.push_str("    /// [`check_all`] (and with `COLLECT`, [`check_collect`]) for the platform numbered `PL`.\n    #[allow(unused_variables, clippy::all)]\n    fn check_on<const PL: u32, const COLLECT: bool, P: Props + ?Sized>(p: &P, out: &mut Vec<(&'static RuleInfo, Option<usize>)>, app: &mut RuleMask) {\n");
    let has_present = spec
        .props
        .iter()
        .any(|p| p.scope == "src" && p.name == "present");
    let note = |i: usize| format!("if COLLECT {{ app[{}] |= 1u64 << {}; }}", i / 64, i % 64);
    o.push_str("        let start = out.len();\n");
    for (i, r) in spec
        .rules
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.foreach_src)
    {
        let _ = writeln!(
            o,
            "        if ({}u32 >> PL) & 1 != 0 {{\n            let s = 0usize;\n            if {} {{\n                {}\n                if !({}) {{ out.push((&RULES[{i}], None)); }}\n            }}\n        }}",
            r.row.gens,
            r.when_code,
            note(i),
            r.check_code
        );
    }
    // Per-source rules: one pass per present source (its fields are loaded once); the
    // violations are put back in table order afterwards (only when there are any).
    if has_present {
        o.push_str("        let mut per_src = false;\n        for s in 0..3usize {\n            if !p.src_present(s) { continue; }\n");
        for (i, r) in spec.rules.iter().enumerate().filter(|(_, r)| r.foreach_src) {
            let _ = writeln!(
                o,
                "            if ({}u32 >> PL) & 1 != 0 && {} {{\n                {}\n                if !({}) {{ out.push((&RULES[{i}], Some(s))); per_src = true; }}\n            }}",
                r.row.gens,
                r.when_code,
                note(i),
                r.check_code
            );
        }
        o.push_str("        }\n        if per_src {\n            out[start..].sort_by_key(|(r, s)| (index_of(r), *s));\n        }\n");
    }
    o.push_str("    }\n");
}
