//! Instruction options `{ ... }`: access mode, masks, dependency and thread control,
//! accumulator write, compaction, debug, EOT and channel offsets in every dialect's spelling.

use super::cursor::{PResult, Pos};
use super::error::show;
use super::parse::{Parser, Pending};
use crate::isa::{Controls, Insn, ThreadCtrl};
use crate::spec::AccessMode;

impl Parser<'_> {
    /// `{ opt opt, opt }`.
    pub(crate) fn options(&mut self, insn: &mut Insn, pd: &mut Pending) -> PResult<()> {
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
            let w = self.c.word();
            if w.is_empty() {
                return Err(self.c.expected("an instruction option or `}`"));
            }
            self.option(insn, pd, w, p)?;
        }
    }

    fn option(&mut self, insn: &mut Insn, pd: &mut Pending, w: &[u8], p: Pos) -> PResult<()> {
        let mut lw = [0u8; 16];
        let Some(l) = lw.get_mut(..w.len()) else {
            return Err(p.err(format!("unknown instruction option `{}`", show(w))));
        };
        for (o, b) in l.iter_mut().zip(w) {
            *o = b.to_ascii_lowercase();
        }
        let l: &[u8] = l;
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
        match l {
            b"align1" => access(AccessMode::Align1, pd)?,
            b"align16" => access(AccessMode::Align16, pd)?,
            b"we_all" | b"nomask" => ctrl.no_mask = true,
            b"noddclr" => ctrl.no_dd_clr = true,
            b"noddchk" => ctrl.no_dd_chk = true,
            b"switch" => thread(ctrl, ThreadCtrl::Switch)?,
            b"atomic" => thread(ctrl, ThreadCtrl::Atomic)?,
            b"nopreempt" => thread(ctrl, ThreadCtrl::NoPreempt)?,
            b"accwren" | b"accwrenable" | b"accwrctrl" => ctrl.acc_wr = true,
            b"branchctrl" => ctrl.branch_ctrl = true,
            b"compacted" => ctrl.compacted = true,
            b"uncompacted" => ctrl.compacted = false,
            b"breakpoint" => ctrl.breakpoint = true,
            b"eot" => ctrl.eot = true,
            // Gen4-Gen6 compression hints: implied by the execution size on Gen7+.
            b"compr" | b"compr4" => {}
            b"sechalf" => pd.sec_half = true,
            _ => {
                let off = chan_option(l)
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

/// Channel-offset options: Mesa `1Q`..`4Q`, `1H` `2H`, `1N`..`8N`; PRM `Q1`.., `H1` `H2`,
/// `N1`..`N8`.
fn chan_option(l: &[u8]) -> Option<u8> {
    let (k, n) = match l {
        [d, k] if d.is_ascii_digit() => (*k, d - b'0'),
        [k, d] if d.is_ascii_digit() => (*k, d - b'0'),
        _ => return None,
    };
    match (k, n) {
        (b'q', 1..=4) => Some((n - 1) * 8),
        (b'h', 1..=2) => Some((n - 1) * 16),
        (b'n', 1..=8) => Some((n - 1) * 4),
        _ => None,
    }
}
