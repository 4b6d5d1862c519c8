//! The encoding tests, one binary (issue 25: one test binary per area, not per file).

#[path = "../common/encoding_util.rs"]
mod encoding_util;
#[path = "../common/material.rs"]
mod material;

mod encoding_checks;
mod encoding_compact;
mod encoding_corpus;
mod encoding_fuzz;
mod encoding_layouts;
mod encoding_select;
mod encoding_values;
