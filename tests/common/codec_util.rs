//! Shared helpers of the tests/codec_*.rs files: the Mesa corpus (`$EUREF_CORPUS`, by default
//! `<crate>/../shared/corpus`, see its mesa/README.md) and a small deterministic generator.

#![allow(dead_code)]

use euref::spec::Platform;
use std::path::PathBuf;

/// The corpus root (`$EUREF_CORPUS` or `<crate>/../shared/corpus`; a test asks
/// `material::corpus()` first and skips when it is absent).
pub fn corpus() -> PathBuf {
    crate::material::corpus_root()
}

/// The Mesa assembler tests folder (`<corpus>/mesa/asm`); fails clearly when it is missing.
pub fn mesa_asm_dir() -> PathBuf {
    let asm = corpus().join("mesa/asm");
    assert!(
        asm.is_dir(),
        "Mesa corpus not found at {} (set EUREF_CORPUS to the folder holding mesa/asm)",
        asm.display()
    );
    asm
}

/// The assembler test folders and their platforms.
pub const GENS: [(&str, Platform); 4] = [
    ("gen7", Platform::Ivb),
    ("gen7.5", Platform::Hsw),
    ("gen8", Platform::Bdw),
    ("gen9", Platform::Skl),
];

/// Every `.asm` file of `mesa/asm/<dir>` with its `.expected` partner, sorted.
pub fn asm_files(dir: &str) -> Vec<(PathBuf, PathBuf)> {
    let d = corpus().join("mesa/asm").join(dir);
    let rd = std::fs::read_dir(&d).unwrap_or_else(|e| {
        panic!(
            "Mesa corpus not found at {}: {e} (set EUREF_CORPUS to the folder holding mesa/)",
            d.display()
        )
    });
    let mut v: Vec<(PathBuf, PathBuf)> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "asm"))
        .map(|p| {
            let e = p.with_extension("expected");
            (p, e)
        })
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no .asm files in {}", d.display());
    v
}

/// Parse whitespace-separated hex bytes.
pub fn hex_bytes(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).expect("hex byte"))
        .collect()
}

/// The 16-byte lines of an `.expected` file.
pub fn expected(path: &std::path::Path) -> Vec<[u8; 16]> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            hex_bytes(l)
                .try_into()
                .unwrap_or_else(|_| panic!("{}: not 16 bytes: {l}", path.display()))
        })
        .collect()
}

/// The names of the fields (of the layout `select` gives `want`) whose values differ between
/// two native words.
pub fn diff_fields(got: u128, want: u128, p: Platform) -> Vec<&'static str> {
    let l = euref::encoding::layout_for(want, p);
    let mut v: Vec<&'static str> = l
        .fields
        .iter()
        .filter(|f| f.get(got) != f.get(want))
        .map(|f| f.name)
        .collect();
    if v.is_empty() {
        v.push("(layout)");
    }
    v
}

/// xorshift64*.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    pub fn bool(&mut self) -> bool {
        self.next() & 1 == 1
    }
    pub fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.below(v.len() as u64) as usize]
    }
}

/// Run the `euref` binary with `args` and environment `env`, writing `stdin` to its standard
/// input (none when None): the exit status (-1 if killed), standard output and standard error.
pub fn run_euref(
    args: &[&str],
    env: &[(&str, String)],
    stdin: Option<&[u8]>,
) -> (i32, Vec<u8>, String) {
    use std::process::{Command, Stdio};
    let mut c = Command::new(env!("CARGO_BIN_EXE_euref"));
    c.args(args)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    let mut child = c.spawn().expect("run euref");
    if let Some(data) = stdin {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(data).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A path as the `&str` a command line takes (the test folders are UTF-8).
pub fn path_str(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}
