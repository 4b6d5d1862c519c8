//! IGA-style printing of one instruction into a [`Line`], a byte buffer with room for any
//! line: the disassembler's hot path (`euref disasm` prints IGA text). It prints exactly what
//! the general IGA/PRM printer (module `iga`, used for PRM style and kept as the reference; a
//! unit test compares the two) prints in IGA style, without the per-character capacity checks
//! and small `memcpy` calls of appending to a `String`: names, `:type` suffixes, registers,
//! small decimals, regions and the `(e|Mc)` group are pre-rendered pieces (module `tokens`)
//! written with one 16-byte store each, hexadecimal numbers are converted eight digits at a
//! time in a register, and the line is written in place in the output buffer
//! ([`super::TextBuf`]) or in a per-thread buffer appended in one copy.

use super::tokens::{pow2_code, toks, Tok, Toks, CODES};
use super::{
    has_subreg_syntax, iga_jmpi_offset, iga_no_group, iga_wait_src, is_logic, jump_bytes, names,
    sub_elems, word, JumpLabels, Region,
};
use crate::asm::branch_text;
use crate::isa::{Addr, Dst, Imm, Insn, Reg, RegSrc, SendDesc, Src, Swizzle, ThreadCtrl};
use crate::spec::{AccessMode, CondMod, DataType, MathFn, Opcode, Platform, PredCtrl};

/// Longest line the printer writes (writes that would start past it are dropped rather than
/// panicking). The longest IGA instruction (three indirect sources with modifiers, every
/// option) is well under 400 characters.
pub(crate) const LINE_MAX: usize = 512;

/// Bytes a line buffer has beyond [`LINE_MAX`]: a piece is written with one 16-byte store
/// whatever its length.
pub(crate) const LINE_BUF: usize = LINE_MAX + 16;

/// One line of output being built, in a buffer of [`LINE_BUF`] bytes (the bytes after `n` are
/// scratch).
pub(crate) struct Line<'a> {
    buf: &'a mut [u8; LINE_BUF],
    n: usize,
    t: &'static Toks,
}

thread_local! {
    /// The line buffer of this thread (reused: a fresh buffer would be zeroed for every
    /// instruction).
    static LINE: std::cell::RefCell<[u8; LINE_BUF]> = const { std::cell::RefCell::new([0; LINE_BUF]) };
}

/// Run `f` on a line over this thread's buffer, emptied.
#[inline]
pub(crate) fn with_line<R>(f: impl FnOnce(&mut Line) -> R) -> R {
    LINE.with(|c| match c.try_borrow_mut() {
        Ok(mut b) => f(&mut Line::new(&mut b)),
        // (Only a printer calling itself would find it taken.)
        Err(_) => f(&mut Line::new(&mut [0; LINE_BUF])),
    })
}

impl Line<'_> {
    /// A line written into `buf`.
    #[inline]
    pub fn new(buf: &mut [u8; LINE_BUF]) -> Line<'_> {
        Line {
            buf,
            n: 0,
            t: toks(),
        }
    }

    /// The text so far (ASCII).
    pub fn bytes(&self) -> &[u8] {
        self.buf.get(..self.n).unwrap_or(&[])
    }

    /// Its length.
    pub fn len(&self) -> usize {
        self.n
    }

    #[inline(always)]
    fn b(&mut self, c: u8) {
        // (n < LINE_MAX < LINE_BUF: no other bounds check.)
        if self.n < LINE_MAX {
            self.buf[self.n] = c;
            self.n += 1;
        }
    }

    /// A piece of text: one 16-byte store.
    #[inline(always)]
    fn put(&mut self, t: &Tok) {
        // (n + 16 <= LINE_MAX + 16 = LINE_BUF: no other bounds check.)
        if self.n <= LINE_MAX {
            self.buf[self.n..self.n + 16].copy_from_slice(&t.b);
            self.n += usize::from(t.n);
        }
    }

    /// `n` (at most 16) bytes of `v` (little-endian): one 16-byte store.
    #[inline(always)]
    fn put_bits(&mut self, v: u128, n: usize) {
        self.put(&Tok {
            b: v.to_le_bytes(),
            n: n as u8,
        });
    }

    /// A short string (names, keywords).
    #[inline(always)]
    fn s(&mut self, s: &str) {
        if Tok::fits(s) {
            self.put(&Tok::new(s));
        } else {
            for &c in s.as_bytes() {
                self.b(c);
            }
        }
    }

    /// Decimal digits of `v`.
    #[inline(always)]
    fn dec(&mut self, v: u64) {
        match self.t.dec.get(v as usize) {
            Some(d) if v < 256 => self.put(d),
            _ => self.dec_long(v),
        }
    }

    #[inline(always)]
    fn dec_long(&mut self, v: u64) {
        self.n = dec_long(self.buf, self.n, v);
    }

    #[inline(always)]
    fn hex_long(&mut self, v: u64, n: usize, upper: bool) {
        self.n = hex_long(self.buf, self.n, v, n, upper);
    }

    #[inline(always)]
    fn signed(&mut self, v: i64) {
        if v < 0 {
            self.b(b'-');
        }
        self.dec(v.unsigned_abs());
    }

    /// `0x` and at least `min` (1-16) digits of `v`, `upper` or lower case.
    #[inline(always)]
    fn hex(&mut self, v: u64, min: usize, upper: bool) {
        let n = (16 - v.leading_zeros() as usize / 4).max(min.clamp(1, 16));
        if n <= 8 {
            // The last n of the 8 digits, after `0x`.
            let d = u64::from_le_bytes(hex8(v as u32, upper)) >> (8 * (8 - n));
            self.put_bits(0x7830 | u128::from(d) << 16, n + 2);
        } else {
            self.hex_long(v, n, upper);
        }
    }

    #[inline(always)]
    fn flag(&mut self, i: &Insn) {
        let (r, s) = (usize::from(i.flag.reg), usize::from(i.flag.sub));
        if r < 4 && s < 4 {
            self.put(&self.t.flag[r * 4 + s]);
        } else {
            self.b(b'f');
            self.dec(r as u64);
            self.b(b'.');
            self.dec(s as u64);
        }
    }
}

/// Decimal digits of `v` at `buf[n..]` (out of line, rare): the new length.
#[inline(never)]
fn dec_long(buf: &mut [u8; LINE_BUF], n: usize, v: u64) -> usize {
    let mut l = Line { buf, n, t: toks() };
    let mut v = v;
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
        l.b(c);
    }
    l.n
}

/// `0x` and the `n` (> 8) hexadecimal digits of `v` at `buf[at..]` (out of line, rare): the
/// new length.
#[inline(never)]
fn hex_long(buf: &mut [u8; LINE_BUF], at: usize, v: u64, n: usize, upper: bool) -> usize {
    let mut l = Line {
        buf,
        n: at,
        t: toks(),
    };

    let digits: &[u8; 16] = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    l.b(b'0');
    l.b(b'x');
    for k in (8..n).rev() {
        l.b(digits[((v >> (4 * k)) & 0xF) as usize]);
    }
    l.put_bits(u128::from(u64::from_le_bytes(hex8(v as u32, upper))), 8);
    l.n
}

/// The 8 hexadecimal digits of `v`, most significant first.
#[inline(always)]
fn hex8(v: u32, upper: bool) -> [u8; 8] {
    // Spread the nibbles to bytes (nibble k in byte k), then to ASCII digits: 0-9 plus '0',
    // 10-15 plus 'A' - 10 (or 'a' - 10); a byte's value plus 6 reaches 16 for the letters.
    let mut x = u64::from(v);
    x = (x & 0xFFFF) | (x & 0xFFFF_0000) << 16;
    x = (x & 0x0000_00FF_0000_00FF) | (x & 0x0000_FF00_0000_FF00) << 8;
    x = (x & 0x000F_000F_000F_000F) | (x & 0x00F0_00F0_00F0_00F0) << 4;
    let letters = ((x + 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101;
    let gap = if upper {
        b'A' - b'9' - 1
    } else {
        b'a' - b'9' - 1
    };
    x += 0x3030_3030_3030_3030 + letters * u64::from(gap);
    x.swap_bytes().to_le_bytes()
}

/// A [`Tok`] of a literal, built at compile time.
macro_rules! tok {
    ($s:literal) => {
        &const { Tok::new($s) }
    };
}

/// Instruction options (`{...}`): `" {"` before the first, `", "` between two.
struct Opts {
    any: bool,
}

const OPEN: Tok = Tok::new(" {");
const SEP: Tok = Tok::new(", ");

impl Opts {
    #[inline(always)]
    fn push(&mut self, l: &mut Line, s: &Tok) {
        l.put(if self.any { &SEP } else { &OPEN });
        self.any = true;
        l.put(s);
    }
}

/// Print `i` in IGA style (module `iga`'s `iga_insn` with `Dialect::Iga`).
pub(crate) fn iga_line(out: &mut Line, i: &Insn, p: Platform, labels: JumpLabels) {
    // A local line, every helper inlined and the rare long numbers out of line taking the
    // buffer and length: the length stays in a register (a store into the buffer could
    // otherwise be the length's memory, reloaded after every store).
    let mut line = Line {
        buf: &mut *out.buf,
        n: out.n,
        t: out.t,
    };
    let l = &mut line;
    let t = l.t;
    let a16 = i.access == AccessMode::Align16;
    // Predicate and (W).
    let w = i.ctrl.no_mask;
    if i.pred != PredCtrl::None {
        l.b(b'(');
        if w {
            l.put(tok!("W&"));
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
        l.put(tok!(") "));
    } else if w {
        l.put(tok!("(W) "));
    }
    // Mnemonic and its suffixes.
    l.put(&t.op[i.op as usize]);
    if super::iga_branch_ctrl_suffix(i, p) {
        l.s(".b");
    }
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
            l.put(tok!(".sat"));
        }
        if i.cmod != CondMod::None {
            l.b(b'.');
            l.s(names::cond_mod_short(i.cmod));
            l.b(b'.');
            l.flag(i);
        }
    }
    let wait_src = i.op == Opcode::Wait && iga_wait_src(i);
    match pow2_code(i.exec_size) {
        // IGA's wait has no group when it is (1|M0).
        _ if matches!(i.op, Opcode::Wait | Opcode::Jmpi) && iga_no_group(i) => {}
        Some(e) if i.chan_off % 4 == 0 && i.chan_off < 32 => {
            l.put(&t.exec[e * 8 + usize::from(i.chan_off / 4)]);
        }
        _ => {
            l.put(tok!(" ("));
            l.dec(i.exec_size.into());
            l.put(tok!("|M"));
            l.dec(i.chan_off.into());
            l.b(b')');
        }
    }
    if !suffix_mods && i.cmod != CondMod::None {
        l.put(tok!(" ("));
        l.s(names::cond_mod_iga(i.cmod));
        l.b(b')');
        l.flag(i);
    }
    if let Some(d) = &i.dst {
        l.b(b' ');
        if !suffix_mods && i.sat {
            l.put(tok!("(sat)"));
        }
        if wait_src {
            reg(l, d.addr, d.ty);
            l.put(tok!("<0;1,0>"));
            ty(l, d.ty);
        } else {
            dst(l, d, i);
        }
    }
    // IGA's ternary form of three-source (Align16) regions (feature.iga-ternary-regions).
    let ternary = a16 && i.is_three_src();
    for (k, s) in i.src.iter().enumerate() {
        let Some(s) = s else { continue };
        l.b(b' ');
        match iga_jmpi_offset(i) {
            // A jmpi whose target is an instruction of the program: its label.
            Some(_) if labels.jip.is_some() => {
                l.s("LABEL");
                l.signed(labels.jip.map_or(0, |n| n as i64));
            }
            Some(x) => l.signed(x),
            None => src(l, s, i, ternary.then_some(k == 2), p),
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
            l.b(b' ');
            match d {
                SendDesc::Imm(v) => l.hex(v.into(), 1, true),
                SendDesc::A0(n) => {
                    l.put(tok!("a0."));
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
                l.put(tok!("LABEL"));
                l.dec(k as u64);
            }
            // In bytes (enc.iga-text.jump-bytes).
            None => l.signed(i64::from(off) * i64::from(jump_bytes(i.op, p))),
        }
    }
    options(l, i, p, ternary);
    out.n = line.n;
}

#[inline(always)]
fn options(l: &mut Line, i: &Insn, p: Platform, ternary: bool) {
    let mut o = Opts { any: false };
    if i.access == AccessMode::Align16 && !ternary {
        o.push(l, tok!("Align16"));
    }
    let c = &i.ctrl;
    if c.no_dd_clr {
        o.push(l, tok!("NoDDClr"));
    }
    if c.no_dd_chk {
        o.push(l, tok!("NoDDChk"));
    }
    match c.thread {
        ThreadCtrl::Normal => {}
        ThreadCtrl::Atomic => o.push(l, tok!("Atomic")),
        ThreadCtrl::Switch => o.push(l, tok!("Switch")),
        ThreadCtrl::NoPreempt => o.push(l, tok!("NoPreempt")),
    }
    if c.acc_wr {
        o.push(l, tok!("AccWrEn"));
    }
    if c.branch_ctrl && !super::iga_branch_ctrl_suffix(i, p) {
        o.push(l, tok!("BranchCtrl"));
    }
    if c.no_src_dep_set {
        o.push(l, tok!("NoSrcDepSet"));
    }
    if c.compacted {
        o.push(l, tok!("Compacted"));
    }
    if c.breakpoint {
        o.push(l, tok!("Breakpoint"));
    }
    if c.eot {
        o.push(l, tok!("EOT"));
    }
    if o.any {
        l.b(b'}');
    }
}

/// Register name without subregister: `r5`, `acc1`, `f0`, `null`, `ip`, `arf0x50`.
#[inline(always)]
fn reg_name(l: &mut Line, r: Reg) {
    let t = l.t;
    match r {
        Reg::Grf(n) => l.put(&t.grf[usize::from(n)]),
        Reg::Arf(n) => l.put(&t.arf[usize::from(n)]),
    }
}

#[inline(always)]
fn reg(l: &mut Line, addr: Addr, ty: DataType) {
    match addr {
        Addr::Direct { reg, sub } => {
            reg_name(l, reg);
            if has_subreg_syntax(reg) || sub != 0 {
                // ce and msg count bytes in IGA syntax (enc.iga-text.arf-byte-subreg).
                let e = match reg {
                    Reg::Arf(n) if crate::isa::iga_byte_subreg(n) => u32::from(sub),
                    _ => sub_elems(sub, ty),
                };
                match l.t.dot_dec.get(e as usize) {
                    Some(d) => l.put(d),
                    None => {
                        l.b(b'.');
                        l.dec(e.into());
                    }
                }
            }
        }
        Addr::Indirect { a0, off } => {
            l.put(tok!("r[a0."));
            l.dec(a0.into());
            if off != 0 {
                l.put(tok!(", "));
                l.signed(off.into());
            }
            l.b(b']');
        }
    }
}

/// `:type`.
#[inline(always)]
fn ty(l: &mut Line, ty: DataType) {
    l.put(&l.t.ty[ty as usize]);
}

#[inline(always)]
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
    if branch_text::applies(i) {
        // call/calla: stride 1 and type D are implicit (enc.iga-text.branch-operands).
        reg(l, d.addr, d.ty);
        if d.hstride != 1 {
            stride(l, d.hstride);
        }
        if d.ty != branch_text::IMPLICIT_TYPE {
            ty(l, d.ty);
        }
        return;
    }
    reg(l, d.addr, d.ty);
    stride(l, d.hstride);
    if i.access == AccessMode::Align16 && d.wrmask & 0xF != 0xF {
        l.b(b'.');
        for (b, c) in [b'x', b'y', b'z', b'w'].into_iter().enumerate() {
            if d.wrmask & (1 << b) != 0 {
                l.b(c);
            }
        }
    }
    ty(l, d.ty);
}

#[inline(always)]
/// `ternary`: the source of a three-source instruction in IGA's ternary form, and whether it
/// is src2.
fn src(l: &mut Line, s: &Src, i: &Insn, ternary: Option<bool>, p: Platform) {
    let r = match s {
        Src::Imm(imm) => return self::imm(l, imm),
        Src::Reg(r) => r,
    };
    if r.neg {
        l.b(if is_logic(i.op) { b'~' } else { b'-' });
    }
    if r.abs {
        l.put(tok!("(abs)"));
    }
    if branch_text::applies(i) {
        // The implicit region and type D are left out (enc.iga-text.branch-operands).
        reg(l, r.addr, r.ty);
        if branch_text::implicit_region(i.op) != Some(r.region) {
            region(l, r, false);
        }
        if r.ty != branch_text::IMPLICIT_TYPE {
            ty(l, r.ty);
        }
        return;
    }
    if i.is_split_send() {
        reg(l, r.addr, r.ty);
        if r.ty != DataType::UD {
            ty(l, r.ty);
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
    reg(l, super::iga_send_src0_addr(i, p, r.addr), r.ty);
    match ternary {
        Some(src2) => {
            l.s(super::iga::ternary_region(r, src2));
            swizzle(l, r.swizzle);
        }
        None => region(l, r, i.access == AccessMode::Align16),
    }
    ty(l, r.ty);
}

/// A single stride `<n>`: the pre-rendered piece for 0 and powers of two, else the decimal.
#[inline(always)]
fn stride(l: &mut Line, n: u8) {
    match pow2_code(n) {
        Some(c) => l.put(&l.t.stride[c]),
        None => {
            l.b(b'<');
            l.dec(n.into());
            l.b(b'>');
        }
    }
}

/// `<v;w,h>` / `<w,h>` (VxH) in Align1, `<v>` + swizzle in Align16.
#[inline(always)]
fn region(l: &mut Line, r: &RegSrc, a16: bool) {
    let g = r.region;
    if a16 {
        if g.is_vxh() {
            l.put(tok!("<VxH>"));
        } else {
            stride(l, g.vstride);
        }
        swizzle(l, r.swizzle);
        return;
    }
    if let (Some(v), Some(w), Some(h)) = (
        pow2_code(g.vstride).filter(|_| !g.is_vxh()),
        pow2_code(g.width),
        pow2_code(g.hstride),
    ) {
        l.put(&l.t.region[(v * CODES + w) * CODES + h]);
        return;
    }
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

#[inline(always)]
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

#[inline(always)]
fn imm(l: &mut Line, imm: &Imm) {
    let b = imm.bits;
    match imm.ty {
        DataType::D => l.signed((b as u32 as i32).into()),
        DataType::Q => l.signed(b as i64),
        // enc.imm-word-replicated: the 16 bits.
        DataType::W => l.signed((b as u16 as i16).into()),
        DataType::UW => l.hex(b & 0xFFFF, 1, true),
        // enc.iga-text.float-literals.
        DataType::HF => match word(b) {
            Some(w) => float_text(l, imm.ty, w.into()),
            None => l.hex(b, 8, true),
        },
        DataType::F if b <= u64::from(u32::MAX) => float_text(l, imm.ty, b),
        DataType::DF => float_text(l, imm.ty, b),
        _ => l.hex(b, 1, true),
    }
    ty(l, imm.ty);
}

/// IGA's text of a float immediate value (out of line: rare, and it formats through a
/// string).
#[cold]
fn float_text(l: &mut Line, ty: DataType, bits: u64) {
    let mut s = String::new();
    crate::asm::float_literal::write_iga(&mut s, ty, bits);
    for &c in s.as_bytes() {
        l.b(c);
    }
}

#[cfg(test)]
mod tests {
    use super::super::iga::iga_insn;
    use super::*;
    use crate::asm::{Dialect, PrintOptions};

    /// The line printer prints what the general printer prints in IGA style, for every
    /// instruction that random words decode to (all opcodes, operand kinds, modifiers and
    /// options), with and without jump labels.
    #[test]
    fn line_printer_matches_general_printer() {
        let mut next = crate::test_rng::xorshift(0x2545_F491_4F6C_DD1Du64);
        let mut n = 0;
        let mut text = super::super::TextBuf::new();
        let mut all = String::new();
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
                if labels.jip.is_none() {
                    // The in-place path of `euref disasm`.
                    text.push_insn_line(&i, &o);
                    all.push_str(&want);
                    all.push('\n');
                }
                let mut buf = [0u8; LINE_BUF];
                let mut line = Line::new(&mut buf);
                iga_line(&mut line, &i, p, labels);
                assert_eq!(
                    std::str::from_utf8(line.bytes()),
                    Ok(want.as_str()),
                    "{i:?}"
                );
                n += 1;
            }
        }
        assert!(n > 30_000, "{n} instructions printed");
        assert!(text.len() > 1_000_000);
        assert!(text.as_bytes() == all.as_bytes());
    }
}
