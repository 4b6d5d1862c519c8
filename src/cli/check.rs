//! `euref check`: check a simulator against golden vectors.

use super::line_slice;
use super::output;
use super::report::{read_for_resume, restarts_recorded};
use super::shard::Shard;
use euref::conformance::check::{
    describe, run_at as check_run, CheckOptions, Start, Summary, DEFAULT_WINDOW,
};
use euref::conformance::explain::explain;
use euref::conformance::read_ahead::ids_not_in;
use euref::conformance::selection::Selection;
use std::collections::HashSet;
use std::io::{BufRead, IsTerminal, Read, Write};
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The simulator command line (run through `sh -c`), e.g. 'euref sim' or './mysim --euref'.
    /// A response line longer than 4 MiB (4194304 bytes) is `garbage` (the simulator is
    /// restarted): conformance/PROTOCOL.md.
    #[arg(long)]
    pub sim: String,
    /// The vectors (JSON Lines, from `euref golden`; `-` for standard input).
    pub vectors: std::path::PathBuf,
    /// Stream one JSON line per vector to this file.
    #[arg(long)]
    pub report: Option<std::path::PathBuf>,
    /// Skip the vectors already in the report file and append to it. A last line cut off by
    /// an interrupted run is removed first (and said so); a report with a line that is no
    /// report line, a second line for a vector, or a vector not in VECTORS is refused, naming
    /// its lines.
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
    /// Check only the vectors of these opcodes (comma-separated, as in the vectors' `op`:
    /// `mad,sel`, `math`); the others are not sent.
    #[arg(long, value_name = "OPS")]
    pub ops: Option<String>,
    /// Check only the vectors with these ids (comma-separated); the others are not sent.
    #[arg(long, value_name = "IDS")]
    pub id: Option<String>,
    /// Send the vector with this id alone and print the request, the response, expected and
    /// actual registers, every differing element and the spec rows it lists.
    #[arg(long, value_name = "ID", conflicts_with_all = ["report", "resume", "ops", "id"])]
    pub explain: Option<String>,
    /// Program vectors only: reduce each failing program (fail, sim_error, incomplete) by
    /// delta debugging to a small program vector that still fails the same way on the
    /// simulator, and write those (id `<id>-shrunk`) to this file (written whole at the end;
    /// a check where nothing fails writes it empty). At most 2000 simulator requests per
    /// vector: conformance/README.md "Shrinking".
    #[arg(long, value_name = "OUT", conflicts_with = "explain")]
    pub shrink: Option<std::path::PathBuf>,
}

/// Exit code of a check in which nothing failed but some vectors were not fully checked
/// (registers not modelled, features ignored by the simulator).
const EXIT_UNCHECKED: u8 = 3;

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

/// The vector lines to check (all of the file, or `--shard`'s slice of it) and where they
/// start in the file.
fn open_vectors(a: &Args) -> Result<(Box<dyn BufRead + Send>, Start), String> {
    match a.shard {
        // (64 KiB: what the kernel copies in stays in cache until the reader takes its
        // lines.)
        None => Ok((
            Box::new(std::io::BufReader::with_capacity(1 << 16, open_file(a)?)),
            Start::FILE,
        )),
        Some(shard) if is_stdin(a) => Err(format!(
            "--shard {shard}: the vectors are read from standard input, and a shard needs the \
             vector lines counted before it starts: save the vectors to a file first"
        )),
        Some(shard) => {
            let slice = line_slice::find(&a.vectors, shard)?;
            let input = line_slice::open(&a.vectors, &slice)?;
            let start = Start {
                line: slice.first_line,
                byte: slice.bytes.start,
            };
            Ok((Box::new(input), start))
        }
    }
}

/// `--resume`: the summary and the ids of the report at `path`, and the report opened to
/// append to, once it is found to be the report of an interrupted check of these vectors (a
/// cut-off last line removed); refused, naming the lines, when it is not.
#[allow(clippy::type_complexity)]
fn resume(
    a: &Args,
    path: &std::path::Path,
) -> Result<((Summary, HashSet<String>), std::fs::File), String> {
    let name = path.display();
    let resumed = read_for_resume(path)?;
    let ids: HashSet<String> = resumed.ids.keys().cloned().collect();
    if !ids.is_empty() && is_stdin(a) {
        return Err(format!(
            "--resume: {name} already reports vectors, and the vectors are read from standard \
             input, which cannot be read twice (once to see that the report is theirs, once to \
             check the rest): save the vectors to a file and resume with it"
        ));
    }
    if !ids.is_empty() {
        // (The vectors read once more, as the check reads them: which ids it reports.)
        let (input, first) = open_vectors(a)?;
        let unknown = ids_not_in(input, first, &ids)?;
        if !unknown.is_empty() {
            let mut lines: Vec<(u64, &str)> = unknown
                .iter()
                .map(|id| (resumed.ids.get(id).copied().unwrap_or(0), id.as_str()))
                .collect();
            lines.sort_unstable();
            let vectors = match a.shard {
                Some(s) => format!("shard {s} of {}", a.vectors.display()),
                None => a.vectors.display().to_string(),
            };
            let mut e: Vec<String> = lines
                .iter()
                .take(10)
                .map(|(l, id)| format!("{name}:{l}: vector `{id}` is not in {vectors}"))
                .collect();
            if lines.len() > 10 {
                e.push(format!("({} more)", lines.len() - 10));
            }
            return Err(format!(
                "{}\n--resume: {name} reports vectors that {vectors} does not have: it is the \
                 report of other vectors (another file, --shard or version of it). Resume it \
                 with the vectors it was made of, or check afresh without --resume",
                e.join("\n")
            ));
        }
    }
    let f = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| format!("{name}: {e}"))?;
    if let Some((line, bytes)) = resumed.cut {
        // A line cut off by an interrupted run is removed, so that the resumed report is the
        // report of an uninterrupted run, line for line.
        f.set_len(resumed.whole)
            .map_err(|e| format!("{name}: {e}"))?;
        note!(
            "euref: {name}:{line}: the last line was cut off ({bytes} bytes without a line end: \
             the run was stopped while writing it): removed; its vector is checked again"
        );
    }
    let mut summary = resumed.summary;
    summary.restarts = restarts_recorded(&summary);
    Ok(((summary, ids), f))
}

/// Whether the vectors are read from standard input (`-`).
fn is_stdin(a: &Args) -> bool {
    a.vectors.as_os_str() == "-"
}

/// The vectors file, read once from its start (a regular file, a pipe, a named pipe, a
/// device; `-` is standard input).
fn open_file(a: &Args) -> Result<Box<dyn std::io::Read + Send>, String> {
    if is_stdin(a) {
        return Ok(Box::new(std::io::stdin()));
    }
    let f = std::fs::File::open(&a.vectors).map_err(|e| format!("{}: {e}", a.vectors.display()))?;
    Ok(Box::new(f))
}

/// Whether the first line of the vectors is a program vector (then the file is checked as
/// program vectors: [`run_programs`]).
fn starts_with_program(input: &mut Box<dyn BufRead + Send>, a: &Args) -> Result<bool, String> {
    let buf = input
        .fill_buf()
        .map_err(|e| format!("{}: {e}", a.vectors.display()))?;
    let first = buf
        .split(|b| *b == b'\n')
        .find(|l| !l.trim_ascii().is_empty());
    Ok(first.is_some_and(|l| {
        std::str::from_utf8(l).is_ok_and(euref::conformance::read_ahead::is_program_vector)
    }))
}

/// A file of program vectors: each checked and, when it fails, localized
/// (conformance/README.md "Checking program vectors").
fn run_programs(a: &Args, input: Box<dyn BufRead + Send>) -> Result<ExitCode, String> {
    use euref::conformance::program_check::{self, ProgramCheckOptions, ProgramSummary};
    let unsupported = [
        ("--shard", a.shard.is_some()),
        ("--resume", a.resume),
        ("--ops", a.ops.is_some()),
        ("--id", a.id.is_some()),
    ];
    if let Some((name, _)) = unsupported.iter().find(|(_, given)| *given) {
        return Err(format!(
            "{name}: not available for program vectors ({} starts with a program vector); \
             check the whole file",
            a.vectors.display()
        ));
    }
    let mut report: Box<dyn Write> = match &a.report {
        Some(path) => {
            Box::new(std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => Box::new(std::io::sink()),
    };
    let opts = ProgramCheckOptions {
        sim: a.sim.clone(),
        timeout: Duration::from_millis(a.timeout.max(1)),
    };
    let mut summary = ProgramSummary::default();
    let mut out = output::Named::new(std::io::stdout(), output::STDOUT);
    let mut written: std::io::Result<()> = Ok(());
    let mut shown = 0u64;
    // --shrink: the vectors are read twice (checked, then the failing ones shrunk), so they
    // are kept in memory (standard input included).
    let (input, kept): (Box<dyn BufRead + Send>, Option<Vec<u8>>) = match &a.shrink {
        Some(_) => {
            let mut all = Vec::new();
            let mut input = input;
            input
                .read_to_end(&mut all)
                .map_err(|e| format!("{}: {e}", a.vectors.display()))?;
            (Box::new(std::io::Cursor::new(all.clone())), Some(all))
        }
        None => (input, None),
    };
    let mut statuses = Vec::new();
    program_check::run(&opts, input, &mut report, &mut summary, |r| {
        statuses.push(r.status);
        if r.status != "pass" && shown < a.show {
            shown += 1;
            if written.is_ok() {
                written = writeln!(out, "{}\n", program_check::describe(r));
            }
        }
    })?;
    if written.is_ok() {
        written = out.write_all(summary.table().as_bytes());
    }
    if let (Some(path), Some(all)) = (&a.shrink, kept) {
        let mut file = super::atomic_file::AtomicFile::create(path, 1 << 16)?;
        let shrunk = euref::conformance::program_shrink::run(
            &opts,
            std::io::Cursor::new(all),
            &statuses,
            &mut file,
            |line| {
                if written.is_ok() {
                    written = writeln!(out, "{line}");
                }
            },
        )?;
        file.commit()?;
        if written.is_ok() {
            written = writeln!(
                out,
                "shrunk: {} program vectors to {}{}",
                shrunk.shrunk,
                path.display(),
                if shrunk.not_shrunk > 0 {
                    format!(" ({} not shrunk)", shrunk.not_shrunk)
                } else {
                    String::new()
                }
            );
        }
    }
    output::finish(out, written)?;
    Ok(if summary.failed() > 0 {
        ExitCode::from(1)
    } else if summary.unchecked() > 0 {
        ExitCode::from(EXIT_UNCHECKED)
    } else {
        ExitCode::from(0)
    })
}

/// `--explain ID`: the one vector, explained; exit 0 when it passes.
fn run_explain(a: &Args, id: &str) -> Result<ExitCode, String> {
    let input = std::io::BufReader::new(open_file(a)?);
    let e = explain(input, id, &a.sim, Duration::from_millis(a.timeout.max(1)))
        .map_err(|e| format!("{}: {e}", a.vectors.display()))?;
    output::print(e.text.as_bytes())?;
    Ok(match e.outcome.status() {
        "pass" => ExitCode::SUCCESS,
        "unmodelled" | "ignored" => ExitCode::from(EXIT_UNCHECKED),
        _ => ExitCode::from(1),
    })
}

pub fn run(a: Args) -> Result<ExitCode, String> {
    ignore_sigpipe();
    if let Some(id) = &a.explain {
        return run_explain(&a, id);
    }
    let select = Selection {
        skip: Default::default(),
        ops: a.ops.as_deref().map(Selection::parse_ops).transpose()?,
        ids: a.id.as_deref().map(Selection::parse_ids).transpose()?,
    };
    // (Before the report is created or resumed: a shard that cannot be found changes nothing.)
    let (mut input, first) = open_vectors(&a)?;
    if starts_with_program(&mut input, &a)? {
        return run_programs(&a, input);
    }
    if a.shrink.is_some() {
        return Err(format!(
            "--shrink: only for program vectors ({} does not start with a program vector)",
            a.vectors.display()
        ));
    }
    let mut summary = Summary::default();
    let mut skip = HashSet::new();
    let mut report: Box<dyn Write> = match &a.report {
        Some(path) if a.resume && path.exists() => {
            let (resumed, f) = resume(&a, path)?;
            summary = resumed.0;
            skip = resumed.1;
            Box::new(f)
        }
        Some(path) => {
            Box::new(std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => Box::new(std::io::sink()),
    };
    let opts = CheckOptions {
        sim: a.sim.clone(),
        timeout: Duration::from_millis(a.timeout.max(1)),
        window: a.window,
        select: select.clone(),
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
    // The ids asked for with --id that were seen (to name those that are not in the file).
    let mut found = std::collections::HashSet::new();
    // Standard output (line-buffered: failing vectors show as they come). The first failed
    // write is kept and reported after the run (the report file is written either way); a
    // closed pipe (EPIPE: SIGPIPE is ignored here) is no error of the check.
    let mut out = output::Named::new(std::io::stdout(), output::STDOUT);
    let mut written: std::io::Result<()> = Ok(());
    check_run(
        &opts,
        input,
        first,
        &skip,
        &mut report,
        &mut summary,
        |v, o| {
            if let Some(b) = &bar {
                b.inc(1);
            }
            if select.ids.is_some() {
                found.insert(v.id.to_string());
            }
            if o.status() != "pass" {
                if shown < a.show {
                    shown += 1;
                    if written.is_ok() {
                        written = writeln!(out, "{}\n", describe(v, o));
                    }
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
        note!(
            "{n} vectors checked in {secs:.2} s ({})",
            super::progress::rate(n as f64 / secs.max(1e-9))
        );
    }
    let mut s = String::new();
    if hidden > 0 {
        s.push_str(&format!(
            "({hidden} more vectors that did not pass not shown; see the report)\n"
        ));
    }
    if let Some(ids) = &select.ids {
        let mut missing: Vec<&String> = ids
            .iter()
            .filter(|i| !found.contains(*i) && !skip.contains(*i))
            .collect();
        missing.sort();
        if !missing.is_empty() {
            let missing: Vec<&str> = missing.iter().map(|s| s.as_str()).collect();
            s.push_str(&format!(
                "--id: no vector of {} has id {}\n",
                a.vectors.display(),
                missing.join(", ")
            ));
        }
    }
    if written.is_ok() {
        written = out.write_all(s.as_bytes());
    }
    if summary.total == 0 && (select.ops.is_some() || select.ids.is_some()) {
        output::finish(out, written)?;
        let asked: Vec<String> = [("--ops", &a.ops), ("--id", &a.id)]
            .iter()
            .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k} {v}")))
            .collect();
        return Err(format!(
            "no vector of {} matches {}: nothing was checked",
            a.vectors.display(),
            asked.join(" ")
        ));
    }
    if written.is_ok() {
        written = out.write_all(summary.table().as_bytes());
    }
    output::finish(out, written)?;
    Ok(if summary.failed() > 0 {
        ExitCode::from(1)
    } else if summary.unchecked() > 0 {
        ExitCode::from(EXIT_UNCHECKED)
    } else {
        ExitCode::SUCCESS
    })
}
