//! Issue 27 class 10: operand values that fit their fields but are reserved decode as errors
//! naming the field, and the encoder refuses them (rows enc.grf-reg-nr, enc.dst-hstride,
//! enc.ret-src0-register). Bit positions are those of the Gen8/Gen9 Align1 layouts
//! (enc.gen8.a1, enc.gen8.a1-imm in spec/encoding/gen8.toml), written out here by hand: the
//! words are built bit by bit, not taken from euref's encoder.

use euref::codec::{self, DecodeErrorKind};
use euref::isa::{Addr, Imm, Reg, Src};
use euref::spec::DataType;
use euref::spec::Platform::{self, *};

/// Set bits `hi:lo` of `w` to `v`.
fn set(w: u128, hi: u32, lo: u32, v: u128) -> u128 {
    let mask = ((1u128 << (hi - lo + 1)) - 1) << lo;
    (w & !mask) | ((v << lo) & mask)
}

/// `mov (8|M0) r2.0<1>:ud r3.0<8;8,1>:ud` on Gen8/Gen9 (enc.gen8.a1): opcode 6:0 = 1 (mov),
/// ExecSize 23:21 = 3 (8 channels), dst/src0 RegFile 36:35 / 42:41 = 1 (GRF), types 40:37 /
/// 46:43 = 0 (UD), dst RegNum 60:53 = 2, dst HorzStride 62:61 = 1 (stride 1), src0 RegNum
/// 76:69 = 3, src0 HorzStride 81:80 = 1, Width 84:82 = 3 (8), VertStride 88:85 = 4 (8).
fn mov_word() -> u128 {
    let mut w = 0u128;
    for (hi, lo, v) in [
        (6, 0, 1),
        (23, 21, 3),
        (36, 35, 1),
        (42, 41, 1),
        (60, 53, 2),
        (62, 61, 1),
        (76, 69, 3),
        (81, 80, 1),
        (84, 82, 3),
        (88, 85, 4),
    ] {
        w = set(w, hi, lo, v);
    }
    w
}

fn decode(w: u128, p: Platform) -> Result<euref::isa::Insn, codec::DecodeError> {
    codec::decode(&w.to_le_bytes(), p).map(|(i, _)| i)
}

/// The base word is a valid mov (so every error below comes from the changed field).
#[test]
fn base_word_decodes() {
    for p in [Bdw, Skl] {
        let i = decode(mov_word(), p).unwrap_or_else(|e| panic!("{}: {e}", p.name()));
        let d = i.dst.unwrap();
        assert_eq!(
            d.addr,
            Addr::Direct {
                reg: Reg::Grf(2),
                sub: 0
            }
        );
        assert_eq!(d.hstride, 1);
    }
}

/// r128-r255 (RegNum bit 7 set) name no register: regfile.grf has 128 (enc.grf-reg-nr).
#[test]
fn grf_numbers_from_128_are_reserved() {
    for p in [Bdw, Skl] {
        for n in [128u128, 200, 255] {
            let e = decode(set(mov_word(), 60, 53, n), p).unwrap_err();
            assert_eq!(e.kind, DecodeErrorKind::ReservedValue, "{e}");
            assert_eq!((e.field, e.byte, e.value), ("dst_reg_nr", 53 / 8, n as u64));
            assert!(e.to_string().contains("dst_reg_nr"), "{e}");

            let e = decode(set(mov_word(), 76, 69, n), p).unwrap_err();
            assert_eq!(e.kind, DecodeErrorKind::ReservedValue, "{e}");
            assert_eq!(
                (e.field, e.byte, e.value),
                ("src0_reg_nr", 69 / 8, n as u64)
            );
        }
        // r127 is the last register.
        let i = decode(set(mov_word(), 60, 53, 127), p).unwrap();
        assert_eq!(
            i.dst.unwrap().addr,
            Addr::Direct {
                reg: Reg::Grf(127),
                sub: 0
            }
        );
    }
}

/// Destination HorzStride 0 is reserved, for the null register too (enc.dst-hstride).
#[test]
fn destination_stride_zero_is_reserved() {
    for p in [Bdw, Skl] {
        let e = decode(set(mov_word(), 62, 61, 0), p).unwrap_err();
        assert_eq!(e.kind, DecodeErrorKind::ReservedValue, "{e}");
        assert_eq!((e.field, e.byte, e.value), ("dst_hstride", 61 / 8, 0));
        // null: ARF (RegFile 0) number 0.
        let null = set(set(mov_word(), 36, 35, 0), 60, 53, 0);
        assert!(decode(null, p).is_ok());
        let e = decode(set(null, 62, 61, 0), p).unwrap_err();
        assert_eq!(
            (e.field, e.kind),
            ("dst_hstride", DecodeErrorKind::ReservedValue)
        );
    }
}

/// ret with an immediate source (src0 RegFile 42:41 = 3): malformed (enc.ret-src0-register).
/// The base is `ret (1|M0) r2.0<0;1,0>:ud`: opcode 0x2d, ExecSize 0, src0 GRF 2, region
/// <0;1,0> (VertStride 0, Width 0 = 1, HorzStride 0).
#[test]
fn ret_with_an_immediate_is_malformed() {
    let mut w = 0u128;
    for (hi, lo, v) in [(6, 0, 0x2d), (42, 41, 1), (76, 69, 2)] {
        w = set(w, hi, lo, v);
    }
    for p in [Bdw, Skl] {
        let i = decode(w, p).unwrap_or_else(|e| panic!("{}: {e}", p.name()));
        assert!(matches!(i.src[0], Some(Src::Reg(_))));
        let e = decode(set(w, 42, 41, 3), p).unwrap_err();
        assert_eq!(e.kind, DecodeErrorKind::Malformed, "{e}");
        assert_eq!((e.field, e.byte, e.value), ("src0_reg_file", 41 / 8, 3));
    }
}

/// The encoder refuses the same three operands (naming the operand).
#[test]
fn encoder_refuses_reserved_operands() {
    for p in [Hsw, Bdw, Skl] {
        let base = decode(mov_word(), Skl).unwrap();
        assert!(codec::encode(&base, p).is_ok());

        let mut i = base.clone();
        i.dst.as_mut().unwrap().addr = Addr::Direct {
            reg: Reg::Grf(128),
            sub: 0,
        };
        assert_eq!(codec::encode(&i, p).unwrap_err().field, "dst");

        let mut i = base.clone();
        if let Some(Src::Reg(r)) = &mut i.src[0] {
            r.addr = Addr::Direct {
                reg: Reg::Grf(250),
                sub: 0,
            };
        }
        assert_eq!(codec::encode(&i, p).unwrap_err().field, "src0");

        let mut i = base.clone();
        i.dst.as_mut().unwrap().hstride = 0;
        assert_eq!(codec::encode(&i, p).unwrap_err().field, "dst");

        let mut ret = euref::isa::Insn::new(euref::spec::Opcode::Ret);
        ret.src[0] = Some(Src::Reg(euref::isa::RegSrc::new(
            Reg::Grf(2),
            0,
            DataType::UD,
            euref::isa::Region::SCALAR,
        )));
        assert!(codec::encode(&ret, p).is_ok(), "{}", p.name());
        ret.src[0] = Some(Src::Imm(Imm::new(DataType::UD, 16)));
        assert_eq!(codec::encode(&ret, p).unwrap_err().field, "src0");
    }
}

/// `wait` names its notification subregister twice (enc.wait-src0-is-dst): a word whose src0
/// fields differ from the source enc.implicit.wait derives from the destination is refused,
/// naming the differing field and the rule. The base is Gen8/Gen9 `wait (1|M0) n0.1<1>:ud`,
/// built bit by bit (enc.gen8.a1): opcode 6:0 = 0x30, WE_all 34 = 1 (mask control), dst and
/// src0 RegFile 36:35 / 42:41 = 0 (ARF), types 40:37 / 46:43 = 0 (UD), dst RegNum 60:53 =
/// 0x30 (n0), dst SubRegNum 52:48 = 4 (byte 4: n0.1), dst HorzStride 62:61 = 1; src0 RegNum
/// 76:69 = 0x30, SubRegNum 68:64 = 4, region <0;1,0> (VertStride 88:85 = 0, Width 84:82 = 0,
/// HorzStride 81:80 = 0).
#[test]
fn wait_whose_source_differs_from_its_destination_is_refused() {
    let mut w = 0u128;
    for (hi, lo, v) in [
        (6, 0, 0x30),
        (34, 34, 1),
        (60, 53, 0x30),
        (52, 48, 4),
        (62, 61, 1),
        (76, 69, 0x30),
        (68, 64, 4),
    ] {
        w = set(w, hi, lo, v);
    }
    for p in [Bdw, Skl] {
        let i = decode(w, p).unwrap_or_else(|e| panic!("{}: {e}", p.name()));
        assert_eq!(
            i.dst.unwrap().addr,
            Addr::Direct {
                reg: Reg::Arf(0x30),
                sub: 4
            }
        );
        // src0 names r2 (GRF): the register file differs first.
        let grf = set(set(w, 42, 41, 1), 76, 69, 2);
        // src0 names n0.2 (SubRegNum 8); src0 region <8;8,1> (VertStride 4, Width 3, HorzStride 1).
        let sub = set(w, 68, 64, 8);
        let region = set(set(set(w, 88, 85, 4), 84, 82, 3), 81, 80, 1);
        for (word, field, value) in [
            (grf, "src0_reg_file", 1),
            (sub, "src0_subreg_nr", 8),
            (region, "src0_vstride", 4),
        ] {
            let e = decode(word, p).unwrap_err();
            assert_eq!((e.field, e.value), (field, value), "{}: {e}", p.name());
            assert_eq!(e.rule, Some("enc.wait-src0-is-dst"));
            assert!(e.to_string().contains("enc.wait-src0-is-dst"), "{e}");
        }
    }
}
