//! User input repeated in a message: quoted, escaped and cut short (issue 26: `fp` printed a
//! 30 MB token whole, and control bytes of the input reached the terminal).

use std::fmt::Write;

/// At most this many characters of the input are repeated.
pub const QUOTE_CHARS: usize = 60;

/// `input` for a message: in backquotes; control characters, other non-printing characters
/// and the backslash escaped as Rust's `escape_debug` writes them (`\n`, `\u{1b}`, `\\`); bytes
/// that are not UTF-8 as `\xNN`; after [`QUOTE_CHARS`] characters cut, with the input's size:
/// `` `0123...` (31457280 bytes) ``.
pub fn quote(input: &[u8]) -> String {
    let mut s = String::with_capacity(QUOTE_CHARS.min(input.len()) + 24);
    s.push('`');
    let mut left = QUOTE_CHARS;
    let mut cut = false;
    'chunks: for chunk in input.utf8_chunks() {
        for c in chunk.valid().chars() {
            if left == 0 {
                cut = true;
                break 'chunks;
            }
            left -= 1;
            if c == '\'' || c == '"' {
                s.push(c);
            } else {
                s.extend(c.escape_debug());
            }
        }
        for b in chunk.invalid() {
            if left == 0 {
                cut = true;
                break 'chunks;
            }
            left -= 1;
            let _ = write!(s, "\\x{b:02x}");
        }
    }
    s.push('`');
    if cut {
        let _ = write!(s, "... ({} bytes)", input.len());
    }
    s
}

/// [`quote`] of a string.
pub fn quote_str(input: &str) -> String {
    quote(input.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::{quote, quote_str, QUOTE_CHARS};

    #[test]
    fn short_printable_input_is_kept() {
        assert_eq!(quote_str("3F80000G"), "`3F80000G`");
        assert_eq!(quote_str("a 'b' \"c\""), "`a 'b' \"c\"`");
        assert_eq!(quote_str(""), "``");
        assert_eq!(quote_str("é"), "`é`");
    }

    #[test]
    fn control_characters_and_invalid_bytes_are_escaped() {
        assert_eq!(quote(b"a\x1b[2Jb"), "`a\\u{1b}[2Jb`");
        assert_eq!(quote(b"\t\r\n\\"), "`\\t\\r\\n\\\\`");
        assert_eq!(quote(b"x\xff\xfey"), "`x\\xff\\xfey`");
        assert_eq!(quote(b"\x00"), "`\\0`");
    }

    #[test]
    fn long_input_is_cut_with_its_size() {
        let long = vec![b'A'; 30 << 20];
        let q = quote(&long);
        let want = format!("`{}`... ({} bytes)", "A".repeat(QUOTE_CHARS), 30 << 20);
        assert_eq!(q, want);
        // Exactly QUOTE_CHARS characters: nothing is cut.
        let exact = "B".repeat(QUOTE_CHARS);
        assert_eq!(quote_str(&exact), format!("`{exact}`"));
        // Cut counts characters, not bytes; an escaped byte counts as one.
        let mixed: Vec<u8> = std::iter::repeat(*b"\xe9\x80")
            .take(QUOTE_CHARS)
            .flatten()
            .collect();
        let q = quote(&mixed);
        assert!(
            q.ends_with(&format!("... ({} bytes)", 2 * QUOTE_CHARS)),
            "{q}"
        );
        assert_eq!(q.matches("\\x").count(), QUOTE_CHARS, "{q}");
    }
}
