//! Loading spec/rules/*.toml: restrictions compiled from their expressions.

use super::ctx::Ctx;
use super::properties::Vocabulary;
use super::*;

pub(super) fn load_rules(c: &mut Ctx, dir: &Path, v: &Vocabulary) -> Vec<RuleRow> {
    let (prop_map, enums, predicates) = (&v.prop_map, &v.enums, &v.predicates);
    let mut rules = vec![];
    let mut rule_files: Vec<String> = match std::fs::read_dir(dir.join("rules")) {
        Ok(rd) => rd
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().to_string())
            .filter(|n| n.ends_with(".toml"))
            .collect(),
        Err(_) => vec![],
    };
    rule_files.sort();
    let pred_names: BTreeMap<String, String> = predicates
        .iter()
        .map(|(n, s, _)| (n.clone(), s.clone()))
        .collect();
    for rf in rule_files {
        let rel = format!("rules/{rf}");
        let Some((f, file)) = c.load::<RulesFile>(&rel, false) else {
            continue;
        };
        for r in f.rule {
            let r = r.into_inner();
            let m = c.common(&file, &r.id, &r.gens, &r.cite, &[]);
            let off = r.id.span().start;
            let foreach_src = match &r.foreach {
                None => false,
                Some(fe) if fe.get_ref() == "src" => true,
                Some(fe) => {
                    c.err(
                        &file,
                        fe.span().start,
                        format!("foreach `{}` must be \"src\"", fe.get_ref()),
                    );
                    false
                }
            };
            if foreach_src && !prop_map.contains_key(&("src".to_string(), "present".to_string())) {
                c.err(
                    &file,
                    off,
                    "foreach = \"src\" needs a `present` property of scope src in properties.toml",
                );
            }
            if !["dst", "flags", "all", "none"].contains(&r.undefined.as_str()) {
                c.err(
                    &file,
                    off,
                    format!(
                        "undefined `{}` is not one of: dst, flags, all, none",
                        r.undefined
                    ),
                );
            }
            let vocab = Vocab {
                props: prop_map,
                enums,
                foreach_src,
            };
            let compile_field = |c: &mut Ctx, what: &str, e: &S<String>| -> Option<String> {
                // Offsets inside the TOML string: +1 for the opening quote (exact for
                // single-line basic strings, which rules use).
                let base = e.span().start + 1;
                let res = expr::parse(e.get_ref()).and_then(|x| {
                    let (t, code) = expr::compile(&x, &vocab)?;
                    if t != expr::Ty::Bool {
                        return Err((0, format!("`{what}` must be a bool expression")));
                    }
                    Ok(code)
                });
                match res {
                    Ok(code) => Some(code),
                    Err((o, msg)) => {
                        let col_hint = &e.get_ref()[..o.min(e.get_ref().len())];
                        let _ = col_hint;
                        c.err(
                            &file,
                            base + o,
                            format!(
                                "in `{what}` of `{}`: {msg} (at `{}`)",
                                r.id.get_ref(),
                                e.get_ref()
                                    .get(o..)
                                    .unwrap_or("")
                                    .chars()
                                    .take(24)
                                    .collect::<String>()
                            ),
                        );
                        None
                    }
                }
            };
            let when = match &r.when {
                Some(w) => compile_field(c, "when", w),
                None => Some("true".to_string()),
            };
            let check = match (&r.check, &r.check_fn) {
                (Some(ch), None) => compile_field(c, "check", ch),
                (None, Some(f)) => match pred_names.get(f.get_ref()) {
                    Some(scope) => {
                        if scope == "src" && !foreach_src {
                            c.err(&file, f.span().start, format!("predicate `{}` is per-source: the rule needs foreach = \"src\"", f.get_ref()));
                        }
                        Some(format!(
                            "crate::validate::predicates::{}(p, s)",
                            f.get_ref()
                        ))
                    }
                    None => {
                        c.err(&file, f.span().start, format!("unknown predicate `{}` (declare it as [[predicate]] in properties.toml)", f.get_ref()));
                        None
                    }
                },
                (Some(_), Some(_)) => {
                    c.err(&file, off, "give either `check` or `check_fn`, not both");
                    None
                }
                (None, None) => {
                    c.err(
                        &file,
                        off,
                        "rule needs `check` (an expression) or `check_fn` (a named Rust predicate)",
                    );
                    None
                }
            };
            let when_code = when.unwrap_or_else(|| "true".into());
            let check_code = check.unwrap_or_else(|| "true".into());
            let code = format!("(!({when_code}) || ({check_code}))");
            let row = c.row(r, &file, &S::new(off..off, String::new()), m);
            rules.push(RuleRow {
                row,
                code,
                when_code,
                check_code,
                foreach_src,
            });
        }
    }

    rules
}
