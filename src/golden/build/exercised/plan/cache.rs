//! Rule plans remembered per thread: a rule plan ([`float_plan`]) reads only a few fields of
//! its instruction (the opcode, math function, saturation, condition modifier, the
//! destination's type and register file, source 0's type, kind and modifiers, which sources
//! are present) besides the float environment and the denorm sensitivity, and mov, add and
//! mul make a plan for every vector: most of them were made before, for another shape.

use super::*;

/// What a rule plan depends on, packed into one word.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct PlanKey(u128);

impl PlanKey {
    /// The key of the plan of `insn` in `env` (every field fits its bits: the enums have
    /// fewer than 256 values; the environment takes 49 bits, [`env_bits`]).
    #[inline]
    pub(super) fn of(insn: &Insn, denorm_sensitive: bool, env: &FloatEnv) -> PlanKey {
        let dst = insn.dst.map_or(0u128, |d| {
            let arf = matches!(
                d.addr,
                Addr::Direct {
                    reg: Reg::Arf(_),
                    ..
                }
            );
            d.ty as u128 | 1 << 8 | u128::from(arf) << 9
        });
        // (Source modifiers matter to a mov only: whether it moves raw bits.)
        let mov = insn.op == Opcode::Mov;
        let src0 = match insn.src[0] {
            None => 0u128,
            Some(Src::Imm(imm)) => imm.ty as u128 | 1 << 8,
            Some(Src::Reg(r)) => {
                r.ty as u128
                    | 2 << 8
                    | u128::from(mov && r.neg) << 10
                    | u128::from(mov && r.abs) << 11
            }
        };
        // (The condition modifier itself matters to compare grids, csel's comparison and
        // float min/max only; to the others, whether it is none, o, u or another.)
        let cmod = match insn.op {
            Opcode::Cmp | Opcode::Cmpn | Opcode::Sel | Opcode::Csel => insn.cmod,
            _ => match insn.cmod {
                CondMod::None | CondMod::O | CondMod::U => insn.cmod,
                _ => CondMod::Z,
            },
        };
        let present = insn
            .src
            .iter()
            .enumerate()
            .fold(0u128, |m, (i, s)| m | u128::from(s.is_some()) << i);
        PlanKey(
            insn.op as u128
                | (insn.math as u128) << 8
                | u128::from(insn.sat) << 16
                | (cmod as u128) << 17
                | dst << 25
                | src0 << 35
                | present << 47
                | u128::from(denorm_sensitive) << 50
                | u128::from(env_bits(env)) << 51,
        )
    }

    /// Its slot in the table.
    fn slot(self) -> usize {
        let w = (self.0 as u64) ^ ((self.0 >> 64) as u64).rotate_left(29);
        (w.wrapping_mul(0x517c_c1b7_2722_0a95) >> 54) as usize % SLOTS
    }
}

/// Slots of the per-thread table (direct-mapped).
const SLOTS: usize = 1024;

/// A remembered plan: its fixed rules and value tests.
struct Entry {
    key: PlanKey,
    fixed: Vec<Rule>,
    float: Option<FloatPlan>,
}

thread_local! {
    static PLANS: std::cell::RefCell<Vec<Option<Entry>>> =
        std::cell::RefCell::new((0..SLOTS).map(|_| None).collect());
}

/// The plan remembered for `key` into `fixed` (replacing its rules) and `float`; false when
/// none is.
#[inline]
pub(super) fn recall(key: PlanKey, fixed: &mut Vec<Rule>, float: &mut Option<FloatPlan>) -> bool {
    PLANS
        .try_with(|t| {
            let Ok(t) = t.try_borrow() else { return false };
            match &t[key.slot()] {
                Some(e) if e.key == key => {
                    fixed.clear();
                    fixed.extend_from_slice(&e.fixed);
                    *float = e.float;
                    true
                }
                _ => false,
            }
        })
        .unwrap_or(false)
}

/// Remember the plan of `key` (in place of the one in its slot).
pub(super) fn remember(key: PlanKey, fixed: &[Rule], float: Option<FloatPlan>) {
    let _ = PLANS.try_with(|t| {
        let Ok(mut t) = t.try_borrow_mut() else {
            return;
        };
        let e = t[key.slot()].get_or_insert_with(|| Entry {
            key,
            fixed: Vec::new(),
            float: None,
        });
        e.key = key;
        e.fixed.clear();
        e.fixed.extend_from_slice(fixed);
        e.float = float;
    });
}
