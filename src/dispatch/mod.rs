//! The dispatch of a compute kernel: the description (a JSON document: kernel, platform, SIMD
//! width, local size, work groups, surfaces, A64 buffers, CURBE, payload placement; format in
//! docs/dispatch.md) and the thread payload each thread starts with (spec/payload.toml).
//!
//! - [`desc`]: the JSON document, parsed and validated ([`Dispatch::parse`]); every error names
//!   the JSON path, what is wrong and what to do.
//! - [`data`]: initial contents (typed arrays, hex, a file, a fill byte) turned into bytes.
//! - [`payload`]: each thread's initial [`crate::state::ThreadState`] from the rows.
//! - [`corpus`]: the converter from a corpus kernel's `io.json` + `genN/layout.json`.
//! - [`run`]: every thread of the dispatch run on one memory; final buffers and a summary
//!   per thread.
//! - [`trace`]: the dispatch's trace (steps, messages, memory accesses, barrier and end
//!   events) as text and JSON.

pub mod corpus;
pub mod data;
pub mod desc;
pub mod error;
pub mod payload;
pub mod run;
pub mod trace;

pub use desc::{Dispatch, DispatchFile};
pub use error::DescError;
pub use payload::ThreadPayload;
