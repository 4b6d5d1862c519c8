//! Helpers for the rule tests (tests/rules_*.rs): small instructions as property
//! records, and assertions that the validator names exactly one rule on exactly
//! the platforms of its gens.
//!
//! Records are completed per platform the way the validator glue does it
//! (`fill_table_props`, `fill_derived_props`), so tests set only what the
//! instruction says: opcode, controls, operands and regions.

#![allow(dead_code)]

use euref::spec::{AccessMode, ArfKind, DataType, MathFn, Opcode, Platform, PropsRecord, RegFile};
use euref::validate::{fill_derived_props, fill_table_props, violations};

pub use euref::spec::Platform::{Bdw, Bxt, Chv, Hsw, Ivb, Skl};

pub const ALL: &[Platform] = &[Ivb, Hsw, Bdw, Chv, Skl, Bxt];
pub const GEN7: &[Platform] = &[Ivb, Hsw];
pub const GEN8P: &[Platform] = &[Bdw, Chv, Skl, Bxt];
pub const LP: &[Platform] = &[Chv, Bxt];
pub const GEN9: &[Platform] = &[Skl, Bxt];
pub const NONE: &[Platform] = &[];

/// An instruction with `nsrc` GRF sources, all `:f` with the region `<8;8,1>`,
/// destination `r2<1>:f`, Align1, no controls.
pub fn insn(op: Opcode, exec: i64, nsrc: usize) -> PropsRecord {
    let mut p = PropsRecord {
        opcode: op,
        exec_size: exec,
        access_mode: AccessMode::Align1,
        num_srcs: nsrc as i64,
        dst_file: RegFile::Grf,
        dst_type: DataType::F,
        dst_reg: 2,
        dst_hstride: 1,
        ..Default::default()
    };
    for s in 0..nsrc {
        p.src_present[s] = true;
        p.src_file[s] = RegFile::Grf;
        p.src_type[s] = DataType::F;
        p.src_reg[s] = 4 + 2 * s as i64;
        region(&mut p, s, 8, 8, 1);
    }
    if exec < 8 {
        for s in 0..nsrc {
            region(&mut p, s, exec, exec, 1);
        }
    }
    p
}

/// `mov (8) r2<1>:f r4<8;8,1>:f`
pub fn mov8() -> PropsRecord {
    insn(Opcode::Mov, 8, 1)
}

/// `add (8) r2<1>:f r4<8;8,1>:f r6<8;8,1>:f`
pub fn add8() -> PropsRecord {
    insn(Opcode::Add, 8, 2)
}

/// `math.FN (8) r2<1>:f r4<8;8,1>:f r6<8;8,1>:f` (src1 null for one-source functions).
pub fn math8(f: MathFn) -> PropsRecord {
    let mut p = insn(Opcode::Math, 8, 2);
    p.math_fn = f;
    if matches!(
        f,
        MathFn::Sin
            | MathFn::Cos
            | MathFn::Inv
            | MathFn::Sqrt
            | MathFn::Rsq
            | MathFn::Log
            | MathFn::Exp
    ) {
        null_src(&mut p, 1);
    }
    p
}

/// `mad (8) r2.xyzw:f r4.xyzw:f r6.xyzw:f r8.xyzw:f` (Align16, three sources).
pub fn mad8() -> PropsRecord {
    let mut p = insn(Opcode::Mad, 8, 3);
    align16(&mut p);
    p
}

/// `send (8) r10<1>:ud r112<8;8,1>:ud 0x02000000` (immediate descriptor).
pub fn send8() -> PropsRecord {
    let mut p = insn(Opcode::Send, 8, 1);
    p.dst_reg = 10;
    p.dst_type = DataType::UD;
    p.src_type[0] = DataType::UD;
    p.src_reg[0] = 112;
    p.desc_file = RegFile::Imm;
    p
}

/// Switch to Align16: sources `<4;4,1>` (the implied .xyzw region), destination stride 1.
pub fn align16(p: &mut PropsRecord) {
    p.access_mode = AccessMode::Align16;
    p.dst_hstride = 1;
    for s in 0..3 {
        if p.src_present[s] && p.src_file[s] != RegFile::Imm {
            region(p, s, 4, 4, 1);
        }
    }
}

pub fn region(p: &mut PropsRecord, s: usize, v: i64, w: i64, h: i64) {
    p.src_vstride[s] = v;
    p.src_width[s] = w;
    p.src_hstride[s] = h;
}

/// Scalar region `<0;1,0>`.
pub fn scalar(p: &mut PropsRecord, s: usize) {
    region(p, s, 0, 1, 0);
}

/// Source `s` becomes an immediate of type `t` with the 32-bit field `bits`.
pub fn imm(p: &mut PropsRecord, s: usize, t: DataType, bits: i64) {
    p.src_file[s] = RegFile::Imm;
    p.src_type[s] = t;
    p.src_reg[s] = 0;
    p.src_imm_bits[s] = bits;
    region(p, s, 0, 1, 0);
}

/// Source `s` becomes an ARF register of kind `k`, number `n`, subregister byte `sub`.
pub fn arf_src(p: &mut PropsRecord, s: usize, k: ArfKind, n: i64, sub: i64) {
    p.src_file[s] = RegFile::Arf;
    p.src_arf[s] = k;
    p.src_reg[s] = n;
    p.src_subreg[s] = sub;
}

/// The destination becomes an ARF register of kind `k`, number `n`, subregister byte `sub`.
pub fn arf_dst(p: &mut PropsRecord, k: ArfKind, n: i64, sub: i64) {
    p.dst_file = RegFile::Arf;
    p.dst_arf = k;
    p.dst_reg = n;
    p.dst_subreg = sub;
}

pub fn null_dst(p: &mut PropsRecord) {
    arf_dst(p, ArfKind::Null, 0, 0);
}

pub fn null_src(p: &mut PropsRecord, s: usize) {
    arf_src(p, s, ArfKind::Null, 0, 0);
}

/// Set every operand's type: `dst` and `srcs` in order.
pub fn types(p: &mut PropsRecord, dst: DataType, srcs: &[DataType]) {
    p.dst_type = dst;
    for (s, t) in srcs.iter().enumerate() {
        p.src_type[s] = *t;
    }
}

/// The record as the validator sees it on `pl`.
pub fn complete(p: &PropsRecord, pl: Platform) -> PropsRecord {
    let mut q = p.clone();
    fill_table_props(pl, &mut q);
    fill_derived_props(&mut q);
    q
}

/// Rule IDs violated on `pl`, in table order.
pub fn ids_on(p: &PropsRecord, pl: Platform) -> Vec<&'static str> {
    violations(pl, &complete(p, pl))
        .into_iter()
        .map(|v| v.rule.id)
        .collect()
}

/// The validator names exactly `id` (once per offending source at most) on the
/// platforms `on`, and nothing on the others.
#[track_caller]
pub fn assert_only(p: &PropsRecord, id: &str, on: &[Platform]) {
    assert!(
        euref::spec::rules::RULES.iter().any(|r| r.id == id),
        "{id} is not a rule"
    );
    let mut bad = vec![];
    for &pl in ALL {
        let mut got = ids_on(p, pl);
        got.dedup();
        let want: Vec<&str> = if on.contains(&pl) { vec![id] } else { vec![] };
        if got != want {
            bad.push(format!("{}: got {got:?}, want {want:?}", pl.name()));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// No rule is violated on any platform where the instruction's opcode exists.
#[track_caller]
pub fn assert_valid(p: &PropsRecord) {
    assert_only_valid_on(p, ALL);
}

/// No rule is violated on the platforms `on`.
#[track_caller]
pub fn assert_only_valid_on(p: &PropsRecord, on: &[Platform]) {
    let bad: Vec<String> = on
        .iter()
        .filter_map(|&pl| {
            let got = ids_on(p, pl);
            (!got.is_empty()).then(|| format!("{}: {got:?}", pl.name()))
        })
        .collect();
    assert!(bad.is_empty(), "expected valid:\n{}", bad.join("\n"));
}

/// Like [`assert_only`], looking only at the platforms `among` (for instructions
/// that other rules reject elsewhere, e.g. HF types before Gen8).
#[track_caller]
pub fn assert_only_among(p: &PropsRecord, id: &str, on: &[Platform], among: &[Platform]) {
    let mut bad = vec![];
    for &pl in among {
        let mut got = ids_on(p, pl);
        got.dedup();
        let want: Vec<&str> = if on.contains(&pl) { vec![id] } else { vec![] };
        if got != want {
            bad.push(format!("{}: got {got:?}, want {want:?}", pl.name()));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Like [`assert_only`] for a native (uncompressed) instruction whose destination spans two
/// registers: on Ivy Bridge `align.dst-one-reg-per-native-half` (seed000 §3.3.2) is named
/// beside `id` (or alone where `id` does not apply there).
#[track_caller]
pub fn assert_only_and_ivb_native_half(p: &PropsRecord, id: &str, on: &[Platform]) {
    let mut bad = vec![];
    for &pl in ALL {
        let mut got = ids_on(p, pl);
        got.dedup();
        got.sort_unstable();
        let mut want: Vec<&str> = if on.contains(&pl) { vec![id] } else { vec![] };
        if pl == Ivb {
            want.push("align.dst-one-reg-per-native-half");
        }
        want.sort_unstable();
        if got != want {
            bad.push(format!("{}: got {got:?}, want {want:?}", pl.name()));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
