//! Vetting vector lines (issue 26): a line that reads as a vector is checked only when the
//! checker can judge a simulator by it. Its format version is one this euref reads, its
//! platform is known, every register of `expected` is a register of that platform given
//! whole (two hex digits per byte of its size: spec/registers.toml, `regfile.grf`), every
//! `undefined` mask belongs to an expected register and has its length, and no earlier line
//! of the input has its id. A line that fails is a `bad_vector` (the vector's fault, never
//! the simulator's), and the rest of the input is checked.

use super::regs;
use super::view::VectorView;
use crate::spec::Platform;
use crate::state::ThreadState;
use crate::vector::FORMAT_VERSION;
use std::collections::HashMap;
use std::hash::BuildHasher;

type FastHash = foldhash::fast::RandomState;

/// The oldest format version read (1: `expected` held only the registers that change).
const OLDEST_VERSION: u32 = 1;

/// The register sizes of one platform.
struct Sizes {
    /// GRF registers and bytes per register.
    grf_regs: usize,
    grf_bytes: usize,
    /// The ARF registers a vector may name (`a0`, `acc0`, `f0`, `cr0`, ...: every name has
    /// at most 8 bytes, [`packed`]) and their bytes.
    arf: Vec<((u64, usize), usize)>,
}

/// A register name of at most 8 bytes as one integer (its bytes little-endian, the rest 0)
/// and its length (`None`: longer).
fn packed(name: &[u8]) -> Option<(u64, usize)> {
    if name.len() > 8 {
        return None;
    }
    let mut word = [0u8; 8];
    word[..name.len()].copy_from_slice(name);
    Some((u64::from_le_bytes(word), name.len()))
}

impl Sizes {
    fn of(p: Platform) -> Sizes {
        let st = ThreadState::new(p);
        let mut arf = Vec::new();
        for info in crate::spec::registers::ARFS.iter() {
            if !info.gens.contains(p) || info.name == "null" {
                continue;
            }
            for num in 0..info.count[p as usize] {
                for name in [format!("{}{num}", info.name), info.name.to_string()] {
                    let size = st.arf_index(&name).and_then(|i| st.arf_reg(i));
                    if let (Some((bytes, _)), Some(key)) = (size, packed(name.as_bytes())) {
                        if !arf.iter().any(|(k, _)| *k == key) {
                            arf.push((key, bytes.len()));
                        }
                    }
                }
            }
        }
        Sizes {
            grf_regs: st.grf_size() / st.grf_reg_bytes().max(1),
            grf_bytes: st.grf_reg_bytes(),
            arf,
        }
    }

    /// The bytes of register `name` (`None`: not a register of the platform).
    fn bytes(&self, name: &str) -> Option<usize> {
        if let Some(n) = regs::grf_number(name) {
            return (n < self.grf_regs).then_some(self.grf_bytes);
        }
        let find = |key| self.arf.iter().find(|(k, _)| *k == key).map(|(_, b)| *b);
        match find(packed(name.as_bytes())?) {
            // ARF names are read regardless of case, as `euref sim` reads them.
            None if name.bytes().any(|c| c.is_ascii_uppercase()) => {
                find(packed(name.to_ascii_lowercase().as_bytes())?)
            }
            found => found,
        }
    }
}

/// The ids seen, each with the line it was on: the texts one after the other in one
/// allocation, found by their hash (two ids with one hash: the later one in `spill`).
#[derive(Default)]
struct Ids {
    by_hash: HashMap<u64, u32, FastHash>,
    spill: HashMap<Box<str>, usize, FastHash>,
    all: String,
    /// Where each id ends in `all`, and its line.
    ends: Vec<(usize, usize)>,
    hasher: FastHash,
}

impl Ids {
    /// Note `id` on line `line`: `Err(first line)` when an earlier line had it.
    fn note(&mut self, id: &str, line: usize) -> Result<(), usize> {
        if !self.spill.is_empty() {
            if let Some(&first) = self.spill.get(id) {
                return Err(first);
            }
        }
        let h = self.hasher.hash_one(id);
        match self.by_hash.get(&h) {
            Some(&k) => {
                let k = k as usize;
                let start = if k == 0 { 0 } else { self.ends[k - 1].0 };
                let (end, first) = self.ends[k];
                if &self.all[start..end] == id {
                    return Err(first);
                }
                self.spill.insert(id.into(), line);
            }
            None => {
                let Ok(k) = u32::try_from(self.ends.len()) else {
                    self.spill.insert(id.into(), line);
                    return Ok(());
                };
                self.all.push_str(id);
                self.ends.push((self.all.len(), line));
                self.by_hash.insert(h, k);
            }
        }
        Ok(())
    }
}

/// The vetting of one input's vector lines, in order.
#[derive(Default)]
pub struct Vetter {
    ids: Ids,
    /// Register sizes by platform (made when a platform is first seen).
    sizes: [Option<Sizes>; Platform::ALL.len()],
    /// The last `gen` text and its platform.
    last_gen: Option<(String, Option<Platform>)>,
}

/// A vector's text as a message shows it: quoted, escaped and cut ([`crate::quote`]).
fn q(s: &str) -> String {
    crate::quote::quote_str(s)
}

/// A register name after `expected.` or `undefined.`: as it is when it is a plain name (letters
/// and digits, as every register's), else [`q`].
fn field(reg: &str) -> String {
    if !reg.is_empty() && reg.len() <= 16 && reg.bytes().all(|b| b.is_ascii_alphanumeric()) {
        reg.to_string()
    } else {
        q(reg)
    }
}

impl Vetter {
    /// Vet vector `v` of format `version` read from line `line_no`: `Err(what is wrong)` when
    /// it cannot be checked. Its id counts as seen only when it passes (a later line with the
    /// id of a bad one is no duplicate: the bad one is reported as `line-<number>`).
    pub fn vet(&mut self, v: &VectorView, version: u32, line_no: usize) -> Result<(), String> {
        if !(OLDEST_VERSION..=FORMAT_VERSION).contains(&version) {
            return Err(format!(
                "vector {}: format version {version} (`\"v\":{version}`) is not one this \
                 euref reads ({OLDEST_VERSION} to {FORMAT_VERSION}): check it with the euref \
                 that wrote it, or write the vectors again with this one (`euref golden`)",
                q(&v.id)
            ));
        }
        let p = self.platform(&v.gen).ok_or_else(|| {
            format!(
                "vector {}: `gen` {} is no platform (ivb, hsw, bdw, chv, skl, bxt)",
                q(&v.id),
                q(&v.gen)
            )
        })?;
        let sizes = self.sizes[p as usize].get_or_insert_with(|| Sizes::of(p));
        for (reg, hex) in &v.expected {
            let Some(bytes) = sizes.bytes(reg) else {
                return Err(format!(
                    "vector {}: expected.{}: {} has no register {} \
                     (conformance/PROTOCOL.md, Registers)",
                    q(&v.id),
                    field(reg),
                    p.name(),
                    q(reg)
                ));
            };
            if hex.len() != 2 * bytes {
                return Err(format!(
                    "vector {}: expected.{} has {} hex digits, the register has {bytes} \
                     bytes ({} digits): the vector is cut short or damaged",
                    q(&v.id),
                    field(reg),
                    hex.len(),
                    2 * bytes
                ));
            }
        }
        for (reg, mask) in &v.undefined {
            let Some(hex) = super::view::lookup(&v.expected, reg) else {
                return Err(format!(
                    "vector {}: undefined.{} masks a register that `expected` does not \
                     have",
                    q(&v.id),
                    field(reg)
                ));
            };
            if mask.len() != hex.len() {
                return Err(format!(
                    "vector {}: undefined.{} has {} hex digits, expected.{} has {}: a \
                     mask has the length of its register",
                    q(&v.id),
                    field(reg),
                    mask.len(),
                    field(reg),
                    hex.len()
                ));
            }
        }
        self.ids.note(&v.id, line_no).map_err(|first| {
            format!(
                "vector {} again: line {first} has that id (ids are unique within a file: \
                 the vector of line {first} is checked, this one is not)",
                q(&v.id)
            )
        })
    }

    fn platform(&mut self, gen: &str) -> Option<Platform> {
        match &self.last_gen {
            Some((g, p)) if g == gen => *p,
            _ => {
                let p = Platform::parse(gen);
                self.last_gen = Some((gen.to_string(), p));
                p
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(version: &str, expected: &str, undefined: &str) -> String {
        format!(
            "{{\"v\":{version},\"id\":\"a\",\"gen\":\"skl\",\"op\":\"mov\",\"insn\":\"nop\",\
             \"bytes\":\"\",\"initial\":{{}},\"expected\":{{{expected}}}{undefined},\
             \"rules\":[\"x\"],\"classes\":[]}}"
        )
    }

    fn vet(l: &str) -> Result<(), String> {
        let v = VectorView::parse_spans(l).unwrap();
        Vetter::default().vet(&v.0, v.1.version, 1)
    }

    /// Sizes from the spec rows (spec/registers.toml: `arf.f` 4 bytes, `arf.cr` 16,
    /// `arf.acc` 32 with 2 on ivb/hsw and 10 from bdw; `regfile.grf` 128 registers of 32).
    #[test]
    fn register_sizes_are_the_spec_rows() {
        let skl = Sizes::of(Platform::Skl);
        let hsw = Sizes::of(Platform::Hsw);
        for (name, bytes) in [
            ("r0", Some(32)),
            ("r127", Some(32)),
            ("r128", None),
            ("f0", Some(4)),
            ("f1", Some(4)),
            ("f2", None),
            ("cr0", Some(16)),
            ("acc9", Some(32)),
            ("null", None),
            ("x", None),
            ("CR0", Some(16)),
            ("f0\0", None),
        ] {
            assert_eq!(skl.bytes(name), bytes, "{name}");
        }
        assert_eq!(hsw.bytes("acc1"), Some(32));
        assert_eq!(hsw.bytes("acc2"), None);
    }

    #[test]
    fn versions_sizes_and_masks_are_vetted() {
        let f0 = "\"f0\":\"00000000\"";
        assert_eq!(vet(&line("2", f0, "")), Ok(()));
        assert_eq!(vet(&line("1", f0, "")), Ok(()));
        for (l, want) in [
            (line("99", f0, ""), "format version 99"),
            (line("0", f0, ""), "format version 0"),
            (
                line("2", "\"f0\":\"000000\"", ""),
                "expected.f0 has 6 hex digits",
            ),
            (
                line("2", "\"f0\":\"0000000000\"", ""),
                "the register has 4 bytes",
            ),
            (
                line("2", "\"f9\":\"00000000\"", ""),
                "skl has no register `f9`",
            ),
            (
                line("2", f0, ",\"undefined\":{\"f0\":\"ff\"}"),
                "undefined.f0 has 2 hex digits, expected.f0 has 8",
            ),
            (
                line("2", f0, ",\"undefined\":{\"f1\":\"ffffffff\"}"),
                "undefined.f1 masks a register",
            ),
            (line("2", f0, "").replace("skl", "gen99"), "is no platform"),
        ] {
            let e = vet(&l).unwrap_err();
            assert!(e.contains(want), "{l}: {e}");
        }
    }

    #[test]
    fn a_repeated_id_names_the_first_line() {
        let mut ids = Ids::default();
        let n = 5000;
        for k in 0..n {
            assert_eq!(ids.note(&format!("skl-1-{k}"), k + 1), Ok(()));
        }
        assert_eq!(ids.note("skl-1-17", n + 1), Err(18));
        // Two ids with one hash (forced: "b" looked up finds "a"): told apart by their text,
        // the later one kept in the spill.
        let mut spilled = Ids::default();
        spilled.note("a", 1).unwrap();
        let (ha, hb) = (spilled.hasher.hash_one("a"), spilled.hasher.hash_one("b"));
        let k = spilled.by_hash.remove(&ha).unwrap();
        spilled.by_hash.insert(hb, k);
        assert_eq!(spilled.note("b", 2), Ok(()));
        assert_eq!(spilled.note("b", 3), Err(2));
        assert_eq!(spilled.note("c", 4), Ok(()));
        assert_eq!(spilled.note("c", 5), Err(4));
    }
}
