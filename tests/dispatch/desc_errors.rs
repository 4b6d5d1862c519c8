//! Each kind of refused description, with the JSON path it names.

use crate::util::{minimal, Scratch};
use euref::dispatch::DescError;

/// Parse `json` in a scratch folder and return the error.
fn refuse(json: &str) -> DescError {
    let s = Scratch::new();
    match s.parse(json) {
        Ok(d) => panic!("accepted: {d:?}"),
        Err(e) => e,
    }
}

/// The error names `path` and its message contains `what`.
fn check(json: &str, path: &str, what: &str) {
    let e = refuse(json);
    assert_eq!(e.path, path, "{e}");
    assert!(e.to_string().contains(what), "{e}");
    assert!(!e.fix.is_empty(), "{e}");
}

#[test]
fn malformed_json_gives_line_and_column() {
    let e = refuse("{\n  \"kernel\": {\"file\": \"k.bin\"},\n  \"platform\": skl\n}");
    assert_eq!((e.line, e.column), (Some(3), Some(15)), "{e}");
    assert!(e.to_string().starts_with("3:15"), "{e}");
    assert!(e.fix.contains("syntax"), "{e}");
}

#[test]
fn unknown_missing_and_mistyped_keys() {
    let e = refuse(&minimal(r#", "slm": 4"#));
    assert!(e.what.contains("unknown field `slm`"), "{e}");
    assert_eq!(e.line, Some(2));
    check(
        r#"{"kernel": {"file": "k.bin"}, "platform": "skl", "simd": 16, "local_size": [1, 1, 1]}"#,
        "",
        "missing field `work_groups`",
    );
    check(
        &minimal("").replace("\"simd\": 16", "\"simd\": \"16\""),
        "simd",
        "invalid type",
    );
    check(
        &minimal(r#", "surfaces": [{"bti": 2, "size": 4, "init": {"fil": 0}}]"#),
        "surfaces[0].init.fil",
        "unknown field `fil`",
    );
    check(
        &minimal("").replace("[16, 1, 1]", "[16, 1]"),
        "local_size",
        "invalid length",
    );
}

#[test]
fn platform_simd_sizes_and_kernel() {
    check(
        &minimal("").replace("skl", "gen12"),
        "platform",
        "unknown platform `gen12`",
    );
    check(
        &minimal("").replace("\"simd\": 16", "\"simd\": 12"),
        "simd",
        "not 8, 16 or 32",
    );
    check(
        &minimal("").replace("[16, 1, 1]", "[16, 0, 1]"),
        "local_size[1]",
        "zero",
    );
    check(
        &minimal("").replace("[1, 1, 1]", "[0, 1, 1]"),
        "work_groups[0]",
        "zero",
    );
    check(
        &minimal("").replace("k.bin", "missing.bin"),
        "kernel.file",
        "is not a file",
    );
    check(
        &minimal("").replace("k.bin", "k.elf"),
        "kernel",
        "cannot tell the format",
    );
    check(
        &minimal("").replace(r#""k.bin"}"#, r#""k.bin", "format": "elf"}"#),
        "kernel.format",
        "unknown kernel format `elf`",
    );
}

#[test]
fn surfaces_and_contents() {
    check(
        &minimal(r#", "surfaces": [{"bti": 256, "size": 4}]"#),
        "surfaces[0].bti",
        "above 255",
    );
    check(
        &minimal(r#", "surfaces": [{"bti": 2, "size": 4}, {"bti": 2, "size": 8}]"#),
        "surfaces[1].bti",
        "also surfaces[0]",
    );
    check(
        &minimal(r#", "surfaces": [{"bti": 2, "size": 4, "init": {"hex": "00", "fill": 1}}]"#),
        "surfaces[0].init",
        "2 forms",
    );
    check(
        &minimal(r#", "surfaces": [{"bti": 2, "size": 4, "init": {}}]"#),
        "surfaces[0].init",
        "0 forms",
    );
    check(
        &minimal(
            r#", "surfaces": [{"bti": 2, "size": 4, "init": {"dtype": "uint8", "values": [1, 2, 256]}}]"#,
        ),
        "surfaces[0].init.values[2]",
        "256 is outside uint8",
    );
    check(
        &minimal(
            r#", "surfaces": [{"bti": 2, "size": 4, "init": {"dtype": "uint16", "values": [-1]}}]"#,
        ),
        "surfaces[0].init.values[0]",
        "-1 is outside uint16",
    );
    check(
        &minimal(
            r#", "surfaces": [{"bti": 2, "size": 4, "init": {"dtype": "int8", "values": ["0x100"]}}]"#,
        ),
        "surfaces[0].init.values[0]",
        "do not fit in 8 bits",
    );
    check(
        &minimal(
            r#", "surfaces": [{"bti": 2, "size": 4, "init": {"dtype": "int24", "values": []}}]"#,
        ),
        "surfaces[0].init.dtype",
        "unknown element type `int24`",
    );
    check(
        &minimal(r#", "surfaces": [{"bti": 2, "size": 4, "init": {"values": [1]}}]"#),
        "surfaces[0].init",
        "without `dtype`",
    );
    check(
        &minimal(r#", "surfaces": [{"bti": 2, "size": 4, "init": {"hex": "0g"}}]"#),
        "surfaces[0].init.hex",
        "`g` at character 1",
    );
    check(
        &minimal(r#", "surfaces": [{"bti": 2, "size": 4, "init": {"hex": "001 2"}}]"#),
        "surfaces[0].init.hex",
        "lone hex digit at character 2",
    );
    check(
        &minimal(r#", "surfaces": [{"bti": 2, "size": 2, "init": {"hex": "000102"}}]"#),
        "surfaces[0].init",
        "3 bytes of contents for a 2-byte buffer",
    );
    check(
        &minimal(r#", "surfaces": [{"bti": 2, "size": 2, "init": {"file": "nothing.bin"}}]"#),
        "surfaces[0].init.file",
        "cannot read",
    );
}

#[test]
fn a64_buffers() {
    check(
        &minimal(r#", "a64_buffers": [{"address": -1, "size": 4}]"#),
        "a64_buffers[0].address",
        "not a 64-bit address",
    );
    check(
        &minimal(r#", "a64_buffers": [{"address": "0xffffffffffffffff", "size": 2}]"#),
        "a64_buffers[0].size",
        "do not fit",
    );
    check(
        &minimal(r#", "a64_buffers": [{"address": 0, "size": 16}, {"address": 8, "size": 4}]"#),
        "a64_buffers[1]",
        "overlaps a64_buffers[0]",
    );
}

#[test]
fn curbe_and_placement() {
    // 20 invocations at SIMD16: 2 threads, so 1 + 2*1 registers = 96 bytes.
    let base = r#"{"kernel": {"file": "k.bin"}, "platform": "PLAT", "simd": 16,
      "local_size": [20, 1, 1], "work_groups": [1, 1, 1], "curbe": CURBE EXTRA}"#;
    let with = |plat: &str, curbe: &str, extra: &str| {
        base.replace("PLAT", plat)
            .replace("CURBE", curbe)
            .replace("EXTRA", extra)
    };
    check(
        &with(
            "skl",
            r#"{"cross_thread_regs": 1, "per_thread_regs": 1, "data": {"fill": 0}}"#,
            "",
        )
        .replace("{\"fill\": 0}", "{\"hex\": \"00\"}"),
        "curbe.data",
        "1 bytes; 1 cross-thread and 1 per-thread registers for 2 threads take 96",
    );
    // payload.curbe.no-cross-thread: Ivy Bridge has no cross-thread block.
    check(
        &with(
            "ivb",
            r#"{"cross_thread_regs": 1, "data": {"fill": 0}}"#,
            "",
        ),
        "curbe.cross_thread_regs",
        "payload.curbe.no-cross-thread",
    );
    check(
        &with(
            "skl",
            r#"{"per_thread_regs": 1, "data": {"fill": 0}, "per_thread_grf": 127}"#,
            r#", "local_ids": {"grf": 127, "components": 1}"#,
        ),
        "local_ids.grf",
        "overlap `curbe.per_thread_grf`",
    );
    check(
        &with(
            "skl",
            r#"{"per_thread_regs": 2, "data": {"fill": 0}, "per_thread_grf": 127}"#,
            "",
        ),
        "curbe.per_thread_grf",
        "r127..r128 are not within r1..r127",
    );
    check(
        &with(
            "skl",
            r#"{"per_thread_regs": 1, "data": {"fill": 0}, "grf": 0}"#,
            "",
        ),
        "curbe.per_thread_grf",
        "r0..r0",
    );
    check(
        &with(
            "skl",
            r#"{"data": {"fill": 0}}"#,
            r#", "local_ids": {"grf": 3, "components": 4}"#,
        ),
        "local_ids.components",
        "4 components",
    );
}

#[test]
fn sizes_the_model_cannot_hold() {
    check(
        &minimal("").replace("[16, 1, 1]", "[65536, 65536, 2]"),
        "local_size",
        "exceed 2^32-1",
    );
    check(
        &minimal("").replace("[1, 1, 1]", "[4294967295, 4294967295, 4294967295]"),
        "work_groups",
        "exceed 2^64-1",
    );
    check(
        &minimal(r#", "surfaces": [{"bti": 2, "size": 1000000000000, "init": {"fill": 0}}]"#),
        "surfaces[0].init.fill",
        "a fill of 1000000000000 bytes",
    );
    check(
        &minimal(r#", "curbe": {"per_thread_regs": 4000000000, "data": {"fill": 0}}"#),
        "curbe.per_thread_regs",
        "do not fit",
    );
    // payload.local-ids: the IDs are 16-bit.
    check(
        &minimal(r#", "local_ids": {"grf": 1, "components": 1}"#)
            .replace("[16, 1, 1]", "[70000, 1, 1]"),
        "local_size[0]",
        "local IDs are 16-bit",
    );
}
