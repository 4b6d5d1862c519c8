//! The comparison truth tables of spec/compare.toml, checked cell by cell against an
//! independent evaluation of the comparison on concrete F and DF values, with and without
//! denormal flushing. Cells the manual prints differently from what the comparison gives are
//! listed here explicitly (suspected manual errors and conservative `T/F*` cells), so a
//! change to a grid or to the evaluation shows up as a failure.

use euref::spec::compare::{self, Cell, GridCond, GridInfo, GridKind, CMPN_RULES, GRIDS};
use euref::spec::Platform;

// ------------------------------------------------------------------ value classes

use crate::compare_util;
use compare_util::*;

/// A sample value: kept as f64 (every F sample is exactly representable) plus whether it is
/// a denormal of its own format (so flushing knows what to zero).
#[derive(Clone, Copy, Debug)]
struct Sample {
    v: f64,
    denorm: bool,
}

fn s(v: f64) -> Sample {
    Sample { v, denorm: false }
}
fn d(v: f64) -> Sample {
    Sample { v, denorm: true }
}

/// Samples of each class for single precision.
fn f32_samples(class: usize) -> Vec<Sample> {
    let min_den = f32::from_bits(1) as f64;
    let max_den = f32::from_bits(0x007f_ffff) as f64;
    let mid_den = f32::from_bits(0x0000_1234) as f64;
    let min_norm = f32::MIN_POSITIVE as f64;
    let max = f32::MAX as f64;
    let nan_bits = [0x7fc0_0000u32, 0xffc0_0000, 0x7f80_0001, 0x7fbf_ffff];
    match class {
        NINF => vec![s(f64::NEG_INFINITY)],
        NFIN => vec![
            s(-max),
            s(-3.5),
            s(-1.0),
            s(-1.5),
            s(-min_norm),
            s(-1.0e-30_f32 as f64),
        ],
        NDEN => vec![d(-min_den), d(-mid_den), d(-max_den)],
        NZERO => vec![s(-0.0)],
        PZERO => vec![s(0.0)],
        PDEN => vec![d(min_den), d(mid_den), d(max_den)],
        PFIN => vec![
            s(max),
            s(3.5),
            s(1.0),
            s(1.5),
            s(min_norm),
            s(1.0e-30_f32 as f64),
        ],
        PINF => vec![s(f64::INFINITY)],
        NAN => nan_bits
            .iter()
            .map(|b| s(f32::from_bits(*b) as f64))
            .collect(),
        _ => unreachable!(),
    }
}

/// Samples of each class for double precision.
fn f64_samples(class: usize) -> Vec<Sample> {
    let min_den = f64::from_bits(1);
    let max_den = f64::from_bits(0x000f_ffff_ffff_ffff);
    let mid_den = f64::from_bits(0x0000_0123_4567_89ab);
    let min_norm = f64::MIN_POSITIVE;
    let max = f64::MAX;
    let nan_bits = [
        0x7ff8_0000_0000_0000u64,
        0xfff8_0000_0000_0000,
        0x7ff0_0000_0000_0001,
    ];
    match class {
        NINF => vec![s(f64::NEG_INFINITY)],
        NFIN => vec![
            s(-max),
            s(-3.5),
            s(-1.0),
            s(-2.5e300),
            s(-min_norm),
            s(-1.0e-300),
        ],
        NDEN => vec![d(-min_den), d(-mid_den), d(-max_den)],
        NZERO => vec![s(-0.0)],
        PZERO => vec![s(0.0)],
        PDEN => vec![d(min_den), d(mid_den), d(max_den)],
        PFIN => vec![s(max), s(3.5), s(1.0), s(2.5e300), s(min_norm), s(1.0e-300)],
        PINF => vec![s(f64::INFINITY)],
        NAN => nan_bits.iter().map(|b| s(f64::from_bits(*b))).collect(),
        _ => unreachable!(),
    }
}

fn samples(class: usize) -> Vec<Sample> {
    let mut v = f32_samples(class);
    v.extend(f64_samples(class));
    v
}

// ------------------------------------------------------------------ independent evaluation

/// Flush a denormal to a zero of the same sign.
fn flushed(x: Sample, flush: bool) -> f64 {
    if flush && x.denorm {
        if x.v.is_sign_negative() {
            -0.0
        } else {
            0.0
        }
    } else {
        x.v
    }
}

/// The ordered comparison of two non-NaN values.
fn ordered(c: GridCond, a: f64, b: f64) -> bool {
    match c {
        GridCond::G => a > b,
        GridCond::L => a < b,
        GridCond::Z => a == b,
        GridCond::Nz => a != b,
        GridCond::Le => a <= b,
        GridCond::Ge => a >= b,
    }
}

/// A normal comparison (cmp or a condition modifier): any NaN makes EQ/GT/GE/LT/LE false and
/// NE true.
fn cmp_eval(c: GridCond, a: f64, b: f64) -> bool {
    if a.is_nan() || b.is_nan() {
        return c == GridCond::Nz;
    }
    ordered(c, a, b)
}

/// Compare-NaN: src1 NaN -> true (NE: false); src0 NaN, src1 not -> false (NE: true).
fn cmpn_eval(c: GridCond, a: f64, b: f64) -> bool {
    if b.is_nan() {
        return c != GridCond::Nz;
    }
    if a.is_nan() {
        return c == GridCond::Nz;
    }
    ordered(c, a, b)
}

fn eval(kind: GridKind, c: GridCond, a: f64, b: f64) -> bool {
    match kind {
        GridKind::Cmp => cmp_eval(c, a, b),
        GridKind::Cmpn => cmpn_eval(c, a, b),
    }
}

/// Pairs of samples of two classes, same format only (F with F, DF with DF).
fn pairs(r: usize, c: usize) -> Vec<(Sample, Sample)> {
    let mut out = vec![];
    for (fa, fb) in [
        (f32_samples(r), f32_samples(c)),
        (f64_samples(r), f64_samples(c)),
    ] {
        for a in &fa {
            for b in &fb {
                out.push((*a, *b));
            }
        }
    }
    out
}

/// What the cell should say according to the evaluation: constant T or F; `T/F` when the
/// result varies with the values only; `T/F*` when it also varies with the denorm mode.
fn derived_cell(kind: GridKind, cond: GridCond, r: usize, c: usize) -> Cell {
    let mut seen_t = false;
    let mut seen_f = false;
    let mut mode_dependent = false;
    for (a, b) in pairs(r, c) {
        let keep = eval(kind, cond, flushed(a, false), flushed(b, false));
        let flush = eval(kind, cond, flushed(a, true), flushed(b, true));
        seen_t |= keep || flush;
        seen_f |= !keep || !flush;
        mode_dependent |= keep != flush;
    }
    match (seen_t, seen_f) {
        (true, false) => Cell::T,
        (false, true) => Cell::F,
        _ if mode_dependent => Cell::DependsDenorm,
        _ => Cell::Depends,
    }
}

// ------------------------------------------------------------------ known differences

fn by_id(id: &str) -> &'static GridInfo {
    GRIDS
        .iter()
        .find(|g| g.id == id)
        .unwrap_or_else(|| panic!("grid {id} missing"))
}

const CONDS: [(GridCond, &str); 6] = [
    (GridCond::G, "g"),
    (GridCond::L, "l"),
    (GridCond::Z, "z"),
    (GridCond::Nz, "nz"),
    (GridCond::Le, "le"),
    (GridCond::Ge, "ge"),
];

fn grid_id(kind: GridKind, suffix: &str) -> String {
    match kind {
        GridKind::Cmp => format!("cmp.{suffix}"),
        GridKind::Cmpn => format!("cmpn.{suffix}"),
    }
}

// ------------------------------------------------------------------ tests

#[test]
fn twelve_grids_with_expected_ids() {
    let ids: Vec<&str> = GRIDS.iter().map(|g| g.id).collect();
    for id in [
        "cmp.g", "cmp.l", "cmp.z", "cmp.nz", "cmp.le", "cmp.ge", "cmpn.g", "cmpn.l", "cmpn.z",
        "cmpn.nz", "cmpn.le", "cmpn.ge",
    ] {
        assert!(ids.contains(&id), "missing grid {id}");
    }
    assert_eq!(GRIDS.len(), 12);
    for kind in [GridKind::Cmp, GridKind::Cmpn] {
        for (cond, suffix) in CONDS {
            for p in Platform::ALL {
                let g = compare::grid(kind, cond, p).expect("grid for every platform");
                assert_eq!(g.id, grid_id(kind, suffix));
                assert_eq!(g.kind, kind);
                assert_eq!(g.cmod, cond);
                assert!(g.cite.contains("seed000 §2.3.1."), "{}", g.id);
            }
        }
    }
}

#[test]
fn every_cell_matches_independent_evaluation() {
    let mut errata_seen = 0;
    let mut conservative_seen = 0;
    for g in GRIDS.iter() {
        for r in 0..9 {
            for c in 0..9 {
                let printed = g.cells[r][c];
                let derived = derived_cell(g.kind, g.cmod, r, c);
                let erratum = erratum(g.id, r, c);
                let conservative = is_conservative(g.id, r, c);
                let at = format!(
                    "{} ({}, {})",
                    g.id,
                    compare::CLASSES[r],
                    compare::CLASSES[c]
                );
                if let Some(e) = erratum {
                    assert_eq!(printed, e.3, "{at}: erratum list out of date");
                    assert_eq!(derived, e.4, "{at}: erratum list out of date");
                    assert_ne!(printed, derived, "{at}");
                    errata_seen += 1;
                } else if conservative {
                    assert_eq!(printed, Cell::DependsDenorm, "{at}");
                    assert_eq!(derived, Cell::T, "{at}: no longer constant");
                    conservative_seen += 1;
                } else {
                    assert_eq!(printed, derived, "{at}");
                }
            }
        }
    }
    assert_eq!(errata_seen, MANUAL_ERRATA.len());
    assert_eq!(conservative_seen, CONSERVATIVE.len());
}

/// The brief's cell semantics, spelled out per cell kind: T true for every sample pair in both
/// denorm modes, F false for all, T/F both outcomes among value pairs with no denorm-mode
/// effect, T/F* both outcomes once the denorm mode varies too.
#[test]
fn cell_semantics_over_samples() {
    for g in GRIDS.iter() {
        for r in 0..9 {
            for c in 0..9 {
                let skip = erratum(g.id, r, c).is_some() || is_conservative(g.id, r, c);
                if skip {
                    continue;
                }
                let mut outs = vec![];
                for (a, b) in pairs(r, c) {
                    for flush in [false, true] {
                        outs.push((
                            flush,
                            eval(g.kind, g.cmod, flushed(a, flush), flushed(b, flush)),
                        ));
                    }
                }
                let at = format!(
                    "{} ({}, {})",
                    g.id,
                    compare::CLASSES[r],
                    compare::CLASSES[c]
                );
                match g.cells[r][c] {
                    Cell::T => assert!(outs.iter().all(|o| o.1), "{at}"),
                    Cell::F => assert!(outs.iter().all(|o| !o.1), "{at}"),
                    Cell::Depends => {
                        let kept: Vec<bool> = outs.iter().filter(|o| !o.0).map(|o| o.1).collect();
                        assert!(kept.contains(&true) && kept.contains(&false), "{at}");
                    }
                    Cell::DependsDenorm => {
                        assert!(r == NDEN || r == PDEN || c == NDEN || c == PDEN, "{at}");
                        assert!(
                            outs.iter().any(|o| o.1) && outs.iter().any(|o| !o.1),
                            "{at}"
                        );
                    }
                }
            }
        }
    }
}

/// `T/F*` cells only ever involve a denormal operand; `T/F` cells only same-sign finite pairs.
#[test]
fn depends_cells_are_where_the_manual_says() {
    for g in GRIDS.iter() {
        for r in 0..9 {
            for c in 0..9 {
                match g.cells[r][c] {
                    Cell::Depends => {
                        let fin = [(NFIN, NFIN), (PFIN, PFIN)].contains(&(r, c));
                        let erratum = erratum(g.id, r, c).is_some();
                        assert!(fin || erratum, "{} ({r}, {c})", g.id);
                    }
                    Cell::DependsDenorm => {
                        assert!([r, c].iter().any(|k| *k == NDEN || *k == PDEN))
                    }
                    _ => {}
                }
            }
        }
    }
}

/// GT(a, b) = LT(b, a) and LE(a, b) = GE(b, a); EQ and NE are symmetric; NE is the negation
/// of EQ. For the printed cmp grids the cmp.g errata are the only exceptions.
#[test]
fn symmetry_of_normal_comparison_grids() {
    let g = by_id("cmp.g");
    let l = by_id("cmp.l");
    let le = by_id("cmp.le");
    let ge = by_id("cmp.ge");
    let z = by_id("cmp.z");
    let nz = by_id("cmp.nz");
    let mut asym = vec![];
    for r in 0..9 {
        for c in 0..9 {
            if g.cells[r][c] != l.cells[c][r] {
                asym.push((r, c));
            }
            assert_eq!(le.cells[r][c], ge.cells[c][r], "LE/GE ({r}, {c})");
            assert_eq!(z.cells[r][c], z.cells[c][r], "EQ ({r}, {c})");
            assert_eq!(nz.cells[r][c], nz.cells[c][r], "NE ({r}, {c})");
            let negated = match z.cells[r][c] {
                Cell::T => Cell::F,
                Cell::F => Cell::T,
                other => other,
            };
            assert_eq!(nz.cells[r][c], negated, "NE = !EQ ({r}, {c})");
        }
    }
    let errata: Vec<(usize, usize)> = MANUAL_ERRATA
        .iter()
        .filter(|e| e.0 == "cmp.g")
        .map(|e| (e.1, e.2))
        .collect();
    assert_eq!(asym, errata, "GT/LT asymmetry is exactly the cmp.g errata");

    // The evaluation itself is symmetric for every cell (independent of the printed grids).
    for r in 0..9 {
        for c in 0..9 {
            assert_eq!(
                derived_cell(GridKind::Cmp, GridCond::G, r, c),
                derived_cell(GridKind::Cmp, GridCond::L, c, r)
            );
        }
    }
}

/// cmpn grids: GT/LT and LE/GE symmetric on the non-NaN 8x8 part; equal to the normal grids
/// there (with the correct values where cmp.g is misprinted); the NaN row and column per the
/// §2.3.1.1 rules.
#[test]
fn cmpn_grids_follow_the_rules() {
    for (cond, suffix) in CONDS {
        let n = by_id(&format!("cmpn.{suffix}"));
        let m = by_id(&format!("cmp.{suffix}"));
        let ne = cond == GridCond::Nz;
        // cmpn.rule.src1-nan and cmpn.rule.ne-src1-nan: the last column.
        for r in 0..9 {
            assert_eq!(
                n.cells[r][NAN],
                if ne { Cell::F } else { Cell::T },
                "{} ({r}, NaN)",
                n.id
            );
        }
        // cmpn.rule.src0-nan and cmpn.rule.ne-src0-nan: the last row without the last column.
        for c in 0..8 {
            assert_eq!(
                n.cells[NAN][c],
                if ne { Cell::T } else { Cell::F },
                "{} (NaN, {c})",
                n.id
            );
        }
        // cmpn.rule.no-nan-as-cmp: the non-NaN part is the normal comparison.
        for r in 0..8 {
            for c in 0..8 {
                let correct = erratum(m.id, r, c).map(|e| e.4).unwrap_or(m.cells[r][c]);
                assert_eq!(n.cells[r][c], correct, "{} ({r}, {c})", n.id);
            }
        }
    }
    let g = by_id("cmpn.g");
    let l = by_id("cmpn.l");
    let le = by_id("cmpn.le");
    let ge = by_id("cmpn.ge");
    for r in 0..8 {
        for c in 0..8 {
            assert_eq!(g.cells[r][c], l.cells[c][r]);
            assert_eq!(le.cells[r][c], ge.cells[c][r]);
        }
    }
}

fn rule(id: &str) -> &'static compare::CmpnRule {
    CMPN_RULES
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("cmpn rule {id} missing"))
}

#[test]
fn cmpn_rules_present_and_consistent() {
    let ids = [
        "cmpn.rule.src1-nan",
        "cmpn.rule.src0-nan",
        "cmpn.rule.ne-src1-nan",
        "cmpn.rule.ne-src0-nan",
        "cmpn.rule.no-nan-as-cmp",
        "cmpn.rule.minmax-one-nan",
        "cmpn.rule.minmax-two-nan",
        "cmpn.rule.minmax-by-sel",
        "cmpn.rule.sel-flags-untouched",
    ];
    assert_eq!(CMPN_RULES.len(), ids.len());
    for id in ids {
        let r = rule(id);
        for p in Platform::ALL {
            assert!(r.gens.contains(p), "{id} on {p:?}");
        }
        assert!(r.cite.starts_with("seed000 §2.3.1."), "{id}");
    }
    // The rule texts name what the grids check above.
    assert!(rule("cmpn.rule.src1-nan").text.contains("TRUE"));
    assert!(rule("cmpn.rule.src0-nan").text.contains("FALSE"));
    assert!(rule("cmpn.rule.ne-src1-nan").text.contains("FALSE"));
    assert!(rule("cmpn.rule.ne-src0-nan").text.contains("TRUE"));
    assert!(rule("cmpn.rule.minmax-two-nan").text.contains("src1"));
    assert!(rule("cmpn.rule.sel-flags-untouched").text.contains("flag"));
    assert!(rule("cmpn.rule.minmax-by-sel").text.contains("sel"));
}

/// A reference min/max built from the cmpn evaluation and sel's "true picks src0", plus the
/// explicit two-NaN rule.
fn sel_minmax(cond: GridCond, a: f64, b: f64) -> f64 {
    if a.is_nan() && b.is_nan() {
        return b; // cmpn.rule.minmax-two-nan
    }
    if cmpn_eval(cond, a, b) {
        a
    } else {
        b
    }
}

#[test]
fn minmax_from_cmpn() {
    let nan = f64::NAN;
    for cond in [GridCond::L, GridCond::Ge] {
        // cmpn.rule.minmax-one-nan through cmpn.rule.minmax-by-sel.
        assert_eq!(sel_minmax(cond, 2.0, nan), 2.0);
        assert_eq!(sel_minmax(cond, nan, 2.0), 2.0);
        assert_eq!(sel_minmax(cond, f64::INFINITY, nan), f64::INFINITY);
        // Two NaNs: src1, identified by its sign.
        let r = sel_minmax(cond, nan, -nan);
        assert!(r.is_nan() && r.is_sign_negative());
        // Both NaN: the cmpn truth value alone would pick src0 (documented in the rule note).
        assert!(cmpn_eval(cond, nan, -nan));
    }
    assert_eq!(sel_minmax(GridCond::L, 1.0, 2.0), 1.0);
    assert_eq!(sel_minmax(GridCond::Ge, 1.0, 2.0), 2.0);
    assert_eq!(sel_minmax(GridCond::L, -0.0, 3.0), -0.0);
}

#[test]
fn samples_are_of_their_class() {
    for class in 0..9 {
        for x in f32_samples(class) {
            let f = x.v as f32;
            assert!(f as f64 == x.v || f.is_nan());
            check_class(class, f.classify(), f.is_sign_negative(), x.denorm);
        }
        for x in f64_samples(class) {
            check_class(class, x.v.classify(), x.v.is_sign_negative(), x.denorm);
        }
        assert!(!samples(class).is_empty());
    }
}

fn check_class(class: usize, c: std::num::FpCategory, neg: bool, denorm: bool) {
    use std::num::FpCategory::*;
    let ok = match class {
        NINF => c == Infinite && neg,
        NFIN => c == Normal && neg,
        NDEN => c == Subnormal && neg && denorm,
        NZERO => c == Zero && neg,
        PZERO => c == Zero && !neg,
        PDEN => c == Subnormal && !neg && denorm,
        PFIN => c == Normal && !neg,
        PINF => c == Infinite && !neg,
        NAN => c == Nan,
        _ => false,
    };
    assert!(ok, "class {class}: {c:?} neg={neg}");
}
