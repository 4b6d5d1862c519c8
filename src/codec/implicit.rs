//! The operands an instruction encodes but the model does not store (see [`crate::isa`]):
//! the encoder supplies them, the decoder skips them. They follow Mesa's code generator, which
//! produced the corpus this codec is checked against (shared/corpus/mesa/asm); each choice
//! cites the Mesa function. The decoder does not insist on these values: hardware ignores the
//! operands, and so does disassembly (Mesa's and IGA's disassemblers print none of them).

use super::fields::Tabs;
use crate::isa::{Addr, Dst, Imm, Insn, Reg, RegSrc, Region, Src, Swizzle};
use crate::spec::{AccessMode, DataType, Opcode};

/// `retype(brw_null_reg(), D)` as a destination (HorzStride 1: mesa brw_eu_emit.c
/// `brw_set_dest` turns stride 0 into 1).
fn null_dst(ty: DataType) -> Dst {
    Dst::new(Reg::NULL, 0, ty)
}

/// A register source in the region Mesa gives it, converted for Align16 as Mesa's
/// `brw_set_src0`/`brw_set_src1` do (VertStride 8 becomes 4; the model keeps only VertStride
/// in Align16).
fn reg_src(a16: bool, reg: Reg, sub: u8, ty: DataType, region: Region, swz: Swizzle) -> Src {
    let region = if a16 {
        let v = if region.vstride == 8 {
            4
        } else {
            region.vstride
        };
        Region::new(v, Region::A16.width, Region::A16.hstride)
    } else {
        region
    };
    let mut r = RegSrc::new(reg, sub, ty, region);
    if a16 {
        r.swizzle = swz;
    }
    Src::Reg(r)
}

/// mesa brw_reg.h `brw_swizzle_for_mask`: the swizzle reading, for each channel, the nearest
/// enabled channel at or before it (a single-channel mask replicates that channel).
pub(super) fn swizzle_for_mask(mask: u8) -> Swizzle {
    let mut last = if mask & 0xF == 0 {
        0
    } else {
        (mask & 0xF).trailing_zeros() as u8
    };
    let mut c = [0u8; 4];
    for (i, s) in c.iter_mut().enumerate() {
        if mask & (1 << i) != 0 {
            last = i as u8;
        }
        *s = last;
    }
    Swizzle::from_chans(c)
}

/// Implicit destination and sources: `(dst, [src0, src1, src2])`; `None` where the instruction
/// supplies the operand itself (or has none).
pub(super) type Implied = (Option<Dst>, [Option<Src>; 3]);

/// The implicit operands of `i` on the platform of `t`.
pub(super) fn implied(i: &Insn, t: &Tabs, kind: super::fields::Kind) -> Implied {
    use super::fields::Kind;
    let a16 = i.access == AccessMode::Align16;
    let gen8 = t.p.gen_x10() >= 80;
    let ip = Reg::Arf(t.ip);
    // mesa brw_reg.h brw_ip_reg(): UD, <4;1,0>.
    let ip_src = || {
        reg_src(
            a16,
            ip,
            0,
            DataType::UD,
            Region::new(4, 1, 0),
            Swizzle::XYZW,
        )
    };
    let ip_dst = Dst::new(ip, 0, DataType::UD);
    let null_d_src = |region| reg_src(a16, Reg::NULL, 0, DataType::D, region, Swizzle::XYZW);
    let imm = |ty| Some(Src::Imm(Imm::new(ty, 0)));
    match kind {
        Kind::Branch if gen8 => {
            // mesa brw_eu_emit.c brw_IF / brw_ELSE / brw_WHILE / brw_BREAK / brw_HALT (Gen8+):
            // dst null:D, src0 immediate D 0; brw_ENDIF sets only src0; brw_CONT's dst is ip.
            // goto/join (not emitted by Mesa) follow brw_IF.
            let dst = match i.op {
                Opcode::Endif => None,
                Opcode::Cont => Some(ip_dst),
                _ => Some(null_dst(DataType::D)),
            };
            (dst, [imm(DataType::D), None, None])
        }
        Kind::Branch => {
            // mesa brw_eu_emit.c (Gen7): brw_IF uses vec1 null:D operands and src1 imm W;
            // brw_ELSE / brw_ENDIF / brw_WHILE null:D <8;8,1> and imm W; brw_BREAK / brw_HALT
            // null:D and imm D; brw_CONT ip, ip and imm D.
            match i.op {
                Opcode::If => (
                    Some(null_dst(DataType::D)),
                    [Some(null_d_src(Region::SCALAR)), imm(DataType::W), None],
                ),
                Opcode::Else | Opcode::Endif | Opcode::While => (
                    Some(null_dst(DataType::D)),
                    [Some(null_d_src(Region::CONTIG8)), imm(DataType::W), None],
                ),
                Opcode::Cont => (Some(ip_dst), [Some(ip_src()), imm(DataType::D), None]),
                _ => (
                    Some(null_dst(DataType::D)),
                    [Some(null_d_src(Region::CONTIG8)), imm(DataType::D), None],
                ),
            }
        }
        // mesa brw_eu_emit.c brw_JMPI: `jmpi ip ip index`.
        Kind::Jmpi => (Some(ip_dst), [Some(ip_src()), None, None]),
        // mesa brw_gram.y (wait: dst, then the same register as src0) and brw_WAIT: src1 is
        // brw_null_reg() (F, <8;8,1>). As a source the notification register is a scalar;
        // in Align16 it reads the destination's channel (brw_swizzle_for_mask).
        Kind::Wait => {
            let (reg, sub, ty, mask) = match i.dst {
                Some(Dst {
                    addr: Addr::Direct { reg, sub },
                    ty,
                    wrmask,
                    ..
                }) => (reg, sub, ty, wrmask),
                _ => (Reg::NULL, 0, DataType::UD, 0xF),
            };
            let src0 = reg_src(a16, reg, sub, ty, Region::SCALAR, swizzle_for_mask(mask));
            let src1 = reg_src(
                a16,
                Reg::NULL,
                0,
                DataType::F,
                Region::CONTIG8,
                Swizzle::XYZW,
            );
            (None, [Some(src0), Some(src1), None])
        }
        // ret has no destination of its own: null (mesa brw_null_reg(), F).
        Kind::Ret => (Some(null_dst(DataType::F)), [None, None, None]),
        // brd / brc have no destination: null:D as for the structured branches.
        Kind::Jump if i.dst.is_none() => (Some(null_dst(DataType::D)), [None, None, None]),
        _ => (None, [None, None, None]),
    }
}
