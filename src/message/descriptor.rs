//! Decoding a message descriptor with the rows of spec/descriptors.toml.

use crate::spec::descriptors::{DescFieldInfo, MsgValueInfo, SfidInfo, FIELDS, SFIDS, VALUES};
use crate::spec::Platform;

/// The [[sfid]] row of SFID `n` on `p`.
pub fn sfid_row(n: u8, p: Platform) -> Option<&'static SfidInfo> {
    SFIDS
        .iter()
        .copied()
        .find(|s| s.number == n && s.gens.contains(p))
}

/// The [[msg_value]] row of value `v` of table `table` on `p`.
pub fn value_row(table: &str, v: u32, p: Platform) -> Option<&'static MsgValueInfo> {
    VALUES
        .iter()
        .copied()
        .find(|r| r.table == table && r.value == v && r.gens.contains(p))
}

/// The [[desc_field]] row named `name` of SFID `sfid` on `p` for a message of type `ty`
/// (`None`: only rows that apply to every message type); `exdesc` selects the extended
/// descriptor's fields.
pub fn field_row(
    sfid: u8,
    name: &str,
    ty: Option<&str>,
    exdesc: bool,
    p: Platform,
) -> Option<&'static DescFieldInfo> {
    FIELDS.iter().copied().find(|f| {
        f.name == name
            && f.exdesc == exdesc
            && f.gens.contains(p)
            && (f.sfids.is_empty() || f.sfids.contains(&sfid))
            && (f.types.is_empty() || ty.is_some_and(|t| f.types.contains(&t)))
    })
}

/// A descriptor value no row names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DescError {
    /// A field's value has no [[msg_value]] row on the platform.
    #[error("{what} 0x{word:08x}: field `{field}` ({id}, bits {hi}:{lo}) holds {value}, which is reserved or unknown for SFID {sfid} on {platform} (spec/descriptors.toml table `{table}` has no row for it); check the SFID, the platform and the descriptor")]
    Value {
        what: &'static str,
        word: u32,
        field: &'static str,
        id: &'static str,
        hi: u8,
        lo: u8,
        value: u32,
        sfid: u8,
        platform: &'static str,
        table: &'static str,
    },
    /// The SFID has no [[sfid]] row on the platform.
    #[error("SFID {sfid} names no shared function on {platform} (spec/descriptors.toml [[sfid]]); shared functions are 0 and 2-13 (12-13 from Haswell)")]
    Sfid { sfid: u8, platform: &'static str },
    /// A descriptor with a value the sources read differently (a `conflict` row).
    #[error("extended descriptor 0x{word:08x}: bit 10 is set ({id}): IGA reads it as part of ex_mlen, Mesa does not; the sources conflict, so euref does not decode it")]
    Conflict { word: u32, id: &'static str },
}

/// One decoded field: its row, its value, and the value's row where the field has a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldValue {
    pub row: &'static DescFieldInfo,
    pub value: u32,
    pub named: Option<&'static MsgValueInfo>,
}

/// A decoded message descriptor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub platform: Platform,
    pub sfid: &'static SfidInfo,
    /// The descriptor (bit 31, EOT in Mesa's number, is not part of it).
    pub desc: u32,
    /// The extended descriptor of a split send (without SFID and EOT), if immediate.
    pub ex_desc: Option<u32>,
    pub mlen: u32,
    pub rlen: u32,
    pub header: bool,
    /// Extended message length (split sends only).
    pub ex_mlen: Option<u32>,
    /// The message type (None: the shared function has no type table, e.g. VME).
    pub ty: Option<&'static MsgValueInfo>,
    /// Every SFID-specific field that applies, in row order.
    pub fields: Vec<FieldValue>,
}

impl Message {
    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<&FieldValue> {
        self.fields.iter().find(|f| f.row.name == name)
    }

    /// The value of the field named `name`.
    pub fn get(&self, name: &str) -> Option<u32> {
        self.field(name).map(|f| f.value)
    }

    /// The message type's name (euref's spelling).
    pub fn type_name(&self) -> Option<&'static str> {
        self.ty.map(|t| t.name)
    }
}

fn value_error(
    what: &'static str,
    word: u32,
    f: &'static DescFieldInfo,
    value: u32,
    sfid: u8,
    p: Platform,
    table: &'static str,
) -> DescError {
    DescError::Value {
        what,
        word,
        field: f.name,
        id: f.id,
        hi: f.hi,
        lo: f.lo,
        value,
        sfid,
        platform: p.name(),
        table,
    }
}

/// The message type of `desc` for SFID `sfid` on `p`: a nonzero `category` field selects its
/// own table (DC0 scratch), else the `type` field in the SFID's type table. `Ok(None)` when the
/// SFID has no type table.
pub fn message_type(
    sfid: &'static SfidInfo,
    desc: u32,
    p: Platform,
) -> Result<Option<&'static MsgValueInfo>, DescError> {
    let n = sfid.number;
    if let Some(cat) = field_row(n, "category", None, false, p) {
        let v = cat.get(desc);
        if v != 0 {
            let t = cat.values.unwrap_or("");
            return value_row(t, v, p)
                .map(Some)
                .ok_or_else(|| value_error("descriptor", desc, cat, v, n, p, t));
        }
    }
    let (Some(table), Some(f)) = (sfid.types, field_row(n, "type", None, false, p)) else {
        return Ok(None);
    };
    let v = f.get(desc);
    value_row(table, v, p)
        .map(Some)
        .ok_or_else(|| value_error("descriptor", desc, f, v, n, p, table))
}

/// Decode SFID `sfid`, descriptor `desc` and, for a split send, its immediate extended
/// descriptor `ex_desc` (without SFID and EOT) on `p`. Every field with a value table must
/// name a row; the first that does not is the error.
pub fn decode(
    sfid: u8,
    desc: u32,
    ex_desc: Option<u32>,
    p: Platform,
) -> Result<Message, DescError> {
    let srow = sfid_row(sfid, p).ok_or(DescError::Sfid {
        sfid,
        platform: p.name(),
    })?;
    let common = |name: &str| field_row(sfid, name, None, false, p).map_or(0, |f| f.get(desc));
    let ex_mlen = match ex_desc {
        Some(x) => {
            if let Some(c) = value_row("ex_desc_bit10", (x >> 10) & 1, p) {
                return Err(DescError::Conflict { word: x, id: c.id });
            }
            field_row(sfid, "ex_mlen", None, true, p).map(|f| f.get(x))
        }
        None => None,
    };
    let ty = message_type(srow, desc, p)?;
    let mut fields = Vec::new();
    for f in FIELDS.iter().copied() {
        let applies = !f.exdesc
            && !f.sfids.is_empty()
            && f.sfids.contains(&sfid)
            && f.gens.contains(p)
            && (f.types.is_empty() || ty.is_some_and(|t| f.types.contains(&t.name)));
        if !applies {
            continue;
        }
        let value = f.get(desc);
        let named = match f.values {
            Some(_) if f.name == "category" && value == 0 => None,
            Some(t) => Some(
                value_row(t, value, p)
                    .ok_or_else(|| value_error("descriptor", desc, f, value, sfid, p, t))?,
            ),
            None => None,
        };
        fields.push(FieldValue {
            row: f,
            value,
            named,
        });
    }
    Ok(Message {
        platform: p,
        sfid: srow,
        desc: desc & 0x7fff_ffff,
        ex_desc,
        mlen: common("mlen"),
        rlen: common("rlen"),
        header: common("header") != 0,
        ex_mlen,
        ty,
        fields,
    })
}
