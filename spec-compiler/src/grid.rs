//! Comparison truth-table grids, laid out as in the manual.

/// Value classes in manual order (rows are src0, columns src1).
pub const CLASSES: [&str; 9] = [
    "-inf", "-Fin", "-denorm", "-0", "+0", "+denorm", "+Fin", "+inf", "NaN",
];

/// Cell values.
pub const CELLS: [(&str, &str); 4] = [
    ("T", "T"),
    ("F", "F"),
    ("T/F", "Depends"),
    ("T/F*", "DependsDenorm"),
];

/// Parse a grid; errors carry the 0-based line index within the grid text.
pub fn parse(text: &str) -> Result<[[u8; 9]; 9], (usize, String)> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    let Some((hline, header)) = lines.first() else {
        return Err((0, "empty grid".into()));
    };
    let h: Vec<&str> = header.split_whitespace().collect();
    if h.len() != 10 || h[0] != "src0\\src1" || h[1..] != CLASSES {
        return Err((
            *hline,
            format!(
                "grid header must be `src0\\src1 {}`, found `{}`",
                CLASSES.join(" "),
                header.trim()
            ),
        ));
    }
    if lines.len() != 10 {
        return Err((
            lines.last().map(|l| l.0).unwrap_or(0),
            format!(
                "grid must have 9 rows after the header, found {}",
                lines.len() - 1
            ),
        ));
    }
    let mut out = [[0u8; 9]; 9];
    for (r, (li, line)) in lines[1..].iter().enumerate() {
        let cells: Vec<&str> = line.split_whitespace().collect();
        if cells.first() != Some(&CLASSES[r]) {
            return Err((
                *li,
                format!(
                    "row {} must start with `{}`, found `{}`",
                    r + 1,
                    CLASSES[r],
                    cells.first().unwrap_or(&"")
                ),
            ));
        }
        if cells.len() != 10 {
            return Err((
                *li,
                format!(
                    "row `{}` must have 9 cells, found {}",
                    CLASSES[r],
                    cells.len() - 1
                ),
            ));
        }
        for (c, cell) in cells[1..].iter().enumerate() {
            match CELLS.iter().position(|(t, _)| t == cell) {
                Some(i) => out[r][c] = i as u8,
                None => {
                    return Err((
                        *li,
                        format!(
                            "cell ({}, {}) is `{cell}`: expected T, F, T/F or T/F*",
                            CLASSES[r], CLASSES[c]
                        ),
                    ))
                }
            }
        }
    }
    Ok(out)
}
