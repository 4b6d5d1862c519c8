//! The loading context: files read, diagnostics, IDs seen, and the checks every
//! row shares (id, gens, cite, per-platform maps, type sets).

use super::*;
use crate::diag::SourceFile;
use serde::de::DeserializeOwned;

pub(super) struct Ctx {
    pub dir: PathBuf,
    pub prefix: String,
    pub d: Diags,
    pub files: BTreeMap<String, SourceFile>,
    pub inputs: Vec<PathBuf>,
    pub raw: Vec<(String, serde_json::Value)>,
    pub ids: BTreeMap<String, (String, usize)>,
    pub id_list: Vec<(String, String)>,
    pub source_keys: BTreeSet<String>,
    pub seed_keys: BTreeSet<String>,
    pub platforms: Option<Platforms>,
    pub type_names: Vec<String>,
    pub type_kinds: Vec<String>,
}

impl Ctx {
    pub fn display(&self, rel: &str) -> String {
        if self.prefix.is_empty() {
            rel.to_string()
        } else {
            format!("{}/{}", self.prefix, rel)
        }
    }

    /// Read and parse one file. `None` if it is missing (reported when required) or malformed.
    pub fn load<T: DeserializeOwned>(&mut self, rel: &str, required: bool) -> Option<(T, String)> {
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

    pub fn line(&self, file: &str, off: usize) -> usize {
        self.files.get(file).map(|f| f.line_of(off)).unwrap_or(0)
    }

    pub fn err(&mut self, file: &str, off: usize, msg: impl Into<String>) {
        let line = self.line(file, off);
        self.d.list.push(Diag {
            file: file.to_string(),
            line,
            msg: msg.into(),
        });
    }

    /// A row's `text` must say something: an error naming row `id` (at byte `off` of `file`)
    /// when it is blank.
    pub fn nonempty_text(&mut self, file: &str, off: usize, id: &str, text: &str) {
        if text.trim().is_empty() {
            self.err(file, off, format!("`{id}` has an empty text"));
        }
    }

    /// Record the constant name row `id` (at byte `off` of `file`) becomes, `prefix` dropped,
    /// in `consts`; two rows must not give the same name (a duplicate ID is reported by
    /// `common` instead).
    pub fn unique_const(
        &mut self,
        consts: &mut std::collections::BTreeMap<String, usize>,
        file: &str,
        off: usize,
        id: &str,
        prefix: &str,
    ) {
        let name = super::const_name(id, prefix);
        let line = self.line(file, off);
        let duplicate_id = self.ids.get(id).is_some_and(|(_, l)| *l != line);
        if let Some(l0) = consts.insert(name.clone(), line) {
            if !duplicate_id {
                self.err(
                    file,
                    off,
                    format!("id `{id}` gives the constant name {name} of the row at line {l0}"),
                );
            }
        }
    }

    pub fn err_line(&mut self, file: &str, line: usize, msg: impl Into<String>) {
        self.d.list.push(Diag {
            file: file.to_string(),
            line,
            msg: msg.into(),
        });
    }

    pub fn check_id(&mut self, file: &str, id: &S<String>, prefixes: &[&str]) {
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

    pub fn check_gens(&mut self, file: &str, gens: &S<String>) -> Mask {
        let Some(p) = &self.platforms else { return 0 };
        match p.parse(gens.get_ref()) {
            Ok(m) => m,
            Err(e) => {
                self.err(file, gens.span().start, format!("bad gens: {e}"));
                0
            }
        }
    }

    pub fn check_cite(&mut self, file: &str, cite: &S<String>) {
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

    pub fn common(
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

    pub fn row<T>(&self, v: T, file: &str, id: &S<String>, gens: Mask) -> Row<T> {
        Row {
            v,
            file: file.to_string(),
            line: self.line(file, id.span().start),
            gens,
        }
    }

    /// A per-platform map `{ "gens expr" = value }`: every platform of `cover` must get
    /// exactly one value.
    pub fn per_platform<V: Copy>(
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
    pub fn type_set(&mut self, file: &str, off: usize, items: &[String]) -> u32 {
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

    pub fn type_token(&self, t: &str) -> Option<u32> {
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

    pub fn one_of(&mut self, file: &str, v: &S<String>, what: &str, allowed: &[&str]) {
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
pub(super) fn split_citations(text: &str) -> Vec<&str> {
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
