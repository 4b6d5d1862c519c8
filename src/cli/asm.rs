//! `euref asm` and `euref disasm`: text to text for now (binary encodings arrive with issue
//! 6). The input is parsed in one of the three dialects (auto-detected unless `--syntax` is
//! given) and printed in the canonical form of the output dialect (IGA style by default).

use euref::asm::{self, Dialect, PrintOptions};
use euref::gen::parse_gen;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Input assembly file (`-` for standard input).
    pub file: PathBuf,
    /// Input syntax: iga, prm or mesa (default: detected from the text).
    #[arg(long, value_parser = parse_dialect)]
    pub syntax: Option<Dialect>,
    /// Output syntax: iga, prm or mesa.
    #[arg(long = "out-syntax", value_parser = parse_dialect, default_value = "iga")]
    pub out_syntax: Dialect,
    /// Platform: 7, 7.5, 8, 9, ivb, hsw, bdw, chv, skl, bxt (branch offset units, opcode
    /// availability).
    #[arg(long, default_value = "skl")]
    pub gen: String,
}

fn parse_dialect(s: &str) -> Result<Dialect, String> {
    s.parse()
}

/// Run `euref asm` / `euref disasm`.
pub fn run(a: Args) -> Result<ExitCode, String> {
    let platform = parse_gen(&a.gen).map_err(|e| e.to_string())?;
    let shown = a.file.display().to_string();
    let mut text = Vec::new();
    if shown == "-" {
        std::io::stdin()
            .read_to_end(&mut text)
            .map_err(|e| format!("<stdin>: {e}"))?;
    } else {
        text = std::fs::read(&a.file).map_err(|e| format!("{shown}: {e}"))?;
    }
    let prog = match asm::parse(&text, a.syntax, platform) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{shown}:{}:{}: {}", e.line, e.col, e.msg);
            return Ok(ExitCode::from(1));
        }
    };
    let out = asm::print_program(
        &prog.insns,
        &PrintOptions {
            dialect: a.out_syntax,
            platform,
        },
    );
    let mut stdout = std::io::stdout().lock();
    // A closed pipe (e.g. `euref asm f | head`) is not an error worth reporting.
    let _ = stdout.write_all(out.as_bytes());
    Ok(ExitCode::SUCCESS)
}
