//! Hex text of register bytes to bytes, for `euref sim`'s requests: 32 digits at a time by
//! SSE2 on x86-64 (validated and decoded in four vector registers), the rest by a table.

/// Hex digit values (either case); 0xff: not a digit.
pub(super) const NIBBLE: [u8; 256] = {
    let mut t = [0xffu8; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = match c as u8 {
            b'0'..=b'9' => c as u8 - b'0',
            b'a'..=b'f' => c as u8 - b'a' + 10,
            b'A'..=b'F' => c as u8 - b'A' + 10,
            _ => 0xff,
        };
        c += 1;
    }
    t
};

/// Decode `hex` (two digits per byte, either case) into `out` (`out.len() == hex.len() / 2`,
/// `hex.len()` even): whether every byte of `hex` is a hex digit (`out` is unspecified when
/// not).
#[inline]
pub(super) fn decode_into(hex: &[u8], out: &mut [u8]) -> bool {
    if hex.len() != 2 * out.len() {
        return false;
    }
    let mut ok = true;
    let (h32, o16) = (hex.chunks_exact(32), out.chunks_exact_mut(16));
    let (hr, or) = (h32.remainder(), o16.len() * 16);
    for (h, o) in h32.zip(o16) {
        if let (Ok(h), Ok(o)) = (<&[u8; 32]>::try_from(h), <&mut [u8; 16]>::try_from(o)) {
            ok &= decode16(h, o);
        }
    }
    ok & decode_table(hr, out.get_mut(or..).unwrap_or_default())
}

/// [`decode_into`] a byte at a time by [`NIBBLE`] (as far as both go).
#[inline(always)]
fn decode_table(hex: &[u8], out: &mut [u8]) -> bool {
    let mut bad = 0u8;
    for (d, p) in out.iter_mut().zip(hex.chunks_exact(2)) {
        let (h, l) = (NIBBLE[usize::from(p[0])], NIBBLE[usize::from(p[1])]);
        bad |= h | l;
        *d = h << 4 | l;
    }
    bad < 16
}

/// 32 hex digits into 16 bytes: on x86-64 by SSE2 (part of the architecture: no detection),
/// elsewhere by [`decode_table`]. Whether all 32 are digits.
#[inline(always)]
fn decode16(hex: &[u8; 32], out: &mut [u8; 16]) -> bool {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of x86-64 (every x86-64 processor has it); the loads are unaligned
    // ones of 16 bytes inside `hex`, the store one of 16 bytes into `out`.
    unsafe {
        use std::arch::x86_64::*;
        let set = |c: u8| _mm_set1_epi8(c as i8);
        // Digit values and which bytes are digits. Signed compares: bytes from 0x80 on are
        // negative, below every digit.
        let nibbles = |c: __m128i| {
            let is_digit = _mm_and_si128(
                _mm_cmpgt_epi8(c, set(b'0' - 1)),
                _mm_cmplt_epi8(c, set(b'9' + 1)),
            );
            // Letters in lower case (a digit keeps its value: 0x20 is set in '0'..'9').
            let l = _mm_or_si128(c, set(0x20));
            let is_letter = _mm_and_si128(
                _mm_cmpgt_epi8(l, set(b'a' - 1)),
                _mm_cmplt_epi8(l, set(b'f' + 1)),
            );
            let v = _mm_or_si128(
                _mm_and_si128(is_digit, _mm_sub_epi8(c, set(b'0'))),
                _mm_and_si128(is_letter, _mm_sub_epi8(l, set(b'a' - 10))),
            );
            (v, _mm_or_si128(is_digit, is_letter))
        };
        let (a, ok_a) = nibbles(_mm_loadu_si128(hex.as_ptr().cast()));
        let (b, ok_b) = nibbles(_mm_loadu_si128(hex.as_ptr().add(16).cast()));
        // Each 16-bit lane holds a byte's high digit (low half) and low digit (high half).
        let bytes = |v: __m128i| {
            _mm_or_si128(
                _mm_and_si128(_mm_slli_epi16::<4>(v), _mm_set1_epi16(0xf0)),
                _mm_srli_epi16::<8>(v),
            )
        };
        _mm_storeu_si128(
            out.as_mut_ptr().cast(),
            _mm_packus_epi16(bytes(a), bytes(b)),
        );
        _mm_movemask_epi8(_mm_and_si128(ok_a, ok_b)) == 0xffff
    }
    #[cfg(not(target_arch = "x86_64"))]
    decode_table(hex, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte value in every position of a 32-digit block (and in the table's rest):
    /// the vector decoder agrees with the table, valid or not.
    #[test]
    fn blocks_decode_as_the_table_decodes() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let digits = b"0123456789abcdefABCDEF";
        let (mut valid, mut invalid) = (0, 0);
        for len in [0usize, 2, 8, 30, 32, 34, 64, 96, 128] {
            for round in 0..600 {
                let mut hex: Vec<u8> = (0..len)
                    .map(|_| digits[next() as usize % digits.len()])
                    .collect();
                if len > 0 && round % 2 == 1 {
                    // One byte of any value somewhere.
                    let at = next() as usize % len;
                    hex[at] = (round / 2 % 256) as u8;
                }
                let (mut fast, mut slow) = (vec![0u8; len / 2], vec![0u8; len / 2]);
                let ok = decode_into(&hex, &mut fast);
                let want = decode_table(&hex, &mut slow);
                assert_eq!(ok, want, "{hex:?}");
                assert_eq!(ok, hex.iter().all(u8::is_ascii_hexdigit), "{hex:?}");
                if ok {
                    assert_eq!(fast, slow, "{hex:?}");
                    valid += 1;
                } else {
                    invalid += 1;
                }
            }
        }
        assert!(valid > 2000 && invalid > 2000, "{valid} {invalid}");
        let mut out = [0u8; 2];
        assert!(!decode_into(b"001", &mut out));
        assert!(decode_into(b"fF0a", &mut out) && out == [0xff, 0x0a]);
    }
}
