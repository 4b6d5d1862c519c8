//! DC0 byte scattered read and write (spec/memory.toml send.byte-scattered-*): SIMD8 / SIMD16,
//! no header, 1, 2 or 4 bytes per lane in the low bytes of the lane's dword, on binding-table
//! surfaces and SLM (src/memory).

use super::payload::{self, Payload};
use super::report::AccessKind;
use super::untyped::{check_lengths, simd, Ctx};
use crate::memory::{MemError, Memory, Place};
use crate::spec::memory as rows;
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

/// The enabled lanes of a `simd`-wide message.
fn enabled(c: &Ctx, simd: usize) -> impl Iterator<Item = usize> {
    let lanes = c.lanes;
    (0..simd).filter(move |i| lanes >> i & 1 == 1)
}

/// Byte scattered read (send.byte-scattered-read): each enabled lane's element in the low
/// bytes of its response dword; the bytes above it are undefined (send.byte-scattered-unused);
/// out-of-bounds elements read as zeros (send.byte-scattered-oob).
pub fn byte_read(st: &mut ThreadState, c: &Ctx, mem: &Memory) -> Result<(), MemError> {
    let simd = simd(c, &rows::SEND_BYTE_SCATTERED_READ)?;
    let size = element_bytes(c)?;
    let per = simd / 8;
    check_lengths(c, per, per)?;
    let p = payload::gather(st, c.insn, c.msg.mlen, c.msg.ex_mlen.unwrap_or(0))?;
    let rb = p.reg_bytes;
    // send.disabled-lane-read: a disabled lane's dword stays undefined.
    let mut resp = vec![None; per * rb];
    for i in enabled(c, simd) {
        let a = address(&p, i, size)?;
        let place = mem.locate(c.msg.platform, c.dp.bti, a, size as u32)?;
        let o = (i / 8) * rb + (i % 8) * 4;
        resp[o..o + size].copy_from_slice(&c.rec.read(mem, i, a, place, size));
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

/// Byte scattered write (send.byte-scattered-write): each enabled lane stores the low bytes of
/// its data dword; out-of-bounds elements are dropped (send.byte-scattered-oob); a byte two
/// lanes store different values to becomes undefined (send.byte-scattered-same-address).
/// Every lane is checked before any byte is stored.
pub fn byte_write(st: &mut ThreadState, c: &Ctx, mem: &mut Memory) -> Result<(), MemError> {
    let simd = simd(c, &rows::SEND_BYTE_SCATTERED_WRITE)?;
    let size = element_bytes(c)?;
    let per = simd / 8;
    check_lengths(c, 2 * per, 0)?;
    let p = payload::gather(st, c.insn, c.msg.mlen, c.msg.ex_mlen.unwrap_or(0))?;
    let mut stores: BTreeMap<ByteKey, Option<u8>> = BTreeMap::new();
    for i in enabled(c, simd) {
        let a = address(&p, i, size)?;
        let place = mem.locate(c.msg.platform, c.dp.bti, a, size as u32)?;
        let data = p.dword_bytes(per + i / 8, i % 8);
        c.rec.note(i, a, place, &data[..size], AccessKind::Write);
        for (k, b) in data.iter().take(size).enumerate() {
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
