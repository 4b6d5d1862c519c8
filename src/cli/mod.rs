//! Subcommand implementations of the `euref` binary.

pub mod asm;
pub mod binary;
pub mod check;
pub mod fp;
pub mod golden;
pub mod run;
pub mod sim;
pub mod spec;
pub mod state_diff;
pub mod validate;

/// Arguments of a subcommand that is not built yet: accepts anything so the
/// error message, not clap, explains the situation.
#[derive(clap::Args, Debug)]
pub struct Pending {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    pub rest: Vec<String>,
}

/// A subcommand that a later issue fills in: a clear error and exit status 2.
pub fn pending(name: &str, issue: u32) -> Result<std::process::ExitCode, String> {
    Err(format!(
        "`euref {name}` is not available in this build yet (tracked by issue {issue})"
    ))
}
