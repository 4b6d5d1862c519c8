//! Channel enables (ExecSize, EMask from DMask/VMask, NoMask, predication forms, Align16
//! channel enables), flag selection by channel offset, condition modifiers writing only enabled
//! bits (also with a null destination), the accumulators (implicit and explicit, precision,
//! acc0/acc1 selection, cr0 Accumulator Disable, acc2-acc9) and undefined-value propagation
//! with the runtime checks.

use crate::exec_util;

use euref::exec::{self, ExecError, ExecOptions};
use euref::spec::Platform::{self, *};
use euref::state::ThreadState;
use exec_util::*;

fn set_field(st: &mut ThreadState, reg: &str, name: &str, v: u32) {
    let f = st.field_info(reg, name).unwrap();
    st.set_field(f, v).unwrap();
}

/// Run a `mov (n) r1<1>:d 1:d`-like instruction on a zeroed r1 and return which dwords of
/// r1/r2 (up to 16) became 1.
fn written(st: &mut ThreadState, text: &str, n: usize) -> u32 {
    put(st, r(1, 0), 4, &[0; 16]);
    run(st, &[text]);
    let mut m = 0;
    for i in 0..n {
        if get1(st, r(1, 4 * i), 4).0 == 1 {
            m |= 1 << i;
        }
    }
    m
}

#[test]
fn exec_mask_dmask_vmask_nomask() {
    let mut st = zeroed(Skl);
    set_field(&mut st, "sr0", "dmask", 0x00F0_3C0F);
    set_field(&mut st, "sr0", "vmask", 0x0000_00FF);
    assert_eq!(written(&mut st, "mov (16) r1<1>:d 1:d", 16), 0x3C0F);
    // The channel offset selects the mask bits: M8 uses bits 8-15, M16 bits 16-23.
    assert_eq!(written(&mut st, "mov (8|M8) r1<1>:d 1:d", 8), 0x3C);
    assert_eq!(written(&mut st, "mov (8|M16) r1<1>:d 1:d", 8), 0xF0);
    assert_eq!(written(&mut st, "(W) mov (16) r1<1>:d 1:d", 16), 0xFFFF);
    // cr0.0 VME selects the vector mask.
    set_field(&mut st, "cr0", "vector_mask_enable", 1);
    assert_eq!(written(&mut st, "mov (16) r1<1>:d 1:d", 16), 0x00FF);
}

#[test]
fn simd32_low16_exec_mask_on_gen7() {
    // feature.simd32-low16-exec-mask: ivb/hsw apply the low 16 mask bits to both halves.
    for (p, want) in [
        (Ivb, 0xFFFF_FFFFu32),
        (Hsw, 0xFFFF_FFFF),
        (Bdw, 0x0000_FFFF),
    ] {
        let mut st = zeroed(p);
        set_field(&mut st, "sr0", "dmask", 0x0000_FFFF);
        put(&mut st, r(1, 0), 2, &[0; 32]);
        run(&mut st, &["mov (32) r1<1>:w 1:w"]);
        let mut m = 0u32;
        for i in 0..32 {
            if get1(&st, r(1, 2 * i), 2).0 == 1 {
                m |= 1 << i;
            }
        }
        assert_eq!(m, want, "{p:?}");
    }
}

/// flow.pmask.seq, flow.pmask.invert.
#[test]
fn predication_sequential_inverted_and_flag_selection() {
    let mut st = zeroed(Bdw);
    st.set_flag(0, 0x1234_5678, 0).unwrap();
    st.set_flag(1, 0x9ABC_DEF0, 0).unwrap();
    assert_eq!(written(&mut st, "(f0.0) mov (8) r1<1>:d 1:d", 8), 0x78);
    assert_eq!(written(&mut st, "(-f0.0) mov (8) r1<1>:d 1:d", 8), 0x87);
    // Flags follow the channel offset and the flag subregister.
    assert_eq!(written(&mut st, "(f0.0) mov (8|M8) r1<1>:d 1:d", 8), 0x56);
    assert_eq!(written(&mut st, "(f0.1) mov (8) r1<1>:d 1:d", 8), 0x34);
    assert_eq!(written(&mut st, "(f0.1) mov (8|M8) r1<1>:d 1:d", 8), 0x12);
    assert_eq!(written(&mut st, "(f1.0) mov (16) r1<1>:d 1:d", 16), 0xDEF0);
    assert_eq!(written(&mut st, "(f1.1) mov (8) r1<1>:d 1:d", 8), 0xBC);
}

/// flow.pmask.group (and .anyv/.allv, flow.pmask.vertical), flow.pmask.invert after the
/// combination.
#[test]
fn predication_any_all_groups_combine_before_invert() {
    let mut st = zeroed(Skl);
    // Flag bits 0-15: 0b0001_0000_1111_0110.
    st.set_flag(0, 0b0001_0000_1111_0110, 0).unwrap();
    let cases = [
        // flow.pmask.vertical: f1.0 is 0, so anyv is f0.0 itself and allv nothing.
        ("anyv", 0b0001_0000_1111_0110),
        ("allv", 0x0000),
        ("any2h", 0b0011_0000_1111_1111),
        ("all2h", 0b0000_0000_1111_0000),
        ("any4h", 0b1111_0000_1111_1111),
        ("all4h", 0b0000_0000_1111_0000),
        ("any8h", 0xFFFF),
        ("all8h", 0x0000),
        ("any16h", 0xFFFF),
        ("all16h", 0x0000),
        ("any32h", 0xFFFF),
        ("all32h", 0x0000),
    ];
    for (pc, want) in cases {
        assert_eq!(
            written(&mut st, &format!("(f0.0.{pc}) mov (16) r1<1>:d 1:d",), 16),
            want,
            "{pc}"
        );
        // Inversion after combination.
        assert_eq!(
            written(&mut st, &format!("(-f0.0.{pc}) mov (16) r1<1>:d 1:d"), 16),
            !want & 0xFFFF,
            "-{pc}"
        );
    }
}

/// Run a `mov (n) r1<1>:T 1:T`-like instruction (elements of `size` bytes) on a zeroed r1/r2
/// and return (the elements that became 1, the elements that became undefined).
fn written_undef(st: &mut ThreadState, text: &str, n: usize, size: usize) -> (u32, u32) {
    put(st, r(1, 0), 4, &[0; 16]);
    run(st, &[text]);
    let (mut on, mut undef) = (0, 0);
    for i in 0..n {
        let (v, u) = get1(st, r(1, size * i), size);
        if u {
            undef |= 1 << i;
        } else if v == 1 {
            on |= 1 << i;
        }
    }
    (on, undef)
}

/// flow.pmask.vertical: .anyv/.allv give channel n the OR / AND of bit n of f0.0 and bit n of
/// f1.0 (not of the other channels' bits), inverted after; the same when the instruction names
/// f1.0. Expected masks by hand: 0x35CA | 0x0F3C = 0x3FFE, 0x35CA & 0x0F3C = 0x0508.
#[test]
fn vertical_predicates_combine_each_channel_of_f0_0_and_f1_0() {
    let mut st = zeroed(Skl);
    st.set_flag(0, 0x0000_35CA, 0).unwrap();
    st.set_flag(1, 0x0000_0F3C, 0).unwrap();
    for f in ["f0.0", "f1.0"] {
        for (pc, want) in [("anyv", 0x3FFE), ("allv", 0x0508)] {
            let text = format!("({f}.{pc}) mov (16) r1<1>:d 1:d");
            assert_eq!(written(&mut st, &text, 16), want, "{text}");
            let text = format!("(-{f}.{pc}) mov (16) r1<1>:d 1:d");
            assert_eq!(written(&mut st, &text, 16), !want & 0xFFFF, "{text}");
        }
    }
    // The channel offset picks the bits: M8 channels 0-7 use bits 8-15 (0x35 and 0x0F).
    assert_eq!(
        written(&mut st, "(f0.0.anyv) mov (8|M8) r1<1>:d 1:d", 8),
        0x3F
    );
    assert_eq!(
        written(&mut st, "(f0.0.allv) mov (8|M8) r1<1>:d 1:d", 8),
        0x05
    );
    // An undefined bit: a defined 1 still decides anyv, a defined 0 allv.
    st.set_flag(1, 0x0000_0F3C, 0x0000_0003).unwrap();
    let (on, undef) = written_undef(&mut st, "(f0.0.anyv) mov (8) r1<1>:d 1:d", 8, 4);
    assert_eq!(
        (on, undef),
        (0xFE, 0x01),
        "anyv: channel 1 has f0.0 bit 1 set"
    );
    let (on, undef) = written_undef(&mut st, "(f0.0.allv) mov (8) r1<1>:d 1:d", 8, 4);
    assert_eq!(
        (on, undef),
        (0x08, 0x02),
        "allv: channel 0 has f0.0 bit 0 clear"
    );
}

/// flow.pmask.vertical-subregister: naming f0.1 (or f1.1), the f0.0/f1.0 reading and the
/// f0.1/f1.1 reading give a channel a value only where they agree.
#[test]
fn vertical_predicates_naming_f0_1_are_known_where_both_readings_agree() {
    let mut st = zeroed(Skl);
    // f0.1 = f0.0 and f1.1 = f1.0: both readings are 0x3FFE (anyv).
    st.set_flag(0, 0x35CA_35CA, 0).unwrap();
    st.set_flag(1, 0x0F3C_0F3C, 0).unwrap();
    for f in ["f0.1", "f1.1"] {
        let text = format!("({f}.anyv) mov (16) r1<1>:d 1:d");
        assert_eq!(written_undef(&mut st, &text, 16, 4), (0x3FFE, 0), "{text}");
    }
    // f0.1 = f1.1 = 0: the readings differ on the channels anyv sets from f0.0/f1.0.
    st.set_flag(0, 0x0000_35CA, 0).unwrap();
    st.set_flag(1, 0x0000_0F3C, 0).unwrap();
    let (on, undef) = written_undef(&mut st, "(f0.1.anyv) mov (16) r1<1>:d 1:d", 16, 4);
    assert_eq!((on, undef), (0, 0x3FFE));
    // allv: 0x0508 against 0, inverted: 0xFAF7 against 0xFFFF.
    let (on, undef) = written_undef(&mut st, "(-f0.1.allv) mov (16) r1<1>:d 1:d", 16, 4);
    assert_eq!((on, undef), (0xFAF7, 0x0508));
}

/// flow.pmask.vertical-high-channel: a channel whose bit number (channel offset + n) is 16 or
/// more has an unknown predicate (f0.0 and f1.0 have 16 bits).
#[test]
fn vertical_predicates_from_bit_16_are_unknown() {
    let mut st = zeroed(Skl);
    st.set_flag(0, u32::MAX, 0).unwrap();
    st.set_flag(1, u32::MAX, 0).unwrap();
    let (on, undef) = written_undef(&mut st, "(f0.0.anyv) mov (32) r1<1>:w 1:w", 32, 2);
    assert_eq!((on, undef), (0x0000_FFFF, 0xFFFF_0000));
    let (on, undef) = written_undef(&mut st, "(f0.0.allv) mov (16|M16) r1<1>:d 1:d", 16, 4);
    assert_eq!((on, undef), (0, 0xFFFF));
    // M8 with SIMD16: channels 0-7 use bits 8-15, channels 8-15 bits 16-23.
    let (on, undef) = written_undef(&mut st, "(f0.0.anyv) mov (16|M8) r1<1>:d 1:d", 16, 4);
    assert_eq!((on, undef), (0x00FF, 0xFF00));
}

/// flow.pmask.align16-group: Align16 .any4h/.all4h combine each group of four channels; and
/// flow.pmask.group-start: a group counted from the channel offset when that offset is not a
/// multiple of N (.any8h with M4: channels 0-3 read flag bits 4-11).
#[test]
fn align16_group_predicates_and_group_start() {
    let mut st = zeroed(Hsw);
    put(&mut st, r(2, 0), 4, &[1; 8]);
    // Bit 5 set: group 1 (channels 4-7) has a set bit; bits 0-3 set: group 0 is all set.
    st.set_flag(0, 0b0010_0000, 0).unwrap();
    put(&mut st, r(1, 0), 4, &[0; 8]);
    run(&mut st, &["(f0.0.any4h) mov (8) r1<4>.xyzw:d r2<4>.xyzw:d"]);
    assert_eq!(get(&st, r(1, 0), 4, 8), vec![0, 0, 0, 0, 1, 1, 1, 1]);
    st.set_flag(0, 0b0010_1111, 0).unwrap();
    put(&mut st, r(1, 0), 4, &[0; 8]);
    run(&mut st, &["(f0.0.all4h) mov (8) r1<4>.xyzw:d r2<4>.xyzw:d"]);
    assert_eq!(get(&st, r(1, 0), 4, 8), vec![1, 1, 1, 1, 0, 0, 0, 0]);
    // Only bit 8 set: counted from the channel offset 4 the group holds it (Mesa's aligned
    // dependency mask would read bits 0-7).
    let mut st = zeroed(Skl);
    st.set_flag(0, 0x100, 0).unwrap();
    assert_eq!(
        written(&mut st, "(f0.0.any8h) mov (4|M4) r1<1>:d 1:d", 4),
        0xF
    );
}

/// flow.pmask.align16-replicate.
#[test]
fn align16_replicated_predicate_and_channel_enables() {
    let mut st = zeroed(Hsw);
    // Channel x of each group of four decides the group: flags 0b0001_0000 -> group 1 only.
    st.set_flag(0, 0b0001_0000, 0).unwrap();
    put(&mut st, r(2, 0), 4, &[1; 8]);
    put(&mut st, r(1, 0), 4, &[0; 8]);
    run(&mut st, &["(f0.0.x) mov (8) r1<4>.xyzw:d r2<4>.xyzw:d"]);
    assert_eq!(get(&st, r(1, 0), 4, 8), vec![0, 0, 0, 0, 1, 1, 1, 1]);
    // Destination channel enables (write mask) with NoMask.
    put(&mut st, r(1, 0), 4, &[0; 8]);
    run(&mut st, &["(W) mov (8) r1<4>.yw:d r2<4>.xyzw:d"]);
    assert_eq!(get(&st, r(1, 0), 4, 8), vec![0, 1, 0, 1, 0, 1, 0, 1]);
}

#[test]
fn condition_modifier_writes_only_enabled_bits_null_dst() {
    let mut st = zeroed(Skl);
    set_field(&mut st, "sr0", "dmask", 0x0F);
    st.set_flag(0, 0xFFFF_0000, 0).unwrap();
    put(&mut st, r(2, 0), 4, &[0, 1, 0, 1, 0, 1, 0, 1]);
    // Null destination: flags are still written, only for enabled channels 0-3.
    run(&mut st, &["and.z.f0.0 (8) null<1>:ud r2<8;8,1>:ud 1:ud"]);
    assert_eq!(st.flag(0).unwrap(), (0xFFFF_0005, 0));
    // Predicated channels keep their flag bit: (f1.0) cmp.nz.f1.0 ANDs the condition in.
    set_field(&mut st, "sr0", "dmask", 0xFF);
    st.set_flag(1, 0b1100_1100, 0).unwrap();
    run(
        &mut st,
        &["(f1.0) cmp.nz.f1.0 (8) null<1>:d r2<8;8,1>:d 0:d"],
    );
    assert_eq!(st.flag(1).unwrap().0 & 0xFF, 0b1000_1000);
}

#[test]
fn implicit_accumulator_word_precision_33_bits() {
    // acc.precision.w: W + W kept in the accumulator with 33 bits.
    let mut st = zeroed(Ivb);
    put(&mut st, r(2, 0), 2, &[0x7fff; 8]);
    put(&mut st, r(3, 0), 2, &[0x7fff; 8]);
    run(
        &mut st,
        &[
            "add (8) r1<1>:w r2<8;8,1>:w r3<8;8,1>:w {AccWrEn}",
            "mov.sat (8) r4<1>:w acc0<8;8,1>:w",
            "mov (8) r5<1>:d acc0<8;8,1>:w",
        ],
    );
    assert_eq!(get(&st, r(1, 0), 2, 8), vec![0xfffe; 8]);
    assert_eq!(get(&st, r(4, 0), 2, 8), vec![0x7fff; 8]);
    assert_eq!(get(&st, r(5, 0), 4, 8), vec![65534; 8]);
    // mac accumulates at 33 bits and wraps past them: the flags and a saturated result become
    // undefined (runtime.acc-word-overflow).
    let mut st = zeroed(Ivb);
    put(&mut st, r(2, 0), 2, &[0x8000]);
    run(&mut st, &["mul (1) acc0.0<1>:w r2<0;1,0>:w r2<0;1,0>:w"]);
    let mut infos = Vec::new();
    for _ in 0..3 {
        infos.push(
            exec::step(
                &mut st,
                &insn(
                    Ivb,
                    "mac.nz.f0.0 (1) r1<1>:d r2<0;1,0>:w r2<0;1,0>:w {AccWrEn}",
                ),
            )
            .unwrap(),
        );
    }
    // 2^30 + 2^30 = 2^31, + 2^30, + 2^30 = 2^32: beyond the 33-bit range [-2^32, 2^32-1].
    assert!(infos[..2].iter().all(|i| i.violations.is_empty()));
    assert_eq!(infos[2].violations[0].rule, "runtime.acc-word-overflow");
    assert_eq!(get1(&st, r(1, 0), 4), (0, false));
    assert_eq!(st.flag(0).unwrap().1 & 1, 1, "flag undefined");
}

#[test]
fn dword_accumulator_64_bits_and_saturating_reads() {
    // acc.precision.d: a DWord product is kept with 64 bits.
    let mut st = zeroed(Skl);
    put(&mut st, r(2, 0), 4, &[0x7fff_ffff]);
    run(
        &mut st,
        &[
            "mul (1) acc0.0<1>:d r2<0;1,0>:d r2<0;1,0>:d",
            "mov.sat (1) r3<1>:d acc0.0<0;1,0>:d",
            "mov (1) r4<1>:d acc0.0<0;1,0>:d",
        ],
    );
    assert_eq!(get(&st, r(3, 0), 4, 1), vec![0x7fff_ffff]);
    assert_eq!(get(&st, r(4, 0), 4, 1), vec![1]);
    // The visible accumulator bytes hold the low 32 bits.
    let i = st.arf_index("acc0").unwrap();
    assert_eq!(&st.arf_reg(i).unwrap().0[..4], &[1, 0, 0, 0]);
    // A 65-bit product (negated UD source) is unpredictable (runtime.acc-dword-overflow).
    let mut st = zeroed(Skl);
    put(&mut st, r(2, 0), 4, &[0xffff_ffff]);
    let info = exec::step(
        &mut st,
        &insn(Skl, "mul (1) acc0.0<1>:d -r2<0;1,0>:ud r2<0;1,0>:ud"),
    )
    .unwrap();
    assert_eq!(info.violations[0].rule, "runtime.acc-dword-overflow");
}

#[test]
fn acc_read_with_other_type_is_undefined_and_checked() {
    let mut st = zeroed(Bdw);
    put(&mut st, r(2, 0), 4, &[0x3f80_0000; 8]);
    run(&mut st, &["mov (8) acc0<1>:f r2<8;8,1>:f"]);
    let before = st.clone();
    let info = exec::step(&mut st, &insn(Bdw, "mov (8) r1<1>:d acc0<8;8,1>:d")).unwrap();
    assert_eq!(info.violations[0].rule, "runtime.acc-read-type-mismatch");
    assert!(get1(&st, r(1, 0), 4).1);
    // Strict execution refuses it and changes nothing.
    let mut st = before;
    let e = exec::step_with(
        &mut st,
        &insn(Bdw, "mov (8) r1<1>:d acc0<8;8,1>:d"),
        &ExecOptions {
            strict: true,
            ..ExecOptions::default()
        },
    )
    .unwrap_err();
    assert!(matches!(
        e,
        ExecError::Runtime {
            rule: "runtime.acc-read-type-mismatch",
            ..
        }
    ));
    assert!(!get1(&st, r(1, 0), 4).1);
    // Same precision row (D and UD): no mismatch.
    run(&mut st, &["mov (8) acc0<1>:d r2<8;8,1>:d"]);
    let info = exec::step(&mut st, &insn(Bdw, "mov (8) r1<1>:ud acc0<8;8,1>:ud")).unwrap();
    assert!(info.violations.is_empty());
}

#[test]
fn acc_disable_blocks_implicit_but_not_explicit_writes() {
    let mut st = zeroed(Skl);
    put(&mut st, r(2, 0), 4, &[5; 8]);
    run(&mut st, &["mov (8) acc0<1>:d 7:d"]);
    set_field(&mut st, "cr0", "acc_disable", 1);
    run(
        &mut st,
        &[
            "add (8) r1<1>:d r2<8;8,1>:d r2<8;8,1>:d {AccWrEn}",
            "mov (8) r3<1>:d acc0<8;8,1>:d",
        ],
    );
    assert_eq!(get(&st, r(3, 0), 4, 8), vec![7; 8]);
    run(
        &mut st,
        &[
            "add (8) acc0<1>:d r2<8;8,1>:d r2<8;8,1>:d",
            "mov (8) r3<1>:d acc0<8;8,1>:d",
        ],
    );
    assert_eq!(get(&st, r(3, 0), 4, 8), vec![10; 8]);
    set_field(&mut st, "cr0", "acc_disable", 0);
    run(
        &mut st,
        &[
            "add (8) r1<1>:d r2<8;8,1>:d 1:d {AccWrEn}",
            "mov (8) r3<1>:d acc0<8;8,1>:d",
        ],
    );
    assert_eq!(get(&st, r(3, 0), 4, 8), vec![6; 8]);
}

fn acc_bytes(st: &ThreadState, name: &str) -> Vec<u8> {
    let i = st.arf_index(name).unwrap();
    st.arf_reg(i).unwrap().0.to_vec()
}

#[test]
fn implicit_acc0_acc1_selection_by_channel() {
    // seed000 §3.3.3.5 / seed004: SIMD16 F updates acc0 and acc1; Q2 reaches acc1; HF with H2
    // reaches acc1 (gen8+); DWord integers use acc0 only.
    let mut st = zeroed(Skl);
    let v: Vec<u64> = (0..16).map(|i| 0x4000_0000 + i).collect();
    put(&mut st, r(2, 0), 4, &v);
    run(&mut st, &["mov (16) r10<1>:f r2<8;8,1>:f {AccWrEn}"]);
    let a0: Vec<u8> = v[..8]
        .iter()
        .flat_map(|x| (*x as u32).to_le_bytes())
        .collect();
    let a1: Vec<u8> = v[8..]
        .iter()
        .flat_map(|x| (*x as u32).to_le_bytes())
        .collect();
    assert_eq!(acc_bytes(&st, "acc0"), a0);
    assert_eq!(acc_bytes(&st, "acc1"), a1);
    let mut st = zeroed(Skl);
    put(&mut st, r(2, 0), 4, &v);
    run(&mut st, &["mov (8|M8) r10<1>:f r2<8;8,1>:f {AccWrEn}"]);
    assert_eq!(acc_bytes(&st, "acc1"), a0);
    assert_eq!(acc_bytes(&st, "acc0"), vec![0; 32]);
    let mut st = zeroed(Bdw);
    put(&mut st, r(2, 0), 2, &(0..16).collect::<Vec<u64>>());
    run(
        &mut st,
        &["mov (16|M16) r10<1>:hf r2<16;16,1>:hf {AccWrEn}"],
    );
    let h: Vec<u8> = (0..16u16).flat_map(|x| x.to_le_bytes()).collect();
    assert_eq!(acc_bytes(&st, "acc1"), h);
    // D: acc0 only; SIMD8 Q2 lands in acc0 too ("QtrCtrl defaults to acc0").
    let mut st = zeroed(Skl);
    run(&mut st, &["mov (8|M8) r10<1>:d 3:d {AccWrEn}"]);
    assert_eq!(&acc_bytes(&st, "acc0")[..4], &[3, 0, 0, 0]);
    assert_eq!(acc_bytes(&st, "acc1"), vec![0; 32]);
}

#[test]
fn acc2_to_acc9_keep_two_bits() {
    // feature.acc2-acc9: explicit movs keep the low 2 bits of each DWord; the rest reads
    // undefined. Ivy Bridge has acc0-acc1 only.
    let mut st = zeroed(Skl);
    put(&mut st, r(2, 0), 4, &[0xffff_ffff; 8]);
    run(
        &mut st,
        &[
            "mov (8) acc2<1>:ud r2<8;8,1>:ud",
            "mov (8) r4<1>:ud acc2<8;8,1>:ud",
        ],
    );
    let i = st.arf_index("acc2").unwrap();
    let (bytes, undef) = st.arf_reg(i).unwrap();
    assert_eq!(bytes[0] & 3, 3);
    assert_eq!(undef[0], !3);
    assert!(get1(&st, r(4, 0), 4).1);
    assert!(zeroed(Ivb).arf_index("acc2").is_none());
    assert!(zeroed(Bdw).arf_index("acc9").is_some());
}

#[test]
fn undefined_inputs_give_undefined_outputs() {
    let mut st = ThreadState::new(Skl);
    put(&mut st, r(2, 0), 4, &[1; 8]);
    // r3 undefined (default state): the sum is undefined, the flags too.
    run(&mut st, &["add.z.f0.0 (8) r1<1>:d r2<8;8,1>:d r3<8;8,1>:d"]);
    for i in 0..8 {
        assert!(get1(&st, r(1, 4 * i), 4).1);
    }
    assert_eq!(st.flag(0).unwrap().1 & 0xFF, 0xFF);
    // Defined inputs but undefined flags as predicate: every channel may or may not be written.
    run(&mut st, &["(f1.0) mov (8) r5<1>:d r2<8;8,1>:d"]);
    assert!(get1(&st, r(5, 0), 4).1);
    // Defined flags: a defined result.
    st.set_flag(1, 0xFF, 0).unwrap();
    run(&mut st, &["(f1.0) mov (8) r5<1>:d r2<8;8,1>:d"]);
    assert_eq!(get(&st, r(5, 0), 4, 8), vec![1; 8]);
}

#[test]
fn not_on_platform() {
    let mut st = zeroed(Ivb);
    let i = insn(
        Skl,
        "csel.l (8) r1<1>:f r2<4;4,1>:f r3<4;4,1>:f r4<4;4,1>:f",
    );
    assert!(matches!(
        exec::step(&mut st, &i),
        Err(ExecError::NotOnPlatform { .. })
    ));
}

fn _platforms() -> [Platform; 6] {
    Platform::ALL
}
