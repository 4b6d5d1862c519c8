//! Deterministic cost of the codec's hot paths, for `valgrind --tool=callgrind`:
//! `codec_profile MODE GEN REPS` runs MODE (`decode`, `encode`, `print` = decode and print
//! IGA text into a reused buffer, `printb` = the same appended to a `Vec<u8>`, `printt` = the same into an
//! `asm::TextBuf` (`euref disasm`'s path), `parse` = parse Mesa text, `assemble` = parse and encode) REPS times over every native
//! corpus word of GEN (gen7, gen7.5, gen8, gen9). Compare the instruction counts of two REPS
//! values to get the cost per instruction without the setup:
//! `valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/codec_profile decode gen9 1`
//! (the corpus is `$EUREF_CORPUS` or `<crate>/../shared/corpus`). Timing belongs to
//! `cargo bench --bench codec`; this only counts work.

use euref::asm::{self, Dialect, PrintOptions};
use euref::codec;
use euref::isa::Insn;
use euref::spec::Opcode;
use std::hint::black_box;

mod common;

fn main() {
    let (mode, dir, reps, p) =
        common::args("codec_profile decode|encode|print|parse|assemble gen7|gen7.5|gen8|gen9 REPS");
    let mode = mode.as_str();
    let files = common::corpus_files(&dir);
    let mut words: Vec<[u8; 16]> = vec![];
    let mut text = String::new();
    for f in &files {
        let s = std::fs::read_to_string(f).unwrap_or_default();
        if f.extension().is_some_and(|x| x == "expected") {
            for l in s.lines() {
                let b: Vec<u8> = l
                    .split_whitespace()
                    .filter_map(|x| u8::from_str_radix(x, 16).ok())
                    .collect();
                if let Ok(w) = <[u8; 16]>::try_from(b.as_slice()) {
                    words.push(w);
                }
            }
        } else if f.extension().is_some_and(|x| x == "asm") {
            text.push_str(&common::renamed_labels(f, &s));
        }
    }
    let insns: Vec<Insn> = words
        .iter()
        .filter_map(|w| codec::decode(w, p).ok().map(|d| d.0))
        .collect();
    let o = PrintOptions {
        dialect: Dialect::Iga,
        platform: p,
    };
    let mut out = String::with_capacity(1 << 20);
    let mut bytes: Vec<u8> = Vec::with_capacity(1 << 20);
    let mut text_buf = asm::TextBuf::new();
    let mut i = Insn::new(Opcode::Nop);
    let mut acc = 0usize;
    for _ in 0..reps {
        match mode {
            "decode" => {
                for w in &words {
                    if codec::decode_into(black_box(w), p, &mut i).is_ok() {
                        acc += i.exec_size as usize;
                    }
                }
            }
            "encode" => {
                for i in &insns {
                    if let Ok(b) = codec::encode(black_box(i), p) {
                        acc += b[0] as usize;
                    }
                }
            }
            "print" => {
                out.clear();
                for w in &words {
                    if codec::decode_into(black_box(w), p, &mut i).is_ok() {
                        asm::write_insn(&mut out, &i, &o);
                        out.push('\n');
                    }
                }
                acc += out.len();
            }
            "printb" => {
                bytes.clear();
                for w in &words {
                    if codec::decode_into(black_box(w), p, &mut i).is_ok() {
                        asm::write_insn_bytes(&mut bytes, &i, &o);
                        bytes.push(b'\n');
                    }
                }
                acc += bytes.len();
            }
            "printt" => {
                text_buf.clear();
                for w in &words {
                    if codec::decode_into(black_box(w), p, &mut i).is_ok() {
                        text_buf.push_insn_line(&i, &o);
                    }
                }
                acc += text_buf.len();
            }
            "parse" => {
                acc += asm::parse(black_box(text.as_bytes()), Some(Dialect::Mesa), p)
                    .map(|r| r.insns.len())
                    .unwrap_or(0);
            }
            "assemble" => {
                if let Ok(r) = asm::parse(black_box(text.as_bytes()), Some(Dialect::Mesa), p) {
                    for i in &r.insns {
                        if let Ok(b) = codec::encode(i, p) {
                            acc += b[0] as usize;
                        }
                    }
                }
            }
            _ => panic!("unknown mode {mode}"),
        }
    }
    println!(
        "{mode} {dir}: {} words, {} insns, acc {acc}",
        words.len(),
        insns.len()
    );
}
