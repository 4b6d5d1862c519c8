//! IGA's end-of-line comment on a send: `// wr:<mlen>[h]+<ex_mlen>, rd:<rlen>; <sfid>; <what>`
//! (IGA Formatter.cpp / SendDescriptorDecoding.cpp; the form checked against `iga64 -d`).
//! `<what>` is the IGA name of the message type row (spec/descriptors.toml `iga`), with the
//! enabled channels of surface messages, the element size of scattered messages and the
//! atomic operation; where a row has no IGA name, euref's own name follows (inferred, not
//! IGA's text: docs/messages.md).

use super::descriptor::{decode, sfid_row, Message};
use crate::spec::Platform;
use std::fmt::Write;

/// Append IGA's comment for a send with SFID `sfid`, immediate descriptor `desc` and, for a
/// split send, immediate extended descriptor `ex` (without SFID and EOT). Nothing for a
/// register descriptor; a descriptor that does not decode gets only the lengths and SFID.
pub fn comment(out: &mut String, sfid: u8, desc: u32, ex: Option<u32>, p: Platform) {
    let m = decode(sfid, desc, ex, p);
    let mlen = (desc >> 25) & 0xf;
    let rlen = (desc >> 20) & 0x1f;
    let h = if (desc >> 19) & 1 != 0 { "h" } else { "" };
    let xlen = ex.map_or(0, |x| (x >> 6) & 0xf);
    let _ = write!(out, "// wr:{mlen}{h}+{xlen}, rd:{rlen}; ");
    match sfid_row(sfid, p) {
        Some(s) => {
            let name = if p.gen_x10() >= 90 {
                s.iga_skl.or(s.iga)
            } else {
                s.iga
            };
            out.push_str(name.unwrap_or(s.name));
        }
        None => {
            let _ = write!(out, "sfid{sfid}");
        }
    }
    if let Ok(m) = m {
        if let Some(w) = what(&m) {
            out.push_str("; ");
            out.push_str(&w);
        }
    }
}

fn what(m: &Message) -> Option<String> {
    let ty = m.ty?;
    let mut s = ty
        .iga
        .map_or_else(|| ty.name.replace('_', " "), str::to_string);
    if let Some(c) = m.get("channel_mask") {
        if ty.form == Some("surface") {
            s.push_str(" with ");
            for (i, ch) in ["x", "y", "z", "w"].iter().enumerate() {
                if c & (1 << i) == 0 {
                    s.push_str(ch);
                }
            }
        }
    }
    let bits = match (
        m.field("data_size").and_then(|f| f.named),
        m.field("subtype"),
    ) {
        (Some(d), None) => match d.name {
            "byte" => Some(8),
            "word" => Some(16),
            "dword" => Some(32),
            _ => None,
        },
        (Some(d), Some(sub)) if sub.value == 0 => Some(8 << d.value),
        _ => None,
    };
    if let Some(b) = bits {
        let _ = write!(s, " {b}b");
    }
    if let Some(a) = m.field("atomic_op").and_then(|f| f.named) {
        s.push(' ');
        s.push_str(a.iga.unwrap_or(a.name));
    }
    if ty.name == "memory_fence" && m.get("commit") == Some(1) {
        s.insert_str(0, "synchronized ");
    }
    Some(s)
}
