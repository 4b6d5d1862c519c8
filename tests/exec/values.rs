//! euref::values: GRF typed access, immediates (W/UW replication, V, UV, VF), and the VF rule
//! (type.vf) checked exhaustively against the class table of seed000 §2.2.5. Floats are
//! compared by their bit patterns.

use euref::spec::{DataType, Platform};
use euref::values::{
    check_word_replication, decode_imm, element_type, encode_imm, encode_vector, f32_bits_to_vf,
    imm_field_bits, to_i64, uv_element, v_element, vf_to_f32_bits, Grf, ValueError,
};

use DataType::*;

// ------------------------------------------------------------------------------------- VF

/// seed000 §2.2.5, "Examples of Restricted 8-bit Float Numbers", one row per class:
/// (first code, last code, negative, extended 8-bit exponent, value at fraction 0000, value at
/// fraction 1111). For the 0x01-0x0F / 0x81-0x8F rows the table's first value (±0.125) is the
/// value of fraction 0000, whose code is the zero code; the class's codes start at 0001.
#[rustfmt::skip]
const VF_CLASSES: &[(u8, u8, bool, u32, f64, f64)] = &[
    (0x70, 0x7f, false, 0b1000_0011, 16.0, 31.0),
    (0x60, 0x6f, false, 0b1000_0010, 8.0, 15.5),
    (0x50, 0x5f, false, 0b1000_0001, 4.0, 7.75),
    (0x40, 0x4f, false, 0b1000_0000, 2.0, 3.875),
    (0x30, 0x3f, false, 0b0111_1111, 1.0, 1.9375),
    (0x20, 0x2f, false, 0b0111_1110, 0.5, 0.96875),
    (0x10, 0x1f, false, 0b0111_1101, 0.25, 0.484375),
    (0x01, 0x0f, false, 0b0111_1100, 0.125, 0.2421875),
    (0xf0, 0xff, true, 0b1000_0011, -16.0, -31.0),
    (0xe0, 0xef, true, 0b1000_0010, -8.0, -15.5),
    (0xd0, 0xdf, true, 0b1000_0001, -4.0, -7.75),
    (0xc0, 0xcf, true, 0b1000_0000, -2.0, -3.875),
    (0xb0, 0xbf, true, 0b0111_1111, -1.0, -1.9375),
    (0xa0, 0xaf, true, 0b0111_1110, -0.5, -0.96875),
    (0x90, 0x9f, true, 0b0111_1101, -0.25, -0.484375),
    (0x81, 0x8f, true, 0b0111_1100, -0.125, -0.2421875),
];

#[test]
fn vf_all_256_codes_follow_the_seed_table() {
    assert_eq!(VF.info().id, "type.vf");
    let mut covered = [false; 256];
    // The two zero codes.
    assert_eq!(vf_to_f32_bits(0x00), 0x0000_0000, "+0");
    assert_eq!(vf_to_f32_bits(0x80), 0x8000_0000, "-0");
    covered[0x00] = true;
    covered[0x80] = true;
    for &(lo, hi, neg, e8, base, last) in VF_CLASSES {
        // The table's last value is 1.1111b times the class base.
        assert_eq!((base * (1.0 + 15.0 / 16.0)).to_bits(), last.to_bits());
        for code in lo..=hi {
            assert!(!covered[code as usize], "{code:#04x} in two classes");
            covered[code as usize] = true;
            let frac = f64::from(code & 0xf);
            let want = (base * (1.0 + frac / 16.0)) as f32;
            let got = vf_to_f32_bits(code);
            assert_eq!(got, want.to_bits(), "code {code:#04x}");
            assert_eq!(got >> 31 == 1, neg, "sign of {code:#04x}");
            assert_eq!((got >> 23) & 0xff, e8, "extended exponent of {code:#04x}");
            assert_eq!(
                got & 0x7_ffff,
                0,
                "no fraction bits below bit 19 for {code:#04x}"
            );
            let mag = f64::from(f32::from_bits(got)).abs();
            assert!(
                mag >= base.abs() && mag <= last.abs(),
                "{code:#04x} inside its class"
            );
        }
    }
    assert!(covered.iter().all(|c| *c), "every code belongs to a class");
    // Extremes: the largest magnitude is 31 (0x7F), the smallest non-zero 0x01 = 0.1328125.
    assert_eq!(vf_to_f32_bits(0x7f), 31.0f32.to_bits());
    assert_eq!(vf_to_f32_bits(0xff), (-31.0f32).to_bits());
    assert_eq!(vf_to_f32_bits(0x01), 0.1328125f32.to_bits());
    assert_eq!(vf_to_f32_bits(0x30), 1.0f32.to_bits());
}

#[test]
fn vf_encoding_inverts_decoding() {
    for code in 0..=255u8 {
        assert_eq!(
            f32_bits_to_vf(vf_to_f32_bits(code)),
            Some(code),
            "{code:#04x}"
        );
    }
    // Not representable: 0.125 (its code would be the zero code), 32, 0.3 (needs more
    // fraction bits), denormals, infinities and NaN.
    for x in [
        0.125f32,
        32.0,
        0.3,
        1.0e-40,
        f32::INFINITY,
        f32::NAN,
        0.0625,
    ] {
        assert_eq!(f32_bits_to_vf(x.to_bits()), None, "{x}");
    }
    assert_eq!(f32_bits_to_vf((-0.0f32).to_bits()), Some(0x80));
}

#[test]
fn vf_immediate_decodes_to_four_floats() {
    // Mesa corpus (gen7/mov): `0x30003000VF /* [0F, 1F, 0F, 1F]VF */`.
    let e = decode_imm(Platform::Ivb, VF, 0x3000_3000).unwrap();
    assert_eq!(e.ty(), F);
    assert_eq!(e.len(), 4);
    let want = [0.0f32, 1.0, 0.0, 1.0].map(|x| u64::from(x.to_bits()));
    assert_eq!(e.as_slice(), &want);
    // Each byte is one element, element 0 in the low byte.
    let e = decode_imm(Platform::Skl, VF, 0x80ff_7f01).unwrap();
    let want = [0.1328125f32, 31.0, -31.0, -0.0].map(|x| u64::from(x.to_bits()));
    assert_eq!(e.as_slice(), &want);
    let elems: Vec<i64> = want.iter().map(|x| *x as i64).collect();
    assert_eq!(encode_vector(VF, &elems), Ok(0x80ff_7f01));
    assert!(matches!(
        encode_vector(VF, &[0, 0, 0, i64::from(0.3f32.to_bits())]),
        Err(ValueError::BadVector { ty: VF, .. })
    ));
}

// ---------------------------------------------------------------------------------- V / UV

#[test]
fn v_and_uv_every_nibble_in_every_position() {
    assert_eq!(V.info().id, "type.v");
    assert_eq!(UV.info().id, "type.uv");
    assert_eq!(element_type(V), W);
    assert_eq!(element_type(UV), UW);
    assert_eq!(element_type(VF), F);
    assert_eq!(element_type(D), D);
    for pos in 0..8 {
        for nib in 0..16u32 {
            // Fill the other positions with a pattern so that neighbours cannot leak in.
            let filler = 0x9a5c_3e71u32 & !(0xf << (4 * pos));
            let raw = filler | (nib << (4 * pos));
            let signed = if nib >= 8 {
                nib as i32 - 16
            } else {
                nib as i32
            };
            assert_eq!(
                v_element(raw, pos),
                Some(signed as i16),
                "V nibble {nib} at {pos}"
            );
            assert_eq!(
                uv_element(raw, pos),
                Some(nib as u16),
                "UV nibble {nib} at {pos}"
            );
            for p in Platform::ALL {
                let v = decode_imm(p, V, u64::from(raw)).unwrap();
                assert_eq!((v.ty(), v.len()), (W, 8));
                assert_eq!(
                    v.get(pos),
                    Some(u64::from(signed as i16 as u16)),
                    "V on {}",
                    p.name()
                );
                let uv = decode_imm(p, UV, u64::from(raw)).unwrap();
                assert_eq!((uv.ty(), uv.len()), (UW, 8));
                assert_eq!(uv.get(pos), Some(u64::from(nib)), "UV on {}", p.name());
            }
        }
    }
    assert_eq!(v_element(0, 8), None);
    assert_eq!(uv_element(0, 8), None);
    // Mesa corpus (gen9/mov): 0x76543210V is the vector 0..7.
    let v = decode_imm(Platform::Skl, V, 0x7654_3210).unwrap();
    assert_eq!(v.as_slice(), &[0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(encode_vector(V, &[0, 1, 2, 3, 4, 5, 6, 7]), Ok(0x7654_3210));
    assert_eq!(
        encode_vector(V, &[-8, -1, 0, 7, 0, 0, 0, 0]),
        Ok(0x0000_70f8)
    );
    assert_eq!(
        encode_vector(UV, &[15, 0, 0, 0, 0, 0, 0, 1]),
        Ok(0x1000_000f)
    );
    assert!(matches!(
        encode_vector(V, &[8, 0, 0, 0, 0, 0, 0, 0]),
        Err(ValueError::BadVector { .. })
    ));
    assert!(matches!(
        encode_vector(UV, &[-1, 0, 0, 0, 0, 0, 0, 0]),
        Err(ValueError::BadVector { .. })
    ));
    assert!(matches!(
        encode_vector(UV, &[0; 7]),
        Err(ValueError::BadVector { .. })
    ));
    assert!(matches!(
        encode_vector(D, &[0; 8]),
        Err(ValueError::BadVector { .. })
    ));
}

// ------------------------------------------------------------------------ scalar immediates

#[test]
fn word_immediates_must_be_replicated() {
    // seed000 §3.3.4: the 16-bit value goes in both halves of the 32-bit field.
    assert_eq!(W.info().id, "type.w");
    assert_eq!(UW.info().id, "type.uw");
    for p in Platform::ALL {
        assert_eq!(encode_imm(p, UW, 0x1234), Ok(0x1234_1234));
        assert_eq!(encode_imm(p, W, (-2i64) as u64), Ok(0xfffe_fffe));
        assert_eq!(encode_imm(p, W, 0x8000), Ok(0x8000_8000));
        assert_eq!(
            encode_imm(p, W, 0x1_0000),
            Err(ValueError::ValueTooWide {
                ty: W,
                value: 0x1_0000
            })
        );
        let e = decode_imm(p, W, 0xfffe_fffe).unwrap();
        assert_eq!((e.ty(), e.as_slice()), (W, &[0xfffe][..]));
        assert_eq!(
            decode_imm(p, UW, 0x0000_1234),
            Err(ValueError::NotReplicated {
                ty: UW,
                raw: 0x0000_1234
            })
        );
        assert_eq!(
            decode_imm(p, W, 0x1234_0000),
            Err(ValueError::NotReplicated {
                ty: W,
                raw: 0x1234_0000
            })
        );
    }
    assert_eq!(check_word_replication(W, 0xabcd_abcd), Ok(()));
    assert!(check_word_replication(UW, 0xabcd_abce).is_err());
    // Other types are not subject to the rule.
    assert_eq!(check_word_replication(UD, 0x0000_1234), Ok(()));
    let msg = ValueError::NotReplicated {
        ty: W,
        raw: 0x0000_1234,
    }
    .to_string();
    assert!(msg.contains('W') && msg.contains("0x00001234"), "{msg}");
    // HF immediates (Gen8+) are encoded replicated too; decoding takes the low word.
    assert_eq!(encode_imm(Platform::Bdw, HF, 0x3c00), Ok(0x3c00_3c00));
    assert_eq!(
        decode_imm(Platform::Bdw, HF, 0x3c00_3c00)
            .unwrap()
            .as_slice(),
        &[0x3c00]
    );
    assert_eq!(
        encode_imm(Platform::Ivb, HF, 0x3c00),
        Err(ValueError::NoImmediate {
            ty: HF,
            platform: Platform::Ivb
        })
    );
}

#[test]
fn scalar_immediates_by_platform() {
    // Bytes never have an immediate form (seed000 §3.3.4).
    for p in Platform::ALL {
        for t in [UB, B] {
            assert_eq!(imm_field_bits(p, t), None);
            assert_eq!(
                decode_imm(p, t, 1),
                Err(ValueError::NoImmediate { ty: t, platform: p })
            );
        }
        for t in [UW, W, UD, D, F, V, UV, VF] {
            assert_eq!(
                imm_field_bits(p, t),
                Some(32),
                "{} on {}",
                t.name(),
                p.name()
            );
        }
        // 32-bit field: wider raw values are refused.
        assert_eq!(
            decode_imm(p, UD, 0x1_0000_0000),
            Err(ValueError::ImmediateTooWide {
                ty: UD,
                platform: p,
                raw: 0x1_0000_0000,
                field_bits: 32
            })
        );
        let e = decode_imm(p, F, u64::from(17.0f32.to_bits())).unwrap();
        assert_eq!(e.as_slice(), &[u64::from(17.0f32.to_bits())]);
        assert_eq!(encode_imm(p, D, (-1i64) as u64), Ok(0xffff_ffff));
        assert_eq!(encode_imm(p, UD, 0xffff_ffff), Ok(0xffff_ffff));
        assert!(encode_imm(p, VF, 0).is_err());
    }
    // 64-bit immediates from Gen8 (feature.imm-64bit): DF, Q, UQ.
    for p in [Platform::Ivb, Platform::Hsw] {
        for t in [DF, Q, UQ] {
            assert_eq!(imm_field_bits(p, t), None, "{} on {}", t.name(), p.name());
            assert!(matches!(
                decode_imm(p, t, 0),
                Err(ValueError::NoImmediate { .. })
            ));
        }
    }
    for p in [Platform::Bdw, Platform::Chv, Platform::Skl, Platform::Bxt] {
        for t in [DF, Q, UQ] {
            assert_eq!(imm_field_bits(p, t), Some(64));
        }
        let minus_one = (-1.0f64).to_bits();
        assert_eq!(
            decode_imm(p, DF, minus_one).unwrap().as_slice(),
            &[minus_one]
        );
        assert_eq!(encode_imm(p, Q, u64::MAX), Ok(u64::MAX));
        assert_eq!(imm_field_bits(p, HF), Some(32));
    }
}

#[test]
fn sign_extension_helper() {
    assert_eq!(to_i64(W, 0xfffe), -2);
    assert_eq!(to_i64(UW, 0xfffe), 0xfffe);
    assert_eq!(to_i64(B, 0x80), -128);
    assert_eq!(to_i64(D, 0x8000_0000), i64::from(i32::MIN));
    assert_eq!(to_i64(Q, u64::MAX), -1);
    assert_eq!(to_i64(UB, 0x1ff), 0xff);
}

// ------------------------------------------------------------------------------------- GRF

const SCALARS: [DataType; 11] = [UB, B, UW, W, UD, D, UQ, Q, HF, F, DF];

#[test]
fn grf_geometry_comes_from_the_spec() {
    let g = Grf::new();
    assert_eq!(Grf::geometry(), (128, 32));
    assert_eq!(g.size(), 4096);
    assert_eq!(g.registers(), 128);
    assert_eq!(g.reg_bytes(), 32);
    assert_eq!(g.offset(3, 5), 101);
    assert_eq!(g.reg(127).map(|r| r.len()), Some(32));
    assert_eq!(g.reg(128), None);
    assert!(g.as_bytes().iter().all(|b| *b == 0));
}

#[test]
fn typed_access_at_every_offset() {
    let mut g = Grf::new();
    let size = g.size();
    for t in SCALARS {
        let n = t.bytes() as usize;
        for off in 0..size + 8 {
            let r = g.read(t, off);
            if off % n != 0 {
                assert_eq!(
                    r,
                    Err(ValueError::Misaligned {
                        ty: t,
                        offset: off,
                        align: n
                    })
                );
                assert_eq!(
                    g.write(t, off, 0),
                    Err(ValueError::Misaligned {
                        ty: t,
                        offset: off,
                        align: n
                    })
                );
            } else if off + n > size {
                let e = ValueError::OutOfRange {
                    ty: t,
                    offset: off,
                    size: n,
                    limit: size,
                };
                assert_eq!(r, Err(e));
                assert_eq!(g.write(t, off, 0), Err(e));
            } else {
                assert!(r.is_ok(), "{} at {off}", t.name());
                // A value that uses every byte of the element, distinct per offset.
                let v = (0x0102_0304_0506_0708u64 ^ off as u64) & (u64::MAX >> (64 - 8 * n));
                g.write(t, off, v).unwrap();
                assert_eq!(g.read(t, off), Ok(v), "{} at {off}", t.name());
            }
        }
        // Overflowing offsets do not wrap.
        assert!(matches!(
            g.read(t, usize::MAX - (usize::MAX % n)),
            Err(ValueError::OutOfRange { .. })
        ));
    }
    // Immediate-only vector types have no register form.
    for t in [V, UV, VF] {
        assert_eq!(
            g.read(t, 0),
            Err(ValueError::NotRegisterType { ty: t, offset: 0 })
        );
        assert_eq!(
            g.write(t, 4, 0),
            Err(ValueError::NotRegisterType { ty: t, offset: 4 })
        );
    }
    // Errors name the offset and the type.
    let msg = g.read(UD, 13).unwrap_err().to_string();
    assert!(msg.contains("13") && msg.contains("UD"), "{msg}");
    let msg = g.read(DF, 4096).unwrap_err().to_string();
    assert!(msg.contains("4096") && msg.contains("DF"), "{msg}");
}

#[test]
fn little_endian_layout_and_value_width() {
    let mut g = Grf::new();
    let r2 = g.offset(2, 0);
    g.write(UD, r2 + 4, 0x1122_3344).unwrap();
    assert_eq!(&g.as_bytes()[r2 + 4..r2 + 8], &[0x44, 0x33, 0x22, 0x11]);
    assert_eq!(g.read(UW, r2 + 4), Ok(0x3344));
    assert_eq!(g.read(UW, r2 + 6), Ok(0x1122));
    assert_eq!(g.read(UB, r2 + 7), Ok(0x11));
    assert_eq!(g.read(B, r2 + 4), Ok(0x44));
    g.write(DF, r2 + 8, 1.5f64.to_bits()).unwrap();
    assert_eq!(g.read(DF, r2 + 8), Ok(1.5f64.to_bits()));
    assert_eq!(g.read(UD, r2 + 12), Ok(1.5f64.to_bits() >> 32));
    assert_eq!(g.reg(2).unwrap()[4], 0x44);
    // A sign-extended negative value is accepted for signed integer types only.
    g.write(W, 0, (-1i64) as u64).unwrap();
    assert_eq!(g.read(UW, 0), Ok(0xffff));
    g.write(B, 3, (-128i64) as u64).unwrap();
    assert_eq!(g.read(UB, 3), Ok(0x80));
    assert_eq!(
        g.write(UW, 0, u64::MAX),
        Err(ValueError::ValueTooWide {
            ty: UW,
            value: u64::MAX
        })
    );
    assert_eq!(
        g.write(F, 0, 1 << 32),
        Err(ValueError::ValueTooWide {
            ty: F,
            value: 1 << 32
        })
    );
    // High bits all ones but the W sign bit clear: not a sign extension.
    let bad = 0xffff_ffff_ffff_7fffu64;
    assert_eq!(
        g.write(W, 0, bad),
        Err(ValueError::ValueTooWide { ty: W, value: bad })
    );
    assert_eq!(g.write(W, 0, 0xffff_ffff_ffff_8000), Ok(()));
    assert_eq!(g.read(W, 0), Ok(0x8000));
    assert_eq!(g.write(HF, 2, 0x3c00), Ok(()));
    assert_eq!(g.read(HF, 2), Ok(0x3c00));
}
