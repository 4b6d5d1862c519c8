//! [`Insn`] -> native word.
//!
//! The layout is the one [`crate::encoding::layout_for`] chooses for the instruction's
//! opcode, access mode and operand files: the encoder first takes the values of those selector
//! fields (given directly to `Tabs::select_by`, or written into a preliminary word where
//! writing them could fail), asks for the layout, then writes every field through that layout.
//! Whatever the model holds but a field cannot (a value missing from its table, a number too
//! wide, two values for one field) is an [`EncodeError`]: `encode` succeeds only for
//! instructions that decode back equal (up to [`Insn::canonicalize`] and
//! [`Controls::compacted`](crate::isa::Controls::compacted), which the native form does not
//! carry). Every value written comes from a value table (or a type encoding), so the word
//! passes [`crate::encoding::check`] (the tests verify this for every encoded instruction);
//! the encoder itself only checks the reserved bits, which a too-wide descriptor can reach.

use super::error::EncodeError;
use super::fields::{sext, tabs, File, Kind, Lay, Map, OpFields, Tabs, F};
use super::implicit::implied;
use crate::encoding::SelectValues;
use crate::isa::{
    Addr, Dst, Imm, Insn, Reg, RegSrc, Region, SendDesc, SendInfo, Src, Swizzle, ThreadCtrl,
};
use crate::spec::{AccessMode, CondMod, DataType, MathFn, Opcode, Platform};

type R<T> = Result<T, EncodeError>;

#[inline]
fn err<T>(field: &'static str, reason: &'static str, value: i64) -> R<T> {
    Err(EncodeError::new(field, reason, value))
}

/// Write `v` into `f`; a missing field may only receive 0. Words are built from 0 and every
/// field is written once, so zeros need no write (the one overlap, Gen8+ UIP over the src1
/// type bits, is written with [`put_signed`], which always writes).
#[inline(always)]
pub(super) fn put(w: &mut u128, f: F, v: u64, name: &'static str) -> R<()> {
    if v == 0 {
        Ok(())
    } else if f.fits(v) {
        f.or_into(w, v);
        Ok(())
    } else if f.is_some() {
        err(name, "does not fit its field", v as i64)
    } else {
        err(name, "has no field in this instruction's layout", v as i64)
    }
}

/// Write a signed value in two's complement over the field's width.
fn put_signed(w: &mut u128, f: F, v: i64, name: &'static str) -> R<()> {
    if !f.is_some() {
        return if v == 0 {
            Ok(())
        } else {
            err(name, "has no field in this instruction's layout", v)
        };
    }
    if sext(v as u64, f.width()) != v {
        return err(name, "is out of range for its field", v);
    }
    f.set(w, v as u64);
    Ok(())
}

#[inline]
fn enc<T: super::fields::Key>(m: &Map<T>, x: T, name: &'static str) -> R<u64> {
    m.enc(x)
        .ok_or_else(|| EncodeError::new(name, "has no encoding on this platform", 0))
}

fn file_of(t: &Tabs, m: &Map<File>, f: File, name: &'static str) -> R<u64> {
    let _ = t;
    enc(m, f, name)
}

/// The operands as encoded: the instruction's own and the implicit ones.
pub(crate) struct Ops {
    pub dst: Option<Dst>,
    pub src: [Option<Src>; 3],
}

impl Ops {
    /// No operands (what [`operands`] fills).
    pub(crate) const NONE: Ops = Ops {
        dst: None,
        src: [None; 3],
    };
}

#[cfg(test)]
thread_local! {
    /// Words this thread's encodings took from the compile-time encoders (for the tests).
    pub(super) static STATIC_WORDS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Encode into a native word.
pub fn encode_word(insn: &Insn, p: Platform) -> R<u128> {
    encode_word_with(insn, p, true)
}

/// [`encode_word`], through the layout's compile-time encoder (module `encode_static`) when
/// `fast` and it takes the instruction, else through the resolved tables only.
pub(super) fn encode_word_with(insn: &Insn, p: Platform, fast: bool) -> R<u128> {
    // The fields `Insn::canonicalize` normalizes are either not written in the access mode
    // that makes them meaningless, or handled where they are written (EOT and descriptor
    // bit 31; three-source VertStride), so the instruction is used as given.
    let i = insn;
    let t = tabs(p);
    let Some(num) = i.op.number(p) else {
        return err("opcode", "does not exist on this platform", 0);
    };
    super::reserved_operands::check_encodable(i, t)?;
    let kind = t.kind(u64::from(num));
    let mut ops = Ops::NONE;
    operands(i, t, kind, &mut ops)?;
    let a16 = i.access == AccessMode::Align16;

    // The layout: from the values of the fields `select` reads, given directly when `fast`
    // and writing them cannot fail, else written into the preliminary word (which the
    // table-driven writers below read too).
    let direct = if fast {
        select_values(i, &ops, t, p, num, kind)
    } else {
        None
    };
    let (l, pw) = match direct {
        Some(v) => (t.select_by(&v), None),
        None => {
            let pw = preliminary(i, &ops, t, p, num, kind)?;
            (t.select(pw), Some(pw))
        }
    };
    let l = l.ok_or_else(|| EncodeError::new("layout", "not resolved", 0))?;

    if let (Some(f), true) = (l.enc, fast) {
        if let Some(w) = f(i, &ops, t, l, p, u64::from(num), kind) {
            #[cfg(test)]
            STATIC_WORDS.with(|n| n.set(n.get() + 1));
            return Ok(w);
        }
    }
    let pw = match pw {
        Some(pw) => pw,
        None => preliminary(i, &ops, t, p, num, kind)?,
    };
    let mut w = 0u128;
    header(&mut w, i, l, t, u64::from(num))?;
    match kind {
        Kind::ThreeSrc => three_src(&mut w, &ops, l, t)?,
        Kind::Sends => sends(&mut w, i, &ops, l, t)?,
        _ => {
            if let Some(d) = &ops.dst {
                dst(&mut w, d, l, t, p, pw, a16)?;
            }
            for k in 0..2 {
                if let Some(s) = &ops.src[k] {
                    src(&mut w, s, k, l, t, p, pw, a16)?;
                }
            }
            // mesa brw_eu_emit.c brw_set_src0: an immediate src0 narrower than 64 bits with
            // no src1 repeats its type in the src1 type field (src1 file ARF). Branch layouts
            // of Gen8+ cover those fields with UIP: they take the immediate layout's fields.
            if let (Some(Src::Imm(im)), None) = (&ops.src[0], &ops.src[1]) {
                if im.ty.bits() < 64 || kind == Kind::Branch {
                    let m = if l.op[2].reg_type.is_some() {
                        l
                    } else {
                        &t.lays[t.a1_imm]
                    };
                    if kind == Kind::Branch || l.op[2].reg_type.is_some() {
                        let fe = file_of(t, &t.file, File::Arf, "src1")?;
                        put(&mut w, m.op[2].reg_file, fe, "src1")?;
                        let te = im.ty.imm_enc(p).unwrap_or(0);
                        put(&mut w, m.op[2].reg_type, u64::from(te), "src1")?;
                    }
                }
            }
            match kind {
                Kind::Send => send_desc(&mut w, i, l, t)?,
                Kind::Branch => {
                    let j = t.jumps(i.op);
                    if let Some(v) = i.jip {
                        put_signed(&mut w, l.jip, i64::from(v), "jip")?;
                    }
                    if j & 2 != 0 {
                        if let Some(v) = i.uip {
                            put_signed(&mut w, l.uip, i64::from(v), "uip")?;
                        }
                    }
                }
                _ => {}
            }
        }
    }
    // Bits the layout reserves can only come from a value wider than the layout allows
    // (a Gen7/Gen8 descriptor's bits 30:29); indirect operands may use some (AddrImm[9]).
    if w & l.reserved != 0 {
        super::decode::reserved_bits(w, l, t, p).map_err(|e| {
            EncodeError::new(
                "reserved",
                "sets bits reserved on this platform",
                e.value as i64,
            )
        })?;
    }
    Ok(w)
}

const SRC: [&str; 3] = ["src0", "src1", "src2"];

/// Bit 31 of an immediate message descriptor: the instruction's EOT bit (the two are one bit
/// of the instruction; see `Insn::canonicalize`).
const DESC_EOT: u32 = 0x8000_0000;

/// End of thread: the EOT control or bit 31 of an immediate descriptor.
pub(super) fn eot(i: &Insn) -> bool {
    i.ctrl.eot
        || matches!(i.send, Some(SendInfo { desc: SendDesc::Imm(d), .. }) if d & DESC_EOT != 0)
}

/// An immediate descriptor with its EOT bit agreeing with the instruction's.
pub(super) fn imm_desc(i: &Insn, d: u32) -> u32 {
    if eot(i) {
        d | DESC_EOT
    } else {
        d
    }
}

/// The preliminary word: the fields `Tabs::select` chooses the layout with.
pub(super) fn preliminary(
    i: &Insn,
    ops: &Ops,
    t: &Tabs,
    p: Platform,
    num: u8,
    kind: Kind,
) -> R<u128> {
    let b = &t.lays[t.base];
    let mut pw = 0u128;
    put(&mut pw, b.opcode, u64::from(num), "opcode")?;
    put(
        &mut pw,
        b.access_mode,
        enc(&t.access, i.access, "access")?,
        "access",
    )?;
    if !matches!(kind, Kind::ThreeSrc | Kind::Sends | Kind::Branch) {
        for (k, (s, name)) in ops.src.iter().zip(SRC).take(2).enumerate() {
            if let Some(s) = s {
                let f = src_file(s);
                put(
                    &mut pw,
                    b.op[k + 1].reg_file,
                    file_of(t, &t.file, f, name)?,
                    name,
                )?;
                if let Src::Imm(im) = s {
                    let te = im.ty.imm_enc(p).ok_or_else(|| {
                        EncodeError::missing_type(
                            name,
                            "immediate type does not exist on this platform",
                            im.ty,
                        )
                    })?;
                    put(&mut pw, b.op[k + 1].reg_type, u64::from(te), name)?;
                }
            }
        }
    }
    if kind == Kind::Sends {
        if let Some(s) = &i.send {
            put(&mut pw, t.sel_desc, u64::from(is_a0(s.desc)), "send.desc")?;
            put(
                &mut pw,
                t.sel_ex_desc,
                u64::from(is_a0(s.ex_desc)),
                "send.ex_desc",
            )?;
        }
    }
    Ok(pw)
}

/// What [`preliminary`] writes into the fields `Tabs::select` reads, without the word;
/// `None` where it would answer an error (the caller then runs it for that error).
#[inline]
pub(super) fn select_values(
    i: &Insn,
    ops: &Ops,
    t: &Tabs,
    p: Platform,
    num: u8,
    kind: Kind,
) -> Option<SelectValues> {
    let b = &t.lays[t.base];
    let fits = |f: F, v: u64| v == 0 || f.fits(v);
    let mut v = SelectValues {
        opcode: u64::from(num),
        access_mode: t.access.enc(i.access)?,
        ..SelectValues::default()
    };
    if !fits(b.opcode, v.opcode) || !fits(b.access_mode, v.access_mode) {
        return None;
    }
    if !matches!(kind, Kind::ThreeSrc | Kind::Sends | Kind::Branch) {
        for (k, s) in ops.src.iter().take(2).enumerate() {
            if let Some(s) = s {
                let fe = t.file.enc(src_file(s))?;
                let te = match s {
                    Src::Imm(im) => u64::from(im.ty.imm_enc(p)?),
                    Src::Reg(_) => 0,
                };
                if !fits(b.op[k + 1].reg_file, fe) || !fits(b.op[k + 1].reg_type, te) {
                    return None;
                }
                if k == 0 {
                    (v.src0_file, v.src0_type) = (fe, te);
                } else {
                    v.src1_file = fe;
                }
            }
        }
    }
    if kind == Kind::Sends {
        if let Some(s) = &i.send {
            v.sel_desc = u64::from(is_a0(s.desc));
            v.sel_ex = u64::from(is_a0(s.ex_desc));
            if !fits(t.sel_desc, v.sel_desc) || !fits(t.sel_ex_desc, v.sel_ex) {
                return None;
            }
        }
    }
    Some(v)
}

fn is_a0(d: SendDesc) -> bool {
    matches!(d, SendDesc::A0(_))
}

fn src_file(s: &Src) -> File {
    match s {
        Src::Imm(_) => File::Imm,
        Src::Reg(r) => match r.addr {
            Addr::Direct {
                reg: Reg::Arf(_), ..
            } => File::Arf,
            _ => File::Grf,
        },
    }
}

/// The operands to encode into `ops` (given as [`Ops::NONE`]), with the model's constraints
/// per instruction kind checked.
pub(super) fn operands(i: &Insn, t: &Tabs, kind: Kind, ops: &mut Ops) -> R<()> {
    let (idst, isrc) = implied(i, t, kind);
    let info = i.op.info();
    let jumps = if kind == Kind::Branch {
        t.jumps(i.op)
    } else {
        0
    };
    // Jump offsets: branches take what their opcode has; call/calla/brd/brc a JIP only.
    let (want_jip, want_uip) = match kind {
        Kind::Branch => (jumps & 1 != 0, jumps & 2 != 0),
        Kind::Jump => (true, false),
        _ => (false, false),
    };
    if want_jip != i.jip.is_some() {
        return err(
            "jip",
            if want_jip {
                "is required by this opcode"
            } else {
                "is not encodable for this opcode"
            },
            i64::from(i.jip.unwrap_or(0)),
        );
    }
    if want_uip != i.uip.is_some() {
        return err(
            "uip",
            if want_uip {
                "is required by this opcode"
            } else {
                "is not encodable for this opcode on this platform"
            },
            i64::from(i.uip.unwrap_or(0)),
        );
    }
    let is_send = matches!(kind, Kind::Send | Kind::Sends);
    if is_send != i.send.is_some() {
        return err(
            "send",
            if is_send {
                "a send needs its message (SFID and descriptors)"
            } else {
                "only sends carry a message"
            },
            0,
        );
    }
    // Which of dst, src0, src1, src2 the instruction itself supplies.
    let (has_dst, nsrc): (bool, usize) = match kind {
        Kind::Bare => (false, 0),
        Kind::Alu | Kind::Math => (true, info.srcs.min(2) as usize),
        Kind::ThreeSrc => (true, 3),
        Kind::Send => (true, 1),
        Kind::Sends => (true, 2),
        Kind::Branch => (false, 0),
        Kind::Jmpi => (false, 0),
        Kind::Wait => (true, 0),
        Kind::Ret => (false, 1),
        Kind::Jump => (matches!(i.op, Opcode::Call | Opcode::Calla), 0),
    };
    if has_dst != i.dst.is_some() {
        return err(
            "dst",
            if has_dst {
                "is required by this opcode"
            } else {
                "is implicit for this opcode (not encodable)"
            },
            0,
        );
    }
    let src = &mut ops.src;
    for k in 0..3 {
        let mine = k < nsrc || (kind == Kind::Jmpi && k == 1);
        match (&i.src[k], mine) {
            (Some(s), true) => src[k] = Some(*s),
            (None, true) if isrc[k].is_some() => src[k] = isrc[k], // implicit (enc.implicit.math-src1)
            (None, true) => return err(SRC[k], "is required by this opcode", 0),
            (Some(_), false) => {
                return err(SRC[k], "is not encodable for this opcode", 0);
            }
            (None, false) => src[k] = isrc[k],
        }
    }
    if kind == Kind::Jump {
        src[0] = Some(Src::Imm(Imm::new(
            DataType::D,
            u64::from(i.jip.unwrap_or(0) as u32),
        )));
    }
    if kind == Kind::Send {
        let s = i.send.as_ref().map(|s| s.desc);
        src[1] = match s {
            // The immediate descriptor's value is written by `send_desc` (the send layouts
            // name its parts, not a 32-bit immediate).
            Some(SendDesc::Imm(_)) => Some(Src::Imm(Imm::new(DataType::UD, 0))),
            Some(SendDesc::A0(n)) => {
                let sub = n.checked_mul(4).ok_or_else(|| {
                    EncodeError::new("send.desc", "a0 subregister out of range", n.into())
                })?;
                Some(Src::Reg(RegSrc::new(
                    Reg::Arf(t.a0),
                    sub,
                    DataType::UD,
                    if i.access == AccessMode::Align16 {
                        Region::new(0, Region::A16.width, Region::A16.hstride)
                    } else {
                        Region::SCALAR
                    },
                )))
            }
            None => None,
        };
        if let Some(Src::Reg(r)) = &mut src[1] {
            if i.access == AccessMode::Align16 {
                r.swizzle = Swizzle(0);
            }
        }
    }
    ops.dst = if has_dst { i.dst } else { idst };
    Ok(())
}

fn header(w: &mut u128, i: &Insn, l: &Lay, t: &Tabs, num: u64) -> R<()> {
    let a16 = i.access == AccessMode::Align16;
    put(w, l.opcode, num, "opcode")?;
    put(
        w,
        l.access_mode,
        enc(&t.access, i.access, "access")?,
        "access",
    )?;
    let ex = t.exec.enc(i.exec_size).ok_or_else(|| {
        EncodeError::new(
            "exec_size",
            "is not an execution size",
            i64::from(i.exec_size),
        )
    })?;
    put(w, l.exec_size, ex, "exec_size")?;
    if i.chan_off % 4 != 0 {
        return err("chan_off", "is not a multiple of 4", i64::from(i.chan_off));
    }
    let q = t
        .qtr
        .enc(i.chan_off & !7)
        .ok_or_else(|| EncodeError::new("chan_off", "is out of range", i64::from(i.chan_off)))?;
    put(w, l.qtr_control, q, "chan_off")?;
    let nib = enc(&t.nib, i.chan_off & 4 != 0, "chan_off")?;
    put(w, l.nib_control, nib, "chan_off")?;
    let pm = if a16 { &t.pred16 } else { &t.pred };
    let pv = pm.enc(i.pred).ok_or_else(|| {
        EncodeError::new("pred", "has no encoding in this access mode", i.pred as i64)
    })?;
    put(w, l.pred_control, pv, "pred")?;
    put(w, l.pred_inv, u64::from(i.pred_inv), "pred_inv")?;
    put(w, l.flag_reg_nr, u64::from(i.flag.reg), "flag")?;
    put(w, l.flag_subreg_nr, u64::from(i.flag.sub), "flag")?;
    if l.cond_modifier.is_some() {
        put(w, l.cond_modifier, enc(&t.cmod, i.cmod, "cmod")?, "cmod")?;
    } else if i.cmod != CondMod::None {
        return err("cmod", "this instruction has no condition modifier", 0);
    }
    if l.math_function.is_some() {
        if i.math == MathFn::None {
            return err("math", "math needs a function", 0);
        }
        put(w, l.math_function, enc(&t.math, i.math, "math")?, "math")?;
    } else if i.math != MathFn::None {
        return err("math", "only math takes a function", i.math as i64);
    }
    put(w, l.saturate, u64::from(i.sat), "sat")?;
    let c = &i.ctrl;
    put(
        w,
        l.mask_control,
        enc(&t.nomask, c.no_mask, "no_mask")?,
        "no_mask",
    )?;
    put(
        w,
        l.dep_ctrl,
        enc(&t.dep, (c.no_dd_clr, c.no_dd_chk), "dep_ctrl")?,
        "dep_ctrl",
    )?;
    if c.thread == ThreadCtrl::NoPreempt && t.thread.enc(c.thread).is_none() {
        return err("thread", "NoPreempt has no encoding on Gen7-Gen9", 3);
    }
    put(
        w,
        l.thread_control,
        enc(&t.thread, c.thread, "thread")?,
        "thread",
    )?;
    put(w, l.acc_wr_control, u64::from(c.acc_wr), "acc_wr")?;
    put(w, l.branch_control, u64::from(c.branch_ctrl), "branch_ctrl")?;
    put(
        w,
        l.no_src_dep_set,
        u64::from(c.no_src_dep_set),
        "no_src_dep_set",
    )?;
    put(w, l.debug_control, u64::from(c.breakpoint), "breakpoint")?;
    put(w, l.eot, u64::from(eot(i)), "eot")?;
    Ok(())
}

fn reg_type(p: Platform, ty: DataType, name: &'static str) -> R<u64> {
    ty.reg_enc(p).map(u64::from).ok_or_else(|| {
        EncodeError::missing_type(name, "register type does not exist on this platform", ty)
    })
}

/// Direct or indirect addressing of operand `k` (0 = dst, 1 = src0, 2 = src1).
fn addr(w: &mut u128, a: Addr, k: usize, l: &Lay, t: &Tabs, pw: u128, name: &'static str) -> R<()> {
    let o = &l.op[k];
    match a {
        Addr::Direct { reg, sub } => {
            let (file, n) = match reg {
                Reg::Grf(n) => (File::Grf, n),
                Reg::Arf(n) => (File::Arf, n),
            };
            put(w, o.reg_file, file_of(t, &t.file, file, name)?, name)?;
            put(w, o.reg_nr, u64::from(n), name)?;
            put(w, o.address_mode, enc(&t.indirect, false, name)?, name)?;
            subreg(w, o, sub, name)
        }
        Addr::Indirect { a0, off } => {
            put(w, o.reg_file, file_of(t, &t.file, File::Grf, name)?, name)?;
            let am = enc(&t.indirect, true, name)?;
            put(w, o.address_mode, am, name)?;
            let mut pw2 = pw;
            o.address_mode.set(&mut pw2, am);
            let il = t
                .operand(pw2, l, k)
                .ok_or_else(|| EncodeError::new(name, "indirect layout not resolved", 0))?;
            let io = &il.op[k];
            let Some((imf, unit)) = io.addr_imm else {
                return err(name, "indirect addressing has no encoding here", 0);
            };
            put(w, io.addr_subreg, u64::from(a0), name)?;
            if i64::from(off) % i64::from(unit) != 0 {
                return err(
                    name,
                    "indirect offset is not a multiple of its unit",
                    off.into(),
                );
            }
            put_signed(w, imf, i64::from(off) / i64::from(unit), name)
        }
    }
}

fn subreg(w: &mut u128, o: &OpFields, sub: u8, name: &'static str) -> R<()> {
    match o.subreg {
        Some((f, unit)) => {
            if sub % unit != 0 {
                return err(
                    name,
                    "subregister is not a multiple of its field's unit",
                    sub.into(),
                );
            }
            put(w, f, u64::from(sub / unit), name)
        }
        None if sub == 0 => Ok(()),
        None => err(name, "subregister has no field", sub.into()),
    }
}

fn dst(w: &mut u128, d: &Dst, l: &Lay, t: &Tabs, p: Platform, pw: u128, a16: bool) -> R<()> {
    let o = &l.op[0];
    put(w, o.reg_type, reg_type(p, d.ty, "dst")?, "dst")?;
    addr(w, d.addr, 0, l, t, pw, "dst")?;
    let hs = t
        .dst_hstride
        .enc(d.hstride)
        .ok_or_else(|| EncodeError::new("dst", "bad horizontal stride", d.hstride.into()))?;
    put(w, o.hstride, hs, "dst")?;
    if a16 {
        put(w, o.writemask, u64::from(d.wrmask), "dst.wrmask")?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn src(
    w: &mut u128,
    s: &Src,
    k: usize,
    l: &Lay,
    t: &Tabs,
    p: Platform,
    pw: u128,
    a16: bool,
) -> R<()> {
    let name = SRC[k];
    let o = &l.op[k + 1];
    match s {
        Src::Imm(im) => {
            put(w, o.reg_file, file_of(t, &t.file, File::Imm, name)?, name)?;
            let te = im.ty.imm_enc(p).ok_or_else(|| {
                EncodeError::missing_type(
                    name,
                    "immediate type does not exist on this platform",
                    im.ty,
                )
            })?;
            put(w, o.reg_type, u64::from(te), name)?;
            let f = l.imm;
            if f.is_some() {
                if im.ty.bits() == 64 && f.width() < 64 {
                    return err(name, "a 64-bit immediate needs a one-source instruction", 0);
                }
                put(w, f, im.bits, name)
            } else if im.bits == 0 {
                Ok(())
            } else {
                err(
                    name,
                    "this instruction has no immediate field",
                    im.bits as i64,
                )
            }
        }
        Src::Reg(r) => {
            put(w, o.reg_type, reg_type(p, r.ty, name)?, name)?;
            addr(w, r.addr, k + 1, l, t, pw, name)?;
            let g = r.region;
            let vs = t
                .vstride
                .enc(g.vstride)
                .ok_or_else(|| EncodeError::new(name, "bad vertical stride", g.vstride.into()))?;
            put(w, o.vstride, vs, name)?;
            if a16 {
                put(w, o.swizzle, u64::from(r.swizzle.0), name)?;
            } else {
                let wd = t
                    .width
                    .enc(g.width)
                    .ok_or_else(|| EncodeError::new(name, "bad width", g.width.into()))?;
                let hs = t.hstride.enc(g.hstride).ok_or_else(|| {
                    EncodeError::new(name, "bad horizontal stride", g.hstride.into())
                })?;
                put(w, o.width, wd, name)?;
                put(w, o.hstride, hs, name)?;
            }
            put(w, o.abs, u64::from(r.abs), name)?;
            put(w, o.negate, u64::from(r.neg), name)
        }
    }
}

/// The descriptor of `send`/`sendc`: an immediate in the last dword, or a0.
fn send_desc(w: &mut u128, i: &Insn, l: &Lay, t: &Tabs) -> R<()> {
    let Some(s) = &i.send else { return Ok(()) };
    put(w, l.sfid, enc(&t.sfid, s.sfid, "send.sfid")?, "send.sfid")?;
    let last = t.lays[t.a1_imm].imm;
    if let SendDesc::Imm(d) = s.desc {
        put(w, last, u64::from(imm_desc(i, d)), "send.desc")?;
    }
    // send/sendc on Gen7-Gen8 have no extended descriptor beyond the SFID and EOT; Gen9 adds
    // ExDesc[31:16] in the src0 region and src1 type bits, with either descriptor form and in
    // either access mode (the views enc.gen9.send-a1-ex-desc, enc.gen9.send-reg-a1-ex-desc,
    // enc.gen9.send-a16-ex-desc, enc.gen9.send-reg-a16-ex-desc). With a register descriptor,
    // Mesa's disassembler prints the instruction's last dword (src1's register fields and
    // EOT) where IGA prints the extended descriptor, and Mesa's assembler ignores that number
    // (shared/corpus/mesa/asm/*/send.asm `a0<0,1,0>UD 0x00000200`): such a value is accepted
    // when it is exactly that dword, without the SFID and EOT bits the model keeps elsewhere
    // (ExDesc[3:0], ExDesc[5]; see `SendInfo`). The two readings cannot meet: that dword has
    // the a0 register number's bit 9 set, and ExDesc has no field there.
    let mesa_last = |v: u32| {
        matches!(s.desc, SendDesc::A0(_))
            && last.is_some()
            && last.get(*w) as u32 & !t.ex_desc_elsewhere == v & !t.ex_desc_elsewhere
    };
    match s.ex_desc {
        SendDesc::Imm(0) => Ok(()),
        SendDesc::Imm(v) if mesa_last(v) => Ok(()),
        // Gen9: ExDesc[31:16] written over the region the operands put in the same bits.
        SendDesc::Imm(v) if !l.ex_desc.is_empty() => {
            if v & !l.ex_desc_mask != 0 {
                return err(
                    "send.ex_desc",
                    if matches!(s.desc, SendDesc::A0(_)) {
                        "sets extended-descriptor bits that have no field in a Gen9 send (only ExDesc[31:16], enc.gen9.send-reg-a1-ex-desc) and is not Mesa's number beside a register descriptor either (the instruction's last dword, without the SFID and EOT bits)"
                    } else {
                        "sets extended-descriptor bits that have no field in a Gen9 send (only ExDesc[31:16], enc.gen9.send-a1-ex-desc)"
                    },
                    i64::from(v & !l.ex_desc_mask),
                );
            }
            for &(d, f) in &l.ex_desc {
                f.set(w, d.get(u128::from(v)));
            }
            Ok(())
        }
        _ => err(
            "send.ex_desc",
            "send/sendc have no extended descriptor beyond SFID and EOT here (Gen9 adds ExDesc[31:16]); beside a register descriptor, Mesa's number must be the instruction's last dword",
            0,
        ),
    }
}

fn three_src(w: &mut u128, ops: &Ops, l: &Lay, t: &Tabs) -> R<()> {
    let Some(d) = &ops.dst else {
        return err("dst", "is required by this opcode", 0);
    };
    let Addr::Direct {
        reg: Reg::Grf(dn),
        sub: dsub,
    } = d.addr
    else {
        return err("dst", "three-source operands are direct GRF registers", 0);
    };
    if d.hstride != 1 {
        return err(
            "dst",
            "three-source destinations have stride 1",
            d.hstride.into(),
        );
    }
    put(w, l.dst_type, enc(&t.type3, d.ty, "dst")?, "dst")?;
    let o = &l.op[0];
    put(w, o.reg_nr, u64::from(dn), "dst")?;
    subreg(w, o, dsub, "dst")?;
    put(w, o.writemask, u64::from(d.wrmask), "dst.wrmask")?;
    let mut st = None;
    for (k, (s, name)) in ops.src.iter().zip(SRC).enumerate() {
        let Some(Src::Reg(r)) = s else {
            return err(name, "three-source operands are registers", 0);
        };
        let Addr::Direct {
            reg: Reg::Grf(n),
            sub,
        } = r.addr
        else {
            return err(name, "three-source operands are direct GRF registers", 0);
        };
        let o = &l.op[k + 1];
        // src0 sets the shared SrcType; with an F or HF SrcType, src1_type / src2_type give
        // src1 / src2 their own precision (enc.gen8.3src-precision), otherwise (and on
        // Broadwell, which has no such fields: enc.gen8.3src-bdw) they have SrcType.
        match st {
            None => {
                put(w, l.src_type, enc(&t.type3, r.ty, name)?, name)?;
                st = Some(r.ty);
            }
            Some(s) => {
                let prec = o.hf_type.is_some() && matches!(s, DataType::F | DataType::HF);
                if prec {
                    let Some(v) = t.prec3.enc(r.ty) else {
                        return err(
                            name,
                            "with an :f or :hf src0, three-source src1 and src2 are :f or :hf",
                            0,
                        );
                    };
                    put(w, o.hf_type, v, name)?;
                } else if s != r.ty {
                    return err(
                        name,
                        if o.hf_type.is_some() {
                            "three-source sources share src0's type unless all are :f or :hf"
                        } else {
                            "three-source sources share one type on this platform (no per-source precision bits: enc.gen8.3src-bdw)"
                        },
                        0,
                    );
                }
            }
        }
        put(w, o.reg_nr, u64::from(n), name)?;
        subreg(w, o, sub, name)?;
        // VertStride 0 is the replicated scalar; any other is the <4;4,1> region
        // (`Insn::canonicalize`).
        let rep = r.region.vstride == 0;
        put(w, o.rep_ctrl, enc(&t.rep, rep, name)?, name)?;
        put(w, o.swizzle, u64::from(rep_swizzle(rep, r.swizzle).0), name)?;
        put(w, o.abs, u64::from(r.abs), name)?;
        put(w, o.negate, u64::from(r.neg), name)?;
    }
    Ok(())
}

/// The swizzle field of a three-source operand: with RepCtrl set the hardware reads one
/// scalar and ignores the swizzle, and Mesa's assembler writes `.xxxx` (0) for a replicated
/// operand written without one (checked against shared/corpus/mesa/asm/*/mad.expected). The
/// model's default `.xyzw` and `.xxxx` swap places there, so that both stay representable.
pub(super) fn rep_swizzle(rep: bool, s: Swizzle) -> Swizzle {
    match (rep, s) {
        (true, Swizzle::XYZW) => Swizzle(0),
        (true, Swizzle(0)) => Swizzle::XYZW,
        _ => s,
    }
}

fn sends(w: &mut u128, i: &Insn, ops: &Ops, l: &Lay, t: &Tabs) -> R<()> {
    let Some(s) = &i.send else { return Ok(()) };
    let Some(d) = &ops.dst else {
        return err("dst", "is required by this opcode", 0);
    };
    let file = |r: Reg, name| -> R<(u64, u8)> {
        let (f, n) = match r {
            Reg::Grf(n) => (File::Grf, n),
            Reg::Arf(n) => (File::Arf, n),
        };
        Ok((file_of(t, &t.sends_file, f, name)?, n))
    };
    // Split-send operands: direct, type UD, no regions or modifiers (the layout has none).
    let Addr::Direct { reg, sub } = d.addr else {
        return err("dst", "split-send operands are direct", 0);
    };
    let a16 = i.access == AccessMode::Align16;
    if d.ty != DataType::UD || d.hstride != 1 || (a16 && d.wrmask != 0xF) {
        return err(
            "dst",
            "split-send destinations are <1>:ud without a write mask",
            0,
        );
    }
    let o = &l.op[0];
    let (fe, n) = file(reg, "dst")?;
    put(w, o.reg_file, fe, "dst")?;
    put(w, o.reg_nr, u64::from(n), "dst")?;
    subreg(w, o, sub, "dst")?;
    for (k, (s, name)) in ops.src.iter().zip(SRC).take(2).enumerate() {
        let Some(Src::Reg(r)) = s else {
            return err(name, "split-send payloads are registers", 0);
        };
        let Addr::Direct { reg, sub } = r.addr else {
            return err(name, "split-send operands are direct", 0);
        };
        if r.ty != DataType::UD || r.neg || r.abs {
            return err(name, "split-send payloads are :ud without modifiers", 0);
        }
        let o = &l.op[k + 1];
        let (fe, n) = file(reg, name)?;
        if o.reg_file.is_some() {
            put(w, o.reg_file, fe, name)?;
        } else if !matches!(reg, Reg::Grf(_)) {
            return err(name, "this split-send payload is a GRF", 0);
        }
        put(w, o.reg_nr, u64::from(n), name)?;
        subreg(w, o, sub, name)?;
    }
    put(w, l.sfid, enc(&t.sfid, s.sfid, "send.sfid")?, "send.sfid")?;
    match s.desc {
        SendDesc::A0(0) => put(w, l.sel_reg32_desc, 1, "send.desc")?,
        SendDesc::A0(n) => return err("send.desc", "the descriptor register is a0.0", n.into()),
        SendDesc::Imm(v) => put(
            w,
            t.lays[t.a1_imm].imm,
            u64::from(imm_desc(i, v)),
            "send.desc",
        )?,
    }
    match s.ex_desc {
        SendDesc::A0(n) => {
            put(w, l.sel_reg32_ex_desc, 1, "send.ex_desc")?;
            put(w, l.ex_desc_addr_subreg, u64::from(n), "send.ex_desc")?;
        }
        SendDesc::Imm(v) => {
            // Each descriptor field into the instruction field of the same name
            // (enc.ex-desc); the other bits have no place in the instruction.
            if v & !l.ex_desc_mask != 0 {
                return err(
                    "send.ex_desc",
                    "sets extended-descriptor bits that have no field in a split send (enc.ex-desc)",
                    i64::from(v & !l.ex_desc_mask),
                );
            }
            for &(d, f) in &l.ex_desc {
                put(w, f, d.get(u128::from(v)), "send.ex_desc")?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nop_is_its_opcode_only() {
        let p = Platform::Skl;
        let w = encode_word(&Insn::new(Opcode::Nop), p).unwrap();
        let t = tabs(p);
        let mut x = 0u128;
        if let Some(n) = Opcode::Nop.number(p) {
            t.lays[t.base].opcode.set(&mut x, u64::from(n));
        }
        assert_eq!(w, x);
    }
}
