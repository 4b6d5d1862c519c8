//! Validator glue: properties looked up from other spec tables (spec/opcodes.toml,
//! spec/types.toml, spec/registers.toml) and the derived properties of
//! spec/properties.toml. Rules read these properties; the facts stay in the tables.

use crate::spec::{registers, ArfKind, DataType, OpClass, OpcodeClass, Platform, PropsRecord};

/// The class of spec/opcodes.toml as the rule-vocabulary enumeration.
fn class_of(c: OpClass) -> OpcodeClass {
    match c {
        OpClass::Alu => OpcodeClass::Alu,
        OpClass::Logic => OpcodeClass::Logic,
        OpClass::Math => OpcodeClass::Math,
        OpClass::Flow => OpcodeClass::Flow,
        OpClass::Send => OpcodeClass::Send,
        OpClass::ThreeSrc => OpcodeClass::ThreeSrc,
        OpClass::Misc => OpcodeClass::Misc,
    }
}

/// The spec/registers.toml `[[arf]]` name of an ARF kind.
fn arf_name(k: ArfKind) -> Option<&'static str> {
    Some(match k {
        ArfKind::None => return None,
        ArfKind::Null => "null",
        ArfKind::Address => "a",
        ArfKind::Acc => "acc",
        ArfKind::Flag => "f",
        ArfKind::State => "sr",
        ArfKind::Control => "cr",
        ArfKind::Notification => "n",
        ArfKind::Ip => "ip",
        ArfKind::Tdr => "tdr",
        ArfKind::Tm => "tm",
        ArfKind::ChannelEnable => "ce",
        ArfKind::MessageControl => "msg",
        ArfKind::StackPointer => "sp",
        ArfKind::FlowControl => "fc",
    })
}

/// Whether the destination and present source types of `p` form one of the
/// opcode's type combinations on `platform` (every type must exist there too).
fn types_allowed(platform: Platform, p: &PropsRecord) -> bool {
    let info = p.opcode.info();
    if info.types.is_empty() {
        return true;
    }
    let nsrc = usize::from(info.srcs).min(3);
    let srcs = (0..nsrc).filter(|&k| p.src_present[k]);
    let exists = |t: DataType| t.on(platform);
    if !exists(p.dst_type) || !srcs.clone().all(|k| exists(p.src_type[k])) {
        return false;
    }
    info.types.iter().any(|c| {
        c.gens.contains(platform)
            && c.dst.contains(p.dst_type)
            && srcs.clone().all(|k| c.srcs[k].contains(p.src_type[k]))
    })
}

/// Fill the properties that are looked up from spec/opcodes.toml, spec/types.toml
/// and spec/registers.toml for `platform`: `opcode_on_platform`, `opcode_class`,
/// `types_allowed`, `sat_allowed`, `cmod_allowed`, `pred_allowed`,
/// `srcmod_allowed`, `accwr_allowed`, `dst.arf_read_only`.
pub fn fill_table_props(platform: Platform, p: &mut PropsRecord) {
    let info = p.opcode.info();
    p.opcode_on_platform = info.gens.contains(platform);
    p.opcode_class = class_of(info.class);
    p.types_allowed = types_allowed(platform, p);
    p.sat_allowed = info.sat;
    p.cmod_allowed = info.cmod;
    p.pred_allowed = info.pred;
    p.srcmod_allowed = info.srcmod;
    p.accwr_allowed = info.accwr;
    p.dst_arf_read_only = arf_name(p.dst_arf)
        .and_then(|n| registers::arf_by_name(platform, n))
        .is_some_and(|a| a.access == registers::Access::Ro);
}

/// The execution type a source type contributes: bytes execute as words, the
/// packed vectors as their element type (spec/properties.toml `exec_type`).
fn exec_type_of(t: DataType) -> DataType {
    match t {
        DataType::B | DataType::V => DataType::W,
        DataType::UB | DataType::UV => DataType::UW,
        DataType::VF => DataType::F,
        t => t,
    }
}

/// Number of GRF registers, counted from the operand's first register, that a
/// region touches whose last byte is `last` bytes past that register's start.
fn regs_touched(last: i64) -> i64 {
    grf_of(last, grf_bytes()) + 1
}

/// `x.div_euclid(grf)`: the register holding byte offset `x` for registers of `grf` bytes
/// (a shift when `grf` is a power of two, as the GRF's 32 bytes are).
#[inline]
pub(super) fn grf_of(x: i64, grf: i64) -> i64 {
    if grf > 0 && grf & (grf - 1) == 0 {
        x >> grf.trailing_zeros()
    } else {
        x.div_euclid(grf)
    }
}

/// GRF register size in bytes (spec/registers.toml `regfile.grf`), looked up once.
pub(super) fn grf_bytes() -> i64 {
    static GRF: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    *GRF.get_or_init(|| {
        crate::spec::registers::file("grf")
            .and_then(|f| f.reg_bytes)
            .map(i64::from)
            .unwrap_or(32)
    })
}

/// Fill the derived properties defined in spec/properties.toml over the other
/// properties: `exec_type`, `mixed_float`, `int_dword_mul`, `int_hf_conversion`,
/// `compressed`, and `span_regs` of directly addressed GRF operands (from their regions).
pub fn fill_derived_props(p: &mut PropsRecord) {
    // Present sources, in order (no allocation: this runs for every validated instruction).
    let mut present = [0usize; 3];
    let mut n = 0;
    for k in 0..3 {
        if p.src_present[k] {
            present[n] = k;
            n += 1;
        }
    }
    let present = &present[..n];
    let mut types = [DataType::default(); 3];
    for (t, &k) in types.iter_mut().zip(present) {
        *t = p.src_type[k];
    }
    let types = &types[..n];
    if let Some(&first) = types.first() {
        p.exec_type = types
            .iter()
            .map(|&t| exec_type_of(t))
            .fold(exec_type_of(first), |a, t| {
                if t.bytes() > a.bytes() {
                    t
                } else {
                    a
                }
            });
    }
    let all = || std::iter::once(p.dst_type).chain(types.iter().copied());
    p.mixed_float = all().any(|t| t == DataType::HF) && all().any(|t| t == DataType::F);
    let dword = |t: DataType| matches!(t, DataType::D | DataType::UD);
    p.int_dword_mul = p.opcode == crate::spec::Opcode::Mul
        && p.src_present[0]
        && p.src_present[1]
        && dword(p.src_type[0])
        && dword(p.src_type[1]);
    p.int_hf_conversion = (p.dst_type == DataType::HF && types.iter().any(|t| t.is_int()))
        || (p.dst_type.is_int() && types.contains(&DataType::HF));

    let exec = p.exec_size.max(1);
    let widest = all().map(|t| i64::from(t.bytes())).max().unwrap_or(1);
    p.compressed = exec * widest > 32;
    if p.dst_file == crate::spec::RegFile::Grf && !p.dst_indirect {
        let size = i64::from(p.dst_type.bytes());
        p.dst_span_regs = regs_touched(p.dst_subreg + (exec - 1) * p.dst_hstride * size + size - 1);
    }
    for &k in present {
        if p.src_file[k] != crate::spec::RegFile::Grf || p.src_indirect[k] {
            continue;
        }
        let size = i64::from(p.src_type[k].bytes());
        let width = p.src_width[k].max(1);
        let rows = (exec / width).max(1);
        // Rows start VertStride apart; with a non-negative stride the last row ends last.
        let row_end = |r: i64| {
            p.src_subreg[k] + (r * p.src_vstride[k] + (width - 1) * p.src_hstride[k]) * size + size
                - 1
        };
        let last = row_end(0).max(row_end(rows - 1));
        p.src_span_regs[k] = regs_touched(last);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `grf_of` is `div_euclid`, for offsets of both signs and register sizes that are powers
    /// of two or not.
    #[test]
    fn grf_of_is_div_euclid() {
        for grf in [1i64, 2, 3, 16, 24, 32, 64, 100] {
            for x in (-300i64..300).chain([i64::MIN, i64::MIN + 1, i64::MAX - 1, i64::MAX]) {
                assert_eq!(grf_of(x, grf), x.div_euclid(grf), "{x} {grf}");
            }
        }
    }
}
