//! The `euref` command line.

use clap::{CommandFactory, Parser, Subcommand};
use std::process::ExitCode;

/// A line on standard error that never panics: `eprintln!` panics when the write fails (a
/// closed or full standard error, `2>/dev/full`), and a message about something else must not
/// turn into a crash (issue 26). A failed write of a message is dropped: there is nowhere left
/// to report it.
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

/// [`note!`] without the line end.
macro_rules! note_text {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr().lock(), $($arg)*);
    }};
}

mod cli;
// The unit tests' random source, shared with the library's unit tests.
#[cfg(test)]
#[path = "test_rng.rs"]
mod test_rng;

/// euref: executable, spec-first reference model of the Intel GEN (Gen7-Gen9) EU ISA.
#[derive(Parser, Debug)]
#[command(name = "euref", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the spec tables (Markdown with citations, or JSON).
    Spec(cli::spec::Args),
    /// Assemble text to text, or to binary (-o, --hex).
    Asm(cli::asm::AsmArgs),
    /// Disassemble raw binary, hex text or assembly text (streaming for binary input).
    Disasm(cli::asm::DisasmArgs),
    /// Validate a program against every restriction in spec/rules.
    Validate(cli::validate::Args),
    /// Run a program (with SIMD control flow) on a thread state and print the final state.
    Run(cli::run::Args),
    /// Generate golden test vectors.
    Golden(cli::golden::Args),
    /// Check a simulator against golden vectors.
    Check(cli::check::Args),
    /// Work with check reports: `report merge` merges shards' reports into one summary.
    Report(cli::report::Args),
    /// Act as a simulator speaking the conformance protocol.
    Sim(cli::sim::Args),
    /// TestFloat-style floating-point subject (operands on stdin, results on stdout).
    Fp(cli::fp::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(cli::completions::Args),
    /// Print the man page of euref or of one subcommand (roff), or write them all to a folder.
    Man(cli::man::Args),
}

/// Let a closed output pipe end the process quietly, as Unix tools do (`euref disasm big.bin |
/// head`), instead of `println!` panicking on EPIPE: Rust starts programs with SIGPIPE ignored.
#[cfg(unix)]
fn default_sigpipe() {
    // SAFETY: called first thing in `main`, before any other thread exists; `signal` with
    // SIG_DFL installs no handler code, it only restores the default disposition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn default_sigpipe() {}

fn main() -> ExitCode {
    // (First, and in a small function: nothing before the check may use the instructions
    // it checks for.)
    if let Err(e) = cli::cpu::check() {
        note!("euref: error: {e}");
        return ExitCode::from(2);
    }
    run()
}

#[inline(never)]
fn run() -> ExitCode {
    default_sigpipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // --help, --version, `euref help ...`: on standard output, a failed write reported as
        // every command's is (src/cli/output.rs).
        Err(e) if !e.use_stderr() => {
            use std::io::IsTerminal;
            let text = e.render();
            let text = if std::io::stdout().is_terminal() {
                text.ansi().to_string()
            } else {
                text.to_string()
            };
            return match cli::output::print(text.as_bytes()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    note!("euref: error: {e}");
                    ExitCode::from(2)
                }
            };
        }
        Err(e) => e.exit(),
    };
    let result = match cli.command {
        Command::Spec(a) => cli::spec::run(a),
        Command::Asm(a) => cli::asm::run_asm(a),
        Command::Disasm(a) => cli::asm::run_disasm(a),
        Command::Validate(a) => cli::validate::run(a),
        Command::Run(a) => cli::run::run(a),
        Command::Golden(a) => cli::golden::run(a),
        Command::Check(a) => cli::check::run(a),
        Command::Report(a) => cli::report::run(a),
        Command::Sim(a) => cli::sim::run(a),
        Command::Fp(a) => cli::fp::run(a),
        Command::Completions(a) => cli::completions::run(a, Cli::command()),
        Command::Man(a) => cli::man::run(a, Cli::command()),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            note!("euref: error: {e}");
            ExitCode::from(2)
        }
    }
}
