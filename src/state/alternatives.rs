//! Two results of one step, where the sources give both (spec/platforms.toml
//! feature.compressed-overlap): the state keeps what they agree on and is undefined on the
//! rest.

use super::ThreadState;

impl ThreadState {
    /// Make every GRF byte and ARF bit undefined where `other` (the same thread after the
    /// other result of the same step) holds a different value or undefined flag; an
    /// accumulator whose extended precision differs becomes undefined as a whole. Inexact
    /// flags are joined. Both states must be of the same platform (else nothing changes).
    /// Returns whether a defined byte or bit became undefined.
    pub fn undefine_differences(&mut self, other: &ThreadState) -> bool {
        if self.platform != other.platform || self.grf.len() != other.grf.len() {
            return false;
        }
        let mut changed = false;
        for (i, (a, b)) in self.grf.iter().zip(&other.grf).enumerate() {
            let bit = 1u64 << (i % 64);
            let undef = (self.grf_undef[i / 64] | other.grf_undef[i / 64]) & bit != 0;
            if (a != b || undef) && self.grf_undef[i / 64] & bit == 0 {
                self.grf_undef[i / 64] |= bit;
                changed = true;
            }
        }
        let word = |x: &[u8]| x.iter().rev().fold(0u32, |w, v| (w << 8) | u32::from(*v));
        for (d, (a, b)) in self.arf.chunks(4).zip(other.arf.chunks(4)).enumerate() {
            let more = (other.arf_undef[d] | (word(a) ^ word(b))) & !self.arf_undef[d];
            changed |= more != 0;
            self.arf_undef[d] |= more;
        }
        for (n, (a, b)) in self.acc.iter().zip(&other.acc).enumerate() {
            if a != b {
                changed = true;
                if let Some(r) = (self.layout.regs.iter())
                    .find(|r| r.info.name == "acc" && usize::from(r.num) == n)
                {
                    for o in r.base..r.base + r.bytes {
                        self.arf_undef[o / 4] |= 0xff << (8 * (o % 4));
                    }
                }
            }
        }
        if other.any_inexact {
            self.any_inexact = true;
            for (a, b) in self.grf_inexact.iter_mut().zip(&other.grf_inexact) {
                *a |= b;
            }
            for (a, b) in self.arf_inexact.iter_mut().zip(&other.arf_inexact) {
                *a |= b;
            }
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use crate::spec::{DataType, Platform};
    use crate::state::ThreadState;

    #[test]
    fn only_the_differing_bytes_and_bits_become_undefined() {
        let mut a = ThreadState::zeroed(Platform::Skl);
        let mut b = a.clone();
        b.write_grf_bytes(64, &[1]).unwrap();
        b.set_flag(0, 0b100, 0).unwrap();
        assert!(a.undefine_differences(&b));
        assert!(a.grf_byte_undefined(64));
        assert!(!a.grf_byte_undefined(63) && !a.grf_byte_undefined(65));
        assert_eq!(a.flag(0), Some((0, 0b100)));
        assert_eq!(a.read_grf_typed(DataType::UD, 0).unwrap(), (0, false));
    }

    #[test]
    fn an_undefined_byte_of_either_side_stays_undefined() {
        let mut a = ThreadState::zeroed(Platform::Bdw);
        let mut b = a.clone();
        b.set_grf_undefined(128, 2);
        assert!(a.undefine_differences(&b));
        assert!(a.grf_byte_undefined(128) && a.grf_byte_undefined(129));
        assert!(
            !a.clone().undefine_differences(&a.clone()),
            "equal states change nothing"
        );
        assert!(!a.grf_byte_undefined(130));
    }
}
