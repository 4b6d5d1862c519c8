//! The final state of `euref run` as a readable diff from the initial state.
//!
//! For each GRF register with a changed byte (value or undefined flag) or a byte written by a
//! direct destination: its elements in the type of the last instruction that wrote it directly
//! (UD otherwise), as values and as hex bits, 8 per line; elements with no changed or written
//! byte show `.`, undefined bytes `??` (an element with an undefined byte shows `??` as its
//! value). A `was` line gives the previous values of
//! the changed elements when any of them was defined. ARF registers (flags, accumulators, a0,
//! cr0, sr0, ip, ...) with a changed bit show their dwords in hex, `?` for a nibble with an
//! undefined bit.
//!
//! Inexact values (row math.inexact: the model's value within the bound of the math row that
//! produced it, or computed from one) show `~` before the element's value, and an ARF register
//! with inexact bits adds their mask (`~` and the dwords, `0` nibbles exact); a legend line
//! follows when any is shown.

use euref::isa::{Addr, Insn, Reg};
use euref::spec::DataType;
use euref::state::ThreadState;
use std::fmt::Write;

/// What the program's direct GRF destinations covered: the type each register was last
/// written with, and which bytes (bit b = byte b of the register).
#[derive(Debug, Clone)]
pub struct WriteTypes {
    ty: Vec<Option<DataType>>,
    bytes: Vec<u32>,
}

impl Default for WriteTypes {
    fn default() -> Self {
        WriteTypes {
            ty: vec![None; 128],
            bytes: vec![0; 128],
        }
    }
}

impl WriteTypes {
    /// Note the registers `insn`'s direct GRF destination covers.
    pub fn record(&mut self, insn: &Insn) {
        let Some(d) = insn.dst else { return };
        let Addr::Direct {
            reg: Reg::Grf(n),
            sub,
        } = d.addr
        else {
            return;
        };
        let size = d.ty.bytes().max(1) as usize;
        let n_ch = usize::from(insn.exec_size.max(1));
        let stride = usize::from(d.hstride.max(1));
        let base = 32 * usize::from(n) + usize::from(sub);
        for ch in 0..n_ch {
            for k in 0..size {
                let b = base + ch * stride * size + k;
                if let (Some(t), Some(m)) = (self.ty.get_mut(b / 32), self.bytes.get_mut(b / 32)) {
                    *t = Some(d.ty);
                    *m |= 1 << (b % 32);
                }
            }
        }
    }

    fn written(&self, reg: usize, byte: usize) -> bool {
        self.bytes.get(reg).is_some_and(|m| (m >> byte) & 1 == 1)
    }

    fn get(&self, reg: usize) -> DataType {
        self.ty.get(reg).copied().flatten().unwrap_or(DataType::UD)
    }
}

/// One element's value as text (`??` when any byte is undefined).
fn value_text(t: DataType, bits: u64) -> String {
    let size = t.bytes() as usize;
    let sext = |b: u64| -> i64 {
        let sh = 64 - 8 * size as u32;
        ((b << sh) as i64) >> sh
    };
    match t {
        DataType::F => fmt_float(
            f64::from(f32::from_bits(bits as u32)),
            f32::from_bits(bits as u32).is_nan(),
        ),
        DataType::DF => fmt_float(f64::from_bits(bits), f64::from_bits(bits).is_nan()),
        DataType::HF => {
            let r =
                euref::fp::convert::<euref::fp::Hf, euref::fp::F64>(bits, euref::fp::Round::Rtne);
            let v = f64::from_bits(r.bits);
            fmt_float(v, v.is_nan())
        }
        DataType::B | DataType::W | DataType::D | DataType::Q => sext(bits).to_string(),
        _ => bits.to_string(),
    }
}

fn fmt_float(v: f64, nan: bool) -> String {
    if nan {
        "nan".into()
    } else {
        format!("{v}")
    }
}

/// Write the diff of `after` from `before`.
pub fn write(out: &mut String, before: &ThreadState, after: &ThreadState, types: &WriteTypes) {
    let rb = after.grf_reg_bytes();
    let mut any = false;
    let mut any_inexact = false;
    for reg in 0..after.grf_size() / rb {
        let o = reg * rb;
        let byte = |s: &ThreadState, i: usize| (s.grf_bytes()[i], s.grf_byte_undefined(i));
        let changed: Vec<bool> = (o..o + rb)
            .map(|i| {
                let (a, ua) = byte(before, i);
                let (b, ub) = byte(after, i);
                let inexact = before.grf_byte_inexact(i) != after.grf_byte_inexact(i);
                ua != ub || (!ub && (a != b || inexact))
            })
            .collect();
        let nchanged = changed.iter().filter(|c| **c).count();
        // Shown: changed bytes and bytes a destination wrote (even with the same value).
        let shown: Vec<bool> = (0..rb)
            .map(|b| changed[b] || types.written(reg, b))
            .collect();
        if !shown.iter().any(|s| *s) {
            continue;
        }
        any = true;
        let t = types.get(reg);
        let size = t.bytes() as usize;
        let was_undef = (o..o + rb).all(|i| before.grf_byte_undefined(i));
        let _ = writeln!(
            out,
            "r{reg}:{}  {nchanged} of {rb} bytes changed{}",
            t.name().to_ascii_lowercase(),
            if was_undef { " (was undefined)" } else { "" }
        );
        let elems = rb / size;
        // (value, hex, was) per element; None when the element did not change.
        let cells: Vec<Option<(String, String, String)>> = (0..elems)
            .map(|e| {
                if !shown[e * size..(e + 1) * size].iter().any(|c| *c) {
                    return None;
                }
                let show = |s: &ThreadState| {
                    let mut bits = 0u64;
                    let mut hex = String::new();
                    let mut undef = false;
                    let mut inexact = false;
                    for k in (0..size).rev() {
                        let (b, u) = byte(s, o + e * size + k);
                        undef |= u;
                        inexact |= s.grf_byte_inexact(o + e * size + k);
                        bits = (bits << 8) | u64::from(b);
                        if u {
                            hex.push_str("??");
                        } else {
                            let _ = write!(hex, "{b:02x}");
                        }
                    }
                    let v = if undef {
                        "??".to_string()
                    } else if inexact {
                        format!("~{}", value_text(t, bits))
                    } else {
                        value_text(t, bits)
                    };
                    (v, hex)
                };
                let (v, hex) = show(after);
                any_inexact |= v.starts_with('~');
                let (wv, _) = show(before);
                Some((v, hex, wv))
            })
            .collect();
        let show_was = !was_undef && cells.iter().flatten().any(|(_, _, w)| w != "??");
        let per_line = 8;
        for chunk in (0..elems).step_by(per_line) {
            let idx: Vec<usize> = (chunk..(chunk + per_line).min(elems)).collect();
            let width = idx
                .iter()
                .map(|e| match &cells[*e] {
                    Some((v, h, w)) => v.len().max(h.len()).max(w.len()),
                    None => 1,
                })
                .max()
                .unwrap_or(1);
            let row = |f: &dyn Fn(&(String, String, String)) -> String| -> String {
                idx.iter()
                    .map(|e| {
                        let s = cells[*e].as_ref().map_or(".".to_string(), f);
                        format!("{s:>width$}")
                    })
                    .collect::<Vec<_>>()
                    .join("  ")
            };
            if idx.iter().all(|e| cells[*e].is_none()) {
                continue;
            }
            let _ = writeln!(out, "  [{chunk:>2}] {}", row(&|c| c.0.clone()));
            let _ = writeln!(out, "   hex {}", row(&|c| c.1.clone()));
            if show_was {
                let _ = writeln!(out, "   was {}", row(&|c| c.2.clone()));
            }
        }
    }
    // ARF registers.
    for (i, r) in after.arf_layout().regs.iter().enumerate() {
        let (Some((ab, au)), Some((bb, bu))) = (after.arf_reg(i), before.arf_reg(i)) else {
            continue;
        };
        let dwords = r.bytes.div_ceil(4);
        let dword = |bytes: &[u8], d: usize| {
            (0..4).fold(0u32, |w, k| {
                w | (u32::from(bytes.get(4 * d + k).copied().unwrap_or(0)) << (8 * k))
            })
        };
        let inexact = |s: &ThreadState| -> Vec<u32> {
            (0..dwords)
                .map(|d| s.arf_inexact(&r.name, d).unwrap_or(0))
                .collect()
        };
        let (ai, bi) = (inexact(after), inexact(before));
        let changed = ai != bi
            || (0..dwords).any(|d| {
                let (a, ua) = (dword(ab, d), au[d]);
                let (b, ub) = (dword(bb, d), bu[d]);
                ua != ub || (a ^ b) & !ua != 0
            });
        if !changed {
            continue;
        }
        any = true;
        let show = |bytes: &[u8], und: &[u32]| -> String {
            (0..dwords)
                .map(|d| nibbles(dword(bytes, d), und[d]))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let marks = if ai.iter().any(|m| *m != 0) {
            any_inexact = true;
            let m: Vec<String> = ai.iter().map(|m| format!("{m:08x}")).collect();
            format!("  ~{}", m.join(" "))
        } else {
            String::new()
        };
        let _ = writeln!(out, "{}  {}{marks}", r.name, show(ab, &au));
        let _ = writeln!(
            out,
            "{}  {}  (was)",
            " ".repeat(r.name.len()),
            show(bb, &bu)
        );
    }
    if !any {
        out.push_str("no register changed\n");
    }
    if any_inexact {
        let _ = writeln!(
            out,
            "~ inexact: the model's value, within the bound of the math row that produced it or \
             computed from such a value ({})",
            euref::spec::math::INEXACT.id
        );
    }
}

/// A dword in hex, `?` for a nibble with an undefined bit.
fn nibbles(v: u32, undef: u32) -> String {
    (0..8)
        .rev()
        .map(|n| {
            if (undef >> (4 * n)) & 0xf != 0 {
                '?'
            } else {
                char::from_digit((v >> (4 * n)) & 0xf, 16).unwrap_or('?')
            }
        })
        .collect()
}
