//! What a set of vectors covers: spec row IDs, compare-grid cells, value classes and
//! instruction forms, against the targets of a generation (`--coverage`).

use super::format::Vector;
use super::template::{self, OpSel};
use crate::spec::{compare, conversions, float_modes, math, rules, DataType, Opcode, Platform};
use std::collections::BTreeSet;
use std::fmt::Write;

/// IDs and labels seen.
#[derive(Debug, Clone, Default)]
pub struct Coverage {
    pub vectors: u64,
    pub ids: BTreeSet<String>,
    pub classes: BTreeSet<String>,
}

/// One category of targets.
#[derive(Debug, Clone)]
pub struct Category {
    pub name: &'static str,
    pub targets: Vec<String>,
    pub covered: Vec<String>,
    pub missed: Vec<String>,
}

impl Coverage {
    pub fn add(&mut self, v: &Vector) {
        self.vectors += 1;
        for r in &v.rules {
            if !self.ids.contains(r) {
                self.ids.insert(r.clone());
            }
        }
        for c in &v.classes {
            if !self.classes.contains(c) {
                self.classes.insert(c.clone());
            }
        }
    }

    /// The categories for a run of `ops` on `p`.
    pub fn categories(&self, p: Platform, ops: &[OpSel]) -> Vec<Category> {
        let has = |o: Opcode| ops.contains(&OpSel::Op(o));
        let mut cats = Vec::new();
        let mut opc: Vec<String> = ops
            .iter()
            .map(|s| match s {
                OpSel::Op(o) => o.info().id.to_string(),
                OpSel::Math(_) => Opcode::Math.info().id.to_string(),
            })
            .collect();
        opc.dedup();
        cats.push(self.cat("opcode rows", opc));
        let mf: Vec<String> = math::FUNCS
            .iter()
            .filter(|f| f.gens.contains(p))
            .filter(|f| ops.contains(&OpSel::Math(f.func)))
            .map(|f| f.id.to_string())
            .collect();
        cats.push(self.cat("math function rows", mf));
        if has(Opcode::Mov) {
            let mut conv = BTreeSet::new();
            let scalars: Vec<DataType> = DataType::ALL
                .iter()
                .copied()
                .filter(|t| !t.is_vector() && t.info().gens.contains(p))
                .collect();
            for s in &scalars {
                for d in &scalars {
                    if let Some(r) = conversions::rule(*s, *d, p) {
                        conv.insert(r.id.to_string());
                    }
                }
            }
            cats.push(self.cat("conversion rows", conv.into_iter().collect()));
            let sp = conversions::SPECIALS
                .iter()
                .filter(|s| s.gens.contains(p))
                .map(|s| s.id.to_string())
                .collect();
            cats.push(self.cat("float-to-integer special rows", sp));
        }
        let sat = conversions::SATURATIONS
            .iter()
            .filter(|s| s.gens.contains(p))
            .map(|s| s.id.to_string())
            .collect();
        cats.push(self.cat("saturation rows", sat));
        let mut grids = Vec::new();
        let mut cells = Vec::new();
        for g in compare::GRIDS.iter().filter(|g| g.gens.contains(p)) {
            let op = match g.kind {
                compare::GridKind::Cmp => Opcode::Cmp,
                compare::GridKind::Cmpn => Opcode::Cmpn,
            };
            if !has(op) {
                continue;
            }
            grids.push(g.id.to_string());
            for a in compare::CLASSES {
                for b in compare::CLASSES {
                    cells.push(format!("{}[{a},{b}]", g.id));
                }
            }
        }
        if !grids.is_empty() {
            cats.push(self.cat("compare grids", grids));
            cats.push(self.cat("compare grid cells", cells));
        }
        if has(Opcode::Cmpn) || has(Opcode::Sel) {
            let cr = compare::CMPN_RULES
                .iter()
                .filter(|r| r.gens.contains(p))
                .map(|r| r.id.to_string())
                .collect();
            cats.push(self.cat("compare-NaN rules", cr));
        }
        let fm = float_modes::RULES
            .iter()
            .filter(|r| r.gens.contains(p))
            .map(|r| r.id.to_string())
            .collect();
        cats.push(self.cat("float-mode rows", fm));
        let rr = rules::RULES
            .iter()
            .filter(|r| r.gens.contains(p) && r.id.starts_with("region."))
            .map(|r| r.id.to_string())
            .collect();
        cats.push(self.cat("region rules", rr));
        // Value classes of the float types, instruction forms.
        let mut vc = Vec::new();
        for t in [DataType::HF, DataType::F, DataType::DF] {
            if !t.info().gens.contains(p) {
                continue;
            }
            for c in compare::CLASSES {
                vc.push(format!("{}:{c}", t.name().to_ascii_lowercase()));
            }
        }
        let seen: BTreeSet<String> = self
            .classes
            .iter()
            .filter_map(|c| c.split('/').next().map(str::to_string))
            .collect();
        cats.push(Category::from_sets("float value classes", vc, &seen));
        let mut forms: Vec<String> = Vec::new();
        for c in ["z", "nz", "g", "ge", "l", "le", "o", "u"] {
            forms.push(format!("cmod:{c}"));
        }
        for f in template::PRED_FORMS {
            forms.push(format!("pred:{f}"));
        }
        for r in template::REGION_CLASSES {
            forms.push(format!("region:{r}"));
        }
        for r in ["rtne", "ru", "rd", "rtz"] {
            forms.push(format!("round:{r}"));
        }
        forms.extend(
            [
                "fmode:ieee",
                "fmode:alt",
                "denorm:keep",
                "denorm:flush",
                "sat",
                "srcmod:neg",
                "srcmod:abs",
            ]
            .map(str::to_string),
        );
        cats.push(Category::from_sets(
            "instruction forms",
            forms,
            &self.classes,
        ));
        cats
    }

    fn cat(&self, name: &'static str, targets: Vec<String>) -> Category {
        Category::from_sets(name, targets, &self.ids)
    }

    /// A text report: per category covered/total and the missed targets.
    pub fn report(&self, p: Platform, ops: &[OpSel]) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "coverage of {} vectors ({}):", self.vectors, p.name());
        for c in self.categories(p, ops) {
            let _ = writeln!(
                s,
                "  {:<32} {:>5}/{:<5} covered",
                c.name,
                c.covered.len(),
                c.targets.len()
            );
            if !c.missed.is_empty() {
                let shown: Vec<&str> = c.missed.iter().take(40).map(String::as_str).collect();
                let more = c.missed.len().saturating_sub(shown.len());
                let _ = writeln!(
                    s,
                    "      missed: {}{}",
                    shown.join(" "),
                    if more > 0 {
                        format!(" ... and {more} more")
                    } else {
                        String::new()
                    }
                );
            }
        }
        let _ = writeln!(
            s,
            "  value classes seen: {}",
            self.classes
                .iter()
                .filter(|c| c.contains(':') && !c.contains("exec"))
                .count()
        );
        s
    }
}

impl Category {
    fn from_sets(name: &'static str, targets: Vec<String>, seen: &BTreeSet<String>) -> Category {
        let (covered, missed) = targets.iter().cloned().partition(|t| seen.contains(t));
        Category {
            name,
            targets,
            covered,
            missed,
        }
    }
}
