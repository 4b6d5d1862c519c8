//! Loading and validating spec/: every table is parsed with its schema, every
//! row's common fields (id, gens, cite) are checked, and each table's own
//! consistency rules are enforced. The result is a [`Spec`] from which the
//! generators work; any problem is a [`Diag`] with file and line.

use crate::diag::{Diag, Diags, SourceFile};
use crate::expr::{self, EnumInfo, Vocab};
use crate::gens::{Mask, Platforms};
use crate::grid;
use crate::schema::*;
use serde::de::DeserializeOwned;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A validated row: the parsed row, where it is, and which platforms it covers.
#[derive(Debug)]
pub struct Row<T> {
    pub v: T,
    pub file: String,
    pub line: usize,
    pub gens: Mask,
}

pub struct TypeRow {
    pub row: Row<DataType>,
    pub reg_enc: Vec<Option<u8>>,
    pub imm_enc: Vec<Option<u8>>,
}

pub struct OpcodeRow {
    pub row: Row<Opcode>,
    pub number: Vec<Option<u8>>,
    pub combos: Vec<(u32, [u32; 3], Mask)>,
}

pub struct ArfRow {
    pub row: Row<Arf>,
    pub count: Vec<u32>,
    pub elem_types: u32,
}

pub struct FieldRow {
    pub row: Row<Field>,
    pub hi: u32,
    pub lo: u32,
}

pub struct ConversionRow {
    pub row: Row<Conversion>,
    pub from: u32,
    pub to: u32,
}

pub struct SetRow<T> {
    pub row: Row<T>,
    pub a: u32,
    pub b: u32,
}

pub struct GridRow {
    pub row: Row<Grid>,
    pub cells: [[u8; 9]; 9],
}

pub struct RuleRow {
    pub row: Row<Rule>,
    /// Rust expression: true when the rule holds.
    pub code: String,
    pub foreach_src: bool,
}

pub struct LayoutRow {
    pub row: Row<Layout>,
    pub fields: Vec<crate::encoding::FieldDef>,
}

pub struct ValuesRow {
    pub row: Row<ValueTable>,
    pub values: crate::encoding::Values,
}

pub struct CompactRow {
    pub row: Row<CompactTable>,
    pub entries: Vec<u64>,
}

pub struct MathRow {
    pub row: Row<MathFunc>,
    pub types: u32,
}

pub struct PropDef {
    pub name: String,
    pub scope: String,
    pub ty: String,
    pub doc: String,
}

/// The whole validated spec.
pub struct Spec {
    pub inputs: Vec<PathBuf>,
    pub platforms: Platforms,
    pub platform_rows: Vec<Row<Platform>>,
    pub features: Vec<Row<Feature>>,
    pub sources: Vec<Source>,
    pub types: Vec<TypeRow>,
    pub opcodes: Vec<OpcodeRow>,
    pub regfiles: Vec<Row<RegFile>>,
    pub arfs: Vec<ArfRow>,
    pub fields: Vec<FieldRow>,
    pub acc: Vec<SetRow<AccPrecision>>,
    pub conversions: Vec<ConversionRow>,
    /// [platform][src type][dst type] -> index into `conversions`.
    pub conv_table: Vec<Vec<Vec<Option<usize>>>>,
    pub specials: Vec<SetRow<Special>>,
    pub saturations: Vec<SetRow<Saturation>>,
    pub grids: Vec<GridRow>,
    pub cmpn: Vec<Row<CmpnRule>>,
    pub fp: Vec<SetRow<FpRule>>,
    pub props: Vec<PropDef>,
    pub predicates: Vec<(String, String, String)>,
    pub enums: BTreeMap<String, EnumInfo>,
    pub enum_docs: BTreeMap<String, String>,
    pub rules: Vec<RuleRow>,
    pub math: Vec<MathRow>,
    pub math_specials: Vec<Row<MathSpecial>>,
    pub layouts: Vec<LayoutRow>,
    pub value_tables: Vec<ValuesRow>,
    pub compact_tables: Vec<CompactRow>,
    /// Every row ID with its file.
    pub ids: Vec<(String, String)>,
    /// Raw tables for the JSON dump: (file name, value).
    pub raw: Vec<(String, serde_json::Value)>,
}

/// CamelCase a snake / kebab / dotted name: `int_div_both` -> `IntDivBoth`.
pub fn camel(s: &str) -> String {
    let mut out = String::new();
    for part in s.split(['_', '-', '.', ' ']).filter(|p| !p.is_empty()) {
        let mut cs = part.chars();
        if let Some(c) = cs.next() {
            out.extend(c.to_uppercase());
            out.push_str(cs.as_str());
        }
    }
    if out.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        out.insert(0, 'V');
    }
    out
}

/// Constant name from an ID: drop the table prefix, upper-case, `.`/`-` -> `_`.
pub fn const_name(id: &str, prefix: &str) -> String {
    let rest = id.strip_prefix(prefix).unwrap_or(id);
    let mut s: String = rest
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    if s.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    s
}

struct Ctx {
    dir: PathBuf,
    prefix: String,
    d: Diags,
    files: BTreeMap<String, SourceFile>,
    inputs: Vec<PathBuf>,
    raw: Vec<(String, serde_json::Value)>,
    ids: BTreeMap<String, (String, usize)>,
    id_list: Vec<(String, String)>,
    source_keys: BTreeSet<String>,
    seed_keys: BTreeSet<String>,
    platforms: Option<Platforms>,
    type_names: Vec<String>,
    type_kinds: Vec<String>,
}

impl Ctx {
    fn display(&self, rel: &str) -> String {
        if self.prefix.is_empty() {
            rel.to_string()
        } else {
            format!("{}/{}", self.prefix, rel)
        }
    }

    /// Read and parse one file. `None` if it is missing (reported when required) or malformed.
    fn load<T: DeserializeOwned>(&mut self, rel: &str, required: bool) -> Option<(T, String)> {
        let path = self.dir.join(rel);
        let name = self.display(rel);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                if required {
                    self.d
                        .file(&name, format!("cannot read required table: {e}"));
                }
                return None;
            }
        };
        self.inputs.push(path);
        let sf = SourceFile::new(name.clone(), text);
        let parsed = toml::from_str::<T>(&sf.text);
        let raw = toml::from_str::<toml::Value>(&sf.text)
            .ok()
            .and_then(|v| serde_json::to_value(v).ok());
        let out = match parsed {
            Ok(v) => Some((v, name.clone())),
            Err(e) => {
                let off = e.span().map(|s| s.start).unwrap_or(0);
                let msg = e.message().replace('\n', " ");
                self.d.at(&sf, off, msg);
                None
            }
        };
        if let Some(raw) = raw {
            self.raw.push((name.clone(), raw));
        }
        self.files.insert(name, sf);
        out
    }

    fn line(&self, file: &str, off: usize) -> usize {
        self.files.get(file).map(|f| f.line_of(off)).unwrap_or(0)
    }

    fn err(&mut self, file: &str, off: usize, msg: impl Into<String>) {
        let line = self.line(file, off);
        self.d.list.push(Diag {
            file: file.to_string(),
            line,
            msg: msg.into(),
        });
    }

    fn err_line(&mut self, file: &str, line: usize, msg: impl Into<String>) {
        self.d.list.push(Diag {
            file: file.to_string(),
            line,
            msg: msg.into(),
        });
    }

    fn check_id(&mut self, file: &str, id: &S<String>, prefixes: &[&str]) {
        let s = id.get_ref();
        let off = id.span().start;
        let well_formed = !s.is_empty()
            && s.split('.').count() >= 2
            && s.split('.').all(|seg| {
                !seg.is_empty()
                    && seg
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_ascii_alphanumeric())
                    && seg
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            });
        if !well_formed {
            self.err(
                file,
                off,
                format!("malformed id `{s}`: expected dot-separated lowercase segments like `region.width-le-exec`"),
            );
        }
        if !prefixes.is_empty() && !prefixes.iter().any(|p| s.starts_with(p)) {
            self.err(
                file,
                off,
                format!("id `{s}` must start with {}", prefixes.join(" or ")),
            );
        }
        let line = self.line(file, off);
        if let Some((f0, l0)) = self.ids.get(s) {
            let msg = format!("duplicate id `{s}` (first defined at {f0}:{l0})");
            self.err(file, off, msg);
        } else {
            self.ids.insert(s.clone(), (file.to_string(), line));
            self.id_list.push((s.clone(), file.to_string()));
        }
    }

    fn check_gens(&mut self, file: &str, gens: &S<String>) -> Mask {
        let Some(p) = &self.platforms else { return 0 };
        match p.parse(gens.get_ref()) {
            Ok(m) => m,
            Err(e) => {
                self.err(file, gens.span().start, format!("bad gens: {e}"));
                0
            }
        }
    }

    fn check_cite(&mut self, file: &str, cite: &S<String>) {
        let off = cite.span().start;
        let text = cite.get_ref().trim();
        if text.is_empty() {
            self.err(file, off, "missing citation: `cite` is empty");
            return;
        }
        for part in split_citations(text) {
            if part.is_empty() {
                self.err(file, off, "empty citation between `;`");
                continue;
            }
            let key = part.split_whitespace().next().unwrap_or("");
            if !self.source_keys.contains(key) {
                let known: Vec<_> = self.source_keys.iter().cloned().collect();
                self.err(
                    file,
                    off,
                    format!(
                        "citation `{part}` does not start with a source key from sources.toml ({})",
                        known.join(", ")
                    ),
                );
                continue;
            }
            let rest = part[key.len()..].trim();
            if rest.is_empty() {
                self.err(
                    file,
                    off,
                    format!("citation `{part}` names no section, file or page"),
                );
            } else if self.seed_keys.contains(key) && !rest.starts_with('§') {
                self.err(
                    file,
                    off,
                    format!("seed citation `{part}` must name a section: `{key} §N.N`"),
                );
            }
        }
    }

    fn common(
        &mut self,
        file: &str,
        id: &S<String>,
        gens: &S<String>,
        cite: &S<String>,
        prefixes: &[&str],
    ) -> Mask {
        self.check_id(file, id, prefixes);
        self.check_cite(file, cite);
        self.check_gens(file, gens)
    }

    fn row<T>(&self, v: T, file: &str, id: &S<String>, gens: Mask) -> Row<T> {
        Row {
            v,
            file: file.to_string(),
            line: self.line(file, id.span().start),
            gens,
        }
    }

    /// A per-platform map `{ "gens expr" = value }`: every platform of `cover` must get
    /// exactly one value.
    fn per_platform<V: Copy>(
        &mut self,
        file: &str,
        off: usize,
        what: &str,
        map: &BTreeMap<String, V>,
        cover: Mask,
        required: bool,
    ) -> Vec<Option<V>> {
        let Some(p) = self.platforms.clone() else {
            return vec![];
        };
        let mut out = vec![None; p.names.len()];
        for (k, v) in map {
            match p.parse(k) {
                Ok(m) => {
                    for (i, slot) in out.iter_mut().enumerate() {
                        if m & (1 << i) != 0 {
                            if slot.is_some() {
                                self.err(
                                    file,
                                    off,
                                    format!("{what}: platform {} is given twice", p.names[i]),
                                );
                            }
                            *slot = Some(*v);
                        }
                    }
                    let extra = m & !cover;
                    if extra != 0 {
                        self.err(
                            file,
                            off,
                            format!(
                                "{what}: key `{k}` names platforms outside the row's gens: {}",
                                p.names_of(extra).join(" ")
                            ),
                        );
                    }
                }
                Err(e) => self.err(file, off, format!("{what}: bad platform key `{k}`: {e}")),
            }
        }
        if required {
            let missing: Vec<String> = (0..p.names.len())
                .filter(|i| cover & (1 << i) != 0 && out[*i].is_none())
                .map(|i| p.names[i].clone())
                .collect();
            if !missing.is_empty() {
                self.err(
                    file,
                    off,
                    format!("{what}: no value for {}", missing.join(" ")),
                );
            }
        }
        out
    }

    /// A set of data types from names and classes.
    fn type_set(&mut self, file: &str, off: usize, items: &[String]) -> u32 {
        let mut m = 0u32;
        for it in items {
            for alt in it.split('|') {
                match self.type_token(alt.trim()) {
                    Some(x) => m |= x,
                    None => self.err(
                        file,
                        off,
                        format!("unknown type or class `{alt}` (types: {}; classes: int uint sint float scalar vector vint any byte word dword qword)", self.type_names.join(" ")),
                    ),
                }
            }
        }
        m
    }

    fn type_token(&self, t: &str) -> Option<u32> {
        if let Some(i) = self
            .type_names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(t))
        {
            return Some(1 << i);
        }
        let mut m = 0u32;
        for (i, k) in self.type_kinds.iter().enumerate() {
            let bits = match self.type_names[i].as_str() {
                "UB" | "B" => 8,
                "UW" | "W" | "HF" => 16,
                "UD" | "D" | "F" => 32,
                "UQ" | "Q" | "DF" => 64,
                _ => 0,
            };
            let hit = match t {
                "int" => k == "uint" || k == "sint",
                "uint" => k == "uint",
                "sint" => k == "sint",
                "float" => k == "float",
                "scalar" => !k.starts_with("vector"),
                "vector" => k.starts_with("vector"),
                "vint" => k == "vector-uint" || k == "vector-sint",
                "any" => true,
                "byte" => bits == 8 && k != "float",
                "word" => bits == 16 && k != "float",
                "dword" => bits == 32 && k != "float",
                "qword" => bits == 64 && k != "float",
                _ => return None,
            };
            if hit {
                m |= 1 << i;
            }
        }
        Some(m)
    }

    fn one_of(&mut self, file: &str, v: &S<String>, what: &str, allowed: &[&str]) {
        if !allowed.contains(&v.get_ref().as_str()) {
            self.err(
                file,
                v.span().start,
                format!(
                    "{what} `{}` is not one of: {}",
                    v.get_ref(),
                    allowed.join(", ")
                ),
            );
        }
    }
}

/// Split a `cite` string at `;` outside parentheses.
fn split_citations(text: &str) -> Vec<&str> {
    let mut out = vec![];
    let mut depth = 0i32;
    let mut start = 0;
    for (i, ch) in text.char_indices() {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ';' if depth <= 0 => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(text[start..].trim());
    out
}

/// Load and validate the spec folder.
pub fn load(dir: &Path, display_prefix: &str) -> Result<Spec, Vec<Diag>> {
    let mut c = Ctx {
        dir: dir.to_path_buf(),
        prefix: display_prefix.trim_end_matches('/').to_string(),
        d: Diags::default(),
        files: BTreeMap::new(),
        inputs: vec![],
        raw: vec![],
        ids: BTreeMap::new(),
        id_list: vec![],
        source_keys: BTreeSet::new(),
        seed_keys: BTreeSet::new(),
        platforms: None,
        type_names: vec![],
        type_kinds: vec![],
    };

    // ---- sources
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

    // ---- platforms
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
    if c.platforms.is_none() {
        return Err(c.d.list);
    }
    let np = c.platforms.as_ref().map(|p| p.names.len()).unwrap_or(0);

    // ---- types
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
        for p in 0..np {
            for (what, get) in [("reg_enc", 0), ("imm_enc", 1)] {
                let mut seen: BTreeMap<u8, String> = BTreeMap::new();
                for t in &types {
                    let e = if get == 0 {
                        t.reg_enc.get(p)
                    } else {
                        t.imm_enc.get(p)
                    };
                    if let Some(Some(e)) = e {
                        if let Some(other) = seen.insert(*e, t.row.v.name.get_ref().clone()) {
                            let pn = c
                                .platforms
                                .as_ref()
                                .map(|x| x.names[p].clone())
                                .unwrap_or_default();
                            let msg = format!(
                                "{what} {e} on {pn} is used by both {other} and {}",
                                t.row.v.name.get_ref()
                            );
                            c.err_line(&file, t.row.line, msg);
                        }
                    }
                }
            }
        }
    }

    // ---- properties (enums are needed by other tables)
    let mut enums: BTreeMap<String, EnumInfo> = BTreeMap::new();
    let mut enum_docs = BTreeMap::new();
    enums.insert(
        "type".into(),
        EnumInfo {
            rust: "DataType".into(),
            values: c.type_names.clone(),
            variants: c.type_names.clone(),
        },
    );
    let mut props = vec![];
    let mut predicates = vec![];
    let mut prop_map: BTreeMap<(String, String), String> = BTreeMap::new();
    let props_file = c.load::<PropertiesFile>("properties.toml", true);

    // ---- opcodes
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
        for p in 0..np {
            let mut seen: BTreeMap<u8, String> = BTreeMap::new();
            for o in &opcodes {
                if let Some(Some(n)) = o.number.get(p) {
                    if o.row.gens & (1 << p) == 0 {
                        continue;
                    }
                    if let Some(other) = seen.insert(*n, o.row.v.name.get_ref().clone()) {
                        let pn = c
                            .platforms
                            .as_ref()
                            .map(|x| x.names[p].clone())
                            .unwrap_or_default();
                        let msg = format!(
                            "opcode number {n:#x} on {pn} is used by both `{other}` and `{}`",
                            o.row.v.name.get_ref()
                        );
                        c.err_line(&file, o.row.line, msg);
                    }
                }
            }
        }
    }
    enums.insert(
        "opcode".into(),
        EnumInfo {
            rust: "Opcode".into(),
            values: opcodes
                .iter()
                .map(|o| o.row.v.name.get_ref().clone())
                .collect(),
            variants: opcodes
                .iter()
                .map(|o| camel(o.row.v.name.get_ref()))
                .collect(),
        },
    );

    if let Some((f, file)) = props_file {
        for e in f.enums {
            let e = e.into_inner();
            let name = e.name.get_ref().clone();
            if enums.contains_key(&name) {
                c.err(
                    &file,
                    e.name.span().start,
                    format!("duplicate enumeration `{name}`"),
                );
                continue;
            }
            let mut seen = BTreeSet::new();
            for v in &e.values {
                if !seen.insert(camel(v)) {
                    c.err(
                        &file,
                        e.name.span().start,
                        format!("enumeration `{name}`: value `{v}` repeats"),
                    );
                }
            }
            enum_docs.insert(name.clone(), e.doc.clone());
            enums.insert(
                name.clone(),
                EnumInfo {
                    rust: camel(&name),
                    variants: e.values.iter().map(|v| camel(v)).collect(),
                    values: e.values,
                },
            );
        }
        for p in f.prop {
            let p = p.into_inner();
            let off = p.name.span().start;
            c.one_of(&file, &p.scope, "scope", &["insn", "dst", "src"]);
            let ty = p.ty.get_ref().clone();
            if !(ty == "int" || ty == "bool" || enums.contains_key(&ty)) {
                c.err(&file, p.ty.span().start, format!("unknown property type `{ty}` (int, bool, type, opcode or an [[enum]] name)"));
            }
            let key = (p.scope.get_ref().clone(), p.name.get_ref().clone());
            if prop_map.insert(key, ty.clone()).is_some() {
                c.err(
                    &file,
                    off,
                    format!(
                        "duplicate property `{}` in scope {}",
                        p.name.get_ref(),
                        p.scope.get_ref()
                    ),
                );
            }
            props.push(PropDef {
                name: p.name.get_ref().clone(),
                scope: p.scope.get_ref().clone(),
                ty,
                doc: p.doc,
            });
        }
        for p in f.predicate {
            let p = p.into_inner();
            c.one_of(&file, &p.scope, "scope", &["insn", "src"]);
            predicates.push((p.name.get_ref().clone(), p.scope.get_ref().clone(), p.doc));
        }
    }

    // ---- registers
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
            let bits = fl.bits.get_ref().trim().to_string();
            let parsed = match bits.split_once(':') {
                Some((h, l)) => h
                    .trim()
                    .parse::<u32>()
                    .ok()
                    .zip(l.trim().parse::<u32>().ok()),
                None => bits.parse::<u32>().ok().map(|b| (b, b)),
            };
            let (hi, lo) = match parsed {
                Some((h, l)) if h >= l && h < 32 => (h, l),
                _ => {
                    c.err(
                        &file,
                        fl.bits.span().start,
                        format!(
                            "bad bit range `{bits}`: expected `N` or `HI:LO` with 31 >= HI >= LO"
                        ),
                    );
                    (0, 0)
                }
            };
            let row = c.row(fl, &file, &S::new(off..off, String::new()), g);
            fields.push(FieldRow { row, hi, lo });
        }
        // Bit ranges: per platform, per (reg, dword): no overlap and full 32-bit cover.
        let mut groups: BTreeMap<(String, u32), Vec<usize>> = BTreeMap::new();
        for (i, fr) in fields.iter().enumerate() {
            groups
                .entry((fr.row.v.reg.get_ref().clone(), fr.row.v.dword))
                .or_default()
                .push(i);
        }
        for ((reg, dw), idx) in &groups {
            for p in 0..np {
                let mut owner: [Option<usize>; 32] = [None; 32];
                let mut any = false;
                for &i in idx {
                    let fr = &fields[i];
                    if fr.row.gens & (1 << p) == 0 {
                        continue;
                    }
                    any = true;
                    for b in fr.lo..=fr.hi {
                        if let Some(j) = owner[b as usize] {
                            if j != i {
                                let pn = c
                                    .platforms
                                    .as_ref()
                                    .map(|x| x.names[p].clone())
                                    .unwrap_or_default();
                                let msg = format!(
                                    "bit range {}:{} of {reg} dword {dw} overlaps `{}` (bit {b}) on {pn}",
                                    fr.hi, fr.lo, fields[j].row.v.id.get_ref()
                                );
                                c.err_line(&file, fr.row.line, msg);
                            }
                        } else {
                            owner[b as usize] = Some(i);
                        }
                    }
                }
                if any {
                    let missing: Vec<String> = (0..32)
                        .rev()
                        .filter(|b| owner[*b].is_none())
                        .map(|b| b.to_string())
                        .collect();
                    if !missing.is_empty() {
                        let pn = c
                            .platforms
                            .as_ref()
                            .map(|x| x.names[p].clone())
                            .unwrap_or_default();
                        let line = fields[idx[0]].row.line;
                        c.err_line(&file, line, format!("{reg} dword {dw} on {pn}: bits {} are not covered by any field (name reserved bits as such)", missing.join(",")));
                    }
                }
            }
        }
        for a in f.acc_precision {
            let a = a.into_inner();
            let g = c.common(&file, &a.id, &a.gens, &a.cite, &["acc."]);
            let off = a.id.span().start;
            let ts = c.type_set(&file, off, &a.types);
            let row = c.row(a, &file, &S::new(off..off, String::new()), g);
            acc.push(SetRow { row, a: ts, b: 0 });
        }
    }

    // ---- conversions
    let mut conversions = vec![];
    let mut specials = vec![];
    let mut saturations = vec![];
    let nt = c.type_names.len();
    let mut conv_table = vec![vec![vec![None; nt]; nt]; np];
    if let Some((f, file)) = c.load::<ConversionsFile>("conversions.toml", true) {
        for cv in f.conversion {
            let cv = cv.into_inner();
            let g = c.common(&file, &cv.id, &cv.gens, &cv.cite, &["conv."]);
            let off = cv.id.span().start;
            c.one_of(
                &file,
                &cv.method,
                "method",
                &[
                    "identity",
                    "zero_extend",
                    "sign_extend",
                    "reinterpret",
                    "truncate",
                    "float_to_int",
                    "int_to_float",
                    "float_widen",
                    "float_narrow",
                ],
            );
            c.one_of(&file, &cv.round, "round", &["exact", "cr0", "rtz", "rtne"]);
            c.one_of(&file, &cv.sat, "sat", &["clamp", "unit", "none"]);
            if !["wider", "same", "narrower", "any", "wider-or-same"].contains(&cv.size.as_str()) {
                c.err(
                    &file,
                    off,
                    format!(
                        "size `{}` is not one of: wider, same, narrower, wider-or-same, any",
                        cv.size
                    ),
                );
            }
            if !["same_type", "different_type", "any"].contains(&cv.identity.as_str()) {
                c.err(
                    &file,
                    off,
                    format!(
                        "identity `{}` is not one of: same_type, different_type, any",
                        cv.identity
                    ),
                );
            }
            let from = c.type_set(&file, off, &cv.from);
            let to = c.type_set(&file, off, &cv.to);
            let row = c.row(cv, &file, &S::new(off..off, String::new()), g);
            conversions.push(ConversionRow { row, from, to });
        }
        // Coverage: every scalar pair on every platform exactly once.
        let bits: Vec<u32> = types.iter().map(|t| t.row.v.bits).collect();
        #[allow(clippy::needless_range_loop)] // p, s, d index three tables at once
        for p in 0..np {
            for s in 0..nt {
                for d in 0..nt {
                    let scalar = |i: usize| !c.type_kinds[i].starts_with("vector");
                    let has = |i: usize| types[i].row.gens & (1 << p) != 0;
                    if !(scalar(s) && scalar(d) && has(s) && has(d)) {
                        continue;
                    }
                    let mut hits = vec![];
                    for (ci, cv) in conversions.iter().enumerate() {
                        if cv.row.gens & (1 << p) == 0
                            || cv.from & (1 << s) == 0
                            || cv.to & (1 << d) == 0
                        {
                            continue;
                        }
                        let size_ok = match cv.row.v.size.as_str() {
                            "wider" => bits[d] > bits[s],
                            "same" => bits[d] == bits[s],
                            "narrower" => bits[d] < bits[s],
                            "wider-or-same" => bits[d] >= bits[s],
                            _ => true,
                        };
                        let id_ok = match cv.row.v.identity.as_str() {
                            "same_type" => s == d,
                            "different_type" => s != d,
                            _ => true,
                        };
                        if size_ok && id_ok {
                            hits.push(ci);
                        }
                    }
                    let pn = c
                        .platforms
                        .as_ref()
                        .map(|x| x.names[p].clone())
                        .unwrap_or_default();
                    match hits.len() {
                        0 => c.err(
                            &file,
                            0,
                            format!(
                                "no conversion row covers {} -> {} on {pn}",
                                c.type_names[s], c.type_names[d]
                            ),
                        ),
                        1 => conv_table[p][s][d] = Some(hits[0]),
                        _ => {
                            let ids: Vec<String> = hits
                                .iter()
                                .map(|h| conversions[*h].row.v.id.get_ref().clone())
                                .collect();
                            let line = conversions[hits[1]].row.line;
                            c.err_line(
                                &file,
                                line,
                                format!(
                                    "{} -> {} on {pn} is covered by several rows: {}",
                                    c.type_names[s],
                                    c.type_names[d],
                                    ids.join(", ")
                                ),
                            );
                        }
                    }
                }
            }
        }
        for s in f.special {
            let s = s.into_inner();
            let g = c.common(&file, &s.id, &s.gens, &s.cite, &["conv."]);
            let off = s.id.span().start;
            c.one_of(
                &file,
                &s.input,
                "input",
                &[
                    "zero",
                    "denorm",
                    "nan",
                    "pos_inf",
                    "neg_inf",
                    "pos_overflow",
                    "neg_overflow",
                ],
            );
            c.one_of(&file, &s.result, "result", &["zero", "imax", "imin"]);
            let a = c.type_set(&file, off, &s.from);
            let b = c.type_set(&file, off, &s.to);
            let row = c.row(s, &file, &S::new(off..off, String::new()), g);
            specials.push(SetRow { row, a, b });
        }
        for s in f.saturation {
            let s = s.into_inner();
            let g = c.common(&file, &s.id, &s.gens, &s.cite, &["sat."]);
            let off = s.id.span().start;
            let a = c.type_set(&file, off, &s.types);
            let row = c.row(s, &file, &S::new(off..off, String::new()), g);
            saturations.push(SetRow { row, a, b: 0 });
        }
    }

    // ---- comparisons
    let mut grids = vec![];
    let mut cmpn = vec![];
    if let Some((f, file)) = c.load::<CompareFile>("compare.toml", true) {
        for g in f.grid {
            let g = g.into_inner();
            let m = c.common(&file, &g.id, &g.gens, &g.cite, &["cmp.", "cmpn."]);
            let off = g.id.span().start;
            c.one_of(&file, &g.kind, "kind", &["cmp", "cmpn"]);
            c.one_of(&file, &g.cmod, "cmod", &["g", "l", "z", "nz", "le", "ge"]);
            let first_line = c.line(&file, g.grid.span().start) + 1;
            let cells = match grid::parse(g.grid.get_ref()) {
                Ok(cells) => cells,
                Err((li, msg)) => {
                    c.err_line(
                        &file,
                        first_line + li,
                        format!("malformed grid `{}`: {msg}", g.id.get_ref()),
                    );
                    [[0; 9]; 9]
                }
            };
            let row = c.row(g, &file, &S::new(off..off, String::new()), m);
            grids.push(GridRow { row, cells });
        }
        for r in f.cmpn {
            let r = r.into_inner();
            let m = c.common(&file, &r.id, &r.gens, &r.cite, &["cmpn."]);
            let off = r.id.span().start;
            cmpn.push(c.row(r, &file, &S::new(off..off, String::new()), m));
        }
    }

    // ---- float modes
    let mut fp = vec![];
    if let Some((f, file)) = c.load::<FloatModesFile>("float_modes.toml", true) {
        let effects = enums
            .get("fp_effect")
            .map(|e| e.values.clone())
            .unwrap_or_default();
        let ops = enums
            .get("fp_ops")
            .map(|e| e.values.clone())
            .unwrap_or_default();
        for r in f.fp {
            let r = r.into_inner();
            let m = c.common(&file, &r.id, &r.gens, &r.cite, &["fp."]);
            let off = r.id.span().start;
            c.one_of(&file, &r.mode, "mode", &["ieee", "alt", "both"]);
            let er: Vec<&str> = effects.iter().map(String::as_str).collect();
            c.one_of(
                &file,
                &r.effect,
                "effect (fp_effect in properties.toml)",
                &er,
            );
            let or: Vec<&str> = ops.iter().map(String::as_str).collect();
            c.one_of(&file, &r.ops, "ops (fp_ops in properties.toml)", &or);
            if r.effect.get_ref() == "denorm_cr0" && r.cr0_bit.is_none() {
                c.err(&file, off, "effect denorm_cr0 needs cr0_bit");
            }
            if let Some(b) = r.cr0_bit {
                if b > 31 {
                    c.err(&file, off, format!("cr0_bit {b} > 31"));
                }
            }
            let ts = c.type_set(&file, off, &r.types);
            let row = c.row(r, &file, &S::new(off..off, String::new()), m);
            fp.push(SetRow { row, a: ts, b: 0 });
        }
    }

    // ---- rules
    let mut rules = vec![];
    let mut rule_files: Vec<String> = match std::fs::read_dir(dir.join("rules")) {
        Ok(rd) => rd
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().to_string())
            .filter(|n| n.ends_with(".toml"))
            .collect(),
        Err(_) => vec![],
    };
    rule_files.sort();
    let pred_names: BTreeMap<String, String> = predicates
        .iter()
        .map(|(n, s, _)| (n.clone(), s.clone()))
        .collect();
    for rf in rule_files {
        let rel = format!("rules/{rf}");
        let Some((f, file)) = c.load::<RulesFile>(&rel, false) else {
            continue;
        };
        for r in f.rule {
            let r = r.into_inner();
            let m = c.common(&file, &r.id, &r.gens, &r.cite, &[]);
            let off = r.id.span().start;
            let foreach_src = match &r.foreach {
                None => false,
                Some(fe) if fe.get_ref() == "src" => true,
                Some(fe) => {
                    c.err(
                        &file,
                        fe.span().start,
                        format!("foreach `{}` must be \"src\"", fe.get_ref()),
                    );
                    false
                }
            };
            if foreach_src && !prop_map.contains_key(&("src".to_string(), "present".to_string())) {
                c.err(
                    &file,
                    off,
                    "foreach = \"src\" needs a `present` property of scope src in properties.toml",
                );
            }
            if !["dst", "flags", "all", "none"].contains(&r.undefined.as_str()) {
                c.err(
                    &file,
                    off,
                    format!(
                        "undefined `{}` is not one of: dst, flags, all, none",
                        r.undefined
                    ),
                );
            }
            let vocab = Vocab {
                props: &prop_map,
                enums: &enums,
                foreach_src,
            };
            let compile_field = |c: &mut Ctx, what: &str, e: &S<String>| -> Option<String> {
                // Offsets inside the TOML string: +1 for the opening quote (exact for
                // single-line basic strings, which rules use).
                let base = e.span().start + 1;
                let res = expr::parse(e.get_ref()).and_then(|x| {
                    let (t, code) = expr::compile(&x, &vocab)?;
                    if t != expr::Ty::Bool {
                        return Err((0, format!("`{what}` must be a bool expression")));
                    }
                    Ok(code)
                });
                match res {
                    Ok(code) => Some(code),
                    Err((o, msg)) => {
                        let col_hint = &e.get_ref()[..o.min(e.get_ref().len())];
                        let _ = col_hint;
                        c.err(
                            &file,
                            base + o,
                            format!(
                                "in `{what}` of `{}`: {msg} (at `{}`)",
                                r.id.get_ref(),
                                e.get_ref()
                                    .get(o..)
                                    .unwrap_or("")
                                    .chars()
                                    .take(24)
                                    .collect::<String>()
                            ),
                        );
                        None
                    }
                }
            };
            let when = match &r.when {
                Some(w) => compile_field(&mut c, "when", w),
                None => Some("true".to_string()),
            };
            let check = match (&r.check, &r.check_fn) {
                (Some(ch), None) => compile_field(&mut c, "check", ch),
                (None, Some(f)) => match pred_names.get(f.get_ref()) {
                    Some(scope) => {
                        if scope == "src" && !foreach_src {
                            c.err(&file, f.span().start, format!("predicate `{}` is per-source: the rule needs foreach = \"src\"", f.get_ref()));
                        }
                        Some(format!(
                            "crate::validate::predicates::{}(p, s)",
                            f.get_ref()
                        ))
                    }
                    None => {
                        c.err(&file, f.span().start, format!("unknown predicate `{}` (declare it as [[predicate]] in properties.toml)", f.get_ref()));
                        None
                    }
                },
                (Some(_), Some(_)) => {
                    c.err(&file, off, "give either `check` or `check_fn`, not both");
                    None
                }
                (None, None) => {
                    c.err(
                        &file,
                        off,
                        "rule needs `check` (an expression) or `check_fn` (a named Rust predicate)",
                    );
                    None
                }
            };
            let code = format!(
                "(!({}) || ({}))",
                when.unwrap_or_else(|| "true".into()),
                check.unwrap_or_else(|| "true".into())
            );
            let row = c.row(r, &file, &S::new(off..off, String::new()), m);
            rules.push(RuleRow {
                row,
                code,
                foreach_src,
            });
        }
    }

    // ---- math functions
    let mut math = vec![];
    let mut math_specials = vec![];
    if let Some((f, file)) = c.load::<MathFile>("math.toml", false) {
        let fns: Vec<String> = enums
            .get("math_fn")
            .map(|e| e.values.clone())
            .unwrap_or_default();
        let fr: Vec<&str> = fns.iter().map(String::as_str).collect();
        let classes = [
            "-inf", "-Fin", "-denorm", "-0", "+0", "+denorm", "+Fin", "+inf", "NaN", "any",
        ];
        for m in f.func {
            let m = m.into_inner();
            let g = c.common(&file, &m.id, &m.gens, &m.cite, &["math."]);
            let off = m.id.span().start;
            c.one_of(&file, &m.func, "fn (math_fn in properties.toml)", &fr);
            if !(1..=2).contains(&m.srcs) {
                c.err(&file, off, format!("srcs must be 1 or 2, found {}", m.srcs));
            }
            if !(m.ulps >= 0.0 && m.abs_error >= 0.0) {
                c.err(&file, off, "ulps and abs_error must be >= 0");
            }
            let types = c.type_set(&file, off, &m.types);
            let row = c.row(m, &file, &S::new(off..off, String::new()), g);
            math.push(MathRow { row, types });
        }
        for s in f.special {
            let s = s.into_inner();
            let g = c.common(&file, &s.id, &s.gens, &s.cite, &["math."]);
            let off = s.id.span().start;
            c.one_of(&file, &s.func, "fn (math_fn in properties.toml)", &fr);
            c.one_of(&file, &s.mode, "mode", &["ieee", "alt", "both"]);
            c.one_of(&file, &s.src0, "src0 class", &classes);
            if !classes.contains(&s.src1.as_str()) {
                c.err(
                    &file,
                    off,
                    format!(
                        "src1 class `{}` is not one of: {}",
                        s.src1,
                        classes.join(", ")
                    ),
                );
            }
            c.one_of(
                &file,
                &s.result,
                "result",
                &[
                    "+inf", "-inf", "+0", "-0", "NaN", "+fmax", "-fmax", "src0", "abs",
                ],
            );
            math_specials.push(c.row(s, &file, &S::new(off..off, String::new()), g));
        }
    }

    // ---- encodings
    let mut layouts = vec![];
    let mut value_tables = vec![];
    let mut compact_tables = vec![];
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
            unique_name(&mut c, &l.name);
            let off = l.id.span().start;
            if l.width != 64 && l.width != 128 {
                c.err(
                    &file,
                    off,
                    format!("width must be 64 or 128, found {}", l.width),
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
            unique_name(&mut c, &v.name);
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
            unique_name(&mut c, &t.name);
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
    }

    if !c.d.is_empty() {
        let mut list = c.d.list;
        list.sort_by_key(|a| (a.file.clone(), a.line));
        list.dedup();
        return Err(list);
    }
    Ok(Spec {
        inputs: c.inputs,
        platforms: c.platforms.unwrap_or(Platforms {
            names: vec![],
            gen_x10: vec![],
            lowpower: vec![],
        }),
        platform_rows,
        features,
        sources,
        types,
        opcodes,
        regfiles,
        arfs,
        fields,
        acc,
        conversions,
        conv_table,
        specials,
        saturations,
        grids,
        cmpn,
        fp,
        props,
        predicates,
        enums,
        enum_docs,
        rules,
        math,
        math_specials,
        layouts,
        value_tables,
        compact_tables,
        ids: c.id_list,
        raw: c.raw,
    })
}
