//! Errors for reserved or malformed encodings: each names the field and the byte of the
//! instruction that holds it.

use crate::spec::encoding::BitField;
use std::fmt;

/// What is wrong with a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The opcode number names no instruction on this platform.
    UnknownOpcode,
    /// The field holds a value its value table does not define (reserved encoding).
    ReservedValue,
    /// Bits that the layout marks `reserved` are set.
    ReservedBits,
    /// A register-file / type combination that cannot be decoded (e.g. an immediate
    /// destination, or a type encoding undefined for the operand's file).
    Malformed,
    /// An 8-byte word passed to uncompaction does not have its CmptCtrl bit set.
    NotCompact,
}

/// A reserved or malformed field in an instruction word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncodingError {
    /// What is wrong.
    pub kind: ErrorKind,
    /// The field name (as in spec/encoding), `reserved` for reserved bits.
    pub field: &'static str,
    /// Byte offset within the instruction of the field's lowest bit.
    pub byte: u8,
    /// The offending field value (for reserved bits: the set bits, shifted down to bit 0 of
    /// the lowest reserved bit).
    pub value: u64,
}

impl EncodingError {
    pub(crate) fn at(kind: ErrorKind, f: &BitField, value: u64) -> EncodingError {
        let lo = f.pieces.iter().map(|p| p.lo).min().unwrap_or(0);
        EncodingError {
            kind,
            field: f.name,
            byte: lo / 8,
            value,
        }
    }

    /// Reserved bits `set` of a word: `byte` is that of the lowest, `value` the set bits from
    /// that byte's bit 0 up (bit `i` of `value` is bit `8 * byte + i` of the word).
    pub(crate) fn reserved_bits(set: u128) -> EncodingError {
        let byte = (set.trailing_zeros().min(127) / 8) as u8;
        EncodingError {
            kind: ErrorKind::ReservedBits,
            field: "reserved",
            byte,
            value: (set >> (u32::from(byte) * 8)) as u64,
        }
    }
}

/// `bit 121` or `bits 121, 127`: the word's bits of a reserved-bits error whose `value` holds
/// the set bits from bit 0 of `byte` up.
pub(crate) fn reserved_bit_list(byte: u8, value: u64) -> String {
    let bits: Vec<String> = (0..64u32)
        .filter(|b| value >> b & 1 != 0)
        .map(|b| (u32::from(byte) * 8 + b).to_string())
        .collect();
    let s = if bits.len() == 1 { "" } else { "s" };
    format!("bit{s} {}", bits.join(", "))
}

impl fmt::Display for EncodingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind == ErrorKind::ReservedBits {
            let bits = reserved_bit_list(self.byte, self.value);
            return write!(f, "byte {}: reserved {bits} set", self.byte);
        }
        let what = match self.kind {
            ErrorKind::UnknownOpcode => "unknown opcode",
            ErrorKind::ReservedValue => "reserved value",
            ErrorKind::ReservedBits => "reserved bits set",
            ErrorKind::Malformed => "malformed value",
            ErrorKind::NotCompact => "not a compact instruction",
        };
        write!(
            f,
            "byte {}: field `{}`: {} {:#x}",
            self.byte, self.field, what, self.value
        )
    }
}

impl std::error::Error for EncodingError {}
