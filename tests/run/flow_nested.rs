//! Nested if/else/endif under SIMD8 and SIMD16 with mixed predicates (expected values from
//! the flag bits, computed here), and SPF: a program with no divergence ends in the same
//! state with SPF on and off (flow.channel.spf).

use crate::flow_util::{put_ud, run, set_spf, state, try_run, ud};
use euref::spec::flow;
use euref::spec::Platform;
use euref::thread::RunError;
use proptest::prelude::*;

/// Outer if on f0.0 with a nested if (no else) in its then block and a nested if/else in its
/// else block; endif JIPs point at the next enclosing block end (mesa brw_set_uip_jip).
fn nested(p: Platform, n: u32) -> String {
    let two = |t: &str| {
        if p.gen_x10() >= 80 {
            format!("{t} {t}")
        } else {
            t.to_string()
        }
    };
    let add = |v: u32| format!("add ({n}|M0) r10.0<1>:ud r10.0<8;8,1>:ud {v:#x}:ud\n");
    format!(
        "mov ({n}|M0) r10.0<1>:ud 0x0:ud
(f0.0) if ({n}|M0) ELSEA ENDIFA
{a1}(f1.0) if ({n}|M0) ENDIFB ENDIFB
{a10}ENDIFB:
endif ({n}|M0) ELSEOUT
{a100}ELSEOUT:
else ({n}|M0) {ea}
ELSEA:
(f1.0) if ({n}|M0) ELSEC ENDIFC
{a2}else ({n}|M0) {ec}
ELSEC:
{a20}ENDIFC:
endif ({n}|M0) ENDIFA
ENDIFA:
endif ({n}|M0) NEXT
NEXT:
{a1000}",
        a1 = add(1),
        a10 = add(0x10),
        a100 = add(0x100),
        a2 = add(2),
        a20 = add(0x20),
        a1000 = add(0x1000),
        ea = two("ENDIFA"),
        ec = two("ENDIFC"),
    )
}

/// Channel `c`'s result from its two flag bits.
fn expect(f0: u32, f1: u32, c: usize) -> u32 {
    let (a, b) = (f0 >> c & 1 == 1, f1 >> c & 1 == 1);
    let v = if a {
        1 + if b { 0x10 } else { 0 } + 0x100
    } else if b {
        2
    } else {
        0x20
    };
    v + 0x1000
}

fn check(p: Platform, n: u32, f0: u32, f1: u32) {
    let dmask = (1u32 << n) - 1;
    let mut st = state(p, dmask, f0, f1);
    run(&mut st, &nested(p, n));
    let want: Vec<u32> = (0..n as usize).map(|c| expect(f0, f1, c)).collect();
    assert_eq!(
        ud(&st, 10, n as usize),
        want,
        "{p:?} SIMD{n} f0={f0:#x} f1={f1:#x}"
    );
}

#[test]
fn nested_if_else_simd8_and_simd16_fixed_cases() {
    for p in [Platform::Ivb, Platform::Hsw, Platform::Bdw, Platform::Skl] {
        for (f0, f1) in [
            (0xb2, 0x5c),
            (0, 0xff),
            (0xff, 0),
            (0xffff, 0xa5a5),
            (0x8001, 0x7ffe),
        ] {
            check(p, 8, f0 & 0xff, f1 & 0xff);
            check(p, 16, f0, f1);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn nested_if_else_mixed_predicates(f0 in any::<u16>(), f1 in any::<u16>(), wide in any::<bool>(), pi in 0usize..4) {
        let p = [Platform::Ivb, Platform::Hsw, Platform::Bdw, Platform::Skl][pi];
        let (n, m) = if wide { (16, 0xffff) } else { (8, 0xff) };
        check(p, n, u32::from(f0) & m, u32::from(f1) & m);
    }

    /// No divergence (each predicate all-true or all-false over the dispatched channels):
    /// the same final state with SPF on and off, for any register contents.
    #[test]
    fn spf_equals_the_uniform_case(a in any::<bool>(), b in any::<bool>(), init in proptest::collection::vec(any::<u32>(), 16), pi in 0usize..4) {
        let p = [Platform::Ivb, Platform::Hsw, Platform::Bdw, Platform::Skl][pi];
        let f = |x: bool| if x { 0xffff } else { 0 };
        let text = nested(p, 16);
        let mut off = state(p, 0xffff, f(a), f(b));
        put_ud(&mut off, 10, &init);
        let mut on = off.clone();
        set_spf(&mut on, true);
        let ips_off = run(&mut off, &text);
        let ips_on = run(&mut on, &text);
        prop_assert_eq!(ips_off, ips_on);
        set_spf(&mut on, false);
        prop_assert!(on == off);
    }
}

/// SPF with a predicate that splits the channels is refused (flow.channel.spf).
#[test]
fn spf_with_divergence_is_refused() {
    let mut st = state(Platform::Skl, 0xff, 0x0f, 0);
    set_spf(&mut st, true);
    match try_run(&mut st, &nested(Platform::Skl, 8), 100) {
        Err(RunError::Refused { row, ip, .. }) => {
            assert_eq!(row.id, flow::CHANNEL_SPF.id);
            assert_eq!(ip, 16);
        }
        other => panic!("{other:?}"),
    }
}

/// flow.else.branch-ctrl: Mesa's Gen8+ else has BranchCtrl set, JIP at a nop right before the
/// endif and UIP at the endif. The channels on the else go to the endif (UIP); IP goes to the
/// next instruction when channels wait there, else to JIP. With f0.0 = 0xb2 the else block
/// runs for the other channels: every instruction executes. With f0.0 = 0xff no channel waits
/// after the else: IP goes to JIP, the nop (no channel on it), then the endif; the else block's
/// mov is skipped. r10 = 1 where the flag bit is set, 2 elsewhere.
#[test]
fn else_with_branch_ctrl_joins_at_its_jip() {
    let text = "(f0.0) if (8|M0) ELSE0 ENDIF0
mov (8|M0) r10.0<1>:ud 0x1:ud
else.b (8|M0) NOP0 ENDIF0
ELSE0:
mov (8|M0) r10.0<1>:ud 0x2:ud
NOP0:
nop
ENDIF0:
endif (8|M0) NEXT0
NEXT0:
add (8|M0) r11.0<1>:ud r10.0<8;8,1>:ud 0x10:ud
";
    for p in [Platform::Bdw, Platform::Skl] {
        let mut st = state(p, 0xff, 0xb2, 0);
        assert_eq!(run(&mut st, text), [0, 16, 32, 48, 64, 80, 96], "{p:?}");
        let want: Vec<u32> = (0..8)
            .map(|n| if 0xb2 >> n & 1 == 1 { 1 } else { 2 })
            .collect();
        assert_eq!(ud(&st, 10, 8), want);
        let mut st = state(p, 0xff, 0xff, 0);
        assert_eq!(run(&mut st, text), [0, 16, 32, 64, 80, 96], "{p:?}");
        assert_eq!(ud(&st, 11, 8), [0x11; 8]);
    }
}
