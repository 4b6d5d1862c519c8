//! The spec compiler rejects broken tables with a precise `file:line: message`
//! (cases in tests/fixtures/broken_spec.toml), and accepts the real spec/.

use crate::scratch_util;

use scratch_util::Scratch;
use serde::Deserialize;
use std::path::Path;

#[derive(Deserialize)]
struct Cases {
    case: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    file: String,
    find: String,
    replace: String,
    expect: String,
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn real_spec_compiles() {
    let out = euref_spec_compiler::compile(Path::new("spec"), "spec");
    if let Err(diags) = &out {
        let all: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
        panic!("spec/ does not compile:\n{}", all.join("\n"));
    }
}

#[test]
fn every_broken_fixture_fails_with_its_message() {
    let text = std::fs::read_to_string("tests/fixtures/broken_spec.toml").unwrap();
    let cases: Cases = toml::from_str(&text).unwrap();
    assert!(cases.case.len() >= 15);
    let mut failures = vec![];
    for c in &cases.case {
        let dir = Scratch::new("spec-test");
        let spec_dir = dir.join("spec");
        copy_dir(Path::new("spec"), &spec_dir);
        let path = spec_dir.join(&c.file);
        let original = std::fs::read_to_string(&path).unwrap();
        let Some(pos) = original.find(&c.find) else {
            failures.push(format!("{}: `find` text not in spec/{}", c.name, c.file));
            continue;
        };
        let line = original[..pos].matches('\n').count() + 1;
        let patched = original.replacen(&c.find, &c.replace, 1);
        std::fs::write(&path, patched).unwrap();
        let expect = c.expect.replace("{line}", &line.to_string());
        match euref_spec_compiler::compile(&spec_dir, "spec") {
            Ok(_) => failures.push(format!("{}: the broken table compiled", c.name)),
            Err(diags) => {
                let shown: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
                if !shown.iter().any(|d| d.contains(&expect)) {
                    failures.push(format!(
                        "{}: expected a diagnostic containing\n    {expect}\n  got\n    {}",
                        c.name,
                        shown.join("\n    ")
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_missing_table_is_reported() {
    let dir = Scratch::new("spec-test");
    let spec_dir = dir.join("spec");
    copy_dir(Path::new("spec"), &spec_dir);
    std::fs::remove_file(spec_dir.join("opcodes.toml")).unwrap();
    let diags = euref_spec_compiler::compile(&spec_dir, "spec")
        .err()
        .unwrap();
    assert!(diags.iter().any(|d| d
        .to_string()
        .starts_with("spec/opcodes.toml: cannot read required table")));
}

#[test]
fn conversion_pairs_must_be_covered_exactly_once() {
    // Dropping a whole conversion row leaves pairs uncovered.
    let dir = Scratch::new("spec-test");
    let spec_dir = dir.join("spec");
    copy_dir(Path::new("spec"), &spec_dir);
    let path = spec_dir.join("conversions.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let start = text.find("\n[[conversion]]").unwrap() + 1;
    let next = text[start + 1..]
        .find("\n[[")
        .map(|i| start + 2 + i)
        .unwrap();
    let removed = &text[start..next];
    let patched = format!("{}{}", &text[..start], &text[next..]);
    std::fs::write(&path, patched).unwrap();
    let diags = euref_spec_compiler::compile(&spec_dir, "spec")
        .err()
        .unwrap();
    assert!(
        diags
            .iter()
            .any(|d| d.to_string().contains("no conversion row covers")),
        "removing {removed} did not report an uncovered pair: {diags:?}"
    );
}
