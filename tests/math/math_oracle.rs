//! Correct rounding of the math functions (spec/math.toml: math.inv.f, math.log.f,
//! math.exp.f, math.sqrt.f, math.rsq.f, math.sin.f, math.cos.f, math.fdiv.f, math.pow.f and
//! their HF rows math.inv.hf, math.log.hf, math.exp.hf, math.sqrt.hf, math.rsq.hf,
//! math.sin.hf, math.cos.hf, math.fdiv.hf, math.pow.hf) against MPFR through rug: the model's
//! value must be the correctly rounded (RTNE) result, bit for bit, including denormal
//! results (Skylake with the denorm-mode bits set, so nothing is flushed).
//!
//! Only with the `oracles` feature (rug needs m4): `scripts/test.sh`, or
//! `cargo test --features oracles --test math -- math_oracle::`.
//!
//! The exhaustive run over every F input of INV, SQRT, RSQ, LOG, EXP, SIN and COS is opt-in
//! (about 2^32 MPFR calls per function; it uses every core):
//!
//! ```text
//! cargo test --release --features oracles --test math -- --ignored math_oracle::exhaustive
//! ```
//!
//! `FP_EXHAUSTIVE_RANGE=lo:hi` (hex, half-open) and `FP_EXHAUSTIVE_STEP=n` (every n-th input)
//! select a slice, e.g. `FP_EXHAUSTIVE_STEP=4099` for about a million inputs per function.

#![cfg(feature = "oracles")]

use crate::fp_support;

use euref::float::FloatEnv;
use euref::fp::{self, Hf, Round, F64};
use euref::math::{accurate_path_f32, eval, MathFn};
use euref::spec::{DataType, Platform};
use rug::float::Round as RRound;
use rug::ops::Pow;
use rug::Float;
use std::cmp::Ordering;

/// cr0.0 with the F (bit 7) and HF (bit 10) denorm-mode bits: no flushing on Skylake.
const KEEP_ALL: u32 = (1 << 7) | (1 << 10);

fn env() -> FloatEnv {
    FloatEnv::from_cr0(Platform::Skl, KEEP_ALL)
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn u32(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }
    fn below(&mut self, n: u32) -> u32 {
        (self.next() % n as u64) as u32
    }
    /// F bits biased to edge classes: specials, denormals, extremes, near 1, random.
    fn f32_edgy(&mut self) -> u32 {
        let sign = self.u32() & 0x8000_0000;
        match self.below(10) {
            0 => sign | self.below(0x80_0000),          // denormal or zero
            1 => sign | (0x7f7f_ffff - self.below(64)), // near fmax
            2 => sign | (0x0080_0000 + self.below(64)), // near the smallest normal
            3 => sign | (0x3f80_0000 + self.below(256) - 128), // near 1
            4 => [0, 0x7f80_0000, 0x7fc0_0000, 0x7f80_0001][self.below(4) as usize] | sign,
            _ => self.u32(),
        }
    }
}

/// The F value of an MPFR result at precision 24, correctly rounded including the denormal
/// range; `dir` is the ternary value of the computation at precision 24.
fn f32_of(mut f: Float, dir: Ordering) -> u32 {
    f.subnormalize_ieee_round(dir, RRound::Nearest);
    f.to_f32().to_bits()
}

/// The HF value of an MPFR result at precision 11.
fn hf_of(mut f: Float, dir: Ordering) -> u16 {
    f.subnormalize_ieee_round(dir, RRound::Nearest);
    let d = f.to_f64().to_bits(); // exact: 11 bits
    fp::convert::<F64, Hf>(d, Round::Rtne).bits as u16
}

fn val32(a: u32) -> Float {
    Float::with_val(24, f32::from_bits(a))
}

fn val16(a: u16) -> Float {
    let d = fp::convert::<Hf, F64>(a as u64, Round::Rtne).bits;
    Float::with_val(11, f64::from_bits(d))
}

/// MPFR's correctly rounded result at precision `prec` (24 or 11) of `f`.
fn mpfr(f: MathFn, prec: u32, x: &Float, y: &Float) -> (Float, Ordering) {
    match f {
        MathFn::Inv => Float::with_val_round(prec, x.recip_ref(), RRound::Nearest),
        MathFn::Sqrt => Float::with_val_round(prec, x.sqrt_ref(), RRound::Nearest),
        MathFn::Rsq => Float::with_val_round(prec, x.recip_sqrt_ref(), RRound::Nearest),
        MathFn::Log => Float::with_val_round(prec, x.log2_ref(), RRound::Nearest),
        MathFn::Exp => Float::with_val_round(prec, x.exp2_ref(), RRound::Nearest),
        MathFn::Sin => Float::with_val_round(prec, x.sin_ref(), RRound::Nearest),
        MathFn::Cos => Float::with_val_round(prec, x.cos_ref(), RRound::Nearest),
        MathFn::Fdiv => Float::with_val_round(prec, x / y, RRound::Nearest),
        MathFn::Pow => Float::with_val_round(prec, x.pow(y), RRound::Nearest),
        _ => unreachable!(),
    }
}

/// Compare the model with MPFR for F operands where the model computes a value (no special
/// row applied). Returns the number of computed (non-special) cases.
fn check_f32(f: MathFn, a: u32, b: u32) -> bool {
    let r = eval(f, DataType::F, a as u64, b as u64, &env()).unwrap();
    if r.special_rule.is_some() {
        return false;
    }
    let (m, dir) = mpfr(f, 24, &val32(a), &val32(b));
    let want = f32_of(m, dir);
    if f32::from_bits(want).is_nan() {
        assert!(
            r.any_nan_allowed,
            "{f:?}({a:#010x}, {b:#010x}): MPFR NaN, model {:#x}",
            r.bits
        );
    } else {
        assert_eq!(r.bits as u32, want, "{f:?}({a:#010x}, {b:#010x})");
    }
    true
}

fn check_hf(f: MathFn, a: u16, b: u16) -> bool {
    let r = eval(f, DataType::HF, a as u64, b as u64, &env()).unwrap();
    if r.special_rule.is_some() {
        return false;
    }
    let (m, dir) = mpfr(f, 11, &val16(a), &val16(b));
    let want = hf_of(m, dir);
    if want & 0x7fff > 0x7c00 {
        assert!(r.any_nan_allowed, "{f:?}({a:#06x}, {b:#06x})");
    } else {
        assert_eq!(r.bits as u16, want, "{f:?}({a:#06x}, {b:#06x})");
    }
    true
}

const UNARY: [MathFn; 7] = [
    MathFn::Inv,
    MathFn::Sqrt,
    MathFn::Rsq,
    MathFn::Log,
    MathFn::Exp,
    MathFn::Sin,
    MathFn::Cos,
];

#[test]
fn unary_f32_random_and_edges() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for f in UNARY {
        let mut computed = 0;
        for _ in 0..60_000 {
            computed += check_f32(f, rng.f32_edgy(), 0) as u32;
        }
        assert!(computed > 20_000, "{f:?}: only {computed} computed cases");
    }
}

#[test]
fn sin_cos_wide_range_and_large_arguments() {
    let mut rng = Rng(7);
    for f in [MathFn::Sin, MathFn::Cos] {
        // Every binade from 2^-30 to 2^127, both signs.
        for e in 97u32..=254 {
            for _ in 0..400 {
                let a = (rng.u32() & 0x8000_0000) | (e << 23) | (rng.u32() & 0x7f_ffff);
                assert!(check_f32(f, a, 0));
            }
        }
        // Near multiples of pi/2 (k up to 2^20), where the reduced argument is tiny.
        for k in (1u32..1 << 20).step_by(997) {
            let x = k as f64 * std::f64::consts::FRAC_PI_2;
            let c = (x as f32).to_bits();
            for d in 0..3 {
                check_f32(f, c.wrapping_add(d).wrapping_sub(1), 0);
            }
        }
        // Large arguments, up to the largest finite value.
        check_f32(f, 0x5ef5_0fbd, 0);
        check_f32(f, 0x7f7f_ffff, 0);
        check_f32(f, 0xff7f_ffff, 0);
    }
}

#[test]
fn log_near_one_exp_near_overflow_and_underflow() {
    // log2 of 1 +- k ulp.
    for k in 1..20_000u32 {
        assert!(check_f32(MathFn::Log, 0x3f80_0000 + k, 0));
        assert!(check_f32(MathFn::Log, 0x3f80_0000 - k, 0));
    }
    // exp2 around 128 (overflow), -126 (denormal results) and -150 (underflow to zero).
    for (lo, hi) in [(126.0f32, 128.5f32), (-127.0, -125.0), (-151.0, -148.0)] {
        let (a, b) = (lo.to_bits(), hi.to_bits());
        let (a, b) = if lo < 0.0 { (b, a) } else { (a, b) };
        for x in (a..=b).step_by(97) {
            assert!(check_f32(MathFn::Exp, x, 0));
        }
    }
}

#[test]
fn inv_rsq_sqrt_of_denormals() {
    let mut rng = Rng(99);
    for _ in 0..50_000 {
        let a = rng.below(0x80_0000).max(1);
        for f in [
            MathFn::Inv,
            MathFn::Rsq,
            MathFn::Sqrt,
            MathFn::Log,
            MathFn::Exp,
        ] {
            assert!(check_f32(f, a, 0));
        }
        assert!(check_f32(MathFn::Inv, a | 0x8000_0000, 0));
    }
}

#[test]
fn fdiv_random() {
    let mut rng = Rng(5);
    for _ in 0..100_000 {
        check_f32(MathFn::Fdiv, rng.f32_edgy(), rng.f32_edgy());
    }
}

#[test]
fn pow_integer_and_non_integer_exponents() {
    let mut rng = Rng(11);
    let mut computed = 0;
    for _ in 0..60_000 {
        let x = rng.f32_edgy() & 0x7fff_ffff;
        let y = match rng.below(4) {
            0 => (rng.below(81) as f32 - 40.0).to_bits(), // small integer
            1 => ((rng.below(161) as f32 - 80.0) * 0.25).to_bits(), // quarters
            2 => rng.f32_edgy(),
            _ => (f32::from_bits(rng.u32() & 0x3fff_ffff) * 8.0).to_bits(),
        };
        if f32::from_bits(x).is_finite() && f32::from_bits(y).is_finite() && x != 0 {
            computed += check_f32(MathFn::Pow, x, y) as u32;
        }
    }
    assert!(computed > 40_000);
    // Exact and halfway results: odd bases squared, cubed; perfect powers with fractional
    // exponents.
    for m in (1u32..8192).step_by(2) {
        for y in [2.0f32, 3.0, -1.0, -2.0, 0.5, 1.5, 0.25, 0.75] {
            let x = (m as f32).to_bits();
            let x2 = ((m * m) as f32).to_bits();
            check_f32(MathFn::Pow, x, y.to_bits());
            check_f32(MathFn::Pow, x2, y.to_bits());
        }
    }
    for k in -40i32..40 {
        for y in [0.5f32, -0.5, 0.25, 1.0 / 3.0, 7.0, -7.0] {
            check_f32(MathFn::Pow, (2.0f32).powi(k).to_bits(), y.to_bits());
        }
    }
}

#[test]
fn accurate_path_alone_is_correctly_rounded() {
    // The multi-precision path, without the binary64 fast path in front of it.
    let mut rng = Rng(31337);
    for _ in 0..20_000 {
        let a = rng.f32_edgy();
        for f in [MathFn::Log, MathFn::Exp, MathFn::Sin, MathFn::Cos] {
            let Some(got) = accurate_path_f32(f, a, 0) else {
                continue;
            };
            let r = eval(f, DataType::F, a as u64, 0, &env()).unwrap();
            if r.special_rule.is_some() {
                continue;
            }
            let (m, dir) = mpfr(f, 24, &val32(a), &val32(0));
            assert_eq!(got, f32_of(m, dir), "{f:?}({a:#010x}) accurate path");
        }
        let x = rng.f32_edgy() & 0x7fff_ffff;
        let y =
            (f32::from_bits(rng.u32() & 0x3fff_ffff) * 4.0).to_bits() | (rng.u32() & 0x8000_0000);
        if let Some(got) = accurate_path_f32(MathFn::Pow, x, y) {
            let (m, dir) = mpfr(MathFn::Pow, 24, &val32(x), &val32(y));
            assert_eq!(
                got,
                f32_of(m, dir),
                "pow({x:#010x}, {y:#010x}) accurate path"
            );
        }
    }
}

#[test]
fn hf_every_input_of_the_unary_functions() {
    for f in UNARY {
        for a in 0..=u16::MAX {
            check_hf(f, a, 0);
        }
    }
}

#[test]
fn hf_fdiv_pow_random() {
    let mut rng = Rng(77);
    for _ in 0..200_000 {
        let (a, b) = (rng.u32() as u16, rng.u32() as u16);
        check_hf(MathFn::Fdiv, a, b);
        let x = a & 0x7fff;
        if x != 0 && x < 0x7c00 && b & 0x7fff < 0x7c00 {
            check_hf(MathFn::Pow, x, b);
        }
    }
}

/// Every F input of `f` (or the slice `FP_EXHAUSTIVE_RANGE=lo:hi`, hex, half-open, and
/// `FP_EXHAUSTIVE_STEP=n`, every n-th input from lo) against MPFR, on every core. Returns
/// (inputs visited, inputs the model computed rather than taking a special row).
fn exhaustive(f: MathFn) -> (u64, u64) {
    let (lo, hi, step) = fp_support::exhaustive_selection();
    let count = hi.saturating_sub(lo).div_ceil(step);
    let threads = std::thread::available_parallelism().map_or(4, |n| n.get()) as u64;
    let span = count.div_ceil(threads).max(1);
    let computed = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|s| {
        for t in 0..threads {
            let computed = &computed;
            s.spawn(move || {
                let mut c = 0;
                for i in t * span..((t + 1) * span).min(count) {
                    c += check_f32(f, (lo + i * step) as u32, 0) as u64;
                }
                computed.fetch_add(c, std::sync::atomic::Ordering::Relaxed);
            });
        }
    });
    let computed = computed.into_inner();
    eprintln!("{f:?}: {count} inputs of {lo:#x}..{hi:#x} (step {step}), {computed} computed");
    (count, computed)
}

#[test]
#[ignore = "exhaustive: every F input, about 2^32 MPFR calls"]
fn exhaustive_inv() {
    let (n, c) = exhaustive(MathFn::Inv);
    assert!(c > n / 2);
}

#[test]
#[ignore = "exhaustive: every F input, about 2^32 MPFR calls"]
fn exhaustive_sqrt() {
    let (n, c) = exhaustive(MathFn::Sqrt);
    assert!(c > n / 4);
}

#[test]
#[ignore = "exhaustive: every F input, about 2^32 MPFR calls"]
fn exhaustive_rsq() {
    let (n, c) = exhaustive(MathFn::Rsq);
    assert!(c > n / 4);
}

#[test]
#[ignore = "exhaustive: every F input, about 2^32 MPFR calls"]
fn exhaustive_log() {
    let (n, c) = exhaustive(MathFn::Log);
    assert!(c > n / 4);
}

#[test]
#[ignore = "exhaustive: every F input, about 2^32 MPFR calls"]
fn exhaustive_exp() {
    let (n, c) = exhaustive(MathFn::Exp);
    assert!(c > n / 2);
}

#[test]
#[ignore = "exhaustive: every F input, about 2^32 MPFR calls (large arguments are slow in MPFR)"]
fn exhaustive_sin() {
    let (n, c) = exhaustive(MathFn::Sin);
    assert!(c > n / 2);
}

#[test]
#[ignore = "exhaustive: every F input, about 2^32 MPFR calls (large arguments are slow in MPFR)"]
fn exhaustive_cos() {
    let (n, c) = exhaustive(MathFn::Cos);
    assert!(c > n / 2);
}

/// Every input of the binades where the functions are hardest to round: LOG over [0.5, 2)
/// (results near 0), EXP over [1/2, 1) and (-1, -1/2], RSQ over [1, 4) (a full period of the
/// significand), SIN and COS over [2^20, 2^21) (large arguments). About 2^26 MPFR calls:
///
/// ```text
/// cargo test --features oracles --test math -- --ignored math_oracle::dense_binades
/// ```
#[test]
#[ignore = "dense: about 2^26 MPFR calls"]
fn dense_binades() {
    let ranges: [(MathFn, u32, u32); 6] = [
        (MathFn::Log, 0x3f00_0000, 0x4000_0000),
        (MathFn::Exp, 0x3f00_0000, 0x3f80_0000),
        (MathFn::Exp, 0xbf00_0000, 0xbf80_0000),
        (MathFn::Rsq, 0x3f80_0000, 0x4080_0000),
        (MathFn::Sin, 0x4980_0000, 0x4a00_0000),
        (MathFn::Cos, 0x4980_0000, 0x4a00_0000),
    ];
    let threads = std::thread::available_parallelism().map_or(4, |n| n.get()) as u32;
    for (f, lo, hi) in ranges {
        let span = (hi - lo).div_ceil(threads);
        std::thread::scope(|s| {
            for t in 0..threads {
                s.spawn(move || {
                    let a = lo + t * span;
                    for x in a..(a + span).min(hi) {
                        check_f32(f, x, 0);
                    }
                });
            }
        });
    }
}
