//! Instruction shapes: a template built, validated (the rules that apply to it), encoded and
//! printed once, with its registers (initial, candidates to change) and prepared execution,
//! then shared by the vectors of the shape.

use super::*;

thread_local! {
    /// Per-thread validator (reuses its property record and buffers).
    static CHECKER: std::cell::RefCell<crate::validate::Checker> =
        std::cell::RefCell::new(crate::validate::Checker::new());
}

use shape_buffers::Buffers;
use shape_tables::Name;

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

/// An instruction shape and everything about it that does not depend on the values.
pub(super) struct Shape {
    pub(super) b: Built,
    pub(super) sel: OpSel,
    pub(super) op_name: &'static str,
    /// Validator rule IDs (applicable, specific; with repeats, unordered).
    pub(super) rules: Vec<&'static str>,
    /// The same as a bit set of [`ids`] (None: an ID outside the table).
    pub(super) rule_bits: Option<BitSet>,
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
    /// Registers that may change (destination, every ARF register but ip and null), sorted by
    /// name.
    pub(super) candidates: Vec<RegRef>,
    /// `,"dst":{...}` or empty.
    pub(super) dst: Vec<u8>,
    pub(super) float: bool,
    pub(super) uses_flags: bool,
    pub(super) acc: bool,
}

impl Work {
    /// The shape of rank `s` of opcode `oi` (None: none could be built).
    // (Not inlined: its cost shows apart in a profile.)
    #[inline(never)]
    pub(super) fn shape(
        &mut self,
        cfg: &GenConfig,
        oi: usize,
        s: u64,
        rejected: &mut u64,
    ) -> Option<Shape> {
        let nops = cfg.ops.len() as u64;
        let first = (oi as u64).wrapping_add(s.wrapping_mul(nops));
        // The shape this one replaces: its buffers are reused.
        let old = self.shapes[oi].take().and_then(|(_, sh)| sh);
        self.shape_with(cfg, oi, s, (first, 0), rejected, Buffers::of(old))
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
    ) -> Option<Shape> {
        self.shape_with(cfg, oi, s, (at, first), rejected, Buffers::default())
    }

    /// [`Work::shape_from`] with generators for index `at` and attempts from `first` on, in
    /// the buffers `buf`.
    pub(super) fn shape_with(
        &mut self,
        cfg: &GenConfig,
        oi: usize,
        s: u64,
        (at, first): (u64, u32),
        rejected: &mut u64,
        mut buf: Buffers,
    ) -> Option<Shape> {
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
            let rule_bits = shape_tables::ids_and_numbers(&rules, &mut buf.rules);
            let has_imm = b
                .insn
                .src
                .iter()
                .flatten()
                .any(|s| matches!(s, Src::Imm(_)));
            if !has_imm {
                insn_fields(&mut buf.text, &b.insn, p, &bytes);
            }
            shape_tables::place_into(b.labels, &mut buf.label_ranks, &mut buf.labels);
            let grf = &mut buf.grf;
            let mut initial: Vec<(Name, RegRef)> = Vec::with_capacity(16);
            for &(n, c) in &b.src_regs {
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
                            initial.push((Name::new(grf_name(n + q)), RegRef::Grf(n + q)));
                        }
                    }
                }
            }
            if let Some((d, cnt)) = b.dst_regs {
                for q in 0..cnt {
                    grf.push(d + q);
                    initial.push((Name::new(grf_name(d + q)), RegRef::Grf(d + q)));
                }
            }
            grf.sort_unstable();
            grf.dedup();
            if grf
                .iter()
                .any(|&n| usize::from(n) * 32 + 32 > self.base.grf.len())
            {
                continue;
            }
            let uses_flags =
                b.insn.pred != crate::spec::PredCtrl::None || b.insn.cmod != CondMod::None;
            let acc = b.insn.op == Opcode::Mac || b.insn.ctrl.acc_wr;
            let float = b.insn.dst.is_some_and(|d| d.ty.is_float())
                || b.insn.src.iter().flatten().any(|s| s.ty().is_float());
            let names = &self.base.layout.regs;
            if uses_flags {
                let [Some(f0), Some(f1)] = self.arf_f else {
                    continue;
                };
                initial.push((Name::new("f0"), RegRef::Arf(f0)));
                initial.push((Name::new("f1"), RegRef::Arf(f1)));
            }
            if acc {
                for a in self.arf_acc.iter().flatten() {
                    initial.push((Name::new(names[*a].name.as_str()), RegRef::Arf(*a)));
                }
            }
            if float {
                let Some(c) = self.arf_cr0 else {
                    continue;
                };
                initial.push((Name::new("cr0"), RegRef::Arf(c)));
            }
            initial.sort_by(|a, b| a.0.cmp(&b.0));
            initial.dedup_by(|a, b| a.0 == b.0);
            buf.initial.extend(initial.iter().map(|x| x.1));
            let mut dsts: Vec<(Name, RegRef)> = Vec::with_capacity(8);
            if let Some((d, cnt)) = b.dst_regs {
                for q in 0..cnt {
                    dsts.push((Name::new(grf_name(d + q)), RegRef::Grf(d + q)));
                }
            }
            dsts.sort_by(|a, b| a.0.cmp(&b.0));
            // Merge the destination registers into the ARF registers (sorted once per task).
            let candidates = &mut buf.candidates;
            let mut di = dsts.iter().peekable();
            for (name, i) in &self.arf_sorted {
                if di.peek().is_some() {
                    let name = Name::new(name);
                    while let Some(d) = di.next_if(|d| d.0 < name) {
                        candidates.push(d.1);
                    }
                }
                candidates.push(RegRef::Arf(*i));
            }
            candidates.extend(di.map(|d| d.1));
            if candidates.len() > 64 {
                // (The changed-register masks are 64 bits; no platform has that many.)
                continue;
            }
            let dst = &mut buf.dst;
            if let Some(d) = b.insn.dst {
                if let Addr::Direct {
                    reg: Reg::Grf(n),
                    sub,
                } = d.addr
                {
                    dst.extend_from_slice(b",\"dst\":{\"reg\":\"r");
                    fast::uint(dst, u64::from(n));
                    dst.extend_from_slice(b"\",\"offset\":");
                    fast::uint(dst, u64::from(sub));
                    dst.extend_from_slice(b",\"type\":\"");
                    lower(dst, d.ty.name());
                    dst.extend_from_slice(b"\",\"stride\":");
                    fast::uint(dst, u64::from(d.hstride));
                    dst.push(b'}');
                }
            }
            let pre = (!has_imm).then(|| Prepared::new(&self.base, b.insn.clone()));
            return Some(Shape {
                sel,
                op_name: match sel {
                    OpSel::Op(o) => o.name(),
                    OpSel::Math(_) => "math",
                },
                b,
                rules: buf.rules,
                rule_bits,
                label_ranks: buf.label_ranks,
                labels: buf.labels,
                text: buf.text,
                pre,
                grf: buf.grf,
                initial: buf.initial,
                candidates: buf.candidates,
                dst: buf.dst,
                float,
                uses_flags,
                acc,
            });
        }
        None
    }
}
