//! The dispatch description and the compute thread payload (issue 30), one binary.

#[path = "../common/material.rs"]
mod material;

mod barrier;
mod block_messages;
mod corpus_payload;
mod desc_errors;
mod desc_valid;
mod dispatch_trace;
mod inexact_memory;
mod kernel_util;
mod payload_rows;
mod run_kernels;
mod stateless;
mod stateless_a32;
mod util;
