//! The bits of a native word that a text round trip (decode, print, parse, encode) need not
//! give back: [`dont_care`].
//!
//! Two kinds, both derived from the fields of the word's layout rows (spec/encoding), never
//! from a hand-written bit list:
//!
//! 1. **Fields decode does not read.** A field of the layout (or of the `*-ind` layout of an
//!    operand under indirect addressing) is ignored when no other value of it changes the
//!    decoded instruction: every other value (all of them for fields of up to 4 bits; zero,
//!    all ones and each single-bit change for wider ones) decodes to the same instruction or
//!    is refused, and at least one decodes (values that choose another layout count only
//!    when no other value keeps the layout: they give the other fields another meaning). These are the implicit operands of
//!    spec/encoding/implicit.toml (structured-flow `null`/`ip` operands, `wait`'s source, ...),
//!    the operand fields of instructions with fewer sources than the layout has (`mov`'s
//!    src1, `nop`'s and `illegal`'s operands), the region fields of an immediate source, the
//!    UIP field of JIP-only branches, Haswell `dim`'s src0 type (the immediate is read as 64
//!    bits typed F whatever the field says), and the like. Jointly: the fields in which the
//!    word differs from the encoder's word for its instruction (a register file whose other
//!    values lay the other ignored bits out differently).
//! 2. **Fields the text cannot carry** (what the printers leave out, so the assembler writes
//!    its default):
//!    - `flag_reg_nr` / `flag_subreg_nr` when there is neither a predicate nor a conditional
//!      modifier (no syntax shows a flag register then);
//!    - `pred_inv` when there is no predicate;
//!    - the low bits of a direct register operand's subregister field below the operand's
//!      type size (subregisters are written in elements of the type: byte offset 9 of a `:w`
//!      operand prints as element 4, offset 8; a misaligned operand breaks the rules
//!      align.src-natural / align.dst-natural, seed000 §2.1).

use super::decode::decode_word;
use crate::encoding::{layout_for, operand_layout, Operand};
use crate::isa::{Addr, Insn, Src};
use crate::spec::encoding::{BitField, Layout};
use crate::spec::{CondMod, DataType, Platform, PredCtrl};

/// The bits of native word `w` that a text round trip need not preserve on `p` (see the
/// module documentation); 0 when `w` does not decode.
pub fn dont_care(w: u128, p: Platform) -> u128 {
    let Ok(insn) = decode_word(w, p) else {
        return 0;
    };
    ignored(w, p, &insn) | rewritten(w, p, &insn) | text_limits(w, p, &insn)
}

/// Kind 1, jointly: the fields in which `w` differs from the encoder's word for the same
/// instruction (which decodes to it: the codec's round trip), such as a register file that
/// chooses another layout for bits that are ignored as well.
fn rewritten(w: u128, p: Platform, insn: &Insn) -> u128 {
    let Ok(c) = super::encode_word(insn, p) else {
        return 0;
    };
    if c == w || decode_word(c, p).ok().as_ref() != Some(insn) {
        return 0;
    }
    let mut m = 0u128;
    for l in layouts(w, p) {
        for f in l.fields {
            if f.get(w) != f.get(c) {
                m |= bits(f);
            }
        }
    }
    m
}

/// The bits of `f`.
fn bits(f: &BitField) -> u128 {
    let mut m = 0u128;
    f.set(&mut m, u64::MAX);
    m
}

/// The layouts whose fields decode reads for `w`: the word's, and the `*-ind` layouts of
/// operands under indirect addressing.
fn layouts(w: u128, p: Platform) -> Vec<&'static Layout> {
    let mut v = vec![layout_for(w, p)];
    for o in [Operand::Dst, Operand::Src0, Operand::Src1] {
        let l = operand_layout(w, p, o);
        if !v.iter().any(|x| std::ptr::eq(*x, l)) {
            v.push(l);
        }
    }
    v
}

/// Kind 1: fields whose other values decode to `insn` or are refused.
fn ignored(w: u128, p: Platform, insn: &Insn) -> u128 {
    let mut m = 0u128;
    let mut seen = 0u128;
    let own = layout_for(w, p);
    for l in layouts(w, p) {
        for f in l.fields {
            let fb = bits(f);
            if matches!(f.name, "opcode" | "cmpt_control") || fb & !seen == 0 {
                continue;
            }
            seen |= fb;
            let cur = f.get(w);
            let all = if f.width >= 64 {
                u64::MAX
            } else {
                (1u64 << f.width) - 1
            };
            let mut tries: Vec<u64> = if f.width <= 4 {
                (0..=all).collect()
            } else {
                let mut t = vec![0, all];
                t.extend((0..f.width).map(|b| cur ^ 1 << b));
                t
            };
            tries.retain(|&v| v != cur);
            // Values that choose another layout (a 64-bit immediate type, an immediate file)
            // give other fields another meaning: they decide only when no value keeps the
            // layout (a register file that only chooses how ignored bits are laid out).
            let (mut here, mut there): (Vec<u128>, Vec<u128>) = (vec![], vec![]);
            for v in tries {
                let mut x = w;
                f.set(&mut x, v);
                if std::ptr::eq(layout_for(x, p), own) {
                    here.push(x);
                } else {
                    there.push(x);
                }
            }
            let words = if here.is_empty() { there } else { here };
            let mut same = false;
            let mut differs = false;
            for x in words {
                match decode_word(x, p) {
                    Ok(i) if i == *insn => same = true,
                    Ok(_) => {
                        differs = true;
                        break;
                    }
                    Err(_) => {}
                }
            }
            if same && !differs {
                m |= fb;
            }
        }
    }
    m
}

/// The operand prefixes of field names, by operand (dst, src0, src1, src2).
const PREFIXES: [&str; 4] = ["dst_", "src0_", "src1_", "src2_"];

/// The subregister field names and their units in bytes (the naming convention of
/// spec/encoding, see `fields.rs`).
const SUBREG_FIELDS: [(&str, u32); 4] = [
    ("subreg_nr", 1),
    ("subreg2", 2),
    ("subreg4", 4),
    ("subreg16", 16),
];

/// Kind 2: what the text cannot carry.
fn text_limits(w: u128, p: Platform, insn: &Insn) -> u128 {
    let l = layout_for(w, p);
    let field = |n: &str| l.field(n).map_or(0, bits);
    let mut m = 0u128;
    if insn.pred == PredCtrl::None {
        m |= field("pred_inv");
        if insn.cmod == CondMod::None {
            m |= field("flag_reg_nr") | field("flag_subreg_nr");
        }
    }
    for (k, pre) in PREFIXES.iter().enumerate() {
        let ty = match k {
            0 => insn
                .dst
                .as_ref()
                .filter(|d| matches!(d.addr, Addr::Direct { .. }))
                .map(|d| d.ty),
            _ => match insn.src[k - 1] {
                Some(Src::Reg(r)) if matches!(r.addr, Addr::Direct { .. }) => Some(r.ty),
                _ => None,
            },
        };
        let Some(ty) = ty else { continue };
        for (name, unit) in SUBREG_FIELDS {
            if let Some(f) = l.field(&format!("{pre}{name}")) {
                m |= low_bits(f, ty, unit);
            }
        }
    }
    m
}

/// The bits of subregister field `f` (in `unit`-byte units) below the size of `ty`.
fn low_bits(f: &BitField, ty: DataType, unit: u32) -> u128 {
    let size = ty.bytes().max(1);
    if size <= unit {
        return 0;
    }
    let n = (size / unit).trailing_zeros().min(u32::from(f.width));
    let mut m = 0u128;
    f.set(&mut m, (1u64 << n) - 1);
    m
}
