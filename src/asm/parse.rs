//! Statements and instructions: labels, predicates, mnemonics and their modifiers, execution
//! size and channel offset, operands per instruction class, send descriptors, instruction
//! options; label resolution.

use super::cursor::{Cursor, PErr, PResult, Pos};
use super::direct::Known;
use super::error::show;
use super::names;
use super::operand::{
    make_dst, make_src, ternary_region, OpCtx, RawNum, RawReg, RawRegion, RawSrc,
};
use super::options::{OptionsMemo, MEMO_SLOTS};
use super::{Dialect, Program};
use crate::isa::{arf_lookup, arf_regnum, sfid_from_name, Flag, Insn, Region, SendDesc, Src};
use crate::spec::{AccessMode, CondMod, DataType, MathFn, OpClass, Opcode, Platform, PredCtrl};
use std::collections::HashMap;

pub(crate) struct Parser<'a> {
    pub c: Cursor<'a>,
    pub d: Dialect,
    pub plat: Platform,
    labels: HashMap<&'a [u8], usize>,
    fixups: Vec<Fixup<'a>>,
    /// Whether labels may be defined and used (whole programs).
    allow_labels: bool,
    /// The last shared-function name of a Mesa message description and its SFID (the same
    /// few names repeat).
    pub(crate) last_sfid: (&'a [u8], u8),
    /// The RegNum of `null`.
    pub(crate) null_reg: Option<u8>,
    /// GRF numbers from this one up are reserved on `plat` (enc.grf-reg-nr).
    pub(crate) grf_limit: u16,
    /// The data types by name (`names::type_table`).
    pub(crate) types: &'static names::TypeTable,
    /// Options blocks and what they set, by `options::memo_slot` (`Parser::options`).
    pub(crate) options_memo: [OptionsMemo<'a>; MEMO_SLOTS],
}

struct Fixup<'a> {
    insn: usize,
    uip: bool,
    /// The label is jmpi's target: its immediate, bytes from the next instruction.
    jmpi: bool,
    name: &'a [u8],
    pos: Pos,
}

/// What the syntax said, before the instruction is assembled.
#[derive(Default)]
pub(crate) struct Pending {
    pub(crate) pred_pos: Option<Pos>,
    pub(crate) pred_a16_only: bool,
    /// Flag written explicitly with the predicate / with the condition modifier.
    pub(crate) pred_flag: Option<Flag>,
    pub(crate) cmod_flag: Option<(Flag, Pos)>,
    pub(crate) no_mask_w: bool,
    pub(crate) access: Option<AccessMode>,
    pub(crate) chan_off: Option<ChanOff>,
    pub(crate) sec_half: bool,
    pub(crate) sfid_suffix: Option<(u8, Pos)>,
    pub(crate) dst: Option<RawReg>,
    pub(crate) srcs: [Option<RawSrc>; 3],
    pub(crate) desc: Option<(SendDesc, Pos)>,
    pub(crate) ex_desc: Option<(SendDesc, Pos)>,
    pub(crate) sfid: Option<u8>,
    /// The sources (bit k: src k) read in their final form without a region: their region
    /// is the default one, set by `finish` once the access mode is known.
    pub(crate) default_regions: u8,
    /// IGA's jmpi offset: an untyped number, relative to the jmpi (enc.iga-text.jmpi-bias).
    pub(crate) jmpi_label: bool,
}

/// A channel offset and the position of its `M` (or option).
pub(crate) type ChanOff = (u8, Pos);

/// Jump units per native instruction for the structured branches: 64-bit units on
/// Gen7/Gen7.5, bytes from Gen8 (mesa brw_eu_emit.c `brw_jump_scale`; checked against
/// shared/corpus/mesa/asm/gen*/if.expected). [`jump_unit_of`] gives it per opcode.
pub fn jump_unit(p: Platform) -> i32 {
    jump_unit_of(Opcode::If, p)
}

/// Bytes per unit of `op`'s jump offset field on `p`: the tables enc.gen7.jump-unit-bytes /
/// enc.gen8.jump-unit-bytes (8 for the Gen7/Gen7.5 branches except call, calla and jmpi,
/// which count bytes as every Gen8+ branch does); 1 for an opcode the tables do not list.
pub fn jump_bytes(op: Opcode, p: Platform) -> i32 {
    use crate::spec::encoding::values;
    let t = if values::GEN7_JUMP_UNIT_BYTES.gens.contains(p) {
        &values::GEN7_JUMP_UNIT_BYTES
    } else {
        &values::GEN8_JUMP_UNIT_BYTES
    };
    t.value(op.name())
        .and_then(|v| i32::try_from(v).ok())
        .filter(|&v| (1..=16).contains(&v))
        .unwrap_or(1)
}

/// Whether `op`'s jump field is an absolute address rather than an offset from the
/// instruction: calla (flow.calla: IGA's OpSpec::isJipAbsolute). A label then resolves to its
/// byte offset from the program's first instruction.
pub fn jip_is_absolute(op: Opcode) -> bool {
    op == Opcode::Calla
}

/// Units of `op`'s jump offset field per native (16-byte) instruction on `p`.
pub fn jump_unit_of(op: Opcode, p: Platform) -> i32 {
    16 / jump_bytes(op, p)
}

/// What the opcode decides about the conversion of `insn`'s operands (see `Parser::finish`).
pub(crate) fn known(insn: &Insn) -> Known {
    let send = insn.is_send();
    Known {
        ty: send.then_some(DataType::UD),
        imm: !send,
    }
}

/// The range of `op`'s jump offsets on `p`: that of the signed field holding them
/// ([`crate::encoding::jump_bits`]: 16-bit JIP/UIP of the Gen7/Gen7.5 structured branches,
/// 32 bits otherwise).
fn jump_range(op: Opcode, p: Platform) -> (i64, i64) {
    let bits = u32::from(crate::encoding::jump_bits(op, p).clamp(1, 32));
    let hi = (1i64 << (bits - 1)) - 1;
    (-hi - 1, hi)
}

impl<'a> Parser<'a> {
    pub fn new(src: &'a [u8], d: Dialect, plat: Platform, allow_labels: bool) -> Parser<'a> {
        let mut c = Cursor::new(src);
        c.lower_hex_only = d == Dialect::Mesa;
        Parser {
            c,
            d,
            plat,
            labels: HashMap::new(),
            fixups: Vec::new(),
            allow_labels,
            last_sfid: (&[], 0),
            null_reg: arf_regnum(b"null", 0),
            grf_limit: crate::codec::grf_limit(plat),
            types: names::type_table(),
            options_memo: [OptionsMemo::default(); MEMO_SLOTS],
        }
    }

    /// Parse every statement.
    pub fn program(&mut self) -> PResult<Program> {
        let mut prog = Program::default();
        loop {
            self.c.skip_space()?;
            if self.c.is_eof() {
                break;
            }
            self.statement(&mut prog)?;
        }
        self.resolve(&mut prog.insns)?;
        Ok(prog)
    }

    /// Parse every statement, going on after an error: the statement in error is left out
    /// (with its line, and in Mesa's syntax a message description line after it), and parsing
    /// resumes at the next line. The instructions that parsed, and every error in input order
    /// (an undefined or out-of-range label is reported where it is used, and the instruction
    /// using it is left out as well). Labels count the instructions that parsed, so the jump
    /// offsets of a program with errors are those of the program without its bad statements.
    pub fn program_recovering(&mut self) -> (Program, Vec<PErr>) {
        let mut prog = Program::default();
        let mut errors = Vec::new();
        loop {
            if let Err(e) = self.c.skip_space() {
                // An unterminated block comment: nothing after it can parse.
                errors.push(e);
                break;
            }
            if self.c.is_eof() {
                break;
            }
            let (insns, fixups) = (prog.insns.len(), self.fixups.len());
            if let Err(e) = self.statement(&mut prog) {
                prog.insns.truncate(insns);
                prog.lines.truncate(insns);
                self.fixups.truncate(fixups);
                if e.is_unterminated_comment() {
                    errors.push(e);
                    break;
                }
                self.c.skip_past_line_of(e.offset());
                if self.d == Dialect::Mesa {
                    // The description line of a send whose first line failed.
                    let rest = self.c.rest();
                    let line = &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())];
                    if memchr::memmem::find(line, b"MsgDesc").is_some() {
                        let at = self.c.offset();
                        self.c.skip_past_line_of(at);
                    }
                }
                errors.push(e);
            }
        }
        // Instructions whose label cannot be resolved are left out too.
        let mut unresolved = vec![false; prog.insns.len()];
        for f in &self.fixups {
            if let Err(e) = self.resolve_one(f, &mut prog.insns) {
                errors.push(e);
                if let Some(u) = unresolved.get_mut(f.insn) {
                    *u = true;
                }
            }
        }
        if unresolved.contains(&true) {
            let mut k = 0;
            prog.insns.retain(|_| {
                k += 1;
                !unresolved[k - 1]
            });
            let mut k = 0;
            prog.lines.retain(|_| {
                k += 1;
                !unresolved[k - 1]
            });
        }
        errors.sort_by_key(PErr::offset);
        (prog, errors)
    }

    /// Parse exactly one instruction (no labels).
    pub fn single(&mut self) -> PResult<Insn> {
        self.c.skip_space()?;
        if self.c.is_eof() {
            return Err(self.c.expected("an instruction"));
        }
        let mut insn = Insn::new(Opcode::Nop);
        self.insn(0, &mut insn, None)?;
        self.statement_end()?;
        self.c.skip_space()?;
        if !self.c.is_eof() {
            return Err(self.c.err(format!(
                "unexpected {} after the instruction (one instruction expected)",
                self.c.found()
            )));
        }
        Ok(insn)
    }

    /// Parse every statement of a program without labels, one instruction at a time (see
    /// `asm::parse_each`).
    pub fn each(&mut self, mut f: impl FnMut(&Insn, u32) -> bool) -> PResult<bool> {
        let mut index = 0;
        loop {
            self.c.skip_space()?;
            if self.c.is_eof() {
                return Ok(true);
            }
            // The mnemonic, read once: a label definition if `:` follows.
            let word = self.mnemonic_ahead();
            if word.is_none() && self.label_defs(index)? {
                continue;
            }
            let line = self.c.line();
            let mut insn = Insn::new(Opcode::Nop);
            self.insn(index, &mut insn, word)?;
            self.statement_end()?;
            if !f(&insn, line) {
                return Ok(false);
            }
            index += 1;
        }
    }

    fn statement(&mut self, prog: &mut Program) -> PResult<()> {
        if self.label_defs(prog.insns.len())? {
            return Ok(());
        }
        let line = self.c.line();
        // Built in place (an `Insn` is large: no moves).
        let index = prog.insns.len();
        prog.insns.push(Insn::new(Opcode::Nop));
        let Some(slot) = prog.insns.last_mut() else {
            return Err(self.c.err("internal: no instruction slot"));
        };
        self.insn(index, slot, None)?;
        prog.lines.push(line);
        self.statement_end()
    }

    /// Label definitions `NAME:` for instruction `index` (possibly followed by an instruction
    /// on the same line): whether they ended the statement.
    fn label_defs(&mut self, index: usize) -> PResult<bool> {
        loop {
            let id = self.c.peek_ident();
            if id.is_empty() || self.c.peek_at(id.len()) != Some(b':') {
                break;
            }
            if id.eq_ignore_ascii_case(b"JIP") || id.eq_ignore_ascii_case(b"UIP") {
                break;
            }
            let pos = self.c.pos();
            if !self.allow_labels {
                return Err(pos.err("labels are not allowed here"));
            }
            if self.labels.insert(id, index).is_some() {
                return Err(pos.err(format!("label `{}` is defined twice", show(id))));
            }
            for _ in 0..=id.len() {
                self.c.bump();
            }
            self.c.skip_blank()?;
            if self.c.at_eol() || self.c.peek() == Some(b';') {
                self.c.eat(b';');
                return Ok(true);
            }
        }
        Ok(false)
    }

    #[inline]
    fn statement_end(&mut self) -> PResult<()> {
        // The common end: the line's.
        if self.c.at_eol() {
            return Ok(());
        }
        // Mesa's: `;` ends the line.
        if self.c.rest().starts_with(b";\n") {
            self.c.advance(1);
            return Ok(());
        }
        self.statement_end_general()
    }

    /// [`Parser::statement_end`] without its quick path.
    fn statement_end_general(&mut self) -> PResult<()> {
        self.c.skip_blank()?;
        self.c.eat(b';');
        self.c.skip_blank()?;
        if !self.c.at_eol() {
            return Err(self.c.err(format!(
                "unexpected {} after the instruction",
                self.c.found()
            )));
        }
        Ok(())
    }

    fn resolve(&mut self, insns: &mut [Insn]) -> PResult<()> {
        for f in &self.fixups {
            self.resolve_one(f, insns)?;
        }
        Ok(())
    }

    /// Set the jump offset of one label use.
    fn resolve_one(&self, f: &Fixup<'a>, insns: &mut [Insn]) -> PResult<()> {
        let Some(&target) = self.labels.get(f.name) else {
            return Err(f.pos.err(format!("undefined label `{}`", show(f.name))));
        };
        if f.jmpi {
            // flow.jmpi: bytes from the next instruction (every instruction native, 16 bytes).
            let off = (target as i64 - (f.insn as i64 + 1)) * 16;
            let bits = i32::try_from(off).map_err(|_| {
                f.pos
                    .err(format!("jump to `{}` is out of range", show(f.name)))
            })?;
            if let Some(Src::Imm(m)) = insns.get_mut(f.insn).and_then(|i| i.src[1].as_mut()) {
                m.bits = u64::from(bits as u32);
            }
            return Ok(());
        }
        let op = insns.get(f.insn).map_or(Opcode::If, |i| i.op);
        let unit = jump_unit_of(op, self.plat) as i64;
        let from = if jip_is_absolute(op) {
            0
        } else {
            f.insn as i64
        };
        let off = (target as i64 - from) * unit;
        let (lo, hi) = jump_range(op, self.plat);
        if !(lo..=hi).contains(&off) {
            return Err(f.pos.err(format!(
                "jump to `{}` is out of range for {}",
                show(f.name),
                self.plat.name()
            )));
        }
        if let Some(insn) = insns.get_mut(f.insn) {
            if f.uip {
                insn.uip = Some(off as i32);
            } else {
                insn.jip = Some(off as i32);
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------------ instruction

    /// The identifier at the cursor and its key (`Cursor::ident_key`), without moving, when
    /// it is no label definition (no `:` follows it).
    #[inline]
    fn mnemonic_ahead(&self) -> Option<(&'a [u8], Option<u128>)> {
        let (name, key) = self.c.peek_ident_key();
        (!name.is_empty() && self.c.peek_at(name.len()) != Some(b':')).then_some((name, key))
    }

    /// One instruction into `insn` (a fresh `Insn::new(Opcode::Nop)`); `word`: its mnemonic
    /// and key as [`Parser::mnemonic_ahead`] read them at the cursor.
    fn insn(
        &mut self,
        index: usize,
        insn: &mut Insn,
        word: Option<(&'a [u8], Option<u128>)>,
    ) -> PResult<()> {
        let mut pd = Pending::default();
        if word.is_none() && self.c.peek() == Some(b'(') {
            self.pred_group(insn, &mut pd)?;
            self.c.skip_blank()?;
        }
        let mpos = self.c.pos();
        let (name, key) = match word {
            Some((name, key)) => {
                self.c.advance(name.len());
                (name, key)
            }
            None => self.c.ident_key(),
        };
        if name.is_empty() {
            return Err(self.c.expected("an instruction mnemonic"));
        }
        insn.op = key
            .and_then(names::opcode_key)
            .ok_or_else(|| mpos.err(format!("unknown mnemonic `{}`", show(name))))?;
        if !insn.op.on(self.plat) {
            return Err(mpos.err(format!(
                "`{}` does not exist on {}",
                insn.op.name(),
                self.plat.name()
            )));
        }
        while self.c.peek() == Some(b'.') {
            self.c.bump();
            self.mnemonic_suffix(insn, &mut pd)?;
        }
        self.c.skip_blank()?;
        if insn.op == Opcode::Math && self.c.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
            let p = self.c.pos();
            let f = self.c.ident();
            self.set_math(insn, f, p)?;
            self.c.skip_blank()?;
        }
        self.exec_size(insn, &mut pd)?;
        self.operands(insn, &mut pd, index)?;
        self.c.skip_blank()?;
        if self.c.peek() == Some(b'{') {
            self.options(insn, &mut pd)?;
        }
        self.finish(insn, &pd)
    }

    /// `( [W] [&] [+|-|~|!] fN.M [.ctrl] )`, or `(W)` alone.
    fn pred_group(&mut self, insn: &mut Insn, pd: &mut Pending) -> PResult<()> {
        let open = self.c.pos();
        self.c.bump();
        self.c.skip_blank()?;
        if matches!(self.c.peek(), Some(b'W') | Some(b'w'))
            && !self.c.peek_at(1).is_some_and(|b| b.is_ascii_alphanumeric())
        {
            self.c.bump();
            pd.no_mask_w = true;
            self.c.skip_blank()?;
            if self.c.eat(b')') {
                return Ok(());
            }
            self.c.expect(b'&', "`&` or `)` after `W`")?;
            self.c.skip_blank()?;
        }
        pd.pred_pos = Some(open);
        match self.c.peek() {
            Some(b'-') | Some(b'~') | Some(b'!') => {
                self.c.bump();
                insn.pred_inv = true;
            }
            Some(b'+') => self.c.bump(),
            _ => {}
        }
        let flag = self.flag_reg()?;
        pd.pred_flag = Some(flag);
        insn.pred = PredCtrl::Seq;
        if self.c.eat(b'.') {
            let p = self.c.pos();
            let n = self.c.ident();
            let (ctrl, a16) = names::pred_ctrl(n).ok_or_else(|| {
                p.err(format!(
                    "unknown predicate control `.{}` (expected anyv allv any2h all2h ... all32h, or x y z w in Align16)",
                    show(n)
                ))
            })?;
            insn.pred = ctrl;
            pd.pred_a16_only = a16;
        }
        self.c.skip_blank()?;
        self.c.expect(b')', "`)` closing the predicate")
    }

    /// `fN` or `fN.M`.
    fn flag_reg(&mut self) -> PResult<Flag> {
        if !matches!(self.c.peek(), Some(b'f') | Some(b'F'))
            || !self.c.peek_at(1).is_some_and(|b| b.is_ascii_digit())
        {
            return Err(self
                .c
                .expected("a flag register (f0.0, f0.1, f1.0 or f1.1)"));
        }
        self.c.bump();
        let reg = self.c.small("flag register number", 1)?;
        let mut sub = 0;
        if self.c.peek() == Some(b'.') && self.c.peek_at(1).is_some_and(|b| b.is_ascii_digit()) {
            self.c.bump();
            sub = self.c.small("flag subregister number", 1)?;
        }
        Ok(Flag {
            reg: reg as u8,
            sub: sub as u8,
        })
    }

    fn set_math(&mut self, insn: &mut Insn, f: &[u8], p: Pos) -> PResult<()> {
        let m = names::math_fn(f)
            .ok_or_else(|| p.err(format!("unknown math function `{}`", show(f))))?;
        if insn.math != MathFn::None {
            return Err(p.err("the math function is given twice"));
        }
        insn.math = m;
        Ok(())
    }

    fn set_cmod(&mut self, insn: &mut Insn, c: CondMod, p: Pos) -> PResult<()> {
        if insn.cmod != CondMod::None {
            return Err(p.err("the condition modifier is given twice"));
        }
        match insn.op.info().class {
            OpClass::Send => {
                return Err(p.err("a send has no condition modifier (its field holds the SFID)"))
            }
            OpClass::Math => {
                return Err(
                    p.err("math has no condition modifier (its field holds the math function)")
                )
            }
            _ => {}
        }
        insn.cmod = c;
        Ok(())
    }

    /// One `.xxx` after the mnemonic.
    fn mnemonic_suffix(&mut self, insn: &mut Insn, pd: &mut Pending) -> PResult<()> {
        let p = self.c.pos();
        let s = self.c.ident();
        if s.is_empty() {
            return Err(self.c.expected("an instruction modifier after `.`"));
        }
        if s.eq_ignore_ascii_case(b"sat") {
            insn.sat = true;
            return Ok(());
        }
        if s.len() == 2 && (s[0] == b'f' || s[0] == b'F') && s[1].is_ascii_digit() {
            if s[1] > b'1' {
                return Err(p.err(format!("no flag register `{}`", show(s))));
            }
            let mut sub = 0;
            if self.c.peek() == Some(b'.') && self.c.peek_at(1).is_some_and(|b| b.is_ascii_digit())
            {
                self.c.bump();
                sub = self.c.small("flag subregister number", 1)?;
            }
            pd.cmod_flag = Some((
                Flag {
                    reg: s[1] - b'0',
                    sub: sub as u8,
                },
                p,
            ));
            return Ok(());
        }
        if let Some(c) = names::cond_mod(s) {
            return self.set_cmod(insn, c, p);
        }
        if insn.op == Opcode::Math && names::math_fn(s).is_some() {
            return self.set_math(insn, s, p);
        }
        // IGA's `.b`: BranchCtrl of if, else and goto (enc.iga-text.branch-ctrl-suffix).
        if s == b"b" && self.d == Dialect::Iga {
            let t = &crate::spec::encoding::values::IGA_TEXT_BRANCH_CTRL_SUFFIX;
            if t.gens.contains(self.plat) && t.value(insn.op.name()) == Some(1) {
                insn.ctrl.branch_ctrl = true;
                return Ok(());
            }
            return Err(p.err(format!(
                "`.b` (BranchCtrl) is IGA's suffix of if, else and goto from Gen8 on, not of {} on {} (enc.iga-text.branch-ctrl-suffix)",
                insn.op.name(),
                self.plat.name()
            )));
        }
        if insn.op.info().class == OpClass::Send {
            if let Some(f) = std::str::from_utf8(s).ok().and_then(sfid_from_name) {
                pd.sfid_suffix = Some((f, p));
                return Ok(());
            }
        }
        Err(p.err(format!(
            "unknown instruction modifier `.{}` (expected sat, a condition modifier such as nz, a flag register{})",
            show(s),
            if insn.op == Opcode::Math { ", or a math function" } else { "" }
        )))
    }

    /// `(N)`, `(N|Mk)`.
    fn exec_size(&mut self, insn: &mut Insn, pd: &mut Pending) -> PResult<()> {
        if let Some((n, off, len)) = self.quick_exec_size() {
            insn.exec_size = n;
            pd.chan_off = off;
            self.c.advance(len);
            return Ok(());
        }
        self.exec_size_general(insn, pd)
    }

    /// [`Parser::exec_size`] without its quick path.
    pub(crate) fn exec_size_general(&mut self, insn: &mut Insn, pd: &mut Pending) -> PResult<()> {
        if !self.c.eat(b'(') {
            // IGA writes no group for nop, illegal, wait and jmpi (OpSpec::hasImpicitEm:
            // (1|M0); enc.implicit.wait).
            if matches!(
                insn.op,
                Opcode::Nop | Opcode::Illegal | Opcode::Wait | Opcode::Jmpi
            ) {
                insn.exec_size = 1;
                return Ok(());
            }
            return Err(self.c.expected("`(` and the execution size, e.g. `(8)`"));
        }
        self.c.skip_blank()?;
        let p = self.c.pos();
        let n = self.c.small("execution size", 255)?;
        if !matches!(n, 1 | 2 | 4 | 8 | 16 | 32) {
            return Err(p.err(format!(
                "bad execution size {n} (expected 1, 2, 4, 8, 16 or 32)"
            )));
        }
        insn.exec_size = n as u8;
        self.c.skip_blank()?;
        if self.c.eat(b'|') {
            self.c.skip_blank()?;
            let p = self.c.pos();
            if !matches!(self.c.peek(), Some(b'M') | Some(b'm')) {
                return Err(self.c.expected("a channel offset `M0`, `M8`, ..."));
            }
            self.c.bump();
            let off = self.c.small("channel offset", 255)?;
            if off > 28 || off % 4 != 0 {
                return Err(p.err(format!(
                    "bad channel offset M{off} (expected M0, M4, ..., M28)"
                )));
            }
            pd.chan_off = Some((off as u8, p));
            self.c.skip_blank()?;
        }
        self.c.expect(b')', "`)` after the execution size")
    }

    /// The common `(N)` / `(N|Mk)` without blanks, read in one pass: the execution size, the
    /// channel offset (as `Pending::chan_off`) and the length, when both are valid (the general path reports the
    /// errors).
    #[inline]
    pub(crate) fn quick_exec_size(&self) -> Option<(u8, Option<ChanOff>, usize)> {
        // A fixed window (the general path reads the last bytes of the input); every index
        // below stays under 8, the mask only spares the bounds checks.
        let w: &[u8; 16] = self.c.rest().first_chunk()?;
        let at = |i: usize| w[i & 15];
        let digit = |i: usize| at(i).wrapping_sub(b'0');
        // One or two decimal digits at `i`: the value and the end.
        let dec = |i: usize| {
            if digit(i) > 9 {
                None
            } else if digit(i + 1) > 9 {
                Some((digit(i), i + 1))
            } else if digit(i + 2) > 9 {
                Some((digit(i) * 10 + digit(i + 1), i + 2))
            } else {
                None
            }
        };
        if at(0) != b'(' {
            return None;
        }
        let (n, mut i) = dec(1)?;
        if !matches!(n, 1 | 2 | 4 | 8 | 16 | 32) {
            return None;
        }
        let mut off = None;
        if at(i) == b'|' && matches!(at(i + 1), b'M' | b'm') {
            let (o, j) = dec(i + 2)?;
            if o > 28 || o % 4 != 0 {
                return None;
            }
            // With the position of the `M`, as the general path records it.
            off = Some((o, Pos(self.c.offset() + i + 1)));
            i = j;
        }
        (at(i) == b')').then_some((n, off, i + 1))
    }

    /// IGA's `(sat)` and `(cm)fN.M` before the destination.
    #[inline]
    pub(crate) fn pre_dst_mods(&mut self, insn: &mut Insn, pd: &mut Pending) -> PResult<()> {
        self.c.skip_blank()?;
        if self.c.peek() != Some(b'(') {
            return Ok(());
        }
        self.pre_dst_mods_general(insn, pd)
    }

    /// [`Parser::pre_dst_mods`] once a `(` follows.
    #[inline(never)]
    fn pre_dst_mods_general(&mut self, insn: &mut Insn, pd: &mut Pending) -> PResult<()> {
        loop {
            self.c.skip_blank()?;
            if self.c.peek() != Some(b'(')
                || !self.c.peek_at(1).is_some_and(|b| b.is_ascii_alphabetic())
            {
                return Ok(());
            }
            if self.c.starts_with_ci(b"(abs)") {
                return Ok(());
            }
            let p = self.c.pos();
            self.c.bump();
            let s = self.c.ident();
            self.c.expect(b')', "`)`")?;
            if s.eq_ignore_ascii_case(b"sat") {
                insn.sat = true;
                continue;
            }
            let Some(c) = names::cond_mod(s) else {
                return Err(p.err(format!(
                    "unknown modifier `({})` (expected (sat) or a condition modifier such as (eq))",
                    show(s)
                )));
            };
            self.set_cmod(insn, c, p)?;
            self.c.skip_blank()?;
            let f = self.flag_reg()?;
            pd.cmod_flag = Some((f, p));
        }
    }

    fn operands(&mut self, insn: &mut Insn, pd: &mut Pending, index: usize) -> PResult<()> {
        let op = insn.op;
        match op {
            Opcode::Nop | Opcode::Illegal => Ok(()),
            Opcode::Jmpi => {
                self.c.skip_blank()?;
                if let Some(name) = self.jmpi_label_ahead() {
                    let pos = self.c.pos();
                    if !self.allow_labels {
                        return Err(pos.err(format!(
                            "label `{}` cannot be resolved in a single instruction (write the offset)",
                            show(name)
                        )));
                    }
                    self.c.advance(name.len());
                    self.fixups.push(Fixup {
                        insn: index,
                        uip: false,
                        jmpi: true,
                        name,
                        pos,
                    });
                    pd.srcs[1] = Some(RawSrc::Imm {
                        pos,
                        val: RawNum::Int {
                            neg: false,
                            v: 0,
                            digits: 0,
                        },
                        ty: Some(DataType::D),
                    });
                    return Ok(());
                }
                let mut s = self.src_raw()?;
                if let RawSrc::Imm {
                    ty: ty @ None,
                    val: RawNum::Int { .. },
                    ..
                } = &mut s
                {
                    if self.d == Dialect::Iga {
                        *ty = Some(DataType::D);
                        pd.jmpi_label = true;
                    }
                }
                pd.srcs[1] = Some(s);
                Ok(())
            }
            Opcode::Ret => {
                let s = self.src_raw()?;
                if let RawSrc::Imm { pos, .. } = s {
                    if crate::codec::ret_reg_only(self.plat) {
                        return Err(pos.err(
                            "ret takes its return address from a register, not an immediate (enc.ret-src0-register): write e.g. `r2.0<0;1,0>:ud`",
                        ));
                    }
                }
                pd.srcs[0] = Some(s);
                Ok(())
            }
            Opcode::Call | Opcode::Calla => {
                self.pre_dst_mods(insn, pd)?;
                pd.dst = Some(self.dst_raw()?);
                self.operand_sep()?;
                self.jumps(insn, index)
            }
            Opcode::Wait => {
                self.pre_dst_mods(insn, pd)?;
                let mut d = self.dst_raw()?;
                // IGA's form names the source `nN.s<0;1,0>`: the destination is the same
                // register with stride 1 (enc.implicit.wait).
                if let Some(r) = d.region.filter(|r| r.n == 3) {
                    if r.v != [0, 1, 0] {
                        return Err(r.pos.err(
                            "wait reads its notification register as a scalar: write `<0;1,0>` (IGA's source form) or a destination stride such as `<1>`",
                        ));
                    }
                    d.region = Some(RawRegion {
                        n: 1,
                        v: [1, 0, 0],
                        pos: r.pos,
                    });
                }
                pd.dst = Some(d);
                Ok(())
            }
            _ if op.info().class == OpClass::Flow => self.jumps(insn, index),
            _ if op.info().class == OpClass::Send => self.send_operands(insn, pd),
            _ => {
                self.pre_dst_mods(insn, pd)?;
                let k = known(insn);
                // IGA's ternary regions depend on the source's place and the rest of the line
                // (feature.iga-ternary-regions): three-source sources are read raw.
                let ternary = self.d == Dialect::Iga && insn.is_three_src();
                let ks = (!ternary).then_some(&k);
                self.dst_into(&mut insn.dst, &mut pd.dst, &k)?;
                let required = if op == Opcode::Math {
                    1
                } else {
                    op.info().srcs as usize
                };
                let max = (op.info().srcs as usize).clamp(required, 3);
                for i in 0..max {
                    self.operand_sep()?;
                    if i >= required && self.at_operands_end()? {
                        break;
                    }
                    if self.at_operands_end()? {
                        return Err(self.c.err(format!(
                            "missing operand: `{}` takes {} source{}, found {}",
                            op.name(),
                            required,
                            if required == 1 { "" } else { "s" },
                            i
                        )));
                    }
                    self.src_into(&mut insn.src[i], pd, i, ks)?;
                }
                if !self.at_operands_end()? {
                    return Err(self.c.err(format!(
                        "unexpected {}: `{}` takes {} source{}",
                        self.c.found(),
                        op.name(),
                        max,
                        if max == 1 { "" } else { "s" }
                    )));
                }
                Ok(())
            }
        }
    }

    /// JIP [UIP], each a label, a signed number, optionally prefixed `JIP:` / `UIP:`.
    /// The label at the cursor when jmpi's operand is one: an identifier that names no
    /// register (`SKIP`, `LABEL3`, `loop`; not `r4`, `g[a0.0]`, `a0` or `ip`) followed by the
    /// end of the operands.
    fn jmpi_label_ahead(&self) -> Option<&'a [u8]> {
        let name = self.c.peek_ident();
        let first = *name.first()?;
        if !(first.is_ascii_alphabetic() || first == b'_') {
            return None;
        }
        let after = self.c.peek_at(name.len());
        if !matches!(
            after,
            None | Some(b' ' | b'\t' | b'\r' | b'\n' | b'{' | b';' | b'/')
        ) {
            return None;
        }
        let grf = matches!(first, b'r' | b'g' | b'R' | b'G')
            && name.get(1).is_some_and(|b| b.is_ascii_digit());
        let lower = name
            .iter()
            .position(|b| !b.is_ascii_lowercase())
            .unwrap_or(name.len());
        let arf = lower > 0
            && (arf_lookup(&name[..lower]).is_some() || name[..lower].eq_ignore_ascii_case(b"mme"));
        let arf_number = name.len() > 5 && name[..5].eq_ignore_ascii_case(b"arf0x");
        (!grf && !arf && !arf_number).then_some(name)
    }

    fn jumps(&mut self, insn: &mut Insn, index: usize) -> PResult<()> {
        insn.jip = self.jump_target(index, false, insn.op)?;
        if insn.jip.is_none() {
            return Err(self.c.expected("a jump target (a label or an offset)"));
        }
        insn.uip = self.jump_target(index, true, insn.op)?;
        Ok(())
    }

    /// IGA writes the type of brd's and brc's immediate target when the word's type field is
    /// not the implicit D (`brd (8|M0) 32:ud`; enc.iga-text.branch-operands): an integer type
    /// is read and dropped, since the field is a don't-care bit of the implicit operand that
    /// the encoder writes as D (codec::dont_care).
    /// A float type is read on a zero target only (`0:f`, IGA's text of a word whose type
    /// field says F): the bits are then the same whatever the type.
    fn branch_imm_type(&mut self, op: Opcode, target: i32) -> PResult<()> {
        if self.d != Dialect::Iga || !matches!(op, Opcode::Brd | Opcode::Brc) {
            return Ok(());
        }
        if self.c.peek() != Some(b':') {
            return Ok(());
        }
        let p = self.c.pos();
        match self.type_suffix()? {
            Some(t) if t.is_int() => Ok(()),
            Some(_) if target == 0 => Ok(()),
            Some(t) => Err(p.err(format!(
                "`{}` targets are integers: type {} is not one (write :d, or no type)",
                op.name(),
                t.name()
            ))),
            None => Ok(()),
        }
    }

    fn jump_target(&mut self, index: usize, uip: bool, op: Opcode) -> PResult<Option<i32>> {
        self.operand_sep()?;
        let kw: &[u8] = if uip { b"UIP" } else { b"JIP" };
        let mut had_kw = false;
        if self.c.starts_with_ci(kw) && self.c.peek_at(3) == Some(b':') {
            for _ in 0..4 {
                self.c.bump();
            }
            self.c.skip_blank()?;
            had_kw = true;
        }
        if self.at_operands_end()? {
            if had_kw {
                return Err(self.c.expected("a jump target (a label or an offset)"));
            }
            return Ok(None);
        }
        let p = self.c.pos();
        if self.at_number() {
            let v = match self.number()? {
                RawNum::Int { neg, v, .. } => {
                    let x = if neg { -(v as i128) } else { v as i128 };
                    // IGA syntax counts bytes (enc.iga-text.jump-bytes); the others the field.
                    let per = if self.d == Dialect::Iga {
                        i128::from(jump_bytes(op, self.plat))
                    } else {
                        1
                    };
                    let (lo, hi) = jump_range(op, self.plat);
                    let (lo, hi) = (i128::from(lo) * per, i128::from(hi) * per);
                    if !(lo..=hi).contains(&x) {
                        return Err(p.err(format!(
                            "jump offset {x} is out of range for {} ({lo}..{hi})",
                            self.plat.name()
                        )));
                    }
                    if x % per != 0 {
                        return Err(p.err(format!(
                            "jump offset {x} is not a multiple of {per}: in IGA syntax `{}` on {} jumps by whole {per}-byte units (write a multiple of {per}, or a label)",
                            op.name(),
                            self.plat.name()
                        )));
                    }
                    let x = x / per;
                    x as i32
                }
                RawNum::Float(_) => return Err(p.err("a jump offset is an integer")),
            };
            self.branch_imm_type(op, v)?;
            return Ok(Some(v));
        }
        let name = self.c.ident();
        if name.is_empty() {
            return Err(self.c.expected("a jump target (a label or an offset)"));
        }
        if !self.allow_labels {
            return Err(p.err(format!(
                "label `{}` cannot be resolved in a single instruction (write the offset)",
                show(name)
            )));
        }
        self.fixups.push(Fixup {
            insn: index,
            uip,
            jmpi: false,
            name,
            pos: p,
        });
        Ok(Some(0))
    }

    // ------------------------------------------------------------------ assembly

    fn finish(&mut self, insn: &mut Insn, pd: &Pending) -> PResult<()> {
        // Flag: one field for the predicate and the condition modifier.
        match (pd.pred_flag, pd.cmod_flag) {
            (Some(a), Some((b, p))) if a != b => {
                return Err(p.err(format!(
                    "the predicate uses f{}.{} but the condition modifier f{}.{}: one flag field serves both",
                    a.reg, a.sub, b.reg, b.sub
                )))
            }
            (Some(a), _) => insn.flag = a,
            (None, Some((b, _))) => insn.flag = b,
            (None, None) => {}
        }
        if pd.no_mask_w {
            insn.ctrl.no_mask = true;
        }
        // Access mode: explicit, or inferred from Align16-only operand syntax (IGA, PRM).
        let a16_syntax = pd.dst.as_ref().is_some_and(|d| d.align16_syntax(true))
            || pd
                .srcs
                .iter()
                .flatten()
                .any(|s| matches!(s, RawSrc::Reg(r) if r.align16_syntax(false)));
        // IGA writes three-source instructions without the Align16 they always have on
        // Gen7-Gen9; a three-number (Align1) source region says Align1
        // (feature.iga-ternary-regions).
        let ternary = self.d == Dialect::Iga && insn.is_three_src();
        let a1_region = pd
            .srcs
            .iter()
            .flatten()
            .any(|s| matches!(s, RawSrc::Reg(r) if r.region.is_some_and(|g| g.n == 3)));
        insn.access = match pd.access {
            Some(a) => a,
            None if ternary && !a1_region => AccessMode::Align16,
            None if self.d != Dialect::Mesa && (a16_syntax || pd.pred_a16_only) => {
                AccessMode::Align16
            }
            None => AccessMode::Align1,
        };
        if pd.pred_a16_only && insn.access != AccessMode::Align16 {
            let p = pd.pred_pos.unwrap_or(self.c.pos());
            return Err(p.err("a channel-replicating predicate (.x .y .z .w) needs Align16"));
        }
        if let Some((off, _)) = pd.chan_off {
            insn.chan_off = off;
        }
        if pd.sec_half {
            if pd.chan_off.is_some() || insn.exec_size > 16 {
                return Err(self.c.err("SecHalf conflicts with the channel offset"));
            }
            insn.chan_off = insn.exec_size;
        }
        // Operands: those not read in their final form (module `direct`).
        let send = insn.is_send();
        let mut srcs = pd.srcs;
        if ternary && insn.access == AccessMode::Align16 {
            for (k, s) in srcs.iter_mut().enumerate() {
                if let Some(RawSrc::Reg(r)) = s {
                    ternary_region(r, k == 2, insn.exec_size == 1)?;
                }
            }
        }
        if pd.dst.is_some() || pd.srcs.iter().any(Option::is_some) {
            // IGA's branch operands: untyped is D, an omitted region the implicit one
            // (enc.iga-text.branch-operands).
            let branch = self.d == Dialect::Iga && super::branch_text::applies(insn);
            let ctx = OpCtx {
                mesa: self.d == Dialect::Mesa,
                default_region: super::branch_text::implicit_region(insn.op)
                    .filter(|_| branch)
                    .unwrap_or_else(|| self.default_region(insn)),
                default_type: if send {
                    Some(DataType::UD)
                } else if branch {
                    Some(super::branch_text::IMPLICIT_TYPE)
                } else {
                    None
                },
            };
            if let Some(d) = &pd.dst {
                insn.dst = Some(make_dst(d, &ctx)?);
            }
            for (slot, raw) in insn.src.iter_mut().zip(srcs.iter()) {
                if let Some(r) = raw {
                    *slot = Some(make_src(r, &ctx)?);
                }
            }
        }
        if pd.default_regions != 0 {
            let region = self.default_region(insn);
            for (k, s) in insn.src.iter_mut().enumerate() {
                if let Some(Src::Reg(r)) = s {
                    if pd.default_regions >> k & 1 != 0 {
                        r.region = region;
                    }
                }
            }
        }
        if send
            && self.d == Dialect::Mesa
            && insn.ctrl.acc_wr
            && crate::codec::send_has_no_src_dep_set(self.plat)
        {
            // Mesa's AccWrEnable names bit 28, NoSrcDepSet on a Gen9 send (enc.gen9.send-a1).
            insn.ctrl.acc_wr = false;
            insn.ctrl.no_src_dep_set = true;
        }
        if send {
            self.finish_send(insn, pd)?;
        } else if let Some((_, p)) = pd.sfid_suffix {
            return Err(p.err("only sends take a shared function suffix"));
        }
        insn.canonicalize();
        if send {
            if self.d == Dialect::Iga {
                super::print::iga_send_src0_addr_back(insn, self.plat);
            }
            crate::codec::settle_send_ex_desc(insn, self.plat, self.d != Dialect::Mesa);
        }
        if pd.jmpi_label {
            self.jmpi_field(insn)?;
        }
        if insn.op == Opcode::Math {
            // A one-source function has no src1 of its own: Mesa's `null<8,8,1>F` is the
            // implicit operand (enc.implicit.math-src1), left out as the decoder leaves it.
            crate::codec::drop_implicit_math_src1(insn, self.plat);
            match crate::math::source_count(insn.math) {
                Some(2) if insn.src[1].is_none() => {
                    return Err(self.c.err(format!(
                        "missing operand: `math.{}` takes 2 sources, found 1",
                        names::math_iga(insn.math)
                    )))
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// IGA's jmpi offset (relative to the jmpi) made the field (relative to the next
    /// instruction): minus the jmpi's size (enc.iga-text.jmpi-bias).
    fn jmpi_field(&self, insn: &mut Insn) -> PResult<()> {
        let t = &crate::spec::encoding::values::IGA_TEXT_JMPI_BIAS;
        let bias = t
            .value(if insn.ctrl.compacted {
                "compacted"
            } else {
                "native"
            })
            .unwrap_or(16) as i64;
        if let Some(Src::Imm(imm)) = &mut insn.src[1] {
            let x = i64::from(imm.bits as u32 as i32) - bias;
            let field = i32::try_from(x).map_err(|_| {
                self.c.err(format!(
                    "jmpi offset {} is out of range: the field ({} minus the jmpi's {bias} bytes) has 32 bits",
                    x + bias,
                    x + bias
                ))
            })?;
            imm.bits = u64::from(field as u32);
        }
        Ok(())
    }

    /// The region of a source written without one.
    fn default_region(&self, insn: &Insn) -> Region {
        if insn.is_split_send() {
            return Region::SCALAR;
        }
        if insn.access == AccessMode::Align16 {
            return if self.d == Dialect::Mesa {
                Region::new(0, Region::A16.width, Region::A16.hstride)
            } else {
                Region::A16
            };
        }
        if self.d == Dialect::Mesa {
            return Region::SCALAR;
        }
        // A send payload register, whatever the execution size: what the printers leave
        // out (a SIMD1 send's `r29` is <8;8,1> as on wider sends).
        if insn.is_send() {
            return Region::CONTIG8;
        }
        if insn.exec_size == 1 {
            return Region::SCALAR;
        }
        let w = insn.exec_size.min(8);
        Region::new(w, w, 1)
    }
}
