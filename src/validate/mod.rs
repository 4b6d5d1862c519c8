//! Validation: the restrictions of spec/rules/*.toml, compiled by build.rs into
//! `spec::rules`, evaluated over an instruction's properties (`spec::Props`).
//!
//! [`check_insn`] validates one instruction of the model: [`props_of`] reads every property
//! of spec/properties.toml off the [`Insn`], and [`violations`] evaluates the rules.

mod from_insn;
pub mod predicates;
mod tables;

pub use from_insn::{apply_context, props_into, props_of, ExecContext};
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

/// [`check_insn`] in execution context `ctx`: the rules that depend on the context
/// (`preemptible`, `spf`) apply when `ctx` says so.
pub fn check_insn_in(platform: Platform, i: &Insn, ctx: &ExecContext) -> Vec<Violation> {
    let mut p = props_of(platform, i);
    apply_context(&mut p, ctx);
    violations(platform, &p)
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

/// The rules of `mask` (bit `k`: rule `k` of [`rules::RULES`]), in table order, with their
/// numbers.
pub fn mask_rules(
    mask: &rules::RuleMask,
) -> impl Iterator<Item = (usize, &'static rules::RuleInfo)> + '_ {
    mask.iter()
        .enumerate()
        .flat_map(|(w, &bits)| {
            let mut b = bits;
            std::iter::from_fn(move || {
                (b != 0).then(|| {
                    let k = w * 64 + b.trailing_zeros() as usize;
                    b &= b - 1;
                    k
                })
            })
        })
        .filter_map(|k| rules::RULES.get(k).map(|r| (k, r)))
}

/// A reusable validator: keeps its property record and result buffer between instructions,
/// so that validating a stream allocates nothing after the first violation.
#[derive(Debug, Default)]
pub struct Checker {
    props: PropsRecord,
    found: Vec<(&'static rules::RuleInfo, Option<usize>)>,
    ctx: ExecContext,
}

impl Checker {
    pub fn new() -> Checker {
        Checker::default()
    }

    /// A validator for instructions that execute in context `ctx`.
    pub fn with_context(ctx: ExecContext) -> Checker {
        Checker {
            ctx,
            ..Checker::default()
        }
    }

    /// Validate `i` on `platform`: the violated rules, in table order, with the source they
    /// concern (per-source rules).
    pub fn check(
        &mut self,
        platform: Platform,
        i: &Insn,
    ) -> impl ExactSizeIterator<Item = Violation> + '_ {
        props_into(platform, i, &mut self.props);
        apply_context(&mut self.props, &self.ctx);
        self.found.clear();
        rules::check_all(platform, &self.props, &mut self.found);
        self.found
            .iter()
            .map(|&(rule, src)| Violation { rule, src })
    }

    /// [`Checker::check`], also noting the rules that apply to `i` ([`applicable_rules`]) as
    /// bits of `applicable` (set, not cleared): one evaluation of each rule's `when` for both.
    pub fn check_collect(
        &mut self,
        platform: Platform,
        i: &Insn,
        applicable: &mut rules::RuleMask,
    ) -> impl ExactSizeIterator<Item = Violation> + '_ {
        props_into(platform, i, &mut self.props);
        apply_context(&mut self.props, &self.ctx);
        self.found.clear();
        rules::check_collect(platform, &self.props, &mut self.found, applicable);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Platform;

    /// `check_collect` (one pass) gives the violations of `check` and the rules of
    /// `applicable_rules`, on every platform, for decoded random words (mostly invalid) and
    /// the golden templates' instructions (valid by construction, mutated at random).
    #[test]
    fn check_collect_is_check_and_applicable() {
        use crate::golden::{template, values::Rng};
        let mut next = crate::test_rng::xorshift(0x0DDB_1A5E_5BAD_5EEDu64);
        let (mut c, mut general) = (Checker::new(), Checker::new());
        let (mut seen, mut with_violations) = (0, 0);
        for p in Platform::ALL {
            let ops = template::default_ops(p);
            for n in 0..6000u64 {
                let w = u128::from(next()) | u128::from(next()) << 64;
                let insn = if n % 2 == 0 {
                    crate::codec::decode_word(w, p).ok()
                } else {
                    let sel = ops[(w % ops.len() as u128) as usize];
                    let mut r = Rng::for_vector(w as u64, n, 0);
                    template::build(sel, n, p, &[], &mut r).map(|b| {
                        let mut i = b.insn;
                        // One in four: a random exec size (often breaking a region rule).
                        if n % 8 == 1 {
                            i.exec_size = 1 << ((w >> 64) % 6);
                        }
                        i
                    })
                };
                let Some(i) = insn else { continue };
                seen += 1;
                let mut mask = rules::RuleMask::default();
                let fast: Vec<_> = c
                    .check_collect(p, &i, &mut mask)
                    .map(|v| (rules::index_of(v.rule), v.src))
                    .collect();
                let slow: Vec<_> = general
                    .check(p, &i)
                    .map(|v| (rules::index_of(v.rule), v.src))
                    .collect();
                assert_eq!(fast, slow, "{p:?} {n} {w:#x}");
                with_violations += usize::from(!slow.is_empty());
                let from_mask: Vec<usize> = mask_rules(&mask).map(|(k, _)| k).collect();
                let applicable: Vec<usize> = applicable_rules(p, &i)
                    .into_iter()
                    .map(rules::index_of)
                    .collect();
                assert_eq!(from_mask, applicable, "{p:?} {n} {w:#x}");
            }
        }
        // (Both outcomes come up often.)
        assert!(
            with_violations > seen / 10 && with_violations < seen * 9 / 10,
            "{with_violations} of {seen}"
        );
    }

    #[test]
    fn mask_rules_lists_set_bits_in_order() {
        let last = rules::RULES.len() - 1;
        let mut m = rules::RuleMask::default();
        for k in [0, 5, 63, 64, last] {
            m[k / 64] |= 1 << (k % 64);
        }
        let ks: Vec<usize> = mask_rules(&m).map(|(k, _)| k).collect();
        assert_eq!(ks, [0, 5, 63, 64, last]);
        assert!(std::ptr::eq(
            mask_rules(&m).nth(2).map(|x| x.1).unwrap(),
            &rules::RULES[63]
        ));
    }
}
