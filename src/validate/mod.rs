//! Validation: the restrictions of spec/rules/*.toml, compiled by build.rs into
//! `spec::rules`, evaluated over an instruction's properties (`spec::Props`).
//!
//! [`check_insn`] validates one instruction of the model: [`props_of`] reads every property
//! of spec/properties.toml off the [`Insn`], and [`violations`] evaluates the rules.

mod from_insn;
pub mod predicates;
mod tables;

pub use from_insn::{props_into, props_of};
pub use tables::{fill_derived_props, fill_table_props};

use crate::isa::Insn;
use crate::spec::{rules, Platform, Props, PropsRecord};

/// One violated rule.
#[derive(Debug, Clone, Copy)]
pub struct Violation {
    pub rule: &'static rules::RuleInfo,
    /// The source operand the rule was violated for (per-source rules).
    pub src: Option<usize>,
}

/// Every rule of spec/rules that `p` violates on `platform`, in table order.
pub fn violations<P: Props + ?Sized>(platform: Platform, p: &P) -> Vec<Violation> {
    let mut out = Vec::new();
    rules::check_all(platform, p, &mut out);
    out.into_iter()
        .map(|(rule, src)| Violation { rule, src })
        .collect()
}

/// Every rule of spec/rules that instruction `i` violates on `platform`, in table order
/// (static rules only: the rules that need execution state do not apply). An empty result
/// means the instruction is valid; a valid instruction costs no allocation.
pub fn check_insn(platform: Platform, i: &Insn) -> Vec<Violation> {
    violations(platform, &props_of(platform, i))
}

/// The rules of spec/rules that apply to instruction `i` on `platform`: the rows of the
/// platform whose `when` holds (for per-source rules: for some present source), in table
/// order. Rules that need execution state (`when` reads `runtime`) never apply here.
pub fn applicable_rules(platform: Platform, i: &Insn) -> Vec<&'static rules::RuleInfo> {
    let mut out = Vec::new();
    applicable_into(platform, &props_of(platform, i), &mut out);
    out
}

/// [`applicable_rules`] over a property record, appended to `out`.
pub fn applicable_into<P: Props + ?Sized>(
    platform: Platform,
    p: &P,
    out: &mut Vec<&'static rules::RuleInfo>,
) {
    for (k, r) in rules::RULES.iter().enumerate() {
        if !r.gens.contains(platform) {
            continue;
        }
        let applies = if r.foreach_src {
            (0..3).any(|s| p.src_present(s) && rules::applies(k, p, s))
        } else {
            rules::applies(k, p, 0)
        };
        if applies {
            out.push(r);
        }
    }
}

/// A reusable validator: keeps its property record and result buffer between instructions,
/// so that validating a stream allocates nothing after the first violation.
#[derive(Debug, Default)]
pub struct Checker {
    props: PropsRecord,
    found: Vec<(&'static rules::RuleInfo, Option<usize>)>,
}

impl Checker {
    pub fn new() -> Checker {
        Checker::default()
    }

    /// Validate `i` on `platform`: the violated rules, in table order, with the source they
    /// concern (per-source rules).
    pub fn check(
        &mut self,
        platform: Platform,
        i: &Insn,
    ) -> impl ExactSizeIterator<Item = Violation> + '_ {
        props_into(platform, i, &mut self.props);
        self.found.clear();
        rules::check_all(platform, &self.props, &mut self.found);
        self.found
            .iter()
            .map(|&(rule, src)| Violation { rule, src })
    }

    /// The rules that apply to the last instruction checked ([`applicable_rules`]), appended
    /// to `out`.
    pub fn applicable(&self, platform: Platform, out: &mut Vec<&'static rules::RuleInfo>) {
        applicable_into(platform, &self.props, out);
    }

    /// The property record of the last instruction checked.
    pub fn props(&self) -> &PropsRecord {
        &self.props
    }
}
