//! Gen9 send / sendc: the src0 region (and src1 type) bits are also ExDesc[31:16], with either
//! descriptor form and in either access mode (enc.gen9.send-a1-ex-desc,
//! enc.gen9.send-reg-a1-ex-desc, enc.gen9.send-a16-ex-desc, enc.gen9.send-reg-a16-ex-desc).
//! Mesa's text gives the region, IGA's the extended descriptor; the text parsers settle an
//! instruction so that both views agree, as the decoder gives them.

use crate::isa::{Insn, SendDesc};
use crate::spec::Platform;

/// Make `i`'s src0 and ExDesc[31:16] the two views of the same bits: the word `i` encodes to,
/// decoded again. `ex_desc_wins` (IGA and PRM text, whose exdesc operand is the field): the
/// bits are ExDesc[31:16] even when it is 0; otherwise (Mesa text, whose src0 region is the
/// field) a zero ExDesc[31:16] leaves the region's bits. Unchanged where the instruction does
/// not encode or decode (the encoder then reports why) or has no such bits.
pub fn settle_send_ex_desc(i: &mut Insn, p: Platform, ex_desc_wins: bool) {
    let Some(s) = i.send else { return };
    if i.is_split_send() {
        return;
    }
    let SendDesc::Imm(mut ex) = s.ex_desc else {
        return;
    };
    // Mesa's number beside a register descriptor is the instruction's last dword, not an
    // extended descriptor (enc.gen9.send-reg-a1-ex-desc): the model holds none for it.
    if !ex_desc_wins && ex != 0 && mesa_send_last_dword(i, p) == Some(ex) {
        ex = 0;
        i.send = Some(crate::isa::SendInfo {
            ex_desc: SendDesc::Imm(0),
            ..s
        });
    }
    let Some(s) = i.send else { return };
    let Ok(mut w) = super::encode_word(i, p) else {
        return;
    };
    let Some(l) = super::fields::tabs(p).select(w) else {
        return;
    };
    if l.ex_desc.is_empty() {
        return;
    }
    // A number beside a register descriptor with bits outside ExDesc[31:16] is Mesa's last
    // dword (enc.gen9.send-reg-a1-ex-desc), which the encoder checked and which sets nothing.
    if ex_desc_wins && ex & !l.ex_desc_mask == 0 {
        for &(d, f) in &l.ex_desc {
            f.set(&mut w, d.get(u128::from(ex)));
        }
    }
    let Ok(d) = super::decode_word(w, p) else {
        return;
    };
    if let Some(ds) = d.send {
        if ds.ex_desc != s.ex_desc || d.src[0] != i.src[0] {
            i.src[0] = d.src[0];
            i.send = Some(crate::isa::SendInfo {
                ex_desc: ds.ex_desc,
                ..s
            });
        }
    }
}

/// Whether `i`'s ExDesc[31:16] lies in its src0 region bits on `p`: a send / sendc (either
/// descriptor form, either access mode) on a platform with such layout views (Gen9).
pub fn send_ex_desc_in_src0(i: &Insn, p: Platform) -> bool {
    i.send.is_some()
        && !i.is_split_send()
        && super::fields::tabs(p)
            .lays
            .iter()
            .any(|l| !l.ex_desc.is_empty() && !l.sel_reg32_desc.is_some())
}

/// Whether Mesa's text of `i` shows all of its ExDesc[31:16] through the src0 region on `p`
/// (then the number is left out, as Mesa's disassembler leaves it): ExDesc[31:28] (src1's
/// type bits, not printed beside an immediate) is 0 and the src0 subregister (ExDesc[19:16]
/// holds its low bits) is a whole number of elements.
pub fn send_ex_desc_shown_by_region(i: &Insn, p: Platform) -> bool {
    let (Some(s), Some(crate::isa::Src::Reg(r))) = (i.send, i.src[0]) else {
        return false;
    };
    let crate::isa::Addr::Direct { sub, .. } = r.addr else {
        return false;
    };
    send_ex_desc_in_src0(i, p)
        && matches!(s.ex_desc, SendDesc::Imm(v) if v >> 28 == 0)
        && u32::from(sub) % r.ty.bytes().max(1) == 0
}

/// Mesa's number beside a register descriptor of a send / sendc on `p`: the instruction's
/// last dword (src1's register fields and EOT), without the SFID and EOT bits of the extended
/// descriptor (enc.ex-desc), which Mesa's disassembler prints where IGA prints the extended
/// descriptor (enc.gen9.send-reg-a1-ex-desc). None for other instructions or where `i` does
/// not encode.
pub fn mesa_send_last_dword(i: &Insn, p: Platform) -> Option<u32> {
    let s = i.send?;
    if i.is_split_send() || !matches!(s.desc, SendDesc::A0(_)) {
        return None;
    }
    let w = super::encode_word(i, p).ok()?;
    let t = super::fields::tabs(p);
    let last = t.lays.get(t.a1_imm)?.imm;
    last.is_some()
        .then(|| last.get(w) as u32 & !t.ex_desc_elsewhere)
}
