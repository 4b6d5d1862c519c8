//! A shape's register lists in name order (the order of their JSON keys): the registers of
//! `initial` and the candidates to change. Names are compared as numbers: the rank of each
//! name among every register name of the platform (GRF `r0`..`r255`, the ARF registers of the
//! layout, and the names the lists use for the flags and cr0) in byte order, derived once per
//! thread and platform, so that `r10` still sorts before `r2`.

use super::super::{grf_name, Blocks};
use super::RegRef;
use crate::spec::Platform;
use crate::state::layout::ArfReg;
use std::cell::RefCell;
use std::rc::Rc;

/// The rank of every register name the lists use, in byte order of the names (equal names,
/// equal ranks).
pub(super) struct RegOrder {
    /// Of `r<n>`.
    grf: [u16; 256],
    /// Of layout register `i`'s name.
    arf: Vec<u16>,
    /// Of the names `f0`, `f1` and `cr0`.
    f0: u16,
    f1: u16,
    cr0: u16,
    /// The ARF registers that may change, in name order, and their ranks.
    arf_candidates: Vec<RegRef>,
    arf_candidate_ranks: Vec<u16>,
    /// Per ARF block ([`Blocks`]): the ARF registers that may change with a byte in it (bit
    /// `j`: `arf_candidates[j]`, the first 64).
    arf_blocks: Vec<u64>,
}

impl RegOrder {
    /// The ranks of the GRF names, of the names of `regs`, and of `f0`, `f1` and `cr0`;
    /// `arf_candidates`: the ARF registers that may change (layout indices), in name order.
    pub(super) fn new(regs: &[ArfReg], arf_candidates: &[usize]) -> RegOrder {
        let mut names: Vec<&str> = (0..=255u8).map(grf_name).collect();
        names.extend(regs.iter().map(|r| r.name.as_str()));
        names.extend(["f0", "f1", "cr0"]);
        names.sort_unstable();
        names.dedup();
        // (Every name is in the list: the search finds it; its position is its rank.)
        let rank = |s: &str| names.binary_search(&s).unwrap_or_else(|i| i) as u16;
        let mut grf = [0u16; 256];
        for (n, g) in grf.iter_mut().enumerate() {
            *g = rank(grf_name(n as u8));
        }
        let mut o = RegOrder {
            grf,
            arf: regs.iter().map(|r| rank(&r.name)).collect(),
            f0: rank("f0"),
            f1: rank("f1"),
            cr0: rank("cr0"),
            arf_candidates: arf_candidates.iter().map(|&i| RegRef::Arf(i)).collect(),
            arf_candidate_ranks: Vec::new(),
            arf_blocks: Vec::new(),
        };
        o.arf_candidate_ranks = arf_candidates.iter().map(|&i| o.arf_rank(i)).collect();
        for (j, r) in arf_candidates.iter().take(64).enumerate() {
            let Some(r) = regs.get(*r) else {
                continue;
            };
            let mut blocks = Blocks::of(r.base, r.base + r.bytes).0;
            while blocks != 0 {
                let k = blocks.trailing_zeros() as usize;
                blocks &= blocks - 1;
                if o.arf_blocks.len() <= k {
                    o.arf_blocks.resize(k + 1, 0);
                }
                o.arf_blocks[k] |= 1 << j;
            }
        }
        o
    }

    /// [`RegOrder::new`] for platform `p`, remembered per thread (the layout of a platform is
    /// always the same, `ArfLayout::new`, and so are the registers that may change).
    pub(super) fn of(
        p: Platform,
        regs: &[ArfReg],
        arf_candidates: impl ExactSizeIterator<Item = usize>,
    ) -> Rc<RegOrder> {
        type Seen = Vec<(Platform, usize, Rc<RegOrder>)>;
        thread_local! {
            static SEEN: RefCell<Seen> = const { RefCell::new(Vec::new()) };
        }
        SEEN.with(|c| {
            let mut c = c.borrow_mut();
            let n = arf_candidates.len();
            if let Some((_, _, o)) = c
                .iter()
                .find(|x| x.0 == p && x.1 == regs.len() && x.2.arf_candidates.len() == n)
            {
                return o.clone();
            }
            let cands: Vec<usize> = arf_candidates.collect();
            let o = Rc::new(RegOrder::new(regs, &cands));
            c.push((p, regs.len(), o.clone()));
            o
        })
    }

    fn arf_rank(&self, i: usize) -> u16 {
        self.arf.get(i).copied().unwrap_or(u16::MAX)
    }
}

/// The registers of a shape's lists before ordering (kept per thread for their room):
/// `initial`'s pushed as the builder finds them (repeats allowed), with the rank of the name
/// each goes by, and the destination registers.
#[derive(Default)]
pub(super) struct Lists {
    initial: Vec<(u16, RegRef)>,
    dsts: Vec<(u16, u8)>,
}

impl Lists {
    pub(super) fn clear(&mut self) {
        self.initial.clear();
        self.dsts.clear();
    }

    /// GRF `r<n>` in `initial`.
    pub(super) fn grf(&mut self, o: &RegOrder, n: u8) {
        self.initial.push((o.grf[usize::from(n)], RegRef::Grf(n)));
    }

    /// The flags `f0` and `f1` (ARF registers `f0`, `f1`) in `initial`.
    pub(super) fn flags(&mut self, o: &RegOrder, f0: usize, f1: usize) {
        self.initial.push((o.f0, RegRef::Arf(f0)));
        self.initial.push((o.f1, RegRef::Arf(f1)));
    }

    /// ARF register `i` under its layout name in `initial`.
    pub(super) fn arf(&mut self, o: &RegOrder, i: usize) {
        self.initial.push((o.arf_rank(i), RegRef::Arf(i)));
    }

    /// `cr0` (ARF register `i`) in `initial`.
    pub(super) fn cr0(&mut self, o: &RegOrder, i: usize) {
        self.initial.push((o.cr0, RegRef::Arf(i)));
    }

    /// `initial`'s registers in name order, the first of each name, appended to `out`.
    pub(super) fn initial_into(&mut self, out: &mut Vec<RegRef>) {
        // (Stable: of repeated names, the first pushed is kept.)
        self.initial.sort_by_key(|x| x.0);
        self.initial.dedup_by_key(|x| x.0);
        out.extend(self.initial.iter().map(|x| x.1));
    }

    /// The candidates, appended to `out` (empty): the GRF registers of `initial` (sources and
    /// destination: those that may change and those that must not, all reported) merged in
    /// name order into the ARF registers that may change; and which of them (the first 64)
    /// lie where: the GRF ones (returned, bit `i`: `out[i]`) and, per ARF block, the ARF ones
    /// with a byte in it (`blocks`, emptied first). Call after [`Lists::initial_into`].
    pub(super) fn candidates_into(
        &mut self,
        o: &RegOrder,
        out: &mut Vec<RegRef>,
        blocks: &mut Vec<u64>,
    ) -> u64 {
        for &(rank, reg) in &self.initial {
            if let RegRef::Grf(n) = reg {
                self.dsts.push((rank, n));
            }
        }
        self.dsts.sort_by_key(|x| x.0);
        let (arf, ranks) = (&o.arf_candidates, &o.arf_candidate_ranks);
        let mut from = 0;
        let mut grf = 0u64;
        for &(rank, n) in &self.dsts {
            // (A register goes before the first ARF register whose name is greater.)
            let at = from + ranks[from..].partition_point(|&r| r <= rank);
            out.extend_from_slice(&arf[from..at]);
            if let Some(bit) = 1u64.checked_shl(out.len() as u32) {
                grf |= bit;
            }
            out.push(RegRef::Grf(n));
            from = at;
        }
        out.extend_from_slice(&arf[from..]);
        blocks.clear();
        blocks.extend(o.arf_blocks.iter().map(|&m| spread(m, grf)));
        grf
    }
}

/// The bits of `m` moved up past every set bit of `gaps` (in turn from the lowest: the bits
/// at and above it move up by one; bits pushed past 63 are lost): ARF register `j`'s bit goes
/// to its place among the candidates once the GRF ones (`gaps`) are placed.
fn spread(mut m: u64, mut gaps: u64) -> u64 {
    // (Once no bit of `m` is at or above the lowest gap left, none moves any more.)
    while gaps != 0 && m >> gaps.trailing_zeros() != 0 {
        let low = (1u64 << gaps.trailing_zeros()) - 1;
        gaps &= gaps - 1;
        m = (m & low) | ((m & !low) << 1);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::ThreadState;

    /// The lists by rank are those of sorting the names as strings (the builder's lists
    /// before), on every platform's layout, for random registers, flags, accumulators and
    /// destinations (repeats included).
    #[test]
    fn lists_are_in_string_order_of_the_names() {
        let mut next = crate::test_rng::xorshift(0x0EE6_5A11_u64);
        let mut lists = Lists::default();
        let mut tested_blocks = 0;
        for p in Platform::ALL {
            let st = ThreadState::new(p);
            let regs = &st.layout.regs;
            let mut o = RegOrder::new(regs, &[]);
            // Every pair of names compares as the strings do.
            let mut names: Vec<(&str, u16)> = (0..=255u8)
                .map(|n| (grf_name(n), o.grf[usize::from(n)]))
                .collect();
            names.extend(
                regs.iter()
                    .enumerate()
                    .map(|(i, r)| (r.name.as_str(), o.arf_rank(i))),
            );
            names.extend([("f0", o.f0), ("f1", o.f1), ("cr0", o.cr0)]);
            for a in &names {
                for b in &names {
                    assert_eq!(a.0.cmp(b.0), a.1.cmp(&b.1), "{p:?} {} {}", a.0, b.0);
                }
            }
            let mut arf_sorted: Vec<(String, usize)> = regs
                .iter()
                .enumerate()
                .map(|(i, r)| (r.name.clone(), i))
                .collect();
            arf_sorted.sort();
            let (f0, f1) = (st.arf_index("f0").unwrap(), st.arf_index("f1").unwrap());
            let mut keep: Vec<&(String, usize)> = Vec::new();
            for round in 0..3000 {
                lists.clear();
                let mut want: Vec<(String, RegRef)> = Vec::new();
                for _ in 0..next() % 8 {
                    let n = (next() % 128) as u8;
                    lists.grf(&o, n);
                    want.push((grf_name(n).to_string(), RegRef::Grf(n)));
                }
                if next() % 2 == 0 {
                    lists.flags(&o, f0, f1);
                    want.push(("f0".into(), RegRef::Arf(f0)));
                    want.push(("f1".into(), RegRef::Arf(f1)));
                }
                for _ in 0..next() % 3 {
                    let i = (next() % regs.len() as u64) as usize;
                    lists.arf(&o, i);
                    want.push((regs[i].name.clone(), RegRef::Arf(i)));
                }
                if next() % 2 == 0 {
                    let i = (next() % regs.len() as u64) as usize;
                    lists.cr0(&o, i);
                    want.push(("cr0".into(), RegRef::Arf(i)));
                }
                want.sort_by(|a, b| a.0.cmp(&b.0));
                want.dedup_by(|a, b| a.0 == b.0);
                let mut got = vec![RegRef::Grf(255)];
                lists.initial_into(&mut got);
                let want_initial: Vec<RegRef> = want.iter().map(|x| x.1).collect();
                assert_eq!(got[1..], want_initial[..]);

                if round % 100 == 0 {
                    // Another subset of the ARF registers may change.
                    keep = arf_sorted.iter().filter(|_| next() % 4 != 0).collect();
                    let kept: Vec<usize> = keep.iter().map(|x| x.1).collect();
                    o = RegOrder::new(regs, &kept);
                }
                // The GRF candidates: the GRF registers of `initial`.
                let dsts: Vec<&(String, RegRef)> = want
                    .iter()
                    .filter(|x| matches!(x.1, RegRef::Grf(_)))
                    .collect();
                let mut want = Vec::new();
                let mut di = dsts.into_iter().peekable();
                for (name, i) in &keep {
                    while let Some(d) = di.next_if(|d| d.0 < *name) {
                        want.push(d.1);
                    }
                    want.push(RegRef::Arf(*i));
                }
                want.extend(di.map(|d| d.1));
                let mut got = Vec::new();
                let mut blocks = vec![7];
                let grf = lists.candidates_into(&o, &mut got, &mut blocks);
                assert_eq!(got, want, "{p:?}");
                // Where they lie: as the candidates' bits were set one by one before.
                let (mut want_grf, mut want_blocks) = (0u64, Vec::<u64>::new());
                for (i, reg) in got.iter().enumerate().take(64) {
                    match *reg {
                        RegRef::Grf(_) => want_grf |= 1 << i,
                        RegRef::Arf(ix) => {
                            let r = &regs[ix];
                            let b = Blocks::of(r.base, r.base + r.bytes).0;
                            for k in (0..64).filter(|k| b >> k & 1 == 1) {
                                if want_blocks.len() <= k {
                                    want_blocks.resize(k + 1, 0);
                                }
                                want_blocks[k] |= 1 << i;
                            }
                        }
                    }
                }
                assert_eq!(grf, want_grf, "{p:?}");
                let nonzero = want_blocks
                    .iter()
                    .rposition(|&m| m != 0)
                    .map_or(0, |k| k + 1);
                assert!(blocks[nonzero..].iter().all(|&m| m == 0), "{p:?}");
                assert_eq!(blocks[..nonzero], want_blocks[..nonzero], "{p:?}");
                tested_blocks += nonzero;
            }
        }
        assert!(tested_blocks > 10_000, "{tested_blocks}");
    }

    /// `spread` (which stops once no bit is left to move) is the gap-by-gap shift, on random
    /// masks and gaps, sparse and dense.
    #[test]
    fn spread_is_the_gap_by_gap_shift() {
        let every_gap = |mut m: u64, mut gaps: u64| {
            while gaps != 0 {
                let low = (1u64 << gaps.trailing_zeros()) - 1;
                gaps &= gaps - 1;
                m = (m & low) | ((m & !low) << 1);
            }
            m
        };
        let mut next = crate::test_rng::xorshift(0x5B2E_AD00_u64);
        let mut moved = 0;
        for k in 0..50000 {
            let sparse = |x: u64, y: u64| if k % 3 == 0 { x & y } else { x };
            let m = sparse(next(), next()) >> (next() % 64);
            let gaps = sparse(next(), next()) & sparse(next(), next());
            let want = every_gap(m, gaps);
            assert_eq!(spread(m, gaps), want, "{m:#x} {gaps:#x}");
            moved += usize::from(want != m);
        }
        assert!(moved > 20000, "{moved}");
    }
}
