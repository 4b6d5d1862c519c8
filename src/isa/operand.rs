//! Operands: registers, regions, swizzles, immediates.

use super::arf;
use crate::spec::{ArfKind, DataType, RegFile};

/// A register: a GRF register `rN` (N = 0-255 as the 8-bit RegNum field can hold; the GRF has
/// 128 on Gen7-Gen9) or an ARF register given by its 8-bit RegNum: the ARF type in bits 7:4
/// (spec `registers::ARFS[..].regtype`) and the register number in bits 3:0 (`acc1` = 0x21,
/// `f1` = 0x31). `null` is `Arf(0x00)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reg {
    Grf(u8),
    Arf(u8),
}

impl Reg {
    /// The null register.
    pub const NULL: Reg = Reg::Arf(0x00);

    /// The register file: `Grf` or `Arf`.
    pub fn file(self) -> RegFile {
        match self {
            Reg::Grf(_) => RegFile::Grf,
            Reg::Arf(_) => RegFile::Arf,
        }
    }

    /// The ARF register type (`ArfKind::None` for GRF registers and for ARF types the spec does
    /// not list, such as the channel-enable register `ce0`).
    pub fn arf_kind(self) -> ArfKind {
        match self {
            Reg::Grf(_) => ArfKind::None,
            Reg::Arf(n) => arf::arf_kind(n),
        }
    }

    /// Whether this is the null register.
    pub fn is_null(self) -> bool {
        self == Reg::NULL
    }
}

/// How an operand's register is addressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Addr {
    /// Direct: register and subregister byte offset (0-31).
    Direct { reg: Reg, sub: u8 },
    /// Register-indirect (GRF): the address comes from the word subregister `a0.<a0>` plus the
    /// signed immediate byte offset `off` (seed000 §3.3.5; Align1 range -512..511).
    Indirect { a0: u8, off: i16 },
}

impl Addr {
    /// Direct addressing of `reg` at byte offset 0.
    pub const fn reg(reg: Reg) -> Addr {
        Addr::Direct { reg, sub: 0 }
    }

    /// Whether the operand is the null register.
    pub fn is_null(self) -> bool {
        matches!(self, Addr::Direct { reg, .. } if reg.is_null())
    }
}

/// A source region `<VertStride;Width,HorzStride>` in elements. `vstride` is
/// [`Region::VXH`] for the one-dimensional indirect regions `<Width,HorzStride>` (Vx1 and VxH,
/// encoding 0xF). In Align16 only `vstride` is meaningful: parsers store `width` 4 and
/// `hstride` 1 there (see [`Insn::canonicalize`](super::Insn::canonicalize)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Region {
    pub vstride: u8,
    pub width: u8,
    pub hstride: u8,
}

impl Region {
    /// `vstride` value of the one-dimensional indirect region forms (`<W,H>`, "VxH").
    pub const VXH: u8 = 0xFF;
    /// `<0;1,0>`: one scalar replicated to every channel.
    pub const SCALAR: Region = Region::new(0, 1, 0);
    /// `<8;8,1>`.
    pub const CONTIG8: Region = Region::new(8, 8, 1);
    /// The Align16 region with vertical stride 4 (`<4>`, written `<4,4,1>` for three-source
    /// operands).
    pub const A16: Region = Region::new(4, 4, 1);

    pub const fn new(vstride: u8, width: u8, hstride: u8) -> Region {
        Region {
            vstride,
            width,
            hstride,
        }
    }

    /// Whether this is a one-dimensional (VxH / Vx1) indirect region.
    pub fn is_vxh(self) -> bool {
        self.vstride == Region::VXH
    }
}

/// An Align16 source swizzle: four 2-bit channel selects, x in bits 1:0 ... w in bits 7:6, the
/// layout of the instruction field. `.xyzw` (identity) is 0xE4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Swizzle(pub u8);

impl Swizzle {
    /// `.xyzw`: no swizzle.
    pub const XYZW: Swizzle = Swizzle(0xE4);

    /// Build from four channel indices (0 = x ... 3 = w); only the low two bits of each are used.
    pub const fn from_chans(c: [u8; 4]) -> Swizzle {
        Swizzle((c[0] & 3) | ((c[1] & 3) << 2) | ((c[2] & 3) << 4) | ((c[3] & 3) << 6))
    }

    /// The channel (0-3) that feeds channel `i` (0-3; taken modulo 4).
    pub const fn chan(self, i: usize) -> u8 {
        (self.0 >> ((i & 3) * 2)) & 3
    }

    /// The four channel selects.
    pub const fn chans(self) -> [u8; 4] {
        [self.chan(0), self.chan(1), self.chan(2), self.chan(3)]
    }
}

/// A register source operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RegSrc {
    pub addr: Addr,
    pub ty: DataType,
    pub region: Region,
    /// Align16 swizzle ([`Swizzle::XYZW`] in Align1).
    pub swizzle: Swizzle,
    /// Source modifier: negate (arithmetic) or bitwise NOT (logic instructions, printed `~`).
    pub neg: bool,
    /// Source modifier: absolute value.
    pub abs: bool,
}

impl RegSrc {
    /// A direct, unmodified source.
    pub fn new(reg: Reg, sub: u8, ty: DataType, region: Region) -> RegSrc {
        RegSrc {
            addr: Addr::Direct { reg, sub },
            ty,
            region,
            swizzle: Swizzle::XYZW,
            neg: false,
            abs: false,
        }
    }
}

/// An immediate operand: its type and the raw bits of the immediate field as the hardware holds
/// them. 32-bit immediates use the low 32 bits; W, UW and HF immediates are 16-bit values
/// replicated to both halves of the 32-bit field (`0x0008:uw` is stored as 0x0008_0008, seed000
/// §3.3.4); Q, UQ and DF (and the 64-bit F immediate of Haswell's `dim`) use all 64 bits; V, UV
/// and VF hold the packed vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Imm {
    pub ty: DataType,
    pub bits: u64,
}

impl Imm {
    pub const fn new(ty: DataType, bits: u64) -> Imm {
        Imm { ty, bits }
    }
}

/// A source operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Src {
    Reg(RegSrc),
    Imm(Imm),
}

impl Src {
    /// The operand's data type.
    pub fn ty(&self) -> DataType {
        match self {
            Src::Reg(r) => r.ty,
            Src::Imm(i) => i.ty,
        }
    }

    /// The register operand, if this is one.
    pub fn as_reg(&self) -> Option<&RegSrc> {
        match self {
            Src::Reg(r) => Some(r),
            Src::Imm(_) => None,
        }
    }

    /// The immediate, if this is one.
    pub fn as_imm(&self) -> Option<&Imm> {
        match self {
            Src::Imm(i) => Some(i),
            Src::Reg(_) => None,
        }
    }
}

/// A destination operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dst {
    pub addr: Addr,
    pub ty: DataType,
    /// HorzStride in elements (0, 1, 2 or 4; 1 in Align16).
    pub hstride: u8,
    /// Align16 channel write enables: bit 0 = x ... bit 3 = w (0xF in Align1).
    pub wrmask: u8,
}

impl Dst {
    /// A direct destination with stride 1 and all channels enabled.
    pub fn new(reg: Reg, sub: u8, ty: DataType) -> Dst {
        Dst {
            addr: Addr::Direct { reg, sub },
            ty,
            hstride: 1,
            wrmask: 0xF,
        }
    }
}
