//! Thread state: the documented default, ARF read-only/unpopulated behaviour per field row
//! (spec/registers.toml access kinds), the a0 12-bit asymmetry, and JSON load/save (round trip,
//! formats, error paths).

use crate::exec_util;

use euref::exec;
use euref::spec::registers::{self, FieldAccess};
use euref::spec::Platform::{self, *};
use euref::state::{json, ThreadState};
use exec_util::*;

#[test]
fn default_state_is_documented() {
    for p in Platform::ALL {
        let st = ThreadState::new(p);
        // seed000 §3.3.2: GRF not initialized; a0, acc, flags "Default Value: None".
        assert!((0..st.grf_size()).all(|b| st.grf_byte_undefined(b)));
        assert_eq!(st.flag(0).unwrap().1, u32::MAX);
        assert!(st.a0(0).unwrap().1);
        // sr0 from the dispatcher: all channels dispatched; cr0 zero (IEEE, RTNE, acc enabled).
        let dm = st.field_info("sr0", "dmask").unwrap();
        assert_eq!(st.field(dm), Some((u32::MAX, false)));
        let fm = st.field_info("cr0", "fp_mode").unwrap();
        assert_eq!(st.field(fm), Some((0, false)));
        assert_eq!(st.ip(), Some(0));
        // The ARF registers of the platform come from the [[arf]] rows.
        let accs = registers::ARFS
            .iter()
            .find(|a| a.name == "acc")
            .unwrap()
            .count[p as usize];
        assert_eq!(st.acc_count() as u32, accs);
    }
}

/// Write all ones to dword `d` of `reg` with a mov and check each field row's access kind.
fn check_fields(p: Platform, reg: &str, asm_name: &str, d: u32) {
    let mut st = zeroed(p);
    let text = if asm_name == "ip" {
        "mov (1) ip<1>:ud 0xFFFFFFFF:ud".to_string()
    } else {
        format!("mov (1) {asm_name}.{d}<1>:ud 0xFFFFFFFF:ud {{Switch}}")
    };
    exec::step(&mut st, &insn(p, &text)).unwrap_or_else(|e| panic!("{text}: {e}"));
    let i = st
        .arf_index(if asm_name == "ip" { "ip" } else { asm_name })
        .unwrap();
    let (bytes, undef) = st.arf_reg(i).unwrap();
    let b = 4 * d as usize;
    let val = u32::from_le_bytes([bytes[b], bytes[b + 1], bytes[b + 2], bytes[b + 3]]);
    let und = undef[d as usize];
    for f in registers::fields_of(p, reg, d) {
        let m = f.mask();
        let (want_val, want_undef) = match f.access {
            FieldAccess::Rw => (m, 0),
            FieldAccess::Ro => (0, 0),
            FieldAccess::Reserved => (0, m),
            FieldAccess::Zero | FieldAccess::Mbz => (0, 0),
            FieldAccess::W1c => (0, 0),
            FieldAccess::Special => match f.id {
                // Writing 1 from an application raises the software exception and sets it.
                "field.cr0.1.software-exception-control" => (m, 0),
                _ => (0, 0),
            },
        };
        assert_eq!(val & m, want_val, "{p:?} {} value", f.id);
        assert_eq!(und & m, want_undef, "{p:?} {} undefined", f.id);
    }
}

#[test]
fn arf_fields_follow_their_access_kind() {
    for p in Platform::ALL {
        let st = zeroed(p);
        for r in &st.arf_layout().regs {
            let Some(fr) = r.field_reg else { continue };
            if r.info.name == "n" || r.info.name == "tm" || r.info.name == "tdr" {
                // Read-only registers: checked below through their own rows too.
            }
            for d in 0..(r.bytes as u32).div_ceil(4) {
                check_fields(p, fr, &r.name, d);
            }
        }
    }
}

#[test]
fn read_only_and_special_registers() {
    let mut st = zeroed(Skl);
    // field.tdr0.0.valid0: a write clears the valid bit of each written word; FFTIDs are
    // strictly read-only.
    st.set_arf_bytes("tdr0", 0, &[0x12, 0x80, 0x34, 0x80])
        .unwrap();
    run(&mut st, &["mov (1) tdr0.0<1>:uw 0xFFFF:uw"]);
    let i = st.arf_index("tdr0").unwrap();
    assert_eq!(&st.arf_reg(i).unwrap().0[..4], &[0x12, 0x00, 0x34, 0x80]);
    // field.tm0.2.tm-event: reset by any read of tm0.
    st.set_arf_bytes("tm0", 8, &[1, 0, 0, 0]).unwrap();
    run(&mut st, &["mov (1) r1<1>:ud tm0.0<0;1,0>:ud"]);
    let i = st.arf_index("tm0").unwrap();
    assert_eq!(st.arf_reg(i).unwrap().0[8], 0);
    // tm0 dwords 3-7 read undefined (field.tm0.3.undefined).
    run(&mut st, &["mov (1) r2<1>:ud tm0.3<0;1,0>:ud"]);
    assert!(get1(&st, r(2, 0), 4).1);
    // cr0.3 reserved: reads undefined.
    run(&mut st, &["mov (1) r3<1>:ud cr0.3<0;1,0>:ud {Switch}"]);
    assert!(get1(&st, r(3, 0), 4).1);
    // The null register: reads undefined, writes discarded.
    run(&mut st, &["mov (1) r4<1>:ud null<0;1,0>:ud"]);
    assert!(get1(&st, r(4, 0), 4).1);
    // Writing the IP is a jump: the IP is not advanced afterwards.
    let info = exec::step(&mut st, &insn(Skl, "mov (1) ip<1>:ud 0x1234:ud")).unwrap();
    assert!(info.jumped);
    assert_eq!(st.ip(), Some(0x1230));
    // field.cr0.0.master-exception-state: clearing it returns to the AIP.
    let aip = st.field_info("cr0", "aip").unwrap();
    st.set_field(aip, 0x400 >> 3).unwrap();
    let mes = st.field_info("cr0", "master_exception_state").unwrap();
    st.set_field(mes, 1).unwrap();
    let info = exec::step(
        &mut st,
        &insn(
            Skl,
            "and (1) cr0.0<1>:ud cr0.0<0;1,0>:ud 0x7FFFFFFF:ud {Switch}",
        ),
    )
    .unwrap();
    assert!(info.jumped);
    assert_eq!(st.ip(), Some(0x400));
    assert_eq!(st.field(mes), Some((0, false)));
    // field.cr0.1.software-exception-control.
    let info = exec::step(
        &mut st,
        &insn(Skl, "mov (1) cr0.1<1>:ud 0x20000000:ud {Switch}"),
    )
    .unwrap();
    assert!(info.software_exception);
}

#[test]
fn a0_12_bit_asymmetry_and_populated_subregisters() {
    // seed000 §3.3.3.4: a0.0/a0.1 keep 16 bits; a0.2+ drop the high 4 bits on write and read
    // them as zero. a0.8-a0.15 exist from Gen8 (feature.a0-16-subregs).
    for (p, subs) in [(Ivb, 8), (Hsw, 8), (Bdw, 16), (Skl, 16)] {
        let mut st = zeroed(p);
        run(&mut st, &["mov (16) a0.0<1>:uw 0xFFFF:uw {NoMask}"]);
        for i in 0..16 {
            match st.a0(i) {
                Some((v, u)) => {
                    assert!(i < subs, "{p:?} a0.{i} should not exist");
                    assert!(!u);
                    assert_eq!(v, if i < 2 { 0xFFFF } else { 0x0FFF }, "{p:?} a0.{i}");
                }
                None => assert!(i >= subs, "{p:?} a0.{i} missing"),
            }
        }
        // ivb/hsw: the unpopulated upper half reads undefined (field.a0.4.unpopulated).
        run(&mut st, &["mov (8) r1<1>:uw a0.8<8;8,1>:uw"]);
        assert_eq!(get1(&st, r(1, 0), 2).1, subs == 8, "{p:?}");
    }
}

#[test]
fn json_round_trip_exact() {
    let mut rng = Rng(4242);
    for p in Platform::ALL {
        let mut st = ThreadState::new(p);
        rng.fill(&mut st, 0, 20);
        st.set_grf_undefined(r(3, 5), 7);
        st.set_flag(0, 0x1234_5678, 0x0000_00F0).unwrap();
        st.set_flag(1, 0xdead_beef, 0).unwrap();
        put(&mut st, r(2, 0), 4, &[0x7fff_ffff]);
        // Extended accumulator precision survives.
        run(
            &mut st,
            &[
                "mul (1) acc0.0<1>:d r2<0;1,0>:d r2<0;1,0>:d",
                "mov (4) a0.0<1>:uw 0x1F:uw",
            ],
        );
        st.set_arf_undefined("sr0", 4, 2).unwrap();
        let text = json::save(&st);
        let back = json::load(p, &text).unwrap_or_else(|e| panic!("{p:?}: {e}\n{text}"));
        assert!(back == st, "{p:?}: round trip differs\n{text}");
        // And the reloaded accumulator still holds the 64-bit product (platforms with a full
        // 32x32 multiply; the others take src1's low word, feature.mul-dword-src1-low16).
        if euref::spec::feature::MUL_DWORD_SRC1_LOW16.on(p) {
            continue;
        }
        let mut back = back;
        run(&mut back, &["mov.sat (1) r9<1>:d acc0.0<0;1,0>:d"]);
        assert_eq!(get(&back, r(9, 0), 4, 1), vec![0x7fff_ffff]);
    }
}

#[test]
fn json_formats() {
    let text = r#"{
        "platform": "skl",
        "r2": {"type": "f", "values": [1.0, -2.5, "0x7fc00001", "inf", null]},
        "r3": "00 11 22 33 xx ff",
        "r4": {"type": "w", "values": [-1, 32767], "offset": 4},
        "f0": "0x0000ffff",
        "ip": 32,
        "cr0": {"fp_mode": 1, "rounding_mode": 3},
        "acc0": {"type": "w", "values": [65534, -65536]},
        "a0": {"type": "uw", "values": [64, 96]}
    }"#;
    let st = json::load(Skl, text).unwrap();
    assert_eq!(
        get(&st, r(2, 0), 4, 4),
        vec![0x3f80_0000, 0xc020_0000, 0x7fc0_0001, 0x7f80_0000]
    );
    assert!(get1(&st, r(2, 16), 4).1);
    assert_eq!(get(&st, r(3, 0), 1, 4), vec![0x00, 0x11, 0x22, 0x33]);
    assert!(st.grf_byte_undefined(r(3, 4)));
    assert_eq!(get1(&st, r(3, 5), 1), (0xff, false));
    assert!(
        st.grf_byte_undefined(r(3, 6)),
        "bytes not given stay at the base (undefined)"
    );
    assert_eq!(get(&st, r(4, 4), 2, 2), vec![0xffff, 0x7fff]);
    assert_eq!(st.flag(0).unwrap(), (0xffff, 0));
    assert_eq!(st.ip(), Some(32));
    let fm = st.field_info("cr0", "fp_mode").unwrap();
    let rm = st.field_info("cr0", "rounding_mode").unwrap();
    assert_eq!(
        (st.field(fm), st.field(rm)),
        (Some((1, false)), Some((3, false)))
    );
    assert_eq!(st.a0(1), Some((96, false)));
    // The accumulator's 33-bit word channels take values beyond W.
    let mut st = st;
    run(&mut st, &["mov (2) r5<1>:d acc0.0<2;2,1>:w"]);
    assert_eq!(
        get(&st, r(5, 0), 4, 2),
        vec![65534, (-65536i32) as u32 as u64]
    );
    // base "zero".
    let st = json::load(Ivb, r#"{"base": "zero"}"#).unwrap();
    assert!(st == ThreadState::zeroed(Ivb));
}

#[test]
fn json_errors_name_the_path() {
    let cases = [
        (
            r#"{"r2": {"type": "f", "values": [1.0, true]}}"#,
            "$.r2.values[1]",
        ),
        (
            r#"{"r2": {"type": "w", "values": [40000]}}"#,
            "$.r2.values[0]",
        ),
        (r#"{"r2": {"type": "zz", "values": []}}"#, "$.r2.type"),
        (
            r#"{"r2": {"type": "d", "values": [1], "offset": 2}}"#,
            "$.r2.offset",
        ),
        (
            r#"{"r2": {"type": "d", "values": [1,2,3,4,5,6,7,8,9]}}"#,
            "$.r2.values",
        ),
        (r#"{"r3": "0g"}"#, "$.r3"),
        (r#"{"r200": "00"}"#, "$.r200"),
        (r#"{"bogus": 1}"#, "$.bogus"),
        (r#"{"cr0": {"no_such_field": 1}}"#, "$.cr0.no_such_field"),
        (r#"{"cr0": {"fp_mode": 2}}"#, "$.cr0.fp_mode"),
        (r#"{"f0": "0x1ffffffff"}"#, "$.f0"),
        (r#"{"platform": "ivb"}"#, "$.platform"),
        (r#"{"base": "maybe"}"#, "$.base"),
        (r#"[1, 2]"#, "$"),
        (r#"{"r2": "#, "$"),
        (
            r#"{"acc0": {"hex": "00", "undefined": "0000"}}"#,
            "$.acc0.undefined",
        ),
        (r#"{"r2": {"type": "hf", "values": [1.0]}}"#, "$.r2.type"),
    ];
    for (text, path) in cases {
        let e = json::load(Skl, text).err().unwrap_or_else(|| {
            if path == "$.r2.type" {
                // HF exists on skl: use ivb for that case below.
                return json::load(Ivb, text).unwrap_err();
            }
            panic!("{text} loaded")
        });
        assert_eq!(e.path, path, "{text}: {e}");
        assert!(!e.msg.is_empty());
        assert!(e.to_string().starts_with(path));
    }
}
