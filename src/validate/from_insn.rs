//! Instruction -> property record: every property of spec/properties.toml read off an
//! [`Insn`] of the instruction model, then completed with the table look-ups and the derived
//! properties ([`fill_table_props`], [`fill_derived_props`]).
//!
//! The model leaves out operands the hardware requires but that carry no information (see
//! [`crate::isa`]): the destination of the structured flow instructions and of `wait`, `ip` of
//! `jmpi`. The record gives such an instruction the null destination with HorzStride 1 and type
//! D (what the encoder supplies, following Mesa's `brw_null_reg()`), so that destination rules
//! see a legal, register-free operand; absent sources stay absent (`present` false).
//!
//! Execution-state properties (`runtime`, the `indirect_*` runtime ranges) are left
//! false/zero: a static check cannot know them. The execution-context properties
//! `preemptible` and `spf` are false unless the caller gives an [`ExecContext`] that says
//! otherwise ([`apply_context`]): `validate --preemptible --spf`, or `run` from its state.

use super::{fill_derived_props, fill_table_props};
use crate::isa::{Addr, Insn, Reg, SendDesc, Src, Swizzle, ThreadCtrl};
use crate::spec::{AccessMode, ArfKind, DataType, Platform, PropsRecord, RegFile};

/// The register number of a directly addressed register: the GRF number, or the ARF RegNum
/// byte (type in bits 7:4, number in bits 3:0; rules take `reg % 16` for the number).
fn reg_num(r: Reg) -> i64 {
    match r {
        Reg::Grf(n) | Reg::Arf(n) => i64::from(n),
    }
}

/// What the caller knows of the context an instruction executes in (spec/properties.toml
/// `preemptible`, `spf`): both false by default, so the rules that depend on them do not
/// apply.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExecContext {
    /// The thread runs in a mid-thread pre-emptible context (property `preemptible`).
    pub preemptible: bool,
    /// cr0.0 Single Program Flow is set (property `spf`).
    pub spf: bool,
}

/// Set the execution-context properties of record `p` from `ctx`.
pub fn apply_context(p: &mut PropsRecord, ctx: &ExecContext) {
    p.preemptible = ctx.preemptible;
    p.spf = ctx.spf;
}

/// The record of `i` on `platform`, every property filled (static properties only).
pub fn props_of(platform: Platform, i: &Insn) -> PropsRecord {
    let mut p = PropsRecord::default();
    props_into(platform, i, &mut p);
    p
}

/// Fill `p` (whatever it held) with the record of `i` on `platform`.
pub fn props_into(platform: Platform, i: &Insn, p: &mut PropsRecord) {
    *p = PropsRecord {
        opcode: i.op,
        exec_size: i64::from(i.exec_size),
        access_mode: i.access,
        num_srcs: i64::from(i.op.info().srcs),
        saturate: i.sat,
        cond_mod: i.cmod,
        pred_ctrl: i.pred,
        acc_wr_ctrl: i.ctrl.acc_wr,
        no_mask: i.ctrl.no_mask,
        chan_offset: i64::from(i.chan_off),
        dep_ctrl: i.ctrl.no_dd_clr || i.ctrl.no_dd_chk,
        switch: i.ctrl.thread == ThreadCtrl::Switch,
        eot: i.ctrl.eot,
        math_fn: i.math,
        ..PropsRecord::default()
    };
    match &i.dst {
        Some(d) => {
            p.dst_type = d.ty;
            p.dst_hstride = i64::from(d.hstride);
            match d.addr {
                Addr::Direct { reg, sub } => {
                    p.dst_file = reg.file();
                    p.dst_arf = reg.arf_kind();
                    p.dst_reg = reg_num(reg);
                    p.dst_subreg = i64::from(sub);
                }
                Addr::Indirect { a0, .. } => {
                    p.dst_file = RegFile::Grf;
                    p.dst_indirect = true;
                    p.dst_addr_subreg = i64::from(a0) * 2;
                }
            }
        }
        None => {
            // Implicit destination (flow instructions, wait): null, HorzStride 1, D.
            p.dst_file = RegFile::Arf;
            p.dst_arf = ArfKind::Null;
            p.dst_type = DataType::D;
            p.dst_hstride = 1;
        }
    }
    let a16 = i.access == AccessMode::Align16;
    for (k, s) in i.src.iter().enumerate() {
        let Some(s) = s else { continue };
        p.src_present[k] = true;
        match s {
            Src::Imm(im) => {
                p.src_file[k] = RegFile::Imm;
                p.src_type[k] = im.ty;
                p.src_imm_bits[k] = (im.bits & 0xffff_ffff) as i64;
            }
            Src::Reg(r) => {
                p.src_type[k] = r.ty;
                p.src_negate[k] = r.neg;
                p.src_abs[k] = r.abs;
                p.src_swizzled[k] = a16 && r.swizzle != Swizzle::XYZW;
                if r.region.is_vxh() {
                    // One-dimensional indirect region <Width,HorzStride>: each row has its
                    // own address, so there is no vertical stride.
                    p.src_indirect_multi[k] = true;
                } else {
                    p.src_vstride[k] = i64::from(r.region.vstride);
                }
                p.src_width[k] = i64::from(r.region.width);
                p.src_hstride[k] = i64::from(r.region.hstride);
                match r.addr {
                    Addr::Direct { reg, sub } => {
                        p.src_file[k] = reg.file();
                        p.src_arf[k] = reg.arf_kind();
                        p.src_reg[k] = reg_num(reg);
                        p.src_subreg[k] = i64::from(sub);
                    }
                    Addr::Indirect { a0, .. } => {
                        p.src_file[k] = RegFile::Grf;
                        p.src_indirect[k] = true;
                        p.src_addr_subreg[k] = i64::from(a0) * 2;
                    }
                }
            }
        }
    }
    if let Some(s) = &i.send {
        match s.desc {
            SendDesc::Imm(_) => p.desc_file = RegFile::Imm,
            SendDesc::A0(n) => {
                // The model holds a register descriptor as the address subregister in
                // dwords; the decoder and the parsers accept only UD scalars there.
                p.desc_file = RegFile::Arf;
                p.desc_arf = ArfKind::Address;
                p.desc_subreg = i64::from(n) * 4;
                p.desc_type = DataType::UD;
                p.desc_scalar = true;
            }
        }
    }
    fill_table_props(platform, p);
    fill_derived_props(p);
}
