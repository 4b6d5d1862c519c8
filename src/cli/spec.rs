//! `euref spec`: the generated reference of every table, with citations.

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
    let mut out = std::io::stdout().lock();
    // A closed pipe (e.g. `euref spec | head`) is not an error worth reporting.
    let _ = out.write_all(text.as_bytes());
    let _ = out.write_all(b"\n");
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
    for (file, tables) in files {
        let Some(tables) = tables.as_object() else {
            continue;
        };
        for (table, rows) in tables {
            for row in rows.as_array().into_iter().flatten() {
                if row.get("id").and_then(|x| x.as_str()) == Some(id) {
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
    }
    Err(format!(
        "no spec row has id `{id}` (see `euref spec` for all IDs)"
    ))
}
