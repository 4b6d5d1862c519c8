//! Shared by the benchmarks: the Mesa corpus (`$EUREF_CORPUS`, by default
//! `<crate>/../shared/corpus`) and its assembler test folders.
#![allow(dead_code)]

use euref::spec::Platform;
use std::path::PathBuf;

/// The corpus root.
pub fn corpus() -> PathBuf {
    match std::env::var_os("EUREF_CORPUS") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    }
}

/// The assembler test folders and their platforms.
pub const GENS: [(&str, Platform); 4] = [
    ("gen7", Platform::Ivb),
    ("gen7.5", Platform::Hsw),
    ("gen8", Platform::Bdw),
    ("gen9", Platform::Skl),
];

/// The `.asm` files of `mesa/asm/<dir>`, sorted.
pub fn asm_files(dir: &str) -> Vec<PathBuf> {
    let d = corpus().join("mesa/asm").join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&d)
        .unwrap_or_else(|e| panic!("{}: {e} (set EUREF_CORPUS)", d.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "asm"))
        .collect();
    files.sort();
    files
}
