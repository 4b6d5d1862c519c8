//! spec/messages.toml and spec/platform_memory.toml (seed004 facts outside the EU ISA): the
//! generated tables are compared with the seed text itself (bit rows, L3 allocation tables)
//! and with the values each row's citation states.

use euref::spec::messages::{self, FIELDS, MESSAGES};
use euref::spec::platform_memory::{self as pm, L3_ALLOCS};
use euref::spec::Platform;
use std::collections::BTreeSet;

/// seed004's text (`$EUREF_SEEDS` or `<crate>/../shared/seeds`).
fn seed004() -> String {
    let dir = crate::material::seeds_root();
    std::fs::read_to_string(dir.join("004_e4a4f8f8750fbfc1.txt")).expect("seed004 text")
}

/// The lines from the first ending with `start` (trimmed) up to the next ending with `end`.
fn section<'a>(text: &'a str, start: &str, end: &str) -> Vec<&'a str> {
    let lines: Vec<&str> = text.lines().collect();
    // Page-break debris may precede a heading on its line.
    let s = lines
        .iter()
        .position(|l| l.trim().ends_with(start))
        .expect(start);
    let e = s
        + 1
        + lines[s + 1..]
            .iter()
            .position(|l| l.trim().ends_with(end))
            .expect(end);
    lines[s..e].to_vec()
}

fn parse_bits(b: &str) -> Option<(u32, u32)> {
    // The seed prints one range as `11.8`.
    match b.split_once([':', '.']) {
        Some((h, l)) => Some((h.parse().ok()?, l.parse().ok()?)),
        None => b.parse().ok().map(|x| (x, x)),
    }
}

/// (dword, hi, lo) of every bit row of a seed message table: `M0.d bits ...` lines, and in
/// `continuation` tables indented `bits ...` lines that keep the previous dword.
fn seed_bit_rows(lines: &[&str], continuation: bool) -> BTreeSet<(u32, u32, u32)> {
    let mut out = BTreeSet::new();
    let mut dword = None;
    for l in lines {
        let t = l.trim_start();
        let mut words = t.split_whitespace();
        let first = words.next().unwrap_or("");
        if let Some(d) = first.strip_prefix("M0.") {
            let d: u32 = d.parse().unwrap();
            let (hi, lo) = parse_bits(words.next().unwrap()).unwrap();
            out.insert((d, hi, lo));
            dword = Some(d);
        } else if continuation && l.starts_with(' ') && !first.is_empty() {
            if let (Some(d), Some((hi, lo))) = (dword, parse_bits(first)) {
                out.insert((d, hi, lo));
            }
        }
    }
    out
}

fn spec_bit_rows(message: &str, with_unstated: bool) -> BTreeSet<(u32, u32, u32)> {
    FIELDS
        .iter()
        .filter(|f| f.message == message && (with_unstated || f.access != "unstated"))
        .map(|f| (f.dword, f.hi, f.lo))
        .collect()
}

#[test]
fn sampler_header_fields_are_the_seed_bit_rows() {
    let Some(_) = crate::material::seeds() else {
        return;
    };
    let text = seed004();
    let lines = section(&text, "Message Header", "Message Gateway");
    let seed = seed_bit_rows(&lines, false);
    assert_eq!(
        seed.len(),
        22,
        "bit rows in the seed's sampler header table"
    );
    assert_eq!(spec_bit_rows("sampler_header", true), seed);
    let m = messages::message("sampler_header").unwrap();
    assert_eq!(m.id, "msg.sampler-header");
    assert_eq!(m.dwords, 6);
}

#[test]
fn gateway_barrier_fields_are_the_seed_bit_rows_plus_marked_gaps() {
    let Some(_) = crate::material::seeds() else {
        return;
    };
    let text = seed004();
    let lines = section(&text, "Message Gateway", "Media GPGPU Pipeline");
    let seed = seed_bit_rows(&lines, true);
    assert_eq!(spec_bit_rows("gateway_barrier", false), seed);
    // The seed names nothing for M0.2 29:28 and M0.0 3:0: spec marks them `unstated`.
    let unstated: Vec<&str> = FIELDS
        .iter()
        .filter(|f| f.access == "unstated")
        .map(|f| f.id)
        .collect();
    assert_eq!(
        unstated,
        [
            "msgfield.gateway-barrier.m0-2.unstated-29-28",
            "msgfield.gateway-barrier.m0-0.unstated-3-0"
        ]
    );
    assert!(!lines
        .iter()
        .any(|l| l.contains("29:28") || l.contains(" 3:0")));
    assert_eq!(
        messages::message("gateway_barrier").unwrap().id,
        "msg.gateway-barrier"
    );
}

#[test]
fn message_fields_cover_every_described_dword_once() {
    for m in MESSAGES {
        for dw in 0..m.dwords {
            let mut cover = 0u64;
            for f in messages::fields_of(Platform::Bxt, m.name, dw) {
                assert_eq!(cover & f.mask() as u64, 0, "{} overlaps", f.id);
                cover |= f.mask() as u64;
            }
            assert_eq!(cover, 0xFFFF_FFFF, "{} dword {dw}", m.name);
        }
        // Seed004 is the Broxton volume: no other platform has these rows.
        assert_eq!(messages::fields_of(Platform::Skl, m.name, 0).count(), 0);
    }
}

#[test]
fn sampler_header_values_and_accessors() {
    let Some(_) = crate::material::seeds() else {
        return;
    };
    use messages::field::*;
    let text = seed004();
    // Enumerated values are printed in the seed as `N NAME` lines.
    let f = &SAMPLER_HEADER_M0_5_OUTPUT_FORMAT;
    for (a, b, name) in f.values {
        let n = if a == b {
            a.to_string()
        } else {
            format!("{a}-{b}")
        };
        let line = format!("{n} {name}");
        assert!(text.lines().any(|l| l.trim().starts_with(&line)), "{line}");
    }
    assert_eq!(f.value_name(17), Some("Y32_UNORM"));
    assert_eq!(f.value_name(9), Some("Reserved"));
    assert_eq!(f.value_name(25), None);
    assert_eq!(
        SAMPLER_HEADER_M0_2_GATHER4_CHANNEL.value_name(3),
        Some("Alpha")
    );
    assert_eq!(
        SAMPLER_HEADER_M0_2_SIMD_MODE_EXTENSION.value_name(1),
        Some("SIMD4x2")
    );
    assert_eq!(
        SAMPLER_HEADER_M0_2_SIMD32_64_OUTPUT_FORMAT.value_name(2),
        Some("8bit_Full")
    );
    // Write channel masks: bit 15 alpha .. bit 12 red; 1 = not written back.
    let masks = [
        (&SAMPLER_HEADER_M0_2_ALPHA_WRITE_MASK, 15),
        (&SAMPLER_HEADER_M0_2_BLUE_WRITE_MASK, 14),
        (&SAMPLER_HEADER_M0_2_GREEN_WRITE_MASK, 13),
        (&SAMPLER_HEADER_M0_2_RED_WRITE_MASK, 12),
    ];
    for (m, bit) in masks {
        assert_eq!((m.hi, m.lo), (bit, bit), "{}", m.id);
        assert_eq!(m.value_name(1), Some("masked"));
    }
    // A dword built from fields reads back field by field.
    let mut d = 0;
    d = SAMPLER_HEADER_M0_2_RENDER_TARGET_BTI.set(d, 0xAB);
    d = SAMPLER_HEADER_M0_2_U_OFFSET.set(d, 0b1111); // -1 in S3
    d = SAMPLER_HEADER_M0_2_V_OFFSET.set(d, 0b0011);
    d = SAMPLER_HEADER_M0_2_R_OFFSET.set(d, 0b1000);
    d = SAMPLER_HEADER_M0_2_PIXEL_NULL_MASK_ENABLE.set(d, 1);
    assert_eq!(d, 0xAB80_0F38);
    assert_eq!(SAMPLER_HEADER_M0_2_U_OFFSET.format, Some("S3"));
    assert_eq!(SAMPLER_HEADER_M0_2_U_OFFSET.get(d), 0xF);
    assert_eq!(
        SAMPLER_HEADER_M0_3_SAMPLER_STATE_POINTER.set(0, 0x0123_4567 >> 4),
        0x0123_4560
    );
    assert_eq!(
        (
            SAMPLER_HEADER_M0_3_IGNORED_3_0.hi,
            SAMPLER_HEADER_M0_3_IGNORED_3_0.access
        ),
        (3, "ignored")
    );
    let rows = [
        (&SAMPLER_HEADER_M0_5_RESERVED_31_5, 5, 31, 5, "reserved"),
        (&SAMPLER_HEADER_M0_4_DESTINATION_Y, 4, 31, 16, "field"),
        (&SAMPLER_HEADER_M0_4_DESTINATION_X, 4, 15, 0, "field"),
        (&SAMPLER_HEADER_M0_2_RESERVED_21, 2, 21, 21, "reserved"),
        (&SAMPLER_HEADER_M0_2_RESERVED_20, 2, 20, 20, "reserved"),
        (&SAMPLER_HEADER_M0_1_RESERVED, 1, 31, 0, "reserved"),
        (&SAMPLER_HEADER_M0_0_RESERVED, 0, 31, 0, "reserved"),
    ];
    for (f, dw, hi, lo, acc) in rows {
        assert_eq!(
            (f.dword, f.hi, f.lo, f.access),
            (dw, hi, lo, acc),
            "{}",
            f.id
        );
    }
    // IDs of the rows above, as spec/ spells them.
    let ids = [
        "msgfield.sampler-header.m0-5.reserved-31-5",
        "msgfield.sampler-header.m0-5.output-format",
        "msgfield.sampler-header.m0-4.destination-y",
        "msgfield.sampler-header.m0-4.destination-x",
        "msgfield.sampler-header.m0-3.sampler-state-pointer",
        "msgfield.sampler-header.m0-3.ignored-3-0",
        "msgfield.sampler-header.m0-2.render-target-bti",
        "msgfield.sampler-header.m0-2.pixel-null-mask-enable",
        "msgfield.sampler-header.m0-2.simd-mode-extension",
        "msgfield.sampler-header.m0-2.reserved-21",
        "msgfield.sampler-header.m0-2.reserved-20",
        "msgfield.sampler-header.m0-2.simd32-64-output-format",
        "msgfield.sampler-header.m0-2.gather4-channel",
        "msgfield.sampler-header.m0-2.alpha-write-mask",
        "msgfield.sampler-header.m0-2.blue-write-mask",
        "msgfield.sampler-header.m0-2.green-write-mask",
        "msgfield.sampler-header.m0-2.red-write-mask",
        "msgfield.sampler-header.m0-2.u-offset",
        "msgfield.sampler-header.m0-2.v-offset",
        "msgfield.sampler-header.m0-2.r-offset",
        "msgfield.sampler-header.m0-1.reserved",
        "msgfield.sampler-header.m0-0.reserved",
    ];
    let spec_ids: Vec<&str> = FIELDS
        .iter()
        .filter(|f| f.message == "sampler_header")
        .map(|f| f.id)
        .collect();
    assert_eq!(spec_ids, ids);
}

#[test]
fn gateway_barrier_values() {
    use messages::field::*;
    let rows = [
        (
            &GATEWAY_BARRIER_M0_5_IGNORED,
            "msgfield.gateway-barrier.m0-5.ignored",
            5,
            31,
            0,
        ),
        (
            &GATEWAY_BARRIER_M0_4_IGNORED,
            "msgfield.gateway-barrier.m0-4.ignored",
            4,
            31,
            0,
        ),
        (
            &GATEWAY_BARRIER_M0_3_PREDICATE_MASK,
            "msgfield.gateway-barrier.m0-3.predicate-mask",
            3,
            31,
            0,
        ),
        (
            &GATEWAY_BARRIER_M0_2_BARRIER_ID_MSB,
            "msgfield.gateway-barrier.m0-2.barrier-id-msb",
            2,
            31,
            31,
        ),
        (
            &GATEWAY_BARRIER_M0_2_IGNORED_30,
            "msgfield.gateway-barrier.m0-2.ignored-30",
            2,
            30,
            30,
        ),
        (
            &GATEWAY_BARRIER_M0_2_UNSTATED_29_28,
            "msgfield.gateway-barrier.m0-2.unstated-29-28",
            2,
            29,
            28,
        ),
        (
            &GATEWAY_BARRIER_M0_2_BARRIER_ID,
            "msgfield.gateway-barrier.m0-2.barrier-id",
            2,
            27,
            24,
        ),
        (
            &GATEWAY_BARRIER_M0_2_IGNORED_23_16,
            "msgfield.gateway-barrier.m0-2.ignored-23-16",
            2,
            23,
            16,
        ),
        (
            &GATEWAY_BARRIER_M0_2_BARRIER_COUNT_ENABLE,
            "msgfield.gateway-barrier.m0-2.barrier-count-enable",
            2,
            15,
            15,
        ),
        (
            &GATEWAY_BARRIER_M0_2_BARRIER_COUNT,
            "msgfield.gateway-barrier.m0-2.barrier-count",
            2,
            14,
            9,
        ),
        (
            &GATEWAY_BARRIER_M0_2_IGNORED_8_0,
            "msgfield.gateway-barrier.m0-2.ignored-8-0",
            2,
            8,
            0,
        ),
        (
            &GATEWAY_BARRIER_M0_1_IGNORED,
            "msgfield.gateway-barrier.m0-1.ignored",
            1,
            31,
            0,
        ),
        (
            &GATEWAY_BARRIER_M0_0_IGNORED_31_4,
            "msgfield.gateway-barrier.m0-0.ignored-31-4",
            0,
            31,
            4,
        ),
        (
            &GATEWAY_BARRIER_M0_0_UNSTATED_3_0,
            "msgfield.gateway-barrier.m0-0.unstated-3-0",
            0,
            3,
            0,
        ),
    ];
    for (f, id, dw, hi, lo) in rows {
        assert_eq!((f.id, f.dword, f.hi, f.lo), (id, dw, hi, lo));
    }
    // A 5-bit barrier ID 0x13 splits into bit 31 and bits 27:24 (= 3), as the seed says.
    let id = 0x13u32;
    let d = GATEWAY_BARRIER_M0_2_BARRIER_ID.set(
        GATEWAY_BARRIER_M0_2_BARRIER_ID_MSB.set(0, id >> 4),
        id & 0xF,
    );
    assert_eq!(d, 0x8300_0000);
    let bits = GATEWAY_BARRIER_M0_2_BARRIER_ID_MSB.hi - GATEWAY_BARRIER_M0_2_BARRIER_ID_MSB.lo
        + 1
        + GATEWAY_BARRIER_M0_2_BARRIER_ID.hi
        - GATEWAY_BARRIER_M0_2_BARRIER_ID.lo
        + 1;
    assert_eq!(bits as i64, pm::GATEWAY_BARRIER_ID_BITS.value);
    assert_eq!(
        1i64 << (GATEWAY_BARRIER_M0_2_BARRIER_ID.hi - GATEWAY_BARRIER_M0_2_BARRIER_ID.lo + 1),
        pm::GATEWAY_BARRIER_STATES.value
    );
    // Barrier count: 6 bits.
    assert_eq!(GATEWAY_BARRIER_M0_2_BARRIER_COUNT.mask(), 0x7E00);
}

/// (bank, slm_mode, config, slm, urb, rest, dc, ro, sum) from the seed's four tables.
fn seed_l3_rows() -> BTreeSet<(String, bool, [u32; 7])> {
    let text = seed004();
    let mut out = BTreeSet::new();
    let mut bank = "";
    let mut slm = false;
    for l in text.lines() {
        let t = l.trim();
        if t.contains("Multi-Bank Allocation Options") {
            bank = "multi";
        } else if t.contains("Single-Bank Allocation Options") {
            bank = "single";
        } else if t.contains("The table above describes") {
            bank = "";
        } else if t.contains("No Shared Local Memory Mode") {
            slm = false;
        } else if t.contains("Shared Local Memory Mode") {
            slm = true;
        } else if !bank.is_empty() {
            let n: Vec<u32> = t
                .split_whitespace()
                .filter_map(|w| w.parse().ok())
                .collect();
            if n.len() == 7 && t.split_whitespace().count() == 7 {
                out.insert((bank.to_string(), slm, n.try_into().unwrap()));
            }
        }
    }
    out
}

#[test]
fn l3_allocation_rows_are_the_seed_tables() {
    let Some(_) = crate::material::seeds() else {
        return;
    };
    let seed = seed_l3_rows();
    assert_eq!(seed.len(), 15);
    let spec: BTreeSet<(String, bool, [u32; 7])> = L3_ALLOCS
        .iter()
        .map(|a| {
            (
                a.bank.to_string(),
                a.slm_mode,
                [a.config, a.slm, a.urb, a.rest, a.dc, a.ro, a.sum],
            )
        })
        .collect();
    assert_eq!(spec, seed);
    let ids = [
        ("l3.multi.no-slm.0", [0, 96, 96, 0, 0]),
        ("l3.multi.no-slm.1", [0, 96, 0, 32, 64]),
        ("l3.multi.no-slm.2", [0, 64, 0, 128, 0]),
        ("l3.multi.no-slm.3", [0, 64, 0, 0, 128]),
        ("l3.multi.no-slm.4", [0, 64, 128, 0, 0]),
        ("l3.multi.slm.1", [64, 32, 96, 0, 0]),
        ("l3.multi.slm.2", [64, 32, 0, 32, 64]),
        ("l3.multi.slm.3", [64, 32, 0, 64, 32]),
        ("l3.multi.slm.4", [64, 16, 112, 0, 0]),
        ("l3.single.no-slm.0", [0, 128, 192, 0, 0]),
        ("l3.single.no-slm.1", [0, 128, 0, 32, 160]),
        ("l3.single.no-slm.2", [0, 128, 0, 128, 64]),
        ("l3.single.slm.1", [64, 64, 192, 0, 0]),
        ("l3.single.slm.2", [64, 64, 0, 160, 32]),
        ("l3.single.slm.3", [64, 64, 0, 64, 128]),
    ];
    for (id, v) in ids {
        let a = L3_ALLOCS
            .iter()
            .find(|a| a.id == id)
            .unwrap_or_else(|| panic!("{id}"));
        assert_eq!([a.slm, a.urb, a.rest, a.dc, a.ro], v, "{id}");
        let bank_kb = if a.bank == "multi" {
            &pm::MEM_L3_MULTI_BANK_KB
        } else {
            &pm::MEM_L3_SINGLE_BANK_KB
        };
        assert_eq!(a.sum as i64, bank_kb.value, "{id}");
        // In SLM mode the SLM share is the fixed 64KB block.
        assert_eq!(a.slm_mode, a.slm as i64 == pm::MEM_SLM_KB.value, "{id}");
        assert!(a.gens.contains(Platform::Bxt) && !a.gens.contains(Platform::Skl));
    }
    assert_eq!(pm::l3_alloc("multi", true, 4).unwrap().urb, 16);
    assert!(pm::l3_alloc("multi", true, 0).is_none());
}

#[test]
fn facts_carry_the_seed_values() {
    let Some(_) = crate::material::seeds() else {
        return;
    };
    let text = seed004().split_whitespace().collect::<Vec<_>>().join(" ");
    // (id, value, a phrase of seed004 that states it)
    let facts: [(&str, i64, &str); 40] = [
        ("mem.l3.multi.bank-kb", 192, "Multi-Bank: 192KB data-array"),
        ("mem.l3.multi.ways", 96, "192KB data-array and 96 logical ways"),
        ("mem.l3.multi.max-cache-ways", 64, "Up to 64 ways, up to 128KB, tagged for L3$"),
        ("mem.l3.multi.max-cache-kb", 128, "Up to 64 ways, up to 128KB, tagged for L3$"),
        ("mem.l3.multi.urb-min-kb", 64, "64KB or 96KB allocated for URB"),
        ("mem.l3.multi.urb-max-kb", 96, "64KB or 96KB allocated for URB"),
        ("mem.l3.single.bank-kb", 320, "Single-Bank: 320KB data-array"),
        ("mem.l3.single.ways", 160, "320KB data-array and 160 logical ways"),
        ("mem.l3.single.max-cache-ways", 96, "Up to 96 ways, up to 192KB, tagged for L3$"),
        ("mem.l3.single.max-cache-kb", 192, "Up to 96 ways, up to 192KB, tagged for L3$"),
        ("mem.l3.single.urb-min-kb", 64, "64KB or 128KB allocated for URB"),
        ("mem.l3.single.urb-max-kb", 128, "64KB or 128KB allocated for URB"),
        ("mem.l3.cacheline-bytes", 64, "64B Cacheline"),
        ("mem.l3.tag-address-bits-min", 39, "39/48-bit addressing support in TAG"),
        ("mem.l3.tag-address-bits-max", 48, "39/48-bit addressing support in TAG"),
        ("mem.l3.state-bits", 6, "6-bit state (2-bits of MESI, 2-bits of Surface type, 1 bit Phys/Virtual, 1-bit Global/Local)"),
        ("mem.slm.kb", 64, "it uses a fixed 64K block in each L3 Bank"),
        ("mem.slm.arrays", 16, "Highly-banked memory formed from 16x4KB arrays"),
        ("mem.slm.array-kb", 4, "Highly-banked memory formed from 16x4KB arrays"),
        ("mem.slm.parallel-dword-accesses", 16, "16 DWord-accesses (all read or all write) can be done simultaneously"),
        ("mem.slm.enable-bit", 0, "0 RW/C 0 Enable Shared Local Memory"),
        ("mem.slm.enable-default", 0, "0 RW/C 0 Enable Shared Local Memory"),
        ("csr.slm-stride-bytes", 0x10000, "A = 0x10000 // 64K SLM per SubSlice"),
        ("csr.thread-stride-bytes", 0x2000, "D = 0x2000 // 8KB"),
        ("csr.max-upper-bound-bytes", 2 << 20, "The maximum upper bound is set to 2MB for BXT-C"),
        ("sampler.btp-bits", 16, "The BTP is a 16-bit value"),
        ("sampler.bti-bits", 8, "An 8-bit Binding Table Index (BTI)"),
        ("sampler.surface-state-bits", 256, "a 256-bit RENDER_SURFACE_STATE object"),
        ("sampler.states-per-table", 16, "selects a table of 16 sampler states"),
        ("sampler.si-bits", 4, "The 4-bit Sampler Index (SI)"),
        ("sampler.ssp-align-bytes", 16, "Specifies the 16-byte aligned pointer to the sampler state table"),
        ("sampler.header-descriptor-bit", 19, "controlled by bit 19 of the Message Descriptor"),
        ("gateway.barrier-states", 16, "which one from the 16 Barrier States is updated"),
        ("gateway.barrier-id-bits", 5, "for full 5-bit barrier ID"),
        ("pool.legacy-mode-default", 1, "By default this mode is enabled"),
        ("pool.mode-enable-bits", 1, "Only a single ‘enable’ bit is defined for the entire GT device"),
        ("pool.example-subslices", 3, "a configuration which has 3 subslices, each with 6 EUs"),
        ("pool.example-pool-eus", 9, "two virtual pools with 9 and 9 EUs each"),
        ("pool.example-threads-per-eu", 6, "if each EU has 6 threads"),
        ("mem.l3.multi.bank-kb", 192, "Each Bank 192KB in size"),
    ];
    for (id, v, phrase) in facts {
        let f = pm::fact(id).unwrap_or_else(|| panic!("{id}"));
        assert_eq!(f.value, v, "{id}");
        assert!(
            text.contains(phrase),
            "{id}: seed004 does not say `{phrase}`"
        );
        assert!(f.gens.contains(Platform::Bxt), "{id}");
    }
    let listed: BTreeSet<&str> = facts.iter().map(|f| f.0).collect();
    assert_eq!(
        listed.len(),
        pm::FACTS.len(),
        "every fact row is checked here"
    );
    // The context image offset of thread 2 of EU 1 of subslice 0 (one SLM bank, 6 threads per EU).
    let d = pm::CSR_THREAD_STRIDE_BYTES.value;
    let c = d * 6;
    assert_eq!(
        pm::CSR_SLM_STRIDE_BYTES.value + c + 2 * d,
        0x10000 + 0xC000 + 0x4000
    );
    // SLM arrays fill the SLM block.
    assert_eq!(
        pm::MEM_SLM_ARRAYS.value * pm::MEM_SLM_ARRAY_KB.value,
        pm::MEM_SLM_KB.value
    );
}

#[test]
fn seed_tables_are_in_the_ids_json_and_reference() {
    let ids: Vec<&str> = euref::spec::ALL_IDS.iter().map(|(i, _)| *i).collect();
    assert!(ids.contains(&"msg.gateway-barrier"));
    assert!(ids.contains(&"l3.single.slm.3"));
    assert!(ids.contains(&"csr.thread-stride-bytes"));
    let json: serde_json::Value = serde_json::from_str(euref::spec::SPEC_JSON).unwrap();
    let files = json["files"].as_object().unwrap();
    let key = |suffix: &str| files.keys().find(|k| k.ends_with(suffix)).cloned().unwrap();
    let pm = &files[&key("platform_memory.toml")];
    assert_eq!(pm["l3_alloc"].as_array().unwrap().len(), L3_ALLOCS.len());
    assert_eq!(pm["l3_alloc"][0]["platforms"], serde_json::json!(["bxt"]));
    let msgs = &files[&key("messages.toml")];
    assert_eq!(msgs["field"].as_array().unwrap().len(), FIELDS.len());
    let md = euref::spec::SPEC_MARKDOWN;
    assert!(md.contains("| msgfield.gateway-barrier.m0-2.barrier-id |"));
    assert!(md.contains("### [[l3_alloc]] (15 rows)"));
}

/// seed001's fundamental data type table: `| long name | bits | range | 0bNNNN | TEXT |` rows.
#[test]
fn visa_type_formats_are_the_seed001_table() {
    use euref::spec::encoding::values::VISA_TYPE_FORMAT as T;
    let Some(dir) = crate::material::seeds() else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("001_8b75c615e0430fc0.txt")).unwrap();
    let mut seed = vec![];
    for l in text.lines() {
        let cells: Vec<&str> = l.split('|').map(str::trim).collect();
        if cells.len() == 7 {
            if let Some(b) = cells[4].strip_prefix("0b") {
                seed.push((
                    cells[5].to_ascii_lowercase(),
                    u64::from_str_radix(b, 2).unwrap(),
                ));
            }
        }
    }
    assert_eq!(seed.len(), 15);
    let spec: Vec<(String, u64)> = T.entries.iter().map(|(n, v)| (n.to_string(), *v)).collect();
    assert_eq!(spec, seed);
    assert_eq!(T.id, "enc.visa.type-format");
    assert_eq!(T.value("bool"), Some(10));
    assert_eq!(T.name_of(14), Some("hf"));
}

/// seed002's predication control table: `| 13-14 | Predicate Combine | "00" - sequential ...` rows.
#[test]
fn visa_pred_combine_is_the_seed002_table() {
    use euref::spec::encoding::values::VISA_PRED_COMBINE as T;
    let Some(dir) = crate::material::seeds() else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("002_d836a26c69248888.txt")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("Predicate Combine"))
        .unwrap();
    let mut seed = vec![];
    for l in &lines[at..at + 4] {
        let v = l.split('|').nth(3).unwrap().trim();
        let code = u64::from_str_radix(&v[1..3], 2).unwrap();
        let word = v
            .split(" - ")
            .nth(1)
            .unwrap()
            .split([':', ' '])
            .next()
            .unwrap();
        seed.push((code, word.to_string()));
    }
    assert_eq!(seed[0], (0, "sequential".to_string()));
    assert_eq!(seed[3], (3, "reserved".to_string()));
    assert_eq!(T.id, "enc.visa.pred-combine");
    assert_eq!(T.value("seq"), Some(seed[0].0));
    assert_eq!(T.name_of(seed[1].0), Some(seed[1].1.as_str()));
    assert_eq!(T.name_of(seed[2].0), Some(seed[2].1.as_str()));
    assert_eq!(T.name_of(3), None, "3 is reserved");
}

#[test]
fn programming_notes_quote_the_seed() {
    let Some(_) = crate::material::seeds() else {
        return;
    };
    let text = seed004().split_whitespace().collect::<Vec<_>>().join(" ");
    let ids = [
        "note.sampler.state-cache-base-address",
        "note.sampler.state-cache-objects",
        "note.sampler.bindless-with-bindless-surfaces",
        "note.sampler.no-all-channels-masked",
        "note.gpgpu.sampler-header-when-preemptible",
        "note.gpgpu.preemption-points",
        "note.gpgpu.state-flush-before-curbe",
        "note.gpgpu.no-preemption-media-object",
        "note.media.object-needs-payload",
        "note.media.walker-no-indirect",
        "note.media.stalling-pipe-control-after-barriers",
        "note.barrier.global-not-with-linked",
        "note.barrier.global-local-legacy-only",
        "note.l3.slm-enable-after-flush",
    ];
    let rows: Vec<&str> = pm::NOTES.iter().map(|n| n.id).collect();
    assert_eq!(rows, ids);
    for n in pm::NOTES {
        assert!(
            text.contains(n.quote),
            "{}: seed004 does not say `{}`",
            n.id,
            n.quote
        );
        assert!(
            n.id.starts_with(&format!("note.{}.", n.subject)),
            "{}",
            n.id
        );
    }
    // The header rule agrees with the fact row.
    assert!(pm::NOTE_GPGPU_SAMPLER_HEADER_WHEN_PREEMPTIBLE
        .quote
        .contains(&format!("bit {}", pm::SAMPLER_HEADER_DESCRIPTOR_BIT.value)));
    // The preemption list names the commands of the seed's list.
    for cmd in [
        "MI_ARB_CHECK",
        "MEDIA_STATE_FLUSH",
        "PIPE_CONTROL",
        "MI_WAIT_FOR_EVENT",
        "MI_SEMAPHORE_WAIT",
        "GPGPU_WALKER",
    ] {
        assert!(
            pm::NOTE_GPGPU_PREEMPTION_POINTS.text.contains(cmd) && text.contains(cmd),
            "{cmd}"
        );
    }
}
