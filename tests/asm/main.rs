//! The asm tests, one binary (issue 25: one test binary per area, not per file).

#[path = "../common/asm_util.rs"]
mod asm_util;
#[path = "../common/cli_util.rs"]
mod cli_util;
#[path = "../common/codec_util.rs"]
mod codec_util;
#[path = "../common/material.rs"]
mod material;
#[path = "../common/scratch_util.rs"]
mod scratch_util;

mod arf_names;
mod asm_cli;
mod asm_errors;
mod asm_iga_differential;
mod asm_iga_exdesc;
mod asm_iga_exdesc_reg;
mod asm_iga_issue27;
mod asm_iga_keep;
mod asm_iga_literals;
mod asm_iga_regs;
mod asm_iga_send_comments;
mod asm_iga_ternary;
mod asm_mesa_corpus;
mod asm_messages;
mod asm_reserved_operands;
mod asm_roundtrip_prop;
mod asm_seed003;
mod asm_seed_examples;
mod asm_stream;
