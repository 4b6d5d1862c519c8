//! The execution fast paths give what the general paths give:
//! - `Policy::new` (row selection cached per platform, type, class and mode) equals
//!   `Policy::scanned` (the float_modes table scanned per call) in every environment;
//! - `Policy::add_fast` / `mul_fast` / `fma_fast` equal the bits of `add` / `mul` / `fma`
//!   whenever they apply, and apply to ordinary normal operands; `rnd_fast` / `frc_fast`
//!   equal `rnd` / `frc`; no general result a fast path stands for overflowed;
//! - `IntRead` reads integer elements as the sign/zero extension they are;
//! - the one-bit-per-channel predicate equals the flag bits channel by channel;
//! - `ArfLayout::by_name` finds what a case-insensitive scan of the names finds;
//! - the bit-mask predicate (every PredCtrl, Align16 replication) equals the channel-by-channel
//!   definition (`predicate_by_channel` below);
//! - the control dwords read at once give the fields `ThreadState::field` gives, and
//!   `advance_ip` is `set_ip(ip() + n)`.

use euref::exec::convert::{int_value, IntRead};
use euref::exec::mask::{exec_mask, exec_mask_in, flag_base, flag_space, predicate, Enables};
use euref::float::{FloatEnv, FloatType, Policy};
use euref::fp::Round;
use euref::isa::Flag;
use euref::spec::compare::GridKind;
use euref::spec::{CondMod, DataType, FpOps, Platform, PredCtrl};
use euref::state::ThreadState;

use crate::exec_util;
use exec_util::Rng;

/// Every environment of `p` worth telling apart: rounding, ALT, denorm bits all kept or all
/// flushed, and each single denorm-mode field kept.
fn envs(p: Platform) -> Vec<FloatEnv> {
    let mut out = Vec::new();
    for r in Round::ALL {
        for alt in [false, true] {
            let base = FloatEnv::new(p).with_rounding(r).with_alt(alt);
            out.push(base);
            out.push(base.with_denorms(true));
            for f in [
                &euref::spec::registers::field::CR0_0_FP16_DENORM_MODE,
                &euref::spec::registers::field::CR0_0_FP32_DENORM_MODE,
                &euref::spec::registers::field::CR0_0_DF_DENORM_MODE,
            ] {
                out.push(base.with_denorm_field(f, true));
            }
        }
    }
    out
}

#[test]
fn cached_policy_equals_the_table_scan() {
    let mut checked = 0;
    for p in Platform::ALL {
        for env in envs(p) {
            for ty in FloatType::ALL {
                for ops in FpOps::ALL {
                    assert_eq!(
                        Policy::new(&env, ty, ops),
                        Policy::scanned(&env, ty, ops),
                        "{p:?} {env:?} {ty:?} {ops:?}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 6 * 4 * 2 * 5 * 3 * 10);
}

/// F operands: mostly ordinary normals (the fast paths' case), with zeros, denormals,
/// infinities, NaNs, values near the overflow and underflow thresholds, and raw patterns.
fn operand(r: &mut Rng) -> u64 {
    let x = r.next();
    let sign = (x >> 63) << 31;
    let frac = x & 0x7f_ffff;
    let bits = match (x >> 32) % 10 {
        0 => sign,
        1 => sign | frac.max(1),
        2 => sign | 0x7f80_0000 | if x & 1 == 1 { frac } else { 0 },
        3 => sign | ((0xf0 + (x >> 40) % 15) << 23) | frac,
        4 => sign | ((1 + (x >> 40) % 30) << 23) | frac,
        5 => x & 0xffff_ffff,
        _ => sign | ((100 + (x >> 40) % 55) << 23) | frac,
    };
    bits & 0xffff_ffff
}

#[test]
fn host_fast_paths_equal_the_exact_paths() {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let mut fast = [0usize; 3];
    for p in [Platform::Ivb, Platform::Bdw, Platform::Skl] {
        for env in envs(p) {
            for ops in [FpOps::Arith, FpOps::Fused] {
                let pol = Policy::new(&env, FloatType::F, ops);
                let expect_fast = !env.alt && env.rounding == Round::Rtne;
                assert_eq!(pol.has_fast_fma(), expect_fast, "{env:?}");
                for _ in 0..3000 {
                    let (a, b, c) = (operand(&mut r), operand(&mut r), operand(&mut r));
                    if let Some(v) = pol.add_fast(a, b) {
                        assert_eq!(v, pol.add(a, b).bits, "add {a:#x} {b:#x} {env:?}");
                        fast[0] += 1;
                    }
                    if let Some(v) = pol.mul_fast(a, b) {
                        assert_eq!(v, pol.mul(a, b).bits, "mul {a:#x} {b:#x} {env:?}");
                        fast[1] += 1;
                    }
                    if let Some(v) = pol.fma_fast(a, b, c) {
                        assert_eq!(v, pol.fma(a, b, c).bits, "fma {a:#x} {b:#x} {c:#x}");
                        fast[2] += 1;
                    }
                    if !expect_fast {
                        assert_eq!(pol.add_fast(a, b), None);
                    }
                }
            }
        }
    }
    // The fast paths took a good share of the cases (not a vacuous comparison).
    assert!(fast.iter().all(|k| *k > 20_000), "{fast:?}");
    // Ordinary operands take the fast path; special ones do not.
    let pol = Policy::new(&FloatEnv::new(Platform::Skl), FloatType::F, FpOps::Arith);
    let one = u64::from(1.0f32.to_bits());
    let two = u64::from(2.0f32.to_bits());
    assert_eq!(pol.add_fast(one, one), Some(two));
    assert_eq!(pol.mul_fast(two, one), Some(two));
    assert_eq!(pol.add_fast(0x7f80_0000, one), None);
    assert_eq!(pol.mul_fast(1, one), None);
}

/// The fast paths' results are normal or zero and their general results do not overflow
/// (the one flag read after an operation: a fast result's flags are taken as none), and
/// `rnd_fast` / `frc_fast` equal `rnd` / `frc` bit for bit wherever they apply: every
/// rounding direction, rounding mode, ALT and denorm mode, zeros, denormals, infinities, NaN
/// payloads.
#[test]
fn host_rounding_fast_paths_equal_the_exact_paths() {
    let mut r = Rng(0x2545_f491_4f6c_dd1d);
    let mut fast = [0usize; 2];
    let plain = |v: u64| {
        let e = (v >> 23) & 0xff;
        e != 0xff && (e != 0 || v & 0x7f_ffff == 0)
    };
    for p in [Platform::Ivb, Platform::Bdw, Platform::Skl] {
        for env in envs(p) {
            for ty in FloatType::ALL {
                let pol = Policy::new(&env, ty, FpOps::Arith);
                for i in 0..2000 {
                    // Edge values first, then mostly ordinary operands.
                    let edges = [0, 0x8000_0000, 1, 0x8000_0001, 0x7f80_0000, 0xff80_0000];
                    let a = match i {
                        0..=5 => edges[i],
                        6 => 0x7fc0_1234,
                        7 => 0xff80_0001,
                        8 => u64::from((-0.5f32).to_bits()),
                        9 => u64::from((-1e-30f32).to_bits()),
                        10 => u64::from(2.5f32.to_bits()),
                        11 => u64::from((-3.5f32).to_bits()),
                        _ => operand(&mut r),
                    };
                    for dir in Round::ALL {
                        let slow = pol.rnd(a, dir);
                        match pol.rnd_fast(a, dir) {
                            Some(v) => {
                                assert_eq!(v, slow.bits, "rnd {dir:?} {a:#x} {env:?} {ty:?}");
                                assert!(plain(v) && !slow.flags.overflow());
                                fast[0] += 1;
                            }
                            None => assert!(ty != FloatType::F || !plain(a), "{a:#x}"),
                        }
                    }
                    let slow = pol.frc(a);
                    if let Some(v) = pol.frc_fast(a) {
                        assert_eq!(v, slow.bits, "frc {a:#x} {env:?} {ty:?}");
                        assert!(plain(v) && !slow.flags.overflow());
                        fast[1] += 1;
                    }
                    if !pol.has_fast_fma() {
                        assert_eq!(pol.frc_fast(a), None);
                    }
                    let b = operand(&mut r);
                    let c = operand(&mut r);
                    if pol.add_fast(a, b).is_some() {
                        assert!(!pol.add(a, b).flags.overflow());
                    }
                    if pol.mul_fast(a, b).is_some() {
                        assert!(!pol.mul(a, b).flags.overflow());
                    }
                    if pol.fma_fast(a, b, c).is_some() {
                        assert!(!pol.fma(a, b, c).flags.overflow());
                    }
                }
            }
        }
    }
    assert!(fast.iter().all(|k| *k > 20_000), "{fast:?}");
    let pol = Policy::new(&FloatEnv::new(Platform::Skl), FloatType::F, FpOps::Arith);
    let f = |x: f32| u64::from(x.to_bits());
    assert_eq!(pol.rnd_fast(f(-2.5), Round::Rtne), Some(f(-2.0)));
    assert_eq!(pol.rnd_fast(f(-2.5), Round::Rd), Some(f(-3.0)));
    assert_eq!(pol.rnd_fast(f(-0.5), Round::Ru), Some(f(-0.0)));
    assert_eq!(pol.frc_fast(f(-0.25)), Some(f(0.75)));
    assert_eq!(pol.frc_fast(f(5.0)), Some(f(0.0)));
    assert_eq!(pol.frc_fast(0x7f80_0000), None);
}

#[test]
fn host_compare_equals_the_exact_compare() {
    let mut r = Rng(0x51_7cc1_b727_220a);
    let mut fast = 0usize;
    for p in [Platform::Hsw, Platform::Skl] {
        for env in envs(p) {
            for ty in FloatType::ALL {
                let pol = Policy::new(&env, ty, FpOps::Compare);
                for _ in 0..400 {
                    let (a, b) = (operand(&mut r), operand(&mut r));
                    // Equal operands, and +0 against -0, too.
                    let b = match r.next() % 8 {
                        0 => a,
                        1 => a ^ 0x8000_0000,
                        _ => b,
                    };
                    for cmod in CondMod::ALL {
                        for kind in [GridKind::Cmp, GridKind::Cmpn] {
                            if let Some(v) = pol.compare_fast(cmod, kind, a, b) {
                                assert_eq!(ty, FloatType::F);
                                let want = pol.compare(cmod, kind, a, b).value;
                                assert_eq!(v, want, "{cmod:?} {kind:?} {a:#x} {b:#x} {env:?}");
                                fast += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(fast > 100_000, "{fast}");
    let pol = Policy::new(&FloatEnv::new(Platform::Skl), FloatType::F, FpOps::Compare);
    assert_eq!(
        pol.compare_fast(CondMod::Z, GridKind::Cmp, 0, 0x8000_0000),
        Some(true)
    );
    assert_eq!(
        pol.compare_fast(CondMod::L, GridKind::Cmp, 0x7fc0_0000, 0),
        None
    );
}

#[test]
fn int_read_is_sign_or_zero_extension() {
    let mut r = Rng(7);
    let types = [
        DataType::UB,
        DataType::B,
        DataType::UW,
        DataType::W,
        DataType::UD,
        DataType::D,
        DataType::UQ,
        DataType::Q,
    ];
    for t in types {
        let bits = t.bits();
        let read = IntRead::of(t);
        for k in 0..2000 {
            let b = match k {
                0 => 0,
                1 => u64::MAX,
                2 => 1u64 << (bits - 1),
                _ => r.next(),
            };
            let m = if bits == 64 {
                b
            } else {
                b & ((1u64 << bits) - 1)
            };
            let want = if t.is_signed() && m >> (bits - 1) & 1 == 1 {
                i128::from(m) - (1i128 << bits)
            } else {
                i128::from(m)
            };
            assert_eq!(read.value(b), want, "{t:?} {b:#x}");
            assert_eq!(int_value(t, b), want, "{t:?} {b:#x}");
        }
    }
    assert_eq!(IntRead::of(DataType::B).value(0x80), -128);
    assert_eq!(IntRead::of(DataType::UB).value(0x180), 128);
}

#[test]
fn sequential_predicate_is_the_flag_bits() {
    let mut r = Rng(99);
    for p in [Platform::Ivb, Platform::Skl] {
        let mut st = ThreadState::new(p);
        for _ in 0..3000 {
            let x = r.next();
            let (v0, v1, u) = (x as u32, (x >> 32) as u32, r.next());
            // Mostly defined flags, sometimes a few undefined bits.
            let (u0, u1) = if u & 3 == 0 {
                (
                    u as u32 & (u >> 32) as u32,
                    (u >> 7) as u32 & (u >> 40) as u32,
                )
            } else {
                (0, 0)
            };
            st.set_flag(0, v0, u0).expect("f0");
            st.set_flag(1, v1, u1).expect("f1");
            let flag = Flag {
                reg: (u >> 3 & 1) as u8,
                sub: (u >> 4 & 1) as u8,
            };
            let n = [1usize, 2, 4, 8, 16, 32][(u >> 5) as usize % 6];
            let chan_off = [0usize, 4, 8, 12, 16, 20, 24, 28][(u >> 9) as usize % 8];
            let inv = u >> 12 & 1 == 1;
            let got = predicate(&st, PredCtrl::Seq, inv, flag, chan_off, n, None);
            let space = u64::from(v0) | u64::from(v1) << 32;
            let undef = u64::from(u0) | u64::from(u1) << 32;
            let (mut on, mut unknown) = (0u32, 0u32);
            for ch in 0..n {
                let i = flag_base(flag) + chan_off + ch;
                if i >= 64 || undef >> i & 1 == 1 {
                    unknown |= 1 << ch;
                } else if (space >> i & 1 == 1) != inv {
                    on |= 1 << ch;
                }
            }
            assert_eq!(
                (got.on, got.unknown),
                (on, unknown),
                "{flag:?} {n} {chan_off}"
            );
        }
    }
}

#[test]
fn register_lookup_by_name_equals_a_scan() {
    for p in Platform::ALL {
        let st = ThreadState::new(p);
        let layout = st.arf_layout();
        let scan = |name: &str| {
            layout
                .regs
                .iter()
                .position(|r| r.name.eq_ignore_ascii_case(name))
        };
        let mut names: Vec<String> = layout.regs.iter().map(|r| r.name.clone()).collect();
        names.extend(layout.regs.iter().map(|r| r.name.to_uppercase()));
        names.extend(
            [
                "",
                "a",
                "acc",
                "acc10",
                "f2",
                "r0",
                "null\0",
                "cr0\0",
                "ip ",
                "sr0.0",
                "aCc1",
                "nUlL",
                "tdr0",
                "tm0",
                "accumulator0",
                "é",
                "a0é",
            ]
            .map(String::from),
        );
        for name in &names {
            assert_eq!(layout.by_name(name), scan(name), "{p:?} `{name}`");
        }
        assert!(layout.by_name("ACC0").is_some());
        assert_eq!(st.arf_index("cr0"), scan("cr0"));
    }
}

/// Random flag registers f0, f1 (value, undefined bits: none, a few or many).
fn random_flags(r: &mut Rng, st: &mut ThreadState) {
    let (x, u) = (r.next(), r.next());
    let undef = match u & 3 {
        0 => 0,
        1 => u & r.next() & r.next(),
        2 => u,
        _ => u & r.next(),
    };
    st.set_flag(0, x as u32, undef as u32).expect("f0");
    st.set_flag(1, (x >> 32) as u32, (undef >> 32) as u32)
        .expect("f1");
}

/// The predicate of channels `0..n` channel by channel, from the rows flow.pmask.*: channel
/// `ch` reads flag bit `base + ch` (sequential), bit `base + (ch & !3) + c` (Align16
/// replication of component `c`), or the OR (any) / AND (all) of the bits of its group
/// (anyNh/allNh: groups of N from the channel's group start) or of its own bit `chan_off + ch`
/// of f0.0 and of f1.0 (anyv/allv; unknown from bit 16 on; an instruction naming f0.1 or f1.1
/// is known only where the f0.1/f1.1 bits give the same value), where a bit past f1.1 or
/// undefined is unknown and a defined bit equal to the OR/AND's absorbing value decides; the
/// result is inverted with `inv`.
fn predicate_by_channel(
    st: &ThreadState,
    pred: PredCtrl,
    inv: bool,
    flag: Flag,
    chan_off: usize,
    n: usize,
    a16_chan: Option<u8>,
) -> Enables {
    let mut e = Enables { on: 0, unknown: 0 };
    if pred == PredCtrl::None {
        e.on = if n >= 32 { u32::MAX } else { (1 << n) - 1 };
        return e;
    }
    let (val, undef) = flag_space(st);
    let base = flag_base(flag) + chan_off;
    let bit = |i: usize| -> (bool, bool) {
        if i >= 64 {
            (false, true)
        } else {
            (val >> i & 1 == 1, undef >> i & 1 == 1)
        }
    };
    let combine_bits = |bits: Vec<(bool, bool)>, any: bool| -> (bool, bool) {
        if bits.iter().any(|&(v, u)| !u && v == any) {
            (any, false)
        } else {
            (!any, bits.iter().any(|&(_, u)| u))
        }
    };
    let combine = |from: usize, len: usize, any: bool| {
        combine_bits((from..from + len).map(bit).collect(), any)
    };
    // f0.S and f1.S bit i (S = 0, 1) combined.
    let vertical_of = |sub: usize, i: usize, any: bool| {
        combine_bits(vec![bit(16 * sub + i), bit(32 + 16 * sub + i)], any)
    };
    let vertical = |ch: usize, any: bool| -> (bool, bool) {
        let i = chan_off + ch;
        if i >= 16 {
            return (false, true);
        }
        let a = vertical_of(0, i, any);
        if flag.sub == 0 || a == vertical_of(1, i, any) {
            a
        } else {
            (false, true)
        }
    };
    for ch in 0..n.min(32) {
        let group = |size: usize, any: bool| combine(base + ch / size * size, size, any);
        let (v, u) = match (a16_chan, pred) {
            (Some(c), _) => bit(base + (ch & !3) + usize::from(c)),
            (None, PredCtrl::Anyv) => vertical(ch, true),
            (None, PredCtrl::Allv) => vertical(ch, false),
            (None, PredCtrl::Any2h) => group(2, true),
            (None, PredCtrl::All2h) => group(2, false),
            (None, PredCtrl::Any4h) => group(4, true),
            (None, PredCtrl::All4h) => group(4, false),
            (None, PredCtrl::Any8h) => group(8, true),
            (None, PredCtrl::All8h) => group(8, false),
            (None, PredCtrl::Any16h) => group(16, true),
            (None, PredCtrl::All16h) => group(16, false),
            (None, PredCtrl::Any32h) => group(32, true),
            (None, PredCtrl::All32h) => group(32, false),
            (None, _) => bit(base + ch),
        };
        if u {
            e.unknown |= 1 << ch;
        } else if v != inv {
            e.on |= 1 << ch;
        }
    }
    e
}

/// The rows flow.pmask.none, flow.pmask.seq, flow.pmask.group, flow.pmask.align16-replicate,
/// flow.pmask.vertical (with flow.pmask.vertical-high-channel and
/// flow.pmask.vertical-subregister) and flow.pmask.invert, written channel by channel
/// (`predicate_by_channel`), against src/exec's masks.
#[test]
fn predicate_masks_equal_the_channel_definition() {
    let mut r = Rng(0x5eed_f1a9);
    let mut checked = 0;
    for p in [Platform::Ivb, Platform::Bdw, Platform::Skl] {
        let mut st = ThreadState::new(p);
        for _ in 0..4000 {
            random_flags(&mut r, &mut st);
            let u = r.next();
            let flag = Flag {
                reg: (u & 1) as u8,
                sub: (u >> 1 & 1) as u8,
            };
            let n = [1usize, 2, 4, 8, 16, 32][(u >> 2) as usize % 6];
            let chan_off = [0usize, 4, 8, 12, 16, 20, 24, 28][(u >> 5) as usize % 8];
            let inv = u >> 8 & 1 == 1;
            let a16 = match u >> 9 & 7 {
                c @ 0..=3 => Some(c as u8),
                _ => None,
            };
            for pred in PredCtrl::ALL {
                let got = predicate(&st, pred, inv, flag, chan_off, n, a16);
                let want = predicate_by_channel(&st, pred, inv, flag, chan_off, n, a16);
                assert_eq!(
                    got, want,
                    "{pred:?} inv {inv} {flag:?} n {n} off {chan_off} {a16:?}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 3 * 4000 * PredCtrl::ALL.len());
}

#[test]
fn control_dwords_give_the_fields_and_advance_ip_is_set_ip() {
    use euref::exec::acc::{implicit_writes, implicit_writes_in};
    use euref::spec::registers::field as f;
    use euref::state::field_of_dword;
    let mut r = Rng(0xc0_11ec7);
    for p in Platform::ALL {
        let mut st = ThreadState::new(p);
        for _ in 0..300 {
            for (name, dword) in [("cr0", 0), ("sr0", 2), ("sr0", 3), ("ip", 0)] {
                let (v, u) = (r.next(), r.next());
                st.set_arf_bytes(name, 4 * dword, &(v as u32).to_le_bytes())
                    .expect(name);
                // Mostly defined; sometimes a few undefined bits.
                let undef = if u & 3 == 0 {
                    (u >> 2) as u32 & (u >> 34) as u32
                } else {
                    0
                };
                st.set_arf_undef_bits(name, dword, undef).expect(name);
            }
            let ctl = st.control_dwords();
            for (fi, d) in [
                (&f::CR0_0_FP_MODE, ctl.cr0_0),
                (&f::CR0_0_ACC_DISABLE, ctl.cr0_0),
                (&f::CR0_0_VECTOR_MASK_ENABLE, ctl.cr0_0),
                (&f::CR0_0_ROUNDING_MODE, ctl.cr0_0),
                (&f::SR0_2_DMASK, ctl.sr0_2),
                (&f::SR0_3_VMASK, ctl.sr0_3),
            ] {
                assert_eq!(field_of_dword(d, fi), st.field(fi), "{p:?} {}", fi.name);
            }
            assert_eq!(ctl.cr0_0, st.field_dword(&f::CR0_0_FP_MODE), "{p:?}");
            for acc_wr in [false, true] {
                assert_eq!(
                    implicit_writes_in(&ctl, acc_wr),
                    implicit_writes(&st, acc_wr)
                );
            }
            for (no_mask, n) in [(false, 8), (false, 16), (false, 32), (true, 16)] {
                assert_eq!(
                    exec_mask_in(&ctl, p, no_mask, 8, n),
                    exec_mask(&st, no_mask, 8, n),
                    "{p:?}"
                );
            }
            let by = [8u32, 16, u32::MAX - 7][r.next() as usize % 3];
            let mut want = st.clone();
            if let Some(ip) = want.ip() {
                want.set_ip(ip.wrapping_add(by));
            }
            st.advance_ip(by);
            assert_eq!(st.ip(), want.ip(), "{p:?}");
            assert!(st == want, "{p:?}: advance_ip changed more than the IP");
        }
        // An undefined IP stays undefined.
        let mut st = ThreadState::new(p);
        st.set_arf_undef_bits("ip", 0, u32::MAX).expect("ip");
        let before = st.clone();
        assert_eq!(st.ip(), None);
        st.advance_ip(16);
        assert!(st == before && st.ip().is_none(), "{p:?}");
    }
}
