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
    inputs_from(seeds, n, ALPHABET)
}

/// [`inputs`] with the bytes of `alphabet` inserted.
fn inputs_from(seeds: &[&str], n: usize, alphabet: &[u8]) -> Vec<Vec<u8>> {
    let mut rng = Rng::for_vector(0x9E37_79B9_7F4A_7C15, 0, 0);
    let mut out: Vec<Vec<u8>> = seeds.iter().map(|s| s.as_bytes().to_vec()).collect();
    for _ in 0..n {
        let mut s = seeds[rng.below(seeds.len())].as_bytes().to_vec();
        for _ in 0..1 + rng.below(3) {
            let b = alphabet[rng.below(alphabet.len())];
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
    // (`null` followed by a digit, `null5`, is left to the general path.)
    each_input(REGS, 9_500, |s, d, shown| {
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

const MSG_DESCS: &[&str] = &[
    "\n                            urb MsgDesc: mlen 5 rlen 0 { align1 1Q };",
    "\n                            sampler MsgDesc: mlen 4 rlen 4 { align1 1Q };",
    "\n                            dp data 1 MsgDesc: mlen 2 rlen 0 { align1 1H };",
    "\n                            pixel interp MsgDesc: mlen 1 rlen 2 { align1 1Q };",
    "\n                            thread_spawner MsgDesc: mlen 1 rlen 0 { align1 1Q EOT };",
    " urb MsgDesc: mlen 1 rlen 1 ;",
    "\n   render  MsgDesc: mlen 1 rlen 1 {",
    "\n   render\tMsgDesc: mlen 1 rlen 1 {",
    "\n   msgdesc MsgDesc: x {",
    "\n   urb msgdescx MsgDesc: x {",
    "\n   bogus MsgDesc: x {",
    "\n   sfid3 MsgDesc: x {",
    "\n   urb MsgDesc",
    "\n   URB MsgDesc: /* c */ {",
    "\n   urb\n MsgDesc: {",
];

/// Mesa's message descriptions read by the quick path are read the same by the general path:
/// same SFID, end and line, with the remembered name empty or set by an earlier description.
#[test]
fn quick_message_descriptions_are_the_general_path() {
    let mut hits = 0;
    let mut cached = 0;
    for s in inputs_from(MSG_DESCS, 40_000, b"urbsampler MsgDesc:mlen 1{};\n\t/*dp") {
        let shown = String::from_utf8_lossy(&s);
        for warm in [false, true] {
            let mut q = parser(&s, Dialect::Mesa);
            let mut g = parser(&s, Dialect::Mesa);
            if warm {
                // The name of the previous description, remembered by both.
                let urb: &[u8] = b"\nurb MsgDesc {";
                let mut w = parser(urb, Dialect::Mesa);
                assert!(w.quick_msg_description().is_some());
                q.last_sfid = w.last_sfid;
                g.last_sfid = w.last_sfid;
            }
            let Some(sfid) = q.quick_msg_description() else {
                assert_eq!(q.c.offset(), 0, "{shown}");
                continue;
            };
            let want = g.msg_description_general();
            assert_eq!(want.ok(), Some(sfid), "{shown}");
            assert_eq!(
                (g.c.offset(), g.c.line(), g.last_sfid),
                (q.c.offset(), q.c.line(), q.last_sfid),
                "{shown}"
            );
            hits += 1;
            cached += usize::from(warm && q.last_sfid.0 == b"urb");
        }
    }
    assert!(hits > 10_000 && cached > 2_000, "{hits} {cached}");
}

const OPTIONS: &[&str] = &[
    "{ align1 1Q };",
    "{ align1 1H };",
    "{ align1 1Q EOT };",
    "{ align1 WE_all 1N };",
    "{ align16 2Q }",
    "{ align1 1N switch };",
    "{ align1 2Q AccWrEnable }",
    "{ Align16, NoMask, Q2, SecHalf }",
    "{ align1 align16 }",
    "{ 1Q 2Q }",
    "{ switch atomic }",
    "{ align1 /* x */ 1Q }",
    "{ Compacted }",
    "{ align1 1Q",
];

/// Options blocks read through the memo (`Parser::options`) set what the general path sets,
/// or fail with its error, from the state before any option and from others; a block is read
/// after others whose memo slots it may share.
#[test]
fn remembered_options_are_the_general_path() {
    use super::options::{OptionsMemo, MEMO_SLOTS};
    // Mutated blocks, each followed by a seed (the blocks that repeat).
    let texts: Vec<Vec<u8>> = inputs_from(OPTIONS, 30_000, b"align16 1QHN2EOTWE_all{},/* ")
        .into_iter()
        .enumerate()
        .flat_map(|(k, t)| [t, OPTIONS[k % OPTIONS.len()].as_bytes().to_vec()])
        .collect();
    let mut memo = [OptionsMemo::default(); MEMO_SLOTS];
    let mut remembered = 0;
    for (k, s) in texts.iter().enumerate() {
        let shown = String::from_utf8_lossy(s);
        // Before the options: nothing (mostly), or a channel offset or a control already set.
        let state = |insn: &mut Insn, pd: &mut Pending| match k % 8 {
            6 => pd.chan_off = Some((8, Pos(0))),
            7 => insn.ctrl.eot = true,
            _ => {}
        };
        let mut qp = parser(s, Dialect::Mesa);
        qp.options_memo = memo;
        let hit = memo
            .iter()
            .any(|m| !m.text_is_empty() && s.starts_with(m.text()));
        let (mut qi, mut qpd) = (Insn::new(Opcode::Add), Pending::default());
        state(&mut qi, &mut qpd);
        let got = qp.options(&mut qi, &mut qpd).map_err(|e| format!("{e:?}"));
        let mut g = parser(s, Dialect::Mesa);
        let (mut gi, mut gpd) = (Insn::new(Opcode::Add), Pending::default());
        state(&mut gi, &mut gpd);
        let want = g
            .options_general(&mut gi, &mut gpd)
            .map_err(|e| format!("{e:?}"));
        assert_eq!(got, want, "{shown}");
        if want.is_ok() {
            assert_eq!(
                (
                    qi.ctrl,
                    qpd.access,
                    qpd.chan_off,
                    qpd.sec_half,
                    qp.c.offset()
                ),
                (
                    gi.ctrl,
                    gpd.access,
                    gpd.chan_off,
                    gpd.sec_half,
                    g.c.offset()
                ),
                "{shown}"
            );
        }
        remembered += usize::from(hit && k % 8 < 6);
        // The memo of this parser (its texts borrowed from `texts`) is the next one's.
        memo = qp.options_memo;
    }
    assert!(remembered > 4_000, "{remembered}");
}
