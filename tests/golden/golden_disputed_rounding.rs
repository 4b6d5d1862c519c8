//! Disputed float rounding (issue 28): F -> HF, DF -> HF and Gen8+ DF -> F round per cr0 in
//! euref (Mesa) but toward zero in seed001. The conversion rows say so (`alt_round = "rtz"`),
//! and golden vectors do not assert one side as the only answer: where the result rounded
//! toward zero differs from the expected one, the element carries an alternative of kind
//! `value` with those bits, which `euref check` accepts, and nothing else is accepted.

use euref::conformance::compare::{compare, Outcome};
use euref::conformance::protocol::Response;
use euref::golden::template::OpSel;
use euref::golden::{generate, AltKind, GenConfig, Vector};
use euref::spec::{DataType, Opcode, Platform};

fn mov_vectors(p: Platform, types: &[DataType], count: u64) -> Vec<Vector> {
    let mut cfg = GenConfig::new(p, 28);
    cfg.ops = vec![OpSel::Op(Opcode::Mov)];
    cfg.types = types.to_vec();
    let mut out = Vec::new();
    generate(&cfg, count, &mut std::io::sink(), |c| {
        out.extend(c.iter().flatten().cloned());
    })
    .unwrap();
    out
}

/// Element `len` bytes at `off` of a register's hex text, little-endian.
fn elem(hex: &str, off: usize, len: usize) -> u64 {
    (0..len).rev().fold(0u64, |v, i| {
        let b = &hex[2 * (off + i)..2 * (off + i) + 2];
        v << 8 | u64::from_str_radix(b, 16).unwrap()
    })
}

/// `hex` with element `len` bytes at `off` replaced by `bits`.
fn with_elem(hex: &str, off: usize, len: usize, bits: u64) -> String {
    let mut s = hex.to_string();
    for i in 0..len {
        let b = format!("{:02x}", (bits >> (8 * i)) & 0xff);
        s.replace_range(2 * (off + i)..2 * (off + i) + 2, &b);
    }
    s
}

/// The magnitude order of float bits of `bits` width (sign bit cleared).
fn magnitude(bits: u64, width: u32) -> u64 {
    bits & ((1u64 << (width - 1)) - 1)
}

#[test]
fn narrowing_conversions_carry_the_round_toward_zero_result() {
    let mut seen = 0;
    for p in [Platform::Bdw, Platform::Skl, Platform::Bxt] {
        let vs = mov_vectors(p, &[DataType::F, DataType::HF, DataType::DF], 3000);
        for v in &vs {
            for a in v.alternatives.iter().filter(|a| a.kind == AltKind::Value) {
                let rows = [
                    "conv.float-narrow.f-hf",
                    "conv.float-narrow.df-hf-nodirect",
                    "conv.float-narrow.df-f",
                ];
                assert!(rows.contains(&a.rule.as_str()), "{}: {}", v.id, a.rule);
                let (width, max_finite) = match a.ty.as_str() {
                    "hf" => (16, 0x7bffu64),
                    "f" => (32, 0x7f7f_ffff),
                    t => panic!("{}: type {t}", v.id),
                };
                let len = width as usize / 8;
                let exp = elem(&v.expected[&a.reg], a.offset as usize, len);
                let bits = a.bits.as_deref().unwrap();
                let alt = u64::from_str_radix(bits.trim_start_matches("0x"), 16).unwrap();
                // Round toward zero gives the same sign and the next magnitude toward zero of
                // the cr0 (here: nearest-even, up or down) result; an overflow to infinity
                // becomes the largest finite value.
                let sign = 1u64 << (width - 1);
                assert_eq!(exp & sign, alt & sign, "{}: sign", v.id);
                let (me, ma) = (magnitude(exp, width), magnitude(alt, width));
                let inf = max_finite + 1;
                assert!(
                    ma + 1 == me || (me == inf && ma == max_finite),
                    "{}: {} expected {exp:#x}, toward zero {alt:#x}",
                    v.id,
                    v.insn
                );
                seen += 1;
                // The checker accepts either answer, and nothing else.
                let pass = |fin_bits: u64| {
                    let mut fin = v.expected.clone();
                    let r = fin.get_mut(&a.reg).unwrap();
                    *r = with_elem(r, a.offset as usize, len, fin_bits);
                    let resp = Response {
                        id: v.id.clone(),
                        fin,
                        inexact: Default::default(),
                        error: None,
                        unmodelled: Vec::new(),
                        ignored: Vec::new(),
                    };
                    matches!(compare(v, &resp), Outcome::Pass)
                };
                assert!(pass(exp), "{}", v.id);
                assert!(pass(alt), "{}", v.id);
                assert!(!pass(alt ^ 2), "{}", v.id);
            }
        }
    }
    assert!(seen > 10, "{seen} disputed elements");
}

/// Where the sources agree (conversions that do not narrow a float, cr0 set to round toward
/// zero) no `value` alternative appears.
#[test]
fn agreed_conversions_carry_no_value_alternative() {
    let vs = mov_vectors(Platform::Skl, &[DataType::D, DataType::F], 800);
    for v in &vs {
        let rtz = v.classes.iter().any(|c| c == "round:rtz");
        for a in &v.alternatives {
            let disputed = a.kind == AltKind::Value;
            assert!(
                !(disputed && (rtz || a.rule.starts_with("conv.int"))),
                "{}",
                v.id
            );
        }
    }
}
