//! Assembler errors: a position and what was expected.

use std::fmt;

/// A parse error at `line:col` (1-based; the column counts bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AsmError {
    pub line: u32,
    pub col: u32,
    pub msg: String,
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.msg)
    }
}

impl std::error::Error for AsmError {}

/// Show at most this many bytes of offending input in a message.
const SHOW_MAX: usize = 24;

/// Render a piece of input for an error message: printable ASCII as is (truncated), anything
/// else as `\xNN`.
pub(crate) fn show(bytes: &[u8]) -> String {
    let mut s = String::new();
    for &b in bytes.iter().take(SHOW_MAX) {
        if (0x20..0x7f).contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("\\x{b:02x}"));
        }
    }
    if bytes.len() > SHOW_MAX {
        s.push_str("...");
    }
    s
}
