//! `euref golden`: generate golden vectors (JSON Lines) for one platform.

use super::atomic_file::AtomicFile;
use super::output;
use super::progress;
use super::shard::Shard;
use euref::golden::coverage::Coverage;
use euref::golden::program::{write_programs_threads_covered, ProgramCoverage, ProgramError};
use euref::golden::template::{self, OpSel};
use euref::golden::{generate_in, generate_lines_in, GenConfig};
use euref::spec::{DataType, Platform};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// Bytes of output buffer: less than a piece of generated lines (`golden::PIECE` vectors).
const OUT_BUFFER: usize = 64 * 1024;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Platform: ivb, hsw, bdw, chv, skl, bxt (or gen7, gen7.5, gen8, gen9).
    #[arg(long = "gen")]
    pub gen: String,
    /// Opcodes (comma-separated; `math` = every math function, `math.sin` one). Default: all
    /// with a template.
    #[arg(long, value_delimiter = ',')]
    pub ops: Vec<String>,
    /// Data types to use (comma-separated: f,df,hf,d,ud,w,uw,b,ub,q,uq). Default: all.
    #[arg(long, value_delimiter = ',')]
    pub types: Vec<String>,
    /// Number of vectors.
    #[arg(long, default_value_t = 50_000)]
    pub count: u64,
    /// Seed (decimal or 0x-hex): the same seed gives the same bytes.
    #[arg(long, default_value = "0")]
    pub seed: String,
    /// Output file (default: stdout). Written to a temporary file beside it
    /// (.FILE.XXXXXX.partial) and renamed to FILE when complete: a failed run leaves FILE as it
    /// was; a killed one (SIGKILL) also leaves the temporary file behind.
    #[arg(short = 'o', long)]
    pub output: Option<std::path::PathBuf>,
    /// Print what the set covers and misses (to stderr when the vectors go to stdout); with
    /// --shard, what the shard's vectors cover.
    #[arg(long)]
    pub coverage: bool,
    /// Write only shard K of N (K from 1): vectors floor((K-1)*count/N) .. floor(K*count/N)
    /// of the run, byte for byte as the unsharded run writes them. The N shards' files,
    /// concatenated in order, are the unsharded file.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Write program vectors instead of single-instruction ones: each line (`"kind":
    /// "program"`) is a random, valid, terminating program (ALU blocks, nested if/else/endif,
    /// while loops with per-channel trip counts, break and cont, halt, call/ret and uniform
    /// jmpi (Haswell+), goto/join (Gen8+), untyped reads, writes and atomics on one surface
    /// and on the SLM (Haswell+; dword scattered reads and writes on Ivy Bridge)) with its initial registers and memory, the final registers
    /// and memory the reference model gives (undefined and inexact marks), the number of
    /// executed instructions and a trace digest (conformance/README.md "Program vectors").
    /// Takes --gen, --count, --seed, -o, --shard and --coverage (control-flow coverage:
    /// divergence depth, channels off at each kind of branch, loop trip counts, instructions
    /// and messages under partial masks).
    #[arg(long, conflicts_with_all = ["ops", "types"])]
    pub programs: bool,
    /// With --programs: the threads (1 to 4) that run each program as one work group, with
    /// the SLM and surface shared, a barrier and race-free memory accesses (each thread
    /// writes only its own region; the SLM is read anywhere only after the barrier), so the
    /// final state does not depend on the order the threads run in (conformance/README.md
    /// "Several threads").
    #[arg(long, requires = "programs", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=4))]
    pub threads: u32,
}

fn parse_seed(s: &str) -> Result<u64, String> {
    let r = match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16),
        None => s.parse(),
    };
    r.map_err(|_| format!("--seed: `{s}` is not a number"))
}

/// Type names as `--types` spells them.
fn type_list(ts: &[DataType]) -> String {
    let names: Vec<String> = ts.iter().map(|t| t.name().to_ascii_lowercase()).collect();
    names.join(", ")
}

/// An error when no opcode of the selection can make a vector with the `--types` on the
/// platform ([`template::usable_types`] is empty for each): what the selection is, and what
/// would work instead (the types these opcodes take on this platform, the platforms where they
/// take the given types).
fn empty_selection(a: &Args, cfg: &GenConfig) -> Result<(), String> {
    let p = cfg.platform;
    if cfg
        .ops
        .iter()
        .any(|&s| !template::usable_types(s, p, &cfg.types).is_empty())
    {
        return Ok(());
    }
    let ops = if a.ops.is_empty() {
        "every opcode".to_string()
    } else {
        format!("--ops {}", a.ops.join(","))
    };
    let mut here: Vec<DataType> = cfg
        .ops
        .iter()
        .flat_map(|&s| template::usable_types(s, p, &[]))
        .collect();
    here.sort_by_key(|&t| t as usize);
    here.dedup();
    // The platforms where the same --ops (as named) take one of the types.
    let elsewhere: Vec<&str> = Platform::ALL
        .iter()
        .filter(|&&q| q != p)
        .filter(|&&q| {
            let sels: Vec<OpSel> = if a.ops.is_empty() {
                template::default_ops(q)
            } else {
                a.ops
                    .iter()
                    .filter_map(|o| OpSel::parse(o, q).ok())
                    .flatten()
                    .collect()
            };
            sels.iter()
                .any(|&s| !template::usable_types(s, q, &cfg.types).is_empty())
        })
        .map(|q| q.name())
        .collect();
    let given = if cfg.types.is_empty() {
        "every type".to_string()
    } else {
        format!("--types {}", type_list(&cfg.types))
    };
    let mut msg = format!(
        "no vector can be made: {ops} with {given} on {} (no golden template of these \
         opcodes takes these types on this platform)",
        p.name()
    );
    if !here.is_empty() {
        msg.push_str(&format!(
            "; on {} they take --types {}",
            p.name(),
            type_list(&here)
        ));
    }
    if !elsewhere.is_empty() {
        msg.push_str(&format!(
            "; with {given} they make vectors on --gen {}",
            elsewhere.join(", ")
        ));
    }
    Err(msg)
}

/// `--programs`: program vectors `indices` of the run to the output, as the
/// single-instruction vectors go (a file whole or not at all, or stdout).
fn run_programs(a: &Args, p: Platform, seed: u64) -> Result<ExitCode, String> {
    let indices = a.shard.map_or(0..a.count, |s| s.range(a.count));
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(indices.end - indices.start);
        b.set_style(progress::style(
            "{spinner} {bar:40} {pos}/{len} programs {rate} eta {eta}",
            indicatif::ProgressStyle::default_bar(),
        ));
        b
    });
    let step = |n: u64| {
        if let Some(b) = &bar {
            b.inc(n);
        }
    };
    let bug = |e: String| format!("euref golden --programs: {e}");
    let mut cov = ProgramCoverage::default();
    let range = indices.clone();
    match &a.output {
        Some(path) => {
            let mut f = AtomicFile::create(path, OUT_BUFFER)?;
            match write_programs_threads_covered(
                p, seed, a.threads, indices, &mut f, step, &mut cov,
            ) {
                Ok(_) => f.commit()?,
                Err(ProgramError::Io(e)) => return Err(output::describe(&e, f.name())),
                Err(ProgramError::Generate(e)) => return Err(bug(e)),
            }
        }
        None => {
            let mut s = output::Named::new(
                std::io::BufWriter::with_capacity(OUT_BUFFER, std::io::stdout().lock()),
                output::STDOUT,
            );
            match write_programs_threads_covered(
                p, seed, a.threads, indices, &mut s, step, &mut cov,
            ) {
                Ok(_) => output::finish(s, Ok(()))?,
                Err(ProgramError::Io(e)) => {
                    // (A closed pipe where SIGPIPE is ignored: quietly done.)
                    output::finish(s, Err(e))?;
                    return Ok(ExitCode::SUCCESS);
                }
                Err(ProgramError::Generate(e)) => return Err(bug(e)),
            }
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if a.coverage {
        let mut r = cov.report(p.name());
        if let Some(s) = a.shard {
            r.insert_str(
                0,
                &format!(
                    "shard {s}: programs {}..{} of {} only (the whole set's coverage: the same \
                     command without --shard)\n",
                    range.start, range.end, a.count
                ),
            );
        }
        if a.output.is_none() {
            note_text!("{r}");
        } else {
            output::print(r.as_bytes())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Where the vectors go.
enum Out {
    File(AtomicFile),
    Stdout(output::Stdout),
}

pub fn run(a: Args) -> Result<ExitCode, String> {
    let p =
        Platform::parse(&a.gen).ok_or_else(|| format!("--gen: unknown platform `{}`", a.gen))?;
    let seed = parse_seed(&a.seed)?;
    if a.programs {
        return run_programs(&a, p, seed);
    }
    let mut cfg = GenConfig::new(p, seed);
    if !a.ops.is_empty() {
        let mut ops: Vec<OpSel> = Vec::new();
        for o in &a.ops {
            for s in OpSel::parse(o, p).map_err(|e| format!("--ops: {e}"))? {
                if !ops.contains(&s) {
                    ops.push(s);
                }
            }
        }
        cfg.ops = ops;
    }
    for t in &a.types {
        let ty = DataType::from_name(t).ok_or_else(|| format!("--types: unknown type `{t}`"))?;
        cfg.types.push(ty);
    }
    // Before anything is written: a selection of which no vector can be made is an error.
    empty_selection(&a, &cfg)?;
    let indices = a.shard.map_or(0..a.count, |s| s.range(a.count));
    let len = indices.end - indices.start;
    let to_stdout = a.output.is_none();
    // (The generator hands over pieces of about 800 KB: a buffer smaller than that passes them
    // through without a copy and gathers only the short pieces of small selections.)
    // A file appears whole or not at all (super::atomic_file).
    let mut out = match &a.output {
        Some(path) => Out::File(AtomicFile::create(path, OUT_BUFFER)?),
        None => Out::Stdout(output::Named::new(
            std::io::BufWriter::with_capacity(OUT_BUFFER, std::io::stdout().lock()),
            output::STDOUT,
        )),
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(len);
        b.set_style(progress::style(
            "{spinner} {bar:40} {pos}/{len} vectors {rate} eta {eta}",
            indicatif::ProgressStyle::default_bar(),
        ));
        b
    });
    let mut cov = Coverage::default();
    let want_cov = a.coverage;
    let progress = |n: u64| {
        if let Some(b) = &bar {
            b.inc(n);
        }
    };
    let started = std::time::Instant::now();
    let w: &mut dyn Write = match &mut out {
        Out::File(f) => f,
        Out::Stdout(s) => s,
    };
    let stats = if want_cov {
        generate_in(&cfg, indices.clone(), w, |chunk| {
            for v in chunk.iter().flatten() {
                cov.add(v);
            }
            progress(chunk.len() as u64);
        })
    } else {
        generate_lines_in(&cfg, indices.clone(), w, |_, n, _| progress(n))
    };
    // On any error the temporary file is dropped (removed): no partial file is left.
    let stats = match out {
        Out::File(f) => {
            let stats = stats.map_err(|e| output::describe(&e, f.name()))?;
            f.commit()?;
            stats
        }
        Out::Stdout(s) => match stats {
            Ok(stats) => {
                output::finish(s, Ok(()))?;
                stats
            }
            Err(e) => {
                // (A closed pipe where SIGPIPE is ignored: quietly done.)
                output::finish(s, Err(e))?;
                return Ok(ExitCode::SUCCESS);
            }
        },
    };
    if let Some(b) = bar {
        b.finish_and_clear();
        // On a terminal (where the progress bar was): the generation throughput.
        let secs = started.elapsed().as_secs_f64();
        note!(
            "euref golden: {} vectors in {secs:.2} s ({})",
            stats.written,
            progress::rate(stats.written as f64 / secs.max(1e-9))
        );
    }
    if stats.skipped > 0 {
        note!(
            "euref golden: {} of {} indices produced no vector (no template fits the --types/--ops selection)",
            stats.skipped, len
        );
    }
    if stats.rejected > 0 && want_cov {
        note!(
            "euref golden: {} built instructions were refused by the validator and rebuilt",
            stats.rejected
        );
    }
    if want_cov {
        let mut r = cov.report(p, &cfg.ops);
        if let Some(s) = a.shard {
            // (A shard's coverage is of its own vectors; the whole set's is the unsharded
            // run's.)
            r.insert_str(
                0,
                &format!(
                    "shard {s}: vectors {}..{} of {} only (the whole set's coverage: the same \
                     command without --shard)\n",
                    indices.start, indices.end, a.count
                ),
            );
        }
        if to_stdout {
            note_text!("{r}");
        } else {
            output::print(r.as_bytes())?;
        }
    }
    let _ = template::SUPPORTED;
    Ok(ExitCode::SUCCESS)
}
