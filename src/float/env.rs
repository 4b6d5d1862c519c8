//! [`FloatEnv`]: the floating-point state of a thread (cr0.0 float fields + platform).

use crate::fp::Round;
use crate::spec::registers::{field, FieldInfo};
use crate::spec::{Platform, PLATFORM_COUNT};

/// The cr0.0 denorm-mode fields (spec/registers.toml); which exist depends on the platform
/// (`gens` of each field).
const DENORM_FIELDS: [&FieldInfo; 3] = [
    &field::CR0_0_FP16_DENORM_MODE,
    &field::CR0_0_FP32_DENORM_MODE,
    &field::CR0_0_DF_DENORM_MODE,
];

/// The cr0.0 bits of the denorm-mode fields each platform has (by `Platform as usize`), from
/// [`DENORM_FIELDS`] at compile time.
const DENORM_MASKS: [u32; PLATFORM_COUNT] = denorm_masks();

const fn denorm_masks() -> [u32; PLATFORM_COUNT] {
    let mut t = [0u32; PLATFORM_COUNT];
    let mut k = 0;
    while k < Platform::ALL.len() {
        let p = Platform::ALL[k];
        let mut i = 0;
        while i < DENORM_FIELDS.len() {
            if DENORM_FIELDS[i].gens.contains(p) {
                t[p as usize] |= DENORM_FIELDS[i].mask();
            }
            i += 1;
        }
        k += 1;
    }
    t
}

/// The denorm-mode bits of cr0.0 on `p`.
#[inline]
fn denorm_mask(p: Platform) -> u32 {
    DENORM_MASKS.get(p as usize).copied().unwrap_or(0)
}

/// The floating-point environment of a thread: the platform and the float fields of cr0.0.
///
/// * `rounding`: cr0.0 Rounding Mode (`field.cr0.0.rounding-mode`, bits 5:4);
/// * `alt`: cr0.0 Single Precision Floating Point Mode (`field.cr0.0.fp-mode`, bit 0);
/// * `denorm_bits`: cr0.0 masked to the denorm-mode fields the platform has
///   (`field.cr0.0.df-denorm-mode` everywhere, `field.cr0.0.fp32-denorm-mode` on Gen8+,
///   `field.cr0.0.fp16-denorm-mode` on Gen9). A float_modes row with effect `denorm_cr0` keeps
///   denormals when `denorm_bits` has its `cr0_bit` set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FloatEnv {
    /// The platform.
    pub platform: Platform,
    /// cr0.0\[5:4\].
    pub rounding: Round,
    /// cr0.0 bit 0 (ALT mode; F only, see fp.alt.f-only).
    pub alt: bool,
    /// cr0.0 restricted to the platform's denorm-mode fields.
    pub denorm_bits: u32,
}

impl FloatEnv {
    /// The environment given by a cr0.0 value on `platform`. Bits of fields the platform does
    /// not have (e.g. bit 7 on Gen7, reserved there) are ignored.
    pub fn from_cr0(platform: Platform, cr0_0: u32) -> FloatEnv {
        let rounding = Round::from_cr0_bits(field::CR0_0_ROUNDING_MODE.get(cr0_0));
        let alt = field::CR0_0_FP_MODE.get(cr0_0) != 0;
        FloatEnv {
            platform,
            rounding,
            alt,
            denorm_bits: cr0_0 & denorm_mask(platform),
        }
    }

    /// cr0.0 = 0: RTNE, IEEE mode, every denorm-mode bit 0 (denormals flushed where a bit
    /// controls them).
    pub fn new(platform: Platform) -> FloatEnv {
        FloatEnv::from_cr0(platform, 0)
    }

    /// The float fields of this environment as a cr0.0 value (other fields 0).
    pub fn cr0(&self) -> u32 {
        let mut v = field::CR0_0_ROUNDING_MODE.set(0, self.rounding.to_cr0_bits());
        v = field::CR0_0_FP_MODE.set(v, self.alt as u32);
        v | self.denorm_bits
    }

    /// With another rounding mode.
    pub fn with_rounding(self, rounding: Round) -> FloatEnv {
        FloatEnv { rounding, ..self }
    }

    /// With ALT mode on or off.
    pub fn with_alt(self, alt: bool) -> FloatEnv {
        FloatEnv { alt, ..self }
    }

    /// With every denorm-mode field of the platform set to `keep` (1 keeps denormals, 0 flushes).
    pub fn with_denorms(self, keep: bool) -> FloatEnv {
        FloatEnv {
            denorm_bits: if keep { denorm_mask(self.platform) } else { 0 },
            ..self
        }
    }

    /// With one denorm-mode field (one of `registers::field::CR0_0_*_DENORM_MODE`) set to
    /// `keep`; a field the platform lacks is ignored.
    pub fn with_denorm_field(self, f: &FieldInfo, keep: bool) -> FloatEnv {
        let mask = if f.gens.contains(self.platform) && DENORM_FIELDS.iter().any(|d| d.id == f.id) {
            f.mask()
        } else {
            0
        };
        let denorm_bits = if keep {
            self.denorm_bits | mask
        } else {
            self.denorm_bits & !mask
        };
        FloatEnv {
            denorm_bits,
            ..self
        }
    }

    /// Whether cr0.0 bit `bit` is set among the denorm-mode fields.
    pub fn denorm_bit(&self, bit: u32) -> bool {
        bit < 32 && self.denorm_bits >> bit & 1 != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The compile-time masks are the fields each platform has.
    #[test]
    fn denorm_masks_are_the_platform_fields() {
        for p in Platform::ALL {
            let by_field = DENORM_FIELDS
                .iter()
                .filter(|f| f.gens.contains(p))
                .fold(0, |m, f| m | f.mask());
            assert_eq!(denorm_mask(p), by_field, "{p:?}");
            assert_eq!(FloatEnv::from_cr0(p, u32::MAX).denorm_bits, by_field);
            assert_eq!(FloatEnv::new(p).with_denorms(true).denorm_bits, by_field);
        }
        // Gen9 has all three fields (FP16, FP32, DF).
        assert_eq!(denorm_mask(Platform::Skl).count_ones(), 3);
    }
}
