//! Element addresses of register regions: pure functions from region parameters to byte
//! offsets, no allocation (results go into caller-provided arrays).
//!
//! Offsets are relative to the operand's origin (direct: RegNum * 32 + SubRegNum; indirect:
//! the address register value plus the immediate offset) and in bytes. Channel `n` is the
//! instruction's `n`-th channel (0 = the first, whatever QtrCtrl/NibCtrl say: the channel
//! offset selects execution-mask and flag bits, not register addresses, seed000 §3.2.5).
//!
//! - Align1 source `<VertStride;Width,HorzStride>` (seed000 §3.3.5, seed002 §Region-based
//!   Addressing): channel `n` is row `n / Width`, column `n % Width`, at
//!   `row * VertStride + column * HorzStride` elements.
//! - Align1 destination `<HorzStride>`: channel `n` at `n * HorzStride` elements.
//! - Register-indirect (seed002 §Region Interpretation for Indirect Operands, seed004 §8):
//!   **1x1** (one address register, a 2D region from it), **Vx1** (`<Width,HorzStride>`: row `r`
//!   starts at address subregister `k + r`), **VxH** (`<1,0>`: channel `n` at subregister
//!   `k + n`). A destination is always 1x1, so a two-register destination continues from the
//!   same address (seed004 §8 rule 1).
//! - Align16 (seed000 §3.2.2-§3.2.3): channels in groups of four; a source's group `g` starts
//!   at `g * VertStride` elements (VertStride 0 replicates one group, 4 steps over 16 bytes of
//!   dwords) and its component `c` reads component `swizzle[c]`; a destination is packed (channel
//!   `n` at `n` elements) and written where the channel enable bit `n % 4` is set.
//!   64-bit types: two elements per 16-byte group; the swizzle selects 32-bit halves in pairs.

/// Most channels an instruction has (ExecSize 32).
pub const MAX_CHANNELS: usize = 32;

/// An Align1 source region in elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region1 {
    pub vstride: u32,
    pub width: u32,
    pub hstride: u32,
}

/// Why a region cannot be evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegionError {
    /// Width 0, or ExecSize beyond 32.
    BadShape,
    /// A Vx1/VxH row or channel needs address subregister `index`, which does not exist.
    NoAddressRegister { index: usize },
}

/// Byte offsets (from the origin) of channels `0..n` of an Align1 source region.
#[inline]
pub fn align1_src(
    r: Region1,
    elem: usize,
    n: usize,
    out: &mut [i64; MAX_CHANNELS],
) -> Result<(), RegionError> {
    if r.width == 0 || n > MAX_CHANNELS {
        return Err(RegionError::BadShape);
    }
    let (w, vs, hs, e) = (
        r.width as usize,
        r.vstride as i64,
        r.hstride as i64,
        elem as i64,
    );
    // Row `ch / w`, column `ch % w`, stepped without dividing.
    let (mut row, mut col) = (0i64, 0usize);
    for o in out.iter_mut().take(n) {
        *o = (row * vs + col as i64 * hs) * e;
        col += 1;
        if col == w {
            col = 0;
            row += 1;
        }
    }
    Ok(())
}

/// Byte offsets (from the origin) of channels `0..n` of an Align1 destination `<HorzStride>`.
#[inline]
pub fn align1_dst(
    hstride: u32,
    elem: usize,
    n: usize,
    out: &mut [i64; MAX_CHANNELS],
) -> Result<(), RegionError> {
    if n > MAX_CHANNELS {
        return Err(RegionError::BadShape);
    }
    for (ch, o) in out.iter_mut().enumerate().take(n) {
        *o = ch as i64 * i64::from(hstride) * elem as i64;
    }
    Ok(())
}

/// Absolute byte addresses of channels `0..n` of a one-dimensional indirect source region
/// `r[a0.k, imm]<Width,HorzStride>` (Vx1 for Width > 1, VxH for Width = 1): row `r` (channel
/// `n` for VxH) starts at `a0[k + r] + imm`. `a0` holds the address subregisters as read (UW).
#[inline]
#[allow(clippy::too_many_arguments)]
pub fn indirect_vxh(
    a0: &[i64],
    k: usize,
    imm: i64,
    width: u32,
    hstride: u32,
    elem: usize,
    n: usize,
    out: &mut [i64; MAX_CHANNELS],
) -> Result<(), RegionError> {
    if width == 0 || n > MAX_CHANNELS {
        return Err(RegionError::BadShape);
    }
    let w = width as usize;
    for (ch, o) in out.iter_mut().enumerate().take(n) {
        let idx = k + ch / w;
        let base = *a0
            .get(idx)
            .ok_or(RegionError::NoAddressRegister { index: idx })?;
        *o = base + imm + (ch % w) as i64 * i64::from(hstride) * elem as i64;
    }
    Ok(())
}

/// Byte offsets (from the origin) of channels `0..n` of an Align16 source with vertical stride
/// `vstride` (elements: 0 or 4) and swizzle `swz` (component `c` reads component `swz[c]`).
#[inline]
pub fn align16_src(
    vstride: u32,
    swz: [u8; 4],
    elem: usize,
    n: usize,
    out: &mut [i64; MAX_CHANNELS],
) -> Result<(), RegionError> {
    if n > MAX_CHANNELS {
        return Err(RegionError::BadShape);
    }
    if elem == 8 {
        // Two 64-bit elements per 16-byte group; the swizzle is in 32-bit halves: element c of
        // a group reads the qword that halves swz[2c], swz[2c+1] select (they must form a
        // qword: an even half followed by the next, checked by `align16_64bit_swizzle_ok`).
        let vs_bytes = if vstride == 0 { 0 } else { 16 };
        for (ch, o) in out.iter_mut().enumerate().take(n) {
            let (g, c) = ((ch / 2) as i64, ch % 2);
            *o = g * vs_bytes + i64::from(swz[2 * c] / 2) * 8;
        }
        return Ok(());
    }
    let e = elem as i64;
    for (ch, o) in out.iter_mut().enumerate().take(n) {
        let (g, c) = ((ch / 4) as i64, ch % 4);
        *o = (g * i64::from(vstride) + i64::from(swz[c])) * e;
    }
    Ok(())
}

/// Whether an Align16 swizzle can apply to 64-bit elements: each pair of 32-bit selects names
/// one whole qword (an even half, then the following odd half).
pub fn align16_64bit_swizzle_ok(swz: [u8; 4]) -> bool {
    (0..2).all(|c| swz[2 * c] % 2 == 0 && swz[2 * c + 1] == swz[2 * c] + 1)
}

/// Byte offsets (from the origin) of channels `0..n` of an Align16 destination (packed).
#[inline]
pub fn align16_dst(
    elem: usize,
    n: usize,
    out: &mut [i64; MAX_CHANNELS],
) -> Result<(), RegionError> {
    align1_dst(1, elem, n, out)
}

/// The Align16 destination channel enable of channel `ch` for write mask `wm` (bit 0 = x ...
/// bit 3 = w), for elements of `elem` bytes: bit `ch % 4`; for 64-bit elements, per 32-bit half
/// (returned as (low half enabled, high half enabled)).
#[inline]
pub fn align16_chan_enable(wm: u8, elem: usize, ch: usize) -> (bool, bool) {
    if elem == 8 {
        let c = ch % 2;
        (wm >> (2 * c) & 1 == 1, wm >> (2 * c + 1) & 1 == 1)
    } else {
        let b = wm >> (ch % 4) & 1 == 1;
        (b, b)
    }
}
