//! Loading the fact tables: sources, platforms, types, opcodes, registers.

use super::ctx::Ctx;
use super::*;

pub(super) fn load_sources(c: &mut Ctx) -> Vec<Source> {
    let mut sources = vec![];
    if let Some((f, file)) = c.load::<SourcesFile>("sources.toml", true) {
        for s in f.source {
            let s = s.into_inner();
            let key = s.key.get_ref().clone();
            if !c.source_keys.insert(key.clone()) {
                c.err(
                    &file,
                    s.key.span().start,
                    format!("duplicate source key `{key}`"),
                );
            }
            if s.file.is_some() {
                c.seed_keys.insert(key.clone());
            }
            if s.file.is_none() && s.url.is_none() {
                c.err(
                    &file,
                    s.key.span().start,
                    format!("source `{key}` needs `file` or `url`"),
                );
            }
            sources.push(s);
        }
    }

    sources
}

pub(super) fn load_platforms(c: &mut Ctx) -> (Vec<Row<Platform>>, Vec<Row<Feature>>) {
    let mut platform_rows = vec![];
    let mut features = vec![];
    if let Some((f, file)) = c.load::<PlatformsFile>("platforms.toml", true) {
        let rows: Vec<Platform> = f.platform.into_iter().map(|p| p.into_inner()).collect();
        let refs: Vec<&Platform> = rows.iter().collect();
        c.platforms = Some(Platforms::from_rows(&refs));
        let mut names = BTreeSet::new();
        for (i, p) in rows.into_iter().enumerate() {
            c.check_id(&file, &p.id, &["platform."]);
            c.check_cite(&file, &p.cite);
            if !names.insert(p.name.get_ref().clone()) {
                c.err(
                    &file,
                    p.name.span().start,
                    format!("duplicate platform `{}`", p.name.get_ref()),
                );
            }
            let r = c.row(p, &file, &S::new(0..0, String::new()), 1 << i);
            platform_rows.push(r);
        }
        for (r, p) in platform_rows.iter_mut().zip(0..) {
            let _ = p;
            let off = r.v.id.span().start;
            r.line = c.line(&file, off);
        }
        for fe in f.feature {
            let fe = fe.into_inner();
            let g = c.common(&file, &fe.id, &fe.gens, &fe.cite, &["feature."]);
            let r = c.row(fe, &file, &S::new(0..0, String::new()), g);
            features.push(r);
        }
        for r in features.iter_mut() {
            r.line = c.line(&file, r.v.id.span().start);
        }
    }
    (platform_rows, features)
}

pub(super) fn load_types(c: &mut Ctx, np: usize) -> Vec<TypeRow> {
    let mut types = vec![];
    if let Some((f, file)) = c.load::<TypesFile>("types.toml", true) {
        for t in &f.ty {
            let t = t.get_ref();
            c.type_names.push(t.name.get_ref().clone());
            c.type_kinds.push(t.kind.get_ref().clone());
        }
        if c.type_names.len() > 32 {
            c.err(&file, 0, "at most 32 data types are supported");
        }
        let mut seen = BTreeSet::new();
        for t in f.ty {
            let t = t.into_inner();
            let g = c.common(&file, &t.id, &t.gens, &t.cite, &["type."]);
            if !seen.insert(t.name.get_ref().to_ascii_uppercase()) {
                c.err(
                    &file,
                    t.name.span().start,
                    format!("duplicate type `{}`", t.name.get_ref()),
                );
            }
            c.one_of(
                &file,
                &t.kind,
                "kind",
                &[
                    "uint",
                    "sint",
                    "float",
                    "vector-uint",
                    "vector-sint",
                    "vector-float",
                ],
            );
            if ![8, 16, 32, 64].contains(&t.bits) {
                c.err(
                    &file,
                    t.id.span().start,
                    format!("bits must be 8, 16, 32 or 64, found {}", t.bits),
                );
            }
            let off = t.id.span().start;
            let reg_enc = c.per_platform(&file, off, "reg_enc", &t.reg_enc, g, false);
            let imm_enc = c.per_platform(&file, off, "imm_enc", &t.imm_enc, g, false);
            let row = c.row(t, &file, &S::new(off..off, String::new()), g);
            types.push(TypeRow {
                row,
                reg_enc,
                imm_enc,
            });
        }
        // Encodings must be unique per platform.
        for (what, reg) in [("reg_enc", true), ("imm_enc", false)] {
            let keyed = |p: usize| {
                types
                    .iter()
                    .filter_map(|t| {
                        let e = if reg {
                            t.reg_enc.get(p)
                        } else {
                            t.imm_enc.get(p)
                        };
                        let e = (*e?)?;
                        Some((e, t.row.v.name.get_ref().clone(), t.row.line))
                    })
                    .collect::<Vec<_>>()
            };
            unique_per_platform(c, &file, np, keyed, |e, pn, a, b| {
                format!("{what} {e} on {pn} is used by both {a} and {b}")
            });
        }
    }

    types
}

pub(super) fn load_opcodes(c: &mut Ctx, np: usize) -> Vec<OpcodeRow> {
    let mut opcodes = vec![];
    if let Some((f, file)) = c.load::<OpcodesFile>("opcodes.toml", true) {
        let mut names = BTreeSet::new();
        for o in f.opcode {
            let o = o.into_inner();
            let g = c.common(&file, &o.id, &o.gens, &o.cite, &["opcode."]);
            let off = o.id.span().start;
            if !names.insert(o.name.get_ref().clone()) {
                c.err(
                    &file,
                    o.name.span().start,
                    format!("duplicate mnemonic `{}`", o.name.get_ref()),
                );
            }
            c.one_of(
                &file,
                &o.class,
                "class",
                &["alu", "logic", "math", "flow", "send", "three-src", "misc"],
            );
            if let Some(a) = &o.implicit_acc {
                c.one_of(&file, a, "implicit_acc", &["read", "write"]);
            }
            if o.srcs > 3 {
                c.err(&file, off, format!("srcs must be 0-3, found {}", o.srcs));
            }
            let number = c.per_platform(&file, off, "number", &o.number, g, true);
            for n in number.iter().flatten() {
                if *n > 0x7f {
                    c.err(
                        &file,
                        off,
                        format!("opcode number {n:#x} does not fit 7 bits"),
                    );
                }
            }
            let mut combos = vec![];
            let g_row = g;
            for t in &o.types {
                let toff = t.span().start;
                let full = t.get_ref();
                // Optional platform prefix: `gen9: D <- D D`.
                let (combo_gens, s) = match full.split_once("<-").map(|(d, _)| d.contains(':')) {
                    Some(true) => {
                        let (g, rest) = full.split_once(':').unwrap_or(("all", full));
                        let m = match c.platforms.as_ref().map(|p| p.parse(g.trim())) {
                            Some(Ok(m)) => m & g_row,
                            Some(Err(e)) => {
                                c.err(
                                    &file,
                                    toff,
                                    format!("type combination `{full}`: bad platform prefix: {e}"),
                                );
                                0
                            }
                            None => 0,
                        };
                        (m, rest.trim())
                    }
                    _ => (g_row, full.as_str()),
                };
                let Some((dst, srcs)) = s.split_once("<-") else {
                    c.err(
                        &file,
                        toff,
                        format!("type combination `{s}` must look like `DST <- SRC0 SRC1`"),
                    );
                    continue;
                };
                let dst_items = vec![dst.trim().to_string()];
                let dm = c.type_set(&file, toff, &dst_items);
                let src_items: Vec<String> = srcs.split_whitespace().map(String::from).collect();
                if src_items.len() != o.srcs as usize {
                    c.err(
                        &file,
                        toff,
                        format!(
                            "type combination `{s}` lists {} source(s) but the opcode has {}",
                            src_items.len(),
                            o.srcs
                        ),
                    );
                }
                let mut sm = [0u32; 3];
                for (i, it) in src_items.iter().enumerate().take(3) {
                    sm[i] = c.type_set(&file, toff, std::slice::from_ref(it));
                }
                combos.push((dm, sm, combo_gens));
            }
            let row = c.row(o, &file, &S::new(off..off, String::new()), g);
            opcodes.push(OpcodeRow {
                row,
                number,
                combos,
            });
        }
        let keyed = |p: usize| {
            opcodes
                .iter()
                .filter(|o| o.row.gens & (1 << p) != 0)
                .filter_map(|o| {
                    let n = (*o.number.get(p)?)?;
                    Some((n, o.row.v.name.get_ref().clone(), o.row.line))
                })
                .collect::<Vec<_>>()
        };
        unique_per_platform(c, &file, np, keyed, |n, pn, a, b| {
            format!("opcode number {n:#x} on {pn} is used by both `{a}` and `{b}`")
        });
    }
    opcodes
}

pub(super) type Registers = (
    Vec<Row<RegFile>>,
    Vec<ArfRow>,
    Vec<FieldRow>,
    Vec<SetRow<AccPrecision>>,
);

pub(super) fn load_registers(c: &mut Ctx, np: usize) -> Registers {
    let mut regfiles = vec![];
    let mut arfs = vec![];
    let mut fields = vec![];
    let mut acc = vec![];
    if let Some((f, file)) = c.load::<RegistersFile>("registers.toml", true) {
        for r in f.file {
            let r = r.into_inner();
            let g = c.common(&file, &r.id, &r.gens, &r.cite, &["regfile."]);
            let off = r.id.span().start;
            regfiles.push(c.row(r, &file, &S::new(off..off, String::new()), g));
        }
        // regtype -> (name, platforms): one register type per code per platform.
        let mut codes: BTreeMap<u8, Vec<(String, Mask)>> = BTreeMap::new();
        for a in f.arf {
            let a = a.into_inner();
            let g = c.common(&file, &a.id, &a.gens, &a.cite, &["arf."]);
            let off = a.id.span().start;
            c.one_of(&file, &a.access, "access", &["rw", "ro", "none"]);
            if let Some(i) = &a.initial {
                c.one_of(&file, i, "initial", &["zero", "undefined"]);
            }
            if a.regtype > 15 {
                c.err(
                    &file,
                    off,
                    format!("regtype {} does not fit RegNum[7:4]", a.regtype),
                );
            }
            let entry = codes.entry(a.regtype).or_default();
            if let Some((other, _)) = entry.iter().find(|(_, m)| m & g != 0) {
                let msg = format!(
                    "regtype {:#06b} is used by both {other} and {} on the same platform",
                    a.regtype,
                    a.name.get_ref()
                );
                c.err(&file, off, msg);
            }
            entry.push((a.name.get_ref().clone(), g));
            let count = c.per_platform(&file, off, "count", &a.count, g, true);
            let count = count.into_iter().map(|x| x.unwrap_or(0)).collect();
            let elem_types = c.type_set(&file, off, &a.elem_types);
            let row = c.row(a, &file, &S::new(off..off, String::new()), g);
            arfs.push(ArfRow {
                row,
                count,
                elem_types,
            });
        }
        for fl in f.field {
            let fl = fl.into_inner();
            let g = c.common(&file, &fl.id, &fl.gens, &fl.cite, &["field."]);
            let off = fl.id.span().start;
            c.one_of(
                &file,
                &fl.access,
                "access",
                &["rw", "ro", "reserved", "mbz", "zero", "w1c", "special"],
            );
            if let Some(i) = &fl.initial {
                c.one_of(&file, i, "initial", &["undefined"]);
            }
            let (hi, lo) = bitfields::parse_bits(c, &file, &fl.bits);
            let row = c.row(fl, &file, &S::new(off..off, String::new()), g);
            fields.push(FieldRow { row, hi, lo });
        }
        // Bit ranges: per platform, per (reg, dword): no overlap and full 32-bit cover.
        let bf: Vec<bitfields::BitField> = fields
            .iter()
            .map(|f| bitfields::BitField {
                owner: f.row.v.reg.get_ref(),
                dword: f.row.v.dword,
                hi: f.hi,
                lo: f.lo,
                gens: f.row.gens,
                line: f.row.line,
                id: f.row.v.id.get_ref(),
            })
            .collect();
        bitfields::check_cover(c, &file, np, &bf);
        for a in f.acc_precision {
            let a = a.into_inner();
            let g = c.common(&file, &a.id, &a.gens, &a.cite, &["acc."]);
            let off = a.id.span().start;
            let ts = c.type_set(&file, off, &a.types);
            let row = c.row(a, &file, &S::new(off..off, String::new()), g);
            acc.push(SetRow { row, a: ts, b: 0 });
        }
    }

    (regfiles, arfs, fields, acc)
}

/// Reports every key used by two rows on one platform: `rows(p)` lists (key, row name, line)
/// of platform `p`; `msg(key, platform, first, second)` words the error.
fn unique_per_platform(
    c: &mut Ctx,
    file: &str,
    np: usize,
    rows: impl Fn(usize) -> Vec<(u8, String, usize)>,
    msg: impl Fn(u8, &str, &str, &str) -> String,
) {
    for p in 0..np {
        let pn = c
            .platforms
            .as_ref()
            .map(|x| x.names[p].clone())
            .unwrap_or_default();
        let mut seen: BTreeMap<u8, String> = BTreeMap::new();
        for (key, name, line) in rows(p) {
            if let Some(other) = seen.insert(key, name.clone()) {
                let m = msg(key, &pn, &other, &name);
                c.err_line(file, line, m);
            }
        }
    }
}
