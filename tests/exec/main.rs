//! The exec tests, one binary (issue 25: one test binary per area, not per file).

#[path = "../common/exec_util.rs"]
mod exec_util;
#[path = "../common/material.rs"]
mod material;
#[path = "../common/scratch_util.rs"]
mod scratch_util;

mod exec_fast_paths;
mod exec_fidelity;
mod exec_inexact;
mod exec_masks_acc;
mod exec_ops;
mod exec_ops_more;
mod exec_prepared_imm;
mod exec_regions;
mod exec_written;
mod registers;
mod run_cli;
mod run_context;
mod run_scaling;
mod state_arf_json;
mod state_json_exact;
mod values;
