//! The generated reference: the whole spec as JSON (`euref spec --json`) and
//! as Markdown with every row's citation (`euref spec`).

use crate::model::Spec;
use serde_json::{json, Value};
use std::fmt::Write;

/// The whole spec as JSON: every file's tables as written, plus the platform
/// list and each row's expanded platform set.
pub fn json(spec: &Spec) -> String {
    let mut files = serde_json::Map::new();
    for (name, v) in &spec.raw {
        files.insert(name.clone(), expand(spec, v.clone()));
    }
    let v = json!({
        "format": "euref-spec/1",
        "platforms": spec.platforms.names,
        "ids": spec.ids.iter().map(|(i, _)| i.clone()).collect::<Vec<_>>(),
        "files": files,
    });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

/// Add `platforms: [...]` next to every `gens`.
fn expand(spec: &Spec, v: Value) -> Value {
    match v {
        Value::Object(mut m) => {
            if let Some(Value::String(g)) = m.get("gens") {
                if let Ok(mask) = spec.platforms.parse(g) {
                    m.insert("platforms".into(), json!(spec.platforms.names_of(mask)));
                }
            }
            Value::Object(m.into_iter().map(|(k, v)| (k, expand(spec, v))).collect())
        }
        Value::Array(a) => Value::Array(a.into_iter().map(|x| expand(spec, x)).collect()),
        other => other,
    }
}

fn cell(v: &Value) -> String {
    let s = match v {
        Value::String(s) => s.clone(),
        Value::Array(a) => a.iter().map(cell).collect::<Vec<_>>().join(", "),
        Value::Object(m) => m
            .iter()
            .map(|(k, v)| format!("{k}: {}", cell(v)))
            .collect::<Vec<_>>()
            .join("; "),
        Value::Null => String::new(),
        other => other.to_string(),
    };
    s.replace('|', "\\|").replace('\n', "<br>")
}

/// The Markdown reference.
pub fn render(spec: &Spec) -> String {
    let mut o = String::new();
    o.push_str("# euref specification reference\n\n");
    o.push_str("Generated from spec/ by euref-spec-compiler. Every row carries its ID, the platforms it applies to and its citation.\n\n");
    let _ = writeln!(o, "Platforms: {}.\n", spec.platforms.names.join(", "));
    o.push_str("## Sources\n\n| key | title | where |\n| --- | --- | --- |\n");
    for s in &spec.sources {
        let _ = writeln!(
            o,
            "| {} | {} | {} |",
            s.key.get_ref(),
            s.title,
            s.file.clone().or(s.url.clone()).unwrap_or_default()
        );
    }
    o.push('\n');
    for (name, v) in &spec.raw {
        if name.ends_with("sources.toml") {
            continue;
        }
        let _ = writeln!(o, "## {name}\n");
        let Value::Object(m) = v else { continue };
        for (table, rows) in m {
            let Value::Array(rows) = rows else { continue };
            if rows.is_empty() {
                continue;
            }
            let _ = writeln!(o, "### [[{table}]] ({} rows)\n", rows.len());
            if table == "grid" {
                for r in rows {
                    let g = |k: &str| r.get(k).map(cell).unwrap_or_default();
                    let _ = writeln!(
                        o,
                        "#### `{}` — {} (kind {}, cmod {}; {})\n\n```\n{}\n```\n\nCite: {}{}\n",
                        g("id"),
                        g("title"),
                        g("kind"),
                        g("cmod"),
                        g("gens"),
                        r.get("grid")
                            .and_then(|x| x.as_str())
                            .unwrap_or("")
                            .trim_end(),
                        g("cite"),
                        r.get("note")
                            .map(|n| format!("  \nNote: {}", cell(n)))
                            .unwrap_or_default()
                    );
                }
                continue;
            }
            let mut cols: Vec<String> = vec![];
            for r in rows {
                if let Value::Object(rm) = r {
                    for k in rm.keys() {
                        if !cols.contains(k) {
                            cols.push(k.clone());
                        }
                    }
                }
            }
            // id first, cite and note last.
            cols.sort_by_key(|c| match c.as_str() {
                "id" | "name" | "key" => 0,
                "gens" => 1,
                "cite" => 8,
                "note" => 9,
                _ => 5,
            });
            let expr_cols = ["when", "check"];
            let rule_table = table == "rule";
            let _ = writeln!(o, "| {} |", cols.join(" | "));
            let _ = writeln!(o, "|{}", " --- |".repeat(cols.len()));
            for r in rows {
                let cells: Vec<String> = cols
                    .iter()
                    .map(|c| {
                        let v = r.get(c).map(cell).unwrap_or_default();
                        if expr_cols.contains(&c.as_str()) && !v.is_empty() {
                            format!("`{v}`")
                        } else if c == "gens" {
                            match spec.platforms.parse(&v) {
                                Ok(m) => format!("{v} ({})", spec.platforms.names_of(m).join(" ")),
                                Err(_) => v,
                            }
                        } else {
                            v
                        }
                    })
                    .collect();
                let mut line = format!("| {} |", cells.join(" | "));
                if rule_table && r.get("check_fn").is_some() {
                    line.push_str(" (Rust predicate)");
                }
                let _ = writeln!(o, "{line}");
            }
            o.push('\n');
        }
    }
    o
}
