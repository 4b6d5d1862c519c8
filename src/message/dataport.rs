//! Data-port messages (render cache, sampler cache, constant cache, DC0, DC1): a typed view of
//! a decoded [`Message`].

use super::descriptor::{value_row, Message};
use crate::spec::descriptors::MsgValueInfo;

/// What a data-port descriptor says, from the rows of spec/descriptors.toml.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataPort {
    /// The message type row (`msgval.dc0-type.*`, `msgval.dc1-type.*`, ...).
    pub ty: &'static MsgValueInfo,
    /// Binding table index.
    pub bti: u8,
    /// The special meaning of the index (`msgval.bti.*`: SLM, stateless, ...), if any.
    pub surface: Option<&'static MsgValueInfo>,
    /// Channels per lane (SIMD width) where the message control gives it: 8, 16, or 0 for
    /// SIMD4x2.
    pub simd: Option<u32>,
    /// Enabled colour channels (R, G, B, A order) of untyped / typed surface messages.
    pub channels: Option<u32>,
    /// The atomic operation row (`msgval.aop.*` / `msgval.aop-float.*`).
    pub atomic: Option<&'static MsgValueInfo>,
    /// Atomics: the message returns data.
    pub returns: Option<bool>,
    /// Byte / A64 scattered: the element size row.
    pub data_size: Option<&'static MsgValueInfo>,
    /// OWord block messages: the block size row.
    pub blocks: Option<&'static MsgValueInfo>,
    /// Memory fence: commit enabled.
    pub commit: Option<bool>,
}

/// The data-port view of `m`, or None when `m` is not a data-port message (its SFID has no
/// `bti` field) or has no type.
pub fn view(m: &Message) -> Option<DataPort> {
    let ty = m.ty?;
    let bti = m.get("bti")?;
    if m.sfid.types == Some("sampler_type") {
        return None;
    }
    let named = |n: &str| m.field(n).and_then(|f| f.named);
    let simd = if let Some(s) = named("simd_mode") {
        Some(simd_of(s.name))
    } else if let Some(v) = m.get("simd8") {
        Some(if v != 0 { 8 } else { 16 })
    } else {
        m.get("simd16").map(|v| if v != 0 { 16 } else { 8 })
    };
    Some(DataPort {
        ty,
        bti: bti as u8,
        surface: value_row("bti", bti, m.platform),
        simd,
        channels: m.get("channel_mask").map(|c| 4 - (c & 0xf).count_ones()),
        atomic: named("atomic_op"),
        returns: m.get("return_data").map(|v| v != 0),
        data_size: named("data_size"),
        blocks: named("block_size"),
        commit: m.get("commit").map(|v| v != 0),
    })
}

fn simd_of(name: &str) -> u32 {
    match name {
        "simd16" => 16,
        "simd8" => 8,
        _ => 0,
    }
}
