//! The instruction.

use super::operand::{Dst, Region, Src, Swizzle};
use crate::spec::{AccessMode, CondMod, MathFn, OpClass, Opcode, PredCtrl};

/// Thread control (ThreadCtrl field): `{Atomic}`, `{Switch}`, `{NoPreempt}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ThreadCtrl {
    #[default]
    Normal,
    Atomic,
    Switch,
    /// Encoding 3 (IGA's `NoPreempt`).
    NoPreempt,
}

/// A flag subregister `f<reg>.<sub>` (reg 0-1, sub 0-1: the 16-bit halves).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Flag {
    pub reg: u8,
    pub sub: u8,
}

impl Flag {
    pub const F0_0: Flag = Flag { reg: 0, sub: 0 };
}

/// The instruction control bits that have no operand of their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Controls {
    /// MaskCtrl: `{NoMask}` / `(W)` / Mesa `WE_all`.
    pub no_mask: bool,
    /// AccWrCtrl: `{AccWrEn}` / Mesa `AccWrEnable`.
    pub acc_wr: bool,
    /// BranchCtrl (Gen8+ flow instructions; shares the AccWrCtrl bit).
    pub branch_ctrl: bool,
    /// NoSrcDepSet: `{NoSrcDepSet}` (Gen9 sends; bit 28, AccWrCtrl elsewhere).
    pub no_src_dep_set: bool,
    /// DepCtrl: `{NoDDClr}`.
    pub no_dd_clr: bool,
    /// DepCtrl: `{NoDDChk}`.
    pub no_dd_chk: bool,
    pub thread: ThreadCtrl,
    /// DebugCtrl: `{Breakpoint}`.
    pub breakpoint: bool,
    /// End of thread (`send`, `sendc`, `sends`, `sendsc`).
    pub eot: bool,
    /// CmptCtrl: the instruction is (to be) stored in the 64-bit compacted form.
    pub compacted: bool,
}

/// A message descriptor or extended message descriptor: an immediate, or an address
/// subregister (`a0.<n>`; the descriptor register of Gen9 `sends` is always `a0.0`, the
/// extended descriptor's subregister is the ExDesc.SubRegNum field, in dwords).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SendDesc {
    Imm(u32),
    A0(u8),
}

/// The message of a send instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SendInfo {
    /// Shared function ID (0-15): see [`super::sfid_name`].
    pub sfid: u8,
    /// Message descriptor (raw; on Gen7-Gen9 bit 31 of an immediate descriptor is the EOT bit
    /// of the instruction, which parsers reflect in [`Controls::eot`]).
    pub desc: SendDesc,
    /// Extended message descriptor without the SFID (bits 3:0) and EOT (bit 5) fields, which
    /// live in `sfid` and [`Controls::eot`]; 0 for Gen7/Gen8 sends, whose only extended
    /// descriptor fields are those two. On Gen9 send / sendc, with either descriptor form and
    /// in either access mode, ExDesc[31:16] is the bits of the src0 region and src1 type
    /// (enc.gen9.send-a1-ex-desc and the register-descriptor and Align16 views): the decoder
    /// and the text parsers keep both views equal. Mesa's number beside a register
    /// descriptor (the instruction's last dword) is no extended descriptor: the parsers
    /// leave 0 for it.
    pub ex_desc: SendDesc,
}

/// One native Gen7-Gen9 instruction.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Insn {
    pub op: Opcode,
    /// ExecSize in channels: 1, 2, 4, 8, 16 or 32 (other values are representable and rejected
    /// by the encoder and validator).
    pub exec_size: u8,
    /// Channel offset (QtrCtrl * 8 + NibCtrl * 4): 0-28 in steps of 4; IGA `M<n>`, Mesa
    /// 1Q-4Q / 1H-2H / 1N-8N, PRM Q1-Q4 / H1-H2 / N1-N8.
    pub chan_off: u8,
    pub access: AccessMode,
    /// Predication control (`PredCtrl::None`: not predicated). In Align16 the field values 2-5
    /// mean "replicate channel x/y/z/w" (seed000 §2.4, predication); they are stored with the
    /// Align1 names of the same field values: `Anyv` = `.x`, `Allv` = `.y`, `Any2h` = `.z`,
    /// `All2h` = `.w` (see [`Insn::a16_pred_chan`]).
    pub pred: PredCtrl,
    /// PredInv: the predicate is inverted.
    pub pred_inv: bool,
    /// The flag subregister read by predication and written by the condition modifier (one
    /// field of the instruction serves both).
    pub flag: Flag,
    pub cmod: CondMod,
    pub sat: bool,
    /// Math function (`MathFn::None` unless `op` is `math`).
    pub math: MathFn,
    pub ctrl: Controls,
    pub dst: Option<Dst>,
    /// Sources in hardware order. `jmpi` keeps its jump operand in `src[1]` (dst and src0 are
    /// `ip`, implicit).
    pub src: [Option<Src>; 3],
    /// Jump IP offset of flow instructions, relative to this instruction, as the field holds
    /// it: 64-bit units (2 per native instruction) on Gen7/Gen7.5, except call and calla, whose
    /// offset counts bytes there too; bytes (16 per native instruction) on Gen8+
    /// (enc.gen7.jump-unit-bytes, enc.gen8.jump-unit-bytes; mesa brw_eu_emit.c
    /// `brw_jump_scale`).
    pub jip: Option<i32>,
    /// Update IP offset, same units as `jip`.
    pub uip: Option<i32>,
    /// The message of send instructions.
    pub send: Option<SendInfo>,
}

impl Insn {
    /// An instruction with every field at its default: SIMD1, Align1, no predication, no
    /// modifiers, no operands.
    pub fn new(op: Opcode) -> Insn {
        Insn {
            op,
            exec_size: 1,
            chan_off: 0,
            access: AccessMode::Align1,
            pred: PredCtrl::None,
            pred_inv: false,
            flag: Flag::F0_0,
            cmod: CondMod::None,
            sat: false,
            math: MathFn::None,
            ctrl: Controls::default(),
            dst: None,
            src: [None; 3],
            jip: None,
            uip: None,
            send: None,
        }
    }

    /// Number of sources present.
    pub fn num_srcs(&self) -> usize {
        self.src.iter().filter(|s| s.is_some()).count()
    }

    /// Whether a source is an immediate.
    pub fn has_imm_src(&self) -> bool {
        self.src.iter().flatten().any(|s| matches!(s, Src::Imm(_)))
    }

    /// Whether the opcode uses the three-source instruction format.
    pub fn is_three_src(&self) -> bool {
        self.op.info().class == OpClass::ThreeSrc
    }

    /// Whether the opcode is a send (`send`, `sendc`, `sends`, `sendsc`).
    pub fn is_send(&self) -> bool {
        self.op.info().class == OpClass::Send
    }

    /// Whether the opcode is a split send (`sends`, `sendsc`).
    pub fn is_split_send(&self) -> bool {
        matches!(self.op, Opcode::Sends | Opcode::Sendsc)
    }

    /// Whether the opcode is a flow-control instruction.
    pub fn is_flow(&self) -> bool {
        self.op.info().class == OpClass::Flow
    }

    /// In Align16, the channel (0 = x ... 3 = w) a channel-replicating predicate selects.
    pub fn a16_pred_chan(&self) -> Option<u8> {
        if self.access != AccessMode::Align16 {
            return None;
        }
        match self.pred {
            PredCtrl::Anyv => Some(0),
            PredCtrl::Allv => Some(1),
            PredCtrl::Any2h => Some(2),
            PredCtrl::All2h => Some(3),
            _ => None,
        }
    }

    /// The part of [`Insn::canonicalize`] about sends: an immediate descriptor's bit 31 and
    /// `ctrl.eot` agree (either sets both).
    pub fn canonicalize_send(&mut self) {
        if let Some(SendInfo {
            desc: SendDesc::Imm(d),
            ..
        }) = &mut self.send
        {
            if *d & 0x8000_0000 != 0 {
                self.ctrl.eot = true;
            }
            if self.ctrl.eot {
                *d |= 0x8000_0000;
            }
        }
    }

    /// Bring the fields that the access mode makes meaningless to their canonical values, so
    /// that instructions equal in hardware terms compare equal:
    /// - Align1: source swizzles `.xyzw`, destination write mask 0xF;
    /// - Align16: source regions keep only VertStride (Width 4, HorzStride 1); three-source
    ///   operands have VertStride 0 (replicated scalar, RepCtrl) or 4, and a replicated one
    ///   the swizzle `.xyzw` (enc.3src-rep-swizzle-unread).
    ///
    /// - split sends (`sends`, `sendsc`): their sources have no region fields; regions are
    ///   `<0;1,0>`;
    /// - sends with an immediate descriptor: descriptor bit 31 and [`Controls::eot`] agree
    ///   (bit 127 of the instruction is both).
    ///
    /// Parsers and the binary decoder call this; it is idempotent.
    pub fn canonicalize(&mut self) {
        // (Looked up only for a replicated three-source source, off the decoder's common path.)
        let rep_swizzle_unread = || {
            crate::spec::encoding::values::THREE_SRC_REP_SWIZZLE_UNREAD.value("unread") == Some(1)
        };
        let a16 = self.access == AccessMode::Align16;
        let three = self.is_three_src();
        self.canonicalize_send();
        let split_send = self.is_split_send();
        if let Some(d) = &mut self.dst {
            if !a16 {
                d.wrmask = 0xF;
            }
        }
        for s in self.src.iter_mut().flatten() {
            if let Src::Reg(r) = s {
                if split_send {
                    r.region = Region::SCALAR;
                    r.swizzle = Swizzle::XYZW;
                } else if a16 {
                    if three {
                        r.region.vstride = if r.region.vstride == 0 { 0 } else { 4 };
                        // A replicated scalar reads no swizzle (enc.3src-rep-swizzle-unread).
                        if r.region.vstride == 0 && rep_swizzle_unread() {
                            r.swizzle = Swizzle::XYZW;
                        }
                    }
                    r.region.width = Region::A16.width;
                    r.region.hstride = Region::A16.hstride;
                } else {
                    r.swizzle = Swizzle::XYZW;
                }
            }
        }
    }
}
