//! The types and constants of the C interface (include/euref.h): status codes, the step
//! report, the write record and the memory callbacks.

#![allow(non_camel_case_types)]

use std::ffi::{c_char, c_void};

/// Success.
pub const EUREF_OK: i32 = 0;
/// euref_compare_grf: the design's register differs from euref's (the report says where).
pub const EUREF_MISMATCH: i32 = 1;
/// A NULL pointer, an unknown register name, a size or index out of range, or a call that
/// needs something not set up yet (no program loaded).
pub const EUREF_ERR_ARG: i32 = -1;
/// The platform name is none of ivb, hsw, bdw, chv, skl, bxt (or their aliases, 7 .. 9).
pub const EUREF_ERR_PLATFORM: i32 = -2;
/// The state JSON is malformed (the message gives the JSON path or line:column).
pub const EUREF_ERR_PARSE: i32 = -3;
/// Program bytes that do not decode (the message gives the byte offset), or an IP outside
/// the program.
pub const EUREF_ERR_DECODE: i32 = -4;
/// A spec row refuses the instruction (the message names the row ID and its citation).
pub const EUREF_ERR_REFUSED: i32 = -5;
/// The program has ended (send with EOT, or IP at the end of the program).
pub const EUREF_ERR_ENDED: i32 = -6;
/// A memory access a spec/memory.toml row refuses (named in the message), or a host memory
/// callback that failed.
pub const EUREF_ERR_MEMORY: i32 = -7;
/// The instruction is outside what the model executes (no row to name), or the thread waits
/// for a notification (`wait` on a zero count).
pub const EUREF_ERR_UNSUPPORTED: i32 = -8;
/// euref_run: the step bound was reached before the end of the program (the message names
/// the loop's instructions).
pub const EUREF_ERR_LIMIT: i32 = -9;
/// A bug in euref (a panic caught at the boundary); the message says what.
pub const EUREF_ERR_INTERNAL: i32 = -99;

/// euref_write.kind: a GRF register (`r12`).
pub const EUREF_WRITE_GRF: u32 = 0;
/// euref_write.kind: an ARF register other than a flag register (`acc0`, `a0`, `sr0`, `cr0`,
/// `ip`, ...).
pub const EUREF_WRITE_ARF: u32 = 1;
/// euref_write.kind: a flag register (`f0`, `f1`).
pub const EUREF_WRITE_FLAG: u32 = 2;
/// euref_write.kind: memory bytes a send stored (name `mem`: flat memory at the address in
/// `offset`; name `slm`: shared local memory at that offset).
pub const EUREF_WRITE_MEMORY: u32 = 3;

/// What one euref_step did.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct euref_step_info {
    /// The address of the instruction executed.
    pub ip: u32,
    /// The IP after it.
    pub next_ip: u32,
    /// The channels that executed it (bit n: channel n of the instruction; for a branch,
    /// the thread channels on it).
    pub enabled: u32,
    /// 1 when the program has ended after it (send with EOT, or IP at the program's end).
    pub ended: u32,
    /// How many writes euref_step_write gives for this step.
    pub n_writes: u32,
}

/// One write of a step: a chunk of at most 32 bytes of one register or of memory, with the
/// value after the step.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct euref_write {
    /// EUREF_WRITE_GRF, EUREF_WRITE_ARF, EUREF_WRITE_FLAG or EUREF_WRITE_MEMORY.
    pub kind: u32,
    /// The register's name (`r12`, `acc0`, `f0`), or `mem` / `slm`; NUL-terminated.
    pub name: [c_char; 16],
    /// Byte offset in the register, or the memory address (the SLM offset for `slm`).
    pub offset: u64,
    /// Bytes in this chunk (at most 32).
    pub len: u32,
    /// The bytes after the step (`len` of them).
    pub bytes: [u8; 32],
    /// Per byte, the bits that are undefined (0xff: the whole byte; ARF registers have
    /// undefined bits, GRF and memory whole bytes).
    pub undefined: [u8; 32],
    /// Per byte, the bits that are inexact (row math.inexact / mem.inexact: the value is the
    /// model's within the bound of its row, not an exact one).
    pub inexact: [u8; 32],
}


/// A host memory read: fill `bytes[0..len]` with the bytes at `addr`; `undefined[0..len]`
/// (zeroed before the call) may be set to 0xff for bytes the host holds no value for.
/// Return 0, or nonzero for a failure (the step then fails with EUREF_ERR_MEMORY).
pub type euref_mem_read_fn = Option<
    unsafe extern "C" fn(
        user: *mut c_void,
        addr: u64,
        bytes: *mut u8,
        undefined: *mut u8,
        len: u32,
    ) -> i32,
>;

/// A host memory write: store `bytes[0..len]` at `addr`; `undefined[i]` is 0xff where euref
/// stores an undefined byte; `inexact` is 1 when the bytes are inexact (mem.inexact).
/// Return 0, or nonzero for a failure (the step then fails with EUREF_ERR_MEMORY).
pub type euref_mem_write_fn = Option<
    unsafe extern "C" fn(
        user: *mut c_void,
        addr: u64,
        bytes: *const u8,
        undefined: *const u8,
        len: u32,
        inexact: u32,
    ) -> i32,
>;
