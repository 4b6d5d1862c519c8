//! Choosing a platform: `--gen` accepts generation numbers (7, 7.5, 8, 9),
//! platform names (ivb, hsw, bdw, chv, skl, bxt) and the aliases in
//! spec/platforms.toml.

use crate::spec::Platform;
use std::fmt;

/// A `--gen` value that names no platform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownGen(pub String);

impl fmt::Display for UnknownGen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<String> = Platform::ALL
            .iter()
            .map(|p| {
                let i = p.info();
                format!("{} ({})", i.name, i.aliases.join(", "))
            })
            .collect();
        write!(
            f,
            "unknown generation {}: expected one of {}",
            crate::quote::quote_str(&self.0),
            known.join("; ")
        )
    }
}

impl std::error::Error for UnknownGen {}

/// Parse a `--gen` value.
pub fn parse_gen(s: &str) -> Result<Platform, UnknownGen> {
    Platform::parse(s).ok_or_else(|| UnknownGen(s.to_string()))
}
