//! The errors of the C interface: a status code (include/euref.h `EUREF_ERR_*`) and a message,
//! from the engine's errors.

use crate::ffi_types::*;
use euref::thread::{ImageError, RunError};

/// A failed call: its status code and what to tell the caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub code: i32,
    pub msg: String,
}

impl Error {
    pub fn new(code: i32, msg: impl Into<String>) -> Error {
        Error {
            code,
            msg: msg.into(),
        }
    }

    /// An argument error (EUREF_ERR_ARG).
    pub fn arg(msg: impl Into<String>) -> Error {
        Error::new(EUREF_ERR_ARG, msg)
    }
}

impl From<RunError> for Error {
    /// The status code of a runner error: rows that refuse (flow, runtime rules) are
    /// EUREF_ERR_REFUSED, memory rows EUREF_ERR_MEMORY, bytes that do not decode
    /// EUREF_ERR_DECODE, the step bound EUREF_ERR_LIMIT, the rest EUREF_ERR_UNSUPPORTED.
    fn from(e: RunError) -> Error {
        use euref::exec::ExecError;
        use euref::shared::SendError;
        let code = match &e {
            RunError::Refused { .. } => EUREF_ERR_REFUSED,
            RunError::Exec {
                err: ExecError::Runtime { .. },
                ..
            } => EUREF_ERR_REFUSED,
            RunError::Exec { .. } | RunError::Blocked { .. } | RunError::UndefinedIp => {
                EUREF_ERR_UNSUPPORTED
            }
            RunError::Send {
                err: SendError::Row(_),
                ..
            } => EUREF_ERR_MEMORY,
            RunError::Send {
                err: SendError::Desc(_),
                ..
            } => EUREF_ERR_DECODE,
            RunError::Image(ImageError::Decode { .. } | ImageError::UndefinedOpcode { .. }) => {
                EUREF_ERR_DECODE
            }
            RunError::Image(_) => EUREF_ERR_DECODE,
            RunError::StepLimit { .. } => EUREF_ERR_LIMIT,
        };
        let msg = match &e {
            RunError::Exec {
                ip,
                err: ExecError::Runtime { rule, msg },
            } => {
                let cite = euref::spec::runtime::by_id(rule).map_or("", |r| r.cite);
                format!("IP {ip:#x}: [{rule}] {msg} (cite: {cite})")
            }
            _ => e.to_string(),
        };
        Error::new(code, msg)
    }
}
