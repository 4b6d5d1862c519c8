//! The simulator protocol (conformance/PROTOCOL.md): one JSON request line per vector on the
//! simulator's stdin, one JSON response line on its stdout, in order.

use crate::vector::Vector;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A request: execute one instruction on a state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    /// Echoed in the response.
    pub id: String,
    /// Platform name (`ivb`, `hsw`, `bdw`, `chv`, `skl`, `bxt`).
    pub gen: String,
    /// The instruction in IGA syntax (a request may carry it, `bytes`, or both).
    #[serde(default)]
    pub insn: String,
    /// Its 16-byte native encoding, hex.
    #[serde(default)]
    pub bytes: String,
    /// Initial register contents (name -> hex bytes, byte 0 first); a name given twice is
    /// an error.
    #[serde(deserialize_with = "crate::vector::unique_keys::unique_keys")]
    pub initial: BTreeMap<String, String>,
    /// The registers to return after execution.
    pub report: Vec<String>,
}

/// A response: the final contents of the requested registers, or an error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Response {
    pub id: String,
    #[serde(rename = "final", default, skip_serializing_if = "BTreeMap::is_empty")]
    pub fin: BTreeMap<String, String>,
    /// The inexact marks of registers of `final` (row math.inexact; the `"inexact"` object of
    /// `euref run --json`): name -> hex mask, per GRF byte `00` or `ff`, per ARF bit; only
    /// registers with a mark. Informative: the vector decides how a value is compared.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub inexact: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Registers the simulator does not model (it need not report them; they are not
    /// compared, and a vector that expects one cannot pass: status `unmodelled`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unmodelled: Vec<String>,
    /// Features of the request the simulator ignored executing it (status `ignored`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignored: Vec<String>,
}

impl Request {
    /// The request for a vector.
    pub fn from_vector(v: &Vector) -> Request {
        Request {
            id: v.id.clone(),
            gen: v.gen.clone(),
            insn: v.insn.clone(),
            bytes: v.bytes.clone(),
            initial: v.initial.clone(),
            report: v.expected.keys().cloned().collect(),
        }
    }

    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl Response {
    /// An error response.
    pub fn error(id: &str, message: String) -> Response {
        Response {
            id: id.to_string(),
            fin: Default::default(),
            inexact: Default::default(),
            error: Some(message),
            unmodelled: Vec::new(),
            ignored: Vec::new(),
        }
    }

    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}
