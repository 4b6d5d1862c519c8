//! Loading spec/memory.toml: the memory model (flat A64 memory, binding-table surfaces, shared
//! local memory) and how the thread runner executes send messages.

use super::ctx::Ctx;
use super::descriptors::Descriptors;
use super::*;

pub(super) fn load_memory(c: &mut Ctx, d: &Descriptors) -> Vec<Row<MemoryRow>> {
    let mut rows = vec![];
    let Some((f, file)) = c.load::<MemoryFile>("memory.toml", false) else {
        return rows;
    };
    let mut consts: BTreeMap<String, usize> = BTreeMap::new();
    for r in f.memory {
        let r = r.into_inner();
        let m = c.common(&file, &r.id, &r.gens, &r.cite, &["mem.", "send."]);
        let off = r.id.span().start;
        c.one_of(
            &file,
            &r.status,
            "status",
            &["defined", "assumption", "undefined", "unmodelled"],
        );
        if let Some(msg) = &r.message {
            if !d.values.iter().any(|v| v.v.name == *msg.get_ref()) {
                c.err(
                    &file,
                    msg.span().start,
                    format!(
                        "message `{}` is not the name of a [[msg_value]] row of descriptors.toml",
                        msg.get_ref()
                    ),
                );
            }
        }
        c.nonempty_text(&file, off, r.id.get_ref(), &r.text);
        // Each row becomes a constant: two IDs must not give the same name.
        c.unique_const(&mut consts, &file, off, r.id.get_ref(), "mem.");
        rows.push(c.row(r, &file, &S::new(off..off, String::new()), m));
    }
    rows
}
