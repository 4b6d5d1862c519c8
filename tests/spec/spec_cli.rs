//! The command line as the documentation shows it (issue 25): `euref spec --id` with an
//! unknown ID suggests the closest IDs; every `euref ...` command line in README.md, docs/ and
//! conformance/README.md names a real subcommand and only options that its `--help` lists;
//! the shell completions and man pages come out of the binary.

use crate::cli_util::euref;
use crate::scratch_util::Scratch;
use euref::spec::ALL_IDS;
use std::path::Path;

#[test]
fn an_unknown_id_suggests_the_closest_ones() {
    // The example: a prefix of real IDs.
    let prefix = "region.width-le";
    let want: Vec<&str> = ALL_IDS
        .iter()
        .map(|(id, _)| *id)
        .filter(|id| id.starts_with(prefix))
        .collect();
    assert!(!want.is_empty());
    let (code, out, err) = euref(&["spec", "--id", prefix]);
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains(&format!("no spec row has id `{prefix}`")),
        "{err}"
    );
    for id in &want {
        assert!(err.contains(id), "{id} not suggested: {err}");
    }
    // A typo (two letters swapped) in a real ID suggests it.
    let real = ALL_IDS
        .iter()
        .map(|(id, _)| *id)
        .find(|id| id.len() > 12)
        .unwrap();
    let mut typo: Vec<char> = real.chars().collect();
    let k = typo.len() - 3;
    typo.swap(k, k + 1);
    let typo: String = typo.into_iter().collect();
    if !ALL_IDS.iter().any(|(id, _)| *id == typo) {
        let (code, _, err) = euref(&["spec", "--id", &typo]);
        assert_eq!(code, 2);
        assert!(
            err.contains("did you mean") && err.contains(real),
            "{typo}: {err}"
        );
    }
    // Nothing close: no suggestion.
    let (code, _, err) = euref(&["spec", "--id", "zzzz-nothing-like-it"]);
    assert_eq!(code, 2);
    assert!(!err.contains("did you mean"), "{err}");
}

/// `euref ...` lines of the documentation (code blocks: indented or fenced), with their file.
fn documented_command_lines() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md"), root.join("conformance/README.md")];
    let mut docs: Vec<_> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let mut out = vec![];
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for l in text.lines() {
            let t = l.trim_start();
            if t.starts_with("euref ") && (l.starts_with("    ") || l == t) {
                // Up to a `#` comment.
                let cmd = t.split(" #").next().unwrap_or(t).trim().to_string();
                out.push((f.display().to_string(), cmd));
            }
        }
    }
    out
}

/// The `--long` options of a documented command line (`[--gen G]`, `--hex | -o`, `--x=Y`).
fn long_options(cmd: &str) -> Vec<String> {
    let mut opts = vec![];
    let mut quoted = false;
    for w in cmd.split_whitespace() {
        // Inside a quoted argument (`--sim 'euref sim --inject no-sat'`): not options of this
        // command.
        let was = quoted;
        quoted ^= w.matches('\'').count() % 2 == 1;
        if was || w.starts_with('\'') {
            continue;
        }
        let w = w.trim_start_matches('[');
        if let Some(o) = w.strip_prefix("--") {
            let name: String = o
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            opts.push(name);
        }
    }
    opts
}

#[test]
fn documented_command_lines_use_real_subcommands_and_options() {
    let lines = documented_command_lines();
    assert!(lines.len() >= 20, "{lines:?}");
    let mut helps = std::collections::HashMap::new();
    for (file, cmd) in &lines {
        let sub = cmd.split_whitespace().nth(1).unwrap().to_string();
        if sub.starts_with('-') {
            // `euref --version`, `euref --help`.
            continue;
        }
        let help = helps.entry(sub.clone()).or_insert_with(|| {
            let (code, out, err) = euref(&[sub.as_str(), "--help"]);
            assert_eq!(code, 0, "{file}: `{cmd}`: no subcommand `{sub}`: {err}");
            out
        });
        for o in long_options(cmd) {
            assert!(
                help.contains(&format!("--{o}")),
                "{file}: `{cmd}`: `euref {sub}` has no option --{o}"
            );
        }
        // A documented row ID exists.
        let words: Vec<&str> = cmd.split_whitespace().collect();
        if let Some(k) = words.iter().position(|w| *w == "--id") {
            let id = words[k + 1].trim_end_matches(']');
            assert!(
                ALL_IDS.iter().any(|(x, _)| *x == id),
                "{file}: `{cmd}`: no row {id}"
            );
        }
    }
}

#[test]
fn completions_and_man_pages_come_from_the_binary() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let (code, out, err) = euref(&["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        assert!(out.contains("disasm") && out.contains("golden"), "{shell}");
    }
    let (code, _, err) = euref(&["completions", "tcsh"]);
    assert_eq!(code, 2, "{err}");
    let (code, out, _) = euref(&["man", "asm"]);
    assert_eq!(code, 0);
    assert!(out.starts_with(".ie") || out.contains(".TH"), "{out}");
    assert!(out.contains("compact"), "{out}");
    let (code, _, err) = euref(&["man", "nosuch"]);
    assert_eq!(code, 2);
    assert!(err.contains("no such subcommand"), "{err}");
    let tmp = Scratch::new("spec-cli");
    let dir = tmp.join("man1");
    let (code, _, err) = euref(&["man", "--dir", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    for page in [
        "euref.1",
        "euref-asm.1",
        "euref-disasm.1",
        "euref-spec.1",
        "euref-man.1",
    ] {
        assert!(dir.join(page).is_file(), "{page} not written");
    }
}
