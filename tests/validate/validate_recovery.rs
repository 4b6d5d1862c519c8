//! `euref validate` on text with several syntax errors (issue 25): every error is reported
//! with its line and column, and the statements that parse are still validated.

use serde_json::Value;

use crate::cli_util::euref;
use crate::scratch_util::Scratch;

/// Line 1 valid; line 2 an unknown mnemonic; line 3 violates region.row-within-grf (src1);
/// line 4 an unknown type; line 5 valid; line 6 uses a label that is not defined.
const PROG: &str = "mov (8|M0) r2.0<1>:f r4.0<8;8,1>:f\n\
mvo (8|M0) r2.0<1>:f r4.0<8;8,1>:f\n\
add (8|M0) r2.1<1>:f r4.0<8;8,1>:f r6.1<8;8,1>:f\n\
mov (8|M0) r2.0<1>:f r4.0<8;8,1>:zz\n\
mov (8|M0) r3.0<1>:f r5.0<8;8,1>:f\n\
endif (8|M0) NOWHERE\n";

#[test]
fn every_syntax_error_is_reported_and_the_rest_is_validated() {
    let tmp = Scratch::new("validate-recovery");
    let f = tmp.file("prog.asm", PROG.as_bytes());
    let f = f.to_str().unwrap();
    let (code, out, _) = euref(&["validate", f, "--gen", "skl"]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains(&format!("{f}:2:1: error: unknown mnemonic `mvo`")),
        "{out}"
    );
    assert!(out.contains(&format!("{f}:4:")), "{out}");
    assert!(
        out.contains(&format!("{f}:6:14: error: undefined label `NOWHERE`")),
        "{out}"
    );
    // The instruction of line 3 is validated and its violation reported where it is.
    assert!(
        out.contains(&format!("{f}:3:1: add (8|M0) r2.1<1>:f")),
        "{out}"
    );
    assert!(out.contains("region.row-within-grf (src1)"), "{out}");
    assert!(
        out.contains("3 instructions, 1 invalid, 1 violation, 3 input errors"),
        "{out}"
    );
    // The same in JSON: errors in input order, results with their source lines.
    let (code, out, _) = euref(&["validate", f, "--gen", "skl", "--json"]);
    assert_eq!(code, 2);
    let v: Value = serde_json::from_str(&out).unwrap();
    let lines = |k: &str| -> Vec<u64> {
        v[k].as_array()
            .unwrap()
            .iter()
            .map(|e| e["line"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(lines("errors"), [2, 4, 6]);
    assert_eq!(lines("results"), [1, 3, 5]);
    assert_eq!(v["invalid"], 1);
}

#[test]
fn a_syntax_option_that_does_not_fit_says_which_does() {
    let tmp = Scratch::new("validate-recovery");
    let f = tmp.file("prog.asm", PROG.as_bytes());
    let (code, _, err) = euref(&[
        "validate",
        f.to_str().unwrap(),
        "--gen",
        "skl",
        "--syntax",
        "mesa",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("looks like IGA syntax") && err.contains("--syntax iga"),
        "{err}"
    );
}
