//! The JSON keys of the registers of a vector line (`"r12":"`, `"acc0":"`), rendered once per
//! task: a key is written by one fixed-width copy of a zero-padded slot (then cut to its
//! length) instead of a quote, a name lookup and a sized copy per register.

use super::format::fast::{self, Cursor};
use crate::state::ThreadState;

/// Width of a key slot.
pub(super) const SLOT: usize = 16;

/// GRF registers with a key (`r0`..`r255`); the ARF registers' keys follow.
pub(super) const GRF_KEYS: usize = 256;

/// `"<name>":"` of every GRF register and of every ARF register of a layout.
pub(super) struct RegKeys {
    /// Each key in a slot, with its length (longer than a slot: only in `text`).
    padded: Vec<([u8; SLOT], usize)>,
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
                (s, k.len())
            })
            .collect();
        RegKeys { padded, text }
    }

    /// Key `i` in its slot, and its length (None: no key `i`, or longer than a slot).
    #[inline(always)]
    pub(super) fn slot(&self, i: usize) -> Option<(&[u8; SLOT], usize)> {
        match self.padded.get(i) {
            Some((p, n)) if *n <= SLOT => Some((p, *n)),
            _ => None,
        }
    }

    /// Write key `i` (nothing for an index without a key).
    #[inline(always)]
    pub(super) fn put(&self, c: &mut Cursor<'_>, i: usize) {
        match self.padded.get(i) {
            Some((p, n)) if *n <= SLOT => c.padded(p, *n),
            Some(_) => c.bytes(self.text.get(i).map_or(&[], |k| k.as_slice())),
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Platform;

    /// `x` and key `i`.
    fn key(keys: &RegKeys, i: usize) -> Vec<u8> {
        let mut out = fast::Lines::default();
        out.write(|c| {
            c.byte(b'x');
            keys.put(c, i);
        });
        out.as_bytes().to_vec()
    }

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
                assert_eq!(key(&keys, i), format!("x\"{name}\":\"").as_bytes());
            }
            assert_eq!(key(&keys, GRF_KEYS + st.layout.regs.len()), b"x");
        }
        // A name longer than a slot.
        let mut st = ThreadState::new(Platform::Skl);
        st.layout.regs[0].name = "a-rather-long-register-name".into();
        let out = key(&RegKeys::new(&st), GRF_KEYS);
        assert_eq!(out, b"x\"a-rather-long-register-name\":\"");
    }
}
