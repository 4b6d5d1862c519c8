//! The thread runner tests (SIMD structured control flow, issue 29), one binary.

#[path = "../common/scratch_util.rs"]
mod scratch_util;

mod flow_call_text;
mod flow_calls;
mod flow_cli;
mod flow_examples;
mod flow_goto;
mod flow_loops;
mod flow_nested;
mod flow_rows;
mod flow_util;
