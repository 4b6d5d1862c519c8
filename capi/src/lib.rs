//! libeuref: euref's C library (issue 32). A host (a C or C++ testbench, a SystemVerilog
//! DPI-C shim, any FFI) creates a thread for a platform, loads a program and an initial
//! state, attaches memory (euref's own, or the host's through callbacks), steps one
//! instruction at a time and reads what each step wrote, or compares its own write-back with
//! euref's. The interface is include/euref.h, generated from [`ffi`] and [`ffi_types`] by
//! build.rs; docs/embedding.md describes it.
//!
//! - [`session`]: one thread in safe Rust (what every call does);
//! - [`writes`]: what a step wrote, as the C records list it;
//! - [`regs`]: registers by name;
//! - [`compare`]: a design's register against euref's;
//! - [`host_memory`]: the host's memory callbacks behind the engine's `FlatBacking` hook;
//! - [`error`]: status codes and messages;
//! - [`ffi`], [`ffi_types`]: the C functions and types.

pub mod compare;
pub mod error;
pub mod ffi;
pub mod ffi_types;
pub mod host_memory;
pub mod regs;
pub mod session;
pub mod writes;

pub use ffi::*;
pub use ffi_types::*;

/// The header cbindgen generated from this crate at build time (build.rs).
pub const GENERATED_HEADER: &str = include_str!(concat!(env!("OUT_DIR"), "/euref.h"));
