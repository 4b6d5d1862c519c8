//! Loading and validating spec/: every table is parsed with its schema, every
//! row's common fields (id, gens, cite) are checked, and each table's own
//! consistency rules are enforced. The result is a [`Spec`] from which the
//! generators work; any problem is a [`Diag`] with file and line.

mod bitfields;
pub mod codec_tables;
mod ctx;
pub mod descriptors;
mod encoding;
mod flow;
mod memory;
mod numeric;
pub mod payload;
mod properties;
mod rules;
mod runtime;
pub mod seed_tables;
mod tables;

use crate::diag::{Diag, Diags};
use crate::expr::{self, EnumInfo, Vocab};
use crate::gens::{Mask, Platforms};
use crate::grid;
use crate::schema::*;
use ctx::Ctx;
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
    /// Rust expression of the rule's `when` alone: true when the rule applies.
    pub when_code: String,
    /// Rust expression of the rule's `check` (or `check_fn` call) alone: true when an
    /// applicable rule holds.
    pub check_code: String,
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
    /// spec/runtime.toml: state-dependent restrictions.
    pub runtime: Vec<Row<RuntimeRule>>,
    /// spec/flow.toml: SIMD control flow.
    pub flow: Vec<Row<FlowRow>>,
    /// spec/memory.toml: the memory model and the execution of send messages.
    pub memory: Vec<Row<MemoryRow>>,
    /// spec/payload.toml: the compute thread payload.
    pub payload: Vec<payload::PayloadRowV>,
    /// spec/messages.toml and spec/platform_memory.toml (seed004 facts outside the EU ISA).
    pub seed: SeedTables,
    /// spec/descriptors.toml: send message descriptors.
    pub descriptors: descriptors::Descriptors,
    pub math: Vec<MathRow>,
    pub math_specials: Vec<Row<MathSpecial>>,
    /// [[mark]] of spec/math.toml (the inexact mark).
    pub math_marks: Vec<Row<MathMark>>,
    pub layouts: Vec<LayoutRow>,
    pub value_tables: Vec<ValuesRow>,
    pub compact_tables: Vec<CompactRow>,
    /// [[implicit]], [[form]], [[select]] (spec/encoding/implicit.toml, select.toml).
    pub codec: codec_tables::CodecTables,
    /// Every row ID with its file.
    pub ids: Vec<(String, String)>,
    /// Raw tables for the JSON dump: (file name, value).
    pub raw: Vec<(String, serde_json::Value)>,
}

/// The seed004 tables outside the EU ISA (spec/messages.toml, spec/platform_memory.toml).
pub struct SeedTables {
    pub messages: Vec<seed_tables::MessageRow>,
    pub msg_fields: Vec<seed_tables::MsgFieldRow>,
    pub l3_allocs: Vec<Row<seed_tables::L3Alloc>>,
    pub facts: Vec<Row<seed_tables::Fact>>,
    pub notes: Vec<Row<seed_tables::ProgrammingNote>>,
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
    let sources = tables::load_sources(&mut c);
    let (platform_rows, features) = tables::load_platforms(&mut c);
    if c.platforms.is_none() {
        return Err(c.d.list);
    }
    let np = c.platforms.as_ref().map(|p| p.names.len()).unwrap_or(0);
    let types = tables::load_types(&mut c, np);
    let opcodes = tables::load_opcodes(&mut c, np);
    let vocab = properties::load_properties(&mut c, &opcodes);
    let (regfiles, arfs, fields, acc) = tables::load_registers(&mut c, np);
    let (conversions, conv_table, specials, saturations) =
        numeric::load_conversions(&mut c, &types, np);
    let (grids, cmpn) = numeric::load_compare(&mut c);
    let fp = numeric::load_float_modes(&mut c, &vocab.enums);
    let rules = rules::load_rules(&mut c, dir, &vocab);
    let runtime = runtime::load_runtime(&mut c);
    let flow = flow::load_flow(&mut c, &opcodes);
    let payload = payload::load_payload(&mut c);
    let (messages, msg_fields) = seed_tables::load_messages(&mut c, np);
    let descriptors = descriptors::load_descriptors(&mut c);
    let memory = memory::load_memory(&mut c, &descriptors);
    let (l3_allocs, facts, notes) = seed_tables::load_platform_memory(&mut c);
    let (math, math_specials, math_marks) = numeric::load_math(&mut c, &vocab.enums);
    let (layouts, value_tables, compact_tables, pending) = encoding::load_encodings(&mut c, dir);
    let codec = codec_tables::load_codec_tables(&mut c, pending, &opcodes, &layouts, &value_tables);
    let properties::Vocabulary {
        enums,
        enum_docs,
        props,
        predicates,
        ..
    } = vocab;
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
        runtime,
        flow,
        memory,
        payload,
        seed: SeedTables {
            messages,
            msg_fields,
            l3_allocs,
            facts,
            notes,
        },
        descriptors,
        math,
        math_specials,
        math_marks,
        layouts,
        value_tables,
        compact_tables,
        codec,
        ids: c.id_list,
        raw: c.raw,
    })
}
