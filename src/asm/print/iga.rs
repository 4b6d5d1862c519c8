//! IGA-style and PRM-style printing (they differ in predicate inversion, NoMask, execution
//! size and channel offset, condition modifier and saturate placement, math names).

use super::{
    flag_text, has_subreg_syntax, hex_upper, iga_jmpi_offset, iga_no_group, iga_wait_src, is_logic,
    jump_bytes, names, push_i64, push_u64, reg_name, sub_elems, swizzle_text, word, wrmask_text,
    Dialect, JumpLabels, Opts, PrintOptions, Region,
};
use crate::asm::branch_text;
use crate::asm::float_literal;
use crate::isa::{Addr, Dst, Imm, Insn, RegSrc, SendDesc, Src, ThreadCtrl};
use crate::spec::{AccessMode, CondMod, DataType, MathFn, Opcode, PredCtrl};
use std::fmt::Write;

pub(super) fn iga_insn(out: &mut String, i: &Insn, o: &PrintOptions, l: JumpLabels) {
    let iga = o.dialect == Dialect::Iga;
    let a16 = i.access == AccessMode::Align16;
    // Predicate (and IGA's (W)).
    let w = iga && i.ctrl.no_mask;
    if i.pred != PredCtrl::None {
        out.push('(');
        if w {
            out.push_str("W&");
        }
        if i.pred_inv {
            out.push(if iga { '~' } else { '-' });
        }
        flag_text(out, i);
        let s = names::pred_suffix(i.pred, a16);
        if !s.is_empty() {
            out.push('.');
            out.push_str(s);
        }
        out.push_str(") ");
    } else if w {
        out.push_str("(W) ");
    }
    // Mnemonic and its suffixes.
    out.push_str(i.op.name());
    let branch_suffix = iga && super::iga_branch_ctrl_suffix(i, o.platform);
    if branch_suffix {
        out.push_str(".b");
    }
    if i.op == Opcode::Math && i.math != MathFn::None {
        out.push('.');
        out.push_str(if iga {
            names::math_iga(i.math)
        } else {
            i.math.name()
        });
    }
    if let Some(s) = &i.send {
        if matches!(s.ex_desc, SendDesc::A0(_)) {
            out.push('.');
            match crate::isa::SFID_NAMES.iter().find(|x| x.0 == s.sfid) {
                Some(x) => out.push_str(x.2),
                None => {
                    let _ = write!(out, "sfid{}", s.sfid);
                }
            }
        }
    }
    // IGA writes these before the destination; without one they go after the mnemonic.
    let suffix_mods = !iga || i.dst.is_none();
    if suffix_mods {
        if i.sat {
            out.push_str(".sat");
        }
        if i.cmod != CondMod::None {
            out.push('.');
            out.push_str(names::cond_mod_short(i.cmod));
            out.push('.');
            flag_text(out, i);
        }
    }
    // Execution size (IGA's wait has none when it is (1|M0)).
    let wait_src = iga && iga_wait_src(i);
    if !(iga && iga_no_group(i)) {
        out.push_str(" (");
        push_u64(out, i.exec_size.into());
        if iga {
            out.push_str("|M");
            push_u64(out, i.chan_off.into());
        }
        out.push(')');
    }
    // Operands.
    if !suffix_mods && i.cmod != CondMod::None {
        out.push_str(" (");
        out.push_str(names::cond_mod_iga(i.cmod));
        out.push(')');
        flag_text(out, i);
    }
    if let Some(d) = &i.dst {
        out.push(' ');
        if !suffix_mods && i.sat {
            out.push_str("(sat)");
        }
        if wait_src {
            iga_reg(out, d.addr, d.ty, iga);
            out.push_str("<0;1,0>:");
            out.push_str(names::type_lower(d.ty));
        } else {
            iga_dst(out, d, i, iga);
        }
    }
    // IGA's ternary form of three-source (Align16) regions (feature.iga-ternary-regions).
    let ternary = iga && a16 && i.is_three_src();
    for (k, s) in i.src.iter().enumerate() {
        let Some(s) = s else { continue };
        out.push(' ');
        match iga_jmpi_offset(i).filter(|_| iga) {
            // A jmpi whose target is an instruction of the program: its label.
            Some(_) if l.jip.is_some() => {
                out.push_str("LABEL");
                push_i64(out, l.jip.map_or(0, |n| n as i64));
            }
            Some(x) => push_i64(out, x),
            None => iga_src(out, s, i, ternary.then_some(k == 2), iga, o.platform),
        }
    }
    if let Some(s) = &i.send {
        let ex = match s.ex_desc {
            SendDesc::Imm(v) => {
                SendDesc::Imm(v | s.sfid as u32 | if i.ctrl.eot { 0x20 } else { 0 })
            }
            a => a,
        };
        let desc = match s.desc {
            SendDesc::Imm(v) if i.ctrl.eot => SendDesc::Imm(v & 0x7FFF_FFFF),
            d => d,
        };
        for d in [ex, desc] {
            out.push(' ');
            match d {
                SendDesc::Imm(v) => hex_upper(out, v.into(), 1),
                SendDesc::A0(n) => {
                    out.push_str("a0.");
                    push_u64(out, n.into());
                }
            }
        }
    }
    // IGA text counts bytes (enc.iga-text.jump-bytes); PRM text the field.
    let per = if iga { jump_bytes(i.op, o.platform) } else { 1 };
    jumps(out, i, l, false, per);
    // Options.
    let mut opts = Opts::new(out, " {", ", ");
    if a16 && !ternary {
        opts.push("Align16");
    }
    if !iga {
        if i.ctrl.no_mask {
            opts.push("NoMask");
        }
        if let Some(c) = chan_name(i, false) {
            opts.push_chan(c);
        }
    }
    if branch_suffix {
        let mut j = i.clone();
        j.ctrl.branch_ctrl = false;
        common_opts(&mut opts, &j, false);
    } else {
        common_opts(&mut opts, i, false);
    }
    opts.close("}");
}

/// The jump targets: labels, or the offsets times `per` (text units per field unit).
pub(super) fn jumps(out: &mut String, i: &Insn, l: JumpLabels, mesa: bool, per: i32) {
    let items = [(i.jip, l.jip, "JIP"), (i.uip, l.uip, "UIP")];
    for (off, label, kw) in items {
        let Some(off) = off else { continue };
        out.push(' ');
        if mesa {
            out.push_str(kw);
            out.push_str(": ");
        }
        match label {
            Some(k) => {
                out.push_str("LABEL");
                push_u64(out, k as u64);
            }
            None => push_i64(out, i64::from(off) * i64::from(per)),
        }
    }
}

/// Thread, dependency, accumulator, compaction, debug and EOT options.
pub(super) fn common_opts(opts: &mut Opts, i: &Insn, mesa: bool) {
    let c = &i.ctrl;
    if !mesa {
        if c.no_dd_clr {
            opts.push("NoDDClr");
        }
        if c.no_dd_chk {
            opts.push("NoDDChk");
        }
    }
    match c.thread {
        ThreadCtrl::Normal => {}
        ThreadCtrl::Atomic => opts.push(if mesa { "atomic" } else { "Atomic" }),
        ThreadCtrl::Switch => opts.push(if mesa { "switch" } else { "Switch" }),
        ThreadCtrl::NoPreempt => opts.push("NoPreempt"),
    }
    if c.acc_wr {
        opts.push(if mesa { "AccWrEnable" } else { "AccWrEn" });
    }
    if c.branch_ctrl {
        opts.push("BranchCtrl");
    }
    if c.no_src_dep_set {
        // Mesa calls bit 28 AccWrEnable on every instruction (enc.gen9.send-a1 note).
        opts.push(if mesa { "AccWrEnable" } else { "NoSrcDepSet" });
    }
    if c.compacted {
        opts.push(if mesa { "compacted" } else { "Compacted" });
    }
    if c.breakpoint {
        opts.push(if mesa { "breakpoint" } else { "Breakpoint" });
    }
    if c.eot {
        opts.push("EOT");
    }
}

/// Channel-offset option name: Mesa `1Q`/`2H`/`3N`, PRM `Q1`/`H2`/`N3` (None: nothing to
/// print: PRM's first quarter/half/nibble, and Mesa's SIMD32 at offset 0).
pub(super) fn chan_name(i: &Insn, mesa: bool) -> Option<(char, u8, bool)> {
    let off = i.chan_off;
    let (k, n) = if i.exec_size == 8 && off % 8 == 0 {
        ('Q', off / 8 + 1)
    } else if i.exec_size == 16 && off % 16 == 0 {
        ('H', off / 16 + 1)
    } else if i.exec_size == 32 && off == 0 {
        return None;
    } else {
        ('N', off / 4 + 1)
    };
    if mesa {
        Some((k, n, true))
    } else if n == 1 {
        None
    } else {
        Some((k, n, false))
    }
}

/// `iga`: IGA syntax (ce and msg subregisters in bytes, enc.iga-text.arf-byte-subreg).
fn iga_reg(out: &mut String, addr: Addr, ty: DataType, iga: bool) {
    match addr {
        Addr::Direct { reg, sub } => {
            reg_name(out, reg, false);
            if has_subreg_syntax(reg) || sub != 0 {
                out.push('.');
                let bytes =
                    iga && matches!(reg, crate::isa::Reg::Arf(n) if crate::isa::iga_byte_subreg(n));
                push_u64(
                    out,
                    if bytes {
                        sub.into()
                    } else {
                        sub_elems(sub, ty).into()
                    },
                );
            }
        }
        Addr::Indirect { a0, off } => {
            out.push_str("r[a0.");
            push_u64(out, a0.into());
            if off != 0 {
                out.push_str(", ");
                push_i64(out, off.into());
            }
            out.push(']');
        }
    }
}

fn iga_dst(out: &mut String, d: &Dst, i: &Insn, iga: bool) {
    let bare = i.is_send()
        && d.ty == DataType::UD
        && (d.wrmask == 0xF || i.access != AccessMode::Align16)
        && d.hstride == 1
        && matches!(d.addr, Addr::Direct { sub: 0, .. });
    if bare {
        reg_name_only(out, d.addr);
        return;
    }
    if iga && branch_text::applies(i) {
        // call/calla: stride 1 and type D are implicit (enc.iga-text.branch-operands).
        iga_reg(out, d.addr, d.ty, iga);
        if d.hstride != 1 {
            out.push('<');
            push_u64(out, d.hstride.into());
            out.push('>');
        }
        if d.ty != branch_text::IMPLICIT_TYPE {
            out.push(':');
            out.push_str(names::type_lower(d.ty));
        }
        return;
    }
    iga_reg(out, d.addr, d.ty, iga);
    out.push('<');
    push_u64(out, d.hstride.into());
    out.push('>');
    if i.access == AccessMode::Align16 {
        wrmask_text(out, d.wrmask);
    }
    out.push(':');
    out.push_str(names::type_lower(d.ty));
}

fn reg_name_only(out: &mut String, a: Addr) {
    if let Addr::Direct { reg, .. } = a {
        reg_name(out, reg, false);
    }
}

/// `ternary`: the source of a three-source instruction in IGA's ternary form, and whether it
/// is src2.
fn iga_src(
    out: &mut String,
    s: &Src,
    i: &Insn,
    ternary: Option<bool>,
    iga: bool,
    p: crate::spec::Platform,
) {
    let r = match s {
        Src::Imm(imm) => return iga_imm(out, imm),
        Src::Reg(r) => r,
    };
    if r.neg {
        out.push(if is_logic(i.op) { '~' } else { '-' });
    }
    if r.abs {
        out.push_str("(abs)");
    }
    if iga && branch_text::applies(i) {
        // The implicit region and type D are left out (enc.iga-text.branch-operands).
        iga_reg(out, r.addr, r.ty, iga);
        if branch_text::implicit_region(i.op) != Some(r.region) {
            region_text(out, r, false, false);
        }
        if r.ty != branch_text::IMPLICIT_TYPE {
            out.push(':');
            out.push_str(names::type_lower(r.ty));
        }
        return;
    }
    if i.is_split_send() {
        iga_reg(out, r.addr, r.ty, iga);
        if r.ty != DataType::UD {
            out.push(':');
            out.push_str(names::type_lower(r.ty));
        }
        return;
    }
    if i.is_send()
        && r.ty == DataType::UD
        && r.region == Region::CONTIG8
        && matches!(r.addr, Addr::Direct { sub: 0, .. })
        && !r.neg
        && !r.abs
    {
        reg_name_only(out, r.addr);
        return;
    }
    let addr = if iga {
        super::iga_send_src0_addr(i, p, r.addr)
    } else {
        r.addr
    };
    iga_reg(out, addr, r.ty, iga);
    match ternary {
        Some(src2) => {
            out.push_str(ternary_region(r, src2));
            swizzle_text(out, r.swizzle);
        }
        None => region_text(out, r, i.access == AccessMode::Align16, false),
    }
    out.push(':');
    out.push_str(names::type_lower(r.ty));
}

/// A three-source source's region in IGA's ternary form (feature.iga-ternary-regions): `<0;0>`
/// (replicated, VertStride 0) or `<2;1>` on src0 and src1, `<0>` or `<1>` on src2. A swizzle
/// other than `.xyzw` follows in euref's Align16 notation (IGA has none for it).
pub(super) fn ternary_region(r: &RegSrc, src2: bool) -> &'static str {
    match (src2, r.region.vstride == 0) {
        (false, true) => "<0;0>",
        (false, false) => "<2;1>",
        (true, true) => "<0>",
        (true, false) => "<1>",
    }
}

/// `<v;w,h>` / `<w,h>` (VxH) in Align1, `<v>` + swizzle in Align16. Mesa separates with commas.
pub(super) fn region_text(out: &mut String, r: &RegSrc, a16: bool, mesa: bool) {
    let g = r.region;
    if a16 {
        if g.is_vxh() {
            out.push_str("<VxH>");
        } else {
            out.push('<');
            push_u64(out, g.vstride.into());
            out.push('>');
        }
        swizzle_text(out, r.swizzle);
    } else {
        out.push('<');
        if g.is_vxh() {
            if mesa {
                out.push_str("VxH,");
            }
        } else {
            push_u64(out, g.vstride.into());
            out.push(if mesa { ',' } else { ';' });
        }
        push_u64(out, g.width.into());
        out.push(',');
        push_u64(out, g.hstride.into());
        out.push('>');
    }
}

fn iga_imm(out: &mut String, imm: &Imm) {
    let b = imm.bits;
    let t = names::type_lower(imm.ty);
    match imm.ty {
        DataType::D => push_i64(out, (b as u32 as i32).into()),
        DataType::Q => push_i64(out, b as i64),
        // enc.imm-word-replicated: the 16 bits.
        DataType::W => push_i64(out, (b as u16 as i16).into()),
        DataType::UW => hex_upper(out, b & 0xFFFF, 1),
        // enc.iga-text.float-literals.
        DataType::HF => match word(b) {
            Some(w) => float_literal::write_iga(out, imm.ty, w.into()),
            None => hex_upper(out, b, 8),
        },
        DataType::F if b <= u64::from(u32::MAX) => float_literal::write_iga(out, imm.ty, b),
        DataType::DF => float_literal::write_iga(out, imm.ty, b),
        _ => hex_upper(out, b, 1),
    }
    out.push(':');
    out.push_str(t);
}
