//! A layout field with a fast accessor, resolved once from the generated [`BitField`].

use crate::spec::encoding::BitField;

/// A field of a layout, with a fast accessor: a field held in one bit range of one 64-bit
/// half is read and written with one shift and mask of that half (taken from the generated [`BitField`]
/// when the tables are built); a split field goes through [`BitField::get`] /
/// [`BitField::set`]. An absent field reads as 0 and ignores writes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct F {
    bf: Option<&'static BitField>,
    /// Lowest bit in the word; a single-range field lies in one 64-bit half (bit 6 of
    /// `shift` says which).
    shift: u32,
    /// `(1 << width) - 1`; 0 for an absent field.
    mask: u64,
    /// The field has several bit ranges: read through the generated accessor.
    split: bool,
}

impl Default for F {
    fn default() -> F {
        F::NONE
    }
}

impl F {
    pub const NONE: F = F {
        bf: None,
        shift: 0,
        mask: 0,
        split: false,
    };

    pub fn new(bf: Option<&'static BitField>) -> F {
        let Some(b) = bf else { return F::NONE };
        let mask = if b.width >= 64 {
            u64::MAX
        } else {
            (1u64 << b.width) - 1
        };
        match b.pieces {
            [pc] if pc.at == 0 && pc.lo / 64 == pc.hi / 64 && pc.hi < 128 => F {
                bf,
                shift: u32::from(pc.lo),
                mask,
                split: false,
            },
            _ => F {
                bf,
                shift: 0,
                mask,
                split: true,
            },
        }
    }

    /// The generated field, if the layout has it.
    #[inline]
    pub fn bf(self) -> Option<&'static BitField> {
        self.bf
    }

    #[inline(always)]
    pub fn is_some(self) -> bool {
        self.mask != 0
    }

    #[inline(always)]
    pub fn get(self, w: u128) -> u64 {
        if self.split {
            return self.get_split(w);
        }
        let x = if self.shift >= 64 {
            (w >> 64) as u64
        } else {
            w as u64
        };
        (x >> (self.shift & 63)) & self.mask
    }

    #[cold]
    #[inline(never)]
    fn get_split(self, w: u128) -> u64 {
        self.bf.map_or(0, |b| b.get(w))
    }

    /// Write `v` (bits above the field's width are dropped; absent fields ignore the write).
    #[inline(always)]
    pub fn set(self, w: &mut u128, v: u64) {
        if self.split {
            if let Some(b) = self.bf {
                b.set(w, v);
            }
        } else {
            // Work on the 64-bit half that holds the field.
            let lo_bit = self.shift & 63;
            let m = self.mask << lo_bit;
            let x = (v & self.mask) << lo_bit;
            let (mut lo, mut hi) = (*w as u64, (*w >> 64) as u64);
            if self.shift >= 64 {
                hi = (hi & !m) | x;
            } else {
                lo = (lo & !m) | x;
            }
            *w = u128::from(lo) | u128::from(hi) << 64;
        }
    }

    /// OR `v` into the field's bits (for words built from 0 that write each field once: the
    /// field's bits are still 0).
    #[inline(always)]
    pub fn or_into(self, w: &mut u128, v: u64) {
        if self.split {
            self.set(w, v);
        } else {
            // Within the field's 64-bit half: a 64-bit shift.
            let x = u128::from((v & self.mask) << (self.shift & 63));
            *w |= if self.shift >= 64 { x << 64 } else { x };
        }
    }

    #[inline]
    pub fn width(self) -> u8 {
        self.mask.count_ones() as u8
    }

    /// Whether the field exists and `v` fits it.
    #[inline(always)]
    pub fn fits(self, v: u64) -> bool {
        self.mask != 0 && v & !self.mask == 0
    }
}
