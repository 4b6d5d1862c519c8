//! Memory through the C interface: a surface in euref's memory (bound with its bytes, read
//! back after the run, the step's memory writes), the host's read/write callbacks, a failing
//! callback and a memory row that refuses. The program (tests/golden/program_hand.rs, issue
//! 31, its offsets made from a word vector as imm.vector-dst-stride requires in strict
//! execution): channel c adds 1 to r11 `c & 3` times in a loop, then an untyped write stores
//! r11 at byte 4c of the surface at binding-table index 3; Broadwell, channels 0-7
//! dispatched.

mod common;

use common::{dwords, name, Handle};
use euref::spec::Platform;
use euref_capi::*;
use std::ffi::c_void;
use std::sync::Mutex;

const PROGRAM: [&str; 14] = [
    "and (8|M0) r20.0<1>:ud r10.0<8;8,1>:ud 0x3:ud",
    "add (8|M0) r20.0<1>:ud r20.0<8;8,1>:ud 0x1:ud",
    "LOOP:",
    "add (8|M0) (eq)f0.0 r20.0<1>:d r20.0<8;8,1>:d -1:d",
    "(f0.0) break (8|M0) WHILE WHILE",
    "add (8|M0) r11.0<1>:ud r11.0<8;8,1>:ud 0x1:ud",
    "WHILE:",
    "while (8|M0) LOOP",
    "mov (8|M0) r29.0<1>:uw 0x76543210:v",
    "shl (8|M0) r30.0<1>:ud r29.0<8;8,1>:uw 0x2:ud",
    "mov (8|M0) r31.0<1>:ud r11.0<8;8,1>:ud",
    "send (8|M0) null r30 0xC 0x4026E03",
    "(W) mov (8|M0) r127.0<1>:ud 0x0:ud",
    "send (8|M0) null r127 0x27 0x2000010 {EOT}",
];

const BASE: u64 = 0x1000;
const R11: u32 = 100;

/// The surface after the run: dword c (c < 8) is R11 + (c & 3); the rest as it was.
fn expected(fill: u8) -> Vec<u8> {
    let mut m: Vec<u8> = (0..8u32)
        .flat_map(|c| (R11 + (c & 3)).to_le_bytes())
        .collect();
    m.resize(64, fill);
    m
}

/// The thread with the program, r10 = c, r11 = R11, flags zero, channels 0-7 dispatched.
fn thread() -> Handle {
    let h = Handle::with_program("bdw", Platform::Bdw, &PROGRAM);
    let r10: Vec<u8> = (0..8u32).flat_map(|c| c.to_le_bytes()).collect();
    assert_eq!(h.set_reg("r10", &r10, None), EUREF_OK);
    assert_eq!(h.set_reg("r11", &dwords(R11, 8), None), EUREF_OK);
    assert_eq!(h.set_reg("f0", &[0; 4], None), EUREF_OK);
    assert_eq!(h.set_reg("f1", &[0; 4], None), EUREF_OK);
    // sr0.2 DMask = 0xff, sr0.3 VMask = 0xff (the groups of four with a dispatched channel).
    let (mut b, mut u, _) = h.reg("sr0");
    b[8..16].copy_from_slice(&[0xff, 0, 0, 0, 0xff, 0, 0, 0]);
    u[8..16].fill(0);
    assert_eq!(h.set_reg("sr0", &b, Some(&u)), EUREF_OK, "{}", h.error());
    h
}

#[test]
fn a_surface_in_euref_memory_is_written_and_read_back() {
    let h = thread();
    let fill = [0xaau8; 64];
    let rc = unsafe { euref_bind_surface(h.0, 3, BASE, fill.as_ptr(), 64) };
    assert_eq!(rc, EUREF_OK, "{}", h.error());
    let mut stored = [None; 64];
    let mut ended = false;
    while !ended {
        let (rc, info) = h.step();
        assert_eq!(rc, EUREF_OK, "{}", h.error());
        for w in h
            .writes(&info)
            .iter()
            .filter(|w| w.kind == EUREF_WRITE_MEMORY)
        {
            assert_eq!(name(w), "mem");
            for k in 0..w.len as usize {
                assert_eq!(w.undefined[k], 0);
                stored[(w.offset - BASE) as usize + k] = Some(w.bytes[k]);
            }
        }
        ended = info.ended == 1;
    }
    let want = expected(0xaa);
    // The step's memory writes: the 32 bytes the send stored.
    let listed: Vec<u8> = stored[..32].iter().map(|b| b.expect("written")).collect();
    assert_eq!(listed, want[..32]);
    assert!(stored[32..].iter().all(Option::is_none));
    let (mut b, mut u) = (vec![0u8; 64], vec![0u8; 64]);
    let rc = unsafe {
        euref_read_memory(
            h.0,
            BASE,
            b.as_mut_ptr(),
            u.as_mut_ptr(),
            std::ptr::null_mut(),
            64,
        )
    };
    assert_eq!(rc, EUREF_OK);
    assert_eq!(b, want);
    assert_eq!(u, vec![0; 64]);
    // Past the surface nothing was ever written: undefined.
    let rc = unsafe {
        euref_read_memory(
            h.0,
            BASE + 64,
            b.as_mut_ptr(),
            u.as_mut_ptr(),
            std::ptr::null_mut(),
            4,
        )
    };
    assert_eq!((rc, &u[..4]), (EUREF_OK, &[0xff; 4][..]));
}

/// The host's memory: bytes by address, and the number of calls.
#[derive(Default)]
struct Host {
    bytes: Mutex<Vec<u8>>,
    writes: Mutex<u32>,
    fail_writes: bool,
}

unsafe extern "C" fn host_read(
    user: *mut c_void,
    addr: u64,
    bytes: *mut u8,
    undefined: *mut u8,
    len: u32,
) -> i32 {
    let host = unsafe { &*(user as *const Host) };
    let m = host.bytes.lock().unwrap();
    for k in 0..len as usize {
        let a = (addr - BASE) as usize + k;
        match m.get(a) {
            Some(v) => unsafe { *bytes.add(k) = *v },
            None => unsafe { *undefined.add(k) = 0xff },
        }
    }
    0
}

unsafe extern "C" fn host_write(
    user: *mut c_void,
    addr: u64,
    bytes: *const u8,
    _undefined: *const u8,
    len: u32,
    _inexact: u32,
) -> i32 {
    let host = unsafe { &*(user as *const Host) };
    *host.writes.lock().unwrap() += 1;
    if host.fail_writes {
        return -1;
    }
    let mut m = host.bytes.lock().unwrap();
    for k in 0..len as usize {
        m[(addr - BASE) as usize + k] = unsafe { *bytes.add(k) };
    }
    0
}

#[test]
fn host_callbacks_hold_the_memory() {
    let host = Host {
        bytes: Mutex::new(vec![0x11; 64]),
        ..Host::default()
    };
    let h = thread();
    let user = &host as *const Host as *mut c_void;
    let rc = unsafe { euref_set_memory_callbacks(h.0, Some(host_read), Some(host_write), user) };
    assert_eq!(rc, EUREF_OK);
    // The surface's bytes are the host's.
    let fill = [0u8; 64];
    assert_eq!(
        unsafe { euref_bind_surface(h.0, 3, BASE, fill.as_ptr(), 64) },
        EUREF_ERR_ARG
    );
    assert_eq!(
        unsafe { euref_bind_surface(h.0, 3, BASE, std::ptr::null(), 64) },
        EUREF_OK
    );
    let mut n = 0;
    assert_eq!(
        unsafe { euref_run(h.0, 1000, &mut n) },
        EUREF_OK,
        "{}",
        h.error()
    );
    assert_eq!(*host.bytes.lock().unwrap(), expected(0x11));
    assert!(*host.writes.lock().unwrap() >= 1);
    // euref holds none of it.
    let mut b = [0u8; 4];
    let rc = unsafe {
        euref_read_memory(
            h.0,
            BASE,
            b.as_mut_ptr(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            4,
        )
    };
    assert_eq!(rc, EUREF_ERR_ARG);
    // One callback without the other is refused.
    let rc = unsafe { euref_set_memory_callbacks(h.0, Some(host_read), None, user) };
    assert_eq!(rc, EUREF_ERR_ARG);
}

#[test]
fn a_failing_callback_fails_the_step() {
    let host = Host {
        bytes: Mutex::new(vec![0; 64]),
        fail_writes: true,
        ..Host::default()
    };
    let h = thread();
    let user = &host as *const Host as *mut c_void;
    unsafe {
        assert_eq!(
            euref_set_memory_callbacks(h.0, Some(host_read), Some(host_write), user),
            EUREF_OK
        );
        assert_eq!(
            euref_bind_surface(h.0, 3, BASE, std::ptr::null(), 64),
            EUREF_OK
        );
    }
    let rc = unsafe { euref_run(h.0, 1000, std::ptr::null_mut()) };
    assert_eq!(rc, EUREF_ERR_MEMORY);
    assert!(
        h.error().contains("write callback returned -1"),
        "{}",
        h.error()
    );
}

#[test]
fn an_unbound_surface_is_refused_by_its_row() {
    let h = thread();
    let rc = unsafe { euref_run(h.0, 1000, std::ptr::null_mut()) };
    assert_eq!(rc, EUREF_ERR_MEMORY);
    assert!(h.error().contains("[mem.surface.unbound]"), "{}", h.error());
}
