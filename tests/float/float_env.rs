//! euref::float: the float environment read from cr0.0 through the generated field constants,
//! the policy decisions the float_modes rows give per platform, type and operation class, and
//! the applied-rule set.

use euref::float::{self, Applied, FloatEnv, FloatType, Policy};
use euref::fp::Round;
use euref::spec::float_modes::RULES;
use euref::spec::registers::field;
use euref::spec::{FpOps, Platform};

use FloatType::{Df, Hf, F};
use Platform::*;

const ALL_P: [Platform; 6] = [Ivb, Hsw, Bdw, Chv, Skl, Bxt];

#[test]
fn env_from_cr0_fields() {
    // cr0.0 = RTZ (11b in bits 5:4), ALT (bit 0), DF keep (bit 6), F keep (bit 7), HF keep
    // (bit 10): every value built through the field constants, never a literal bit number.
    let mut cr0 = field::CR0_0_ROUNDING_MODE.set(0, 3);
    cr0 = field::CR0_0_FP_MODE.set(cr0, 1);
    cr0 = field::CR0_0_DF_DENORM_MODE.set(cr0, 1);
    cr0 = field::CR0_0_FP32_DENORM_MODE.set(cr0, 1);
    cr0 = field::CR0_0_FP16_DENORM_MODE.set(cr0, 1);
    assert_eq!(cr0, 0x4F1, "field layout of spec/registers.toml");
    for p in ALL_P {
        let e = FloatEnv::from_cr0(p, cr0);
        assert_eq!(e.rounding, Round::Rtz);
        assert!(e.alt);
        assert!(e.denorm_bit(field::CR0_0_DF_DENORM_MODE.lo));
        // Bit 7 is reserved on Gen7 (field.cr0.0.reserved-7) and bit 10 before Gen9
        // (field.cr0.0.reserved-10): ignored there.
        assert_eq!(
            e.denorm_bit(field::CR0_0_FP32_DENORM_MODE.lo),
            field::CR0_0_FP32_DENORM_MODE.gens.contains(p)
        );
        assert_eq!(
            e.denorm_bit(field::CR0_0_FP16_DENORM_MODE.lo),
            field::CR0_0_FP16_DENORM_MODE.gens.contains(p)
        );
        assert_eq!(
            FloatEnv::from_cr0(p, e.cr0()),
            e,
            "cr0() round trip on {p:?}"
        );
    }
    assert_eq!(FloatEnv::from_cr0(Ivb, cr0).cr0(), 0x71);
    assert_eq!(FloatEnv::from_cr0(Bdw, cr0).cr0(), 0xF1);
    assert_eq!(FloatEnv::from_cr0(Skl, cr0).cr0(), 0x4F1);
    for (v, r) in [
        (0, Round::Rtne),
        (1, Round::Ru),
        (2, Round::Rd),
        (3, Round::Rtz),
    ] {
        let e = FloatEnv::from_cr0(Skl, field::CR0_0_ROUNDING_MODE.set(0, v));
        assert_eq!(e.rounding, r);
        assert!(!e.alt);
    }
    // Thread-dispatch default: RTNE, IEEE, denorm bits clear.
    let d = FloatEnv::new(Bdw);
    assert_eq!((d.rounding, d.alt, d.denorm_bits), (Round::Rtne, false, 0));
    let k = d.with_denorms(true);
    assert_eq!(k.denorm_bits, 0xC0);
    let k = k.with_denorm_field(&field::CR0_0_DF_DENORM_MODE, false);
    assert_eq!(k.denorm_bits, 0x80);
    // A field the platform lacks is ignored.
    let k = k.with_denorm_field(&field::CR0_0_FP16_DENORM_MODE, true);
    assert_eq!(k.denorm_bits, 0x80);
    // A field that is not a denorm mode is ignored.
    let k = k.with_denorm_field(&field::CR0_0_ROUNDING_MODE, true);
    assert_eq!(k.denorm_bits, 0x80);
}

/// The denormal decision per platform, type and class, with the deciding row: the float_modes
/// rows fp.ieee.denorm.* as read by the engine.
#[test]
fn policy_denorm_decisions() {
    let ops = [FpOps::Arith, FpOps::Fused, FpOps::Compare, FpOps::Minmax];
    for p in ALL_P {
        for keep in [false, true] {
            let e = FloatEnv::new(p).with_denorms(keep);
            for o in ops {
                let f = Policy::new(&e, F, o);
                let d = Policy::new(&e, Df, o);
                let h = Policy::new(&e, Hf, o);
                let gen7 = matches!(p, Ivb | Hsw);
                let gen8 = matches!(p, Bdw | Chv);
                // F: always flushed on Gen7, per bit 7 on Gen8+.
                assert_eq!(f.flushes_denormals(), gen7 || !keep, "{p:?} F {o:?}");
                assert_eq!(
                    f.denorm_rule(),
                    Some(if gen7 {
                        "fp.ieee.denorm.f.gen7"
                    } else {
                        "fp.ieee.denorm.f"
                    })
                );
                // DF: bit 6 everywhere.
                assert_eq!(d.flushes_denormals(), !keep);
                assert_eq!(d.denorm_rule(), Some("fp.ieee.denorm.df"));
                // HF: Gen8 always flushes, Gen9 per bit 10, Gen7 has no HF row (no HF type).
                if gen8 {
                    assert!(h.flushes_denormals());
                    assert_eq!(h.denorm_rule(), Some("fp.ieee.denorm.hf.gen8"));
                } else if !gen7 {
                    assert_eq!(h.flushes_denormals(), !keep);
                    assert_eq!(h.denorm_rule(), Some("fp.ieee.denorm.hf"));
                } else {
                    assert_eq!(h.denorm_rule(), None);
                }
            }
            // Extended math keeps HF denormals on Gen9 whatever bit 10 says.
            if matches!(p, Skl | Bxt) {
                let m = Policy::new(&e, Hf, FpOps::Math);
                assert!(!m.flushes_denormals());
                assert_eq!(m.denorm_rule(), Some("fp.ieee.denorm.hf-math.gen9"));
            }
            // Conversions and raw movs keep, for every type.
            for t in FloatType::ALL {
                assert!(!Policy::new(&e, t, FpOps::Conversion).flushes_denormals());
                assert!(!Policy::new(&e, t, FpOps::RawMov).flushes_denormals());
            }
        }
    }
}

#[test]
fn policy_rounding_and_alt() {
    for p in ALL_P {
        let e = FloatEnv::new(p).with_rounding(Round::Rd);
        assert_eq!(Policy::new(&e, F, FpOps::Arith).rounding(), Round::Rd);
        assert_eq!(Policy::new(&e, Df, FpOps::Fused).rounding(), Round::Rd);
        // fp.round.math-model: extended math is RTNE whatever cr0 says.
        assert_eq!(Policy::new(&e, F, FpOps::Math).rounding(), Round::Rtne);
        // ALT governs F only (fp.mode.cr0-select, fp.alt.f-only).
        let a = e.with_alt(true);
        assert!(Policy::new(&a, F, FpOps::Arith).alt());
        assert!(!Policy::new(&a, Df, FpOps::Arith).alt());
        assert!(!Policy::new(&a, Hf, FpOps::Arith).alt());
        assert!(!Policy::new(&e, F, FpOps::Arith).alt());
        // ALT flushes F denormals on every platform (fp.alt.result-denorm-to-zero), even with
        // the Gen8+ F denorm bit set.
        let ak = a.with_denorms(true);
        assert!(Policy::new(&ak, F, FpOps::Arith).flushes_denormals());
        assert_eq!(Policy::new(&ak, F, FpOps::Arith).ty(), F);
        assert_eq!(Policy::new(&ak, F, FpOps::Fused).ops(), FpOps::Fused);
    }
}

#[test]
fn applied_set() {
    assert!(RULES.len() <= 128, "Applied holds at most 128 rows");
    let mut a = Applied::NONE;
    assert!(a.is_empty());
    a.add_id("fp.tininess");
    a.add_id("fp.ieee.denorm.df");
    a.add_id("no.such.row");
    assert_eq!(a.len(), 2);
    assert!(a.contains("fp.tininess") && a.contains("fp.ieee.denorm.df"));
    assert!(!a.contains("fp.ieee.denorm.f"));
    // Table order.
    let ids: Vec<&str> = a.ids().collect();
    assert_eq!(ids, ["fp.ieee.denorm.df", "fp.tininess"]);
    assert_eq!(format!("{a:?}"), "{\"fp.ieee.denorm.df\", \"fp.tininess\"}");
    let b = Applied::NONE.union(a);
    assert_eq!(b, a);
    assert_eq!(a.rows().count(), 2);
    // What an operation reports: an F add of two denormals on ivb (flushed).
    let out = float::add(&FloatEnv::new(Ivb), F, 1, 1);
    assert_eq!(out.bits, 0);
    assert_eq!(
        out.rules.ids().collect::<Vec<_>>(),
        ["fp.ieee.denorm.f.gen7"]
    );
}
