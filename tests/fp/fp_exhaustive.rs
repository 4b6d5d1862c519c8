//! Exhaustive tests against the oracles (feature `oracles`).
//!
//! * All 65,536 HF encodings: HF->F, HF->DF, F->HF and DF->HF of every
//!   HF-representable value, HF add and mul with a set of fixed operands,
//!   HF sqrt and round-to-integral, in every rounding mode, against MPFR and
//!   SoftFloat. Runs by default (a few seconds).
//! * Opt-in (`#[ignore]`): every one of the 2^32 F encodings through each
//!   unary operation of the core, against MPFR: sqrt and round_to_integral
//!   (each rounding mode, value and flags), F->HF (each rounding mode,
//!   value and flags), F->i64 / F->u64 (each rounding mode), and the
//!   F->DF->F round trip. Run it with
//!
//!   ```text
//!   cargo test --release --features oracles --test fp -- fp_exhaustive:: --ignored
//!   ```
//!
//!   (the test profile is optimised; about 4 CPU-hours, measured at ~300 k
//!   encodings per CPU-second). Two
//!   environment variables select a slice (see [`selection`]):
//!   `FP_EXHAUSTIVE_RANGE=lo:hi` (hex, half-open) and
//!   `FP_EXHAUSTIVE_STEP=n` (every n-th encoding from `lo`), e.g.
//!   `FP_EXHAUSTIVE_STEP=997` checks about 4.3 M encodings spread over every
//!   binade in a few minutes. The math functions' exhaustive runs are in
//!   `tests/math/math_oracle.rs` and take the same variables.
#![cfg(feature = "oracles")]

use crate::fp_support;

use euref::fp::{self, Flags, Format, FpResult, Hf, Round, F32, F64};
use fp_support::{fl, mpfr, sf};
use std::sync::atomic::{AtomicU64, Ordering as AO};

/// Run `f` over `lo..hi` on all cores; return the first failure messages.
fn par_range(lo: u64, hi: u64, f: impl Fn(u64) -> Result<(), String> + Sync) -> Vec<String> {
    par_range_step(lo, hi, 1, f)
}

/// Run `f` over `lo, lo + step, ...` below `hi` on all cores; return the first failure
/// messages (at most 20).
fn par_range_step(
    lo: u64,
    hi: u64,
    step: u64,
    f: impl Fn(u64) -> Result<(), String> + Sync,
) -> Vec<String> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) as u64;
    let count = hi.saturating_sub(lo).div_ceil(step);
    let chunk = count.div_ceil(threads).max(1);
    let fails = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for t in 0..threads {
            let (f, fails) = (&f, &fails);
            s.spawn(move || {
                let start = t * chunk;
                let end = (start + chunk).min(count);
                for i in start..end {
                    if let Err(e) = f(lo + i * step) {
                        let mut v = fails.lock().unwrap();
                        if v.len() < 20 {
                            v.push(e);
                        }
                    }
                }
            });
        }
    });
    fails.into_inner().unwrap()
}

fn cmp2<F: Format>(
    what: &str,
    ours: FpResult,
    m: (u64, Flags),
    s: Option<(u64, Flags)>,
) -> Result<(), String> {
    if (ours.bits, ours.flags) != m {
        return Err(format!(
            "{what}: ours {:#x} [{}] vs MPFR {:#x} [{}]",
            ours.bits,
            fl(ours.flags),
            m.0,
            fl(m.1)
        ));
    }
    if let Some(s) = s {
        if !sf::same::<F>(ours.bits, s.0) || sf::ieee5(ours.flags) != s.1 {
            return Err(format!(
                "{what}: ours {:#x} [{}] vs SoftFloat {:#x} [{}]",
                ours.bits,
                fl(ours.flags),
                s.0,
                fl(s.1)
            ));
        }
    }
    Ok(())
}

#[test]
fn hf_all_conversions() {
    let fails = par_range(0, 1 << 16, |x| {
        for rm in Round::ALL {
            let w = fp::convert::<Hf, F32>(x, rm);
            cmp2::<F32>(
                &format!("hf->f {x:#x} {rm:?}"),
                w,
                mpfr::convert::<Hf, F32>(x, rm),
                Some(sf::convert::<Hf, F32>(x, rm)),
            )?;
            let d = fp::convert::<Hf, F64>(x, rm);
            cmp2::<F64>(
                &format!("hf->df {x:#x} {rm:?}"),
                d,
                mpfr::convert::<Hf, F64>(x, rm),
                Some(sf::convert::<Hf, F64>(x, rm)),
            )?;
            // back from the HF-representable F / DF value
            let b = fp::convert::<F32, Hf>(w.bits, rm);
            cmp2::<Hf>(
                &format!("f->hf {:#x} {rm:?}", w.bits),
                b,
                mpfr::convert::<F32, Hf>(w.bits, rm),
                Some(sf::convert::<F32, Hf>(w.bits, rm)),
            )?;
            let b2 = fp::convert::<F64, Hf>(d.bits, rm);
            cmp2::<Hf>(
                &format!("df->hf {:#x} {rm:?}", d.bits),
                b2,
                mpfr::convert::<F64, Hf>(d.bits, rm),
                Some(sf::convert::<F64, Hf>(d.bits, rm)),
            )?;
            if !fp::is_nan::<Hf>(x)
                && (b.bits != x
                    || !b
                        .flags
                        .without(Flags::TINY_BEFORE | Flags::TINY_AFTER)
                        .is_empty())
            {
                return Err(format!("hf->f->hf round trip {x:#x} {rm:?}: {:#x}", b.bits));
            }
        }
        Ok(())
    });
    assert!(fails.is_empty(), "{fails:#?}");
}

#[test]
fn hf_all_add_mul_fixed_operands() {
    let ops: [u64; 16] = [
        0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x1000, 0x3555, 0x7BFF,
        0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0x7D00,
    ];
    let fails = par_range(0, 1 << 16, |x| {
        for &y in &ops {
            for rm in Round::ALL {
                cmp2::<Hf>(
                    &format!("add {x:#x} {y:#x} {rm:?}"),
                    fp::add::<Hf>(x, y, rm),
                    mpfr::add::<Hf>(x, y, rm),
                    Some(sf::add::<Hf>(x, y, rm)),
                )?;
                cmp2::<Hf>(
                    &format!("mul {x:#x} {y:#x} {rm:?}"),
                    fp::mul::<Hf>(x, y, rm),
                    mpfr::mul::<Hf>(x, y, rm),
                    Some(sf::mul::<Hf>(x, y, rm)),
                )?;
            }
        }
        Ok(())
    });
    assert!(fails.is_empty(), "{fails:#?}");
}

#[test]
fn hf_all_unary() {
    let fails = par_range(0, 1 << 16, |x| {
        for rm in Round::ALL {
            cmp2::<Hf>(
                &format!("sqrt {x:#x} {rm:?}"),
                fp::sqrt::<Hf>(x, rm),
                mpfr::sqrt::<Hf>(x, rm),
                Some(sf::sqrt::<Hf>(x, rm)),
            )?;
            let ours = fp::round_to_integral::<Hf>(x, rm);
            cmp2::<Hf>(
                &format!("rint {x:#x} {rm:?}"),
                ours,
                mpfr::round_to_integral::<Hf>(x, rm),
                None,
            )?;
            let s = sf::round_to_integral::<Hf>(x, rm);
            if !sf::same::<Hf>(ours.bits, s.0) || ours.flags.invalid() != s.1.invalid() {
                return Err(format!("rint {x:#x} {rm:?} vs SoftFloat {:#x}", s.0));
            }
            if fp::to_i64::<Hf>(x, rm) != mpfr::to_i64::<Hf>(x, rm) {
                return Err(format!("to_i64 {x:#x} {rm:?}"));
            }
        }
        Ok(())
    });
    assert!(fails.is_empty(), "{fails:#?}");
}

/// Every F encoding through each unary operation against MPFR. Opt-in; see the module doc
/// for the command and the slice variables.
#[test]
#[ignore = "2^32 inputs, about 4 CPU-hours: cargo test --release --features oracles --test fp -- fp_exhaustive:: --ignored (FP_EXHAUSTIVE_RANGE / FP_EXHAUSTIVE_STEP select a slice)"]
fn f32_all_unary_ops() {
    use rug::ops::AssignRound;
    use rug::{Assign, Float};
    use std::cmp::Ordering;

    let (lo, hi, step) = fp_support::exhaustive_selection();
    let total = hi.saturating_sub(lo).div_ceil(step);
    let done = AtomicU64::new(0);
    let t0 = std::time::Instant::now();
    thread_local! {
        static FLOATS: std::cell::RefCell<(Float, Float, Float)> =
            std::cell::RefCell::new((Float::new(24), Float::new(24), Float::new(53)));
    }
    let fails = par_range_step(lo, hi, step, |x| {
        let n = done.fetch_add(1, AO::Relaxed) + 1;
        if n % (1 << 24) == 0 {
            eprintln!("  {n}/{total} encodings ({:.0?})", t0.elapsed());
        }
        // F -> HF, each mode, value and all flags (the canonical NaN, invalid for sNaN), and
        // F -> i64 / u64, each mode: every input class, NaN included.
        for rm in Round::ALL {
            let ours = fp::convert::<F32, Hf>(x, rm);
            cmp2::<Hf>(
                &format!("f->hf {x:#x} {rm:?}"),
                ours,
                mpfr::convert::<F32, Hf>(x, rm),
                None,
            )?;
            if fp::to_i64::<F32>(x, rm) != mpfr::to_i64::<F32>(x, rm) {
                return Err(format!("to_i64 {x:#x} {rm:?}"));
            }
            if fp::to_u64::<F32>(x, rm) != mpfr::to_u64::<F32>(x, rm) {
                return Err(format!("to_u64 {x:#x} {rm:?}"));
            }
        }
        let snan = fp::is_snan::<F32>(x);
        if fp::is_nan::<F32>(x) {
            let nan = FpResult::new(
                F32::CANONICAL_NAN,
                if snan { Flags::INVALID } else { Flags::NONE },
            );
            for rm in Round::ALL {
                if fp::sqrt::<F32>(x, rm) != nan || fp::round_to_integral::<F32>(x, rm) != nan {
                    return Err(format!("NaN {x:#x}"));
                }
            }
            let d = fp::convert::<F32, F64>(x, Round::Rtne);
            if d != FpResult::new(F64::CANONICAL_NAN, nan.flags) {
                return Err(format!("NaN f->df {x:#x}"));
            }
            return Ok(());
        }
        FLOATS.with(|cell| {
            let (xf, r, r53) = &mut *cell.borrow_mut();
            xf.assign(f32::from_bits(x as u32));
            for rm in Round::ALL {
                // sqrt: results of finite inputs are never tiny nor overflow
                let ours = fp::sqrt::<F32>(x, rm);
                let ord = r.assign_round(xf.sqrt_ref(), mpfr::mr(rm));
                let want = if r.is_nan() {
                    FpResult::new(F32::CANONICAL_NAN, Flags::INVALID)
                } else {
                    FpResult::new(
                        r.to_f32().to_bits() as u64,
                        if ord == Ordering::Equal {
                            Flags::NONE
                        } else {
                            Flags::INEXACT
                        },
                    )
                };
                if ours != want {
                    return Err(format!(
                        "sqrt {x:#x} {rm:?}: ours {:#x} [{}] vs MPFR {:#x} [{}]",
                        ours.bits,
                        fl(ours.flags),
                        want.bits,
                        fl(want.flags)
                    ));
                }
                // round to integral
                let ours = fp::round_to_integral::<F32>(x, rm);
                match rm {
                    Round::Rtne => r.assign(xf.round_even_ref()),
                    Round::Ru => r.assign(xf.ceil_ref()),
                    Round::Rd => r.assign(xf.floor_ref()),
                    Round::Rtz => r.assign(xf.trunc_ref()),
                }
                let want = FpResult::new(
                    r.to_f32().to_bits() as u64,
                    if *r == *xf {
                        Flags::NONE
                    } else {
                        Flags::INEXACT
                    },
                );
                if ours != want {
                    return Err(format!(
                        "rint {x:#x} {rm:?}: ours {:#x} [{}] vs MPFR {:#x} [{}]",
                        ours.bits,
                        fl(ours.flags),
                        want.bits,
                        fl(want.flags)
                    ));
                }
            }
            // F -> DF (exact) -> F (exact in every mode)
            r53.assign(&*xf);
            let want_d = r53.to_f64().to_bits();
            let d = fp::convert::<F32, F64>(x, Round::Rtne);
            if d != FpResult::exact(want_d) {
                return Err(format!(
                    "f->df {x:#x}: ours {:#x} vs MPFR {want_d:#x}",
                    d.bits
                ));
            }
            for rm in Round::ALL {
                let back = fp::convert::<F64, F32>(d.bits, rm);
                let tiny = if fp::is_denormal::<F32>(x) {
                    Flags::TINY_BEFORE | Flags::TINY_AFTER
                } else {
                    Flags::NONE
                };
                if back != FpResult::new(x, tiny) {
                    return Err(format!(
                        "df->f {:#x} {rm:?}: {:#x} [{}]",
                        d.bits,
                        back.bits,
                        fl(back.flags)
                    ));
                }
            }
            Ok(())
        })
    });
    eprintln!(
        "checked {} encodings of {lo:#x}..{hi:#x} (step {step}) in {:.1?}",
        done.load(AO::Relaxed),
        t0.elapsed()
    );
    assert_eq!(done.load(AO::Relaxed), total);
    assert!(fails.is_empty(), "{fails:#?}");
}
