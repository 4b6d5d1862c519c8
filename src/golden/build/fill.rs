//! Drawing a vector's initial values: whole GRF registers of typed, coverage-directed values
//! (`values::value_code`, drawn ahead by [`lookahead`]), with their value labels.

use super::*;

mod lookahead;

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
            let high = (ty as u16) << 8;
            fill_values(regs, ty, r, |low| cl.insert(high | u16::from(low)));
        }
        None => fill_values(regs, ty, r, |_| {}),
    }
    for reg in 0..usize::from(cnt) {
        let o = a + 32 * reg;
        *st.grf_undef.get_mut(o / 64)? &= !(0xffff_ffffu64 << (o % 64));
    }
    Some(())
}

/// Random values of `ty` over whole registers (`regs`: 32 bytes each), the low byte of each
/// label code drawn to `note` (at least once; the type byte is `ty`'s).
#[inline(always)]
pub(super) fn fill_values(regs: &mut [u8], ty: DataType, r: &mut Rng, mut note: impl FnMut(u8)) {
    if !lookahead::fill(regs, ty, r, &mut note) {
        fill_typed(regs, ty, r, |c| note((c & 0xff) as u8));
    }
}

/// Random values of `ty` over whole registers drawn one by one (the general path), each
/// value's label to `note`.
fn fill_typed(regs: &mut [u8], ty: DataType, r: &mut Rng, mut note: impl FnMut(values::LabelCode)) {
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

    /// The label codes of `lows` (low bytes) for type `ty`, sorted, without repeats.
    fn codes_of(ty: DataType, lows: &[u8]) -> Vec<values::LabelCode> {
        let mut v: Vec<_> = lows
            .iter()
            .map(|&l| (ty as u16) << 8 | u16::from(l))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The fills (drawn ahead) give the bytes, the label set and the generator state of the
    /// plain drawing, for every type, over many seeds and runs of 1 to 4 registers.
    #[test]
    fn fills_equal_the_plain_drawing() {
        let mut pick = Rng::for_vector(31, 2, 0);
        for k in 0..40_000u64 {
            let ty = DataType::ALL[k as usize % DataType::ALL.len()];
            let cnt = 1 + pick.below(4);
            let (mut a, mut b) = (vec![0u8; 32 * cnt], vec![0xa5u8; 32 * cnt]);
            let mut ra = Rng::for_vector(k, pick.next(), 0);
            let mut rb = ra.clone();
            let (mut la, mut cb) = (Vec::new(), Vec::new());
            fill_values(&mut a, ty, &mut ra, |l| la.push(l));
            fill_plain(&mut b, ty, &mut rb, &mut cb);
            cb.sort_unstable();
            cb.dedup();
            assert_eq!(a, b, "{ty:?} {k}");
            assert_eq!(codes_of(ty, &la), cb, "{ty:?} {k}");
            assert_eq!(ra.state(), rb.state(), "{ty:?} {k}");
        }
    }

    /// Every type has a lookahead drawing (none takes the general path), and a run of no
    /// registers draws nothing.
    #[test]
    fn every_type_is_drawn_ahead() {
        for ty in DataType::ALL {
            let mut r = Rng::for_vector(3, 4, 0);
            let s = r.state();
            assert!(lookahead::fill(&mut [], ty, &mut r, |_| {}), "{ty:?}");
            assert_eq!(r.state(), s, "{ty:?}");
            let mut regs = [0u8; 32];
            assert!(lookahead::fill(&mut regs, ty, &mut r, |_| {}), "{ty:?}");
            assert_ne!(r.state(), s, "{ty:?}");
        }
    }
}
