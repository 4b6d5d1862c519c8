//! Helpers of the capi tests: assembling a program with euref's library (the tests under
//! test do not assemble), and safe wrappers over the extern "C" calls they make often.

#![allow(dead_code)]

use euref::spec::Platform;
use euref::thread::Image;
use euref_capi::*;
use std::ffi::{CStr, CString};

/// The native encoding of the IGA lines `lines` on `p` (labels resolved), from address 0.
pub fn assemble(p: Platform, lines: &[&str]) -> Vec<u8> {
    let text = lines.join("\n");
    let prog = euref::asm::parse(text.as_bytes(), None, p)
        .unwrap_or_else(|e| panic!("{}:{}: {}", e.line, e.col, e.msg));
    Image::from_insns(p, &prog.insns, 0)
        .expect("encodes")
        .bytes()
        .to_vec()
}

/// An owned handle, freed when dropped.
pub struct Handle(pub *mut euref_thread);

impl Handle {
    pub fn new(platform: &str) -> Handle {
        let c = CString::new(platform).unwrap();
        let t = unsafe { euref_thread_new(c.as_ptr()) };
        assert!(!t.is_null(), "{}", new_error());
        Handle(t)
    }

    /// A thread with the program `lines` loaded.
    pub fn with_program(platform: &str, p: Platform, lines: &[&str]) -> Handle {
        let h = Handle::new(platform);
        let bytes = assemble(p, lines);
        let rc = unsafe { euref_load_program(h.0, bytes.as_ptr(), bytes.len()) };
        assert_eq!(rc, EUREF_OK, "{}", h.error());
        h
    }

    pub fn error(&self) -> String {
        unsafe { CStr::from_ptr(euref_last_error(self.0)) }
            .to_string_lossy()
            .into_owned()
    }

    /// One step: its status and report.
    pub fn step(&self) -> (i32, euref_step_info) {
        let mut info = euref_step_info::default();
        let rc = unsafe { euref_step(self.0, &mut info) };
        (rc, info)
    }

    /// The writes of the last step.
    pub fn writes(&self, info: &euref_step_info) -> Vec<euref_write> {
        (0..info.n_writes)
            .map(|i| {
                let mut w = euref_write::default();
                assert_eq!(unsafe { euref_step_write(self.0, i, &mut w) }, EUREF_OK);
                w
            })
            .collect()
    }

    /// GRF register `reg` and its undefined marks.
    pub fn grf(&self, reg: u32) -> ([u8; 32], [u8; 32]) {
        let (mut b, mut u) = ([0u8; 32], [0u8; 32]);
        let rc = unsafe { euref_get_grf(self.0, reg, b.as_mut_ptr(), u.as_mut_ptr()) };
        assert_eq!(rc, EUREF_OK, "{}", self.error());
        (b, u)
    }

    /// Register `name`: bytes, undefined and inexact masks.
    pub fn reg(&self, name: &str) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
        let c = CString::new(name).unwrap();
        let mut len = 0usize;
        let (mut b, mut u, mut x) = (vec![0u8; 64], vec![0u8; 64], vec![0u8; 64]);
        let rc = unsafe {
            euref_get_reg(
                self.0,
                c.as_ptr(),
                b.as_mut_ptr(),
                u.as_mut_ptr(),
                x.as_mut_ptr(),
                64,
                &mut len,
            )
        };
        assert_eq!(rc, EUREF_OK, "{}", self.error());
        b.truncate(len);
        u.truncate(len);
        x.truncate(len);
        (b, u, x)
    }

    pub fn set_reg(&self, name: &str, bytes: &[u8], undefined: Option<&[u8]>) -> i32 {
        let c = CString::new(name).unwrap();
        unsafe {
            euref_set_reg(
                self.0,
                c.as_ptr(),
                bytes.as_ptr(),
                undefined.map_or(std::ptr::null(), |u| u.as_ptr()),
                bytes.len(),
            )
        }
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        unsafe { euref_thread_free(self.0) };
    }
}

// SAFETY: a handle is independent of every other (the property under test).
unsafe impl Send for Handle {}

pub fn new_error() -> String {
    unsafe { CStr::from_ptr(euref_new_error()) }
        .to_string_lossy()
        .into_owned()
}

/// The name of a write.
pub fn name(w: &euref_write) -> String {
    euref_capi::writes::name_of(w)
}

/// `n` dwords of `v` as little-endian bytes.
pub fn dwords(v: u32, n: usize) -> Vec<u8> {
    (0..n).flat_map(|_| v.to_le_bytes()).collect()
}
