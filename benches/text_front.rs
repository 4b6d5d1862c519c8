//! The assembly-text front end of `euref run` and `euref validate` (issue 26: their time was
//! quadratic in the number of instructions): wall time per instruction of
//! - `run/<n>`: `euref run FILE` on a straight-line program of n instructions (the 12
//!   instructions of examples/kernels/saxpy.asm repeated, comments removed);
//! - `validate/<n>`: `euref validate --gen skl FILE` on the same program (all valid);
//! - `validate_errors/<n>`: `euref validate --gen skl FILE` on n lines that each fail to parse
//!   (every error is located: line and column);
//!
//! at n = 10k, 100k and 1M. Flat per-instruction times show linear cost. Each sample is one
//! process; the time of the same command on an empty file (process start, tables) is measured
//! first and subtracted. At 1k the work (about a millisecond) is within the noise of starting
//! a process on a loaded machine, so the commands start at 10k, and the `in_process` groups
//! measure the same steps without a process at n = 1k, 10k, 100k and 1M:
//! - `in_process_run/<n>`: what `euref run` does per instruction: parse the text, index its
//!   lines (`asm::LineIndex`), then per instruction its column, the static rules
//!   (`validate::check_insn`) and the execution (`exec::step_with`, strict);
//! - `in_process_validate/<n>`: `asm::parse_recovering`, the line index, and per instruction
//!   its column, `validate::Checker` and the printed text;
//! - `in_process_errors/<n>`: `asm::parse_recovering` of n bad lines (each error located).
//!
//! `cargo bench --bench text_front`. Environment:
//! - `EUREF_BIN`: the euref binary to measure (default: the one built with this bench), e.g.
//!   an older build for a before/after comparison;
//! - `EUREF_TEXT_BENCH_MAX`: the largest n to measure (default 1000000; the quadratic code of
//!   before issue 26 needs minutes from 100k on).
//!
//! The figures of issue 26 (before the fix: its binary through `EUREF_BIN`) were taken with
//! thin LTO instead of the release profile's fat LTO, to keep the two builds short on a shared
//! machine: `CARGO_PROFILE_BENCH_LTO=thin CARGO_PROFILE_BENCH_CODEGEN_UNITS=16 cargo bench
//! --bench text_front`.

use criterion::{
    black_box, criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use euref::asm::{self, Dialect, PrintOptions};
use euref::exec::{self, ExecOptions};
use euref::spec::Platform;
use euref::state::ThreadState;
use euref::validate::{check_insn, Checker};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SIZES: [usize; 4] = [1_000, 10_000, 100_000, 1_000_000];

fn exe() -> PathBuf {
    std::env::var_os("EUREF_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_euref")))
}

fn max_size() -> usize {
    std::env::var("EUREF_TEXT_BENCH_MAX")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(usize::MAX)
}

/// The example kernel's instruction lines, comments removed.
fn kernel_lines() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/kernels/saxpy.asm");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| l.split("//").next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// A program of `n` lines cycling through `lines`.
fn program(lines: &[String], n: usize) -> String {
    let mut s = String::with_capacity(n * 48);
    for l in lines.iter().cycle().take(n) {
        s.push_str(l);
        s.push('\n');
    }
    s
}

/// Wall time of one run of euref with `args` (the exit status is checked: `ok` lists the
/// accepted ones).
fn time_once(args: &[&str], ok: &[i32]) -> Duration {
    let start = Instant::now();
    let status = Command::new(exe())
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("euref runs");
    let t = start.elapsed();
    assert!(
        status.code().is_some_and(|c| ok.contains(&c)),
        "euref {args:?}: {status}"
    );
    t
}

/// The median of 9 runs.
fn median(args: &[&str], ok: &[i32]) -> Duration {
    let mut v: Vec<Duration> = (0..9).map(|_| time_once(args, ok)).collect();
    v.sort();
    v[4]
}

/// A line that fails to parse (an unknown operand).
const BAD_LINE: &str = "add (16|M0) r1.0<1>:f r2.0<8;8,1>:f oops";

/// A command measured in a process.
struct Cmd {
    group: &'static str,
    /// The arguments before the file.
    args: &'static [&'static str],
    /// The exit statuses it may end with.
    ok: &'static [i32],
    /// Whether its input is [`BAD_LINE`] repeated (else the example kernel's lines).
    bad_lines: bool,
}

const CMDS: [Cmd; 3] = [
    Cmd {
        group: "run",
        args: &["run"],
        ok: &[0],
        bad_lines: false,
    },
    Cmd {
        group: "validate",
        args: &["validate", "--gen", "skl"],
        ok: &[0],
        bad_lines: false,
    },
    Cmd {
        group: "validate_errors",
        args: &["validate", "--gen", "skl"],
        ok: &[2],
        bad_lines: true,
    },
];

/// The work of a command measured in this process.
struct Steps {
    group: &'static str,
    f: fn(&[u8]) -> usize,
    /// Whether its input is [`BAD_LINE`] repeated (else the example kernel's lines).
    bad_lines: bool,
}

const STEPS: [Steps; 3] = [
    Steps {
        group: "in_process_run",
        f: run_steps,
        bad_lines: false,
    },
    Steps {
        group: "in_process_validate",
        f: validate_steps,
        bad_lines: false,
    },
    Steps {
        group: "in_process_errors",
        f: validate_steps,
        bad_lines: true,
    },
];

fn bench(c: &mut Criterion) {
    let dir = tempfile::Builder::new()
        .prefix("euref-text-front-")
        .tempdir()
        .unwrap();
    let lines = kernel_lines();
    let empty = dir.path().join("empty.asm");
    std::fs::write(&empty, "").unwrap();
    let e = empty.to_str().unwrap();
    let bad = vec![BAD_LINE.to_string()];
    for Cmd {
        group,
        args: pre,
        ok,
        bad_lines,
    } in CMDS
    {
        let pattern = if bad_lines { &bad } else { &lines };
        // Process start and the work that does not depend on the program (the empty file is
        // accepted by both commands).
        let base = median(&[pre, &[e]].concat(), &[0]);
        eprintln!("{group}: the empty file takes {base:?} (subtracted)");
        let mut g = c.benchmark_group(group);
        g.sampling_mode(SamplingMode::Flat)
            .sample_size(10)
            .warm_up_time(Duration::from_millis(1))
            .measurement_time(Duration::from_millis(1));
        for n in SIZES
            .into_iter()
            .filter(|&n| (10_000..=max_size()).contains(&n))
        {
            let file = dir.path().join(format!("{group}-{n}.asm"));
            std::fs::write(&file, program(pattern, n)).unwrap();
            let args = [pre, &[file.to_str().unwrap()]].concat();
            g.throughput(Throughput::Elements(n as u64));
            g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
                b.iter_custom(|iters| {
                    (0..iters)
                        .map(|_| time_once(&args, ok).saturating_sub(base))
                        .sum()
                })
            });
            let _ = std::fs::remove_file(&file);
        }
        g.finish();
    }
}

/// What `euref run` does with a program text, without the process and the output.
fn run_steps(text: &[u8]) -> usize {
    let p = Platform::Skl;
    let prog = asm::parse(text, Some(Dialect::Iga), p).expect("the program parses");
    let lines = asm::LineIndex::new(text);
    let mut st = ThreadState::new(p);
    let opts = ExecOptions {
        strict: true,
        ..ExecOptions::default()
    };
    let mut cols = 0usize;
    for (insn, &line) in prog.insns.iter().zip(&prog.lines) {
        cols += lines.insn_column(line) as usize;
        assert!(check_insn(p, insn).is_empty());
        exec::step_with(&mut st, insn, &opts).expect("the instruction executes");
    }
    cols
}

/// What `euref validate` does with a text, without the process and the output.
fn validate_steps(text: &[u8]) -> usize {
    let p = Platform::Skl;
    let (prog, errors) = asm::parse_recovering(text, Some(Dialect::Iga), p);
    let lines = asm::LineIndex::new(text);
    let o = PrintOptions {
        dialect: Dialect::Iga,
        platform: p,
    };
    let mut checker = Checker::new();
    let mut n = errors.len();
    for (insn, &line) in prog.insns.iter().zip(&prog.lines) {
        n += lines.insn_column(line) as usize;
        n += checker.check(p, insn).count();
        n += asm::print_insn(insn, &o).len();
    }
    n
}

fn in_process(c: &mut Criterion) {
    let lines = kernel_lines();
    let bad = vec![BAD_LINE.to_string()];
    for Steps {
        group,
        f,
        bad_lines,
    } in STEPS
    {
        let pattern = if bad_lines { &bad } else { &lines };
        let mut g = c.benchmark_group(group);
        g.sampling_mode(SamplingMode::Flat)
            .sample_size(10)
            .warm_up_time(Duration::from_millis(200))
            .measurement_time(Duration::from_secs(2));
        for n in SIZES.into_iter().filter(|&n| n <= max_size()) {
            let text = program(pattern, n).into_bytes();
            g.throughput(Throughput::Elements(n as u64));
            g.bench_with_input(BenchmarkId::from_parameter(n), &text, |b, t| {
                b.iter(|| f(black_box(t)))
            });
        }
        g.finish();
    }
}

criterion_group!(benches, in_process, bench);
criterion_main!(benches);
