//! euref-spec-compiler: reads euref's spec/ folder, validates every table and
//! generates the Rust (and the JSON / Markdown reference) the model uses.
//!
//! `build.rs` calls [`compile`]; tests call it on fixtures to prove that a
//! broken table fails with a precise `file:line: message`.

pub mod codegen;
pub mod diag;
pub mod encoding;
pub mod expr;
pub mod fieldgen;
pub mod gens;
pub mod grid;
pub mod markdown;
pub mod model;
pub mod schema;

pub use diag::Diag;
use std::path::{Path, PathBuf};

/// Everything generated from a spec folder.
pub struct Output {
    /// Rust source for `include!` (the `euref::spec` module body).
    pub rust: String,
    /// The whole spec as JSON.
    pub json: String,
    /// The Markdown reference.
    pub markdown: String,
    /// Files read (for cargo:rerun-if-changed).
    pub inputs: Vec<PathBuf>,
}

/// Parse, validate and generate. `display_prefix` is how file names appear in
/// diagnostics (e.g. "spec" gives `spec/types.toml:12: ...`).
pub fn compile(dir: &Path, display_prefix: &str) -> Result<Output, Vec<Diag>> {
    let spec = model::load(dir, display_prefix)?;
    Ok(Output {
        rust: codegen::rust(&spec) + &fieldgen::rust(&spec),
        json: markdown::json(&spec),
        markdown: markdown::render(&spec),
        inputs: spec.inputs.clone(),
    })
}
