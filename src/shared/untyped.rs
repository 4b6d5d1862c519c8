//! DC1 untyped surface read / write and untyped integer atomics (spec/memory.toml
//! send.untyped-read, send.untyped-write, send.untyped-atomic): SIMD8 / SIMD16, no header,
//! binding-table surfaces and SLM (src/memory), and stateless indices with or without a header
//! (mem.stateless, [`super::stateless`]).

use super::payload::{self, Payload};
use super::report::{AccessKind, Recorder};
use super::stateless::{self, Header, A32};
use crate::isa::Insn;
use crate::memory::{MemError, Memory, Place};
use crate::message::dataport::DataPort;
use crate::message::Message;
use crate::spec::memory::{self as rows, MemRowInfo};
use crate::state::ThreadState;

/// What every untyped message needs: the lanes, SIMD width and the payload.
pub struct Ctx<'a> {
    pub insn: &'a Insn,
    pub msg: &'a Message,
    pub dp: &'a DataPort,
    /// Enabled lanes (send.channels).
    pub lanes: u32,
    /// Records the accesses for a trace ([`super::report`]): messages read and write memory
    /// through it.
    pub rec: &'a Recorder,
}

/// The message's SIMD width (8 or 16), refusing the rest and a header on a surface or SLM
/// index (send.header; a stateless index reads it: mem.stateless.header).
pub(super) fn simd(c: &Ctx, row: &'static MemRowInfo) -> Result<usize, MemError> {
    if c.dp.surface.is_some_and(|s| s.name == "bindless") {
        return Err(MemError::new(
            &rows::STATELESS_BINDLESS,
            format!("{} on binding-table index {}", c.dp.ty.name, c.dp.bti),
        ));
    }
    if c.msg.header && !stateless::is_stateless(c) {
        return Err(MemError::new(
            &rows::SEND_HEADER,
            format!("{} with the header-present bit set", c.dp.ty.name),
        ));
    }
    match c.dp.simd {
        Some(8) => Ok(8),
        Some(16) => Ok(16),
        s => Err(MemError::new(
            row,
            format!(
                "{} in SIMD mode {}: the row covers SIMD8 and SIMD16",
                c.dp.ty.name,
                s.map_or("(none)".to_string(), |v| if v == 0 {
                    "SIMD4x2".to_string()
                } else {
                    format!("SIMD{v}")
                })
            ),
        )),
    }
}

/// send.lengths: mlen (+ ex_mlen) and rlen as the message type needs them.
pub(super) fn check_lengths(c: &Ctx, payload_regs: usize, rlen: usize) -> Result<(), MemError> {
    let got = (c.msg.mlen + c.msg.ex_mlen.unwrap_or(0)) as usize;
    if got != payload_regs || c.msg.rlen as usize != rlen {
        return Err(MemError::new(
            &rows::SEND_LENGTHS,
            format!(
                "{}: the descriptor gives mlen {}{} and rlen {}; the message needs {} payload \
                 register(s) and rlen {}",
                c.dp.ty.name,
                c.msg.mlen,
                c.msg
                    .ex_mlen
                    .map_or(String::new(), |x| format!(" + ex_mlen {x}")),
                c.msg.rlen,
                payload_regs,
                rlen
            ),
        ));
    }
    Ok(())
}

/// The byte offset of lane `i` (payload registers from 0), refusing an undefined one
/// (send.undefined-address) or one that is not dword-aligned (mem.misaligned).
fn address(p: &Payload, i: usize) -> Result<u32, MemError> {
    let a = p.lane_address(i)?;
    if a % 4 != 0 {
        return Err(MemError::new(
            &rows::MISALIGNED,
            format!("lane {i}'s address {a:#x} is not a multiple of 4"),
        ));
    }
    Ok(a)
}

/// The enabled colour channels (R=0 .. A=3) of the channel mask.
fn channels(mask: u32) -> Vec<u64> {
    (0..4).filter(|c| mask >> c & 1 == 0).collect()
}

/// Untyped surface read (send.untyped-read).
pub fn read(st: &mut ThreadState, c: &Ctx, mem: &Memory) -> Result<(), MemError> {
    let simd = simd(c, &rows::SEND_UNTYPED_READ)?;
    let per = simd / 8;
    let h = usize::from(c.msg.header);
    let chans = channels(c.msg.get("channel_mask").unwrap_or(0));
    check_lengths(c, h + per, chans.len() * per)?;
    let p = payload::gather(st, c.insn, c.msg.mlen, c.msg.ex_mlen.unwrap_or(0))?;
    let (a32, p) = A32::new(c, p, mem, Header::Untyped)?;
    let rb = p.reg_bytes;
    // send.disabled-lane-read: what a disabled lane's slots hold is undefined.
    let mut resp = vec![None; chans.len() * per * rb];
    for i in a32.enabled(simd) {
        let a = address(&p, i)?;
        for (k, ch) in chans.iter().enumerate() {
            let at = u64::from(a) + 4 * ch;
            let place = a32.locate(mem, c, i, at, 4)?;
            let o = (k * per + i / 8) * rb + (i % 8) * 4;
            resp[o..o + 4].copy_from_slice(&c.rec.read(mem, i, at, place, 4));
        }
    }
    payload::respond(st, c.insn, &resp)
}

/// Untyped surface write (send.untyped-write).
pub fn write(st: &mut ThreadState, c: &Ctx, mem: &mut Memory) -> Result<(), MemError> {
    let simd = simd(c, &rows::SEND_UNTYPED_WRITE)?;
    let per = simd / 8;
    let h = usize::from(c.msg.header);
    let chans = channels(c.msg.get("channel_mask").unwrap_or(0));
    check_lengths(c, h + (1 + chans.len()) * per, 0)?;
    let p = payload::gather(st, c.insn, c.msg.mlen, c.msg.ex_mlen.unwrap_or(0))?;
    let (a32, p) = A32::new(c, p, mem, Header::Untyped)?;
    for i in a32.enabled(simd) {
        let a = address(&p, i)?;
        for (k, ch) in chans.iter().enumerate() {
            let at = u64::from(a) + 4 * ch;
            let place = a32.locate(mem, c, i, at, 4)?;
            let data = p.dword_bytes((1 + k) * per + i / 8, i % 8);
            c.rec.write(mem, i, at, place, &data);
        }
    }
    Ok(())
}

/// Operands the atomic operation `name` takes from the payload (msgval.aop.*).
pub(super) fn operands(name: &str) -> Option<usize> {
    match name {
        "inc" | "dec" | "predec" => Some(0),
        "cmpwr" => Some(2),
        "and" | "or" | "xor" | "mov" | "add" | "sub" | "revsub" | "imax" | "imin" | "umax"
        | "umin" => Some(1),
        _ => None,
    }
}

/// The new value of atomic operation `name` (the text of its msgval.aop.* row).
fn apply(name: &str, old: u32, s0: u32, s1: u32) -> u32 {
    match name {
        "and" => old & s0,
        "or" => old | s0,
        "xor" => old ^ s0,
        "mov" => s0,
        "inc" => old.wrapping_add(1),
        "dec" | "predec" => old.wrapping_sub(1),
        "add" => old.wrapping_add(s0),
        "sub" => old.wrapping_sub(s0),
        "revsub" => s0.wrapping_sub(old),
        "imax" => (old as i32).max(s0 as i32) as u32,
        "imin" => (old as i32).min(s0 as i32) as u32,
        "umax" => old.max(s0),
        "umin" => old.min(s0),
        // cmpwr: new = (old == src0) ? src1 : old.
        _ => {
            if old == s0 {
                s1
            } else {
                old
            }
        }
    }
}

fn le(v: u32) -> [Option<u8>; 4] {
    v.to_le_bytes().map(Some)
}

fn word(b: [Option<u8>; 4]) -> Option<u32> {
    Some(u32::from_le_bytes([b[0]?, b[1]?, b[2]?, b[3]?]))
}

/// The atomic operation of message `c` and its payload operand count, refusing a message
/// without one (`row`) and operation 0 (send.atomic-cmpwr8b).
pub(super) fn atomic_op(
    c: &Ctx,
    row: &'static MemRowInfo,
) -> Result<(&'static str, usize), MemError> {
    let op =
        c.dp.atomic
            .ok_or_else(|| MemError::new(row, "the descriptor names no atomic operation"))?;
    match operands(op.name) {
        Some(n) => Ok((op.name, n)),
        None => Err(MemError::new(
            &rows::SEND_ATOMIC_CMPWR8B,
            format!("atomic operation {} ({})", op.name, op.id),
        )),
    }
}

/// Apply atomic operation `op` to the dword at `place` with operands `s0`, `s1` (`None`:
/// undefined bytes); returns the response dword: the old value (predec: the new one), zero out
/// of bounds (send.atomic-return, send.atomic-undefined, mem.surface.oob-atomic).
pub(super) fn apply_at(
    rec: &Recorder,
    mem: &mut Memory,
    (lane, address): (usize, u64),
    place: Place,
    op: &str,
    s0: Option<u32>,
    s1: Option<u32>,
) -> [Option<u8>; 4] {
    if place == Place::OutOfBounds {
        // mem.surface.oob-atomic: no write, zero returned.
        rec.note(lane, address, place, &le(0), AccessKind::Read);
        return le(0);
    }
    let old_b: [Option<u8>; 4] =
        (rec.read(mem, lane, address, place, 4).try_into()).unwrap_or([None; 4]);
    match (word(old_b), s0, s1) {
        (Some(old), Some(s0), Some(s1)) => {
            let new = apply(op, old, s0, s1);
            rec.write(mem, lane, address, place, &le(new));
            if op == "predec" {
                le(new)
            } else {
                le(old)
            }
        }
        _ => {
            // send.atomic-undefined
            rec.write(mem, lane, address, place, &[None; 4]);
            old_b
        }
    }
}

/// Source operand `k` (0: src0, 1: src1) of lane `i` when the operation takes `n` operands
/// from payload register `first` on (`Some(0)` for the ones it does not take).
pub(super) fn operand(
    p: &Payload,
    first: usize,
    per: usize,
    n: usize,
    k: usize,
    i: usize,
) -> Option<u32> {
    if k < n {
        word(p.dword_bytes(first + k * per + i / 8, i % 8))
    } else {
        Some(0)
    }
}

/// Untyped integer atomic (send.untyped-atomic, send.atomic-order, send.atomic-return,
/// send.atomic-undefined, mem.surface.oob-atomic).
pub fn atomic(st: &mut ThreadState, c: &Ctx, mem: &mut Memory) -> Result<(), MemError> {
    let simd = simd(c, &rows::SEND_UNTYPED_ATOMIC)?;
    let per = simd / 8;
    let h = usize::from(c.msg.header);
    let (op, n) = atomic_op(c, &rows::SEND_UNTYPED_ATOMIC)?;
    let returns = c.dp.returns.unwrap_or(false);
    check_lengths(c, h + (1 + n) * per, if returns { per } else { 0 })?;
    let p = payload::gather(st, c.insn, c.msg.mlen, c.msg.ex_mlen.unwrap_or(0))?;
    let (a32, p) = A32::new(c, p, mem, Header::Untyped)?;
    let rb = p.reg_bytes;
    let mut resp = vec![None; if returns { per * rb } else { 0 }];
    for i in a32.enabled(simd) {
        let a = address(&p, i)?;
        let place = a32.locate(mem, c, i, u64::from(a), 4)?;
        let (s0, s1) = (
            operand(&p, per, per, n, 0, i),
            operand(&p, per, per, n, 1, i),
        );
        let ret = apply_at(c.rec, mem, (i, u64::from(a)), place, op, s0, s1);
        if returns {
            let o = (i / 8) * rb + (i % 8) * 4;
            resp[o..o + 4].copy_from_slice(&ret);
        }
    }
    payload::respond(st, c.insn, &resp)
}
