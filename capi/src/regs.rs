//! Registers by name (`r5`, `acc0`, `f0`, `a0`, `sr0`, `cr0`, `ip`, ...): whole registers
//! read and written with per-bit undefined and inexact masks (one byte of mask per byte of
//! register; GRF bytes are undefined or inexact as a whole, 0xff).

use crate::error::Error;
use euref::state::ThreadState;

/// A register of the state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegRef {
    /// GRF register number.
    Grf(usize),
    /// Index in the ARF layout.
    Arf(usize),
}

/// A register's bytes and masks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegValue {
    pub bytes: Vec<u8>,
    pub undefined: Vec<u8>,
    pub inexact: Vec<u8>,
}

/// The GRF registers of `st`.
pub fn grf_count(st: &ThreadState) -> usize {
    st.grf_size() / st.grf_reg_bytes().max(1)
}

/// The register `name` names on `st`'s platform.
pub fn find(st: &ThreadState, name: &str) -> Result<RegRef, Error> {
    if let Some(num) = name.strip_prefix('r') {
        if !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()) {
            let n = grf_count(st);
            return match num.parse::<usize>() {
                Ok(r) if r < n => Ok(RegRef::Grf(r)),
                _ => Err(Error::arg(format!(
                    "no GRF register `{name}`: the GRF is r0..r{}",
                    n - 1
                ))),
            };
        }
    }
    st.arf_index(name).map(RegRef::Arf).ok_or_else(|| {
        let names: Vec<&str> = st
            .arf_layout()
            .regs
            .iter()
            .map(|r| r.name.as_str())
            .collect();
        Error::arg(format!(
            "no register `{}` on {}: GRF r0..r{}, ARF {}",
            name.escape_debug(),
            st.platform().name(),
            grf_count(st) - 1,
            names.join(" ")
        ))
    })
}

/// The bytes of register `r` and their masks.
pub fn read(st: &ThreadState, r: RegRef) -> RegValue {
    match r {
        RegRef::Grf(n) => {
            let rb = st.grf_reg_bytes();
            let o = n * rb;
            RegValue {
                bytes: st.grf_bytes()[o..o + rb].to_vec(),
                undefined: (o..o + rb)
                    .map(|b| if st.grf_byte_undefined(b) { 0xff } else { 0 })
                    .collect(),
                inexact: (o..o + rb)
                    .map(|b| if st.grf_byte_inexact(b) { 0xff } else { 0 })
                    .collect(),
            }
        }
        RegRef::Arf(i) => {
            let reg = &st.arf_layout().regs[i];
            let (bytes, und) = st.arf_reg(i).expect("an index of the layout");
            let byte_of =
                |masks: &dyn Fn(usize) -> u32, o: usize| (masks(o / 4) >> (8 * (o % 4))) as u8;
            let und_of = |d: usize| und.get(d).copied().unwrap_or(u32::MAX);
            let inx_of = |d: usize| st.arf_inexact(&reg.name, d).unwrap_or(0);
            RegValue {
                bytes: bytes.to_vec(),
                undefined: (0..bytes.len()).map(|o| byte_of(&und_of, o)).collect(),
                inexact: (0..bytes.len()).map(|o| byte_of(&inx_of, o)).collect(),
            }
        }
    }
}

/// The size of register `r` in bytes.
pub fn size(st: &ThreadState, r: RegRef) -> usize {
    match r {
        RegRef::Grf(_) => st.grf_reg_bytes(),
        RegRef::Arf(i) => st.arf_layout().regs[i].bytes,
    }
}

/// Write the first `bytes.len()` bytes of register `r` (exact), undefined where `undefined`
/// has bits set (a GRF byte with any bit set is undefined as a whole).
pub fn write(
    st: &mut ThreadState,
    r: RegRef,
    bytes: &[u8],
    undefined: Option<&[u8]>,
) -> Result<(), Error> {
    let size = size(st, r);
    if bytes.len() > size {
        return Err(Error::arg(format!(
            "{} bytes for a {size}-byte register",
            bytes.len()
        )));
    }
    let bad = |e: euref::state::StateError| Error::arg(e.to_string());
    match r {
        RegRef::Grf(n) => {
            let o = n * st.grf_reg_bytes();
            st.write_grf_bytes(o, bytes).map_err(bad)?;
            if let Some(u) = undefined {
                for (k, m) in u.iter().enumerate().take(bytes.len()) {
                    if *m != 0 {
                        st.set_grf_undefined(o + k, 1);
                    }
                }
            }
        }
        RegRef::Arf(i) => {
            let name = st.arf_layout().regs[i].name.clone();
            if name == "ip" {
                return Err(Error::arg(
                    "`ip` is the thread's: load the program at the address to start from \
                     (euref_load_program_at)",
                ));
            }
            st.set_arf_bytes(&name, 0, bytes).map_err(bad)?;
            if let Some(u) = undefined {
                for d in 0..bytes.len().div_ceil(4) {
                    let bits = (0..4)
                        .filter(|k| 4 * d + k < bytes.len())
                        .fold(0u32, |m, k| m | u32::from(u[4 * d + k]) << (8 * k));
                    let (_, und) = st.arf_reg(i).expect("an index of the layout");
                    st.set_arf_undef_bits(&name, d, und[d] | bits)
                        .map_err(bad)?;
                }
            }
        }
    }
    Ok(())
}
