//! IGA-style printing of one instruction into a [`Line`], a fixed buffer on the stack: the
//! disassembler's hot path (`euref disasm` prints IGA text). It prints exactly what the
//! general IGA/PRM printer (module `iga`, used for PRM style and kept as the reference; a
//! unit test compares the two) prints in IGA style, without the per-character capacity checks
//! and small `memcpy` calls of appending to a `String`: writing a byte is one bounds-checked
//! store into the buffer, numbers are written through two-digit and hexadecimal digit tables,
//! and the finished line is appended to the output in one copy.

use super::{has_subreg_syntax, is_logic, names, sub_elems, word, JumpLabels, Region};
use crate::isa::{arf_name, Addr, Dst, Imm, Insn, Reg, RegSrc, SendDesc, Src, Swizzle, ThreadCtrl};
use crate::spec::{AccessMode, CondMod, DataType, MathFn, Opcode, PredCtrl};

/// Longest line the buffer holds. The longest IGA instruction (three indirect sources with
/// modifiers, every option) is well under 400 characters; writes past the end are dropped
/// rather than panicking.
const LINE_MAX: usize = 512;

/// One line of output being built.
pub(crate) struct Line {
    buf: [u8; LINE_MAX],
    n: usize,
}

thread_local! {
    /// The line buffer of this thread (reused: clearing it is one store, a fresh buffer would
    /// be zeroed for every instruction).
    static LINE: std::cell::RefCell<Line> = std::cell::RefCell::new(Line::new());
}

/// Run `f` on this thread's line buffer, emptied.
#[inline]
pub(crate) fn with_line<R>(f: impl FnOnce(&mut Line) -> R) -> R {
    LINE.with(|c| match c.try_borrow_mut() {
        Ok(mut l) => {
            l.n = 0;
            f(&mut l)
        }
        // (Only a printer calling itself would find it taken.)
        Err(_) => f(&mut Line::new()),
    })
}

const DIGITS2: &[u8; 200] = b"00010203040506070809\
10111213141516171819\
20212223242526272829\
30313233343536373839\
40414243444546474849\
50515253545556575859\
60616263646566676869\
70717273747576777879\
80818283848586878889\
90919293949596979899";

impl Line {
    pub fn new() -> Line {
        Line {
            buf: [0; LINE_MAX],
            n: 0,
        }
    }

    /// The text so far (ASCII).
    pub fn bytes(&self) -> &[u8] {
        self.buf.get(..self.n).unwrap_or(&[])
    }

    #[inline(always)]
    fn b(&mut self, c: u8) {
        if let Some(x) = self.buf.get_mut(self.n) {
            *x = c;
            self.n += 1;
        }
    }

    /// A short string (names, keywords): byte by byte, no `memcpy` call.
    #[inline(always)]
    fn s(&mut self, s: &str) {
        let s = s.as_bytes();
        let end = self.n + s.len();
        if let Some(d) = self.buf.get_mut(self.n..end) {
            for (d, &c) in d.iter_mut().zip(s) {
                *d = c;
            }
            self.n = end;
        }
    }

    /// Decimal digits of `v`.
    #[inline]
    fn dec(&mut self, v: u64) {
        if v < 10 {
            self.b(b'0' + v as u8);
        } else if v < 100 {
            let k = 2 * v as usize;
            self.b(DIGITS2[k]);
            self.b(DIGITS2[k + 1]);
        } else {
            self.dec_long(v);
        }
    }

    #[inline(never)]
    fn dec_long(&mut self, mut v: u64) {
        let mut tmp = [0u8; 20];
        let mut k = tmp.len();
        while v >= 10 && k > 0 {
            k -= 1;
            tmp[k] = b'0' + (v % 10) as u8;
            v /= 10;
        }
        if k > 0 {
            k -= 1;
            tmp[k] = b'0' + v as u8;
        }
        for &c in &tmp[k..] {
            self.b(c);
        }
    }

    fn signed(&mut self, v: i64) {
        if v < 0 {
            self.b(b'-');
        }
        self.dec(v.unsigned_abs());
    }

    /// `0x` and at least `min` (1-16) digits of `v`, `upper` or lower case.
    fn hex(&mut self, v: u64, min: usize, upper: bool) {
        let digits: &[u8; 16] = if upper {
            b"0123456789ABCDEF"
        } else {
            b"0123456789abcdef"
        };
        let n = (16 - v.leading_zeros() as usize / 4).max(min.clamp(1, 16));
        self.b(b'0');
        self.b(b'x');
        for k in (0..n).rev() {
            self.b(digits[((v >> (4 * k)) & 0xF) as usize]);
        }
    }

    fn flag(&mut self, i: &Insn) {
        self.b(b'f');
        self.dec(i.flag.reg.into());
        self.b(b'.');
        self.dec(i.flag.sub.into());
    }
}

/// Instruction options (`{...}`): `" {"` before the first, `", "` between two.
struct Opts {
    any: bool,
}

impl Opts {
    #[inline(always)]
    fn push(&mut self, l: &mut Line, s: &str) {
        l.s(if self.any { ", " } else { " {" });
        self.any = true;
        l.s(s);
    }
}

/// Print `i` in IGA style (module `iga`'s `iga_insn` with `Dialect::Iga`).
pub(crate) fn iga_line(l: &mut Line, i: &Insn, labels: JumpLabels) {
    let a16 = i.access == AccessMode::Align16;
    // Predicate and (W).
    let w = i.ctrl.no_mask;
    if i.pred != PredCtrl::None {
        l.b(b'(');
        if w {
            l.s("W&");
        }
        if i.pred_inv {
            l.b(b'~');
        }
        l.flag(i);
        let s = names::pred_suffix(i.pred, a16);
        if !s.is_empty() {
            l.b(b'.');
            l.s(s);
        }
        l.s(") ");
    } else if w {
        l.s("(W) ");
    }
    // Mnemonic and its suffixes.
    l.s(i.op.name());
    if i.op == Opcode::Math && i.math != MathFn::None {
        l.b(b'.');
        l.s(names::math_iga(i.math));
    }
    if let Some(s) = &i.send {
        if matches!(s.ex_desc, SendDesc::A0(_)) {
            l.b(b'.');
            match crate::isa::SFID_NAMES.iter().find(|x| x.0 == s.sfid) {
                Some(x) => l.s(x.2),
                None => {
                    l.s("sfid");
                    l.dec(s.sfid.into());
                }
            }
        }
    }
    // Saturation and condition modifier go before the destination, or after the mnemonic
    // when there is none.
    let suffix_mods = i.dst.is_none();
    if suffix_mods {
        if i.sat {
            l.s(".sat");
        }
        if i.cmod != CondMod::None {
            l.b(b'.');
            l.s(names::cond_mod_short(i.cmod));
            l.b(b'.');
            l.flag(i);
        }
    }
    l.s(" (");
    l.dec(i.exec_size.into());
    l.s("|M");
    l.dec(i.chan_off.into());
    l.b(b')');
    if !suffix_mods && i.cmod != CondMod::None {
        l.s(" (");
        l.s(names::cond_mod_iga(i.cmod));
        l.b(b')');
        l.flag(i);
    }
    if let Some(d) = &i.dst {
        l.b(b' ');
        if !suffix_mods && i.sat {
            l.s("(sat)");
        }
        dst(l, d, i);
    }
    for s in i.src.iter().flatten() {
        l.b(b' ');
        src(l, s, i);
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
            l.b(b' ');
            match d {
                SendDesc::Imm(v) => l.hex(v.into(), 1, true),
                SendDesc::A0(n) => {
                    l.s("a0.");
                    l.dec(n.into());
                }
            }
        }
    }
    for (off, label) in [(i.jip, labels.jip), (i.uip, labels.uip)] {
        let Some(off) = off else { continue };
        l.b(b' ');
        match label {
            Some(k) => {
                l.s("LABEL");
                l.dec(k as u64);
            }
            None => l.signed(off.into()),
        }
    }
    // Options.
    let mut o = Opts { any: false };
    if a16 {
        o.push(l, "Align16");
    }
    let c = &i.ctrl;
    if c.no_dd_clr {
        o.push(l, "NoDDClr");
    }
    if c.no_dd_chk {
        o.push(l, "NoDDChk");
    }
    match c.thread {
        ThreadCtrl::Normal => {}
        ThreadCtrl::Atomic => o.push(l, "Atomic"),
        ThreadCtrl::Switch => o.push(l, "Switch"),
        ThreadCtrl::NoPreempt => o.push(l, "NoPreempt"),
    }
    if c.acc_wr {
        o.push(l, "AccWrEn");
    }
    if c.branch_ctrl {
        o.push(l, "BranchCtrl");
    }
    if c.compacted {
        o.push(l, "Compacted");
    }
    if c.breakpoint {
        o.push(l, "Breakpoint");
    }
    if c.eot {
        o.push(l, "EOT");
    }
    if o.any {
        l.b(b'}');
    }
}

/// Register name without subregister: `r5`, `acc1`, `f0`, `null`, `ip`, `arf0x50`.
fn reg_name(l: &mut Line, r: Reg) {
    match r {
        Reg::Grf(n) => {
            l.b(b'r');
            l.dec(n.into());
        }
        Reg::Arf(n) => match arf_name(n) {
            Some(a) if a.numbered || n & 0xF == 0 => {
                l.s(a.iga);
                if a.numbered {
                    l.dec((n & 0xF).into());
                }
            }
            _ => {
                l.s("arf");
                l.hex(n.into(), 2, false);
            }
        },
    }
}

fn reg(l: &mut Line, addr: Addr, ty: DataType) {
    match addr {
        Addr::Direct { reg, sub } => {
            reg_name(l, reg);
            if has_subreg_syntax(reg) || sub != 0 {
                l.b(b'.');
                l.dec(sub_elems(sub, ty).into());
            }
        }
        Addr::Indirect { a0, off } => {
            l.s("r[a0.");
            l.dec(a0.into());
            if off != 0 {
                l.s(", ");
                l.signed(off.into());
            }
            l.b(b']');
        }
    }
}

fn dst(l: &mut Line, d: &Dst, i: &Insn) {
    let bare = i.is_send()
        && d.ty == DataType::UD
        && (d.wrmask == 0xF || i.access != AccessMode::Align16)
        && d.hstride == 1
        && matches!(d.addr, Addr::Direct { sub: 0, .. });
    if bare {
        if let Addr::Direct { reg, .. } = d.addr {
            reg_name(l, reg);
        }
        return;
    }
    reg(l, d.addr, d.ty);
    l.b(b'<');
    l.dec(d.hstride.into());
    l.b(b'>');
    if i.access == AccessMode::Align16 && d.wrmask & 0xF != 0xF {
        l.b(b'.');
        for (b, c) in [b'x', b'y', b'z', b'w'].into_iter().enumerate() {
            if d.wrmask & (1 << b) != 0 {
                l.b(c);
            }
        }
    }
    l.b(b':');
    l.s(names::type_lower(d.ty));
}

fn src(l: &mut Line, s: &Src, i: &Insn) {
    let r = match s {
        Src::Imm(imm) => return self::imm(l, imm),
        Src::Reg(r) => r,
    };
    if r.neg {
        l.b(if is_logic(i.op) { b'~' } else { b'-' });
    }
    if r.abs {
        l.s("(abs)");
    }
    if i.is_split_send() {
        reg(l, r.addr, r.ty);
        if r.ty != DataType::UD {
            l.b(b':');
            l.s(names::type_lower(r.ty));
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
        if let Addr::Direct { reg, .. } = r.addr {
            reg_name(l, reg);
        }
        return;
    }
    reg(l, r.addr, r.ty);
    region(l, r, i.access == AccessMode::Align16);
    l.b(b':');
    l.s(names::type_lower(r.ty));
}

/// `<v;w,h>` / `<w,h>` (VxH) in Align1, `<v>` + swizzle in Align16.
fn region(l: &mut Line, r: &RegSrc, a16: bool) {
    let g = r.region;
    if a16 {
        if g.is_vxh() {
            l.s("<VxH>");
        } else {
            l.b(b'<');
            l.dec(g.vstride.into());
            l.b(b'>');
        }
        swizzle(l, r.swizzle);
    } else {
        l.b(b'<');
        if !g.is_vxh() {
            l.dec(g.vstride.into());
            l.b(b';');
        }
        l.dec(g.width.into());
        l.b(b',');
        l.dec(g.hstride.into());
        l.b(b'>');
    }
}

fn swizzle(l: &mut Line, s: Swizzle) {
    if s == Swizzle::XYZW {
        return;
    }
    const C: [u8; 4] = [b'x', b'y', b'z', b'w'];
    let ch = s.chans();
    l.b(b'.');
    if ch.iter().all(|&c| c == ch[0]) {
        l.b(C[ch[0] as usize & 3]);
    } else {
        for c in ch {
            l.b(C[c as usize & 3]);
        }
    }
}

fn imm(l: &mut Line, imm: &Imm) {
    let b = imm.bits;
    match imm.ty {
        DataType::D => l.signed((b as u32 as i32).into()),
        DataType::Q => l.signed(b as i64),
        DataType::W => match word(b) {
            Some(w) => l.signed((w as i16).into()),
            None => l.hex(b, 8, true),
        },
        DataType::UW | DataType::HF => match word(b) {
            Some(w) => l.hex(w.into(), 1, true),
            None => l.hex(b, 8, true),
        },
        _ => l.hex(b, 1, true),
    }
    l.b(b':');
    l.s(names::type_lower(imm.ty));
}

#[cfg(test)]
mod tests {
    use super::super::iga::iga_insn;
    use super::*;
    use crate::asm::{Dialect, PrintOptions};
    use crate::spec::Platform;

    /// The line printer prints what the general printer prints in IGA style, for every
    /// instruction that random words decode to (all opcodes, operand kinds, modifiers and
    /// options), with and without jump labels.
    #[test]
    fn line_printer_matches_general_printer() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut n = 0;
        for p in Platform::ALL {
            let o = PrintOptions {
                dialect: Dialect::Iga,
                platform: p,
            };
            let ops: Vec<u8> = (0..128u8)
                .filter(|&n| crate::spec::Opcode::from_number(p, n).is_some())
                .collect();
            for k in 0..200_000u32 {
                // A random word with a defined opcode and its layout's reserved bits clear.
                let mut w = u128::from(next()) | u128::from(next()) << 64;
                let op = ops[(next() % ops.len() as u64) as usize];
                crate::spec::encoding::gen7_a1::OPCODE.set(&mut w, op.into());
                let mut used = 0u128;
                for f in crate::encoding::layout_for(w, p).fields {
                    for pc in f.pieces {
                        let n = u32::from(pc.hi - pc.lo) + 1;
                        used |= ((1u128 << n) - 1) << pc.lo;
                    }
                }
                w &= used;
                let Ok(i) = crate::codec::decode_word(w, p) else {
                    continue;
                };
                let labels = if k % 3 == 0 {
                    JumpLabels {
                        jip: Some(k as usize),
                        uip: Some(7),
                    }
                } else {
                    JumpLabels::default()
                };
                let mut want = String::new();
                iga_insn(&mut want, &i, &o, labels);
                let mut line = Line::new();
                iga_line(&mut line, &i, labels);
                assert_eq!(
                    std::str::from_utf8(line.bytes()),
                    Ok(want.as_str()),
                    "{i:?}"
                );
                n += 1;
            }
        }
        assert!(n > 30_000, "{n} instructions printed");
    }
}
