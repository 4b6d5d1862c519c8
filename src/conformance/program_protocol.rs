//! The program request and response of the simulator protocol (conformance/PROTOCOL.md
//! "Program requests"): a whole program run from a state and a surface, optionally stopped
//! after a number of instructions, and the registers, surface and step count it ends with.

use crate::golden::program::vector::{ProgramVector, SlmInit, SurfaceInit, KIND};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A program request (`"kind": "program"`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgramRequest {
    /// Echoed in the response.
    pub id: String,
    /// Always `"program"`.
    pub kind: String,
    /// Platform name.
    pub gen: String,
    /// The program's native encoding from address 0, hex.
    pub bytes: String,
    /// The dispatch mask (sr0.2 DMask; sr0.3 VMask is the OR of each group of 4 of its
    /// bits).
    pub dmask: u32,
    /// Initial registers (hex, byte 0 first, `xx` for an undefined byte).
    #[serde(deserialize_with = "crate::vector::unique_keys::unique_keys")]
    pub initial: BTreeMap<String, String>,
    /// The surface the messages access, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub surface: Option<SurfaceInit>,
    /// The shared local memory at the start (binding-table index 254), if the thread has
    /// one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slm: Option<SlmInit>,
    /// The registers to return.
    pub report: Vec<String>,
    /// The program ends within this many instructions (an error otherwise).
    pub max_steps: u64,
    /// Stop once this many instructions have executed (absent: run to the end of thread);
    /// with several threads, each thread once it has executed this many of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_limit: Option<u64>,
    /// Threads 1, 2, ... of the work group, which run the same program with thread 0 (the
    /// keys above) and share its surface and SLM (empty: one thread).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more_threads: Vec<ThreadRequest>,
    /// Ask for the per-instruction trace (PROTOCOL.md "Program requests"); a simulator may
    /// ignore it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub trace: bool,
}

/// One more thread of a program request: its dispatch mask, initial registers and the
/// registers to return, as the request's top-level keys give thread 0's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThreadRequest {
    pub dmask: u32,
    #[serde(deserialize_with = "crate::vector::unique_keys::unique_keys")]
    pub initial: BTreeMap<String, String>,
    pub report: Vec<String>,
}

/// One more thread of a program response (`more_threads[k]` answers the request's
/// `more_threads[k]`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadResponse {
    #[serde(rename = "final", default, skip_serializing_if = "BTreeMap::is_empty")]
    pub fin: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<bool>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub inexact: BTreeMap<String, String>,
}

/// One executed instruction of a trace (PROTOCOL.md "Program requests").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceEntry {
    /// Its address.
    pub ip: u32,
    /// The channels on it: the dispatched channels whose instruction pointer is `ip` (the
    /// control flow's enables, before its predicate).
    pub enabled: u32,
    /// The registers of `report` whose value (a byte or an undefined mark) the instruction
    /// changed, each in full after it (hex, `xx` for an undefined byte).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub wrote: BTreeMap<String, String>,
    /// The runs of surface bytes it changed: offset into the surface and the bytes after it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub surface: Vec<SurfaceRun>,
    /// The runs of SLM bytes it changed (offsets from the SLM's start), as `surface`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slm: Vec<SurfaceRun>,
    /// Inexact marks of `wrote` registers, where some byte is inexact (optional).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub inexact: BTreeMap<String, String>,
}

/// A run of surface bytes in a [`TraceEntry`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SurfaceRun {
    pub offset: u64,
    /// Hex, `xx` for an undefined byte.
    pub bytes: String,
}

/// A program response.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramResponse {
    pub id: String,
    /// The registers of `report` (hex, `xx` for an undefined byte).
    #[serde(rename = "final", default, skip_serializing_if = "BTreeMap::is_empty")]
    pub fin: BTreeMap<String, String>,
    /// The surface's bytes (hex, `xx` for an undefined byte); absent without a surface.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub surface: Option<String>,
    /// The SLM's bytes (hex, `xx` for an undefined byte); absent without an SLM.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slm: Option<String>,
    /// Instructions executed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
    /// Whether the thread ended (its end-of-thread message executed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<bool>,
    /// Inexact marks of `final` registers (as in single-instruction responses).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub inexact: BTreeMap<String, String>,
    /// The per-instruction trace, when asked for and given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<Vec<TraceEntry>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Threads 1, 2, ... (as the request's `more_threads`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more_threads: Vec<ThreadResponse>,
}

impl ProgramRequest {
    /// The request for program vector `v`, stopped after `step_limit` instructions if given.
    pub fn from_vector(v: &ProgramVector, step_limit: Option<u64>) -> ProgramRequest {
        ProgramRequest {
            id: v.id.clone(),
            kind: KIND.into(),
            gen: v.gen.clone(),
            bytes: v.bytes.clone(),
            dmask: v.dmask,
            initial: v.initial.clone(),
            surface: v.surface.clone(),
            slm: v.slm.clone(),
            report: v.expected.keys().cloned().collect(),
            max_steps: v.max_steps,
            step_limit,
            more_threads: v
                .more_threads
                .iter()
                .map(|t| ThreadRequest {
                    dmask: t.dmask,
                    initial: t.initial.clone(),
                    report: t.expected.keys().cloned().collect(),
                })
                .collect(),
            trace: false,
        }
    }

    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl ProgramResponse {
    /// An error response.
    pub fn error(id: &str, message: String) -> ProgramResponse {
        ProgramResponse {
            id: id.into(),
            error: Some(message),
            ..ProgramResponse::default()
        }
    }

    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Whether a request line is a program request: `None` when its JSON object has no `kind`
/// key (a single-instruction request), else the request or the error response to it.
pub fn read_program_request(line: &[u8]) -> Option<Result<ProgramRequest, ProgramResponse>> {
    let value: serde_json::Value = serde_json::from_slice(line).ok()?;
    let obj = value.as_object()?;
    let kind = obj.get("kind")?;
    let id = match obj.get("id") {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(v @ (serde_json::Value::Number(_) | serde_json::Value::Bool(_))) => v.to_string(),
        _ => String::new(),
    };
    if kind.as_str() != Some(KIND) {
        return Some(Err(ProgramResponse::error(
            &id,
            format!("bad request: kind: {kind} is no request kind (the only one is \"{KIND}\"; single-instruction requests have no `kind`)"),
        )));
    }
    Some(
        serde_json::from_value::<ProgramRequest>(value)
            .map_err(|e| ProgramResponse::error(&id, format!("bad program request: {e}"))),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line without a `kind` key is no program request (an id that says "kind" included);
    /// another kind, or a program request that lacks a key, is answered with an error that
    /// carries the id; `euref sim` answers a program request with the runner's response.
    #[test]
    fn program_requests_are_told_apart_by_their_kind() {
        assert!(read_program_request(br#"{"id":"kind","gen":"skl"}"#).is_none());
        let e = read_program_request(br#"{"id":"a","kind":"prog"}"#)
            .unwrap()
            .unwrap_err();
        assert_eq!(e.id, "a");
        assert!(e.error.unwrap().contains("\"prog\" is no request kind"));
        let e = read_program_request(br#"{"id":"b","kind":"program","gen":"skl"}"#)
            .unwrap()
            .unwrap_err();
        assert_eq!(e.id, "b");
        assert!(e.error.unwrap().contains("missing field `bytes`"));
        let v = crate::golden::program::program_vector(crate::spec::Platform::Bdw, 3, 1).unwrap();
        let req = ProgramRequest::from_vector(&v, Some(3));
        let mut out = Vec::new();
        super::super::sim::Simulator::new(None).handle(req.to_line().as_bytes(), &mut out);
        let got: ProgramResponse = serde_json::from_slice(&out).unwrap();
        assert_eq!(got.steps, Some(3));
        assert_eq!(got, super::super::program_run::execute(&req, None));
    }
}
