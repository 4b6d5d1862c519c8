//! `euref validate`: text (three dialects), hex and raw binary input; every violated rule listed
//! with its location, ID, message and citation; exit status 0 (valid), 1 (some rule violated),
//! 2 (usage errors, input that does not parse or decode); the JSON document of docs/validate.md.

use serde_json::Value;

use crate::cli_util;
use crate::scratch_util;
use cli_util::euref;
use scratch_util::Scratch;

fn rule(id: &str) -> &'static euref::spec::rules::RuleInfo {
    euref::spec::rules::RULES
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("no rule {id}"))
}

/// Line 1 valid; line 2 violates a per-source rule on src1; line 3 (after a label) violates two
/// rules at once.
const PROG: &str = "mov (8|M0) r2.0<1>:f r4.0<8;8,1>:f\n\
add (8|M0) r2.1<1>:f r4.0<8;8,1>:f r6.1<8;8,1>:f\n\
L0: add (16|M0) r2.0<1>:hf r4.0<8;8,1>:f null<8;8,1>:f\n";

#[test]
fn text_input_lists_every_violation_with_location_id_and_citation() {
    let tmp = Scratch::new("validate-cli");
    let f = tmp.file("prog.asm", PROG.as_bytes());
    let f = f.to_str().unwrap();
    let (code, out, _) = euref(&["validate", f, "--gen", "skl"]);
    assert_eq!(code, 1, "{out}");
    // Each invalid instruction: location and text, then one entry per violated rule.
    assert!(
        out.contains(&format!("{f}:2:1: add (8|M0) r2.1<1>:f")),
        "{out}"
    );
    assert!(
        out.contains(&format!("{f}:3:5: add (16|M0) r2.0<1>:hf")),
        "{out}"
    );
    let row = rule("region.row-within-grf");
    assert!(
        out.contains(&format!("region.row-within-grf (src1): {}", row.msg)),
        "{out}"
    );
    for id in [
        "region.row-within-grf",
        "mixed.no-simd16-packed-hf-dst",
        "op.src1-not-null",
    ] {
        let r = rule(id);
        assert_eq!(out.matches(&format!("    {id}")).count(), 1, "{id}: {out}");
        assert!(out.contains(&format!("cite: {}", r.cite)), "{id}: {out}");
    }
    // The valid instruction is not reported.
    assert!(!out.contains(&format!("{f}:1:")), "{out}");
    assert!(
        out.contains("3 instructions, 2 invalid, 3 violations"),
        "{out}"
    );
}

#[test]
fn a_valid_program_exits_0() {
    let tmp = Scratch::new("validate-cli");
    let f = tmp.file("ok.asm", b"mov (8|M0) r2.0<1>:f r4.0<8;8,1>:f\n");
    let (code, out, _) = euref(&["validate", f.to_str().unwrap(), "--gen", "bdw"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("1 instruction, 0 invalid, 0 violations"),
        "{out}"
    );
}

#[test]
fn the_platform_decides() {
    let tmp = Scratch::new("validate-cli");
    // A word destination at the second word of a DWord channel: relaxed alignment on SKL only.
    let f = tmp.file("w.asm", b"mov (8|M0) r2.1<2>:w r4.0<8;8,1>:d\n");
    let f = f.to_str().unwrap();
    assert_eq!(euref(&["validate", f, "--gen", "skl"]).0, 0);
    let (code, out, _) = euref(&["validate", f, "--gen", "bdw"]);
    assert_eq!(code, 1);
    assert!(out.contains("align.word-dst-exec-aligned"), "{out}");
}

#[test]
fn mesa_and_prm_dialects() {
    let tmp = Scratch::new("validate-cli");
    let mesa = tmp.file(
        "m.asm",
        b"add(8)          g0<1>F          g0<8,8,1>F      null<8,8,1>F    { align1 1Q };\n",
    );
    let (code, out, _) = euref(&["validate", mesa.to_str().unwrap(), "--gen", "ivb"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("op.src1-not-null"), "{out}");
    let (code, out, _) = euref(&[
        "validate",
        mesa.to_str().unwrap(),
        "--gen",
        "ivb",
        "--syntax",
        "mesa",
    ]);
    assert_eq!(code, 1, "{out}");
    // The program in the PRM dialect (printed by `euref asm`): the same violations.
    let src = tmp.file("p2.asm", PROG.as_bytes());
    for d in ["prm", "mesa"] {
        let (code, text, err) = euref(&["asm", "--out-syntax", d, src.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
        let g = tmp.file(&format!("p2.{d}"), text.as_bytes());
        let (code, out, _) = euref(&[
            "validate",
            g.to_str().unwrap(),
            "--gen",
            "skl",
            "--syntax",
            d,
        ]);
        assert_eq!(code, 1, "{d}: {out}");
        assert!(
            out.contains("3 instructions, 2 invalid, 3 violations"),
            "{d}: {out}"
        );
    }
}

#[test]
fn hex_and_binary_input_report_byte_offsets() {
    let tmp = Scratch::new("validate-cli");
    // Assemble the program, then validate its bytes: the same violations, at byte offsets.
    let src = tmp.file("p.asm", PROG.as_bytes());
    let (code, hex, err) = euref(&["asm", "--gen", "skl", "--hex", src.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let h = tmp.file("p.hex", hex.as_bytes());
    let h = h.to_str().unwrap();
    let (code, out, _) = euref(&["validate", h, "--gen", "skl"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!("{h}:0x10: add (8|M0) r2.1<1>:f")),
        "{out}"
    );
    assert!(out.contains(&format!("{h}:0x20: add (16|M0)")), "{out}");
    assert!(out.contains("region.row-within-grf (src1)"), "{out}");
    let bin = tmp.file("p.bin", b"");
    let (code, _, err) = euref(&[
        "asm",
        "--gen",
        "skl",
        "-o",
        bin.to_str().unwrap(),
        src.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out2, _) = euref(&["validate", bin.to_str().unwrap(), "--gen", "skl"]);
    assert_eq!(code, 1);
    assert_eq!(
        out2.replace(bin.to_str().unwrap(), "F"),
        out.replace(h, "F"),
        "binary and hex input give the same report"
    );
}

#[test]
fn json_document() {
    let tmp = Scratch::new("validate-cli");
    let f = tmp.file("j.asm", PROG.as_bytes());
    let (code, out, _) = euref(&["validate", f.to_str().unwrap(), "--gen", "skl", "--json"]);
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["platform"], "skl");
    assert_eq!(v["format"], "asm");
    assert_eq!(v["instructions"], 3);
    assert_eq!(v["invalid"], 2);
    assert_eq!(v["violations"], 3);
    assert_eq!(v["errors"].as_array().unwrap().len(), 0);
    let res = v["results"].as_array().unwrap();
    assert_eq!(res.len(), 3);
    assert_eq!(res[0]["valid"], true);
    assert_eq!(res[0]["violations"].as_array().unwrap().len(), 0);
    assert_eq!(res[1]["index"], 1);
    assert_eq!(res[1]["line"], 2);
    assert_eq!(res[1]["column"], 1);
    assert!(res[1].get("offset").is_none());
    let viol = &res[1]["violations"][0];
    let r = rule("region.row-within-grf");
    assert_eq!(viol["rule"], r.id);
    assert_eq!(viol["message"], r.msg);
    assert_eq!(viol["cite"], r.cite);
    assert_eq!(viol["src"], 1);
    assert_eq!(viol["undefined"], r.undefined);
    let ids: Vec<&str> = res[2]["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["rule"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["mixed.no-simd16-packed-hf-dst", "op.src1-not-null"]);
    assert!(res[2]["violations"][0].get("src").is_none());
    assert_eq!(res[2]["column"], 5);
    // Hex input: offsets instead of lines.
    let (_, hex, _) = euref(&["asm", "--gen", "skl", "--hex", f.to_str().unwrap()]);
    let h = tmp.file("j.hex", hex.as_bytes());
    let (_, out, _) = euref(&["validate", h.to_str().unwrap(), "--gen", "skl", "--json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["format"], "hex");
    assert_eq!(v["results"][2]["offset"], 32);
    assert!(v["results"][2].get("line").is_none());
}

#[test]
fn parse_errors_exit_2_with_line_and_column() {
    let tmp = Scratch::new("validate-cli");
    let f = tmp.file(
        "bad.asm",
        b"mov (8|M0) r2.0<1>:f r4.0<8;8,1>:f\nmov (8|M0) r2.0<1>:f r4.0<8;8,\n",
    );
    let f = f.to_str().unwrap();
    let (code, out, _) = euref(&["validate", f, "--gen", "skl"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains(&format!("{f}:2:31: error: ")), "{out}");
    let (code, out, _) = euref(&["validate", f, "--gen", "skl", "--json"]);
    assert_eq!(code, 2);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["errors"][0]["line"], 2);
    assert_eq!(v["errors"][0]["column"], 31);
}

#[test]
fn undecodable_bytes_exit_2_with_offset_and_the_rest_is_validated() {
    let tmp = Scratch::new("validate-cli");
    // A valid instruction, then one with the reserved ExecSize encoding 6 (Mesa's validator
    // corpus, ivb.tsv line 13), then a truncated tail.
    let good = "01 00 60 00 e8 3a 40 20 80 00 8d 00 00 00 00 00\n";
    let bad = "01 00 c0 00 ad 01 00 20 00 00 45 00 00 00 00 00\n";
    let f = tmp.file("bad.hex", format!("{good}{bad}{good}01 02 03\n").as_bytes());
    let f = f.to_str().unwrap();
    let (code, out, _) = euref(&["validate", f, "--gen", "skl"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains(&format!("{f}:0x10: error: ")), "{out}");
    assert!(out.contains("exec_size"), "{out}");
    assert!(
        out.contains(&format!(
            "{f}:0x30: error: truncated instruction: 3 trailing bytes"
        )),
        "{out}"
    );
    assert!(
        out.contains("2 instructions, 0 invalid, 0 violations, 2 input errors"),
        "{out}"
    );
}

#[test]
fn usage_errors_exit_2() {
    let tmp = Scratch::new("validate-cli");
    let f = tmp.file("u.asm", b"nop\n");
    let f = f.to_str().unwrap();
    assert_eq!(euref(&["validate", f]).0, 2, "--gen is required");
    let (code, _, err) = euref(&["validate", f, "--gen", "gen12"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown generation"), "{err}");
    let (code, _, err) = euref(&["validate", "/nonexistent/x.asm", "--gen", "skl"]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/x.asm"), "{err}");
}

/// An explicit `--syntax` says the input is text (issue 26): a text file holding a control
/// byte is parsed as assembly and the byte reported at its line and column, not decoded as
/// raw instruction bytes (byte offsets, "unknown opcode"). Without `--syntax` the control
/// byte still makes the file binary.
#[test]
fn an_explicit_syntax_means_text() {
    let tmp = Scratch::new("validate-cli");
    let text = "mov (8|M0) r1.0<1>:f r2.0<8;8,1>:f\nmov (8|M0) r1.0<1>:f \u{1}r2.0<8;8,1>:f\n";
    let f = tmp.file("ctl.asm", text.as_bytes());
    let f = f.to_str().unwrap();
    let (code, out, err) = euref(&["validate", f, "--gen", "skl", "--syntax", "iga", "--json"]);
    assert_eq!(code, 2, "{out}{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["format"], "asm", "{out}");
    // The control byte: line 2, column 22 (1-based, after `mov (8|M0) r1.0<1>:f `).
    let e = &doc["errors"][0];
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(2), Some(22)),
        "{out}"
    );
    assert!(e.get("offset").is_none(), "{out}");
    // The first line parses and is validated; a hint says what to do if it was binary.
    assert_eq!(doc["instructions"], 1, "{out}");
    assert!(
        err.contains("leave --syntax out or give --input bin"),
        "{err}"
    );
    // Without --syntax: binary, as before.
    let (_, out, _) = euref(&["validate", f, "--gen", "skl", "--json"]);
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["format"], "bin", "{out}");
}

/// A bad character in hex input is reported once with the file's name, line and column
/// (issue 26: it was "f: f: line 1: unexpected `g`").
#[test]
fn hex_errors_name_the_file_once_with_line_and_column() {
    let tmp = Scratch::new("validate-cli");
    let f = tmp.file("odd3.hex", b"01 02\n03 0g 04\n");
    let f = f.to_str().unwrap();
    let (code, _, err) = euref(&["validate", f, "--gen", "skl", "--input", "hex"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.starts_with(&format!(
            "euref: error: {f}:2:5: unexpected `g` in hex input"
        )),
        "{err}"
    );
    assert_eq!(err.matches(f).count(), 1, "{err}");
}
