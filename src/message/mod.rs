//! Send messages: the descriptor of a `send` / `sendc` / `sends` / `sendsc` decoded from the
//! rows of spec/descriptors.toml (`crate::spec::descriptors`), one module per shared function,
//! and the message description the disassemblers print.
//!
//! - [`descriptor`]: SFID + descriptor (+ extended descriptor) -> [`Message`], the fields every
//!   row gives, with [`DescError`] naming the field of a reserved or unknown value;
//! - [`dataport`], [`gateway`], [`spawner`]: typed views of the data-port, message-gateway and
//!   thread-spawner messages;
//! - [`mesa_text`], [`iga_text`]: Mesa's description line and IGA's end-of-line comment.
//!
//! Nothing here executes a message (memory, payloads and dispatch are later work).

pub mod dataport;
pub mod descriptor;
pub mod gateway;
pub mod iga_text;
pub mod mesa_text;
pub mod spawner;

pub use descriptor::{decode, DescError, FieldValue, Message};
