//! Shared function IDs (SFID, the message target of `send`: ExDesc[3:0], encoded in bits 27:24
//! of Gen7-Gen9 send instructions) and their assembler names.
//!
//! Numbers and Mesa's spellings: mesa brw_eu_defines.h (`enum brw_sfid`) and brw_lex.l (the
//! shared-function names of the message description line); checked against the encodings of
//! shared/corpus/mesa/asm/*/send*.expected (bits 27:24).

/// `(sfid, Mesa's name, one-token name)`: the one-token form (spaces replaced by `_`) is used
/// where a name must be a single word (`send.dp_data_1` mnemonic suffixes).
pub const SFID_NAMES: &[(u8, &str, &str)] = &[
    (0, "null", "null"),
    // Gen4-5 only (spec sfid.math); Mesa's lexer and disassembler still name it.
    (1, "math", "math"),
    (2, "sampler", "sampler"),
    (3, "gateway", "gateway"),
    (4, "dp_sampler", "dp_sampler"),
    (5, "render", "render"),
    (6, "urb", "urb"),
    (7, "thread_spawner", "thread_spawner"),
    (8, "vme", "vme"),
    (9, "const", "const"),
    (10, "data", "data"),
    (11, "pixel interp", "pixel_interp"),
    (12, "dp data 1", "dp_data_1"),
    (13, "cre", "cre"),
];

/// Mesa's name of SFID `sfid` (`None` for the numbers without one: 14, 15).
pub fn sfid_name(sfid: u8) -> Option<&'static str> {
    SFID_NAMES.iter().find(|s| s.0 == sfid).map(|s| s.1)
}

/// The SFID named `name`: Mesa's spelling (words separated by single spaces), the one-token
/// spelling, or `sfidN` (N = 0-15). Case-insensitive.
pub fn sfid_from_name(name: &str) -> Option<u8> {
    if let Some(s) = SFID_NAMES
        .iter()
        .find(|s| s.1.eq_ignore_ascii_case(name) || s.2.eq_ignore_ascii_case(name))
    {
        return Some(s.0);
    }
    let digits = name
        .get(..4)
        .filter(|p| p.eq_ignore_ascii_case("sfid"))
        .and_then(|_| name.get(4..))?;
    match digits.parse::<u8>() {
        Ok(n) if n < 16 && !digits.starts_with('+') => Some(n),
        _ => None,
    }
}
