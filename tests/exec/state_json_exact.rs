//! JSON state input (issue 26): a key given twice is an error at the second one (JSON path,
//! line, column, byte offset); text that is not UTF-8 is located; numbers are read exactly as
//! written, so an integer beyond 64 bits is out of range for its type (bounds from the type's
//! width, computed here) instead of "not an integer" after rounding to a double.

use euref::spec::Platform::Skl;
use euref::state::json;

/// `line L, column C (byte offset O)` of byte `off` of `text`, counted here.
fn place(text: &str, off: usize) -> String {
    let before = &text[..off];
    let line = before.matches('\n').count() + 1;
    let col = off - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    format!("line {line}, column {col} (byte offset {off})")
}

#[test]
fn a_key_given_twice_is_an_error_at_the_second() {
    let cases = [
        // (document, path of the second key, the second key's text)
        ("{\"r2\": \"00\",\n \"r2\": \"11\"}", "$.r2", "\"r2\""),
        (
            r#"{"r3": {"type": "ud", "values": [1], "values": [2]}}"#,
            "$.r3.values",
            r#""values": [2]"#,
        ),
        (
            r#"{"cr0": {"rounding_mode": 1, "rounding_mode"  :  2}}"#,
            "$.cr0.rounding_mode",
            r#""rounding_mode"  :"#,
        ),
        (
            r#"{"base": "zero", "r4": {"hex": "00", "hex": "11"}}"#,
            "$.r4.hex",
            r#""hex": "11""#,
        ),
        (
            r#"{"platform": "skl", "platform": "skl"}"#,
            "$.platform",
            r#""platform": "skl"}"#,
        ),
    ];
    for (doc, path, second) in cases {
        let e = json::load(Skl, doc).expect_err(doc);
        assert_eq!(e.path, path, "{doc}: {e}");
        assert!(e.msg.contains("duplicate key"), "{doc}: {e}");
        let at = doc.rfind(second).unwrap();
        assert!(e.msg.contains(&place(doc, at)), "{doc}: {e}");
    }
    // The same keys in different objects are no duplicates.
    let doc = r#"{"r2": {"type": "ud", "values": [1]}, "r3": {"type": "ud", "values": [2]}}"#;
    json::load(Skl, doc).unwrap();
}

#[test]
fn text_that_is_not_utf8_is_located() {
    let mut doc = b"{\n  \"r2\": \"0011\",\n  \"r3\": \"".to_vec();
    let off = doc.len();
    doc.extend_from_slice(b"\xc3\x28\"\n}");
    let e = json::load_bytes(Skl, &doc).unwrap_err();
    assert_eq!(e.path, "$");
    let text = String::from_utf8_lossy(&doc[..off]);
    assert!(e.msg.contains(&place(&text, off)), "{e}");
    assert!(e.msg.contains("0xc3"), "{e}");
    // Valid UTF-8 loads as with `load`.
    let ok = "{\"r2\": \"0011\"}";
    assert_eq!(
        json::save(&json::load_bytes(Skl, ok.as_bytes()).unwrap()),
        json::save(&json::load(Skl, ok).unwrap())
    );
}

#[test]
fn integers_beyond_64_bits_are_out_of_range_as_written() {
    let two64 = (1u128 << 64).to_string();
    let below = (-(1i128 << 63) - 1).to_string();
    let huge = "1".repeat(45);
    let cases = [
        ("uq", two64.clone(), format!("0..={}", u64::MAX)),
        ("uq", "-1".to_string(), format!("0..={}", u64::MAX)),
        (
            "q",
            (1u64 << 63).to_string(),
            format!("{}..={}", i64::MIN, i64::MAX),
        ),
        ("q", below, format!("{}..={}", i64::MIN, i64::MAX)),
        ("ud", (1u64 << 32).to_string(), format!("0..={}", u32::MAX)),
        ("uq", huge.clone(), format!("0..={}", u64::MAX)),
    ];
    for (t, v, range) in cases {
        let doc = format!(r#"{{"r2": {{"type": "{t}", "values": [0, {v}]}}}}"#);
        let e = json::load(Skl, &doc).expect_err(&doc);
        assert_eq!(e.path, "$.r2.values[1]", "{doc}: {e}");
        assert_eq!(
            e.msg,
            format!("{v} is out of range for {t} ({range})"),
            "{doc}"
        );
    }
    // A register given as a number, and a field.
    for doc in [
        format!(r#"{{"ip": {two64}}}"#),
        format!(r#"{{"cr0": {{"rounding_mode": {two64}}}}}"#),
    ] {
        let e = json::load(Skl, &doc).expect_err(&doc);
        assert!(e.msg.contains(&two64), "{doc}: {e}");
        assert!(e.msg.contains(&format!("0..={}", u64::MAX)), "{doc}: {e}");
    }
    // The ends of the ranges load exactly: 2^64 - 1 is eight 0xff bytes, -2^63 is 0x80 last.
    let doc = format!(
        r#"{{"r2": {{"type": "uq", "values": [{}]}}, "r3": {{"type": "q", "values": [{}]}}}}"#,
        u64::MAX,
        i64::MIN
    );
    let st = json::load(Skl, &doc).unwrap();
    let rb = st.grf_reg_bytes();
    assert_eq!(st.read_grf(2 * rb, 8).unwrap(), (u64::MAX, false));
    assert_eq!(st.read_grf(3 * rb, 8).unwrap(), (1u64 << 63, false));
}

#[test]
fn fractions_and_float_literals_beyond_double() {
    let e = json::load(Skl, r#"{"r2": {"type": "d", "values": [1.5]}}"#).unwrap_err();
    assert_eq!(e.path, "$.r2.values[0]");
    assert_eq!(e.msg, "1.5 is not an integer");
    // 1e400 is no double: an error, not an infinity.
    let e = json::load(Skl, r#"{"r2": {"type": "df", "values": [1e400]}}"#).unwrap_err();
    assert_eq!(e.path, "$.r2.values[0]");
    assert!(
        e.msg.starts_with("1e400 is beyond the range of a double"),
        "{e}"
    );
    // Decimal literals are rounded once, correctly: 0.1 is 0x3FB999999999999A as a double.
    let st = json::load(Skl, r#"{"r2": {"type": "df", "values": [0.1]}}"#).unwrap();
    let rb = st.grf_reg_bytes();
    assert_eq!(
        st.read_grf(2 * rb, 8).unwrap(),
        (0x3FB9_9999_9999_999A, false)
    );
}

#[test]
fn keys_in_messages_are_quoted() {
    let e = json::load(Skl, "{\"r2\\u001b[2J\": \"00\"}").unwrap_err();
    assert!(!e.to_string().contains('\u{1b}'), "{e}");
    assert!(e.to_string().contains("\\u{1b}[2J"), "{e}");
    let long = "z".repeat(100_000);
    let e = json::load(Skl, &format!("{{\"{long}\": 1}}")).unwrap_err();
    assert!(e.to_string().len() < 1_000, "{} bytes", e.to_string().len());
    assert!(
        e.to_string().contains("(100000 bytes)"),
        "{}",
        &e.to_string()[..200]
    );
}
