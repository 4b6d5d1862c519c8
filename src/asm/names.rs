//! Spellings of opcodes, types, condition modifiers, predicate controls and math functions in
//! the three dialects. The sets of values come from the generated spec enums; only the
//! dialect-specific spellings are listed here.
//!
//! - IGA condition modifiers (`eq ne gt ge lt le ov un`) and math functions (`sqt rsqt idiv
//!   iqot irem rsqtm`): IGA's flag-modifier and math-function spellings (iga FlagModifier,
//!   MathFC). Every spelling is accepted in every dialect.
//! - Mesa condition modifiers (`.z .e .nz .ne .g .ge .l .le .o .u`) and math functions
//!   (`intdiv intmod intdivmod`): mesa brw_lex.l and brw_disasm.c.

use crate::isa::{sfid_from_name, SFID_NAMES};
use crate::spec::{CondMod, DataType, MathFn, Opcode, PredCtrl};
use std::sync::OnceLock;

/// The opcode whose name (case-insensitive) packs (see [`pack`]) to `k`.
#[inline]
pub(crate) fn opcode_key(k: u128) -> Option<Opcode> {
    let t = opcode_table();
    match &t.hash {
        Some(h) => h.get(k),
        None => opcode_search(t, k),
    }
}

/// The opcodes by the packed keys of their names.
struct OpcodeTable {
    /// Sorted by key.
    sorted: Vec<(u128, Opcode)>,
    /// A perfect hash of the keys, when one was found.
    hash: Option<PerfectHash>,
}

fn opcode_table() -> &'static OpcodeTable {
    static TABLE: OnceLock<OpcodeTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        // Names packed into integers (lowercase bytes, first byte highest) and sorted: a
        // binary search over integers instead of strings.
        let mut sorted: Vec<_> = Opcode::ALL
            .iter()
            .filter_map(|o| Some((pack(o.name().as_bytes())?, *o)))
            .collect();
        sorted.sort_by_key(|e| e.0);
        let hash = PerfectHash::find(&sorted);
        OpcodeTable { sorted, hash }
    })
}

/// [`opcode_key`] by binary search.
fn opcode_search(t: &OpcodeTable, k: u128) -> Option<Opcode> {
    let s = &t.sorted;
    s.binary_search_by_key(&k, |e| e.0).ok().map(|i| s[i].1)
}

/// A multiplicative hash of the opcode keys without collisions, searched for once at start-up
/// (deterministically: the same multiplier every run).
struct PerfectHash {
    mul: u64,
    /// Index + 1 into `keys` of the key hashing to each slot (0: none).
    slots: Box<[u8; HASH_SLOTS]>,
    keys: Vec<(u128, Opcode)>,
}

const HASH_SLOTS: usize = 1024;

impl PerfectHash {
    #[inline]
    fn slot(k: u128, mul: u64) -> usize {
        let x = (k as u64) ^ ((k >> 64) as u64);
        (x.wrapping_mul(mul) >> 54) as usize & (HASH_SLOTS - 1)
    }

    fn find(keys: &[(u128, Opcode)]) -> Option<PerfectHash> {
        if keys.len() >= u8::MAX as usize {
            return None;
        }
        let mut mul: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..10_000 {
            let mut slots = Box::new([0u8; HASH_SLOTS]);
            let free = keys.iter().enumerate().all(|(i, &(k, _))| {
                let s = &mut slots[Self::slot(k, mul)];
                let was = *s;
                *s = i as u8 + 1;
                was == 0
            });
            if free {
                let keys = keys.to_vec();
                return Some(PerfectHash { mul, slots, keys });
            }
            mul = mul
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407)
                | 1;
        }
        None
    }

    #[inline]
    fn get(&self, k: u128) -> Option<Opcode> {
        let i = usize::from(self.slots[Self::slot(k, self.mul)]);
        let &(key, op) = self.keys.get(i.checked_sub(1)?)?;
        (key == k).then_some(op)
    }
}

/// `s` lowercased and packed into an integer, first byte highest, zero-padded (None when
/// longer than 16 bytes or holding a zero byte: no name matches then).
pub(crate) fn pack(s: &[u8]) -> Option<u128> {
    if s.len() > 16 {
        return None;
    }
    let mut k = [0u8; 16];
    let mut zero = false;
    for (o, &b) in k.iter_mut().zip(s) {
        zero |= b == 0;
        *o = b.to_ascii_lowercase();
    }
    (!zero).then(|| u128::from_be_bytes(k))
}

/// The data type spelled `name` (case-insensitive: `ud`, `UD`).
#[inline]
pub(crate) fn data_type(name: &[u8]) -> Option<DataType> {
    type_in(type_table(), name)
}

/// The data types by the slot of their names ([`type_in`]).
pub(crate) type TypeTable = [Option<DataType>; TYPE_SLOTS];

/// The table of [`data_type`] (for callers that keep it at hand).
pub(crate) fn type_table() -> &'static TypeTable {
    // Every type name has one or two letters (spec/types): a table indexed by them.
    static TABLE: OnceLock<TypeTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [None; TYPE_SLOTS];
        for d in DataType::ALL {
            if let Some(k) = type_slot(d.name().as_bytes()) {
                t[k] = Some(d);
            }
        }
        t
    })
}

/// [`data_type`] in its table `t`.
#[inline(always)]
pub(crate) fn type_in(t: &TypeTable, name: &[u8]) -> Option<DataType> {
    t[type_slot(name)?]
}

const TYPE_SLOTS: usize = 32 * 32;

/// The slot of a one- or two-letter name in `data_type`'s table (case-insensitive).
#[inline(always)]
fn type_slot(name: &[u8]) -> Option<usize> {
    let l = |b: u8| (b.is_ascii_alphabetic()).then_some(((b | 0x20) - b'a' + 1) as usize);
    match name {
        [a] => Some(l(*a)? * 32),
        [a, b] => Some(l(*a)? * 32 + l(*b)?),
        _ => None,
    }
}

/// Lowercase type name (IGA/PRM `:ud`).
pub(crate) fn type_lower(t: DataType) -> &'static str {
    match t {
        DataType::UB => "ub",
        DataType::B => "b",
        DataType::UW => "uw",
        DataType::W => "w",
        DataType::UD => "ud",
        DataType::D => "d",
        DataType::UQ => "uq",
        DataType::Q => "q",
        DataType::HF => "hf",
        DataType::F => "f",
        DataType::DF => "df",
        DataType::V => "v",
        DataType::UV => "uv",
        DataType::VF => "vf",
    }
}

/// Uppercase type name (Mesa `UD`): the spec's spelling.
pub(crate) fn type_upper(t: DataType) -> &'static str {
    t.name()
}

/// `(value, spec/PRM/Mesa name, IGA name)`.
const CMODS: [(CondMod, &str, &str); 8] = [
    (CondMod::Z, "z", "eq"),
    (CondMod::Nz, "nz", "ne"),
    (CondMod::G, "g", "gt"),
    (CondMod::Ge, "ge", "ge"),
    (CondMod::L, "l", "lt"),
    (CondMod::Le, "le", "le"),
    (CondMod::O, "o", "ov"),
    (CondMod::U, "u", "un"),
];

/// A condition modifier in any dialect's spelling (`z e eq`, `nz ne`, `g gt`, `ge`, `l lt`,
/// `le`, `o ov`, `u un`).
pub(crate) fn cond_mod(name: &[u8]) -> Option<CondMod> {
    if name.eq_ignore_ascii_case(b"e") {
        return Some(CondMod::Z);
    }
    CMODS
        .iter()
        .find(|c| {
            c.1.as_bytes().eq_ignore_ascii_case(name) || c.2.as_bytes().eq_ignore_ascii_case(name)
        })
        .map(|c| c.0)
}

/// The spec/PRM/Mesa spelling (`nz`).
pub(crate) fn cond_mod_short(c: CondMod) -> &'static str {
    CMODS.iter().find(|x| x.0 == c).map_or("", |x| x.1)
}

/// The IGA spelling (`ne`).
pub(crate) fn cond_mod_iga(c: CondMod) -> &'static str {
    CMODS.iter().find(|x| x.0 == c).map_or("", |x| x.2)
}

/// `(value, Mesa name, IGA name)`; the spec's own names (`int_div_both`, ...) are accepted too.
const MATHS: [(MathFn, &str, &str); 14] = [
    (MathFn::Inv, "inv", "inv"),
    (MathFn::Log, "log", "log"),
    (MathFn::Exp, "exp", "exp"),
    (MathFn::Sqrt, "sqrt", "sqt"),
    (MathFn::Rsq, "rsq", "rsqt"),
    (MathFn::Sin, "sin", "sin"),
    (MathFn::Cos, "cos", "cos"),
    (MathFn::Fdiv, "fdiv", "fdiv"),
    (MathFn::Pow, "pow", "pow"),
    (MathFn::IntDivBoth, "intdivmod", "idiv"),
    (MathFn::IntDivQuotient, "intdiv", "iqot"),
    (MathFn::IntDivRemainder, "intmod", "irem"),
    (MathFn::Invm, "invm", "invm"),
    (MathFn::Rsqrtm, "rsqrtm", "rsqtm"),
];

/// A math function in any spelling.
pub(crate) fn math_fn(name: &[u8]) -> Option<MathFn> {
    if let Some(m) = MATHS.iter().find(|m| {
        m.1.as_bytes().eq_ignore_ascii_case(name) || m.2.as_bytes().eq_ignore_ascii_case(name)
    }) {
        return Some(m.0);
    }
    MathFn::ALL
        .iter()
        .copied()
        .filter(|m| *m != MathFn::None)
        .find(|m| m.name().as_bytes().eq_ignore_ascii_case(name))
}

pub(crate) fn math_mesa(m: MathFn) -> &'static str {
    MATHS.iter().find(|x| x.0 == m).map_or("", |x| x.1)
}

pub(crate) fn math_iga(m: MathFn) -> &'static str {
    MATHS.iter().find(|x| x.0 == m).map_or("", |x| x.2)
}

/// A predicate control suffix (`anyv`, ..., `all32h`; also the Align16 replicate channels
/// `x y z w`, returned with the Align1 names of the same field values, and `seq`/`normal`).
/// The bool is true for the Align16-only channel forms.
pub(crate) fn pred_ctrl(name: &[u8]) -> Option<(PredCtrl, bool)> {
    let a16 = match name {
        b"x" => Some(PredCtrl::Anyv),
        b"y" => Some(PredCtrl::Allv),
        b"z" => Some(PredCtrl::Any2h),
        b"w" => Some(PredCtrl::All2h),
        _ => None,
    };
    if let Some(p) = a16 {
        return Some((p, true));
    }
    if name.eq_ignore_ascii_case(b"normal") {
        return Some((PredCtrl::Seq, false));
    }
    PredCtrl::ALL
        .iter()
        .copied()
        .filter(|p| *p != PredCtrl::None)
        .find(|p| p.name().as_bytes().eq_ignore_ascii_case(name))
        .map(|p| (p, false))
}

/// The suffix printed after the flag of a predicate (`""` for sequential).
pub(crate) fn pred_suffix(p: PredCtrl, align16: bool) -> &'static str {
    match p {
        PredCtrl::None | PredCtrl::Seq => "",
        PredCtrl::Anyv if align16 => "x",
        PredCtrl::Allv if align16 => "y",
        PredCtrl::Any2h if align16 => "z",
        PredCtrl::All2h if align16 => "w",
        _ => p.name(),
    }
}

/// The SFID named by a shared function's name as Mesa's message description spells it (words
/// separated by single spaces) or as one token (`dp_data_1`), case-insensitive: the names of
/// [`crate::isa::SFID_NAMES`] packed for a quick lookup; other spellings (`sfidN`) go through
/// [`sfid_from_name`].
pub(crate) fn sfid(name: &[u8]) -> Option<u8> {
    static TABLE: OnceLock<Vec<(u128, u8)>> = OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let mut v = vec![];
        for (n, a, b) in SFID_NAMES {
            for s in [a, b] {
                if let Some(k) = pack(s.as_bytes()) {
                    v.push((k, *n));
                }
            }
        }
        v
    });
    if let Some(k) = pack(name) {
        if let Some(e) = t.iter().find(|e| e.0 == k) {
            return Some(e.1);
        }
    }
    std::str::from_utf8(name).ok().and_then(sfid_from_name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::golden::values::Rng;

    /// The perfect hash answers as the binary search: for every opcode name, in any case, and
    /// for other words.
    #[test]
    fn opcode_hash_is_the_search() {
        let t = opcode_table();
        let h = t.hash.as_ref().expect("a perfect hash of the opcode names");
        let mut keys: Vec<u128> = t.sorted.iter().map(|e| e.0).collect();
        for o in Opcode::ALL {
            keys.push(pack(o.name().to_ascii_uppercase().as_bytes()).unwrap_or(0));
        }
        let mut rng = Rng::for_vector(3, 0, 0);
        for _ in 0..200_000 {
            let n = 1 + rng.below(8);
            let w: Vec<u8> = (0..n)
                .map(|_| b"abcdefghijlmnoprstuvwxyz"[rng.below(24)])
                .collect();
            keys.push(pack(&w).unwrap_or(0));
        }
        let mut found = 0;
        for k in keys {
            let want = opcode_search(t, k);
            assert_eq!(h.get(k), want, "{k:x}");
            found += usize::from(want.is_some());
        }
        assert!(found >= Opcode::ALL.len(), "{found}");
    }
}
