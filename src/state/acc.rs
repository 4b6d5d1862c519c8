//! The accumulators' extended channel precision (spec/registers.toml `[[acc_precision]]`).
//!
//! Software sees an accumulator as 32 bytes (8 DWords or 16 Words), but a channel written with
//! a word integer type holds a 33-bit two's complement value and a channel written with a
//! DWord integer type a 64-bit one (acc.precision.w, acc.precision.d). The visible bytes hold
//! the low bits of each channel; this module keeps the full value next to them, with the
//! precision row each channel was last written with, so that a read with another type can be
//! detected (seed004 §Accumulator Registers: "Reading accumulator content with a datatype
//! different from the previous write will result in undeterministic values").

use crate::spec::registers::{self, AccPrecisionInfo};
use crate::spec::{DataType, Platform};

/// No recorded write type: the channel's value is its visible bits (initial state, or bytes
/// loaded from JSON without a type).
pub const NO_CLASS: u8 = u8::MAX;

/// The precision row (index into `registers::ACC_PRECISION`) of type `t` on `p`.
#[inline]
pub fn class_of(p: Platform, t: DataType) -> Option<u8> {
    // The rows' lookup for every platform and type, done once.
    static TABLE: std::sync::OnceLock<Vec<Option<u8>>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        Platform::ALL
            .iter()
            .flat_map(|p| DataType::ALL.iter().map(|t| class_lookup(*p, *t)))
            .collect()
    });
    table
        .get(p as usize * DataType::ALL.len() + t as usize)
        .copied()
        .unwrap_or_else(|| class_lookup(p, t))
}

/// [`class_of`] by a search of the precision rows.
fn class_lookup(p: Platform, t: DataType) -> Option<u8> {
    let row = registers::acc_precision(p, t)?;
    registers::ACC_PRECISION
        .iter()
        .position(|r| std::ptr::eq(r, row))
        .and_then(|i| u8::try_from(i).ok())
}

/// The precision row of class `c`.
pub fn class_info(c: u8) -> Option<&'static AccPrecisionInfo> {
    registers::ACC_PRECISION.get(usize::from(c))
}

/// Extended values of one accumulator register, indexed by the word index of each channel's
/// first word (channel `i` of a DWord type is word `2i`, of a word type word `i`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccExt {
    /// The channel value, sign-extended to 64 bits (33-bit word channels are kept
    /// sign-extended from bit 32).
    pub ext: [i64; 16],
    /// Per word: the precision row of the last write covering it, or [`NO_CLASS`].
    pub class: [u8; 16],
}

impl Default for AccExt {
    fn default() -> Self {
        AccExt {
            ext: [0; 16],
            class: [NO_CLASS; 16],
        }
    }
}

/// Wrap `v` to a `bits`-wide two's complement value (sign-extended back to i128).
pub fn wrap_signed(v: i128, bits: u32) -> i128 {
    if bits >= 128 || bits == 0 {
        return v;
    }
    let sh = 128 - bits;
    (v << sh) >> sh
}

/// Whether an exact integer result can be held by a `prec`-bit accumulator channel: word
/// channels (33 bits) wrap, so anything is accepted; a 64-bit DWord channel holds any 64-bit
/// pattern, signed or unsigned (a UD x UD product uses all 64 bits, which the mul/mach/shr
/// macros read back as unsigned), but a 65-bit value is unpredictable (acc.precision.d note:
/// a negated UD source).
pub fn fits_acc(v: i128, prec: u32) -> bool {
    prec < 64 || (v >= i128::from(i64::MIN) && v <= i128::from(u64::MAX))
}

/// The value a read of type `t` sees in a `prec`-bit channel holding the pattern `ext`: a
/// 64-bit channel is read as signed for a signed type and unsigned otherwise; a 33-bit word
/// channel is a two's complement value with bit 32 as the sign (acc.precision.w).
pub fn acc_value(ext: i64, prec: u32, t: DataType) -> i128 {
    if prec >= 64 && !t.is_signed() {
        i128::from(ext as u64)
    } else {
        i128::from(ext)
    }
}

/// Words per channel of precision class `c` (a 32-byte register holds `channels` channels).
pub fn words_per_channel(c: u8) -> usize {
    match class_info(c) {
        Some(ci) if ci.channels > 0 => (16 / ci.channels as usize).max(1),
        _ => 1,
    }
}

impl AccExt {
    /// Record that words `w..w+n` hold one channel of class `c` with extended value `ext`
    /// (kept at the first word; the others hold 0).
    pub fn set_class(&mut self, w: usize, n: usize, c: u8, ext: i64) {
        for k in 0..n {
            if let (Some(t), Some(e)) = (self.class.get_mut(w + k), self.ext.get_mut(w + k)) {
                *t = c;
                *e = if k == 0 { ext } else { 0 };
            }
        }
    }
}

/// What an accumulator write of one type looks up ([`ThreadState::acc_write_as`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AccWriteType {
    /// Bytes per element.
    size: usize,
    /// An integer type (its exact value is kept).
    int: bool,
    /// The precision class, its bits and the words one channel takes (`None`: the type has no
    /// accumulator precision).
    class: Option<(u8, u32, usize)>,
}

impl AccWriteType {
    pub(crate) fn new(p: Platform, t: DataType) -> AccWriteType {
        let size = t.bytes() as usize;
        let class = class_of(p, t)
            .filter(|c| class_info(*c).is_some_and(|ci| ci.channels > 0))
            .map(|c| {
                let prec = class_info(c).map_or(64, |ci| ci.bits);
                (c, prec, words_per_channel(c).min(size / 2).max(1))
            });
        AccWriteType {
            size,
            int: t.is_int(),
            class,
        }
    }
}

/// What a read of one accumulator channel gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccRead {
    /// The visible bits of the element.
    pub bits: u64,
    /// For integer types: the channel's value with the accumulator's extended precision.
    pub exact: i128,
    /// The value is undefined (undefined bytes, or a read with another type than the last
    /// write).
    pub undefined: bool,
    /// The channel was last written with a type of another precision class (runtime check
    /// `runtime.acc-read-type-mismatch`).
    pub mismatch: bool,
}

impl ThreadState {
    /// The accumulator register and word index of flat ARF byte `o`, if it is acc0-acc9.
    fn acc_at(&self, o: usize) -> Option<(usize, usize)> {
        let ri = self.reg_of_flat(o)?;
        let r = &self.layout.regs[ri];
        (r.info.name == "acc").then(|| (usize::from(r.num), (o - r.base) / 2))
    }

    /// Write one channel of type `t` into an accumulator at flat ARF offset `o`: for integer
    /// types the exact value `exact` wrapped to the channel precision (acc.precision.w: 33
    /// bits, wrapping; acc.precision.d: 64 bits, a value needing more is unpredictable), for
    /// float types the bits `bits`. `undefined` marks the channel undefined.
    pub(crate) fn acc_write(
        &mut self,
        o: usize,
        t: DataType,
        exact: i128,
        bits: u64,
        undefined: bool,
    ) {
        let ty = AccWriteType::new(self.platform, t);
        self.acc_write_as(o, &ty, exact, bits, undefined);
    }

    /// [`Self::acc_write`] with the lookups of the type made beforehand (for many channels).
    #[inline]
    pub(crate) fn acc_write_as(
        &mut self,
        o: usize,
        ty: &AccWriteType,
        exact: i128,
        bits: u64,
        undefined: bool,
    ) {
        let Some((n, w)) = self.acc_at(o) else {
            return;
        };
        if n >= 2 {
            // acc2-acc9 have no extended precision: a plain (low-2-bit) register.
            let u = if undefined { u64::MAX } else { 0 };
            self.write_arf_flat(o, ty.size, bits, u);
            return;
        }
        self.acc_write_ext(o, n, w, ty, exact, bits, undefined);
    }

    /// The accumulator number and byte size of the register that starts at flat ARF byte
    /// `base`, when it is one with extended precision (acc0, acc1): then every byte `o` of
    /// it is `acc_at(o) == (n, (o - base) / 2)` ([`Self::acc_write_ext`] without the lookup).
    pub(crate) fn ext_acc_at(&self, base: usize) -> Option<(usize, usize)> {
        let ri = self.reg_of_flat(base)?;
        let r = &self.layout.regs[ri];
        (r.info.name == "acc" && r.base == base && r.num < 2 && base % 4 == 0)
            .then(|| (usize::from(r.num), r.bytes))
    }

    /// [`Self::acc_write_as`] of an element at flat ARF byte `o` that lies in accumulator
    /// `n` < 2 (acc0, acc1) at word index `w` (what `acc_at(o)` gives).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn acc_write_ext(
        &mut self,
        o: usize,
        n: usize,
        w: usize,
        ty: &AccWriteType,
        exact: i128,
        bits: u64,
        undefined: bool,
    ) {
        let size = ty.size;
        let Some((c, prec, words)) = ty.class else {
            // acc.precision.b / acc.precision.q: the type is not supported in the accumulator.
            self.write_arf_flat(o, size, 0, u64::MAX);
            return;
        };
        let (vis, ext, undef) = if ty.int {
            let wrapped = wrap_signed(exact, prec.min(64));
            (
                wrapped as u64,
                wrapped as i64,
                undefined || !fits_acc(exact, prec),
            )
        } else {
            (bits, 0, undefined)
        };
        // acc0/acc1 have no field rows: the bytes are stored as they are.
        self.write_arf_plain(o, size, vis, undef);
        if let Some(a) = self.acc.get_mut(n) {
            a.set_class(w, words, c, ext);
        }
    }

    /// Read one channel of type `t` from an accumulator at flat ARF offset `o`.
    pub(crate) fn acc_read(&mut self, o: usize, t: DataType) -> AccRead {
        let size = t.bytes() as usize;
        let p = self.platform;
        let (bits, ub) = self.read_arf_flat(o, size);
        let sign_ext = |b: u64| -> i128 {
            let v = crate::values::to_i64(t, b);
            if t.is_int() && !t.is_signed() {
                i128::from(b & crate::state::mask_bits(t.bits()))
            } else {
                i128::from(v)
            }
        };
        let mut r = AccRead {
            bits,
            exact: sign_ext(bits),
            undefined: ub != 0,
            mismatch: false,
        };
        let Some((n, w)) = self.acc_at(o) else {
            return r;
        };
        if n >= 2 {
            return r;
        }
        let Some(a) = self.acc.get(n) else {
            return r;
        };
        let c = class_of(p, t);
        let words = (size / 2).max(1);
        let tags = &a.class[w.min(16)..(w + words).min(16)];
        if tags.iter().all(|x| *x == NO_CLASS) {
            return r;
        }
        if c.is_none() || tags.iter().any(|x| Some(*x) != c) {
            r.mismatch = true;
            r.undefined = true;
            return r;
        }
        if t.is_int() {
            r.exact = acc_value(
                a.ext[w],
                class_info(c.unwrap_or(NO_CLASS)).map_or(64, |ci| ci.bits),
                t,
            );
        }
        r
    }
}

use super::ThreadState;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_table_is_the_row_search() {
        for p in Platform::ALL {
            for t in DataType::ALL {
                assert_eq!(class_of(p, t), class_lookup(p, t), "{p:?} {t:?}");
            }
        }
    }
}
