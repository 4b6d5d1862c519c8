//! Runtime checks: restrictions that depend on the thread state (register contents), so the
//! static validator (spec/rules, `validate`) cannot decide them.
//!
//! PENDING SPEC SCHEMA: these rows belong in spec/ (a `[[runtime]]` table with `id`, `gens`,
//! `cite`, `msg`, `undefined`, `note`, generated as `spec::runtime::RULES`); the rule
//! expression language of spec/rules cannot state them (they are not functions of the
//! instruction). Until the spec compiler has that table, the rows live here, in one place, with
//! the same fields; see docs/proposed-runtime-rules.toml.

use super::ExecError;
use crate::spec::GenSet;

/// A runtime rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuntimeRule {
    pub id: &'static str,
    pub gens: GenSet,
    pub cite: &'static str,
    pub msg: &'static str,
    /// What a violation makes unpredictable: "dst", "flags", "all", "none" (as spec/rules).
    pub undefined: &'static str,
}

/// The runtime rules by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    OutOfRange,
    Misaligned,
    IndirectUndefinedAddress,
    IndirectA0Range,
    AccReadTypeMismatch,
    AccDwordOverflow,
    AccWordOverflow,
}

/// The rows.
pub const RULES: &[RuntimeRule] = &[
    RuntimeRule {
        id: "runtime.grf-out-of-range",
        gens: GenSet::ALL,
        cite: "seed000 §3.3.2; seed002 §Region-based Addressing",
        msg: "an operand element lies outside r0-r127 (or outside its ARF register)",
        undefined: "all",
    },
    RuntimeRule {
        id: "runtime.element-misaligned",
        gens: GenSet::ALL,
        cite: "seed002 §Region Interpretation for Indirect Operands; seed000 §2.1",
        msg: "an operand element address is not aligned to the size of its type",
        undefined: "all",
    },
    RuntimeRule {
        id: "runtime.indirect-undefined-address",
        gens: GenSet::ALL,
        cite: "seed000 §3.3.3.4; seed002 §Region Interpretation for Indirect Operands",
        msg: "a register-indirect operand uses an undefined address subregister",
        undefined: "all",
    },
    RuntimeRule {
        id: "runtime.indirect-a0-range",
        gens: GenSet::ALL,
        cite: "seed000 §3.3.3.4; seed004 §Register Region Restrictions 8",
        msg: "a register-indirect region needs an address subregister beyond a0.7 (a0.15 from Gen8)",
        undefined: "all",
    },
    RuntimeRule {
        id: "runtime.acc-read-type-mismatch",
        gens: GenSet::ALL,
        cite: "seed004 §Accumulator Registers",
        msg: "an accumulator channel is read with a data type of another precision than its last write: the value is undeterministic",
        undefined: "dst",
    },
    RuntimeRule {
        id: "runtime.acc-dword-overflow",
        gens: GenSet::ALL,
        cite: "seed000 §3.3.3.5; seed004 §Accumulator Registers",
        msg: "a DWord result needs more than the accumulator's 64 bits per channel (e.g. a product with a negated UD source): the result is unpredictable",
        undefined: "dst",
    },
    RuntimeRule {
        id: "runtime.acc-word-overflow",
        gens: GenSet::ALL,
        cite: "seed000 §3.3.3.5; seed004 §Accumulator Registers",
        msg: "a word-integer result exceeds the 33-bit accumulator precision: it wraps, the condition flags may be incorrect and a saturated result is unpredictable",
        undefined: "flags",
    },
];

impl Rule {
    /// The row.
    pub fn row(self) -> &'static RuntimeRule {
        &RULES[self as usize]
    }

    /// The rule ID.
    pub fn id(self) -> &'static str {
        self.row().id
    }
}

/// An error for a violated runtime rule.
pub fn error(rule: Rule, detail: String) -> ExecError {
    ExecError::Runtime {
        rule: rule.id(),
        msg: format!("{}: {detail}", rule.row().msg),
    }
}

/// A violated runtime rule that execution survived (marking what it made undefined).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub rule: &'static str,
    /// Channels concerned (bit n = channel n).
    pub channels: u32,
}
