//! The register operands the branch instructions read and write themselves (call's return
//! register, ret's source, jmpi's register offset): direct GRF operands only, element 0 (and
//! call's element 1).

use super::{refused, RunError};
use crate::isa::{Addr, Insn, Reg, RegSrc, Src};
use crate::spec::flow::{self, FlowRowInfo};
use crate::state::ThreadState;

/// The GRF byte address of a direct GRF operand (None for an ARF or indirect operand).
pub fn grf_byte(st: &ThreadState, addr: &Addr) -> Option<usize> {
    match *addr {
        Addr::Direct {
            reg: Reg::Grf(r),
            sub,
        } => Some(usize::from(r) * st.grf_reg_bytes() + usize::from(sub)),
        _ => None,
    }
}

/// Why a scalar could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    /// Not a direct GRF operand of an integer type of at most 4 bytes without modifiers, or
    /// outside the register file.
    Form(String),
    /// A byte of the element is undefined.
    Undefined,
}

/// Element 0 of integer source `s` (at most 32 bits), sign-extended when its type is signed.
pub fn read_int(st: &ThreadState, s: &RegSrc) -> Result<i64, ReadError> {
    let form = |what: &str| ReadError::Form(what.to_string());
    let Some(o) = grf_byte(st, &s.addr) else {
        return Err(form("the operand is not a direct GRF register"));
    };
    if !s.ty.is_int() || s.ty.bytes() > 4 {
        return Err(ReadError::Form(format!(
            "type {} is not an integer type of at most 32 bits",
            s.ty.name()
        )));
    }
    if s.neg || s.abs {
        return Err(form("the operand has a source modifier"));
    }
    let n = s.ty.bytes() as usize;
    let (v, undef) = st
        .read_grf(o, n)
        .map_err(|e| ReadError::Form(e.to_string()))?;
    if undef {
        return Err(ReadError::Undefined);
    }
    let bits = 8 * n as u32;
    Ok(if s.ty.is_signed() {
        // Sign-extend from `bits`.
        ((v << (64 - bits)) as i64) >> (64 - bits)
    } else {
        v as i64
    })
}

/// jmpi's offset (flow.jmpi, flow.jmpi.reg): the signed 32-bit immediate, or element 0 of its
/// register operand; a register the row cannot read is refused naming flow.jmpi.reg.
pub(super) fn jmpi_offset(
    st: &ThreadState,
    insn: &Insn,
    ip: u32,
    row: &'static FlowRowInfo,
) -> Result<i32, RunError> {
    match &insn.src[1] {
        Some(Src::Imm(imm)) => Ok(imm.bits as u32 as i32),
        Some(Src::Reg(r)) => match read_int(st, r) {
            // (Truncated to 32 bits: the operand is at most a dword.)
            Ok(v) => Ok(v as i32),
            Err(ReadError::Undefined) => Err(refused(
                ip,
                &flow::JMPI_REG,
                "the offset register's element 0 is undefined",
            )),
            Err(ReadError::Form(what)) => Err(refused(ip, &flow::JMPI_REG, what)),
        },
        None => Err(refused(ip, row, "jmpi has no offset operand")),
    }
}
