//! Registers of a thread state by name, for the embedding interfaces (the C library in capi/,
//! the Python module in python/): `r12` (or `g12`, any case) for a GRF register, and the
//! architecture registers as the state JSON names them (`a0`, `acc0`, `f1`, `cr0`, `sr0`,
//! `ip`, ...: the platform's ARF layout, spec/registers.toml). A register is read whole with
//! its undefined and inexact marks, one mask byte per byte of the register, one bit per bit
//! (a GRF byte is undefined or inexact as a whole: 0xff).

use super::{StateError, ThreadState};

/// A register of the state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegRef {
    /// GRF register number.
    Grf(usize),
    /// Index in the platform's ARF layout.
    Arf(usize),
}

/// A register's bytes and marks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegMarks {
    /// Its name (`r12`, `acc0`, ...).
    pub name: String,
    pub bytes: Vec<u8>,
    /// Set bits: undefined.
    pub undefined: Vec<u8>,
    /// Set bits: from an approximate math result (math.inexact).
    pub inexact: Vec<u8>,
}

/// The GRF registers of `st`.
pub fn grf_count(st: &ThreadState) -> usize {
    st.grf_size() / st.grf_reg_bytes().max(1)
}

/// The register `name` names on `st`'s platform, or an error that lists the names.
pub fn find(st: &ThreadState, name: &str) -> Result<RegRef, String> {
    if let Some(digits) = name.strip_prefix(['r', 'g', 'R', 'G']) {
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            let n = grf_count(st);
            return match digits.parse::<usize>() {
                Ok(r) if r < n => Ok(RegRef::Grf(r)),
                _ => Err(format!(
                    "no GRF register `{name}` on {}: the GRF is r0..r{}",
                    st.platform().name(),
                    n.saturating_sub(1)
                )),
            };
        }
    }
    st.arf_index(name).map(RegRef::Arf).ok_or_else(|| {
        let arf: Vec<&str> = st
            .arf_layout()
            .regs
            .iter()
            .map(|r| r.name.as_str())
            .collect();
        format!(
            "no register `{}` on {}: GRF r0..r{}, ARF {}",
            name.escape_debug(),
            st.platform().name(),
            grf_count(st).saturating_sub(1),
            arf.join(" ")
        )
    })
}

/// The name of `r` (`r12`, `acc0`).
pub fn name_of(st: &ThreadState, r: RegRef) -> String {
    match r {
        RegRef::Grf(n) => format!("r{n}"),
        RegRef::Arf(i) => st
            .arf_layout()
            .regs
            .get(i)
            .map_or_else(String::new, |a| a.name.clone()),
    }
}

/// The size of `r` in bytes.
pub fn size(st: &ThreadState, r: RegRef) -> usize {
    match r {
        RegRef::Grf(_) => st.grf_reg_bytes(),
        RegRef::Arf(i) => st.arf_layout().regs.get(i).map_or(0, |a| a.bytes),
    }
}

/// The bytes of `r` with their marks (empty for an ARF index beyond the layout).
pub fn read(st: &ThreadState, r: RegRef) -> RegMarks {
    let mark = |on: bool| if on { 0xff } else { 0 };
    let name = name_of(st, r);
    match r {
        RegRef::Grf(n) => {
            let rb = st.grf_reg_bytes();
            let o = n * rb;
            RegMarks {
                name,
                bytes: st.grf_bytes().get(o..o + rb).unwrap_or_default().to_vec(),
                undefined: (o..o + rb)
                    .map(|b| mark(st.grf_byte_undefined(b)))
                    .collect(),
                inexact: (o..o + rb).map(|b| mark(st.grf_byte_inexact(b))).collect(),
            }
        }
        RegRef::Arf(i) => {
            let Some((bytes, und)) = st.arf_reg(i) else {
                return RegMarks {
                    name,
                    bytes: Vec::new(),
                    undefined: Vec::new(),
                    inexact: Vec::new(),
                };
            };
            // Byte o of a register whose masks are given per dword.
            let byte_of = |mask: u32, o: usize| (mask >> (8 * (o % 4))) as u8;
            RegMarks {
                undefined: (0..bytes.len())
                    .map(|o| byte_of(und.get(o / 4).copied().unwrap_or(u32::MAX), o))
                    .collect(),
                inexact: (0..bytes.len())
                    .map(|o| byte_of(st.arf_inexact(&name, o / 4).unwrap_or(0), o))
                    .collect(),
                bytes: bytes.to_vec(),
                name,
            }
        }
    }
}

/// Write `bytes` (exact) at the start of `r`, undefined where `undefined` has bits set (a GRF
/// byte with any bit set is undefined as a whole). At most the register's size for an ARF
/// register; a GRF write may go on into the registers after `r`.
pub fn write(
    st: &mut ThreadState,
    r: RegRef,
    bytes: &[u8],
    undefined: Option<&[u8]>,
) -> Result<(), StateError> {
    match r {
        RegRef::Grf(n) => {
            let o = n * st.grf_reg_bytes();
            st.write_grf_bytes(o, bytes)?;
            for (k, m) in undefined.unwrap_or_default().iter().enumerate() {
                if *m != 0 && k < bytes.len() {
                    st.set_grf_undefined(o + k, 1);
                }
            }
        }
        RegRef::Arf(i) => {
            let name = name_of(st, r);
            st.set_arf_bytes(&name, 0, bytes)?;
            if let Some(u) = undefined {
                for d in 0..bytes.len().div_ceil(4) {
                    let bits = (0..4)
                        .filter(|k| 4 * d + k < bytes.len().min(u.len()))
                        .fold(0u32, |m, k| m | u32::from(u[4 * d + k]) << (8 * k));
                    let was = st
                        .arf_reg(i)
                        .and_then(|(_, und)| und.get(d).copied())
                        .unwrap_or(0);
                    st.set_arf_undef_bits(&name, d, was | bits)?;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Platform;

    /// Names find their registers (any GRF spelling; ARF names of the layout), unknown ones
    /// are refused with the names listed, and a write reads back with its undefined marks.
    #[test]
    fn registers_by_name_read_back_what_was_written() {
        let mut st = ThreadState::zeroed(Platform::Skl);
        assert_eq!(find(&st, "r12"), Ok(RegRef::Grf(12)));
        assert_eq!(find(&st, "G12"), Ok(RegRef::Grf(12)));
        assert!(find(&st, "r128").unwrap_err().contains("r0..r127"));
        let e = find(&st, "zz").unwrap_err();
        assert!(e.contains("acc0") && e.contains("GRF r0..r127"), "{e}");
        let f0 = find(&st, "f0").unwrap();
        assert_eq!(name_of(&st, f0), "f0");
        write(&mut st, f0, &[0x34, 0x12], Some(&[0, 0x0f])).unwrap();
        let v = read(&st, f0);
        assert_eq!(&v.bytes[..2], &[0x34, 0x12]);
        assert_eq!(&v.undefined[..2], &[0, 0x0f]);
        let r3 = RegRef::Grf(3);
        write(&mut st, r3, &[1, 2, 3], Some(&[0, 1, 0])).unwrap();
        let v = read(&st, r3);
        assert_eq!((v.name.as_str(), &v.bytes[..3]), ("r3", &[1u8, 2, 3][..]));
        assert_eq!(&v.undefined[..3], &[0, 0xff, 0]);
        assert_eq!(v.bytes.len(), size(&st, r3));
    }
}
