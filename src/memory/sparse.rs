//! A sparse byte store with an undefined flag per byte (spec/memory.toml mem.flat,
//! mem.undefined-bytes): pages of 4 KiB created on first write; a byte never written is
//! undefined.

use std::collections::HashMap;

const PAGE: u64 = 4096;

#[derive(Debug, Clone)]
struct Page {
    data: Box<[u8; PAGE as usize]>,
    /// One bit per byte: set when the byte is defined.
    defined: Box<[u64; (PAGE / 64) as usize]>,
}

impl Page {
    fn new() -> Page {
        Page {
            data: Box::new([0; PAGE as usize]),
            defined: Box::new([0; (PAGE / 64) as usize]),
        }
    }
}

/// Bytes addressed by a 64-bit address; `None` is an undefined byte.
#[derive(Debug, Clone, Default)]
pub struct Sparse {
    pages: HashMap<u64, Page>,
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

    /// Set the byte at `a` (`None`: make it undefined).
    pub fn set_byte(&mut self, a: u64, v: Option<u8>) {
        let o = (a % PAGE) as usize;
        match v {
            Some(b) => {
                let p = self.pages.entry(a / PAGE).or_insert_with(Page::new);
                p.data[o] = b;
                p.defined[o / 64] |= 1 << (o % 64);
            }
            None => {
                if let Some(p) = self.pages.get_mut(&(a / PAGE)) {
                    p.defined[o / 64] &= !(1 << (o % 64));
                }
            }
        }
    }

    /// `n` bytes from `a` (addresses wrap at 2^64).
    pub fn read(&self, a: u64, n: usize) -> Vec<Option<u8>> {
        (0..n as u64)
            .map(|i| self.byte(a.wrapping_add(i)))
            .collect()
    }

    /// Store `bytes` from `a` (addresses wrap at 2^64).
    pub fn write(&mut self, a: u64, bytes: &[Option<u8>]) {
        for (i, b) in bytes.iter().enumerate() {
            self.set_byte(a.wrapping_add(i as u64), *b);
        }
    }

    /// Store defined `bytes` from `a`.
    pub fn load(&mut self, a: u64, bytes: &[u8]) {
        for (i, b) in bytes.iter().enumerate() {
            self.set_byte(a.wrapping_add(i as u64), Some(*b));
        }
    }
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
}
