//! The math tests, one binary (issue 25: one test binary per area, not per file).

#[path = "../common/fp_support.rs"]
mod fp_support;
#[path = "../common/material.rs"]
mod material;

mod math_named;
mod math_oracle;
mod math_specials;
