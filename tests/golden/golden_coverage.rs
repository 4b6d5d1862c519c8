//! Coverage of a default `euref golden` run (issue 7): on every platform, the vectors of a
//! default run (seed 0, every template) cover every target of every `--coverage` category:
//! spec rows, compare-grid cells, value classes and instruction forms. What no vector can
//! exercise is excluded with a reason (`golden::coverage::EXCLUDED` and the rules derived
//! from the spec rows), never silently missed.
//!
//! Vector `i` depends only on the seed and `i`, so the first `PREFIX` vectors of a run are
//! the first `PREFIX` vectors of the default run: covering everything within them proves the
//! default count (read from `euref golden --help`, which must be larger) covers it too.

use crate::golden_util;

use euref::golden::coverage::{Category, Coverage, EXCLUDED};
use euref::golden::{generate, GenConfig};
use euref::spec::{float_modes, rules, Platform};
use std::process::Command;

/// Vectors generated per platform (the default run, or a prefix of it).
const PREFIX: u64 = 50_000;

fn default_count() -> u64 {
    let out = Command::new(env!("CARGO_BIN_EXE_euref"))
        .args(["golden", "--help"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = text
        .lines()
        .find(|l| l.contains("--count"))
        .expect("--count in the help");
    let d = line.split("[default: ").nth(1).expect("a default count");
    d.trim_end_matches(']').trim().parse().unwrap()
}

fn coverage_of(p: Platform, n: u64) -> (Coverage, Vec<Category>) {
    let cfg = GenConfig::new(p, 0);
    let mut cov = Coverage::default();
    let stats = generate(&cfg, n, &mut std::io::sink(), |c| {
        for v in c.iter().flatten() {
            // Every vector's instruction (from its text) passes the validator.
            golden_util::parsed_valid_insn(v, p);
            cov.add(v);
        }
    })
    .unwrap();
    assert_eq!(stats.skipped, 0, "{p:?}");
    let cats = cov.categories(p, &cfg.ops);
    (cov, cats)
}

#[test]
fn a_default_run_covers_every_group_on_every_platform() {
    let default = default_count();
    assert!(
        PREFIX <= default,
        "the test covers {PREFIX} vectors, more than a default run's {default}"
    );
    for p in Platform::ALL {
        let (cov, cats) = coverage_of(p, PREFIX);
        let report = cov.report(p, &GenConfig::new(p, 0).ops);
        for c in &cats {
            assert!(
                c.missed.is_empty(),
                "{p:?}: {} missed {:?}\n{report}",
                c.name,
                c.missed
            );
            assert!(!c.targets.is_empty(), "{p:?}: {} has no targets", c.name);
            // An excluded row is not also a target, and has a reason.
            for (id, why) in &c.excluded {
                assert!(!c.targets.contains(id), "{p:?}: {id} excluded and targeted");
                assert!(why.len() > 20, "{p:?}: {id}: reason `{why}`");
            }
        }
        // The groups the issue names are there.
        for name in [
            "conversion rows",
            "compare grid cells",
            "float-mode rows",
            "region rules",
            "validator rules",
        ] {
            assert!(cats.iter().any(|c| c.name == name), "{p:?}: no {name}");
        }
        // Every float-mode and validator rule of the platform is a target or excluded.
        let get = |n: &str| cats.iter().find(|c| c.name == n).unwrap();
        let fm = get("float-mode rows");
        let vr = get("validator rules");
        for (cat, ids) in [
            (
                fm,
                float_modes::RULES
                    .iter()
                    .filter(|r| r.gens.contains(p))
                    .map(|r| r.id)
                    .collect::<Vec<_>>(),
            ),
            (
                vr,
                rules::RULES
                    .iter()
                    .filter(|r| r.gens.contains(p))
                    .map(|r| r.id)
                    .collect(),
            ),
        ] {
            for id in ids {
                let t = cat.targets.iter().any(|x| x == id);
                let x = cat.excluded.iter().any(|(e, _)| e == id);
                assert!(
                    t != x,
                    "{p:?}: {id} is {}",
                    if t { "both" } else { "neither" }
                );
            }
        }
        // Exclusions are few: most rows are exercised.
        assert!(vr.targets.len() > vr.excluded.len(), "{p:?}: {vr:?}");
        assert!(fm.excluded.len() <= 4, "{p:?}: {:?}", fm.excluded);
    }
}

/// The exclusion table names only rows that exist, each once.
#[test]
fn the_exclusion_table_names_existing_rows_once() {
    let mut seen = std::collections::BTreeSet::new();
    for (ids, why) in EXCLUDED {
        assert!(!why.is_empty());
        for id in *ids {
            assert!(seen.insert(*id), "{id} twice");
            assert!(
                rules::RULES.iter().any(|r| r.id == *id)
                    || float_modes::RULES.iter().any(|r| r.id == *id),
                "{id} is no spec row"
            );
        }
    }
}
