//! euref: an executable, spec-first reference model of the Intel GEN (Gen7-Gen9)
//! Execution Unit ISA.
//!
//! Every rule the model applies is a row in `spec/` (ID, platforms, citation);
//! `build.rs` compiles the tables into [`spec`], and the engine consumes them.

pub mod asm;
pub mod codec;
pub mod conformance;
pub mod dispatch;
pub mod encoding;
pub mod exec;
pub mod float;
pub mod fp;
pub mod gen;
pub mod golden;
pub mod isa;
pub mod math;
pub mod memory;
pub mod message;
pub mod quote;
pub mod shared;
pub mod spec;
pub mod state;
pub mod thread;
pub mod validate;
pub mod values;
pub mod vector;

#[cfg(test)]
mod test_rng;
