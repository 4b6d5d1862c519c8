//! `spec::descriptors`: the rows of spec/descriptors.toml as static tables.

use super::q;
use crate::model::{const_name, Spec};
use std::fmt::Write;

fn opt(x: Option<&str>) -> String {
    match x {
        Some(t) => format!("Some({})", q(t)),
        None => "None".into(),
    }
}

pub(super) fn descriptors(spec: &Spec, o: &mut String) {
    let d = &spec.descriptors;
    o.push_str("/// Send message descriptors (spec/descriptors.toml): shared functions, descriptor fields and\n/// the value tables the fields select. Read by `euref::message`.\npub mod descriptors {\n    use super::*;\n");
    o.push_str("    /// A row of [[sfid]].\n    #[derive(Debug, PartialEq, Eq)]\n    pub struct SfidInfo { pub id: &'static str, pub gens: GenSet, pub cite: &'static str, /** ExDesc[3:0]. */ pub number: u8, /** euref's name. */ pub name: &'static str, pub mesa: Option<&'static str>, pub iga: Option<&'static str>, /** IGA's name from Skylake when it differs. */ pub iga_skl: Option<&'static str>, /** The [[msg_value]] table of its message types. */ pub types: Option<&'static str>, pub note: Option<&'static str> }\n");
    o.push_str("    /// A row of [[desc_field]].\n    #[derive(Debug, PartialEq, Eq)]\n    pub struct DescFieldInfo { pub id: &'static str, pub gens: GenSet, pub cite: &'static str, /** SFID numbers (empty: every SFID). */ pub sfids: &'static [u8], /** Message-type names (empty: every message). */ pub types: &'static [&'static str], pub name: &'static str, /** In the extended descriptor (else the descriptor). */ pub exdesc: bool, pub hi: u8, pub lo: u8, /** The [[msg_value]] table of its values. */ pub values: Option<&'static str>, /** Mesa's label in its \"*** invalid\" text. */ pub mesa: Option<&'static str>, pub text: &'static str, pub note: Option<&'static str> }\n");
    o.push_str("    impl DescFieldInfo {\n        /// The field's value in `word`.\n        pub fn get(&self, word: u32) -> u32 { (word >> self.lo) & (u32::MAX >> (31 - (self.hi - self.lo))) }\n    }\n");
    o.push_str("    /// A row of [[msg_value]].\n    #[derive(Debug, PartialEq, Eq)]\n    pub struct MsgValueInfo { pub id: &'static str, pub gens: GenSet, pub cite: &'static str, pub table: &'static str, pub value: u32, pub name: &'static str, pub mesa: Option<&'static str>, pub iga: Option<&'static str>, /** How Mesa prints a data-port message control: surface, atomic, atomic_simd, atomic_float (None: the number). */ pub form: Option<&'static str>, /** defined, conflict or silent. */ pub status: &'static str, pub text: Option<&'static str>, pub note: Option<&'static str> }\n");
    let mut names = vec![];
    for r in &d.sfids {
        let v = &r.v;
        let n = const_name(v.id.get_ref(), "sfid.");
        let _ = writeln!(o, "    /// `{}`\n    pub static SFID_{n}: SfidInfo = SfidInfo {{ id: {}, gens: GenSet({}), cite: {}, number: {}, name: {}, mesa: {}, iga: {}, iga_skl: {}, types: {}, note: {} }};", v.id.get_ref(), q(v.id.get_ref()), r.gens, q(v.cite.get_ref()), v.number, q(v.name.get_ref()), opt(v.mesa.as_deref()), opt(v.iga.as_deref()), opt(v.iga_skl.as_deref()), opt(v.types.as_ref().map(|t| t.get_ref().as_str())), opt(v.note.as_deref()));
        names.push(format!("&SFID_{n}"));
    }
    let _ = writeln!(
        o,
        "    /// Every [[sfid]] row, in file order.\n    pub static SFIDS: [&SfidInfo; {}] = [{}];",
        names.len(),
        names.join(", ")
    );
    let mut names = vec![];
    for f in &d.fields {
        let v = &f.row.v;
        let n = const_name(v.id.get_ref(), "descf.");
        let sfids: Vec<String> = f.sfids.iter().map(|s| s.to_string()).collect();
        let types: Vec<String> = v.types.iter().map(|t| q(t.get_ref())).collect();
        let _ = writeln!(o, "    /// `{}`: {}\n    pub static FIELD_{n}: DescFieldInfo = DescFieldInfo {{ id: {}, gens: GenSet({}), cite: {}, sfids: &[{}], types: &[{}], name: {}, exdesc: {}, hi: {}, lo: {}, values: {}, mesa: {}, text: {}, note: {} }};", v.id.get_ref(), v.text.replace('\n', " "), q(v.id.get_ref()), f.row.gens, q(v.cite.get_ref()), sfids.join(", "), types.join(", "), q(&v.name), v.in_.get_ref() == "exdesc", f.hi, f.lo, opt(v.values.as_ref().map(|t| t.get_ref().as_str())), opt(v.mesa.as_deref()), q(&v.text), opt(v.note.as_deref()));
        names.push(format!("&FIELD_{n}"));
    }
    let _ = writeln!(o, "    /// Every [[desc_field]] row, in file order.\n    pub static FIELDS: [&DescFieldInfo; {}] = [{}];", names.len(), names.join(", "));
    let mut names = vec![];
    for r in &d.values {
        let v = &r.v;
        let n = const_name(v.id.get_ref(), "msgval.");
        let _ = writeln!(o, "    /// `{}`\n    pub static VALUE_{n}: MsgValueInfo = MsgValueInfo {{ id: {}, gens: GenSet({}), cite: {}, table: {}, value: {}, name: {}, mesa: {}, iga: {}, form: {}, status: {}, text: {}, note: {} }};", v.id.get_ref(), q(v.id.get_ref()), r.gens, q(v.cite.get_ref()), q(v.table.get_ref()), v.value, q(&v.name), opt(v.mesa.as_deref()), opt(v.iga.as_deref()), opt(v.form.as_ref().map(|t| t.get_ref().as_str())), q(v.status.get_ref()), opt(v.text.as_deref()), opt(v.note.as_deref()));
        names.push(format!("&VALUE_{n}"));
    }
    let _ = writeln!(o, "    /// Every [[msg_value]] row, in file order.\n    pub static VALUES: [&MsgValueInfo; {}] = [{}];", names.len(), names.join(", "));
    o.push_str("}\n\n");
}
