//! `euref completions SHELL`: a completion script for the shell, generated from the same clap
//! definitions as the command line itself (clap_complete), so it always offers the current
//! subcommands and options.
//!
//! Install, for example: `euref completions bash > ~/.local/share/bash-completion/completions/euref`,
//! `euref completions zsh > ~/.zfunc/_euref`, `euref completions fish >
//! ~/.config/fish/completions/euref.fish`.

use super::output;
use clap_complete::Shell;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The shell: bash, zsh, fish, elvish or powershell.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// The completion script of `cmd` (the whole `euref` command line) for `shell`.
pub fn script(shell: Shell, mut cmd: clap::Command) -> Vec<u8> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "euref", &mut out);
    out
}

pub fn run(a: Args, cmd: clap::Command) -> Result<ExitCode, String> {
    let text = script(a.shell, cmd);
    output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, ValueEnum};

    /// Every visible subcommand of the command line, from its clap definition.
    fn subcommands() -> Vec<String> {
        crate::Cli::command()
            .get_subcommands()
            .filter(|c| !c.is_hide_set())
            .map(|c| c.get_name().to_string())
            .collect()
    }

    /// Whether `w` occurs in `text` as a word of its own (not inside `disasm` for `asm`).
    fn has_word(text: &str, w: &str) -> bool {
        let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        text.match_indices(w).any(|(i, _)| {
            !word(text[..i].chars().next_back()) && !word(text[i + w.len()..].chars().next())
        })
    }

    #[test]
    fn every_shell_script_names_every_subcommand() {
        let subs = subcommands();
        assert!(subs.len() >= 11, "{subs:?}");
        for &shell in Shell::value_variants() {
            let text = String::from_utf8(script(shell, crate::Cli::command())).unwrap();
            for s in &subs {
                assert!(has_word(&text, s), "{shell:?} script lacks `{s}`");
            }
        }
    }
}
