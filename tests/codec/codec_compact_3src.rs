//! Issue 27, class 11: three-source instructions compact on Gen8 and later and never before.
//! The expected 8 bytes are put together from the rows, not taken from euref: the compact
//! layout enc.compact.3src (opcode 6:0, control_index 9:8, source_index 11:10, dst_reg_nr
//! 18:12, cmpt_control 29, src0/1/2_reg_nr 49:43, 56:50, 63:57) and the index tables
//! compact.gen8.3src-control (0: SIMD8 NoMask, 1: SIMD8, 2: SIMD16, 3: SIMD16 second half)
//! and compact.gen8.3src-source (0: all sources plain, 1/2/3: src0/src1/src2 negated), both
//! transcribed from Mesa's gfx8_3src_*_index_table (brw_eu_compact.c).

use euref::asm::{self, Dialect};
use euref::codec;
use euref::spec::Platform::{self, *};

/// The compact word for `mad`/`lrp` with registers d, s0, s1, s2 (subregister 0).
fn compact_word(op: u64, control: u64, source: u64, regs: [u64; 4]) -> [u8; 8] {
    let [d, s0, s1, s2] = regs;
    let w = op | control << 8 | source << 10 | d << 12 | 1 << 29 | s0 << 43 | s1 << 50 | s2 << 57;
    w.to_le_bytes()
}

const MAD: u64 = 0x5b;
const LRP: u64 = 0x5c;

fn compact_of(text: &str, p: Platform) -> Option<[u8; 8]> {
    let i = asm::parse_insn(text, Dialect::Iga, p).unwrap_or_else(|e| panic!("{text}: {e}"));
    codec::compact(&i, p)
}

#[test]
fn mad_and_lrp_compact_from_gen8() {
    let cases = [
        (
            "(W) mad (8|M0) r14.0<1>:f r12.0<2;1>:f r4.0<2;1>:f r4.0<1>:f",
            compact_word(MAD, 0, 0, [14, 12, 4, 4]),
        ),
        (
            "mad (8|M0) r14.0<1>:f -r12.0<2;1>:f r4.0<2;1>:f r4.0<1>:f",
            compact_word(MAD, 1, 1, [14, 12, 4, 4]),
        ),
        (
            "mad (16|M0) r20.0<1>:f r12.0<2;1>:f -r5.0<2;1>:f r6.0<1>:f",
            compact_word(MAD, 2, 2, [20, 12, 5, 6]),
        ),
        (
            "mad (16|M16) r14.0<1>:f r12.0<2;1>:f r4.0<2;1>:f -r7.0<1>:f",
            compact_word(MAD, 3, 3, [14, 12, 4, 7]),
        ),
        (
            "lrp (8|M0) r14.0<1>:f r12.0<2;1>:f r4.0<2;1>:f r4.0<1>:f",
            compact_word(LRP, 1, 0, [14, 12, 4, 4]),
        ),
    ];
    for p in [Bdw, Chv, Skl, Bxt] {
        for (text, want) in &cases {
            assert_eq!(
                compact_of(text, p).as_ref(),
                Some(want),
                "{text} on {}",
                p.name()
            );
            // And back: the compact word decodes to the same instruction.
            let (i, n) = codec::decode(want, p).unwrap();
            assert_eq!(n, 8);
            let orig = asm::parse_insn(text, Dialect::Iga, p).unwrap();
            assert_eq!(codec::encode(&i, p), codec::encode(&orig, p), "{text}");
        }
        // No table entry has a D type, an Align16 write mask other than .xyzw or r128+:
        // such instructions stay native.
        let native = "mad (8|M0) r14.0<1>:d r12.0<2;1>:d r4.0<2;1>:d r4.0<1>:d";
        assert_eq!(compact_of(native, p), None, "{native} on {}", p.name());
    }
}

/// Gen7/Gen7.5 have no compact three-source form (enc.compact.3src is Gen8+; Mesa's
/// try_compact_instruction never compacts a three-source instruction before Gen8).
#[test]
fn no_three_source_compaction_before_gen8() {
    assert!(!euref::encoding::has_three_src_compaction(Hsw));
    assert!(euref::encoding::has_three_src_compaction(Skl));
    for p in [Ivb, Hsw] {
        let text = "(W) mad (8|M0) r14.0<1>:f r12.0<2;1>:f r4.0<2;1>:f r4.0<1>:f";
        assert_eq!(compact_of(text, p), None, "{}", p.name());
    }
}

/// `{Compacted}` on a Gen7.5 three-source instruction is an error that says why.
#[test]
fn compacted_mark_before_gen8_says_why() {
    let dir = crate::scratch_util::Scratch::new("compact-3src");
    let text = "(W) mad (8|M0) r14.0<1>:f r12.0<2;1>:f r4.0<2;1>:f r4.0<1>:f {Compacted}\n";
    let file = dir.file("mad.asm", text);
    let path = file.to_str().unwrap();
    let (code, out, err) = crate::cli_util::euref(&["asm", path, "--gen", "hsw", "--hex"]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(
        err.contains("mad.asm:1:1:") && err.contains("hsw has no compact three-source form"),
        "{err}"
    );
    let (code, out, err) = crate::cli_util::euref(&["asm", path, "--gen", "skl", "--hex"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.split_whitespace().count(), 8, "{out}");
}
