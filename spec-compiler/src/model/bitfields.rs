//! Bit fields of 32-bit dwords, shared by registers.toml `[[field]]` and messages.toml
//! `[[field]]`: parsing `HI:LO` / `N`, and the per-platform check that the fields of one
//! (owner, dword) never share a bit and together cover bits 31..0.

use super::ctx::Ctx;
use super::*;

/// Parse a bit range `"N"` or `"HI:LO"` (31 >= HI >= LO); reports a bad range at its offset.
pub(super) fn parse_bits(c: &mut Ctx, file: &str, bits: &S<String>) -> (u32, u32) {
    let text = bits.get_ref().trim().to_string();
    let parsed = match text.split_once(':') {
        Some((h, l)) => h
            .trim()
            .parse::<u32>()
            .ok()
            .zip(l.trim().parse::<u32>().ok()),
        None => text.parse::<u32>().ok().map(|b| (b, b)),
    };
    match parsed {
        Some((h, l)) if h >= l && h < 32 => (h, l),
        _ => {
            c.err(
                file,
                bits.span().start,
                format!("bad bit range `{text}`: expected `N` or `HI:LO` with 31 >= HI >= LO"),
            );
            (0, 0)
        }
    }
}

/// One field as the cover check sees it.
pub(super) struct BitField<'a> {
    /// The register or message the field belongs to.
    pub owner: &'a str,
    pub dword: u32,
    pub hi: u32,
    pub lo: u32,
    pub gens: Mask,
    pub line: usize,
    pub id: &'a str,
}

/// Per platform and per (owner, dword): no two fields share a bit and every bit of 31..0 is
/// covered. Errors name the file line of the offending row.
pub(super) fn check_cover(c: &mut Ctx, file: &str, np: usize, fields: &[BitField]) {
    let mut groups: BTreeMap<(&str, u32), Vec<usize>> = BTreeMap::new();
    for (i, f) in fields.iter().enumerate() {
        groups.entry((f.owner, f.dword)).or_default().push(i);
    }
    for ((owner, dw), idx) in &groups {
        for p in 0..np {
            let pn = c
                .platforms
                .as_ref()
                .map(|x| x.names[p].clone())
                .unwrap_or_default();
            let mut bit_owner: [Option<usize>; 32] = [None; 32];
            let mut any = false;
            for &i in idx {
                let f = &fields[i];
                if f.gens & (1 << p) == 0 {
                    continue;
                }
                any = true;
                for b in f.lo..=f.hi {
                    match bit_owner[b as usize] {
                        Some(j) if j != i => {
                            let msg = format!(
                                "bit range {}:{} of {owner} dword {dw} overlaps `{}` (bit {b}) on {pn}",
                                f.hi, f.lo, fields[j].id
                            );
                            c.err_line(file, f.line, msg);
                        }
                        Some(_) => {}
                        None => bit_owner[b as usize] = Some(i),
                    }
                }
            }
            if any {
                let missing: Vec<String> = (0..32)
                    .rev()
                    .filter(|b| bit_owner[*b].is_none())
                    .map(|b| b.to_string())
                    .collect();
                if !missing.is_empty() {
                    let line = fields[idx[0]].line;
                    c.err_line(file, line, format!("{owner} dword {dw} on {pn}: bits {} are not covered by any field (name reserved bits as such)", missing.join(",")));
                }
            }
        }
    }
}
