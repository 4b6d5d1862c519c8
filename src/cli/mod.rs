//! Subcommand implementations of the `euref` binary.

pub mod asm;
pub mod asm_stream;
pub mod atomic_file;
pub mod binary;
pub mod check;
pub mod completions;
pub mod cpu;
pub mod fp;
pub mod golden;
pub mod hints;
pub mod line_slice;
pub mod man;
pub mod output;
pub mod progress;
pub mod report;
pub mod run;
pub mod run_dispatch;
pub mod run_sip;
pub mod run_trace;
pub mod shard;
pub mod sim;
pub mod spec;
pub mod state_diff;
pub mod validate;
