//! Loading the numeric tables: conversions, comparison grids, float modes, math functions.

use super::ctx::Ctx;
use super::*;

pub(super) type Conversions = (
    Vec<ConversionRow>,
    Vec<Vec<Vec<Option<usize>>>>,
    Vec<SetRow<Special>>,
    Vec<SetRow<Saturation>>,
);

pub(super) fn load_conversions(c: &mut Ctx, types: &[TypeRow], np: usize) -> Conversions {
    let mut conversions = vec![];
    let mut specials = vec![];
    let mut saturations = vec![];
    let nt = c.type_names.len();
    let mut conv_table = vec![vec![vec![None; nt]; nt]; np];
    if let Some((f, file)) = c.load::<ConversionsFile>("conversions.toml", true) {
        for cv in f.conversion {
            let cv = cv.into_inner();
            let g = c.common(&file, &cv.id, &cv.gens, &cv.cite, &["conv."]);
            let off = cv.id.span().start;
            c.one_of(
                &file,
                &cv.method,
                "method",
                &[
                    "identity",
                    "zero_extend",
                    "sign_extend",
                    "reinterpret",
                    "truncate",
                    "float_to_int",
                    "int_to_float",
                    "float_widen",
                    "float_narrow",
                ],
            );
            c.one_of(&file, &cv.round, "round", &["exact", "cr0", "rtz", "rtne"]);
            c.one_of(&file, &cv.sat, "sat", &["clamp", "unit", "none"]);
            if let Some(a) = &cv.alt_round {
                c.one_of(&file, a, "alt_round", &["rtz"]);
            }
            if !["wider", "same", "narrower", "any", "wider-or-same"].contains(&cv.size.as_str()) {
                c.err(
                    &file,
                    off,
                    format!(
                        "size `{}` is not one of: wider, same, narrower, wider-or-same, any",
                        cv.size
                    ),
                );
            }
            if !["same_type", "different_type", "any"].contains(&cv.identity.as_str()) {
                c.err(
                    &file,
                    off,
                    format!(
                        "identity `{}` is not one of: same_type, different_type, any",
                        cv.identity
                    ),
                );
            }
            let from = c.type_set(&file, off, &cv.from);
            let to = c.type_set(&file, off, &cv.to);
            let row = c.row(cv, &file, &S::new(off..off, String::new()), g);
            conversions.push(ConversionRow { row, from, to });
        }
        // Coverage: every scalar pair on every platform exactly once.
        let bits: Vec<u32> = types.iter().map(|t| t.row.v.bits).collect();
        #[allow(clippy::needless_range_loop)] // p, s, d index three tables at once
        for p in 0..np {
            for s in 0..nt {
                for d in 0..nt {
                    let scalar = |i: usize| !c.type_kinds[i].starts_with("vector");
                    let has = |i: usize| types[i].row.gens & (1 << p) != 0;
                    if !(scalar(s) && scalar(d) && has(s) && has(d)) {
                        continue;
                    }
                    let mut hits = vec![];
                    for (ci, cv) in conversions.iter().enumerate() {
                        if cv.row.gens & (1 << p) == 0
                            || cv.from & (1 << s) == 0
                            || cv.to & (1 << d) == 0
                        {
                            continue;
                        }
                        let size_ok = match cv.row.v.size.as_str() {
                            "wider" => bits[d] > bits[s],
                            "same" => bits[d] == bits[s],
                            "narrower" => bits[d] < bits[s],
                            "wider-or-same" => bits[d] >= bits[s],
                            _ => true,
                        };
                        let id_ok = match cv.row.v.identity.as_str() {
                            "same_type" => s == d,
                            "different_type" => s != d,
                            _ => true,
                        };
                        if size_ok && id_ok {
                            hits.push(ci);
                        }
                    }
                    let pn = c
                        .platforms
                        .as_ref()
                        .map(|x| x.names[p].clone())
                        .unwrap_or_default();
                    match hits.len() {
                        0 => c.err(
                            &file,
                            0,
                            format!(
                                "no conversion row covers {} -> {} on {pn}",
                                c.type_names[s], c.type_names[d]
                            ),
                        ),
                        1 => conv_table[p][s][d] = Some(hits[0]),
                        _ => {
                            let ids: Vec<String> = hits
                                .iter()
                                .map(|h| conversions[*h].row.v.id.get_ref().clone())
                                .collect();
                            let line = conversions[hits[1]].row.line;
                            c.err_line(
                                &file,
                                line,
                                format!(
                                    "{} -> {} on {pn} is covered by several rows: {}",
                                    c.type_names[s],
                                    c.type_names[d],
                                    ids.join(", ")
                                ),
                            );
                        }
                    }
                }
            }
        }
        for s in f.special {
            let s = s.into_inner();
            let g = c.common(&file, &s.id, &s.gens, &s.cite, &["conv."]);
            let off = s.id.span().start;
            c.one_of(
                &file,
                &s.input,
                "input",
                &[
                    "zero",
                    "denorm",
                    "nan",
                    "pos_inf",
                    "neg_inf",
                    "pos_overflow",
                    "neg_overflow",
                ],
            );
            c.one_of(&file, &s.result, "result", &["zero", "imax", "imin"]);
            let a = c.type_set(&file, off, &s.from);
            let b = c.type_set(&file, off, &s.to);
            let row = c.row(s, &file, &S::new(off..off, String::new()), g);
            specials.push(SetRow { row, a, b });
        }
        for s in f.saturation {
            let s = s.into_inner();
            let g = c.common(&file, &s.id, &s.gens, &s.cite, &["sat."]);
            let off = s.id.span().start;
            let a = c.type_set(&file, off, &s.types);
            let row = c.row(s, &file, &S::new(off..off, String::new()), g);
            saturations.push(SetRow { row, a, b: 0 });
        }
    }

    (conversions, conv_table, specials, saturations)
}

pub(super) fn load_compare(c: &mut Ctx) -> (Vec<GridRow>, Vec<Row<CmpnRule>>) {
    let mut grids = vec![];
    let mut cmpn = vec![];
    if let Some((f, file)) = c.load::<CompareFile>("compare.toml", true) {
        for g in f.grid {
            let g = g.into_inner();
            let m = c.common(&file, &g.id, &g.gens, &g.cite, &["cmp.", "cmpn."]);
            let off = g.id.span().start;
            c.one_of(&file, &g.kind, "kind", &["cmp", "cmpn"]);
            c.one_of(&file, &g.cmod, "cmod", &["g", "l", "z", "nz", "le", "ge"]);
            let first_line = c.line(&file, g.grid.span().start) + 1;
            let cells = match grid::parse(g.grid.get_ref()) {
                Ok(cells) => cells,
                Err((li, msg)) => {
                    c.err_line(
                        &file,
                        first_line + li,
                        format!("malformed grid `{}`: {msg}", g.id.get_ref()),
                    );
                    [[0; 9]; 9]
                }
            };
            let row = c.row(g, &file, &S::new(off..off, String::new()), m);
            grids.push(GridRow { row, cells });
        }
        for r in f.cmpn {
            let r = r.into_inner();
            let m = c.common(&file, &r.id, &r.gens, &r.cite, &["cmpn."]);
            let off = r.id.span().start;
            cmpn.push(c.row(r, &file, &S::new(off..off, String::new()), m));
        }
    }

    (grids, cmpn)
}

pub(super) fn load_float_modes(
    c: &mut Ctx,
    enums: &BTreeMap<String, EnumInfo>,
) -> Vec<SetRow<FpRule>> {
    let mut fp = vec![];
    if let Some((f, file)) = c.load::<FloatModesFile>("float_modes.toml", true) {
        let effects = enums
            .get("fp_effect")
            .map(|e| e.values.clone())
            .unwrap_or_default();
        let ops = enums
            .get("fp_ops")
            .map(|e| e.values.clone())
            .unwrap_or_default();
        for r in f.fp {
            let r = r.into_inner();
            let m = c.common(&file, &r.id, &r.gens, &r.cite, &["fp."]);
            let off = r.id.span().start;
            c.one_of(&file, &r.mode, "mode", &["ieee", "alt", "both"]);
            let er: Vec<&str> = effects.iter().map(String::as_str).collect();
            c.one_of(
                &file,
                &r.effect,
                "effect (fp_effect in properties.toml)",
                &er,
            );
            let or: Vec<&str> = ops.iter().map(String::as_str).collect();
            c.one_of(&file, &r.ops, "ops (fp_ops in properties.toml)", &or);
            if r.effect.get_ref() == "denorm_cr0" && r.cr0_bit.is_none() {
                c.err(&file, off, "effect denorm_cr0 needs cr0_bit");
            }
            if let Some(b) = r.cr0_bit {
                if b > 31 {
                    c.err(&file, off, format!("cr0_bit {b} > 31"));
                }
            }
            let ts = c.type_set(&file, off, &r.types);
            let row = c.row(r, &file, &S::new(off..off, String::new()), m);
            fp.push(SetRow { row, a: ts, b: 0 });
        }
    }

    fp
}

pub(super) fn load_math(
    c: &mut Ctx,
    enums: &BTreeMap<String, EnumInfo>,
) -> (Vec<MathRow>, Vec<Row<MathSpecial>>, Vec<Row<MathMark>>) {
    let mut math = vec![];
    let mut math_specials = vec![];
    let mut math_marks = vec![];
    if let Some((f, file)) = c.load::<MathFile>("math.toml", false) {
        let fns: Vec<String> = enums
            .get("math_fn")
            .map(|e| e.values.clone())
            .unwrap_or_default();
        let fr: Vec<&str> = fns.iter().map(String::as_str).collect();
        let classes = [
            "-inf", "-Fin", "-denorm", "-0", "+0", "+denorm", "+Fin", "+inf", "NaN", "any",
        ];
        for m in f.func {
            let m = m.into_inner();
            let g = c.common(&file, &m.id, &m.gens, &m.cite, &["math."]);
            let off = m.id.span().start;
            c.one_of(&file, &m.func, "fn (math_fn in properties.toml)", &fr);
            if !(1..=2).contains(&m.srcs) {
                c.err(&file, off, format!("srcs must be 1 or 2, found {}", m.srcs));
            }
            if !(m.ulps >= 0.0 && m.abs_error >= 0.0) {
                c.err(&file, off, "ulps and abs_error must be >= 0");
            }
            if let Some([lo, hi]) = m.abs_range {
                if !(lo <= hi && m.abs_error > 0.0) {
                    c.err(&file, off, "abs_range needs lo <= hi and abs_error > 0");
                }
            }
            let types = c.type_set(&file, off, &m.types);
            let row = c.row(m, &file, &S::new(off..off, String::new()), g);
            math.push(MathRow { row, types });
        }
        for s in f.special {
            let s = s.into_inner();
            let g = c.common(&file, &s.id, &s.gens, &s.cite, &["math."]);
            let off = s.id.span().start;
            c.one_of(&file, &s.func, "fn (math_fn in properties.toml)", &fr);
            c.one_of(&file, &s.mode, "mode", &["ieee", "alt", "both"]);
            c.one_of(&file, &s.src0, "src0 class", &classes);
            if !classes.contains(&s.src1.as_str()) {
                c.err(
                    &file,
                    off,
                    format!(
                        "src1 class `{}` is not one of: {}",
                        s.src1,
                        classes.join(", ")
                    ),
                );
            }
            c.one_of(
                &file,
                &s.result,
                "result",
                &[
                    "+inf", "-inf", "+0", "-0", "NaN", "+fmax", "-fmax", "src0", "abs",
                ],
            );
            math_specials.push(c.row(s, &file, &S::new(off..off, String::new()), g));
        }
        for m in f.mark {
            let m = m.into_inner();
            let g = c.common(&file, &m.id, &m.gens, &m.cite, &["math."]);
            let off = m.id.span().start;
            math_marks.push(c.row(m, &file, &S::new(off..off, String::new()), g));
        }
    }

    (math, math_specials, math_marks)
}
