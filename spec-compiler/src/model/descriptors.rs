//! Loading spec/descriptors.toml: shared functions, message descriptor fields and the value
//! tables (message types, atomic operations, SIMD modes, special binding-table indices) the
//! fields select.

use super::bitfields::parse_bits;
use super::ctx::Ctx;
use super::*;

/// A validated [[desc_field]]: the row, its bit range and its SFID numbers.
pub struct DescFieldDef {
    pub row: Row<DescFieldRow>,
    pub hi: u32,
    pub lo: u32,
    /// SFID numbers (empty: every SFID).
    pub sfids: Vec<u8>,
}

/// The three tables of spec/descriptors.toml.
#[derive(Default)]
pub struct Descriptors {
    pub sfids: Vec<Row<SfidRow>>,
    pub fields: Vec<DescFieldDef>,
    pub values: Vec<Row<MsgValueRow>>,
}

pub(super) fn load_descriptors(c: &mut Ctx) -> Descriptors {
    let mut d = Descriptors::default();
    let Some((f, file)) = c.load::<DescriptorsFile>("descriptors.toml", false) else {
        return d;
    };
    let mut consts: BTreeMap<String, usize> = BTreeMap::new();
    for r in f.msg_value {
        let r = r.into_inner();
        let m = c.common(&file, &r.id, &r.gens, &r.cite, &["msgval."]);
        let off = r.id.span().start;
        c.one_of(
            &file,
            &r.status,
            "status",
            &["defined", "conflict", "silent"],
        );
        if let Some(form) = &r.form {
            c.one_of(
                &file,
                form,
                "form",
                &["surface", "atomic", "atomic_simd", "atomic_float"],
            );
        }
        if r.status.get_ref() != "defined" && r.note.is_none() && r.text.is_none() {
            c.err(
                &file,
                off,
                format!(
                    "`{}` is `{}`: its text or note must say what the sources say",
                    r.id.get_ref(),
                    r.status.get_ref()
                ),
            );
        }
        for o in &d.values {
            if o.v.table.get_ref() == r.table.get_ref() && o.v.value == r.value && o.gens & m != 0 {
                c.err(
                    &file,
                    off,
                    format!(
                        "value {} of table `{}` already has a row on these platforms (line {})",
                        r.value,
                        r.table.get_ref(),
                        o.line
                    ),
                );
            }
        }
        c.unique_const(&mut consts, &file, off, r.id.get_ref(), "msgval.");
        d.values
            .push(c.row(r, &file, &S::new(off..off, String::new()), m));
    }
    let table_exists = |d: &Descriptors, t: &str| d.values.iter().any(|v| v.v.table.get_ref() == t);
    let mut consts: BTreeMap<String, usize> = BTreeMap::new();
    for r in f.sfid {
        let r = r.into_inner();
        let m = c.common(&file, &r.id, &r.gens, &r.cite, &["sfid."]);
        let off = r.id.span().start;
        if r.number > 15 {
            c.err(
                &file,
                off,
                format!("SFID {} does not fit ExDesc[3:0]", r.number),
            );
        }
        for o in &d.sfids {
            if o.v.number == r.number && o.gens & m != 0 {
                c.err(
                    &file,
                    off,
                    format!("SFID {} already has a row (line {})", r.number, o.line),
                );
            }
            if o.v.name.get_ref() == r.name.get_ref() {
                c.err(
                    &file,
                    r.name.span().start,
                    format!(
                        "SFID name `{}` already used (line {})",
                        r.name.get_ref(),
                        o.line
                    ),
                );
            }
        }
        if let Some(t) = &r.types {
            if !table_exists(&d, t.get_ref()) {
                c.err(
                    &file,
                    t.span().start,
                    format!("no [[msg_value]] table `{}`", t.get_ref()),
                );
            }
        }
        c.unique_const(&mut consts, &file, off, r.id.get_ref(), "sfid.");
        d.sfids
            .push(c.row(r, &file, &S::new(off..off, String::new()), m));
    }
    let mut consts: BTreeMap<String, usize> = BTreeMap::new();
    for r in f.desc_field {
        let r = r.into_inner();
        let m = c.common(&file, &r.id, &r.gens, &r.cite, &["descf."]);
        let off = r.id.span().start;
        c.one_of(&file, &r.in_, "in", &["desc", "exdesc"]);
        let (hi, lo) = parse_bits(c, &file, &r.bits);
        let mut sfids = vec![];
        for s in &r.sfids {
            match d.sfids.iter().find(|x| x.v.name.get_ref() == s.get_ref()) {
                Some(x) => sfids.push(x.v.number),
                None => c.err(
                    &file,
                    s.span().start,
                    format!("unknown SFID name `{}`", s.get_ref()),
                ),
            }
        }
        for t in &r.types {
            if !d.values.iter().any(|v| &v.v.name == t.get_ref()) {
                c.err(
                    &file,
                    t.span().start,
                    format!("no [[msg_value]] row is named `{}`", t.get_ref()),
                );
            }
        }
        if let Some(t) = &r.values {
            if !table_exists(&d, t.get_ref()) {
                c.err(
                    &file,
                    t.span().start,
                    format!("no [[msg_value]] table `{}`", t.get_ref()),
                );
            }
        }
        c.nonempty_text(&file, off, r.id.get_ref(), &r.text);
        // Two rows of one field name must never both apply to one message on one platform.
        let overlaps =
            |a: &[u8], b: &[u8]| a.is_empty() || b.is_empty() || a.iter().any(|x| b.contains(x));
        for o in &d.fields {
            let ot: Vec<&String> = o.row.v.types.iter().map(|t| t.get_ref()).collect();
            let types_meet = ot.is_empty()
                || r.types.is_empty()
                || r.types.iter().any(|t| ot.contains(&t.get_ref()));
            if o.row.v.name == r.name
                && o.row.v.in_.get_ref() == r.in_.get_ref()
                && o.row.gens & m != 0
                && overlaps(&o.sfids, &sfids)
                && types_meet
            {
                c.err(
                    &file,
                    off,
                    format!(
                        "field `{}` already has a row for the same SFID, message and platform (`{}`, line {})",
                        r.name,
                        o.row.v.id.get_ref(),
                        o.row.line
                    ),
                );
            }
        }
        c.unique_const(&mut consts, &file, off, r.id.get_ref(), "descf.");
        let row = c.row(r, &file, &S::new(off..off, String::new()), m);
        d.fields.push(DescFieldDef { row, hi, lo, sfids });
    }
    d
}
