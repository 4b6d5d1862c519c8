//! Issue 27 class 10: the assemblers refuse reserved operands with an error at the operand
//! (rows enc.grf-reg-nr, enc.dst-hstride, enc.ret-src0-register), in every dialect that can
//! write them. Columns are counted by hand in the texts (1-based bytes).

use euref::asm::{self, Dialect};
use euref::spec::Platform::{self, *};

fn err(text: &str, d: Dialect, p: Platform) -> euref::asm::AsmError {
    match asm::parse_insn(text, d, p) {
        Ok(i) => panic!("`{text}` on {} assembled to {i:?}", p.name()),
        Err(e) => e,
    }
}

/// r128 and up: the GRF has r0-r127 (regfile.grf); the error points at the number.
#[test]
fn grf_numbers_from_128_are_refused() {
    for p in [Ivb, Hsw, Bdw, Skl] {
        // `mov (8|M0) ` is 11 bytes: the destination's `r` is column 12, its number 13.
        let e = err("mov (8|M0) r128.0<1>:ud r3.0<8;8,1>:ud", Dialect::Iga, p);
        assert_eq!((e.line, e.col), (1, 13), "{e}");
        assert!(e.msg.contains("128") && e.msg.contains("0-127"), "{e}");
        // `mov (8|M0) r2.0<1>:ud ` is 22 bytes: src0 `r255` at column 23, its number 24.
        let e = err("mov (8|M0) r2.0<1>:ud r255.0<8;8,1>:ud", Dialect::Iga, p);
        assert_eq!((e.line, e.col), (1, 24), "{e}");
        assert!(e.msg.contains("255"), "{e}");
        // r127 is the last register.
        assert!(asm::parse_insn("mov (8|M0) r127.0<1>:ud r3.0<8;8,1>:ud", Dialect::Iga, p).is_ok());
    }
    let e = err("mov(8) g200<1>UD g3<8,8,1>UD", Dialect::Mesa, Skl);
    assert_eq!((e.line, e.col), (1, 9), "{e}");
}

/// A destination stride `<0>` is reserved, also on null (enc.dst-hstride).
#[test]
fn destination_stride_zero_is_refused() {
    for p in [Ivb, Hsw, Bdw, Skl] {
        // `<` of `<0>` after `mov (8|M0) r2.0` (15 bytes): column 16.
        let e = err("mov (8|M0) r2.0<0>:ud r3.0<8;8,1>:ud", Dialect::Iga, p);
        assert_eq!((e.line, e.col), (1, 16), "{e}");
        assert!(e.msg.contains("<0>") && e.msg.contains("reserved"), "{e}");
        let e = err("mov (8|M0) null<0>:ud r3.0<8;8,1>:ud", Dialect::Iga, p);
        assert_eq!((e.line, e.col), (1, 16), "{e}");
    }
}

/// ret reads its return address from a register; an immediate is refused where it stands.
#[test]
fn ret_with_an_immediate_is_refused() {
    for p in [Ivb, Hsw, Bdw, Skl] {
        assert!(asm::parse_insn("ret (1|M0) r2.0<0;1,0>:ud", Dialect::Iga, p).is_ok());
        // `ret (1|M0) ` is 11 bytes: the immediate is at column 12.
        let e = err("ret (1|M0) 0x10:ud", Dialect::Iga, p);
        assert_eq!((e.line, e.col), (1, 12), "{e}");
        assert!(e.msg.contains("register"), "{e}");
    }
}
