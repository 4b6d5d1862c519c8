//! goto and join on Gen8+ (spec/flow.toml `# ---- goto/join`), and jmpi with a register
//! offset (flow.jmpi.reg). Expected states derived by hand from the rows; common assumptions
//! as flow_examples.rs (SPF off, DMask 0xff, flags initialised, registers zero, native
//! 16-byte instructions from address 0).

use crate::flow_util::{put_ud, run, set_spf, state, try_run, ud};
use euref::spec::flow;
use euref::spec::Platform;
use euref::thread::RunError;

/// The platforms with goto and join.
const GEN8: [Platform; 4] = [Platform::Bdw, Platform::Chv, Platform::Skl, Platform::Bxt];

fn refused_row(r: Result<Vec<u32>, RunError>) -> (&'static str, u32) {
    match r {
        Err(RunError::Refused { row, ip, .. }) => (row.id, ip),
        other => panic!("{other:?}"),
    }
}

/// flow-facts X6:
///
///     0 mov r10 = 0   16 (f0.0) goto JOIN0 JOIN0   32 mov r10 = 1
///     48 JOIN0: join NEXT1   64 NEXT1: add r10 += 0x10
const X6: &str = "mov (8|M0) r10.0<1>:ud 0x0:ud
(f0.0) goto (8|M0) JOIN0 JOIN0
mov (8|M0) r10.0<1>:ud 0x1:ud
JOIN0:
join (8|M0) NEXT1
NEXT1:
add (8|M0) r10.0<1>:ud r10.0<8;8,1>:ud 0x10:ud
";

/// Divergent goto (flow.goto, flow.join): f0.0 = 0b1011_0010; the predicate-FALSE channels
/// 0, 2, 3, 6 wait at the UIP (48), the true ones 1, 4, 5, 7 run the mov at 32; the join
/// re-enables all eight; r10 = 0x10 / 0x11.
#[test]
fn x6_divergent_goto() {
    for p in GEN8 {
        let mut st = state(p, 0xff, 0b1011_0010, 0);
        assert_eq!(run(&mut st, X6), [0, 16, 32, 48, 64], "{p:?}");
        assert_eq!(
            ud(&st, 10, 8),
            [0x10, 0x11, 0x10, 0x10, 0x11, 0x11, 0x10, 0x11],
            "{p:?}"
        );
    }
}

/// Uniform goto: all predicates false, every channel waits at 48 and, none being left at 32,
/// IP goes to the JIP (48, flow.channel.no-channel-left): the mov is skipped, r10 = 0x10.
/// All true: no channel jumps, r10 = 0x11.
#[test]
fn x6_uniform_goto() {
    for p in GEN8 {
        let mut st = state(p, 0xff, 0, 0);
        assert_eq!(run(&mut st, X6), [0, 16, 48, 64], "{p:?}");
        assert_eq!(ud(&st, 10, 8), [0x10; 8], "{p:?}");
        let mut st = state(p, 0xff, 0xff, 0);
        assert_eq!(run(&mut st, X6), [0, 16, 32, 48, 64], "{p:?}");
        assert_eq!(ud(&st, 10, 8), [0x11; 8], "{p:?}");
        // SPF: the uniform goto runs as with SPF off (flow.channel.spf).
        let mut st = state(p, 0xff, 0, 0);
        set_spf(&mut st, true);
        assert_eq!(run(&mut st, X6), [0, 16, 48, 64], "{p:?}");
    }
}

/// JIP and UIP differ (flow.goto): goto A sends 4-7 (f0.0 false) to J0; goto B, reached by
/// 0-3, sends all of them (f1.0 = 0) to its UIP J1; no channel is left at 32, so IP goes to
/// B's JIP J0, where 4-7 wake up and run the mov r11 = 2; the join at J1 re-enables all.
/// Had IP gone to the UIP, 4-7 would never run the mov.
///
///     0 (f0.0) goto J0 J0   16 (f1.0) goto J0 J1   32 mov r10 = 1
///     48 J0: join J1   64 mov r11 = 2   80 J1: join END   96 END
#[test]
fn goto_jip_is_the_next_join() {
    let text = "(f0.0) goto (8|M0) J0 J0
(f1.0) goto (8|M0) J0 J1
mov (8|M0) r10.0<1>:ud 0x1:ud
J0:
join (8|M0) J1
mov (8|M0) r11.0<1>:ud 0x2:ud
J1:
join (8|M0) END
END:
";
    for p in GEN8 {
        let mut st = state(p, 0xff, 0b0000_1111, 0);
        assert_eq!(run(&mut st, text), [0, 16, 48, 64, 80], "{p:?}");
        assert_eq!(ud(&st, 10, 8), [0; 8], "{p:?}");
        assert_eq!(ud(&st, 11, 8), [0, 0, 0, 0, 2, 2, 2, 2], "{p:?}");
    }
}

/// A goto region inside an if block is run (no structured branch between the goto and its
/// UIP: flow.goto.mixed allows it). f0.0 = 0xff: every channel takes the then block; f1.0 =
/// 0b0101_0101: 1, 3, 5, 7 wait at J0; 0, 2, 4, 6 run mov r10 = 1; all add 0x10 after the
/// join; the else is skipped (IP to its JIP, the endif).
///
///     0 (f0.0) if ELSE0 ENDIF0   16 (f1.0) goto J0 J0   32 mov r10 = 1   48 J0: join AFTER
///     64 AFTER: add r10 += 0x10   80 else ENDIF0 ENDIF0   96 ELSE0: mov r10 = 7
///     112 ENDIF0: endif NEXT   128 NEXT
#[test]
fn goto_nested_in_an_if_block() {
    let text = "(f0.0) if (8|M0) ELSE0 ENDIF0
(f1.0) goto (8|M0) J0 J0
mov (8|M0) r10.0<1>:ud 0x1:ud
J0:
join (8|M0) AFTER
AFTER:
add (8|M0) r10.0<1>:ud r10.0<8;8,1>:ud 0x10:ud
else (8|M0) ENDIF0 ENDIF0
ELSE0:
mov (8|M0) r10.0<1>:ud 0x7:ud
ENDIF0:
endif (8|M0) NEXT
NEXT:
";
    for p in GEN8 {
        let mut st = state(p, 0xff, 0xff, 0b0101_0101);
        assert_eq!(run(&mut st, text), [0, 16, 32, 48, 64, 80, 112], "{p:?}");
        assert_eq!(
            ud(&st, 10, 8),
            [0x11, 0x10, 0x11, 0x10, 0x11, 0x10, 0x11, 0x10],
            "{p:?}"
        );
    }
}

/// What the goto/join rows leave undefined is refused naming the row.
#[test]
fn goto_refusals_name_their_rows() {
    let cases: [(&str, &str, u32); 6] = [
        // flow.goto.unpredicated
        (
            "goto (8|M0) 32 32\nnop\njoin (8|M0) 16\n",
            "flow.goto.unpredicated",
            0,
        ),
        // flow.goto.branch-ctrl
        (
            "(f0.0) goto (8|M0) 32 32 {BranchCtrl}\nnop\njoin (8|M0) 16\n",
            "flow.goto.branch-ctrl",
            0,
        ),
        // flow.goto.backward
        (
            "join (8|M0) 16\n(f0.0) goto (8|M0) -16 -16\nnop\n",
            "flow.goto.backward",
            16,
        ),
        // flow.goto.mixed: an endif between the goto and its UIP.
        (
            "(f0.0) goto (8|M0) 48 48\nnop\nendif (8|M0) 32\njoin (8|M0) 16\n",
            "flow.goto.mixed",
            0,
        ),
        // flow.join: a predicated join.
        ("(f0.0) join (8|M0) 16\nnop\n", "flow.join", 0),
        // NoMask: flow.structured-nomask.
        ("(W) join (8|M0) 16\nnop\n", "flow.structured-nomask", 0),
    ];
    for p in GEN8 {
        for (text, id, ip) in cases {
            let mut st = state(p, 0xff, 0, 0);
            assert_eq!(
                refused_row(try_run(&mut st, text, 100)),
                (id, ip),
                "{p:?} {text}"
            );
        }
    }
    // goto and join do not exist before Gen8: the assembler says so.
    for p in [Platform::Ivb, Platform::Hsw] {
        for text in ["(f0.0) goto (8|M0) 32 32\n", "join (8|M0) 16\n"] {
            let r = euref::asm::parse(text.as_bytes(), Some(euref::asm::Dialect::Iga), p);
            assert!(r.is_err(), "{p:?} {text}");
        }
    }
    assert_eq!(flow::GOTO.status, "defined");
}

/// jmpi with a register offset (flow.jmpi.reg): the first jmpi (immediate, IGA's offset from
/// the jmpi) goes to 32; the jmpi there reads r2.0 = -32 (D) and goes to its next (48) - 32 =
/// 16; the jmpi at 16 reads r3.0 = 16 and goes to 32 + 16 = 48.
///
///     0 (W) jmpi 32   16 (W) jmpi r3.0   32 (W) jmpi r2.0   48 mov r8 = 2
#[test]
fn jmpi_with_a_register_offset() {
    let text = "(W) jmpi (1|M0) 32
(W) jmpi (1|M0) r3.0
(W) jmpi (1|M0) r2.0
mov (8|M0) r8.0<1>:ud 0x2:ud
";
    for p in [
        Platform::Hsw,
        Platform::Bdw,
        Platform::Chv,
        Platform::Skl,
        Platform::Bxt,
    ] {
        let mut st = state(p, 0xff, 0, 0);
        put_ud(&mut st, 2, &[(-32i32) as u32]);
        put_ud(&mut st, 3, &[16]);
        assert_eq!(run(&mut st, text), [0, 32, 16, 48], "{p:?}");
        assert_eq!(ud(&st, 8, 8), [2; 8], "{p:?}");
    }
}

/// A predicated jmpi reads its register only when its flag bit holds: with f0.0 bit 0 clear
/// it falls through although r4 is undefined; with it set the undefined offset is refused
/// (flow.jmpi.reg). On Ivybridge jmpi is refused whatever its operand (flow.jmpi.ivb);
/// a group predicate (`.any4h`) is refused (flow.jmpi: no source gives the group of a scalar jump).
#[test]
fn jmpi_register_refusals() {
    let text = "(f0.0) jmpi (1|M0) r4.0\nmov (8|M0) r8.0<1>:ud 0x2:ud\n";
    let mut st = state(Platform::Skl, 0xff, 0xfe, 0);
    st.write_grf(4 * 32, 4, 0, true).expect("r4");
    assert_eq!(run(&mut st, text), [0, 16]);
    assert_eq!(ud(&st, 8, 8), [2; 8]);
    let mut st = state(Platform::Skl, 0xff, 0x01, 0);
    st.write_grf(4 * 32, 4, 0, true).expect("r4");
    assert_eq!(
        refused_row(try_run(&mut st, text, 10)),
        ("flow.jmpi.reg", 0)
    );
    let mut st = state(Platform::Ivb, 0xff, 0x01, 0);
    assert_eq!(
        refused_row(try_run(&mut st, text, 10)),
        ("flow.jmpi.ivb", 0)
    );
    let mut st = state(Platform::Skl, 0xff, 0xff, 0);
    let group = "(f0.0.any4h) jmpi (1|M0) r4.0\nnop\n";
    assert_eq!(refused_row(try_run(&mut st, group, 10)), ("flow.jmpi", 0));
}
