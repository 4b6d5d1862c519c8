//! Compact instructions (shared/corpus/mesa/compact/{ivb,skl}.tsv: file, native bytes, compact
//! bytes): decoding the compact form gives the instruction the native form decodes to
//! (marked compacted), `codec::compact` of that instruction gives the listed 8 bytes, and the
//! compact form decodes, prints and reassembles (with `{Compacted}`) to the same 8 bytes.
//!
//! Mesa's assembler rewrites some instructions before compacting (`encoding::precompact`:
//! `mov:D` of a small immediate becomes `mov:UD`, ...; see the corpus README): for those rows
//! the compact form decodes to the rewritten instruction, which the tests count and compare
//! instead.

use crate::codec_util;

use codec_util::*;
use euref::asm::{self, Dialect, PrintOptions};
use euref::codec;
use euref::spec::Platform;

fn rows(name: &str) -> Vec<(String, Vec<u8>, Vec<u8>)> {
    let path = corpus().join("mesa/compact").join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (set EUREF_CORPUS)", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            assert_eq!(c.len(), 3, "{}: {l}", path.display());
            (c[0].to_string(), hex_bytes(c[1]), hex_bytes(c[2]))
        })
        .collect()
}

#[test]
fn compact_forms_decode_like_their_native_forms() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let mut total = 0;
    let mut rewritten = 0;
    let mut bad = vec![];
    for (name, p) in [("ivb.tsv", Platform::Ivb), ("skl.tsv", Platform::Skl)] {
        for (file, native, compact) in rows(name) {
            total += 1;
            let pre = euref::encoding::precompact(
                u128::from_le_bytes(native.as_slice().try_into().unwrap()),
                p,
            );
            let n0 = codec::decode(&native, p);
            let n = codec::decode(&pre.to_le_bytes(), p);
            if n0.as_ref().ok().map(|x| &x.0) != n.as_ref().ok().map(|x| &x.0) {
                rewritten += 1;
            }
            let c = codec::decode(&compact, p);
            match (n, c) {
                (Ok((mut n, 16)), Ok((c, 8))) => {
                    assert!(c.ctrl.compacted);
                    n.ctrl.compacted = true;
                    if n != c {
                        bad.push(format!("{name} {file}: native {n:?}\n  compact {c:?}"));
                    }
                }
                (n, c) => bad.push(format!("{name} {file}: native {n:?} compact {c:?}")),
            }
        }
    }
    eprintln!("{total} compact rows decode like their native forms ({rewritten} after Mesa's type rewrites)");
    assert!(total > 400, "{total} rows");
    assert!(
        bad.is_empty(),
        "{} of {total}:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn codec_compact_gives_the_listed_bytes() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let mut total = 0;
    let mut bad = vec![];
    for (name, p) in [("ivb.tsv", Platform::Ivb), ("skl.tsv", Platform::Skl)] {
        for (file, native, compact) in rows(name) {
            total += 1;
            let pre = euref::encoding::precompact(
                u128::from_le_bytes(native.as_slice().try_into().unwrap()),
                p,
            );
            let (i, _) = codec::decode(&pre.to_le_bytes(), p).unwrap();
            let got = codec::compact(&i, p);
            if got.as_ref().map(|g| g.as_slice()) != Some(compact.as_slice()) {
                bad.push(format!(
                    "{name} {file}: {i:?}: got {got:02x?}, want {compact:02x?}"
                ));
            }
            // Through text: the compact form prints with {Compacted} and comes back.
            let (ci, _) = codec::decode(&compact, p).unwrap();
            for d in Dialect::ALL {
                let text = asm::print_insn(
                    &ci,
                    &PrintOptions {
                        dialect: d,
                        platform: p,
                    },
                );
                let back = asm::parse_insn(&text, d, p).unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(back, ci, "{d}: {text}");
                assert_eq!(
                    codec::compact(&back, p).as_ref().map(|b| b.as_slice()),
                    Some(compact.as_slice()),
                    "{d}: {text}"
                );
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {total}:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
