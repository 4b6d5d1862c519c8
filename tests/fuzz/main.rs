//! The fuzz harness (issue 26, "keep it that way"): every text and JSON input euref reads,
//! mutated from real seeds, checked for what must hold on any input: no panic, no hang, a
//! located error fit for a terminal, and agreement between each fast reader and the
//! definition it stands for. Decoding of random words is fuzzed in tests/codec/codec_fuzz.rs.
//!
//! Targets: assembly text ([`fuzz_asm_text`]), kernels through the dispatch runner
//! ([`fuzz_kernels`]), thread states as JSON ([`fuzz_state_json`]),
//! protocol lines both ways ([`fuzz_protocol`]), vector files ([`fuzz_vector_files`]).
//! The mutator ([`mutate`]) is deterministic from a seed, so a failure names the input and
//! reruns the same way.
//!
//! A short run of each is part of the normal test run (a few thousand inputs each). The long
//! run is opt-in:
//!
//! ```text
//! EUREF_FUZZ_ITERS=10000000 EUREF_FUZZ_SEED=7 cargo test --release --test fuzz -- --ignored --nocapture
//! ```
//!
//! (`EUREF_FUZZ_ITERS` inputs per target, default 1 million, 100 thousand vector files;
//! `EUREF_FUZZ_SEED` picks another sequence of inputs.)
//! Why not cargo-fuzz: it needs a nightly compiler, and the project builds with the stable
//! toolchain only; the targets are plain functions of bytes, so moving them under libFuzzer
//! later is a wrapper each.

#[path = "../common/codec_util.rs"]
mod codec_util;
#[path = "../common/material.rs"]
mod material;
mod mutate;
mod seeds;

mod fuzz_asm_text;
mod fuzz_kernels;
mod fuzz_protocol;
mod fuzz_state_json;
mod fuzz_vector_files;
