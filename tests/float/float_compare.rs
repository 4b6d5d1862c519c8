//! euref::float::compare against every cell of every grid of spec/compare.toml: the comparison
//! is computed arithmetically (IEEE relation of the operands after the denorm handling of the
//! mode), evaluated here on concrete HF, F and DF values of each class with denormals kept and
//! flushed, and the cell it implies is compared with the printed cell. The printed cells that
//! differ are listed below, each with its reason. Also: cmpn-based min/max (sel).

use euref::float::{self, FloatEnv, FloatType};
use euref::spec::compare::{self, Cell, GridCond, GridKind, GRIDS};
use euref::spec::{CondMod, Platform};

use FloatType::{Df, Hf, F};

use crate::compare_util;
use compare_util::*;

/// Encodings of each class for a type: (sign bit, +inf, largest finite, a few normal
/// magnitudes, denormal magnitudes, NaNs).
fn class_samples(ty: FloatType, class: usize) -> Vec<u64> {
    let (sign, inf, fin, den, nans): (u64, u64, Vec<u64>, Vec<u64>, Vec<u64>) = match ty {
        Hf => (
            0x8000,
            0x7C00,
            vec![0x7BFF, 0x4300, 0x3C00, 0x3E00, 0x0400, 0x0401],
            vec![0x0001, 0x0123, 0x03FF],
            vec![0x7E00, 0xFE00, 0x7C01],
        ),
        F => (
            0x8000_0000,
            0x7F80_0000,
            vec![
                0x7F7F_FFFF,
                0x4060_0000,
                0x3F80_0000,
                0x3FC0_0000,
                0x0080_0000,
                0x0DA2_4260,
            ],
            vec![0x0000_0001, 0x0000_1234, 0x007F_FFFF],
            vec![0x7FC0_0000, 0xFFC0_0000, 0x7F80_0001, 0x7FBF_FFFF],
        ),
        Df => (
            0x8000_0000_0000_0000,
            0x7FF0_0000_0000_0000,
            vec![
                0x7FEF_FFFF_FFFF_FFFF,
                0x400C_0000_0000_0000,
                0x3FF0_0000_0000_0000,
                0x7E3D_7EE8_BCBB_D352,
                0x0010_0000_0000_0000,
                0x01A5_6E1F_C2F8_F359,
            ],
            vec![1, 0x0000_0123_4567_89AB, 0x000F_FFFF_FFFF_FFFF],
            vec![
                0x7FF8_0000_0000_0000,
                0xFFF8_0000_0000_0000,
                0x7FF0_0000_0000_0001,
            ],
        ),
    };
    match class {
        NINF => vec![sign | inf],
        NFIN => fin.iter().map(|x| x | sign).collect(),
        NDEN => den.iter().map(|x| x | sign).collect(),
        NZERO => vec![sign],
        PZERO => vec![0],
        PDEN => den,
        PFIN => fin,
        PINF => vec![inf],
        _ => nans,
    }
}

fn cmod_of(c: GridCond) -> CondMod {
    match c {
        GridCond::G => CondMod::G,
        GridCond::L => CondMod::L,
        GridCond::Z => CondMod::Z,
        GridCond::Nz => CondMod::Nz,
        GridCond::Le => CondMod::Le,
        GridCond::Ge => CondMod::Ge,
    }
}

/// Environments with denormals kept and flushed where a cr0 bit controls them (skl: HF bit
/// 10, F bit 7, DF bit 6).
fn envs() -> (FloatEnv, FloatEnv) {
    let e = FloatEnv::new(Platform::Skl);
    (e.with_denorms(true), e.with_denorms(false))
}

/// The cell the arithmetic comparison implies for (src0 class, src1 class).
fn derived(kind: GridKind, cond: GridCond, r: usize, c: usize) -> Cell {
    let (keep, flush) = envs();
    let cmod = cmod_of(cond);
    let (mut t, mut f, mut mode_dependent) = (false, false, false);
    for ty in [Hf, F, Df] {
        for a in class_samples(ty, r) {
            for b in class_samples(ty, c) {
                let k = float::compare(&keep, cmod, kind, ty, a, b);
                let fl = float::compare(&flush, cmod, kind, ty, a, b);
                t |= k || fl;
                f |= !k || !fl;
                mode_dependent |= k != fl;
            }
        }
    }
    match (t, f) {
        (true, false) => Cell::T,
        (false, true) => Cell::F,
        _ if mode_dependent => Cell::DependsDenorm,
        _ => Cell::Depends,
    }
}

#[test]
fn every_grid_cell_agrees_with_the_arithmetic_comparison() {
    let (mut errata, mut conservative, mut checked) = (0, 0, 0);
    for g in GRIDS.iter() {
        for r in 0..9 {
            for c in 0..9 {
                let printed = g.cells[r][c];
                let got = derived(g.kind, g.cmod, r, c);
                let at = format!(
                    "{} ({}, {})",
                    g.id,
                    compare::CLASSES[r],
                    compare::CLASSES[c]
                );
                if let Some(e) = erratum(g.id, r, c) {
                    assert_eq!((printed, got), (e.3, e.4), "{at}: {}", e.5);
                    errata += 1;
                } else if is_conservative(g.id, r, c) {
                    assert_eq!((printed, got), (Cell::DependsDenorm, Cell::T), "{at}");
                    conservative += 1;
                } else {
                    assert_eq!(printed, got, "{at}");
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(errata, MANUAL_ERRATA.len());
    assert_eq!(conservative, CONSERVATIVE.len());
    assert_eq!(checked, 12 * 81 - errata - conservative);
}

/// On Gen7 F has no denorm bit: the T/F* cells resolve as flushed whatever cr0 says
/// (fp.ieee.denorm.f.gen7), while DF follows cr0.0 bit 6.
#[test]
fn gen7_f_denormals_compare_flushed() {
    let keep = FloatEnv::new(Platform::Ivb).with_denorms(true);
    let flush = FloatEnv::new(Platform::Ivb);
    for a in class_samples(F, NDEN) {
        for b in class_samples(F, PZERO) {
            assert!(float::compare(&keep, CondMod::Z, GridKind::Cmp, F, a, b));
            assert!(!float::compare(&keep, CondMod::L, GridKind::Cmp, F, a, b));
        }
    }
    let a = class_samples(Df, NDEN)[0];
    assert!(float::compare(&keep, CondMod::L, GridKind::Cmp, Df, a, 0));
    assert!(!float::compare(&flush, CondMod::L, GridKind::Cmp, Df, a, 0));
}

/// .u and .o on comparisons, and the none modifier.
#[test]
fn unordered_and_overflow_modifiers() {
    let (keep, _) = envs();
    for ty in [Hf, F, Df] {
        for r in 0..9 {
            for c in 0..9 {
                for a in class_samples(ty, r) {
                    for b in class_samples(ty, c) {
                        for kind in [GridKind::Cmp, GridKind::Cmpn] {
                            // fp.cmod.unordered: either operand NaN.
                            let u = float::compare(&keep, CondMod::U, kind, ty, a, b);
                            assert_eq!(u, r == NAN || c == NAN);
                            // fp.cmod.overflow: never for a comparison.
                            assert!(!float::compare(&keep, CondMod::O, kind, ty, a, b));
                            assert!(!float::compare(&keep, CondMod::None, kind, ty, a, b));
                        }
                    }
                }
            }
        }
    }
}

/// Min/max by sel with the compare-NaN rules: cmpn.rule.minmax-by-sel (true picks src0),
/// cmpn.rule.minmax-one-nan (the non-NaN operand), cmpn.rule.minmax-two-nan (src1), exact bits;
/// cmpn.rule.sel-flags-untouched: the result is a value only, no flag is produced.
#[test]
fn min_max_by_sel() {
    let (keep, flush) = envs();
    for ty in [Hf, F, Df] {
        for r in 0..9 {
            for c in 0..9 {
                for a in class_samples(ty, r) {
                    for b in class_samples(ty, c) {
                        let mn = float::min(&keep, ty, a, b);
                        let mx = float::max(&keep, ty, a, b);
                        let (want_min, want_max) = if r == NAN {
                            // src0 NaN (one NaN: the other operand; two NaNs: src1).
                            (b, b)
                        } else if c == NAN {
                            (a, a)
                        } else {
                            let l = float::compare(&keep, CondMod::L, GridKind::Cmpn, ty, a, b);
                            let ge = float::compare(&keep, CondMod::Ge, GridKind::Cmpn, ty, a, b);
                            (if l { a } else { b }, if ge { a } else { b })
                        };
                        assert_eq!(mn.bits, want_min, "{ty:?} min({a:#X}, {b:#X})");
                        assert_eq!(mx.bits, want_max, "{ty:?} max({a:#X}, {b:#X})");
                        assert_eq!(mn.any_nan_allowed, r == NAN && c == NAN);
                        let s = float::sel_minmax(&keep, ty, CondMod::L, a, b);
                        assert_eq!(s.bits, mn.bits);
                    }
                }
            }
        }
    }
    // With denormals flushed, a denormal operand is read (and selected) as a signed zero.
    assert_eq!(
        float::min(&flush, F, 0x8000_0001, 0x3F80_0000).bits,
        0x8000_0000
    );
    assert_eq!(float::max(&keep, F, 0x0000_0001, 0).bits, 1);
    // -0 vs +0 compare equal: min picks src1, max (ge true) src0.
    assert_eq!(float::min(&keep, F, 0x8000_0000, 0).bits, 0);
    assert_eq!(float::max(&keep, F, 0x8000_0000, 0).bits, 0x8000_0000);
}
