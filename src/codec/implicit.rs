//! The operands an instruction encodes but the model does not store (see [`crate::isa`]):
//! the encoder supplies them, the decoder skips them. Which operands, per opcode and platform,
//! is the table spec/encoding/implicit.toml (`enc.implicit.*`, generated as
//! [`crate::spec::encoding::implicit`]), following Mesa's code generator, which produced the
//! corpus this codec is checked against (shared/corpus/mesa/asm); each row cites the Mesa
//! function. This module only turns a row into model operands. The decoder does not insist on
//! these values: hardware ignores the operands, and so does disassembly (Mesa's and IGA's
//! disassemblers print none of them).

use super::fields::Tabs;
use crate::isa::{Addr, Dst, Imm, Insn, Reg, RegSrc, Region, Src, Swizzle};
use crate::spec::encoding::implicit::{self, ImplicitFile, ImplicitOperand};
use crate::spec::{AccessMode, DataType};

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
/// supplies the operand itself (or has none). The encoder uses an implicit source only where
/// the instruction has none of its own (math's src1).
pub(super) type Implied = (Option<Dst>, [Option<Src>; 3]);

/// One implicit source of `i` as the row describes it.
fn source(o: &ImplicitOperand, i: &Insn, ip: Reg, a16: bool) -> Src {
    let region = o
        .region
        .map_or(Region::SCALAR, |(v, w, h)| Region::new(v, w, h));
    let ty = o.ty.unwrap_or(DataType::UD);
    match o.file {
        ImplicitFile::Imm => Src::Imm(Imm::new(ty, 0)),
        ImplicitFile::Null => reg_src(a16, Reg::NULL, 0, ty, region, Swizzle::XYZW),
        ImplicitFile::Ip => reg_src(a16, ip, 0, ty, region, Swizzle::XYZW),
        ImplicitFile::Dst => {
            // The destination register; a null UD one when the destination is not direct.
            let (reg, sub, dty, mask) = match i.dst {
                Some(Dst {
                    addr: Addr::Direct { reg, sub },
                    ty,
                    wrmask,
                    ..
                }) => (reg, sub, ty, wrmask),
                _ => (Reg::NULL, 0, DataType::UD, 0xF),
            };
            let swz = if o.dst_mask_swizzle {
                swizzle_for_mask(mask)
            } else {
                Swizzle::XYZW
            };
            reg_src(a16, reg, sub, o.ty.unwrap_or(dty), region, swz)
        }
    }
}

/// A one-source math function (math.toml `srcs` = 1) has no src1 of its own: when `i`'s src1
/// is the implicit operand of enc.implicit.math-src1, or the null register with any type and
/// region and no modifier (IGA's encoder writes null:ud<0;1,0>, all zeros; the row's note),
/// the model leaves it out (the decoder and the text parsers call this; the encoder writes the
/// implicit operand back). Any other src1 is kept.
pub fn drop_implicit_math_src1(i: &mut Insn, p: crate::spec::Platform) {
    let null_src1 = matches!(
        i.src[1],
        Some(Src::Reg(r)) if matches!(r.addr, crate::isa::Addr::Direct { reg, sub: 0 } if reg.is_null())
            && !r.neg && !r.abs
    );
    if i.op == crate::spec::Opcode::Math
        && crate::math::source_count(i.math) == Some(1)
        && i.src[1].is_some()
        && (null_src1 || i.src[1] == implicit_source(i, p, 1))
    {
        i.src[1] = None;
    }
}

/// Implicit source `k` (0-2) of `i` on `p` as the encoder writes it where `i` has none of its
/// own (the `enc.implicit.*` row of its opcode); None when the row has no such source.
pub fn implicit_source(i: &Insn, p: crate::spec::Platform, k: usize) -> Option<Src> {
    let t = super::fields::tabs(p);
    implied(i, t, super::fields::Kind::Bare)
        .1
        .get(k)
        .copied()
        .flatten()
}

/// The implicit operands of `i` on the platform of `t` (the `enc.implicit.*` row of its opcode).
pub(super) fn implied(i: &Insn, t: &Tabs, _kind: super::fields::Kind) -> Implied {
    let Some(row) = implicit::row(i.op, t.p) else {
        return (None, [None, None, None]);
    };
    let a16 = i.access == AccessMode::Align16;
    let ip = Reg::Arf(t.ip);
    // A destination is null or ip (the spec compiler refuses the other files).
    let dst = row.dst.and_then(|o| {
        let ty = o.ty.unwrap_or(DataType::UD);
        match o.file {
            ImplicitFile::Null => Some(null_dst(ty)),
            ImplicitFile::Ip => Some(Dst::new(ip, 0, ty)),
            ImplicitFile::Imm | ImplicitFile::Dst => None,
        }
    });
    let src = |k: usize| row.src[k].as_ref().map(|o| source(o, i, ip, a16));
    (dst, [src(0), src(1), None])
}
