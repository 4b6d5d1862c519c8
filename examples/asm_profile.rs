//! Deterministic cost of the text assembler, for `valgrind --tool=callgrind`:
//! `asm_profile MODE GEN REPS` runs MODE REPS times over the corpus text of GEN (gen7, gen7.5,
//! gen8, gen9): `parse_mesa` / `parse_iga` = text -> `Insn`, `asm_mesa` / `asm_iga` = text ->
//! bytes (parse, then encode every instruction), `encode` = `Insn` -> bytes alone. The Mesa
//! text is every `.asm` file of `mesa/asm/GEN` (labels renamed apart); the IGA text is
//! euref's own printing of the parsed program (`print_program`, IGA dialect). Compare the
//! instruction counts of two REPS values to get the cost per instruction without the setup:
//! `valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/asm_profile asm_mesa gen9 1`
//! (the corpus is `$EUREF_CORPUS` or `<crate>/../shared/corpus`). Timing belongs to
//! `cargo bench --bench asm_text`; this only counts work.

use euref::asm::{self, Dialect, PrintOptions};
use euref::codec;
use std::hint::black_box;

mod common;

fn main() {
    let (mode, dir, reps, p) = common::args(
        "asm_profile parse_mesa|parse_iga|asm_mesa|asm_iga|encode gen7|gen7.5|gen8|gen9 REPS",
    );
    let mode = mode.as_str();
    let mut mesa = String::new();
    for f in common::corpus_files(&dir)
        .iter()
        .filter(|f| f.extension().is_some_and(|x| x == "asm"))
    {
        let s = std::fs::read_to_string(f).unwrap_or_default();
        mesa.push_str(&common::renamed_labels(f, &s));
    }
    let prog = asm::parse(mesa.as_bytes(), Some(Dialect::Mesa), p).expect("corpus parses");
    let iga = asm::print_program(
        &prog.insns,
        &PrintOptions {
            dialect: Dialect::Iga,
            platform: p,
        },
    );
    let mut acc = 0usize;
    for _ in 0..reps {
        let (text, d, enc) = match mode {
            "parse_mesa" => (mesa.as_bytes(), Dialect::Mesa, false),
            "parse_iga" => (iga.as_bytes(), Dialect::Iga, false),
            "asm_mesa" => (mesa.as_bytes(), Dialect::Mesa, true),
            "asm_iga" => (iga.as_bytes(), Dialect::Iga, true),
            "encode" => {
                for i in &prog.insns {
                    if let Ok(b) = codec::encode(black_box(i), p) {
                        acc += b[0] as usize;
                    }
                }
                continue;
            }
            _ => panic!("unknown mode {mode}"),
        };
        match asm::parse(black_box(text), Some(d), p) {
            Ok(r) if enc => {
                for i in &r.insns {
                    if let Ok(b) = codec::encode(i, p) {
                        acc += b[0] as usize;
                    }
                }
            }
            Ok(r) => acc += r.insns.len(),
            Err(e) => panic!("{e}"),
        }
    }
    println!(
        "{mode} {dir}: {} insns, mesa {} bytes, iga {} bytes, acc {acc}",
        prog.insns.len(),
        mesa.len(),
        iga.len()
    );
}
