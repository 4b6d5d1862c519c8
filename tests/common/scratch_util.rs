//! Scratch folders of the tests: each [`Scratch`] is a fresh folder `euref-<tag>-XXXXXX` in
//! the temporary directory, removed with everything in it when the `Scratch` is dropped: at
//! the end of the test that owns it, and also when the test panics (drop runs while
//! unwinding). Keep it alive while a child process uses its files.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub struct Scratch(tempfile::TempDir);

impl Scratch {
    /// A new empty folder; `tag` names the test file (`euref-<tag>-` starts its name).
    pub fn new(tag: &str) -> Scratch {
        let dir = tempfile::Builder::new()
            .prefix(&format!("euref-{tag}-"))
            .tempdir()
            .expect("create a scratch folder");
        Scratch(dir)
    }

    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// `name` in the folder (not created).
    pub fn join(&self, name: &str) -> PathBuf {
        self.path().join(name)
    }

    /// The file `name` in the folder, holding `data`.
    pub fn file(&self, name: &str, data: impl AsRef<[u8]>) -> PathBuf {
        let p = self.join(name);
        std::fs::write(&p, data).unwrap();
        p
    }
}
