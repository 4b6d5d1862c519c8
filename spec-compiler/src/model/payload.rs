//! Loading spec/payload.toml: the compute thread payload (what the dispatcher writes into a
//! thread's registers), checked against the vocabulary the engine knows per part.

use super::bitfields::parse_bits;
use super::ctx::Ctx;
use super::*;

/// A validated [[payload]] row with its bit range (`None` without `bits`).
pub struct PayloadRowV {
    pub row: Row<PayloadRow>,
    pub bits: Option<(u32, u32)>,
}

/// The values each part may name (src/dispatch/payload.rs implements each).
const VALUES: [(&str, &[&str]); 6] = [
    (
        "r0",
        &[
            "group-id-x",
            "group-id-y",
            "group-id-z",
            "barrier-id",
            "zero",
            "undefined",
        ],
    ),
    ("curbe", &["cross-thread", "per-thread", "no-cross-thread"]),
    ("mask", &["dispatch-mask", "vector-mask"]),
    ("local-ids", &["local-ids"]),
    ("grf", &["undefined"]),
    ("order", &["thread-order"]),
];

pub(super) fn load_payload(c: &mut Ctx) -> Vec<PayloadRowV> {
    let mut rows = vec![];
    let Some((f, file)) = c.load::<PayloadFile>("payload.toml", false) else {
        return rows;
    };
    let mut consts: BTreeMap<String, usize> = BTreeMap::new();
    for r in f.payload {
        let r = r.into_inner();
        let m = c.common(&file, &r.id, &r.gens, &r.cite, &["payload."]);
        let off = r.id.span().start;
        c.one_of(
            &file,
            &r.status,
            "status",
            &["defined", "assumption", "undefined"],
        );
        let parts: Vec<&str> = VALUES.iter().map(|(p, _)| *p).collect();
        c.one_of(&file, &r.part, "part", &parts);
        if let Some((_, vals)) = VALUES.iter().find(|(p, _)| *p == r.part.get_ref()) {
            c.one_of(&file, &r.value, "value", vals);
        }
        let undefined_value = r.value.get_ref() == "undefined";
        if undefined_value != (r.status.get_ref() == "undefined") {
            c.err(
                &file,
                r.status.span().start,
                format!(
                    "`{}`: status `undefined` goes with value `undefined` and only with it",
                    r.id.get_ref()
                ),
            );
        }
        // A bit field of r0 needs both its dword (0-7) and its bits; other parts take neither.
        let bits = match (&r.dword, &r.bits) {
            (Some(d), Some(b)) => {
                if r.part.get_ref() != "r0" {
                    c.err(&file, d.span().start, "`dword`/`bits` are for part r0 only");
                }
                if *d.get_ref() > 7 {
                    c.err(
                        &file,
                        d.span().start,
                        format!("dword {} is outside r0 (0-7)", d.get_ref()),
                    );
                }
                Some(parse_bits(c, &file, b))
            }
            (None, None) => None,
            (Some(d), None) => {
                c.err(&file, d.span().start, "`dword` without `bits`");
                None
            }
            (None, Some(b)) => {
                c.err(&file, b.span().start, "`bits` without `dword`");
                None
            }
        };
        let needs_bits =
            r.part.get_ref() == "r0" && !matches!(r.value.get_ref().as_str(), "undefined" | "zero");
        if needs_bits && bits.is_none() {
            c.err(
                &file,
                r.value.span().start,
                format!(
                    "`{}` writes r0 and needs `dword` and `bits`",
                    r.id.get_ref()
                ),
            );
        }
        c.nonempty_text(&file, off, r.id.get_ref(), &r.text);
        c.unique_const(&mut consts, &file, off, r.id.get_ref(), "payload.");
        let id = r.id.clone();
        rows.push(PayloadRowV {
            row: c.row(r, &file, &id, m),
            bits,
        });
    }
    rows
}
