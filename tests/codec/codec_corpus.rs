//! The binary codec against Mesa's assembler corpus (shared/corpus/mesa/asm: gen7 -> ivb,
//! gen7.5 -> hsw, gen8 -> bdw, gen9 -> skl):
//! - assembling every `.asm` (text assembler, then `codec::encode`) gives exactly the bytes of
//!   its `.expected`, for every instruction;
//! - decoding every `.expected` line, printing it in each dialect and assembling the text again
//!   gives the same bytes;
//! - decoding gives the instruction the text assembler builds from the `.asm` line.
//!
//! Mismatches are reported per file and per field (the fields of the layout of the expected
//! word whose values differ).

use crate::codec_util;

use codec_util::*;
use euref::asm::{self, Dialect, PrintOptions};
use euref::codec;
use euref::encoding::native_word;
use std::collections::BTreeMap;

#[test]
fn assembling_the_corpus_gives_the_expected_bytes() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let mut total = 0usize;
    let mut per_gen = BTreeMap::new();
    let mut bad: BTreeMap<String, usize> = BTreeMap::new();
    let mut examples: Vec<String> = vec![];
    for (dir, p) in GENS {
        let mut n = 0;
        for (asm_path, exp_path) in asm_files(dir) {
            let text = std::fs::read(&asm_path).unwrap();
            let prog = asm::parse(&text, Some(Dialect::Mesa), p)
                .unwrap_or_else(|e| panic!("{}: {e}", asm_path.display()));
            let exp = expected(&exp_path);
            assert_eq!(prog.insns.len(), exp.len(), "{}", asm_path.display());
            let file = format!("{dir}/{}", asm_path.file_name().unwrap().to_string_lossy());
            for (k, (insn, want)) in prog.insns.iter().zip(&exp).enumerate() {
                total += 1;
                n += 1;
                match codec::encode(insn, p) {
                    Ok(got) if got == *want => {}
                    Ok(got) => {
                        for f in diff_fields(native_word(&got), native_word(want), p) {
                            *bad.entry(format!("{file}: {f}")).or_default() += 1;
                        }
                        if examples.len() < 20 {
                            examples.push(format!(
                                "{file}:{}: got {:02x?} want {:02x?}",
                                prog.lines[k], got, want
                            ));
                        }
                    }
                    Err(e) => {
                        *bad.entry(format!("{file}: encode error {}", e.field))
                            .or_default() += 1;
                        if examples.len() < 20 {
                            examples.push(format!("{file}:{}: {e}", prog.lines[k]));
                        }
                    }
                }
            }
        }
        per_gen.insert(dir, n);
    }
    eprintln!("assembled {total} corpus instructions: {per_gen:?}");
    assert!(total > 8000, "only {total} instructions");
    assert_no_mismatches(&bad, &examples, "file: field -> count");
}

#[test]
fn decoding_printing_and_reassembling_gives_the_same_bytes() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let mut total = 0usize;
    let mut bad: BTreeMap<String, usize> = BTreeMap::new();
    let mut examples: Vec<String> = vec![];
    let mut per_gen = BTreeMap::new();
    for (dir, p) in GENS {
        let mut n = 0;
        for (asm_path, exp_path) in asm_files(dir) {
            let file = format!("{dir}/{}", asm_path.file_name().unwrap().to_string_lossy());
            for (k, want) in expected(&exp_path).iter().enumerate() {
                total += 1;
                n += 1;
                let insn = match codec::decode(want, p) {
                    Ok((i, 16)) => i,
                    Ok((_, len)) => panic!("{file}:{k}: consumed {len} bytes"),
                    Err(e) => {
                        *bad.entry(format!("{file}: decode {}", e.field))
                            .or_default() += 1;
                        if examples.len() < 20 {
                            examples.push(format!("{file} line {}: {e}", k + 1));
                        }
                        continue;
                    }
                };
                for d in Dialect::ALL {
                    let o = PrintOptions {
                        dialect: d,
                        platform: p,
                    };
                    let text = asm::print_insn(&insn, &o);
                    let back = match asm::parse_insn(&text, d, p) {
                        Ok(b) => b,
                        Err(e) => {
                            *bad.entry(format!("{file}: {d} parse")).or_default() += 1;
                            if examples.len() < 20 {
                                examples.push(format!("{file} line {}: {d}: {e}\n{text}", k + 1));
                            }
                            continue;
                        }
                    };
                    match codec::encode(&back, p) {
                        Ok(got) if got == *want => {}
                        Ok(got) => {
                            for f in diff_fields(native_word(&got), native_word(want), p) {
                                *bad.entry(format!("{file}: {d} {f}")).or_default() += 1;
                            }
                            if examples.len() < 20 {
                                examples.push(format!("{file} line {}: {d}: {text}", k + 1));
                            }
                        }
                        Err(e) => {
                            *bad.entry(format!("{file}: {d} encode {}", e.field))
                                .or_default() += 1;
                            if examples.len() < 20 {
                                examples.push(format!("{file} line {}: {d}: {e}: {text}", k + 1));
                            }
                        }
                    }
                }
            }
        }
        per_gen.insert(dir, n);
    }
    eprintln!("decoded and round-tripped {total} corpus instructions in 3 dialects: {per_gen:?}");
    assert!(total > 8000);
    assert_no_mismatches(&bad, &examples, "file: dialect field -> count");
}

#[test]
fn decoding_gives_the_parsed_instruction() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let mut total = 0;
    let mut bad = vec![];
    for (dir, p) in GENS {
        for (asm_path, exp_path) in asm_files(dir) {
            let text = std::fs::read(&asm_path).unwrap();
            let prog = asm::parse(&text, Some(Dialect::Mesa), p).unwrap();
            for (k, (insn, want)) in prog.insns.iter().zip(expected(&exp_path)).enumerate() {
                total += 1;
                // Mesa prints the last dword after a register descriptor of send/sendc, where
                // IGA prints the extended descriptor: the parser reads it as no extended
                // descriptor, and on Gen9 takes ExDesc[31:16] from the src0 region bits
                // (enc.gen9.send-reg-a1-ex-desc), as the decoder does.
                match codec::decode(&want, p) {
                    Ok((d, _)) if d == *insn => {}
                    Ok((d, _)) => bad.push(format!(
                        "{}:{}:\n  parsed  {insn:?}\n  decoded {d:?}",
                        asm_path.display(),
                        prog.lines[k]
                    )),
                    Err(e) => bad.push(format!("{}:{}: {e}", asm_path.display(), prog.lines[k])),
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {total} differ; first ones:\n{}",
        bad.len(),
        bad[..bad.len().min(10)].join("\n")
    );
}

/// Fails with every mismatch class and its count, then the examples.
fn assert_no_mismatches(bad: &BTreeMap<String, usize>, examples: &[String], what: &str) {
    assert!(
        bad.is_empty(),
        "mismatches ({what}):\n{}\nexamples:\n{}",
        bad.iter()
            .map(|(k, v)| format!("  {k} -> {v}"))
            .collect::<Vec<_>>()
            .join("\n"),
        examples.join("\n")
    );
}
