//! Shared by the profiling examples: the command line (`MODE GEN REPS`) and the Mesa corpus
//! (`$EUREF_CORPUS`, by default `<crate>/../shared/corpus`).

use euref::spec::Platform;
use std::path::PathBuf;

/// `MODE GEN REPS` from the command line, with the platform of GEN (gen7, gen7.5, gen8, gen9;
/// anything else is gen9). Prints `usage` and exits with status 2 on any other argument count.
pub fn args(usage: &str) -> (String, String, usize, Platform) {
    let a: Vec<String> = std::env::args().collect();
    let (mode, dir, reps) = match a.as_slice() {
        [_, m, g, r] => (m.clone(), g.clone(), r.parse::<usize>().unwrap_or(1)),
        _ => {
            eprintln!("usage: {usage}");
            std::process::exit(2);
        }
    };
    let p = match dir.as_str() {
        "gen7" => Platform::Ivb,
        "gen7.5" => Platform::Hsw,
        "gen8" => Platform::Bdw,
        _ => Platform::Skl,
    };
    (mode, dir, reps, p)
}

/// Every file of `mesa/asm/<dir>` in the corpus, sorted.
pub fn corpus_files(dir: &str) -> Vec<PathBuf> {
    let root = match std::env::var_os("EUREF_CORPUS") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("mesa/asm").join(dir))
        .expect("corpus directory")
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    files
}

/// The text `s` of the corpus file `f` with its labels renamed apart (`LABEL` -> `L_<STEM>_`),
/// so several files concatenate into one program.
pub fn renamed_labels(f: &std::path::Path, s: &str) -> String {
    let stem = f.file_stem().unwrap().to_string_lossy().to_uppercase();
    s.replace("LABEL", &format!("L_{stem}_"))
}
