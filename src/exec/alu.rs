//! Executing one ALU instruction: resolve operands, compute channel enables, read every source
//! element (before any write), compute, then write the destination, the flags (condition
//! modifier) and the accumulator (implicit or explicit) for the enabled channels.

#![allow(clippy::needless_range_loop)] // channels index several parallel arrays

use super::acc::{implicit_writes_in, AccMap};
use super::convert::{IntConv, IntRead};
use super::flags::{int_cond, FlagWriter};
use super::mask::{self, exec_mask_in, flag_base, predicate, Enables};
use super::operand::{resolve_all, resolve_src, DstPlan, Plans, Space, SrcPlan};
use super::ops_int::{self, ExecClass, Inputs, IntOut, Vals};
use super::region::MAX_CHANNELS;
use super::runtime::Violation;
use super::{CompressedOverlap, ExecError, ExecOptions, StepInfo};
use crate::isa::{Insn, Src};
use crate::spec::runtime as rt;
use crate::spec::{feature, AccessMode, CondMod, DataType, Opcode, PredCtrl};
use crate::state::acc::{class_info, class_of};
use crate::state::{ControlDwords, ThreadState};

fn operand_err(operand: &str, msg: impl Into<String>) -> ExecError {
    ExecError::Operand {
        operand: operand.into(),
        msg: msg.into(),
    }
}

/// The element type a source supplies.
fn elem_ty(s: &Src) -> DataType {
    match s {
        Src::Reg(r) => r.ty,
        Src::Imm(i) => crate::values::element_type(i.ty),
    }
}

fn src_mods(s: &Src) -> (bool, bool) {
    match s {
        Src::Reg(r) => (r.neg, r.abs),
        Src::Imm(_) => (false, false),
    }
}

/// Read the raw bits of channels `0..n` of a source into `out`.
pub(crate) fn gather_bits(st: &mut ThreadState, plan: &SrcPlan, n: usize, out: &mut Vals) -> u32 {
    if plan.space == (Space::Arf { acc: true }) {
        // Accumulator reads also give the extended value.
        let mut mismatch = 0u32;
        for ch in 0..n.min(MAX_CHANNELS) {
            let r = st.acc_read(plan.off[ch] as usize, plan.ty);
            mismatch |= u32::from(r.mismatch) << ch;
            out.x[ch] = r.exact;
            out.bits[ch] = r.bits;
            out.undef |= u32::from(r.undefined) << ch;
        }
        return mismatch;
    }
    gather_raw(st, plan, n, &mut out.bits, &mut out.undef)
}

/// Read the raw bits of channels `0..n` of a source; returns the channels whose accumulator
/// read had another precision class than the last write.
#[inline(always)]
pub(crate) fn gather_raw(
    st: &mut ThreadState,
    plan: &SrcPlan,
    n: usize,
    bits: &mut [u64; MAX_CHANNELS],
    undef: &mut u32,
) -> u32 {
    // The commonest case where it is read (consecutive defined dwords), then the rest.
    if let (Space::Grf, 4, Some(b)) = (plan.space, plan.esize, plan.dwords_from) {
        let (b, n) = (b as usize, n.min(MAX_CHANNELS));
        if let Some(bytes) = st.grf.get(b..b + 4 * n) {
            if undef_range(&st.grf_undef, b, 4 * n) == Some(false) {
                for (d, w) in bits.iter_mut().zip(bytes.chunks_exact(4)) {
                    *d = u64::from(u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
                }
                return 0;
            }
        }
    }
    gather_raw_general(st, plan, n, bits, undef)
}

/// [`gather_raw`] of every plan.
#[inline(never)]
fn gather_raw_general(
    st: &mut ThreadState,
    plan: &SrcPlan,
    n: usize,
    bits: &mut [u64; MAX_CHANNELS],
    undef: &mut u32,
) -> u32 {
    let mut mismatch = 0u32;
    let n = n.min(MAX_CHANNELS);
    match plan.space {
        Space::Grf if plan.esize == 4 => {
            // The common case, written out: dword elements.
            let (g, gu) = (&st.grf, &st.grf_undef);
            // Consecutive defined dwords (a <N;N,1> region): one slice.
            if let Some(b) = plan.dwords_from.map(|b| b as usize) {
                if let Some(bytes) = g.get(b..b + 4 * n) {
                    if undef_range(gu, b, 4 * n) == Some(false) {
                        for (ch, w) in bytes.chunks_exact(4).enumerate() {
                            bits[ch] = u64::from(u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
                        }
                        return mismatch;
                    }
                }
            }
            gather_grf::<4>(g, gu, &plan.off, n, bits, undef);
        }
        // (The element size decided once per operand.)
        Space::Grf if plan.esize == 2 => {
            gather_grf::<2>(&st.grf, &st.grf_undef, &plan.off, n, bits, undef)
        }
        Space::Grf if plan.esize == 8 => {
            gather_grf::<8>(&st.grf, &st.grf_undef, &plan.off, n, bits, undef)
        }
        Space::Grf if plan.esize == 1 => {
            gather_grf::<1>(&st.grf, &st.grf_undef, &plan.off, n, bits, undef)
        }
        Space::Grf => {
            for ch in 0..n {
                let (b, u) = st.read_grf_unchecked(plan.off[ch] as usize, plan.esize);
                bits[ch] = b;
                *undef |= u32::from(u) << ch;
            }
        }
        Space::Imm => {
            for ch in 0..n {
                bits[ch] = plan.imm[plan.off[ch] as usize & 7];
            }
        }
        Space::Null => *undef |= super::mask::low(n),
        Space::Arf { acc: true } => {
            for ch in 0..n {
                let r = st.acc_read(plan.off[ch] as usize, plan.ty);
                mismatch |= u32::from(r.mismatch) << ch;
                bits[ch] = r.bits;
                *undef |= u32::from(r.undefined) << ch;
            }
        }
        Space::Arf { acc: false } => {
            for ch in 0..n {
                let (b, u) = st.read_arf_flat(plan.off[ch] as usize, plan.esize);
                bits[ch] = b;
                *undef |= u32::from(u != 0) << ch;
            }
        }
    }
    mismatch
}

/// Read the `N`-byte GRF elements at `off[ch]` of channels `0..n` (addresses checked and
/// aligned by the plan) as [`ThreadState::read_grf_unchecked`] does.
#[inline(always)]
fn gather_grf<const N: usize>(
    g: &[u8],
    gu: &[u64],
    off: &[u32; MAX_CHANNELS],
    n: usize,
    bits: &mut [u64; MAX_CHANNELS],
    undef: &mut u32,
) {
    let n = n.min(MAX_CHANNELS);
    // The bits first, with the byte range every element lies in; the undefined bits per
    // element only when that range has one.
    let (mut lo, mut hi) = (usize::MAX, 0usize);
    for ch in 0..n {
        let o = off[ch] as usize;
        let Some(w) = g.get(o..o + N) else { continue };
        let mut le = [0u8; 8];
        le[..N].copy_from_slice(w);
        bits[ch] = u64::from_le_bytes(le);
        lo = lo.min(o);
        hi = hi.max(o + N);
    }
    if lo >= hi || undef_range(gu, lo, hi - lo) == Some(false) {
        return;
    }
    // (One undefined bit per byte.)
    let m = u64::MAX >> (64 - N);
    for ch in 0..n {
        let o = off[ch] as usize;
        if g.get(o..o + N).is_none() {
            continue;
        }
        let u = gu.get(o / 64).map_or(true, |x| (x >> (o % 64)) & m != 0);
        *undef |= u32::from(u) << ch;
    }
}

/// The per-byte undefined bits `start..start + len` of a GRF undefined mask (bit `o % 64` of
/// word `o / 64` for byte `o`): `Some(true)` if any is set, `None` past the end.
#[inline(always)]
pub(crate) fn undef_range(gu: &[u64], start: usize, len: usize) -> Option<bool> {
    // (The common case, a range within one mask word, in one test.)
    if let Some(mask) = word_mask(start, len) {
        return Some(gu.get(start / 64)? & mask != 0);
    }
    undef_range_words(gu, start, len)
}

/// The bits of bytes `start..start + len` within their mask word (word `start / 64`), when
/// the range is not empty and lies within one word.
#[inline(always)]
fn word_mask(start: usize, len: usize) -> Option<u64> {
    let lo = start % 64;
    (len > 0 && lo + len <= 64).then(|| {
        if len == 64 {
            u64::MAX
        } else {
            ((1u64 << len) - 1) << lo
        }
    })
}

/// [`undef_range`] word by word.
#[inline(never)]
fn undef_range_words(gu: &[u64], start: usize, len: usize) -> Option<bool> {
    let end = start + len;
    let mut o = start;
    let mut any = false;
    while o < end {
        let w = o / 64;
        let lo = o % 64;
        let hi = (end - w * 64).min(64);
        let mask = if hi - lo == 64 {
            u64::MAX
        } else {
            ((1u64 << (hi - lo)) - 1) << lo
        };
        any |= gu.get(w)? & mask != 0;
        o = (w + 1) * 64;
    }
    Some(any)
}

/// Clear the undefined bits of bytes `start..start + len` (bytes within the mask).
#[inline(always)]
pub(crate) fn clear_undef_range(gu: &mut [u64], start: usize, len: usize) {
    // (The common case, a range within one mask word, in one step.)
    if let Some(mask) = word_mask(start, len) {
        if let Some(x) = gu.get_mut(start / 64) {
            *x &= !mask;
        }
        return;
    }
    clear_undef_range_words(gu, start, len)
}

/// [`clear_undef_range`] word by word.
#[inline(never)]
fn clear_undef_range_words(gu: &mut [u64], start: usize, len: usize) {
    let end = start + len;
    let mut o = start;
    while o < end {
        let w = o / 64;
        let lo = o % 64;
        let hi = (end - w * 64).min(64);
        let mask = if hi - lo == 64 {
            u64::MAX
        } else {
            ((1u64 << (hi - lo)) - 1) << lo
        };
        if let Some(x) = gu.get_mut(w) {
            *x &= !mask;
        }
        o = (w + 1) * 64;
    }
}

/// The execution mask and predicate of an instruction, from the control dwords `ctl` of the
/// state (read once per instruction; one pass of a compressed instruction restricts them).
pub(crate) fn enables_in(
    st: &ThreadState,
    ctl: &ControlDwords,
    insn: &Insn,
    n: usize,
) -> (Enables, Enables) {
    let chan_off = usize::from(insn.chan_off);
    let mut em = exec_mask_in(ctl, st.platform(), insn.ctrl.no_mask, chan_off, n);
    let at_ip = st.channels_at_ip();
    if !insn.ctrl.no_mask && at_ip != u32::MAX {
        // flow.channel.enable: only the channels on the instruction (PcIP == IP).
        em = em.and(Enables {
            on: at_ip.rotate_right((chan_off % 32) as u32),
            unknown: 0,
        });
    }
    let pm = predicate(
        st,
        insn.pred,
        insn.pred_inv,
        insn.flag,
        chan_off,
        n,
        insn.a16_pred_chan(),
    );
    (em, pm)
}

/// Write one destination element (bits, undefined) honouring Align16 half enables.
#[inline(always)]
pub(crate) fn write_dst(
    st: &mut ThreadState,
    d: &DstPlan,
    ch: usize,
    bits: u64,
    exact: i128,
    undef: bool,
) {
    let m = 1u32 << ch;
    let (lo, hi) = (d.en_lo & m != 0, d.en_hi & m != 0);
    if !lo && !hi {
        return;
    }
    let o = d.off[ch] as usize;
    match d.space {
        Space::Null | Space::Imm => {}
        Space::Grf => {
            if lo && hi {
                st.write_grf_unchecked(o, d.esize, bits, undef);
            } else {
                // A 64-bit Align16 element with one 32-bit half enabled.
                let half = d.esize / 2;
                if lo {
                    st.write_grf_unchecked(o, half, bits & 0xffff_ffff, undef);
                }
                if hi {
                    st.write_grf_unchecked(o + half, half, bits >> 32, undef);
                }
            }
        }
        Space::Arf { acc: true } => st.acc_write(o, d.ty, exact, bits, undef),
        Space::Arf { acc: false } => {
            st.write_arf_flat(o, d.esize, bits, if undef { u64::MAX } else { 0 })
        }
    }
}

/// Write the results `bits` of the channels in `write` (undefined where `und` has a bit) to the
/// destination: the same effect as [`write_dst`] for each of them in channel order (with no
/// exact value: an accumulator destination keeps the bits), with the GRF cases written out
/// (consecutive defined dwords as one slice).
#[inline(always)]
pub(crate) fn write_results(
    st: &mut ThreadState,
    d: &DstPlan,
    n: usize,
    write: u32,
    und: u32,
    bits: &[u64; MAX_CHANNELS],
) {
    // The commonest case where it is written (every channel, consecutive defined dwords),
    // then the rest.
    if let (Space::Grf, 4, Some(b)) = (d.space, d.esize, d.dwords_from) {
        let (b, n) = (b as usize, n.min(MAX_CHANNELS));
        let all = super::mask::low(n);
        if d.en_lo == d.en_hi && write & d.en_lo == all && und & all == 0 {
            if let Some(bytes) = st.grf.get_mut(b..b + 4 * n) {
                for (w, x) in bytes.chunks_exact_mut(4).zip(bits) {
                    w.copy_from_slice(&(*x as u32).to_le_bytes());
                }
                st.mark_grf(b, 4 * n);
                clear_undef_range(&mut st.grf_undef, b, 4 * n);
                return;
            }
        }
    }
    write_results_general(st, d, n, write, und, bits)
}

/// [`write_results`] of every plan.
#[inline(never)]
fn write_results_general(
    st: &mut ThreadState,
    d: &DstPlan,
    n: usize,
    write: u32,
    und: u32,
    bits: &[u64; MAX_CHANNELS],
) {
    let n = n.min(MAX_CHANNELS);
    if d.space != Space::Grf || d.en_lo != d.en_hi {
        for ch in (0..n).filter(|ch| write >> ch & 1 == 1) {
            write_dst(st, d, ch, bits[ch], 0, und >> ch & 1 == 1);
        }
        return;
    }
    // Both halves of every element enabled or not: `en_lo` gates whole elements.
    let write = write & d.en_lo;
    let all = super::mask::low(n);
    let contiguous = if d.esize == 4 && write == all && und & all == 0 {
        d.dwords_from
            .map(|b| b as usize)
            .filter(|b| b + 4 * n <= st.grf.len())
    } else {
        None
    };
    if let Some(b) = contiguous {
        // Every channel, consecutive defined dwords: one slice.
        st.mark_grf(b, 4 * n);
        for (ch, w) in st.grf[b..b + 4 * n].chunks_exact_mut(4).enumerate() {
            w.copy_from_slice(&(bits[ch] as u32).to_le_bytes());
        }
        clear_undef_range(&mut st.grf_undef, b, 4 * n);
    } else {
        // (The element size decided once.)
        match d.esize {
            4 => put_grf::<4>(st, &d.off, n, write, und, bits),
            2 => put_grf::<2>(st, &d.off, n, write, und, bits),
            8 => put_grf::<8>(st, &d.off, n, write, und, bits),
            1 => put_grf::<1>(st, &d.off, n, write, und, bits),
            _ => {
                for ch in (0..n).filter(|ch| write >> ch & 1 == 1) {
                    let u = und >> ch & 1 == 1;
                    st.write_grf_unchecked(d.off[ch] as usize, d.esize, bits[ch], u);
                }
            }
        }
    }
}

/// Write the low `N` bytes of `bits[ch]` at GRF byte `off[ch]` (checked and aligned by the
/// plan) for the channels in `write`, as [`ThreadState::write_grf_unchecked`] does.
#[inline(always)]
fn put_grf<const N: usize>(
    st: &mut ThreadState,
    off: &[u32; MAX_CHANNELS],
    n: usize,
    write: u32,
    und: u32,
    bits: &[u64; MAX_CHANNELS],
) {
    let n = n.min(MAX_CHANNELS);
    // (One undefined bit per byte.)
    let m = u64::MAX >> (64 - N);
    // The written range: from the lowest to the end of the highest element written.
    let (mut lo, mut hi) = (usize::MAX, 0usize);
    let (g, gu) = (&mut st.grf, &mut st.grf_undef);
    for ch in (0..n).filter(|ch| write >> ch & 1 == 1) {
        let o = off[ch] as usize;
        lo = lo.min(o);
        hi = hi.max(o + N);
        if let Some(w) = g.get_mut(o..o + N) {
            w.copy_from_slice(&bits[ch].to_le_bytes()[..N]);
        }
        if let Some(x) = gu.get_mut(o / 64) {
            let bm = m << (o % 64);
            *x = if und >> ch & 1 == 1 {
                *x | bm
            } else {
                *x & !bm
            };
        }
    }
    if lo < hi {
        st.mark_grf(lo, hi - lo);
    }
}

/// How an ALU instruction executes, decided from the instruction and the platform alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Route {
    /// Bits copied (raw mov/sel of floats; any raw DF move on feature.df-element-size-4
    /// platforms, `quirk`).
    Raw { quirk: bool },
    /// The float pipeline (a float source, or math).
    Float,
    /// The integer pipeline.
    Integer,
    /// DF arithmetic on feature.df-element-size-4 platforms: DF lanes as pairs of 32-bit
    /// channels ([`super::ops_df_pairs`]).
    DfPairs,
}

/// The instruction's operands as the pipelines use them.
pub(crate) struct Operands<'a> {
    pub n: usize,
    pub dst: &'a crate::isa::Dst,
    pub srcs: [&'a Src; 3],
    pub tys: [DataType; 3],
    pub nsrc: usize,
    pub route: Route,
}

/// What [`operands`] decides from the instruction and the platform, kept by
/// [`super::Prepared`] so that a prepared instruction skips the decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shape {
    n: usize,
    tys: [DataType; 3],
    nsrc: usize,
    route: Route,
}

impl Shape {
    /// The channels (ExecSize).
    pub fn channels(&self) -> usize {
        self.n
    }

    /// As [`Operands::esize_override`].
    pub fn esize_override(&self) -> Option<usize> {
        esize_override(self.route)
    }
}

/// Region element size override for the operand plans of `route` (DF regioned in 32-bit
/// units).
fn esize_override(route: Route) -> Option<usize> {
    matches!(route, Route::Raw { quirk: true } | Route::DfPairs).then_some(4)
}

impl<'a> Operands<'a> {
    /// The decision, to keep.
    pub fn shape(&self) -> Shape {
        Shape {
            n: self.n,
            tys: self.tys,
            nsrc: self.nsrc,
            route: self.route,
        }
    }

    /// The operands of `insn` with the decision `shape` that [`operands`] took for it (`None`
    /// if `insn` has no destination, which such a decision excludes).
    pub fn from_shape(insn: &'a Insn, shape: &Shape) -> Option<Operands<'a>> {
        Some(Operands {
            n: shape.n,
            dst: insn.dst.as_ref()?,
            srcs: [0, 1, 2].map(|k| insn.src[k].as_ref().unwrap_or(&NO_SRC)),
            tys: shape.tys,
            nsrc: shape.nsrc,
            route: shape.route,
        })
    }
}

impl Operands<'_> {
    /// Region element size override for the operand plans (DF regioned in 32-bit units).
    pub fn esize_override(&self) -> Option<usize> {
        esize_override(self.route)
    }
}

/// Check an instruction's shape and decide its route.
pub(crate) fn operands(p: crate::spec::Platform, insn: &Insn) -> Result<Operands<'_>, ExecError> {
    let op = insn.op;
    let n = usize::from(insn.exec_size);
    if !matches!(n, 1 | 2 | 4 | 8 | 16 | 32) {
        return Err(operand_err(
            "exec_size",
            format!("ExecSize {n} is not 1, 2, 4, 8, 16 or 32"),
        ));
    }
    if insn.chan_off % 4 != 0 || insn.chan_off > 28 {
        return Err(operand_err(
            "chan_off",
            format!("channel offset {} is not 0-28 in steps of 4", insn.chan_off),
        ));
    }
    let Some(dst) = insn.dst.as_ref() else {
        return Err(operand_err(
            "dst",
            format!("{} needs a destination", op.name()),
        ));
    };
    let nsrc = if op == Opcode::Math {
        // math: src1 is absent for one-source functions, or the null register (as Mesa and the
        // encoder write it): then it is no operand and its type does not enter the execution
        // type (a `null:f` src1 must not turn an HF function into an F one).
        let null_src1 = matches!(&insn.src[1], Some(Src::Reg(r)) if r.addr.is_null());
        if null_src1 {
            1
        } else {
            insn.src
                .iter()
                .take_while(|s| s.is_some())
                .count()
                .clamp(1, 2)
        }
    } else {
        usize::from(op.info().srcs).min(3)
    };
    let mut tys = [DataType::UB; 3];
    for (k, t) in tys.iter_mut().enumerate().take(nsrc) {
        let s = insn.src[k].as_ref().ok_or_else(|| {
            operand_err(
                &format!("src{k}"),
                format!("{} needs {nsrc} sources", op.name()),
            )
        })?;
        *t = elem_ty(s);
    }
    let srcs: [&Src; 3] = [0, 1, 2].map(|k| insn.src[k].as_ref().unwrap_or(&NO_SRC));
    let ts = &tys[..nsrc];
    let any_float = dst.ty.is_float() || ts.iter().any(|t| t.is_float());
    let any_df = dst.ty == DataType::DF || ts.contains(&DataType::DF);
    let quirk = any_df && feature::DF_ELEMENT_SIZE_4.on(p);
    let no_mods = srcs[..nsrc].iter().all(|s| src_mods(s) == (false, false));
    let raw_mov = matches!(op, Opcode::Mov | Opcode::Dim)
        && ts.first() == Some(&dst.ty)
        && no_mods
        && !insn.sat
        && insn.cmod == CondMod::None;
    let raw_sel = op == Opcode::Sel
        && ts.iter().all(|t| *t == dst.ty)
        && no_mods
        && !insn.sat
        && insn.cmod == CondMod::None;
    let route = if (any_float || quirk) && (raw_mov || raw_sel) {
        Route::Raw { quirk }
    } else if quirk {
        Route::DfPairs
    } else if ts.iter().any(|t| t.is_float()) || matches!(op, Opcode::Math | Opcode::F16to32) {
        Route::Float
    } else if ops_int::supports(op) {
        Route::Integer
    } else {
        return Err(ExecError::Unsupported {
            what: format!("{} ({})", op.name(), unsupported_reason(op)),
        });
    };
    Ok(Operands {
        n,
        dst,
        srcs,
        tys,
        nsrc,
        route,
    })
}

/// Execute an ALU instruction, with operand plans resolved beforehand (`pre`, see
/// [`super::Prepared`]) or now.
pub(crate) fn execute(
    st: &mut ThreadState,
    insn: &Insn,
    info: &mut StepInfo,
    opts: &ExecOptions,
    pre: Option<&Plans>,
    shape: Option<&Shape>,
) -> Result<(), ExecError> {
    let o = match shape.and_then(|sh| Operands::from_shape(insn, sh)) {
        Some(o) => o,
        None => operands(st.platform(), insn)?,
    };
    // Nothing below writes cr0 or sr0 before the last read of them: one read serves all.
    let ctl = st.control_dwords();
    let mut fresh;
    let plans = match pre {
        Some(p) => p,
        None => {
            fresh = Plans::blank();
            resolve_all(
                st,
                insn,
                &o.srcs[..o.nsrc],
                o.n,
                o.esize_override(),
                &mut fresh,
            )?;
            &fresh
        }
    };
    let (n, dst, srcs, tys) = (o.n, o.dst, &o.srcs[..o.nsrc], &o.tys[..o.nsrc]);
    let route = |st: &mut ThreadState, ctl: &ControlDwords, info: &mut StepInfo| match o.route {
        Route::Raw { quirk } => raw(st, ctl, insn, n, plans, quirk, info),
        Route::Float => {
            // A conversion whose row says the upper dword of each qword is undefined: the
            // channels that may execute, decided before the instruction writes anything.
            let upper = upper_dword_undefined(st.platform(), dst.ty, tys)
                .then(|| enables_in(st, ctl, insn, n).0.maybe());
            super::ops_float::execute(st, ctl, insn, n, dst, tys, plans, info, opts)?;
            if let Some(chans) = upper {
                mark_upper_dwords(st, &plans.dst, n, chans);
            }
            Ok(())
        }
        Route::Integer => integer(st, ctl, insn, n, dst, srcs, tys, plans, info, opts),
        Route::DfPairs => super::ops_df_pairs::execute(st, ctl, insn, n, tys, plans, info),
    };
    // The inexact mark (row math.inexact), kept around each pass when it may matter.
    let track = insn.op == Opcode::Math;
    let pass = |st: &mut ThreadState, ctl: &ControlDwords, info: &mut StepInfo| {
        let before =
            (track || st.has_inexact()).then(|| super::inexact::inputs(st, ctl, insn, n, plans));
        let res = route(st, ctl, info);
        if let Some(before) = before {
            super::inexact::mark(st, insn, n, plans, before, info.inexact);
        }
        res
    };
    if !(feature::COMPRESSED_HALVES.on(st.platform())
        && compressed(n, plans)
        && second_half_reads_first(plans, n))
    {
        return pass(st, &ctl, info);
    }
    // feature.compressed-overlap: the second half reads a byte the first half writes, and the
    // sources give two results.
    if !feature::COMPRESSED_OVERLAP.on(st.platform()) {
        return halves(st, &ctl, n, info, &pass);
    }
    match opts.compressed_overlap {
        CompressedOverlap::SourcesFirst => pass(st, &ctl, info),
        CompressedOverlap::Halves => halves(st, &ctl, n, info, &pass),
        CompressedOverlap::Undefined => {
            let mut first = st.clone();
            let mut first_info = StepInfo::default();
            pass(&mut first, &ctl, &mut first_info)?;
            halves(st, &ctl, n, info, &pass)?;
            if st.undefine_differences(&first) {
                info.conflict = Some(feature::COMPRESSED_OVERLAP.id);
            }
            merge_info(info, first_info);
            Ok(())
        }
    }
}

/// feature.compressed-halves: the two native instructions one after the other, so that the
/// second half reads what the first half wrote.
fn halves(
    st: &mut ThreadState,
    ctl: &ControlDwords,
    n: usize,
    info: &mut StepInfo,
    pass: &dyn Fn(&mut ThreadState, &ControlDwords, &mut StepInfo) -> Result<(), ExecError>,
) -> Result<(), ExecError> {
    let half = mask::low(n / 2);
    pass(
        st,
        &ControlDwords {
            channels: half,
            ..*ctl
        },
        info,
    )?;
    let mut second = StepInfo::default();
    let res = pass(
        st,
        &ControlDwords {
            channels: !half,
            ..*ctl
        },
        &mut second,
    );
    merge_info(info, second);
    res
}

/// Add what another execution of the same instruction reported to `info`.
fn merge_info(info: &mut StepInfo, other: StepInfo) {
    info.enabled |= other.enabled;
    info.inexact |= other.inexact;
    for v in other.violations {
        match info.violations.iter_mut().find(|w| w.rule == v.rule) {
            Some(w) => w.channels |= v.channels,
            None => info.violations.push(v),
        }
    }
}

/// Whether an instruction with sources `tys` converts its float execution type to a destination type by a conversion
/// row with `upper_dword_undefined` (spec/conversions.toml: conv.float-narrow.df-f.gen7, DF ->
/// F on Haswell), in either access mode.
fn upper_dword_undefined(p: crate::spec::Platform, dst: DataType, tys: &[DataType]) -> bool {
    if tys.is_empty() {
        return false;
    }
    let exec = tys
        .iter()
        .copied()
        .filter(|t| t.is_float())
        .max_by_key(|t| t.bytes());
    exec.is_some_and(|e| {
        e != dst
            && crate::spec::conversions::rule(e, dst, p).is_some_and(|r| r.upper_dword_undefined)
    })
}

/// Mark undefined, for each channel of `chans` (`0..n`) whose destination element the
/// instruction writes (in Align16: its channel enable set), the upper dword of the qword that
/// holds that element. In Align1 (HorzStride 2) the element is the low dword and the four bytes
/// after it become undefined; in Align16 (a packed F destination, channel `n` at dword `n`)
/// an even channel's element is the low dword of its qword and makes the next dword
/// undefined, an odd channel's element is itself the upper dword and is undefined.
fn mark_upper_dwords(st: &mut ThreadState, d: &DstPlan, n: usize, chans: u32) {
    if d.space != Space::Grf || d.esize != 4 {
        return;
    }
    let written = chans & d.en_lo;
    for ch in (0..n.min(MAX_CHANNELS)).filter(|ch| written >> ch & 1 == 1) {
        let upper = (d.off[ch] as usize & !7) + 4;
        if upper + 4 <= st.grf_size() {
            st.set_grf_undefined(upper, 4);
        }
    }
}

/// Whether an instruction of `n` channels is compressed: ExecSize times its widest element as
/// addressed exceeds a register (32 bytes), as the validator's `compressed` property
/// (spec/properties.toml) says, with a DF element on feature.df-element-size-4 platforms
/// counted as the 4 bytes each of its channels addresses.
fn compressed(n: usize, plans: &Plans) -> bool {
    let widest = (plans.srcs.iter().flatten()).fold(plans.dst.esize, |w, s| w.max(s.esize));
    n * widest > 32
}

/// Whether some GRF source element of the second half of the channels (`n/2..n`) lies on a
/// GRF byte the first half (`0..n/2`) writes: the only case in which executing the halves one
/// after the other differs from executing all channels at once.
fn second_half_reads_first(plans: &Plans, n: usize) -> bool {
    let d = &plans.dst;
    if d.space != Space::Grf || n < 2 {
        return false;
    }
    let h = n / 2;
    let (mut lo, mut hi) = (u32::MAX, 0u32);
    for &o in &d.off[..h] {
        lo = lo.min(o);
        hi = hi.max(o + d.esize as u32);
    }
    let written = |o: u32, len: u32| {
        (0..h).any(|ch| {
            let w = d.off[ch];
            o < w + d.esize as u32 && w < o + len
        })
    };
    plans.srcs.iter().flatten().any(|s| {
        s.space == Space::Grf
            && s.off[h..n].iter().any(|&o| {
                let len = s.esize as u32;
                o < hi && lo < o + len && written(o, len)
            })
    })
}

/// A placeholder for absent sources (never read: only `..nsrc` is used).
const NO_SRC: Src = Src::Imm(crate::isa::Imm::new(DataType::UD, 0));

fn unsupported_reason(op: Opcode) -> &'static str {
    match op {
        Opcode::Movi => "indexed move: its semantics are not stated by the seeds or a public source euref has",
        Opcode::Smov => "scattered move: the semantics of its src1 are not publicly documented (opcode.smov note)",
        _ => "not an integer operation",
    }
}

/// Raw moves and selects: bits copied unchanged (fp.ieee.raw-mov: "A raw mov does not alter
/// data at all"), including DF on feature.df-element-size-4 platforms, where the region is in
/// 32-bit units and each 32-bit channel moves one half of a DF.
fn raw(
    st: &mut ThreadState,
    ctl: &ControlDwords,
    insn: &Insn,
    n: usize,
    plans: &Plans,
    quirk: bool,
    info: &mut StepInfo,
) -> Result<(), ExecError> {
    let p = st.platform();
    let dplan = &plans.dst;
    if quirk
        && plans
            .srcs
            .iter()
            .flatten()
            .any(|pl| pl.space == Space::Imm && pl.esize == 8)
    {
        return Err(ExecError::Unsupported {
            what: "a 64-bit immediate regioned in 32-bit channels".into(),
        });
    }
    let (em, pm) = enables_in(st, ctl, insn, n);
    let sel = insn.op == Opcode::Sel;
    let en = if sel { em } else { em.and(pm) };
    // The bits only (no exact values: nothing is computed): src0's, with src1's where a
    // predicated sel picks it.
    let pick = sel && insn.pred != PredCtrl::None;
    let mut bits = [0u64; MAX_CHANNELS];
    let mut und = 0u32;
    if let Some(pl) = &plans.srcs[0] {
        gather_raw(st, pl, n, &mut bits, &mut und);
    }
    if let Some(pl) = &plans.srcs[1] {
        // (Read even when not picked: a read may have effects, as tm0's.)
        let (mut b1, mut u1) = ([0u64; MAX_CHANNELS], 0u32);
        gather_raw(st, pl, n, &mut b1, &mut u1);
        if pick {
            for ch in 0..n.min(MAX_CHANNELS) {
                if pm.on >> ch & 1 == 0 {
                    bits[ch] = b1[ch];
                }
            }
            und = (und & pm.on) | (u1 & !pm.on) | pm.unknown;
        }
    }
    let und = und | en.unknown;
    let live = en.maybe();
    // The destination, then the accumulator (distinct storage: the accumulator is not the
    // destination).
    write_results(st, dplan, n, live, und, &bits);
    let wr = implicit_writes_in(ctl, insn.ctrl.acc_wr);
    if wr != Some(false) && !matches!(dplan.space, Space::Arf { acc: true }) && !quirk {
        let am = AccMap::new(st, p, dplan.ty);
        am.write_each(st, dplan.ty, usize::from(insn.chan_off), n, live, |ch| {
            (0, bits[ch], und >> ch & 1 == 1 || wr.is_none())
        });
    }
    info.enabled = en.on;
    Ok(())
}

/// The integer pipeline.
#[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
fn integer(
    st: &mut ThreadState,
    ctl: &ControlDwords,
    insn: &Insn,
    n: usize,
    dst: &crate::isa::Dst,
    srcs: &[&Src],
    tys: &[DataType],
    plans: &Plans,
    info: &mut StepInfo,
    opts: &ExecOptions,
) -> Result<(), ExecError> {
    let p = st.platform();
    let op = insn.op;
    let chan_off = usize::from(insn.chan_off);
    let dplan = &plans.dst;
    let Some(class) = ExecClass::of(tys) else {
        return Err(operand_err("src0", "no source operand"));
    };
    let (em, pm) = enables_in(st, ctl, insn, n);
    let sel = op == Opcode::Sel;
    let mut en = if sel { em } else { em.and(pm) };
    // Align16 destination channel enables gate flags and accumulator updates too.
    if insn.access == AccessMode::Align16 {
        let wm = dplan.en_lo | dplan.en_hi;
        en.on &= wm;
        en.unknown &= wm;
    }
    if insn.cmod != CondMod::None && flag_base(insn.flag) + chan_off + n > 64 {
        return Err(operand_err(
            "flag",
            "the condition modifier's flag bits run past f1.1",
        ));
    }

    // Read every source element.
    let logic = ops_int::is_logic(op);
    // (Values for the sources there are only: each is 97 words to clear.)
    let (mut one, mut two, mut three);
    let vals: &mut [Vals] = match srcs.len() {
        0 | 1 => {
            one = [Vals::empty(class.ty)];
            &mut one
        }
        2 => {
            two = [Vals::empty(class.ty); 2];
            &mut two
        }
        _ => {
            three = [Vals::empty(class.ty); 3];
            &mut three
        }
    };
    let mut violations: Vec<Violation> = Vec::new();
    for (k, pl) in plans.srcs.iter().enumerate().take(srcs.len()) {
        let Some(pl) = pl else { continue };
        let v = &mut vals[k];
        v.ty = pl.ty;
        let acc_src = matches!(pl.space, Space::Arf { acc: true });
        let mismatch = gather_bits(st, pl, n, v);
        if mismatch != 0 {
            violations.push(Violation::new(&rt::ACC_READ_TYPE_MISMATCH, mismatch));
        }
        if !acc_src {
            let read = IntRead::of(pl.ty);
            for ch in 0..n {
                v.x[ch] = read.value(v.bits[ch]);
            }
        }
        if logic && pl.abs {
            // (abs) is not a logic-instruction modifier: the result is not defined.
            v.undef |= super::mask::low(n);
        }
        match (logic, pl.abs, pl.neg) {
            (_, false, false) | (true, true, false) => {}
            (true, _, true) => v.x[..n].iter_mut().for_each(|x| *x = !*x),
            (false, abs, neg) => v.x[..n].iter_mut().for_each(|x| {
                let y = if abs { x.abs() } else { *x };
                *x = if neg { -y } else { y };
            }),
        }
        v.neg = pl.neg && !logic;
        v.abs = pl.abs && !logic;
    }
    // The implicit accumulator source (mac, mach and sada2: spec/opcodes.toml `implicit_acc`),
    // read with the execution type.
    let reads_acc = op.info().implicit_acc == crate::spec::ImplicitAcc::Read;
    let mut accv = None;
    if reads_acc {
        let accv = accv.insert(Vals::empty(class.ty));
        let mut mism = 0u32;
        let acc_map = AccMap::new(st, p, class.ty);
        for ch in 0..n {
            match acc_map.addr(st, chan_off, ch) {
                Some(a) => {
                    let r = st.acc_read(a, class.ty);
                    accv.x[ch] = r.exact;
                    accv.bits[ch] = r.bits;
                    if r.undefined {
                        accv.undef |= 1 << ch;
                    }
                    if r.mismatch {
                        mism |= 1 << ch;
                    }
                }
                None => accv.undef |= 1 << ch,
            }
        }
        if mism != 0 {
            violations.push(Violation::new(&rt::ACC_READ_TYPE_MISMATCH, mism));
        }
    }

    let mut out = IntOut::new();
    ops_int::compute_into(
        &Inputs {
            op,
            p,
            n,
            s: &vals[..srcs.len()],
            acc: accv.as_ref(),
            class,
            cmod: insn.cmod,
            pmask: pm,
            predicated: insn.pred != PredCtrl::None,
            dst_ty: dst.ty,
        },
        &mut out,
    )?;

    // The execution precision: word results have 33 bits (wrapping; flags undefined, a
    // saturated result unpredictable), DWord results 64 bits (beyond: unpredictable), per the
    // accumulator precision rows of the execution type.
    let prec = || {
        class_of(p, class.ty)
            .and_then(class_info)
            .map(|r| r.bits)
            .filter(|b| *b > 0 && *b < 128)
    };
    // The accumulator gets `out.acc` where the operation gives one, else the result: both
    // are limited to the execution precision alike.
    let (res, mut acc_res) = (&mut out.res, out.acc.as_mut());
    let mut undef = out.undef;
    let mut flag_undef = 0u32;
    let mut sat_undef = 0u32;
    if out.arith {
        if let Some(bits) = prec() {
            // A 64-bit channel holds any 64-bit pattern (signed or unsigned reading).
            let (lo, hi) = if bits >= 64 {
                (i128::from(i64::MIN), i128::from(u64::MAX))
            } else {
                (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
            };
            let mut word_over = 0u32;
            let mut dword_over = 0u32;
            let mut limit = |v: &mut i128, ch: usize| {
                if *v < lo || *v > hi {
                    if bits < 64 {
                        word_over |= 1 << ch;
                        *v = crate::state::acc::wrap_signed(*v, bits);
                    } else {
                        dword_over |= 1 << ch;
                    }
                }
            };
            for ch in 0..n {
                limit(&mut res[ch], ch);
                if let Some(a) = acc_res.as_deref_mut() {
                    limit(&mut a[ch], ch);
                }
            }
            let word_over = word_over & en.maybe();
            let dword_over = dword_over & en.maybe();
            if word_over != 0 {
                flag_undef |= word_over;
                sat_undef |= word_over;
                violations.push(Violation::new(&rt::ACC_WORD_OVERFLOW, word_over));
            }
            if dword_over != 0 {
                undef |= dword_over;
                violations.push(Violation::new(&rt::ACC_DWORD_OVERFLOW, dword_over));
            }
        }
    }
    // visa SHL: "If saturation is enabled, the shifted result must be within 33 bits or the
    // result is undefined."
    if op == Opcode::Shl && insn.sat {
        for ch in 0..n {
            if !(-(1i128 << 32)..(1i128 << 33)).contains(&res[ch]) {
                undef |= 1 << ch;
            }
        }
    }
    if !violations.is_empty() {
        violations.retain(|v| v.channels & en.maybe() != 0);
    }
    if opts.strict {
        if let Some(v) = violations.first() {
            return Err(v.refusal());
        }
    }

    // Write back.
    let fdst = crate::float::FloatType::from_data_type(dst.ty);
    let conv = if out.cond.is_some() || fdst.is_some() {
        None
    } else {
        Some(
            IntConv::new(p, class.ty, dst.ty).ok_or_else(|| ExecError::Unsupported {
                what: format!(
                    "{} converting an integer result to {}",
                    op.name(),
                    dst.ty.name()
                ),
            })?,
        )
    };
    // An integer result for a float destination: converted by the float layer.
    let (fenv, fenv_undef) = if fdst.is_some() {
        super::ops_float::float_env_in(ctl, p)
    } else {
        (crate::float::FloatEnv::new(p), false)
    };
    let acc_dst = matches!(dplan.space, Space::Arf { acc: true });
    let wr = implicit_writes_in(ctl, insn.ctrl.acc_wr);
    let write_acc = (out.acc_forced || wr != Some(false)) && !acc_dst;
    let acc_ty = if out.acc_forced {
        DataType::UD
    } else {
        class.ty
    };
    let acc_map = write_acc.then(|| AccMap::new(st, p, acc_ty));
    let fbase = flag_base(insn.flag) + chan_off;
    let flags_on = insn.cmod != CondMod::None && !sel;
    let mut fw = if flags_on {
        FlagWriter::new(st)
    } else {
        FlagWriter::empty()
    };
    let all_ones = crate::state::mask_bits(dst.ty.bits());
    let acc_res: Option<&[i128; MAX_CHANNELS]> = acc_res.map(|r| &*r);
    let res: &[i128; MAX_CHANNELS] = res;
    // The destination bits of a channel, its condition flag (meaningful with flags only), the
    // exact value an accumulator destination keeps, and whether the float conversion makes the
    // result undefined.
    // (Made where it is used: a closure capturing this much costs its construction.)
    macro_rules! final_of {
        () => {
            |ch: usize| -> Result<(u64, bool, i128, bool), ExecError> {
                Ok(match (&out.cond, &conv, fdst) {
                    (Some(c), _, _) => {
                        let (b, f, e) = cond_final(c[ch], all_ones);
                        (b, f, e, false)
                    }
                    (None, Some(cv), _) => {
                        let (b, f, e) = conv_final(cv, res[ch], insn.sat, flags_on, insn.cmod);
                        (b, f, e, false)
                    }
                    (None, None, Some(ft)) => {
                        let (repr, b, fits) = int_repr(p, class.ty, res[ch]);
                        let cv = crate::float::convert(&fenv, repr, dst.ty, b, insn.sat).map_err(
                            |e| ExecError::Unsupported {
                                what: format!("{}: {e}", op.name()),
                            },
                        )?;
                        let f = super::ops_float::flag_of(
                            insn.cmod,
                            dst.ty,
                            Some(ft),
                            cv.bits,
                            cv.flags,
                        );
                        (cv.bits, f, 0, !fits || fenv_undef)
                    }
                    (None, None, None) => (0, false, 0, false),
                })
            }
        };
    }
    let live = en.maybe();
    let und_mask = undef | en.unknown;
    // (addc's carry and subb's borrow: defined with AccWrEn, the form the sources show; without
    // it, or with the accumulator disabled in cr0, they are silent: undefined, opcode.addc.)
    let acc_und = |ch: usize| {
        und_mask >> ch & 1 == 1
            || if out.acc_forced {
                wr != Some(true)
            } else {
                wr.is_none()
            }
    };
    let acc_val = |ch: usize| acc_res.map_or(res[ch], |r| r[ch]);
    // The final values first (nothing is written if one fails: the loop below then writes what
    // it writes before reporting the error), then the destination, the flags and the
    // accumulator, each for every channel at once (distinct storage; the flags are read before
    // the destination is written, as the loop does).
    let mut fin = [0u64; MAX_CHANNELS];
    let (mut flag_val, mut conv_und) = (0u32, 0u32);
    // (An accumulator destination, which keeps exact values, is written by the loop below.)
    let mut ok = !acc_dst;
    let chans = (0..n.min(MAX_CHANNELS)).filter(|ch| live >> ch & 1 == 1);
    // (The integer cases with the case decided once.)
    match (&out.cond, &conv) {
        _ if !ok => {}
        (Some(c), _) => {
            for ch in chans {
                let (b, f, _) = cond_final(c[ch], all_ones);
                fin[ch] = b;
                flag_val |= u32::from(f) << ch;
            }
        }
        (None, Some(cv)) if !flags_on => {
            // (No flag: the bits only.)
            for ch in chans {
                fin[ch] = cv.bits(res[ch], insn.sat);
            }
        }
        (None, Some(cv)) => {
            for ch in chans {
                let (b, f, _) = conv_final(cv, res[ch], insn.sat, flags_on, insn.cmod);
                fin[ch] = b;
                flag_val |= u32::from(f) << ch;
            }
        }
        (None, None) => {
            let final_of = final_of!();
            for ch in chans {
                let Ok((b, f, _, cu)) = final_of(ch) else {
                    ok = false;
                    break;
                };
                fin[ch] = b;
                flag_val |= u32::from(f) << ch;
                conv_und |= u32::from(cu) << ch;
            }
        }
    }
    if ok {
        let dst_und = und_mask | conv_und | if insn.sat { sat_undef } else { 0 };
        write_results(st, dplan, n, live, dst_und, &fin);
        if flags_on {
            let flag_und = und_mask | conv_und | flag_undef;
            fw.set_channels(fbase, live & super::mask::low(n), flag_val, flag_und);
            fw.commit(st);
        }
        if let Some(am) = acc_map {
            am.write_each(st, acc_ty, chan_off, n, live, |ch| {
                let v = acc_val(ch);
                (v, v as u64, acc_und(ch))
            });
        }
        info.enabled = en.on;
        if !violations.is_empty() {
            info.violations.extend(violations);
        }
        return Ok(());
    }
    let final_of = final_of!();
    for ch in (0..n).filter(|ch| live >> ch & 1 == 1) {
        let (bits, flag, exact, conv_und) = final_of(ch)?;
        let m = 1u32 << ch;
        let und = und_mask & m != 0;
        let dst_und = und || conv_und || (insn.sat && sat_undef & m != 0);
        write_dst(st, dplan, ch, bits, exact, dst_und);
        if flags_on {
            fw.set(fbase + ch, flag, und || conv_und || flag_undef & m != 0);
        }
        if let Some(am) = acc_map {
            if let Some(a) = am.addr(st, chan_off, ch) {
                let v = acc_val(ch);
                st.acc_write(a, acc_ty, v, v as u64, acc_und(ch));
            }
        }
    }
    fw.commit(st);
    info.enabled = en.on;
    if !violations.is_empty() {
        info.violations.extend(violations);
    }
    Ok(())
}

/// A comparison's destination bits (all ones or zero), flag and exact value.
#[inline(always)]
fn cond_final(c: bool, all_ones: u64) -> (u64, bool, i128) {
    (if c { all_ones } else { 0 }, c, -i128::from(c))
}

/// An integer result `r` converted to the destination (`cv`, saturated with `sat`): its bits,
/// its condition flag (`cmod` of the final value, false without `flags`) and the exact value
/// an accumulator destination keeps.
#[inline(always)]
fn conv_final(cv: &IntConv, r: i128, sat: bool, flags: bool, cmod: CondMod) -> (u64, bool, i128) {
    let (b, v, o) = cv.apply(r, sat);
    let e = if sat { v } else { r };
    (b, flags && int_cond(cmod, v, o).unwrap_or(false), e)
}

/// The integer type and bits that represent the exact result `v` of execution type `exec` for
/// a conversion to a float: the execution type when `v` fits it, else the platform's 64-bit
/// integer type of the same signedness; `false` when none holds it.
fn int_repr(p: crate::spec::Platform, exec: DataType, v: i128) -> (DataType, u64, bool) {
    let (lo, hi) = super::convert::int_range(exec);
    if v >= lo && v <= hi {
        return (
            exec,
            (v as u64) & crate::state::mask_bits(exec.bits()),
            true,
        );
    }
    for t in [DataType::Q, DataType::UQ] {
        let (lo, hi) = super::convert::int_range(t);
        if t.on(p) && v >= lo && v <= hi {
            return (t, v as u64, true);
        }
    }
    (
        exec,
        (v as u64) & crate::state::mask_bits(exec.bits()),
        false,
    )
}

/// Channels of a gathered operand, for tests and tools: the element bits the operand supplies
/// to channels `0..n`, and which are undefined.
pub fn read_operand(
    st: &mut ThreadState,
    insn: &Insn,
    idx: usize,
) -> Result<([u64; MAX_CHANNELS], u32), ExecError> {
    let n = usize::from(insn.exec_size);
    let s = insn
        .src
        .get(idx)
        .and_then(|s| s.as_ref())
        .ok_or_else(|| operand_err(&format!("src{idx}"), "absent"))?;
    let mut plan = SrcPlan::blank();
    resolve_src(
        st,
        s,
        idx,
        insn.access,
        insn.is_three_src(),
        n,
        None,
        &mut plan,
    )?;
    let mut v = Vals::empty(plan.ty);
    gather_bits(st, &plan, n, &mut v);
    Ok((v.bits, v.undef))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Platform;

    /// [`gather_raw`] of GRF plans (its fast paths: consecutive dwords, a byte range without
    /// undefined bits) reads what [`ThreadState::read_grf_unchecked`] reads per channel, on
    /// random states with undefined bytes and random aligned offsets.
    #[test]
    fn gather_raw_is_read_grf_per_channel() {
        let mut next = crate::test_rng::xorshift(0x6a7e_0002);
        let mut st = ThreadState::zeroed(Platform::Skl);
        for case in 0..20_000 {
            if case % 64 == 0 {
                // Undefined bytes from none to many.
                let rate = next() % 4;
                for o in (0..st.grf_size()).step_by(8) {
                    let und = rate > 0 && next() % (8 << (3 * rate)) == 0;
                    st.write_grf(o, 8, next(), und).expect("GRF write");
                }
            }
            let esize = [1usize, 2, 4, 8][(next() % 4) as usize];
            let n = [1usize, 2, 4, 8, 16, 32][(next() % 6) as usize];
            let stride = [0usize, 1, 1, 1, 2, 4][(next() % 6) as usize];
            let room = st.grf_size() - 32 * 4 * esize;
            let base = (next() as usize % (room / esize)) * esize;
            let mut plan = SrcPlan::blank();
            plan.space = Space::Grf;
            plan.esize = esize;
            for ch in 0..n {
                plan.off[ch] = if next() % 16 == 0 {
                    (base + (next() as usize % 64) * esize) as u32
                } else {
                    (base + ch * stride * esize) as u32
                };
            }
            let dense = (0..n).all(|ch| plan.off[ch] as usize == base + ch * esize);
            plan.dwords_from = (esize == 4 && dense).then_some(base as u32);
            let (mut bits, mut undef) = ([0u64; MAX_CHANNELS], 0u32);
            gather_raw(&mut st, &plan, n, &mut bits, &mut undef);
            for ch in 0..n {
                let (b, u) = st.read_grf_unchecked(plan.off[ch] as usize, esize);
                assert_eq!(undef >> ch & 1 == 1, u, "case {case} channel {ch}");
                assert_eq!(bits[ch], b, "case {case} channel {ch}");
            }
            if n < 32 {
                assert_eq!(undef >> n, 0, "case {case}: channels past {n}");
            }
        }
    }

    /// [`undef_range`] (its one-word case) is [`undef_range_words`], for ranges within a word,
    /// across words, empty, and past the end of the mask.
    #[test]
    fn undef_range_is_the_word_loop() {
        let mut next = crate::test_rng::xorshift(0x00dd_5eed_0003);
        let gu: Vec<u64> = (0..8)
            .map(|k| if k == 3 { 0 } else { next() & next() & next() })
            .collect();
        for case in 0..200_000 {
            let start = (next() % 560) as usize;
            let len = match next() % 4 {
                0 => (next() % 4) as usize,
                1 => (next() % 70) as usize,
                _ => 1usize << (next() % 8),
            };
            assert_eq!(
                undef_range(&gu, start, len),
                undef_range_words(&gu, start, len),
                "case {case}: {start} {len}"
            );
        }
    }

    /// [`clear_undef_range`] (its one-word case) is [`clear_undef_range_words`], for ranges
    /// within a word, across words, empty, and past the end of the mask.
    #[test]
    fn clear_undef_range_is_the_word_loop() {
        let mut next = crate::test_rng::xorshift(0xc1ea_5eed_0004);
        for case in 0..200_000 {
            let gu: Vec<u64> = (0..8).map(|_| next() | next()).collect();
            let start = (next() % 560) as usize;
            let len = match next() % 4 {
                0 => (next() % 4) as usize,
                1 => (next() % 70) as usize,
                _ => 1usize << (next() % 8),
            };
            let (mut fast, mut slow) = (gu.clone(), gu);
            clear_undef_range(&mut fast, start, len);
            clear_undef_range_words(&mut slow, start, len);
            assert_eq!(fast, slow, "case {case}: {start} {len}");
        }
    }

    /// [`write_results`] has the effect of [`write_dst`] per channel in channel order, on
    /// random GRF destinations (element sizes, strides, enables, undefined channels).
    #[test]
    fn write_results_is_write_dst_per_channel() {
        let mut next = crate::test_rng::xorshift(0x9e37_79b9_7f4a_7c15);
        let mut base_st = ThreadState::zeroed(Platform::Skl);
        for o in (0..base_st.grf_size()).step_by(8) {
            let und = next() % 5 == 0;
            base_st.write_grf(o, 8, next(), und).expect("GRF write");
        }
        let _ = base_st.take_written();
        let tys = [
            DataType::UB,
            DataType::UW,
            DataType::UD,
            DataType::UQ,
            DataType::HF,
            DataType::F,
            DataType::DF,
        ];
        for case in 0..20_000 {
            let ty = tys[(next() % tys.len() as u64) as usize];
            let esize = ty.bytes() as usize;
            let n = [1usize, 2, 4, 8, 16, 32][(next() % 6) as usize];
            let stride = [1usize, 1, 1, 2, 4][(next() % 5) as usize];
            let span = n * stride * esize;
            let room = base_st.grf_size() - span;
            let base = (next() as usize % (room / esize + 1)) * esize;
            let mut d = DstPlan::blank();
            d.ty = ty;
            d.space = Space::Grf;
            d.esize = esize;
            for ch in 0..n {
                d.off[ch] = (base + ch * stride * esize) as u32;
            }
            d.dwords_from = (esize == 4 && stride == 1).then_some(base as u32);
            (d.en_lo, d.en_hi) = match next() % 4 {
                0 => {
                    let m = next() as u32;
                    (m, m)
                }
                1 if esize == 8 => (next() as u32, next() as u32),
                _ => (u32::MAX, u32::MAX),
            };
            let all = crate::exec::mask::low(n);
            let write = if next() % 2 == 0 {
                all
            } else {
                next() as u32 & all
            };
            let und = if next() % 2 == 0 {
                0
            } else {
                next() as u32 & next() as u32
            };
            let bits: [u64; MAX_CHANNELS] = std::array::from_fn(|_| next());
            let (mut fast, mut slow) = (base_st.clone(), base_st.clone());
            write_results(&mut fast, &d, n, write, und, &bits);
            for ch in (0..n).filter(|ch| write >> ch & 1 == 1) {
                write_dst(&mut slow, &d, ch, bits[ch], 0, und >> ch & 1 == 1);
            }
            assert!(fast.grf == slow.grf, "case {case}: GRF bytes");
            assert!(
                fast.grf_undef == slow.grf_undef,
                "case {case}: undefined bits"
            );
            assert_eq!(fast.take_written(), slow.take_written(), "case {case}");
        }
    }
}
