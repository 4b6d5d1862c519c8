//! Registers of a thread state by name for the Python module: the library's
//! `euref::state::named` (`r12`/`g12` for a GRF register; `a0`, `acc0`, `f1`, `cr0`, `sr0`,
//! `ip`, ... as the state JSON names them), with the undefined and inexact marks of each bit.

use euref::state::named::{self, RegMarks};
use euref::state::ThreadState;
use euref::thread::Step;

/// A register's bytes and marks: `undefined` and `inexact` have one bit per bit of `bytes`
/// (set: that bit is undefined / the value of an inexact math result).
pub type RegBytes = RegMarks;

/// Read register `name`.
pub fn read(st: &ThreadState, name: &str) -> Result<RegBytes, String> {
    named::find(st, name).map(|r| named::read(st, r))
}

/// Write `data` (defined, exact) at the start of register `name`: at most the register's size
/// for an ARF register; a GRF write may continue into the following registers.
pub fn write(st: &mut ThreadState, name: &str, data: &[u8]) -> Result<(), String> {
    let r = named::find(st, name)?;
    named::write(st, r, data, None).map_err(|e| format!("register {name}: {e}"))
}

/// The registers a step wrote (every byte it may have changed lies in them), with their
/// contents after the step: GRF registers in order, then ARF registers in layout order.
pub fn written(st: &ThreadState, step: &Step) -> Vec<RegBytes> {
    euref::thread::trace::written(st, step)
        .into_iter()
        .map(|r| named::read(st, r))
        .collect()
}
