//! [`TextBuf`]: a growing byte buffer that the IGA line printer writes instructions into in
//! place (no per-line copy), for streaming disassembly.

use super::iga_line::{iga_line, Line, LINE_BUF};
use super::{insn, tokens::toks, JumpLabels};
use crate::asm::{Dialect, PrintOptions};
use crate::isa::Insn;

/// Printed text, appended to without reallocating once it has grown to its working size.
/// The bytes past [`TextBuf::as_bytes`] are scratch space the printer writes into.
#[derive(Default)]
pub struct TextBuf {
    bytes: Vec<u8>,
    len: usize,
}

impl TextBuf {
    pub fn new() -> TextBuf {
        TextBuf::default()
    }

    /// Empty it (keeping its storage).
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The text so far.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or(&[])
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Room for `n` more bytes after the text.
    #[inline]
    fn room(&mut self, n: usize) {
        let need = self.len + n;
        if self.bytes.len() < need {
            self.bytes.resize(need.max(2 * self.bytes.len()), 0);
        }
    }

    /// Append bytes.
    pub fn push_bytes(&mut self, b: &[u8]) {
        self.room(b.len());
        let end = self.len + b.len();
        if let Some(d) = self.bytes.get_mut(self.len..end) {
            d.copy_from_slice(b);
            self.len = end;
        }
    }

    /// Append one instruction and a newline (the text of [`crate::asm::write_insn`]).
    #[inline]
    pub fn push_insn_line(&mut self, i: &Insn, o: &PrintOptions) {
        if o.dialect == Dialect::Iga && toks().ok {
            self.room(LINE_BUF + 1);
            let start = self.len;
            if let Some(Ok(buf)) = self
                .bytes
                .get_mut(start..start + LINE_BUF)
                .map(<&mut [u8; LINE_BUF]>::try_from)
            {
                let mut l = Line::new(buf);
                iga_line(&mut l, i, o.platform, JumpLabels::default());
                let n = l.len();
                if let Some(x) = self.bytes.get_mut(start + n) {
                    *x = b'\n';
                    self.len = start + n + 1;
                }
            }
        } else {
            let mut s = String::new();
            insn(&mut s, i, o, JumpLabels::default());
            s.push('\n');
            self.push_bytes(s.as_bytes());
        }
    }
}
