//! Thread spawner messages (SFID 7): a typed view of a decoded [`Message`]. A compute thread
//! ends with a send to the thread spawner with EOT set (seed003: `send ... 0x27 0x2000010
//! {EOT}`).

use super::descriptor::Message;
use crate::spec::descriptors::MsgValueInfo;

/// What a thread-spawner descriptor says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spawner {
    /// The opcode row (`msgval.spawner-opcode.*`).
    pub opcode: &'static MsgValueInfo,
    /// The request type row (`msgval.spawner-request.*`).
    pub request: &'static MsgValueInfo,
    /// Resource select: 1 = do not dereference the URB.
    pub no_urb_dereference: bool,
}

impl Spawner {
    /// Whether, sent with EOT, the message ends a root thread (dereference, root request).
    pub fn ends_root_thread(&self) -> bool {
        self.opcode.name == "dereference" && self.request.name == "root"
    }
}

/// The thread-spawner view of `m` (None for other shared functions).
pub fn view(m: &Message) -> Option<Spawner> {
    if m.sfid.types != Some("spawner_opcode") {
        return None;
    }
    Some(Spawner {
        opcode: m.ty?,
        request: m.field("request_type")?.named?,
        no_urb_dereference: m.get("resource_select")? != 0,
    })
}
