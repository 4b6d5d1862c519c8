//! The instruction representation shared by the assembler/disassembler, the executor, the
//! validator and the binary encoder/decoder.
//!
//! An [`Insn`] holds everything a native (128-bit) Gen7-Gen9 instruction encodes, in
//! generation-independent terms except where the hardware field itself is generation-specific
//! (branch offsets are kept in the generation's jump units, see [`Insn::jip`]):
//!
//! - header: opcode ([`Opcode`](crate::spec::Opcode)), exec size, channel offset (QtrCtrl and
//!   NibCtrl folded into one number), access mode, predication, condition modifier and its flag
//!   register, saturate, math function, and the instruction controls ([`Controls`]);
//! - operands: a destination ([`Dst`]) and up to three sources ([`Src`]), each a register
//!   (direct or register-indirect through `a0`) with a region and type, or an immediate;
//! - send messages ([`SendInfo`]): SFID, descriptor and extended descriptor;
//! - branch offsets (JIP/UIP).
//!
//! Operands the hardware requires but that carry no information of their own are *implicit* and
//! not stored: the `null`/immediate operands of the structured flow instructions (`if`, `else`,
//! `endif`, `while`, `break`, `cont`, `halt`, `goto`, `join`), `ip` as destination and first
//! source of `jmpi`, `wait`'s source (its destination, `n0.x`), and the immediate descriptor
//! source of `send`. The binary encoder supplies them.
//!
//! Types never panic and every field is plain data: any combination can be built, printed and
//! compared; whether it is *legal* is the validator's business.

mod arf;
mod insn;
mod operand;
mod sfid;

pub use arf::{
    arf_iga_name, arf_kind, arf_lookup, arf_mesa_name, arf_name, arf_names, arf_regnum,
    arf_type_exists, iga_byte_subreg, mme_number, ArfName,
};
pub use insn::{Controls, Flag, Insn, SendDesc, SendInfo, ThreadCtrl};
pub use operand::{Addr, Dst, Imm, Reg, RegSrc, Region, Src, Swizzle};
pub use sfid::{sfid_from_name, sfid_name, SFID_NAMES};
