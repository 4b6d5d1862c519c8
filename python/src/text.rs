//! Text and binary: `assemble`, `disassemble`, `validate`.

use crate::{error, guard, platform};
use euref::asm::{self, Dialect, PrintOptions};
use euref::codec;
use euref::isa::Insn;
use euref::spec::Platform;
use euref::validate::Checker;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

/// The dialect a `syntax` argument names (None: detected from the text).
fn dialect(syntax: Option<&str>) -> PyResult<Option<Dialect>> {
    syntax
        .map(|s| s.parse::<Dialect>().map_err(error))
        .transpose()
}

/// Parse assembly text; the first error as `line:column: message`.
fn parse(text: &str, syntax: Option<&str>, p: Platform) -> PyResult<asm::Program> {
    asm::parse(text.as_bytes(), dialect(syntax)?, p).map_err(|e| error(e.to_string()))
}

/// Assemble `text` for `gen`: the instruction bytes (16 per native instruction, 8 per
/// compacted one; `compact=True` compacts every instruction that has a compact form, as
/// `euref asm --compact`).
#[pyfunction]
#[pyo3(signature = (text, gen, *, syntax=None, compact=false))]
pub fn assemble<'py>(
    py: Python<'py>,
    text: &str,
    gen: &str,
    syntax: Option<&str>,
    compact: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let bytes = guard(|| {
        let p = platform(gen)?;
        let prog = parse(text, syntax, p)?;
        let labels = asm::defines_labels(text.as_bytes());
        let enc = codec::program::assemble(&prog.insns, &prog.lines, p, compact, labels).map_err(
            |errs| {
                let msgs: Vec<String> = errs
                    .iter()
                    .map(|(line, msg)| {
                        let col = asm::insn_column(asm::line_of(text.as_bytes(), *line));
                        format!("{line}:{col}: {msg}")
                    })
                    .collect();
                error(msgs.join("\n"))
            },
        )?;
        Ok(enc.concat())
    })?;
    Ok(PyBytes::new(py, &bytes))
}

/// Decode `bytes` into instructions with their byte offsets; the first error names its offset.
fn decode_all(bytes: &[u8], p: Platform) -> PyResult<Vec<(usize, Insn)>> {
    let mut out = vec![];
    let mut pos = 0;
    while pos < bytes.len() {
        match codec::decode(&bytes[pos..], p) {
            Ok((insn, n)) => {
                out.push((pos, insn));
                pos += n;
            }
            Err(e) => return Err(error(format!("byte offset {pos:#x}: {e}"))),
        }
    }
    Ok(out)
}

/// Disassemble instruction bytes for `gen`: one text per instruction (IGA syntax unless
/// `syntax` says `mesa` or `prm`).
#[pyfunction]
#[pyo3(signature = (data, gen, *, syntax=None))]
pub fn disassemble(data: &[u8], gen: &str, syntax: Option<&str>) -> PyResult<Vec<String>> {
    guard(|| {
        let p = platform(gen)?;
        let o = PrintOptions {
            dialect: dialect(syntax)?.unwrap_or(Dialect::Iga),
            platform: p,
        };
        let insns = decode_all(data, p)?;
        Ok(insns.iter().map(|(_, i)| asm::print_insn(i, &o)).collect())
    })
}

/// One violation of a rule of spec/rules.
struct Found {
    index: usize,
    line: Option<u32>,
    offset: Option<usize>,
    text: String,
    rule: &'static str,
    message: &'static str,
    cite: &'static str,
    src: Option<usize>,
    undefined: &'static str,
}

/// Validate a program (assembly text, or instruction bytes) against every restriction of
/// spec/rules: one dict per violation (`index`, `line` or `offset`, `text`, `rule`, `message`,
/// `cite`, `src`, `undefined`); an empty list when the program is valid.
#[pyfunction]
#[pyo3(signature = (program, gen, *, syntax=None))]
pub fn validate<'py>(
    py: Python<'py>,
    program: &Bound<'py, PyAny>,
    gen: &str,
    syntax: Option<&str>,
) -> PyResult<Bound<'py, PyList>> {
    let found = guard(|| {
        let p = platform(gen)?;
        let located: Vec<(Option<u32>, Option<usize>, Insn)> =
            if let Ok(text) = program.extract::<String>() {
                let prog = parse(&text, syntax, p)?;
                prog.insns
                    .into_iter()
                    .enumerate()
                    .map(|(k, i)| (prog.lines.get(k).copied(), None, i))
                    .collect()
            } else if let Ok(bytes) = program.extract::<Vec<u8>>() {
                decode_all(&bytes, p)?
                    .into_iter()
                    .map(|(at, i)| (None, Some(at), i))
                    .collect()
            } else {
                return Err(error(
                    "validate: the program must be assembly text (str) or instruction bytes",
                ));
            };
        let o = PrintOptions {
            dialect: Dialect::Iga,
            platform: p,
        };
        let mut checker = Checker::new();
        let mut found = vec![];
        for (index, (line, offset, insn)) in located.iter().enumerate() {
            for v in checker.check(p, insn) {
                found.push(Found {
                    index,
                    line: *line,
                    offset: *offset,
                    text: asm::print_insn(insn, &o),
                    rule: v.rule.id,
                    message: v.rule.msg,
                    cite: v.rule.cite,
                    src: v.src,
                    undefined: v.rule.undefined,
                });
            }
        }
        Ok(found)
    })?;
    let out = PyList::empty(py);
    for f in found {
        let d = PyDict::new(py);
        d.set_item("index", f.index)?;
        if let Some(l) = f.line {
            d.set_item("line", l)?;
        }
        if let Some(o) = f.offset {
            d.set_item("offset", o)?;
        }
        d.set_item("text", f.text)?;
        d.set_item("rule", f.rule)?;
        d.set_item("message", f.message)?;
        d.set_item("cite", f.cite)?;
        d.set_item("src", f.src)?;
        d.set_item("undefined", f.undefined)?;
        out.append(d)?;
    }
    Ok(out)
}
