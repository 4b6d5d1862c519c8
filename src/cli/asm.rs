//! `euref asm` and `euref disasm`.
//!
//! Text to text (both commands): the input is parsed in one of the three dialects
//! (auto-detected unless `--syntax` is given) and printed in the canonical form of the output
//! dialect (IGA style by default).
//!
//! Binary (issue 6):
//! - `euref asm --gen G [--compact] [-o out.bin | --hex] FILE` assembles to the native
//!   16-byte encoding (8 bytes for instructions compacted with `--compact` or marked
//!   `{Compacted}`), written raw to `out.bin` or printed as hex, one instruction per line
//!   (the format of shared/corpus/mesa/asm/*/*.expected).
//! - `euref disasm --gen G FILE` also accepts raw binary and hex text (detected from the
//!   start of the file, or `--input`): it streams (reads, decodes and prints in chunks, in
//!   constant memory), reports each reserved or malformed instruction with its byte offset
//!   and the field, continues with the next one, and exits with status 1 if any failed.

use super::asm_stream::{self, Outcome};
use super::binary::{self, InputFormat};
use euref::asm::{self, Dialect, PrintOptions};
use euref::gen::parse_gen;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Input file (`-` for standard input): assembly text; for disasm also raw binary or hex
    /// text.
    pub file: PathBuf,
    /// Input syntax: iga, prm or mesa (default: detected from the text).
    #[arg(long, value_parser = parse_dialect)]
    pub syntax: Option<Dialect>,
    /// Output syntax: iga, prm or mesa.
    #[arg(long = "out-syntax", value_parser = parse_dialect, default_value = "iga")]
    pub out_syntax: Dialect,
    /// Platform: 7, 7.5, 8, 9, ivb, hsw, bdw, chv, skl, bxt (branch offset units, opcode
    /// availability, encodings).
    #[arg(long, default_value = "skl")]
    pub gen: String,
    /// asm: write the binary encoding to this file.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// asm: print the binary encoding as hex bytes, one instruction per line.
    #[arg(long, conflicts_with = "output")]
    pub hex: bool,
    /// asm: store instructions in their 8-byte compact form where one exists (jump offsets
    /// are re-resolved; binary output: hex on stdout unless -o). Instructions written with
    /// {Compacted} are compacted in any binary output.
    #[arg(long)]
    pub compact: bool,
    /// disasm: input format (auto: binary if the file is not text, hex if it is only hex
    /// byte pairs, assembly otherwise).
    #[arg(long, value_enum, default_value = "auto")]
    pub input: InputFormat,
}

fn parse_dialect(s: &str) -> Result<Dialect, String> {
    s.parse()
}

/// Which command runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Asm,
    Disasm,
}

/// Run `euref asm` / `euref disasm`.
pub fn run(a: Args, mode: Mode) -> Result<ExitCode, String> {
    let platform = parse_gen(&a.gen).map_err(|e| e.to_string())?;
    if mode == Mode::Disasm && (a.output.is_some() || a.hex || a.compact) {
        return Err("-o, --hex and --compact are options of `euref asm`".into());
    }
    let shown = a.file.display().to_string();
    // Binary output of a file: streamed when it can be (super::asm_stream).
    if mode == Mode::Asm && !a.compact && (a.output.is_some() || a.hex) && shown != "-" {
        let o = a.output.as_deref();
        if let Outcome::Done(code) = asm_stream::assemble(&a.file, a.syntax, platform, o)? {
            return Ok(code);
        }
    }
    let mut input: Box<dyn Read> = if shown == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(&a.file).map_err(|e| format!("{shown}: {e}"))?)
    };
    let name = if shown == "-" { "<stdin>" } else { &shown };
    // The start of the input, for format detection.
    let mut head = Vec::with_capacity(binary::PEEK);
    (&mut input)
        .take(binary::PEEK as u64)
        .read_to_end(&mut head)
        .map_err(|e| format!("{name}: {e}"))?;
    let format = match (mode, a.input) {
        (Mode::Asm, InputFormat::Auto) => InputFormat::Asm,
        (_, InputFormat::Auto) => binary::detect(&head),
        (_, f) => f,
    };
    let o = PrintOptions {
        dialect: a.out_syntax,
        platform,
    };
    if mode == Mode::Disasm && matches!(format, InputFormat::Bin | InputFormat::Hex) {
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
        let r = binary::disassemble(
            name,
            &head,
            input,
            format == InputFormat::Hex,
            platform,
            &o,
            &mut out,
        );
        return match r {
            Ok(st) if st.errors == 0 => Ok(ExitCode::SUCCESS),
            Ok(st) => {
                eprintln!(
                    "{name}: {} instruction{} could not be decoded",
                    st.errors,
                    if st.errors == 1 { "" } else { "s" }
                );
                Ok(ExitCode::from(1))
            }
            // A closed pipe (e.g. `euref disasm f | head`) is not an error worth reporting.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
            Err(e) => {
                eprintln!("{name}: {e}");
                Ok(ExitCode::from(1))
            }
        };
    }
    let mut text = head;
    input
        .read_to_end(&mut text)
        .map_err(|e| format!("{name}: {e}"))?;
    let prog = match asm::parse(&text, a.syntax, platform) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{shown}:{}:{}: {}", e.line, e.col, e.msg);
            return Ok(ExitCode::from(1));
        }
    };
    if mode == Mode::Asm && (a.output.is_some() || a.hex || a.compact) {
        let labels = binary::defines_labels(&text);
        let enc = match binary::assemble(&prog.insns, &prog.lines, platform, a.compact, labels) {
            Ok(e) => e,
            Err(errs) => {
                for (line, msg) in errs {
                    eprintln!("{shown}:{line}: {msg}");
                }
                return Ok(ExitCode::from(1));
            }
        };
        if let Some(path) = &a.output {
            let bytes: Vec<u8> = enc.iter().flatten().copied().collect();
            std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        } else {
            let mut s = String::with_capacity(enc.len() * 48);
            for e in &enc {
                binary::hex_line(&mut s, e);
            }
            let _ = std::io::stdout().lock().write_all(s.as_bytes());
        }
        return Ok(ExitCode::SUCCESS);
    }
    let out = asm::print_program(&prog.insns, &o);
    let mut stdout = std::io::stdout().lock();
    // A closed pipe (e.g. `euref asm f | head`) is not an error worth reporting.
    let _ = stdout.write_all(out.as_bytes());
    Ok(ExitCode::SUCCESS)
}
