//! `euref run --sip LABEL|OFFSET`: the System IP exceptions jump to (flow.exception.sip), as
//! a label of the program or a byte offset into the program image (docs/run.md).

/// Where the program's instructions are: the text, each instruction's line (1-based) and
/// address, the image's base and end.
pub struct Layout<'a> {
    pub text: &'a str,
    pub lines: &'a [u32],
    pub addrs: &'a [u32],
    pub base: u32,
    pub end: u32,
}

/// The line (1-based) of label `name` (`NAME:` at the start of a line, after blanks).
fn label_line(text: &str, name: &str) -> Option<u32> {
    text.lines().zip(1u32..).find_map(|(l, n)| {
        let rest = l.trim_start().strip_prefix(name)?;
        rest.starts_with(':').then_some(n)
    })
}

/// A byte offset written in decimal or `0x` hex.
fn parse_offset(s: &str) -> Option<u64> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None if s.starts_with(|c: char| c.is_ascii_digit()) => s.parse().ok(),
        None => None,
    }
}

/// The SIP address of `--sip arg`, or what is wrong with it.
pub fn resolve(arg: &str, l: &Layout) -> Result<u32, String> {
    let shown = euref::quote::quote(arg.as_bytes());
    let len = l.end.wrapping_sub(l.base);
    if arg.starts_with(|c: char| c.is_ascii_digit()) {
        let off = parse_offset(arg).ok_or_else(|| {
            format!("--sip {shown}: not a byte offset (decimal or 0x hex) nor a label")
        })?;
        let addr = u32::try_from(off)
            .ok()
            .filter(|&o| o < len)
            .map(|o| l.base.wrapping_add(o));
        return match addr {
            Some(a) if l.addrs.binary_search(&a).is_ok() => Ok(a),
            Some(_) => Err(format!(
                "--sip {shown}: byte offset {off:#x} is inside an instruction, not at its start"
            )),
            None => Err(format!(
                "--sip {shown}: byte offset {off:#x} is outside the program image ({len:#x} \
                 bytes)"
            )),
        };
    }
    let line = label_line(l.text, arg)
        .ok_or_else(|| format!("--sip {shown}: the program defines no label {shown}"))?;
    l.lines
        .iter()
        .position(|&k| k >= line)
        .map(|k| l.addrs[k])
        .ok_or_else(|| {
            format!(
                "--sip {shown}: the label (line {line}) is at the end of the program: no \
                 System Routine follows it"
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_offsets_resolve_to_instruction_addresses() {
        let text = "nop\nnop\nSIP:\n  nop\nEND:\n";
        let l = Layout {
            text,
            lines: &[1, 2, 4],
            addrs: &[0x100, 0x110, 0x120],
            base: 0x100,
            end: 0x130,
        };
        assert_eq!(resolve("SIP", &l), Ok(0x120));
        assert_eq!(resolve("0x10", &l), Ok(0x110));
        assert_eq!(resolve("32", &l), Ok(0x120));
        assert!(resolve("END", &l)
            .unwrap_err()
            .contains("end of the program"));
        assert!(resolve("SI", &l).unwrap_err().contains("no label"));
        assert!(resolve("0x8", &l)
            .unwrap_err()
            .contains("inside an instruction"));
        assert!(resolve("0x30", &l).unwrap_err().contains("outside"));
        assert!(resolve("0xzz", &l)
            .unwrap_err()
            .contains("not a byte offset"));
    }
}
