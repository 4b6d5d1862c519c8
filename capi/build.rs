//! Generates the C header of libeuref from the Rust source with cbindgen: written to
//! `$OUT_DIR/euref.h` (the test `header_is_current` checks that the committed
//! include/euref.h equals it; `EUREF_BLESS_HEADER=1 cargo test -p euref-capi --test header`
//! rewrites the committed one).

use std::path::{Path, PathBuf};

/// The source files that declare what the header shows (the extern "C" functions, the
/// `#[repr(C)]` types and the constants): cbindgen reads these files only.
const FFI_SOURCES: [&str; 2] = ["src/ffi.rs", "src/ffi_types.rs"];

fn main() {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("euref.h");
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml"))
        .unwrap_or_else(|e| panic!("capi/cbindgen.toml: {e}"));
    let mut b = cbindgen::Builder::new().with_config(config);
    for f in FFI_SOURCES {
        b = b.with_src(Path::new(&dir).join(f));
        println!("cargo:rerun-if-changed={f}");
    }
    println!("cargo:rerun-if-changed=cbindgen.toml");
    match b.generate() {
        Ok(h) => {
            h.write_to_file(&out);
        }
        Err(e) => panic!("cbindgen could not generate the header from {FFI_SOURCES:?}: {e}"),
    }
}
