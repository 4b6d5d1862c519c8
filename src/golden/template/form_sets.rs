//! The coverage labels and the region rules of a template's form as bit sets over fixed,
//! text-ordered tables: a form names them by constant bits (checked when compiled), so building
//! a form formats, allocates and sorts no strings, and its labels come out in text order.

/// Every coverage label a form can carry, in text (byte) order.
pub const FORM_LABELS: [&str; 42] = [
    "access:align16",
    "accwr",
    "cmod:g",
    "cmod:ge",
    "cmod:l",
    "cmod:le",
    "cmod:nz",
    "cmod:o",
    "cmod:u",
    "cmod:z",
    "denorm:flush",
    "denorm:keep",
    "dst:strided",
    "exec:1",
    "exec:16",
    "exec:2",
    "exec:4",
    "exec:8",
    "fmode:alt",
    "fmode:ieee",
    "imm:vector",
    "pred:-f0.0",
    "pred:all4h",
    "pred:any2h",
    "pred:any4h",
    "pred:f0.0",
    "pred:f0.1",
    "pred:f1.0",
    "pred:none",
    "region:2d",
    "region:contiguous",
    "region:imm",
    "region:row-repeat",
    "region:scalar",
    "region:strided",
    "round:rd",
    "round:rtne",
    "round:rtz",
    "round:ru",
    "sat",
    "srcmod:abs",
    "srcmod:neg",
];

/// The region rules of spec/rules/regions.toml the templates shape operands by.
pub const REGION_RULES: [&str; 16] = [
    "region.align16-dst-hstride-1",
    "region.align16-vstride-0-4",
    "region.dst-hstride-legal",
    "region.dst-hstride-nonzero",
    "region.dst-stride-exec-ratio",
    "region.exec-size-times-elem-le-64",
    "region.exec1-width1-strides0",
    "region.hstride-legal",
    "region.packed-byte-dst-raw-mov",
    "region.row-within-grf",
    "region.strides0-width1",
    "region.vstride-eq-width-hstride",
    "region.vstride-legal",
    "region.width-le-exec",
    "region.width-legal",
    "region.width1-hstride0",
];

const fn sorted(t: &[&str]) -> bool {
    let mut i = 1;
    while i < t.len() {
        if !less(t[i - 1].as_bytes(), t[i].as_bytes()) {
            return false;
        }
        i += 1;
    }
    true
}

/// `a < b` in byte order.
const fn less(a: &[u8], b: &[u8]) -> bool {
    let mut i = 0;
    while i < a.len() && i < b.len() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
        i += 1;
    }
    a.len() < b.len()
}

const _: () = assert!(sorted(&FORM_LABELS) && sorted(&REGION_RULES));

/// Whether `s` is `prefix` followed by `rest`.
const fn is_concat(s: &str, prefix: &str, rest: &str) -> bool {
    let (s, p, r) = (s.as_bytes(), prefix.as_bytes(), rest.as_bytes());
    if s.len() != p.len() + r.len() {
        return false;
    }
    let mut i = 0;
    while i < s.len() {
        let c = if i < p.len() { p[i] } else { r[i - p.len()] };
        if s[i] != c {
            return false;
        }
        i += 1;
    }
    true
}

/// The bit of `prefix` + `rest` in `table` (a compile error when it is not there).
pub(super) const fn bit_of(table: &[&str], prefix: &str, rest: &str) -> u64 {
    let mut i = 0;
    while i < table.len() {
        if is_concat(table[i], prefix, rest) {
            return 1 << i;
        }
        i += 1;
    }
    panic!("not in the table")
}

/// The position of `s` in `table` (a compile error when it is not there).
pub(super) const fn index_of(table: &[&str], s: &str) -> usize {
    bit_of(table, "", s).trailing_zeros() as usize
}

/// The bits of `prefix` + each of `names` in [`FORM_LABELS`].
pub(super) const fn label_bits<const N: usize>(prefix: &str, names: &[&str; N]) -> [u64; N] {
    let mut out = [0; N];
    let mut i = 0;
    while i < N {
        out[i] = bit_of(&FORM_LABELS, prefix, names[i]);
        i += 1;
    }
    out
}

/// The bit of a label of [`FORM_LABELS`], as a constant: `label!("sat")`.
macro_rules! label {
    ($s:literal) => {
        const { form_sets::bit_of(&form_sets::FORM_LABELS, "", $s) }
    };
}

/// The bit of a rule of [`REGION_RULES`], as a constant: `region_rule!("region.width-legal")`.
macro_rules! region_rule {
    ($s:literal) => {
        const { form_sets::bit_of(&form_sets::REGION_RULES, "", $s) }
    };
}

pub(super) use {label, region_rule};

/// The members of bit set `bits` over `table`, in table order.
fn members(bits: u64, table: &'static [&'static str]) -> impl Iterator<Item = &'static str> {
    let mut b = bits;
    std::iter::from_fn(move || {
        while b != 0 {
            let i = b.trailing_zeros() as usize;
            b &= b - 1;
            if let Some(s) = table.get(i) {
                return Some(*s);
            }
        }
        None
    })
}

/// A form's coverage labels: bit `i` is [`FORM_LABELS`]`[i]`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FormLabels(pub u64);

impl FormLabels {
    /// The labels in text order.
    pub fn texts(self) -> impl Iterator<Item = &'static str> {
        members(self.0, &FORM_LABELS)
    }
}

/// The region rules a form's operands are subject to: bit `i` is [`REGION_RULES`]`[i]`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RegionRules(pub u64);

impl RegionRules {
    /// The rule IDs in text order.
    pub fn ids(self) -> impl Iterator<Item = &'static str> {
        members(self.0, &REGION_RULES)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_name_their_table_rows() {
        assert_eq!(bit_of(&FORM_LABELS, "cmod:", "z"), 1 << 9);
        assert_eq!(
            label_bits("exec:", &["1", "16", "2"]),
            [1 << 13, 1 << 14, 1 << 15]
        );
        let l = FormLabels(bit_of(&FORM_LABELS, "", "sat") | bit_of(&FORM_LABELS, "", "accwr"));
        assert_eq!(l.texts().collect::<Vec<_>>(), ["accwr", "sat"]);
        let r = RegionRules(bit_of(&REGION_RULES, "region.", "width-legal"));
        assert_eq!(r.ids().collect::<Vec<_>>(), ["region.width-legal"]);
    }

    #[test]
    fn region_rules_are_rules_of_spec() {
        for id in REGION_RULES {
            assert!(
                crate::spec::rules::RULES.iter().any(|r| r.id == id),
                "{id} is no rule of spec/rules"
            );
        }
    }
}
