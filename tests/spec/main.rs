//! The spec tests, one binary (issue 25: one test binary per area, not per file).

#[path = "../common/cli_util.rs"]
mod cli_util;
#[path = "../common/material.rs"]
mod material;
#[path = "../common/scratch_util.rs"]
mod scratch_util;

mod cli_pipe_input;
mod cli_write_failures;
mod material_gate;
mod platforms;
mod seed_tables;
mod spec_cli;
mod spec_compiler;
mod spec_coverage;
mod spec_runtime;
mod types;
