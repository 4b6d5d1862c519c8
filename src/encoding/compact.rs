//! Compaction and uncompaction (native 128-bit <-> compact 64-bit), after Mesa's
//! elk_eu_compact.c (Gen7, Gen8) and brw_eu_compact.c (Gen9).
//!
//! The spec describes the algorithm's data: the compact layouts (`enc.compact.*`), the
//! *compaction views* of a native instruction (`enc.gen7.compaction`, `enc.gen8.compaction`,
//! their `-imm` variants and the three-source views), which say which native bits form each
//! table index, which fields are copied and which bits must be zero, and the tables
//! (`compact.*`). A compact field named `*_index` is the position of the view's field of the
//! same name in the matching table; `cmpt_control` is 1 in the compact form and 0 in the
//! native one; `imm` is the 13-bit immediate, sign-extended to 32 bits; every other compact
//! field copies the view's field of the same name.
//!
//! Conditions that prevent compaction (Mesa `try_compact_instruction`,
//! `elk_try_compact_3src_instruction`, `has_unmapped_bits`, `has_3src_unmapped_bits`,
//! `compact_immediate`): CmptCtrl already set; a `send`/`sendc` with EOT; a three-source
//! instruction before Gen8; an immediate that is not the sign extension of its low 13 bits;
//! a view field value missing from its table; a copied value too wide for its compact field
//! (the 7-bit three-source register numbers); a set bit the view marks `reserved` (NibCtrl,
//! AddrImm[9], reserved bits: bits that the compact form cannot represent). Because every
//! native bit is in exactly one view field, uncompacting a compacted word gives back the
//! native word bit for bit.

use super::error::{EncodingError, ErrorKind};
use super::field::F;
use super::select::{self, reserved_mask, Form, HasGens};
use crate::spec::encoding::{self as enc, compact as tables, BitField, CompactTable, Layout};
use crate::spec::{Opcode, Platform};
use std::sync::OnceLock;

/// Where a compact field's value comes from.
#[derive(Clone, Copy)]
enum Src {
    /// Index of the view field's value in the table.
    Table(&'static CompactTable, &'static BitField),
    /// The view field of the same name.
    Copy(&'static BitField),
    /// CmptCtrl: 1 in the compact form; the view's field is set to 0 on uncompaction.
    Cmpt(&'static BitField),
    /// The compact immediate: the view's 32-bit immediate field.
    Imm(&'static BitField),
}

struct Plan {
    /// Reserved bits of the native view (must be zero to compact).
    view_reserved: u128,
    /// Reserved bits of the compact layout (must be zero to uncompact).
    out_reserved: u128,
    steps: Vec<(&'static BitField, Src)>,
    /// The same steps for uncompaction, table lookups and narrow copies pre-placed.
    expand: Vec<Expand>,
}

/// An uncompaction step.
enum Expand {
    /// Compact field `f` (read with one shift and mask through `F`) selects the native bits
    /// of its value (of a table entry, or of a copied value of a narrow field), which replace
    /// the bits `mask` of the view field.
    Bits {
        f: &'static BitField,
        fast: F,
        mask: u128,
        bits: Vec<u128>,
    },
    /// Any other step, as [`run_compact`]'s plan has it.
    Step(&'static BitField, Src),
}

/// Widest copied compact field whose native bits are tabulated.
const COPY_TABLE_BITS: u8 = 8;

/// The uncompaction steps of `steps`.
fn expand(steps: &[(&'static BitField, Src)]) -> Vec<Expand> {
    let placed = |vf: &BitField, v: u64| {
        let mut n = 0u128;
        vf.set(&mut n, v);
        n
    };
    steps
        .iter()
        .map(|&(f, src)| {
            let (vf, values): (&BitField, Vec<u64>) = match src {
                Src::Table(t, vf) => (vf, t.entries.to_vec()),
                Src::Copy(vf) if f.width <= COPY_TABLE_BITS => (vf, (0..1u64 << f.width).collect()),
                _ => return Expand::Step(f, src),
            };
            Expand::Bits {
                f,
                fast: F::new(Some(f)),
                mask: placed(vf, u64::MAX),
                bits: values.iter().map(|&v| placed(vf, v)).collect(),
            }
        })
        .collect()
}

struct Plans {
    reg: Plan,
    imm: Plan,
    three: Option<Plan>,
    opcode: &'static BitField,
    cmpt: &'static BitField,
}

fn pick_table(p: Platform, cands: &[&'static CompactTable]) -> Option<&'static CompactTable> {
    cands.iter().copied().find(|t| t.gens_contain(p))
}

fn table_for(p: Platform, name: &str, three: bool) -> Option<&'static CompactTable> {
    use tables::*;
    match (three, name) {
        (false, "control_index") => pick_table(p, &[&GEN7_CONTROL_INDEX, &GEN8_CONTROL_INDEX]),
        (false, "datatype_index") => pick_table(p, &[&GEN7_DATATYPE_INDEX, &GEN8_DATATYPE_INDEX]),
        (false, "subreg_index") => pick_table(p, &[&GEN7_SUBREG_INDEX, &GEN8_SUBREG_INDEX]),
        (false, "src0_index" | "src1_index") => pick_table(p, &[&GEN7_SRC_INDEX, &GEN8_SRC_INDEX]),
        (true, "control_index") => pick_table(p, &[&GEN8_3SRC_CONTROL_INDEX]),
        (true, "source_index") => pick_table(p, &[&GEN8_3SRC_SOURCE_INDEX]),
        _ => None,
    }
}

fn plan(p: Platform, view: &'static Layout, out: &'static Layout, three: bool) -> Plan {
    let mut steps = vec![];
    for f in out.fields {
        let Some(vf) = view.field(f.name) else {
            continue;
        };
        let src = if f.name == "cmpt_control" {
            Src::Cmpt(vf)
        } else if f.name == "imm" {
            Src::Imm(vf)
        } else if let Some(t) = table_for(p, f.name, three) {
            Src::Table(t, vf)
        } else {
            Src::Copy(vf)
        };
        steps.push((f, src));
    }
    Plan {
        view_reserved: reserved_mask(view),
        out_reserved: reserved_mask(out),
        expand: expand(&steps),
        steps,
    }
}

fn pick_layout(p: Platform, cands: &[&'static Layout]) -> Option<&'static Layout> {
    cands.iter().copied().find(|l| l.gens_contain(p))
}

fn build(p: Platform) -> Plans {
    use enc::*;
    let reg_view = pick_layout(p, &[&gen7_compaction::LAYOUT, &gen8_compaction::LAYOUT])
        .unwrap_or(&gen7_compaction::LAYOUT);
    let imm_view = pick_layout(
        p,
        &[&gen7_compaction_imm::LAYOUT, &gen8_compaction_imm::LAYOUT],
    )
    .unwrap_or(&gen7_compaction_imm::LAYOUT);
    let three_view = pick_layout(
        p,
        &[
            &gen8_compaction_3src_bdw::LAYOUT,
            &gen8_compaction_3src_chv::LAYOUT,
        ],
    );
    let three = match (three_view, pick_layout(p, &[&compact_3src::LAYOUT])) {
        (Some(v), Some(o)) => Some(plan(p, v, o, true)),
        _ => None,
    };
    Plans {
        reg: plan(p, reg_view, &compact_2src::LAYOUT, false),
        imm: plan(p, imm_view, &compact_imm::LAYOUT, false),
        three,
        opcode: &compact_2src::OPCODE,
        cmpt: &compact_2src::CMPT_CONTROL,
    }
}

/// Whether `p` has a compact form for three-source instructions (enc.compact.3src and its
/// views enc.gen8.compaction-3src-bdw / -chv: Gen8 and later).
pub fn has_three_src_compaction(p: Platform) -> bool {
    plans(p).three.is_some()
}

fn plans(p: Platform) -> &'static Plans {
    static PLANS: [OnceLock<Plans>; 6] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    PLANS[p as usize].get_or_init(|| build(p))
}

/// `v` (a `bits`-bit value) sign-extended to 64 bits, then truncated to 32.
fn sign_extend32(v: u64, bits: u8) -> u64 {
    let bits = u32::from(bits.clamp(1, 32));
    let shift = 64 - bits;
    ((((v << shift) as i64) >> shift) as u64) & u64::from(u32::MAX)
}

fn mask(bits: u8) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Compact `word` with `plan`, keeping the bits of `care` (all bits: the exact compaction;
/// see [`compact_masked`]).
fn run_compact(plan: &Plan, word: u128, care: u128) -> Option<u64> {
    if word & care & plan.view_reserved != 0 {
        return None;
    }
    let mut out: u128 = 0;
    for &(f, src) in &plan.steps {
        let v = match src {
            Src::Table(t, vf) => {
                let v = vf.get(word);
                match t.index_of(v) {
                    Some(i) => i as u64,
                    None => {
                        // The first entry equal to the value in the bits that matter.
                        let c = vf.get(care);
                        t.entries.iter().position(|&e| (e ^ v) & c == 0)? as u64
                    }
                }
            }
            Src::Copy(vf) => {
                let mut v = vf.get(word);
                if !f.fits(v) {
                    v &= vf.get(care);
                    if !f.fits(v) {
                        return None;
                    }
                }
                v
            }
            Src::Cmpt(_) => 1,
            Src::Imm(vf) => {
                let imm = vf.get(word);
                let low = imm & mask(f.width);
                if (sign_extend32(low, f.width) ^ imm) & vf.get(care) != 0 {
                    return None;
                }
                low
            }
        };
        f.set(&mut out, v);
    }
    u64::try_from(out).ok()
}

/// Compact a native instruction word, if `p`'s compaction tables can represent it exactly:
/// `uncompact(compact(w)?, p) == Ok(w)` always holds. `None` when the instruction has no compact
/// form (see the module documentation for the conditions).
pub fn compact(word: u128, p: Platform) -> Option<u64> {
    compact_masked(word, u128::MAX, p)
}

/// [`compact`] up to the bits outside `care`: a compact word whose uncompacted form equals
/// `word` in every bit of `care` (and has zeros in the view's reserved bits), choosing for
/// each table index the value itself when the table holds it, else its first entry that
/// agrees with it in `care`. For bits an instruction's meaning does not depend on
/// (`crate::codec::dont_care`): the implicit operands' fields, which Mesa's and the
/// assembler's encodings fill differently from the table entries of a compact word.
pub fn compact_masked(word: u128, care: u128, p: Platform) -> Option<u64> {
    let s = select::set(p);
    let c = plans(p);
    if c.cmpt.get(word) != 0 {
        return None;
    }
    let exact = care == u128::MAX;
    match s.form(word) {
        Form::Unknown => None,
        Form::ThreeSrc => run_compact(c.three.as_ref()?, word, care),
        form => {
            // Mesa leaves end-of-thread sends native; a compact word may still hold one.
            if exact && form == Form::Send && s.eot.is_some_and(|f| f.get(word) != 0) {
                return None;
            }
            let plan = |w: u128| {
                if s.has_valid_imm(w) {
                    &c.imm
                } else {
                    &c.reg
                }
            };
            if exact {
                return run_compact(plan(word), word, care);
            }
            // The uncompacted word must agree with `word` in `care` (the view it is expanded
            // with follows from the register files the data type entry gives).
            let agrees = |r: u64| uncompact(r, p).is_ok_and(|n| (n ^ word) & care == 0);
            if let Some(r) = run_compact(plan(word), word, care).filter(|&r| agrees(r)) {
                return Some(r);
            }
            // The register files choose the view (immediate or not) and may be don't-care
            // (a branch's implicit operands): try each data type entry (which holds them)
            // that agrees with the word.
            let (t, vf) = c.reg.steps.iter().find_map(|&(f, src)| match src {
                Src::Table(t, vf) if f.name == "datatype_index" => Some((t, vf)),
                _ => None,
            })?;
            let (v, cv, fb) = (vf.get(word), vf.get(care), field_bits(vf));
            for &e in t.entries {
                if (e ^ v) & cv != 0 || e == v {
                    continue;
                }
                let mut w = word;
                vf.set(&mut w, e);
                if let Some(r) = run_compact(plan(w), w, care | fb).filter(|&r| agrees(r)) {
                    return Some(r);
                }
            }
            None
        }
    }
}

/// The bits of field `f`.
fn field_bits(f: &BitField) -> u128 {
    let mut m = 0u128;
    f.set(&mut m, u64::MAX);
    m
}

fn run_uncompact(plan: &Plan, w: u128) -> Result<u128, EncodingError> {
    let set = w & plan.out_reserved;
    if set != 0 {
        return Err(EncodingError::reserved_bits(set));
    }
    let mut native: u128 = 0;
    for step in &plan.expand {
        let (f, src) = match step {
            Expand::Bits {
                f,
                fast,
                mask,
                bits,
            } => {
                let v = fast.get(w);
                let b = bits
                    .get(v as usize)
                    .ok_or_else(|| EncodingError::at(ErrorKind::ReservedValue, f, v))?;
                native = (native & !mask) | b;
                continue;
            }
            Expand::Step(f, src) => (*f, *src),
        };
        uncompact_step(f, src, w, &mut native)?;
    }
    Ok(native)
}

/// One step of uncompaction: compact field `f` of `w` into `native` as `src` says.
fn uncompact_step(
    f: &'static BitField,
    src: Src,
    w: u128,
    native: &mut u128,
) -> Result<(), EncodingError> {
    let v = f.get(w);
    match src {
        Src::Table(t, vf) => {
            let e = usize::try_from(v)
                .ok()
                .and_then(|i| t.entries.get(i))
                .copied()
                .ok_or(EncodingError::at(ErrorKind::ReservedValue, f, v))?;
            vf.set(native, e);
        }
        Src::Copy(vf) => vf.set(native, v),
        Src::Cmpt(vf) => vf.set(native, 0),
        Src::Imm(vf) => vf.set(native, sign_extend32(v, f.width)),
    }
    Ok(())
}

/// Expand a compact instruction word to its native form on `p`. Errors: CmptCtrl not set, an
/// opcode unknown on `p` (or a three-source opcode before Gen8, which has no compact
/// three-source form), reserved compact bits set.
pub fn uncompact(word: u64, p: Platform) -> Result<u128, EncodingError> {
    let s = select::set(p);
    let c = plans(p);
    let w = u128::from(word);
    if c.cmpt.get(w) != 1 {
        return Err(EncodingError::at(ErrorKind::NotCompact, c.cmpt, 0));
    }
    let n = c.opcode.get(w);
    if Opcode::from_number(p, (n & 0x7f) as u8).is_none() {
        return Err(EncodingError::at(ErrorKind::UnknownOpcode, c.opcode, n));
    }
    // The opcode sits at the same bits in the native and compact forms.
    if s.form(w) == Form::ThreeSrc {
        return match &c.three {
            Some(plan) => run_uncompact(plan, w),
            None => Err(EncodingError::at(ErrorKind::Malformed, c.opcode, n)),
        };
    }
    // The register files (and so the immediate form) come out of the data type table.
    let native = run_uncompact(&c.reg, w)?;
    if s.has_valid_imm(native) {
        run_uncompact(&c.imm, w)
    } else {
        Ok(native)
    }
}

/// Mesa's `precompact` (elk_eu_compact.c for Gen7/Gen8, brw_eu_compact.c for Gen9): type
/// rewrites that leave an instruction's behaviour unchanged but let more instructions with an
/// immediate src0 compact. Applied by Mesa's assembler before [`compact`]; the compacted form
/// then uncompacts to the rewritten word, not to the original. Only instructions whose src0 is
/// an immediate are changed:
/// - src1's type becomes UD (the compaction tables only map `imm:* | a:ud`), except for 64-bit
///   immediates (their bits overlap the src1 fields) and Haswell's `dim`;
/// - Gen9: `mov`-like `dst:F <- 0.0:F` with dst stride 1 takes the immediate as VF (0.0 as a
///   packed vector is still 0.0);
/// - `dst:D <- imm:D` without a condition modifier, whose immediate compacts, becomes
///   `dst:UD <- imm:UD` (same bits).
pub fn precompact(word: u128, p: Platform) -> u128 {
    use crate::spec::DataType;
    use enc::{gen7_a1_imm, gen8_a1_imm};
    let s = select::set(p);
    let l = if gen7_a1_imm::LAYOUT.gens.contains(p) {
        &gen7_a1_imm::LAYOUT
    } else {
        &gen8_a1_imm::LAYOUT
    };
    let (Some(f0), Some(t0), Some(t1), Some(td), Some(cm), Some(hs), Some(imm)) = (
        l.field("src0_reg_file"),
        l.field("src0_reg_type"),
        l.field("src1_reg_type"),
        l.field("dst_reg_type"),
        l.field("cond_modifier"),
        l.field("dst_hstride"),
        l.field("imm"),
    ) else {
        return word;
    };
    if f0.get(word) != s.imm_file || matches!(s.form(word), Form::ThreeSrc | Form::Unknown) {
        return word;
    }
    let mut w = word;
    let enc_of = |t: Option<u8>| t.map(u64::from);
    let src0 = DataType::from_imm_enc(p, t0.get(w) as u8);
    let dst = DataType::from_reg_enc(p, td.get(w) as u8);
    let is_dim = Opcode::from_number(p, (s.opcode.get(w) & 0x7f) as u8) == Some(Opcode::Dim);
    if !is_dim && !src0.is_some_and(|t| t.bits() == 64) {
        if let Some(ud) = enc_of(DataType::UD.reg_enc(p)) {
            t1.set(&mut w, ud);
        }
    }
    let none = enc::values::COND_MODIFIER.value("none");
    let one = enc::values::HSTRIDE.value("1");
    if p.gen_x10() >= 90
        && imm.get(w) == 0
        && src0 == Some(DataType::F)
        && dst == Some(DataType::F)
        && Some(hs.get(w)) == one
    {
        if let Some(vf) = enc_of(DataType::VF.imm_enc(p)) {
            t0.set(&mut w, vf);
        }
    }
    let v = imm.get(w);
    let imm_bits = enc::compact_imm::IMM.width;
    if sign_extend32(v & mask(imm_bits), imm_bits) == v
        && Some(cm.get(w)) == none
        && src0 == Some(DataType::D)
        && dst == Some(DataType::D)
    {
        if let (Some(i), Some(r)) = (
            enc_of(DataType::UD.imm_enc(p)),
            enc_of(DataType::UD.reg_enc(p)),
        ) {
            t0.set(&mut w, i);
            td.set(&mut w, r);
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Uncompaction through the plan's steps one field at a time (the reference for the
    /// pre-placed [`Expand`] steps).
    fn by_steps(plan: &Plan, w: u128) -> Result<u128, EncodingError> {
        let set = w & plan.out_reserved;
        if set != 0 {
            return Err(EncodingError::reserved_bits(set));
        }
        let mut native: u128 = 0;
        for &(f, src) in &plan.steps {
            uncompact_step(f, src, w, &mut native)?;
        }
        Ok(native)
    }

    #[test]
    fn pre_placed_steps_match_field_steps() {
        let mut next = crate::test_rng::xorshift(0x0DDB_1A5E_5BAD_5EEDu64);
        let mut ok = 0;
        for p in Platform::ALL {
            let c = plans(p);
            let all = [Some(&c.reg), Some(&c.imm), c.three.as_ref()];
            for plan in all.into_iter().flatten() {
                for _ in 0..20_000 {
                    let mut w = u128::from(next());
                    if next() % 4 != 0 {
                        w &= !plan.out_reserved;
                    }
                    let want = by_steps(plan, w);
                    ok += usize::from(want.is_ok());
                    assert_eq!(run_uncompact(plan, w), want, "{p:?} {w:#x}");
                }
            }
        }
        assert!(ok > 10_000, "{ok}");
    }
}
