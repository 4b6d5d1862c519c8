//! Architecture registers: the RegNum byte (type in bits 7:4, number in bits 3:0) and the
//! assembler names of each type.
//!
//! The register types and their IGA names are the spec/registers.toml `[[arf]]` rows; the
//! types IGA writes without a number (enc.iga-text.arf-numberless), IGA's `mme` names of
//! acc2-acc9 (enc.iga-text.arf-mme) and Mesa's differing names (enc.mesa-text.arf-names) are
//! value tables of spec/encoding/values.toml.

use std::sync::OnceLock;

use crate::spec::encoding::values::{
    IGA_ARF_BYTE_SUBREG, IGA_ARF_MME, IGA_ARF_NUMBERLESS, MESA_ARF_NAMES,
};
use crate::spec::{registers, ArfKind, Platform};

/// How an ARF register type is written in assembly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArfName {
    /// RegNum bits 7:4.
    pub regtype: u8,
    /// The name as IGA writes it (`acc`, `f`, `ce`, ...).
    pub iga: &'static str,
    /// The name as Mesa writes it (`acc`, `f`, `mask`, ...).
    pub mesa: &'static str,
    /// Whether IGA writes the register number as part of the name (`acc1`, `f1`; `null`,
    /// `ce`, `sp` and `ip` have none unless it is nonzero).
    pub numbered: bool,
    /// Whether Mesa writes the register number (`null` and `ip` have none).
    pub mesa_numbered: bool,
}

/// The ARF register types with assembler names (every `[[arf]]` row of spec/registers.toml).
pub fn arf_names() -> &'static [ArfName] {
    static NAMES: OnceLock<Vec<ArfName>> = OnceLock::new();
    NAMES.get_or_init(|| {
        registers::ARFS
            .iter()
            .map(|row| {
                let t = u64::from(row.regtype);
                let mesa = MESA_ARF_NAMES.name_of(t).unwrap_or(row.name);
                ArfName {
                    regtype: row.regtype,
                    iga: row.name,
                    mesa,
                    numbered: IGA_ARF_NUMBERLESS.name_of(t).is_none(),
                    // Mesa's disassembler writes null and ip bare (brw_disasm.c).
                    mesa_numbered: !matches!(mesa, "null" | "ip"),
                }
            })
            .collect()
    })
}

/// Whether IGA syntax writes the subregister of ARF RegNum `regnum` in bytes rather than
/// elements (enc.iga-text.arf-byte-subreg: ce, msg).
pub fn iga_byte_subreg(regnum: u8) -> bool {
    IGA_ARF_BYTE_SUBREG
        .name_of(u64::from(regnum >> 4))
        .is_some()
}

/// The assembler name entry of ARF RegNum `regnum` (by its type nibble).
pub fn arf_name(regnum: u8) -> Option<&'static ArfName> {
    arf_names().iter().find(|a| a.regtype == regnum >> 4)
}

/// The ARF type written `name` (IGA or Mesa spelling, case-insensitive).
pub fn arf_lookup(name: &[u8]) -> Option<&'static ArfName> {
    arf_names().iter().find(|a| {
        a.iga.as_bytes().eq_ignore_ascii_case(name) || a.mesa.as_bytes().eq_ignore_ascii_case(name)
    })
}

/// RegNum of IGA's `mme0` and the number of `mme` names (enc.iga-text.arf-mme): 0x22 and 8.
fn mme_range() -> (u8, u8) {
    let first = IGA_ARF_MME.value("first").unwrap_or(0x22);
    let count = IGA_ARF_MME.value("count").unwrap_or(0);
    (
        u8::try_from(first).unwrap_or(0x22),
        u8::try_from(count).unwrap_or(0),
    )
}

/// IGA's `mme` number of RegNum `regnum` (`Some(0)` for 0x22, acc2), if it has one.
pub fn mme_number(regnum: u8) -> Option<u8> {
    let (first, count) = mme_range();
    regnum.checked_sub(first).filter(|k| *k < count)
}

/// The RegNum of the ARF register written `name` followed by number `nr` (`("acc", 1)` ->
/// 0x21, `("mme", 0)` -> 0x22, `("null", 5)` -> 0x05); both IGA and Mesa names are accepted
/// (case-insensitive). `None` when the name is no ARF type or the number does not fit.
pub fn arf_regnum(name: &[u8], nr: u8) -> Option<u8> {
    if name.eq_ignore_ascii_case(b"mme") {
        let (first, count) = mme_range();
        return (nr < count).then(|| first + nr);
    }
    let a = arf_lookup(name)?;
    (nr <= 15).then_some(a.regtype << 4 | nr)
}

/// Whether the ARF register type of RegNum `regnum` exists on `p` (enc.arf-reg-type: a type
/// spec/registers.toml lists for the platform).
pub fn arf_type_exists(regnum: u8, p: Platform) -> bool {
    registers::arf_by_regtype(p, regnum >> 4).is_some()
}

/// The IGA-syntax name of ARF RegNum `regnum` without subregister (`acc1`, `mme0`, `null`,
/// `null5`, `sp`, `ce`); None for a type with no name (1110b, 1111b).
pub fn arf_iga_name(regnum: u8) -> Option<(&'static str, Option<u8>)> {
    if let Some(k) = mme_number(regnum) {
        return Some(("mme", Some(k)));
    }
    let a = arf_name(regnum)?;
    let nr = regnum & 0xF;
    Some((a.iga, (a.numbered || nr != 0).then_some(nr)))
}

/// The Mesa-syntax name of ARF RegNum `regnum` (`acc2`, `mask0`, `ms3`, `null`); None when
/// Mesa has no text for it (a numberless type with a nonzero number, an unnamed type).
pub fn arf_mesa_name(regnum: u8) -> Option<(&'static str, Option<u8>)> {
    let a = arf_name(regnum)?;
    let nr = regnum & 0xF;
    match (a.mesa_numbered, nr) {
        (true, _) => Some((a.mesa, Some(nr))),
        (false, 0) => Some((a.mesa, None)),
        (false, _) => None,
    }
}

/// The spec's ARF kind of RegNum `regnum` (`ArfKind::None` for types spec/registers.toml does
/// not list).
pub fn arf_kind(regnum: u8) -> ArfKind {
    let Some(row) = registers::ARFS.iter().find(|a| a.regtype == regnum >> 4) else {
        return ArfKind::None;
    };
    match row.name {
        "null" => ArfKind::Null,
        "a" => ArfKind::Address,
        "acc" => ArfKind::Acc,
        "f" => ArfKind::Flag,
        "sr" => ArfKind::State,
        "cr" => ArfKind::Control,
        "n" => ArfKind::Notification,
        "ip" => ArfKind::Ip,
        "tdr" => ArfKind::Tdr,
        "tm" => ArfKind::Tm,
        "ce" => ArfKind::ChannelEnable,
        "msg" => ArfKind::MessageControl,
        "sp" => ArfKind::StackPointer,
        "fc" => ArfKind::FlowControl,
        _ => ArfKind::None,
    }
}
