//! The extern "C" functions of libeuref (include/euref.h is generated from this file and
//! src/ffi_types.rs). Every function checks its pointers and runs its work inside
//! `catch_unwind`: a panic becomes EUREF_ERR_INTERNAL (or NULL from euref_thread_new), never
//! an unwind into C. A failing call leaves its message for euref_last_error (per handle) or,
//! for euref_thread_new and calls given a NULL handle, euref_new_error (per OS thread).

#![allow(non_camel_case_types)]
#![allow(clippy::missing_safety_doc)]

use crate::compare;
use crate::error::Error;
use crate::ffi_types::*;
use crate::host_memory::HostMemory;
use crate::regs;
use crate::session::Session;
use std::cell::RefCell;
use std::ffi::{c_char, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A thread of euref: its state, program, memory and last step. Opaque to C; independent of
/// every other handle (a handle may move between OS threads; use it from one at a time).
pub struct euref_thread {
    s: Session,
    error: RefCell<CString>,
}

thread_local! {
    /// Why the last euref_thread_new (or a call given a NULL handle) on this OS thread failed.
    static NEW_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// `msg` as a C string (NUL bytes inside it replaced).
fn c_string(msg: &str) -> CString {
    CString::new(msg.replace('\0', "\\0")).unwrap_or_default()
}

fn set_new_error(msg: &str) {
    NEW_ERROR.with(|e| *e.borrow_mut() = c_string(msg));
}

/// The message of a caught panic.
fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    let what = p
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string());
    format!("internal error (a bug in euref; please report it): {what}")
}

/// The status of `r` (work done inside catch_unwind), its message stored in `slot`.
fn finish(slot: &RefCell<CString>, r: std::thread::Result<Result<i32, Error>>) -> i32 {
    let (code, msg) = match r {
        Ok(Ok(code)) => (code, String::new()),
        Ok(Err(e)) => (e.code, e.msg),
        Err(p) => (EUREF_ERR_INTERNAL, panic_message(p.as_ref())),
    };
    if let Ok(mut s) = slot.try_borrow_mut() {
        *s = c_string(&msg);
    }
    code
}

/// Run `f` on the handle `t` (a NULL handle: EUREF_ERR_ARG, the message in euref_new_error).
unsafe fn with_mut(
    t: *mut euref_thread,
    f: impl FnOnce(&mut Session) -> Result<i32, Error>,
) -> i32 {
    // SAFETY: the caller passes NULL or a handle from euref_thread_new not yet freed.
    let Some(t) = (unsafe { t.as_mut() }) else {
        set_new_error("the euref_thread handle is NULL");
        return EUREF_ERR_ARG;
    };
    let r = catch_unwind(AssertUnwindSafe(|| f(&mut t.s)));
    finish(&t.error, r)
}

/// [`with_mut`] for the functions that only read the handle.
unsafe fn with_ref(t: *const euref_thread, f: impl FnOnce(&Session) -> Result<i32, Error>) -> i32 {
    // SAFETY: as in with_mut.
    let Some(t) = (unsafe { t.as_ref() }) else {
        set_new_error("the euref_thread handle is NULL");
        return EUREF_ERR_ARG;
    };
    let r = catch_unwind(AssertUnwindSafe(|| f(&t.s)));
    finish(&t.error, r)
}

/// `len` bytes at `p` (NULL is refused unless `len` is 0).
unsafe fn slice<'a>(p: *const u8, len: usize, what: &str) -> Result<&'a [u8], Error> {
    if len == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(Error::arg(format!("{what} is NULL ({len} bytes expected)")));
    }
    // SAFETY: the caller promises `len` readable bytes at `p`.
    Ok(unsafe { std::slice::from_raw_parts(p, len) })
}

/// `len` writable bytes at `p` (NULL refused unless `len` is 0).
unsafe fn slice_mut<'a>(p: *mut u8, len: usize, what: &str) -> Result<&'a mut [u8], Error> {
    if len == 0 {
        return Ok(&mut []);
    }
    if p.is_null() {
        return Err(Error::arg(format!("{what} is NULL ({len} bytes expected)")));
    }
    // SAFETY: the caller promises `len` writable bytes at `p`.
    Ok(unsafe { std::slice::from_raw_parts_mut(p, len) })
}

/// The NUL-terminated UTF-8 string at `p`.
unsafe fn c_str<'a>(p: *const c_char, what: &str) -> Result<&'a str, Error> {
    if p.is_null() {
        return Err(Error::arg(format!("{what} is NULL")));
    }
    // SAFETY: the caller passes a NUL-terminated string.
    unsafe { CStr::from_ptr(p) }
        .to_str()
        .map_err(|e| Error::arg(format!("{what} is not UTF-8: {e}")))
}

/// The GRF register number `reg` of the session, checked.
fn grf_reg(s: &Session, reg: u32) -> Result<usize, Error> {
    let n = regs::grf_count(s.state());
    let r = reg as usize;
    if r >= n {
        return Err(Error::arg(format!(
            "GRF register {reg} does not exist: the GRF is r0..r{}",
            n - 1
        )));
    }
    Ok(r)
}

/// A new thread for `platform` ("ivb", "hsw", "bdw", "chv", "skl", "bxt", or 7, 7.5, 8, 9)
/// in euref's documented default state, with no program and empty memory; strict execution.
/// NULL on error: euref_new_error() says why.
#[no_mangle]
pub unsafe extern "C" fn euref_thread_new(platform: *const c_char) -> *mut euref_thread {
    let r = catch_unwind(|| {
        // SAFETY: the caller passes NULL or a NUL-terminated string.
        let name = unsafe { c_str(platform, "the platform name") }?;
        Session::new(name)
    });
    match r {
        Ok(Ok(s)) => {
            set_new_error("");
            Box::into_raw(Box::new(euref_thread {
                s,
                error: RefCell::new(CString::default()),
            }))
        }
        Ok(Err(e)) => {
            set_new_error(&e.msg);
            std::ptr::null_mut()
        }
        Err(p) => {
            set_new_error(&panic_message(p.as_ref()));
            std::ptr::null_mut()
        }
    }
}

/// Why the last euref_thread_new on this OS thread returned NULL (or why a call given a
/// NULL handle failed); "" when it did not. Valid until the next such call on this thread.
#[no_mangle]
pub extern "C" fn euref_new_error() -> *const c_char {
    NEW_ERROR.with(|e| e.borrow().as_ptr())
}

/// Free a thread (NULL is ignored).
#[no_mangle]
pub unsafe extern "C" fn euref_thread_free(t: *mut euref_thread) {
    if t.is_null() {
        return;
    }
    // SAFETY: `t` came from euref_thread_new and is freed once.
    let b = unsafe { Box::from_raw(t) };
    let _ = catch_unwind(AssertUnwindSafe(move || drop(b)));
}

/// The message of the last call on `t` that failed ("" when the last call succeeded). Valid
/// until the next call on `t`. For a NULL `t`: euref_new_error().
#[no_mangle]
pub unsafe extern "C" fn euref_last_error(t: *const euref_thread) -> *const c_char {
    // SAFETY: NULL or a live handle.
    match unsafe { t.as_ref() } {
        None => euref_new_error(),
        Some(t) => match t.error.try_borrow() {
            Ok(s) => s.as_ptr(),
            Err(_) => c"".as_ptr(),
        },
    }
}

/// Load a program: `len` bytes of native (16-byte) and compacted (8-byte) instructions, the
/// first at IP 0. Every instruction must decode (EUREF_ERR_DECODE names the byte offset).
/// The thread is dispatched anew at the next step, from the state's execution mask.
#[no_mangle]
pub unsafe extern "C" fn euref_load_program(
    t: *mut euref_thread,
    bytes: *const u8,
    len: usize,
) -> i32 {
    // SAFETY: forwarded.
    unsafe { euref_load_program_at(t, bytes, len, 0) }
}

/// euref_load_program with the first instruction at address `base`.
#[no_mangle]
pub unsafe extern "C" fn euref_load_program_at(
    t: *mut euref_thread,
    bytes: *const u8,
    len: usize,
    base: u32,
) -> i32 {
    // SAFETY: the pointers are checked; the caller's buffer holds `len` bytes.
    unsafe {
        with_mut(t, |s| {
            let b = slice(bytes, len, "the program bytes")?;
            s.load_program(b, base).map(|()| EUREF_OK)
        })
    }
}

/// Replace the state with a state JSON document of `len` bytes (the format `euref run
/// --state` reads: docs/run.md); EUREF_ERR_PARSE gives the JSON path or line:column. The
/// thread is dispatched anew at the next step.
#[no_mangle]
pub unsafe extern "C" fn euref_load_state_json(
    t: *mut euref_thread,
    json: *const c_char,
    len: usize,
) -> i32 {
    // SAFETY: the pointers are checked; the caller's buffer holds `len` bytes.
    unsafe {
        with_mut(t, |s| {
            let b = slice(json.cast(), len, "the state JSON")?;
            s.load_state_json(b).map(|()| EUREF_OK)
        })
    }
}

/// Strict execution (nonzero, the default): an instruction that breaks a rule of spec/rules
/// or spec/runtime is refused (EUREF_ERR_REFUSED with the row). Lenient (0): it executes and
/// what the rule makes unpredictable is marked undefined.
#[no_mangle]
pub unsafe extern "C" fn euref_set_strict(t: *mut euref_thread, strict: i32) -> i32 {
    // SAFETY: checked handle.
    unsafe {
        with_mut(t, |s| {
            s.set_strict(strict != 0);
            Ok(EUREF_OK)
        })
    }
}

/// Set GRF register `reg` to the 32 bytes at `bytes32` (defined, exact).
#[no_mangle]
pub unsafe extern "C" fn euref_set_grf(t: *mut euref_thread, reg: u32, bytes32: *const u8) -> i32 {
    // SAFETY: checked pointers; 32 bytes at `bytes32`.
    unsafe {
        with_mut(t, |s| {
            let r = grf_reg(s, reg)?;
            let b = slice(bytes32, 32, "bytes32")?;
            regs::write(s.state_mut(), regs::RegRef::Grf(r), b, None).map(|()| EUREF_OK)
        })
    }
}

/// GRF register `reg`: its 32 bytes into `bytes32` and, when `undef32` is not NULL, 0xff per
/// undefined byte (0 per defined one) into `undef32`.
#[no_mangle]
pub unsafe extern "C" fn euref_get_grf(
    t: *const euref_thread,
    reg: u32,
    bytes32: *mut u8,
    undef32: *mut u8,
) -> i32 {
    // SAFETY: checked pointers; 32 bytes at each.
    unsafe {
        with_ref(t, |s| {
            let r = grf_reg(s, reg)?;
            let out = slice_mut(bytes32, 32, "bytes32")?;
            let v = regs::read(s.state(), regs::RegRef::Grf(r));
            let n = v.bytes.len().min(32);
            out[..n].copy_from_slice(&v.bytes[..n]);
            if !undef32.is_null() {
                let u = slice_mut(undef32, 32, "undef32")?;
                u[..n].copy_from_slice(&v.undefined[..n]);
            }
            Ok(EUREF_OK)
        })
    }
}

/// Read register `name` (`r5`, `acc0`, `f0`, `a0`, `sr0`, `cr0`, `ip`, ...): its size into
/// `*len` (may be NULL), and its first `cap` bytes into `bytes`, per-bit undefined masks
/// into `undefined` and inexact masks into `inexact` (each may be NULL; GRF bytes are 0xff
/// or 0 as a whole). EUREF_ERR_ARG lists the registers when the name is unknown.
#[no_mangle]
pub unsafe extern "C" fn euref_get_reg(
    t: *const euref_thread,
    name: *const c_char,
    bytes: *mut u8,
    undefined: *mut u8,
    inexact: *mut u8,
    cap: usize,
    len: *mut usize,
) -> i32 {
    // SAFETY: checked pointers; `cap` bytes at each non-NULL buffer.
    unsafe {
        with_ref(t, |s| {
            let name = c_str(name, "the register name")?;
            let r = regs::find(s.state(), name)?;
            let v = regs::read(s.state(), r);
            let n = v.bytes.len().min(cap);
            for (dst, src) in [
                (bytes, &v.bytes),
                (undefined, &v.undefined),
                (inexact, &v.inexact),
            ] {
                if !dst.is_null() {
                    slice_mut(dst, n, "a register buffer")?.copy_from_slice(&src[..n]);
                }
            }
            if let Some(l) = len.as_mut() {
                *l = v.bytes.len();
            }
            Ok(EUREF_OK)
        })
    }
}

/// Write the first `len` bytes of register `name` (exact), undefined where `undefined` (may
/// be NULL: all defined) has bits set. `ip` cannot be written (the program's address is set
/// by euref_load_program_at).
#[no_mangle]
pub unsafe extern "C" fn euref_set_reg(
    t: *mut euref_thread,
    name: *const c_char,
    bytes: *const u8,
    undefined: *const u8,
    len: usize,
) -> i32 {
    // SAFETY: checked pointers; `len` bytes at each non-NULL buffer.
    unsafe {
        with_mut(t, |s| {
            let name = c_str(name, "the register name")?;
            let r = regs::find(s.state(), name)?;
            let b = slice(bytes, len, "the register bytes")?;
            let u = if undefined.is_null() {
                None
            } else {
                Some(slice(undefined, len, "the undefined masks")?)
            };
            regs::write(s.state_mut(), r, b, u).map(|()| EUREF_OK)
        })
    }
}

/// Execute one instruction; `*out` (may be NULL) says which, and how many writes
/// euref_step_write gives. EUREF_ERR_ENDED after the end of the program; EUREF_ERR_REFUSED
/// when a spec row refuses the instruction (the message names it; nothing was written).
#[no_mangle]
pub unsafe extern "C" fn euref_step(t: *mut euref_thread, out: *mut euref_step_info) -> i32 {
    // SAFETY: checked pointers.
    unsafe {
        with_mut(t, |s| {
            let r = s.step();
            if let Some(o) = out.as_mut() {
                *o = match &r {
                    Ok(info) => *info,
                    Err(_) => euref_step_info {
                        ended: u32::from(s.ended()),
                        ..euref_step_info::default()
                    },
                };
            }
            r.map(|_| EUREF_OK)
        })
    }
}

/// Write `i` (below the last step's n_writes) of the last step into `*out`.
#[no_mangle]
pub unsafe extern "C" fn euref_step_write(
    t: *const euref_thread,
    i: u32,
    out: *mut euref_write,
) -> i32 {
    // SAFETY: checked pointers.
    unsafe {
        with_ref(t, |s| {
            let Some(o) = out.as_mut() else {
                return Err(Error::arg("out is NULL"));
            };
            let w = s.writes().get(i as usize).ok_or_else(|| {
                Error::arg(format!(
                    "write {i} does not exist: the last step made {} write(s)",
                    s.writes().len()
                ))
            })?;
            *o = *w;
            Ok(EUREF_OK)
        })
    }
}

/// Step to the end of the program, at most `max_steps` instructions; `*steps` (may be NULL)
/// gets the number executed. EUREF_ERR_LIMIT when the bound is reached first.
#[no_mangle]
pub unsafe extern "C" fn euref_run(t: *mut euref_thread, max_steps: u64, steps: *mut u64) -> i32 {
    // SAFETY: checked pointers.
    unsafe {
        with_mut(t, |s| {
            let r = s.run(max_steps);
            if let (Ok(n), Some(o)) = (&r, steps.as_mut()) {
                *o = *n;
            }
            r.map(|_| EUREF_OK)
        })
    }
}

/// Compare the design's GRF register `reg` (the 32 bytes at `actual32`) with euref's:
/// EUREF_OK when equal on every byte euref holds defined and exact; EUREF_MISMATCH with
/// `report` (NUL-terminated, cut to `cap` bytes; may be NULL when `cap` is 0) naming the
/// differing channels of the last instruction's destination and the spec rows it exercised.
#[no_mangle]
pub unsafe extern "C" fn euref_compare_grf(
    t: *const euref_thread,
    reg: u32,
    actual32: *const u8,
    report: *mut c_char,
    cap: usize,
) -> i32 {
    // SAFETY: checked pointers; 32 bytes at `actual32`, `cap` at `report`.
    unsafe {
        with_ref(t, |s| {
            let r = grf_reg(s, reg)?;
            let a = slice(actual32, 32, "actual32")?;
            let out = slice_mut(report.cast(), cap, "report")?;
            let diff = compare::compare_grf(s, r, a);
            if !out.is_empty() {
                let text = diff.as_deref().unwrap_or("").as_bytes();
                let n = text.len().min(out.len() - 1);
                out[..n].copy_from_slice(&text[..n]);
                out[n] = 0;
            }
            Ok(if diff.is_some() {
                EUREF_MISMATCH
            } else {
                EUREF_OK
            })
        })
    }
}

/// Bind binding-table index `bti` (0..255) to a buffer surface of `len` bytes at flat
/// address `base` in euref's memory, filled with the `len` bytes at `bytes` (NULL: left as
/// they are, undefined until written). Read it back with euref_read_memory.
#[no_mangle]
pub unsafe extern "C" fn euref_bind_surface(
    t: *mut euref_thread,
    bti: u32,
    base: u64,
    bytes: *const u8,
    len: u64,
) -> i32 {
    // SAFETY: checked pointers; `len` bytes at `bytes` when not NULL.
    unsafe {
        with_mut(t, |s| {
            let b = if bytes.is_null() {
                None
            } else {
                let n = usize::try_from(len)
                    .map_err(|_| Error::arg(format!("{len} bytes do not fit in memory")))?;
                Some(slice(bytes, n, "the surface bytes")?)
            };
            s.bind_surface(bti, base, b, len).map(|()| EUREF_OK)
        })
    }
}

/// `len` bytes of euref's flat memory from `addr` into `bytes`, and 0xff per undefined byte
/// into `undefined` and per inexact byte into `inexact` (each may be NULL).
#[no_mangle]
pub unsafe extern "C" fn euref_read_memory(
    t: *const euref_thread,
    addr: u64,
    bytes: *mut u8,
    undefined: *mut u8,
    inexact: *mut u8,
    len: usize,
) -> i32 {
    // SAFETY: checked pointers; `len` bytes at each non-NULL buffer.
    unsafe {
        with_ref(t, |s| {
            let out = slice_mut(bytes, len, "bytes")?;
            let (vals, marks) = s.read_memory(addr, len)?;
            for (o, v) in out.iter_mut().zip(&vals) {
                *o = v.unwrap_or(0);
            }
            if !undefined.is_null() {
                let u = slice_mut(undefined, len, "undefined")?;
                for (o, v) in u.iter_mut().zip(&vals) {
                    *o = if v.is_some() { 0 } else { 0xff };
                }
            }
            if !inexact.is_null() {
                let x = slice_mut(inexact, len, "inexact")?;
                for (o, m) in x.iter_mut().zip(&marks) {
                    *o = if *m { 0xff } else { 0 };
                }
            }
            Ok(EUREF_OK)
        })
    }
}

/// Store the `len` bytes at `bytes` in euref's flat memory from `addr` (defined, exact).
#[no_mangle]
pub unsafe extern "C" fn euref_write_memory(
    t: *mut euref_thread,
    addr: u64,
    bytes: *const u8,
    len: usize,
) -> i32 {
    // SAFETY: checked pointers; `len` bytes at `bytes`.
    unsafe {
        with_mut(t, |s| {
            let b = slice(bytes, len, "bytes")?;
            s.write_memory(addr, b).map(|()| EUREF_OK)
        })
    }
}

/// Give the thread `size` bytes of shared local memory (binding-table index 254), every byte
/// undefined; 0 removes it.
#[no_mangle]
pub unsafe extern "C" fn euref_set_slm(t: *mut euref_thread, size: u32) -> i32 {
    // SAFETY: checked handle.
    unsafe {
        with_mut(t, |s| {
            s.set_slm(size);
            Ok(EUREF_OK)
        })
    }
}

/// Keep the flat memory in the host: the sends' flat reads and writes call `read` and
/// `write` with `user` (both NULL: euref's own memory again). The callbacks run on the OS
/// thread that calls euref_step / euref_run, one at a time; surfaces are still bound with
/// euref_bind_surface (NULL bytes).
#[no_mangle]
pub unsafe extern "C" fn euref_set_memory_callbacks(
    t: *mut euref_thread,
    read: euref_mem_read_fn,
    write: euref_mem_write_fn,
    user: *mut c_void,
) -> i32 {
    // SAFETY: checked handle.
    unsafe {
        with_mut(t, |s| {
            match (read, write) {
                (None, None) => s.set_host_memory(None),
                (Some(_), Some(_)) => s.set_host_memory(Some(HostMemory::new(read, write, user))),
                _ => {
                    return Err(Error::arg(
                        "give both memory callbacks (read and write), or neither",
                    ))
                }
            }
            Ok(EUREF_OK)
        })
    }
}
