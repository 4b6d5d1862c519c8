//! Where each architecture register of a platform lives in the flat ARF storage, derived from
//! the `[[arf]]` and `[[field]]` rows of spec/registers.toml.

use crate::spec::registers::{self, ArfInfo, FieldAccess};
use crate::spec::{feature, Platform};

/// One architecture register of a platform (`a0`, `acc1`, `f0`, `cr0`, `ip`, ...).
#[derive(Debug, Clone)]
pub struct ArfReg {
    /// The `[[arf]]` row of its register type.
    pub info: &'static ArfInfo,
    /// Register number (RegNum[3:0]).
    pub num: u8,
    /// Name as written in assembly and in the state JSON: the type name followed by the number
    /// (`a0`, `acc1`, `f1`, `sr0`, `tdr0`), except the unnumbered `null` and `ip`.
    pub name: String,
    /// The `reg` key of its `[[field]]` rows (`None`: the register has no field rows, e.g. the
    /// accumulators and null).
    pub field_reg: Option<&'static str>,
    /// Byte offset of the register in the flat ARF storage.
    pub base: usize,
    /// Size in bytes (the row's `bytes`).
    pub bytes: usize,
}

/// The ARF registers of one platform and the per-dword masks derived from their fields.
#[derive(Debug, Clone)]
pub struct ArfLayout {
    pub regs: Vec<ArfReg>,
    /// `(regtype, num)` -> index into `regs`.
    index: [[Option<u8>; 16]; 16],
    /// Per dword of the flat storage: bits that always read as undefined (fields with access
    /// `reserved`; the whole null register; the bits of acc2-acc9 above the two kept ones).
    pub read_undef: Vec<u32>,
    /// Total bytes (a multiple of 4).
    pub total: usize,
    /// Register lookups by the `reg` string of the field constants the engine uses on every
    /// instruction (cr0.0, sr0.2/3, ip): (string address, length, register index).
    memo: Vec<(usize, usize, usize)>,
    /// The same fields by the address of their (static) constant: (address, byte offset of
    /// the dword holding the field), as `ThreadState::field_dword` locates it.
    hot_fields: Vec<(usize, usize)>,
    /// Register names for [`Self::by_name`]: each name of at most 8 bytes, ASCII lower-cased
    /// and packed little-endian, with its length and register index.
    packed_names: Vec<(u64, usize, usize)>,
    /// Byte offsets of the flag registers f0, f1, ... by number (`None`: the platform lacks
    /// the register).
    flag_bases: [Option<usize>; 16],
    /// Byte offsets of the dwords holding cr0.0, sr0.2 (DMask), sr0.3 (VMask) and the IP, as
    /// `ThreadState::field_dword` locates their hot fields (`None`: the platform lacks it).
    pub(crate) control: [Option<usize>; 4],
    /// Per dword of the flat storage: the index into `regs` of the register holding it (the
    /// registers tile the storage in dwords).
    dword_reg: Vec<u16>,
    /// The byte offsets of `acc0` and `acc1` (the implicit accumulator registers every
    /// accumulator write locates by name), as [`Self::by_name`] finds them.
    acc_bases: [Option<usize>; 2],
}

/// `name` ASCII lower-cased and packed little-endian into a u64 (`None`: longer than 8 bytes).
#[inline]
fn pack_name(name: &str) -> Option<u64> {
    let b = name.as_bytes();
    if b.len() > 8 {
        return None;
    }
    let mut v = 0u64;
    for (i, c) in b.iter().enumerate() {
        v |= u64::from(c.to_ascii_lowercase()) << (8 * i);
    }
    Some(v)
}

/// `(regtype, num)` -> register index.
fn layout_find(index: &[[Option<u8>; 16]; 16], regtype: u8, num: u8) -> Option<usize> {
    index
        .get(regtype as usize)?
        .get(num as usize)
        .copied()
        .flatten()
        .map(usize::from)
}

/// The register name used for the field table and JSON: `a` + `0` = `a0`, but `ip`.
fn reg_names(info: &ArfInfo, num: u8) -> (String, Option<&'static str>) {
    let numbered = format!("{}{}", info.name, num);
    for cand in [numbered.as_str(), info.name] {
        if let Some(f) = registers::FIELDS.iter().find(|f| f.reg == cand) {
            return (cand.to_string(), Some(f.reg));
        }
    }
    // No field rows: null has no number in assembly; others keep theirs.
    let name = if info.regtype == 0 {
        info.name.to_string()
    } else {
        numbered
    };
    (name, None)
}

impl ArfLayout {
    /// The layout of `p`: every `[[arf]]` row present on `p`, `count[p]` registers each.
    pub fn new(p: Platform) -> ArfLayout {
        let mut regs = Vec::new();
        let mut index = [[None; 16]; 16];
        let mut base = 0usize;
        for info in registers::ARFS.iter().filter(|a| a.gens.contains(p)) {
            let count = info.count[p as usize].min(16);
            for num in 0..count as u8 {
                let (name, field_reg) = reg_names(info, num);
                let bytes = info.bytes as usize;
                let slot = regs.len();
                if let Some(row) = index.get_mut(info.regtype as usize & 15) {
                    row[num as usize] = u8::try_from(slot).ok();
                }
                regs.push(ArfReg {
                    info,
                    num,
                    name,
                    field_reg,
                    base,
                    bytes,
                });
                base += bytes.div_ceil(4) * 4;
            }
        }
        let mut read_undef = vec![0u32; base / 4];
        let mut dword_reg = vec![u16::MAX; base / 4];
        for (i, r) in regs.iter().enumerate() {
            let dwords = r.bytes.div_ceil(4);
            for d in 0..dwords {
                let slot = r.base / 4 + d;
                dword_reg[slot] = u16::try_from(i).unwrap_or(u16::MAX);
                let mut m = 0u32;
                if r.info.regtype == 0 {
                    // arf.null: reads return undefined values.
                    m = u32::MAX;
                }
                if let Some(reg) = r.field_reg {
                    for f in registers::fields_of(p, reg, d as u32) {
                        if f.access == FieldAccess::Reserved {
                            m |= f.mask();
                        }
                    }
                }
                if r.info.name == "acc" && r.num >= 2 && feature::ACC2_ACC9.on(p) {
                    // feature.acc2-acc9: only the low 2 bits of each DWord are valid data.
                    m |= !0x3;
                }
                read_undef[slot] = m;
            }
        }
        let mut layout = ArfLayout {
            regs,
            index,
            read_undef,
            total: base,
            memo: Vec::new(),
            hot_fields: Vec::new(),
            packed_names: Vec::new(),
            flag_bases: [None; 16],
            control: [None; 4],
            dword_reg,
            acc_bases: [None; 2],
        };
        layout.packed_names = layout
            .regs
            .iter()
            .enumerate()
            .filter_map(|(i, r)| Some((pack_name(&r.name)?, r.name.len(), i)))
            .collect();
        let flag_type = registers::ARFS
            .iter()
            .find(|a| a.name == "f" && a.gens.contains(p))
            .map(|a| a.regtype);
        for (n, slot) in layout.flag_bases.iter_mut().enumerate() {
            *slot = flag_type
                .and_then(|t| layout_find(&layout.index, t, n as u8))
                .map(|i| layout.regs[i].base);
        }
        use registers::field as f;
        for hot in [
            &f::CR0_0_FP_MODE,
            &f::CR0_0_ACC_DISABLE,
            &f::CR0_0_VECTOR_MASK_ENABLE,
            &f::SR0_2_DMASK,
            &f::SR0_3_VMASK,
            &f::IP_0_IP,
        ] {
            if let Some(i) = layout.scan_field_reg(hot.reg) {
                layout
                    .memo
                    .push((hot.reg.as_ptr() as usize, hot.reg.len(), i));
                if let Some(b) = layout.field_dword_offset(i, hot) {
                    layout.hot_fields.push((hot as *const _ as usize, b));
                }
            }
        }
        layout.control = [
            &f::CR0_0_VECTOR_MASK_ENABLE,
            &f::SR0_2_DMASK,
            &f::SR0_3_VMASK,
            &f::IP_0_IP,
        ]
        .map(|hot| layout.hot_field_offset(hot));
        layout.acc_bases = ["acc0", "acc1"].map(|n| layout.by_name(n).map(|i| layout.regs[i].base));
        layout
    }

    /// The byte offset of the register written `name` (as [`Self::by_name`] finds it).
    #[inline]
    pub fn base_of(&self, name: &str) -> Option<usize> {
        match name {
            "acc0" => self.acc_bases[0],
            "acc1" => self.acc_bases[1],
            _ => self.by_name(name).map(|i| self.regs[i].base),
        }
    }

    /// The byte offset of the dword holding field `f` in register `i`, if the register has
    /// that dword.
    pub(crate) fn field_dword_offset(&self, i: usize, f: &registers::FieldInfo) -> Option<usize> {
        let r = self.regs.get(i)?;
        let b = r.base + 4 * f.dword as usize;
        (b + 4 <= r.base + r.bytes.div_ceil(4) * 4).then_some(b)
    }

    /// The byte offset of the dword holding `f`, when `f` is one of the field constants the
    /// engine reads on every instruction (looked up by address).
    #[inline]
    pub(crate) fn hot_field_offset(&self, f: &registers::FieldInfo) -> Option<usize> {
        let key = f as *const registers::FieldInfo as usize;
        self.hot_fields.iter().find(|h| h.0 == key).map(|h| h.1)
    }

    /// The register holding flat ARF byte `o`.
    #[inline]
    pub(crate) fn reg_of_flat(&self, o: usize) -> Option<usize> {
        match self.dword_reg.get(o / 4) {
            Some(&i) if i != u16::MAX => Some(usize::from(i)),
            _ => None,
        }
    }

    /// The byte offset of flag register `f<n>`.
    #[inline]
    pub(crate) fn flag_base(&self, n: usize) -> Option<usize> {
        self.flag_bases.get(n).copied().flatten()
    }

    /// The register with RegNum type `regtype` and number `num`, if the platform has it.
    pub fn find(&self, regtype: u8, num: u8) -> Option<usize> {
        layout_find(&self.index, regtype, num)
    }

    /// The register whose field rows use `reg` (`"cr0"`, `"sr0"`, `"ip"`, ...). The names come
    /// from the generated field table, so a pointer comparison usually decides.
    #[inline]
    pub fn field_reg_index(&self, reg: &str) -> Option<usize> {
        let key = (reg.as_ptr() as usize, reg.len());
        if let Some(m) = self.memo.iter().find(|m| (m.0, m.1) == key) {
            return Some(m.2);
        }
        self.scan_field_reg(reg)
    }

    fn scan_field_reg(&self, reg: &str) -> Option<usize> {
        // A byte loop the compiler keeps inline (the names have 2-4 bytes).
        let same = |r: &ArfReg| {
            r.field_reg.is_some_and(|x| {
                x.len() == reg.len() && x.bytes().zip(reg.bytes()).all(|(a, b)| a == b)
            })
        };
        self.regs.iter().position(same)
    }

    /// The register written `name` (`a0`, `acc1`, `cr0`, `ip`, `null`, ...), case-insensitive.
    #[inline]
    pub fn by_name(&self, name: &str) -> Option<usize> {
        match pack_name(name) {
            // Every register name has at most 8 bytes: a packed comparison decides.
            Some(key) => self
                .packed_names
                .iter()
                .find(|e| e.0 == key && e.1 == name.len())
                .map(|e| e.2),
            None => self
                .regs
                .iter()
                .position(|r| r.name.eq_ignore_ascii_case(name)),
        }
    }

    /// The register of the 8-bit RegNum (type in bits 7:4, number in bits 3:0).
    pub fn by_regnum(&self, regnum: u8) -> Option<usize> {
        self.find(regnum >> 4, regnum & 15)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_of_is_the_base_of_by_name() {
        for p in Platform::ALL {
            let l = ArfLayout::new(p);
            for r in &l.regs {
                assert_eq!(l.base_of(&r.name), Some(r.base), "{p:?} {}", r.name);
            }
            for name in ["acc0", "acc1", "acc2", "ACC0", "nope"] {
                let want = l.by_name(name).map(|i| l.regs[i].base);
                assert_eq!(l.base_of(name), want, "{p:?} {name}");
            }
        }
    }

    #[test]
    fn register_of_a_byte_is_the_scan_of_the_ranges() {
        for p in Platform::ALL {
            let l = ArfLayout::new(p);
            let scan = |o: usize| {
                l.regs
                    .iter()
                    .position(|r| o >= r.base && o < r.base + r.bytes.div_ceil(4) * 4)
            };
            let mut found = 0;
            for o in 0..l.total + 64 {
                assert_eq!(l.reg_of_flat(o), scan(o), "{p:?} byte {o}");
                found += usize::from(scan(o).is_some());
            }
            assert_eq!(found, l.total, "{p:?}: the registers tile the storage");
        }
    }
}
