//! Spec rows by ID, for what the checker prints: whether a row is a structural validity row
//! (spec/rules/*: which instruction forms are legal) or a semantic one (every other file: what
//! an instruction computes, from opcodes and conversions to float modes, compare grids and
//! math), and a row's text and citation (`euref::spec`).

use std::collections::HashMap;
use std::sync::OnceLock;

/// The spec folder of the structural validity rows.
const STRUCTURAL_DIR: &str = "spec/rules/";

/// Where a row ID comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum RowKind {
    /// A row of spec/ outside spec/rules: what an instruction computes.
    Semantic,
    /// A row of spec/rules: whether an instruction form is legal.
    Structural,
    /// Not a row of this euref's spec (a vector from another version).
    Unknown,
}

impl RowKind {
    /// How the checker's tables name the kind.
    pub fn title(self) -> &'static str {
        match self {
            RowKind::Semantic => {
                "semantic rows (what the instruction computes: spec/ outside spec/rules)"
            }
            RowKind::Structural => {
                "structural rows (which instruction forms are legal: spec/rules)"
            }
            RowKind::Unknown => "IDs that are no row of this euref's spec",
        }
    }
}

/// Every row ID with its file (`spec::ALL_IDS`), by ID.
fn files() -> &'static HashMap<&'static str, &'static str> {
    static FILES: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    FILES.get_or_init(|| crate::spec::ALL_IDS.iter().copied().collect())
}

/// The row of an ID as vectors list it: a grid cell `cmp.g[+inf,NaN]` is its grid's.
fn row_id(id: &str) -> &str {
    id.split_once('[').map_or(id, |(row, _)| row)
}

/// The file of row `id` (`spec/compare.toml`), if it is one.
pub fn file_of(id: &str) -> Option<&'static str> {
    files().get(row_id(id)).copied()
}

/// Whether row `id` is semantic or structural (by its file).
pub fn kind(id: &str) -> RowKind {
    match file_of(id) {
        Some(f) if f.starts_with(STRUCTURAL_DIR) => RowKind::Structural,
        Some(_) => RowKind::Semantic,
        None => RowKind::Unknown,
    }
}

/// A row as `euref check --explain` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowText {
    pub id: String,
    /// File and table (`spec/compare.toml [[cmpn]]`).
    pub place: String,
    /// The row's `text` (or a rule's `msg`, a grid's `title`).
    pub text: String,
    pub cite: String,
}

/// The whole spec as JSON, read once.
fn spec_json() -> Option<&'static serde_json::Value> {
    static SPEC: OnceLock<Option<serde_json::Value>> = OnceLock::new();
    SPEC.get_or_init(|| serde_json::from_str(crate::spec::SPEC_JSON).ok())
        .as_ref()
}

/// The text and citation of row `id` (a grid cell: its grid's), from `euref::spec`.
pub fn text_of(id: &str) -> Option<RowText> {
    let want = row_id(id);
    let files = spec_json()?.get("files")?.as_object()?;
    for (file, tables) in files {
        for (table, rows) in tables.as_object().into_iter().flatten() {
            for row in rows.as_array().into_iter().flatten() {
                if row.get("id").and_then(|x| x.as_str()) != Some(want) {
                    continue;
                }
                let field = |k: &str| row.get(k).and_then(|x| x.as_str()).map(str::to_string);
                return Some(RowText {
                    id: want.to_string(),
                    place: format!("{file} [[{table}]]"),
                    text: field("text")
                        .or_else(|| field("msg"))
                        .or_else(|| field("title"))
                        .unwrap_or_default(),
                    cite: field("cite").unwrap_or_default(),
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_follow_the_files() {
        // Every row of spec/rules is structural, every other row semantic, by ALL_IDS.
        for (id, file) in crate::spec::ALL_IDS.iter() {
            let want = if file.starts_with("spec/rules/") {
                RowKind::Structural
            } else {
                RowKind::Semantic
            };
            assert_eq!(kind(id), want, "{id} ({file})");
        }
        // acc.* is in both: registers.toml (semantic) and rules/accumulators.toml.
        assert_eq!(kind("acc.precision.f"), RowKind::Semantic);
        assert_eq!(kind("acc.no-byte-type"), RowKind::Structural);
        assert_eq!(kind("cmp.g[+inf,NaN]"), RowKind::Semantic);
        assert_eq!(kind("no.such.row"), RowKind::Unknown);
    }

    #[test]
    fn texts_and_citations_come_from_the_spec() {
        let r = text_of("cmpn.rule.sel-flags-untouched").unwrap();
        assert_eq!(r.place, "spec/compare.toml [[cmpn]]");
        assert!(r.cite.starts_with("seed000"), "{r:?}");
        assert!(!r.text.is_empty());
        let rule = text_of("region.width-le-exec").unwrap();
        assert!(
            rule.place.starts_with("spec/rules/regions.toml"),
            "{rule:?}"
        );
        assert!(!rule.text.is_empty() && !rule.cite.is_empty());
        assert_eq!(text_of("no.such.row"), None);
    }
}
