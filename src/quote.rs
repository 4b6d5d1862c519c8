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

/// A message that may hold input it did not quote (serde's messages repeat parts of the text
/// they read, `unknown variant ...`): control characters escaped as in [`quote`], the rest
/// kept, and cut after [`MESSAGE_CHARS`] characters.
pub fn printable(message: &str) -> String {
    if message.len() <= MESSAGE_CHARS && !message.chars().any(char::is_control) {
        return message.to_string();
    }
    let mut s = String::with_capacity(message.len().min(MESSAGE_CHARS) + 24);
    for (k, c) in message.chars().enumerate() {
        if k == MESSAGE_CHARS {
            let _ = write!(s, "... ({} bytes)", message.len());
            break;
        }
        if c.is_control() {
            s.extend(c.escape_debug());
        } else {
            s.push(c);
        }
    }
    s
}

/// At most this many characters of a message are kept by [`printable`].
pub const MESSAGE_CHARS: usize = 1000;

/// [`quote`] of a string.
pub fn quote_str(input: &str) -> String {
    quote(input.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::{quote, quote_str, QUOTE_CHARS};

    #[test]
    fn messages_keep_their_text_and_lose_control_characters() {
        use super::{printable, MESSAGE_CHARS};
        assert_eq!(printable("line 3: expected `,`"), "line 3: expected `,`");
        assert_eq!(
            printable("unknown variant `ul\u{7f}ps`\n"),
            "unknown variant `ul\\u{7f}ps`\\n"
        );
        let long = "x".repeat(3 * MESSAGE_CHARS);
        let cut = printable(&long);
        assert!(
            cut.ends_with(&format!("... ({} bytes)", 3 * MESSAGE_CHARS)),
            "{cut}"
        );
        assert_eq!(cut.chars().filter(|&c| c == 'x').count(), MESSAGE_CHARS);
    }

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
