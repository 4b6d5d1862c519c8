//! Compaction: the compact layouts, compaction views and tables of spec/encoding/compact.toml,
//! checked against Mesa's compaction corpus (compact/ivb.tsv, compact/skl.tsv).

use crate::encoding_util;

use encoding_util::*;
use euref::encoding::{compact, precompact, uncompact};
use euref::spec::Platform;

#[test]
fn corpus_compacts_exactly() {
    if !corpus_present() {
        return;
    }
    for (file, p) in [("ivb.tsv", Platform::Ivb), ("skl.tsv", Platform::Skl)] {
        let rows = compact_rows(file);
        let mut bad = vec![];
        let mut rewritten = 0;
        for (f, native, cw) in &rows {
            let pre = precompact(*native, p);
            if pre != *native {
                rewritten += 1;
            } else {
                assert_eq!(compact(*native, p), Some(*cw), "{f}: {native:032x}");
            }
            let got = compact(pre, p);
            let back = uncompact(*cw, p);
            if got != Some(*cw) || back != Ok(pre) {
                bad.push(format!(
                    "{f}: native {native:032x} want {cw:016x} got {got:x?}; uncompact {back:x?}"
                ));
            }
        }
        eprintln!(
            "{file}: {} rows, {rewritten} rewritten by precompact",
            rows.len()
        );
        assert!(
            bad.is_empty(),
            "{file}: {} of {} failed:\n{}",
            bad.len(),
            rows.len(),
            bad.join("\n")
        );
    }
}

/// (table, id, platforms, index bits, entry bits, first, second, last entry).
type Row = (
    &'static euref::spec::encoding::CompactTable,
    &'static str,
    &'static [Platform],
    u32,
    u32,
    u64,
    u64,
    u64,
);

#[test]
fn compaction_tables() {
    use euref::spec::encoding::compact::*;
    use euref::spec::Platform::*;
    const GEN7: &[Platform] = &[Ivb, Hsw];
    const GEN8: &[Platform] = &[Bdw, Chv, Skl, Bxt];
    // (table, id, platforms, index bits, entry bits, first, second, last entry), entries from
    // Mesa elk_eu_compact.c / brw_eu_compact.c.
    let rows: [Row; 10] = [
        (
            &GEN7_CONTROL_INDEX,
            "compact.gen7.control",
            GEN7,
            5,
            19,
            0b0000000000000000010,
            0b0000100000000000000,
            0b0101000000100000000,
        ),
        (
            &GEN7_DATATYPE_INDEX,
            "compact.gen7.datatype",
            GEN7,
            5,
            18,
            0b001000000000000001,
            0b001000000000100000,
            0b001010110100101000,
        ),
        (
            &GEN7_SUBREG_INDEX,
            "compact.gen7.subreg",
            GEN7,
            5,
            15,
            0,
            0b000000000000001,
            0b111000000011100,
        ),
        (
            &GEN7_SRC_INDEX,
            "compact.gen7.src-index",
            GEN7,
            5,
            12,
            0,
            0b000000000010,
            0b010110001000,
        ),
        (
            &GEN8_CONTROL_INDEX,
            "compact.gen8.control",
            GEN8,
            5,
            19,
            0b0000000000000000010,
            0b0000100000000000000,
            0b0101000000100000000,
        ),
        (
            &GEN8_DATATYPE_INDEX,
            "compact.gen8.datatype",
            GEN8,
            5,
            21,
            0b001000000000000000001,
            0b001000000000001000000,
            0b001001011001001001000,
        ),
        (
            &GEN8_SUBREG_INDEX,
            "compact.gen8.subreg",
            GEN8,
            5,
            15,
            0,
            0b000000000000001,
            0b111000000011100,
        ),
        (
            &GEN8_SRC_INDEX,
            "compact.gen8.src-index",
            GEN8,
            5,
            12,
            0,
            0b000000000010,
            0b010110001000,
        ),
        (
            &GEN8_3SRC_CONTROL_INDEX,
            "compact.gen8.3src-control",
            GEN8,
            2,
            26,
            0b00100000000110000000000001,
            0b00000000000110000000000001,
            0b00000000001000000000100001,
        ),
        (
            &GEN8_3SRC_SOURCE_INDEX,
            "compact.gen8.3src-source",
            GEN8,
            2,
            49,
            0b0000001110010011100100111001000001111000000000000,
            0b0000001110010011100100111001000001111000000000010,
            0b0000001110010011100100111001000001111000000100000,
        ),
    ];
    assert_eq!(ALL.len(), rows.len());
    for (t, id, plats, ib, eb, first, second, last) in rows {
        assert_eq!(t.id, id);
        for p in Platform::ALL {
            assert_eq!(
                t.gens.contains(p),
                plats.contains(&p),
                "{id} on {}",
                p.name()
            );
        }
        assert_eq!((t.index_bits, t.entry_bits), (ib, eb), "{id}");
        assert_eq!(t.entries.len(), 1 << ib, "{id}");
        assert_eq!(
            (t.entries[0], t.entries[1], t.entries[t.entries.len() - 1]),
            (first, second, last),
            "{id}"
        );
        // Entries are distinct (so an index is determined by its entry) and fit the entry width.
        for (i, e) in t.entries.iter().enumerate() {
            assert!(e >> eb == 0, "{id}[{i}]");
            assert_eq!(t.index_of(*e), Some(i), "{id}[{i}] unique");
        }
    }
    // Gen7 and Gen8 share control and source-index entries; the subregister tables differ in
    // entry 10 only (Mesa's gfx7/gfx8 tables).
    assert_eq!(GEN7_CONTROL_INDEX.entries, GEN8_CONTROL_INDEX.entries);
    assert_eq!(GEN7_SRC_INDEX.entries, GEN8_SRC_INDEX.entries);
    let diff: Vec<usize> = (0..32)
        .filter(|&i| GEN7_SUBREG_INDEX.entries[i] != GEN8_SUBREG_INDEX.entries[i])
        .collect();
    assert_eq!(diff, [10]);
    assert_eq!(
        (GEN7_SUBREG_INDEX.entries[10], GEN8_SUBREG_INDEX.entries[10]),
        (0b000010100000000, 0b000001010000000)
    );
    // Broadwell reads only the low 24 / 46 bits of the three-source tables: the rest is zero.
    for e in GEN8_3SRC_CONTROL_INDEX.entries {
        assert_eq!(e >> 24, 0);
    }
    for e in GEN8_3SRC_SOURCE_INDEX.entries {
        assert_eq!(e >> 46, 0);
    }
}

/// Haswell and Broadwell/Cherryview use the same compaction tables as the corpus platforms
/// (Ivy Bridge, Skylake): the corpus words compact identically there whenever their fields
/// exist on that platform, and every compacted word uncompacts back.
#[test]
fn sibling_platforms_compact_the_corpus_alike() {
    if !corpus_present() {
        return;
    }
    for (file, p, siblings) in [
        ("ivb.tsv", Platform::Ivb, &[Platform::Hsw][..]),
        (
            "skl.tsv",
            Platform::Skl,
            &[Platform::Bxt, Platform::Chv, Platform::Bdw][..],
        ),
    ] {
        for (f, native, cw) in compact_rows(file) {
            let pre = precompact(native, p);
            for &q in siblings {
                // Broadwell's three-source views differ (no Src1Type/Src2Type or half-dword
                // subregister bits), so a three-source word may or may not compact there.
                let got = compact(pre, q);
                if let Some(c) = got {
                    assert_eq!(uncompact(c, q), Ok(pre), "{f} on {}", q.name());
                }
                if q != Platform::Bdw {
                    assert_eq!(got, Some(cw), "{f} on {}", q.name());
                }
            }
        }
    }
}

/// The views and compact layouts used by the algorithm (IDs enc.gen7.compaction,
/// enc.gen7.compaction-imm, enc.gen8.compaction, enc.gen8.compaction-imm,
/// enc.gen8.compaction-3src-bdw, enc.gen8.compaction-3src-chv, enc.compact.2src,
/// enc.compact.imm, enc.compact.3src): each field of a compact layout is an index (with a
/// table), CmptCtrl, the immediate, or a copy of the view field of the same name.
#[test]
fn views_name_every_compact_field() {
    use euref::spec::encoding::*;
    let views: [(&Layout, &Layout); 6] = [
        (&gen7_compaction::LAYOUT, &compact_2src::LAYOUT),
        (&gen7_compaction_imm::LAYOUT, &compact_imm::LAYOUT),
        (&gen8_compaction::LAYOUT, &compact_2src::LAYOUT),
        (&gen8_compaction_imm::LAYOUT, &compact_imm::LAYOUT),
        (&gen8_compaction_3src_bdw::LAYOUT, &compact_3src::LAYOUT),
        (&gen8_compaction_3src_chv::LAYOUT, &compact_3src::LAYOUT),
    ];
    for (view, out) in views {
        for f in out.fields {
            let v = view
                .field(f.name)
                .unwrap_or_else(|| panic!("{}: no {}", view.id, f.name));
            if f.name.ends_with("_index") {
                assert_eq!(
                    f.width as u32,
                    if out.id == "enc.compact.3src" { 2 } else { 5 }
                );
                assert!(v.width > f.width, "{} {}", view.id, f.name);
            } else if f.name == "imm" {
                assert_eq!((f.width, v.width), (13, 32));
            } else {
                assert_eq!(
                    f.width, v.width,
                    "{} {}: copied field widths",
                    view.id, f.name
                );
            }
        }
        // Every view field is used by the compact form, except the bits that must be zero.
        for f in view.fields {
            assert!(
                out.field(f.name).is_some(),
                "{}: {} unused",
                view.id,
                f.name
            );
        }
    }
}
