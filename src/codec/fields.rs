//! Fields and value tables resolved once per platform.
//!
//! Every native layout of `spec/encoding` (`enc.*`, [`crate::spec::encoding::LAYOUTS`]) that
//! applies to a platform is resolved by field *name* into a [`Lay`]: one optional
//! [`BitField`] per name the codec knows, so that reading or writing an instruction is a
//! handful of generated shift/mask accessors. The value tables (`enc.exec-size`,
//! `enc.cond-modifier`, ...) are turned into small lookup arrays in both directions. Nothing
//! here states a bit position or a table entry: names are the only link to the spec.
//!
//! Naming conventions of spec/encoding this module relies on (all visible in the TOML):
//! operand fields are `dst_*`, `src0_*`, `src1_*`, `src2_*`; a subregister field's suffix gives
//! its unit (`subreg_nr` bytes, `subreg16` / `subreg4` / `subreg2` 16-, 4- and 2-byte units);
//! `addr_imm16` is an indirect offset in 16-byte units. A layout `<name>_ex_desc` (no access
//! mode field, so never an instruction layout) is a second view of layout `<name>`: where
//! that layout's words hold extended-descriptor fields (enc.ex-desc) over other fields.

pub(crate) use crate::encoding::F;
use crate::encoding::{layout_for, layout_set, LayoutSet};
use crate::isa::{arf_regnum, ThreadCtrl};
use crate::spec::encoding::{self as enc, values, BitField, Layout, ValueTable};
use crate::spec::{AccessMode, CondMod, DataType, MathFn, Opcode, Platform, PredCtrl};
use std::sync::OnceLock;

/// The fields of one operand (dst = 0, src0 = 1, src1 = 2, src2 = 3).
#[derive(Clone, Copy, Default)]
pub(crate) struct OpFields {
    pub reg_file: F,
    pub reg_type: F,
    pub reg_nr: F,
    /// Subregister field and its unit in bytes.
    pub subreg: Option<(F, u8)>,
    pub hstride: F,
    pub width: F,
    pub vstride: F,
    pub swizzle: F,
    pub abs: F,
    pub negate: F,
    pub address_mode: F,
    pub writemask: F,
    pub rep_ctrl: F,
    /// Three-source `src1_type` / `src2_type`: the source's precision when the shared type is
    /// F or HF (enc.gen8.3src-precision; absent on Broadwell, enc.gen8.3src-bdw).
    pub hf_type: F,
    pub addr_subreg: F,
    /// Indirect offset field and its unit in bytes.
    pub addr_imm: Option<(F, u8)>,
}

/// One layout with its fields resolved by name.
pub(crate) struct Lay {
    pub layout: &'static Layout,
    /// Index of the layout in the platform's [`LayoutSet`] (`usize::MAX`: not there).
    pub info: usize,
    /// Bits no field of the layout covers (`reserved`).
    pub reserved: u128,
    pub opcode: F,
    pub access_mode: F,
    pub mask_control: F,
    pub dep_ctrl: F,
    pub qtr_control: F,
    pub nib_control: F,
    pub thread_control: F,
    pub pred_control: F,
    pub pred_inv: F,
    pub exec_size: F,
    pub cond_modifier: F,
    pub math_function: F,
    pub sfid: F,
    pub acc_wr_control: F,
    pub branch_control: F,
    pub no_src_dep_set: F,
    pub debug_control: F,
    pub saturate: F,
    pub flag_reg_nr: F,
    pub flag_subreg_nr: F,
    /// Three-source shared source type and destination type.
    pub src_type: F,
    pub dst_type: F,
    pub imm: F,
    pub jip: F,
    pub uip: F,
    pub eot: F,
    pub sel_reg32_desc: F,
    pub sel_reg32_ex_desc: F,
    pub ex_desc_addr_subreg: F,
    /// Fields of the extended descriptor (enc.ex-desc) that this layout holds in fields of the
    /// same names: (descriptor field, instruction field). `sfid` and `eot` are left out: the
    /// model keeps them in `SendInfo::sfid` and `Controls::eot`.
    pub ex_desc: Vec<(F, F)>,
    /// The descriptor bits of `ex_desc`.
    pub ex_desc_mask: u32,
    pub op: [OpFields; 4],
    /// The layout's compile-time decoder (module `decode_static`).
    pub dec: Option<super::decode_static::DecodeFn>,
    /// The layout's compile-time encoder of common instructions (module `encode_static`).
    pub enc: Option<super::encode_static::EncodeFn>,
}

impl Lay {
    /// The immediate extended descriptor this layout's word `w` holds, without the SFID and
    /// EOT (each descriptor field from the instruction field of the same name, enc.ex-desc;
    /// 0 where the layout has none).
    #[inline]
    pub fn imm_ex_desc(&self, w: u128) -> u32 {
        let mut v = 0u128;
        for &(d, f) in &self.ex_desc {
            d.set(&mut v, f.get(w));
        }
        v as u32
    }
}

/// The extended message descriptor's layout.
pub(crate) fn ex_desc_layout() -> &'static Layout {
    &enc::ex_desc::LAYOUT
}

/// Names of the extended-descriptor fields the model keeps outside `SendInfo::ex_desc`.
const EX_DESC_ELSEWHERE: [&str; 2] = ["sfid", "eot"];

/// Mask of the bits of `l`'s fields, as a 32-bit descriptor.
fn field_mask32(b: &BitField) -> u32 {
    let mut w = 0u128;
    b.set(&mut w, u64::MAX);
    w as u32
}

const OPERANDS: [&str; 4] = ["dst", "src0", "src1", "src2"];

fn resolve(l: &'static Layout) -> Lay {
    let f = |n: &str| F::new(l.field(n));
    let mut op = [OpFields::default(); 4];
    for (k, o) in op.iter_mut().enumerate() {
        let pre = OPERANDS[k];
        let raw = |s: &str| l.field(&format!("{pre}_{s}"));
        let g = |s: &str| F::new(raw(s));
        let unit = |s: &str| {
            s.trim_start_matches(|c: char| !c.is_ascii_digit())
                .parse()
                .ok()
        };
        o.subreg = ["subreg_nr", "subreg16", "subreg4", "subreg2"]
            .iter()
            .find_map(|s| raw(s).map(|b| (F::new(Some(b)), unit(s).unwrap_or(1))));
        o.addr_imm = ["addr_imm", "addr_imm16"]
            .iter()
            .find_map(|s| raw(s).map(|b| (F::new(Some(b)), unit(s).unwrap_or(1))));
        o.reg_file = g("reg_file");
        o.reg_type = g("reg_type");
        o.reg_nr = g("reg_nr");
        o.hstride = g("hstride");
        o.width = g("width");
        o.vstride = g("vstride");
        o.swizzle = g("swizzle");
        o.abs = g("abs");
        o.negate = g("negate");
        o.address_mode = g("address_mode");
        o.writemask = g("writemask");
        o.rep_ctrl = g("rep_ctrl");
        o.hf_type = if k >= 2 { g("type") } else { F::NONE };
        o.addr_subreg = g("addr_subreg_nr");
    }
    let mut used = 0u128;
    for b in l.fields {
        for pc in b.pieces {
            let n = u32::from(pc.hi.saturating_sub(pc.lo)) + 1;
            let m = if n >= 128 {
                u128::MAX
            } else {
                (1u128 << n) - 1
            };
            used |= m << (u32::from(pc.lo) & 127);
        }
    }
    let mut ex_desc = vec![];
    let mut ex_desc_mask = 0u32;
    // The extended descriptor's fields lie in the layout itself (split sends) or in its
    // second view `<name>_ex_desc` (Gen9 send, enc.gen9.send-a1-ex-desc).
    let view = enc::LAYOUTS
        .iter()
        .copied()
        .find(|v| v.name.strip_suffix("_ex_desc") == Some(l.name));
    for d in ex_desc_layout().fields {
        if d.name.starts_with("reserved") || EX_DESC_ELSEWHERE.contains(&d.name) {
            continue;
        }
        if let Some(b) = l
            .field(d.name)
            .or_else(|| view.and_then(|v| v.field(d.name)))
        {
            ex_desc.push((F::new(Some(d)), F::new(Some(b))));
            ex_desc_mask |= field_mask32(d);
        }
    }
    Lay {
        layout: l,
        info: usize::MAX,
        reserved: !used,
        ex_desc,
        ex_desc_mask,
        opcode: f("opcode"),
        access_mode: f("access_mode"),
        mask_control: f("mask_control"),
        dep_ctrl: f("dep_ctrl"),
        qtr_control: f("qtr_control"),
        nib_control: f("nib_control"),
        thread_control: f("thread_control"),
        pred_control: f("pred_control"),
        pred_inv: f("pred_inv"),
        exec_size: f("exec_size"),
        cond_modifier: f("cond_modifier"),
        math_function: f("math_function"),
        sfid: f("sfid"),
        acc_wr_control: f("acc_wr_control"),
        branch_control: f("branch_control"),
        no_src_dep_set: f("no_src_dep_set"),
        debug_control: f("debug_control"),
        saturate: f("saturate"),
        flag_reg_nr: f("flag_reg_nr"),
        flag_subreg_nr: f("flag_subreg_nr"),
        src_type: f("src_type"),
        dst_type: f("dst_type"),
        imm: f("imm"),
        jip: f("jip"),
        uip: f("uip"),
        eot: f("eot"),
        sel_reg32_desc: f("sel_reg32_desc"),
        sel_reg32_ex_desc: f("sel_reg32_ex_desc"),
        ex_desc_addr_subreg: f("ex_desc_addr_subreg_nr"),
        op,
        dec: super::decode_static::decoder_for(l),
        enc: super::encode_static::encoder_for(l),
    }
}

/// A model value with a small index (below 256), for the encoding direction of [`Map`].
pub(crate) trait Key: Copy + PartialEq {
    fn key(self) -> usize;
}

impl Key for u8 {
    fn key(self) -> usize {
        self as usize
    }
}
impl Key for bool {
    fn key(self) -> usize {
        self as usize
    }
}
impl Key for (bool, bool) {
    fn key(self) -> usize {
        self.0 as usize | (self.1 as usize) << 1
    }
}
impl Key for File {
    fn key(self) -> usize {
        self as usize
    }
}
impl Key for ThreadCtrl {
    fn key(self) -> usize {
        self as usize
    }
}
macro_rules! key_as_usize {
    ($($t:ty),*) => {$(
        impl Key for $t {
            fn key(self) -> usize {
                self as usize
            }
        }
    )*};
}
key_as_usize!(CondMod, PredCtrl, MathFn, AccessMode, DataType);

/// A two-way map between a field's encodings (0-63: every field with a value table is
/// narrower than 6 bits) and values of the model.
pub(crate) struct Map<T: Key> {
    pub dec: [Option<T>; 64],
    /// Encoding of each model value by its [`Key`] (0xFF: none).
    rev: [u8; 256],
}

impl<T: Key> Map<T> {
    fn new(t: &ValueTable, conv: impl Fn(&str) -> Option<T>) -> Map<T> {
        let mut dec = [None; 64];
        for &(name, v) in t.entries {
            if let Some(slot) = dec.get_mut(v as usize) {
                *slot = conv(name);
            }
        }
        Map::from_dec(dec)
    }

    fn from_dec(dec: [Option<T>; 64]) -> Map<T> {
        let mut rev = [0xFFu8; 256];
        // The first (lowest) encoding of a value wins.
        for (v, d) in dec.iter().enumerate().rev() {
            if let Some(x) = d {
                if let Some(r) = rev.get_mut(x.key()) {
                    *r = v as u8;
                }
            }
        }
        Map { dec, rev }
    }

    /// The model value of encoding `v`.
    #[inline]
    pub fn get(&self, v: u64) -> Option<T> {
        self.dec.get(v as usize).copied().flatten()
    }

    /// The encoding of model value `x`.
    #[inline]
    pub fn enc(&self, x: T) -> Option<u64> {
        match self.rev.get(x.key()) {
            Some(&r) if r != 0xFF => Some(u64::from(r)),
            _ => None,
        }
    }
}

/// What an opcode's instruction looks like to the codec.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    /// nop, illegal: no operands.
    Bare,
    /// One- and two-source instructions (`srcs` sources).
    Alu,
    Math,
    ThreeSrc,
    Send,
    Sends,
    /// Structured flow with JIP/UIP fields (enc.*.branch-opcodes).
    Branch,
    Jmpi,
    Wait,
    Ret,
    /// call, calla, brd, brc: the jump target is the src0 immediate.
    Jump,
}

/// Everything resolved for one platform.
pub(crate) struct Tabs {
    pub p: Platform,
    pub lays: Vec<Lay>,
    /// The platform's layout choice, and for each of its layouts the index into `lays`.
    set: &'static LayoutSet,
    by_info: Vec<usize>,
    /// `(layout address, index into lays)` by [`slot`] of the address.
    index: [(usize, u8); SLOTS],
    /// Index of the plain Align1 layout (opcode 0, register operands).
    pub base: usize,
    /// Index of the Align1 immediate layout (its `imm` field is the last dword; its src1
    /// file/type fields are Mesa's "src0 immediate" mirror).
    pub a1_imm: usize,
    /// The last dword (the immediate layout's `imm` field): a send's message descriptor.
    pub last_dword: F,
    /// Split-send selector fields (Gen9).
    pub sel_desc: F,
    pub sel_ex_desc: F,
    /// Extended-descriptor bits the model keeps in `SendInfo::sfid` and `Controls::eot`.
    pub ex_desc_elsewhere: u32,
    pub kind: [Kind; 128],
    /// JIP (bit 0) / UIP (bit 1) per opcode number for Kind::Branch.
    pub jumps: [u8; 128],
    pub exec: Map<u8>,
    pub hstride: Map<u8>,
    /// Destination HorzStride: without stride 0 (enc.dst-hstride).
    pub dst_hstride: Map<u8>,
    /// GRF register numbers at or above this one are reserved (enc.grf-reg-nr; the count of
    /// regfile.grf); 256 when the rule does not apply.
    pub grf_limit: u16,
    /// ret's src0 must be a register (enc.ret-src0-register).
    pub ret_reg_only: bool,
    /// A W/UW immediate's halves must agree (enc.imm-word-replicated).
    pub word_imm_replicated: bool,
    /// enc.wait-src0-is-dst applies.
    pub wait_src0_is_dst: bool,
    /// Bit `t` set: ARF register type `t` (RegNum[7:4]) is reserved on the platform
    /// (enc.arf-reg-type; 0 when the rule does not apply).
    pub reserved_arf_types: u16,
    pub width: Map<u8>,
    pub vstride: Map<u8>,
    pub cmod: Map<CondMod>,
    pub pred: Map<PredCtrl>,
    pub pred16: Map<PredCtrl>,
    pub math: Map<MathFn>,
    pub thread: Map<ThreadCtrl>,
    /// (no_dd_clr, no_dd_chk).
    pub dep: Map<(bool, bool)>,
    /// Channel offset of a QtrCtrl encoding.
    pub qtr: Map<u8>,
    /// NibCtrl: second nibble.
    pub nib: Map<bool>,
    pub access: Map<AccessMode>,
    pub nomask: Map<bool>,
    pub file: Map<File>,
    pub sends_file: Map<File>,
    pub indirect: Map<bool>,
    pub type3: Map<DataType>,
    /// Three-source `src1_type` / `src2_type` values (enc.gen8.3src-precision).
    pub prec3: Map<DataType>,
    pub rep: Map<bool>,
    /// Defined SFIDs.
    pub sfid: Map<u8>,
    pub reg_type: [Option<DataType>; 16],
    pub imm_type: [Option<DataType>; 16],
    /// RegNum of `ip`, `null`'s is 0, `a0`.
    pub ip: u8,
    pub a0: u8,
}

/// A register file encoding.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub(crate) enum File {
    Arf,
    Grf,
    Mrf,
    Imm,
}

fn file_of(name: &str) -> Option<File> {
    match name {
        "arf" => Some(File::Arf),
        "grf" => Some(File::Grf),
        "mrf" => Some(File::Mrf),
        "imm" => Some(File::Imm),
        _ => None,
    }
}

fn pick(p: Platform, cands: &[&'static ValueTable]) -> &'static ValueTable {
    cands
        .iter()
        .copied()
        .find(|t| t.gens.contains(p))
        .unwrap_or(cands[0])
}

fn num(s: &str) -> Option<u8> {
    s.parse().ok()
}

fn build(p: Platform) -> Tabs {
    let set = layout_set(p);
    let mut lays: Vec<Lay> = enc::LAYOUTS
        .iter()
        .copied()
        // Native instruction layouts (the compaction views have no access mode field).
        .filter(|l| l.width == 128 && l.gens.contains(p) && l.field("access_mode").is_some())
        .map(resolve)
        .collect();
    let mut by_info = vec![usize::MAX; set.infos.len()];
    for (k, info) in set.infos.iter().enumerate() {
        if let Some(i) = lays
            .iter()
            .position(|x| std::ptr::eq(x.layout, info.layout))
        {
            by_info[k] = i;
            lays[i].info = k;
        }
    }
    // Open-addressing table from layout address to index (a few dozen layouts, 64 slots).
    let mut index = [(0usize, u8::MAX); SLOTS];
    for (k, l) in lays.iter().enumerate() {
        let a = l.layout as *const Layout as usize;
        let mut h = slot(a);
        // (A platform has about twenty native layouts; a full table would leave the rest
        // unresolved, which decoding reports as an error, never a hang.)
        for _ in 0..SLOTS {
            if index[h].1 == u8::MAX {
                index[h] = (a, k.min(254) as u8);
                break;
            }
            h = (h + 1) % SLOTS;
        }
    }
    let find = |l: &'static Layout| lays.iter().position(|x| std::ptr::eq(x.layout, l));
    // The plain Align1 layout: what `select` returns for an all-zero word.
    let base_l = layout_for(0, p);
    let base = find(base_l).unwrap_or(0);
    let b = &lays[base];
    // The Align1 immediate layout: a one-source instruction with an immediate UD src0.
    let imm_file = pick(p, &[&values::GEN7_REG_FILE, &values::GEN8_REG_FILE]).value("imm");
    let mut w = 0u128;
    if let Some(n) = Opcode::Mov.number(p) {
        b.opcode.set(&mut w, u64::from(n));
    }
    if let Some(v) = imm_file {
        b.op[1].reg_file.set(&mut w, v);
    }
    if let Some(v) = DataType::UD.imm_enc(p) {
        b.op[1].reg_type.set(&mut w, u64::from(v));
    }
    let a1_imm = find(layout_for(w, p)).unwrap_or(base);
    // Split-send selectors: the layout `select` gives a `sends` word.
    let (mut sel_desc, mut sel_ex_desc) = (F::NONE, F::NONE);
    if let Some(n) = Opcode::Sends.number(p) {
        let mut w = 0u128;
        b.opcode.set(&mut w, u64::from(n));
        if let Some(i) = find(layout_for(w, p)) {
            sel_desc = lays[i].sel_reg32_desc;
            sel_ex_desc = lays[i].sel_reg32_ex_desc;
        }
    }

    let branch_t = pick(
        p,
        &[&values::GEN7_BRANCH_OPCODES, &values::GEN8_BRANCH_OPCODES],
    );
    let mut kind = [Kind::Bare; 128];
    let mut jumps = [0u8; 128];
    for (n, k) in kind.iter_mut().enumerate() {
        let Some(op) = Opcode::from_number(p, n as u8) else {
            continue;
        };
        use crate::spec::OpClass;
        if let Some(j) = branch_t.value(op.name()) {
            *k = Kind::Branch;
            jumps[n] = j as u8;
            continue;
        }
        *k = match (op, op.info().class) {
            (Opcode::Nop | Opcode::Illegal, _) => Kind::Bare,
            (Opcode::Jmpi, _) => Kind::Jmpi,
            (Opcode::Wait, _) => Kind::Wait,
            (Opcode::Ret, _) => Kind::Ret,
            (Opcode::Sends | Opcode::Sendsc, _) => Kind::Sends,
            (_, OpClass::Send) => Kind::Send,
            (_, OpClass::ThreeSrc) => Kind::ThreeSrc,
            (_, OpClass::Math) => Kind::Math,
            (_, OpClass::Flow) => Kind::Jump,
            _ => Kind::Alu,
        };
    }

    let mut reg_type = [None; 16];
    let mut imm_type = [None; 16];
    for n in 0..16u8 {
        reg_type[n as usize] = DataType::from_reg_enc(p, n);
        imm_type[n as usize] = DataType::from_imm_enc(p, n);
    }
    let thread = |s: &str| match s {
        "normal" => Some(ThreadCtrl::Normal),
        "atomic" => Some(ThreadCtrl::Atomic),
        "switch" => Some(ThreadCtrl::Switch),
        _ => None,
    };
    let dep = |s: &str| match s {
        "none" => Some((false, false)),
        "noddclr" => Some((true, false)),
        "noddchk" => Some((false, true)),
        "noddclr_noddchk" => Some((true, true)),
        _ => None,
    };
    // QtrCtrl `qN` selects channels 8 * (N - 1) and up.
    let qtr = |s: &str| {
        s.strip_prefix('q')
            .and_then(num)
            .and_then(|n| n.checked_sub(1))
            .map(|n| n * 8)
    };
    Tabs {
        p,
        set,
        by_info,
        base,
        a1_imm,
        last_dword: lays.get(a1_imm).map_or(F::NONE, |l| l.imm),
        sel_desc,
        sel_ex_desc,
        ex_desc_elsewhere: ex_desc_layout()
            .fields
            .iter()
            .filter(|d| EX_DESC_ELSEWHERE.contains(&d.name))
            .fold(0, |m, d| m | field_mask32(d)),
        kind,
        jumps,
        exec: Map::new(&values::EXEC_SIZE, num),
        hstride: Map::new(&values::HSTRIDE, num),
        dst_hstride: Map::new(&values::DST_HSTRIDE, num),
        grf_limit: super::reserved_operands::grf_limit(p),
        ret_reg_only: super::reserved_operands::ret_reg_only(p),
        word_imm_replicated: super::reserved_operands::word_imm_replicated(p),
        wait_src0_is_dst: super::reserved_operands::wait_src0_is_dst(p),
        reserved_arf_types: super::reserved_operands::reserved_arf_types(p),
        width: Map::new(&values::WIDTH, num),
        vstride: Map::new(&values::VSTRIDE, |s| {
            if s == "vxh" {
                Some(crate::isa::Region::VXH)
            } else {
                num(s)
            }
        }),
        cmod: Map::new(&values::COND_MODIFIER, CondMod::from_name),
        // Align16 predicates are stored with the Align1 names of the same field values.
        pred: Map::new(&values::PRED_CONTROL_ALIGN1, PredCtrl::from_name),
        pred16: Map::new(&values::PRED_CONTROL_ALIGN16, |s| {
            values::PRED_CONTROL_ALIGN16
                .value(s)
                .and_then(|v| values::PRED_CONTROL_ALIGN1.name_of(v))
                .and_then(PredCtrl::from_name)
        }),
        math: Map::new(
            pick(
                p,
                &[&values::GEN7_MATH_FUNCTION, &values::GEN8_MATH_FUNCTION],
            ),
            MathFn::from_name,
        ),
        thread: Map::new(&values::THREAD_CONTROL, thread),
        dep: Map::new(&values::DEP_CONTROL, dep),
        qtr: Map::new(&values::QTR_CONTROL, qtr),
        nib: Map::new(&values::NIB_CONTROL, |s| Some(s == "high")),
        access: Map::new(&values::ACCESS_MODE, AccessMode::from_name),
        nomask: Map::new(&values::MASK_CONTROL, |s| Some(s == "nomask")),
        file: Map::new(
            pick(p, &[&values::GEN7_REG_FILE, &values::GEN8_REG_FILE]),
            file_of,
        ),
        sends_file: Map::new(
            pick(p, &[&values::GEN9_SENDS_REG_FILE, &values::GEN8_REG_FILE]),
            file_of,
        ),
        indirect: Map::new(&values::ADDRESS_MODE, |s| Some(s == "indirect")),
        type3: Map::new(
            pick(p, &[&values::GEN7_3SRC_TYPE, &values::GEN8_3SRC_TYPE]),
            DataType::from_name,
        ),
        prec3: Map::new(&values::GEN8_3SRC_PRECISION, DataType::from_name),
        rep: Map::new(&values::REP_CONTROL, |s| Some(s == "replicate")),
        sfid: {
            let t = pick(p, &[&values::IVB_SFID, &values::HSW_SFID]);
            let mut dec = [None; 64];
            for &(_, v) in t.entries {
                if let Some(s) = dec.get_mut(v as usize) {
                    *s = Some(v as u8);
                }
            }
            Map::from_dec(dec)
        },
        reg_type,
        imm_type,
        ip: arf_regnum(b"ip", 0).unwrap_or(0),
        a0: arf_regnum(b"a", 0).unwrap_or(0),
        lays,
        index,
    }
}

const SLOTS: usize = 64;

#[inline]
fn slot(addr: usize) -> usize {
    ((addr as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize % SLOTS
}

/// The resolved tables of `p`.
pub(crate) fn tabs(p: Platform) -> &'static Tabs {
    static T: [OnceLock<Tabs>; 6] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    T[p as usize].get_or_init(|| build(p))
}

impl Tabs {
    /// The resolved form of `l` (one of this platform's layouts).
    #[inline]
    pub fn lay(&self, l: &'static Layout) -> Option<&Lay> {
        let a = l as *const Layout as usize;
        let mut h = slot(a);
        for _ in 0..SLOTS {
            let (x, k) = self.index[h];
            if x == a {
                return self.lays.get(usize::from(k));
            }
            if k == u8::MAX {
                return None;
            }
            h = (h + 1) % SLOTS;
        }
        None
    }

    /// The layout of a native word ([`crate::encoding::layout_for`]'s).
    #[inline]
    pub fn select(&self, w: u128) -> Option<&Lay> {
        self.select_by(&w)
    }

    /// [`Tabs::select`] with the fields it reads given by `v`.
    #[inline]
    pub fn select_by<V: crate::encoding::SelectInput>(&self, v: &V) -> Option<&Lay> {
        let k = *self.by_info.get(self.set.select_by(v))?;
        self.lays.get(k)
    }

    /// The layout holding the fields of operand `k` (dst = 0, src0 = 1, src1 = 2) of a word
    /// read with `l` ([`crate::encoding::operand_layout`]'s).
    #[inline]
    pub fn operand(&self, w: u128, l: &Lay, k: usize) -> Option<&Lay> {
        if l.info == usize::MAX {
            return None;
        }
        let k = *self.by_info.get(self.set.operand_index(w, l.info, k))?;
        self.lays.get(k)
    }

    #[inline]
    pub fn kind(&self, opcode: u64) -> Kind {
        self.kind[(opcode & 0x7f) as usize]
    }

    #[inline]
    pub fn jumps(&self, op: Opcode) -> u8 {
        op.number(self.p)
            .map(|n| self.jumps[(n & 0x7f) as usize])
            .unwrap_or(0)
    }
}

/// Read a field (absent fields read as 0).
#[inline(always)]
pub(crate) fn get(f: F, w: u128) -> u64 {
    f.get(w)
}

/// `v` (a `bits`-bit two's complement value) sign-extended.
#[inline]
pub(crate) fn sext(v: u64, bits: u8) -> i64 {
    let b = u32::from(bits.clamp(1, 64));
    let s = 64 - b;
    ((v << s) as i64) >> s
}
