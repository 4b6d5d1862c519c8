//! Printers: IGA style (the default), PRM style and Mesa's syntax. Every printed instruction
//! parses back (in the same dialect) to an equal [`Insn`], with two documented exceptions the
//! text syntaxes cannot express: a subregister offset that is not a multiple of the operand's
//! type size, and a flag register selected by an instruction with neither predicate nor
//! condition modifier.

mod iga;
mod iga_line;
mod mesa;
mod text_buf;
mod tokens;

pub use text_buf::TextBuf;

use super::names;
use super::parse::{jip_is_absolute, jump_bytes, jump_unit_of};
use super::{Dialect, PrintOptions};
use crate::isa::{arf_iga_name, arf_mesa_name, Insn, Reg, Region, Swizzle};
use crate::spec::{DataType, OpClass, Opcode};
use std::fmt::Write;

/// Labels to print instead of numeric jump offsets.
#[derive(Clone, Copy, Default)]
pub(crate) struct JumpLabels {
    pub jip: Option<usize>,
    pub uip: Option<usize>,
}

pub(crate) fn insn(out: &mut String, i: &Insn, o: &PrintOptions, l: JumpLabels) {
    match o.dialect {
        Dialect::Mesa => mesa::mesa_insn(out, i, o, l),
        Dialect::Prm => iga::iga_insn(out, i, o, l),
        Dialect::Iga if !tokens::toks().ok => iga::iga_insn(out, i, o, l),
        Dialect::Iga => iga_line::with_line(|line| {
            iga_line::iga_line(line, i, o.platform, l);
            match std::str::from_utf8(line.bytes()) {
                Ok(s) => out.push_str(s),
                // (Every name printed is ASCII; the general printer would show a bad one.)
                Err(_) => iga::iga_insn(out, i, o, l),
            }
        }),
    }
    if o.dialect == Dialect::Iga {
        iga_send_comment(out, i, o);
    }
}

/// IGA's end-of-line comment on a send with an immediate descriptor (the message it names:
/// `crate::message::iga_text`). Comments are ignored by the parser.
fn iga_send_comment(out: &mut String, i: &Insn, o: &PrintOptions) {
    let Some(s) = &i.send else { return };
    let crate::isa::SendDesc::Imm(d) = s.desc else {
        return;
    };
    let ex = if i.is_split_send() {
        match s.ex_desc {
            crate::isa::SendDesc::Imm(x) => Some(x),
            crate::isa::SendDesc::A0(_) => None,
        }
    } else {
        None
    };
    out.push(' ');
    crate::message::iga_text::comment(out, s.sfid, d, ex, o.platform);
}

/// [`insn`] appended to a byte buffer (the disassembler's output, written out as bytes).
pub(crate) fn insn_bytes(out: &mut Vec<u8>, i: &Insn, o: &PrintOptions, l: JumpLabels) {
    if o.dialect == Dialect::Iga && tokens::toks().ok {
        iga_line::with_line(|line| {
            iga_line::iga_line(line, i, o.platform, l);
            out.extend_from_slice(line.bytes());
        });
        if i.send.is_some() {
            let mut s = String::new();
            iga_send_comment(&mut s, i, o);
            out.extend_from_slice(s.as_bytes());
        }
    } else {
        let mut s = String::new();
        insn(&mut s, i, o, l);
        out.extend_from_slice(s.as_bytes());
    }
}

/// Print a whole program, turning branch offsets that land on an instruction into labels.
pub(crate) fn program(insns: &[Insn], o: &PrintOptions) -> String {
    let n = insns.len();
    let mut is_target = vec![false; n + 1];
    let target = |idx: usize, off: Option<i32>| -> Option<usize> {
        let off = off? as i64;
        let op = insns.get(idx)?.op;
        let unit = i64::from(jump_unit_of(op, o.platform));
        if off % unit != 0 {
            return None;
        }
        // calla's field is an address (flow.calla), the others offsets from the instruction.
        let from = if jip_is_absolute(op) { 0 } else { idx as i64 };
        let t = from + off / unit;
        (0..=n as i64).contains(&t).then_some(t as usize)
    };
    // jmpi's immediate: bytes from the next instruction (flow.jmpi), labelled in IGA syntax
    // only (the other syntaxes write the number).
    let jmpi_target = |idx: usize| -> Option<usize> {
        let i = insns.get(idx)?;
        match i.src[1] {
            Some(crate::isa::Src::Imm(m)) if i.op == Opcode::Jmpi && o.dialect == Dialect::Iga => {
                let off = i64::from(m.bits as u32 as i32);
                let t = idx as i64 + 1 + off / 16;
                (off % 16 == 0 && (0..=n as i64).contains(&t)).then_some(t as usize)
            }
            _ => None,
        }
    };
    for (idx, i) in insns.iter().enumerate() {
        if i.op == Opcode::Jmpi {
            if let Some(t) = jmpi_target(idx) {
                is_target[t] = true;
            }
            continue;
        }
        for off in [i.jip, i.uip] {
            if let Some(t) = target(idx, off) {
                is_target[t] = true;
            }
        }
    }
    let mut label_no = vec![usize::MAX; n + 1];
    let mut k = 0;
    for (t, &is) in is_target.iter().enumerate() {
        if is {
            label_no[t] = k;
            k += 1;
        }
    }
    let mut out = String::with_capacity(n * 64);
    for (idx, i) in insns.iter().enumerate() {
        if is_target[idx] {
            let _ = writeln!(out, "LABEL{}:", label_no[idx]);
        }
        let l = if i.op == Opcode::Jmpi {
            JumpLabels {
                jip: jmpi_target(idx).map(|t| label_no[t]),
                uip: None,
            }
        } else {
            JumpLabels {
                jip: target(idx, i.jip).map(|t| label_no[t]),
                uip: target(idx, i.uip).map(|t| label_no[t]),
            }
        };
        insn(&mut out, i, o, l);
        out.push('\n');
    }
    if is_target[n] {
        let _ = writeln!(out, "LABEL{}:", label_no[n]);
    }
    out
}

// ---------------------------------------------------------------------- shared helpers

/// Whether IGA syntax writes `wait`'s operand as the source IGA shows, `nN.s<0;1,0>:ud`
/// (enc.implicit.wait): an Align1 wait whose destination is direct with stride 1 (the source
/// is then that register) with neither saturation nor condition modifier (IGA's wait has
/// none; euref's text of them needs the execution-size group). Its `(1|M0)` group is left
/// out too.
pub(super) fn iga_wait_src(i: &Insn) -> bool {
    i.op == Opcode::Wait
        && i.access == crate::spec::AccessMode::Align1
        && !i.sat
        && i.cmod == crate::spec::CondMod::None
        && i.dst
            .as_ref()
            .is_some_and(|d| d.hstride == 1 && matches!(d.addr, crate::isa::Addr::Direct { .. }))
}

/// The src0 address IGA syntax writes for a Gen9 send / sendc in Align1: the low four bits
/// of an indirect src0's AddrImm are also ExDesc[19:16] (enc.gen9.send-a1-ex-desc), which IGA
/// prints inside the exdesc operand and leaves out of the offset (its send offset counts whole
/// 16 bytes; iga64 refuses any other). `addr` unchanged for every other operand.
pub(crate) fn iga_send_src0_addr(
    i: &Insn,
    p: crate::spec::Platform,
    addr: crate::isa::Addr,
) -> crate::isa::Addr {
    use crate::isa::Addr;
    // Direct operands and other instructions first: no table lookup for them.
    let Addr::Indirect { a0, off } = addr else {
        return addr;
    };
    match send_ex_desc_19_16(i, p) {
        Some(x) if x != 0 && (off as u32) & 0xF == x => Addr::Indirect {
            a0,
            off: off & !0xF,
        },
        _ => addr,
    }
}

/// The inverse of [`iga_send_src0_addr`] for a parsed instruction: a whole 16-byte offset gets
/// ExDesc[19:16] back in its low four bits.
pub(crate) fn iga_send_src0_addr_back(i: &mut Insn, p: crate::spec::Platform) {
    use crate::isa::{Addr, Src};
    let Some(x) = send_ex_desc_19_16(i, p).filter(|&x| x != 0) else {
        return;
    };
    if let Some(Src::Reg(r)) = &mut i.src[0] {
        if let Addr::Indirect { off, .. } = &mut r.addr {
            if *off & 0xF == 0 {
                *off |= x as i16;
            }
        }
    }
}

/// ExDesc[19:16] of a Gen9 send / sendc in Align1 with an immediate extended descriptor, where
/// those bits are also src0's low AddrImm bits (enc.gen9.send-a1-ex-desc); None elsewhere.
fn send_ex_desc_19_16(i: &Insn, p: crate::spec::Platform) -> Option<u32> {
    let s = i.send?;
    if i.access != crate::spec::AccessMode::Align1 || !crate::codec::send_ex_desc_in_src0(i, p) {
        return None;
    }
    match s.ex_desc {
        crate::isa::SendDesc::Imm(v) => Some((v >> 16) & 0xF),
        _ => None,
    }
}

/// Whether IGA syntax writes `i`'s BranchCtrl bit as the mnemonic suffix `.b`
/// (enc.iga-text.branch-ctrl-suffix) rather than the option `{BranchCtrl}`.
pub(crate) fn iga_branch_ctrl_suffix(i: &Insn, p: crate::spec::Platform) -> bool {
    let t = &crate::spec::encoding::values::IGA_TEXT_BRANCH_CTRL_SUFFIX;
    i.ctrl.branch_ctrl && t.gens.contains(p) && t.value(i.op.name()) == Some(1)
}

/// IGA's text of jmpi's offset: a D immediate field plus the jmpi's size, the offset from the
/// jmpi itself (enc.iga-text.jmpi-bias); None for other instructions and operands.
pub(super) fn iga_jmpi_offset(i: &Insn) -> Option<i64> {
    if i.op != Opcode::Jmpi {
        return None;
    }
    let Some(crate::isa::Src::Imm(imm)) = &i.src[1] else {
        return None;
    };
    if imm.ty != DataType::D {
        return None;
    }
    let t = &crate::spec::encoding::values::IGA_TEXT_JMPI_BIAS;
    let bias = t.value(if i.ctrl.compacted {
        "compacted"
    } else {
        "native"
    })?;
    Some(i64::from(imm.bits as u32 as i32) + bias as i64)
}

/// Whether IGA leaves out the `(1|M0)` group of `i`: jmpi and wait (OpSpec::hasImpicitEm)
/// in the forms [`iga_jmpi_offset`] / [`iga_wait_src`] print.
pub(super) fn iga_no_group(i: &Insn) -> bool {
    i.exec_size == 1
        && i.chan_off == 0
        && match i.op {
            Opcode::Wait => iga_wait_src(i),
            // (An `(abs)` operand would read as the group.)
            Opcode::Jmpi => !matches!(&i.src[1], Some(crate::isa::Src::Reg(r)) if r.abs),
            _ => false,
        }
}

pub(super) fn is_logic(op: Opcode) -> bool {
    op.info().class == OpClass::Logic
}

/// Subregister number in elements (the byte offset divided by the type size).
pub(super) fn sub_elems(sub: u8, ty: DataType) -> u32 {
    sub as u32 / ty.bytes().max(1)
}

pub(super) fn swizzle_text(out: &mut String, s: Swizzle) {
    if s == Swizzle::XYZW {
        return;
    }
    const C: [char; 4] = ['x', 'y', 'z', 'w'];
    let ch = s.chans();
    out.push('.');
    if ch.iter().all(|&c| c == ch[0]) {
        out.push(C[ch[0] as usize]);
    } else {
        for c in ch {
            out.push(C[c as usize]);
        }
    }
}

pub(super) fn wrmask_text(out: &mut String, m: u8) {
    if m & 0xF == 0xF {
        return;
    }
    out.push('.');
    for (b, c) in ['x', 'y', 'z', 'w'].iter().enumerate() {
        if m & (1 << b) != 0 {
            out.push(*c);
        }
    }
}

/// Register name without subregister: `r5`/`g5`, `acc1`, `mme0`, `f0`, `null`, `null5`, `sp`,
/// `ip` (IGA and PRM syntax: enc.iga-text.arf-numberless, enc.iga-text.arf-mme; Mesa syntax:
/// enc.mesa-text.arf-names); `arf0xNN` only for a RegNum with no name in the dialect.
pub(super) fn reg_name(out: &mut String, r: Reg, mesa: bool) {
    match r {
        Reg::Grf(n) => {
            out.push(if mesa { 'g' } else { 'r' });
            push_u64(out, n.into());
        }
        Reg::Arf(n) => {
            let name = if mesa {
                arf_mesa_name(n)
            } else {
                arf_iga_name(n)
            };
            match name {
                Some((s, nr)) => {
                    out.push_str(s);
                    if let Some(k) = nr {
                        push_u64(out, k.into());
                    }
                }
                None => {
                    let _ = write!(out, "arf0x{n:02x}");
                }
            }
        }
    }
}

pub(super) fn has_subreg_syntax(r: Reg) -> bool {
    !matches!(r, Reg::Arf(0x00) | Reg::Arf(0xA0))
}

pub(super) fn flag_text(out: &mut String, i: &Insn) {
    out.push('f');
    push_u64(out, i.flag.reg.into());
    out.push('.');
    push_u64(out, i.flag.sub.into());
}

/// `0x` and the hexadecimal digits of `v` (uppercase), at least `min` digits.
pub(super) fn hex_upper(out: &mut String, v: u64, min: usize) {
    push_hex(out, v, min, true);
}

/// Decimal digits of `n`, written without the formatting machinery (the printers run once
/// per disassembled instruction; nothing here allocates).
#[inline]
pub(super) fn push_u64(out: &mut String, n: u64) {
    let d = |x: u64| char::from(b'0' + (x % 10) as u8);
    if n < 10 {
        out.push(d(n));
    } else if n < 100 {
        out.push(d(n / 10));
        out.push(d(n));
    } else if n < 1000 {
        out.push(d(n / 100));
        out.push(d(n / 10));
        out.push(d(n));
    } else {
        push_u64(out, n / 10);
        out.push(d(n));
    }
}

/// A signed decimal number.
pub(super) fn push_i64(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    push_u64(out, n.unsigned_abs());
}

/// `0x` and at least `min` hexadecimal digits of `v`.
pub(super) fn push_hex(out: &mut String, v: u64, min: usize, upper: bool) {
    let digits: &[u8; 16] = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    let n = (16 - v.leading_zeros() as usize / 4).max(min.clamp(1, 16));
    out.reserve(2 + n);
    out.push_str("0x");
    for k in (0..n).rev() {
        out.push(char::from(digits[((v >> (4 * k)) & 0xF) as usize]));
    }
}

/// Instruction options (`{...}`), written straight into the output: `open` before the
/// first, `sep` between two, `close` after the last (nothing when there is none).
pub(super) struct Opts<'a> {
    out: &'a mut String,
    open: &'static str,
    sep: &'static str,
    any: bool,
}

impl<'a> Opts<'a> {
    pub fn new(out: &'a mut String, open: &'static str, sep: &'static str) -> Opts<'a> {
        Opts {
            out,
            open,
            sep,
            any: false,
        }
    }

    fn next(&mut self) {
        self.out
            .push_str(if self.any { self.sep } else { self.open });
        self.any = true;
    }

    pub fn push(&mut self, s: &'static str) {
        self.next();
        self.out.push_str(s);
    }

    /// A channel-offset option: its letter and number, the number first (Mesa `2Q`) or
    /// last (PRM `Q2`).
    pub fn push_chan(&mut self, (c, n, num_first): (char, u8, bool)) {
        self.next();
        if num_first {
            push_u64(self.out, n.into());
            self.out.push(c);
        } else {
            self.out.push(c);
            push_u64(self.out, n.into());
        }
    }

    /// End the list with `close` (if it has any option).
    pub fn close(self, close: &str) {
        if self.any {
            self.out.push_str(close);
        }
    }
}

/// The 16-bit value of a replicated word immediate, if both halves agree.
pub(super) fn word(bits: u64) -> Option<u16> {
    let lo = bits & 0xFFFF;
    (bits >> 16 == lo).then_some(lo as u16)
}
