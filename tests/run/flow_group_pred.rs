//! Group and Align16 replicate predicates on structured branches (flow.predicate.group): an
//! `if` whose then block writes 1 to r10 shows which dispatched channels the predicate takes.
//! The expected masks are worked out by hand from the flag bits in each comment.

use crate::flow_util::{put_ud, run, state, try_run, ud};
use euref::asm::{self, Dialect};
use euref::exec::ExecOptions;
use euref::spec::Platform;
use euref::thread::{Image, RunError, Thread};

/// r10 after `(pred) if (n) ...mov r10 = 1... endif` with r10 = 0 before: bit c of the result
/// is channel c's r10.
fn taken(p: Platform, pred: &str, n: u32, dmask: u32, f0: u32) -> u32 {
    let text = format!(
        "({pred}) if ({n}|M0) ENDIF0 ENDIF0
mov ({n}|M0) r10.0<1>:ud 0x1:ud
ENDIF0:
endif ({n}|M0) NEXT0
NEXT0:
nop
"
    );
    let mut st = state(p, dmask, f0, 0);
    put_ud(&mut st, 10, &vec![0; n as usize]);
    run(&mut st, &text);
    ud(&st, 10, n as usize)
        .iter()
        .enumerate()
        .fold(0, |m, (c, &v)| m | v << c)
}

/// f0.0 = 0x1b06: flag bits 1, 2, 8, 9, 11, 12 set.
#[test]
fn horizontal_groups_over_sixteen_channels() {
    let f0 = 0x1b06;
    let cases: [(&str, u32); 12] = [
        // pairs (0,1) (2,3) (8,9) (10,11) (12,13) have a bit set
        ("f0.0.any2h", 0x3f0f),
        // only (8,9) has both
        ("f0.0.all2h", 0x0300),
        ("~f0.0.all2h", 0xfcff),
        // groups of four: 0x6, 0x0, 0xb, 0x1
        ("f0.0.any4h", 0xff0f),
        ("~f0.0.any4h", 0x00f0),
        ("f0.0.all4h", 0x0000),
        // groups of eight: 0x06, 0x1b
        ("f0.0.any8h", 0xffff),
        ("f0.0.all8h", 0x0000),
        ("f0.0.any16h", 0xffff),
        ("~f0.0.any16h", 0x0000),
        ("f0.0.all16h", 0x0000),
        // sequential, for comparison
        ("f0.0", 0x1b06),
    ];
    for p in [Platform::Hsw, Platform::Skl] {
        for (pred, want) in cases {
            assert_eq!(taken(p, pred, 16, 0xffff, f0), want, "{p:?} ({pred})");
        }
    }
}

/// The group of 32 of a SIMD16 dispatch also reads f0.1 (flag bits of channels 16-31, not
/// dispatched); the groups are counted from channel 0 of the thread, so a SIMD8 if with
/// .any16h reads channels 8-15's bits too.
#[test]
fn groups_read_the_bits_of_channels_not_dispatched() {
    let p = Platform::Skl;
    // Only flag bit 16 (f0.1 bit 0) set.
    assert_eq!(taken(p, "f0.0.any16h", 16, 0xffff, 0x1_0000), 0);
    assert_eq!(taken(p, "f0.0.any32h", 16, 0xffff, 0x1_0000), 0xffff);
    // f0.0 all set, f0.1 not: all16h holds, all32h does not.
    assert_eq!(taken(p, "f0.0.all16h", 16, 0xffff, 0xffff), 0xffff);
    assert_eq!(taken(p, "f0.0.all32h", 16, 0xffff, 0xffff), 0);
    assert_eq!(taken(p, "f0.0.all32h", 16, 0xffff, 0xffff_ffff), 0xffff);
    // SIMD8 dispatch, only bit 12 set: any16h takes channels 0-7, any8h none.
    assert_eq!(taken(p, "f0.0.any16h", 8, 0xff, 0x1000), 0xff);
    assert_eq!(taken(p, "f0.0.any8h", 8, 0xff, 0x1000), 0);
}

/// A group bit that is undefined makes the branch's outcome unknown: refused naming
/// flow.predicate.group; f0.1 with .any32h is refused too (the group does not start at a
/// multiple of 32 flag bits).
#[test]
fn undefined_or_unaligned_groups_are_refused() {
    let p = Platform::Skl;
    let text =
        "(f0.0.any4h) if (8|M0) ENDIF0 ENDIF0\nnop\nENDIF0:\nendif (8|M0) NEXT0\nNEXT0:\nnop\n";
    let mut st = state(p, 0xff, 0, 0);
    // Flag bit 5 undefined: channels 4-7 of the if are unknown.
    st.set_flag(0, 0, 1 << 5).expect("f0");
    match try_run(&mut st, text, 10) {
        Err(RunError::Refused { row, ip, detail }) => {
            assert_eq!((row.id, ip), ("flow.predicate.group", 0));
            assert!(detail.contains("0xf0"), "{detail}");
        }
        other => panic!("{other:?}"),
    }
    // Bit 5 undefined but bit 4 set: the group's any is decided.
    let mut st = state(p, 0xff, 0x10, 0);
    st.set_flag(0, 0x10, 1 << 5).expect("f0");
    assert!(try_run(&mut st, text, 10).is_ok());
    let text =
        "(f0.1.any32h) if (8|M0) ENDIF0 ENDIF0\nnop\nENDIF0:\nendif (8|M0) NEXT0\nNEXT0:\nnop\n";
    let mut st = state(p, 0xff, 0, 0);
    match try_run(&mut st, text, 10) {
        Err(RunError::Refused { row, ip, .. }) => {
            assert_eq!((row.id, ip), ("flow.predicate.group", 0))
        }
        other => panic!("{other:?}"),
    }
}

/// Align16 replicate predicates on Haswell (Mesa syntax, as Mesa's vec4 backend writes them):
/// channel c takes flag bit 4 * (c / 4) + k for .x/.y/.z/.w (k = 0..3). f0.0 = 0x1b06 with
/// SIMD8: groups 0x6 and 0x0 (bits 0-3, 4-7).
#[test]
fn align16_replicate_predicates() {
    let f0 = 0x1b06;
    for (swz, want) in [("x", 0x00u32), ("y", 0x0f), ("z", 0x0f), ("w", 0x00)] {
        let text = format!(
            "mov(8) g10<1>UD 0x00000000UD {{ align1 1Q }};
(+f0.0.{swz}) if(8) JIP: LABEL0 UIP: LABEL0 {{ align16 1Q }};
mov(8) g10<1>UD 0x00000001UD {{ align1 1Q }};
LABEL0:
endif(8) JIP: LABEL1 {{ align16 1Q }};
LABEL1:
nop ;
"
        );
        let p = Platform::Hsw;
        let prog = asm::parse(text.as_bytes(), Some(Dialect::Mesa), p)
            .unwrap_or_else(|e| panic!("{}:{}: {}\n{text}", e.line, e.col, e.msg));
        let img = Image::from_insns(p, &prog.insns, 0).expect("encodes");
        let mut st = state(p, 0xff, f0, 0);
        let mut t = Thread::new(img, &mut st).expect("thread");
        t.run(
            &mut st,
            &ExecOptions {
                strict: true,
                ..ExecOptions::default()
            },
            100,
        )
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let got = ud(&st, 10, 8)
            .iter()
            .enumerate()
            .fold(0, |m, (c, &v)| m | v << c);
        assert_eq!(got, want, ".{swz}");
    }
}
