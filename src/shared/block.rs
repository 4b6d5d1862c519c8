//! OWord block messages (spec/memory.toml send.block*, send.a64-block-*): DC0 OWord block
//! read (aligned and unaligned) and write on binding-table buffer surfaces, and the DC1 A64
//! OWord block read / write on the flat memory. One header register carries the block's
//! offset or address; the block moves as contiguous bytes, not per lane.

use super::payload::{self, Payload};
use super::report::AccessKind;
use super::untyped::{check_lengths, Ctx};
use crate::memory::{MemError, Memory, Place};
use crate::spec::memory as rows;
use crate::state::ThreadState;

/// The block's shape (descf.dp.oword-size): its bytes, and where in the registers they sit
/// (send.block.layout).
#[derive(Debug, Clone, Copy)]
struct Shape {
    /// Bytes of memory the block covers (16 per OWord).
    bytes: usize,
    /// Byte of the first register where the block starts (16: 1 OWord high).
    at: usize,
    /// Registers the block fills.
    regs: usize,
}

/// The block shape of the descriptor on registers of `rb` bytes.
fn shape(c: &Ctx, rb: usize) -> Result<Shape, MemError> {
    let name = c.dp.blocks.map(|r| r.name);
    let (owords, at) = match name {
        Some("1_low") => (1, 0),
        Some("1_high") => (1, 16),
        Some("2") => (2, 0),
        Some("4") => (4, 0),
        Some("8") => (8, 0),
        _ => {
            return Err(MemError::new(
                &rows::SEND_BLOCK_LAYOUT,
                format!(
                    "{} with block size {}: the rows cover 1 (low or high), 2, 4 and 8 OWords",
                    c.dp.ty.name,
                    name.unwrap_or("(none)")
                ),
            ))
        }
    };
    let bytes = 16 * owords;
    Ok(Shape {
        bytes,
        at,
        regs: (at + bytes).div_ceil(rb.max(1)),
    })
}

/// send.block.header: the header must be present.
fn header(c: &Ctx) -> Result<(), MemError> {
    if c.msg.header {
        return Ok(());
    }
    Err(MemError::new(
        &rows::SEND_BLOCK_HEADER,
        format!(
            "{} without the header-present bit: a block message takes its offset or address \
             from a header register",
            c.dp.ty.name
        ),
    ))
}

/// send.block.channels: every channel of the ExecSize must be enabled.
fn all_channels(c: &Ctx) -> Result<(), MemError> {
    let n = u32::from(c.insn.exec_size).min(32);
    let all = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
    if c.lanes & all == all {
        return Ok(());
    }
    Err(MemError::new(
        &rows::SEND_BLOCK_CHANNELS,
        format!(
            "{} with enabled channels {:#x} of its {n}: a block message is executed only with \
             every channel enabled (NoMask)",
            c.dp.ty.name, c.lanes
        ),
    ))
}

/// Header dword `i` (send.block.header), refusing an undefined one.
fn header_dword(p: &Payload, i: usize, what: &str) -> Result<u32, MemError> {
    p.dword(0, i).ok_or_else(|| {
        MemError::new(
            &rows::SEND_UNDEFINED_ADDRESS,
            format!("the block's {what} (header dword {i}) is undefined"),
        )
    })
}

/// The common checks; the payload and the block's shape.
fn prepare(st: &ThreadState, c: &Ctx, write: bool) -> Result<(Payload, Shape), MemError> {
    header(c)?;
    all_channels(c)?;
    let s = shape(c, st.grf_reg_bytes())?;
    if write {
        check_lengths(c, 1 + s.regs, 0)?;
    } else {
        check_lengths(c, 1, s.regs)?;
    }
    let p = payload::gather(st, c.insn, c.msg.mlen, c.msg.ex_mlen.unwrap_or(0))?;
    Ok((p, s))
}

/// The block's bytes in the write payload (the registers after the header).
fn data(p: &Payload, s: Shape) -> Vec<Option<u8>> {
    let o = p.reg_bytes + s.at;
    (o..o + s.bytes)
        .map(|i| p.bytes.get(i).copied().flatten())
        .collect()
}

/// The response registers holding `block` (send.block.layout); the bytes the block does not
/// fill are undefined (send.block.other-half).
fn respond(st: &mut ThreadState, c: &Ctx, s: Shape, block: &[Option<u8>]) -> Result<(), MemError> {
    let mut resp = vec![None; s.regs * st.grf_reg_bytes()];
    resp[s.at..s.at + s.bytes].copy_from_slice(block);
    payload::respond(st, c.insn, &resp)
}

/// Where the DC0 block at byte `offset` of the message's surface lies: `Some(base)` inside a
/// surface, `None` wholly out of bounds (send.block.oob); refused when it straddles the end
/// (send.block.oob-partial), for SLM (send.block.slm) and for the other special indices
/// (mem.stateless, through [`Memory::locate`]).
fn locate(c: &Ctx, mem: &Memory, offset: u64, s: Shape) -> Result<Option<u64>, MemError> {
    if c.dp.surface.is_some_and(|r| r.name == "slm") {
        return Err(MemError::new(
            &rows::SEND_BLOCK_SLM,
            format!(
                "{} to SLM (binding-table index 254) on {}",
                c.dp.ty.name,
                c.msg.platform.name()
            ),
        ));
    }
    let p = c.msg.platform;
    let first = mem.locate(p, c.dp.bti, offset, 4)?;
    let last = mem.locate(p, c.dp.bti, offset + s.bytes as u64 - 4, 4)?;
    match (first, last) {
        (Place::Flat(a), Place::Flat(_)) => Ok(Some(a)),
        (Place::OutOfBounds, _) => Ok(None),
        _ => Err(MemError::new(
            &rows::SEND_BLOCK_OOB_PARTIAL,
            format!(
                "the {}-byte block at offset {offset:#x} of binding-table index {} passes the \
                 end of its {}-byte surface",
                s.bytes,
                c.dp.bti,
                mem.surface(c.dp.bti).map_or(0, |x| x.size)
            ),
        )),
    }
}

/// The DC0 block's byte offset: header dword 2, in OWords for the aligned read and the write
/// (send.block-read, send.block-write), in bytes for the unaligned read, which must be a
/// multiple of 16 (send.block-unaligned-read, send.block.unaligned-offset).
fn offset(c: &Ctx, p: &Payload) -> Result<u64, MemError> {
    let v = header_dword(p, 2, "global offset")?;
    if c.dp.ty.name != "unaligned_oword_block_read" {
        return Ok(16 * u64::from(v));
    }
    if v % 16 != 0 {
        return Err(MemError::new(
            &rows::SEND_BLOCK_UNALIGNED_OFFSET,
            format!(
                "unaligned_oword_block_read at byte offset {v:#x}, not a multiple of 16: the \
                 sources disagree on whether the offset is valid"
            ),
        ));
    }
    Ok(u64::from(v))
}

/// DC0 OWord block read, aligned or unaligned (send.block-read, send.block-unaligned-read).
pub fn read(st: &mut ThreadState, c: &Ctx, mem: &Memory) -> Result<(), MemError> {
    let (p, s) = prepare(st, c, false)?;
    let off = offset(c, &p)?;
    // A block is one access (recorded as lane 0's).
    let block = match locate(c, mem, off, s)? {
        Some(a) => c.rec.read(mem, 0, off, Place::Flat(a), s.bytes),
        None => {
            let zeros = vec![Some(0); s.bytes];
            c.rec
                .note(0, off, Place::OutOfBounds, &zeros, AccessKind::Read);
            zeros
        }
    };
    respond(st, c, s, &block)
}

/// DC0 OWord block write (send.block-write).
pub fn write(st: &mut ThreadState, c: &Ctx, mem: &mut Memory) -> Result<(), MemError> {
    let (p, s) = prepare(st, c, true)?;
    let off = offset(c, &p)?;
    match locate(c, mem, off, s)? {
        Some(a) => c.rec.write(mem, 0, off, Place::Flat(a), &data(&p, s)),
        None => c
            .rec
            .note(0, off, Place::OutOfBounds, &data(&p, s), AccessKind::Write),
    }
    Ok(())
}

/// The A64 block's address (header dwords 0-1), refused unless the subtype and the address
/// are ones every reading agrees on (send.a64-block-subtype).
fn a64_address(c: &Ctx, p: &Payload, write: bool) -> Result<u64, MemError> {
    super::a64::check_bti(c)?;
    let lo = header_dword(p, 0, "address")?;
    let hi = header_dword(p, 1, "address")?;
    let a = u64::from(hi) << 32 | u64::from(lo);
    let sub = c.msg.get("block_subtype").unwrap_or(0);
    let refuse = |why: String| {
        Err(MemError::new(
            &rows::SEND_A64_BLOCK_SUBTYPE,
            format!("{} with subtype {sub}: {why}", c.dp.ty.name),
        ))
    };
    match (sub, write) {
        (0, _) | (1, false) => {}
        (1, true) => return refuse("Mesa and IGC have no unaligned block write".into()),
        _ => return refuse("Mesa and IGC have no such subtype (IGA: dual block or HWord)".into()),
    }
    if a % 16 != 0 {
        return refuse(format!(
            "the address {a:#x} is not a multiple of 16, and whether this subtype accepts it \
             depends on the disputed reading"
        ));
    }
    Ok(a)
}

/// DC1 A64 OWord block read (send.a64-block-read).
pub fn a64_read(st: &mut ThreadState, c: &Ctx, mem: &Memory) -> Result<(), MemError> {
    let (p, s) = prepare(st, c, false)?;
    let a = a64_address(c, &p, false)?;
    let block = c.rec.read(mem, 0, a, Place::Flat(a), s.bytes);
    respond(st, c, s, &block)
}

/// DC1 A64 OWord block write (send.a64-block-write).
pub fn a64_write(st: &mut ThreadState, c: &Ctx, mem: &mut Memory) -> Result<(), MemError> {
    let (p, s) = prepare(st, c, true)?;
    let a = a64_address(c, &p, true)?;
    c.rec.write(mem, 0, a, Place::Flat(a), &data(&p, s));
    Ok(())
}
