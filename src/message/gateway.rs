//! Message gateway messages (SFID 3): a typed view of a decoded [`Message`].

use super::descriptor::Message;
use crate::spec::descriptors::MsgValueInfo;

/// What a gateway descriptor says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gateway {
    /// The sub-function row (`msgval.gateway-subfunc.*`).
    pub subfunction: &'static MsgValueInfo,
    /// The notify bit (descf.gateway.notify: ignored by barriers).
    pub notify: bool,
}

impl Gateway {
    /// Whether the message is a barrier (`msgval.gateway-subfunc.barrier`).
    pub fn is_barrier(&self) -> bool {
        self.subfunction.name == "barrier"
    }
}

/// The gateway view of `m` (None for other shared functions).
pub fn view(m: &Message) -> Option<Gateway> {
    if m.sfid.types != Some("gateway_subfunc") {
        return None;
    }
    Some(Gateway {
        subfunction: m.ty?,
        notify: m.get("notify")? != 0,
    })
}
