//! DC0 byte scattered read and write (spec/memory.toml send.byte-scattered-*): SIMD8 / SIMD16,
//! 1, 2 or 4 bytes per lane in the low bytes of the lane's dword; DC0 dword scattered read and
//! write (send.dword-scattered-*): one dword per lane at a dword offset. On binding-table
//! surfaces and SLM (src/memory), and on stateless indices with their header
//! (mem.stateless, [`super::stateless`]).

use super::payload::{self, Payload};
use super::report::AccessKind;
use super::stateless::{Header, A32};
use super::untyped::{check_lengths, simd, Ctx};
use crate::memory::{MemError, Memory, Place};
use crate::spec::memory::{self as rows, MemRowInfo};
use crate::state::ThreadState;
use std::collections::BTreeMap;

/// Bytes per lane: the data_size field's row (descf.dp.byte-size, msgval.byte-size.*).
fn element_bytes(c: &Ctx) -> Result<usize, MemError> {
    match c.dp.data_size.map(|r| r.name) {
        Some("byte") => Ok(1),
        Some("word") => Ok(2),
        Some("dword") => Ok(4),
        other => Err(MemError::new(
            &rows::SEND_BYTE_SCATTERED_READ,
            format!(
                "{}: the descriptor's data size is {}",
                c.dp.ty.name,
                other.unwrap_or("(none)")
            ),
        )),
    }
}

/// Lane `i`'s byte offset (payload register i/8, dword i%8), refusing an undefined one
/// (send.undefined-address) or one not a multiple of `size` (send.byte-scattered-misaligned).
fn address(p: &Payload, i: usize, size: usize) -> Result<u64, MemError> {
    let a = p.lane_address(i)?;
    if a as usize % size != 0 {
        return Err(MemError::new(
            &rows::SEND_BYTE_SCATTERED_MISALIGNED,
            format!("lane {i}'s offset {a:#x} is not a multiple of its {size}-byte element"),
        ));
    }
    Ok(u64::from(a))
}

/// How a scattered message addresses its lanes.
struct Form {
    /// The message row (SIMD mode errors).
    row: &'static MemRowInfo,
    /// Bytes per element.
    size: usize,
    /// Bytes per offset unit: 1 (byte scattered) or 4 (dword scattered).
    unit: u64,
    header: Header,
}

/// The byte scattered form of `c` (descf.dp.byte-size).
fn byte_form(c: &Ctx, row: &'static MemRowInfo) -> Result<Form, MemError> {
    Ok(Form {
        row,
        size: element_bytes(c)?,
        unit: 1,
        header: Header::ByteScattered,
    })
}

/// The dword scattered form of `c`, refusing the legacy SIMD mode bit 0 and elements per
/// address other than one (send.dword-scattered-form).
fn dword_form(c: &Ctx, row: &'static MemRowInfo) -> Result<Form, MemError> {
    let legacy = c.msg.get("legacy_simd").unwrap_or(0);
    let elements = c.msg.get("elements").unwrap_or(0);
    if legacy != 1 || elements != 0 {
        return Err(MemError::new(
            &rows::SEND_DWORD_SCATTERED_FORM,
            format!(
                "{} with legacy_simd {legacy} (must be 1) and elements {elements} (only 0, one \
                 dword per address, is executed)",
                c.dp.ty.name
            ),
        ));
    }
    Ok(Form {
        row,
        size: 4,
        unit: 4,
        header: Header::DwordScattered,
    })
}

/// Lane `i`'s byte offset: its payload offset times the unit, refusing a dword offset whose
/// byte offset passes 32 bits (send.dword-scattered-form) and an element not aligned to its
/// size (send.byte-scattered-misaligned).
fn byte_offset(p: &Payload, i: usize, f: &Form) -> Result<u64, MemError> {
    if f.unit == 1 {
        return address(p, i, f.size);
    }
    let o = p.lane_address(i)?;
    if o >= 1 << 30 {
        return Err(MemError::new(
            &rows::SEND_DWORD_SCATTERED_FORM,
            format!("lane {i}'s dword offset {o:#x} is 2^30 or more"),
        ));
    }
    Ok(u64::from(o) * f.unit)
}

/// A scattered read: each taking-part lane's element in the low bytes of its response dword;
/// the bytes above it and a disabled lane's dword are undefined (send.byte-scattered-unused,
/// send.disabled-lane-read); out-of-bounds elements read as zeros.
fn read(st: &mut ThreadState, c: &Ctx, mem: &Memory, f: Form) -> Result<(), MemError> {
    let simd = simd(c, f.row)?;
    let per = simd / 8;
    let h = usize::from(c.msg.header);
    check_lengths(c, h + per, per)?;
    let p = payload::gather(st, c.insn, c.msg.mlen, c.msg.ex_mlen.unwrap_or(0))?;
    let (a32, p) = A32::new(c, p, mem, f.header)?;
    let rb = p.reg_bytes;
    let mut resp = vec![None; per * rb];
    for i in a32.enabled(simd) {
        let a = byte_offset(&p, i, &f)?;
        let place = a32.locate(mem, c, i, a, f.size as u32)?;
        let o = (i / 8) * rb + (i % 8) * 4;
        resp[o..o + f.size].copy_from_slice(&c.rec.read(mem, i, a, place, f.size));
    }
    payload::respond(st, c.insn, &resp)
}

/// A memory byte a write reaches: (0, flat address) or (1, SLM offset).
type ByteKey = (u8, u64);

fn byte_key(place: Place, k: usize) -> Option<ByteKey> {
    match place {
        Place::Flat(a) => Some((0, a.wrapping_add(k as u64))),
        Place::Slm(o) => Some((1, u64::from(o) + k as u64)),
        Place::OutOfBounds => None,
    }
}

/// A scattered write: each taking-part lane stores the low bytes of its data dword;
/// out-of-bounds elements are dropped; a byte two lanes store different values to becomes
/// undefined (send.byte-scattered-same-address). Every lane is checked before any byte is
/// stored.
fn write(st: &mut ThreadState, c: &Ctx, mem: &mut Memory, f: Form) -> Result<(), MemError> {
    let simd = simd(c, f.row)?;
    let per = simd / 8;
    let h = usize::from(c.msg.header);
    check_lengths(c, h + 2 * per, 0)?;
    let p = payload::gather(st, c.insn, c.msg.mlen, c.msg.ex_mlen.unwrap_or(0))?;
    let (a32, p) = A32::new(c, p, mem, f.header)?;
    let mut stores: BTreeMap<ByteKey, Option<u8>> = BTreeMap::new();
    for i in a32.enabled(simd) {
        let a = byte_offset(&p, i, &f)?;
        let place = a32.locate(mem, c, i, a, f.size as u32)?;
        let data = p.dword_bytes(per + i / 8, i % 8);
        c.rec.note(i, a, place, &data[..f.size], AccessKind::Write);
        for (k, b) in data.iter().take(f.size).enumerate() {
            let Some(key) = byte_key(place, k) else {
                continue;
            };
            stores
                .entry(key)
                .and_modify(|old| {
                    if *old != *b {
                        *old = None;
                    }
                })
                .or_insert(*b);
        }
    }
    for ((space, a), b) in stores {
        let place = if space == 0 {
            Place::Flat(a)
        } else {
            Place::Slm(a as u32)
        };
        mem.write(place, &[b]);
    }
    Ok(())
}

/// Byte scattered read (send.byte-scattered-read, send.byte-scattered-unused,
/// send.byte-scattered-oob).
pub fn byte_read(st: &mut ThreadState, c: &Ctx, mem: &Memory) -> Result<(), MemError> {
    let f = byte_form(c, &rows::SEND_BYTE_SCATTERED_READ)?;
    read(st, c, mem, f)
}

/// Byte scattered write (send.byte-scattered-write, send.byte-scattered-oob,
/// send.byte-scattered-same-address).
pub fn byte_write(st: &mut ThreadState, c: &Ctx, mem: &mut Memory) -> Result<(), MemError> {
    let f = byte_form(c, &rows::SEND_BYTE_SCATTERED_WRITE)?;
    write(st, c, mem, f)
}

/// Dword scattered read (send.dword-scattered-read): offsets in dwords.
pub fn dword_read(st: &mut ThreadState, c: &Ctx, mem: &Memory) -> Result<(), MemError> {
    let f = dword_form(c, &rows::SEND_DWORD_SCATTERED_READ)?;
    read(st, c, mem, f)
}

/// Dword scattered write (send.dword-scattered-write): offsets in dwords.
pub fn dword_write(st: &mut ThreadState, c: &Ctx, mem: &mut Memory) -> Result<(), MemError> {
    let f = dword_form(c, &rows::SEND_DWORD_SCATTERED_WRITE)?;
    write(st, c, mem, f)
}
