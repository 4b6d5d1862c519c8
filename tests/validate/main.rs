//! The validate tests, one binary (issue 25: one test binary per area, not per file).

#[path = "../common/cli_util.rs"]
mod cli_util;
#[path = "../common/material.rs"]
mod material;
#[path = "../common/rules_util.rs"]
mod rules_util;
#[path = "../common/scratch_util.rs"]
mod scratch_util;

mod region_rules;
mod rules_accumulators;
mod rules_alignment;
mod rules_arf;
mod rules_glue;
mod rules_immediates;
mod rules_indirect;
mod rules_mixed_float;
mod rules_opcode_legality;
mod rules_qword;
mod rules_regions;
mod rules_special;
mod validate_cli;
mod validate_mesa_corpus;
mod validate_messages;
mod validate_no_alloc;
mod validate_no_false_alarms;
mod validate_recovery;
mod validate_rule_cases;
mod validate_scaling;
