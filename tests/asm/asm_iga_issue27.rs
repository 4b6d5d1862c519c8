//! Issue 27, classes 1, 5, 6, 7 and 8: euref's IGA dialect against the syntax of Intel's IGA
//! (facts: /work/briefs/iga-facts.md; rows enc.gen7.jump-unit-bytes, enc.iga-text.jump-bytes,
//! enc.gen8.branch-opcodes, enc.implicit.math-src1, enc.implicit.wait, enc.gen9.send-a1,
//! enc.gen8.send-a1). Words are written in memory order; expected texts and fields are worked
//! out from the field positions of the rows, not taken from euref's output.

use crate::codec_util::hex_bytes;
use euref::asm::{self, Dialect, PrintOptions};
use euref::codec;
use euref::spec::Opcode;
use euref::spec::Platform::{self, *};

fn opts(dialect: Dialect, platform: Platform) -> PrintOptions {
    PrintOptions { dialect, platform }
}

fn decode(hex: &str, p: Platform) -> euref::isa::Insn {
    codec::decode(&hex_bytes(hex), p)
        .unwrap_or_else(|e| panic!("{hex} on {}: {e}", p.name()))
        .0
}

fn assemble(text: &str, p: Platform) -> [u8; 16] {
    let i = asm::parse_insn(text, Dialect::Iga, p)
        .unwrap_or_else(|e| panic!("`{text}` on {}: {e}", p.name()));
    codec::encode(&i, p).unwrap_or_else(|e| panic!("`{text}` on {}: {e}", p.name()))
}

/// The little-endian dword `k` (0-3) of a native word.
fn dword(b: &[u8], k: usize) -> u32 {
    u32::from_le_bytes([b[4 * k], b[4 * k + 1], b[4 * k + 2], b[4 * k + 3]])
}

// ------------------------------------------------------------------ class 1: jump units

/// The Haswell example: JIP field (bits 111:96) 4 = 4 x 8 bytes; IGA prints `32`.
#[test]
fn haswell_else_prints_and_reads_bytes() {
    let hex = "24 00 60 00 84 34 00 20 00 00 8d 00 04 00 00 00";
    let i = decode(hex, Hsw);
    assert_eq!(i.jip, Some(4));
    let iga = asm::print_insn(&i, &opts(Dialect::Iga, Hsw));
    assert_eq!(iga, "else (8|M0) 32");
    // Read back: the same instruction, field 4 in bits 111:96.
    let back = asm::parse_insn(&iga, Dialect::Iga, Hsw).unwrap();
    assert_eq!(back, i);
    let b = codec::encode(&back, Hsw).unwrap();
    assert_eq!(dword(&b, 3) & 0xFFFF, 4);
    // PRM syntax keeps the field value.
    assert_eq!(asm::print_insn(&i, &opts(Dialect::Prm, Hsw)), "else (8) 4");
    assert_eq!(
        asm::parse_insn("else (8) 4", Dialect::Prm, Hsw)
            .unwrap()
            .jip,
        Some(4)
    );
}

/// A byte offset that is no multiple of the 8-byte unit has no encoding (IGA truncates it
/// silently; euref refuses it and says why).
#[test]
fn haswell_offsets_off_the_unit_are_refused() {
    for text in ["else (8|M0) 36", "if (8|M0) 32 20", "brd (8|M0) 4"] {
        let e = asm::parse_insn(text, Dialect::Iga, Hsw).expect_err(text);
        assert!(e.to_string().contains("not a multiple of 8"), "{text}: {e}");
    }
    // Gen8+ counts bytes: any offset is a field value.
    assert_eq!(
        asm::parse_insn("else (8|M0) 36 36", Dialect::Iga, Skl)
            .unwrap()
            .jip,
        Some(36)
    );
}

/// call and calla count bytes on Haswell too (IGA Encoder::arePcsInQWords): their text is
/// the field, and a label two instructions ahead is 32 bytes, not 4 units.
#[test]
fn haswell_call_counts_bytes() {
    let i = asm::parse_insn("call (8|M0) r10.0<1>:d 32", Dialect::Iga, Hsw).unwrap();
    assert_eq!(i.jip, Some(32));
    let b = codec::encode(&i, Hsw).unwrap();
    assert_eq!(dword(&b, 3), 32, "call's offset is the src0 immediate");
    let prog = asm::parse(
        b"call (8|M0) r10.0<1>:d L1\nnop\nL1:\nelse (8|M0) L2\nnop\nL2:\n",
        Some(Dialect::Iga),
        Hsw,
    )
    .unwrap();
    assert_eq!(prog.insns[0].jip, Some(32));
    assert_eq!(
        prog.insns[2].jip,
        Some(4),
        "else: two instructions = 4 units"
    );
    let text = asm::print_program(&prog.insns, &opts(Dialect::Iga, Hsw));
    // IGA writes call's destination without its implicit stride and type
    // (enc.iga-text.branch-operands).
    assert!(text.contains("call (8|M0) r10.0 LABEL0"), "{text}");
    assert!(text.contains("else (8|M0) LABEL1"), "{text}");
}

// ------------------------------------------------------------------ class 7: brc

/// Gen8/Gen9 brc carries JIP (bits 127:96) and UIP (bits 95:64) with an immediate src0.
#[test]
fn gen8_brc_has_jip_and_uip() {
    for p in [Bdw, Skl] {
        let b = assemble("brc (16|M0) 48 -16", p);
        assert_eq!(b[0] & 0x7F, 0x23, "brc opcode");
        assert_eq!(dword(&b, 3), 48, "JIP");
        assert_eq!(dword(&b, 2) as i32, -16, "UIP");
        let i = codec::decode(&b, p).unwrap().0;
        assert_eq!((i.op, i.jip, i.uip), (Opcode::Brc, Some(48), Some(-16)));
        assert_eq!(
            asm::print_insn(&i, &opts(Dialect::Iga, p)),
            "brc (16|M0) 48 -16"
        );
        // A register src0 (IGA's `brc (..) rX.Y null`) has no JIP/UIP: refused, field named.
        let mut reg = b;
        reg[5] &= !0x06; // src0_reg_file (bits 42:41) = ARF
        reg[5] |= 0x02; // GRF
        let e = codec::decode(&reg, p).expect_err("register brc");
        assert!(e.to_string().contains("src0_reg_file"), "{e}");
    }
}

/// IGA prints the type of brd's / brc's immediate target when the word's type field is not the
/// implicit D (iga-facts class 7: `brd (8|M0) 32:ud`). euref reads it: the field is a don't-care
/// bit of the implicit operand (enc.iga-text.branch-operands), so the text assembles to the
/// canonical word, which equals IGA's word outside codec::dont_care. Gen8 src0 type: bits 46:43
/// (enc.gen8.a1), UD = 0 and D = 1 (enc.gen8.reg-type).
#[test]
fn brd_and_brc_read_a_typed_immediate_target() {
    for p in [Bdw, Skl] {
        let plain = assemble("brd (8|M0) 32", p);
        assert_eq!(assemble("brd (8|M0) 32:ud", p), plain, "{}", p.name());
        assert_eq!(assemble("brd (8|M0) 32:d", p), plain, "{}", p.name());
        let w = u128::from_le_bytes(plain);
        assert_eq!(w >> 43 & 0xF, 1, "src0 type D");
        let ud = w & !(0xF << 43);
        let (i, _) = codec::decode(&ud.to_le_bytes(), p).unwrap();
        assert_eq!(codec::encode(&i, p).unwrap(), plain);
        assert_eq!(
            codec::dont_care(ud, p) >> 43 & 0xF,
            0xF,
            "type bits are don't-care"
        );
        assert_eq!(
            assemble("brc (16|M0) 48:ud 48:ud", p),
            assemble("brc (16|M0) 48 48", p)
        );
        let e = asm::parse_insn("brd (8|M0) 32:f", Dialect::Iga, p).unwrap_err();
        assert!(e.to_string().contains("type F is not one"), "{e}");
    }
}

// ------------------------------------------------------------------ class 5: math

/// One-source math: IGA prints no src1; the implicit null<8;8,1>:f is what its text means.
#[test]
fn one_source_math_has_no_src1_in_iga_text() {
    // Mesa corpus gen9 math.expected: math inv(8) g95<1>F g94<8,8,1>F null<8,8,1>F.
    let hex = "38 00 60 01 e8 3a e0 2b c0 0b 8d 38 00 00 8d 00";
    let i = decode(hex, Skl);
    assert_eq!(
        i.src[1], None,
        "the implicit src1 is no operand of the model"
    );
    let iga = asm::print_insn(&i, &opts(Dialect::Iga, Skl));
    assert_eq!(iga, "math.inv (8|M0) r95.0<1>:f r94.0<8;8,1>:f");
    assert_eq!(asm::parse_insn(&iga, Dialect::Iga, Skl).unwrap(), i);
    assert_eq!(assemble(&iga, Skl).to_vec(), hex_bytes(hex));
    // Mesa's text keeps its null src1.
    let mesa = asm::print_insn(&i, &opts(Dialect::Mesa, Skl));
    assert!(mesa.contains("null<8,8,1>F"), "{mesa}");
    // Mesa's text with its null src1 reads as the same instruction.
    assert_eq!(asm::parse_insn(&mesa, Dialect::Mesa, Skl).unwrap(), i);
    // A src1 of its own (bits IGA drops) is kept and shown: here r3 (Gen8+ Align1: src1
    // RegFile bits 90:89 = GRF, RegNum bits 108:101 = 3).
    let mut b = hex_bytes(hex);
    b[11] |= 0x02;
    b[12] |= 0x60;
    let own = codec::decode(&b, Skl).unwrap().0;
    let t = asm::print_insn(&own, &opts(Dialect::Iga, Skl));
    assert_eq!(t, "math.inv (8|M0) r95.0<1>:f r94.0<8;8,1>:f r3.0<8;8,1>:f");
    assert_eq!(assemble(&t, Skl).to_vec(), b);
    // A two-source function needs both.
    let e = asm::parse_insn(
        "math.pow (8|M0) r95.0<1>:f r94.0<8;8,1>:f",
        Dialect::Iga,
        Skl,
    )
    .expect_err("pow with one source");
    assert!(e.to_string().contains("takes 2 sources"), "{e}");
}

// ------------------------------------------------------------------ class 6: wait

/// wait: IGA writes the source `n0.0<0;1,0>:ud` and no execution size; both that and the
/// destination form assemble to the Mesa corpus word (gen9 wait.expected).
#[test]
fn wait_in_iga_source_form() {
    let hex = "30 00 00 00 04 00 00 32 00 12 00 38 00 00 8d 00";
    let i = decode(hex, Skl);
    let iga = asm::print_insn(&i, &opts(Dialect::Iga, Skl));
    assert_eq!(iga, "(W) wait n0.0<0;1,0>:ud");
    for text in [iga.as_str(), "(W) wait (1|M0) n0.0<1>:ud"] {
        assert_eq!(assemble(text, Skl).to_vec(), hex_bytes(hex), "{text}");
    }
    let e = asm::parse_insn("(W) wait n0.0<2;1,0>:ud", Dialect::Iga, Skl).expect_err("region");
    assert!(e.to_string().contains("<0;1,0>"), "{e}");
}

// ------------------------------------------------------------------ class 8: send bit 28

/// Bit 28 of a send: NoSrcDepSet on Gen9, reserved on Gen8, AccWrCtrl on Haswell.
#[test]
fn send_bit_28_per_generation() {
    // Mesa corpus gen9 send.expected, line 4, with bit 28 (byte 3, bit 4) set.
    let skl = "31 00 80 19 0c 02 20 21 40 00 00 06 00 03 28 02";
    let i = decode(skl, Skl);
    assert!(i.ctrl.no_src_dep_set && !i.ctrl.acc_wr);
    let iga = asm::print_insn(&i, &opts(Dialect::Iga, Skl));
    // (IGA's end-of-line comment on the message follows the options.)
    let before_comment = iga.split(" //").next().unwrap_or("");
    assert!(before_comment.ends_with("{NoSrcDepSet}"), "{iga}");
    assert_eq!(assemble(&iga, Skl).to_vec(), hex_bytes(skl));
    // Mesa calls the bit AccWrEnable; read back as NoSrcDepSet.
    let mesa = asm::print_insn(&i, &opts(Dialect::Mesa, Skl));
    assert!(mesa.contains("AccWrEnable"), "{mesa}");
    let back = asm::parse_insn(&mesa, Dialect::Mesa, Skl).unwrap();
    assert!(back.ctrl.no_src_dep_set && !back.ctrl.acc_wr);
    // AccWrEn has no field on a Gen9 send (IGA's encoder refuses it too).
    let acc = iga.replace("NoSrcDepSet", "AccWrEn");
    let a = asm::parse_insn(&acc, Dialect::Iga, Skl).unwrap();
    assert!(codec::encode(&a, Skl).is_err(), "{acc}");
    // Gen8: no field (GED model 8): a reserved bit.
    let e = codec::decode(&hex_bytes(skl), Bdw).expect_err("gen8 send bit 28");
    assert!(e.to_string().contains("byte 3"), "{e}");
    // Haswell: AccWrCtrl (GED model 7.5). Mesa corpus gen7.5 send.expected line 2, bit 28 set.
    let hsw = decode("31 01 60 16 bc 0f 0f 20 24 0e 6e 00 00 c0 08 86", Hsw);
    assert!(hsw.ctrl.acc_wr && !hsw.ctrl.no_src_dep_set);
    let t = asm::print_insn(&hsw, &opts(Dialect::Iga, Hsw));
    assert!(t.contains("AccWrEn"), "{t}");
}

/// jmpi: IGA writes the offset from the jmpi itself, the field (relative to the next
/// instruction) plus 16, or 8 when compacted (enc.iga-text.jmpi-bias), untyped and without the
/// (1|M0) group; euref's former typed text is the field itself.
#[test]
fn jmpi_offset_from_the_jmpi() {
    for p in [Hsw, Bdw, Skl] {
        let b = assemble("(W) jmpi 48", p);
        assert_eq!(dword(&b, 3), 32, "{}: the field is 48 - 16", p.name());
        assert_eq!(b[0] & 0x7F, 0x20, "jmpi opcode");
        let i = codec::decode(&b, p).unwrap().0;
        assert_eq!(asm::print_insn(&i, &opts(Dialect::Iga, p)), "(W) jmpi 48");
        // The typed immediate is the raw field.
        assert_eq!(dword(&assemble("(W) jmpi (1|M0) 32:d", p), 3), 32);
        // Compacted: the jmpi is 8 bytes, so the same field is 40 from the jmpi.
        let c = asm::parse_insn("(W) jmpi 40 {Compacted}", Dialect::Iga, p).unwrap();
        assert!(c.ctrl.compacted);
        let f = c.src[1].as_ref().and_then(|s| s.as_imm()).unwrap();
        assert_eq!(f.bits as u32 as i32, 32);
        assert_eq!(
            asm::print_insn(&c, &opts(Dialect::Iga, p)),
            "(W) jmpi 40 {Compacted}"
        );
        // PRM syntax keeps the typed field.
        let prm = asm::print_insn(&i, &opts(Dialect::Prm, p));
        assert!(prm.contains("32:d"), "{prm}");
    }
}

/// BranchCtrl (bit 28 on Gen8/Gen9, enc.gen8.a1) of if, else and goto is IGA's mnemonic suffix
/// `.b` (enc.iga-text.branch-ctrl-suffix): printed and read in IGA syntax, the option
/// `{BranchCtrl}` still read; other opcodes and Gen7 have no `.b`; PRM and Mesa syntax keep the
/// option.
#[test]
fn branch_ctrl_is_the_b_suffix_of_if_else_and_goto() {
    for p in [Bdw, Skl] {
        for (text, op) in [
            ("(f0.0) if.b (8|M0) 32 80", Opcode::If),
            ("else.b (8|M0) 32 32", Opcode::Else),
            ("(f0.0) goto.b (8|M0) 32 80", Opcode::Goto),
        ] {
            let b = assemble(text, p);
            assert_eq!(b[3] & 0x10, 0x10, "{text}: bit 28 (BranchCtrl)");
            let plain = assemble(&text.replace(".b", ""), p);
            assert_eq!(plain[3] & 0x10, 0, "{text} without .b");
            let mut with_option = text.replace(".b", "");
            with_option.push_str(" {BranchCtrl}");
            assert_eq!(assemble(&with_option, p), b, "{with_option}");
            let i = codec::decode(&b, p).unwrap().0;
            assert_eq!(i.op, op);
            assert_eq!(asm::print_insn(&i, &opts(Dialect::Iga, p)), text);
            let prm = asm::print_insn(&i, &opts(Dialect::Prm, p));
            assert!(prm.contains("BranchCtrl") && !prm.contains(".b"), "{prm}");
        }
        let e = asm::parse_insn("join.b (8|M0) 32", Dialect::Iga, p).unwrap_err();
        assert!(
            e.to_string().contains("enc.iga-text.branch-ctrl-suffix"),
            "{e}"
        );
    }
    assert!(asm::parse_insn("(f0.0) if.b (8|M0) 32 80", Dialect::Iga, Hsw).is_err());
}

/// A zero brd/brc target may carry a float type, as IGA prints a word whose type field says F
/// (`brd (8|M0) 0:f`): read as 0 (enc.iga-text.branch-operands note); a non-zero float-typed
/// target is refused.
#[test]
fn a_zero_branch_target_may_be_float_typed() {
    for p in [Bdw, Skl] {
        assert_eq!(
            assemble("brd (8|M0) 0:f", p),
            assemble("brd (8|M0) 0", p),
            "{}",
            p.name()
        );
        assert!(asm::parse_insn("brd (8|M0) 16:f", Dialect::Iga, p).is_err());
    }
}

/// Gen9 send with an indirect src0: bits 67:64 are both AddrImm[3:0] (enc.gen8.a1-ind,
/// src0_addr_imm 72:64) and ExDesc[19:16] (enc.gen9.send-a1-ex-desc). IGA prints them in the
/// exdesc operand only and writes whole 16-byte offsets; euref's IGA text does the same and
/// assembles back to the word. Word: bits 72:64 = 0x41 (AddrImm 65, ExDesc[19:16] = 1), src0
/// indirect from a0.0.
#[test]
fn gen9_send_indirect_offset_leaves_the_exdesc_bits_to_the_exdesc() {
    let w = "31 00 60 0c 48 02 80 2f 41 80 8d 06 00 60 40 02";
    let i = decode(w, Skl);
    let text = asm::print_insn(&i, &opts(Dialect::Iga, Skl));
    assert!(text.contains("r[a0.0, 64]"), "{text}");
    assert!(text.contains("0x4D1000C"), "{text}");
    assert_eq!(
        assemble(&text, Skl),
        <[u8; 16]>::try_from(hex_bytes(w)).unwrap()
    );
    // PRM syntax keeps euref's reading of the AddrImm field.
    let prm = asm::print_insn(&i, &opts(Dialect::Prm, Skl));
    assert!(prm.contains("r[a0.0, 65]"), "{prm}");
}

/// IGA writes the subregister of ce and msg in bytes, of every other register in elements
/// (enc.iga-text.arf-byte-subreg). Gen9 src0 SubRegNum: bits 68:64 (enc.gen8.a1).
#[test]
fn ce_and_msg_subregisters_count_bytes_in_iga_syntax() {
    let sub = |text: &str, d: Dialect| -> u8 {
        let i = asm::parse_insn(text, d, Skl).unwrap_or_else(|e| panic!("{text}: {e}"));
        codec::encode(&i, Skl).unwrap()[8] & 0x1F
    };
    let fbl = |r: &str| format!("(W) fbl (1|M0) r43.0<1>:ud {r}<0;1,0>:ud");
    assert_eq!(sub(&fbl("ce.4"), Dialect::Iga), 4);
    assert_eq!(sub(&fbl("ce.1"), Dialect::Iga), 1);
    assert_eq!(sub(&fbl("msg0.1"), Dialect::Iga), 1);
    assert_eq!(sub(&fbl("sp.1"), Dialect::Iga), 4);
    assert_eq!(sub(&fbl("ce.1"), Dialect::Prm), 4);
    // Printed back in bytes: src0 SubRegNum 2 of a ce:ud operand is `ce.2`.
    let i = decode("4c 00 00 00 0c 00 60 25 02 08 00 00 00 00 00 00", Skl);
    let text = asm::print_insn(&i, &opts(Dialect::Iga, Skl));
    assert!(text.ends_with("ce.2<0;1,0>:ud"), "{text}");
}
