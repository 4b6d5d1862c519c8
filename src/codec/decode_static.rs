//! Native word -> [`Insn`] with every field position known at compile time.
//!
//! The same decoding as the table-driven `decode` module (same checks, same errors in the same
//! order), written once generically over [`Fields`]: spec-compiler generates one type per native
//! layout of spec/encoding whose associated constants are that layout's bit pieces
//! ([`crate::spec::native_fields`]). Each layout gets its own monomorphized decoder, in which
//! every field read is a constant shift and mask and every "does this layout have the field"
//! test is decided by the compiler. [`decoder_for`] maps a layout to its decoder; the codec
//! calls it once per platform when it builds its tables. Rare paths (operands under indirect
//! addressing, the extended descriptor of split sends) go through the table-driven code.

use super::decode::{addr_runtime, last_dword, R};
use super::error::{DecodeError, DecodeErrorKind as K};
use super::fields::{sext, File, Key, Kind, Lay, Map, Tabs, F};
use crate::isa::{
    Addr, Dst, Flag, Imm, Insn, Reg, RegSrc, Region, SendDesc, SendInfo, Src, Swizzle,
};
use crate::spec::encoding::Layout;
use crate::spec::native_fields::*;
use crate::spec::native_fields::{native_layouts, Fc, Fields};
use crate::spec::{AccessMode, DataType, Opcode};
use std::marker::PhantomData;

/// A layout's decoder: word, tables, the layout's resolved fields, opcode, its kind, output.
pub(crate) type DecodeFn = fn(u128, &Tabs, &Lay, Opcode, u64, Kind, &mut Insn) -> R<()>;

/// The monomorphized decoder of native layout `l`, if spec-compiler generated its fields.
pub(crate) fn decoder_for(l: &'static Layout) -> Option<DecodeFn> {
    macro_rules! table {
        ($($t:ident),*) => {
            [$((<$t as Fields>::LAYOUT, decode_with::<$t> as DecodeFn)),*]
        };
    }
    let all = native_layouts!(table);
    all.iter()
        .find(|(x, _)| std::ptr::eq(*x, l))
        .map(|&(_, f)| f)
}

/// The fields of one operand (dst, src0, src1, src2) as constants (shared with the
/// compile-time encoders, module `encode_static`).
pub(super) trait Op {
    const REG_FILE: Fc;
    const REG_TYPE: Fc;
    const REG_NR: Fc;
    const SUBREG_NR: Fc;
    const SUBREG16: Fc;
    const SUBREG4: Fc;
    const SUBREG2: Fc;
    const HSTRIDE: Fc;
    const WIDTH: Fc;
    const VSTRIDE: Fc;
    const SWIZZLE: Fc;
    const ABS: Fc;
    const NEGATE: Fc;
    const ADDRESS_MODE: Fc;
    const WRITEMASK: Fc;
    const REP_CTRL: Fc;
    /// Three-source `src1_type` / `src2_type` (enc.gen8.3src-precision).
    const HF_TYPE: Fc;
}

/// Operand `dst`, `src0`, `src1`, `src2` of layout `L`.
pub(super) struct Dst_<L>(PhantomData<L>);
pub(super) struct Src0<L>(PhantomData<L>);
pub(super) struct Src1<L>(PhantomData<L>);
pub(super) struct Src2<L>(PhantomData<L>);

macro_rules! op_impl {
    ($ty:ident, $hf:ident, $($name:ident = $field:ident),*) => {
        impl<L: Fields> Op for $ty<L> {
            $(const $name: Fc = L::$field;)*
            const HF_TYPE: Fc = L::$hf;
        }
    };
}

macro_rules! op_impls {
    ($ty:ident, $hf:ident, $p:ident) => {
        paste_op!($ty, $hf, $p);
    };
}

macro_rules! paste_op {
    ($ty:ident, $hf:ident, DST) => {
        op_impl!(
            $ty,
            $hf,
            REG_FILE = DST_REG_FILE,
            REG_TYPE = DST_REG_TYPE,
            REG_NR = DST_REG_NR,
            SUBREG_NR = DST_SUBREG_NR,
            SUBREG16 = DST_SUBREG16,
            SUBREG4 = DST_SUBREG4,
            SUBREG2 = DST_SUBREG2,
            HSTRIDE = DST_HSTRIDE,
            WIDTH = DST_WIDTH,
            VSTRIDE = DST_VSTRIDE,
            SWIZZLE = DST_SWIZZLE,
            ABS = DST_ABS,
            NEGATE = DST_NEGATE,
            ADDRESS_MODE = DST_ADDRESS_MODE,
            WRITEMASK = DST_WRITEMASK,
            REP_CTRL = DST_REP_CTRL
        );
    };
    ($ty:ident, $hf:ident, SRC0) => {
        op_impl!(
            $ty,
            $hf,
            REG_FILE = SRC0_REG_FILE,
            REG_TYPE = SRC0_REG_TYPE,
            REG_NR = SRC0_REG_NR,
            SUBREG_NR = SRC0_SUBREG_NR,
            SUBREG16 = SRC0_SUBREG16,
            SUBREG4 = SRC0_SUBREG4,
            SUBREG2 = SRC0_SUBREG2,
            HSTRIDE = SRC0_HSTRIDE,
            WIDTH = SRC0_WIDTH,
            VSTRIDE = SRC0_VSTRIDE,
            SWIZZLE = SRC0_SWIZZLE,
            ABS = SRC0_ABS,
            NEGATE = SRC0_NEGATE,
            ADDRESS_MODE = SRC0_ADDRESS_MODE,
            WRITEMASK = SRC0_WRITEMASK,
            REP_CTRL = SRC0_REP_CTRL
        );
    };
    ($ty:ident, $hf:ident, SRC1) => {
        op_impl!(
            $ty,
            $hf,
            REG_FILE = SRC1_REG_FILE,
            REG_TYPE = SRC1_REG_TYPE,
            REG_NR = SRC1_REG_NR,
            SUBREG_NR = SRC1_SUBREG_NR,
            SUBREG16 = SRC1_SUBREG16,
            SUBREG4 = SRC1_SUBREG4,
            SUBREG2 = SRC1_SUBREG2,
            HSTRIDE = SRC1_HSTRIDE,
            WIDTH = SRC1_WIDTH,
            VSTRIDE = SRC1_VSTRIDE,
            SWIZZLE = SRC1_SWIZZLE,
            ABS = SRC1_ABS,
            NEGATE = SRC1_NEGATE,
            ADDRESS_MODE = SRC1_ADDRESS_MODE,
            WRITEMASK = SRC1_WRITEMASK,
            REP_CTRL = SRC1_REP_CTRL
        );
    };
    ($ty:ident, $hf:ident, SRC2) => {
        op_impl!(
            $ty,
            $hf,
            REG_FILE = SRC2_REG_FILE,
            REG_TYPE = SRC2_REG_TYPE,
            REG_NR = SRC2_REG_NR,
            SUBREG_NR = SRC2_SUBREG_NR,
            SUBREG16 = SRC2_SUBREG16,
            SUBREG4 = SRC2_SUBREG4,
            SUBREG2 = SRC2_SUBREG2,
            HSTRIDE = SRC2_HSTRIDE,
            WIDTH = SRC2_WIDTH,
            VSTRIDE = SRC2_VSTRIDE,
            SWIZZLE = SRC2_SWIZZLE,
            ABS = SRC2_ABS,
            NEGATE = SRC2_NEGATE,
            ADDRESS_MODE = SRC2_ADDRESS_MODE,
            WRITEMASK = SRC2_WRITEMASK,
            REP_CTRL = SRC2_REP_CTRL
        );
    };
}

op_impls!(Dst_, NO_FIELD, DST);
op_impls!(Src0, NO_FIELD, SRC0);
op_impls!(Src1, SRC1_TYPE, SRC1);
op_impls!(Src2, SRC2_TYPE, SRC2);

/// `L::NO_FIELD`: no layout has it (for operands without a three-source type bit).
trait NoField {
    const NO_FIELD: Fc = Fc::NONE;
}
impl<L: Fields> NoField for L {}

/// The error for field `f` holding `v`.
#[cold]
#[inline(never)]
fn bad(kind: K, f: Fc, v: u64) -> DecodeError {
    if !f.is_some() {
        return DecodeError::missing("field");
    }
    DecodeError {
        kind,
        field: f.name,
        byte: f.byte(),
        value: v,
        uncompacted: false,
        rule: None,
    }
}

/// The value table entry of field `f` (a missing field is a spec inconsistency, reported).
#[inline(always)]
fn lk<T: Key>(m: &Map<T>, f: Fc, name: &'static str, w: u128) -> R<T> {
    if !f.is_some() {
        return Err(DecodeError::missing(name));
    }
    let v = f.get(w);
    match m.get(v) {
        Some(x) => Ok(x),
        None => Err(bad(K::ReservedValue, f, v)),
    }
}

/// Field `$f`, which the layout must have (a spec inconsistency otherwise: returns the error).
/// A macro rather than a function returning `R<Fc>`, so that the compile-time field stays a
/// constant (a `Result` holding it is built on the stack).
macro_rules! need {
    ($f:expr, $name:expr) => {{
        let f: Fc = $f;
        if !f.is_some() {
            return Err(DecodeError::missing($name));
        }
        f
    }};
}

fn decode_with<L: Fields>(
    w: u128,
    t: &Tabs,
    l: &Lay,
    op: Opcode,
    n: u64,
    kind: Kind,
    i: &mut Insn,
) -> R<()> {
    *i = Insn::new(op);
    header::<L>(i, w, t)?;
    let a16 = i.access == AccessMode::Align16;
    match kind {
        Kind::Bare => {}
        Kind::Alu | Kind::Math => {
            i.dst = Some(dst::<L>(w, t, l, a16)?);
            let n = op.info().srcs.min(2) as usize;
            if n == 2 && is_imm(w, t, L::SRC0_REG_FILE)? {
                // Only the last source of a two-source instruction may be an immediate.
                let f = need!(L::SRC0_REG_FILE, "src0_reg_file");
                return Err(bad(K::Malformed, f, f.get(w)));
            }
            if n >= 1 {
                i.src[0] = Some(src::<L, Src0<L>, 0>(w, t, l, a16)?);
            }
            if n >= 2 {
                i.src[1] = Some(src::<L, Src1<L>, 1>(w, t, l, a16)?);
            }
        }
        Kind::ThreeSrc => three_src::<L>(i, w, t)?,
        Kind::Send => send::<L>(i, w, t, l, a16)?,
        Kind::Sends => sends::<L>(i, w, t, l)?,
        Kind::Branch => {
            // Gen8+ brc has JIP/UIP only with an immediate src0 (enc.gen8.branch-opcodes).
            if op == Opcode::Brc && !is_imm(w, t, L::SRC0_REG_FILE)? {
                let f = need!(L::SRC0_REG_FILE, "src0_reg_file");
                return Err(bad(K::Unsupported, f, f.get(w)));
            }
            let j = t.jumps[(n & 0x7f) as usize];
            if j & 1 != 0 {
                let f = need!(L::JIP, "jip");
                i.jip = Some(sext(f.get(w), f.width) as i32);
            }
            if j & 2 != 0 {
                let f = need!(L::UIP, "uip");
                i.uip = Some(sext(f.get(w), f.width) as i32);
            }
        }
        Kind::Jmpi => i.src[1] = Some(src::<L, Src1<L>, 1>(w, t, l, a16)?),
        Kind::Wait => i.dst = Some(dst::<L>(w, t, l, a16)?),
        Kind::Ret => i.src[0] = Some(src::<L, Src0<L>, 0>(w, t, l, a16)?),
        Kind::Jump => {
            if matches!(op, Opcode::Call | Opcode::Calla) {
                i.dst = Some(dst::<L>(w, t, l, a16)?);
            }
            match src::<L, Src0<L>, 0>(w, t, l, a16)? {
                Src::Imm(Imm { bits, .. }) => i.jip = Some(bits as u32 as i32),
                Src::Reg(_) => {
                    let f = need!(L::SRC0_REG_FILE, "src0_reg_file");
                    return Err(bad(K::Unsupported, f, f.get(w)));
                }
            }
        }
    }
    // The operands are built canonical (Align1 sources without swizzle, Align16 regions
    // `<v;4,1>`, Align1 destinations writing all channels) except three-source ones, which
    // keep their fields whatever the access mode; the table decoder's results are the same
    // (unit test `static_decoders_agree_with_tables`).
    if kind == Kind::ThreeSrc {
        i.canonicalize();
    } else {
        i.canonicalize_send();
    }
    Ok(())
}

#[inline(always)]
fn header<L: Fields>(i: &mut Insn, w: u128, t: &Tabs) -> R<()> {
    i.access = lk(&t.access, L::ACCESS_MODE, "access_mode", w)?;
    i.exec_size = lk(&t.exec, L::EXEC_SIZE, "exec_size", w)?;
    let q = lk(&t.qtr, L::QTR_CONTROL, "qtr_control", w)?;
    let nib = t.nib.get(L::NIB_CONTROL.get(w)).unwrap_or(false);
    // NibCtrl selects the second group of four channels of the quarter.
    i.chan_off = q + if nib { 4 } else { 0 };
    let pm = if i.access == AccessMode::Align16 {
        &t.pred16
    } else {
        &t.pred
    };
    i.pred = lk(pm, L::PRED_CONTROL, "pred_control", w)?;
    i.pred_inv = L::PRED_INV.get(w) != 0;
    i.flag = Flag {
        reg: L::FLAG_REG_NR.get(w) as u8,
        sub: L::FLAG_SUBREG_NR.get(w) as u8,
    };
    if L::COND_MODIFIER.is_some() {
        let f = L::COND_MODIFIER;
        let v = f.get(w);
        i.cmod = t.cmod.get(v).ok_or_else(|| bad(K::ReservedValue, f, v))?;
    }
    if L::MATH_FUNCTION.is_some() {
        let f = L::MATH_FUNCTION;
        let v = f.get(w);
        i.math = t.math.get(v).ok_or_else(|| bad(K::ReservedValue, f, v))?;
    }
    i.sat = L::SATURATE.get(w) != 0;
    let c = &mut i.ctrl;
    c.no_mask = t.nomask.get(L::MASK_CONTROL.get(w)).unwrap_or(false);
    c.acc_wr = L::ACC_WR_CONTROL.get(w) != 0;
    c.branch_ctrl = L::BRANCH_CONTROL.get(w) != 0;
    c.no_src_dep_set = L::NO_SRC_DEP_SET.get(w) != 0;
    (c.no_dd_clr, c.no_dd_chk) = lk(&t.dep, L::DEP_CTRL, "dep_ctrl", w)?;
    c.thread = lk(&t.thread, L::THREAD_CONTROL, "thread_control", w)?;
    c.breakpoint = L::DEBUG_CONTROL.get(w) != 0;
    c.eot = L::EOT.get(w) != 0;
    Ok(())
}

#[inline(always)]
fn file(t: &Tabs, f: Fc, w: u128) -> R<File> {
    let v = f.get(w);
    t.file.get(v).ok_or_else(|| bad(K::ReservedValue, f, v))
}

#[inline(always)]
fn is_imm(w: u128, t: &Tabs, f: Fc) -> R<bool> {
    if f.is_some() {
        Ok(file(t, f, w)? == File::Imm)
    } else {
        Ok(false)
    }
}

/// The subregister byte offset of an operand (its subregister field times its unit).
#[inline(always)]
fn subreg<O: Op>(w: u128) -> u64 {
    if O::SUBREG_NR.is_some() {
        O::SUBREG_NR.get(w)
    } else if O::SUBREG16.is_some() {
        O::SUBREG16.get(w) * 16
    } else if O::SUBREG4.is_some() {
        O::SUBREG4.get(w) * 4
    } else {
        O::SUBREG2.get(w) * 2
    }
}

/// Direct or indirect addressing of operand `O` (number `k`: 0 = dst, 1 = src0, 2 = src1).
#[inline(always)]
fn addr<O: Op>(w: u128, t: &Tabs, l: &Lay, k: usize, file: File) -> R<Addr> {
    let am = O::ADDRESS_MODE;
    let indirect = if am.is_some() {
        let v = am.get(w);
        t.indirect
            .get(v)
            .ok_or_else(|| bad(K::ReservedValue, am, v))?
    } else {
        false
    };
    if indirect {
        let f = l.op.get(k).map_or(F::NONE, |o| o.reg_file);
        return addr_runtime(w, l, t, k, file, f);
    }
    let n = O::REG_NR.get(w) as u8;
    let reg = match file {
        File::Grf => Reg::Grf(n),
        File::Arf => Reg::Arf(n),
        File::Mrf => return Err(bad(K::Unsupported, O::REG_FILE, O::REG_FILE.get(w))),
        File::Imm => return Err(bad(K::Malformed, O::REG_FILE, O::REG_FILE.get(w))),
    };
    Ok(Addr::Direct {
        reg,
        sub: subreg::<O>(w).min(255) as u8,
    })
}

#[inline(always)]
fn reg_type(t: &Tabs, f: Fc, w: u128, imm: bool) -> R<DataType> {
    let v = f.get(w);
    let tab = if imm { &t.imm_type } else { &t.reg_type };
    tab.get(v as usize)
        .copied()
        .flatten()
        .ok_or_else(|| bad(K::ReservedValue, f, v))
}

#[inline(always)]
fn dst<L: Fields>(w: u128, t: &Tabs, l: &Lay, a16: bool) -> R<Dst> {
    type O<L> = Dst_<L>;
    let ff = need!(O::<L>::REG_FILE, "dst_reg_file");
    let file = file(t, ff, w)?;
    if file == File::Imm {
        return Err(bad(K::Malformed, ff, ff.get(w)));
    }
    let tf = need!(O::<L>::REG_TYPE, "dst_reg_type");
    let ty = reg_type(t, tf, w, false)?;
    let hstride = lk(&t.dst_hstride, O::<L>::HSTRIDE, "dst_hstride", w)?;
    let wrmask = if a16 {
        O::<L>::WRITEMASK.get(w) as u8
    } else {
        0xF
    };
    Ok(Dst {
        addr: addr::<O<L>>(w, t, l, 0, file)?,
        ty,
        hstride,
        wrmask,
    })
}

/// Source `S` (0 or 1: operand `O`) of a one- or two-source layout.
#[inline(always)]
fn src<L: Fields, O: Op, const S: usize>(w: u128, t: &Tabs, l: &Lay, a16: bool) -> R<Src> {
    let (fname, tname) = if S == 0 {
        ("src0_reg_file", "src0_reg_type")
    } else {
        ("src1_reg_file", "src1_reg_type")
    };
    let ff = need!(O::REG_FILE, fname);
    let file = file(t, ff, w)?;
    let tf = need!(O::REG_TYPE, tname);
    if file == File::Imm {
        let ty = reg_type(t, tf, w, true)?;
        let f = need!(L::IMM, "imm");
        // A 64-bit type needs the 64-bit immediate (src0 of a one-source instruction on
        // Gen8+); Haswell's dim reads 64 bits whatever the type.
        if ty.bits() == 64 && f.width < 64 {
            return Err(bad(K::Malformed, tf, tf.get(w)));
        }
        // Haswell's dim: the type field is not read; the immediate is typed F (opcode.dim,
        // enc.hsw.dim-a1 / -a16: a DF value typed F), whatever the field holds.
        let ty = if f.width == 64 && ty.bits() < 64 {
            DataType::F
        } else {
            ty
        };
        return Ok(Src::Imm(Imm::new(ty, f.get(w))));
    }
    let ty = reg_type(t, tf, w, false)?;
    let region = if a16 {
        Region::new(
            lk(&t.vstride, O::VSTRIDE, "vstride", w)?,
            Region::A16.width,
            Region::A16.hstride,
        )
    } else {
        Region::new(
            lk(&t.vstride, O::VSTRIDE, "vstride", w)?,
            lk(&t.width, O::WIDTH, "width", w)?,
            lk(&t.hstride, O::HSTRIDE, "hstride", w)?,
        )
    };
    let swizzle = if a16 {
        Swizzle(O::SWIZZLE.get(w) as u8)
    } else {
        Swizzle::XYZW
    };
    let addr = addr::<O>(w, t, l, S + 1, file)?;
    Ok(Src::Reg(RegSrc {
        addr,
        ty,
        region,
        swizzle,
        neg: O::NEGATE.get(w) != 0,
        abs: O::ABS.get(w) != 0,
    }))
}

#[inline(always)]
fn three_src<L: Fields>(i: &mut Insn, w: u128, t: &Tabs) -> R<()> {
    let sf = need!(L::SRC_TYPE, "src_type");
    let st = t
        .type3
        .get(sf.get(w))
        .ok_or_else(|| bad(K::ReservedValue, sf, sf.get(w)))?;
    let df = need!(L::DST_TYPE, "dst_type");
    let dt = t
        .type3
        .get(df.get(w))
        .ok_or_else(|| bad(K::ReservedValue, df, df.get(w)))?;
    i.dst = Some(Dst {
        addr: Addr::Direct {
            reg: Reg::Grf(L::DST_REG_NR.get(w) as u8),
            sub: subreg3::<Dst_<L>>(w),
        },
        ty: dt,
        hstride: 1,
        wrmask: L::DST_WRITEMASK.get(w) as u8,
    });
    i.src[0] = Some(src3::<Src0<L>>(w, t, st));
    i.src[1] = Some(src3::<Src1<L>>(w, t, src12::<Src1<L>>(w, t, st)?));
    i.src[2] = Some(src3::<Src2<L>>(w, t, src12::<Src2<L>>(w, t, st)?));
    Ok(())
}

/// The type of three-source src1/src2 (`decode::src12_type`).
#[inline(always)]
fn src12<O: Op>(w: u128, t: &Tabs, st: DataType) -> R<DataType> {
    let v = O::HF_TYPE.get(w);
    super::decode::src12_type(t, O::HF_TYPE.is_some(), v, st)
        .map_err(|()| bad(K::ReservedValue, O::HF_TYPE, v))
}

/// A three-source operand's subregister (0 when the layout has no subregister field).
#[inline(always)]
fn subreg3<O: Op>(w: u128) -> u8 {
    let any = O::SUBREG_NR.is_some()
        || O::SUBREG16.is_some()
        || O::SUBREG4.is_some()
        || O::SUBREG2.is_some();
    if any {
        subreg::<O>(w).min(255) as u8
    } else {
        0
    }
}

/// A three-source operand of type `ty`.
#[inline(always)]
fn src3<O: Op>(w: u128, t: &Tabs, ty: DataType) -> Src {
    let rep = t.rep.get(O::REP_CTRL.get(w)).unwrap_or(false);
    Src::Reg(RegSrc {
        addr: Addr::Direct {
            reg: Reg::Grf(O::REG_NR.get(w) as u8),
            sub: subreg3::<O>(w),
        },
        ty,
        region: Region::new(
            if rep { 0 } else { Region::A16.vstride },
            Region::A16.width,
            Region::A16.hstride,
        ),
        swizzle: super::encode::rep_swizzle(rep, Swizzle(O::SWIZZLE.get(w) as u8)),
        neg: O::NEGATE.get(w) != 0,
        abs: O::ABS.get(w) != 0,
    })
}

#[inline(always)]
fn send_sfid<L: Fields>(w: u128, t: &Tabs) -> R<u8> {
    let f = need!(L::SFID, "sfid");
    let v = f.get(w);
    t.sfid.get(v).ok_or_else(|| bad(K::ReservedValue, f, v))
}

#[inline(always)]
fn send<L: Fields>(i: &mut Insn, w: u128, t: &Tabs, l: &Lay, a16: bool) -> R<()> {
    i.dst = Some(dst::<L>(w, t, l, a16)?);
    if is_imm(w, t, L::SRC0_REG_FILE)? {
        let f = need!(L::SRC0_REG_FILE, "src0_reg_file");
        return Err(bad(K::Malformed, f, f.get(w)));
    }
    i.src[0] = Some(src::<L, Src0<L>, 0>(w, t, l, a16)?);
    let desc = if is_imm(w, t, L::SRC1_REG_FILE)? {
        SendDesc::Imm(last_dword(w, t)?)
    } else {
        // A register descriptor: an address subregister (in dwords).
        let ff = need!(L::SRC1_REG_FILE, "src1_reg_file");
        match src::<L, Src1<L>, 1>(w, t, l, a16)? {
            Src::Reg(RegSrc {
                addr: Addr::Direct { reg, sub },
                ..
            }) if reg == Reg::Arf(t.a0) && sub % 4 == 0 => SendDesc::A0(sub / 4),
            _ => return Err(bad(K::Unsupported, ff, ff.get(w))),
        }
    };
    i.send = Some(SendInfo {
        sfid: send_sfid::<L>(w, t)?,
        desc,
        // Gen9: ExDesc[31:16] in the src0 region bits (enc.gen9.send-a1-ex-desc).
        ex_desc: SendDesc::Imm(l.imm_ex_desc(w)),
    });
    Ok(())
}

#[inline(always)]
fn sends<L: Fields>(i: &mut Insn, w: u128, t: &Tabs, l: &Lay) -> R<()> {
    let rf = |name: &'static str, f: Fc| -> R<Reg> {
        let f = need!(f, name);
        let v = f.get(w);
        match t.sends_file.get(v) {
            Some(File::Grf) => Ok(Reg::Grf(0)),
            Some(File::Arf) => Ok(Reg::Arf(0)),
            _ => Err(bad(K::ReservedValue, f, v)),
        }
    };
    // The split-send layouts have no indirect operand fields.
    let direct = |f: Fc| -> R<()> {
        let v = f.get(w);
        if f.is_some() && t.indirect.get(v) != Some(false) {
            return Err(bad(K::Unsupported, f, v));
        }
        Ok(())
    };
    let with_nr = |r: Reg, n: u64| -> Reg {
        match r {
            Reg::Grf(_) => Reg::Grf(n as u8),
            Reg::Arf(_) => Reg::Arf(n as u8),
        }
    };
    direct(L::DST_ADDRESS_MODE)?;
    direct(L::SRC0_ADDRESS_MODE)?;
    let dreg = with_nr(rf("dst_reg_file", L::DST_REG_FILE)?, L::DST_REG_NR.get(w));
    i.dst = Some(Dst {
        addr: Addr::Direct {
            reg: dreg,
            sub: subreg3::<Dst_<L>>(w),
        },
        ty: DataType::UD,
        hstride: 1,
        wrmask: 0xF,
    });
    i.src[0] = Some(Src::Reg(RegSrc::new(
        Reg::Grf(L::SRC0_REG_NR.get(w) as u8),
        subreg3::<Src0<L>>(w),
        DataType::UD,
        Region::SCALAR,
    )));
    let s1reg = with_nr(
        rf("src1_reg_file", L::SRC1_REG_FILE)?,
        L::SRC1_REG_NR.get(w),
    );
    i.src[1] = Some(Src::Reg(RegSrc::new(
        s1reg,
        0,
        DataType::UD,
        Region::SCALAR,
    )));
    let desc = if L::SEL_REG32_DESC.get(w) != 0 {
        SendDesc::A0(0)
    } else {
        SendDesc::Imm(last_dword(w, t)?)
    };
    let ex_desc = if L::SEL_REG32_EX_DESC.get(w) != 0 {
        SendDesc::A0(L::EX_DESC_ADDR_SUBREG_NR.get(w) as u8)
    } else {
        SendDesc::Imm(l.imm_ex_desc(w))
    };
    i.send = Some(SendInfo {
        sfid: send_sfid::<L>(w, t)?,
        desc,
        ex_desc,
    });
    Ok(())
}
