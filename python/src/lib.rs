//! The `euref` Python module (PyO3): the assembler, disassembler and validator ([`text`]), a
//! thread stepped one instruction at a time ([`thread`]), golden vectors and the conformance
//! check ([`vectors`]). docs/embedding.md "Python" describes the API.
//!
//! Every error is a Python `euref.EurefError` with euref's message; a panic inside euref (a
//! bug) is caught at the boundary ([`guard`]) and raised as an `EurefError` too, never as
//! PyO3's `PanicException` (a `BaseException` that `except Exception` does not catch).

mod state_regs;
mod text;
mod thread;
mod vectors;

use euref::spec::Platform;
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

pyo3::create_exception!(
    euref,
    EurefError,
    pyo3::exceptions::PyException,
    "An error of euref: the message says what, where and what to do."
);

/// An [`EurefError`] with `msg`.
pub(crate) fn error(msg: impl Into<String>) -> PyErr {
    EurefError::new_err(msg.into())
}

/// Run `f`, turning a panic into an [`EurefError`] that names it a bug of euref.
pub(crate) fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_string());
            Err(error(format!(
                "internal error in euref (a bug; please report it with the input): {what}"
            )))
        }
    }
}

/// The platform a `gen` argument names (`9`, `skl`, `gen9`, ... as `euref --gen`).
pub(crate) fn platform(gen: &str) -> PyResult<Platform> {
    euref::gen::parse_gen(gen).map_err(|e| error(e.to_string()))
}

/// The module: `import euref`.
#[pymodule(name = "euref")]
fn euref_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("EurefError", m.py().get_type::<EurefError>())?;
    m.add_function(wrap_pyfunction!(text::assemble, m)?)?;
    m.add_function(wrap_pyfunction!(text::disassemble, m)?)?;
    m.add_function(wrap_pyfunction!(text::validate, m)?)?;
    m.add_function(wrap_pyfunction!(vectors::golden, m)?)?;
    m.add_function(wrap_pyfunction!(vectors::check, m)?)?;
    m.add_class::<thread::Thread>()?;
    Ok(())
}
