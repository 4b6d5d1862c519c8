//! Instruction options `{ ... }`: access mode, masks, dependency and thread control,
//! accumulator write, compaction, debug, EOT and channel offsets in every dialect's spelling.

use super::cursor::{PResult, Pos};
use super::error::show;
use super::parse::{Parser, Pending};
use crate::isa::{Controls, Insn, ThreadCtrl};
use crate::spec::AccessMode;

/// An options block read from the state before any option (the same few blocks repeat in a
/// listing): its text from `{` to `}` (one line, no comment) and what it set.
#[derive(Clone, Copy, Default)]
pub(crate) struct OptionsMemo<'a> {
    text: &'a [u8],
    ctrl: Controls,
    access: Option<AccessMode>,
    /// The channel offset and the offset of its option from the `{`.
    chan_off: Option<(u8, usize)>,
    sec_half: bool,
}

impl<'a> Parser<'a> {
    /// `{ opt opt, opt }`: when no option was given before (by the execution size or the
    /// mnemonic) and the text is that of [`Parser::options_memo`], what it set; else read.
    #[inline]
    pub(crate) fn options(&mut self, insn: &mut Insn, pd: &mut Pending) -> PResult<()> {
        let fresh = insn.ctrl == Controls::default()
            && pd.access.is_none()
            && pd.chan_off.is_none()
            && !pd.sec_half;
        if !fresh {
            return self.options_general(insn, pd);
        }
        let start = self.c.offset();
        let Some(slot) = memo_slot(self.c.rest()) else {
            return self.options_general(insn, pd);
        };
        let m = self.options_memo[slot];
        if !m.text.is_empty() && self.c.rest().starts_with(m.text) {
            insn.ctrl = m.ctrl;
            pd.access = m.access;
            pd.chan_off = m.chan_off.map(|(o, at)| (o, Pos(start + at)));
            pd.sec_half = m.sec_half;
            self.c.advance(m.text.len());
            return Ok(());
        }
        self.options_general(insn, pd)?;
        let text = self.c.slice(start, self.c.offset());
        // Text with no other `}` (no comment, no line end) reads the same wherever it is.
        if text.last() == Some(&b'}') && !text.iter().any(|&b| b == b'/' || b == b'\n') {
            self.options_memo[slot] = OptionsMemo {
                text,
                ctrl: insn.ctrl,
                access: pd.access,
                chan_off: pd.chan_off.map(|(o, p)| (o, p.0 - start)),
                sec_half: pd.sec_half,
            };
        }
        Ok(())
    }

    /// [`Parser::options`] without its memo.
    pub(crate) fn options_general(&mut self, insn: &mut Insn, pd: &mut Pending) -> PResult<()> {
        self.c.bump();
        loop {
            self.c.skip_blank()?;
            if self.c.eat(b'}') {
                return Ok(());
            }
            if self.c.eat(b',') {
                continue;
            }
            let p = self.c.pos();
            let (w, k) = self.c.word_key();
            if w.is_empty() {
                return Err(self.c.expected("an instruction option or `}`"));
            }
            self.option(insn, pd, w, k, p)?;
        }
    }

    fn option(
        &mut self,
        insn: &mut Insn,
        pd: &mut Pending,
        w: &[u8],
        k: Option<u128>,
        p: Pos,
    ) -> PResult<()> {
        let Some(k) = k else {
            return Err(p.err(format!("unknown instruction option `{}`", show(w))));
        };
        let ctrl = &mut insn.ctrl;
        let access = |a: AccessMode, pd: &mut Pending| -> PResult<()> {
            if pd.access.is_some_and(|x| x != a) {
                return Err(p.err("conflicting access modes"));
            }
            pd.access = Some(a);
            Ok(())
        };
        let thread = |ctrl: &mut Controls, t: ThreadCtrl| -> PResult<()> {
            if ctrl.thread != ThreadCtrl::Normal && ctrl.thread != t {
                return Err(p.err("conflicting thread controls"));
            }
            ctrl.thread = t;
            Ok(())
        };
        // The lowercase spelling packed into an integer (`Cursor::word_key`): one comparison
        // per option name.
        const fn key(s: &[u8]) -> u128 {
            let mut k = [0u8; 16];
            let mut i = 0;
            while i < s.len() {
                k[i] = s[i];
                i += 1;
            }
            u128::from_be_bytes(k)
        }
        const ALIGN1: u128 = key(b"align1");
        const ALIGN16: u128 = key(b"align16");
        const WE_ALL: u128 = key(b"we_all");
        const NOMASK: u128 = key(b"nomask");
        const NODDCLR: u128 = key(b"noddclr");
        const NODDCHK: u128 = key(b"noddchk");
        const SWITCH: u128 = key(b"switch");
        const ATOMIC: u128 = key(b"atomic");
        const NOPREEMPT: u128 = key(b"nopreempt");
        const ACCWREN: u128 = key(b"accwren");
        const ACCWRENABLE: u128 = key(b"accwrenable");
        const ACCWRCTRL: u128 = key(b"accwrctrl");
        const BRANCHCTRL: u128 = key(b"branchctrl");
        const NOSRCDEPSET: u128 = key(b"nosrcdepset");
        const COMPACTED: u128 = key(b"compacted");
        const UNCOMPACTED: u128 = key(b"uncompacted");
        const BREAKPOINT: u128 = key(b"breakpoint");
        const EOT: u128 = key(b"eot");
        const COMPR: u128 = key(b"compr");
        const COMPR4: u128 = key(b"compr4");
        const SECHALF: u128 = key(b"sechalf");
        match k {
            ALIGN1 => access(AccessMode::Align1, pd)?,
            ALIGN16 => access(AccessMode::Align16, pd)?,
            WE_ALL | NOMASK => ctrl.no_mask = true,
            NODDCLR => ctrl.no_dd_clr = true,
            NODDCHK => ctrl.no_dd_chk = true,
            SWITCH => thread(ctrl, ThreadCtrl::Switch)?,
            ATOMIC => thread(ctrl, ThreadCtrl::Atomic)?,
            NOPREEMPT => thread(ctrl, ThreadCtrl::NoPreempt)?,
            ACCWREN | ACCWRENABLE | ACCWRCTRL => ctrl.acc_wr = true,
            BRANCHCTRL => ctrl.branch_ctrl = true,
            NOSRCDEPSET => ctrl.no_src_dep_set = true,
            COMPACTED => ctrl.compacted = true,
            UNCOMPACTED => ctrl.compacted = false,
            BREAKPOINT => ctrl.breakpoint = true,
            EOT => ctrl.eot = true,
            // Gen4-Gen6 compression hints: implied by the execution size on Gen7+.
            COMPR | COMPR4 => {}
            SECHALF => pd.sec_half = true,
            _ => {
                let off = chan_option(k)
                    .ok_or_else(|| p.err(format!("unknown instruction option `{}`", show(w))))?;
                if pd.chan_off.is_some_and(|(o, _)| o != off) {
                    return Err(p.err("conflicting channel offsets"));
                }
                pd.chan_off = Some((off, p));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
impl<'a> OptionsMemo<'a> {
    pub(crate) fn text(&self) -> &'a [u8] {
        self.text
    }

    pub(crate) fn text_is_empty(&self) -> bool {
        self.text.is_empty()
    }
}

/// Slots of [`Parser::options_memo`].
pub(crate) const MEMO_SLOTS: usize = 8;

/// The slot of [`Parser::options_memo`] for the options block that starts `rest`: a hash of
/// its bytes 5-12 (where Mesa's blocks differ: `{ align1 1Q }`, `{ align1 1H EOT }`); None
/// when fewer than 16 bytes are left.
fn memo_slot(rest: &[u8]) -> Option<usize> {
    let w: &[u8; 16] = rest.first_chunk()?;
    let mut b = [0u8; 8];
    b.copy_from_slice(&w[5..13]);
    let x = u64::from_le_bytes(b);
    Some((x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 61) as usize)
}

/// Channel-offset options: Mesa `1Q`..`4Q`, `1H` `2H`, `1N`..`8N`; PRM `Q1`.., `H1` `H2`,
/// `N1`..`N8`.
fn chan_option(k: u128) -> Option<u8> {
    // Two bytes, then zeros (the packed lowercase name).
    if k << 16 != 0 {
        return None;
    }
    let [a, b] = ((k >> 112) as u16).to_be_bytes();
    let (k, n) = match (a, b) {
        (d, k) if d.is_ascii_digit() => (k, d - b'0'),
        (k, d) if d.is_ascii_digit() => (k, d - b'0'),
        _ => return None,
    };
    match (k, n) {
        (b'q', 1..=4) => Some((n - 1) * 8),
        (b'h', 1..=2) => Some((n - 1) * 16),
        (b'n', 1..=8) => Some((n - 1) * 4),
        _ => None,
    }
}
