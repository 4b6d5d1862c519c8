//! Choosing the layout of a native instruction and checking its fields.
//!
//! The layout follows from the opcode (three-source, math, send, split send, jump-target
//! instructions, everything else), the access mode (Align1 / Align16) and whether an operand is
//! an immediate (32-bit, or 64-bit on Gen8+). Operands under indirect addressing read their
//! fields from the `*-ind` layouts ([`operand_layout`]).
//!
//! Per platform, the layouts, the fields used for the choice and the per-layout checks are
//! resolved by name once ([`Set`], built lazily) so that choosing a layout is a handful of
//! shift/mask reads and array lookups.

use super::error::{EncodingError, ErrorKind};
use super::F;
use crate::spec::encoding::{self as enc, BitField, Layout, ValueTable};
use crate::spec::{DataType, Opcode, Platform};
use std::sync::OnceLock;

/// The instruction format a native word is read with: generated from spec/encoding/select.toml
/// (`[[form]]` rows, `enc.form.*`).
pub use crate::spec::encoding::select::Form;

/// An operand whose fields [`operand_layout`] locates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operand {
    Dst,
    Src0,
    Src1,
}

/// One layout with what checking it needs, for one platform.
pub(crate) struct Info {
    pub layout: &'static Layout,
    /// Bits the layout marks `reserved`.
    pub reserved: u128,
    /// The Align1/Align16 indirect-addressing layout whose operand fields replace this
    /// layout's for operands with address_mode = 1.
    pub ind: Option<usize>,
    /// Value checks: the field must hold a value of its table.
    checks: Vec<Check>,
    /// Register operands of one- and two-source layouts: (operand, file field, type field).
    types: Vec<(u8, &'static BitField, &'static BitField)>,
    /// Address mode fields by operand (dst = 0, src0 = 1, src1 = 2).
    amode: [Option<&'static BitField>; 3],
    /// The same, with fast accessors.
    amode_f: [F; 3],
}

/// One field whose value must be defined by a value table.
struct Check {
    field: &'static BitField,
    /// Bit `v` set when value `v` is defined (values above 63 are never defined here).
    valid: u64,
    /// The source operand the field belongs to (checked only when the opcode has it).
    operand: Option<u8>,
    /// A region field (not checked for immediate operands).
    region: bool,
}

/// Bit `v` set for each value `v < 64` of the table.
fn valid_mask(t: &ValueTable) -> u64 {
    t.entries
        .iter()
        .filter(|e| e.1 < 64)
        .fold(0, |m, e| m | (1u64 << e.1))
}

#[inline]
fn defined(mask: u64, v: u64) -> bool {
    v < 64 && mask >> v & 1 == 1
}

/// Everything resolved for one platform.
pub(crate) struct Set {
    pub infos: Vec<Info>,
    pub form: [Form; 128],
    pub opcode: &'static BitField,
    access_mode: &'static BitField,
    pub(super) src0_file: &'static BitField,
    pub(super) src1_file: &'static BitField,
    src0_type: &'static BitField,
    src1_type: &'static BitField,
    pred_control: &'static BitField,
    /// Fast accessors of the fields `select` reads.
    fast: Fast,
    /// End-of-thread bit of send instructions.
    pub eot: Option<&'static BitField>,
    pub imm_file: u64,
    align16: u64,
    pred1: u64,
    pred16: u64,
    /// Defined register / immediate type encodings (bit per encoding).
    reg_types: u64,
    imm_types: u64,
    /// Immediate type encodings of 64-bit types.
    imm64_types: u64,
    // layout indices into `infos`: [align1, align16]
    alu: [usize; 2],
    imm: [usize; 2],
    imm64: Option<[usize; 2]>,
    math: [usize; 2],
    math_imm: [usize; 2],
    three: usize,
    send: [usize; 2],
    send_reg: [usize; 2],
    branch: [usize; 2],
    /// Haswell dim: [register src0, immediate src0] x [align1, align16].
    dim: Option<[[usize; 2]; 2]>,
    /// Split-send layouts indexed by sel_reg32_desc + 2 * sel_reg32_ex_desc.
    sends: Option<[usize; 4]>,
}

/// The fields [`Set::select`] reads, with fast accessors.
pub(crate) struct Fast {
    opcode: F,
    access_mode: F,
    src0_file: F,
    src1_file: F,
    src0_type: F,
    sel_desc: F,
    sel_ex: F,
}

/// A field [`Set::select_by`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sel {
    Opcode,
    AccessMode,
    Src0File,
    Src1File,
    Src0Type,
    /// Split send: `sel_reg32_desc`.
    RegDesc,
    /// Split send: `sel_reg32_ex_desc`.
    RegExDesc,
}

impl Fast {
    #[inline(always)]
    fn field(&self, s: Sel) -> F {
        match s {
            Sel::Opcode => self.opcode,
            Sel::AccessMode => self.access_mode,
            Sel::Src0File => self.src0_file,
            Sel::Src1File => self.src1_file,
            Sel::Src0Type => self.src0_type,
            Sel::RegDesc => self.sel_desc,
            Sel::RegExDesc => self.sel_ex,
        }
    }
}

/// The values of the [`Fast`] fields [`Set::select_by`] reads.
pub(crate) trait SelectInput {
    fn value(&self, f: &Fast, s: Sel) -> u64;
}

/// A native word: the fields are read from it (only those the selection needs).
impl SelectInput for u128 {
    #[inline(always)]
    fn value(&self, f: &Fast, s: Sel) -> u64 {
        f.field(s).get(*self)
    }
}

/// The values the fields [`Set::select`] reads would hold in a word (the encoder's, before
/// it writes the word).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SelectValues {
    pub opcode: u64,
    pub access_mode: u64,
    pub src0_file: u64,
    pub src1_file: u64,
    pub src0_type: u64,
    pub sel_desc: u64,
    pub sel_ex: u64,
}

impl SelectInput for SelectValues {
    #[inline(always)]
    fn value(&self, _: &Fast, s: Sel) -> u64 {
        match s {
            Sel::Opcode => self.opcode,
            Sel::AccessMode => self.access_mode,
            Sel::Src0File => self.src0_file,
            Sel::Src1File => self.src1_file,
            Sel::Src0Type => self.src0_type,
            Sel::RegDesc => self.sel_desc,
            Sel::RegExDesc => self.sel_ex,
        }
    }
}

/// The first candidate whose `gens` contain `p` (candidate lists are never empty).
fn pick<T: HasGens>(p: Platform, cands: &[&'static T]) -> &'static T {
    cands
        .iter()
        .copied()
        .find(|c| c.gens_contain(p))
        .unwrap_or(cands[0])
}

pub(crate) trait HasGens {
    fn gens_contain(&self, p: Platform) -> bool;
}
impl HasGens for Layout {
    fn gens_contain(&self, p: Platform) -> bool {
        self.gens.contains(p)
    }
}
impl HasGens for ValueTable {
    fn gens_contain(&self, p: Platform) -> bool {
        self.gens.contains(p)
    }
}
impl HasGens for enc::CompactTable {
    fn gens_contain(&self, p: Platform) -> bool {
        self.gens.contains(p)
    }
}

/// Mask of the bits a layout leaves `reserved` (not covered by any named field).
pub(crate) fn reserved_mask(l: &Layout) -> u128 {
    let mut used = 0u128;
    for f in l.fields {
        for pc in f.pieces {
            let n = u32::from(pc.hi - pc.lo) + 1;
            let m = if n >= 128 {
                u128::MAX
            } else {
                (1u128 << n) - 1
            };
            used |= m << pc.lo;
        }
    }
    let all = if l.width >= 128 {
        u128::MAX
    } else {
        (1u128 << l.width) - 1
    };
    all & !used
}

/// A field every layout of a kind has (the spec guarantees it; a missing one would be a spec
/// bug, and falls back to the opcode field so that nothing panics).
fn must(l: &'static Layout, name: &str) -> &'static BitField {
    l.field(name)
        .or_else(|| l.fields.first())
        .unwrap_or(&enc::gen7_a1::OPCODE)
}

fn value_table(p: Platform, cands: &[&'static ValueTable]) -> &'static ValueTable {
    pick(p, cands)
}

fn build(p: Platform) -> Set {
    use enc::select::{self as sel, Operands};
    use enc::*;
    let mut infos: Vec<Info> = vec![];
    let mut add = |l: &'static Layout| -> usize {
        if let Some(i) = infos.iter().position(|x| std::ptr::eq(x.layout, l)) {
            return i;
        }
        infos.push(Info {
            layout: l,
            reserved: reserved_mask(l),
            ind: None,
            checks: vec![],
            types: vec![],
            amode: [None; 3],
            amode_f: [F::NONE; 3],
        });
        infos.len() - 1
    };
    // (form, operands) -> [Align1, Align16] layouts: spec/encoding/select.toml `[[select]]`.
    // The spec compiler proves the required pairs present on every platform; the fallback
    // only keeps a broken table from panicking.
    let lay = |f: Form, k: Operands| sel::layouts(f, k, p).map(|(_, l)| l);
    let need = |f: Form, k: Operands| lay(f, k).unwrap_or([&gen7_a1::LAYOUT, &gen7_a16::LAYOUT]);
    let alu_l = need(Form::Alu, Operands::Reg);
    let imm_l = need(Form::Alu, Operands::Imm);
    let ind_l = need(Form::Alu, Operands::Ind);
    let math_l = need(Form::Math, Operands::Reg);
    let math_imm_l = need(Form::Math, Operands::Imm);
    let send_l = need(Form::Send, Operands::ImmDesc);
    let send_reg_l = need(Form::Send, Operands::RegDesc);
    let branch_l = need(Form::Branch, Operands::Any);
    let three_l = need(Form::ThreeSrc, Operands::Any)[0];
    let imm64_l = lay(Form::Alu, Operands::Imm64);
    // dim: [register src0, immediate src0].
    let dim_l = lay(Form::Dim, Operands::Reg).zip(lay(Form::Dim, Operands::Imm));
    // Split sends, indexed by sel_reg32_desc + 2 * sel_reg32_ex_desc.
    let sends_l = [
        Operands::Imm,
        Operands::RegDesc,
        Operands::RegExdesc,
        Operands::RegBoth,
    ]
    .map(|k| lay(Form::Sends, k).map(|l| l[0]));

    let ind = [add(ind_l[0]), add(ind_l[1])];
    let idx2 = |add: &mut dyn FnMut(&'static Layout) -> usize, l: [&'static Layout; 2]| {
        [add(l[0]), add(l[1])]
    };
    let alu = idx2(&mut add, alu_l);
    let imm = idx2(&mut add, imm_l);
    let math = idx2(&mut add, math_l);
    let math_imm = idx2(&mut add, math_imm_l);
    let send = idx2(&mut add, send_l);
    let send_reg = idx2(&mut add, send_reg_l);
    let branch = idx2(&mut add, branch_l);
    let three = add(three_l);
    let imm64 = imm64_l.map(|l| idx2(&mut add, l));
    let dim = dim_l.map(|(r, i)| [idx2(&mut add, r), idx2(&mut add, i)]);
    let sends = match sends_l {
        [Some(a), Some(b), Some(c), Some(d)] => Some([add(a), add(b), add(c), add(d)]),
        _ => None,
    };

    // Per-layout value checks: spec/encoding/checks.toml `[[check]]` (enc.check.*).
    let reg_file = value_table(p, &[&values::GEN7_REG_FILE, &values::GEN8_REG_FILE]);
    let checks: Vec<&sel::FieldCheck> = sel::CHECKS.iter().filter(|c| c.gens.contains(p)).collect();
    for info in infos.iter_mut() {
        let l = info.layout;
        for c in &checks {
            let Some(t) = c.values.iter().copied().find(|t| t.gens.contains(p)) else {
                continue;
            };
            for name in c.fields {
                if let Some(f) = l.field(name) {
                    // `srcN_...` fields belong to source N (a naming convention of the layouts).
                    let operand = name
                        .strip_prefix("src")
                        .and_then(|r| r.chars().next())
                        .and_then(|d| d.to_digit(10))
                        .map(|d| d as u8);
                    info.checks.push(Check {
                        field: f,
                        valid: valid_mask(t),
                        operand,
                        region: c.skip_immediate,
                    });
                }
            }
        }
        for (op, file, ty) in [
            (0u8, "dst_reg_file", "dst_reg_type"),
            (1, "src0_reg_file", "src0_reg_type"),
            (2, "src1_reg_file", "src1_reg_type"),
        ] {
            if let (Some(f), Some(t)) = (l.field(file), l.field(ty)) {
                info.types.push((op, f, t));
            }
        }
        for (k, name) in ["dst_address_mode", "src0_address_mode", "src1_address_mode"]
            .iter()
            .enumerate()
        {
            info.amode[k] = l.field(name);
            info.amode_f[k] = F::new(l.field(name));
        }
    }
    // Rows with `indirect = true`: their operands under indirect addressing use the ind layouts.
    for r in sel::SELECT
        .iter()
        .filter(|r| r.indirect && r.gens.contains(p))
    {
        if let Some((_, l)) = sel::layouts(r.form, r.operands, p) {
            for (a, l) in l.iter().enumerate() {
                if let Some(i) = infos.iter().position(|x| std::ptr::eq(x.layout, *l)) {
                    infos[i].ind = Some(ind[a]);
                }
            }
        }
    }

    // Opcode number -> form: spec/encoding/select.toml `[[form]]`.
    let mut form = [Form::Unknown; 128];
    for (n, slot) in form.iter_mut().enumerate() {
        *slot = sel::form_of(p, n as u8);
    }

    let a1 = alu_l[0];
    let sends_l0 = sends_l[0];
    let fast = Fast {
        opcode: F::new(Some(must(a1, "opcode"))),
        access_mode: F::new(Some(must(a1, "access_mode"))),
        src0_file: F::new(Some(must(a1, "src0_reg_file"))),
        src1_file: F::new(Some(must(a1, "src1_reg_file"))),
        src0_type: F::new(Some(must(a1, "src0_reg_type"))),
        sel_desc: F::new(sends_l0.and_then(|l| l.field("sel_reg32_desc"))),
        sel_ex: F::new(sends_l0.and_then(|l| l.field("sel_reg32_ex_desc"))),
    };
    Set {
        fast,
        form,
        opcode: must(a1, "opcode"),
        access_mode: must(a1, "access_mode"),
        src0_file: must(a1, "src0_reg_file"),
        src1_file: must(a1, "src1_reg_file"),
        src0_type: must(a1, "src0_reg_type"),
        src1_type: must(a1, "src1_reg_type"),
        pred_control: must(a1, "pred_control"),
        eot: send_l[0].field("eot"),
        imm_file: reg_file.value("imm").unwrap_or(u64::MAX),
        align16: values::ACCESS_MODE.value("align16").unwrap_or(u64::MAX),
        pred1: valid_mask(&values::PRED_CONTROL_ALIGN1),
        pred16: valid_mask(&values::PRED_CONTROL_ALIGN16),
        reg_types: (0u8..64)
            .filter(|t| DataType::from_reg_enc(p, *t).is_some())
            .fold(0, |m, t| m | 1 << t),
        imm_types: (0u8..64)
            .filter(|t| DataType::from_imm_enc(p, *t).is_some())
            .fold(0, |m, t| m | 1 << t),
        imm64_types: (0u8..64)
            .filter(|t| DataType::from_imm_enc(p, *t).is_some_and(|t| t.bits() == 64))
            .fold(0, |m, t| m | 1 << t),
        infos,
        alu,
        imm,
        imm64,
        math,
        math_imm,
        three,
        send,
        send_reg,
        branch,
        dim,
        sends,
    }
}

/// The resolved set for `p`.
pub(crate) fn set(p: Platform) -> &'static Set {
    static SETS: [OnceLock<Set>; 6] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    SETS[p as usize].get_or_init(|| build(p))
}

impl Set {
    /// The form of the instruction's opcode.
    #[inline]
    pub fn form(&self, word: u128) -> Form {
        self.form[(self.fast.opcode.get(word) & 0x7f) as usize]
    }

    /// Mesa's `has_immediate` (elk_eu_compact.c / brw_eu_compact.c): src0, else src1, is an
    /// immediate with a defined immediate type encoding.
    pub fn has_valid_imm(&self, word: u128) -> bool {
        let valid = |t: u64| defined(self.imm_types, t);
        if self.src0_file.get(word) == self.imm_file {
            valid(self.src0_type.get(word))
        } else if self.src1_file.get(word) == self.imm_file {
            valid(self.src1_type.get(word))
        } else {
            false
        }
    }

    /// Index (into `infos`) of the layout of a native word.
    #[inline]
    pub fn select(&self, word: u128) -> usize {
        self.select_by(&word)
    }

    /// [`Set::select`] with the fields it reads given by `v` (a word, or the encoder's values
    /// before the word exists: [`SelectValues`]).
    #[inline]
    pub fn select_by<V: SelectInput>(&self, v: &V) -> usize {
        let f = &self.fast;
        let imm = |x: u64| x == self.imm_file;
        let a = usize::from(v.value(f, Sel::AccessMode) == self.align16);
        match self.form[(v.value(f, Sel::Opcode) & 0x7f) as usize] {
            Form::ThreeSrc => self.three,
            Form::Branch => self.branch[a],
            Form::Dim => match self.dim {
                Some(d) => d[usize::from(imm(v.value(f, Sel::Src0File)))][a],
                None => self.alu[a],
            },
            Form::Send => {
                if imm(v.value(f, Sel::Src1File)) {
                    self.send[a]
                } else {
                    self.send_reg[a]
                }
            }
            Form::Sends => match self.sends {
                Some(s) if f.sel_desc.is_some() && f.sel_ex.is_some() => {
                    s[(v.value(f, Sel::RegDesc) & 1) as usize
                        + 2 * (v.value(f, Sel::RegExDesc) & 1) as usize]
                }
                _ => self.alu[a],
            },
            Form::Math => {
                if imm(v.value(f, Sel::Src0File)) || imm(v.value(f, Sel::Src1File)) {
                    self.math_imm[a]
                } else {
                    self.math[a]
                }
            }
            Form::Alu | Form::Unknown => {
                if imm(v.value(f, Sel::Src0File)) {
                    if let Some(i64) = self.imm64 {
                        if defined(self.imm64_types, v.value(f, Sel::Src0Type)) {
                            return i64[a];
                        }
                    }
                    self.imm[a]
                } else if imm(v.value(f, Sel::Src1File)) {
                    self.imm[a]
                } else {
                    self.alu[a]
                }
            }
        }
    }

    /// Index (into `infos`) of the layout holding operand `k`'s fields (dst = 0, src0 = 1,
    /// src1 = 2) in a word whose layout is `infos[i]`: the `*-ind` layout under indirect
    /// addressing.
    #[inline]
    pub fn operand_index(&self, word: u128, i: usize, k: usize) -> usize {
        let info = &self.infos[i];
        match (info.amode_f.get(k), info.ind) {
            (Some(f), Some(ind)) if f.get(word) == 1 => ind,
            _ => i,
        }
    }
}

/// The layout a native instruction word is read with on `p`: chosen from the opcode, the access
/// mode and the immediate operands. Never fails: a word with an unknown opcode gets the plain
/// one/two-source layout ([`check`] reports the opcode).
pub fn layout_for(word: u128, p: Platform) -> &'static Layout {
    let s = set(p);
    s.infos[s.select(word)].layout
}

/// Width in bits (at most 32, the model's offsets being `i32`) of the field that holds
/// `op`'s jump offsets on `p`: the `jip` field of the branch layouts for the opcodes of
/// `enc.gen7.branch-opcodes` / `enc.gen8.branch-opcodes` (16 bits on Gen7 and Gen7.5, 32 from
/// Gen8), otherwise the `imm` field of the Align1 immediate layout (brd, brc, call, calla
/// and jmpi take their offset as a source immediate, enc.implicit.brd-brc: 32 bits).
pub fn jump_bits(op: Opcode, p: Platform) -> u8 {
    let s = set(p);
    let Some(n) = op.number(p) else {
        return 32;
    };
    let (at, name) = if s.form[usize::from(n & 0x7f)] == Form::Branch {
        (s.branch[0], "jip")
    } else {
        (s.imm[0], "imm")
    };
    s.infos[at]
        .layout
        .field(name)
        .map_or(32, |f| f.width.min(32))
}

/// The layout holding `op`'s fields: the `*-ind` layout when that operand uses indirect
/// addressing (its address_mode field is 1), otherwise [`layout_for`]'s.
pub fn operand_layout(word: u128, p: Platform, op: Operand) -> &'static Layout {
    let s = set(p);
    let info = &s.infos[s.select(word)];
    let k = match op {
        Operand::Dst => 0,
        Operand::Src0 => 1,
        Operand::Src1 => 2,
    };
    match (info.amode[k], info.ind) {
        (Some(f), Some(i)) if f.get(word) == 1 => s.infos[i].layout,
        _ => info.layout,
    }
}

/// Whether the instruction starting with the 64-bit word `first` is compact (its CmptCtrl bit,
/// at the same position in native and compact forms, is set).
pub fn is_compact(first: u64) -> bool {
    enc::compact_2src::CMPT_CONTROL.get(u128::from(first)) == 1
}

/// Choose the layout of a native word and check its fields: the opcode must exist on `p`;
/// reserved bits must be zero; exec size, condition modifier, math function, thread control,
/// SFID, predicate control, register files, regions and types of the operands the opcode uses
/// must have defined encodings. The error names the first offending field and its byte.
pub fn check(word: u128, p: Platform) -> Result<&'static Layout, EncodingError> {
    let s = set(p);
    let n = s.opcode.get(word);
    let op = match Opcode::from_number(p, (n & 0x7f) as u8) {
        Some(op) => op,
        None => return Err(EncodingError::at(ErrorKind::UnknownOpcode, s.opcode, n)),
    };
    let info = &s.infos[s.select(word)];
    let form = s.form(word);
    // Reserved bits: an operand under indirect addressing uses some bits the direct layout
    // leaves reserved (Gen8 AddrImm[9]).
    let mut reserved = info.reserved;
    if let Some(i) = info.ind {
        if info.amode.iter().flatten().any(|f| f.get(word) == 1) {
            reserved &= s.infos[i].reserved;
        }
    }
    let set_bits = word & reserved;
    if set_bits != 0 {
        return Err(EncodingError::reserved_bits(set_bits));
    }
    let srcs = match form {
        Form::Branch => 0,
        Form::Send => 1,
        Form::Sends => 2,
        _ => op.info().srcs,
    };
    let a16 = s.access_mode.get(word) == s.align16;
    let pred_t = if a16 { s.pred16 } else { s.pred1 };
    let pv = s.pred_control.get(word);
    if !defined(pred_t, pv) {
        return Err(EncodingError::at(
            ErrorKind::ReservedValue,
            s.pred_control,
            pv,
        ));
    }
    let imm0 = s.src0_file.get(word) == s.imm_file;
    let imm1 = s.src1_file.get(word) == s.imm_file;
    for c in &info.checks {
        if let Some(k) = c.operand {
            if k >= srcs || (c.region && ((k == 0 && imm0) || (k == 1 && imm1))) {
                continue;
            }
        }
        let v = c.field.get(word);
        if !defined(c.valid, v) {
            return Err(EncodingError::at(ErrorKind::ReservedValue, c.field, v));
        }
    }
    if !matches!(form, Form::Sends) {
        for &(k, file, ty) in &info.types {
            if k > srcs {
                continue;
            }
            let fv = file.get(word);
            let tv = ty.get(word);
            let is_imm = fv == s.imm_file;
            if k == 0 && is_imm {
                return Err(EncodingError::at(ErrorKind::Malformed, file, fv));
            }
            if !defined(if is_imm { s.imm_types } else { s.reg_types }, tv) {
                return Err(EncodingError::at(ErrorKind::ReservedValue, ty, tv));
            }
        }
    }
    Ok(info.layout)
}
