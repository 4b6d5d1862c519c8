//! `euref.Thread`: a program run one instruction at a time on a thread state, for lockstep
//! comparison with a design (the step's writes with their undefined and inexact marks).

use crate::state_regs::{self, RegBytes};
use crate::{error, guard, platform};
use euref::asm::{self, Dialect, PrintOptions};
use euref::exec::ExecOptions;
use euref::memory::Memory;
use euref::spec::Platform;
use euref::state::ThreadState;
use euref::thread::{self as run, Image};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

/// A thread of one platform: a program image, a state, the memory its messages access.
///
/// The run starts at the first `step`/`run` after `load_program`/`load_state`: at the image's
/// base address, with the channels of the state's execution mask dispatched.
///
/// `unsendable`: a thread is used from the Python thread that made it (PyO3 raises otherwise),
/// since the memory is not `Sync` (`Memory` keeps a `Cell`); make one per Python thread.
#[pyclass(module = "euref", unsendable)]
pub struct Thread {
    platform: Platform,
    image: Option<Image>,
    state: ThreadState,
    memory: Memory,
    running: Option<run::Thread>,
    opts: ExecOptions,
    /// What `checkpoint` saved for `restore`.
    saved: Option<(ThreadState, Option<run::Thread>)>,
}

fn dict_of<'py>(py: Python<'py>, r: &RegBytes) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("reg", &r.name)?;
    d.set_item("bytes", PyBytes::new(py, &r.bytes))?;
    d.set_item("undefined", PyBytes::new(py, &r.undefined))?;
    d.set_item("inexact", PyBytes::new(py, &r.inexact))?;
    Ok(d)
}

impl Thread {
    /// The running thread, started on first use.
    fn started(&mut self) -> PyResult<&mut run::Thread> {
        if self.running.is_none() {
            let image = self
                .image
                .clone()
                .ok_or_else(|| error("no program: call load_program(bytes) first"))?;
            let t = run::Thread::new(image, &mut self.state).map_err(|e| error(e.to_string()))?;
            self.running = Some(t);
        }
        Ok(self.running.as_mut().expect("started above"))
    }
}

#[pymethods]
impl Thread {
    /// A thread for platform `gen` with euref's default state (docs/run.md) and no program.
    /// `strict=True` refuses an instruction that violates a runtime rule (an error) instead of
    /// executing it and marking what the violation leaves unpredictable undefined.
    #[new]
    #[pyo3(signature = (gen, *, strict=false))]
    fn new(gen: &str, strict: bool) -> PyResult<Thread> {
        guard(|| {
            let p = platform(gen)?;
            Ok(Thread {
                platform: p,
                image: None,
                state: ThreadState::new(p),
                memory: Memory::new(),
                running: None,
                opts: ExecOptions {
                    strict,
                    ..ExecOptions::default()
                },
                saved: None,
            })
        })
    }

    /// Load a program: instruction bytes (as `assemble` gives them) at address `base`.
    #[pyo3(signature = (program, base=0))]
    fn load_program(&mut self, program: &[u8], base: u32) -> PyResult<()> {
        guard(|| {
            if base % 8 != 0 {
                return Err(error(format!(
                    "load_program: base {base:#x} is not a multiple of 8 bytes"
                )));
            }
            let mut image = Image::new(self.platform, program.to_vec(), base);
            image.predecode();
            self.image = Some(image);
            self.running = None;
            Ok(())
        })
    }

    /// Replace the state with the state JSON `text` (docs/run.md; `euref run --state`).
    fn load_state(&mut self, text: &str) -> PyResult<()> {
        guard(|| {
            self.state = euref::state::json::load(self.platform, text)
                .map_err(|e| error(format!("state JSON: {e}")))?;
            self.running = None;
            Ok(())
        })
    }

    /// The state as JSON (the format `load_state` reads).
    fn state_json(&self) -> PyResult<String> {
        guard(|| Ok(euref::state::json::save(&self.state)))
    }

    /// Execute the instruction at IP: a dict with `ip`, `next_ip`, `insn` (IGA text),
    /// `enabled` (the channels that executed it), `ended`, `violations` (runtime rule IDs whose
    /// violation left results undefined) and `writes` (one dict per register written:
    /// `reg`, `bytes`, `undefined`, `inexact`).
    fn step<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let (step, wrote, ended) = guard(|| {
            let opts = self.opts;
            self.started()?;
            let t = self.running.as_mut().expect("started");
            if t.ended() {
                return Err(error(
                    "the program has ended: load_program or load_state to run again",
                ));
            }
            let step = t
                .step_with_memory(&mut self.state, &opts, &mut self.memory)
                .map_err(|e| error(e.to_string()))?;
            let ended = t.ended();
            let wrote = state_regs::written(&self.state, &step);
            Ok((step, wrote, ended))
        })?;
        let d = PyDict::new(py);
        d.set_item("ip", step.ip)?;
        d.set_item("next_ip", step.next_ip)?;
        let o = PrintOptions {
            dialect: Dialect::Iga,
            platform: self.platform,
        };
        d.set_item("insn", asm::print_insn(&step.insn, &o))?;
        d.set_item("enabled", step.enabled)?;
        d.set_item("ended", ended)?;
        let rules: Vec<&str> = step
            .info
            .as_ref()
            .map(|i| i.violations.iter().map(|v| v.rule).collect())
            .unwrap_or_default();
        d.set_item("violations", rules)?;
        let writes = PyList::empty(py);
        for r in &wrote {
            writes.append(dict_of(py, r)?)?;
        }
        d.set_item("writes", writes)?;
        Ok(d)
    }

    /// Run to the end of the program (IP past the last instruction, or a send with EOT), at
    /// most `max_steps` instructions in all (an error beyond); the number of steps executed.
    #[pyo3(signature = (max_steps=run::DEFAULT_MAX_STEPS))]
    fn run(&mut self, max_steps: u64) -> PyResult<u64> {
        guard(|| {
            let opts = self.opts;
            self.started()?;
            let t = self.running.as_mut().expect("started");
            let before = t.steps();
            t.run_with_memory(&mut self.state, &opts, max_steps, &mut self.memory)
                .map_err(|e| error(e.to_string()))?;
            Ok(t.steps() - before)
        })
    }

    /// Register `reg` (`r12`, `a0`, `acc0`, `f1`, `cr0`, `sr0`, `ip`, ...): its bytes; with
    /// `masks=True` a tuple (bytes, undefined, inexact), the masks with one bit per bit.
    #[pyo3(signature = (reg, *, masks=false))]
    fn read<'py>(&self, py: Python<'py>, reg: &str, masks: bool) -> PyResult<Bound<'py, PyAny>> {
        let r = guard(|| state_regs::read(&self.state, reg).map_err(error))?;
        let data = PyBytes::new(py, &r.bytes);
        if !masks {
            return Ok(data.into_any());
        }
        let t = (
            data,
            PyBytes::new(py, &r.undefined),
            PyBytes::new(py, &r.inexact),
        );
        Ok(t.into_pyobject(py)?.into_any())
    }

    /// Write `data` (defined, exact) at the start of register `reg`.
    fn write(&mut self, reg: &str, data: &[u8]) -> PyResult<()> {
        guard(|| state_regs::write(&mut self.state, reg, data).map_err(error))
    }

    /// Whether the program has ended.
    #[getter]
    fn ended(&self) -> bool {
        self.running.as_ref().is_some_and(|t| t.ended())
    }

    /// Remember the state and the run's position (for `restore`).
    fn checkpoint(&mut self) {
        self.saved = Some((self.state.clone(), self.running.clone()));
    }

    /// Go back to what `checkpoint` saved.
    fn restore(&mut self) -> PyResult<()> {
        let (st, t) = self
            .saved
            .as_ref()
            .ok_or_else(|| error("restore: no checkpoint saved"))?;
        self.state.clone_from(st);
        self.running.clone_from(t);
        Ok(())
    }
}
