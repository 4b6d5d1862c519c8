//! Diagnostics: every problem found in spec/ is reported as `file:line: message`.

use std::fmt;

/// One problem in a spec file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diag {
    /// Path of the file, relative to the spec directory's parent when possible (e.g. `spec/types.toml`).
    pub file: String,
    /// 1-based line number (0 when the problem concerns the whole file or folder).
    pub line: usize,
    pub msg: String,
}

impl fmt::Display for Diag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.msg)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.msg)
        }
    }
}

/// The text of one spec file, for turning byte offsets into line numbers.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(name: String, text: String) -> Self {
        let mut line_starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i + 1);
            }
        }
        SourceFile {
            name,
            text,
            line_starts,
        }
    }

    /// 1-based line of a byte offset.
    pub fn line_of(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }
}

/// Collects diagnostics for one compilation.
#[derive(Debug, Default)]
pub struct Diags {
    pub list: Vec<Diag>,
}

impl Diags {
    pub fn at(&mut self, file: &SourceFile, offset: usize, msg: impl Into<String>) {
        self.list.push(Diag {
            file: file.name.clone(),
            line: file.line_of(offset),
            msg: msg.into(),
        });
    }

    pub fn at_line(&mut self, file: &SourceFile, line: usize, msg: impl Into<String>) {
        self.list.push(Diag {
            file: file.name.clone(),
            line,
            msg: msg.into(),
        });
    }

    pub fn file(&mut self, file: &str, msg: impl Into<String>) {
        self.list.push(Diag {
            file: file.to_string(),
            line: 0,
            msg: msg.into(),
        });
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}
