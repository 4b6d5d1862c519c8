//! What a step wrote, as the C interface lists it ([`euref_write`]): GRF registers (one
//! chunk per register touched, the written byte range within it), ARF and flag registers (the
//! written bytes of each, with per-bit undefined and inexact masks), and the memory bytes a
//! send stored (chunks of at most 32 bytes), each with the value after the step.
//!
//! The registers come from the runner's record of where the step wrote
//! ([`euref::exec::StepInfo::written`], or [`Step::runner_grf`] for a branch that writes a
//! register, call's return address), as `euref run --trace` lists them; the memory bytes from
//! the send's report of its accesses.

use crate::ffi_types::*;
use euref::memory::{Memory, Place};
use euref::shared::report::{AccessKind, MessageReport};
use euref::state::ThreadState;
use euref::thread::Step;
use std::ffi::c_char;

/// Most bytes in one [`euref_write`].
pub const CHUNK: usize = 32;

/// `name` as the NUL-terminated 16-byte field (cut at 15 bytes).
pub fn name_field(name: &str) -> [c_char; 16] {
    let mut out: [c_char; 16] = [0; 16];
    for (o, b) in out.iter_mut().zip(name.bytes().take(15)) {
        *o = b as c_char;
    }
    out
}

/// The name in a [`euref_write`] as a string.
pub fn name_of(w: &euref_write) -> String {
    w.name
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| char::from(c as u8))
        .collect()
}

/// The writes of `step` (on `st`, after it; `message`: its send's report) into `out`.
pub fn collect(
    out: &mut Vec<euref_write>,
    st: &ThreadState,
    step: &Step,
    message: Option<&MessageReport>,
    mem: &Memory,
) {
    out.clear();
    let grf = match &step.info {
        Some(info) => info.written.grf,
        None => step
            .runner_grf
            .as_ref()
            .map_or((usize::MAX, 0), |r| (r.start, r.end)),
    };
    grf_writes(out, st, grf);
    if let Some(info) = &step.info {
        arf_writes(out, st, info.written.arf);
    }
    if let Some(m) = message {
        memory_writes(out, m, mem);
    }
}

/// One chunk per GRF register the byte range `g0..g1` touches.
fn grf_writes(out: &mut Vec<euref_write>, st: &ThreadState, (g0, g1): (usize, usize)) {
    let g1 = g1.min(st.grf_size());
    if g0 >= g1 {
        return;
    }
    let rb = st.grf_reg_bytes().max(1);
    let bytes = st.grf_bytes();
    for r in g0 / rb..g1.div_ceil(rb) {
        let (lo, hi) = (g0.max(r * rb), g1.min((r + 1) * rb));
        let mut start = lo;
        while start < hi {
            let end = hi.min(start + CHUNK);
            let mut w = euref_write {
                kind: EUREF_WRITE_GRF,
                name: name_field(&format!("r{r}")),
                offset: (start - r * rb) as u64,
                len: (end - start) as u32,
                ..euref_write::default()
            };
            w.bytes[..end - start].copy_from_slice(&bytes[start..end]);
            let inexact = st.has_inexact();
            for (k, o) in (start..end).enumerate() {
                if st.grf_byte_undefined(o) {
                    w.undefined[k] = 0xff;
                } else if inexact && st.grf_byte_inexact(o) {
                    w.inexact[k] = 0xff;
                }
            }
            out.push(w);
            start = end;
        }
    }
}

/// One chunk per ARF register (per 32 bytes of it) the flat ARF byte range `a0..a1` touches.
fn arf_writes(out: &mut Vec<euref_write>, st: &ThreadState, (a0, a1): (usize, usize)) {
    if a0 >= a1 {
        return;
    }
    for (i, r) in st.arf_layout().regs.iter().enumerate() {
        let (rs, re) = (r.base, r.base + r.bytes);
        if !(rs < a1 && a0 < re) || r.info.name == "null" {
            continue;
        }
        let Some((bytes, undef)) = st.arf_reg(i) else {
            continue;
        };
        let kind = if r.info.name == "f" {
            EUREF_WRITE_FLAG
        } else {
            EUREF_WRITE_ARF
        };
        let (lo, hi) = (a0.max(rs) - rs, a1.min(re) - rs);
        let mut start = lo;
        while start < hi {
            let end = hi.min(start + CHUNK);
            let mut w = euref_write {
                kind,
                name: name_field(&r.name),
                offset: start as u64,
                len: (end - start) as u32,
                ..euref_write::default()
            };
            for (k, o) in (start..end).enumerate() {
                let (d, sh) = (o / 4, 8 * (o % 4));
                w.bytes[k] = bytes[o];
                w.undefined[k] = (undef.get(d).copied().unwrap_or(u32::MAX) >> sh) as u8;
                if st.has_inexact() {
                    w.inexact[k] = (st.arf_inexact(&r.name, d).unwrap_or(0) >> sh) as u8;
                }
            }
            out.push(w);
            start = end;
        }
    }
}

/// The bytes the send stored (out-of-bounds stores are dropped and not listed).
fn memory_writes(out: &mut Vec<euref_write>, m: &MessageReport, mem: &Memory) {
    for a in m.accesses.iter().filter(|a| a.kind == AccessKind::Write) {
        let (name, at) = match a.place {
            Place::Flat(x) => ("mem", x),
            Place::Slm(o) => ("slm", u64::from(o)),
            Place::OutOfBounds => continue,
        };
        for (k, chunk) in a.bytes.chunks(CHUNK).enumerate() {
            let addr = at.wrapping_add((k * CHUNK) as u64);
            let place = match a.place {
                Place::Slm(_) => Place::Slm(addr as u32),
                _ => Place::Flat(addr),
            };
            let marks = mem.inexact(place, chunk.len());
            let mut w = euref_write {
                kind: EUREF_WRITE_MEMORY,
                name: name_field(name),
                offset: addr,
                len: chunk.len() as u32,
                ..euref_write::default()
            };
            for (i, b) in chunk.iter().enumerate() {
                match b {
                    Some(v) => {
                        w.bytes[i] = *v;
                        // Host memory keeps no inexact flags: the message's payload says.
                        if marks[i] || (mem.has_backing() && m.inexact_payload) {
                            w.inexact[i] = 0xff;
                        }
                    }
                    None => w.undefined[i] = 0xff,
                }
            }
            out.push(w);
        }
    }
}
