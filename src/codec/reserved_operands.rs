//! Operand values whose fields can hold them but that the encoding reserves (issue 27 class
//! 10), checked on the decoded instruction and before encoding:
//!
//! - a directly addressed GRF operand numbered from the count of `regfile.grf` up (r128-r255
//!   of the 8-bit RegNum field; enc.grf-reg-nr): reserved value of the operand's `reg_nr`;
//! - `ret` with an immediate source (enc.ret-src0-register): malformed `src0_reg_file`;
//! - a W or UW immediate whose upper 16 bits differ from its lower 16 bits
//!   (enc.imm-word-replicated, issue 27 class 9): reserved value of the `imm` field.
//! - a `wait` whose src0 fields differ from the source enc.implicit.wait derives from its
//!   destination (enc.wait-src0-is-dst): the first src0 field that differs, with the rule;
//! - a directly addressed ARF operand whose register type (RegNum[7:4]) spec/registers.toml
//!   does not list for the platform (enc.arf-reg-type): reserved value of its `reg_nr`.
//!
//! Destination stride 0 (enc.dst-hstride) needs no code here: it is missing from the
//! destination's value table, so the field readers and writers refuse it.

use super::error::{DecodeError, DecodeErrorKind, EncodeError};
use super::fields::{Kind, Lay, Tabs, F};
use crate::isa::{Addr, Insn, Reg, Src};
use crate::spec::encoding::values;
use crate::spec::{DataType, Opcode, Platform};

/// The first reserved GRF number on `p`: the register count of `regfile.grf` when
/// enc.grf-reg-nr applies, else 256 (every 8-bit number names a register).
pub(crate) fn grf_limit(p: Platform) -> u16 {
    let t = &values::GRF_REG_NR;
    let applies = t.gens.contains(p) && t.value("reserved_above_count") == Some(1);
    let count = crate::spec::registers::file("grf").and_then(|f| f.count);
    match (applies, count) {
        (true, Some(n)) => u16::try_from(n).unwrap_or(256).min(256),
        _ => 256,
    }
}

/// Whether enc.ret-src0-register applies on `p`.
pub(crate) fn ret_reg_only(p: Platform) -> bool {
    let t = &values::RET_SRC0_REGISTER;
    t.gens.contains(p) && t.value("register_only") == Some(1)
}

/// Whether enc.imm-word-replicated applies on `p`.
pub(crate) fn word_imm_replicated(p: Platform) -> bool {
    let t = &values::IMM_WORD_REPLICATED;
    t.gens.contains(p) && t.value("replicated") == Some(1)
}

/// A W or UW immediate operand of `i` whose two halves differ: its source index and bits.
fn unreplicated_word(i: &Insn) -> Option<(usize, u64)> {
    i.src.iter().enumerate().find_map(|(k, s)| match s {
        Some(Src::Imm(m))
            if matches!(m.ty, DataType::W | DataType::UW) && m.bits >> 16 != m.bits & 0xFFFF =>
        {
            Some((k, m.bits))
        }
        _ => None,
    })
}

/// Whether enc.wait-src0-is-dst applies on `p`.
pub(crate) fn wait_src0_is_dst(p: Platform) -> bool {
    let t = &values::WAIT_SRC0_IS_DST;
    t.gens.contains(p) && t.value("agree") == Some(1)
}

/// The first src0 field of wait word `w` that differs from the encoder's word for its decoded
/// instruction `i` (whose src0 is the one enc.implicit.wait derives from the destination), as
/// an error naming enc.wait-src0-is-dst; None when they agree.
#[cold]
#[inline(never)]
fn wait_src0_mismatch(i: &Insn, w: u128, l: &Lay, t: &Tabs) -> Option<DecodeError> {
    let o = &l.op[1];
    let fields = [
        o.reg_file,
        o.reg_type,
        o.reg_nr,
        o.subreg.map_or(F::NONE, |(f, _)| f),
        o.address_mode,
        o.addr_subreg,
        o.addr_imm.map_or(F::NONE, |(f, _)| f),
        o.vstride,
        o.width,
        o.hstride,
        o.swizzle,
        o.abs,
        o.negate,
    ];
    let rule = values::WAIT_SRC0_IS_DST.id;
    let Ok(c) = super::encode_word(i, t.p) else {
        // No word to compare with: name the source's register file.
        let mut e = at(
            DecodeErrorKind::Malformed,
            o.reg_file,
            "src0_reg_file",
            o.reg_file.get(w),
        );
        e.rule = Some(rule);
        return Some(e);
    };
    fields
        .into_iter()
        .filter(|f| f.bf().is_some())
        .find(|f| f.get(w) != f.get(c))
        .map(|f| {
            let mut e = at(DecodeErrorKind::Malformed, f, "src0", f.get(w));
            e.rule = Some(rule);
            e
        })
}

/// Whether enc.arf-reg-type applies on `p`.
fn arf_types_checked(p: Platform) -> bool {
    let t = &values::ARF_REG_TYPE;
    t.gens.contains(p) && t.value("reserved_unlisted") == Some(1)
}

/// The ARF register types (RegNum[7:4]) reserved on `p`, as bits: those spec/registers.toml
/// does not list for it, when enc.arf-reg-type applies (made once per platform, `Tabs`).
pub(crate) fn reserved_arf_types(p: Platform) -> u16 {
    if !arf_types_checked(p) {
        return 0;
    }
    (0..16u8)
        .filter(|&t| !crate::isa::arf_type_exists(t << 4, p))
        .fold(0, |m, t| m | 1 << t)
}

/// The RegNum of a directly addressed ARF operand whose type is reserved (`reserved`: the
/// bits of [`reserved_arf_types`]).
#[inline]
fn reserved_arf(a: Addr, reserved: u16) -> Option<u8> {
    match a {
        Addr::Direct {
            reg: Reg::Arf(n), ..
        } if reserved >> (n >> 4) & 1 == 1 => Some(n),
        _ => None,
    }
}

/// The GRF number of a directly addressed GRF operand.
fn grf_nr(a: Addr) -> Option<u8> {
    match a {
        Addr::Direct {
            reg: Reg::Grf(n), ..
        } => Some(n),
        _ => None,
    }
}

/// The error for field `f` holding `v` (a missing field is a spec inconsistency).
#[cold]
fn at(kind: DecodeErrorKind, f: F, name: &'static str, v: u64) -> DecodeError {
    match f.bf() {
        Some(b) => DecodeError::at(kind, b, v),
        None => DecodeError::missing(name),
    }
}

/// Check a decoded instruction (operand `k` of the instruction is operand `k` of the
/// layout's fields: dst 0, src0 1, src1 2, src2 3).
#[inline]
pub(super) fn check_decoded(
    i: &Insn,
    w: u128,
    l: &Lay,
    t: &Tabs,
    kind: Kind,
) -> Result<(), DecodeError> {
    // A GRF number from the register count up (enc.grf-reg-nr) or an ARF type the platform
    // lacks (enc.arf-reg-type): the operand's RegNum.
    let reserved = |a: Addr| {
        grf_nr(a)
            .filter(|&n| t.grf_limit < 256 && u16::from(n) >= t.grf_limit)
            .or_else(|| reserved_arf(a, t.reserved_arf_types))
    };
    let dst = i.dst.as_ref().map(|d| (0, d.addr, "dst_reg_nr"));
    let srcs = i.src.iter().enumerate().filter_map(|(k, s)| match s {
        Some(Src::Reg(r)) => Some((k + 1, r.addr, "src_reg_nr")),
        _ => None,
    });
    for (k, a, name) in dst.into_iter().chain(srcs) {
        if let Some(n) = reserved(a) {
            return Err(at(
                DecodeErrorKind::ReservedValue,
                l.op[k].reg_nr,
                name,
                n.into(),
            ));
        }
    }
    if t.ret_reg_only && kind == Kind::Ret && matches!(i.src[0], Some(Src::Imm(_))) {
        let f = l.op[1].reg_file;
        return Err(at(DecodeErrorKind::Malformed, f, "src0_reg_file", f.get(w)));
    }
    if t.word_imm_replicated {
        if let Some((_, bits)) = unreplicated_word(i) {
            return Err(at(DecodeErrorKind::ReservedValue, l.imm, "imm", bits));
        }
    }
    if t.wait_src0_is_dst && kind == Kind::Wait {
        if let Some(e) = wait_src0_mismatch(i, w, l, t) {
            return Err(e);
        }
    }
    Ok(())
}

/// Check an instruction before encoding it.
#[inline]
pub(super) fn check_encodable(i: &Insn, t: &Tabs) -> Result<(), EncodeError> {
    let limit = t.grf_limit;
    if limit < 256 {
        if let Some(n) = i.dst.as_ref().and_then(|d| grf_nr(d.addr)) {
            if u16::from(n) >= limit {
                return Err(reserved_grf("dst", n));
            }
        }
        const NAMES: [&str; 3] = ["src0", "src1", "src2"];
        for (s, name) in i.src.iter().zip(NAMES) {
            if let Some(Src::Reg(r)) = s {
                if let Some(n) = grf_nr(r.addr).filter(|&n| u16::from(n) >= limit) {
                    return Err(reserved_grf(name, n));
                }
            }
        }
    }
    if let Some(n) = i
        .dst
        .as_ref()
        .and_then(|d| reserved_arf(d.addr, t.reserved_arf_types))
    {
        return Err(reserved_arf_error("dst", n));
    }
    for (s, name) in i.src.iter().zip(["src0", "src1", "src2"]) {
        if let Some(Src::Reg(r)) = s {
            if let Some(n) = reserved_arf(r.addr, t.reserved_arf_types) {
                return Err(reserved_arf_error(name, n));
            }
        }
    }
    if t.ret_reg_only && i.op == Opcode::Ret {
        if let Some(Src::Imm(m)) = i.src[0] {
            return Err(EncodeError::new(
                "src0",
                "ret takes its return address from a register, not an immediate (enc.ret-src0-register)",
                m.bits as i64,
            ));
        }
    }
    if t.word_imm_replicated {
        if let Some((k, bits)) = unreplicated_word(i) {
            return Err(EncodeError::new(
                ["src0", "src1", "src2"][k.min(2)],
                "a W/UW immediate must hold the same 16 bits in both halves of the field (enc.imm-word-replicated)",
                bits as i64,
            ));
        }
    }
    Ok(())
}

#[cold]
fn reserved_grf(field: &'static str, n: u8) -> EncodeError {
    EncodeError::new(
        field,
        "names a reserved GRF register number (beyond the registers of regfile.grf, enc.grf-reg-nr)",
        n.into(),
    )
}

#[cold]
fn reserved_arf_error(field: &'static str, n: u8) -> EncodeError {
    EncodeError::new(
        field,
        "names an ARF register type reserved on this platform (enc.arf-reg-type)",
        n.into(),
    )
}
