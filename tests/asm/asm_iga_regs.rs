//! Issue 27 class 9: IGA's register names (msg0-msg7, sp, ce, mme0-mme7, null with a number:
//! enc.iga-text.arf-numberless, enc.iga-text.arf-mme, enc.arf-reg-type) and its untyped branch
//! operands (ret, call, jmpi: enc.iga-text.branch-operands), both ways. Expected RegNums come
//! from the spec rows (spec/registers.toml `[[arf]]` regtype; enc.iga-text.arf-mme), read from
//! the encoded word through the layout's `*_reg_nr` field; expected regions and types from
//! enc.iga-text.branch-operands.

use euref::asm::{self, Dialect, PrintOptions};
use euref::codec::{decode_word, encode_word};
use euref::encoding::layout_for;
use euref::isa::{Addr, Insn, Reg, Region, Src};
use euref::spec::encoding::values::{IGA_ARF_MME, IGA_TEXT_BRANCH_OPERANDS};
use euref::spec::registers::arf_by_name;
use euref::spec::{DataType, Platform, Platform::*};

fn parse(text: &str, p: Platform) -> Insn {
    asm::parse_insn(text, Dialect::Iga, p)
        .unwrap_or_else(|e| panic!("`{text}` on {}: {e}", p.name()))
}

fn print(i: &Insn, d: Dialect, p: Platform) -> String {
    asm::print_insn(
        i,
        &PrintOptions {
            dialect: d,
            platform: p,
        },
    )
}

/// Assemble `text`, check the named RegNum field, decode the word and print it in IGA
/// syntax; the printed text must assemble to the same word.
fn regnum_both_ways(text: &str, field: &str, want: u8, p: Platform) -> String {
    let w = encode_word(&parse(text, p), p).unwrap_or_else(|e| panic!("{text}: {e}"));
    let f = layout_for(w, p).field(field).expect("field in layout");
    assert_eq!(f.get(w), u64::from(want), "{text} on {}", p.name());
    let i = decode_word(w, p).unwrap_or_else(|e| panic!("{text}: {e}"));
    let s = print(&i, Dialect::Iga, p);
    assert_eq!(encode_word(&parse(&s, p), p).unwrap(), w, "`{s}`");
    s
}

/// RegNum of register `nr` of the row named `name` on `p`.
fn regnum(name: &str, nr: u8, p: Platform) -> u8 {
    arf_by_name(p, name).expect("row").regtype << 4 | nr
}

#[test]
fn msg_registers_read_and_print() {
    for p in [Bdw, Skl] {
        for k in 0..8u8 {
            let text = format!("(W) mov (1|M0) r1.0<1>:ud msg{k}.0<0;1,0>:ud");
            let s = regnum_both_ways(&text, "src0_reg_nr", regnum("msg", k, p), p);
            assert!(s.contains(&format!(" msg{k}.0<0;1,0>:ud")), "{s}");
            // Mesa's name for the same code (enc.mesa-text.arf-names).
            let i = parse(&text, p);
            assert!(print(&i, Dialect::Mesa, p).contains(&format!("ms{k}")));
        }
    }
}

#[test]
fn sp_and_ce_have_no_number() {
    for p in [Hsw, Bdw, Skl] {
        let s = regnum_both_ways(
            "(W) mov (1|M0) sp.0<1>:ud r2.0<0;1,0>:ud {Switch}",
            "dst_reg_nr",
            regnum("sp", 0, p),
            p,
        );
        assert!(s.contains(" sp.0<1>:ud"), "{s}");
        let s = regnum_both_ways(
            "(W) mov (1|M0) r1.0<1>:ud ce.0<0;1,0>:ud",
            "src0_reg_nr",
            regnum("ce", 0, p),
            p,
        );
        assert!(s.contains(" ce.0<0;1,0>:ud") && !s.contains("ce0"), "{s}");
        // The former spelling is still read.
        let i = parse("(W) mov (1|M0) r1.0<1>:ud ce0.0<0;1,0>:ud", p);
        assert_eq!(print(&i, Dialect::Iga, p), s);
    }
}

#[test]
fn mme_names_acc2_to_acc9() {
    let first = IGA_ARF_MME.value("first").unwrap() as u8;
    let count = IGA_ARF_MME.value("count").unwrap() as u8;
    assert_eq!(count, 8);
    for p in [Bdw, Skl] {
        for k in 0..count {
            // mmeK is accumulator K + 2 (RegNum type 2, the row of acc).
            let want = regnum("acc", k + 2, p);
            assert_eq!(want, first + k);
            let text = format!("mov (8|M0) mme{k}.0<1>:d r2.0<8;8,1>:d");
            let s = regnum_both_ways(&text, "dst_reg_nr", want, p);
            assert!(s.contains(&format!(" mme{k}.0<1>:d")), "{s}");
            // acc2-acc9 are read as the same registers; Mesa prints acc.
            let alias = parse(&format!("mov (8|M0) acc{}.0<1>:d r2.0<8;8,1>:d", k + 2), p);
            assert_eq!(print(&alias, Dialect::Iga, p), s);
            assert!(print(&alias, Dialect::Mesa, p).contains(&format!("acc{}", k + 2)));
        }
    }
    // acc0/acc1 keep their names.
    let s = regnum_both_ways(
        "mov (8|M0) acc1.0<1>:f r2.0<8;8,1>:f",
        "dst_reg_nr",
        regnum("acc", 1, Skl),
        Skl,
    );
    assert!(s.contains(" acc1.0<1>:f"), "{s}");
}

#[test]
fn null_with_a_number_reads_back() {
    for p in [Ivb, Hsw, Bdw, Skl] {
        for k in 1..16u8 {
            let text = format!("mov (8|M0) null{k}.0<1>:ud r2.0<8;8,1>:ud");
            let s = regnum_both_ways(&text, "dst_reg_nr", regnum("null", k, p), p);
            assert!(s.contains(&format!(" null{k}.0<1>:ud")), "{s}");
        }
        // Plain null is number 0 and prints bare.
        let s = regnum_both_ways(
            "mov (8|M0) null<1>:ud r2.0<8;8,1>:ud",
            "dst_reg_nr",
            regnum("null", 0, p),
            p,
        );
        assert!(s.contains(" null<1>:ud"), "{s}");
    }
}

#[test]
fn names_follow_the_platforms_of_their_rows() {
    let refused = |text: &str, p: Platform| {
        let e =
            asm::parse_insn(text, Dialect::Iga, p).expect_err(&format!("`{text}` on {}", p.name()));
        assert!(e.msg.contains("does not exist"), "{e}");
        // The register name is column 27 (after `(W) mov (1|M0) r1.0<1>:ud `).
        assert_eq!(e.col, 27, "{e}");
    };
    refused("(W) mov (1|M0) r1.0<1>:ud msg0.0<0;1,0>:ud", Hsw);
    refused("(W) mov (1|M0) r1.0<1>:ud msg0.0<0;1,0>:ud", Ivb);
    refused("(W) mov (1|M0) r1.0<1>:ud ce.0<0;1,0>:ud", Ivb);
    refused("(W) mov (1|M0) r1.0<1>:ud sp.0<0;1,0>:ud", Ivb);
    refused("(W) mov (1|M0) r1.0<1>:ud mask0.0<0;1,0>:ud", Ivb);
    // euref's RegNum syntax too.
    refused("(W) mov (1|M0) r1.0<1>:ud arf0x50.0<0;1,0>:ud", Hsw);
    refused("(W) mov (1|M0) r1.0<1>:ud arf0xe0.0<0;1,0>:ud", Skl);
    // The rows: msg from Gen8, ce and sp from Haswell.
    assert!(arf_by_name(Hsw, "msg").is_none() && arf_by_name(Bdw, "msg").is_some());
    assert!(arf_by_name(Ivb, "sp").is_none() && arf_by_name(Hsw, "sp").is_some());
}

/// Decoding a reserved ARF type is an error naming the operand's reg_nr field
/// (enc.arf-reg-type); no decodable word prints `arf0x..` in IGA syntax.
#[test]
fn reserved_arf_types_do_not_decode() {
    for p in [Ivb, Hsw, Bdw, Skl] {
        let w0 = encode_word(&parse("(W) mov (1|M0) r1.0<1>:ud sr0.0<0;1,0>:ud", p), p).unwrap();
        let f = layout_for(w0, p).field("src0_reg_nr").unwrap();
        for n in 0..=255u8 {
            let mut w = w0;
            f.set(&mut w, n.into());
            let listed = arf_by_name(p, "null")
                .into_iter()
                .chain(
                    euref::spec::registers::ARFS
                        .iter()
                        .filter(|a| a.gens.contains(p)),
                )
                .any(|a| a.regtype == n >> 4);
            match decode_word(w, p) {
                Ok(i) => {
                    assert!(listed, "RegNum {n:#04x} decoded on {}", p.name());
                    let s = print(&i, Dialect::Iga, p);
                    assert!(!s.contains("arf0x"), "{s}");
                    assert_eq!(parse(&s, p), i, "`{s}`");
                }
                Err(e) => {
                    assert!(!listed, "RegNum {n:#04x} on {}: {e}", p.name());
                    assert_eq!(e.field, "src0_reg_nr", "{e}");
                    assert_eq!(e.value, u64::from(n));
                }
            }
        }
    }
}

fn implicit_region(op: &str) -> Region {
    let v = |k: &str| {
        IGA_TEXT_BRANCH_OPERANDS
            .value(&format!("{op}_{k}"))
            .unwrap() as u8
    };
    Region::new(v("vstride"), v("width"), v("hstride"))
}

fn reg_src(i: &Insn, k: usize) -> euref::isa::RegSrc {
    match i.src[k] {
        Some(Src::Reg(r)) => r,
        ref s => panic!("{s:?}"),
    }
}

#[test]
fn ret_reads_untyped_and_prints_without_d() {
    let ret = implicit_region("ret");
    assert_eq!(ret, Region::new(2, 2, 1));
    for p in [Ivb, Hsw, Bdw, Skl] {
        let i = parse("ret (8|M0) r12.0", p);
        let r = reg_src(&i, 0);
        assert_eq!((r.ty, r.region), (DataType::D, ret));
        assert_eq!(r.addr, Addr::reg(Reg::Grf(12)));
        let w = encode_word(&i, p).unwrap();
        let l = layout_for(w, p);
        assert_eq!(l.field("src0_reg_nr").unwrap().get(w), 12);
        let back = decode_word(w, p).unwrap();
        assert_eq!(print(&back, Dialect::Iga, p), "ret (8|M0) r12.0");
        // Another type is printed; a region other than the implicit one too.
        let i = parse("ret (8|M0) r12.0:ud", p);
        assert_eq!(reg_src(&i, 0).ty, DataType::UD);
        assert_eq!(print(&i, Dialect::Iga, p), "ret (8|M0) r12.0:ud");
        let i = parse("ret (8|M0) r12.2<0;1,0>:ud", p);
        assert_eq!(reg_src(&i, 0).region, Region::SCALAR);
        assert_eq!(print(&i, Dialect::Iga, p), "ret (8|M0) r12.2<0;1,0>:ud");
        // PRM syntax keeps the explicit form.
        assert!(print(&back, Dialect::Prm, p).contains("<2;2,1>:d"));
    }
}

#[test]
fn call_destination_reads_untyped() {
    for p in [Hsw, Bdw, Skl] {
        let i = parse("call (8|M0) r10.0 16", p);
        let d = i.dst.unwrap();
        assert_eq!((d.ty, d.hstride), (DataType::D, 1));
        assert_eq!(d.addr, Addr::reg(Reg::Grf(10)));
        let w = encode_word(&i, p).unwrap();
        assert_eq!(layout_for(w, p).field("dst_reg_nr").unwrap().get(w), 10);
        let back = decode_word(w, p).unwrap();
        assert_eq!(print(&back, Dialect::Iga, p), "call (8|M0) r10.0 16");
        let i = parse("calla (8|M0) r10.0:ud 16", p);
        assert_eq!(i.dst.unwrap().ty, DataType::UD);
        assert_eq!(print(&i, Dialect::Iga, p), "calla (8|M0) r10.0:ud 16");
    }
}

#[test]
fn jmpi_register_reads_untyped() {
    let jmpi = implicit_region("jmpi");
    assert_eq!(jmpi, Region::SCALAR);
    for p in [Ivb, Hsw, Bdw, Skl] {
        let i = parse("jmpi r10.1", p);
        let r = reg_src(&i, 1);
        assert_eq!((r.ty, r.region), (DataType::D, jmpi));
        let w = encode_word(&i, p).unwrap();
        assert_eq!(layout_for(w, p).field("src1_reg_nr").unwrap().get(w), 10);
        let back = decode_word(w, p).unwrap();
        assert_eq!(print(&back, Dialect::Iga, p), "jmpi r10.1");
    }
}
