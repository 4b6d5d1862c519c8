//! Loading spec/flow.toml: SIMD control flow (branch opcodes and the channel model the thread
//! runner follows).

use super::ctx::Ctx;
use super::*;

pub(super) fn load_flow(c: &mut Ctx, opcodes: &[OpcodeRow]) -> Vec<Row<FlowRow>> {
    let mut rows = vec![];
    let Some((f, file)) = c.load::<FlowFile>("flow.toml", false) else {
        return rows;
    };
    let mut consts: BTreeMap<String, usize> = BTreeMap::new();
    for r in f.flow {
        let r = r.into_inner();
        let m = c.common(&file, &r.id, &r.gens, &r.cite, &["flow."]);
        let off = r.id.span().start;
        c.one_of(
            &file,
            &r.status,
            "status",
            &["defined", "assumption", "undefined", "unmodelled"],
        );
        c.one_of(
            &file,
            &r.offsets,
            "offsets",
            &["none", "jip", "jip uip", "target"],
        );
        if let Some(op) = &r.op {
            if !opcodes
                .iter()
                .any(|o| o.row.v.name.get_ref() == op.get_ref())
            {
                c.err(
                    &file,
                    op.span().start,
                    format!("op `{}` is not an opcode of opcodes.toml", op.get_ref()),
                );
            }
        }
        c.nonempty_text(&file, off, r.id.get_ref(), &r.text);
        // Each row becomes a constant: two IDs must not give the same name.
        c.unique_const(&mut consts, &file, off, r.id.get_ref(), "flow.");
        rows.push(c.row(r, &file, &S::new(off..off, String::new()), m));
    }
    rows
}
