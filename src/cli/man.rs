//! `euref man [SUBCOMMAND] [--dir D]`: manual pages in roff, generated from the same clap
//! definitions as the command line itself (clap_mangen): the page of `euref` (every
//! subcommand, with a pointer to its page), the page of one subcommand (`euref-asm(1)`: its
//! synopsis and every option), or all of them written to a folder (`euref.1`, `euref-asm.1`,
//! ...). Read one with `euref man asm | man -l -`.

use super::atomic_file::AtomicFile;
use super::output;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The subcommand whose page to print (default: the page of euref itself).
    pub subcommand: Option<String>,
    /// Write every page (euref.1 and one per subcommand: euref-asm.1, ...) to this folder
    /// (created if missing) instead of printing one.
    #[arg(long, conflicts_with = "subcommand")]
    pub dir: Option<PathBuf>,
}

/// The pages: (file name, roff text) for `euref` and each visible subcommand of `cmd`.
pub fn pages(mut cmd: clap::Command) -> std::io::Result<Vec<(String, Vec<u8>)>> {
    // Built: each subcommand then knows its display name (`euref-asm`) and its usage line.
    cmd.build();
    let mut out = Vec::new();
    // (Not clap's `help` subcommand, which `euref help SUBCOMMAND` answers.)
    let subs = cmd
        .get_subcommands()
        .filter(|c| !c.is_hide_set() && c.get_name() != "help");
    for c in std::iter::once(&cmd).chain(subs) {
        out.push((format!("{}.1", page_name(c)), page(c)?));
    }
    Ok(out)
}

/// The page name of a built command: `euref`, `euref-asm`.
fn page_name(c: &clap::Command) -> String {
    c.get_display_name().unwrap_or(c.get_name()).to_string()
}

/// The roff page of one built command.
fn page(c: &clap::Command) -> std::io::Result<Vec<u8>> {
    let mut text = Vec::new();
    clap_mangen::Man::new(c.clone()).render(&mut text)?;
    Ok(text)
}

fn write_all(dir: &Path, cmd: clap::Command) -> Result<(), String> {
    let shown = |e: std::io::Error| format!("{}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(shown)?;
    for (name, text) in pages(cmd).map_err(|e| format!("rendering the pages: {e}"))? {
        // Each page whole or not at all (super::atomic_file).
        let path = dir.join(&name);
        let mut f = AtomicFile::create(&path, 1 << 16)?;
        let r = f.write_all(&text);
        output::settle(r, &path.display().to_string())?;
        f.commit()?;
    }
    Ok(())
}

pub fn run(a: Args, mut cmd: clap::Command) -> Result<ExitCode, String> {
    if let Some(dir) = &a.dir {
        write_all(dir, cmd)?;
        return Ok(ExitCode::SUCCESS);
    }
    cmd.build();
    let c = match &a.subcommand {
        None => &cmd,
        Some(s) => cmd.find_subcommand(s).ok_or_else(|| {
            let names: Vec<&str> = cmd
                .get_subcommands()
                .filter(|c| !c.is_hide_set())
                .map(|c| c.get_name())
                .collect();
            format!(
                "`euref man {s}`: no such subcommand (one of: {})",
                names.join(", ")
            )
        })?,
    };
    let text = page(c).map_err(|e| format!("rendering the page: {e}"))?;
    output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// Whether the roff text names option `--long`: clap_mangen writes a dash as `\-`.
    fn names_option(roff: &str, long: &str) -> bool {
        roff.contains(&format!("\\-\\-{}", long.replace('-', "\\-")))
            || roff.contains(&format!("--{long}"))
    }

    #[test]
    fn each_subcommands_page_names_every_option() {
        let cmd = crate::Cli::command();
        let pages = pages(cmd.clone()).unwrap();
        let mut checked = 0;
        for sub in cmd.get_subcommands().filter(|c| !c.is_hide_set()) {
            let file = format!("euref-{}.1", sub.get_name());
            let (_, text) = pages
                .iter()
                .find(|(n, _)| *n == file)
                .unwrap_or_else(|| panic!("no page {file}"));
            let text = String::from_utf8_lossy(text);
            for arg in sub.get_arguments().filter(|a| !a.is_hide_set()) {
                if let Some(long) = arg.get_long() {
                    assert!(names_option(&text, long), "{file} lacks --{long}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 30, "{checked} options checked");
    }

    #[test]
    fn the_main_page_names_every_subcommand() {
        let cmd = crate::Cli::command();
        let pages = pages(cmd.clone()).unwrap();
        assert_eq!(pages[0].0, "euref.1");
        let text = String::from_utf8_lossy(&pages[0].1);
        for sub in cmd.get_subcommands().filter(|c| !c.is_hide_set()) {
            assert!(
                text.contains(&format!("euref\\-{}(1)", sub.get_name()))
                    || text.contains(&format!("euref-{}(1)", sub.get_name())),
                "euref.1 lacks {}",
                sub.get_name()
            );
        }
        // One page per visible subcommand, and the main page.
        let subs = cmd.get_subcommands().filter(|c| !c.is_hide_set()).count();
        assert_eq!(pages.len(), subs + 1);
    }
}
