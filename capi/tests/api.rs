//! The C interface called through its extern "C" functions: thread creation and errors,
//! program loading, registers, stepping and the writes of a step, the end of a program,
//! refusals naming their row, compare, the state JSON, run to the end, memory (euref's and
//! the host's callbacks) and independent handles on parallel OS threads. Expected values are
//! worked out from the instructions (IEEE arithmetic, the documented default state), not
//! read from the library.

mod common;

use common::{assemble, dwords, name, new_error, Handle};
use euref::spec::Platform;
use euref_capi::*;
use std::ffi::{c_char, CStr, CString};

const SKL: Platform = Platform::Skl;

/// r10 = 0x12345678 (8 dwords); r12..r17 = 1.5, 2.0, 0.25 (16 floats each);
/// r18..r19 = 0.25 + 1.5 * 2.0 = 3.25; f0.0 = lanes where 3.25 < 3.5 (all 16).
const MAD: [&str; 6] = [
    "mov (8|M0) r10.0<1>:ud 0x12345678:ud",
    "mov (16|M0) r12.0<1>:f 1.5:f",
    "mov (16|M0) r14.0<1>:f 2.0:f",
    "mov (16|M0) r16.0<1>:f 0.25:f",
    "mad (16|M0) r18.0<1>:f r16.0<4>:f r12.0<4>:f r14.0<4>:f {Align16}",
    "cmp (16|M0) (lt)f0.0 null<1>:f r18.0<8;8,1>:f 3.5:f",
];

const F3_25: u32 = 0x4050_0000;

#[test]
fn new_refuses_an_unknown_platform_and_null() {
    let c = CString::new("gen12").unwrap();
    let t = unsafe { euref_thread_new(c.as_ptr()) };
    assert!(t.is_null());
    let e = new_error();
    assert!(
        e.contains("gen12") && e.contains("skl"),
        "the message names the input and the platforms: {e}"
    );
    let t = unsafe { euref_thread_new(std::ptr::null()) };
    assert!(t.is_null());
    assert!(new_error().contains("NULL"), "{}", new_error());
    // A good one clears the message.
    let h = Handle::new("9");
    assert_eq!(new_error(), "");
    assert_eq!(h.error(), "");
}

#[test]
fn null_handles_and_buffers_are_argument_errors() {
    let mut info = euref_step_info::default();
    assert_eq!(
        unsafe { euref_step(std::ptr::null_mut(), &mut info) },
        EUREF_ERR_ARG
    );
    let e = unsafe { CStr::from_ptr(euref_last_error(std::ptr::null())) };
    assert!(e.to_string_lossy().contains("NULL"), "{e:?}");
    unsafe { euref_thread_free(std::ptr::null_mut()) };
    let h = Handle::new("skl");
    assert_eq!(
        unsafe { euref_load_program(h.0, std::ptr::null(), 16) },
        EUREF_ERR_ARG
    );
    assert!(h.error().contains("NULL"), "{}", h.error());
    assert_eq!(
        unsafe { euref_get_grf(h.0, 3, std::ptr::null_mut(), std::ptr::null_mut()) },
        EUREF_ERR_ARG
    );
    let mut b = [0u8; 32];
    assert_eq!(
        unsafe { euref_get_grf(h.0, 128, b.as_mut_ptr(), std::ptr::null_mut()) },
        EUREF_ERR_ARG
    );
    assert!(h.error().contains("r0..r127"), "{}", h.error());
    // Stepping without a program.
    assert_eq!(h.step().0, EUREF_ERR_ARG);
    assert!(h.error().contains("no program"), "{}", h.error());
}

#[test]
fn bad_program_bytes_are_decode_errors() {
    let h = Handle::new("skl");
    // Not a whole number of 8-byte slots.
    let b = [0u8; 12];
    assert_eq!(
        unsafe { euref_load_program(h.0, b.as_ptr(), b.len()) },
        EUREF_ERR_DECODE
    );
    assert!(h.error().contains("12 bytes"), "{}", h.error());
    // A mov whose destination register file/type field holds a reserved encoding: the
    // second instruction (byte offset 16) does not decode.
    let mut b = assemble(SKL, &MAD[..2]);
    let bad = bad_insn(&b[16..32]);
    b[16..32].copy_from_slice(&bad);
    assert_eq!(
        unsafe { euref_load_program(h.0, b.as_ptr(), b.len()) },
        EUREF_ERR_DECODE
    );
    assert!(h.error().contains("byte offset 16"), "{}", h.error());
    // Empty.
    assert_eq!(
        unsafe { euref_load_program(h.0, b.as_ptr(), 0) },
        EUREF_ERR_ARG
    );
}

/// `insn` with a field changed so that it no longer decodes on Skylake: the first of a few
/// candidate corruptions the decoder refuses.
fn bad_insn(insn: &[u8]) -> [u8; 16] {
    for (byte, bits) in [
        (5usize, 0xf0u8),
        (5, 0x78),
        (4, 0x80),
        (12, 0x07),
        (8, 0xff),
    ] {
        let mut b: [u8; 16] = insn.try_into().unwrap();
        b[byte] |= bits;
        if let Err(euref::codec::DecodeError { .. }) = euref::codec::decode(&b, SKL) {
            return b;
        }
    }
    panic!("no candidate corruption fails to decode");
}

#[test]
fn grf_round_trips_and_the_default_grf_is_undefined() {
    let h = Handle::new("skl");
    // docs/run.md: the default state's GRF is undefined.
    let (_, u) = h.grf(5);
    assert_eq!(u, [0xff; 32]);
    let v: Vec<u8> = (0..32).collect();
    assert_eq!(unsafe { euref_set_grf(h.0, 5, v.as_ptr()) }, EUREF_OK);
    let (b, u) = h.grf(5);
    assert_eq!(b.to_vec(), v);
    assert_eq!(u, [0; 32]);
    assert_eq!(
        unsafe { euref_set_grf(h.0, 200, v.as_ptr()) },
        EUREF_ERR_ARG
    );
}

#[test]
fn a_step_reports_its_writes() {
    let h = Handle::with_program("skl", SKL, &MAD);
    // mov (8) ud: r10 bytes 0..32, eight copies of the dword.
    let (rc, info) = h.step();
    assert_eq!(rc, EUREF_OK, "{}", h.error());
    assert_eq!(
        (info.ip, info.next_ip, info.enabled, info.ended),
        (0, 16, 0xff, 0)
    );
    let w = h.writes(&info);
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(
        (w[0].kind, name(&w[0]).as_str(), w[0].offset, w[0].len),
        (EUREF_WRITE_GRF, "r10", 0, 32)
    );
    assert_eq!(w[0].bytes.to_vec(), dwords(0x1234_5678, 8));
    assert_eq!(w[0].undefined, [0; 32]);
    for _ in 0..3 {
        assert_eq!(h.step().0, EUREF_OK);
    }
    // mad (16) f: r18 and r19, one chunk per register, 3.25 in every channel.
    let (rc, info) = h.step();
    assert_eq!(rc, EUREF_OK, "{}", h.error());
    assert_eq!((info.ip, info.enabled), (64, 0xffff));
    let w = h.writes(&info);
    let grf: Vec<_> = w.iter().filter(|w| w.kind == EUREF_WRITE_GRF).collect();
    assert_eq!(grf.len(), 2, "{w:?}");
    for (w, r) in grf.iter().zip(["r18", "r19"]) {
        assert_eq!((name(w).as_str(), w.offset, w.len), (r, 0, 32));
        assert_eq!(w.bytes.to_vec(), dwords(F3_25, 8));
    }
    // cmp: f0.0 (the low 16 bits of f0) set for all 16 channels; f0.1 stays undefined.
    let (rc, info) = h.step();
    assert_eq!(rc, EUREF_OK, "{}", h.error());
    assert_eq!(info.ended, 1);
    let w = h.writes(&info);
    // (The runner's record of an ARF write is a byte range, here over f0 and f1: f1 is
    // listed too, unchanged and undefined.)
    let f: Vec<_> = w
        .iter()
        .filter(|w| w.kind == EUREF_WRITE_FLAG && name(w) == "f0")
        .collect();
    assert_eq!(f.len(), 1, "{w:?}");
    assert!(w.iter().all(|w| w.kind == EUREF_WRITE_FLAG), "{w:?}");
    let at = f[0].offset as usize;
    assert_eq!(at, 0, "the chunk starts at f0.0");
    assert_eq!(&f[0].bytes[..2], &[0xff, 0xff]);
    assert_eq!(&f[0].undefined[..2], &[0, 0]);
    // A write index past the last one.
    let mut out = euref_write::default();
    assert_eq!(
        unsafe { euref_step_write(h.0, info.n_writes, &mut out) },
        EUREF_ERR_ARG
    );
}

#[test]
fn stepping_after_the_end_is_an_error() {
    let h = Handle::with_program("skl", SKL, &MAD[..1]);
    let (rc, info) = h.step();
    assert_eq!((rc, info.ended), (EUREF_OK, 1));
    let (rc, info) = h.step();
    assert_eq!(rc, EUREF_ERR_ENDED);
    assert_eq!(info.ended, 1);
    assert!(h.error().contains("ended"), "{}", h.error());
}

#[test]
fn a_refused_instruction_names_its_row() {
    // Static (spec/rules): a SIMD16 dword destination from r127 leaves the GRF.
    let h = Handle::with_program("skl", SKL, &["mov (16|M0) r127.0<1>:d 0:d"]);
    let (rc, _) = h.step();
    assert_eq!(rc, EUREF_ERR_REFUSED);
    assert!(
        h.error().contains("[align.dst-grf-in-range]"),
        "{}",
        h.error()
    );
    // Nothing ran: the instruction is still next.
    let (rc, _) = h.step();
    assert_eq!(rc, EUREF_ERR_REFUSED);
    // Runtime (spec/runtime.toml): reading as D an accumulator written as F.
    let h = Handle::with_program(
        "skl",
        SKL,
        &[
            "mov (8|M0) acc0.0<1>:f 1.5:f",
            "mov (8|M0) r2.0<1>:d acc0.0<8;8,1>:d",
        ],
    );
    assert_eq!(h.step().0, EUREF_OK, "{}", h.error());
    assert_eq!(h.step().0, EUREF_ERR_REFUSED);
    assert!(
        h.error().contains("[runtime.acc-read-type-mismatch]")
            && h.error().contains("cite: seed004"),
        "{}",
        h.error()
    );
    // Lenient: executed, the destination undefined.
    assert_eq!(unsafe { euref_set_strict(h.0, 0) }, EUREF_OK);
    let (rc, info) = h.step();
    assert_eq!(rc, EUREF_OK, "{}", h.error());
    let w = h.writes(&info);
    assert_eq!(name(&w[0]), "r2");
    assert_eq!(w[0].undefined, [0xff; 32]);
}

#[test]
fn compare_passes_on_equal_and_names_channels_and_rows_on_a_mismatch() {
    let h = Handle::with_program("skl", SKL, &MAD);
    for _ in 0..5 {
        assert_eq!(h.step().0, EUREF_OK, "{}", h.error());
    }
    let mut good = [0u8; 32];
    good.copy_from_slice(&dwords(F3_25, 8));
    let mut report = vec![0 as c_char; 1024];
    let cmp = |a: &[u8; 32], report: &mut Vec<c_char>| unsafe {
        euref_compare_grf(h.0, 18, a.as_ptr(), report.as_mut_ptr(), report.len())
    };
    assert_eq!(cmp(&good, &mut report), EUREF_OK);
    assert_eq!(report[0], 0);
    // Channel 3 (bytes 12..16) off by one ulp.
    let mut bad = good;
    bad[12] = 1;
    assert_eq!(cmp(&bad, &mut report), EUREF_MISMATCH);
    let text = unsafe { CStr::from_ptr(report.as_ptr()) }
        .to_string_lossy()
        .into_owned();
    assert!(text.contains("channel 3 "), "{text}");
    assert!(
        text.contains("0x40500000") && text.contains("0x40500001"),
        "{text}"
    );
    assert!(text.contains("IP 0x40") && text.contains("mad"), "{text}");
    assert!(text.contains("opcode.mad"), "the rows of the mad: {text}");
    // Undefined bytes are not compared: r20 was never written.
    assert_eq!(
        unsafe { euref_compare_grf(h.0, 20, bad.as_ptr(), std::ptr::null_mut(), 0) },
        EUREF_OK
    );
    // A short report buffer is cut and terminated.
    let mut short = vec![0x55 as c_char; 8];
    assert_eq!(cmp(&bad, &mut short), EUREF_MISMATCH);
    assert_eq!(short[7], 0);
    assert_eq!(
        unsafe { CStr::from_ptr(short.as_ptr()) }.to_bytes(),
        &text.as_bytes()[..7]
    );
}

#[test]
fn named_registers_read_and_write_with_masks() {
    let h = Handle::new("skl");
    // docs/run.md default state: flags undefined, ip defined (0).
    let (b, u, _) = h.reg("f0");
    assert_eq!((b.len(), u), (4, vec![0xff; 4]));
    let (b, u, _) = h.reg("ip");
    assert_eq!((b, u), (vec![0; 4], vec![0; 4]));
    // f0: 0x1234 in f0.0, f0.1 undefined in its top byte only.
    assert_eq!(
        h.set_reg("f0", &[0x34, 0x12, 0, 0], Some(&[0, 0, 0, 0xff])),
        EUREF_OK
    );
    let (b, u, _) = h.reg("f0");
    assert_eq!(
        (b[..3].to_vec(), u),
        (vec![0x34, 0x12, 0], vec![0, 0, 0, 0xff])
    );
    // acc0 and r7 by name.
    assert_eq!(h.set_reg("r7", &[9; 32], None), EUREF_OK);
    assert_eq!(h.grf(7).0, [9; 32]);
    assert_eq!(h.reg("acc0").0.len(), 32);
    // Unknown names list what exists; ip is the program's.
    assert_eq!(h.set_reg("r128", &[0; 4], None), EUREF_ERR_ARG);
    assert_eq!(h.set_reg("q3", &[0; 4], None), EUREF_ERR_ARG);
    assert!(
        h.error().contains("acc0") && h.error().contains("cr0"),
        "{}",
        h.error()
    );
    assert_eq!(h.set_reg("ip", &[0; 4], None), EUREF_ERR_ARG);
    assert_eq!(h.set_reg("f0", &[0; 8], None), EUREF_ERR_ARG);
}

#[test]
fn the_state_json_loads_and_its_errors_name_the_path() {
    let h = Handle::with_program("skl", SKL, &["add (8|M0) r3.0<1>:ud r2.0<8;8,1>:ud 0x5:ud"]);
    let doc = r#"{"r2": {"type": "ud", "values": [1, 2, 3, 4, 5, 6, 7, 8]}}"#;
    let rc = unsafe { euref_load_state_json(h.0, doc.as_ptr().cast(), doc.len()) };
    assert_eq!(rc, EUREF_OK, "{}", h.error());
    assert_eq!(h.step().0, EUREF_OK, "{}", h.error());
    let want: Vec<u8> = (1..=8u32).flat_map(|v| (v + 5).to_le_bytes()).collect();
    assert_eq!(h.grf(3).0.to_vec(), want);
    let bad = r#"{"r2": {"type": "ud", "values": [1, "x"]}}"#;
    let rc = unsafe { euref_load_state_json(h.0, bad.as_ptr().cast(), bad.len()) };
    assert_eq!(rc, EUREF_ERR_PARSE);
    assert!(h.error().contains("$.r2"), "{}", h.error());
}

#[test]
fn run_stops_at_the_end_or_at_the_bound() {
    let h = Handle::with_program("skl", SKL, &MAD);
    let mut n = 0u64;
    assert_eq!(unsafe { euref_run(h.0, 3, &mut n) }, EUREF_ERR_LIMIT);
    assert!(h.error().contains("3 instructions"), "{}", h.error());
    assert_eq!(
        unsafe { euref_run(h.0, 100, &mut n) },
        EUREF_OK,
        "{}",
        h.error()
    );
    assert_eq!(n, 3, "the three instructions left");
    assert_eq!(h.grf(18).0.to_vec(), dwords(F3_25, 8));
}

#[test]
fn handles_step_in_parallel_on_two_os_threads() {
    let run = |v: u32| {
        let h = Handle::with_program(
            "bdw",
            Platform::Bdw,
            &[
                &format!("mov (8|M0) r4.0<1>:ud {v:#x}:ud"),
                "add (8|M0) r5.0<1>:ud r4.0<8;8,1>:ud 0x1:ud",
            ],
        );
        std::thread::spawn(move || {
            let mut out = Vec::new();
            for _ in 0..2 {
                let (rc, info) = h.step();
                assert_eq!(rc, EUREF_OK, "{}", h.error());
                out.push(h.writes(&info)[0].bytes);
            }
            out
        })
    };
    let (a, b) = (run(7), run(1000));
    let (a, b) = (a.join().unwrap(), b.join().unwrap());
    assert_eq!(a[1].to_vec(), dwords(8, 8));
    assert_eq!(b[1].to_vec(), dwords(1001, 8));
}
