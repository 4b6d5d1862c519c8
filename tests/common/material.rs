//! Material outside the repository that some tests read:
//! - the corpus: `$EUREF_CORPUS`, by default `../shared/corpus` beside the checkout (the folder
//!   holding `mesa/`: Mesa's assembler, compaction and validator tests with exact encodings);
//! - the seed texts: `$EUREF_SEEDS`, by default `../shared/seeds` (the documents spec/ cites).
//!
//! A test that needs one asks [`corpus`] or [`seeds`] first. When the material is absent the
//! test returns early (it "skips") after one line on standard error, written past the test
//! harness's capture so that it is always visible, naming the test, what is missing and which
//! variable to set. When `CI=true` or `EUREF_REQUIRE_CORPUS=1`, absent material fails the test
//! instead, so CI can never skip silently.

#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;

/// The material a test can need.
#[derive(Clone, Copy)]
enum Material {
    Corpus,
    Seeds,
}

impl Material {
    fn var(self) -> &'static str {
        match self {
            Material::Corpus => "EUREF_CORPUS",
            Material::Seeds => "EUREF_SEEDS",
        }
    }

    fn what(self) -> &'static str {
        match self {
            Material::Corpus => "the Mesa corpus (the folder holding mesa/)",
            Material::Seeds => "the seed texts (the folder holding 000_*.txt ... 004_*.txt)",
        }
    }

    /// The folder: the variable's value, or the default beside the checkout.
    fn root(self) -> PathBuf {
        match std::env::var_os(self.var()) {
            Some(d) => PathBuf::from(d),
            None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(match self {
                Material::Corpus => "../shared/corpus",
                Material::Seeds => "../shared/seeds",
            }),
        }
    }

    /// Whether the folder holds the material (a file every copy has).
    fn present(self, root: &std::path::Path) -> bool {
        match self {
            Material::Corpus => root.join("mesa/README.md").is_file(),
            Material::Seeds => root.join("README.md").is_file(),
        }
    }
}

/// Whether absent material fails the test (`CI=true` or `EUREF_REQUIRE_CORPUS=1`).
pub fn required() -> bool {
    let on = |var: &str, yes: &[&str]| {
        std::env::var(var)
            .map(|v| yes.iter().any(|y| v.eq_ignore_ascii_case(y)))
            .unwrap_or(false)
    };
    on("CI", &["true", "1"]) || on("EUREF_REQUIRE_CORPUS", &["1", "true"])
}

fn ask(m: Material) -> Option<PathBuf> {
    let root = m.root();
    if m.present(&root) {
        return Some(root);
    }
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    if required() {
        panic!(
            "{test} needs {} and it is not at {} (CI=true or EUREF_REQUIRE_CORPUS=1 require it): \
             set {} to its folder",
            m.what(),
            root.display(),
            m.var()
        );
    }
    // Straight to the process's standard error: the harness captures print!/eprint! of a
    // passing test, and this notice must be seen.
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {test}: needs {}, not found at {} (set {} to its folder; CI=true or \
         EUREF_REQUIRE_CORPUS=1 make this a failure)",
        m.what(),
        root.display(),
        m.var()
    );
    None
}

/// The corpus root when present; `None` (after the notice) when the test should skip.
pub fn corpus() -> Option<PathBuf> {
    ask(Material::Corpus)
}

/// The seeds folder when present; `None` (after the notice) when the test should skip.
pub fn seeds() -> Option<PathBuf> {
    ask(Material::Seeds)
}

/// The corpus root, for helpers called by a test that has asked [`corpus`] first.
pub fn corpus_root() -> PathBuf {
    Material::Corpus.root()
}

/// The seeds folder, for helpers called by a test that has asked [`seeds`] first.
pub fn seeds_root() -> PathBuf {
    Material::Seeds.root()
}

/// Intel's IGA assembler (`iga64`, Debian's libigc-tools, which scripts/test.sh installs):
/// `$EUREF_IGA`, else `iga64` on the PATH. `None` (after a SKIPPED notice) when absent and not
/// required; a failure when `CI=true` or `EUREF_REQUIRE_CORPUS=1`.
pub fn iga64() -> Option<PathBuf> {
    let named = std::env::var_os("EUREF_IGA").map(PathBuf::from);
    let found = named.clone().or_else(|| {
        std::env::var_os("PATH").and_then(|path| {
            std::env::split_paths(&path)
                .map(|d| d.join("iga64"))
                .find(|p| p.is_file())
        })
    });
    if let Some(p) = found.filter(|p| p.is_file()) {
        return Some(p);
    }
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    let why = match named {
        Some(p) => format!("EUREF_IGA={} is not a file", p.display()),
        None => "iga64 is not on the PATH".to_string(),
    };
    if required() {
        panic!(
            "{test} needs Intel's IGA assembler: {why} (CI=true or EUREF_REQUIRE_CORPUS=1 \
             require it): run scripts/test.sh, which installs Debian's libigc-tools, or set \
             EUREF_IGA"
        );
    }
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {test}: needs Intel's IGA assembler: {why} (scripts/test.sh installs Debian's \
         libigc-tools; or set EUREF_IGA; CI=true or EUREF_REQUIRE_CORPUS=1 make this a failure)"
    );
    None
}
