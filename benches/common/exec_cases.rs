//! Representative single instructions for the execution-cost benchmark (`benches/exec.rs`)
//! and profile (`examples/exec_profile.rs`), on Skylake, with every source register defined.

use euref::asm::{parse_insn, Dialect};
use euref::exec::Prepared;
use euref::isa::Insn;
use euref::spec::Platform;
use euref::state::ThreadState;

/// The platform of the cases.
pub const PLATFORM: Platform = Platform::Skl;

/// (name, IGA text): integer add, float add, float mad, extended math, and a compare writing
/// a flag register.
pub const CASES: [(&str, &str); 5] = [
    (
        "int_add_simd16",
        "add (16|M0) r10.0<1>:d r20.0<8;8,1>:d r22.0<8;8,1>:d",
    ),
    (
        "float_add_simd16",
        "add (16|M0) r10.0<1>:f r20.0<8;8,1>:f r22.0<8;8,1>:f",
    ),
    (
        "float_mad_simd16",
        "mad (16|M0) r10.0<1>:f r20.0<4;4,1>:f r22.0<4;4,1>:f r24.0<4;4,1>:f",
    ),
    (
        "math_inv_simd8",
        "math.inv (8|M0) r10.0<1>:f r20.0<8;8,1>:f null<8;8,1>:f",
    ),
    (
        "cmp_flags_simd16",
        "cmp.l.f0.0 (16|M0) r10.0<1>:f r20.0<8;8,1>:f r22.0<8;8,1>:f",
    ),
];

/// The default Skylake state with r0-r127 defined: normal floats of both signs (also read
/// as integers), and f0, f1 defined.
pub fn state() -> ThreadState {
    let mut st = ThreadState::new(PLATFORM);
    for (k, o) in (0..st.grf_size()).step_by(4).enumerate() {
        let v = (1.0f32 + (k % 97) as f32 / 64.0) * if k % 3 == 0 { -1.0 } else { 1.0 };
        st.write_grf(o, 4, u64::from(v.to_bits()), false)
            .expect("GRF write");
    }
    for f in ["f0", "f1"] {
        st.set_arf_bytes(f, 0, &[0x5a, 0xa5, 0x0f, 0xf0])
            .expect("flag register");
    }
    st
}

/// The instruction of a case.
pub fn insn(text: &str) -> Insn {
    parse_insn(text, Dialect::Iga, PLATFORM).expect("case instruction")
}

/// The instruction of a case with its operands resolved (as `euref golden` executes).
pub fn prepared(st: &ThreadState, text: &str) -> Prepared {
    Prepared::new(st, insn(text))
}
