//! Named Rust predicates for rules an expression cannot say. Each is declared
//! as a `[[predicate]]` in spec/properties.toml and named by a rule's `check_fn`;
//! it returns true when the rule holds.

use crate::spec::Props;

use super::tables::{grf_bytes, grf_of};

/// `region.row-within-grf`: no row of source `s` (Width elements, HorzStride
/// apart) crosses a GRF boundary; rows themselves may start in the next register.
pub fn row_within_grf<P: Props + ?Sized>(p: &P, s: usize) -> bool {
    let size = i64::from(p.src_type(s).bytes());
    let width = p.src_width(s).max(1);
    let mut rows = (p.exec_size() / width).max(1);
    let grf = grf_bytes();
    let base = p.src_reg(s) * grf + p.src_subreg(s);
    // Rows a whole number of registers apart (a scalar or repeated row among them) start at
    // the same offset in their register: the first row crosses a boundary if any does.
    if grf > 0 && (p.src_vstride(s) * size) % grf == 0 {
        rows = rows.min(1);
    }
    for r in 0..rows {
        let first = base + r * p.src_vstride(s) * size;
        let last = first + (width - 1) * p.src_hstride(s) * size + size - 1;
        if grf_of(first, grf) != grf_of(last, grf) {
            return false;
        }
    }
    true
}

/// Byte offset, from the start of the destination's first register, of the last
/// byte of channel `i`'s destination element.
fn dst_last_byte<P: Props + ?Sized>(p: &P, i: i64) -> i64 {
    let size = i64::from(p.dst_type().bytes());
    p.dst_subreg() + i * p.dst_hstride() * size + size - 1
}

/// Byte offset, from the start of source `s`'s first register, of the first byte
/// of channel `i`'s source element (row-major over Width, VertStride, HorzStride).
fn src_first_byte<P: Props + ?Sized>(p: &P, s: usize, i: i64) -> i64 {
    let size = i64::from(p.src_type(s).bytes());
    let width = p.src_width(s).max(1);
    p.src_subreg(s) + ((i / width) * p.src_vstride(s) + (i % width) * p.src_hstride(s)) * size
}

/// Byte offset of the last byte of channel `i`'s element of source `s`.
fn src_last_byte<P: Props + ?Sized>(p: &P, s: usize, i: i64) -> i64 {
    src_first_byte(p, s, i) + i64::from(p.src_type(s).bytes()) - 1
}

/// `align.dst-even-split`, `align.math-dst-even-split`: as many channels write
/// the destination's second register as its first (an element counts for the
/// register holding its last byte).
pub fn dst_split_evenly<P: Props + ?Sized>(p: &P, _s: usize) -> bool {
    let grf = grf_bytes();
    let upper = (0..p.exec_size())
        .filter(|&i| dst_last_byte(p, i) >= grf)
        .count();
    let lower = p.exec_size().max(0) as usize - upper;
    upper == lower
}

/// `align.dst-oword-split`: a destination within one register writes only its
/// lower OWord, only its upper OWord, or as many channels to each.
pub fn dst_oword_split<P: Props + ?Sized>(p: &P, _s: usize) -> bool {
    let oword = grf_bytes() / 2;
    let upper = (0..p.exec_size())
        .filter(|&i| dst_last_byte(p, i) >= oword)
        .count();
    let lower = p.exec_size().max(0) as usize - upper;
    lower == 0 || upper == 0 || lower == upper
}

/// `align.dst-reg-from-one-src-reg`: every channel writing the destination's
/// second register reads source `s`'s second register, and vice versa.
pub fn dst_reg_from_one_src_reg<P: Props + ?Sized>(p: &P, s: usize) -> bool {
    let grf = grf_bytes();
    (0..p.exec_size()).all(|i| (dst_last_byte(p, i) >= grf) == (src_last_byte(p, s, i) >= grf))
}

/// `align.src-same-offset-both-regs`: the first element source `s` reads from
/// its second register sits at the same offset as its first element.
pub fn src_same_offset_in_both_regs<P: Props + ?Sized>(p: &P, s: usize) -> bool {
    let grf = grf_bytes();
    match (0..p.exec_size()).find(|&i| src_last_byte(p, s, i) >= grf) {
        Some(i) => src_first_byte(p, s, i).max(grf) - grf == p.src_subreg(s),
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{DataType, PropsRecord};

    /// `row_within_grf` (which checks one row when the rows lie a whole number of registers
    /// apart) is the row-by-row test, for every region, type, execution size and
    /// subregister of a source.
    #[test]
    fn row_within_grf_is_the_row_by_row_test() {
        let row_by_row = |p: &PropsRecord| {
            let size = i64::from(p.src_type[0].bytes());
            let width = p.src_width[0].max(1);
            let rows = (p.exec_size / width).max(1);
            let base = p.src_reg[0] * 32 + p.src_subreg[0];
            (0..rows).all(|r| {
                let first = base + r * p.src_vstride[0] * size;
                let last = first + (width - 1) * p.src_hstride[0] * size + size - 1;
                first.div_euclid(32) == last.div_euclid(32)
            })
        };
        let (mut checked, mut crossing, mut one_row) = (0, 0, 0);
        for ty in [DataType::UB, DataType::W, DataType::F, DataType::DF] {
            for exec in [1i64, 2, 4, 8, 16, 32] {
                for width in [0i64, 1, 2, 4, 8, 16] {
                    for vstride in [0i64, 1, 2, 4, 8, 16, 32] {
                        for hstride in [0i64, 1, 2, 4] {
                            for (reg, sub) in [(0i64, 0i64), (3, 4), (7, 17), (2, 31), (5, 8)] {
                                let mut p = PropsRecord {
                                    exec_size: exec,
                                    ..PropsRecord::default()
                                };
                                p.src_type[0] = ty;
                                p.src_width[0] = width;
                                p.src_vstride[0] = vstride;
                                p.src_hstride[0] = hstride;
                                p.src_reg[0] = reg;
                                p.src_subreg[0] = sub;
                                let want = row_by_row(&p);
                                assert_eq!(row_within_grf(&p, 0), want, "{p:?}");
                                checked += 1;
                                crossing += usize::from(!want);
                                let step = vstride * i64::from(ty.bytes());
                                one_row += usize::from(step % 32 == 0 && exec > width.max(1));
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 20000, "{checked}");
        assert!(crossing > 2000 && one_row > 2000, "{crossing} {one_row}");
    }
}
