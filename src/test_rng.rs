//! The unit tests' random source: Marsaglia's xorshift64 (13, 7, 17), deterministic per seed,
//! so a failing random case repeats on every run.

/// A generator of 64-bit words from `seed` (which must not be 0).
pub(crate) fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}
