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
use super::atomic_file::AtomicFile;
use super::binary::{self, InputFormat, StreamError};
use super::hints;
use super::output;
use euref::asm::{self, Dialect, PrintOptions};
use euref::gen::parse_gen;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// The options `euref asm` and `euref disasm` share.
#[derive(clap::Args, Debug)]
pub struct TextOptions {
    /// Input syntax of assembly text: iga, prm or mesa (default: detected from the text).
    /// Given, the input is text (assembly, or hex text for disasm), never raw binary.
    #[arg(long, value_parser = parse_dialect)]
    pub syntax: Option<Dialect>,
    /// Output syntax: iga, prm or mesa.
    #[arg(long = "out-syntax", value_parser = parse_dialect, default_value = "iga")]
    pub out_syntax: Dialect,
    /// Platform: 7, 7.5, 8, 9, ivb, hsw, bdw, chv, skl, bxt (branch offset units, opcode
    /// availability, encodings).
    #[arg(long, default_value = "skl")]
    pub gen: String,
}

/// `euref asm`.
#[derive(clap::Args, Debug)]
pub struct AsmArgs {
    /// Input file (`-` for standard input): assembly text in IGA, PRM or Mesa syntax.
    pub file: PathBuf,
    #[command(flatten)]
    pub text: TextOptions,
    /// Write the binary encoding to this file (through a temporary file beside it, renamed
    /// when complete: a failed or killed run leaves the file as it was).
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Print the binary encoding as hex bytes, one instruction per line.
    #[arg(long, conflicts_with = "output")]
    pub hex: bool,
    /// Store instructions in their 8-byte compact form where one exists (jump offsets are
    /// re-resolved; binary output: hex on stdout unless -o). Instructions written with
    /// {Compacted} are compacted in any binary output.
    #[arg(long)]
    pub compact: bool,
    /// Not an option of asm (its input is assembly text): refused with a pointer to `euref
    /// disasm`.
    #[arg(long, hide = true, value_name = "FORMAT")]
    pub input: Option<String>,
}

/// `euref disasm`.
#[derive(clap::Args, Debug)]
pub struct DisasmArgs {
    /// Input file (`-` for standard input): raw instruction bytes, hex text (bytes as hex
    /// pairs) or assembly text.
    pub file: PathBuf,
    #[command(flatten)]
    pub text: TextOptions,
    /// Input format (auto: binary if the file is not text, hex if it is only hex byte pairs,
    /// assembly otherwise).
    #[arg(long, value_enum, default_value = "auto")]
    pub input: InputFormat,
}

/// What one run of either command does.
struct Job {
    file: PathBuf,
    text: TextOptions,
    /// Binary output: to a file, or as hex on standard output.
    output: Option<PathBuf>,
    hex: bool,
    compact: bool,
    input: InputFormat,
}

fn parse_dialect(s: &str) -> Result<Dialect, String> {
    s.parse()
}

/// Which command runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Asm,
    Disasm,
}

/// Run `euref asm`.
pub fn run_asm(a: AsmArgs) -> Result<ExitCode, String> {
    if let Some(f) = a.input {
        return Err(format!(
            "`euref asm --input {f}`: asm reads assembly text only and has no --input; to turn \
             hex text or raw instruction bytes into assembly, run `euref disasm --gen G FILE` \
             (its --input is auto, asm, hex or bin)"
        ));
    }
    let job = Job {
        file: a.file,
        text: a.text,
        output: a.output,
        hex: a.hex,
        compact: a.compact,
        input: InputFormat::Asm,
    };
    run(job, Mode::Asm)
}

/// Run `euref disasm`.
pub fn run_disasm(a: DisasmArgs) -> Result<ExitCode, String> {
    let job = Job {
        file: a.file,
        text: a.text,
        output: None,
        hex: false,
        compact: false,
        input: a.input,
    };
    run(job, Mode::Disasm)
}

/// Run `euref asm` / `euref disasm`.
fn run(a: Job, mode: Mode) -> Result<ExitCode, String> {
    let platform = parse_gen(&a.text.gen).map_err(|e| e.to_string())?;
    let shown = a.file.display().to_string();
    let stdin = shown == "-";
    // Binary output of a file: streamed when it can be (super::asm_stream).
    if mode == Mode::Asm && !a.compact && (a.output.is_some() || a.hex) && !stdin {
        let o = a.output.as_deref();
        if let Outcome::Done(code) = asm_stream::assemble(&a.file, a.text.syntax, platform, o)? {
            return Ok(code);
        }
    }
    let mut input: Box<dyn Read> = if stdin {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(&a.file).map_err(|e| format!("{shown}: {e}"))?)
    };
    // Standard input is called as `euref validate` and `euref run` call it.
    let name = if stdin { "<stdin>" } else { &shown };
    // The start of the input, for format detection.
    let mut head = Vec::with_capacity(binary::PEEK);
    (&mut input)
        .take(binary::PEEK as u64)
        .read_to_end(&mut head)
        .map_err(|e| format!("{name}: {e}"))?;
    let format = match a.input {
        // An explicit syntax says the input is text (assembly, or hex text in disasm).
        InputFormat::Auto if a.text.syntax.is_some() => binary::detect_text(&head),
        InputFormat::Auto => binary::detect(&head),
        f => f,
    };
    let o = PrintOptions {
        dialect: a.text.out_syntax,
        platform,
    };
    if mode == Mode::Disasm && matches!(format, InputFormat::Bin | InputFormat::Hex) {
        let mut out = output::stdout();
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
                note!(
                    "{name}: {} instruction{} could not be decoded",
                    st.errors,
                    if st.errors == 1 { "" } else { "s" }
                );
                if let Some(h) = hints::platform_hint(&st.sample, platform, st.insns, st.errors) {
                    note!("{name}: {h}");
                }
                Ok(ExitCode::from(1))
            }
            // The output failed: an error naming standard output (quiet for a closed pipe).
            Err(StreamError::Write(e)) => {
                output::settle(Err(e), output::STDOUT)?;
                Ok(ExitCode::SUCCESS)
            }
            // The input failed: named in the message.
            Err(e) => {
                note!("{e}");
                Ok(ExitCode::from(1))
            }
        };
    }
    let mut text = head;
    input
        .read_to_end(&mut text)
        .map_err(|e| format!("{name}: {e}"))?;
    let prog = match asm::parse(&text, a.text.syntax, platform) {
        Ok(p) => p,
        Err(e) => {
            note!("{name}:{}:{}: {}", e.line, e.col, e.msg);
            let hint = match (a.text.syntax, mode, binary::detect(&text)) {
                (_, Mode::Asm, InputFormat::Hex) => Some(
                    "hint: the input looks like hex text (instruction bytes): `euref disasm` \
                     turns it into assembly"
                        .to_string(),
                ),
                (_, Mode::Asm, InputFormat::Bin) => Some(
                    "hint: the input looks like raw instruction bytes: `euref disasm` turns \
                     them into assembly"
                        .to_string(),
                ),
                (Some(_), Mode::Disasm, InputFormat::Bin) => Some(binary::NOT_TEXT_HINT.into()),
                (Some(d), _, _) => hints::syntax_hint(&text, d),
                (None, _, _) => None,
            };
            if let Some(h) = hint {
                note!("{name}: {h}");
            }
            return Ok(ExitCode::from(1));
        }
    };
    if mode == Mode::Asm && (a.output.is_some() || a.hex || a.compact) {
        let labels = binary::defines_labels(&text);
        let enc = match binary::assemble(&prog.insns, &prog.lines, platform, a.compact, labels) {
            Ok(e) => e,
            Err(errs) => {
                for (line, msg) in errs {
                    let col = asm::insn_column(asm::line_of(&text, line));
                    note!("{name}:{line}:{col}: {msg}");
                }
                return Ok(ExitCode::from(1));
            }
        };
        if let Some(path) = &a.output {
            // Whole or not at all (super::atomic_file).
            let mut f = AtomicFile::create(path, 1 << 16)?;
            let r = enc.iter().try_for_each(|e| f.write_all(e));
            output::settle(r, &path.display().to_string())?;
            f.commit()?;
        } else {
            let mut s = String::with_capacity(enc.len() * 48);
            for e in &enc {
                binary::hex_line(&mut s, e);
            }
            output::print(s.as_bytes())?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let out = asm::print_program(&prog.insns, &o);
    output::print(out.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
