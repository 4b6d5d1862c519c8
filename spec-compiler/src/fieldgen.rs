//! Compile-time field positions of the native instruction layouts, for code that wants
//! straight-line field extraction (the binary decoder).
//!
//! For every 128-bit layout with an `access_mode` field (the native instruction layouts;
//! compaction views and the extended descriptor have none) this emits a unit type
//! implementing `spec::native_fields::Fields`: one associated constant per field name used by
//! any native layout, holding that layout's bit pieces, or `Fc::NONE` when the layout lacks the
//! field. Code generic over `L: Fields` reads `L::DST_REG_NR.get(word)`; after
//! monomorphization every read is a constant shift and mask, and absent fields fold away.
//! The macro `native_layouts!(m)` calls `m!(Type, ...)` with every layout type.

use crate::model::Spec;
use std::fmt::Write;

/// Most pieces a field may have here (the native layouts split fields in at most two).
const MAX_PIECES: usize = 4;

fn camel(name: &str) -> String {
    name.split('_')
        .map(|s| {
            let mut c = s.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

/// The `native_fields` module (appended to the generated `spec` module).
pub fn rust(spec: &Spec) -> String {
    let native: Vec<_> = spec
        .layouts
        .iter()
        .filter(|l| {
            l.row.v.width == 128
                && l.fields.iter().any(|f| f.name == "access_mode")
                && !l.fields.iter().any(|f| f.pieces.len() > MAX_PIECES)
        })
        .collect();
    let mut names: Vec<&str> = vec![];
    for l in &native {
        for f in &l.fields {
            if !f.name.starts_with("reserved") && !names.contains(&f.name.as_str()) {
                names.push(&f.name);
            }
        }
    }
    // Every operand prefix with every operand field suffix any operand has, so that code can
    // name `src2_subreg_nr` even where no layout has it (it reads as absent).
    let prefixes = ["dst_", "src0_", "src1_", "src2_"];
    let mut suffixes: Vec<String> = vec![];
    for n in &names {
        if let Some(s) = prefixes.iter().find_map(|p| n.strip_prefix(p)) {
            if !suffixes.iter().any(|x| x == s) {
                suffixes.push(s.to_string());
            }
        }
    }
    let mut names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    for p in prefixes {
        for s in &suffixes {
            let n = format!("{p}{s}");
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    names.sort_unstable();
    let mut o = String::new();
    o.push_str("/// Compile-time field positions of the native layouts (generated from spec/encoding by spec-compiler/src/fieldgen.rs).\npub mod native_fields {\n    use super::encoding::Layout;\n");
    o.push_str("    /// A field of one layout as constants: `(lo, bits, at)` pieces (native bits `lo + bits - 1 : lo` hold logical bits from `at`).\n    #[derive(Clone, Copy, Debug)]\n");
    let _ = writeln!(o, "    pub struct Fc {{ pub name: &'static str, pub width: u8, pub lo: u8, pub n: u8, pub pieces: [(u8, u8, u8); {MAX_PIECES}] }}");
    let _ = writeln!(o, "    impl Fc {{\n        /// A field the layout does not have (reads as 0).\n        pub const NONE: Fc = Fc {{ name: \"\", width: 0, lo: 0, n: 0, pieces: [(0, 0, 0); {MAX_PIECES}] }};");
    o.push_str("        /// Whether the layout has the field.\n        #[inline(always)]\n        pub const fn is_some(self) -> bool { self.width != 0 }\n");
    o.push_str("        /// Read the field (0 when absent).\n        #[inline(always)]\n        pub const fn get(self, word: u128) -> u64 {\n            let mut v = 0u64;\n            let mut k = 0;\n            while k < self.n as usize {\n                let (lo, bits, at) = self.pieces[k];\n                v |= (((word >> lo) as u64) & (u64::MAX >> (64 - bits as u32))) << at;\n                k += 1;\n            }\n            v\n        }\n");
    o.push_str("        /// Byte offset of the field's lowest bit.\n        #[inline(always)]\n        pub const fn byte(self) -> u8 { self.lo / 8 }\n    }\n");
    o.push_str("    /// The fields of one native layout (absent ones are `Fc::NONE`).\n    pub trait Fields {\n        const LAYOUT: &'static Layout;\n");
    for n in &names {
        let _ = writeln!(o, "        const {}: Fc;", n.to_ascii_uppercase());
    }
    o.push_str("    }\n");
    let mut types = vec![];
    for l in &native {
        let name = l.row.v.name.get_ref();
        let ty = camel(name);
        let _ = writeln!(
            o,
            "    /// `{}`.\n    pub struct {ty};\n    impl Fields for {ty} {{\n        const LAYOUT: &'static Layout = &super::encoding::{name}::LAYOUT;",
            l.row.v.id.get_ref()
        );
        for n in &names {
            let cn = n.to_ascii_uppercase();
            match l.fields.iter().find(|f| f.name == *n) {
                Some(f) => {
                    let mut ps: Vec<String> = f
                        .pieces
                        .iter()
                        .map(|p| format!("({}, {}, {})", p.lo, p.hi - p.lo + 1, p.at))
                        .collect();
                    let lo = f.pieces.iter().map(|p| p.lo).min().unwrap_or(0);
                    let np = ps.len();
                    ps.resize(MAX_PIECES, "(0, 0, 0)".into());
                    let _ = writeln!(
                        o,
                        "        const {cn}: Fc = Fc {{ name: {:?}, width: {}, lo: {lo}, n: {np}, pieces: [{}] }};",
                        f.name,
                        f.width,
                        ps.join(", ")
                    );
                }
                None => {
                    let _ = writeln!(o, "        const {cn}: Fc = Fc::NONE;");
                }
            }
        }
        o.push_str("    }\n");
        types.push(ty);
    }
    let _ = writeln!(
        o,
        "    /// Calls `$m!(T, ...)` with every native layout type.\n    macro_rules! native_layouts {{ ($m:ident) => {{ $m!({}) }}; }}\n    pub(crate) use native_layouts;\n}}",
        types.join(", ")
    );
    o
}
