//! Flat memory kept by the host (euref_set_memory_callbacks): the C read and write callbacks
//! behind the engine's [`FlatBacking`] hook. A callback that fails is noted and turned into
//! EUREF_ERR_MEMORY after the step (the engine's memory reads and writes cannot fail).

use crate::ffi_types::{euref_mem_read_fn, euref_mem_write_fn};
use euref::memory::FlatBacking;
use std::ffi::c_void;
use std::sync::Mutex;

/// The host's callbacks and user pointer, and the first failure since the last
/// [`HostMemory::take_failure`].
#[derive(Debug)]
pub struct HostMemory {
    read: euref_mem_read_fn,
    write: euref_mem_write_fn,
    user: UserPtr,
    failure: Mutex<Option<String>>,
}

/// The host's user pointer. The host promises (docs/embedding.md) that its callbacks may be
/// called from whichever OS thread steps the handle, one call at a time.
#[derive(Debug, Clone, Copy)]
struct UserPtr(*mut c_void);

// SAFETY: the pointer is only handed back to the host's callbacks, which the host declares
// callable from the thread stepping the handle (docs/embedding.md, "Memory callbacks").
unsafe impl Send for UserPtr {}
// SAFETY: as above; euref calls the callbacks of one handle one at a time.
unsafe impl Sync for UserPtr {}

impl HostMemory {
    pub fn new(read: euref_mem_read_fn, write: euref_mem_write_fn, user: *mut c_void) -> Self {
        HostMemory {
            read,
            write,
            user: UserPtr(user),
            failure: Mutex::new(None),
        }
    }

    /// The first callback failure since the last call, if any.
    pub fn take_failure(&self) -> Option<String> {
        self.failure.lock().ok().and_then(|mut f| f.take())
    }

    fn fail(&self, what: String) {
        if let Ok(mut f) = self.failure.lock() {
            f.get_or_insert(what);
        }
    }
}

impl FlatBacking for HostMemory {
    fn read(&self, a: u64, n: usize) -> Vec<Option<u8>> {
        let Some(read) = self.read else {
            return vec![None; n];
        };
        let mut out = Vec::with_capacity(n);
        // In chunks whose length fits the callback's u32.
        let mut done = 0usize;
        while done < n {
            let len = (n - done).min(1 << 20);
            let mut bytes = vec![0u8; len];
            let mut undef = vec![0u8; len];
            let addr = a.wrapping_add(done as u64);
            // SAFETY: both buffers hold `len` bytes; the host's callback contract.
            let rc = unsafe {
                read(
                    self.user.0,
                    addr,
                    bytes.as_mut_ptr(),
                    undef.as_mut_ptr(),
                    len as u32,
                )
            };
            if rc != 0 {
                self.fail(format!(
                    "the host's memory read callback returned {rc} for {len} bytes at {addr:#x}"
                ));
                out.extend(std::iter::repeat(None).take(len));
            } else {
                out.extend(
                    bytes
                        .iter()
                        .zip(&undef)
                        .map(|(&b, &u)| (u == 0).then_some(b)),
                );
            }
            done += len;
        }
        out
    }

    fn write(&self, a: u64, bytes: &[Option<u8>], inexact: bool) {
        let Some(write) = self.write else {
            return;
        };
        for (k, chunk) in bytes.chunks(1 << 20).enumerate() {
            let addr = a.wrapping_add((k << 20) as u64);
            let vals: Vec<u8> = chunk.iter().map(|b| b.unwrap_or(0)).collect();
            let undef: Vec<u8> = chunk
                .iter()
                .map(|b| if b.is_some() { 0 } else { 0xff })
                .collect();
            // SAFETY: both buffers hold `chunk.len()` bytes; the host's callback contract.
            let rc = unsafe {
                write(
                    self.user.0,
                    addr,
                    vals.as_ptr(),
                    undef.as_ptr(),
                    chunk.len() as u32,
                    u32::from(inexact),
                )
            };
            if rc != 0 {
                self.fail(format!(
                    "the host's memory write callback returned {rc} for {} bytes at {addr:#x}",
                    chunk.len()
                ));
            }
        }
    }
}
