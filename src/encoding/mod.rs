//! Raw-bit instruction encodings: choosing the bit layout of a native (128-bit) instruction,
//! checking its fields for reserved or malformed values, and compacting / uncompacting between
//! the native and the compact (64-bit) forms.
//!
//! Everything here works on the generated tables of `spec/encoding/*.toml`
//! ([`crate::spec::encoding`]): layouts (`enc.*` rows, one per distinct bit assignment), value
//! tables (`enc.*`) and compaction tables (`compact.*`). No bit position and no table entry is
//! written in this module; fields are found by name once per platform and then read with the
//! generated shift/mask accessors ([`BitField::get`]).
//!
//! Instruction words are little-endian: byte `i` of the instruction in memory holds bits
//! `8i+7 .. 8i` ([`native_word`], [`compact_word`]).
//!
//! [`BitField::get`]: crate::spec::encoding::BitField::get

mod compact;
mod error;
mod field;
mod select;

pub use compact::{compact, compact_masked, has_three_src_compaction, precompact, uncompact};
pub(crate) use error::reserved_bit_list;
pub use error::{EncodingError, ErrorKind};
pub(crate) use field::F;
pub use select::{check, is_compact, jump_bits, layout_for, operand_layout, Form, Operand};
pub(crate) use select::{set as layout_set, SelectInput, SelectValues, Set as LayoutSet};

/// The 128-bit word of a native instruction from its 16 bytes in memory order.
#[inline]
pub fn native_word(bytes: &[u8; 16]) -> u128 {
    u128::from_le_bytes(*bytes)
}

/// The 64-bit word of a compact instruction from its 8 bytes in memory order.
#[inline]
pub fn compact_word(bytes: &[u8; 8]) -> u64 {
    u64::from_le_bytes(*bytes)
}
