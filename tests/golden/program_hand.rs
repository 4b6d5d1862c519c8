//! The hand-written program the program-vector and coverage tests work out by hand: a loop
//! whose channel c runs its body (r11 += 1) `c & 3` times (the counter is (r10[c] & 3) + 1
//! with r10 = c), then an untyped write of r11 at byte 4c of the surface at BTI 3, on
//! Broadwell with channels 0-7 dispatched; and reading a program vector's initial state back
//! from its JSON.

use euref::golden::program::vector::Setup;
use euref::memory::{Memory, Slm, Surface};
use euref::spec::registers::field::{SR0_2_DMASK, SR0_3_VMASK};
use euref::spec::Platform;
use euref::state::ThreadState;
use serde_json::Value;

pub const PLATFORM: Platform = Platform::Bdw;

/// The program's IGA lines.
pub fn lines() -> Vec<String> {
    [
        "and (8|M0) r20.0<1>:ud r10.0<8;8,1>:ud 0x3:ud",
        "add (8|M0) r20.0<1>:ud r20.0<8;8,1>:ud 0x1:ud",
        "LOOP:",
        "add (8|M0) (eq)f0.0 r20.0<1>:d r20.0<8;8,1>:d -1:d",
        "(f0.0) break (8|M0) WHILE WHILE",
        "add (8|M0) r11.0<1>:ud r11.0<8;8,1>:ud 0x1:ud",
        "WHILE:",
        "while (8|M0) LOOP",
        "mov (8|M0) r30.0<1>:ud 0x76543210:v",
        "shl (8|M0) r30.0<1>:ud r30.0<8;8,1>:ud 0x2:ud",
        "mov (8|M0) r31.0<1>:ud r11.0<8;8,1>:ud",
        "send (8|M0) null r30 0xC 0x4026E03",
        "(W) mov (8|M0) r127.0<1>:ud 0x0:ud",
        "send (8|M0) null r127 0x27 0x2000010 {EOT}",
    ]
    .map(String::from)
    .to_vec()
}

/// Its initial state: r10 = c, r11 = `r11` in every channel, both flags zero, a 64-byte
/// surface of `fill` bytes.
pub fn setup(r11: u64, fill: u8) -> Setup {
    let mut setup = Setup::new(PLATFORM, 0xff).unwrap();
    for c in 0..8 {
        (setup.state.write_grf(10 * 32 + 4 * c, 4, c as u64, false)).unwrap();
        (setup.state.write_grf(11 * 32 + 4 * c, 4, r11, false)).unwrap();
    }
    setup.state.set_flag(0, 0, 0).unwrap();
    setup.state.set_flag(1, 0, 0).unwrap();
    setup.surface = Some(vec![Some(fill); 64]);
    setup
}

/// Hex bytes (two digits a byte; a pair that is not hex, e.g. `xx`, is `None`).
pub fn hex_bytes(s: &str) -> Vec<Option<u8>> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok())
        .collect()
}

/// A program vector's initial state and memory, read back from its JSON independently of the
/// generator: the registers through the state JSON loader, sr0.2 DMask and sr0.3 VMask (the
/// OR of each group of four DMask bits) from `dmask`, the surface bound and loaded.
pub fn initial_of(v: &Value, p: Platform) -> (ThreadState, Memory) {
    let mut doc = serde_json::Map::new();
    doc.insert("base".into(), Value::String("default".into()));
    for (k, val) in v["initial"].as_object().unwrap() {
        doc.insert(k.clone(), val.clone());
    }
    let mut st = euref::state::json::from_value(p, &Value::Object(doc)).expect("initial state");
    let dmask = v["dmask"].as_u64().unwrap() as u32;
    let vmask = (0..8).fold(0, |m, g| {
        if dmask >> (4 * g) & 15 != 0 {
            m | 15 << (4 * g)
        } else {
            m
        }
    });
    st.set_field(&SR0_2_DMASK, dmask).unwrap();
    st.set_field(&SR0_3_VMASK, vmask).unwrap();
    let mut mem = Memory::new();
    if let Some(s) = v.get("surface") {
        let base = s["base"].as_u64().unwrap();
        let size = s["size"].as_u64().unwrap();
        mem.bind(s["bti"].as_u64().unwrap() as u8, Surface { base, size });
        for (i, b) in hex_bytes(s["bytes"].as_str().unwrap()).iter().enumerate() {
            if let Some(b) = b {
                mem.flat.load(base + i as u64, &[*b]);
            }
        }
    }
    if let Some(s) = v.get("slm") {
        mem.set_slm(slm_of(s));
    }
    (st, mem)
}

/// The SLM of a vector's `slm` object (`{size, bytes}`: bytes from offset 0, `xx` undefined).
pub fn slm_of(s: &Value) -> Slm {
    let mut slm = Slm::new(s["size"].as_u64().unwrap() as u32);
    for (i, b) in hex_bytes(s["bytes"].as_str().unwrap()).iter().enumerate() {
        if let Some(b) = b {
            slm.bytes.load(i as u64, &[*b]);
        }
    }
    slm
}

/// The bytes of `mem`'s SLM (`None`: undefined).
pub fn slm_bytes(mem: &Memory) -> Vec<Option<u8>> {
    let slm = mem.slm().expect("an SLM");
    slm.bytes.read(0, slm.size as usize)
}

/// conformance/program.schema.json, compiled.
pub fn program_schema() -> jsonschema::JSONSchema {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/conformance/program.schema.json"
        ))
        .unwrap(),
    )
    .unwrap();
    jsonschema::JSONSchema::compile(&schema).expect("schema compiles")
}

/// The instruction lines of a vector's `text` (labels, `NAME:`, dropped): line k is at IP
/// 16 k.
pub fn instruction_lines(v: &Value) -> Vec<&str> {
    v["text"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .filter(|l| !l.ends_with(':'))
        .collect()
}

/// `euref check --sim 'euref sim' PATH --report PATH.report`: its exit code and report lines.
pub fn check_against_euref_sim(path: &std::path::Path) -> (Option<i32>, Vec<Value>) {
    use crate::golden_util::EUREF;
    let report = path.with_extension("report");
    let o = std::process::Command::new(EUREF)
        .args(["check", "--sim", &format!("{EUREF} sim")])
        .arg(path)
        .arg("--report")
        .arg(&report)
        .output()
        .unwrap();
    let lines: Vec<Value> = std::fs::read_to_string(&report)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (o.status.code(), lines)
}
