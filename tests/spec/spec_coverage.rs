//! Every row ID in spec/ must be referenced by at least one test: tests/ is
//! scanned (Rust sources and data files) for each ID as a whole word. Adding a
//! rule without a test fails here.

use std::path::Path;

/// Files that mention IDs without testing them.
const EXCLUDED: [&str; 2] = [
    "tests/spec/spec_coverage.rs",
    "tests/fixtures/broken_spec.toml",
];

fn collect(dir: &Path, out: &mut Vec<(String, String)>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
            continue;
        }
        let shown = p.to_string_lossy().replace('\\', "/");
        if EXCLUDED.iter().any(|x| shown.ends_with(x)) {
            continue;
        }
        if let Ok(text) = std::fs::read_to_string(&p) {
            out.push((shown, text));
        }
    }
}

fn is_id_char(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '-'
}

/// Whether `text` contains `id` not as part of a longer ID.
fn mentions(text: &str, id: &str) -> bool {
    let mut from = 0;
    while let Some(i) = text[from..].find(id) {
        let start = from + i;
        let end = start + id.len();
        let before = text[..start].chars().next_back();
        let after = text[end..].chars().next();
        // A trailing '.' ends a sentence; it does not extend the ID.
        let after_ok = match after {
            None => true,
            Some('.') => !text[end + 1..].starts_with(|c: char| c.is_ascii_alphanumeric()),
            Some(c) => !is_id_char(c),
        };
        if !before.is_some_and(is_id_char) && after_ok {
            return true;
        }
        from = end;
    }
    false
}

#[test]
fn every_spec_id_is_referenced_by_a_test() {
    let mut files = vec![];
    collect(Path::new("tests"), &mut files);
    assert!(!files.is_empty(), "no test files found under tests/");
    let ids = euref::spec::ALL_IDS;
    assert!(ids.len() > 100, "suspiciously few IDs: {}", ids.len());
    let missing: Vec<String> = ids
        .iter()
        .filter(|(id, _)| !files.iter().any(|(_, t)| mentions(t, id)))
        .map(|(id, file)| format!("{id} ({file})"))
        .collect();
    assert!(
        missing.is_empty(),
        "{} of {} spec IDs are not referenced by any test:\n  {}",
        missing.len(),
        ids.len(),
        missing.join("\n  ")
    );
}

#[test]
fn mention_matching_respects_id_boundaries() {
    assert!(mentions("check(\"type.b\")", "type.b"));
    assert!(mentions("see type.b.", "type.b"));
    assert!(!mentions("type.bf", "type.b"));
    assert!(!mentions("type.b.x", "type.b"));
    assert!(!mentions("xtype.b", "type.b"));
    assert!(!mentions("type.b-1", "type.b"));
}
