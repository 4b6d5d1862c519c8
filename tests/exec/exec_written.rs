//! `StepInfo::written` covers every change a step makes: golden vectors of every platform
//! (every opcode with a template, random operands and values) executed on states whose GRF and
//! accumulators hold random defined bytes, every GRF byte, ARF byte, undefined flag and
//! accumulator record compared before and after.

use crate::exec_util;

use euref::conformance::regs;
use euref::spec::Platform;
use euref::state::{ThreadState, Written};
use exec_util::{golden_insns, insn, Rng};

/// A state with random defined GRF bytes and accumulators, then the vector's initial values.
fn state(p: Platform, v: &serde_json::Value, rng: &mut Rng) -> ThreadState {
    let mut st = ThreadState::zeroed(p);
    let grf: Vec<u8> = (0..st.grf_size()).map(|_| rng.next() as u8).collect();
    st.write_grf_bytes(0, &grf).unwrap();
    let accs: Vec<String> = st
        .arf_layout()
        .regs
        .iter()
        .filter(|r| r.info.name == "acc")
        .map(|r| r.name.clone())
        .collect();
    for name in accs {
        let bytes: Vec<u8> = (0..32).map(|_| rng.next() as u8).collect();
        let _ = st.set_arf_bytes(&name, 0, &bytes);
    }
    for (name, hex) in v["initial"].as_object().unwrap() {
        let bytes = regs::parse_hex(hex.as_str().unwrap()).unwrap();
        regs::write(&mut st, name, &bytes).unwrap();
    }
    st
}

/// Every change from `a` to `b` lies in `w` (the ip register aside).
fn check(a: &ThreadState, b: &ThreadState, w: &Written, what: &str) {
    let rb = a.grf_reg_bytes();
    for o in 0..a.grf_size() {
        let changed = a.grf_bytes()[o] != b.grf_bytes()[o]
            || a.grf_byte_undefined(o) != b.grf_byte_undefined(o);
        assert!(
            !changed || (w.grf.0 <= o && o < w.grf.1 && w.grf_regs(rb).contains(&(o / rb))),
            "{what}: r{} byte {o} changed outside {:?}",
            o / rb,
            w.grf
        );
    }
    let layout = a.arf_layout();
    for (i, r) in layout.regs.iter().enumerate() {
        if r.name == "ip" {
            continue;
        }
        let (ab, au) = a.arf_reg(i).unwrap();
        let (bb, bu) = b.arf_reg(i).unwrap();
        for k in 0..r.bytes {
            let und = |u: &[u32]| (u[k / 4] >> (8 * (k % 4))) & 0xff;
            if ab[k] != bb[k] || und(&au) != und(&bu) {
                let at = r.base + k;
                assert!(
                    w.arf_overlaps(at, at + 1),
                    "{what}: {} byte {k} changed outside {:?}",
                    r.name,
                    w.arf
                );
            }
        }
        if r.info.name == "acc" && a.acc_ext(usize::from(r.num)) != b.acc_ext(usize::from(r.num)) {
            assert!(
                w.arf_overlaps(r.base, r.base + r.bytes),
                "{what}: {} record changed outside {:?}",
                r.name,
                w.arf
            );
        }
    }
}

#[test]
fn every_change_of_a_step_is_in_what_it_reports() {
    let mut executed = 0;
    for p in Platform::ALL {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ p as u64);
        for (v, ins) in golden_insns(p, 11, 1500) {
            let before = state(p, &v, &mut rng);
            let mut after = before.clone();
            let Ok(info) = euref::exec::step(&mut after, &ins) else {
                continue;
            };
            check(&before, &after, &info.written, v["id"].as_str().unwrap());
            // The prepared path reports the same.
            let pre = euref::exec::Prepared::new(&before, ins);
            let mut again = before.clone();
            let info2 = euref::exec::step_prepared(&mut again, &pre, &Default::default()).unwrap();
            assert_eq!(info, info2);
            executed += 1;
        }
    }
    assert!(executed > 5000, "only {executed} steps");
}

#[test]
fn a_grf_write_reports_its_register_only() {
    let p = Platform::Skl;
    let mut st = ThreadState::zeroed(p);
    let add = insn(p, "add (8|M0) r10.0<1>:d r2.0<8;8,1>:d r3.0<8;8,1>:d");
    let info = euref::exec::step(&mut st, &add).unwrap();
    assert_eq!(info.written.grf, (320, 352));
    assert_eq!(info.written.grf_regs(32), 10..11);
    assert!(
        info.written.arf.0 >= info.written.arf.1,
        "{:?}",
        info.written.arf
    );
    // With AccWrEn the accumulator is written too.
    let add = insn(
        p,
        "add (8|M0) r12.0<1>:d r2.0<8;8,1>:d r3.0<8;8,1>:d {AccWrEn}",
    );
    let info = euref::exec::step(&mut st, &add).unwrap();
    assert_eq!(info.written.grf_regs(32), 12..13);
    let acc0 = st.arf_layout().by_name("acc0").unwrap();
    let r = &st.arf_layout().regs[acc0];
    assert!(info.written.arf_overlaps(r.base, r.base + r.bytes));
}
