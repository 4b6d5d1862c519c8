//! The fast line writer of `euref golden` (`golden::generate_lines`, JSON written straight into
//! a byte buffer) against serde: every line parses to a `Vector` that serde writes back byte
//! for byte, on every generation and with a type and opcode selection; and the coverage path
//! (`golden::generate`, vectors parsed back) writes the same bytes and sees every vector.

use euref::golden::template::OpSel;
use euref::golden::{generate, generate_lines, vector, GenConfig, Vector};
use euref::spec::{DataType, Opcode, Platform};

fn lines_agree_with_serde(cfg: &GenConfig, count: u64) -> usize {
    let mut buf = Vec::new();
    let stats = generate_lines(cfg, count, &mut buf, |_, _, _| {}).unwrap();
    let text = String::from_utf8(buf).unwrap();
    let mut n = 0;
    for line in text.lines() {
        let v: Vector = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert_eq!(v.to_line(), line, "serde writes the vector otherwise");
        // Rules and classes (written from bit sets of numbered IDs and labels) are in
        // ascending order without repeats.
        for list in [&v.rules, &v.classes] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "{list:?} in {line}");
        }
        n += 1;
    }
    assert_eq!(n as u64, stats.written);
    n
}

#[test]
fn fast_lines_are_what_serde_writes_on_every_generation() {
    for p in Platform::ALL {
        let cfg = GenConfig::new(p, 0x1234);
        let n = lines_agree_with_serde(&cfg, 6_000);
        assert!(n >= 5_900, "{}: {n} vectors", p.name());
    }
}

#[test]
fn fast_lines_are_what_serde_writes_with_selections() {
    let mut cfg = GenConfig::new(Platform::Skl, 77);
    cfg.types = vec![DataType::HF, DataType::F, DataType::UW];
    assert!(lines_agree_with_serde(&cfg, 3_000) > 2_000);
    let mut cfg = GenConfig::new(Platform::Bdw, 5);
    cfg.ops = vec![OpSel::Op(Opcode::Cmp), OpSel::Op(Opcode::Mad)];
    assert_eq!(lines_agree_with_serde(&cfg, 2_000), 2_000);
}

#[test]
fn coverage_path_writes_the_same_bytes_and_sees_every_vector() {
    let cfg = GenConfig::new(Platform::Skl, 9);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    generate_lines(&cfg, 20_000, &mut a, |_, _, _| {}).unwrap();
    let mut seen = 0;
    let mut ids = Vec::new();
    generate(&cfg, 20_000, &mut b, |c| {
        seen += c.len();
        ids.extend(c.iter().flatten().take(3).map(|v| v.id.clone()));
    })
    .unwrap();
    assert_eq!(a, b);
    assert_eq!(seen, 20_000);
    assert_eq!(ids[..3], ["skl-9-0", "skl-9-1", "skl-9-2"]);
    // One vector on its own is the same as in the run.
    let line = a.split(|c| *c == b'\n').nth(12_345).unwrap();
    let v: Vector = serde_json::from_slice(line).unwrap();
    assert_eq!(vector(&cfg, 12_345), Some(v));
}
