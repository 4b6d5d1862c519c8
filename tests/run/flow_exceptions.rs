//! Exceptions in the thread runner (the flow.exception.* rows of spec/flow.toml): each one
//! raised, taken to a System Routine placed after the main code of the same image, and
//! returned from; breakpoint suppression; disabled exceptions; the refusals naming their
//! rows; `euref run --sip` and the trace.
//!
//! Common assumptions: SPF off, DMask = 0xff (SIMD8), registers and cr0 start at 0 except
//! the enable bits each test sets; every instruction is native (16 bytes), so the address of
//! the k-th instruction is 16 * k. The main code jumps over the routine to the end of the
//! image END with `(W) jmpi (1|M0) <END - jmpi>` (the assembly text gives the distance from
//! the jmpi; the encoded field, flow.jmpi, is that minus 16: bytes from the next instruction). Expected values are derived by hand from the rows (see
//! each test's comments), not from the runner's output.
//!
//! The routines write cr0 with immediates (`mov`), never read-modify-write: cr0.0 bits 9:8
//! and cr0.1 bits 26:24 are reserved fields that read undefined (field.cr0.0.reserved-9-8,
//! field.cr0.1.reserved-26-24), so an `and`/`or` of cr0 gives an undefined dword. The cr0
//! fields are checked from the test after each step instead of being read by the routine.

use crate::flow_util::{image, state, ud};
use crate::scratch_util::Scratch;
use euref::asm::{self, Dialect};
use euref::exec::ExecOptions;
use euref::spec::registers::field::{
    CR0_0_BREAKPOINT_SUPPRESS, CR0_0_MASTER_EXCEPTION_STATE, CR0_1_BREAKPOINT_ENABLE,
    CR0_1_BREAKPOINT_STATUS, CR0_1_EXTERNAL_HALT_STATUS, CR0_1_ILLEGAL_OPCODE_ENABLE,
    CR0_1_ILLEGAL_OPCODE_STATUS, CR0_1_SOFTWARE_EXCEPTION_CONTROL, CR0_1_SOFTWARE_EXCEPTION_ENABLE,
    CR0_1_STACK_OVERFLOW_ENABLE, CR0_1_STACK_OVERFLOW_STATUS, CR0_2_AIP,
};
use euref::spec::registers::FieldInfo;
use euref::spec::Platform;
use euref::state::ThreadState;
use euref::thread::exception::{Event, Kind};
use euref::thread::{Image, RunError, Thread};
use std::process::Command;

/// The exception fields of cr0 after a step: [master (cr0.0 bit 31), breakpoint suppress
/// (cr0.0 bit 15), breakpoint status (cr0.1 bit 31), illegal opcode status (bit 28),
/// software exception control (bit 29), AIP (cr0.2 bits 31:3, as an address)].
type Cr0 = [u32; 6];

fn cr0(st: &ThreadState) -> Cr0 {
    let f = |f: &FieldInfo| match st.field(f) {
        Some((v, false)) => v,
        other => panic!("{}: {other:?}", f.id),
    };
    [
        f(&CR0_0_MASTER_EXCEPTION_STATE),
        f(&CR0_0_BREAKPOINT_SUPPRESS),
        f(&CR0_1_BREAKPOINT_STATUS),
        f(&CR0_1_ILLEGAL_OPCODE_STATUS),
        f(&CR0_1_SOFTWARE_EXCEPTION_CONTROL),
        f(&CR0_2_AIP) << 3,
    ]
}

/// One executed step: its IP, the exception event, the cr0 fields after it.
type Trace = Vec<(u32, Option<Event>, Cr0)>;

/// Run `img` on `st` with System IP `sip`.
fn try_run_image(
    st: &mut ThreadState,
    img: Image,
    sip: Option<u32>,
    max: u64,
) -> Result<Trace, RunError> {
    let mut t = Thread::new(img, st)?;
    t.set_sip(sip);
    let mut out = vec![];
    let opts = ExecOptions {
        strict: true,
        ..ExecOptions::default()
    };
    while !t.ended() {
        let s = t.step_limited(st, &opts, max)?;
        out.push((s.ip, s.exception, cr0(st)));
    }
    Ok(out)
}

fn try_run(st: &mut ThreadState, text: &str, sip: Option<u32>) -> Result<Trace, RunError> {
    let img = image(st.platform(), text);
    try_run_image(st, img, sip, 1000)
}

fn run(st: &mut ThreadState, text: &str, sip: u32) -> Trace {
    try_run(st, text, Some(sip)).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The IPs and events of a trace.
fn steps(t: &Trace) -> Vec<(u32, Option<Event>)> {
    t.iter().map(|s| (s.0, s.1)).collect()
}

/// The row ID and IP of a refusal.
fn refused_row(r: Result<Trace, RunError>) -> (&'static str, u32) {
    match r {
        Err(RunError::Refused { row, ip, .. }) => (row.id, ip),
        other => panic!("{other:?}"),
    }
}

/// The zero state of flow_util with DMask 0xff, f0 = `f0` and the cr0 fields `set` to 1.
fn st_with(p: Platform, f0: u32, set: &[&FieldInfo]) -> ThreadState {
    let mut st = state(p, 0xff, f0, 0);
    for f in set {
        st.set_field(f, 1).expect("cr0 field");
    }
    st
}

fn entered(kind: Kind, aip: u32, sip: u32) -> Option<Event> {
    Some(Event::Entered { kind, aip, sip })
}

fn returned(aip: u32) -> Option<Event> {
    Some(Event::Returned { aip })
}

/// The breakpoint program: a {Breakpoint} add at 0x10; the System Routine at 0x40 records
/// the AIP, writes r13 with SIMD8, clears the status bit (cr0.1 = the enable bit only) and
/// returns with the suppress bit set (cr0.0 = 0x8000: bit 31 written 0, bit 15 written 1).
const BREAKPOINT: &str = "mov (8|M0) r10.0<1>:ud 0x1:ud
add (8|M0) r10.0<1>:ud r10.0<8;8,1>:ud 0x10:ud {Breakpoint}
mov (8|M0) r11.0<1>:ud 0x2:ud
(W) jmpi (1|M0) 80
SIP:
(W) mov (1|M0) r12.0<1>:ud cr0.2<0;1,0>:ud {Switch}
mov (8|M0) r13.0<1>:ud 0x7:ud
(W) mov (1|M0) cr0.1<1>:ud 0x8000:ud {Switch}
(W) mov (1|M0) cr0.0<1>:ud 0x8000:ud {Switch}
END:
";

/// flow.exception.breakpoint, flow.exception.entry, flow.exception.return and
/// flow.exception.breakpoint-suppress, on every platform with jmpi (Haswell on).
///
/// Derivation: cr0.1 = 0x8000 (breakpoint enable, bit 15). The add at 0x10 has {Breakpoint},
/// master and suppress are 0: before it executes (flow.exception.breakpoint) the status bit
/// cr0.1[31] is set, AIP = 0x10, master = 1, IP = SIP = 0x40 (flow.exception.entry). The
/// routine copies cr0.2 = 0x10 to r12.0, writes r13 = 7 on all 8 channels
/// (flow.exception.channels: every dispatched channel at SIP), clears the status bit, and
/// writes cr0.0 = 0x8000: bit 31 goes 1 -> 0, IP = AIP = 0x10 (flow.exception.return), the
/// suppress bit is set. The add now runs with suppress set: executed, suppress reset by
/// hardware. r10 = 1 + 0x10 = 0x11, r11 = 2; the jmpi (0x30 + 80) ends the program at
/// END = 0x80.
#[test]
fn a_breakpoint_is_taken_to_the_routine_returned_from_and_then_suppressed_once() {
    for p in [Platform::Hsw, Platform::Bdw, Platform::Skl] {
        let mut st = st_with(p, 0, &[&CR0_1_BREAKPOINT_ENABLE]);
        let trace = run(&mut st, BREAKPOINT, 0x40);
        // [master, suppress, bp status, illegal status, sw control, AIP] after each step.
        let want: Trace = vec![
            (0x00, None, [0, 0, 0, 0, 0, 0]),
            (
                0x10,
                entered(Kind::Breakpoint, 0x10, 0x40),
                [1, 0, 1, 0, 0, 0x10],
            ),
            (0x40, None, [1, 0, 1, 0, 0, 0x10]),
            (0x50, None, [1, 0, 1, 0, 0, 0x10]),
            (0x60, None, [1, 0, 0, 0, 0, 0x10]),
            (0x70, returned(0x10), [0, 1, 0, 0, 0, 0x10]),
            (0x10, None, [0, 0, 0, 0, 0, 0x10]),
            (0x20, None, [0, 0, 0, 0, 0, 0x10]),
            (0x30, None, [0, 0, 0, 0, 0, 0x10]),
        ];
        assert_eq!(trace, want, "{p:?}");
        assert_eq!(ud(&st, 12, 1), [0x10], "{p:?}");
        assert_eq!(ud(&st, 13, 8), [7; 8], "{p:?}");
        assert_eq!(ud(&st, 10, 8), [0x11; 8], "{p:?}");
        assert_eq!(ud(&st, 11, 8), [2; 8], "{p:?}");
    }
}

/// flow.exception.channels: a breakpoint inside the then-block of a divergent if.
///
/// Derivation: f0.0 = 0x0f: the if sends channels 4-7 to ELSE0 (0x40), channels 0-3 reach
/// the {Breakpoint} add at 0x20. The routine at 0x80 runs with all 8 dispatched channels
/// (r13 = 7 in channels 0-7), clears the status bit and returns with suppress set: channels
/// 0-3 (waiting at the saved AIP 0x20) follow IP to 0x20, channels 4-7 wait at 0x40 again.
/// The add runs on 0-3 (+1, suppressed), the else sends 0-3 to ENDIF0 and IP goes to 0x40
/// where 4-7 add 2; after the endif all add 0x10: r10 = 11 11 11 11 12 12 12 12 (hex).
#[test]
fn the_application_channels_are_put_back_after_the_routine() {
    let text = "mov (8|M0) r10.0<1>:ud 0x0:ud
(f0.0) if (8|M0) ELSE0 ENDIF0
add (8|M0) r10.0<1>:ud r10.0<8;8,1>:ud 0x1:ud {Breakpoint}
else (8|M0) ENDIF0 ENDIF0
ELSE0:
add (8|M0) r10.0<1>:ud r10.0<8;8,1>:ud 0x2:ud
ENDIF0:
endif (8|M0) NEXT0
NEXT0:
add (8|M0) r10.0<1>:ud r10.0<8;8,1>:ud 0x10:ud
(W) jmpi (1|M0) 64
SIP:
mov (8|M0) r13.0<1>:ud 0x7:ud
(W) mov (1|M0) cr0.1<1>:ud 0x8000:ud {Switch}
(W) mov (1|M0) cr0.0<1>:ud 0x8000:ud {Switch}
END:
";
    let mut st = st_with(Platform::Skl, 0x0f, &[&CR0_1_BREAKPOINT_ENABLE]);
    let trace = steps(&run(&mut st, text, 0x80));
    let ips: Vec<u32> = trace.iter().map(|s| s.0).collect();
    assert_eq!(
        ips,
        [0x00, 0x10, 0x20, 0x80, 0x90, 0xa0, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70]
    );
    assert_eq!(trace[2].1, entered(Kind::Breakpoint, 0x20, 0x80));
    assert_eq!(trace[5].1, returned(0x20));
    assert_eq!(ud(&st, 13, 8), [7; 8]);
    assert_eq!(
        ud(&st, 10, 8),
        [0x11, 0x11, 0x11, 0x11, 0x12, 0x12, 0x12, 0x12]
    );
}

/// The illegal-opcode program: the routine records the AIP, moves it past the faulting
/// instruction (AIP + 16), clears the status bit 28 (cr0.1 = the enable bit only) and
/// returns (cr0.0 = 0).
const ILLEGAL: &str = "mov (8|M0) r10.0<1>:ud 0x1:ud
illegal
mov (8|M0) r11.0<1>:ud 0x2:ud
(W) jmpi (1|M0) 80
SIP:
(W) mov (1|M0) r12.0<1>:ud cr0.2<0;1,0>:ud {Switch}
(W) add (1|M0) cr0.2<1>:ud cr0.2<0;1,0>:ud 0x10:ud {Switch}
(W) mov (1|M0) cr0.1<1>:ud 0x1000:ud {Switch}
(W) mov (1|M0) cr0.0<1>:ud 0x0:ud {Switch}
END:
";

/// The trace every illegal-opcode run of [`ILLEGAL`] gives (the instruction at 0x10 may be
/// replaced by an undefined opcode).
fn illegal_trace() -> Trace {
    vec![
        (0x00, None, [0, 0, 0, 0, 0, 0]),
        (
            0x10,
            entered(Kind::IllegalOpcode, 0x10, 0x40),
            [1, 0, 0, 1, 0, 0x10],
        ),
        (0x40, None, [1, 0, 0, 1, 0, 0x10]),
        (0x50, None, [1, 0, 0, 1, 0, 0x20]),
        (0x60, None, [1, 0, 0, 0, 0, 0x20]),
        (0x70, returned(0x20), [0, 0, 0, 0, 0, 0x20]),
        (0x20, None, [0, 0, 0, 0, 0, 0x20]),
        (0x30, None, [0, 0, 0, 0, 0, 0x20]),
    ]
}

/// flow.exception.illegal-opcode with opcode 0 (`illegal`).
///
/// Derivation: cr0.1 = 0x1000 (bit 12). At 0x10 `illegal` takes the exception before it
/// executes: status bit 28 set, AIP = 0x10, master = 1, IP = 0x40. The routine records
/// r12.0 = 0x10, sets AIP = 0x20, clears bit 28 and returns to 0x20; the channels waiting at
/// the old AIP (all 8) follow (flow.exception.channels), so r11 = 2 on all 8.
#[test]
fn an_illegal_opcode_is_taken_and_the_routine_returns_past_it() {
    let mut st = st_with(Platform::Skl, 0, &[&CR0_1_ILLEGAL_OPCODE_ENABLE]);
    assert_eq!(run(&mut st, ILLEGAL, 0x40), illegal_trace());
    assert_eq!(ud(&st, 12, 1), [0x10]);
    assert_eq!(ud(&st, 10, 8), [1; 8]);
    assert_eq!(ud(&st, 11, 8), [2; 8]);
}

/// flow.exception.illegal-opcode with opcodes the platform does not define: 0x0b (no
/// opcode of opcodes.toml on any platform) on Skylake, 0x2e (goto, Gen8+ only) on Haswell.
/// The `illegal` at 0x10 is patched in the image bytes (opcode field: bits 6:0 of the
/// instruction's first byte); the rest is as in the `illegal` test.
#[test]
fn an_undefined_opcode_is_an_illegal_opcode_exception() {
    for (p, opcode) in [(Platform::Skl, 0x0bu8), (Platform::Hsw, 0x2e)] {
        let img = image(p, ILLEGAL);
        let mut bytes = img.bytes().to_vec();
        bytes[0x10] = (bytes[0x10] & 0x80) | opcode;
        let mut st = st_with(p, 0, &[&CR0_1_ILLEGAL_OPCODE_ENABLE]);
        let trace = try_run_image(&mut st, Image::new(p, bytes, 0), Some(0x40), 100)
            .unwrap_or_else(|e| panic!("{p:?}: {e}"));
        assert_eq!(trace, illegal_trace(), "{p:?}");
        assert_eq!(ud(&st, 12, 1), [0x10], "{p:?}");
        assert_eq!(ud(&st, 11, 8), [2; 8], "{p:?}");
    }
}

/// flow.exception.software: a write setting cr0.1 bit 29.
///
/// Derivation: cr0.1 = 0x2000 (bit 13). The mov at 0x10 writes 0x20002000 (bit 29 set, the
/// enable kept): it executes, then the exception is taken with AIP = the next instruction
/// 0x20 (IP + 1); bit 29 stays 1 on entry. The routine records r12.0 = 0x20, clears bit 29
/// (an ordinary bit in the routine: cr0.1 = 0x2000) and returns to 0x20, where the channels
/// that executed the mov wait: r11 = 2.
#[test]
fn a_software_exception_returns_to_the_next_instruction() {
    let text = "mov (8|M0) r10.0<1>:ud 0x1:ud
(W) mov (1|M0) cr0.1<1>:ud 0x20002000:ud {Switch}
mov (8|M0) r11.0<1>:ud 0x2:ud
(W) jmpi (1|M0) 64
SIP:
(W) mov (1|M0) r12.0<1>:ud cr0.2<0;1,0>:ud {Switch}
(W) mov (1|M0) cr0.1<1>:ud 0x2000:ud {Switch}
(W) mov (1|M0) cr0.0<1>:ud 0x0:ud {Switch}
END:
";
    let mut st = st_with(Platform::Skl, 0, &[&CR0_1_SOFTWARE_EXCEPTION_ENABLE]);
    let want: Trace = vec![
        (0x00, None, [0, 0, 0, 0, 0, 0]),
        (
            0x10,
            entered(Kind::Software, 0x20, 0x40),
            [1, 0, 0, 0, 1, 0x20],
        ),
        (0x40, None, [1, 0, 0, 0, 1, 0x20]),
        (0x50, None, [1, 0, 0, 0, 0, 0x20]),
        (0x60, returned(0x20), [0, 0, 0, 0, 0, 0x20]),
        (0x20, None, [0, 0, 0, 0, 0, 0x20]),
        (0x30, None, [0, 0, 0, 0, 0, 0x20]),
    ];
    assert_eq!(run(&mut st, text, 0x40), want);
    assert_eq!(ud(&st, 12, 1), [0x20]);
    assert_eq!(ud(&st, 11, 8), [2; 8]);
}

/// flow.exception.disabled, flow.exception.breakpoint-suppress (no effect while breakpoints
/// are disabled), flow.exception.external-halt and flow.exception.stack-overflow (their
/// bits are data), flow.exception.illegal-opcode-disabled (refused). No SIP is given: any
/// exception taken would be refused (flow.exception.sip).
#[test]
fn disabled_exceptions_do_not_jump_and_their_status_bits_record_them() {
    // Breakpoints disabled, suppress set: the add executes (r10 = 0x11), cr0.1 bit 31
    // records the breakpoint, the suppress bit stays set.
    let text = "mov (8|M0) r10.0<1>:ud 0x1:ud
add (8|M0) r10.0<1>:ud r10.0<8;8,1>:ud 0x10:ud {Breakpoint}
";
    let mut st = st_with(Platform::Skl, 0, &[&CR0_0_BREAKPOINT_SUPPRESS]);
    let want: Trace = vec![
        (0x00, None, [0, 1, 0, 0, 0, 0]),
        (0x10, None, [0, 1, 1, 0, 0, 0]),
    ];
    assert_eq!(try_run(&mut st, text, None).expect("runs"), want);
    assert_eq!(ud(&st, 10, 8), [0x11; 8]);

    // Software exception disabled: bit 29 is set and stays set (writing 0 in the application
    // has no effect); the program goes on.
    let text = "(W) mov (1|M0) cr0.1<1>:ud 0x20000000:ud {Switch}
(W) mov (1|M0) cr0.1<1>:ud 0x0:ud {Switch}
mov (8|M0) r11.0<1>:ud 0x2:ud
";
    let mut st = st_with(Platform::Skl, 0, &[]);
    let want: Trace = vec![
        (0x00, None, [0, 0, 0, 0, 1, 0]),
        (0x10, None, [0, 0, 0, 0, 1, 0]),
        (0x20, None, [0, 0, 0, 0, 1, 0]),
    ];
    assert_eq!(try_run(&mut st, text, None).expect("runs"), want);
    assert_eq!(ud(&st, 11, 8), [2; 8]);

    // External halt (bit 30) and stack overflow (bit 27) status written by the program, with
    // every enable set (bits 15, 13, 12, 11): data, nothing raised.
    let text = "(W) mov (1|M0) cr0.1<1>:ud 0x4800b800:ud {Switch}
mov (8|M0) r11.0<1>:ud 0x2:ud
";
    let mut st = st_with(
        Platform::Skl,
        0,
        &[
            &CR0_1_BREAKPOINT_ENABLE,
            &CR0_1_SOFTWARE_EXCEPTION_ENABLE,
            &CR0_1_ILLEGAL_OPCODE_ENABLE,
            &CR0_1_STACK_OVERFLOW_ENABLE,
        ],
    );
    let trace = steps(&try_run(&mut st, text, None).expect("runs"));
    assert_eq!(trace, [(0x00, None), (0x10, None)]);
    assert_eq!(st.field(&CR0_1_EXTERNAL_HALT_STATUS), Some((1, false)));
    assert_eq!(st.field(&CR0_1_STACK_OVERFLOW_STATUS), Some((1, false)));
    assert_eq!(st.field(&CR0_0_MASTER_EXCEPTION_STATE), Some((0, false)));

    // Illegal opcode disabled: refused, naming the row.
    let mut st = st_with(Platform::Skl, 0, &[]);
    assert_eq!(
        refused_row(try_run(&mut st, ILLEGAL, Some(0x40))),
        ("flow.exception.illegal-opcode-disabled", 0x10)
    );
}

/// The refusals of the exception rows, each naming its row: flow.exception.sip (no System
/// IP), flow.exception.nested (an illegal opcode, or an enabled breakpoint, in the routine),
/// flow.exception.simultaneous (a breakpoint on `illegal`), flow.exception.cr0-switch (a
/// software exception or a return without {Switch}), flow.exception.return-without-entry.
#[test]
fn what_the_exception_rows_leave_undefined_is_refused_naming_the_row() {
    let skl = Platform::Skl;
    // No SIP.
    let mut st = st_with(skl, 0, &[&CR0_1_BREAKPOINT_ENABLE]);
    assert_eq!(
        refused_row(try_run(&mut st, BREAKPOINT, None)),
        ("flow.exception.sip", 0x10)
    );
    // Nested: the routine at 0x40 starts with `illegal` or a {Breakpoint} nop.
    let first = "SIP:\n(W) mov (1|M0) r12.0<1>:ud cr0.2<0;1,0>:ud {Switch}";
    let nested_illegal = BREAKPOINT.replace(first, "SIP:\nillegal");
    let mut st = st_with(
        skl,
        0,
        &[&CR0_1_BREAKPOINT_ENABLE, &CR0_1_ILLEGAL_OPCODE_ENABLE],
    );
    assert_eq!(
        refused_row(try_run(&mut st, &nested_illegal, Some(0x40))),
        ("flow.exception.nested", 0x40)
    );
    let nested_bp = BREAKPOINT.replace(first, "SIP:\nnop {Breakpoint}");
    let mut st = st_with(skl, 0, &[&CR0_1_BREAKPOINT_ENABLE]);
    assert_eq!(
        refused_row(try_run(&mut st, &nested_bp, Some(0x40))),
        ("flow.exception.nested", 0x40)
    );
    // Simultaneous: `illegal` with the DebugCtrl bit, both exceptions enabled.
    let mut prog = asm::parse(b"nop\nillegal\nnop\n", Some(Dialect::Iga), skl).expect("parses");
    prog.insns[1].ctrl.breakpoint = true;
    let img = Image::from_insns(skl, &prog.insns, 0).expect("encodes");
    let mut st = st_with(
        skl,
        0,
        &[&CR0_1_BREAKPOINT_ENABLE, &CR0_1_ILLEGAL_OPCODE_ENABLE],
    );
    assert_eq!(
        refused_row(try_run_image(&mut st, img, Some(0x20), 10)),
        ("flow.exception.simultaneous", 0x10)
    );
    // cr0 writes without {Switch}: raising a software exception, returning from the routine.
    let text = "(W) mov (1|M0) cr0.1<1>:ud 0x20002000:ud\nnop\n";
    let mut st = st_with(skl, 0, &[&CR0_1_SOFTWARE_EXCEPTION_ENABLE]);
    assert_eq!(
        refused_row(try_run(&mut st, text, Some(0x10))),
        ("flow.exception.cr0-switch", 0x00)
    );
    let no_switch_return = BREAKPOINT.replace(
        "(W) mov (1|M0) cr0.0<1>:ud 0x8000:ud {Switch}",
        "(W) mov (1|M0) cr0.0<1>:ud 0x8000:ud",
    );
    let mut st = st_with(skl, 0, &[&CR0_1_BREAKPOINT_ENABLE]);
    assert_eq!(
        refused_row(try_run(&mut st, &no_switch_return, Some(0x40))),
        ("flow.exception.cr0-switch", 0x70)
    );
    // A return the runner did not enter: the state starts with cr0.0 bit 31 set.
    let text = "(W) mov (1|M0) cr0.0<1>:ud 0x0:ud {Switch}\nnop\n";
    let mut st = st_with(skl, 0, &[&CR0_0_MASTER_EXCEPTION_STATE]);
    st.set_field(&CR0_2_AIP, 0x10 >> 3).expect("aip");
    assert_eq!(
        refused_row(try_run(&mut st, text, Some(0x10))),
        ("flow.exception.return-without-entry", 0x00)
    );
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `euref run --sip LABEL|OFFSET` and `--trace` (flow.exception.sip): the breakpoint program
/// with the SIP as a label and as a byte offset; the trace marks the entry and the return;
/// without --sip the exception is refused naming the row; an unknown label is an input
/// error (exit 2).
#[test]
fn run_takes_the_sip_as_a_label_or_an_offset_and_traces_the_exception() {
    let tmp = Scratch::new("run-exc");
    let prog = tmp.file("bp.asm", BREAKPOINT);
    let st = tmp.file(
        "st.json",
        r#"{"base": "zero", "sr0": {"dmask": 255}, "cr0": {"breakpoint_enable": 1}}"#,
    );
    let (p, s) = (prog.to_str().unwrap(), st.to_str().unwrap());
    let euref = |extra: &[&str]| {
        let mut args = vec!["run", p, "--state", s];
        args.extend_from_slice(extra);
        Command::new(env!("CARGO_BIN_EXE_euref"))
            .args(&args)
            .output()
            .expect("euref runs")
    };
    for sip in ["SIP", "0x40", "64"] {
        let o = euref(&["--sip", sip, "--trace"]);
        assert_eq!(o.status.code(), Some(0), "{sip}: {}", text(&o.stderr));
        let out = text(&o.stdout);
        let lines: Vec<&str> = out.lines().collect();
        assert!(
            lines[1].starts_with("     2  ip 0x0010  ch 0x00000000  ")
                && lines[1].ends_with("=> breakpoint exception: AIP 0x0010, IP = SIP 0x0040"),
            "{}",
            lines[1]
        );
        assert!(
            lines[5].starts_with("     6  ip 0x0070  ")
                && lines[5].ends_with("=> return to AIP 0x0010"),
            "{}",
            lines[5]
        );
        assert!(
            lines[6].starts_with("     7  ip 0x0010  ch 0x000000ff"),
            "{}",
            lines[6]
        );
    }
    let o = euref(&["--sip", "SIP", "--trace", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let first: Vec<serde_json::Value> = text(&o.stdout)
        .lines()
        .take(6)
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(
        first[1]["exception"],
        serde_json::json!({"kind": "breakpoint", "aip": 16, "sip": 64})
    );
    assert_eq!(first[5]["exception"], serde_json::json!({"return": 16}));
    let o = euref(&[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("[flow.exception.sip]"),
        "{}",
        text(&o.stderr)
    );
    let o = euref(&["--sip", "NOPE"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("no label `NOPE`"),
        "{}",
        text(&o.stderr)
    );
}

/// flow.exception.illegal-opcode in `euref run`, strict: `illegal` is taken to the routine
/// (the static rule op.illegal-opcode, which would refuse it, is left to the runner); the
/// routine of [`ILLEGAL`] returns past it, so r11 = 2. With the exception disabled the run is
/// refused naming flow.exception.illegal-opcode-disabled.
#[test]
fn run_takes_an_illegal_opcode_exception_in_strict_mode() {
    let tmp = Scratch::new("run-exc-ill");
    let prog = tmp.file("ill.asm", ILLEGAL);
    let on = tmp.file(
        "on.json",
        r#"{"base": "zero", "sr0": {"dmask": 255}, "cr0": {"illegal_opcode_enable": 1}}"#,
    );
    let off = tmp.file("off.json", r#"{"base": "zero", "sr0": {"dmask": 255}}"#);
    let p = prog.to_str().unwrap();
    let euref = |st: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_euref"))
            .args(["run", p, "--state", st.to_str().unwrap(), "--sip", "SIP"])
            .args(["--trace", "--json"])
            .output()
            .expect("euref runs")
    };
    let o = euref(&on);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(
        lines[1]["exception"],
        serde_json::json!({"kind": "illegal opcode", "aip": 16, "sip": 64})
    );
    assert_eq!(lines[5]["exception"], serde_json::json!({"return": 32}));
    let fin = &lines.last().expect("final")["final"];
    assert_eq!(
        fin["r11"].as_str().map(|h| &h[..16]),
        Some("0200000002000000")
    );
    let o = euref(&off);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(
        err.contains("[flow.exception.illegal-opcode-disabled]"),
        "{err}"
    );
}
