//! Compiles spec/ into Rust. Every table is validated by euref-spec-compiler;
//! a malformed table fails the build with `spec/file.toml:line: message`.
//! `EUREF_SPEC_DIR` points the build at another spec folder (used to show that
//! a broken table fails the build).

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=EUREF_SPEC_DIR");
    let dir = std::env::var_os("EUREF_SPEC_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("spec"));
    println!("cargo:rerun-if-changed={}", dir.display());
    if let Ok(rd) = std::fs::read_dir(dir.join("rules")) {
        println!("cargo:rerun-if-changed={}", dir.join("rules").display());
        for e in rd.flatten() {
            println!("cargo:rerun-if-changed={}", e.path().display());
        }
    }
    let shown = dir.display().to_string();
    match euref_spec_compiler::compile(&dir, &shown) {
        Ok(out) => {
            for f in &out.inputs {
                println!("cargo:rerun-if-changed={}", f.display());
            }
            let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
            let write = |name: &str, text: &str| {
                if let Err(e) = std::fs::write(out_dir.join(name), text) {
                    eprintln!("error: cannot write {name} to OUT_DIR: {e}");
                    std::process::exit(1);
                }
            };
            write("spec_gen.rs", &out.rust);
            write("spec.json", &out.json);
            write("spec.md", &out.markdown);
        }
        Err(diags) => {
            for d in &diags {
                // `cargo:warning` makes each diagnostic visible in cargo's output.
                println!("cargo:warning={d}");
                eprintln!("{d}");
            }
            eprintln!(
                "error: spec/ has {} error(s); the build stops here",
                diags.len()
            );
            std::process::exit(1);
        }
    }
}
