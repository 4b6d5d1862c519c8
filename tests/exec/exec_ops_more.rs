//! The fused and conversion float opcodes (frc, lrp, dp2/dp3/dp4/dph, line, pln, f32to16,
//! f16to32, madm): bit values at type boundaries, predication, condition modifiers, saturation,
//! the rounding mode of cr0, and the F mad fast path (bit-identical to the full path).
//!
//! Rows: opcode.frc, opcode.lrp, opcode.dp2, opcode.dp3, opcode.dp4, opcode.dph, opcode.line,
//! opcode.pln, opcode.f32to16, opcode.f16to32, opcode.madm, fp.round.cr0-fused,
//! fp.round.rnd-insns, feature.df-element-size-4, conv.float-narrow.f-hf, conv.float-widen.hf-f.
//!
//! Expected values are computed independently: where the exact value of an expression is
//! representable in f64 (short significands), the f64 value rounded once to f32 (`as f32` is
//! round-to-nearest-even) is the single-rounding result; other values are hand-derived bit
//! patterns, explained where they appear.

use crate::exec_util;

use euref::exec::ExecError;
use euref::float::{FloatEnv, FloatType, Policy};
use euref::spec::FpOps;
use euref::spec::Platform::*;
use euref::state::ThreadState;
use exec_util::*;
use proptest::prelude::{any, prop_assert_eq, proptest, ProptestConfig};

fn f(x: f32) -> u64 {
    u64::from(x.to_bits())
}

fn set_field(st: &mut ThreadState, reg: &str, name: &str, v: u32) {
    let fi = st.field_info(reg, name).unwrap();
    st.set_field(fi, v).unwrap();
}

/// A random f32 with a short significand (<= 12 bits) and a small exponent: products and sums
/// of a few of them are exact in f64.
fn short(rng: &mut Rng) -> f32 {
    let m = (rng.next() % 4096) as i32 - 2048;
    let e = (rng.next() % 13) as i32 - 6;
    m as f32 * (2f32).powi(e)
}

#[test]
fn frc_values_rounding_and_specials() {
    let mut st = zeroed(Skl);
    put(
        &mut st,
        r(2, 0),
        4,
        &[
            f(2.75),
            f(-2.25),
            f(-0.0),
            f(16777216.0),
            f32::INFINITY.to_bits() as u64,
            f(-1e-30),
            0x7fc0_0001,
            f(0.5),
        ],
    );
    run(&mut st, &["frc (8) r1<1>:f r2<8;8,1>:f"]);
    assert_eq!(
        get(&st, r(1, 0), 4, 8),
        vec![
            f(0.75),
            f(0.75),
            // -0 - floor(-0) = -0 - -0 = +0 in RTNE.
            0,
            0,
            // inf - inf: NaN (the canonical F NaN, fp.ieee.nan-any-pattern).
            0x7fc0_0000,
            // -1e-30 - (-1) = 1 - 1e-30, rounded to nearest: 1.0.
            f(1.0),
            0x7fc0_0000,
            f(0.5),
        ]
    );
    // Round toward zero (cr0.0 rounding mode 11b): 1 - 1e-30 becomes the largest F below 1.
    set_field(&mut st, "cr0", "rounding_mode", 3);
    run(&mut st, &["frc (8) r1<1>:f r2<8;8,1>:f"]);
    assert_eq!(get(&st, r(1, 20), 4, 1), vec![0x3f7f_ffff]);
    // Condition modifier on the result, predication: channels with f0.0 clear keep r1.
    let mut st = zeroed(Skl);
    put(&mut st, r(2, 0), 4, &[f(1.5), f(3.0), f(-0.5), f(7.25)]);
    put(&mut st, r(1, 0), 4, &[f(9.0); 4]);
    st.set_flag(0, 0b1011, 0).unwrap();
    run(&mut st, &["(f0.0) frc.z.f0.0 (4) r1<1>:f r2<4;4,1>:f"]);
    assert_eq!(
        get(&st, r(1, 0), 4, 4),
        vec![f(0.5), f(0.0), f(9.0), f(0.25)]
    );
    // Flags of the enabled channels 0, 1, 3 only: frc(3.0) == 0.
    assert_eq!(st.flag(0).unwrap().0 & 0xf, 0b0010);
}

#[test]
fn dp4_dp3_dp2_dph_per_group_of_four() {
    let mut st = zeroed(Ivb);
    put(
        &mut st,
        r(2, 0),
        4,
        &[
            f(1.0),
            f(2.0),
            f(3.0),
            f(99.0),
            f(1.0 + 1.0 / 4096.0),
            f(-1.0),
            f(0.0),
            f(0.0),
        ],
    );
    put(
        &mut st,
        r(3, 0),
        4,
        &[
            f(4.0),
            f(5.0),
            f(6.0),
            f(7.0),
            f(1.0 + 1.0 / 4096.0),
            f(1.0),
            f(0.0),
            f(0.0),
        ],
    );
    // (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24, exact in F: one rounding of the exact sum (a rounded
    // product would lose the 2^-24: 1 + 2^-11 + 2^-24 ties to 1 + 2^-11).
    let x = 1.0f64 + 1.0 / 4096.0;
    let g1 = f((x * x - 1.0) as f32);
    assert_eq!(g1, 0x3a00_0400);
    for (op, g0) in [
        ("dp4", 4.0 + 10.0 + 18.0 + 693.0),
        ("dp3", 32.0),
        ("dp2", 14.0),
        ("dph", 39.0),
    ] {
        let t = format!("{op} (8) r1<4>.xyzw:f r2<4>.xyzw:f r3<4>.xyzw:f");
        run(&mut st, &[t.as_str()]);
        // Group 1: src0.zw and src1.zw are 0, so dp4, dp3, dp2 and dph (+ src1.w) agree.
        let want1 = g1;
        let got = get(&st, r(1, 0), 4, 8);
        assert_eq!(got[..4], [f(g0 as f32); 4], "{op}");
        assert_eq!(got[4..], [want1; 4], "{op}");
    }
    // Saturation, a condition modifier, and an Align16 channel-enable mask (.xy).
    put(&mut st, r(1, 0), 4, &[f(5.0); 8]);
    run(
        &mut st,
        &["dp2.sat.g.f0.0 (8) r1<4>.xy:f r2<4>.xyzw:f r3<4>.xyzw:f"],
    );
    assert_eq!(
        get(&st, r(1, 0), 4, 8),
        vec![f(1.0), f(1.0), f(5.0), f(5.0), g1, g1, f(5.0), f(5.0)]
    );
    // Flags only for the enabled channels: 1.0 > 0 and 2^-11 + 2^-24 > 0.
    assert_eq!(st.flag(0).unwrap().0 & 0xff, 0b0011_0011);
}

#[test]
fn dp4_random_short_values_round_once() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for _ in 0..50 {
        let mut st = zeroed(Skl);
        let a: Vec<f32> = (0..8).map(|_| short(&mut rng)).collect();
        let b: Vec<f32> = (0..8).map(|_| short(&mut rng)).collect();
        put(
            &mut st,
            r(2, 0),
            4,
            &a.iter().map(|x| f(*x)).collect::<Vec<_>>(),
        );
        put(
            &mut st,
            r(3, 0),
            4,
            &b.iter().map(|x| f(*x)).collect::<Vec<_>>(),
        );
        run(&mut st, &["dp4 (8) r1<4>.xyzw:f r2<4>.xyzw:f r3<4>.xyzw:f"]);
        let got = get(&st, r(1, 0), 4, 8);
        for g in 0..2 {
            let exact: f64 = (0..4)
                .map(|k| a[4 * g + k] as f64 * b[4 * g + k] as f64)
                .sum();
            for ch in 0..4 {
                assert_eq!(got[4 * g + ch], f(exact as f32), "group {g}: {a:?} {b:?}");
            }
        }
    }
}

#[test]
fn dp4_specials() {
    let mut st = zeroed(Skl);
    let inf = f32::INFINITY;
    put(
        &mut st,
        r(2, 0),
        4,
        &[
            f(inf),
            f(1.0),
            f(0.0),
            f(0.0),
            f(inf),
            f(-inf),
            f(0.0),
            f(0.0),
        ],
    );
    put(
        &mut st,
        r(3, 0),
        4,
        &[
            f(0.0),
            f(1.0),
            f(0.0),
            f(0.0),
            f(1.0),
            f(1.0),
            f(0.0),
            f(0.0),
        ],
    );
    run(&mut st, &["dp4 (8) r1<4>.xyzw:f r2<4>.xyzw:f r3<4>.xyzw:f"]);
    // inf * 0: NaN; inf + -inf: NaN... here +inf*1 + -inf*1: NaN.
    assert_eq!(get(&st, r(1, 0), 4, 8), vec![0x7fc0_0000; 8]);
    // Exact zero sums: -0 products only give -0; a cancellation gives +0 (RTNE).
    put(
        &mut st,
        r(2, 0),
        4,
        &[
            f(-0.0),
            f(0.0),
            f(-1.0),
            f(0.0),
            f(1.0),
            f(-1.0),
            f(0.0),
            f(0.0),
        ],
    );
    put(
        &mut st,
        r(3, 0),
        4,
        &[
            f(1.0),
            f(-1.0),
            f(0.0),
            f(-3.0),
            f(1.0),
            f(1.0),
            f(0.0),
            f(0.0),
        ],
    );
    run(&mut st, &["dp4 (8) r1<4>.xyzw:f r2<4>.xyzw:f r3<4>.xyzw:f"]);
    assert_eq!(
        get(&st, r(1, 0), 4, 8),
        vec![
            0x8000_0000,
            0x8000_0000,
            0x8000_0000,
            0x8000_0000,
            0,
            0,
            0,
            0
        ]
    );
    // Overflow of the final sum: F max * 2 rounds to +inf; 2^127 * 2 - 2^127 * 2 + 1 = 1 (the
    // exact value is kept through the overflowing intermediate products).
    let big = f32::from_bits(0x7f00_0000); // 2^127
    put(
        &mut st,
        r(2, 0),
        4,
        &[
            f(big),
            f(big),
            f(0.0),
            f(0.0),
            f(big),
            f(-big),
            f(1.0),
            f(0.0),
        ],
    );
    put(
        &mut st,
        r(3, 0),
        4,
        &[
            f(2.0),
            f(0.0),
            f(0.0),
            f(0.0),
            f(2.0),
            f(2.0),
            f(1.0),
            f(0.0),
        ],
    );
    run(&mut st, &["dp4 (8) r1<4>.xyzw:f r2<4>.xyzw:f r3<4>.xyzw:f"]);
    assert_eq!(
        get(&st, r(1, 0), 4, 8),
        vec![
            0x7f80_0000,
            0x7f80_0000,
            0x7f80_0000,
            0x7f80_0000,
            f(1.0),
            f(1.0),
            f(1.0),
            f(1.0)
        ]
    );
    // ExecSize 2 cuts the group short: the channels written are undefined.
    run(&mut st, &["dp4 (2) r9<1>:f r2<2;2,1>:f r3<2;2,1>:f"]);
    assert!(get1(&st, r(9, 0), 4).1 && get1(&st, r(9, 4), 4).1);
    assert!(!get1(&st, r(9, 8), 4).1);
}

#[test]
fn lrp_weight_is_src0_single_rounding_and_specials() {
    let inf = f32::INFINITY;
    for p in [Ivb, Hsw, Skl] {
        let mut st = zeroed(p);
        put(&mut st, r(2, 0), 4, &[f(0.25), f(1.0), f(2.0), f(2.0)]);
        put(&mut st, r(3, 0), 4, &[f(8.0), f(-0.0), f(inf), f(1.0)]);
        put(&mut st, r(4, 0), 4, &[f(4.0), f(-0.0), f(1.0), f(inf)]);
        run(
            &mut st,
            &["lrp (4) r1<4>.xyzw:f r2<4>.xyzw:f r3<4>.xyzw:f r4<4>.xyzw:f"],
        );
        assert_eq!(
            get(&st, r(1, 0), 4, 4),
            vec![
                // 0.25*8 + 0.75*4
                f(5.0),
                // 1*(-0) + (1-1)*(-0) = -0 + (+0 * -0 = -0) = -0
                0x8000_0000,
                // 2*inf + (-1)*1 = +inf
                0x7f80_0000,
                // 2*1 + (-1)*inf = -inf
                0xff80_0000,
            ],
            "{p:?}"
        );
    }
    // Random short values: the exact a*b + (1-a)*c rounded once.
    let mut rng = Rng(0xfeed_beef_1234_5678);
    for _ in 0..50 {
        let mut st = zeroed(Skl);
        let v: Vec<[f32; 3]> = (0..4)
            .map(|_| [short(&mut rng), short(&mut rng), short(&mut rng)])
            .collect();
        for k in 0..3 {
            put(
                &mut st,
                r(2 + k, 0),
                4,
                &v.iter().map(|x| f(x[k])).collect::<Vec<_>>(),
            );
        }
        run(
            &mut st,
            &["lrp (4) r1<4>.xyzw:f r2<4>.xyzw:f r3<4>.xyzw:f r4<4>.xyzw:f"],
        );
        let got = get(&st, r(1, 0), 4, 4);
        for (ch, [a, b, c]) in v.iter().enumerate() {
            let (a, b, c) = (*a as f64, *b as f64, *c as f64);
            let exact = a * b + (1.0 - a) * c;
            // Exact in f64, zero signs included (IEEE sum of the two products).
            let want = f(exact as f32);
            assert_eq!(got[ch], want, "{a} {b} {c}");
        }
    }
}

#[test]
fn line_and_pln_use_src0_scalars() {
    let mut rng = Rng(0x0bad_cafe_dead_f00d);
    for _ in 0..20 {
        let mut st = zeroed(Skl);
        let (pp, q, rr) = (short(&mut rng), short(&mut rng), short(&mut rng));
        // src0 = r2: p at .0, q at .1, r at .3 (.2 is not used).
        put(&mut st, r(2, 0), 4, &[f(pp), f(q), f(1234.0), f(rr)]);
        let x: Vec<f32> = (0..16).map(|_| short(&mut rng)).collect();
        let y: Vec<f32> = (0..16).map(|_| short(&mut rng)).collect();
        // pln's src1 layout: r4 = x of channels 0-7, r5 = y 0-7, r6 = x 8-15, r7 = y 8-15.
        for ch in 0..16 {
            let base = if ch < 8 { r(4, 0) } else { r(6, 0) };
            put(&mut st, base + 4 * (ch % 8), 4, &[f(x[ch])]);
            put(&mut st, base + 32 + 4 * (ch % 8), 4, &[f(y[ch])]);
        }
        run(&mut st, &["pln (16) r10<1>:f r2.0<0;1,0>:f r4<8;8,1>:f"]);
        let got = get(&st, r(10, 0), 4, 16);
        for ch in 0..16 {
            let exact = pp as f64 * x[ch] as f64 + q as f64 * y[ch] as f64 + rr as f64;
            assert_eq!(got[ch], f(exact as f32), "pln ch {ch}");
        }
        // line: p * src1 + r, src1 regioned normally (r4: x of channels 0-7).
        run(&mut st, &["line (8) r12<1>:f r2.0<0;1,0>:f r4<8;8,1>:f"]);
        let got = get(&st, r(12, 0), 4, 8);
        for ch in 0..8 {
            let exact = pp as f64 * x[ch] as f64 + rr as f64;
            assert_eq!(got[ch], f(exact as f32), "line ch {ch}");
        }
    }
    // Saturation and a condition modifier on pln.
    let mut st = zeroed(Skl);
    put(&mut st, r(2, 0), 4, &[f(1.0), f(1.0), f(0.0), f(-0.5)]);
    put(
        &mut st,
        r(4, 0),
        4,
        &[
            f(0.0),
            f(1.0),
            f(2.0),
            f(0.25),
            f(0.0),
            f(0.0),
            f(0.0),
            f(0.0),
        ],
    );
    put(&mut st, r(5, 0), 4, &[f(0.0); 8]);
    run(
        &mut st,
        &["pln.sat.l.f0.0 (8) r10<1>:f r2.0<0;1,0>:f r4<8;8,1>:f"],
    );
    // -0.5 -> 0 (flag: 0 < 0 false after saturation), 0.5, 1.5 -> 1, -0.25 -> 0.
    assert_eq!(get(&st, r(10, 0), 4, 4), vec![0, f(0.5), f(1.0), 0]);
    assert_eq!(st.flag(0).unwrap().0 & 0xf, 0);
    // Immediate sources are refused with an operand error, and nothing changes.
    let before = st.clone();
    assert!(matches!(
        try_run(&mut st, "line (8) r12<1>:f 1.0:f r4<8;8,1>:f"),
        Err(ExecError::Operand { .. })
    ));
    assert!(st == before);
}

#[test]
fn f32to16_and_f16to32_on_gen7() {
    for p in [Ivb, Hsw] {
        let mut st = zeroed(p);
        put(
            &mut st,
            r(2, 0),
            4,
            &[
                f(1.0),
                f(65504.0),
                f(65520.0),
                f(2f32.powi(-24)),
                0x7f80_0001,
                f(-2.0),
                f(2f32.powi(-26)),
                f(0.1),
            ],
        );
        put(&mut st, r(1, 0), 4, &[0xdead_beef; 8]);
        run(&mut st, &["f32to16 (8) r1<1>:ud r2<8;8,1>:f"]);
        assert_eq!(
            get(&st, r(1, 0), 4, 8),
            vec![
                0x3c00, // HF max
                0x7bff,
                // 65520 is halfway between 65504 and 65536: ties to even, which overflows to inf.
                0x7c00, // 2^-24: the smallest HF denormal.
                0x0001, // NaN: the canonical HF NaN.
                0x7e00, 0xc000, // 2^-26 rounds to +0 (below half the smallest denormal).
                0,
                // 0.1 = 0x3dcccccd -> HF 0x2e66 (0.0999755859375; 0x2e67 is farther).
                0x2e66,
            ],
            "{p:?}"
        );
        // Round toward zero: 65520 becomes HF max.
        set_field(&mut st, "cr0", "rounding_mode", 3);
        run(&mut st, &["f32to16 (8) r1<1>:ud r2<8;8,1>:f"]);
        assert_eq!(get(&st, r(1, 8), 4, 1), vec![0x7bff]);
        set_field(&mut st, "cr0", "rounding_mode", 0);
        // Saturation clamps the F first; a W destination gets the 16 bits.
        run(&mut st, &["f32to16.sat (8) r3<1>:w r2<8;8,1>:f"]);
        assert_eq!(
            get(&st, r(3, 0), 2, 8),
            vec![0x3c00, 0x3c00, 0x3c00, 0x0001, 0, 0, 0, 0x2e66]
        );
        // f16to32: the low 16 bits of each source element; source modifiers on the value.
        put(
            &mut st,
            r(4, 0),
            4,
            &[
                0x3c00,
                0xffff_0001,
                0xfc00,
                0x7bff,
                0x7e00,
                0x8000,
                0x03ff,
                0xc000,
            ],
        );
        run(&mut st, &["f16to32 (8) r5<1>:f r4<8;8,1>:ud"]);
        assert_eq!(
            get(&st, r(5, 0), 4, 8),
            vec![
                f(1.0),
                // HF denormal 2^-24 -> normal F 2^-24.
                0x3380_0000,
                0xff80_0000,
                f(65504.0),
                0x7fc0_0000,
                0x8000_0000,
                // largest HF denormal 1023 * 2^-24
                f(1023.0 * 2f32.powi(-24)),
                f(-2.0),
            ]
        );
        run(&mut st, &["f16to32 (8) r5<1>:f -r4<8;8,1>:ud"]);
        assert_eq!(get(&st, r(5, 0), 4, 1), vec![f(-1.0)]);
    }
    // Not on Gen8+ (mov converts HF there).
    let mut st = zeroed(Skl);
    assert!(matches!(
        euref::exec::step(&mut st, &insn(Ivb, "f32to16 (8) r1<1>:w r2<8;8,1>:f")),
        Err(ExecError::NotOnPlatform { .. })
    ));
}

#[test]
fn madm_results_are_undefined() {
    let mut st = zeroed(Skl);
    put(&mut st, r(2, 0), 4, &[f(1.0); 8]);
    let info = try_run(
        &mut st,
        "madm (8) r1<4>.xyzw:f r2<4>.xyzw:f r3<4>.xyzw:f r4<4>.xyzw:f",
    )
    .unwrap();
    assert_eq!(info.enabled, 0xff);
    for ch in 0..8 {
        assert!(get1(&st, r(1, 4 * ch), 4).1, "channel {ch} defined");
    }
    assert!(!get1(&st, r(1, 32), 4).1, "r2 was not written");
}

#[test]
fn mad_fast_path_is_taken_for_normal_operands() {
    let env = FloatEnv::new(Skl);
    let pol = Policy::new(&env, FloatType::F, FpOps::Fused);
    assert!(pol.has_fast_fma());
    assert_eq!(pol.fma_fast(f(1.5), f(2.0), f(0.25)), Some(f(3.25)));
    // Denormal operand or result, infinities, NaN: not the fast path.
    assert_eq!(pol.fma_fast(1, f(1.0), 0), None);
    assert_eq!(pol.fma_fast(f(1e-20), f(1e-20), 0), None);
    assert_eq!(pol.fma_fast(f(f32::INFINITY), f(1.0), 0), None);
    assert_eq!(pol.fma_fast(f(f32::MAX), f(2.0), 0), None);
    // ALT mode or another rounding mode: never.
    let alt = Policy::new(&env.with_alt(true), FloatType::F, FpOps::Fused);
    assert!(!alt.has_fast_fma());
    let ru = Policy::new(
        &env.with_rounding(euref::fp::Round::Ru),
        FloatType::F,
        FpOps::Fused,
    );
    assert_eq!(ru.fma_fast(f(1.5), f(2.0), f(0.25)), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20000))]

    /// Wherever the fast path answers, it equals the full path bit for bit.
    #[test]
    fn mad_fast_path_equals_full_path(a in any::<u32>(), b in any::<u32>(), c in any::<u32>(), close in any::<bool>()) {
        // `close`: operands near 1.0 so that cancellation and ties happen often.
        let (a, b, c) = if close {
            (0x3f80_0000 ^ (a & 0x80ff_ffff), 0x3f80_0000 ^ (b & 0x00ff_ffff), 0xbf80_0000 ^ (c & 0x00ff_ffff))
        } else {
            (a, b, c)
        };
        for env in [FloatEnv::new(Skl), FloatEnv::new(Ivb), FloatEnv::new(Skl).with_denorms(true)] {
            let pol = Policy::new(&env, FloatType::F, FpOps::Fused);
            if let Some(r) = pol.fma_fast(u64::from(a), u64::from(b), u64::from(c)) {
                prop_assert_eq!(r, pol.fma(u64::from(a), u64::from(b), u64::from(c)).bits);
            }
        }
    }
}

fn d(x: f64) -> u64 {
    x.to_bits()
}

/// Split DF values into the dwords of 32-bit channels (low dword first).
fn dwords(v: &[f64]) -> Vec<u64> {
    v.iter()
        .flat_map(|x| [d(*x) & 0xffff_ffff, d(*x) >> 32])
        .collect()
}

#[test]
fn ivb_df_arithmetic_on_channel_pairs() {
    // feature.df-element-size-4: add (8) of DF on Ivy Bridge is 4 DF lanes, regions in 32-bit
    // units; channel 2j holds the low dword of lane j, 2j+1 the high dword.
    let mut st = zeroed(Ivb);
    let a = [1.5, -2.0, 1e300, 0.1];
    let b = [2.25, 0.5, 1e300, 0.2];
    put(&mut st, r(2, 0), 8, &a.map(d));
    put(&mut st, r(4, 0), 8, &b.map(d));
    run(&mut st, &["add (8) r6<1>:df r2<8;8,1>:df r4<8;8,1>:df"]);
    // f64 addition is the IEEE RTNE add of DF.
    let want: Vec<f64> = (0..4).map(|j| a[j] + b[j]).collect();
    assert_eq!(get(&st, r(6, 0), 4, 8), dwords(&want));
    assert_eq!(get(&st, r(6, 24), 8, 1), vec![d(0.1 + 0.2)]);
    run(&mut st, &["mul (8) r7<1>:df r2<8;8,1>:df r4<8;8,1>:df"]);
    // 1e300 * 1e300 overflows to +inf.
    assert_eq!(
        get(&st, r(7, 0), 8, 4),
        vec![d(1.5 * 2.25), d(-1.0), d(f64::INFINITY), d(0.1 * 0.2)]
    );
    // mad: src0 + src1 * src2 with one rounding (f64::mul_add is the correctly rounded fma).
    put(
        &mut st,
        r(8, 0),
        8,
        &[d(0.1), d(3.0), d(-1.0), d(1.0 / 3.0)],
    );
    run(
        &mut st,
        &["mad (8) r10<1>:df r8<4;4,1>:df r2<4;4,1>:df r4<4;4,1>:df"],
    );
    let c = [0.1, 3.0, -1.0, 1.0 / 3.0];
    let want: Vec<u64> = (0..4).map(|j| d(a[j].mul_add(b[j], c[j]))).collect();
    assert_eq!(get(&st, r(10, 0), 8, 4), want);
    // frc, rndd, source modifiers and saturation.
    run(&mut st, &["frc (8) r11<1>:df -r2<8;8,1>:df"]);
    assert_eq!(get(&st, r(11, 0), 8, 2), vec![d(0.5), d(0.0)]);
    run(&mut st, &["rndd (8) r12<1>:df r8<8;8,1>:df"]);
    assert_eq!(
        get(&st, r(12, 0), 8, 4),
        vec![d(0.0), d(3.0), d(-1.0), d(0.0)]
    );
    run(&mut st, &["mov.sat (8) r13<1>:df r2<8;8,1>:df"]);
    assert_eq!(
        get(&st, r(13, 0), 8, 4),
        vec![d(1.0), d(0.0), d(1.0), d(0.1)]
    );
    // Masking per 32-bit channel: with channel 1 disabled, lane 0 gets only its low dword.
    put(&mut st, r(14, 0), 8, &[0x1111_1111_2222_2222; 4]);
    st.set_flag(0, 0b1111_1101, 0).unwrap();
    run(
        &mut st,
        &["(f0.0) add (8) r14<1>:df r2<8;8,1>:df r4<8;8,1>:df"],
    );
    let sum0 = d(1.5 + 2.25);
    assert_eq!(
        get(&st, r(14, 0), 8, 2),
        vec![(0x1111_1111 << 32) | (sum0 & 0xffff_ffff), d(-1.5)]
    );
    // sel.l: the DF minimum.
    run(&mut st, &["sel.l (8) r15<1>:df r2<8;8,1>:df r4<8;8,1>:df"]);
    assert_eq!(
        get(&st, r(15, 0), 8, 4),
        vec![d(1.5), d(-2.0), d(1e300), d(0.1)]
    );
    // A condition modifier: the flags of the enabled channels are undefined.
    st.set_flag(1, 0, 0).unwrap();
    run(
        &mut st,
        &["add.z.f1.0 (8) r16<1>:df r2<8;8,1>:df r4<8;8,1>:df"],
    );
    assert_eq!(st.flag(1).unwrap().1 & 0xff, 0xff);
    // Haswell: DF elements are 8 bytes, add (4) adds 4 DF (the ordinary float pipeline).
    let mut st = zeroed(Hsw);
    put(&mut st, r(2, 0), 8, &a.map(d));
    put(&mut st, r(4, 0), 8, &b.map(d));
    run(&mut st, &["add (4) r6<1>:df r2<4;4,1>:df r4<4;4,1>:df"]);
    assert_eq!(
        get(&st, r(6, 0), 8, 4),
        (0..4).map(|j| d(a[j] + b[j])).collect::<Vec<_>>()
    );
}

#[test]
fn lrp_and_line_with_predication_saturation_and_flags() {
    for p in [Ivb, Skl] {
        let mut st = zeroed(p);
        put(&mut st, r(2, 0), 4, &[f(0.25), f(0.5), f(0.5), f(0.0)]);
        put(&mut st, r(3, 0), 4, &[f(8.0), f(-4.0), f(1.0), f(1.0)]);
        put(&mut st, r(4, 0), 4, &[f(4.0), f(-2.0), f(1.0), f(0.5)]);
        put(&mut st, r(1, 0), 4, &[f(7.0); 4]);
        st.set_flag(0, 0b1011, 0).unwrap();
        run(
            &mut st,
            &["(f0.0) lrp.sat.g.f0.0 (4) r1<4>.xyzw:f r2<4>.xyzw:f r3<4>.xyzw:f r4<4>.xyzw:f"],
        );
        // 5 -> 1.0; -3 -> 0; channel 2 not enabled; 0.5.
        assert_eq!(
            get(&st, r(1, 0), 4, 4),
            vec![f(1.0), 0, f(7.0), f(0.5)],
            "{p:?}"
        );
        // .g on the saturated values; channel 2's flag untouched.
        assert_eq!(st.flag(0).unwrap().0 & 0xf, 0b1001, "{p:?}");
    }
    // line with a predicate and .l: p = -1, r = 0.5.
    let mut st = zeroed(Skl);
    put(&mut st, r(2, 0), 4, &[f(-1.0), f(0.0), f(0.0), f(0.5)]);
    put(&mut st, r(3, 0), 4, &[f(0.0), f(1.0), f(2.0), f(0.25)]);
    put(&mut st, r(1, 0), 4, &[f(7.0); 4]);
    st.set_flag(1, 0b0111, 0).unwrap();
    run(
        &mut st,
        &["(f1.0) line.l.f1.0 (4) r1<1>:f r2.0<0;1,0>:f r3<4;4,1>:f"],
    );
    assert_eq!(
        get(&st, r(1, 0), 4, 4),
        vec![f(0.5), f(-0.5), f(-1.5), f(7.0)]
    );
    assert_eq!(st.flag(1).unwrap().0 & 0xf, 0b0110);
}

#[test]
fn invm_and_rsqrtm_approximations_are_undefined_early_outs_exact() {
    // math.invm / math.rsqrtm: the early-out special results are exact; the approximation
    // (not publicly specified) leaves the channel undefined instead of refusing the
    // instruction.
    let mut st = zeroed(Skl);
    put(&mut st, r(4, 0), 4, &[f(1.0), f(1.0), f(0.0), f(3.0)]);
    put(&mut st, r(6, 0), 4, &[f(3.0), f(0.0), f(2.0), f(1.0)]);
    run(&mut st, &["math.invm (4) r2<1>:f r4<4;4,1>:f r6<4;4,1>:f"]);
    assert!(get1(&st, r(2, 0), 4).1, "1/3: approximation, undefined");
    // 1/0 = +inf, 0/2 = +0 (the fdiv special rows).
    assert_eq!(get1(&st, r(2, 4), 4), (0x7f80_0000, false));
    assert_eq!(get1(&st, r(2, 8), 4), (0, false));
    assert!(get1(&st, r(2, 12), 4).1);
    put(&mut st, r(4, 0), 4, &[f(-4.0), f(4.0), 0x7fc0_0000, f(2.0)]);
    run(
        &mut st,
        &["math.rsqtm (4) r3<1>:f r4<4;4,1>:f null<4;4,1>:f"],
    );
    // rsq of a negative number or NaN: NaN (early out); others undefined.
    assert_eq!(get1(&st, r(3, 0), 4), (0x7fc0_0000, false));
    assert!(get1(&st, r(3, 4), 4).1);
    assert_eq!(get1(&st, r(3, 8), 4), (0x7fc0_0000, false));
    assert!(get1(&st, r(3, 12), 4).1);
}

/// A one-source math function's src1 written as the null register (Mesa's `null<8,8,1>F`, the
/// encoder's form) is no operand: its F type must not make an HF function execute in F. The
/// extended math result is the correctly rounded RTNE value whatever cr0's rounding mode
/// (fp.round.math-model): 1 / 2^-24 overflows HF to +inf, not to fmax as an F result converted
/// with round-toward-zero would.
#[test]
fn math_null_src1_is_not_an_operand() {
    for text in [
        "math.inv (1|M0) r16.0<1>:hf r20.0<0;1,0>:hf",
        "math.inv (1|M0) r16.0<1>:hf r20.0<0;1,0>:hf null<8;8,1>:f",
    ] {
        let mut st = zeroed(Skl);
        set_field(&mut st, "cr0", "rounding_mode", 3);
        put(&mut st, r(20, 0), 2, &[0x0001]);
        run(&mut st, &[text]);
        assert_eq!(get(&st, r(16, 0), 2, 1), vec![0x7c00], "{text}");
    }
}
