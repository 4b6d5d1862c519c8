//! Assembling a parsed program to instruction bytes (`euref asm -o`/`--hex`, `euref run`, the
//! Python bindings): each instruction encoded native or compact, with the jump offsets
//! re-resolved when compaction moves instructions.

use crate::asm;
use crate::codec;
use crate::isa::{Insn, Src};
use crate::spec::{Opcode, Platform};

/// Assemble a parsed program: each instruction's bytes (16, or 8 when compact). Instructions
/// are compacted where `compact_all` asks or the instruction itself is marked compacted
/// (`{Compacted}`); an instruction marked compacted that has no compact form is an error.
///
/// Compaction moves instructions, so jump offsets (JIP/UIP, and `jmpi`'s immediate, bytes
/// from the next instruction) are re-resolved: an offset is read as pointing at an instruction in the layout the text was
/// written for and rewritten to that instruction's final address. That layout is all-native
/// when `labels` (the assembler resolves labels assuming 16-byte instructions), otherwise
/// the sizes the instructions ask for (8 bytes for `{Compacted}`, as in a disassembly
/// listing). Offsets that land on no instruction there are kept as written.
/// Errors: `(source line, message)`.
pub fn assemble(
    insns: &[Insn],
    lines: &[u32],
    p: Platform,
    compact_all: bool,
    labels: bool,
) -> Result<Vec<Vec<u8>>, Vec<(u32, String)>> {
    let n = insns.len();
    // Bytes per unit of each instruction's jump fields (enc.gen7.jump-unit-bytes /
    // enc.gen8.jump-unit-bytes).
    let bytes_per_unit = |k: usize| i64::from(asm::jump_bytes(insns[k].op, p));
    let line = |k: usize| lines.get(k).copied().unwrap_or(0);
    // Addresses in the layout the offsets were written for.
    let mut written = Vec::with_capacity(n + 1);
    let mut x = 0i64;
    for i in insns {
        written.push(x);
        x += if !labels && i.ctrl.compacted { 8 } else { 16 };
    }
    written.push(x);
    // Jump targets as instruction indices.
    let target = |k: usize, off: Option<i32>| -> Option<usize> {
        let off = i64::from(off?);
        if insns[k].op == Opcode::Jmpi {
            return None;
        }
        // calla's field is an address (flow.calla), the others offsets from the instruction.
        let from = if asm::jip_is_absolute(insns[k].op) {
            0
        } else {
            written[k]
        };
        let a = from + off * bytes_per_unit(k);
        written.binary_search(&a).ok()
    };
    // jmpi's target: its immediate is a byte offset from the next instruction (flow.jmpi).
    let jmpi_target = |k: usize| -> Option<usize> {
        match insns[k].src[1] {
            Some(Src::Imm(m)) if insns[k].op == Opcode::Jmpi => {
                let a = written[k + 1] + i64::from(m.bits as u32 as i32);
                written.binary_search(&a).ok()
            }
            _ => None,
        }
    };
    let targets: Vec<(Option<usize>, Option<usize>)> = (0..n)
        .map(|k| match jmpi_target(k) {
            Some(t) => (Some(t), None),
            None => (target(k, insns[k].jip), target(k, insns[k].uip)),
        })
        .collect();
    let wants = |i: &Insn| compact_all || i.ctrl.compacted;
    let mut errors = vec![];
    // Sizes: start native, compact what can be; instructions with re-resolved jumps are
    // retried with their new offsets until nothing changes.
    let mut size = vec![16i64; n];
    let mut out: Vec<Option<Vec<u8>>> = vec![None; n];
    let mut fixed = vec![false; n];
    for (k, i) in insns.iter().enumerate() {
        let jumps = targets[k].0.is_some() || targets[k].1.is_some();
        if jumps && wants(i) {
            continue;
        }
        fixed[k] = true;
        if wants(i) {
            if let Some(c) = codec::compact(i, p) {
                size[k] = 8;
                out[k] = Some(c.to_vec());
                continue;
            }
        }
        let mut native = i.clone();
        native.ctrl.compacted = false;
        match codec::encode(&native, p) {
            Ok(b) => out[k] = Some(b.to_vec()),
            Err(e) => errors.push((line(k), encode_message(&e, p))),
        }
    }
    let addr_of = |size: &[i64]| -> Vec<i64> {
        let mut a = Vec::with_capacity(n + 1);
        let mut x = 0;
        for s in size {
            a.push(x);
            x += s;
        }
        a.push(x);
        a
    };
    let retarget = |k: usize, addr: &[i64]| -> Insn {
        let mut i = insns[k].clone();
        let (tj, tu) = targets[k];
        if i.op == Opcode::Jmpi {
            if let (Some(t), Some(Src::Imm(m))) = (tj, i.src[1].as_mut()) {
                m.bits = u64::from((addr[t] - addr[k + 1]) as i32 as u32);
            }
            return i;
        }
        if let Some(t) = tj {
            let from = if asm::jip_is_absolute(i.op) {
                0
            } else {
                addr[k]
            };
            i.jip = Some(((addr[t] - from) / bytes_per_unit(k)) as i32);
        }
        if let Some(t) = tu {
            i.uip = Some(((addr[t] - addr[k]) / bytes_per_unit(k)) as i32);
        }
        i
    };
    let mut addr = addr_of(&size);
    for _round in 0..8 {
        let mut changed = false;
        for k in (0..n).filter(|&k| !fixed[k]) {
            let i = retarget(k, &addr);
            let s = if codec::compact(&i, p).is_some() {
                8
            } else {
                16
            };
            if s != size[k] {
                size[k] = s;
                changed = true;
            }
        }
        addr = addr_of(&size);
        if !changed {
            break;
        }
    }
    // Instructions that moved: re-resolve the offsets of every flow instruction.
    for k in 0..n {
        if targets[k] == (None, None) && fixed[k] {
            continue;
        }
        let i = retarget(k, &addr);
        let enc = if size[k] == 8 {
            codec::compact(&i, p).map(|c| c.to_vec()).ok_or_else(|| {
                "no compact form after re-resolving its jump offsets (oscillating layout)"
                    .to_string()
            })
        } else {
            let mut native = i.clone();
            native.ctrl.compacted = false;
            codec::encode(&native, p)
                .map(|b| b.to_vec())
                .map_err(|e| encode_message(&e, p))
        };
        match enc {
            Ok(b) => out[k] = Some(b),
            Err(e) => errors.push((line(k), e)),
        }
    }
    for (k, i) in insns.iter().enumerate() {
        if i.ctrl.compacted && size[k] != 8 && out[k].is_some() {
            let why = if i.is_three_src() && !crate::encoding::has_three_src_compaction(p) {
                format!(
                    " ({} has no compact three-source form: enc.compact.3src is Gen8+)",
                    p.name()
                )
            } else {
                " (no entry of the platform's compaction tables holds its fields; remove \
                 {Compacted})"
                    .to_string()
            };
            errors.push((
                line(k),
                format!("the instruction is marked {{Compacted}} but has no compact form{why}"),
            ));
        }
    }
    if !errors.is_empty() {
        errors.sort();
        errors.dedup();
        return Err(errors);
    }
    Ok(out.into_iter().map(Option::unwrap_or_default).collect())
}

/// An encoding error as `euref asm` reports it: a data type that has no encoding on `p` is
/// named with the platforms where it has one.
pub fn encode_message(e: &codec::EncodeError, p: Platform) -> String {
    let Some(t) = e.ty else {
        return e.to_string();
    };
    let imm = e.reason.starts_with("immediate");
    let on = |q: Platform| {
        if imm {
            t.imm_enc(q).is_some()
        } else {
            t.reg_enc(q).is_some()
        }
    };
    let there: Vec<&str> = Platform::ALL
        .iter()
        .filter(|&&q| on(q))
        .map(|q| q.name())
        .collect();
    let what = if imm { "an immediate" } else { "a register" };
    let elsewhere = if there.is_empty() {
        String::new()
    } else {
        format!(" (it is on {})", there.join(", "))
    };
    format!(
        "{}: type {} is not {what} type on {}{elsewhere}",
        e.field,
        t.name(),
        p.name()
    )
}
