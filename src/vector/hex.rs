//! Register bytes as hex text (byte 0 first, lower case): the writers of the golden line
//! writer and of `euref sim`'s responses.

pub(crate) const HEX: &[u8; 16] = b"0123456789abcdef";

/// Two hex digits per byte value (also `euref sim`'s register writer).
pub(crate) static HEX2: [[u8; 2]; 256] = {
    let mut t = [[0u8; 2]; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = [HEX[i >> 4], HEX[i & 15]];
        i += 1;
    }
    t
};

/// The hex digit of a nibble (`n < 16`), lower case.
#[inline(always)]
fn digit(n: u8) -> u8 {
    n + b'0' + if n > 9 { b'a' - b'0' - 10 } else { 0 }
}

/// The hex of `N` bytes into `dst` (`dst.len() == 2 * N`), byte 0's high digit first:
/// 16 bytes at a time by [`hex16`], the rest byte by byte.
#[inline(always)]
pub(crate) fn hex_into<const N: usize>(dst: &mut [u8], src: &[u8; N]) {
    let (d16, s16) = (dst.chunks_exact_mut(32), src.chunks_exact(16));
    let (dr, sr) = (N / 16 * 32, N / 16 * 16);
    for (d, s) in d16.zip(s16) {
        if let (Ok(d), Ok(s)) = (<&mut [u8; 32]>::try_from(d), <&[u8; 16]>::try_from(s)) {
            hex16(d, s);
        }
    }
    let rest = dst.get_mut(dr..).unwrap_or_default();
    hex_bytes(rest, src.get(sr..).unwrap_or_default());
}

/// The hex of `src` into `dst` (as far as both go) byte by byte: branch-free byte
/// arithmetic (the general path of [`hex16`]).
#[inline(always)]
pub(crate) fn hex_bytes(dst: &mut [u8], src: &[u8]) {
    for (d, &b) in dst.chunks_exact_mut(2).zip(src) {
        d[0] = digit(b >> 4);
        d[1] = digit(b & 15);
    }
}

/// The hex of 16 bytes: on x86-64 by SSE2 (part of the architecture: no detection) in
/// two registers of digits (the nibbles split, interleaved, and made digits by a compare
/// and two adds), elsewhere by [`hex_bytes`]. (The compiler's own vectorization of
/// [`hex_bytes`] works on 8 bytes at a time, twice the instructions.)
#[inline(always)]
pub(crate) fn hex16(dst: &mut [u8; 32], src: &[u8; 16]) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of x86-64 (every x86-64 processor has it); the loads and
    // stores are unaligned ones of 16 bytes inside `src` and the two halves of `dst`.
    unsafe {
        use std::arch::x86_64::*;
        let x = _mm_loadu_si128(src.as_ptr().cast());
        let low = _mm_set1_epi8(0x0f);
        let hi = _mm_and_si128(_mm_srli_epi16::<4>(x), low);
        let lo = _mm_and_si128(x, low);
        // Nibble n (0..16) to its digit: n + '0', and 'a' - '0' - 10 more when n > 9.
        let (nine, letter, zero) = (
            _mm_set1_epi8(9),
            _mm_set1_epi8((b'a' - b'0' - 10) as i8),
            _mm_set1_epi8(b'0' as i8),
        );
        let digits = |n: __m128i| {
            let more = _mm_and_si128(_mm_cmpgt_epi8(n, nine), letter);
            _mm_add_epi8(_mm_add_epi8(n, zero), more)
        };
        let a = digits(_mm_unpacklo_epi8(hi, lo));
        let b = digits(_mm_unpackhi_epi8(hi, lo));
        let (d0, d1) = dst.split_at_mut(16);
        _mm_storeu_si128(d0.as_mut_ptr().cast(), a);
        _mm_storeu_si128(d1.as_mut_ptr().cast(), b);
    }
    #[cfg(not(target_arch = "x86_64"))]
    hex_bytes(dst, src);
}

/// The hex of the 4 bytes of `x` (little-endian: its low byte first): the bytes spread
/// to every other byte of a 64-bit word, the nibbles split, and the digits made by word
/// arithmetic (no byte can carry into the next).
#[inline(always)]
pub fn hex4(x: u32) -> [u8; 8] {
    const LOW: u64 = 0x000f_000f_000f_000f;
    let v = u64::from(x);
    let v = (v | v << 16) & 0x0000_ffff_0000_ffff;
    let v = (v | v << 8) & 0x00ff_00ff_00ff_00ff;
    // Byte 2i: the high nibble of byte i; byte 2i + 1: its low nibble.
    let n = (v >> 4 & LOW) | (v & LOW) << 8;
    let letters = (n + 0x0606_0606_0606_0606) >> 4 & 0x0101_0101_0101_0101;
    (n + 0x3030_3030_3030_3030 + letters * u64::from(b'a' - b'0' - 10)).to_le_bytes()
}
