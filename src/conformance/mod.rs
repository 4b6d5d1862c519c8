//! Conformance checking of other simulators (issue 7): the line protocol
//! (conformance/PROTOCOL.md, [`protocol`]), euref as a simulator ([`sim`]) with fault
//! injection ([`inject`]), and the checker ([`compare`] one response, [`runner`] the
//! subprocess, [`check`] the run and its report, [`summary`] its counts, [`ranking`] the spec
//! rows that explain its failures, [`describe`] and [`explain`] the text of a failing vector);
//! program vectors are run ([`program_protocol`] the request, [`program_run`] euref's answer)
//! and checked with localization ([`program_check`]) and shrinking ([`program_shrink`]);
//! [`json`] and [`view`] read request, vector and response lines without building JSON trees.

pub mod check;
pub mod compare;
pub mod describe;
pub mod explain;
mod hex;
pub mod inject;
pub mod json;
pub mod known;
pub mod lines;
mod prefetch;
pub mod program_check;
pub mod program_protocol;
pub mod program_run;
pub mod program_shrink;
pub mod program_trace;
pub mod protocol;
pub mod ranking;
pub mod read_ahead;
pub mod regs;
pub mod rows;
pub mod runner;
pub mod selection;
pub mod sim;
pub mod summary;
pub mod vet;
pub mod view;
