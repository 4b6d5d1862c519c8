//! Cross-check of conversions against Berkeley SoftFloat (softfloat-wrapper, 8086-SSE
//! specialisation: tininess after rounding), behind the `oracles` feature: the library entry
//! point `euref::float::convert` on a Gen9 platform (where every conversion that has an IEEE
//! counterpart rounds per cr0) and the `euref fp` subject fed the same random inputs.
//!
//! SoftFloat keeps its rounding mode and flags in global state, so everything runs in one test
//! function (one thread).
#![cfg(feature = "oracles")]

use euref::float::{self, FloatEnv};
use euref::fp::Round;
use euref::spec::{DataType, Platform};
use softfloat_wrapper::{ExceptionFlags, Float, RoundingMode, F16, F32, F64};
use std::io::Write;
use std::process::{Command, Stdio};

/// xorshift64*: deterministic random inputs.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Random bits of a float format of `bits` width, biased to small/large exponents.
    fn float(&mut self, bits: u32) -> u64 {
        let r = self.next();
        let m = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        match r % 8 {
            0 => r >> 8 & (m >> 4), // small exponents (denormals, tiny normals)
            1 => (r >> 8 & m) | (m >> 2 & !(m >> 5)), // large exponents
            _ => self.next() & m,
        }
    }
}

fn sf_round(r: Round) -> RoundingMode {
    match r {
        Round::Rtne => RoundingMode::TiesToEven,
        Round::Ru => RoundingMode::TowardPositive,
        Round::Rd => RoundingMode::TowardNegative,
        Round::Rtz => RoundingMode::TowardZero,
    }
}

/// TestFloat's flag byte from SoftFloat's flags.
fn tf_flags(f: ExceptionFlags) -> u8 {
    (f.is_inexact() as u8)
        | (f.is_underflow() as u8) << 1
        | (f.is_overflow() as u8) << 2
        | (f.is_infinite() as u8) << 3
        | (f.is_invalid() as u8) << 4
}

fn eu_flags(f: euref::fp::Flags) -> u8 {
    (f.inexact() as u8)
        | (f.underflow() as u8) << 1
        | (f.overflow() as u8) << 2
        | (f.div_by_zero() as u8) << 3
        | (f.invalid() as u8) << 4
}

/// Run SoftFloat's `op` with the flags cleared; return (result bits, flags).
fn sf<T>(op: impl FnOnce() -> T) -> (T, u8) {
    ExceptionFlags::default().set();
    let r = op();
    let mut f = ExceptionFlags::default();
    f.get();
    (r, tf_flags(f))
}

fn is_nan(t: DataType, b: u64) -> bool {
    match t {
        DataType::HF => b & 0x7C00 == 0x7C00 && b & 0x3FF != 0,
        DataType::F => b & 0x7F80_0000 == 0x7F80_0000 && b & 0x7F_FFFF != 0,
        _ => b & 0x7FF0_0000_0000_0000 == 0x7FF0_0000_0000_0000 && b & 0xF_FFFF_FFFF_FFFF != 0,
    }
}

/// SoftFloat's float -> float conversion.
fn sf_f2f(s: DataType, d: DataType, x: u64, rm: RoundingMode) -> u64 {
    match s {
        DataType::HF => {
            let a = F16::from_bits(x as u16);
            match d {
                DataType::F => a.to_f32(rm).to_bits() as u64,
                _ => a.to_f64(rm).to_bits(),
            }
        }
        DataType::F => {
            let a = F32::from_bits(x as u32);
            match d {
                DataType::HF => a.to_f16(rm).to_bits() as u64,
                _ => a.to_f64(rm).to_bits(),
            }
        }
        _ => {
            let a = F64::from_bits(x);
            match d {
                DataType::HF => a.to_f16(rm).to_bits() as u64,
                _ => a.to_f32(rm).to_bits() as u64,
            }
        }
    }
}

fn width(t: DataType) -> u32 {
    match t {
        DataType::HF => 16,
        DataType::F | DataType::D | DataType::UD => 32,
        _ => 64,
    }
}

/// Run `euref fp <function> --round <r>` on `inputs`; the result column of each line.
fn subject(function: &str, r: &str, inputs: &[u64], digits: usize) -> Vec<(u64, u8)> {
    subject_args(function, r, &[], inputs, digits)
}

/// `subject` with extra options (e.g. `--exact`).
fn subject_args(
    function: &str,
    r: &str,
    extra: &[&str],
    inputs: &[u64],
    digits: usize,
) -> Vec<(u64, u8)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_euref"))
        .args(["fp", function, "--round", r])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut text = String::new();
    for x in inputs {
        text.push_str(&format!("{x:0digits$X}\n"));
    }
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let cols: Vec<&str> = l.split(' ').collect();
            (
                u64::from_str_radix(cols[1], 16).unwrap(),
                u8::from_str_radix(cols[2], 16).unwrap(),
            )
        })
        .collect()
}

#[test]
fn conversions_agree_with_softfloat() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let floats = [DataType::HF, DataType::F, DataType::DF];
    let n = 20_000;
    for r in Round::ALL {
        let env = FloatEnv::new(Platform::Skl).with_rounding(r);
        let rm = sf_round(r);
        let rname = match r {
            Round::Rtne => "rtne",
            Round::Ru => "ru",
            Round::Rd => "rd",
            Round::Rtz => "rtz",
        };
        // Float -> float.
        for s in floats {
            for d in floats {
                if s == d {
                    continue;
                }
                let inputs: Vec<u64> = (0..n).map(|_| rng.float(width(s))).collect();
                let name = format!("{}_to_{}", tf(s), tf(d));
                let cli = subject(&name, rname, &inputs, width(s) as usize / 4);
                for (i, &x) in inputs.iter().enumerate() {
                    let (want, wf) = sf(|| sf_f2f(s, d, x, rm));
                    let got = float::convert(&env, s, d, x, false).unwrap();
                    if is_nan(d, want) {
                        assert!(is_nan(d, got.bits) && got.any_nan_allowed, "{name} {x:#X}");
                    } else {
                        assert_eq!(got.bits, want, "{name} {x:#X} {r:?}");
                    }
                    assert_eq!(eu_flags(got.flags), wf, "{name} {x:#X} {r:?} flags");
                    assert_eq!(cli[i], (got.bits, wf), "euref fp {name} {x:#X} {r:?}");
                }
            }
        }
        // Integer -> float.
        for (it, iname) in [
            (DataType::D, "i32"),
            (DataType::UD, "ui32"),
            (DataType::Q, "i64"),
            (DataType::UQ, "ui64"),
        ] {
            for d in floats {
                let inputs: Vec<u64> = (0..n)
                    .map(|_| {
                        let v = rng.next();
                        let v = v >> (v % 64); // all magnitudes
                        if width(it) == 32 {
                            v & 0xFFFF_FFFF
                        } else {
                            v
                        }
                    })
                    .collect();
                let name = format!("{iname}_to_{}", tf(d));
                let cli = subject(&name, rname, &inputs, width(it) as usize / 4);
                for (i, &x) in inputs.iter().enumerate() {
                    let (want, wf) = sf(|| sf_i2f(it, d, x, rm));
                    let got = float::convert(&env, it, d, x, false).unwrap();
                    assert_eq!(got.bits, want, "{name} {x:#X} {r:?}");
                    assert_eq!(eu_flags(got.flags), wf, "{name} {x:#X} {r:?} flags");
                    assert_eq!(cli[i], (want, wf), "euref fp {name} {x:#X}");
                }
            }
        }
        // Float -> integer, toward zero (the EU mov) and in the mode (rnd + mov): values agree
        // wherever SoftFloat raises no invalid; the flags agree everywhere, bit for bit:
        // without --exact as SoftFloat's `exact = false` (IEEE convertToInteger: invalid only,
        // never inexact), with --exact as `exact = true` (convertToIntegerExact: inexact when
        // the value was rounded). The library conversion's flags are the Exact ones.
        let mut inexact_seen = 0;
        for s in floats {
            for (it, iname) in [
                (DataType::D, "i32"),
                (DataType::UD, "ui32"),
                (DataType::Q, "i64"),
                (DataType::UQ, "ui64"),
            ] {
                let mut inputs: Vec<u64> = (0..n).map(|_| rng.float(width(s))).collect();
                // Small magnitudes around the integers (halfway cases, |x| < 1, negative
                // values rounding to 0 for unsigned types) and the integer type's bounds.
                for k in -40i64..40 {
                    let v = k as f64 / 4.0;
                    inputs.push(float_bits(s, v));
                }
                for b in int_bounds(it) {
                    for d in [-1.0, -0.5, 0.0, 0.5, 1.0] {
                        inputs.push(float_bits(s, b + d));
                    }
                }
                for min_mag in [true, false] {
                    let name = if min_mag {
                        format!("{}_to_{iname}_r_minMag", tf(s))
                    } else {
                        format!("{}_to_{iname}", tf(s))
                    };
                    let digits = width(s) as usize / 4;
                    let cli = subject(&name, rname, &inputs, digits);
                    let cli_exact = subject_args(&name, rname, &["--exact"], &inputs, digits);
                    let srm = if min_mag {
                        RoundingMode::TowardZero
                    } else {
                        rm
                    };
                    for (i, &x) in inputs.iter().enumerate() {
                        let (want, wf) = sf(|| sf_f2i(s, it, x, srm, false));
                        let (want_x, wfx) = sf(|| sf_f2i(s, it, x, srm, true));
                        assert_eq!(want, want_x);
                        let (got, gf) = cli[i];
                        assert_eq!(gf, wf, "{name} {x:#X} {r:?} flags");
                        assert_eq!(cli_exact[i], (got, wfx), "{name} --exact {x:#X} {r:?}");
                        if wf & 0x10 == 0 {
                            assert_eq!(got, want, "{name} {x:#X} {r:?}");
                        }
                        inexact_seen += (wfx & 1) as usize;
                        if min_mag && r == Round::Rtne {
                            // The library conversion is the EU mov (toward zero).
                            let c = float::convert(&env, s, it, x, false).unwrap();
                            assert_eq!(c.bits, got, "{name} {x:#X}");
                            assert_eq!(eu_flags(c.flags), wfx, "{name} {x:#X} library flags");
                        }
                    }
                }
            }
        }
        assert!(inexact_seen > 1000, "{inexact_seen}");
    }
}

/// The bits of `v` (exactly representable or rounded to nearest) in float type `t`.
fn float_bits(t: DataType, v: f64) -> u64 {
    let d = v.to_bits();
    match t {
        DataType::DF => d,
        DataType::F => (v as f32).to_bits() as u64,
        _ => euref::fp::convert::<euref::fp::F64, euref::fp::Hf>(d, Round::Rtne).bits,
    }
}

/// The minimum and maximum of an integer type, as binary64 values.
fn int_bounds(t: DataType) -> [f64; 2] {
    match t {
        DataType::D => [i32::MIN as f64, i32::MAX as f64],
        DataType::UD => [0.0, u32::MAX as f64],
        DataType::Q => [i64::MIN as f64, i64::MAX as f64],
        _ => [0.0, u64::MAX as f64],
    }
}

fn tf(t: DataType) -> &'static str {
    match t {
        DataType::HF => "f16",
        DataType::F => "f32",
        _ => "f64",
    }
}

/// SoftFloat's float -> integer; `exact` raises inexact when the value was rounded
/// (TestFloat's -exact; without it inexact is never raised).
fn sf_f2i(s: DataType, it: DataType, x: u64, rm: RoundingMode, exact: bool) -> u64 {
    macro_rules! conv {
        ($a:expr) => {
            match it {
                DataType::D => $a.to_i32(rm, exact) as u32 as u64,
                DataType::UD => $a.to_u32(rm, exact) as u64,
                DataType::Q => $a.to_i64(rm, exact) as u64,
                _ => $a.to_u64(rm, exact),
            }
        };
    }
    match s {
        DataType::HF => conv!(F16::from_bits(x as u16)),
        DataType::F => conv!(F32::from_bits(x as u32)),
        _ => conv!(F64::from_bits(x)),
    }
}

/// SoftFloat's integer -> float conversion (only the destination's conversion runs, so the
/// flags are its own).
fn sf_i2f(it: DataType, d: DataType, x: u64, rm: RoundingMode) -> u64 {
    macro_rules! conv {
        ($T:ident) => {
            match it {
                DataType::D => $T::from_i32(x as u32 as i32, rm).to_bits() as u64,
                DataType::UD => $T::from_u32(x as u32, rm).to_bits() as u64,
                DataType::Q => $T::from_i64(x as i64, rm).to_bits() as u64,
                _ => $T::from_u64(x, rm).to_bits() as u64,
            }
        };
    }
    match d {
        DataType::HF => conv!(F16),
        DataType::F => conv!(F32),
        _ => conv!(F64),
    }
}
