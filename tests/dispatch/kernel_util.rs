//! Helpers of the tests that run hand-written kernels through a dispatch: an image from IGA
//! text, a description from JSON, and the final bytes of a result's buffers.

use euref::asm::{self, Dialect};
use euref::dispatch::run::{BufferKind, RunResult};
use euref::dispatch::Dispatch;
use euref::spec::Platform;
use euref::thread::Image;

/// The native encoding of IGA text `text` on `p`, loaded at 0.
pub fn image(p: Platform, text: &str) -> Image {
    let prog = asm::parse(text.as_bytes(), Some(Dialect::Iga), p).expect("assembles");
    Image::from_insns(p, &prog.insns, 0).expect("encodes")
}

/// A valid description (files relative to a fresh temporary folder).
pub fn dispatch(json: &str) -> Dispatch {
    let dir = tempfile::tempdir().unwrap();
    Dispatch::parse(json, dir.path()).expect("valid description")
}

/// The final bytes of `a64_buffers[index]`.
pub fn a64(r: &RunResult, index: usize) -> &[Option<u8>] {
    r.buffers
        .iter()
        .find_map(|b| match b.kind {
            BufferKind::A64 { index: i, .. } if i == index => Some(b.bytes.as_slice()),
            _ => None,
        })
        .expect("the buffer is in the result")
}

/// The final bytes of `surfaces[index]`.
pub fn surface(r: &RunResult, index: usize) -> &[Option<u8>] {
    r.buffers
        .iter()
        .find_map(|b| match b.kind {
            BufferKind::Surface { index: i, .. } if i == index => Some(b.bytes.as_slice()),
            _ => None,
        })
        .expect("the surface is in the result")
}

/// Little-endian dwords of `b` (`None` where a byte is undefined).
pub fn dwords(b: &[Option<u8>]) -> Vec<Option<u32>> {
    b.chunks(4)
        .map(|c| Some(u32::from_le_bytes([c[0]?, c[1]?, c[2]?, c[3]?])))
        .collect()
}
