//! `euref check`: check a simulator against golden vectors.

use super::line_slice;
use super::report::restarts_recorded;
use super::shard::Shard;
use euref::conformance::check::{
    describe, read_report, run_at as check_run, CheckOptions, Summary, DEFAULT_WINDOW,
};
use std::collections::HashSet;
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The simulator command line (run through `sh -c`), e.g. 'euref sim' or './mysim --euref'.
    #[arg(long)]
    pub sim: String,
    /// The vectors (JSON Lines, from `euref golden`).
    pub vectors: std::path::PathBuf,
    /// Stream one JSON line per vector to this file.
    #[arg(long)]
    pub report: Option<std::path::PathBuf>,
    /// Skip the vectors already in the report file and append to it (a line cut off by an
    /// interrupted run is dropped first).
    #[arg(long, requires = "report")]
    pub resume: bool,
    /// Check only shard K of N (K from 1) of the file's vector lines: the lines
    /// floor((K-1)*lines/N) .. floor(K*lines/N). The N shards' reports, concatenated in
    /// order, are the report of the whole file. Needs a regular file (its lines are counted
    /// first).
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Per-vector timeout in milliseconds.
    #[arg(long, default_value_t = 5000)]
    pub timeout: u64,
    /// Requests in flight (1: one at a time).
    #[arg(long, default_value_t = DEFAULT_WINDOW)]
    pub window: usize,
    /// Print at most this many failing vectors in full (all go to the report).
    #[arg(long, default_value_t = 20)]
    pub show: u64,
}

/// A simulator that exits while requests are still being written to it must not end the
/// checker: `main` restores the default SIGPIPE disposition for every subcommand, the checker
/// ignores it again (the writes then fail with EPIPE, and the crash is reported).
#[cfg(unix)]
fn ignore_sigpipe() {
    // SAFETY: called at the start of the subcommand, before the checker starts any thread;
    // SIG_IGN installs no handler code.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}

#[cfg(not(unix))]
fn ignore_sigpipe() {}

/// The vector lines to check (all of the file, or `--shard`'s slice of it) and the number of
/// their first line in the file.
fn open_vectors(a: &Args) -> Result<(Box<dyn BufRead + Send>, usize), String> {
    match a.shard {
        None => {
            let f = std::fs::File::open(&a.vectors)
                .map_err(|e| format!("{}: {e}", a.vectors.display()))?;
            // (64 KiB: what the kernel copies in stays in cache until the reader takes its
            // lines.)
            Ok((Box::new(std::io::BufReader::with_capacity(1 << 16, f)), 1))
        }
        Some(shard) => {
            let slice = line_slice::find(&a.vectors, shard)?;
            let input = line_slice::open(&a.vectors, &slice)?;
            Ok((Box::new(input), slice.first_line))
        }
    }
}

pub fn run(a: Args) -> Result<ExitCode, String> {
    ignore_sigpipe();
    // (Before the report is created or resumed: a shard that cannot be found changes nothing.)
    let (input, first_line) = open_vectors(&a)?;
    let mut summary = Summary::default();
    let mut skip = HashSet::new();
    let mut report: Box<dyn Write> = match &a.report {
        Some(path) => {
            if a.resume && path.exists() {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                // A line cut off by an interrupted run is dropped (cut from the file), so
                // that the resumed report is the report of an uninterrupted run, line for
                // line (`euref report merge` refuses a cut-off line).
                let whole = text.rfind('\n').map_or(0, |i| i + 1);
                for l in read_report(&text[..whole]) {
                    summary.add(&l);
                    skip.insert(l.id);
                }
                summary.restarts = restarts_recorded(&summary);
                let f = std::fs::OpenOptions::new()
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                if whole < text.len() {
                    f.set_len(whole as u64)
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                }
                Box::new(f)
            } else {
                Box::new(
                    std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?,
                )
            }
        }
        None => Box::new(std::io::sink()),
    };
    let opts = CheckOptions {
        sim: a.sim.clone(),
        timeout: Duration::from_millis(a.timeout.max(1)),
        window: a.window,
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new_spinner();
        b.set_style(super::progress::style(
            "{spinner} {pos} vectors checked {rate} {msg}",
            indicatif::ProgressStyle::default_spinner(),
        ));
        b
    });
    let mut shown = 0u64;
    let mut hidden = 0u64;
    let stdout = std::io::stdout();
    check_run(
        &opts,
        input,
        first_line,
        &skip,
        &mut report,
        &mut summary,
        |v, o| {
            if let Some(b) = &bar {
                b.inc(1);
            }
            if o.status() != "pass" {
                if shown < a.show {
                    shown += 1;
                    let mut s = stdout.lock();
                    let _ = writeln!(s, "{}\n", describe(v, o));
                } else {
                    hidden += 1;
                }
            }
        },
    )?;
    if let Some(b) = bar {
        // On a terminal: the throughput of the run.
        let (n, secs) = (b.position(), b.elapsed().as_secs_f64());
        b.finish_and_clear();
        eprintln!(
            "{n} vectors checked in {secs:.2} s ({})",
            super::progress::rate(n as f64 / secs.max(1e-9))
        );
    }
    // A closed stdout is not an error of the check (SIGPIPE is ignored here).
    let mut s = stdout.lock();
    if hidden > 0 {
        let _ = writeln!(
            s,
            "({hidden} more failing vectors not shown; see the report)"
        );
    }
    let _ = write!(s, "{}", summary.table());
    let _ = s.flush();
    Ok(if summary.failed() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
