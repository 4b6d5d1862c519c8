//! `euref run [KERNEL] --dispatch d.json` (docs/run.md, "Running a dispatch"): every thread
//! of the described dispatch on one memory ([`euref::dispatch::run`]), then the final buffers
//! typed per the description (undefined elements `??`, inexact ones `~` before the value:
//! spec/memory.toml mem.inexact) and a summary per thread, or all of it as JSON (`--json`,
//! with an `inexact` byte mask per buffer that has an inexact byte); `--trace` puts the trace
//! of every thread first
//! ([`euref::dispatch::trace`]; with `--json` the document's `trace` array).
//!
//! Exit status: 0 every thread ended (EOT or the end of the program); 1 a thread stopped with
//! an error (named with its IP and row), or the kernel does not assemble; 2 an input error
//! (the description, an unreadable kernel).

use super::output;
use euref::asm::{self, Dialect};
use euref::dispatch::data::dtype_info;
use euref::dispatch::desc::KernelSource;
use euref::dispatch::run::{
    self as runner, BufferKind, BufferResult, RunOptions, RunResult, ThreadEnd,
};
use euref::dispatch::trace;
use euref::dispatch::Dispatch;
use euref::exec::{CompressedOverlap, ExecOptions};
use euref::thread::Image;
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

/// What `run` passes on.
pub struct Opts<'a> {
    pub kernel: Option<&'a Path>,
    pub dispatch: &'a Path,
    pub syntax: Option<Dialect>,
    pub json: bool,
    pub lenient: bool,
    pub compressed_overlap: CompressedOverlap,
    pub max_steps: u64,
    /// Print the trace first (docs/run.md, "Tracing a dispatch").
    pub trace: bool,
}

/// The kernel of the command line: `.bin`, or bytes that are not text, are instruction
/// bytes; anything else is assembly text.
fn read_kernel(p: &Path) -> Result<KernelSource, String> {
    let bytes = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
    let binary = p.extension().is_some_and(|e| e == "bin")
        || super::binary::detect(&bytes[..bytes.len().min(super::binary::PEEK)])
            == super::binary::InputFormat::Bin;
    if binary {
        return Ok(KernelSource::Binary(bytes));
    }
    String::from_utf8(bytes)
        .map(KernelSource::Asm)
        .map_err(|e| {
            format!(
                "{}: not UTF-8 text (byte offset {})",
                p.display(),
                e.utf8_error().valid_up_to()
            )
        })
}

/// Assembly text to instruction bytes as `euref asm` makes them; errors as `name:line:col`.
fn assemble(
    name: &str,
    text: &str,
    d: &Dispatch,
    syntax: Option<Dialect>,
) -> Result<Vec<u8>, String> {
    let prog = asm::parse(text.as_bytes(), syntax, d.platform)
        .map_err(|e| format!("{name}:{}:{}: {}", e.line, e.col, e.msg))?;
    let labels = super::binary::defines_labels(text.as_bytes());
    let enc = super::binary::assemble(&prog.insns, &prog.lines, d.platform, false, labels)
        .map_err(|errs| {
            errs.iter()
                .map(|(line, msg)| format!("{name}:{line}: {msg}"))
                .collect::<Vec<_>>()
                .join("\n")
        })?;
    Ok(enc.concat())
}

/// Run the dispatch.
pub fn run(o: Opts) -> Result<ExitCode, String> {
    let d = Dispatch::from_path(o.dispatch).map_err(|e| e.to_string())?;
    let (name, src) = match o.kernel {
        Some(k) => (k.display().to_string(), read_kernel(k)?),
        None => {
            let src = d
                .load_kernel()
                .map_err(|e| format!("{}: {e}", o.dispatch.display()))?;
            let name = d
                .kernel
                .as_ref()
                .map_or(String::new(), |k| k.display().to_string());
            (name, src)
        }
    };
    let bytes = match src {
        KernelSource::Binary(b) => b,
        KernelSource::Asm(text) => match assemble(&name, &text, &d, o.syntax) {
            Ok(b) => b,
            Err(e) => {
                note!("{e}");
                return Ok(ExitCode::from(1));
            }
        },
    };
    let image = Image::new(d.platform, bytes, 0);
    let opts = RunOptions {
        max_steps: o.max_steps,
        exec: ExecOptions {
            strict: !o.lenient,
            compressed_overlap: o.compressed_overlap,
            ..ExecOptions::default()
        },
        trace: o.trace,
    };
    let r = runner::run(&d, &image, &opts).map_err(|e| format!("{}: {e}", o.dispatch.display()))?;
    let out = if o.json {
        let mut s = to_json(&d, &r).to_string();
        s.push('\n');
        s
    } else {
        let mut s = r.trace.as_deref().map_or(String::new(), trace::text);
        s.push_str(&text(&name, &d, &r));
        s
    };
    output::print(out.as_bytes())?;
    for t in &r.threads {
        if let ThreadEnd::Error { ip, message, .. } = &t.end {
            note!(
                "{name}: work group {} thread {}{}: {message}",
                t.group,
                t.thread,
                ip.map_or(String::new(), |ip| format!(" at IP {ip:#x}"))
            );
        }
    }
    Ok(if r.all_ended() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// One element of `bytes` in `dtype` (`None`: a byte is undefined).
fn element(bytes: &[Option<u8>], dtype: &str) -> Option<Value> {
    let mut raw = [0u8; 8];
    for (r, b) in raw.iter_mut().zip(bytes) {
        *r = (*b)?;
    }
    let u = u64::from_le_bytes(raw);
    let n = bytes.len() as u32 * 8;
    let signed = |v: u64| ((v << (64 - n)) as i64) >> (64 - n);
    Some(match dtype {
        "float32" => float(f64::from(f32::from_bits(u as u32))),
        "float64" => float(f64::from_bits(u)),
        t if t.starts_with("int") => json!(signed(u)),
        _ => json!(u),
    })
}

/// A float as a JSON number, or a string when not finite.
fn float(v: f64) -> Value {
    if v.is_finite() {
        json!(v)
    } else {
        json!(v.to_string())
    }
}

/// The elements of a buffer: (type, values), whole elements only.
fn elements(bytes: &[Option<u8>], dtype: Option<&str>) -> (String, Vec<Option<Value>>) {
    let t = dtype.unwrap_or("uint32");
    let size = dtype_info(t).map_or(4, |(s, _)| s);
    let values = bytes
        .chunks_exact(size)
        .map(|c| {
            if dtype.is_none() {
                // Hex dwords.
                element(c, "uint32").map(|v| json!(format!("{:08x}", v.as_u64().unwrap_or(0))))
            } else {
                element(c, t)
            }
        })
        .collect();
    (t.to_string(), values)
}

/// The inexact mask of a buffer as `--json` writes it: `00` (exact) or `ff` (inexact) per
/// byte, like a GRF register's in the state JSON (None: every byte is exact).
fn inexact_hex(b: &BufferResult) -> Option<String> {
    b.inexact.contains(&true).then(|| {
        b.inexact
            .iter()
            .map(|&x| if x { "ff" } else { "00" })
            .collect()
    })
}

/// The legend line of the text output when an element is marked inexact.
const INEXACT_LEGEND: &str = "~ inexact: the model's value, computed from an approximate math \
     result (math.inexact) and stored by a message with an inexact payload or read from \
     inexact memory (mem.inexact); hardware may store another value within the bound";

fn hex(bytes: &[Option<u8>]) -> String {
    bytes
        .iter()
        .map(|b| b.map_or("??".to_string(), |v| format!("{v:02x}")))
        .collect()
}

fn buffer_info(d: &Dispatch, k: BufferKind) -> (String, Option<&str>) {
    match k {
        BufferKind::Surface { index, bti, .. } => (
            format!("surfaces[{index}] bti {bti}"),
            d.surfaces[index].dtype.as_deref(),
        ),
        BufferKind::A64 { index, address } => (
            format!("a64_buffers[{index}] at {address:#x}"),
            d.a64_buffers[index].dtype.as_deref(),
        ),
    }
}

fn end_text(e: &ThreadEnd) -> String {
    match e {
        ThreadEnd::Eot => "EOT".into(),
        ThreadEnd::EndOfImage => "end of program (no EOT)".into(),
        ThreadEnd::Error { ip, row, .. } => format!(
            "error{}{}",
            ip.map_or(String::new(), |ip| format!(" at IP {ip:#x}")),
            row.as_ref().map_or(String::new(), |r| format!(" [{r}]"))
        ),
    }
}

/// The text output: buffers, then threads.
fn text(name: &str, d: &Dispatch, r: &RunResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{name}: {} work group(s) of {} thread(s), SIMD{} on {}",
        d.group_count(),
        d.threads_per_group(),
        d.simd,
        d.platform.name()
    );
    let mut any_inexact = false;
    for b in &r.buffers {
        let (what, dtype) = buffer_info(d, b.kind);
        let (t, values) = elements(&b.bytes, dtype);
        let shown = if dtype.is_some() {
            t.as_str()
        } else {
            "hex dwords"
        };
        let undefined = b.bytes.iter().filter(|x| x.is_none()).count();
        let inexact = b.inexact.iter().filter(|&&x| x).count();
        let _ = writeln!(
            out,
            "{what}: {} bytes as {shown}, {undefined} undefined byte(s){}",
            b.bytes.len(),
            if inexact > 0 {
                format!(", {inexact} inexact byte(s)")
            } else {
                String::new()
            }
        );
        any_inexact |= inexact > 0;
        let size = dtype_info(&t).map_or(4, |(s, _)| s);
        for (row, chunk) in values.chunks(8).enumerate() {
            let _ = write!(out, "  [{:4}]", row * 8);
            for (k, v) in chunk.iter().enumerate() {
                let e = (row * 8 + k) * size;
                let s = match v {
                    None => "??".to_string(),
                    Some(v) => {
                        // mem.inexact: `~` before an element with an inexact byte.
                        let mark = if b.range_inexact(e..e + size) {
                            "~"
                        } else {
                            ""
                        };
                        match v {
                            Value::String(s) => format!("{mark}{s}"),
                            v => format!("{mark}{v}"),
                        }
                    }
                };
                let _ = write!(out, " {s:>11}");
            }
            out.push('\n');
        }
    }
    if any_inexact {
        let _ = writeln!(out, "{INEXACT_LEGEND}");
    }
    out.push_str("threads:\n");
    for t in &r.threads {
        let [x, y, z] = t.group_id;
        let _ = writeln!(
            out,
            "  group {} ({x},{y},{z}) thread {}  dmask {:#010x}  {} steps  {}",
            t.group,
            t.thread,
            t.dmask,
            t.steps,
            end_text(&t.end)
        );
    }
    out
}

/// Everything as JSON.
fn to_json(d: &Dispatch, r: &RunResult) -> Value {
    let buffers: Vec<Value> = r
        .buffers
        .iter()
        .map(|b| {
            let (_, dtype) = buffer_info(d, b.kind);
            let (t, values) = elements(&b.bytes, dtype);
            let mut v = match b.kind {
                BufferKind::Surface { index, bti, base } => {
                    json!({"kind": "surface", "index": index, "bti": bti, "base": format!("{base:#x}")})
                }
                BufferKind::A64 { index, address } => {
                    json!({"kind": "a64", "index": index, "address": format!("{address:#x}")})
                }
            };
            v["size"] = json!(b.bytes.len());
            v["hex"] = json!(hex(&b.bytes));
            if let Some(m) = inexact_hex(b) {
                v["inexact"] = json!(m);
            }
            if dtype.is_some() {
                v["dtype"] = json!(t);
                v["values"] = Value::Array(values.into_iter().map(|x| x.unwrap_or(Value::Null)).collect());
            }
            v
        })
        .collect();
    let threads: Vec<Value> = r
        .threads
        .iter()
        .map(|t| {
            let mut v = json!({
                "group": t.group, "group_id": t.group_id, "thread": t.thread,
                "dmask": t.dmask, "steps": t.steps,
            });
            match &t.end {
                ThreadEnd::Eot => v["end"] = json!("eot"),
                ThreadEnd::EndOfImage => v["end"] = json!("end_of_program"),
                ThreadEnd::Error { ip, row, message } => {
                    v["end"] = json!("error");
                    v["ip"] = json!(ip);
                    v["row"] = json!(row);
                    v["message"] = json!(message);
                }
            }
            v
        })
        .collect();
    let mut v = json!({"platform": d.platform.name(), "simd": d.simd, "buffers": buffers, "threads": threads});
    if let Some(t) = &r.trace {
        v["trace"] = Value::Array(trace::json_items(t));
    }
    v
}
