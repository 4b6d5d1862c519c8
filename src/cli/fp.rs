//! `euref fp`: a floating-point subject in the style of Berkeley TestFloat.
//!
//! `euref fp <function> [--round rtne|rtz|ru|rd] [--gen G] [--denorm keep|flush] [--alt] [--eu]
//! [--exact]` reads test cases from stdin, one per line: the operands as raw hexadecimal numbers
//! separated by spaces (further columns, e.g. the expected result and flags written by
//! `testfloat_gen <function>`, are ignored). For each line it writes the operands, the result
//! and the exception flags in the format of `testfloat_gen` / `testfloat_ver` (TestFloat 3,
//! doc/testfloat_gen.html "Output Format"): upper-case hex at the width of each type (f16 4
//! digits, f32/i32/ui32 8, f64/i64/ui64 16), a Boolean result as `0`/`1`, and the flags as two
//! hex digits (bit 0 inexact, 1 underflow, 2 overflow, 3 infinite, 4 invalid). The output can
//! be piped into `testfloat_ver <function>`.
//!
//! Models:
//! * default (`--denorm keep`, no `--alt`, no `--eu`): plain IEEE-754 with gradual underflow,
//!   tininess after rounding, the rounding mode of `--round` for every rounding operation;
//!   float -> integer conversions deliver the EU's special values (conversions.toml) for
//!   invalid cases, which TestFloat does not check unless asked to.
//! * EU model (`--denorm flush`, `--alt` or `--eu`): the operations of `euref::float` on the
//!   platform of `--gen` (default skl) with cr0.0 = the rounding mode of `--round`, ALT mode per
//!   `--alt`, and every denorm-mode bit of the platform set (`keep`) or clear (`flush`).
//!   Conversions follow conversions.toml (e.g. DF -> F rounds toward zero on Gen7), div and
//!   sqrt are math FDIV/SQRT (RTNE, fp.round.math-model).
//!
//! A line that cannot be read (too few operands, a token that is not hex or too wide for its
//! type) is reported on stderr with its line number (and the bad token's column and operand
//! number) and skipped; the exit status is then 1. A bad token is repeated quoted, with control
//! characters escaped and cut after 60 characters ([`euref::quote`]).

use super::output;
use euref::float::{self, FloatEnv, FloatType, Policy};
use euref::fp::{Flags, FpOrd, Round};
use euref::spec::compare::GridKind;
use euref::spec::{CondMod, DataType, FpOps, Platform};
use std::io::{BufRead, Write};
use std::process::ExitCode;

/// Denormal handling of the EU model.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DenormArg {
    /// Keep denormals (plain IEEE unless --alt or --eu; in the EU model, every cr0.0
    /// denorm-mode bit set).
    Keep,
    /// Apply the EU flush rules of the platform (every cr0.0 denorm-mode bit clear).
    Flush,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// TestFloat function: f16/f32/f64 with _add _sub _mul _mulAdd _div _sqrt _roundToInt _eq
    /// _lt _le _eq_signaling _lt_quiet _le_quiet; fN_to_fM; i32/ui32/i64/ui64_to_fN;
    /// fN_to_i32/ui32/i64/ui64 (rounding per --round) and fN_to_..._r_minMag (toward zero).
    pub function: String,
    /// Rounding mode (cr0.0[5:4]): rtne, ru, rd, rtz (also TestFloat's near_even, max, min,
    /// minMag).
    #[arg(long, default_value = "rtne")]
    pub round: String,
    /// Platform of the EU model: 7, 7.5, 8, 9 or a platform name (default skl).
    #[arg(long)]
    pub gen: Option<String>,
    /// Denormals: keep, or flush per the EU rules of the platform (implies the EU model).
    #[arg(long, value_enum, default_value_t = DenormArg::Keep)]
    pub denorm: DenormArg,
    /// ALT floating-point mode, cr0.0 bit 0 (implies the EU model).
    #[arg(long)]
    pub alt: bool,
    /// Use the EU model with --denorm keep and no --alt.
    #[arg(long)]
    pub eu: bool,
    /// Raise inexact for float -> integer conversions and roundToInt (TestFloat's -exact).
    #[arg(long)]
    pub exact: bool,
}

/// TestFloat integer types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum IntT {
    I32,
    Ui32,
    I64,
    Ui64,
}

impl IntT {
    fn parse(s: &str) -> Option<IntT> {
        Some(match s {
            "i32" => IntT::I32,
            "ui32" => IntT::Ui32,
            "i64" => IntT::I64,
            "ui64" => IntT::Ui64,
            _ => return None,
        })
    }
    fn data_type(self) -> DataType {
        match self {
            IntT::I32 => DataType::D,
            IntT::Ui32 => DataType::UD,
            IntT::I64 => DataType::Q,
            IntT::Ui64 => DataType::UQ,
        }
    }
    fn bits(self) -> u32 {
        match self {
            IntT::I32 | IntT::Ui32 => 32,
            IntT::I64 | IntT::Ui64 => 64,
        }
    }
}

fn float_t(s: &str) -> Option<FloatType> {
    Some(match s {
        "f16" => FloatType::Hf,
        "f32" => FloatType::F,
        "f64" => FloatType::Df,
        _ => return None,
    })
}

/// The operation of a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Add,
    Sub,
    Mul,
    MulAdd,
    Div,
    Sqrt,
    RoundToInt,
    Eq,
    Lt,
    Le,
    EqSignaling,
    LtQuiet,
    LeQuiet,
    /// To another float type.
    ToFloat(FloatType),
    /// To an integer; `true` for `_r_minMag`.
    ToInt(IntT, bool),
    /// From an integer (the function's float type is the destination).
    FromInt(IntT),
}

/// A parsed function: its float type (the operand type, or the destination of `FromInt`)
/// and operation.
#[derive(Clone, Copy, Debug)]
struct Func {
    ty: FloatType,
    op: Op,
}

fn parse_function(name: &str) -> Option<Func> {
    if let Some((lhs, rhs)) = name.split_once("_to_") {
        if let Some(it) = IntT::parse(lhs) {
            return Some(Func {
                ty: float_t(rhs)?,
                op: Op::FromInt(it),
            });
        }
        let ty = float_t(lhs)?;
        if let Some(d) = float_t(rhs) {
            return (d != ty).then_some(Func {
                ty,
                op: Op::ToFloat(d),
            });
        }
        let (rhs, min_mag) = match rhs.strip_suffix("_r_minMag") {
            Some(r) => (r, true),
            None => (rhs, false),
        };
        return Some(Func {
            ty,
            op: Op::ToInt(IntT::parse(rhs)?, min_mag),
        });
    }
    let (t, op) = name.split_once('_')?;
    let op = match op {
        "add" => Op::Add,
        "sub" => Op::Sub,
        "mul" => Op::Mul,
        "mulAdd" => Op::MulAdd,
        "div" => Op::Div,
        "sqrt" => Op::Sqrt,
        "roundToInt" => Op::RoundToInt,
        "eq" => Op::Eq,
        "lt" => Op::Lt,
        "le" => Op::Le,
        "eq_signaling" => Op::EqSignaling,
        "lt_quiet" => Op::LtQuiet,
        "le_quiet" => Op::LeQuiet,
        _ => return None,
    };
    Some(Func {
        ty: float_t(t)?,
        op,
    })
}

const FUNCTION_HELP: &str = "f16/f32/f64 followed by _add _sub _mul _mulAdd _div _sqrt \
_roundToInt _eq _lt _le _eq_signaling _lt_quiet _le_quiet; fN_to_fM; i32/ui32/i64/ui64_to_fN; \
fN_to_i32/ui32/i64/ui64 with optional _r_minMag (N, M in 16, 32, 64)";

fn parse_round(s: &str) -> Option<Round> {
    Some(match s {
        "rtne" | "rne" | "near_even" | "nearest_even" => Round::Rtne,
        "ru" | "rup" | "max" => Round::Ru,
        "rd" | "rdn" | "min" => Round::Rd,
        "rtz" | "minMag" | "minmag" => Round::Rtz,
        _ => return None,
    })
}

/// Width of an operand or result, in hex digits, or a Boolean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Hex(u32),
    Bool,
}

/// The result of one test case.
struct Res {
    bits: u64,
    flags: Flags,
}

/// Everything fixed for a run.
struct Subject {
    func: Func,
    eu: bool,
    env: FloatEnv,
    rm: Round,
    exact: bool,
    /// The EU policy of the operation (EU model only).
    pol: Policy,
    /// The EU policy of round-to-integral (float -> integer with a rounding mode).
    rnd_pol: Policy,
    /// Environment of the plain model's float -> integer conversions.
    plain_env: FloatEnv,
}

fn testfloat_flags(f: Flags) -> u8 {
    (f.inexact() as u8)
        | (f.underflow() as u8) << 1
        | (f.overflow() as u8) << 2
        | (f.div_by_zero() as u8) << 3
        | (f.invalid() as u8) << 4
}

fn ops_class(op: Op) -> FpOps {
    match op {
        Op::MulAdd => FpOps::Fused,
        Op::Div | Op::Sqrt => FpOps::Math,
        Op::Eq | Op::Lt | Op::Le | Op::EqSignaling | Op::LtQuiet | Op::LeQuiet => FpOps::Compare,
        Op::ToFloat(_) | Op::FromInt(_) | Op::ToInt(..) => FpOps::Conversion,
        _ => FpOps::Arith,
    }
}

impl Subject {
    /// Operand kinds and result kind.
    fn shape(&self) -> (Vec<Kind>, Kind) {
        let f = Kind::Hex(self.func.ty.bits() / 4);
        match self.func.op {
            Op::Add | Op::Sub | Op::Mul | Op::Div => (vec![f, f], f),
            Op::MulAdd => (vec![f, f, f], f),
            Op::Sqrt | Op::RoundToInt => (vec![f], f),
            Op::Eq | Op::Lt | Op::Le | Op::EqSignaling | Op::LtQuiet | Op::LeQuiet => {
                (vec![f, f], Kind::Bool)
            }
            Op::ToFloat(d) => (vec![f], Kind::Hex(d.bits() / 4)),
            Op::ToInt(it, _) => (vec![f], Kind::Hex(it.bits() / 4)),
            Op::FromInt(it) => (vec![Kind::Hex(it.bits() / 4)], f),
        }
    }

    fn compare(&self, o: &[u64]) -> Res {
        let (cmod, signaling) = match self.func.op {
            Op::Eq => (CondMod::Z, false),
            Op::EqSignaling => (CondMod::Z, true),
            Op::Lt => (CondMod::L, true),
            Op::LtQuiet => (CondMod::L, false),
            Op::Le => (CondMod::Le, true),
            _ => (CondMod::Le, false),
        };
        let (value, unordered, mut flags) = if self.eu {
            let c = self.pol.compare(cmod, GridKind::Cmp, o[0], o[1]);
            (c.value, c.unordered, c.flags)
        } else {
            let fmt = self.func.ty.fmt();
            let ord = fmt.compare(o[0], o[1]);
            let value = match cmod {
                CondMod::Z => ord == FpOrd::Equal,
                CondMod::L => ord == FpOrd::Less,
                _ => matches!(ord, FpOrd::Less | FpOrd::Equal),
            };
            let snan = fmt.is_snan(o[0]) || fmt.is_snan(o[1]);
            let flags = if snan { Flags::INVALID } else { Flags::NONE };
            (value, ord == FpOrd::Unordered, flags)
        };
        if signaling && unordered {
            flags |= Flags::INVALID;
        }
        Res {
            bits: value as u64,
            flags,
        }
    }

    fn to_int(&self, a: u64, it: IntT, min_mag: bool) -> Result<Res, String> {
        let ty = self.func.ty;
        let rm = if min_mag { Round::Rtz } else { self.rm };
        let env = if self.eu { self.env } else { self.plain_env };
        // Round to an integral value first (rndz/rnde/rndu/rndd), then convert (mov): the
        // conversion rounds toward zero, so this is the conversion in mode `rm`.
        let (integral, inexact) = if self.eu && !min_mag {
            let r = self.rnd_pol.rnd(a, rm);
            (r.bits, r.flags.inexact())
        } else if self.eu {
            (a, ty.fmt().round_to_integral(a, Round::Rtz).flags.inexact())
        } else {
            let r = ty.fmt().round_to_integral(a, rm);
            (r.bits, r.flags.inexact())
        };
        let c = float::convert(&env, ty.data_type(), it.data_type(), integral, false)
            .map_err(|e| e.to_string())?;
        let mut flags = if c.flags.invalid() {
            Flags::INVALID
        } else {
            Flags::NONE
        };
        if self.exact && inexact && !flags.invalid() {
            flags |= Flags::INEXACT;
        }
        Ok(Res {
            bits: c.bits,
            flags,
        })
    }

    fn eval(&self, o: &[u64]) -> Result<Res, String> {
        let ty = self.func.ty;
        let fmt = ty.fmt();
        let rm = self.rm;
        let plain = |r: euref::fp::FpResult| Res {
            bits: r.bits,
            flags: r.flags,
        };
        let eu = |r: float::FloatOut| Res {
            bits: r.bits,
            flags: r.flags,
        };
        Ok(match self.func.op {
            Op::Add if self.eu => eu(self.pol.add(o[0], o[1])),
            Op::Add => plain(fmt.add(o[0], o[1], rm)),
            Op::Sub if self.eu => eu(self.pol.sub(o[0], o[1])),
            Op::Sub => plain(fmt.sub(o[0], o[1], rm)),
            Op::Mul if self.eu => eu(self.pol.mul(o[0], o[1])),
            Op::Mul => plain(fmt.mul(o[0], o[1], rm)),
            Op::MulAdd if self.eu => eu(self.pol.fma(o[0], o[1], o[2])),
            Op::MulAdd => plain(fmt.fma(o[0], o[1], o[2], rm)),
            Op::Div if self.eu => eu(self.pol.div(o[0], o[1])),
            Op::Div => plain(fmt.div(o[0], o[1], rm)),
            Op::Sqrt if self.eu => eu(self.pol.sqrt(o[0])),
            Op::Sqrt => plain(fmt.sqrt(o[0], rm)),
            Op::RoundToInt => {
                let mut r = if self.eu {
                    eu(self.pol.rnd(o[0], rm))
                } else {
                    plain(fmt.round_to_integral(o[0], rm))
                };
                if !self.exact {
                    r.flags = r.flags.without(Flags::INEXACT);
                }
                r
            }
            Op::Eq | Op::Lt | Op::Le | Op::EqSignaling | Op::LtQuiet | Op::LeQuiet => {
                self.compare(o)
            }
            Op::ToFloat(d) if self.eu => {
                let c = float::convert(&self.env, ty.data_type(), d.data_type(), o[0], false)
                    .map_err(|e| e.to_string())?;
                Res {
                    bits: c.bits,
                    flags: c.flags,
                }
            }
            Op::ToFloat(d) => plain(fmt.convert(d.fmt(), o[0], rm)),
            Op::ToInt(it, min_mag) => self.to_int(o[0], it, min_mag)?,
            Op::FromInt(it) if self.eu => {
                let c = float::convert(&self.env, it.data_type(), ty.data_type(), o[0], false)
                    .map_err(|e| e.to_string())?;
                Res {
                    bits: c.bits,
                    flags: c.flags,
                }
            }
            Op::FromInt(it) => {
                let v = o[0];
                match it {
                    IntT::I32 => plain(fmt.from_i64(v as u32 as i32 as i64, rm)),
                    IntT::I64 => plain(fmt.from_i64(v as i64, rm)),
                    IntT::Ui32 | IntT::Ui64 => plain(fmt.from_u64(v, rm)),
                }
            }
        })
    }
}

/// Parse a hex token of at most `digits` significant hex digits (an optional 0x prefix).
fn parse_hex(tok: &[u8], digits: u32) -> Result<u64, String> {
    let t = tok
        .strip_prefix(b"0x")
        .or_else(|| tok.strip_prefix(b"0X"))
        .unwrap_or(tok);
    // The token quoted for a message: cut when long, control characters escaped.
    let shown = || euref::quote::quote(tok);
    if t.is_empty() {
        return Err(format!("{} is not a hexadecimal number", shown()));
    }
    let mut v: u64 = 0;
    let mut significant = 0u32;
    for &c in t {
        let d = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => return Err(format!("{} is not a hexadecimal number", shown())),
        };
        if significant > 0 || d != 0 {
            significant += 1;
        }
        if significant > 16 {
            return Err(format!("{} has more than 16 hex digits", shown()));
        }
        v = v << 4 | d as u64;
    }
    if digits < 16 && v >> (digits * 4) != 0 {
        return Err(format!(
            "{} does not fit in {} bits ({} hex digits)",
            shown(),
            digits * 4,
            digits
        ));
    }
    Ok(v)
}

fn push_hex(buf: &mut Vec<u8>, v: u64, digits: u32) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for i in (0..digits).rev() {
        buf.push(HEX[(v >> (i * 4) & 0xF) as usize]);
    }
}

fn push_kind(buf: &mut Vec<u8>, v: u64, k: Kind) {
    match k {
        Kind::Hex(d) => push_hex(buf, v, d),
        Kind::Bool => buf.push(if v != 0 { b'1' } else { b'0' }),
    }
}

/// Check that the EU model can run `func` on `p` (types present, conversion supported).
fn check_eu(s: &Subject) -> Result<(), String> {
    let p = s.env.platform;
    let mut types = vec![s.func.ty.data_type()];
    match s.func.op {
        Op::ToFloat(d) => types.push(d.data_type()),
        Op::ToInt(it, _) | Op::FromInt(it) => types.push(it.data_type()),
        _ => {}
    }
    for t in types {
        if !t.on(p) {
            return Err(format!(
                "type {} does not exist on {} (the EU model needs it; the plain IEEE model \
                 runs without --eu, --alt and --denorm flush)",
                t.name(),
                p.name()
            ));
        }
    }
    // A trial conversion reports ALT-unsupported pairs and missing rows once, up front.
    let ty = s.func.ty.data_type();
    let pair = match s.func.op {
        Op::ToFloat(d) => Some((ty, d.data_type())),
        Op::ToInt(it, _) => Some((ty, it.data_type())),
        Op::FromInt(it) => Some((it.data_type(), ty)),
        _ => None,
    };
    if let Some((a, b)) = pair {
        float::convert(&s.env, a, b, 0, false).map_err(|e| e.to_string())?;
    }
    Ok(())
}

pub fn run(a: Args) -> Result<ExitCode, String> {
    let func = parse_function(&a.function).ok_or_else(|| {
        format!(
            "unknown function {}: expected {FUNCTION_HELP}",
            euref::quote::quote_str(&a.function)
        )
    })?;
    let rm = parse_round(&a.round).ok_or_else(|| {
        format!(
            "unknown rounding mode {}: expected rtne, ru, rd or rtz",
            euref::quote::quote_str(&a.round)
        )
    })?;
    let platform = match &a.gen {
        Some(g) => euref::gen::parse_gen(g).map_err(|e| e.to_string())?,
        None => Platform::Skl,
    };
    let eu = a.eu || a.alt || a.denorm == DenormArg::Flush;
    let env = FloatEnv::new(platform)
        .with_rounding(rm)
        .with_alt(a.alt)
        .with_denorms(a.denorm == DenormArg::Keep);
    let subject = Subject {
        func,
        eu,
        env,
        rm,
        exact: a.exact,
        pol: Policy::new(&env, func.ty, ops_class(func.op)),
        rnd_pol: Policy::new(&env, func.ty, FpOps::Arith),
        plain_env: FloatEnv::new(Platform::Skl).with_rounding(rm),
    };
    if eu {
        check_eu(&subject)?;
    }
    let (operands, result) = subject.shape();

    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = output::stdout();
    let mut line = Vec::with_capacity(128);
    let mut buf = Vec::with_capacity(128);
    let mut vals = [0u64; 3];
    let mut lineno: u64 = 0;
    let mut bad: u64 = 0;
    let mut written = Ok(());
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => return Err(format!("reading stdin: {e}")),
        }
        lineno += 1;
        let mut toks = line
            .split(|c| c.is_ascii_whitespace())
            .filter(|t| !t.is_empty())
            .peekable();
        if toks.peek().is_none() {
            continue; // blank line
        }
        let mut err = None;
        for (i, k) in operands.iter().enumerate() {
            let digits = match k {
                Kind::Hex(d) => *d,
                Kind::Bool => 1,
            };
            match toks.next() {
                None => {
                    err = Some(format!("expected {} operand(s), found {i}", operands.len()));
                    break;
                }
                Some(t) => match parse_hex(t, digits) {
                    Ok(v) => vals[i] = v,
                    Err(e) => {
                        // The token is a piece of `line`: its column (1-based, in bytes).
                        let col = t.as_ptr() as usize - line.as_ptr() as usize + 1;
                        err = Some(format!("operand {}: {e} (column {col})", i + 1));
                        break;
                    }
                },
            }
        }
        let res = match err {
            None => subject.eval(&vals[..operands.len()]),
            Some(e) => Err(e),
        };
        let res = match res {
            Ok(r) => r,
            Err(e) => {
                bad += 1;
                note!("euref fp: line {lineno}: {e}");
                continue;
            }
        };
        buf.clear();
        for (i, k) in operands.iter().enumerate() {
            push_kind(&mut buf, vals[i], *k);
            buf.push(b' ');
        }
        push_kind(&mut buf, res.bits, result);
        buf.push(b' ');
        push_hex(&mut buf, testfloat_flags(res.flags) as u64, 2);
        buf.push(b'\n');
        written = out.write_all(&buf);
        if written.is_err() {
            break;
        }
    }
    output::finish(out, written)?;
    Ok(if bad > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_names() {
        let f = parse_function("f32_add").unwrap();
        assert_eq!((f.ty, f.op), (FloatType::F, Op::Add));
        let f = parse_function("f64_to_f16").unwrap();
        assert_eq!((f.ty, f.op), (FloatType::Df, Op::ToFloat(FloatType::Hf)));
        let f = parse_function("f16_to_ui64_r_minMag").unwrap();
        assert_eq!((f.ty, f.op), (FloatType::Hf, Op::ToInt(IntT::Ui64, true)));
        let f = parse_function("i32_to_f64").unwrap();
        assert_eq!((f.ty, f.op), (FloatType::Df, Op::FromInt(IntT::I32)));
        assert!(parse_function("f32_to_f32").is_none());
        assert!(parse_function("f80_add").is_none());
        assert!(parse_function("f32_foo").is_none());
    }

    #[test]
    fn hex_tokens() {
        assert_eq!(parse_hex(b"3F800000", 8), Ok(0x3F80_0000));
        assert_eq!(parse_hex(b"0x1", 4), Ok(1));
        assert!(parse_hex(b"10000", 4).is_err());
        assert!(parse_hex(b"xyz", 8).is_err());
        assert_eq!(parse_hex(b"0000FFFF", 4), Ok(0xFFFF));
    }
}
