//! Send instructions: payload operands, message descriptors (IGA/PRM: extended descriptor
//! then descriptor; Mesa: descriptor then extended descriptor, with the shared function named
//! by the message description), SFID and EOT.

use super::cursor::{PResult, Pos};
use super::error::show;
use super::names;
use super::operand::{RawBase, RawNum, RawReg, RawSrc};
use super::parse::{Parser, Pending};
use super::Dialect;
use crate::isa::{Insn, Reg, SendDesc, SendInfo};
use crate::spec::DataType;

impl Parser<'_> {
    pub(crate) fn send_operands(&mut self, insn: &mut Insn, pd: &mut Pending) -> PResult<()> {
        let split = insn.is_split_send();
        self.pre_dst_mods(insn, pd)?;
        let k = super::parse::known(insn);
        self.dst_into(&mut insn.dst, &mut pd.dst, &k)?;
        self.operand_sep()?;
        self.src_into(&mut insn.src[0], pd, 0, Some(&k))?;
        if split {
            self.operand_sep()?;
            self.src_into(&mut insn.src[1], pd, 1, Some(&k))?;
        }
        for s in pd.srcs.iter().flatten() {
            if let RawSrc::Imm { pos, .. } = s {
                return Err(pos.err("a send payload must be a register"));
            }
        }
        self.operand_sep()?;
        if self.d == Dialect::Mesa {
            pd.desc = Some(self.desc_operand("the message descriptor")?);
            self.operand_sep()?;
            if split || self.at_number() || self.c.starts_with_ci(b"a0") {
                pd.ex_desc = Some(self.desc_operand("the extended message descriptor")?);
            }
            pd.sfid = Some(self.msg_description()?);
        } else {
            pd.ex_desc = Some(self.desc_operand("the extended message descriptor")?);
            self.operand_sep()?;
            pd.desc = Some(self.desc_operand("the message descriptor")?);
        }
        Ok(())
    }

    /// An immediate descriptor (optionally typed `:ud`/`UD`) or `a0.N`.
    fn desc_operand(&mut self, what: &str) -> PResult<(SendDesc, Pos)> {
        self.c.skip_blank()?;
        let p = self.c.pos();
        if let Some((v, n)) = self.quick_desc() {
            self.c.advance(n);
            return Ok((SendDesc::Imm(v), p));
        }
        self.desc_operand_general(what)
    }

    /// The common immediate descriptor, `0x` and up to 8 digits without a type: its value and
    /// length, as [`Parser::desc_operand`]'s general path reads it.
    #[inline]
    pub(crate) fn quick_desc(&self) -> Option<(u32, usize)> {
        // A fixed window (the general path reads the last bytes of the input).
        let w: &[u8; 16] = self.c.rest().first_chunk()?;
        if w[0] != b'0' || !matches!(w[1], b'x' | b'X') {
            return None;
        }
        let digit = self.c.hex_table();
        let (mut v, mut n) = (0u32, 0);
        // Up to 8 digits, and the byte after them (a ninth digit: the general path).
        while n < 9 {
            let d = digit[usize::from(w[2 + n])];
            if d > 15 {
                break;
            }
            v = v << 4 | u32::from(d);
            n += 1;
        }
        let next = w[2 + n.min(8)];
        (n > 0 && n <= 8 && next != b':' && !next.is_ascii_uppercase()).then_some((v, 2 + n))
    }

    /// [`Parser::desc_operand`] without its quick path (the cursor after the blanks).
    pub(crate) fn desc_operand_general(&mut self, what: &str) -> PResult<(SendDesc, Pos)> {
        let p = self.c.pos();
        if self.at_number() {
            let v = match self.number()? {
                RawNum::Int { neg: false, v, .. } if v <= u32::MAX as u64 => v as u32,
                _ => return Err(p.err(format!("{what} must be a 32-bit unsigned number"))),
            };
            if self.c.peek() == Some(b':') || self.c.peek().is_some_and(|b| b.is_ascii_uppercase())
            {
                let tp = self.c.pos();
                let src = self.src_type_only()?;
                if !matches!(src, DataType::UD | DataType::D) {
                    return Err(tp.err(format!("{what} has type ud")));
                }
            }
            return Ok((SendDesc::Imm(v), p));
        }
        if self.c.starts_with_ci(b"a0") {
            let r = self.src_raw()?;
            if let RawSrc::Reg(RawReg {
                base: RawBase::Direct(reg, sub),
                ty,
                neg: false,
                abs: false,
                ..
            }) = r
            {
                if reg == Reg::Arf(0x10) {
                    let s = sub.unwrap_or(0);
                    let dw = match ty {
                        Some(t) => s * t.bytes() / 4,
                        None => s,
                    };
                    if dw <= 7 {
                        return Ok((SendDesc::A0(dw as u8), p));
                    }
                }
            }
            return Err(p.err(format!("{what}: expected an address register a0.0-a0.7")));
        }
        Err(self.c.expected(&format!("{what} (a number or a0.N)")))
    }

    fn src_type_only(&mut self) -> PResult<DataType> {
        self.c.eat(b':');
        let p = self.c.pos();
        let n = self.c.letters();
        names::data_type(n).ok_or_else(|| p.err(format!("unknown data type `{}`", show(n))))
    }

    /// Mesa's message description: the shared function's name, then `MsgDesc: ...` up to the
    /// options (possibly on the next line).
    #[inline]
    pub(crate) fn msg_description(&mut self) -> PResult<u8> {
        match self.quick_msg_description() {
            Some(sfid) => Ok(sfid),
            None => self.msg_description_general(),
        }
    }

    /// [`Parser::msg_description`] in its common form, an optional line end, spaces, then a
    /// name of words joined by single spaces (at most 64 bytes, no word starting with
    /// `MsgDesc`) and ` MsgDesc`, read as the general path reads it: the SFID, the cursor at
    /// the options; None (cursor unmoved) for anything else, unknown names included.
    #[inline]
    pub(crate) fn quick_msg_description(&mut self) -> Option<u8> {
        let nl = usize::from(self.c.peek() == Some(b'\n'));
        let s = nl + self.c.spaces_at(nl);
        let rest = self.c.rest();
        // The name of the previous description again (its words were checked then).
        let last = self.last_sfid.0;
        if !last.is_empty() && rest.get(s..).is_some_and(|r| r.starts_with(last)) {
            let e = s + last.len();
            if rest.get(e..e + 8) == Some(b" MsgDesc") {
                if nl == 1 {
                    self.c.newline();
                }
                self.c.advance(e + 8 - nl);
                self.c.skip_to_any(b'\n', b'{', b';');
                return Some(self.last_sfid.1);
            }
        }
        let mut e = s;
        loop {
            let n = self.c.word_len_at(e);
            let word = rest.get(e..e + n)?;
            if n == 0
                || (n >= 7
                    && matches!(word[0], b'm' | b'M')
                    && word[..7].eq_ignore_ascii_case(b"MsgDesc"))
            {
                return None;
            }
            e += n;
            match rest.get(e..e + 8)? {
                b" MsgDesc" => break,
                [b' ', ..] => e += 1,
                _ => return None,
            }
        }
        let n = e - s;
        let name = &rest[s..e];
        if n > 64 {
            return None;
        }
        let sfid = if name == self.last_sfid.0 {
            self.last_sfid.1
        } else {
            let f = names::sfid(name)?;
            self.last_sfid = (name, f);
            f
        };
        if nl == 1 {
            self.c.newline();
        }
        self.c.advance(s - nl + n + 8);
        self.c.skip_to_any(b'\n', b'{', b';');
        Some(sfid)
    }

    /// [`Parser::msg_description`] without its quick path.
    #[inline(never)]
    pub(crate) fn msg_description_general(&mut self) -> PResult<u8> {
        self.c.skip_space()?;
        let p = self.c.pos();
        // The name's words joined by single spaces: borrowed from the input while they are
        // written that way, copied otherwise.
        let (mut first, mut end, mut len) = (0, 0, 0);
        let mut owned: Option<String> = None;
        loop {
            self.c.skip_blank()?;
            if self.c.starts_with_ci(b"MsgDesc")
                || matches!(self.c.peek(), None | Some(b'\n') | Some(b'{') | Some(b';'))
            {
                break;
            }
            let start = self.c.offset();
            let w = self.c.word();
            if w.is_empty() {
                return Err(self.c.expected(
                    "the shared function name of the message (urb, sampler, render, data, ...)",
                ));
            }
            if len == 0 {
                first = start;
            } else {
                len += 1;
                if owned.is_none() && !(start == end + 1 && self.c.slice(end, start) == b" ") {
                    owned = Some(String::from_utf8_lossy(self.c.slice(first, end)).into_owned());
                }
                if let Some(o) = owned.as_mut() {
                    o.push(' ');
                    o.push_str(&String::from_utf8_lossy(w));
                }
            }
            end = self.c.offset();
            len += w.len();
            if len > 64 {
                break;
            }
        }
        if len == 0 {
            return Err(p.err(
                "expected the message description, e.g. `urb MsgDesc: ...` (its shared function name gives the SFID)",
            ));
        }
        let borrowed = self.c.slice(first, end);
        let name: &[u8] = match &owned {
            Some(o) => o.as_bytes(),
            None if borrowed == self.last_sfid.0 => {
                self.c.skip_to_any(b'\n', b'{', b';');
                return Ok(self.last_sfid.1);
            }
            None => borrowed,
        };
        let sfid = names::sfid(name).ok_or_else(|| {
            p.err(format!(
                "unknown shared function `{}` (expected null, sampler, gateway, dp_sampler, render, urb, thread_spawner, vme, const, data, pixel interp, dp data 1, cre or sfidN)",
                show(name)
            ))
        })?;
        if owned.is_none() {
            self.last_sfid = (borrowed, sfid);
        }
        // The rest of the description is informational: skip to the options.
        self.c.skip_to_any(b'\n', b'{', b';');
        Ok(sfid)
    }

    pub(crate) fn finish_send(&mut self, insn: &mut Insn, pd: &Pending) -> PResult<()> {
        let mut eot = insn.ctrl.eot;
        let (desc, _) = pd
            .desc
            .ok_or_else(|| self.c.err("missing message descriptor"))?;
        let mut ex_desc = SendDesc::Imm(0);
        let mut sfid = pd.sfid;
        if let Some((e, ep)) = pd.ex_desc {
            ex_desc = match e {
                SendDesc::Imm(v) => {
                    if self.d != Dialect::Mesa {
                        // IGA/PRM: ExDesc[3:0] is the SFID, ExDesc[5] the EOT bit.
                        sfid = Some((v & 0xF) as u8);
                        eot |= v & 0x20 != 0;
                    } else if v & 0x2F != 0 {
                        return Err(ep.err(
                            "extended descriptor bits 3:0 and 5 are the SFID and EOT: name the shared function in the message description and write {EOT}",
                        ));
                    }
                    SendDesc::Imm(v & !0x2F)
                }
                a0 => a0,
            };
        }
        if let Some((s, p)) = pd.sfid_suffix {
            if sfid.is_some_and(|x| x != s) && !matches!(ex_desc, SendDesc::A0(_)) {
                return Err(p.err("the shared function suffix contradicts the extended descriptor"));
            }
            sfid = Some(s);
        }
        let Some(sfid) = sfid else {
            let p = pd.ex_desc.map_or(self.c.pos(), |e| e.1);
            return Err(p.err(
                "unknown shared function: with a register extended descriptor, name it as a mnemonic suffix (e.g. sends.dp_data_1)",
            ));
        };
        if let SendDesc::Imm(d) = desc {
            eot |= d & 0x8000_0000 != 0;
        }
        insn.ctrl.eot = eot;
        insn.send = Some(SendInfo {
            sfid,
            desc,
            ex_desc,
        });
        Ok(())
    }
}
