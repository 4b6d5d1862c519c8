//! Registers by name (`r12`, `f0`, `acc0`, `cr0`) as byte strings: reading them out of and
//! writing them into a [`ThreadState`], and the hex text of the vector format and protocol.

use crate::state::ThreadState;

/// The bytes of one register and, per byte, the bits that are undefined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegBytes {
    pub bytes: Vec<u8>,
    pub undef: Vec<u8>,
}

/// GRF register number of a name `r<N>`.
pub fn grf_number(name: &str) -> Option<usize> {
    let n = name.strip_prefix('r')?.as_bytes();
    if n.is_empty() || n.len() > 3 {
        return None;
    }
    // (At most three digits: no overflow; leading zeros count as `parse` counts them.)
    n.iter().try_fold(0usize, |v, &b| {
        b.is_ascii_digit().then(|| v * 10 + usize::from(b - b'0'))
    })
}

/// Read register `name` (GRF `rN` or an ARF register of the platform).
pub fn read(st: &ThreadState, name: &str) -> Option<RegBytes> {
    if let Some(n) = grf_number(name) {
        let rb = st.grf_reg_bytes();
        let o = n * rb;
        if o + rb > st.grf_size() {
            return None;
        }
        let bytes = st.grf_bytes()[o..o + rb].to_vec();
        let undef = (o..o + rb)
            .map(|b| if st.grf_byte_undefined(b) { 0xff } else { 0 })
            .collect();
        return Some(RegBytes { bytes, undef });
    }
    let i = st.arf_index(name)?;
    let (bytes, und) = st.arf_reg(i)?;
    let undef = (0..bytes.len())
        .map(|k| (und[k / 4] >> (8 * (k % 4))) as u8)
        .collect();
    Some(RegBytes {
        bytes: bytes.to_vec(),
        undef,
    })
}

/// Write the defined bytes of register `name` from byte 0 (shorter: the rest is kept); a
/// `None` byte is made undefined.
pub fn write(st: &mut ThreadState, name: &str, bytes: &[Option<u8>]) -> Result<(), String> {
    if let Some(n) = grf_number(name) {
        let rb = st.grf_reg_bytes();
        let o = n * rb;
        if o + rb > st.grf_size() || bytes.len() > rb {
            return Err(format!("{name}: no such GRF register or too many bytes"));
        }
        for (k, b) in bytes.iter().enumerate() {
            match b {
                Some(v) => st
                    .write_grf_bytes(o + k, &[*v])
                    .map_err(|e| format!("{name}: {e}"))?,
                None => st.set_grf_undefined(o + k, 1),
            }
        }
        return Ok(());
    }
    if st.arf_index(name).is_none() || name == "null" {
        return Err(format!("no register `{name}` on {}", st.platform().name()));
    }
    for (k, b) in bytes.iter().enumerate() {
        match b {
            Some(v) => st.set_arf_bytes(name, k, &[*v]),
            None => st.set_arf_undefined(name, k, 1),
        }
        .map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(())
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Lowercase hex, byte 0 first.
pub fn to_hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(HEX[usize::from(b >> 4)] as char);
        s.push(HEX[usize::from(b & 15)] as char);
    }
    s
}

/// Parse hex text (byte 0 first; `xx` is an unknown byte, `None`).
pub fn parse_hex(s: &str) -> Result<Vec<Option<u8>>, String> {
    let b = s.as_bytes();
    if b.len() % 2 != 0 {
        return Err(format!("odd number of hex digits ({})", b.len()));
    }
    let nib = |c: u8, at: usize| -> Result<u8, String> {
        match c {
            b'0'..=b'9' => Ok(c - b'0'),
            b'a'..=b'f' => Ok(c - b'a' + 10),
            b'A'..=b'F' => Ok(c - b'A' + 10),
            _ => Err(format!(
                "not a hex digit at character {at}: `{}`",
                c as char
            )),
        }
    };
    b.chunks(2)
        .enumerate()
        .map(|(i, p)| {
            if p.eq_ignore_ascii_case(b"xx") {
                Ok(None)
            } else {
                Ok(Some((nib(p[0], 2 * i)? << 4) | nib(p[1], 2 * i + 1)?))
            }
        })
        .collect()
}

/// Parse hex text with every byte defined.
pub fn parse_hex_defined(s: &str) -> Result<Vec<u8>, String> {
    parse_hex(s)?
        .into_iter()
        .enumerate()
        .map(|(i, b)| b.ok_or_else(|| format!("byte {i} is `xx` where a value is required")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The digit fold reads every name as `str::parse` of the digits after `r` does.
    #[test]
    fn grf_numbers_are_the_parsed_digits() {
        let old = |name: &str| -> Option<usize> {
            let n = name.strip_prefix('r')?;
            if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) || n.len() > 3 {
                return None;
            }
            n.parse().ok()
        };
        let mut found = 0;
        for name in [
            "r", "r0", "r007", "r127", "r999", "r1000", "r-1", "r+1", "f0", "acc0", "",
        ] {
            assert_eq!(grf_number(name), old(name), "{name}");
        }
        for a in ["", "r", "R", "x"] {
            for b in (0u8..=255).map(char::from).chain(['é']) {
                for c in ["", "0", "12", "9x", "99"] {
                    let name = format!("{a}{b}{c}");
                    assert_eq!(grf_number(&name), old(&name), "{name}");
                    found += usize::from(old(&name).is_some());
                }
            }
        }
        assert!(found > 30, "{found}");
    }
}
