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
//! rndd/rndu/rnde/rndz, frc, cmp, cmpn, math, the fused sums dp2/dp3/dp4/dph, line, pln and lrp
//! (one rounding of the exact value, [`Policy::dot`], [`Policy::lrp`]), f32to16/f16to32 (the HF
//! conversions of Gen7), and madm, whose results are undefined (opcode.madm).

#![allow(clippy::needless_range_loop)] // channels index several parallel arrays

use super::acc::{implicit_writes_in, AccMap};
use super::alu::{enables_in, gather_raw, write_dst};
use super::flags::{int_cond, FlagWriter};
use super::mask::flag_base;
use super::operand::{Plans, Space};
use super::region::MAX_CHANNELS;
use super::{ExecError, ExecOptions, StepInfo};
use crate::float::{self, Applied, FloatEnv, FloatOut, FloatType, Policy};
use crate::fp::Round;
use crate::isa::{Dst, Insn};
use crate::spec::compare::GridKind;
use crate::spec::registers::field::CR0_0_FP_MODE;
use crate::spec::{AccessMode, CondMod, DataType, FpOps, MathFn, Opcode, PredCtrl};
use crate::state::{ControlDwords, ThreadState};

fn unsupported(what: String) -> ExecError {
    ExecError::Unsupported { what }
}

/// The float environment of the thread (cr0.0), and whether its float fields are undefined.
pub fn float_env(st: &ThreadState) -> (FloatEnv, bool) {
    float_env_in(&st.control_dwords(), st.platform())
}

/// [`float_env`] from the control dwords of the state (`p`: its platform).
pub fn float_env_in(ctl: &ControlDwords, p: crate::spec::Platform) -> (FloatEnv, bool) {
    let Some((v, u)) = ctl.cr0_0 else {
        return (FloatEnv::new(p), true);
    };
    let env = FloatEnv::from_cr0(p, v);
    (env, u & env_fields(p) != 0)
}

/// The cr0.0 bits [`FloatEnv`] reads on `p`: rounding, ALT mode, the platform's denorm-mode
/// bits.
fn env_fields(p: crate::spec::Platform) -> u32 {
    static USED: std::sync::OnceLock<Vec<u32>> = std::sync::OnceLock::new();
    let of = |p| FloatEnv::from_cr0(p, u32::MAX).cr0() | CR0_0_FP_MODE.mask();
    let used = USED.get_or_init(|| crate::spec::Platform::ALL.iter().map(|p| of(*p)).collect());
    used.get(p as usize).copied().unwrap_or_else(|| of(p))
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
    Frc,
    Lrp,
    /// dp2/dp3/dp4 (products per group of four channels), dph (`homogeneous`: three products
    /// plus the fourth src1 component).
    Dot {
        products: usize,
        homogeneous: bool,
    },
    Line,
    Pln,
    F32to16,
    F16to32,
    Madm,
}

/// Whether `op` reads its sources by GRF address rather than through their regions (line:
/// src0's scalars; pln: src0's scalars and src1's register layout, spec/opcodes.toml
/// opcode.line and opcode.pln): an immediate or ARF source makes the step an operand error,
/// whatever the values.
pub fn reads_grf_sources(op: Opcode) -> bool {
    matches!(op, Opcode::Line | Opcode::Pln)
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
        Opcode::Frc => Kind::Frc,
        Opcode::Lrp => Kind::Lrp,
        Opcode::Dp2 => Kind::Dot {
            products: 2,
            homogeneous: false,
        },
        Opcode::Dp3 => Kind::Dot {
            products: 3,
            homogeneous: false,
        },
        Opcode::Dp4 => Kind::Dot {
            products: 4,
            homogeneous: false,
        },
        Opcode::Dph => Kind::Dot {
            products: 3,
            homogeneous: true,
        },
        Opcode::Line => Kind::Line,
        Opcode::Pln => Kind::Pln,
        Opcode::F32to16 => Kind::F32to16,
        Opcode::F16to32 => Kind::F16to32,
        Opcode::Madm => Kind::Madm,
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
    ctl: &ControlDwords,
    insn: &Insn,
    n: usize,
    dst: &Dst,
    tys: &[DataType],
    plans: &Plans,
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
        // f16to32: the low 16 bits of an integer source hold an HF; it executes as F.
        _ if matches!(k, Kind::F16to32) => (DataType::F, Some(FloatType::F)),
        (Some(f), _) => (f.data_type(), Some(f)),
        (None, true) => (tys.first().copied().unwrap_or(DataType::UD), None),
        (None, false) => {
            return Err(unsupported(format!(
                "{} mixing integer and float sources",
                op.name()
            )))
        }
    };
    let (env, env_undef) = float_env_in(ctl, p);
    let dplan = &plans.dst;
    let (em, pm) = enables_in(st, ctl, insn, n);
    let sel_like = matches!(k, Kind::Sel | Kind::Csel);
    let mut en = if sel_like && insn.pred != PredCtrl::None && matches!(k, Kind::Sel) {
        em
    } else {
        em.and(pm)
    };
    if insn.access == AccessMode::Align16 {
        let wm = dplan.en_lo | dplan.en_hi;
        en.on &= wm;
        en.unknown &= wm;
    }

    // Gather and convert the sources to the execution type, then apply the modifiers (lanes
    // for the sources there are only: each is 33 words to clear).
    let (mut one, mut two, mut three);
    let vals: &mut [Lanes] = match tys.len() {
        0 | 1 => {
            one = [Lanes::new()];
            &mut one
        }
        2 => {
            two = [Lanes::new(), Lanes::new()];
            &mut two
        }
        _ => {
            three = [Lanes::new(), Lanes::new(), Lanes::new()];
            &mut three
        }
    };
    let mut mismatch = 0u32;
    for (i, pl) in plans.srcs.iter().enumerate().take(tys.len()) {
        let Some(pl) = pl else { continue };
        let v = &mut vals[i];
        mismatch |= gather_raw(st, pl, n, &mut v.bits, &mut v.undef);
        let src_dt = pl.ty;
        let convert = src_dt != exec_dt && !(math && i == 1 && src_dt == DataType::UD);
        if matches!(k, Kind::F16to32) {
            for ch in 0..n {
                v.bits[ch] = hf_to_f(v.bits[ch]);
            }
        } else if convert {
            for ch in 0..n {
                match float::convert(&env, src_dt, exec_dt, v.bits[ch], false) {
                    Ok(c) => v.bits[ch] = c.bits,
                    Err(e) => return Err(unsupported(format!("{}: {e}", op.name()))),
                }
            }
        }
        if pl.abs || pl.neg {
            for ch in 0..n {
                let b = v.bits[ch];
                v.bits[ch] = if let Some(f) = exec_ft {
                    let b = if pl.abs { b & !f.sign() } else { b };
                    if pl.neg {
                        b ^ f.sign()
                    } else {
                        b
                    }
                } else {
                    let x = super::convert::int_value(exec_dt, b);
                    let x = if pl.abs { x.abs() } else { x };
                    let x = if pl.neg { -x } else { x };
                    (x as u64) & crate::state::mask_bits(exec_dt.bits())
                };
            }
        }
    }
    // One-source math functions ignore src1 (null or absent).
    let math_row = match k {
        Kind::Math(f) => crate::math::func_row(f, exec_dt, p),
        _ => None,
    };
    if math_row.is_some_and(|r| r.srcs < 2) {
        if let Some(v) = vals.get_mut(1) {
            v.undef = 0;
        }
    }
    let vals: &[Lanes] = vals;
    // The implicit accumulator source (of the float opcodes, mac's: spec/opcodes.toml
    // `implicit_acc`).
    let mut accv = None;
    if op.info().implicit_acc == crate::spec::ImplicitAcc::Read {
        let accv = accv.insert(Lanes::new());
        let acc_map = AccMap::new(st, p, exec_dt);
        for ch in 0..n {
            match acc_map.addr(st, usize::from(insn.chan_off), ch) {
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
        violations.push(super::runtime::Violation::new(
            &crate::spec::runtime::ACC_READ_TYPE_MISMATCH,
            mismatch & en.maybe(),
        ));
    }
    if opts.strict {
        if let Some(v) = violations.first() {
            return Err(v.refusal());
        }
    }

    // Compute (one loop per kind).
    let ops = match k {
        Kind::Mad | Kind::Mac => FpOps::Fused,
        Kind::Sel | Kind::Csel => FpOps::Minmax,
        Kind::Cmp(_) => FpOps::Compare,
        Kind::Mov | Kind::F32to16 | Kind::F16to32 => FpOps::Conversion,
        Kind::Lrp | Kind::Dot { .. } | Kind::Line | Kind::Pln => FpOps::Fused,
        _ => FpOps::Arith,
    };
    let pol = exec_ft.map(|f| Policy::new(&env, f, ops));
    let mut res = [0u64; MAX_CHANNELS];
    let mut out_flags = [crate::fp::Flags::NONE; MAX_CHANNELS];
    let mut cond = [false; MAX_CHANNELS];
    // INT DIV BOTH's remainders (channels with one in `rem_mask`).
    let mut rem: Option<[u64; MAX_CHANNELS]> = None;
    let mut rem_mask = 0u32;
    let acc_undef = accv.as_ref().map_or(0, |l| l.undef);
    let mut undef: u32 = vals.iter().fold(acc_undef, |a, v| a | v.undef);
    if env_undef {
        undef = u32::MAX;
    }
    let live = en.maybe();
    // (Absent sources read as zero bits.)
    let lane_bits = |i: usize| vals.get(i).map_or(&NO_BITS, |v| &v.bits);
    let (a, b, c) = (lane_bits(0), lane_bits(1), lane_bits(2));
    let lane_undef = |i: usize| vals.get(i).map_or(0, |v| v.undef);
    match (k, pol) {
        (Kind::Mov, _) => each(n, live, &mut res, &mut out_flags, |ch| raw(a[ch])),
        (Kind::Sel, Some(pol)) => {
            if insn.pred != PredCtrl::None {
                undef |= pm.unknown;
                each(n, live, &mut res, &mut out_flags, |ch| {
                    raw(if pm.on >> ch & 1 == 1 { a[ch] } else { b[ch] })
                })
            } else if insn.cmod != CondMod::None {
                each(n, live, &mut res, &mut out_flags, |ch| {
                    pol.sel_minmax(insn.cmod, a[ch], b[ch])
                })
            } else {
                each(n, live, &mut res, &mut out_flags, |ch| raw(a[ch]))
            }
        }
        (Kind::Csel, Some(_)) => {
            // opcode.csel: src0 where src2 compared with zero satisfies the condition modifier,
            // src1 elsewhere.
            let cmp = Policy::new(&env, exec_ft.unwrap_or(FloatType::F), FpOps::Compare);
            each(n, live, &mut res, &mut out_flags, |ch| {
                let t = cmp
                    .compare_fast(insn.cmod, GridKind::Cmp, c[ch], 0)
                    .unwrap_or_else(|| cmp.compare(insn.cmod, GridKind::Cmp, c[ch], 0).value);
                raw(if t { a[ch] } else { b[ch] })
            })
        }
        // Without a condition modifier only the bits matter: the fast paths (Policy::add_fast,
        // Policy::mul_fast) take the common case.
        (Kind::Add, Some(pol)) if pol.has_fast_fma() && insn.cmod == CondMod::None => {
            bits_only(n, live, &mut res, |ch| {
                pol.add_fast(a[ch], b[ch])
                    .unwrap_or_else(|| pol.add(a[ch], b[ch]).bits)
            })
        }
        (Kind::Add, Some(pol)) => each_fast(
            n,
            live,
            &mut res,
            &mut out_flags,
            |ch| pol.add_fast(a[ch], b[ch]),
            |ch| pol.add(a[ch], b[ch]),
        ),
        (Kind::Mul, Some(pol)) if pol.has_fast_fma() && insn.cmod == CondMod::None => {
            bits_only(n, live, &mut res, |ch| {
                pol.mul_fast(a[ch], b[ch])
                    .unwrap_or_else(|| pol.mul(a[ch], b[ch]).bits)
            })
        }
        (Kind::Mul, Some(pol)) => each_fast(
            n,
            live,
            &mut res,
            &mut out_flags,
            |ch| pol.mul_fast(a[ch], b[ch]),
            |ch| pol.mul(a[ch], b[ch]),
        ),
        // mad: src0 + src1 * src2 with one rounding (float::mad). Without a condition modifier
        // only the bits matter: the fast path (Policy::fma_fast) takes the common case.
        (Kind::Mad, Some(pol)) if pol.has_fast_fma() && insn.cmod == CondMod::None => {
            bits_only(n, live, &mut res, |ch| {
                pol.fma_fast(b[ch], c[ch], a[ch])
                    .unwrap_or_else(|| pol.fma(b[ch], c[ch], a[ch]).bits)
            })
        }
        (Kind::Mad, Some(pol)) => each_fast(
            n,
            live,
            &mut res,
            &mut out_flags,
            |ch| pol.fma_fast(b[ch], c[ch], a[ch]),
            |ch| pol.fma(b[ch], c[ch], a[ch]),
        ),
        // mac: acc + src0 * src1, a fused operation (fp_ops `fused`).
        (Kind::Mac, Some(pol)) => {
            let acc = accv.as_ref().map_or(&NO_BITS, |l| &l.bits);
            each(n, live, &mut res, &mut out_flags, |ch| {
                pol.fma(a[ch], b[ch], acc[ch])
            })
        }
        (Kind::Rnd(dir), Some(pol)) => each_fast(
            n,
            live,
            &mut res,
            &mut out_flags,
            |ch| pol.rnd_fast(a[ch], dir),
            |ch| pol.rnd(a[ch], dir),
        ),
        // The policy of the compare class (`ops` above).
        (Kind::Cmp(kind), Some(pol)) => bits_only(n, live, &mut res, |ch| {
            cond[ch] = match pol.compare_fast(insn.cmod, kind, a[ch], b[ch]) {
                Some(v) => v,
                None => pol.compare(insn.cmod, kind, a[ch], b[ch]).value,
            };
            0
        }),
        (Kind::Frc, Some(pol)) => each_fast(
            n,
            live,
            &mut res,
            &mut out_flags,
            |ch| pol.frc_fast(a[ch]),
            |ch| pol.frc(a[ch]),
        ),
        // lrp: src0 is the weight: src0 * src1 + (1 - src0) * src2 (opcode.lrp).
        (Kind::Lrp, Some(pol)) => each(n, live, &mut res, &mut out_flags, |ch| {
            pol.lrp(a[ch], b[ch], c[ch])
        }),
        (
            Kind::Dot {
                products,
                homogeneous,
            },
            Some(pol),
        ) => {
            // opcode.dp4 and kin: each group of four channels gets the sum over the group's
            // first `products` channels (dph adds the group's fourth src1 channel); a group
            // cut short by ExecSize or with an undefined element is undefined.
            let one = FloatType::F.one();
            let group_undef = |u: u32, g: usize| (u >> g) & 0xf != 0;
            for g in (0..n).step_by(4) {
                let mut t = [(0u64, 0u64); 4];
                for (j, tj) in t.iter_mut().enumerate().take(products) {
                    let c = (g + j).min(MAX_CHANNELS - 1);
                    *tj = (a[c], b[c]);
                }
                let mut len = products;
                if homogeneous {
                    t[3] = (one, b[(g + 3).min(MAX_CHANNELS - 1)]);
                    len = 4;
                }
                let r = pol.dot_result(&t[..len]);
                let bad =
                    g + 4 > n || group_undef(lane_undef(0), g) || group_undef(lane_undef(1), g);
                for ch in g..(g + 4).min(n) {
                    res[ch] = r.bits;
                    out_flags[ch] = r.flags;
                    if bad {
                        undef |= 1 << ch;
                    }
                }
            }
        }
        (Kind::Line | Kind::Pln, Some(pol)) => {
            // opcode.line: src0.0 * src1 + src0.3; opcode.pln: src0.0 * u + src0.1 * v +
            // src0.3 with u, v from the src1 register layout (x of 8 channels, then y).
            let s0 = plans.srcs[0].as_ref().filter(|pl| pl.space == Space::Grf);
            let s1 = plans.srcs[1].as_ref().filter(|pl| pl.space == Space::Grf);
            let (Some(s0), Some(s1)) = (s0, s1) else {
                return Err(ExecError::Operand {
                    operand: "src0".into(),
                    msg: format!("{}: the sources must be GRF registers", op.name()),
                });
            };
            let base0 = s0.off[0] as usize;
            let rd = |o: usize| st.read_grf_unchecked(o, 4);
            let (p0, u0) = rd(base0);
            let (p1, u1) = rd(base0 + 4);
            let (p3, u3) = rd(base0 + 12);
            let scal_undef = u0 || u3 || (matches!(k, Kind::Pln) && u1);
            if scal_undef {
                undef |= super::mask::low(n);
            }
            let base1 = s1.off[0] as usize;
            for ch in 0..n {
                if live >> ch & 1 == 0 {
                    continue;
                }
                let r = if matches!(k, Kind::Line) {
                    pol.dot_result(&[(p0, b[ch]), (p3, FloatType::F.one())])
                } else {
                    let uo = base1 + (ch / 8) * 64 + (ch % 8) * 4;
                    let (u, uu) = rd(uo);
                    let (v, vu) = rd(uo + 32);
                    if uu || vu {
                        undef |= 1 << ch;
                    }
                    pol.dot_result(&[(p0, u), (p1, v), (p3, FloatType::F.one())])
                };
                res[ch] = r.bits;
                out_flags[ch] = r.flags;
            }
        }
        (Kind::F16to32, _) => each(n, live, &mut res, &mut out_flags, |ch| raw(a[ch])),
        (Kind::F32to16, Some(pol)) => {
            // opcode.f32to16: the F source (saturated first with .sat) converted to HF, the HF
            // bits in the low 16 bits of the destination element.
            for ch in 0..n {
                if live >> ch & 1 == 0 {
                    continue;
                }
                let x = if insn.sat {
                    float::saturate(FloatType::F, a[ch]).0
                } else {
                    a[ch]
                };
                let mut rules = Applied::NONE;
                let x = pol.input(x, &mut rules);
                let r = crate::fp::Fmt::F.convert(crate::fp::Fmt::Hf, x, env.rounding);
                res[ch] = r.bits;
                out_flags[ch] = r.flags;
            }
        }
        // opcode.madm: the extended-precision macro operands are not publicly defined: every
        // result (destination, flags, accumulator) is undefined.
        (Kind::Madm, _) => undef = u32::MAX,
        (Kind::Math(f), _) => {
            // (The policy of the function's operands, made once.)
            let mpol = math_row.and_then(|_| crate::math::row_policy(exec_dt, &env));
            for ch in 0..n {
                if live >> ch & 1 == 0 {
                    continue;
                }
                // (`env` is of platform `p`: the row is `eval`'s own.)
                let m = match math_row {
                    Some(row) => crate::math::eval_row_with(
                        row,
                        f,
                        exec_dt,
                        a[ch],
                        b[ch],
                        &env,
                        mpol.as_ref(),
                    ),
                    None => crate::math::eval(f, exec_dt, a[ch], b[ch], &env),
                };
                let m = match m {
                    Ok(m) => m,
                    // INVM / RSQRTM (math.invm, math.rsqrtm): outside the early-out special
                    // cases the approximation and its acc2-acc9 extra bits are not publicly
                    // specified, so the channel's result is undefined rather than guessed.
                    Err(crate::math::MathError::Unsupported { .. })
                        if matches!(f, MathFn::Invm | MathFn::Rsqrtm) =>
                    {
                        undef |= 1 << ch;
                        continue;
                    }
                    Err(e) => return Err(unsupported(format!("math: {e}"))),
                };
                undef |= u32::from(m.undefined) << ch;
                // Row math.inexact: a result within a bound (no special row) is approximate.
                info.inexact |= u32::from(!m.undefined && !m.tolerance.is_exact()) << ch;
                if let Some(r) = m.bits2 {
                    rem.get_or_insert([0; MAX_CHANNELS])[ch] = r;
                    rem_mask |= 1 << ch;
                }
                res[ch] = m.bits;
            }
        }
        _ => return Err(unsupported(format!("{} on these types", op.name()))),
    }

    // Write back.
    let is_cmp = matches!(k, Kind::Cmp(_));
    let dst_ft = FloatType::from_data_type(dst.ty);
    let acc_dst = matches!(dplan.space, Space::Arf { acc: true });
    let wr = implicit_writes_in(ctl, insn.ctrl.acc_wr);
    let flags_on = insn.cmod != CondMod::None && !sel_like;
    let fbase = flag_base(insn.flag) + usize::from(insn.chan_off);
    let und_mask = undef | en.unknown;
    // The environment of the conversion to the destination type: the thread's, or, with
    // `ExecOptions::narrow_toward_zero` and a conversion row that offers it (`alt_round =
    // "rtz"`), rounding toward zero (the execution-type result is the same either way).
    let narrow_env = if opts.narrow_toward_zero
        && dst.ty != exec_dt
        && crate::spec::conversions::rule(exec_dt, dst.ty, p).is_some_and(|r| r.alt_round_rtz)
    {
        FloatEnv {
            rounding: Round::Rtz,
            ..env
        }
    } else {
        env
    };
    // The final destination bits of a channel and its condition flag (false without flags).
    // (Made where it is used: a closure capturing this much costs its construction.)
    macro_rules! final_of {
        () => {
            |ch: usize| -> Result<(u64, bool), ExecError> {
                Ok(if is_cmp {
                    (if cond[ch] { all_ones(dst.ty) } else { 0 }, cond[ch])
                } else if matches!(k, Kind::F32to16) {
                    // HF bits, zero-extended to the destination element.
                    let fl = flags_on
                        && flag_of(
                            insn.cmod,
                            DataType::HF,
                            Some(FloatType::Hf),
                            res[ch],
                            out_flags[ch],
                        );
                    (res[ch] & 0xffff, fl)
                } else if dst.ty == exec_dt {
                    same_type_final(insn, exec_ft, dst_ft, flags_on, res[ch], out_flags[ch])
                } else {
                    let cv = float::convert(&narrow_env, exec_dt, dst.ty, res[ch], insn.sat)
                        .map_err(|e| unsupported(format!("{}: {e}", op.name())))?;
                    let fl = flags_on
                        && flag_of(insn.cmod, dst.ty, dst_ft, cv.bits, out_flags[ch] | cv.flags);
                    (cv.bits, fl)
                })
            }
        };
    }
    let acc_map = (wr != Some(false) && !acc_dst && !is_cmp).then(|| AccMap::new(st, p, exec_dt));
    // (The flags as they were before the destination is written.)
    let mut fw = if flags_on {
        FlagWriter::new(st)
    } else {
        FlagWriter::empty()
    };
    // (INT DIV BOTH's remainders, which may land on other channels' destination elements, are
    // written by the general loop, channel by channel.)
    if rem_mask == 0 {
        // The final values first (nothing is written if one fails: the general loop then
        // writes what it writes before reporting the error), then the destination, the flags
        // and the accumulator, each for every channel at once: they are distinct storage.
        let same =
            !is_cmp && !matches!(k, Kind::F32to16) && dst.ty == exec_dt && !insn.sat && !flags_on;
        let mut fin = [0u64; MAX_CHANNELS];
        let mut flag_val = 0u32;
        let mut ok = true;
        let chans = (0..n.min(MAX_CHANNELS)).filter(|ch| live >> ch & 1 == 1);
        if is_cmp {
            // (The comparisons, decided once.)
            for ch in chans {
                fin[ch] = if cond[ch] { all_ones(dst.ty) } else { 0 };
                flag_val |= u32::from(cond[ch]) << ch;
            }
        } else if !same && !matches!(k, Kind::F32to16) && dst.ty == exec_dt {
            for ch in chans {
                let (b, fl) =
                    same_type_final(insn, exec_ft, dst_ft, flags_on, res[ch], out_flags[ch]);
                fin[ch] = b;
                flag_val |= u32::from(fl) << ch;
            }
        } else if !same {
            let final_of = final_of!();
            for ch in chans {
                let Ok((b, fl)) = final_of(ch) else {
                    ok = false;
                    break;
                };
                fin[ch] = b;
                flag_val |= u32::from(fl) << ch;
            }
        }
        if ok {
            let bits = if same { &res } else { &fin };
            super::alu::write_results(st, dplan, n, live, und_mask, bits);
            if flags_on {
                fw.set_channels(fbase, live & super::mask::low(n), flag_val, und_mask);
                fw.commit(st);
            }
            if let Some(am) = acc_map {
                am.write_each(st, exec_dt, usize::from(insn.chan_off), n, live, |ch| {
                    // f32to16's HF result is not an execution-type value: the accumulator is
                    // left undefined.
                    let acc_und =
                        und_mask >> ch & 1 == 1 || wr.is_none() || matches!(k, Kind::F32to16);
                    (0, res[ch], acc_und)
                });
            }
            info.enabled = en.on;
            if !violations.is_empty() {
                info.violations.extend(violations);
            }
            return Ok(());
        }
    }
    let final_of = final_of!();
    for ch in (0..n).filter(|ch| live >> ch & 1 == 1) {
        let (bits, flag) = final_of(ch)?;
        let (m, und) = (1u32 << ch, und_mask >> ch & 1 == 1);
        write_dst(st, dplan, ch, bits, 0, und);
        if let Some(r) = rem.as_ref().filter(|_| rem_mask & m != 0).map(|r| r[ch]) {
            // INT DIV BOTH: the remainder goes to the register after the destination.
            if dplan.space == Space::Grf {
                let o = dplan.off[ch] as usize + st.grf_reg_bytes();
                if o + dplan.esize <= st.grf_size() {
                    st.write_grf_unchecked(o, dplan.esize, r, und);
                }
            }
        }
        if flags_on {
            fw.set(fbase + ch, flag, und);
        }
        if let Some(am) = acc_map {
            if let Some(a) = am.addr(st, usize::from(insn.chan_off), ch) {
                // f32to16's HF result is not an execution-type value: the accumulator is
                // left undefined.
                let acc_und = und || wr.is_none() || matches!(k, Kind::F32to16);
                st.acc_write(a, exec_dt, 0, res[ch], acc_und);
            }
        }
    }
    if flags_on {
        fw.commit(st);
    }
    info.enabled = en.on;
    if !violations.is_empty() {
        info.violations.extend(violations);
    }
    Ok(())
}

/// A result `r` (IEEE flags `fl`) for a destination of the execution type (`exec_ft`, `dst_ft`:
/// as float types): saturated with `.sat`, and its condition flag (false without `flags`).
#[inline(always)]
fn same_type_final(
    insn: &Insn,
    exec_ft: Option<FloatType>,
    dst_ft: Option<FloatType>,
    flags: bool,
    r: u64,
    fl: crate::fp::Flags,
) -> (u64, bool) {
    let dt = insn.dst.map_or(DataType::UD, |d| d.ty);
    let b = match (insn.sat, exec_ft) {
        (true, Some(f)) => float::saturate(f, r).0,
        _ => r,
    };
    (b, flags && flag_of(insn.cmod, dt, dst_ft, b, fl))
}

/// The bits of an all-ones destination element of type `t` (a true comparison).
fn all_ones(t: DataType) -> u64 {
    crate::state::mask_bits(t.bits())
}

/// Run `f` for the live channels of `0..n`, storing results and flags (a generic loop: one
/// monomorphic copy per operation, no dynamic dispatch per channel).
#[inline]
fn each(
    n: usize,
    live: u32,
    res: &mut [u64; MAX_CHANNELS],
    flags: &mut [crate::fp::Flags; MAX_CHANNELS],
    mut f: impl FnMut(usize) -> FloatOut,
) {
    for ch in 0..n.min(MAX_CHANNELS) {
        if live >> ch & 1 == 1 {
            let r = f(ch);
            res[ch] = r.bits;
            flags[ch] = r.flags;
        }
    }
}

/// [`each`] with a fast path: `fast(ch)` gives the bits of the common case or `None`, and then
/// `slow(ch)` the general result. A fast result is normal or zero, rounded to nearest or
/// integral: it did not overflow, and overflow is the only IEEE flag anything after the
/// operation reads (the `o` condition modifier, [`float::cond_flag`]), so its flags are
/// stored as none.
#[inline(always)]
fn each_fast(
    n: usize,
    live: u32,
    res: &mut [u64; MAX_CHANNELS],
    flags: &mut [crate::fp::Flags; MAX_CHANNELS],
    fast: impl Fn(usize) -> Option<u64>,
    mut slow: impl FnMut(usize) -> FloatOut,
) {
    for ch in 0..n.min(MAX_CHANNELS) {
        if live >> ch & 1 == 1 {
            (res[ch], flags[ch]) = match fast(ch) {
                Some(b) => (b, crate::fp::Flags::NONE),
                None => {
                    let r = slow(ch);
                    (r.bits, r.flags)
                }
            };
        }
    }
}

/// Run `f` for the live channels of `0..n`, storing result bits only (the IEEE flags are not
/// needed: no condition modifier reads them).
#[inline(always)]
fn bits_only(n: usize, live: u32, res: &mut [u64; MAX_CHANNELS], mut f: impl FnMut(usize) -> u64) {
    for ch in 0..n.min(MAX_CHANNELS) {
        if live >> ch & 1 == 1 {
            res[ch] = f(ch);
        }
    }
}

/// The bits of an absent source.
static NO_BITS: [u64; MAX_CHANNELS] = [0; MAX_CHANNELS];

/// Raw element bits of the channels of one operand.
struct Lanes {
    bits: [u64; MAX_CHANNELS],
    undef: u32,
}

impl Lanes {
    fn new() -> Lanes {
        Lanes {
            bits: [0; MAX_CHANNELS],
            undef: 0,
        }
    }
}

/// f16to32: the HF in the low 16 bits of `bits` as an F, exactly (as conv.float-widen.hf-f:
/// HF denormals become normal F values, NaN the canonical F NaN).
fn hf_to_f(bits: u64) -> u64 {
    crate::fp::Fmt::Hf
        .convert(crate::fp::Fmt::F, bits & 0xffff, Round::Rtne)
        .bits
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::registers::field::CR0_0_ROUNDING_MODE;
    use crate::spec::Platform;

    #[test]
    fn float_fields_of_cr0_per_platform() {
        for p in Platform::ALL {
            let used = env_fields(p);
            assert_eq!(
                used,
                FloatEnv::from_cr0(p, u32::MAX).cr0() | CR0_0_FP_MODE.mask()
            );
            assert_eq!(
                used & CR0_0_ROUNDING_MODE.mask(),
                CR0_0_ROUNDING_MODE.mask()
            );
            // An undefined bit outside these fields leaves the environment defined.
            let ctl = ControlDwords {
                cr0_0: Some((0, !used)),
                sr0_2: None,
                sr0_3: None,
                channels: u32::MAX,
            };
            assert!(!float_env_in(&ctl, p).1);
            let ctl = ControlDwords {
                cr0_0: Some((0, CR0_0_FP_MODE.mask())),
                ..ctl
            };
            assert!(float_env_in(&ctl, p).1);
        }
    }
}
