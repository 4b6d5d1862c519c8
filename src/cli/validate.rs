//! `euref validate FILE --gen G [--json] [--syntax S] [--input F] [--preemptible] [--spf]`: every violated rule of
//! every instruction, with its location (line:column for text, byte offset for binary), rule
//! ID, message, citation and, for per-source rules, the source operand.
//!
//! Input: assembly text in any of the three dialects, hex text or raw binary (detected as by
//! `euref disasm`, or given with `--input`). Exit status: 0 when every instruction is valid,
//! 1 when some instruction violates a rule, 2 on usage errors and input that does not parse
//! or decode (reported with its location). The JSON shape is documented in docs/validate.md.

use super::binary::{self, HexReader, InputFormat};
use super::hints;
use super::output;
use euref::asm::{self, Dialect, PrintOptions};
use euref::codec;
use euref::encoding::{compact_word, is_compact};
use euref::gen::parse_gen;
use euref::isa::Insn;
use euref::spec::{Opcode, Platform};
use euref::validate::{Checker, ExecContext, Violation};
use serde::Serialize;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Input file (`-` for standard input): assembly text, hex text or raw binary.
    pub file: PathBuf,
    /// Platform: 7, 7.5, 8, 9, ivb, hsw, bdw, chv, skl, bxt.
    #[arg(long)]
    pub gen: String,
    /// Print one JSON document (shape: docs/validate.md) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Assembly syntax: iga, prm or mesa (default: detected from the text). Given, the input
    /// is text (assembly or hex), never raw binary.
    #[arg(long, value_parser = parse_dialect)]
    pub syntax: Option<Dialect>,
    /// Input format (auto: binary if the file is not text, hex if it is only hex byte pairs,
    /// assembly otherwise).
    #[arg(long, value_enum, default_value = "auto")]
    pub input: InputFormat,
    /// The code runs in a mid-thread pre-emptible context: the rules that depend on it
    /// (special.preemption-compressed-multi-index) apply.
    #[arg(long)]
    pub preemptible: bool,
    /// The code runs with cr0.0 Single Program Flow set: the rules that depend on it
    /// (arf.spf-h1-q1-n1) apply.
    #[arg(long)]
    pub spf: bool,
}

fn parse_dialect(s: &str) -> Result<Dialect, String> {
    s.parse()
}

/// Where an instruction is in the input.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Location {
    /// 1-based line and column of the instruction (text input).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    /// Byte offset of the instruction (binary and hex input: in the instruction bytes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
}

impl Location {
    fn show(&self, name: &str) -> String {
        match (self.line, self.column, self.offset) {
            (Some(l), Some(c), _) => format!("{name}:{l}:{c}"),
            (Some(l), None, _) => format!("{name}:{l}"),
            (_, _, Some(o)) => format!("{name}:{o:#x}"),
            _ => name.to_string(),
        }
    }
}

/// One violated rule, as reported.
#[derive(Debug, Serialize)]
pub struct Reported {
    pub rule: &'static str,
    pub message: &'static str,
    pub cite: &'static str,
    /// The source operand (0-2) of a per-source rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub src: Option<usize>,
    /// What a violation leaves unpredictable (the rule row's `undefined`).
    pub undefined: &'static str,
}

impl From<Violation> for Reported {
    fn from(v: Violation) -> Reported {
        Reported {
            rule: v.rule.id,
            message: v.rule.msg,
            cite: v.rule.cite,
            src: v.src,
            undefined: v.rule.undefined,
        }
    }
}

/// One instruction's result.
#[derive(Debug, Serialize)]
pub struct InsnResult {
    /// 0-based index of the instruction in the input.
    pub index: usize,
    #[serde(flatten)]
    pub at: Location,
    /// The instruction as euref prints it (IGA syntax).
    pub text: String,
    pub valid: bool,
    pub violations: Vec<Reported>,
}

/// Input that could not be read as instructions.
#[derive(Debug, Serialize)]
pub struct InputError {
    #[serde(flatten)]
    pub at: Location,
    pub message: String,
}

/// The JSON document.
#[derive(Debug, Serialize)]
pub struct Report {
    pub file: String,
    pub platform: &'static str,
    pub format: &'static str,
    pub instructions: usize,
    pub invalid: usize,
    pub violations: usize,
    pub errors: Vec<InputError>,
    pub results: Vec<InsnResult>,
}

fn format_name(f: InputFormat) -> &'static str {
    match f {
        InputFormat::Auto | InputFormat::Asm => "asm",
        InputFormat::Hex => "hex",
        InputFormat::Bin => "bin",
    }
}

/// Decode an instruction stream; instructions with their byte offsets, and the errors.
fn decode_all(bytes: &[u8], p: Platform) -> (Vec<(u64, Insn)>, Vec<InputError>) {
    let mut out = vec![];
    let mut errors = vec![];
    let mut pos = 0usize;
    let mut i = Insn::new(Opcode::Nop);
    while pos < bytes.len() {
        let at = Location {
            line: None,
            column: None,
            offset: Some(pos as u64),
        };
        let len = match bytes[pos..].first_chunk::<8>() {
            Some(first) if is_compact(compact_word(first)) => 8,
            Some(_) => 16,
            None => bytes.len() - pos,
        };
        match bytes.get(pos..pos + len) {
            Some(b) if len >= 8 => match codec::decode_into(b, p, &mut i) {
                Ok(_) => out.push((pos as u64, i.clone())),
                Err(e) => errors.push(InputError {
                    at,
                    message: e.to_string(),
                }),
            },
            _ => {
                errors.push(InputError {
                    at,
                    message: format!(
                        "truncated instruction: {} trailing byte{}",
                        bytes.len() - pos,
                        if bytes.len() - pos == 1 { "" } else { "s" }
                    ),
                });
                break;
            }
        }
        pos += len;
    }
    (out, errors)
}

/// Validate `insns` (with their locations) on `p`, in execution context `ctx`.
pub fn validate_all(insns: &[(Location, Insn)], p: Platform, ctx: ExecContext) -> Vec<InsnResult> {
    let o = PrintOptions {
        dialect: Dialect::Iga,
        platform: p,
    };
    let mut checker = Checker::with_context(ctx);
    insns
        .iter()
        .enumerate()
        .map(|(index, (at, insn))| {
            let violations: Vec<Reported> = checker.check(p, insn).map(Reported::from).collect();
            InsnResult {
                index,
                at: *at,
                text: asm::print_insn(insn, &o),
                valid: violations.is_empty(),
                violations,
            }
        })
        .collect()
}

/// Run `euref validate`.
pub fn run(a: Args) -> Result<ExitCode, String> {
    let platform = parse_gen(&a.gen).map_err(|e| e.to_string())?;
    let shown = a.file.display().to_string();
    let name = if shown == "-" { "<stdin>" } else { &shown };
    let mut data = vec![];
    if shown == "-" {
        std::io::stdin()
            .lock()
            .read_to_end(&mut data)
            .map_err(|e| format!("{name}: {e}"))?;
    } else {
        data = std::fs::read(&a.file).map_err(|e| format!("{name}: {e}"))?;
    }
    let head = &data[..data.len().min(binary::PEEK)];
    let format = match a.input {
        // An explicit syntax says the input is text (assembly, or hex text).
        InputFormat::Auto if a.syntax.is_some() => binary::detect_text(head),
        InputFormat::Auto => binary::detect(head),
        f => f,
    };
    let mut errors = vec![];
    let insns: Vec<(Location, Insn)> = match format {
        InputFormat::Asm | InputFormat::Auto => {
            // Every syntax error is reported; the statements that parse are validated.
            let (prog, errs) = asm::parse_recovering(&data, a.syntax, platform);
            let hint = match a.syntax {
                Some(_) if !errs.is_empty() && binary::detect(head) == InputFormat::Bin => {
                    Some(binary::NOT_TEXT_HINT.to_string())
                }
                Some(d) if !errs.is_empty() => hints::syntax_hint(&data, d),
                _ => None,
            };
            for e in errs {
                errors.push(InputError {
                    at: Location {
                        line: Some(e.line),
                        column: Some(e.col),
                        offset: None,
                    },
                    message: e.msg,
                });
            }
            if let Some(h) = hint {
                note!("{name}: {h}");
            }
            // Located by one line index: constant time per instruction (issue 26).
            let lines = asm::LineIndex::new(&data);
            prog.insns
                .into_iter()
                .zip(prog.lines)
                .map(|(i, l)| {
                    let at = Location {
                        line: Some(l),
                        column: Some(lines.insn_column(l)),
                        offset: None,
                    };
                    (at, i)
                })
                .collect()
        }
        InputFormat::Hex | InputFormat::Bin => {
            let bytes = if format == InputFormat::Hex {
                let mut b = vec![];
                let mut hr = HexReader::new();
                hr.feed(&data, &mut b)
                    .and_then(|_| hr.finish())
                    .map_err(|e| format!("{name}:{e}"))?;
                b
            } else {
                data
            };
            let (insns, errs) = decode_all(&bytes, platform);
            let sample = &bytes[..bytes.len().min(hints::SAMPLE)];
            if let Some(h) =
                hints::platform_hint(sample, platform, insns.len() as u64, errs.len() as u64)
            {
                note!("{name}: {h}");
            }
            errors.extend(errs);
            insns
                .into_iter()
                .map(|(off, i)| {
                    let at = Location {
                        line: None,
                        column: None,
                        offset: Some(off),
                    };
                    (at, i)
                })
                .collect()
        }
    };
    let ctx = ExecContext {
        preemptible: a.preemptible,
        spf: a.spf,
    };
    let results = validate_all(&insns, platform, ctx);
    let invalid = results.iter().filter(|r| !r.valid).count();
    let nviol: usize = results.iter().map(|r| r.violations.len()).sum();
    let mut out = output::stdout();
    let written = if a.json {
        let report = Report {
            file: name.to_string(),
            platform: platform.name(),
            format: format_name(format),
            instructions: results.len(),
            invalid,
            violations: nviol,
            errors,
            results,
        };
        let errs = report.errors.len();
        serde_json::to_writer_pretty(&mut out, &report)
            .map_err(std::io::Error::from)
            .and_then(|_| writeln!(out))
            .map(|_| errs)
    } else {
        let mut s = String::new();
        for e in &errors {
            s.push_str(&format!("{}: error: {}\n", e.at.show(name), e.message));
        }
        for r in results.iter().filter(|r| !r.valid) {
            let loc = r.at.show(name);
            s.push_str(&format!("{loc}: {}\n", r.text));
            for v in &r.violations {
                let src = v.src.map(|k| format!(" (src{k})")).unwrap_or_default();
                s.push_str(&format!(
                    "    {}{src}: {}\n        cite: {}\n",
                    v.rule, v.message, v.cite
                ));
            }
        }
        s.push_str(&format!(
            "{name}: {} instruction{}, {invalid} invalid, {nviol} violation{}{}\n",
            results.len(),
            if results.len() == 1 { "" } else { "s" },
            if nviol == 1 { "" } else { "s" },
            if errors.is_empty() {
                String::new()
            } else {
                format!(
                    ", {} input error{}",
                    errors.len(),
                    if errors.len() == 1 { "" } else { "s" }
                )
            }
        ));
        out.write_all(s.as_bytes()).map(|_| errors.len())
    };
    let input_errors = written.as_ref().map_or(0, |&n| n);
    output::finish(out, written.map(|_| ()))?;
    Ok(if input_errors > 0 {
        ExitCode::from(2)
    } else if invalid > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
