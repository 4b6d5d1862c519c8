//! Seed inputs for the fuzz targets: the example kernels, the seed 003 fixture, golden
//! vectors generated in-process on every platform, and the thread states and protocol lines
//! derived from them. Everything comes from the repository or is generated: no ../shared.

use euref::golden::{self, GenConfig};
use euref::spec::Platform;
use euref::vector::Vector;
use std::sync::OnceLock;

/// Golden vectors generated per platform (a mix of operations; a few hundred in all).
pub fn vectors() -> &'static [Vector] {
    static V: OnceLock<Vec<Vector>> = OnceLock::new();
    V.get_or_init(|| {
        let mut all = Vec::new();
        for p in Platform::ALL {
            let cfg = GenConfig::new(p, 26);
            golden::generate(&cfg, 60, &mut std::io::sink(), |chunk| {
                all.extend(chunk.iter().flatten().cloned());
            })
            .expect("generating seed vectors into a sink");
        }
        all
    })
}

/// Vector file lines (JSON, no newline).
pub fn vector_lines() -> Vec<Vec<u8>> {
    vectors().iter().map(|v| v.to_line().into_bytes()).collect()
}

/// Assembly texts: whole example programs, and each vector's instruction on its own.
pub fn asm_texts() -> Vec<Vec<u8>> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut t: Vec<Vec<u8>> = ["examples/kernels", "tests/fixtures"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).into_iter().flatten())
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "asm"))
        .map(|p| std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .collect();
    assert!(t.len() >= 3, "the example kernels and fixtures are missing");
    t.extend(vectors().iter().map(|v| v.insn.clone().into_bytes()));
    t
}

/// Thread states as JSON: each vector's initial registers as hex byte strings (the `--state`
/// form), plus hand-written ones using the other value forms of src/state/json.rs.
pub fn state_texts() -> Vec<(Platform, Vec<u8>)> {
    let mut t: Vec<(Platform, Vec<u8>)> = vectors()
        .iter()
        .map(|v| {
            let p = euref::gen::parse_gen(&v.gen).expect("a generated vector names its platform");
            let m: serde_json::Map<String, serde_json::Value> = v
                .initial
                .iter()
                .map(|(k, h)| (k.clone(), serde_json::Value::String(h.clone())))
                .collect();
            (p, serde_json::Value::Object(m).to_string().into_bytes())
        })
        .collect();
    for s in [
        r#"{"base": "zero", "r2": {"type": "f", "values": [1.5, 2, null, "0x7fc00000"]}, "r3": "00112233xx", "f0": "0xffff", "cr0": {"rounding_mode": 3}}"#,
        r#"{"base": "undefined", "r4": {"type": "uq", "values": [18446744073709551615, 1], "offset": 8}, "ip": 32}"#,
        r#"{"platform": "skl", "acc0": {"type": "d", "values": [-1, 2147483647]}, "a0": {"hex": "0102", "undefined": "ff00"}}"#,
        r#"{"r127": {"type": "hf", "values": ["inf", "-inf", "nan", 0.5]}, "sr0": "0x1"}"#,
    ] {
        t.push((Platform::Skl, s.as_bytes().to_vec()));
    }
    t
}
