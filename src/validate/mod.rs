//! Validation: the restrictions of spec/rules/*.toml, compiled by build.rs into
//! `spec::rules`, evaluated over an instruction's properties (`spec::Props`).

pub mod predicates;
mod tables;

pub use tables::{fill_derived_props, fill_table_props};

use crate::spec::{rules, Platform, Props};

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
