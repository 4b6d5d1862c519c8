//! A shape's rule list, with its tagging plan's fixed rules (those every vector exercises
//! whatever its values, [`TagPlan::fixed_rules`]) merged in once per shape, so that the
//! vectors leave them out of their own rules ([`TagPlan::apply_leaving_fixed`]) instead of
//! adding and writing them one by one, each vector.

use super::*;

impl ShapeText {
    /// For [`ShapeText::set`]: list `shape`'s rules if it is `shared` by several vectors and
    /// has them as bits (`listed`), with its plan's fixed rules when all of them are numbered
    /// (`fixed_listed`, `with_fixed`).
    pub(super) fn list_rules(&mut self, shape: &Shape, shared: bool) {
        self.listed = false;
        self.fixed_listed = false;
        self.rules.clear();
        let (true, Some(bits)) = (shared, &shape.rule_bits) else {
            return;
        };
        let own: &mut BitSet = &mut self.with_fixed;
        own.clone_from(bits);
        self.fixed_listed = ids::insert_rules(own, shape.tags.fixed_rules());
        if self.fixed_listed {
            self.rules.set(own);
        } else {
            self.rules.set(bits);
        }
        self.listed = true;
    }
}
