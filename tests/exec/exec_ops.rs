//! Integer and logic semantics of the non-branching ALU opcodes: values at type boundaries,
//! conversions by the spec table (conv.*), saturation (sat.int.*), condition modifiers, and the
//! opcodes without a seed definition (checked against what the instruction must do).

use crate::exec_util;

use euref::exec::ExecError;
use euref::spec::Platform::{self, *};
use exec_util::*;

/// Put `v` (a `size`-byte element) at r2.0, run `text`, return r1.0's `out`-byte element.
fn unary(p: Platform, size: usize, v: u64, text: &str, out: usize) -> u64 {
    let mut st = zeroed(p);
    put(&mut st, r(2, 0), size, &[v]);
    run(&mut st, &[text]);
    get(&st, r(1, 0), out, 1)[0]
}

/// Put `a` at r2.0 and `b` at r3.0, run `text`, return r1.0.
fn binary(p: Platform, size: usize, a: u64, b: u64, text: &str, out: usize) -> u64 {
    let mut st = zeroed(p);
    put(&mut st, r(2, 0), size, &[a]);
    put(&mut st, r(3, 0), size, &[b]);
    run(&mut st, &[text]);
    get(&st, r(1, 0), out, 1)[0]
}

#[test]
fn mov_integer_conversions_and_saturation() {
    // conv.int.narrow: truncation; sat.int.w: clamp.
    assert_eq!(
        unary(Skl, 4, 0x1234_5678, "mov (1) r1<1>:w r2<0;1,0>:d", 2),
        0x5678
    );
    assert_eq!(
        unary(Skl, 4, 0x1234_5678, "mov.sat (1) r1<1>:w r2<0;1,0>:d", 2),
        0x7fff
    );
    assert_eq!(
        unary(
            Skl,
            4,
            (-40000i32) as u32 as u64,
            "mov.sat (1) r1<1>:w r2<0;1,0>:d",
            2
        ),
        0x8000
    );
    // conv.int.widen.b-to-uint: sign extension; with saturation a negative value becomes 0.
    assert_eq!(
        unary(Ivb, 1, 0xff, "mov (1) r1<1>:ud r2<0;1,0>:b", 4),
        0xffff_ffff
    );
    assert_eq!(
        unary(Ivb, 1, 0xff, "mov.sat (1) r1<1>:ud r2<0;1,0>:b", 4),
        0
    );
    // conv.int.widen.ub: zero extension.
    assert_eq!(unary(Ivb, 1, 0xff, "mov (1) r1<1>:d r2<0;1,0>:ub", 4), 0xff);
    // conv.int.same-size.uint-to-sint: bits kept; saturation gives the signed maximum.
    assert_eq!(
        unary(Hsw, 4, 0xffff_ffff, "mov (1) r1<1>:d r2<0;1,0>:ud", 4),
        0xffff_ffff
    );
    assert_eq!(
        unary(Hsw, 4, 0xffff_ffff, "mov.sat (1) r1<1>:d r2<0;1,0>:ud", 4),
        0x7fff_ffff
    );
    // conv.int.same-size.sint-to-uint: with saturation a negative value becomes 0.
    assert_eq!(
        unary(Hsw, 2, 0x8000, "mov.sat (1) r1<1>:uw r2<0;1,0>:w", 2),
        0
    );
    assert_eq!(
        unary(Hsw, 2, 0x8000, "mov (1) r1<1>:uw r2<0;1,0>:w", 2),
        0x8000
    );
    // conv.int.narrow with saturation: UB range.
    assert_eq!(unary(Bdw, 2, 300, "mov (1) r1<1>:ub r2<0;1,0>:w", 1), 44);
    assert_eq!(
        unary(Bdw, 2, 300, "mov.sat (1) r1<1>:ub r2<0;1,0>:w", 1),
        255
    );
    assert_eq!(
        unary(
            Bdw,
            2,
            (-5i16) as u16 as u64,
            "mov.sat (1) r1<1>:ub r2<0;1,0>:w",
            1
        ),
        0
    );
    // conv.int.widen.sint-to-sint to Q (gen8+), conv.int.narrow.qword.
    assert_eq!(
        unary(Skl, 4, 0xffff_fffe, "mov (1) r1<1>:q r2<0;1,0>:d", 8),
        0xffff_ffff_ffff_fffe
    );
    assert_eq!(
        unary(Skl, 8, 0x1_0000_0005, "mov (1) r1<1>:d r2<0;1,0>:q", 4),
        5
    );
    assert_eq!(
        unary(
            Skl,
            8,
            0x1_0000_0005,
            "mov.sat (1) r1<1>:ud r2<0;1,0>:uq",
            4
        ),
        0xffff_ffff
    );
}

#[test]
fn source_modifiers_apply_after_conversion() {
    // seed000 §1.1: -(-32768) is 32768 in the execution type; the W destination truncates it
    // back to 0x8000 unless saturated.
    assert_eq!(
        unary(Skl, 2, 0x8000, "mov (1) r1<1>:w -r2<0;1,0>:w", 2),
        0x8000
    );
    assert_eq!(
        unary(Skl, 2, 0x8000, "mov.sat (1) r1<1>:w -r2<0;1,0>:w", 2),
        0x7fff
    );
    assert_eq!(
        unary(Skl, 2, 0x8000, "mov (1) r1<1>:d -r2<0;1,0>:w", 4),
        32768
    );
    assert_eq!(
        unary(
            Skl,
            4,
            0x8000_0000,
            "mov.sat (1) r1<1>:d (abs)r2<0;1,0>:d",
            4
        ),
        0x7fff_ffff
    );
    assert_eq!(
        unary(Skl, 4, 5, "mov (1) r1<1>:d -(abs)r2<0;1,0>:d", 4),
        (-5i32) as u32 as u64
    );
    // A negated UD is a 33-bit value: -0xFFFFFFFF in a D destination is 1.
    assert_eq!(
        unary(Skl, 4, 0xffff_ffff, "mov (1) r1<1>:d -r2<0;1,0>:ud", 4),
        1
    );
}

#[test]
fn immediates_scalar_and_vector() {
    let mut st = zeroed(Skl);
    run(
        &mut st,
        &[
            "mov (8) r1<1>:w 0x76543210:v",
            "mov (8) r2<1>:w 0xFEDCBA98:v",
            "mov (8) r3<1>:uw 0xFEDCBA98:uv",
            "mov (4) r4<1>:d -7:d",
            "mov (2) r5<1>:uw 0xABCD:uw",
            "mov (1) r6<1>:uq 0x123456789ABCDEF0:uq",
        ],
    );
    assert_eq!(get(&st, r(1, 0), 2, 8), (0..8).collect::<Vec<u64>>());
    let neg: Vec<u64> = (-8i16..0).map(|v| v as u16 as u64).collect();
    assert_eq!(get(&st, r(2, 0), 2, 8), neg);
    assert_eq!(get(&st, r(3, 0), 2, 8), (8..16).collect::<Vec<u64>>());
    assert_eq!(get(&st, r(4, 0), 4, 4), vec![(-7i32) as u32 as u64; 4]);
    assert_eq!(get(&st, r(5, 0), 2, 2), vec![0xabcd; 2]);
    assert_eq!(get(&st, r(6, 0), 8, 1), vec![0x1234_5678_9abc_def0]);
    // VF (type.vf): four restricted floats, 0x30 = 1.0, 0x38 = 1.5, 0x40 = 2.0, 0xC8 = -3.0;
    // an Align1 SIMD8 use repeats the 4-element vector.
    run(&mut st, &["mov (8) r7<1>:f 0xC8403830:vf"]);
    let v = [0x3f80_0000u64, 0x3fc0_0000, 0x4000_0000, 0xc040_0000];
    assert_eq!(get(&st, r(7, 0), 4, 8), [v, v].concat());
}

#[test]
fn raw_float_moves_copy_bits() {
    // fp.ieee.raw-mov: NaN payloads and denormals are copied unchanged.
    let mut st = zeroed(Bdw);
    let vals = [0x7fa0_0001u64, 0x0000_0001, 0x8000_0000, 0xff80_0000];
    put(&mut st, r(2, 0), 4, &vals);
    run(&mut st, &["mov (4) r1<1>:f r2<4;4,1>:f"]);
    assert_eq!(get(&st, r(1, 0), 4, 4), vals.to_vec());
    // A raw DF move (gen8: 8-byte elements) and HF.
    put(&mut st, r(3, 0), 8, &[0x7ff0_0000_0000_0001]);
    run(
        &mut st,
        &[
            "mov (1) r4<1>:df r3<0;1,0>:df",
            "mov (2) r5<1>:hf r2<2;2,1>:hf",
        ],
    );
    assert_eq!(get(&st, r(4, 0), 8, 1), vec![0x7ff0_0000_0000_0001]);
    assert_eq!(get(&st, r(5, 0), 2, 2), vec![0x0001, 0x7fa0]);
}

/// F bits of a host float.
fn f(x: f32) -> u64 {
    u64::from(x.to_bits())
}

#[test]
fn float_instructions_through_the_float_layer() {
    // add, mul, mad, conversions, modifiers, saturation, rounding, comparisons, min/max, math:
    // the float layer (src/float, src/math) computes; the engine routes and writes.
    let mut st = zeroed(Skl);
    put(&mut st, r(2, 0), 4, &[f(1.0), f(-2.5), f(0.75), f(3.0)]);
    put(
        &mut st,
        r(3, 0),
        4,
        &[f(2.0), f(4.0), f(-0.25), f(f32::NAN)],
    );
    put(&mut st, r(4, 0), 4, &[f(10.0), f(10.0), f(10.0), f(10.0)]);
    put(&mut st, r(5, 0), 4, &[(-7i32) as u32 as u64, 3, 0, 1]);
    run(
        &mut st,
        &[
            "add (4) r10<1>:f r2<4;4,1>:f r3<4;4,1>:f",
            "mul (4) r11<1>:f r2<4;4,1>:f r3<4;4,1>:f",
            "mad (4) r12<1>:f r4<4;4,1>:f r2<4;4,1>:f r3<4;4,1>:f",
            "mov (4) r13<1>:f r5<4;4,1>:d",
            "mov (4) r14<1>:d r2<4;4,1>:f",
            "mov.sat (4) r15<1>:f -r2<4;4,1>:f",
            "mov (4) r16<1>:f (abs)r2<4;4,1>:f",
            "rndd (4) r17<1>:f r2<4;4,1>:f",
            "sel.l (4) r18<1>:f r2<4;4,1>:f r3<4;4,1>:f",
            "add (4) r19<1>:f r5<4;4,1>:d r5<4;4,1>:d",
            "math.inv (4) r20<1>:f r3<4;4,1>:f null<4;4,1>:f",
            "cmp.l.f0.0 (4) r21<1>:f r2<4;4,1>:f r3<4;4,1>:f",
            "cmpn.l.f1.0 (4) null<1>:f r2<4;4,1>:f r3<4;4,1>:f",
        ],
    );
    let nan = 0x7fc0_0000; // the model's canonical NaN (fp.ieee.nan-any-pattern)
    assert_eq!(get(&st, r(10, 0), 4, 4), vec![f(3.0), f(1.5), f(0.5), nan]);
    assert_eq!(
        get(&st, r(11, 0), 4, 4),
        vec![f(2.0), f(-10.0), f(-0.1875), nan]
    );
    assert_eq!(
        get(&st, r(12, 0), 4, 4),
        vec![f(12.0), f(0.0), f(9.8125), nan]
    );
    assert_eq!(
        get(&st, r(13, 0), 4, 4),
        vec![f(-7.0), f(3.0), f(0.0), f(1.0)]
    );
    assert_eq!(
        get(&st, r(14, 0), 4, 4),
        vec![1, (-2i32) as u32 as u64, 0, 3]
    );
    assert_eq!(
        get(&st, r(15, 0), 4, 4),
        vec![f(0.0), f(1.0), f(0.0), f(0.0)]
    );
    assert_eq!(
        get(&st, r(16, 0), 4, 4),
        vec![f(1.0), f(2.5), f(0.75), f(3.0)]
    );
    assert_eq!(
        get(&st, r(17, 0), 4, 4),
        vec![f(1.0), f(-3.0), f(0.0), f(3.0)]
    );
    // min with a NaN operand gives the other operand (cmpn.rule.minmax-one-nan).
    assert_eq!(
        get(&st, r(18, 0), 4, 4),
        vec![f(1.0), f(-2.5), f(-0.25), f(3.0)]
    );
    assert_eq!(
        get(&st, r(19, 0), 4, 4),
        vec![f(-14.0), f(6.0), f(0.0), f(2.0)]
    );
    assert_eq!(get(&st, r(20, 0), 4, 3), vec![f(0.5), f(0.25), f(-4.0)]);
    // cmp: all ones where true; the flags.
    assert_eq!(
        get(&st, r(21, 0), 4, 4),
        vec![0xffff_ffff, 0xffff_ffff, 0, 0]
    );
    assert_eq!(st.flag(0).unwrap().0 & 0xf, 0b0011);
}

#[test]
fn df_channel_pair_forms_not_modelled_are_refused() {
    // feature.df-element-size-4 (Ivy Bridge): DF arithmetic runs on channel pairs
    // (tests/exec/exec_ops_more.rs), and so do mov DF <-> F and DF cmp
    // (tests/exec/exec_fidelity.rs); other type mixes are refused, leaving the state.
    let mut st = zeroed(Ivb);
    for t in [
        "add (8) r1<1>:df r2<8;8,1>:df r4<8;8,1>:f",
        "mov (8) r1<1>:d r2<8;8,1>:df",
    ] {
        let before = st.clone();
        match try_run(&mut st, t) {
            Err(ExecError::Unsupported { what }) => {
                assert!(what.contains("df-element-size-4"), "{what}")
            }
            other => panic!("{t}: {other:?}"),
        }
        assert!(st == before, "{t} changed the state");
    }
}

#[test]
fn movi_smov_branches_sends_are_refused() {
    let mut st = zeroed(Skl);
    for t in [
        "movi (8) r1<1>:ud r2<8;8,1>:ud",
        "send (8) null<1>:ud r2 0xA 0x2000010 {EOT}",
        "jmpi (1) 64:d",
    ] {
        match try_run(&mut st, t) {
            Err(ExecError::Unsupported { .. }) => {}
            other => panic!("{t}: {other:?}"),
        }
    }
    // Not on the platform.
    let mut st = zeroed(Ivb);
    assert!(matches!(
        try_run(&mut st, "mov (1) r1<1>:d r2<0;1,0>:d").map(|_| ()),
        Ok(())
    ));
}

#[test]
fn logic_ops_with_not_modifier() {
    let a = 0xF0F0_1234u64;
    let b = 0x0FF0_FF00u64;
    assert_eq!(
        binary(
            Skl,
            4,
            a,
            b,
            "and (1) r1<1>:ud r2<0;1,0>:ud r3<0;1,0>:ud",
            4
        ),
        a & b
    );
    assert_eq!(
        binary(Skl, 4, a, b, "or (1) r1<1>:ud r2<0;1,0>:ud r3<0;1,0>:ud", 4),
        a | b
    );
    assert_eq!(
        binary(
            Skl,
            4,
            a,
            b,
            "xor (1) r1<1>:ud r2<0;1,0>:ud r3<0;1,0>:ud",
            4
        ),
        a ^ b
    );
    assert_eq!(
        binary(
            Skl,
            4,
            a,
            b,
            "and (1) r1<1>:ud ~r2<0;1,0>:ud r3<0;1,0>:ud",
            4
        ),
        !a & b & 0xffff_ffff
    );
    assert_eq!(
        unary(Skl, 4, a, "not (1) r1<1>:ud r2<0;1,0>:ud", 4),
        !a & 0xffff_ffff
    );
    // Word source into a DWord destination: the value is extended by its type first.
    assert_eq!(
        unary(Skl, 2, 0xFF00, "not (1) r1<1>:ud r2<0;1,0>:uw", 4),
        0xFFFF_00FF
    );
    assert_eq!(
        unary(Skl, 2, 0xFF00, "not (1) r1<1>:uw r2<0;1,0>:uw", 2),
        0x00FF
    );
    // (abs) is not a logic modifier: the result is undefined.
    let mut st = zeroed(Skl);
    run(&mut st, &["and (1) r1<1>:ud (abs)r2<0;1,0>:d r3<0;1,0>:ud"]);
    assert!(get1(&st, r(1, 0), 4).1);
}

#[test]
fn shifts_use_5_or_6_count_bits() {
    // visa SHL/SHR/ASR: the low 5 bits of src1 (6 for 64-bit).
    assert_eq!(
        binary(
            Skl,
            4,
            1,
            33,
            "shl (1) r1<1>:ud r2<0;1,0>:ud r3<0;1,0>:ud",
            4
        ),
        2
    );
    assert_eq!(
        binary(
            Skl,
            4,
            0x8000_0000,
            31,
            "shr (1) r1<1>:ud r2<0;1,0>:ud r3<0;1,0>:ud",
            4
        ),
        1
    );
    assert_eq!(
        binary(
            Skl,
            4,
            0x8000_0000,
            4,
            "asr (1) r1<1>:d r2<0;1,0>:d r3<0;1,0>:d",
            4
        ),
        0xF800_0000
    );
    assert_eq!(
        binary(
            Skl,
            4,
            0xffff_ffff,
            4,
            "shr (1) r1<1>:ud r2<0;1,0>:d r3<0;1,0>:d",
            4
        ),
        0x0fff_ffff
    );
    assert_eq!(
        binary(
            Skl,
            8,
            1,
            33,
            "shl (1) r1<1>:uq r2<0;1,0>:uq r3<0;1,0>:uq",
            8
        ),
        1 << 33
    );
    assert_eq!(
        binary(
            Skl,
            8,
            1,
            65,
            "shl (1) r1<1>:uq r2<0;1,0>:uq r3<0;1,0>:uq",
            8
        ),
        2
    );
    // Word execution: the shift works on the 16-bit pattern.
    assert_eq!(
        binary(
            Ivb,
            2,
            0xFFFF,
            4,
            "shr (1) r1<1>:uw r2<0;1,0>:w r3<0;1,0>:w",
            2
        ),
        0x0FFF
    );
    assert_eq!(
        binary(
            Ivb,
            2,
            0x8000,
            20,
            "asr (1) r1<1>:w r2<0;1,0>:w r3<0;1,0>:w",
            2
        ),
        0xFFFF
    );
    // shl keeps the full result for a wider destination; saturation clamps it.
    assert_eq!(
        binary(
            Ivb,
            2,
            0x4000,
            4,
            "shl (1) r1<1>:d r2<0;1,0>:w r3<0;1,0>:w",
            4
        ),
        0x4_0000
    );
    assert_eq!(
        binary(
            Ivb,
            2,
            0x4000,
            4,
            "shl.sat (1) r1<1>:w r2<0;1,0>:w r3<0;1,0>:w",
            2
        ),
        0x7fff
    );
    // visa SHL: a saturated result beyond 33 bits is undefined.
    let mut st = zeroed(Skl);
    put(&mut st, r(2, 0), 4, &[0x4000_0000]);
    put(&mut st, r(3, 0), 4, &[8]);
    run(&mut st, &["shl.sat (1) r1<1>:d r2<0;1,0>:d r3<0;1,0>:d"]);
    assert!(get1(&st, r(1, 0), 4).1);
}

#[test]
fn add_boundaries_and_every_condition_modifier() {
    // (a, b, result as D, flags for z nz g ge l le o u)
    let cases: &[(i32, i32)] = &[
        (0, 0),
        (1, -1),
        (5, 3),
        (-5, 3),
        (i32::MAX, 1),
        (i32::MIN, -1),
    ];
    for &(a, b) in cases {
        let exact = i64::from(a) + i64::from(b);
        let v = exact as i32;
        let over = exact != i64::from(v);
        for (cm, want) in [
            ("z", v == 0),
            ("nz", v != 0),
            ("g", v > 0),
            ("ge", v >= 0),
            ("l", v < 0),
            ("le", v <= 0),
            ("o", over),
            ("u", false),
        ] {
            let mut st = zeroed(Skl);
            put(&mut st, r(2, 0), 4, &[a as u32 as u64]);
            put(&mut st, r(3, 0), 4, &[b as u32 as u64]);
            st.set_flag(0, 0xAAAA_AAAA, 0).unwrap();
            run(
                &mut st,
                &[&format!(
                    "add.{cm}.f0.0 (1) r1<1>:d r2<0;1,0>:d r3<0;1,0>:d"
                )],
            );
            assert_eq!(get(&st, r(1, 0), 4, 1)[0], v as u32 as u64);
            let (f, u) = st.flag(0).unwrap();
            assert_eq!(u, 0);
            // Only channel 0's bit changes.
            assert_eq!(f & !1, 0xAAAA_AAAA & !1, "{a}+{b}.{cm}");
            assert_eq!(f & 1 == 1, want, "{a}+{b}.{cm}");
        }
    }
}

#[test]
fn flags_follow_the_saturated_destination_value() {
    // Conditional modifiers are applied after saturation and conversion (mesa
    // brw_fs_cmod_propagation.cpp, Kaby Lake PRM "Assigning Conditional Flags").
    let mut st = zeroed(Skl);
    put(&mut st, r(2, 0), 4, &[0x7fff_ffff]);
    put(&mut st, r(3, 0), 4, &[1]);
    run(
        &mut st,
        &["add.sat.l.f0.0 (1) r1<1>:d r2<0;1,0>:d r3<0;1,0>:d"],
    );
    assert_eq!(
        st.flag(0).unwrap().0 & 1,
        0,
        "saturated to INT_MAX: not < 0"
    );
    run(&mut st, &["add.l.f0.0 (1) r1<1>:d r2<0;1,0>:d r3<0;1,0>:d"]);
    assert_eq!(st.flag(0).unwrap().0 & 1, 1, "wrapped to INT_MIN: < 0");
    // Unsigned destination: .l is never true; a W result converted to UB.
    put(&mut st, r(2, 0), 2, &[256]);
    run(&mut st, &["mov.z.f0.0 (1) r1<1>:ub r2<0;1,0>:w"]);
    assert_eq!(st.flag(0).unwrap().0 & 1, 1, "256 truncates to UB 0");
}

#[test]
fn word_execution_keeps_the_exact_sum() {
    // W + W into a D destination: the 33-bit word datapath (acc.precision.w) holds 65535.
    assert_eq!(
        binary(
            Ivb,
            2,
            0x7fff,
            0x8000,
            "add (1) r1<1>:d r2<0;1,0>:w r3<0;1,0>:uw",
            4
        ),
        0xffff
    );
    assert_eq!(
        binary(
            Ivb,
            2,
            0xffff,
            0xffff,
            "add (1) r1<1>:d r2<0;1,0>:uw r3<0;1,0>:uw",
            4
        ),
        0x1fffe
    );
    assert_eq!(
        binary(
            Ivb,
            2,
            0xffff,
            0xffff,
            "add (1) r1<1>:uw r2<0;1,0>:uw r3<0;1,0>:uw",
            2
        ),
        0xfffe
    );
    assert_eq!(
        binary(
            Ivb,
            2,
            0xffff,
            0xffff,
            "add.sat (1) r1<1>:uw r2<0;1,0>:uw r3<0;1,0>:uw",
            2
        ),
        0xffff
    );
    // UD + UD beyond 32 bits: truncated, saturated.
    assert_eq!(
        binary(
            Hsw,
            4,
            0xffff_ffff,
            2,
            "add (1) r1<1>:ud r2<0;1,0>:ud r3<0;1,0>:ud",
            4
        ),
        1
    );
    assert_eq!(
        binary(
            Hsw,
            4,
            0xffff_ffff,
            2,
            "add.sat (1) r1<1>:ud r2<0;1,0>:ud r3<0;1,0>:ud",
            4
        ),
        0xffff_ffff
    );
    // Q arithmetic (gen8+).
    assert_eq!(
        binary(
            Bdw,
            8,
            u64::MAX,
            1,
            "add (1) r1<1>:uq r2<0;1,0>:uq r3<0;1,0>:uq",
            8
        ),
        0
    );
    assert_eq!(
        binary(
            Bdw,
            8,
            u64::MAX,
            1,
            "add.sat (1) r1<1>:uq r2<0;1,0>:uq r3<0;1,0>:uq",
            8
        ),
        u64::MAX
    );
}

#[test]
fn avg_rounds_up_without_overflow() {
    assert_eq!(
        binary(
            Skl,
            4,
            0xffff_ffff,
            0xffff_ffff,
            "avg (1) r1<1>:ud r2<0;1,0>:ud r3<0;1,0>:ud",
            4
        ),
        0xffff_ffff
    );
    assert_eq!(
        binary(Skl, 4, 1, 2, "avg (1) r1<1>:d r2<0;1,0>:d r3<0;1,0>:d", 4),
        2
    );
    assert_eq!(
        binary(
            Skl,
            4,
            (-1i32) as u32 as u64,
            (-2i32) as u32 as u64,
            "avg (1) r1<1>:d r2<0;1,0>:d r3<0;1,0>:d",
            4
        ),
        (-1i32) as u32 as u64
    );
    assert_eq!(
        binary(
            Skl,
            2,
            0x7fff,
            0x7fff,
            "avg (1) r1<1>:w r2<0;1,0>:w r3<0;1,0>:w",
            2
        ),
        0x7fff
    );
}

#[test]
fn cmp_and_cmpn_all_conditions() {
    let pairs: &[(i32, i32)] = &[(1, 2), (2, 1), (3, 3), (-1, 1), (i32::MIN, i32::MAX)];
    for op in ["cmp", "cmpn"] {
        for &(a, b) in pairs {
            for (cm, want) in [
                ("z", a == b),
                ("nz", a != b),
                ("g", a > b),
                ("ge", a >= b),
                ("l", a < b),
                ("le", a <= b),
                ("o", false),
                ("u", false),
            ] {
                let mut st = zeroed(Bdw);
                put(&mut st, r(2, 0), 4, &[a as u32 as u64]);
                put(&mut st, r(3, 0), 4, &[b as u32 as u64]);
                run(
                    &mut st,
                    &[&format!(
                        "{op}.{cm}.f1.1 (1) r1<1>:d r2<0;1,0>:d r3<0;1,0>:d"
                    )],
                );
                assert_eq!(
                    get(&st, r(1, 0), 4, 1)[0],
                    if want { 0xffff_ffff } else { 0 }
                );
                assert_eq!(
                    st.flag(1).unwrap().0 >> 16 & 1 == 1,
                    want,
                    "{op} {a} {cm} {b}"
                );
            }
        }
    }
    // Unsigned against signed compares values, not bit patterns.
    let mut st = zeroed(Skl);
    put(&mut st, r(2, 0), 4, &[0xffff_ffff]);
    put(&mut st, r(3, 0), 4, &[0xffff_ffff]);
    run(
        &mut st,
        &["cmp.g.f0.0 (1) null<1>:d r2<0;1,0>:ud r3<0;1,0>:d"],
    );
    assert_eq!(st.flag(0).unwrap().0 & 1, 1);
}

#[test]
fn sel_predicated_and_min_max() {
    let mut st = zeroed(Skl);
    put(&mut st, r(2, 0), 4, &[1, 20, (-3i32) as u32 as u64, 4]);
    put(&mut st, r(3, 0), 4, &[10, 2, 3, (-4i32) as u32 as u64]);
    st.set_flag(0, 0b0101, 0).unwrap();
    run(
        &mut st,
        &[
            "(f0.0) sel (4) r4<1>:d r2<4;4,1>:d r3<4;4,1>:d",
            "sel.l (4) r5<1>:d r2<4;4,1>:d r3<4;4,1>:d",
            "sel.ge (4) r6<1>:d r2<4;4,1>:d r3<4;4,1>:d",
            "sel.l (4) r7<1>:ud r2<4;4,1>:ud r3<4;4,1>:ud",
        ],
    );
    let d = |v: i32| v as u32 as u64;
    assert_eq!(get(&st, r(4, 0), 4, 4), vec![1, 2, d(-3), d(-4)]);
    assert_eq!(get(&st, r(5, 0), 4, 4), vec![1, 2, d(-3), d(-4)]);
    assert_eq!(get(&st, r(6, 0), 4, 4), vec![10, 20, 3, 4]);
    assert_eq!(get(&st, r(7, 0), 4, 4), vec![1, 2, 3, 4]);
    // sel does not update flags (seed000 §3.3.3.6).
    assert_eq!(st.flag(0).unwrap(), (0b0101, 0));
}

#[test]
fn mul_word_dword_and_gen7_low16() {
    assert_eq!(
        binary(
            Ivb,
            2,
            0x8000,
            0x8000,
            "mul (1) r1<1>:d r2<0;1,0>:w r3<0;1,0>:w",
            4
        ),
        0x4000_0000
    );
    assert_eq!(
        binary(
            Ivb,
            2,
            0xffff,
            0xffff,
            "mul (1) r1<1>:ud r2<0;1,0>:uw r3<0;1,0>:uw",
            4
        ),
        0xfffe_0001
    );
    // feature.mul-dword-src1-low16: ivb/hsw/chv/bxt use the low 16 bits of a DWord src1.
    let t = "mul (1) r1<1>:ud r2<0;1,0>:ud r3<0;1,0>:ud";
    assert_eq!(binary(Skl, 4, 3, 0x0001_0002, t, 4), 0x0003_0006);
    assert_eq!(binary(Bdw, 4, 3, 0x0001_0002, t, 4), 0x0003_0006);
    for p in [Ivb, Hsw, Chv, Bxt] {
        assert_eq!(binary(p, 4, 3, 0x0001_0002, t, 4), 6, "{p:?}");
    }
    // A D src1 whose low word has bit 15 set: the seeds do not say how it is extended.
    let mut st = zeroed(Ivb);
    put(&mut st, r(2, 0), 4, &[3]);
    put(&mut st, r(3, 0), 4, &[0x0000_8000]);
    run(&mut st, &["mul (1) r1<1>:d r2<0;1,0>:d r3<0;1,0>:d"]);
    assert!(get1(&st, r(1, 0), 4).1);
}

#[test]
fn mul_mach_build_the_64_bit_product() {
    // mesa MULH lowering: mul acc0 x y.uw; mach dst x y; the accumulator keeps the low half.
    let mut rng = Rng(77);
    for p in [Ivb, Hsw, Bdw, Chv, Skl, Bxt] {
        for signed in [false, true] {
            for _ in 0..50 {
                let (x, y) = (rng.next() as u32, rng.next() as u32);
                let mut st = zeroed(p);
                put(&mut st, r(2, 0), 4, &[u64::from(x)]);
                put(&mut st, r(3, 0), 4, &[u64::from(y)]);
                let t = if signed { "d" } else { "ud" };
                run(
                    &mut st,
                    &[
                        &format!("mul (1) acc0.0<1>:{t} r2<0;1,0>:{t} r3.0<0;1,0>:uw"),
                        &format!("mach (1) r1<1>:{t} r2<0;1,0>:{t} r3<0;1,0>:{t} {{AccWrEn}}"),
                        &format!("mov (1) r4<1>:{t} acc0.0<0;1,0>:{t}"),
                    ],
                );
                let full: u64 = if signed {
                    (i64::from(x as i32) * i64::from(y as i32)) as u64
                } else {
                    u64::from(x) * u64::from(y)
                };
                assert_eq!(
                    get(&st, r(1, 0), 4, 1)[0],
                    full >> 32,
                    "{p:?} {x:#x}*{y:#x}"
                );
                assert_eq!(
                    get(&st, r(4, 0), 4, 1)[0],
                    full & 0xffff_ffff,
                    "{p:?} {x:#x}*{y:#x}"
                );
            }
        }
    }
}

#[test]
fn bit_operations() {
    let lzd = |v: u64| unary(Skl, 4, v, "lzd (1) r1<1>:ud r2<0;1,0>:ud", 4);
    assert_eq!(
        (lzd(0), lzd(1), lzd(0x8000_0000), lzd(0x00ff_0000)),
        (32, 31, 0, 8)
    );
    // fbh: counted from the MSB side (mesa brw_fs_nir.cpp ufind_msb), all ones if none.
    let fbh_ud = |v: u64| unary(Skl, 4, v, "fbh (1) r1<1>:ud r2<0;1,0>:ud", 4);
    let fbh_d = |v: i32| unary(Skl, 4, v as u32 as u64, "fbh (1) r1<1>:ud r2<0;1,0>:d", 4);
    assert_eq!(
        (fbh_ud(0), fbh_ud(1), fbh_ud(0x8000_0000), fbh_ud(0x10)),
        (0xffff_ffff, 31, 0, 27)
    );
    assert_eq!(
        (fbh_d(0), fbh_d(-1), fbh_d(1), fbh_d(-2), fbh_d(0x4000_0000)),
        (0xffff_ffff, 0xffff_ffff, 31, 31, 1)
    );
    let fbl = |v: u64| unary(Skl, 4, v, "fbl (1) r1<1>:ud r2<0;1,0>:ud", 4);
    assert_eq!(
        (fbl(0), fbl(1), fbl(0x8000_0000), fbl(0x30)),
        (0xffff_ffff, 0, 31, 4)
    );
    // cbit: a population count of the source's own bits.
    assert_eq!(
        unary(Skl, 4, 0xf0f0_0001, "cbit (1) r1<1>:ud r2<0;1,0>:ud", 4),
        9
    );
    assert_eq!(unary(Skl, 1, 0xff, "cbit (1) r1<1>:ud r2<0;1,0>:ub", 4), 8);
    assert_eq!(
        unary(Skl, 2, 0x8001, "cbit (1) r1<1>:ud r2<0;1,0>:uw", 4),
        2
    );
    assert_eq!(
        unary(Skl, 4, 0x0000_0001, "bfrev (1) r1<1>:ud r2<0;1,0>:ud", 4),
        0x8000_0000
    );
    assert_eq!(
        unary(Skl, 4, 0x1234_5678, "bfrev (1) r1<1>:ud r2<0;1,0>:ud", 4),
        0x1e6a_2c48
    );
}

/// Three-source (Align16) integer ops: bfe and bfi2, scalar sources through RepCtrl.
fn three(p: Platform, op: &str, t: &str, a: u64, b: u64, c: u64) -> u64 {
    let mut st = zeroed(p);
    put(&mut st, r(2, 0), 4, &[a]);
    put(&mut st, r(3, 0), 4, &[b]);
    put(&mut st, r(4, 0), 4, &[c]);
    run(
        &mut st,
        &[&format!(
            "{op} (1) r1.0<1>:{t} r2.0<0;1,0>:{t} r3.0<0;1,0>:{t} r4.0<0;1,0>:{t}"
        )],
    );
    get(&st, r(1, 0), 4, 1)[0]
}

#[test]
fn bit_field_extract_and_insert() {
    // visa BFE: (src2 >> offset) & ((1 << width) - 1), sign-extended for D.
    assert_eq!(three(Skl, "bfe", "ud", 8, 4, 0x1234_5678), 0x67);
    assert_eq!(three(Skl, "bfe", "ud", 0, 4, 0x1234_5678), 0);
    assert_eq!(three(Skl, "bfe", "d", 4, 4, 0x0000_00f0), 0xffff_ffff);
    assert_eq!(three(Skl, "bfe", "d", 4, 4, 0x0000_0070), 7);
    // A field reaching past bit 31 is src2 >> offset (logical for UD, arithmetic for D).
    assert_eq!(three(Ivb, "bfe", "ud", 31, 8, 0x8000_0000), 0x0080_0000);
    assert_eq!(three(Ivb, "bfe", "d", 31, 8, 0x8000_0000), 0xff80_0000);
    // bfi1: the mask ((1 << width) - 1) << offset.
    assert_eq!(
        binary(
            Hsw,
            4,
            8,
            4,
            "bfi1 (1) r1<1>:ud r2<0;1,0>:ud r3<0;1,0>:ud",
            4
        ),
        0xff0
    );
    assert_eq!(
        binary(
            Hsw,
            4,
            0,
            4,
            "bfi1 (1) r1<1>:ud r2<0;1,0>:ud r3<0;1,0>:ud",
            4
        ),
        0
    );
    assert_eq!(
        binary(
            Hsw,
            4,
            33,
            36,
            "bfi1 (1) r1<1>:ud r2<0;1,0>:ud r3<0;1,0>:ud",
            4
        ),
        0x10
    );
    // bfi2 (mesa nir bfi, "SM5 bfi"): insert src1 at the mask's lowest bit into src2.
    assert_eq!(
        three(Skl, "bfi2", "ud", 0xff0, 0xab, 0x1234_5678),
        0x1234_5ab8
    );
    assert_eq!(three(Skl, "bfi2", "ud", 0, 0xab, 0x1234_5678), 0x1234_5678);
}

#[test]
fn sad2_and_sada2_pairs() {
    // visa SAD2/SAD2ADD: channel 2k gets the pair's sum, channel 2k+1 an undefined value.
    let mut st = zeroed(Skl);
    put(&mut st, r(2, 0), 1, &[10, 200, 0, 255, 7, 7, 1, 2]);
    put(&mut st, r(3, 0), 1, &[20, 100, 255, 0, 7, 7, 2, 1]);
    run(&mut st, &["sad2 (8) r1<1>:uw r2<8;8,1>:ub r3<8;8,1>:ub"]);
    let even: Vec<u64> = (0..4).map(|k| get1(&st, r(1, 4 * k), 2).0).collect();
    assert_eq!(even, vec![110, 510, 0, 2]);
    for k in 0..4 {
        assert!(
            get1(&st, r(1, 4 * k + 2), 2).1,
            "odd channel {k} must be undefined"
        );
    }
    // sada2 adds the (word) accumulator.
    let mut st = zeroed(Skl);
    put(&mut st, r(2, 0), 1, &[10, 200, 0, 0]);
    put(&mut st, r(3, 0), 1, &[20, 100, 0, 0]);
    put(&mut st, r(5, 0), 2, &[1000, 0, 7, 0]);
    run(
        &mut st,
        &[
            "mov (4) acc0.0<1>:uw r5<4;4,1>:uw",
            "sada2 (4) r1<1>:uw r2<4;4,1>:ub r3<4;4,1>:ub",
        ],
    );
    assert_eq!(get1(&st, r(1, 0), 2).0, 1110);
    assert_eq!(get1(&st, r(1, 4), 2).0, 7);
}

#[test]
fn addc_subb_carry_and_borrow_into_acc() {
    let mut st = zeroed(Skl);
    put(&mut st, r(2, 0), 4, &[0xffff_ffff, 5, 0, 0x8000_0000]);
    put(&mut st, r(3, 0), 4, &[1, 7, 0, 0x8000_0000]);
    run(
        &mut st,
        &[
            "addc (4) r1<1>:ud r2<4;4,1>:ud r3<4;4,1>:ud {AccWrEn}",
            "mov (4) r4<1>:ud acc0<4;4,1>:ud",
        ],
    );
    assert_eq!(get(&st, r(1, 0), 4, 4), vec![0, 12, 0, 0]);
    assert_eq!(get(&st, r(4, 0), 4, 4), vec![1, 0, 0, 1]);
    // No AccWrEn (opcode.addc note: the sources are silent): the sum is defined, the
    // accumulator channels undefined.
    for op in ["addc", "subb"] {
        run(
            &mut st,
            &[
                &format!("{op} (4) r1<1>:ud r2<4;4,1>:ud r3<4;4,1>:ud"),
                "mov (4) r4<1>:ud acc0<4;4,1>:ud",
            ],
        );
        assert_eq!(get(&st, r(1, 0), 4, 4).len(), 4);
        for c in 0..4 {
            assert!(get1(&st, r(4, 4 * c), 4).1, "{op}: acc0 channel {c}");
        }
    }
    run(
        &mut st,
        &[
            "subb (4) r1<1>:ud r2<4;4,1>:ud r3<4;4,1>:ud {AccWrEn}",
            "mov (4) r4<1>:ud acc0<4;4,1>:ud",
        ],
    );
    assert_eq!(
        get(&st, r(1, 0), 4, 4),
        vec![0xffff_fffe, 0xffff_fffe, 0, 0]
    );
    assert_eq!(get(&st, r(4, 0), 4, 4), vec![0, 1, 0, 0]);
}

#[test]
fn nop_and_wait() {
    let mut st = zeroed(Skl);
    run(&mut st, &["nop"]);
    // n0.0 = 2: wait decrements it; at 0 a lone thread would wait forever.
    let f = st.field_info("n0", "thread_count").unwrap();
    st.set_field(f, 2).unwrap();
    run(&mut st, &["wait (1) n0.0<1>:ud"]);
    assert_eq!(st.field(f).unwrap(), (1, false));
    run(&mut st, &["wait (1) n0.0<1>:ud"]);
    assert!(matches!(
        try_run(&mut st, "wait (1) n0.0<1>:ud"),
        Err(ExecError::WouldBlock { .. })
    ));
    // The IP advanced by 16 per executed instruction.
    assert_eq!(st.ip(), Some(16 * 3));
}
