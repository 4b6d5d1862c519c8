//! The thread runner tests (SIMD structured control flow, issue 29), one binary.

#[path = "../common/codec_util.rs"]
mod codec_util;
#[path = "../common/material.rs"]
mod material;
#[path = "../common/scratch_util.rs"]
mod scratch_util;

mod flow_call_text;
mod flow_calls;
mod flow_cli;
mod flow_corpus;
mod flow_examples;
mod flow_exceptions;
mod flow_goto;
mod flow_group_pred;
mod flow_jmpi_text;
mod flow_loops;
mod flow_nested;
mod flow_rows;
mod flow_spf_prop;
mod flow_util;
mod overlap_cli;
mod send_eot;
mod send_reg_desc;
mod send_scattered;
mod send_untyped;
mod send_util;
