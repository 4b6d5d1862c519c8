//! `euref run --trace`: one line per executed instruction: its IP, the channels that executed
//! it, its text, the registers it wrote and the exception it took (or the return from the
//! System Routine); JSON lines with `--json` (docs/run.md). The lines are the library's
//! ([`euref::thread::trace`]), which the dispatch trace shares.

pub use euref::thread::trace::{line, written_regs};
