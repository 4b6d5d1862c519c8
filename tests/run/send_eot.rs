//! spec/memory.toml send.eot and flow.program-end: a send with EOT ends the thread where it
//! is; a thread-spawner message without EOT and messages the runner does not execute are
//! refused naming their row (send.spawner.no-eot, send.unmodelled).

use crate::flow_util::{run, state, try_run, ud};
use crate::send_util::{run_mem, send_row, try_run_mem};
use euref::memory::Memory;
use euref::spec::Platform;
use euref::thread::RunError;

/// The end of thread of seed003 (`send (8|M0) null r127 0x27 0x2000010 {EOT}`: ExDesc 0x27 =
/// SFID 7 | EOT, desc 0x2000010 = mlen 1, resource select 1) ends the program before the
/// instruction after it.
#[test]
fn eot_ends_the_thread_before_the_end_of_the_program() {
    let text = "mov (8|M0) r4.0<1>:ud 0x4:ud
(W) mov (8|M0) r127.0<1>:ud r0.0<8;8,1>:ud
send (8|M0) null r127 0x27 0x2000010 {EOT}
mov (8|M0) r5.0<1>:ud 0x5:ud
";
    for p in [Platform::Bdw, Platform::Skl] {
        let mut st = state(p, 0xff, 0, 0);
        let mut mem = Memory::new();
        let (ips, eot) = run_mem(&mut st, &mut mem, text);
        assert_eq!(ips, [0, 16, 32], "{p:?}");
        assert!(eot);
        assert_eq!(ud(&st, 4, 8), [4; 8]);
        // The mov after the EOT send never ran: r5 keeps the zero of the initial state.
        assert_eq!(ud(&st, 5, 8), [0; 8]);
        // Without memory (Thread::step) the end of thread works the same.
        let mut st = state(p, 0xff, 0, 0);
        assert_eq!(run(&mut st, text), [0, 16, 32]);
        assert_eq!(ud(&st, 5, 8), [0; 8]);
    }
}

/// An EOT inside a branch: the channels that reach it end the thread (flow.program-end: after
/// a send with EOT, wherever it is).
#[test]
fn eot_in_the_middle_of_a_loop_body_ends_the_thread() {
    let text = "L:
add (8|M0) r4.0<1>:ud r4.0<8;8,1>:ud 0x1:ud
(W) mov (8|M0) r127.0<1>:ud r0.0<8;8,1>:ud
send (8|M0) null r127 0x27 0x2000010 {EOT}
jmpi L
";
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    let (ips, eot) = run_mem(&mut st, &mut Memory::new(), text);
    assert_eq!((ips, eot), (vec![0, 16, 32], true));
    assert_eq!(ud(&st, 4, 8), [1; 8]);
}

/// send.spawner.no-eot: the same message without EOT is refused.
#[test]
fn spawner_message_without_eot_is_refused() {
    let text = "send (8|M0) null r127 0x7 0x2000010\n";
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    assert_eq!(
        send_row(try_run_mem(&mut st, &mut Memory::new(), text)),
        "send.spawner.no-eot"
    );
}

/// send.unmodelled: messages not executed are refused with their decoded name and row.
#[test]
fn unmodelled_messages_are_refused_naming_the_message() {
    let cases = [
        // A DC1 untyped atomic float (Gen9 type 0x1b): mlen 2, rlen 1, control 0x31 (fmax,
        // SIMD8, return), BTI 2 (desc 0x0416F102).
        (
            "send (8|M0) r5 r2 0xC 0x416F102\n",
            "dc1 untyped_atomic_float (msgval.dc1-type.untyped-atomic-float)",
        ),
        // A DC1 typed surface read: mlen 2, rlen 1, type 5, control 0x1e (low slot group, R),
        // BTI 2 (desc 0x04115E02).
        (
            "send (8|M0) r10 r2 0xC 0x4115E02\n",
            "dc1 typed_surface_read (msgval.dc1-type.typed-surface-read)",
        ),
        // A gateway forward message (desc 0x02000002; the barrier, sub-function 4, is
        // executed: send.gateway.barrier).
        (
            "send (8|M0) null r1 0x3 0x2000002\n",
            "gateway forward_msg (msgval.gateway-subfunc.forward-msg)",
        ),
    ];
    for (text, name) in cases {
        let mut st = state(Platform::Skl, 0xff, 0, 0);
        let r = try_run_mem(&mut st, &mut Memory::new(), text);
        let msg = match &r {
            Err(e @ RunError::Send { .. }) => e.to_string(),
            other => panic!("{other:?}"),
        };
        assert!(msg.contains(name), "{msg}");
        assert!(msg.contains("[send.unmodelled]"), "{msg}");
        assert_eq!(send_row(r), "send.unmodelled");
    }
    // The same refusal without memory (Thread::step).
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    let r = try_run(&mut st, "send (8|M0) null r1 0x3 0x2000002\n", 10);
    assert!(matches!(r, Err(RunError::Send { ip: 0, .. })), "{r:?}");
}

/// send.gateway.barrier and send.gateway.wait-blocks on a lone thread: the barrier message
/// executes and writes nothing (no dispatch runner counts it here); the wait on n0.0 = 0 then
/// blocks at its own IP (16) with n0.0 still 0.
#[test]
fn a_lone_barrier_executes_and_its_wait_blocks() {
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    let text = "(W) send (1|M0) null r1 0x3 0x2000004\n(W) wait (1|M0) n0.0<1>:ud\n";
    let r = try_run_mem(&mut st, &mut Memory::new(), text);
    assert!(
        matches!(
            r,
            Err(RunError::Blocked {
                ip: 16,
                reg: "n0.0"
            })
        ),
        "{r:?}"
    );
    assert_eq!(
        st.field(&euref::spec::registers::field::N0_0_THREAD_COUNT),
        Some((0, false))
    );
}
