//! The error of a dispatch description: where (JSON path, and line:column when the JSON
//! itself is malformed), what is wrong and what to do.

/// A refused dispatch description.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescError {
    /// The JSON path of the offending value (`surfaces[1].init.values[3]`; empty: the whole
    /// document).
    pub path: String,
    /// Line and column (1-based) when serde_json reported them (malformed JSON, unknown or
    /// missing keys, wrong types).
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// What is wrong.
    pub what: String,
    /// What to do about it.
    pub fix: String,
}

impl std::fmt::Display for DescError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, "{l}:{c}")?,
            _ => f.write_str("dispatch description")?,
        }
        if !self.path.is_empty() {
            write!(f, " at `{}`", self.path)?;
        }
        write!(f, ": {}; {}", self.what, self.fix)
    }
}

impl std::error::Error for DescError {}

impl DescError {
    /// An error at JSON path `path`.
    pub fn at(path: impl Into<String>, what: impl Into<String>, fix: impl Into<String>) -> Self {
        DescError {
            path: path.into(),
            line: None,
            column: None,
            what: what.into(),
            fix: fix.into(),
        }
    }
}
