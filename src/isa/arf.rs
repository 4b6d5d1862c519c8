//! Architecture registers: the RegNum byte (type in bits 7:4, number in bits 3:0) and the
//! assembler names of each type.
//!
//! The register types the spec lists (spec/registers.toml `[[arf]]`: null, a, acc, f, sr, cr,
//! n, ip, tdr, tm) come from the generated table. The text names that the assemblers use and
//! the spec does not list are public facts: `ce0` (IGA) / `mask0` (Mesa) for the channel-enable
//! register, RegNum type 4 (mesa brw_eu_defines.h `BRW_ARF_MASK` = 0x40; iga
//! IGALibrary/Models/Models.cpp register table "ce").

use crate::spec::{registers, ArfKind};

/// How an ARF register type is written in assembly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArfName {
    /// RegNum bits 7:4.
    pub regtype: u8,
    /// The name as IGA writes it (`acc`, `f`, `ce`, ...).
    pub iga: &'static str,
    /// The name as Mesa writes it (`acc`, `f`, `mask`, ...).
    pub mesa: &'static str,
    /// Whether the register number is part of the name (`acc1`, `f1`; `null` and `ip` have
    /// none).
    pub numbered: bool,
}

/// The ARF register types with assembler names.
pub const ARF_NAMES: &[ArfName] = &[
    ArfName::new(0x0, "null", "null", false),
    ArfName::new(0x1, "a", "a", true),
    ArfName::new(0x2, "acc", "acc", true),
    ArfName::new(0x3, "f", "f", true),
    ArfName::new(0x4, "ce", "mask", true),
    ArfName::new(0x7, "sr", "sr", true),
    ArfName::new(0x8, "cr", "cr", true),
    ArfName::new(0x9, "n", "n", true),
    ArfName::new(0xA, "ip", "ip", false),
    ArfName::new(0xB, "tdr", "tdr", true),
    ArfName::new(0xC, "tm", "tm", true),
];

impl ArfName {
    const fn new(regtype: u8, iga: &'static str, mesa: &'static str, numbered: bool) -> ArfName {
        ArfName {
            regtype,
            iga,
            mesa,
            numbered,
        }
    }
}

/// The assembler name entry of ARF RegNum `regnum` (by its type nibble).
pub fn arf_name(regnum: u8) -> Option<&'static ArfName> {
    ARF_NAMES.iter().find(|a| a.regtype == regnum >> 4)
}

/// The ARF type written `name` (IGA or Mesa spelling, case-insensitive).
pub fn arf_lookup(name: &[u8]) -> Option<&'static ArfName> {
    ARF_NAMES.iter().find(|a| {
        a.iga.as_bytes().eq_ignore_ascii_case(name) || a.mesa.as_bytes().eq_ignore_ascii_case(name)
    })
}

/// The RegNum of the ARF register written `name` followed by number `nr` (`("acc", 1)` ->
/// 0x21); both IGA and Mesa names are accepted (case-insensitive). `None` when the name is no
/// ARF type or the number does not fit.
pub fn arf_regnum(name: &[u8], nr: u8) -> Option<u8> {
    let a = arf_lookup(name)?;
    if nr > 15 || (!a.numbered && nr != 0) {
        return None;
    }
    Some(a.regtype << 4 | nr)
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
