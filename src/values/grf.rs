//! The general register file of one thread as plain little-endian bytes.

use super::ValueError;
use crate::spec::{registers, DataType};

/// The GRF of one thread: `count` registers of `reg_bytes` bytes (from the `regfile.grf` row of
/// spec/registers.toml: 128 x 32 bytes), byte addressed, little-endian.
///
/// Register `r`, subregister byte `s` is byte offset `r * reg_bytes() + s`.
#[derive(Clone, PartialEq, Eq)]
pub struct Grf {
    bytes: Vec<u8>,
    reg_bytes: usize,
}

impl std::fmt::Debug for Grf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Grf")
            .field("registers", &self.registers())
            .field("reg_bytes", &self.reg_bytes)
            .finish_non_exhaustive()
    }
}

impl Default for Grf {
    fn default() -> Self {
        Grf::new()
    }
}

impl Grf {
    /// A zero-filled GRF sized from the `regfile.grf` row.
    pub fn new() -> Grf {
        let (count, reg_bytes) = Grf::geometry();
        Grf {
            bytes: vec![0; count * reg_bytes],
            reg_bytes,
        }
    }

    /// (register count, bytes per register) of the GRF, from spec/registers.toml.
    pub fn geometry() -> (usize, usize) {
        let row = registers::file("grf").expect("spec/registers.toml defines the grf [[file]] row");
        let count = row.count.expect("the grf [[file]] row has a count") as usize;
        let reg_bytes = row.reg_bytes.expect("the grf [[file]] row has reg_bytes") as usize;
        (count, reg_bytes)
    }

    /// Total size in bytes.
    pub fn size(&self) -> usize {
        self.bytes.len()
    }

    /// Number of registers.
    pub fn registers(&self) -> usize {
        self.bytes.len() / self.reg_bytes
    }

    /// Bytes per register.
    pub fn reg_bytes(&self) -> usize {
        self.reg_bytes
    }

    /// The byte offset of register `reg`, subregister byte `subreg` (not range-checked: an
    /// access at the result is).
    pub fn offset(&self, reg: usize, subreg: usize) -> usize {
        reg.saturating_mul(self.reg_bytes).saturating_add(subreg)
    }

    /// All bytes, register 0 first.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The bytes of register `reg`, if it exists.
    pub fn reg(&self, reg: usize) -> Option<&[u8]> {
        let start = reg.checked_mul(self.reg_bytes)?;
        self.bytes.get(start..start + self.reg_bytes)
    }

    /// Check that an element of type `t` may be accessed at `offset`; returns its size.
    fn check(&self, t: DataType, offset: usize) -> Result<usize, ValueError> {
        if t.is_vector() {
            return Err(ValueError::NotRegisterType { ty: t, offset });
        }
        let size = t.bytes() as usize;
        if size == 0 || offset % size != 0 {
            return Err(ValueError::Misaligned {
                ty: t,
                offset,
                align: size,
            });
        }
        match offset.checked_add(size) {
            Some(end) if end <= self.bytes.len() => Ok(size),
            _ => Err(ValueError::OutOfRange {
                ty: t,
                offset,
                size,
                limit: self.bytes.len(),
            }),
        }
    }

    /// Read the element of type `t` at byte `offset`: its bits, zero-extended to 64 bits.
    pub fn read(&self, t: DataType, offset: usize) -> Result<u64, ValueError> {
        let size = self.check(t, offset)?;
        let v = self.bytes[offset..offset + size]
            .iter()
            .rev()
            .fold(0u64, |acc, b| (acc << 8) | u64::from(*b));
        Ok(v)
    }

    /// Write the element of type `t` at byte `offset`. `value` holds the element's bits in its
    /// low `t.bits()` bits; higher bits must be zero, or all ones for a negative value of a
    /// signed integer type (a sign-extended value), otherwise [`ValueError::ValueTooWide`].
    pub fn write(&mut self, t: DataType, offset: usize, value: u64) -> Result<(), ValueError> {
        let size = self.check(t, offset)?;
        let bits = 8 * size as u32;
        if bits < 64 {
            let high = value >> bits;
            let sign_extended = t.is_int()
                && t.is_signed()
                && high == (u64::MAX >> bits)
                && (value >> (bits - 1)) & 1 == 1;
            if high != 0 && !sign_extended {
                return Err(ValueError::ValueTooWide { ty: t, value });
            }
        }
        for (i, b) in self.bytes[offset..offset + size].iter_mut().enumerate() {
            *b = (value >> (8 * i)) as u8;
        }
        Ok(())
    }
}
