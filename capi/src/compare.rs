//! Comparing a design's GRF register with euref's after a step (euref_compare_grf): equal on
//! every byte euref holds defined and exact, or a report of the differing channels (elements
//! of the last instruction's destination; bytes when it did not write that register) and the
//! spec rows the last instruction exercised.

use crate::session::Session;
use euref::asm::{self, Dialect, PrintOptions};
use euref::isa::{Addr, Reg};

/// The comparison: `None` when equal, the report otherwise.
pub fn compare_grf(s: &Session, reg: usize, actual: &[u8]) -> Option<String> {
    let st = s.state();
    let rb = st.grf_reg_bytes();
    let base = reg * rb;
    let grf = st.grf_bytes();
    let differing: Vec<usize> = (0..rb.min(actual.len()))
        .filter(|&k| {
            let o = base + k;
            !st.grf_byte_undefined(o) && !st.grf_byte_inexact(o) && grf[o] != actual[k]
        })
        .collect();
    if differing.is_empty() {
        return None;
    }
    let hex = |b: &[u8]| {
        b.iter()
            .rev()
            .map(|x| format!("{x:02x}"))
            .collect::<String>()
    };
    let mut out = format!("r{reg} differs from euref");
    let last = s.last();
    // The destination's elements: channel n at byte start + n * stride, `size` bytes.
    let dst = last.and_then(|l| l.insn.as_ref()).and_then(|i| {
        let d = i.dst.as_ref()?;
        let Addr::Direct {
            reg: Reg::Grf(r),
            sub,
        } = d.addr
        else {
            return None;
        };
        let size = d.ty.bytes() as usize;
        let stride = size * usize::from(d.hstride.max(1));
        Some((
            usize::from(r) * rb + usize::from(sub),
            size,
            stride,
            usize::from(i.exec_size),
        ))
    });
    let mut channels: Vec<(usize, usize)> = Vec::new();
    if let Some((start, size, stride, n)) = dst {
        for &k in &differing {
            let g = base + k;
            if g >= start && (g - start) % stride < size && (g - start) / stride < n {
                let ch = (g - start) / stride;
                if !channels.iter().any(|c| c.0 == ch) {
                    channels.push((ch, start + ch * stride - base));
                }
            }
        }
    }
    if channels.is_empty() || dst.is_none() {
        let list: Vec<String> = differing
            .iter()
            .map(|&k| {
                format!(
                    "byte {k}: euref {:02x}, design {:02x}",
                    grf[base + k],
                    actual[k]
                )
            })
            .collect();
        out += &format!(" on {} byte(s): {}", differing.len(), list.join(", "));
    } else {
        let size = dst.map_or(1, |d| d.1);
        let list: Vec<String> = channels
            .iter()
            .map(|&(ch, off)| {
                let end = (off + size).min(rb).min(actual.len());
                format!(
                    "channel {ch} (bytes {off}..{end}): euref 0x{}, design 0x{}",
                    hex(&grf[base + off..base + end]),
                    hex(&actual[off..end])
                )
            })
            .collect();
        out += &format!(" on {} channel(s): {}", channels.len(), list.join("; "));
    }
    match last {
        None => out += "; no instruction has executed yet",
        Some(l) => {
            let text = l.insn.as_ref().map_or_else(
                || "an opcode undefined on the platform".to_string(),
                |i| {
                    asm::print_insn(
                        i,
                        &PrintOptions {
                            dialect: Dialect::Iga,
                            platform: s.platform(),
                        },
                    )
                },
            );
            out += &format!("; last instruction at IP {:#x}: {}", l.ip, text.trim());
            if let Some(i) = &l.insn {
                let rows = euref::golden::build::rows_exercised(i, s.before(), st, l.enabled);
                if rows.is_empty() {
                    out += "; rows: none listed";
                } else {
                    out += &format!("; rows: {}", rows.join(", "));
                }
            }
        }
    }
    Some(out)
}
