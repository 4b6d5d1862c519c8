//! The state of one EU thread: the GRF, every architecture register of the platform, the
//! accumulators' extended precision, and an **undefined mask** that travels with the values.
//!
//! Everything is sized and shaped by spec/registers.toml: the GRF by the `regfile.grf` row, the
//! ARF registers by the `[[arf]]` rows present on the platform (`count` per platform: a0, acc0-acc1
//! or acc0-acc9, f0-f1, sr0, cr0, n0, ip, tdr0, tm0, null), what a write keeps and what a read
//! returns by the `[[field]]` rows (`values::arf_store`), and the accumulator channel precision
//! by the `[[acc_precision]]` rows.
//!
//! # The undefined mask
//! Every GRF byte and every ARF bit has an "undefined" flag. A value computed from an undefined
//! input is undefined; a read of a `reserved` field, of the null register or of unpopulated
//! bits is undefined (seed000 §3.3.3.2: "Reads from unpopulated subregisters, if not specified,
//! return unpredictable data"); a `zero`/`mbz` field reads a defined 0; a write to an `ro`,
//! `reserved` or `special` field is dropped (the bits and their flags are kept). ARF flags are
//! per bit because the flag registers hold one bit per channel; GRF flags are per byte.
//!
//! # The default state ([`ThreadState::new`])
//! seed000 §3.3.2: "Besides these registers containing thread's payload, the rest of GRF
//! registers of a thread are not initialized", and the register summaries give "Default Value:
//! None" for a0, the accumulators and the flags. So by default:
//! - r0-r127, a0, acc*, f0, f1 are **undefined**;
//! - the registers whose `[[arf]]` row says `initial = "zero"` are defined zero, except the
//!   fields whose `[[field]]` row says `initial = "undefined"`, which are undefined:
//!   - sr0 ("Provided by the Dispatcher"): the thread and EU identification (sr0.0 FFID,
//!     priority class, HSID, EUID, TID; sr0.1 FFTID) is undefined, the priority zero, and
//!     the dispatch and vector masks (sr0.2, sr0.3) all ones (every channel dispatched);
//!   - cr0: IEEE float mode, round to nearest even, accumulator enabled, DMask execution
//!     mask, no exception (the fields' documented initial values);
//!   - n0, ip; tm0's TmEvent bit (reset when a thread is loaded), while the free-running
//!     timestamp tm0.0/tm0.1 is undefined;
//! - tdr0 ("Default Value: No"; set by dispatch) and the other registers are undefined.
//!
//! [`ThreadState::zeroed`] gives an all-defined, all-zero state (except the bits that always
//! read undefined) with the same sr0 masks, convenient for tests and examples.
//!
//! # The inexact mark
//! Beside the undefined mask, every GRF byte and ARF bit has an "inexact" flag (row
//! math.inexact): the value is the model's choice within the bound of the math row that
//! produced it, or was computed from such a value. The executor sets and propagates it
//! (`exec::inexact`); an undefined byte or bit is undefined, not inexact, so the accessors
//! report the flag only where the byte or bit is defined.
//!
//! JSON load/save: [`json`].

pub mod acc;
mod alternatives;
pub mod json;
pub mod json_doc;
pub mod layout;
pub mod named;

use crate::spec::registers::{self, FieldAccess, FieldInfo};
use crate::spec::{DataType, Platform};
use crate::values::Grf;
use acc::{AccExt, NO_CLASS};
use layout::ArfLayout;

/// A refused state access.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StateError {
    /// The element lies (partly) outside the register file or register.
    #[error("{what}: byte offset {offset} ({size} bytes) is outside {limit}")]
    OutOfRange {
        what: &'static str,
        offset: usize,
        size: usize,
        limit: String,
    },
    /// The element is not aligned to its size.
    #[error("{what}: byte offset {offset} is not a multiple of the element size {size}")]
    Misaligned {
        what: &'static str,
        offset: usize,
        size: usize,
    },
    /// The platform has no such register.
    #[error("no register `{0}` on this platform")]
    NoRegister(String),
}

/// Side effects of writes to `special` ARF fields that the executor reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ArfEvents {
    /// The IP was written (a jump: `ip` as destination, or the return to the AIP when the
    /// master exception state bit of cr0.0 is cleared).
    pub jumped: bool,
    /// A software exception was raised (cr0.1 bit 29 written with 1 by the application).
    pub software_exception: bool,
}

/// Where writes to a state went since the last [`ThreadState::take_written`]: every GRF byte
/// and every ARF byte, undefined flag or accumulator record a write may have changed lies in
/// the GRF bytes `grf` or in the flat ARF bytes `arf`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    /// GRF byte range `start..end` (`start >= end`: none); [`Written::grf_regs`] gives the
    /// registers.
    pub grf: (usize, usize),
    /// Flat ARF byte range `start..end` (`start >= end`: none; see
    /// [`ThreadState::arf_layout`] for the registers).
    pub arf: (usize, usize),
}

impl Default for Written {
    fn default() -> Self {
        Written::NONE
    }
}

impl Written {
    /// Nothing written.
    pub const NONE: Written = Written {
        grf: (usize::MAX, 0),
        arf: (usize::MAX, 0),
    };

    /// The GRF registers written (`reg_bytes`: [`ThreadState::grf_reg_bytes`]), as a range of
    /// register numbers (empty: none).
    pub fn grf_regs(&self, reg_bytes: usize) -> std::ops::Range<usize> {
        let rb = reg_bytes.max(1);
        if self.grf.0 >= self.grf.1 {
            return 0..0;
        }
        self.grf.0 / rb..self.grf.1.div_ceil(rb)
    }

    /// Whether flat ARF byte range `start..end` overlaps the written ARF bytes.
    pub fn arf_overlaps(&self, start: usize, end: usize) -> bool {
        start < self.arf.1 && self.arf.0 < end && start < end
    }

    #[inline(always)]
    fn add_arf(&mut self, start: usize, end: usize) {
        self.arf.0 = self.arf.0.min(start);
        self.arf.1 = self.arf.1.max(end);
    }

    #[inline(always)]
    fn add_grf(&mut self, start: usize, end: usize) {
        self.grf.0 = self.grf.0.min(start);
        self.grf.1 = self.grf.1.max(end);
    }
}

/// The dwords of the control registers every instruction reads (cr0.0, sr0.2, sr0.3), each
/// with its per-bit undefined mask (`None`: the platform lacks it), read at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ControlDwords {
    pub cr0_0: Option<(u32, u32)>,
    pub sr0_2: Option<(u32, u32)>,
    pub sr0_3: Option<(u32, u32)>,
    /// The channels (bit n: channel n of the instruction) that may be enabled at all: every
    /// channel, except in one pass of a compressed instruction executed as its two halves
    /// (feature.compressed-halves), which enables one half.
    pub channels: u32,
}

/// Field `f` of a dword read as [`ThreadState::field_dword`] reads it: the value and whether
/// any of its bits is undefined (as [`ThreadState::field`]).
#[inline]
pub fn field_of_dword(dword: Option<(u32, u32)>, f: &FieldInfo) -> Option<(u32, bool)> {
    dword.map(|(d, u)| (f.get(d), u & f.mask() != 0))
}

/// One EU thread's architectural state for one platform.
pub struct ThreadState {
    platform: Platform,
    /// GRF bytes, register 0 first.
    pub(crate) grf: Vec<u8>,
    /// One bit per GRF byte: bit `o % 64` of word `o / 64` is set when byte `o` is undefined.
    pub(crate) grf_undef: Vec<u64>,
    grf_reg_bytes: usize,
    /// The ARF registers of the platform.
    pub(crate) layout: ArfLayout,
    /// ARF bytes in the layout's order.
    pub(crate) arf: Vec<u8>,
    /// One bit per ARF bit (per dword), set when undefined.
    pub(crate) arf_undef: Vec<u32>,
    /// One bit per GRF byte, set when the byte is inexact (meaningful where it is defined).
    pub(crate) grf_inexact: Vec<u64>,
    /// One bit per ARF bit (per dword), set when inexact (meaningful where defined).
    pub(crate) arf_inexact: Vec<u32>,
    /// Whether any inexact flag was ever set (false: both masks are all zero).
    pub(crate) any_inexact: bool,
    /// Extended precision of each accumulator register (indexed by its number).
    pub(crate) acc: Vec<AccExt>,
    /// The thread runs in a mid-thread pre-emptible context (an execution-context setting,
    /// spec/properties.toml `preemptible`; not a register): false unless a state says so.
    pub(crate) preemptible: bool,
    pub(crate) events: ArfEvents,
    /// Where writes went (see [`Written`]).
    written: Written,
    /// The thread channels on the current instruction (PcIP == IP, flow.channel.pcip): bit `n`
    /// for channel `n`. All ones unless a thread runner ([`crate::thread`]) says otherwise;
    /// not part of the architectural state (not compared, not saved).
    channels_at_ip: u32,
}

impl Clone for ThreadState {
    fn clone(&self) -> Self {
        ThreadState {
            platform: self.platform,
            grf: self.grf.clone(),
            grf_undef: self.grf_undef.clone(),
            grf_reg_bytes: self.grf_reg_bytes,
            layout: self.layout.clone(),
            arf: self.arf.clone(),
            arf_undef: self.arf_undef.clone(),
            grf_inexact: self.grf_inexact.clone(),
            arf_inexact: self.arf_inexact.clone(),
            any_inexact: self.any_inexact,
            acc: self.acc.clone(),
            preemptible: self.preemptible,
            events: self.events,
            written: self.written,
            channels_at_ip: self.channels_at_ip,
        }
    }

    /// A copy into an existing state without allocating: the register storage is copied in
    /// place and, on the same platform, the ARF layout (a function of the platform, never
    /// changed) is kept (the C library snapshots the state before every step, issue 32).
    fn clone_from(&mut self, src: &Self) {
        if self.platform != src.platform {
            *self = src.clone();
            return;
        }
        self.grf.clone_from(&src.grf);
        self.grf_undef.clone_from(&src.grf_undef);
        self.grf_reg_bytes = src.grf_reg_bytes;
        self.grf_inexact.clone_from(&src.grf_inexact);
        self.copy_all_but_grf(src);
    }
}

impl ThreadState {
    /// Make this state equal to `src`, given that the two differ in the GRF only within the
    /// byte range `grf` (bytes and their undefined and inexact marks): the GRF outside `grf` is
    /// left as it is, everything else is copied. A caller that keeps a copy of the state from
    /// step to step (the C library's state before each step) copies only what the last step
    /// wrote to the GRF (`StepInfo::written`) instead of the whole GRF.
    pub fn sync_from(&mut self, src: &Self, grf: std::ops::Range<usize>) {
        let same_shape = self.platform == src.platform
            && self.grf.len() == src.grf.len()
            && self.grf_undef.len() == src.grf_undef.len()
            && self.grf_inexact.len() == src.grf_inexact.len();
        if !same_shape {
            self.clone_from(src);
            return;
        }
        let end = grf.end.min(self.grf.len());
        if grf.start < end {
            self.grf[grf.start..end].copy_from_slice(&src.grf[grf.start..end]);
            let words = grf.start / 64..end.div_ceil(64);
            self.grf_undef[words.clone()].copy_from_slice(&src.grf_undef[words.clone()]);
            self.grf_inexact[words.clone()].copy_from_slice(&src.grf_inexact[words]);
        }
        self.copy_all_but_grf(src);
    }

    /// Copy every part of `src` but its GRF (bytes, marks) in place (same platform).
    fn copy_all_but_grf(&mut self, src: &Self) {
        self.arf.clone_from(&src.arf);
        self.arf_undef.clone_from(&src.arf_undef);
        self.arf_inexact.clone_from(&src.arf_inexact);
        self.any_inexact = src.any_inexact;
        self.acc.clone_from(&src.acc);
        self.preemptible = src.preemptible;
        self.events = src.events;
        self.written = src.written;
        self.channels_at_ip = src.channels_at_ip;
    }
}

/// The two initial states ([`ThreadState::new`], [`ThreadState::zeroed`]).
#[derive(Clone, Copy)]
enum Template {
    Default = 0,
    Zeroed = 1,
}

/// The initial state `t` of platform `p`, built from the rows on first use and cloned for
/// every thread after that (a dispatch starts one state per thread; building one walks the
/// register and field rows).
fn template(p: Platform, t: Template) -> &'static ThreadState {
    use std::sync::OnceLock;
    static STATES: [[OnceLock<ThreadState>; 2]; crate::spec::PLATFORM_INFO.len()] =
        [const { [const { OnceLock::new() }; 2] }; crate::spec::PLATFORM_INFO.len()];
    STATES[p as usize][t as usize].get_or_init(|| match t {
        Template::Default => ThreadState::build_default(p),
        Template::Zeroed => ThreadState::build_zeroed(p),
    })
}

impl PartialEq for ThreadState {
    /// Equal platform, undefined flags, defined bytes and bits (what an undefined byte or bit
    /// happens to hold does not matter) and accumulator records (the layout follows from the
    /// platform).
    fn eq(&self, o: &Self) -> bool {
        if self.platform != o.platform
            || self.grf_undef != o.grf_undef
            || self.arf_undef != o.arf_undef
            || self.acc != o.acc
            || self.preemptible != o.preemptible
        {
            return false;
        }
        if !self.inexact_same(o) {
            return false;
        }
        let grf_same = self
            .grf
            .iter()
            .zip(&o.grf)
            .enumerate()
            .all(|(i, (a, b))| a == b || (self.grf_undef[i / 64] >> (i % 64)) & 1 == 1);
        let arf_same = self
            .arf
            .chunks(4)
            .zip(o.arf.chunks(4))
            .enumerate()
            .all(|(d, (a, b))| {
                let word = |x: &[u8]| x.iter().rev().fold(0u32, |w, v| (w << 8) | u32::from(*v));
                (word(a) ^ word(b)) & !self.arf_undef[d] == 0
            });
        grf_same && arf_same
    }
}

impl Eq for ThreadState {}

impl ThreadState {
    /// Equal inexact flags where the bytes and bits are defined (the undefined masks are
    /// already equal).
    fn inexact_same(&self, o: &Self) -> bool {
        if !self.any_inexact && !o.any_inexact {
            return true;
        }
        let grf = (self.grf_inexact.iter().zip(&o.grf_inexact))
            .zip(&self.grf_undef)
            .all(|((a, b), u)| (a ^ b) & !u == 0);
        let arf = (self.arf_inexact.iter().zip(&o.arf_inexact))
            .enumerate()
            .all(|(d, (a, b))| (a ^ b) & !(self.arf_undef[d] | self.layout.read_undef[d]) == 0);
        grf && arf
    }
}

impl std::fmt::Debug for ThreadState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ThreadState")
            .field("platform", &self.platform)
            .finish_non_exhaustive()
    }
}

fn field(reg: &str, name: &str, p: Platform) -> Option<&'static FieldInfo> {
    registers::FIELDS
        .iter()
        .copied()
        .find(|f| f.reg == reg && f.name == name && f.gens.contains(p))
}

impl ThreadState {
    /// The documented default state (see the module documentation): GRF, a0, accumulators,
    /// flags, tdr0, the timestamp and sr0's identification fields undefined; the rest of sr0,
    /// cr0, n0, ip and tm0's TmEvent defined.
    pub fn new(p: Platform) -> ThreadState {
        template(p, Template::Default).clone()
    }

    /// The state [`ThreadState::new`] returns, without the copy (for preparing instructions:
    /// only the platform and the ARF layout matter there).
    pub fn template(p: Platform) -> &'static ThreadState {
        template(p, Template::Default)
    }

    /// [`ThreadState::new`] built from the rows (once per platform: [`template`]).
    fn build_default(p: Platform) -> ThreadState {
        let mut s = ThreadState::blank(p, true);
        // The registers whose `[[arf]]` row says `initial = "zero"`, less the fields whose
        // row says `initial = "undefined"` (dispatch-provided values the model cannot know).
        let zero: Vec<usize> = (0..s.layout.regs.len())
            .filter(|&i| s.layout.regs[i].info.initial_zero)
            .collect();
        for i in zero {
            let r = &s.layout.regs[i];
            let (b, n, field_reg) = (r.base, r.bytes, r.field_reg);
            s.mark_arf(b, n);
            s.arf[b..b + n].fill(0);
            s.arf_undef[b / 4..(b + n).div_ceil(4)].fill(0);
            let Some(reg) = field_reg else { continue };
            for f in registers::FIELDS.iter().copied() {
                if f.initial_undefined && f.reg == reg && f.gens.contains(p) {
                    s.arf_undef[b / 4 + f.dword as usize] |= f.mask();
                }
            }
        }
        s.set_dispatch_masks();
        s
    }

    /// Every register defined and zero (bits that always read undefined stay so), with the
    /// default sr0 dispatch and vector masks (all ones).
    pub fn zeroed(p: Platform) -> ThreadState {
        template(p, Template::Zeroed).clone()
    }

    /// [`ThreadState::zeroed`] built from the rows (once per platform).
    fn build_zeroed(p: Platform) -> ThreadState {
        let mut s = ThreadState::blank(p, false);
        s.set_dispatch_masks();
        s
    }

    fn blank(p: Platform, undefined: bool) -> ThreadState {
        let (count, reg_bytes) = Grf::geometry();
        let size = count * reg_bytes;
        let layout = ArfLayout::new(p);
        let acc_count = layout.regs.iter().filter(|r| r.info.name == "acc").count();
        let fill = if undefined { u64::MAX } else { 0 };
        let arf_fill = if undefined { u32::MAX } else { 0 };
        ThreadState {
            platform: p,
            grf: vec![0; size],
            grf_undef: vec![fill; size.div_ceil(64)],
            grf_reg_bytes: reg_bytes,
            arf: vec![0; layout.total],
            arf_undef: vec![arf_fill; layout.total / 4],
            grf_inexact: vec![0; size.div_ceil(64)],
            arf_inexact: vec![0; layout.total / 4],
            any_inexact: false,
            acc: vec![AccExt::default(); acc_count],
            preemptible: false,
            layout,
            events: ArfEvents::default(),
            written: Written::NONE,
            channels_at_ip: u32::MAX,
        }
    }

    /// sr0.2 (DMask) and sr0.3 (VMask) all ones: every channel dispatched.
    fn set_dispatch_masks(&mut self) {
        for name in ["dmask", "vmask"] {
            if let Some(f) = field("sr0", name, self.platform) {
                let _ = self.set_field(f, u32::MAX);
            }
        }
    }

    /// The platform.
    pub fn platform(&self) -> Platform {
        self.platform
    }

    /// Whether the thread runs in a mid-thread pre-emptible context (state JSON
    /// `"preemptible"`).
    pub fn preemptible(&self) -> bool {
        self.preemptible
    }

    /// Set whether the thread runs in a mid-thread pre-emptible context.
    pub fn set_preemptible(&mut self, on: bool) {
        self.preemptible = on;
    }

    /// Whether cr0.0 Single Program Flow is set and defined (`None`: the platform lacks the
    /// field or the bit is undefined).
    pub fn spf(&self) -> Option<bool> {
        let f = field("cr0", "single_program_flow", self.platform)?;
        match self.field(f)? {
            (v, false) => Some(v != 0),
            (_, true) => None,
        }
    }

    /// The ARF layout (register names, sizes).
    pub fn arf_layout(&self) -> &ArfLayout {
        &self.layout
    }

    /// Take (and clear) the record of where writes went since the last call (or since the
    /// state was made).
    pub fn take_written(&mut self) -> Written {
        std::mem::replace(&mut self.written, Written::NONE)
    }

    /// Record a write to GRF bytes `o..o + len`.
    #[inline(always)]
    pub(crate) fn mark_grf(&mut self, o: usize, len: usize) {
        self.written.add_grf(o, o + len);
    }

    /// Record a write to flat ARF bytes `o..o + len`.
    #[inline(always)]
    pub(crate) fn mark_arf(&mut self, o: usize, len: usize) {
        self.written.add_arf(o, o + len);
    }

    /// Take (and clear) the side effects recorded by special-field writes.
    pub fn take_events(&mut self) -> ArfEvents {
        std::mem::take(&mut self.events)
    }

    // ------------------------------------------------------------------------------ GRF

    /// GRF size in bytes.
    pub fn grf_size(&self) -> usize {
        self.grf.len()
    }

    /// Bytes per GRF register.
    pub fn grf_reg_bytes(&self) -> usize {
        self.grf_reg_bytes
    }

    /// All GRF bytes (undefined bytes hold whatever was last stored, normally 0).
    pub fn grf_bytes(&self) -> &[u8] {
        &self.grf
    }

    /// Whether GRF byte `o` is undefined (out-of-range bytes count as undefined).
    pub fn grf_byte_undefined(&self, o: usize) -> bool {
        self.grf_undef
            .get(o / 64)
            .map_or(true, |w| (w >> (o % 64)) & 1 == 1)
    }

    /// Whether any byte of `o..o+len` is undefined.
    pub fn grf_range_undefined(&self, o: usize, len: usize) -> bool {
        (o..o.saturating_add(len)).any(|b| self.grf_byte_undefined(b))
    }

    #[inline(always)]
    fn grf_check(&self, o: usize, size: usize) -> Result<(), StateError> {
        // The usual case: a power-of-two size, aligned, in range.
        if size.is_power_of_two()
            && o & (size - 1) == 0
            && o.checked_add(size).is_some_and(|e| e <= self.grf.len())
        {
            return Ok(());
        }
        self.grf_error(o, size)
    }

    /// Why `grf_check` refused an access (`Ok` when it is in fact valid).
    #[cold]
    fn grf_error(&self, o: usize, size: usize) -> Result<(), StateError> {
        if size == 0 || o % size != 0 {
            return Err(StateError::Misaligned {
                what: "GRF",
                offset: o,
                size,
            });
        }
        if o.checked_add(size).map_or(true, |e| e > self.grf.len()) {
            return Err(StateError::OutOfRange {
                what: "GRF",
                offset: o,
                size,
                limit: format!("the {}-byte GRF", self.grf.len()),
            });
        }
        Ok(())
    }

    /// Read `size` (1, 2, 4 or 8) bytes at byte offset `o`: the little-endian bits and whether
    /// any of the bytes is undefined.
    #[inline]
    pub fn read_grf(&self, o: usize, size: usize) -> Result<(u64, bool), StateError> {
        self.grf_check(o, size)?;
        Ok(self.read_grf_unchecked(o, size))
    }

    /// [`read_grf`](Self::read_grf) for an offset already known to be aligned and in range.
    #[inline(always)]
    pub(crate) fn read_grf_unchecked(&self, o: usize, size: usize) -> (u64, bool) {
        let g = &self.grf;
        let v = match size {
            4 => u64::from(u32::from_le_bytes([g[o], g[o + 1], g[o + 2], g[o + 3]])),
            2 => u64::from(u16::from_le_bytes([g[o], g[o + 1]])),
            1 => u64::from(g[o]),
            8 => {
                let w = &g[o..o + 8];
                u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]])
            }
            _ => g[o..o + size]
                .iter()
                .enumerate()
                .fold(0u64, |v, (i, b)| v | u64::from(*b) << (8 * i)),
        };
        let undef = (self.grf_undef[o / 64] >> (o % 64)) & low_mask(size) != 0;
        (v, undef)
    }

    /// Write the low `size` bytes of `bits` at byte offset `o`, marking them undefined or
    /// defined.
    #[inline]
    pub fn write_grf(
        &mut self,
        o: usize,
        size: usize,
        bits: u64,
        undefined: bool,
    ) -> Result<(), StateError> {
        self.grf_check(o, size)?;
        self.write_grf_unchecked(o, size, bits, undefined);
        // (A value set from outside the executor is exact.)
        self.set_grf_inexact(o, size, false);
        Ok(())
    }

    #[inline(always)]
    pub(crate) fn write_grf_unchecked(&mut self, o: usize, size: usize, bits: u64, undef: bool) {
        self.mark_grf(o, size);
        let le = bits.to_le_bytes();
        match size {
            4 => self.grf[o..o + 4].copy_from_slice(&le[..4]),
            2 => self.grf[o..o + 2].copy_from_slice(&le[..2]),
            1 => self.grf[o] = le[0],
            8 => self.grf[o..o + 8].copy_from_slice(&le),
            _ => self.grf[o..o + size].copy_from_slice(&le[..size]),
        }
        let m = low_mask(size) << (o % 64);
        let w = &mut self.grf_undef[o / 64];
        if undef {
            *w |= m;
        } else {
            *w &= !m;
        }
    }

    /// Write bytes at byte offset `o` (defined).
    pub fn write_grf_bytes(&mut self, o: usize, bytes: &[u8]) -> Result<(), StateError> {
        self.grf_check(o, 1)?;
        if o + bytes.len() > self.grf.len() {
            return Err(StateError::OutOfRange {
                what: "GRF",
                offset: o,
                size: bytes.len(),
                limit: format!("the {}-byte GRF", self.grf.len()),
            });
        }
        for (i, b) in bytes.iter().enumerate() {
            self.write_grf_unchecked(o + i, 1, u64::from(*b), false);
        }
        self.set_grf_inexact(o, bytes.len(), false);
        Ok(())
    }

    /// Mark GRF bytes `o..o+len` undefined (their values are kept).
    pub fn set_grf_undefined(&mut self, o: usize, len: usize) {
        self.mark_grf(o, len);
        for b in o..o.saturating_add(len).min(self.grf.len()) {
            self.grf_undef[b / 64] |= 1 << (b % 64);
        }
    }

    /// Whether GRF byte `o` is inexact (row math.inexact): defined and marked.
    pub fn grf_byte_inexact(&self, o: usize) -> bool {
        !self.grf_byte_undefined(o)
            && self
                .grf_inexact
                .get(o / 64)
                .is_some_and(|w| (w >> (o % 64)) & 1 == 1)
    }

    /// Whether any byte of `o..o+len` is inexact.
    pub fn grf_range_inexact(&self, o: usize, len: usize) -> bool {
        self.any_inexact && (o..o.saturating_add(len)).any(|b| self.grf_byte_inexact(b))
    }

    /// Whether any flag of the state is set inexact (a cheap test before a scan).
    pub fn has_inexact(&self) -> bool {
        self.any_inexact
    }

    /// Take `src`'s inexact marks (all of them, GRF and ARF): nothing to do when neither
    /// state has any, the common case.
    #[inline]
    pub(crate) fn reset_inexact_from(&mut self, src: &ThreadState) {
        if !self.any_inexact && !src.any_inexact {
            return;
        }
        self.grf_inexact.clone_from(&src.grf_inexact);
        self.arf_inexact.clone_from(&src.arf_inexact);
        self.any_inexact = src.any_inexact;
    }

    /// Mark GRF bytes `o..o+len` inexact (`on`) or exact.
    pub fn set_grf_inexact(&mut self, o: usize, len: usize, on: bool) {
        if !on && !self.any_inexact {
            return;
        }
        self.any_inexact |= on;
        self.mark_grf(o, len);
        for b in o..o.saturating_add(len).min(self.grf.len()) {
            let m = 1u64 << (b % 64);
            let w = &mut self.grf_inexact[b / 64];
            *w = if on { *w | m } else { *w & !m };
        }
    }

    /// The inexact bits of flat ARF dword `d` (stored flags, whatever the undefined mask
    /// says; 0 past the storage).
    pub(crate) fn arf_inexact_dword(&self, d: usize) -> u32 {
        self.arf_inexact.get(d).copied().unwrap_or(0)
    }

    /// Set (`on`) or clear the inexact bits `bits` of flat ARF dword `d`.
    pub(crate) fn set_arf_inexact_bits(&mut self, d: usize, bits: u32, on: bool) {
        if (!on && !self.any_inexact) || bits == 0 {
            return;
        }
        self.any_inexact |= on;
        if let Some(w) = self.arf_inexact.get_mut(d) {
            self.written.add_arf(4 * d, 4 * d + 4);
            *w = if on { *w | bits } else { *w & !bits };
        }
    }

    /// The per-bit inexact mask of dword `dword` of ARF register `name` (bits that are
    /// undefined are not inexact).
    pub fn arf_inexact(&self, name: &str, dword: usize) -> Option<u32> {
        let r = &self.layout.regs[self.layout.by_name(name)?];
        if 4 * dword + 4 > r.bytes.div_ceil(4) * 4 {
            return None;
        }
        let d = r.base / 4 + dword;
        Some(self.arf_inexact[d] & !(self.arf_undef[d] | self.layout.read_undef[d]))
    }

    /// The index (in the per-dword ARF masks) of dword `dword` of ARF register `name`.
    fn arf_dword_index(&self, name: &str, dword: usize) -> Result<usize, StateError> {
        let i = self
            .arf_index(name)
            .ok_or_else(|| StateError::NoRegister(name.to_string()))?;
        let r = &self.layout.regs[i];
        if 4 * dword >= r.bytes {
            return Err(StateError::NoRegister(format!("{name} dword {dword}")));
        }
        Ok(r.base / 4 + dword)
    }

    /// Set the per-bit inexact mask of dword `dword` of ARF register `name`.
    pub fn set_arf_inexact(
        &mut self,
        name: &str,
        dword: usize,
        bits: u32,
    ) -> Result<(), StateError> {
        let d = self.arf_dword_index(name, dword)?;
        self.set_arf_inexact_bits(d, u32::MAX, false);
        self.set_arf_inexact_bits(d, bits, true);
        Ok(())
    }

    /// Read an element of type `t` at byte offset `o`.
    pub fn read_grf_typed(&self, t: DataType, o: usize) -> Result<(u64, bool), StateError> {
        self.read_grf(o, t.bytes() as usize)
    }

    // ------------------------------------------------------------------------------ ARF

    /// The index of the ARF register written `name` (`a0`, `acc1`, `f0`, `cr0`, `ip`, ...).
    pub fn arf_index(&self, name: &str) -> Option<usize> {
        self.layout.by_name(name)
    }

    /// The bytes of ARF register `i` and the per-bit undefined mask of each of its dwords (the
    /// stored flags plus the bits that always read undefined).
    pub fn arf_reg(&self, i: usize) -> Option<(&[u8], Vec<u32>)> {
        let r = self.layout.regs.get(i)?;
        let bytes = &self.arf[r.base..r.base + r.bytes];
        let und = (r.base / 4..(r.base + r.bytes).div_ceil(4))
            .map(|d| self.arf_undef[d] | self.layout.read_undef[d])
            .collect();
        Some((bytes, und))
    }

    /// The range of flat ARF bytes that an access starting in register `i` may use: the
    /// register and the following registers of the same type (an explicit `acc0` region of a
    /// SIMD16 float instruction continues into `acc1`).
    pub(crate) fn arf_span(&self, i: usize) -> Option<(usize, usize)> {
        let r = self.layout.regs.get(i)?;
        let mut end = r.base + r.bytes;
        for n in &self.layout.regs[i + 1..] {
            if n.info.regtype != r.info.regtype || n.base != end.div_ceil(4) * 4 {
                break;
            }
            end = n.base + n.bytes;
        }
        Some((r.base, end))
    }

    /// Read `size` bytes at flat ARF offset `o`: the bits and the undefined bits.
    pub(crate) fn read_arf_flat(&mut self, o: usize, size: usize) -> (u64, u64) {
        let mut v = 0u64;
        let mut u = 0u64;
        for i in 0..size {
            let b = o + i;
            let (d, sh) = (b / 4, 8 * (b % 4));
            v |= u64::from(self.arf[b]) << (8 * i);
            let ub = ((self.arf_undef[d] | self.layout.read_undef[d]) >> sh) & 0xff;
            u |= u64::from(ub) << (8 * i);
        }
        // field.tm0.2.tm-event: reset on every read of any part of tm0.
        if let Some(ri) = self.reg_of_flat(o) {
            if self.layout.regs[ri].info.name == "tm" {
                self.reset_tm_event(ri);
            }
        }
        (v, u)
    }

    fn reset_tm_event(&mut self, ri: usize) {
        let p = self.platform;
        if let Some(f) = field("tm0", "tm_event", p) {
            let b = self.layout.regs[ri].base + 4 * f.dword as usize;
            if b + 4 <= self.arf.len() {
                self.mark_arf(b, 4);
                let mut d = u32::from_le_bytes([
                    self.arf[b],
                    self.arf[b + 1],
                    self.arf[b + 2],
                    self.arf[b + 3],
                ]);
                d &= !f.mask();
                self.arf[b..b + 4].copy_from_slice(&d.to_le_bytes());
                self.arf_undef[b / 4] &= !f.mask();
            }
        }
    }

    /// The register that flat ARF byte `o` belongs to.
    pub(crate) fn reg_of_flat(&self, o: usize) -> Option<usize> {
        self.layout.reg_of_flat(o)
    }

    /// Write the low `size` bytes of `bits` at flat ARF offset `o` with per-bit undefined flags
    /// `undef`, following the field table of the register (values::arf_store): rw bits take the
    /// new value, ro/reserved/special bits keep theirs, zero/mbz bits become a defined 0.
    pub(crate) fn write_arf_flat(&mut self, o: usize, size: usize, bits: u64, undef: u64) {
        let Some(ri) = self.reg_of_flat(o) else {
            return;
        };
        let reg = &self.layout.regs[ri];
        if reg.info.regtype == 0 {
            return; // arf.null: writes are discarded.
        }
        let field_reg = reg.field_reg;
        let base = reg.base;
        let acc_low2 = reg.info.name == "acc" && reg.num >= 2;
        let is_tdr = reg.info.name == "tdr";
        if reg.info.name == "ip" {
            // arf.ip: a write jumps.
            self.events.jumped = true;
        }
        let first = o / 4;
        let last = (o + size - 1) / 4;
        self.mark_arf(4 * first, 4 * (last + 1 - first));
        for d in first..=last {
            let mut be = 0u32;
            let mut nv = 0u32;
            let mut nu = 0u32;
            for k in 0..4 {
                let b = d * 4 + k;
                if b >= o && b < o + size {
                    let i = b - o;
                    be |= 0xff << (8 * k);
                    nv |= (((bits >> (8 * i)) & 0xff) as u32) << (8 * k);
                    nu |= (((undef >> (8 * i)) & 0xff) as u32) << (8 * k);
                }
            }
            let b = d * 4;
            let old = u32::from_le_bytes([
                self.arf[b],
                self.arf[b + 1],
                self.arf[b + 2],
                self.arf[b + 3],
            ]);
            let old_u = self.arf_undef[d];
            let merged = (old & !be) | (nv & be);
            let merged_u = (old_u & !be) | (nu & be);
            let (mut v, mut u) = match field_reg {
                Some(fr) => {
                    let dword = ((b - base) / 4) as u32;
                    self.store_fields(fr, dword, old, old_u, merged, merged_u, be)
                }
                None => (merged, merged_u),
            };
            if acc_low2 {
                // feature.acc2-acc9: on writes only the low two bits of each DWord are updated.
                v = (v & 0x3) | (old & !0x3);
                u = (u & 0x3) | (old_u & !0x3);
            }
            if is_tdr {
                // field.tdr0.*.valid*: any enabled write to a tdr0 word clears its valid bit.
                for half in 0..2 {
                    if be & (0xffff << (16 * half)) != 0 {
                        let m = 1u32 << (16 * half + 15);
                        v &= !m;
                        u &= !m;
                    }
                }
            }
            self.arf[b..b + 4].copy_from_slice(&v.to_le_bytes());
            self.arf_undef[d] = u;
        }
    }

    /// Write the low `size` bytes of `bits` at flat ARF offset `o`, all undefined or all
    /// defined, for a register with no field rows and no special behaviour (acc0/acc1): the
    /// effect of [`Self::write_arf_flat`] on such a register.
    pub(crate) fn write_arf_plain(&mut self, o: usize, size: usize, bits: u64, undef: bool) {
        self.mark_arf(o, size);
        let u = if undef { u32::MAX } else { 0 };
        if size == 4 && o % 4 == 0 && o + 4 <= self.arf.len() {
            self.arf[o..o + 4].copy_from_slice(&(bits as u32).to_le_bytes());
            if let Some(w) = self.arf_undef.get_mut(o / 4) {
                *w = u;
            }
            return;
        }
        let le = bits.to_le_bytes();
        for (i, b) in le.iter().enumerate().take(size.min(8)) {
            let at = o + i;
            let Some(x) = self.arf.get_mut(at) else {
                return;
            };
            *x = *b;
            if let Some(w) = self.arf_undef.get_mut(at / 4) {
                let m = 0xffu32 << (8 * (at % 4));
                *w = (*w & !m) | (u & m);
            }
        }
    }

    /// One dword through the field table; special fields' side effects.
    #[allow(clippy::too_many_arguments)]
    fn store_fields(
        &mut self,
        reg: &str,
        dword: u32,
        old: u32,
        old_u: u32,
        merged: u32,
        merged_u: u32,
        be: u32,
    ) -> (u32, u32) {
        let p = self.platform;
        let mut v = crate::values::arf_store(p, reg, dword, old, merged);
        let mut u = old_u;
        for f in registers::fields_of(p, reg, dword) {
            let m = f.mask();
            match f.access {
                FieldAccess::Rw => u = (u & !m) | (merged_u & m),
                FieldAccess::Zero | FieldAccess::Mbz => u &= !m,
                FieldAccess::W1c => u = (u & !m) | ((old_u | (merged_u & be)) & m),
                FieldAccess::Ro | FieldAccess::Reserved => {}
                FieldAccess::Special if be & m == 0 => {}
                FieldAccess::Special => match f.id {
                    // Writing 0 while it is 1 returns to the AIP; writing 1 has no effect.
                    "field.cr0.0.master-exception-state" if old & m != 0 && merged & m == 0 => {
                        v &= !m;
                        u &= !m;
                        self.events.jumped = true;
                        self.return_to_aip();
                    }
                    // In the System Routine (cr0.0 bit 31 set) an ordinary bit: software sets
                    // or clears it and nothing is raised (flow.exception.software).
                    "field.cr0.1.software-exception-control" if self.in_system_routine() => {
                        v = (v & !m) | (merged & m);
                        u = (u & !m) | (merged_u & m);
                    }
                    // Writing 1 from an application raises a software exception; clearing it
                    // there has no effect.
                    "field.cr0.1.software-exception-control" if merged & m != 0 => {
                        v |= m;
                        u &= !m;
                        self.events.software_exception = true;
                    }
                    _ => {}
                },
            }
        }
        (v, u)
    }

    /// cr0.0 bit 31 (the master exception state) is a defined 1.
    fn in_system_routine(&self) -> bool {
        field("cr0", "master_exception_state", self.platform)
            .is_some_and(|f| self.field(f) == Some((1, false)))
    }

    fn return_to_aip(&mut self) {
        let p = self.platform;
        let (Some(aip), Some(ipf)) = (field("cr0", "aip", p), field("ip", "ip", p)) else {
            return;
        };
        let Some(a) = self.field_value(aip) else {
            return;
        };
        let _ = self.set_field(ipf, a);
    }

    /// The value of a field (its bits shifted down) and whether any of them is undefined.
    #[inline]
    pub fn field(&self, f: &FieldInfo) -> Option<(u32, bool)> {
        let (d, u) = self.field_dword(f)?;
        Some((f.get(d), u & f.mask() != 0))
    }

    /// The whole dword holding field `f` and its per-bit undefined mask.
    #[inline]
    pub fn field_dword(&self, f: &FieldInfo) -> Option<(u32, u32)> {
        let b = self.field_offset(f)?;
        Some((
            self.arf_u32_at(b),
            self.arf_undef[b / 4] | self.layout.read_undef[b / 4],
        ))
    }

    /// The byte offset in the ARF storage of the dword holding field `f`, if this platform
    /// has its register.
    #[inline]
    fn field_offset(&self, f: &FieldInfo) -> Option<usize> {
        if let Some(b) = self.layout.hot_field_offset(f) {
            return Some(b);
        }
        let i = self.layout.field_reg_index(f.reg)?;
        self.layout.field_dword_offset(i, f)
    }

    fn arf_u32_at(&self, b: usize) -> u32 {
        u32::from_le_bytes([
            self.arf[b],
            self.arf[b + 1],
            self.arf[b + 2],
            self.arf[b + 3],
        ])
    }

    /// The dword at byte `b` of the ARF storage and its undefined bits.
    #[inline]
    fn dword_at(&self, b: usize) -> (u32, u32) {
        let d = b / 4;
        match (
            self.arf.get(b..b + 4),
            self.arf_undef.get(d),
            self.layout.read_undef.get(d),
        ) {
            (Some(w), Some(u), Some(r)) => (u32::from_le_bytes([w[0], w[1], w[2], w[3]]), u | r),
            // (Not reached: the layout's offsets lie in the storage.)
            _ => (0, u32::MAX),
        }
    }

    /// The control dwords (the same values [`Self::field_dword`] gives for the fields
    /// `cr0.0.*`, `sr0.2.dmask` and `sr0.3.vmask`).
    #[inline]
    pub fn control_dwords(&self) -> ControlDwords {
        let [cr0, sr2, sr3, _] = self.layout.control;
        ControlDwords {
            cr0_0: cr0.map(|b| self.dword_at(b)),
            sr0_2: sr2.map(|b| self.dword_at(b)),
            sr0_3: sr3.map(|b| self.dword_at(b)),
            channels: u32::MAX,
        }
    }

    /// Advance the IP by `by` bytes when it is defined: `set_ip(ip() + by)` (wrapping), with one
    /// access to its dword.
    pub fn advance_ip(&mut self, by: u32) {
        let f = &registers::field::IP_0_IP;
        let Some(b) = self.layout.control[3] else {
            // (Not reached: every platform has the IP; the general path decides.)
            if let Some(ip) = self.ip() {
                self.set_ip(ip.wrapping_add(by));
            }
            return;
        };
        let (d, u) = self.dword_at(b);
        if u & f.mask() != 0 {
            return;
        }
        let ip = f.get(d) << f.lo;
        let nd = f.set(d, ip.wrapping_add(by) >> f.lo);
        self.mark_arf(b, 4);
        self.arf[b..b + 4].copy_from_slice(&nd.to_le_bytes());
        self.arf_undef[b / 4] &= !f.mask();
    }

    /// The value of a field, `None` if absent or undefined.
    pub fn field_value(&self, f: &FieldInfo) -> Option<u32> {
        match self.field(f) {
            Some((v, false)) => Some(v),
            _ => None,
        }
    }

    /// Set a field directly (bypassing access rules: used to build states, like a dispatcher or
    /// a context restore). Marks it defined.
    pub fn set_field(&mut self, f: &FieldInfo, v: u32) -> Result<(), StateError> {
        if self.layout.field_reg_index(f.reg).is_none() {
            return Err(StateError::NoRegister(f.reg.to_string()));
        }
        let Some(b) = self.field_offset(f) else {
            return Err(StateError::NoRegister(format!("{}.{}", f.reg, f.dword)));
        };
        let nd = f.set(self.arf_u32_at(b), v);
        self.mark_arf(b, 4);
        self.arf[b..b + 4].copy_from_slice(&nd.to_le_bytes());
        self.arf_undef[b / 4] &= !f.mask();
        Ok(())
    }

    /// The named field of register `reg` on this platform (`("cr0", "fp_mode")`).
    pub fn field_info(&self, reg: &str, name: &str) -> Option<&'static FieldInfo> {
        field(reg, name, self.platform)
    }

    /// Set the raw bytes of ARF register `name` (defined), bypassing the access rules (a
    /// dispatcher or context restore); extended accumulator precision is reset to the visible
    /// bits.
    pub fn set_arf_bytes(
        &mut self,
        name: &str,
        off: usize,
        bytes: &[u8],
    ) -> Result<(), StateError> {
        let i = self
            .arf_index(name)
            .ok_or_else(|| StateError::NoRegister(name.to_string()))?;
        let r = &self.layout.regs[i];
        if off + bytes.len() > r.bytes {
            return Err(StateError::OutOfRange {
                what: "ARF",
                offset: off,
                size: bytes.len(),
                limit: format!("the {}-byte register {}", r.bytes, r.name),
            });
        }
        let base = r.base;
        let r_bytes = r.bytes;
        let is_acc = r.info.name == "acc";
        let num = usize::from(r.num);
        let (start, end) = (base + off, base + off + bytes.len());
        // (The accumulator records of the whole register may change.)
        self.mark_arf(base, r_bytes);
        self.arf[start..end].copy_from_slice(bytes);
        // The bytes' undefined flags, cleared a dword at a time.
        let mut o = start;
        while o < end {
            let (d, lo) = (o / 4, o % 4);
            let hi = (end - 4 * d).min(4);
            let m = (u32::MAX >> (8 * (4 - (hi - lo)))) << (8 * lo);
            self.arf_undef[d] &= !m;
            self.set_arf_inexact_bits(d, m, false);
            o = 4 * d + 4;
        }
        if is_acc {
            if let Some(a) = self.acc.get_mut(num) {
                for w in off / 2..(off + bytes.len()).div_ceil(2) {
                    if let Some(c) = a.class.get_mut(w) {
                        *c = NO_CLASS;
                    }
                }
            }
        }
        Ok(())
    }

    /// Mark bytes of ARF register `name` undefined.
    pub fn set_arf_undefined(
        &mut self,
        name: &str,
        off: usize,
        len: usize,
    ) -> Result<(), StateError> {
        let i = self
            .arf_index(name)
            .ok_or_else(|| StateError::NoRegister(name.to_string()))?;
        let r = &self.layout.regs[i];
        let base = r.base;
        let end = base + (off + len).min(r.bytes);
        self.mark_arf(base + off, end.saturating_sub(base + off));
        for o in base + off..end {
            self.arf_undef[o / 4] |= 0xff << (8 * (o % 4));
        }
        Ok(())
    }

    /// Set per-bit undefined flags of dword `dword` of ARF register `name`.
    pub fn set_arf_undef_bits(
        &mut self,
        name: &str,
        dword: usize,
        bits: u32,
    ) -> Result<(), StateError> {
        let d = self.arf_dword_index(name, dword)?;
        self.mark_arf(4 * d, 4);
        self.arf_undef[d] = bits;
        Ok(())
    }

    /// Dword `dword` of ARF register `name` and its per-bit undefined mask (stored flags plus
    /// the bits that always read undefined).
    pub fn arf_dword(&self, name: &str, dword: usize) -> Option<(u32, u32)> {
        let r = &self.layout.regs[self.layout.by_name(name)?];
        if 4 * dword + 4 > r.bytes.div_ceil(4) * 4 {
            return None;
        }
        let b = r.base + 4 * dword;
        let v = self.arf_u32_at(b);
        Some((v, self.arf_undef[b / 4] | self.layout.read_undef[b / 4]))
    }

    /// The 32-bit flag register `f<n>` and its per-bit undefined mask.
    #[inline]
    pub fn flag(&self, n: usize) -> Option<(u32, u32)> {
        let b = self.layout.flag_base(n)?;
        Some(self.dword_at(b))
    }

    /// Set flag register `f<n>` (value and per-bit undefined mask).
    pub fn set_flag(&mut self, n: usize, v: u32, undef: u32) -> Result<(), StateError> {
        let b = self
            .layout
            .flag_base(n)
            .ok_or_else(|| StateError::NoRegister(format!("f{n}")))?;
        self.mark_arf(b, 4);
        self.arf[b..b + 4].copy_from_slice(&v.to_le_bytes());
        self.arf_undef[b / 4] = undef;
        Ok(())
    }

    /// Address subregister `a0.<i>` as UW and whether it is undefined (`None` when the
    /// platform has no such subregister).
    pub fn a0(&self, i: usize) -> Option<(u16, bool)> {
        let ri = self.layout.by_name("a0")?;
        let r = &self.layout.regs[ri];
        // A subregister exists where the field table populates its dword (on ivb/hsw dwords
        // 4-7 are `unpopulated`: feature.a0-16-subregs).
        let reg = r.field_reg?;
        let populated = registers::fields_of(self.platform, reg, (i / 2) as u32)
            .any(|f| f.access == FieldAccess::Rw);
        if !populated {
            return None;
        }
        let o = r.base + 2 * i;
        if 2 * i + 2 > r.bytes {
            return None;
        }
        let d = o / 4;
        let sh = 8 * (o % 4);
        let u = ((self.arf_undef[d] | self.layout.read_undef[d]) >> sh) & 0xffff;
        Some((u16::from_le_bytes([self.arf[o], self.arf[o + 1]]), u != 0))
    }

    /// The thread channels on the current instruction (flow.channel.enable): the executor
    /// ANDs them into the execution mask of instructions without NoMask.
    pub fn channels_at_ip(&self) -> u32 {
        self.channels_at_ip
    }

    /// Set the thread channels on the current instruction (bit `n`: PcIP[n] == IP); all ones
    /// when every channel is.
    pub fn set_channels_at_ip(&mut self, mask: u32) {
        self.channels_at_ip = mask;
    }

    /// The instruction pointer (the `ip` register), if defined.
    pub fn ip(&self) -> Option<u32> {
        let f = &registers::field::IP_0_IP;
        self.field_value(f).map(|v| v << f.lo)
    }

    /// Set the instruction pointer (bits 2:0 are dropped: field.ip.0.reserved-2-0).
    pub fn set_ip(&mut self, ip: u32) {
        let f = &registers::field::IP_0_IP;
        let _ = self.set_field(f, ip >> f.lo);
    }

    /// The extended precision record of accumulator `n`.
    pub fn acc_ext(&self, n: usize) -> Option<&AccExt> {
        self.acc.get(n)
    }

    /// The number of accumulator registers.
    pub fn acc_count(&self) -> usize {
        self.acc.len()
    }
}

/// `size` low bits set (size <= 8).
#[inline]
pub(crate) fn low_mask(size: usize) -> u64 {
    if size >= 64 {
        u64::MAX
    } else {
        (1u64 << size) - 1
    }
}

/// `bits` low bits set (bits <= 64).
#[inline]
pub(crate) fn mask_bits(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

#[cfg(test)]
mod clone_tests {
    use super::*;

    #[test]
    fn clone_from_copies_the_values_in_place() {
        let mut a = ThreadState::new(Platform::Skl);
        a.write_grf_bytes(64, &[1, 2, 3]).unwrap();
        a.set_flag(0, 0x1234, 0).unwrap();
        a.set_grf_inexact(64, 2, true);
        a.set_preemptible(true);
        let mut b = ThreadState::zeroed(Platform::Skl);
        let storage = (b.grf.as_ptr(), b.arf.as_ptr());
        b.clone_from(&a);
        assert!(b == a);
        assert!(b.grf_byte_inexact(65) && b.preemptible());
        // Same platform: no storage allocated anew.
        assert_eq!((b.grf.as_ptr(), b.arf.as_ptr()), storage);
        // Another platform: the whole state, layout included.
        let mut c = ThreadState::new(Platform::Ivb);
        c.clone_from(&a);
        assert!(c == a);
        assert_eq!(c.arf_layout().regs.len(), a.arf_layout().regs.len());
    }
}
