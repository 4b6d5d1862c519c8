//! The assembly examples of seeds 000 (Ivy Bridge PRM), 002 (vISA operands) and 004 (Broxton
//! region restrictions, indirect addressing) parse, with the operand fields they describe, and
//! round-trip through every dialect. Extraction damage in the seeds is repaired and noted.

use euref::asm::{self, Dialect};
use euref::isa::{Addr, Insn, Reg, RegSrc, Region, Src, Swizzle};
use euref::spec::{AccessMode, CondMod, DataType, MathFn, Opcode, Platform, PredCtrl};

use crate::asm_util;
use asm_util::parse_round_trip as parse;

fn src(i: &Insn, n: usize) -> RegSrc {
    *i.src[n]
        .and_then(|s| s.as_reg().copied())
        .as_ref()
        .unwrap_or_else(|| panic!("src{n} of {i:?} is no register"))
}

const IVB: Platform = Platform::Ivb;
const SKL: Platform = Platform::Skl;
const BXT: Platform = Platform::Bxt;

#[test]
fn seed000_prm_examples() {
    // §1.x notation example.
    let i = parse("(f0.0) add (16) r0.0<1>:f r2.0<8;8,1>:f r4.0<8;8,1>:f", IVB);
    assert_eq!(
        asm::detect_dialect(b"(f0.0) add (16) r0.0<1>:f"),
        Dialect::Prm
    );
    assert_eq!(
        (i.pred, i.pred_inv, i.flag.reg, i.flag.sub),
        (PredCtrl::Seq, false, 0, 0)
    );
    assert_eq!(i.exec_size, 16);
    assert_eq!(src(&i, 1).region, Region::CONTIG8);

    // §3.3.5 region examples (destination without a region is <1>).
    let i = parse("mov (8) r10.0:f r11.0<8;8,1>:f", IVB);
    assert_eq!(i.dst.unwrap().hstride, 1);
    let i = parse("mov (8) r10.0:f r11.0<4;4,2>:f", IVB);
    assert_eq!(src(&i, 0).region, Region::new(4, 4, 2));
    // (seed: `r11. 0`)
    let i = parse("mov (8) r10.0<2>:w r11.0<8;8,1>:w", IVB);
    assert_eq!(i.dst.unwrap().hstride, 2);
    let i = parse("mov (8) r10.1:f r11.0<4;4,1>:f", IVB);
    assert_eq!(
        i.dst.unwrap().addr,
        Addr::Direct {
            reg: Reg::Grf(10),
            sub: 4
        }
    );
    let i = parse("mov (4) r10.1:f r11.1<4;4,1>:f", IVB);
    assert_eq!(
        src(&i, 0).addr,
        Addr::Direct {
            reg: Reg::Grf(11),
            sub: 4
        }
    );
    // The region figure's r4.1<16;8,2>:w, r5.0<1;8,2>:w (seed003 too), r1.7<16;8,1>:b.
    let i = parse("mov (16) r20.0<1>:w r4.1<16;8,2>:w", IVB);
    assert_eq!(src(&i, 0).region, Region::new(16, 8, 2));
    assert_eq!(
        src(&i, 0).addr,
        Addr::Direct {
            reg: Reg::Grf(4),
            sub: 2
        }
    );
    let i = parse("mov (16) r20.0<1>:w r5.0<1;8,2>:w", IVB);
    assert_eq!(src(&i, 0).region, Region::new(1, 8, 2));

    // §3.2 Align16 (SIMD4x2) examples: swizzles and write masks make them Align16.
    let i = parse(
        "add (4) r3<4>.xyz:f r2<4>.yzwx:f r2.4<4>.zwxy:f {NoMask}",
        IVB,
    );
    assert_eq!(i.access, AccessMode::Align16);
    assert!(i.ctrl.no_mask);
    assert_eq!(i.dst.unwrap().wrmask, 0b0111);
    assert_eq!(src(&i, 0).swizzle, Swizzle::from_chans([1, 2, 3, 0]));
    assert_eq!(
        src(&i, 1).addr,
        Addr::Direct {
            reg: Reg::Grf(2),
            sub: 16
        }
    );
    assert_eq!(src(&i, 1).region.vstride, 4);
    let i = parse("add (8) r4<4>.xyz:f r2<4>.yxzw:f r3<4>.zwxy:f", IVB);
    assert_eq!(src(&i, 1).swizzle, Swizzle::from_chans([2, 3, 0, 1]));
    let i = parse("add (8) r4<4>.xyz:f r2<0>.yzwx:f r3<4>.zwxy:f", IVB);
    assert_eq!(src(&i, 0).region.vstride, 0);
    // SIMD16 equivalents (comments after `//`).
    parse(
        "add (16) r18<1>:f r4<8;8,1>:f r14<8;8,1>:f// dst.x = src0.y + src1.z",
        IVB,
    );
    let i = parse(
        "add (16) r18<1>:f r2.1<0;1,0>:f r14<8;8,1>:f {Compr}// dst.x = src0.y + src1.z",
        IVB,
    );
    assert_eq!(i.chan_off, 0);
    let i = parse(
        "add (8) r19<1>:f r5<8;8,1>:f r15<8;8,1>:f {SecHalf}// dst.x[15:8] = src0.y + src1.z",
        IVB,
    );
    assert_eq!(i.chan_off, 8);

    // §3.3.3.4 address register examples.
    let i = parse("mov (8) r1.0<1>:uw a0.0<8;8,1>:uw", IVB);
    assert_eq!(src(&i, 0).addr, Addr::reg(Reg::Arf(0x10)));
    let i = parse("mov (8) r1.8<1>:uw a0.4<0;1,0>:uw", IVB);
    assert_eq!(
        src(&i, 0).addr,
        Addr::Direct {
            reg: Reg::Arf(0x10),
            sub: 8
        }
    );
    let i = parse("mov (4) a0.4<1>:uw r1.0<4;4,1>:uw", IVB);
    assert_eq!(
        i.dst.unwrap().addr,
        Addr::Direct {
            reg: Reg::Arf(0x10),
            sub: 8
        }
    );
    let i = parse("mov (8) r1.0<1>:d r[a0.2]<4,1>:d", IVB);
    assert_eq!(src(&i, 0).addr, Addr::Indirect { a0: 2, off: 0 });
    assert_eq!(src(&i, 0).region, Region::new(Region::VXH, 4, 1));

    // §3.3.3.5 accumulator examples (seed: `{Ac cWrEn}`, `r12: hf`).
    let i = parse("add (16) r10:f r11:f r12:f {AccWrEn}", IVB);
    assert!(i.ctrl.acc_wr);
    assert_eq!(src(&i, 0).region, Region::CONTIG8);
    let i = parse("add (8) r10:f r11:f r12:f {AccWrEn, Q2}", IVB);
    assert_eq!(i.chan_off, 8);
    let i = parse("add (16) r10:hf r11:hf r12:hf {AccWrEn, H2}", IVB);
    assert_eq!(i.chan_off, 16);
    let i = parse("add.nz.f0.0 (8) r10:f r11:f r12:f", IVB);
    assert_eq!(i.cmod, CondMod::Nz);
}

#[test]
fn seed002_visa_indirect_regions() {
    // `r[A, offset]<VertStride;Width,HorzStride>` and the one-dimensional `<;Width,HorzStride>`,
    // with a0 subregisters for vISA's address variables.
    let i = parse("mov (8) r1.0<1>:d r[a0.1, 16]<8;8,1>:d", SKL);
    assert_eq!(src(&i, 0).addr, Addr::Indirect { a0: 1, off: 16 });
    let i = parse("mov (8) r1.0<1>:d r[a0.1, -32]<;4,1>:d", SKL);
    assert_eq!(src(&i, 0).addr, Addr::Indirect { a0: 1, off: -32 });
    assert!(src(&i, 0).region.is_vxh());
    let i = parse("mov (8) r[a0.3, 64]<1>:d r2.0<8;8,1>:d", SKL);
    assert_eq!(i.dst.unwrap().addr, Addr::Indirect { a0: 3, off: 64 });
}

#[test]
fn seed004_examples() {
    // Accumulators acc2-acc9 (Gen9).
    let i = parse("mov (8) r10:ud acc2:ud", BXT);
    assert_eq!(src(&i, 0).addr, Addr::reg(Reg::Arf(0x22)));
    let i = parse("mov (8) acc2:ud r10:ud", BXT);
    assert_eq!(i.dst.unwrap().addr, Addr::reg(Reg::Arf(0x22)));
    // Byte destinations, mixed HF.
    parse("mov (8) r10.0<2>:b r11.0<8;8,1>:w", BXT);
    parse("mov (8) r10.1<2>:b r11.0<8;8,1>:w", BXT);
    parse("add (8) r10.0<2>:hf r11.0<8;8,1>:f r12.0<8;8,1>:hf", BXT);
    parse("add (8) r10.1<2>:hf r11.0<8;8,1>:f r12.0<8;8,1>:hf", BXT);
    parse("mov (4) r10.0:df r11.0<16;8,2>:f", BXT);
    parse("mov (4) r10.0<2>:f r11.0<4;4,1>:df", BXT);
    parse("mul (4) r10.0<2>:d r11.0<8;4,2>:d r12.0<8;4,2>:d", BXT);
    // Align16 mixed mode (three-source; `.r` replicates a scalar).
    let i = parse(
        "mad (8) r10.0.xy:hf r11.0.xxxx:f r12.xyzw:hf r13.yyyy:hf",
        BXT,
    );
    assert_eq!(i.access, AccessMode::Align16);
    assert_eq!(i.dst.unwrap().wrmask, 0b0011);
    assert_eq!(src(&i, 0).swizzle, Swizzle::from_chans([0; 4]));
    parse(
        "mad (8) r10.0.xy:f r11.0.xxxx:f r12.xyzw:hf r13.yyyy:hf",
        BXT,
    );
    let i = parse(
        "mad(8) r20.xyzw:hf r3.0.r:f r6.0.xyzw:hf r6.0.xyzw:hf {Q1}",
        BXT,
    );
    assert_eq!(src(&i, 0).region.vstride, 0);
    assert_eq!(src(&i, 1).region.vstride, 4);
    parse("mad(8) r3.xyzw:hf r4.xyzw:f r6.xyzw:hf r7.xyzw:hf", BXT);
    parse("add(8) r20.0<1>:hf r3<8;8,1>:f r6.0<8;8,1>:hf {Q1}", BXT);
    parse("mac(8) r3<2>:hf r4.0<8;8,1>:f r6.0<8;4,2>:hf", BXT);
    parse("mov(8) r3<1>:f acc0.0<8;4,2>:hf", BXT);
    // (seed: `r4.0<4>xyzw`: swizzle letters right after the region)
    let i = parse("add(8) r3.xyzw:hf r4.0<4>xyzw:f r6.0<0>.xyzw:hf", BXT);
    assert_eq!(i.access, AccessMode::Align16);
    let i = parse("math(8) r3<1>:hf r4.0<8;8,1>:f r6.0<8;4,2>:hf", BXT);
    assert_eq!(i.math, MathFn::None);
    parse("add(8) r3<1>:hf r4.0<8;8,1>:f r6.0<8;4,2>:hf", BXT);
    // Indirect addressing and its two-instruction equivalents.
    let i = parse("mov (16) r[a0.0]:f r10:f", BXT);
    assert_eq!(i.dst.unwrap().addr, Addr::Indirect { a0: 0, off: 0 });
    parse("mov (8) r[a0.0]:f r10:f", BXT);
    let i = parse("mov (8) r[a0.0, 8*4]:f r11:f", BXT);
    assert_eq!(i.dst.unwrap().addr, Addr::Indirect { a0: 0, off: 32 });
    parse("add (16) r[a0.0]:f r[a0.2]:f r[a0.4]:f", BXT);
    parse("add (8) r[a0.0, 8*4]:f r[a0.2, 8*4]:f r[a0.4, 8*4]:f", BXT);
    let i = parse(
        "add (8) r[a0.0, 8*4]:f r[a0.2, 4*2]<4;8,1>:w r11<8;8,1>:ud",
        BXT,
    );
    assert_eq!(src(&i, 0).addr, Addr::Indirect { a0: 2, off: 8 });
    assert_eq!(src(&i, 0).region, Region::new(4, 8, 1));
    parse("add (8) r[a0.0]:f r[a0.2]:f r[a0.4]<0;1,0>:f", BXT);
    let i = parse("add (16) r[a0.0]<1>:d r[a0.0]<4,1>:ud r16.0<8;8,1>:ud", BXT);
    assert_eq!(src(&i, 0).region, Region::new(Region::VXH, 4, 1));
    let i = parse(
        "add (8) r11.0<2>:uw r[a0.8, 0]<1,0>:uw r17.0<8;8,1>:uw",
        BXT,
    );
    assert_eq!(src(&i, 0).addr, Addr::Indirect { a0: 8, off: 0 });
    assert_eq!(src(&i, 0).region, Region::new(Region::VXH, 1, 0));
    // Align16 single-register sources.
    let i = parse("mul (8) r10.0:f r11.0:f r12.4<0>:f", BXT);
    assert_eq!(i.access, AccessMode::Align16);
    assert_eq!(
        src(&i, 1).addr,
        Addr::Direct {
            reg: Reg::Grf(12),
            sub: 16
        }
    );
    parse("mad (8) r10.0:f r12.0<0>:f r14.4:f r16.0:f", BXT);
    // Integer/HF conversions.
    parse("add (8) r10.0<2>:hf r11.0<8;8,1>:w r12.0<8;8,1>:w", BXT);
    parse("mov (8) r10.0<2>:w r11.0<8;8,1>:hf", BXT);
}

#[test]
fn brief_examples_in_each_dialect() {
    // IGA style.
    let i = parse(
        "(f0.0) sel (16|M0) r10.0<1>:f r2.0<8;8,1>:f r4.0<8;8,1>:f",
        SKL,
    );
    assert_eq!(i.op, Opcode::Sel);
    let i = parse("math.inv (8|M0) r10.0<1>:f r2.0<8;8,1>:f", SKL);
    assert_eq!(i.math, MathFn::Inv);
    let i = parse("send (16|M0) r10 r4 0xA 0x2206000:ud", SKL);
    let s = i.send.unwrap();
    assert_eq!(s.sfid, 10);
    let i = parse("cmp (8|M0) (lt)f0.1 null<1>:f r2.0<8;8,1>:f 0x0:f", SKL);
    assert_eq!((i.cmod, i.flag.reg, i.flag.sub), (CondMod::L, 0, 1));
    let i = parse(
        "(W&~f1.0.any4h) mov (8|M8) (sat)r10.0<1>:f -(abs)r2.0<8;8,1>:f",
        SKL,
    );
    assert!(i.ctrl.no_mask && i.pred_inv && i.sat);
    assert_eq!(i.pred, PredCtrl::Any4h);
    assert!(src(&i, 0).neg && src(&i, 0).abs);
    for r in [
        "acc0.0<1>:f",
        "a0.0<1>:uw",
        "f0.1<1>:uw",
        "sr0.0<1>:ud",
        "cr0.0<1>:ud",
        "ce0.0<1>:ud",
        "tm0.0<1>:ud",
        "n0.0<1>:ud",
        "tdr0.0<1>:uw",
        "ip<1>:ud",
    ] {
        parse(&format!("(W) mov (1|M0) {r} 0x0:ud"), SKL);
    }
    // `ce` and `ip` without numbers.
    let i = parse("(W) mov (1|M0) r1.0<1>:ud ce<0;1,0>:ud", SKL);
    assert_eq!(src(&i, 0).addr, Addr::reg(Reg::Arf(0x40)));
    // Mesa.
    let i = parse("add(8) g124<1>F g7<8,8,1>D 1D { align1 1Q };", SKL);
    assert_eq!(src(&i, 0).ty, DataType::D);
    assert_eq!(
        i.src[1],
        Some(Src::Imm(euref::isa::Imm::new(DataType::D, 1)))
    );
    let i = parse(
        "math inv(8) g10<1>F g8<8,8,1>F null<8,8,1>F { align1 1Q };",
        SKL,
    );
    assert_eq!(i.math, MathFn::Inv);
    let i = parse(
        "sends(8) nullUD g34UD g36UD 0x04035001 0x00000100\n    dp data 1 MsgDesc: ( DC typed surface write, Surface = 1, SIMD16, Mask = 0x0) mlen 2 ex_mlen 4 rlen 0 { align1 1Q };",
        SKL,
    );
    assert_eq!(i.send.unwrap().sfid, 12);
    assert_eq!(i.send.unwrap().ex_desc, euref::isa::SendDesc::Imm(0x100));
    let i = parse("mov(8) g2<1>UW 0x0008UW { align1 1Q };", SKL);
    assert_eq!(i.src[0].unwrap().as_imm().unwrap().bits, 0x0008_0008);
}

#[test]
fn mesa_jump_units() {
    // Gen7/7.5: 64-bit units (2 per instruction); Gen8+: bytes (16 per instruction). Checked in
    // the corpus' if.expected (Gen7 JIP 2 to the next instruction; Gen8 JIP 32 two ahead).
    let src = "(+f0.0) if(8) JIP: L1 UIP: L2 { align1 1Q };\nL1:\nendif(8) JIP: L2 { align1 1Q };\nL2:\nwhile(8) JIP: L1 { align1 1Q };\n";
    let p7 = asm::parse(src.as_bytes(), None, IVB).unwrap();
    assert_eq!((p7.insns[0].jip, p7.insns[0].uip), (Some(2), Some(4)));
    assert_eq!(p7.insns[2].jip, Some(-2));
    let p9 = asm::parse(src.as_bytes(), None, SKL).unwrap();
    assert_eq!((p9.insns[0].jip, p9.insns[0].uip), (Some(16), Some(32)));
    assert_eq!(p9.insns[2].jip, Some(-16));
}
