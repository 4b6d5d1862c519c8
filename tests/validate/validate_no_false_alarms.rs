//! No false alarms on real compiler output: every instruction of Mesa's assembler corpus
//! (shared/corpus/mesa/asm/<gen>/*.asm, Mesa dialect, on the directory's platform) and of seed
//! 003's kernels (tests/fixtures/seed003.asm, IGA dialect, on Broadwell and Skylake) validates
//! clean, except the instructions listed in the `EXCEPTIONS` tables, each with the rule it
//! violates and why.

use euref::asm::{self, Dialect};
use euref::spec::Platform;
use euref::validate::check_insn;

const GENS: [(&str, Platform); 4] = [
    ("gen7", Platform::Ivb),
    ("gen7.5", Platform::Hsw),
    ("gen8", Platform::Bdw),
    ("gen9", Platform::Skl),
];

/// Mesa corpus instructions that violate a rule: (gen dir, file, 1-based line, rule IDs, why).
const EXCEPTIONS: &[(&str, &str, u32, &[&str], &str)] = &[
    (
        "gen7.5",
        "and.asm",
        27,
        &["op.types-unsupported"],
        "and(8) g8<1>UD g4<8,8,1>UW 0x5F:F: Mesa's test encodes the immediate mask with type F; \
         spec/opcodes.toml gives and integer operands only, and Mesa's validator does not check \
         type combinations",
    ),
    (
        "gen7.5",
        "and.asm",
        29,
        &["op.types-unsupported"],
        "and(16) g13<1>UD g19<8,8,1>UW 0x5F:F: as line 27",
    ),
];

/// Seed 003 instructions that violate a rule: (platform name, 1-based fixture line, rule IDs,
/// why).
const SEED_EXCEPTIONS: &[(&str, u32, &[&str], &str)] = &[];

fn asm_files(dir: &str) -> Vec<std::path::PathBuf> {
    let root = crate::material::corpus_root().join("mesa/asm").join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "asm"))
        .collect();
    files.sort();
    files
}

#[test]
fn mesa_asm_corpus_validates_clean() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let mut seen = vec![false; EXCEPTIONS.len()];
    let mut alarms = vec![];
    let mut total = 0usize;
    for (dir, pl) in GENS {
        for path in asm_files(dir) {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let text = std::fs::read(&path).unwrap();
            let prog = asm::parse(&text, Some(Dialect::Mesa), pl)
                .unwrap_or_else(|e| panic!("{dir}/{name}: {e}"));
            for (i, insn) in prog.insns.iter().enumerate() {
                total += 1;
                let line = prog.lines[i];
                let ids: Vec<&str> = check_insn(pl, insn).iter().map(|v| v.rule.id).collect();
                if ids.is_empty() {
                    continue;
                }
                match EXCEPTIONS
                    .iter()
                    .position(|e| e.0 == dir && e.1 == name && e.2 == line)
                {
                    Some(k) => {
                        assert_eq!(EXCEPTIONS[k].3, &ids[..], "{dir}/{name}:{line}");
                        seen[k] = true;
                    }
                    None => alarms.push(format!("{dir}/{name}:{line}: {ids:?}")),
                }
            }
        }
    }
    assert!(total > 1000, "only {total} instructions");
    assert!(alarms.is_empty(), "false alarms:\n{}", alarms.join("\n"));
    for (k, e) in EXCEPTIONS.iter().enumerate() {
        assert!(seen[k], "{}/{}:{} is clean now: remove it", e.0, e.1, e.2);
    }
}

#[test]
fn seed003_kernels_validate_clean() {
    let text = include_str!("../fixtures/seed003.asm");
    let mut seen = vec![false; SEED_EXCEPTIONS.len()];
    let mut alarms = vec![];
    let mut total = 0;
    // The fixture holds five kernels (`// ==== Figure N ...` sections) with their own labels:
    // each is parsed on its own; lines are counted in the whole fixture.
    let mut kernels: Vec<(u32, String)> = vec![];
    for (n, l) in text.lines().enumerate() {
        if l.starts_with("// ==== ") {
            kernels.push((n as u32 + 1, String::new()));
        } else if let Some(k) = kernels.last_mut() {
            k.1.push_str(l);
            k.1.push('\n');
        }
    }
    assert_eq!(kernels.len(), 5);
    for pl in [Platform::Bdw, Platform::Skl] {
        for (start, kernel) in &kernels {
            let prog = asm::parse(kernel.as_bytes(), Some(Dialect::Iga), pl).unwrap();
            for (i, insn) in prog.insns.iter().enumerate() {
                total += 1;
                let line = start + prog.lines[i];
                let ids: Vec<&str> = check_insn(pl, insn).iter().map(|v| v.rule.id).collect();
                if ids.is_empty() {
                    continue;
                }
                match SEED_EXCEPTIONS
                    .iter()
                    .position(|e| e.0 == pl.name() && e.1 == line)
                {
                    Some(k) => {
                        assert_eq!(SEED_EXCEPTIONS[k].2, &ids[..], "{}:{line}", pl.name());
                        seen[k] = true;
                    }
                    None => alarms.push(format!(
                        "{} line {line}: {ids:?}: {}",
                        pl.name(),
                        text.lines().nth(line as usize - 1).unwrap_or("").trim()
                    )),
                }
            }
        }
    }
    assert_eq!(total, 2 * 93);
    assert!(alarms.is_empty(), "false alarms:\n{}", alarms.join("\n"));
    for (k, e) in SEED_EXCEPTIONS.iter().enumerate() {
        assert!(seen[k], "{} line {} is clean now: remove it", e.0, e.1);
    }
}
