//! The ARF register types added from seed003 Figure 15 (spec/registers.toml arf.ce, arf.msg,
//! arf.sp, arf.fc): their RegNum[7:4] codes map to the new `ArfKind` values, and Mesa's `mask0`
//! / IGA's `ce0` (RegNum 0x40, mesa brw_eu_defines.h BRW_ARF_MASK; iga Models.cpp "ce") parse
//! and print in every dialect.

use euref::asm::{self, Dialect, PrintOptions};
use euref::isa::{arf_kind, arf_lookup, arf_regnum, Addr, Reg};
use euref::spec::{ArfKind, Opcode, Platform};

use crate::asm_util;
use asm_util::parse_round_trip;

#[test]
fn new_arf_types_have_their_kinds() {
    // RegNum[7:4] codes from iga Models.cpp REGISTER_SPECIFICATIONS.
    assert_eq!(arf_kind(0x40), ArfKind::ChannelEnable);
    assert_eq!(arf_kind(0x50), ArfKind::MessageControl);
    assert_eq!(arf_kind(0x57), ArfKind::MessageControl);
    assert_eq!(arf_kind(0x60), ArfKind::StackPointer);
    assert_eq!(arf_kind(0xD0), ArfKind::FlowControl);
    assert_eq!(arf_kind(0xD4), ArfKind::FlowControl);
    // Still unmodelled: 1110b, 1111b (IGA's dbg).
    assert_eq!(arf_kind(0xE0), ArfKind::None);
    assert_eq!(arf_kind(0xF0), ArfKind::None);
    for (k, name) in [
        (ArfKind::ChannelEnable, "channel_enable"),
        (ArfKind::MessageControl, "message_control"),
        (ArfKind::StackPointer, "stack_pointer"),
        (ArfKind::FlowControl, "flow_control"),
    ] {
        assert_eq!(k.name(), name);
        assert_eq!(ArfKind::from_name(name), Some(k));
    }
    assert_eq!(Reg::Arf(0x40).arf_kind(), ArfKind::ChannelEnable);
}

#[test]
fn mask0_and_ce0_name_regnum_0x40() {
    // Mesa spells it mask, IGA ce: both are RegNum type 4.
    assert_eq!(arf_regnum(b"mask", 0), Some(0x40));
    assert_eq!(arf_regnum(b"ce", 0), Some(0x40));
    let a = arf_lookup(b"MASK").unwrap();
    assert_eq!((a.regtype, a.iga, a.mesa), (4, "ce", "mask"));
    // The mesa corpus' use (asm/gen8/fbl.asm, asm/gen9/fbl.asm).
    for p in [Platform::Bdw, Platform::Skl, Platform::Bxt] {
        let i = parse_round_trip(
            "fbl(1)          g27<1>UD        mask0<0,1,0>UD                  { align1 WE_all 1N };",
            p,
        );
        assert_eq!(i.op, Opcode::Fbl);
        let s = i.src[0].unwrap();
        let r = s.as_reg().unwrap();
        assert_eq!(r.addr, Addr::reg(Reg::Arf(0x40)));
        assert_eq!(Reg::Arf(0x40).arf_kind(), ArfKind::ChannelEnable);
        let mesa = asm::print_insn(
            &i,
            &PrintOptions {
                dialect: Dialect::Mesa,
                platform: p,
            },
        );
        assert!(mesa.contains("mask0"), "{mesa}");
        let iga = asm::print_insn(
            &i,
            &PrintOptions {
                dialect: Dialect::Iga,
                platform: p,
            },
        );
        assert!(iga.contains("ce"), "{iga}");
    }
    // IGA's spelling, read into the same register.
    let i = parse_round_trip("(W) mov (1|M0) r1.0<1>:ud ce0.0<0;1,0>:ud", Platform::Skl);
    assert_eq!(
        i.src[0].unwrap().as_reg().unwrap().addr,
        Addr::reg(Reg::Arf(0x40))
    );
}
