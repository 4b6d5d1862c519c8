//! spec/registers.toml: register files, every ARF register type, every bit field (cover,
//! round trips, the a0 12-bit asymmetry) and the accumulator channel precision table, against
//! values written here from seed000 §3.3, seed003, seed004 and Mesa/IGA.

use euref::spec::registers::{self, field, Access, FieldAccess, FieldInfo};
use euref::spec::{DataType, Platform};
use euref::values::arf_store;

use FieldAccess::{Mbz, Reserved, Ro, Rw, Special, Zero};

/// Platform sets used by the expectations below (order ivb hsw bdw chv skl bxt).
fn set(s: &str) -> [bool; 6] {
    match s {
        "all" => [true; 6],
        "gen7 gen7.5" => [true, true, false, false, false, false],
        "gen7 gen7.5 gen8" => [true, true, true, true, false, false],
        "gen8+" => [false, false, true, true, true, true],
        "gen9" => [false, false, false, false, true, true],
        other => panic!("unexpected platform set {other:?} in the test table"),
    }
}

#[test]
fn register_files() {
    // seed000 §3.3.2: 128 registers r0-r127 of 256 bits per thread.
    let grf = registers::file("grf").expect("grf row");
    assert_eq!(grf.id, "regfile.grf");
    assert_eq!((grf.count, grf.reg_bytes), (Some(128), Some(32)));
    // seed000 §3.3.3.1: SubRegNum has 5 bits, so an ARF register has at most 32 bytes.
    let arf = registers::file("arf").expect("arf row");
    assert_eq!(arf.id, "regfile.arf");
    assert_eq!((arf.count, arf.reg_bytes), (None, Some(32)));
    let imm = registers::file("imm").expect("imm row");
    assert_eq!(imm.id, "regfile.imm");
    assert_eq!((imm.count, imm.reg_bytes), (None, None));
    assert_eq!(registers::FILES.len(), 3);
    for f in registers::FILES.iter() {
        assert!(
            Platform::ALL.iter().all(|p| f.gens.contains(*p)),
            "{}",
            f.id
        );
    }
}

/// (id, name, RegNum[7:4], count per platform, bytes, elem bits, access, granularity,
/// SubRegNum range)
type ArfRow = (
    &'static str,
    &'static str,
    u8,
    [u32; 6],
    u32,
    u32,
    Access,
    u32,
    Option<(u32, u32)>,
);

/// (id, types, regs, channels, bits per channel, platforms)
type AccRow = (
    &'static str,
    &'static [DataType],
    &'static [&'static str],
    u32,
    u32,
    &'static str,
);

/// The spec row of `row`'s ID, after checking every column of `row` against it.
fn arf_row_matches(row: &ArfRow) -> &'static registers::ArfInfo {
    let (id, name, rt, count, bytes, eb, access, gran, sr) = *row;
    let a = registers::ARFS
        .iter()
        .find(|a| a.id == id)
        .unwrap_or_else(|| panic!("{id}"));
    assert_eq!(a.name, name, "{id}");
    assert_eq!(a.regtype, rt, "{id}");
    assert_eq!(a.count, count, "{id}");
    assert_eq!(a.bytes, bytes, "{id}");
    assert_eq!(a.elem_bits, eb, "{id}");
    assert_eq!(a.access, access, "{id}");
    assert_eq!(a.granularity, gran, "{id}");
    assert_eq!(a.subreg_range, sr, "{id}");
    a
}

#[test]
fn arf_register_types() {
    // (id, name, RegNum[7:4], count per platform, bytes, elem bits, access, granularity,
    //  SubRegNum range) from seed000 §3.3.3.1-§3.3.3.12 and seed004 (acc0-acc9).
    #[rustfmt::skip]
    let rows: &[ArfRow] = &[
        ("arf.null", "null", 0b0000, [1; 6], 32, 0, Access::None, 0, None),
        ("arf.a", "a", 0b0001, [1; 6], 32, 16, Access::Rw, 2, Some((0, 30))),
        ("arf.acc", "acc", 0b0010, [2, 2, 10, 10, 10, 10], 32, 0, Access::Rw, 2, Some((0, 16))),
        ("arf.f", "f", 0b0011, [2; 6], 4, 32, Access::Rw, 2, Some((0, 2))),
        ("arf.sr", "sr", 0b0111, [1; 6], 16, 32, Access::Rw, 1, Some((0, 12))),
        ("arf.cr", "cr", 0b1000, [1; 6], 16, 32, Access::Rw, 4, Some((0, 8))),
        ("arf.n", "n", 0b1001, [1; 6], 12, 32, Access::Ro, 4, Some((0, 8))),
        ("arf.ip", "ip", 0b1010, [1; 6], 4, 32, Access::Rw, 4, Some((0, 0))),
        ("arf.tdr", "tdr", 0b1011, [1; 6], 16, 16, Access::Ro, 2, Some((0, 14))),
        ("arf.tm", "tm", 0b1100, [1; 6], 32, 32, Access::Ro, 1, Some((0, 7))),
    ];
    // The rows that exist on every platform; the Haswell/Gen8+ types are checked in
    // arf_types_from_haswell_and_gen8.
    assert_eq!(registers::ARFS.len(), rows.len() + NEW_ARF_ROWS.len());
    for row in rows {
        let (id, name, rt, ..) = row;
        let a = arf_row_matches(row);
        assert!(!a.indexable, "{id}: no ARF register is indexable");
        for p in Platform::ALL {
            let by_type = registers::arf_by_regtype(p, *rt).map(|x| x.id);
            assert_eq!(by_type, Some(*id), "{id} on {}", p.name());
            assert_eq!(registers::arf_by_name(p, name).map(|x| x.id), Some(*id));
        }
    }
    // Reserved register types (seed000 §3.3.3.1: 0101b, 0110b, 1101b, 1110b; 0100b and 1111b
    // are not defined there either): all reserved on Ivy Bridge; 1110b and 1111b (IGA's dbg,
    // not modelled) everywhere.
    for rt in [0b0100, 0b0101, 0b0110, 0b1101, 0b1110, 0b1111] {
        assert!(
            registers::arf_by_regtype(Platform::Ivb, rt).is_none(),
            "{rt:#06b}"
        );
    }
    for p in Platform::ALL {
        for rt in [0b1110, 0b1111] {
            assert!(registers::arf_by_regtype(p, rt).is_none(), "{rt:#06b}");
        }
    }
    // Element types (seed000: a0 is UW or UD, flags UD, tdr UW).
    let a = registers::arf_by_name(Platform::Ivb, "a").unwrap();
    assert!(a.elem_types.contains(DataType::UW) && a.elem_types.contains(DataType::UD));
    assert!(!a.elem_types.contains(DataType::F));
    let tdr = registers::arf_by_name(Platform::Skl, "tdr").unwrap();
    assert_eq!(
        tdr.elem_types.iter().collect::<Vec<_>>(),
        vec![DataType::UW]
    );
}

/// Every field row: (id, hi, lo, access, platforms).
#[rustfmt::skip]
const FIELDS: &[(&str, u32, u32, FieldAccess, &str)] = &[
        ("field.cr0.0.master-exception-state", 31, 31, Special, "all"),
        ("field.cr0.0.reserved-30-16", 30, 16, Mbz, "all"),
        ("field.cr0.0.breakpoint-suppress", 15, 15, Rw, "all"),
        ("field.cr0.0.reserved-14-11", 14, 11, Mbz, "all"),
        ("field.cr0.0.fp16-denorm-mode", 10, 10, Rw, "gen9"),
        ("field.cr0.0.reserved-10", 10, 10, Mbz, "gen7 gen7.5 gen8"),
        ("field.cr0.0.reserved-9-8", 9, 8, Reserved, "all"),
        ("field.cr0.0.fp32-denorm-mode", 7, 7, Rw, "gen8+"),
        ("field.cr0.0.reserved-7", 7, 7, Reserved, "gen7 gen7.5"),
        ("field.cr0.0.df-denorm-mode", 6, 6, Rw, "all"),
        ("field.cr0.0.rounding-mode", 5, 4, Rw, "all"),
        ("field.cr0.0.vector-mask-enable", 3, 3, Rw, "all"),
        ("field.cr0.0.single-program-flow", 2, 2, Rw, "all"),
        ("field.cr0.0.acc-disable", 1, 1, Rw, "all"),
        ("field.cr0.0.fp-mode", 0, 0, Rw, "all"),
        ("field.cr0.1.breakpoint-status", 31, 31, Rw, "all"),
        ("field.cr0.1.external-halt-status", 30, 30, Rw, "all"),
        ("field.cr0.1.software-exception-control", 29, 29, Special, "all"),
        ("field.cr0.1.illegal-opcode-status", 28, 28, Rw, "all"),
        ("field.cr0.1.stack-overflow-status", 27, 27, Rw, "all"),
        ("field.cr0.1.reserved-26-24", 26, 24, Reserved, "all"),
        ("field.cr0.1.reserved-23-16", 23, 16, Mbz, "all"),
        ("field.cr0.1.breakpoint-enable", 15, 15, Rw, "all"),
        ("field.cr0.1.reserved-14", 14, 14, Reserved, "all"),
        ("field.cr0.1.software-exception-enable", 13, 13, Rw, "all"),
        ("field.cr0.1.illegal-opcode-enable", 12, 12, Rw, "all"),
        ("field.cr0.1.stack-overflow-enable", 11, 11, Rw, "all"),
        ("field.cr0.1.reserved-10-0", 10, 0, Mbz, "all"),
        ("field.cr0.2.aip", 31, 3, Rw, "all"),
        ("field.cr0.2.reserved-2-0", 2, 0, Mbz, "all"),
        ("field.cr0.3.reserved", 31, 0, Reserved, "all"),
        ("field.sr0.0.reserved-31-28", 31, 28, Mbz, "all"),
        ("field.sr0.0.ffid", 27, 24, Rw, "all"),
        ("field.sr0.0.priority-class", 23, 23, Rw, "all"),
        ("field.sr0.0.reserved-22-19", 22, 19, Mbz, "all"),
        ("field.sr0.0.priority", 18, 16, Rw, "all"),
        ("field.sr0.0.reserved-15-13", 15, 13, Mbz, "all"),
        ("field.sr0.0.hsid", 12, 12, Rw, "all"),
        ("field.sr0.0.euid", 11, 8, Rw, "all"),
        ("field.sr0.0.reserved-7-3", 7, 3, Mbz, "all"),
        ("field.sr0.0.tid", 2, 0, Rw, "all"),
        ("field.sr0.1.fftid", 31, 24, Rw, "all"),
        ("field.sr0.1.reserved-23-0", 23, 0, Mbz, "all"),
        ("field.sr0.2.dmask", 31, 0, Rw, "all"),
        ("field.sr0.3.vmask", 31, 0, Rw, "all"),
        ("field.a0.0.a0-0", 15, 0, Rw, "all"),
        ("field.a0.0.a0-1", 31, 16, Rw, "all"),
        ("field.a0.1.a0-2", 11, 0, Rw, "all"),
        ("field.a0.1.a0-2-high", 15, 12, Zero, "all"),
        ("field.a0.1.a0-3", 27, 16, Rw, "all"),
        ("field.a0.1.a0-3-high", 31, 28, Zero, "all"),
        ("field.a0.2.a0-4", 11, 0, Rw, "all"),
        ("field.a0.2.a0-4-high", 15, 12, Zero, "all"),
        ("field.a0.2.a0-5", 27, 16, Rw, "all"),
        ("field.a0.2.a0-5-high", 31, 28, Zero, "all"),
        ("field.a0.3.a0-6", 11, 0, Rw, "all"),
        ("field.a0.3.a0-6-high", 15, 12, Zero, "all"),
        ("field.a0.3.a0-7", 27, 16, Rw, "all"),
        ("field.a0.3.a0-7-high", 31, 28, Zero, "all"),
        ("field.a0.4.a0-8", 11, 0, Rw, "gen8+"),
        ("field.a0.4.a0-8-high", 15, 12, Zero, "gen8+"),
        ("field.a0.4.a0-9", 27, 16, Rw, "gen8+"),
        ("field.a0.4.a0-9-high", 31, 28, Zero, "gen8+"),
        ("field.a0.4.unpopulated", 31, 0, Reserved, "gen7 gen7.5"),
        ("field.a0.5.a0-10", 11, 0, Rw, "gen8+"),
        ("field.a0.5.a0-10-high", 15, 12, Zero, "gen8+"),
        ("field.a0.5.a0-11", 27, 16, Rw, "gen8+"),
        ("field.a0.5.a0-11-high", 31, 28, Zero, "gen8+"),
        ("field.a0.5.unpopulated", 31, 0, Reserved, "gen7 gen7.5"),
        ("field.a0.6.a0-12", 11, 0, Rw, "gen8+"),
        ("field.a0.6.a0-12-high", 15, 12, Zero, "gen8+"),
        ("field.a0.6.a0-13", 27, 16, Rw, "gen8+"),
        ("field.a0.6.a0-13-high", 31, 28, Zero, "gen8+"),
        ("field.a0.6.unpopulated", 31, 0, Reserved, "gen7 gen7.5"),
        ("field.a0.7.a0-14", 11, 0, Rw, "gen8+"),
        ("field.a0.7.a0-14-high", 15, 12, Zero, "gen8+"),
        ("field.a0.7.a0-15", 27, 16, Rw, "gen8+"),
        ("field.a0.7.a0-15-high", 31, 28, Zero, "gen8+"),
        ("field.a0.7.unpopulated", 31, 0, Reserved, "gen7 gen7.5"),
        ("field.f0.0.f0-0", 15, 0, Rw, "all"),
        ("field.f0.0.f0-1", 31, 16, Rw, "all"),
        ("field.f1.0.f1-0", 15, 0, Rw, "all"),
        ("field.f1.0.f1-1", 31, 16, Rw, "all"),
        ("field.n0.0.reserved-31-16", 31, 16, Mbz, "all"),
        ("field.n0.0.thread-count", 15, 0, Ro, "all"),
        ("field.n0.1.reserved-31-1", 31, 1, Mbz, "all"),
        ("field.n0.1.host-count", 0, 0, Ro, "all"),
        ("field.n0.2.reserved-31-16", 31, 16, Mbz, "all"),
        ("field.n0.2.thread-count", 15, 0, Ro, "all"),
        ("field.ip.0.ip", 31, 3, Rw, "all"),
        ("field.ip.0.reserved-2-0", 2, 0, Zero, "all"),
        ("field.tdr0.0.fftid0", 7, 0, Ro, "all"),
        ("field.tdr0.0.zero0", 14, 8, Zero, "all"),
        ("field.tdr0.0.valid0", 15, 15, Special, "all"),
        ("field.tdr0.0.fftid1", 23, 16, Ro, "all"),
        ("field.tdr0.0.zero1", 30, 24, Zero, "all"),
        ("field.tdr0.0.valid1", 31, 31, Special, "all"),
        ("field.tdr0.1.fftid2", 7, 0, Ro, "all"),
        ("field.tdr0.1.zero2", 14, 8, Zero, "all"),
        ("field.tdr0.1.valid2", 15, 15, Special, "all"),
        ("field.tdr0.1.fftid3", 23, 16, Ro, "all"),
        ("field.tdr0.1.zero3", 30, 24, Zero, "all"),
        ("field.tdr0.1.valid3", 31, 31, Special, "all"),
        ("field.tdr0.2.fftid4", 7, 0, Ro, "all"),
        ("field.tdr0.2.zero4", 14, 8, Zero, "all"),
        ("field.tdr0.2.valid4", 15, 15, Special, "all"),
        ("field.tdr0.2.fftid5", 23, 16, Ro, "all"),
        ("field.tdr0.2.zero5", 30, 24, Zero, "all"),
        ("field.tdr0.2.valid5", 31, 31, Special, "all"),
        ("field.tdr0.3.fftid6", 7, 0, Ro, "all"),
        ("field.tdr0.3.zero6", 14, 8, Zero, "all"),
        ("field.tdr0.3.valid6", 15, 15, Special, "all"),
        ("field.tdr0.3.fftid7", 23, 16, Ro, "all"),
        ("field.tdr0.3.zero7", 30, 24, Zero, "all"),
        ("field.tdr0.3.valid7", 31, 31, Special, "all"),
        ("field.tm0.0.tm-low", 31, 0, Ro, "all"),
        ("field.tm0.1.tm-high", 31, 0, Ro, "all"),
        ("field.tm0.2.undefined-31-1", 31, 1, Reserved, "all"),
        ("field.tm0.2.tm-event", 0, 0, Special, "all"),
        ("field.tm0.3.undefined", 31, 0, Reserved, "all"),
        ("field.tm0.4.undefined", 31, 0, Reserved, "all"),
        ("field.tm0.5.undefined", 31, 0, Reserved, "all"),
        ("field.tm0.6.undefined", 31, 0, Reserved, "all"),
        ("field.tm0.7.undefined", 31, 0, Reserved, "all"),
];

fn parse_id(id: &str) -> (&str, u32) {
    let mut it = id.split('.');
    assert_eq!(it.next(), Some("field"));
    let reg = it.next().unwrap();
    let dword = it.next().unwrap().parse().unwrap();
    (reg, dword)
}

fn info(id: &str) -> &'static FieldInfo {
    registers::FIELDS
        .iter()
        .copied()
        .find(|f| f.id == id)
        .unwrap_or_else(|| panic!("no field row {id}"))
}

#[test]
fn every_field_row() {
    assert_eq!(registers::FIELDS.len(), FIELDS.len());
    for (id, hi, lo, access, gens) in FIELDS {
        let f = info(id);
        let (reg, dword) = parse_id(id);
        assert_eq!((f.reg, f.dword, f.hi, f.lo), (reg, dword, *hi, *lo), "{id}");
        assert_eq!(f.access, *access, "{id}");
        let g = set(gens);
        for (i, p) in Platform::ALL.into_iter().enumerate() {
            assert_eq!(f.gens.contains(p), g[i], "{id} on {}", p.name());
        }
        assert!(!f.text.is_empty() && !f.cite.is_empty(), "{id}");
    }
}

#[test]
fn fields_cover_each_dword_exactly_once() {
    let mut groups: Vec<(&str, u32)> = FIELDS.iter().map(|f| parse_id(f.0)).collect();
    groups.sort();
    groups.dedup();
    for (reg, dword) in groups {
        for p in Platform::ALL {
            let mut owned = 0u64;
            let mut any = false;
            for f in registers::fields_of(p, reg, dword) {
                any = true;
                assert_eq!(
                    owned & u64::from(f.mask()),
                    0,
                    "{} overlaps on {}",
                    f.id,
                    p.name()
                );
                owned |= u64::from(f.mask());
            }
            if any {
                assert_eq!(owned, 0xffff_ffff, "{reg} dword {dword} on {}", p.name());
            }
        }
    }
}

#[test]
fn field_get_set_round_trips() {
    let samples = [
        0u32,
        0xffff_ffff,
        0xdead_beef,
        0x1234_5678,
        0x8000_0001,
        0x5555_aaaa,
    ];
    for f in registers::FIELDS.iter() {
        let width = f.hi - f.lo + 1;
        let max = if width == 32 {
            u32::MAX
        } else {
            (1 << width) - 1
        };
        assert_eq!(f.mask(), max << f.lo, "{}", f.id);
        for x in samples {
            for v in [0, 1, max, max / 3, x] {
                let y = f.set(x, v);
                assert_eq!(f.get(y), v & max, "{}: get(set)", f.id);
                assert_eq!(y & !f.mask(), x & !f.mask(), "{}: other bits kept", f.id);
                assert_eq!(f.set(y, f.get(x)), x, "{}: set back", f.id);
            }
        }
    }
}

#[test]
fn cr0_layout() {
    // seed000 §3.3.3.8 with the Gen8+/Gen9 denorm bits from Mesa brw_eu_defines.h.
    let cr0: u32 = 0b1 << 31 | 0b11 << 4 | 1 << 6 | 1;
    assert_eq!(field::CR0_0_MASTER_EXCEPTION_STATE.get(cr0), 1);
    assert_eq!(field::CR0_0_ROUNDING_MODE.get(cr0), 0b11); // RTZ
    assert_eq!(field::CR0_0_DF_DENORM_MODE.get(cr0), 1);
    assert_eq!(field::CR0_0_FP_MODE.get(cr0), 1); // ALT
    assert_eq!(field::CR0_0_FP32_DENORM_MODE.mask(), 1 << 7);
    assert_eq!(field::CR0_0_FP16_DENORM_MODE.mask(), 1 << 10);
    assert_eq!(field::CR0_0_ACC_DISABLE.mask(), 1 << 1);
    assert_eq!(field::CR0_0_SINGLE_PROGRAM_FLOW.mask(), 1 << 2);
    assert_eq!(field::CR0_0_VECTOR_MASK_ENABLE.mask(), 1 << 3);
    assert_eq!(field::CR0_0_BREAKPOINT_SUPPRESS.mask(), 1 << 15);
    assert_eq!(field::CR0_2_AIP.mask(), 0xffff_fff8);
    // Writing the F denorm bit keeps it on Gen8+, drops it (reserved) on Gen7.
    assert_eq!(arf_store(Platform::Bdw, "cr0", 0, 0, 1 << 7), 1 << 7);
    assert_eq!(arf_store(Platform::Ivb, "cr0", 0, 0, 1 << 7), 0);
    // The HF denorm bit exists only on Gen9; elsewhere bit 10 is MBZ.
    assert_eq!(arf_store(Platform::Skl, "cr0", 0, 0, 1 << 10), 1 << 10);
    assert_eq!(arf_store(Platform::Bdw, "cr0", 0, 0, 1 << 10), 0);
    // The IP's 3 LSBs read as zero (seed000 §3.3.3.10).
    assert_eq!(
        arf_store(Platform::Hsw, "ip", 0, 0, 0x1234_567f),
        0x1234_5678
    );
    // n0 is read-only (seed000 §3.3.3.9).
    assert_eq!(arf_store(Platform::Skl, "n0", 0, 7, 0xffff), 7);
}

#[test]
fn a0_twelve_bit_asymmetry() {
    // seed000 §3.3.3.4: a0.0 and a0.1 keep 16 bits; a0.2-a0.7 keep only their low 12 bits
    // (high 4 bits dropped on write, read as zero).
    for p in Platform::ALL {
        let d0 = arf_store(p, "a0", 0, 0, 0xfedc_ba98);
        assert_eq!(d0, 0xfedc_ba98, "a0.0/a0.1 on {}", p.name());
        for dword in 1..4 {
            let d = arf_store(p, "a0", dword, 0, 0xfedc_ba98);
            assert_eq!(d & 0xffff, 0x0a98, "a0.{} on {}", 2 * dword, p.name());
            assert_eq!(d >> 16, 0x0edc, "a0.{} on {}", 2 * dword + 1, p.name());
        }
    }
    // a0.8-a0.15 exist from Gen8 (12-bit like a0.2); on Ivy Bridge / Haswell the bytes are
    // unpopulated: the write is dropped.
    for dword in 4..8 {
        assert_eq!(
            arf_store(Platform::Bdw, "a0", dword, 0, 0xffff_ffff),
            0x0fff_0fff
        );
        assert_eq!(
            arf_store(Platform::Bxt, "a0", dword, 0, 0x1234_5678),
            0x0234_0678
        );
        assert_eq!(
            arf_store(Platform::Ivb, "a0", dword, 0x55, 0xffff_ffff),
            0x55
        );
        assert_eq!(arf_store(Platform::Hsw, "a0", dword, 0, 0xffff_ffff), 0);
    }
    assert_eq!(field::A0_0_A0_0.mask(), 0x0000_ffff);
    assert_eq!(field::A0_0_A0_1.mask(), 0xffff_0000);
    assert_eq!(field::A0_1_A0_2.mask(), 0x0000_0fff);
    assert_eq!(field::A0_1_A0_2_HIGH.access, Zero);
    assert_eq!(field::A0_1_A0_3.mask(), 0x0fff_0000);
    assert_eq!(field::A0_7_A0_15.mask(), 0x0fff_0000);
}

#[test]
fn tdr_writes_only_clear_valid_bits_and_flags_are_plain() {
    // tdr0 FFTIDs are read-only and bits 14:8 forced to zero (seed000 §3.3.3.11); the valid
    // bits are `special` (a write clears them, which the engine implements).
    assert_eq!(
        arf_store(Platform::Ivb, "tdr0", 0, 0x8012_8034, 0xffff_ffff),
        0x8012_8034
    );
    assert_eq!(field::TDR0_0_VALID0.access, Special);
    assert_eq!(field::TDR0_3_FFTID7.mask(), 0x00ff_0000);
    assert_eq!(field::TDR0_3_ZERO7.mask(), 0x7f00_0000);
    for p in Platform::ALL {
        assert_eq!(arf_store(p, "f1", 0, 0, 0xabcd_1234), 0xabcd_1234);
        assert_eq!(field::F0_0_F0_1.get(0xabcd_1234), 0xabcd);
        assert_eq!(field::F1_0_F1_0.get(0xabcd_1234), 0x1234);
    }
    // Reserved subregister cr0.3 (seed000 §3.3.3.8) drops writes.
    assert_eq!(arf_store(Platform::Skl, "cr0", 3, 9, 0xffff_ffff), 9);
    assert_eq!(field::TM0_2_TM_EVENT.mask(), 1);
    assert_eq!(field::SR0_0_TID.mask(), 0x7);
    assert_eq!(field::SR0_0_EUID.mask(), 0xf00);
}

#[test]
fn accumulator_channel_precision() {
    // seed000 §3.3.3.5 and seed004 §Accumulator Registers:
    // (id, types in DataType order, regs, channels, bits per channel, platforms)
    #[rustfmt::skip]
    let rows: &[AccRow] = &[
        ("acc.precision.df", &[DataType::DF], &["acc0"], 4, 64, "all"),
        ("acc.precision.f", &[DataType::F], &["acc0", "acc1"], 8, 32, "all"),
        ("acc.precision.hf", &[DataType::HF], &["acc0", "acc1"], 16, 16, "gen8+"),
        ("acc.precision.d", &[DataType::UD, DataType::D], &["acc0"], 8, 64, "all"),
        ("acc.precision.w", &[DataType::UW, DataType::W], &["acc0"], 16, 33, "all"),
        ("acc.precision.b", &[DataType::UB, DataType::B], &[], 0, 0, "all"),
        ("acc.precision.q", &[DataType::UQ, DataType::Q], &[], 0, 0, "gen8+"),
    ];
    assert_eq!(registers::ACC_PRECISION.len(), rows.len());
    for (id, types, regs, ch, bits, gens) in rows {
        let a = registers::ACC_PRECISION
            .iter()
            .find(|a| a.id == *id)
            .unwrap();
        assert_eq!(a.types.iter().collect::<Vec<_>>(), types.to_vec(), "{id}");
        assert_eq!(a.regs, *regs, "{id}");
        assert_eq!((a.channels, a.bits), (*ch, *bits), "{id}");
        let g = set(gens);
        for (i, p) in Platform::ALL.into_iter().enumerate() {
            assert_eq!(a.gens.contains(p), g[i], "{id} on {}", p.name());
            for t in types.iter() {
                let found = registers::acc_precision(p, *t).map(|x| x.id);
                assert_eq!(
                    found,
                    g[i].then_some(*id),
                    "{id} lookup for {} on {}",
                    t.name(),
                    p.name()
                );
            }
        }
    }
    // A DWord accumulator holds 8 channels of 64 bits: the 64-bit mul/mach product.
    let d = registers::acc_precision(Platform::Ivb, DataType::UD).unwrap();
    assert_eq!(d.channels * d.bits, 512);
    // HF accumulators do not exist before Gen8.
    assert!(registers::acc_precision(Platform::Hsw, DataType::HF).is_none());
}

#[test]
fn field_access_kinds_present() {
    // Every access kind used by the register tables appears.
    for k in [Rw, Ro, Reserved, Mbz, Zero, Special] {
        assert!(registers::FIELDS.iter().any(|f| f.access == k), "{k:?}");
    }
}

/// The ARF types that seed003 (Figure 15) lists beyond seed000: (id, name, RegNum[7:4], count
/// per platform (0 = absent), bytes, elem bits, access, granularity, SubRegNum range), from
/// iga Models.cpp REGISTER_SPECIFICATIONS and mesa brw_eu_defines.h.
#[rustfmt::skip]
const NEW_ARF_ROWS: &[ArfRow] = &[
    // ce (Mesa mask0): 0x4, one 4-byte read-only register from Haswell.
    ("arf.ce", "ce", 0b0100, [0, 1, 1, 1, 1, 1], 4, 32, Access::Ro, 4, Some((0, 0))),
    // msg: 0x5, eight 4-byte registers from Gen8 (Mesa's 0x50 mask stack is pre-Gen6).
    ("arf.msg", "msg", 0b0101, [0, 0, 8, 8, 8, 8], 4, 32, Access::Rw, 4, Some((0, 0))),
    // sp: 0x6 from Haswell (8 bytes there, 16 from Gen8; Mesa's 0x60 mask stack depth is
    // pre-Gen6).
    ("arf.sp", "sp", 0b0110, [0, 1, 1, 1, 1, 1], 16, 0, Access::Rw, 4, Some((0, 8))),
    // fc: 0xD, fc0-fc4 from Haswell; fc0 has 32 DWords (39 DWord subregisters in all).
    ("arf.fc", "fc", 0b1101, [0, 5, 5, 5, 5, 5], 128, 32, Access::Rw, 4, None),
];

#[test]
fn arf_types_from_haswell_and_gen8() {
    for row in NEW_ARF_ROWS {
        let (id, name, rt, count, ..) = row;
        let a = arf_row_matches(row);
        assert!(!a.indexable, "{id}");
        assert!(
            a.cite.contains("iga Models.cpp"),
            "{id}: cites IGA's register table"
        );
        assert!(a.cite.contains("seed003"), "{id}: cites seed003 Figure 15");
        for (i, p) in Platform::ALL.into_iter().enumerate() {
            let present = count[i] > 0;
            assert_eq!(a.gens.contains(p), present, "{id} on {}", p.name());
            let by_type = registers::arf_by_regtype(p, *rt).map(|x| x.id);
            assert_eq!(by_type, present.then_some(*id), "{id} on {}", p.name());
            assert_eq!(
                registers::arf_by_name(p, name).map(|x| x.id),
                present.then_some(*id)
            );
        }
    }
    // Mesa's BRW_ARF_MASK (0x40, written mask0 in the mesa corpus) is the ce register.
    assert_eq!(
        registers::arf_by_regtype(Platform::Skl, 0x40 >> 4)
            .unwrap()
            .id,
        "arf.ce"
    );
    assert_eq!(
        registers::arf_by_regtype(Platform::Hsw, 0x40 >> 4)
            .unwrap()
            .id,
        "arf.ce"
    );
    // Mesa's BRW_ARF_MASK_STACK (0x50) / BRW_ARF_MASK_STACK_DEPTH (0x60) are pre-Gen6
    // registers: on Gen7-Gen9 the codes are IGA's msg (Gen8+) and sp (Haswell+).
    assert!(registers::ARFS
        .iter()
        .all(|a| !a.id.starts_with("arf.mask")));
    assert!(registers::arf_by_regtype(Platform::Hsw, 0x50 >> 4).is_none());
    assert_eq!(
        registers::arf_by_regtype(Platform::Bdw, 0x50 >> 4)
            .unwrap()
            .id,
        "arf.msg"
    );
    assert_eq!(
        registers::arf_by_regtype(Platform::Hsw, 0x60 >> 4)
            .unwrap()
            .id,
        "arf.sp"
    );
    // One register type per code per platform across the whole table.
    for p in Platform::ALL {
        for rt in 0..16u8 {
            let n = registers::ARFS
                .iter()
                .filter(|a| a.regtype == rt && a.gens.contains(p))
                .count();
            assert!(n <= 1, "{rt:#06b} on {}", p.name());
        }
    }
    // fc's 39 DWord subregisters (seed003) = fc0.0-31, fc1.0, fc2.0, fc3.0-3, fc4.0 (IGA).
    assert_eq!(32 + 1 + 1 + 4 + 1, 39);
    let sp = registers::arf_by_name(Platform::Bdw, "sp").unwrap();
    assert!(sp.elem_types.contains(DataType::UQ) && sp.elem_types.contains(DataType::UD));
    let ce = registers::arf_by_name(Platform::Skl, "ce").unwrap();
    assert_eq!(ce.elem_types.iter().collect::<Vec<_>>(), vec![DataType::UD]);
}
