//! The register payload of a send and its response (spec/memory.toml send.payload,
//! send.response): whole GRF registers, each byte with its undefined flag.

use crate::isa::{Addr, Insn, Reg, Src};
use crate::memory::MemError;
use crate::spec::memory as rows;
use crate::state::ThreadState;

/// Payload registers as bytes (`None`: undefined), `reg_bytes` per register.
#[derive(Debug, Clone)]
pub struct Payload {
    pub bytes: Vec<Option<u8>>,
    pub reg_bytes: usize,
}

impl Payload {
    /// Dword `i` of register `reg` of the payload (`None` when any byte is undefined).
    pub fn dword(&self, reg: usize, i: usize) -> Option<u32> {
        let o = reg * self.reg_bytes + 4 * i;
        let b = self.bytes.get(o..o + 4)?;
        Some(u32::from_le_bytes([b[0]?, b[1]?, b[2]?, b[3]?]))
    }

    /// Lane `i`'s 32-bit address (payload register i/8, dword i%8), refusing an undefined one
    /// (send.undefined-address).
    pub fn lane_address(&self, i: usize) -> Result<u32, MemError> {
        self.dword(i / 8, i % 8).ok_or_else(|| {
            MemError::new(
                &rows::SEND_UNDEFINED_ADDRESS,
                format!(
                    "lane {i}'s address (payload register {}, dword {}) is undefined",
                    i / 8,
                    i % 8
                ),
            )
        })
    }

    /// The 4 bytes of dword `i` of register `reg`.
    pub fn dword_bytes(&self, reg: usize, i: usize) -> [Option<u8>; 4] {
        let o = reg * self.reg_bytes + 4 * i;
        let mut out = [None; 4];
        for (k, b) in out.iter_mut().enumerate() {
            *b = self.bytes.get(o + k).copied().flatten();
        }
        out
    }

    /// Registers in the payload.
    pub fn regs(&self) -> usize {
        self.bytes.len() / self.reg_bytes.max(1)
    }
}

/// The GRF number of a direct GRF operand.
pub(super) fn grf_of(addr: &Addr) -> Option<u8> {
    match *addr {
        Addr::Direct {
            reg: Reg::Grf(r),
            sub: 0,
        } => Some(r),
        _ => None,
    }
}

/// Read `n` registers from `reg` into `out`.
fn read_regs(
    st: &ThreadState,
    what: &str,
    reg: usize,
    n: usize,
    out: &mut Vec<Option<u8>>,
) -> Result<(), MemError> {
    let rb = st.grf_reg_bytes();
    let total = st.grf_size() / rb;
    if reg + n > total {
        return Err(MemError::new(
            &rows::SEND_PAYLOAD,
            format!(
                "{what} r{reg} .. r{} passes r{}",
                reg + n - 1,
                total.saturating_sub(1)
            ),
        ));
    }
    for o in reg * rb..(reg + n) * rb {
        let undef = st.grf_byte_undefined(o);
        out.push((!undef).then(|| st.grf_bytes()[o]));
    }
    Ok(())
}

/// The payload: `mlen` registers from src0, then `ex_mlen` from src1 (split sends).
pub fn gather(st: &ThreadState, insn: &Insn, mlen: u32, ex_mlen: u32) -> Result<Payload, MemError> {
    let mut bytes = Vec::new();
    let src_reg = |i: usize| match &insn.src[i] {
        Some(Src::Reg(r)) => grf_of(&r.addr),
        _ => None,
    };
    if mlen > 0 {
        let r = src_reg(0).ok_or_else(|| {
            MemError::new(&rows::SEND_PAYLOAD, "src0 is not a direct GRF register")
        })?;
        read_regs(st, "the payload", usize::from(r), mlen as usize, &mut bytes)?;
    }
    if ex_mlen > 0 {
        let r = src_reg(1).ok_or_else(|| {
            MemError::new(
                &rows::SEND_PAYLOAD,
                format!("ex_mlen is {ex_mlen} but src1 is not a direct GRF register"),
            )
        })?;
        read_regs(
            st,
            "the extended payload",
            usize::from(r),
            ex_mlen as usize,
            &mut bytes,
        )?;
    }
    Ok(Payload {
        bytes,
        reg_bytes: st.grf_reg_bytes(),
    })
}

/// Write the response `bytes` (whole registers) to dst .. dst + rlen - 1 (send.response); a
/// null dst writes nothing.
pub fn respond(st: &mut ThreadState, insn: &Insn, bytes: &[Option<u8>]) -> Result<(), MemError> {
    if bytes.is_empty() {
        return Ok(());
    }
    let Some(d) = &insn.dst else {
        return Ok(());
    };
    if d.addr.is_null() {
        return Ok(());
    }
    let Some(r) = grf_of(&d.addr) else {
        return Err(MemError::new(
            &rows::SEND_RESPONSE,
            "dst is not a direct GRF register",
        ));
    };
    let o = usize::from(r) * st.grf_reg_bytes();
    if o + bytes.len() > st.grf_size() {
        return Err(MemError::new(
            &rows::SEND_RESPONSE,
            format!(
                "the response r{r} .. r{} passes the last register",
                usize::from(r) + bytes.len() / st.grf_reg_bytes() - 1
            ),
        ));
    }
    for (i, b) in bytes.iter().enumerate() {
        // (In range: checked above.)
        let _ = st.write_grf(o + i, 1, u64::from(b.unwrap_or(0)), b.is_none());
    }
    Ok(())
}
