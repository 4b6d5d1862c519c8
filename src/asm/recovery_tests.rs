//! [`super::parse_recovering`]: every syntax error is reported, the statements that parse are
//! kept, and a text without errors gives what [`super::parse`] gives.

use super::{parse, parse_recovering, Dialect};
use crate::spec::Platform;

const GOOD: &str = "add (8|M0) r1.0<1>:f r2.0<8;8,1>:f r3.0<8;8,1>:f\n";

#[test]
fn each_bad_line_is_an_error_and_the_rest_parses() {
    let text = format!(
        "{GOOD}mvo (8|M0) r1.0<1>:f r2.0<8;8,1>:f\n{GOOD}\nadd (8|M0) r1.0<1>:f r2.0<8;8,1>:zz \
         r3.0<8;8,1>:f\n{GOOD}"
    );
    let (prog, errs) = parse_recovering(text.as_bytes(), None, Platform::Skl);
    let at: Vec<(u32, u32)> = errs.iter().map(|e| (e.line, e.col)).collect();
    // The unknown mnemonic at 2:1, the unknown type after `:` on line 5.
    assert_eq!(at.len(), 2, "{errs:?}");
    assert_eq!(at[0], (2, 1));
    assert_eq!(at[1].0, 5);
    assert!(errs[0].msg.contains("mvo"), "{}", errs[0].msg);
    assert_eq!(prog.lines, [1, 3, 6]);
    assert_eq!(prog.insns.len(), 3);
    // The first error is the one `parse` reports.
    let first = parse(text.as_bytes(), None, Platform::Skl).unwrap_err();
    assert_eq!(first, errs[0]);
}

#[test]
fn a_text_without_errors_is_what_parse_gives() {
    let text = format!("{GOOD}L0:\n(f0.0) if (8|M0) L0 L1\n{GOOD}L1:\n");
    for d in [None, Some(Dialect::Iga)] {
        let (prog, errs) = parse_recovering(text.as_bytes(), d, Platform::Bdw);
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(prog, parse(text.as_bytes(), d, Platform::Bdw).unwrap());
    }
}

#[test]
fn an_undefined_label_leaves_its_instruction_out() {
    let text = format!("{GOOD}endif (8|M0) NOWHERE\n{GOOD}");
    let (prog, errs) = parse_recovering(text.as_bytes(), None, Platform::Skl);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].line, 2);
    assert!(
        errs[0].msg.contains("undefined label `NOWHERE`"),
        "{}",
        errs[0].msg
    );
    assert_eq!(prog.lines, [1, 3]);
}

#[test]
fn labels_after_an_error_count_the_instructions_that_parsed() {
    // The bad line is left out, so L1 is the third instruction kept (index 2), two after
    // the jump (index 0): the jump offset of a program without the bad line.
    let text = format!("endif (8|M0) L1\nbogus\n{GOOD}L1:\n{GOOD}");
    let without = format!("endif (8|M0) L1\n{GOOD}L1:\n{GOOD}");
    let (prog, errs) = parse_recovering(text.as_bytes(), None, Platform::Skl);
    assert_eq!(errs.len(), 1, "{errs:?}");
    let want = parse(without.as_bytes(), None, Platform::Skl).unwrap();
    assert_eq!(prog.insns, want.insns);
}

#[test]
fn a_mesa_send_in_error_takes_its_description_line_with_it() {
    let add = "add(8) g124<1>F g7<8,8,1>F 1F { align1 1Q };\n";
    // A bad register in the send's first line: its description line is no statement.
    let text = format!(
        "{add}send(8) null<1>F gXY<8,8,1>F 0x8a080017\n    urb MsgDesc: 1 SIMD8 write mlen 5 \
         rlen 0 {{ align1 1Q EOT }};\n{add}"
    );
    let (prog, errs) = parse_recovering(text.as_bytes(), Some(Dialect::Mesa), Platform::Skl);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].line, 2);
    assert_eq!(prog.lines, [1, 4]);
}

#[test]
fn an_unterminated_comment_ends_the_text() {
    let text = format!("{GOOD}/* open\n{GOOD}");
    let (prog, errs) = parse_recovering(text.as_bytes(), None, Platform::Skl);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].msg.contains("unterminated"), "{}", errs[0].msg);
    assert_eq!(prog.lines, [1]);
}

#[test]
fn an_unterminated_comment_after_an_instruction_ends_the_text_too() {
    let text = format!("add (8|M0) r1.0<1>:f r2.0<8;8,1>:f r3.0<8;8,1>:f /* open\n{GOOD}bad\n");
    let (prog, errs) = parse_recovering(text.as_bytes(), None, Platform::Skl);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(prog.insns.is_empty());
}
