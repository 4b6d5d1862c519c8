//! The text of a vector's registers: values as hex (undefined bits as 0), `"key":"value"`
//! entries, the instruction's `insn` and `bytes` fields.

use super::super::regtext::SLOT as KEY_SLOT;
use super::*;
use fast::{Cursor, FloatTexts};

/// The bytes of a register and, in `undef`, their undefined bits (as `conformance::regs::read`),
/// and whether any bit is undefined.
#[inline]
pub(super) fn reg_view<'a>(
    st: &'a ThreadState,
    r: RegRef,
    undef: &mut [u8; 64],
) -> (&'a [u8], bool) {
    match r {
        RegRef::Grf(n) => {
            let o = usize::from(n) * 32;
            let u = (st.grf_undef[o / 64] >> (o % 64)) as u32;
            if u == 0 {
                undef[..32].fill(0);
            } else {
                for (k, x) in undef[..32].iter_mut().enumerate() {
                    *x = if (u >> k) & 1 == 1 { 0xff } else { 0 };
                }
            }
            (&st.grf[o..o + 32], u != 0)
        }
        RegRef::Arf(i) => {
            let r = &st.layout.regs[i];
            let len = r.bytes.min(64);
            let mut any = 0;
            // (Registers start on a dword: one undefined mask per four bytes.)
            for (j, x) in undef[..len].chunks_mut(4).enumerate() {
                let d = r.base / 4 + j;
                let m = st.arf_undef[d] | st.layout.read_undef[d];
                any |= m;
                if let Ok(x) = <&mut [u8; 4]>::try_from(&mut *x) {
                    *x = m.to_le_bytes();
                } else {
                    x.copy_from_slice(&m.to_le_bytes()[..x.len()]);
                }
            }
            (&st.arf[r.base..r.base + len], any != 0)
        }
    }
}

/// Whether register `r` of `st` has an undefined bit ([`reg_view`]'s flag, without writing the
/// mask out): a GRF register by its 32 undefined-byte bits, an ARF register by the undefined
/// and unpopulated bits of its dwords.
#[inline]
pub(super) fn has_undef(st: &ThreadState, r: RegRef) -> bool {
    match r {
        RegRef::Grf(n) => {
            let o = usize::from(n) * 32;
            st.grf_undef
                .get(o / 64)
                .is_some_and(|w| (w >> (o % 64)) as u32 != 0)
        }
        RegRef::Arf(i) => {
            let Some(r) = st.layout.regs.get(i) else {
                return false;
            };
            let dwords = r.base / 4..(r.base + r.bytes.min(64)).div_ceil(4);
            let (u, ru) = (&st.arf_undef, &st.layout.read_undef);
            dwords.fold(0, |m, d| {
                m | u.get(d).copied().unwrap_or(0) | ru.get(d).copied().unwrap_or(0)
            }) != 0
        }
    }
}

/// `s` in lower case.
pub(super) fn lower(out: &mut Vec<u8>, s: &str) {
    out.extend(s.bytes().map(|b| b.to_ascii_lowercase()));
}

/// The entries of the registers of `regs` whose bit is set in `mask`, written by `entry`
/// (register, whether it is the first).
#[inline(always)]
pub(super) fn reg_entries(
    c: &mut Cursor<'_>,
    regs: &[RegRef],
    mask: u64,
    mut entry: impl FnMut(&mut Cursor<'_>, RegRef, bool),
) {
    let mut m = mask;
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        let Some(reg) = regs.get(i) else { break };
        entry(c, *reg, m == mask);
        m &= m - 1;
    }
}

/// `"<register>":"<value>"` of `reg` in `st`, value as [`reg_hex`] (a comma first unless
/// `first`): a GRF register without undefined bytes as one block (one room check), inline; an
/// ARF register of whole dwords likewise, by a call ([`arf_entry`]).
#[inline(always)]
pub(super) fn reg_entry(
    c: &mut Cursor<'_>,
    keys: &RegKeys,
    st: &ThreadState,
    reg: RegRef,
    first: bool,
) {
    if let RegRef::Grf(n) = reg {
        if let (Some((bytes, 0)), Some(key)) = (grf_reg(st, n), keys.slot(reg.key())) {
            // `,` `"<name>":"` (at most a slot) 64 digits `"`.
            c.block::<{ KEY_SLOT + 66 }>(|b| grf_entry(b, key, bytes, first));
            return;
        }
    }
    if let (RegRef::Arf(i), Some(key)) = (reg, keys.slot(reg.key())) {
        if arf_entry(c, st, i, key, first).is_some() {
            return;
        }
    }
    if !first {
        c.byte(b',');
    }
    keys.put(c, reg.key());
    reg_hex(c, st, reg);
    c.byte(b'"');
}

/// A register entry's start in `b`: the comma (unless `first`) and the key (in its slot, and
/// its length); returns where the value goes.
#[inline(always)]
fn entry_key<const N: usize>(
    b: &mut [u8; N],
    (key, len): (&[u8; KEY_SLOT], usize),
    first: bool,
) -> usize {
    b[0] = b',';
    let at = usize::from(!first);
    if let Some(d) = b.get_mut(at..at + KEY_SLOT) {
        d.copy_from_slice(key);
    }
    at + len.min(KEY_SLOT)
}

/// The entry of a GRF register of defined bytes `bytes` at the start of `b`; its length.
#[inline(always)]
fn grf_entry(
    b: &mut [u8; KEY_SLOT + 66],
    key: (&[u8; KEY_SLOT], usize),
    bytes: &[u8; 32],
    first: bool,
) -> usize {
    let at = entry_key(b, key, first);
    fast::hex_into(&mut b[at..at + 64], bytes);
    b[at + 64] = b'"';
    at + 65
}

/// The entry of ARF register `i` in one block (None, nothing written: not whole dwords).
#[inline(never)]
fn arf_entry(
    c: &mut Cursor<'_>,
    st: &ThreadState,
    i: usize,
    key: (&[u8; KEY_SLOT], usize),
    first: bool,
) -> Option<()> {
    let (bytes, undef, fixed) = arf_dwords(st, i)?;
    // One dword (a flag register, the most frequent): its 8 digits in a small block.
    if let ([b0, b1, b2, b3], [u], [f]) = (bytes, undef, fixed) {
        let d = u32::from_le_bytes([*b0, *b1, *b2, *b3]) & !(u | f);
        c.block::<{ KEY_SLOT + 10 }>(|b| {
            let at = entry_key(b, key, first);
            if let Some(o) = b.get_mut(at..).and_then(|o| o.first_chunk_mut::<9>()) {
                o[..8].copy_from_slice(&fast::hex4(d));
                o[8] = b'"';
            }
            at + 9
        });
        return Some(());
    }
    // (At most 16 dwords.)
    let n = (bytes.len() / 4).min(undef.len()).min(fixed.len()).min(16);
    let (bytes, undef, fixed) = (bytes.get(..4 * n)?, undef.get(..n)?, fixed.get(..n)?);
    let groups = 4 * (n / 4);
    // `,` `"<name>":"` (at most a slot) at most 128 digits `"`.
    c.block::<{ KEY_SLOT + 130 }>(|b| {
        let at = entry_key(b, key, first);
        let Some(out) = b.get_mut(at..at + 8 * n + 1) else {
            return 0;
        };
        let (whole, rest) = out.split_at_mut(8 * groups);
        // Four dwords at a time by `hex16`, the rest one by one.
        let (b4, rb) = bytes.split_at(4 * groups);
        let (u4, ru) = undef.split_at(groups);
        let (f4, rf) = fixed.split_at(groups);
        let quads = b4
            .chunks_exact(16)
            .zip(u4.chunks_exact(4).zip(f4.chunks_exact(4)));
        for (d, (s, (u, f))) in whole.chunks_exact_mut(32).zip(quads) {
            let mut m = [0u8; 16];
            for (x, (s, (u, f))) in m
                .chunks_exact_mut(4)
                .zip(s.chunks_exact(4).zip(u.iter().zip(f)))
            {
                x.copy_from_slice(&defined_dword(s, *u | *f).to_le_bytes());
            }
            if let Ok(d) = <&mut [u8; 32]>::try_from(d) {
                fast::hex16(d, &m);
            }
        }
        let singles = rb.chunks_exact(4).zip(ru.iter().zip(rf));
        for (d, (s, (u, f))) in rest.chunks_exact_mut(8).zip(singles) {
            d.copy_from_slice(&fast::hex4(defined_dword(s, *u | *f)));
        }
        if let Some(q) = rest.last_mut() {
            *q = b'"';
        }
        at + 8 * n + 1
    });
    Some(())
}

/// `,"alternatives":[...]` (nothing when there is none); `floats` remembers the texts of
/// the error bounds.
pub(super) fn alternatives(c: &mut Cursor<'_>, alts: &[Alt], floats: &mut FloatTexts) {
    if alts.is_empty() {
        return;
    }
    c.put(b",\"alternatives\":[");
    for (i, a) in alts.iter().enumerate() {
        if i > 0 {
            c.byte(b',');
        }
        c.bytes(match a.kind {
            AltKind::AnyNan => b"{\"kind\":\"any_nan\",\"reg\":\"r".as_slice(),
            AltKind::Ulps => b"{\"kind\":\"ulps\",\"reg\":\"r",
            AltKind::OverflowInf => b"{\"kind\":\"overflow_inf\",\"reg\":\"r",
            AltKind::Value => b"{\"kind\":\"value\",\"reg\":\"r",
        });
        c.uint(u64::from(a.reg));
        c.put(b"\",\"offset\":");
        c.uint(u64::from(a.offset));
        match type_field(a.ty) {
            Some(f) => c.bytes(f),
            None => {
                c.put(b",\"type\":\"");
                c.lower(a.ty.name());
                c.byte(b'"');
            }
        }
        if let Some(u) = a.ulps {
            c.put(b",\"ulps\":");
            floats.write(c, u);
        }
        if let Some(u) = a.abs {
            c.put(b",\"abs\":");
            floats.write(c, u);
        }
        if let Some(b) = a.bits {
            c.put(b",\"bits\":\"");
            c.bytes(format!("{b:#x}").as_bytes());
            c.byte(b'"');
        }
        c.put(b",\"rule\":");
        c.plain(a.rule);
        c.byte(b'}');
    }
    c.byte(b']');
}

/// `,"type":"<type in lower case>"` of an alternative, rendered once per type (None: a type
/// not in the table, written piece by piece).
fn type_field(ty: DataType) -> Option<&'static [u8]> {
    static FIELDS: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    let fields = FIELDS.get_or_init(|| {
        let n = (DataType::ALL.iter())
            .map(|&t| t as usize + 1)
            .max()
            .unwrap_or(0);
        let mut v = vec![Vec::new(); n];
        for t in DataType::ALL {
            if let Some(f) = v.get_mut(t as usize) {
                f.extend_from_slice(b",\"type\":\"");
                lower(f, t.name());
                f.push(b'"');
            }
        }
        v
    });
    fields
        .get(ty as usize)
        .filter(|f| !f.is_empty())
        .map(Vec::as_slice)
}

/// `,"insn":"<IGA text>","bytes":"<hex>"`.
pub(super) fn insn_fields(out: &mut Vec<u8>, insn: &Insn, p: Platform, bytes: &[u8; 16]) {
    let text = print_insn(
        insn,
        &PrintOptions {
            dialect: Dialect::Iga,
            platform: p,
        },
    );
    let room = 2 * text.len() + 64;
    fast::append(out, room, |c| {
        c.put(b",\"insn\":");
        c.string(&text);
        c.put(b",\"bytes\":\"");
        c.hex(bytes);
        c.byte(b'"');
    });
}

/// The dword of the 4 bytes `s` (little-endian) without the bits of `undef`.
#[inline(always)]
fn defined_dword(s: &[u8], undef: u32) -> u32 {
    match <[u8; 4]>::try_from(s) {
        Ok(w) => u32::from_le_bytes(w) & !undef,
        Err(_) => 0,
    }
}

/// The hex of register `r` in `st`, undefined bits as 0 (`reg_view` and `hex_masked`; a GRF
/// register without undefined bytes directly, inline).
#[inline(always)]
pub(super) fn reg_hex(c: &mut Cursor<'_>, st: &ThreadState, r: RegRef) {
    if let RegRef::Grf(n) = r {
        if let Some((bytes, 0)) = grf_reg(st, n) {
            c.hex32(bytes);
            return;
        }
    }
    reg_hex_other(c, st, r);
}

/// [`reg_hex`] of an ARF register or a GRF register with undefined bytes.
#[inline(never)]
fn reg_hex_other(c: &mut Cursor<'_>, st: &ThreadState, r: RegRef) {
    if let RegRef::Arf(i) = r {
        if arf_hex(c, st, i).is_some() {
            return;
        }
    }
    let mut ub = [0u8; 64];
    match reg_view(st, r, &mut ub) {
        (bytes, false) => c.hex(bytes),
        (bytes, true) => c.hex_masked(bytes, ub.iter().copied()),
    }
}

/// The hex of ARF register `i` (at most 64 bytes), undefined bits as 0, a dword at a time
/// ([`Cursor::hex4`]; None, nothing written: not in the layout or not whole dwords).
#[inline]
pub(super) fn arf_hex(c: &mut Cursor<'_>, st: &ThreadState, i: usize) -> Option<()> {
    let (bytes, undef, fixed) = arf_dwords(st, i)?;
    for ((b, u), f) in bytes.chunks_exact(4).zip(undef).zip(fixed) {
        c.hex4(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) & !(u | f));
    }
    Some(())
}

/// The bytes of ARF register `i` (at most 64), their undefined masks and the layout's
/// always-undefined masks, a mask per dword (None: not in the layout or not whole dwords).
#[inline(always)]
pub(super) fn arf_dwords(st: &ThreadState, i: usize) -> Option<(&[u8], &[u32], &[u32])> {
    let r = st.layout.regs.get(i)?;
    let len = r.bytes.min(64);
    // (Registers start on a dword: one undefined mask per four bytes.)
    if r.base % 4 != 0 || len % 4 != 0 {
        return None;
    }
    let (d0, n) = (r.base / 4, len / 4);
    let bytes = st.arf.get(r.base..r.base + len)?;
    let undef = st.arf_undef.get(d0..d0 + n)?;
    let fixed = st.layout.read_undef.get(d0..d0 + n)?;
    Some((bytes, undef, fixed))
}

/// Whether ARF register `i` surely has the same bytes and undefined flags in `a` and `b` (a
/// dword at a time; registers start on a dword). False: they may differ.
#[inline]
pub(super) fn same_arf(a: &ThreadState, b: &ThreadState, i: usize) -> bool {
    let Some(r) = a.layout.regs.get(i) else {
        return false;
    };
    let (lo, hi) = (r.base / 4, (r.base + r.bytes).div_ceil(4));
    let (Some(x), Some(y), Some(ux), Some(uy)) = (
        a.arf.get(lo * 4..hi * 4),
        b.arf.get(lo * 4..hi * 4),
        a.arf_undef.get(lo..hi),
        b.arf_undef.get(lo..hi),
    ) else {
        return false;
    };
    // (The sizes of the registers there are as fixed-size comparisons, inline; other sizes
    // dword by dword, as integers: no slice comparison call.)
    match hi - lo {
        1 => same_fixed::<4, 1>((x, y), (ux, uy)),
        2 => same_fixed::<8, 2>((x, y), (ux, uy)),
        3 => same_fixed::<12, 3>((x, y), (ux, uy)),
        4 => same_fixed::<16, 4>((x, y), (ux, uy)),
        8 => same_fixed::<32, 8>((x, y), (ux, uy)),
        16 => same_fixed::<64, 16>((x, y), (ux, uy)),
        _ => same_dwords((x, y), (ux, uy)),
    }
}

/// Whether the bytes `x` and `y` and the undefined masks `ux` and `uy` are the same, dword by
/// dword (the general path of [`same_arf`]).
fn same_dwords((x, y): (&[u8], &[u8]), (ux, uy): (&[u32], &[u32])) -> bool {
    let word = |d: &[u8]| u32::from_le_bytes([d[0], d[1], d[2], d[3]]);
    let bytes = x.chunks_exact(4).zip(y.chunks_exact(4));
    (bytes.zip(ux.iter().zip(uy))).all(|((p, q), (u, v))| word(p) == word(q) && u == v)
}

/// [`same_dwords`] of `B` bytes and `D` masks (the lengths of the slices), as fixed-size
/// comparisons.
#[inline(always)]
fn same_fixed<const B: usize, const D: usize>(
    (x, y): (&[u8], &[u8]),
    (ux, uy): (&[u32], &[u32]),
) -> bool {
    match (
        x.first_chunk::<B>(),
        y.first_chunk::<B>(),
        ux.first_chunk::<D>(),
        uy.first_chunk::<D>(),
    ) {
        (Some(x), Some(y), Some(ux), Some(uy)) => x == y && ux == uy,
        _ => same_dwords((x, y), (ux, uy)),
    }
}

/// `r<n>`.
pub(super) fn grf_name(n: u8) -> &'static str {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    &NAMES.get_or_init(|| (0..=255).map(|n| format!("r{n}")).collect())[usize::from(n)]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rendered type fields are those written piece by piece, for every type.
    #[test]
    fn rendered_type_fields_equal_the_written_ones() {
        for t in DataType::ALL {
            let want = format!(",\"type\":\"{}\"", t.name().to_ascii_lowercase());
            assert_eq!(type_field(t), Some(want.as_bytes()), "{t:?}");
        }
    }

    /// The fixed-size comparisons of [`same_arf`] equal the dword-by-dword one, on random
    /// bytes and masks that differ nowhere, in one byte or in one mask.
    #[test]
    fn fixed_size_register_comparisons_equal_the_dword_comparison() {
        let mut r = Rng::for_vector(14, 14, 0);
        for _ in 0..4000 {
            let d = [1, 2, 3, 4, 8, 16][r.below(6)];
            let x: Vec<u8> = (0..4 * d).map(|_| r.next() as u8).collect();
            let ux: Vec<u32> = (0..d).map(|_| (r.next() & r.next()) as u32).collect();
            let (mut y, mut uy) = (x.clone(), ux.clone());
            match r.below(3) {
                0 => {}
                1 => y[r.below(4 * d)] ^= 1 << r.below(8),
                _ => uy[r.below(d)] ^= 1 << r.below(32),
            }
            let want = same_dwords((&x, &y), (&ux, &uy));
            let got = match d {
                1 => same_fixed::<4, 1>((&x, &y), (&ux, &uy)),
                2 => same_fixed::<8, 2>((&x, &y), (&ux, &uy)),
                3 => same_fixed::<12, 3>((&x, &y), (&ux, &uy)),
                4 => same_fixed::<16, 4>((&x, &y), (&ux, &uy)),
                8 => same_fixed::<32, 8>((&x, &y), (&ux, &uy)),
                _ => same_fixed::<64, 16>((&x, &y), (&ux, &uy)),
            };
            assert_eq!(got, want, "{d}");
        }
    }
}
