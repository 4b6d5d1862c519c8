//! Loading spec/runtime.toml: state-dependent restrictions (checked by the executor, not
//! compiled from expressions: they depend on register contents, not on the instruction).

use super::ctx::Ctx;
use super::*;

pub(super) fn load_runtime(c: &mut Ctx) -> Vec<Row<RuntimeRule>> {
    let mut rows = vec![];
    let Some((f, file)) = c.load::<RuntimeFile>("runtime.toml", true) else {
        return rows;
    };
    let mut consts: BTreeMap<String, usize> = BTreeMap::new();
    for r in f.runtime {
        let r = r.into_inner();
        let m = c.common(&file, &r.id, &r.gens, &r.cite, &["runtime."]);
        let off = r.id.span().start;
        c.one_of(
            &file,
            &r.undefined,
            "undefined",
            &["dst", "flags", "all", "none"],
        );
        if r.msg.trim().is_empty() {
            c.err(&file, off, format!("`{}` has an empty msg", r.id.get_ref()));
        }
        // Each row becomes a constant: two IDs must not give the same name.
        c.unique_const(&mut consts, &file, off, r.id.get_ref(), "runtime.");
        rows.push(c.row(r, &file, &S::new(off..off, String::new()), m));
    }
    rows
}
