//! DF arithmetic on feature.df-element-size-4 platforms (Ivy Bridge): every DF operand is
//! regioned in 32-bit units with doubled ExecSize and region parameters, and each DF element
//! occupies a pair of channels (seed000 §1.3). Channel `2j` carries the low dword of DF lane
//! `j`, channel `2j + 1` the high dword; the operand plans are resolved with 4-byte elements
//! (the same resolution as the raw DF move), the pairs are assembled into DF values, the
//! operation runs through the float layer on DF, and each 32-bit channel of the destination
//! receives its half of the result when that channel is enabled (masking per 32-bit channel).
//!
//! Executed: add, mul, mad, frc, rndd/rndu/rnde/rndz, mov (source modifiers, saturation) and
//! sel (min/max with a condition modifier, or predicated), all operands DF; cmp with DF
//! sources (a DF or null destination); and the conversions mov DF -> F and mov F -> DF. With a
//! condition modifier other than sel's, the flag bits of the enabled channels are undefined:
//! which of the two channels of a pair a DF condition lands in is not stated (a cmp still
//! writes its DF destination, the lane's all-ones or zero over both channels).
//!
//! DF -> F: lane `j`'s converted F goes to channel `2j`, and channel `2j + 1` receives an
//! undefined dword (conv.float-narrow.df-f.gen7 `upper_dword_undefined`; Mesa's vec4
//! generator: on IVB/BYT "each DF implicitly writes two floats, being the first one the
//! converted value"). F -> DF: lane `j` converts the F of channel `2j`; the odd channel's
//! element is not read (Mesa brw_MOV: "When converting F->DF on IVB/BYT, every odd source
//! channel is ignored"). Refused: other opcodes and type mixes, immediates, and implicit
//! accumulator writes (AccWrEn).

#![allow(clippy::needless_range_loop)] // channels index several parallel arrays

use super::alu::{enables_in, gather_raw, write_dst};
use super::flags::FlagWriter;
use super::mask::flag_base;
use super::operand::{Plans, Space};
use super::ops_float::float_env;
use super::region::MAX_CHANNELS;
use super::{ExecError, StepInfo};
use crate::float::{self, FloatType, Policy};
use crate::fp::Round;
use crate::isa::Insn;
use crate::spec::compare::GridKind;
use crate::spec::{AccessMode, CondMod, DataType, FpOps, Opcode, PredCtrl};
use crate::state::{ControlDwords, ThreadState};

fn unsupported(insn: &Insn, why: &str) -> ExecError {
    ExecError::Unsupported {
        what: format!(
            "{} with DF operands where a DF element is a pair of 32-bit channels (feature.df-element-size-4): {why}",
            insn.op.name(),
        ),
    }
}

/// Whether this opcode runs on DF channel pairs.
pub(crate) fn supports(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::Add
            | Opcode::Mul
            | Opcode::Mad
            | Opcode::Frc
            | Opcode::Rndd
            | Opcode::Rndu
            | Opcode::Rnde
            | Opcode::Rndz
            | Opcode::Mov
            | Opcode::Sel
            | Opcode::Cmp
    )
}

/// How the lanes' types relate (see the module documentation).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Types {
    /// Every operand DF (cmp: both sources DF, a DF or null destination).
    AllDf,
    /// mov DF -> F.
    DfToF,
    /// mov F -> DF.
    FToDf,
}

/// Execute a DF instruction on channel pairs. `n` is the encoded (doubled) ExecSize.
pub(crate) fn execute(
    st: &mut ThreadState,
    ctl: &ControlDwords,
    insn: &Insn,
    n: usize,
    tys: &[DataType],
    plans: &Plans,
    info: &mut StepInfo,
) -> Result<(), ExecError> {
    let op = insn.op;
    if !supports(op) {
        return Err(unsupported(
            insn,
            "only add, mul, mad, frc, rnd*, mov, sel and cmp are modelled",
        ));
    }
    let dst_ty = insn.dst.map(|d| d.ty);
    let all_df_srcs = tys.iter().all(|t| *t == DataType::DF);
    let types = match (op, dst_ty, tys) {
        (Opcode::Mov, Some(DataType::F), [DataType::DF]) => Types::DfToF,
        (Opcode::Mov, Some(DataType::DF), [DataType::F]) => Types::FToDf,
        (Opcode::Cmp, _, _) if all_df_srcs && plans.dst.space == Space::Null => Types::AllDf,
        (_, Some(DataType::DF), _) if all_df_srcs => Types::AllDf,
        _ => {
            return Err(unsupported(
                insn,
                "every operand must be DF, except mov DF -> F, mov F -> DF and a cmp's null destination",
            ))
        }
    };
    if n % 2 != 0 {
        return Err(ExecError::Operand {
            operand: "exec_size".into(),
            msg: format!(
                "ExecSize {n} is odd: a DF element takes a pair of channels (feature.df-element-size-4)"
            ),
        });
    }
    if plans.srcs.iter().flatten().any(|pl| pl.space == Space::Imm) {
        return Err(unsupported(
            insn,
            "a 64-bit immediate regioned in 32-bit channels",
        ));
    }
    if insn.ctrl.acc_wr {
        return Err(unsupported(
            insn,
            "implicit accumulator writes of DF channel pairs",
        ));
    }
    let (env, env_undef) = float_env(st);
    let dplan = &plans.dst;
    let (em, pm) = enables_in(st, ctl, insn, n);
    let sel = op == Opcode::Sel;
    let sel_pred = sel && insn.pred != PredCtrl::None;
    let mut en = if sel_pred { em } else { em.and(pm) };
    if insn.access == AccessMode::Align16 {
        let wm = dplan.en_lo | dplan.en_hi;
        en.on &= wm;
        en.unknown &= wm;
    }
    let lanes = n / 2;
    // Gather the 32-bit channels and assemble the DF lanes; apply the source modifiers.
    let nsrc = tys.len();
    let mut v = [[0u64; MAX_CHANNELS]; 3];
    let mut vu = [0u32; 3]; // per lane
    for (k, pl) in plans.srcs.iter().enumerate().take(nsrc) {
        let Some(pl) = pl else { continue };
        let mut bits = [0u64; MAX_CHANNELS];
        let mut undef = 0u32;
        gather_raw(st, pl, n, &mut bits, &mut undef);
        if types == Types::FToDf {
            // F -> DF: the even channel's F, widened exactly; the odd channel is not read.
            for j in 0..lanes {
                let f = bits[2 * j] & 0xffff_ffff;
                let cv = float::convert(&env, DataType::F, DataType::DF, f, false)
                    .map_err(|e| unsupported(insn, &e.to_string()))?;
                let mut x = cv.bits;
                if pl.abs {
                    x &= !FloatType::Df.sign();
                }
                if pl.neg {
                    x ^= FloatType::Df.sign();
                }
                v[k][j] = x;
                if (undef >> (2 * j)) & 1 != 0 {
                    vu[k] |= 1 << j;
                }
            }
            continue;
        }
        for j in 0..lanes {
            let mut x = (bits[2 * j] & 0xffff_ffff) | (bits[2 * j + 1] << 32);
            if pl.abs {
                x &= !FloatType::Df.sign();
            }
            if pl.neg {
                x ^= FloatType::Df.sign();
            }
            v[k][j] = x;
            if (undef >> (2 * j)) & 3 != 0 {
                vu[k] |= 1 << j;
            }
        }
    }
    let ops = match op {
        Opcode::Mad => FpOps::Fused,
        Opcode::Sel => FpOps::Minmax,
        Opcode::Mov => FpOps::Conversion,
        Opcode::Cmp => FpOps::Compare,
        _ => FpOps::Arith,
    };
    let pol = Policy::new(&env, FloatType::Df, ops);
    let lane_live = |j: usize| (en.maybe() >> (2 * j)) & 3 != 0;
    let mut res = [0u64; MAX_CHANNELS];
    let mut lane_undef = vu[..nsrc].iter().fold(0u32, |a, u| a | u);
    if env_undef {
        lane_undef = u32::MAX;
    }
    let (a, b, c) = (&v[0], &v[1], &v[2]);
    for j in 0..lanes {
        if !lane_live(j) {
            continue;
        }
        res[j] = match op {
            Opcode::Add => pol.add(a[j], b[j]).bits,
            Opcode::Mul => pol.mul(a[j], b[j]).bits,
            // mad: src0 + src1 * src2 with one rounding.
            Opcode::Mad => pol.fma(b[j], c[j], a[j]).bits,
            Opcode::Frc => pol.frc(a[j]).bits,
            Opcode::Rndd => pol.rnd(a[j], Round::Rd).bits,
            Opcode::Rndu => pol.rnd(a[j], Round::Ru).bits,
            Opcode::Rnde => pol.rnd(a[j], Round::Rtne).bits,
            Opcode::Rndz => pol.rnd(a[j], Round::Rtz).bits,
            Opcode::Mov if types == Types::DfToF => {
                // The converted F in the low dword; the high dword is written undefined.
                float::convert(&env, DataType::DF, DataType::F, a[j], insn.sat)
                    .map_err(|e| unsupported(insn, &e.to_string()))?
                    .bits
                    & 0xffff_ffff
            }
            Opcode::Mov => a[j],
            Opcode::Cmp => {
                let c = pol.compare(insn.cmod, GridKind::Cmp, a[j], b[j]);
                if c.value {
                    u64::MAX
                } else {
                    0
                }
            }
            Opcode::Sel if sel_pred => {
                // The predicate of the pair's low channel picks (both channels of a lane
                // carry the same predicate for a DF flag layout; a disagreement or an
                // unknown predicate makes the lane undefined).
                let lo = (pm.on >> (2 * j)) & 1 == 1;
                let hi = (pm.on >> (2 * j + 1)) & 1 == 1;
                if lo != hi || (pm.unknown >> (2 * j)) & 3 != 0 {
                    lane_undef |= 1 << j;
                }
                if lo {
                    a[j]
                } else {
                    b[j]
                }
            }
            Opcode::Sel if insn.cmod != CondMod::None => pol.sel_minmax(insn.cmod, a[j], b[j]).bits,
            Opcode::Sel => a[j],
            _ => return Err(unsupported(insn, "not modelled")),
        };
        if insn.sat && types != Types::DfToF && op != Opcode::Cmp {
            res[j] = float::saturate(FloatType::Df, res[j]).0;
        }
    }
    // Write back per 32-bit channel.
    let flags_on = insn.cmod != CondMod::None && !sel;
    let mut fw = if flags_on {
        FlagWriter::new(st)
    } else {
        FlagWriter::empty()
    };
    let fbase = flag_base(insn.flag) + usize::from(insn.chan_off);
    for ch in 0..n {
        let m = 1u32 << ch;
        if en.maybe() & m == 0 {
            continue;
        }
        let j = ch / 2;
        let half = if ch % 2 == 0 {
            res[j] & 0xffff_ffff
        } else {
            res[j] >> 32
        };
        let und = lane_undef & (1 << j) != 0
            || en.unknown & m != 0
            || (types == Types::DfToF && ch % 2 == 1);
        write_dst(st, dplan, ch, half, 0, und);
        if flags_on {
            // Which channel of the pair holds a DF lane's condition is not stated.
            fw.set(fbase + ch, false, true);
        }
    }
    if flags_on {
        fw.commit(st);
    }
    info.enabled = en.on;
    Ok(())
}
