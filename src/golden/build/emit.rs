//! The text of a vector's registers: values as hex (undefined bits as 0), `"key":"value"`
//! entries, the instruction's `insn` and `bytes` fields.

use super::*;

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

pub(super) fn lower(out: &mut Vec<u8>, s: &str) {
    out.extend(s.bytes().map(|b| b.to_ascii_lowercase()));
}

/// `"<register>":"<value>"` for each of `regs` whose bit is set in `mask`, comma-separated;
/// `value` writes a register's value text.
#[inline]
pub(super) fn reg_entries(
    out: &mut Vec<u8>,
    keys: &RegKeys,
    regs: &[RegRef],
    mask: u64,
    mut value: impl FnMut(&mut Vec<u8>, RegRef),
) {
    let mut first = true;
    let mut m = mask;
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        let Some(reg) = regs.get(i) else { break };
        if !first {
            out.push(b',');
        }
        first = false;
        keys.put(out, reg.key());
        value(out, *reg);
        out.push(b'"');
    }
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
    out.extend_from_slice(b",\"insn\":");
    fast::string(out, &text);
    out.extend_from_slice(b",\"bytes\":\"");
    fast::hex(out, bytes);
    out.push(b'"');
}

/// The hex of register `r` in `st`, undefined bits as 0 (`reg_view` and `fast::hex_masked`;
/// a GRF register without undefined bytes directly).
pub(super) fn reg_hex(out: &mut Vec<u8>, st: &ThreadState, r: RegRef) {
    match r {
        RegRef::Grf(n) => {
            if let Some((bytes, 0)) = grf_reg(st, n) {
                fast::hex32(out, bytes);
                return;
            }
        }
        RegRef::Arf(i) => {
            if arf_hex(out, st, i).is_some() {
                return;
            }
        }
    }
    let mut ub = [0u8; 64];
    match reg_view(st, r, &mut ub) {
        (bytes, false) => fast::hex(out, bytes),
        (bytes, true) => fast::hex_masked(out, bytes, ub.iter().copied()),
    }
}

/// The hex of ARF register `i` (at most 64 bytes), undefined bits as 0, a dword at a time
/// (None, nothing written: not in the layout).
pub(super) fn arf_hex(out: &mut Vec<u8>, st: &ThreadState, i: usize) -> Option<()> {
    let r = st.layout.regs.get(i)?;
    let len = r.bytes.min(64);
    let bytes = st.arf.get(r.base..r.base + len)?;
    let mut buf = [0u8; 64];
    // (Registers start on a dword: one undefined mask per four bytes.)
    for (j, (d, s)) in buf[..len].chunks_mut(4).zip(bytes.chunks(4)).enumerate() {
        let w = r.base / 4 + j;
        let m = (st.arf_undef.get(w)? | st.layout.read_undef.get(w)?).to_le_bytes();
        for (k, x) in d.iter_mut().enumerate() {
            *x = s[k] & !m[k];
        }
    }
    fast::hex(out, &buf[..len]);
    Some(())
}

/// `r<n>`.
pub(super) fn grf_name(n: u8) -> &'static str {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    &NAMES.get_or_init(|| (0..=255).map(|n| format!("r{n}")).collect())[usize::from(n)]
}
