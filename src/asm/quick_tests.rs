//! The parser's quick paths (one-pass readers of the common register, immediate, descriptor
//! and execution-size forms) give exactly what the general paths give: the same value and the
//! same end, on typical operands and on many random mutations of them.

use super::cursor::Pos;
use super::parse::{Parser, Pending};
use super::Dialect;
use crate::golden::values::Rng;
use crate::isa::Insn;
use crate::spec::{Opcode, Platform};

const ALPHABET: &[u8] = b"rgnul0123456789.<>;,:xXabcdefABCDEFUDWVQHvwyz-+|Mm() \t";

/// The seeds, then random mutations of them (bytes replaced, inserted, removed, cut).
fn inputs(seeds: &[&str], n: usize) -> Vec<Vec<u8>> {
    let mut rng = Rng::for_vector(0x9E37_79B9_7F4A_7C15, 0, 0);
    let mut out: Vec<Vec<u8>> = seeds.iter().map(|s| s.as_bytes().to_vec()).collect();
    for _ in 0..n {
        let mut s = seeds[rng.below(seeds.len())].as_bytes().to_vec();
        for _ in 0..1 + rng.below(3) {
            let b = ALPHABET[rng.below(ALPHABET.len())];
            let at = rng.below(s.len() + 1);
            match rng.below(4) {
                0 if at < s.len() => s[at] = b,
                1 => s.insert(at, b),
                2 if at < s.len() => {
                    s.remove(at);
                }
                _ => s.truncate(at),
            }
        }
        out.push(s);
    }
    // The quick readers look at a window of 32 bytes: the rest of a line follows.
    for s in &mut out {
        s.extend_from_slice(b"\n                                ");
    }
    out
}

const REGS: &[&str] = &[
    "r12.3<8;8,1>:f",
    "g7<8,8,1>D",
    "g7.1<0,1,0>UD",
    "r124.0<1>:uw",
    "null<1>:f",
    "null<1>:ud",
    "nullUD",
    "null:f",
    "null",
    "null5",
    "nullx",
    "null.1<1>:f",
    "r3",
    "r255.31<0;1,0>:ud",
    "r256",
    "r1.x",
    "r1<4>.xyzw:f",
    "r1.0<4;4,1>.x:f",
    "g1<1>UW",
    "r9<16;8,2>:b",
    "r0.1<0;1,0>:xx",
];

const IMMS: &[&str] = &[
    "0x1F:ud",
    "-1023:d",
    "1:d",
    "31:d",
    "0x3F000000:f",
    "0x11001010:v",
    "0xFFFFFFFF:ud",
    "0x1122334455667788:uq",
    "1.5:f",
    "1e5:f",
    "1E5:f",
    "1F",
    "0x:d",
    "0x1fUD",
    "0x1FUD",
    "-0x1:d",
    "123456789012:q",
    "7D",
    "0x8:uw",
];

const DESCS: &[&str] = &[
    "0x26",
    "0xA080017",
    "0x12345678",
    "0x123456789",
    "0x1fUD",
    "0x1f:ud",
    "0x",
    "0xc",
    "0x0000000C",
];

const EXECS: &[&str] = &[
    "(8|M0)", "(16|M16)", "(8|M4)", "(08|M04)", "(3)", "(8|M3)", "( 8 )", "(8| M0)", "(32|m28)",
    "(0x8)", "(1)", "(16|M32)", "(8|M8) ",
];

fn parser(s: &[u8], d: Dialect) -> Parser<'_> {
    Parser::new(s, d, Platform::Skl, false)
}

/// Run `check` on the inputs of `seeds` in every dialect: it returns whether the quick path
/// read the input (and asserts that the general path agrees); at least `min` must be read.
fn each_input(seeds: &[&str], min: usize, check: impl Fn(&[u8], Dialect, &str) -> bool) {
    let mut hits = 0;
    for d in Dialect::ALL {
        for s in inputs(seeds, 20_000) {
            hits += usize::from(check(&s, d, &String::from_utf8_lossy(&s)));
        }
    }
    assert!(hits > min, "{hits}");
}

#[test]
fn quick_registers_are_the_general_path() {
    each_input(REGS, 10_000, |s, d, shown| {
        let Some((r, n)) = parser(s, d).quick_reg() else {
            return false;
        };
        let mut g = parser(s, d);
        match g.reg_operand_general(Pos(0), false, false) {
            Ok(Some(gr)) => assert_eq!(format!("{gr:?}"), format!("{r:?}"), "{shown}"),
            other => panic!("{shown}: quick path read it, the general path gave {other:?}"),
        }
        assert_eq!(g.c.offset(), n, "{shown}");
        true
    });
}

#[test]
fn quick_immediates_are_the_general_path() {
    each_input(IMMS, 5_000, |s, d, shown| {
        let Some((v, ty, n)) = parser(s, d).quick_imm() else {
            return false;
        };
        let mut g = parser(s, d);
        assert!(g.at_number(), "{shown}");
        let gv = g.number().map(|v| format!("{v:?}"));
        let gt = g.type_suffix().map(|t| format!("{t:?}"));
        assert_eq!(gv.ok(), Some(format!("{v:?}")), "{shown}");
        assert_eq!(gt.ok(), Some(format!("{:?}", Some(ty))), "{shown}");
        assert_eq!(g.c.offset(), n, "{shown}");
        true
    });
}

#[test]
fn quick_descriptors_are_the_general_path() {
    each_input(DESCS, 10_000, |s, d, shown| {
        let Some((v, n)) = parser(s, d).quick_desc() else {
            return false;
        };
        let mut g = parser(s, d);
        let got = g.desc_operand_general("the descriptor");
        assert_eq!(
            got.ok().map(|x| format!("{x:?}")),
            Some(format!("{:?}", (crate::isa::SendDesc::Imm(v), Pos(0)))),
            "{shown}"
        );
        assert_eq!(g.c.offset(), n, "{shown}");
        true
    });
}

#[test]
fn quick_execution_sizes_are_the_general_path() {
    each_input(EXECS, 2_000, |s, d, shown| {
        let Some((n, off, len)) = parser(s, d).quick_exec_size() else {
            return false;
        };
        let mut g = parser(s, d);
        let (mut insn, mut pd) = (Insn::new(Opcode::Add), Pending::default());
        assert!(g.exec_size_general(&mut insn, &mut pd).is_ok(), "{shown}");
        assert_eq!((insn.exec_size, pd.chan_off), (n, off), "{shown}");
        assert_eq!(g.c.offset(), len, "{shown}");
        true
    });
}

/// The operands `direct` reads in their final form are what `finish` makes of the raw ones.
#[test]
fn direct_operands_are_the_converted_raw_ones() {
    use super::direct::Known;
    use super::operand::{make_dst, make_src, OpCtx};
    use crate::isa::Region;
    use crate::spec::DataType;
    let seeds: Vec<&str> = REGS.iter().chain(IMMS).copied().collect();
    let knowns = [
        (
            Known {
                ty: None,
                imm: true,
            },
            Region::CONTIG8,
        ),
        (
            Known {
                ty: Some(DataType::UD),
                imm: false,
            },
            Region::SCALAR,
        ),
    ];
    for (k, default_region) in knowns {
        each_input(&seeds, 2_000, |s, d, shown| {
            let ctx = OpCtx {
                mesa: d == Dialect::Mesa,
                default_region,
                default_type: k.ty,
            };
            let mut hit = false;
            // As a source (its default region set as `finish` sets it).
            let (mut slot, mut pd) = (None, Pending::default());
            let mut q = parser(s, d);
            if q.src_into(&mut slot, &mut pd, 1, Some(&k)).is_ok() {
                if let (Some(crate::isa::Src::Reg(r)), 2) = (&mut slot, pd.default_regions) {
                    r.region = default_region;
                }
                if let Some(got) = slot {
                    let mut g = parser(s, d);
                    let want = g.src_raw().ok().map(|r| make_src(&r, &ctx).ok());
                    assert_eq!(want, Some(Some(got)), "{shown}");
                    assert_eq!(g.c.offset(), q.c.offset(), "{shown}");
                    hit = true;
                }
            }
            // As a destination.
            let (mut slot, mut raw) = (None, None);
            let mut q = parser(s, d);
            if q.dst_into(&mut slot, &mut raw, &k).is_ok() {
                if let Some(got) = slot {
                    let mut g = parser(s, d);
                    let want = g.dst_raw().ok().map(|r| make_dst(&r, &ctx).ok());
                    assert_eq!(want, Some(Some(got)), "{shown}");
                    assert_eq!(g.c.offset(), q.c.offset(), "{shown}");
                    hit = true;
                }
            }
            hit
        });
    }
}
