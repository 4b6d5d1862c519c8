//! Generator outputs computed ahead, each with the first choice of a value starting there
//! (`x % 9` or `x % 10`): eight at a time on a processor with AVX-512 (detected at run time),
//! else one by one. Both give the same outputs and choices (tests: `fill::tests`).

use crate::golden::values::Rng;

/// Whether outputs are computed with AVX-512: true only on a processor that has it.
#[derive(Clone, Copy)]
pub(super) struct Wide(bool);

impl Wide {
    /// The processor's.
    pub(super) fn detect() -> Wide {
        #[cfg(target_arch = "x86_64")]
        {
            Wide(
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512dq")
                    && std::arch::is_x86_feature_detected!("avx512vl")
                    && std::arch::is_x86_feature_detected!("avx512bw"),
            )
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Wide(false)
        }
    }

    /// One by one (for tests).
    #[cfg(test)]
    pub(super) const NARROW: Wide = Wide(false);

    /// Outputs per block (the count a wide computation rounds up to).
    pub(super) fn block(self) -> usize {
        if self.0 {
            8
        } else {
            1
        }
    }
}

/// `x % M` (`M` 9 or 10) from sums of digits, in the 32-bit arithmetic a vector unit has (a
/// 64-bit division by a constant needs the high half of a 64-bit product, which it has not).
#[inline(always)]
pub(super) fn residue<const M: u32>(x: u64) -> u8 {
    if M == 9 {
        // 2^30 = 1 (mod 9): x's 30-bit digits add up to its residue (the sum is below 2^31 + 16).
        let s = (x & 0x3fff_ffff) + ((x >> 30) & 0x3fff_ffff) + (x >> 60);
        (s as u32 % 9) as u8
    } else {
        // 2^28 = 1 (mod 5) likewise; of `r5` and `r5 + 5`, x's residue mod 10 has x's parity.
        let s = (x & 0x0fff_ffff) + ((x >> 28) & 0x0fff_ffff) + (x >> 56);
        let r5 = s as u32 % 5;
        (r5 + 5 * ((x as u32 ^ r5) & 1)) as u8
    }
}

/// Fill `x` with the outputs after state `s` and `c` with their residues mod `M` (`c` as long
/// as `x`); returns the state of the last output.
#[inline(always)]
pub(super) fn compute<const M: u32>(wide: Wide, s: u64, x: &mut [u64], c: &mut [u8]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if wide.0 {
        // SAFETY: `Wide(true)` is only made by `Wide::detect` on a processor with the features
        // `compute_wide` is compiled for.
        return unsafe { compute_wide::<M>(s, x, c) };
    }
    let _ = wide;
    compute_with(s, x, c, |v| (v % u64::from(M)) as u8)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw")]
fn compute_wide<const M: u32>(s: u64, x: &mut [u64], c: &mut [u8]) -> u64 {
    compute_with(s, x, c, residue::<M>)
}

#[inline(always)]
fn compute_with(mut s: u64, x: &mut [u64], c: &mut [u8], choice: impl Fn(u64) -> u8) -> u64 {
    for (xk, ck) in x.iter_mut().zip(c) {
        s = s.wrapping_add(Rng::STEP);
        let v = Rng::mix(s);
        *xk = v;
        *ck = choice(v);
    }
    s
}
