//! euref::float::convert: every conversions.toml row, special-value row and saturation row with
//! real bit patterns; every (source, destination, platform) pair with and without saturation
//! against an independent reference computed here with host integer and f32/f64 arithmetic;
//! all 65,536 HF values through every HF conversion.

use euref::float::{self, ConvError, ConvOut, FloatEnv};
use euref::fp::Round;
use euref::spec::conversions;
use euref::spec::{DataType, Platform};

use DataType::*;
use Platform::*;

const SCALARS: [DataType; 11] = [UB, B, UW, W, UD, D, UQ, Q, HF, F, DF];
const INTS: [DataType; 8] = [UB, B, UW, W, UD, D, UQ, Q];

fn env(p: Platform) -> FloatEnv {
    FloatEnv::new(p)
}
fn conv(p: Platform, s: DataType, d: DataType, bits: u64, sat: bool) -> ConvOut {
    float::convert(&env(p), s, d, bits, sat)
        .unwrap_or_else(|e| panic!("{s:?} -> {d:?} on {p:?}: {e}"))
}
fn cv(p: Platform, s: DataType, d: DataType, bits: u64, sat: bool) -> u64 {
    conv(p, s, d, bits, sat).bits
}

// ------------------------------------------------------------------ independent reference

fn nbits(t: DataType) -> u32 {
    match t {
        UB | B => 8,
        UW | W | HF => 16,
        UD | D | F => 32,
        _ => 64,
    }
}
fn signed(t: DataType) -> bool {
    matches!(t, B | W | D | Q)
}
fn mask(t: DataType) -> u64 {
    if nbits(t) == 64 {
        u64::MAX
    } else {
        (1u64 << nbits(t)) - 1
    }
}
fn range(t: DataType) -> (i128, i128) {
    let n = nbits(t);
    if signed(t) {
        (-(1i128 << (n - 1)), (1i128 << (n - 1)) - 1)
    } else {
        (0, (1i128 << n) - 1)
    }
}
fn ival(t: DataType, bits: u64) -> i128 {
    let b = bits & mask(t);
    let n = nbits(t);
    if signed(t) && b >> (n - 1) & 1 == 1 {
        b as i128 - (1i128 << n)
    } else {
        b as i128
    }
}
fn ienc(t: DataType, v: i128) -> u64 {
    (v as u64) & mask(t)
}

/// HF bits -> f64 (exact), by the definition of binary16.
fn hf_to_f64(h: u64) -> f64 {
    let s = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = ((h >> 10) & 0x1F) as i32;
    let f = (h & 0x3FF) as f64;
    if e == 0x1F {
        if h & 0x3FF == 0 {
            s * f64::INFINITY
        } else {
            f64::NAN
        }
    } else if e == 0 {
        s * f * 2f64.powi(-24)
    } else {
        s * (1024.0 + f) * 2f64.powi(e - 25)
    }
}

/// f64 -> HF bits, round to nearest even (NaN -> 0x7E00), by scaling to an integer
/// significand and rounding it with the host's exact round_ties_even.
fn f64_to_hf(v: f64) -> u64 {
    if v.is_nan() {
        return 0x7E00;
    }
    let sign = if v.is_sign_negative() { 0x8000 } else { 0 };
    let a = v.abs();
    if a.is_infinite() {
        return sign | 0x7C00;
    }
    if a.to_bits() == 0 {
        return sign;
    }
    // Exponent of a (exact, from the bits; a is normal in f64 for every value we convert).
    let e = ((a.to_bits() >> 52) as i32 - 1023).max(-14);
    let q = a / 2f64.powi(e - 10); // exact: a power-of-two scaling
    let r = q.round_ties_even() as u64;
    let enc = if e == -14 && r < 1024 {
        r
    } else {
        ((e + 15) as u64) * 1024 + (r - 1024)
    };
    sign | enc.min(0x7C00)
}

/// f64 -> F bits rounded toward zero.
fn f64_to_f32_rtz(v: f64) -> u64 {
    let r = v as f32; // RTNE
    if v.is_nan() {
        return 0x7FC0_0000;
    }
    let mut b = r.to_bits();
    if r.is_infinite() && v.is_finite() {
        b -= 1; // fmax
    } else if (r as f64).abs() > v.abs() {
        b -= 1; // one step toward zero (same sign, smaller magnitude)
    }
    b as u64
}

fn fval(t: DataType, bits: u64) -> f64 {
    match t {
        HF => hf_to_f64(bits),
        F => f32::from_bits(bits as u32) as f64,
        _ => f64::from_bits(bits),
    }
}

/// The reference result of converting `bits` from `s` to `d` on `p` (RTNE in cr0).
fn reference(p: Platform, s: DataType, d: DataType, bits: u64, sat: bool) -> u64 {
    let sfloat = matches!(s, HF | F | DF);
    let dfloat = matches!(d, HF | F | DF);
    let (lo, hi) = if dfloat { (0, 0) } else { range(d) };
    let unit = |x: u64| -> u64 {
        // [0, 1], NaN and negatives (incl. -0) -> +0.
        let v = fval(d, x);
        let one = match d {
            HF => 0x3C00,
            F => 0x3F80_0000,
            _ => 0x3FF0_0000_0000_0000,
        };
        if v.is_nan() || v.is_sign_negative() {
            0
        } else if v > 1.0 {
            one
        } else {
            x
        }
    };
    let fenc = |v: f64| -> u64 {
        match d {
            HF => f64_to_hf(v),
            F => (v as f32).to_bits() as u64,
            _ => v.to_bits(),
        }
    };
    match (sfloat, dfloat) {
        (false, false) => {
            let v = ival(s, bits);
            if sat {
                ienc(d, v.clamp(lo, hi))
            } else {
                ienc(d, v)
            }
        }
        (true, false) => {
            let v = fval(s, bits);
            if v.is_nan() {
                return 0;
            }
            let t = v.trunc();
            let r = if t >= (hi + 1) as f64 {
                hi
            } else if t < lo as f64 {
                lo
            } else {
                t as i128
            };
            ienc(d, r)
        }
        (false, true) => {
            let v = ival(s, bits);
            // Host int -> float `as` rounds to nearest even; HF goes through an exact f64
            // when |v| < 2^53, else through f64 (a double rounding that cannot matter:
            // such values overflow HF anyway).
            let x = match d {
                F => (if v < 0 {
                    v as i64 as f32
                } else {
                    v as u64 as f32
                })
                .to_bits() as u64,
                DF => (if v < 0 {
                    v as i64 as f64
                } else {
                    v as u64 as f64
                })
                .to_bits(),
                _ => f64_to_hf(v as f64),
            };
            if sat {
                unit(x)
            } else {
                x
            }
        }
        (true, true) => {
            let v = fval(s, bits);
            let x = if s == d {
                bits & mask(d)
            } else if s == DF && d == F && matches!(p, Ivb | Hsw) {
                f64_to_f32_rtz(v)
            } else if v.is_nan() {
                d_nan(d)
            } else {
                fenc(v)
            };
            if sat {
                unit(x)
            } else {
                x
            }
        }
    }
}

fn d_nan(d: DataType) -> u64 {
    match d {
        HF => 0x7E00,
        F => 0x7FC0_0000,
        _ => 0x7FF8_0000_0000_0000,
    }
}

/// Edge values of a type.
fn samples(t: DataType) -> Vec<u64> {
    let mut v: Vec<u64> = match t {
        HF => vec![
            0x0000, 0x8000, 0x0001, 0x83FF, 0x0400, 0x3555, 0x3BFF, 0x3C00, 0x3C01, 0xBC00, 0x4100,
            0xC100, 0x5BFF, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE00,
        ],
        F => vec![
            0x0000_0000,
            0x8000_0000,
            0x0000_0001,
            0x807F_FFFF,
            0x0080_0000,
            0x3380_0000,
            0x3EAA_AAAB,
            0x3F00_0000,
            0x3F7F_FFFF,
            0x3F80_0000,
            0x3FC0_0000,
            0xBFC0_0000,
            0x4040_0000,
            0x4B80_0001,
            0x477F_E000,
            0x477F_F000,
            0x4F00_0000,
            0x4F32_D05E,
            0xCF00_0000,
            0xCF00_0001,
            0x4F80_0000,
            0x5F00_0000,
            0x5F80_0000,
            0xDF00_0000,
            0x7F7F_FFFF,
            0xFF7F_FFFF,
            0x7F80_0000,
            0xFF80_0000,
            0x7FC0_0000,
            0x7F80_0001,
            0xFFC0_0001,
        ],
        DF => vec![
            0,
            0x8000_0000_0000_0000,
            1,
            0x800F_FFFF_FFFF_FFFF,
            0x0010_0000_0000_0000,
            0x36A0_0000_0000_0000,
            0x3690_0000_0000_0000,
            0x3FD5_5555_5555_5555,
            0x3FE0_0000_0000_0000,
            0x3FF0_0000_0000_0000,
            0x3FF0_0200_0000_1000,
            0xBFF8_0000_0000_0000,
            0x40EF_FE00_0000_0000,
            0x41DF_FFFF_FFC0_0000,
            0x41E0_0000_0000_0000,
            0xC1E0_0000_0000_0000,
            0xC1E0_0000_0020_0000,
            0x43E0_0000_0000_0000,
            0x43F0_0000_0000_0000,
            0xC3E0_0000_0000_0000,
            0x47EF_FFFF_E000_0000,
            0x47EF_FFFF_F000_0000,
            0x7FEF_FFFF_FFFF_FFFF,
            0x7FF0_0000_0000_0000,
            0xFFF0_0000_0000_0000,
            0x7FF8_0000_0000_0000,
            0x7FF0_0000_0000_0001,
        ],
        _ => {
            let n = nbits(t);
            let m = mask(t);
            let mut v = vec![0, 1, 2, 3, m, m - 1, m >> 1, (m >> 1) + 1, 0x7F, 0x80, 0xFF];
            for k in [8u32, 11, 12, 15, 16, 24, 25, 31, 32, 53, 54, 63] {
                if k < n {
                    v.push(1u64 << k);
                    v.push((1u64 << k) + 1);
                    v.push((1u64 << k) - 1);
                    v.push(m - (1u64 << k));
                }
            }
            v.push(0x1234_5678_9ABC_DEF0);
            v.push(0x8000_0000_0000_0001);
            v.iter().map(|x| x & m).collect()
        }
    };
    v.sort_unstable();
    v.dedup();
    v
}

fn exists(t: DataType, p: Platform) -> bool {
    t.on(p)
}

#[test]
fn every_pair_matches_the_reference() {
    let mut n = 0;
    for p in Platform::ALL {
        for s in SCALARS {
            for d in SCALARS {
                if !exists(s, p) || !exists(d, p) {
                    let e = float::convert(&env(p), s, d, 0, false).unwrap_err();
                    assert!(matches!(e, ConvError::NoRule { .. }), "{s:?}->{d:?} {p:?}");
                    continue;
                }
                let row = conversions::rule(s, d, p).expect("row for every pair");
                for x in samples(s) {
                    for sat in [false, true] {
                        let got = conv(p, s, d, x, sat);
                        let want = reference(p, s, d, x, sat);
                        assert_eq!(
                            got.bits, want,
                            "{s:?} {x:#X} -> {d:?} sat={sat} on {p:?} ({})",
                            row.id
                        );
                        assert_eq!(got.rule_id, row.id);
                        assert_eq!(
                            got.sat_id.is_some(),
                            sat && row.sat != conversions::SatKind::None
                        );
                        n += 1;
                    }
                }
            }
        }
    }
    assert!(n > 20_000, "{n}");
}

/// Integer sources exhaustively for the byte and word types, to every destination.
#[test]
fn small_integers_exhaustive() {
    for p in [Ivb, Skl] {
        for s in [UB, B, UW, W] {
            let count = 1u64 << nbits(s);
            for d in SCALARS {
                if !exists(d, p) {
                    continue;
                }
                for x in 0..count {
                    for sat in [false, true] {
                        assert_eq!(
                            cv(p, s, d, x, sat),
                            reference(p, s, d, x, sat),
                            "{s:?} {x:#X} -> {d:?} sat={sat} {p:?}"
                        );
                    }
                }
            }
        }
    }
}

// ------------------------------------------------------------------ exhaustive HF

#[test]
fn all_hf_values() {
    let p = Skl;
    for h in 0..=0xFFFFu64 {
        let v = hf_to_f64(h);
        let nan = v.is_nan();
        // HF -> F: exact (conv.float-widen.hf-f); NaN -> canonical F NaN.
        let f = conv(p, HF, F, h, false);
        assert_eq!(f.rule_id, "conv.float-widen.hf-f");
        let want_f = if nan {
            0x7FC0_0000
        } else {
            (v as f32).to_bits() as u64
        };
        assert_eq!(f.bits, want_f, "HF {h:04X} -> F");
        assert_eq!(f.any_nan_allowed, nan);
        // HF -> DF: exact (conv.float-widen.hf-df-nodirect).
        let d = conv(p, HF, DF, h, false);
        assert_eq!(d.rule_id, "conv.float-widen.hf-df-nodirect");
        let want_d = if nan {
            0x7FF8_0000_0000_0000
        } else {
            v.to_bits()
        };
        assert_eq!(d.bits, want_d, "HF {h:04X} -> DF");
        // F -> HF and DF -> HF round trips (conv.float-narrow.f-hf,
        // conv.float-narrow.df-hf-nodirect): every HF value comes back, NaNs canonical.
        let back = if nan { 0x7E00 } else { h };
        assert_eq!(cv(p, F, HF, f.bits, false), back, "HF {h:04X} F round trip");
        assert_eq!(
            cv(p, DF, HF, d.bits, false),
            back,
            "HF {h:04X} DF round trip"
        );
        // With saturation, to the unit interval.
        for (dst, x) in [(F, f.bits), (DF, d.bits)] {
            let s = cv(p, HF, dst, h, true);
            let sv = fval(dst, s);
            assert!(!sv.is_nan() && !sv.is_sign_negative() && sv <= 1.0);
            if !nan && (0.0..=1.0).contains(&v) && !v.is_sign_negative() {
                assert_eq!(s, x);
            }
        }
        assert_eq!(cv(p, HF, HF, h, true), reference(p, HF, HF, h, true));
        // HF -> every integer type, with and without saturation: truncation, NaN -> 0,
        // +-inf and out-of-range values -> the range bounds.
        for i in INTS {
            let (lo, hi) = range(i);
            let want = if nan {
                0
            } else {
                let t = v.trunc();
                if t >= (hi + 1) as f64 {
                    ienc(i, hi)
                } else if t < lo as f64 {
                    ienc(i, lo)
                } else {
                    ienc(i, t as i128)
                }
            };
            for sat in [false, true] {
                assert_eq!(cv(p, HF, i, h, sat), want, "HF {h:04X} -> {i:?} sat={sat}");
            }
        }
    }
}

// ------------------------------------------------------------------ row by row

/// (row id, platform, src, dst, input, saturate, expected output)
#[rustfmt::skip]
const ROW_CASES: &[(&str, Platform, DataType, DataType, u64, bool, u64)] = &[
    ("conv.identity.int", Skl, D, D, 0xFFFF_FFFF, false, 0xFFFF_FFFF),
    ("conv.identity.int", Skl, UB, UB, 0xFF, true, 0xFF),
    ("conv.identity.float", Skl, F, F, 0x7F80_0001, false, 0x7F80_0001),
    ("conv.identity.float", Skl, F, F, 0x7F80_0001, true, 0),
    ("conv.identity.float", Skl, F, F, 0x4000_0000, true, 0x3F80_0000),
    ("conv.identity.float", Ivb, DF, DF, 0x0000_0000_0000_0001, false, 1),
    ("conv.int.widen.uint", Skl, UW, D, 0xFFFF, false, 0x0000_FFFF),
    ("conv.int.widen.uint", Skl, UD, Q, 0xFFFF_FFFF, false, 0x0000_0000_FFFF_FFFF),
    ("conv.int.widen.ub", Ivb, UB, W, 0xFF, false, 0x00FF),
    ("conv.int.widen.ub-qword-nodirect", Skl, UB, Q, 0x80, false, 0x80),
    ("conv.int.widen.sint-to-sint", Ivb, W, D, 0x8000, false, 0xFFFF_8000),
    ("conv.int.widen.sint-to-sint", Skl, D, Q, 0x8000_0000, false, 0xFFFF_FFFF_8000_0000),
    ("conv.int.widen.b-to-sint", Ivb, B, W, 0x80, false, 0xFF80),
    ("conv.int.widen.sint-to-uint", Ivb, W, UD, 0xFFFF, false, 0xFFFF_FFFF),
    ("conv.int.widen.sint-to-uint", Ivb, W, UD, 0xFFFF, true, 0),
    ("conv.int.widen.b-to-uint", Ivb, B, UW, 0xFE, false, 0xFFFE),
    ("conv.int.widen.b-to-uint", Ivb, B, UW, 0xFE, true, 0),
    ("conv.int.widen.b-qword-nodirect", Skl, B, UQ, 0x80, false, 0xFFFF_FFFF_FFFF_FF80),
    ("conv.int.widen.b-qword-nodirect", Skl, B, UQ, 0x80, true, 0),
    ("conv.int.same-size.uint-to-sint", Ivb, UD, D, 0xFFFF_FFFF, false, 0xFFFF_FFFF),
    ("conv.int.same-size.uint-to-sint", Ivb, UD, D, 0xFFFF_FFFF, true, 0x7FFF_FFFF),
    ("conv.int.same-size.sint-to-uint", Ivb, D, UD, 0xFFFF_FFFF, false, 0xFFFF_FFFF),
    ("conv.int.same-size.sint-to-uint", Ivb, D, UD, 0xFFFF_FFFF, true, 0),
    ("conv.int.narrow", Ivb, D, W, 0x1234_5678, false, 0x5678),
    ("conv.int.narrow", Ivb, D, W, 0x1234_5678, true, 0x7FFF),
    ("conv.int.narrow", Ivb, D, W, 0xFFFE_EE90, true, 0x8000),
    ("conv.int.narrow", Ivb, UD, UB, 0x1FF, false, 0xFF),
    ("conv.int.narrow", Ivb, D, UB, 0x100, false, 0x00),
    ("conv.int.narrow", Ivb, D, UB, 0x100, true, 0xFF),
    ("conv.int.narrow.qword", Skl, Q, D, 0x1_2345_6789, false, 0x2345_6789),
    ("conv.int.narrow.qword", Skl, Q, D, 0x1_2345_6789, true, 0x7FFF_FFFF),
    ("conv.int.narrow.qword", Skl, UQ, UW, 0xFFFF_FFFF_FFFF_0001, true, 0xFFFF),
    ("conv.int.narrow.qword-byte-nodirect", Skl, Q, B, 0xFFFF_FFFF_FFFF_FF00, false, 0x00),
    ("conv.int.narrow.qword-byte-nodirect", Skl, Q, B, 0xFFFF_FFFF_FFFF_FF00, true, 0x80),
    ("conv.float-to-int.f", Ivb, F, D, 0x4F32_D05E, false, 0x7FFF_FFFF), // 3e9
    ("conv.float-to-int.f", Ivb, F, UD, 0xBFC0_0000, false, 0),          // -1.5
    ("conv.float-to-int.f", Ivb, F, D, 0xBFC0_0000, false, 0xFFFF_FFFF),
    ("conv.float-to-int.f", Ivb, F, UB, 0x4030_0000, false, 2),          // 2.75
    ("conv.float-to-int.f", Skl, F, Q, 0x5015_02F9, false, 0x2_540B_E400), // 1e10
    ("conv.float-to-int.df", Ivb, DF, D, 0xC004_0000_0000_0000, false, 0xFFFF_FFFE), // -2.5
    ("conv.float-to-int.df", Skl, DF, Q, 0x43E1_58E4_6091_3D00, false, 0x7FFF_FFFF_FFFF_FFFF),
    ("conv.float-to-int.df", Skl, DF, UQ, 0x43E1_58E4_6091_3D00, false, 0x8AC7_2304_89E8_0000),
    ("conv.float-to-int.df-byte-nodirect", Skl, DF, UB, 0x4072_C000_0000_0000, false, 0xFF),
    ("conv.float-to-int.df-byte-nodirect", Skl, DF, B, 0xC072_C000_0000_0000, false, 0x80),
    ("conv.float-to-int.hf", Skl, HF, W, 0x7BFF, false, 0x7FFF),
    ("conv.float-to-int.hf", Skl, HF, UW, 0x7BFF, false, 0xFFE0),
    ("conv.float-to-int.hf", Skl, HF, B, 0xC100, false, 0xFE),
    ("conv.float-to-int.hf-qword-nodirect", Skl, HF, Q, 0x7BFF, false, 0xFFE0),
    ("conv.float-to-int.hf-qword-nodirect", Skl, HF, UQ, 0x7C00, false, u64::MAX),
    ("conv.int-to-float.f-exact", Ivb, W, F, 0x8000, false, 0xC700_0000),
    ("conv.int-to-float.f-exact", Ivb, W, F, 0x8000, true, 0),
    ("conv.int-to-float.f-exact", Ivb, UB, F, 1, true, 0x3F80_0000),
    ("conv.int-to-float.f-exact", Ivb, UB, F, 5, true, 0x3F80_0000),
    ("conv.int-to-float.f", Ivb, D, F, 0x7FFF_FFFF, false, 0x4F00_0000),
    ("conv.int-to-float.f", Ivb, D, F, 0x0100_0001, false, 0x4B80_0000),
    ("conv.int-to-float.f", Skl, UQ, F, u64::MAX, false, 0x5F80_0000),
    ("conv.int-to-float.f", Skl, Q, F, 0x8000_0000_0000_0000, false, 0xDF00_0000),
    ("conv.int-to-float.df-exact", Ivb, UD, DF, 0xFFFF_FFFF, false, 0x41EF_FFFF_FFE0_0000),
    ("conv.int-to-float.byte-df-nodirect", Skl, B, DF, 0x80, false, 0xC060_0000_0000_0000),
    ("conv.int-to-float.qword-df", Skl, UQ, DF, u64::MAX, false, 0x43F0_0000_0000_0000),
    ("conv.int-to-float.qword-df", Skl, Q, DF, 0x0020_0000_0000_0001, false, 0x4340_0000_0000_0000),
    ("conv.int-to-float.byte-hf", Skl, B, HF, 0x81, false, 0xD7F0),
    ("conv.int-to-float.hf", Skl, UD, HF, 65520, false, 0x7C00),
    ("conv.int-to-float.hf", Skl, W, HF, 2049, false, 0x6800),
    ("conv.int-to-float.hf", Skl, W, HF, 2051, false, 0x6802),
    ("conv.int-to-float.qword-hf-nodirect", Skl, Q, HF, u64::MAX, false, 0xBC00),
    ("conv.float-widen.hf-f", Skl, HF, F, 0x0001, false, 0x3380_0000),
    ("conv.float-widen.hf-f", Skl, HF, F, 0xFC00, false, 0xFF80_0000),
    ("conv.float-widen.f-df", Ivb, F, DF, 0x0000_0001, false, 0x36A0_0000_0000_0000),
    ("conv.float-widen.f-df", Ivb, F, DF, 0x7F7F_FFFF, false, 0x47EF_FFFF_E000_0000),
    ("conv.float-widen.f-df", Ivb, F, DF, 0xFF80_0000, false, 0xFFF0_0000_0000_0000),
    ("conv.float-widen.hf-df-nodirect", Skl, HF, DF, 0x3555, false, 0x3FD5_5400_0000_0000),
    ("conv.float-narrow.df-f.gen7", Ivb, DF, F, 0x3FD5_5555_5555_5555, false, 0x3EAA_AAAA),
    ("conv.float-narrow.df-f.gen7", Hsw, DF, F, 0x7E37_E43C_8800_759C, false, 0x7F7F_FFFF), // 1e300
    ("conv.float-narrow.df-f.gen7", Ivb, DF, F, 0x8000_0000_0000_0001, false, 0x8000_0000),
    ("conv.float-narrow.df-f.gen7", Ivb, DF, F, 0xBFD5_5555_5555_5555, false, 0xBEAA_AAAA),
    ("conv.float-narrow.df-f", Skl, DF, F, 0x3FD5_5555_5555_5555, false, 0x3EAA_AAAB),
    ("conv.float-narrow.df-f", Bdw, DF, F, 0x7E37_E43C_8800_759C, false, 0x7F80_0000),
    ("conv.float-narrow.df-f", Bdw, DF, F, 0x3FF8_0000_0000_0000, true, 0x3F80_0000),
    ("conv.float-narrow.f-hf", Skl, F, HF, 0x477F_F000, false, 0x7C00), // 65520
    ("conv.float-narrow.f-hf", Skl, F, HF, 0x3EAA_AAAB, false, 0x3555),
    ("conv.float-narrow.f-hf", Skl, F, HF, 0x3380_0000, false, 0x0001),
    ("conv.float-narrow.df-hf-nodirect", Skl, DF, HF, 0x3FD5_5555_5555_5555, false, 0x3555),
    // Single rounding: 1 + 2^-11 + 2^-40 -> 1 + 2^-10 (DF -> F -> HF would give 1.0).
    ("conv.float-narrow.df-hf-nodirect", Skl, DF, HF, 0x3FF0_0200_0000_1000, false, 0x3C01),
];

#[test]
fn conversion_rows() {
    let mut seen = std::collections::BTreeSet::new();
    for &(id, p, s, d, x, sat, want) in ROW_CASES {
        let o = conv(p, s, d, x, sat);
        assert_eq!(o.rule_id, id, "{s:?} -> {d:?} on {p:?}");
        assert_eq!(
            o.bits, want,
            "{id}: {s:?} {x:#X} -> {d:?} sat={sat} on {p:?}"
        );
        seen.insert(id);
    }
    let all: std::collections::BTreeSet<&str> =
        conversions::CONVERSIONS.iter().map(|r| r.id).collect();
    assert_eq!(seen, all, "a case for every [[conversion]] row");
    // Double rounding through F would differ for the last case.
    let via_f = cv(Skl, DF, F, 0x3FF0_0200_0000_1000, false);
    assert_eq!(cv(Skl, F, HF, via_f, false), 0x3C00);
}

#[test]
fn cr0_rounding_of_conversions() {
    let rz = FloatEnv::new(Skl).with_rounding(Round::Rtz);
    let ru = FloatEnv::new(Skl).with_rounding(Round::Ru);
    let c = |e: &FloatEnv, s, d, x| float::convert(e, s, d, x, false).unwrap().bits;
    // conv.int-to-float.f: D 0x7FFFFFFF under RTZ.
    assert_eq!(c(&rz, D, F, 0x7FFF_FFFF), 0x4EFF_FFFF);
    // conv.int-to-float.qword-df under RTZ.
    assert_eq!(c(&rz, UQ, DF, u64::MAX), 0x43EF_FFFF_FFFF_FFFF);
    // conv.int-to-float.hf under RTZ: 65520 -> 65504.
    assert_eq!(c(&rz, UD, HF, 65520), 0x7BFF);
    // conv.float-narrow.f-hf under RTZ: 65520 -> 65504.
    assert_eq!(c(&rz, F, HF, 0x477F_F000), 0x7BFF);
    // conv.float-narrow.df-f (Gen8+): per cr0: RTZ 1/3 -> AA, RU a positive DF denormal ->
    // the smallest F denormal.
    assert_eq!(c(&rz, DF, F, 0x3FD5_5555_5555_5555), 0x3EAA_AAAA);
    assert_eq!(c(&ru, DF, F, 1), 1);
    // conv.float-narrow.df-f.gen7 ignores cr0: RTZ whatever the mode.
    let ivb_ru = FloatEnv::new(Ivb).with_rounding(Round::Ru);
    assert_eq!(c(&ivb_ru, DF, F, 0x3FD5_5555_5555_5555), 0x3EAA_AAAA);
    assert_eq!(c(&ivb_ru, DF, F, 1), 0);
    // conv.float-to-int.* ignore cr0: always toward zero.
    assert_eq!(c(&ru, F, D, 0x3FC0_0000), 1);
}

#[test]
fn undefined_upper_dword() {
    // seed000 §2.4.5: the upper dword of every DF -> F destination qword is undefined (Gen7).
    for p in [Ivb, Hsw] {
        let o = conv(p, DF, F, 0x3FF0_0000_0000_0000, false);
        assert!(o.undefined_upper_dword);
        assert_eq!(o.bits, 0x3F80_0000);
    }
    for p in [Bdw, Skl] {
        assert!(!conv(p, DF, F, 0x3FF0_0000_0000_0000, false).undefined_upper_dword);
    }
    assert!(!conv(Ivb, F, DF, 0x3F80_0000, false).undefined_upper_dword);
}

/// The manual's float-to-integer table (seed000 §2.4.1), column by column, with the special
/// row each cell uses.
#[test]
fn special_value_table() {
    let dsts = [UD, D, UW, W, UB, B];
    #[rustfmt::skip]
    let table: &[(u64, [u64; 6], [&str; 6])] = &[
        (0x0000_0000, [0; 6], ["conv.special.zero"; 6]),
        (0x8000_0000, [0; 6], ["conv.special.zero"; 6]),
        (0x0000_0001, [0; 6], ["conv.special.denorm"; 6]),
        (0x807F_FFFF, [0; 6], ["conv.special.denorm"; 6]),
        (0x7FC0_0000, [0; 6], ["conv.special.nan"; 6]),
        (0xFFC0_0000, [0; 6], ["conv.special.nan"; 6]),
        (0x7F80_0001, [0; 6], ["conv.special.nan"; 6]),
        (0x7F80_0000, [0xFFFF_FFFF, 0x7FFF_FFFF, 0xFFFF, 0x7FFF, 0xFF, 0x7F], ["conv.special.pos-inf"; 6]),
        (0xFF80_0000, [0, 0x8000_0000, 0, 0x8000, 0, 0x80],
         ["conv.special.neg-inf.uint", "conv.special.neg-inf.sint", "conv.special.neg-inf.uint",
          "conv.special.neg-inf.sint", "conv.special.neg-inf.uint", "conv.special.neg-inf.sint"]),
        // +2^32: out of range for every column.
        (0x4F80_0000, [0xFFFF_FFFF, 0x7FFF_FFFF, 0xFFFF, 0x7FFF, 0xFF, 0x7F], ["conv.special.pos-overflow"; 6]),
        // -2^32 - 1 is not an F value; -2^33 is below every range.
        (0xD000_0000, [0, 0x8000_0000, 0, 0x8000, 0, 0x80],
         ["conv.special.neg-overflow.uint", "conv.special.neg-overflow.sint",
          "conv.special.neg-overflow.uint", "conv.special.neg-overflow.sint",
          "conv.special.neg-overflow.uint", "conv.special.neg-overflow.sint"]),
    ];
    let mut seen = std::collections::BTreeSet::new();
    for p in [Ivb, Skl] {
        for (x, want, ids) in table {
            for (i, d) in dsts.iter().enumerate() {
                for sat in [false, true] {
                    let o = conv(p, F, *d, *x, sat);
                    assert_eq!(o.bits, want[i], "F {x:08X} -> {d:?}");
                    assert_eq!(o.special_id, Some(ids[i]), "F {x:08X} -> {d:?}");
                    seen.insert(ids[i]);
                }
            }
        }
    }
    let all: std::collections::BTreeSet<&str> =
        conversions::SPECIALS.iter().map(|r| r.id).collect();
    assert_eq!(seen, all, "every [[special]] row exercised");
    // -0.5 -> UD truncates to 0 without a special row (conv.special.neg-overflow.uint is for
    // values still negative after truncation).
    let o = conv(Skl, F, UD, 0xBF00_0000, false);
    assert_eq!((o.bits, o.special_id), (0, None));
    // Qword destinations (seed001): +inf -> 2^63 - 1, -inf -> -2^63 / 0.
    assert_eq!(
        cv(Skl, DF, Q, 0x7FF0_0000_0000_0000, false),
        0x7FFF_FFFF_FFFF_FFFF
    );
    assert_eq!(
        cv(Skl, DF, Q, 0xFFF0_0000_0000_0000, false),
        0x8000_0000_0000_0000
    );
    assert_eq!(cv(Skl, DF, UQ, 0xFFF0_0000_0000_0000, false), 0);
    // Flags: invalid for NaN, inf and overflow; none for zero.
    assert!(conv(Skl, F, D, 0x7FC0_0000, false).flags.invalid());
    assert!(conv(Skl, F, D, 0x4F80_0000, false).flags.invalid());
    assert!(conv(Skl, F, D, 0, false).flags.is_empty());
    assert!(conv(Skl, F, D, 0x3FC0_0000, false).flags.inexact());
}

#[test]
fn saturation_rows() {
    #[rustfmt::skip]
    let cases: &[(&str, Platform, DataType, DataType, u64, u64)] = &[
        ("sat.float", Skl, F, F, 0x4000_0000, 0x3F80_0000),  // 2.0 -> 1.0
        ("sat.float", Skl, F, F, 0xC040_0000, 0),            // -3.0 -> 0
        ("sat.float", Skl, F, F, 0x7FC0_0000, 0),            // NaN -> 0
        ("sat.float", Skl, F, F, 0x3F00_0000, 0x3F00_0000),  // 0.5 unchanged
        ("sat.float", Skl, F, F, 0x7F80_0000, 0x3F80_0000),  // +inf -> 1.0
        ("sat.float", Skl, F, F, 0xFF80_0000, 0),            // -inf -> 0
        ("sat.float", Skl, D, F, 0xFFFF_FFFB, 0),            // -5 -> 0
        ("sat.float", Skl, D, HF, 7, 0x3C00),
        ("sat.float", Ivb, DF, F, 0x3FE0_0000_0000_0000, 0x3F00_0000),
        ("sat.float", Ivb, F, DF, 0x7F80_0001, 0),
        ("sat.int.ub", Ivb, D, UB, 300, 0xFF),
        ("sat.int.ub", Ivb, D, UB, 0xFFFF_FFFB, 0),
        ("sat.int.b", Ivb, D, B, 0xFFFF_FED4, 0x80),         // -300
        ("sat.int.uw", Ivb, D, UW, 70000, 0xFFFF),
        ("sat.int.w", Ivb, D, W, 0xFFFE_EE90, 0x8000),       // -70000
        ("sat.int.ud", Skl, Q, UD, u64::MAX, 0),             // -1
        ("sat.int.d", Ivb, UD, D, 0xFFFF_FFFF, 0x7FFF_FFFF),
        ("sat.int.uq", Skl, Q, UQ, u64::MAX, 0),
        ("sat.int.q", Skl, UQ, Q, u64::MAX, 0x7FFF_FFFF_FFFF_FFFF),
    ];
    let mut seen = std::collections::BTreeSet::new();
    for &(id, p, s, d, x, want) in cases {
        let o = conv(p, s, d, x, true);
        assert_eq!(o.bits, want, "{id}: {s:?} {x:#X} -> {d:?}");
        assert_eq!(o.sat_id, Some(id), "{s:?} -> {d:?}");
        assert!(!o.any_nan_allowed);
        seen.insert(id);
    }
    let all: std::collections::BTreeSet<&str> =
        conversions::SATURATIONS.iter().map(|r| r.id).collect();
    assert_eq!(seen, all, "every [[saturation]] row exercised");
    // Float -> integer results are in range already: saturation changes nothing.
    for x in samples(F) {
        for d in INTS {
            assert_eq!(cv(Skl, F, d, x, true), cv(Skl, F, d, x, false));
        }
    }
}

#[test]
fn errors() {
    // Types a platform lacks, and vector types, have no conversion.
    for (s, d) in [(HF, F), (F, Q), (UQ, D)] {
        let e = float::convert(&env(Ivb), s, d, 0, false).unwrap_err();
        assert_eq!(
            e,
            ConvError::NoRule {
                src: s,
                dst: d,
                platform: Ivb
            }
        );
    }
    assert!(float::convert(&env(Skl), V, W, 0, false).is_err());
    assert!(float::int_range(F).is_none());
    assert_eq!(float::int_range(B), Some((-128, 127)));
    assert_eq!(float::int_range(UQ), Some((0, u64::MAX as i128)));
}
