//! Operand syntax shared by the dialects: registers (direct and indirect), regions, swizzles
//! and write masks, types, source modifiers and immediates. Parsing produces raw operands; the
//! instruction parser turns them into [`Dst`]/[`Src`] once the access mode, execution size and
//! defaults are known.

use super::cursor::{PResult, Pos};
use super::error::show;
use super::float_literal;
use super::names;
use super::parse::{Parser, Pending};
use super::Dialect;
use crate::isa::{
    arf_lookup, arf_regnum, arf_type_exists, Addr, Dst, Imm, Reg, RegSrc, Region, Src, Swizzle,
};
use crate::spec::DataType;

/// The register part of an operand.
#[derive(Debug, Clone, Copy)]
pub(crate) enum RawBase {
    /// A register and its subregister number in elements (None: not written).
    Direct(Reg, Option<u32>),
    /// A register whose subregister number is written in bytes (IGA's ce and msg:
    /// enc.iga-text.arf-byte-subreg).
    DirectBytes(Reg, Option<u32>),
    /// `r[a0.<a0> + off]`.
    Indirect { a0: u8, off: i32 },
}

/// `<a>`, `<a,b>` or `<a;b,c>` / `<a,b,c>` as written; `VxH` is stored as [`Region::VXH`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct RawRegion {
    pub n: u8,
    pub v: [u8; 3],
    pub pos: Pos,
}

#[derive(Debug, Clone, Copy)]
pub(crate) enum RawSwz {
    /// Channel letters (0-4 of them).
    Chans { c: [u8; 4], n: u8 },
    /// `.r`: replicated scalar (three-source RepCtrl).
    Rep,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct RawReg {
    pub pos: Pos,
    pub neg: bool,
    pub abs: bool,
    pub base: RawBase,
    pub region: Option<RawRegion>,
    pub swz: Option<RawSwz>,
    pub ty: Option<DataType>,
}

#[derive(Debug, Clone, Copy)]
pub(crate) enum RawNum {
    /// `digits`: number of hexadecimal digits written (0 for decimal).
    Int {
        neg: bool,
        v: u64,
        digits: u32,
    },
    Float(f64),
}

/// A named float literal of IGA's syntax.
#[derive(Clone, Copy)]
enum SpecialFloat {
    Inf,
    Nan { quiet: bool },
}

#[derive(Debug, Clone, Copy)]
pub(crate) enum RawSrc {
    Reg(RawReg),
    Imm {
        pos: Pos,
        val: RawNum,
        ty: Option<DataType>,
    },
}

impl RawReg {
    /// Whether the operand's syntax is Align16-only (swizzle, write mask, single-value source
    /// region).
    pub fn align16_syntax(&self, is_dst: bool) -> bool {
        self.swz.is_some() || (!is_dst && matches!(self.region, Some(r) if r.n == 1))
    }
}

impl<'a> Parser<'a> {
    /// Whether the cursor is at the end of an instruction's operand list.
    #[inline]
    pub(crate) fn at_operands_end(&mut self) -> PResult<bool> {
        self.c.skip_blank()?;
        Ok(matches!(
            self.c.peek(),
            None | Some(b'\n') | Some(b'{') | Some(b';')
        ))
    }

    /// Skip blanks and an optional `,` between operands.
    #[inline]
    pub(crate) fn operand_sep(&mut self) -> PResult<()> {
        // IGA's separator: one space, then the operand.
        if self.c.space_then_token(b',') {
            return Ok(());
        }
        // Mesa's columns: a run of spaces, then the operand.
        if self.c.spaces_then_token(b',') {
            return Ok(());
        }
        self.operand_sep_general()
    }

    /// [`Parser::operand_sep`] without its quick path.
    fn operand_sep_general(&mut self) -> PResult<()> {
        self.c.skip_blank()?;
        if self.c.peek() == Some(b',') {
            self.c.bump();
            self.c.skip_blank()?;
        }
        Ok(())
    }

    /// A register name: `rN`/`gN`, `r[a0.N, off]`/`g[a0.N off]`, or an ARF name. `None` (cursor
    /// unmoved) if the text is no register.
    pub(crate) fn reg_base(&mut self) -> PResult<Option<RawBase>> {
        let c0 = self.c.peek();
        let c1 = self.c.peek_at(1);
        if matches!(c0, Some(b'r' | b'g' | b'R' | b'G')) {
            if c1 == Some(b'[') {
                self.c.bump();
                self.c.bump();
                return self.indirect().map(Some);
            }
            if c1.is_some_and(|b| b.is_ascii_digit()) {
                self.c.bump();
                let max = u64::from(self.grf_limit.max(1) - 1);
                let n = self.c.small("GRF register number", max)?;
                return Ok(Some(RawBase::Direct(Reg::Grf(n as u8), self.subreg()?)));
            }
        }
        // ARF: lowercase letters then an optional number.
        let save = self.c.offset();
        let pos = self.c.pos();
        let mut end = save;
        while matches!(self.c.slice(end, end + 1).first(), Some(b) if b.is_ascii_lowercase()) {
            end += 1;
        }
        let name = self.c.slice(save, end);
        if name.is_empty() {
            return Ok(None);
        }
        if name == b"arf" && self.c.slice(end, end + 2) == b"0x" {
            for _ in 0..3 {
                self.c.bump();
            }
            let v = self
                .c
                .uint()?
                .ok_or_else(|| self.c.expected("an ARF register number"))?;
            let n = u8::try_from(v)
                .map_err(|_| pos.err("ARF register number out of range (0x00-0xff)"))?;
            self.arf_type_on_platform(n, pos, || format!("arf{n:#04x}"))?;
            return Ok(Some(RawBase::Direct(Reg::Arf(n), self.subreg()?)));
        }
        if arf_lookup(name).is_none() && !name.eq_ignore_ascii_case(b"mme") {
            return Ok(None);
        }
        for _ in save..end {
            self.c.bump();
        }
        // A register written without its number (`ce`, `sp`, `acc`) is number 0; a number
        // after a numberless name (`null5`, `sp2`) is read too, as IGA syntax prints it
        // (enc.iga-text.arf-numberless).
        let nr = if self.c.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.c.small("register number", 15)?
        } else {
            0
        };
        let regnum = arf_regnum(name, nr as u8)
            .ok_or_else(|| pos.err(format!("no register `{}{nr}`", show(name))))?;
        self.arf_type_on_platform(regnum, pos, || format!("{}{nr}", show(name)))?;
        let sub = self.subreg()?;
        if self.d == Dialect::Iga && crate::isa::iga_byte_subreg(regnum) {
            return Ok(Some(RawBase::DirectBytes(Reg::Arf(regnum), sub)));
        }
        Ok(Some(RawBase::Direct(Reg::Arf(regnum), sub)))
    }

    /// An error at `pos` when the ARF type of `regnum` is reserved on the platform
    /// (enc.arf-reg-type); `text` is the register as written.
    fn arf_type_on_platform(
        &self,
        regnum: u8,
        pos: Pos,
        text: impl FnOnce() -> String,
    ) -> PResult<()> {
        if arf_type_exists(regnum, self.plat) {
            return Ok(());
        }
        Err(pos.err(format!(
            "register `{}` does not exist on {} (enc.arf-reg-type: its ARF type {:#x} is reserved there)",
            text(),
            self.plat.name(),
            regnum >> 4
        )))
    }

    /// `.N` after a register name (a digit must follow the dot).
    fn subreg(&mut self) -> PResult<Option<u32>> {
        if self.c.peek() == Some(b'.') && self.c.peek_at(1).is_some_and(|b| b.is_ascii_digit()) {
            self.c.bump();
            return Ok(Some(self.c.small("subregister number", 255)?));
        }
        Ok(None)
    }

    /// After `r[`: `a0[.N] [(,|+|-|space) offset] ]`.
    fn indirect(&mut self) -> PResult<RawBase> {
        self.c.skip_blank()?;
        if !(self.c.starts_with_ci(b"a0")) {
            return Err(self
                .c
                .expected("the address register `a0` in an indirect operand"));
        }
        self.c.bump();
        self.c.bump();
        let a0 = match self.subreg()? {
            Some(n) if n <= 15 => n as u8,
            Some(n) => {
                return Err(self.c.err(format!(
                    "address subregister a0.{n} is out of range (a0.0-a0.15)"
                )))
            }
            None => 0,
        };
        self.c.skip_blank()?;
        let mut off: i64 = 0;
        if self.c.peek() != Some(b']') {
            let mut neg = false;
            match self.c.peek() {
                Some(b',') | Some(b'+') => self.c.bump(),
                Some(b'-') => {
                    self.c.bump();
                    neg = true;
                }
                _ => {}
            }
            self.c.skip_blank()?;
            if !neg && self.c.peek() == Some(b'-') {
                self.c.bump();
                neg = true;
                self.c.skip_blank()?;
            }
            let pos = self.c.pos();
            let mut v: i64 = 1;
            loop {
                let f = self
                    .c
                    .uint()?
                    .ok_or_else(|| self.c.expected("an address offset"))?;
                v = i64::try_from(f)
                    .ok()
                    .and_then(|f| v.checked_mul(f))
                    .filter(|v| *v <= 1 << 20)
                    .ok_or_else(|| pos.err("address offset out of range"))?;
                self.c.skip_blank()?;
                if !self.c.eat(b'*') {
                    break;
                }
                self.c.skip_blank()?;
            }
            off = if neg { -v } else { v };
            if !(-512..=511).contains(&off) {
                return Err(pos.err(format!(
                    "address offset {off} is out of range (-512..511 bytes)"
                )));
            }
        }
        self.c.expect(b']', "`]` closing the indirect operand")?;
        Ok(RawBase::Indirect {
            a0,
            off: off as i32,
        })
    }

    /// `<...>` region.
    fn region(&mut self) -> PResult<Option<RawRegion>> {
        let pos = self.c.pos();
        if !self.c.eat(b'<') {
            return Ok(None);
        }
        let mut v = [0u8; 3];
        let mut n = 0u8;
        loop {
            self.c.skip_blank()?;
            if n as usize >= v.len() {
                return Err(self.c.expected("`>` closing the region"));
            }
            if n == 0 && self.c.peek() == Some(b';') {
                // vISA's `<;Width,HorzStride>` (seed002): the one-dimensional indirect region.
                v[0] = Region::VXH;
            } else if self.c.starts_with_ci(b"vxh") {
                for _ in 0..3 {
                    self.c.bump();
                }
                v[n as usize] = Region::VXH;
            } else {
                let p = self.c.pos();
                match self.c.uint()? {
                    Some(x) if x <= 64 => v[n as usize] = x as u8,
                    Some(x) => return Err(p.err(format!("bad region: {x} is out of range"))),
                    None => return Err(self.c.expected("a region parameter (a number)")),
                }
            }
            n += 1;
            self.c.skip_blank()?;
            match self.c.peek() {
                Some(b'>') => {
                    self.c.bump();
                    break;
                }
                Some(b';') | Some(b',') => self.c.bump(),
                _ => return Err(self.c.expected("`;`, `,` or `>` in the region")),
            }
        }
        Ok(Some(RawRegion { n, v, pos }))
    }

    /// `.xyzw`-style swizzle or write mask, `.r`, or (after a region) bare channel letters.
    fn swizzle(&mut self, after_region: bool) -> PResult<Option<RawSwz>> {
        let chan = |b: Option<u8>| match b {
            Some(b'x') => Some(0u8),
            Some(b'y') => Some(1),
            Some(b'z') => Some(2),
            Some(b'w') => Some(3),
            _ => None,
        };
        let dotted = self.c.peek() == Some(b'.');
        let first = if dotted {
            self.c.peek_at(1)
        } else {
            self.c.peek()
        };
        if !dotted && (!after_region || chan(first).is_none()) {
            return Ok(None);
        }
        if dotted
            && first == Some(b'r')
            && !self.c.peek_at(2).is_some_and(|b| b.is_ascii_alphanumeric())
        {
            self.c.bump();
            self.c.bump();
            return Ok(Some(RawSwz::Rep));
        }
        if dotted {
            // `.` followed by nothing we know is left for the caller (e.g. an empty mask `.F`).
            if chan(first).is_none() && !matches!(first, Some(b':') | Some(b'A'..=b'Z')) {
                return Ok(None);
            }
            self.c.bump();
        }
        let mut c = [0u8; 4];
        let mut n = 0u8;
        while let Some(ch) = chan(self.c.peek()) {
            if n == 4 {
                return Err(self.c.err("a swizzle has at most four channels"));
            }
            c[n as usize] = ch;
            n += 1;
            self.c.bump();
        }
        Ok(Some(RawSwz::Chans { c, n }))
    }

    /// `:type` or (Mesa) an uppercase type suffix.
    pub(crate) fn type_suffix(&mut self) -> PResult<Option<DataType>> {
        let pos = self.c.pos();
        let colon = self.c.eat(b':');
        if !colon && !self.c.peek().is_some_and(|b| b.is_ascii_uppercase()) {
            return Ok(None);
        }
        if colon {
            self.c.skip_blank()?;
        }
        let start = self.c.offset();
        let name = self.c.letters();
        if name.is_empty() {
            return Err(self
                .c
                .expected("a data type (ub b uw w ud d uq q hf f df v uv vf)"));
        }
        match names::data_type(name) {
            Some(t) => Ok(Some(t)),
            None => Err(pos.err(format!(
                "unknown data type `{}` (expected ub b uw w ud d uq q hf f df v uv vf)",
                show(self.c.slice(start, self.c.offset()))
            ))),
        }
    }

    /// A register operand after its modifiers.
    pub(crate) fn reg_operand(
        &mut self,
        pos: Pos,
        neg: bool,
        abs: bool,
    ) -> PResult<Option<RawReg>> {
        if let Some((mut r, n)) = self.quick_reg() {
            r.pos = pos;
            r.neg = neg;
            r.abs = abs;
            self.c.advance(n);
            return Ok(Some(r));
        }
        self.reg_operand_general(pos, neg, abs)
    }

    /// [`Parser::reg_operand`] without its quick path.
    pub(crate) fn reg_operand_general(
        &mut self,
        pos: Pos,
        neg: bool,
        abs: bool,
    ) -> PResult<Option<RawReg>> {
        let Some(base) = self.reg_base()? else {
            return Ok(None);
        };
        let mut swz = self.swizzle(false)?;
        let region = if swz.is_none() { self.region()? } else { None };
        if swz.is_none() {
            swz = self.swizzle(region.is_some())?;
        }
        let ty = self.type_suffix()?;
        Ok(Some(RawReg {
            pos,
            neg,
            abs,
            base,
            region,
            swz,
            ty,
        }))
    }

    /// The common register operand read in one pass ([`Parser::quick_parts`]): the raw
    /// operand and its length, exactly as [`Parser::reg_operand`]'s general path would read it
    /// (`pos`, `neg` and `abs` left for the caller).
    #[inline]
    pub(crate) fn quick_reg(&self) -> Option<(RawReg, usize)> {
        let q = self.quick_parts()?;
        Some((q.raw(self.c.offset()), q.len))
    }

    /// A destination operand (register, no modifiers).
    pub(crate) fn dst_raw(&mut self) -> PResult<RawReg> {
        self.c.skip_blank()?;
        let pos = self.c.pos();
        match self.reg_operand(pos, false, false)? {
            Some(r) => Ok(r),
            None => Err(self.c.expected("a destination register")),
        }
    }

    /// A source operand: `[-|~][(abs)]register...` or an immediate.
    pub(crate) fn src_raw(&mut self) -> PResult<RawSrc> {
        let (mut slot, mut pd) = (None, Pending::default());
        self.src_into(&mut slot, &mut pd, 0, None)?;
        let [raw, ..] = pd.srcs;
        raw.ok_or_else(|| self.c.err("internal: no raw source"))
    }

    /// The common typed immediate `[-]DIGITS:type` / `[-]0xHEX:type` (or Mesa's `1D`, `0x1fUD`)
    /// read in one pass: its value, type and length, exactly as [`Parser::number`] and the
    /// type suffix would read them. `None` for anything else (floating-point literals, long
    /// numbers, blanks, unknown types): the general path reads it and reports the errors.
    #[inline]
    pub(crate) fn quick_imm(&self) -> Option<(RawNum, DataType, usize)> {
        let s = self.c.rest();
        let at = |i: usize| s.get(i).copied().unwrap_or(0);
        let neg = at(0) == b'-';
        let start = usize::from(neg);
        let (v, digits, mut i) = if at(start) == b'0' && matches!(at(start + 1), b'x' | b'X') {
            let (v, n) = self.c.hex_digits(start + 2, 16)?;
            (v, n as u32, start + 2 + n)
        } else {
            let (v, i) = self.c.dec_digits(start, 9)?;
            (v, 0, i)
        };
        // A type must follow at once (so no floating-point literal is cut short).
        if at(i) == b':' {
            i += 1;
        } else if !at(i).is_ascii_uppercase() {
            return None;
        }
        let t0 = i;
        while at(i).is_ascii_alphabetic() {
            i += 1;
        }
        let ty = names::data_type(s.get(t0..i)?)?;
        Some((RawNum::Int { neg, v, digits }, ty, i))
    }

    /// Whether a number starts at the cursor (`12`, `-1`, `0x1F`, `+3`, `-.5`, and outside
    /// Mesa's syntax IGA's `inf`, `-inf`, `qnan(`, `snan(`).
    pub(crate) fn at_number(&self) -> bool {
        let digit = |b: Option<u8>| b.is_some_and(|b| b.is_ascii_digit());
        match self.c.peek() {
            Some(b) if b.is_ascii_digit() => true,
            Some(b'-') | Some(b'+') => {
                digit(self.c.peek_at(1))
                    || (self.c.peek_at(1) == Some(b'.') && digit(self.c.peek_at(2)))
                    || self.special_float_at(1).is_some()
            }
            _ => self.special_float_at(0).is_some(),
        }
    }

    /// IGA's named float literal starting `at` bytes after the cursor (enc.iga-text.float-
    /// literals): `inf` (not followed by a name character), `qnan(` or `snan(`. Its kind and
    /// the length of the keyword. Never in Mesa's syntax.
    fn special_float_at(&self, at: usize) -> Option<(SpecialFloat, usize)> {
        if self.d == Dialect::Mesa {
            return None;
        }
        let is = |word: &[u8]| {
            word.iter()
                .enumerate()
                .all(|(k, &b)| self.c.peek_at(at + k) == Some(b))
        };
        let name_char = |k: usize| {
            self.c
                .peek_at(at + k)
                .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        };
        if is(b"inf") && !name_char(3) {
            Some((SpecialFloat::Inf, 3))
        } else if is(b"qnan(") {
            Some((SpecialFloat::Nan { quiet: true }, 4))
        } else if is(b"snan(") {
            Some((SpecialFloat::Nan { quiet: false }, 4))
        } else {
            None
        }
    }

    /// The rest of a named float literal after its sign: `inf` or `qnan(N)` / `snan(N)`.
    fn special_float(&mut self, neg: bool, kind: SpecialFloat, len: usize) -> PResult<RawNum> {
        self.c.advance(len);
        let quiet = match kind {
            SpecialFloat::Inf => {
                let inf = if neg {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                };
                return Ok(RawNum::Float(inf));
            }
            SpecialFloat::Nan { quiet } => quiet,
        };
        self.c.bump(); // `(`
        self.c.skip_blank()?;
        let pos = self.c.pos();
        let payload = self
            .c
            .uint()?
            .ok_or_else(|| self.c.expected("a NaN payload (e.g. 0x1)"))?;
        self.c.skip_blank()?;
        if !self.c.eat(b')') {
            return Err(self.c.expected("`)` after the NaN payload"));
        }
        float_literal::nan_literal(neg, quiet, payload)
            .map(RawNum::Float)
            .map_err(|m| pos.err(m))
    }

    /// A signed integer or (IGA/PRM) floating-point literal.
    pub(crate) fn number(&mut self) -> PResult<RawNum> {
        let start = self.c.offset();
        let pos = self.c.pos();
        let neg = match self.c.peek() {
            Some(b'-') => {
                self.c.bump();
                true
            }
            Some(b'+') => {
                self.c.bump();
                false
            }
            _ => false,
        };
        if let Some((kind, len)) = self.special_float_at(0) {
            return self.special_float(neg, kind, len);
        }
        let hex = self.c.starts_with_ci(b"0x");
        let v = self.c.uint()?;
        if !hex && self.d != Dialect::Mesa {
            // A floating-point literal: digits '.' digits, exponent.
            let is_float = match self.c.peek() {
                Some(b'.') => self.c.peek_at(1).is_some_and(|b| b.is_ascii_digit()),
                Some(b'e') | Some(b'E') => {
                    let n = self.c.peek_at(1);
                    n.is_some_and(|b| b.is_ascii_digit())
                        || (matches!(n, Some(b'+') | Some(b'-'))
                            && self.c.peek_at(2).is_some_and(|b| b.is_ascii_digit()))
                }
                _ => false,
            } || (v.is_none() && self.c.peek() == Some(b'.'));
            if is_float {
                if self.c.eat(b'.') {
                    while self.c.peek().is_some_and(|b| b.is_ascii_digit()) {
                        self.c.bump();
                    }
                }
                if matches!(self.c.peek(), Some(b'e') | Some(b'E')) {
                    self.c.bump();
                    if matches!(self.c.peek(), Some(b'+') | Some(b'-')) {
                        self.c.bump();
                    }
                    while self.c.peek().is_some_and(|b| b.is_ascii_digit()) {
                        self.c.bump();
                    }
                }
                let text = self.c.slice(start, self.c.offset());
                let f = std::str::from_utf8(text)
                    .ok()
                    .and_then(|s| s.parse::<f64>().ok())
                    .ok_or_else(|| pos.err(format!("bad number `{}`", show(text))))?;
                return Ok(RawNum::Float(f));
            }
        }
        let digits = if hex { self.c.last_hex_digits } else { 0 };
        match v {
            Some(v) => Ok(RawNum::Int { neg, v, digits }),
            None => Err(self.c.expected("a number")),
        }
    }
}

/// The raw immediate field bits of an immediate of type `ty` written as `val`.
pub(crate) fn imm_bits(ty: DataType, val: RawNum, mesa: bool, pos: Pos) -> PResult<u64> {
    if ty.info().imm_enc.iter().all(Option::is_none) {
        return Err(pos.err(format!(
            "{} immediates do not exist (the type has no immediate encoding)",
            ty.name()
        )));
    }
    let out_of_range = || pos.err(format!("immediate out of range for type {}", ty.name()));
    let (neg, v, digits) = match val {
        RawNum::Float(f) => {
            // enc.iga-text.float-literals: read as a double, narrowed to the type (an HF's
            // 16 bits replicated, as its hexadecimal form is).
            return match ty {
                DataType::F | DataType::DF | DataType::HF => {
                    let b = float_literal::narrow(ty, f).map_err(|m| pos.err(m))?;
                    Ok(if ty == DataType::HF { b * 0x1_0001 } else { b })
                }
                _ => Err(pos.err(format!(
                    "a floating-point literal needs type f, df or hf, not {} (write other types' bits in hexadecimal)",
                    ty.name()
                ))),
            };
        }
        RawNum::Int { neg, v, digits } => (neg, v, digits),
    };
    let hex = digits > 0;
    let x: i128 = if neg { -(v as i128) } else { v as i128 };
    if !mesa && !hex && x != 0 && matches!(ty, DataType::F | DataType::DF | DataType::HF) {
        // enc.iga-text.float-literals: IGA refuses a decimal integer with a float type.
        return Err(pos.err(format!(
            "a decimal integer is not a literal of type {0}: write a decimal point (`{x}.0:{1}`) or the bits in hexadecimal (enc.iga-text.float-literals)",
            ty.name(),
            names::type_lower(ty)
        )));
    }
    let fits = |lo: i128, hi: i128| (lo..=hi).contains(&x);
    match ty {
        DataType::W | DataType::UW => {
            // enc.imm-word-replicated: the 16-bit value is replicated to both halves; a
            // 32-bit literal is refused unless its halves agree.
            if digits > 4 && !neg && fits(0, 0xFFFF_FFFF) {
                if (x >> 16) == (x & 0xFFFF) {
                    Ok(x as u64)
                } else {
                    Err(pos.err(format!(
                        "a {} immediate holds 16 bits, replicated in both halves of the field (enc.imm-word-replicated): 0x{x:X} has different halves; write the 16-bit value",
                        ty.name()
                    )))
                }
            } else if fits(-0x8000, 0xFFFF) {
                Ok(((x as u64) & 0xFFFF) * 0x1_0001)
            } else {
                Err(out_of_range())
            }
        }
        DataType::HF => {
            // More than four hexadecimal digits (`0x00001234`) write the whole 32-bit field
            // (enc.imm-word-replicated, note); otherwise the 16 bits are replicated.
            if digits > 4 && !neg && fits(0, 0xFFFF_FFFF) {
                Ok(x as u64)
            } else if fits(-0x8000, 0xFFFF) {
                Ok(((x as u64) & 0xFFFF) * 0x1_0001)
            } else {
                Err(out_of_range())
            }
        }
        DataType::Q | DataType::UQ | DataType::DF => {
            if fits(i64::MIN as i128, u64::MAX as i128) {
                Ok(x as u64)
            } else {
                Err(out_of_range())
            }
        }
        // Haswell's dim takes a 64-bit value typed F (mesa brw_gram.y immreg).
        DataType::F if fits(0x1_0000_0000, u64::MAX as i128) => Ok(x as u64),
        _ => {
            if fits(i32::MIN as i128, u32::MAX as i128) {
                Ok((x as u64) & 0xFFFF_FFFF)
            } else {
                Err(out_of_range())
            }
        }
    }
}

/// Context for turning raw operands into model operands.
pub(crate) struct OpCtx {
    pub mesa: bool,
    /// Region used when a source writes none.
    pub default_region: Region,
    /// Type used when an operand writes none (sends' bare registers); None: a type is required.
    pub default_type: Option<DataType>,
}

fn sub_bytes(sub: Option<u32>, ty: DataType, pos: Pos) -> PResult<u8> {
    let s = sub.unwrap_or(0);
    let b = s as u64 * ty.bytes().max(1) as u64;
    if b > 31 {
        return Err(pos.err(format!(
            "subregister {s} of type {} is byte offset {b}, beyond the 32-byte register",
            ty.name()
        )));
    }
    Ok(b as u8)
}

fn addr_of(base: RawBase, ty: DataType, pos: Pos) -> PResult<Addr> {
    Ok(match base {
        RawBase::DirectBytes(reg, sub) => {
            let b = sub.unwrap_or(0);
            if b > 31 {
                return Err(pos.err(format!(
                    "subregister {b} (bytes, as IGA writes ce and msg) is beyond the 32-byte register"
                )));
            }
            Addr::Direct { reg, sub: b as u8 }
        }
        RawBase::Direct(reg, sub) => Addr::Direct {
            reg,
            sub: sub_bytes(sub, ty, pos)?,
        },
        RawBase::Indirect { a0, off } => Addr::Indirect {
            a0,
            off: off as i16,
        },
    })
}

fn need_type(ty: Option<DataType>, ctx: &OpCtx, pos: Pos) -> PResult<DataType> {
    ty.or(ctx.default_type)
        .ok_or_else(|| pos.err("missing data type (e.g. `:f`, or `F` in Mesa syntax)"))
}

/// Build the destination.
pub(crate) fn make_dst(r: &RawReg, ctx: &OpCtx) -> PResult<Dst> {
    if r.neg || r.abs {
        return Err(r.pos.err("a destination cannot have source modifiers"));
    }
    let ty = need_type(r.ty, ctx, r.pos)?;
    let hstride =
        match r.region {
            None => 1,
            Some(g) if g.n == 1 => match g.v[0] {
                x if dst_stride_defined(x) => x,
                0 => return Err(g.pos.err(
                    "destination stride <0> is reserved (enc.dst-hstride): write <1>, <2> or <4>",
                )),
                x => {
                    return Err(g.pos.err(format!(
                        "bad destination stride <{x}> (expected <1>, <2> or <4>)"
                    )))
                }
            },
            Some(g) => {
                return Err(g.pos.err(
                    "bad destination region: a destination has only a horizontal stride, e.g. <1>",
                ))
            }
        };
    let wrmask = match r.swz {
        None => 0xF,
        Some(RawSwz::Rep) => return Err(r.pos.err("`.r` is not a destination write mask")),
        Some(RawSwz::Chans { c, n }) => {
            let mut m = 0u8;
            for &ch in &c[..n as usize] {
                if m & (1 << ch) != 0 {
                    return Err(r.pos.err("a write mask names each channel at most once"));
                }
                m |= 1 << ch;
            }
            m
        }
    };
    Ok(Dst {
        addr: addr_of(r.base, ty, r.pos)?,
        ty,
        hstride,
        wrmask,
    })
}

/// Whether `x` is a destination stride of enc.dst-hstride.
fn dst_stride_defined(x: u8) -> bool {
    crate::spec::encoding::values::DST_HSTRIDE
        .entries
        .iter()
        .any(|e| e.0.parse::<u8>() == Ok(x))
}

pub(crate) fn check_region(g: Region, pos: Pos) -> PResult<Region> {
    if region_valid(g) {
        return Ok(g);
    }
    let vs_ok = matches!(g.vstride, 0 | 1 | 2 | 4 | 8 | 16 | 32) || g.vstride == Region::VXH;
    if !vs_ok {
        return Err(pos.err(format!(
            "bad region: vertical stride {} (expected 0, 1, 2, 4, 8, 16 or 32)",
            g.vstride
        )));
    }
    if !matches!(g.width, 1 | 2 | 4 | 8 | 16) {
        return Err(pos.err(format!(
            "bad region: width {} (expected 1, 2, 4, 8 or 16)",
            g.width
        )));
    }
    if !matches!(g.hstride, 0 | 1 | 2 | 4) {
        return Err(pos.err(format!(
            "bad region: horizontal stride {} (expected 0, 1, 2 or 4)",
            g.hstride
        )));
    }
    Ok(g)
}

/// Whether [`check_region`] accepts `g`.
#[inline(always)]
pub(crate) fn region_valid(g: Region) -> bool {
    (matches!(g.vstride, 0 | 1 | 2 | 4 | 8 | 16 | 32) || g.vstride == Region::VXH)
        && matches!(g.width, 1 | 2 | 4 | 8 | 16)
        && matches!(g.hstride, 0 | 1 | 2 | 4)
}

/// Bring the region of a three-source (Align16) source written in IGA syntax to the one-number
/// Align16 form [`make_src`] reads (`<0>` replicated, `<4>` packed), as
/// feature.iga-ternary-regions says: `<0;0>` and `<2;1>` / `<4;1>` / `<8;1>` on src0 and src1,
/// `<0>` / `<1>` on src2 (a one-number region, as euref wrote it before, stays as it is, and
/// so does a three-number Align1 one); without a region, `<0;0>` / `<0>` for an operand that
/// names a subregister or an instruction of execution size 1 (`exec1`), else the packed one.
pub(crate) fn ternary_region(r: &mut RawReg, src2: bool, exec1: bool) -> PResult<()> {
    let one = |v: u8, pos: Pos| RawRegion {
        n: 1,
        v: [v, 0, 0],
        pos,
    };
    match r.region {
        None => {
            let sub = matches!(
                r.base,
                RawBase::Direct(_, Some(_)) | RawBase::DirectBytes(_, Some(_))
            );
            r.region = Some(one(if sub || exec1 { 0 } else { 4 }, r.pos));
        }
        Some(g) if g.n == 2 && src2 => {
            return Err(g.pos.err(format!(
                "bad region <{};{}>: src2 of a three-source instruction takes <0> (replicated) or <1> (packed) in IGA syntax",
                g.v[0], g.v[1]
            )));
        }
        Some(g) if g.n == 2 => {
            let v = match (g.v[0], g.v[1]) {
                (0, 0) => 0,
                (2 | 4 | 8, 1) => 4,
                (a, b) => {
                    return Err(g.pos.err(format!(
                        "bad region <{a};{b}>: src0 and src1 of a three-source instruction take <0;0> (replicated) or <2;1> (packed; <4;1> and <8;1> are read too) in IGA syntax"
                    )))
                }
            };
            r.region = Some(one(v, g.pos));
        }
        Some(_) => {}
    }
    Ok(())
}

/// Build a source.
pub(crate) fn make_src(s: &RawSrc, ctx: &OpCtx) -> PResult<Src> {
    let r = match s {
        RawSrc::Imm { pos, val, ty } => {
            let ty = ty.ok_or_else(|| {
                pos.err("missing immediate type (e.g. `0x1F:ud`, or `1D` in Mesa syntax)")
            })?;
            return Ok(Src::Imm(Imm::new(ty, imm_bits(ty, *val, ctx.mesa, *pos)?)));
        }
        RawSrc::Reg(r) => r,
    };
    let ty = need_type(r.ty, ctx, r.pos)?;
    let mut region = match r.region {
        None => ctx.default_region,
        Some(g) => {
            let rg = match g.n {
                3 => Region::new(g.v[0], g.v[1], g.v[2]),
                2 => Region::new(Region::VXH, g.v[0], g.v[1]),
                _ => Region::new(g.v[0], Region::A16.width, Region::A16.hstride),
            };
            let vxh_misplaced = rg.width == Region::VXH || rg.hstride == Region::VXH;
            if vxh_misplaced {
                return Err(g
                    .pos
                    .err("bad region: `VxH` can only be the vertical stride"));
            }
            check_region(rg, g.pos)?
        }
    };
    let swizzle = match r.swz {
        None => Swizzle::XYZW,
        Some(RawSwz::Rep) => {
            region.vstride = 0;
            Swizzle::XYZW
        }
        Some(RawSwz::Chans { n: 0, .. }) => return Err(r.pos.err("empty swizzle after `.`")),
        Some(RawSwz::Chans { c, n }) => {
            let mut ch = [0u8; 4];
            for (i, slot) in ch.iter_mut().enumerate() {
                *slot = c[i.min(n as usize - 1)];
            }
            Swizzle::from_chans(ch)
        }
    };
    Ok(Src::Reg(RegSrc {
        addr: addr_of(r.base, ty, r.pos)?,
        ty,
        region,
        swizzle,
        neg: r.neg,
        abs: r.abs,
    }))
}
