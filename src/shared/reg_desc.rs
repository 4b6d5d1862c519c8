//! Register descriptors (spec/memory.toml send.register-descriptor): a send whose descriptor is
//! a0.0, or a Gen9 split send whose extended descriptor is a0.N, takes that register's dword
//! when it executes; the dword is then decoded as an immediate descriptor would be.

use crate::isa::{Insn, SendDesc};
use crate::memory::MemError;
use crate::spec::memory as rows;
use crate::state::ThreadState;

/// Bits of a register descriptor that must be 0 (31:29: above the function control, EOT
/// comes from the instruction).
const DESC_ZERO: u32 = 0xe000_0000;
/// Bits of a register extended descriptor that must be 0 (4 and 15:11).
const EX_ZERO: u32 = 0x0000_f810;
/// The SFID (3:0) and EOT (5) copies of a register extended descriptor.
const EX_SFID: u32 = 0xf;
const EX_EOT: u32 = 1 << 5;

/// Where a send's descriptors came from: the registers it read, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Sources {
    /// The descriptor was a0.N (N given).
    pub desc: Option<u8>,
    /// The extended descriptor was a0.N (N given).
    pub ex_desc: Option<u8>,
}

fn refuse(detail: String) -> MemError {
    MemError::new(&rows::SEND_REGISTER_DESCRIPTOR, detail)
}

/// Dword `n` of a0, refusing an undefined bit.
fn a0_dword(st: &ThreadState, n: u8, what: &str) -> Result<u32, MemError> {
    match st.arf_dword("a0", usize::from(n)) {
        Some((v, 0)) => Ok(v),
        Some((_, u)) => Err(refuse(format!(
            "the {what} is a0.{n}:ud, whose bits {u:#010x} are undefined"
        ))),
        None => Err(refuse(format!(
            "the {what} is a0.{n}:ud, which {} does not have",
            st.platform().name()
        ))),
    }
}

/// The descriptor of `insn` (without EOT) and, for a split send, its extended descriptor
/// (without SFID and EOT), reading a0 where they are registers.
pub fn resolve(
    st: &ThreadState,
    insn: &Insn,
    sfid: u8,
    desc: SendDesc,
    ex_desc: SendDesc,
) -> Result<(u32, Option<u32>, Sources), MemError> {
    let mut src = Sources::default();
    let d = match desc {
        SendDesc::Imm(d) => d & 0x7fff_ffff,
        SendDesc::A0(n) => {
            src.desc = Some(n);
            let v = a0_dword(st, n, "descriptor")?;
            if v & DESC_ZERO != 0 {
                return Err(refuse(format!(
                    "the descriptor a0.{n}:ud = {v:#010x} has bits 31:29 set ({:#x}); the \
                     sources read do not say what they do",
                    v & DESC_ZERO
                )));
            }
            v
        }
    };
    if !insn.is_split_send() {
        return Ok((d, None, src));
    }
    let x = match ex_desc {
        SendDesc::Imm(x) => x,
        SendDesc::A0(n) => {
            src.ex_desc = Some(n);
            let v = a0_dword(st, n, "extended descriptor")?;
            if v & EX_ZERO != 0 {
                return Err(refuse(format!(
                    "the extended descriptor a0.{n}:ud = {v:#010x} has bits {:#x} set (bit 4 or \
                     15:11); the sources read do not say what they do",
                    v & EX_ZERO
                )));
            }
            let (s, e) = (v & EX_SFID, v & EX_EOT != 0);
            if s != 0 && s != u32::from(sfid) {
                return Err(refuse(format!(
                    "the extended descriptor a0.{n}:ud = {v:#010x} names SFID {s}, the \
                     instruction SFID {sfid}"
                )));
            }
            if v & EX_EOT != 0 && e != insn.ctrl.eot {
                return Err(refuse(format!(
                    "the extended descriptor a0.{n}:ud = {v:#010x} has EOT set, the instruction \
                     does not"
                )));
            }
            v & !(EX_SFID | EX_EOT)
        }
    };
    Ok((d, Some(x), src))
}
