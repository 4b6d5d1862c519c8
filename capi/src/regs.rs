//! Registers by name for the C interface: the library's `euref::state::named` (names, whole
//! registers with per-bit undefined and inexact masks), with the C interface's errors and its
//! limits (a write fits in its register; `ip` is set by loading the program).

use crate::error::Error;
use euref::state::named;
use euref::state::ThreadState;

pub use named::{grf_count, read, size, RegRef};

/// The register `name` names on `st`'s platform.
pub fn find(st: &ThreadState, name: &str) -> Result<RegRef, Error> {
    named::find(st, name).map_err(Error::arg)
}

/// Write the first `bytes.len()` bytes of register `r` (exact), undefined where `undefined`
/// has bits set (a GRF byte with any bit set is undefined as a whole).
pub fn write(
    st: &mut ThreadState,
    r: RegRef,
    bytes: &[u8],
    undefined: Option<&[u8]>,
) -> Result<(), Error> {
    let size = size(st, r);
    if bytes.len() > size {
        return Err(Error::arg(format!(
            "{} bytes for a {size}-byte register",
            bytes.len()
        )));
    }
    if matches!(r, RegRef::Arf(_)) && named::name_of(st, r) == "ip" {
        return Err(Error::arg(
            "`ip` is the thread's: load the program at the address to start from \
             (euref_load_program_at)",
        ));
    }
    named::write(st, r, bytes, undefined).map_err(|e| Error::arg(e.to_string()))
}
