//! Which vectors of the input `euref check` sends: not those already in the report
//! (`--resume`), and, when asked, only those of some opcodes (`--ops`) or ids (`--id`).
//! The others are not sent and not counted.

use std::collections::HashSet;

/// A filter on the vectors checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// Ids left out (checked before: `--resume`).
    pub skip: HashSet<String>,
    /// Only vectors whose `op` is one of these (`None`: any).
    pub ops: Option<HashSet<String>>,
    /// Only vectors whose `id` is one of these (`None`: any).
    pub ids: Option<HashSet<String>>,
}

impl Selection {
    /// Whether every vector is kept.
    pub fn keeps_all(&self) -> bool {
        self.skip.is_empty() && self.ops.is_none() && self.ids.is_none()
    }

    /// Whether the vector with `id` and `op` is checked.
    pub fn keeps(&self, id: &str, op: &str) -> bool {
        !self.skip.contains(id)
            && self.ops.as_ref().map_or(true, |o| o.contains(op))
            && self.ids.as_ref().map_or(true, |i| i.contains(id))
    }

    /// The opcodes of a comma-separated list (`mad,sel`), each an opcode mnemonic of the spec
    /// or `math` (as vectors name them), for `--ops`.
    pub fn parse_ops(list: &str) -> Result<HashSet<String>, String> {
        let mut ops = HashSet::new();
        for op in list.split(',').map(str::trim) {
            if op.is_empty() {
                continue;
            }
            let known = op == "math" || crate::spec::Opcode::from_name(op).is_some();
            if !known {
                return Err(format!(
                    "--ops: `{op}` is no opcode (a mnemonic as vectors name it in `op`: add, \
                     mad, sel, math, ...)"
                ));
            }
            ops.insert(op.to_string());
        }
        if ops.is_empty() {
            return Err("--ops: no opcode given (e.g. --ops mad,sel)".into());
        }
        Ok(ops)
    }

    /// The ids of a comma-separated list, for `--id`.
    pub fn parse_ids(list: &str) -> Result<HashSet<String>, String> {
        let ids: HashSet<String> = list
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        if ids.is_empty() {
            return Err("--id: no vector id given (e.g. --id skl-7-42,skl-7-43)".into());
        }
        Ok(ids)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_combine() {
        let mut s = Selection::default();
        assert!(s.keeps_all() && s.keeps("a", "add"));
        s.ops = Some(Selection::parse_ops("mad, sel,").unwrap());
        assert!(s.keeps("a", "sel") && !s.keeps("a", "add"));
        s.ids = Some(Selection::parse_ids("a,b").unwrap());
        s.skip.insert("b".into());
        assert!(s.keeps("a", "mad") && !s.keeps("b", "mad") && !s.keeps("c", "mad"));
        assert!(Selection::parse_ops("math,add").is_ok());
        let e = Selection::parse_ops("mdd").unwrap_err();
        assert!(e.contains("`mdd` is no opcode"), "{e}");
        assert!(Selection::parse_ids(" , ").is_err());
    }
}
