//! Any 16- or 8-byte input decodes, checks, compacts or uncompacts to a value or a clean error,
//! never a panic; and compaction is exact: whenever a word compacts, uncompaction restores it
//! bit for bit.
//!
//! Longer run: `PROPTEST_CASES=1000000 cargo test --release --test encoding -- encoding_fuzz::`.

use euref::encoding::{check, compact, layout_for, operand_layout, precompact, uncompact, Operand};
use euref::spec::encoding::compact_2src;
use euref::spec::Platform;
use proptest::prelude::*;

fn platform() -> impl Strategy<Value = Platform> {
    prop::sample::select(Platform::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(20_000),
        ..ProptestConfig::default()
    })]

    #[test]
    fn native_words_never_panic(w in any::<u128>(), p in platform()) {
        let l = layout_for(w, p);
        prop_assert!(l.width == 128 && l.gens.contains(p));
        for op in [Operand::Dst, Operand::Src0, Operand::Src1] {
            prop_assert_eq!(operand_layout(w, p, op).width, 128);
        }
        match check(w, p) {
            Ok(l2) => prop_assert!(std::ptr::eq(l, l2)),
            Err(e) => prop_assert!(e.byte < 16 && !e.to_string().is_empty()),
        }
        let pre = precompact(w, p);
        for x in [w, pre] {
            if let Some(c) = compact(x, p) {
                prop_assert_eq!(uncompact(c, p), Ok(x));
            }
        }
    }

    #[test]
    fn compact_words_never_panic(c in any::<u64>(), p in platform()) {
        match uncompact(c, p) {
            Ok(w) => {
                prop_assert!(compact_2src::CMPT_CONTROL.get(w) == 0);
                let _ = check(w, p);
                // Compacting the native form again gives a compact word with the same meaning
                // (not always the same bits: with an immediate, subregister table entries that
                // differ only in the src1 bits expand alike).
                if let Some(again) = compact(w, p) {
                    prop_assert_eq!(uncompact(again, p), Ok(w));
                }
            }
            Err(e) => prop_assert!(e.byte < 8 && !e.to_string().is_empty()),
        }
    }

    /// Compact words with CmptCtrl set: whenever one uncompacts and its native form compacts
/// again, the new compact word means the same. (Not every uncompacted word compacts again:
/// with an immediate, Mesa's compactor only looks up subregister entries whose src1 bits are
/// zero, and it never compacts an EOT send.)
    #[test]
    fn compact_round_trip(c in any::<u64>(), p in platform()) {
        let mut w = u128::from(c);
        compact_2src::CMPT_CONTROL.set(&mut w, 1);
        let c = w as u64;
        if let Ok(n) = uncompact(c, p) {
            if let Some(a) = compact(n, p) {
                prop_assert_eq!(uncompact(a, p), Ok(n));
            }
        }
    }
}
