//! Generated `spec::messages` and `spec::platform_memory` (spec/messages.toml,
//! spec/platform_memory.toml).

use super::q;
use crate::model::{const_name, Spec};
use std::fmt::Write;

fn opt(s: &Option<String>) -> String {
    match s {
        Some(t) => format!("Some({})", q(t)),
        None => "None".into(),
    }
}

pub(super) fn messages(spec: &Spec, o: &mut String) {
    o.push_str("/// Message header and payload dword bit fields (spec/messages.toml).\npub mod messages {\n    use super::*;\n");
    o.push_str("    /// A row of [[message]]: a message header or payload register M0 with `dwords` described dwords.\n    #[derive(Debug)]\n    pub struct MessageInfo { pub id: &'static str, pub name: &'static str, pub dwords: u32, pub gens: GenSet, pub text: &'static str, pub cite: &'static str, pub note: Option<&'static str> }\n");
    o.push_str("    /// A row of [[field]]: bits `hi:lo` of dword `dword` (M0.`dword`) of message `message`. `access` is field, reserved, ignored or unstated; `values` are (first, last, name).\n    #[derive(Debug)]\n    pub struct MsgFieldInfo { pub id: &'static str, pub message: &'static str, pub dword: u32, pub hi: u32, pub lo: u32, pub name: &'static str, pub access: &'static str, pub format: Option<&'static str>, pub values: &'static [(u32, u32, &'static str)], pub gens: GenSet, pub text: &'static str, pub cite: &'static str, pub note: Option<&'static str> }\n");
    o.push_str("    impl MsgFieldInfo {\n        /// Mask of the field within its dword.\n        pub const fn mask(&self) -> u32 { (u32::MAX >> (31 - (self.hi - self.lo))) << self.lo }\n        /// Extract the field from a dword value.\n        pub const fn get(&self, dword: u32) -> u32 { (dword & self.mask()) >> self.lo }\n        /// Replace the field in a dword value.\n        pub const fn set(&self, dword: u32, v: u32) -> u32 { (dword & !self.mask()) | ((v << self.lo) & self.mask()) }\n        /// The name of enumerated value `v`.\n        pub fn value_name(&self, v: u32) -> Option<&'static str> { self.values.iter().find(|e| e.0 <= v && v <= e.1).map(|e| e.2) }\n    }\n");
    let mut ms = vec![];
    for m in &spec.seed.messages {
        let v = &m.row.v;
        let n = const_name(v.id.get_ref(), "msg.");
        let _ = writeln!(o, "    pub static {n}: MessageInfo = MessageInfo {{ id: {}, name: {}, dwords: {}, gens: GenSet({}), text: {}, cite: {}, note: {} }};",
            q(v.id.get_ref()), q(v.name.get_ref()), v.dwords, m.row.gens, q(&v.text), q(v.cite.get_ref()), opt(&v.note));
        ms.push(format!("&{n}"));
    }
    let _ = writeln!(
        o,
        "    /// Every message row.\n    pub static MESSAGES: [&MessageInfo; {}] = [{}];",
        ms.len(),
        ms.join(", ")
    );
    o.push_str("    /// Field constants, named after their IDs (`msgfield.gateway-barrier.m0-2.barrier-id` -> `GATEWAY_BARRIER_M0_2_BARRIER_ID`).\n    pub mod field {\n        use super::*;\n");
    let mut fl = vec![];
    for f in &spec.seed.msg_fields {
        let v = &f.row.v;
        let n = const_name(v.id.get_ref(), "msgfield.");
        let values: Vec<String> = f
            .values
            .iter()
            .map(|(a, b, s)| format!("({a}, {b}, {})", q(s)))
            .collect();
        let _ = writeln!(o, "        pub static {n}: MsgFieldInfo = MsgFieldInfo {{ id: {}, message: {}, dword: {}, hi: {}, lo: {}, name: {}, access: {}, format: {}, values: &[{}], gens: GenSet({}), text: {}, cite: {}, note: {} }};",
            q(v.id.get_ref()), q(v.message.get_ref()), v.dword, f.hi, f.lo, q(v.name.get_ref()), q(v.access.get_ref()), opt(&v.format), values.join(", "), f.row.gens, q(&v.text), q(v.cite.get_ref()), opt(&v.note));
        fl.push(format!("&field::{n}"));
    }
    o.push_str("    }\n");
    let _ = writeln!(
        o,
        "    /// Every field row.\n    pub static FIELDS: [&MsgFieldInfo; {}] = [{}];",
        fl.len(),
        fl.join(", ")
    );
    o.push_str("    /// The message named `name`.\n    pub fn message(name: &str) -> Option<&'static MessageInfo> { MESSAGES.iter().copied().find(|m| m.name == name) }\n");
    o.push_str("    /// Fields of dword `dword` of message `message` on `p`, in file order.\n    pub fn fields_of(p: Platform, message: &str, dword: u32) -> impl Iterator<Item = &'static MsgFieldInfo> + '_ { FIELDS.iter().copied().filter(move |f| f.message == message && f.dword == dword && f.gens.contains(p)) }\n");
    o.push_str("    /// The field of `message` called `name`.\n    pub fn field_named(message: &str, name: &str) -> Option<&'static MsgFieldInfo> { FIELDS.iter().copied().find(|f| f.message == message && f.name == name) }\n}\n\n");
}

pub(super) fn platform_memory(spec: &Spec, o: &mut String) {
    o.push_str("/// L3 allocation tables and numeric platform facts (spec/platform_memory.toml).\npub mod platform_memory {\n    use super::*;\n");
    o.push_str("    /// A row of [[l3_alloc]]: one validated L3 configuration, sizes in KB per bank.\n    #[derive(Debug)]\n    pub struct L3AllocInfo { pub id: &'static str, pub bank: &'static str, pub slm_mode: bool, pub config: u32, pub slm: u32, pub urb: u32, pub rest: u32, pub dc: u32, pub ro: u32, pub sum: u32, pub gens: GenSet, pub cite: &'static str, pub note: Option<&'static str> }\n");
    o.push_str("    /// A row of [[fact]]: a size, count, bit position or default.\n    #[derive(Debug)]\n    pub struct FactInfo { pub id: &'static str, pub value: i64, pub unit: &'static str, pub gens: GenSet, pub text: &'static str, pub cite: &'static str, pub note: Option<&'static str> }\n");
    let mut al = vec![];
    for a in &spec.seed.l3_allocs {
        let v = &a.v;
        let n = const_name(v.id.get_ref(), "");
        let _ = writeln!(o, "    pub static {n}: L3AllocInfo = L3AllocInfo {{ id: {}, bank: {}, slm_mode: {}, config: {}, slm: {}, urb: {}, rest: {}, dc: {}, ro: {}, sum: {}, gens: GenSet({}), cite: {}, note: {} }};",
            q(v.id.get_ref()), q(v.bank.get_ref()), v.slm_mode, v.config, v.slm, v.urb, v.rest, v.dc, v.ro, v.sum, a.gens, q(v.cite.get_ref()), opt(&v.note));
        al.push(format!("&{n}"));
    }
    let _ = writeln!(o, "    /// Every L3 allocation row, in file order.\n    pub static L3_ALLOCS: [&L3AllocInfo; {}] = [{}];", al.len(), al.join(", "));
    o.push_str("    /// The L3 configuration `config` of the `bank` (\"multi\"/\"single\") table in SLM mode or not.\n    pub fn l3_alloc(bank: &str, slm_mode: bool, config: u32) -> Option<&'static L3AllocInfo> { L3_ALLOCS.iter().copied().find(|a| a.bank == bank && a.slm_mode == slm_mode && a.config == config) }\n");
    let mut fs = vec![];
    for f in &spec.seed.facts {
        let v = &f.v;
        let n = const_name(v.id.get_ref(), "");
        let _ = writeln!(o, "    pub static {n}: FactInfo = FactInfo {{ id: {}, value: {}, unit: {}, gens: GenSet({}), text: {}, cite: {}, note: {} }};",
            q(v.id.get_ref()), v.value.get_ref(), q(v.unit.get_ref()), f.gens, q(&v.text), q(v.cite.get_ref()), opt(&v.note));
        fs.push(format!("&{n}"));
    }
    let _ = writeln!(
        o,
        "    /// Every fact row, in file order.\n    pub static FACTS: [&FactInfo; {}] = [{}];",
        fs.len(),
        fs.join(", ")
    );
    o.push_str("    /// A row of [[programming_note]]: a seed programming note outside the EU; `quote` is the seed's words.\n    #[derive(Debug)]\n    pub struct ProgrammingNoteInfo { pub id: &'static str, pub subject: &'static str, pub quote: &'static str, pub gens: GenSet, pub text: &'static str, pub cite: &'static str, pub note: Option<&'static str> }\n");
    let mut ns = vec![];
    for r in &spec.seed.notes {
        let v = &r.v;
        let n = const_name(v.id.get_ref(), "");
        let _ = writeln!(o, "    pub static {n}: ProgrammingNoteInfo = ProgrammingNoteInfo {{ id: {}, subject: {}, quote: {}, gens: GenSet({}), text: {}, cite: {}, note: {} }};",
            q(v.id.get_ref()), q(v.subject.get_ref()), q(v.quote.get_ref()), r.gens, q(&v.text), q(v.cite.get_ref()), opt(&v.note));
        ns.push(format!("&{n}"));
    }
    let _ = writeln!(o, "    /// Every programming note, in file order.\n    pub static NOTES: [&ProgrammingNoteInfo; {}] = [{}];", ns.len(), ns.join(", "));
    o.push_str("    /// The fact with ID `id`.\n    pub fn fact(id: &str) -> Option<&'static FactInfo> { FACTS.iter().copied().find(|f| f.id == id) }\n}\n\n");
}
