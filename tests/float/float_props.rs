//! Property tests (proptest) of euref::float conversions and comparisons: invariants that hold
//! for every input, checked on random bit patterns biased to the edge classes.

use euref::float::{self, FloatEnv, FloatType};
use euref::fp::Round;
use euref::spec::compare::GridKind;
use euref::spec::{CondMod, DataType, Platform};
use proptest::prelude::*;

fn platform() -> impl Strategy<Value = Platform> {
    prop::sample::select(Platform::ALL.to_vec())
}

fn round() -> impl Strategy<Value = Round> {
    prop::sample::select(Round::ALL.to_vec())
}

/// An environment: platform, rounding, denorm bits (ALT off).
fn env() -> impl Strategy<Value = FloatEnv> {
    (platform(), round(), any::<bool>())
        .prop_map(|(p, r, k)| FloatEnv::new(p).with_rounding(r).with_denorms(k))
}

/// F bit patterns biased to the classes of the comparison grids.
fn f32_bits() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u32>().prop_map(|x| x as u64),
        (any::<bool>(), 0u32..0x0080_0000).prop_map(|(s, m)| ((s as u32) << 31 | m) as u64),
        prop::sample::select(vec![
            0u64,
            0x8000_0000,
            0x7F80_0000,
            0xFF80_0000,
            0x7FC0_0000,
            0x7F80_0001,
            0x7F7F_FFFF,
            0x0080_0000,
            0x3F80_0000,
        ]),
    ]
}

fn f64_bits() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        (any::<bool>(), 0u64..0x0010_0000_0000_0000).prop_map(|(s, m)| (s as u64) << 63 | m),
        prop::sample::select(vec![
            0u64,
            0x8000_0000_0000_0000,
            0x7FF0_0000_0000_0000,
            0xFFF0_0000_0000_0000,
            0x7FF8_0000_0000_0000,
            0x7FEF_FFFF_FFFF_FFFF,
            0x0010_0000_0000_0000,
        ]),
    ]
}

fn typed_pair() -> impl Strategy<Value = (FloatType, u64, u64)> {
    prop_oneof![
        (any::<u16>(), any::<u16>()).prop_map(|(a, b)| (FloatType::Hf, a as u64, b as u64)),
        (f32_bits(), f32_bits()).prop_map(|(a, b)| (FloatType::F, a, b)),
        (f64_bits(), f64_bits()).prop_map(|(a, b)| (FloatType::Df, a, b)),
    ]
}

const CONDS: [CondMod; 6] = [
    CondMod::Z,
    CondMod::Nz,
    CondMod::G,
    CondMod::Ge,
    CondMod::L,
    CondMod::Le,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// compare(a, b, .g) == compare(b, a, .l), .ge/.le likewise, .z/.nz symmetric; for cmpn
    /// the same when neither operand is NaN (cmpn.rule.no-nan-as-cmp).
    #[test]
    fn comparison_symmetry(e in env(), (ty, a, b) in typed_pair()) {
        let c = |m, k, x, y| float::compare(&e, m, k, ty, x, y);
        for k in [GridKind::Cmp, GridKind::Cmpn] {
            let no_nan = !ty.fmt().is_nan(a) && !ty.fmt().is_nan(b);
            if k == GridKind::Cmp || no_nan {
                prop_assert_eq!(c(CondMod::G, k, a, b), c(CondMod::L, k, b, a));
                prop_assert_eq!(c(CondMod::Ge, k, a, b), c(CondMod::Le, k, b, a));
                prop_assert_eq!(c(CondMod::Z, k, a, b), c(CondMod::Z, k, b, a));
                prop_assert_eq!(c(CondMod::Nz, k, a, b), !c(CondMod::Z, k, a, b));
                prop_assert_eq!(
                    c(CondMod::Ge, k, a, b),
                    c(CondMod::G, k, a, b) || c(CondMod::Z, k, a, b) && no_nan
                );
            }
            if no_nan {
                // Trichotomy for ordered operands.
                let n = [CondMod::L, CondMod::Z, CondMod::G]
                    .iter()
                    .filter(|m| c(**m, k, a, b))
                    .count();
                prop_assert_eq!(n, 1);
                for m in CONDS {
                    prop_assert_eq!(c(m, GridKind::Cmp, a, b), c(m, GridKind::Cmpn, a, b));
                }
            }
        }
        // .u is symmetric and means "a NaN operand".
        prop_assert_eq!(
            c(CondMod::U, GridKind::Cmp, a, b),
            ty.fmt().is_nan(a) || ty.fmt().is_nan(b)
        );
    }

    /// D -> F -> D is the identity for |x| < 2^24 in every rounding mode; likewise Q -> DF -> Q
    /// for |x| < 2^53 and W -> HF -> W for |x| <= 2048.
    #[test]
    fn int_float_int_round_trip(e in env(), x in -(1i64 << 24) + 1..(1i64 << 24), q in -(1i64 << 53) + 1..(1i64 << 53), w in -2048i64..=2048) {
        let f = float::convert(&e, DataType::D, DataType::F, x as u64, false).unwrap();
        let back = float::convert(&e, DataType::F, DataType::D, f.bits, false).unwrap();
        prop_assert_eq!(back.bits, x as u32 as u64);
        prop_assert!(!f.flags.inexact());
        if DataType::Q.on(e.platform) {
            let d = float::convert(&e, DataType::Q, DataType::DF, q as u64, false).unwrap();
            let back = float::convert(&e, DataType::DF, DataType::Q, d.bits, false).unwrap();
            prop_assert_eq!(back.bits, q as u64);
        }
        if DataType::HF.on(e.platform) {
            let h = float::convert(&e, DataType::W, DataType::HF, w as u64, false).unwrap();
            let back = float::convert(&e, DataType::HF, DataType::W, h.bits, false).unwrap();
            prop_assert_eq!(back.bits, w as u16 as u64);
        }
    }

    /// F -> DF -> F is the identity for every non-NaN F (exact widening, then a narrowing that
    /// needs no rounding), on every platform and rounding mode.
    #[test]
    fn f_df_f_round_trip(e in env(), a in f32_bits()) {
        let d = float::convert(&e, DataType::F, DataType::DF, a, false).unwrap();
        let back = float::convert(&e, DataType::DF, DataType::F, d.bits, false).unwrap();
        if FloatType::F.fmt().is_nan(a) {
            prop_assert_eq!(back.bits, FloatType::F.canonical_nan());
            prop_assert!(back.any_nan_allowed);
        } else {
            prop_assert_eq!(back.bits, a);
            prop_assert!(!back.flags.inexact() && !back.flags.underflow() && !back.flags.invalid());
        }
    }

    /// Float -> integer: truncation toward zero, NaN -> 0, out of range -> the bound, in
    /// every mode; saturation changes nothing.
    #[test]
    fn float_to_int_truncates_and_clamps(e in env(), a in f64_bits(), di in 0usize..8) {
        let dst = [DataType::UB, DataType::B, DataType::UW, DataType::W, DataType::UD, DataType::D, DataType::UQ, DataType::Q][di];
        prop_assume!(dst.on(e.platform));
        let o = float::convert(&e, DataType::DF, dst, a, false).unwrap();
        let s = float::convert(&e, DataType::DF, dst, a, true).unwrap();
        prop_assert_eq!(o.bits, s.bits);
        let (lo, hi) = float::int_range(dst).unwrap();
        let v = f64::from_bits(a);
        let want: i128 = if v.is_nan() {
            0
        } else if v.trunc() >= (hi + 1) as f64 {
            hi
        } else if v.trunc() < lo as f64 {
            lo
        } else {
            v.trunc() as i128
        };
        let n = dst.bits();
        let m = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        prop_assert_eq!(o.bits, (want as u64) & m);
    }

    /// Saturated float results are in [+0, 1], never NaN or negative (sat.float,
    /// fp.sat.zero-sign).
    #[test]
    fn float_saturation_range(e in env(), a in f64_bits(), di in 0usize..3) {
        let dst = [DataType::HF, DataType::F, DataType::DF][di];
        prop_assume!(dst.on(e.platform));
        let o = float::convert(&e, DataType::DF, dst, a, true).unwrap();
        let ty = FloatType::from_data_type(dst).unwrap();
        prop_assert!(!ty.fmt().is_nan(o.bits));
        prop_assert_eq!(o.bits & ty.sign(), 0);
        prop_assert!(ty.fmt().compare(o.bits, ty.one()) != euref::fp::FpOrd::Greater);
    }

    /// Where denormals are flushed, no arithmetic result is a denormal; in ALT mode no F
    /// result is inf, NaN or denormal.
    #[test]
    fn flushed_and_alt_results((ty, a, b) in typed_pair(), p in platform(), r in round()) {
        prop_assume!(ty.data_type().on(p));
        let flush = FloatEnv::new(p).with_rounding(r);
        for o in [float::add(&flush, ty, a, b), float::mul(&flush, ty, a, b), float::fma(&flush, ty, a, b, a)] {
            if euref::float::Policy::new(&flush, ty, euref::spec::FpOps::Arith).flushes_denormals() {
                prop_assert!(!ty.fmt().is_denormal(o.bits));
            }
            if ty.fmt().is_nan(o.bits) {
                prop_assert_eq!(o.bits, ty.canonical_nan());
                prop_assert!(o.any_nan_allowed);
            }
        }
        if ty == FloatType::F {
            let alt = flush.with_alt(true).with_denorms(true);
            for o in [
                float::add(&alt, ty, a, b),
                float::sub(&alt, ty, a, b),
                float::mul(&alt, ty, a, b),
                float::fma(&alt, ty, a, b, b),
                float::div(&alt, ty, a, b),
                float::sqrt(&alt, ty, a),
                float::min(&alt, ty, a, b),
            ] {
                let c = ty.fmt().classify(o.bits);
                prop_assert!(matches!(
                    c,
                    euref::fp::FpClass::PosFin
                        | euref::fp::FpClass::NegFin
                        | euref::fp::FpClass::PosZero
                        | euref::fp::FpClass::NegZero
                ), "{:?} {:#X}", c, o.bits);
            }
        }
    }

    /// Integer -> integer conversions: modular without saturation, clamped with it.
    #[test]
    fn int_int(x in any::<u64>(), si in 0usize..8, di in 0usize..8, p in platform()) {
        let ints = [DataType::UB, DataType::B, DataType::UW, DataType::W, DataType::UD, DataType::D, DataType::UQ, DataType::Q];
        let (s, d) = (ints[si], ints[di]);
        prop_assume!(s.on(p) && d.on(p));
        let e = FloatEnv::new(p);
        let n = s.bits();
        let xm = if n == 64 { x } else { x & ((1u64 << n) - 1) };
        let v: i128 = if s.is_signed() && xm >> (n - 1) & 1 == 1 { xm as i128 - (1i128 << n) } else { xm as i128 };
        let (lo, hi) = float::int_range(d).unwrap();
        let m = if d.bits() == 64 { u64::MAX } else { (1u64 << d.bits()) - 1 };
        prop_assert_eq!(float::convert(&e, s, d, x, false).unwrap().bits, (v as u64) & m);
        prop_assert_eq!(float::convert(&e, s, d, x, true).unwrap().bits, (v.clamp(lo, hi) as u64) & m);
    }
}
