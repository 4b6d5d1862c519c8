//! Loading spec/encoding/*.toml: bit layouts, value tables, compaction tables.

use super::ctx::Ctx;
use super::*;

pub(super) type Encodings = (
    Vec<LayoutRow>,
    Vec<ValuesRow>,
    Vec<CompactRow>,
    super::codec_tables::Pending,
);

pub(super) fn load_encodings(c: &mut Ctx, dir: &Path) -> Encodings {
    let mut layouts = vec![];
    let mut value_tables = vec![];
    let mut compact_tables = vec![];
    let mut pending = super::codec_tables::Pending::default();
    let mut enc_files: Vec<String> = match std::fs::read_dir(dir.join("encoding")) {
        Ok(rd) => rd
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().to_string())
            .filter(|n| n.ends_with(".toml"))
            .collect(),
        Err(_) => vec![],
    };
    enc_files.sort();
    let mut enc_names: BTreeMap<String, String> = BTreeMap::new();
    for ef in enc_files {
        let rel = format!("encoding/{ef}");
        let Some((f, file)) = c.load::<EncodingFile>(&rel, false) else {
            continue;
        };
        let mut unique_name = |c: &mut Ctx, n: &S<String>| {
            let name = n.get_ref().clone();
            let ok = name
                .chars()
                .next()
                .is_some_and(|ch| ch.is_ascii_lowercase())
                && name
                    .chars()
                    .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_');
            if !ok {
                c.err(
                    &file,
                    n.span().start,
                    format!("name `{name}` must be lowercase snake_case"),
                );
            }
            if let Some(prev) = enc_names.insert(name.clone(), file.clone()) {
                c.err(
                    &file,
                    n.span().start,
                    format!("encoding name `{name}` is already used in {prev}"),
                );
            }
        };
        for l in f.layout {
            let l = l.into_inner();
            let m = c.common(&file, &l.id, &l.gens, &l.cite, &["enc."]);
            unique_name(c, &l.name);
            let off = l.id.span().start;
            if ![32, 64, 128].contains(&l.width) {
                c.err(
                    &file,
                    off,
                    format!("width must be 32, 64 or 128, found {}", l.width),
                );
            }
            let first = c.line(&file, l.fields.span().start) + 1;
            let fields = match crate::encoding::layout(l.fields.get_ref(), l.width.min(128)) {
                Ok(f) => f,
                Err((li, msg)) => {
                    c.err_line(
                        &file,
                        first + li,
                        format!("layout `{}`: {msg}", l.id.get_ref()),
                    );
                    vec![]
                }
            };
            let row = c.row(l, &file, &S::new(off..off, String::new()), m);
            layouts.push(LayoutRow { row, fields });
        }
        for v in f.values {
            let v = v.into_inner();
            let m = c.common(&file, &v.id, &v.gens, &v.cite, &["enc."]);
            unique_name(c, &v.name);
            let off = v.id.span().start;
            let first = c.line(&file, v.values.span().start) + 1;
            let values = match crate::encoding::values(v.values.get_ref()) {
                Ok(x) => x,
                Err((li, msg)) => {
                    c.err_line(
                        &file,
                        first + li,
                        format!("values `{}`: {msg}", v.id.get_ref()),
                    );
                    vec![]
                }
            };
            let row = c.row(v, &file, &S::new(off..off, String::new()), m);
            value_tables.push(ValuesRow { row, values });
        }
        for t in f.compact_table {
            let t = t.into_inner();
            let m = c.common(&file, &t.id, &t.gens, &t.cite, &["compact."]);
            unique_name(c, &t.name);
            let off = t.id.span().start;
            if t.index_bits == 0 || t.index_bits > 16 || t.entry_bits == 0 || t.entry_bits > 64 {
                c.err(&file, off, "index_bits must be 1-16 and entry_bits 1-64");
            }
            let first = c.line(&file, t.entries.span().start) + 1;
            let entries =
                match crate::encoding::entries(t.entries.get_ref(), t.index_bits, t.entry_bits) {
                    Ok(x) => x,
                    Err((li, msg)) => {
                        c.err_line(
                            &file,
                            first + li,
                            format!("compaction table `{}`: {msg}", t.id.get_ref()),
                        );
                        vec![]
                    }
                };
            let row = c.row(t, &file, &S::new(off..off, String::new()), m);
            compact_tables.push(CompactRow { row, entries });
        }
        pending.implicit.extend(
            f.implicit
                .into_iter()
                .map(|r| (r.into_inner(), file.clone())),
        );
        pending
            .form
            .extend(f.form.into_iter().map(|r| (r.into_inner(), file.clone())));
        pending
            .select
            .extend(f.select.into_iter().map(|r| (r.into_inner(), file.clone())));
        pending
            .check
            .extend(f.check.into_iter().map(|r| (r.into_inner(), file.clone())));
    }

    (layouts, value_tables, compact_tables, pending)
}
