//! `exec::step_prepared_imms`: an instruction prepared once ([`Prepared`]) and executed with
//! other immediate values has `exec::step`'s effect on the instruction with those values (state,
//! report and errors), on golden vectors of every platform and on boundary immediates of every
//! immediate type; the values given for other sources are ignored.

use crate::exec_util;

use euref::exec::{imm_bits, step, step_prepared_imms, ExecOptions, Prepared};
use euref::isa::{Insn, Src};
use euref::spec::{DataType, Platform};
use euref::state::ThreadState;
use exec_util::{golden_insns, insn, Rng};

/// `insn` with the bits of its immediate sources replaced by `bits(k, type)`.
fn with_imms(insn: &Insn, mut bits: impl FnMut(usize, DataType) -> u64) -> Insn {
    let mut i = insn.clone();
    for (k, s) in i.src.iter_mut().enumerate() {
        if let Some(Src::Imm(im)) = s {
            im.bits = bits(k, im.ty);
        }
    }
    i
}

/// Execute `ins` prepared as `template` (the same instruction but for immediate values) and
/// unprepared: the same states and results.
fn same_effect(st: &ThreadState, template: &Insn, ins: &Insn, what: &str) -> bool {
    let pre = Prepared::new(st, template.clone());
    let (mut a, mut b) = (st.clone(), st.clone());
    let ra = step(&mut a, ins);
    let rb = step_prepared_imms(&mut b, &pre, &imm_bits(ins), &ExecOptions::default());
    assert_eq!(ra, rb, "{what}");
    assert!(a == b, "{what}: the states differ");
    ra.is_ok()
}

/// A state with random defined GRF bytes, flags and accumulators.
fn random_state(p: Platform, rng: &mut Rng) -> ThreadState {
    let mut st = ThreadState::zeroed(p);
    let grf: Vec<u8> = (0..st.grf_size()).map(|_| rng.next() as u8).collect();
    st.write_grf_bytes(0, &grf).unwrap();
    for name in ["f0", "f1", "acc0", "acc1"] {
        let bytes: Vec<u8> = (0..32).map(|_| rng.next() as u8).collect();
        // (Flag registers take 4 bytes, accumulators 32: the other write is refused.)
        let _ = st.set_arf_bytes(name, 0, &bytes[..4]);
        let _ = st.set_arf_bytes(name, 0, &bytes);
    }
    st
}

#[test]
fn golden_vectors_with_other_immediates_execute_like_step() {
    let mut with_imm = 0;
    for p in Platform::ALL {
        let mut rng = Rng(0x5eed ^ p as u64);
        for (v, ins) in golden_insns(p, 3, 3000) {
            let st = random_state(p, &mut rng);
            let id = v["id"].as_str().unwrap();
            // Prepared with itself, with zero immediates and with random ones.
            same_effect(&st, &ins, &ins, id);
            if ins.has_imm_src() {
                let zero = with_imms(&ins, |_, _| 0);
                same_effect(&st, &zero, &ins, id);
                let other = with_imms(&ins, |_, _| rng.next());
                same_effect(&st, &other, &ins, id);
                same_effect(&st, &ins, &other, id);
                with_imm += 1;
            }
        }
    }
    assert!(with_imm > 600, "only {with_imm} vectors with immediates");
}

/// Boundary bit patterns of an immediate of type `t` (integers: 0, ±1, extremes; floats:
/// zeros, denormals, extremes, infinities, NaNs; vectors: patterns of their elements).
fn boundary(t: DataType) -> Vec<u64> {
    let bits = t.bits();
    let m = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let mut v = vec![0, 1, m, m >> 1, (m >> 1) + 1, m - 1, 2, 0x7f, 0x80, 0xff];
    v.extend([
        0x3f80_0000,
        0xbf80_0000,
        0x0000_0001,
        0x8000_0001,
        0x007f_ffff,
        0x7f7f_ffff,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0x7f80_0001,
        0x3c00_3c00,
        0x7c00_7c00,
        0x0001_0001,
        0x7e00_7e00,
        0xfbff_fbff,
        0x3ff0_0000_0000_0000,
        0x7ff0_0000_0000_0000,
        0x7ff8_0000_0000_0000,
        0x0000_0000_0000_0001,
        0x7fef_ffff_ffff_ffff,
        0x8000_0000_0000_0000,
        0x7654_3210,
        0x89ab_cdef,
        0xf0f0_f0f0,
    ]);
    v.into_iter().map(|x| x & m).collect()
}

#[test]
fn boundary_immediates_of_every_type_execute_like_step() {
    let progs: &[&str] = &[
        "add (8|M0) r10.0<1>:d r2.0<8;8,1>:d 0x7:d",
        "add.sat (8|M0) r10.0<1>:ud r2.0<8;8,1>:ud 0x7:ud",
        "add (16|M0) r10.0<1>:w r2.0<16;16,1>:w 0x7:w",
        "mul (8|M0) r10.0<1>:uw r2.0<8;8,1>:uw 0x7:uw",
        "mul (8|M0) r10.0<1>:d r2.0<8;8,1>:d 0x7:uw",
        "add (8|M0) r10.0<1>:f r2.0<8;8,1>:f 0x3f800000:f",
        "mul.sat (8|M0) r10.0<1>:f r2.0<8;8,1>:f 0x3f800000:f",
        "add.le.f0.0 (8|M0) r10.0<1>:f -r2.0<8;8,1>:f 0x3f800000:f",
        "mov (8|M0) r10.0<1>:f 0x3f800000:f",
        "mov (8|M0) r10.0<1>:d 0x7:d",
        "mov (8|M0) r10.0<1>:w 0x76543210:v",
        "mov (8|M0) r10.0<1>:uw 0x76543210:uv",
        "mov (8|M0) r10.0<1>:f 0x38302820:vf",
        "add (8|M0) r10.0<1>:f r2.0<8;8,1>:f 0x38302820:vf",
        "cmp.l.f0.0 (8|M0) r10.0<1>:d r2.0<8;8,1>:d 0x7:d",
        "cmp.l.f0.0 (8|M0) r10.0<1>:f r2.0<8;8,1>:f 0x3f800000:f",
        "(f0.0) sel (8|M0) r10.0<1>:f r2.0<8;8,1>:f 0x3f800000:f",
        "sel.ge (8|M0) r10.0<1>:d r2.0<8;8,1>:d 0x7:d",
        "and (8|M0) r10.0<1>:ud r2.0<8;8,1>:ud 0xf0f0f0f0:ud",
        "shl (8|M0) r10.0<1>:d r2.0<8;8,1>:d 0x3:d",
        "add (8|M0) r10.0<1>:hf r2.0<8;8,1>:hf 0x3c00:hf",
        "mov (4|M0) r10.0<1>:df 0x3ff0000000000000:df",
        "add (4|M0) r10.0<1>:df r2.0<4;4,1>:df 0x3ff0000000000000:df",
        "mov (4|M0) r10.0<1>:q 0x7:q",
        "add (4|M0) r10.0<1>:q r2.0<4;4,1>:q 0x7:q",
        "add (8|M0) acc0.0<1>:d r2.0<8;8,1>:d 0x7:d",
        "math.pow (8|M0) r10.0<1>:f r2.0<8;8,1>:f 0x3f800000:f",
        "math.intdiv (8|M0) r10.0<1>:d r2.0<8;8,1>:d 0x7:d",
    ];
    let mut executed = 0;
    for p in Platform::ALL {
        let mut rng = Rng(0x1234 ^ p as u64);
        for text in progs {
            let d = euref::asm::detect_dialect(text.as_bytes());
            // Not every form exists on every platform.
            let Ok(template) = euref::asm::parse_insn(text, d, p) else {
                continue;
            };
            let Some(ty) = template.src.iter().flatten().find_map(|s| match s {
                Src::Imm(im) => Some(im.ty),
                Src::Reg(_) => None,
            }) else {
                panic!("`{text}` has no immediate");
            };
            let st = random_state(p, &mut rng);
            for b in boundary(ty) {
                let ins = with_imms(&template, |_, _| b);
                let what = format!("{p:?} `{text}` with {b:#x}");
                if same_effect(&st, &template, &ins, &what) {
                    executed += 1;
                }
            }
        }
    }
    assert!(executed > 2000, "only {executed} executed");
}

#[test]
fn values_for_other_sources_are_ignored() {
    let p = Platform::Skl;
    let mut rng = Rng(99);
    for text in [
        "add (8|M0) r10.0<1>:d r2.0<8;8,1>:d r3.0<8;8,1>:d",
        "add (8|M0) r10.0<1>:d r2.0<8;8,1>:d 0x7:d",
        "mad (8|M0) r10.0<1>:f r2.0<8;8,1>:f r3.0<8;8,1>:f r4.0<8;8,1>:f",
    ] {
        let ins = insn(p, text);
        let st = random_state(p, &mut rng);
        let pre = Prepared::new(&st, ins.clone());
        let mut imms = [rng.next(), rng.next(), rng.next()];
        for (k, s) in ins.src.iter().enumerate() {
            if let Some(Src::Imm(im)) = s {
                imms[k] = im.bits;
            }
        }
        let (mut a, mut b) = (st.clone(), st.clone());
        let ra = step(&mut a, &ins).unwrap();
        let rb = step_prepared_imms(&mut b, &pre, &imms, &ExecOptions::default()).unwrap();
        assert_eq!(ra, rb, "{text}");
        assert!(a == b, "{text}");
        assert!(a != st, "{text}: nothing executed");
    }
}
