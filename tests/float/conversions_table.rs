//! spec/conversions.toml: every (source, destination, platform) triple resolves to the row
//! this test expects (the expectation is written out here independently of the table), the
//! float-to-integer special values match the manual's table, and the saturation rows carry
//! the ranges of seed001's table.

use euref::spec::conversions::{
    self, ConvMethod, ConvRound, SatKind, SpecialInput, SpecialResult, SATURATIONS, SPECIALS,
};
use euref::spec::{DataType, Platform};

use DataType::*;

const SCALARS: [DataType; 11] = [UB, B, UW, W, UD, D, UQ, Q, HF, F, DF];

fn bits(t: DataType) -> u32 {
    match t {
        UB | B => 8,
        UW | W | HF => 16,
        UD | D | F => 32,
        UQ | Q | DF => 64,
        _ => unreachable!(),
    }
}
fn is_float(t: DataType) -> bool {
    matches!(t, HF | F | DF)
}
fn is_uint(t: DataType) -> bool {
    matches!(t, UB | UW | UD | UQ)
}
fn is_byte(t: DataType) -> bool {
    matches!(t, UB | B)
}
fn is_qword_int(t: DataType) -> bool {
    matches!(t, UQ | Q)
}
fn is_gen7(p: Platform) -> bool {
    matches!(p, Platform::Ivb | Platform::Hsw)
}
/// HF, UQ and Q are Gen8+ types.
fn exists(t: DataType, p: Platform) -> bool {
    !(is_gen7(p) && matches!(t, HF | UQ | Q))
}

/// The pairs the BDW/SKL PRMs say have no direct conversion.
fn no_direct(s: DataType, d: DataType) -> bool {
    let pair = |a: fn(DataType) -> bool, b: fn(DataType) -> bool| (a(s) && b(d)) || (b(s) && a(d));
    pair(is_byte, |t| t == DF)
        || pair(is_byte, is_qword_int)
        || pair(|t| t == HF, |t| t == DF)
        || pair(|t| t == HF, is_qword_int)
}

/// Significant bits of an integer type's magnitude range.
fn int_sig_bits(t: DataType) -> u32 {
    if is_uint(t) {
        bits(t)
    } else {
        bits(t) - 1
    }
}
fn mantissa_bits(t: DataType) -> u32 {
    match t {
        HF => 11,
        F => 24,
        DF => 53,
        _ => unreachable!(),
    }
}

/// (row id, method, rounding, saturation) expected for `s -> d` on `p`.
fn expected(
    s: DataType,
    d: DataType,
    p: Platform,
) -> (&'static str, ConvMethod, ConvRound, SatKind) {
    let sat = if is_float(d) {
        SatKind::Unit
    } else {
        SatKind::Clamp
    };
    let nd = no_direct(s, d);
    let (id, m, r) = if s == d {
        let id = if is_float(s) {
            "conv.identity.float"
        } else {
            "conv.identity.int"
        };
        (id, ConvMethod::Identity, ConvRound::Exact)
    } else if !is_float(s) && !is_float(d) {
        if bits(d) > bits(s) {
            let m = if is_uint(s) {
                ConvMethod::ZeroExtend
            } else {
                ConvMethod::SignExtend
            };
            let id = match (s, is_uint(d)) {
                (UB, _) if nd => "conv.int.widen.ub-qword-nodirect",
                (B, _) if nd => "conv.int.widen.b-qword-nodirect",
                (UB, _) => "conv.int.widen.ub",
                (B, false) => "conv.int.widen.b-to-sint",
                (B, true) => "conv.int.widen.b-to-uint",
                (UW | UD, _) => "conv.int.widen.uint",
                (_, false) => "conv.int.widen.sint-to-sint",
                (_, true) => "conv.int.widen.sint-to-uint",
            };
            (id, m, ConvRound::Exact)
        } else if bits(d) == bits(s) {
            let id = if is_uint(s) {
                "conv.int.same-size.uint-to-sint"
            } else {
                "conv.int.same-size.sint-to-uint"
            };
            (id, ConvMethod::Reinterpret, ConvRound::Exact)
        } else {
            let id = if nd {
                "conv.int.narrow.qword-byte-nodirect"
            } else if is_qword_int(s) {
                "conv.int.narrow.qword"
            } else {
                "conv.int.narrow"
            };
            (id, ConvMethod::Truncate, ConvRound::Exact)
        }
    } else if is_float(s) && !is_float(d) {
        let id = match s {
            F => "conv.float-to-int.f",
            DF if nd => "conv.float-to-int.df-byte-nodirect",
            DF => "conv.float-to-int.df",
            HF if nd => "conv.float-to-int.hf-qword-nodirect",
            _ => "conv.float-to-int.hf",
        };
        (id, ConvMethod::FloatToInt, ConvRound::Rtz)
    } else if !is_float(s) {
        // Integer to float: exact when every value of the source fits the significand.
        let exact = int_sig_bits(s) <= mantissa_bits(d);
        let round = if exact {
            ConvRound::Exact
        } else {
            ConvRound::Cr0
        };
        let id = match d {
            F if exact => "conv.int-to-float.f-exact",
            F => "conv.int-to-float.f",
            DF if nd => "conv.int-to-float.byte-df-nodirect",
            DF if exact => "conv.int-to-float.df-exact",
            DF => "conv.int-to-float.qword-df",
            _ if nd => "conv.int-to-float.qword-hf-nodirect",
            _ if exact => "conv.int-to-float.byte-hf",
            _ => "conv.int-to-float.hf",
        };
        (id, ConvMethod::IntToFloat, round)
    } else if bits(d) > bits(s) {
        let id = match (s, d) {
            (HF, F) => "conv.float-widen.hf-f",
            (F, DF) => "conv.float-widen.f-df",
            _ => "conv.float-widen.hf-df-nodirect",
        };
        (id, ConvMethod::FloatWiden, ConvRound::Exact)
    } else {
        // Narrowing float: RTZ on Gen7 (seed000 §2.4.5), cr0 rounding on Gen8+ (decision).
        let (id, round) = match (s, d) {
            (DF, F) if is_gen7(p) => ("conv.float-narrow.df-f.gen7", ConvRound::Rtz),
            (DF, F) => ("conv.float-narrow.df-f", ConvRound::Cr0),
            (F, HF) => ("conv.float-narrow.f-hf", ConvRound::Cr0),
            _ => ("conv.float-narrow.df-hf-nodirect", ConvRound::Cr0),
        };
        (id, ConvMethod::FloatNarrow, round)
    };
    assert_eq!(nd, id.ends_with("-nodirect"), "{s:?} -> {d:?}");
    (id, m, r, sat)
}

#[test]
fn every_pair_resolves_to_the_expected_row() {
    let mut used = std::collections::BTreeSet::new();
    for p in Platform::ALL {
        for s in SCALARS {
            for d in SCALARS {
                let got = conversions::rule(s, d, p);
                if !(exists(s, p) && exists(d, p)) {
                    assert!(got.is_none(), "{s:?} -> {d:?} on {p:?} should not exist");
                    continue;
                }
                let got = got.unwrap_or_else(|| panic!("{s:?} -> {d:?} on {p:?} uncovered"));
                let (id, m, r, sat) = expected(s, d, p);
                let at = format!("{s:?} -> {d:?} on {p:?}");
                assert_eq!(got.id, id, "{at}");
                assert_eq!(got.method, m, "{at}");
                assert_eq!(got.round, r, "{at}");
                assert_eq!(got.sat, sat, "{at}");
                assert!(got.gens.contains(p), "{at}");
                used.insert(got.id);
            }
        }
        // Vector types have no conversion row.
        for v in [V, UV, VF] {
            assert!(conversions::rule(v, F, p).is_none());
            assert!(conversions::rule(D, v, p).is_none());
        }
    }
    // Every row is reached by some pair.
    for cv in conversions::CONVERSIONS.iter() {
        assert!(used.contains(cv.id), "row {} covers no pair", cv.id);
    }
    assert_eq!(used.len(), conversions::CONVERSIONS.len());
}

#[test]
fn type_availability_matches_types_table() {
    for p in Platform::ALL {
        for t in SCALARS {
            assert_eq!(t.on(p), exists(t, p), "{t:?} on {p:?}");
        }
    }
}

#[test]
fn conversion_rows_are_consistent() {
    for cv in conversions::CONVERSIONS.iter() {
        match cv.method {
            ConvMethod::FloatToInt => {
                assert_eq!(cv.round, ConvRound::Rtz, "{}", cv.id);
                assert_eq!(cv.sat, SatKind::Clamp, "{}", cv.id);
            }
            ConvMethod::IntToFloat | ConvMethod::FloatWiden | ConvMethod::FloatNarrow => {
                assert_eq!(cv.sat, SatKind::Unit, "{}", cv.id)
            }
            _ => {}
        }
        if matches!(
            cv.method,
            ConvMethod::ZeroExtend
                | ConvMethod::SignExtend
                | ConvMethod::Reinterpret
                | ConvMethod::Truncate
        ) {
            assert_eq!(cv.round, ConvRound::Exact, "{}", cv.id);
            assert_eq!(cv.sat, SatKind::Clamp, "{}", cv.id);
        }
        assert!(!cv.cite.is_empty() && !cv.text.is_empty());
        if cv.id.ends_with("-nodirect") {
            assert!(
                cv.cite.contains("mesa brw_nir_lower_conversions.c"),
                "{}",
                cv.id
            );
            let text = cv.text.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(text.contains("no direct conversion"), "{}", cv.id);
        }
    }
    // The Gen7 / Gen8+ split of DF -> F (seed000 §2.4.5 vs the cr0 decision).
    let g7 = conversions::rule(DF, F, Platform::Hsw).unwrap();
    let g8 = conversions::rule(DF, F, Platform::Chv).unwrap();
    assert_eq!(g7.id, "conv.float-narrow.df-f.gen7");
    assert!(g7.cite.contains("seed000 §2.4.5"));
    assert!(
        g7.text.contains("undefined"),
        "upper dword undefined on Gen7"
    );
    assert_eq!(g8.id, "conv.float-narrow.df-f");
    assert!(g8.cite.contains("seed001") && g8.cite.contains("mesa brw_fs_nir.cpp"));
}

// ------------------------------------------------------------------ special values

const FLOATS: [DataType; 3] = [HF, F, DF];
const INTS: [DataType; 8] = [UB, B, UW, W, UD, D, UQ, Q];

fn imax(t: DataType) -> i128 {
    if is_uint(t) {
        (1i128 << bits(t)) - 1
    } else {
        (1i128 << (bits(t) - 1)) - 1
    }
}
fn imin(t: DataType) -> i128 {
    if is_uint(t) {
        0
    } else {
        -(1i128 << (bits(t) - 1))
    }
}
fn value(r: SpecialResult, t: DataType) -> i128 {
    match r {
        SpecialResult::Zero => 0,
        SpecialResult::Imax => imax(t),
        SpecialResult::Imin => imin(t),
    }
}

/// seed000 §2.4.1's table, F -> UD D UW W UB B, as printed (hex, zero-extended to 32 bits):
/// rows INF, -INF, +2^32 (above every range), -2^32-1 (below every range).
const SEED_TABLE: [(SpecialInput, [u32; 6]); 4] = [
    (
        SpecialInput::PosInf,
        [
            0xFFFF_FFFF,
            0x7FFF_FFFF,
            0x0000_FFFF,
            0x0000_7FFF,
            0xFF,
            0x7F,
        ],
    ),
    (
        SpecialInput::NegInf,
        [
            0x0000_0000,
            0x8000_0000,
            0x0000_0000,
            0x0000_8000,
            0x00,
            0x80,
        ],
    ),
    (
        SpecialInput::PosOverflow,
        [
            0xFFFF_FFFF,
            0x7FFF_FFFF,
            0x0000_FFFF,
            0x0000_7FFF,
            0xFF,
            0x7F,
        ],
    ),
    (
        SpecialInput::NegOverflow,
        [
            0x0000_0000,
            0x8000_0000,
            0x0000_0000,
            0x0000_8000,
            0x00,
            0x80,
        ],
    ),
];
const SEED_COLUMNS: [DataType; 6] = [UD, D, UW, W, UB, B];

fn expected_special(input: SpecialInput, dst: DataType) -> (&'static str, SpecialResult) {
    let u = is_uint(dst);
    match input {
        SpecialInput::Zero => ("conv.special.zero", SpecialResult::Zero),
        SpecialInput::Denorm => ("conv.special.denorm", SpecialResult::Zero),
        SpecialInput::Nan => ("conv.special.nan", SpecialResult::Zero),
        SpecialInput::PosInf => ("conv.special.pos-inf", SpecialResult::Imax),
        SpecialInput::PosOverflow => ("conv.special.pos-overflow", SpecialResult::Imax),
        SpecialInput::NegInf if u => ("conv.special.neg-inf.uint", SpecialResult::Zero),
        SpecialInput::NegInf => ("conv.special.neg-inf.sint", SpecialResult::Imin),
        SpecialInput::NegOverflow if u => ("conv.special.neg-overflow.uint", SpecialResult::Zero),
        SpecialInput::NegOverflow => ("conv.special.neg-overflow.sint", SpecialResult::Imin),
    }
}

const INPUTS: [SpecialInput; 7] = [
    SpecialInput::Zero,
    SpecialInput::Denorm,
    SpecialInput::Nan,
    SpecialInput::PosInf,
    SpecialInput::NegInf,
    SpecialInput::PosOverflow,
    SpecialInput::NegOverflow,
];

#[test]
fn special_values_for_every_float_int_pair() {
    let mut used = std::collections::BTreeSet::new();
    for p in Platform::ALL {
        for s in FLOATS {
            for d in INTS {
                if !(exists(s, p) && exists(d, p)) {
                    continue;
                }
                for input in INPUTS {
                    let row = conversions::special(input, s, d, p)
                        .unwrap_or_else(|| panic!("{input:?} {s:?} -> {d:?} on {p:?}"));
                    let (id, result) = expected_special(input, d);
                    assert_eq!(row.id, id);
                    assert_eq!(row.result, result, "{id}");
                    // Exactly one row applies.
                    let n = SPECIALS
                        .iter()
                        .filter(|r| {
                            r.input == input
                                && r.from.contains(s)
                                && r.to.contains(d)
                                && r.gens.contains(p)
                        })
                        .count();
                    assert_eq!(n, 1, "{input:?} {s:?} -> {d:?} on {p:?}");
                    used.insert(row.id);
                }
                // +inf gives imax for every destination type; -inf gives imin (0 when unsigned).
                let pi = conversions::special(SpecialInput::PosInf, s, d, p).unwrap();
                assert_eq!(value(pi.result, d), imax(d));
                let ni = conversions::special(SpecialInput::NegInf, s, d, p).unwrap();
                assert_eq!(value(ni.result, d), imin(d));
            }
        }
    }
    assert_eq!(used.len(), SPECIALS.len());
}

#[test]
fn special_values_match_seed000_table() {
    for (input, row) in SEED_TABLE {
        for (i, d) in SEED_COLUMNS.iter().enumerate() {
            let r = conversions::special(input, F, *d, Platform::Ivb).unwrap();
            let v = value(r.result, *d);
            let mask = (1u64 << bits(*d)) - 1;
            let printed = (v as i64 as u64) & mask;
            assert_eq!(printed, row[i] as u64, "{input:?} -> {d:?}");
        }
    }
    // Zero, denorm, NaN and -NaN all give 00000000.
    for input in [SpecialInput::Zero, SpecialInput::Denorm, SpecialInput::Nan] {
        for d in SEED_COLUMNS {
            let r = conversions::special(input, F, d, Platform::Ivb).unwrap();
            assert_eq!(value(r.result, d), 0);
        }
    }
    // The seed001 "qNaN Indefinite" conflict is decided for 0 and says so.
    for id in [
        "conv.special.neg-inf.uint",
        "conv.special.neg-overflow.uint",
    ] {
        let r = SPECIALS.iter().find(|r| r.id == id).unwrap();
        assert_eq!(r.result, SpecialResult::Zero);
        assert!(r.cite.contains("seed000 §2.4.1") && r.cite.contains("seed001"));
    }
    for id in [
        "conv.special.neg-inf.sint",
        "conv.special.neg-overflow.sint",
    ] {
        let r = SPECIALS.iter().find(|r| r.id == id).unwrap();
        assert_eq!(r.result, SpecialResult::Imin);
    }
}

// ------------------------------------------------------------------ saturation

fn sat_id(t: DataType) -> String {
    if is_float(t) {
        "sat.float".into()
    } else {
        format!("sat.int.{}", t.name().to_ascii_lowercase())
    }
}

/// The range as seed001's table prints it.
fn printed_range(t: DataType) -> &'static str {
    match t {
        UB => "[0, 255]",
        B => "[-128, 127]",
        UW => "[0, 65535]",
        W => "[-32768, 32767]",
        UD => "[0, 2^32-1]",
        D => "[-2^31, 2^31-1]",
        UQ => "[0, 2^64-1]",
        Q => "[-2^63, 2^63-1]",
        _ => "[0.0, 1.0]",
    }
}

#[test]
fn saturation_rows() {
    let mut used = std::collections::BTreeSet::new();
    for p in Platform::ALL {
        for t in SCALARS {
            let row = conversions::saturation(t, p);
            if !exists(t, p) {
                // HF belongs to the float row on every platform; UQ/Q rows are Gen8+ only.
                if matches!(t, UQ | Q) {
                    assert!(row.is_none());
                }
                continue;
            }
            let row = row.unwrap_or_else(|| panic!("no saturation row for {t:?} on {p:?}"));
            assert_eq!(row.id, sat_id(t));
            assert!(
                row.text.contains(printed_range(t)),
                "{}: {}",
                row.id,
                row.text
            );
            if is_float(t) {
                assert_eq!(row.range, "[0.0, 1.0]");
                assert_eq!(row.nan, "zero");
            } else {
                assert_eq!(row.range, "type");
                assert_eq!(row.nan, "n/a");
            }
            used.insert(row.id);
        }
    }
    for id in [
        "sat.float",
        "sat.int.ub",
        "sat.int.b",
        "sat.int.uw",
        "sat.int.w",
        "sat.int.ud",
        "sat.int.d",
        "sat.int.uq",
        "sat.int.q",
    ] {
        assert!(used.contains(id), "{id}");
    }
    assert_eq!(SATURATIONS.len(), 9);
    let f = SATURATIONS.iter().find(|s| s.id == "sat.float").unwrap();
    assert!(f.text.contains("+inf") && f.text.contains("-inf") && f.text.contains("NaN"));
}
