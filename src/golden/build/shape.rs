//! Instruction shapes: a template built, validated (the rules that apply to it), encoded and
//! printed once, with its registers (initial, candidates to change) and prepared execution,
//! then shared by the vectors of the shape.

use super::*;

thread_local! {
    /// Per-thread validator (reuses its property record and buffers).
    static CHECKER: std::cell::RefCell<crate::validate::Checker> =
        std::cell::RefCell::new(crate::validate::Checker::new());
}

mod regs;
pub(super) mod text;

use regs::{Lists, RegOrder};
use shape_buffers::Buffers;
use std::mem::take;
use std::rc::Rc;

thread_local! {
    /// Per-thread room of the register lists.
    static LISTS: std::cell::RefCell<Lists> = std::cell::RefCell::default();
}

/// Validate a built instruction with spec/rules (`validate::Checker`): None when a rule is
/// violated, else the rules that apply to it (their `when` holds) and are specific to it (a
/// non-empty `when`), plus those of `hints` (the template's region rules) that apply.
pub(super) fn validated_rules(p: Platform, insn: &Insn, hints: RegionRules) -> Option<RuleMask> {
    CHECKER.with(|c| {
        let mut c = c.borrow_mut();
        let mut applicable = RuleMask::default();
        if c.check_collect(p, insn, &mut applicable).len() != 0 {
            return None;
        }
        Some(shape_tables::listed(&applicable, hints))
    })
}

/// Append decimal `v` (one digit directly).
fn small_uint(out: &mut Vec<u8>, v: u8) {
    if v < 10 {
        out.push(b'0' + v);
    } else {
        fast::uint(out, u64::from(v));
    }
}

/// An instruction shape and everything about it that does not depend on the values.
pub(super) struct Shape {
    pub(super) b: Built,
    pub(super) sel: OpSel,
    pub(super) op_name: &'static str,
    /// The validator rules it lists (applicable, specific; [`Shape::rule_ids`]).
    pub(super) rule_mask: RuleMask,
    /// The numbers of their IDs as a bit set of [`ids`] (None: an ID outside the table).
    pub(super) rule_bits: Option<Rc<BitSet>>,
    /// The form labels that are value label texts, as label ranks.
    pub(super) label_ranks: Vec<u16>,
    /// The other form labels, sorted and placed among the value labels.
    pub(super) labels: Vec<PlacedLabel>,
    /// `,"insn":"...","bytes":"..."` (empty when the instruction has an immediate, whose value
    /// changes both per vector).
    pub(super) text: Vec<u8>,
    pub(super) pre: Option<Prepared>,
    /// GRF registers the vector writes (sources and destination), sorted.
    pub(super) grf: Vec<u8>,
    /// Registers of `initial`, sorted by name.
    pub(super) initial: Vec<RegRef>,
    /// Registers that may change or are reported (every register of `initial`, every ARF
    /// register but ip and null), sorted by name.
    pub(super) candidates: Vec<RegRef>,
    /// The candidates in `initial` (bit `i`: candidate `i`): every vector's `expected` lists
    /// them, changed or not, so that a register that must not change is checked too.
    pub(super) reported: u64,
    /// The GRF registers among the candidates (bit `i`: candidate `i`, the first 64).
    pub(super) grf_candidates: u64,
    /// Per ARF block: the ARF registers among the candidates with a byte in it.
    pub(super) block_candidates: Vec<u64>,
    /// `,"dst":{...}` or empty.
    pub(super) dst: Vec<u8>,
    pub(super) float: bool,
    /// The tagging plan of its vectors (their rules and alternatives).
    pub(super) tags: TagPlan,
    pub(super) acc: bool,
    /// How its vectors draw each source.
    pub(super) src_fills: [SrcFill; 3],
}

impl Shape {
    /// The IDs of the validator rules it lists, in table order.
    pub(super) fn rule_ids(&self) -> Vec<&'static str> {
        shape_tables::ids(&self.rule_mask)
    }
}

impl Drop for Shape {
    /// Its buffers go to the pool, for the next shape built on this thread.
    fn drop(&mut self) {
        Buffers::recycle(self);
    }
}

impl Work {
    /// The shape of rank `s` of opcode `oi` (None: none could be built), in the room of the
    /// shape it replaces.
    // (Not inlined: its cost shows apart in a profile.)
    #[inline(never)]
    pub(super) fn shape(
        &mut self,
        cfg: &GenConfig,
        oi: usize,
        s: u64,
        rejected: &mut u64,
    ) -> Option<Box<Shape>> {
        let nops = cfg.ops.len() as u64;
        let first = (oi as u64).wrapping_add(s.wrapping_mul(nops));
        let old = self.shapes[oi].take().and_then(|(_, sh)| sh);
        self.shape_with(cfg, oi, s, (first, 0), rejected, old)
    }

    /// A shape of rank `s` of opcode `oi`, from generators for index `at` and attempts from
    /// `first` on.
    pub(super) fn shape_from(
        &mut self,
        cfg: &GenConfig,
        oi: usize,
        s: u64,
        at: u64,
        first: u32,
        rejected: &mut u64,
    ) -> Option<Box<Shape>> {
        self.shape_with(cfg, oi, s, (at, first), rejected, None)
    }

    /// [`Work::shape_from`] with generators for index `at` and attempts from `first` on, in
    /// the room (box and buffers) of `old` when given.
    pub(super) fn shape_with(
        &mut self,
        cfg: &GenConfig,
        oi: usize,
        s: u64,
        (at, first): (u64, u32),
        rejected: &mut u64,
        mut old: Option<Box<Shape>>,
    ) -> Option<Box<Shape>> {
        let mut buf = Buffers::of(old.as_deref_mut());
        let p = cfg.platform;
        let sel = cfg.ops[oi];
        for attempt in first..ATTEMPTS {
            buf.clear();
            let mut r = Rng::for_vector(cfg.seed ^ SHAPE_SALT, at, attempt);
            let kk = s.wrapping_add(u64::from(attempt) * 7919);
            let Some(b) = template::build(sel, kk, p, &cfg.types, &mut r) else {
                continue;
            };
            let Some(rules) = validated_rules(p, &b.insn, b.region_rules) else {
                *rejected += 1;
                continue;
            };
            let Ok(bytes) = crate::codec::encode(&b.insn, p) else {
                continue;
            };
            let rule_bits = shape_tables::numbers(&rules, (buf.rule_bits.take(), &buf.rule_mask));
            if !b.insn.has_imm_src() {
                text::insn_fields(&mut buf.text, &b.insn, p, &bytes);
            }
            shape_tables::place_into(b.labels, &mut buf.label_ranks, &mut buf.labels);
            let acc = template::implicit_acc(b.insn.op) || b.insn.ctrl.acc_wr;
            let float = b.insn.dst.is_some_and(|d| d.ty.is_float())
                || b.insn.src.iter().flatten().any(|s| s.ty().is_float());
            let arf = self.arf_sorted.iter().map(|x| x.1);
            let order = RegOrder::of(p, &self.base.layout.regs, arf);
            let lists = LISTS.with(|l| {
                let mut l = l.borrow_mut();
                l.clear();
                self.reg_lists(&b, &order, &mut l, &mut buf, (acc, float))
            });
            let Some(grf_candidates) = lists else {
                continue;
            };
            let candidates = &buf.candidates;
            if candidates.len() > 64 {
                // (The changed-register masks are 64 bits; no platform has that many.)
                continue;
            }
            // Every register of `initial` is a candidate (the GRF ones by `candidates_into`,
            // the ARF ones as registers that may change), so every one is reported.
            let Some(reported) = reported_mask(&buf.initial, candidates) else {
                continue;
            };
            let dst = &mut buf.dst;
            if let Some(d) = b.insn.dst {
                if let Addr::Direct {
                    reg: Reg::Grf(n),
                    sub,
                } = d.addr
                {
                    dst.extend_from_slice(b",\"dst\":{\"reg\":\"");
                    dst.extend_from_slice(grf_name(n).as_bytes());
                    dst.extend_from_slice(b"\",\"offset\":");
                    small_uint(dst, sub);
                    dst.extend_from_slice(b",\"type\":\"");
                    lower(dst, d.ty.name());
                    dst.extend_from_slice(b"\",\"stride\":");
                    small_uint(dst, d.hstride);
                    dst.push(b'}');
                }
            }
            // The float environment of its vectors: cr0.0 of a float instruction's vectors is
            // `b.cr0`, the base state's for the others.
            let env = if float {
                FloatEnv::from_cr0(p, b.cr0)
            } else {
                state_env(p, &self.base, self.arf_cr0)
            };
            let sensitive = denorm_sensitive(p, float, b.cr0);
            let tag_rules = take(&mut buf.tag_rules);
            let src_fills = fill::src_fills(&b);
            let op_name = match sel {
                OpSel::Op(o) => o.name(),
                OpSel::Math(_) => "math",
            };
            let Some(mut room) = old else {
                return Some(Box::new(Shape {
                    sel,
                    op_name,
                    pre: Some(Prepared::new(&self.base, b.insn.clone())),
                    tags: TagPlan::new(&b.insn, sensitive, env, tag_rules),
                    b,
                    rule_mask: rules,
                    rule_bits,
                    label_ranks: buf.label_ranks,
                    labels: buf.labels,
                    text: buf.text,
                    grf: buf.grf,
                    initial: buf.initial,
                    candidates: buf.candidates,
                    reported,
                    grf_candidates,
                    block_candidates: buf.blocks,
                    dst: buf.dst,
                    float,
                    acc,
                    src_fills,
                }));
            };
            // The shape this one replaces, field by field (the large ones, the prepared
            // instruction and the tagging plan, are written in place rather than copied in
            // a whole shape; every field is named: none is left from the old shape).
            let Shape {
                b: to_b,
                sel: to_sel,
                op_name: to_op_name,
                rule_mask: to_rule_mask,
                rule_bits: to_rule_bits,
                label_ranks: to_label_ranks,
                labels: to_labels,
                text: to_text,
                pre: to_pre,
                grf: to_grf,
                initial: to_initial,
                candidates: to_candidates,
                reported: to_reported,
                grf_candidates: to_grf_candidates,
                block_candidates: to_block_candidates,
                dst: to_dst,
                float: to_float,
                tags: to_tags,
                acc: to_acc,
                src_fills: to_src_fills,
            } = &mut *room;
            match to_pre {
                Some(pre) => pre.renew(&self.base, &b.insn),
                None => *to_pre = Some(Prepared::new(&self.base, b.insn.clone())),
            }
            to_tags.renew(&b.insn, sensitive, env, tag_rules);
            *to_b = b;
            *to_sel = sel;
            *to_op_name = op_name;
            *to_rule_mask = rules;
            *to_rule_bits = rule_bits;
            *to_label_ranks = buf.label_ranks;
            *to_labels = buf.labels;
            *to_text = buf.text;
            *to_grf = buf.grf;
            *to_initial = buf.initial;
            *to_candidates = buf.candidates;
            *to_reported = reported;
            *to_grf_candidates = grf_candidates;
            *to_block_candidates = buf.blocks;
            *to_dst = buf.dst;
            *to_float = float;
            *to_acc = acc;
            *to_src_fills = src_fills;
            return Some(room);
        }
        None
    }

    /// The registers of built instruction `b`: `grf` (sorted), `initial` and `candidates` (in
    /// name order) of `buf`, and `blocks`, the candidates in each ARF block; the GRF
    /// candidates (bit `i`: candidate `i`); None when a register is outside the GRF or one
    /// that the instruction needs is not in the layout.
    fn reg_lists(
        &self,
        b: &Built,
        order: &RegOrder,
        l: &mut Lists,
        buf: &mut Buffers,
        (acc, float): (bool, bool),
    ) -> Option<u64> {
        let grf = &mut buf.grf;
        for &(n, c) in b.src_regs.iter() {
            for q in 0..c {
                grf.push(n + q);
            }
        }
        // (Sources first, as they are filled in that order; every source register.)
        for sr in b.insn.src.iter().flatten() {
            if let Src::Reg(rs) = sr {
                if let Addr::Direct {
                    reg: Reg::Grf(n), ..
                } = rs.addr
                {
                    let cnt = b.src_regs.iter().find(|x| x.0 == n).map_or(1, |x| x.1);
                    for q in 0..cnt {
                        grf.push(n + q);
                        l.grf(order, n + q);
                    }
                }
            }
        }
        if let Some((d, cnt)) = b.dst_regs {
            for q in 0..cnt {
                grf.push(d + q);
                l.grf(order, d + q);
            }
        }
        grf.sort_unstable();
        grf.dedup();
        if grf
            .iter()
            .any(|&n| usize::from(n) * 32 + 32 > self.base.grf.len())
        {
            return None;
        }
        // Every vector has both flag registers, read or not: whatever the instruction does
        // to them is checked (a simulator that writes flags it must not is caught).
        let [Some(f0), Some(f1)] = self.arf_f else {
            return None;
        };
        l.flags(order, f0, f1);
        if acc {
            for a in self.arf_acc.iter().flatten() {
                l.arf(order, *a);
            }
        }
        if float {
            l.cr0(order, self.arf_cr0?);
        }
        l.initial_into(&mut buf.initial);
        Some(l.candidates_into(order, &mut buf.candidates, &mut buf.blocks))
    }
}

/// The bits of the candidates that are in `initial`; None when a register of `initial` is
/// not a candidate (then it could not be reported).
fn reported_mask(initial: &[RegRef], candidates: &[RegRef]) -> Option<u64> {
    let mut mask = 0u64;
    for reg in initial {
        let at = candidates.iter().position(|c| c == reg)?;
        mask |= 1u64.checked_shl(at as u32)?;
    }
    Some(mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A prepared instruction renewed in place (`Prepared::renew`, over the one of another
    /// instruction) equals one made anew (`Prepared::new`), for the golden templates'
    /// instructions of every opcode on every platform, now and then mutated into forms the
    /// engine prepares otherwise (an indirect operand, no destination, another execution
    /// size, a register outside the GRF).
    #[test]
    fn renewed_prepared_equals_new() {
        let mut r = Rng::for_vector(91, 0, 0);
        let (mut checked, mut planned, mut unplanned) = (0, 0, 0);
        for p in Platform::ALL {
            let base = ThreadState::new(p);
            let ops = template::default_ops(p);
            let mut pre: Option<Prepared> = None;
            for k in 0..1500u64 {
                let sel = ops[r.below(ops.len())];
                let Some(b) = template::build(sel, k / 5, p, &[], &mut r) else {
                    continue;
                };
                let mut insn = b.insn.clone();
                match r.below(8) {
                    0 => {
                        if let Some(Some(Src::Reg(rs))) = insn.src.get_mut(r.below(3)) {
                            rs.addr = Addr::Indirect {
                                a0: r.below(4) as u8,
                                off: r.below(64) as i16,
                            };
                        }
                    }
                    1 => insn.dst = None,
                    2 => insn.exec_size = [1, 2, 3, 4, 8, 16, 32][r.below(7)],
                    3 => {
                        if let Some(d) = insn.dst.as_mut() {
                            d.addr = Addr::Direct {
                                reg: Reg::Grf(120 + r.below(8) as u8),
                                sub: 0,
                            };
                        }
                    }
                    _ => {}
                }
                let new = Prepared::new(&base, insn.clone());
                let renewed = match pre.as_mut() {
                    Some(old) => {
                        old.renew(&base, &insn);
                        &*old
                    }
                    None => pre.insert(Prepared::new(&base, insn.clone())),
                };
                assert_eq!(format!("{renewed:?}"), format!("{new:?}"), "{p:?} {insn:?}");
                let with_plans = format!("{new:?}").contains("plans: Some");
                planned += usize::from(with_plans);
                unplanned += usize::from(!with_plans);
                checked += 1;
            }
        }
        assert!(checked > 5000, "{checked}");
        assert!(planned > 2000 && unplanned > 300, "{planned} {unplanned}");
    }
}
