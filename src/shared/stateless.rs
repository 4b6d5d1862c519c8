//! Addressing of the 32-bit-offset (A32) messages: a binding-table surface or SLM
//! ([`Memory::locate`]), or, on a stateless index, the flat memory at general state base +
//! buffer base + global offset + offset (spec/memory.toml mem.stateless, mem.stateless.*).
//! The untyped, byte scattered and dword scattered messages take their payload through
//! [`A32::new`], which removes the header (present only on stateless indices) and says which
//! lanes take part.

use super::payload::Payload;
use super::untyped::Ctx;
use crate::memory::{MemError, Memory, Place};
use crate::spec::memory as rows;

/// The header layout a message reads (mem.stateless.header).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Header {
    /// Untyped surface / atomic: dword 5 buffer base, dword 7 pixel sample mask.
    Untyped,
    /// Byte scattered: dword 2 global offset (bytes), dword 5 buffer base.
    ByteScattered,
    /// Dword scattered: dword 5 buffer base; dword 2 must be 0
    /// (mem.stateless.global-offset-dword).
    DwordScattered,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    /// A surface or SLM: the binding-table index.
    Bti(u8),
    /// Stateless: the flat memory.
    Flat {
        /// The general state base (mem.stateless.base).
        gsb: u64,
        /// Header dword 5.
        base: u32,
        /// Header dword 2 (byte scattered).
        global: u32,
    },
}

/// Where the elements of one A32 message go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct A32 {
    target: Target,
    /// The lanes that take part: the enabled channels, and for an untyped message with a
    /// header, its pixel sample mask (mem.stateless.header).
    pub lanes: u32,
}

/// True when the message's binding-table index is a stateless one (msgval.bti.stateless*).
pub fn is_stateless(c: &Ctx) -> bool {
    c.dp.surface
        .is_some_and(|s| s.name.starts_with("stateless"))
}

/// Dword `i` of the header, refusing undefined bytes.
fn header_dword(h: &Payload, i: usize, what: &str) -> Result<u32, MemError> {
    h.dword(0, i).ok_or_else(|| {
        MemError::new(
            &rows::SEND_UNDEFINED_ADDRESS,
            format!("header dword {i} ({what}) has undefined bytes"),
        )
    })
}

impl A32 {
    /// The addressing of message `c` with payload `p` (header first when the descriptor says
    /// so); returns it and the payload without the header. A header on a non-stateless index
    /// was refused before (send.header).
    pub fn new(
        c: &Ctx,
        p: Payload,
        mem: &Memory,
        kind: Header,
    ) -> Result<(A32, Payload), MemError> {
        if !is_stateless(c) {
            return Ok((
                A32 {
                    target: Target::Bti(c.dp.bti),
                    lanes: c.lanes,
                },
                p,
            ));
        }
        let platform = c.msg.platform;
        if !c.msg.header {
            if rows::STATELESS_HEADER_REQUIRED.gens.contains(platform) {
                return Err(MemError::new(
                    &rows::STATELESS_HEADER_REQUIRED,
                    format!(
                        "{} on stateless binding-table index {} without a header on {}",
                        c.dp.ty.name,
                        c.dp.bti,
                        platform.name()
                    ),
                ));
            }
            // mem.stateless.header: no header acts as an all-zero one.
            return Ok((
                A32 {
                    target: Target::Flat {
                        gsb: mem.general_state_base,
                        base: 0,
                        global: 0,
                    },
                    lanes: c.lanes,
                },
                p,
            ));
        }
        let rb = p.reg_bytes;
        let header = Payload {
            bytes: p.bytes[..rb.min(p.bytes.len())].to_vec(),
            reg_bytes: rb,
        };
        let rest = Payload {
            bytes: p.bytes.get(rb..).unwrap_or_default().to_vec(),
            reg_bytes: rb,
        };
        let base = header_dword(&header, 5, "buffer base")?;
        if base & 0x3ff != 0 {
            return Err(MemError::new(
                &rows::STATELESS_BASE_LOW,
                format!("the header's buffer base {base:#x} has bits 9:0 set"),
            ));
        }
        let mut lanes = c.lanes;
        let mut global = 0;
        match kind {
            Header::Untyped => {
                lanes &= header_dword(&header, 7, "pixel sample mask")? & 0xffff;
            }
            Header::ByteScattered => global = header_dword(&header, 2, "global offset")?,
            Header::DwordScattered => {
                let g = header_dword(&header, 2, "global offset")?;
                if g != 0 {
                    return Err(MemError::new(
                        &rows::STATELESS_GLOBAL_OFFSET_DWORD,
                        format!("the header's global offset is {g:#x}"),
                    ));
                }
            }
        }
        Ok((
            A32 {
                target: Target::Flat {
                    gsb: mem.general_state_base,
                    base,
                    global,
                },
                lanes,
            },
            rest,
        ))
    }

    /// Where lane `lane`'s `len`-byte element at byte offset `offset` lies.
    pub fn locate(
        &self,
        mem: &Memory,
        c: &Ctx,
        lane: usize,
        offset: u64,
        len: u32,
    ) -> Result<Place, MemError> {
        match self.target {
            Target::Bti(bti) => mem.locate(c.msg.platform, bti, offset, len),
            Target::Flat { gsb, base, global } => {
                // The buffer base is a multiple of 1024 (mem.stateless.base-low); the global
                // offset moves the element (send.byte-scattered-misaligned).
                if (u64::from(global) + offset) % u64::from(len.max(1)) != 0 {
                    return Err(MemError::new(
                        &rows::SEND_BYTE_SCATTERED_MISALIGNED,
                        format!(
                            "lane {lane}: global offset {global:#x} + offset {offset:#x} is not \
                             a multiple of its {len}-byte element"
                        ),
                    ));
                }
                let sum = u64::from(base) + u64::from(global) + offset;
                if sum + u64::from(len) > 1 << 32 {
                    return Err(MemError::new(
                        &rows::STATELESS_WRAP,
                        format!(
                            "lane {lane}: buffer base {base:#x} + global offset {global:#x} + \
                             offset {offset:#x} + {len} bytes passes 2^32"
                        ),
                    ));
                }
                Ok(Place::Flat(gsb.wrapping_add(sum)))
            }
        }
    }

    /// The lanes (of a `simd`-wide message) that take part.
    pub fn enabled(&self, simd: usize) -> impl Iterator<Item = usize> {
        let lanes = self.lanes;
        (0..simd).filter(move |i| lanes >> i & 1 == 1)
    }
}
