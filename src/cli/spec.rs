//! `euref spec`: the generated reference of every table, with citations.

use super::output;
use euref::spec;
use std::io::Write;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print JSON (for programs) instead of Markdown.
    #[arg(long)]
    pub json: bool,
    /// Print only the row with this ID (as JSON with --json).
    #[arg(long)]
    pub id: Option<String>,
}

pub fn run(a: Args) -> Result<ExitCode, String> {
    let text = match &a.id {
        Some(id) => find_row(id, a.json)?,
        None if a.json => spec::SPEC_JSON.to_string(),
        None => spec::SPEC_MARKDOWN.to_string(),
    };
    let mut out = output::stdout();
    let r = out
        .write_all(text.as_bytes())
        .and_then(|_| out.write_all(b"\n"));
    output::finish(out, r)?;
    Ok(ExitCode::SUCCESS)
}

/// Look a row up by ID in the JSON dump.
fn find_row(id: &str, json: bool) -> Result<String, String> {
    let v: serde_json::Value =
        serde_json::from_str(spec::SPEC_JSON).map_err(|e| format!("internal: spec JSON: {e}"))?;
    let files = v
        .get("files")
        .and_then(|f| f.as_object())
        .ok_or("internal: spec JSON has no files")?;
    let mut ids: Vec<&str> = Vec::new();
    for (file, tables) in files {
        let Some(tables) = tables.as_object() else {
            continue;
        };
        for (table, rows) in tables {
            for row in rows.as_array().into_iter().flatten() {
                let Some(this) = row.get("id").and_then(|x| x.as_str()) else {
                    continue;
                };
                if this != id {
                    ids.push(this);
                    continue;
                }
                return Ok(if json {
                    serde_json::to_string_pretty(row).unwrap_or_default()
                } else {
                    let mut s = format!("{id}  ({file} [[{table}]])\n");
                    if let Some(m) = row.as_object() {
                        for (k, v) in m {
                            if k != "id" {
                                let shown = match v {
                                    serde_json::Value::String(s) => s.clone(),
                                    other => other.to_string(),
                                };
                                s.push_str(&format!("  {k}: {shown}\n"));
                            }
                        }
                    }
                    s
                });
            }
        }
    }
    let close = closest_ids(id, &ids);
    let did_you_mean = if close.is_empty() {
        String::new()
    } else {
        format!("; did you mean {}?", close.join(", "))
    };
    Err(format!(
        "no spec row has id `{id}`{did_you_mean} (`euref spec` lists every row; IDs are \
         case-sensitive)"
    ))
}

/// Suggestions shown for an unknown ID.
const SUGGESTIONS: usize = 5;

/// The IDs closest to `id`, best first: those starting with it (the shortest first), then
/// those within a small edit distance (Damerau-Levenshtein: at most 2, or a fifth of the
/// length of `id` for longer IDs), then those that `id` starts with, at most [`SUGGESTIONS`].
pub fn closest_ids<'a>(id: &str, ids: &[&'a str]) -> Vec<&'a str> {
    let lower = id.to_ascii_lowercase();
    let budget = (lower.len() / 5).max(2);
    // (rank, distance or length, id): lower is better.
    let mut scored: Vec<(u8, usize, &'a str)> = ids
        .iter()
        .filter_map(|&cand| {
            let c = cand.to_ascii_lowercase();
            if c.starts_with(&lower) && !lower.is_empty() {
                return Some((0, c.len(), cand));
            }
            let d = strsim::damerau_levenshtein(&lower, &c);
            if d <= budget {
                return Some((1, d, cand));
            }
            // A longer ID whose row exists only in part (`region.width-le-exec.x`).
            (lower.starts_with(&c) && c.contains('.')).then(|| (2, lower.len() - c.len(), cand))
        })
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.2 == b.2);
    scored.into_iter().take(SUGGESTIONS).map(|s| s.2).collect()
}

#[cfg(test)]
mod tests {
    use super::closest_ids;

    const IDS: [&str; 6] = [
        "region.width-le-exec",
        "region.width-legal",
        "region.vstride-legal",
        "math.inv.f",
        "math.inv.hf",
        "special.int-hf-conversion-dword-dst",
    ];

    #[test]
    fn a_prefix_names_the_rows_it_starts() {
        // The shortest first.
        assert_eq!(
            closest_ids("region.width-le", &IDS),
            ["region.width-legal", "region.width-le-exec"]
        );
    }

    #[test]
    fn typos_within_the_edit_budget_are_suggested() {
        // Two letters swapped, one missing, one wrong: each one edit.
        assert_eq!(
            closest_ids("region.widht-legal", &IDS)[0],
            "region.width-legal"
        );
        assert_eq!(closest_ids("math.inv.h", &IDS)[0], "math.inv.hf");
        assert_eq!(closest_ids("Math.Inv.F", &IDS)[0], "math.inv.f");
        assert!(closest_ids("special.int-hf-conversion-dword-dts", &IDS)
            .contains(&"special.int-hf-conversion-dword-dst"));
    }

    #[test]
    fn an_id_with_more_after_a_row_names_the_row() {
        assert_eq!(closest_ids("math.inv.f.rtne", &IDS)[0], "math.inv.f");
    }

    #[test]
    fn nothing_close_gives_nothing() {
        assert!(closest_ids("opcode.mov", &IDS).is_empty());
        assert!(closest_ids("", &IDS).is_empty());
    }
}
