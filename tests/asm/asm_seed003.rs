//! Every instruction of seed 003's kernels (tests/fixtures/seed003.asm, IGA style) parses, with
//! the fields the seed's text explains, and round-trips through every dialect.

use euref::asm::{self, Dialect, PrintOptions};
use euref::isa::{Addr, Dst, Imm, Insn, Reg, RegSrc, Region, SendDesc, SendInfo, Src};
use euref::spec::{AccessMode, DataType, Opcode, Platform};

const FIXTURE: &str = include_str!("../fixtures/seed003.asm");

/// The fixture's sections (`// ==== Figure N ...`): (title, text, instruction count).
fn sections() -> Vec<(String, String, usize)> {
    let mut out: Vec<(String, String, usize)> = Vec::new();
    for line in FIXTURE.lines() {
        if let Some(t) = line.strip_prefix("// ==== ") {
            out.push((t.to_string(), String::new(), 0));
            continue;
        }
        let Some(cur) = out.last_mut() else { continue };
        cur.1.push_str(line);
        cur.1.push('\n');
        let code = line.split("//").next().unwrap_or("").trim();
        if !code.is_empty() && !code.ends_with(':') {
            cur.2 += 1;
        }
    }
    out
}

#[test]
fn every_kernel_parses_as_iga() {
    let secs = sections();
    assert_eq!(secs.len(), 5);
    let mut total = 0;
    for (title, text, n) in &secs {
        assert_eq!(
            asm::detect_dialect(text.as_bytes()),
            Dialect::Iga,
            "{title}"
        );
        for d in [None, Some(Dialect::Iga)] {
            let prog = asm::parse(text.as_bytes(), d, Platform::Skl)
                .unwrap_or_else(|e| panic!("{title}: {e}"));
            assert_eq!(prog.insns.len(), *n, "{title}");
        }
        // Broadwell too (the seed's kernels are Gen8/Gen9).
        asm::parse(text.as_bytes(), None, Platform::Bdw).unwrap();
        total += n;
    }
    assert_eq!(total, 3 + 17 + 26 + 41 + 6);
}

#[test]
fn every_line_parses_alone_and_roundtrips() {
    for (title, text, _) in sections() {
        for line in text.lines() {
            let code = line.split("//").next().unwrap_or("").trim();
            if code.is_empty() || code.ends_with(':') {
                continue;
            }
            let insn = asm::parse_insn(line, Dialect::Iga, Platform::Skl)
                .unwrap_or_else(|e| panic!("{title}: `{line}`: {e}"));
            for d in Dialect::ALL {
                let o = PrintOptions {
                    dialect: d,
                    platform: Platform::Skl,
                };
                let s = asm::print_insn(&insn, &o);
                let back = asm::parse_insn(&s, d, Platform::Skl)
                    .unwrap_or_else(|e| panic!("`{line}` printed as {d} `{s}`: {e}"));
                assert_eq!(back, insn, "`{line}` through {d} `{s}`");
            }
        }
    }
}

fn one(s: &str) -> Insn {
    asm::parse_insn(s, Dialect::Iga, Platform::Skl).unwrap_or_else(|e| panic!("`{s}`: {e}"))
}

#[test]
fn the_annotated_fields() {
    // "(W) and (1|M0) r2.6<1>:ud r0.5<0;1,0>:ud 0x1FF:ud": NoMask, SIMD1, r2.6 is byte 24.
    let i = one("(W) and (1|M0) r2.6<1>:ud r0.5<0;1,0>:ud 0x1FF:ud");
    assert_eq!(i.op, Opcode::And);
    assert!(i.ctrl.no_mask);
    assert_eq!((i.exec_size, i.chan_off), (1, 0));
    assert_eq!(i.access, AccessMode::Align1);
    assert_eq!(i.dst, Some(Dst::new(Reg::Grf(2), 24, DataType::UD)));
    assert_eq!(
        i.src[0],
        Some(Src::Reg(RegSrc::new(
            Reg::Grf(0),
            20,
            DataType::UD,
            Region::SCALAR
        )))
    );
    assert_eq!(i.src[1], Some(Src::Imm(Imm::new(DataType::UD, 0x1FF))));

    // The exec-offset "(8|M24) consults the bits 24-31 of the execution mask".
    let i = one("mov (8|M24) r16.0<1>:ud 0x2A:ud");
    assert_eq!((i.exec_size, i.chan_off), (8, 24));

    // {Compacted}
    assert!(
        one("mov (8|M0) r7.0<1>:ud 0x2A:ud {Compacted}")
            .ctrl
            .compacted
    );

    // The end-of-thread send: extended descriptor 0x27 = SFID 7 (thread spawner) with the EOT
    // bit 5; the descriptor; {EOT}.
    let i = one("send (8|M0) null r127 0x27 0x2000010 {EOT}");
    assert!(i.ctrl.eot);
    assert_eq!(
        i.send,
        Some(SendInfo {
            sfid: 7,
            desc: SendDesc::Imm(0x8200_0010),
            ex_desc: SendDesc::Imm(0)
        })
    );
    assert_eq!(i.dst.unwrap().addr, Addr::reg(Reg::NULL));
    // A write to the data port (SFID 0xC, "dp data 1").
    let i = one("send (8|M16) null r11 0xC 0x60680FF");
    assert_eq!(i.send.unwrap().sfid, 12);
    assert!(!i.ctrl.eot);
    assert_eq!(
        i.src[0].unwrap().as_reg().unwrap().addr,
        Addr::reg(Reg::Grf(11))
    );

    // Figure 18's byte regions.
    let i = one("add(16|M0) r6.0<1>:w r1.14<16;8,0>:b r2.17<16;8,1>:b");
    let s0 = *i.src[0].unwrap().as_reg().unwrap();
    assert_eq!(
        s0.addr,
        Addr::Direct {
            reg: Reg::Grf(1),
            sub: 14
        }
    );
    assert_eq!(s0.region, Region::new(16, 8, 0));
    assert_eq!(s0.ty, DataType::B);
}
