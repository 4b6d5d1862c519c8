//! Shared helpers of the encoding tests: reading the Mesa corpus (`<corpus>/mesa`, see
//! common/material.rs and the corpus's README.md).

#![allow(dead_code)]

use euref::spec::Platform;
use std::path::PathBuf;

/// The corpus's `mesa/` folder.
pub fn mesa_dir() -> PathBuf {
    crate::material::corpus_root().join("mesa")
}

/// The corpus folders and the platform each one is assembled for.
pub const ASM_DIRS: [(&str, Platform); 4] = [
    ("gen7", Platform::Ivb),
    ("gen7.5", Platform::Hsw),
    ("gen8", Platform::Bdw),
    ("gen9", Platform::Skl),
];

/// Parse `xx xx ..` hex bytes.
pub fn hex_bytes(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).expect("hex byte"))
        .collect()
}

pub fn word16(s: &str) -> u128 {
    let b = hex_bytes(s);
    let a: [u8; 16] = b.as_slice().try_into().expect("16 bytes");
    euref::encoding::native_word(&a)
}

pub fn word8(s: &str) -> u64 {
    let b = hex_bytes(s);
    let a: [u8; 8] = b.as_slice().try_into().expect("8 bytes");
    euref::encoding::compact_word(&a)
}

/// Whether the corpus is present (tests that need it skip, loudly, when it is not, and fail
/// when it is required: common/material.rs).
pub fn corpus_present() -> bool {
    crate::material::corpus().is_some()
}

/// Every `.asm` file of a corpus folder with its `.expected` partner, sorted.
pub fn asm_files(dir: &str) -> Vec<(PathBuf, PathBuf)> {
    let d = mesa_dir().join("asm").join(dir);
    let mut out: Vec<(PathBuf, PathBuf)> = std::fs::read_dir(&d)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "asm"))
                .map(|p| {
                    let e = p.with_extension("expected");
                    (p, e)
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// The statements of an .asm file: labels are dropped, a `send` statement's two lines are
/// joined, `/* ... */` comments removed.
pub fn statements(text: &str) -> Vec<String> {
    let mut out = vec![];
    let mut cur = String::new();
    for line in text.lines() {
        let mut l = line.to_string();
        while let Some(a) = l.find("/*") {
            match l[a..].find("*/") {
                Some(b) => l.replace_range(a..a + b + 2, " "),
                None => l.truncate(a),
            }
        }
        let t = l.trim();
        if t.is_empty() || (t.ends_with(':') && !t.contains(' ')) {
            continue;
        }
        cur.push_str(t);
        cur.push(' ');
        if t.ends_with(';') {
            out.push(cur.trim().to_string());
            cur.clear();
        }
    }
    out
}

/// (statement, native word) for every instruction of a corpus folder.
pub fn corpus(dir: &str) -> Vec<(String, String, u128)> {
    let mut out = vec![];
    for (asm, exp) in asm_files(dir) {
        let a = std::fs::read_to_string(&asm).expect("read .asm");
        let e = std::fs::read_to_string(&exp).expect("read .expected");
        let st = statements(&a);
        let words: Vec<u128> = e
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(word16)
            .collect();
        assert_eq!(
            st.len(),
            words.len(),
            "{}: statements vs words",
            asm.display()
        );
        let name = asm
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        for (s, w) in st.into_iter().zip(words) {
            out.push((name.clone(), s, w));
        }
    }
    out
}

/// Rows of compact/<platform>.tsv: (file, native, compact).
pub fn compact_rows(name: &str) -> Vec<(String, u128, u64)> {
    let t = std::fs::read_to_string(mesa_dir().join("compact").join(name)).expect("tsv");
    t.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            (c[0].to_string(), word16(c[1]), word8(c[2]))
        })
        .collect()
}

/// A native word of `op` on `p` with `sets` (field name, value) applied on the layout the
/// word selects (twice, so fields of the layout a set selects are set too).
pub fn word(p: Platform, op: euref::spec::Opcode, sets: &[(&str, u64)]) -> u128 {
    use euref::encoding::layout_for;
    let mut w = 0u128;
    layout_for(w, p)
        .field("opcode")
        .unwrap()
        .set(&mut w, u64::from(op.number(p).unwrap()));
    for _ in 0..2 {
        for (name, v) in sets {
            if let Some(f) = layout_for(w, p).field(name) {
                f.set(&mut w, *v);
            }
        }
    }
    w
}

/// The register-file field value of `name` (e.g. "grf") on `p`.
pub fn file(p: Platform, name: &str) -> u64 {
    use euref::spec::encoding::values;
    let t = if p.info().gen_x10 >= 80 {
        &values::GEN8_REG_FILE
    } else {
        &values::GEN7_REG_FILE
    };
    t.value(name).unwrap()
}
