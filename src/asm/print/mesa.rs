//! Mesa-syntax printing, laid out in Mesa's columns (opcode, then operands every 16
//! characters, options at column 64).

use super::iga::{chan_name, common_opts, jumps, region_text};
use super::{
    flag_text, has_subreg_syntax, is_logic, names, reg_name, sub_elems, swizzle_text, word,
    wrmask_text, JumpLabels, Opts, PrintOptions,
};
use crate::isa::{Addr, Dst, Imm, Insn, SendDesc, Src};
use crate::spec::{AccessMode, CondMod, DataType, MathFn, Opcode, PredCtrl};
use std::fmt::Write;

/// Pad `out` (whose current line starts at `line_start`) to column `col`, or add one space.
fn pad(out: &mut String, line_start: usize, col: usize) {
    let len = out.len() - line_start;
    if len < col {
        out.push_str(&" ".repeat(col - len));
    } else {
        out.push(' ');
    }
}

pub(super) fn mesa_insn(out: &mut String, i: &Insn, o: &PrintOptions, l: JumpLabels) {
    let start = out.len();
    let a16 = i.access == AccessMode::Align16;
    if i.op == Opcode::Nop && *i == Insn::new(Opcode::Nop) {
        out.push_str("nop");
        pad(out, start, 64);
        out.push(';');
        return;
    }
    if i.pred != PredCtrl::None {
        out.push('(');
        out.push(if i.pred_inv { '-' } else { '+' });
        flag_text(out, i);
        let s = names::pred_suffix(i.pred, a16);
        if !s.is_empty() {
            out.push('.');
            out.push_str(s);
        }
        out.push_str(") ");
    }
    out.push_str(i.op.name());
    if i.sat {
        out.push_str(".sat");
    }
    if i.cmod != CondMod::None {
        out.push('.');
        out.push_str(names::cond_mod_short(i.cmod));
        let silent = matches!(
            i.op,
            Opcode::Sel | Opcode::Csel | Opcode::If | Opcode::While
        );
        if !silent || (i.pred == PredCtrl::None && i.flag != crate::isa::Flag::F0_0) {
            out.push('.');
            flag_text(out, i);
        }
    }
    if i.op == Opcode::Math && i.math != MathFn::None {
        out.push(' ');
        out.push_str(names::math_mesa(i.math));
    }
    let _ = write!(out, "({})", i.exec_size);
    let mut col = 16;
    let mut field = |out: &mut String, f: &dyn Fn(&mut String)| {
        pad(out, start, col);
        f(out);
        col += 16;
    };
    if let Some(d) = &i.dst {
        field(out, &|out| mesa_dst(out, d, i));
    }
    // Mesa's text shows the implicit src1 of a one-source math (enc.implicit.math-src1),
    // which the model leaves out.
    let implicit1 = if i.op == Opcode::Math
        && i.src[1].is_none()
        && i.src[0].is_some()
        && crate::math::source_count(i.math) == Some(1)
    {
        crate::codec::implicit_source(i, o.platform, 1)
    } else {
        None
    };
    for s in i.src.iter().flatten().chain(implicit1.iter()) {
        field(out, &|out| mesa_src(out, s, i, o));
    }
    if i.jip.is_some() || i.uip.is_some() {
        let mut j = String::new();
        jumps(&mut j, i, l, true, 1);
        field(out, &|out| out.push_str(j.trim_start()));
    }
    if let Some(s) = &i.send {
        // A Gen9 send's ExDesc[31:16] is shown as the src0 region Mesa reads from the same
        // bits (enc.gen9.send-a1-ex-desc), unless the region cannot show all of it. Beside a
        // register descriptor, Mesa prints the instruction's last dword instead
        // (enc.gen9.send-reg-a1-ex-desc), which its assembler ignores.
        let ex = if i.is_split_send()
            || (s.ex_desc != SendDesc::Imm(0)
                && !crate::codec::send_ex_desc_shown_by_region(i, o.platform))
        {
            Some(s.ex_desc)
        } else {
            crate::codec::mesa_send_last_dword(i, o.platform).map(SendDesc::Imm)
        };
        for d in [Some(s.desc), ex].into_iter().flatten() {
            pad(out, start, col);
            col += 16;
            match d {
                SendDesc::Imm(v) => {
                    let _ = write!(out, "0x{v:08x}");
                }
                SendDesc::A0(n) => {
                    out.push_str("a0");
                    if n != 0 {
                        let _ = write!(out, ".{n}");
                    }
                    out.push_str(if i.is_split_send() {
                        "<0>UD"
                    } else {
                        "<0,1,0>UD"
                    });
                }
            }
        }
        out.push('\n');
        out.push_str(&" ".repeat(28));
        let desc = match s.desc {
            SendDesc::Imm(d) => Some(d),
            SendDesc::A0(_) => None,
        };
        let ex = i.is_split_send().then_some(match s.ex_desc {
            SendDesc::Imm(x) => Some(x),
            SendDesc::A0(_) => None,
        });
        crate::message::mesa_text::describe(out, s.sfid, desc, ex, o.platform);
        out.push(' ');
    } else {
        pad(out, start, 64);
    }
    let mut opts = Opts::new(out, "{ ", " ");
    opts.push(if a16 { "align16" } else { "align1" });
    if i.ctrl.no_mask {
        opts.push("WE_all");
    }
    match (i.ctrl.no_dd_clr, i.ctrl.no_dd_chk) {
        (true, true) => opts.push("NoDDClr,NoDDChk"),
        (true, false) => opts.push("NoDDClr"),
        (false, true) => opts.push("NoDDChk"),
        _ => {}
    }
    if let Some(c) = chan_name(i, true) {
        opts.push_chan(c);
    }
    common_opts(&mut opts, i, true);
    opts.close(" };");
}

fn mesa_reg(out: &mut String, addr: Addr, ty: DataType, force_sub: bool) {
    match addr {
        Addr::Direct { reg, sub } => {
            reg_name(out, reg, true);
            if sub != 0 || (force_sub && has_subreg_syntax(reg)) {
                let _ = write!(out, ".{}", sub_elems(sub, ty));
            }
        }
        Addr::Indirect { a0, off } => {
            out.push_str("g[a0");
            if a0 != 0 {
                let _ = write!(out, ".{a0}");
            }
            if off != 0 {
                let _ = write!(out, " {off}");
            }
            out.push(']');
        }
    }
}

fn mesa_dst(out: &mut String, d: &Dst, i: &Insn) {
    mesa_reg(out, d.addr, d.ty, false);
    if !(i.is_split_send() && d.hstride == 1) {
        let _ = write!(out, "<{}>", d.hstride);
    }
    if i.access == AccessMode::Align16 {
        wrmask_text(out, d.wrmask);
    }
    out.push_str(names::type_upper(d.ty));
}

fn mesa_src(out: &mut String, s: &Src, i: &Insn, o: &PrintOptions) {
    let r = match s {
        Src::Imm(imm) => return mesa_imm(out, imm),
        Src::Reg(r) => r,
    };
    if r.neg {
        let tilde = is_logic(i.op) && o.platform.gen_x10() >= 80;
        out.push(if tilde { '~' } else { '-' });
    }
    if r.abs {
        out.push_str("(abs)");
    }
    let a16 = i.access == AccessMode::Align16;
    if i.is_split_send() {
        mesa_reg(out, r.addr, r.ty, false);
    } else if i.is_three_src() && a16 {
        let rep = r.region.vstride == 0;
        mesa_reg(out, r.addr, r.ty, rep);
        out.push_str(if rep { "<0,1,0>" } else { "<4,4,1>" });
        swizzle_text(out, r.swizzle);
    } else {
        mesa_reg(out, r.addr, r.ty, false);
        region_text(out, r, a16, true);
    }
    out.push_str(names::type_upper(r.ty));
}

fn mesa_imm(out: &mut String, imm: &Imm) {
    let b = imm.bits;
    let t = names::type_upper(imm.ty);
    let _ = match imm.ty {
        DataType::UD => write!(out, "0x{:08x}{t}", b as u32),
        DataType::D => write!(out, "{}{t}", b as u32 as i32),
        DataType::UW | DataType::HF => match word(b) {
            Some(w) => write!(out, "0x{w:04x}{t}"),
            None => write!(out, "0x{b:08x}{t}"),
        },
        DataType::W => match word(b) {
            Some(w) => write!(out, "{}{t}", w as i16),
            None => write!(out, "0x{b:08x}{t}"),
        },
        DataType::V | DataType::UV => write!(out, "0x{:08x}{t}", b as u32),
        DataType::Q | DataType::UQ | DataType::DF => write!(out, "0x{b:016x}{t}"),
        DataType::F if b <= u32::MAX as u64 => {
            write!(out, "0x{b:x}{t}  /* {}F */", f32::from_bits(b as u32))
        }
        _ => write!(out, "0x{b:x}{t}"),
    };
}
