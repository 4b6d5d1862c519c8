//! Drawing a vector's initial values: whole GRF registers of typed, coverage-directed values
//! (`values::value_code`), with their value labels.

use super::*;

/// Fill GRF registers `n..n + cnt` with random values of `ty` (element by element, as
/// `write_grf` would, defined), noting their labels in `classes`.
pub(super) fn fill_regs(
    st: &mut ThreadState,
    n: u8,
    cnt: u8,
    ty: DataType,
    r: &mut Rng,
    classes: Option<&mut ClassSet>,
) -> Option<()> {
    let a = grf_base(n);
    let regs = st.grf.get_mut(a..a + 32 * usize::from(cnt))?;
    match classes {
        Some(cl) => {
            let mut batch = LabelBatch::default();
            fill_values(regs, ty, r, |c| batch.note(c));
            batch.flush(cl);
        }
        None => fill_values(regs, ty, r, |_| {}),
    }
    for reg in 0..usize::from(cnt) {
        let o = a + 32 * reg;
        *st.grf_undef.get_mut(o / 64)? &= !(0xffff_ffffu64 << (o % 64));
    }
    Some(())
}

/// [`fill_typed`], compiled apart for float and integer types (the type test of
/// `value_code` then folds away).
// (The two branches are the same code on purpose: each is inlined under a known type test.)
#[allow(clippy::if_same_then_else)]
#[inline(always)]
pub(super) fn fill_values(
    regs: &mut [u8],
    ty: DataType,
    r: &mut Rng,
    note: impl FnMut(values::LabelCode),
) {
    if ty.is_float() {
        fill_typed(regs, ty, r, note)
    } else {
        fill_typed(regs, ty, r, note)
    }
}

/// Random values of `ty` over whole registers (`regs`: 32 bytes each), each value's label
/// to `note`.
#[inline(always)]
pub(super) fn fill_typed(
    regs: &mut [u8],
    ty: DataType,
    r: &mut Rng,
    mut note: impl FnMut(values::LabelCode),
) {
    let sz = (ty.bytes() as usize).clamp(1, 8);
    for reg in regs.chunks_exact_mut(32) {
        // Each value's 8 little-endian bytes at its offset (the next value overwrites the
        // bytes beyond its size; the slack past 32 is dropped).
        let mut buf = [0u8; 40];
        let mut o = 0;
        while o < 32 {
            let (v, c) = values::value_code(ty, r);
            note(c);
            buf[o..o + 8].copy_from_slice(&v.to_le_bytes());
            o += sz;
        }
        reg.copy_from_slice(&buf[..32]);
    }
}

pub(super) fn grf_base(insn_reg: u8) -> usize {
    usize::from(insn_reg) * 32
}
