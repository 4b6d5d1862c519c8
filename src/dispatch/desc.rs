//! The dispatch description: the JSON document ([`DispatchFile`], serde) and its validated
//! form ([`Dispatch`]). Format and every check: docs/dispatch.md.

use super::data::Init;
use super::error::DescError;
use crate::spec::{payload as rows, Platform};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The JSON document as written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DispatchFile {
    /// The kernel (optional: `euref run KERNEL --dispatch d.json` gives it on the command
    /// line, which takes precedence).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel: Option<KernelFile>,
    /// A platform name or alias of spec/platforms.toml (`skl`, `bdw`, ...).
    pub platform: String,
    /// SIMD width of the kernel: 8, 16 or 32.
    pub simd: u32,
    /// Work-group size in invocations (x, y, z).
    pub local_size: [u32; 3],
    /// Number of work groups (x, y, z).
    pub work_groups: [u32; 3],
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub surfaces: Vec<SurfaceFile>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub a64_buffers: Vec<A64File>,
    /// Shared local memory per work group, bytes.
    #[serde(default)]
    pub slm_size: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub curbe: Option<CurbeFile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_ids: Option<LocalIdsFile>,
    /// The general state base address stateless A32 messages are relative to
    /// (spec/memory.toml mem.stateless.base): a JSON number or a `"0x..."` string; 0 when
    /// absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub general_state_base: Option<serde_json::Value>,
}

/// `kernel`: the program file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KernelFile {
    /// The file (relative paths: from the description's folder).
    pub file: String,
    /// `asm` (assembly text) or `binary` (instruction bytes); by default from the file's
    /// extension (`.bin` binary; `.asm`, `.s`, `.txt` assembly).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
}

/// `surfaces[i]`: a buffer surface at a binding-table index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SurfaceFile {
    pub bti: u32,
    /// Size in bytes (accesses beyond it are out of bounds).
    pub size: u64,
    /// Initial contents of the first bytes; bytes not given are undefined.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init: Option<Init>,
    /// The element type `euref run` prints the final contents in (default: `init`'s `dtype`,
    /// else bytes as hex dwords).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dtype: Option<String>,
}

/// `a64_buffers[i]`: bytes of the flat 64-bit address space.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct A64File {
    /// The first byte's address: a JSON number or a `"0x..."` string.
    pub address: serde_json::Value,
    pub size: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init: Option<Init>,
    /// The element type `euref run` prints the final contents in (default: `init`'s `dtype`,
    /// else bytes as hex dwords).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dtype: Option<String>,
}

/// `curbe`: the push constants of one work group (payload.curbe.* rows).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CurbeFile {
    /// GRFs of the cross-thread block (the same for every thread).
    #[serde(default)]
    pub cross_thread_regs: u32,
    /// GRFs of each thread's per-thread block.
    #[serde(default)]
    pub per_thread_regs: u32,
    /// The bytes: the cross-thread block, then one per-thread block per thread of the group.
    pub data: Init,
    /// First GRF of the cross-thread block (default: the row payload.curbe.cross-thread, g1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grf: Option<u32>,
    /// First GRF of the per-thread block (default: right after the cross-thread block).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_thread_grf: Option<u32>,
}

/// `local_ids`: deliver the lanes' local invocation IDs (row payload.local-ids).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocalIdsFile {
    /// First GRF.
    pub grf: u32,
    /// 1 (x), 2 (x, y) or 3 (x, y, z).
    pub components: u32,
}

/// How the kernel file is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KernelFormat {
    Asm,
    Binary,
}

/// The kernel file's contents ([`Dispatch::load_kernel`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KernelSource {
    /// Assembly text (assembled by the runner as `euref asm` does).
    Asm(String),
    /// Instruction bytes, entry at offset 0.
    Binary(Vec<u8>),
}

/// A validated description.
#[derive(Debug, Clone, PartialEq)]
pub struct Dispatch {
    /// The kernel file and its format, when the description names one.
    pub kernel: Option<PathBuf>,
    pub kernel_format: Option<KernelFormat>,
    pub platform: Platform,
    pub simd: u32,
    pub local_size: [u32; 3],
    pub work_groups: [u32; 3],
    pub surfaces: Vec<Surface>,
    pub a64_buffers: Vec<A64Buffer>,
    pub slm_size: u32,
    pub curbe: Curbe,
    pub local_ids: Option<LocalIds>,
    /// mem.stateless.base (0 unless given).
    pub general_state_base: u64,
}

/// A buffer surface: `init` holds the first bytes (the rest are undefined).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Surface {
    pub bti: u8,
    pub size: u64,
    pub init: Vec<u8>,
    /// The element type to show the contents in.
    pub dtype: Option<String>,
}

/// A range of the A64 address space.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct A64Buffer {
    pub address: u64,
    pub size: u64,
    pub init: Vec<u8>,
    /// The element type to show the contents in.
    pub dtype: Option<String>,
}

/// The CURBE of one work group and where it goes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Curbe {
    pub cross_thread_regs: u32,
    pub per_thread_regs: u32,
    pub cross_thread_grf: u32,
    pub per_thread_grf: u32,
    pub bytes: Vec<u8>,
}

/// Where the local IDs go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalIds {
    pub grf: u32,
    pub components: u32,
}

/// Bytes per GRF register (spec/registers.toml via `values::Grf`).
fn grf_geometry() -> (usize, usize) {
    crate::values::Grf::geometry()
}

impl Dispatch {
    /// Parse and validate a description; relative files are read from `base`.
    pub fn parse(text: &str, base: &Path) -> Result<Dispatch, DescError> {
        let mut de = serde_json::Deserializer::from_str(text);
        let file: DispatchFile = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            let fix = if inner.is_syntax() || inner.is_eof() {
                "fix the JSON syntax there"
            } else {
                "see docs/dispatch.md for the keys and their types"
            };
            DescError {
                path: if path == "." { String::new() } else { path },
                line: Some(inner.line()),
                column: Some(inner.column()),
                what: strip_position(&inner.to_string()),
                fix: fix.into(),
            }
        })?;
        Dispatch::validate(&file, base)
    }

    /// Read, parse and validate the description file `path`.
    pub fn from_path(path: &Path) -> Result<Dispatch, DescError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            DescError::at(
                "",
                format!("cannot read `{}`: {e}", path.display()),
                "give a readable JSON file",
            )
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        Dispatch::parse(&text, base).map_err(|mut e| {
            e.what = format!("{}: {}", path.display(), e.what);
            e
        })
    }

    /// Read the kernel file in its format.
    pub fn load_kernel(&self) -> Result<KernelSource, DescError> {
        let (Some(kernel), Some(format)) = (&self.kernel, self.kernel_format) else {
            return Err(DescError::at(
                "kernel",
                "the description names no kernel",
                "add \"kernel\": {\"file\": ...}, or give the kernel file on the command line",
            ));
        };
        let cannot = |e: std::io::Error| {
            DescError::at(
                "kernel.file",
                format!("cannot read `{}`: {e}", kernel.display()),
                "give a readable kernel file",
            )
        };
        match format {
            KernelFormat::Binary => std::fs::read(kernel)
                .map(KernelSource::Binary)
                .map_err(cannot),
            KernelFormat::Asm => std::fs::read_to_string(kernel)
                .map(KernelSource::Asm)
                .map_err(cannot),
        }
    }

    /// Threads per work group: ceil(invocations / SIMD) (row payload.order.threads).
    pub fn threads_per_group(&self) -> u32 {
        let n: u64 = self.local_size.iter().map(|&v| u64::from(v)).product();
        n.div_ceil(u64::from(self.simd)) as u32
    }

    /// Invocations per work group.
    pub fn group_invocations(&self) -> u64 {
        self.local_size.iter().map(|&v| u64::from(v)).product()
    }

    /// Number of work groups.
    pub fn group_count(&self) -> u64 {
        self.work_groups.iter().map(|&v| u64::from(v)).product()
    }

    /// Work group number `n`'s ID (X fastest, then Y, then Z; row payload.order.threads).
    pub fn group_id(&self, n: u64) -> [u32; 3] {
        let [x, y, _] = self.work_groups.map(|v| u64::from(v.max(1)));
        [(n % x) as u32, ((n / x) % y) as u32, (n / (x * y)) as u32]
    }

    /// Validate the parsed document.
    pub fn validate(f: &DispatchFile, base: &Path) -> Result<Dispatch, DescError> {
        let platform = Platform::parse(&f.platform).ok_or_else(|| {
            DescError::at(
                "platform",
                format!("unknown platform `{}`", f.platform),
                "use ivb, hsw, bdw, chv, skl or bxt (or an alias of spec/platforms.toml)",
            )
        })?;
        if ![8, 16, 32].contains(&f.simd) {
            return Err(DescError::at(
                "simd",
                format!("SIMD width {} is not 8, 16 or 32", f.simd),
                "give the width the kernel was compiled for",
            ));
        }
        for (what, v) in [("local_size", f.local_size), ("work_groups", f.work_groups)] {
            if let Some(i) = v.iter().position(|&x| x == 0) {
                return Err(DescError::at(
                    format!("{what}[{i}]"),
                    "a zero dimension",
                    "every dimension is at least 1",
                ));
            }
        }
        // Counts the model computes with: invocations per group and work groups fit in 32
        // and 64 bits.
        let invocations = f
            .local_size
            .iter()
            .try_fold(1u64, |a, &v| a.checked_mul(u64::from(v)));
        if invocations.map_or(true, |n| n > u64::from(u32::MAX)) {
            return Err(DescError::at(
                "local_size",
                "x*y*z invocations exceed 2^32-1",
                "give a work-group size of fewer invocations",
            ));
        }
        let groups = f
            .work_groups
            .iter()
            .try_fold(1u64, |a, &v| a.checked_mul(u64::from(v)));
        if groups.is_none() {
            return Err(DescError::at(
                "work_groups",
                "x*y*z work groups exceed 2^64-1",
                "give fewer work groups",
            ));
        }
        let (kernel, kernel_format) = match &f.kernel {
            None => (None, None),
            Some(k) => {
                let kernel = base.join(&k.file);
                let format = kernel_format(k)?;
                if !kernel.is_file() {
                    return Err(DescError::at(
                        "kernel.file",
                        format!("`{}` is not a file", kernel.display()),
                        "give the kernel's path (relative paths start at the description's folder)",
                    ));
                }
                (Some(kernel), Some(format))
            }
        };
        let mut surfaces: Vec<Surface> = Vec::new();
        for (i, s) in f.surfaces.iter().enumerate() {
            let path = format!("surfaces[{i}]");
            let Ok(bti) = u8::try_from(s.bti) else {
                return Err(DescError::at(
                    format!("{path}.bti"),
                    format!("binding-table index {} is above 255", s.bti),
                    "use an index 0-255",
                ));
            };
            if let Some(j) = surfaces.iter().position(|o| o.bti == bti) {
                return Err(DescError::at(
                    format!("{path}.bti"),
                    format!("binding-table index {bti} is also surfaces[{j}]"),
                    "give each index once",
                ));
            }
            let init = contents(&s.init, &path, base, s.size)?;
            surfaces.push(Surface {
                bti,
                size: s.size,
                init,
                dtype: show_type(&s.dtype, &s.init, &path)?,
            });
        }
        let mut a64_buffers: Vec<A64Buffer> = Vec::new();
        for (i, b) in f.a64_buffers.iter().enumerate() {
            let path = format!("a64_buffers[{i}]");
            let address = address(&b.address, &format!("{path}.address"))?;
            if b.size == 0 || address.checked_add(b.size - 1).is_none() {
                return Err(DescError::at(
                    format!("{path}.size"),
                    format!(
                        "{} bytes at {address:#x} do not fit the 64-bit space",
                        b.size
                    ),
                    "give a size of at least 1 that ends at or below 0xffffffffffffffff",
                ));
            }
            if let Some(j) = a64_buffers.iter().position(|o| {
                address <= o.address + (o.size - 1) && o.address <= address + (b.size - 1)
            }) {
                return Err(DescError::at(
                    path,
                    format!("overlaps a64_buffers[{j}]"),
                    "give disjoint address ranges",
                ));
            }
            let init = contents(&b.init, &path, base, b.size)?;
            a64_buffers.push(A64Buffer {
                address,
                size: b.size,
                init,
                dtype: show_type(&b.dtype, &b.init, &path)?,
            });
        }
        let mut d = Dispatch {
            kernel,
            kernel_format,
            platform,
            simd: f.simd,
            local_size: f.local_size,
            work_groups: f.work_groups,
            surfaces,
            a64_buffers,
            slm_size: f.slm_size,
            curbe: Curbe::default(),
            local_ids: None,
            general_state_base: match &f.general_state_base {
                Some(v) => address(v, "general_state_base")?,
                None => 0,
            },
        };
        if let Some(c) = &f.curbe {
            d.curbe = curbe(c, &d, base)?;
        } else {
            d.curbe.cross_thread_grf = default_cross_grf(platform);
            d.curbe.per_thread_grf = d.curbe.cross_thread_grf;
        }
        if let Some(l) = &f.local_ids {
            if !(1..=3).contains(&l.components) {
                return Err(DescError::at(
                    "local_ids.components",
                    format!("{} components", l.components),
                    "give 1 (x), 2 (x, y) or 3 (x, y, z)",
                ));
            }
            // payload.local-ids: 16-bit IDs.
            if let Some(i) = d.local_size.iter().position(|&v| v > 1 << 16) {
                return Err(DescError::at(
                    format!("local_size[{i}]"),
                    format!(
                        "{} invocations: local IDs are 16-bit (payload.local-ids)",
                        d.local_size[i]
                    ),
                    "give at most 65536 in each dimension, or leave out `local_ids`",
                ));
            }
            d.local_ids = Some(LocalIds {
                grf: l.grf,
                components: l.components,
            });
        }
        check_placement(&d)?;
        Ok(d)
    }

    /// GRFs of one local-ID component: SIMD 16-bit values, whole registers.
    pub fn local_id_regs(&self) -> u32 {
        let (_, rb) = grf_geometry();
        (self.simd * 2).div_ceil(rb as u32)
    }
}

/// serde_json appends " at line L column C"; the error carries them separately.
fn strip_position(s: &str) -> String {
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_string(),
        None => s.to_string(),
    }
}

/// The element type a buffer is shown in: `dtype`, else its typed `init`'s.
fn show_type(
    dtype: &Option<String>,
    init: &Option<Init>,
    path: &str,
) -> Result<Option<String>, DescError> {
    let Some(t) = dtype else {
        return Ok(init.as_ref().and_then(|i| i.dtype.clone()));
    };
    if super::data::dtype_info(t).is_none() {
        return Err(DescError::at(
            format!("{path}.dtype"),
            format!("unknown element type `{t}`"),
            "use int8, uint8, int16, uint16, int32, uint32, int64, uint64, float32 or float64",
        ));
    }
    Ok(Some(t.clone()))
}

fn kernel_format(k: &KernelFile) -> Result<KernelFormat, DescError> {
    match k.format.as_deref() {
        Some("asm") => Ok(KernelFormat::Asm),
        Some("binary") => Ok(KernelFormat::Binary),
        Some(other) => Err(DescError::at(
            "kernel.format",
            format!("unknown kernel format `{other}`"),
            "use `asm` or `binary`",
        )),
        None => match Path::new(&k.file).extension().and_then(|e| e.to_str()) {
            Some("bin") => Ok(KernelFormat::Binary),
            Some("asm" | "s" | "txt") => Ok(KernelFormat::Asm),
            _ => Err(DescError::at(
                "kernel",
                format!("cannot tell the format of `{}` from its extension", k.file),
                "add \"format\": \"asm\" or \"binary\"",
            )),
        },
    }
}

fn address(v: &serde_json::Value, path: &str) -> Result<u64, DescError> {
    let parsed = match v {
        serde_json::Value::Number(n) => n.as_u64(),
        serde_json::Value::String(s) => s
            .strip_prefix("0x")
            .and_then(|h| u64::from_str_radix(h, 16).ok()),
        _ => None,
    };
    parsed.ok_or_else(|| {
        DescError::at(
            path,
            format!("{v} is not a 64-bit address"),
            "write a non-negative integer or a \"0x...\" hex string",
        )
    })
}

/// Initial bytes of a buffer of `size` bytes (none given: empty, every byte undefined).
fn contents(init: &Option<Init>, path: &str, base: &Path, size: u64) -> Result<Vec<u8>, DescError> {
    let Some(init) = init else {
        return Ok(Vec::new());
    };
    let here = format!("{path}.init");
    let bytes = init.bytes(&here, base, size)?;
    if bytes.len() as u64 > size {
        return Err(DescError::at(
            here,
            format!("{} bytes of contents for a {size}-byte buffer", bytes.len()),
            "give at most `size` bytes, or a larger `size`",
        ));
    }
    Ok(bytes)
}

/// The first CURBE register: the row payload.curbe.cross-thread's `reg` (g1; on Ivy Bridge,
/// without cross-thread data, the per-thread block starts there).
fn default_cross_grf(_p: Platform) -> u32 {
    rows::CURBE_CROSS_THREAD.reg.unwrap_or_default()
}

fn curbe(c: &CurbeFile, d: &Dispatch, base: &Path) -> Result<Curbe, DescError> {
    if c.cross_thread_regs > 0 && rows::CURBE_NO_CROSS_THREAD.gens.contains(d.platform) {
        return Err(DescError::at(
            "curbe.cross_thread_regs",
            format!(
                "{} has no cross-thread CURBE data ({})",
                d.platform.name(),
                rows::CURBE_NO_CROSS_THREAD.id
            ),
            "put every push register in the per-thread block",
        ));
    }
    let threads = u64::from(d.threads_per_group());
    let (count, rb) = grf_geometry();
    for (key, n) in [
        ("cross_thread_regs", c.cross_thread_regs),
        ("per_thread_regs", c.per_thread_regs),
    ] {
        if n as usize >= count {
            return Err(DescError::at(
                format!("curbe.{key}"),
                format!("{n} registers do not fit the {count}-register GRF after r0"),
                "give fewer registers",
            ));
        }
    }
    let rb = rb as u64;
    let want = u64::from(c.cross_thread_regs) * rb + u64::from(c.per_thread_regs) * rb * threads;
    let bytes = c.data.bytes("curbe.data", base, want)?;
    if bytes.len() as u64 != want {
        return Err(DescError::at(
            "curbe.data",
            format!(
                "{} bytes; {} cross-thread and {} per-thread registers for {threads} threads take {want}",
                bytes.len(),
                c.cross_thread_regs,
                c.per_thread_regs
            ),
            "give the cross-thread block then one per-thread block per thread (32 bytes a register)",
        ));
    }
    let cross_thread_grf = c.grf.unwrap_or_else(|| default_cross_grf(d.platform));
    Ok(Curbe {
        cross_thread_regs: c.cross_thread_regs,
        per_thread_regs: c.per_thread_regs,
        cross_thread_grf,
        per_thread_grf: c
            .per_thread_grf
            .unwrap_or(cross_thread_grf + c.cross_thread_regs),
        bytes,
    })
}

/// The payload's register ranges lie in the GRF, after r0, and do not overlap.
fn check_placement(d: &Dispatch) -> Result<(), DescError> {
    let (count, _) = grf_geometry();
    let c = &d.curbe;
    let mut ranges = vec![
        ("curbe.grf", c.cross_thread_grf, c.cross_thread_regs),
        ("curbe.per_thread_grf", c.per_thread_grf, c.per_thread_regs),
    ];
    if let Some(l) = d.local_ids {
        ranges.push(("local_ids.grf", l.grf, l.components * d.local_id_regs()));
    }
    for (i, &(path, start, n)) in ranges.iter().enumerate() {
        if n == 0 {
            continue;
        }
        let end = u64::from(start) + u64::from(n);
        if start == 0 || end > count as u64 {
            return Err(DescError::at(
                path,
                format!(
                    "registers r{start}..r{} are not within r1..r{}",
                    end - 1,
                    count - 1
                ),
                "place the block after r0 (the thread header) and inside the GRF",
            ));
        }
        for &(other, s2, n2) in &ranges[..i] {
            if n2 > 0 && start < s2 + n2 && s2 < start + n {
                return Err(DescError::at(
                    path,
                    format!(
                        "registers r{start}..r{} overlap `{other}` (r{s2}..r{})",
                        end - 1,
                        s2 + n2 - 1
                    ),
                    "give the blocks disjoint registers",
                ));
            }
        }
    }
    Ok(())
}
