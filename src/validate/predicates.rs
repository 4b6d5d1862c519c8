//! Named Rust predicates for rules an expression cannot say. Each is declared
//! as a `[[predicate]]` in spec/properties.toml and named by a rule's `check_fn`;
//! it returns true when the rule holds.

use crate::spec::Props;

/// GRF register size in bytes (spec/registers.toml `regfile.grf`).
fn grf_bytes() -> i64 {
    crate::spec::registers::file("grf")
        .and_then(|f| f.reg_bytes)
        .map(i64::from)
        .unwrap_or(32)
}

/// `region.row-within-grf`: no row of source `s` (Width elements, HorzStride
/// apart) crosses a GRF boundary; rows themselves may start in the next register.
pub fn row_within_grf<P: Props + ?Sized>(p: &P, s: usize) -> bool {
    let size = i64::from(p.src_type(s).bytes());
    let width = p.src_width(s).max(1);
    let rows = (p.exec_size() / width).max(1);
    let grf = grf_bytes();
    let base = p.src_reg(s) * grf + p.src_subreg(s);
    for r in 0..rows {
        let first = base + r * p.src_vstride(s) * size;
        let last = first + (width - 1) * p.src_hstride(s) * size + size - 1;
        if first.div_euclid(grf) != last.div_euclid(grf) {
            return false;
        }
    }
    true
}
