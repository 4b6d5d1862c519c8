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
    // Names packed into integers (lowercase bytes, first byte highest) and sorted: a
    // binary search over integers instead of strings.
    static TABLE: OnceLock<Vec<(u128, Opcode)>> = OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let mut v: Vec<_> = Opcode::ALL
            .iter()
            .filter_map(|o| Some((pack(o.name().as_bytes())?, *o)))
            .collect();
        v.sort_by_key(|e| e.0);
        v
    });
    t.binary_search_by_key(&k, |e| e.0).ok().map(|i| t[i].1)
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
    // Every type name has one or two letters (spec/types): a table indexed by them.
    static TABLE: OnceLock<[Option<DataType>; TYPE_SLOTS]> = OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let mut t = [None; TYPE_SLOTS];
        for d in DataType::ALL {
            if let Some(k) = type_slot(d.name().as_bytes()) {
                t[k] = Some(d);
            }
        }
        t
    });
    t[type_slot(name)?]
}

const TYPE_SLOTS: usize = 32 * 32;

/// The slot of a one- or two-letter name in `data_type`'s table (case-insensitive).
#[inline]
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
