//! Loops: break (flow-facts X7; the runner's assumption of flow.break), break and cont with
//! a different trip count per channel, and the step limit of a runaway loop.

use crate::flow_util::{put_ud, run, state, try_run, ud};
use euref::spec::Platform;
use euref::thread::RunError;

const ALL: [Platform; 4] = [Platform::Ivb, Platform::Hsw, Platform::Bdw, Platform::Skl];

/// X7: break channels wait for the loop exit (flow.break): r3 = the limit, the break runs
/// 8 times, the add after the loop once with all channels.
#[test]
fn x7_break_waits_for_the_loop_exit() {
    let text = "mov (8|M0) r3.0<1>:ud 0x0:ud
LOOP:
add (8|M0) r3.0<1>:ud r3.0<8;8,1>:ud 0x1:ud
cmp (8|M0) (ge)f0.0 r9.0<1>:ud r3.0<8;8,1>:ud r2.0<8;8,1>:ud
(f0.0) break (8|M0) WHILE0 WHILE0
WHILE0:
while (8|M0) LOOP
add (8|M0) r4.0<1>:ud r3.0<8;8,1>:ud 0x100:ud
";
    for p in ALL {
        let mut st = state(p, 0xff, 0, 0);
        put_ud(&mut st, 2, &[1, 2, 3, 4, 5, 6, 7, 8]);
        let ips = run(&mut st, text);
        assert_eq!(ips.iter().filter(|&&a| a == 48).count(), 8, "{p:?}");
        assert_eq!(ips.iter().filter(|&&a| a == 80).count(), 1, "{p:?}");
        assert_eq!(ud(&st, 3, 8), [1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(
            ud(&st, 4, 8),
            [0x101, 0x102, 0x103, 0x104, 0x105, 0x106, 0x107, 0x108]
        );
    }
}

/// A loop with break and cont (flow.break, flow.cont): channel n counts i = 1, 2, ... up to its limit L[n] (break
/// when i >= L), skips even i (cont) and sums the odd i below L. Expected: computed here.
#[test]
fn break_and_cont_with_per_channel_trip_counts() {
    let text = "mov (8|M0) r3.0<1>:ud 0x0:ud
mov (8|M0) r4.0<1>:ud 0x0:ud
LOOP:
add (8|M0) r3.0<1>:ud r3.0<8;8,1>:ud 0x1:ud
cmp (8|M0) (ge)f0.0 r9.0<1>:ud r3.0<8;8,1>:ud r2.0<8;8,1>:ud
(f0.0) break (8|M0) WHILEL WHILEL
and (8|M0) r5.0<1>:ud r3.0<8;8,1>:ud 0x1:ud
cmp (8|M0) (eq)f0.1 r9.0<1>:ud r5.0<8;8,1>:ud 0x0:ud
(f0.1) cont (8|M0) WHILEL WHILEL
add (8|M0) r4.0<1>:ud r4.0<8;8,1>:ud r3.0<8;8,1>:ud
WHILEL:
while (8|M0) LOOP
add (8|M0) r6.0<1>:ud r4.0<8;8,1>:ud 0x1000:ud
";
    let limits = [1u32, 7, 2, 9, 4, 3, 12, 5];
    let sums: Vec<u32> = limits
        .iter()
        .map(|&l| (1..l).filter(|i| i % 2 == 1).sum())
        .collect();
    for p in ALL {
        let mut st = state(p, 0xff, 0, 0);
        put_ud(&mut st, 2, &limits);
        let ips = run(&mut st, text);
        assert_eq!(ud(&st, 3, 8), limits, "{p:?}");
        assert_eq!(ud(&st, 4, 8), sums, "{p:?}");
        let after: Vec<u32> = sums.iter().map(|s| s + 0x1000).collect();
        assert_eq!(ud(&st, 6, 8), after, "{p:?}");
        // The loop body's first add runs max(L) times; the final add once.
        assert_eq!(ips.iter().filter(|&&a| a == 32).count(), 12, "{p:?}");
        assert_eq!(ips.iter().filter(|&&a| a == 160).count(), 1, "{p:?}");
    }
}

/// A loop that never ends stops at the step limit naming the loop's instructions.
#[test]
fn runaway_loop_stops_at_the_step_limit() {
    let text = "mov (8|M0) r3.0<1>:ud 0x0:ud
LOOP:
add (8|M0) r3.0<1>:ud r3.0<8;8,1>:ud 0x1:ud
while (8|M0) LOOP
mov (8|M0) r4.0<1>:ud 0x1:ud
";
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    match try_run(&mut st, text, 1001) {
        Err(RunError::StepLimit { limit, loop_ips }) => {
            assert_eq!(limit, 1001);
            assert_eq!(loop_ips, [16, 32]);
        }
        other => panic!("{other:?}"),
    }
    // 1 + 2 * 500 steps: the add ran 500 times.
    assert_eq!(ud(&st, 3, 8), [500; 8]);
}
