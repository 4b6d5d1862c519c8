//! The program vector: one JSON line per program (conformance/README.md "Program vectors"),
//! its initial state and memory, and what running it on the reference model gives.

use super::coverage::{ProgramCoverage, StepRecord};
use super::generator::{self, Program};
use super::templates::{self, APPROX, APPROX_REGS, BTI, DATA, DATA_REGS, SURFACE_SIZE};
use crate::exec::ExecOptions;
use crate::golden::values::{self, Rng};
use crate::memory::{Memory, Surface};
use crate::spec::registers::field::{SR0_2_DMASK, SR0_3_VMASK};
use crate::spec::{DataType, Platform};
use crate::state::ThreadState;
use crate::thread::{Image, Thread};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The `kind` of a program vector (single-instruction vectors have no `kind` key).
pub const KIND: &str = "program";

/// Version of the program vector format (the `v` key of a program vector).
pub const PROGRAM_FORMAT_VERSION: u32 = 1;

/// The step bound: a generated program executes at most this many instructions (a generator
/// invariant, checked when its vector is built).
pub const MAX_STEPS: u64 = 10_000;

/// Where the surface is in the flat memory.
pub const SURFACE_BASE: u64 = 0x1_0000;

/// One program vector (keys in this order).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProgramVector {
    /// Always `"program"` ([`KIND`]).
    pub kind: String,
    /// [`PROGRAM_FORMAT_VERSION`].
    pub v: u32,
    /// `<gen>-<seed hex>-p<index>` (the seed in hex, as single-instruction ids).
    pub id: String,
    pub gen: String,
    /// The program in IGA syntax, one label or instruction per line.
    pub text: Vec<String>,
    /// The native encoding of the instructions, one after the other from address 0, hex.
    pub bytes: String,
    /// The step bound the program keeps to ([`MAX_STEPS`]).
    pub max_steps: u64,
    /// The dispatch mask (sr0.2 DMask; sr0.3 VMask is the OR of each group of 4 of its bits,
    /// field.sr0.3.vmask): the channels of the SIMD8 thread that run.
    pub dmask: u32,
    /// Registers defined at the start (hex, byte 0 first, `xx` for an undefined byte); every
    /// other register is as the platform's default state has it (conformance/PROTOCOL.md),
    /// with sr0.2 and sr0.3 per `dmask`.
    pub initial: BTreeMap<String, String>,
    /// The surface the messages access (absent: the program has no message but the end of
    /// thread).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub surface: Option<SurfaceInit>,
    /// The final content of every register with a defined byte, and of f0 and f1 (hex).
    pub expected: BTreeMap<String, String>,
    /// Per register of `expected` with undefined bits: the set bits are undefined (GRF per
    /// byte, `ff`; flags per bit).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub undefined: BTreeMap<String, String>,
    /// Per register of `expected` with bytes from approximate math (math.inexact): `ff` bytes
    /// are not asserted exact.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub inexact: BTreeMap<String, String>,
    /// The surface's final bytes (absent with `surface`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_surface: Option<SurfaceFinal>,
    /// Instructions executed.
    pub steps: u64,
    /// FNV-1a 64 of the executed (ip, enabled channels) sequence, 16 hex digits
    /// ([`trace_digest`]).
    pub trace: String,
}

/// The surface at the start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SurfaceInit {
    pub bti: u8,
    /// Its first byte's flat address.
    pub base: u64,
    pub size: u64,
    /// Its bytes, hex, `xx` for an undefined byte.
    pub bytes: String,
}

/// The surface at the end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SurfaceFinal {
    /// Its bytes, hex (`00` for an undefined byte).
    pub bytes: String,
    /// `ff` per undefined byte, `00` otherwise (absent: every byte defined).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undefined: Option<String>,
    /// `ff` per byte stored from an inexact value (mem.inexact: a message whose payload held
    /// an inexact byte, or that read one, stores inexact bytes), `00` otherwise; such bytes
    /// are not asserted exact (absent: every byte exact).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inexact: Option<String>,
}

/// The FNV-1a 64-bit hash (offset basis 0xcbf29ce484222325, prime 0x100000001b3) over the
/// executed instructions' (ip, enabled channels), each as two little-endian u32.
#[derive(Debug, Clone, Copy)]
pub struct TraceDigest(u64);

impl Default for TraceDigest {
    fn default() -> TraceDigest {
        TraceDigest(0xcbf2_9ce4_8422_2325)
    }
}

impl TraceDigest {
    pub fn add(&mut self, ip: u32, enabled: u32) {
        for b in ip.to_le_bytes().into_iter().chain(enabled.to_le_bytes()) {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x100_0000_01b3);
        }
    }

    pub fn value(self) -> u64 {
        self.0
    }
}

/// [`TraceDigest`] of a sequence of (ip, enabled channels).
pub fn trace_digest(steps: impl IntoIterator<Item = (u32, u32)>) -> u64 {
    let mut d = TraceDigest::default();
    for (ip, en) in steps {
        d.add(ip, en);
    }
    d.value()
}

/// What running a program gave.
#[derive(Debug, Clone)]
pub struct Run {
    pub steps: u64,
    pub digest: u64,
    /// Executed (ip, enabled channels) in order.
    pub trace: Vec<(u32, u32)>,
    /// The executed steps as coverage sees them, in order.
    pub records: Vec<StepRecord>,
}

/// Run `image` from `st` with `mem` to its end of thread, within [`MAX_STEPS`].
pub fn run(image: Image, st: &mut ThreadState, mem: &mut Memory) -> Result<Run, String> {
    let mut t = Thread::new(image, st).map_err(|e| e.to_string())?;
    let opts = ExecOptions::default();
    let mut trace = Vec::new();
    let mut records = Vec::new();
    let mut d = TraceDigest::default();
    while !t.ended() {
        let s = t
            .step_limited_with_memory(st, &opts, MAX_STEPS, mem)
            .map_err(|e| e.to_string())?;
        d.add(s.ip, s.enabled);
        trace.push((s.ip, s.enabled));
        records.push(StepRecord {
            ip: s.ip,
            enabled: s.enabled,
            op: s.insn.op,
            eot: s.insn.ctrl.eot,
            next_ip: s.next_ip,
        });
    }
    if !t.ended_by_eot() {
        return Err("the program ended without an end-of-thread message".into());
    }
    Ok(Run {
        steps: t.steps(),
        digest: d.value(),
        trace,
        records,
    })
}

/// Hex of bytes, `xx` for `None`.
fn hex_marked(bytes: &[Option<u8>]) -> String {
    bytes
        .iter()
        .map(|b| b.map_or_else(|| "xx".to_string(), |b| format!("{b:02x}")))
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A data dword: small integers, edge integers or float values of every class.
fn data_dword(r: &mut Rng) -> u32 {
    match r.below(4) {
        0 => r.below(16) as u32,
        1 => values::int_value(DataType::UD, r).0 as u32,
        2 => values::float_value(DataType::F, r).0 as u32,
        _ => r.next() as u32,
    }
}

/// The initial state: the platform's default state with the data and approximate windows
/// and both flag registers defined.
pub(crate) fn initial_state(p: Platform, dmask: u32, r: &mut Rng) -> Result<ThreadState, String> {
    let mut st = Setup::new(p, dmask)?.state;
    let rb = st.grf_reg_bytes();
    for reg in DATA..DATA + DATA_REGS {
        let bytes: Vec<u8> = (0..rb / 4)
            .flat_map(|_| data_dword(r).to_le_bytes())
            .collect();
        st.write_grf_bytes(reg as usize * rb, &bytes)
            .map_err(|e| e.to_string())?;
    }
    for reg in APPROX..APPROX + APPROX_REGS {
        // Positive floats from 1/4 to 4: math on them is mostly finite.
        let bytes: Vec<u8> = (0..rb / 4)
            .flat_map(|_| (0x3e80_0000 + (r.next() as u32 % 0x0200_0000)).to_le_bytes())
            .collect();
        st.write_grf_bytes(reg as usize * rb, &bytes)
            .map_err(|e| e.to_string())?;
    }
    for f in 0..2 {
        st.set_flag(f, r.next() as u32, 0)
            .map_err(|e| e.to_string())?;
    }
    Ok(st)
}

/// Set sr0.2 DMask to `dmask` and sr0.3 VMask to the OR of each group of 4 of its bits
/// (field.sr0.3.vmask).
pub fn set_dispatch_mask(st: &mut ThreadState, dmask: u32) -> Result<(), String> {
    let vmask = (0..8).fold(0u32, |m, g| {
        if dmask >> (4 * g) & 15 != 0 {
            m | 15 << (4 * g)
        } else {
            m
        }
    });
    st.set_field(&SR0_2_DMASK, dmask)
        .and_then(|_| st.set_field(&SR0_3_VMASK, vmask))
        .map_err(|e| e.to_string())
}

/// The dispatch mask: all 8 channels mostly, else a random nonzero subset.
pub(crate) fn dispatch_mask(r: &mut Rng) -> u32 {
    if r.chance(3, 4) {
        0xff
    } else {
        (r.below(255) + 1) as u32
    }
}

/// The surface's initial bytes: random, with some 16-byte pieces never written (undefined).
fn initial_surface(r: &mut Rng) -> Vec<Option<u8>> {
    let mut bytes = Vec::with_capacity(SURFACE_SIZE as usize);
    for _ in 0..SURFACE_SIZE / 16 {
        let undefined = r.chance(1, 8);
        for _ in 0..16 {
            let b = r.next() as u8;
            bytes.push((!undefined).then_some(b));
        }
    }
    bytes
}

/// The registers a vector lists: every GRF register with a defined byte, and f0, f1.
fn registers(st: &ThreadState) -> Vec<(String, Vec<u8>, Vec<u8>)> {
    let rb = st.grf_reg_bytes();
    let mut out = Vec::new();
    for n in 0..st.grf_size() / rb {
        let o = n * rb;
        let undef: Vec<u8> = (o..o + rb)
            .map(|b| if st.grf_byte_undefined(b) { 0xff } else { 0 })
            .collect();
        if undef.iter().all(|u| *u == 0xff) {
            continue;
        }
        let bytes: Vec<u8> = (o..o + rb)
            .zip(&undef)
            .map(|(b, u)| if *u != 0 { 0 } else { st.grf_bytes()[b] })
            .collect();
        out.push((format!("r{n}"), bytes, undef));
    }
    for f in 0..2 {
        let (v, u) = st.flag(f).unwrap_or((0, u32::MAX));
        out.push((
            format!("f{f}"),
            (v & !u).to_le_bytes().to_vec(),
            u.to_le_bytes().to_vec(),
        ));
    }
    out
}

/// What a program starts from: the dispatch mask, the thread state (with that mask set) and
/// the surface's bytes (None: no surface is bound).
#[derive(Debug, Clone)]
pub struct Setup {
    pub dmask: u32,
    pub state: ThreadState,
    pub surface: Option<Vec<Option<u8>>>,
}

impl Setup {
    /// The platform's default state with `dmask` dispatched (sr0.2, sr0.3) and no surface.
    pub fn new(p: Platform, dmask: u32) -> Result<Setup, String> {
        let mut state = ThreadState::new(p);
        set_dispatch_mask(&mut state, dmask)?;
        Ok(Setup {
            dmask,
            state,
            surface: None,
        })
    }
}

/// The vector of program `index` of a run seeded with `seed` on `p`.
pub fn program_vector(p: Platform, seed: u64, index: u64) -> Result<ProgramVector, String> {
    program_vector_covered(p, seed, index).map(|(v, _)| v)
}

/// [`program_vector`] and the control-flow coverage of its run.
pub fn program_vector_covered(
    p: Platform,
    seed: u64,
    index: u64,
) -> Result<(ProgramVector, ProgramCoverage), String> {
    let Program { lines, mut rng, .. } = generator::generate(p, seed, index)?;
    let dmask = dispatch_mask(&mut rng);
    let state = initial_state(p, dmask, &mut rng)?;
    let surface = templates::memory_supported(p).then(|| initial_surface(&mut rng));
    let setup = Setup {
        dmask,
        state,
        surface,
    };
    build_covered(p, format!("{}-{seed:x}-p{index}", p.name()), lines, setup).map_err(|e| {
        format!(
            "{} program {index} of seed {seed}: {e} (a generator bug: every program must \
             assemble and run to its end of thread within {MAX_STEPS} steps)",
            p.name()
        )
    })
}

/// The vector of the program `lines` (IGA) run on `p` from `setup`.
pub fn build(
    p: Platform,
    id: String,
    lines: Vec<String>,
    setup: Setup,
) -> Result<ProgramVector, String> {
    build_covered(p, id, lines, setup).map(|(v, _)| v)
}

/// [`build`] and the control-flow coverage of the run.
pub fn build_covered(
    p: Platform,
    id: String,
    lines: Vec<String>,
    setup: Setup,
) -> Result<(ProgramVector, ProgramCoverage), String> {
    let text = lines.join("\n") + "\n";
    let prog = crate::asm::parse(text.as_bytes(), Some(crate::asm::Dialect::Iga), p)
        .map_err(|e| format!("line {}:{}: {}", e.line, e.col, e.msg))?;
    let image = Image::from_insns(p, &prog.insns, 0).map_err(|e| e.to_string())?;
    let Setup {
        dmask,
        mut state,
        surface: surface_bytes,
    } = setup;
    let st = &mut state;
    let initial = initial_registers(st);
    let mut mem = Memory::new();
    let surface = surface_bytes.map(|bytes| {
        mem.bind(
            BTI,
            Surface {
                base: SURFACE_BASE,
                size: bytes.len() as u64,
            },
        );
        for (i, b) in bytes.iter().enumerate() {
            if let Some(b) = b {
                mem.flat.load(SURFACE_BASE + i as u64, &[*b]);
            }
        }
        SurfaceInit {
            bti: BTI,
            base: SURFACE_BASE,
            size: bytes.len() as u64,
            bytes: hex_marked(&bytes),
        }
    });
    let bytes = hex(image_bytes(&image));
    let ran = run(image, st, &mut mem).map_err(|e| format!("{e}\n{text}"))?;
    let mut expected = BTreeMap::new();
    let mut undefined = BTreeMap::new();
    let mut inexact = BTreeMap::new();
    for (name, bytes, undef) in registers(st) {
        if undef.iter().any(|u| *u != 0) {
            undefined.insert(name.clone(), hex(&undef));
        }
        if let Some(m) = crate::state::json::inexact_hex(st, &name) {
            inexact.insert(name.clone(), m);
        }
        expected.insert(name, hex(&bytes));
    }
    let expected_surface = surface.as_ref().map(|s| {
        let fin = mem.flat.read(SURFACE_BASE, s.size as usize);
        let bytes: Vec<u8> = fin.iter().map(|b| b.unwrap_or(0)).collect();
        let undef: Vec<u8> = fin
            .iter()
            .map(|b| if b.is_none() { 0xff } else { 0 })
            .collect();
        let inexact: Vec<u8> = mem
            .flat
            .inexact(SURFACE_BASE, s.size as usize)
            .iter()
            .map(|&i| if i { 0xff } else { 0 })
            .collect();
        SurfaceFinal {
            bytes: hex(&bytes),
            undefined: undef.iter().any(|u| *u != 0).then(|| hex(&undef)),
            inexact: inexact.iter().any(|i| *i != 0).then(|| hex(&inexact)),
        }
    });
    let mut cov = ProgramCoverage::default();
    cov.add_program(dmask, &ran.records);
    let v = ProgramVector {
        kind: KIND.into(),
        v: PROGRAM_FORMAT_VERSION,
        id,
        gen: p.name().into(),
        text: lines,
        bytes,
        max_steps: MAX_STEPS,
        dmask,
        initial,
        surface,
        expected,
        undefined,
        inexact,
        expected_surface,
        steps: ran.steps,
        trace: format!("{:016x}", ran.digest),
    };
    Ok((v, cov))
}

/// The `initial` registers: every GRF register with a defined byte (`xx` for its undefined
/// bytes) and each flag register whose bits are all defined.
fn initial_registers(st: &ThreadState) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (name, bytes, undef) in registers(st) {
        let is_flag = name.starts_with('f');
        if is_flag && undef.iter().any(|u| *u != 0) {
            continue;
        }
        let marked: Vec<Option<u8>> = bytes
            .iter()
            .zip(&undef)
            .map(|(b, u)| (*u == 0).then_some(*b))
            .collect();
        out.insert(name, hex_marked(&marked));
    }
    out
}

fn image_bytes(image: &Image) -> &[u8] {
    image.bytes()
}

impl ProgramVector {
    /// One JSON line (no newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}
