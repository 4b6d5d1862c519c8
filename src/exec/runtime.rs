//! Runtime checks: restrictions that depend on the thread state (register contents), so the
//! static validator (spec/rules, `validate`) cannot decide them.
//!
//! The rules are the rows of spec/runtime.toml, generated as [`crate::spec::runtime`]: the
//! executor names the row it checks (`&spec::runtime::GRF_OUT_OF_RANGE`, ...), and reports
//! its ID, message and citation. Nothing here restates a row.

use super::ExecError;
pub use crate::spec::runtime::RuntimeRuleInfo;

/// An error for a violated runtime rule: the row's ID, its message and `detail` (where).
pub fn error(rule: &'static RuntimeRuleInfo, detail: String) -> ExecError {
    ExecError::Runtime {
        rule: rule.id,
        msg: format!("{}: {detail}", rule.msg),
    }
}

/// A violated runtime rule that execution survived (marking what it made undefined).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The rule's ID (a row of spec/runtime.toml).
    pub rule: &'static str,
    /// Channels concerned (bit n = channel n).
    pub channels: u32,
}

impl Violation {
    /// A violation of `rule` on `channels`.
    pub fn new(rule: &'static RuntimeRuleInfo, channels: u32) -> Violation {
        Violation {
            rule: rule.id,
            channels,
        }
    }

    /// The rule's row.
    pub fn row(&self) -> Option<&'static RuntimeRuleInfo> {
        crate::spec::runtime::by_id(self.rule)
    }

    /// The error strict execution reports instead of executing.
    pub fn refusal(&self) -> ExecError {
        ExecError::Runtime {
            rule: self.rule,
            msg: format!(
                "{}: channels {:#x}",
                self.row().map_or("", |r| r.msg),
                self.channels
            ),
        }
    }
}
