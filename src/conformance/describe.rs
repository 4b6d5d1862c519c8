//! The text `euref check` prints for a vector that did not pass: every difference (up to a
//! few lines), the simulator's response, and the spec rows the vector lists, semantic and
//! structural apart.

use super::compare::{truncated, Difference, Outcome};
use super::rows::{kind, RowKind};
use super::view::VectorView;

/// Differences printed per vector (the report keeps them all).
pub const SHOWN_DIFFERENCES: usize = 12;

/// Bytes of the simulator's response printed per vector (the report keeps more).
pub const SHOWN_RESPONSE: usize = 300;

/// One difference on one line: register, element (channel, flag bit or byte), type, the
/// expected and the actual value (typed, then hex).
pub fn difference_line(d: &Difference) -> String {
    if d.ty == "flag" {
        return format!(
            "{:<5} {} (channel {}): expected {}, actual {}",
            d.reg,
            d.note,
            d.channel.unwrap_or(0),
            d.expected_value,
            d.actual_value
        );
    }
    let at = match d.channel {
        Some(c) => format!("ch{c}"),
        None => format!("byte {}", d.byte),
    };
    let note = if d.note.is_empty() {
        String::new()
    } else {
        format!("  ({})", d.note)
    };
    format!(
        "{:<5} {at:<8} :{:<3} expected {} ({}), actual {} ({}){note}",
        d.reg, d.ty, d.expected_value, d.expected, d.actual_value, d.actual
    )
}

/// The lines of an outcome: at most `max` differences (0: only their count), and the
/// simulator's response when `with_response`.
pub fn outcome_lines(o: &Outcome, max: usize, with_response: bool) -> Vec<String> {
    let mut lines = Vec::new();
    let response = |r: &str, lines: &mut Vec<String>| {
        if with_response && !r.is_empty() {
            lines.push(format!("response: {}", truncated(r, SHOWN_RESPONSE)));
        }
    };
    match o {
        Outcome::Fail(d) | Outcome::Unmodelled(d) | Outcome::Ignored(d) => {
            if !d.ignored.is_empty() {
                lines.push(format!(
                    "the simulator ignored: {} (the vector cannot pass)",
                    d.ignored.join(", ")
                ));
            }
            if !d.unmodelled.is_empty() {
                lines.push(format!(
                    "not modelled by the simulator, not compared: {}",
                    d.unmodelled.join(", ")
                ));
            }
            if d.count() == 0 {
                lines.push("the compared registers match".into());
            } else {
                let regs = {
                    let mut r: Vec<&str> = d.differences.iter().map(|x| x.reg.as_str()).collect();
                    r.dedup();
                    r.join(", ")
                };
                let colon = if max > 0 { ":" } else { "" };
                lines.push(format!("{} differences in {regs}{colon}", d.count()));
                for x in d.differences.iter().take(max) {
                    lines.push(format!("  {}", difference_line(x)));
                }
                if d.count() > max && max > 0 {
                    lines.push(format!("  (+{} more: see the report)", d.count() - max));
                }
            }
            response(&d.response, &mut lines);
        }
        Outcome::SimError {
            message,
            response: r,
        }
        | Outcome::Incomplete {
            message,
            response: r,
        }
        | Outcome::Garbage {
            message,
            response: r,
        } => {
            lines.push(message.clone());
            response(r, &mut lines);
        }
        Outcome::Crash { message } | Outcome::BadVector { message } => lines.push(message.clone()),
        Outcome::Timeout { ms } => lines.push(format!("no response within {ms} ms")),
        Outcome::Pass => {}
    }
    lines
}

/// The vector's rows of each kind and its grid cells, each in the vector's order.
pub fn rows_by_kind(rules: &[String]) -> (Vec<&str>, Vec<&str>, Vec<&str>, Vec<&str>) {
    let (mut sem, mut st, mut unknown, mut cells) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for r in rules {
        if r.contains('[') {
            cells.push(r.as_str());
            continue;
        }
        match kind(r) {
            RowKind::Semantic => sem.push(r.as_str()),
            RowKind::Structural => st.push(r.as_str()),
            RowKind::Unknown => unknown.push(r.as_str()),
        }
    }
    (sem, st, unknown, cells)
}

/// Human-readable text of a non-passing vector.
pub fn describe(v: &VectorView, o: &Outcome) -> String {
    let mut s = format!("{} {}  [{}]", o.status().to_uppercase(), v.id, v.insn);
    for l in outcome_lines(o, SHOWN_DIFFERENCES, true) {
        s.push_str("\n  ");
        s.push_str(&l);
    }
    let rules = v.rules();
    let (sem, st, unknown, cells) = rows_by_kind(&rules);
    for (name, list) in [
        ("semantic rows", sem),
        ("structural rows", st),
        ("not in this spec", unknown),
        ("cells", cells),
    ] {
        if !list.is_empty() {
            s.push_str(&format!("\n  {name}: {}", list.join(", ")));
        }
    }
    s
}
