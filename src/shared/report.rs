//! What an executed send did, for traces (`euref run --dispatch --trace`): the decoded message
//! and the memory it accessed. The messages record their accesses through [`Recorder`]
//! (the [`super::untyped::Ctx::load`] / [`super::untyped::Ctx::store`] helpers do it with the
//! memory access); a recorder that is off builds nothing.

use crate::memory::{Memory, Place};
use std::cell::RefCell;

/// Whether an access read or wrote memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessKind {
    Read,
    Write,
}

impl AccessKind {
    pub fn name(self) -> &'static str {
        match self {
            AccessKind::Read => "read",
            AccessKind::Write => "write",
        }
    }
}

/// One lane's access to memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Access {
    /// The lane (channel of the message).
    pub lane: u8,
    /// The address the lane gave: the byte offset in its surface or SLM, or the A64 address.
    pub address: u64,
    /// Where that is (flat address, SLM offset, out of bounds).
    pub place: Place,
    /// The bytes read or written (`None`: undefined).
    pub bytes: Vec<Option<u8>>,
    pub kind: AccessKind,
}

/// Collects accesses when on; when off (the default), [`Recorder::note`] does nothing and no
/// list is built.
#[derive(Debug, Default)]
pub struct Recorder {
    list: Option<RefCell<Vec<Access>>>,
}

impl Recorder {
    /// A recorder that records (`on`) or does nothing.
    pub fn new(on: bool) -> Recorder {
        Recorder {
            list: on.then(|| RefCell::new(Vec::new())),
        }
    }

    /// Whether it records.
    pub fn is_on(&self) -> bool {
        self.list.is_some()
    }

    /// Record an access (nothing when off).
    pub fn note(
        &self,
        lane: usize,
        address: u64,
        place: Place,
        bytes: &[Option<u8>],
        kind: AccessKind,
    ) {
        if let Some(l) = &self.list {
            l.borrow_mut().push(Access {
                lane: lane as u8,
                address,
                place,
                bytes: bytes.to_vec(),
                kind,
            });
        }
    }

    /// `n` bytes at `place` of `mem`, recorded as lane `lane`'s read of `address`.
    pub fn read(
        &self,
        mem: &Memory,
        lane: usize,
        address: u64,
        place: Place,
        n: usize,
    ) -> Vec<Option<u8>> {
        let b = mem.read(place, n);
        self.note(lane, address, place, &b, AccessKind::Read);
        b
    }

    /// Store `bytes` at `place` of `mem`, recorded as lane `lane`'s write of `address`.
    pub fn write(
        &self,
        mem: &mut Memory,
        lane: usize,
        address: u64,
        place: Place,
        bytes: &[Option<u8>],
    ) {
        mem.write(place, bytes);
        self.note(lane, address, place, bytes, AccessKind::Write);
    }

    /// The accesses recorded (`None` when off).
    pub fn take(self) -> Option<Vec<Access>> {
        self.list.map(RefCell::into_inner)
    }
}

/// An executed send's decoded message and accesses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageReport {
    /// The decoded name: `<sfid> <type>` (euref's spellings).
    pub name: String,
    /// The row of the message type (spec/descriptors.toml), or of the SFID when it has no type.
    pub row: &'static str,
    /// The descriptor (without EOT) and, for a split send, the extended descriptor (without
    /// SFID and EOT), as executed.
    pub desc: u32,
    pub ex_desc: Option<u32>,
    /// a0 dword numbers the descriptors came from (send.register-descriptor).
    pub desc_reg: Option<u8>,
    pub ex_desc_reg: Option<u8>,
    /// Data-port messages: the binding-table index and its special name (slm, stateless ...).
    pub bti: Option<u8>,
    pub surface: Option<&'static str>,
    /// SIMD mode where the descriptor gives it (0: SIMD4x2).
    pub simd: Option<u32>,
    pub mlen: u32,
    pub ex_mlen: Option<u32>,
    pub rlen: u32,
    pub header: bool,
    /// The lanes the message executed for.
    pub lanes: u32,
    /// End of thread / barrier message.
    pub eot: bool,
    pub barrier: bool,
    /// mem.inexact: a byte of the payload registers was inexact (every byte the message
    /// wrote is marked inexact).
    pub inexact_payload: bool,
    /// mem.inexact: the message read an inexact memory byte (its response registers, and
    /// what it wrote after the read, are marked inexact).
    pub inexact_read: bool,
    /// The memory accesses, in the order the message made them.
    pub accesses: Vec<Access>,
}
