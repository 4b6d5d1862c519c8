//! The common operands read straight into their final form ([`Dst`], [`Src`]) while the
//! instruction is parsed, instead of a raw operand that `Parser::finish` converts: a register
//! `gN[.S][<...>][TYPE]` whose region and type make the conversion independent of what the
//! rest of the line says (access mode, execution size), and typed immediates. Whatever else,
//! or whatever the conversion would reject, stays raw: `finish` converts it (and reports the
//! errors) exactly as before.

use super::cursor::{PResult, Pos};
use super::names;
use super::operand::{imm_bits, region_valid, RawBase, RawRegion, RawSrc};
use super::parse::{Parser, Pending};
use super::Dialect;
use crate::isa::{Addr, Dst, Imm, Reg, RegSrc, Region, Src, Swizzle};
use crate::spec::DataType;

/// What the instruction's opcode already decides about its operands' conversion.
#[derive(Clone, Copy)]
pub(crate) struct Known {
    /// The type of an operand written without one (sends: UD; None: a type is required).
    pub ty: Option<DataType>,
    /// Whether an immediate source is an operand (not a send payload, which must be a
    /// register and is checked after the operands are read).
    pub imm: bool,
}

/// The pieces of the common register operand (see [`Parser::quick_parts`]).
#[derive(Clone, Copy)]
pub(crate) struct QuickReg {
    pub reg: Reg,
    /// The subregister number in elements, if written.
    pub sub: Option<u32>,
    /// The region's values, their count (0: no region) and the offset of its `<`.
    pub region: ([u8; 3], u8, usize),
    pub ty: Option<DataType>,
    /// The operand's length in bytes.
    pub len: usize,
}

/// Bytes looked at by [`Parser::quick_parts`] (the longest operand it reads,
/// `r255.255<64;64,64>:uw`, has 22).
const WINDOW: usize = 32;

impl Parser<'_> {
    /// The common register operand `gN[.S][<a[,;]b,c>](TYPE|:type)` (`g` or `r`, or `null`;
    /// no blanks inside, decimal numbers, no swizzle) read in one pass over a fixed window of
    /// the bytes, exactly as the general path would read it; None for anything else (other
    /// registers, swizzles, blanks, out-of-range or malformed numbers, unknown types, fewer
    /// than 32 bytes left in the input).
    #[inline(always)]
    pub(crate) fn quick_parts(&self) -> Option<QuickReg> {
        let w: &[u8; WINDOW] = self.c.rest().first_chunk()?;
        // Every index below stays under 26 (each step reads a bounded number of bytes); the
        // mask only spares the bounds checks.
        let at = |i: usize| w[i & (WINDOW - 1)];
        let digit = |i: usize| at(i).wrapping_sub(b'0');
        // A decimal number of 1-3 digits at `i` (not followed by `x`, as in `0x`): its value
        // and end.
        let dec = |i: usize| -> Option<(u32, usize)> {
            let (d0, d1, d2) = (digit(i), digit(i + 1), digit(i + 2));
            let (v, j) = if d0 > 9 {
                return None;
            } else if d1 > 9 {
                (u32::from(d0), i + 1)
            } else if d2 > 9 {
                (u32::from(d0) * 10 + u32::from(d1), i + 2)
            } else if digit(i + 3) > 9 {
                (
                    u32::from(d0) * 100 + u32::from(d1) * 10 + u32::from(d2),
                    i + 3,
                )
            } else {
                return None;
            };
            (!matches!(at(j), b'x' | b'X')).then_some((v, j))
        };
        let (reg, mut i) = match at(0) {
            b'r' | b'g' | b'R' | b'G' => {
                let (nr, i) = dec(1)?;
                // A reserved number (enc.grf-reg-nr): the general path reports it.
                if nr >= u32::from(self.grf_limit) {
                    return None;
                }
                (Reg::Grf(u8::try_from(nr).ok()?), i)
            }
            // `null` without a number (the general path reads `null5`,
            // enc.iga-text.arf-numberless).
            b'n' if &w[1..4] == b"ull" && !at(4).is_ascii_alphanumeric() => {
                (Reg::Arf(self.null_reg?), 4)
            }
            _ => return None,
        };
        let mut sub = None;
        if at(i) == b'.' {
            let (v, j) = dec(i + 1)?;
            if v > 255 {
                return None;
            }
            sub = Some(v);
            i = j;
        }
        let mut region = ([0u8; 3], 0u8, 0);
        if at(i) == b'<' {
            region.2 = i;
            i += 1;
            loop {
                let (x, j) = dec(i)?;
                if region.1 == 3 || x > 64 {
                    return None;
                }
                region.0[usize::from(region.1)] = x as u8;
                region.1 += 1;
                i = j + 1;
                match at(j) {
                    b'>' => break,
                    b',' | b';' => {}
                    _ => return None,
                }
            }
        }
        // A swizzle or write mask follows: the general path.
        let next = at(i);
        if next == b'.' || (region.1 > 0 && matches!(next, b'x' | b'y' | b'z' | b'w')) {
            return None;
        }
        let mut ty = None;
        if next == b':' || next.is_ascii_uppercase() {
            // Type names have one or two letters: a third is no type.
            let t0 = i + usize::from(next == b':');
            let n = if !at(t0).is_ascii_alphabetic() {
                0
            } else if !at(t0 + 1).is_ascii_alphabetic() {
                1
            } else if !at(t0 + 2).is_ascii_alphabetic() {
                2
            } else {
                return None;
            };
            ty = Some(names::type_in(self.types, &w[t0..t0 + n])?);
            i = t0 + n;
        }
        Some(QuickReg {
            reg,
            sub,
            region,
            ty,
            len: i,
        })
    }

    /// A destination read by [`Parser::quick_parts`] in its final form, when its conversion
    /// cannot fail: the destination and its length.
    #[inline]
    fn quick_dst(&self, k: &Known) -> Option<(Dst, usize)> {
        let q = self.quick_parts()?;
        let hstride = match q.region {
            (_, 0, _) => 1,
            // Stride 0 is reserved (enc.dst-hstride): the general path reports it.
            ([h @ (1 | 2 | 4), ..], 1, _) => h,
            _ => return None,
        };
        let (ty, addr) = q.typed_addr(k)?;
        let dst = Dst {
            addr,
            ty,
            hstride,
            wrmask: 0xF,
        };
        Some((dst, q.len))
    }

    /// A register source read by [`Parser::quick_parts`] in its final form, when its
    /// conversion cannot fail: the source, its length, and whether its region is the default
    /// one, which depends on the rest of the line (`Region::SCALAR` until `finish` sets it).
    #[inline]
    fn quick_src(&self, neg: bool, abs: bool, k: &Known) -> Option<(RegSrc, usize, bool)> {
        let q = self.quick_parts()?;
        let region = match q.region {
            ([v, w, h], 3, _) => Some(Region::new(v, w, h)).filter(|&g| region_valid(g))?,
            (_, 0, _) => Region::SCALAR,
            _ => return None,
        };
        let (ty, addr) = q.typed_addr(k)?;
        let src = RegSrc {
            addr,
            ty,
            region,
            swizzle: Swizzle::XYZW,
            neg,
            abs,
        };
        Some((src, q.len, q.region.1 == 0))
    }

    /// A destination: into `slot` in its final form when [`Parser::quick_dst`] reads it,
    /// else into `raw`.
    pub(crate) fn dst_into(
        &mut self,
        slot: &mut Option<Dst>,
        raw: &mut Option<super::operand::RawReg>,
        k: &Known,
    ) -> PResult<()> {
        self.c.skip_blank()?;
        if let Some((d, n)) = self.quick_dst(k) {
            self.c.advance(n);
            *slot = Some(d);
            return Ok(());
        }
        *raw = Some(self.dst_raw()?);
        Ok(())
    }

    /// Source `idx`: into `slot` in its final form when it is a typed immediate or
    /// [`Parser::quick_src`] reads it (with `k`), else raw into `pd.srcs[idx]` (always,
    /// without `k`).
    pub(crate) fn src_into(
        &mut self,
        slot: &mut Option<Src>,
        pd: &mut Pending,
        idx: usize,
        k: Option<&Known>,
    ) -> PResult<()> {
        self.c.skip_blank()?;
        let pos = self.c.pos();
        // No immediate starts with a register's first letter.
        let register = matches!(self.c.peek(), Some(b'r' | b'g' | b'R' | b'G' | b'n'));
        let imm = if register { None } else { self.quick_imm() };
        if let Some((val, ty, n)) = imm {
            self.c.advance(n);
            if k.is_some_and(|k| k.imm) {
                if let Ok(bits) = imm_bits(ty, val, self.d == Dialect::Mesa, pos) {
                    *slot = Some(Src::Imm(Imm::new(ty, bits)));
                    return Ok(());
                }
            }
            pd.srcs[idx] = Some(RawSrc::Imm {
                pos,
                val,
                ty: Some(ty),
            });
            return Ok(());
        }
        if !register && self.at_number() {
            let val = self.number()?;
            let ty = self.type_suffix()?;
            pd.srcs[idx] = Some(RawSrc::Imm { pos, val, ty });
            return Ok(());
        }
        let mut neg = false;
        if matches!(self.c.peek(), Some(b'-') | Some(b'~')) {
            self.c.bump();
            neg = true;
        }
        let mut abs = false;
        if self.c.peek() == Some(b'(') && self.c.starts_with_ci(b"(abs)") {
            self.c.advance(5);
            abs = true;
        }
        if let Some(k) = k {
            if let Some((s, n, default_region)) = self.quick_src(neg, abs, k) {
                self.c.advance(n);
                *slot = Some(Src::Reg(s));
                pd.default_regions |= u8::from(default_region) << idx;
                return Ok(());
            }
        }
        match self.reg_operand(pos, neg, abs)? {
            Some(r) => {
                pd.srcs[idx] = Some(RawSrc::Reg(r));
                Ok(())
            }
            None => Err(self.c.expected("a source operand (register or immediate)")),
        }
    }
}

impl QuickReg {
    /// The operand's type (written, or `k`'s default) and its address, when the subregister
    /// is within the register (as `operand::sub_bytes` accepts it).
    #[inline(always)]
    fn typed_addr(&self, k: &Known) -> Option<(DataType, Addr)> {
        let ty = self.ty.or(k.ty)?;
        let b = u64::from(self.sub.unwrap_or(0)) * u64::from(ty.bytes().max(1));
        let sub = u8::try_from(b).ok().filter(|b| *b <= 31)?;
        Some((ty, Addr::Direct { reg: self.reg, sub }))
    }

    /// The raw operand the general path reads (position and modifiers left to the caller).
    pub(crate) fn raw(&self, at: usize) -> super::operand::RawReg {
        super::operand::RawReg {
            pos: Pos(0),
            neg: false,
            abs: false,
            base: RawBase::Direct(self.reg, self.sub),
            region: (self.region.1 > 0).then_some(RawRegion {
                n: self.region.1,
                v: self.region.0,
                pos: Pos(at + self.region.2),
            }),
            swz: None,
            ty: self.ty,
        }
    }
}
