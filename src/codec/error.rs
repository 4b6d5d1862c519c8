//! Decode and encode errors.

use crate::encoding::{reserved_bit_list, EncodingError, ErrorKind};
use crate::spec::encoding::BitField;
use crate::spec::DataType;
use std::fmt;

/// What is wrong with an instruction's bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodeErrorKind {
    /// Fewer bytes than the instruction needs (`value` = bytes needed).
    Truncated,
    /// The opcode names no instruction on the platform.
    UnknownOpcode,
    /// A field holds a value its table does not define.
    ReservedValue,
    /// Bits the layout marks reserved are set.
    ReservedBits,
    /// An impossible combination (an immediate destination, two immediates, ...).
    Malformed,
    /// A well-formed encoding the instruction model cannot hold (a message register on Gen7,
    /// an indirect split-send operand, a register jump target of `call`, ...).
    Unsupported,
}

/// A reserved, malformed or unsupported field: names the field and the byte offset (within
/// the instruction) of its lowest bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeError {
    pub kind: DecodeErrorKind,
    /// The field name as in spec/encoding (`reserved` for reserved bits).
    pub field: &'static str,
    /// Byte offset of the field's lowest bit within the instruction.
    pub byte: u8,
    /// The offending value.
    pub value: u64,
    /// The instruction was compact and the field belongs to its uncompacted (native) form:
    /// `byte` is an offset in the 16-byte native instruction.
    pub uncompacted: bool,
    /// The spec rule that makes the value an error, when one names it (shown in the message).
    pub rule: Option<&'static str>,
}

impl DecodeError {
    pub(crate) fn at(kind: DecodeErrorKind, f: &BitField, value: u64) -> DecodeError {
        let lo = f.pieces.iter().map(|p| p.lo).min().unwrap_or(0);
        DecodeError {
            kind,
            field: f.name,
            byte: lo / 8,
            value,
            uncompacted: false,
            rule: None,
        }
    }

    /// An error about a field a layout does not have (a spec inconsistency; reported, never a
    /// panic).
    pub(crate) fn missing(name: &'static str) -> DecodeError {
        DecodeError {
            kind: DecodeErrorKind::Malformed,
            field: name,
            byte: 0,
            value: 0,
            uncompacted: false,
            rule: None,
        }
    }

    pub(crate) fn truncated(need: usize, have: usize) -> DecodeError {
        DecodeError {
            kind: DecodeErrorKind::Truncated,
            field: "instruction",
            byte: have.min(255) as u8,
            value: need as u64,
            uncompacted: false,
            rule: None,
        }
    }
}

impl From<EncodingError> for DecodeError {
    fn from(e: EncodingError) -> DecodeError {
        let kind = match e.kind {
            ErrorKind::UnknownOpcode => DecodeErrorKind::UnknownOpcode,
            ErrorKind::ReservedValue => DecodeErrorKind::ReservedValue,
            ErrorKind::ReservedBits => DecodeErrorKind::ReservedBits,
            ErrorKind::Malformed | ErrorKind::NotCompact => DecodeErrorKind::Malformed,
        };
        DecodeError {
            kind,
            field: e.field,
            byte: e.byte,
            value: e.value,
            uncompacted: false,
            rule: None,
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind == DecodeErrorKind::Truncated {
            return write!(
                f,
                "truncated instruction: {} bytes needed, {} available",
                self.value, self.byte
            );
        }
        let of = if self.uncompacted {
            " of the uncompacted instruction"
        } else {
            ""
        };
        if self.kind == DecodeErrorKind::ReservedBits {
            let bits = reserved_bit_list(self.byte, self.value);
            return write!(
                f,
                "byte {}{of}: reserved {bits} set (the platform's layout reserves them)",
                self.byte
            );
        }
        let what = match self.kind {
            DecodeErrorKind::UnknownOpcode => "unknown opcode",
            DecodeErrorKind::ReservedValue => "reserved value",
            DecodeErrorKind::ReservedBits => "reserved bits set",
            DecodeErrorKind::Malformed => "malformed value",
            DecodeErrorKind::Unsupported => "unsupported by the instruction model",
            DecodeErrorKind::Truncated => "truncated",
        };
        write!(
            f,
            "byte {}{of}: field `{}`: {what} {:#x}",
            self.byte, self.field, self.value
        )?;
        match self.rule {
            Some(r) => write!(f, " ({r})"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for DecodeError {}

/// Why an instruction cannot be encoded: the model field (or spec field) and the reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncodeError {
    /// The instruction field: `exec_size`, `dst`, `src1`, `src0.region`, `send.desc`, ... or
    /// a spec/encoding field name when the final word check fails.
    pub field: &'static str,
    pub reason: &'static str,
    /// The offending value (as a signed number where that reads better).
    pub value: i64,
    /// The data type that has no encoding, when that is the reason (shown by its name).
    pub ty: Option<DataType>,
}

impl EncodeError {
    pub(crate) fn new(field: &'static str, reason: &'static str, value: i64) -> EncodeError {
        EncodeError {
            field,
            reason,
            value,
            ty: None,
        }
    }

    /// A data type of the instruction that has no encoding on the platform.
    pub(crate) fn missing_type(field: &'static str, reason: &'static str, ty: DataType) -> Self {
        EncodeError {
            field,
            reason,
            value: ty as i64,
            ty: Some(ty),
        }
    }
}

impl From<EncodingError> for EncodeError {
    fn from(e: EncodingError) -> EncodeError {
        let reason = match e.kind {
            ErrorKind::UnknownOpcode => "unknown opcode",
            ErrorKind::ReservedValue => "value has no encoding on this platform",
            ErrorKind::ReservedBits => "sets bits reserved on this platform",
            ErrorKind::Malformed | ErrorKind::NotCompact => "malformed combination",
        };
        EncodeError {
            field: e.field,
            reason,
            value: e.value as i64,
            ty: None,
        }
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ty {
            Some(t) => write!(f, "{}: {} ({})", self.field, self.reason, t.name()),
            None => write!(f, "{}: {} ({})", self.field, self.reason, self.value),
        }
    }
}

impl std::error::Error for EncodeError {}
