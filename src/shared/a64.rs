//! DC1 A64 (stateless, 64-bit address) messages (spec/memory.toml mem.a64, mem.a64.bti,
//! send.a64-scattered-*, send.a64-untyped-*, send.a64-untyped-atomic): each lane's address is
//! a flat-memory address.

use super::payload::{self, Payload};
use super::report::AccessKind;
use super::untyped::{self, check_lengths, simd, Ctx};
use crate::memory::{MemError, Memory, Place};
use crate::spec::memory::{self as rows, MemRowInfo};
use crate::state::ThreadState;
use std::collections::BTreeMap;

/// mem.a64.bti: the index must be a stateless one (255 or 253).
pub(super) fn check_bti(c: &Ctx) -> Result<(), MemError> {
    match c.dp.surface.map(|s| s.name) {
        Some("stateless" | "stateless_non_coherent") => Ok(()),
        other => Err(MemError::new(
            &rows::A64_BTI,
            format!(
                "{} with binding-table index {} ({}): A64 messages take 255 or 253 (stateless)",
                c.dp.ty.name,
                c.dp.bti,
                other.unwrap_or("a surface index")
            ),
        )),
    }
}

/// Lane `i`'s 64-bit address (mem.a64: qword i%4 of payload register i/4), refusing an
/// undefined one (send.undefined-address).
fn address(p: &Payload, i: usize) -> Result<u64, MemError> {
    let (reg, q) = (i / 4, i % 4);
    match (p.dword(reg, 2 * q), p.dword(reg, 2 * q + 1)) {
        (Some(lo), Some(hi)) => Ok(u64::from(hi) << 32 | u64::from(lo)),
        _ => Err(MemError::new(
            &rows::SEND_UNDEFINED_ADDRESS,
            format!("lane {i}'s address (payload register {reg}, qword {q}) is undefined"),
        )),
    }
}

/// Lane `i`'s address, refusing one that is not a multiple of `align` (`row`).
fn aligned(p: &Payload, i: usize, align: u64, row: &'static MemRowInfo) -> Result<u64, MemError> {
    let a = address(p, i)?;
    if a % align != 0 {
        return Err(MemError::new(
            row,
            format!("lane {i}'s address {a:#x} is not a multiple of {align}"),
        ));
    }
    Ok(a)
}

/// The enabled lanes of a `simd`-wide message.
fn enabled(c: &Ctx, simd: usize) -> impl Iterator<Item = usize> {
    let lanes = c.lanes;
    (0..simd).filter(move |i| lanes >> i & 1 == 1)
}

/// Bytes per lane of an A64 scattered message: the byte subtype with data size x1, x2 or x4
/// (send.a64-scattered-write); the rest is not executed (send.unmodelled).
fn element_bytes(c: &Ctx) -> Result<usize, MemError> {
    let subtype = c.msg.field("subtype").and_then(|f| f.named).map(|r| r.name);
    let size = c.dp.data_size.map(|r| r.name);
    match (subtype, size) {
        (Some("byte"), Some("x1")) => Ok(1),
        (Some("byte"), Some("x2")) => Ok(2),
        (Some("byte"), Some("x4")) => Ok(4),
        _ => Err(MemError::new(
            &rows::SEND_UNMODELLED,
            format!(
                "{} with subtype {} and data size {}: only the byte subtype with 1, 2 or 4 \
                 bytes per lane is executed",
                c.dp.ty.name,
                subtype.unwrap_or("(none)"),
                size.unwrap_or("(none)")
            ),
        )),
    }
}

/// A64 scattered read (send.a64-scattered-read).
pub fn scattered_read(st: &mut ThreadState, c: &Ctx, mem: &Memory) -> Result<(), MemError> {
    check_bti(c)?;
    let simd = simd(c, &rows::SEND_A64_SCATTERED_READ)?;
    let size = element_bytes(c)?;
    let per = simd / 8;
    check_lengths(c, 2 * per, per)?;
    let p = payload::gather(st, c.insn, c.msg.mlen, c.msg.ex_mlen.unwrap_or(0))?;
    let rb = p.reg_bytes;
    // send.disabled-lane-read and the bytes above the element: undefined.
    let mut resp = vec![None; per * rb];
    for i in enabled(c, simd) {
        let a = aligned(&p, i, size as u64, &rows::SEND_BYTE_SCATTERED_MISALIGNED)?;
        let o = (i / 8) * rb + (i % 8) * 4;
        resp[o..o + size].copy_from_slice(&c.rec.read(mem, i, a, Place::Flat(a), size));
    }
    payload::respond(st, c.insn, &resp)
}

/// A64 scattered write (send.a64-scattered-write): a byte several lanes store different values
/// to becomes undefined (send.byte-scattered-same-address); every lane is checked before any
/// byte is stored.
pub fn scattered_write(st: &mut ThreadState, c: &Ctx, mem: &mut Memory) -> Result<(), MemError> {
    check_bti(c)?;
    let simd = simd(c, &rows::SEND_A64_SCATTERED_WRITE)?;
    let size = element_bytes(c)?;
    let per = simd / 8;
    check_lengths(c, 3 * per, 0)?;
    let p = payload::gather(st, c.insn, c.msg.mlen, c.msg.ex_mlen.unwrap_or(0))?;
    let mut stores: BTreeMap<u64, Option<u8>> = BTreeMap::new();
    for i in enabled(c, simd) {
        let a = aligned(&p, i, size as u64, &rows::SEND_BYTE_SCATTERED_MISALIGNED)?;
        let data = p.dword_bytes(2 * per + i / 8, i % 8);
        c.rec
            .note(i, a, Place::Flat(a), &data[..size], AccessKind::Write);
        for (k, b) in data.iter().take(size).enumerate() {
            stores
                .entry(a.wrapping_add(k as u64))
                .and_modify(|old| {
                    if *old != *b {
                        *old = None;
                    }
                })
                .or_insert(*b);
        }
    }
    for (a, b) in stores {
        mem.write(Place::Flat(a), &[b]);
    }
    Ok(())
}

/// The enabled colour channels (R=0 .. A=3) of the channel mask.
fn channels(c: &Ctx) -> Vec<u64> {
    let mask = c.msg.get("channel_mask").unwrap_or(0);
    (0..4).filter(|ch| mask >> ch & 1 == 0).collect()
}

/// A64 untyped surface read (send.a64-untyped-read).
pub fn untyped_read(st: &mut ThreadState, c: &Ctx, mem: &Memory) -> Result<(), MemError> {
    check_bti(c)?;
    let simd = simd(c, &rows::SEND_A64_UNTYPED_READ)?;
    let per = simd / 8;
    let chans = channels(c);
    check_lengths(c, 2 * per, chans.len() * per)?;
    let p = payload::gather(st, c.insn, c.msg.mlen, c.msg.ex_mlen.unwrap_or(0))?;
    let rb = p.reg_bytes;
    let mut resp = vec![None; chans.len() * per * rb];
    for i in enabled(c, simd) {
        let a = aligned(&p, i, 4, &rows::MISALIGNED)?;
        for (k, ch) in chans.iter().enumerate() {
            let o = (k * per + i / 8) * rb + (i % 8) * 4;
            let at = a.wrapping_add(4 * ch);
            resp[o..o + 4].copy_from_slice(&c.rec.read(mem, i, at, Place::Flat(at), 4));
        }
    }
    payload::respond(st, c.insn, &resp)
}

/// A64 untyped surface write (send.a64-untyped-write).
pub fn untyped_write(st: &mut ThreadState, c: &Ctx, mem: &mut Memory) -> Result<(), MemError> {
    check_bti(c)?;
    let simd = simd(c, &rows::SEND_A64_UNTYPED_WRITE)?;
    let per = simd / 8;
    let chans = channels(c);
    check_lengths(c, (2 + chans.len()) * per, 0)?;
    let p = payload::gather(st, c.insn, c.msg.mlen, c.msg.ex_mlen.unwrap_or(0))?;
    let lanes: Vec<(usize, u64)> = enabled(c, simd)
        .map(|i| aligned(&p, i, 4, &rows::MISALIGNED).map(|a| (i, a)))
        .collect::<Result<_, _>>()?;
    for (i, a) in lanes {
        for (k, ch) in chans.iter().enumerate() {
            let data = p.dword_bytes((2 + k) * per + i / 8, i % 8);
            let at = a.wrapping_add(4 * ch);
            c.rec.write(mem, i, at, Place::Flat(at), &data);
        }
    }
    Ok(())
}

/// A64 untyped integer atomic (send.a64-untyped-atomic): SIMD8, 32-bit data, the operations
/// and their order, return and undefined operands as the BTI untyped atomic
/// ([`super::untyped::apply_at`]); 64-bit data is not executed (send.a64-atomic-64), an
/// execution size above 8 is refused (send.a64-atomic-simd).
pub fn untyped_atomic(st: &mut ThreadState, c: &Ctx, mem: &mut Memory) -> Result<(), MemError> {
    check_bti(c)?;
    if c.msg.header {
        return Err(MemError::new(
            &rows::SEND_A64_UNTYPED_ATOMIC,
            "a64_untyped_atomic with the header-present bit set (the row takes no header)",
        ));
    }
    if c.msg.get("data64").unwrap_or(0) != 0 {
        return Err(MemError::new(
            &rows::SEND_A64_ATOMIC_64,
            "a64_untyped_atomic with 64-bit data",
        ));
    }
    if c.insn.exec_size > 8 {
        return Err(MemError::new(
            &rows::SEND_A64_ATOMIC_SIMD,
            format!(
                "a64_untyped_atomic sent with execution size {}",
                c.insn.exec_size
            ),
        ));
    }
    let (op, n) = untyped::atomic_op(c, &rows::SEND_A64_UNTYPED_ATOMIC)?;
    let returns = c.dp.returns.unwrap_or(false);
    check_lengths(c, 2 + n, usize::from(returns))?;
    let p = payload::gather(st, c.insn, c.msg.mlen, c.msg.ex_mlen.unwrap_or(0))?;
    let rb = p.reg_bytes;
    let mut resp = vec![None; if returns { rb } else { 0 }];
    // Every lane's address is checked before any operation is applied.
    let lanes: Vec<(usize, u64)> = enabled(c, 8)
        .map(|i| aligned(&p, i, 4, &rows::MISALIGNED).map(|a| (i, a)))
        .collect::<Result<_, _>>()?;
    for (i, a) in lanes {
        let (s0, s1) = (
            untyped::operand(&p, 2, 1, n, 0, i),
            untyped::operand(&p, 2, 1, n, 1, i),
        );
        let ret = untyped::apply_at(c.rec, mem, (i, a), Place::Flat(a), op, s0, s1);
        if returns {
            resp[i * 4..i * 4 + 4].copy_from_slice(&ret);
        }
    }
    payload::respond(st, c.insn, &resp)
}
