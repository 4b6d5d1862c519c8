//! The float tests, one binary (issue 25: one test binary per area, not per file).

#[path = "../common/compare_util.rs"]
mod compare_util;
#[path = "../common/fp_support.rs"]
mod fp_support;
#[path = "../common/material.rs"]
mod material;

mod compare_grids;
mod conversions_table;
mod float_arith;
mod float_cli;
mod float_compare;
mod float_convert;
mod float_env;
mod float_modes_table;
mod float_oracle_modes;
mod float_oracles;
mod float_props;
