//! Where the lines of a text start: the line and column of a byte offset, and the text of a
//! line, without scanning the text again for every question (issue 26: `run` and `validate`
//! located each instruction and each error by counting lines from the start of the text,
//! time quadratic in the number of instructions).

use super::error::AsmError;

/// The start offset of every line of a text, found in one pass.
#[derive(Debug, Clone)]
pub struct LineIndex<'a> {
    text: &'a [u8],
    /// `starts[k]`: the offset of the first byte of line k + 1.
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// Index `text` (one pass over its bytes).
    pub fn new(text: &'a [u8]) -> LineIndex<'a> {
        let starts = std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', text).map(|i| i + 1))
            .collect();
        LineIndex { text, starts }
    }

    /// The number of lines (a text ending in a line end has an empty last line).
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Always false: even the empty text has one (empty) line.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Line `line` (1-based) without its line end (`\n`, or `\r\n`); empty when there is no
    /// such line. Constant time.
    pub fn line(&self, line: u32) -> &'a [u8] {
        let k = (line as usize).wrapping_sub(1);
        let Some(&a) = self.starts.get(k) else {
            return &[];
        };
        let b = self
            .starts
            .get(k + 1)
            .map_or(self.text.len(), |&next| next - 1);
        let l = &self.text[a..b];
        l.strip_suffix(b"\r").unwrap_or(l)
    }

    /// The 1-based line and column (in bytes) of byte `offset` (an offset past the end is at
    /// the end). Logarithmic time.
    pub fn locate(&self, offset: usize) -> (u32, u32) {
        let off = offset.min(self.text.len());
        // The last line starting at or before `off`.
        let k = self.starts.partition_point(|&s| s <= off) - 1;
        let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        (clamp(k + 1), clamp(off - self.starts[k] + 1))
    }

    /// The 1-based column of the first character of the instruction on line `line`, by
    /// [`super::insn_column`].
    pub fn insn_column(&self, line: u32) -> u32 {
        super::insn_column(self.line(line))
    }

    /// The error at byte `offset` with message `msg`, located.
    pub(crate) fn error(&self, offset: usize, msg: String) -> AsmError {
        let (line, col) = self.locate(offset);
        AsmError { line, col, msg }
    }
}

#[cfg(test)]
mod tests {
    use super::LineIndex;

    /// Line and column the plain way: count from the start.
    fn plain(text: &[u8], off: usize) -> (u32, u32) {
        let before = &text[..off.min(text.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        (line as u32, (before.len() - start + 1) as u32)
    }

    #[test]
    fn locate_agrees_with_counting_from_the_start() {
        for text in [
            &b""[..],
            b"\n",
            b"a",
            b"ab\ncd\n",
            b"\n\nx\r\ny",
            b"mov (1|M0) r1.0<1>:ud 0x1:ud\n// c\n\nadd",
        ] {
            let ix = LineIndex::new(text);
            for off in 0..=text.len() + 2 {
                assert_eq!(ix.locate(off), plain(text, off), "{text:?} at {off}");
            }
        }
    }

    #[test]
    fn lines_as_split_gives_them() {
        let text = b"one\ntwo\r\n\nfour";
        let ix = LineIndex::new(text);
        assert_eq!(ix.len(), 4);
        assert_eq!(ix.line(1), b"one");
        assert_eq!(ix.line(2), b"two");
        assert_eq!(ix.line(3), b"");
        assert_eq!(ix.line(4), b"four");
        assert_eq!(ix.line(0), b"");
        assert_eq!(ix.line(5), b"");
        assert_eq!(ix.line(u32::MAX), b"");
    }

    #[test]
    fn instruction_columns_skip_blanks_and_labels() {
        let ix = LineIndex::new(b"  mov (1) r1:ud r2:ud\nL0: add (1) r1:ud r2:ud r3:ud\n");
        assert_eq!(ix.insn_column(1), 3);
        assert_eq!(ix.insn_column(2), 5);
        assert_eq!(ix.insn_column(3), 1);
    }
}
