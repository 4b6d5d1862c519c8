//! What an opcode's forms leave out or fix beyond the knobs of its row (predication, condition
//! modifier, saturation, regions, types): the limits that validator rules and the opcode's
//! reading in the model put on a single instruction, so that its template builds only forms
//! with a result the sources back.

use super::{exec_size_of, implicit_acc};
use crate::spec::{DataType, Opcode};

/// Whether `op` with sources of type `st` is generated at execution size `n`.
pub(super) fn exec_size_ok(op: Opcode, st: DataType, n: u8) -> bool {
    match op {
        // pln reads src1 as <8;8,1> (op.pln-src1-region), whose width takes eight channels or
        // sixteen (region.width-le-exec).
        Opcode::Pln => n >= 8,
        // sad2 and sada2 write channel pairs (opcode.sad2): a lone channel is undefined.
        Opcode::Sad2 | Opcode::Sada2 => n >= 2,
        // The implicit accumulator of a DWord integer operation holds eight channels, in acc0
        // (acc.dword-simd8-acc0, which names AccWrCtrl and mach; addc and subb write it
        // whatever AccWrCtrl says, spec/opcodes.toml implicit_acc, so they keep to it too).
        _ if implicit_acc(op) && st.is_int() && exec_size_of(st) == 4 => n <= 8,
        _ => true,
    }
}

/// The region class source `i` of `op` always takes (None: the template's cycle picks one).
pub(super) fn fixed_region_class(op: Opcode, i: usize) -> Option<&'static str> {
    // pln's plane coefficients: the scalar region (op.pln-src0-scalar).
    (op == Opcode::Pln && i == 0).then_some("scalar")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The limits as the rows say them: pln at 8 and 16 channels, sad2/sada2 from 2, the
    /// DWord integer opcodes with an implicit accumulator (mach, addc, subb) up to 8, and
    /// the others (mac on words, add, bfe) unlimited.
    #[test]
    fn limits_follow_the_rows() {
        let sizes = [1u8, 2, 4, 8, 16];
        let ok = |op, t| -> Vec<u8> {
            sizes
                .iter()
                .copied()
                .filter(|&n| exec_size_ok(op, t, n))
                .collect()
        };
        assert_eq!(ok(Opcode::Pln, DataType::F), [8, 16]);
        assert_eq!(ok(Opcode::Sad2, DataType::UB), [2, 4, 8, 16]);
        assert_eq!(ok(Opcode::Sada2, DataType::B), [2, 4, 8, 16]);
        for op in [Opcode::Mach, Opcode::Addc, Opcode::Subb] {
            assert_eq!(ok(op, DataType::UD), [1, 2, 4, 8], "{op:?}");
        }
        assert_eq!(ok(Opcode::Mach, DataType::D), [1, 2, 4, 8]);
        assert_eq!(ok(Opcode::Mac, DataType::W), sizes);
        assert_eq!(ok(Opcode::Mac, DataType::F), sizes);
        assert_eq!(ok(Opcode::Add, DataType::UD), sizes);
        assert_eq!(ok(Opcode::Bfe, DataType::UD), sizes);
        assert_eq!(fixed_region_class(Opcode::Pln, 0), Some("scalar"));
        assert_eq!(fixed_region_class(Opcode::Pln, 1), None);
        assert_eq!(fixed_region_class(Opcode::Line, 0), None);
    }
}
