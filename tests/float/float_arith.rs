//! euref::float arithmetic: one behaviour test (real bit patterns) per spec/float_modes.toml row,
//! on the platforms and cr0 settings the row concerns.

use euref::float::{self, cond_flag, FloatEnv, FloatOut, FloatType, Policy};
use euref::fp::Round;
use euref::spec::compare::GridKind;
use euref::spec::registers::field;
use euref::spec::{CondMod, FpOps, Platform};

use FloatType::{Df, Hf, F};
use Platform::*;

// F encodings.
const F_ONE: u64 = 0x3F80_0000;
const F_TWO: u64 = 0x4000_0000;
const F_THREE: u64 = 0x4040_0000;
const F_HALF: u64 = 0x3F00_0000;
const F_INF: u64 = 0x7F80_0000;
const F_NINF: u64 = 0xFF80_0000;
const F_MAX: u64 = 0x7F7F_FFFF;
const F_NMAX: u64 = 0xFF7F_FFFF;
const F_NAN: u64 = 0x7FC0_0000;
const F_SNAN: u64 = 0x7F80_0001;
const F_NZERO: u64 = 0x8000_0000;
const F_MIN_NORMAL: u64 = 0x0080_0000;
// DF encodings.
const D_ONE: u64 = 0x3FF0_0000_0000_0000;
const D_INF: u64 = 0x7FF0_0000_0000_0000;
const D_NAN: u64 = 0x7FF8_0000_0000_0000;
// HF encodings.
const H_TWO: u64 = 0x4000;

fn ieee(p: Platform) -> FloatEnv {
    FloatEnv::new(p)
}
/// Every denorm bit of the platform set (denormals kept where a bit controls them).
fn keep(p: Platform) -> FloatEnv {
    FloatEnv::new(p).with_denorms(true)
}
fn alt(p: Platform) -> FloatEnv {
    FloatEnv::from_cr0(p, field::CR0_0_FP_MODE.set(0, 1))
}
fn rounding(p: Platform, r: Round) -> FloatEnv {
    FloatEnv::from_cr0(p, field::CR0_0_ROUNDING_MODE.set(0, r.to_cr0_bits())).with_denorms(true)
}
fn has(o: &FloatOut, id: &str) -> bool {
    o.rules.contains(id)
}

// ------------------------------------------------------------------ mode selection, IEEE basics

#[test]
fn mode_select_and_default() {
    // fp.mode.cr0-select: cr0.0 bit 0 selects ALT for F: inf + 1 stays inf in IEEE mode, is
    // read as fmax in ALT.
    let e = FloatEnv::from_cr0(Skl, 0);
    assert_eq!(float::add(&e, F, F_INF, F_ONE).bits, F_INF);
    let a = FloatEnv::from_cr0(Skl, 1);
    assert!(a.alt);
    assert_eq!(float::add(&a, F, F_INF, F_ONE).bits, F_MAX);
    // fp.ieee.default: plain IEEE results: 1 + 2 = 3, 1.5 * 2 = 3 (F, DF, HF).
    assert_eq!(float::add(&e, F, F_ONE, F_TWO).bits, F_THREE);
    assert_eq!(float::mul(&e, F, 0x3FC0_0000, F_TWO).bits, F_THREE);
    assert_eq!(float::add(&e, Df, D_ONE, D_ONE).bits, 0x4000_0000_0000_0000);
    assert_eq!(float::add(&e, Hf, 0x3C00, 0x3C00).bits, H_TWO);
}

#[test]
fn honoured_special_cases() {
    let e = ieee(Skl);
    // fp.ieee.inf-minus-inf
    let r = float::add(&e, F, F_INF, F_NINF);
    assert_eq!((r.bits, r.any_nan_allowed), (F_NAN, true));
    assert!(r.flags.invalid());
    assert_eq!(float::sub(&e, Df, D_INF, D_INF).bits, D_NAN);
    // fp.ieee.zero-times-inf
    assert_eq!(float::mul(&e, F, 0, F_INF).bits, F_NAN);
    assert_eq!(float::mul(&e, F, F_NZERO, F_NINF).bits, F_NAN);
    // fp.ieee.inv-of-inf: 1/+inf = +0, 1/-inf = -0 (FDIV model value).
    assert_eq!(float::div(&e, F, F_ONE, F_INF).bits, 0);
    assert_eq!(float::div(&e, F, F_ONE, F_NINF).bits, F_NZERO);
    assert_eq!(float::div(&e, Hf, 0x3C00, 0x7C00).bits, 0);
    // fp.ieee.inf-div-inf: inf/inf = NaN, also as inf * (1/inf) = inf * 0.
    assert_eq!(float::div(&e, F, F_INF, F_INF).bits, F_NAN);
    let inv = float::div(&e, F, F_ONE, F_INF).bits;
    assert_eq!(float::mul(&e, F, F_INF, inv).bits, F_NAN);
    // fp.ieee.inv-rsq-sqrt-of-zero: 1/+0 = +inf, 1/-0 = -inf, sqrt(-0) = -0.
    assert_eq!(float::div(&e, F, F_ONE, 0).bits, F_INF);
    assert_eq!(float::div(&e, F, F_ONE, F_NZERO).bits, F_NINF);
    assert_eq!(float::sqrt(&e, F, F_NZERO).bits, F_NZERO);
    // fp.ieee.rsq-sqrt-of-negative
    let s = float::sqrt(&e, F, 0xBF80_0000);
    assert_eq!((s.bits, s.any_nan_allowed), (F_NAN, true));
    // fp.ieee.log-of-zero-negative concerns math LOG (the math module, issue 3 item 7); its
    // table test is tests/float/float_modes_table.rs. The FDIV/SQRT counterparts are above.
}

#[test]
fn nan_policy() {
    let e = ieee(Bdw);
    // fp.ieee.nan-propagates and fp.ieee.nan-any-pattern: a NaN operand (any payload, sign,
    // signalling or quiet) gives the canonical NaN, and any NaN is allowed.
    for nan in [F_SNAN, 0xFFC0_0123, 0x7FBF_FFFF, F_NAN] {
        for r in [
            float::add(&e, F, nan, F_ONE),
            float::mul(&e, F, F_TWO, nan),
            float::fma(&e, F, F_ONE, F_ONE, nan),
            float::div(&e, F, nan, F_TWO),
        ] {
            assert_eq!(r.bits, F_NAN, "{nan:08X}");
            assert!(r.any_nan_allowed);
            assert!(has(&r, "fp.ieee.nan-any-pattern"));
        }
    }
    assert_eq!(float::add(&e, Df, 0xFFF0_0000_0000_0001, D_ONE).bits, D_NAN);
    assert_eq!(float::add(&e, Hf, 0xFE01, 0x3C00).bits, 0x7E00);
    // ...except min/max (fp.ieee.minmax-nan): the other operand, exact bits.
    let m = float::min(&e, F, 0xFFC0_0123, F_TWO);
    assert_eq!((m.bits, m.any_nan_allowed), (F_TWO, false));
    assert!(has(&m, "fp.ieee.minmax-nan"));
    let m = float::max(&e, F, F_TWO, F_SNAN);
    assert_eq!(m.bits, F_TWO);
    // Two NaNs: src1's bits exactly (cmpn.rule.minmax-two-nan), any NaN allowed.
    let m = float::max(&e, F, 0x7FC0_0001, 0xFFC0_0002);
    assert_eq!((m.bits, m.any_nan_allowed), (0xFFC0_0002, true));
}

#[test]
fn compare_rules() {
    let e = ieee(Skl);
    let cmp = |c, a, b| float::compare(&e, c, GridKind::Cmp, F, a, b);
    let cmpn = |c, a, b| float::compare(&e, c, GridKind::Cmpn, F, a, b);
    // fp.ieee.compare-nan: EQ/GT/GE/LT/LE false with a NaN, NE true.
    for c in [CondMod::Z, CondMod::G, CondMod::Ge, CondMod::L, CondMod::Le] {
        assert!(!cmp(c, F_NAN, F_ONE) && !cmp(c, F_ONE, F_NAN) && !cmp(c, F_NAN, F_NAN));
    }
    assert!(cmp(CondMod::Nz, F_NAN, F_ONE) && cmp(CondMod::Nz, F_ONE, F_SNAN));
    let o = float::compare_out(&e, CondMod::Z, GridKind::Cmp, F, F_NAN, F_ONE);
    assert!(o.rules.contains("fp.ieee.compare-nan"));
    // fp.ieee.cmpn-nan: src1 NaN -> true (NE false); src0 NaN only -> false (NE true).
    for c in [CondMod::Z, CondMod::G, CondMod::Ge, CondMod::L, CondMod::Le] {
        assert!(cmpn(c, F_ONE, F_NAN) && cmpn(c, F_NAN, F_NAN) && !cmpn(c, F_NAN, F_ONE));
    }
    assert!(!cmpn(CondMod::Nz, F_ONE, F_NAN) && cmpn(CondMod::Nz, F_NAN, F_ONE));
    let o = float::compare_out(&e, CondMod::G, GridKind::Cmpn, F, F_ONE, F_NAN);
    assert!(o.rules.contains("fp.ieee.cmpn-nan"));
    // fp.ieee.compare-inf-exact: infinities are exact values.
    assert!(cmp(CondMod::Z, F_INF, F_INF) && cmp(CondMod::Z, F_NINF, F_NINF));
    assert!(cmp(CondMod::L, F_MAX, F_INF) && !cmp(CondMod::G, F_INF, F_INF));
    assert!(cmpn(CondMod::Ge, F_NINF, F_NINF) && cmp(CondMod::G, F_NMAX, F_NINF));
    // fp.ieee.nan-unordered: a NaN is unequal to itself.
    assert!(!cmp(CondMod::Z, F_NAN, F_NAN) && cmp(CondMod::Nz, F_NAN, F_NAN));
    assert!(!float::compare(
        &e,
        CondMod::Z,
        GridKind::Cmp,
        Df,
        D_NAN,
        D_NAN
    ));
}

#[test]
fn correctly_rounded_and_cr0_rounding() {
    // fp.ieee.correctly-rounded: 1 + 2^-24 is a tie -> 1.0 (even); 1 + (2^-24 + 2^-47) rounds
    // up to the next float.
    let e = ieee(Ivb);
    assert_eq!(float::add(&e, F, F_ONE, 0x3380_0000).bits, F_ONE);
    assert_eq!(float::add(&e, F, F_ONE, 0x3380_0001).bits, 0x3F80_0001);
    // fp.round.cr0: the cr0.0[5:4] mode rounds add/mul results: 1 + 2^-30.
    let tiny = 0x3080_0000; // 2^-30
    for (r, want, neg) in [
        (Round::Rtne, 0x3F80_0000, 0xBF80_0000),
        (Round::Ru, 0x3F80_0001, 0xBF80_0000),
        (Round::Rd, 0x3F80_0000, 0xBF80_0001),
        (Round::Rtz, 0x3F80_0000, 0xBF80_0000),
    ] {
        let e = rounding(Skl, r);
        let o = float::add(&e, F, F_ONE, tiny);
        assert_eq!(o.bits, want, "{r:?}");
        assert!(has(&o, "fp.round.cr0"));
        assert_eq!(float::sub(&e, F, 0xBF80_0000, tiny).bits, neg, "{r:?}");
        // DF too: 1 + 2^-60.
        let d = float::add(&e, Df, D_ONE, 0x3C30_0000_0000_0000).bits;
        assert_eq!(d, if r == Round::Ru { D_ONE + 1 } else { D_ONE });
    }
    // Overflow: RTZ and RD give fmax for a positive overflow, RTNE and RU inf.
    assert_eq!(
        float::mul(&rounding(Bdw, Round::Rtz), F, F_MAX, F_TWO).bits,
        F_MAX
    );
    assert_eq!(
        float::mul(&rounding(Bdw, Round::Ru), F, F_MAX, F_TWO).bits,
        F_INF
    );
    // fp.round.cr0-fused: mad rounds its single result in the cr0 mode: 1*1 + 2^-30.
    let f = float::fma(&rounding(Skl, Round::Ru), F, F_ONE, F_ONE, tiny);
    assert_eq!(f.bits, 0x3F80_0001);
    assert!(has(&f, "fp.round.cr0-fused"));
    // mad is src0 + src1 * src2.
    assert_eq!(
        float::mad(&ieee(Skl), F, F_ONE, F_TWO, F_THREE).bits,
        0x40E0_0000
    );
    // fp.round.rnd-insns: rndd/rndu/rnde/rndz round in their own direction whatever cr0 says.
    let e = rounding(Skl, Round::Ru);
    for (dir, x, want) in [
        (Round::Rd, 0x3FC0_0000, F_ONE),        // rndd(1.5) = 1
        (Round::Ru, 0x3FC0_0000, F_TWO),        // rndu(1.5) = 2
        (Round::Rtne, 0x4020_0000, F_TWO),      // rnde(2.5) = 2
        (Round::Rtz, 0xBFC0_0000, 0xBF80_0000), // rndz(-1.5) = -1
        (Round::Rd, 0xBF00_0000, 0xBF80_0000),  // rndd(-0.5) = -1
        (Round::Ru, 0xBF00_0000, F_NZERO),      // rndu(-0.5) = -0
    ] {
        let o = float::rnd(&e, F, x, dir);
        assert_eq!(o.bits, want, "{dir:?} {x:08X}");
        assert!(has(&o, "fp.round.rnd-insns"));
        assert!(!has(&o, "fp.round.cr0"));
    }
    assert_eq!(
        float::rnd(&e, Df, 0xC004_0000_0000_0000, Round::Rd).bits,
        0xC008_0000_0000_0000
    ); // rndd(-2.5) = -3
       // Integer to float conversions round per cr0 too (conv.int-to-float.f, round = cr0):
       // D 0x01000001 = 2^24 + 1.
    for (r, want) in [(Round::Rtne, 0x4B80_0000), (Round::Ru, 0x4B80_0001)] {
        let c = float::convert(
            &rounding(Bdw, r),
            euref::spec::DataType::D,
            euref::spec::DataType::F,
            0x0100_0001,
            false,
        )
        .unwrap();
        assert_eq!(c.bits, want);
    }
}

#[test]
fn no_exceptions_and_condition_flags() {
    // fp.ieee.no-exceptions: nothing traps; overflow and NaN are visible only through the .o
    // and .u condition modifiers (fp.cmod.overflow, fp.cmod.unordered).
    let e = ieee(Skl);
    let o = float::mul(&e, F, F_MAX, F_TWO);
    assert_eq!(o.bits, F_INF);
    assert!(cond_flag(CondMod::O, F, &o));
    assert!(!cond_flag(CondMod::U, F, &o));
    // inf + 1 = inf is exact: no overflow.
    let o = float::add(&e, F, F_INF, F_ONE);
    assert!(!cond_flag(CondMod::O, F, &o));
    let n = float::add(&e, F, F_INF, F_NINF);
    assert!(cond_flag(CondMod::U, F, &n) && !cond_flag(CondMod::O, F, &n));
    // ALT: the overflowed result is delivered as fmax but .o still reports the overflow.
    let a = float::mul(&alt(Skl), F, F_MAX, F_TWO);
    assert_eq!(a.bits, F_MAX);
    assert!(cond_flag(CondMod::O, F, &a));
}

// ------------------------------------------------------------------ denormals

#[test]
fn denorm_f_gen7_always_flushes() {
    // fp.ieee.denorm.f.gen7: inputs and outputs of F math flushed to sign-preserved zero on
    // ivb/hsw, whatever cr0.0 bit 7 (reserved there) says.
    for p in [Ivb, Hsw] {
        for e in [ieee(p), keep(p), FloatEnv::from_cr0(p, 0xFFFF_FFFE)] {
            let o = float::add(&e, F, 0x0000_0001, 0x0000_0001);
            assert_eq!(o.bits, 0);
            assert!(has(&o, "fp.ieee.denorm.f.gen7"));
            assert_eq!(float::add(&e, F, 0x8000_0003, F_NZERO).bits, F_NZERO);
            // Output: 2^-126 * 0.5 = 2^-127 is a denormal result -> +0.
            assert_eq!(float::mul(&e, F, F_MIN_NORMAL, F_HALF).bits, 0);
            assert_eq!(float::mul(&e, F, 0x8080_0000, F_HALF).bits, F_NZERO);
            // A denormal input times a large value: flushed first, so 0 (kept: 2^-149 * 2^127).
            assert_eq!(float::mul(&e, F, 0x0000_0001, 0x7F00_0000).bits, 0);
        }
    }
    // Gen9 with bit 7 set keeps them.
    assert_eq!(
        float::mul(&keep(Skl), F, 0x0000_0001, 0x7F00_0000).bits,
        0x3480_0000
    );
}

#[test]
fn denorm_f_gen8_bit7() {
    // fp.ieee.denorm.f: Gen8/Gen9 F denormals kept iff cr0.0 bit 7 (FP32 denorm mode).
    for p in [Bdw, Chv, Skl, Bxt] {
        let flush = ieee(p);
        let kept = FloatEnv::from_cr0(p, field::CR0_0_FP32_DENORM_MODE.set(0, 1));
        let o = float::add(&flush, F, 0x0000_0001, 0x0000_0001);
        assert_eq!(o.bits, 0);
        assert!(has(&o, "fp.ieee.denorm.f"));
        let o = float::add(&kept, F, 0x0000_0001, 0x0000_0001);
        assert_eq!(o.bits, 0x0000_0002);
        assert!(has(&o, "fp.ieee.denorm.f"));
        assert_eq!(float::mul(&kept, F, F_MIN_NORMAL, F_HALF).bits, 0x0040_0000);
        assert_eq!(float::mul(&flush, F, F_MIN_NORMAL, F_HALF).bits, 0);
        // The DF bit does not keep F denormals.
        let df_only = FloatEnv::from_cr0(p, field::CR0_0_DF_DENORM_MODE.set(0, 1));
        assert_eq!(float::add(&df_only, F, 1, 1).bits, 0);
    }
}

#[test]
fn denorm_df_bit6() {
    // fp.ieee.denorm.df: DF denormals kept iff cr0.0 bit 6, on every platform (ivb included).
    let dmin = 0x0000_0000_0000_0001;
    for p in [Ivb, Hsw, Bdw, Chv, Skl, Bxt] {
        let kept = FloatEnv::from_cr0(p, field::CR0_0_DF_DENORM_MODE.set(0, 1));
        let flush = ieee(p);
        let o = float::add(&kept, Df, dmin, dmin);
        assert_eq!(o.bits, 2);
        assert!(has(&o, "fp.ieee.denorm.df"));
        let o = float::add(&flush, Df, dmin, dmin);
        assert_eq!(o.bits, 0);
        assert!(has(&o, "fp.ieee.denorm.df"));
        assert_eq!(
            float::add(&flush, Df, 0x8000_0000_0000_0005, 0x8000_0000_0000_0000).bits,
            0x8000_0000_0000_0000
        );
        // Comparisons depend on the bit: -denorm < +0 only when kept.
        let lt = |e: &FloatEnv| {
            float::compare(e, CondMod::L, GridKind::Cmp, Df, 0x8000_0000_0000_0001, 0)
        };
        assert!(lt(&kept) && !lt(&flush));
        // The F bit does not keep DF denormals.
        if p != Ivb && p != Hsw {
            let f_only = FloatEnv::from_cr0(p, field::CR0_0_FP32_DENORM_MODE.set(0, 1));
            assert_eq!(float::add(&f_only, Df, dmin, dmin).bits, 0);
        }
    }
}

#[test]
fn denorm_hf() {
    // fp.ieee.denorm.hf.gen8: Broadwell/Cherryview flush HF denormals always.
    for p in [Bdw, Chv] {
        for e in [ieee(p), keep(p), FloatEnv::from_cr0(p, 0xFFFF_FFFE)] {
            let o = float::add(&e, Hf, 0x0001, 0x0001);
            assert_eq!(o.bits, 0);
            assert!(has(&o, "fp.ieee.denorm.hf.gen8"));
            assert_eq!(float::div(&e, Hf, 0x0002, H_TWO).bits, 0);
        }
    }
    // fp.ieee.denorm.hf: Gen9 keeps HF denormals iff cr0.0 bit 10.
    for p in [Skl, Bxt] {
        let kept = FloatEnv::from_cr0(p, field::CR0_0_FP16_DENORM_MODE.set(0, 1));
        let o = float::add(&kept, Hf, 0x0001, 0x0001);
        assert_eq!(o.bits, 0x0002);
        assert!(has(&o, "fp.ieee.denorm.hf"));
        assert_eq!(float::add(&ieee(p), Hf, 0x0001, 0x0001).bits, 0);
        assert_eq!(float::mul(&kept, Hf, 0x0400, 0x3800).bits, 0x0200); // 2^-14 * 0.5
        assert_eq!(float::mul(&ieee(p), Hf, 0x0400, 0x3800).bits, 0);
        // fp.ieee.denorm.hf-math.gen9: extended math keeps HF denormals even with bit 10 = 0.
        let m = float::div(&ieee(p), Hf, 0x0002, H_TWO);
        assert_eq!(m.bits, 0x0001);
        assert!(has(&m, "fp.ieee.denorm.hf-math.gen9"));
        assert_eq!(float::sqrt(&ieee(p), Hf, 0x0004).bits, 0x1000); // sqrt(2^-22) = 2^-11
    }
}

#[test]
fn conversions_raw_mov_and_hf_to_f_never_flush() {
    use euref::spec::DataType as T;
    // fp.ieee.denorm.conversion: F denormal -> DF on ivb with every denorm bit 0.
    let e = ieee(Ivb);
    let c = float::convert(&e, T::F, T::DF, 0x0000_0001, false).unwrap();
    assert_eq!(c.bits, 0x36A0_0000_0000_0000); // 2^-149
    assert!(c.rules.contains("fp.ieee.denorm.conversion"));
    // A DF value that becomes an F denormal is delivered (not flushed): 2^-140 on skl (RTNE).
    let c = float::convert(&ieee(Skl), T::DF, T::F, 0x3730_0000_0000_0000, false).unwrap();
    assert_eq!(c.bits, 0x0000_0200);
    assert!(c.rules.contains("fp.ieee.denorm.conversion"));
    // DF denormal -> integer is 0 (special row), DF denormal -> F is a signed zero.
    let c = float::convert(&e, T::DF, T::F, 0x8000_0000_0000_0001, false).unwrap();
    assert_eq!(c.bits, F_NZERO);
    // fp.ieee.denorm.hf-to-f: HF denormal 2^-24 -> F 0x33800000 on bdw (HF flushes there).
    let c = float::convert(&ieee(Bdw), T::HF, T::F, 0x0001, false).unwrap();
    assert_eq!(c.bits, 0x3380_0000);
    assert!(c.rules.contains("fp.ieee.denorm.hf-to-f"));
    let c = float::convert(&ieee(Bdw), T::F, T::HF, 0x3380_0000, false).unwrap();
    assert_eq!(c.bits, 0x0001);
    // fp.ieee.denorm.raw-mov and fp.ieee.raw-mov-exact: bits copied, denormals and NaN
    // payloads included.
    for p in [Ivb, Bdw, Skl] {
        let r = float::raw_mov(&ieee(p), F, 0x8000_0001);
        assert_eq!(r.bits, 0x8000_0001);
        assert!(r.rules.contains("fp.ieee.denorm.raw-mov"));
        assert!(r.rules.contains("fp.ieee.raw-mov-exact"));
        let r = float::raw_mov(&ieee(p), F, F_SNAN);
        assert_eq!((r.bits, r.any_nan_allowed), (F_SNAN, false));
        let r = float::raw_mov(&ieee(p), Df, 0xFFF0_0000_0000_0ABC);
        assert_eq!(r.bits, 0xFFF0_0000_0000_0ABC);
    }
}

#[test]
fn mul_by_one_and_add_zero() {
    // fp.ieee.mul-by-one: x * 1.0 = x, except a flushed denormal and the NaN pattern.
    let e = ieee(Skl);
    for x in [0x1234_5678u64, 0xC2F6_E979, F_MAX, F_MIN_NORMAL, F_NZERO] {
        assert_eq!(float::mul(&e, F, x, F_ONE).bits, x);
    }
    assert_eq!(float::mul(&e, F, 0x0000_0123, F_ONE).bits, 0); // flushed (bit 7 = 0)
    assert_eq!(
        float::mul(&keep(Skl), F, 0x0000_0123, F_ONE).bits,
        0x0000_0123
    );
    assert_eq!(float::mul(&e, F, 0x7FA0_0000, F_ONE).bits, F_NAN);
    // fp.ieee.add-zero: x + 0 = x, x - 0 = x; -0 + +0 = +0 in RTNE (and -0 in RD).
    for x in [0x1234_5678u64, 0xC2F6_E979, F_MAX] {
        assert_eq!(float::add(&e, F, x, 0).bits, x);
        assert_eq!(float::sub(&e, F, x, 0).bits, x);
    }
    assert_eq!(float::add(&e, F, F_NZERO, 0).bits, 0);
    assert_eq!(float::add(&e, F, F_NZERO, F_NZERO).bits, F_NZERO);
    assert_eq!(
        float::add(&rounding(Skl, Round::Rd), F, F_NZERO, 0).bits,
        F_NZERO
    );
}

#[test]
fn fused_overflow_may_be_inf() {
    // fp.ieee.fused-overflow: 2^127 * 2 + (-fmax): the product overflows F, the exact sum
    // 2^104 is in range. The model delivers 2^104 and marks +-inf as acceptable.
    let e = ieee(Skl);
    let o = float::fma(&e, F, 0x7F00_0000, F_TWO, F_NMAX);
    assert_eq!(o.bits, 0x7380_0000);
    assert!(o.inf_allowed);
    assert!(has(&o, "fp.ieee.fused-overflow"));
    // No intermediate overflow: not marked.
    assert!(!float::fma(&e, F, F_TWO, F_TWO, F_ONE).inf_allowed);
    // The row concerns F in IEEE mode only.
    assert!(!float::fma(&alt(Skl), F, 0x7F00_0000, F_TWO, F_NMAX).inf_allowed);
    // mul then add (not fused) overflows for real.
    let p = float::mul(&e, F, 0x7F00_0000, F_TWO).bits;
    assert_eq!(float::add(&e, F, p, F_NMAX).bits, F_INF);
}

#[test]
fn accumulator_and_two_step_division() {
    // fp.ieee.acc-precision concerns results routed through the accumulator (the executor);
    // euref::float computes GRF results: the row never acts here.
    let e = ieee(Skl);
    assert!(!float::fma(&e, F, F_ONE, F_TWO, F_THREE)
        .rules
        .contains("fp.ieee.acc-precision"));
    // fp.ieee.divide-two-step: x * (1/y) is not always the correctly rounded x / y; the
    // model's FDIV value is the correctly rounded quotient (fp.round.math-model).
    let mut differ = 0;
    for x in 1..200u32 {
        for y in [3u32, 7, 10, 11, 13, 49] {
            let (xf, yf) = ((x as f32).to_bits() as u64, (y as f32).to_bits() as u64);
            let q = float::div(&e, F, xf, yf).bits;
            assert_eq!(q, ((x as f32) / (y as f32)).to_bits() as u64, "{x}/{y}");
            let two = float::mul(&e, F, xf, float::div(&e, F, F_ONE, yf).bits).bits;
            differ += (two != q) as u32;
        }
    }
    assert!(differ > 0, "x * (1/y) differs from x / y somewhere");
}

#[test]
fn conversions_follow_the_conversion_table() {
    use euref::spec::DataType as T;
    // fp.ieee.conversions: conversions are decided by conversions.toml rows.
    let c = float::convert(&ieee(Ivb), T::F, T::D, 0x4F32_D05E, false).unwrap();
    assert_eq!((c.bits, c.rule_id), (0x7FFF_FFFF, "conv.float-to-int.f"));
    assert_eq!(c.special_id, Some("conv.special.pos-overflow"));
}

// ------------------------------------------------------------------ tininess (fp.tininess)

/// The boundary of fp.tininess, for each type: an exact product just below the smallest
/// normal that rounds (RTNE) up to it is delivered as the smallest normal, not flushed; one
/// that rounds to a denormal is flushed. The IEEE after-rounding tininess test would call the
/// first one tiny (the underflow flag is set), the rule does not flush it.
#[test]
fn tininess_after_rounding_boundary() {
    // (type, flushing env, x just below 2*min_normal, 0.5, min normal, next lower case)
    let cases: [(FloatType, FloatEnv, u64, u64, u64, u64); 3] = [
        // F: 0x00FFFFFF * 0.5 = 2^-126 - 2^-150, halfway, ties to even 0x00800000.
        (F, ieee(Skl), 0x00FF_FFFF, F_HALF, 0x0080_0000, 0x00FF_FFFE),
        // DF: 0x001FFFFFFFFFFFFF * 0.5.
        (
            Df,
            ieee(Ivb),
            0x001F_FFFF_FFFF_FFFF,
            0x3FE0_0000_0000_0000,
            0x0010_0000_0000_0000,
            0x001F_FFFF_FFFF_FFFE,
        ),
        // HF: 0x07FF * 0.5.
        (Hf, ieee(Skl), 0x07FF, 0x3800, 0x0400, 0x07FE),
    ];
    for (ty, e, x, half, min_normal, lower) in cases {
        let o = float::mul(&e, ty, x, half);
        assert_eq!(
            o.bits, min_normal,
            "{ty:?}: rounds up to the smallest normal"
        );
        assert!(
            o.flags.underflow(),
            "{ty:?}: IEEE after-rounding tininess says tiny"
        );
        assert!(o.rules.contains("fp.tininess"), "{ty:?}");
        // One ulp lower the exact product rounds to the largest denormal: flushed.
        let o = float::mul(&e, ty, lower, half);
        assert_eq!(o.bits, 0, "{ty:?}: a denormal result is flushed");
        assert!(o.rules.contains("fp.tininess"));
        // With denormals kept, that product is the largest denormal.
        let k = float::mul(&e.with_denorms(true), ty, lower, half);
        assert_eq!(k.bits, min_normal - 1, "{ty:?}");
        // Directed rounding: RD keeps the first product below the boundary -> flushed.
        let rd = float::mul(&e.with_rounding(Round::Rd), ty, x, half);
        assert_eq!(rd.bits, 0, "{ty:?} RD");
    }
}

// ------------------------------------------------------------------ ALT mode

#[test]
fn alt_rules() {
    let a = alt(Skl);
    // fp.alt.f-only: DF and HF keep IEEE behaviour in ALT mode.
    assert_eq!(float::add(&a, Df, D_INF, D_ONE).bits, D_INF);
    assert_eq!(float::add(&a, Hf, 0x7C00, 0x3C00).bits, 0x7C00);
    assert_eq!(float::add(&a, Df, D_NAN, D_ONE).bits, D_NAN);
    // fp.alt.result-inf-to-fmax: an overflowing result is +-fmax.
    let o = float::add(&a, F, F_MAX, F_MAX);
    assert_eq!(o.bits, F_MAX);
    assert!(has(&o, "fp.alt.result-inf-to-fmax"));
    assert_eq!(float::mul(&a, F, F_NMAX, F_TWO).bits, F_NMAX);
    // fp.alt.result-denorm-to-zero: a denormal result is +-0 even with bit 7 set.
    let ak = a.with_denorms(true);
    let o = float::mul(&ak, F, F_MIN_NORMAL, F_HALF);
    assert_eq!(o.bits, 0);
    assert!(has(&o, "fp.alt.result-denorm-to-zero"));
    assert_eq!(float::mul(&ak, F, 0x8080_0000, F_HALF).bits, F_NZERO);
    assert_eq!(
        float::mul(&keep(Skl), F, F_MIN_NORMAL, F_HALF).bits,
        0x0040_0000
    );
    // fp.alt.input-inf-to-fmax: inf is read as fmax: inf - fmax = 0.
    let o = float::sub(&a, F, F_INF, F_MAX);
    assert_eq!(o.bits, 0);
    assert!(has(&o, "fp.alt.input-inf-to-fmax"));
    assert!(float::compare(
        &a,
        CondMod::Z,
        GridKind::Cmp,
        F,
        F_INF,
        F_MAX
    ));
    // fp.alt.input-denorm-to-zero: a denormal operand is read as a signed zero.
    let o = float::add(&ak, F, 0x0000_0005, 0);
    assert_eq!(o.bits, 0);
    assert!(has(&o, "fp.alt.input-denorm-to-zero"));
    assert_eq!(float::add(&keep(Skl), F, 0x0000_0005, 0).bits, 5);
    // fp.alt.input-nan-to-zero: a NaN operand is read as +0.
    let o = float::add(&a, F, F_NAN, F_ONE);
    assert_eq!(o.bits, F_ONE);
    assert!(has(&o, "fp.alt.input-nan-to-zero"));
    assert_eq!(float::mul(&a, F, 0xFFC0_0000, F_THREE).bits, 0);
    assert!(!float::compare(
        &a,
        CondMod::U,
        GridKind::Cmp,
        F,
        F_NAN,
        F_ONE
    ));
    // fp.alt.result-never-nan: 0 / 0 would be NaN: +0.
    let o = float::div(&a, F, 0, 0);
    assert_eq!((o.bits, o.any_nan_allowed), (0, false));
    assert!(has(&o, "fp.alt.result-never-nan"));
    // fp.alt.math-abs: sqrt takes |x|.
    let o = float::sqrt(&a, F, 0xC080_0000); // sqrt(-4)
    assert_eq!(o.bits, F_TWO);
    assert!(has(&o, "fp.alt.math-abs"));
    assert_eq!(float::sqrt(&ieee(Skl), F, 0xC080_0000).bits, F_NAN);
    // fp.alt.raw-mov: a raw mov copies inf, NaN and denormals unchanged in ALT mode.
    for x in [F_INF, F_SNAN, 0x0000_0001] {
        let r = float::raw_mov(&a, F, x);
        assert_eq!(r.bits, x);
        assert!(r.rules.contains("fp.alt.raw-mov"));
    }
    // fp.alt.dismissed.inf-minus-inf: inf - inf = fmax - fmax = +0; inf + inf = fmax.
    assert_eq!(float::sub(&a, F, F_INF, F_INF).bits, 0);
    assert_eq!(float::add(&a, F, F_INF, F_INF).bits, F_MAX);
    // fp.alt.dismissed.times-zero: NaN * 0 = 0, inf * 0 = 0.
    assert_eq!(float::mul(&a, F, F_NAN, 0).bits, 0);
    assert_eq!(float::mul(&a, F, F_INF, 0).bits, 0);
    // fp.alt.dismissed.rcp-of-inf: 1 / inf = 1 / fmax = 2^-128 (denormal) -> 0.
    assert_eq!(float::div(&a, F, F_ONE, F_INF).bits, 0);
    assert_eq!(float::div(&a, F, F_ONE, F_NINF).bits, F_NZERO);
    // ...and division by zero gives fmax (item (a)).
    assert_eq!(float::div(&a, F, F_ONE, 0).bits, F_MAX);
    // Min/max in ALT read a NaN as +0.
    assert_eq!(float::min(&a, F, F_NAN, F_ONE).bits, 0);
}

#[test]
fn alt_conversion_unsupported() {
    use euref::float::ConvError;
    use euref::spec::DataType as T;
    // fp.alt.conversion-unsupported: F <-> DF and F <-> HF in ALT mode are not computed.
    let a = alt(Skl);
    for (s, d) in [(T::F, T::DF), (T::DF, T::F), (T::F, T::HF), (T::HF, T::F)] {
        let e = float::convert(&a, s, d, 0, false).unwrap_err();
        assert_eq!(
            e,
            ConvError::Unsupported {
                rule_id: "fp.alt.conversion-unsupported",
                src: s,
                dst: d
            }
        );
        assert!(e.to_string().contains("fp.alt.conversion-unsupported"));
    }
    // DF <-> HF, integer conversions and same-type movs are computed.
    assert_eq!(
        float::convert(&a, T::DF, T::HF, D_ONE, false).unwrap().bits,
        0x3C00
    );
    assert_eq!(
        float::convert(&a, T::F, T::D, 0x4049_0FDB, false)
            .unwrap()
            .bits,
        3
    );
    assert_eq!(
        float::convert(&a, T::D, T::F, 3, false).unwrap().bits,
        F_THREE
    );
    assert_eq!(
        float::convert(&a, T::F, T::F, F_INF, false).unwrap().bits,
        F_INF
    );
}

// ------------------------------------------------------------------ euref additions

#[test]
fn condition_modifier_on_results() {
    // fp.cmod.result: z/nz/g/ge/l/le compare the result with zero.
    let e = ieee(Skl);
    let zero = float::sub(&e, F, F_ONE, F_ONE);
    let neg = float::sub(&e, F, F_ONE, F_THREE);
    let pos = float::add(&e, F, F_ONE, F_ONE);
    let nan = float::mul(&e, F, 0, F_INF);
    for (o, z, g, l) in [
        (&zero, true, false, false),
        (&neg, false, false, true),
        (&pos, false, true, false),
        (&nan, false, false, false),
    ] {
        assert_eq!(cond_flag(CondMod::Z, F, o), z);
        assert_eq!(cond_flag(CondMod::Nz, F, o), !z);
        assert_eq!(cond_flag(CondMod::G, F, o), g);
        assert_eq!(cond_flag(CondMod::L, F, o), l);
        assert_eq!(cond_flag(CondMod::Ge, F, o), g || z);
        assert_eq!(cond_flag(CondMod::Le, F, o), l || z);
        assert!(!cond_flag(CondMod::None, F, o));
    }
    // A -0 result counts as zero.
    let nz = float::mul(&e, F, F_NZERO, F_ONE);
    assert_eq!(nz.bits, F_NZERO);
    assert!(cond_flag(CondMod::Z, F, &nz));
    // A flushed denormal result is zero for the flag.
    let d = float::mul(&e, F, F_MIN_NORMAL, F_HALF);
    assert!(cond_flag(CondMod::Z, F, &d));
    assert!(cond_flag(
        CondMod::G,
        F,
        &float::mul(&keep(Skl), F, F_MIN_NORMAL, F_HALF)
    ));
    // fp.cmod.unordered / fp.cmod.overflow on cmp: u = either NaN, o never.
    let cmp = |c, a, b| float::compare_out(&e, c, GridKind::Cmp, F, a, b);
    assert!(cmp(CondMod::U, F_NAN, F_ONE).value && cmp(CondMod::U, F_ONE, F_SNAN).value);
    assert!(!cmp(CondMod::U, F_INF, F_NINF).value);
    assert!(cmp(CondMod::U, F_ONE, F_ONE)
        .rules
        .contains("fp.cmod.unordered"));
    for (a, b) in [(F_MAX, F_NMAX), (F_NAN, F_ONE), (F_INF, F_INF)] {
        let o = cmp(CondMod::O, a, b);
        assert!(!o.value);
        assert!(o.rules.contains("fp.cmod.overflow"));
    }
    assert!(float::compare(
        &e,
        CondMod::U,
        GridKind::Cmpn,
        Df,
        D_ONE,
        D_NAN
    ));
}

#[test]
fn saturation_zero_sign() {
    // fp.sat.zero-sign: saturation never delivers a negative value: -0 -> +0, NaN -> +0.
    for (ty, neg_zero, one) in [
        (F, 0x8000_0000u64, F_ONE),
        (Df, 0x8000_0000_0000_0000, D_ONE),
        (Hf, 0x8000, 0x3C00),
    ] {
        assert_eq!(float::saturate(ty, neg_zero), (0, "sat.float"));
        assert_eq!(float::saturate(ty, ty.canonical_nan()).0, 0);
        assert_eq!(float::saturate(ty, neg_zero | 1).0, 0); // -denorm
        assert_eq!(float::saturate(ty, one).0, one);
        assert_eq!(float::saturate(ty, ty.max_finite()).0, one);
        assert_eq!(float::saturate(ty, 1).0, 1); // +denorm stays
    }
}

#[test]
fn math_model_rounding() {
    // fp.round.math-model: FDIV/SQRT are RTNE whatever cr0 says. 1/3 = 0x3EAAAAAB (RTNE),
    // 0x3EAAAAAA with RD.
    let rd = rounding(Skl, Round::Rd);
    assert_eq!(float::div(&rd, F, F_ONE, F_THREE).bits, 0x3EAA_AAAB);
    assert_eq!(
        Policy::new(&rd, F, FpOps::Arith)
            .mul(F_ONE, 0x3EAA_AAAB)
            .bits,
        0x3EAA_AAAB
    );
    let o = float::div(&ieee(Skl), F, F_ONE, F_THREE);
    assert!(o.rules.contains("fp.round.math-model"));
    // sqrt(2) = 0x3FB504F3 (RTNE; RD would be the same here, RU 0x3FB504F4).
    assert_eq!(
        float::sqrt(&rounding(Skl, Round::Ru), F, F_TWO).bits,
        0x3FB5_04F3
    );
}

// ------------------------------------------------------------------ frc

#[test]
fn frc_is_src0_minus_floor() {
    // fp.frc.definition: src0 - floor(src0), the subtraction rounded in the cr0 mode.
    let e = keep(Skl);
    let frc = |env: &FloatEnv, a: u64| float::frc(env, F, a);
    assert_eq!(frc(&e, 0x4030_0000).bits, 0x3F40_0000); // 2.75 -> 0.75
    assert_eq!(frc(&e, 0xBE80_0000).bits, 0x3F40_0000); // -0.25 -> 0.75
    assert_eq!(frc(&e, F_THREE).bits, 0); // integers -> +0
    assert_eq!(frc(&e, 0xC040_0000).bits, 0); // -3 -> -3 - (-3) = +0
    assert_eq!(frc(&e, F_NZERO).bits, 0); // -0 - (-0) = +0 in RTNE
    assert!(has(&frc(&e, F_HALF), "fp.frc.definition"));
    // -2^-30 - (-1) = 1 - 2^-30: RTNE rounds to 1.0, RTZ and RD to the value below 1.
    assert_eq!(frc(&e, 0xB080_0000).bits, F_ONE);
    for r in [Round::Rtz, Round::Rd] {
        let e = keep(Skl).with_rounding(r);
        assert_eq!(frc(&e, 0xB080_0000).bits, 0x3F7F_FFFF, "{r:?}");
    }
    // NaN and +-inf (inf - inf) give NaN, any pattern.
    for a in [F_NAN, F_SNAN, F_INF, F_NINF] {
        let o = frc(&e, a);
        assert!(o.bits == F_NAN && o.any_nan_allowed, "{a:#x}");
    }
    // Denormals: kept (bit 7 set) the fraction of 2^-149 is itself; flushed (Gen7) it is +0;
    // the negative denormal kept gives 1 - 2^-149 -> 1.0.
    assert_eq!(frc(&e, 1).bits, 1);
    assert_eq!(frc(&ieee(Ivb), 1).bits, 0);
    assert_eq!(frc(&e, 0x8000_0001).bits, F_ONE);
    assert_eq!(frc(&ieee(Ivb), 0x8000_0001).bits, 0);
    // ALT: +-inf read as +-fmax, an integer: fraction +0; NaN read as +0.
    assert_eq!(frc(&alt(Skl), F_INF).bits, 0);
    assert_eq!(frc(&alt(Skl), F_NAN).bits, 0);
}
