//! The golden vector format: what `euref golden` writes and `euref check` reads, one JSON
//! object per line (JSON Lines; conformance/README.md, schema conformance/vector.schema.json).
//! Both sides depend on this module and on nothing of each other: [`classes`] (the float
//! value classes of the compare grids, which the `classes` labels and grid cells name),
//! [`hex`] (the register hex text) and [`text`] (typed element values as text).

pub mod classes;
pub mod hex;
pub mod text;
pub mod unique_keys;

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Version of the vector format (the `v` key). 2: `expected` holds every register of `initial`
/// (also those that must not change) and both flag registers are always in `initial`; in 1 it
/// held only the registers that changed.
pub const FORMAT_VERSION: u32 = 2;

/// One single-instruction test vector.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Vector {
    /// Format version ([`FORMAT_VERSION`]).
    pub v: u32,
    /// Unique within a file: `<gen>-<seed>-<index>`.
    pub id: String,
    /// Platform name (`ivb`, `hsw`, `bdw`, `chv`, `skl`, `bxt`).
    pub gen: String,
    /// Opcode mnemonic (`math` for every math function).
    pub op: String,
    /// The instruction in IGA syntax.
    pub insn: String,
    /// The 16-byte native encoding (`euref::codec::encode`), hex, byte 0 first.
    pub bytes: String,
    /// The registers the instruction reads, its destination registers (so that what it must
    /// preserve is known), both flag registers, and the accumulators it may write: register
    /// name -> hex bytes, byte 0 first. Every other register is undefined except the dispatch
    /// defaults (conformance/PROTOCOL.md). A name given twice is an error.
    #[serde(deserialize_with = "unique_keys::unique_keys")]
    pub initial: BTreeMap<String, String>,
    /// The final content (whole registers, hex) of every register of `initial` and of any
    /// other register the instruction changes: what a simulator must report and match.
    #[serde(deserialize_with = "unique_keys::unique_keys")]
    pub expected: BTreeMap<String, String>,
    /// Per register of `expected` with undefined bits: hex of the same length whose set bits
    /// are undefined (any value accepted). GRF bytes are all-or-nothing (`ff`); flag and
    /// control registers are per bit.
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "unique_keys::unique_keys"
    )]
    pub undefined: BTreeMap<String, String>,
    /// The destination (for reporting channels and typed values).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dst: Option<DstInfo>,
    /// Results that may legitimately differ from `expected`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<Alternative>,
    /// The spec row IDs the vector exercises (opcode row, conversion row, compare grid and
    /// cells `cmp.g[+inf,NaN]`, float-mode rows, math function, saturation, region rules).
    pub rules: Vec<String>,
    /// Coverage labels: value classes of the sources (`f:+denorm/min-denorm`) and the form of
    /// the instruction (`cmod:g`, `pred:inv`, `region:scalar`, `round:rd`, `fmode:alt`,
    /// `denorm:keep`, `sat`).
    pub classes: Vec<String>,
}

/// The destination region: GRF register, byte offset in it, type and stride.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DstInfo {
    pub reg: String,
    pub offset: u32,
    #[serde(rename = "type")]
    pub ty: String,
    pub stride: u32,
}

/// An allowed alternative result for one destination element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Alternative {
    pub kind: AltKind,
    /// Register and byte offset of the element.
    pub reg: String,
    pub offset: u32,
    #[serde(rename = "type")]
    pub ty: String,
    /// `ulps`: the error bound in units in the last place of `type`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ulps: Option<f64>,
    /// `ulps`: an absolute error bound also accepted (0: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abs: Option<f64>,
    /// `value`: the element's other accepted bits, `0x` hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bits: Option<String>,
    /// The spec row that allows it.
    pub rule: String,
}

/// Kinds of alternatives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AltKind {
    /// Any NaN bit pattern (float_modes `nan_any`).
    AnyNan,
    /// Within `ulps` units in the last place (or `abs`) of the expected value (math functions).
    Ulps,
    /// ±inf of the expected value's sign instead of a finite value (float_modes
    /// `fused_overflow_inf`, seed000 §2.3.1.2).
    OverflowInf,
    /// Exactly the bits `bits`: a second answer where the sources conflict (a conversion row
    /// with `alt_round`, e.g. F -> HF rounded per cr0 or toward zero).
    Value,
}

impl Vector {
    /// One JSON line (no newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}
