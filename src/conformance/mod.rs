//! Conformance checking of other simulators (issue 7): the line protocol
//! (conformance/PROTOCOL.md, [`protocol`]), euref as a simulator ([`sim`]) with fault
//! injection ([`inject`]), and the checker ([`compare`] one response, [`runner`] the
//! subprocess, [`check`] the run and its report); [`json`] and [`view`] read request, vector
//! and response lines without building JSON trees.

pub mod check;
pub mod compare;
mod hex;
pub mod inject;
pub mod json;
pub mod known;
pub mod lines;
mod prefetch;
pub mod protocol;
pub mod read_ahead;
pub mod regs;
pub mod runner;
pub mod sim;
pub mod view;
