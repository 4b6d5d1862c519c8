//! The templates' knobs: which of a few values a form of rank `k` takes.

use crate::golden::values::Rng;

/// Knob value `k` of a cycle over `xs`: every block of `xs.len()` consecutive ranks takes
/// every value once, in an order rotated by a hash of the block and the knob (`mul`, `add`),
/// so that knobs with equal periods do not move in lockstep.
pub(super) fn pick_cycle<T: Copy>(xs: &[T], k: u64, mul: u64, add: u64) -> T {
    xs[pick_index(xs.len(), k, mul, add)]
}

/// The position [`pick_cycle`] picks among `n` values: `(k % n + h % n) % n` for the block's
/// hash `h`, the last remainder taken by a subtraction (both terms are below `n`: one
/// division fewer).
pub(super) fn pick_index(n: usize, k: u64, mul: u64, add: u64) -> usize {
    let n = n as u64;
    let mut h = Rng::for_vector(mul.wrapping_mul(131).wrapping_add(add), k / n, 0);
    // (Below 2n, and n is a slice length: no overflow.)
    let sum = k % n + h.next() % n;
    (if sum >= n { sum - n } else { sum }) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `pick_index` is the three-remainder formula, for lengths 1..=300 and ranks near 0,
    /// near the block boundaries and at random (up to 2^64 - 1), with random knobs.
    #[test]
    fn pick_index_is_the_remainder_formula() {
        let formula = |n: usize, k: u64, mul: u64, add: u64| {
            let n = n as u64;
            let mut h = Rng::for_vector(mul.wrapping_mul(131).wrapping_add(add), k / n, 0);
            ((k % n + h.next() % n) % n) as usize
        };
        let mut next = crate::test_rng::xorshift(0x91C4_0FF5_u64);
        let mut wrapped = 0;
        for n in 1..=300usize {
            for j in 0..200u64 {
                let k = match j % 4 {
                    0 => j,
                    1 => (j * n as u64).wrapping_sub(1),
                    2 => next() >> (next() % 64),
                    _ => u64::MAX - j,
                };
                let (mul, add) = (next() % 64, next() % 16);
                let want = formula(n, k, mul, add);
                assert_eq!(pick_index(n, k, mul, add), want, "{n} {k} {mul} {add}");
                wrapped += usize::from(want < (k % n as u64) as usize);
            }
        }
        // (The sum passes n about half the time.)
        assert!(wrapped > 10_000, "{wrapped}");
    }
}
