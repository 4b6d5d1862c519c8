//! Floating-point instructions, through the float layer (`crate::float`: the EU's IEEE/ALT
//! semantics from cr0 and spec/float_modes.toml, conversions from spec/conversions.toml,
//! comparisons from spec/compare.toml) and the math layer (`crate::math`).
//!
//! Pipeline per channel: each source is converted to the execution type (the widest float
//! source type; HF and F mixed execute as F) by `float::convert`, then the source modifiers act
//! on the sign bit (seed000 §1.1: after the conversion); the operation runs under the
//! instruction's [`Policy`]; the result is saturated (`float::saturate`) or converted to the
//! destination type (`float::convert`, with saturation); the condition modifier reads the final
//! value (`float::cond_flag`); the implicit accumulator receives the execution-type result.
//!
//! Executed: mov (float conversions), sel (predicated, min/max), csel, add, mul, mad, mac,
//! rndd/rndu/rnde/rndz, cmp, cmpn, math. Not executed (no float-layer entry yet): frc, lrp,
//! dp2/dp3/dp4/dph, line, pln, madm, f32to16/f16to32, and DF arithmetic on
//! feature.df-element-size-4 platforms.

#![allow(clippy::needless_range_loop)] // channels index several parallel arrays

use super::acc::{implicit_addr, implicit_writes};
use super::alu::{enables, gather_bits, write_dst};
use super::flags::{int_cond, FlagWriter};
use super::mask::flag_base;
use super::operand::{resolve_dst, resolve_src, Space, SrcPlan};
use super::ops_int::Vals;
use super::region::MAX_CHANNELS;
use super::{ExecError, ExecOptions, StepInfo};
use crate::float::{self, Applied, FloatEnv, FloatOut, FloatType, Policy};
use crate::fp::Round;
use crate::isa::{Dst, Insn, Src};
use crate::spec::compare::GridKind;
use crate::spec::registers::field::CR0_0_FP_MODE;
use crate::spec::{AccessMode, CondMod, DataType, FpOps, MathFn, Opcode, PredCtrl};
use crate::state::ThreadState;

fn unsupported(what: String) -> ExecError {
    ExecError::Unsupported { what }
}

/// The float environment of the thread (cr0.0), and whether its float fields are undefined.
pub fn float_env(st: &ThreadState) -> (FloatEnv, bool) {
    let p = st.platform();
    let Some((v, u)) = st.arf_dword("cr0", 0) else {
        return (FloatEnv::new(p), true);
    };
    let env = FloatEnv::from_cr0(p, v);
    // The fields FloatEnv reads: rounding, ALT mode, the platform's denorm-mode bits.
    let used = FloatEnv::from_cr0(p, u32::MAX).cr0() | CR0_0_FP_MODE.mask();
    (env, u & used != 0)
}

/// How one opcode computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Mov,
    Sel,
    Csel,
    Add,
    Mul,
    Mad,
    Mac,
    Rnd(Round),
    Cmp(GridKind),
    Math(MathFn),
}

fn kind(insn: &Insn) -> Option<Kind> {
    Some(match insn.op {
        Opcode::Mov => Kind::Mov,
        Opcode::Sel => Kind::Sel,
        Opcode::Csel => Kind::Csel,
        Opcode::Add => Kind::Add,
        Opcode::Mul => Kind::Mul,
        Opcode::Mad => Kind::Mad,
        Opcode::Mac => Kind::Mac,
        Opcode::Rndd => Kind::Rnd(Round::Rd),
        Opcode::Rndu => Kind::Rnd(Round::Ru),
        Opcode::Rnde => Kind::Rnd(Round::Rtne),
        Opcode::Rndz => Kind::Rnd(Round::Rtz),
        Opcode::Cmp => Kind::Cmp(GridKind::Cmp),
        Opcode::Cmpn => Kind::Cmp(GridKind::Cmpn),
        Opcode::Math => Kind::Math(insn.math),
        _ => return None,
    })
}

/// The execution type of float sources: the widest; HF with F executes as F.
fn exec_float(tys: &[DataType]) -> Option<FloatType> {
    let mut best: Option<FloatType> = None;
    for t in tys {
        let f = FloatType::from_data_type(*t)?;
        best = Some(match best {
            None => f,
            Some(b) if f.bits() > b.bits() => f,
            Some(b) => b,
        });
    }
    best
}

/// Execute a float instruction: every source is a float (or the math instruction).
#[allow(clippy::too_many_arguments)]
pub(crate) fn execute(
    st: &mut ThreadState,
    insn: &Insn,
    n: usize,
    dst: &Dst,
    srcs: &[&Src],
    tys: &[DataType],
    info: &mut StepInfo,
    opts: &ExecOptions,
) -> Result<(), ExecError> {
    let p = st.platform();
    let op = insn.op;
    let Some(k) = kind(insn) else {
        return Err(unsupported(format!(
            "{} with float operands: the float layer has no entry for it yet",
            op.name()
        )));
    };
    let math = matches!(k, Kind::Math(_));
    // The execution type: float sources (math also takes D/UD for the integer divide).
    let (exec_dt, exec_ft) = match (exec_float(tys), math) {
        (Some(f), _) => (f.data_type(), Some(f)),
        (None, true) => (tys.first().copied().unwrap_or(DataType::UD), None),
        (None, false) => {
            return Err(unsupported(format!(
                "{} mixing integer and float sources",
                op.name()
            )))
        }
    };
    let (env, env_undef) = float_env(st);
    let three = insn.is_three_src();
    let dplan = resolve_dst(st, dst, insn.access, n, None)?;
    let mut plans: [Option<SrcPlan>; 3] = [None, None, None];
    for (i, s) in srcs.iter().enumerate() {
        plans[i] = Some(resolve_src(st, s, i, insn.access, three, n, None)?);
    }
    let (em, pm) = enables(st, insn, n);
    let sel_like = matches!(k, Kind::Sel | Kind::Csel);
    let mut en = if sel_like && insn.pred != PredCtrl::None && k == Kind::Sel {
        em
    } else {
        em.and(pm)
    };
    if insn.access == AccessMode::Align16 {
        let wm = dplan.en_lo | dplan.en_hi;
        en.on &= wm;
        en.unknown &= wm;
    }

    // Gather and convert the sources to the execution type, then apply the modifiers.
    let mut vals = [Vals::empty(exec_dt); 3];
    let mut mismatch = 0u32;
    for (i, pl) in plans.iter().enumerate() {
        let Some(pl) = pl else { continue };
        let v = &mut vals[i];
        mismatch |= gather_bits(st, pl, n, v);
        let src_dt = pl.ty;
        for ch in 0..n {
            let mut b = v.bits[ch];
            if src_dt != exec_dt && !(math && i == 1 && src_dt == DataType::UD) {
                match float::convert(&env, src_dt, exec_dt, b, false) {
                    Ok(c) => b = c.bits,
                    Err(e) => return Err(unsupported(format!("{}: {e}", op.name()))),
                }
            }
            if let Some(f) = exec_ft {
                if pl.abs {
                    b &= !f.sign();
                }
                if pl.neg {
                    b ^= f.sign();
                }
            } else if pl.abs || pl.neg {
                let x = super::convert::int_value(exec_dt, b);
                let x = if pl.abs { x.abs() } else { x };
                let x = if pl.neg { -x } else { x };
                b = (x as u64) & crate::state::mask_bits(exec_dt.bits());
            }
            v.bits[ch] = b;
        }
    }
    // One-source math functions ignore src1 (null or absent).
    if let Kind::Math(f) = k {
        if crate::math::func_row(f, exec_dt, p).is_some_and(|r| r.srcs < 2) {
            vals[1].undef = 0;
        }
    }
    // The implicit accumulator source of mac.
    let mut accv = Vals::empty(exec_dt);
    if k == Kind::Mac {
        for ch in 0..n {
            match implicit_addr(st, p, exec_dt, usize::from(insn.chan_off), ch) {
                Some(a) => {
                    let r = st.acc_read(a, exec_dt);
                    accv.bits[ch] = r.bits;
                    accv.undef |= u32::from(r.undefined) << ch;
                    mismatch |= u32::from(r.mismatch) << ch;
                }
                None => accv.undef |= 1 << ch,
            }
        }
    }
    let mut violations = Vec::new();
    if mismatch & en.maybe() != 0 {
        violations.push(super::runtime::Violation {
            rule: super::runtime::Rule::AccReadTypeMismatch.id(),
            channels: mismatch & en.maybe(),
        });
    }

    // Compute.
    let ops = match k {
        Kind::Mad | Kind::Mac => FpOps::Fused,
        Kind::Sel | Kind::Csel => FpOps::Minmax,
        Kind::Cmp(_) => FpOps::Compare,
        Kind::Mov => FpOps::Conversion,
        _ => FpOps::Arith,
    };
    let pol = exec_ft.map(|f| Policy::new(&env, f, ops));
    let mut res = [0u64; MAX_CHANNELS];
    let mut out_flags = [crate::fp::Flags::NONE; MAX_CHANNELS];
    let mut cond = [false; MAX_CHANNELS];
    let mut rem: [Option<u64>; MAX_CHANNELS] = [None; MAX_CHANNELS];
    let mut undef: u32 = vals.iter().fold(accv.undef, |a, v| a | v.undef);
    if env_undef {
        undef = u32::MAX;
    }
    let (a, b, c) = (&vals[0], &vals[1], &vals[2]);
    for ch in 0..n {
        if en.maybe() >> ch & 1 == 0 {
            continue;
        }
        let r: FloatOut = match (k, &pol) {
            (Kind::Mov, _) => raw(a.bits[ch]),
            (Kind::Sel, Some(pol)) => {
                if insn.pred != PredCtrl::None {
                    if pm.unknown >> ch & 1 == 1 {
                        undef |= 1 << ch;
                    }
                    raw(if pm.on >> ch & 1 == 1 {
                        a.bits[ch]
                    } else {
                        b.bits[ch]
                    })
                } else if insn.cmod != CondMod::None {
                    pol.sel_minmax(insn.cmod, a.bits[ch], b.bits[ch])
                } else {
                    raw(a.bits[ch])
                }
            }
            (Kind::Csel, Some(_)) => {
                // opcode.csel: src0 where src2 compared with zero satisfies the condition
                // modifier, src1 elsewhere.
                let f = exec_ft.unwrap_or(FloatType::F);
                let t = float::compare(&env, insn.cmod, GridKind::Cmp, f, c.bits[ch], 0);
                raw(if t { a.bits[ch] } else { b.bits[ch] })
            }
            (Kind::Add, Some(pol)) => pol.add(a.bits[ch], b.bits[ch]),
            (Kind::Mul, Some(pol)) => pol.mul(a.bits[ch], b.bits[ch]),
            // mad: src0 + src1 * src2 with one rounding (float::mad).
            (Kind::Mad, Some(pol)) => pol.fma(b.bits[ch], c.bits[ch], a.bits[ch]),
            // mac: acc + src0 * src1, a fused operation (fp_ops `fused`).
            (Kind::Mac, Some(pol)) => pol.fma(a.bits[ch], b.bits[ch], accv.bits[ch]),
            (Kind::Rnd(dir), Some(pol)) => pol.rnd(a.bits[ch], dir),
            (Kind::Cmp(kind), Some(_)) => {
                let f = exec_ft.unwrap_or(FloatType::F);
                let o = float::compare_out(&env, insn.cmod, kind, f, a.bits[ch], b.bits[ch]);
                cond[ch] = o.value;
                raw(0)
            }
            (Kind::Math(f), _) => {
                let m = crate::math::eval(f, exec_dt, a.bits[ch], b.bits[ch], &env)
                    .map_err(|e| unsupported(format!("math: {e}")))?;
                if m.undefined {
                    undef |= 1 << ch;
                }
                rem[ch] = m.bits2;
                raw(m.bits)
            }
            _ => return Err(unsupported(format!("{} on these types", op.name()))),
        };
        res[ch] = r.bits;
        out_flags[ch] = r.flags;
    }
    if opts.strict {
        if let Some(v) = violations.first() {
            return Err(ExecError::Runtime {
                rule: v.rule,
                msg: format!("channels {:#x}", v.channels),
            });
        }
    }

    // Write back.
    let is_cmp = matches!(k, Kind::Cmp(_));
    let dst_ft = FloatType::from_data_type(dst.ty);
    let acc_dst = matches!(dplan.space, Space::Arf { acc: true });
    let wr = implicit_writes(st, insn.ctrl.acc_wr);
    let flags_on = insn.cmod != CondMod::None && !sel_like;
    let fbase = flag_base(insn.flag) + usize::from(insn.chan_off);
    let mut fw = FlagWriter::new(st);
    let all_ones = crate::state::mask_bits(dst.ty.bits());
    for ch in 0..n {
        let m = 1u32 << ch;
        if en.maybe() & m == 0 {
            continue;
        }
        let und = undef & m != 0 || en.unknown & m != 0;
        let (bits, flag) = if is_cmp {
            (if cond[ch] { all_ones } else { 0 }, cond[ch])
        } else if dst.ty == exec_dt {
            let b = match (insn.sat, exec_ft) {
                (true, Some(f)) => float::saturate(f, res[ch]).0,
                _ => res[ch],
            };
            let fl = flag_of(insn.cmod, dst.ty, dst_ft, b, out_flags[ch]);
            (b, fl)
        } else {
            let cv = float::convert(&env, exec_dt, dst.ty, res[ch], insn.sat)
                .map_err(|e| unsupported(format!("{}: {e}", op.name())))?;
            let fl = flag_of(insn.cmod, dst.ty, dst_ft, cv.bits, out_flags[ch] | cv.flags);
            (cv.bits, fl)
        };
        write_dst(st, &dplan, ch, bits, 0, und);
        if let Some(r) = rem[ch] {
            // INT DIV BOTH: the remainder goes to the register after the destination.
            if dplan.space == Space::Grf {
                let o = dplan.off[ch] + st.grf_reg_bytes();
                if o + dplan.esize <= st.grf_size() {
                    st.write_grf_unchecked(o, dplan.esize, r, und);
                }
            }
        }
        if flags_on {
            fw.set(fbase + ch, flag, und);
        }
        if wr != Some(false) && !acc_dst && !is_cmp {
            if let Some(a) = implicit_addr(st, p, exec_dt, usize::from(insn.chan_off), ch) {
                st.acc_write(a, exec_dt, 0, res[ch], und || wr.is_none());
            }
        }
    }
    if flags_on {
        fw.commit(st);
    }
    info.enabled = en.on;
    info.violations.extend(violations);
    Ok(())
}

/// A plain result (no IEEE flags).
fn raw(bits: u64) -> FloatOut {
    FloatOut {
        bits,
        flags: crate::fp::Flags::NONE,
        any_nan_allowed: false,
        inf_allowed: false,
        rules: Applied::NONE,
    }
}

/// The condition flag of a final destination value.
pub(crate) fn flag_of(
    cm: CondMod,
    dt: DataType,
    ft: Option<FloatType>,
    bits: u64,
    flags: crate::fp::Flags,
) -> bool {
    match ft {
        Some(f) => {
            let mut o = raw(bits);
            o.flags = flags;
            float::cond_flag(cm, f, &o)
        }
        None => int_cond(cm, super::convert::int_value(dt, bits), false).unwrap_or(false),
    }
}
