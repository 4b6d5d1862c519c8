//! Operands of an instruction resolved against a thread state: where each channel's element
//! is (a GRF byte address, a flat ARF byte address, an immediate element, or the null
//! register), with every address range- and alignment-checked up front, so that the per-channel
//! loops index without further checks.

#![allow(clippy::needless_range_loop)] // channels index several parallel arrays

use super::region::{self, Region1, RegionError, MAX_CHANNELS};
use super::runtime;
use super::ExecError;
use crate::isa::{Addr, Dst, Reg, Region, Src};
use crate::spec::runtime as rt;
use crate::spec::{AccessMode, DataType, Platform};
use crate::state::ThreadState;
use crate::values::{decode_imm, element_type};

/// Where an operand lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    /// GRF: offsets are GRF byte addresses.
    Grf,
    /// ARF: offsets are flat ARF byte addresses; `acc` is set for acc0/acc1 (extended
    /// precision reads and writes).
    Arf { acc: bool },
    /// The null register: reads are undefined, writes are dropped.
    Null,
    /// An immediate.
    Imm,
}

/// A resolved source operand.
#[derive(Debug, Clone)]
pub struct SrcPlan {
    /// The element type (V -> W, UV -> UW, VF -> F; otherwise the operand's type).
    pub ty: DataType,
    /// The type as written (V, UV, VF stay).
    pub written: DataType,
    pub space: Space,
    /// Per channel: byte address (GRF, ARF) or element index (immediate).
    pub off: [u32; MAX_CHANNELS],
    /// Immediate elements (bits).
    pub imm: [u64; 8],
    pub neg: bool,
    pub abs: bool,
    /// Bytes per element as addressed (4 for DF on feature.df-element-size-4 platforms when
    /// regioned in 32-bit units).
    pub esize: usize,
    /// `Some(base)`: a GRF operand whose channels are consecutive dwords from byte `base`
    /// (decided once at resolution; the fast paths of the dword loops use it).
    pub dwords_from: Option<u32>,
}

impl SrcPlan {
    /// A plan to fill ([`resolve_src`]).
    pub fn blank() -> SrcPlan {
        SrcPlan {
            ty: DataType::UD,
            written: DataType::UD,
            space: Space::Null,
            off: [0; MAX_CHANNELS],
            imm: [0; 8],
            neg: false,
            abs: false,
            esize: 4,
            dwords_from: None,
        }
    }
}

/// A resolved destination operand.
#[derive(Debug, Clone)]
pub struct DstPlan {
    pub ty: DataType,
    pub space: Space,
    pub off: [u32; MAX_CHANNELS],
    /// Align16 channel enables per channel: low half / high half (64-bit elements) or the whole
    /// element (both bits equal). All set in Align1.
    pub en_lo: u32,
    pub en_hi: u32,
    pub esize: usize,
    /// As [`SrcPlan::dwords_from`].
    pub dwords_from: Option<u32>,
}

impl DstPlan {
    /// A plan to fill ([`resolve_dst`]).
    pub fn blank() -> DstPlan {
        DstPlan {
            ty: DataType::UD,
            space: Space::Null,
            off: [0; MAX_CHANNELS],
            en_lo: 0,
            en_hi: 0,
            esize: 4,
            dwords_from: None,
        }
    }
}

/// `Some(base)` when a GRF plan of `esize`-byte elements addresses channels `0..n` as
/// consecutive dwords from byte `base`.
fn consecutive_dwords(
    space: Space,
    esize: usize,
    off: &[u32; MAX_CHANNELS],
    n: usize,
) -> Option<u32> {
    if space != Space::Grf || esize != 4 {
        return None;
    }
    let b = off[0];
    (1..n.min(MAX_CHANNELS))
        .all(|ch| off[ch] == b.wrapping_add(4 * ch as u32))
        .then_some(b)
}

fn operand_err(what: &str, msg: impl Into<String>) -> ExecError {
    ExecError::Operand {
        operand: what.to_string(),
        msg: msg.into(),
    }
}

fn region_err(what: &str, e: RegionError) -> ExecError {
    match e {
        RegionError::BadShape => operand_err(what, "region width is 0 or ExecSize exceeds 32"),
        RegionError::NoAddressRegister { index } => runtime::error(
            &rt::INDIRECT_A0_RANGE,
            format!(
                "{what}: the region needs address subregister a0.{index}, which does not exist"
            ),
        ),
    }
}

/// The address subregisters a0.0.. as UW values (`None`: undefined).
fn a0_values(st: &ThreadState) -> ([i64; 16], [bool; 16], usize) {
    let mut v = [0i64; 16];
    let mut u = [true; 16];
    let mut n = 0;
    for i in 0..16 {
        match st.a0(i) {
            Some((x, und)) => {
                v[i] = i64::from(x);
                u[i] = und;
                n = i + 1;
            }
            None => break,
        }
    }
    (v, u, n)
}

/// The origin and kind of a register operand. Returns (space, origin address) with origin in
/// the space's byte addresses, plus the span of valid addresses.
fn origin(
    st: &ThreadState,
    what: &str,
    addr: Addr,
) -> Result<(Space, i64, (usize, usize)), ExecError> {
    match addr {
        Addr::Direct {
            reg: Reg::Grf(n),
            sub,
        } => {
            let o = usize::from(n) * st.grf_reg_bytes() + usize::from(sub);
            Ok((Space::Grf, o as i64, (0, st.grf_size())))
        }
        Addr::Direct {
            reg: Reg::Arf(rn),
            sub,
        } => {
            if rn >> 4 == 0 {
                return Ok((Space::Null, 0, (0, 0)));
            }
            let Some(i) = st.arf_layout().by_regnum(rn) else {
                return Err(operand_err(
                    what,
                    format!(
                        "ARF register number {rn:#04x} does not exist on {}",
                        st.platform().name()
                    ),
                ));
            };
            let r = &st.arf_layout().regs[i];
            let acc = r.info.name == "acc" && r.num < 2;
            let span = st.arf_span(i).unwrap_or((r.base, r.base + r.bytes));
            Ok((Space::Arf { acc }, (r.base + usize::from(sub)) as i64, span))
        }
        Addr::Indirect { a0, off } => {
            let (v, u, n) = a0_values(st);
            let k = usize::from(a0);
            if k >= n {
                return Err(runtime::error(
                    &rt::INDIRECT_A0_RANGE,
                    format!("{what}: address subregister a0.{k} does not exist"),
                ));
            }
            if u[k] {
                return Err(runtime::error(
                    &rt::INDIRECT_UNDEFINED_ADDRESS,
                    format!("{what}: address subregister a0.{k} is undefined"),
                ));
            }
            Ok((Space::Grf, v[k] + i64::from(off), (0, st.grf_size())))
        }
    }
}

/// Check and store absolute addresses.
#[allow(clippy::too_many_arguments)]
fn place(
    what: &str,
    space: Space,
    rel: &[i64; MAX_CHANNELS],
    base: i64,
    span: (usize, usize),
    esize: usize,
    n: usize,
    out: &mut [u32; MAX_CHANNELS],
) -> Result<(), ExecError> {
    if space == Space::Null {
        return Ok(());
    }
    let (lo, hi) = (span.0 as i64, span.1 as i64 - esize as i64);
    let align = esize.max(1) as i64 - 1; // element sizes are powers of two
    let mut ok = true;
    for ch in 0..n {
        let a = base + rel[ch];
        // Bitwise `&`: one branch-free test per channel.
        ok &= (a >= lo) & (a <= hi) & ((a - lo) & align == 0);
        out[ch] = a as u32;
    }
    if ok {
        return Ok(());
    }
    for ch in 0..n {
        let a = base + rel[ch];
        let end = a + esize as i64;
        if a < lo || a > hi {
            return Err(runtime::error(
                &rt::GRF_OUT_OF_RANGE,
                format!(
                    "{what}: channel {ch} addresses bytes {a}..{end}, outside {}",
                    if space == Space::Grf {
                        "r0-r127"
                    } else {
                        "the register"
                    }
                ),
            ));
        }
        if (a - lo) & align != 0 {
            return Err(runtime::error(
                &rt::ELEMENT_MISALIGNED,
                format!(
                    "{what}: channel {ch} address {a} is not aligned to its {esize}-byte element"
                ),
            ));
        }
    }
    Ok(())
}

/// The common case of an Align1 region (a destination `<HorzStride>` is `<HorzStride;1,0>`),
/// in one pass: a GRF or ARF operand whose every element lies in `span` and is aligned, its
/// addresses stored in `off` (channels `0..n`). Returns what [`consecutive_dwords`] gives for
/// them, or `None` (nothing decided, `off` possibly written) where the general path must
/// decide, and report the error: a bad shape, the null register, an element out of range or
/// misaligned.
///
/// Every offset `(row * VertStride + column * HorzStride) * esize` is non-negative and a
/// multiple of `esize`, so the elements are aligned exactly when the origin is, and in range
/// exactly when the origin and the largest offset are.
fn place_align1(
    r: Region1,
    space: Space,
    base: i64,
    span: (usize, usize),
    esize: usize,
    n: usize,
    off: &mut [u32; MAX_CHANNELS],
) -> Option<Option<u32>> {
    if r.width == 0 || n == 0 || n > MAX_CHANNELS || space == Space::Null || esize == 0 {
        return None;
    }
    let (lo, hi) = (span.0 as i64, span.1 as i64 - esize as i64);
    let align = esize as i64 - 1; // element sizes are powers of two
    if base < lo || (base - lo) & align != 0 {
        return None;
    }
    let (w, vs, hs, e) = (
        r.width as usize,
        i64::from(r.vstride),
        i64::from(r.hstride),
        esize as i64,
    );
    let (mut row, mut col) = (0i64, 0usize);
    let mut top = 0i64;
    let mut dense = true;
    for (ch, o) in off.iter_mut().enumerate().take(n) {
        let rel = (row * vs + col as i64 * hs) * e;
        top = top.max(rel);
        dense &= rel == 4 * ch as i64;
        *o = (base + rel) as u32;
        col += 1;
        if col == w {
            col = 0;
            row += 1;
        }
    }
    if base + top > hi {
        return None;
    }
    Some((space == Space::Grf && esize == 4 && dense).then_some(base as u32))
}

/// Bytes per element as regioned: DF counts 4 on feature.df-element-size-4 platforms.
pub fn addr_size(p: Platform, t: DataType) -> usize {
    if t == DataType::DF && crate::spec::feature::DF_ELEMENT_SIZE_4.on(p) {
        4
    } else {
        t.bytes() as usize
    }
}

/// Resolve source `i` of an instruction with `n` channels into `plan` (every field is set;
/// channels from `n` on keep their offsets: 0 in a [`SrcPlan::blank`]).
#[allow(clippy::too_many_arguments)]
pub fn resolve_src(
    st: &ThreadState,
    src: &Src,
    idx: usize,
    access: AccessMode,
    three_src: bool,
    n: usize,
    esize_override: Option<usize>,
    plan: &mut SrcPlan,
) -> Result<(), ExecError> {
    let what = ["src0", "src1", "src2"].get(idx).copied().unwrap_or("src");
    let p = st.platform();
    match src {
        Src::Imm(im) => {
            let els =
                decode_imm(p, im.ty, im.bits).map_err(|e| operand_err(what, e.to_string()))?;
            plan.ty = els.ty();
            plan.written = im.ty;
            plan.space = Space::Imm;
            plan.neg = false;
            plan.abs = false;
            plan.esize = els.ty().bytes() as usize;
            plan.dwords_from = None;
            plan.imm = [0; 8];
            for (k, v) in els.as_slice().iter().enumerate() {
                plan.imm[k] = *v;
            }
            let len = els.len().max(1);
            for ch in 0..n {
                // A vector immediate is an 8- (V, UV) or 4-element (VF) vector with contiguous
                // regions (seed002 §Immediate Operands); channels beyond it repeat it.
                plan.off[ch] = (ch % len) as u32;
            }
            Ok(())
        }
        Src::Reg(r) => {
            if r.ty.is_vector() {
                return Err(operand_err(
                    what,
                    format!("{} is an immediate-only type", r.ty.name()),
                ));
            }
            let esize = esize_override.unwrap_or_else(|| addr_size(p, r.ty));
            let (space, base, span) = origin(st, what, r.addr)?;
            let direct1 = access == AccessMode::Align1 && !r.region.is_vxh();
            let fast = direct1
                .then(|| {
                    place_align1(
                        region1(r.region),
                        space,
                        base,
                        span,
                        esize,
                        n,
                        &mut plan.off,
                    )
                })
                .flatten();
            if let Some(from) = fast {
                reg_fields(plan, r, space, esize);
                plan.dwords_from = from;
                return Ok(());
            }
            let mut rel = [0i64; MAX_CHANNELS];
            let mut abs_addr = false;
            match access {
                AccessMode::Align1 => {
                    if r.region.is_vxh() {
                        let Addr::Indirect { a0, off } = r.addr else {
                            return Err(operand_err(
                                what,
                                "a <Width,HorzStride> region needs register-indirect addressing",
                            ));
                        };
                        let (v, u, cnt) = a0_values(st);
                        let need = usize::from(a0)
                            + (n.max(1) - 1) / usize::from(r.region.width.max(1))
                            + 1;
                        if need > cnt {
                            return Err(region_err(
                                what,
                                RegionError::NoAddressRegister { index: need - 1 },
                            ));
                        }
                        if let Some(k) = (usize::from(a0)..need).find(|k| u[*k]) {
                            return Err(runtime::error(
                                &rt::INDIRECT_UNDEFINED_ADDRESS,
                                format!("{what}: address subregister a0.{k} is undefined"),
                            ));
                        }
                        region::indirect_vxh(
                            &v[..cnt],
                            usize::from(a0),
                            i64::from(off),
                            u32::from(r.region.width),
                            u32::from(r.region.hstride),
                            esize,
                            n,
                            &mut rel,
                        )
                        .map_err(|e| region_err(what, e))?;
                        abs_addr = true;
                    } else {
                        let reg = Region1 {
                            vstride: u32::from(r.region.vstride),
                            width: u32::from(r.region.width),
                            hstride: u32::from(r.region.hstride),
                        };
                        region::align1_src(reg, esize, n, &mut rel)
                            .map_err(|e| region_err(what, e))?;
                    }
                }
                AccessMode::Align16 => {
                    if three_src && r.region.vstride == 0 {
                        // Three-source RepCtrl: one scalar replicated to every channel.
                        rel = [0; MAX_CHANNELS];
                    } else {
                        let swz = r.swizzle.chans();
                        if esize == 8 && !region::align16_64bit_swizzle_ok(swz) {
                            return Err(ExecError::Unsupported {
                                what: format!(
                                    "{what}: an Align16 swizzle that splits 64-bit elements"
                                ),
                            });
                        }
                        region::align16_src(u32::from(r.region.vstride), swz, esize, n, &mut rel)
                            .map_err(|e| region_err(what, e))?;
                    }
                }
            }
            reg_fields(plan, r, space, esize);
            let b = if abs_addr { 0 } else { base };
            place(what, space, &rel, b, span, esize, n, &mut plan.off)?;
            plan.dwords_from = consecutive_dwords(space, esize, &plan.off, n);
            Ok(())
        }
    }
}

/// The fields of a register source's plan but its offsets and `dwords_from`.
fn reg_fields(plan: &mut SrcPlan, r: &crate::isa::RegSrc, space: Space, esize: usize) {
    plan.ty = r.ty;
    plan.written = r.ty;
    plan.space = space;
    plan.imm = [0; 8];
    plan.neg = r.neg;
    plan.abs = r.abs;
    plan.esize = esize;
}

/// Resolve the destination of an instruction with `n` channels into `plan` (every field is
/// set; channels from `n` on keep their offsets: 0 in a [`DstPlan::blank`]).
pub fn resolve_dst(
    st: &ThreadState,
    d: &Dst,
    access: AccessMode,
    n: usize,
    esize_override: Option<usize>,
    plan: &mut DstPlan,
) -> Result<(), ExecError> {
    let what = "dst";
    let p = st.platform();
    if d.ty.is_vector() {
        return Err(operand_err(
            what,
            format!("{} cannot be a destination type", d.ty.name()),
        ));
    }
    let esize = esize_override.unwrap_or_else(|| addr_size(p, d.ty));
    let (space, base, span) = origin(st, what, d.addr)?;
    if access == AccessMode::Align1 {
        // `<HorzStride>` is the region `<HorzStride;1,0>`.
        let reg = Region1 {
            vstride: u32::from(d.hstride),
            width: 1,
            hstride: 0,
        };
        if let Some(from) = place_align1(reg, space, base, span, esize, n, &mut plan.off) {
            plan.ty = d.ty;
            plan.space = space;
            plan.en_lo = u32::MAX;
            plan.en_hi = u32::MAX;
            plan.esize = esize;
            plan.dwords_from = from;
            return Ok(());
        }
    }
    let mut rel = [0i64; MAX_CHANNELS];
    let (mut en_lo, mut en_hi) = (u32::MAX, u32::MAX);
    match access {
        AccessMode::Align1 => region::align1_dst(u32::from(d.hstride), esize, n, &mut rel)
            .map_err(|e| region_err(what, e))?,
        AccessMode::Align16 => {
            region::align16_dst(esize, n, &mut rel).map_err(|e| region_err(what, e))?;
            en_lo = 0;
            en_hi = 0;
            for ch in 0..n {
                let (lo, hi) = region::align16_chan_enable(d.wrmask, esize, ch);
                en_lo |= u32::from(lo) << ch;
                en_hi |= u32::from(hi) << ch;
            }
        }
    }
    plan.ty = d.ty;
    plan.space = space;
    plan.en_lo = en_lo;
    plan.en_hi = en_hi;
    plan.esize = esize;
    place(what, space, &rel, base, span, esize, n, &mut plan.off)?;
    plan.dwords_from = consecutive_dwords(space, esize, &plan.off, n);
    Ok(())
}

/// The Align1 region of `r` as a [`Region1`] (for callers that evaluate regions directly).
pub fn region1(r: Region) -> Region1 {
    Region1 {
        vstride: u32::from(r.vstride),
        width: u32::from(r.width),
        hstride: u32::from(r.hstride),
    }
}

/// The element type an immediate of type `t` supplies.
pub fn imm_element_type(t: DataType) -> DataType {
    element_type(t)
}

/// The resolved operands of one instruction.
#[derive(Debug, Clone)]
pub struct Plans {
    pub dst: DstPlan,
    pub srcs: [Option<SrcPlan>; 3],
}

impl Plans {
    /// Plans to fill ([`resolve_all`]).
    pub fn blank() -> Plans {
        Plans {
            dst: DstPlan::blank(),
            srcs: [None, None, None],
        }
    }
}

/// Resolve the destination and the sources `srcs` of `insn` with `n` channels into `plans`
/// (made by [`Plans::blank`]: the sources beyond `srcs` stay `None`).
pub fn resolve_all(
    st: &ThreadState,
    insn: &crate::isa::Insn,
    srcs: &[&Src],
    n: usize,
    esize_override: Option<usize>,
    plans: &mut Plans,
) -> Result<(), ExecError> {
    let d = insn
        .dst
        .as_ref()
        .ok_or_else(|| operand_err("dst", "absent"))?;
    let three = insn.is_three_src();
    resolve_dst(st, d, insn.access, n, esize_override, &mut plans.dst)?;
    for (k, s) in srcs.iter().enumerate().take(3) {
        let slot = plans.srcs[k].get_or_insert_with(SrcPlan::blank);
        resolve_src(st, s, k, insn.access, three, n, esize_override, slot)?;
    }
    Ok(())
}

/// Whether the operand addresses of `insn` depend only on the instruction and the platform
/// (no register-indirect operand, whose address comes from a0).
pub fn state_independent(insn: &crate::isa::Insn) -> bool {
    let ind = |a: Addr| matches!(a, Addr::Indirect { .. });
    !insn.dst.is_some_and(|d| ind(d.addr))
        && insn
            .src
            .iter()
            .flatten()
            .all(|s| !matches!(s, Src::Reg(r) if ind(r.addr)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The general path: every channel's offset, then the range and alignment checks, then
    /// the consecutive-dword test.
    fn general(
        r: Region1,
        space: Space,
        base: i64,
        span: (usize, usize),
        esize: usize,
        n: usize,
    ) -> Option<([u32; MAX_CHANNELS], Option<u32>)> {
        let mut rel = [0i64; MAX_CHANNELS];
        region::align1_src(r, esize, n, &mut rel).ok()?;
        let mut off = [0u32; MAX_CHANNELS];
        place("src0", space, &rel, base, span, esize, n, &mut off).ok()?;
        Some((off, consecutive_dwords(space, esize, &off, n)))
    }

    /// [`place_align1`] gives what the general path gives wherever it decides, and decides
    /// every valid non-null case: random regions (strides and widths from 0 up, odd ones
    /// too), element sizes, channel counts, origins in and out of range, aligned or not.
    #[test]
    fn one_pass_align1_placement_is_the_general_path() {
        let mut next = crate::test_rng::xorshift(0x5eed_0a11_0c47_e001);
        let mut decided = 0;
        for case in 0..100_000 {
            let pick = |x: u64, v: &[u32]| v[(x % v.len() as u64) as usize];
            let r = Region1 {
                vstride: pick(next(), &[0, 1, 2, 4, 8, 16, 32, 3]),
                width: pick(next(), &[0, 1, 2, 4, 8, 16, 5]),
                hstride: pick(next(), &[0, 1, 2, 4, 3]),
            };
            let esize = pick(next(), &[1, 2, 4, 4, 8]) as usize;
            let n = pick(next(), &[0, 1, 2, 4, 8, 16, 32, 33, 7]) as usize;
            let space = match next() % 8 {
                0 => Space::Null,
                1 => Space::Arf { acc: false },
                _ => Space::Grf,
            };
            let span = if next() % 4 == 0 { (64, 96) } else { (0, 4096) };
            let base = (next() % 4200) as i64 - if next() % 16 == 0 { 100 } else { 0 };
            let base = if next() % 3 == 0 { base } else { base & !7 };
            let mut off = [0u32; MAX_CHANNELS];
            let fast = place_align1(r, space, base, span, esize, n, &mut off);
            let slow = general(r, space, base, span, esize, n);
            match (fast, slow) {
                (Some(from), Some((o, f))) => {
                    assert_eq!(off[..n], o[..n], "case {case}: {r:?} {esize} {n} {base}");
                    assert_eq!(from, f, "case {case}");
                    decided += 1;
                }
                (Some(_), None) => panic!("case {case}: decided an invalid operand"),
                (None, Some(_)) => {
                    assert!(space == Space::Null || n == 0, "case {case}: undecided");
                }
                (None, None) => {}
            }
        }
        assert!(decided > 20_000, "{decided} cases decided");
    }
}
