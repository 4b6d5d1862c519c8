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
//!   send payload) and `<4>` in Align16.
//! - The access mode is `{align16}`/`{Align16}` when written; IGA/PRM text without it is
//!   Align16 when an operand uses Align16-only syntax (swizzle, write mask, `<N>` source
//!   region, `.x` predicate).

mod cursor;
mod error;
mod names;
mod operand;
mod options;
mod parse;
mod print;
mod send;

pub use error::AsmError;
pub use parse::jump_unit;
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
            .ok_or_else(|| format!("unknown syntax `{s}`: expected iga, prm or mesa"))
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
    let has = |pat: &[u8]| src.windows(pat.len()).any(|w| w == pat);
    let semicolon_lines = src
        .split(|&b| b == b'\n')
        .any(|l| l.trim_ascii_end().ends_with(b";"));
    if has(b"align1") || has(b"JIP:") || has(b"MsgDesc") || semicolon_lines {
        return Dialect::Mesa;
    }
    if src
        .windows(2)
        .any(|w| w[0] == b'>' && w[1].is_ascii_uppercase())
    {
        return Dialect::Mesa;
    }
    let iga_chan = src
        .windows(3)
        .any(|w| w[0] == b'|' && (w[1] == b'M' || w[1] == b'm') && w[2].is_ascii_digit());
    if iga_chan || has(b"(W)") || has(b"(W&") {
        return Dialect::Iga;
    }
    Dialect::Prm
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
