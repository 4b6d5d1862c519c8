//! Native word -> [`Insn`].

use super::error::{DecodeError, DecodeErrorKind as K};
use super::fields::{get, sext, tabs, File, Kind, Lay, OpFields, Tabs, F};
use crate::encoding::{operand_layout, EncodingError, Operand};
use crate::isa::{
    Addr, Dst, Flag, Imm, Insn, Reg, RegSrc, Region, SendDesc, SendInfo, Src, Swizzle,
};
use crate::spec::{AccessMode, DataType, Opcode, Platform};

pub(super) type R<T> = Result<T, DecodeError>;

/// A field the layout must have (a spec inconsistency otherwise, reported, never a panic).
#[inline]
fn need(f: F, name: &'static str) -> R<F> {
    if f.is_some() {
        Ok(f)
    } else {
        Err(DecodeError::missing(name))
    }
}

/// The error for field `f` holding `v`.
#[cold]
fn bad(kind: K, f: F, v: u64) -> DecodeError {
    match f.bf() {
        Some(b) => DecodeError::at(kind, b, v),
        None => DecodeError::missing("field"),
    }
}

#[inline(always)]
fn lookup<T: super::fields::Key>(
    m: &super::fields::Map<T>,
    f: F,
    name: &'static str,
    w: u128,
) -> R<T> {
    let v = f.get(w);
    match m.get(v) {
        Some(x) if f.is_some() => Ok(x),
        _ => Err(lookup_err(f, name, v)),
    }
}

/// Why [`lookup`] failed: the layout lacks the field, or its value has no entry.
#[cold]
fn lookup_err(f: F, name: &'static str, v: u64) -> DecodeError {
    if f.is_some() {
        bad(K::ReservedValue, f, v)
    } else {
        DecodeError::missing(name)
    }
}

/// Decode a native 128-bit word.
///
/// The layout is [`layout_for`]'s. Validation: the opcode exists on `p`, no bit the layout
/// (or, for operands under indirect addressing, the indirect layout) leaves reserved is set,
/// and every field the instruction model takes a value from holds an encoding its value table
/// defines (what [`crate::encoding::check`] checks for those fields). The implicit operands'
/// fields (see the `implicit` module) are not read and not checked.
#[inline]
pub fn decode_word(w: u128, p: Platform) -> R<Insn> {
    let mut i = Insn::new(Opcode::Nop);
    decode_word_into(w, p, &mut i)?;
    Ok(i)
}

/// [`decode_word`] into an existing instruction (overwritten completely on success; left in
/// an unspecified but valid state on error).
pub fn decode_word_into(w: u128, p: Platform, i: &mut Insn) -> R<()> {
    decode_word_with(w, p, i, true)
}

/// [`decode_word_into`], through the layout's compile-time decoder (module `decode_static`)
/// when `fast` and it has one, else through the resolved tables only.
pub(super) fn decode_word_with(w: u128, p: Platform, i: &mut Insn, fast: bool) -> R<()> {
    let t = tabs(p);
    let l = t.select(w).ok_or_else(|| DecodeError::missing("layout"))?;
    let opf = need(l.opcode, "opcode")?;
    let n = opf.get(w);
    let op =
        Opcode::from_number(p, (n & 0x7f) as u8).ok_or_else(|| bad(K::UnknownOpcode, opf, n))?;
    if w & l.reserved != 0 {
        reserved_bits(w, l, t, p)?;
    }
    let kind = t.kind(n);
    match (l.dec, fast) {
        (Some(f), true) => f(w, t, l, op, n, kind, i)?,
        _ => decode_tables(w, t, l, op, n, kind, i)?,
    }
    if kind == Kind::Math {
        super::implicit::drop_implicit_math_src1(i, t.p);
    }
    super::reserved_operands::check_decoded(i, w, l, t, kind)
}

/// The rest of [`decode_word_with`] through the resolved tables (kept out of line: the
/// compile-time decoders are the common path).
#[inline(never)]
fn decode_tables(
    w: u128,
    t: &Tabs,
    l: &Lay,
    op: Opcode,
    n: u64,
    kind: Kind,
    i: &mut Insn,
) -> R<()> {
    *i = Insn::new(op);
    header(i, w, l, t)?;
    let a16 = i.access == AccessMode::Align16;
    match kind {
        Kind::Bare => {}
        Kind::Alu | Kind::Math => {
            i.dst = Some(dst(w, l, t, a16)?);
            let n = op.info().srcs.min(2) as usize;
            if n == 2 && is_imm(w, l, t, 0)? {
                // Only the last source of a two-source instruction may be an immediate.
                let f = need(l.op[1].reg_file, "src0_reg_file")?;
                return Err(bad(K::Malformed, f, f.get(w)));
            }
            for k in 0..n {
                i.src[k] = Some(src(w, l, t, a16, k)?);
            }
        }
        Kind::ThreeSrc => three_src(i, w, l, t)?,
        Kind::Send => send(i, w, l, t, a16)?,
        Kind::Sends => sends(i, w, l, t)?,
        Kind::Branch => {
            // Gen8+ brc has JIP/UIP only with an immediate src0 (enc.gen8.branch-opcodes).
            if op == Opcode::Brc && !is_imm(w, l, t, 0)? {
                let f = need(l.op[1].reg_file, "src0_reg_file")?;
                return Err(bad(K::Unsupported, f, f.get(w)));
            }
            let j = t.jumps[(n & 0x7f) as usize];
            if j & 1 != 0 {
                let f = need(l.jip, "jip")?;
                i.jip = Some(sext(f.get(w), f.width()) as i32);
            }
            if j & 2 != 0 {
                let f = need(l.uip, "uip")?;
                i.uip = Some(sext(f.get(w), f.width()) as i32);
            }
        }
        Kind::Jmpi => i.src[1] = Some(src(w, l, t, a16, 1)?),
        Kind::Wait => i.dst = Some(dst(w, l, t, a16)?),
        Kind::Ret => i.src[0] = Some(src(w, l, t, a16, 0)?),
        Kind::Jump => {
            if matches!(op, Opcode::Call | Opcode::Calla) {
                i.dst = Some(dst(w, l, t, a16)?);
            }
            match src(w, l, t, a16, 0)? {
                Src::Imm(Imm { bits, .. }) => i.jip = Some(bits as u32 as i32),
                Src::Reg(_) => {
                    let f = need(l.op[1].reg_file, "src0_reg_file")?;
                    return Err(bad(K::Unsupported, f, f.get(w)));
                }
            }
        }
    }
    i.canonicalize();
    Ok(())
}

/// Reserved bits are set in the layout `l` chose: an error unless operands under indirect
/// addressing use them (Gen8+ AddrImm[9] sits in bits the direct layouts leave reserved).
#[cold]
pub(super) fn reserved_bits(w: u128, l: &Lay, t: &Tabs, p: Platform) -> R<()> {
    let mut res = l.reserved;
    for (k, which) in [Operand::Dst, Operand::Src0, Operand::Src1]
        .into_iter()
        .enumerate()
    {
        let am = l.op[k].address_mode;
        if am.is_some() && t.indirect.get(am.get(w)) == Some(true) {
            if let Some(ind) = t.lay(operand_layout(w, p, which)) {
                res &= ind.reserved;
            }
        }
    }
    let set = w & res;
    if set == 0 {
        return Ok(());
    }
    Err(EncodingError::reserved_bits(set).into())
}

fn header(i: &mut Insn, w: u128, l: &Lay, t: &Tabs) -> R<()> {
    i.access = lookup(&t.access, l.access_mode, "access_mode", w)?;
    i.exec_size = lookup(&t.exec, l.exec_size, "exec_size", w)?;
    let q = lookup(&t.qtr, l.qtr_control, "qtr_control", w)?;
    let nib = t.nib.get(l.nib_control.get(w)).unwrap_or(false);
    // NibCtrl selects the second group of four channels of the quarter.
    i.chan_off = q + if nib { 4 } else { 0 };
    let pm = if i.access == AccessMode::Align16 {
        &t.pred16
    } else {
        &t.pred
    };
    i.pred = lookup(pm, l.pred_control, "pred_control", w)?;
    i.pred_inv = get(l.pred_inv, w) != 0;
    i.flag = Flag {
        reg: get(l.flag_reg_nr, w) as u8,
        sub: get(l.flag_subreg_nr, w) as u8,
    };
    if l.cond_modifier.is_some() {
        let f = l.cond_modifier;
        let v = f.get(w);
        i.cmod = t.cmod.get(v).ok_or_else(|| bad(K::ReservedValue, f, v))?;
    }
    if l.math_function.is_some() {
        let f = l.math_function;
        let v = f.get(w);
        i.math = t.math.get(v).ok_or_else(|| bad(K::ReservedValue, f, v))?;
    }
    i.sat = get(l.saturate, w) != 0;
    let c = &mut i.ctrl;
    c.no_mask = t.nomask.get(l.mask_control.get(w)).unwrap_or(false);
    c.acc_wr = get(l.acc_wr_control, w) != 0;
    c.branch_ctrl = get(l.branch_control, w) != 0;
    c.no_src_dep_set = get(l.no_src_dep_set, w) != 0;
    (c.no_dd_clr, c.no_dd_chk) = lookup(&t.dep, l.dep_ctrl, "dep_ctrl", w)?;
    c.thread = lookup(&t.thread, l.thread_control, "thread_control", w)?;
    c.breakpoint = get(l.debug_control, w) != 0;
    c.eot = get(l.eot, w) != 0;
    Ok(())
}

fn file(t: &Tabs, f: F, w: u128) -> R<File> {
    let v = f.get(w);
    t.file.get(v).ok_or_else(|| bad(K::ReservedValue, f, v))
}

fn is_imm(w: u128, l: &Lay, t: &Tabs, k: usize) -> R<bool> {
    let f = l.op[k + 1].reg_file;
    if f.is_some() {
        Ok(file(t, f, w)? == File::Imm)
    } else {
        Ok(false)
    }
}

/// The register of an operand from its file and number fields.
fn reg(file: File, o: &OpFields, w: u128, file_f: F) -> R<Reg> {
    let n = get(o.reg_nr, w) as u8;
    match file {
        File::Grf => Ok(Reg::Grf(n)),
        File::Arf => Ok(Reg::Arf(n)),
        File::Mrf => Err(bad(K::Unsupported, file_f, file_f.get(w))),
        File::Imm => Err(bad(K::Malformed, file_f, file_f.get(w))),
    }
}

/// Direct or indirect addressing of operand `k` (0 = dst, 1 = src0, 2 = src1).
pub(super) fn addr_runtime(w: u128, l: &Lay, t: &Tabs, k: usize, file: File, file_f: F) -> R<Addr> {
    let o = &l.op[k];
    let am = o.address_mode;
    let indirect = if am.is_some() {
        let v = am.get(w);
        t.indirect
            .get(v)
            .ok_or_else(|| bad(K::ReservedValue, am, v))?
    } else {
        false
    };
    if !indirect {
        let sub = match o.subreg {
            Some((f, unit)) => f.get(w) * u64::from(unit),
            None => 0,
        };
        return Ok(Addr::Direct {
            reg: reg(file, o, w, file_f)?,
            sub: sub.min(255) as u8,
        });
    }
    // Indirect operands address the GRF (seed000 §3.3.5).
    if file != File::Grf {
        return Err(bad(K::Unsupported, file_f, file_f.get(w)));
    }
    let ind = t
        .operand(w, l, k)
        .ok_or_else(|| DecodeError::missing("layout"))?;
    let io = &ind.op[k];
    let (sf, Some((imf, unit))) = (io.addr_subreg, io.addr_imm) else {
        return Err(bad(K::Unsupported, am, 1));
    };
    if !sf.is_some() {
        return Err(bad(K::Unsupported, am, 1));
    }
    let off = sext(imf.get(w), imf.width()) * i64::from(unit);
    Ok(Addr::Indirect {
        a0: sf.get(w) as u8,
        off: off as i16,
    })
}

fn reg_type(t: &Tabs, f: F, w: u128, imm: bool) -> R<DataType> {
    let v = f.get(w);
    let tab = if imm { &t.imm_type } else { &t.reg_type };
    tab.get(v as usize)
        .copied()
        .flatten()
        .ok_or_else(|| bad(K::ReservedValue, f, v))
}

fn dst(w: u128, l: &Lay, t: &Tabs, a16: bool) -> R<Dst> {
    let o = &l.op[0];
    let ff = need(o.reg_file, "dst_reg_file")?;
    let file = file(t, ff, w)?;
    if file == File::Imm {
        return Err(bad(K::Malformed, ff, ff.get(w)));
    }
    let tf = need(o.reg_type, "dst_reg_type")?;
    let ty = reg_type(t, tf, w, false)?;
    let hstride = lookup(&t.dst_hstride, o.hstride, "dst_hstride", w)?;
    let wrmask = if a16 { get(o.writemask, w) as u8 } else { 0xF };
    Ok(Dst {
        addr: addr_runtime(w, l, t, 0, file, ff)?,
        ty,
        hstride,
        wrmask,
    })
}

/// Source `k` (0 or 1) of a one- or two-source layout.
fn src(w: u128, l: &Lay, t: &Tabs, a16: bool, k: usize) -> R<Src> {
    let o = &l.op[k + 1];
    let (fname, tname) = if k == 0 {
        ("src0_reg_file", "src0_reg_type")
    } else {
        ("src1_reg_file", "src1_reg_type")
    };
    let ff = need(o.reg_file, fname)?;
    let file = file(t, ff, w)?;
    let tf = need(o.reg_type, tname)?;
    if file == File::Imm {
        let ty = reg_type(t, tf, w, true)?;
        let f = need(l.imm, "imm")?;
        // A 64-bit type needs the 64-bit immediate (src0 of a one-source instruction on
        // Gen8+); Haswell's dim reads 64 bits whatever the type.
        if ty.bits() == 64 && f.width() < 64 {
            return Err(bad(K::Malformed, tf, tf.get(w)));
        }
        // Haswell's dim: the type field is not read; the immediate is typed F (opcode.dim,
        // enc.hsw.dim-a1 / -a16: a DF value typed F), whatever the field holds.
        let ty = if f.width() == 64 && ty.bits() < 64 {
            DataType::F
        } else {
            ty
        };
        return Ok(Src::Imm(Imm::new(ty, f.get(w))));
    }
    let ty = reg_type(t, tf, w, false)?;
    let region = if a16 {
        Region::new(
            lookup(&t.vstride, o.vstride, "vstride", w)?,
            Region::A16.width,
            Region::A16.hstride,
        )
    } else {
        Region::new(
            lookup(&t.vstride, o.vstride, "vstride", w)?,
            lookup(&t.width, o.width, "width", w)?,
            lookup(&t.hstride, o.hstride, "hstride", w)?,
        )
    };
    let swizzle = if a16 {
        Swizzle(get(o.swizzle, w) as u8)
    } else {
        Swizzle::XYZW
    };
    Ok(Src::Reg(RegSrc {
        addr: addr_runtime(w, l, t, k + 1, file, ff)?,
        ty,
        region,
        swizzle,
        neg: get(o.negate, w) != 0,
        abs: get(o.abs, w) != 0,
    }))
}

fn three_src(i: &mut Insn, w: u128, l: &Lay, t: &Tabs) -> R<()> {
    let sf = need(l.src_type, "src_type")?;
    let st = t
        .type3
        .get(sf.get(w))
        .ok_or_else(|| bad(K::ReservedValue, sf, sf.get(w)))?;
    let df = need(l.dst_type, "dst_type")?;
    let dt = t
        .type3
        .get(df.get(w))
        .ok_or_else(|| bad(K::ReservedValue, df, df.get(w)))?;
    let d = &l.op[0];
    let dsub = d.subreg.map_or(0, |(f, u)| f.get(w) * u64::from(u));
    i.dst = Some(Dst {
        addr: Addr::Direct {
            reg: Reg::Grf(get(d.reg_nr, w) as u8),
            sub: dsub.min(255) as u8,
        },
        ty: dt,
        hstride: 1,
        wrmask: get(d.writemask, w) as u8,
    });
    for k in 0..3 {
        let o = &l.op[k + 1];
        let rep = t.rep.get(o.rep_ctrl.get(w)).unwrap_or(false);
        let sub = o.subreg.map_or(0, |(f, u)| f.get(w) * u64::from(u));
        let v = get(o.hf_type, w);
        let ty = src12_type(t, k > 0 && o.hf_type.is_some(), v, st)
            .map_err(|()| bad(K::ReservedValue, o.hf_type, v))?;
        i.src[k] = Some(Src::Reg(RegSrc {
            addr: Addr::Direct {
                reg: Reg::Grf(get(o.reg_nr, w) as u8),
                sub: sub.min(255) as u8,
            },
            ty,
            region: Region::new(
                if rep { 0 } else { Region::A16.vstride },
                Region::A16.width,
                Region::A16.hstride,
            ),
            swizzle: super::encode::rep_swizzle(rep, Swizzle(get(o.swizzle, w) as u8)),
            neg: get(o.negate, w) != 0,
            abs: get(o.abs, w) != 0,
        }));
    }
    Ok(())
}

/// The type of three-source source `src1`/`src2` given the shared SrcType `st` and the value
/// `v` of the operand's `src1_type`/`src2_type` field (`has`: the layout has one): with an F or
/// HF SrcType the field gives the source's precision, otherwise the source has SrcType and a
/// set bit is reserved (Err) (enc.gen8.3src-precision). Broadwell's layout has no such field
/// (enc.gen8.3src-bdw): every source has SrcType.
#[inline(always)]
pub(super) fn src12_type(t: &Tabs, has: bool, v: u64, st: DataType) -> Result<DataType, ()> {
    if has && matches!(st, DataType::F | DataType::HF) {
        t.prec3.get(v).ok_or(())
    } else if v == 0 {
        Ok(st)
    } else {
        Err(())
    }
}

/// The message descriptor held in the instruction's last dword (read with the immediate
/// layout's `imm` field: the same bits as the descriptor fields of the send layouts).
#[inline]
pub(super) fn last_dword(w: u128, t: &Tabs) -> R<u32> {
    let f = need(t.last_dword, "imm")?;
    Ok(f.get(w) as u32)
}

fn send_sfid(w: u128, l: &Lay, t: &Tabs) -> R<u8> {
    let f = need(l.sfid, "sfid")?;
    let v = f.get(w);
    t.sfid.get(v).ok_or_else(|| bad(K::ReservedValue, f, v))
}

fn send(i: &mut Insn, w: u128, l: &Lay, t: &Tabs, a16: bool) -> R<()> {
    i.dst = Some(dst(w, l, t, a16)?);
    if is_imm(w, l, t, 0)? {
        let f = need(l.op[1].reg_file, "src0_reg_file")?;
        return Err(bad(K::Malformed, f, f.get(w)));
    }
    i.src[0] = Some(src(w, l, t, a16, 0)?);
    let desc = if is_imm(w, l, t, 1)? {
        SendDesc::Imm(last_dword(w, t)?)
    } else {
        // A register descriptor: an address subregister (in dwords).
        let ff = need(l.op[2].reg_file, "src1_reg_file")?;
        match src(w, l, t, a16, 1)? {
            Src::Reg(RegSrc {
                addr: Addr::Direct { reg, sub },
                ..
            }) if reg == Reg::Arf(t.a0) && sub % 4 == 0 => SendDesc::A0(sub / 4),
            _ => return Err(bad(K::Unsupported, ff, ff.get(w))),
        }
    };
    i.send = Some(SendInfo {
        sfid: send_sfid(w, l, t)?,
        desc,
        // Gen9: ExDesc[31:16] in the src0 region bits (enc.gen9.send-a1-ex-desc).
        ex_desc: SendDesc::Imm(l.imm_ex_desc(w)),
    });
    Ok(())
}

fn sends(i: &mut Insn, w: u128, l: &Lay, t: &Tabs) -> R<()> {
    let rf = |name: &'static str, f: F| -> R<Reg> {
        let f = need(f, name)?;
        let v = f.get(w);
        match t.sends_file.get(v) {
            Some(File::Grf) => Ok(Reg::Grf(0)),
            Some(File::Arf) => Ok(Reg::Arf(0)),
            _ => Err(bad(K::ReservedValue, f, v)),
        }
    };
    // The split-send layouts have no indirect operand fields.
    let direct = |o: &OpFields| -> R<()> {
        let f = o.address_mode;
        let v = f.get(w);
        if f.is_some() && t.indirect.get(v) != Some(false) {
            return Err(bad(K::Unsupported, f, v));
        }
        Ok(())
    };
    let with_nr = |r: Reg, o: &OpFields| -> Reg {
        let n = get(o.reg_nr, w) as u8;
        match r {
            Reg::Grf(_) => Reg::Grf(n),
            Reg::Arf(_) => Reg::Arf(n),
        }
    };
    let sub = |o: &OpFields| {
        o.subreg
            .map_or(0, |(f, u)| (f.get(w) * u64::from(u)).min(255) as u8)
    };
    let (d, s0, s1) = (&l.op[0], &l.op[1], &l.op[2]);
    direct(d)?;
    direct(s0)?;
    let dreg = with_nr(rf("dst_reg_file", d.reg_file)?, d);
    i.dst = Some(Dst {
        addr: Addr::Direct {
            reg: dreg,
            sub: sub(d),
        },
        ty: DataType::UD,
        hstride: 1,
        wrmask: 0xF,
    });
    i.src[0] = Some(Src::Reg(RegSrc::new(
        Reg::Grf(get(s0.reg_nr, w) as u8),
        sub(s0),
        DataType::UD,
        Region::SCALAR,
    )));
    let s1reg = with_nr(rf("src1_reg_file", s1.reg_file)?, s1);
    i.src[1] = Some(Src::Reg(RegSrc::new(
        s1reg,
        0,
        DataType::UD,
        Region::SCALAR,
    )));
    let desc = if get(l.sel_reg32_desc, w) != 0 {
        SendDesc::A0(0)
    } else {
        SendDesc::Imm(last_dword(w, t)?)
    };
    let ex_desc = if get(l.sel_reg32_ex_desc, w) != 0 {
        SendDesc::A0(get(l.ex_desc_addr_subreg, w) as u8)
    } else {
        SendDesc::Imm(l.imm_ex_desc(w))
    };
    i.send = Some(SendInfo {
        sfid: send_sfid(w, l, t)?,
        desc,
        ex_desc,
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Opcode;

    /// The compile-time decoders (module `decode_static`) agree with the table-driven decoder
    /// on random words: same instruction or same error. The words get a defined opcode and
    /// their layout's reserved bits cleared, so that most reach the operand fields.
    #[test]
    fn static_decoders_agree_with_tables() {
        let mut next = crate::test_rng::xorshift(0x9E37_79B9_7F4A_7C15u64);
        for p in Platform::ALL {
            let t = tabs(p);
            let ops: Vec<u8> = (0..128u8)
                .filter(|&n| Opcode::from_number(p, n).is_some())
                .collect();
            assert!(t.lays.iter().all(|l| l.dec.is_some()), "{p:?}");
            let (mut ok, mut n_err) = (0, 0);
            for _ in 0..60_000 {
                let mut w = u128::from(next()) | u128::from(next()) << 64;
                let op = ops[(next() % ops.len() as u64) as usize];
                let l = &t.lays[t.base];
                l.opcode.set(&mut w, u64::from(op));
                if let Some(l) = t.select(w) {
                    if next() % 4 != 0 {
                        w &= !l.reserved;
                    }
                }
                let (mut a, mut b) = (Insn::new(Opcode::Nop), Insn::new(Opcode::Nop));
                let ra = decode_word_with(w, p, &mut a, true);
                let rb = decode_word_with(w, p, &mut b, false);
                assert_eq!(ra, rb, "{p:?} {w:#034x}");
                if ra.is_ok() {
                    assert_eq!(a, b, "{p:?} {w:#034x}");
                    ok += 1;
                } else {
                    n_err += 1;
                }
            }
            // Both outcomes are exercised.
            assert!(ok > 1000 && n_err > 1000, "{p:?}: {ok} ok, {n_err} errors");
        }
    }
}
