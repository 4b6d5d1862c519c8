//! Prefetching text the checker reads soon but that is probably not in its core's cache (vector
//! lines the reader thread wrote on the other core). A prefetch changes nothing but timing.

/// Cache line size assumed.
const LINE: usize = 64;

/// Ask the processor to load `bytes` into its caches (no effect elsewhere than x86-64).
#[inline]
pub fn prefetch(bytes: &[u8]) {
    #[cfg(target_arch = "x86_64")]
    for at in (0..bytes.len()).step_by(LINE) {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch changes neither memory nor the program's behaviour, and the
        // address is within `bytes` (`at < bytes.len()`).
        unsafe { _mm_prefetch::<_MM_HINT_T0>(bytes.as_ptr().add(at).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = bytes;
}
