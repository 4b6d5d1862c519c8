//! The golden tests, one binary (issue 25: one test binary per area, not per file).

#[path = "../common/golden_util.rs"]
mod golden_util;
#[path = "../common/material.rs"]
mod material;
#[path = "../common/scratch_util.rs"]
mod scratch_util;

mod check_edges;
mod failure_cause;
mod golden_atomic_output;
mod golden_cli;
mod golden_conformance;
mod golden_coverage;
mod golden_disputed_rounding;
mod golden_fast_writer;
mod golden_shards;
mod golden_slurm;
mod golden_templates;
mod honest_verdict;
mod program_check;
mod program_coverage;
mod program_faults;
mod program_hand;
mod program_rows;
mod program_shrink;
mod program_slm;
mod program_threads;
mod program_vectors;
mod protocol_doc;
mod sim_inexact;
