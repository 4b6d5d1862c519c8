//! The fp tests, one binary (issue 25: one test binary per area, not per file).

#[path = "../common/fp_support.rs"]
mod fp_support;
#[path = "../common/material.rs"]
mod material;

mod fp_cli_messages;
mod fp_exhaustive;
mod fp_oracle;
mod fp_props;
mod fp_unit;
