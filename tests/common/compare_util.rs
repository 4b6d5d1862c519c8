//! Shared by tests/float/compare_grids.rs and tests/float/float_compare.rs: the class indices of the
//! comparison grids (spec/compare.toml, seed000 §2.3.1.3) and the printed cells known to
//! differ from the arithmetic comparison, each with its reason.
#![allow(dead_code)]

use euref::spec::compare::Cell;

pub const NINF: usize = 0;
pub const NFIN: usize = 1;
pub const NDEN: usize = 2;
pub const NZERO: usize = 3;
pub const PZERO: usize = 4;
pub const PDEN: usize = 5;
pub const PFIN: usize = 6;
pub const PINF: usize = 7;
pub const NAN: usize = 8;

/// Printed cells that differ from the comparison: (grid, src0 class, src1 class, printed,
/// computed, reason).
pub const MANUAL_ERRATA: &[(&str, usize, usize, Cell, Cell, &str)] = &[
    (
        "cmp.g",
        PFIN,
        PFIN,
        Cell::T,
        Cell::Depends,
        "suspected manual erratum (cmp.g note): two finite values compare either way; GT(a,b) \
         must equal LT(b,a) and cmp.l prints T/F; the row looks shifted by one column",
    ),
    (
        "cmp.g",
        PFIN,
        PINF,
        Cell::Depends,
        Cell::F,
        "suspected manual erratum (cmp.g note): a finite value is never greater than +inf \
         (fp.ieee.compare-inf-exact); the printed T/F belongs one column to the left",
    ),
    (
        "cmp.g",
        PINF,
        PINF,
        Cell::T,
        Cell::F,
        "suspected manual erratum (cmp.g note): +inf > +inf is false, infinities being exact",
    ),
];

/// Printed `T/F*` cells that always evaluate to T (the notes of cmp.le, cmp.ge, cmpn.le,
/// cmpn.ge call them conservative): a flushed denormal equals zero, a kept one lies on the
/// right side of it, so LE/GE hold in both modes.
pub const CONSERVATIVE: &[(&str, usize, usize)] = &[
    ("cmp.le", NDEN, NZERO),
    ("cmp.le", NDEN, PZERO),
    ("cmp.le", NDEN, PDEN),
    ("cmp.le", NZERO, PDEN),
    ("cmp.le", PZERO, PDEN),
    ("cmp.ge", NZERO, NDEN),
    ("cmp.ge", PZERO, NDEN),
    ("cmp.ge", PDEN, NDEN),
    ("cmp.ge", PDEN, NZERO),
    ("cmp.ge", PDEN, PZERO),
    ("cmpn.le", NDEN, NZERO),
    ("cmpn.le", NDEN, PZERO),
    ("cmpn.le", NDEN, PDEN),
    ("cmpn.le", NZERO, PDEN),
    ("cmpn.le", PZERO, PDEN),
    ("cmpn.ge", NZERO, NDEN),
    ("cmpn.ge", PZERO, NDEN),
    ("cmpn.ge", PDEN, NDEN),
    ("cmpn.ge", PDEN, NZERO),
    ("cmpn.ge", PDEN, PZERO),
];

/// The erratum row of a printed cell, if it is one.
pub fn erratum(
    grid: &str,
    r: usize,
    c: usize,
) -> Option<&'static (&'static str, usize, usize, Cell, Cell, &'static str)> {
    MANUAL_ERRATA
        .iter()
        .find(|e| e.0 == grid && e.1 == r && e.2 == c)
}

/// Whether a printed `T/F*` cell is one of the conservative ones (always T).
pub fn is_conservative(grid: &str, r: usize, c: usize) -> bool {
    CONSERVATIVE
        .iter()
        .any(|e| e.0 == grid && e.1 == r && e.2 == c)
}
