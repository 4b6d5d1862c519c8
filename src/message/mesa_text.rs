//! Mesa's message description of a send (the second line of its disassembly: `<sfid> MsgDesc:
//! ... mlen M rlen R`), as printed by Mesa's brw_disasm.c at the commit that produced the text
//! of shared/corpus/mesa/asm (docs/messages.md). Field positions and names come from the rows
//! of spec/descriptors.toml; this module only lays them out the way that printer does,
//! including its quirks: a name missing from Mesa's tables prints `*** invalid <label> value N `,
//! a render-cache message control prints as `0x` followed by its decimal value.

use super::descriptor::{field_row, sfid_row, value_row};
use crate::spec::descriptors::MsgValueInfo;
use crate::spec::Platform;
use std::fmt::Write;

/// Mesa's text state: whether a named control was printed (Mesa's `space`).
struct Out<'a> {
    s: &'a mut String,
    space: bool,
}

impl Out<'_> {
    /// Mesa's `control()`: a name (with a leading space once a control was printed), nothing
    /// for an empty name, or the invalid form for a value without one.
    fn control(&mut self, label: &str, name: Option<&str>, v: u32) {
        match name {
            None => {
                let _ = write!(self.s, "*** invalid {label} value {v} ");
            }
            Some("") => {}
            Some(n) => {
                if self.space {
                    self.s.push(' ');
                }
                self.s.push_str(n);
                self.space = true;
            }
        }
    }
}

/// The Mesa spelling of value `v` of table `table` on `p`.
fn mesa_name(table: &str, v: u32, p: Platform) -> Option<&'static str> {
    value_row(table, v, p).and_then(|r| r.mesa)
}

/// Append Mesa's description of a send with SFID `sfid`: `desc` is the immediate descriptor
/// (None: a register descriptor); `ex` is, for a split send, `Some(Some(ExDesc))` with an
/// immediate extended descriptor (without SFID and EOT) or `Some(None)` with a register one.
pub fn describe(
    out: &mut String,
    sfid: u8,
    desc: Option<u32>,
    ex: Option<Option<u32>>,
    p: Platform,
) {
    let srow = sfid_row(sfid, p);
    let mut o = Out {
        s: out,
        space: false,
    };
    match srow.and_then(|r| r.mesa) {
        Some(n) => o.control("SFID", Some(n), sfid.into()),
        // Mesa prints `*** invalid SFID value N `, which no assembler reads back; euref
        // prints the `sfidN` spelling its parser takes (the rest of the line is ignored).
        None => {
            let _ = write!(o.s, "sfid{sfid}");
            o.space = true;
        }
    }
    o.s.push_str(" MsgDesc:");
    match desc {
        None => o.s.push_str(" indirect"),
        Some(d) => {
            function(&mut o, sfid, d, p);
            if o.space {
                o.s.push(' ');
            }
        }
    }
    let f = |name: &str, w: u32, exdesc: bool| {
        field_row(sfid, name, None, exdesc, p).map_or(0, |f| f.get(w))
    };
    if let Some(d) = desc {
        let _ = write!(o.s, "mlen {}", f("mlen", d, false));
    }
    if let Some(Some(x)) = ex {
        let _ = write!(o.s, " ex_mlen {}", f("ex_mlen", x, true));
    }
    if let Some(d) = desc {
        let _ = write!(o.s, " rlen {}", f("rlen", d, false));
    }
}

/// The SFID-specific part (Mesa's `switch (sfid)`).
fn function(o: &mut Out, sfid: u8, d: u32, p: Platform) {
    let Some(srow) = sfid_row(sfid, p) else {
        let _ = write!(o.s, "unsupported shared function ID {sfid}");
        return;
    };
    let field = |name: &str, ty: Option<&str>| field_row(sfid, name, ty, false, p);
    let get = |name: &str, ty: Option<&str>| field(name, ty).map_or(0, |f| f.get(d));
    let types = srow.types.unwrap_or("");
    let type_field = field("type", None);
    let type_label = type_field.and_then(|f| f.mesa).unwrap_or("message type");
    let tv = get("type", None);
    let ty: Option<&'static MsgValueInfo> = value_row(types, tv, p);
    let tname = ty.map(|t| t.name);
    match srow.name {
        "sampler" => {
            o.control(type_label, mesa_name(types, tv, p), tv);
            let sv = get("simd_mode", None);
            let sl = field("simd_mode", None).and_then(|f| f.mesa).unwrap_or("");
            o.control(sl, mesa_name("sampler_simd", sv, p), sv);
            let _ = write!(
                o.s,
                " Surface = {} Sampler = {}",
                get("bti", None),
                get("sampler", None)
            );
        }
        "dp_sampler" | "const" => {
            let _ = write!(
                o.s,
                " ({}, {}, {}, 0)",
                get("bti", None),
                get("control", None),
                tv
            );
        }
        "render" => {
            o.control(type_label, mesa_name(types, tv, p), tv);
            if tname == Some("rt_write") {
                let sv = get("rt_subtype", tname);
                let sl = field("rt_subtype", tname)
                    .and_then(|f| f.mesa)
                    .unwrap_or("");
                o.control(sl, mesa_name("rt_subtype", sv, p), sv);
                if get("slot_group_hi", tname) != 0 {
                    o.s.push_str(" Hi");
                }
                if get("last_rt", tname) != 0 {
                    o.s.push_str(" LastRT");
                }
            } else {
                // Mesa prints the decimal value after `0x`.
                let _ = write!(o.s, " MsgCtrl = 0x{}", get("control", None));
            }
            let _ = write!(o.s, " Surface = {}", get("bti", None));
        }
        "urb" => {
            let _ = write!(o.s, " {}", get("global_offset", None));
            o.space = true;
            o.control("urb opcode", mesa_name(types, tv, p), tv);
            if get("per_slot_offset", None) != 0 {
                o.s.push_str(" per-slot");
            }
            if matches!(tname, Some("simd8_write" | "simd8_read")) {
                if get("channel_mask_present", tname) != 0 {
                    o.s.push_str(" masked");
                }
            } else {
                let sv = get("swizzle", tname);
                o.control("urb swizzle", mesa_name("urb_swizzle", sv, p), sv);
            }
            if let Some(c) = field("complete", None) {
                if c.get(d) != 0 {
                    o.control("urb complete", Some("complete"), 1);
                }
            }
        }
        "spawner" => {}
        "gateway" => {
            // Mesa formats the table entry with %s: a value without a name prints as glibc
            // prints a null string.
            let _ = write!(o.s, " ({})", mesa_name(types, tv, p).unwrap_or("(null)"));
        }
        "dc0" => {
            // Mesa reads the type field (Gen8+: 5 bits, so scratch messages, bit 18, have no
            // name there).
            o.s.push_str(" (");
            o.control(type_label, ty.and_then(|t| t.mesa), tv);
            let _ = write!(o.s, ", {}, ", get("bti", None));
            let ctrl = get("control", None);
            if ty.and_then(|t| t.form) == Some("atomic") {
                let a = ctrl & 0xf;
                o.control("atomic op", mesa_name("aop", a, p), a);
            } else {
                let _ = write!(o.s, "{ctrl}");
            }
            o.s.push(')');
        }
        "dc1" => {
            o.s.push_str(" (");
            o.control(type_label, ty.and_then(|t| t.mesa), tv);
            let _ = write!(o.s, ", Surface = {}, ", get("bti", None));
            let ctrl = get("control", None);
            let simd = if ctrl & 0x10 != 0 { 8 } else { 16 };
            match ty.and_then(|t| t.form) {
                Some("atomic_simd") => {
                    let _ = write!(o.s, "SIMD{simd},");
                    o.control("atomic op", mesa_name("aop", ctrl & 0xf, p), ctrl & 0xf);
                }
                Some("atomic") => {
                    o.control("atomic op", mesa_name("aop", ctrl & 0xf, p), ctrl & 0xf)
                }
                Some("atomic_float") => {
                    let _ = write!(o.s, "SIMD{simd},");
                    let a = ctrl & 0xf;
                    o.control("atomic float op", mesa_name("aop_float", a, p), a);
                }
                Some("surface") => {
                    // Untyped: the SIMD mode; typed: the slot group (Mesa prints both with
                    // the untyped names).
                    let m = ctrl >> 4;
                    let table = if field("slot_group", tname).is_some() {
                        "slot_group"
                    } else {
                        "surface_simd"
                    };
                    let _ = write!(
                        o.s,
                        "SIMD{}, Mask = 0x{:x}",
                        mesa_name(table, m, p).unwrap_or("?"),
                        ctrl & 0xf
                    );
                }
                _ => {
                    let _ = write!(o.s, "0x{ctrl:x}");
                }
            }
            o.s.push(')');
        }
        "pixel_interp" => {
            let _ = write!(
                o.s,
                " ({}, {}, 0x{:02x})",
                if get("linear", None) != 0 {
                    "linear"
                } else {
                    "persp"
                },
                mesa_name(types, tv, p).unwrap_or("(null)"),
                get("data", None)
            );
        }
        _ => {
            let _ = write!(o.s, "unsupported shared function ID {sfid}");
        }
    }
}
