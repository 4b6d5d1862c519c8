//! The program vector: one JSON line per program (conformance/README.md "Program vectors"),
//! its initial state and memory, and what running it on the reference model gives.

use super::coverage::{ProgramCoverage, StepRecord};
use super::generator::{self, Program};
use super::templates::{self, APPROX, APPROX_REGS, BTI, DATA, DATA_REGS, SLM_SIZE, SURFACE_SIZE};
use crate::exec::ExecOptions;
use crate::golden::values::{self, Rng};
use crate::memory::{Memory, Slm, Surface};
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
    /// The shared local memory at the start (binding-table index 254, mem.slm; absent: the
    /// thread has none, and a message to index 254 is refused, mem.slm.absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slm: Option<SlmInit>,
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
    /// The SLM's final bytes (absent with `slm`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_slm: Option<SurfaceFinal>,
    /// Instructions executed.
    pub steps: u64,
    /// FNV-1a 64 of the executed (ip, enabled channels) sequence, 16 hex digits
    /// ([`trace_digest`]).
    pub trace: String,
    /// The threads that run the program as one work group (absent: 1). With several, the
    /// keys above (`dmask`, `initial`, `expected`, `undefined`, `inexact`, `steps`, `trace`)
    /// are thread 0's, `more_threads` holds the others', and `surface` and `slm` are shared.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub threads: u32,
    /// Threads 1 to `threads` - 1.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more_threads: Vec<ThreadPart>,
}

fn one() -> u32 {
    1
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

/// One more thread of a program vector's work group: its dispatch mask, registers at the
/// start and at the end, steps and trace digest, as the vector's top-level keys give thread
/// 0's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThreadPart {
    pub dmask: u32,
    pub initial: BTreeMap<String, String>,
    pub expected: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub undefined: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub inexact: BTreeMap<String, String>,
    pub steps: u64,
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

/// The shared local memory at the start: `size` bytes from offset 0.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlmInit {
    pub size: u32,
    /// Its bytes, hex, `xx` for an undefined byte.
    pub bytes: String,
}

impl SlmInit {
    /// The SLM of `bytes` (`None`: undefined).
    pub fn of(bytes: &[Option<u8>]) -> SlmInit {
        SlmInit {
            size: bytes.len() as u32,
            bytes: hex_marked(bytes),
        }
    }
}

/// An SLM holding `bytes` from offset 0 (`None`: undefined).
pub fn slm_of(bytes: &[Option<u8>]) -> Slm {
    let mut slm = Slm::new(bytes.len() as u32);
    for (i, b) in bytes.iter().enumerate() {
        if let Some(b) = b {
            slm.bytes.load(i as u64, &[*b]);
        }
    }
    slm
}

/// The final bytes of `mem`'s SLM as a vector gives them (`None`: `mem` has no SLM).
pub fn slm_final(mem: &Memory) -> Option<SurfaceFinal> {
    let slm = mem.slm()?;
    let fin = slm.bytes.read(0, slm.size as usize);
    let inexact = slm.bytes.inexact(0, slm.size as usize);
    Some(final_of(&fin, &inexact))
}

/// A [`SurfaceFinal`] of final bytes and their inexact flags.
fn final_of(fin: &[Option<u8>], inexact: &[bool]) -> SurfaceFinal {
    let bytes: Vec<u8> = fin.iter().map(|b| b.unwrap_or(0)).collect();
    let undef: Vec<u8> = fin
        .iter()
        .map(|b| if b.is_none() { 0xff } else { 0 })
        .collect();
    let inexact: Vec<u8> = inexact.iter().map(|&i| if i { 0xff } else { 0 }).collect();
    SurfaceFinal {
        bytes: hex(&bytes),
        undefined: undef.iter().any(|u| *u != 0).then(|| hex(&undef)),
        inexact: inexact.iter().any(|i| *i != 0).then(|| hex(&inexact)),
    }
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

/// A memory's (the surface's, the SLM's) `size` initial bytes: random, with some 16-byte
/// pieces never written (undefined).
fn initial_surface(r: &mut Rng, size: u32) -> Vec<Option<u8>> {
    let mut bytes = Vec::with_capacity(size as usize);
    for _ in 0..size / 16 {
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
    /// The SLM's bytes (None: the thread has no SLM).
    pub slm: Option<Vec<Option<u8>>>,
    /// More threads of the work group (threads 1, 2, ...: each one's dispatch mask and
    /// state); empty: a single thread.
    pub more_threads: Vec<(u32, ThreadState)>,
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
            slm: None,
            more_threads: Vec::new(),
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
    program_vector_threads_covered(p, seed, index, 1)
}

/// The vector of program `index` of a run seeded with `seed` on `p` for a work group of
/// `threads` threads (1 to [`templates::MAX_THREADS`]), and the coverage of its threads'
/// runs. Each thread has its own dispatch mask and initial registers, drawn in thread order,
/// and with several threads r[`templates::THREAD_BASE`] = the base of its memory region.
pub fn program_vector_threads_covered(
    p: Platform,
    seed: u64,
    index: u64,
    threads: u32,
) -> Result<(ProgramVector, ProgramCoverage), String> {
    if !(1..=templates::MAX_THREADS).contains(&threads) {
        return Err(format!(
            "{threads} threads: a program vector runs 1 to {} threads",
            templates::MAX_THREADS
        ));
    }
    let Program {
        lines,
        mut rng,
        uses_slm,
        ..
    } = generator::generate_threads(p, seed, index, threads)?;
    let mut states = Vec::new();
    for t in 0..threads {
        let dmask = dispatch_mask(&mut rng);
        let mut state = initial_state(p, dmask, &mut rng)?;
        if threads > 1 {
            let unit = if templates::untyped_supported(p) {
                1
            } else {
                4
            };
            let base = t * templates::REGION / unit;
            let rb = state.grf_reg_bytes();
            let bytes: Vec<u8> = (0..rb / 4).flat_map(|_| base.to_le_bytes()).collect();
            state
                .write_grf_bytes(templates::THREAD_BASE as usize * rb, &bytes)
                .map_err(|e| e.to_string())?;
        }
        states.push((dmask, state));
    }
    let surface = templates::memory_supported(p).then(|| initial_surface(&mut rng, SURFACE_SIZE));
    let slm = uses_slm.then(|| initial_surface(&mut rng, SLM_SIZE));
    let mut states = states.into_iter();
    let Some((dmask, state)) = states.next() else {
        return Err("no thread".into());
    };
    let setup = Setup {
        dmask,
        state,
        surface,
        slm,
        more_threads: states.collect(),
    };
    let id = if threads > 1 {
        format!("{}-{seed:x}-p{index}-t{threads}", p.name())
    } else {
        format!("{}-{seed:x}-p{index}", p.name())
    };
    build_covered(p, id, lines, setup).map_err(|e| {
        format!(
            "{} program {index} of seed {seed} ({threads} threads): {e} (a generator bug: \
             every program must assemble and run to its end of thread within {MAX_STEPS} \
             steps)",
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
        slm: slm_bytes,
        more_threads,
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
    let slm = slm_bytes.map(|b| {
        mem.set_slm(slm_of(&b));
        SlmInit::of(&b)
    });
    let bytes = hex(image_bytes(&image));
    let threads = 1 + more_threads.len() as u32;
    let mut cov = ProgramCoverage::default();
    let mut more = Vec::new();
    let ran = if more_threads.is_empty() {
        let ran = run(image, st, &mut mem).map_err(|e| format!("{e}\n{text}"))?;
        cov.add_program(dmask, &ran.records);
        ran
    } else {
        let inits: Vec<_> = more_threads
            .iter()
            .map(|(_, s)| initial_registers(s))
            .collect();
        let mut states = vec![std::mem::replace(st, ThreadState::new(p))];
        states.extend(more_threads.iter().map(|(_, s)| s.clone()));
        let mut runs = run_group(&image, states, &mut mem).map_err(|e| format!("{e}\n{text}"))?;
        let mut rest = runs.split_off(1);
        let Some((st0, ran0)) = runs.pop() else {
            return Err("no thread ran".into());
        };
        *st = st0;
        cov.add_program(dmask, &ran0.records);
        for (((d, _), init), (s, r)) in more_threads.iter().zip(inits).zip(rest.drain(..)) {
            cov.add_program(*d, &r.records);
            let (expected, undefined, inexact) = finals(&s);
            more.push(ThreadPart {
                dmask: *d,
                initial: init,
                expected,
                undefined,
                inexact,
                steps: r.steps,
                trace: format!("{:016x}", r.digest),
            });
        }
        ran0
    };
    let (expected, undefined, inexact) = finals(st);
    let expected_surface = surface.as_ref().map(|s| {
        final_of(
            &mem.flat.read(SURFACE_BASE, s.size as usize),
            &mem.flat.inexact(SURFACE_BASE, s.size as usize),
        )
    });
    let expected_slm = slm.as_ref().and_then(|_| slm_final(&mem));
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
        slm,
        expected,
        undefined,
        inexact,
        expected_surface,
        expected_slm,
        steps: ran.steps,
        trace: format!("{:016x}", ran.digest),
        threads,
        more_threads: more,
    };
    Ok((v, cov))
}

/// A thread's `expected`, `undefined` and `inexact` registers at its end.
type Finals = (
    BTreeMap<String, String>,
    BTreeMap<String, String>,
    BTreeMap<String, String>,
);

/// The `expected`, `undefined` and `inexact` maps of `st`.
fn finals(st: &ThreadState) -> Finals {
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
    (expected, undefined, inexact)
}

/// Run `states` as one work group on `image` and `mem` (the dispatch runner's work group,
/// [`crate::dispatch::run::run_threads`]), each thread to its end of thread within
/// [`MAX_STEPS`]: each thread's final state and run.
fn run_group(
    image: &Image,
    states: Vec<ThreadState>,
    mem: &mut Memory,
) -> Result<Vec<(ThreadState, Run)>, String> {
    use crate::dispatch::run::{run_threads, RunOptions, ThreadEnd};
    let o = RunOptions {
        max_steps: MAX_STEPS,
        exec: ExecOptions::default(),
        trace: false,
    };
    let mut out = Vec::new();
    for (t, r) in run_threads(image, states, mem, &o, None, true)
        .into_iter()
        .enumerate()
    {
        match &r.end {
            ThreadEnd::Eot => {}
            ThreadEnd::Error { message, .. } => return Err(format!("thread {t}: {message}")),
            ThreadEnd::EndOfImage => {
                return Err(format!(
                    "thread {t}: the program ended without an end-of-thread message"
                ))
            }
        }
        let mut d = TraceDigest::default();
        let mut trace = Vec::new();
        let mut records = Vec::new();
        for s in &r.seen {
            d.add(s.ip, s.enabled);
            trace.push((s.ip, s.enabled));
            records.push(StepRecord {
                ip: s.ip,
                enabled: s.enabled,
                op: s.op,
                eot: s.eot,
                next_ip: s.next_ip,
            });
        }
        out.push((
            r.state,
            Run {
                steps: r.steps,
                digest: d.value(),
                trace,
                records,
            },
        ));
    }
    Ok(out)
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
