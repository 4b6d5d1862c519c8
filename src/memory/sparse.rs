//! A sparse byte store with an undefined flag per byte (spec/memory.toml mem.flat,
//! mem.undefined-bytes): pages of 4 KiB created on first write; a byte never written is
//! undefined. Beside the defined flag each byte has an inexact flag (mem.inexact): set by
//! [`Sparse::write_marked`], cleared by every other store.

use std::collections::HashMap;

const PAGE: u64 = 4096;

#[derive(Debug, Clone)]
struct Page {
    data: Box<[u8; PAGE as usize]>,
    /// One bit per byte: set when the byte is defined.
    defined: Box<[u64; (PAGE / 64) as usize]>,
    /// One bit per byte: set when the (defined) byte is inexact (mem.inexact).
    inexact: Box<[u64; (PAGE / 64) as usize]>,
}

impl Page {
    fn new() -> Page {
        Page {
            data: Box::new([0; PAGE as usize]),
            defined: Box::new([0; (PAGE / 64) as usize]),
            inexact: Box::new([0; (PAGE / 64) as usize]),
        }
    }
}

/// Bytes addressed by a 64-bit address; `None` is an undefined byte.
#[derive(Debug, Clone, Default)]
pub struct Sparse {
    pages: HashMap<u64, Page>,
    /// Whether a byte was ever marked inexact (skips the inexact checks when not).
    any_inexact: bool,
}

impl Sparse {
    /// An empty store: every byte undefined.
    pub fn new() -> Sparse {
        Sparse::default()
    }

    /// The byte at `a` (`None`: undefined).
    pub fn byte(&self, a: u64) -> Option<u8> {
        let p = self.pages.get(&(a / PAGE))?;
        let o = (a % PAGE) as usize;
        (p.defined[o / 64] >> (o % 64) & 1 == 1).then_some(p.data[o])
    }

    /// Set the byte at `a` (`None`: make it undefined); the byte is exact.
    pub fn set_byte(&mut self, a: u64, v: Option<u8>) {
        self.set_byte_marked(a, v, false);
    }

    /// Set the byte at `a` (`None`: make it undefined), inexact when `inexact` and defined
    /// (mem.inexact: an undefined byte is never inexact).
    pub fn set_byte_marked(&mut self, a: u64, v: Option<u8>, inexact: bool) {
        let o = (a % PAGE) as usize;
        let bit = 1u64 << (o % 64);
        match v {
            Some(b) => {
                let p = self.pages.entry(a / PAGE).or_insert_with(Page::new);
                p.data[o] = b;
                p.defined[o / 64] |= bit;
                if inexact {
                    p.inexact[o / 64] |= bit;
                    self.any_inexact = true;
                } else {
                    p.inexact[o / 64] &= !bit;
                }
            }
            None => {
                if let Some(p) = self.pages.get_mut(&(a / PAGE)) {
                    p.defined[o / 64] &= !bit;
                    p.inexact[o / 64] &= !bit;
                }
            }
        }
    }

    /// Whether the byte at `a` is inexact (mem.inexact; an undefined byte never is).
    pub fn is_inexact(&self, a: u64) -> bool {
        if !self.any_inexact {
            return false;
        }
        let Some(p) = self.pages.get(&(a / PAGE)) else {
            return false;
        };
        let o = (a % PAGE) as usize;
        p.inexact[o / 64] >> (o % 64) & 1 == 1
    }

    /// Whether any of the `n` bytes from `a` is inexact.
    pub fn any_inexact(&self, a: u64, n: usize) -> bool {
        self.any_inexact
            && chunks(a, n).any(|(page, o, take, _)| {
                self.pages
                    .get(&page)
                    .is_some_and(|p| (o..o + take).any(|k| bit(&p.inexact, k)))
            })
    }

    /// The inexact flags of the `n` bytes from `a` (an undefined byte: false).
    pub fn inexact(&self, a: u64, n: usize) -> Vec<bool> {
        let mut out = vec![false; n];
        if self.any_inexact {
            for (page, o, take, at) in chunks(a, n) {
                if let Some(p) = self.pages.get(&page) {
                    for k in 0..take {
                        out[at + k] = bit(&p.inexact, o + k);
                    }
                }
            }
        }
        out
    }

    /// Whether any byte may be inexact (false: none is).
    pub fn has_inexact(&self) -> bool {
        self.any_inexact
    }

    /// `n` bytes from `a` (addresses wrap at 2^64).
    pub fn read(&self, a: u64, n: usize) -> Vec<Option<u8>> {
        let mut out = vec![None; n];
        for (page, o, take, at) in chunks(a, n) {
            if let Some(p) = self.pages.get(&page) {
                for k in 0..take {
                    out[at + k] = bit(&p.defined, o + k).then_some(p.data[o + k]);
                }
            }
        }
        out
    }

    /// Store `bytes` from `a` (addresses wrap at 2^64); they are exact.
    pub fn write(&mut self, a: u64, bytes: &[Option<u8>]) {
        self.write_marked(a, bytes, false);
    }

    /// Store `bytes` from `a`, the defined ones inexact when `inexact` (mem.inexact).
    pub fn write_marked(&mut self, a: u64, bytes: &[Option<u8>], inexact: bool) {
        for (page, o, take, at) in chunks(a, bytes.len()) {
            let part = &bytes[at..at + take];
            let p = if part.iter().any(Option::is_some) {
                self.pages.entry(page).or_insert_with(Page::new)
            } else {
                // Only undefined bytes: a page never written stays absent.
                match self.pages.get_mut(&page) {
                    Some(p) => p,
                    None => continue,
                }
            };
            for (k, b) in part.iter().enumerate() {
                let (w, m) = ((o + k) / 64, 1u64 << ((o + k) % 64));
                match b {
                    Some(v) => {
                        p.data[o + k] = *v;
                        p.defined[w] |= m;
                        if inexact {
                            p.inexact[w] |= m;
                        } else {
                            p.inexact[w] &= !m;
                        }
                    }
                    None => {
                        p.defined[w] &= !m;
                        p.inexact[w] &= !m;
                    }
                }
            }
            if inexact && part.iter().any(Option::is_some) {
                self.any_inexact = true;
            }
        }
    }

    /// Store defined `bytes` from `a`.
    pub fn load(&mut self, a: u64, bytes: &[u8]) {
        let defined: Vec<Option<u8>> = bytes.iter().copied().map(Some).collect();
        self.write(a, &defined);
    }
}

/// Bit `k` of a page's per-byte flags.
fn bit(flags: &[u64; (PAGE / 64) as usize], k: usize) -> bool {
    flags[k / 64] >> (k % 64) & 1 == 1
}

/// The pieces of the `n` bytes from `a` (wrapping at 2^64) that lie in one page each:
/// (page number, offset in the page, length, offset in the `n` bytes).
fn chunks(a: u64, n: usize) -> impl Iterator<Item = (u64, usize, usize, usize)> {
    let mut done = 0usize;
    std::iter::from_fn(move || {
        if done >= n {
            return None;
        }
        let at = a.wrapping_add(done as u64);
        let o = (at % PAGE) as usize;
        let take = (n - done).min(PAGE as usize - o);
        let piece = (at / PAGE, o, take, done);
        done += take;
        Some(piece)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unwritten_bytes_are_undefined_and_writes_cross_pages() {
        let mut s = Sparse::new();
        assert_eq!(s.byte(0), None);
        s.load(PAGE - 2, &[1, 2, 3, 4]);
        assert_eq!(
            s.read(PAGE - 3, 6),
            [None, Some(1), Some(2), Some(3), Some(4), None]
        );
        s.set_byte(PAGE, None);
        assert_eq!(s.byte(PAGE), None);
        s.write(u64::MAX, &[Some(9), Some(8)]);
        assert_eq!((s.byte(u64::MAX), s.byte(0)), (Some(9), Some(8)));
    }

    #[test]
    fn inexact_marks_follow_the_last_store() {
        let mut s = Sparse::new();
        assert!(!s.has_inexact());
        s.write_marked(10, &[Some(1), None, Some(3)], true);
        // mem.inexact: an undefined byte is never inexact.
        assert_eq!(s.inexact(9, 5), [false, true, false, true, false]);
        assert!(s.any_inexact(10, 1) && !s.any_inexact(11, 1));
        // An exact store clears the mark; making the byte undefined does too.
        s.write(10, &[Some(7)]);
        s.set_byte(12, None);
        s.set_byte(12, Some(4));
        assert_eq!(s.inexact(10, 3), [false, false, false]);
    }

    /// The page-piece operations agree with byte-by-byte stores and loads, across page
    /// boundaries and the wrap at 2^64.
    #[test]
    fn piecewise_operations_equal_the_byte_operations() {
        let mut piecewise = Sparse::new();
        let mut bytewise = Sparse::new();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for round in 0..300 {
            let base = if round % 3 == 0 {
                u64::MAX - 5000
            } else {
                2 * PAGE
            };
            let a = base.wrapping_add(next() % (3 * PAGE));
            let n = (next() % 200) as usize;
            let bytes: Vec<Option<u8>> = (0..n)
                .map(|_| (next() % 5 != 0).then(|| next() as u8))
                .collect();
            let inexact = next() % 2 == 0;
            piecewise.write_marked(a, &bytes, inexact);
            for (i, b) in bytes.iter().enumerate() {
                bytewise.set_byte_marked(a.wrapping_add(i as u64), *b, inexact);
            }
            let (r, len) = (a.wrapping_sub(next() % 64), n + 128);
            let want: Vec<Option<u8>> = (0..len as u64)
                .map(|i| bytewise.byte(r.wrapping_add(i)))
                .collect();
            assert_eq!(piecewise.read(r, len), want, "round {round}");
            let marks: Vec<bool> = (0..len as u64)
                .map(|i| bytewise.is_inexact(r.wrapping_add(i)))
                .collect();
            assert_eq!(piecewise.inexact(r, len), marks, "round {round}");
            assert_eq!(piecewise.any_inexact(r, len), marks.contains(&true));
        }
    }
}
