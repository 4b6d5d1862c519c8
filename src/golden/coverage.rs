//! What a set of vectors covers: spec row IDs, compare-grid cells, value classes and
//! instruction forms, against the targets of a generation (`--coverage`).

use super::format::Vector;
use super::template::{self, OpSel};
use crate::spec::{compare, conversions, float_modes, math, rules, DataType, Opcode, Platform};
use std::collections::{BTreeMap, BTreeSet};
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
    /// Rows of the category's table that are not targets on the platform, each with the
    /// reason no single-instruction vector of the default run exercises it.
    pub excluded: Vec<(String, String)>,
}

/// Spec rows that no vector of a default run exercises, grouped by reason. A row listed here
/// is reported as excluded (with the reason) instead of missed; every other row of a
/// category's table on the platform is a target. Conversion rows, runtime and unconditional
/// validator rules and send/flow rules are excluded by what their spec rows say instead
/// ([`Coverage::categories`]).
pub const EXCLUDED: &[(&[&str], &str)] = &[
    (
        &["fp.alt.conversion-unsupported"],
        "the result is undefined and the model computes none (the instruction is refused), so \
         no vector has an expected state for it",
    ),
    (
        &["fp.ieee.acc-precision"],
        "the model keeps F accumulator channels at GRF precision (acc.precision.f); the extra \
         precision this row allows has neither a modelled value nor a vector alternative",
    ),
    (
        &[
            "acc.same-register",
            "acc.no-swizzle",
            "acc.src-region-matches-dst",
            "acc.word-dst-lower-word",
            "acc.acc2-9-mov-only",
            "acc.acc2-9-no-modifiers",
            "acc.simd16-float-explicit",
            "mixed.align16-no-acc-read",
            "mixed.acc-src-packed-hf-dst-offset-0",
        ],
        "explicit accumulator operands: the templates write and read the accumulators only \
         implicitly (mac, AccWrEn); no template yet",
    ),
    (
        &["acc.macro-align16"],
        "opcode or math function without a template yet (madm, math invm/rsqrtm)",
    ),
    (
        &["arf.cr0-switch", "arf.spf-h1-q1-n1"],
        "control-register operands and single-program-flow mode: not generated (the \
         templates set cr0 in the initial state only)",
    ),
    (
        &[
            "indirect.no-exec32-multi",
            "indirect.per-channel-exec-le-8",
            "indirect.addr-group-aligned",
            "special.preemption-compressed-multi-index",
        ],
        "indirect addressing: the templates use direct GRF operands; no template yet",
    ),
    (
        &[
            "mixed.align16-packed",
            "mixed.align16-math-packed",
            "mixed.align16-hf-vstride-nonzero",
            "mixed.align16-oword-aligned",
            "mixed.no-simd16-packed-hf-dst",
            "mixed.no-simd16-f-dst",
            "mixed.align16-simd8",
            "mixed.implicit-acc-hf-dst-stride-2",
            "mixed.align1-math-hf-strided",
            "mixed.align1-packed-hf-dst-oword",
        ],
        "mixed F/HF arithmetic: the templates keep arithmetic on one float type (moves convert); \
         no template yet",
    ),
    (
        &[
            "qword.align16-qword-dst-exec-le-2",
            "special.align16-conversion-one-reg",
        ],
        "Align16 conversions and QWord Align16 forms: the Align16 templates keep one dword type",
    ),
];

/// Rows excluded on the platforms with feature.df-element-size-4 (Ivy Bridge) only.
pub const EXCLUDED_DF4: (&[&str], &str) = (
    &[
        "fp.ieee.denorm.df",
        "fp.alt.f-only",
        "align.dst-exec-aligned",
    ],
    "a DF element is a pair of 32-bit channels here (feature.df-element-size-4): the templates \
     generate DF only as DF-to-DF moves (their regions count 8-byte elements; the model moves \
     DF only to DF), and the platform has no HF, so no DF or HF operation and no narrowing from \
     DF exists",
);

/// The reason row `id` is excluded on `p` ([`EXCLUDED`], [`EXCLUDED_DF4`]).
pub fn excluded_reason(id: &str, p: Platform) -> Option<&'static str> {
    if crate::spec::feature::DF_ELEMENT_SIZE_4.on(p) && EXCLUDED_DF4.0.contains(&id) {
        return Some(EXCLUDED_DF4.1);
    }
    EXCLUDED
        .iter()
        .find(|(ids, _)| ids.contains(&id))
        .map(|(_, r)| *r)
}

/// Why a conversion row has no vector on `p` (None: it is a target). Derived from the spec:
/// a row whose type pairs mov does not accept on `p` (spec/opcodes.toml; the validator refuses
/// them with op.types-unsupported) needs two instructions; on feature.df-element-size-4
/// platforms the model moves DF only to DF.
fn conversion_exclusion(pairs: &[(DataType, DataType)], p: Platform) -> Option<String> {
    let mov_ok = |s: DataType, d: DataType| {
        Opcode::Mov
            .info()
            .types
            .iter()
            .any(|c| c.gens.contains(p) && c.dst.contains(d) && c.srcs[0].contains(s))
    };
    if !pairs.iter().any(|&(s, d)| mov_ok(s, d)) {
        return Some(format!(
            "no single mov converts these types on {} (no mov type combination in \
             spec/opcodes.toml: op.types-unsupported); the conversion takes two instructions",
            p.name()
        ));
    }
    let df4 = crate::spec::feature::DF_ELEMENT_SIZE_4.on(p);
    let df_mixed =
        |&(s, d): &(DataType, DataType)| s != d && (s == DataType::DF || d == DataType::DF);
    if df4 && pairs.iter().filter(|x| mov_ok(x.0, x.1)).all(df_mixed) {
        return Some(format!(
            "on {} a DF element is a pair of 32-bit channels (feature.df-element-size-4) and the \
             model moves DF only to DF",
            p.name()
        ));
    }
    None
}

/// Why a validator rule (spec/rules) is not a target, from its `when`: a state-dependent
/// rule, a rule of send or flow-control instructions, or an unconditional one.
fn rule_exclusion(r: &rules::RuleInfo, p: Platform) -> Option<String> {
    let w = r.when;
    if w.is_empty() {
        return Some(
            "unconditional: applies to every instruction; every vector is validated against \
             it, and vectors list only rules with a condition"
                .to_string(),
        );
    }
    if w.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|t| t == "runtime")
    {
        return Some(
            "state-dependent (runtime): decided by register contents an earlier instruction \
             left, not by one instruction"
                .to_string(),
        );
    }
    let sendflow = [
        "opcode_class == \"send\"",
        "opcode_class == \"flow\"",
        "eot",
    ];
    if sendflow.iter().any(|x| w.starts_with(x)) {
        return Some(
            "send and flow-control instructions: their effect is a message or a jump, not a \
             register result a single-instruction vector can hold"
                .to_string(),
        );
    }
    excluded_reason(r.id, p).map(str::to_string)
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
            let mut conv: BTreeMap<&str, Vec<(DataType, DataType)>> = BTreeMap::new();
            let scalars: Vec<DataType> = DataType::ALL
                .iter()
                .copied()
                .filter(|t| !t.is_vector() && t.info().gens.contains(p))
                .collect();
            for s in &scalars {
                for d in &scalars {
                    if let Some(r) = conversions::rule(*s, *d, p) {
                        conv.entry(r.id).or_default().push((*s, *d));
                    }
                }
            }
            let mut targets = Vec::new();
            let mut excluded = Vec::new();
            for (id, pairs) in conv {
                match conversion_exclusion(&pairs, p) {
                    Some(why) => excluded.push((id.to_string(), why)),
                    None => targets.push(id.to_string()),
                }
            }
            cats.push(self.cat("conversion rows", targets).with_excluded(excluded));
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
        let (fm, fx) = split(
            float_modes::RULES
                .iter()
                .filter(|r| r.gens.contains(p))
                .map(|r| (r.id, excluded_reason(r.id, p).map(str::to_string))),
        );
        cats.push(self.cat("float-mode rows", fm).with_excluded(fx));
        let rr = rules::RULES
            .iter()
            .filter(|r| r.gens.contains(p) && r.id.starts_with("region."))
            .map(|r| r.id.to_string())
            .collect();
        cats.push(self.cat("region rules", rr));
        // The validator rules (spec/rules) whose condition can hold for one instruction.
        let (vr, vx) = split(
            rules::RULES
                .iter()
                .filter(|r| r.gens.contains(p))
                .map(|r| (r.id, rule_exclusion(r, p))),
        );
        cats.push(self.cat("validator rules", vr).with_excluded(vx));
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
                "access:align16",
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
            // Exclusions grouped by reason.
            let mut by_reason: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
            for (id, why) in &c.excluded {
                by_reason.entry(why).or_default().push(id);
            }
            for (why, ids) in by_reason {
                let _ = writeln!(s, "      excluded ({why}): {}", ids.join(" "));
            }
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
            excluded: Vec::new(),
        }
    }

    fn with_excluded(mut self, excluded: Vec<(String, String)>) -> Category {
        self.excluded = excluded;
        self
    }
}

/// Targets and exclusions of `(id, reason)` rows.
fn split(
    rows: impl Iterator<Item = (&'static str, Option<String>)>,
) -> (Vec<String>, Vec<(String, String)>) {
    let mut t = Vec::new();
    let mut x = Vec::new();
    for (id, why) in rows {
        match why {
            Some(w) => x.push((id.to_string(), w)),
            None => t.push(id.to_string()),
        }
    }
    (t, x)
}
