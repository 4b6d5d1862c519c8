//! The text assembler and disassembler: three dialects into and out of [`crate::isa::Insn`].
//!
//! - **IGA style** (seed003, Intel's IGA): `(W) and (1|M0) r2.6<1>:ud r0.5<0;1,0>:ud 0x1FF:ud`,
//!   `(f0.0) sel (16|M0) ...`, `math.inv (8|M0) ...`, `cmp (8|M0) (lt)f0.0 null<1>:f ...`,
//!   `send (8|M0) null r5 0xC 0x60680FF` (extended descriptor, then descriptor),
//!   `{Compacted}`, `{EOT}`, `{Align16}`. The default output dialect.
//! - **PRM style** (seed000/002/004): `(f0.0) add (16) r0.0<1>:f r2.0<8;8,1>:f r4.0<8;8,1>:f`,
//!   `add.nz.f0.0 (8) ...`, `r[a0.2]<4,1>:d`, `r[a0.0, 8*4]:f`, Align16 `r3<4>.xyz:f`,
//!   `{AccWrEn, Q2}`, `{SecHalf}`, `{NoMask}`.
//! - **Mesa** (shared/corpus/mesa/asm): `add(8) g124<1>F g7<8,8,1>D 1D { align1 1Q };`,
//!   `math inv(8) ...`, `(+f0.0) if(8) JIP: LABEL0 UIP: LABEL1 { align1 1Q };`, sends with the
//!   message description on the next line (its shared-function name gives the SFID; the rest is
//!   informational, the descriptor is the truth), `sends(8) nullUD g34UD g36UD 0x04035001
//!   0x00000100` (descriptor, then extended descriptor).
//!
//! The parser is one grammar with dialect switches where the dialects conflict (operand order
//! of send descriptors, Mesa's lowercase-only hexadecimal digits and raw-bit float immediates,
//! default regions); other spellings are accepted in every dialect (`:ud` or `UD`, `<8;8,1>` or
//! `<8,8,1>`, `(8|M8)` or `{2Q}`/`{Q2}`, `.nz.f0.0` or `(ne)f0.0`, `r`/`g` registers, `//` and
//! `/* */` comments, optional `;`).
//!
//! Notes on the model:
//! - Subregisters are written in elements of the operand's type and stored in bytes.
//! - Branch targets (labels or numbers) are stored in the generation's jump units (see
//!   [`Insn::jip`]); labels resolve assuming every instruction is native (16 bytes): the binary
//!   encoder must re-resolve if it compacts instructions. Numeric offsets are taken as written,
//!   in those units.
//! - When a source region is omitted: Mesa means `<0;1,0>` (its grammar's default); IGA and PRM
//!   mean `<W;W,1>` with W = min(ExecSize, 8) in Align1 (`<0;1,0>` for SIMD1, `<8;8,1>` for a
//!   send payload, SIMD1 included) and `<4>` in Align16.
//! - The access mode is `{align16}`/`{Align16}` when written; IGA/PRM text without it is
//!   Align16 when an operand uses Align16-only syntax (swizzle, write mask, `<N>` source
//!   region, `.x` predicate).

mod branch_text;
mod cursor;
mod direct;
mod error;
mod float_literal;
mod lines;
mod names;
mod operand;
mod options;
mod parse;
mod print;
#[cfg(test)]
mod quick_tests;
#[cfg(test)]
mod recovery_tests;
mod send;

pub use error::AsmError;
pub use lines::LineIndex;
pub use parse::{jip_is_absolute, jump_bytes, jump_unit, jump_unit_of};
pub use print::TextBuf;

use crate::isa::Insn;
use crate::spec::Platform;
use std::fmt;
use std::str::FromStr;

/// An assembly syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    Iga,
    Prm,
    Mesa,
}

impl Dialect {
    pub const ALL: [Dialect; 3] = [Dialect::Iga, Dialect::Prm, Dialect::Mesa];

    pub fn name(self) -> &'static str {
        match self {
            Dialect::Iga => "iga",
            Dialect::Prm => "prm",
            Dialect::Mesa => "mesa",
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Dialect {
    type Err = String;
    fn from_str(s: &str) -> Result<Dialect, String> {
        Dialect::ALL
            .iter()
            .copied()
            .find(|d| d.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                format!(
                    "unknown syntax {}: expected iga, prm or mesa",
                    crate::quote::quote_str(s)
                )
            })
    }
}

/// A parsed program: instructions and the source line each started on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Program {
    pub insns: Vec<Insn>,
    pub lines: Vec<u32>,
}

/// How to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrintOptions {
    pub dialect: Dialect,
    /// Affects Mesa's spelling of a logic instruction's source negation (`~` from Gen8, `-`
    /// before) and the units of label resolution.
    pub platform: Platform,
}

/// Guess the dialect of a file: Mesa if it has Mesa's lowercase `align1`/`align16` options,
/// `JIP:`/`MsgDesc`, lines ending in `;` or uppercase type suffixes right after a region (`<1>F`); IGA if it has an
/// `|M` channel offset or `(W)`; PRM otherwise.
pub fn detect_dialect(src: &[u8]) -> Dialect {
    dialect_marks(src).dialect()
}

/// The signs of a dialect [`detect_dialect`] looks for in a text. Every sign lies within one
/// line, so the marks of a text cut at line ends are the union ([`DialectMarks::or`]) of the
/// marks of its pieces.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DialectMarks {
    /// A sign of Mesa's syntax.
    pub mesa: bool,
    /// A sign of IGA's syntax (only looked for when there is no sign of Mesa's).
    pub iga: bool,
}

impl DialectMarks {
    /// The marks of two pieces of one text.
    pub fn or(self, o: DialectMarks) -> DialectMarks {
        DialectMarks {
            mesa: self.mesa || o.mesa,
            iga: self.iga || o.iga,
        }
    }

    /// The dialect they point to.
    pub fn dialect(self) -> Dialect {
        if self.mesa {
            Dialect::Mesa
        } else if self.iga {
            Dialect::Iga
        } else {
            Dialect::Prm
        }
    }
}

/// The dialect signs of `src` (byte searches: a few passes at memory speed).
pub fn dialect_marks(src: &[u8]) -> DialectMarks {
    use memchr::memmem::find;
    let (upper, semicolon_blank) = pair_marks(src);
    let mesa = upper || mesa_word(src, semicolon_blank);
    let iga = !mesa
        && (memchr::memchr_iter(b'|', src).any(|i| {
            matches!(src.get(i + 1), Some(b'M' | b'm'))
                && src.get(i + 2).is_some_and(u8::is_ascii_digit)
        }) || find(src, b"(W)").is_some()
            || find(src, b"(W&").is_some());
    DialectMarks { mesa, iga }
}

/// Whether `src` has `align1`, `JIP:` or `MsgDesc`, or a line ending in `;` (before trailing
/// ASCII whitespace): one search for the rarest bytes of the words (`g`, `J`), and the line
/// ends checked where [`pair_marks`] finds a `;` followed by whitespace.
fn mesa_word(src: &[u8], semicolon_blank: bool) -> bool {
    let at = |i: usize, before: usize, word: &[u8]| {
        i.checked_sub(before)
            .and_then(|s| src.get(s..s + word.len()))
            .is_some_and(|w| w == word)
    };
    let line_end = |i: usize| {
        src[i + 1..]
            .iter()
            .take_while(|&&b| b != b'\n')
            .all(u8::is_ascii_whitespace)
    };
    memchr::memchr2_iter(b'g', b'J', src).any(|i| match src[i] {
        b'g' => at(i, 3, b"align1") || at(i, 2, b"MsgDesc"),
        _ => at(i, 0, b"JIP:"),
    }) || ((semicolon_blank || src.last() == Some(&b';'))
        && memchr::memchr_iter(b';', src).any(line_end))
}

/// Whether an uppercase letter follows a `>` (Mesa's `<1>F`), and whether a control byte or
/// whitespace follows a `;` (a candidate line end for [`mesa_word`]). Blocks of 64 byte
/// pairs (fixed-size arrays, no early exit inside), which the compiler turns into vector
/// compares.
fn pair_marks(src: &[u8]) -> (bool, bool) {
    // Byte arithmetic without branches; `q <= b' '` is a superset of ASCII whitespace (the
    // candidates are checked by `mesa_word`).
    #[inline(always)]
    fn pair(p: u8, q: u8) -> u8 {
        let upper = u8::from(p == b'>') & u8::from(q.wrapping_sub(b'A') < 26);
        let blank = u8::from(p == b';') & u8::from(q <= b' ');
        upper | (blank << 1)
    }
    let mut m = 0u8;
    let mut rest = src;
    while let Some(w) = rest.first_chunk::<65>() {
        m |= w[..64]
            .iter()
            .zip(&w[1..])
            .fold(0, |acc, (&p, &q)| acc | pair(p, q));
        if m & 1 != 0 {
            // A sign of Mesa's syntax: the line ends are not needed.
            return (true, false);
        }
        rest = &rest[64..];
    }
    m |= rest.windows(2).fold(0, |acc, w| acc | pair(w[0], w[1]));
    (m & 1 != 0, m & 2 != 0)
}

/// Whether assembly text defines a label (`NAME:` starting a line, other than the `JIP:` /
/// `UIP:` keywords).
pub fn defines_labels(text: &[u8]) -> bool {
    let mut rest = text;
    loop {
        let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        let l = rest[..end].trim_ascii_start();
        let n = l
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        if n > 0
            && !l[0].is_ascii_digit()
            && l.get(n) == Some(&b':')
            && !l[..n].eq_ignore_ascii_case(b"JIP")
            && !l[..n].eq_ignore_ascii_case(b"UIP")
        {
            return true;
        }
        match rest.get(end + 1..) {
            Some(r) => rest = r,
            None => return false,
        }
    }
}

/// Parse a program. `dialect` None: [`detect_dialect`].
pub fn parse(
    src: &[u8],
    dialect: Option<Dialect>,
    platform: Platform,
) -> Result<Program, AsmError> {
    let d = dialect.unwrap_or_else(|| detect_dialect(src));
    parse::Parser::new(src, d, platform, true)
        .program()
        .map_err(|e| e.locate(src))
}

/// Parse a program, going on after errors: the instructions that parse and every error (the
/// statement in error is left out and parsing resumes at the next line; in Mesa's syntax a
/// send's message description line goes with its first line). `dialect` None:
/// [`detect_dialect`]. Where [`parse`] succeeds, this gives the same program and no error.
pub fn parse_recovering(
    src: &[u8],
    dialect: Option<Dialect>,
    platform: Platform,
) -> (Program, Vec<AsmError>) {
    let d = dialect.unwrap_or_else(|| detect_dialect(src));
    let (prog, errors) = parse::Parser::new(src, d, platform, true).program_recovering();
    if errors.is_empty() {
        return (prog, vec![]);
    }
    // One index for every error: counting lines from the start for each would take time
    // quadratic in the number of errors (issue 26).
    let lines = LineIndex::new(src);
    (
        prog,
        errors.into_iter().map(|e| e.locate_in(&lines)).collect(),
    )
}

/// The dialect `src` shows positive signs of (Mesa's, or IGA's), as [`detect_dialect`] looks
/// for them; None when it shows neither (PRM's syntax, which [`detect_dialect`] falls back to,
/// has no sign of its own). For messages that suggest `--syntax`.
pub fn looks_like(src: &[u8]) -> Option<Dialect> {
    let m = dialect_marks(src);
    (m.mesa || m.iga).then(|| m.dialect())
}

/// The 1-based column (in bytes) of the first character of the instruction on a line of
/// text (`line`, without its line end): after blanks and a label `NAME:` that ends before it.
pub fn insn_column(line: &[u8]) -> u32 {
    let blank = |b: &u8| b.is_ascii_whitespace();
    let mut start = line.iter().take_while(|b| blank(b)).count();
    // A label on the same line: `NAME:` followed by the instruction.
    let rest = &line[start..];
    let n = rest
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    if n > 0 && rest.get(n) == Some(&b':') && rest.get(n + 1) != Some(&b':') {
        let after = &rest[n + 1..];
        let skip = after.iter().take_while(|b| blank(b)).count();
        if skip < after.len() && !after[skip..].starts_with(b"//") {
            start += n + 1 + skip;
        }
    }
    u32::try_from(start).map_or(u32::MAX, |c| c.saturating_add(1))
}

/// Line `line` (1-based) of `text`, without its line end; empty when there is no such line.
/// Counts lines from the start: for the lines of many instructions use a [`LineIndex`].
pub fn line_of(text: &[u8], line: u32) -> &[u8] {
    text.split(|&b| b == b'\n')
        .nth(line.saturating_sub(1) as usize)
        .unwrap_or_default()
}

/// Parse a program that defines and uses no labels one instruction at a time: `f` gets each
/// instruction and its line; parsing stops when it returns false (the result
/// is then `Ok(false)`). For callers that fall back to [`parse`] on any error: an error is that
/// of [`parse`] where [`parse`] fails, but a label (which [`parse`] may accept) is an error here.
pub fn parse_each(
    src: &[u8],
    dialect: Dialect,
    platform: Platform,
    f: impl FnMut(&Insn, u32) -> bool,
) -> Result<bool, AsmError> {
    parse::Parser::new(src, dialect, platform, false)
        .each(f)
        .map_err(|e| e.locate(src))
}

/// Parse exactly one instruction (labels cannot be resolved: jump targets must be numbers).
pub fn parse_insn(src: &str, dialect: Dialect, platform: Platform) -> Result<Insn, AsmError> {
    parse::Parser::new(src.as_bytes(), dialect, platform, false)
        .single()
        .map_err(|e| e.locate(src.as_bytes()))
}

/// Print one instruction (jump targets as numbers; a Mesa send takes two lines).
pub fn print_insn(insn: &Insn, o: &PrintOptions) -> String {
    let mut s = String::with_capacity(96);
    print::insn(&mut s, insn, o, Default::default());
    s
}

/// Append one instruction to `out`.
pub fn write_insn(out: &mut String, insn: &Insn, o: &PrintOptions) {
    print::insn(out, insn, o, Default::default());
}

/// Append one instruction to a byte buffer (the same text as [`write_insn`]).
pub fn write_insn_bytes(out: &mut Vec<u8>, insn: &Insn, o: &PrintOptions) {
    print::insn_bytes(out, insn, o, Default::default());
}

/// Print a program, one instruction per line, with `LABELn:` lines at branch targets.
pub fn print_program(insns: &[Insn], o: &PrintOptions) -> String {
    print::program(insns, o)
}

#[cfg(test)]
mod tests {
    use super::dialect_marks;
    use crate::golden::values::Rng;

    /// The signs of Mesa's syntax, looked for the plain way.
    fn mesa_reference(src: &[u8]) -> bool {
        let has = |w: &[u8]| src.windows(w.len()).any(|x| x == w);
        has(b"align1")
            || has(b"MsgDesc")
            || has(b"JIP:")
            || src
                .windows(2)
                .any(|w| w[0] == b'>' && w[1].is_ascii_uppercase())
            || src
                .split(|&b| b == b'\n')
                .any(|l| l.trim_ascii_end().last() == Some(&b';'))
    }

    #[test]
    fn dialect_marks_find_what_a_plain_search_finds() {
        const PIECES: &[&[u8]] = &[
            b"align1",
            b"MsgDesc",
            b"JIP:",
            b";",
            b">",
            b"F",
            b"f",
            b" ",
            b"\t",
            b"\n",
            b"\r",
            b"<8;8,1>",
            b"g",
            b"J",
            b"x",
            b"add (8|M0) r1.0<1>:f r2.0<8;8,1>:f r3.0<8;8,1>:f",
        ];
        let mut rng = Rng::for_vector(7, 0, 0);
        let mut mesa = 0;
        for _ in 0..20_000 {
            let mut s = Vec::new();
            for _ in 0..rng.below(40) {
                s.extend_from_slice(PIECES[rng.below(PIECES.len())]);
            }
            let want = mesa_reference(&s);
            assert_eq!(
                dialect_marks(&s).mesa,
                want,
                "{}",
                String::from_utf8_lossy(&s)
            );
            mesa += usize::from(want);
        }
        assert!((1_000..19_000).contains(&mesa), "{mesa}");
    }
}
