//! call, calla and ret (spec/flow.toml `# ---- calls`), expected states derived by hand from
//! the rows. Common assumptions (flow-facts §4): SPF off, DMask = the program's 8 channels,
//! flags initialised, registers zero; native 16-byte instructions from address 0.

use crate::flow_util::{put_ud, run, set_spf, state, try_run, ud};
use euref::spec::flow;
use euref::spec::Platform;
use euref::state::ThreadState;
use euref::thread::RunError;

/// The platforms with call and ret (call runs from Haswell: flow.call, flow.call.ivb).
const CALL: [Platform; 5] = [
    Platform::Hsw,
    Platform::Bdw,
    Platform::Chv,
    Platform::Skl,
    Platform::Bxt,
];

/// The row ID and IP of a refusal, or a panic with what happened instead.
fn refused_row(r: Result<Vec<u32>, RunError>) -> (&'static str, u32) {
    match r {
        Err(RunError::Refused { row, ip, .. }) => (row.id, ip),
        other => panic!("{other:?}"),
    }
}

/// Whether dword `i` of register `reg` is undefined (every byte).
fn undefined_dword(st: &ThreadState, reg: usize, i: usize) -> bool {
    st.read_grf(reg * 32 + 4 * i, 4).expect("in range").1
}

/// A call to SUB (which adds 0x10) and, back in the caller, an add of 0x100; `call` is the
/// call instruction's mnemonic and predicate, `target` its operand.
///
///     0  mov r5 = 1            16 call r10 SUB        32 add r5 += 0x100
///     48 (W) jmpi 48 (to END) 64 SUB: add r5 += 0x10 80 ret r10
///     96 END
fn caller(call: &str, target: &str) -> String {
    format!(
        "mov (8|M0) r5.0<1>:ud 0x1:ud
{call} (8|M0) r10.0<1>:ud {target}
add (8|M0) r5.0<1>:ud r5.0<8;8,1>:ud 0x100:ud
(W) jmpi (1|M0) 48
SUB:
add (8|M0) r5.0<1>:ud r5.0<8;8,1>:ud 0x10:ud
ret (8|M0) r10.0<2;2,1>:ud
"
    )
}

/// Uniform call/ret (flow.call, flow.ret): every channel enters SUB (IP 16 + 48 = 64), adds
/// 0x10, returns to the address the call stored in r10.0 (flow.call.return-ip: 16 + 16 = 32,
/// the instruction after the call), where the frame closes and IP goes; r10.1 is undefined
/// (flow.call.mask); r5 = 1 + 0x10 + 0x100 = 0x111 everywhere. The jmpi (next 64 + 32) ends
/// the program at 96.
#[test]
fn uniform_call_and_ret() {
    for p in CALL {
        let mut st = state(p, 0xff, 0, 0);
        let ips = run(&mut st, &caller("call", "SUB"));
        assert_eq!(ips, [0, 16, 64, 80, 32, 48], "{p:?}");
        assert_eq!(ud(&st, 5, 8), [0x111; 8], "{p:?}");
        assert_eq!(ud(&st, 10, 1), [32], "{p:?}");
        assert!(undefined_dword(&st, 10, 1), "{p:?}: r10.1 (flow.call.mask)");
        // Only dst.0 and dst.1 are written ('as if simd2'): r10.2 keeps its zero.
        assert_eq!(st.read_grf(10 * 32 + 8, 4).expect("r10.2"), (0, false));
    }
}

/// Divergent call (flow.call): f0.0 = 0b1011_0010, so channels 1, 4, 5, 7 enter SUB and 0, 2,
/// 3, 6 wait at the return address 32. SUB's add runs on 1, 4, 5, 7 (0x11); their ret closes
/// the frame and IP goes to 32, where all eight add 0x100: 0x111 for 1, 4, 5, 7 and 0x101 for
/// the others.
#[test]
fn divergent_call() {
    for p in CALL {
        let mut st = state(p, 0xff, 0b1011_0010, 0);
        let ips = run(&mut st, &caller("(f0.0) call", "SUB"));
        assert_eq!(ips, [0, 16, 64, 80, 32, 48], "{p:?}");
        assert_eq!(
            ud(&st, 5, 8),
            [0x101, 0x111, 0x101, 0x101, 0x111, 0x111, 0x101, 0x111],
            "{p:?}"
        );
        // No channel's predicate holds: the call does nothing (r10 is not written).
        let mut st = state(p, 0xff, 0, 0);
        put_ud(&mut st, 10, &[7, 7]);
        let ips = run(&mut st, &caller("(f0.0) call", "SUB"));
        // 0, call (not taken), add, jmpi to END.
        assert_eq!(ips, [0, 16, 32, 48], "{p:?}");
        assert_eq!(ud(&st, 5, 8), [0x101; 8], "{p:?}");
        assert_eq!(ud(&st, 10, 2), [7, 7], "{p:?}");
    }
}

/// Divergent ret (flow.ret): all channels enter SUB; at 64 the predicated ret sends 1, 4, 5, 7
/// (f0.0 = 0b1011_0010) back to 32, where they wait; 0, 2, 3, 6 go on at 80 (add 0x10) and
/// return at 96, which closes the frame: IP 32, where all eight add 0x100.
///
///     0 mov r5 = 1   16 call r10 SUB   32 add 0x100   48 (W) jmpi 64 (to END)
///     64 SUB: (f0.0) ret r10   80 add 0x10   96 ret r10   112 END
#[test]
fn divergent_ret() {
    let text = "mov (8|M0) r5.0<1>:ud 0x1:ud
call (8|M0) r10.0<1>:ud SUB
add (8|M0) r5.0<1>:ud r5.0<8;8,1>:ud 0x100:ud
(W) jmpi (1|M0) 64
SUB:
(f0.0) ret (8|M0) r10.0<2;2,1>:ud
add (8|M0) r5.0<1>:ud r5.0<8;8,1>:ud 0x10:ud
ret (8|M0) r10.0<2;2,1>:ud
";
    for p in CALL {
        let mut st = state(p, 0xff, 0b1011_0010, 0);
        let ips = run(&mut st, text);
        assert_eq!(ips, [0, 16, 64, 80, 96, 32, 48], "{p:?}");
        assert_eq!(
            ud(&st, 5, 8),
            [0x111, 0x101, 0x111, 0x111, 0x101, 0x101, 0x111, 0x101],
            "{p:?}"
        );
    }
}

/// calla (flow.calla): the target is the address 64 (the label's byte offset from the first
/// instruction, or the number written), not an offset; the rest as the uniform call. The
/// label resolves to the field value 64 (an offset would be 48).
#[test]
fn calla_jumps_to_an_absolute_address() {
    for p in CALL {
        for target in ["SUB", "64"] {
            let text = caller("calla", target);
            let prog = euref::asm::parse(text.as_bytes(), Some(euref::asm::Dialect::Iga), p)
                .expect("parses");
            assert_eq!(prog.insns[1].jip, Some(64), "{p:?} {target}");
            let mut st = state(p, 0xff, 0, 0);
            assert_eq!(run(&mut st, &text), [0, 16, 64, 80, 32, 48], "{p:?}");
            assert_eq!(ud(&st, 5, 8), [0x111; 8], "{p:?}");
            assert_eq!(ud(&st, 10, 1), [32], "{p:?}");
        }
        // Divergent: as divergent_call.
        let mut st = state(p, 0xff, 0b1011_0010, 0);
        run(&mut st, &caller("(f0.0) calla", "SUB"));
        assert_eq!(
            ud(&st, 5, 8),
            [0x101, 0x111, 0x101, 0x101, 0x111, 0x111, 0x101, 0x111],
            "{p:?}"
        );
    }
}

/// Nested calls (flow.call, flow.ret): SUB1 calls SUB2; each ret closes the innermost frame.
///
///     0 call r10 SUB1   16 (W) jmpi 96 (to END)   32 SUB1: call r11 SUB2   48 add r5 += 0x10
///     64 ret r10   80 SUB2: add r5 += 1   96 ret r11   112 END
///
/// r10.0 = 16, r11.0 = 48; r5 = 0x11.
#[test]
fn nested_calls() {
    let text = "call (8|M0) r10.0<1>:ud SUB1
(W) jmpi (1|M0) 96
SUB1:
call (8|M0) r11.0<1>:ud SUB2
add (8|M0) r5.0<1>:ud r5.0<8;8,1>:ud 0x10:ud
ret (8|M0) r10.0<2;2,1>:ud
SUB2:
add (8|M0) r5.0<1>:ud r5.0<8;8,1>:ud 0x1:ud
ret (8|M0) r11.0<2;2,1>:ud
";
    for p in CALL {
        let mut st = state(p, 0xff, 0, 0);
        assert_eq!(run(&mut st, text), [0, 32, 80, 96, 48, 64, 16], "{p:?}");
        assert_eq!(ud(&st, 5, 8), [0x11; 8], "{p:?}");
        assert_eq!((ud(&st, 10, 1)[0], ud(&st, 11, 1)[0]), (16, 48), "{p:?}");
    }
}

/// SPF (flow.channel.spf): a uniform call/ret runs as with SPF off; a call that splits the
/// channels is refused.
#[test]
fn call_under_spf() {
    for p in CALL {
        let mut st = state(p, 0xff, 0, 0);
        set_spf(&mut st, true);
        assert_eq!(
            run(&mut st, &caller("call", "SUB")),
            [0, 16, 64, 80, 32, 48],
            "{p:?}"
        );
        assert_eq!(ud(&st, 5, 8), [0x111; 8], "{p:?}");
        let mut st = state(p, 0xff, 0b1011_0010, 0);
        set_spf(&mut st, true);
        assert_eq!(
            refused_row(try_run(&mut st, &caller("(f0.0) call", "SUB"), 100)),
            ("flow.channel.spf", 16),
            "{p:?}"
        );
    }
}

/// What the call rows leave undefined is refused naming the row: call on Ivybridge
/// (flow.call.ivb), ret with no open call (flow.ret.unmatched, also on Ivybridge), a changed
/// return register (flow.ret.unmatched), NoMask (flow.call.nomask), an undefined return
/// address (flow.call.operands).
#[test]
fn call_refusals_name_their_rows() {
    let mut st = state(Platform::Ivb, 0xff, 0, 0);
    assert_eq!(
        refused_row(try_run(&mut st, &caller("call", "SUB"), 100)),
        ("flow.call.ivb", 16)
    );
    assert_eq!(flow::CALL_IVB.status, "undefined");
    for p in [Platform::Ivb, Platform::Hsw, Platform::Skl] {
        let mut st = state(p, 0xff, 0, 0);
        assert_eq!(
            refused_row(try_run(&mut st, "ret (8|M0) r10.0<2;2,1>:ud\nnop\n", 100)),
            ("flow.ret.unmatched", 0),
            "{p:?}"
        );
    }
    let changed = caller("call", "SUB").replace("SUB:\n", "SUB:\nmov (1|M0) r10.0<1>:ud 0x30:ud\n");
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    match try_run(&mut st, &changed, 100) {
        Err(RunError::Refused { row, ip, detail }) => {
            assert_eq!((row.id, ip), ("flow.ret.unmatched", 96));
            // The first ret, not a later one: the call stored 32.
            assert!(detail.contains("stored 0x20"), "{detail}");
        }
        other => panic!("{other:?}"),
    }
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    assert_eq!(
        refused_row(try_run(&mut st, &caller("(W) call", "SUB"), 100)),
        ("flow.call.nomask", 16)
    );
    let undefined = caller("call", "SUB").replace("ret (8|M0) r10", "ret (8|M0) r12");
    let mut st = state(Platform::Skl, 0xff, 0, 0);
    st.write_grf(12 * 32, 8, 0, true).expect("r12");
    assert_eq!(
        refused_row(try_run(&mut st, &undefined, 100)),
        ("flow.call.operands", 80)
    );
}

/// A halt inside a subroutine (flow.ret, flow.halt): f0.0 = 0b1011_0010, so 1, 4, 5, 7 halt
/// to END (96) and wait there; 0, 2, 3, 6 add 0x10 and return. The halted channels count as
/// gone: the ret closes the frame and IP goes to 16, where 0, 2, 3, 6 add 0x100; the jmpi
/// (next 48 + 48) ends the program at 96. Had the frame waited for the halted channels, IP
/// would have left the ret for 96 and the add at 16 would never run.
///
///     0 call r10 SUB   16 add 0x100   32 (W) jmpi 64 (to END)
///     48 SUB: (f0.0) halt END END   64 add 0x10   80 ret r10   96 END
#[test]
fn halt_inside_a_subroutine() {
    let text = "call (8|M0) r10.0<1>:ud SUB
add (8|M0) r5.0<1>:ud r5.0<8;8,1>:ud 0x100:ud
(W) jmpi (1|M0) 64
SUB:
(f0.0) halt (8|M0) END END
add (8|M0) r5.0<1>:ud r5.0<8;8,1>:ud 0x10:ud
ret (8|M0) r10.0<2;2,1>:ud
END:
";
    for p in CALL {
        let mut st = state(p, 0xff, 0b1011_0010, 0);
        assert_eq!(run(&mut st, text), [0, 48, 64, 80, 16, 32], "{p:?}");
        assert_eq!(
            ud(&st, 5, 8),
            [0x110, 0, 0x110, 0x110, 0, 0, 0x110, 0],
            "{p:?}"
        );
    }
}
