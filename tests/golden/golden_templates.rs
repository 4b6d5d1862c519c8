//! The templates of addc, subb, mach, bfe, bfi1, bfi2, csel, sad2 and sada2 (issue 24): on
//! every platform whose opcode row has the opcode, their vectors exist, pass the validator,
//! carry the accumulators the opcode reads or writes implicitly, reach the edges of their
//! cases, and their expected values agree with values computed here from each vector's
//! initial registers with plain integer (and, for csel, IEEE comparison) arithmetic written
//! from the opcode rows' text, not with the engine.

use crate::golden_util;

use euref::golden::template::{self, OpSel};
use euref::golden::{generate, GenConfig, Vector};
use euref::isa::{Addr, Insn, Reg, Src};
use euref::spec::{CondMod, DataType, ImplicitAcc, Opcode, Platform, PredCtrl};
use std::collections::BTreeMap;

/// The opcodes this file is about.
const NEW: [Opcode; 9] = [
    Opcode::Addc,
    Opcode::Subb,
    Opcode::Mach,
    Opcode::Bfe,
    Opcode::Bfi1,
    Opcode::Bfi2,
    Opcode::Csel,
    Opcode::Sad2,
    Opcode::Sada2,
];

/// Vectors per opcode and platform (20 shapes).
const COUNT: u64 = 320;

fn vectors(p: Platform, op: Opcode, count: u64) -> Vec<Vector> {
    let mut cfg = GenConfig::new(p, 24);
    cfg.ops = vec![OpSel::Op(op)];
    let mut out = Vec::new();
    let stats = generate(&cfg, count, &mut std::io::sink(), |c| {
        out.extend(c.iter().flatten().cloned());
    })
    .unwrap();
    assert_eq!(stats.skipped, 0, "{p:?} {op:?}");
    out
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

/// A vector's registers: initial and final bytes, and the undefined bytes of the final ones.
struct Regs {
    before: BTreeMap<String, Vec<u8>>,
    after: BTreeMap<String, Vec<u8>>,
    undef: BTreeMap<String, Vec<u8>>,
}

impl Regs {
    fn of(v: &Vector) -> Regs {
        let m = |x: &BTreeMap<String, String>| x.iter().map(|(k, v)| (k.clone(), hex(v))).collect();
        Regs {
            before: m(&v.initial),
            after: m(&v.expected),
            undef: m(&v.undefined),
        }
    }

    /// `size` bytes at GRF byte `o`, little-endian, initial.
    fn grf(&self, o: usize, size: usize) -> u64 {
        let r = &self.before[&format!("r{}", o / 32)];
        (0..size).fold(0, |v, k| v | u64::from(r[o % 32 + k]) << (8 * k))
    }

    /// The final bytes of register `name` from `at` (None: any of them undefined).
    fn final_at(&self, name: &str, at: usize, size: usize) -> Option<u64> {
        let r = self.after.get(name).or_else(|| self.before.get(name))?;
        if let Some(u) = self.undef.get(name) {
            if u[at..at + size].iter().any(|b| *b != 0) {
                return None;
            }
        }
        Some((0..size).fold(0, |v, k| v | u64::from(r[at + k]) << (8 * k)))
    }

    /// Dword `i` of an accumulator before (`after` false) or after.
    fn acc_dword(&self, name: &str, i: usize, after: bool) -> Option<u64> {
        if after {
            return self.final_at(name, 4 * i, 4);
        }
        let r = self.before.get(name)?;
        Some(u64::from(u32::from_le_bytes(
            r[4 * i..4 * i + 4].try_into().ok()?,
        )))
    }
}

/// Source `i` of channel `c` as an integer of its type (sign-extended where signed) with its
/// modifiers, or its raw bits (`raw`), from the initial registers.
fn source(insn: &Insn, regs: &Regs, i: usize, c: u32, raw: bool) -> i128 {
    let s = insn.src[i].unwrap();
    let (bits, ty, neg, abs) = match s {
        Src::Imm(m) => (m.bits & mask(m.ty), m.ty, false, false),
        Src::Reg(rs) => {
            let Addr::Direct {
                reg: Reg::Grf(n),
                sub,
            } = rs.addr
            else {
                panic!("{insn:?}");
            };
            let size = rs.ty.bytes() as usize;
            // Align16 three-source: the channel's element, or element 0 replicated; Align1:
            // the region walk.
            let e = if insn.is_three_src() {
                if rs.region.vstride != 0 {
                    c as usize
                } else {
                    0
                }
            } else {
                let (w, vs, hs) = (
                    u32::from(rs.region.width.max(1)),
                    u32::from(rs.region.vstride),
                    u32::from(rs.region.hstride),
                );
                ((c / w) * vs + (c % w) * hs) as usize
            };
            let o = usize::from(n) * 32 + usize::from(sub) + e * size;
            (regs.grf(o, size), rs.ty, rs.neg, rs.abs)
        }
    };
    if raw {
        return i128::from(bits);
    }
    let x = if ty.is_signed() {
        let sh = 64 - ty.bits();
        i128::from(((bits << sh) as i64) >> sh)
    } else {
        i128::from(bits)
    };
    let x = if abs { x.abs() } else { x };
    if neg {
        -x
    } else {
        x
    }
}

/// The F bits of source `i` of channel `c` with its modifiers (abs clears the sign bit,
/// negate flips it).
fn float_bits(insn: &Insn, regs: &Regs, i: usize, c: u32) -> u32 {
    let mut b = source(insn, regs, i, c, true) as u32;
    if let Some(Src::Reg(rs)) = insn.src[i] {
        if rs.abs {
            b &= 0x7FFF_FFFF;
        }
        if rs.neg {
            b ^= 0x8000_0000;
        }
    }
    b
}

fn mask(t: DataType) -> u64 {
    if t.bits() >= 64 {
        u64::MAX
    } else {
        (1 << t.bits()) - 1
    }
}

/// `x` written to a destination of type `t`: clamped to its range with saturation, else its
/// low bits.
fn to_dst(x: i128, t: DataType, sat: bool) -> u64 {
    let (lo, hi) = if t.is_signed() {
        (-(1i128 << (t.bits() - 1)), (1i128 << (t.bits() - 1)) - 1)
    } else {
        (0, (1i128 << t.bits()) - 1)
    };
    let x = if sat { x.clamp(lo, hi) } else { x };
    (x as u64) & mask(t)
}

/// IEEE single-precision `x` compared with zero under condition `c` (`keep`: denormals kept,
/// else compared as zero; a NaN is unordered: only `nz` holds).
fn compare_with_zero(bits: u32, c: CondMod, keep: bool) -> bool {
    let f = f32::from_bits(bits);
    let f = if !keep && f.is_subnormal() { 0.0 } else { f };
    match c {
        CondMod::Z => f == 0.0,
        CondMod::Nz => f != 0.0,
        CondMod::G => f > 0.0,
        CondMod::Ge => f >= 0.0,
        CondMod::L => f < 0.0,
        CondMod::Le => f <= 0.0,
        _ => panic!("{c:?}"),
    }
}

/// What the checks saw: cases reached (by name) and channels checked.
#[derive(Default)]
struct Seen {
    channels: usize,
    cases: BTreeMap<&'static str, usize>,
}

impl Seen {
    fn note(&mut self, case: &'static str, hit: bool) {
        if hit {
            *self.cases.entry(case).or_default() += 1;
        }
    }
}

/// Whether channel `c` of `insn` (unpredicated, or predicated by one flag bit per channel)
/// is enabled: bit `c` of the flag subregister, inverted by `-`.
fn enabled(insn: &Insn, regs: &Regs, c: u32) -> bool {
    if insn.pred == PredCtrl::None {
        return true;
    }
    let f = &regs.before[&format!("f{}", insn.flag.reg)];
    let sub = u32::from(u16::from_le_bytes([
        f[2 * usize::from(insn.flag.sub)],
        f[2 * usize::from(insn.flag.sub) + 1],
    ]));
    (sub >> c & 1 == 1) != insn.pred_inv
}

/// Check every enabled channel of a vector of `insn` (unpredicated, or predicated by one flag
/// bit per channel) against the values computed here; note the cases reached in `seen`.
fn check_vector(v: &Vector, insn: &Insn, p: Platform, seen: &mut Seen) {
    let regs = Regs::of(v);
    let d = insn.dst.unwrap();
    let Addr::Direct {
        reg: Reg::Grf(dn),
        sub: dsub,
    } = d.addr
    else {
        panic!("{}", v.insn);
    };
    let dsz = d.ty.bytes() as usize;
    let acc_wr = insn.ctrl.acc_wr;
    let keep_denorms = regs
        .before
        .get("cr0")
        .is_some_and(|c| c[0] >> 7 & 1 == 1 && p.gen_x10() >= 80);
    let alt = regs.before.get("cr0").is_some_and(|c| c[0] & 1 == 1);
    for c in 0..u32::from(insn.exec_size) {
        if !enabled(insn, &regs, c) {
            continue;
        }
        let o =
            usize::from(dn) * 32 + usize::from(dsub) + c as usize * usize::from(d.hstride) * dsz;
        let got = regs.final_at(&format!("r{}", o / 32), o % 32, dsz);
        let s = |i: usize| source(insn, &regs, i, c, false);
        let (want, acc_want): (Option<u64>, Option<u64>) = match insn.op {
            Opcode::Addc => {
                let sum = s(0) + s(1);
                seen.note("carry", sum >= 1 << 32);
                seen.note("no carry", sum < 1 << 32);
                seen.note("sum exactly 2^32", sum == 1 << 32);
                (
                    Some(to_dst(sum, d.ty, false)),
                    acc_wr.then_some((sum >> 32) as u64),
                )
            }
            Opcode::Subb => {
                let diff = s(0) - s(1);
                seen.note("borrow", diff < 0);
                seen.note("no borrow", diff >= 0);
                seen.note("difference -1", diff == -1);
                (
                    Some(to_dst(diff, d.ty, insn.sat)),
                    acc_wr.then_some(u64::from(diff < 0)),
                )
            }
            Opcode::Mach => {
                let acc = regs.acc_dword("acc0", c as usize, false).unwrap();
                let acc = if d.ty.is_signed() {
                    i128::from(acc as u32 as i32)
                } else {
                    i128::from(acc)
                };
                // src1's high 16 bits (signed for D), shifted back.
                let hi = (s(1) >> 16) << 16;
                let t = acc + s(0) * hi;
                seen.note(
                    "full-range product",
                    s(0).abs() >= 1 << 31 && hi.abs() >= 1 << 31,
                );
                seen.note("src1 high word 1, low word 0", s(1) == 0x1_0000);
                (
                    Some(to_dst(t >> 32, d.ty, insn.sat)),
                    acc_wr.then_some(t as u64 & 0xFFFF_FFFF),
                )
            }
            Opcode::Bfe => {
                let width = (s(0) as u32) & 31;
                let off = (s(1) as u32) & 31;
                seen.note("width 0", width == 0);
                seen.note("width 31", width == 31);
                seen.note("offset 0", off == 0);
                seen.note("offset 31", off == 31);
                seen.note("width wraps", s(0) as u32 & !31 != 0 && width < 2);
                seen.note("field past bit 31", width + off > 32);
                seen.note("raw width 32", s(0) == 32);
                seen.note("raw offset 32", s(1) == 32);
                let base = s(2) as u32;
                let f = if width == 0 {
                    0i128
                } else if d.ty.is_signed() {
                    let b = base as i32;
                    i128::from(if width + off < 32 {
                        (b << (32 - width - off)) >> (32 - width)
                    } else {
                        b >> off
                    })
                } else {
                    i128::from(if width + off < 32 {
                        (base << (32 - width - off)) >> (32 - width)
                    } else {
                        base >> off
                    })
                };
                (Some(to_dst(f, d.ty, false)), None)
            }
            Opcode::Bfi1 => {
                let width = (s(0) as u32) & 31;
                let off = (s(1) as u32) & 31;
                seen.note("width 0", width == 0);
                seen.note("width 31", width == 31);
                seen.note("offset 31", off == 31);
                seen.note("width wraps", s(0) as u32 & !31 != 0 && width < 2);
                seen.note("raw width 32", s(0) == 32);
                seen.note("raw offset 32", s(1) == 32);
                let m = ((1u64 << width) - 1) << off;
                (Some(m & 0xFFFF_FFFF), None)
            }
            Opcode::Bfi2 => {
                let (mask_, mut ins, base) = (s(0) as u32, s(1) as u32, s(2) as u32);
                seen.note("mask 0", mask_ == 0);
                seen.note("mask all", mask_ == u32::MAX);
                seen.note(
                    "mask scattered",
                    mask_.count_ones() > 1 && {
                        let t = mask_ >> mask_.trailing_zeros();
                        t & t.wrapping_add(1) != 0
                    },
                );
                let r = if mask_ == 0 {
                    base
                } else {
                    // Shift the insert to the mask's lowest set bit, one bit at a time.
                    let mut t = mask_;
                    while t & 1 == 0 {
                        t >>= 1;
                        ins <<= 1;
                    }
                    (base & !mask_) | (ins & mask_)
                };
                (Some(u64::from(r)), None)
            }
            Opcode::Csel if !alt => {
                let c2 = float_bits(insn, &regs, 2, c);
                let f = f32::from_bits(c2);
                seen.note("src2 NaN", f.is_nan());
                seen.note("src2 -0", c2 == 0x8000_0000);
                seen.note("src2 +0", c2 == 0);
                seen.note("src2 denormal", f.is_subnormal());
                seen.note("src2 denormal kept", f.is_subnormal() && keep_denorms);
                let pick = if compare_with_zero(c2, insn.cmod, keep_denorms) {
                    0
                } else {
                    1
                };
                seen.note("picks src0", pick == 0);
                seen.note("picks src1", pick == 1);
                // The picked source's bits, copied (its modifiers act on the sign bit), and
                // saturated to [0.0, 1.0] with .sat (sat.float: NaN and values at or below
                // zero give +0.0, fp.sat.zero-sign).
                let b = float_bits(insn, &regs, pick, c);
                let f = f32::from_bits(b);
                let b = match insn.sat {
                    true if f.is_nan() || f <= 0.0 => 0,
                    true if f > 1.0 => 1f32.to_bits(),
                    _ => b,
                };
                (Some(u64::from(b)), None)
            }
            Opcode::Csel => (None, None),
            Opcode::Sad2 | Opcode::Sada2 => {
                if c % 2 == 1 || c + 1 >= u32::from(insn.exec_size) {
                    continue;
                }
                let sc = |i: usize, k: u32| source(insn, &regs, i, k, false);
                let d2 = (sc(0, c) - sc(1, c)).abs() + (sc(0, c + 1) - sc(1, c + 1)).abs();
                seen.note("byte difference 255", (sc(0, c) - sc(1, c)).abs() == 255);
                seen.note("pair difference 510", d2 == 510);
                seen.note("equal bytes", sc(0, c) == sc(1, c));
                let total = if insn.op == Opcode::Sada2 {
                    // The word accumulator channel, read with the execution type (word, signed
                    // for B sources).
                    let w = regs.before["acc0"][2 * c as usize..2 * c as usize + 2].to_vec();
                    let w = u16::from_le_bytes([w[0], w[1]]);
                    let signed = insn.src[0].unwrap().ty().is_signed();
                    let acc = if signed {
                        i128::from(w as i16)
                    } else {
                        i128::from(w)
                    };
                    seen.note("accumulated", acc != 0);
                    d2 + acc
                } else {
                    d2
                };
                seen.note(
                    "saturated",
                    insn.sat && to_dst(total, d.ty, true) != to_dst(total, d.ty, false),
                );
                (Some(to_dst(total, d.ty, insn.sat)), None)
            }
            _ => unreachable!(),
        };
        if let (Some(w), Some(g)) = (want, got) {
            assert_eq!(g, w, "{}: {} channel {c}", v.id, v.insn);
            seen.channels += 1;
        }
        // addc and subb without AccWrEn: the sources are silent, the accumulator is undefined
        // (opcode.addc, opcode.subb notes).
        if matches!(insn.op, Opcode::Addc | Opcode::Subb) && !acc_wr {
            let g = regs.acc_dword("acc0", c as usize, true);
            assert_eq!(g, None, "{}: {} acc0 channel {c} defined", v.id, v.insn);
        }
        // The carry, borrow or mach's low half in the accumulator's dword of the channel.
        if let Some(a) = acc_want {
            let g = regs.acc_dword("acc0", c as usize, true);
            if let Some(g) = g {
                assert_eq!(g, a, "{}: {} acc0 channel {c}", v.id, v.insn);
            }
        }
    }
}

/// Every new template has vectors on every platform whose row has the opcode (and none
/// elsewhere), in the default mix, each valid, unpredicated ones agreeing channel by channel
/// with the values computed here, and reaching the edges of their cases.
#[test]
fn new_templates_give_valid_vectors_with_independently_computed_values() {
    for op in NEW {
        let mut seen = Seen::default();
        for p in Platform::ALL {
            let in_mix = template::default_ops(p).contains(&OpSel::Op(op));
            assert_eq!(in_mix, op.on(p), "{op:?} {p:?}");
            assert_eq!(OpSel::parse(op.name(), p).is_ok(), op.on(p), "{op:?} {p:?}");
            if !op.on(p) {
                continue;
            }
            let vs = vectors(p, op, COUNT);
            assert_eq!(vs.len() as u64, COUNT, "{op:?} {p:?}");
            for v in &vs {
                assert_eq!(v.op, op.name());
                let insn = golden_util::parsed_valid_insn(v, p);
                assert_eq!(insn.op, op);
                if matches!(insn.pred, PredCtrl::None | PredCtrl::Seq) {
                    check_vector(v, &insn, p, &mut seen);
                }
            }
        }
        // The cases and the share of the checked channels each must have at least (0: one):
        // the shares are those the edge values (golden::template::value_edges) give, which
        // the drawn value classes alone stay far below (2^32 sums 5%, -1 differences 2%, 510
        // pair differences 1%, raw widths and offsets of 32 and src1 = 0x10000 none).
        let want: &[(&str, f64)] = match op {
            Opcode::Addc => &[
                ("carry", 0.0),
                ("no carry", 0.0),
                ("sum exactly 2^32", 0.10),
            ],
            Opcode::Subb => &[("borrow", 0.0), ("no borrow", 0.0), ("difference -1", 0.05)],
            Opcode::Mach => &[
                ("full-range product", 0.0),
                ("src1 high word 1, low word 0", 0.0),
            ],
            Opcode::Bfe => &[
                ("width 0", 0.0),
                ("width 31", 0.0),
                ("offset 0", 0.0),
                ("offset 31", 0.0),
                ("width wraps", 0.0),
                ("field past bit 31", 0.0),
                ("raw width 32", 0.0),
                ("raw offset 32", 0.0),
            ],
            Opcode::Bfi1 => &[
                ("width 0", 0.0),
                ("width 31", 0.0),
                ("offset 31", 0.0),
                ("width wraps", 0.0),
                ("raw width 32", 0.0),
                ("raw offset 32", 0.0),
            ],
            Opcode::Bfi2 => &[("mask 0", 0.0), ("mask all", 0.0), ("mask scattered", 0.0)],
            Opcode::Csel => &[
                ("src2 NaN", 0.0),
                ("src2 -0", 0.0),
                ("src2 +0", 0.0),
                ("src2 denormal", 0.0),
                ("src2 denormal kept", 0.0),
                ("picks src0", 0.0),
                ("picks src1", 0.0),
            ],
            Opcode::Sad2 => &[
                ("byte difference 255", 0.10),
                ("equal bytes", 0.0),
                ("pair difference 510", 0.04),
            ],
            _ => &[
                ("byte difference 255", 0.10),
                ("pair difference 510", 0.04),
                ("accumulated", 0.0),
                ("saturated", 0.0),
            ],
        };
        for (w, share) in want {
            let n = seen.cases.get(w).copied().unwrap_or(0);
            assert!(
                n > 0 && n as f64 >= share * seen.channels as f64,
                "{op:?}: `{w}` in {n} of {} channels: {:?}",
                seen.channels,
                seen.cases
            );
        }
        assert!(seen.channels > 500, "{op:?}: {} channels", seen.channels);
    }
}

/// The vectors of an opcode that reads or writes the accumulator without naming it
/// (spec/opcodes.toml implicit_acc) have acc0 in `initial`, and those that write it (addc,
/// subb: the carry and borrow) in `expected`, with or without AccWrEn.
#[test]
fn implicit_accumulators_are_initial_and_compared() {
    for op in [Opcode::Addc, Opcode::Subb, Opcode::Mach, Opcode::Sada2] {
        let use_ = op.info().implicit_acc;
        assert_ne!(use_, ImplicitAcc::None, "{op:?}");
        for p in [Platform::Ivb, Platform::Skl] {
            let (mut with, mut without) = (0, 0);
            for v in vectors(p, op, 160) {
                let insn = golden_util::parsed_valid_insn(&v, p);
                assert!(v.initial.contains_key("acc0"), "{}: {}", v.id, v.insn);
                // (Unpredicated: every channel writes its carry or borrow.)
                if use_ == ImplicitAcc::Write && insn.pred == PredCtrl::None {
                    assert!(v.expected.contains_key("acc0"), "{}: {}", v.id, v.insn);
                }
                if insn.ctrl.acc_wr {
                    with += 1;
                } else {
                    without += 1;
                }
            }
            assert!(
                with > 0 || op == Opcode::Sada2,
                "{op:?} {p:?}: no AccWrEn form"
            );
            assert!(without > 0, "{op:?} {p:?}: no form without AccWrEn");
        }
    }
}

/// pln's forms read src0 as a scalar and src1 as <8;8,1> from subregister 0 (the regions
/// op.pln-src0-scalar and op.pln-src1-region allow), at 8 and 16 channels, and list both rules;
/// src1 and the register after it (and the two after those at 16 channels) are in `initial`.
#[test]
fn pln_forms_use_the_regions_of_their_rules() {
    for p in Platform::ALL {
        let mut sizes = std::collections::BTreeSet::new();
        for v in vectors(p, Opcode::Pln, 160) {
            let insn = golden_util::parsed_valid_insn(&v, p);
            let (Some(Src::Reg(s0)), Some(Src::Reg(s1))) = (insn.src[0], insn.src[1]) else {
                panic!("{}", v.insn);
            };
            let r = |x: &euref::isa::RegSrc| (x.region.vstride, x.region.width, x.region.hstride);
            assert_eq!(r(&s0), (0, 1, 0), "{}", v.insn);
            assert_eq!(r(&s1), (8, 8, 1), "{}", v.insn);
            let Addr::Direct {
                reg: Reg::Grf(n),
                sub: 0,
            } = s1.addr
            else {
                panic!("{}", v.insn);
            };
            for q in 0..2 * u32::from(insn.exec_size).div_ceil(8) {
                let name = format!("r{}", u32::from(n) + q);
                assert!(v.initial.contains_key(&name), "{}: {name}", v.insn);
            }
            for id in ["op.pln-src0-scalar", "op.pln-src1-region"] {
                assert!(v.rules.iter().any(|x| x == id), "{}: {id}", v.insn);
            }
            sizes.insert(insn.exec_size);
        }
        assert_eq!(sizes.into_iter().collect::<Vec<_>>(), [8, 16], "{p:?}");
    }
}

/// The engine uses the accumulator as the opcode rows say (spec/opcodes.toml implicit_acc,
/// from which the golden vectors take their accumulator registers): without AccWrEn, the
/// results of `read` opcodes depend on the accumulators' contents and those of the others do
/// not; `write` opcodes change acc0 and the others leave acc0 and acc1 alone. Checked on the
/// templates' instructions of every opcode, on Ivy Bridge and Skylake.
#[test]
fn engine_accumulator_use_follows_the_rows() {
    let mut seed = 0x2424_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for p in [Platform::Ivb, Platform::Skl] {
        for &op in template::SUPPORTED.iter().filter(|o| o.on(p)) {
            let use_ = op.info().implicit_acc;
            let (mut depends, mut writes, mut runs) = (false, false, 0);
            let mut r = euref::golden::values::Rng::for_vector(24, op as u64, 0);
            for k in 0..48 {
                let Some(b) = template::build(OpSel::Op(op), k, p, &[], &mut r) else {
                    continue;
                };
                let mut insn = b.insn;
                insn.ctrl.acc_wr = false;
                let mut st = euref::state::ThreadState::new(p);
                let grf: Vec<u8> = (0..4096).map(|_| next() as u8).collect();
                st.write_grf_bytes(0, &grf).unwrap();
                for f in ["f0", "f1"] {
                    st.set_arf_bytes(f, 0, &[0xff; 4]).unwrap();
                }
                let (ix0, ix1) = (st.arf_index("acc0").unwrap(), st.arf_index("acc1").unwrap());
                let mut runs_of = [st.clone(), st];
                for s in runs_of.iter_mut() {
                    for a in ["acc0", "acc1"] {
                        let bytes: Vec<u8> = (0..32).map(|_| next() as u8).collect();
                        s.set_arf_bytes(a, 0, &bytes).unwrap();
                    }
                }
                // (Bytes and undefined words: an undefined write is a write.)
                let acc_of = |s: &euref::state::ThreadState| -> Vec<u64> {
                    [ix0, ix1]
                        .iter()
                        .flat_map(|i| {
                            let (b, u) = s.arf_reg(*i).unwrap();
                            let b: Vec<u64> = b.iter().map(|x| u64::from(*x)).collect();
                            let u: Vec<u64> = u.iter().map(|x| u64::from(*x) << 32).collect();
                            [b, u].concat()
                        })
                        .collect()
                };
                let before: Vec<Vec<u64>> = runs_of.iter().map(acc_of).collect();
                if runs_of
                    .iter_mut()
                    .any(|s| euref::exec::step(s, &insn).is_err())
                {
                    continue;
                }
                runs += 1;
                let grf_of = |s: &euref::state::ThreadState| -> Vec<(u64, bool)> {
                    (0..512).map(|q| s.read_grf(8 * q, 8).unwrap()).collect()
                };
                depends |= grf_of(&runs_of[0]) != grf_of(&runs_of[1]);
                writes |= acc_of(&runs_of[0]) != before[0];
            }
            assert!(runs >= 8, "{op:?} {p:?}: {runs} runs");
            assert_eq!(
                depends,
                use_ == ImplicitAcc::Read,
                "{op:?} {p:?}: reads the accumulator"
            );
            assert_eq!(
                writes,
                use_ == ImplicitAcc::Write,
                "{op:?} {p:?}: writes the accumulator"
            );
        }
    }
}

/// csel's vectors list the cmp grid of their condition (csel compares src2 with zero as cmp
/// does), no rule of a condition-modifier flag (csel writes none), of rounding (it rounds
/// nothing) or of NaN results (it copies the source it selects), and allow no other NaN
/// pattern than the one selected.
#[test]
fn csel_vectors_name_their_comparison_and_copy_exactly() {
    for p in [Platform::Bdw, Platform::Skl] {
        let mut nans = 0;
        for v in vectors(p, Opcode::Csel, COUNT) {
            let insn = golden_util::parsed_valid_insn(&v, p);
            let grid = format!("cmp.{}", template::cmod_name(insn.cmod));
            assert!(
                v.rules.contains(&grid),
                "{}: {grid} in {:?}",
                v.insn,
                v.rules
            );
            for r in &v.rules {
                let nan_result = ["fp.ieee.nan-any-pattern", "fp.ieee.nan-propagates"];
                assert!(
                    !(r.starts_with("fp.cmod.")
                        || r.starts_with("fp.round.")
                        || nan_result.contains(&r.as_str())
                        || r.starts_with("cmp.") && *r != grid),
                    "{}: {r}",
                    v.insn
                );
            }
            assert!(
                v.alternatives.is_empty(),
                "{}: {:?}",
                v.insn,
                v.alternatives
            );
            nans += usize::from(v.classes.iter().any(|c| c.starts_with("f:NaN")));
        }
        assert!(nans > 20, "{p:?}: {nans} vectors with NaN operands");
    }
}
