//! `euref report merge`: the reports of several `euref check` runs (the shards of one run:
//! `euref check --shard K/N --report rK.jsonl`) merged into the summary an unsharded check
//! prints (the same [`Summary`], filled from the report lines as `--resume` fills it), and
//! optionally into one report file, their lines in the order given.
//!
//! A merge refuses, naming the file and line: a line that is no report line (a cut-off last
//! line of an interrupted run included: `--resume` drops it), and an id that an earlier line
//! already had (the same shard given twice, or reports of different runs).

use euref::conformance::check::{ReportLine, Summary};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Merge the reports of `euref check` runs (e.g. of its shards) into one summary, the
    /// table an unsharded check prints. Exit status 0 when every vector passed, 1 otherwise,
    /// 2 on a damaged line or an id reported twice.
    Merge(MergeArgs),
}

#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// Report files of `euref check --report`, in shard order.
    #[arg(required = true, value_name = "REPORT")]
    pub reports: Vec<PathBuf>,
    /// Also write the merged report (the lines of the inputs, in the order given) here.
    #[arg(short = 'o', long)]
    pub output: Option<PathBuf>,
}

/// The report statuses after which `euref check` restarted the simulator, once per vector
/// (src/conformance/check.rs: a timeout, a crash, an answer that is no response to the
/// vector): the restarts a report records, which its lines do not carry otherwise.
const RESTART_STATUSES: [&str; 3] = ["timeout", "crash", "garbage"];

/// The simulator restarts recorded in the report lines counted in `summary`.
pub fn restarts_recorded(summary: &Summary) -> u64 {
    RESTART_STATUSES
        .iter()
        .filter_map(|s| summary.by_status.get(*s))
        .sum()
}

pub fn run(a: Args) -> Result<ExitCode, String> {
    match a.command {
        Command::Merge(m) => merge_command(m),
    }
}

fn merge_command(a: MergeArgs) -> Result<ExitCode, String> {
    let summary = match &a.output {
        None => merge(&a.reports, &mut std::io::sink())?,
        Some(path) => {
            for r in &a.reports {
                if same_file(r, path) {
                    return Err(format!(
                        "-o {}: that is one of the reports to merge (it would be overwritten): \
                         write the merged report to another file",
                        path.display()
                    ));
                }
            }
            let f = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut out = std::io::BufWriter::new(f);
            let merged = merge(&a.reports, &mut out).and_then(|s| {
                out.flush()
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                Ok(s)
            });
            if merged.is_err() {
                // (No half-merged report is left behind.)
                drop(out);
                let _ = std::fs::remove_file(path);
            }
            merged?
        }
    };
    super::output::print(summary.table().as_bytes())?;
    Ok(if summary.failed() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Whether `a` and `b` name the same existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Where an id was first seen: the report's index and the line.
type Seen = HashMap<String, (usize, u64)>;

/// One line of a report file, as [`each_line`] reads it.
enum Line<'a> {
    /// A whole line without its line end (`\n`, and a `\r` before it): its text, or the
    /// 1-based byte of the line that is not UTF-8; and its length with the line end.
    Whole(Result<&'a str, usize>, usize),
    /// A last line without a line end, as a run stopped while writing leaves it: its length.
    Cut(usize),
}

/// Call `f` with the number (from 1) and the content of each line of the report at `path`.
fn each_line(
    path: &Path,
    mut f: impl FnMut(u64, Line) -> Result<(), String>,
) -> Result<(), String> {
    let name = path.display();
    let file = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
    let mut r = BufReader::with_capacity(1 << 16, file);
    let (mut buf, mut line_no) = (Vec::new(), 0u64);
    loop {
        buf.clear();
        let n = r
            .read_until(b'\n', &mut buf)
            .map_err(|e| format!("{name}:{}: {e}", line_no + 1))?;
        if n == 0 {
            return Ok(());
        }
        line_no += 1;
        let line = match buf.strip_suffix(b"\n") {
            None => Line::Cut(n),
            Some(body) => {
                let body = body.strip_suffix(b"\r").unwrap_or(body);
                Line::Whole(
                    std::str::from_utf8(body).map_err(|e| e.valid_up_to() + 1),
                    n,
                )
            }
        };
        f(line_no, line)?;
    }
}

/// Read the reports in order into one summary, writing each line (its line end `\n`) to `out`.
pub fn merge(reports: &[PathBuf], out: &mut dyn Write) -> Result<Summary, String> {
    let mut summary = Summary::default();
    let mut seen = Seen::new();
    for (index, path) in reports.iter().enumerate() {
        let name = path.display();
        each_line(path, |line_no, line| {
            let at = format!("{name}:{line_no}");
            let text = match line {
                Line::Cut(_) => {
                    return Err(format!(
                        "{at}: the last line is cut off (no line end), as an interrupted `euref \
                         check` leaves it: finish that run with `--resume` (which drops the \
                         cut-off line) before merging"
                    ))
                }
                Line::Whole(Err(byte), _) => {
                    return Err(format!(
                        "{at}: not UTF-8 (byte {byte} of the line): not a report of `euref \
                         check`"
                    ))
                }
                Line::Whole(Ok(text), _) => text,
            };
            if text.trim().is_empty() {
                return Ok(());
            }
            let l = parse_line(text).map_err(|e| {
                format!("{at}:{e}; merge the files that `euref check --report` wrote")
            })?;
            if let Some(&(first, first_line)) = seen.get(&l.id) {
                return Err(format!(
                    "{at}: vector `{}` is already reported at {}:{first_line}: each shard's \
                     report must be given once, and all of them from one run (the same \
                     vectors and --shard N)",
                    l.id,
                    reports[first].display()
                ));
            }
            summary.add(&l);
            out.write_all(text.as_bytes())
                .and_then(|()| out.write_all(b"\n"))
                .map_err(|e| format!("merged report: {e}"))?;
            seen.insert(l.id, (index, line_no));
            Ok(())
        })?;
    }
    summary.settle();
    summary.restarts = restarts_recorded(&summary);
    Ok(summary)
}

/// What `euref check --resume` takes from the report it resumes.
#[derive(Debug, Default)]
pub struct Resumed {
    /// The results of the report's lines (without its restarts: [`restarts_recorded`]).
    pub summary: Summary,
    /// The ids reported, each with its line.
    pub ids: HashMap<String, u64>,
    /// The bytes of the report's whole lines: where the resumed run appends.
    pub whole: u64,
    /// A last line cut off (no line end, as a run stopped while writing leaves it): its
    /// number and length; it is to be removed.
    pub cut: Option<(u64, usize)>,
}

/// Damaged lines named at most before a resume is refused.
const DAMAGE_SHOWN: usize = 10;

/// Read the report of `euref check` at `path` for `--resume`: every whole line must be a
/// report line of a vector not reported before; a last line without a line end (cut off) is
/// noted to be removed. Refused, naming each damaged line (file:line, at most 10) and what
/// to do: a line that is no report line, or a second line for an id.
pub fn read_for_resume(path: &Path) -> Result<Resumed, String> {
    let name = path.display();
    let mut got = Resumed::default();
    let mut damaged = Vec::new();
    let mut more = 0usize;
    each_line(path, |line_no, line| {
        let (text, n) = match line {
            Line::Cut(n) => {
                got.cut = Some((line_no, n));
                return Ok(());
            }
            Line::Whole(text, n) => (text, n),
        };
        got.whole += n as u64;
        let at = format!("{name}:{line_no}");
        let problem = match text {
            Err(byte) => Some(format!(
                "{at}: byte {byte} of the line is not UTF-8: not a report line of `euref check`"
            )),
            Ok(text) if text.trim().is_empty() => None,
            Ok(text) => match parse_line(text) {
                Err(e) => Some(format!("{at}:{e}")),
                Ok(l) => match got.ids.get(&l.id) {
                    Some(first) => Some(format!(
                        "{at}: vector `{}` is reported again (first on line {first}): a report \
                         has one line per vector",
                        l.id
                    )),
                    None => {
                        got.summary.add(&l);
                        got.ids.insert(l.id, line_no);
                        None
                    }
                },
            },
        };
        if let Some(p) = problem {
            if damaged.len() < DAMAGE_SHOWN {
                damaged.push(p);
            } else {
                more += 1;
            }
        }
        Ok(())
    })?;
    if damaged.is_empty() {
        return Ok(got);
    }
    if more > 0 {
        damaged.push(format!("({more} more damaged lines)"));
    }
    Err(format!(
        "{}\n--resume: {name} is damaged: it is not the report of an interrupted run. Delete \
         or mend the lines named (the vectors they were for are then checked again), or check \
         afresh without --resume",
        damaged.join("\n")
    ))
}

/// A report line, or `COLUMN: what is wrong` (serde's message without its position).
fn parse_line(text: &str) -> Result<ReportLine, String> {
    serde_json::from_str::<ReportLine>(text).map_err(|e| {
        let msg = e.to_string();
        let msg = msg
            .rsplit_once(" at line ")
            .map_or(msg.as_str(), |(m, _)| m)
            .to_string();
        format!("{}: not a report line of `euref check` ({msg})", e.column())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_damaged_line_is_named_by_file_line_and_column() {
        let e = parse_line("{\"id\":\"a\",\"op\":\"add\"}").unwrap_err();
        assert!(e.starts_with("21: not a report line"), "{e}");
        assert!(e.contains("missing field `status`"), "{e}");
        let e = parse_line("{\"id\":\"a\",").unwrap_err();
        assert!(e.starts_with("10: not a report line"), "{e}");
        let l = parse_line(r#"{"id":"a","op":"add","status":"pass","rules":["x"]}"#).unwrap();
        assert_eq!((l.id.as_str(), l.status.as_str()), ("a", "pass"));
    }
}
