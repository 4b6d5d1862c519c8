//! The hand-checked programs of flow-facts §4 (X1-X5), expected values derived by hand from
//! the spec/flow.toml rows. Common assumptions (flow-facts §4): SPF off, DMask = the program's
//! channels, VME off, every dispatched channel's flag bits initialised, registers zero.

use crate::flow_util::{put_ud, run, state, try_run, ud};
use euref::spec::flow;
use euref::spec::Platform;
use euref::thread::RunError;

/// X1/X2: if/else/endif; `else` has two targets from Gen8 (flow.else.gen8), one before.
fn x1(p: Platform) -> String {
    let else_targets = if p.gen_x10() >= 80 {
        "ENDIF0 ENDIF0"
    } else {
        "ENDIF0"
    };
    format!(
        "mov (8|M0) r10.0<1>:ud 0x0:ud
(f0.0) if (8|M0) ELSE0 ENDIF0
mov (8|M0) r10.0<1>:ud 0x1:ud
else (8|M0) {else_targets}
ELSE0:
mov (8|M0) r10.0<1>:ud 0x2:ud
ENDIF0:
endif (8|M0) NEXT0
NEXT0:
add (8|M0) r10.0<1>:ud r10.0<8;8,1>:ud 0x10:ud
"
    )
}

const ALL: [Platform; 4] = [Platform::Ivb, Platform::Hsw, Platform::Bdw, Platform::Skl];

/// X1: taken channels 1,4,5,7 run the then block, 0,2,3,6 the else block; all meet at the
/// endif. Every instruction runs once. Rows: flow.channel.pcip, flow.channel.enable (each mov
/// writes only the channels on it), flow.if, flow.else.gen7 (ivb, hsw), flow.else.gen8,
/// flow.endif.
#[test]
fn x1_divergent_if_else() {
    for p in ALL {
        let mut st = state(p, 0xff, 0b1011_0010, 0);
        let ips = run(&mut st, &x1(p));
        assert_eq!(ips, [0, 16, 32, 48, 64, 80, 96], "{p:?}");
        assert_eq!(
            ud(&st, 10, 8),
            [0x12, 0x11, 0x12, 0x12, 0x11, 0x11, 0x12, 0x11],
            "{p:?}"
        );
    }
}

/// X2 (flow.channel.no-channel-left): no channel taken: the if sends every channel to ELSE0 and IP follows (JIP), skipping
/// the then block and the else; all taken: the else sends every channel to the endif and IP
/// jumps there (no channel waits at ELSE0).
#[test]
fn x2_uniform_if_skips_the_untaken_block() {
    for p in ALL {
        let mut st = state(p, 0xff, 0x00, 0);
        assert_eq!(run(&mut st, &x1(p)), [0, 16, 64, 80, 96], "{p:?}");
        assert_eq!(ud(&st, 10, 8), [0x12; 8]);
        let mut st = state(p, 0xff, 0xff, 0);
        assert_eq!(run(&mut st, &x1(p)), [0, 16, 32, 48, 80, 96], "{p:?}");
        assert_eq!(ud(&st, 10, 8), [0x11; 8]);
    }
}

/// X3 (flow.while): a while loop with a different trip count per channel (r2 = 1..8): channel n runs the
/// body n+1 times; the body and the while run 8 times; the add after the loop once with all
/// channels.
#[test]
fn x3_while_trip_count_per_channel() {
    let text = "mov (8|M0) r3.0<1>:ud 0x0:ud
LOOP:
add (8|M0) r3.0<1>:ud r3.0<8;8,1>:ud 0x1:ud
cmp (8|M0) (lt)f0.0 r9.0<1>:ud r3.0<8;8,1>:ud r2.0<8;8,1>:ud
(f0.0) while (8|M0) LOOP
add (8|M0) r4.0<1>:ud r3.0<8;8,1>:ud 0x100:ud
";
    for p in ALL {
        let mut st = state(p, 0xff, 0, 0);
        put_ud(&mut st, 2, &[1, 2, 3, 4, 5, 6, 7, 8]);
        let ips = run(&mut st, text);
        assert_eq!(ips.iter().filter(|&&a| a == 16).count(), 8, "{p:?}");
        assert_eq!(ips.iter().filter(|&&a| a == 48).count(), 8, "{p:?}");
        assert_eq!(ips.iter().filter(|&&a| a == 64).count(), 1, "{p:?}");
        assert_eq!(ud(&st, 3, 8), [1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(
            ud(&st, 4, 8),
            [0x101, 0x102, 0x103, 0x104, 0x105, 0x106, 0x107, 0x108]
        );
    }
}

/// X4 (flow.halt): halt to a common UIP: channels 0-3 halt at once, 4-7 run the mov and halt later; all
/// resume at END.
#[test]
fn x4_halt_to_a_common_uip() {
    let text = "(f0.0) halt (8|M0) END END
mov (8|M0) r5.0<1>:ud 0x1:ud
halt (8|M0) END END
END:
mov (8|M0) r6.0<1>:ud 0x2:ud
";
    for p in ALL {
        let mut st = state(p, 0xff, 0b0000_1111, 0);
        assert_eq!(run(&mut st, text), [0, 16, 32, 48], "{p:?}");
        assert_eq!(ud(&st, 5, 8), [0, 0, 0, 0, 1, 1, 1, 1]);
        assert_eq!(ud(&st, 6, 8), [2; 8]);
    }
}

/// Halting to two different UIPs while channels still wait at the first is refused
/// (flow.halt.same-uip).
#[test]
fn halt_to_different_uips_is_refused() {
    let text = "(f0.0) halt (8|M0) A A
halt (8|M0) B B
A:
mov (8|M0) r5.0<1>:ud 0x1:ud
B:
mov (8|M0) r6.0<1>:ud 0x2:ud
";
    let mut st = state(Platform::Skl, 0xff, 0x0f, 0);
    match try_run(&mut st, text, 1000) {
        Err(RunError::Refused { row, ip, .. }) => {
            assert_eq!(row.id, flow::HALT_SAME_UIP.id);
            assert_eq!(ip, 16);
        }
        other => panic!("{other:?}"),
    }
}

/// X5: jmpi (flow.jmpi): IGA's offset counts from the jmpi itself (field + 16), so `32`
/// skips one instruction. Predicated on f0.0 bit 0: not taken when it is 0.
#[test]
fn x5_jmpi_uniform_and_predicated() {
    for p in [Platform::Hsw, Platform::Bdw, Platform::Skl] {
        let plain = "(W) jmpi (1|M0) 32
mov (8|M0) r7.0<1>:ud 0x1:ud
mov (8|M0) r8.0<1>:ud 0x2:ud
";
        let mut st = state(p, 0xff, 0, 0);
        assert_eq!(run(&mut st, plain), [0, 32], "{p:?}");
        assert_eq!(ud(&st, 7, 8), [0; 8]);
        assert_eq!(ud(&st, 8, 8), [2; 8]);
        let pred = plain.replace("(W) jmpi", "(W&f0.0) jmpi");
        let mut st = state(p, 0xff, 0xfffe, 0);
        assert_eq!(run(&mut st, &pred), [0, 16, 32], "{p:?}");
        assert_eq!(ud(&st, 7, 8), [1; 8]);
        let mut st = state(p, 0xff, 0x0001, 0);
        assert_eq!(run(&mut st, &pred), [0, 32], "{p:?}");
    }
    // Ivybridge: the offset's unit has no source (flow.jmpi.ivb).
    let mut st = state(Platform::Ivb, 0xff, 0, 0);
    match try_run(&mut st, "(W) jmpi (1|M0) 32\nnop\nnop\n", 10) {
        Err(RunError::Refused { row, .. }) => assert_eq!(row.id, flow::JMPI_IVB.id),
        other => panic!("{other:?}"),
    }
}

/// A write to ip jumps (flow.ip-write): `mov (1) ip` with the address of the last
/// instruction skips the one between.
#[test]
fn mov_to_ip_jumps() {
    let text = "(W) mov (1|M0) ip<1>:ud 0x20:ud
mov (8|M0) r7.0<1>:ud 0x1:ud
mov (8|M0) r8.0<1>:ud 0x2:ud
";
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    assert_eq!(run(&mut st, text), [0, 32]);
    assert_eq!(ud(&st, 7, 8), [0; 8]);
    assert_eq!(ud(&st, 8, 8), [2; 8]);
}

/// What the rows leave undefined is refused naming the row: brd/brc (flow.brc-brd), goto
/// with BranchCtrl (flow.goto.branch-ctrl), anyv predicates (flow.predicate.anyv-allv) on branches, a predicated branch reading undefined flag bits.
#[test]
fn undefined_rows_are_refused_by_id() {
    let cases: [(&str, &str, u32); 3] = [
        ("brd (8|M0) 16\nnop\n", flow::BRC_BRD.id, 0),
        (
            "(f0.0.anyv) if (8|M0) 32 32\nnop\nendif (8|M0) 16\n",
            flow::PREDICATE_ANYV_ALLV.id,
            0,
        ),
        (
            "(f0.0) goto (8|M0) 32 32 {BranchCtrl}\nnop\njoin (8|M0) 16\n",
            flow::GOTO_BRANCH_CTRL.id,
            0,
        ),
    ];
    for (text, id, _) in cases {
        let mut st = state(Platform::Skl, 0xff, 0, 0);
        match try_run(&mut st, text, 10) {
            Err(RunError::Refused { row, .. }) => assert_eq!(row.id, id, "{text}"),
            other => panic!("{text}: {other:?}"),
        }
    }
    // Undefined flags: the branch's outcome is unknown (flow.channel.dispatched).
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    st.set_flag(0, 0, 0x80).expect("flag");
    match try_run(&mut st, &x1(Platform::Skl), 10) {
        Err(RunError::Refused { row, ip, .. }) => {
            assert_eq!(row.id, flow::CHANNEL_DISPATCHED.id);
            assert_eq!(ip, 16);
        }
        other => panic!("{other:?}"),
    }
}
