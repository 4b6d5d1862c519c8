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

/// [`fill_typed`], compiled apart for each register type (the type tests of `value_code`,
/// the float format, the integer mask and the element size then fold away); other types
/// take the general code.
#[inline(always)]
pub(super) fn fill_values(
    regs: &mut [u8],
    ty: DataType,
    r: &mut Rng,
    note: impl FnMut(values::LabelCode),
) {
    // (A local copy of the generator, which then stays in registers.)
    let mut local = r.clone();
    let rl = &mut local;
    macro_rules! for_const_type {
        ($($t:ident),*) => {
            match ty {
                $(DataType::$t => fill_typed(regs, DataType::$t, rl, note),)*
                _ => fill_typed(regs, ty, rl, note),
            }
        };
    }
    for_const_type!(UB, B, UW, W, UD, D, UQ, Q, HF, F, DF);
    *r = local;
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
    if 32 % sz == 0 {
        // Each value's low `sz` bytes, little-endian, element after element.
        for el in regs.chunks_exact_mut(sz) {
            let (v, c) = values::value_code(ty, r);
            note(c);
            el.copy_from_slice(&v.to_le_bytes()[..sz]);
        }
        return;
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Whole registers of values drawn one by one (8 bytes written per value, the next value
    /// overwriting the bytes beyond the size): the definition the per-type code follows.
    fn fill_plain(regs: &mut [u8], ty: DataType, r: &mut Rng, codes: &mut Vec<values::LabelCode>) {
        let sz = (ty.bytes() as usize).clamp(1, 8);
        for reg in regs.chunks_exact_mut(32) {
            let mut buf = [0u8; 40];
            let mut o = 0;
            while o < 32 {
                let (v, c) = values::value_code(ty, r);
                codes.push(c);
                buf[o..o + 8].copy_from_slice(&v.to_le_bytes());
                o += sz;
            }
            reg.copy_from_slice(&buf[..32]);
        }
    }

    /// The per-type fills give the bytes, labels and generator state of the plain drawing,
    /// for every type.
    #[test]
    fn typed_fills_equal_the_plain_drawing() {
        let mut pick = Rng::for_vector(31, 2, 0);
        for k in 0..600u64 {
            let ty = DataType::ALL[k as usize % DataType::ALL.len()];
            let cnt = 1 + pick.below(3);
            let (mut a, mut b) = (vec![0u8; 32 * cnt], vec![0u8; 32 * cnt]);
            let mut ra = Rng::for_vector(k, pick.next(), 0);
            let mut rb = ra.clone();
            let (mut ca, mut cb) = (Vec::new(), Vec::new());
            fill_values(&mut a, ty, &mut ra, |c| ca.push(c));
            fill_plain(&mut b, ty, &mut rb, &mut cb);
            assert_eq!(a, b, "{ty:?}");
            assert_eq!(ca, cb, "{ty:?}");
            assert_eq!(ra.next(), rb.next(), "{ty:?}");
        }
    }
}
