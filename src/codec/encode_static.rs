//! [`Insn`] -> native word with every field position known at compile time.
//!
//! The encoder of module `encode` writes each field through a [`super::fields::F`] read from
//! the platform's tables (a shift, a mask and a few tests per field). This module writes the
//! common instructions (one- and two-source ALU, math, send, split send and three-source,
//! direct operands) again,
//! generically over the layout types that spec-compiler generates from spec/encoding
//! ([`crate::spec::native_fields`], the constants the compile-time decoders use): each layout
//! gets its own monomorphized encoder in which a field write is a constant shift and OR, and
//! whether the layout has a field is decided by the compiler.
//!
//! It only ever answers with a word the table-driven encoder would produce: anything it does
//! not handle or that would be an error (indirect operands, other instruction kinds, values
//! without an encoding, reserved bits) is `None`, and the caller runs the table-driven encoder,
//! which produces the word or the error as before. The unit test
//! `static_encoders_agree_with_tables` compares the two on random instructions.

use super::decode_static::{Dst_, Op, Src0, Src1, Src2};
use super::encode::{imm_desc, put as put_runtime, rep_swizzle, Ops};
use super::fields::{File, Kind, Lay, Tabs};
use crate::isa::{Addr, Dst, Insn, Reg, RegSrc, SendDesc, Src, ThreadCtrl};
use crate::spec::encoding::Layout;
use crate::spec::native_fields::*;
use crate::spec::native_fields::{native_layouts, Fc, Fields};
use crate::spec::{AccessMode, CondMod, DataType, MathFn, Platform};

/// A layout's encoder: instruction, its operands as encoded, tables, the layout's resolved
/// fields, platform, opcode number, kind. `None`: use the table-driven encoder.
pub(crate) type EncodeFn = fn(&Insn, &Ops, &Tabs, &Lay, Platform, u64, Kind) -> Option<u128>;

/// The monomorphized encoder of native layout `l`, if spec-compiler generated its fields.
pub(crate) fn encoder_for(l: &'static Layout) -> Option<EncodeFn> {
    macro_rules! table {
        ($($t:ident),*) => {
            [$((<$t as Fields>::LAYOUT, encode_with::<$t> as EncodeFn)),*]
        };
    }
    let all = native_layouts!(table);
    all.iter()
        .find(|(x, _)| std::ptr::eq(*x, l))
        .map(|&(_, f)| f)
}

/// Write `v` into `f` (a constant: the tests fold away); `None` when it does not fit, or is
/// not 0 for a field the layout does not have (what `encode::put` reports as errors).
#[inline(always)]
fn put(w: &mut u128, f: Fc, v: u64) -> Option<()> {
    if u32::from(f.width) < 64 && v >> f.width != 0 {
        return None;
    }
    let mut k = 0;
    while k < f.n as usize {
        let (lo, bits, at) = f.pieces[k];
        let m = u64::MAX >> (64 - u32::from(bits));
        *w |= u128::from((v >> at) & m) << lo;
        k += 1;
    }
    Some(())
}

fn encode_with<L: Fields>(
    i: &Insn,
    ops: &Ops,
    t: &Tabs,
    l: &Lay,
    p: Platform,
    num: u64,
    kind: Kind,
) -> Option<u128> {
    let mut w = 0u128;
    match kind {
        Kind::Alu | Kind::Math | Kind::Send => {}
        Kind::ThreeSrc => {
            header::<L>(&mut w, i, t, num)?;
            three_src::<L>(&mut w, ops, t)?;
            return (w & l.reserved == 0).then_some(w);
        }
        Kind::Sends => {
            header::<L>(&mut w, i, t, num)?;
            sends::<L>(&mut w, i, ops, t, l)?;
            return (w & l.reserved == 0).then_some(w);
        }
        _ => return None,
    }
    let a16 = i.access == AccessMode::Align16;
    header::<L>(&mut w, i, t, num)?;
    dst::<L>(&mut w, ops.dst.as_ref()?, t, p, a16)?;
    if let Some(s) = &ops.src[0] {
        src::<L, Src0<L>>(&mut w, s, t, p, a16)?;
    }
    if let Some(s) = &ops.src[1] {
        src::<L, Src1<L>>(&mut w, s, t, p, a16)?;
    }
    // An immediate src0 narrower than 64 bits with no src1 repeats its type in the src1
    // fields (`encode::encode_word`; branches, which differ, are not handled here).
    if let (Some(Src::Imm(im)), None) = (&ops.src[0], &ops.src[1]) {
        if im.ty.bits() < 64 && L::SRC1_REG_TYPE.is_some() {
            put(&mut w, L::SRC1_REG_FILE, t.file.enc(File::Arf)?)?;
            put(
                &mut w,
                L::SRC1_REG_TYPE,
                u64::from(im.ty.imm_enc(p).unwrap_or(0)),
            )?;
        }
    }
    if kind == Kind::Send {
        send_desc::<L>(&mut w, i, t)?;
    }
    (w & l.reserved == 0).then_some(w)
}

#[inline(always)]
fn header<L: Fields>(w: &mut u128, i: &Insn, t: &Tabs, num: u64) -> Option<()> {
    put(w, L::OPCODE, num)?;
    put(w, L::ACCESS_MODE, t.access.enc(i.access)?)?;
    put(w, L::EXEC_SIZE, t.exec.enc(i.exec_size)?)?;
    if i.chan_off % 4 != 0 {
        return None;
    }
    put(w, L::QTR_CONTROL, t.qtr.enc(i.chan_off & !7)?)?;
    put(w, L::NIB_CONTROL, t.nib.enc(i.chan_off & 4 != 0)?)?;
    let pm = if i.access == AccessMode::Align16 {
        &t.pred16
    } else {
        &t.pred
    };
    put(w, L::PRED_CONTROL, pm.enc(i.pred)?)?;
    put(w, L::PRED_INV, u64::from(i.pred_inv))?;
    put(w, L::FLAG_REG_NR, u64::from(i.flag.reg))?;
    put(w, L::FLAG_SUBREG_NR, u64::from(i.flag.sub))?;
    if L::COND_MODIFIER.is_some() {
        put(w, L::COND_MODIFIER, t.cmod.enc(i.cmod)?)?;
    } else if i.cmod != CondMod::None {
        return None;
    }
    if L::MATH_FUNCTION.is_some() {
        if i.math == MathFn::None {
            return None;
        }
        put(w, L::MATH_FUNCTION, t.math.enc(i.math)?)?;
    } else if i.math != MathFn::None {
        return None;
    }
    put(w, L::SATURATE, u64::from(i.sat))?;
    let c = &i.ctrl;
    put(w, L::MASK_CONTROL, t.nomask.enc(c.no_mask)?)?;
    put(w, L::DEP_CTRL, t.dep.enc((c.no_dd_clr, c.no_dd_chk))?)?;
    if c.thread == ThreadCtrl::NoPreempt {
        return None;
    }
    put(w, L::THREAD_CONTROL, t.thread.enc(c.thread)?)?;
    put(w, L::ACC_WR_CONTROL, u64::from(c.acc_wr))?;
    put(w, L::BRANCH_CONTROL, u64::from(c.branch_ctrl))?;
    put(w, L::NO_SRC_DEP_SET, u64::from(c.no_src_dep_set))?;
    put(w, L::DEBUG_CONTROL, u64::from(c.breakpoint))?;
    put(w, L::EOT, u64::from(super::encode::eot(i)))
}

/// A direct register of operand `O` (indirect addressing: the table-driven encoder).
#[inline(always)]
fn addr<O: Op>(w: &mut u128, a: Addr, t: &Tabs) -> Option<()> {
    let Addr::Direct { reg, sub } = a else {
        return None;
    };
    let (file, n) = match reg {
        Reg::Grf(n) => (File::Grf, n),
        Reg::Arf(n) => (File::Arf, n),
    };
    put(w, O::REG_FILE, t.file.enc(file)?)?;
    put(w, O::REG_NR, u64::from(n))?;
    put(w, O::ADDRESS_MODE, t.indirect.enc(false)?)?;
    subreg::<O>(w, sub)
}

/// The subregister byte offset `sub` of operand `O`.
#[inline(always)]
fn subreg<O: Op>(w: &mut u128, sub: u8) -> Option<()> {
    // The subregister field and its unit, in the order `fields::resolve` looks for them.
    let (f, unit) = if O::SUBREG_NR.is_some() {
        (O::SUBREG_NR, 1)
    } else if O::SUBREG16.is_some() {
        (O::SUBREG16, 16)
    } else if O::SUBREG4.is_some() {
        (O::SUBREG4, 4)
    } else if O::SUBREG2.is_some() {
        (O::SUBREG2, 2)
    } else {
        return (sub == 0).then_some(());
    };
    if sub % unit != 0 {
        return None;
    }
    put(w, f, u64::from(sub / unit))
}

#[inline(always)]
fn dst<L: Fields>(w: &mut u128, d: &Dst, t: &Tabs, p: Platform, a16: bool) -> Option<()> {
    type O<L> = Dst_<L>;
    put(w, O::<L>::REG_TYPE, u64::from(d.ty.reg_enc(p)?))?;
    addr::<O<L>>(w, d.addr, t)?;
    put(w, O::<L>::HSTRIDE, t.dst_hstride.enc(d.hstride)?)?;
    if a16 {
        put(w, O::<L>::WRITEMASK, u64::from(d.wrmask))?;
    }
    Some(())
}

#[inline(always)]
fn src<L: Fields, O: Op>(w: &mut u128, s: &Src, t: &Tabs, p: Platform, a16: bool) -> Option<()> {
    match s {
        Src::Imm(im) => {
            put(w, O::REG_FILE, t.file.enc(File::Imm)?)?;
            put(w, O::REG_TYPE, u64::from(im.ty.imm_enc(p)?))?;
            if !L::IMM.is_some() {
                return (im.bits == 0).then_some(());
            }
            if im.ty.bits() == 64 && L::IMM.width < 64 {
                return None;
            }
            put(w, L::IMM, im.bits)
        }
        Src::Reg(r) => {
            put(w, O::REG_TYPE, u64::from(r.ty.reg_enc(p)?))?;
            addr::<O>(w, r.addr, t)?;
            let g = r.region;
            put(w, O::VSTRIDE, t.vstride.enc(g.vstride)?)?;
            if a16 {
                put(w, O::SWIZZLE, u64::from(r.swizzle.0))?;
            } else {
                put(w, O::WIDTH, t.width.enc(g.width)?)?;
                put(w, O::HSTRIDE, t.hstride.enc(g.hstride)?)?;
            }
            put(w, O::ABS, u64::from(r.abs))?;
            put(w, O::NEGATE, u64::from(r.neg))
        }
    }
}

/// A GRF register of a three-source instruction: its number and subregister.
#[inline(always)]
fn grf(a: Addr) -> Option<(u8, u8)> {
    match a {
        Addr::Direct {
            reg: Reg::Grf(n),
            sub,
        } => Some((n, sub)),
        _ => None,
    }
}

/// The operands of a three-source instruction (`encode::three_src`).
#[inline(always)]
fn three_src<L: Fields>(w: &mut u128, ops: &Ops, t: &Tabs) -> Option<()> {
    let d = ops.dst.as_ref()?;
    let (dn, dsub) = grf(d.addr)?;
    if d.hstride != 1 {
        return None;
    }
    put(w, L::DST_TYPE, t.type3.enc(d.ty)?)?;
    put(w, L::DST_REG_NR, u64::from(dn))?;
    subreg::<Dst_<L>>(w, dsub)?;
    put(w, L::DST_WRITEMASK, u64::from(d.wrmask))?;
    let [Some(Src::Reg(s0)), Some(Src::Reg(s1)), Some(Src::Reg(s2))] = &ops.src else {
        return None;
    };
    put(w, L::SRC_TYPE, t.type3.enc(s0.ty)?)?;
    three_src_op::<Src0<L>>(w, s0, s0.ty, t)?;
    three_src_op::<Src1<L>>(w, s1, s0.ty, t)?;
    three_src_op::<Src2<L>>(w, s2, s0.ty, t)
}

/// One source of a three-source instruction, `ty` the shared source type.
#[inline(always)]
fn three_src_op<O: Op>(w: &mut u128, r: &RegSrc, ty: DataType, t: &Tabs) -> Option<()> {
    let (n, sub) = grf(r.addr)?;
    // src1 / src2 with an F or HF shared type: their own precision (enc.gen8.3src-precision);
    // otherwise (src0, other types, Broadwell) the shared type.
    if O::HF_TYPE.is_some() && matches!(ty, DataType::F | DataType::HF) {
        put(w, O::HF_TYPE, t.prec3.enc(r.ty)?)?;
    } else if r.ty != ty {
        return None;
    }
    put(w, O::REG_NR, u64::from(n))?;
    subreg::<O>(w, sub)?;
    let rep = r.region.vstride == 0;
    put(w, O::REP_CTRL, t.rep.enc(rep)?)?;
    put(w, O::SWIZZLE, u64::from(rep_swizzle(rep, r.swizzle).0))?;
    put(w, O::ABS, u64::from(r.abs))?;
    put(w, O::NEGATE, u64::from(r.neg))
}

/// The operands and descriptors of a split send (`encode::sends`).
#[inline(always)]
fn sends<L: Fields>(w: &mut u128, i: &Insn, ops: &Ops, t: &Tabs, l: &Lay) -> Option<()> {
    let s = i.send.as_ref()?;
    let d = ops.dst.as_ref()?;
    let Addr::Direct { reg, sub } = d.addr else {
        return None;
    };
    let a16 = i.access == AccessMode::Align16;
    if d.ty != DataType::UD || d.hstride != 1 || (a16 && d.wrmask != 0xF) {
        return None;
    }
    let file = |r: Reg| match r {
        Reg::Grf(n) => Some((t.sends_file.enc(File::Grf)?, n)),
        Reg::Arf(n) => Some((t.sends_file.enc(File::Arf)?, n)),
    };
    let (fe, n) = file(reg)?;
    put(w, L::DST_REG_FILE, fe)?;
    put(w, L::DST_REG_NR, u64::from(n))?;
    subreg::<Dst_<L>>(w, sub)?;
    let [Some(Src::Reg(s0)), Some(Src::Reg(s1)), _] = &ops.src else {
        return None;
    };
    sends_payload::<Src0<L>>(w, s0, file)?;
    sends_payload::<Src1<L>>(w, s1, file)?;
    put(w, L::SFID, t.sfid.enc(s.sfid)?)?;
    match s.desc {
        SendDesc::A0(0) => put(w, L::SEL_REG32_DESC, 1)?,
        SendDesc::A0(_) => return None,
        SendDesc::Imm(v) => {
            let last = t.lays[t.a1_imm].imm;
            put_runtime(w, last, u64::from(imm_desc(i, v)), "send.desc").ok()?;
        }
    }
    match s.ex_desc {
        SendDesc::A0(n) => {
            put(w, L::SEL_REG32_EX_DESC, 1)?;
            put(w, L::EX_DESC_ADDR_SUBREG_NR, u64::from(n))
        }
        SendDesc::Imm(v) => {
            if v & !l.ex_desc_mask != 0 {
                return None;
            }
            for &(d, f) in &l.ex_desc {
                put_runtime(w, f, d.get(u128::from(v)), "send.ex_desc").ok()?;
            }
            Some(())
        }
    }
}

/// A payload register of a split send.
#[inline(always)]
fn sends_payload<O: Op>(
    w: &mut u128,
    r: &RegSrc,
    file: impl Fn(Reg) -> Option<(u64, u8)>,
) -> Option<()> {
    let Addr::Direct { reg, sub } = r.addr else {
        return None;
    };
    if r.ty != DataType::UD || r.neg || r.abs {
        return None;
    }
    let (fe, n) = file(reg)?;
    if O::REG_FILE.is_some() {
        put(w, O::REG_FILE, fe)?;
    } else if !matches!(reg, Reg::Grf(_)) {
        return None;
    }
    put(w, O::REG_NR, u64::from(n))?;
    subreg::<O>(w, sub)
}

/// The SFID and an immediate descriptor of `send`/`sendc` (a register descriptor, or an
/// extended descriptor other than 0: the table-driven encoder).
#[inline(always)]
fn send_desc<L: Fields>(w: &mut u128, i: &Insn, t: &Tabs) -> Option<()> {
    let s = i.send.as_ref()?;
    let (SendDesc::Imm(d), SendDesc::Imm(0)) = (s.desc, s.ex_desc) else {
        return None;
    };
    put(w, L::SFID, t.sfid.enc(s.sfid)?)?;
    let last = t.lays[t.a1_imm].imm;
    put_runtime(w, last, u64::from(imm_desc(i, d)), "send.desc").ok()
}

#[cfg(test)]
mod tests {
    use super::super::encode::{encode_word_with, STATIC_WORDS};
    use super::super::fields::{Kind, Lay, Tabs};
    use crate::codec::decode_word;
    use crate::isa::{Addr, Insn, Src};
    use crate::spec::{Opcode, Platform};

    /// Whether the compile-time encoders are meant to take `i` (when it is encodable): the
    /// kinds they write, direct operands.
    fn handled(i: &Insn, t: &Tabs) -> bool {
        let direct = |a: &Addr| matches!(a, Addr::Direct { .. });
        let kind = i.op.number(t.p).map(|n| t.kind(u64::from(n)));
        matches!(
            kind,
            Some(Kind::Alu | Kind::Math | Kind::Send | Kind::Sends | Kind::ThreeSrc)
        ) && i.dst.iter().all(|d| direct(&d.addr))
            && i.src.iter().flatten().all(|s| match s {
                Src::Reg(r) => direct(&r.addr),
                Src::Imm(_) => true,
            })
    }

    /// Random changes to a decoded instruction, so that values without an encoding, missing
    /// or extra operands and other errors reach both encoders.
    fn mutate(i: &mut Insn, r: u64) {
        match r % 8 {
            0 => i.exec_size = (r >> 8) as u8 % 40,
            1 => i.chan_off = (r >> 8) as u8 % 36,
            2 => i.flag.sub = (r >> 8) as u8 % 3,
            3 => i.src.swap(0, 1),
            4 => {
                if let Some(Src::Reg(s)) = &mut i.src[0] {
                    s.region.width = (r >> 8) as u8 % 20;
                }
            }
            5 => {
                if let Some(d) = &mut i.dst {
                    d.hstride = (r >> 8) as u8 % 5;
                }
            }
            6 => i.src[1] = None,
            _ => i.ctrl.eot = !i.ctrl.eot,
        }
    }

    /// The layout chosen from the selector values given directly is the one the preliminary
    /// word selects, and the word is written without error where they answer; `true` when
    /// they answered.
    fn direct_select_agrees(i: &Insn, p: Platform, t: &Tabs) -> bool {
        use super::super::encode::{operands, preliminary, select_values};
        let Some(num) = i.op.number(p) else {
            return false;
        };
        let kind = t.kind(u64::from(num));
        let mut ops = super::super::encode::Ops::NONE;
        if operands(i, t, kind, &mut ops).is_err() {
            return false;
        }
        let Some(v) = select_values(i, &ops, t, p, num, kind) else {
            return false;
        };
        let pw = preliminary(i, &ops, t, p, num, kind);
        let pw = pw.unwrap_or_else(|e| panic!("{p:?} {i:?}: {e:?}"));
        let (direct, word) = (t.select_by(&v), t.select(pw));
        assert_eq!(
            direct.map(|l| l as *const Lay),
            word.map(|l| l as *const Lay),
            "{p:?} {i:?}"
        );
        true
    }

    /// The compile-time encoders agree with the table-driven encoder: same word or same
    /// error, on instructions decoded from random words (defined opcodes, reserved bits mostly
    /// cleared), as decoded and randomly changed.
    #[test]
    fn static_encoders_agree_with_tables() {
        let mut next = crate::test_rng::xorshift(0x2545_F491_4F6C_DD1Du64);
        for p in Platform::ALL {
            let t = super::super::fields::tabs(p);
            assert!(t.lays.iter().all(|l| l.enc.is_some()), "{p:?}");
            let ops: Vec<u8> = (0..128u8)
                .filter(|&n| Opcode::from_number(p, n).is_some())
                .collect();
            let (mut ok, mut n_err, mut eligible, mut direct) = (0, 0, 0, 0);
            let before = STATIC_WORDS.with(|n| n.get());
            for k in 0..200_000 {
                let mut w = u128::from(next()) | u128::from(next()) << 64;
                let op = ops[(next() % ops.len() as u64) as usize];
                t.lays[t.base].opcode.set(&mut w, u64::from(op));
                if let Some(l) = t.select(w) {
                    w &= !l.reserved;
                    // GRF numbers of regfile.grf and a destination stride other than 0:
                    // the values enc.grf-reg-nr / enc.dst-hstride reserve would make most
                    // random words fail to decode.
                    for o in &l.op {
                        if o.reg_nr.is_some() {
                            let n = o.reg_nr.get(w) % u64::from(t.grf_limit);
                            o.reg_nr.set(&mut w, n);
                        }
                    }
                    let h = l.op[0].hstride;
                    if h.is_some() && h.get(w) == 0 {
                        h.set(&mut w, 1);
                    }
                }
                let Ok(mut i) = decode_word(w, p) else {
                    continue;
                };
                if k % 2 == 1 {
                    mutate(&mut i, next());
                }
                direct += usize::from(direct_select_agrees(&i, p, t));
                let fast = encode_word_with(&i, p, true);
                let tables = encode_word_with(&i, p, false);
                assert_eq!(fast, tables, "{p:?} {w:#034x} {i:?}");
                if fast.is_ok() {
                    ok += 1;
                    eligible += usize::from(handled(&i, t));
                } else {
                    n_err += 1;
                }
            }
            // Both outcomes are exercised, and the compile-time encoders answer for the words of
            // the instructions they handle.
            let fast = STATIC_WORDS.with(|n| n.get()) - before;
            assert!(ok > 4000 && n_err > 1000, "{p:?}: {ok} ok, {n_err} errors");
            assert!(direct > ok, "{p:?}: direct layout for {direct}, {ok} ok");
            // (About 900 on Cherryview, where random three-source words with an integer
            // SrcType and a set src1_type/src2_type bit are refused: enc.gen8.3src-precision,
            // and random ARF numbers of types the platform lacks: enc.arf-reg-type.)
            assert!(
                eligible > 850 && fast * 10 > eligible * 9,
                "{p:?}: {fast} of {eligible} words"
            );
        }
    }
}
