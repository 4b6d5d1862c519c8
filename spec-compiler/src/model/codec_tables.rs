//! Loading spec/encoding `[[implicit]]`, `[[form]]` and `[[select]]` rows: the implicit
//! operands the encoder supplies, and the choice opcode -> form -> layout. Checked against
//! the opcodes, types, layouts and value tables they name, for overlap (one row per opcode or
//! (form, operands) and platform) and for completeness on every platform.

use super::ctx::Ctx;
use super::*;

/// A form of a native instruction: (spec spelling, Rust variant, operand kinds the form
/// distinguishes, the kinds a platform may lack, documentation).
pub type FormDef = (
    &'static str,
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
    &'static str,
);

/// The forms of a native instruction.
pub const FORMS: [FormDef; 7] = [
    ("alu", "Alu", &["reg", "imm", "imm64", "ind"], &["imm64"], "One- or two-source instructions (ALU, logic, misc, and flow instructions without JIP/UIP fields such as jmpi, call, ret, brd, brc)."),
    ("math", "Math", &["reg", "imm"], &[], "`math`: bits 27:24 are the math function."),
    ("three-src", "ThreeSrc", &["any"], &[], "Three-source instructions."),
    ("send", "Send", &["imm-desc", "reg-desc"], &[], "`send` / `sendc`."),
    ("sends", "Sends", &["imm", "reg-desc", "reg-exdesc", "reg-both"], &[], "`sends` / `sendsc` (Gen9)."),
    ("branch", "Branch", &["any"], &[], "Instructions with JIP/UIP fields (enc.*.branch-opcodes)."),
    ("dim", "Dim", &["reg", "imm"], &[], "Haswell `dim`: a 64-bit immediate src0 whatever its type field (Mesa elk_disasm.c and elk_eu_emit.c elk_set_src0 treat DIM's immediate as 64 bits)."),
];

/// Operand kinds of `[[select]]`: (spec spelling, Rust variant, documentation).
pub const OPERANDS: [(&str, &str, &str); 9] = [
    ("reg", "Reg", "No immediate operand (register sources)."),
    ("imm", "Imm", "An immediate source (alu, math: src0 or src1; dim: src0); sends: both descriptors immediate."),
    ("imm64", "Imm64", "src0 is an immediate of a 64-bit type."),
    ("ind", "Ind", "The fields of operands under indirect addressing."),
    ("imm-desc", "ImmDesc", "send with an immediate descriptor (src1 file IMM)."),
    ("reg-desc", "RegDesc", "The descriptor in a0.0 (send: src1 is a register; sends: SelReg32Desc)."),
    ("reg-exdesc", "RegExdesc", "sends with the extended descriptor in a0.N (SelReg32ExDesc)."),
    ("reg-both", "RegBoth", "sends with both descriptors in address registers."),
    ("any", "Any", "Whatever the operands."),
];

/// Register files of implicit operands: (spec spelling, Rust variant).
pub const IMPLICIT_FILES: [(&str, &str); 4] = [
    ("null", "Null"),
    ("ip", "Ip"),
    ("imm", "Imm"),
    ("dst", "Dst"),
];

/// A checked implicit operand.
#[derive(Debug, Clone)]
pub struct ImplicitOp {
    /// Index into [`IMPLICIT_FILES`].
    pub file: usize,
    /// Index into the types.
    pub ty: Option<usize>,
    pub region: Option<[u8; 3]>,
    pub dst_mask_swizzle: bool,
}

pub struct ImplicitRowM {
    pub row: Row<Implicit>,
    pub opcodes: Vec<usize>,
    pub dst: Option<ImplicitOp>,
    pub src: [Option<ImplicitOp>; 2],
}

pub enum FormBy {
    /// Value-table indices.
    Values(Vec<usize>),
    Opcodes(Vec<usize>),
    Class(String),
    Other,
}

pub struct FormRowM {
    pub row: Row<FormRule>,
    /// Index into [`FORMS`].
    pub form: usize,
    pub by: FormBy,
}

pub struct SelectRowM {
    pub row: Row<SelectRow>,
    pub form: usize,
    /// Index into [`OPERANDS`].
    pub operands: usize,
    /// Layout indices for Align1 and Align16.
    pub a1: Vec<usize>,
    pub a16: Vec<usize>,
}

/// The validated tables, plus the form of every opcode number per platform (index into
/// [`FORMS`]; `None`: no opcode has the number).
pub struct CodecTables {
    pub checks: Vec<CheckRowM>,
    pub implicit: Vec<ImplicitRowM>,
    pub forms: Vec<FormRowM>,
    pub selects: Vec<SelectRowM>,
    pub form_of: Vec<[Option<usize>; 128]>,
}

/// Rows as read, with their file.
#[derive(Default)]
pub struct Pending {
    pub implicit: Vec<(Implicit, String)>,
    pub form: Vec<(FormRule, String)>,
    pub select: Vec<(SelectRow, String)>,
    pub check: Vec<(FieldCheck, String)>,
}

pub struct CheckRowM {
    pub row: Row<FieldCheck>,
    /// Value-table indices.
    pub values: Vec<usize>,
}

fn parse_region(s: &str) -> Option<[u8; 3]> {
    let inner = s.trim().strip_prefix('<')?.strip_suffix('>')?;
    let (v, rest) = inner.split_once(';')?;
    let (w, h) = rest.split_once(',')?;
    let v: u8 = v.trim().parse().ok()?;
    let w: u8 = w.trim().parse().ok()?;
    let h: u8 = h.trim().parse().ok()?;
    let ok = [0, 1, 2, 4, 8, 16, 32].contains(&v)
        && [1, 2, 4, 8, 16].contains(&w)
        && [0, 1, 2, 4].contains(&h);
    ok.then_some([v, w, h])
}

fn opcode_index(opcodes: &[OpcodeRow], name: &str) -> Option<usize> {
    opcodes.iter().position(|o| o.row.v.name.get_ref() == name)
}

/// Platforms of `mask` by name.
fn names(c: &Ctx, mask: Mask) -> Vec<String> {
    c.platforms
        .as_ref()
        .map(|p| p.names_of(mask))
        .unwrap_or_default()
}

fn np(c: &Ctx) -> usize {
    c.platforms.as_ref().map_or(0, |p| p.names.len())
}

fn operand(
    c: &mut Ctx,
    file: &str,
    o: &S<crate::schema::ImplicitOperand>,
    is_dst: bool,
    what: &str,
) -> Option<ImplicitOp> {
    let off = o.span().start;
    let v = o.get_ref();
    let Some(fi) = IMPLICIT_FILES.iter().position(|f| f.0 == v.file) else {
        c.err(
            file,
            off,
            format!("{what}: unknown file `{}` (null, ip, imm or dst)", v.file),
        );
        return None;
    };
    let kind = IMPLICIT_FILES[fi].0;
    if is_dst && (kind == "imm" || kind == "dst") {
        c.err(
            file,
            off,
            format!("{what}: a destination cannot be `{kind}`"),
        );
        return None;
    }
    let ty = match (&v.ty, kind) {
        (Some(_), "dst") => {
            c.err(
                file,
                off,
                format!("{what}: file `dst` takes the destination's type: no `type`"),
            );
            return None;
        }
        (None, "dst") => None,
        (None, _) => {
            c.err(
                file,
                off,
                format!("{what}: `type` is required for file `{kind}`"),
            );
            return None;
        }
        (Some(t), _) => match c.type_names.iter().position(|n| n == t) {
            Some(i) => Some(i),
            None => {
                c.err(file, off, format!("{what}: unknown type `{t}`"));
                return None;
            }
        },
    };
    let needs_region = !is_dst && kind != "imm";
    let region = match (&v.region, needs_region) {
        (Some(r), true) => match parse_region(r) {
            Some(x) => Some(x),
            None => {
                c.err(
                    file,
                    off,
                    format!("{what}: bad region `{r}` (expected `<V;W,H>` with V 0-32, W 1-16, H 0-4, powers of two)"),
                );
                return None;
            }
        },
        (None, true) => {
            c.err(
                file,
                off,
                format!("{what}: a register source needs a `region`"),
            );
            return None;
        }
        (Some(_), false) => {
            c.err(
                file,
                off,
                format!("{what}: `region` only applies to register sources"),
            );
            return None;
        }
        (None, false) => None,
    };
    let dst_mask_swizzle = match v.swizzle.as_deref() {
        None | Some("xyzw") => false,
        Some("dst-mask") if kind == "dst" => true,
        Some("dst-mask") => {
            c.err(
                file,
                off,
                format!("{what}: swizzle `dst-mask` needs file `dst`"),
            );
            return None;
        }
        Some(s) => {
            c.err(
                file,
                off,
                format!("{what}: unknown swizzle `{s}` (xyzw or dst-mask)"),
            );
            return None;
        }
    };
    Some(ImplicitOp {
        file: fi,
        ty,
        region,
        dst_mask_swizzle,
    })
}

/// The platforms (as a mask) where `opcode` exists.
fn opcode_platforms(o: &OpcodeRow) -> Mask {
    o.number
        .iter()
        .enumerate()
        .filter(|(_, n)| n.is_some())
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// For each platform of `gens`, exactly one of the listed items (with their gens) applies.
fn one_per_platform(
    c: &mut Ctx,
    file: &str,
    off: usize,
    gens: Mask,
    items: &[(String, Mask)],
    what: &str,
) {
    for p in 0..np(c) {
        if gens & 1 << p == 0 {
            continue;
        }
        let on: Vec<&String> = items
            .iter()
            .filter(|(_, m)| m & 1 << p != 0)
            .map(|(n, _)| n)
            .collect();
        let pname = names(c, 1 << p).join("");
        match on.as_slice() {
            [_] => {}
            [] => c.err(
                file,
                off,
                format!("{what}: none of them applies on {pname}"),
            ),
            [a, b, ..] => c.err(
                file,
                off,
                format!("{what}: `{a}` and `{b}` both apply on {pname}"),
            ),
        }
    }
}

// `p` is a platform index: it selects both a bit of the gens masks and a row of `form_of`.
#[allow(clippy::needless_range_loop)]
pub(super) fn load_codec_tables(
    c: &mut Ctx,
    pending: Pending,
    opcodes: &[OpcodeRow],
    layouts: &[LayoutRow],
    value_tables: &[ValuesRow],
) -> CodecTables {
    let n = np(c);
    // ------------------------------------------------------------------ forms
    let mut forms = vec![];
    for (f, file) in pending.form {
        let m = c.common(&file, &f.id, &f.gens, &f.cite, &["enc.form."]);
        let off = f.id.span().start;
        let form = FORMS.iter().position(|x| x.0 == f.form.get_ref());
        if form.is_none() {
            c.err(
                &file,
                f.form.span().start,
                format!(
                    "unknown form `{}` ({})",
                    f.form.get_ref(),
                    FORMS.map(|x| x.0).join(", ")
                ),
            );
        }
        let given = [
            f.values.is_some(),
            f.opcodes.is_some(),
            f.class.is_some(),
            f.other == Some(true),
        ]
        .iter()
        .filter(|x| **x)
        .count();
        if given != 1 {
            c.err(
                &file,
                off,
                "a [[form]] row needs exactly one of `values`, `opcodes`, `class`, `other = true`",
            );
        }
        let by = if let Some(vs) = &f.values {
            let mut idx = vec![];
            let mut items = vec![];
            for name in vs.get_ref() {
                match value_tables
                    .iter()
                    .position(|t| t.row.v.name.get_ref() == name)
                {
                    Some(i) => {
                        for (e, _, _) in &value_tables[i].values {
                            if opcode_index(opcodes, e).is_none() {
                                c.err(
                                    &file,
                                    vs.span().start,
                                    format!("value table `{name}`: entry `{e}` is not an opcode"),
                                );
                            }
                        }
                        items.push((name.clone(), value_tables[i].row.gens));
                        idx.push(i);
                    }
                    None => c.err(
                        &file,
                        vs.span().start,
                        format!("unknown value table `{name}`"),
                    ),
                }
            }
            if idx.len() == vs.get_ref().len() {
                one_per_platform(c, &file, vs.span().start, m, &items, "values");
            }
            FormBy::Values(idx)
        } else if let Some(os) = &f.opcodes {
            let mut idx = vec![];
            for name in os.get_ref() {
                match opcode_index(opcodes, name) {
                    Some(i) => idx.push(i),
                    None => c.err(&file, os.span().start, format!("unknown opcode `{name}`")),
                }
            }
            FormBy::Opcodes(idx)
        } else if let Some(cl) = &f.class {
            if !opcodes
                .iter()
                .any(|o| o.row.v.class.get_ref() == cl.get_ref())
            {
                c.err(
                    &file,
                    cl.span().start,
                    format!("no opcode has class `{}`", cl.get_ref()),
                );
            }
            FormBy::Class(cl.get_ref().clone())
        } else {
            FormBy::Other
        };
        let row = c.row(f, &file, &S::new(off..off, String::new()), m);
        forms.push(FormRowM {
            row,
            form: form.unwrap_or(0),
            by,
        });
    }
    // Every platform needs a catch-all row.
    let other: Mask = forms
        .iter()
        .filter(|f| matches!(f.by, FormBy::Other))
        .fold(0, |m, f| m | f.row.gens);
    let mut form_of = vec![[None; 128]; n];
    if !forms.is_empty() {
        for p in 0..n {
            if other & 1 << p == 0 {
                let first = &forms[0].row;
                let (file, line) = (first.file.clone(), first.line);
                c.err_line(
                    &file,
                    line,
                    format!(
                        "no [[form]] row with `other = true` covers {}",
                        names(c, 1 << p).join("")
                    ),
                );
            }
            for (oi, o) in opcodes.iter().enumerate() {
                let Some(num) = o.number.get(p).copied().flatten() else {
                    continue;
                };
                let hit = forms.iter().find(|f| {
                    f.row.gens & 1 << p != 0
                        && match &f.by {
                            FormBy::Values(ts) => ts.iter().any(|t| {
                                value_tables[*t].row.gens & 1 << p != 0
                                    && value_tables[*t]
                                        .values
                                        .iter()
                                        .any(|(e, _, _)| e == o.row.v.name.get_ref())
                            }),
                            FormBy::Opcodes(os) => os.contains(&oi),
                            FormBy::Class(cl) => o.row.v.class.get_ref() == cl,
                            FormBy::Other => true,
                        }
                });
                if let (Some(h), Some(slot)) = (hit, form_of[p].get_mut(usize::from(num & 0x7f))) {
                    *slot = Some(h.form);
                }
            }
        }
    }

    // ------------------------------------------------------------------ select
    let mut selects: Vec<SelectRowM> = vec![];
    for (s, file) in pending.select {
        let m = c.common(&file, &s.id, &s.gens, &s.cite, &["enc.select."]);
        let off = s.id.span().start;
        let form = FORMS.iter().position(|x| x.0 == s.form.get_ref());
        let operands = OPERANDS.iter().position(|x| x.0 == s.operands.get_ref());
        match form {
            None => c.err(
                &file,
                s.form.span().start,
                format!(
                    "unknown form `{}` ({})",
                    s.form.get_ref(),
                    FORMS.map(|x| x.0).join(", ")
                ),
            ),
            Some(fi) => {
                if !FORMS[fi].2.contains(&s.operands.get_ref().as_str()) {
                    c.err(
                        &file,
                        s.operands.span().start,
                        format!(
                            "operands `{}` is not one of form `{}`'s: {}",
                            s.operands.get_ref(),
                            FORMS[fi].0,
                            FORMS[fi].2.join(", ")
                        ),
                    );
                }
            }
        }
        let list = |c: &mut Ctx, l: &S<Vec<String>>, what: &str| -> Vec<usize> {
            let mut idx = vec![];
            let mut items = vec![];
            for name in l.get_ref() {
                match layouts.iter().position(|x| x.row.v.name.get_ref() == name) {
                    Some(i) if layouts[i].row.v.width == 128 => {
                        idx.push(i);
                        items.push((name.clone(), layouts[i].row.gens));
                    }
                    Some(_) => c.err(
                        &file,
                        l.span().start,
                        format!("{what}: layout `{name}` is not a 128-bit native layout"),
                    ),
                    None => c.err(
                        &file,
                        l.span().start,
                        format!("{what}: unknown layout `{name}`"),
                    ),
                }
            }
            if idx.len() == l.get_ref().len() {
                one_per_platform(c, &file, l.span().start, m, &items, what);
            }
            idx
        };
        let (a1, a16) = match (&s.align1, &s.align16, &s.layouts) {
            (Some(a), Some(b), None) => (list(c, a, "align1"), list(c, b, "align16")),
            (None, None, Some(l)) => {
                let x = list(c, l, "layouts");
                (x.clone(), x)
            }
            _ => {
                c.err(
                    &file,
                    off,
                    "a [[select]] row needs `align1` and `align16`, or `layouts` alone",
                );
                (vec![], vec![])
            }
        };
        if let (Some(fi), Some(oi)) = (form, operands) {
            if let Some(prev) = selects
                .iter()
                .find(|x| x.form == fi && x.operands == oi && x.row.gens & m != 0)
            {
                let both = names(c, prev.row.gens & m).join(" ");
                c.err(
                    &file,
                    off,
                    format!(
                        "({}, {}) on {both} is already given by `{}`",
                        FORMS[fi].0,
                        OPERANDS[oi].0,
                        prev.row.v.id.get_ref()
                    ),
                );
            }
        }
        if operands.is_none() {
            c.err(
                &file,
                s.operands.span().start,
                format!("unknown operands `{}`", s.operands.get_ref()),
            );
        }
        let row = c.row(s, &file, &S::new(off..off, String::new()), m);
        selects.push(SelectRowM {
            row,
            form: form.unwrap_or(0),
            operands: operands.unwrap_or(0),
            a1,
            a16,
        });
    }
    // Completeness: every form an opcode (or an unknown opcode number: alu) has on a platform
    // needs each of its operand kinds there.
    if !forms.is_empty() {
        for p in 0..n {
            let mut used: Vec<usize> = form_of[p].iter().flatten().copied().collect();
            used.push(0);
            used.sort();
            used.dedup();
            for fi in used {
                for k in FORMS[fi].2 {
                    if FORMS[fi].3.contains(k) {
                        continue;
                    }
                    let have = selects.iter().any(|s| {
                        s.form == fi && OPERANDS[s.operands].0 == *k && s.row.gens & 1 << p != 0
                    });
                    if !have {
                        let first = &forms[0].row;
                        let (file, line) = (first.file.clone(), first.line);
                        c.err_line(
                            &file,
                            line,
                            format!(
                                "no [[select]] row gives form `{}` with operands `{k}` on {}",
                                FORMS[fi].0,
                                names(c, 1 << p).join("")
                            ),
                        );
                    }
                }
            }
        }
        for s in &selects {
            if s.row.v.indirect {
                let ind = OPERANDS.iter().position(|x| x.0 == "ind").unwrap_or(0);
                let have: Mask = selects
                    .iter()
                    .filter(|x| x.form == 0 && x.operands == ind)
                    .fold(0, |m, x| m | x.row.gens);
                if s.row.gens & !have != 0 {
                    let (file, line) = (s.row.file.clone(), s.row.line);
                    c.err_line(
                        &file,
                        line,
                        format!(
                            "`indirect = true` but no (alu, ind) row covers {}",
                            names(c, s.row.gens & !have).join(" ")
                        ),
                    );
                }
            }
        }
    }

    // ------------------------------------------------------------------ implicit
    let mut implicit: Vec<ImplicitRowM> = vec![];
    for (r, file) in pending.implicit {
        let m = c.common(&file, &r.id, &r.gens, &r.cite, &["enc.implicit."]);
        let off = r.id.span().start;
        let mut ops = vec![];
        if r.opcodes.get_ref().is_empty() {
            c.err(&file, r.opcodes.span().start, "`opcodes` is empty");
        }
        for name in r.opcodes.get_ref() {
            let Some(i) = opcode_index(opcodes, name) else {
                c.err(
                    &file,
                    r.opcodes.span().start,
                    format!("unknown opcode `{name}`"),
                );
                continue;
            };
            let missing = m & !opcode_platforms(&opcodes[i]);
            if missing != 0 {
                c.err(
                    &file,
                    r.opcodes.span().start,
                    format!(
                        "opcode `{name}` does not exist on {}",
                        names(c, missing).join(" ")
                    ),
                );
            }
            for prev in &implicit {
                if prev.opcodes.contains(&i) && prev.row.gens & m != 0 {
                    let on = names(c, prev.row.gens & m).join(" ");
                    c.err(
                        &file,
                        r.opcodes.span().start,
                        format!(
                            "implicit operands of `{name}` on {on} are already given by `{}`",
                            prev.row.v.id.get_ref()
                        ),
                    );
                }
            }
            ops.push(i);
        }
        let dst = r
            .dst
            .as_ref()
            .and_then(|o| operand(c, &file, o, true, "dst"));
        let s0 = r
            .src0
            .as_ref()
            .and_then(|o| operand(c, &file, o, false, "src0"));
        let s1 = r
            .src1
            .as_ref()
            .and_then(|o| operand(c, &file, o, false, "src1"));
        if r.dst.is_none() && r.src0.is_none() && r.src1.is_none() {
            c.err(&file, off, "an [[implicit]] row needs dst, src0 or src1");
        }
        let row = c.row(r, &file, &S::new(off..off, String::new()), m);
        implicit.push(ImplicitRowM {
            row,
            opcodes: ops,
            dst,
            src: [s0, s1],
        });
    }
    // Every jump-target instruction (form branch) has its implicit operands.
    let branch = FORMS.iter().position(|x| x.0 == "branch").unwrap_or(0);
    for p in 0..n {
        for (oi, o) in opcodes.iter().enumerate() {
            let Some(num) = o.number.get(p).copied().flatten() else {
                continue;
            };
            if form_of[p][usize::from(num & 0x7f)] != Some(branch) {
                continue;
            }
            let have = implicit
                .iter()
                .any(|r| r.row.gens & 1 << p != 0 && r.opcodes.contains(&oi));
            if !have {
                if let Some(f) = forms.iter().find(|f| f.form == branch) {
                    let (file, line) = (f.row.file.clone(), f.row.line);
                    c.err_line(
                        &file,
                        line,
                        format!(
                            "jump-target opcode `{}` has no [[implicit]] row on {}",
                            o.row.v.name.get_ref(),
                            names(c, 1 << p).join("")
                        ),
                    );
                }
            }
        }
    }
    // ------------------------------------------------------------------ checks
    let mut checks: Vec<CheckRowM> = vec![];
    for (r, file) in pending.check {
        let m = c.common(&file, &r.id, &r.gens, &r.cite, &["enc.check."]);
        let off = r.id.span().start;
        if r.fields.get_ref().is_empty() {
            c.err(&file, r.fields.span().start, "`fields` is empty");
        }
        for f in r.fields.get_ref() {
            let known = layouts
                .iter()
                .any(|l| l.row.v.width == 128 && l.fields.iter().any(|x| &x.name == f));
            if !known {
                c.err(
                    &file,
                    r.fields.span().start,
                    format!("no native layout has a field `{f}`"),
                );
            }
        }
        let mut vidx = vec![];
        let mut items = vec![];
        for name in r.values.get_ref() {
            match value_tables
                .iter()
                .position(|t| t.row.v.name.get_ref() == name)
            {
                Some(i) => {
                    vidx.push(i);
                    items.push((name.clone(), value_tables[i].row.gens));
                }
                None => c.err(
                    &file,
                    r.values.span().start,
                    format!("unknown value table `{name}`"),
                ),
            }
        }
        if vidx.len() == r.values.get_ref().len() {
            one_per_platform(c, &file, r.values.span().start, m, &items, "values");
        }
        for prev in &checks {
            let shared: Vec<&String> = r
                .fields
                .get_ref()
                .iter()
                .filter(|f| prev.row.v.fields.get_ref().contains(f))
                .collect();
            if prev.row.gens & m != 0 && !shared.is_empty() {
                c.err(
                    &file,
                    off,
                    format!(
                        "field `{}` on {} is already checked by `{}`",
                        shared[0],
                        names(c, prev.row.gens & m).join(" "),
                        prev.row.v.id.get_ref()
                    ),
                );
            }
        }
        let row = c.row(r, &file, &S::new(off..off, String::new()), m);
        checks.push(CheckRowM { row, values: vidx });
    }
    CodecTables {
        checks,
        implicit,
        forms,
        selects,
        form_of,
    }
}
