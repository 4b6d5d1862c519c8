//! The JSON keys of the registers of a vector line (`"r12":"`, `"acc0":"`), rendered once per
//! task: a key is written by one fixed-width copy of a zero-padded slot (then cut to its
//! length) instead of a quote, a name lookup and a sized copy per register.

use super::format::fast;
use crate::state::ThreadState;

/// Width of a key slot.
const SLOT: usize = 16;

/// GRF registers with a key (`r0`..`r255`); the ARF registers' keys follow.
pub(super) const GRF_KEYS: usize = 256;

/// `"<name>":"` of every GRF register and of every ARF register of a layout.
pub(super) struct RegKeys {
    padded: Vec<[u8; SLOT]>,
    text: Vec<Vec<u8>>,
}

impl RegKeys {
    /// The keys of GRF registers `0..GRF_KEYS` (index `n`) and of `st`'s ARF registers
    /// (index `GRF_KEYS + i`).
    pub(super) fn new(st: &ThreadState) -> RegKeys {
        let grf = (0..GRF_KEYS).map(|n| format!("r{n}"));
        let arf = st.layout.regs.iter().map(|r| r.name.clone());
        let text: Vec<Vec<u8>> = grf
            .chain(arf)
            .map(|name| {
                let mut k = Vec::with_capacity(name.len() + 4);
                fast::plain(&mut k, &name);
                k.extend_from_slice(b":\"");
                k
            })
            .collect();
        let padded = text
            .iter()
            .map(|k| {
                let mut s = [0u8; SLOT];
                if k.len() <= SLOT {
                    s[..k.len()].copy_from_slice(k);
                }
                s
            })
            .collect();
        RegKeys { padded, text }
    }

    /// Append key `i` (nothing for an index without a key).
    #[inline]
    pub(super) fn put(&self, out: &mut Vec<u8>, i: usize) {
        let (Some(k), Some(p)) = (self.text.get(i), self.padded.get(i)) else {
            return;
        };
        if k.len() <= SLOT {
            let at = out.len();
            out.extend_from_slice(p);
            out.truncate(at + k.len());
        } else {
            out.extend_from_slice(k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Platform;

    /// Every key is the quoted name and `:"`, by the slot path and the long path alike.
    #[test]
    fn keys_are_quoted_names() {
        for p in Platform::ALL {
            let st = ThreadState::new(p);
            let keys = RegKeys::new(&st);
            let names = (0..GRF_KEYS)
                .map(|n| format!("r{n}"))
                .chain(st.layout.regs.iter().map(|r| r.name.clone()));
            for (i, name) in names.enumerate() {
                let mut out = b"x".to_vec();
                keys.put(&mut out, i);
                assert_eq!(out, format!("x\"{name}\":\"").as_bytes());
            }
            let mut out = Vec::new();
            keys.put(&mut out, GRF_KEYS + st.layout.regs.len());
            assert!(out.is_empty());
        }
        // A name longer than a slot.
        let mut st = ThreadState::new(Platform::Skl);
        st.layout.regs[0].name = "a-rather-long-register-name".into();
        let mut out = Vec::new();
        RegKeys::new(&st).put(&mut out, GRF_KEYS);
        assert_eq!(out, b"\"a-rather-long-register-name\":\"");
    }
}
