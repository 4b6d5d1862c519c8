//! IGA syntax of the branch operands (enc.iga-text.branch-operands): ret's source, call's
//! and calla's destination and jmpi's register source have the implicit type D, and their
//! regions are implicit. IGA writes neither; euref's IGA dialect leaves
//! out what equals the implicit value and reads an operand without them.

use crate::isa::{Insn, Region};
use crate::spec::encoding::values::IGA_TEXT_BRANCH_OPERANDS;
use crate::spec::{AccessMode, DataType, Opcode};

/// The implicit type of a branch operand (IGA OpSpec.cpp implicitSrcTypeVal: `:d`).
pub(crate) const IMPLICIT_TYPE: DataType = DataType::D;

/// Whether `op`'s register operands are branch operands.
pub(crate) fn is_branch_op(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::Ret | Opcode::Call | Opcode::Calla | Opcode::Jmpi
    )
}

/// Whether `i`'s operands are written in the branch-operand form (Align1 branches; an
/// Align16 one keeps every region and type).
pub(crate) fn applies(i: &Insn) -> bool {
    is_branch_op(i.op) && i.access == AccessMode::Align1
}

/// The implicit source region of `op` (ret <2;2,1>, jmpi <0;1,0>), from the row.
pub(crate) fn implicit_region(op: Opcode) -> Option<Region> {
    let keys = match op {
        Opcode::Ret => ["ret_vstride", "ret_width", "ret_hstride"],
        Opcode::Jmpi => ["jmpi_vstride", "jmpi_width", "jmpi_hstride"],
        _ => return None,
    };
    let t = &IGA_TEXT_BRANCH_OPERANDS;
    let get = |k: &str| t.value(k).and_then(|v| u8::try_from(v).ok());
    Some(Region::new(get(keys[0])?, get(keys[1])?, get(keys[2])?))
}
