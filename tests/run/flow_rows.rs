//! The spec/flow.toml rows one by one where the example programs do not already show them:
//! what the runner refuses (each error names its row) and the end of a program.

use crate::flow_util::{image, run, set_spf, state, try_run, ud};
use euref::exec::ExecOptions;
use euref::spec::flow;
use euref::spec::Platform;
use euref::thread::{ImageError, RunError, Thread};

/// The row ID of a refusal, or a panic with what happened instead.
fn refused_row(r: Result<Vec<u32>, RunError>) -> (&'static str, u32) {
    match r {
        Err(RunError::Refused { row, ip, .. }) => (row.id, ip),
        other => panic!("{other:?}"),
    }
}

/// flow.channel.no-channel-left: every channel halts to B, no channel is left at the next
/// instruction, so IP goes to the halt's JIP (A) and steps through the instruction there
/// with no channel on it (no effect); flow.channel.nomask-no-channel: the same with a NoMask
/// instruction at A is refused.
#[test]
fn ip_steps_through_an_instruction_with_no_channel() {
    let text = "halt (8|M0) A B
mov (8|M0) r4.0<1>:ud 0x4:ud
A:
mov (8|M0) r5.0<1>:ud 0x5:ud
B:
mov (8|M0) r6.0<1>:ud 0x6:ud
";
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    assert_eq!(run(&mut st, text), [0, 32, 48]);
    assert_eq!(ud(&st, 4, 8), [0; 8]);
    assert_eq!(ud(&st, 5, 8), [0; 8]);
    assert_eq!(ud(&st, 6, 8), [6; 8]);
    let nomask = text.replace("mov (8|M0) r5", "(W) mov (8|M0) r5");
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    assert_eq!(
        refused_row(try_run(&mut st, &nomask, 100)),
        (flow::CHANNEL_NOMASK_NO_CHANNEL.id, 32)
    );
    assert_eq!(
        flow::CHANNEL_NOMASK_NO_CHANNEL.id,
        "flow.channel.nomask-no-channel"
    );
}

/// flow.ip-write.wide and flow.ip-write.spf: writes to ip the rows leave undefined.
#[test]
fn ip_writes_the_rows_leave_undefined_are_refused() {
    let wide = "mov (2|M0) ip<1>:uw 0x20:uw\nnop\nnop\n";
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    assert_eq!(
        refused_row(try_run(&mut st, wide, 10)),
        ("flow.ip-write.wide", 0)
    );
    let spf = "(W) mov (1|M0) ip<1>:ud 0x20:ud\nnop\nnop\n";
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    set_spf(&mut st, true);
    assert_eq!(
        refused_row(try_run(&mut st, spf, 10)),
        ("flow.ip-write.spf", 0)
    );
}

/// flow.program-end: the thread ends with IP at the end of the image; a jump past the end
/// (not to it) is an error naming the address.
#[test]
fn the_program_ends_at_the_end_of_the_image() {
    let text = "mov (8|M0) r5.0<1>:ud 0x5:ud\n(W) jmpi (1|M0) 48\nnop\n";
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    let img = image(Platform::Skl, "mov (8|M0) r5.0<1>:ud 0x5:ud\nnop\n");
    let end = img.end();
    let mut t = Thread::new(img, &mut st).expect("thread");
    t.run(&mut st, &ExecOptions::default(), 10).expect("runs");
    assert!(t.ended());
    assert_eq!((end, t.steps(), t.ip()), (32, 2, 32));
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    match try_run(&mut st, text, 10) {
        Err(RunError::Image(ImageError::Outside { ip, end, .. })) => {
            // jmpi at 16: next (32) + field 32 = 64; the image ends at 48.
            assert_eq!((ip, end), (64, 48));
        }
        other => panic!("{other:?}"),
    }
}

/// Refused branch forms, each naming its row: flow.branch-ctrl, flow.structured-nomask,
/// flow.predicate.anyv-allv, flow.predicate.group (a group of 32 from f0.1), flow.call.nomask,
/// flow.ret.unmatched, flow.brc-brd; and
/// flow.else.gen7 (else is not predicable).
#[test]
fn refused_branch_forms_name_their_rows() {
    let cases: [(&str, &str); 7] = [
        (
            "(f0.0) if (8|M0) 32 32 {BranchCtrl}\nnop\nendif (8|M0) 16\n",
            "flow.branch-ctrl",
        ),
        ("nop\n(W) endif (8|M0) 16\nnop\n", "flow.structured-nomask"),
        (
            "(f0.1.any32h) while (8|M0) -16\nnop\n",
            "flow.predicate.group",
        ),
        (
            "(f0.0.anyv) break (8|M0) 16 16\nnop\n",
            "flow.predicate.anyv-allv",
        ),
        (
            "(W) call (8|M0) r10.0<1>:ud 32\nnop\nnop\n",
            "flow.call.nomask",
        ),
        ("ret (8|M0) r10.0<2;2,1>:ud\nnop\n", "flow.ret.unmatched"),
        ("brc (8|M0) 16 16\nnop\n", "flow.brc-brd"),
    ];
    for (text, id) in cases {
        let mut st = state(Platform::Skl, 0xff, 0, 0);
        let (got, _) = refused_row(try_run(&mut st, text, 10));
        assert_eq!(got, id, "{text}");
    }
    let mut st = state(Platform::Hsw, 0xff, 0, 0);
    let (got, ip) = refused_row(try_run(&mut st, "nop\n(f0.0) else (8|M0) 16\nnop\n", 10));
    assert_eq!((got, ip), ("flow.else.gen7", 16));
}
