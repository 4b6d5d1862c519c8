//! Binary encode/decode between [`Insn`] and the native (128-bit) and compact (64-bit)
//! instruction forms of Gen7-Gen9.
//!
//! - [`decode`]: bytes -> instruction. A compact instruction (CmptCtrl set) is uncompacted
//!   first ([`crate::encoding::uncompact`]); the native word's layout is chosen and checked by
//!   [`crate::encoding::check`] (reserved bits, undefined encodings); every field is then read
//!   through that layout's generated fields ([`crate::spec::encoding`]) and the value tables
//!   of spec/encoding/values.toml, types through `DataType::from_reg_enc` / `from_imm_enc`,
//!   opcodes through `Opcode::from_number`. No bit position or table entry is written here.
//! - [`encode`]: instruction -> 16 bytes, through the layout `select` gives the instruction
//!   (see the encode module); [`compact`]: the 8-byte form when the compaction tables can
//!   represent the instruction exactly ([`crate::encoding::compact`]).
//!
//! Implicit operands (the `null`/immediate operands of structured flow instructions, `ip` of
//! `jmpi`, `wait`'s source, the descriptor source of `send`) are supplied by the encoder as
//! Mesa's code generator writes them and skipped by the decoder (module `implicit`).
//!
//! Round trips: for every instruction `i` that [`encode`] accepts,
//! `decode(encode(i)) == i` after [`Insn::canonicalize`], except [`Controls::compacted`]
//! (a native word is never compact; [`decode`] sets it for 8-byte instructions). Decoding
//! arbitrary bytes never panics: it gives an instruction or a [`DecodeError`] naming the
//! field and its byte offset. Decoding is lenient about the implicit operands' bits (as the
//! hardware and other disassemblers are), so a word whose implicit operands differ from
//! Mesa's re-encodes to Mesa's form.
//!
//! Performance: the per-platform tables are built once (lazily); decode and encode allocate
//! nothing.
//!
//! [`Controls::compacted`]: crate::isa::Controls::compacted

mod decode;
mod decode_static;
mod dont_care;
mod encode;
mod encode_static;
mod error;
mod fields;
mod implicit;
pub mod program;
mod reserved_operands;
mod send_view;

pub use decode::{decode_word, decode_word_into};
pub use dont_care::dont_care;
pub use encode::encode_word;
pub use error::{DecodeError, DecodeErrorKind, EncodeError};
pub use implicit::{drop_implicit_math_src1, implicit_source};
pub(crate) use reserved_operands::{grf_limit, ret_reg_only};
pub use send_view::{
    mesa_send_last_dword, send_ex_desc_in_src0, send_ex_desc_shown_by_region, settle_send_ex_desc,
};

use crate::encoding::{compact_word, is_compact, native_word};
use crate::isa::Insn;
use crate::spec::Platform;

/// Decode one instruction from the start of `bytes`: the instruction and the number of bytes
/// it occupies (16 native, 8 compact).
#[inline]
pub fn decode(bytes: &[u8], p: Platform) -> Result<(Insn, usize), DecodeError> {
    let mut i = Insn::new(crate::spec::Opcode::Nop);
    let n = decode_into(bytes, p, &mut i)?;
    Ok((i, n))
}

/// [`decode`] into an existing instruction (for loops that reuse one): the number of bytes
/// the instruction occupies. On error the instruction is left in an unspecified but valid
/// state.
pub fn decode_into(bytes: &[u8], p: Platform, i: &mut Insn) -> Result<usize, DecodeError> {
    let Some(first) = bytes.first_chunk::<8>() else {
        return Err(DecodeError::truncated(8, bytes.len()));
    };
    let w64 = compact_word(first);
    if is_compact(w64) {
        let native = crate::encoding::uncompact(w64, p).map_err(DecodeError::from)?;
        decode_word_into(native, p, i).map_err(|mut e| {
            e.uncompacted = true;
            e
        })?;
        i.ctrl.compacted = true;
        return Ok(8);
    }
    let Some(b) = bytes.first_chunk::<16>() else {
        return Err(DecodeError::truncated(16, bytes.len()));
    };
    decode_word_into(native_word(b), p, i)?;
    Ok(16)
}

/// Whether bit 28 of a send on `p` is NoSrcDepSet (the send layouts name it
/// `no_src_dep_set`: Gen9) rather than AccWrCtrl (or no field, Gen8).
pub fn send_has_no_src_dep_set(p: Platform) -> bool {
    let Some(n) = crate::spec::Opcode::Send.number(p) else {
        return false;
    };
    let mut w = 0u128;
    crate::spec::encoding::gen7_a1::OPCODE.set(&mut w, n.into());
    crate::encoding::layout_for(w, p)
        .field("no_src_dep_set")
        .is_some()
}

/// Encode one instruction in its native 16-byte form (memory order).
pub fn encode(insn: &Insn, p: Platform) -> Result<[u8; 16], EncodeError> {
    encode_word(insn, p).map(u128::to_le_bytes)
}

/// The 8-byte compact form of `insn`, if one exists; it always decodes to `insn` (marked
/// compacted). `None` when the instruction cannot be encoded or has no compact form (see
/// [`crate::encoding::compact`]).
///
/// The native form is compacted as [`encode`] gives it, or else after Mesa's `precompact`
/// rewrites ([`crate::encoding::precompact`]) when they change no field of the instruction
/// (only implicit bits, such as the src1 type field of a one-source instruction with an
/// immediate, which the compaction tables only hold as UD). Rewrites that change the
/// instruction (Mesa turns `mov:D` of a small immediate into `mov:UD`) are not made: use
/// [`crate::encoding::precompact`] on the native word for Mesa's exact output. An instruction
/// marked compacted (`{Compacted}` text, a decoded compact word) is compacted up to its
/// [`dont_care`] bits when the exact forms fail (docs/codec.md, "Text round trips").
pub fn compact(insn: &Insn, p: Platform) -> Option<[u8; 8]> {
    let w = encode_word(insn, p).ok()?;
    if let Some(c) = crate::encoding::compact(w, p) {
        return Some(c.to_le_bytes());
    }
    let w2 = crate::encoding::precompact(w, p);
    let same = w2 != w
        && match (decode_word(w, p), decode_word(w2, p)) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        };
    if let Some(c) = same.then(|| crate::encoding::compact(w2, p)).flatten() {
        return Some(c.to_le_bytes());
    }
    if insn.ctrl.compacted {
        return compact_dont_care(w, p);
    }
    None
}

/// The compact form of native word `w` up to its [`dont_care`] bits, if one exists: for
/// instructions marked `{Compacted}`, whose compact word (as decoded and printed) may hold
/// other values than the encoder's in bits the text does not carry. The result uncompacts to
/// a word that decodes and agrees with `w` outside those bits.
fn compact_dont_care(w: u128, p: Platform) -> Option<[u8; 8]> {
    let care = !dont_care(w, p);
    let c = crate::encoding::compact_masked(w, care, p)?;
    let n = crate::encoding::uncompact(c, p).ok()?;
    (decode_word(n, p).is_ok() && (n ^ w) & care == 0).then(|| c.to_le_bytes())
}
