//! The schema of every spec/ file, as serde structs. Unknown keys are errors
//! (`deny_unknown_fields`), so a typo in a table fails the build.
//!
//! Field types:
//! - `S<T>` (= `toml::Spanned<T>`) keeps the byte span so errors can name the line.
//! - `gens` strings are platform sets (see spec/README.md), parsed by `gens.rs`.
//! - `cite` strings are checked against `sources.toml` by `cite.rs`.

use serde::Deserialize;
use std::collections::BTreeMap;
pub use toml::Spanned as S;

/// spec/sources.toml
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct SourcesFile {
    pub source: Vec<S<Source>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Source {
    pub key: S<String>,
    pub title: String,
    /// Seed file name (under shared/seeds), for seed sources.
    pub file: Option<String>,
    /// Public location, for non-seed sources.
    pub url: Option<String>,
}

/// spec/platforms.toml
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PlatformsFile {
    pub platform: Vec<S<Platform>>,
    #[serde(default)]
    pub feature: Vec<S<Feature>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Platform {
    pub id: S<String>,
    /// Short name: ivb hsw bdw chv skl bxt.
    pub name: S<String>,
    /// Generation times ten: 70, 75, 80, 90.
    pub gen_x10: u32,
    pub lowpower: bool,
    pub long_name: String,
    /// Other spellings accepted by `--gen` (e.g. "7", "gen7", "ivybridge").
    pub aliases: Vec<String>,
    pub cite: S<String>,
    pub note: Option<String>,
}

/// A boolean property of platforms: "this platform has X". The engine asks
/// `feature::NAME.on(platform)`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Feature {
    pub id: S<String>,
    pub gens: S<String>,
    pub cite: S<String>,
    pub text: String,
    pub note: Option<String>,
}

/// spec/types.toml
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct TypesFile {
    #[serde(rename = "type")]
    pub ty: Vec<S<DataType>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct DataType {
    pub id: S<String>,
    /// Upper-case name as in the manual: UB B UW W UD D UQ Q HF F DF V UV VF.
    pub name: S<String>,
    pub long_name: String,
    /// Size in bits of one element (for V/UV/VF: of the packed 32-bit immediate).
    pub bits: u32,
    /// uint | sint | float | vector-uint | vector-sint | vector-float
    pub kind: S<String>,
    /// Inclusive value range as the manual writes it (documentation).
    pub range: String,
    pub gens: S<String>,
    /// Register type encoding per platform set: `{ "gen7 gen7.5" = 0, "gen8+" = 0 }`.
    #[serde(default)]
    pub reg_enc: BTreeMap<String, u8>,
    /// Immediate type encoding per platform set.
    #[serde(default)]
    pub imm_enc: BTreeMap<String, u8>,
    pub cite: S<String>,
    pub note: Option<String>,
}

/// spec/opcodes.toml
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct OpcodesFile {
    pub opcode: Vec<S<Opcode>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Opcode {
    pub id: S<String>,
    /// Lower-case mnemonic as in the manual / IGA.
    pub name: S<String>,
    pub gens: S<String>,
    /// Opcode number per platform set: `{ "all" = 0x40 }` or `{ "gen7 gen7.5" = 0x.., "gen8+" = 0x.. }`.
    pub number: BTreeMap<String, u8>,
    /// Number of source operands (0-3).
    pub srcs: u8,
    /// Instruction class: alu | logic | math | flow | send | three-src | misc
    pub class: S<String>,
    /// Supports predication.
    pub pred: bool,
    /// Supports a condition modifier.
    pub cmod: bool,
    /// Supports saturation.
    pub sat: bool,
    /// Supports source modifiers (-, (abs); ~ for logic ops).
    pub srcmod: bool,
    /// Supports implicit accumulator write (AccWrCtrl).
    pub accwr: bool,
    /// The accumulator as an operand the instruction does not name, besides the AccWrCtrl
    /// write: `read` (an implicit source, as mac's addend), `write` (written whatever
    /// AccWrCtrl says, as addc's carry). Absent: neither.
    pub implicit_acc: Option<S<String>>,
    /// Allowed type combinations, `"DST <- SRC0 SRC1"`, each a type name, a class
    /// (int float any byte word dword qword vint), or alternatives joined by `|`; an optional
    /// platform prefix limits a combination: `"gen9: D <- D D"`.
    #[serde(default)]
    pub types: Vec<S<String>>,
    pub text: String,
    pub cite: S<String>,
    pub note: Option<String>,
}

/// spec/registers.toml
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct RegistersFile {
    pub file: Vec<S<RegFile>>,
    pub arf: Vec<S<Arf>>,
    #[serde(default)]
    pub field: Vec<S<Field>>,
    #[serde(default)]
    pub acc_precision: Vec<S<AccPrecision>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct RegFile {
    pub id: S<String>,
    /// grf | arf | imm | mrf
    pub name: S<String>,
    pub gens: S<String>,
    pub count: Option<u32>,
    pub reg_bytes: Option<u32>,
    pub text: String,
    pub cite: S<String>,
    pub note: Option<String>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Arf {
    pub id: S<String>,
    /// Assembler name of the register type: null a acc f sr cr n ip tdr tm
    pub name: S<String>,
    pub gens: S<String>,
    /// RegNum[7:4] encoding.
    pub regtype: u8,
    /// Number of registers per platform set: `{ "gen7 gen7.5 gen8" = 2, "gen9" = 10 }`.
    pub count: BTreeMap<String, u32>,
    /// Bytes per register that exist (populated or not) in the model's state.
    pub bytes: u32,
    /// Element size in bits as the manual gives it (0 = N/A).
    pub elem_bits: u32,
    /// Element types allowed (names from types.toml).
    #[serde(default)]
    pub elem_types: Vec<String>,
    /// rw | ro | none
    pub access: S<String>,
    /// Access granularity in bytes (0 = N/A).
    pub granularity: u32,
    pub indexable: bool,
    /// Valid SubRegNum byte range, inclusive, e.g. [0, 12].
    pub subreg_range: Option<[u32; 2]>,
    /// Content in the default state (before any state is given): `zero` (defined zero) or
    /// `undefined` (not known to the model; the default when absent).
    pub initial: Option<S<String>>,
    pub text: String,
    pub cite: S<String>,
    pub note: Option<String>,
}

/// One bit field of one dword of an ARF register (or a0 word). All fields of a
/// (reg, index, dword) must cover bits 31..0 without overlap.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Field {
    pub id: S<String>,
    /// Register: `cr0`, `sr0`, `a0`, `n0`, `tdr0`, `tm0`, `ip`, `f0`, ...
    pub reg: S<String>,
    /// Dword index within the register.
    pub dword: u32,
    /// `"31"` or `"5:4"` (high:low).
    pub bits: S<String>,
    /// snake_case name used for the generated constant.
    pub name: S<String>,
    /// rw | ro | reserved (writes dropped, reads undefined) | mbz | zero (writes dropped, reads 0) | w1c | special
    pub access: S<String>,
    /// `undefined`: the field is undefined in the default state even where its register's
    /// `initial` is `zero` (a value set at dispatch that the model cannot know).
    pub initial: Option<S<String>>,
    pub gens: S<String>,
    pub text: String,
    pub cite: S<String>,
    pub note: Option<String>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct AccPrecision {
    pub id: S<String>,
    /// Types this row covers.
    pub types: Vec<String>,
    /// Accumulator registers usable: e.g. ["acc0"] or ["acc0", "acc1"].
    pub regs: Vec<String>,
    /// Channels per accumulator register (0 = not supported).
    pub channels: u32,
    /// Bits per channel kept by the accumulator (0 = not supported).
    pub bits: u32,
    pub gens: S<String>,
    pub text: String,
    pub cite: S<String>,
    pub note: Option<String>,
}

/// spec/conversions.toml
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ConversionsFile {
    pub conversion: Vec<S<Conversion>>,
    #[serde(default)]
    pub special: Vec<S<Special>>,
    #[serde(default)]
    pub saturation: Vec<S<Saturation>>,
}

/// A conversion method for a set of (source, destination) scalar type pairs.
/// For every platform, every pair of the 11 scalar types must be covered by
/// exactly one row.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Conversion {
    pub id: S<String>,
    pub gens: S<String>,
    /// Source types (names or classes: int uint sint float any).
    pub from: Vec<String>,
    /// Destination types.
    pub to: Vec<String>,
    /// Restrict to pairs whose destination is `wider` | `same` | `narrower` | `any` size.
    #[serde(default = "any_str")]
    pub size: String,
    /// Restrict to pairs with `same_type` | `different_type` | `any`.
    #[serde(default = "any_str")]
    pub identity: String,
    /// identity | zero_extend | sign_extend | truncate | float_to_int | int_to_float | float_widen | float_narrow
    pub method: S<String>,
    /// Rounding: exact | cr0 | rtz | rtne
    pub round: S<String>,
    /// With saturation: clamp (to destination range) | unit (float [0.0, 1.0], NaN -> 0) | none
    pub sat: S<String>,
    /// `true`: the conversion writes a qword per channel whose upper dword is undefined (the
    /// destination element is its low dword).
    #[serde(default)]
    pub upper_dword_undefined: bool,
    /// `rtz`: sources conflict on the rounding (the row's note says which); the result rounded
    /// toward zero is also accepted (golden vectors carry it as an alternative).
    pub alt_round: Option<S<String>>,
    pub text: String,
    pub cite: S<String>,
    pub note: Option<String>,
}

fn any_str() -> String {
    "any".to_string()
}

/// A row of the float-to-integer special value table.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Special {
    pub id: S<String>,
    pub gens: S<String>,
    /// Input class: zero | denorm | nan | pos_inf | neg_inf | pos_overflow | neg_overflow
    pub input: S<String>,
    /// Result: zero | imax | imin
    pub result: S<String>,
    /// Source float types this row covers.
    pub from: Vec<String>,
    /// Destination integer types this row covers.
    pub to: Vec<String>,
    pub text: String,
    pub cite: S<String>,
    pub note: Option<String>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Saturation {
    pub id: S<String>,
    pub gens: S<String>,
    pub types: Vec<String>,
    /// Inclusive range as text: "[0.0, 1.0]" or "type" (the type's own range).
    pub range: S<String>,
    /// What NaN saturates to (float types): "zero" | "n/a"
    pub nan: S<String>,
    pub text: String,
    pub cite: S<String>,
    pub note: Option<String>,
}

/// spec/compare.toml
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct CompareFile {
    pub grid: Vec<S<Grid>>,
    #[serde(default)]
    pub cmpn: Vec<S<CmpnRule>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Grid {
    pub id: S<String>,
    pub gens: S<String>,
    /// cmp (normal comparison, also any instruction's condition modifier) | cmpn
    pub kind: S<String>,
    /// Condition modifier: g l z nz le ge  (z = equal, nz = not equal)
    pub cmod: S<String>,
    pub title: String,
    pub grid: S<String>,
    pub cite: S<String>,
    pub note: Option<String>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct CmpnRule {
    pub id: S<String>,
    pub gens: S<String>,
    pub text: String,
    pub cite: S<String>,
    pub note: Option<String>,
}

/// spec/float_modes.toml
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct FloatModesFile {
    pub fp: Vec<S<FpRule>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct FpRule {
    pub id: S<String>,
    pub gens: S<String>,
    /// ieee | alt | both
    pub mode: S<String>,
    /// Float types the row applies to (HF F DF).
    pub types: Vec<String>,
    /// What the engine does: a value of the `fp_effect` enumeration (properties.toml).
    pub effect: S<String>,
    /// Which operations: a value of the `fp_ops` enumeration.
    pub ops: S<String>,
    /// For effects controlled by a cr0.0 bit: the bit number.
    pub cr0_bit: Option<u32>,
    pub text: String,
    pub cite: S<String>,
    pub note: Option<String>,
}

/// spec/properties.toml
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PropertiesFile {
    #[serde(default)]
    pub prop: Vec<S<Prop>>,
    #[serde(default)]
    pub predicate: Vec<S<Predicate>>,
    #[serde(default, rename = "enum")]
    pub enums: Vec<S<EnumDef>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Prop {
    /// snake_case name; used as `name`, `dst.name`, `srcN.name` or `src.name`.
    pub name: S<String>,
    /// insn | dst | src
    pub scope: S<String>,
    /// int | bool | type | opcode | <enum name>
    #[serde(rename = "type")]
    pub ty: S<String>,
    pub doc: String,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Predicate {
    pub name: S<String>,
    /// insn | src (a src predicate is called once per present source)
    pub scope: S<String>,
    pub doc: String,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct EnumDef {
    pub name: S<String>,
    pub values: Vec<String>,
    pub doc: String,
}

/// spec/rules/*.toml
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct RulesFile {
    #[serde(default)]
    pub rule: Vec<S<Rule>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    pub id: S<String>,
    pub gens: S<String>,
    pub cite: S<String>,
    /// One-line message shown when the rule is violated.
    pub msg: String,
    /// `src`: evaluate once per present source operand, binding `src.*`.
    pub foreach: Option<S<String>>,
    /// Applicability condition (default: always).
    pub when: Option<S<String>>,
    /// The condition that must hold.
    pub check: Option<S<String>>,
    /// A named Rust predicate, where an expression cannot say the rule.
    pub check_fn: Option<S<String>>,
    /// What a violation makes unpredictable in lenient execution: dst | flags | all | none
    #[serde(default = "undef_default")]
    pub undefined: String,
    pub note: Option<String>,
}

fn undef_default() -> String {
    "dst".to_string()
}

/// spec/encoding/*.toml: binary instruction layouts (riscv-opcodes style), value
/// encodings and compaction tables.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct EncodingFile {
    #[serde(default)]
    pub layout: Vec<S<Layout>>,
    #[serde(default)]
    pub values: Vec<S<ValueTable>>,
    #[serde(default)]
    pub compact_table: Vec<S<CompactTable>>,
    #[serde(default)]
    pub implicit: Vec<S<Implicit>>,
    #[serde(default)]
    pub form: Vec<S<FormRule>>,
    #[serde(default)]
    pub select: Vec<S<SelectRow>>,
    #[serde(default)]
    pub check: Vec<S<FieldCheck>>,
}

/// A field check of native words (spec/encoding/checks.toml `[[check]]`).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct FieldCheck {
    pub id: S<String>,
    pub gens: S<String>,
    /// Field names of the native layouts.
    pub fields: S<Vec<String>>,
    /// Value tables by `name`; on each platform of `gens` exactly one applies.
    pub values: S<Vec<String>>,
    /// Not checked when the field's source is an immediate.
    #[serde(default)]
    pub skip_immediate: bool,
    pub text: String,
    pub cite: S<String>,
    pub note: Option<String>,
}

/// Implicit operands of some opcodes (spec/encoding/implicit.toml): the operands the encoder
/// supplies because the instruction model does not store them.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Implicit {
    pub id: S<String>,
    pub gens: S<String>,
    /// Opcode names (spec/opcodes.toml), each existing on every platform of `gens`.
    pub opcodes: S<Vec<String>>,
    pub dst: Option<S<ImplicitOperand>>,
    pub src0: Option<S<ImplicitOperand>>,
    pub src1: Option<S<ImplicitOperand>>,
    pub text: String,
    pub cite: S<String>,
    pub note: Option<String>,
}

/// One implicit operand: `{ file = "null", type = "D", region = "<8;8,1>" }`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ImplicitOperand {
    /// null | ip | imm | dst (a source reading the instruction's destination register)
    pub file: String,
    #[serde(rename = "type")]
    pub ty: Option<String>,
    /// `<V;W,H>` for register sources.
    pub region: Option<String>,
    /// xyzw (default) | dst-mask
    pub swizzle: Option<String>,
}

/// Opcode -> instruction form (spec/encoding/select.toml `[[form]]`): exactly one selector of
/// `values`, `opcodes`, `class`, `other`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct FormRule {
    pub id: S<String>,
    pub gens: S<String>,
    pub form: S<String>,
    /// Value tables (by `name`) whose entry names are opcodes.
    pub values: Option<S<Vec<String>>>,
    pub opcodes: Option<S<Vec<String>>>,
    pub class: Option<S<String>>,
    pub other: Option<bool>,
    pub text: String,
    pub cite: S<String>,
    pub note: Option<String>,
}

/// (form, operands) -> layouts (spec/encoding/select.toml `[[select]]`).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct SelectRow {
    pub id: S<String>,
    pub gens: S<String>,
    pub form: S<String>,
    pub operands: S<String>,
    /// Layout names for Align1 / Align16, or `layouts` for both.
    pub align1: Option<S<Vec<String>>>,
    pub align16: Option<S<Vec<String>>>,
    pub layouts: Option<S<Vec<String>>>,
    /// Operands under indirect addressing read their fields from the alu/ind layouts.
    #[serde(default)]
    pub indirect: bool,
    pub text: String,
    pub cite: S<String>,
    pub note: Option<String>,
}

/// A bit layout: one line per field, `HI:LO name` or `BIT name`; a field split over
/// several ranges names the logical bits each piece holds: `HI:LO name[h:l]`.
/// Names starting with `reserved` may repeat. All `width` bits must be covered once.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Layout {
    pub id: S<String>,
    pub gens: S<String>,
    /// snake_case, unique: the generated module name (e.g. `gen8_native_2src`).
    pub name: S<String>,
    /// 128 (native) or 64 (compact).
    pub width: u32,
    /// When this layout applies (documentation), e.g. "Align1, one or two sources".
    pub applies: String,
    pub fields: S<String>,
    pub cite: S<String>,
    pub note: Option<String>,
}

/// A value encoding table: lines `name = value` (value decimal, 0x hex or 0b binary).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ValueTable {
    pub id: S<String>,
    pub gens: S<String>,
    /// snake_case, unique: the generated constant name.
    pub name: S<String>,
    pub text: String,
    pub values: S<String>,
    pub cite: S<String>,
    pub note: Option<String>,
}

/// A compaction table: one entry per line in index order (decimal, 0x hex or 0b binary;
/// `index: value` allowed and checked).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct CompactTable {
    pub id: S<String>,
    pub gens: S<String>,
    pub name: S<String>,
    /// Bits of the compact index field.
    pub index_bits: u32,
    /// Bits of each table entry (the native bits it expands to).
    pub entry_bits: u32,
    pub entries: S<String>,
    pub text: String,
    pub cite: S<String>,
    pub note: Option<String>,
}

/// spec/math.toml: the extended math functions (the `math` instruction).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MathFile {
    #[serde(default)]
    pub func: Vec<S<MathFunc>>,
    #[serde(default)]
    pub special: Vec<S<MathSpecial>>,
    #[serde(default)]
    pub mark: Vec<S<MathMark>>,
}

/// A rule for the marks the executor keeps beside the values (the inexact mark).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MathMark {
    pub id: S<String>,
    pub gens: S<String>,
    pub text: String,
    pub cite: S<String>,
    pub note: Option<String>,
}

/// One math function: its operand types and the error bound conforming hardware may show.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MathFunc {
    pub id: S<String>,
    pub gens: S<String>,
    /// A value of the `math_fn` enumeration (properties.toml).
    #[serde(rename = "fn")]
    pub func: S<String>,
    /// Types the function takes (destination and sources).
    pub types: Vec<String>,
    /// Number of source operands (1 or 2).
    pub srcs: u8,
    /// Error bound in ULPs of the result relative to the correctly rounded value
    /// (0 = exact). With `abs_error` and no `abs_range`, a result within either bound is
    /// accepted.
    pub ulps: f64,
    /// Absolute error bound (e.g. SIN/COS), 0 = none.
    #[serde(default)]
    pub abs_error: f64,
    /// `[lo, hi]`: the src0 range (inclusive, after the math input rules) where `abs_error`
    /// is the bound; outside it `ulps` is (e.g. LOG: absolute inside [0.5, 2.0], ULPs
    /// outside). Requires `abs_error` > 0 and `lo <= hi`.
    #[serde(default)]
    pub abs_range: Option<[f64; 2]>,
    pub text: String,
    pub cite: S<String>,
    pub note: Option<String>,
}

/// A special-case result: input class(es) -> result, exactly.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MathSpecial {
    pub id: S<String>,
    pub gens: S<String>,
    #[serde(rename = "fn")]
    pub func: S<String>,
    /// ieee | alt | both
    pub mode: S<String>,
    /// Input class of src0: -inf -Fin -denorm -0 +0 +denorm +Fin +inf NaN, or `any`.
    pub src0: S<String>,
    /// Input class of src1 (two-source functions), or `any`.
    #[serde(default = "any_str")]
    pub src1: String,
    /// Result: +inf -inf +0 -0 NaN +fmax -fmax, `src0` (the input itself), `abs` (|src0| fed to the function).
    pub result: S<String>,
    pub text: String,
    pub cite: S<String>,
    pub note: Option<String>,
}

/// spec/runtime.toml: restrictions that depend on the thread state (register contents), checked
/// by the executor while it runs an instruction.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct RuntimeFile {
    #[serde(default)]
    pub runtime: Vec<S<RuntimeRule>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct RuntimeRule {
    pub id: S<String>,
    pub gens: S<String>,
    pub cite: S<String>,
    /// One-line message shown when the rule is violated.
    pub msg: String,
    /// What a violation makes unpredictable in lenient execution: dst | flags | all | none
    pub undefined: S<String>,
    pub note: Option<String>,
}

/// spec/flow.toml: SIMD control flow, one row per branch opcode per platform group and rows
/// for the channel model the thread runner (src/thread) follows.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct FlowFile {
    #[serde(default)]
    pub flow: Vec<S<FlowRow>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct FlowRow {
    pub id: S<String>,
    pub gens: S<String>,
    pub cite: S<String>,
    /// The opcode mnemonic the row is about (absent: a row of the channel model).
    pub op: Option<S<String>>,
    /// The jump operands: none | jip | jip uip | target
    #[serde(default = "flow_none")]
    pub offsets: S<String>,
    /// defined | assumption | undefined | unmodelled
    pub status: S<String>,
    /// The semantics in words.
    pub text: String,
    pub note: Option<String>,
}

fn flow_none() -> S<String> {
    S::new(0..0, "none".to_string())
}

/// spec/memory.toml: the memory model (flat A64 memory, binding-table surfaces, shared local
/// memory) and how the thread runner executes send messages.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MemoryFile {
    #[serde(default)]
    pub memory: Vec<S<MemoryRow>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MemoryRow {
    pub id: S<String>,
    pub gens: S<String>,
    pub cite: S<String>,
    /// The message type the row is about: the `name` of a [[msg_value]] row of
    /// spec/descriptors.toml (absent: a row of the memory model or of every message).
    pub message: Option<S<String>>,
    /// defined | assumption | undefined | unmodelled
    pub status: S<String>,
    /// The semantics in words.
    pub text: String,
    pub note: Option<String>,
}

/// spec/descriptors.toml: send message descriptors (shared functions, descriptor fields, the
/// message types and value names the fields select).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct DescriptorsFile {
    #[serde(default)]
    pub sfid: Vec<S<SfidRow>>,
    #[serde(default)]
    pub desc_field: Vec<S<DescFieldRow>>,
    #[serde(default)]
    pub msg_value: Vec<S<MsgValueRow>>,
}

/// One shared function.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct SfidRow {
    pub id: S<String>,
    pub gens: S<String>,
    pub cite: S<String>,
    /// ExDesc[3:0] (bits 27:24 of a Gen7-Gen9 send).
    pub number: u8,
    /// euref's name (used by `sfids` of [[desc_field]]).
    pub name: S<String>,
    /// Mesa's disassembler spelling.
    pub mesa: Option<String>,
    /// IGA's spelling (before Skylake, and from Skylake unless `iga_skl` says otherwise).
    pub iga: Option<String>,
    pub iga_skl: Option<String>,
    /// The [[msg_value]] table of its message types (the value of its `type` field).
    pub types: Option<S<String>>,
    pub note: Option<String>,
}

/// Bits of a message descriptor or extended descriptor.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct DescFieldRow {
    pub id: S<String>,
    pub gens: S<String>,
    pub cite: S<String>,
    /// SFID names (absent: every SFID).
    #[serde(default)]
    pub sfids: Vec<S<String>>,
    /// Message-type names (absent: every message of the SFIDs).
    #[serde(default)]
    pub types: Vec<S<String>>,
    pub name: String,
    /// "desc" (default) or "exdesc".
    #[serde(rename = "in", default = "in_desc")]
    pub in_: S<String>,
    pub bits: S<String>,
    /// The [[msg_value]] table the value is looked up in.
    pub values: Option<S<String>>,
    /// Mesa's label of the field in its "*** invalid <label> value N" text.
    pub mesa: Option<String>,
    pub text: String,
    pub note: Option<String>,
}

fn in_desc() -> S<String> {
    S::new(0..0, "desc".to_string())
}

/// One value of a descriptor value table.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MsgValueRow {
    pub id: S<String>,
    pub gens: S<String>,
    pub cite: S<String>,
    pub table: S<String>,
    pub value: u32,
    pub name: String,
    pub mesa: Option<String>,
    pub iga: Option<String>,
    /// How Mesa prints the message control of a data-port message type: surface | atomic |
    /// atomic_simd | atomic_float (absent: the raw number).
    pub form: Option<S<String>>,
    /// defined (default) | conflict | silent
    #[serde(default = "status_defined")]
    pub status: S<String>,
    pub text: Option<String>,
    pub note: Option<String>,
}

fn status_defined() -> S<String> {
    S::new(0..0, "defined".to_string())
}

/// spec/payload.toml: the compute thread payload (r0 header fields, CURBE, dispatch mask,
/// local IDs).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PayloadFile {
    #[serde(default)]
    pub payload: Vec<S<PayloadRow>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PayloadRow {
    pub id: S<String>,
    pub gens: S<String>,
    pub cite: S<String>,
    /// r0 | curbe | mask | local-ids | grf | order
    pub part: S<String>,
    /// The register (curbe: the default first GRF).
    pub reg: Option<u32>,
    /// The dword of r0 (part r0 with `bits`).
    pub dword: Option<S<u32>>,
    /// `N` or `HI:LO` within the dword.
    pub bits: Option<S<String>>,
    /// What the dispatcher writes (vocabulary per part, see model/payload.rs).
    pub value: S<String>,
    /// defined | assumption | undefined
    pub status: S<String>,
    pub text: String,
    pub note: Option<String>,
}
