//! Generated `spec::payload` (spec/payload.toml): the compute thread payload rows.

use super::q;
use crate::model::{const_name, Spec};
use std::fmt::Write;

pub(super) fn payload(spec: &Spec, o: &mut String) {
    o.push_str("/// The compute thread payload (spec/payload.toml): what the dispatcher writes into a thread's registers.\npub mod payload {\n    use super::*;\n");
    o.push_str("    /// A row of [[payload]]. `bits` is (hi, lo) within r0 dword `dword` (part r0 fields only).\n    #[derive(Debug, PartialEq, Eq)]\n    pub struct PayloadRowInfo { pub id: &'static str, pub gens: GenSet, pub cite: &'static str, /** r0, curbe, mask, local-ids, grf or order. */ pub part: &'static str, pub reg: Option<u32>, pub dword: Option<u32>, pub bits: Option<(u32, u32)>, pub value: &'static str, /** \"defined\", \"assumption\" or \"undefined\". */ pub status: &'static str, pub text: &'static str, pub note: Option<&'static str> }\n");
    let opt = |x: Option<String>| match x {
        Some(t) => format!("Some({t})"),
        None => "None".into(),
    };
    let mut names = vec![];
    for r in &spec.payload {
        let v = &r.row.v;
        let n = const_name(v.id.get_ref(), "payload.");
        let _ = writeln!(o, "    /// `{}`: {}\n    pub static {n}: PayloadRowInfo = PayloadRowInfo {{ id: {}, gens: GenSet({}), cite: {}, part: {}, reg: {}, dword: {}, bits: {}, value: {}, status: {}, text: {}, note: {} }};",
            v.id.get_ref(), v.text.replace('\n', " "), q(v.id.get_ref()), r.row.gens, q(v.cite.get_ref()), q(v.part.get_ref()),
            opt(v.reg.map(|x| x.to_string())), opt(v.dword.as_ref().map(|x| x.get_ref().to_string())),
            opt(r.bits.map(|(h, l)| format!("({h}, {l})"))), q(v.value.get_ref()), q(v.status.get_ref()), q(&v.text),
            opt(v.note.as_deref().map(q)));
        names.push(format!("&{n}"));
    }
    let _ = writeln!(
        o,
        "    /// Every row, in file order.\n    pub static ROWS: [&PayloadRowInfo; {}] = [{}];",
        names.len(),
        names.join(", ")
    );
    o.push_str("    /// The row with ID `id`.\n    pub fn by_id(id: &str) -> Option<&'static PayloadRowInfo> { ROWS.iter().copied().find(|r| r.id == id) }\n    /// The rows of `part` on platform `p`, in file order.\n    pub fn of_part(p: Platform, part: &'static str) -> impl Iterator<Item = &'static PayloadRowInfo> { ROWS.iter().copied().filter(move |r| r.part == part && r.gens.contains(p)) }\n}\n\n");
}
