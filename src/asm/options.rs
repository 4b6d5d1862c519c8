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
