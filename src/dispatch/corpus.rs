//! The converter from a corpus kernel (shared/corpus/kernels/NAME: `io.json`,
//! `genN/layout.json`, `genN/kernel.bin`, `genN/curbe.bin`; its README says what each holds)
//! to a dispatch description.
//!
//! - platform: gen9 -> skl, gen8 -> bdw (the README: Skylake GT2 and Broadwell GT2);
//! - SIMD width, threads per work group, shared bytes and the CURBE register counts from
//!   layout.json; the CURBE bytes from curbe.bin (cross-thread block, then per-thread blocks);
//! - buffer binding k -> binding-table index 2 + k (README; checked against layout.json's
//!   binding table); each binding of `inputs` as a typed array (float32 from `bits_hex` when
//!   given, exact), a binding only in `expected` zero-filled
//!   (`buffers_not_listed_in_inputs_start_zeroed`).

use super::data::Init;
use super::desc::{CurbeFile, DispatchFile, KernelFile, SurfaceFile};
use serde_json::Value;
use std::path::Path;

/// A corpus kernel that cannot be converted: the file and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {what}")]
pub struct CorpusError {
    pub file: String,
    pub what: String,
}

/// The first binding-table index of the buffer bindings (README: binding k is BTI 2 + k).
pub const FIRST_BUFFER_BTI: u32 = 2;

fn read_json(p: &Path) -> Result<Value, CorpusError> {
    let err = |what: String| CorpusError {
        file: p.display().to_string(),
        what,
    };
    let text = std::fs::read_to_string(p).map_err(|e| err(format!("cannot read: {e}")))?;
    serde_json::from_str(&text).map_err(|e| err(format!("not JSON: {e}")))
}

fn dims(v: &Value, key: &str, file: &Path) -> Result<[u32; 3], CorpusError> {
    let bad = || CorpusError {
        file: file.display().to_string(),
        what: format!("`{key}` is not three non-negative integers"),
    };
    let a = v.get(key).and_then(Value::as_array).ok_or_else(bad)?;
    if a.len() != 3 {
        return Err(bad());
    }
    let mut out = [0u32; 3];
    for (o, x) in out.iter_mut().zip(a) {
        *o = x
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(bad)?;
    }
    Ok(out)
}

fn uint(v: &Value, path: &[&str], file: &Path) -> Result<u64, CorpusError> {
    let mut cur = v;
    for k in path {
        cur = cur.get(k).unwrap_or(&Value::Null);
    }
    cur.as_u64().ok_or_else(|| CorpusError {
        file: file.display().to_string(),
        what: format!("`{}` is not a non-negative integer", path.join(".")),
    })
}

/// The platform of a corpus generation folder.
pub fn platform_of(gen: &str) -> Option<&'static str> {
    match gen {
        "gen9" => Some("skl"),
        "gen8" => Some("bdw"),
        _ => None,
    }
}

/// The description of kernel folder `dir` compiled for `gen` (`gen8` or `gen9`); paths in
/// it are absolute.
pub fn describe(dir: &Path, gen: &str) -> Result<DispatchFile, CorpusError> {
    let io_path = dir.join("io.json");
    let layout_path = dir.join(gen).join("layout.json");
    let io = read_json(&io_path)?;
    let layout = read_json(&layout_path)?;
    let lerr = |what: String| CorpusError {
        file: layout_path.display().to_string(),
        what,
    };
    let platform = platform_of(gen).ok_or_else(|| CorpusError {
        file: dir.join(gen).display().to_string(),
        what: format!("unknown generation folder `{gen}` (gen8 or gen9)"),
    })?;
    let simd = uint(&layout, &["simd_width"], &layout_path)? as u32;
    let local_size = dims(&io, "local_size", &io_path)?;
    let threads = uint(&layout, &["threads_per_workgroup"], &layout_path)?;
    let invocations: u64 = local_size.iter().map(|&v| u64::from(v)).product();
    if invocations.div_ceil(u64::from(simd.max(1))) != threads {
        return Err(lerr(format!(
            "threads_per_workgroup {threads} is not ceil({invocations} / SIMD{simd})"
        )));
    }
    let table = layout
        .get("binding_table")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut surfaces: Vec<SurfaceFile> = Vec::new();
    let lists = ["inputs", "expected"];
    for list in lists {
        let items = io
            .get(list)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for (i, b) in items.iter().enumerate() {
            let here = |what: &str| CorpusError {
                file: io_path.display().to_string(),
                what: format!("{list}[{i}]: {what}"),
            };
            let binding = b
                .get("binding")
                .and_then(Value::as_u64)
                .ok_or_else(|| here("no `binding`"))?;
            let bti = FIRST_BUFFER_BTI + binding as u32;
            // layout.json's binding table agrees: set 0, flat index `binding`.
            let row = table
                .iter()
                .find(|r| r.get("bti").and_then(Value::as_u64) == Some(u64::from(bti)));
            let agrees = row.is_some_and(|r| {
                r.get("set").and_then(Value::as_u64) == Some(0)
                    && r.get("index").and_then(Value::as_u64) == Some(binding)
            });
            if !agrees {
                return Err(lerr(format!(
                    "binding table has no set 0 index {binding} entry at BTI {bti}"
                )));
            }
            let size = b
                .get("size_bytes")
                .and_then(Value::as_u64)
                .ok_or_else(|| here("no `size_bytes`"))?;
            if surfaces.iter().any(|s| s.bti == bti) {
                continue;
            }
            let init = if list == "inputs" {
                typed_init(b).map_err(|w| here(&w))?
            } else {
                Init::fill(0)
            };
            surfaces.push(SurfaceFile {
                bti,
                size,
                init: Some(init),
                dtype: b.get("dtype").and_then(Value::as_str).map(str::to_string),
            });
        }
    }
    surfaces.sort_by_key(|s| s.bti);
    let gen_dir = dir.join(gen);
    let regs = |which: &str| uint(&layout, &["push", which, "regs"], &layout_path);
    Ok(DispatchFile {
        kernel: Some(KernelFile {
            file: gen_dir.join("kernel.bin").display().to_string(),
            format: Some("binary".into()),
        }),
        platform: platform.into(),
        simd,
        local_size,
        work_groups: dims(&io, "dispatch_workgroups", &io_path)?,
        surfaces,
        a64_buffers: Vec::new(),
        slm_size: uint(&layout, &["total_shared_bytes"], &layout_path)? as u32,
        curbe: Some(CurbeFile {
            cross_thread_regs: regs("cross_thread")? as u32,
            per_thread_regs: regs("per_thread")? as u32,
            data: Init::file(gen_dir.join("curbe.bin").display().to_string()),
            grf: None,
            per_thread_grf: None,
        }),
        local_ids: None,
        general_state_base: None,
    })
}

/// An `inputs` entry as a typed array (float32 values from `bits_hex` when present).
fn typed_init(b: &Value) -> Result<Init, String> {
    let dtype = b
        .get("dtype")
        .and_then(Value::as_str)
        .ok_or("no `dtype`")?
        .to_string();
    let values = match b.get("bits_hex").and_then(Value::as_array) {
        Some(bits) => bits
            .iter()
            .map(|h| {
                h.as_str()
                    .map(|s| Value::String(format!("0x{}", s.trim_start_matches("0x"))))
                    .ok_or("a `bits_hex` entry is not a string")
            })
            .collect::<Result<Vec<_>, _>>()?,
        None => b
            .get("values")
            .and_then(Value::as_array)
            .cloned()
            .ok_or("no `values`")?,
    };
    Ok(Init::typed(&dtype, values))
}
