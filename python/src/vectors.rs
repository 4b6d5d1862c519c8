//! Golden vectors and the conformance check: `golden` (the lines `euref golden` writes,
//! parsed into dicts) and `check` (the report lines of `euref check`).

use crate::{error, guard, platform};
use euref::conformance::check::{run_at, CheckOptions, Start, Summary, DEFAULT_WINDOW};
use euref::conformance::program_check::{self, ProgramCheckOptions, ProgramSummary};
use euref::conformance::read_ahead::is_program_vector;
use euref::conformance::selection::Selection;
use euref::golden::program::{write_programs, ProgramError};
use euref::golden::template::{self, OpSel};
use euref::golden::{generate_lines, GenConfig};
use euref::spec::DataType;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use std::collections::HashSet;
use std::time::Duration;

/// JSON lines as a list of dicts (Python's `json.loads` of each non-empty line).
fn parse_lines<'py>(py: Python<'py>, text: &[u8]) -> PyResult<Bound<'py, PyList>> {
    let loads = py.import("json")?.getattr("loads")?;
    let out = PyList::empty(py);
    for line in text.split(|&b| b == b'\n') {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let s =
            std::str::from_utf8(line).map_err(|e| error(format!("a line is not UTF-8: {e}")))?;
        out.append(loads.call1((s,))?)?;
    }
    Ok(out)
}

/// The generator's configuration: `ops` and `types` as `euref golden --ops/--types` take them.
fn config(gen: &str, seed: u64, ops: &[String], types: &[String]) -> PyResult<GenConfig> {
    let p = platform(gen)?;
    let mut cfg = GenConfig::new(p, seed);
    if !ops.is_empty() {
        let mut sel: Vec<OpSel> = vec![];
        for o in ops {
            for s in OpSel::parse(o, p).map_err(|e| error(format!("ops: {e}")))? {
                if !sel.contains(&s) {
                    sel.push(s);
                }
            }
        }
        cfg.ops = sel;
    }
    for t in types {
        let ty =
            DataType::from_name(t).ok_or_else(|| error(format!("types: unknown type {t:?}")))?;
        cfg.types.push(ty);
    }
    if !cfg
        .ops
        .iter()
        .any(|&s| !template::usable_types(s, p, &cfg.types).is_empty())
    {
        return Err(error(format!(
            "no vector can be made: no golden template of these opcodes takes these types on {} \
             (euref golden --gen {gen} with the same --ops/--types says which would)",
            p.name()
        )));
    }
    Ok(cfg)
}

/// Golden vectors: `count` single-instruction vectors for `gen` from `seed` (the lines
/// `euref golden --gen GEN --count N --seed S [--ops ..] [--types ..]` writes, as dicts), or
/// with `programs=True` program vectors (`euref golden --programs`).
#[pyfunction]
#[pyo3(signature = (gen, count, seed=0, *, ops=vec![], types=vec![], programs=false))]
pub fn golden<'py>(
    py: Python<'py>,
    gen: &str,
    count: u64,
    seed: u64,
    ops: Vec<String>,
    types: Vec<String>,
    programs: bool,
) -> PyResult<Bound<'py, PyList>> {
    let text = guard(|| {
        if programs {
            if !ops.is_empty() || !types.is_empty() {
                return Err(error("golden: ops and types do not apply to programs=True"));
            }
            let p = platform(gen)?;
            let mut out = vec![];
            py.detach(|| write_programs(p, seed, 0..count, &mut out, |_| {}))
                .map_err(|e| match e {
                    ProgramError::Generate(e) => error(format!("golden programs (a bug): {e}")),
                    ProgramError::Io(e) => error(e.to_string()),
                })?;
            return Ok(out);
        }
        let cfg = config(gen, seed, &ops, &types)?;
        let mut out = vec![];
        py.detach(|| generate_lines(&cfg, count, &mut out, |_, _, _| {}))
            .map_err(|e| error(e.to_string()))?;
        Ok(out)
    })?;
    parse_lines(py, &text)
}

/// The vectors as JSON lines: dicts through `json.dumps`, strings as they are.
fn to_lines(py: Python<'_>, vectors: &Bound<'_, PyAny>) -> PyResult<String> {
    let dumps = py.import("json")?.getattr("dumps")?;
    let kw = PyDict::new(py);
    kw.set_item("separators", (",", ":"))?;
    let mut text = String::new();
    for (k, v) in vectors.try_iter()?.enumerate() {
        let v = v?;
        let line: String = if v.is_instance_of::<PyString>() {
            v.extract()?
        } else if v.is_instance_of::<PyDict>() {
            dumps.call((v,), Some(&kw))?.extract()?
        } else {
            return Err(error(format!(
                "check: vector {k} is neither a dict nor a JSON line (str)"
            )));
        };
        if line.contains('\n') {
            return Err(error(format!("check: vector {k} holds a line end")));
        }
        text.push_str(&line);
        text.push('\n');
    }
    Ok(text)
}

/// Check a simulator (`sim`: a command run through `sh -c` that speaks the conformance protocol,
/// conformance/README.md) against `vectors` (dicts as `golden` gives them, or JSON lines): the
/// report lines of `euref check --report` as dicts (`id`, `op`, `status`, ...), single-
/// instruction and program vectors alike (the first vector says which).
#[pyfunction]
#[pyo3(signature = (vectors, sim, *, timeout_ms=5000))]
pub fn check<'py>(
    py: Python<'py>,
    vectors: &Bound<'py, PyAny>,
    sim: &str,
    timeout_ms: u64,
) -> PyResult<Bound<'py, PyList>> {
    let text = to_lines(py, vectors)?;
    let timeout = Duration::from_millis(timeout_ms.max(1));
    let report = guard(|| {
        let programs = text.lines().next().is_some_and(is_program_vector);
        let mut report: Vec<u8> = vec![];
        py.detach(|| {
            let input = std::io::Cursor::new(text.into_bytes());
            if programs {
                let opts = ProgramCheckOptions {
                    sim: sim.to_string(),
                    timeout,
                };
                let mut summary = ProgramSummary::default();
                program_check::run(&opts, input, &mut report, &mut summary, |_| {})
            } else {
                let opts = CheckOptions {
                    sim: sim.to_string(),
                    timeout,
                    window: DEFAULT_WINDOW,
                    select: Selection::default(),
                };
                let mut summary = Summary::default();
                run_at(
                    &opts,
                    input,
                    Start::FILE,
                    &HashSet::new(),
                    &mut report,
                    &mut summary,
                    |_, _| {},
                )
            }
        })
        .map_err(|e| error(format!("check: {e}")))?;
        Ok(report)
    })?;
    parse_lines(py, &report)
}
