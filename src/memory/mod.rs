//! The memory the shared functions access (spec/memory.toml `mem.*` rows):
//! - flat memory: a sparse byte-addressable 64-bit space ([`Sparse`], mem.flat); a byte never
//!   written is undefined (mem.undefined-bytes);
//! - binding-table surfaces: a binding-table index names a buffer [`Surface`], a window of the
//!   flat memory (base, size in bytes) addressed by byte offsets and bounds-checked
//!   (mem.surface.*);
//! - shared local memory (binding-table index 254, mem.slm): bytes of the work group, its own
//!   address space from 0 to its size.
//!
//! A [`Memory`] is what the thread runner hands to the messages it executes
//! ([`crate::shared`]). The threads of one work group share its SLM; a dispatcher moves the
//! SLM between work groups with [`Memory::take_slm`] / [`Memory::set_slm`].
//!
//! Inexact bytes (mem.inexact): every byte of the flat memory and the SLM has an inexact flag
//! beside its defined flag ([`Sparse`]). The message runner ([`crate::shared`]) brackets each
//! message with [`Memory::begin_message`] (whether its payload holds an inexact byte) and
//! [`Memory::end_message`] (whether it read one); in between, [`Memory::write`] marks what it
//! stores inexact when the payload was, or when the message read an inexact byte before, and
//! exact otherwise.
//!
//! Host memory (issue 32, the C library): an embedding may keep the flat memory itself and
//! hand a [`FlatBacking`] to [`Memory::set_backing`]; the messages then read and write the
//! flat addresses through it instead of [`Memory::flat`]. The host stores no inexact flags:
//! its bytes read as exact, and what a message writes is passed with its inexact mark.

pub mod sparse;

use crate::message::descriptor::value_row;
use crate::spec::memory::{self as rows, MemRowInfo};
use crate::spec::Platform;
pub use sparse::Sparse;
use std::cell::Cell;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Flat memory kept by the host (an embedding, [`Memory::set_backing`]): the flat addresses
/// the messages access are read and written through it. `None` is an undefined byte.
pub trait FlatBacking: Send + Sync + std::fmt::Debug {
    /// `n` bytes from address `a`.
    fn read(&self, a: u64, n: usize) -> Vec<Option<u8>>;
    /// Store `bytes` from address `a` (the defined ones inexact when `inexact`, mem.inexact).
    fn write(&self, a: u64, bytes: &[Option<u8>], inexact: bool);
}

/// A buffer surface: `size` bytes of the flat memory from `base` (mem.surface.buffer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Surface {
    pub base: u64,
    pub size: u64,
}

/// Shared local memory of a work group: `size` bytes from offset 0 (mem.slm).
#[derive(Debug, Clone, Default)]
pub struct Slm {
    pub bytes: Sparse,
    pub size: u32,
}

impl Slm {
    /// An SLM of `size` bytes, every byte undefined until written.
    pub fn new(size: u32) -> Slm {
        Slm {
            bytes: Sparse::new(),
            size,
        }
    }
}

/// An access the rows refuse (undefined or unmodelled): the row and what happened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("[{}] {detail} (cite: {})", row.id, row.cite)]
pub struct MemError {
    pub row: &'static MemRowInfo,
    pub detail: String,
}

impl MemError {
    pub fn new(row: &'static MemRowInfo, detail: impl Into<String>) -> MemError {
        MemError {
            row,
            detail: detail.into(),
        }
    }
}

/// Where an element of a message lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Flat memory at this address.
    Flat(u64),
    /// SLM at this offset.
    Slm(u32),
    /// Out of the surface's bounds (mem.surface.oob-*: reads give zero, writes are dropped).
    OutOfBounds,
}

/// Flat memory, the binding table and the work group's SLM.
#[derive(Debug, Clone, Default)]
pub struct Memory {
    /// The flat (A64) memory.
    pub flat: Sparse,
    surfaces: BTreeMap<u8, Surface>,
    slm: Option<Slm>,
    /// The general state base address stateless A32 messages add to their addresses
    /// (mem.stateless.base: from the dispatch, 0 by default).
    pub general_state_base: u64,
    /// mem.inexact: the message executing has an inexact payload byte: what it writes is
    /// inexact.
    marking: bool,
    /// mem.inexact: the message executing read an inexact byte (what it writes from then on,
    /// and its response, are inexact).
    read_inexact: Cell<bool>,
    /// The host's flat memory, used instead of `flat` when set.
    backing: Option<Arc<dyn FlatBacking>>,
}

impl Memory {
    /// Empty memory: every byte undefined, no surface bound, no SLM.
    pub fn new() -> Memory {
        Memory::default()
    }

    /// Read and write the flat addresses through the host's `backing` (`None`: through
    /// [`Memory::flat`] again).
    pub fn set_backing(&mut self, backing: Option<Arc<dyn FlatBacking>>) {
        self.backing = backing;
    }

    /// Whether the flat memory is the host's ([`Memory::set_backing`]).
    pub fn has_backing(&self) -> bool {
        self.backing.is_some()
    }

    /// Bind binding-table index `bti` to surface `s` (replacing what was bound there).
    pub fn bind(&mut self, bti: u8, s: Surface) {
        self.surfaces.insert(bti, s);
    }

    /// The surface at `bti`, if bound.
    pub fn surface(&self, bti: u8) -> Option<Surface> {
        self.surfaces.get(&bti).copied()
    }

    /// Give the thread(s) this SLM (replacing any).
    pub fn set_slm(&mut self, slm: Slm) {
        self.slm = Some(slm);
    }

    /// The SLM, if any.
    pub fn slm(&self) -> Option<&Slm> {
        self.slm.as_ref()
    }

    /// Take the SLM away (a work group ends).
    pub fn take_slm(&mut self) -> Option<Slm> {
        self.slm.take()
    }

    /// Where the `len`-byte element at byte offset `offset` of binding-table index `bti` lies
    /// on platform `p`: SLM for index 254 (mem.slm), the bound surface's window of the flat
    /// memory otherwise (mem.surface.buffer), [`Place::OutOfBounds`] past a surface's end.
    /// Refused: stateless indices (mem.stateless: the messages address them themselves,
    /// [`crate::shared`]) and bindless (mem.stateless.bindless), an index with no surface
    /// (mem.surface.unbound), an element straddling a surface's end (mem.surface.oob-partial),
    /// SLM absent or out of its size (mem.slm.absent, mem.slm.oob).
    pub fn locate(&self, p: Platform, bti: u8, offset: u64, len: u32) -> Result<Place, MemError> {
        let end = offset.saturating_add(u64::from(len));
        if let Some(special) = value_row("bti", u32::from(bti), p) {
            if special.name == "slm" {
                let Some(slm) = &self.slm else {
                    return Err(MemError::new(
                        &rows::SLM_ABSENT,
                        "binding-table index 254 (SLM): the thread has no shared local memory",
                    ));
                };
                if end > u64::from(slm.size) {
                    return Err(MemError::new(
                        &rows::SLM_OOB,
                        format!(
                            "SLM offset {offset:#x} ({len} bytes) is outside the work group's \
                             {} bytes of shared local memory",
                            slm.size
                        ),
                    ));
                }
                return Ok(Place::Slm(offset as u32));
            }
            // Stateless indices are addressed through the message header (mem.stateless,
            // crate::shared::stateless), never as a surface.
            let row = if special.name == "bindless" {
                &rows::STATELESS_BINDLESS
            } else {
                &rows::STATELESS
            };
            return Err(MemError::new(
                row,
                format!(
                    "binding-table index {bti} is {} ({}) on {}: not a surface",
                    special.name,
                    special.id,
                    p.name()
                ),
            ));
        }
        let Some(s) = self.surface(bti) else {
            return Err(MemError::new(
                &rows::SURFACE_UNBOUND,
                format!("binding-table index {bti} has no surface bound"),
            ));
        };
        if end <= s.size {
            Ok(Place::Flat(s.base.wrapping_add(offset)))
        } else if offset >= s.size {
            Ok(Place::OutOfBounds)
        } else {
            Err(MemError::new(
                &rows::SURFACE_OOB_PARTIAL,
                format!(
                    "the {len}-byte element at offset {offset:#x} of binding-table index {bti} \
                     straddles the end of its {}-byte surface",
                    s.size
                ),
            ))
        }
    }

    /// `n` bytes at `place` (`None`: undefined; out of bounds: zeros, mem.surface.oob-read).
    /// Notes an inexact byte among them for [`Memory::end_message`] (mem.inexact).
    pub fn read(&self, place: Place, n: usize) -> Vec<Option<u8>> {
        if self.has_inexact() && !self.read_inexact.get() && self.inexact(place, n).contains(&true)
        {
            self.read_inexact.set(true);
        }
        match place {
            Place::Flat(a) => match &self.backing {
                Some(b) => b.read(a, n),
                None => self.flat.read(a, n),
            },
            Place::Slm(o) => match &self.slm {
                Some(s) => s.bytes.read(u64::from(o), n),
                None => vec![None; n],
            },
            Place::OutOfBounds => vec![Some(0); n],
        }
    }

    /// Store `bytes` at `place` (out of bounds: dropped, mem.surface.oob-write); inexact while
    /// the message executing has an inexact payload byte or read an inexact byte, exact
    /// otherwise (mem.inexact).
    pub fn write(&mut self, place: Place, bytes: &[Option<u8>]) {
        let inexact = self.marking || self.read_inexact.get();
        match place {
            Place::Flat(a) => match &self.backing {
                Some(b) => b.write(a, bytes, inexact),
                None => self.flat.write_marked(a, bytes, inexact),
            },
            Place::Slm(o) => {
                if let Some(s) = &mut self.slm {
                    s.bytes.write_marked(u64::from(o), bytes, inexact);
                }
            }
            Place::OutOfBounds => {}
        }
    }

    /// The inexact flags of the `n` bytes at `place` (mem.inexact; out of bounds: exact zeros).
    pub fn inexact(&self, place: Place, n: usize) -> Vec<bool> {
        match place {
            Place::Flat(_) if self.backing.is_some() => vec![false; n],
            Place::Flat(a) => self.flat.inexact(a, n),
            Place::Slm(o) => match &self.slm {
                Some(s) => s.bytes.inexact(u64::from(o), n),
                None => vec![false; n],
            },
            Place::OutOfBounds => vec![false; n],
        }
    }

    /// Whether any byte of the flat memory or the SLM may be inexact (false: none is).
    pub fn has_inexact(&self) -> bool {
        self.flat.has_inexact() || self.slm.as_ref().is_some_and(|s| s.bytes.has_inexact())
    }

    /// A message starts (mem.inexact): what it writes is inexact when `payload_inexact` (a
    /// byte of its payload registers is inexact).
    pub fn begin_message(&mut self, payload_inexact: bool) {
        self.marking = payload_inexact;
        self.read_inexact.set(false);
    }

    /// The message ends (mem.inexact): whether it read an inexact byte (its response is then
    /// inexact). Writes are exact again until the next [`Memory::begin_message`].
    pub fn end_message(&mut self) -> bool {
        self.marking = false;
        self.read_inexact.replace(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err_row(r: Result<Place, MemError>) -> &'static str {
        r.expect_err("refused").row.id
    }

    #[test]
    fn locate_follows_the_rows() {
        let p = Platform::Skl;
        let mut m = Memory::new();
        m.bind(
            3,
            Surface {
                base: 0x1000,
                size: 10,
            },
        );
        assert_eq!(m.locate(p, 3, 4, 4), Ok(Place::Flat(0x1004)));
        assert_eq!(m.locate(p, 3, 12, 4), Ok(Place::OutOfBounds));
        assert_eq!(err_row(m.locate(p, 3, 8, 4)), "mem.surface.oob-partial");
        assert_eq!(err_row(m.locate(p, 4, 0, 4)), "mem.surface.unbound");
        assert_eq!(err_row(m.locate(p, 255, 0, 4)), "mem.stateless");
        assert_eq!(err_row(m.locate(p, 252, 0, 4)), "mem.stateless.bindless");
        assert_eq!(err_row(m.locate(p, 254, 0, 4)), "mem.slm.absent");
        m.set_slm(Slm::new(16));
        assert_eq!(m.locate(p, 254, 12, 4), Ok(Place::Slm(12)));
        assert_eq!(err_row(m.locate(p, 254, 16, 4)), "mem.slm.oob");
        // Out of bounds: zeros read, writes dropped.
        assert_eq!(m.read(Place::OutOfBounds, 2), [Some(0), Some(0)]);
        m.write(Place::Slm(0), &[Some(5)]);
        assert_eq!(m.read(Place::Slm(0), 2), [Some(5), None]);
    }

    /// A host backing: bytes by address, and the inexact mark of each write.
    #[derive(Debug, Default)]
    struct Host {
        bytes: std::sync::Mutex<std::collections::HashMap<u64, u8>>,
        marks: std::sync::Mutex<Vec<bool>>,
    }

    impl FlatBacking for Host {
        fn read(&self, a: u64, n: usize) -> Vec<Option<u8>> {
            let m = self.bytes.lock().unwrap();
            (0..n as u64).map(|k| m.get(&(a + k)).copied()).collect()
        }
        fn write(&self, a: u64, bytes: &[Option<u8>], inexact: bool) {
            let mut m = self.bytes.lock().unwrap();
            for (k, b) in bytes.iter().enumerate() {
                match b {
                    Some(v) => m.insert(a + k as u64, *v),
                    None => m.remove(&(a + k as u64)),
                };
            }
            self.marks.lock().unwrap().push(inexact);
        }
    }

    #[test]
    fn a_backing_holds_the_flat_bytes() {
        let host = Arc::new(Host::default());
        let mut m = Memory::new();
        m.set_backing(Some(host.clone()));
        assert!(m.has_backing());
        // Writes go to the host, with the message's inexact mark (mem.inexact); reads come
        // from it; euref's own flat memory stays empty.
        m.begin_message(true);
        m.write(Place::Flat(0x10), &[Some(7), None, Some(9)]);
        m.end_message();
        m.write(Place::Flat(0x20), &[Some(1)]);
        assert_eq!(*host.marks.lock().unwrap(), [true, false]);
        assert_eq!(m.read(Place::Flat(0x10), 4), [Some(7), None, Some(9), None]);
        assert_eq!(m.inexact(Place::Flat(0x10), 1), [false]);
        assert_eq!(m.flat.read(0x10, 1), [None]);
        // Back to euref's memory.
        m.set_backing(None);
        assert_eq!(m.read(Place::Flat(0x10), 1), [None]);
    }

    #[test]
    fn a_message_marks_and_notes_inexact_bytes() {
        let mut m = Memory::new();
        m.set_slm(Slm::new(16));
        // mem.inexact: an inexact payload marks what the message writes, SLM and flat alike.
        m.begin_message(true);
        m.write(Place::Slm(0), &[Some(1), Some(2)]);
        m.write(Place::Flat(0x100), &[Some(3)]);
        assert!(!m.end_message());
        assert_eq!(m.inexact(Place::Slm(0), 3), [true, true, false]);
        assert_eq!(m.inexact(Place::Flat(0x100), 1), [true]);
        // A message with an exact payload that reads an inexact byte: its later writes are
        // inexact (an atomic), and it reports the read.
        m.begin_message(false);
        m.write(Place::Slm(4), &[Some(9)]);
        let _ = m.read(Place::Slm(1), 1);
        m.write(Place::Slm(5), &[Some(9)]);
        assert!(m.end_message());
        assert_eq!(m.inexact(Place::Slm(4), 2), [false, true]);
        // An exact write clears the mark; reading exact bytes reports nothing.
        m.begin_message(false);
        m.write(Place::Flat(0x100), &[Some(3)]);
        let _ = m.read(Place::Slm(2), 2);
        assert!(!m.end_message());
        assert_eq!(m.inexact(Place::Flat(0x100), 1), [false]);
    }
}
