//! Loading properties.toml: the enumerations and the vocabulary of rule expressions.

use super::ctx::Ctx;
use super::*;

/// Enumerations, their docs, properties, predicates and the (scope, name) -> type map.
pub(super) struct Vocabulary {
    pub enums: BTreeMap<String, EnumInfo>,
    pub enum_docs: BTreeMap<String, String>,
    pub props: Vec<PropDef>,
    pub predicates: Vec<(String, String, String)>,
    pub prop_map: BTreeMap<(String, String), String>,
}

pub(super) fn load_properties(c: &mut Ctx, opcodes: &[OpcodeRow]) -> Vocabulary {
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

    Vocabulary {
        enums,
        enum_docs,
        props,
        predicates,
        prop_map,
    }
}
