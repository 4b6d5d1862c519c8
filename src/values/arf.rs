//! Storing a written value into an ARF register dword according to its field table.

use crate::spec::registers::{self, FieldAccess};
use crate::spec::Platform;

/// The value dword `dword` of ARF register `reg` (`"cr0"`, `"a0"`, `"tdr0"`, ...) holds after
/// `written` is written over `old` on `p`, following each field's access kind in
/// spec/registers.toml:
/// - `rw`: takes the written bits;
/// - `ro`, `reserved`, `special`: keeps the old bits (writes dropped; the engine implements a
///   `special` field's side effect itself, e.g. the tdr0 valid bits or cr0.0 bit 31);
/// - `zero`, `mbz`: holds zero (unpopulated bits drop writes and read as zero; MBZ bits are
///   kept at zero);
/// - `w1c`: written ones clear the old bits.
///
/// Bits that no field covers on `p` (a register dword the platform does not have) keep `old`.
pub fn arf_store(p: Platform, reg: &str, dword: u32, old: u32, written: u32) -> u32 {
    let mut v = old;
    for f in registers::fields_of(p, reg, dword) {
        let m = f.mask();
        let new_bits = match f.access {
            FieldAccess::Rw => written & m,
            FieldAccess::Ro | FieldAccess::Reserved | FieldAccess::Special => old & m,
            FieldAccess::Zero | FieldAccess::Mbz => 0,
            FieldAccess::W1c => old & !written & m,
        };
        v = (v & !m) | new_bits;
    }
    v
}
