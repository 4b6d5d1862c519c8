//! Parsing of the text blocks in spec/encoding/*.toml: bit layouts (with the
//! overlap / coverage proof), value tables and compaction tables.

/// One piece of a field: native bits `hi:lo` hold logical bits `at + (hi - lo) : at`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    pub hi: u32,
    pub lo: u32,
    pub at: u32,
}

/// A named field with its pieces.
#[derive(Debug, Clone)]
pub struct FieldDef {
    pub name: String,
    pub pieces: Vec<Piece>,
    pub width: u32,
    /// Line index (0-based) within the block of its first piece.
    pub line: usize,
}

fn parse_num(s: &str) -> Option<u64> {
    let s = s.trim().replace('_', "");
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if let Some(b) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        u64::from_str_radix(b, 2).ok()
    } else {
        s.parse().ok()
    }
}

fn range(s: &str) -> Option<(u32, u32)> {
    match s.split_once(':') {
        Some((h, l)) => Some((h.trim().parse().ok()?, l.trim().parse().ok()?)),
        None => {
            let b = s.trim().parse().ok()?;
            Some((b, b))
        }
    }
}

fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(i, l)| {
        let l = l.split('#').next().unwrap_or("").trim();
        (!l.is_empty()).then_some((i, l))
    })
}

fn is_name(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Parse and prove a layout: no two fields share a bit, every bit is covered,
/// every split field's logical bits are contiguous from 0.
pub fn layout(text: &str, width: u32) -> Result<Vec<FieldDef>, (usize, String)> {
    let mut owner: Vec<Option<(usize, String)>> = vec![None; width as usize];
    let mut fields: Vec<FieldDef> = vec![];
    let mut last_line = 0;
    for (li, l) in lines(text) {
        last_line = li;
        let mut parts = l.split_whitespace();
        let (Some(r), Some(n), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err((
                li,
                format!("expected `HI:LO name` or `BIT name`, found `{l}`"),
            ));
        };
        let (hi, lo) = range(r)
            .filter(|(h, l)| h >= l && *h < width)
            .ok_or_else(|| {
                (
                    li,
                    format!("bad bit range `{r}` (HI:LO with {} >= HI >= LO)", width - 1),
                )
            })?;
        let (name, logical) = match n.split_once('[') {
            Some((base, rest)) => {
                let inner = rest
                    .strip_suffix(']')
                    .ok_or_else(|| (li, format!("expected `]` in `{n}`")))?;
                let (fh, fl) = range(inner)
                    .filter(|(h, l)| h >= l)
                    .ok_or_else(|| (li, format!("bad logical range `[{inner}]`")))?;
                if fh - fl != hi - lo {
                    return Err((
                        li,
                        format!(
                            "`{n}` holds {} bits but the range {r} has {}",
                            fh - fl + 1,
                            hi - lo + 1
                        ),
                    ));
                }
                (base.to_string(), Some(fl))
            }
            None => (n.to_string(), None),
        };
        if !is_name(&name) {
            return Err((
                li,
                format!("bad field name `{name}` (lowercase snake_case)"),
            ));
        }
        for b in lo..=hi {
            if let Some((ol, on)) = &owner[b as usize] {
                return Err((
                    li,
                    format!(
                        "bit {b} of `{name}` overlaps `{on}` (block line {})",
                        ol + 1
                    ),
                ));
            }
            owner[b as usize] = Some((li, name.clone()));
        }
        let reserved = name.starts_with("reserved");
        let key = if reserved {
            format!("{name}#{li}")
        } else {
            name.clone()
        };
        match fields.iter_mut().find(|f| f.name == key) {
            Some(f) => {
                let Some(at) = logical else {
                    return Err((li, format!("field `{name}` repeats: name the logical bits of each piece, e.g. `{name}[3:0]`")));
                };
                f.pieces.push(Piece { hi, lo, at });
            }
            None => fields.push(FieldDef {
                name: key,
                pieces: vec![Piece {
                    hi,
                    lo,
                    at: logical.unwrap_or(0),
                }],
                width: 0,
                line: li,
            }),
        }
    }
    let missing: Vec<String> = (0..width)
        .rev()
        .filter(|b| owner[*b as usize].is_none())
        .map(|b| b.to_string())
        .collect();
    if !missing.is_empty() {
        return Err((
            last_line,
            format!(
                "bits {} are not covered (name reserved bits `reserved`)",
                missing.join(",")
            ),
        ));
    }
    for f in fields.iter_mut() {
        let mut logical: Vec<(u32, u32)> = f
            .pieces
            .iter()
            .map(|p| (p.at, p.at + p.hi - p.lo))
            .collect();
        logical.sort();
        let mut next = 0;
        for (a, b) in &logical {
            if *a != next {
                return Err((f.line, format!("field `{}`: logical bits are not contiguous from 0 (gap or overlap at bit {next})", f.name)));
            }
            next = b + 1;
        }
        f.width = next;
        if f.width > 64 {
            return Err((f.line, format!("field `{}` is wider than 64 bits", f.name)));
        }
        if let Some(i) = f.name.find('#') {
            f.name.truncate(i);
        }
    }
    Ok(fields)
}

/// Parse `name = value` lines.
/// `(name, value, block line)` triples of a value table.
pub type Values = Vec<(String, u64, usize)>;

pub fn values(text: &str) -> Result<Values, (usize, String)> {
    let mut out: Values = vec![];
    for (li, l) in lines(text) {
        let (n, v) = l
            .split_once('=')
            .ok_or_else(|| (li, format!("expected `name = value`, found `{l}`")))?;
        let n = n.trim().to_string();
        let v = parse_num(v).ok_or_else(|| (li, format!("bad value `{}`", v.trim())))?;
        if out.iter().any(|(m, _, _)| *m == n) {
            return Err((li, format!("`{n}` is given twice")));
        }
        out.push((n, v, li));
    }
    Ok(out)
}

/// Parse compaction table entries (index order).
pub fn entries(text: &str, index_bits: u32, entry_bits: u32) -> Result<Vec<u64>, (usize, String)> {
    let mut out = vec![];
    let mut last = 0;
    for (li, l) in lines(text) {
        last = li;
        let v = match l.split_once(':') {
            Some((i, v)) => {
                let i = parse_num(i).ok_or_else(|| (li, format!("bad index `{i}`")))?;
                if i as usize != out.len() {
                    return Err((
                        li,
                        format!("index {i} out of order: expected {}", out.len()),
                    ));
                }
                v
            }
            None => l,
        };
        let x = parse_num(v).ok_or_else(|| (li, format!("bad entry `{}`", v.trim())))?;
        if entry_bits < 64 && x >> entry_bits != 0 {
            return Err((li, format!("entry {x:#x} does not fit {entry_bits} bits")));
        }
        out.push(x);
    }
    let want = 1usize << index_bits.min(16);
    if out.len() != want {
        return Err((
            last,
            format!(
                "table has {} entries, expected 2^{index_bits} = {want}",
                out.len()
            ),
        ));
    }
    Ok(out)
}
