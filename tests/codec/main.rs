//! The codec tests, one binary (issue 25: one test binary per area, not per file).

#[path = "../common/cli_util.rs"]
mod cli_util;
#[path = "../common/codec_util.rs"]
mod codec_util;
#[path = "../common/encoding_util.rs"]
mod encoding_util;
#[path = "../common/material.rs"]
mod material;
#[path = "../common/scratch_util.rs"]
mod scratch_util;

mod codec_cli;
mod codec_compact;
mod codec_compact_3src;
mod codec_corpus;
mod codec_fuzz;
mod codec_implicit;
mod codec_reserved_operands;
mod codec_roundtrip_prop;
mod codec_text_roundtrip;
mod message_desc;
mod opcodes;
