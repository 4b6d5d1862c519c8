//! A scratch folder holding a kernel file and a description.

use euref::dispatch::{DescError, Dispatch};
use std::path::PathBuf;

pub struct Scratch {
    pub dir: tempfile::TempDir,
}

impl Scratch {
    /// A folder with `k.bin` (two 16-byte words of zeros).
    pub fn new() -> Scratch {
        let dir = tempfile::tempdir().expect("temporary folder");
        std::fs::write(dir.path().join("k.bin"), [0u8; 32]).expect("write k.bin");
        Scratch { dir }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    pub fn parse(&self, json: &str) -> Result<Dispatch, DescError> {
        Dispatch::parse(json, self.dir.path())
    }
}

/// A minimal valid description with `extra` keys spliced in (`extra` starts with a comma or
/// is empty).
pub fn minimal(extra: &str) -> String {
    format!(
        r#"{{"kernel": {{"file": "k.bin"}}, "platform": "skl", "simd": 16,
  "local_size": [16, 1, 1], "work_groups": [1, 1, 1]{extra}}}"#
    )
}
