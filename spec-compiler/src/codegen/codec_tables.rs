//! Generated `spec::encoding::implicit` and `spec::encoding::select` (spec/encoding
//! `[[implicit]]`, `[[form]]`, `[[select]]`).

use super::q;
use crate::model::codec_tables::{FormBy, ImplicitOp, FORMS, IMPLICIT_FILES, OPERANDS};
use crate::model::{camel, Spec};
use std::fmt::Write;

fn layout_list(spec: &Spec, idx: &[usize]) -> String {
    let v: Vec<String> = idx
        .iter()
        .map(|i| format!("&{}::LAYOUT", spec.layouts[*i].row.v.name.get_ref()))
        .collect();
    format!("&[{}]", v.join(", "))
}

fn operand(spec: &Spec, o: &Option<ImplicitOp>) -> String {
    let Some(o) = o else {
        return "None".into();
    };
    let ty = match o.ty {
        Some(t) => format!("Some(DataType::{})", spec.types[t].row.v.name.get_ref()),
        None => "None".into(),
    };
    let region = match o.region {
        Some([v, w, h]) => format!("Some(({v}, {w}, {h}))"),
        None => "None".into(),
    };
    format!(
        "Some(ImplicitOperand {{ file: ImplicitFile::{}, ty: {ty}, region: {region}, dst_mask_swizzle: {} }})",
        IMPLICIT_FILES[o.file].1, o.dst_mask_swizzle
    )
}

pub(super) fn implicit(spec: &Spec, o: &mut String) {
    let np = spec.platforms.names.len();
    let nops = spec.opcodes.len();
    let rows = &spec.codec.implicit;
    o.push_str("    /// Implicit operands (spec/encoding/implicit.toml `[[implicit]]`): what the encoder writes for operands the instruction model does not store.\n    pub mod implicit {\n        use super::*;\n");
    o.push_str("        /// Register file of an implicit operand.\n        #[derive(Debug, Clone, Copy, PartialEq, Eq)]\n        pub enum ImplicitFile {\n            /// The null register.\n            Null,\n            /// The instruction pointer (ip).\n            Ip,\n            /// An immediate 0.\n            Imm,\n            /// The instruction's own destination register (a source only).\n            Dst,\n        }\n");
    o.push_str("        /// One implicit operand: `ty` None with file Dst means the destination's type; `region` (VertStride, Width, HorzStride) for register sources; `dst_mask_swizzle`: in Align16 the swizzle reading the destination's write-mask channels.\n        #[derive(Debug, Clone, Copy, PartialEq, Eq)]\n        pub struct ImplicitOperand { pub file: ImplicitFile, pub ty: Option<DataType>, pub region: Option<(u8, u8, u8)>, pub dst_mask_swizzle: bool }\n");
    o.push_str("        /// A row of [[implicit]]: the implicit destination and sources of `opcodes` on `gens`.\n        #[derive(Debug)]\n        pub struct ImplicitRow { pub id: &'static str, pub gens: GenSet, pub opcodes: &'static [Opcode], pub dst: Option<ImplicitOperand>, pub src: [Option<ImplicitOperand>; 2], pub text: &'static str, pub cite: &'static str }\n");
    let _ = writeln!(
        o,
        "        /// Every row, in file order.\n        pub static ROWS: [ImplicitRow; {}] = [",
        rows.len()
    );
    for r in rows {
        let v = &r.row.v;
        let ops: Vec<String> = r
            .opcodes
            .iter()
            .map(|i| format!("Opcode::{}", camel(spec.opcodes[*i].row.v.name.get_ref())))
            .collect();
        let _ = writeln!(
            o,
            "            ImplicitRow {{ id: {}, gens: GenSet({}), opcodes: &[{}], dst: {}, src: [{}, {}], text: {}, cite: {} }},",
            q(v.id.get_ref()),
            r.row.gens,
            ops.join(", "),
            operand(spec, &r.dst),
            operand(spec, &r.src[0]),
            operand(spec, &r.src[1]),
            q(&v.text),
            q(v.cite.get_ref())
        );
    }
    o.push_str("        ];\n");
    // [platform][opcode] -> row index + 1 (0: none).
    let mut by = vec![vec![0usize; nops]; np];
    for (ri, r) in rows.iter().enumerate() {
        for (p, slot) in by.iter_mut().enumerate() {
            if r.row.gens & 1 << p == 0 {
                continue;
            }
            for op in &r.opcodes {
                slot[*op] = ri + 1;
            }
        }
    }
    let _ = writeln!(o, "        static BY_OPCODE: [[u8; {nops}]; {np}] = [");
    for p in &by {
        let v: Vec<String> = p.iter().map(|x| x.to_string()).collect();
        let _ = writeln!(o, "            [{}],", v.join(", "));
    }
    o.push_str("        ];\n");
    o.push_str("        /// The implicit operands of `op` on `p` (None: the instruction supplies all its operands).\n        #[inline]\n        pub fn row(op: Opcode, p: Platform) -> Option<&'static ImplicitRow> {\n            match BY_OPCODE[p as usize][op as usize] {\n                0 => None,\n                i => ROWS.get(usize::from(i) - 1),\n            }\n        }\n    }\n");
}

pub(super) fn select(spec: &Spec, o: &mut String) {
    let t = &spec.codec;
    o.push_str("    /// Layout selection (spec/encoding/select.toml): opcode -> form (`[[form]]`), (form, operands) -> layouts (`[[select]]`).\n    pub mod select {\n        use super::*;\n");
    o.push_str("        /// The instruction format a native word is read with (the opcode's role, before access mode and immediates refine it to a layout).\n        #[derive(Debug, Clone, Copy, PartialEq, Eq)]\n        pub enum Form {\n            /// No instruction has this opcode number on the platform.\n            Unknown,\n");
    for f in FORMS {
        let _ = writeln!(o, "            /// {}\n            {},", f.4, f.1);
    }
    o.push_str("        }\n");
    o.push_str("        /// What a `[[select]]` row's layouts hold, as the layout choice reads the word.\n        #[derive(Debug, Clone, Copy, PartialEq, Eq)]\n        pub enum Operands {\n");
    for k in OPERANDS {
        let _ = writeln!(o, "            /// {}\n            {},", k.2, k.1);
    }
    o.push_str("        }\n");
    o.push_str("        /// How a `[[form]]` row matches an opcode.\n        #[derive(Debug)]\n        pub enum FormBy {\n            /// An opcode named in the value table (of these) whose gens contain the platform.\n            Values(&'static [&'static ValueTable]),\n            /// One of these opcodes.\n            Opcodes(&'static [Opcode]),\n            /// Opcodes of this class.\n            Class(OpClass),\n            /// Every opcode.\n            Other,\n        }\n");
    o.push_str("        /// A row of [[form]]; the first row (in file order) on the platform that matches decides.\n        #[derive(Debug)]\n        pub struct FormRule { pub id: &'static str, pub gens: GenSet, pub form: Form, pub by: FormBy, pub text: &'static str, pub cite: &'static str }\n");
    let _ = writeln!(o, "        /// Every [[form]] row, in file order.\n        pub static FORM_RULES: [FormRule; {}] = [", t.forms.len());
    for f in &t.forms {
        let v = &f.row.v;
        let by = match &f.by {
            FormBy::Values(ts) => {
                let v: Vec<String> = ts.iter().map(|&i| value_table_ref(spec, i)).collect();
                format!("FormBy::Values(&[{}])", v.join(", "))
            }
            FormBy::Opcodes(os) => {
                let v: Vec<String> = os
                    .iter()
                    .map(|i| format!("Opcode::{}", camel(spec.opcodes[*i].row.v.name.get_ref())))
                    .collect();
                format!("FormBy::Opcodes(&[{}])", v.join(", "))
            }
            FormBy::Class(c) => format!("FormBy::Class(OpClass::{})", camel(c)),
            FormBy::Other => "FormBy::Other".into(),
        };
        let _ = writeln!(
            o,
            "            FormRule {{ id: {}, gens: GenSet({}), form: Form::{}, by: {by}, text: {}, cite: {} }},",
            q(v.id.get_ref()),
            f.row.gens,
            FORMS[f.form].1,
            q(&v.text),
            q(v.cite.get_ref())
        );
    }
    o.push_str("        ];\n");
    let np = spec.platforms.names.len();
    let _ = writeln!(o, "        static FORM_OF: [[Form; 128]; {np}] = [");
    for p in &t.form_of {
        let v: Vec<String> = p
            .iter()
            .map(|f| match f {
                Some(i) => format!("Form::{}", FORMS[*i].1),
                None => "Form::Unknown".into(),
            })
            .collect();
        let _ = writeln!(o, "            [{}],", v.join(", "));
    }
    o.push_str("        ];\n");
    o.push_str("        /// The form of opcode number `number` (bits 6:0) on `p`, as the [[form]] rows decide.\n        #[inline]\n        pub fn form_of(p: Platform, number: u8) -> Form { FORM_OF[p as usize][usize::from(number & 0x7f)] }\n");
    o.push_str("        /// A row of [[select]]: the layouts of (form, operands), for Align1 and Align16; of each list, the layout whose gens contain the platform. `indirect`: operands under indirect addressing read their fields from the (alu, ind) layouts.\n        #[derive(Debug)]\n        pub struct SelectRow { pub id: &'static str, pub gens: GenSet, pub form: Form, pub operands: Operands, pub align1: &'static [&'static Layout], pub align16: &'static [&'static Layout], pub indirect: bool, pub text: &'static str, pub cite: &'static str }\n");
    let _ = writeln!(o, "        /// Every [[select]] row, in file order.\n        pub static SELECT: [SelectRow; {}] = [", t.selects.len());
    for s in &t.selects {
        let v = &s.row.v;
        let _ = writeln!(
            o,
            "            SelectRow {{ id: {}, gens: GenSet({}), form: Form::{}, operands: Operands::{}, align1: {}, align16: {}, indirect: {}, text: {}, cite: {} }},",
            q(v.id.get_ref()),
            s.row.gens,
            FORMS[s.form].1,
            OPERANDS[s.operands].1,
            layout_list(spec, &s.a1),
            layout_list(spec, &s.a16),
            v.indirect,
            q(&v.text),
            q(v.cite.get_ref())
        );
    }
    o.push_str("        ];\n");
    o.push_str("        /// A row of [[check]] (spec/encoding/checks.toml): each of `fields` must hold a value of the table of `values` whose gens contain the platform; `skip_immediate`: not checked when the field's source (`srcN_` prefix) is an immediate.\n        #[derive(Debug)]\n        pub struct FieldCheck { pub id: &'static str, pub gens: GenSet, pub fields: &'static [&'static str], pub values: &'static [&'static ValueTable], pub skip_immediate: bool, pub text: &'static str, pub cite: &'static str }\n");
    let _ = writeln!(o, "        /// Every [[check]] row, in file order.\n        pub static CHECKS: [FieldCheck; {}] = [", t.checks.len());
    for r in &t.checks {
        let v = &r.row.v;
        let fields: Vec<String> = v.fields.get_ref().iter().map(|f| q(f)).collect();
        let vals: Vec<String> = r.values.iter().map(|&i| value_table_ref(spec, i)).collect();
        let _ = writeln!(
            o,
            "            FieldCheck {{ id: {}, gens: GenSet({}), fields: &[{}], values: &[{}], skip_immediate: {}, text: {}, cite: {} }},",
            q(v.id.get_ref()),
            r.row.gens,
            fields.join(", "),
            vals.join(", "),
            v.skip_immediate,
            q(&v.text),
            q(v.cite.get_ref())
        );
    }
    o.push_str("        ];\n");
    o.push_str("        /// The [[select]] row of (form, operands) on `p` with its (Align1, Align16) layouts.\n        pub fn layouts(form: Form, operands: Operands, p: Platform) -> Option<(&'static SelectRow, [&'static Layout; 2])> {\n            let r = SELECT.iter().find(|r| r.form == form && r.operands == operands && r.gens.contains(p))?;\n            let a1 = r.align1.iter().copied().find(|l| l.gens.contains(p))?;\n            let a16 = r.align16.iter().copied().find(|l| l.gens.contains(p))?;\n            Some((r, [a1, a16]))\n        }\n    }\n");
}

/// The generated path of value table `i` (`&values::NAME`).
fn value_table_ref(spec: &Spec, i: usize) -> String {
    format!(
        "&values::{}",
        spec.value_tables[i]
            .row
            .v
            .name
            .get_ref()
            .to_ascii_uppercase()
    )
}
