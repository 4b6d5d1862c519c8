//! The committed C header (capi/include/euref.h, what C users and the C example include)
//! equals the one cbindgen generates from the source at build time (build.rs). After changing
//! the interface: `EUREF_BLESS_HEADER=1 cargo test -p euref-capi --test header` rewrites it.

use std::path::Path;

#[test]
fn committed_header_is_the_generated_one() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("include/euref.h");
    let generated = euref_capi::GENERATED_HEADER;
    if std::env::var_os("EUREF_BLESS_HEADER").is_some() {
        std::fs::write(&path, generated).expect("write include/euref.h");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} differs from the header generated from capi/src (run \
         `EUREF_BLESS_HEADER=1 cargo test -p euref-capi --test header` and commit it)",
        path.display()
    );
}

/// The contract's declarations are in the header, spelled as the DPI-C wrapper expects.
#[test]
fn header_declares_the_contract() {
    let h = euref_capi::GENERATED_HEADER;
    for decl in [
        "typedef struct euref_thread euref_thread;",
        "euref_thread *euref_thread_new(const char *platform);",
        "const char *euref_new_error(void);",
        "void euref_thread_free(euref_thread *t);",
        "const char *euref_last_error(const euref_thread *t);",
        "int32_t euref_load_program(euref_thread *t, const uint8_t *bytes, size_t len);",
        "int32_t euref_set_grf(euref_thread *t, uint32_t reg, const uint8_t *bytes32);",
        "int32_t euref_step(euref_thread *t, euref_step_info *out);",
        "int32_t euref_step_write(const euref_thread *t, uint32_t i, euref_write *out);",
        "char name[16];",
        "#define EUREF_ERR_INTERNAL -99",
    ] {
        assert!(h.contains(decl), "the header lacks `{decl}`:\n{h}");
    }
}
