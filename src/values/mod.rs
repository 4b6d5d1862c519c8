//! Data values: the byte-addressed general register file with typed element access, and the
//! decoding/encoding of immediate operands (scalar immediates, the packed V/UV integer vectors
//! and the packed VF restricted-float vector).
//!
//! Everything here follows spec/types.toml and spec/registers.toml: sizes come from the
//! generated tables (`registers::file("grf")`, `DataType::bytes()`, `DataType::imm_enc()`), and
//! the bit rules implemented here are the ones documented on the rows `type.w`/`type.uw`
//! (word immediate replication, seed000 §3.3.4), `type.v`, `type.uv` and `type.vf`
//! (seed000 §2.2.3-§2.2.5).
//!
//! No function in this module panics on bad input: misaligned, out-of-range or otherwise
//! illegal accesses return a [`ValueError`] that names the offset and the type.

mod arf;
mod grf;
mod imm;

pub use arf::arf_store;
pub use grf::Grf;
pub use imm::{
    check_word_replication, decode_imm, element_type, encode_imm, encode_vector, f32_bits_to_vf,
    imm_field_bits, uv_element, v_element, vf_to_f32_bits, ImmElements,
};

use crate::spec::{DataType, Platform};

/// Why a value access or an immediate conversion was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    /// The byte offset is not a multiple of the type's size (seed000 §2.1: data elements are
    /// aligned to their natural boundary).
    #[error("{} access at byte offset {offset} is misaligned: it must be a multiple of {align}", .ty.name())]
    Misaligned {
        ty: DataType,
        offset: usize,
        align: usize,
    },
    /// The element does not lie entirely inside the register file.
    #[error("{} access at byte offset {offset} ({size} bytes) is outside the {limit}-byte register file", .ty.name())]
    OutOfRange {
        ty: DataType,
        offset: usize,
        size: usize,
        limit: usize,
    },
    /// V, UV and VF exist only as immediates: they have no register representation.
    #[error("{} is an immediate-only vector type and cannot be accessed in a register (byte offset {offset})", .ty.name())]
    NotRegisterType { ty: DataType, offset: usize },
    /// The type has no immediate encoding on the platform (B/UB never; 64-bit types before Gen8;
    /// types the platform does not have).
    #[error("{} has no immediate form on {}", .ty.name(), .platform.name())]
    NoImmediate { ty: DataType, platform: Platform },
    /// The raw immediate has bits set above the immediate field's width.
    #[error("{} immediate {raw:#x} does not fit the {field_bits}-bit immediate field on {}", .ty.name(), .platform.name())]
    ImmediateTooWide {
        ty: DataType,
        platform: Platform,
        raw: u64,
        field_bits: u32,
    },
    /// A W/UW immediate whose two 16-bit halves differ (seed000 §3.3.4).
    #[error("{} immediate {raw:#010x} is not replicated: the high word {:#06x} differs from the low word {:#06x}", .ty.name(), .raw >> 16, .raw & 0xffff)]
    NotReplicated { ty: DataType, raw: u32 },
    /// A value has bits set above the type's width.
    #[error("value {value:#x} does not fit the {}-bit type {}", .ty.bits(), .ty.name())]
    ValueTooWide { ty: DataType, value: u64 },
    /// A packed vector immediate got the wrong number of elements or an element out of range.
    #[error("{}: {reason}", .ty.name())]
    BadVector { ty: DataType, reason: &'static str },
}

/// Interpret `raw` (the low `t.bits()` bits of a value of type `t`) as a signed number: sign
/// extension for signed integer types, zero extension otherwise. Bits above the type's width
/// are ignored. Float types are returned as their zero-extended bit patterns.
pub fn to_i64(t: DataType, raw: u64) -> i64 {
    let bits = t.bits().min(64);
    let masked = if bits >= 64 {
        raw
    } else {
        raw & ((1u64 << bits) - 1)
    };
    if t.is_int() && t.is_signed() && bits < 64 {
        let shift = 64 - bits;
        ((masked << shift) as i64) >> shift
    } else {
        masked as i64
    }
}
